/* The sigmoid gate (Irsoy et al. 2012; Frosst and Hinton 2017): p = 1 / (1 + exp(-z)). */
#include <math.h>

#include "soft_tree_impl.h"

static void apply(const double *par, double z, double *p, double *dp)
{
    (void)par;
    /* the form that cannot overflow: exp of a non-positive number */
    double e = exp(-fabs(z)), q = z >= 0 ? 1 / (1 + e) : e / (1 + e);
    *p = q;
    *dp = q * (1 - q);
}

static double log_p(const double *par, double z)
{
    (void)par;
    return z >= 0 ? -log1p(exp(-z)) : z - log1p(exp(z));
}

const st_gate_type st_gate_sigmoid = {
    .name = "sigmoid",
    .summary = "logistic gate, never exactly 0 or 1: every row visits every node",
    .reference = "Irsoy, Yildiz and Alpaydin 2012; Frosst and Hinton 2017",
    .apply = apply,
    .log_p = log_p,
};
