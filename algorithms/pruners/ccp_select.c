/* The errors cost_complexity chooses alpha by: each candidate alpha's cross-validated or
 * validation error and its SE, every held-out row routed once through its tree (each node
 * knows the alpha at which the weakest-link sequence cuts it). */
#include "ccp_select.h"

#include <math.h>
#include <stdlib.h>

#include "treelab/tl_grow.h"

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

int tl_ccp_cv_errors(const tl_prune_input *in, size_t m, int risk_error, size_t folds,
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

int tl_ccp_valid_errors(const tl_tree *t, const tl_prune_input *in, int risk_error, size_t m,
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
