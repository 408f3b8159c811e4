/* Gain ratio (C4.5): information gain over split information, after Quinlan's filter that
 * keeps only tests with at least the average gain; with J48's comparisons. */
#include <math.h>
#include <stdlib.h>

#include "treelab/tl_plugin.h"

double tl_shannon_bits(const double *stats, size_t k);

static const tl_param_spec params[] = {
    {"slack", TL_PARAM_DOUBLE, "1e-6", 0, 0.1, NULL,
     "J48's Utils.eps: a gain ratio must beat the best by more than this, and weights "
     "compare with this slack (0: exact)"},
    {"level_share", TL_PARAM_DOUBLE, "0.3", 0, 1, NULL,
     "a nominal attribute with at least this share of the rows as levels stays out of the "
     "average gain (J48; 0: off)"},
    {NULL, 0, NULL, 0, 0, NULL, NULL},
};

static void *init(const tl_params *p, tl_err *err)
{
    tl_choice_rules *r = calloc(1, sizeof *r); /* rules it does not set stay off */
    if (!r) {
        tl_err_set(err, TL_ENOMEM, "out of memory");
        return NULL;
    }
    tl_param_reader rd = tl_params_reader(params, p, err);
    r->average_gain_filter = 1;
    r->slack = tl_params_double(&rd, "slack");
    r->level_share = tl_params_double(&rd, "level_share");
    if (rd.rc) {
        free(r);
        return NULL;
    }
    return r;
}

static void rules(const void *state, tl_choice_rules *out)
{
    *out = *(const tl_choice_rules *)state;
}

/* Split information counts the rows with an unknown value as one more branch (C4.5). */
static double gain_ratio(const void *state, double gain, const double *branch_w, size_t n_branches,
                         double missing_w)
{
    (void)state;
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
    .summary = "gain ratio among tests with at least the average gain (C4.5, J48)",
    .reference = "Quinlan, C4.5: Programs for Machine Learning (1993), ch. 2",
    .params = params,
    .init = init,
    .free = free,
    .tasks = TL_TASK_CLASSIFICATION,
    .impurity = tl_shannon_bits,
    .rank = gain_ratio,
    .rules = rules,
    .form = TL_IMPURITY_SHANNON,
};

const tl_criterion_type *const tl_criterion_gain_ratio = &gain_ratio_type;
