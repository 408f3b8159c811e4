/* What the commands share: loading data with the data options, building a model from
 * --algo and --set. */
#include "model_io.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* "a,b,c" into a NULL-terminated array of names (one allocation; free it). Blanks around a
 * name are cut; an empty name is an error naming the option. */
static char **split_list(const char *opt, const char *text, size_t *n, tl_err *err)
{
    *n = 0;
    if (!text)
        return NULL;
    size_t len = strlen(text), parts = 1;
    for (const char *p = text; *p; p++)
        parts += *p == ',';
    char **v = malloc((parts + 1) * sizeof *v + len + 1);
    if (!v) {
        tl_err_set(err, TL_ENOMEM, "out of memory");
        return NULL;
    }
    char *buf = (char *)(v + parts + 1);
    memcpy(buf, text, len + 1);
    for (char *tok = buf;;) {
        char *comma = strchr(tok, ',');
        if (comma)
            *comma = '\0';
        while (*tok == ' ')
            tok++;
        for (char *e = tok + strlen(tok); e > tok && e[-1] == ' ';)
            *--e = '\0';
        if (!*tok) {
            free(v);
            tl_err_set(err, TL_EINVAL,
                       "%s: expected column names separated by commas, got "
                       "'%s'",
                       opt, text);
            return NULL;
        }
        v[(*n)++] = tok;
        if (!comma)
            break;
        tok = comma + 1;
    }
    v[*n] = NULL;
    return v;
}

tl_dataset *tl_cli_load(const char *path, const tl_cli_data *dd, const char *test, unsigned flags,
                        tl_err *err)
{
    static const tl_cli_data none = {NULL, NULL, NULL, NULL};
    dd = dd ? dd : &none;
    tl_data_opts o = {0};
    char **ig = NULL, **at = NULL, **nom = NULL;
    tl_dataset *d = NULL;
    o.target = dd->target;
    o.test_file = test;
    o.flags = flags;
    if ((dd->ignore && !(ig = split_list("--ignore", dd->ignore, &o.n_ignore, err))) ||
        (dd->attributes &&
         !(at = split_list("--attributes", dd->attributes, &o.n_attributes, err))) ||
        (dd->nominal && !(nom = split_list("--nominal", dd->nominal, &o.n_nominal, err))))
        goto done;
    o.ignore = (const char *const *)ig;
    o.attributes = (const char *const *)at;
    o.nominal = (const char *const *)nom;
    d = tl_dataset_load_with(path, &o, err);
done:
    free(ig);
    free(at);
    free(nom);
    return d;
}

tl_model *tl_cli_fit(const char *algo, const tl_params *set, const tl_dataset *d,
                     unsigned long seed, tl_err *err)
{
    return tl_cli_fit_rows(algo, set, d, NULL, 0, seed, 1, err);
}

tl_model *tl_cli_fit_rows(const char *algo, const tl_params *set, const tl_dataset *d,
                          const size_t *rows, size_t n, unsigned long seed, size_t jobs,
                          tl_err *err)
{
    if (!algo) {
        tl_err_set(err, TL_EINVAL, "--algo NAME is required");
        return NULL;
    }
    tl_model *m = tl_model_new(algo, set, err);
    if (!m)
        return NULL;
    tl_fit_ctx ctx = {seed, NULL, 0, jobs};
    if (tl_model_fit(m, d, rows, n, &ctx, err)) {
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
        return tl_err_set(err, TL_EINVAL, "--seed: expected a non-negative integer, got '%s'",
                          text);
    *seed = v;
    return TL_OK;
}
