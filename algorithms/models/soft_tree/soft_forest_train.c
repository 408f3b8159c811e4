/* Soft forest training: every tree initialised from its own seed, then all trained jointly by
 * mini-batches (and, with closed-form leaves, the leaf update after every epoch). */
#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../ensembles/ensemble.h"
#include "soft_forest_impl.h"

typedef struct sf_bufs {
    sf_work w;
    st_optim o;
    double *X, *y, *wt;
} sf_bufs;

static void bufs_clear(sf_bufs *b)
{
    sf_work_clear(&b->w);
    st_optim_clear(&b->o);
    free(b->X);
    free(b->y);
    free(b->wt);
}

static int bufs_alloc(sf_bufs *b, const sf_net *f, size_t cap, size_t n, tl_err *err)
{
    memset(b, 0, sizeof *b);
    if (sf_work_alloc(&b->w, f, err))
        return TL_ENOMEM;
    if (st_optim_alloc(&b->o, f->theta, f->n_theta, n, err)) {
        sf_work_clear(&b->w);
        return TL_ENOMEM;
    }
    size_t D = f->n_in ? f->n_in : 1;
    b->X = malloc(cap * D * sizeof *b->X);
    b->y = malloc(cap * sizeof *b->y);
    b->wt = malloc(cap * sizeof *b->wt);
    if (!b->X || !b->y || !b->wt) {
        bufs_clear(b);
        return tl_err_set(err, TL_ENOMEM, "out of memory");
    }
    return TL_OK;
}

/* Tree t's splits and leaves from stream (seed, t) as a soft tree's; closed-form leaves start
 * uniform. */
static int init_forest(sf_net *f, double init_scale, unsigned long seed, tl_err *err)
{
    gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
    if (!rng)
        return tl_err_set(err, TL_ENOMEM, "out of memory");
    for (size_t t = 0; t < f->m; t++) {
        st_net *net = &f->tree[t];
        gsl_rng_set(rng, (unsigned long)tl_ens_seed(seed, t, 1));
        st_init_params(net, init_scale, rng);
        if (f->leaf == SF_LEAF_CLOSED_FORM)
            for (size_t k = 0; k < net->tree.n_leaves * f->n_out; k++)
                st_phi(net)[k] = 1.0 / (double)f->n_out;
    }
    gsl_rng_free(rng);
    return TL_OK;
}

/* One pass over the shuffled rows; returns the weighted mean data loss. */
static double epoch_pass(sf_net *f, const st_train_opts *o, sf_bufs *b, const st_data *tr,
                         size_t cap, gsl_rng *rng)
{
    size_t n = tr->n, D = f->n_in;
    gsl_ran_shuffle(rng, b->o.order, n, sizeof *b->o.order);
    double sum = 0, ws = 0;
    for (size_t at = 0; at < n; at += cap) {
        size_t B = n - at < cap ? n - at : cap;
        double bw = 0;
        for (size_t r = 0; r < B; r++) {
            size_t i = b->o.order[at + r];
            memcpy(b->X + r * D, tr->X + i * D, D * sizeof *b->X);
            b->y[r] = tr->y[i];
            b->wt[r] = tr->wt ? tr->wt[i] : 1.0;
            bw += b->wt[r];
        }
        double dl;
        sf_objective(f, &b->w, o->obj.l2, b->X, b->y, b->wt, B, b->o.grad, &dl);
        sum += bw * dl;
        ws += bw;
        st_optim_step(&b->o, o, f->theta);
    }
    return ws > 0 ? sum / ws : 0;
}

int sf_train(sf_net *f, const sf_train_opts *so, const st_data *train, const st_data *valid,
             unsigned long seed, st_trace *trace, tl_err *err)
{
    const st_train_opts *o = &so->base;
    size_t cap = o->batch_size < train->n ? o->batch_size : train->n;
    cap = cap ? cap : 1;
    sf_bufs b;
    gsl_rng *rng = NULL;
    int rc = init_forest(f, o->init_scale, seed, err);
    if (rc || (rc = bufs_alloc(&b, f, cap, train->n, err)))
        return rc;
    if (!(rng = gsl_rng_alloc(gsl_rng_mt19937))) {
        bufs_clear(&b);
        return tl_err_set(err, TL_ENOMEM, "out of memory");
    }
    gsl_rng_set(rng, seed);
    int use_valid = valid && valid->n > 0, closed = f->leaf == SF_LEAF_CLOSED_FORM;
    st_stopper stop = st_stopper_start(use_valid, o->patience);
    if (closed)
        rc = sf_leaf_closed_form(f, &b.w, train->X, train->y, train->wt, train->n, so->leaf_iters,
                                 err);
    for (size_t e = 1; !rc && e <= o->epochs; e++) {
        double last = epoch_pass(f, o, &b, train, cap, rng);
        if (closed && (rc = sf_leaf_closed_form(f, &b.w, train->X, train->y, train->wt, train->n,
                                                so->leaf_iters, err)))
            break;
        if (!isfinite(last)) {
            rc = tl_err_set(err, TL_EINTERNAL,
                            "soft_forest: the training loss diverged at epoch %zu; lower "
                            "learning_rate",
                            e);
            break;
        }
        double vl = NAN;
        if (use_valid) {
            vl = sf_objective(f, &b.w, 0, valid->X, valid->y, valid->wt, valid->n, NULL, NULL);
            st_stopper_see(&stop, vl, f->theta, b.o.best, f->n_theta);
        }
        if (trace && (rc = st_trace_push(trace, (double)e, last, vl, err)))
            break;
        if (st_stopper_done(&stop))
            break;
    }
    if (!rc && use_valid && isfinite(stop.best))
        memcpy(f->theta, b.o.best, f->n_theta * sizeof *b.o.best);
    gsl_rng_free(rng);
    bufs_clear(&b);
    return rc;
}
