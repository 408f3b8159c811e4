/* Soft tree plumbing: tree structure, parameter vector and batch scratch buffers. */
#include <stdlib.h>
#include <string.h>

#include "soft_tree_impl.h"

void st_tree_clear(st_tree *t)
{
    if (!t)
        return;
    free(t->left);
    free(t->right);
    free(t->slot);
    free(t->depth);
    free(t->kid);
    free(t->slot_depth);
    memset(t, 0, sizeof *t);
}

/* Slots and depths follow from the child arrays; parents must precede children, and every
 * node but the root must have exactly one parent (a node shared by two splits made show walk
 * it twice, 2^depth times down a chain of them). */
static int finish_tree(st_tree *t, tl_err *err)
{
    t->n_inner = t->n_leaves = 0;
    for (size_t i = 0; i < t->n_nodes; i++)
        t->depth[i] = i ? -1 : 0; /* -1: no parent seen yet */
    for (size_t i = 0; i < t->n_nodes; i++) {
        int l = t->left[i], r = t->right[i];
        if (t->depth[i] < 0) /* its parents would all have come before it */
            return tl_err_set(err, TL_EPARSE, "soft tree node %zu is no split's child", i);
        if ((l < 0) != (r < 0))
            return tl_err_set(err, TL_EPARSE, "soft tree node %zu has one child", i);
        if (l < 0) {
            t->slot[i] = (int)t->n_leaves++;
            continue;
        }
        if ((size_t)l <= i || (size_t)r <= i || (size_t)l >= t->n_nodes || (size_t)r >= t->n_nodes)
            return tl_err_set(err, TL_EPARSE, "soft tree node %zu has bad children %d, %d", i, l,
                              r);
        if (t->depth[l] >= 0 || l == r)
            return tl_err_set(err, TL_EPARSE, "soft tree node %d is a child of two splits",
                              t->depth[l] >= 0 ? l : r);
        if (t->depth[r] >= 0)
            return tl_err_set(err, TL_EPARSE, "soft tree node %d is a child of two splits", r);
        t->slot[i] = (int)t->n_inner++;
        t->depth[l] = t->depth[r] = t->depth[i] + 1;
    }
    if (t->n_leaves != t->n_inner + 1)
        return tl_err_set(err, TL_EPARSE, "soft tree: %zu leaves for %zu inner nodes", t->n_leaves,
                          t->n_inner);
    for (size_t i = 0; i < t->n_nodes; i++) {
        if (t->left[i] < 0)
            continue;
        int s = t->slot[i], l = t->left[i], r = t->right[i];
        t->kid[2 * s] = t->slot[l] + (t->left[l] < 0 ? (int)t->n_inner : 0);
        t->kid[2 * s + 1] = t->slot[r] + (t->left[r] < 0 ? (int)t->n_inner : 0);
        t->slot_depth[s] = t->depth[i];
    }
    return TL_OK;
}

static int tree_alloc(st_tree *t, size_t n, tl_err *err)
{
    memset(t, 0, sizeof *t);
    t->n_nodes = n;
    t->left = malloc(n * sizeof *t->left);
    t->right = malloc(n * sizeof *t->right);
    t->slot = malloc(n * sizeof *t->slot);
    t->depth = malloc(n * sizeof *t->depth);
    t->kid = malloc(n * sizeof *t->kid); /* 2 * n_inner = n - 1 entries */
    t->slot_depth = malloc(n * sizeof *t->slot_depth);
    if (!t->left || !t->right || !t->slot || !t->depth || !t->kid || !t->slot_depth) {
        st_tree_clear(t);
        return tl_err_set(err, TL_ENOMEM, "out of memory");
    }
    return TL_OK;
}

int st_tree_from_children(st_tree *t, const int *left, const int *right, size_t n, tl_err *err)
{
    if (n == 0)
        return tl_err_set(err, TL_EPARSE, "soft tree has no nodes");
    if (tree_alloc(t, n, err))
        return TL_ENOMEM;
    memcpy(t->left, left, n * sizeof *left);
    memcpy(t->right, right, n * sizeof *right);
    int rc = finish_tree(t, err);
    if (rc)
        st_tree_clear(t);
    return rc;
}

int st_tree_full(st_tree *t, size_t depth, tl_err *err)
{
    if (depth > 20)
        return tl_err_set(err, TL_EINVAL, "soft tree depth %zu is too large", depth);
    size_t n = ((size_t)2 << depth) - 1, inner = ((size_t)1 << depth) - 1;
    if (tree_alloc(t, n, err))
        return TL_ENOMEM;
    for (size_t i = 0; i < n; i++) {
        t->left[i] = i < inner ? (int)(2 * i + 1) : -1;
        t->right[i] = i < inner ? (int)(2 * i + 2) : -1;
    }
    return finish_tree(t, err);
}

size_t st_tree_max_depth(const st_tree *t)
{
    size_t d = 0;
    for (size_t i = 0; i < t->n_nodes; i++)
        if ((size_t)t->depth[i] > d)
            d = (size_t)t->depth[i];
    return d;
}

int st_net_alloc_theta(st_net *net, tl_err *err)
{
    free(net->theta);
    net->n_split =
        net->shape && net->shape->n_rows ? net->shape->n_rows(&net->tree) : net->tree.n_inner;
    net->n_extra = net->leaf && net->leaf->n_extra ? net->leaf->n_extra(net->n_in, net->n_out) : 0;
    net->n_theta =
        net->n_split * (net->n_in + 1) + net->tree.n_leaves * (net->n_out + net->n_extra);
    net->theta = calloc(net->n_theta ? net->n_theta : 1, sizeof *net->theta);
    if (!net->theta)
        return tl_err_set(err, TL_ENOMEM, "out of memory");
    return TL_OK;
}

void st_net_clear(st_net *net)
{
    if (!net)
        return;
    st_tree_clear(&net->tree);
    free(net->theta);
    net->theta = NULL;
    net->n_theta = 0;
}

/* Every buffer of one precision's set, in the order st_work_alloc sizes them. */
#define BUF_LIST(b)                                                                                \
    {                                                                                              \
        &(b).p, &(b).P, &(b).gP, &(b).gz, &(b).Y, &(b).dY, &(b).Q, &(b).logQ, &(b).gQ, &(b).X,     \
            &(b).wt, &(b).theta, &(b).grad                                                         \
    }
enum { N_BUFS = 13 };

static void reach_clear(st_reach *e)
{
    free(e->pos);
    free(e->kid);
    free(e->P);
    free(e->p);
    free(e->dp);
    free(e->g);
    free(e->start);
    free(e->W8);
    free(e->x8);
}

/* n entries for cap rows, S split rows of D inputs; TL_ENOMEM (what it did allocate,
 * st_work_clear frees). */
static int reach_alloc(st_reach *e, size_t n, size_t cap, size_t S, size_t D)
{
    e->D8 = (D + ST_LANES - 1) / ST_LANES * ST_LANES;
    e->W8 = calloc((S ? S : 1) * e->D8, sizeof *e->W8); /* the pads stay 0 */
    e->x8 = calloc(e->D8, sizeof *e->x8);
    e->pos = malloc(n * sizeof *e->pos);
    e->kid = malloc(2 * n * sizeof *e->kid);
    e->P = malloc(n * sizeof *e->P);
    e->p = malloc(n * sizeof *e->p);
    e->dp = malloc(n * sizeof *e->dp);
    e->g = malloc(n * sizeof *e->g);
    e->start = malloc((cap + 1) * sizeof *e->start);
    return e->pos && e->kid && e->P && e->p && e->dp && e->g && e->start && e->W8 && e->x8
               ? TL_OK
               : TL_ENOMEM;
}

void st_work_clear(st_work *w)
{
    if (!w)
        return;
    double **d[N_BUFS] = BUF_LIST(w->d);
    float **f[N_BUFS] = BUF_LIST(w->f);
    for (size_t i = 0; i < N_BUFS; i++) {
        free(*d[i]);
        free(*f[i]);
    }
    free(w->a);
    free(w->yb);
    free(w->qb);
    free(w->lq);
    reach_clear(&w->e);
    memset(w, 0, sizeof *w);
}

int st_work_alloc(st_work *w, const st_net *net, size_t cap, tl_err *err)
{
    memset(w, 0, sizeof *w);
    size_t M = net->tree.n_inner ? net->tree.n_inner : 1, L = net->tree.n_leaves;
    size_t N = net->tree.n_nodes, K = net->n_out, D = net->n_in ? net->n_in : 1;
    size_t T = net->single ? net->n_theta + 1 : 0; /* float: theta and its gradient */
    size_t n[N_BUFS] = {cap * M, cap * N, cap * N, cap * M, cap * K, cap * K, L * K,
                        L * K,   L * K,   cap * D, cap,     T,       T};
    double **d[N_BUFS] = BUF_LIST(w->d);
    float **f[N_BUFS] = BUF_LIST(w->f);
    int ok = 1;
    w->cap = cap;
    for (size_t i = 0; i < N_BUFS; i++) {
        if (!n[i])
            continue;
        if (net->single)
            ok = ok && (*f[i] = malloc(n[i] * sizeof(float)));
        else
            ok = ok && (*d[i] = malloc(n[i] * sizeof(double)));
    }
    w->a = malloc(M * 3 * sizeof(double));
    w->yb = malloc(cap * sizeof(double));
    if (ok && net->distill)
        ok = (w->qb = malloc(cap * K * sizeof(double))) != NULL;
    if (ok && net->n_extra)
        ok = (w->lq = malloc(3 * L * K * sizeof(double))) != NULL;
    if (ok && !st_net_dense(net)) /* a row reaches at most every node; 2 spare */
        ok = !reach_alloc(&w->e, cap * N + 2, cap, net->n_split, D);
    if (!ok || !w->a || !w->yb) {
        st_work_clear(w);
        return tl_err_set(err, TL_ENOMEM, "out of memory");
    }
    return TL_OK;
}
