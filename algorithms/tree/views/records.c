/* The grower's compact records: one 32-bit word per row and numeric attribute in sorted order
 * (row id, class code, "cut allowed" and "differs" bits), for unit-weight classification
 * without unknown values; a third of the packed values' bytes, and no value is read while
 * sweeping. Nodes above rec_cap rows build one attribute's records at a time instead of keeping
 * them all, which bounds the memory of a fit. */
#include <stdlib.h>
#include <string.h>

#include "../grow_internal.h"

/* Every row's class code and row id fit beside the two bits. */
static int fits(const tl_dataset *d, unsigned *shift)
{
    size_t k = tl_dataset_n_classes(d);
    unsigned bits = 0;
    while (bits < 16 && ((size_t)1 << bits) < k)
        bits++;
    *shift = TL_REC_CLASS_SHIFT + bits;
    return ((size_t)1 << bits) >= k && (uint64_t)d->n_rows <= (UINT64_C(1) << (32 - *shift));
}

int tlg_compact_applies(const tl_dataset *d, const tl_grow_params *p, const uint32_t *rows,
                        size_t n)
{
    unsigned shift;
    const tl_criterion_type *c = p->criterion;
    unsigned num = tlg_wanted(p, TL_ATTR_NUMERIC).kinds, nom = tlg_wanted(p, TL_ATTR_NOMINAL).kinds;
    if (!p->numeric || !(num & TL_VIEW_BIT(TL_VIEW_RECORDS)) || !tl_dataset_is_classification(d) ||
        !d->y.code || !fits(d, &shift) || (p->missing && p->missing->route) || !c->impurity ||
        c->score || c->prefix_loss || (nom & TL_VIEW_BIT(TL_VIEW_TRAIN_VALUES)))
        return 0;
    for (size_t i = 0; i < n; i++)
        if (tl_dataset_weight(d, rows[i]) != 1.0)
            return 0;
    for (size_t a = 0; a < d->schema.n_attrs; a++)
        for (size_t i = 0; i < n; i++)
            if (tl_dataset_is_missing(d, a, rows[i]))
                return 0;
    return 1;
}

/* Nodes of up to this share of the rows keep their records (on large data: the records of
 * every attribute for every row would cost 4 bytes a cell, as much as half the data). */
#define TL_REC_SHARE 0.2
/* Below this many cells the root keeps them all. */
#define TL_REC_ALL_CELLS ((size_t)1 << 22)

int tlg_compact_setup(tl_grow_ctx *g, size_t n, tl_err *err)
{
    fits(g->d, &g->v.rec_shift);
    double gap = tlg_wanted(g->p, TL_ATTR_NUMERIC).record_gap;
    g->v.rec_gap = gap > 0 ? gap : TL_REC_GAP;
    for (size_t s = 0; g->v.train_vals && s < g->n_num; s++)
        g->v.train_n[s] = SIZE_MAX; /* filled from the root's first sort of the slot */
    g->v.rec_cap = n * g->n_num <= TL_REC_ALL_CELLS ? n : (size_t)(TL_REC_SHARE * (double)n);
    size_t groups = 3; /* a partition's: the branches and the rows that stay */
    for (size_t a = 0; a < g->d->schema.n_attrs; a++)
        if (g->d->schema.attrs[a].n_levels + 1 > groups)
            groups = g->d->schema.attrs[a].n_levels + 1;
    g->v.last_kept = malloc(groups * sizeof *g->v.last_kept);
    g->v.branch1 = calloc(g->d->n_rows / 64 + 1, sizeof *g->v.branch1);
    if (!g->v.last_kept || !g->v.branch1)
        return tl_err_set(err, TL_ENOMEM, "out of memory growing a tree on %zu rows", n);
    return TL_OK;
}

/* The records of slot's sorted pairs[0..n) (their row fields hold the records but the two
 * bits) into out. */
static void encode(const tl_grow_ctx *g, const tlg_keyed_row *pairs, size_t n, uint32_t *out)
{
    double prev = 0, gap = g->v.rec_gap;
    for (size_t i = 0; i < n; i++) {
        uint32_t bits = 0;
        double v = tlg_key_value(pairs[i].key);
        if (i > 0 && v != prev)
            bits = TL_REC_DIFFERS | (v > prev + gap ? TL_REC_CUT : 0);
        out[i] = pairs[i].row | bits;
        prev = v;
    }
}

/* The slot's training values (tl_grow_train_values) from its first sort, the root's, as
 * tlg_presort keeps them on the other paths; later sorts (of nodes) leave them. */
static void keep_train_values(const tl_grow_ctx *g, size_t slot, const tlg_keyed_row *pairs,
                              size_t n)
{
    if (!g->v.train_vals || g->v.train_n[slot] != SIZE_MAX)
        return;
    size_t at = slot * g->n_rows; /* no value is unknown on this path */
    for (size_t i = 0; i < n; i++) {
        g->v.train_vals[at + i] = tlg_key_value(pairs[i].key);
        g->v.train_rows[at + i] = pairs[i].row >> g->v.rec_shift;
    }
    g->v.train_n[slot] = n;
}

/* Sort rows[0..n) (increasing) by slot's values into pairs (2n entries), each carrying its
 * record but the bits: the row ids keep their order in the high bits, so ties stay in row
 * order, and the class codes are read in row order rather than gathered in value order. */
static int sort_slot(const tl_grow_ctx *g, const uint32_t *rows, size_t n, size_t slot,
                     tlg_keyed_row *pairs)
{
    const double *x = g->d->cols[g->num_attr[slot]].num;
    const int *code = g->d->y.code;
    unsigned shift = g->v.rec_shift;
    for (size_t i = 0; i < n; i++) {
        uint32_t r = rows[i];
        pairs[i].key = tlg_sort_key(x[r]);
        pairs[i].row = r << shift | (uint32_t)code[r] << TL_REC_CLASS_SHIFT;
    }
    return tlg_sort_keyed(pairs, pairs + n, n);
}

int tlg_attr_records(const tl_grow_ctx *g, const uint32_t *rows, size_t n, size_t slot,
                     uint32_t *out, tl_err *err)
{
    tlg_keyed_row *pairs = malloc(2 * (n ? n : 1) * sizeof *pairs);
    if (!pairs || sort_slot(g, rows, n, slot, pairs)) {
        free(pairs);
        return tl_err_set(err, TL_ENOMEM, "out of memory sorting %zu rows", n);
    }
    encode(g, pairs, n, out);
    keep_train_values(g, slot, pairs, n);
    free(pairs);
    return TL_OK;
}

int tlg_materialise(tl_grow_ctx *g, tlg_rowset *rs, tl_err *err)
{
    size_t n = rs->n;
    size_t cells = g->v.rec_cap * g->n_num > 0 ? g->v.rec_cap * g->n_num : 1;
    if (!g->v.rec_buf && !(g->v.rec_buf = malloc(cells * sizeof *g->v.rec_buf)))
        return tl_err_set(err, TL_ENOMEM, "out of memory growing a tree on %zu rows", n);
    tlg_keyed_row *pairs = malloc(2 * (n ? n : 1) * sizeof *pairs);
    if (!pairs)
        return tl_err_set(err, TL_ENOMEM, "out of memory sorting %zu rows", n);
    for (size_t s = 0; s < g->n_num; s++) {
        if (sort_slot(g, tlg_rows(rs), n, s, pairs)) {
            free(pairs);
            return tl_err_set(err, TL_ENOMEM, "out of memory sorting %zu rows", n);
        }
        encode(g, pairs, n, g->v.rec_buf + s * n);
        keep_train_values(g, s, pairs, n);
    }
    free(pairs);
    rs->rec = g->v.rec_buf;
    rs->rec_stride = n;
    rs->rec_begin = 0;
    return TL_OK;
}

/* The bits of a kept record whose group's previous record sat at last - 1 (last > 0), when no
 * step between them allowed a cut but some differed: steps each too small to cut between may
 * add up to more than the gap, so the two values decide. */
static uint32_t joined_close(const tl_grow_ctx *g, const uint32_t *rec, size_t last, uint32_t v,
                             const double *x)
{
    double prev = x[rec[last - 1] >> g->v.rec_shift], cur = x[v >> g->v.rec_shift];
    return TL_REC_DIFFERS | (cur > prev + g->v.rec_gap ? TL_REC_CUT : 0);
}

/* tlg_partition_records into two groups (a binary split, every row going down): the group
 * read from g->v.branch1 (a bit per row: an eighth of the bytes, so the lookups stay in cache),
 * the groups' positions kept in registers and chosen by masks: the group is as good as
 * random, and a branch on it would mispredict half the time. */
static void partition_two(const tl_grow_ctx *g, uint32_t *rec, size_t n, const size_t *off,
                          const double *x)
{
    size_t o0 = off[0], o1 = off[1], last0 = 0, last1 = 0, last_cut = 0, last_differs = 0;
    const uint32_t bits = TL_REC_CUT | TL_REC_DIFFERS;
    unsigned shift = g->v.rec_shift;
    for (size_t i = 0; i < n; i++) {
        uint32_t v = rec[i];
        uint32_t r = v >> shift;
        size_t b = (size_t)(g->v.branch1[r >> 6] >> (r & 63)) & 1u, m = 0 - b; /* m: b's mask */
        last_cut = (v & TL_REC_CUT) ? i + 1 : last_cut;
        if ((v & bits) == TL_REC_DIFFERS)
            last_differs = i + 1;
        size_t lb = (last1 & m) | (last0 & ~m);
        uint32_t nb = bits & (0 - (uint32_t)(last_cut > lb));
        /* one rarely taken branch (values within the gap): ties make the cut test itself
         * unpredictable */
        if ((last_cut <= lb) & (last_differs > lb) & (lb > 0))
            nb = joined_close(g, rec, lb, v, x);
        g->tmp[(o1 & m) | (o0 & ~m)] = (v & ~bits) | nb;
        o0 += 1 - b;
        o1 += b;
        last0 = (last0 & m) | ((i + 1) & ~m);
        last1 = ((i + 1) & m) | (last1 & ~m);
    }
    memcpy(rec, g->tmp, n * sizeof *rec);
}

void tlg_partition_records(const tl_grow_ctx *g, uint32_t *rec, size_t n, size_t *off,
                           size_t groups, int narrow, const double *x)
{
    if (groups == 2 && narrow && g->v.branch1) {
        partition_two(g, rec, n, off, x);
        return;
    }
    size_t *last = g->v.last_kept; /* 1 + the position of the group's last record, 0: none */
    memset(last, 0, groups * sizeof *last);
    size_t last_cut = 0, last_differs = 0; /* 1 + the position of the last such step */
    const uint32_t bits = TL_REC_CUT | TL_REC_DIFFERS;
    unsigned shift = g->v.rec_shift;
    for (size_t i = 0; i < n; i++) {
        uint32_t v = rec[i], r = v >> shift;
        /* a step that allowed a cut also differed; one that differed without allowing a cut
         * (values within the splitter's gap, g->v.rec_gap) is rare */
        last_cut = (v & TL_REC_CUT) ? i + 1 : last_cut;
        if ((v & bits) == TL_REC_DIFFERS)
            last_differs = i + 1;
        size_t b = narrow ? g->branch8[r] : (size_t)g->branch[r];
        size_t lb = last[b];
        /* the cut is allowed when a step between allowed one (the values only grow), the
         * values are equal when every step was equal; a group's first record: no matter */
        uint32_t nb = last_cut > lb ? bits : 0;
        if (nb == 0 && last_differs > lb && lb > 0)
            nb = joined_close(g, rec, lb, v, x);
        g->tmp[off[b]++] = (v & ~bits) | nb;
        last[b] = i + 1;
    }
    memcpy(rec, g->tmp, n * sizeof *rec);
}

void tlg_route_records(const tl_grow_ctx *g, const tlg_rowset *rs, const tl_split *s,
                       size_t *counts, double *stats)
{
    const uint32_t *rec = tlg_rec(rs, (size_t)g->num_slot[s->attr]);
    const double *x = g->d->cols[s->attr].num;
    unsigned shift = g->v.rec_shift;
    uint32_t cmask = (1u << (shift - TL_REC_CLASS_SHIFT)) - 1;
    size_t lo = 0, hi = rs->n, k = g->k;
    while (lo < hi) { /* the first record whose value exceeds the threshold */
        size_t mid = lo + (hi - lo) / 2;
        if (x[rec[mid] >> shift] <= s->threshold)
            lo = mid + 1;
        else
            hi = mid;
    }
    counts[0] = lo;
    counts[1] = rs->n - lo;
    for (size_t i = 0; i < rs->n; i++) {
        uint32_t r = rec[i] >> shift, b = i >= lo;
        uint64_t bit = (uint64_t)1 << (r & 63);
        g->branch8[r] = (uint8_t)b;
        g->v.branch1[r >> 6] = b ? g->v.branch1[r >> 6] | bit : g->v.branch1[r >> 6] & ~bit;
        stats[b * k + ((rec[i] >> TL_REC_CLASS_SHIFT) & cmask)] += 1.0;
    }
}
