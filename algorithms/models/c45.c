/* C4.5 release 8 (Quinlan 1993) as Weka's J48 builds it: gain ratio after the average-gain
 * filter, one branch per nominal value, binary numeric thresholds with the MDL penalty,
 * fractional rows for unknown values, error-based pruning with subtree raising. */
#include <string.h>

#include "hard_tree.h"

static const tl_param_spec params[] = {
    {"confidence", TL_PARAM_DOUBLE, "0.25", 1e-6, 0.5, NULL,
     "error-based pruning: confidence factor (J48 -C); smaller prunes more"},
    {"min_leaf", TL_PARAM_DOUBLE, "2", 0, 1e12, NULL,
     "a test needs two branches with at least this weight (J48 -M)"},
    {"prune", TL_PARAM_CHOICE, "true", 0, 0, "true|false|pre_validation|reduced_error",
     "true: error-based pruning; false: the unpruned tree (collapsed as J48 -U); or a "
     "validation pruner"},
    {"subtree_raising", TL_PARAM_BOOL, "true", 0, 0, NULL,
     "error-based pruning may replace a subtree by its largest branch (J48 without -S)"},
    {"collapse", TL_PARAM_BOOL, "true", 0, 0, NULL,
     "first collapse subtrees that do not lower the training error (J48 without -O)"},
    {"max_depth", TL_PARAM_INT, "0", 0, 1e6, NULL, "largest depth, 0 for no limit"},
    TL_HARD_TREE_VALID_PARAMS,
    {NULL, 0, NULL, 0, 0, NULL, NULL},
};

static void *alloc(const tl_params *p, tl_err *err)
{
    tl_hard_tree *h = tl_hard_tree_alloc(params, p, err);
    if (!h)
        return NULL;
    double m = tl_params_double(params, p, "min_leaf");
    h->grow.criterion = tl_criterion_find("gain_ratio", err);
    h->grow.numeric = tl_splitter_find("c45_threshold", err);
    h->grow.nominal = tl_splitter_find("nominal_multiway", err);
    h->grow.min_samples_leaf = m;
    h->grow.min_samples_split = 2 * m;
    h->grow.min_leaf_branches = 2;
    /* J48 may test a nominal attribute again below itself, but there its known rows all
     * share one value, so no second branch could hold min_leaf: skipping it is the same. */
    h->grow.reuse_nominal = 0;
    h->grow.weight_eps = 1e-6;
    h->grow.avg_gain_level_share = 0.3;
    h->prune.confidence = tl_params_double(params, p, "confidence");
    h->prune.subtree_raising = tl_params_bool(params, p, "subtree_raising");
    h->prune.collapse = tl_params_bool(params, p, "collapse");
    const char *prune = tl_params_string(params, p, "prune");
    const char *pruner = !strcmp(prune, "true")    ? "pessimistic"
                         : !strcmp(prune, "false") ? (h->prune.collapse ? "collapse" : "none")
                                                   : prune;
    if (tl_hard_tree_set_pruner(h, pruner, err)) {
        tl_hard_tree_free(h);
        return NULL;
    }
    return h;
}

static const tl_model_type c45 = {
    .name = "c45",
    .summary = "C4.5 (J48): gain ratio, multiway nominal, fractional missing values, "
               "error-based pruning",
    .tasks = TL_TASK_CLASSIFICATION,
    .params = params,
    .alloc = alloc,
    .fit = tl_hard_tree_fit,
    TL_HARD_TREE_METHODS,
};

const tl_model_type *const tl_model_c45 = &c45;
