/* The ARFF reader's @data rows: dense and sparse rows, Weka's instance weights, '?' missing. */
#include "arff_lex.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static int store_value(arff_cur *c, tl_colbuild *col, size_t row, tl_err *err)
{
    int missing = !c->tok_quoted && c->tok_len == 1 && c->tok[0] == '?';
    if (col->kind == TL_ATTR_NOMINAL) {
        int code = missing ? TL_MISSING_CODE : tl_levels_find(&col->lv, c->tok, c->tok_len);
        if (code == -1 && !missing) {
            char names[600] = "";
            for (size_t i = 0; i < col->lv.n; i++)
                tl_join_append(names, sizeof names, col->lv.names[i]);
            return tl_parse_err(err, TL_EPARSE, c->path, c->line, c->tok_col,
                                "value '%s' is not declared for attribute '%s' (declared: %s)",
                                c->tok, col->name, names);
        }
        col->code[row] = code;
        return TL_OK;
    }
    double v = 0.0;
    if (col->date && !missing) {
        if (tl_arff_parse_date(col->date, c->tok, c->tok_len, &v))
            return tl_parse_err(err, TL_EPARSE, c->path, c->line, c->tok_col,
                                "expected a date as '%s' for attribute '%s', found '%s'", col->date,
                                col->name, c->tok);
        col->num[row] = v;
        return TL_OK;
    }
    int r = missing ? 0 : tl_parse_number(c->tok, c->tok_len, &v);
    if (r)
        return tl_parse_err(err, TL_EPARSE, c->path, c->line, c->tok_col,
                            "expected a %snumber for numeric attribute '%s', found '%s'",
                            r > 0 ? "finite " : "", col->name, c->tok);
    col->num[row] = missing ? NAN : v;
    return TL_OK;
}

/* "{w}" (c->q on '{'): the row's weight, a finite number >= 0. */
static int read_weight(arff_cur *c, tl_build *b, size_t row, tl_err *err)
{
    size_t open_col = col_of(c, c->q);
    c->q++;
    skip_ws(c);
    int rc = tla_read_token(c, "}", 1, err);
    if (rc)
        return rc;
    double w;
    int r = tl_parse_number(c->tok, c->tok_len, &w);
    if (r || w < 0)
        return tl_parse_err(err, TL_EPARSE, c->path, c->line, c->tok_col,
                            "expected an instance weight (a %snumber >= 0) in {...}, found '%s'",
                            r > 0 ? "finite " : "", c->tok);
    skip_ws(c);
    if (c->q >= c->le || *c->q != '}')
        return tl_parse_err(err, TL_EPARSE, c->path, c->line, col_of(c, c->q),
                            "expected '}' to close the instance weight opened at column %zu",
                            open_col);
    c->q++;
    skip_ws(c);
    if (!at_end(c))
        return tl_parse_err(err, TL_EPARSE, c->path, c->line, col_of(c, c->q),
                            "expected the end of the line after the instance weight");
    return tl_build_set_weight(b, row, w, err);
}

/* After a row's values: the end of the line, or an instance weight. */
static int read_row_end(arff_cur *c, tl_build *b, tl_err *err)
{
    skip_ws(c);
    int comma = c->q < c->le && *c->q == ',';
    if (comma) {
        c->q++;
        skip_ws(c);
    }
    if (c->q < c->le && *c->q == '{')
        return read_weight(c, b, b->n_rows, err);
    if (comma)
        return tl_parse_err(err, TL_EPARSE, c->path, c->line, col_of(c, c->q),
                            "expected %zu values, found more", b->n_cols);
    if (!at_end(c))
        return tl_parse_err(err, TL_EPARSE, c->path, c->line, col_of(c, c->q),
                            "expected ',' or the end of the line");
    return TL_OK;
}

/* A numeric cell read in place, without the token copy, when it is a plain number followed
 * directly by `next` or the end of the line: what read_token and store_value would make of
 * it. Returns 1 when taken (c->q then after the number), 0 to read the token instead. */
static int fast_number(arff_cur *c, tl_colbuild *col, size_t row, char next)
{
    double v;
    const char *q =
        col->kind == TL_ATTR_NUMERIC && !col->date ? tl_number_scan(c->q, c->le, &v) : NULL;
    if (!q || (q < c->le && *q != next && *q != ','))
        return 0;
    col->num[row] = v;
    c->q = q;
    return 1;
}

/* One data line of b->n_cols comma-separated values. */
static int read_dense(arff_cur *c, tl_build *b, tl_err *err)
{
    size_t row = b->n_rows;
    for (size_t j = 0; j < b->n_cols; j++) {
        skip_ws(c);
        if (j > 0) {
            if (at_end(c))
                return tl_parse_err(err, TL_EPARSE, c->path, c->line, col_of(c, c->q),
                                    "expected %zu values, found %zu", b->n_cols, j);
            if (*c->q != ',')
                return tl_parse_err(err, TL_EPARSE, c->path, c->line, col_of(c, c->q),
                                    "expected ',' before the value of '%s'", b->cols[j].name);
            c->q++;
            skip_ws(c);
        }
        if (c->q < c->le && *c->q == '{')
            return tl_parse_err(err, TL_EPARSE, c->path, c->line, col_of(c, c->q),
                                "expected %zu values before an instance weight, found %zu",
                                b->n_cols, j);
        if (at_end(c) || *c->q == ',')
            return tl_parse_err(err, TL_EPARSE, c->path, c->line, col_of(c, c->q),
                                "expected a value for attribute '%s'", b->cols[j].name);
        if (fast_number(c, &b->cols[j], row, ','))
            continue;
        /* the last value may be followed by " {w}" without a comma, as Weka allows */
        int rc = tla_read_token(c, j + 1 == b->n_cols ? ",{" : ",", 0, err);
        if (rc || (rc = store_value(c, &b->cols[j], row, err)))
            return rc;
    }
    return read_row_end(c, b, err);
}

/* "{index value, ...}" (c->q on '{'): unlisted columns hold 0 (a nominal's first value). */
static int read_sparse(arff_cur *c, tl_build *b, tl_err *err)
{
    size_t row = b->n_rows, open_col = col_of(c, c->q);
    for (size_t j = 0; j < b->n_cols; j++) {
        tl_colbuild *col = &b->cols[j];
        if (col->kind == TL_ATTR_NUMERIC)
            col->num[row] = 0.0;
        else
            col->code[row] = 0;
    }
    c->q++;
    long last = -1;
    for (;;) {
        skip_ws(c);
        if (c->q < c->le && *c->q == '}' && last < 0)
            break; /* an empty sparse row: every value 0 */
        size_t at = col_of(c, c->q);
        int rc = tla_read_token(c, ",}", 1, err);
        if (rc)
            return rc;
        char *end;
        unsigned long j = strtoul(c->tok, &end, 10);
        if (!c->tok_len || *end || c->tok[0] == '-' || c->tok[0] == '+')
            return tl_parse_err(err, TL_EPARSE, c->path, c->line, at,
                                "expected an attribute index (0 to %zu) in a sparse row, found "
                                "'%s'",
                                b->n_cols - 1, c->tok);
        if (j >= b->n_cols)
            return tl_parse_err(err, TL_EPARSE, c->path, c->line, at,
                                "sparse index %s is out of range: the %zu attributes are "
                                "numbered 0 to %zu",
                                c->tok, b->n_cols, b->n_cols - 1);
        if ((long)j <= last)
            return tl_parse_err(err, TL_EPARSE, c->path, c->line, at,
                                "sparse index %lu after %ld: expected increasing indices", j, last);
        last = (long)j;
        skip_ws(c);
        if (at_end(c) || *c->q == ',' || *c->q == '}')
            return tl_parse_err(err, TL_EPARSE, c->path, c->line, col_of(c, c->q),
                                "expected a value for attribute '%s' after index %lu",
                                b->cols[j].name, j);
        if (!fast_number(c, &b->cols[j], row, '}') &&
            ((rc = tla_read_token(c, ",}", 0, err)) ||
             (rc = store_value(c, &b->cols[j], row, err))))
            return rc;
        skip_ws(c);
        if (c->q < c->le && *c->q == ',') {
            c->q++;
            continue;
        }
        if (c->q < c->le && *c->q == '}')
            break;
        return tl_parse_err(err, TL_EPARSE, c->path, c->line, col_of(c, c->q),
                            "expected ',' or '}' to close the sparse row opened at column %zu",
                            open_col);
    }
    c->q++;
    return read_row_end(c, b, err);
}

static int read_row(arff_cur *c, tl_build *b, tl_err *err)
{
    skip_ws(c);
    int rc = *c->q == '{' ? read_sparse(c, b, err) : read_dense(c, b, err);
    if (rc == TL_OK)
        b->n_rows++;
    return rc;
}

int tla_read_data(arff_cur *c, tl_build *b, tl_err *err)
{
    int rc = tl_build_alloc_rows(b, tl_src_count_lines(c->p, c->end), err);
    if (rc)
        return rc;
    while (tla_next_line(c)) {
        skip_ws(c);
        if (at_end(c))
            continue;
        if ((rc = read_row(c, b, err)))
            return rc;
    }
    b->eof_line = c->line;
    b->eof_col = (size_t)(c->le - c->ls) + 1;
    return TL_OK;
}
