// J48's build time in one JVM for scripts/bench/c45.sh: `WekaJ48Time DATA REPEATS` builds
// J48 (default options) REPEATS times and prints the first (cold) and the best (warm) wall
// time, the best CPU time of the building thread, and the tree's leaves and size.
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import weka.classifiers.trees.J48;
import weka.core.Instances;
import weka.core.converters.ConverterUtils.DataSource;

public class WekaJ48Time {
    public static void main(String[] a) throws Exception {
        Instances d = DataSource.read(a[0]);
        d.setClassIndex(d.numAttributes() - 1);
        int reps = Integer.parseInt(a[1]);
        ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        double first = 0, best = Double.MAX_VALUE, bestCpu = Double.MAX_VALUE;
        J48 j = null;
        for (int r = 0; r < reps; r++) {
            j = new J48();
            long c0 = mx.getCurrentThreadCpuTime(), t0 = System.nanoTime();
            j.buildClassifier(d);
            double t = (System.nanoTime() - t0) * 1e-9;
            double c = (mx.getCurrentThreadCpuTime() - c0) * 1e-9;
            if (r == 0)
                first = t;
            best = Math.min(best, t);
            bestCpu = Math.min(bestCpu, c);
        }
        System.out.printf("%.4f %.4f %.4f %.0f %.0f%n", first, best, bestCpu, j.measureNumLeaves(),
                          j.measureTreeSize());
    }
}
