/* CART (Breiman et al. 1984): binary splits (numeric thresholds, nominal subsets), Gini or
 * entropy for classes, MSE for a numeric target, minimal cost-complexity pruning with a
 * fixed alpha or one chosen by cross-validation. */
#include <string.h>

#include "hard_tree.h"

static const tl_param_spec params[] = {
    {"criterion", TL_PARAM_CHOICE, "auto", 0, 0, "auto|gini|entropy|misclassification|mse",
     "split criterion; auto: gini for classes, mse for a numeric target"},
    TL_HARD_TREE_STOP_PARAMS,
    {"ccp_alpha", TL_PARAM_DOUBLE, "0", 0, 1e12, NULL,
     "cost-complexity parameter for prune = none (0 keeps the grown tree)"},
    {"prune", TL_PARAM_CHOICE, "none", 0, 0, "none|cv|pre_validation|reduced_error",
     "cv: choose alpha by cross-validation (folds, select); pre_validation | reduced_error: "
     "validation pruning (validation_fraction)"},
    {"select", TL_PARAM_CHOICE, "min", 0, 0, "min|1se", "prune = cv: least error or one-SE rule"},
    {"folds", TL_PARAM_INT, "10", 2, 1000, NULL, "prune = cv: number of folds"},
    {"ccp_risk", TL_PARAM_CHOICE, "impurity", 0, 0, "impurity|error",
     "risk R(t): weighted impurity (scikit-learn) or misclassification (Breiman, rpart)"},
    TL_HARD_TREE_VALID_PARAMS,
    {NULL, 0, NULL, 0, 0, NULL, NULL},
};

static void *alloc(const tl_params *p, tl_err *err)
{
    tl_hard_tree *h = tl_hard_tree_alloc(params, p, err);
    if (!h)
        return NULL;
    const char *crit = tl_params_string(params, p, "criterion");
    h->criterion_auto = !strcmp(crit, "auto");
    h->grow.criterion = h->criterion_auto ? NULL : tl_criterion_find(crit, err);
    h->grow.numeric = tl_splitter_find("numeric_threshold", err);
    h->grow.nominal = tl_splitter_find("nominal_subset", err);
    h->prune.alpha = tl_params_double(params, p, "ccp_alpha");
    h->prune.risk_error = !strcmp(tl_params_string(params, p, "ccp_risk"), "error");
    h->ccp_cv = !strcmp(tl_params_string(params, p, "prune"), "cv");
    h->ccp_1se = !strcmp(tl_params_string(params, p, "select"), "1se");
    h->ccp_folds = (size_t)tl_params_int(params, p, "folds");
    if (h->prune.alpha > 0)
        h->pruner = tl_pruner_find("cost_complexity", err);
    const char *prune = tl_params_string(params, p, "prune");
    if (strcmp(prune, "none") && strcmp(prune, "cv") && tl_hard_tree_set_pruner(h, prune, err)) {
        tl_hard_tree_free(h);
        return NULL;
    }
    return h;
}

static int fit(void *state, const tl_dataset *d, const size_t *rows, size_t n,
               const tl_fit_ctx *ctx, tl_err *err)
{
    tl_hard_tree *h = state;
    int regression = !tl_dataset_is_classification(d);
    const tl_criterion_type *mse = tl_criterion_find("mse", err);
    if (h->criterion_auto)
        h->grow.criterion = regression ? mse : tl_criterion_find("gini", err);
    if (regression && h->grow.criterion != mse)
        return tl_err_set(err, TL_EINVAL,
                          "cart: criterion %s needs a nominal target; use mse for a numeric one",
                          h->grow.criterion->name);
    if (h->grow.criterion == mse && !regression)
        return tl_err_set(err, TL_EINVAL, "cart: criterion mse needs a numeric target");
    h->prune.criterion = h->grow.criterion;
    return tl_hard_tree_fit(state, d, rows, n, ctx, err);
}

static const tl_model_type cart = {
    .name = "cart",
    .summary = "CART: binary splits, Gini/entropy or MSE, cost-complexity pruning",
    .tasks = TL_TASK_CLASSIFICATION | TL_TASK_REGRESSION,
    .params = params,
    .alloc = alloc,
    .fit = fit,
    TL_HARD_TREE_METHODS,
};

const tl_model_type *const tl_model_cart = &cart;
