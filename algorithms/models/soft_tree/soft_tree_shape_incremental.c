/* Irsoy's incremental growth as a shape: from one leaf, split by split (soft_tree_grow.c). */
#include "soft_tree_impl.h"

static int fit(st_net *net, const st_train_opts *o, size_t depth, const st_data *train,
               const st_data *valid, gsl_rng *rng, st_trace *trace, tl_err *err)
{
    return st_grow_incremental(net, o, depth, train, valid, rng, trace, err);
}

const st_shape_type st_shape_incremental = {
    .name = "incremental",
    .summary = "grown split by split up to the depth while the validation loss falls "
               "(older name: grow = incremental)",
    .reference = "Irsoy, Yildiz and Alpaydin 2012",
    .grows = 1,
    .fit = fit,
};
