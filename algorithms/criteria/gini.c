/* Gini impurity (CART): 1 - sum p^2. */
#include "treelab/tl_grow.h"

static double gini(const double *stats, size_t k)
{
    double w = 0, s = 0;
    for (size_t c = 0; c < k; c++)
        w += stats[c];
    if (w <= 0)
        return 0;
    for (size_t c = 0; c < k; c++)
        s += (stats[c] / w) * (stats[c] / w);
    return 1 - s;
}

static const tl_criterion_type gini_type = {
    .name = "gini",
    .summary = "Gini impurity 1 - sum p^2 (CART)",
    .reference = "Breiman, Friedman, Olshen & Stone, Classification and Regression Trees (1984)",
    .tasks = TL_TASK_CLASSIFICATION,
    .impurity = gini,
};

const tl_criterion_type *const tl_criterion_gini = &gini_type;
