/* What the commands share: loading data with the data options, building a model from
 * --algo and --set. */
#include "model_io.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "treelab/tl_text.h"
#include "treelab/tl_utf8.h"

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

/* The first name of a that holds a control character, into *at (its position); NULL when none. */
static const char *ctrl_name(const tl_attr_info *a, long *at)
{
    if ((*at = tl_text_ctrl(a->name)) >= 0)
        return a->name;
    for (size_t l = 0; a->kind == TL_ATTR_NOMINAL && l < a->n_levels; l++)
        if ((*at = tl_text_ctrl(a->levels[l])) >= 0)
            return a->levels[l];
    return NULL;
}

/* The first name of a that is not UTF-8 (a model file's \x escapes), or NULL. */
static const char *non_utf8_name(const tl_attr_info *a)
{
    if (tl_utf8_invalid(a->name, strlen(a->name)) >= 0)
        return a->name;
    for (size_t l = 0; a->kind == TL_ATTR_NOMINAL && l < a->n_levels; l++)
        if (tl_utf8_invalid(a->levels[l], strlen(a->levels[l])) >= 0)
            return a->levels[l];
    return NULL;
}

/* s with its control characters written as \n, \x1b, ... (cut at about 60 bytes). */
static const char *shown(const char *s, char *buf, size_t size)
{
    size_t k = 0;
    for (; *s && k + 8 < size && k < 60; s++) {
        char name[5];
        unsigned char ch = (unsigned char)*s;
        k +=
            (size_t)snprintf(buf + k, size - k, "%s",
                             tl_text_ctrl(s) == 0 ? tl_text_ctrl_name(ch, name) : (char[2]){*s, 0});
    }
    snprintf(buf + k, size - k, "%s", *s ? "..." : "");
    return buf;
}

int tl_cli_check_names(const tl_schema *s, const char *path, tl_err *err)
{
    for (size_t j = 0; j <= s->n_attrs; j++) {
        const tl_attr_info *a = j < s->n_attrs ? &s->attrs[j] : &s->target;
        long at;
        if (non_utf8_name(a))
            return tl_err_set(err, TL_EINVAL,
                              "%s: a name of %s '%.200s' is not UTF-8 (a \\x escape?); names "
                              "must be UTF-8 text",
                              path, j < s->n_attrs ? "attribute" : "target", a->name);
        const char *bad = ctrl_name(a, &at);
        char name[5], what[300], esc[80];
        if (!bad)
            continue;
        if (bad == a->name)
            snprintf(what, sizeof what, "the %s name", j < s->n_attrs ? "attribute" : "target");
        else if (j == s->n_attrs)
            snprintf(what, sizeof what, "class");
        else
            snprintf(what, sizeof what, "attribute %.200s's value", a->name);
        return tl_err_set(err, TL_EINVAL,
                          "%s: %s '%s' holds control character %s, which would act on "
                          "the terminal; names may not hold one",
                          path, what, shown(bad, esc, sizeof esc),
                          tl_text_ctrl_name((unsigned char)bad[at], name));
    }
    return TL_OK;
}

tl_dataset *tl_cli_load(const char *path, const tl_cli_data *dd, const char *test, unsigned flags,
                        tl_err *err)
{
    static const tl_cli_data none = {0};
    dd = dd ? dd : &none;
    tl_data_opts o = {0};
    char **ig = NULL, **at = NULL, **nom = NULL;
    tl_dataset *d = NULL;
    o.target = dd->target;
    o.test_file = test;
    o.flags = flags;
    if (dd->encoding && !strcmp(dd->encoding, "latin1"))
        o.flags |= TL_LOAD_LATIN1;
    else if (dd->encoding && strcmp(dd->encoding, "utf8"))
        return tl_err_set(err, TL_EINVAL, "--encoding: '%s' is not one of utf8, latin1",
                          dd->encoding),
               NULL;
    o.weight_column = dd->weight;
    o.types = dd->types;
    if (dd->decimal && (strlen(dd->decimal) != 1 || !strchr(".,", dd->decimal[0]))) {
        tl_err_set(err, TL_EINVAL, "--decimal: expected '.' or ',', got '%s'", dd->decimal);
        return NULL;
    }
    o.decimal = dd->decimal ? dd->decimal[0] : 0;
    if ((dd->ignore && !(ig = split_list("--ignore", dd->ignore, &o.n_ignore, err))) ||
        (dd->attributes &&
         !(at = split_list("--attributes", dd->attributes, &o.n_attributes, err))) ||
        (dd->nominal && !(nom = split_list("--nominal", dd->nominal, &o.n_nominal, err))))
        goto done;
    o.ignore = (const char *const *)ig;
    o.attributes = (const char *const *)at;
    o.nominal = (const char *const *)nom;
    d = tl_dataset_load_with(path, &o, err);
    if (d && tl_cli_check_names(&d->schema, path, err)) {
        tl_dataset_free(d);
        d = NULL;
    }
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
    tl_fit_ctx ctx = {.seed = seed, .jobs = jobs};
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
