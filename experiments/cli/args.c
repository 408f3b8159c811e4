/* Option parsing shared by the commands. */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

static int list_opts(const tl_cli_opt *opts, int has_set, char *buf, size_t size)
{
    size_t used = 0;
    buf[0] = '\0';
    for (; opts && opts->name; opts++) {
        int w = snprintf(buf + used, size - used, "%s%s", used ? ", " : "", opts->name);
        if (w < 0 || (size_t)w >= size - used)
            break;
        used += (size_t)w;
    }
    if (has_set && used + 8 < size)
        used += (size_t)snprintf(buf + used, size - used, "%s--set", used ? ", " : "");
    if (used + 8 < size)
        snprintf(buf + used, size - used, "%s--help", used ? ", " : "");
    return 0;
}

int tl_cli_parse(int argc, char **argv, const tl_cli_opt *opts, const char **pos, int max_pos,
                 int *n_pos, tl_params *set, int *help, tl_err *err)
{
    *n_pos = 0;
    *help = 0;
    uint64_t seen = 0; /* valued options already given, by index in opts */
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            *help = 1;
            return TL_OK;
        }
        if (a[0] == '-' && a[1] != '\0') {
            /* --opt=value is accepted as well as --opt value */
            char name[128];
            const char *eq = strchr(a, '=');
            size_t len = eq ? (size_t)(eq - a) : strlen(a);
            if (len >= sizeof name)
                len = sizeof name - 1;
            memcpy(name, a, len);
            name[len] = '\0';
            const char *value = eq ? eq + 1 : NULL;
            if (set && !strcmp(name, "--set")) {
                if (!value) {
                    if (i + 1 >= argc)
                        return tl_err_set(err, TL_EINVAL, "--set needs key=value");
                    value = argv[++i];
                }
                const char *eqv = strchr(value, '=');
                if (eqv) { /* a repeated key would silently keep the last value */
                    char key[128];
                    size_t kl =
                        (size_t)(eqv - value) < sizeof key ? (size_t)(eqv - value) : sizeof key - 1;
                    memcpy(key, value, kl);
                    key[kl] = '\0';
                    const char *prev = tl_params_find(set, key);
                    if (prev)
                        return tl_err_set(err, TL_EINVAL, "--set %s given twice ('%s' and '%s')",
                                          key, prev, eqv + 1);
                }
                int rc = tl_params_set_kv(set, value, err);
                if (rc)
                    return rc;
                continue;
            }
            const tl_cli_opt *o = opts;
            for (; o && o->name; o++)
                if (!strcmp(o->name, name))
                    break;
            if (!o || !o->name) {
                char names[512];
                list_opts(opts, set != NULL, names, sizeof names);
                return tl_err_set(err, TL_EINVAL, "unknown option '%s'; valid options: %s", name,
                                  names);
            }
            if (o->takes_value) {
                if (!value) {
                    if (i + 1 >= argc)
                        return tl_err_set(err, TL_EINVAL, "option %s needs a value", name);
                    value = argv[++i];
                }
                /* a repeat would silently win over the first: say so instead */
                size_t idx = (size_t)(o - opts);
                if (idx < sizeof seen * 8 && (seen >> idx) & 1u)
                    return tl_err_set(err, TL_EINVAL, "option %s given twice ('%s' and '%s')", name,
                                      *o->value, value);
                if (idx < sizeof seen * 8)
                    seen |= (uint64_t)1 << idx;
                *o->value = value;
            } else {
                if (value)
                    return tl_err_set(err, TL_EINVAL, "option %s takes no value", name);
                *o->value = "1";
            }
            continue;
        }
        if (*n_pos >= max_pos)
            return tl_err_set(err, TL_EINVAL, "unexpected argument '%s'", a);
        pos[(*n_pos)++] = a;
    }
    return TL_OK;
}

int tl_cli_long(const char *opt, const char *v, long min, long max, long *out, tl_err *err)
{
    char *end;
    errno = 0;
    long x = strtol(v, &end, 10);
    if (end == v || *end || errno)
        return tl_err_set(err, TL_EINVAL, "%s: expected an integer, got '%s'", opt, v);
    if (x < min || x > max)
        return tl_err_set(err, TL_EINVAL, "%s: %ld is out of range [%ld, %ld]", opt, x, min, max);
    *out = x;
    return TL_OK;
}

int tl_cli_duration(const char *opt, const char *v, double *seconds, tl_err *err)
{
    char *end;
    errno = 0;
    double x = strtod(v, &end);
    const char *units = "smhd";
    const double scale[] = {1, 60, 3600, 86400};
    const char *u = *end ? strchr(units, *end) : units;
    if (end == v || errno || !u || (*end && end[1]) || !(x > 0) || x > 1e12)
        return tl_err_set(err, TL_EINVAL,
                          "%s: expected a positive duration such as 90, 30m, "
                          "12h or 2d (seconds, minutes, hours, days), got '%s'",
                          opt, v);
    *seconds = x * scale[u - units];
    return TL_OK;
}
