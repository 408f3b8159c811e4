/* The loaders' column builder: columns, their names, row storage and instance weights, before
 * build.c turns them into a dataset. */
#include "load_util.h"

#include <stdlib.h>
#include <string.h>

int tl_build_init(tl_build *b, const char *path, size_t n_cols, tl_err *err)
{
    memset(b, 0, sizeof *b);
    b->path = path;
    b->cols = calloc(n_cols ? n_cols : 1, sizeof *b->cols);
    if (!b->cols)
        return tl_err_set(err, TL_ENOMEM, "%s: out of memory", path);
    b->n_cols = b->cap_cols = n_cols;
    return TL_OK;
}

int tl_build_add_col(tl_build *b, tl_err *err)
{
    if (b->n_cols == b->cap_cols) {
        size_t cap = b->cap_cols ? 2 * b->cap_cols : 16;
        tl_colbuild *cols = realloc(b->cols, cap * sizeof *cols);
        if (!cols)
            return tl_err_set(err, TL_ENOMEM, "%s: out of memory", b->path);
        b->cols = cols;
        b->cap_cols = cap;
    }
    memset(&b->cols[b->n_cols++], 0, sizeof *b->cols);
    return TL_OK;
}

int tl_build_name(tl_build *b, size_t j, const char *s, size_t len, size_t line, size_t col,
                  tl_err *err)
{
    if (len == 0)
        return tl_parse_err(err, TL_EPARSE, b->path, line, col,
                            "expected an attribute name, found an empty one");
    int added;
    int k = tl_levels_add(&b->names, s, len, &added);
    if (k < 0)
        return tl_err_set(err, TL_ENOMEM, "%s: out of memory", b->path);
    if (!added)
        return tl_parse_err(err, TL_EPARSE, b->path, line, col,
                            "duplicate attribute name '%s' (first declared at line %zu, "
                            "column %zu)",
                            b->cols[k].name, b->cols[k].line, b->cols[k].col);
    char *name = malloc(len + 1);
    if (!name)
        return tl_err_set(err, TL_ENOMEM, "%s: out of memory", b->path);
    memcpy(name, s, len);
    name[len] = '\0';
    free(b->cols[j].name);
    b->cols[j].name = name;
    b->cols[j].line = line;
    b->cols[j].col = col;
    return TL_OK;
}

int tl_build_alloc_rows(tl_build *b, size_t cap, tl_err *err)
{
    if (!cap)
        cap = 1;
    for (size_t j = 0; j < b->n_cols; j++) {
        tl_colbuild *c = &b->cols[j];
        if (c->kind == TL_ATTR_NUMERIC)
            c->num = malloc(cap * sizeof *c->num);
        else
            c->code = malloc(cap * sizeof *c->code);
        if (!c->num && !c->code)
            return tl_err_set(err, TL_ENOMEM, "%s: out of memory for %zu rows", b->path, cap);
    }
    b->cap_rows = cap;
    return TL_OK;
}

int tl_build_set_weight(tl_build *b, size_t row, double w, tl_err *err)
{
    if (!b->weight) {
        if (!(b->weight = malloc((b->cap_rows ? b->cap_rows : 1) * sizeof *b->weight)))
            return tl_err_set(err, TL_ENOMEM, "%s: out of memory", b->path);
        for (size_t i = 0; i < b->cap_rows; i++)
            b->weight[i] = 1.0;
    }
    b->weight[row] = w;
    return TL_OK;
}

static void col_free(tl_colbuild *c)
{
    free(c->name);
    tl_levels_free(&c->lv);
    free(c->num);
    free(c->code);
    free(c->date);
    memset(c, 0, sizeof *c);
}

void tl_build_free(tl_build *b)
{
    if (!b)
        return;
    for (size_t j = 0; b->cols && j < b->n_cols; j++)
        col_free(&b->cols[j]);
    free(b->cols);
    free(b->weight);
    tl_levels_free(&b->names);
    memset(b, 0, sizeof *b);
}
