/* NODE's entmoid (Popov et al. 2020): the first of the two-class entmax 1.5 of (z, 0), exactly
 * 0 or 1 for |z| >= 2. */
#include <math.h>

#include "soft_tree_impl.h"

/* For |z| < 2 the entmax threshold is tau = (|z| + sqrt(8 - z^2)) / 2, and the lesser
 * class gets (tau - |z|)^2 / 4. dp/dz = sqrt(p (1 - p)) / (sqrt p + sqrt(1 - p)), entmax
 * 1.5's Jacobian restricted to two classes. */
static void apply(const double *par, double z, double *p, double *dp)
{
    (void)par;
    double x = fabs(z), low = 0;
    if (x < 2) {
        double d = (sqrt(8 - x * x) - x) / 2;
        low = 0.25 * d * d;
    }
    double q = z >= 0 ? 1 - low : low, a = sqrt(q), b = sqrt(1 - q);
    *p = q;
    *dp = a * b / (a + b);
}

const st_gate_type st_gate_entmoid = {
    .name = "entmoid",
    .summary = "two-class entmax 1.5, exactly 0 or 1 for |z| >= 2: passes skip the subtrees "
               "a row cannot reach",
    .reference = "Popov, Morozov and Babenko 2020 (NODE); Peters, Niculae and Martins 2019",
    .apply = apply,
};
