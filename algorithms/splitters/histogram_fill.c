/* The histogram splitter's node histograms: every numeric attribute's from one pass over the
 * node's rows, or, for the second child of a split, its parent's less its sibling's (LightGBM's
 * histogram subtraction) when that is exact: class counts of rows of weight 1. */
#include <stdlib.h>
#include <string.h>

#include "histogram.h"

/* A parent needs this many rows for its second child to be subtracted: below, copying the
 * parent's bins costs about what counting the child's rows does. */
#define TLH_SUBTRACT_MIN_ROWS 256

void tlh_free(tlh_fit *f)
{
    if (!f)
        return;
    for (size_t i = 0; i < f->cap_pending; i++) {
        free(f->pending[i].hist);
        free(f->pending[i].occ);
    }
    free(f->pending);
    free(f->slot);
    free(f->n_bins);
    free(f->thr);
    free(f->bin8);
    free(f->bin16);
    free(f->hist);
    free(f->hist_at);
    free(f->occ);
    free(f->occ_at);
    free(f->order);
    free(f->count);
    free(f);
}

/* Zeroes the records whose bits are set, and the bits. */
static void clear(const tlh_fit *f, double *hist, uint64_t *occ)
{
    for (size_t s = 0; s < f->n_num; s++) {
        uint64_t *o = occ + f->occ_at[s];
        double *h = hist + f->hist_at[s];
        for (size_t wi = 0; wi < (f->n_bins[s] + 1 + 63) / 64; wi++) {
            for (uint64_t bits = o[wi]; bits; bits &= bits - 1)
                memset(h + (wi * 64 + (size_t)__builtin_ctzll(bits)) * f->rec, 0,
                       f->rec * sizeof *h);
            o[wi] = 0;
        }
    }
}

/* Adds the node's rows into the cleared histograms; called with constant wide and
 * regression, so that each of the four loops is compiled without their tests. */
static inline __attribute__((always_inline)) void accumulate(tlh_fit *f, const tl_dataset *d,
                                                             const tl_node_rows *node, int wide,
                                                             int regression)
{
    size_t n_num = f->n_num, rec = f->rec;
    double *hist = f->hist;
    uint64_t *occ = f->occ;
    const size_t *hist_at = f->hist_at, *occ_at = f->occ_at;
    for (size_t i = 0; i < node->n; i++) {
        uint32_t r = node->rows[i];
        double w = node->w[r], y = regression ? d->y.num[r] : 0;
        size_t c = regression ? 0 : (size_t)d->y.code[r];
        const uint8_t *b8 = wide ? NULL : f->bin8 + (size_t)r * n_num;
        const uint16_t *b16 = wide ? f->bin16 + (size_t)r * n_num : NULL;
        for (size_t s = 0; s < n_num; s++) {
            size_t b = wide ? b16[s] : b8[s];
            double *h = hist + hist_at[s] + b * rec;
            occ[occ_at[s] + b / 64] |= 1ull << (b % 64);
            h[0] += w;
            if (regression) { /* as tl_grow_add_row sums a row */
                h[1] += w;
                h[2] += w * y;
                h[3] += w * y * y;
            } else {
                h[1 + c] += w;
            }
        }
    }
}

static void count_rows(tlh_fit *f, const tl_grow_ctx *g, const tl_node_rows *node)
{
    const tl_dataset *d = tl_grow_data(g);
    if (f->bin16 && f->regression)
        accumulate(f, d, node, 1, 1);
    else if (f->bin16)
        accumulate(f, d, node, 1, 0);
    else if (f->regression)
        accumulate(f, d, node, 0, 1);
    else
        accumulate(f, d, node, 0, 0);
}

/* A free entry on top of the stack, its buffers zero; NULL when out of memory. */
static tlh_pending *push(tlh_fit *f)
{
    if (f->n_pending == f->cap_pending) {
        size_t cap = f->cap_pending ? 2 * f->cap_pending : 16;
        tlh_pending *p = realloc(f->pending, cap * sizeof *p);
        if (!p)
            return NULL;
        memset(p + f->cap_pending, 0, (cap - f->cap_pending) * sizeof *p);
        f->pending = p;
        f->cap_pending = cap;
    }
    tlh_pending *e = &f->pending[f->n_pending];
    if (!e->hist) {
        e->hist = calloc(f->cells ? f->cells : 1, sizeof *e->hist);
        e->occ = calloc(f->words ? f->words : 1, sizeof *e->occ);
        if (!e->hist || !e->occ) {
            free(e->hist);
            free(e->occ);
            e->hist = NULL;
            e->occ = NULL;
            return NULL;
        }
    }
    f->n_pending++;
    return e;
}

/* node lies in the subtree of anc (ids grow downwards: a child's exceeds its parent's). */
static int below(const tl_grow_ctx *g, size_t node, size_t anc)
{
    while (node != SIZE_MAX && node > anc)
        node = tl_grow_parent(g, node);
    return node == anc;
}

/* The pending entry of node (taken off the stack), or NULL. The grower goes depth first, so
 * an entry stays useful while the nodes split are its first sibling's descendants; once
 * past them without a match (the second child became a leaf, or kept rows of its parent's
 * at the node) it is freed. */
static tlh_pending *pop_for(tlh_fit *f, const tl_grow_ctx *g, const tl_node_rows *node)
{
    while (f->n_pending > 0) {
        tlh_pending *e = &f->pending[f->n_pending - 1];
        if (e->id == node->id && e->rows == node->rows && e->n == node->n &&
            tl_grow_parent(g, node->id) == e->parent) {
            f->n_pending--;
            return e;
        }
        if (below(g, node->id, e->id - 1))
            return NULL;
        clear(f, e->hist, e->occ);
        f->n_pending--;
    }
    return NULL;
}

/* After the first child's histograms are counted in f (the parent's saved in e): e becomes
 * the second child's, bin by bin where the parent had rows; whole numbers, so exact. */
static void subtract(const tlh_fit *f, tlh_pending *e)
{
    for (size_t s = 0; s < f->n_num; s++) {
        size_t end = f->n_bins[s] + 1;
        const uint64_t *o = f->occ + f->occ_at[s];
        uint64_t *eo = e->occ + f->occ_at[s];
        const double *h = f->hist + f->hist_at[s];
        double *eh = e->hist + f->hist_at[s];
        for (size_t b = tlh_next_bin(o, 0, end); b < end; b = tlh_next_bin(o, b + 1, end)) {
            for (size_t j = 0; j < f->rec; j++)
                eh[b * f->rec + j] -= h[b * f->rec + j];
            if (eh[b * f->rec] == 0) { /* no row of the second child: a zero record */
                memset(eh + b * f->rec, 0, f->rec * sizeof *eh);
                eo[b / 64] &= ~(1ull << (b % 64));
            }
        }
    }
}

int tlh_fill(tlh_fit *f, const tl_grow_ctx *g, const tl_node_rows *node)
{
    if (f->filled && f->node_id == node->id && f->node_rows == node->rows && f->node_n == node->n)
        return TL_OK;
    tlh_pending *w = pop_for(f, g, node);
    if (w) { /* a second child: its histograms are waiting; f's go back zeroed */
        tlh_pending *e = w;
        clear(f, f->hist, f->occ);
        double *h = f->hist;
        uint64_t *o = f->occ;
        f->hist = e->hist;
        f->occ = e->occ;
        e->hist = h;
        e->occ = o;
    } else {
        /* the first child of the node f holds, its rows the first of its parent's (split in
         * place): the parent's histograms are saved for the second child */
        tlh_pending *e = NULL;
        if (f->filled && !f->regression && node->unit_weights && node->rows == f->node_rows &&
            node->n < f->node_n && f->node_n >= TLH_SUBTRACT_MIN_ROWS &&
            tl_grow_parent(g, node->id) == f->node_id) {
            if (!(e = push(f)))
                return TL_ENOMEM;
            memcpy(e->occ, f->occ, f->words * sizeof *e->occ);
            for (size_t s = 0; s < f->n_num; s++) {
                size_t end = f->n_bins[s] + 1, at = f->hist_at[s];
                const uint64_t *o = f->occ + f->occ_at[s];
                for (size_t b = tlh_next_bin(o, 0, end); b < end; b = tlh_next_bin(o, b + 1, end))
                    memcpy(e->hist + at + b * f->rec, f->hist + at + b * f->rec,
                           f->rec * sizeof *e->hist);
            }
            e->id = node->id + 1;
            e->parent = f->node_id;
            e->rows = node->rows + node->n;
            e->n = f->node_n - node->n;
        }
        clear(f, f->hist, f->occ);
        count_rows(f, g, node);
        if (e)
            subtract(f, e);
    }
    f->filled = 1;
    f->node_id = node->id;
    f->node_rows = node->rows;
    f->node_n = node->n;
    return TL_OK;
}
