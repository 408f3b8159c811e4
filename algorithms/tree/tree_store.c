/* Saving and loading a tree's arrays as libconfig settings (exact doubles). */
#include <math.h>
#include <stdint.h>
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
    if (t->value) /* only then: every other tree's file stays as it was */
        tl_store_put_doubles(f, indent, "value", t->value, n);
    free(tmp);
    return TL_OK;
}

/* A tree read from a file is only used after this: every split has children inside the
 * array, every node but the root has exactly one parent (so walks terminate and visit each
 * node once), and the statistics are finite non-negative weights. */
static int check_shape(tl_tree *t, const char *prefix, tl_err *err)
{
    size_t n = t->n_nodes, k = t->k;
    if (t->regression ? k != TL_REG_STATS : k < 2)
        return tl_err_set(err, TL_EPARSE, "model file: %s.stats_per_node = %zu; expected %s",
                          prefix, k, t->regression ? "3 for a regression tree" : "2 or more classes");
    for (size_t i = 0; i < n; i++)
        t->parent[i] = SIZE_MAX;
    for (size_t i = 0; i < n; i++) {
        if (t->attr[i] < -1)
            return tl_err_set(err, TL_EPARSE, "model file: %s.attr[%zu] = %d; expected -1 (a "
                              "leaf) or an attribute index", prefix, i, t->attr[i]);
        if (t->attr[i] < 0)
            continue;
        size_t first = t->first_child[i], nc = t->n_children[i];
        if (nc < 2 || (t->kind[i] != TL_SPLIT_MULTIWAY && nc != 2))
            return tl_err_set(err, TL_EPARSE, "model file: %s.n_children[%zu] = %zu does not fit "
                              "a %s split", prefix, i, nc,
                              t->kind[i] == TL_SPLIT_MULTIWAY ? "multiway" : "binary");
        if (first <= i || first > n || nc > n - first)
            return tl_err_set(err, TL_EPARSE, "model file: node %zu has children out of range "
                              "(%s.first_child[%zu] = %zu, %zu children, %zu nodes)", i, prefix,
                              i, first, nc, n);
        if (t->kind[i] == TL_SPLIT_NUMERIC && !isfinite(t->threshold[i]))
            return tl_err_set(err, TL_EPARSE, "model file: %s.threshold[%zu] is not a finite "
                              "number", prefix, i);
        for (size_t c = first; c < first + nc; c++) {
            if (t->parent[c] != SIZE_MAX)
                return tl_err_set(err, TL_EPARSE, "model file: node %zu is a child of both "
                                  "node %zu and node %zu", c, t->parent[c], i);
            t->parent[c] = i;
        }
    }
    for (size_t i = 0; t->value && i < n; i++)
        if (!t->regression || !isfinite(t->value[i]))
            return tl_err_set(err, TL_EPARSE, "model file: %s.value[%zu] %s", prefix, i,
                              t->regression ? "is not a finite number"
                                            : "is given for a classification tree");
    for (size_t i = 0; i < n * k; i++) {
        /* Regression sums may be negative; weights and class counts may not. */
        int weight = !t->regression || i % k == 0;
        if (!isfinite(t->stats[i]) || (weight && t->stats[i] < 0))
            return tl_err_set(err, TL_EPARSE, "model file: %s.stats[%zu] = %g; expected a "
                              "finite%s number", prefix, i, t->stats[i],
                              weight ? " non-negative" : "");
    }
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
    size_t len; /* before allocating: a damaged count could ask for any amount of memory */
    if (tl_store_len(s, TL_PATH("attr"), &len, err))
        return NULL;
    if (len != (size_t)n || k > 1 << 20) {
        tl_err_set(err, TL_EPARSE, "model file: %s.nodes = %ld and stats_per_node = %ld do not "
                   "fit %s.attr, which has %zu elements", prefix, n, k, prefix, len);
        return NULL;
    }
    tl_tree *t = tl_tree_alloc((size_t)k, (int)reg, (size_t)n, err);
    long *tmp = t ? malloc((size_t)n * sizeof *tmp) : NULL;
    if (t && !tmp)
        tl_err_set(err, TL_ENOMEM, "out of memory");
    if (!t || !tmp || tl_tree_add_nodes(t, (size_t)n, SIZE_MAX, err) == SIZE_MAX)
        goto fail;
    if (tl_store_int_array(s, TL_PATH("attr"), t->attr, (size_t)n, err) ||
        tl_store_doubles(s, TL_PATH("threshold"), t->threshold, (size_t)n, err) ||
        tl_store_doubles(s, TL_PATH("stats"), t->stats, (size_t)(n * k), err))
        goto fail;
    if (tl_store_ints(s, TL_PATH("kind"), tmp, (size_t)n, err))
        goto fail;
    for (long i = 0; i < n; i++) {
        if (tmp[i] < TL_SPLIT_NUMERIC || tmp[i] > TL_SPLIT_SUBSET) {
            tl_err_set(err, TL_EPARSE, "model file: %s.kind[%ld] = %ld; expected 0 (numeric), "
                       "1 (multiway) or 2 (subset)", prefix, i, tmp[i]);
            goto fail;
        }
        t->kind[i] = (unsigned char)tmp[i];
    }
    if (tl_store_ints(s, TL_PATH("mask"), tmp, (size_t)n, err))
        goto fail;
    for (long i = 0; i < n; i++)
        t->mask[i] = (uint64_t)tmp[i];
    if (tl_store_ints(s, TL_PATH("n_children"), tmp, (size_t)n, err))
        goto fail;
    for (long i = 0; i < n; i++) {
        if (tmp[i] < 0) { /* report the value as written: clamping showed -2 as 0 */
            tl_err_set(err, TL_EPARSE, "model file: %s.n_children[%ld] = %ld; expected a "
                       "count (0 for a leaf)", prefix, i, tmp[i]);
            goto fail;
        }
        t->n_children[i] = (size_t)tmp[i];
    }
    if (tl_store_ints(s, TL_PATH("first_child"), tmp, (size_t)n, err))
        goto fail;
    for (long i = 0; i < n; i++) {
        if (tmp[i] < 0) { /* as written: clamping showed -1 as 0 */
            tl_err_set(err, TL_EPARSE, "model file: %s.first_child[%ld] = %ld; expected a node "
                       "index (0 for a leaf)", prefix, i, tmp[i]);
            goto fail;
        }
        t->first_child[i] = (size_t)tmp[i];
    }
    if (tl_store_has(s, TL_PATH("value")) &&
        (tl_tree_keep_values(t, err) ||
         tl_store_doubles(s, TL_PATH("value"), t->value, (size_t)n, err)))
        goto fail;
    if (check_shape(t, prefix, err))
        goto fail;
#undef TL_PATH
    free(tmp);
    return t;
fail:
    free(tmp);
    tl_tree_free(t);
    return NULL;
}

int tl_tree_check_schema(const tl_tree *t, const tl_schema *s, tl_err *err)
{
    const tl_attr_info *target = &s->target;
    if (t->regression != (target->kind == TL_ATTR_NUMERIC) ||
        (!t->regression && t->k != target->n_levels))
        return tl_err_set(err, TL_EPARSE, "model file: the tree (%s, %zu statistics per node) "
                          "does not fit the target '%s' (%s, %zu levels)",
                          t->regression ? "regression" : "classification", t->k, target->name,
                          target->kind == TL_ATTR_NUMERIC ? "numeric" : "nominal",
                          target->n_levels);
    for (size_t i = 0; i < t->n_nodes; i++) {
        if (t->attr[i] < 0)
            continue;
        size_t a = (size_t)t->attr[i];
        if (a >= s->n_attrs)
            return tl_err_set(err, TL_EPARSE, "model file: node %zu tests attribute %zu; the "
                              "schema has %zu attributes", i, a, s->n_attrs);
        const tl_attr_info *ai = &s->attrs[a];
        int nominal = t->kind[i] != TL_SPLIT_NUMERIC;
        size_t nl = ai->n_levels;
        const char *bad = NULL;
        if (nominal != (ai->kind == TL_ATTR_NOMINAL))
            bad = nominal ? "a nominal split on a numeric attribute"
                          : "a numeric split on a nominal attribute";
        else if (t->kind[i] == TL_SPLIT_MULTIWAY && t->n_children[i] != nl)
            bad = "a multiway split whose branches are not the attribute's levels";
        else if (t->kind[i] == TL_SPLIT_SUBSET &&
                 (nl > TL_SUBSET_MAX_LEVELS ||
                  (nl < TL_SUBSET_MAX_LEVELS && (t->mask[i] >> nl) != 0)))
            bad = "a subset split naming levels the attribute does not have";
        if (bad)
            return tl_err_set(err, TL_EPARSE, "model file: node %zu is %s ('%s')", i, bad,
                              ai->name);
    }
    return TL_OK;
}
