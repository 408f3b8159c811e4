/* The cells file's checksum line: SHA-256 over its cell lines' digests in the canonical order
 * (dataset, model, repeat, fold), so the order threads, ranks or a resume wrote them in does
 * not change it (docs/scale.md, "Checksums"). */
#include "cells_line.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

void tl_cells_sum_free(tl_cells_sum *s)
{
    free(s->v);
    memset(s, 0, sizeof *s);
}

int tl_cells_sum_add(tl_cells_sum *s, const size_t key[4], const char *line, size_t len)
{
    if (s->n == s->cap) {
        size_t cap = s->cap ? 2 * s->cap : 64;
        tl_cells_sum_line *v = realloc(s->v, cap * sizeof *v);
        if (!v)
            return TL_ENOMEM;
        s->v = v, s->cap = cap;
    }
    tl_cells_sum_line *l = &s->v[s->n++];
    memcpy(l->key, key, sizeof l->key);
    tl_sha256 c;
    tl_sha256_init(&c);
    tl_sha256_update(&c, line, len);
    tl_sha256_final(&c, l->digest);
    return TL_OK;
}

static int cmp_line(const void *pa, const void *pb)
{
    const tl_cells_sum_line *a = pa, *b = pb;
    for (int i = 0; i < 4; i++)
        if (a->key[i] != b->key[i])
            return a->key[i] < b->key[i] ? -1 : 1;
    return memcmp(a->digest, b->digest, sizeof a->digest); /* a duplicate: still one order */
}

void tl_cells_sum_hex(tl_cells_sum *s, char out[65])
{
    if (s->n)
        qsort(s->v, s->n, sizeof *s->v, cmp_line);
    tl_sha256 c;
    tl_sha256_init(&c);
    for (size_t i = 0; i < s->n; i++)
        tl_sha256_update(&c, s->v[i].digest, sizeof s->v[i].digest);
    tl_sha256_hex(&c, out);
}

int tl_cells_line_key(const char *line, size_t key[4])
{
    const char *p = line;
    for (int i = 0; i < 4; i++) {
        char *end;
        key[i] = (size_t)strtoull(p, &end, 10);
        if (end == p)
            return -1;
        p = end;
    }
    return 0;
}

int tl_cells_seal(FILE *out, const char *path, tl_err *err)
{
    if (fflush(out))
        return tl_err_set(err, TL_EIO, "writing %s: %s", path, strerror(errno));
    FILE *f = fopen(path, "r");
    if (!f)
        return tl_err_set(err, TL_EIO, "%s: %s", path, strerror(errno));
    tl_cells_sum s = {0};
    char *line = NULL;
    size_t cap = 0, key[4];
    ssize_t len;
    int rc = TL_OK;
    while (!rc && (len = getline(&line, &cap, f)) > 0) {
        if (line[0] == '#' || line[len - 1] != '\n')
            continue; /* the header; a line cut short was cut off by the resume */
        if (tl_cells_line_key(line, key))
            rc = tl_err_set(err, TL_EPARSE, "%s: a cell line without its indices", path);
        else if (tl_cells_sum_add(&s, key, line, (size_t)len - 1))
            rc = tl_err_set(err, TL_ENOMEM, "out of memory");
    }
    free(line);
    fclose(f);
    if (!rc) {
        char hex[65];
        tl_cells_sum_hex(&s, hex);
        if (fprintf(out, TL_CELLS_CHECKSUM "%zu %s\n", s.n, hex) < 0 || fflush(out) ||
            fsync(fileno(out)))
            rc = tl_err_set(err, TL_EIO, "writing %s: %s", path, strerror(errno));
    }
    tl_cells_sum_free(&s);
    return rc;
}
