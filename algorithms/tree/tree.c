/* Tree storage: parallel node arrays with contiguous children, and whole-tree operations
 * (copies and compaction: tree_copy.c). */
#include "treelab/tl_tree.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static int grow_arrays(tl_tree *t, size_t cap)
{
#define TL_GROW(field)                                                                             \
    do {                                                                                           \
        void *p_ = realloc(t->field, cap * sizeof *t->field);                                      \
        if (!p_)                                                                                   \
            return -1;                                                                             \
        t->field = p_;                                                                             \
    } while (0)
    TL_GROW(attr);
    TL_GROW(kind);
    TL_GROW(threshold);
    TL_GROW(mask);
    TL_GROW(first_child);
    TL_GROW(n_children);
    TL_GROW(parent);
    TL_GROW(unknown);
    TL_GROW(seen);
    TL_GROW(sur_first);
    TL_GROW(sur_n);
    if (t->value)
        TL_GROW(value);
    if (t->p_value)
        TL_GROW(p_value);
#undef TL_GROW
    double *s = realloc(t->stats, cap * t->k * sizeof *s);
    if (!s)
        return -1;
    t->stats = s;
    t->cap = cap;
    return 0;
}

tl_tree *tl_tree_alloc(size_t k, int regression, size_t cap, tl_err *err)
{
    tl_tree *t = calloc(1, sizeof *t);
    if (!t) {
        tl_err_set(err, TL_ENOMEM, "out of memory");
        return NULL;
    }
    t->k = k;
    t->regression = regression;
    if (grow_arrays(t, cap ? cap : 16)) {
        tl_tree_free(t);
        tl_err_set(err, TL_ENOMEM, "out of memory");
        return NULL;
    }
    return t;
}

int tl_tree_keep_values(tl_tree *t, tl_err *err)
{
    if (!t->value && !(t->value = calloc(t->cap, sizeof *t->value)))
        return tl_err_set(err, TL_ENOMEM, "out of memory");
    return TL_OK;
}

int tl_tree_set_p_value(tl_tree *t, size_t node, double p, tl_err *err)
{
    if (!t->p_value) {
        if (!(t->p_value = malloc(t->cap * sizeof *t->p_value)))
            return tl_err_set(err, TL_ENOMEM, "out of memory");
        for (size_t i = 0; i < t->cap; i++)
            t->p_value[i] = NAN;
    }
    t->p_value[node] = p;
    return TL_OK;
}

void tl_tree_free(tl_tree *t)
{
    if (!t)
        return;
    free(t->attr);
    free(t->kind);
    free(t->threshold);
    free(t->mask);
    free(t->first_child);
    free(t->n_children);
    free(t->parent);
    free(t->stats);
    free(t->unknown);
    free(t->seen);
    free(t->sur_first);
    free(t->sur_n);
    free(t->sur);
    free(t->value);
    free(t->p_value);
    free(t);
}

size_t tl_tree_add_nodes(tl_tree *t, size_t n, size_t parent, tl_err *err)
{
    if (t->n_nodes + n > t->cap) {
        size_t cap = t->cap * 2;
        while (cap < t->n_nodes + n)
            cap *= 2;
        if (grow_arrays(t, cap)) {
            tl_err_set(err, TL_ENOMEM, "out of memory");
            return SIZE_MAX;
        }
    }
    size_t first = t->n_nodes;
    for (size_t i = first; i < first + n; i++) {
        t->attr[i] = -1;
        t->kind[i] = 0;
        t->threshold[i] = 0;
        t->mask[i] = 0;
        t->first_child[i] = 0;
        t->n_children[i] = 0;
        t->parent[i] = parent;
        t->unknown[i] = TL_UNKNOWN_SHARE;
        t->seen[i] = 0;
        t->sur_first[i] = 0;
        t->sur_n[i] = 0;
        if (t->value)
            t->value[i] = 0;
        if (t->p_value)
            t->p_value[i] = NAN;
    }
    memset(t->stats + first * t->k, 0, n * t->k * sizeof *t->stats);
    t->n_nodes += n;
    return first;
}

size_t tl_tree_split_node(tl_tree *t, size_t node, const tl_split *s, tl_err *err)
{
    t->attr[node] = (int)s->attr;
    t->kind[node] = (unsigned char)s->kind;
    t->threshold[node] = s->threshold;
    t->mask[node] = s->left_mask;
    size_t first = tl_tree_add_nodes(t, s->n_branches, node, err);
    if (first == SIZE_MAX)
        return SIZE_MAX;
    /* n_children set before any child is routed: tl_tree_branch checks codes against it */
    t->first_child[node] = first;
    t->n_children[node] = s->n_branches;
    return first;
}

/* The node after node in a depth-first walk of the subtree at root, or SIZE_MAX at its end;
 * *depth follows the depth below root. No recursion (a tree may be far deeper than the C
 * stack allows) and no memory: down to the first child, on to the next sibling, or up
 * through parent[], which tl_tree_add_nodes and tl_tree_load keep. */
static size_t walk_next(const tl_tree *t, size_t root, size_t node, size_t *depth)
{
    if (t->attr[node] >= 0 && t->n_children[node] > 0) {
        ++*depth;
        return t->first_child[node];
    }
    while (node != root) {
        size_t p = t->parent[node];
        if (node + 1 < t->first_child[p] + t->n_children[p])
            return node + 1;
        node = p;
        --*depth;
    }
    return SIZE_MAX;
}

size_t tl_tree_leaves(const tl_tree *t, size_t node)
{
    size_t n = 0, depth = 0;
    for (size_t at = node; at != SIZE_MAX; at = walk_next(t, node, at, &depth))
        n += t->attr[at] < 0;
    return n;
}

size_t tl_tree_depth(const tl_tree *t, size_t node)
{
    size_t d = 0, depth = 0;
    for (size_t at = node; at != SIZE_MAX; at = walk_next(t, node, at, &depth)) {
        size_t below = depth + (t->attr[at] >= 0); /* a split is a level above its children */
        if (below > d)
            d = below;
    }
    return d;
}

void tl_tree_make_leaf(tl_tree *t, size_t node)
{
    t->attr[node] = -1;
    t->n_children[node] = 0;
}

double tl_tree_node_weight(const tl_tree *t, size_t node)
{
    const double *s = t->stats + node * t->k;
    if (t->regression)
        return s[0];
    double w = 0;
    for (size_t c = 0; c < t->k; c++)
        w += s[c];
    return w;
}

void tl_tree_node_predict(const tl_tree *t, size_t node, double *out)
{
    /* an empty branch (no training weight reached it) predicts as its parent */
    while (tl_tree_node_weight(t, node) <= 0 && t->parent[node] != SIZE_MAX)
        node = t->parent[node];
    const double *s = t->stats + node * t->k;
    double w = tl_tree_node_weight(t, node);
    if (t->regression) {
        out[0] = t->value ? t->value[node] : w > 0 ? s[1] / w : 0;
        return;
    }
    for (size_t c = 0; c < t->k; c++)
        out[c] = w > 0 ? s[c] / w : 1.0 / (double)t->k;
}

void tl_tree_node_proba(const tl_tree *t, size_t node, const tl_smoothing *s, double *out)
{
    if (!s || s->kind == TL_SMOOTH_NONE || t->regression) {
        tl_tree_node_predict(t, node, out);
        return;
    }
    /* an empty branch smooths its parent's counts, as J48 -A does (C45Split.classProbLaplace) */
    while (tl_tree_node_weight(t, node) <= 0 && t->parent[node] != SIZE_MAX)
        node = t->parent[node];
    const double *n = t->stats + node * t->k, *root = t->stats;
    double w = tl_tree_node_weight(t, node), root_w = tl_tree_node_weight(t, 0);
    double k = (double)t->k;
    for (size_t c = 0; c < t->k; c++) {
        if (s->kind == TL_SMOOTH_LAPLACE) {
            out[c] = (n[c] + 1) / (w + k);
            continue;
        }
        double prior = root_w > 0 ? root[c] / root_w : 1 / k; /* no root weight: uniform */
        out[c] = w + s->m > 0 ? (n[c] + s->m * prior) / (w + s->m) : prior;
    }
}

double tl_tree_node_error(const tl_tree *t, size_t node)
{
    const double *s = t->stats + node * t->k;
    if (t->regression)
        return s[0] > 0 ? fmax(0, s[2] - s[1] * s[1] / s[0]) : 0;
    double w = 0, best = 0;
    for (size_t c = 0; c < t->k; c++) {
        w += s[c];
        if (s[c] > best)
            best = s[c];
    }
    return w - best;
}

int tl_tree_branch(const tl_tree *t, size_t node, const tl_dataset *d, size_t row)
{
    size_t a = (size_t)t->attr[node];
    switch ((tl_split_kind)t->kind[node]) {
    case TL_SPLIT_NUMERIC: {
        double x = d->cols[a].num[row];
        return isnan(x) ? -1 : (x <= t->threshold[node] ? 0 : 1);
    }
    case TL_SPLIT_MULTIWAY: {
        int c = d->cols[a].code[row];
        return c < 0 || (size_t)c >= t->n_children[node] ? -1 : c;
    }
    case TL_SPLIT_SUBSET: {
        int c = d->cols[a].code[row];
        if (c < 0 || (t->seen[node] && (c >= 64 || !((t->seen[node] >> c) & 1u))))
            return -1;
        return ((t->mask[node] >> c) & 1u) ? 0 : 1;
    }
    }
    return -1;
}

int tl_split_branch(const tl_split *s, const tl_dataset *d, size_t row)
{
    switch (s->kind) {
    case TL_SPLIT_NUMERIC: {
        double x = d->cols[s->attr].num[row];
        return isnan(x) ? -1 : (x <= s->threshold ? 0 : 1);
    }
    case TL_SPLIT_MULTIWAY: {
        int c = d->cols[s->attr].code[row];
        return c < 0 || (size_t)c >= s->n_branches ? -1 : c;
    }
    case TL_SPLIT_SUBSET: {
        int c = d->cols[s->attr].code[row];
        return c < 0 ? -1 : ((s->left_mask >> c) & 1u) ? 0 : 1;
    }
    }
    return -1;
}

int tl_tree_set_surrogates(tl_tree *t, size_t node, const tl_surrogate *s, size_t n, tl_err *err)
{
    if (n > 255)
        n = 255;
    if (t->sur_count + n > UINT32_MAX)
        return tl_err_set(err, TL_ENOMEM, "too many surrogate splits");
    if (t->sur_count + n > t->sur_cap) {
        size_t cap = t->sur_cap ? 2 * t->sur_cap : 64;
        while (cap < t->sur_count + n)
            cap *= 2;
        tl_surrogate *grown = realloc(t->sur, cap * sizeof *grown);
        if (!grown)
            return tl_err_set(err, TL_ENOMEM, "out of memory storing surrogate splits");
        t->sur = grown;
        t->sur_cap = cap;
    }
    /* appended: a node's earlier surrogates stay in the pool, unreferenced, until a copy */
    if (n)
        memcpy(t->sur + t->sur_count, s, n * sizeof *s);
    t->sur_first[node] = (uint32_t)t->sur_count;
    t->sur_n[node] = (unsigned char)n;
    t->sur_count += n;
    return TL_OK;
}

/* The training weight the leaves below node misclassify. */
static double subtree_training_errors(const tl_tree *t, size_t node)
{
    if (t->attr[node] < 0)
        return tl_tree_node_error(t, node);
    double e = 0;
    for (size_t c = 0; c < t->n_children[node]; c++)
        e += subtree_training_errors(t, t->first_child[node] + c);
    return e;
}

static void collapse(tl_tree *t, size_t node)
{
    if (t->attr[node] < 0)
        return;
    /* J48's 1e-3 absorbs the rounding of fractional weights */
    if (subtree_training_errors(t, node) >= tl_tree_node_error(t, node) - 1e-3) {
        tl_tree_make_leaf(t, node);
        return;
    }
    for (size_t c = 0; c < t->n_children[node]; c++)
        collapse(t, t->first_child[node] + c);
}

int tl_tree_collapse(tl_tree *t, tl_err *err)
{
    collapse(t, 0);
    return tl_tree_compact(t, err);
}
