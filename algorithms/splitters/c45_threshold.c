/* C4.5's binary threshold on a numeric attribute (release 8, as Weka's J48 does it): cut by
 * information gain with a least branch weight, the gain charged log2(cuts) / |D| for the
 * choice among cuts, the threshold moved down to a value seen in training. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "treelab/tl_grow.h"

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

/* c log2 c per class, remembered for the count it was computed at: consecutive cuts move a
 * few rows, so most classes' terms repeat and their log2 is not taken again. */
typedef struct {
    double *count, *term; /* k each */
} xlogx_cache;

static double cached_xlogx(xlogx_cache *m, size_t c, double v)
{
    if (v != m->count[c]) {
        m->count[c] = v;
        m->term[c] = v > 0 ? v * log2(v) : 0;
    }
    return m->term[c];
}

/* Gain of a cut from its left statistics (lw their weight): tl_grow_score's formula, with
 * each child's entropy in weighted form, w log2 w minus the sum of c log2 c (the form J48
 * computes, with no division per class). Both children in one loop, each summed in class
 * order as on its own. */
static double cut_gain(const double *left, const double *known, size_t k, double lw, double known_w,
                       double total_w, double h_known, xlogx_cache *ml, xlogx_cache *mr)
{
    double rw = known_w - lw;
    double sl = lw > 0 ? lw * log2(lw) : 0, sr = rw > 0 ? rw * log2(rw) : 0;
    for (size_t j = 0; j < k; j++) {
        sl -= cached_xlogx(ml, j, left[j]);
        sr -= cached_xlogx(mr, j, known[j] - left[j]);
    }
    return (h_known - (sl + sr) / known_w) * (known_w / total_w);
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
    double known_w, total_w, h_known;
    double *p_left, *s_left, *tmp; /* k each */
    xlogx_cache ml, mr;
    size_t p_pos;
    double p_lw, s_gain;
    int run_cls; /* the class the inside cuts moved */
    int p_cls;   /* the class moved to reach the pending cut (-1: several, or none) */
    int rising;  /* the last chunk fed moved the best */
    size_t n_in; /* inside cuts: row, left weight, the run class's left weight */
    size_t *in_pos;
    double *in_lw, *in_lc;
} scan_state;

static double state_gain(scan_state *st, const double *left, double lw)
{
    return cut_gain(left, st->known, st->k, lw, st->known_w, st->total_w, st->h_known, &st->ml,
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

/* Cuts are buffered in chunks of this many; a chunk none of whose cuts can win is skipped. */
#define TL_C45_CHUNK 64
/* The chunk bound visits 2^k corners: only for this many classes or fewer. */
#define TL_C45_CHUNK_MAX_K 4

/* Upper bound of the gain of every cut whose left statistics lie between a and b (a <= b per
 * class): the child entropy is concave in the left statistics, so its least value on that
 * box is at a corner. xa, xb, ra, rb: c log2 c of a, b and of the right sides known - a,
 * known - b, per class. */
static double box_bound(const scan_state *st, const double *a, const double *b, const double *xa,
                        const double *xb, const double *ra, const double *rb)
{
    size_t k = st->k;
    double least = HUGE_VAL;
    for (unsigned v = 0; v < (1u << k); v++) {
        double lw = 0, e = 0;
        for (size_t c = 0; c < k; c++) {
            int hi = (v >> c) & 1u;
            lw += hi ? b[c] : a[c];
            e -= hi ? xb[c] + rb[c] : xa[c] + ra[c];
        }
        double rw = st->known_w - lw;
        e += (lw > 0 ? lw * log2(lw) : 0) + (rw > 0 ? rw * log2(rw) : 0);
        least = e < least ? e : least;
    }
    return (st->h_known - least / st->known_w) * (st->known_w / st->total_w);
}

static double xlogx(double v)
{
    return v > 0 ? v * log2(v) : 0;
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

/* Feeds a chunk of n buffered cuts, or skips it when the box between the statistics before
 * it (prev) and at its last cut bounds every gain in it below what the best needs to be
 * beaten by (so none of them would be taken). A skipped chunk's last cut is fed as a run
 * boundary: any cut may end a run, the bound of a run's inside holds between any two. */
static void flush_chunk(scan_state *st, cut_choice *best, const size_t *pos, const double *lw,
                        const double *left, const int *moved, size_t n, const double *prev,
                        double *corner, int *prev_terms, size_t *nc)
{
    size_t k = st->k;
    if (n == 0)
        return;
    /* after a chunk that moved the best the gains are likely still rising: no bound then */
    int try_bound = k <= TL_C45_CHUNK_MAX_K && n > 2 && !st->rising;
    *prev_terms = *prev_terms && try_bound;
    if (try_bound) {
        const double *last = left + (n - 1) * k;
        double *xa = corner, *xb = corner + k, *ra = corner + 2 * k, *rb = corner + 3 * k;
        for (size_t c = 0; c < k; c++) {
            if (!*prev_terms) {
                xa[c] = xlogx(prev[c]);
                ra[c] = xlogx(st->known[c] - prev[c]);
            }
            xb[c] = xlogx(last[c]);
            rb[c] = xlogx(st->known[c] - last[c]);
        }
        int skip = box_bound(st, prev, last, xa, xb, ra, rb) - best->gain <= 1e-6 - 1e-12;
        copy_stats(xa, xb, k); /* the next chunk's box starts at this one's last cut */
        copy_stats(ra, rb, k);
        *prev_terms = 1;
        if (skip) {
            if (*nc) /* the pending cut ends its run here */
                close_run(st, best);
            st->n_in = 0;
            st->p_cls = -1;
            st->p_pos = pos[n - 1];
            st->p_lw = lw[n - 1];
            copy_stats(st->p_left, last, k);
            *nc += n;
            return;
        }
    }
    size_t was = best->i;
    for (size_t i = 0; i < n; i++)
        feed_cut(st, best, pos[i], lw[i], left + i * k, *nc ? moved[i] : -1, nc);
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
                     double eps, size_t *cuts, cut_choice *best, tl_err *err)
{
    size_t k = tl_grow_k(g);
    double (*impurity)(const double *, size_t) = tl_grow_params_of(g)->criterion->impurity;
    size_t m = n_known ? n_known : 1;
    scan_state st = {.k = k,
                     .known = known,
                     .known_w = known_w,
                     .total_w = total_w,
                     .h_known = impurity(known, k),
                     .p_cls = -1};
    st.in_pos = malloc(m * sizeof *st.in_pos);
    st.in_lw = malloc(m * sizeof *st.in_lw);
    st.in_lc = malloc(m * sizeof *st.in_lc);
    double *buf = malloc((15 + TL_C45_CHUNK) * k * sizeof *buf);
    /* the chunk: rows, left weights, classes moved; left statistics in buf */
    size_t c_pos[TL_C45_CHUNK];
    double c_lw[TL_C45_CHUNK];
    int c_moved[TL_C45_CHUNK];
    int rc = TL_OK;
    if (!st.in_pos || !st.in_lw || !st.in_lc || !buf) {
        rc = tl_err_set(err, TL_ENOMEM, "out of memory");
        goto done;
    }
    double *left = buf, *prev = buf + 9 * k, *corner = buf + 10 * k, *c_left = buf + 15 * k;
    st.p_left = buf + k;
    st.s_left = buf + 2 * k;
    st.tmp = buf + 3 * k;
    st.ml = (xlogx_cache){buf + 5 * k, buf + 6 * k};
    st.mr = (xlogx_cache){buf + 7 * k, buf + 8 * k};
    for (size_t c = 0; c < k; c++)
        st.ml.count[c] = st.mr.count[c] = -1; /* no weight is negative: nothing cached yet */
    size_t nc = 0, n_chunk = 0;
    int prev_terms = 0; /* corner holds the corner terms of prev */
    double lw = 0;
    int cls = -2; /* -2: no row moved yet, -1: several classes */
    memset(left, 0, k * sizeof *left);
    memset(prev, 0, k * sizeof *prev);
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
            flush_chunk(&st, best, c_pos, c_lw, c_left, c_moved, n_chunk, prev, corner, &prev_terms,
                        &nc);
            copy_stats(prev, c_left + (n_chunk - 1) * k, k);
            n_chunk = 0;
        }
    }
    flush_chunk(&st, best, c_pos, c_lw, c_left, c_moved, n_chunk, prev, corner, &prev_terms, &nc);
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

    size_t n_known = node->n;
    while (n_known > 0 && isnan(x[node->sorted[n_known - 1]]))
        n_known--;
    double *buf = malloc((n_known ? n_known : 1) * (2 * sizeof(double) + sizeof(int)));
    if (!buf)
        return -tl_err_set(err, TL_ENOMEM, "out of memory");
    double *xs = buf, *ws = buf + n_known;
    int *ys = (int *)(void *)(ws + n_known);
    double known_w = 0, total_w = 0;
    for (size_t i = n_known; i < node->n; i++) /* the unknown values, sorted last */
        total_w += node->w[node->sorted[i]];
    for (size_t i = 0; i < n_known; i++) {
        uint32_t r = node->sorted[i];
        xs[i] = x[r];
        ws[i] = node->w[r];
        ys[i] = d->y.code[r];
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
        rc = scan_cuts(g, &sr, n_known, known, known_w, total_w, min_split, eps, &cuts, &choice,
                       err);
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
};

const tl_splitter_type *const tl_splitter_c45_threshold = &c45_threshold;
