/* TEL's smooth-step gate (Hazimeh et al. 2020): a cubic inside the band |z| < gamma / 2,
 * exactly 0 or 1 outside it, so a trained tree routes most rows down one path. */
#include <math.h>

#include "soft_tree_impl.h"

static const tl_param_spec params[] = {
    {"gamma", TL_PARAM_DOUBLE, "1", 1e-6, 1e6, NULL,
     "width of the band of logits routed softly; outside it a row goes one way only"},
    {NULL, 0, NULL, 0, 0, NULL, NULL},
};

static void init(const tl_params *p, double *par)
{
    tl_param_reader rd = tl_params_reader(params, p, NULL);
    par[0] = tl_params_double(&rd, "gamma");
    par[1] = 1 / par[0]; /* a product per split, not a division */
}

/* s(z) = -2 z^3 / gamma^3 + 3 z / (2 gamma) + 1/2 for |z| < gamma / 2. */
static void apply(const double *par, double z, double *p, double *dp)
{
    double g = par[0];
    if (z <= -g / 2 || z >= g / 2) {
        *p = z > 0 ? 1 : 0;
        *dp = 0;
        return;
    }
    double u = z * par[1];
    *p = -2 * u * u * u + 1.5 * u + 0.5;
    *dp = (1.5 - 6 * u * u) * par[1];
}

const st_gate_type st_gate_smooth_step = {
    .name = "smooth_step",
    .summary = "cubic smooth step, exactly 0 or 1 outside a band: passes skip the subtrees "
               "a row cannot reach",
    .reference = "Hazimeh, Ponomareva, Mol, Tan and Mazumder 2020 (TEL)",
    .params = params,
    .init = init,
    .apply = apply,
};
