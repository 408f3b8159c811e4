/* Gini impurity (CART): 1 - sum p^2. */
#include "treelab/tl_plugin.h"
#include "treelab/tl_class_sums.h"

static double gini(const double *stats, size_t k)
{
    return tl_gini_impurity(stats, k);
}

static const tl_criterion_type gini_type = {
    .name = "gini",
    .summary = "Gini impurity 1 - sum p^2 (CART)",
    .reference = "Breiman, Friedman, Olshen & Stone, Classification and Regression Trees (1984)",
    .tasks = TL_TASK_CLASSIFICATION,
    .impurity = gini,
    .form = TL_IMPURITY_GINI,
};

const tl_criterion_type *const tl_criterion_gini = &gini_type;
