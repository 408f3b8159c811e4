/* The cells file read back (what cells.c writes): the header into tl_cells_meta, each line into
 * a tl_cell, checked against each other. */
#include "cells_line.h"
#include "treelab/tl_cells.h"
#include "treelab/tl_text.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

void tl_cells_meta_clear(tl_cells_meta *m)
{
    if (!m)
        return;
    for (size_t i = 0; i < m->n_datasets; i++) {
        free(m->dataset[i]);
        free(m->dataset_sha[i]);
        for (size_t c = 0; m->classes[i] && c < m->n_classes[i]; c++)
            free(m->classes[i][c]);
        free(m->classes[i]);
    }
    for (size_t j = 0; j < m->n_models; j++) {
        free(m->model[j]);
        tl_cells_select *s = m->select ? &m->select[j] : NULL;
        for (size_t p = 0; s && p < s->n_params; p++) {
            for (size_t v = 0; v < s->n_values[p]; v++)
                free(s->value[p][v]);
            free(s->param[p]);
            free(s->value[p]);
        }
        if (s) {
            free(s->param);
            free(s->value);
            free(s->n_values);
            free(s->by);
        }
    }
    free(m->select);
    free(m->dataset);
    free(m->dataset_sha);
    free(m->n_classes);
    free(m->classes);
    free(m->model);
    free(m->grid);
    free(m->fractions);
    for (size_t i = 0; m->missing_base && i < m->n_missing; i++)
        free(m->missing_base[i]);
    free(m->missing_base);
    free(m->missing_rate);
    memset(m, 0, sizeof *m);
}

static int grow(void **arr, size_t n, size_t size)
{
    void *a = realloc(*arr, (n + 1) * size);
    if (!a)
        return -1;
    *arr = a;
    memset((char *)a + n * size, 0, size);
    return 0;
}

/* The name after the numbers of a header line starts after exactly one space: a " %n" in
 * the format would skip a name's own leading spaces. Moves *off onto it; 0 if none. */
static int name_at(const char *line, int *off)
{
    if (!*off || line[*off] != ' ')
        return 0;
    ++*off;
    return 1;
}

/* A dataset or model name as the config reader allows it. Names become file names in the
 * results folder (confusion/D__M.csv), so a crafted "../../x" wrote outside it. */
static int bad_name(const char *s)
{
    return !*s || strchr(s, '/') || tl_text_ctrl(s) >= 0;
}

/* The `# select`, `# value` and `# select_by` lines of the last model read. */
static int parse_select(const char *line, tl_cells_meta *m)
{
    size_t j, p, v;
    int off = 0;
    tl_cells_select *s = m->n_models ? &m->select[m->n_models - 1] : NULL;
    if (sscanf(line, "# select %zu %zu%n", &j, &p, &off) == 2 && name_at(line, &off)) {
        if (!s || j != m->n_models - 1 || p != s->n_params || tl_text_ctrl(line + off) >= 0)
            return TL_EPARSE;
        if (grow((void **)&s->param, p, sizeof *s->param) ||
            grow((void **)&s->value, p, sizeof *s->value) ||
            grow((void **)&s->n_values, p, sizeof *s->n_values))
            return TL_ENOMEM;
        s->n_params++;
        return (s->param[p] = strdup(line + off)) ? TL_OK : TL_ENOMEM;
    }
    if (sscanf(line, "# value %zu %zu %zu%n", &j, &p, &v, &off) == 3 && name_at(line, &off)) {
        if (!s || j != m->n_models - 1 || p + 1 != s->n_params || v != s->n_values[p])
            return TL_EPARSE;
        if (grow((void **)&s->value[p], v, sizeof **s->value))
            return TL_ENOMEM;
        s->n_values[p]++;
        return (s->value[p][v] = strdup(line + off)) ? TL_OK : TL_ENOMEM;
    }
    if (sscanf(line, "# select_by %zu%n", &j, &off) == 1 && name_at(line, &off)) {
        if (!s || j != m->n_models - 1 || s->by)
            return TL_EPARSE;
        return (s->by = strdup(line + off)) ? TL_OK : TL_ENOMEM;
    }
    return TL_EPARSE;
}

/* What parse_header finds besides TL_OK, TL_EPARSE and TL_ENOMEM. */
enum { BAD_NAME = -2, BAD_FORMAT = -3 };

/* One header line into meta: TL_OK, TL_EPARSE (malformed), TL_ENOMEM, BAD_NAME (a name that
 * bad_name refuses) or BAD_FORMAT (another format version). */
static int parse_header(const char *line, tl_cells_meta *m)
{
    size_t i, k;
    int off = 0;
    char sha[65];
    if (!strncmp(line, "# treelab cells ", 16)) {
        m->format = !strcmp(line + 16, "1") ? 1 : !strcmp(line + 16, "2") ? 2 : 0;
        return m->format ? TL_OK : BAD_FORMAT;
    }
    if (sscanf(line, "# producer %255[^\n]", m->producer) == 1 ||
        sscanf(line, "# config_sha256 %64s", m->config_sha) == 1 ||
        sscanf(line, "# config %1023[^\n]", m->config) == 1 ||
        sscanf(line, "# seed %lu", &m->seed) == 1 ||
        sscanf(line, "# protocol %255[^\n]", m->protocol) == 1 ||
        sscanf(line, "# name %255[^\n]", m->name) == 1 ||
        sscanf(line, "# baseline %zu", &m->baseline) == 1 ||
        sscanf(line, "# reports %u", &m->reports) == 1 ||
        sscanf(line, "# missing_rows %15s", m->missing_rows) == 1 ||
        sscanf(line, "# compare %31s %15s %15s", m->compare_metric, m->compare_test,
               m->compare_pairs) == 3 ||
        sscanf(line, "# summary %255s", m->summary) == 1)
        return TL_OK;
    double rate;
    if (sscanf(line, "# missing %zu %lf %n", &i, &rate, &off) == 2 && off && line[off]) {
        /* right after its dataset line, and every dataset has one */
        if (i + 1 != m->n_datasets || i != m->n_missing || !(rate >= 0 && rate < 1))
            return TL_EPARSE;
        if (bad_name(line + off))
            return BAD_NAME;
        if (grow((void **)&m->missing_base, i, sizeof *m->missing_base) ||
            grow((void **)&m->missing_rate, i, sizeof *m->missing_rate))
            return TL_ENOMEM;
        m->n_missing++;
        m->missing_rate[i] = rate;
        return (m->missing_base[i] = strdup(line + off)) ? TL_OK : TL_ENOMEM;
    }
    if (sscanf(line, "# shard %zu %zu", &i, &k) == 2) {
        if (i < 1 || i > k || k > TL_MAX_CELLS_DEFAULT || m->n_shards) /* merge makes k slots */
            return TL_EPARSE;
        m->shard = i, m->n_shards = k;
        return TL_OK;
    }
    if (sscanf(line, "# fraction %zu %n", &i, &off) == 1 && off) {
        if (i != m->n_fractions)
            return TL_EPARSE;
        if (grow((void **)&m->fractions, i, sizeof *m->fractions))
            return TL_ENOMEM;
        m->fractions[m->n_fractions++] = strtod(line + off, NULL);
        return TL_OK;
    }
    if (sscanf(line, "# dataset %zu %zu %64s%n", &i, &k, sha, &off) == 3 && name_at(line, &off)) {
        if (bad_name(line + off))
            return BAD_NAME;
        if (i != m->n_datasets || k > TL_MAX_CLASSES) /* as a data file may have */
            return TL_EPARSE;
        if (grow((void **)&m->dataset, i, sizeof *m->dataset) ||
            grow((void **)&m->dataset_sha, i, sizeof *m->dataset_sha) ||
            grow((void **)&m->n_classes, i, sizeof *m->n_classes) ||
            grow((void **)&m->classes, i, sizeof *m->classes))
            return TL_ENOMEM;
        m->n_datasets++;
        m->dataset[i] = strdup(line + off);
        m->dataset_sha[i] = strdup(sha);
        if (!m->dataset[i] || !m->dataset_sha[i] ||
            !(m->classes[i] = calloc(k ? k : 1, sizeof **m->classes)))
            return TL_ENOMEM;
        m->n_classes[i] = k;
        return TL_OK;
    }
    if (sscanf(line, "# class %zu %zu%n", &i, &k, &off) == 2 && name_at(line, &off)) {
        if (i >= m->n_datasets || k >= m->n_classes[i] || m->classes[i][k])
            return TL_EPARSE;
        if (tl_text_ctrl(line + off) >= 0)
            return BAD_NAME;
        return (m->classes[i][k] = strdup(line + off)) ? TL_OK : TL_ENOMEM;
    }
    if (sscanf(line, "# grid %zu%n", &i, &off) == 1 && !line[off]) {
        if (i >= m->n_models)
            return TL_EPARSE;
        if (!m->grid && !(m->grid = calloc(m->n_models, 1)))
            return TL_ENOMEM;
        m->grid[i] = 1;
        return TL_OK;
    }
    if (sscanf(line, "# model %zu%n", &i, &off) == 1 && name_at(line, &off)) {
        if (m->grid)
            return TL_EPARSE; /* grid lines follow every model line */
        if (bad_name(line + off))
            return BAD_NAME;
        if (i != m->n_models)
            return TL_EPARSE;
        if (grow((void **)&m->model, i, sizeof *m->model) ||
            grow((void **)&m->select, i, sizeof *m->select))
            return TL_ENOMEM;
        return (m->model[m->n_models++] = strdup(line + off)) ? TL_OK : TL_ENOMEM;
    }
    return parse_select(line, m);
}

size_t tl_cells_candidates(const tl_cells_select *s)
{
    size_t n = 1;
    for (size_t p = 0; p < s->n_params; p++) {
        if (!s->n_values[p] || n > (size_t)1 << 40)
            return 0;
        n *= s->n_values[p];
    }
    return s->n_params ? n : 0;
}

/* Check the parsed file is consistent: every class named, cells inside the tables. */
static int check(const tl_cells_meta *m, const tl_cell *c, size_t n)
{
    for (size_t i = 0; i < m->n_datasets; i++)
        for (size_t k = 0; k < m->n_classes[i]; k++)
            if (!m->classes[i][k])
                return -1;
    for (size_t i = 0; i < n; i++)
        if (c[i].dataset >= m->n_datasets || c[i].model >= m->n_models ||
            c[i].k != m->n_classes[c[i].dataset] ||
            (m->select[c[i].model].n_params &&
             c[i].selected >= (long)tl_cells_candidates(&m->select[c[i].model])))
            return -1;
    return m->n_models && m->baseline < m->n_models ? 0 : -1;
}

/* The checksum line ("# checksum sha256 N HEX", the last of a finished file) against the cell
 * lines summed before it. */
typedef struct {
    tl_cells_sum sum;
    long line;    /* where the checksum line is, 0 before it */
    size_t n;     /* the cells it counts */
    char hex[65]; /* and their checksum */
} trailer;

static int check_trailer(trailer *t, const char *path, tl_err *err)
{
    char hex[65];
    if (!t->line)
        return TL_OK;
    tl_cells_sum_hex(&t->sum, hex);
    if (t->n != t->sum.n)
        return tl_err_set(err, TL_EPARSE,
                          "%s:%ld: the checksum line counts %zu cells and the file holds %zu: "
                          "cell lines were removed or added after the run wrote it",
                          path, t->line, t->n, t->sum.n);
    if (strcmp(hex, t->hex))
        return tl_err_set(err, TL_EPARSE,
                          "%s:%ld: the checksum of the %zu cells (sha256 %.16s...) is not the "
                          "one the run wrote (%.16s...): a cell line was edited after it",
                          path, t->line, t->n, hex, t->hex);
    return TL_OK;
}

/* One line of a cells file (its newline cut) into meta, cells or the trailer, with its
 * message in err. */
static int read_line(char *line, size_t len, long lineno, const char *path, tl_cells_meta *meta,
                     tl_cell **cells, size_t *n, trailer *t, tl_err *err)
{
    char why[200];
    size_t key[4];
    int header = line[0] == '#', rc;
    if (t->line)
        return tl_err_set(err, TL_EPARSE,
                          "%s:%ld: a line after the checksum line (line %ld), which ends the "
                          "file",
                          path, lineno, t->line);
    if (!strncmp(line, TL_CELLS_CHECKSUM, strlen(TL_CELLS_CHECKSUM))) {
        int off = 0;
        if (sscanf(line + strlen(TL_CELLS_CHECKSUM), "%zu %64[0-9a-f]%n", &t->n, t->hex, &off) !=
                2 ||
            strlen(t->hex) != 64 || line[strlen(TL_CELLS_CHECKSUM) + (size_t)off])
            return tl_err_set(err, TL_EPARSE,
                              "%s:%ld: bad checksum line (expected '" TL_CELLS_CHECKSUM "N HEX')",
                              path, lineno);
        t->line = lineno;
        return TL_OK;
    }
    if (header)
        rc = parse_header(line, meta);
    else if (tl_cells_line_key(line, key))
        rc = TL_EPARSE;
    else if (tl_cells_sum_add(&t->sum, key, line, len) || grow((void **)cells, *n, sizeof **cells))
        rc = TL_ENOMEM;
    else
        rc = tl_cells_parse_line(line, &(*cells)[*n]);
    if (rc == BAD_FORMAT)
        return tl_err_set(err, TL_EPARSE,
                          "%s:%ld: '%.40s' is not a cells format this "
                          "treelab reads (it reads 1 and 2)",
                          path, lineno, line + 2);
    if (rc == BAD_NAME)
        return tl_err_set(err, TL_EPARSE,
                          "%s:%ld: bad header line: a name must be non-empty "
                          "without '/' or control characters",
                          path, lineno);
    if (rc == TL_ENOMEM)
        return tl_err_set(err, TL_ENOMEM, "out of memory");
    if (rc)
        return tl_err_set(err, TL_EPARSE, "%s:%ld: bad %s line", path, lineno,
                          header ? "header" : "cell");
    if (header)
        return TL_OK;
    if (tl_cells_check_values(&(*cells)[*n], meta->format >= 2, why, sizeof why)) {
        tl_cell_clear(&(*cells)[*n]);
        return tl_err_set(err, TL_EPARSE, "%s:%ld: bad cell line: %s", path, lineno, why);
    }
    ++*n;
    return TL_OK;
}

int tl_cells_read(const char *path, tl_cells_meta *meta, tl_cell **cells, size_t *n,
                  long *valid_bytes, tl_err *err)
{
    memset(meta, 0, sizeof *meta);
    *cells = NULL;
    *n = 0;
    struct stat st; /* a FIFO in its place would block the open, and merge with it */
    if (stat(path, &st) == 0 && !S_ISREG(st.st_mode))
        return tl_err_set(err, TL_EIO, "%s: not a regular file (a cells file is one)", path);
    FILE *f = fopen(path, "r");
    if (!f)
        return tl_err_set(err, TL_EIO, "%s: %s", path, strerror(errno));
    char *line = NULL;
    size_t cap = 0;
    ssize_t len;
    long good = 0, lineno = 0;
    trailer t;
    memset(&t, 0, sizeof t);
    int rc = TL_OK;
    while (!rc && (errno = 0, len = getline(&line, &cap, f)) > 0) {
        lineno++;
        if (line[len - 1] != '\n')
            break; /* a write cut short: drop it */
        line[len - 1] = '\0';
        rc = read_line(line, (size_t)len - 1, lineno, path, meta, cells, n, &t, err);
        good += t.line ? 0 : len; /* a resume appends where the checksum line was */
    }
    if (!rc && len < 0 && errno == ENOMEM) /* getline could not grow its buffer */
        rc = tl_err_set(err, TL_ENOMEM, "out of memory");
    free(line);
    fclose(f);
    if (!rc && check(meta, *cells, *n))
        rc = tl_err_set(err, TL_EPARSE, "%s: the cells do not match the header", path);
    if (!rc)
        rc = check_trailer(&t, path, err);
    meta->checked = !rc && t.line;
    tl_cells_sum_free(&t.sum);
    if (rc) {
        for (size_t i = 0; i < *n; i++)
            tl_cell_clear(&(*cells)[i]);
        free(*cells);
        *cells = NULL;
        *n = 0;
        tl_cells_meta_clear(meta);
        return rc;
    }
    if (valid_bytes)
        *valid_bytes = good;
    return TL_OK;
}
