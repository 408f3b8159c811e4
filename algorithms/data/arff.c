/* Weka ARFF loader: @relation, @attribute (numeric, real, integer, {nominal list}), @data.
 *
 * Keywords and type names are case-insensitive; names and values may be quoted with ' or "
 * (backslash escapes inside); '%' outside quotes starts a comment; '?' is missing. Nominal
 * levels keep their declared order. Weka's instance weights (`a,b,c,{0.5}`, the comma before
 * the brace optional) and sparse rows (`{0 x, 3 y}`: 0-based increasing indices, a column not
 * listed holds 0, which for a nominal attribute is its first value; a weight may follow) are
 * read as Weka's ArffLoader reads them. String, date and relational attributes are refused as
 * not supported. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "load_util.h"

typedef struct {
    const char *path;
    const char *p, *end; /* the rest of the text */
    const char *ls, *le; /* the current line, without its line end */
    const char *q;       /* where parsing is on the current line */
    size_t line;
    char *tok; /* the last token read, unescaped and NUL-terminated */
    size_t tok_len, tok_cap;
    int tok_quoted;
    size_t tok_col;
} arff_cur;

static size_t col_of(const arff_cur *c, const char *p)
{
    return (size_t)(p - c->ls) + 1;
}

static int next_line(arff_cur *c)
{
    if (c->p >= c->end && c->line > 0)
        return 0;
    /* a line ends at LF, CRLF or a lone CR (old Mac files), as tl_src_count_lines counts */
    const char *e = c->p;
    while (e < c->end && *e != '\n' && *e != '\r')
        e++;
    c->ls = c->q = c->p;
    c->le = e;
    if (e < c->end)
        e += *e == '\r' && e + 1 < c->end && e[1] == '\n' ? 2 : 1;
    c->p = e;
    c->line++;
    return 1;
}

static void skip_ws(arff_cur *c)
{
    while (c->q < c->le && (*c->q == ' ' || *c->q == '\t'))
        c->q++;
}

/* At the end of the meaningful part of the line (its end or a comment). */
static int at_end(const arff_cur *c)
{
    return c->q >= c->le || *c->q == '%';
}

/* Room for n more characters after the token's, and its NUL. */
static int tok_reserve(arff_cur *c, size_t n)
{
    if (c->tok_len + n < c->tok_cap)
        return 0;
    size_t cap = c->tok_cap ? 2 * c->tok_cap : 64;
    while (c->tok_len + n >= cap)
        cap *= 2;
    char *t = realloc(c->tok, cap);
    if (!t)
        return -1;
    c->tok = t;
    c->tok_cap = cap;
    return 0;
}

static int tok_push(arff_cur *c, char ch)
{
    if (tok_reserve(c, 1))
        return -1;
    c->tok[c->tok_len++] = ch;
    return 0;
}

/* ch ends a bare token: '%', a character of stops (at most a few), or a blank when asked. */
static int is_stop(char ch, const char *stops, int stop_at_blank)
{
    if (ch == '%' || (stop_at_blank && (ch == ' ' || ch == '\t')))
        return 1;
    for (; *stops; stops++)
        if (*stops == ch)
            return 1;
    return 0;
}

static int oom(const arff_cur *c, tl_err *err)
{
    return tl_err_set(err, TL_ENOMEM, "%s: out of memory", c->path);
}

/* Read a quoted or bare token into c->tok. A bare token stops at a blank when
 * stop_at_blank, and always at '%' and any character in stops; trailing blanks are cut. */
static int read_token(arff_cur *c, const char *stops, int stop_at_blank, tl_err *err)
{
    c->tok_len = 0;
    c->tok_col = col_of(c, c->q);
    c->tok_quoted = c->q < c->le && (*c->q == '\'' || *c->q == '"');
    if (c->tok_quoted) {
        char quote = *c->q++;
        for (;;) {
            if (c->q >= c->le)
                return tl_parse_err(err, TL_EPARSE, c->path, c->line, c->tok_col,
                                    "unterminated quoted text: expected a closing %c", quote);
            char ch = *c->q++;
            if (ch == quote)
                break;
            if (ch == '\\' && c->q < c->le) {
                ch = *c->q++;
                ch = ch == 'n' ? '\n' : ch == 't' ? '\t' : ch == 'r' ? '\r' : ch;
            }
            if (tok_push(c, ch))
                return oom(c, err);
        }
    } else {
        const char *s = c->q;
        while (c->q < c->le && !is_stop(*c->q, stops, stop_at_blank))
            c->q++;
        const char *e = c->q;
        while (e > s && (e[-1] == ' ' || e[-1] == '\t'))
            e--;
        size_t n = (size_t)(e - s);
        if (tok_reserve(c, n + 1))
            return oom(c, err);
        memcpy(c->tok, s, n);
        c->tok_len = n;
    }
    if (tok_push(c, '\0'))
        return oom(c, err);
    c->tok_len--;
    return TL_OK;
}

static int ieq(const char *a, const char *b)
{
    for (; *a && *b; a++, b++) {
        char x = *a >= 'A' && *a <= 'Z' ? (char)(*a - 'A' + 'a') : *a;
        if (x != *b)
            return 0;
    }
    return *a == *b;
}

/* The "{a, b, 'c d'}" list after an attribute name; c->q is on '{'. */
static int read_levels(arff_cur *c, tl_colbuild *col, tl_err *err)
{
    size_t open_col = col_of(c, c->q);
    c->q++;
    for (;;) {
        skip_ws(c);
        if (at_end(c))
            return tl_parse_err(err, TL_EPARSE, c->path, c->line, col_of(c, c->q),
                                "expected a nominal value or '}' to close the list opened at "
                                "column %zu",
                                open_col);
        if (*c->q == '}' && col->lv.n == 0)
            return tl_parse_err(err, TL_EPARSE, c->path, c->line, col_of(c, c->q),
                                "expected at least one nominal value, found an empty list");
        int rc = read_token(c, ",}", 0, err);
        if (rc)
            return rc;
        if (c->tok_len == 0 && !c->tok_quoted)
            return tl_parse_err(err, TL_EPARSE, c->path, c->line, c->tok_col,
                                "expected a nominal value");
        int added;
        if (tl_levels_add(&col->lv, c->tok, c->tok_len, &added) < 0)
            return oom(c, err);
        if (!added)
            return tl_parse_err(err, TL_EPARSE, c->path, c->line, c->tok_col,
                                "duplicate nominal value '%s' for attribute '%s'", c->tok,
                                col->name);
        skip_ws(c);
        if (c->q < c->le && *c->q == ',') {
            c->q++;
            continue;
        }
        if (c->q < c->le && *c->q == '}') {
            c->q++;
            return TL_OK;
        }
        return tl_parse_err(err, TL_EPARSE, c->path, c->line, col_of(c, c->q),
                            "expected ',' or '}' after a nominal value");
    }
}

/* "@attribute NAME TYPE"; c->q is after the keyword. */
static int read_attribute(arff_cur *c, tl_build *b, tl_err *err)
{
    skip_ws(c);
    if (at_end(c))
        return tl_parse_err(err, TL_EPARSE, c->path, c->line, col_of(c, c->q),
                            "expected an attribute name after @attribute");
    int rc;
    if ((rc = read_token(c, "{", 1, err)) || (rc = tl_build_add_col(b, err)))
        return rc;
    size_t j = b->n_cols - 1;
    tl_colbuild *cols = b->cols;
    if ((rc = tl_build_name(b, j, c->tok, c->tok_len, c->line, c->tok_col, err)))
        return rc;
    skip_ws(c);
    if (c->q < c->le && *c->q == '{') {
        cols[j].kind = TL_ATTR_NOMINAL;
        if ((rc = read_levels(c, &cols[j], err)))
            return rc;
    } else {
        size_t type_col = col_of(c, c->q);
        if (at_end(c))
            return tl_parse_err(err, TL_EPARSE, c->path, c->line, type_col,
                                "expected a type (numeric, real, integer or {...}) for "
                                "attribute '%s'",
                                cols[j].name);
        if ((rc = read_token(c, "{", 1, err)))
            return rc;
        if (ieq(c->tok, "numeric") || ieq(c->tok, "real") || ieq(c->tok, "integer"))
            cols[j].kind = TL_ATTR_NUMERIC;
        else if (ieq(c->tok, "string") || ieq(c->tok, "date") || ieq(c->tok, "relational"))
            return tl_parse_err(err, TL_EUNSUPPORTED, c->path, c->line, type_col,
                                "%s attributes are not supported (attribute '%s'); use "
                                "numeric, real, integer or {...}",
                                c->tok, cols[j].name);
        else
            return tl_parse_err(err, TL_EPARSE, c->path, c->line, type_col,
                                "expected a type (numeric, real, integer or {...}) for "
                                "attribute '%s', found '%s'",
                                cols[j].name, c->tok);
    }
    skip_ws(c);
    if (!at_end(c))
        return tl_parse_err(err, TL_EPARSE, c->path, c->line, col_of(c, c->q),
                            "expected the end of the line after the type of '%s'", cols[j].name);
    return TL_OK;
}

/* Everything before the data; *name gets the relation name (owned by the caller). */
static int read_header(arff_cur *c, tl_build *b, char **name, tl_err *err)
{
    int seen = 0;
    while (next_line(c)) {
        skip_ws(c);
        if (at_end(c))
            continue;
        size_t kw_col = col_of(c, c->q);
        if (*c->q != '@')
            return tl_parse_err(err, TL_EPARSE, c->path, c->line, kw_col,
                                "expected @relation, @attribute or @data");
        c->q++;
        int rc = read_token(c, "{", 1, err);
        if (rc)
            return rc;
        seen = 1;
        if (ieq(c->tok, "relation")) {
            skip_ws(c);
            if ((rc = read_token(c, "", 1, err)))
                return rc;
            free(*name);
            if (!(*name = malloc(c->tok_len + 1)))
                return oom(c, err);
            memcpy(*name, c->tok, c->tok_len + 1);
        } else if (ieq(c->tok, "attribute")) {
            if ((rc = read_attribute(c, b, err)))
                return rc;
        } else if (ieq(c->tok, "data")) {
            if (b->n_cols == 0)
                return tl_parse_err(err, TL_EPARSE, c->path, c->line, kw_col,
                                    "expected at least one @attribute before @data");
            return TL_OK;
        } else if (ieq(c->tok, "end")) {
            return tl_parse_err(err, TL_EUNSUPPORTED, c->path, c->line, kw_col,
                                "relational attributes (@end) are not supported");
        } else {
            return tl_parse_err(err, TL_EPARSE, c->path, c->line, kw_col,
                                "expected @relation, @attribute or @data, found '@%s'", c->tok);
        }
    }
    return tl_parse_err(err, TL_EPARSE, c->path, c->line ? c->line : 1, 1,
                        seen ? "expected @data, found the end of the file"
                             : "expected @relation, found an empty file");
}

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
    int rc = read_token(c, "}", 1, err);
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
    const char *q = col->kind == TL_ATTR_NUMERIC ? tl_number_scan(c->q, c->le, &v) : NULL;
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
        int rc = read_token(c, j + 1 == b->n_cols ? ",{" : ",", 0, err);
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
        int rc = read_token(c, ",}", 1, err);
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
            ((rc = read_token(c, ",}", 0, err)) || (rc = store_value(c, &b->cols[j], row, err))))
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

static int read_data(arff_cur *c, tl_build *b, tl_err *err)
{
    int rc = tl_build_alloc_rows(b, tl_src_count_lines(c->p, c->end), err);
    if (rc)
        return rc;
    while (next_line(c)) {
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

tl_dataset *tl_dataset_load_arff(const char *path, const char *target, tl_err *err)
{
    tl_data_opts o = {0};
    o.target = target;
    return tl_arff_load(path, &o, err);
}

tl_dataset *tl_arff_load(const char *path, const tl_data_opts *o, tl_err *err)
{
    tl_err_clear(err);
    tl_src src;
    if (tl_src_read(&src, path, err))
        return NULL;
    arff_cur c;
    memset(&c, 0, sizeof c);
    c.path = path;
    c.p = src.text;
    c.end = src.text + src.len;
    tl_build b;
    char *name = NULL;
    tl_dataset *d = NULL;
    int ok = tl_build_init(&b, path, 0, err) == TL_OK;
    b.flags = o->flags;
    if (ok && read_header(&c, &b, &name, err) == TL_OK && read_data(&c, &b, err) == TL_OK)
        d = tl_build_finish(&b, name, o, err);
    tl_build_free(&b);
    free(name);
    free(c.tok);
    tl_src_free(&src);
    return d;
}
