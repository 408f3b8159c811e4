/* Histogram splitter (LightGBM; scikit-learn's HistGradientBoosting): every numeric attribute
 * is binned once per fit into at most max_bins bins (tl_histogram_thresholds); a node's rows
 * are counted into per-bin statistics in one pass, for all numeric attributes at once (no
 * sorting, no sorted blocks carried down the tree), and the cuts between bins are scored with
 * the criterion as numeric_threshold scores its cuts. The threshold is the upper boundary of
 * the bin left of the cut. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "histogram.h"
#include "threshold.h"

static const tl_param_spec params[] = {
    {"max_bins", TL_PARAM_INT, "255", 2, 65535, NULL,
     "bins per numeric attribute, unknown values apart (LightGBM's and scikit-learn's 255)"},
    {NULL, 0, NULL, 0, 0, NULL, NULL},
};

typedef struct opts {
    size_t max_bins;
} opts;

static void *init(const tl_params *p, tl_err *err)
{
    tl_param_reader rd = tl_params_reader(params, p, err);
    long max_bins = tl_params_int(&rd, "max_bins");
    if (rd.rc)
        return NULL;
    opts *o = malloc(sizeof *o);
    if (!o) {
        tl_err_set(err, TL_ENOMEM, "out of memory");
        return NULL;
    }
    o->max_bins = (size_t)max_bins;
    return o;
}

/* The bin of a known value: how many boundaries lie below it (a binary search whose steps
 * compile to conditional moves: the values come in row order, so branches would miss). */
static size_t bin_of(const double *thr, size_t n, double x)
{
    if (n == 0)
        return 0;
    const double *b = thr;
    while (n > 1) {
        size_t half = n / 2;
        b += (size_t)(b[half - 1] < x) * half;
        n -= half;
    }
    return (size_t)(b - thr) + (*b < x);
}

/* Bins slot s's attribute over the rows grown on; vals: root->n doubles of scratch. */
static int bin_attr(tlh_fit *f, const tl_dataset *d, size_t attr, size_t s,
                    const tl_node_rows *root, double *vals, size_t max_bins, tl_err *err)
{
    const double *x = d->cols[attr].num;
    for (size_t i = 0; i < root->n; i++)
        vals[i] = x[root->rows[i]];
    size_t nt = 0;
    int rc = tl_histogram_thresholds(vals, root->n, max_bins, f->thr + s * f->thr_cap, &nt, err);
    f->n_bins[s] = nt + 1;
    return rc;
}

/* Every numeric attribute binned once per fit, the histograms laid out. */
static int prepare(const void *state, const tl_grow_ctx *g, const tl_node_rows *root, int kind,
                   void **out, tl_err *err)
{
    const opts *o = state;
    const tl_dataset *d = tl_grow_data(g);
    size_t n_attrs = d->schema.n_attrs, rows = d->n_rows ? d->n_rows : 1;
    if (kind != TL_ATTR_NUMERIC)
        return TL_OK;
    tlh_fit *f = calloc(1, sizeof *f);
    if (!f)
        return tl_err_set(err, TL_ENOMEM, "out of memory");
    *out = f;
    f->k = tl_grow_k(g);
    f->rec = f->k + 1;
    f->regression = !tl_dataset_is_classification(d);
    f->thr_cap = o->max_bins - 1;
    f->slot = malloc((n_attrs ? n_attrs : 1) * sizeof *f->slot);
    for (size_t a = 0; f->slot && a < n_attrs; a++)
        f->slot[a] = d->schema.attrs[a].kind == TL_ATTR_NUMERIC ? (long)f->n_num++ : -1;
    size_t ns = f->n_num ? f->n_num : 1;
    f->n_bins = malloc(ns * sizeof *f->n_bins);
    f->thr = malloc(ns * f->thr_cap * sizeof *f->thr);
    f->hist_at = malloc(ns * sizeof *f->hist_at);
    f->occ_at = malloc(ns * sizeof *f->occ_at);
    double *vals = malloc((root->n ? root->n : 1) * sizeof *vals);
    if (!f->slot || !f->n_bins || !f->thr || !f->hist_at || !f->occ_at || !vals) {
        free(vals);
        return tl_err_set(err, TL_ENOMEM, "out of memory binning %zu rows", root->n);
    }
    size_t cells = 0, words = 0, widest = 0;
    for (size_t a = 0; a < n_attrs; a++) {
        long s = f->slot[a];
        if (s < 0)
            continue;
        int rc = bin_attr(f, d, a, (size_t)s, root, vals, o->max_bins, err);
        if (rc) {
            free(vals);
            return rc;
        }
        size_t nb = f->n_bins[s] + 1; /* the unknown values' bin too */
        f->hist_at[s] = cells;
        f->occ_at[s] = words;
        cells += nb * f->rec;
        words += (nb + 63) / 64;
        widest = nb > widest ? nb : widest;
    }
    free(vals);
    f->cells = cells;
    f->words = words;
    int wide = widest > 256;
    size_t n_cells = rows * ns;
    if (wide)
        f->bin16 = malloc(n_cells * sizeof *f->bin16);
    else
        f->bin8 = malloc(n_cells);
    f->hist = calloc(cells ? cells : 1, sizeof *f->hist);
    f->occ = calloc(words ? words : 1, sizeof *f->occ);
    if (tl_grow_params_of(g)->criterion->prefix_loss) {
        f->order = malloc((root->n ? root->n : 1) * sizeof *f->order);
        f->count = malloc((widest ? widest : 1) * sizeof *f->count);
        if (!f->order || !f->count)
            return tl_err_set(err, TL_ENOMEM, "out of memory binning %zu rows", root->n);
    }
    if ((wide ? (void *)f->bin16 : (void *)f->bin8) == NULL || !f->hist || !f->occ)
        return tl_err_set(err, TL_ENOMEM, "out of memory binning %zu rows", root->n);
    for (size_t a = 0; a < n_attrs; a++) {
        long s = f->slot[a];
        if (s < 0)
            continue;
        const double *x = d->cols[a].num, *thr = f->thr + (size_t)s * f->thr_cap;
        size_t nt = f->n_bins[s] - 1;
        for (size_t i = 0; i < root->n; i++) {
            uint32_t r = root->rows[i];
            size_t b = isnan(x[r]) ? nt + 1 : bin_of(thr, nt, x[r]);
            if (wide)
                f->bin16[(size_t)r * f->n_num + (size_t)s] = (uint16_t)b;
            else
                f->bin8[(size_t)r * f->n_num + (size_t)s] = (uint8_t)b;
        }
    }
    return TL_OK;
}

/* Row-form criteria: the node's known rows of slot s bin by bin into f->order (f->count[b]
 * rows in bin b); returns how many. */
static size_t order_by_bin(tlh_fit *f, const tl_node_rows *node, size_t s)
{
    size_t nb = f->n_bins[s];
    memset(f->count, 0, (nb + 1) * sizeof *f->count);
    for (size_t i = 0; i < node->n; i++)
        f->count[tlh_bin_at(f, node->rows[i], s)]++;
    size_t n_known = 0;
    for (size_t b = 0; b < nb; b++) /* count[b] becomes where bin b starts, for now */
    {
        size_t t = f->count[b];
        f->count[b] = n_known;
        n_known += t;
    }
    for (size_t i = 0; i < node->n; i++) {
        size_t b = tlh_bin_at(f, node->rows[i], s);
        if (b < nb)
            f->order[f->count[b]++] = node->rows[i];
    }
    return n_known; /* count[b]: now where bin b ends */
}

/* What the sweep of one attribute keeps: the criterion's pieces and the best cut so far. */
typedef struct sweep {
    double (*impurity)(const double *, size_t);
    int gini;                      /* impurity is tl_gini_impurity: inlined */
    const double *loss_l, *loss_r; /* row form */
    int best_side;
    int bound;             /* Gini on rows of weight 1: cuts that cannot win are skipped */
    double sl, sr, margin; /* ... by the sums of squared class counts on each side */
    double *left, *right, *known, *best_left, *u, *tmp;
    double known_w, wu, min_leaf, best_child, best_t;
} sweep;

/* Moves a bin's statistics h (k, after its weight) into the left side. With the bound, the
 * sums of squared counts follow: (l + h)^2 = l^2 + 2 l h + h^2 on the left, (r - h)^2 on the
 * right, whole numbers as numeric_threshold's one row at a time. */
static inline void move_left(sweep *sw, const double *h, size_t k)
{
    for (size_t j = 0; j < k; j++) {
        if (sw->bound) {
            sw->sl += 2 * sw->left[j] * h[j] + h[j] * h[j];
            sw->sr += h[j] * h[j] - 2 * (sw->known[j] - sw->left[j]) * h[j];
        }
        sw->left[j] += h[j];
    }
}

/* Scores the cut after bin b (left: every bin up to b; last: its last row in f->order). */
static void score_cut(const tl_grow_ctx *g, sweep *sw, size_t k, double wl, size_t last, double t)
{
    double wr = sw->known_w - wl;
    if (!tl_cut_weights_ok(wl, wr, sw->min_leaf))
        return;
    if (sw->bound && sw->best_child < INFINITY) { /* as numeric_threshold's sweep_unit */
        double prod = wl * wr;
        if (sw->known_w * prod - (sw->sl * wr + sw->sr * wl) > (sw->best_child + sw->margin) * prod)
            return;
    }
    for (size_t j = 0; j < k; j++)
        sw->right[j] = sw->known[j] - sw->left[j];
    double child =
        sw->best_side
            ? tl_side_impurity(sw->impurity, sw->left, sw->right, sw->u, sw->tmp, wl, wr, sw->wu, k)
        : sw->loss_l   ? wl * (sw->loss_l[last] / wl) + wr * (sw->loss_r[last] / wr)
        : sw->gini     ? wl * tl_gini_impurity(sw->left, k) + wr * tl_gini_impurity(sw->right, k)
        : sw->impurity ? wl * sw->impurity(sw->left, k) + wr * sw->impurity(sw->right, k)
                       : -tl_grow_partition_gain(g, sw->left, 2);
    if (child < sw->best_child) { /* strict: among equal cuts the lowest threshold wins */
        sw->best_child = child;
        sw->best_t = t;
        memcpy(sw->best_left, sw->left, k * sizeof *sw->left);
    }
}

static int best(const void *state, const tl_grow_ctx *g, const tl_node_rows *node, size_t attr,
                tl_split *out, tl_err *err)
{
    (void)state;
    tlh_fit *f = tl_grow_prepared(g, attr);
    if (!f || f->slot[attr] < 0)
        return -tl_err_set(err, TL_EINTERNAL, "histogram: attribute %zu was not binned", attr);
    if (tlh_fill(f, g, node))
        return -tl_err_set(err, TL_ENOMEM, "out of memory keeping a node's histograms");
    const tl_grow_params *p = tl_grow_params_of(g);
    size_t s = (size_t)f->slot[attr], nb = f->n_bins[s], k = f->k, R = f->rec;
    const double *h = f->hist + f->hist_at[s], *thr = f->thr + s * f->thr_cap;
    const uint64_t *occ = f->occ + f->occ_at[s];
    double *sc = tl_grow_scratch(g); /* left, right (contiguous: the children), known, best
                                        left, unknown, tmp */
    sweep sw = {.left = sc,
                .right = sc + k,
                .known = sc + 2 * k,
                .best_left = sc + 3 * k,
                .u = sc + 4 * k,
                .tmp = sc + 5 * k,
                .best_child = INFINITY};
    memset(sc, 0, 3 * k * sizeof *sc);
    for (size_t b = tlh_next_bin(occ, 0, nb); b < nb; b = tlh_next_bin(occ, b + 1, nb)) {
        sw.known_w += h[b * R];
        for (size_t j = 0; j < k; j++)
            sw.known[j] += h[b * R + 1 + j];
    }
    double missing_w = h[nb * R];
    memcpy(sw.u, h + nb * R + 1, k * sizeof *sw.u);
    sw.wu = missing_w;
    if (sw.known_w <= 0)
        return 0;
    sw.impurity = p->criterion->score ? NULL : p->criterion->impurity;
    sw.gini = sw.impurity && p->criterion->form == TL_IMPURITY_GINI;
    if (p->criterion->prefix_loss)
        tl_grow_cut_losses(g, f->order, order_by_bin(f, node, s), &sw.loss_l, &sw.loss_r);
    sw.best_side = sw.impurity && !sw.loss_l && missing_w > 0 && tl_grow_unknowns_at_cut(g);
    sw.min_leaf = p->min_samples_leaf > 0 ? p->min_samples_leaf : 0;
    sw.bound =
        sw.gini && !sw.best_side && node->unit_weights && sw.known_w <= TL_GINI_BOUND_MAX_ROWS;
    sw.margin = TL_GINI_SKIP * sw.known_w;
    for (size_t j = 0; j < k && sw.bound; j++)
        sw.sr += sw.known[j] * sw.known[j];
    /* cuts between bins holding weight (as numeric_threshold skips rows of none); prev: the
     * last such bin, whose statistics are not yet in left */
    double wl = 0;
    size_t prev = SIZE_MAX;
    for (size_t b = tlh_next_bin(occ, 0, nb); b < nb; b = tlh_next_bin(occ, b + 1, nb)) {
        if (!(h[b * R] > 0))
            continue;
        if (prev != SIZE_MAX) {
            wl += h[prev * R];
            move_left(&sw, h + prev * R + 1, k);
            score_cut(g, &sw, k, wl, sw.loss_l ? f->count[prev] - 1 : 0, thr[prev]);
        }
        prev = b;
    }
    return tl_threshold_found(g, node, attr, sc, k, sw.best_child, sw.best_t, missing_w, out);
}

static void release(const void *state, int kind, void *fit)
{
    (void)state;
    (void)kind;
    tlh_free(fit);
}

static const tl_splitter_type histogram = {
    .name = "histogram",
    .summary = "binary cut between bins of values binned once per fit (LightGBM, "
               "HistGradientBoosting): approximate, no sorting",
    .reference = "Ke et al., LightGBM, NIPS 2017; scikit-learn's HistGradientBoosting",
    .params = params,
    .init = init,
    .free = free,
    .kinds = TL_KIND_BIT(TL_ATTR_NUMERIC),
    .best = best,
    .prepare = prepare,
    .release = release,
};

const tl_splitter_type *const tl_splitter_histogram = &histogram;
