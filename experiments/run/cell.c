/* One cell of an experiment: fit (after the nested selection of select.c), predict, score. */
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

tl_model *tl_cell_fit(const tl_exp_model *m, const tl_dataset *d, const size_t *rows, size_t n,
                      const size_t *valid, size_t n_valid, unsigned long seed, long *selected,
                      tl_err *err)
{
    tl_err local;
    if (!err)
        err = &local; /* a candidate model that cannot be made leaves its code only in err */
    *selected = -1;
    size_t *all = NULL;
    if (!rows && (m->select.n_params || m->class_weight)) {
        /* nested selection needs the rows spelled out for its inner folds, class weights
         * for their counts */
        if (!(all = malloc((d->n_rows ? d->n_rows : 1) * sizeof *all))) {
            tl_err_set(err, TL_ENOMEM, "out of memory");
            return NULL;
        }
        for (size_t i = 0; i < d->n_rows; i++)
            all[i] = i;
        rows = all, n = d->n_rows;
    }
    tl_dataset view = *d; /* the same data, weighted by class: never freed as a dataset */
    tl_model *model = NULL;
    if (m->class_weight && tl_class_weights_apply(m->class_weight, d, rows, n, &view.weight, err))
        goto done;
    if (m->select.n_params &&
        (*selected = tl_select_run(m, &view, rows, n, valid, n_valid, seed, err)) < 0)
        goto done;
    model = tl_select_model(m, *selected, err);
    tl_fit_ctx ctx = {seed, valid, n_valid, 0};
    if (model && tl_model_fit(model, &view, rows, n, &ctx, err)) {
        tl_model_free(model);
        model = NULL;
    }
done:
    if (view.weight != d->weight)
        free(view.weight);
    free(all);
    return model;
}

/* Scores from predictions (out is n x width), each row counting with its weight. */
static int score(const tl_dataset *d, const size_t *test, size_t n, const double *out, tl_cell *c,
                 tl_err *err)
{
    double *w = d->weight ? malloc((n ? n : 1) * sizeof *w) : NULL;
    if (d->weight && !w)
        return tl_err_set(err, TL_ENOMEM, "out of memory");
    for (size_t i = 0; w && i < n; i++)
        w[i] = d->weight[test[i]];
    if (w && c->classification) { /* the confusion matrix's total, which merge checks */
        c->test_weight = 0;
        for (size_t i = 0; i < n; i++)
            c->test_weight += w[i];
    }
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

/* out's sizes and empty buffers before a fit. */
static void cell_start(const tl_dataset *d, size_t n_train, size_t n_test, tl_cell *out)
{
    out->n_train = n_train;
    out->n_test = n_test;
    out->classification = tl_dataset_is_classification(d);
    out->k = tl_dataset_n_classes(d);
    out->confusion = out->proba_bins = NULL;
    out->correct = NULL;
    out->roc_bins = NULL;
    out->trees = 0;
    out->fidelity = NAN;
    out->test_weight = NAN;
}

/* Predict the test rows with the fitted model, score them and record its size. */
static int cell_finish(const tl_model *model, const tl_dataset *d, const size_t *test,
                       size_t n_test, tl_cell *out, tl_err *err)
{
    double t1 = now_s();
    size_t width = out->classification ? out->k : 1;
    double *pred = malloc((n_test ? n_test : 1) * width * sizeof *pred);
    int rc = pred ? tl_model_predict(model, d, test, n_test, pred, err)
                  : tl_err_set(err, TL_ENOMEM, "out of memory");
    out->predict_s = now_s() - t1;
    if (!rc)
        rc = score(d, test, n_test, pred, out, err);
    tl_model_info info = {0, 0, 0};
    tl_model_get_info(model, &info);
    /* a learner without a tree has no leaves: NaN, written as an empty field, not 0 */
    out->leaves = tl_model_has_size(model) ? (double)info.leaves : NAN;
    out->depth = tl_model_has_size(model) ? (double)info.depth : NAN;
    const tl_ensemble *e = tl_model_ensemble(model);
    out->trees = e ? e->n_trees : 0;
    const tl_model *teacher = tl_model_teacher(model);
    if (!rc && teacher)
        rc = tl_model_fidelity(teacher, model, d, test, n_test, &out->fidelity, err);
    free(pred);
    return rc;
}

int tl_cell_eval(const tl_exp_model *m, const tl_dataset *d, const size_t *train, size_t n_train,
                 const size_t *valid, size_t n_valid, const size_t *test, size_t n_test,
                 unsigned long seed, tl_cell *out, tl_err *err)
{
    tl_err local;
    if (!err)
        err = &local; /* a failed tl_cell_fit leaves its code only in err */
    cell_start(d, n_train, n_test, out);
    double t0 = now_s();
    tl_model *model = tl_cell_fit(m, d, train, n_train, valid, n_valid, seed, &out->selected, err);
    if (!model)
        return err->code;
    out->fit_s = now_s() - t0;
    int rc = cell_finish(model, d, test, n_test, out, err);
    tl_model_free(model);
    return rc;
}

int tl_cell_eval_stages(const tl_exp_model *const *m, const size_t *stages, size_t n,
                        const tl_dataset *d, const size_t *train, size_t n_train,
                        const size_t *valid, size_t n_valid, const size_t *test, size_t n_test,
                        unsigned long seed, tl_cell *out, tl_err *err)
{
    tl_err local;
    if (!err)
        err = &local;
    for (size_t i = 0; i < n; i++)
        cell_start(d, n_train, n_test, &out[i]);
    double t0 = now_s();
    long selected;
    tl_model *model = tl_cell_fit(m[0], d, train, n_train, valid, n_valid, seed, &selected, err);
    if (!model)
        return err->code;
    double fit_s = now_s() - t0;
    int rc = TL_OK;
    for (size_t i = 0; !rc && i < n; i++) {
        out[i].selected = selected;
        out[i].fit_s = fit_s;
        if (!(rc = tl_model_truncate(model, stages[i], d, err)))
            rc = cell_finish(model, d, test, n_test, &out[i], err);
    }
    tl_model_free(model);
    return rc;
}
