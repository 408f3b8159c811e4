/* tl_dataset: accessors, schema copies and freeing. Loading by file type is load.c. */
#include "treelab/tl_dataset.h"

#include "load_util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static void attr_clear(tl_attr_info *a)
{
    free(a->name);
    for (size_t i = 0; i < a->n_levels; i++)
        free(a->levels[i]);
    free(a->levels);
    memset(a, 0, sizeof *a);
}

void tl_schema_clear(tl_schema *s)
{
    if (!s)
        return;
    for (size_t j = 0; j < s->n_attrs; j++)
        attr_clear(&s->attrs[j]);
    free(s->attrs);
    attr_clear(&s->target);
    memset(s, 0, sizeof *s);
}

static char *dup_str(const char *s)
{
    if (!s)
        return NULL;
    size_t n = strlen(s) + 1;
    char *d = malloc(n);
    if (d)
        memcpy(d, s, n);
    return d;
}

static int attr_copy(tl_attr_info *dst, const tl_attr_info *src)
{
    memset(dst, 0, sizeof *dst);
    dst->kind = src->kind;
    if (!(dst->name = dup_str(src->name)))
        return -1;
    if (src->n_levels) {
        if (!(dst->levels = calloc(src->n_levels, sizeof *dst->levels)))
            return -1;
        dst->n_levels = src->n_levels;
        for (size_t i = 0; i < src->n_levels; i++)
            if (!(dst->levels[i] = dup_str(src->levels[i])))
                return -1;
    }
    return 0;
}

int tl_schema_copy(tl_schema *dst, const tl_schema *src, tl_err *err)
{
    memset(dst, 0, sizeof *dst);
    dst->attrs = calloc(src->n_attrs ? src->n_attrs : 1, sizeof *dst->attrs);
    if (!dst->attrs)
        goto oom;
    for (size_t j = 0; j < src->n_attrs; j++) {
        dst->n_attrs = j + 1;
        if (attr_copy(&dst->attrs[j], &src->attrs[j]))
            goto oom;
    }
    dst->n_attrs = src->n_attrs;
    if (attr_copy(&dst->target, &src->target))
        goto oom;
    return TL_OK;
oom:
    tl_schema_clear(dst);
    return tl_err_set(err, TL_ENOMEM, "out of memory");
}

void tl_dataset_free(tl_dataset *d)
{
    if (!d)
        return;
    for (size_t j = 0; d->cols && j < d->schema.n_attrs; j++) {
        free(d->cols[j].num);
        free(d->cols[j].code);
    }
    free(d->cols);
    free(d->y.num);
    free(d->y.code);
    free(d->weight);
    free(d->fold);
    free(d->role);
    tl_schema_clear(&d->schema);
    free(d->name);
    free(d->path);
    free(d);
}

int tl_dataset_is_classification(const tl_dataset *d)
{
    return d->schema.target.kind == TL_ATTR_NOMINAL;
}

size_t tl_dataset_n_classes(const tl_dataset *d)
{
    return tl_dataset_is_classification(d) ? d->schema.target.n_levels : 0;
}

double tl_dataset_weight(const tl_dataset *d, size_t i)
{
    return d->weight ? d->weight[i] : 1.0;
}

int tl_dataset_is_missing(const tl_dataset *d, size_t j, size_t i)
{
    const tl_column *c = &d->cols[j];
    return d->schema.attrs[j].kind == TL_ATTR_NUMERIC ? isnan(c->num[i])
                                                      : c->code[i] == TL_MISSING_CODE;
}

size_t tl_dataset_missing_cells(const tl_dataset *d)
{
    size_t n = 0;
    for (size_t j = 0; j < d->schema.n_attrs; j++)
        for (size_t i = 0; i < d->n_rows; i++)
            n += (size_t)tl_dataset_is_missing(d, j, i);
    return n;
}

const size_t *tl_rows_or_all(const tl_dataset *d, const size_t *rows, size_t *n, size_t **all,
                             tl_err *err)
{
    *all = NULL;
    if (rows)
        return rows;
    *all = malloc((d->n_rows ? d->n_rows : 1) * sizeof **all);
    if (!*all) {
        tl_err_set(err, TL_ENOMEM, "out of memory");
        return NULL;
    }
    for (size_t i = 0; i < d->n_rows; i++)
        (*all)[i] = i;
    *n = d->n_rows;
    return *all;
}
