/* Nested selection: every candidate of a model's grid scored by its objective on an inner
 * protocol (validation rows, inner k-fold CV or inner hold-out) over the outer training rows. */
#include "treelab/tl_protocol.h"
#include "treelab/tl_runner.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

const tl_metric_def *tl_select_objective(const tl_exp_select *s, int classification)
{
    return s->objective ? s->objective : tl_metric_find(classification ? "accuracy" : "mse", NULL);
}

unsigned long tl_select_split_seed(unsigned long seed, size_t repeat)
{
    /* repeat 0 keeps the seed that one-parameter selection has always used */
    unsigned long s = seed ^ 0x5bd1e995UL;
    return repeat ? tl_protocol_seed(s, NULL, repeat, 0) : s;
}

size_t tl_select_best(const tl_metric_def *objective, const double *scores, size_t n)
{
    size_t best = 0;
    for (size_t i = 1; i < n; i++) {
        double a = scores[i], b = scores[best];
        if (isnan(a))
            continue;
        if (isnan(b) || (objective->lower_is_better ? a < b : a > b))
            best = i;
    }
    return best;
}

tl_model *tl_select_model(const tl_exp_model *m, long cand, tl_err *err)
{
    tl_params p;
    tl_params_init(&p);
    tl_model *model = NULL;
    if (!tl_params_copy(&p, &m->params, err) &&
        (cand < 0 || !tl_exp_select_apply(&m->select, (size_t)cand, &p, err)))
        model = tl_model_new_type(m->type, &p, err);
    tl_params_clear(&p);
    return model;
}

/* What scoring a candidate needs: the model, the data, and buffers of n rows. */
typedef struct inner {
    const tl_exp_model *m;
    const tl_dataset *d;
    unsigned long seed;
    size_t width;    /* classes, or 1 for regression */
    size_t *tr, *te; /* rows of one fit */
    size_t *eval;    /* rows predicted so far, pooled over folds */
    double *out;     /* their predictions (n_eval x width) */
    size_t n_eval;
} inner;

/* Fit candidate cand on tr and append its predictions for te to the pool. */
static int fit_predict(inner *in, size_t cand, const size_t *tr, size_t ntr, const size_t *te,
                       size_t nte, tl_err *err)
{
    tl_model *model = tl_select_model(in->m, (long)cand, err);
    int rc = model ? TL_OK : err->code;
    tl_fit_ctx ctx = {.seed = in->seed};
    if (!rc && !(rc = tl_model_fit(model, in->d, tr, ntr, &ctx, err)))
        rc = tl_model_predict(model, in->d, te, nte, in->out + in->n_eval * in->width, err);
    if (!rc) {
        memcpy(in->eval + in->n_eval, te, nte * sizeof *te);
        in->n_eval += nte;
    }
    tl_model_free(model);
    return rc;
}

/* The objective on the pooled predictions, each row counting with its weight as in the
 * outer cells' scores (tl_cell_eval). */
static int pooled_score(const inner *in, const tl_metric_def *obj, double *score, tl_err *err)
{
    size_t n = in->n_eval, k = in->width;
    const double *dw = in->d->weight;
    double *w = dw ? malloc((n ? n : 1) * sizeof *w) : NULL;
    if (dw && !w)
        return tl_err_set(err, TL_ENOMEM, "out of memory");
    for (size_t i = 0; w && i < n; i++)
        w[i] = dw[in->eval[i]];
    if (!tl_dataset_is_classification(in->d)) {
        double *truth = malloc((n ? n : 1) * sizeof *truth);
        if (!truth) {
            free(w);
            return tl_err_set(err, TL_ENOMEM, "out of memory");
        }
        for (size_t i = 0; i < n; i++)
            truth[i] = in->d->y.num[in->eval[i]];
        tl_reg_metrics rm;
        tl_reg_metrics_compute_w(truth, in->out, w, n, &rm);
        *score = tl_metric_value(obj, NULL, &rm);
        free(truth);
        free(w);
        return TL_OK;
    }
    int *truth = malloc((n ? n : 1) * sizeof *truth), *pred = malloc((n ? n : 1) * sizeof *pred);
    int rc = truth && pred ? TL_OK : tl_err_set(err, TL_ENOMEM, "out of memory");
    for (size_t i = 0; !rc && i < n; i++) {
        size_t best = 0; /* the arg max, lowest class on ties, as tl_model_predict_label */
        for (size_t j = 1; j < k; j++)
            if (in->out[i * k + j] > in->out[i * k + best])
                best = j;
        truth[i] = in->d->y.code[in->eval[i]];
        pred[i] = (int)best;
    }
    tl_class_metrics cm;
    if (!rc && !(rc = tl_class_metrics_compute_w(truth, pred, in->out, w, n, k, &cm, err)))
        *score = tl_metric_value(obj, &cm, NULL);
    free(truth);
    free(pred);
    free(w);
    return rc;
}

/* One draw of the inner protocol for candidate cand: fits on the split(s) of assign (a fold
 * per row for cv; 1 = held out for a hold-out, of which only part 1 is predicted). */
static int draw_score(inner *in, size_t cand, const size_t *rows, size_t n, const size_t *assign,
                      size_t parts, size_t first_part, const tl_metric_def *obj, double *score,
                      tl_err *err)
{
    in->n_eval = 0;
    int rc = TL_OK;
    for (size_t f = first_part; !rc && f < parts; f++) {
        size_t ntr = 0, nte = 0;
        for (size_t j = 0; j < n; j++)
            if (assign[j] == f)
                in->te[nte++] = rows[j];
            else
                in->tr[ntr++] = rows[j];
        if (!ntr || !nte)
            return tl_err_set(err, TL_EINVAL, "the inner split of %zu rows leaves no %s rows", n,
                              ntr ? "scored" : "training");
        rc = fit_predict(in, cand, in->tr, ntr, in->te, nte, err);
    }
    return rc ? rc : pooled_score(in, obj, score, err);
}

/* Row assignments of every draw (repeats x n): folds, or 1 for held-out rows. */
static int make_draws(const tl_exp_select *s, const tl_dataset *d, const size_t *rows, size_t n,
                      unsigned long seed, size_t *assign, double *order, tl_err *err)
{
    for (size_t r = 0; r < s->repeats; r++) {
        unsigned long rs = tl_select_split_seed(seed, r);
        size_t *a = assign + r * n;
        if (s->inner == TL_INNER_HOLDOUT) {
            int rc = tl_protocol_order_of_rows(d, rows, n, rs, order, err);
            if (rc)
                return rc;
            for (size_t j = 0; j < n; j++) /* tolerance as tl_protocol_split's */
                a[j] = order[j] < s->fraction - 1e-9;
        } else {
            int rc = tl_protocol_folds_of_rows(d, rows, n, s->folds, rs, a, err);
            if (rc)
                return rc;
        }
    }
    return TL_OK;
}

int tl_select_scores(const tl_exp_model *m, const tl_dataset *d, const size_t *rows, size_t n,
                     const size_t *valid, size_t n_valid, unsigned long seed, double *scores,
                     tl_err *err)
{
    const tl_exp_select *s = &m->select;
    int cls = tl_dataset_is_classification(d);
    const tl_metric_def *obj = tl_select_objective(s, cls);
    if (obj->classification != cls)
        return tl_err_set(err, TL_EINVAL, "objective %s is a %s metric, and the target is %s",
                          obj->name, obj->classification ? "classification" : "regression",
                          cls ? "nominal" : "numeric");
    int on_valid = s->inner == TL_INNER_AUTO && valid && n_valid;
    size_t draws = on_valid ? 1 : s->repeats, cap = (on_valid ? n_valid : n) + 1;
    inner in = {m, d, seed, cls ? tl_dataset_n_classes(d) : 1, NULL, NULL, NULL, NULL, 0};
    in.tr = malloc((n + 1) * sizeof *in.tr);
    in.te = malloc((n + 1) * sizeof *in.te);
    in.eval = malloc(cap * sizeof *in.eval);
    in.out = malloc(cap * in.width * sizeof *in.out);
    size_t *assign = on_valid ? NULL : malloc((draws * n + 1) * sizeof *assign);
    double *order = on_valid ? NULL : malloc((n + 1) * sizeof *order);
    int rc = in.tr && in.te && in.eval && in.out && (on_valid || (assign && order))
                 ? TL_OK
                 : tl_err_set(err, TL_ENOMEM, "out of memory");
    if (!rc && !on_valid)
        rc = make_draws(s, d, rows, n, seed, assign, order, err);
    int holdout = s->inner == TL_INNER_HOLDOUT;
    for (size_t c = 0; !rc && c < s->n_candidates; c++) {
        double sum = 0;
        for (size_t r = 0; !rc && r < draws; r++) {
            double v = NAN;
            if (on_valid) {
                in.n_eval = 0;
                if (!(rc = fit_predict(&in, c, rows, n, valid, n_valid, err)))
                    rc = pooled_score(&in, obj, &v, err);
            } else {
                rc = draw_score(&in, c, rows, n, assign + r * n, holdout ? 2 : s->folds,
                                holdout ? 1 : 0, obj, &v, err);
            }
            sum += v;
        }
        scores[c] = sum / (double)draws;
    }
    free(in.tr);
    free(in.te);
    free(in.eval);
    free(in.out);
    free(assign);
    free(order);
    if (rc)
        tl_err_prefix(err, "selecting %s%s for %s%s: ", s->params[0],
                      s->n_params > 1 ? ", ..." : "", m->name,
                      on_valid ? " on the validation rows" : "");
    return rc;
}

long tl_select_run(const tl_exp_model *m, const tl_dataset *d, const size_t *rows, size_t n,
                   const size_t *valid, size_t n_valid, unsigned long seed, tl_err *err)
{
    double *scores = malloc(m->select.n_candidates * sizeof *scores);
    if (!scores) {
        tl_err_set(err, TL_ENOMEM, "out of memory");
        return -1;
    }
    long best = -1;
    if (!tl_select_scores(m, d, rows, n, valid, n_valid, seed, scores, err))
        best =
            (long)tl_select_best(tl_select_objective(&m->select, tl_dataset_is_classification(d)),
                                 scores, m->select.n_candidates);
    free(scores);
    return best;
}
