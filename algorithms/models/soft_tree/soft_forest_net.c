/* Soft forest passes: m soft trees' outputs summed (additive) or averaged (closed-form leaves),
 * row by row, each tree skipping the subtrees a row reaches with path probability 0. */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "soft_forest_impl.h"

void sf_net_clear(sf_net *f)
{
    for (size_t t = 0; f->tree && t < f->m; t++)
        st_tree_clear(&f->tree[t].tree);
    free(f->tree);
    free(f->theta);
    f->tree = NULL;
    f->theta = NULL;
    f->m = f->per_tree = f->n_theta = 0;
}

int sf_net_build(sf_net *f, size_t m, size_t depth, const st_gate_type *gate,
                 const double *gate_par, const st_shape_type *shape, double beta, tl_err *err)
{
    sf_net_clear(f);
    f->tree = calloc(m ? m : 1, sizeof *f->tree);
    if (!f->tree)
        return tl_err_set(err, TL_ENOMEM, "out of memory");
    f->m = m;
    for (size_t t = 0; t < m; t++) {
        st_net *n = &f->tree[t];
        int rc = st_tree_full(&n->tree, depth, err);
        if (rc)
            return rc;
        n->n_in = f->n_in;
        n->n_out = f->n_out;
        n->regression = f->regression;
        n->beta = beta;
        n->gate = gate;
        memcpy(n->gate_par, gate_par, sizeof n->gate_par);
        n->shape = shape;
        n->n_split = shape && shape->n_rows ? shape->n_rows(&n->tree) : n->tree.n_inner;
        n->n_theta = n->n_split * (f->n_in + 1) + n->tree.n_leaves * f->n_out;
    }
    f->per_tree = m ? f->tree[0].n_theta : 0;
    f->n_theta = m * f->per_tree;
    f->theta = calloc(f->n_theta ? f->n_theta : 1, sizeof *f->theta);
    if (!f->theta)
        return tl_err_set(err, TL_ENOMEM, "out of memory");
    for (size_t t = 0; t < m; t++)
        f->tree[t].theta = f->theta + t * f->per_tree;
    return TL_OK;
}

void sf_work_clear(sf_work *w)
{
    free(w->e.pos);
    free(w->e.kid);
    free(w->e.P);
    free(w->e.p);
    free(w->e.dp);
    free(w->e.g);
    free(w->at);
    free(w->F);
    free(w->dF);
    free(w->Pc);
    memset(w, 0, sizeof *w);
}

int sf_work_alloc(sf_work *w, const sf_net *f, tl_err *err)
{
    memset(w, 0, sizeof *w);
    size_t N = f->m * (f->m ? f->tree[0].tree.n_nodes : 0) + 2, K = f->n_out;
    w->e.pos = malloc(N * sizeof *w->e.pos);
    w->e.kid = malloc(2 * N * sizeof *w->e.kid);
    w->e.P = malloc(N * sizeof *w->e.P);
    w->e.p = malloc(N * sizeof *w->e.p);
    w->e.dp = malloc(N * sizeof *w->e.dp);
    w->e.g = malloc(N * sizeof *w->e.g);
    w->at = malloc((f->m + 1) * sizeof *w->at);
    w->F = malloc(K * sizeof *w->F);
    w->dF = malloc(K * sizeof *w->dF);
    w->Pc = malloc((f->m ? f->m : 1) * sizeof *w->Pc);
    if (!w->e.pos || !w->e.kid || !w->e.P || !w->e.p || !w->e.dp || !w->e.g || !w->at || !w->F ||
        !w->dF || !w->Pc) {
        sf_work_clear(w);
        return tl_err_set(err, TL_ENOMEM, "out of memory");
    }
    return TL_OK;
}

/* Every tree's reached nodes of row x into w. */
static void reach(const sf_net *f, sf_work *w, const double *x)
{
    size_t n = 0;
    for (size_t t = 0; t < f->m; t++) {
        w->at[t] = n;
        n = st_reach_row(&f->tree[t], x, 1.0, &w->e, n, NULL);
    }
    w->at[f->m] = n;
}

/* Tree t's output of the row in w into out (n_out values, added): the path-weighted sum of
 * its leaf parameters. */
static void tree_output(const sf_net *f, const sf_work *w, size_t t, double *out)
{
    const st_net *net = &f->tree[t];
    size_t M = net->tree.n_inner, K = f->n_out;
    const double *phi = st_phi(net);
    for (size_t i = w->at[t]; i < w->at[t + 1]; i++)
        if ((size_t)w->e.pos[i] >= M)
            for (size_t c = 0; c < K; c++)
                out[c] += w->e.P[i] * phi[((size_t)w->e.pos[i] - M) * K + c];
}

/* The row's output, from its reach in w: additive, softmax of the summed logits (or the summed
 * value); closed form, the trees' mean mixture. */
static void forest_output(const sf_net *f, const sf_work *w, double *out)
{
    size_t K = f->n_out;
    memset(out, 0, K * sizeof *out);
    for (size_t t = 0; t < f->m; t++)
        tree_output(f, w, t, out);
    if (f->leaf == SF_LEAF_CLOSED_FORM) {
        for (size_t c = 0; c < K; c++)
            out[c] /= (double)(f->m ? f->m : 1);
        return;
    }
    if (f->regression)
        return;
    double top = out[0], s = 0;
    for (size_t c = 1; c < K; c++)
        top = out[c] > top ? out[c] : top;
    for (size_t c = 0; c < K; c++)
        s += (out[c] = exp(out[c] - top));
    for (size_t c = 0; c < K; c++)
        out[c] /= s;
}

/* Tree t backward for row x: from the gradients of its leaves' path probabilities in e->g to
 * its split parameters' (gW, gb of the tree). */
static void back_tree(const sf_net *f, sf_work *w, size_t t, const double *x, double *gt)
{
    const st_net *net = &f->tree[t];
    size_t M = net->tree.n_inner, D = f->n_in, S = net->n_split;
    st_reach *e = &w->e;
    for (size_t i = w->at[t + 1]; i-- > w->at[t];) {
        size_t s = (size_t)e->pos[i];
        if (s >= M)
            continue;
        int kl = e->kid[2 * i], kr = e->kid[2 * i + 1];
        double gl = kl >= 0 ? e->g[kl] : 0, gr = kr >= 0 ? e->g[kr] : 0, p = e->p[i];
        e->g[i] = gl * (1 - p) + gr * p;
        double gz = net->beta * e->P[i] * (gr - gl) * e->dp[i];
        if (gz == 0)
            continue;
        size_t row = st_split_row(net, s);
        for (size_t j = 0; j < D; j++)
            gt[row * D + j] += gz * x[j];
        gt[S * D + row] += gz;
    }
}

/* Row loss (weight share wr) of the additive forest; with grad, the leaves' gradients and
 * their path probabilities' into e->g. */
static double row_additive(const sf_net *f, sf_work *w, double wr, double y, double *grad)
{
    size_t K = f->n_out;
    double *F = w->F, *dF = w->dF, loss;
    forest_output(f, w, F);
    if (f->regression) {
        double d = F[0] - y;
        loss = wr * d * d;
        dF[0] = 2 * wr * d;
    } else {
        size_t c = (size_t)y;
        loss = -wr * log(F[c] > DBL_MIN ? F[c] : DBL_MIN);
        for (size_t k = 0; k < K; k++)
            dF[k] = wr * (F[k] - (k == c));
    }
    if (!grad)
        return loss;
    for (size_t t = 0; t < f->m; t++) {
        const st_net *net = &f->tree[t];
        size_t M = net->tree.n_inner, S = net->n_split;
        const double *phi = st_phi(net);
        double *gphi = grad + t * f->per_tree + S * (f->n_in + 1);
        for (size_t i = w->at[t]; i < w->at[t + 1]; i++) {
            if ((size_t)w->e.pos[i] < M)
                continue;
            size_t l = (size_t)w->e.pos[i] - M;
            double g = 0;
            for (size_t k = 0; k < K; k++) {
                g += phi[l * K + k] * dF[k];
                gphi[l * K + k] += w->e.P[i] * dF[k];
            }
            w->e.g[i] = g;
        }
    }
    return loss;
}

/* Tree t's P(c | x) of the row in w (closed form: phi holds the leaves' distributions). */
static double tree_prob(const sf_net *f, const sf_work *w, size_t t, size_t c)
{
    const st_net *net = &f->tree[t];
    size_t M = net->tree.n_inner, K = f->n_out;
    const double *pi = st_phi(net);
    double P = 0;
    for (size_t i = w->at[t]; i < w->at[t + 1]; i++)
        if ((size_t)w->e.pos[i] >= M)
            P += w->e.P[i] * pi[((size_t)w->e.pos[i] - M) * K + c];
    return P;
}

/* Row loss of the closed-form forest: the sum of its trees' log losses; with grad, the path
 * probabilities' gradients into e->g (the leaves are not trained by gradient). */
static double row_closed_form(const sf_net *f, sf_work *w, double wr, double y, int want)
{
    size_t c = (size_t)y, K = f->n_out;
    double loss = 0;
    for (size_t t = 0; t < f->m; t++) {
        const st_net *net = &f->tree[t];
        size_t M = net->tree.n_inner;
        const double *pi = st_phi(net);
        double P = tree_prob(f, w, t, c), Pc = P > DBL_MIN ? P : DBL_MIN;
        loss -= wr * log(Pc);
        for (size_t i = w->at[t]; want && i < w->at[t + 1]; i++)
            if ((size_t)w->e.pos[i] >= M)
                w->e.g[i] = -wr * pi[((size_t)w->e.pos[i] - M) * K + c] / Pc;
    }
    return loss;
}

double sf_objective(const sf_net *f, sf_work *w, double l2, const double *X, const double *y,
                    const double *wt, size_t n, double *grad, double *data_loss)
{
    size_t D = f->n_in;
    double ws = 0, total = 0;
    for (size_t r = 0; r < n; r++)
        ws += wt ? wt[r] : 1.0;
    if (grad)
        memset(grad, 0, f->n_theta * sizeof *grad);
    for (size_t r = 0; ws > 0 && r < n; r++) {
        const double *x = X + r * D;
        double wr = (wt ? wt[r] : 1.0) / ws;
        reach(f, w, x);
        total += f->leaf == SF_LEAF_CLOSED_FORM ? row_closed_form(f, w, wr, y[r], grad != NULL)
                                                : row_additive(f, w, wr, y[r], grad);
        for (size_t t = 0; grad && t < f->m; t++)
            back_tree(f, w, t, x, grad + t * f->per_tree);
    }
    if (data_loss)
        *data_loss = total;
    for (size_t t = 0; l2 > 0 && t < f->m; t++) {
        const st_net *net = &f->tree[t];
        const double *W = st_W(net);
        double *g = grad ? grad + t * f->per_tree : NULL;
        for (size_t k = 0; k < net->n_split * D; k++) {
            total += 0.5 * l2 * W[k] * W[k];
            if (g)
                g[k] += l2 * W[k];
        }
    }
    return total;
}

void sf_predict_rows(const sf_net *f, sf_work *w, const double *X, size_t n, double *out)
{
    for (size_t r = 0; r < n; r++) {
        reach(f, w, X + r * f->n_in);
        forest_output(f, w, out + r * f->n_out);
    }
}

/* The leaves every row reaches, with their path probabilities: entry k is leaf leaf[k] (of
 * tree tree[k]) of row r for k in [start[r], start[r + 1]); the splits stay fixed while the
 * leaf update runs, so it reads them from here. */
typedef struct leaf_reach {
    size_t *start, *tree, *leaf, n, cap;
    double *P;
} leaf_reach;

static void leaf_reach_clear(leaf_reach *a)
{
    free(a->start);
    free(a->tree);
    free(a->leaf);
    free(a->P);
}

static int leaf_reach_push(leaf_reach *a, size_t t, size_t l, double P)
{
    if (a->n == a->cap) {
        size_t cap = a->cap ? 2 * a->cap : 1024;
        size_t *tr = realloc(a->tree, cap * sizeof *tr);
        if (tr)
            a->tree = tr;
        size_t *lf = realloc(a->leaf, cap * sizeof *lf);
        if (lf)
            a->leaf = lf;
        double *p = realloc(a->P, cap * sizeof *p);
        if (p)
            a->P = p;
        if (!tr || !lf || !p)
            return TL_ENOMEM;
        a->cap = cap;
    }
    a->tree[a->n] = t;
    a->leaf[a->n] = l;
    a->P[a->n++] = P;
    return TL_OK;
}

static int leaf_reach_fill(leaf_reach *a, const sf_net *f, sf_work *w, const double *X, size_t n)
{
    memset(a, 0, sizeof *a);
    if (!(a->start = malloc((n + 1) * sizeof *a->start)))
        return TL_ENOMEM;
    for (size_t r = 0; r < n; r++) {
        a->start[r] = a->n;
        reach(f, w, X + r * f->n_in);
        for (size_t t = 0; t < f->m; t++) {
            size_t M = f->tree[t].tree.n_inner;
            for (size_t i = w->at[t]; i < w->at[t + 1]; i++)
                if ((size_t)w->e.pos[i] >= M &&
                    leaf_reach_push(a, t, (size_t)w->e.pos[i] - M, w->e.P[i]))
                    return TL_ENOMEM;
        }
    }
    a->start[n] = a->n;
    return TL_OK;
}

int sf_leaf_closed_form(sf_net *f, sf_work *w, const double *X, const double *y, const double *wt,
                        size_t n, size_t iters, tl_err *err)
{
    size_t K = f->n_out, L = f->m ? f->tree[0].tree.n_leaves : 0, LK = L * K;
    double *acc = malloc((f->m * LK > 0 ? f->m * LK : 1) * sizeof *acc);
    leaf_reach a;
    int rc = leaf_reach_fill(&a, f, w, X, n);
    if (!acc || rc) {
        free(acc);
        leaf_reach_clear(&a);
        return tl_err_set(err, TL_ENOMEM, "out of memory");
    }
    for (size_t it = 0; it < iters; it++) {
        memset(acc, 0, f->m * LK * sizeof *acc);
        for (size_t r = 0; r < n; r++) {
            size_t c = (size_t)y[r], k0 = a.start[r], k1 = a.start[r + 1];
            double wr = wt ? wt[r] : 1.0;
            /* the entries of a row run tree by tree: each tree's P(c | x), then its shares */
            for (size_t k = k0; k < k1;) {
                size_t t = a.tree[k], end = k;
                const double *pi = st_phi(&f->tree[t]);
                double P = 0;
                for (; end < k1 && a.tree[end] == t; end++)
                    P += a.P[end] * pi[a.leaf[end] * K + c];
                for (; P > 0 && k < end; k++)
                    acc[t * LK + a.leaf[k] * K + c] += wr * pi[a.leaf[k] * K + c] * a.P[k] / P;
                k = end;
            }
        }
        for (size_t t = 0; t < f->m; t++) {
            double *pi = st_phi(&f->tree[t]);
            for (size_t l = 0; l < L; l++) {
                const double *s = acc + t * LK + l * K;
                double z = 0;
                for (size_t c = 0; c < K; c++)
                    z += s[c];
                for (size_t c = 0; z > 0 && c < K; c++)
                    pi[l * K + c] = s[c] / z;
            }
        }
    }
    free(acc);
    leaf_reach_clear(&a);
    return TL_OK;
}
