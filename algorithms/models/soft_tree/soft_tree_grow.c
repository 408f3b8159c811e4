/* Incremental growth of a soft tree (Irsoy, Yildiz and Alpaydin 2012). */
#include <gsl/gsl_randist.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "soft_tree_impl.h"

/* Build into out the tree of src with leaf node `leaf` split in two, carrying src's
 * parameters over by node: the new split gets fresh random weights and its two leaves the
 * old leaf's parameters plus a little noise, so training starts where src stopped. */
static int split_leaf(const st_net *src, size_t leaf, double init_scale, gsl_rng *rng, st_net *out,
                      tl_err *err)
{
    const st_tree *t = &src->tree;
    size_t n = t->n_nodes;
    int *left = malloc((n + 2) * sizeof *left), *right = malloc((n + 2) * sizeof *right);
    if (!left || !right) {
        free(left);
        free(right);
        return tl_err_set(err, TL_ENOMEM, "out of memory");
    }
    memcpy(left, t->left, n * sizeof *left);
    memcpy(right, t->right, n * sizeof *right);
    left[leaf] = (int)n;
    right[leaf] = (int)n + 1;
    left[n] = right[n] = left[n + 1] = right[n + 1] = -1;
    memset(out, 0, sizeof *out);
    out->n_in = src->n_in;
    out->n_out = src->n_out;
    out->regression = src->regression;
    out->beta = src->beta;
    out->single = src->single;
    out->distill = src->distill;
    out->gate = src->gate;
    memcpy(out->gate_par, src->gate_par, sizeof out->gate_par);
    out->shape = src->shape;
    memcpy(out->shape_par, src->shape_par, sizeof out->shape_par);
    out->leaf = src->leaf;
    memcpy(out->leaf_par, src->leaf_par, sizeof out->leaf_par);
    int rc = st_tree_from_children(&out->tree, left, right, n + 2, err);
    free(left);
    free(right);
    if (rc || (rc = st_net_alloc_theta(out, err))) {
        st_net_clear(out);
        return rc;
    }
    size_t D = src->n_in, K = src->n_out, E = src->n_extra;
    const st_tree *u = &out->tree;
    double r = D ? 1.0 / sqrt((double)D) : 1.0;
    const double *old_leaf = st_phi(src) + (size_t)t->slot[leaf] * K;
    for (size_t i = 0; i < n + 2; i++) {
        if (u->left[i] >= 0) {
            double *w = st_W(out) + (size_t)u->slot[i] * D, *b = st_b(out) + u->slot[i];
            if (i == leaf) {
                for (size_t k = 0; k < D; k++)
                    w[k] = gsl_ran_flat(rng, -r, r);
                *b = gsl_ran_flat(rng, -r, r);
            } else {
                memcpy(w, st_W(src) + (size_t)t->slot[i] * D, D * sizeof *w);
                *b = st_b(src)[t->slot[i]];
            }
            continue;
        }
        double *phi = st_phi(out) + (size_t)u->slot[i] * K;
        /* a new leaf starts from its parent leaf's extra parameters */
        const double *src_extra = st_extra(src) + (size_t)t->slot[i < n ? i : leaf] * E;
        if (E)
            memcpy(st_extra(out) + (size_t)u->slot[i] * E, src_extra, E * sizeof *src_extra);
        if (i < n) {
            memcpy(phi, st_phi(src) + (size_t)t->slot[i] * K, K * sizeof *phi);
            continue;
        }
        for (size_t c = 0; c < K; c++)
            phi[c] = old_leaf[c] + gsl_ran_gaussian(rng, init_scale);
    }
    return TL_OK;
}

static void net_swap(st_net *a, st_net *b)
{
    st_net tmp = *a;
    *a = *b;
    *b = tmp;
}

int st_grow_incremental(st_net *net, const st_train_opts *o, size_t max_depth, const st_data *train,
                        const st_data *valid, gsl_rng *rng, st_trace *trace, tl_err *err)
{
    if (!valid || valid->n == 0)
        return tl_err_set(err, TL_EINVAL,
                          "soft_tree: grow = incremental needs validation rows "
                          "(validation_fraction > 0)");
    int leaf_only[1] = {-1};
    st_tree_clear(&net->tree);
    int rc = st_tree_from_children(&net->tree, leaf_only, leaf_only, 1, err);
    if (rc || (rc = st_net_alloc_theta(net, err)))
        return rc;
    st_init_params(net, o->init_scale, rng);
    double current;
    if ((rc = st_train(net, o, train, valid, rng, trace, &current, err)))
        return rc;
    st_net best = {0}, cand = {0};
    st_trace best_trace = {0}, cand_trace = {0};
    for (;;) {
        double best_loss = INFINITY;
        for (size_t i = 0; i < net->tree.n_nodes && !rc; i++) {
            if (net->tree.left[i] >= 0 || (size_t)net->tree.depth[i] >= max_depth)
                continue;
            double loss;
            cand_trace.n_rows = 0;
            if ((rc = split_leaf(net, i, o->init_scale, rng, &cand, err)))
                break;
            rc = st_train(&cand, o, train, valid, rng, &cand_trace, &loss, err);
            if (!rc && loss < best_loss) {
                best_loss = loss;
                net_swap(&best, &cand);
                st_trace tt = best_trace;
                best_trace = cand_trace;
                cand_trace = tt;
            }
            st_net_clear(&cand);
        }
        if (rc || !(best_loss < current))
            break;
        /* Keep the split that lowered the validation loss most; its epochs join the trace. */
        current = best_loss;
        net_swap(net, &best);
        st_net_clear(&best);
        double e0 = trace && trace->n_rows ? trace->v[3 * (trace->n_rows - 1)] : 0;
        for (size_t k = 0; trace && k < best_trace.n_rows && !rc; k++)
            rc = st_trace_push(trace, e0 + best_trace.v[3 * k + 0], best_trace.v[3 * k + 1],
                               best_trace.v[3 * k + 2], err);
        best_trace.n_rows = 0;
        if (rc)
            break;
    }
    st_net_clear(&best);
    st_net_clear(&cand);
    st_trace_clear(&best_trace);
    st_trace_clear(&cand_trace);
    return rc;
}
