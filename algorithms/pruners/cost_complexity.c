/* Minimal cost-complexity pruning with alpha given, or chosen by k-fold cross-validation
 * (min or one-SE rule): for each fold a tree is grown on the other folds with the same
 * grower, pruned at the geometric midpoint of every alpha interval of the full-data path,
 * and scored on the fold (Breiman et al. 1984, ch. 3.4 and 11). Works on any grown tree. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "treelab/tl_grow.h"

static const tl_param_spec params[] = {
    {"alpha", TL_PARAM_STRING, "auto", 0, 0, NULL,
     "complexity parameter: a number >= 0, auto to choose it by cross-validation, or path to "
     "record the weakest-link sequence and keep the grown tree"},
    {"select", TL_PARAM_CHOICE, "min", 0, 0, "min|1se",
     "alpha = auto: the least CV error, or the smallest tree within one SE of it"},
    {"folds", TL_PARAM_INT, "10", 2, 1000, NULL, "alpha = auto: number of folds"},
    {"risk", TL_PARAM_CHOICE, "auto", 0, 0, "auto|impurity|error",
     "R(t): weighted impurity (scikit-learn), misclassification (Breiman, rpart); auto: "
     "impurity when the criterion has one, else misclassification"},
    {NULL, 0, NULL, 0, 0, NULL, NULL},
};

typedef struct options {
    int cv, path_only, one_se;
    double alpha;
    size_t folds;
    int risk; /* -1 auto, 0 impurity, 1 error */
} options;

static void *init(const tl_params *p, tl_err *err)
{
    options o = {0};
    tl_param_reader rd = tl_params_reader(params, p, err);
    const char *a = tl_params_string(&rd, "alpha");
    char *end = NULL;
    if (!strcmp(a, "auto"))
        o.cv = 1;
    else if (!strcmp(a, "path"))
        o.path_only = 1;
    else if (!(o.alpha = strtod(a, &end), end != a && !*end && o.alpha >= 0 && isfinite(o.alpha))) {
        tl_err_set(err, TL_EINVAL,
                   "parameter alpha: expected auto, path or a number >= 0, got '%s'", a);
        return NULL;
    }
    o.one_se = !strcmp(tl_params_string(&rd, "select"), "1se");
    o.folds = (size_t)tl_params_int(&rd, "folds");
    const char *r = tl_params_string(&rd, "risk");
    o.risk = !strcmp(r, "auto") ? -1 : !strcmp(r, "error");
    if (rd.rc)
        return NULL;
    options *s = malloc(sizeof *s);
    if (!s)
        tl_err_set(err, TL_ENOMEM, "out of memory");
    else
        *s = o;
    return s;
}

/* Loss of the tree's prediction for one row into *loss: 0/1, or the squared error. */
static int row_loss(const tl_tree *t, const tl_dataset *d, size_t row, double *pred,
                    double *loss, tl_err *err)
{
    int rc = tl_tree_predict(t, d, &row, 1, pred, err);
    if (rc)
        return rc;
    if (t->regression) {
        double e = pred[0] - d->y.num[row];
        *loss = e * e;
        return TL_OK;
    }
    size_t best = 0;
    for (size_t c = 1; c < t->k; c++)
        if (pred[c] > pred[best])
            best = c;
    *loss = (int)best == d->y.code[row] ? 0.0 : 1.0;
    return TL_OK;
}

/* The cross-validated error (and its SE) of every subtree of the path, into error[] and
 * se[]; beta[i] is the alpha tried for subtree i. */
static int cross_validate(const tl_prune_input *in, const tl_ccp_path *path, int risk_error,
                          size_t folds, const double *beta, double *error, double *se,
                          tl_err *err)
{
    const tl_dataset *d = in->d;
    size_t m = path->n, n = in->n_train;
    const size_t *rows = in->train_rows;
    tl_grow_params gp = *in->grow;
    gp.accept = NULL; /* a pre-pruner's hook belongs to the tree being pruned */
    gp.accept_user = NULL;
    size_t *fold = malloc(n * sizeof *fold);
    size_t *train = malloc(n * sizeof *train);
    double *loss = calloc(m * n, sizeof *loss); /* per subtree, per row */
    double *pred = malloc((tl_dataset_is_classification(d) ? tl_dataset_n_classes(d) : 1) *
                          sizeof *pred);
    int rc = TL_OK;
    if (!fold || !train || !loss || !pred) {
        rc = tl_err_set(err, TL_ENOMEM, "out of memory");
        goto done;
    }
    if ((rc = tl_folds_assign(d, rows, n, folds, in->seed, fold, err)))
        goto done;
    for (size_t f = 0; f < folds && !rc; f++) {
        size_t nt = 0;
        for (size_t i = 0; i < n; i++)
            if (fold[i] != f)
                train[nt++] = rows[i];
        tl_tree *t = tl_grow(d, train, nt, &gp, err);
        if (!t) {
            rc = err->code; /* prune() made err non-NULL */
            break;
        }
        /* betas increase, so each pruning continues from the previous subtree */
        for (size_t i = 0; i < m && !rc; i++) {
            rc = tl_ccp_prune(t, gp.criterion, risk_error, beta[i], err);
            for (size_t r = 0; r < n && !rc; r++)
                if (fold[r] == f)
                    rc = row_loss(t, d, rows[r], pred, &loss[i * n + r], err);
        }
        tl_tree_free(t);
    }
    for (size_t i = 0; i < m && !rc; i++) {
        double mean = 0, ss = 0;
        for (size_t r = 0; r < n; r++)
            mean += loss[i * n + r];
        mean /= (double)n;
        for (size_t r = 0; r < n; r++)
            ss += (loss[i * n + r] - mean) * (loss[i * n + r] - mean);
        error[i] = mean;
        se[i] = n > 1 ? sqrt(ss / (double)(n - 1) / (double)n) : 0;
    }
done:
    free(fold);
    free(train);
    free(loss);
    free(pred);
    return rc;
}

/* Later subtrees are smaller: scanning from the smallest makes ties favour it. */
static void pick(const double *error, const double *se, size_t m, size_t *best_min,
                 size_t *best_1se)
{
    size_t best = m - 1;
    for (size_t i = m; i-- > 0;)
        if (error[i] < error[best] - 1e-12)
            best = i;
    *best_min = *best_1se = best;
    for (size_t i = m; i-- > 0;)
        if (error[i] <= error[best] + se[best] + 1e-12) {
            *best_1se = i;
            break;
        }
}

static int prune_cv(const options *o, tl_tree *t, const tl_prune_input *in, int risk_error,
                    tl_prune_trace *trace, tl_err *err)
{
    tl_ccp_path path;
    int rc = tl_ccp_path_compute(t, in->grow->criterion, risk_error, &path, err);
    if (rc)
        return rc;
    size_t m = path.n, folds = o->folds < in->n_train ? o->folds : in->n_train;
    double *beta = malloc(m * sizeof *beta), *error = malloc(m * sizeof *error);
    double *se = malloc(m * sizeof *se);
    if (!beta || !error || !se)
        rc = tl_err_set(err, TL_ENOMEM, "out of memory");
    for (size_t i = 0; i < m && !rc; i++)
        beta[i] = i + 1 < m ? sqrt(path.alpha[i] * path.alpha[i + 1]) : path.alpha[i];
    if (!rc)
        rc = cross_validate(in, &path, risk_error, folds, beta, error, se, err);
    for (size_t i = 0; i < m && !rc; i++)
        rc = tl_prune_trace_add(trace, path.alpha[i], (double)path.leaves[i], path.risk[i],
                                error[i], se[i], err);
    if (!rc) {
        size_t best_min, best_1se;
        pick(error, se, m, &best_min, &best_1se);
        trace->min_error = best_min;
        trace->chosen = o->one_se ? best_1se : best_min;
        trace->chosen_param = beta[trace->chosen];
        rc = tl_ccp_prune(t, in->grow->criterion, risk_error, trace->chosen_param, err);
    }
    free(beta);
    free(error);
    free(se);
    tl_ccp_path_free(&path);
    return rc;
}

/* The weakest-link sequence into the trace; the tree stays as grown (subtree 0). */
static int record_path(const tl_tree *t, const tl_criterion_type *crit, int risk_error,
                       tl_prune_trace *trace, tl_err *err)
{
    tl_ccp_path path;
    int rc = tl_ccp_path_compute(t, crit, risk_error, &path, err);
    for (size_t i = 0; i < path.n && !rc; i++)
        rc = tl_prune_trace_add(trace, path.alpha[i], (double)path.leaves[i], path.risk[i], NAN,
                                NAN, err);
    trace->chosen = 0;
    trace->chosen_param = 0;
    tl_ccp_path_free(&path);
    return rc;
}

static int prune(const void *state, tl_tree *t, const tl_prune_input *in, tl_prune_trace *trace,
                 tl_err *err)
{
    const options *o = state;
    tl_err local;
    if (!err)
        err = &local; /* tl_grow's NULL leaves its code in err only */
    const tl_criterion_type *crit = in->grow->criterion;
    int risk_error = o->risk >= 0 ? o->risk : !crit->impurity;
    if (!risk_error && !t->regression && !crit->impurity)
        return tl_err_set(err, TL_EINVAL,
                          "cost_complexity: risk = impurity needs a criterion with an impurity; "
                          "%s has none (use risk = error)",
                          crit->name);
    trace->param_name = "alpha";
    trace->risk_name = risk_error || t->regression ? "error" : crit->name;
    trace->error_name = o->cv ? "cv error" : NULL;
    if (o->cv)
        return prune_cv(o, t, in, risk_error, trace, err);
    if (o->path_only)
        return record_path(t, crit, risk_error, trace, err);
    double before = (double)tl_tree_leaves(t, 0);
    int rc = tl_ccp_prune(t, crit, risk_error, o->alpha, err);
    if (!rc)
        rc = tl_prune_trace_add(trace, 0, before, NAN, NAN, NAN, err);
    if (!rc)
        rc = tl_prune_trace_add(trace, o->alpha, (double)tl_tree_leaves(t, 0), NAN, NAN, NAN,
                                err);
    trace->chosen = trace->n ? trace->n - 1 : SIZE_MAX;
    trace->chosen_param = o->alpha;
    return rc;
}

static const tl_pruner_type cost_complexity = {
    .name = "cost_complexity",
    .summary = "minimal cost-complexity pruning, alpha given or chosen by CV (min or 1-SE)",
    .reference = "Breiman, Friedman, Olshen & Stone, Classification and Regression Trees "
                 "(1984), ch. 3",
    .params = params,
    .init = init,
    .free = free,
    .prune = prune,
};
const tl_pruner_type *const tl_pruner_cost_complexity = &cost_complexity;
