/* The DKM impurity (Dietterich, Kearns & Mansour, "Applying the weak learning framework to
 * understand and improve C4.5", ICML 1996; Kearns & Mansour, "On the boosting ability of
 * top-down decision tree learning algorithms", J. Computer and System Sciences 58 (1999)
 * 109-128): G(q) = 2 sqrt(q (1 - q)) for two classes, the function for which top-down
 * growth is a boosting algorithm with the best guarantee of those they analyse; it lies
 * above the entropy in bits, which lies above Gini.
 * More than two classes (not in the papers): sum_c sqrt(p_c (1 - p_c)), i.e. half the sum of
 * the one-versus-rest DKM impurities. It is the two-class value when k = 2, is concave (so
 * no split has a negative gain), is 0 on a pure node and at most sqrt(k - 1). */
#include <math.h>

#include "treelab/tl_plugin.h"

static double dkm(const double *stats, size_t k)
{
    double w = 0, s = 0;
    for (size_t c = 0; c < k; c++)
        w += stats[c];
    if (w <= 0)
        return 0;
    for (size_t c = 0; c < k; c++) {
        double p = stats[c] / w;
        if (p > 0 && p < 1)
            s += sqrt(p * (1 - p));
    }
    return s;
}

static const tl_criterion_type dkm_type = {
    .name = "dkm",
    .summary = "DKM impurity 2 sqrt(p (1 - p)); k classes: sum_c sqrt(p_c (1 - p_c))",
    .reference = "Dietterich, Kearns & Mansour, ICML 1996; Kearns & Mansour, JCSS 58 (1999)",
    .tasks = TL_TASK_CLASSIFICATION,
    .impurity = dkm,
};

const tl_criterion_type *const tl_criterion_dkm = &dkm_type;
