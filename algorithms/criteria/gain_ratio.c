/* Gain ratio (C4.5): information gain over split information, after Quinlan's filter that
 * keeps only tests with at least the average gain. */
#include <math.h>

#include "treelab/tl_tree.h"

double tl_entropy_bits(const double *stats, size_t k);

/* Split information counts the rows with an unknown value as one more branch (C4.5). */
static double gain_ratio(double gain, const double *branch_w, size_t n_branches, double missing_w)
{
    double total = missing_w, info = 0;
    for (size_t b = 0; b < n_branches; b++)
        total += branch_w[b];
    if (total <= 0)
        return 0;
    for (size_t b = 0; b <= n_branches; b++) {
        double w = b < n_branches ? branch_w[b] : missing_w;
        if (w > 0)
            info -= w / total * log2(w / total);
    }
    return info > 0 ? gain / info : 0;
}

static const tl_criterion_type gain_ratio_type = {
    .name = "gain_ratio",
    .tasks = TL_TASK_CLASSIFICATION,
    .impurity = tl_entropy_bits,
    .rank = gain_ratio,
    .average_gain_filter = 1,
    .rank_eps = 1e-6, /* J48 keeps the first of near-equal gain ratios, and none of ~0 */
};

const tl_criterion_type *const tl_criterion_gain_ratio = &gain_ratio_type;
