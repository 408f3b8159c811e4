/* libconfig access for experiment files: typed lookups whose errors name file, line and key. */
#include "config_util.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "treelab/tl_text.h"
#include "treelab/tl_utf8.h"

char *tl_cfg_strdup(const char *s)
{
    return strdup(s);
}

/* Dotted path of s ("models.[2].params.max_depth"), built from the root down. */
static void setting_path(const config_setting_t *s, char *buf, size_t size)
{
    const config_setting_t *chain[32];
    size_t n = 0;
    for (; s && config_setting_parent(s) && n < 32; s = config_setting_parent(s))
        chain[n++] = s;
    size_t used = 0;
    buf[0] = '\0';
    while (n-- > 0 && used < size) {
        const char *name = config_setting_name(chain[n]);
        int w = name ? snprintf(buf + used, size - used, "%s%s", used ? "." : "", name)
                     : snprintf(buf + used, size - used, "[%d]", config_setting_index(chain[n]));
        if (w < 0)
            break;
        used += (size_t)w;
    }
}

int tl_cfg_fail(const tl_cfg_ctx *c, const config_setting_t *s, const char *fmt, ...)
{
    char msg[760], path[200];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    setting_path(s, path, sizeof path);
    int line = s ? config_setting_source_line(s) : 0;
    if (line <= 0)
        line = 1; /* the root group has no line of its own: point at the top of the file */
    return tl_err_set(c->err, TL_EINVAL, "%s:%d: %s%s%s", c->file, line, path, path[0] ? ": " : "",
                      msg);
}

static int word_in(const char *word, const char *list)
{
    size_t n = strlen(word);
    for (const char *p = list; *p;) {
        const char *bar = strchr(p, '|');
        size_t len = bar ? (size_t)(bar - p) : strlen(p);
        if (len == n && strncmp(p, word, n) == 0)
            return 1;
        if (!bar)
            break;
        p = bar + 1;
    }
    return 0;
}

int tl_cfg_check_keys(const tl_cfg_ctx *c, const config_setting_t *s, const char *allowed)
{
    int n = config_setting_length(s);
    for (int i = 0; i < n; i++) {
        const config_setting_t *m = config_setting_get_elem(s, (unsigned)i);
        const char *name = config_setting_name(m);
        if (name && !word_in(name, allowed)) {
            char list[400];
            size_t j = 0;
            for (const char *p = allowed; *p && j + 3 < sizeof list; p++) {
                if (*p == '|') {
                    list[j++] = ',';
                    list[j++] = ' ';
                } else {
                    list[j++] = *p;
                }
            }
            list[j] = '\0';
            return tl_cfg_fail(c, m, "unknown key '%s'; allowed keys: %s", name, list);
        }
    }
    return TL_OK;
}

static const char *type_name(int t)
{
    switch (t) {
    case CONFIG_TYPE_INT:
    case CONFIG_TYPE_INT64: return "an integer";
    case CONFIG_TYPE_FLOAT: return "a number";
    case CONFIG_TYPE_STRING: return "a string";
    case CONFIG_TYPE_BOOL: return "a boolean";
    case CONFIG_TYPE_GROUP: return "a group { }";
    case CONFIG_TYPE_ARRAY: return "an array [ ]";
    case CONFIG_TYPE_LIST: return "a list ( )";
    default: return "unknown";
    }
}

/* The member, or NULL; *rc set to an error when required and absent. */
static const config_setting_t *member(const tl_cfg_ctx *c, const config_setting_t *g,
                                      const char *key, int required, int *rc)
{
    *rc = TL_OK;
    const config_setting_t *m = config_setting_get_member(g, key);
    if (!m && required)
        *rc = tl_cfg_fail(c, g, "missing required key '%s'", key);
    return m;
}

/* Every string of an experiment file may become a name or path in a result file (cells.txt
 * lines, CSV rows, the manifest), where a control character would break the line: refused
 * here, before any cell is computed. */
static int check_text(const tl_cfg_ctx *c, const config_setting_t *s, const char *text)
{
    long at = tl_text_ctrl(text), bad = tl_utf8_invalid(text, strlen(text));
    char name[5];
    if (bad >= 0)
        return tl_cfg_fail(c, s,
                           "byte 0x%02X at byte %ld of the string is not UTF-8 (a \\x escape?); "
                           "names and paths end up in result files, which are UTF-8",
                           (unsigned char)text[bad], bad + 1);
    if (at < 0)
        return TL_OK;
    return tl_cfg_fail(c, s,
                       "control character %s at character %ld of the string; names and "
                       "paths end up in result files and may not hold one",
                       tl_text_ctrl_name((unsigned char)text[at], name), at + 1);
}

int tl_cfg_string(const tl_cfg_ctx *c, const config_setting_t *g, const char *key, int required,
                  const char **out)
{
    int rc;
    const config_setting_t *m = member(c, g, key, required, &rc);
    if (!m)
        return rc;
    if (config_setting_type(m) != CONFIG_TYPE_STRING)
        return tl_cfg_fail(c, m, "expected a string, got %s", type_name(config_setting_type(m)));
    if ((rc = check_text(c, m, config_setting_get_string(m))))
        return rc;
    *out = config_setting_get_string(m);
    return TL_OK;
}

int tl_cfg_long(const tl_cfg_ctx *c, const config_setting_t *g, const char *key, int required,
                long min, long max, long *out)
{
    int rc;
    const config_setting_t *m = member(c, g, key, required, &rc);
    if (!m)
        return rc;
    int t = config_setting_type(m);
    if (t != CONFIG_TYPE_INT && t != CONFIG_TYPE_INT64)
        return tl_cfg_fail(c, m, "expected an integer, got %s", type_name(t));
    long long v = config_setting_get_int64(m);
    if (v < min || v > max)
        return tl_cfg_fail(c, m, "%lld is out of range [%ld, %ld]", v, min, max);
    *out = (long)v;
    return TL_OK;
}

int tl_cfg_double(const tl_cfg_ctx *c, const config_setting_t *g, const char *key, int required,
                  double min, double max, double *out)
{
    int rc;
    const config_setting_t *m = member(c, g, key, required, &rc);
    if (!m)
        return rc;
    int t = config_setting_type(m);
    double v;
    if (t == CONFIG_TYPE_FLOAT)
        v = config_setting_get_float(m);
    else if (t == CONFIG_TYPE_INT || t == CONFIG_TYPE_INT64)
        v = (double)config_setting_get_int64(m);
    else
        return tl_cfg_fail(c, m, "expected a number, got %s", type_name(t));
    if (!(v >= min && v <= max))
        return tl_cfg_fail(c, m, "%g is out of range [%g, %g]", v, min, max);
    *out = v;
    return TL_OK;
}

int tl_cfg_bool(const tl_cfg_ctx *c, const config_setting_t *g, const char *key, int *out)
{
    int rc;
    const config_setting_t *m = member(c, g, key, 0, &rc);
    if (!m)
        return rc;
    if (config_setting_type(m) != CONFIG_TYPE_BOOL)
        return tl_cfg_fail(c, m, "expected true or false, got %s",
                           type_name(config_setting_type(m)));
    *out = config_setting_get_bool(m);
    return TL_OK;
}

void tl_cfg_strv_free(char **v, size_t n)
{
    for (size_t i = 0; v && i < n; i++)
        free(v[i]);
    free(v);
}

int tl_cfg_strings(const tl_cfg_ctx *c, const config_setting_t *g, const char *key, char ***out,
                   size_t *n)
{
    int rc;
    const config_setting_t *m = member(c, g, key, 0, &rc);
    if (!m)
        return rc;
    int t = config_setting_type(m);
    if (t != CONFIG_TYPE_ARRAY && t != CONFIG_TYPE_LIST)
        return tl_cfg_fail(c, m, "expected an array of strings [\"a\", \"b\"], got %s",
                           type_name(t));
    size_t len = (size_t)config_setting_length(m);
    char **v = calloc(len ? len : 1, sizeof *v);
    if (!v)
        return tl_err_set(c->err, TL_ENOMEM, "out of memory");
    for (size_t i = 0; i < len; i++) {
        const config_setting_t *e = config_setting_get_elem(m, (unsigned)i);
        if (config_setting_type(e) != CONFIG_TYPE_STRING) {
            tl_cfg_strv_free(v, len);
            return tl_cfg_fail(c, e, "expected a string, got %s",
                               type_name(config_setting_type(e)));
        }
        if ((rc = check_text(c, e, config_setting_get_string(e)))) {
            tl_cfg_strv_free(v, len);
            return rc;
        }
        if (!(v[i] = tl_cfg_strdup(config_setting_get_string(e)))) {
            tl_cfg_strv_free(v, len);
            return tl_err_set(c->err, TL_ENOMEM, "out of memory");
        }
    }
    *out = v;
    *n = len;
    return TL_OK;
}

int tl_cfg_scalar_text(const tl_cfg_ctx *c, const config_setting_t *s, char *buf, size_t size)
{
    switch (config_setting_type(s)) {
    case CONFIG_TYPE_INT:
    case CONFIG_TYPE_INT64: snprintf(buf, size, "%lld", config_setting_get_int64(s)); return TL_OK;
    case CONFIG_TYPE_FLOAT: {
        double v = config_setting_get_float(s);
        /* the shortest form that reads back exactly, so names read "0.1" not "0.10000000000000001" */
        for (int prec = 1; prec <= 17; prec++) {
            snprintf(buf, size, "%.*g", prec, v);
            if (strtod(buf, NULL) == v)
                break;
        }
        return TL_OK;
    }
    case CONFIG_TYPE_BOOL:
        snprintf(buf, size, "%s", config_setting_get_bool(s) ? "true" : "false");
        return TL_OK;
    case CONFIG_TYPE_STRING:
        snprintf(buf, size, "%s", config_setting_get_string(s));
        return check_text(c, s, buf);
    default:
        return tl_cfg_fail(c, s, "expected a number, string or boolean, got %s",
                           type_name(config_setting_type(s)));
    }
}
