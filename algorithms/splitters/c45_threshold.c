/* C4.5's binary threshold on a numeric attribute (release 8, as Weka's J48 does it): cut by
 * information gain with a least branch weight, the gain charged log2(cuts) / |D| for the
 * choice among cuts, the threshold moved down to a value seen in training. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "c45_scan.h"

/* Rows this far ahead are fetched while the node's rows are gathered. */
#define TL_C45_AHEAD 48
/* Classes up to this many are summed in registers (gather_k); the scan's limit
 * (TL_C45_SCAN_MAX_K, 5) is lower because its loop keeps more per class in registers. */
#define TL_C45_SUMS_MAX_K 6
/* The least branch weight is capped here (C4.5's MINOBJS bound). */
#define TL_C45_MAX_MIN_SPLIT 25.0

/* Narrows [lo, hi) around the first index past the values eligible for cut (v[i] - cut <
 * 1e-6, true for a prefix of the sorted v): from a guess by interpolation, a window that
 * doubles until it brackets it. A few probes near the answer, where a bisection of every
 * training value misses the cache at each step (the values of 10^5 rows: 800 kB). */
static void bracket(const double *v, size_t n, double cut, size_t *lo, size_t *hi)
{
    if (n < 64 || !(v[n - 1] > v[0]) || !isfinite(v[n - 1] - v[0]) || !isfinite(cut))
        return;
    double f = (cut - v[0]) / (v[n - 1] - v[0]);
    if (!(f > 0 && f < 1))
        return;
    size_t guess = (size_t)(f * (double)(n - 1)), step = 16;
    if (v[guess] - cut < 1e-6) { /* eligible: the answer lies past guess */
        *lo = guess + 1;
        while (*lo < n) {
            size_t probe = n - *lo > step ? *lo + step - 1 : n - 1;
            if (!(v[probe] - cut < 1e-6)) {
                *hi = probe;
                return;
            }
            *lo = probe + 1;
            step *= 2;
        }
        return;
    }
    *hi = guess;
    while (*hi > 0) {
        size_t probe = *hi > step ? *hi - step : 0;
        if (v[probe] - cut < 1e-6) {
            *lo = probe + 1;
            return;
        }
        *hi = probe;
        step *= 2;
    }
}

/* The training value C4.5 moves the cut to: Weka 3.6's setSplitPoint scans the training
 * rows in order and takes a value t when t <= cut + 1e-6 and t > the value taken so far
 * + 1e-6 (its Utils.smOrEq / Utils.gr). Only values near the largest eligible one can
 * decide, so the scan runs over those (v sorted, rows[i] the row of v[i]); cut itself when no
 * value is eligible. */
static double training_value_at_or_below(const double *v, const uint32_t *rows, size_t n,
                                         double cut)
{
    size_t lo = 0, hi = n; /* first index past the eligible values */
    bracket(v, n, cut, &lo, &hi);
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

static const tl_param_spec params[] = {
    {"slack", TL_PARAM_DOUBLE, "1e-6", 0, 0.1, NULL,
     "J48's Utils.eps on the weight comparisons of the cut scan (0: exact)"},
    {NULL, 0, NULL, 0, 0, NULL, NULL},
};

static void *init(const tl_params *p, tl_err *err)
{
    tl_c45_scan_init();
    tl_param_reader rd = tl_params_reader(params, p, err);
    double v = tl_params_double(&rd, "slack");
    double *slack = rd.rc ? NULL : malloc(sizeof *slack);
    if (slack)
        *slack = v;
    else if (!rd.rc)
        tl_err_set(err, TL_ENOMEM, "out of memory");
    return slack;
}

/* Gathers the known rows[0..n) in order (values gx, classes gy, weights ws: 1 when unit) and
 * sums their class weights into known (k, zero) and their weight into *known_w, in row
 * order. For K classes (K > 0, a constant where it is called) one sum per class is kept in a
 * register, each row adding its weight to its class's sum and +0.0 to the others: a sum
 * starts at +0.0 and adding +0.0 leaves any other double as it is, so every sum has the same
 * bits as adding each row to its own class, without the chain through memory that costs when
 * consecutive rows share a class. The rows some way ahead are fetched meanwhile. */
static inline void gather_k(const uint32_t *rows, size_t n, const double *x, const int *code,
                            const double *w, int unit, size_t K, double *gx, int *gy, double *ws,
                            double *known, double *known_w)
{
    double acc[TL_C45_SUMS_MAX_K] = {0}, w_all = 0;
    for (size_t i = 0; i < n; i++) {
        if (i + TL_C45_AHEAD < n) {
            uint32_t ahead = rows[i + TL_C45_AHEAD];
            __builtin_prefetch(&x[ahead]);
            __builtin_prefetch(&code[ahead]);
            __builtin_prefetch(&w[ahead]);
        }
        uint32_t r = rows[i];
        int y = code[r];
        double wi = unit ? 1.0 : w[r];
        gx[i] = x[r];
        gy[i] = y;
        ws[i] = wi;
        for (size_t c = 0; c < K; c++)
            acc[c] += tl_kept_weight(wi, y == (int)c);
        if (!K)
            known[y] += wi;
        w_all += wi;
    }
    for (size_t c = 0; c < K; c++)
        known[c] = acc[c];
    *known_w = w_all;
}

static void gather(const uint32_t *rows, size_t n, const double *x, const int *code,
                   const double *w, int unit, size_t k, double *gx, int *gy, double *ws,
                   double *known, double *known_w)
{
    switch (k) {
    case 2: gather_k(rows, n, x, code, w, unit, 2, gx, gy, ws, known, known_w); return;
    case 3: gather_k(rows, n, x, code, w, unit, 3, gx, gy, ws, known, known_w); return;
    case 4: gather_k(rows, n, x, code, w, unit, 4, gx, gy, ws, known, known_w); return;
    case 5: gather_k(rows, n, x, code, w, unit, 5, gx, gy, ws, known, known_w); return;
    case 6: gather_k(rows, n, x, code, w, unit, 6, gx, gy, ws, known, known_w); return;
    default: gather_k(rows, n, x, code, w, unit, 0, gx, gy, ws, known, known_w); return;
    }
}

/* The node's known rows for the scan (sr), their class weights (known), their weight and
 * the node's: from the compact records when the grower gives them (every row weighs 1 and
 * has the value: known is the node's statistics, nothing is gathered), else gathered in
 * the attribute's order into *buf (freed by the caller). n_known: the rows with a value. */
static int node_rows(const tl_grow_ctx *g, const tl_node_rows *node, size_t attr, tl_c45_rows *sr,
                     double *known, size_t *n_known_out, double *known_w_out, double *total_w_out,
                     double **buf_out, tl_err *err)
{
    size_t k = tl_grow_k(g);
    const tl_dataset *d = tl_grow_data(g);
    const double *x = d->cols[attr].num;
    *buf_out = NULL;
    const uint32_t *rec = tl_grow_view(g, node, attr, TL_VIEW_RECORDS);
    if (rec) {
        unsigned shift = tlg_record_shift(g);
        double w = 0;
        for (size_t c = 0; c < k; c++) {
            known[c] = node->stats[c]; /* whole numbers: the sums of 1.0 in any order */
            w += known[c];
        }
        *sr = (tl_c45_rows){NULL, NULL, NULL, rec, shift};
        *n_known_out = node->n;
        *known_w_out = *total_w_out = w;
        return TL_OK;
    }
    memset(known, 0, k * sizeof *known);
    /* the values and classes packed in sorted order by the grower, read in sequence; the
     * weights gathered, or none when every row weighs 1 */
    const double *px = tl_grow_view(g, node, attr, TL_VIEW_VALUES);
    const int *py = tl_grow_view(g, node, attr, TL_VIEW_CLASSES);
    const uint32_t *rows = tl_grow_view(g, node, attr, TL_VIEW_SORTED);
    if (!rows)
        return tl_err_set(err, TL_ENOMEM, "out of memory sorting %zu rows", node->n);
    size_t n_known = node->n;
    while (n_known > 0 && isnan(px ? px[n_known - 1] : x[rows[n_known - 1]]))
        n_known--;
    size_t cells = n_known ? n_known : 1;
    double *buf = malloc(cells * (px && py ? sizeof(double) : 2 * sizeof(double) + sizeof(int)));
    if (!buf)
        return tl_err_set(err, TL_ENOMEM, "out of memory");
    double *ws = buf;
    const double *xs = px;
    const int *ys = py;
    const double *w = node->w;
    const int *code = d->y.code;
    double known_w = 0, total_w = 0;
    for (size_t i = n_known; i < node->n; i++) /* the unknown values, sorted last */
        total_w += w[rows[i]];
    if (!(px && py)) { /* gathered here in one pass */
        double *gx = buf + n_known;
        int *gy = (int *)(void *)(gx + n_known);
        gather(rows, n_known, x, code, w, node->unit_weights, k, gx, gy, ws, known, &known_w);
        xs = gx;
        ys = gy;
    } else { /* a wrapper's packed values (random_subset) */
        for (size_t i = 0; i < n_known; i++) {
            ws[i] = node->unit_weights ? 1.0 : w[rows[i]];
            known[ys[i]] += ws[i];
            known_w += ws[i];
        }
    }
    *sr = (tl_c45_rows){xs, ws, ys, NULL, 0};
    *n_known_out = n_known;
    *known_w_out = known_w;
    *total_w_out = total_w + known_w;
    *buf_out = buf;
    return TL_OK;
}

static int best(const void *state, const tl_grow_ctx *g, const tl_node_rows *node, size_t attr,
                tl_split *out, tl_err *err)
{
    const tl_grow_params *p = tl_grow_params_of(g);
    const tl_dataset *d = tl_grow_data(g);
    const double *x = d->cols[attr].num;
    double eps = *(const double *)state;
    if (!tl_dataset_is_classification(d)) /* reached through another splitter, e.g. random_subset */
        return -tl_err_set(err, TL_EINVAL, "splitter c45_threshold needs a nominal target");
    int closed_form = p->criterion->form == TL_IMPURITY_SHANNON;
    double *known = tl_grow_scratch(g);
    tl_c45_rows sr;
    size_t n_known;
    double known_w, total_w, *buf;
    int rc = node_rows(g, node, attr, &sr, known, &n_known, &known_w, &total_w, &buf, err);
    if (rc)
        return -rc;
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
    tl_c45_cut choice = {0, 0, SIZE_MAX};
    rc = tl_c45_scan(g, &sr, n_known, known, known_w, total_w, min_split, eps, node->unit_weights,
                     closed_form, &cuts, &choice, err);
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
    double lo, hi;
    if (sr.rec) {
        lo = x[sr.rec[best_i] >> sr.rec_shift];
        hi = x[sr.rec[best_i + 1] >> sr.rec_shift];
    } else {
        const uint32_t *sorted = tl_grow_view(g, node, attr, TL_VIEW_SORTED);
        lo = x[sorted[best_i]];
        hi = x[sorted[best_i + 1]];
    }
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

/* The sorted rows, the training values (a threshold is a value seen in training), and the
 * compact records at unit weights without unknown values (nothing gathered then). Not the
 * packed values: carrying values and classes through every partition cost more than the
 * gathers it saves here (measured at 10^5 rows, with and without unknowns); where a fit
 * keeps them for another splitter, best reads them. */
static void views(const void *state, int kind, tl_view_request *want)
{
    (void)state;
    (void)kind;
    want->kinds = TL_VIEW_BIT(TL_VIEW_SORTED) | TL_VIEW_BIT(TL_VIEW_TRAIN_VALUES) |
                  TL_VIEW_BIT(TL_VIEW_RECORDS);
    want->record_gap = TL_C45_VALUE_EPS;
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
    .views = views,
};

const tl_splitter_type *const tl_splitter_c45_threshold = &c45_threshold;
