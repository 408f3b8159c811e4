/* One cell of an experiment: fit (with optional nested selection), predict, score. */
#include "treelab/tl_protocol.h"
#include "treelab/tl_runner.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

void tl_cell_clear(tl_cell *c)
{
    if (!c)
        return;
    free(c->confusion), c->confusion = NULL;
    free(c->proba_bins), c->proba_bins = NULL;
    free(c->correct), c->correct = NULL;
    free(c->roc_bins), c->roc_bins = NULL;
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static tl_model *new_model(const tl_exp_model *m, const char *key, const char *value, tl_err *err)
{
    tl_params p;
    tl_params_init(&p);
    tl_model *model = NULL;
    if (!tl_params_copy(&p, &m->params, err) && (!key || !tl_params_set(&p, key, value, err)))
        model = tl_model_new_type(m->type, &p, err);
    tl_params_clear(&p);
    return model;
}

/* Fit a candidate on tr and add its score on te to *total: correct rows, or minus the
 * squared errors. */
static int fit_and_score(const tl_exp_model *m, const tl_dataset *d, const size_t *tr,
                         size_t ntr, const size_t *te, size_t nte, const char *value,
                         unsigned long seed, double *pred, double *total, tl_err *err)
{
    tl_model *model = new_model(m, m->select.param, value, err);
    tl_fit_ctx ctx = {seed, NULL, 0};
    int rc = model ? TL_OK : err->code;
    if (!rc && !(rc = tl_model_fit(model, d, tr, ntr, &ctx, err)))
        rc = tl_model_predict_label(model, d, te, nte, pred, err);
    for (size_t j = 0; !rc && j < nte; j++) {
        if (tl_dataset_is_classification(d))
            *total += pred[j] == (double)d->y.code[te[j]];
        else
            *total -= (pred[j] - d->y.num[te[j]]) * (pred[j] - d->y.num[te[j]]);
    }
    tl_model_free(model);
    return rc;
}

/* Inner-CV score of one candidate value (mean accuracy, or minus the MSE). */
static int inner_score(const tl_exp_model *m, const tl_dataset *d, const size_t *rows, size_t n,
                       const size_t *fold_of, const char *value, unsigned long seed,
                       double *score, tl_err *err)
{
    size_t *tr = malloc(n * sizeof *tr), *te = malloc(n * sizeof *te);
    double *pred = malloc(n * sizeof *pred);
    int rc = (tr && te && pred) ? TL_OK : tl_err_set(err, TL_ENOMEM, "out of memory");
    double total = 0;
    size_t count = 0;
    for (size_t f = 0; !rc && f < m->select.folds; f++) {
        size_t ntr = 0, nte = 0;
        for (size_t j = 0; j < n; j++)
            if (fold_of[j] == f)
                te[nte++] = rows[j];
            else
                tr[ntr++] = rows[j];
        rc = fit_and_score(m, d, tr, ntr, te, nte, value, seed, pred, &total, err);
        count += nte;
    }
    *score = count ? total / (double)count : 0;
    free(tr);
    free(te);
    free(pred);
    return rc;
}

/* With a hold-out's validation rows the candidates are scored on them (fitted on rows),
 * as seed 004 chooses its parameters; the first best wins. */
static int select_on_validation(const tl_exp_model *m, const tl_dataset *d, const size_t *rows,
                                size_t n, const size_t *valid, size_t n_valid,
                                unsigned long seed, long *best, tl_err *err)
{
    double *pred = malloc(n_valid * sizeof *pred), best_score = -INFINITY;
    int rc = pred ? TL_OK : tl_err_set(err, TL_ENOMEM, "out of memory");
    *best = 0;
    for (size_t v = 0; !rc && v < m->select.n_values; v++) {
        double s = 0;
        rc = fit_and_score(m, d, rows, n, valid, n_valid, m->select.values[v], seed, pred, &s,
                           err);
        if (!rc && s > best_score) {
            best_score = s;
            *best = (long)v;
        }
    }
    free(pred);
    if (rc)
        tl_err_prefix(err, "selecting %s for %s on the validation rows: ", m->select.param,
                      m->name);
    return rc;
}

/* Index of the best candidate of m->select over an inner CV of rows. */
static int select_value(const tl_exp_model *m, const tl_dataset *d, const size_t *rows, size_t n,
                        unsigned long seed, long *best, tl_err *err)
{
    size_t *fold_of = malloc((n ? n : 1) * sizeof *fold_of);
    if (!fold_of)
        return tl_err_set(err, TL_ENOMEM, "out of memory");
    int rc = tl_protocol_folds_of_rows(d, rows, n, m->select.folds, seed ^ 0x5bd1e995UL,
                                       fold_of, err);
    double best_score = -INFINITY;
    *best = 0;
    for (size_t v = 0; !rc && v < m->select.n_values; v++) {
        double s;
        rc = inner_score(m, d, rows, n, fold_of, m->select.values[v], seed, &s, err);
        if (!rc && s > best_score) {
            best_score = s;
            *best = (long)v;
        }
    }
    free(fold_of);
    if (rc)
        tl_err_prefix(err, "selecting %s for %s: ", m->select.param, m->name);
    return rc;
}

tl_model *tl_cell_fit(const tl_exp_model *m, const tl_dataset *d, const size_t *rows, size_t n,
                      const size_t *valid, size_t n_valid, unsigned long seed, long *selected,
                      tl_err *err)
{
    tl_err local;
    if (!err)
        err = &local; /* a candidate model that cannot be made leaves its code only in err */
    *selected = -1;
    size_t *all = NULL;
    if (!rows && m->select.param) {
        /* nested selection needs the rows spelled out for its inner folds */
        if (!(all = malloc((d->n_rows ? d->n_rows : 1) * sizeof *all))) {
            tl_err_set(err, TL_ENOMEM, "out of memory");
            return NULL;
        }
        for (size_t i = 0; i < d->n_rows; i++)
            all[i] = i;
        rows = all, n = d->n_rows;
    }
    int rc = TL_OK;
    if (m->select.param && valid && n_valid)
        rc = select_on_validation(m, d, rows, n, valid, n_valid, seed, selected, err);
    else if (m->select.param)
        rc = select_value(m, d, rows, n, seed, selected, err);
    if (rc) {
        free(all);
        return NULL;
    }
    tl_model *model = new_model(m, m->select.param,
                                *selected >= 0 ? m->select.values[*selected] : NULL, err);
    tl_fit_ctx ctx = {seed, valid, n_valid};
    if (model && tl_model_fit(model, d, rows, n, &ctx, err)) {
        tl_model_free(model);
        model = NULL;
    }
    free(all);
    return model;
}

/* Scores from predictions (out is n x width), each row counting with its weight. */
static int score(const tl_dataset *d, const size_t *test, size_t n, const double *out,
                 tl_cell *c, tl_err *err)
{
    double *w = d->weight ? malloc((n ? n : 1) * sizeof *w) : NULL;
    if (d->weight && !w)
        return tl_err_set(err, TL_ENOMEM, "out of memory");
    for (size_t i = 0; w && i < n; i++)
        w[i] = d->weight[test[i]];
    if (!c->classification) {
        double *truth = malloc((n ? n : 1) * sizeof *truth);
        if (!truth) {
            free(w);
            return tl_err_set(err, TL_ENOMEM, "out of memory");
        }
        for (size_t i = 0; i < n; i++)
            truth[i] = d->y.num[test[i]];
        tl_reg_metrics_compute_w(truth, out, w, n, &c->rm);
        free(truth);
        free(w);
        return TL_OK;
    }
    size_t k = c->k;
    int *truth = malloc((n ? n : 1) * sizeof *truth), *pred = malloc((n ? n : 1) * sizeof *pred);
    tl_confusion conf = {0, NULL};
    int rc = (truth && pred) ? tl_confusion_init(&conf, k, err)
                             : tl_err_set(err, TL_ENOMEM, "out of memory");
    for (size_t i = 0; !rc && i < n; i++) {
        size_t best = 0;
        for (size_t j = 1; j < k; j++)
            if (out[i * k + j] > out[i * k + best])
                best = j;
        truth[i] = d->y.code[test[i]];
        pred[i] = (int)best;
    }
    if (!rc && (!(c->proba_bins = calloc(3 * TL_PROBA_BINS, sizeof *c->proba_bins)) ||
                !(c->roc_bins = calloc(2 * TL_ROC_BINS, sizeof *c->roc_bins)) ||
                !(c->correct = malloc(n + 1))))
        rc = tl_err_set(err, TL_ENOMEM, "out of memory");
    for (size_t i = 0; !rc && i <= n; i++)
        c->correct[i] = i == n ? '\0' : truth[i] == pred[i] ? '1' : '0';
    if (!rc) {
        tl_confusion_add(&conf, truth, pred, w, n);
        rc = tl_class_metrics_compute_w(truth, pred, NULL, w, n, k, &c->cm, err);
        c->confusion = conf.m;
        conf.m = NULL;
    }
    if (!rc) { /* the probability metrics weigh the rows (log loss included) */
        rc = tl_proba_metrics_compute(truth, out, w, n, k, &c->cm, err);
        tl_proba_bins_add(truth, out, w, n, k, c->proba_bins);
        tl_roc_bins_add(truth, out, w, n, k, c->roc_bins);
    }
    tl_confusion_free(&conf);
    free(truth);
    free(pred);
    free(w);
    return rc;
}

int tl_cell_eval(const tl_exp_model *m, const tl_dataset *d, const size_t *train, size_t n_train,
                 const size_t *valid, size_t n_valid, const size_t *test, size_t n_test,
                 unsigned long seed, tl_cell *out, tl_err *err)
{
    tl_err local;
    if (!err)
        err = &local; /* a failed tl_cell_fit leaves its code only in err */
    out->n_train = n_train;
    out->n_test = n_test;
    out->classification = tl_dataset_is_classification(d);
    out->k = tl_dataset_n_classes(d);
    out->confusion = out->proba_bins = NULL;
    out->correct = NULL;
    out->roc_bins = NULL;
    double t0 = now_s();
    tl_model *model = tl_cell_fit(m, d, train, n_train, valid, n_valid, seed, &out->selected, err);
    if (!model)
        return err->code;
    double t1 = now_s();
    size_t width = out->classification ? out->k : 1;
    double *pred = malloc((n_test ? n_test : 1) * width * sizeof *pred);
    int rc = pred ? tl_model_predict(model, d, test, n_test, pred, err)
                  : tl_err_set(err, TL_ENOMEM, "out of memory");
    double t2 = now_s();
    out->fit_s = t1 - t0;
    out->predict_s = t2 - t1;
    if (!rc)
        rc = score(d, test, n_test, pred, out, err);
    tl_model_info info = {0, 0, 0};
    tl_model_get_info(model, &info);
    out->leaves = (double)info.leaves;
    out->depth = (double)info.depth;
    free(pred);
    tl_model_free(model);
    return rc;
}
