/* Misclassification rate, 1 - max p: the "accuracy" criterion of seed 001's table 9.4. */
#include "treelab/tl_plugin.h"

static double misclassification(const double *stats, size_t k)
{
    double w = 0, best = 0;
    for (size_t c = 0; c < k; c++) {
        w += stats[c];
        if (stats[c] > best)
            best = stats[c];
    }
    return w > 0 ? 1 - best / w : 0;
}

static const tl_criterion_type misclassification_type = {
    .name = "misclassification",
    .summary = "misclassification rate 1 - max p",
    .reference = "Breiman et al. (1984), sec. 4.1",
    .tasks = TL_TASK_CLASSIFICATION,
    .impurity = misclassification,
};

const tl_criterion_type *const tl_criterion_misclassification = &misclassification_type;
