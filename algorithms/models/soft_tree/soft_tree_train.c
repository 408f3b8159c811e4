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

static const char *const trace_cols[] = {"epoch", "train_loss", "valid_loss"};

int st_trace_view(const st_trace *t, const char *const **col_names, size_t *n_cols,
                  const double **values, size_t *n_rows)
{
    *col_names = trace_cols;
    *n_cols = 3;
    *values = t->v;
    *n_rows = t->n_rows;
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
    /* a linear leaf starts as a constant one: no draws, so the splits' and leaves' stay */
    memset(st_extra(net), 0, net->tree.n_leaves * net->n_extra * sizeof(double));
}

typedef struct train_bufs {
    st_work w;
    st_optim o;
} train_bufs;

static void bufs_clear(train_bufs *b)
{
    st_work_clear(&b->w);
    st_optim_clear(&b->o);
}

static int bufs_alloc(train_bufs *b, const st_net *net, size_t cap, size_t n, tl_err *err)
{
    memset(b, 0, sizeof *b);
    if (st_work_alloc(&b->w, net, cap, err))
        return TL_ENOMEM;
    if (st_optim_alloc(&b->o, net->theta, net->n_theta, n, err)) {
        st_work_clear(&b->w);
        return TL_ENOMEM;
    }
    return TL_OK;
}

void st_optim_clear(st_optim *o)
{
    free(o->grad);
    free(o->m);
    free(o->v);
    free(o->best);
    free(o->order);
    memset(o, 0, sizeof *o);
}

int st_optim_alloc(st_optim *o, const double *theta, size_t n_theta, size_t n_rows, tl_err *err)
{
    memset(o, 0, sizeof *o);
    size_t T = n_theta ? n_theta : 1;
    o->n_theta = n_theta;
    o->grad = malloc(T * sizeof *o->grad);
    o->m = calloc(T, sizeof *o->m);
    o->v = calloc(T, sizeof *o->v);
    o->best = malloc(T * sizeof *o->best);
    o->order = malloc((n_rows ? n_rows : 1) * sizeof *o->order);
    if (!o->grad || !o->m || !o->v || !o->best || !o->order) {
        st_optim_clear(o);
        return tl_err_set(err, TL_ENOMEM, "out of memory");
    }
    for (size_t i = 0; i < n_rows; i++)
        o->order[i] = i;
    memcpy(o->best, theta, n_theta * sizeof *o->best);
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

void st_optim_step(st_optim *o, const st_train_opts *opts, double *theta)
{
    double lr = opts->learning_rate;
    size_t t = ++o->t;
    if (opts->optimizer == ST_OPT_SGD) {
        for (size_t k = 0; k < o->n_theta; k++)
            theta[k] -= lr * o->grad[k];
        return;
    }
    double c1 = 1.0 - pow(0.9, (double)t), c2 = 1.0 - pow(0.999, (double)t);
    adam(theta, o->m, o->v, o->grad, o->n_theta, lr, c1, c2);
}

/* One pass over the shuffled training rows; returns the weighted mean data loss. */
static double epoch_pass(st_net *net, const st_train_opts *o, train_bufs *b, const st_data *tr,
                         gsl_rng *rng)
{
    size_t n = tr->n, cap = b->w.cap;
    gsl_ran_shuffle(rng, b->o.order, n, sizeof *b->o.order);
    double sum = 0, ws = 0;
    for (size_t at = 0; at < n; at += cap) {
        size_t B = n - at < cap ? n - at : cap;
        st_gather(net, &b->w, tr, b->o.order + at, B);
        double dl, bw = 0;
        st_batch_grad(net, &o->obj, &b->w, B, b->o.grad, &dl);
        for (size_t r = 0; r < B; r++)
            bw += tr->wt ? tr->wt[b->o.order[at + r]] : 1.0;
        sum += bw * dl;
        ws += bw;
        st_optim_step(&b->o, o, net->theta);
        if (net->shape && net->shape->prox)
            net->shape->prox(net->shape_par, o->learning_rate, st_W(net), net->n_split * net->n_in);
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
    int use_valid = valid && valid->n > 0, rc = TL_OK;
    double last = INFINITY;
    st_stopper stop = st_stopper_start(use_valid, o->patience);
    for (size_t e = 1; e <= o->epochs; e++) {
        last = epoch_pass(net, o, &b, train, rng);
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
            if (st_stopper_see(&stop, vl, net->theta, b.o.best, net->n_theta))
                best_beta = net->beta;
        }
        if (trace && (rc = st_trace_push(trace, (double)e, last, vl, err)))
            break;
        if (st_stopper_done(&stop))
            break;
        if (o->anneal != 1 && e < o->epochs)
            net->beta *= o->anneal;
    }
    if (use_valid && isfinite(stop.best)) {
        memcpy(net->theta, b.o.best, net->n_theta * sizeof *b.o.best);
        net->beta = best_beta;
    }
    if (o->anneal != 1)
        fold_beta(net, beta0);
    if (best_valid)
        *best_valid = use_valid ? stop.best : last;
    bufs_clear(&b);
    return rc;
}
