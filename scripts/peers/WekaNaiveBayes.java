// Record Weka NaiveBayes class probabilities on every row of an all-nominal ARFF file.
// Run from the repository root (scripts/peers/weka_nb.sh does it):
//   javac -cp /usr/share/java/weka.jar -d /tmp scripts/peers/WekaNaiveBayes.java
//   java -cp /usr/share/java/weka.jar:/tmp WekaNaiveBayes experiments/datasets/vote.arff
// Prints the class priors Weka uses ((count + 1) / (n + classes)) and then one line of
// probabilities per row, each with %.17g.
import java.io.FileReader;
import weka.classifiers.bayes.NaiveBayes;
import weka.core.Instances;

public class WekaNaiveBayes {
    public static void main(String[] args) throws Exception {
        Instances data = new Instances(new FileReader(args[0]));
        data.setClassIndex(data.numAttributes() - 1);
        NaiveBayes nb = new NaiveBayes();
        nb.buildClassifier(data);
        int k = data.numClasses();
        double[] counts = new double[k];
        for (int i = 0; i < data.numInstances(); i++)
            counts[(int) data.instance(i).classValue()] += data.instance(i).weight();
        double total = 0;
        for (double c : counts) total += c;
        StringBuilder pri = new StringBuilder("# weka " + weka.core.Version.VERSION + " NaiveBayes on " + args[0] + "; priors");
        for (int c = 0; c < k; c++) pri.append(String.format(" %.17g", (counts[c] + 1) / (total + k)));
        System.out.println(pri);
        for (int i = 0; i < data.numInstances(); i++) {
            double[] p = nb.distributionForInstance(data.instance(i));
            StringBuilder sb = new StringBuilder();
            for (int c = 0; c < k; c++) sb.append(c > 0 ? "," : "").append(String.format("%.17g", p[c]));
            System.out.println(sb);
        }
    }
}
