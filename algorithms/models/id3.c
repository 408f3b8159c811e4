/* ID3 (Quinlan 1986) as a preset of the composable tree: information gain, one branch per
 * nominal value (each nominal attribute used once per path), binary midpoint thresholds on
 * numeric attributes. */
#include <string.h>

#include "tree_impl.h"

static const tl_param_spec params[] = {
    {"prune", TL_PARAM_STRING, "none", 0, 0, NULL, "older name for pruner (any pruner's name)"},
    TL_TREE_PARAMS,
    {NULL, 0, NULL, 0, 0, NULL, NULL},
};

static const char *const defaults[] = {
    "criterion=entropy",
    "numeric=numeric_threshold",
    "nominal=nominal_multiway",
    "pruner=none",
    NULL,
};

static int translate(const tl_params *user, tl_params *out, tl_err *err)
{
    tl_params_init(out);
    const char *prune = tl_params_find(user, "prune");
    if (!prune)
        return TL_OK;
    return tl_pruner_find(prune, err) ? tl_params_set(out, "pruner", prune, err) : TL_EINVAL;
}

static const tl_tree_preset preset = {params, defaults, translate};

TL_TREE_LEARNER(id3, "id3",
                "ID3: information gain, multiway nominal splits, binary numeric thresholds",
                TL_TASK_CLASSIFICATION, preset, params);
