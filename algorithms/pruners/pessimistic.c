/* Pessimistic error pruning (Quinlan, "Simplifying decision trees", Int. J. Man-Machine
 * Studies 27, 1987): on the training rows alone, each leaf's errors get a continuity
 * correction of 1/2; top-down, a subtree becomes a leaf when the corrected errors of the
 * node as a leaf, e(t) + 1/2, are within one standard error of the subtree's, e'(T) =
 * sum of its leaves' errors + L/2, SE = sqrt(e'(T) (n - e'(T)) / n). Distinct from C4.5's
 * error-based pruning (error_based). */
#include <math.h>
#include <stdlib.h>

#include "treelab/tl_prune.h"

static int prune(const void *state, tl_tree *t, const tl_prune_input *in, tl_prune_trace *trace,
                 tl_err *err)
{
    (void)state;
    (void)in;
    size_t nn = t->n_nodes;
    double *sub_err = malloc(nn * sizeof *sub_err), *sub_leaves = malloc(nn * sizeof *sub_leaves);
    unsigned char *gone = calloc(nn, 1);
    if (!sub_err || !sub_leaves || !gone) {
        free(sub_err);
        free(sub_leaves);
        free(gone);
        return tl_err_set(err, TL_ENOMEM, "out of memory");
    }
    double before = (double)tl_tree_leaves(t, 0);
    /* children come after their parent: from the last node back sums each subtree */
    for (size_t i = nn; i-- > 0;) {
        sub_err[i] = t->attr[i] < 0 ? tl_tree_node_error(t, i) : 0;
        sub_leaves[i] = t->attr[i] < 0 ? 1 : 0;
        for (size_t c = 0; t->attr[i] >= 0 && c < t->n_children[i]; c++) {
            sub_err[i] += sub_err[t->first_child[i] + c];
            sub_leaves[i] += sub_leaves[t->first_child[i] + c];
        }
    }
    /* and from the first forward is top-down: a pruned node hides its descendants */
    for (size_t i = 0; i < nn; i++) {
        if (t->parent[i] != SIZE_MAX && gone[t->parent[i]]) {
            gone[i] = 1;
            continue;
        }
        if (t->attr[i] < 0)
            continue;
        double n = tl_tree_node_weight(t, i);
        double leaf = tl_tree_node_error(t, i) + 0.5;
        double sub = sub_err[i] + sub_leaves[i] / 2;
        double se = n > 0 && sub < n ? sqrt(sub * (n - sub) / n) : 0;
        if (leaf <= sub + se) {
            tl_tree_make_leaf(t, i);
            gone[i] = 1;
        }
    }
    free(sub_err);
    free(sub_leaves);
    free(gone);
    int rc = tl_tree_compact(t, err);
    return rc ? rc : tl_prune_trace_two(trace, "step", 1, before, t, err);
}

static const tl_pruner_type pessimistic = {
    .name = "pessimistic",
    .summary = "top-down, prune where the leaf's errors + 1/2 are within one SE of the "
               "subtree's corrected errors (PEP)",
    .reference = "Quinlan, Simplifying decision trees, Int. J. Man-Machine Studies 27 (1987)",
    .needs = TL_NEEDS_CLASSES,
    .prune = prune,
};
const tl_pruner_type *const tl_pruner_pessimistic = &pessimistic;
