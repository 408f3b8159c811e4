// Record Weka J48's Laplace-smoothed class probabilities (-A) for tests/test_smoothing.c.
// With one file, J48 is trained on the rows whose 0-based index is not a multiple of 3 and
// predicts the others; with TRAIN TEST [J48 options], on TRAIN and predicts every row of TEST
// (rows made to reach a branch no training row reached). Run from the repository root
// (scripts/peers/weka_j48_laplace.sh does it):
//   java -cp /usr/share/java/weka.jar:/tmp WekaJ48Laplace experiments/datasets/soybean.arff
// Prints one line per predicted row: its index, then the probabilities with %.17g.
import java.io.FileReader;
import weka.classifiers.trees.J48;
import weka.core.Instance;
import weka.core.Instances;

public class WekaJ48Laplace {
    public static void main(String[] args) throws Exception {
        Instances data = new Instances(new FileReader(args[0]));
        data.setClassIndex(data.numAttributes() - 1);
        Instances train = new Instances(data, 0), test = data;
        int step = 3;
        if (args.length > 1) {
            train = data;
            test = new Instances(new FileReader(args[1]));
            test.setClassIndex(test.numAttributes() - 1);
            step = 1;
        } else {
            for (int i = 0; i < data.numInstances(); i++)
                if (i % 3 != 0)
                    train.add(data.instance(i));
        }
        J48 j48 = new J48();
        String[] opts = new String[Math.max(0, args.length - 2)];
        System.arraycopy(args, Math.min(2, args.length), opts, 0, opts.length);
        String shown = String.join(" ", opts); // setOptions empties opts
        j48.setOptions(opts);
        j48.setUseLaplace(true);
        j48.buildClassifier(train);
        System.out.println("# weka " + weka.core.Version.VERSION + " J48 -A " + shown
                           + " on " + String.join(" ", args).split(" -")[0]
                           + (step == 3 ? ", trained on rows i % 3 != 0" : "") + "; row, probabilities");
        for (int i = 0; i < test.numInstances(); i += step) {
            Instance row = test.instance(i);
            double[] p = j48.distributionForInstance(row);
            StringBuilder sb = new StringBuilder(Integer.toString(i));
            for (double v : p) sb.append(String.format(",%.17g", v));
            System.out.println(sb);
        }
    }
}
