/* ID3 (Quinlan 1986): information gain, one branch per nominal value (each nominal attribute
 * used once per path), binary midpoint thresholds on numeric attributes. */
#include <string.h>

#include "hard_tree.h"

static const tl_param_spec params[] = {
    TL_HARD_TREE_STOP_PARAMS,
    {"prune", TL_PARAM_CHOICE, "none", 0, 0, "none|pre_validation|reduced_error",
     "validation pruning: while growing, or bottom-up after (validation_fraction)"},
    TL_HARD_TREE_VALID_PARAMS,
    {NULL, 0, NULL, 0, 0, NULL, NULL},
};

static void *alloc(const tl_params *p, tl_err *err)
{
    tl_hard_tree *h = tl_hard_tree_alloc(params, p, err);
    if (!h)
        return NULL;
    h->grow.criterion = tl_criterion_find("entropy", err);
    h->grow.numeric = tl_splitter_find("numeric_threshold", err);
    h->grow.nominal = tl_splitter_find("nominal_multiway", err);
    h->grow.reuse_nominal = 0;
    h->grow.min_leaf_branches = 2; /* empty branches are allowed: they predict the parent */
    const char *prune = tl_params_string(params, p, "prune");
    if (strcmp(prune, "none") && tl_hard_tree_set_pruner(h, prune, err)) {
        tl_hard_tree_free(h);
        return NULL;
    }
    return h;
}

static const tl_model_type id3 = {
    .name = "id3",
    .summary = "ID3: information gain, multiway nominal splits, binary numeric thresholds",
    .tasks = TL_TASK_CLASSIFICATION,
    .params = params,
    .alloc = alloc,
    .fit = tl_hard_tree_fit,
    TL_HARD_TREE_METHODS,
};

const tl_model_type *const tl_model_id3 = &id3;
