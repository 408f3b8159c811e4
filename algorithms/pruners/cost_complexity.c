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

#include "treelab/tl_grow.h"

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

/* Parse "0.001, 0.01,0.1" into grid (room for strlen(s) / 2 + 1 values), increasing and
 * without repeats; the count, or SIZE_MAX when a value is not a number >= 0. */
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
        grid[n++] = v;
        p = *end ? end + 1 : end;
        if (*end && !*p)
            return SIZE_MAX; /* a trailing comma */
    }
    qsort(grid, n, sizeof *grid, cmp_double);
    size_t u = 0;
    for (size_t i = 0; i < n; i++)
        if (!u || grid[i] != grid[u - 1])
            grid[u++] = grid[i];
    return u;
}

static void *init(const tl_params *p, tl_err *err)
{
    options o = {0};
    tl_param_reader rd = tl_params_reader(params, p, err);
    const char *a = tl_params_string(&rd, "alpha");
    char *end = NULL;
    if (!strcmp(a, "auto"))
        o.cv = 1;
    else if (!strcmp(a, "validation"))
        o.validation = 1;
    else if (!strcmp(a, "path"))
        o.path_only = 1;
    else if (!(o.alpha = strtod(a, &end), end != a && !*end && o.alpha >= 0 && isfinite(o.alpha))) {
        tl_err_set(err, TL_EINVAL,
                   "parameter alpha: expected auto, path or a number >= 0, or validation, got "
                   "'%s'",
                   a);
        return NULL;
    }
    o.one_se = !strcmp(tl_params_string(&rd, "select"), "1se");
    o.folds = (size_t)tl_params_int(&rd, "folds");
    const char *r = tl_params_string(&rd, "risk");
    o.risk = !strcmp(r, "auto") ? -1 : !strcmp(r, "error");
    const char *g = tl_params_string(&rd, "alphas");
    if (rd.rc)
        return NULL;
    if (*g && !o.cv && !o.validation) {
        tl_err_set(err, TL_EINVAL, "parameter alphas: needs alpha = auto or validation");
        return NULL;
    }
    options *s = malloc(sizeof *s + (strlen(g) / 2 + 1) * sizeof *s->grid);
    if (!s) {
        tl_err_set(err, TL_ENOMEM, "out of memory");
        return NULL;
    }
    *s = o;
    s->n_grid = parse_grid(g, s->grid);
    if (s->n_grid == SIZE_MAX) {
        tl_err_set(err, TL_EINVAL,
                   "parameter alphas: expected numbers >= 0 separated by commas, got '%s'", g);
        free(s);
        return NULL;
    }
    return s;
}

/* alpha = validation needs validation rows: the tree learner holds them out of training
 * (or takes the protocol's) when the pruner's needs say so. */
static unsigned needs_of(const void *state)
{
    const options *o = state;
    return o && o->validation ? TL_NEEDS_VALIDATION : 0;
}

/* Loss of the prediction pred (k class weights or one value) for row: 0/1, or the squared
 * error. */
static double pred_loss(const tl_tree *t, const tl_dataset *d, size_t row, const double *pred)
{
    if (t->regression) {
        double e = pred[0] - d->y.num[row];
        return e * e;
    }
    size_t best = 0;
    for (size_t c = 1; c < t->k; c++)
        if (pred[c] > pred[best])
            best = c;
    return (int)best == d->y.code[row] ? 0.0 : 1.0;
}

/* Loss of the tree's prediction for one row into *loss: 0/1, or the squared error. */
static int row_loss(const tl_tree *t, const tl_dataset *d, size_t row, double *pred, double *loss,
                    tl_err *err)
{
    int rc = tl_tree_predict(t, d, &row, 1, pred, err);
    if (!rc)
        *loss = pred_loss(t, d, row, pred);
    return rc;
}

/* The nodes row passes from the root of the grown tree t into path (the last one predicts
 * for it) and the least cut alpha met so far at each into low; the count, or 0 when some
 * node sends the row down several branches (only a full prediction gives its loss). */
static size_t walk(const tl_tree *t, const tl_dataset *d, size_t row, const double *cut,
                   size_t *path, double *low)
{
    size_t n = 0, node = 0;
    double least = INFINITY;
    for (;;) {
        least = cut[node] < least ? cut[node] : least;
        path[n] = node;
        low[n++] = least;
        if (t->attr[node] < 0)
            return n;
        int b = tl_tree_route_row(t, node, d, row);
        if (b >= 0) {
            node = t->first_child[node] + (size_t)b;
            continue;
        }
        double total = 0; /* as tl_tree_predict: no branch weight, the node predicts */
        for (size_t c = 0; c < t->n_children[node] && b == TL_UNKNOWN_SHARE; c++)
            total += tl_tree_node_weight(t, t->first_child[node] + c);
        return b == TL_UNKNOWN_STOP || (b == TL_UNKNOWN_SHARE && total <= 0) ? n : 0;
    }
}

/* The losses of grown tree t pruned at each of the m alphas beta[] (increasing) on rows[j],
 * into loss[i * stride + col[j]]. Each row walks its path once: at beta it is predicted by
 * the first node of its path cut at or below beta (tl_ccp_cut_alphas), or by the path's
 * end, which is what tl_tree_predict gives on the pruned tree. Rows sent down several
 * branches (C4.5's fractions) are predicted from t pruned at each beta in turn, so t may be
 * left pruned. */
static int subtree_losses(tl_tree *t, const tl_prune_input *in, int risk_error, size_t m,
                          const double *beta, const size_t *rows, const size_t *col, size_t n,
                          double *loss, size_t stride, tl_err *err)
{
    const tl_dataset *d = in->d;
    size_t nn = t->n_nodes, n_slow = 0;
    double *cut = malloc(nn * sizeof *cut), *low = malloc(nn * sizeof *low);
    double *pred = malloc((t->regression ? 1 : t->k) * sizeof *pred);
    size_t *path = malloc(nn * sizeof *path), *slow = malloc((n ? n : 1) * sizeof *slow);
    int rc =
        cut && low && pred && path && slow ? TL_OK : tl_err_set(err, TL_ENOMEM, "out of memory");
    if (!rc)
        rc = tl_ccp_cut_alphas(t, in->grow->criterion, risk_error, cut, err);
    for (size_t j = 0; j < n && !rc; j++) {
        size_t len = walk(t, d, rows[j], cut, path, low);
        if (!len) {
            slow[n_slow++] = j;
            continue;
        }
        size_t at = len - 1;
        tl_tree_node_predict(t, path[at], pred);
        double l = pred_loss(t, d, rows[j], pred);
        for (size_t i = 0; i < m; i++) {
            size_t was = at;
            while (at > 0 && low[at - 1] <= beta[i])
                at--;
            if (at != was) {
                tl_tree_node_predict(t, path[at], pred);
                l = pred_loss(t, d, rows[j], pred);
            }
            loss[i * stride + col[j]] = l;
        }
    }
    /* betas increase, so each pruning continues from the previous subtree */
    for (size_t i = 0; i < m && n_slow && !rc; i++) {
        rc = tl_ccp_prune(t, in->grow->criterion, risk_error, beta[i], err);
        for (size_t s = 0; s < n_slow && !rc; s++)
            rc = row_loss(t, d, rows[slow[s]], pred, &loss[i * stride + col[slow[s]]], err);
    }
    free(cut);
    free(low);
    free(pred);
    free(path);
    free(slow);
    return rc;
}

/* Weighted mean and SE of the m x n losses of rows[0..n) of d (row weights, 1 when d has
 * none), per candidate, into error[] and se[]: error = sum w l / W, se = sqrt(sum w (l -
 * error)^2 / (n - 1) / W), which is the sample SE of the mean when every weight is 1 (and
 * then the same bits as without weights). */
static void mean_se(const tl_dataset *d, const size_t *rows, const double *loss, size_t m, size_t n,
                    double *error, double *se)
{
    double total = 0;
    for (size_t r = 0; r < n; r++)
        total += tl_dataset_weight(d, rows[r]);
    for (size_t i = 0; i < m; i++) {
        double mean = 0, ss = 0;
        for (size_t r = 0; r < n; r++)
            mean += tl_dataset_weight(d, rows[r]) * loss[i * n + r];
        mean /= n && total > 0 ? total : 1;
        for (size_t r = 0; r < n; r++)
            ss +=
                tl_dataset_weight(d, rows[r]) * (loss[i * n + r] - mean) * (loss[i * n + r] - mean);
        error[i] = mean;
        se[i] = n > 1 && total > 0 ? sqrt(ss / (double)(n - 1) / total) : 0;
    }
}

/* The cross-validated error (and its SE) of the m candidate alphas beta[] (increasing),
 * into error[] and se[]. */
static int cross_validate(const tl_prune_input *in, size_t m, int risk_error, size_t folds,
                          const double *beta, double *error, double *se, tl_err *err)
{
    const tl_dataset *d = in->d;
    size_t n = in->n_train;
    const size_t *rows = in->train_rows;
    tl_grow_params gp = *in->grow;
    gp.accept = NULL; /* a pre-pruner's hook belongs to the tree being pruned */
    gp.accept_user = NULL;
    size_t *fold = malloc(n * sizeof *fold);
    size_t *train = malloc(n * sizeof *train);
    /* zeroed: gcc cannot see that every entry passed on is written first */
    size_t *held = calloc(n ? n : 1, sizeof *held), *col = calloc(n ? n : 1, sizeof *col);
    double *loss = calloc(m * n, sizeof *loss); /* per subtree, per row */
    int rc = TL_OK;
    if (!fold || !train || !held || !col || !loss) {
        rc = tl_err_set(err, TL_ENOMEM, "out of memory");
        goto done;
    }
    if ((rc = tl_folds_assign(d, rows, n, folds, in->seed, fold, err)))
        goto done;
    for (size_t f = 0; f < folds && !rc; f++) {
        size_t nt = 0, nh = 0;
        for (size_t i = 0; i < n; i++) {
            if (fold[i] != f) {
                train[nt++] = rows[i];
                continue;
            }
            held[nh] = rows[i];
            col[nh++] = i;
        }
        tl_tree *t = tl_grow(d, train, nt, &gp, err);
        if (!t) {
            rc = err->code; /* prune() made err non-NULL */
            break;
        }
        rc = subtree_losses(t, in, risk_error, m, beta, held, col, nh, loss, n, err);
        tl_tree_free(t);
    }
    if (!rc)
        mean_se(d, rows, loss, m, n, error, se);
done:
    free(fold);
    free(train);
    free(held);
    free(col);
    free(loss);
    return rc;
}

/* The error (and its SE) on the validation rows of t pruned at each of the m candidate
 * alphas beta[] (increasing); rows without a target value are left out. */
static int validate(const tl_tree *t, const tl_prune_input *in, int risk_error, size_t m,
                    const double *beta, double *error, double *se, tl_err *err)
{
    const tl_dataset *d = in->d;
    size_t n = 0, nv = in->n_valid;
    size_t *rows = malloc((nv ? nv : 1) * sizeof *rows);
    size_t *col = malloc((nv ? nv : 1) * sizeof *col);
    double *loss = malloc((m * nv > 0 ? m * nv : 1) * sizeof *loss);
    tl_tree *c = tl_tree_copy(t, err);
    int rc = TL_OK;
    if (!rows || !col || !loss || !c) {
        rc = c ? tl_err_set(err, TL_ENOMEM, "out of memory") : err ? err->code : TL_ENOMEM;
        goto done;
    }
    for (size_t i = 0; i < nv; i++) {
        size_t r = in->valid_rows[i];
        if (t->regression ? !isnan(d->y.num[r]) : d->y.code[r] >= 0) {
            col[n] = n;
            rows[n++] = r;
        }
    }
    rc = subtree_losses(c, in, risk_error, m, beta, rows, col, n, loss, n, err);
    if (!rc)
        mean_se(d, rows, loss, m, n, error, se);
done:
    tl_tree_free(c);
    free(rows);
    free(col);
    free(loss);
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
        rc = o->validation ? validate(t, in, risk_error, m, beta, error, se, err)
                           : cross_validate(in, m, risk_error, folds, beta, error, se, err);
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
    .init = init,
    .free = free,
    .prune = prune,
    .needs_of = needs_of,
};
const tl_pruner_type *const tl_pruner_cost_complexity = &cost_complexity;
