/* The row passes' routing to one leaf at prediction (predict = max_path or hard), for nets that
 * are not st_net_dense: each row follows its own path, not every leaf's path probability. */
#include <math.h>

#include "soft_tree_rows.h"

/* log g(z) of gate g. */
static double log_gate(const st_gate_type *g, const double *par, double z)
{
    double p, dp;
    if (g->log_p)
        return g->log_p(par, z);
    g->apply(par, z, &p, &dp);
    return log(p);
}

/* The leaf of row x by max_path: the largest log path probability (lowest leaf on ties), in
 * logs since products of probabilities underflow in deep trees; a subtree of log path
 * probability -inf is skipped. */
size_t st_max_path_leaf(const st_net *net, const double *x, st_reach *e)
{
    const st_tree *t = &net->tree;
    const st_gate_type *g = net->gate ? net->gate : &st_gate_sigmoid;
    size_t M = t->n_inner, D = net->n_in, n = 0, best = 0;
    double best_lp = -INFINITY;
    const double *W = st_W(net), *b = st_b(net);
    st_push(e, &n, 0, 0.0); /* P holds log path probabilities here */
    for (size_t i = 0; i < n; i++) {
        size_t s = (size_t)e->pos[i];
        double lp = e->P[i];
        if (s >= M) {
            if (lp > best_lp || (lp == best_lp && s - M < best))
                best_lp = lp, best = s - M;
            continue;
        }
        size_t row = st_split_row(net, s);
        double z = net->beta * (st_dot(W + row * D, x, D) + b[row]);
        double ll = lp + log_gate(g, net->gate_par, -z), lr = lp + log_gate(g, net->gate_par, z);
        if (ll > -INFINITY)
            st_push(e, &n, t->kid[2 * s], ll);
        if (lr > -INFINITY)
            st_push(e, &n, t->kid[2 * s + 1], lr);
    }
    return best;
}

/* The leaf of row x by hard routing: right where z > 0 (p > 1/2). */
size_t st_hard_leaf(const st_net *net, const double *x)
{
    const st_tree *t = &net->tree;
    size_t M = t->n_inner, D = net->n_in, s = 0;
    const double *W = st_W(net), *b = st_b(net);
    while (s < M) {
        size_t row = st_split_row(net, s);
        s = (size_t)t->kid[2 * s + (st_dot(W + row * D, x, D) + b[row] > 0)];
    }
    return s - M;
}
