/* The flat API of language bindings: datasets over borrowed arrays, models from "key=value"
 * strings, descriptions as text and trees as node arrays (tl_binding.h). */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "treelab/tl_binding.h"

tl_dataset *tl_dataset_wrap(size_t n_rows, size_t n_attrs, tl_err *err)
{
    if (n_rows == 0) {
        tl_err_set(err, TL_EINVAL, "a dataset needs at least one row");
        return NULL;
    }
    tl_dataset *d = calloc(1, sizeof *d);
    if (d) {
        d->n_rows = n_rows;
        d->schema.n_attrs = n_attrs;
        d->cols = calloc(n_attrs ? n_attrs : 1, sizeof *d->cols);
        d->schema.attrs = calloc(n_attrs ? n_attrs : 1, sizeof *d->schema.attrs);
        d->name = strdup("arrays");
    }
    if (!d || !d->cols || !d->schema.attrs || !d->name) {
        tl_dataset_wrap_free(d);
        tl_err_set(err, TL_ENOMEM, "out of memory");
        return NULL;
    }
    return d;
}

/* The header and column of index j (n_attrs: the target), or NULL + TL_EINVAL when j is out
 * of range or already given. */
static tl_attr_info *slot(tl_dataset *d, size_t j, tl_column **col, tl_err *err)
{
    if (j > d->schema.n_attrs) {
        tl_err_set(err, TL_EINVAL, "column %zu outside 0..%zu", j, d->schema.n_attrs);
        return NULL;
    }
    tl_attr_info *a = j == d->schema.n_attrs ? &d->schema.target : &d->schema.attrs[j];
    *col = j == d->schema.n_attrs ? &d->y : &d->cols[j];
    if (a->name) {
        tl_err_set(err, TL_EINVAL, "column %zu (%s) given twice", j, a->name);
        return NULL;
    }
    return a;
}

int tl_dataset_wrap_numeric(tl_dataset *d, size_t j, const char *name, const double *values,
                            tl_err *err)
{
    tl_column *col;
    tl_attr_info *a = slot(d, j, &col, err);
    if (!a)
        return TL_EINVAL;
    if (!values || !name)
        return tl_err_set(err, TL_EINVAL, "column %zu: no values or no name", j);
    for (size_t i = 0; i < d->n_rows; i++)
        if (isinf(values[i]))
            return tl_err_set(err, TL_EINVAL, "Input contains infinity: column %s, row %zu", name,
                              i);
    if (!(a->name = strdup(name)))
        return tl_err_set(err, TL_ENOMEM, "out of memory");
    a->kind = TL_ATTR_NUMERIC;
    col->num = (double *)values; /* borrowed: tl_dataset_wrap_free leaves it alone */
    return TL_OK;
}

int tl_dataset_wrap_nominal(tl_dataset *d, size_t j, const char *name, const int *codes,
                            size_t n_levels, const char *const *levels, tl_err *err)
{
    tl_column *col;
    tl_attr_info *a = slot(d, j, &col, err);
    if (!a)
        return TL_EINVAL;
    if (!codes || !name || (n_levels && !levels) || n_levels > 0x7fffffff)
        return tl_err_set(err, TL_EINVAL, "column %zu: no codes, name or levels", j);
    for (size_t i = 0; i < d->n_rows; i++)
        if (codes[i] != TL_MISSING_CODE && (codes[i] < 0 || (size_t)codes[i] >= n_levels))
            return tl_err_set(err, TL_EINVAL, "column %s, row %zu: code %d outside 0..%zu", name, i,
                              codes[i], n_levels ? n_levels - 1 : 0);
    a->kind = TL_ATTR_NOMINAL;
    a->levels = calloc(n_levels ? n_levels : 1, sizeof *a->levels);
    int rc = (a->levels && (a->name = strdup(name))) ? TL_OK : TL_ENOMEM;
    for (size_t l = 0; l < n_levels && !rc; l++) {
        a->levels[l] = strdup(levels[l] ? levels[l] : "");
        rc = a->levels[l] ? TL_OK : TL_ENOMEM;
        a->n_levels = l + 1; /* what tl_schema_clear frees */
    }
    if (rc)
        return tl_err_set(err, TL_ENOMEM, "out of memory");
    col->code = (int *)codes; /* borrowed */
    return TL_OK;
}

int tl_dataset_wrap_weights(tl_dataset *d, const double *weights, tl_err *err)
{
    for (size_t i = 0; weights && i < d->n_rows; i++)
        if (!(weights[i] >= 0) || !isfinite(weights[i]))
            return tl_err_set(err, TL_EINVAL,
                              "weight of row %zu is %g: weights must be finite "
                              "and non-negative",
                              i, weights[i]);
    d->weight = (double *)weights; /* borrowed */
    return TL_OK;
}

int tl_dataset_wrap_check(const tl_dataset *d, tl_err *err)
{
    for (size_t j = 0; j < d->schema.n_attrs; j++)
        if (!d->schema.attrs[j].name)
            return tl_err_set(err, TL_EINVAL, "column %zu was not given", j);
    if (!d->schema.target.name)
        return tl_err_set(err, TL_EINVAL, "the target was not given");
    return TL_OK;
}

void tl_dataset_wrap_free(tl_dataset *d)
{
    if (!d)
        return;
    free(d->cols); /* the columns, target and weights are the caller's */
    tl_schema_clear(&d->schema);
    free(d->name);
    free(d);
}

const tl_attr_info *tl_dataset_attr(const tl_dataset *d, size_t j)
{
    if (j > d->schema.n_attrs)
        return NULL;
    return j == d->schema.n_attrs ? &d->schema.target : &d->schema.attrs[j];
}

const double *tl_dataset_numbers(const tl_dataset *d, size_t j)
{
    return j > d->schema.n_attrs ? NULL : j == d->schema.n_attrs ? d->y.num : d->cols[j].num;
}

const int *tl_dataset_codes(const tl_dataset *d, size_t j)
{
    return j > d->schema.n_attrs ? NULL : j == d->schema.n_attrs ? d->y.code : d->cols[j].code;
}

size_t tl_dataset_rows(const tl_dataset *d)
{
    return d->n_rows;
}

const double *tl_dataset_row_weights(const tl_dataset *d)
{
    return d->weight;
}

tl_model *tl_model_new_kv(const char *algo, const char *const *kv, size_t n, tl_err *err)
{
    tl_params p;
    tl_params_init(&p);
    tl_model *m = NULL;
    int rc = TL_OK;
    for (size_t i = 0; i < n && !rc; i++) {
        if (!kv[i] || !strchr(kv[i], '='))
            rc = tl_err_set(err, TL_EINVAL, "expected key=value, got '%s'", kv[i] ? kv[i] : "");
        else
            rc = tl_params_set_kv(&p, kv[i], err);
    }
    if (!rc)
        m = tl_model_new(algo, &p, err);
    tl_params_clear(&p);
    return m;
}

char *tl_model_show_text(const tl_model *m, tl_show_format fmt, size_t *len, tl_err *err)
{
    char *buf = NULL;
    size_t size = 0;
    FILE *f = open_memstream(&buf, &size);
    if (!f) {
        tl_err_set(err, TL_ENOMEM, "out of memory");
        return NULL;
    }
    int rc = tl_model_show(m, fmt, f, err);
    if (fclose(f) && !rc)
        rc = tl_err_set(err, TL_ENOMEM, "out of memory");
    if (rc) {
        free(buf);
        return NULL;
    }
    if (len)
        *len = size;
    return buf;
}

void tl_text_free(char *text)
{
    free(text);
}

void tl_tree_arrays(const tl_tree *t, int *attr, int *kind, double *threshold, int64_t *first_child,
                    int64_t *n_children, double *weight, double *value)
{
    size_t width = t->regression ? 1 : t->k;
    for (size_t i = 0; i < t->n_nodes; i++) {
        int leaf = t->attr[i] < 0;
        if (attr)
            attr[i] = t->attr[i];
        if (kind)
            kind[i] = leaf ? -1 : t->kind[i];
        if (threshold)
            threshold[i] = !leaf && t->kind[i] == TL_SPLIT_NUMERIC ? t->threshold[i] : NAN;
        if (first_child)
            first_child[i] = leaf ? -1 : (int64_t)t->first_child[i];
        if (n_children)
            n_children[i] = leaf ? 0 : (int64_t)t->n_children[i];
        if (weight)
            weight[i] = tl_tree_node_weight(t, i);
        if (value && t->regression)
            tl_tree_node_predict(t, i, value + i);
        else if (value)
            memcpy(value + i * width, t->stats + i * t->k, width * sizeof *value);
    }
}

/* Weighted impurity of a node: weight x impurity, or the squared error for regression. */
static double node_impurity(const tl_tree *t, const tl_criterion_type *crit, size_t node)
{
    if (t->regression)
        return tl_tree_node_error(t, node);
    return tl_tree_node_weight(t, node) * crit->impurity(t->stats + node * t->k, t->k);
}

int tl_tree_importances(const tl_tree *t, const tl_criterion_type *crit, size_t n_attrs,
                        double *out, tl_err *err)
{
    if (!t->regression && !crit && !(crit = tl_criterion_find("gini", err)))
        return TL_EINVAL;
    if (!t->regression && !crit->impurity)
        return tl_err_set(err, TL_EINVAL, "criterion %s has no impurity form", crit->name);
    memset(out, 0, n_attrs * sizeof *out);
    double total = 0;
    for (size_t i = 0; i < t->n_nodes; i++) {
        if (t->attr[i] < 0)
            continue;
        if ((size_t)t->attr[i] >= n_attrs)
            return tl_err_set(err, TL_EINVAL, "node %zu splits on attribute %d of %zu", i,
                              t->attr[i], n_attrs);
        double gain = node_impurity(t, crit, i);
        for (size_t c = 0; c < t->n_children[i]; c++)
            gain -= node_impurity(t, crit, t->first_child[i] + c);
        out[t->attr[i]] += gain;
    }
    for (size_t a = 0; a < n_attrs; a++)
        total += out[a];
    for (size_t a = 0; a < n_attrs && total > 0; a++)
        out[a] /= total;
    return TL_OK;
}
