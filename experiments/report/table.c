/* CSV tables read whole: RFC 4180 records (quoted line breaks, CRLF, BOM) as treelab writes
 * them, for `treelab plot` and the paper reports. */
#include "treelab/tl_table.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* The file's bytes, NUL-terminated; NULL with err set. */
static char *slurp(const char *path, size_t *len, tl_err *err)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        tl_err_set(err, TL_EIO, "cannot read %s: %s", path, strerror(errno));
        return NULL;
    }
    size_t cap = 1 << 16, n = 0;
    char *buf = malloc(cap);
    while (buf) {
        n += fread(buf + n, 1, cap - n - 1, f);
        if (n < cap - 1)
            break;
        char *grown = realloc(buf, cap *= 2);
        if (!grown)
            free(buf);
        buf = grown;
    }
    int bad = ferror(f);
    fclose(f);
    if (!buf) {
        tl_err_set(err, TL_ENOMEM, "%s: out of memory", path);
        return NULL;
    }
    if (bad) {
        free(buf);
        tl_err_set(err, TL_EIO, "cannot read %s", path);
        return NULL;
    }
    buf[n] = '\0';
    *len = n;
    return buf;
}

typedef struct parser {
    const char *p, *end, *path;
    size_t line;
    char *scratch; /* a field unquoted, as long as the longest so far */
    size_t cap;
} parser;

static int is_eol(const parser *s)
{
    return s->p >= s->end || *s->p == '\n' ||
           (*s->p == '\r' && (s->p + 1 >= s->end || s->p[1] == '\n'));
}

static void skip_eol(parser *s)
{
    if (s->p < s->end && *s->p == '\r')
        s->p++;
    if (s->p < s->end && *s->p == '\n')
        s->p++, s->line++;
}

static void free_strings(char **v, size_t n)
{
    while (n)
        free(v[--n]);
}

/* Bytes from the parser to the end of its field (an upper bound of the field's length). */
static size_t field_span(const parser *s)
{
    const char *q = s->p;
    if (q < s->end && *q == '"') {
        for (q++; q < s->end; q++)
            if (*q == '"') {
                if (q + 1 < s->end && q[1] == '"')
                    q++;
                else
                    break;
            }
    } else {
        while (q < s->end && *q != ',' && *q != '\n')
            q++;
    }
    return (size_t)(q - s->p) + 1;
}

/* One field into a new string at *out; the parser is left on the ',' or line end after it.
 * Unquoted fields are trimmed of spaces and tabs. TL_EPARSE / TL_ENOMEM. */
static int field(parser *s, char **out, tl_err *err)
{
    while (s->p < s->end && (*s->p == ' ' || *s->p == '\t'))
        s->p++;
    size_t start_line = s->line;
    size_t need = field_span(s);
    if (need > s->cap) {
        char *grown = realloc(s->scratch, need);
        if (!grown)
            return tl_err_set(err, TL_ENOMEM, "%s: out of memory", s->path);
        s->scratch = grown, s->cap = need;
    }
    char *buf = s->scratch, *w = buf;
    if (s->p < s->end && *s->p == '"') {
        for (s->p++;; s->p++) {
            if (s->p >= s->end)
                return tl_err_set(err, TL_EPARSE, "%s:%zu: a quoted field is not closed", s->path,
                                  start_line);
            if (*s->p == '"') {
                if (s->p + 1 < s->end && s->p[1] == '"')
                    s->p++; /* a doubled quote */
                else
                    break;
            }
            if (*s->p == '\n')
                s->line++;
            *w++ = *s->p;
        }
        s->p++;
        while (s->p < s->end && (*s->p == ' ' || *s->p == '\t'))
            s->p++;
        if (!is_eol(s) && *s->p != ',')
            return tl_err_set(err, TL_EPARSE, "%s:%zu: text follows a closing quote", s->path,
                              s->line);
    } else {
        while (!is_eol(s) && *s->p != ',')
            *w++ = *s->p++;
        while (w > buf && (w[-1] == ' ' || w[-1] == '\t'))
            w--;
    }
    *w = '\0';
    if (!(*out = strdup(buf)))
        return tl_err_set(err, TL_ENOMEM, "%s: out of memory", s->path);
    return TL_OK;
}

/* One record into a growing array *fields (count in *n). */
static int record(parser *s, char ***fields, size_t *n, size_t *cap, tl_err *err)
{
    *n = 0;
    for (;;) {
        if (*n == *cap) {
            size_t c = *cap ? 2 * *cap : 16;
            char **grown = realloc(*fields, c * sizeof *grown);
            if (!grown) {
                free_strings(*fields, *n); /* the record's fields so far */
                *n = 0;
                return tl_err_set(err, TL_ENOMEM, "%s: out of memory", s->path);
            }
            *fields = grown, *cap = c;
        }
        int rc = field(s, &(*fields)[*n], err);
        if (rc) {
            free_strings(*fields, *n); /* the record's fields so far */
            *n = 0;
            return rc;
        }
        ++*n;
        if (is_eol(s)) {
            skip_eol(s);
            return TL_OK;
        }
        s->p++; /* the comma */
    }
}

static int append_row(tl_table *t, char **fields, size_t *cap, tl_err *err)
{
    if (t->n_rows == *cap) {
        size_t c = *cap ? 2 * *cap : 64;
        char **grown = realloc(t->cells, c * t->n_cols * sizeof *grown);
        if (!grown)
            return tl_err_set(err, TL_ENOMEM, "%s: out of memory", t->path);
        t->cells = grown, *cap = c;
    }
    memcpy(t->cells + t->n_rows++ * t->n_cols, fields, t->n_cols * sizeof *fields);
    return TL_OK;
}

int tl_table_read(const char *path, tl_table *t, tl_err *err)
{
    memset(t, 0, sizeof *t);
    t->path = path;
    size_t len;
    char *text = slurp(path, &len, err);
    if (!text)
        return err ? err->code : TL_EIO;
    parser s = {text, text + len, path, 1, NULL, 0};
    if (len >= 3 && !memcmp(text, "\xEF\xBB\xBF", 3))
        s.p += 3;
    char **fields = NULL;
    size_t nf = 0, fcap = 0, rcap = 0;
    int rc = TL_OK;
    while (!rc && s.p < s.end) {
        if (*s.p == '#' || is_eol(&s)) {
            if (is_eol(&s) && t->n_rows)
                break; /* a blank line ends the table */
            while (!is_eol(&s))
                s.p++;
            skip_eol(&s);
            continue;
        }
        size_t line = s.line;
        if ((rc = record(&s, &fields, &nf, &fcap, err)))
            break;
        if (!t->head) {
            t->n_cols = nf;
            if (!(t->head = malloc(nf * sizeof *t->head))) {
                free_strings(fields, nf);
                rc = tl_err_set(err, TL_ENOMEM, "%s: out of memory", path);
                break;
            }
            memcpy(t->head, fields, nf * sizeof *fields);
        } else if (nf != t->n_cols) {
            free_strings(fields, nf);
            rc = tl_err_set(err, TL_EPARSE, "%s:%zu: %zu fields, the header has %zu", path, line,
                            nf, t->n_cols);
        } else if ((rc = append_row(t, fields, &rcap, err))) {
            free_strings(fields, nf);
        }
    }
    free(fields);
    free(s.scratch);
    free(text);
    if (!rc && !t->head)
        rc = tl_err_set(err, TL_EPARSE, "%s: empty file (a header row is needed)", path);
    if (rc)
        tl_table_free(t);
    return rc;
}

void tl_table_free(tl_table *t)
{
    for (size_t j = 0; t->head && j < t->n_cols; j++)
        free(t->head[j]);
    for (size_t i = 0; t->cells && i < t->n_rows * t->n_cols; i++)
        free(t->cells[i]);
    free(t->head);
    free(t->cells);
    t->head = t->cells = NULL;
    t->n_rows = t->n_cols = 0;
}

int tl_table_col(const tl_table *t, const char *name, int required, tl_err *err)
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

const char *tl_table_cell(const tl_table *t, size_t row, int col)
{
    return t->cells[row * t->n_cols + (size_t)col];
}

int tl_table_num(const tl_table *t, size_t row, int col, double *out, tl_err *err)
{
    const char *s = tl_table_cell(t, row, col);
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

int tl_table_nums(const tl_table *t, int col, double *out, tl_err *err)
{
    for (size_t i = 0; i < t->n_rows; i++) {
        int rc = tl_table_num(t, i, col, &out[i], err);
        if (rc)
            return rc;
    }
    return TL_OK;
}

size_t tl_table_intern(const char **names, size_t *n, const char *s)
{
    for (size_t i = 0; i < *n; i++)
        if (!strcmp(names[i], s))
            return i;
    names[*n] = s;
    return (*n)++;
}
