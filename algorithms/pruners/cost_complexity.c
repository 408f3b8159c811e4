/* Minimal cost-complexity pruning with alpha given, or chosen by k-fold cross-validation
 * (min or one-SE rule): for each fold a tree is grown on the other folds with the same
 * grower, pruned at the geometric midpoint of every alpha interval of the full-data path,
 * and scored on the fold (Breiman et al. 1984, ch. 3.4 and 11). Works on any grown tree.
 * alpha = validation is CCP with a pruning set (Esposito, Malerba & Semeraro, "A comparative
 * analysis of methods for pruning decision trees", IEEE TPAMI 19, 1997): the subtree of the
 * weakest-link sequence with the least error on validation rows (held out of training by the
 * tree learner, as for reduced_error). alphas = "0.001,0.01,0.1" replaces the midpoints by
 * that grid: only those alphas are cross-validated (or validated). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ccp_select.h"

static const tl_param_spec params[] = {
    {"alpha", TL_PARAM_STRING, "auto", 0, 0, NULL,
     "complexity parameter: a number >= 0, auto to choose it by cross-validation, validation "
     "to choose it on validation rows (a pruning set), or path to record the weakest-link "
     "sequence and keep the grown tree"},
    {"alphas", TL_PARAM_STRING, "", 0, 0, NULL,
     "alpha = auto or validation: only these alphas (numbers >= 0 separated by commas), "
     "instead of the midpoints of the weakest-link sequence"},
    {"select", TL_PARAM_CHOICE, "min", 0, 0, "min|1se",
     "alpha = auto or validation: the least error, or the smallest tree within one SE of it"},
    {"folds", TL_PARAM_INT, "10", 2, 1000, NULL, "alpha = auto: number of folds"},
    {"risk", TL_PARAM_CHOICE, "auto", 0, 0, "auto|impurity|error",
     "R(t): weighted impurity (scikit-learn), misclassification (Breiman, rpart); auto: "
     "impurity when the criterion has one, else misclassification"},
    {NULL, 0, NULL, 0, 0, NULL, NULL},
};

typedef struct options {
    int cv, validation, path_only, one_se;
    double alpha;
    size_t folds;
    int risk;      /* -1 auto, 0 impurity, 1 error */
    size_t n_grid; /* alphas given: n_grid of them, increasing, in grid[] */
    double grid[];
} options;

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Parse "0.001, 0.01,0.1" into grid (room for strlen(s) / 2 + 1 values; NULL: only check),
 * increasing and without repeats; the count, or SIZE_MAX when a value is not a number >= 0. */
static size_t parse_grid(const char *s, double *grid)
{
    size_t n = 0;
    const char *p = s;
    while (*p) {
        char *end = NULL;
        double v = strtod(p, &end);
        if (end == p || !isfinite(v) || v < 0)
            return SIZE_MAX;
        while (*end == ' ')
            end++;
        if (*end && *end != ',')
            return SIZE_MAX;
        if (grid)
            grid[n] = v;
        n++;
        p = *end ? end + 1 : end;
        if (*end && !*p)
            return SIZE_MAX; /* a trailing comma */
    }
    if (!grid)
        return n;
    qsort(grid, n, sizeof *grid, cmp_double);
    size_t u = 0;
    for (size_t i = 0; i < n; i++)
        if (!u || grid[i] != grid[u - 1])
            grid[u++] = grid[i];
    return u;
}

/* The options p gives (the grid aside) into o and the alphas text into *g: TL_OK, or
 * TL_EINVAL naming the fix when alpha or alphas is wrong (check and init share it). */
static int read_options(const tl_params *p, options *o, const char **g, tl_err *err)
{
    *o = (options){0};
    tl_param_reader rd = tl_params_reader(params, p, err);
    const char *a = tl_params_string(&rd, "alpha");
    char *end = NULL;
    if (!strcmp(a, "auto"))
        o->cv = 1;
    else if (!strcmp(a, "validation"))
        o->validation = 1;
    else if (!strcmp(a, "path"))
        o->path_only = 1;
    else if (!(o->alpha = strtod(a, &end), end != a && !*end && o->alpha >= 0 &&
               isfinite(o->alpha)))
        return tl_err_set(err, TL_EINVAL,
                          "parameter alpha: expected auto, path or a number >= 0, or validation, "
                          "got '%s'",
                          a);
    o->one_se = !strcmp(tl_params_string(&rd, "select"), "1se");
    o->folds = (size_t)tl_params_int(&rd, "folds");
    const char *r = tl_params_string(&rd, "risk");
    o->risk = !strcmp(r, "auto") ? -1 : !strcmp(r, "error");
    *g = tl_params_string(&rd, "alphas");
    if (rd.rc)
        return rd.rc;
    if (**g && !o->cv && !o->validation)
        return tl_err_set(err, TL_EINVAL, "parameter alphas: needs alpha = auto or validation");
    if (parse_grid(*g, NULL) == SIZE_MAX)
        return tl_err_set(err, TL_EINVAL,
                          "parameter alphas: expected numbers >= 0 separated by commas, got '%s'",
                          *g);
    return TL_OK;
}

static int check(const tl_params *p, tl_err *err)
{
    options o;
    const char *g;
    return read_options(p, &o, &g, err);
}

static void *init(const tl_params *p, tl_err *err)
{
    options o;
    const char *g;
    if (read_options(p, &o, &g, err))
        return NULL;
    options *s = malloc(sizeof *s + (strlen(g) / 2 + 1) * sizeof *s->grid);
    if (!s) {
        tl_err_set(err, TL_ENOMEM, "out of memory");
        return NULL;
    }
    *s = o;
    s->n_grid = parse_grid(g, s->grid);
    return s;
}

/* alpha = validation needs validation rows: the tree learner holds them out of training
 * (or takes the protocol's) when the pruner's needs say so. */
static unsigned needs_of(const void *state)
{
    const options *o = state;
    return o && o->validation ? TL_NEEDS_VALIDATION : 0;
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

/* alpha chosen by cross-validation (alpha = auto) or on the validation rows (alpha =
 * validation), among the midpoints of the weakest-link sequence or the alphas given. */
static int prune_cv(const options *o, tl_tree *t, const tl_prune_input *in, int risk_error,
                    tl_prune_trace *trace, tl_err *err)
{
    tl_ccp_path path;
    int rc = tl_ccp_path_compute(t, in->grow->criterion, risk_error, &path, err);
    if (rc)
        return rc;
    size_t m = o->n_grid ? o->n_grid : path.n;
    size_t folds = o->folds < in->n_train ? o->folds : in->n_train;
    double *beta = malloc(m * sizeof *beta), *error = malloc(m * sizeof *error);
    double *se = malloc(m * sizeof *se);
    size_t *sub = malloc(m * sizeof *sub); /* the subtree of the path each beta keeps */
    if (!beta || !error || !se || !sub)
        rc = tl_err_set(err, TL_ENOMEM, "out of memory");
    for (size_t i = 0; i < m && !rc; i++) {
        if (o->n_grid) {
            beta[i] = o->grid[i];
            sub[i] = 0; /* as tl_ccp_prune: links within its slack of alpha are cut */
            while (sub[i] + 1 < path.n &&
                   path.alpha[sub[i] + 1] <= beta[i] + 1e-12 * fmax(1.0, beta[i]))
                sub[i]++;
        } else {
            beta[i] = i + 1 < m ? sqrt(path.alpha[i] * path.alpha[i + 1]) : path.alpha[i];
            sub[i] = i;
        }
    }
    if (!rc)
        rc = o->validation ? tl_ccp_valid_errors(t, in, risk_error, m, beta, error, se, err)
                           : tl_ccp_cv_errors(in, m, risk_error, folds, beta, error, se, err);
    for (size_t i = 0; i < m && !rc; i++)
        rc = tl_prune_trace_add(trace, o->n_grid ? beta[i] : path.alpha[sub[i]],
                                (double)path.leaves[sub[i]], path.risk[sub[i]], error[i], se[i],
                                err);
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
    free(sub);
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
    trace->error_name = o->cv ? "cv error" : o->validation ? "validation error" : NULL;
    if (o->validation && (!in->valid_rows || !in->n_valid))
        return tl_err_set(err, TL_EINVAL,
                          "cost_complexity with alpha = validation needs validation rows");
    if (o->cv || o->validation)
        return prune_cv(o, t, in, risk_error, trace, err);
    if (o->path_only)
        return record_path(t, crit, risk_error, trace, err);
    double before = (double)tl_tree_leaves(t, 0);
    int rc = tl_ccp_prune(t, crit, risk_error, o->alpha, err);
    return rc ? rc : tl_prune_trace_two(trace, "alpha", o->alpha, before, t, err);
}

static const tl_pruner_type cost_complexity = {
    .name = "cost_complexity",
    .summary = "minimal cost-complexity pruning, alpha given or chosen by CV or on validation "
               "rows (min or 1-SE)",
    .reference = "Breiman, Friedman, Olshen & Stone, Classification and Regression Trees "
                 "(1984), ch. 3; Esposito, Malerba & Semeraro, IEEE TPAMI 19 (1997)",
    .params = params,
    .check = check,
    .init = init,
    .free = free,
    .prune = prune,
    .needs_of = needs_of,
};
const tl_pruner_type *const tl_pruner_cost_complexity = &cost_complexity;
