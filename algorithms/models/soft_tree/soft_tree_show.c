/* Soft tree display: each split's hyperplane in the data's original units, leaf outputs. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "soft_tree_impl.h"

/* Terms shown per split; the rest are counted. */
#define ST_SHOW_TERMS 4

/* Name of encoded column k ("petalwidth" or "outlook=sunny"), quotes escaped for dot. */
static void put_name(FILE *f, const soft_tree *m, const tl_schema *sc, size_t k, int dot)
{
    const tl_attr_info *a = &sc->attrs[m->enc.attr[k]];
    const char *parts[2] = {a->name, m->enc.level[k] >= 0 ? a->levels[m->enc.level[k]] : NULL};
    for (int p = 0; p < 2 && parts[p]; p++) {
        if (p)
            fputc('=', f);
        for (const char *c = parts[p]; *c; c++) {
            if (dot && (*c == '"' || *c == '\\'))
                fputc('\\', f);
            fputc(*c, f);
        }
    }
}

/* The indices of the n largest |w_k| into top, largest first (lowest index on ties). */
static size_t top_terms(const double *w, size_t D, size_t *top, size_t n)
{
    size_t m = 0;
    for (size_t k = 0; k < D; k++) {
        size_t at = m < n ? m++ : n;
        while (at > 0 && fabs(w[k]) > fabs(w[top[at - 1]])) {
            if (at < n)
                top[at] = top[at - 1];
            at--;
        }
        if (at < n)
            top[at] = k;
    }
    return m;
}

/* z = beta (w.x_std + b) rewritten on raw values: coefficient beta w_k / sd_k and intercept
 * beta (b - sum_k w_k mean_k / sd_k). */
static int put_split(FILE *f, const soft_tree *m, const tl_schema *sc, int slot, int dot,
                     tl_err *err)
{
    const st_net *net = &m->net;
    size_t D = net->n_in;
    size_t row = st_split_row(net, (size_t)slot);
    const double *w = st_W(net) + row * D;
    double c = st_b(net)[row];
    for (size_t k = 0; k < D; k++)
        c -= w[k] * m->enc.mean[k] / m->enc.sd[k];
    /* Terms ordered by standardised weight: those move the split most. */
    size_t order[ST_SHOW_TERMS], shown = top_terms(w, D, order, ST_SHOW_TERMS), rest = D;
    if (net->shape && net->shape->penalty) { /* exact zeros: neither shown nor counted */
        rest = 0;
        for (size_t k = 0; k < D; k++)
            rest += w[k] != 0;
        shown = shown < rest ? shown : rest;
    }
    fputs("z =", f);
    for (size_t t = 0; t < shown; t++) {
        size_t k = order[t];
        double a = net->beta * w[k] / m->enc.sd[k];
        if (t)
            fprintf(f, " %s %.4g*", a < 0 ? "-" : "+", fabs(a));
        else
            fprintf(f, " %.4g*", a);
        put_name(f, m, sc, k, dot);
    }
    c *= net->beta;
    if (shown)
        fprintf(f, " %s %.4g", c < 0 ? "-" : "+", fabs(c));
    else /* a sparse split that reads no input: a constant */
        fprintf(f, " %.4g", c);
    if (rest > shown)
        fprintf(f, "%s(%zu smaller terms)", dot ? "\\n" : "  ", rest - shown);
    return TL_OK;
}

/* The inputs split slot reads (nonzero weights): a shape with a penalty on the weights sets
 * the others exactly to 0. */
static void put_reads(FILE *f, const soft_tree *m, const tl_schema *sc, int slot)
{
    const st_net *net = &m->net;
    const double *w = st_W(net) + st_split_row(net, (size_t)slot) * net->n_in;
    size_t n = 0;
    for (size_t k = 0; k < net->n_in; k++)
        n += w[k] != 0;
    fprintf(f, "; reads %zu of %zu inputs", n, net->n_in);
    for (size_t k = 0, i = 0; k < net->n_in; k++)
        if (w[k] != 0) {
            fputs(i++ ? ", " : ": ", f);
            put_name(f, m, sc, k, 0);
        }
}

/* A leaf: the classes by falling probability (those above 1%, at most 5), or the value. */
static void put_leaf(FILE *f, const soft_tree *m, const tl_schema *sc, int slot, int dot)
{
    const st_net *net = &m->net;
    size_t K = net->n_out;
    const double *phi = st_phi(net) + (size_t)slot * K;
    if (net->regression) {
        fprintf(f, "value %.6g", m->y_mean + m->y_sd * phi[0]);
        return;
    }
    double mx = phi[0], s = 0;
    for (size_t c = 1; c < K; c++)
        mx = phi[c] > mx ? phi[c] : mx;
    for (size_t c = 0; c < K; c++)
        s += exp(phi[c] - mx);
    unsigned char used[256] = {0};
    for (size_t shown = 0; shown < 5 && shown < K; shown++) {
        size_t best = K;
        for (size_t c = 0; c < K; c++)
            if (!(c < 256 && used[c]) && (best == K || phi[c] > phi[best]))
                best = c;
        double q = exp(phi[best] - mx) / s;
        if (shown && q < 0.01)
            break;
        if (best < 256)
            used[best] = 1;
        fprintf(f, "%s%s %.3f", shown ? (dot ? "\\n" : ", ") : "", sc->target.levels[best], q);
    }
}

static const char *gate_name(const st_net *net)
{
    return net->gate ? net->gate->name : "sigmoid";
}

/* A node still to print and its depth. */
typedef struct st_pending {
    size_t node, level;
} st_pending;

/* Every node depth first, a split before its left then its right subtree, indented two
 * spaces per level. An explicit stack, not recursion: a tree read from a model file may be
 * far deeper than the C stack allows. */
static int show_text(const soft_tree *m, const tl_schema *sc, FILE *f, tl_err *err)
{
    const st_tree *t = &m->net.tree;
    size_t cap = 64, sp = 0, n_spaces = 0;
    st_pending *stack = malloc(cap * sizeof *stack);
    char *spaces = NULL; /* the deepest indentation so far, written in one piece */
    if (!stack)
        return tl_err_set(err, TL_ENOMEM, "out of memory showing a soft tree");
    stack[sp++] = (st_pending){0, 0};
    int rc = TL_OK;
    while (!rc && sp) {
        st_pending p = stack[--sp];
        size_t node = p.node;
        if (2 * p.level > n_spaces) {
            size_t want = 2 * p.level > 2 * n_spaces ? 2 * p.level : 2 * n_spaces;
            char *grown = realloc(spaces, want);
            if (!grown) {
                rc = tl_err_set(err, TL_ENOMEM, "out of memory showing a soft tree");
                break;
            }
            memset(grown + n_spaces, ' ', want - n_spaces);
            spaces = grown;
            n_spaces = want;
        }
        if (p.level)
            fwrite(spaces, 1, 2 * p.level, f);
        if (t->left[node] < 0) {
            fprintf(f, "leaf %d: ", t->slot[node]);
            put_leaf(f, m, sc, t->slot[node], 0);
            fputc('\n', f);
            continue;
        }
        fprintf(f, "split %d: right with p = %s(z), ", t->slot[node], gate_name(&m->net));
        rc = put_split(f, m, sc, t->slot[node], 0, err);
        if (!rc && m->net.shape && m->net.shape->penalty)
            put_reads(f, m, sc, t->slot[node]);
        fputc('\n', f);
        if (rc)
            break;
        if (sp + 2 > cap) {
            st_pending *grown = realloc(stack, 2 * cap * sizeof *grown);
            if (!grown) {
                rc = tl_err_set(err, TL_ENOMEM, "out of memory showing a soft tree");
                break;
            }
            stack = grown;
            cap *= 2;
        }
        stack[sp++] = (st_pending){(size_t)t->right[node], p.level + 1};
        stack[sp++] = (st_pending){(size_t)t->left[node], p.level + 1};
    }
    free(stack);
    free(spaces);
    return rc;
}

static int show_dot(const soft_tree *m, const tl_schema *sc, FILE *f, tl_err *err)
{
    const st_tree *t = &m->net.tree;
    fprintf(f, "digraph soft_tree {\n  node [shape=box, fontname=\"Helvetica\"];\n");
    for (size_t i = 0; i < t->n_nodes; i++) {
        int leaf = t->left[i] < 0;
        fprintf(f, "  n%zu [%slabel=\"%s %d\\n", i, leaf ? "shape=ellipse, " : "",
                leaf ? "leaf" : "split", t->slot[i]);
        if (leaf)
            put_leaf(f, m, sc, t->slot[i], 1);
        else if (put_split(f, m, sc, t->slot[i], 1, err))
            return err ? err->code : TL_ENOMEM;
        fprintf(f, "\"];\n");
        if (!leaf)
            fprintf(f, "  n%zu -> n%d [label=\"1 - p\"];\n  n%zu -> n%d [label=\"p\"];\n", i,
                    t->left[i], i, t->right[i]);
    }
    fprintf(f, "}\n");
    return TL_OK;
}

int st_show(const void *state, const tl_schema *schema, tl_show_format fmt, FILE *f, tl_err *err)
{
    const soft_tree *m = state;
    const st_tree *t = &m->net.tree;
    if (fmt == TL_SHOW_DOT)
        return show_dot(m, schema, f, err);
    if (fmt != TL_SHOW_TEXT)
        return tl_err_set(err, TL_EUNSUPPORTED, "soft_tree can be shown as text or dot only");
    fprintf(f, "soft tree: depth %zu, %zu splits, %zu leaves, beta %g\n", st_tree_max_depth(t),
            t->n_inner, t->n_leaves, m->net.beta);
    if (!st_net_dense(&m->net)) /* today's trees keep today's text */
        fprintf(f, "gate %s, shape %s (%zu hyperplanes)%s\n", gate_name(&m->net),
                m->net.shape ? m->net.shape->name : "full", m->net.n_split,
                m->net.n_extra ? ", linear leaves (phi + A x: shown at the inputs' training "
                                 "means, where A x = 0)"
                               : "");
    fprintf(f,
            "each split sends a row right with p = %s(z), z in the attributes' original "
            "units; terms ordered by standardised weight\n",
            gate_name(&m->net));
    return show_text(m, schema, f, err);
}
