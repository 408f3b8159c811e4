/* Reduced-error pruning (Quinlan 1987): bottom-up, a subtree becomes a leaf when that does not
 * lower the accuracy on the validation rows reaching it. */
#include <stdlib.h>

#include "treelab/tl_tree.h"

/* Validation weight the subtree at node gets right once pruned; prunes on the way up. */
static double prune_node(tl_tree *t, size_t node, const double *reach)
{
    double as_leaf = reach[node * t->k + tl_tree_node_class(t, node)];
    if (t->attr[node] < 0)
        return as_leaf;
    double sub = 0;
    for (size_t c = 0; c < t->n_children[node]; c++)
        sub += prune_node(t, t->first_child[node] + c, reach);
    if (as_leaf >= sub - 1e-9) {
        tl_tree_make_leaf(t, node);
        return as_leaf;
    }
    return sub;
}

static int prune(tl_tree *t, const tl_prune_ctx *c, tl_err *err)
{
    if (t->regression)
        return tl_err_set(err, TL_EINVAL, "reduced-error pruning needs a class target");
    if (!c->valid_rows && c->n_valid)
        return tl_err_set(err, TL_EINVAL, "reduced-error pruning needs validation rows");
    double *reach = malloc(t->n_nodes * t->k * sizeof *reach);
    if (!reach)
        return tl_err_set(err, TL_ENOMEM, "out of memory");
    int rc = tl_tree_route(t, c->d, c->valid_rows, c->n_valid, reach, err);
    if (!rc) {
        prune_node(t, 0, reach);
        rc = tl_tree_compact(t, err);
    }
    free(reach);
    return rc;
}

static const tl_pruner_type reduced_error = {
    .name = "reduced_error",
    .prune = prune,
    .needs_validation = 1,
};
const tl_pruner_type *const tl_pruner_reduced_error = &reduced_error;
