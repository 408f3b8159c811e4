/* C4.5's cut scan for c45_threshold (c45_scan.h): the gain of a cut in J48's weighted form,
 * J48's rule over the cuts in order, and the bounds that skip cuts which cannot be chosen
 * (single-class runs, blocks of cuts), with n log2 n from a table where counts are whole. */
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "c45_scan.h"

/* Copies k class weights. Few classes are the rule, and a loop here becomes a memcpy call
 * that cost more than the copy (7% of a fit on 10^5 rows). */
static void copy_stats(double *dst, const double *src, size_t k)
{
    switch (k) {
    case 3:
        dst[2] = src[2];
        dst[1] = src[1];
        dst[0] = src[0];
        return;
    case 2:
        dst[1] = src[1];
        dst[0] = src[0];
        return;
    default: memcpy(dst, src, k * sizeof *dst);
    }
}

/* n log2 n for the whole numbers below this, computed once per process: a node where every
 * row weighs 1 has whole-number class weights on each side of every cut, and a table entry
 * is the very double that v * log2(v) gives (tests/test_c45.c checks each one). */
#define TL_XLOGX_N (1u << 17)
static double xlogx_table[TL_XLOGX_N];
static pthread_once_t xlogx_once = PTHREAD_ONCE_INIT;

static void fill_xlogx_table(void)
{
    xlogx_table[0] = 0;
    for (uint32_t i = 1; i < TL_XLOGX_N; i++)
        xlogx_table[i] = (double)i * log2((double)i);
}

void tl_c45_scan_init(void)
{
    pthread_once(&xlogx_once, fill_xlogx_table);
}

const double *tl_c45_xlogx_table(size_t *n)
{
    pthread_once(&xlogx_once, fill_xlogx_table);
    *n = TL_XLOGX_N;
    return xlogx_table;
}

/* v log2 v, 0 for v <= 0: the term of every entropy sum here. whole: the caller knows v is a
 * whole number below TL_XLOGX_N (every weight and count of a node of fewer rows that all
 * weigh 1), so it comes from the table, with no test per call. */
static inline double xlogx_as(int whole, double v)
{
    if (whole)
        return xlogx_table[(uint32_t)v];
    return v > 0 ? v * log2(v) : 0;
}

/* c log2 c per class, remembered for the count it was computed at: consecutive cuts move a
 * few rows, so most classes' terms repeat and are not computed again. */
typedef struct {
    double *count, *term; /* k each */
    int whole;            /* the counts are whole numbers in the table */
} xlogx_cache;

static double cached_xlogx(xlogx_cache *m, size_t c, double v)
{
    if (v != m->count[c]) {
        m->count[c] = v;
        m->term[c] = xlogx_as(m->whole, v);
    }
    return m->term[c];
}

/* Gain of a cut from its left statistics (lw their weight): tl_grow_score's formula, with
 * each child's entropy in weighted form, w log2 w minus the sum of c log2 c (the form J48
 * computes, with no division per class). Both children in one loop, each summed in class
 * order as on its own. */
static double cut_gain(const double *left, const double *known, size_t k, double lw, double known_w,
                       double share, double h_known, xlogx_cache *ml, xlogx_cache *mr)
{
    double sl = xlogx_as(ml->whole, lw), sr = xlogx_as(ml->whole, known_w - lw);
    for (size_t j = 0; j < k; j++) {
        sl -= cached_xlogx(ml, j, left[j]);
        sr -= cached_xlogx(mr, j, known[j] - left[j]);
    }
    return (h_known - (sl + sr) / known_w) * share; /* share: known_w / total_w */
}

/* J48's rule over the cuts, fed in order: a cut wins when it beats the best so far by more
 * than 1e-6 (Utils.gr), so of near-equal cuts the first stays. */
static void consider(tl_c45_cut *c, double gain, size_t i, double left_w)
{
    if (gain - c->gain > 1e-6) {
        c->gain = gain;
        c->i = i;
        c->left_w = left_w;
    }
}

/* The scan's state: everything cut_gain needs, the pending cut (the last seen, not yet known
 * to be inside a run or not), the run start, and the inside cuts of the run so far. */
typedef struct {
    size_t k;
    const double *known;
    double known_w, share, h_known; /* share: known_w / total_w, divided once */
    double *p_left, *s_left, *tmp;  /* k each */
    xlogx_cache ml, mr;
    size_t p_pos;
    double p_lw, s_gain, s_lw; /* s_lw: the run start's left weight */
    int run_cls;               /* the class the inside cuts moved */
    int p_cls;                 /* the class moved to reach the pending cut (-1: several, or none) */
    int rising;                /* the last block fed moved the best */
    double *xa, *ra; /* end_terms of the statistics before the next block (6k: with xb, rb) */
    int prev_terms;  /* xa and ra hold them */
    double g_half;   /* g(W / 2) of box_skips */
    size_t piece;    /* blocks of more cuts are tried in pieces of this many */
    int whole;       /* every weight and count is a whole number in the n log2 n table */
    size_t n_in;     /* inside cuts: row, left weight, the run class's left weight */
    size_t *in_pos;
    double *in_lw, *in_lc;
} scan_state;

static double state_gain(scan_state *st, const double *left, double lw)
{
    return cut_gain(left, st->known, st->k, lw, st->known_w, st->share, st->h_known, &st->ml,
                    &st->mr);
}

/* 1 when the run's end (gain p_gain) is taken whatever its inside cuts are: it beats the best
 * and every inside cut by more than 1e-6. The child entropy is concave along the run, so
 * each inside gain lies below the chord between the run's end gains (taken at the left
 * weights: only the run's class moves); rising, the chord is highest at the last inside
 * cut. The inside cuts that would have been taken are then passed by the end, which leaves
 * the same best. 1e-12 absorbs rounding. */
static int end_takes_run(const scan_state *st, const tl_c45_cut *best, double p_gain)
{
    double span = st->p_lw - st->s_lw;
    if (!(p_gain > st->s_gain) || !(span > 0))
        return 0;
    double t = (st->in_lw[st->n_in - 1] - st->s_lw) / span;
    double chord = st->s_gain + (p_gain - st->s_gain) * t;
    return p_gain - fmax(best->gain, chord) > 1e-6 + 1e-12;
}

/* The pending cut ends a run: decide the run's inside cuts (in order, each only while the
 * larger of the run's end gains could still win, none when the end takes the run), then the
 * cut; it starts the next run. */
static void close_run(scan_state *st, tl_c45_cut *best)
{
    double p_gain = state_gain(st, st->p_left, st->p_lw);
    double bound = fmax(st->s_gain, p_gain);
    if (st->n_in && bound - best->gain > 1e-6 - 1e-12 && !end_takes_run(st, best, p_gain)) {
        copy_stats(st->tmp, st->s_left, st->k);
        for (size_t q = 0; q < st->n_in && bound - best->gain > 1e-6 - 1e-12; q++) {
            st->tmp[st->run_cls] = st->in_lc[q];
            consider(best, state_gain(st, st->tmp, st->in_lw[q]), st->in_pos[q], st->in_lw[q]);
        }
    }
    st->n_in = 0;
    consider(best, p_gain, st->p_pos, st->p_lw);
    st->s_gain = p_gain;
    st->s_lw = st->p_lw;
    copy_stats(st->s_left, st->p_left, st->k);
}

/* Cuts are buffered in chunks of this many; a chunk none of whose cuts can win is skipped,
 * and a chunk that cannot be skipped is tried again in pieces of TL_C45_PIECE. */
#define TL_C45_CHUNK 64
#define TL_C45_PIECE 16
/* The corner bound visits 2^k corners: only for this many classes or fewer. */
#define TL_C45_CHUNK_MAX_K 4

/* c log2 c at a point of the scan, per class, of the left side (x) and of the right (r). */
static void end_terms(const scan_state *st, const double *left, double *x, double *r)
{
    for (size_t c = 0; c < st->k; c++) {
        x[c] = xlogx_as(st->whole, left[c]);
        r[c] = xlogx_as(st->whole, st->known[c] - left[c]);
    }
}

/* 1 when no cut whose left statistics lie between a and b (a <= b per class) can beat the
 * best by more than 1e-6, from a lower bound of its weighted child entropy
 * f(l) = g(lw) - sum_c phi_c(l_c), g(v) = v log2 v + (W - v) log2(W - v) and
 * phi_c(v) = v log2 v + (K_c - v) log2(K_c - v). First the separable bound: g is convex,
 * least at W / 2, and each -phi_c concave, least at an end of its interval. Then, for few
 * classes, the exact least value on the box: f is concave (Fayyad & Irani), so it is at a
 * corner. xa, xb, ra, rb: end_terms of a and b. 1e-12 absorbs rounding. */
static int box_skips(const scan_state *st, const tl_c45_cut *best, const double *a, const double *b,
                     const double *xa, const double *xb, const double *ra, const double *rb)
{
    size_t k = st->k;
    double w = st->known_w;
    /* the separable bound where it is cheap (no log2 in a unit-weight node) or the only one */
    if (st->whole || k > TL_C45_CHUNK_MAX_K) {
        double lwa = 0, lwb = 0, phi = 0;
        for (size_t c = 0; c < k; c++) {
            lwa += a[c];
            lwb += b[c];
            phi += fmax(xa[c] + ra[c], xb[c] + rb[c]);
        }
        double g = lwa <= w / 2 && w / 2 <= lwb
                       ? st->g_half
                       : fmin(xlogx_as(st->whole, lwa) + xlogx_as(st->whole, w - lwa),
                              xlogx_as(st->whole, lwb) + xlogx_as(st->whole, w - lwb));
        if ((st->h_known - (g - phi) / w) * st->share - best->gain <= 1e-6 - 1e-12)
            return 1;
        if (k > TL_C45_CHUNK_MAX_K)
            return 0;
    }
    double least = HUGE_VAL;
    for (unsigned v = 0; v < (1u << k); v++) {
        double lw = 0, e = 0;
        for (size_t c = 0; c < k; c++) {
            int hi = (v >> c) & 1u;
            lw += hi ? b[c] : a[c];
            e -= hi ? xb[c] + rb[c] : xa[c] + ra[c];
        }
        e += xlogx_as(st->whole, lw) + xlogx_as(st->whole, w - lw);
        least = e < least ? e : least;
    }
    return (st->h_known - least / w) * st->share - best->gain <= 1e-6 - 1e-12;
}

/* Feeds one cut (row pos, left weight lw, left statistics left, the class moved to reach it
 * or -1) to the run logic: the pending cut is now known to be inside a run or to end one. */
static void feed_cut(scan_state *st, tl_c45_cut *best, size_t pos, double lw, const double *left,
                     int moved, size_t *nc)
{
    if (*nc > 1 && st->p_cls >= 0 && moved == st->p_cls) { /* the pending cut is inside */
        st->run_cls = st->p_cls;
        st->in_pos[st->n_in] = st->p_pos;
        st->in_lw[st->n_in] = st->p_lw;
        st->in_lc[st->n_in++] = st->p_left[st->p_cls];
    } else if (*nc) {
        close_run(st, best);
    }
    st->p_pos = pos;
    st->p_lw = lw;
    st->p_cls = moved;
    copy_stats(st->p_left, left, st->k);
    (*nc)++;
}

/* A buffered run of cuts: rows, left weights, left statistics (k each), classes moved. */
typedef struct {
    const size_t *pos;
    const double *lw, *left;
    const int *moved;
    size_t n;
} cut_block;

/* Feeds a block of buffered cuts, or skips it when box_skips says none of them would be
 * taken, the box running from the statistics before the block (prev) to those at its last
 * cut; a chunk that cannot be skipped is fed piece by piece, each piece tried the same way.
 * A skipped block's last cut is fed as a run boundary: any cut may end a run, the bound of a
 * run's inside holds between any two. st->xa / st->ra hold the end terms of prev when
 * st->prev_terms. */
static void flush_block(scan_state *st, tl_c45_cut *best, cut_block cb, const double *prev,
                        size_t *nc)
{
    size_t k = st->k, n = cb.n;
    if (n == 0)
        return;
    const double *last = cb.left + (n - 1) * k;
    /* after a block that moved the best the gains are likely still rising: no bound then */
    if (n > 2 && !st->rising) {
        double *xb = st->xa + (n > st->piece ? 2 : 4) * k, *rb = xb + k;
        if (!st->prev_terms)
            end_terms(st, prev, st->xa, st->ra);
        st->prev_terms = 1;
        end_terms(st, last, xb, rb);
        int skip = box_skips(st, best, prev, last, st->xa, xb, st->ra, rb);
        if (skip || n <= st->piece) { /* the next block's box starts at this one's last cut */
            copy_stats(st->xa, xb, k);
            copy_stats(st->ra, rb, k);
            st->prev_terms = 2; /* 2: just computed, still good after the block is fed */
        }
        if (skip) {
            if (*nc) /* the pending cut ends its run here */
                close_run(st, best);
            st->n_in = 0;
            st->p_cls = -1;
            st->p_pos = cb.pos[n - 1];
            st->p_lw = cb.lw[n - 1];
            copy_stats(st->p_left, last, k);
            *nc += n;
            return;
        }
    } else {
        st->prev_terms = 0;
    }
    if (n > st->piece) {
        for (size_t at = 0; at < n; at += st->piece) {
            size_t m = n - at < st->piece ? n - at : st->piece;
            cut_block piece = {cb.pos + at, cb.lw + at, cb.left + at * k, cb.moved + at, m};
            flush_block(st, best, piece, at ? cb.left + (at - 1) * k : prev, nc);
        }
        return;
    }
    st->prev_terms = st->prev_terms == 2;
    size_t was = best->i;
    for (size_t i = 0; i < n; i++)
        feed_cut(st, best, cb.pos[i], cb.lw[i], cb.left + i * k, *nc ? cb.moved[i] : -1, nc);
    st->rising = best->i != was;
}

/* The class of row i of the scan (records: the code in the word). */
static inline int row_class(const tl_c45_rows *sr, int records, uint32_t cmask, size_t i)
{
    return records ? (int)((sr->rec[i] >> TL_REC_CLASS_SHIFT) & cmask) : sr->y[i];
}

/* J48's value rule: a cut between rows i and i + 1 is allowed (the record's cut bit says it). */
static inline int cut_between(const tl_c45_rows *sr, int records, size_t i)
{
    return records ? (sr->rec[i + 1] & TL_REC_CUT) != 0
                   : sr->x[i] + TL_C45_VALUE_EPS < sr->x[i + 1];
}

/* Classes up to this many keep the running left weights in registers (scan_rows' K). */
#define TL_C45_SCAN_MAX_K 5

/* tl_c45_scan_entropy's pass over the rows, from the arrays or (records, a constant at each
 * call) the compact records, whose rows weigh 1: the same sums in the same order either way.
 * For K classes (K > 0, a constant where it is called) the left weights are kept in
 * registers, each row adding its weight to its class's and +0.0 to the others (a sum starts at
 * +0.0, and adding +0.0 leaves any other double as it is: the same bits as adding to one class
 * in memory, without that chain through memory when consecutive rows share a class). */
static inline void scan_rows(scan_state *st, tl_c45_cut *best, const tl_c45_rows *sr, int records,
                             size_t K, size_t n_known, double min_split, double eps, double *left,
                             double *prev, double *c_left, size_t *nc)
{
    size_t k = st->k, n_chunk = 0;
    size_t c_pos[TL_C45_CHUNK];
    double c_lw[TL_C45_CHUNK];
    int c_moved[TL_C45_CHUNK];
    uint32_t cmask = records ? (1u << (sr->rec_shift - TL_REC_CLASS_SHIFT)) - 1 : 0;
    double lw = 0, known_w = st->known_w, acc[TL_C45_SCAN_MAX_K] = {0};
    int cls = -2; /* -2: no row moved yet, -1: several classes */
    memset(left, 0, k * sizeof *left);
    for (size_t i = 0; i + 1 < n_known; i++) {
        int y = row_class(sr, records, cmask, i);
        double w = records ? 1.0 : sr->w[i];
        for (size_t c = 0; c < K; c++)
            acc[c] += tl_kept_weight(w, y == (int)c);
        if (!K)
            left[y] += w;
        lw += w;
        cls = cls == -2 ? y : (cls == y ? cls : -1);
        if (!cut_between(sr, records, i))
            continue;
        if (min_split - lw >= eps || min_split - (known_w - lw) >= eps) /* J48's grOrEq */
            continue;
        c_pos[n_chunk] = i;
        c_lw[n_chunk] = lw;
        c_moved[n_chunk] = cls;
        for (size_t c = 0; c < K; c++)
            c_left[n_chunk * k + c] = acc[c];
        if (!K)
            copy_stats(c_left + n_chunk * k, left, k);
        cls = -2;
        if (++n_chunk == TL_C45_CHUNK) {
            cut_block cb = {c_pos, c_lw, c_left, c_moved, n_chunk};
            flush_block(st, best, cb, *nc ? prev : c_left, nc); /* the first box: from cut 0 */
            copy_stats(prev, c_left + (n_chunk - 1) * k, k);
            n_chunk = 0;
        }
    }
    cut_block cb = {c_pos, c_lw, c_left, c_moved, n_chunk};
    flush_block(st, best, cb, *nc ? prev : c_left, nc);
}

/* scan_rows for the node's source and number of classes. */
static void scan_rows_any(scan_state *st, tl_c45_cut *best, const tl_c45_rows *sr, size_t n_known,
                          double min_split, double eps, double *left, double *prev, double *c_left,
                          size_t *nc)
{
#define TL_C45_SCAN(records, K)                                                                    \
    scan_rows(st, best, sr, records, K, n_known, min_split, eps, left, prev, c_left, nc)
    int rec = sr->rec != NULL;
    switch (st->k) {
    case 2: rec ? TL_C45_SCAN(1, 2) : TL_C45_SCAN(0, 2); return;
    case 3: rec ? TL_C45_SCAN(1, 3) : TL_C45_SCAN(0, 3); return;
    case 4: rec ? TL_C45_SCAN(1, 4) : TL_C45_SCAN(0, 4); return;
    case 5: rec ? TL_C45_SCAN(1, 5) : TL_C45_SCAN(0, 5); return;
    default: rec ? TL_C45_SCAN(1, 0) : TL_C45_SCAN(0, 0); return;
    }
#undef TL_C45_SCAN
}

/* Finds J48's cut: of the admissible cuts (between distinct values, min_split weight on each
 * side), in order, the first that beats the best so far by more than 1e-6. Computing every
 * cut's entropy is the hot path of a C4.5 fit, so cuts inside a run that only moves rows of
 * one class are skipped when they cannot win: along such a run the child entropy is concave
 * in the weight moved (Fayyad & Irani 1992), so no gain inside exceeds the larger of the
 * run's two ends. The result is the same cut as the plain scan.
 * One pass: a cut is known to end a run once the next cut is seen, and then the run's
 * inside cuts are decided. Inside a run only the moved class's left weight changes, so an
 * inside cut keeps just that weight; the others are the run start's, bit for bit. */
int tl_c45_scan_entropy(size_t k, double h_known, const tl_c45_rows *sr, size_t n_known,
                        const double *known, double known_w, double total_w, double min_split,
                        double eps, int unit, size_t *cuts, tl_c45_cut *best, tl_err *err)
{
    size_t m = n_known ? n_known : 1;
    scan_state st = {.k = k,
                     .known = known,
                     .known_w = known_w,
                     .share = known_w / total_w,
                     .h_known = h_known,
                     .p_cls = -1};
    st.in_pos = malloc(m * sizeof *st.in_pos);
    st.in_lw = malloc(m * sizeof *st.in_lw);
    st.in_lc = malloc(m * sizeof *st.in_lc);
    /* 15 blocks of k (the state's vectors, the caches, prev and the four end-term vectors),
     * then the chunk's left statistics */
    double *buf = malloc((15 + TL_C45_CHUNK) * k * sizeof *buf);
    int rc = TL_OK;
    if (!st.in_pos || !st.in_lw || !st.in_lc || !buf) {
        rc = tl_err_set(err, TL_ENOMEM, "out of memory");
        goto done;
    }
    double *left = buf, *prev = buf + 8 * k, *c_left = buf + 15 * k;
    st.p_left = buf + k;
    st.s_left = buf + 2 * k;
    st.tmp = buf + 3 * k;
    st.ml = (xlogx_cache){buf + 4 * k, buf + 5 * k, 0};
    st.mr = (xlogx_cache){buf + 6 * k, buf + 7 * k, 0};
    st.xa = buf + 9 * k; /* xa, ra, then xb and rb at xa + 2k or 4k: up to buf + 15k */
    st.ra = buf + 10 * k;
    st.g_half = 2 * xlogx_as(0, known_w / 2);
    st.whole = unit && n_known < TL_XLOGX_N; /* counts of rows weighing 1: whole numbers */
    st.ml.whole = st.mr.whole = st.whole;
    st.piece = st.whole ? TL_C45_PIECE : TL_C45_CHUNK; /* pieces cost little with the table */
    for (size_t c = 0; c < k; c++)
        st.ml.count[c] = st.mr.count[c] = -1; /* no weight is negative: nothing cached yet */
    size_t nc = 0;
    scan_rows_any(&st, best, sr, n_known, min_split, eps, left, prev, c_left, &nc);
    if (nc) /* the last cut ends the last run */
        close_run(&st, best);
    *cuts = nc;
done:
    free(st.in_pos);
    free(st.in_lw);
    free(st.in_lc);
    free(buf);
    return rc;
}

/* The same admissible cuts as tl_c45_scan_entropy, for a criterion without the entropy closed form:
 * every cut is scored by the criterion (no run is skipped). */
static void scan_cuts_generic(const tl_grow_ctx *g, const tl_c45_rows *sr, size_t n_known,
                              const double *known, double known_w, double total_w, double min_split,
                              double eps, size_t *cuts, tl_c45_cut *best)
{
    size_t k = tl_grow_k(g), nc = 0;
    double *children = tl_grow_scratch(g) + k, *left = children, *right = children + k;
    double lw = 0;
    int records = sr->rec != NULL;
    uint32_t cmask = records ? (1u << (sr->rec_shift - TL_REC_CLASS_SHIFT)) - 1 : 0;
    memset(left, 0, k * sizeof *left);
    for (size_t i = 0; i + 1 < n_known; i++) {
        double w = records ? 1.0 : sr->w[i];
        left[row_class(sr, records, cmask, i)] += w;
        lw += w;
        if (!cut_between(sr, records, i))
            continue;
        if (min_split - lw >= eps || min_split - (known_w - lw) >= eps)
            continue;
        nc++;
        for (size_t j = 0; j < k; j++)
            right[j] = known[j] - left[j];
        consider(best, tl_grow_partition_gain(g, children, 2) * (known_w / total_w), i, lw);
    }
    *cuts = nc;
}

int tl_c45_scan(const tl_grow_ctx *g, const tl_c45_rows *sr, size_t n_known, const double *known,
                double known_w, double total_w, double min_split, double eps, int unit,
                int closed_form, size_t *cuts, tl_c45_cut *best, tl_err *err)
{
    if (closed_form) {
        size_t k = tl_grow_k(g);
        double h_known = tl_grow_params_of(g)->criterion->impurity(known, k);
        return tl_c45_scan_entropy(k, h_known, sr, n_known, known, known_w, total_w, min_split, eps,
                                   unit, cuts, best, err);
    }
    scan_cuts_generic(g, sr, n_known, known, known_w, total_w, min_split, eps, cuts, best);
    return TL_OK;
}
