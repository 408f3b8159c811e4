/* The full binary tree of the given depth, every split with its own hyperplane. */
#include "soft_tree_impl.h"

static int fit(st_net *net, const st_train_opts *o, size_t depth, const st_data *train,
               const st_data *valid, gsl_rng *rng, st_trace *trace, tl_err *err)
{
    int rc = st_tree_full(&net->tree, depth, err);
    if (rc || (rc = st_net_alloc_theta(net, err)))
        return rc;
    st_init_params(net, o->init_scale, rng);
    return st_train(net, o, train, valid, rng, trace, NULL, err);
}

const st_shape_type st_shape_full = {
    .name = "full",
    .summary = "full binary tree of the given depth, a hyperplane per split",
    .reference = "Irsoy, Yildiz and Alpaydin 2012; Frosst and Hinton 2017",
    .fit = fit,
};
