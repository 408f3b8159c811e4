/* C4.5's fractional rows: a row whose value is unknown goes down every branch, weighted by
 * the branch's share of the known weight, while growing and while predicting; a test's gain
 * counts the known rows only, times their share of the weight. */
#include "treelab/tl_plugin.h"

static const tl_missing_type fractional = {
    .name = "fractional",
    .summary = "down every branch, weighted by its share of the known rows (C4.5)",
    .reference = "Quinlan, C4.5: Programs for Machine Learning (1993), ch. 3.1",
    .scoring = TL_MISSING_SCORE_SHARE,
};

const tl_missing_type *const tl_missing_fractional = &fractional;
