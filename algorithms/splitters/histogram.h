/* The histogram splitter's per-fit state, shared by its plug-in (histogram.c: binning and the
 * sweep) and its node histograms (histogram_fill.c). */
#ifndef TL_SPLITTERS_HISTOGRAM_H
#define TL_SPLITTERS_HISTOGRAM_H

#include <stddef.h>
#include <stdint.h>

#include "treelab/tl_grow.h"
#include "treelab/tl_splitters.h"

/* A second child's histograms, its parent's less its first sibling's (LightGBM's
 * subtraction), waiting for the child to be split. */
typedef struct tlh_pending {
    size_t id, parent; /* the second child, and the parent */
    const uint32_t *rows;
    size_t n;
    double *hist; /* as fit.hist / fit.occ; all zero while the entry is free */
    uint64_t *occ;
} tlh_pending;

/* One fit's bins, and the histograms of the node being split. */
typedef struct tlh_fit {
    size_t n_num, k, rec; /* numeric attributes; statistics per bin; doubles per bin (k + 1:
                             the weight first) */
    int regression;
    long *slot;      /* attribute -> slot, or -1 */
    size_t *n_bins;  /* per slot: bins of known values; bin n_bins[s] holds the unknown */
    double *thr;     /* per slot, at s * (max_bins - 1): the bins' upper boundaries */
    size_t thr_cap;  /* max_bins - 1 */
    uint8_t *bin8;   /* bin of row r in slot s at r * n_num + s (every n_bins < 255) */
    uint16_t *bin16; /* ... when some attribute has more bins */
    double *hist;    /* per slot at hist_at[s]: (n_bins + 1) records */
    size_t *hist_at;
    uint64_t *occ; /* per slot at occ_at[s]: a bit per bin some row of the node fills */
    size_t *occ_at;
    size_t cells, words; /* doubles in hist, words in occ */
    size_t node_id;      /* the node the histograms hold (filled) */
    const uint32_t *node_rows;
    size_t node_n;
    int filled;
    tlh_pending *pending; /* a stack, innermost last */
    size_t n_pending, cap_pending;
    uint32_t *order; /* row-form criteria: the node's rows bin by bin */
    size_t *count;   /* ... and each bin's rows */
} tlh_fit;

/* Frees f (NULL: nothing). */
void tlh_free(tlh_fit *f);

/* The node's histograms into f->hist / f->occ (nothing to do when they hold them already).
 * TL_OK, or TL_ENOMEM when there was no memory to keep a second child's histograms. */
int tlh_fill(tlh_fit *f, const tl_grow_ctx *g, const tl_node_rows *node);

static inline size_t tlh_bin_at(const tlh_fit *f, uint32_t r, size_t s)
{
    size_t at = (size_t)r * f->n_num + s;
    return f->bin16 ? f->bin16[at] : f->bin8[at];
}

/* The first bin at or after from whose bit is set in occ, or end (the bits of empty bins are
 * skipped a word at a time: deep nodes fill few of many bins). */
static inline size_t tlh_next_bin(const uint64_t *occ, size_t from, size_t end)
{
    if (from >= end)
        return end;
    size_t wi = from / 64;
    uint64_t bits = occ[wi] & (~0ull << (from % 64));
    while (!bits) {
        if (++wi * 64 >= end)
            return end;
        bits = occ[wi];
    }
    size_t b = wi * 64 + (size_t)__builtin_ctzll(bits);
    return b < end ? b : end;
}

#endif
