/* Conditional inference trees (Hothorn, Hornik & Zeileis 2006) as R's partykit builds them
 * with ctree()'s defaults, as a preset of the composable tree: the ctree criterion selects the
 * attribute by Bonferroni-adjusted permutation tests and stops when none is significant, the
 * max_stat splitter takes the cut with the largest standardised two-sample statistic; no
 * pruning. partykit's names are kept (teststat, minsplit, ...). */
#include <stdio.h>
#include <string.h>

#include "tree_impl.h"

static const tl_param_spec params[] = {
    {"teststat", TL_PARAM_CHOICE, "quadratic", 0, 0, "quadratic|maximum",
     "statistic of the variable-selection test (criterion.teststat)"},
    {"splitstat", TL_PARAM_CHOICE, "quadratic", 0, 0, "quadratic|maximum",
     "statistic maximised over the cut points (criterion.splitstat)"},
    {"testtype", TL_PARAM_CHOICE, "Bonferroni", 0, 0, "Bonferroni|Univariate",
     "adjust the p-values over the attributes tested, or not (criterion.testtype)"},
    {"mincriterion", TL_PARAM_DOUBLE, "0.95", 0, 1, NULL,
     "split when 1 - adjusted p-value exceeds this (criterion.mincriterion)"},
    {"splittry", TL_PARAM_INT, "2", 1, 1e6, NULL,
     "significant attributes tried for an admissible split (criterion.splittry)"},
    {"minsplit", TL_PARAM_DOUBLE, "20", 0, 1e12, NULL,
     "weight a node needs to be split (min_samples_split)"},
    {"minbucket", TL_PARAM_DOUBLE, "7", 0, 1e12, NULL,
     "weight each side of a split needs (min_samples_leaf)"},
    {"minprob", TL_PARAM_DOUBLE, "0.01", 0, 1, NULL,
     "share of the node's weight each side needs (numeric.minprob, nominal.minprob)"},
    TL_TREE_PARAMS,
    {NULL, 0, NULL, 0, 0, NULL, NULL},
};

static const char *const defaults[] = {
    "criterion=ctree",
    "numeric=max_stat",
    "nominal=max_stat",
    "pruner=none",
    "min_samples_split=20",
    "min_samples_leaf=7",
    NULL,
};

/* partykit's name -> the tree's names it sets */
static const char *const names[][3] = {
    {"teststat", "criterion.teststat", NULL}, {"splitstat", "criterion.splitstat", NULL},
    {"testtype", "criterion.testtype", NULL}, {"mincriterion", "criterion.mincriterion", NULL},
    {"splittry", "criterion.splittry", NULL}, {"minsplit", "min_samples_split", NULL},
    {"minbucket", "min_samples_leaf", NULL},  {"minprob", "numeric.minprob", "nominal.minprob"},
};

static int translate(const tl_params *user, tl_params *out, tl_err *err)
{
    tl_params_init(out);
    int rc = TL_OK;
    for (size_t i = 0; i < sizeof names / sizeof *names && !rc; i++) {
        const char *v = tl_params_find(user, names[i][0]);
        for (size_t j = 1; j < 3 && v && names[i][j] && !rc; j++)
            rc = tl_params_set(out, names[i][j], v, err);
    }
    return rc;
}

static const tl_tree_preset preset = {params, defaults, translate};

TL_TREE_LEARNER(ctree, "ctree",
                "conditional inference tree (partykit's ctree): permutation-test selection, "
                "Bonferroni, stop when nothing is significant",
                TL_TASK_CLASSIFICATION | TL_TASK_REGRESSION, preset, params);
