/* Where rows go in a tree: the share of a row reaching a node, and the class weights of a
 * set of rows at every node (the validation pruners' bookkeeping). */
#include "treelab/tl_tree.h"

#include <stdlib.h>
#include <string.h>

/* Share of a row sent from parent into child (C4.5's split of an unknown value). */
static double branch_share(const tl_tree *t, size_t parent, size_t child, const tl_dataset *d,
                           size_t row)
{
    int b = tl_tree_branch(t, parent, d, row);
    if (b >= 0)
        return t->first_child[parent] + (size_t)b == child;
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

static void route(const tl_tree *t, size_t node, const tl_dataset *d, size_t row, double w,
                  double *out)
{
    out[node * t->k + (size_t)d->y.code[row]] += w;
    if (t->attr[node] < 0)
        return;
    for (size_t c = 0; c < t->n_children[node]; c++) {
        size_t ch = t->first_child[node] + c;
        double s = branch_share(t, node, ch, d, row);
        if (s > 0)
            route(t, ch, d, row, w * s, out);
    }
}

int tl_tree_route(const tl_tree *t, const tl_dataset *d, const size_t *rows, size_t n,
                  double *out, tl_err *err)
{
    if (t->regression || !tl_dataset_is_classification(d))
        return tl_err_set(err, TL_EINVAL, "routing class weights needs a class target");
    memset(out, 0, t->n_nodes * t->k * sizeof *out);
    for (size_t i = 0; i < n; i++)
        if (d->y.code[rows[i]] >= 0 && (size_t)d->y.code[rows[i]] < t->k)
            route(t, 0, d, rows[i], tl_dataset_weight(d, rows[i]), out);
    return TL_OK;
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
