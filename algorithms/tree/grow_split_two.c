/* The grower's fast binary split: a numeric test on a node whose rows carry nothing with them
 * (extra-trees' random cuts), routed, counted and moved in two passes (grow_rows.c takes
 * every other split). */
#include <stdlib.h>
#include <string.h>

#include "grow_internal.h"

/* Classes up to this many are counted in whole numbers by route_counted. */
#define TLG_COUNT_K 64

/* split_two's routing pass for rows of weight 1 and a nominal target of k <= TLG_COUNT_K
 * classes: each side's class weight is a sum of ones, a whole number, which a count gives
 * exactly (the same doubles as the sums); counts[0] gets the left side's rows. 0 when some
 * value is unknown (stats untouched). */
static int route_counted(const tl_grow_ctx *g, const tlg_rowset *rs, const double *x, double t,
                         uint8_t *side, size_t *counts, double *stats)
{
    const uint32_t *rows = tlg_rows(rs);
    const int *code = g->d->y.code;
    size_t k = g->k, n = rs->n, nl = 0, count[2 * TLG_COUNT_K];
    if (k == 2) { /* the left side's rows and its class-1 rows, without a store per row */
        size_t l1 = 0, n1 = 0;
        for (size_t i = 0; i < n; i++) {
            uint32_t r = rows[i];
            double xv = x[r];
            if (xv != xv)
                return 0;
            size_t le = xv <= t, c = (size_t)code[r];
            side[i] = (uint8_t)(1 - le);
            nl += le;
            l1 += le & c;
            n1 += c;
        }
        count[0] = nl - l1, count[1] = l1, count[2] = (n - nl) - (n1 - l1), count[3] = n1 - l1;
    } else {
        memset(count, 0, 2 * k * sizeof *count);
        for (size_t i = 0; i < n; i++) {
            uint32_t r = rows[i];
            double xv = x[r];
            if (xv != xv)
                return 0;
            size_t le = xv <= t;
            side[i] = (uint8_t)(1 - le);
            nl += le;
            count[(le ? 0 : k) + (size_t)code[r]]++;
        }
    }
    for (size_t j = 0; j < 2 * k; j++)
        stats[j] = (double)count[j];
    counts[0] = nl;
    counts[1] = n - nl;
    return 1;
}

/* A binary numeric test where the rows carry nothing with them (no sorted blocks, values or
 * records kept, no missing-value method's routing; extra-trees' random cuts): one pass routes
 * each row, counts it and adds it to its child's statistics (tlg_child_stats's sums, in its
 * order), a second moves the rows into the children's ranges (stable) from the side kept per
 * position in g->branch8; stats: 2 x k zeros, kept as the children's counts. 0 when some
 * row's value is unknown: nothing moved, the general path takes the node. */
int tlg_split_two(tl_grow_ctx *g, size_t node, const tlg_rowset *rs, const tl_split *s,
                  double *stats, tlg_children *out)
{
    const double *x = g->d->cols[s->attr].num, *w = g->w, t = s->threshold;
    uint32_t *rows = tlg_rows(rs);
    uint8_t *side = g->branch8; /* by position here, not by row */
    size_t k = g->k, n = rs->n, counts[2] = {0, 0};
    double share[2] = {0, 0}, known_total = 0;
    const int *code = g->t->regression ? NULL : g->d->y.code;
    if (rs->unit && code && k <= TLG_COUNT_K) { /* sums of ones: counts give the same doubles */
        if (!route_counted(g, rs, x, t, side, counts, stats))
            return 0;
        share[0] = (double)counts[0], share[1] = (double)counts[1], known_total = (double)n;
    } else
        for (size_t i = 0; i < n; i++) {
            uint32_t r = rows[i];
            double xv = x[r], wr = rs->unit ? 1.0 : w[r];
            if (xv != xv) {
                memset(stats, 0, 2 * k * sizeof *stats); /* as it came */
                return 0;
            }
            size_t b = xv <= t ? 0 : 1;
            side[i] = (uint8_t)b;
            counts[b]++;
            share[b] += wr;
            known_total += wr;
            if (code)
                stats[b * k + (size_t)code[r]] += wr;
            else
                tlg_add_row(g, stats + b * k, r, wr);
        }
    size_t nl = 0, nr = 0;
    for (size_t i = 0; i < n; i++) { /* no branch: the sides are a coin toss */
        uint32_t r = rows[i];
        size_t right = side[i];
        rows[nl] = r; /* nl <= i: in place */
        g->tmp[nr] = r;
        nl += 1 - right;
        nr += right;
    }
    memcpy(rows + nl, g->tmp, nr * sizeof *rows);
    g->t->unknown[node] = TL_UNKNOWN_SHARE;
    out->stats = stats;
    out->known = known_total > 0;
    for (size_t b = 0, at = 0; b < 2; at += counts[b++]) {
        out->share[b] = known_total > 0 ? share[b] / known_total : 0;
        out->kids[b] = (tlg_rowset){
            .part = rs->part, .begin = rs->begin + at, .n = counts[b], .depth = rs->depth + 1,
            .unit = rs->unit};
    }
    return 1;
}
