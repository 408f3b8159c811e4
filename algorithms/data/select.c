/* Reshaping a loaded dataset: choosing attributes and conforming it to a model's schema. */
#include <gsl/gsl_sort.h>
#include <stdio.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "load_util.h"
#include "treelab/tl_log.h"

static long find_attr(const tl_dataset *d, const char *name)
{
    for (size_t j = 0; j < d->schema.n_attrs; j++)
        if (strcmp(d->schema.attrs[j].name, name) == 0)
            return (long)j;
    return -1;
}

static void attr_free(tl_attr_info *a, tl_column *c)
{
    free(a->name);
    for (size_t i = 0; i < a->n_levels; i++)
        free(a->levels[i]);
    free(a->levels);
    free(c->num);
    free(c->code);
}

/* Keep columns idx[0..n) in that order (indices distinct), freeing the others. */
static int keep_columns(tl_dataset *d, const size_t *idx, size_t n, tl_err *err)
{
    tl_attr_info *attrs = calloc(n ? n : 1, sizeof *attrs);
    tl_column *cols = calloc(n ? n : 1, sizeof *cols);
    char *kept = calloc(d->schema.n_attrs ? d->schema.n_attrs : 1, 1);
    if (!attrs || !cols || !kept) {
        free(attrs);
        free(cols);
        free(kept);
        return tl_err_set(err, TL_ENOMEM, "out of memory");
    }
    for (size_t k = 0; k < n; k++) {
        attrs[k] = d->schema.attrs[idx[k]];
        cols[k] = d->cols[idx[k]];
        kept[idx[k]] = 1;
    }
    for (size_t j = 0; j < d->schema.n_attrs; j++)
        if (!kept[j])
            attr_free(&d->schema.attrs[j], &d->cols[j]);
    free(kept);
    free(d->schema.attrs);
    free(d->cols);
    d->schema.attrs = attrs;
    d->cols = cols;
    d->schema.n_attrs = n;
    return TL_OK;
}

int tl_dataset_select(tl_dataset *d, const char *const *names, size_t n, tl_err *err)
{
    size_t *idx = malloc((n ? n : 1) * sizeof *idx);
    if (!idx)
        return tl_err_set(err, TL_ENOMEM, "out of memory");
    int rc = TL_OK;
    for (size_t k = 0; k < n && rc == TL_OK; k++) {
        long j = find_attr(d, names[k]);
        if (j < 0) {
            char valid[700] = "";
            for (size_t m = 0; m < d->schema.n_attrs; m++)
                tl_join_append(valid, sizeof valid, d->schema.attrs[m].name);
            rc = tl_err_set(err, TL_EINVAL, "unknown attribute '%s'; valid attributes: %s",
                            names[k], valid);
            break;
        }
        for (size_t m = 0; m < k; m++)
            if (idx[m] == (size_t)j)
                rc = tl_err_set(err, TL_EINVAL, "attribute '%s' is selected twice", names[k]);
        idx[k] = (size_t)j;
    }
    if (rc == TL_OK)
        rc = keep_columns(d, idx, n, err);
    free(idx);
    return rc;
}

static char **copy_levels(const tl_attr_info *a)
{
    char **lv = calloc(a->n_levels ? a->n_levels : 1, sizeof *lv);
    for (size_t i = 0; lv && i < a->n_levels; i++) {
        size_t len = strlen(a->levels[i]) + 1;
        if (!(lv[i] = malloc(len))) {
            for (size_t k = 0; k < i; k++)
                free(lv[k]);
            free(lv);
            return NULL;
        }
        memcpy(lv[i], a->levels[i], len);
    }
    return lv;
}

/* Map each of from's level codes to want's (-1 when want lacks it). */
static int level_map(const tl_attr_info *from, const tl_attr_info *want, int *map)
{
    tl_levels lv;
    memset(&lv, 0, sizeof lv);
    int added;
    for (size_t i = 0; i < want->n_levels; i++)
        if (tl_levels_add(&lv, want->levels[i], strlen(want->levels[i]), &added) < 0) {
            tl_levels_free(&lv);
            return -1;
        }
    for (size_t i = 0; i < from->n_levels; i++)
        map[i] = tl_levels_find(&lv, from->levels[i], strlen(from->levels[i]));
    tl_levels_free(&lv);
    return 0;
}

/* Recode one nominal attribute of d to want's levels; unknown levels become missing. */
static int recode_attr(tl_dataset *d, size_t j, const tl_attr_info *want, tl_err *err)
{
    tl_attr_info *a = &d->schema.attrs[j];
    int *map = malloc((a->n_levels ? a->n_levels : 1) * sizeof *map);
    char **levels = copy_levels(want);
    if (!map || !levels || level_map(a, want, map)) {
        free(map);
        if (levels)
            for (size_t i = 0; i < want->n_levels; i++)
                free(levels[i]);
        free(levels);
        return tl_err_set(err, TL_ENOMEM, "out of memory");
    }
    size_t unknown = 0;
    int *code = d->cols[j].code;
    for (size_t i = 0; i < d->n_rows; i++) {
        if (code[i] == TL_MISSING_CODE)
            continue;
        int c = map[code[i]];
        unknown += c < 0;
        code[i] = c < 0 ? TL_MISSING_CODE : c;
    }
    if (unknown)
        tl_warn("%s: attribute '%s': %zu cell%s with a value the model does not know set to "
                "missing",
                d->path ? d->path : d->name, a->name, unknown, unknown == 1 ? "" : "s");
    free(map);
    for (size_t i = 0; i < a->n_levels; i++)
        free(a->levels[i]);
    free(a->levels);
    a->levels = levels;
    a->n_levels = want->n_levels;
    return TL_OK;
}

/* Put the schema's classes first, in its order, then any classes only d has. */
static int recode_target(tl_dataset *d, const tl_attr_info *want, tl_err *err)
{
    tl_attr_info *t = &d->schema.target;
    size_t n_new = want->n_levels;
    int *map = malloc((t->n_levels ? t->n_levels : 1) * sizeof *map);
    char **levels = calloc(want->n_levels + t->n_levels + 1, sizeof *levels);
    if (!map || !levels || level_map(t, want, map)) {
        free(map);
        free(levels);
        return tl_err_set(err, TL_ENOMEM, "out of memory");
    }
    int ok = 1;
    for (size_t i = 0; i < want->n_levels && ok; i++)
        ok = (levels[i] = malloc(strlen(want->levels[i]) + 1)) != NULL &&
             strcpy(levels[i], want->levels[i]);
    for (size_t i = 0; i < t->n_levels && ok; i++)
        if (map[i] < 0) {
            tl_warn("%s: class '%s' is not known to the model", d->path ? d->path : d->name,
                    t->levels[i]);
            map[i] = (int)n_new;
            ok = (levels[n_new++] = malloc(strlen(t->levels[i]) + 1)) != NULL &&
                 strcpy(levels[n_new - 1], t->levels[i]);
        }
    if (!ok) {
        for (size_t i = 0; i < want->n_levels + t->n_levels; i++)
            free(levels[i]);
        free(levels);
        free(map);
        return tl_err_set(err, TL_ENOMEM, "out of memory");
    }
    for (size_t i = 0; i < d->n_rows; i++)
        if (d->y.code[i] >= 0) /* unlabelled rows stay missing */
            d->y.code[i] = map[d->y.code[i]];
    for (size_t i = 0; i < t->n_levels; i++)
        free(t->levels[i]);
    free(t->levels);
    t->levels = levels;
    t->n_levels = n_new;
    free(map);
    return TL_OK;
}

static int check_conformable(const tl_dataset *d, const tl_schema *schema, size_t *idx, tl_err *err)
{
    for (size_t k = 0; k < schema->n_attrs; k++) {
        const tl_attr_info *want = &schema->attrs[k];
        long j = find_attr(d, want->name);
        if (j < 0)
            return tl_err_set(err, TL_EINVAL,
                              "%s: the data lack attribute '%s' that the model "
                              "uses",
                              d->path ? d->path : d->name, want->name);
        if (d->schema.attrs[j].kind != want->kind)
            return tl_err_set(err, TL_EINVAL,
                              "%s: attribute '%s' is %s in the data but %s in "
                              "the model",
                              d->path ? d->path : d->name, want->name,
                              d->schema.attrs[j].kind == TL_ATTR_NUMERIC ? "numeric" : "nominal",
                              want->kind == TL_ATTR_NUMERIC ? "numeric" : "nominal");
        idx[k] = (size_t)j;
    }
    const tl_attr_info *t = &d->schema.target;
    if (t->name && schema->target.name && strcmp(t->name, schema->target.name) == 0 &&
        t->kind != schema->target.kind)
        return tl_err_set(err, TL_EINVAL, "%s: target '%s' is %s in the data but %s in the model",
                          d->path ? d->path : d->name, t->name,
                          t->kind == TL_ATTR_NUMERIC ? "numeric" : "nominal",
                          schema->target.kind == TL_ATTR_NUMERIC ? "numeric" : "nominal");
    return TL_OK;
}

/* A target with no known value (data to predict without one) takes the model's kind. */
static int empty_target_as(tl_dataset *d, tl_attr_kind kind, tl_err *err)
{
    tl_attr_info *t = &d->schema.target;
    if (t->kind == kind || t->kind != TL_ATTR_NOMINAL || t->n_levels)
        return TL_OK;
    double *num = malloc((d->n_rows ? d->n_rows : 1) * sizeof *num);
    if (!num)
        return tl_err_set(err, TL_ENOMEM, "out of memory");
    for (size_t i = 0; i < d->n_rows; i++)
        num[i] = NAN;
    free(d->y.code);
    d->y.code = NULL;
    d->y.num = num;
    t->kind = TL_ATTR_NUMERIC;
    return TL_OK;
}

int tl_dataset_conform(tl_dataset *d, const tl_schema *schema, tl_err *err)
{
    if (empty_target_as(d, schema->target.kind, err))
        return err ? err->code : TL_ENOMEM;
    size_t *idx = malloc((schema->n_attrs ? schema->n_attrs : 1) * sizeof *idx);
    if (!idx)
        return tl_err_set(err, TL_ENOMEM, "out of memory");
    int rc = check_conformable(d, schema, idx, err);
    for (size_t k = 0; rc == TL_OK && k < schema->n_attrs; k++)
        if (schema->attrs[k].kind == TL_ATTR_NOMINAL)
            rc = recode_attr(d, idx[k], &schema->attrs[k], err);
    const tl_attr_info *t = &d->schema.target;
    if (rc == TL_OK && t->kind == TL_ATTR_NOMINAL && schema->target.kind == TL_ATTR_NOMINAL &&
        strcmp(t->name, schema->target.name) == 0)
        rc = recode_target(d, &schema->target, err);
    if (rc == TL_OK)
        rc = keep_columns(d, idx, schema->n_attrs, err);
    free(idx);
    return rc;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int tl_dataset_target_to_nominal(tl_dataset *d, tl_err *err)
{
    tl_attr_info *t = &d->schema.target;
    if (t->kind == TL_ATTR_NOMINAL)
        return TL_OK;
    size_t n = d->n_rows, k = 0;
    double *v = malloc((n ? n : 1) * sizeof *v);
    int *code = malloc((n ? n : 1) * sizeof *code);
    char **levels = NULL;
    if (!v || !code)
        goto oom;
    memcpy(v, d->y.num, n * sizeof *v);
    gsl_sort(v, 1, n);
    for (size_t i = 0; i < n; i++)
        if (i == 0 || v[i] != v[k - 1])
            v[k++] = v[i];
    if (k < 2) {
        free(v);
        free(code);
        return tl_err_set(err, TL_EINVAL,
                          "target '%s' has only one value; classification "
                          "needs two or more",
                          t->name);
    }
    if (!(levels = calloc(k, sizeof *levels)))
        goto oom;
    for (size_t c = 0; c < k; c++) {
        char buf[40];
        snprintf(buf, sizeof buf, "%.17g", v[c]);
        if (!(levels[c] = malloc(strlen(buf) + 1)))
            goto oom;
        strcpy(levels[c], buf);
    }
    for (size_t i = 0; i < n; i++)
        code[i] = (int)((const double *)bsearch(&d->y.num[i], v, k, sizeof *v, cmp_double) - v);
    free(v);
    free(d->y.num);
    d->y.num = NULL;
    d->y.code = code;
    t->kind = TL_ATTR_NOMINAL;
    t->levels = levels;
    t->n_levels = k;
    return TL_OK;
oom:
    for (size_t c = 0; levels && c < k; c++)
        free(levels[c]);
    free(levels);
    free(v);
    free(code);
    return tl_err_set(err, TL_ENOMEM, "out of memory");
}
