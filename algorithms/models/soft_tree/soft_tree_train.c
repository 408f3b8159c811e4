/* Soft tree training: initialisation, mini-batch Adam / SGD, early stopping, the trace. */
#include <gsl/gsl_randist.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "soft_tree_impl.h"

int st_trace_push(st_trace *t, double epoch, double train_loss, double valid_loss, tl_err *err)
{
    if (t->n_rows == t->cap) {
        size_t cap = t->cap ? 2 * t->cap : 64;
        double *v = realloc(t->v, cap * 3 * sizeof *v);
        if (!v)
            return tl_err_set(err, TL_ENOMEM, "out of memory");
        t->v = v;
        t->cap = cap;
    }
    double *row = t->v + 3 * t->n_rows++;
    row[0] = epoch;
    row[1] = train_loss;
    row[2] = valid_loss;
    return TL_OK;
}

void st_trace_clear(st_trace *t)
{
    if (!t)
        return;
    free(t->v);
    memset(t, 0, sizeof *t);
}

void st_init_params(st_net *net, double init_scale, gsl_rng *rng)
{
    size_t M = net->n_split, D = net->n_in;
    /* PyTorch's nn.Linear default: uniform in +-1/sqrt(fan_in). */
    double r = D ? 1.0 / sqrt((double)D) : 1.0;
    double *W = st_W(net), *b = st_b(net), *phi = st_phi(net);
    for (size_t k = 0; k < M * D; k++)
        W[k] = gsl_ran_flat(rng, -r, r);
    for (size_t s = 0; s < M; s++)
        b[s] = gsl_ran_flat(rng, -r, r);
    for (size_t k = 0; k < net->tree.n_leaves * net->n_out; k++)
        phi[k] = gsl_ran_gaussian(rng, init_scale);
}

typedef struct train_bufs {
    st_work w;
    double *grad, *m, *v, *best;
    size_t *order;
} train_bufs;

static void bufs_clear(train_bufs *b)
{
    st_work_clear(&b->w);
    free(b->grad);
    free(b->m);
    free(b->v);
    free(b->best);
    free(b->order);
}

static int bufs_alloc(train_bufs *b, const st_net *net, size_t cap, size_t n, tl_err *err)
{
    memset(b, 0, sizeof *b);
    if (st_work_alloc(&b->w, net, cap, err))
        return TL_ENOMEM;
    size_t T = net->n_theta ? net->n_theta : 1;
    b->grad = malloc(T * sizeof *b->grad);
    b->m = calloc(T, sizeof *b->m);
    b->v = calloc(T, sizeof *b->v);
    b->best = malloc(T * sizeof *b->best);
    b->order = malloc((n ? n : 1) * sizeof *b->order);
    if (!b->grad || !b->m || !b->v || !b->best || !b->order) {
        bufs_clear(b);
        return tl_err_set(err, TL_ENOMEM, "out of memory");
    }
    return TL_OK;
}

/* Adam with PyTorch's defaults (betas 0.9, 0.999, eps 1e-8) over n parameters; c1 and c2
 * the bias corrections. Cloned: sqrt and division are correctly rounded in every width. */
ST_CLONES static void adam(double *restrict th, double *restrict m, double *restrict v,
                           const double *restrict grad, size_t n, double lr, double c1, double c2)
{
    const double b1 = 0.9, b2 = 0.999, eps = 1e-8;
    for (size_t k = 0; k < n; k++) {
        double g = grad[k];
        m[k] = b1 * m[k] + (1 - b1) * g;
        v[k] = b2 * v[k] + (1 - b2) * g * g;
        th[k] -= lr * (m[k] / c1) / (sqrt(v[k] / c2) + eps);
    }
}

void st_adam_step(double *th, double *m, double *v, const double *grad, size_t n, double lr,
                  size_t t)
{
    adam(th, m, v, grad, n, lr, 1.0 - pow(0.9, (double)t), 1.0 - pow(0.999, (double)t));
}

static void step(st_net *net, const st_train_opts *o, train_bufs *b, size_t t)
{
    double *th = net->theta, lr = o->learning_rate;
    if (o->optimizer == ST_OPT_SGD) {
        for (size_t k = 0; k < net->n_theta; k++)
            th[k] -= lr * b->grad[k];
        return;
    }
    double c1 = 1.0 - pow(0.9, (double)t), c2 = 1.0 - pow(0.999, (double)t);
    adam(th, b->m, b->v, b->grad, net->n_theta, lr, c1, c2);
}

/* One pass over the shuffled training rows; returns the weighted mean data loss. */
static double epoch_pass(st_net *net, const st_train_opts *o, train_bufs *b, const st_data *tr,
                         size_t *t, gsl_rng *rng)
{
    size_t n = tr->n, cap = b->w.cap;
    gsl_ran_shuffle(rng, b->order, n, sizeof *b->order);
    double sum = 0, ws = 0;
    for (size_t at = 0; at < n; at += cap) {
        size_t B = n - at < cap ? n - at : cap;
        st_gather(net, &b->w, tr, b->order + at, B);
        double dl, bw = 0;
        st_batch_grad(net, &o->obj, &b->w, B, b->grad, &dl);
        for (size_t r = 0; r < B; r++)
            bw += tr->wt ? tr->wt[b->order[at + r]] : 1.0;
        sum += bw * dl;
        ws += bw;
        step(net, o, b, ++*t);
    }
    return ws > 0 ? sum / ws : 0;
}

/* Annealing's end: the final beta folded into W and b, which give the same logits with beta
 * back at its starting value beta0. */
static void fold_beta(st_net *net, double beta0)
{
    double scale = net->beta / beta0;
    for (size_t k = 0; k < net->n_split * (net->n_in + 1); k++)
        net->theta[k] *= scale;
    net->beta = beta0;
}

int st_train(st_net *net, const st_train_opts *o, const st_data *train, const st_data *valid,
             gsl_rng *rng, st_trace *trace, double *best_valid, tl_err *err)
{
    double beta0 = net->beta, best_beta = net->beta;
    size_t cap = o->batch_size < train->n ? o->batch_size : train->n;
    train_bufs b;
    if (bufs_alloc(&b, net, cap ? cap : 1, train->n, err))
        return TL_ENOMEM;
    for (size_t i = 0; i < train->n; i++)
        b.order[i] = i;
    int use_valid = valid && valid->n > 0, rc = TL_OK;
    double best = INFINITY, last = INFINITY;
    size_t since = 0, t = 0;
    memcpy(b.best, net->theta, net->n_theta * sizeof *b.best);
    for (size_t e = 1; e <= o->epochs; e++) {
        last = epoch_pass(net, o, &b, train, &t, rng);
        if (!isfinite(last)) {
            rc = tl_err_set(err, TL_EINTERNAL,
                            "soft_tree: the training loss diverged at epoch %zu; lower "
                            "learning_rate",
                            e);
            break;
        }
        double vl = NAN;
        if (use_valid) {
            vl = st_data_loss(net, o->obj.loss, &b.w, valid->X, valid->y, valid->wt, valid->n);
            if (vl < best) {
                best = vl;
                since = 0;
                best_beta = net->beta;
                memcpy(b.best, net->theta, net->n_theta * sizeof *b.best);
            } else {
                since++;
            }
        }
        if (trace && (rc = st_trace_push(trace, (double)e, last, vl, err)))
            break;
        if (use_valid && o->patience && since >= o->patience)
            break;
        if (o->anneal != 1 && e < o->epochs)
            net->beta *= o->anneal;
    }
    if (use_valid && isfinite(best)) {
        memcpy(net->theta, b.best, net->n_theta * sizeof *b.best);
        net->beta = best_beta;
    }
    if (o->anneal != 1)
        fold_beta(net, beta0);
    if (best_valid)
        *best_valid = use_valid ? best : last;
    bufs_clear(&b);
    return rc;
}
