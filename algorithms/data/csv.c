/* CSV loader: header row, delimiter (',' ';' or tab) detected from the header, RFC 4180
 * quoting, typed columns.
 *
 * A column is numeric when every known cell is a finite number, otherwise nominal; nominal
 * levels are numbered in order of first appearance. An empty cell, "?" and "NA" (quoted or
 * not) are missing. Blank lines are skipped. A cell such as "nan" or "inf" in a column that is
 * otherwise numeric is an error rather than a reason to make the column nominal.
 * One pass over the text in memory types the columns and stores numbers and level codes; a
 * cell that is a plain number followed by its delimiter is read in one step by the fast
 * number parser, any other cell through the general field reader. A column that turns
 * nominal after holding numbers gets its codes from a second pass over the records.
 * With a decimal comma (tl_data_opts.decimal) every cell takes the general reader, and a cell
 * holding one ',' and no '.' is read as the number with a '.' there. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "csv_field.h"
#include "load_util.h"

/* Per-column result of the first pass. */
typedef struct {
    int nominal;
    int seen_number; /* a cell read as a number, finite or not */
    int late;        /* turned nominal after a number: codes from the second pass */
    int has_bad;     /* a non-finite number was seen */
    size_t bad_line, bad_col;
    char bad_text[32];
} csv_colstate;

/* Level codes from now on for column j, which held only missing cells so far. */
static int make_nominal(tl_build *b, size_t j, size_t row)
{
    tl_colbuild *col = &b->cols[j];
    free(col->num);
    col->num = NULL;
    col->kind = TL_ATTR_NOMINAL;
    if (!(col->code = malloc(b->cap_rows * sizeof *col->code)))
        return -1;
    for (size_t i = 0; i < row; i++)
        col->code[i] = TL_MISSING_CODE;
    return 0;
}

/* Cell f's level code (or TL_MISSING_CODE) into row of a nominal column; -1: out of memory. */
static int store_code(tl_colbuild *col, size_t row, const csv_field *f, char **scratch, size_t *cap)
{
    if (tl_csv_is_missing(f)) {
        col->code[row] = TL_MISSING_CODE;
        return 0;
    }
    size_t len;
    int added;
    const char *s = tl_csv_field_text(f, scratch, cap, &len);
    int code = s ? tl_levels_add(&col->lv, s, len, &added) : -1;
    if (code < 0)
        return -1;
    col->code[row] = code;
    return 0;
}

/* Scratch for unescaping "" pairs. */
typedef struct {
    char *s;
    size_t cap;
} csv_scratch;

/* Parse field f as a number written with a decimal comma: as tl_parse_number. */
static int parse_comma_number(const csv_field *f, double *v)
{
    char buf[64];
    if (f->len >= sizeof buf || memchr(f->s, '.', f->len))
        return -1;
    for (size_t i = 0; i < f->len; i++)
        buf[i] = f->s[i] == ',' ? '.' : f->s[i];
    buf[f->len] = '\0';
    return tl_parse_number(buf, f->len, v);
}

/* A cell the fast path did not take: missing, a number (possibly not finite), or a level. */
static int slow_cell(tl_build *b, size_t j, size_t row, const csv_field *f, csv_colstate *st,
                     csv_scratch *sc, char decimal)
{
    tl_colbuild *col = &b->cols[j];
    if (tl_csv_is_missing(f)) {
        if (col->num)
            col->num[row] = NAN;
        else if (col->code)
            col->code[row] = TL_MISSING_CODE;
        return 0;
    }
    if (!st->nominal) {
        double v;
        int r = decimal == ',' ? parse_comma_number(f, &v) : tl_parse_number(f->s, f->len, &v);
        if (r >= 0) {
            col->num[row] = r == 0 ? v : NAN;
            st->seen_number = 1;
            if (r > 0 && !st->has_bad) {
                st->has_bad = 1;
                st->bad_line = f->line;
                st->bad_col = f->col;
                size_t n = f->len < sizeof st->bad_text - 1 ? f->len : sizeof st->bad_text - 1;
                memcpy(st->bad_text, f->s, n);
                st->bad_text[n] = '\0';
            }
            return 0;
        }
        st->nominal = 1;
        /* after numbers, their texts are needed as levels: second_pass fills every row */
        st->late = st->seen_number;
        if (make_nominal(b, j, row))
            return -1;
    }
    if (st->late)
        return 0;
    return store_code(col, row, f, &sc->s, &sc->cap);
}

/* One record into row b->n_rows: each cell that is a plain number followed by its field's
 * end in one step, the others through read_field. Field-count errors as read_record. */
static int read_row(csv_cur *c, tl_build *b, csv_colstate *st, csv_scratch *sc, tl_err *err)
{
    size_t n = b->n_cols, row = b->n_rows;
    const char *p = c->p;
    for (size_t j = 0; j < n; j++) {
        tl_colbuild *col = &b->cols[j];
        if (col->num && c->decimal != ',') {
            double v;
            const char *q = tl_number_scan(p, c->end, &v);
            if (q && (j + 1 < n ? *q == c->delim : q == c->end || *q == '\n' || *q == '\r')) {
                col->num[row] = v;
                st[j].seen_number = 1;
                p = j + 1 < n ? q + 1 : q;
                continue;
            }
        }
        c->p = p;
        csv_field f;
        int rc = tl_csv_read_field(c, &f, err);
        if (rc)
            return rc;
        if (slow_cell(b, j, row, &f, &st[j], sc, c->decimal))
            return tl_err_set(err, TL_ENOMEM, "%s: out of memory", c->path);
        int more = c->p < c->end && *c->p == c->delim;
        if (more && j + 1 == n) {
            c->p++;
            if ((rc = tl_csv_read_field(c, &f, err)))
                return rc;
            return tl_parse_err(err, TL_EPARSE, c->path, f.line, f.col,
                                "expected %zu fields as in the header, found more", n);
        }
        if (!more && j + 1 < n)
            return tl_parse_err(err, TL_EPARSE, c->path, c->line, tl_csv_col_of(c, c->p),
                                "expected %zu fields as in the header, found %zu", n, j + 1);
        p = more ? c->p + 1 : c->p;
    }
    c->p = p;
    tl_csv_next_line(c);
    return TL_OK;
}

/* Type each column and fill it, but for the late nominal ones. */
static int first_pass(csv_cur *c, tl_build *b, csv_colstate *st, tl_err *err)
{
    csv_scratch sc = {NULL, 0};
    int rc = TL_OK;
    while (rc == TL_OK && tl_csv_skip_blank_lines(c)) {
        if (b->n_rows == b->cap_rows) /* the line count bounds the records; never write past it */
            rc = tl_err_set(err, TL_EINTERNAL, "%s: more records than lines", c->path);
        else if ((rc = read_row(c, b, st, &sc, err)) == TL_OK)
            b->n_rows++;
    }
    free(sc.s);
    for (size_t j = 0; rc == TL_OK && j < b->n_cols; j++) {
        tl_colbuild *col = &b->cols[j];
        if (!st[j].nominal && st[j].has_bad)
            return tl_parse_err(err, TL_EPARSE, c->path, st[j].bad_line, st[j].bad_col,
                                "expected a finite number in numeric column '%s', found '%s'",
                                col->name, st[j].bad_text);
    }
    return rc;
}

/* Fill the late nominal columns' codes, numbering levels by first appearance. */
static int second_pass(csv_cur *c, tl_build *b, const csv_colstate *st, csv_field *fields,
                       tl_err *err)
{
    char *scratch = NULL;
    size_t scap = 0, row = 0;
    int rc = TL_OK;
    while (rc == TL_OK && tl_csv_skip_blank_lines(c)) {
        if ((rc = tl_csv_read_record(c, fields, b->n_cols, err)))
            break;
        for (size_t j = 0; j < b->n_cols; j++) {
            if (st[j].late && store_code(&b->cols[j], row, &fields[j], &scratch, &scap)) {
                rc = tl_err_set(err, TL_ENOMEM, "%s: out of memory", c->path);
                break;
            }
        }
        row++;
    }
    free(scratch);
    return rc;
}

static int load(tl_build *b, const tl_src *src, char decimal, tl_err *err)
{
    csv_cur c = {src->path, src->text, src->text + src->len, src->text, 1, ',', decimal};
    if (!tl_csv_skip_blank_lines(&c))
        return tl_parse_err(err, TL_EPARSE, src->path, c.line, 1,
                            "expected a header row, found an empty file");
    c.delim = tl_csv_detect_delim(c.p, c.end);
    if (decimal == ',' && c.delim == ',')
        return tl_parse_err(err, TL_EINVAL, src->path, c.line, 1,
                            "a decimal comma needs another delimiter, but the header is "
                            "separated by commas; separate the cells by ';' or a tab");
    csv_field *fields = NULL;
    size_t n_cols = 0;
    int rc = tl_csv_read_header(&c, &fields, &n_cols, err);
    if (rc)
        return rc;
    char *scratch = NULL;
    size_t scap = 0;
    rc = tl_build_init(b, src->path, n_cols, err);
    for (size_t j = 0; rc == TL_OK && j < n_cols; j++) {
        size_t len;
        const char *s = tl_csv_field_text(&fields[j], &scratch, &scap, &len);
        rc = s ? tl_build_name(b, j, s, len, fields[j].line, fields[j].col, err)
               : tl_err_set(err, TL_ENOMEM, "%s: out of memory", src->path);
    }
    free(scratch);
    csv_colstate *st = calloc(n_cols, sizeof *st);
    if (rc == TL_OK && !st)
        rc = tl_err_set(err, TL_ENOMEM, "%s: out of memory", src->path);
    csv_cur data = c;
    if (rc == TL_OK)
        rc = tl_build_alloc_rows(b, tl_src_count_lines(c.p, c.end), err);
    if (rc == TL_OK)
        rc = first_pass(&c, b, st, err);
    b->eof_line = c.line;
    b->eof_col = 1;
    int any_late = 0;
    for (size_t j = 0; rc == TL_OK && j < n_cols; j++)
        any_late |= st[j].late;
    if (rc == TL_OK && any_late)
        rc = second_pass(&data, b, st, fields, err);
    free(st);
    free(fields);
    return rc;
}

tl_dataset *tl_dataset_load_csv(const char *path, const char *target, tl_err *err)
{
    tl_data_opts o = {0};
    o.target = target;
    return tl_csv_load(path, &o, err);
}

tl_dataset *tl_csv_load(const char *path, const tl_data_opts *o, tl_err *err)
{
    tl_err_clear(err);
    tl_src src;
    if (tl_src_read(&src, path, o ? o->flags : 0, err))
        return NULL;
    tl_build b;
    memset(&b, 0, sizeof b);
    tl_dataset *d = NULL;
    if (o->decimal && o->decimal != '.' && o->decimal != ',') {
        tl_err_set(err, TL_EINVAL, "%s: decimal mark '%c': expected '.' or ','", path, o->decimal);
        tl_src_free(&src);
        return NULL;
    }
    if (load(&b, &src, o->decimal == ',' ? ',' : '.', err) == TL_OK) {
        b.flags = o->flags; /* load() initialised b */
        d = tl_build_finish(&b, NULL, o, err);
    }
    tl_build_free(&b);
    tl_src_free(&src);
    return d;
}
