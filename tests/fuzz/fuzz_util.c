/* Shared by the libFuzzer harnesses: a private temporary folder for the input file, verdicts. */
#include "fuzz_util.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char dir[4096];
static char file[4096 + 256];
static char other[4096 + 256];

void tl_fuzz_remove_tree(const char *path)
{
    struct stat st;
    if (lstat(path, &st))
        return;
    if (S_ISDIR(st.st_mode)) {
        DIR *d = opendir(path);
        struct dirent *e;
        while (d && (e = readdir(d))) {
            if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
                continue;
            char sub[sizeof dir + 512];
            snprintf(sub, sizeof sub, "%s/%s", path, e->d_name);
            tl_fuzz_remove_tree(sub);
        }
        if (d)
            closedir(d);
        rmdir(path);
    } else {
        unlink(path); /* the link to experiments/, not what it points to */
    }
}

static void cleanup(void)
{
    if (dir[0])
        tl_fuzz_remove_tree(dir);
}

void tl_fuzz_fail(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("treelab fuzz: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    abort();
}

static void make_dir(void)
{
    const char *tmp = getenv("TMPDIR");
    snprintf(dir, sizeof dir, "%s/treelab-fuzz-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    if (!mkdtemp(dir))
        tl_fuzz_fail("cannot make a folder %s: %s", dir, strerror(errno));
    atexit(cleanup);
    char link_path[sizeof dir + 32];
    snprintf(link_path, sizeof link_path, "%s/experiments", dir);
    if (symlink(TL_SOURCE_DIR "/experiments", link_path))
        tl_fuzz_fail("cannot link %s: %s", link_path, strerror(errno));
}

static const char *path_in_dir(char *buf, size_t size, const char *name)
{
    if (!dir[0])
        make_dir();
    snprintf(buf, size, "%s/%s", dir, name);
    const char *slash = strchr(name, '/');
    if (slash) {
        char sub[sizeof dir + 256];
        snprintf(sub, sizeof sub, "%s/%.*s", dir, (int)(slash - name), name);
        if (mkdir(sub, 0700) && errno != EEXIST)
            tl_fuzz_fail("cannot make a folder %s: %s", sub, strerror(errno));
    }
    return buf;
}

const char *tl_fuzz_path(const char *name)
{
    return path_in_dir(other, sizeof other, name);
}

const char *tl_fuzz_input(const uint8_t *data, size_t size, const char *name)
{
    path_in_dir(file, sizeof file, name);
    int fd = open(file, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    if (fd < 0)
        tl_fuzz_fail("cannot write %s: %s", file, strerror(errno));
    for (size_t done = 0; done < size;) {
        ssize_t n = write(fd, data + done, size - done);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            tl_fuzz_fail("cannot write %s: %s", file, strerror(errno));
        done += (size_t)n;
    }
    if (close(fd))
        tl_fuzz_fail("cannot write %s: %s", file, strerror(errno));
    return file;
}

void tl_fuzz_check_rejection(const tl_err *err, const char *what)
{
    if (err->code == TL_OK)
        tl_fuzz_fail("%s failed with no error code", what);
    if (!tl_err_is_user(err->code) && err->code != TL_ENOMEM)
        tl_fuzz_fail("%s: internal error on a damaged input (%s at %s:%d): %s", what,
                     tl_err_code_name(err->code), err->src_file ? err->src_file : "?",
                     err->src_line, err->msg);
    if (!err->msg[0])
        tl_fuzz_fail("%s: %s with an empty message", what, tl_err_code_name(err->code));
}

static void check_attr(const tl_attr_info *a, const char *what, size_t j)
{
    if (!a->name)
        tl_fuzz_fail("%s %zu has no name", what, j);
    if (a->kind != TL_ATTR_NUMERIC && a->kind != TL_ATTR_NOMINAL)
        tl_fuzz_fail("%s '%s' has kind %d", what, a->name, (int)a->kind);
    if (a->kind == TL_ATTR_NOMINAL && a->n_levels && !a->levels)
        tl_fuzz_fail("%s '%s' has %zu levels and no level array", what, a->name, a->n_levels);
    for (size_t l = 0; a->kind == TL_ATTR_NOMINAL && l < a->n_levels; l++)
        if (!a->levels[l])
            tl_fuzz_fail("%s '%s': level %zu has no name", what, a->name, l);
}

static void check_column(const tl_dataset *d, const tl_attr_info *a, const tl_column *c,
                         int missing_ok)
{
    if (!d->n_rows)
        return;
    if (a->kind == TL_ATTR_NOMINAL) {
        if (!c->code || c->num)
            tl_fuzz_fail("nominal '%s' is not stored as codes alone", a->name);
        for (size_t i = 0; i < d->n_rows; i++) {
            int v = c->code[i];
            if (v == TL_MISSING_CODE ? !missing_ok : v < 0 || (size_t)v >= a->n_levels)
                tl_fuzz_fail("'%s' row %zu: code %d (%zu levels)", a->name, i, v, a->n_levels);
        }
    } else {
        if (!c->num || c->code)
            tl_fuzz_fail("numeric '%s' is not stored as numbers alone", a->name);
        for (size_t i = 0; i < d->n_rows; i++)
            if (isnan(c->num[i]) ? !missing_ok : !isfinite(c->num[i]))
                tl_fuzz_fail("'%s' row %zu: value %g", a->name, i, c->num[i]);
    }
}

void tl_fuzz_check_dataset(const tl_dataset *d, unsigned flags)
{
    if (d->schema.n_attrs && !d->schema.attrs)
        tl_fuzz_fail("%zu attributes and no attribute array", d->schema.n_attrs);
    if (d->schema.n_attrs && d->n_rows && !d->cols)
        tl_fuzz_fail("%zu attributes and no columns", d->schema.n_attrs);
    for (size_t j = 0; j < d->schema.n_attrs; j++) {
        check_attr(&d->schema.attrs[j], "attribute", j);
        check_column(d, &d->schema.attrs[j], &d->cols[j], 1);
    }
    check_attr(&d->schema.target, "target", 0);
    check_column(d, &d->schema.target, &d->y, (flags & TL_LOAD_UNLABELLED) != 0);
    for (size_t i = 0; d->weight && i < d->n_rows; i++)
        if (!isfinite(d->weight[i]) || d->weight[i] < 0)
            tl_fuzz_fail("row %zu: weight %g", i, d->weight[i]);
}

void tl_fuzz_load_dataset(const uint8_t *data, size_t size, const char *name)
{
    const char *path = tl_fuzz_input(data, size, name);
    static const unsigned flags[] = {0, TL_LOAD_UNLABELLED};
    for (size_t k = 0; k < sizeof flags / sizeof *flags; k++) {
        tl_err err = {0};
        tl_dataset *d = tl_dataset_load_opts(path, NULL, flags[k], &err);
        if (d)
            tl_fuzz_check_dataset(d, flags[k]);
        else
            tl_fuzz_check_rejection(&err, "tl_dataset_load_opts");
        tl_dataset_free(d);
    }
}
