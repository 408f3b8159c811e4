/* Entropy in bits: ID3's information gain (Quinlan 1986). */
#include <math.h>

#include "treelab/tl_plugin.h"

double tl_shannon_bits(const double *stats, size_t k);

/* Shared with gain_ratio.c: -sum p log2 p over the non-empty classes. */
double tl_shannon_bits(const double *stats, size_t k)
{
    double w = 0, h = 0;
    for (size_t c = 0; c < k; c++)
        w += stats[c];
    if (w <= 0)
        return 0;
    for (size_t c = 0; c < k; c++)
        if (stats[c] > 0) {
            double p = stats[c] / w;
            h -= p * log2(p);
        }
    return h;
}

static const tl_criterion_type entropy = {
    .name = "entropy",
    .summary = "information gain: decrease of the class entropy in bits",
    .reference = "Quinlan, Induction of decision trees, Machine Learning 1 (1986)",
    .tasks = TL_TASK_CLASSIFICATION,
    .impurity = tl_shannon_bits,
    .form = TL_IMPURITY_SHANNON,
};

const tl_criterion_type *const tl_criterion_entropy = &entropy;
