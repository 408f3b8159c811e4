/* Saving and loading a tree's arrays as libconfig settings (exact doubles). */
#include <stdlib.h>
#include <string.h>

#include "treelab/tl_tree.h"

int tl_tree_save(const tl_tree *t, FILE *f, int indent, tl_err *err)
{
    size_t n = t->n_nodes;
    long *tmp = malloc((n ? n : 1) * sizeof *tmp);
    if (!tmp)
        return tl_err_set(err, TL_ENOMEM, "out of memory");
    tl_store_put_int(f, indent, "stats_per_node", (long)t->k);
    tl_store_put_int(f, indent, "regression", t->regression);
    tl_store_put_int(f, indent, "nodes", (long)n);
    tl_store_put_int_array(f, indent, "attr", t->attr, n);
    for (size_t i = 0; i < n; i++)
        tmp[i] = t->kind[i];
    tl_store_put_ints(f, indent, "kind", tmp, n);
    tl_store_put_doubles(f, indent, "threshold", t->threshold, n);
    for (size_t i = 0; i < n; i++)
        tmp[i] = (long)t->mask[i]; /* masks use at most 63 bits in practice; see load */
    tl_store_put_ints(f, indent, "mask", tmp, n);
    for (size_t i = 0; i < n; i++)
        tmp[i] = (long)t->first_child[i];
    tl_store_put_ints(f, indent, "first_child", tmp, n);
    for (size_t i = 0; i < n; i++)
        tmp[i] = (long)t->n_children[i];
    tl_store_put_ints(f, indent, "n_children", tmp, n);
    tl_store_put_doubles(f, indent, "stats", t->stats, n * t->k);
    free(tmp);
    return TL_OK;
}

tl_tree *tl_tree_load(const tl_store *s, const char *prefix, tl_err *err)
{
    char p[128];
    long k, reg, n;
#define TL_PATH(name) (snprintf(p, sizeof p, "%s.%s", prefix, name), p)
    if (tl_store_int(s, TL_PATH("stats_per_node"), &k, err) ||
        tl_store_int(s, TL_PATH("regression"), &reg, err) ||
        tl_store_int(s, TL_PATH("nodes"), &n, err))
        return NULL;
    if (k <= 0 || n <= 0) {
        tl_err_set(err, TL_EPARSE, "model file: a tree needs nodes and statistics");
        return NULL;
    }
    tl_tree *t = tl_tree_alloc((size_t)k, (int)reg, (size_t)n, err);
    long *tmp = malloc((size_t)n * sizeof *tmp);
    if (!t || !tmp || tl_tree_add_nodes(t, (size_t)n, SIZE_MAX, err) == SIZE_MAX)
        goto fail;
    if (tl_store_int_array(s, TL_PATH("attr"), t->attr, (size_t)n, err) ||
        tl_store_doubles(s, TL_PATH("threshold"), t->threshold, (size_t)n, err) ||
        tl_store_doubles(s, TL_PATH("stats"), t->stats, (size_t)(n * k), err))
        goto fail;
    if (tl_store_ints(s, TL_PATH("kind"), tmp, (size_t)n, err))
        goto fail;
    for (long i = 0; i < n; i++)
        t->kind[i] = (unsigned char)tmp[i];
    if (tl_store_ints(s, TL_PATH("mask"), tmp, (size_t)n, err))
        goto fail;
    for (long i = 0; i < n; i++)
        t->mask[i] = (uint64_t)tmp[i];
    if (tl_store_ints(s, TL_PATH("n_children"), tmp, (size_t)n, err))
        goto fail;
    for (long i = 0; i < n; i++)
        t->n_children[i] = (size_t)tmp[i];
    if (tl_store_ints(s, TL_PATH("first_child"), tmp, (size_t)n, err))
        goto fail;
    for (long i = 0; i < n; i++) {
        t->first_child[i] = (size_t)tmp[i];
        if (t->attr[i] >= 0 && (tmp[i] <= i || tmp[i] + (long)t->n_children[i] > n)) {
            tl_err_set(err, TL_EPARSE, "model file: node %ld has children out of range", i);
            goto fail;
        }
    }
    for (long i = 0; i < n; i++)
        for (size_t c = 0; t->attr[i] >= 0 && c < t->n_children[i]; c++)
            t->parent[t->first_child[i] + c] = (size_t)i;
#undef TL_PATH
    free(tmp);
    return t;
fail:
    free(tmp);
    tl_tree_free(t);
    return NULL;
}
