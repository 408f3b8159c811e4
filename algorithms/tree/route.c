/* Where rows go in a tree: the share of a row reaching a node, and the class weights of a
 * set of rows at every node (the validation pruners' bookkeeping). */
#include "treelab/tl_tree.h"

#include <stdlib.h>
#include <string.h>

/* Share of a row sent from parent into child (C4.5's split of an unknown value, or the
 * node's rule for one). */
static double branch_share(const tl_tree *t, size_t parent, size_t child, const tl_dataset *d,
                           size_t row)
{
    int b = tl_tree_route_row(t, parent, d, row);
    if (b >= 0)
        return t->first_child[parent] + (size_t)b == child;
    if (b == TL_UNKNOWN_STOP)
        return 0;
    double total = 0;
    for (size_t c = 0; c < t->n_children[parent]; c++)
        total += tl_tree_node_weight(t, t->first_child[parent] + c);
    return total > 0 ? tl_tree_node_weight(t, child) / total : 0;
}

double tl_tree_reach_weight(const tl_tree *t, size_t node, const tl_dataset *d, size_t row)
{
    double w = 1;
    for (size_t n = node; t->parent[n] != SIZE_MAX && w > 0; n = t->parent[n])
        w *= branch_share(t, t->parent[n], n, d, row);
    return w;
}

/* A node a row reaches, with the share of the row that reaches it. */
typedef struct reached {
    size_t node;
    double w;
} reached;

/* Adds the row's weight w times its reach into out at every node it reaches, visiting them
 * depth first with an explicit stack (*stack, *cap: grown on the heap as needed; a tree may
 * be far deeper than the C stack allows). */
static int route(const tl_tree *t, const tl_dataset *d, size_t row, double w, double *out,
                 reached **stack, size_t *cap, tl_err *err)
{
    size_t sp = 0;
    (*stack)[sp++] = (reached){0, w};
    while (sp) {
        reached r = (*stack)[--sp];
        out[r.node * t->k + (size_t)d->y.code[row]] += r.w;
        if (t->attr[r.node] < 0)
            continue;
        size_t first = t->first_child[r.node], nc = t->n_children[r.node];
        if (sp + nc > *cap) {
            size_t want = 2 * *cap > sp + nc ? 2 * *cap : sp + nc;
            reached *grown = realloc(*stack, want * sizeof *grown);
            if (!grown)
                return tl_err_set(err, TL_ENOMEM, "out of memory routing rows down a tree");
            *stack = grown;
            *cap = want;
        }
        for (size_t c = nc; c-- > 0;) { /* the first child on top */
            double s = branch_share(t, r.node, first + c, d, row);
            if (s > 0)
                (*stack)[sp++] = (reached){first + c, r.w * s};
        }
    }
    return TL_OK;
}

int tl_tree_route(const tl_tree *t, const tl_dataset *d, const size_t *rows, size_t n, double *out,
                  tl_err *err)
{
    if (t->regression || !tl_dataset_is_classification(d))
        return tl_err_set(err, TL_EINVAL, "routing class weights needs a class target");
    memset(out, 0, t->n_nodes * t->k * sizeof *out);
    size_t cap = 64;
    reached *stack = malloc(cap * sizeof *stack);
    if (!stack)
        return tl_err_set(err, TL_ENOMEM, "out of memory routing rows down a tree");
    int rc = TL_OK;
    for (size_t i = 0; i < n && !rc; i++)
        if (d->y.code[rows[i]] >= 0 && (size_t)d->y.code[rows[i]] < t->k)
            rc = route(t, d, rows[i], tl_dataset_weight(d, rows[i]), out, &stack, &cap, err);
    free(stack);
    return rc;
}

size_t tl_tree_node_class(const tl_tree *t, size_t node)
{
    double buf[256], *p = t->k <= 256 ? buf : malloc(t->k * sizeof *p);
    size_t best = 0;
    if (!p)
        return 0;
    tl_tree_node_predict(t, node, p);
    for (size_t c = 1; c < t->k; c++)
        if (p[c] > p[best])
            best = c;
    if (p != buf)
        free(p);
    return best;
}
