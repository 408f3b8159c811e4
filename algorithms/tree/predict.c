/* Prediction: descend to a leaf, or split a row with a missing value across every branch. */
#include "treelab/tl_tree.h"

#include <stdlib.h>
#include <string.h>

/* Adds weight * (the subtree's prediction for row) into out (k values or one). */
static void descend(const tl_tree *t, size_t node, const tl_dataset *d, size_t row,
                    double weight, double *out, double *tmp)
{
    size_t width = t->regression ? 1 : t->k;
    for (;;) {
        if (t->attr[node] < 0) {
            tl_tree_node_predict(t, node, tmp);
            for (size_t c = 0; c < width; c++)
                out[c] += weight * tmp[c];
            return;
        }
        int b = tl_tree_branch(t, node, d, row);
        if (b >= 0) {
            node = t->first_child[node] + (size_t)b;
            continue;
        }
        /* unknown value: every branch, weighted by its share of the training weight */
        size_t first = t->first_child[node], nc = t->n_children[node];
        double total = 0;
        for (size_t c = 0; c < nc; c++)
            total += tl_tree_node_weight(t, first + c);
        if (total <= 0) {
            tl_tree_node_predict(t, node, tmp);
            for (size_t c = 0; c < width; c++)
                out[c] += weight * tmp[c];
            return;
        }
        for (size_t c = 0; c < nc; c++) {
            double share = tl_tree_node_weight(t, first + c) / total;
            if (share > 0)
                descend(t, first + c, d, row, weight * share, out, tmp);
        }
        return;
    }
}

int tl_tree_predict(const tl_tree *t, const tl_dataset *d, const size_t *rows, size_t n,
                    double *out, tl_err *err)
{
    size_t width = t->regression ? 1 : t->k;
    double tmp[256];
    double *buf = width <= 256 ? tmp : malloc(width * sizeof *buf);
    if (!buf)
        return tl_err_set(err, TL_ENOMEM, "out of memory predicting with a tree");
    for (size_t i = 0; i < n; i++) {
        double *o = out + i * width;
        memset(o, 0, width * sizeof *o);
        descend(t, 0, d, rows[i], 1.0, o, buf);
    }
    if (buf != tmp)
        free(buf);
    return TL_OK;
}
