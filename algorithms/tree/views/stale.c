/* Sorted blocks partitioned when asked for: a split partitions only the blocks its node
 * asked for (every one, for a splitter that reads every attribute), and a node asking for a
 * block its parent left behind gets it by one stable partition of the range of the nearest
 * ancestor that had it sorted, into the ranges every row is in now. A forest's splitter
 * reads a few drawn attributes per node: the other blocks are not moved level after level.
 * The order kept is the same (value, then row, of the node's rows), so are the trees. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../grow_internal.h"

void tlg_stale_free(struct tlg_stale *st)
{
    if (!st)
        return;
    free(st->fresh);
    free(st->kept);
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
    unsigned char *kept = realloc(st->kept, cap);
    if (kept)
        st->kept = kept;
    size_t *b = realloc(st->path_begin, cap * sizeof *b);
    if (b)
        st->path_begin = b;
    size_t *n = realloc(st->path_n, cap * sizeof *n);
    if (n)
        st->path_n = n;
    if (!fresh || !kept || !b || !n)
        return -1;
    st->cap = cap;
    return 0;
}

/* Partitions on demand serve a fit whose rows each go to one branch at every split (a row
 * given twice goes with its copy): no row grown on has an unknown value, no missing-value
 * method routes, and sorted blocks are kept. */
static int applies(const tl_grow_ctx *g, const tlg_rowset *root)
{
    const uint32_t *rows = tlg_rows(root);
    size_t n = root->n;
    if (!g->v.n_blocks || g->v.compact || g->leaf_only || (g->p->missing && g->p->missing->route))
        return 0;
    for (size_t s = 0; n && s < g->v.n_blocks; s++) /* unknown values sort last */
        if (isnan(g->d->cols[g->num_attr[s]].num[tlg_sorted(root, s)[n - 1]]))
            return 0;
    for (size_t a = 0; a < g->d->schema.n_attrs; a++) {
        const int *code = g->d->schema.attrs[a].kind == TL_ATTR_NOMINAL ? g->d->cols[a].code : NULL;
        for (size_t i = 0; code && i < n; i++)
            if (code[rows[i]] == TL_MISSING_CODE)
                return 0;
    }
    return 1;
}

int tlg_stale_setup(tl_grow_ctx *g, const tlg_rowset *root, tl_err *err)
{
    if (!applies(g, root))
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
    memset(st->fresh, 1, st->n_blocks); /* the presort's */
    st->kept[0] = 1;
    return TL_OK;
}

void tlg_stale_refresh(const tl_grow_ctx *g, const tlg_rowset *rs, size_t s)
{
    struct tlg_stale *st = g->v.stale;
    size_t nb = st->n_blocks, d = rs->depth;
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
    tlg_from_tmp(g, block, xs, ys, n);
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
    int all = 1;
    for (size_t s = 0; s < st->n_blocks; s++) {
        int wanted = tlg_stale_wanted(g, s, node);
        st->fresh[(d + 1) * st->n_blocks + s] = (unsigned char)wanted;
        all &= wanted;
    }
    /* a refresh reads the rows' ranges only below the first split that left a block */
    st->kept[d + 1] = st->kept[d] && all;
    return TL_OK;
}

void tlg_stale_moved(const tl_grow_ctx *g, const tlg_rowset *kid)
{
    const uint32_t *rows = tlg_rows(kid);
    uint32_t *range_of = g->v.stale->range_of, begin = (uint32_t)kid->begin;
    if (g->v.stale->kept[kid->depth])
        return;
    for (size_t i = 0; i < kid->n; i++)
        range_of[rows[i]] = begin;
}
