/* NODE's oblivious tree (Popov et al. 2020): every split of a level shares one hyperplane, so
 * a tree of depth d has d of them and its 2^d leaves index the d sides a row takes. */
#include "soft_tree_impl.h"

/* The levels with splits: the depth, for a full tree. */
static size_t n_rows(const st_tree *t)
{
    return st_tree_max_depth(t);
}

static size_t row(const st_tree *t, size_t s)
{
    return (size_t)t->slot_depth[s];
}

/* The full tree's fit: its parameters are sized by n_rows. */
static int fit(st_net *net, const st_train_opts *o, size_t depth, const st_data *train,
               const st_data *valid, gsl_rng *rng, st_trace *trace, tl_err *err)
{
    return st_shape_full.fit(net, o, depth, train, valid, rng, trace, err);
}

const st_shape_type st_shape_oblivious = {
    .name = "oblivious",
    .summary = "full tree whose splits share one hyperplane per level (depth d: d of them)",
    .reference = "Popov, Morozov and Babenko 2020 (NODE)",
    .n_rows = n_rows,
    .row = row,
    .fit = fit,
};
