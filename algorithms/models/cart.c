/* CART (Breiman et al. 1984) as a preset of the composable tree: binary splits (numeric
 * thresholds, nominal subsets), Gini or entropy for classes, MSE for a numeric target,
 * minimal cost-complexity pruning with a fixed alpha or one chosen by cross-validation. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tree_impl.h"

static const tl_param_spec params[] = {
    {"ccp_alpha", TL_PARAM_DOUBLE, "0", 0, 1e12, NULL,
     "older name: cost-complexity alpha for prune = none (0 keeps the grown tree)"},
    {"prune", TL_PARAM_STRING, "none", 0, 0, NULL,
     "older name for pruner: cv is cost_complexity with alpha = auto (folds, select), or any "
     "pruner's name"},
    {"select", TL_PARAM_CHOICE, "min", 0, 0, "min|1se", "prune = cv: least error or one-SE rule"},
    {"folds", TL_PARAM_INT, "10", 2, 1000, NULL, "prune = cv: number of folds"},
    {"ccp_risk", TL_PARAM_CHOICE, "impurity", 0, 0, "impurity|error",
     "risk R(t): weighted impurity (scikit-learn) or misclassification (Breiman, rpart)"},
    TL_TREE_PARAMS,
    {NULL, 0, NULL, 0, 0, NULL, NULL},
};

static const char *const defaults[] = {
    "criterion=auto", "numeric=numeric_threshold", "nominal=nominal_subset", "pruner=none", NULL,
};

static int translate(const tl_params *user, tl_params *out, tl_err *err)
{
    tl_params_init(out);
    const char *prune = tl_params_find(user, "prune"), *alpha = tl_params_find(user, "ccp_alpha");
    int cv = prune && !strcmp(prune, "cv");
    if (prune && !cv && !tl_pruner_find(prune, err))
        return TL_EINVAL;
    int rc = TL_OK;
    if (cv || (!(prune && strcmp(prune, "none")) && alpha && strtod(alpha, NULL) > 0)) {
        rc = tl_params_set(out, "pruner", "cost_complexity", err);
        if (!rc)
            rc = tl_params_set(out, "pruner.alpha", cv ? "auto" : alpha, err);
        const char *risk = tl_params_find(user, "ccp_risk");
        if (!rc)
            rc = tl_params_set(out, "pruner.risk", risk ? risk : "impurity", err);
        const char *names[] = {"select", "folds"};
        for (int i = 0; i < 2 && cv && !rc; i++) {
            const char *v = tl_params_find(user, names[i]);
            char key[64];
            snprintf(key, sizeof key, "pruner.%s", names[i]);
            if (v)
                rc = tl_params_set(out, key, v, err);
        }
    } else if (prune && strcmp(prune, "none")) {
        rc = tl_params_set(out, "pruner", prune, err);
    }
    return rc;
}

static const tl_tree_preset preset = {params, defaults, translate};

TL_TREE_LEARNER(cart, "cart", "CART: binary splits, Gini/entropy or MSE, cost-complexity pruning",
                TL_TASK_CLASSIFICATION | TL_TASK_REGRESSION, preset, params);
