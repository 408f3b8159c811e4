/* Validation pre-pruning (Zhou, Machine Learning, 4.3.1): while growing, a node is split only
 * if the split strictly raises the accuracy on the validation rows that reach it. */
#include <stdlib.h>

#include "treelab/tl_grow.h"

static size_t arg_max(const double *s, size_t k)
{
    size_t best = 0;
    for (size_t c = 1; c < k; c++)
        if (s[c] > s[best])
            best = c;
    return best;
}

static int accept(void *user, const tl_grow_ctx *g, const tl_tree *t, size_t node,
                  const tl_node_rows *rows, const tl_split *s, tl_err *err)
{
    const tl_prune_input *c = ((const tl_prune_hook *)user)->in;
    const tl_dataset *d = tl_grow_data(g);
    size_t k = t->k, nb = s->n_branches;
    if (t->regression)
        return -tl_err_set(err, TL_EINVAL, "validation pre-pruning needs a class target");
    double *bs = malloc((nb * k + nb + k) * sizeof *bs);
    size_t *pred = malloc(nb * sizeof *pred);
    if (!bs || !pred) {
        free(bs);
        free(pred);
        return -tl_err_set(err, TL_ENOMEM, "out of memory");
    }
    double *share = bs + nb * k, *miss = share + nb;
    tl_split_class_table(d, rows, s, k, bs, share, miss);
    size_t here = tl_tree_node_class(t, node);
    for (size_t b = 0; b < nb; b++) {
        double w = 0;
        for (size_t j = 0; j < k; j++)
            w += bs[b * k + j];
        pred[b] = w > 0 ? arg_max(bs + b * k, k) : here; /* an empty branch: the node's class */
    }
    double before = 0, after = 0;
    for (size_t i = 0; i < c->n_valid; i++) {
        size_t v = c->valid_rows[i];
        if (d->y.code[v] < 0)
            continue;
        double r = tl_tree_reach_weight(t, node, d, v) * tl_dataset_weight(d, v);
        if (r <= 0)
            continue;
        size_t y = (size_t)d->y.code[v];
        before += r * (here == y);
        int b = tl_split_branch(s, d, v);
        if (b >= 0)
            after += r * (pred[b] == y);
        else
            for (size_t j = 0; j < nb; j++)
                after += r * share[j] * (pred[j] == y);
    }
    free(bs);
    free(pred);
    return after > before + 1e-9; /* strictly better */
}

static int prune(const void *state, tl_tree *t, const tl_prune_input *in, tl_prune_trace *trace,
                 tl_err *err)
{
    (void)state;
    (void)t;
    (void)trace;
    if (!in->valid_rows || !in->n_valid)
        return tl_err_set(err, TL_EINVAL,
                          "validation pre-pruning needs validation rows, and "
                          "there are none");
    return TL_OK; /* all the work happened while growing */
}

static const tl_pruner_type pre_validation = {
    .name = "pre_validation",
    .summary = "while growing, split only if validation accuracy strictly rises",
    .reference = "Zhou, Machine Learning (2016), sec. 4.3.1",
    .needs = TL_NEEDS_VALIDATION | TL_NEEDS_CLASSES,
    .prune = prune,
    .accept = accept,
};
const tl_pruner_type *const tl_pruner_pre_validation = &pre_validation;
