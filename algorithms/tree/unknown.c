/* Rows with an unknown value at a split: the node's surrogate splits, then its rule. */
#include "treelab/tl_tree.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

int tl_tree_has_unknown_rules(const tl_tree *t)
{
    for (size_t i = 0; i < t->n_nodes; i++)
        if (t->attr[i] >= 0 && (t->unknown[i] != TL_UNKNOWN_SHARE || t->sur_n[i] || t->seen[i]))
            return 1;
    return 0;
}

int tl_surrogate_branch(const tl_surrogate *s, const tl_dataset *d, size_t row)
{
    if (s->kind == TL_SPLIT_NUMERIC) {
        double x = d->cols[s->attr].num[row];
        if (isnan(x))
            return -1;
        /* rpart's comparison: x < threshold */
        return x < s->threshold ? s->below : 1 - s->below;
    }
    int c = d->cols[s->attr].code[row];
    if (c < 0 || c >= TL_SUBSET_MAX_LEVELS || !((s->known_mask >> c) & 1u))
        return -1;
    return ((s->left_mask >> c) & 1u) ? 0 : 1;
}

int tl_tree_route_row(const tl_tree *t, size_t node, const tl_dataset *d, size_t row)
{
    int b = tl_tree_branch(t, node, d, row);
    if (b >= 0)
        return b;
    for (size_t i = 0; i < t->sur_n[node]; i++)
        if ((b = tl_surrogate_branch(&t->sur[t->sur_first[node] + i], d, row)) >= 0)
            return b;
    int rule = t->unknown[node];
    size_t first = t->first_child[node], nc = t->n_children[node];
    if (rule >= 0)
        return (size_t)rule < nc ? rule : TL_UNKNOWN_STOP;
    if (rule != TL_UNKNOWN_HEAVIEST)
        return rule;
    int best = TL_UNKNOWN_STOP;
    double top = -1;
    for (size_t c = 0; c < nc; c++) {
        double w = tl_tree_node_weight(t, first + c);
        if (w > top) {
            top = w;
            best = (int)c;
        } else if (w == top) {
            best = TL_UNKNOWN_STOP; /* rpart: a tie has no majority */
        }
    }
    return best;
}
