/* What fit, predict, show and path share: loading data with --target, building a model
 * from --algo and --set. */
#include "model_io.h"

#include <stdio.h>

tl_dataset *tl_cli_load_data(const char *path, const char *target, tl_err *err)
{
    return tl_dataset_load(path, target, err);
}

tl_model *tl_cli_fit(const char *algo, const tl_params *set, const tl_dataset *d,
                     unsigned long seed, tl_err *err)
{
    if (!algo) {
        tl_err_set(err, TL_EINVAL, "--algo NAME is required");
        return NULL;
    }
    tl_model *m = tl_model_new(algo, set, err);
    if (!m)
        return NULL;
    tl_fit_ctx ctx = {seed, NULL, 0};
    if (tl_model_fit(m, d, NULL, 0, &ctx, err)) {
        tl_model_free(m);
        return NULL;
    }
    return m;
}

int tl_cli_seed(const char *text, unsigned long *seed, tl_err *err)
{
    long v = 1;
    if (text && tl_cli_long("--seed", text, 0, 2147483647L, &v, err))
        return err->code;
    *seed = (unsigned long)v;
    return TL_OK;
}
