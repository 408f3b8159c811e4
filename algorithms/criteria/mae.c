/* Absolute error around the weighted median (regression), as scikit-learn's MAE criterion
 * (criterion="absolute_error"): a node's loss is sum_i w_i |y_i - median|, its impurity that
 * over its weight, and a leaf predicts the weighted median. No fixed statistics give a
 * median, so this criterion has the row form: the losses of every prefix of a sequence of
 * targets, kept by two heaps around the median (the lower half in a max-heap, the upper in a
 * min-heap, each with its weight and weighted sum), O(log n) per target where scikit-learn
 * rescans the rows at every cut.
 *
 * The weighted median is scikit-learn's (WeightedMedianCalculator): with the values sorted,
 * the first value at which the cumulative weight reaches half the total, or the mean of it
 * and the next value when the cumulative weight is exactly half. Sums are taken relative to
 * the first target, so a large common offset costs no precision; on targets of a few
 * significant bits (counts, grades) every loss is exact, as scikit-learn's, so equal cuts tie
 * as there. */
#include "treelab/tl_plugin.h"

/* A min-heap of (key, weight) pairs on caller memory; the lower half stores keys negated. */
typedef struct heap {
    double *key, *w;
    size_t n;
} heap;

static void swap_at(heap *h, size_t a, size_t b)
{
    double k = h->key[a], w = h->w[a];
    h->key[a] = h->key[b];
    h->w[a] = h->w[b];
    h->key[b] = k;
    h->w[b] = w;
}

static void push(heap *h, double key, double w)
{
    size_t i = h->n++;
    h->key[i] = key;
    h->w[i] = w;
    while (i > 0 && h->key[(i - 1) / 2] > h->key[i]) {
        swap_at(h, i, (i - 1) / 2);
        i = (i - 1) / 2;
    }
}

static void pop(heap *h, double *key, double *w)
{
    *key = h->key[0];
    *w = h->w[0];
    h->n--;
    h->key[0] = h->key[h->n];
    h->w[0] = h->w[h->n];
    for (size_t i = 0;;) {
        size_t l = 2 * i + 1, r = l + 1, m = i;
        if (l < h->n && h->key[l] < h->key[m])
            m = l;
        if (r < h->n && h->key[r] < h->key[m])
            m = r;
        if (m == i)
            break;
        swap_at(h, i, m);
        i = m;
    }
}

/* One half of the targets: its heap, weight and weighted sum of (y - offset). */
typedef struct half {
    heap h;
    double w, s;
    double sign; /* -1: keys are negated values (the lower half's max-heap) */
} half;

static void half_add(half *a, double y, double w, double offset)
{
    push(&a->h, a->sign * y, w);
    a->w += w;
    a->s += w * (y - offset);
}

/* Moves the top of `from` into `to`. */
static void move_top(half *from, half *to, double offset)
{
    double key, w;
    pop(&from->h, &key, &w);
    double y = from->sign * key;
    from->w -= w;
    from->s -= w * (y - offset);
    half_add(to, y, w, offset);
}

static void prefix_loss(const void *state, const double *y, const double *w, size_t n, double *loss,
                        double *value, double *work)
{
    (void)state;
    half lo = {{work, work + n, 0}, 0, 0, -1}, hi = {{work + 2 * n, work + 3 * n, 0}, 0, 0, 1};
    double total = 0, offset = n ? y[0] : 0;
    for (size_t i = 0; i < n; i++) {
        total += w[i];
        if (lo.h.n == 0 || y[i] <= -lo.h.key[0])
            half_add(&lo, y[i], w[i], offset);
        else
            half_add(&hi, y[i], w[i], offset);
        /* the lower half: the fewest smallest values holding at least half the weight */
        while (lo.h.n > 0 && lo.w - lo.h.w[0] >= total / 2)
            move_top(&lo, &hi, offset);
        while (lo.w < total / 2 && hi.h.n > 0)
            move_top(&hi, &lo, offset);
        double m = lo.h.n ? -lo.h.key[0] : hi.h.key[0];
        if (lo.w == total / 2 && lo.h.n > 0 && hi.h.n > 0)
            m = (m + hi.h.key[0]) / 2.0;
        double d = m - offset, l = d * lo.w - lo.s + hi.s - d * hi.w;
        loss[i] = l > 0 ? l : 0;
        value[i] = m;
    }
}

/* As scikit-learn, a node that is not pure splits at its best cut even when that decreases
 * nothing (common with medians: moving one row across often leaves the loss as it was). */
static void rules(const void *state, tl_choice_rules *out)
{
    (void)state;
    out->zero_gain = 1;
}

static const tl_criterion_type mae = {
    .name = "mae",
    .summary = "absolute error around the weighted median, leaves predict the median "
               "(regression, scikit-learn's absolute_error)",
    .reference = "Breiman et al. (1984), sec. 8.11 (least absolute deviation); as "
                 "scikit-learn's MAE criterion",
    .tasks = TL_TASK_REGRESSION,
    .rules = rules,
    .prefix_loss = prefix_loss,
};

const tl_criterion_type *const tl_criterion_mae = &mae;
