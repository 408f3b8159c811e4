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
        return tl_cfg_fail(c, config_setting_get_member(e, key), "file '%s' not found (looked "
                           "in '%s' and the current directory)", p, dir);
    }
    return TL_OK;
}

static int read_dataset(const tl_cfg_ctx *c, const config_setting_t *e, const char *config_path,
                        tl_exp_dataset *d)
{
    const char *path = NULL, *name = NULL, *target = NULL;
    int rc = TL_OK;
    d->line = config_setting_source_line(e);
    if (config_setting_type(e) == CONFIG_TYPE_STRING) {
        path = config_setting_get_string(e);
    } else if (config_setting_type(e) == CONFIG_TYPE_GROUP) {
        if ((rc = tl_cfg_check_keys(c, e, "path|name|target|attributes|ignore|nominal|folds|test")) ||
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
        return tl_cfg_fail(c, config_setting_type(e) == CONFIG_TYPE_GROUP
                                  ? config_setting_get_member(e, "path") : e,
                           "dataset file '%s' not found (looked in '%s' and the current "
                           "directory)", path, dir);
    }
    d->name = name ? tl_cfg_strdup(name) : base_name(path);
    if (target && !(d->target = tl_cfg_strdup(target)))
        return tl_err_set(c->err, TL_ENOMEM, "out of memory");
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
                return tl_cfg_fail(c, e, "dataset name '%s' is used twice (line %d); give one "
                                   "a `name`", x->datasets[i].name, x->datasets[j].line);
    }
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
            return tl_cfg_fail(c, config_setting_get_member(e, "folds"), "a fold file needs "
                               "protocol = { kind = \"folds\"; } without a `column`");
        if (d->test_file && (!split || p->column))
            return tl_cfg_fail(c, config_setting_get_member(e, "test"), "a test file needs "
                               "protocol = { kind = \"split\"; } without a `column`");
        if (folds && !p->column && !d->fold_file)
            return tl_cfg_fail(c, e, "protocol kind \"folds\" without a `column`: every dataset "
                               "needs its fold file (folds = \"FILE\";)");
        if (split && !p->column && !d->test_file)
            return tl_cfg_fail(c, e, "protocol kind \"split\" without a `column`: every dataset "
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
    o.fold_column = p->kind == TL_PROTO_FOLDS ? p->column : NULL;
    o.split_column = p->kind == TL_PROTO_SPLIT ? p->column : NULL;
    tl_dataset *d = tl_dataset_load_with(e->path, &o, err);
    if (!d)
        tl_err_prefix(err, "%s:%d: dataset '%s': ", x->config_path, e->line, e->name);
    return d;
}
