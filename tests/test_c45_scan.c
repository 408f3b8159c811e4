/* C4.5's cut scan against a plain scan: tl_c45_scan_entropy skips cuts by run and block bounds
 * and sums in registers, and must still pick the cut a scan of every admissible cut in order
 * picks with J48's rule (the first gain beating the best so far by more than 1e-6), with the
 * same gain bits, left weight and count of admissible cuts; from the compact records as from
 * the arrays. Seeded cases of 2 to 7 classes, unit and fractional weights, long single-class
 * runs, ties and value steps around J48's 1e-5 gap. */
#include <gsl/gsl_rng.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../algorithms/splitters/c45_scan.h"
#include "tl_test_util.h"

#define MAX_K 7

static double shannon_bits(const double *s, size_t k)
{
    double w = 0, h = 0;
    for (size_t c = 0; c < k; c++)
        w += s[c];
    for (size_t c = 0; c < k && w > 0; c++)
        if (s[c] > 0)
            h -= s[c] / w * log2(s[c] / w);
    return h;
}

static double xlogx(double v)
{
    return v > 0 ? v * log2(v) : 0;
}

/* Every admissible cut scored in order, J48's rule over them. */
static tl_c45_cut plain_scan(size_t k, const double *x, const double *w, const int *y, size_t n,
                             const double *known, double known_w, double total_w, double min_split,
                             size_t *cuts)
{
    double left[MAX_K] = {0}, lw = 0, h = shannon_bits(known, k), share = known_w / total_w;
    tl_c45_cut best = {0, 0, SIZE_MAX};
    *cuts = 0;
    for (size_t i = 0; i + 1 < n; i++) {
        left[y[i]] += w[i];
        lw += w[i];
        if (!(x[i] + TL_C45_VALUE_EPS < x[i + 1]))
            continue;
        if (min_split - lw >= 1e-6 || min_split - (known_w - lw) >= 1e-6)
            continue;
        ++*cuts;
        double sl = xlogx(lw), sr = xlogx(known_w - lw);
        for (size_t j = 0; j < k; j++) {
            sl -= xlogx(left[j]);
            sr -= xlogx(known[j] - left[j]);
        }
        double gain = (h - (sl + sr) / known_w) * share;
        if (gain - best.gain > 1e-6)
            best = (tl_c45_cut){gain, lw, i};
    }
    return best;
}

static void assert_same_cut(const char *what, long at, size_t c1, tl_c45_cut a, size_t c2,
                            tl_c45_cut b)
{
    if (c1 != c2 || a.i != b.i || memcmp(&a.gain, &b.gain, sizeof a.gain) ||
        memcmp(&a.left_w, &b.left_w, sizeof a.left_w))
        fail_msg("case %ld, %s: %zu cuts, cut %zu, gain %.17g, left %.17g; expected %zu, %zu, "
                 "%.17g, %.17g",
                 at, what, c1, a.i, a.gain, a.left_w, c2, b.i, b.gain, b.left_w);
}

static void test_scan_equals_plain_scan(void **state)
{
    (void)state;
    tl_c45_scan_init();
    gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(rng, 16);
    size_t runs_taken = 0;
    for (long at = 0; at < 6000; at++) {
        size_t k = 2 + gsl_rng_uniform_int(rng, MAX_K - 1);
        size_t n = 5 + gsl_rng_uniform_int(rng, at % 50 == 0 ? 5000 : 400);
        int unit = at % 2, pattern = (int)gsl_rng_uniform_int(rng, 4);
        double stick = at % 3 == 0 ? 0.9 : 0.4; /* long single-class runs in a third */
        double *x = malloc(n * sizeof *x), *w = malloc(n * sizeof *w);
        int *y = malloc(n * sizeof *y);
        uint32_t *rec = malloc(n * sizeof *rec);
        double v = 0, known[MAX_K] = {0}, known_w = 0;
        int cls = 0;
        for (size_t i = 0; i < n; i++) {
            double u = gsl_rng_uniform(rng);
            v += pattern == 0   ? 1
                 : pattern == 1 ? (u < 0.67)                                 /* ties */
                 : pattern == 2 ? (double)gsl_rng_uniform_int(rng, 4) * 4e-6 /* around 1e-5 */
                                : (double)gsl_rng_uniform_int(rng, 2);
            x[i] = v;
            if (gsl_rng_uniform(rng) >= stick)
                cls = (int)gsl_rng_uniform_int(rng, k);
            y[i] = cls;
            w[i] = unit || gsl_rng_uniform(rng) < 0.8 ? 1.0 : 0.5 + gsl_rng_uniform(rng) * 3;
            known[y[i]] += w[i];
            known_w += w[i];
        }
        double total_w = known_w + (at % 3 == 1 ? (double)gsl_rng_uniform_int(rng, 50) : 0);
        double min_split = 0.1 * known_w / (double)k;
        min_split = min_split <= 2 + 1e-6 ? 2 : min_split > 25 + 1e-6 ? 25 : min_split;
        size_t plain_cuts, cuts;
        tl_c45_cut want =
            plain_scan(k, x, w, y, n, known, known_w, total_w, min_split, &plain_cuts);
        tl_c45_cut got = {0, 0, SIZE_MAX};
        tl_c45_rows rows = {x, w, y, NULL, 0};
        tl_err err;
        double h = shannon_bits(known, k);
        assert_int_equal(tl_c45_scan_entropy(k, h, &rows, n, known, known_w, total_w, min_split,
                                             1e-6, unit, &cuts, &got, &err),
                         TL_OK);
        assert_same_cut("arrays", at, cuts, got, plain_cuts, want);
        runs_taken += want.i != SIZE_MAX;
        if (!unit)
            goto next;
        /* the grower's records of the same rows: row id, class code, differs and cut bits */
        unsigned shift = TL_REC_CLASS_SHIFT;
        while (((size_t)1 << (shift - TL_REC_CLASS_SHIFT)) < k)
            shift++;
        for (size_t i = 0; i < n; i++) {
            uint32_t bits = 0;
            if (i > 0 && x[i] != x[i - 1])
                bits = TL_REC_DIFFERS | (x[i - 1] + TL_C45_VALUE_EPS < x[i] ? TL_REC_CUT : 0);
            rec[i] = (uint32_t)i << shift | (uint32_t)y[i] << TL_REC_CLASS_SHIFT | bits;
        }
        tl_c45_rows records = {NULL, NULL, NULL, rec, shift};
        got = (tl_c45_cut){0, 0, SIZE_MAX};
        assert_int_equal(tl_c45_scan_entropy(k, h, &records, n, known, known_w, total_w, min_split,
                                             1e-6, 1, &cuts, &got, &err),
                         TL_OK);
        assert_same_cut("records", at, cuts, got, plain_cuts, want);
    next:
        free(x);
        free(w);
        free(y);
        free(rec);
    }
    assert_true(runs_taken > 3000); /* most cases have a cut: the comparison is not vacuous */
    gsl_rng_free(rng);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_scan_equals_plain_scan),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
