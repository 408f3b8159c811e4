/* Saving and loading a tree's arrays as libconfig settings (exact doubles). */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "treelab/tl_tree.h"

/* The array writers of one form: libconfig arrays, or packed strings (ensembles' members). */
typedef struct writer {
    void (*doubles)(FILE *, int, const char *, const double *, size_t);
    void (*longs)(FILE *, int, const char *, const long *, size_t);
    void (*ints)(FILE *, int, const char *, const int *, size_t);
} writer;
static const writer arrays = {tl_store_put_doubles, tl_store_put_ints, tl_store_put_int_array};
static const writer packed = {tl_store_put_packed_doubles, tl_store_put_packed_ints,
                              tl_store_put_packed_int_array};

/* The rules for unknown values, only when some node has one besides C4.5's fractions (so
 * the files of such trees stay as they were): per node its rule and number of surrogates,
 * then the surrogates in node order. */
static int save_unknown_rules(const tl_tree *t, const writer *w, FILE *f, int indent, tl_err *err)
{
    size_t n = t->n_nodes, m = 0;
    for (size_t i = 0; i < n; i++)
        m += t->attr[i] >= 0 ? t->sur_n[i] : 0;
    long *li = malloc((n + m + 1) * sizeof *li);
    double *dv = malloc((m + 1) * sizeof *dv);
    if (!li || !dv) {
        free(li);
        free(dv);
        return tl_err_set(err, TL_ENOMEM, "out of memory");
    }
    for (size_t i = 0; i < n; i++)
        li[i] = t->attr[i] >= 0 ? t->unknown[i] : TL_UNKNOWN_SHARE;
    w->longs(f, indent, "unknown", li, n);
    for (size_t i = 0; i < n; i++)
        li[i] = t->attr[i] >= 0 ? t->sur_n[i] : 0;
    w->longs(f, indent, "surrogates", li, n);
    for (size_t i = 0; i < n; i++)
        li[i] = (long)t->seen[i];
    w->longs(f, indent, "seen", li, n);
    /* the surrogates, flattened: one field per array */
#define TL_SUR_FIELD(put, arr, expr, name)                                                         \
    do {                                                                                           \
        size_t j_ = 0;                                                                             \
        for (size_t i = 0; i < n; i++)                                                             \
            for (size_t q = 0; t->attr[i] >= 0 && q < t->sur_n[i]; q++) {                          \
                const tl_surrogate *s_ = &t->sur[t->sur_first[i] + q];                             \
                arr[j_++] = expr;                                                                  \
            }                                                                                      \
        put(f, indent, name, arr, m);                                                              \
    } while (0)
    TL_SUR_FIELD(w->longs, li, s_->attr, "sur_attr");
    TL_SUR_FIELD(w->longs, li, s_->kind, "sur_kind");
    TL_SUR_FIELD(w->longs, li, s_->below, "sur_below");
    TL_SUR_FIELD(w->doubles, dv, s_->threshold, "sur_threshold");
    TL_SUR_FIELD(w->longs, li, (long)s_->left_mask, "sur_left");
    TL_SUR_FIELD(w->longs, li, (long)s_->known_mask, "sur_known");
    TL_SUR_FIELD(w->doubles, dv, s_->agree, "sur_agree");
    TL_SUR_FIELD(w->doubles, dv, s_->adj, "sur_adj");
#undef TL_SUR_FIELD
    free(li);
    free(dv);
    return TL_OK;
}

static int save_tree(const tl_tree *t, const writer *w, FILE *f, int indent, tl_err *err)
{
    size_t n = t->n_nodes;
    long *tmp = malloc((n ? n : 1) * sizeof *tmp);
    if (!tmp)
        return tl_err_set(err, TL_ENOMEM, "out of memory");
    tl_store_put_int(f, indent, "stats_per_node", (long)t->k);
    tl_store_put_int(f, indent, "regression", t->regression);
    tl_store_put_int(f, indent, "nodes", (long)n);
    w->ints(f, indent, "attr", t->attr, n);
    for (size_t i = 0; i < n; i++)
        tmp[i] = t->kind[i];
    w->longs(f, indent, "kind", tmp, n);
    w->doubles(f, indent, "threshold", t->threshold, n);
    for (size_t i = 0; i < n; i++)
        tmp[i] = (long)t->mask[i]; /* masks use at most 63 bits in practice; see load */
    w->longs(f, indent, "mask", tmp, n);
    for (size_t i = 0; i < n; i++)
        tmp[i] = (long)t->first_child[i];
    w->longs(f, indent, "first_child", tmp, n);
    for (size_t i = 0; i < n; i++)
        tmp[i] = (long)t->n_children[i];
    w->longs(f, indent, "n_children", tmp, n);
    w->doubles(f, indent, "stats", t->stats, n * t->k);
    if (t->value) /* only then: every other tree's file stays as it was */
        w->doubles(f, indent, "value", t->value, n);
    free(tmp);
    if (t->p_value) { /* likewise; -1 where a node has none (libconfig has no NaN) */
        double *p = malloc((n ? n : 1) * sizeof *p);
        if (!p)
            return tl_err_set(err, TL_ENOMEM, "out of memory saving a tree");
        for (size_t i = 0; i < n; i++)
            p[i] = isnan(t->p_value[i]) ? -1 : t->p_value[i];
        w->doubles(f, indent, "p_value", p, n);
        free(p);
    }
    return t->n_nodes && tl_tree_has_unknown_rules(t) ? save_unknown_rules(t, w, f, indent, err)
                                                      : TL_OK;
}

int tl_tree_save(const tl_tree *t, FILE *f, int indent, tl_err *err)
{
    return save_tree(t, &arrays, f, indent, err);
}

int tl_tree_save_packed(const tl_tree *t, FILE *f, int indent, tl_err *err)
{
    return save_tree(t, &packed, f, indent, err);
}

/* A tree read from a file is only used after this: every split has children inside the
 * array, every node but the root has exactly one parent (so walks terminate and visit each
 * node once), and the statistics are finite non-negative weights. */
static int check_shape(tl_tree *t, const char *prefix, tl_err *err)
{
    size_t n = t->n_nodes, k = t->k;
    if (t->regression ? k != TL_REG_STATS : k < 2)
        return tl_err_set(err, TL_EPARSE, "model file: %s.stats_per_node = %zu; expected %s",
                          prefix, k,
                          t->regression ? "3 for a regression tree" : "2 or more classes");
    for (size_t i = 0; i < n; i++)
        t->parent[i] = SIZE_MAX;
    for (size_t i = 0; i < n; i++) {
        if (t->attr[i] < -1)
            return tl_err_set(err, TL_EPARSE,
                              "model file: %s.attr[%zu] = %d; expected -1 (a "
                              "leaf) or an attribute index",
                              prefix, i, t->attr[i]);
        if (t->attr[i] < 0)
            continue;
        size_t first = t->first_child[i], nc = t->n_children[i];
        /* a binary test may have a third branch, its unknown values' own */
        int extra = nc == 3 && t->unknown[i] == 2;
        if (nc < 2 || (t->kind[i] != TL_SPLIT_MULTIWAY && nc != 2 + (size_t)extra))
            return tl_err_set(err, TL_EPARSE,
                              "model file: %s.n_children[%zu] = %zu does not fit "
                              "a %s split",
                              prefix, i, nc,
                              t->kind[i] == TL_SPLIT_MULTIWAY ? "multiway" : "binary");
        if (first <= i || first > n || nc > n - first)
            return tl_err_set(err, TL_EPARSE,
                              "model file: node %zu has children out of range "
                              "(%s.first_child[%zu] = %zu, %zu children, %zu nodes)",
                              i, prefix, i, first, nc, n);
        if (t->kind[i] == TL_SPLIT_NUMERIC && !isfinite(t->threshold[i]))
            return tl_err_set(err, TL_EPARSE,
                              "model file: %s.threshold[%zu] is not a finite "
                              "number",
                              prefix, i);
        for (size_t c = first; c < first + nc; c++) {
            if (t->parent[c] != SIZE_MAX)
                return tl_err_set(err, TL_EPARSE,
                                  "model file: node %zu is a child of both "
                                  "node %zu and node %zu",
                                  c, t->parent[c], i);
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
            return tl_err_set(err, TL_EPARSE,
                              "model file: %s.stats[%zu] = %g; expected a "
                              "finite%s number",
                              prefix, i, t->stats[i], weight ? " non-negative" : "");
    }
    return TL_OK;
}

/* prefix.name into p; TL_EPARSE unless it holds exactly n elements. */
static int exact_len(const tl_store *s, const char *prefix, const char *name, size_t n, char *p,
                     size_t size, tl_err *err)
{
    size_t len;
    snprintf(p, size, "%s.%s", prefix, name);
    if (tl_store_len(s, p, &len, err))
        return err ? err->code : TL_EPARSE;
    if (len != n)
        return tl_err_set(err, TL_EPARSE, "model file: %s has %zu elements; expected %zu", p, len,
                          n);
    return TL_OK;
}

static int read_longs(const tl_store *s, const char *prefix, const char *name, long *out, size_t n,
                      tl_err *err)
{
    char p[160];
    int rc = exact_len(s, prefix, name, n, p, sizeof p, err);
    return rc || !n ? rc : tl_store_ints(s, p, out, n, err);
}

static int read_doubles(const tl_store *s, const char *prefix, const char *name, double *out,
                        size_t n, tl_err *err)
{
    char p[160];
    int rc = exact_len(s, prefix, name, n, p, sizeof p, err);
    if (rc || !n || (rc = tl_store_doubles(s, p, out, n, err)))
        return rc;
    for (size_t i = 0; i < n; i++)
        if (!isfinite(out[i]))
            return tl_err_set(err, TL_EPARSE, "model file: %s[%zu] is not a finite number", p, i);
    return TL_OK;
}

/* The rules for unknown values save_unknown_rules wrote, checked against the node arrays. */
static int load_unknown_rules(tl_tree *t, const tl_store *s, const char *prefix, tl_err *err)
{
    size_t n = t->n_nodes, m = 0;
    long *li = malloc(n * sizeof *li);
    long *cnt = malloc(n * sizeof *cnt);
    int rc = !li || !cnt ? tl_err_set(err, TL_ENOMEM, "out of memory") : TL_OK;
    if (!rc)
        rc = read_longs(s, prefix, "surrogates", cnt, n, err);
    if (!rc && !(rc = read_longs(s, prefix, "seen", li, n, err)))
        for (size_t i = 0; i < n; i++)
            t->seen[i] = t->kind[i] == TL_SPLIT_SUBSET ? (uint64_t)li[i] : 0;
    if (!rc)
        rc = read_longs(s, prefix, "unknown", li, n, err);
    for (size_t i = 0; i < n && !rc; i++) {
        long nc = t->attr[i] >= 0 ? (long)t->n_children[i] : 0;
        if (li[i] < TL_UNKNOWN_HEAVIEST || li[i] >= (nc > 0 ? nc : 1) || cnt[i] < 0 ||
            cnt[i] > 255 || (t->attr[i] < 0 && cnt[i] > 0))
            rc = tl_err_set(err, TL_EPARSE,
                            "model file: node %zu: unknown-value rule %ld with "
                            "%ld surrogates does not fit a node with %ld branches",
                            i, li[i], cnt[i], nc);
        m += (size_t)(cnt[i] > 0 ? cnt[i] : 0);
    }
    tl_surrogate *sur = rc ? NULL : calloc(m + 1, sizeof *sur);
    long *v = rc ? NULL : malloc((m + 1) * sizeof *v);
    double *dv = rc ? NULL : malloc((m + 1) * sizeof *dv);
    if (!rc && (!sur || !v || !dv))
        rc = tl_err_set(err, TL_ENOMEM, "out of memory");
    static const char *const ints[] = {"sur_attr", "sur_kind", "sur_below", "sur_left",
                                       "sur_known"};
    for (int f = 0; f < 5 && !rc; f++) {
        if ((rc = read_longs(s, prefix, ints[f], v, m, err)))
            break;
        for (size_t j = 0; j < m && !rc; j++) {
            int bad = (f == 0 && (v[j] < 0 || v[j] > INT32_MAX)) ||
                      (f == 1 && v[j] != TL_SPLIT_NUMERIC && v[j] != TL_SPLIT_SUBSET) ||
                      (f == 2 && v[j] != 0 && v[j] != 1);
            if (bad)
                rc = tl_err_set(err, TL_EPARSE, "model file: %s.%s[%zu] = %ld is out of range",
                                prefix, ints[f], j, v[j]);
            else if (f == 0)
                sur[j].attr = (int)v[j];
            else if (f == 1)
                sur[j].kind = (unsigned char)v[j];
            else if (f == 2)
                sur[j].below = (unsigned char)v[j];
            else if (f == 3)
                sur[j].left_mask = (uint64_t)v[j];
            else
                sur[j].known_mask = (uint64_t)v[j];
        }
    }
    static const char *const dbl[] = {"sur_threshold", "sur_agree", "sur_adj"};
    for (int f = 0; f < 3 && !rc; f++) {
        if ((rc = read_doubles(s, prefix, dbl[f], dv, m, err)))
            break;
        for (size_t j = 0; j < m; j++)
            *(f == 0 ? &sur[j].threshold : f == 1 ? &sur[j].agree : &sur[j].adj) = dv[j];
    }
    for (size_t i = 0, at = 0; i < n && !rc; at += (size_t)cnt[i], i++) {
        t->unknown[i] = (signed char)li[i];
        if (cnt[i] > 0)
            rc = tl_tree_set_surrogates(t, i, sur + at, (size_t)cnt[i], err);
    }
    free(li);
    free(cnt);
    free(sur);
    free(v);
    free(dv);
    return rc;
}

/* prefix.name's n values into out, each a whole number >= 0 (what: what it stands for, in the
 * message); tmp has room for n. The value is reported as written: clamping showed -2 as 0. */
static int load_indices(const tl_store *s, const char *prefix, const char *name, const char *what,
                        long *tmp, size_t *out, size_t n, tl_err *err)
{
    char p[128];
    snprintf(p, sizeof p, "%s.%s", prefix, name);
    int rc = tl_store_ints(s, p, tmp, n, err);
    for (size_t i = 0; i < n && !rc; i++) {
        if (tmp[i] < 0)
            return tl_err_set(err, TL_EPARSE, "model file: %s[%zu] = %ld; expected %s", p, i,
                              tmp[i], what);
        out[i] = (size_t)tmp[i];
    }
    return rc;
}

/* prefix.p_value: n p-values in [0, 1], or -1 for a node without one (NaN in memory). */
static int load_p_values(tl_tree *t, const tl_store *s, const char *prefix, size_t n, tl_err *err)
{
    char path[256];
    snprintf(path, sizeof path, "%s.p_value", prefix);
    for (size_t i = 0; i < n; i++)
        if (tl_tree_set_p_value(t, i, NAN, err))
            return TL_ENOMEM;
    int rc = tl_store_doubles(s, path, t->p_value, n, err);
    if (rc)
        return rc;
    for (size_t i = 0; i < n; i++) {
        if (t->p_value[i] == -1)
            t->p_value[i] = NAN;
        else if (!(t->p_value[i] >= 0 && t->p_value[i] <= 1))
            return tl_err_set(err, TL_EPARSE, "model file: %s[%zu] is not a p-value in [0, 1]",
                              path, i);
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
        tl_err_set(err, TL_EPARSE,
                   "model file: %s.nodes = %ld and stats_per_node = %ld do not "
                   "fit %s.attr, which has %zu elements",
                   prefix, n, k, prefix, len);
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
            tl_err_set(err, TL_EPARSE,
                       "model file: %s.kind[%ld] = %ld; expected 0 (numeric), "
                       "1 (multiway) or 2 (subset)",
                       prefix, i, tmp[i]);
            goto fail;
        }
        t->kind[i] = (unsigned char)tmp[i];
    }
    if (tl_store_ints(s, TL_PATH("mask"), tmp, (size_t)n, err))
        goto fail;
    for (long i = 0; i < n; i++)
        t->mask[i] = (uint64_t)tmp[i];
    if (load_indices(s, prefix, "n_children", "a count (0 for a leaf)", tmp, t->n_children,
                     (size_t)n, err) ||
        load_indices(s, prefix, "first_child", "a node index (0 for a leaf)", tmp, t->first_child,
                     (size_t)n, err))
        goto fail;
    if (tl_store_has(s, TL_PATH("unknown")) && load_unknown_rules(t, s, prefix, err))
        goto fail;
    if (tl_store_has(s, TL_PATH("value")) &&
        (tl_tree_keep_values(t, err) ||
         tl_store_doubles(s, TL_PATH("value"), t->value, (size_t)n, err)))
        goto fail;
    if (tl_store_has(s, TL_PATH("p_value")) && load_p_values(t, s, prefix, (size_t)n, err))
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
