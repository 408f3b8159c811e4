/* CSV tables for `treelab plot`: one record a line, RFC 4180 quoting as treelab writes it. */
#include "plot_table.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static char *trim(char *s)
{
    while (*s == ' ' || *s == '\t')
        s++;
    size_t n = strlen(s);
    while (n && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\r' || s[n - 1] == '\n'))
        s[--n] = '\0';
    return s;
}

/* The quoted field starting after the quote at *p, unescaped in place ("" is a quote);
 * *p is left after the closing quote. NULL when the quote is not closed on this line. */
static char *quoted(char **p)
{
    char *r = *p, *w = *p;
    for (;; r++) {
        if (!*r)
            return NULL;
        if (*r == '"' && r[1] != '"')
            break;
        r += *r == '"'; /* the first of a doubled quote */
        *w++ = *r;
    }
    *w = '\0';
    char *field = *p;
    *p = r + 1;
    return field;
}

static long free_fields(char **out, size_t n, long rc)
{
    while (n)
        free(out[--n]);
    return rc;
}

/* Split line into at most max fields (strdup'd into out), RFC 4180 quoting as treelab
 * writes it ("a,b", "say ""hi"""); unquoted fields are trimmed. Returns the count, -1 for
 * too many fields or no memory, -2 for a broken quote (freeing what it took). */
static long split(char *line, char **out, size_t max)
{
    size_t n = 0;
    char *p = line;
    for (;;) {
        char *field;
        while (*p == ' ' || *p == '\t')
            p++;
        if (*p == '"') {
            p++;
            if (!(field = quoted(&p)))
                return free_fields(out, n, -2);
            p += strspn(p, " \t\r\n");
            if (*p && *p != ',')
                return free_fields(out, n, -2);
        } else {
            field = p;
            p += strcspn(p, ",");
        }
        int last = *p != ',';
        *p = '\0';
        if (n == max || !(out[n] = strdup(trim(field))))
            return free_fields(out, n, -1);
        n++;
        if (last)
            return (long)n;
        p++;
    }
}

int plot_table_read(const char *path, plot_table *t, tl_err *err)
{
    memset(t, 0, sizeof *t);
    t->path = path;
    FILE *f = fopen(path, "r");
    if (!f)
        return tl_err_set(err, TL_EIO, "cannot read %s: %s", path, strerror(errno));
    char line[8192];
    char *fields[256];
    size_t lineno = 0, cap = 0;
    int rc = TL_OK;
    while (fgets(line, sizeof line, f)) {
        lineno++;
        if (line[0] == '#' || trim(line)[0] == '\0')
            continue;
        long n = split(line, fields, 256);
        if (n < 0) {
            rc = tl_err_set(err, TL_EPARSE, "%s:%zu: %s", path, lineno,
                            n == -2 ? "a quoted field is not closed, or text follows its "
                                      "closing quote" : "too many columns");
            break;
        }
        if (!t->head) {
            t->n_cols = (size_t)n;
            t->head = malloc((size_t)n * sizeof *t->head);
            if (!t->head) {
                free_fields(fields, (size_t)n, 0);
                rc = tl_err_set(err, TL_ENOMEM, "%s: out of memory", path);
                break;
            }
            memcpy(t->head, fields, (size_t)n * sizeof *fields);
            continue;
        }
        if ((size_t)n != t->n_cols) {
            free_fields(fields, (size_t)n, 0);
            rc = tl_err_set(err, TL_EPARSE, "%s:%zu: %ld fields, the header has %zu", path,
                            lineno, n, t->n_cols);
            break;
        }
        if (t->n_rows == cap) {
            cap = cap ? 2 * cap : 64;
            char **grown = realloc(t->cells, cap * t->n_cols * sizeof *grown);
            if (!grown) { /* the row's fields are in no table yet: free them here */
                free_fields(fields, (size_t)n, 0);
                rc = tl_err_set(err, TL_ENOMEM, "%s: out of memory", path);
                break;
            }
            t->cells = grown;
        }
        memcpy(t->cells + t->n_rows++ * t->n_cols, fields, t->n_cols * sizeof *fields);
    }
    fclose(f);
    if (!rc && !t->head)
        rc = tl_err_set(err, TL_EPARSE, "%s: empty file (a header row is needed)", path);
    if (rc)
        plot_table_free(t);
    return rc;
}

void plot_table_free(plot_table *t)
{
    for (size_t i = 0; t->head && i < t->n_cols; i++)
        free(t->head[i]);
    for (size_t i = 0; t->cells && i < t->n_rows * t->n_cols; i++)
        free(t->cells[i]);
    free(t->head);
    free(t->cells);
    t->head = t->cells = NULL;
    t->n_rows = t->n_cols = 0;
}

int plot_table_col(const plot_table *t, const char *name, int required, tl_err *err)
{
    for (size_t j = 0; j < t->n_cols; j++)
        if (!strcmp(t->head[j], name))
            return (int)j;
    if (required) {
        char have[512] = "";
        for (size_t j = 0; j < t->n_cols; j++)
            snprintf(have + strlen(have), sizeof have - strlen(have), "%s%s", j ? "," : "",
                     t->head[j]);
        tl_err_set(err, TL_EINVAL, "%s: no column '%s' (columns: %s)", t->path, name, have);
    }
    return -1;
}

const char *plot_table_cell(const plot_table *t, size_t row, int col)
{
    return t->cells[row * t->n_cols + (size_t)col];
}

int plot_table_num(const plot_table *t, size_t row, int col, double *out, tl_err *err)
{
    const char *s = plot_table_cell(t, row, col);
    if (!*s || !strcasecmp(s, "NA") || !strcasecmp(s, "nan")) {
        *out = NAN;
        return TL_OK;
    }
    char *end;
    *out = strtod(s, &end);
    if (*end)
        return tl_err_set(err, TL_EPARSE, "%s: data row %zu, column %s: '%s' is not a number",
                          t->path, row + 1, t->head[col], s);
    return TL_OK;
}

int plot_table_nums(const plot_table *t, int col, double *out, tl_err *err)
{
    for (size_t i = 0; i < t->n_rows; i++) {
        int rc = plot_table_num(t, i, col, &out[i], err);
        if (rc)
            return rc;
    }
    return TL_OK;
}

size_t plot_table_intern(const char **names, size_t *n, const char *s)
{
    for (size_t i = 0; i < *n; i++)
        if (!strcmp(names[i], s))
            return i;
    names[*n] = s;
    return (*n)++;
}
