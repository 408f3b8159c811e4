/* Choosing the cost-complexity alpha by k-fold cross-validation, min or one-SE rule. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "treelab/tl_tree.h"

void tl_ccp_cv_free(tl_ccp_cv *cv)
{
    if (!cv)
        return;
    free(cv->beta);
    free(cv->cv_error);
    free(cv->cv_se);
    memset(cv, 0, sizeof *cv);
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

int tl_ccp_cv_run(const tl_dataset *d, const size_t *rows, size_t n, const tl_grow_params *gp,
                  const tl_criterion_type *crit, int risk_error, const tl_ccp_path *path,
                  size_t folds, unsigned long seed, tl_ccp_cv *out, tl_err *err)
{
    memset(out, 0, sizeof *out);
    size_t m = path->n;
    size_t *all;
    if (!(rows = tl_rows_or_all(d, rows, &n, &all, err)))
        return TL_ENOMEM;
    size_t *fold = malloc(n * sizeof *fold);
    size_t *train = malloc(n * sizeof *train);
    double *loss = calloc(m * n, sizeof *loss); /* per subtree, per row */
    double *pred = malloc((tl_dataset_is_classification(d) ? tl_dataset_n_classes(d) : 1) *
                          sizeof *pred);
    out->beta = malloc(m * sizeof *out->beta);
    out->cv_error = calloc(m, sizeof *out->cv_error);
    out->cv_se = calloc(m, sizeof *out->cv_se);
    out->n = m;
    int rc = TL_OK;
    if (!fold || !train || !loss || !pred || !out->beta || !out->cv_error || !out->cv_se) {
        rc = tl_err_set(err, TL_ENOMEM, "out of memory");
        goto done;
    }
    for (size_t i = 0; i < m; i++)
        out->beta[i] = i + 1 < m ? sqrt(path->alpha[i] * path->alpha[i + 1]) : path->alpha[i];
    if ((rc = tl_folds_assign(d, rows, n, folds, seed, fold, err)))
        goto done;
    for (size_t f = 0; f < folds && !rc; f++) {
        size_t nt = 0;
        for (size_t i = 0; i < n; i++)
            if (fold[i] != f)
                train[nt++] = rows[i];
        tl_tree *t = tl_grow(d, train, nt, gp, err);
        if (!t) {
            rc = err ? err->code : TL_EINTERNAL;
            break;
        }
        /* betas increase, so each pruning continues from the previous subtree */
        for (size_t i = 0; i < m && !rc; i++) {
            rc = tl_ccp_prune(t, crit, risk_error, out->beta[i], err);
            for (size_t r = 0; r < n && !rc; r++)
                if (fold[r] == f)
                    rc = row_loss(t, d, rows[r], pred, &loss[i * n + r], err);
        }
        tl_tree_free(t);
    }
    if (rc)
        goto done;
    for (size_t i = 0; i < m; i++) {
        double mean = 0, ss = 0;
        for (size_t r = 0; r < n; r++)
            mean += loss[i * n + r];
        mean /= (double)n;
        for (size_t r = 0; r < n; r++)
            ss += (loss[i * n + r] - mean) * (loss[i * n + r] - mean);
        out->cv_error[i] = mean;
        out->cv_se[i] = n > 1 ? sqrt(ss / (double)(n - 1) / (double)n) : 0;
    }
    /* later subtrees are smaller: scan from the smallest so ties favour it */
    size_t best = m - 1;
    for (size_t i = m; i-- > 0;)
        if (out->cv_error[i] < out->cv_error[best] - 1e-12)
            best = i;
    out->best_min = best;
    out->best_1se = best;
    for (size_t i = m; i-- > 0;)
        if (out->cv_error[i] <= out->cv_error[best] + out->cv_se[best] + 1e-12) {
            out->best_1se = i;
            break;
        }
done:
    free(all);
    free(fold);
    free(train);
    free(loss);
    free(pred);
    if (rc)
        tl_ccp_cv_free(out);
    return rc;
}
