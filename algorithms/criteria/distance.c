/* Lopez de Mantaras' distance-based measure ("A distance-based attribute selection measure
 * for decision tree induction", Machine Learning 6 (1991) 81-92): the normalised distance
 * between the partition of the rows by the test (branches A) and by the class (C) is
 * d_N = (H(C|A) + H(A|C)) / H(A, C); the criterion is 1 - d_N = I(A; C) / H(A, C), the
 * information gain over the joint entropy of branch and class, in [0, 1], larger is better.
 * Unlike the gain ratio it needs no average-gain filter and favours no many-valued test.
 * Over the known rows (the grower then weights by their share, as for information gain).
 * A gain below 1e-12 nats is rounding and scores 0. */
#include <math.h>

#include "treelab/tl_plugin.h"
#include "treelab/tl_class_sums.h"

static double score(const void *state, const double *parent, const double *children,
                    size_t n_children, size_t k)
{
    (void)state;
    double n = tl_class_total(parent, k);
    if (n <= 0)
        return 0;
    double info = 0, joint = 0; /* in nats */
    for (size_t b = 0; b < n_children; b++) {
        const double *ch = children + b * k;
        double nb = tl_class_total(ch, k);
        for (size_t j = 0; j < k; j++)
            if (ch[j] > 0) {
                double p = ch[j] / n;
                info += p * log(ch[j] * n / (nb * parent[j]));
                joint -= p * log(p);
            }
    }
    if (info <= 1e-12 || joint <= 0)
        return 0;
    double r = info / joint;
    return r < 1 ? r : 1;
}

static const tl_criterion_type distance = {
    .name = "distance",
    .summary = "1 - normalised distance: information gain / joint entropy of branch and class",
    .reference = "Lopez de Mantaras, A distance-based attribute selection measure for decision "
                 "tree induction, Machine Learning 6 (1991)",
    .tasks = TL_TASK_CLASSIFICATION,
    .score = score,
};

const tl_criterion_type *const tl_criterion_distance = &distance;
