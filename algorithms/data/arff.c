/* Weka ARFF loader: @relation, @attribute (numeric, real, integer, {nominal list}), @data.
 *
 * Keywords and type names are case-insensitive; names and values may be quoted with ' or "
 * (backslash escapes inside); '%' outside quotes starts a comment; '?' is missing. Nominal
 * levels keep their declared order. Weka's instance weights (`a,b,c,{0.5}`, the comma before
 * the brace optional) and sparse rows (`{0 x, 3 y}`: 0-based increasing indices, a column not
 * listed holds 0, which for a nominal attribute is its first value; a weight may follow) are
 * read as Weka's ArffLoader reads them. A date attribute is numeric: the milliseconds since
 * the epoch, as Weka stores them (arff_date.c). String and relational attributes are refused
 * as not supported. */
#include <stdlib.h>
#include <string.h>

#include "arff_lex.h"

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
        int rc = tla_read_token(c, ",}", 0, err);
        if (rc)
            return rc;
        if (c->tok_len == 0 && !c->tok_quoted)
            return tl_parse_err(err, TL_EPARSE, c->path, c->line, c->tok_col,
                                "expected a nominal value");
        int added;
        if (tl_levels_add(&col->lv, c->tok, c->tok_len, &added) < 0)
            return tla_oom(c, err);
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
    if ((rc = tla_read_token(c, "{", 1, err)) || (rc = tl_build_add_col(b, err)))
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
        if ((rc = tla_read_token(c, "{", 1, err)))
            return rc;
        if (ieq(c->tok, "numeric") || ieq(c->tok, "real") || ieq(c->tok, "integer"))
            cols[j].kind = TL_ATTR_NUMERIC;
        else if (ieq(c->tok, "date")) {
            cols[j].kind = TL_ATTR_NUMERIC;
            skip_ws(c);
            size_t fmt_col = col_of(c, c->q);
            const char *fmt = tl_arff_date_default;
            if (!at_end(c)) {
                if ((rc = tla_read_token(c, "", 1, err)))
                    return rc;
                fmt = c->tok;
            }
            char bad;
            if (tl_arff_date_check(fmt, &bad))
                return tl_parse_err(err, TL_EUNSUPPORTED, c->path, c->line, fmt_col,
                                    "date pattern '%s' of attribute '%s' is not supported "
                                    "(at '%c'): the fields are y, M, d, H, m, s and S as "
                                    "numbers (Java's SimpleDateFormat letters), 'quoted' text "
                                    "literal",
                                    fmt, cols[j].name, bad);
            if (!(cols[j].date = strdup(fmt)))
                return tla_oom(c, err);
        } else if (ieq(c->tok, "string") || ieq(c->tok, "relational"))
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
    while (tla_next_line(c)) {
        skip_ws(c);
        if (at_end(c))
            continue;
        size_t kw_col = col_of(c, c->q);
        if (*c->q != '@')
            return tl_parse_err(err, TL_EPARSE, c->path, c->line, kw_col,
                                "expected @relation, @attribute or @data");
        c->q++;
        int rc = tla_read_token(c, "{", 1, err);
        if (rc)
            return rc;
        seen = 1;
        if (ieq(c->tok, "relation")) {
            skip_ws(c);
            if ((rc = tla_read_token(c, "", 1, err)))
                return rc;
            free(*name);
            if (!(*name = malloc(c->tok_len + 1)))
                return tla_oom(c, err);
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
    if (tl_src_read(&src, path, o ? o->flags : 0, err))
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
    if (ok && read_header(&c, &b, &name, err) == TL_OK && tla_read_data(&c, &b, err) == TL_OK)
        d = tl_build_finish(&b, name, o, err);
    tl_build_free(&b);
    free(name);
    free(c.tok);
    tl_src_free(&src);
    return d;
}
