/* The cells file's header as text: building it, reading it back, and saying how two differ. */
#include "cells_line.h"
#include "run_state.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "treelab/tl_cells.h"

int tl_run_header(const tl_experiment *x, tl_dataset *const *data, const tl_run_scale *sc,
                  char **text, tl_err *err)
{
    size_t len = 0;
    FILE *f = open_memstream(text, &len);
    if (!f)
        return tl_err_set(err, TL_ENOMEM, "out of memory");
    int rc = tl_cells_write_header(f, x, data, err);
    if (!rc && sc && sc->n_shards)
        fprintf(f, "# shard %zu %zu\n", sc->shard, sc->n_shards);
    fclose(f);
    return rc;
}

int tl_run_read_header(const char *path, char **text, tl_err *err)
{
    struct stat st; /* a FIFO in its place would block the open */
    if (stat(path, &st) == 0 && !S_ISREG(st.st_mode))
        return tl_err_set(err, TL_EIO, "%s: not a regular file (a cells file is one)", path);
    FILE *f = fopen(path, "r");
    if (!f)
        return tl_err_set(err, TL_EIO, "%s: %s", path, strerror(errno));
    size_t len = 0, cap = 0;
    FILE *out = open_memstream(text, &len);
    char *line = NULL;
    ssize_t n;
    while (out && (n = getline(&line, &cap, f)) > 0 && line[0] == '#')
        if (strncmp(line, TL_CELLS_CHECKSUM, strlen(TL_CELLS_CHECKSUM))) /* not the header's */
            fwrite(line, 1, (size_t)n, out);
    free(line);
    fclose(f);
    if (!out)
        return tl_err_set(err, TL_ENOMEM, "out of memory");
    fclose(out);
    return TL_OK;
}

/* Header lines that do not identify the experiment: the format and the producer (a resume may
 * use a rebuilt treelab, which finishes a format 1 file) and the config's path (`./x.cfg` and
 * `x.cfg` are one file; the config_sha256 line is what says it is the same config); with
 * skip_shard, the shard line. */
static const char *skip_incidental(const char *h, int skip_shard)
{
    while (!strncmp(h, TL_CELLS_MAGIC, strlen(TL_CELLS_MAGIC)) || !strncmp(h, "# producer ", 11) ||
           !strncmp(h, "# config ", 9) || (skip_shard && !strncmp(h, "# shard ", 8)))
        h = strchr(h, '\n') ? strchr(h, '\n') + 1 : h + strlen(h);
    return h;
}

/* What a header line says, for a message: "config_sha256 abc..." -> "the config file's
 * content (SHA-256 abc...)". */
static void describe(const char *line, size_t len, char *buf, size_t size)
{
    char sha[65] = "", name[256] = "";
    size_t i, k, a, b;
    char tmp[1024];
    snprintf(tmp, sizeof tmp, "%.*s", (int)len, line);
    if (!len || line[0] != '#')
        snprintf(buf, size, "nothing (the header ends)");
    else if (sscanf(tmp, "# config_sha256 %64s", sha) == 1)
        snprintf(buf, size, "config SHA-256 %.12s...", sha);
    else if (sscanf(tmp, "# dataset %zu %zu %64s %255[^\n]", &i, &k, sha, name) == 4)
        snprintf(buf, size, "dataset '%s' with data SHA-256 %.12s...", name, sha);
    else if (sscanf(tmp, "# shard %zu %zu", &a, &b) == 2)
        snprintf(buf, size, "shard %zu/%zu", a, b);
    else
        snprintf(buf, size, "'%s'", tmp + 2);
}

int tl_run_header_diff(const char *a, const char *b, int skip_shard, char *what, size_t size)
{
    for (;;) {
        a = skip_incidental(a, skip_shard);
        b = skip_incidental(b, skip_shard);
        if (*a != '#' && *b != '#')
            return 0;
        size_t la = *a == '#' ? strcspn(a, "\n") : 0, lb = *b == '#' ? strcspn(b, "\n") : 0;
        if (la != lb || strncmp(a, b, la)) {
            char da[512], db[512];
            describe(a, la, da, sizeof da);
            describe(b, lb, db, sizeof db);
            snprintf(what, size, "%s against %s", da, db);
            return 1;
        }
        a += la + (a[la] == '\n');
        b += lb + (b[lb] == '\n');
    }
}
