/* Appending one dataset's rows to another of the same schema (a separate test file). */
#include <stdlib.h>
#include <string.h>

#include "load_util.h"

/* Grow *p (n elements of size) to m elements. 0 on success. */
static int grow(void **p, size_t m, size_t size)
{
    void *q = realloc(*p, (m ? m : 1) * size);
    if (!q)
        return -1;
    *p = q;
    return 0;
}

static int same_schema(const tl_dataset *a, const tl_dataset *b)
{
    if (a->schema.n_attrs != b->schema.n_attrs || a->schema.target.kind != b->schema.target.kind)
        return 0;
    for (size_t j = 0; j < a->schema.n_attrs; j++) {
        const tl_attr_info *x = &a->schema.attrs[j], *y = &b->schema.attrs[j];
        if (strcmp(x->name, y->name) || x->kind != y->kind || x->n_levels != y->n_levels)
            return 0;
    }
    const tl_attr_info *x = &a->schema.target, *y = &b->schema.target;
    if (x->kind == TL_ATTR_NOMINAL && y->n_levels < x->n_levels)
        return 0;
    for (size_t c = 0; x->kind == TL_ATTR_NOMINAL && c < x->n_levels; c++)
        if (strcmp(x->levels[c], y->levels[c]))
            return 0;
    return 1;
}

/* a's target gets b's extra classes (b's levels start with a's). */
static int add_classes(tl_dataset *a, const tl_dataset *b)
{
    tl_attr_info *t = &a->schema.target;
    const tl_attr_info *u = &b->schema.target;
    if (t->kind != TL_ATTR_NOMINAL || u->n_levels == t->n_levels)
        return 0;
    if (grow((void **)&t->levels, u->n_levels, sizeof *t->levels))
        return -1;
    for (; t->n_levels < u->n_levels; t->n_levels++) {
        size_t len = strlen(u->levels[t->n_levels]) + 1;
        if (!(t->levels[t->n_levels] = malloc(len)))
            return -1;
        memcpy(t->levels[t->n_levels], u->levels[t->n_levels], len);
    }
    return 0;
}

/* Column a (na rows) followed by column b (nb rows), by kind. */
static int append_col(tl_column *a, const tl_column *b, tl_attr_kind kind, size_t na, size_t nb)
{
    if (kind == TL_ATTR_NUMERIC) {
        if (grow((void **)&a->num, na + nb, sizeof *a->num))
            return -1;
        memcpy(a->num + na, b->num, nb * sizeof *a->num);
    } else {
        if (grow((void **)&a->code, na + nb, sizeof *a->code))
            return -1;
        memcpy(a->code + na, b->code, nb * sizeof *a->code);
    }
    return 0;
}

int tl_dataset_append(tl_dataset *a, const tl_dataset *b, tl_err *err)
{
    if (!same_schema(a, b))
        return tl_err_set(err, TL_EINVAL,
                          "%s: cannot append its rows to %s: the attributes "
                          "differ (conform it first)",
                          b->path ? b->path : b->name, a->path ? a->path : a->name);
    if (b->schema.target.kind == TL_ATTR_NOMINAL && b->schema.target.n_levels > TL_MAX_CLASSES)
        return tl_err_set(err, TL_EINVAL,
                          "%s: with the classes only it has, the target '%s' has %zu classes; "
                          "at most %d are supported",
                          b->path ? b->path : b->name, b->schema.target.name,
                          b->schema.target.n_levels, TL_MAX_CLASSES);
    size_t na = a->n_rows, nb = b->n_rows, n = na + nb;
    if (add_classes(a, b))
        goto oom;
    for (size_t j = 0; j < a->schema.n_attrs; j++)
        if (append_col(&a->cols[j], &b->cols[j], a->schema.attrs[j].kind, na, nb))
            goto oom;
    if (append_col(&a->y, &b->y, a->schema.target.kind, na, nb))
        goto oom;
    if (a->weight || b->weight) {
        int had = a->weight != NULL;
        if (grow((void **)&a->weight, n, sizeof *a->weight))
            goto oom;
        for (size_t i = had ? na : 0; i < n; i++)
            a->weight[i] = i < na ? 1.0 : tl_dataset_weight(b, i - na);
    }
    if (a->role) {
        if (grow((void **)&a->role, n, 1))
            goto oom;
        memset(a->role + na, TL_ROLE_TEST, nb);
    }
    if (a->fold) {
        if (grow((void **)&a->fold, n, sizeof *a->fold))
            goto oom;
        for (size_t i = na; i < n; i++)
            a->fold[i] = -1;
    }
    a->n_rows = n;
    return TL_OK;
oom:
    return tl_err_set(err, TL_ENOMEM, "out of memory");
}
