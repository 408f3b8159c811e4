/* C4.5's binary threshold on a numeric attribute (release 8, as Weka's J48 does it): cut by
 * information gain with a least branch weight, the gain charged log2(cuts) / |D| for the
 * choice among cuts, the threshold moved down to a value seen in training. */
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "treelab/tl_grow.h"

/* Rows this far ahead are fetched while the node's rows are gathered. */
#define TL_C45_AHEAD 16
/* J48 treats values closer than this as equal (no cut between them). */
#define TL_C45_VALUE_EPS 1e-5
/* The least branch weight is capped here (C4.5's MINOBJS bound). */
#define TL_C45_MAX_MIN_SPLIT 25.0

/* The training value C4.5 moves the cut to: Weka 3.6's setSplitPoint scans the training
 * rows in order and takes a value t when t <= cut + 1e-6 and t > the value taken so far
 * + 1e-6 (its Utils.smOrEq / Utils.gr). Only values near the largest eligible one can
 * decide, so the scan runs over those (v sorted, rows[i] the row of v[i]); cut itself when no
 * value is eligible. */
static double training_value_at_or_below(const double *v, const uint32_t *rows, size_t n,
                                         double cut)
{
    size_t lo = 0, hi = n; /* first index past the eligible values */
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (v[mid] - cut < 1e-6)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo == 0)
        return cut;
    size_t end = lo, start = lo;
    while (start > 0 && v[start - 1] >= v[end - 1] - 1e-5)
        start--;
    /* in row order: repeatedly take the first row after the last taken that qualifies */
    double taken = -HUGE_VAL;
    uint32_t after = 0;
    int any = 0;
    for (;;) {
        size_t pick = SIZE_MAX;
        for (size_t i = start; i < end; i++)
            if ((!any || rows[i] > after) && (!any || v[i] - taken > 1e-6) &&
                (pick == SIZE_MAX || rows[i] < rows[pick]))
                pick = i;
        if (pick == SIZE_MAX)
            break;
        taken = v[pick];
        after = rows[pick];
        any = 1;
    }
    return taken;
}

/* The node's rows in the attribute's order, gathered once so the scan reads memory in
 * sequence: value, weight and class of each. */
typedef struct {
    const double *x, *w;
    const int *y;
} sorted_rows;

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

/* For tests: the table and its length. */
const double *tl_c45_xlogx_table(size_t *n);
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
typedef struct {
    double gain, left_w;
    size_t i;
} cut_choice;

static void consider(cut_choice *c, double gain, size_t i, double left_w)
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
    double p_lw, s_gain;
    int run_cls;     /* the class the inside cuts moved */
    int p_cls;       /* the class moved to reach the pending cut (-1: several, or none) */
    int rising;      /* the last block fed moved the best */
    double *xa, *ra; /* end_terms of the statistics before the next block (6k: with scratch) */
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

/* The pending cut ends a run: decide the run's inside cuts (in order, each only while the
 * larger of the run's end gains could still win), then the cut; it starts the next run. */
static void close_run(scan_state *st, cut_choice *best)
{
    double p_gain = state_gain(st, st->p_left, st->p_lw);
    double bound = fmax(st->s_gain, p_gain);
    if (st->n_in && bound - best->gain > 1e-6 - 1e-12) {
        copy_stats(st->tmp, st->s_left, st->k);
        for (size_t q = 0; q < st->n_in && bound - best->gain > 1e-6 - 1e-12; q++) {
            st->tmp[st->run_cls] = st->in_lc[q];
            consider(best, state_gain(st, st->tmp, st->in_lw[q]), st->in_pos[q], st->in_lw[q]);
        }
    }
    st->n_in = 0;
    consider(best, p_gain, st->p_pos, st->p_lw);
    st->s_gain = p_gain;
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
static int box_skips(const scan_state *st, const cut_choice *best, const double *a, const double *b,
                     const double *xa, const double *xb, const double *ra, const double *rb)
{
    size_t k = st->k;
    double w = st->known_w;
    /* the separable bound where it is cheap (no log2 in a unit-weight node) or the only one */
    if (st->piece < TL_C45_CHUNK || k > TL_C45_CHUNK_MAX_K) {
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
static void feed_cut(scan_state *st, cut_choice *best, size_t pos, double lw, const double *left,
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
static void flush_block(scan_state *st, cut_choice *best, cut_block cb, const double *prev,
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

/* Finds J48's cut: of the admissible cuts (between distinct values, min_split weight on each
 * side), in order, the first that beats the best so far by more than 1e-6. Computing every
 * cut's entropy is the hot path of a C4.5 fit, so cuts inside a run that only moves rows of
 * one class are skipped when they cannot win: along such a run the child entropy is concave
 * in the weight moved (Fayyad & Irani 1992), so no gain inside exceeds the larger of the
 * run's two ends. The result is the same cut as the plain scan.
 * One pass: a cut is known to end a run once the next cut is seen, and then the run's
 * inside cuts are decided. Inside a run only the moved class's left weight changes, so an
 * inside cut keeps just that weight; the others are the run start's, bit for bit. */
static int scan_cuts(const tl_grow_ctx *g, const sorted_rows *sr, size_t n_known,
                     const double *known, double known_w, double total_w, double min_split,
                     double eps, int unit, size_t *cuts, cut_choice *best, tl_err *err)
{
    size_t k = tl_grow_k(g);
    double (*impurity)(const double *, size_t) = tl_grow_params_of(g)->criterion->impurity;
    size_t m = n_known ? n_known : 1;
    scan_state st = {.k = k,
                     .known = known,
                     .known_w = known_w,
                     .share = known_w / total_w,
                     .h_known = impurity(known, k),
                     .p_cls = -1};
    st.in_pos = malloc(m * sizeof *st.in_pos);
    st.in_lw = malloc(m * sizeof *st.in_lw);
    st.in_lc = malloc(m * sizeof *st.in_lc);
    double *buf = malloc((16 + TL_C45_CHUNK) * k * sizeof *buf);
    /* the chunk: rows, left weights, classes moved; left statistics in buf */
    size_t c_pos[TL_C45_CHUNK];
    double c_lw[TL_C45_CHUNK];
    int c_moved[TL_C45_CHUNK];
    int rc = TL_OK;
    if (!st.in_pos || !st.in_lw || !st.in_lc || !buf) {
        rc = tl_err_set(err, TL_ENOMEM, "out of memory");
        goto done;
    }
    double *left = buf, *prev = buf + 9 * k, *c_left = buf + 16 * k;
    st.xa = buf + 10 * k;
    st.ra = buf + 11 * k;
    st.g_half = 2 * xlogx_as(0, known_w / 2);
    st.whole = unit && n_known < TL_XLOGX_N; /* counts of rows weighing 1: whole numbers */
    st.piece = st.whole ? TL_C45_PIECE : TL_C45_CHUNK; /* pieces cost little with the table */
    st.p_left = buf + k;
    st.s_left = buf + 2 * k;
    st.tmp = buf + 3 * k;
    st.ml = (xlogx_cache){buf + 5 * k, buf + 6 * k, st.whole};
    st.mr = (xlogx_cache){buf + 7 * k, buf + 8 * k, st.whole};
    for (size_t c = 0; c < k; c++)
        st.ml.count[c] = st.mr.count[c] = -1; /* no weight is negative: nothing cached yet */
    size_t nc = 0, n_chunk = 0;
    double lw = 0;
    int cls = -2; /* -2: no row moved yet, -1: several classes */
    memset(left, 0, k * sizeof *left);
    for (size_t i = 0; i + 1 < n_known; i++) {
        left[sr->y[i]] += sr->w[i];
        lw += sr->w[i];
        cls = cls == -2 ? sr->y[i] : (cls == sr->y[i] ? cls : -1);
        if (!(sr->x[i] + TL_C45_VALUE_EPS < sr->x[i + 1]))
            continue;
        if (min_split - lw >= eps || min_split - (known_w - lw) >= eps) /* J48's grOrEq */
            continue;
        c_pos[n_chunk] = i;
        c_lw[n_chunk] = lw;
        c_moved[n_chunk] = cls;
        copy_stats(c_left + n_chunk * k, left, k);
        cls = -2;
        if (++n_chunk == TL_C45_CHUNK) {
            cut_block cb = {c_pos, c_lw, c_left, c_moved, n_chunk};
            flush_block(&st, best, cb, nc ? prev : c_left, &nc); /* the first box: from cut 0 */
            copy_stats(prev, c_left + (n_chunk - 1) * k, k);
            n_chunk = 0;
        }
    }
    cut_block cb = {c_pos, c_lw, c_left, c_moved, n_chunk};
    flush_block(&st, best, cb, nc ? prev : c_left, &nc);
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

/* The same admissible cuts as scan_cuts, for a criterion without the entropy closed form:
 * every cut is scored by the criterion (no run is skipped). */
static void scan_cuts_generic(const tl_grow_ctx *g, const sorted_rows *sr, size_t n_known,
                              const double *known, double known_w, double total_w, double min_split,
                              double eps, size_t *cuts, cut_choice *best)
{
    size_t k = tl_grow_k(g), nc = 0;
    double *children = tl_grow_scratch(g) + k, *left = children, *right = children + k;
    double lw = 0;
    memset(left, 0, k * sizeof *left);
    for (size_t i = 0; i + 1 < n_known; i++) {
        left[sr->y[i]] += sr->w[i];
        lw += sr->w[i];
        if (!(sr->x[i] + TL_C45_VALUE_EPS < sr->x[i + 1]))
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

static const tl_param_spec params[] = {
    {"slack", TL_PARAM_DOUBLE, "1e-6", 0, 0.1, NULL,
     "J48's Utils.eps on the weight comparisons of the cut scan (0: exact)"},
    {NULL, 0, NULL, 0, 0, NULL, NULL},
};

static void *init(const tl_params *p, tl_err *err)
{
    pthread_once(&xlogx_once, fill_xlogx_table);
    tl_param_reader rd = tl_params_reader(params, p, err);
    double v = tl_params_double(&rd, "slack");
    double *slack = rd.rc ? NULL : malloc(sizeof *slack);
    if (slack)
        *slack = v;
    else if (!rd.rc)
        tl_err_set(err, TL_ENOMEM, "out of memory");
    return slack;
}

static int best(const void *state, const tl_grow_ctx *g, const tl_node_rows *node, size_t attr,
                tl_split *out, tl_err *err)
{
    const tl_grow_params *p = tl_grow_params_of(g);
    const tl_dataset *d = tl_grow_data(g);
    size_t k = tl_grow_k(g);
    const double *x = d->cols[attr].num;
    double eps = *(const double *)state;
    if (!tl_dataset_is_classification(d)) /* reached through another splitter, e.g. random_subset */
        return -tl_err_set(err, TL_EINVAL, "splitter c45_threshold needs a nominal target");
    int closed_form = p->criterion->entropy_bits;
    double *known = tl_grow_scratch(g);
    memset(known, 0, k * sizeof *known);

    /* the values and classes packed in sorted order by the grower, read in sequence; the
     * weights gathered, or none when every row weighs 1 */
    const double *px = node->sorted_x;
    const int *py = node->sorted_y;
    size_t n_known = node->n;
    while (n_known > 0 && isnan(px ? px[n_known - 1] : x[node->sorted[n_known - 1]]))
        n_known--;
    size_t cells = n_known ? n_known : 1;
    double *buf = malloc(cells * (px && py ? sizeof(double) : 2 * sizeof(double) + sizeof(int)));
    if (!buf)
        return -tl_err_set(err, TL_ENOMEM, "out of memory");
    double *ws = buf;
    const double *xs = px;
    const int *ys = py;
    const uint32_t *rows = node->sorted;
    const double *w = node->w;
    const int *code = d->y.code;
    double known_w = 0, total_w = 0;
    for (size_t i = n_known; i < node->n; i++) /* the unknown values, sorted last */
        total_w += w[rows[i]];
    if (!(px && py)) { /* gathered here in one pass, the rows some way ahead fetched meanwhile */
        double *gx = buf + n_known;
        int *gy = (int *)(void *)(gx + n_known);
        for (size_t i = 0; i < n_known; i++) {
            if (i + TL_C45_AHEAD < n_known) {
                uint32_t ahead = rows[i + TL_C45_AHEAD];
                __builtin_prefetch(&x[ahead]);
                __builtin_prefetch(&code[ahead]);
                __builtin_prefetch(&w[ahead]);
            }
            uint32_t r = rows[i];
            gx[i] = x[r];
            gy[i] = code[r];
            ws[i] = node->unit_weights ? 1.0 : w[r];
        }
        xs = gx;
        ys = gy;
    } else {
        for (size_t i = 0; i < n_known; i++)
            ws[i] = node->unit_weights ? 1.0 : w[rows[i]];
    }
    for (size_t i = 0; i < n_known; i++) {
        known[ys[i]] += ws[i];
        known_w += ws[i];
    }
    total_w += known_w;
    sorted_rows sr = {xs, ws, ys};
    /* Each side needs 10% of the known weight per class, at least min_leaf, at most 25. */
    size_t n_classes = tl_dataset_n_classes(d) ? tl_dataset_n_classes(d) : 1;
    double min_split = 0.1 * known_w / (double)n_classes;
    if (min_split <= p->min_samples_leaf + eps)
        min_split = p->min_samples_leaf;
    else if (min_split > TL_C45_MAX_MIN_SPLIT + eps)
        min_split = TL_C45_MAX_MIN_SPLIT;
    /* J48 counts rows here, not weight */
    if ((double)n_known < 2 * min_split - eps) {
        free(buf);
        return 0;
    }

    size_t cuts = 0;
    cut_choice choice = {0, 0, SIZE_MAX};
    int rc = TL_OK;
    if (closed_form)
        rc = scan_cuts(g, &sr, n_known, known, known_w, total_w, min_split, eps, node->unit_weights,
                       &cuts, &choice, err);
    else
        scan_cuts_generic(g, &sr, n_known, known, known_w, total_w, min_split, eps, &cuts, &choice);
    size_t best_i = choice.i;
    double best_gain = choice.gain, best_left_w = choice.left_w;
    free(buf);
    if (rc)
        return -rc;
    if (cuts == 0 || best_i == SIZE_MAX)
        return 0;
    /* release 8: the gain pays for the choice among the cuts, in bits (so only when the
     * criterion counts in bits) */
    double gain = closed_form ? best_gain - log2((double)cuts) / total_w : best_gain;
    if (gain <= 1e-6)
        return 0;
    double branch_w[2] = {best_left_w, known_w - best_left_w};
    double lo = x[node->sorted[best_i]], hi = x[node->sorted[best_i + 1]];
    double cut = (lo + hi) / 2;
    if (cut == hi)
        cut = lo;
    size_t n_train = 0;
    const uint32_t *train_rows = NULL;
    const double *train = tl_grow_train_values(g, attr, &n_train, &train_rows);
    out->attr = attr;
    out->kind = TL_SPLIT_NUMERIC;
    out->threshold = train ? training_value_at_or_below(train, train_rows, n_train, cut) : lo;
    out->n_branches = 2;
    out->gain = gain;
    out->known_weight = known_w;
    out->missing_weight = total_w - known_w;
    out->rank = p->criterion->rank
                    ? p->criterion->rank(p->criterion_state, gain, branch_w, 2, total_w - known_w)
                    : gain;
    return 1;
}

static const tl_splitter_type c45_threshold = {
    .name = "c45_threshold",
    .summary = "C4.5's binary cut: least branch weight, log2(cuts)/|D| penalty, threshold at a "
               "training value (J48)",
    .reference = "Quinlan, Improved use of continuous attributes in C4.5, JAIR 4 (1996)",
    .params = params,
    .init = init,
    .free = free,
    .kinds = TL_KIND_BIT(TL_ATTR_NUMERIC),
    .tasks = TL_TASK_CLASSIFICATION,
    .best = best,
    .needs_train_values = 1,
    /* not needs_sorted_values: carrying values and classes through every partition cost more
     * than the gathers it saves here (measured at 10^5 rows, with and without unknowns); a
     * wrapper that has them (random_subset) passes them on and best reads them */
};

const tl_splitter_type *const tl_splitter_c45_threshold = &c45_threshold;
