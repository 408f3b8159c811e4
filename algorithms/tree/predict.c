/* Prediction: descend to a leaf; a row with a missing value goes where the node's rule says
 * (by default across every branch). */
#include "treelab/tl_tree.h"

#include <stdlib.h>
#include <string.h>

/* A branch still to descend: its node and the share of the row sent into it. */
typedef struct pending {
    size_t node;
    double weight;
} pending;

/* The branches still to descend, on the heap once they outgrow the caller's array (a tree
 * may be far deeper than the C stack allows, so no recursion). */
typedef struct pending_stack {
    pending *v, *local;
    size_t n, cap;
} pending_stack;

static int push(pending_stack *s, size_t node, double weight, tl_err *err)
{
    if (s->n == s->cap) {
        pending *grown = s->v == s->local ? malloc(2 * s->cap * sizeof *grown)
                                          : realloc(s->v, 2 * s->cap * sizeof *grown);
        if (!grown)
            return tl_err_set(err, TL_ENOMEM, "out of memory predicting with a tree");
        if (s->v == s->local)
            memcpy(grown, s->local, s->cap * sizeof *grown);
        s->v = grown;
        s->cap *= 2;
    }
    s->v[s->n++] = (pending){node, weight};
    return TL_OK;
}

/* Adds weight * (the tree's prediction for row) into out (k values or one): every branch is
 * taken in order, depth first, so the sums are the same as a recursive descent's. */
static int descend(const tl_tree *t, const tl_dataset *d, size_t row, const tl_smoothing *sm,
                   double *out, double *tmp, pending_stack *s, tl_err *err)
{
    size_t width = t->regression ? 1 : t->k;
    s->n = 0;
    int rc = push(s, 0, 1.0, err);
    while (!rc && s->n) {
        pending p = s->v[--s->n];
        size_t node = p.node;
        for (;;) {
            if (t->attr[node] < 0) {
                tl_tree_node_proba(t, node, sm, tmp);
                for (size_t c = 0; c < width; c++)
                    out[c] += p.weight * tmp[c];
                break;
            }
            int b = tl_tree_route_row(t, node, d, row);
            if (b >= 0) {
                node = t->first_child[node] + (size_t)b;
                continue;
            }
            /* unknown value: every branch, weighted by its share of the training weight, or
             * (TL_UNKNOWN_STOP) the node's own prediction */
            size_t first = t->first_child[node], nc = t->n_children[node];
            double total = 0;
            for (size_t c = 0; c < nc && b == TL_UNKNOWN_SHARE; c++)
                total += tl_tree_node_weight(t, first + c);
            if (total <= 0) {
                tl_tree_node_proba(t, node, sm, tmp);
                for (size_t c = 0; c < width; c++)
                    out[c] += p.weight * tmp[c];
                break;
            }
            /* last branch first onto the stack, so the first is descended first */
            for (size_t c = nc; c-- > 0 && !rc;) {
                double share = tl_tree_node_weight(t, first + c) / total;
                if (share > 0)
                    rc = push(s, first + c, p.weight * share, err);
            }
            break;
        }
    }
    return rc;
}

int tl_tree_predict(const tl_tree *t, const tl_dataset *d, const size_t *rows, size_t n,
                    double *out, tl_err *err)
{
    return tl_tree_predict_smoothed(t, d, rows, n, NULL, out, err);
}

int tl_tree_predict_smoothed(const tl_tree *t, const tl_dataset *d, const size_t *rows, size_t n,
                             const tl_smoothing *sm, double *out, tl_err *err)
{
    size_t width = t->regression ? 1 : t->k;
    double tmp[256];
    pending local[64];
    pending_stack s = {local, local, 0, sizeof local / sizeof *local};
    double *buf = width <= 256 ? tmp : malloc(width * sizeof *buf);
    int rc = buf ? TL_OK : tl_err_set(err, TL_ENOMEM, "out of memory predicting with a tree");
    for (size_t i = 0; i < n && !rc; i++) {
        double *o = out + i * width;
        memset(o, 0, width * sizeof *o);
        rc = descend(t, d, rows[i], sm, o, buf, &s, err);
    }
    if (buf != tmp)
        free(buf);
    if (s.v != local)
        free(s.v);
    return rc;
}
