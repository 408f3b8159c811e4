/* The sparse shape: a full tree whose split weights carry an L1 penalty, applied by a proximal
 * step after each optimiser step, so a split reads few attributes (exact zeros); `show` lists
 * the ones each split reads. */
#include <math.h>

#include "soft_tree_impl.h"

static const tl_param_spec params[] = {
    {"l1", TL_PARAM_DOUBLE, "0.01", 0, 1e6, NULL,
     "L1 penalty l1 * ||W||_1 on the split weights; after each step of size lr, every weight "
     "moves lr * l1 towards 0 and stops there"},
    {NULL, 0, NULL, 0, 0, NULL, NULL},
};

static void init(const tl_params *p, double *par)
{
    tl_param_reader rd = tl_params_reader(params, p, NULL);
    par[0] = tl_params_double(&rd, "l1");
}

/* The subgradient at 0 is taken as 0 (autograd's sign(0)). */
static double penalty(const double *par, const double *W, size_t n, double *gW)
{
    double l1 = par[0], s = 0;
    for (size_t k = 0; l1 > 0 && k < n; k++) {
        s += l1 * fabs(W[k]);
        if (gW)
            gW[k] += W[k] > 0 ? l1 : W[k] < 0 ? -l1 : 0;
    }
    return s;
}

/* Soft thresholding: the proximal operator of step * l1 * |w|. */
static void prox(const double *par, double step, double *W, size_t n)
{
    double t = step * par[0];
    for (size_t k = 0; t > 0 && k < n; k++)
        W[k] = W[k] > t ? W[k] - t : W[k] < -t ? W[k] + t : 0;
}

/* The full tree's fit: the penalty and the proximal step are the training's. */
static int fit(st_net *net, const st_train_opts *o, size_t depth, const st_data *train,
               const st_data *valid, gsl_rng *rng, st_trace *trace, tl_err *err)
{
    return st_shape_full.fit(net, o, depth, train, valid, rng, trace, err);
}

const st_shape_type st_shape_sparse = {
    .name = "sparse",
    .summary = "full tree whose splits read few attributes: L1 on the split weights with a "
               "proximal step (exact zeros); show lists each split's attributes",
    .reference = "Tibshirani 1996 (lasso); proximal gradient, Parikh and Boyd 2014",
    .params = params,
    .fit = fit,
    .init = init,
    .penalty = penalty,
    .prox = prox,
};
