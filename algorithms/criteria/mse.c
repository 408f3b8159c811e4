/* Mean squared error around the node mean (regression): from (w, sum, sum of squares). */
#include "treelab/tl_plugin.h"

static double mse(const double *stats, size_t k)
{
    (void)k;
    if (stats[0] <= 0)
        return 0;
    double mean = stats[1] / stats[0];
    double v = stats[2] / stats[0] - mean * mean;
    return v > 0 ? v : 0;
}

static const tl_criterion_type mse_type = {
    .name = "mse",
    .summary = "squared error around the node mean (regression)",
    .reference = "Breiman et al. (1984), ch. 8",
    .tasks = TL_TASK_REGRESSION,
    .impurity = mse,
};

const tl_criterion_type *const tl_criterion_mse = &mse_type;
