/* A model's file: save and load (libconfig text: format, algorithm, parameters, schema,
 * the learner's state), and the checks a loaded schema must pass before any use. */
#include "treelab/tl_model.h"
#include "treelab/tl_version.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TL_MODEL_FORMAT 1

static void put_attr(FILE *f, int indent, const char *group, const tl_attr_info *a)
{
    tl_store_open_group(f, indent, group);
    tl_store_put_string(f, indent + 1, "name", a->name);
    tl_store_put_string(f, indent + 1, "kind", a->kind == TL_ATTR_NOMINAL ? "nominal" : "numeric");
    tl_store_put_strings(f, indent + 1, "levels", (const char *const *)a->levels,
                         a->kind == TL_ATTR_NOMINAL ? a->n_levels : 0);
    tl_store_close_group(f, indent);
}

/* The slot of a SLOT.PARAM key and its length, or 0 for a plain key. */
static size_t slot_len(const char *key)
{
    const char *dot = strchr(key, '.');
    return dot ? (size_t)(dot - key) : 0;
}

/* params as settings; SLOT.PARAM keys nest as SLOT = { name = ...; PARAM = ...; } (as in
 * experiment files: libconfig names hold no dot). */
static void put_params(FILE *f, const tl_params *p)
{
    tl_store_open_group(f, 0, "params");
    for (size_t i = 0; i < p->n; i++) {
        const char *k = p->keys[i];
        size_t n = slot_len(k), own = strlen(k);
        int first = 1; /* the first key naming this slot writes its group */
        for (size_t j = 0; j < i && first; j++) {
            size_t m = slot_len(p->keys[j]) ? slot_len(p->keys[j]) : strlen(p->keys[j]);
            first = !(m == (n ? n : own) && !strncmp(p->keys[j], k, m));
        }
        int grouped = n > 0;
        for (size_t j = 0; j < p->n && !grouped; j++)
            grouped = slot_len(p->keys[j]) == own && !strncmp(p->keys[j], k, own);
        if (!grouped) {
            tl_store_put_string(f, 1, k, p->values[i]);
            continue;
        }
        if (!first)
            continue;
        size_t sl = n ? n : own;
        char slot[128];
        snprintf(slot, sizeof slot, "%.*s", (int)sl, k);
        tl_store_open_group(f, 1, slot);
        for (size_t j = 0; j < p->n; j++) {
            const char *kj = p->keys[j];
            if (strlen(kj) == sl && !strncmp(kj, slot, sl))
                tl_store_put_string(f, 2, "name", p->values[j]);
            else if (slot_len(kj) == sl && !strncmp(kj, slot, sl))
                tl_store_put_string(f, 2, kj + sl + 1, p->values[j]);
        }
        tl_store_close_group(f, 1);
    }
    tl_store_close_group(f, 0);
}

int tl_model_save(const tl_model *m, const char *path, tl_err *err)
{
    if (!m->fitted)
        return tl_err_set(err, TL_EINVAL, "the %s model has not been fitted", m->type->name);
    /* Write beside the target and rename, so a failed save never leaves half a model. */
    char tmp[4096];
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    FILE *f = fopen(tmp, "w");
    if (!f)
        return tl_err_set(err, TL_EIO, "%s: cannot write the model file", path);
    fprintf(f, "# treelab model (libconfig syntax)\n");
    tl_store_put_int(f, 0, "format", TL_MODEL_FORMAT);
    tl_store_put_string(f, 0, "treelab_version", tl_version());
    tl_store_put_string(f, 0, "algorithm", m->type->name);
    put_params(f, &m->params);
    fprintf(f, "schema = {\n  attributes = (\n");
    for (size_t j = 0; j < m->schema.n_attrs; j++) {
        fprintf(f, "    {\n");
        const tl_attr_info *a = &m->schema.attrs[j];
        tl_store_put_string(f, 3, "name", a->name);
        tl_store_put_string(f, 3, "kind", a->kind == TL_ATTR_NOMINAL ? "nominal" : "numeric");
        tl_store_put_strings(f, 3, "levels", (const char *const *)a->levels,
                             a->kind == TL_ATTR_NOMINAL ? a->n_levels : 0);
        fprintf(f, "    }%s\n", j + 1 < m->schema.n_attrs ? "," : "");
    }
    fprintf(f, "  );\n");
    put_attr(f, 1, "target", &m->schema.target);
    tl_store_close_group(f, 0);
    tl_store_open_group(f, 0, "state");
    int rc = m->type->save(m->state, f, 1, err);
    tl_store_close_group(f, 0);
    if (fclose(f) != 0 && !rc)
        rc = tl_err_set(err, TL_EIO, "%s: write failed", path);
    if (!rc && rename(tmp, path) != 0)
        rc = tl_err_set(err, TL_EIO, "%s: cannot replace it with the new model (%s)", path,
                        strerror(errno));
    if (rc)
        remove(tmp);
    return rc;
}

static int dup_into(char **dst, const char *s, tl_err *err)
{
    *dst = malloc(strlen(s) + 1);
    if (!*dst)
        return tl_err_set(err, TL_ENOMEM, "out of memory");
    strcpy(*dst, s);
    return TL_OK;
}

static int load_attr(const tl_store *s, const char *prefix, tl_attr_info *a, tl_err *err)
{
    char p[256];
    const char *name, *kind;
    snprintf(p, sizeof p, "%s.name", prefix);
    if (tl_store_string(s, p, &name, err) || dup_into(&a->name, name, err))
        return TL_EPARSE;
    snprintf(p, sizeof p, "%s.kind", prefix);
    if (tl_store_string(s, p, &kind, err))
        return TL_EPARSE;
    if (strcmp(kind, "nominal") && strcmp(kind, "numeric"))
        return tl_err_set(err, TL_EPARSE,
                          "model file: %s = \"%s\"; expected \"nominal\" or "
                          "\"numeric\"",
                          p, kind);
    a->kind = strcmp(kind, "nominal") == 0 ? TL_ATTR_NOMINAL : TL_ATTR_NUMERIC;
    snprintf(p, sizeof p, "%s.levels", prefix);
    size_t n;
    if (tl_store_len(s, p, &n, err))
        return TL_EPARSE;
    if (n) {
        a->levels = calloc(n, sizeof *a->levels);
        if (!a->levels)
            return tl_err_set(err, TL_ENOMEM, "out of memory");
        a->n_levels = n;
        for (size_t i = 0; i < n; i++) {
            const char *lv;
            if (tl_store_string_at(s, p, i, &lv, err) || dup_into(&a->levels[i], lv, err))
                return TL_EPARSE;
        }
    }
    return TL_OK;
}

static int by_string(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* *dup: a name that two of names[0..n) share, or NULL; -1 when out of memory. */
static int shared_name(char *const *names, size_t n, const char **dup)
{
    *dup = NULL;
    if (n < 2) /* a numeric attribute's levels are NULL: no memcpy from it (UBSan) */
        return 0;
    char **sorted = malloc(n * sizeof *sorted);
    if (!sorted)
        return -1;
    memcpy(sorted, names, n * sizeof *sorted);
    qsort(sorted, n, sizeof *sorted, by_string);
    for (size_t i = 1; i < n && !*dup; i++)
        if (!strcmp(sorted[i - 1], sorted[i]))
            *dup = sorted[i];
    free(sorted);
    return 0;
}

/* Names as a data file's loader demands them: attributes (the target among them) distinct,
 * and each one's levels; show and predict look them up by name. */
static int check_names(const tl_schema *sc, tl_err *err)
{
    char **names = malloc((sc->n_attrs + 1) * sizeof *names);
    if (!names)
        return tl_err_set(err, TL_ENOMEM, "out of memory");
    for (size_t j = 0; j < sc->n_attrs; j++)
        names[j] = sc->attrs[j].name;
    names[sc->n_attrs] = sc->target.name;
    const char *dup;
    int nomem = shared_name(names, sc->n_attrs + 1, &dup);
    free(names);
    if (nomem)
        return tl_err_set(err, TL_ENOMEM, "out of memory");
    if (dup)
        return tl_err_set(err, TL_EPARSE, "model file: schema: duplicate attribute name '%s'", dup);
    for (size_t j = 0; j <= sc->n_attrs; j++) {
        const tl_attr_info *a = j < sc->n_attrs ? &sc->attrs[j] : &sc->target;
        if (shared_name(a->levels, a->n_levels, &dup))
            return tl_err_set(err, TL_ENOMEM, "out of memory");
        if (dup)
            return tl_err_set(err, TL_EPARSE, "model file: schema: %s '%s' has the %s '%s' twice",
                              j < sc->n_attrs ? "attribute" : "target", a->name,
                              j < sc->n_attrs ? "level" : "class", dup);
    }
    return TL_OK;
}

static int load_schema(const tl_store *s, tl_schema *sc, tl_err *err)
{
    size_t n;
    if (tl_store_len(s, "schema.attributes", &n, err))
        return TL_EPARSE;
    sc->attrs = calloc(n ? n : 1, sizeof *sc->attrs);
    if (!sc->attrs)
        return tl_err_set(err, TL_ENOMEM, "out of memory");
    sc->n_attrs = n;
    for (size_t j = 0; j < n; j++) {
        char p[64];
        snprintf(p, sizeof p, "schema.attributes.[%zu]", j);
        if (load_attr(s, p, &sc->attrs[j], err))
            return TL_EPARSE;
    }
    if (load_attr(s, "schema.target", &sc->target, err))
        return TL_EPARSE;
    return check_names(sc, err);
}

/* The target read from the file must be one the learner handles and, for classes, have
 * at least two (the learners index class arrays by it). */
static int check_task(const tl_model *m, tl_err *err)
{
    const tl_attr_info *t = &m->schema.target;
    int nominal = t->kind == TL_ATTR_NOMINAL;
    if (!(m->type->tasks & (nominal ? TL_TASK_CLASSIFICATION : TL_TASK_REGRESSION)))
        return tl_err_set(err, TL_EPARSE,
                          "model file: %s does not do %s, but the target '%s' "
                          "is %s",
                          m->type->name, nominal ? "classification" : "regression", t->name,
                          nominal ? "nominal" : "numeric");
    if (nominal && t->n_levels < 2)
        return tl_err_set(err, TL_EPARSE,
                          "model file: the target '%s' has %zu classes; a "
                          "classifier needs two or more",
                          t->name, t->n_levels);
    return TL_OK;
}

tl_model *tl_model_load(const char *path, tl_err *err)
{
    tl_store *s = tl_store_read(path, err);
    if (!s)
        return NULL;
    tl_model *m = NULL;
    tl_params params;
    tl_params_init(&params);
    const char *algo;
    long format;
    if (tl_store_int(s, "format", &format, err) || tl_store_string(s, "algorithm", &algo, err))
        goto fail;
    if (format != TL_MODEL_FORMAT) {
        tl_err_set(err, TL_EPARSE, "model format %ld is not supported (this treelab reads %d)",
                   format, TL_MODEL_FORMAT);
        goto fail;
    }
    if (tl_store_params(s, "params", &params, err))
        goto fail;
    m = tl_model_new(algo, &params, err);
    if (!m || load_schema(s, &m->schema, err) || check_task(m, err) ||
        m->type->load(m->state, s, err) ||
        (m->type->check && m->type->check(m->state, &m->schema, err)))
        goto fail;
    m->fitted = 1;
    tl_params_clear(&params);
    tl_store_free(s);
    return m;
fail:
    tl_err_prefix(err, "%s: ", path);
    tl_model_free(m);
    tl_params_clear(&params);
    tl_store_free(s);
    return NULL;
}
