/* Experiment files: the datasets section (paths, targets, column options, fold and test
 * files) and loading a dataset as its entry and the protocol say. */
#include "config_util.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Directory part of path ("." when none), into buf. */
static void dir_of(const char *path, char *buf, size_t size)
{
    const char *slash = strrchr(path, '/');
    if (!slash)
        snprintf(buf, size, ".");
    else
        snprintf(buf, size, "%.*s", (int)(slash == path ? 1 : slash - path), path);
}

/* The rule: absolute paths as given; a relative path is taken from the config file's
 * directory when the file exists there, else from the current directory. *out: a copy of
 * the path that exists, or NULL when neither does. TL_OK or TL_ENOMEM. */
static int resolve_path(const char *config_path, const char *p, char **out, tl_err *err)
{
    char dir[2048], buf[4096];
    const char *found = NULL;
    if (p[0] != '/') {
        dir_of(config_path, dir, sizeof dir);
        snprintf(buf, sizeof buf, "%s/%s", dir, p);
        if (access(buf, R_OK) == 0)
            found = buf;
    }
    if (!found && access(p, R_OK) == 0)
        found = p;
    *out = NULL;
    if (found && !(*out = tl_cfg_strdup(found)))
        return tl_err_set(err, TL_ENOMEM, "out of memory");
    return TL_OK;
}

static char *base_name(const char *path)
{
    const char *b = strrchr(path, '/');
    b = b ? b + 1 : path;
    char *s = tl_cfg_strdup(b);
    char *dot = s ? strrchr(s, '.') : NULL;
    if (dot && dot != s)
        *dot = '\0';
    return s;
}

/* An optional file key of a dataset group (a fold file, a test file), resolved as the
 * dataset's path is. */
static int read_file(const tl_cfg_ctx *c, const config_setting_t *e, const char *key,
                     const char *config_path, char **out)
{
    const char *p = NULL;
    int rc = tl_cfg_string(c, e, key, 0, &p);
    if (rc || !p)
        return rc;
    if ((rc = resolve_path(config_path, p, out, c->err)))
        return rc;
    if (!*out) {
        char dir[2048];
        dir_of(config_path, dir, sizeof dir);
        return tl_cfg_fail(c, config_setting_get_member(e, key),
                           "file '%s' not found (looked "
                           "in '%s' and the current directory)",
                           p, dir);
    }
    return TL_OK;
}

static int read_dataset(const tl_cfg_ctx *c, const config_setting_t *e, const char *config_path,
                        tl_exp_dataset *d)
{
    const char *path = NULL, *name = NULL, *target = NULL, *weight = NULL, *decimal = NULL;
    int rc = TL_OK;
    d->line = config_setting_source_line(e);
    if (config_setting_type(e) == CONFIG_TYPE_STRING) {
        path = config_setting_get_string(e);
    } else if (config_setting_type(e) == CONFIG_TYPE_GROUP) {
        if ((rc = tl_cfg_check_keys(c, e,
                                    "path|name|target|attributes|ignore|nominal|folds|test|"
                                    "weight|decimal")) ||
            (rc = tl_cfg_string(c, e, "weight", 0, &weight)) ||
            (rc = tl_cfg_string(c, e, "decimal", 0, &decimal)) ||
            (rc = tl_cfg_string(c, e, "path", 1, &path)) ||
            (rc = tl_cfg_string(c, e, "name", 0, &name)) ||
            (rc = tl_cfg_string(c, e, "target", 0, &target)) ||
            (rc = tl_cfg_strings(c, e, "attributes", &d->attrs, &d->n_attrs)) ||
            (rc = tl_cfg_strings(c, e, "ignore", &d->ignore, &d->n_ignore)) ||
            (rc = tl_cfg_strings(c, e, "nominal", &d->nominal, &d->n_nominal)) ||
            (rc = read_file(c, e, "folds", config_path, &d->fold_file)) ||
            (rc = read_file(c, e, "test", config_path, &d->test_file)))
            return rc;
    } else {
        return tl_cfg_fail(c, e, "expected a path string or a group { path = ...; }");
    }
    if ((rc = resolve_path(config_path, path, &d->path, c->err)))
        return rc;
    if (!d->path) {
        char dir[2048];
        dir_of(config_path, dir, sizeof dir);
        return tl_cfg_fail(
            c,
            config_setting_type(e) == CONFIG_TYPE_GROUP ? config_setting_get_member(e, "path") : e,
            "dataset file '%s' not found (looked in '%s' and the current "
            "directory)",
            path, dir);
    }
    d->name = name ? tl_cfg_strdup(name) : base_name(path);
    if (target && !(d->target = tl_cfg_strdup(target)))
        return tl_err_set(c->err, TL_ENOMEM, "out of memory");
    if (weight && !(d->weight = tl_cfg_strdup(weight)))
        return tl_err_set(c->err, TL_ENOMEM, "out of memory");
    if (decimal && (strlen(decimal) != 1 || !strchr(".,", decimal[0])))
        return tl_cfg_fail(c, config_setting_get_member(e, "decimal"),
                           "decimal = \"%s\": expected \".\" or \",\"", decimal);
    d->decimal = decimal ? decimal[0] : 0;
    if (!d->name)
        return tl_err_set(c->err, TL_ENOMEM, "out of memory");
    if (!d->name[0] || strchr(d->name, '/'))
        return tl_cfg_fail(c, e, "dataset name '%s' must be non-empty without '/'", d->name);
    return TL_OK;
}

int tl_cfg_read_datasets(const tl_cfg_ctx *c, const config_setting_t *s, tl_experiment *x)
{
    int t = config_setting_type(s);
    if (t != CONFIG_TYPE_LIST && t != CONFIG_TYPE_ARRAY)
        return tl_cfg_fail(c, s, "expected a list ( ... ) of datasets");
    size_t n = (size_t)config_setting_length(s);
    if (n == 0)
        return tl_cfg_fail(c, s, "no datasets");
    if (!(x->datasets = calloc(n, sizeof *x->datasets)))
        return tl_err_set(c->err, TL_ENOMEM, "out of memory");
    for (size_t i = 0; i < n; i++) {
        const config_setting_t *e = config_setting_get_elem(s, (unsigned)i);
        x->n_datasets = i + 1;
        int rc = read_dataset(c, e, x->config_path, &x->datasets[i]);
        if (rc)
            return rc;
        for (size_t j = 0; j < i; j++)
            if (!strcmp(x->datasets[j].name, x->datasets[i].name))
                return tl_cfg_fail(c, e,
                                   "dataset name '%s' is used twice (line %d); give one "
                                   "a `name`",
                                   x->datasets[i].name, x->datasets[j].line);
    }
    return TL_OK;
}

void tl_exp_datasets_free(tl_exp_dataset *v, size_t n)
{
    for (size_t i = 0; v && i < n; i++) {
        tl_exp_dataset *d = &v[i];
        free(d->name);
        free(d->path);
        free(d->target);
        free(d->fold_file);
        free(d->test_file);
        free(d->weight);
        free(d->base);
        tl_cfg_strv_free(d->attrs, d->n_attrs);
        tl_cfg_strv_free(d->ignore, d->n_ignore);
        tl_cfg_strv_free(d->nominal, d->n_nominal);
    }
    free(v);
}

/* A deep copy of src's strings into dst; 0, or -1 when out of memory. */
static int copy_entry(tl_exp_dataset *dst, const tl_exp_dataset *src)
{
    *dst = *src;
    dst->name = dst->path = dst->target = dst->fold_file = dst->test_file = dst->base = NULL;
    dst->weight = NULL;
    dst->attrs = dst->ignore = dst->nominal = NULL;
    dst->n_attrs = dst->n_ignore = dst->n_nominal = 0;
    const char *s[] = {src->path, src->target, src->fold_file, src->test_file, src->weight};
    char **d[] = {&dst->path, &dst->target, &dst->fold_file, &dst->test_file, &dst->weight};
    for (int i = 0; i < 5; i++)
        if (s[i] && !(*d[i] = tl_cfg_strdup(s[i])))
            return -1;
    char *const *sv[] = {src->attrs, src->ignore, src->nominal};
    char ***dv[] = {&dst->attrs, &dst->ignore, &dst->nominal};
    size_t sn[] = {src->n_attrs, src->n_ignore, src->n_nominal};
    size_t *dn[] = {&dst->n_attrs, &dst->n_ignore, &dst->n_nominal};
    for (int i = 0; i < 3; i++) {
        if (!sv[i])
            continue;
        if (!(*dv[i] = calloc(sn[i] ? sn[i] : 1, sizeof **dv[i])))
            return -1;
        *dn[i] = sn[i];
        for (size_t j = 0; j < sn[i]; j++)
            if (!((*dv[i])[j] = tl_cfg_strdup(sv[i][j])))
                return -1;
    }
    return 0;
}

int tl_cfg_expand_missing(const tl_cfg_ctx *c, tl_experiment *x)
{
    const tl_protocol *p = &x->protocol;
    size_t nr = p->n_missing_rates, nd = x->n_datasets;
    if (!nr)
        return TL_OK;
    tl_exp_dataset *out = calloc(nd * nr, sizeof *out);
    if (!out)
        return tl_err_set(c->err, TL_ENOMEM, "out of memory");
    int rc = TL_OK;
    size_t made = 0;
    for (size_t i = 0; i < nd && !rc; i++)
        for (size_t r = 0; r < nr && !rc; r++, made++) {
            tl_exp_dataset *e = &out[made];
            char name[1024];
            snprintf(name, sizeof name, "%s-miss%g", x->datasets[i].name,
                     100 * p->missing_rates[r]);
            if (copy_entry(e, &x->datasets[i]) || !(e->name = tl_cfg_strdup(name)) ||
                !(e->base = tl_cfg_strdup(x->datasets[i].name)))
                rc = tl_err_set(c->err, TL_ENOMEM, "out of memory");
            e->missing_rate = p->missing_rates[r];
        }
    if (rc) { /* made counts the entry that failed too: its fields are NULL or owned */
        tl_exp_datasets_free(out, made);
        return rc;
    }
    tl_exp_datasets_free(x->datasets, nd); /* the copies take the place of the entries read */
    x->datasets = out;
    x->n_datasets = nd * nr;
    return TL_OK;
}

int tl_cfg_check_dataset_files(const tl_cfg_ctx *c, const config_setting_t *s,
                               const tl_experiment *x)
{
    const tl_protocol *p = &x->protocol;
    for (size_t i = 0; i < x->n_datasets; i++) {
        const tl_exp_dataset *d = &x->datasets[i];
        const config_setting_t *e = config_setting_get_elem(s, (unsigned)i);
        int folds = p->kind == TL_PROTO_FOLDS, split = p->kind == TL_PROTO_SPLIT;
        if (d->fold_file && (!folds || p->column))
            return tl_cfg_fail(c, config_setting_get_member(e, "folds"),
                               "a fold file needs "
                               "protocol = { kind = \"folds\"; } without a `column`");
        if (d->test_file && (!split || p->column))
            return tl_cfg_fail(c, config_setting_get_member(e, "test"),
                               "a test file needs "
                               "protocol = { kind = \"split\"; } without a `column`");
        if (folds && !p->column && !d->fold_file)
            return tl_cfg_fail(c, e,
                               "protocol kind \"folds\" without a `column`: every dataset "
                               "needs its fold file (folds = \"FILE\";)");
        if (split && !p->column && !d->test_file)
            return tl_cfg_fail(c, e,
                               "protocol kind \"split\" without a `column`: every dataset "
                               "needs its test file (test = \"FILE\";)");
    }
    return TL_OK;
}

tl_dataset *tl_experiment_load_dataset(const tl_experiment *x, size_t i, tl_err *err)
{
    const tl_exp_dataset *e = &x->datasets[i];
    const tl_protocol *p = &x->protocol;
    tl_data_opts o = {0};
    o.target = e->target;
    o.attributes = (const char *const *)e->attrs, o.n_attributes = e->n_attrs;
    o.ignore = (const char *const *)e->ignore, o.n_ignore = e->n_ignore;
    o.nominal = (const char *const *)e->nominal, o.n_nominal = e->n_nominal;
    o.fold_file = e->fold_file;
    o.test_file = e->test_file;
    o.weight_column = e->weight;
    o.decimal = e->decimal;
    o.fold_column = p->kind == TL_PROTO_FOLDS ? p->column : NULL;
    o.split_column = p->kind == TL_PROTO_SPLIT ? p->column : NULL;
    tl_dataset *d = tl_dataset_load_with(e->path, &o, err);
    if (!d)
        tl_err_prefix(err, "%s:%d: dataset '%s': ", x->config_path, e->line, e->name);
    return d;
}
