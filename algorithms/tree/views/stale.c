/* Sorted blocks partitioned when asked for: a split partitions only the blocks its node
 * asked for (every one, for a splitter that reads every attribute), and a node asking for a
 * block its parent left behind gets it by one stable partition of the range of the nearest
 * ancestor that had it sorted, into the ranges every row is in now. A forest's splitter
 * reads a few drawn attributes per node: the other blocks are not moved level after level.
 * The order kept is the same (value, then row, of the node's rows), so are the trees. */
#include <stdlib.h>
#include <string.h>

#include "../grow_internal.h"

/* Depth-first growth keeps one path from the root: per depth, the range of the node split
 * there and, per block, whether the ranges at that depth (the path's node and its waiting
 * siblings) hold it sorted. A range not sorted at depth d still holds, untouched, the order
 * of the nearest sorted depth above: only a split there (partitioning it) or a refresh from
 * there (sorting every range below) moves it, and each marks the depth below sorted. */
struct tlg_stale {
    size_t n_blocks, cap; /* depths with room */
    unsigned char *fresh; /* [depth * n_blocks + s] */
    size_t *path_begin, *path_n;
    uint32_t *range_of; /* per row: the begin of the range it is in now */
    uint32_t *cursor;   /* per position: a refresh's next place in the range starting there */
    size_t *asked;      /* per block: 1 + the last node that asked for it */
};

void tlg_stale_free(struct tlg_stale *st)
{
    if (!st)
        return;
    free(st->fresh);
    free(st->path_begin);
    free(st->path_n);
    free(st->range_of);
    free(st->cursor);
    free(st->asked);
    free(st);
}

/* Room for depth d; -1 when out of memory. */
static int reserve(struct tlg_stale *st, size_t d)
{
    if (d < st->cap)
        return 0;
    size_t cap = 2 * d + 16;
    unsigned char *fresh = realloc(st->fresh, cap * st->n_blocks);
    if (fresh)
        st->fresh = fresh;
    size_t *b = realloc(st->path_begin, cap * sizeof *b);
    if (b)
        st->path_begin = b;
    size_t *n = realloc(st->path_n, cap * sizeof *n);
    if (n)
        st->path_n = n;
    if (!fresh || !b || !n)
        return -1;
    st->cap = cap;
    return 0;
}

/* Partitions on demand serve a fit whose rows each go to one branch at every split: no row
 * grown on has an unknown value, no missing-value method routes, each row is once in the
 * root (rows: increasing), and sorted blocks are kept. */
static int applies(const tl_grow_ctx *g, const uint32_t *rows, size_t n)
{
    if (!g->v.n_blocks || g->v.compact || g->leaf_only || (g->p->missing && g->p->missing->route))
        return 0;
    for (size_t i = 1; i < n; i++)
        if (rows[i] == rows[i - 1])
            return 0;
    for (size_t a = 0; a < g->d->schema.n_attrs; a++)
        for (size_t i = 0; i < n; i++)
            if (tl_dataset_is_missing(g->d, a, rows[i]))
                return 0;
    return 1;
}

int tlg_stale_setup(tl_grow_ctx *g, const tlg_rowset *root, tl_err *err)
{
    const uint32_t *rows = tlg_rows(root);
    if (!applies(g, rows, root->n))
        return TL_OK;
    struct tlg_stale *st = g->v.stale = calloc(1, sizeof *st);
    if (st) {
        st->n_blocks = g->v.n_blocks;
        st->range_of = malloc(g->d->n_rows * sizeof *st->range_of);
        st->cursor = malloc(root->part->stride * sizeof *st->cursor);
        st->asked = calloc(st->n_blocks, sizeof *st->asked);
    }
    if (!st || !st->range_of || !st->cursor || !st->asked || reserve(st, 0))
        return tl_err_set(err, TL_ENOMEM, "out of memory growing a tree on %zu rows", root->n);
    for (size_t i = 0; i < root->n; i++)
        st->range_of[rows[i]] = 0;
    memset(st->fresh, 1, st->n_blocks); /* the presort's */
    return TL_OK;
}

void tlg_stale_refresh(const tl_grow_ctx *g, const tlg_rowset *rs, size_t s, size_t node)
{
    struct tlg_stale *st = g->v.stale;
    size_t nb = st->n_blocks, d = rs->depth;
    st->asked[s] = node + 1;
    if (st->fresh[d * nb + s])
        return;
    size_t a = d;
    while (!st->fresh[--a * nb + s]) /* depth 0 is always sorted */
        ;
    size_t begin = st->path_begin[a], n = st->path_n[a], stride = rs->part->stride;
    for (size_t p = begin; p < begin + n; p++)
        st->cursor[p] = (uint32_t)p;
    uint32_t *block = rs->part->sorted + s * stride + begin;
    double *xs = rs->part->xs ? rs->part->xs + s * stride + begin : NULL;
    int *ys = rs->part->ys ? rs->part->ys + s * stride + begin : NULL;
    uint32_t *tmp = g->tmp;
    double *tmp_x = g->v.tmp_x;
    int *tmp_y = g->v.tmp_y;
    if (!xs) {
        for (size_t i = 0; i < n; i++)
            tmp[st->cursor[st->range_of[block[i]]]++ - begin] = block[i];
    } else if (!ys) {
        for (size_t i = 0; i < n; i++) {
            size_t o = st->cursor[st->range_of[block[i]]]++ - begin;
            tmp[o] = block[i];
            tmp_x[o] = xs[i];
        }
    } else {
        for (size_t i = 0; i < n; i++) {
            size_t o = st->cursor[st->range_of[block[i]]]++ - begin;
            tmp[o] = block[i];
            tmp_x[o] = xs[i];
            tmp_y[o] = ys[i];
        }
    }
    memcpy(block, g->tmp, n * sizeof *block);
    if (xs)
        memcpy(xs, g->v.tmp_x, n * sizeof *xs);
    if (ys)
        memcpy(ys, g->v.tmp_y, n * sizeof *ys);
    for (size_t e = a + 1; e <= d; e++)
        st->fresh[e * nb + s] = 1;
}

int tlg_stale_split(const tl_grow_ctx *g, const tlg_rowset *rs, size_t node, tl_err *err)
{
    struct tlg_stale *st = g->v.stale;
    size_t d = rs->depth;
    if (reserve(st, d + 1))
        return tl_err_set(err, TL_ENOMEM, "out of memory: tree deeper than %zu", d);
    st->path_begin[d] = rs->begin;
    st->path_n[d] = rs->n;
    for (size_t s = 0; s < st->n_blocks; s++)
        st->fresh[(d + 1) * st->n_blocks + s] = (unsigned char)tlg_stale_wanted(g, s, node);
    return TL_OK;
}

int tlg_stale_wanted(const tl_grow_ctx *g, size_t s, size_t node)
{
    return !g->v.stale || g->v.stale->asked[s] == node + 1;
}

void tlg_stale_moved(const tl_grow_ctx *g, const tlg_rowset *kid)
{
    const uint32_t *rows = tlg_rows(kid);
    for (size_t i = 0; g->v.stale && i < kid->n; i++)
        g->v.stale->range_of[rows[i]] = (uint32_t)kid->begin;
}
