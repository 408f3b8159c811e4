/* The grower's partition: a split node's rows routed, and its range of the rows and of the
 * blocks kept with them split in place into its children's ranges (or dealt into a fresh
 * partition when rows with an unknown value go down every branch). The sorts they start
 * from: views/sort.c; the fast binary split: grow_split_two.c; the children's buffers and
 * statistics: grow_children.c. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "grow_internal.h"

/* Where each of nb groups of the given sizes starts, into off (nb entries). */
static void group_offsets(size_t *off, size_t nb, const size_t *counts)
{
    size_t acc = 0;
    for (size_t b = 0; b < nb; b++) {
        off[b] = acc;
        acc += counts[b];
    }
}

/* The group of row: g->branch8 when narrow (a byte per row, so the lookups of a partition
 * stay in cache), else g->branch. */
static inline size_t group_of(const tl_grow_ctx *g, uint32_t row, int narrow)
{
    return narrow ? g->branch8[row] : (size_t)g->branch[row];
}

/* partition() into two groups: the first's entries move forward in place (a write never
 * passes its read), only the second's go through the buffers and are copied back. Every
 * entry is written to both places, the side choosing which write counts (no branch on it). */
static void partition_halves(const tl_grow_ctx *g, uint32_t *block, double *xs, int *ys,
                             size_t n, int narrow)
{
    size_t nl = 0, nr = 0;
    uint32_t *tmp = g->tmp;
    double *tmp_x = g->v.tmp_x;
    int *tmp_y = g->v.tmp_y;
    if (!xs) {
        for (size_t i = 0; i < n; i++) {
            uint32_t r = block[i];
            size_t right = group_of(g, r, narrow);
            block[nl] = r;
            tmp[nr] = r;
            nl += !right;
            nr += right;
        }
    } else if (!ys) {
        for (size_t i = 0; i < n; i++) {
            uint32_t r = block[i];
            double x = xs[i];
            size_t right = group_of(g, r, narrow);
            block[nl] = r;
            xs[nl] = x;
            tmp[nr] = r;
            tmp_x[nr] = x;
            nl += !right;
            nr += right;
        }
    } else {
        for (size_t i = 0; i < n; i++) {
            uint32_t r = block[i];
            double x = xs[i];
            int y = ys[i];
            size_t right = group_of(g, r, narrow);
            block[nl] = r;
            xs[nl] = x;
            ys[nl] = y;
            tmp[nr] = r;
            tmp_x[nr] = x;
            tmp_y[nr] = y;
            nl += !right;
            nr += right;
        }
    }
    tlg_from_tmp(g, block + nl, xs ? xs + nl : NULL, ys ? ys + nl : NULL, nr);
}

/* Stable partition of block[0..n) by group_of into nb groups of the given sizes (every
 * row has a group here), and of the values xs and class codes ys kept in block's order
 * (either may be NULL). off: nb entries of scratch. */
static void partition(const tl_grow_ctx *g, uint32_t *block, double *xs, int *ys, size_t n,
                      size_t nb, const size_t *counts, size_t *off, int narrow)
{
    if (nb == 2) {
        partition_halves(g, block, xs, ys, n, narrow);
        return;
    }
    group_offsets(off, nb, counts);
    if (!xs) {
        for (size_t i = 0; i < n; i++)
            g->tmp[off[group_of(g, block[i], narrow)]++] = block[i];
    } else if (!ys) {
        for (size_t i = 0; i < n; i++) {
            size_t o = off[group_of(g, block[i], narrow)]++;
            g->tmp[o] = block[i];
            g->v.tmp_x[o] = xs[i];
        }
    } else {
        for (size_t i = 0; i < n; i++) {
            size_t o = off[group_of(g, block[i], narrow)]++;
            g->tmp[o] = block[i];
            g->v.tmp_x[o] = xs[i];
            g->v.tmp_y[o] = ys[i];
        }
    }
    tlg_from_tmp(g, block, xs, ys, n);
}

/* Every row goes to one branch or stays: the children's ranges are sub-ranges of the
 * parent's, its rows and blocks partitioned in place. routed: the rows' groups are in branch8
 * and branch1 already, by the records of slot routed_slot, which stay as they are: the left
 * rows are their prefix, in order, and each record keeps its bits but the right's first,
 * whose bits no reader uses (a node's first record carries none, see TL_REC_CUT). TL_ENOMEM. */
static int hand_down_in_place(const tl_grow_ctx *g, const tlg_rowset *rs, size_t node,
                              size_t *counts, tlg_children *c, int routed, size_t routed_slot,
                              tl_err *err)
{
    int rc = g->v.stale ? tlg_stale_split(g, rs, node, err) : TL_OK;
    if (rc)
        return rc;
    size_t nb = c->n, groups = counts[nb] ? nb + 1 : nb; /* group nb: rows that stay */
    size_t *off = malloc(groups * sizeof *off);
    if (!off)
        return tl_err_set(err, TL_ENOMEM, "out of memory");
    int narrow = groups <= UINT8_MAX;
    uint32_t *rows = tlg_rows(rs);
    /* routed: tlg_route_records has set branch8 and branch1 */
    for (size_t i = 0; i < rs->n && narrow && !routed; i++)
        g->branch8[rows[i]] = (uint8_t)g->branch[rows[i]];
    /* branch1 serves only the partition of kept compact records (partition_two) */
    for (size_t i = 0; i < rs->n && rs->rec && g->v.branch1 && groups == 2 && !routed; i++) {
        uint32_t r = rows[i];
        uint64_t bit = (uint64_t)1 << (r & 63);
        g->v.branch1[r >> 6] =
            g->branch[r] ? g->v.branch1[r >> 6] | bit : g->v.branch1[r >> 6] & ~bit;
    }
    partition(g, rows, NULL, NULL, rs->n, groups, counts, off, narrow);
    for (size_t s2 = 0; rs->part->sorted && s2 < g->v.n_blocks; s2++)
        if (tlg_stale_wanted(g, s2, node))
            partition(g, tlg_sorted(rs, s2), tlg_xs(rs, s2), tlg_ys(rs, s2), rs->n, groups,
                      counts, off, narrow);
    for (size_t s2 = 0; rs->rec && s2 < g->n_num; s2++) {
        if (routed && s2 == routed_slot)
            continue;
        group_offsets(off, groups, counts);
        tlg_partition_records(g, tlg_rec(rs, s2), rs->n, off, groups, narrow,
                              g->d->cols[g->num_attr[s2]].num);
    }
    free(off);
    for (size_t b = 0, at = 0; b < nb; at += counts[b++])
        c->kids[b] = (tlg_rowset){.part = rs->part,
                                  .begin = rs->begin + at,
                                  .n = counts[b],
                                  .depth = rs->depth + 1,
                                  .unit = rs->unit,
                                  .rec = rs->rec,
                                  .rec_stride = rs->rec_stride,
                                  .rec_begin = rs->rec_begin + at};
    for (size_t b = 0; g->v.stale && b < nb; b++)
        tlg_stale_moved(g, &c->kids[b]);
    return TL_OK;
}

/* The fresh partition's value (and class) blocks, gathered from its sorted blocks: this path
 * runs only where rows go down every branch. TL_ENOMEM. */
static int copy_values(const tl_grow_ctx *g, tlg_part *fresh, tl_err *err)
{
    const int *code = g->v.tmp_y ? g->d->y.code : NULL;
    size_t total = fresh->stride;
    size_t cells = total * g->v.n_blocks > 0 ? total * g->v.n_blocks : 1;
    fresh->xs = malloc(cells * sizeof *fresh->xs);
    fresh->ys = code ? malloc(cells * sizeof *fresh->ys) : NULL;
    if (!fresh->xs || (code && !fresh->ys))
        return tl_err_set(err, TL_ENOMEM, "out of memory");
    for (size_t s2 = 0; s2 < g->v.n_blocks; s2++) {
        const double *x = g->d->cols[g->num_attr[s2]].num;
        const uint32_t *block = fresh->sorted + s2 * total;
        for (size_t i = 0; i < total; i++)
            fresh->xs[s2 * total + i] = x[block[i]];
        for (size_t i = 0; code && i < total; i++)
            fresh->ys[s2 * total + i] = code[block[i]];
    }
    return TL_OK;
}

/* Some rows go to every child: a fresh partition for the children, one pass per block
 * dealing each row to its branch's range (rows that stay at the node to none). */
static int hand_down_copies(const tl_grow_ctx *g, const tlg_rowset *rs, const size_t *counts,
                            tlg_children *c, tl_err *err)
{
    size_t nb = c->n, n_missing = c->n_missing, total = 0;
    for (size_t b = 0; b < nb; b++)
        total += counts[b] + n_missing;
    c->missing_rows = malloc(n_missing * sizeof *c->missing_rows);
    c->missing_w = malloc(n_missing * sizeof *c->missing_w);
    tlg_part *fresh = c->fresh = calloc(1, sizeof *fresh);
    uint32_t **dst = calloc(nb, sizeof *dst);
    if (fresh)
        fresh->rows = malloc(total * (g->v.n_blocks + 1) * sizeof *fresh->rows);
    if (!c->missing_rows || !c->missing_w || !fresh || !fresh->rows || !dst) {
        free(dst);
        return tl_err_set(err, TL_ENOMEM, "out of memory");
    }
    fresh->stride = total;
    fresh->sorted = rs->part->sorted ? fresh->rows + total : NULL;
    const uint32_t *rows = tlg_rows(rs);
    for (size_t i = 0, m = 0; i < rs->n; i++) {
        uint32_t r = rows[i];
        if (g->branch[r] < 0) {
            c->missing_rows[m] = r;
            c->missing_w[m++] = g->w[r];
        }
    }
    for (size_t b = 0, at = 0; b < nb; at += c->kids[b++].n)
        c->kids[b] = (tlg_rowset){
            .part = fresh, .begin = at, .n = counts[b] + n_missing, .depth = rs->depth + 1};
    for (size_t s2 = 0; s2 <= (fresh->sorted ? g->v.n_blocks : 0); s2++) {
        const uint32_t *src = s2 == 0 ? rows : tlg_sorted(rs, s2 - 1);
        for (size_t b = 0; b < nb; b++)
            dst[b] = s2 == 0 ? tlg_rows(&c->kids[b]) : tlg_sorted(&c->kids[b], s2 - 1);
        for (size_t i = 0; i < rs->n; i++) {
            int br = g->branch[src[i]];
            if (br >= 0 && (size_t)br < nb)
                *dst[br]++ = src[i];
            else if (br < 0)
                for (size_t b = 0; b < nb; b++)
                    *dst[b]++ = src[i];
        }
    }
    free(dst);
    return g->v.packed ? copy_values(g, fresh, err) : TL_OK;
}

/* Where each row of the node goes: the test's branch, and for a row whose value is unknown
 * the missing-value method's choice (by default TL_UNKNOWN_SHARE: every branch). A row that
 * stays at the node gets branch nb, so partitions put it after every child's rows. */
static int route_rows(tl_grow_ctx *g, const tl_node_rows *view, const tl_split *s, size_t nb,
                      tl_err *err)
{
    tl_tree *t = g->t;
    size_t node = view->id;
    int unknown = 0;
    const double *x = s->kind == TL_SPLIT_NUMERIC ? g->d->cols[s->attr].num : NULL;
    for (size_t i = 0; i < view->n && x; i++) { /* tl_split_branch's, inline */
        uint32_t r = view->rows[i];
        g->branch[r] = isnan(x[r]) ? -1 : (x[r] <= s->threshold ? 0 : 1);
        unknown |= g->branch[r] < 0;
    }
    for (size_t i = 0; i < view->n && !x; i++) {
        uint32_t r = view->rows[i];
        /* from the split record: the node's children do not exist yet */
        g->branch[r] = tl_split_branch(s, g->d, r);
        unknown |= g->branch[r] < 0;
    }
    const tl_missing_type *m = g->p->missing;
    t->unknown[node] = TL_UNKNOWN_SHARE;
    if (m && m->route) {
        int rc = m->route(g->p->missing_state, g, t, node, view, s, g->branch, err);
        if (rc)
            return rc;
    }
    for (size_t i = 0; i < view->n && unknown; i++) {
        int *b = &g->branch[view->rows[i]];
        if (*b == TL_UNKNOWN_STOP || *b >= (int)nb)
            *b = (int)nb;
        else if (*b < 0)
            *b = TL_UNKNOWN_SHARE;
    }
    return TL_OK;
}

int tlg_partition(tl_grow_ctx *g, const tl_node_rows *view, const tlg_rowset *rs, const tl_split *s,
                  tlg_children *out, tl_err *err)
{
    tl_tree *t = g->t;
    size_t node = view->id, nb = s->n_branches;
    memset(out, 0, sizeof *out);
    size_t first = t->first_child[node]; /* the children's block, made by the write step */
    out->first = first;
    out->n = nb;
    /* a binary numeric test on a node with records: its attribute's records in order are
     * the rows that go left, then those that go right */
    int by_records = g->v.compact && rs->rec && s->kind == TL_SPLIT_NUMERIC && nb == 2;
    const tl_missing_type *m = g->p->missing;
    int alone = s->kind == TL_SPLIT_NUMERIC && nb == 2 && !g->v.n_blocks && !rs->part->xs &&
                !rs->rec && !(m && m->route);
    double *pool_stats;
    int rc = tlg_children_pooled(g, view->depth, nb, out, &pool_stats, err);
    if (rc)
        return rc;
    if (alone && tlg_split_two(g, node, rs, s, pool_stats, out))
        return TL_OK;
    if ((rc = by_records ? TL_OK : route_rows(g, view, s, nb, err)))
        return rc;
    size_t *counts = calloc(nb + 1, sizeof *counts);
    if (!counts)
        return tl_err_set(err, TL_ENOMEM, "out of memory");
    if (by_records)
        out->stats = pool_stats;
    double known_total = 0;
    if (by_records) {
        t->unknown[node] = TL_UNKNOWN_SHARE;
        tlg_route_records(g, rs, s, counts, out->stats);
        for (size_t b = 0; b < 2; b++)
            out->share[b] = (double)counts[b];
        known_total = (double)rs->n;
    }
    const uint32_t *rows = tlg_rows(rs);
    for (size_t i = 0; i < rs->n && !by_records; i++) {
        uint32_t r = rows[i];
        int b = g->branch[r];
        if (b < 0) {
            out->n_missing++;
            continue;
        }
        counts[b]++;
        if ((size_t)b < nb) {
            out->share[b] += g->w[r];
            known_total += g->w[r];
        }
    }
    out->known = known_total > 0;
    for (size_t b = 0; b < nb; b++)
        out->share[b] = known_total > 0 ? out->share[b] / known_total : 0;
    if (out->n_missing == 0)
        rc = hand_down_in_place(g, rs, node, counts, out, by_records,
                                by_records ? (size_t)g->num_slot[s->attr] : 0, err);
    else
        rc = hand_down_copies(g, rs, counts, out, err);
    free(counts);
    return rc;
}
