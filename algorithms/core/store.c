/* Model files read back by dotted path ("tree.nodes"), each value checked for its type. */
#include "treelab/tl_store.h"
#include "treelab/tl_params.h"

#include <libconfig.h>
#include <stdlib.h>
#include <string.h>

#include "store_packed.h"

struct tl_store {
    config_t cfg;                /* parsed here, unless root is set */
    const struct tl_store *root; /* tl_store_sub's: the store parsed */
    config_setting_t *state;     /* tl_store_sub's: the group "state." paths read */
};

/* The setting at path: in a sub-store, "state.X" is X of its group, other paths the root's. */
static config_setting_t *find(const tl_store *s, const char *path)
{
    if (s->state && !strncmp(path, "state.", 6))
        return config_setting_lookup(s->state, path + 6);
    return config_lookup((config_t *)&(s->root ? s->root : s)->cfg, path);
}

tl_store *tl_store_read(const char *path, tl_err *err)
{
    tl_store *s = calloc(1, sizeof *s);
    if (!s) {
        tl_err_set(err, TL_ENOMEM, "out of memory");
        return NULL;
    }
    config_init(&s->cfg);
    config_set_options(&s->cfg, CONFIG_OPTION_AUTOCONVERT);
    if (tl_store_parse(&s->cfg, path, "the model file", err)) {
        config_destroy(&s->cfg);
        free(s);
        return NULL;
    }
    return s;
}

tl_store *tl_store_sub(const tl_store *s, const char *group, tl_err *err)
{
    config_setting_t *g = find(s, group);
    if (!g || !config_setting_is_group(g)) {
        tl_err_set(err, TL_EPARSE, "model file: setting '%s' should be a group", group);
        return NULL;
    }
    tl_store *sub = calloc(1, sizeof *sub);
    if (!sub) {
        tl_err_set(err, TL_ENOMEM, "out of memory");
        return NULL;
    }
    sub->root = s->root ? s->root : s;
    sub->state = g;
    return sub;
}

void tl_store_free(tl_store *s)
{
    if (!s)
        return;
    if (!s->root)
        config_destroy(&s->cfg);
    free(s);
}

static config_setting_t *lookup(const tl_store *s, const char *path, tl_err *err)
{
    config_setting_t *st = find(s, path);
    if (!st)
        tl_err_set(err, TL_EPARSE, "model file: missing setting '%s'", path);
    return st;
}

static int bad_type(tl_err *err, const char *path, const char *want)
{
    return tl_err_set(err, TL_EPARSE, "model file: setting '%s' should be %s", path, want);
}

int tl_store_has(const tl_store *s, const char *path)
{
    return find(s, path) != NULL;
}

int tl_store_int(const tl_store *s, const char *path, long *out, tl_err *err)
{
    config_setting_t *st = lookup(s, path, err);
    if (!st)
        return TL_EPARSE;
    int t = config_setting_type(st);
    if (t == CONFIG_TYPE_INT)
        *out = config_setting_get_int(st);
    else if (t == CONFIG_TYPE_INT64)
        *out = (long)config_setting_get_int64(st);
    else if (t == CONFIG_TYPE_BOOL)
        *out = config_setting_get_bool(st);
    else
        return bad_type(err, path, "an integer");
    return TL_OK;
}

static int number_of(const config_setting_t *st, double *out)
{
    switch (config_setting_type(st)) {
    case CONFIG_TYPE_FLOAT: *out = config_setting_get_float(st); return 1;
    case CONFIG_TYPE_INT: *out = config_setting_get_int(st); return 1;
    case CONFIG_TYPE_INT64: *out = (double)config_setting_get_int64(st); return 1;
    default: return 0;
    }
}

int tl_store_double(const tl_store *s, const char *path, double *out, tl_err *err)
{
    config_setting_t *st = lookup(s, path, err);
    if (!st)
        return TL_EPARSE;
    if (!number_of(st, out))
        return bad_type(err, path, "a number");
    return TL_OK;
}

int tl_store_string(const tl_store *s, const char *path, const char **out, tl_err *err)
{
    config_setting_t *st = lookup(s, path, err);
    if (!st)
        return TL_EPARSE;
    const char *v = config_setting_get_string(st);
    if (!v)
        return bad_type(err, path, "a string");
    *out = v;
    return TL_OK;
}

static config_setting_t *aggregate(const tl_store *s, const char *path, tl_err *err)
{
    config_setting_t *st = lookup(s, path, err);
    if (!st)
        return NULL;
    if (!config_setting_is_aggregate(st)) {
        bad_type(err, path, "a list or an array");
        return NULL;
    }
    return st;
}

/* A packed array's setting, or NULL when the setting is not a string. */
static config_setting_t *packed(const tl_store *s, const char *path)
{
    config_setting_t *st = find(s, path);
    return st && config_setting_type(st) == CONFIG_TYPE_STRING ? st : NULL;
}

/* rc of a packed reader, its message given the file's line. */
static int packed_rc(const config_setting_t *st, int rc, tl_err *err)
{
    if (rc)
        tl_err_prefix(err, "model file: line %u: ", config_setting_source_line(st));
    return rc;
}

int tl_store_len(const tl_store *s, const char *path, size_t *out, tl_err *err)
{
    config_setting_t *text = packed(s, path);
    if (text) {
        *out = tl_packed_count(config_setting_get_string(text));
        return TL_OK;
    }
    config_setting_t *st = aggregate(s, path, err);
    if (!st)
        return TL_EPARSE;
    *out = (size_t)config_setting_length(st);
    return TL_OK;
}

static config_setting_t *sized(const tl_store *s, const char *path, size_t n, tl_err *err)
{
    config_setting_t *st = aggregate(s, path, err);
    if (st && (size_t)config_setting_length(st) != n) {
        tl_err_set(err, TL_EPARSE, "model file: '%s' has %d elements, expected %zu", path,
                   config_setting_length(st), n);
        return NULL;
    }
    return st;
}

int tl_store_doubles(const tl_store *s, const char *path, double *out, size_t n, tl_err *err)
{
    config_setting_t *text = packed(s, path);
    if (text)
        return packed_rc(
            text, tl_packed_doubles(config_setting_get_string(text), path, out, n, err), err);
    config_setting_t *st = sized(s, path, n, err);
    if (!st)
        return TL_EPARSE;
    for (size_t i = 0; i < n; i++)
        if (!number_of(config_setting_get_elem(st, (unsigned)i), &out[i]))
            return bad_type(err, path, "an array of numbers");
    return TL_OK;
}

int tl_store_ints(const tl_store *s, const char *path, long *out, size_t n, tl_err *err)
{
    config_setting_t *text = packed(s, path);
    if (text)
        return packed_rc(text, tl_packed_longs(config_setting_get_string(text), path, out, n, err),
                         err);
    config_setting_t *st = sized(s, path, n, err);
    if (!st)
        return TL_EPARSE;
    for (size_t i = 0; i < n; i++) {
        config_setting_t *e = config_setting_get_elem(st, (unsigned)i);
        int t = config_setting_type(e);
        if (t == CONFIG_TYPE_INT)
            out[i] = config_setting_get_int(e);
        else if (t == CONFIG_TYPE_INT64)
            out[i] = (long)config_setting_get_int64(e);
        else
            return bad_type(err, path, "an array of integers");
    }
    return TL_OK;
}

int tl_store_int_array(const tl_store *s, const char *path, int *out, size_t n, tl_err *err)
{
    config_setting_t *text = packed(s, path);
    if (text)
        return packed_rc(text, tl_packed_ints(config_setting_get_string(text), path, out, n, err),
                         err);
    config_setting_t *st = sized(s, path, n, err);
    if (!st)
        return TL_EPARSE;
    for (size_t i = 0; i < n; i++) {
        config_setting_t *e = config_setting_get_elem(st, (unsigned)i);
        if (config_setting_type(e) != CONFIG_TYPE_INT)
            return bad_type(err, path, "an array of integers");
        out[i] = config_setting_get_int(e);
    }
    return TL_OK;
}

int tl_store_string_at(const tl_store *s, const char *path, size_t i, const char **out, tl_err *err)
{
    config_setting_t *st = aggregate(s, path, err);
    if (!st)
        return TL_EPARSE;
    if (i >= (size_t)config_setting_length(st))
        return tl_err_set(err, TL_EPARSE, "model file: '%s' has no element %zu", path, i);
    const char *v = config_setting_get_string_elem(st, (unsigned)i);
    if (!v)
        return bad_type(err, path, "an array of strings");
    *out = v;
    return TL_OK;
}

/* The string settings of g into out, a group inside as SLOT (its `name`) and SLOT.PARAM. */
static int read_params(config_setting_t *g, const char *slot, tl_params *out, tl_err *err)
{
    for (int i = 0; i < config_setting_length(g); i++) {
        config_setting_t *e = config_setting_get_elem(g, (unsigned)i);
        const char *name = config_setting_name(e);
        if (!slot && config_setting_is_group(e)) {
            int rc = read_params(e, name, out, err);
            if (rc)
                return rc;
            continue;
        }
        const char *v = config_setting_get_string(e);
        if (!v)
            return bad_type(err, name, "a string");
        char key[256];
        if (!slot)
            snprintf(key, sizeof key, "%s", name);
        else if (!strcmp(name, "name"))
            snprintf(key, sizeof key, "%s", slot);
        else
            snprintf(key, sizeof key, "%s.%s", slot, name);
        if (tl_params_set(out, key, v, err))
            return err ? err->code : TL_ENOMEM;
    }
    return TL_OK;
}

int tl_store_params(const tl_store *s, const char *group, tl_params *out, tl_err *err)
{
    tl_params_init(out);
    config_setting_t *g = find(s, group);
    if (!g)
        return TL_OK;
    if (!config_setting_is_group(g))
        return bad_type(err, group, "a group");
    return read_params(g, NULL, out, err);
}
