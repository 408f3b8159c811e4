/* What fit, predict, show and path share: loading data with --target, building a model
 * from --algo and --set. */
#include "model_io.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

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
    *seed = 1;
    if (!text)
        return TL_OK;
    char *end;
    errno = 0;
    unsigned long v = strtoul(text, &end, 10);
    /* the same range as an experiment file's seed (a 64-bit unsigned value) */
    if (end == text || *end || errno || text[0] == '-')
        return tl_err_set(err, TL_EINVAL, "--seed: expected a non-negative integer, got '%s'", text);
    *seed = v;
    return TL_OK;
}
