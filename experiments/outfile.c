/* Report files written whole or not at all: a temporary name, renamed into place. */
#include "treelab/tl_outfile.h"

#include <dirent.h>
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The open files and their names: tl_out_close gets only the FILE, as fclose does, so that
 * writers keep their FILE-based helpers. */
typedef struct pending {
    FILE *f;
    char *path;
    struct pending *next;
} pending;

static pending *open_files;
static pthread_mutex_t open_lock = PTHREAD_MUTEX_INITIALIZER;
static _Thread_local volatile sig_atomic_t *cancel_flag;

void tl_out_set_cancel(volatile sig_atomic_t *flag)
{
    cancel_flag = flag;
}

int tl_out_cancelled(void)
{
    return cancel_flag && *cancel_flag;
}

void tl_out_tmp_name(const char *path, char *buf, size_t size)
{
    /* hidden, in the same folder (so rename is atomic), not under the final name */
    const char *slash = strrchr(path, '/');
    size_t dir = slash ? (size_t)(slash - path) + 1 : 0;
    snprintf(buf, size, "%.*s.%s" TL_OUT_TMP_SUFFIX, (int)dir, path, path + dir);
}

int tl_out_rename(const char *path, tl_err *err)
{
    char tmp[4200];
    tl_out_tmp_name(path, tmp, sizeof tmp);
    if (rename(tmp, path) == 0)
        return TL_OK;
    int e = errno;
    unlink(tmp);
    return tl_err_set(err, TL_EIO, "cannot write %s: %s", path, strerror(e));
}

int tl_out_check_cancel(const char *path, tl_err *err)
{
    if (tl_out_cancelled())
        return tl_err_set(err, TL_EINTERRUPTED, "stopped before writing %s", path);
    return TL_OK;
}

FILE *tl_out_open(const char *path, tl_err *err)
{
    if (tl_out_check_cancel(path, err))
        return NULL;
    char tmp[4200];
    tl_out_tmp_name(path, tmp, sizeof tmp);
    pending *p = malloc(sizeof *p);
    char *copy = strdup(path);
    FILE *f = p && copy ? fopen(tmp, "w") : NULL;
    if (!f) {
        int e = errno;
        free(p);
        free(copy);
        if (p && copy)
            tl_err_set(err, TL_EIO, "cannot write %s: %s", path, strerror(e));
        else
            tl_err_set(err, TL_ENOMEM, "out of memory");
        return NULL;
    }
    p->f = f, p->path = copy;
    pthread_mutex_lock(&open_lock);
    p->next = open_files;
    open_files = p;
    pthread_mutex_unlock(&open_lock);
    return f;
}

int tl_out_close(FILE *f, int rc, tl_err *err)
{
    pthread_mutex_lock(&open_lock);
    pending **at = &open_files;
    while (*at && (*at)->f != f)
        at = &(*at)->next;
    pending *p = *at;
    if (p)
        *at = p->next;
    pthread_mutex_unlock(&open_lock);
    int bad = ferror(f);
    bad |= fclose(f) != 0;
    if (!p) /* not ours: a caller bug, but the FILE is closed all the same */
        return rc ? rc : tl_err_set(err, TL_EINTERNAL, "tl_out_close: unknown file");
    if (!rc && bad)
        rc = tl_err_set(err, TL_EIO, "error writing %s: %s", p->path, strerror(errno));
    if (!rc) {
        rc = tl_out_rename(p->path, err);
    } else {
        char tmp[4200];
        tl_out_tmp_name(p->path, tmp, sizeof tmp);
        unlink(tmp);
    }
    free(p->path);
    free(p);
    return rc;
}

void tl_out_discard(FILE *f)
{
    tl_out_close(f, TL_EINTERNAL, NULL);
}

/* The temporaries in dir, and (depth 1) in its folders. */
static void sweep(const char *dir, int depth)
{
    DIR *d = opendir(dir);
    for (struct dirent *e; d && (e = readdir(d));) {
        const char *n = e->d_name;
        size_t len = strlen(n);
        char path[4200];
        struct stat st;
        if (!strcmp(n, ".") || !strcmp(n, ".."))
            continue;
        snprintf(path, sizeof path, "%s/%s", dir, n);
        if (lstat(path, &st) != 0)
            continue;
        size_t sl = strlen(TL_OUT_TMP_SUFFIX); /* only names tl_out_tmp_name makes */
        if (S_ISREG(st.st_mode) && n[0] == '.' && len > sl + 1 &&
            !strcmp(n + len - sl, TL_OUT_TMP_SUFFIX))
            unlink(path);
        else if (S_ISDIR(st.st_mode) && depth > 0)
            sweep(path, depth - 1);
    }
    if (d)
        closedir(d);
}

void tl_out_sweep(const char *dir)
{
    sweep(dir, 1);
}
