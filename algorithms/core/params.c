/* Learner parameters: user values kept as text, checked against a learner's spec table. */
#include "treelab/tl_params.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

void tl_params_init(tl_params *p)
{
    p->n = 0;
    p->keys = NULL;
    p->values = NULL;
}

void tl_params_clear(tl_params *p)
{
    if (!p)
        return;
    for (size_t i = 0; i < p->n; i++) {
        free(p->keys[i]);
        free(p->values[i]);
    }
    free(p->keys);
    free(p->values);
    tl_params_init(p);
}

static char *dup_str(const char *s)
{
    size_t n = strlen(s) + 1;
    char *d = malloc(n);
    if (d)
        memcpy(d, s, n);
    return d;
}

int tl_params_set(tl_params *p, const char *key, const char *value, tl_err *err)
{
    for (size_t i = 0; i < p->n; i++) {
        if (strcmp(p->keys[i], key) == 0) {
            char *v = dup_str(value);
            if (!v)
                return tl_err_set(err, TL_ENOMEM, "out of memory");
            free(p->values[i]);
            p->values[i] = v;
            return TL_OK;
        }
    }
    char **k = realloc(p->keys, (p->n + 1) * sizeof *k);
    if (!k)
        return tl_err_set(err, TL_ENOMEM, "out of memory");
    p->keys = k;
    char **v = realloc(p->values, (p->n + 1) * sizeof *v);
    if (!v)
        return tl_err_set(err, TL_ENOMEM, "out of memory");
    p->values = v;
    p->keys[p->n] = dup_str(key);
    p->values[p->n] = dup_str(value);
    if (!p->keys[p->n] || !p->values[p->n]) {
        free(p->keys[p->n]);
        free(p->values[p->n]);
        return tl_err_set(err, TL_ENOMEM, "out of memory");
    }
    p->n++;
    return TL_OK;
}

int tl_params_set_kv(tl_params *p, const char *kv, tl_err *err)
{
    const char *eq = strchr(kv, '=');
    if (!eq || eq == kv)
        return tl_err_set(err, TL_EINVAL, "expected key=value, got '%s'", kv);
    char key[256];
    size_t n = (size_t)(eq - kv);
    if (n >= sizeof key)
        return tl_err_set(err, TL_EINVAL, "parameter name too long in '%s'", kv);
    memcpy(key, kv, n);
    key[n] = '\0';
    /* SLOT.name=X is SLOT=X, as `name` inside a plug-in's group of a config file is */
    char *dot = strchr(key, '.');
    if (dot && !strcmp(dot, ".name"))
        *dot = '\0';
    return tl_params_set(p, key, eq + 1, err);
}

int tl_params_copy(tl_params *dst, const tl_params *src, tl_err *err)
{
    tl_params_init(dst);
    for (size_t i = 0; i < src->n; i++) {
        if (tl_params_set(dst, src->keys[i], src->values[i], err)) {
            tl_params_clear(dst);
            return err ? err->code : TL_ENOMEM;
        }
    }
    return TL_OK;
}

void tl_params_unset_prefix(tl_params *p, const char *prefix)
{
    size_t n = strlen(prefix), kept = 0;
    for (size_t i = 0; i < p->n; i++) {
        if (!strncmp(p->keys[i], prefix, n)) {
            free(p->keys[i]);
            free(p->values[i]);
            continue;
        }
        p->keys[kept] = p->keys[i];
        p->values[kept++] = p->values[i];
    }
    p->n = kept;
}

const char *tl_params_find(const tl_params *p, const char *key)
{
    if (!p)
        return NULL;
    for (size_t i = 0; i < p->n; i++)
        if (strcmp(p->keys[i], key) == 0)
            return p->values[i];
    return NULL;
}

static const tl_param_spec *find_spec(const tl_param_spec *spec, const char *name)
{
    for (; spec && spec->name; spec++)
        if (strcmp(spec->name, name) == 0)
            return spec;
    return NULL;
}

static void list_names(const tl_param_spec *spec, char *buf, size_t size)
{
    buf[0] = '\0';
    size_t used = 0;
    for (; spec && spec->name && used + 1 < size; spec++) {
        int w = snprintf(buf + used, size - used, "%s%s", used ? ", " : "", spec->name);
        if (w < 0)
            break;
        used += (size_t)w;
    }
    if (!used)
        snprintf(buf, size, "(none)");
}

static int parse_bool(const char *s, int *out)
{
    if (!strcasecmp(s, "true") || !strcmp(s, "1") || !strcasecmp(s, "yes") || !strcasecmp(s, "on"))
        return *out = 1, 1;
    if (!strcasecmp(s, "false") || !strcmp(s, "0") || !strcasecmp(s, "no") || !strcasecmp(s, "off"))
        return *out = 0, 1;
    return 0;
}

static int parse_double(const char *s, double *out)
{
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (end == s || *end != '\0' || errno == ERANGE || !isfinite(v))
        return 0;
    *out = v;
    return 1;
}

static int parse_long(const char *s, long *out)
{
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (end == s || *end != '\0' || errno == ERANGE)
        return 0;
    *out = v;
    return 1;
}

static int choice_ok(const char *choices, const char *v)
{
    size_t n = strlen(v);
    for (const char *c = choices; c && *c;) {
        const char *bar = strchr(c, '|');
        size_t len = bar ? (size_t)(bar - c) : strlen(c);
        if (len == n && strncmp(c, v, n) == 0)
            return 1;
        c = bar ? bar + 1 : c + len;
    }
    return 0;
}

static int check_one(const tl_param_spec *s, const char *v, tl_err *err)
{
    double d;
    long l;
    int b;
    switch (s->type) {
    case TL_PARAM_INT:
        if (!parse_long(v, &l))
            return tl_err_set(err, TL_EINVAL, "parameter %s: expected an integer, got '%s'",
                              s->name, v);
        if ((double)l < s->min || (double)l > s->max)
            return tl_err_set(err, TL_EINVAL, "parameter %s = %ld is out of range [%g, %g]",
                              s->name, l, s->min, s->max);
        break;
    case TL_PARAM_DOUBLE:
        if (!parse_double(v, &d))
            return tl_err_set(err, TL_EINVAL, "parameter %s: expected a number, got '%s'", s->name,
                              v);
        if (d < s->min || d > s->max)
            return tl_err_set(err, TL_EINVAL, "parameter %s = %g is out of range [%g, %g]", s->name,
                              d, s->min, s->max);
        break;
    case TL_PARAM_BOOL:
        if (!parse_bool(v, &b))
            return tl_err_set(err, TL_EINVAL, "parameter %s: expected true or false, got '%s'",
                              s->name, v);
        break;
    case TL_PARAM_CHOICE:
        if (!choice_ok(s->choices, v))
            return tl_err_set(err, TL_EINVAL, "parameter %s: '%s' is not one of %s", s->name, v,
                              s->choices);
        break;
    case TL_PARAM_STRING: break;
    }
    return TL_OK;
}

int tl_params_check(const tl_param_spec *spec, const tl_params *p, tl_err *err)
{
    for (size_t i = 0; p && i < p->n; i++) {
        const tl_param_spec *s = find_spec(spec, p->keys[i]);
        if (!s) {
            char names[768];
            list_names(spec, names, sizeof names);
            return tl_err_set(err, TL_EINVAL, "unknown parameter '%s'; valid parameters: %s",
                              p->keys[i], names);
        }
        int rc = check_one(s, p->values[i], err);
        if (rc)
            return rc;
    }
    return TL_OK;
}

tl_param_reader tl_params_reader(const tl_param_spec *spec, const tl_params *p, tl_err *err)
{
    tl_param_reader r = {spec, p, err, TL_OK};
    return r;
}

/* The value set for name or the spec's default; NULL (and r->rc set) when the spec has no
 * such parameter. */
static const char *value_of(tl_param_reader *r, const char *name)
{
    const tl_param_spec *s = find_spec(r->spec, name);
    if (!s) {
        if (!r->rc)
            r->rc = tl_err_set(r->err, TL_EINTERNAL,
                               "parameter '%s' is read but not in the parameter table", name);
        return NULL;
    }
    const char *v = tl_params_find(r->p, name);
    return v ? v : s->def;
}

long tl_params_int(tl_param_reader *r, const char *name)
{
    const char *v = value_of(r, name);
    long l = 0;
    if (v)
        parse_long(v, &l);
    return l;
}

double tl_params_double(tl_param_reader *r, const char *name)
{
    const char *v = value_of(r, name);
    double d = 0;
    if (v)
        parse_double(v, &d);
    return d;
}

int tl_params_bool(tl_param_reader *r, const char *name)
{
    const char *v = value_of(r, name);
    int b = 0;
    if (v)
        parse_bool(v, &b);
    return b;
}

const char *tl_params_string(tl_param_reader *r, const char *name)
{
    const char *v = value_of(r, name);
    return v ? v : "";
}

void tl_params_print_help(const tl_param_spec *spec, FILE *f)
{
    static const char *type_names[] = {"int", "real", "bool", "choice", "string"};
    for (; spec && spec->name; spec++) {
        fprintf(f, "  %-22s %-6s default %-8s ", spec->name, type_names[spec->type], spec->def);
        if (spec->type == TL_PARAM_INT || spec->type == TL_PARAM_DOUBLE)
            fprintf(f, "[%g, %g] ", spec->min, spec->max);
        else if (spec->type == TL_PARAM_CHOICE)
            fprintf(f, "{%s} ", spec->choices);
        fprintf(f, "%s\n", spec->help);
    }
}

void tl_join_names(const char *(*name_at)(size_t i, unsigned filter), unsigned filter, char *buf,
                   size_t size)
{
    size_t used = 0;
    buf[0] = '\0';
    for (size_t i = 0;; i++) {
        const char *n = name_at(i, filter);
        if (!n)
            break;
        if (!*n)
            continue;
        int w = snprintf(buf + used, size - used, "%s%s", used ? ", " : "", n);
        if (w < 0 || (size_t)w >= size - used)
            break;
        used += (size_t)w;
    }
}
