/* C4.5 release 8 (Quinlan 1993) as Weka's J48 builds it, as a preset of the composable
 * tree: gain ratio after the average-gain filter, one branch per nominal value, binary
 * numeric thresholds with the MDL penalty, fractional rows for unknown values, error-based
 * pruning with subtree raising. */
#include <stdio.h>
#include <string.h>

#include "../pruners/error_based.h"
#include "tree_impl.h"

static const tl_param_spec params[] = {
    TL_EBP_CONFIDENCE, /* the pruner's spec: handed on as pruner.confidence */
    {"min_leaf", TL_PARAM_DOUBLE, "2", 0, 1e12, NULL,
     "a test needs two branches with at least this weight (J48 -M)"},
    {"prune", TL_PARAM_STRING, "true", 0, 0, NULL,
     "older name for pruner: true is error_based; false the unpruned tree (collapsed as J48 "
     "-U); or any pruner's name"},
    TL_EBP_SUBTREE_RAISING,
    TL_EBP_COLLAPSE,
    TL_TREE_PARAMS,
    {NULL, 0, NULL, 0, 0, NULL, NULL},
};

static const char *const defaults[] = {
    "criterion=gain_ratio",
    "numeric=c45_threshold",
    "nominal=nominal_multiway",
    "pruner=error_based",
    "min_samples_leaf=2",
    "min_samples_split=4",
    NULL,
};

static int translate(const tl_params *user, tl_params *out, tl_err *err)
{
    tl_params_init(out);
    const char *m = tl_params_find(user, "min_leaf"), *prune = tl_params_find(user, "prune");
    const char *collapse = tl_params_find(user, "collapse");
    int rc = TL_OK;
    if (m) {
        char twice[64];
        double v = 0;
        sscanf(m, "%lf", &v);
        snprintf(twice, sizeof twice, "%.17g", 2 * v);
        if (!(rc = tl_params_set(out, "min_samples_leaf", m, err)))
            rc = tl_params_set(out, "min_samples_split", twice, err);
    }
    int no_collapse = collapse && !strcmp(collapse, "false");
    if (!rc && prune && strcmp(prune, "true") && strcmp(prune, "false") &&
        !tl_pruner_find(prune, err))
        return TL_EINVAL;
    if (!rc && prune && strcmp(prune, "true"))
        rc = tl_params_set(out, "pruner",
                           strcmp(prune, "false") ? prune
                           : no_collapse          ? "none"
                                                  : "collapse",
                           err);
    if (!rc && (!prune || !strcmp(prune, "true"))) {
        const char *names[] = {"confidence", "subtree_raising", "collapse"};
        for (int i = 0; i < 3 && !rc; i++) {
            const char *v = tl_params_find(user, names[i]);
            char key[64];
            snprintf(key, sizeof key, "pruner.%s", names[i]);
            if (v)
                rc = tl_params_set(out, key, v, err);
        }
    }
    return rc;
}

static const tl_tree_preset preset = {params, defaults, translate};

TL_TREE_LEARNER(c45, "c45",
                "C4.5 (J48): gain ratio, multiway nominal, fractional missing values, "
                "error-based pruning",
                TL_TASK_CLASSIFICATION, preset, params);
