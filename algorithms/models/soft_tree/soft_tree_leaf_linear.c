/* The linear leaf: each leaf's class logits (or value) are a linear model of the row's encoded
 * inputs, phi_l + A_l x, so a shallow tree fits a piecewise linear model. */
#include "soft_tree_impl.h"

static const tl_param_spec params[] = {
    {"l2", TL_PARAM_DOUBLE, "0", 0, 1e6, NULL,
     "L2 penalty 0.5 * l2 * ||A||^2 on the leaves' input coefficients"},
    {NULL, 0, NULL, 0, 0, NULL, NULL},
};

static void init(const tl_params *p, double *par)
{
    tl_param_reader rd = tl_params_reader(params, p, NULL);
    par[0] = tl_params_double(&rd, "l2");
}

/* A_l: one row of D coefficients per output. */
static size_t n_extra(size_t n_in, size_t n_out)
{
    return n_in * n_out;
}

static void add(const double *A, const double *x, size_t D, size_t K, double *out)
{
    for (size_t c = 0; c < K; c++) {
        const double *a = A + c * D;
        double s = 0;
        for (size_t j = 0; j < D; j++)
            s += a[j] * x[j];
        out[c] += s;
    }
}

static void grad(const double *g, const double *x, size_t D, size_t K, double *gA)
{
    for (size_t c = 0; c < K; c++)
        for (size_t j = 0; g[c] != 0 && j < D; j++)
            gA[c * D + j] += g[c] * x[j];
}

static double penalty(const double *par, const double *A, size_t n, double *gA)
{
    double l2 = par[0], s = 0;
    for (size_t k = 0; l2 > 0 && k < n; k++) {
        s += 0.5 * l2 * A[k] * A[k];
        if (gA)
            gA[k] += l2 * A[k];
    }
    return s;
}

const st_leaf_type st_leaf_linear = {
    .name = "linear",
    .summary = "each leaf's class logits (or value) a linear model phi + A x of the row's "
               "encoded inputs, A starting at 0",
    .reference = "Jordan and Jacobs 1994 (hierarchical mixtures of experts: linear experts "
                 "under soft gates)",
    .params = params,
    .init = init,
    .n_extra = n_extra,
    .add = add,
    .grad = grad,
    .penalty = penalty,
};
