// Record Weka AdaBoostM1 (reweighting, the default; weight threshold 100, so every row is
// used) over DecisionStump: its class probabilities on every training row, for treelab's
// adaboost algorithm = M1 over stumps (tests/test_gradient_boosting.c).
// Run from the repository root (scripts/peers/weka_adaboost.sh does it):
//   javac -cp /usr/share/java/weka.jar -d /tmp scripts/peers/WekaAdaBoostM1.java
//   java -cp /usr/share/java/weka.jar:/tmp WekaAdaBoostM1 experiments/datasets/iris.arff 10
// Prints a "case" line (file, rounds asked, rounds performed), then one line of
// probabilities per row (%.17g), in the format of sklearn_adaboost.txt.
import java.io.FileReader;
import weka.classifiers.meta.AdaBoostM1;
import weka.classifiers.trees.DecisionStump;
import weka.core.Instances;

public class WekaAdaBoostM1 {
    public static void main(String[] args) throws Exception {
        Instances data = new Instances(new FileReader(args[0]));
        data.setClassIndex(data.numAttributes() - 1);
        AdaBoostM1 ab = new AdaBoostM1();
        ab.setClassifier(new DecisionStump());
        ab.setNumIterations(Integer.parseInt(args[1]));
        ab.setUseResampling(false);
        ab.setWeightThreshold(100);
        ab.buildClassifier(data);
        int k = data.numClasses();
        String name = args[0].substring(args[0].lastIndexOf('/') + 1);
        // the rounds kept: the count of "Weight:" lines of its description
        int kept = ab.toString().split("Weight: ", -1).length - 1;
        System.out.println("case " + name.replace(".arff", "") + "_m1 " + name + " - M1 "
                           + args[1] + " 1.0 1 base.criterion=entropy");
        System.out.println("# rounds kept: " + kept);
        for (int i = 0; i < data.numInstances(); i++) {
            double[] p = ab.distributionForInstance(data.instance(i));
            StringBuilder sb = new StringBuilder("row " + i);
            for (int c = 0; c < k; c++) sb.append(String.format(" %.17g", p[c]));
            System.out.println(sb);
            System.out.println("label " + i + " " + (int) ab.classifyInstance(data.instance(i)));
        }
    }
}
