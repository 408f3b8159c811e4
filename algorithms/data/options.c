/* Loading options applied to a dataset under construction: chosen, ignored and nominal
 * columns; the columns that describe rows (fold ids, train / test roles, weights) are
 * options_rows.c. */
#include "load_util.h"

#include <gsl/gsl_sort.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void tl_build_plan_free(tl_build_plan *p)
{
    free(p->keep);
    p->keep = NULL;
    p->n_keep = 0;
}

/* Column of name, or an error naming the option and listing the valid columns. */
int tl_build_find_col(const tl_build *b, const char *option, const char *name, size_t *out,
                      tl_err *err)
{
    for (size_t j = 0; j < b->n_cols; j++)
        if (b->cols[j].name && strcmp(b->cols[j].name, name) == 0) {
            *out = j;
            return TL_OK;
        }
    char valid[700] = "";
    for (size_t j = 0; j < b->n_cols; j++)
        if (b->cols[j].name && b->cols[j].name[0])
            tl_join_append(valid, sizeof valid, b->cols[j].name);
    return tl_err_set(err, TL_EINVAL, "%s: %s: unknown column '%s'; valid columns: %s", b->path,
                      option, name, valid);
}

/* A numeric column made nominal: levels are the distinct values in increasing order. */
static int force_nominal(tl_build *b, tl_colbuild *c, tl_err *err)
{
    size_t n = b->n_rows, k = 0;
    double *v = malloc((n ? n : 1) * sizeof *v);
    int *code = malloc((b->cap_rows ? b->cap_rows : 1) * sizeof *code);
    if (!v || !code)
        goto oom;
    for (size_t i = 0; i < n; i++)
        if (!isnan(c->num[i]))
            v[k++] = c->num[i];
    gsl_sort(v, 1, k);
    size_t u = 0;
    for (size_t i = 0; i < k; i++)
        if (!u || v[i] != v[u - 1])
            v[u++] = v[i];
    for (size_t i = 0; i < u; i++) {
        char name[40];
        int added;
        snprintf(name, sizeof name, "%.17g", v[i]);
        if (tl_levels_add(&c->lv, name, strlen(name), &added) < 0)
            goto oom;
    }
    for (size_t i = 0; i < n; i++) {
        if (isnan(c->num[i])) {
            code[i] = TL_MISSING_CODE;
            continue;
        }
        size_t lo = 0, hi = u; /* the value's place among the sorted distinct ones */
        while (hi - lo > 1) {
            size_t mid = lo + (hi - lo) / 2;
            if (v[mid] <= c->num[i])
                lo = mid;
            else
                hi = mid;
        }
        code[i] = (int)lo;
    }
    free(v);
    free(c->num);
    c->num = NULL;
    c->code = code;
    c->kind = TL_ATTR_NOMINAL;
    return TL_OK;
oom:
    free(v);
    free(code);
    return tl_err_set(err, TL_ENOMEM, "%s: out of memory", b->path);
}

/* The attributes' columns: o->attributes in order, or all; minus the target, the ignored,
 * fold, split and weight columns. */
static int choose(tl_build *b, const tl_data_opts *o, size_t t, tl_build_plan *p, tl_err *err)
{
    size_t n = b->n_cols, j = 0;
    char *out = calloc(n ? n : 1, 1); /* 1: not an attribute */
    if (!(p->keep = malloc((n ? n : 1) * sizeof *p->keep)) || !out) {
        free(out);
        return tl_err_set(err, TL_ENOMEM, "%s: out of memory", b->path);
    }
    int rc = TL_OK;
    out[t] = 1;
    if (p->fold >= 0)
        out[p->fold] = 1;
    if (p->split >= 0)
        out[p->split] = 1;
    if (p->weight >= 0)
        out[p->weight] = 1;
    for (size_t k = 0; k < o->n_ignore && !rc; k++)
        if (!(rc = tl_build_find_col(b, "ignore", o->ignore[k], &j, err))) {
            if (j == t)
                rc = tl_err_set(err, TL_EINVAL,
                                "%s: ignore: '%s' is the target; choose "
                                "another target to ignore it",
                                b->path, o->ignore[k]);
            out[j] = 1;
        }
    char *taken = calloc(n ? n : 1, 1);
    if (!rc && !taken)
        rc = tl_err_set(err, TL_ENOMEM, "%s: out of memory", b->path);
    for (size_t k = 0; k < o->n_attributes && !rc; k++)
        if (!(rc = tl_build_find_col(b, "attributes", o->attributes[k], &j, err))) {
            if (taken[j])
                rc = tl_err_set(err, TL_EINVAL, "%s: attributes: '%s' is named twice", b->path,
                                o->attributes[k]);
            else if ((long)j == p->fold || (long)j == p->split || (long)j == p->weight)
                rc = tl_err_set(err, TL_EINVAL,
                                "%s: attributes: '%s' holds the %s and cannot "
                                "be an attribute",
                                b->path, o->attributes[k],
                                (long)j == p->fold    ? "fold ids"
                                : (long)j == p->split ? "train / test split"
                                                      : "row weights");
            else if (!out[j])
                p->keep[p->n_keep++] = j;
            taken[j] = 1;
        }
    for (j = 0; j < n && !rc && !o->n_attributes; j++)
        if (!out[j])
            p->keep[p->n_keep++] = j;
    free(taken);
    free(out);
    return rc;
}

/* 1 when every level of a is a number's text: a column made nominal from numbers (--nominal),
 * which numbers in another file may stand for. */
static int numeric_levels(const tl_attr_info *a)
{
    for (size_t i = 0; i < a->n_levels; i++) {
        char *end;
        strtod(a->levels[i], &end);
        if (end == a->levels[i] || *end)
            return 0;
    }
    return a->n_levels > 0;
}

/* The nominal columns of `types` (attributes and target) whose levels are numbers made
 * nominal here too, where this file has a numeric column of that name: a model fitted with
 * --nominal reads new data as it read its own. (Levels such as hot, mild do not match
 * numbers: such a column stays numeric, and the model refuses it.) */
static int follow_types(tl_build *b, const tl_schema *types, tl_err *err)
{
    for (size_t k = 0; types && k <= types->n_attrs; k++) {
        const tl_attr_info *a = k < types->n_attrs ? &types->attrs[k] : &types->target;
        if (a->kind != TL_ATTR_NOMINAL || !numeric_levels(a))
            continue;
        for (size_t j = 0; a->name && j < b->n_cols; j++)
            if (b->cols[j].name && !strcmp(b->cols[j].name, a->name) &&
                b->cols[j].kind == TL_ATTR_NUMERIC) {
                int rc = force_nominal(b, &b->cols[j], err);
                if (rc)
                    return rc;
            }
    }
    return TL_OK;
}

int tl_build_plan_make(tl_build *b, const tl_data_opts *o, size_t t, tl_build_plan *p, tl_err *err)
{
    int rc = TL_OK;
    size_t j = 0;
    p->fold = p->split = p->weight = -1;
    if (o->fold_column && o->fold_file)
        return tl_err_set(err, TL_EINVAL, "%s: fold ids come from a column or a file, not both",
                          b->path);
    for (size_t k = 0; k < o->n_nominal && !rc; k++)
        if (!(rc = tl_build_find_col(b, "nominal", o->nominal[k], &j, err)) &&
            b->cols[j].kind == TL_ATTR_NUMERIC)
            rc = force_nominal(b, &b->cols[j], err);
    rc = rc ? rc : follow_types(b, o->types, err);
    rc = rc ? rc : tl_build_plan_rows(b, o, t, p, err);
    if (!rc)
        rc = choose(b, o, t, p, err);
    return rc;
}
