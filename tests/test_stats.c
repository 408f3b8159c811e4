/* Statistics: Demsar's (2006) worked example and values recomputed with scipy
 * (tests/fixtures/scipy_stats.txt, written by scripts/peers/scipy_stats.py). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tl_test_util.h"
#include "treelab/tl_stats.h"

static FILE *open_named(const char *rel)
{
    FILE *f = fopen(tl_test_path(rel), "r");
    assert_non_null(f);
    char line[256];
    assert_non_null(fgets(line, sizeof line, f)); /* comment */
    return f;
}

static FILE *open_fixture(void)
{
    return open_named("tests/fixtures/scipy_stats.txt");
}

/* tests/fixtures/scipy_stats_tests.txt, written by scripts/peers/scipy_stats_tests.py */
static FILE *open_tests_fixture(void)
{
    return open_named("tests/fixtures/scipy_stats_tests.txt");
}

static double read_value(FILE *f, const char *name)
{
    char w[64];
    double v;
    assert_int_equal(fscanf(f, "%63s %lf", w, &v), 2);
    if (strcmp(w, name) != 0)
        fail_msg("fixture: expected '%s', found '%s'", name, w);
    return v;
}

static void read_doubles(FILE *f, double *v, size_t n)
{
    for (size_t i = 0; i < n; i++)
        assert_int_equal(fscanf(f, "%lf", &v[i]), 1);
}

/* Skip to the next record called name; 0 at the end of the file. */
static int next_record(FILE *f, const char *name)
{
    char w[64];
    while (fscanf(f, "%63s", w) == 1)
        if (strcmp(w, name) == 0)
            return 1;
    return 0;
}

/* Every Friedman record: ranks, chi2, F_F and their p-values to 1e-9 of scipy's. The first
 * two are Demsar's table 6 as printed and as the paper ranked it. */
static void test_friedman_fixture(void **state)
{
    (void)state;
    FILE *f = open_fixture();
    size_t cases = 0;
    while (next_record(f, "friedman")) {
        size_t N, k;
        assert_int_equal(fscanf(f, "%zu %zu", &N, &k), 2);
        double *s = malloc(N * k * sizeof *s), *want = malloc(k * sizeof *want),
               *ranks = malloc(k * sizeof *ranks);
        read_doubles(f, s, N * k);
        char w[64];
        assert_int_equal(fscanf(f, "%63s", w), 1);
        assert_string_equal(w, "ranks");
        read_doubles(f, want, k);
        tl_friedman fr;
        tl_err err;
        assert_int_equal(tl_friedman_test(s, N, k, ranks, &fr, &err), TL_OK);
        for (size_t j = 0; j < k; j++)
            assert_close(ranks[j], want[j], 1e-12);
        assert_close(fr.chi2, read_value(f, "chi2"), 1e-9);
        assert_close(fr.p_chi2, read_value(f, "p_chi2"), 1e-9);
        assert_close(fr.ff, read_value(f, "ff"), 1e-9);
        assert_close(fr.p_ff, read_value(f, "p_ff"), 1e-9);
        if (cases == 1) { /* the paper's own rounded numbers */
            const double paper[] = {3.143, 2.000, 2.893, 1.964};
            for (size_t j = 0; j < 4; j++)
                assert_close(ranks[j], paper[j], 5e-4);
            assert_close(fr.chi2, 9.28, 5e-3);
            assert_close(fr.ff, 3.69, 5e-3);
        }
        free(s);
        free(want);
        free(ranks);
        cases++;
    }
    assert_int_equal(cases, 4);
    fclose(f);
}

/* Where no row has ties, scipy.stats.friedmanchisquare (its own code) agrees too. */
static void test_friedman_scipy_no_ties(void **state)
{
    (void)state;
    FILE *f = open_fixture();
    assert_true(next_record(f, "scipy_chi2"));
    double want;
    assert_int_equal(fscanf(f, "%lf", &want), 1);
    fclose(f);
    f = open_fixture();
    /* the third friedman record is the tie-free one */
    for (int i = 0; i < 3; i++)
        assert_true(next_record(f, "friedman"));
    size_t N, k;
    assert_int_equal(fscanf(f, "%zu %zu", &N, &k), 2);
    double s[64], ranks[8];
    assert_true(N * k <= 64 && k <= 8);
    read_doubles(f, s, N * k);
    tl_friedman fr;
    tl_err err;
    assert_int_equal(tl_friedman_test(s, N, k, ranks, &fr, &err), TL_OK);
    assert_close(fr.chi2, want, 1e-9);
    fclose(f);
}

static void test_friedman_edges(void **state)
{
    (void)state;
    /* every data set orders the models the same way: chi2 = N (k - 1) = 8, F_F infinite */
    const double s[] = {3, 2, 1, 0.9, 0.5, 0.1, 30, 20, 10, 0.3, 0.2, 0.1};
    double ranks[3];
    tl_friedman fr;
    tl_err err;
    assert_int_equal(tl_friedman_test(s, 4, 3, ranks, &fr, &err), TL_OK);
    assert_close(ranks[0], 1, 0);
    assert_close(ranks[2], 3, 0);
    assert_close(fr.chi2, 8, 1e-12);
    assert_true(isinf(fr.ff));
    assert_close(fr.p_ff, 0, 0);
    const double nan_s[] = {1, NAN, 2, 3};
    assert_int_equal(tl_friedman_test(nan_s, 2, 2, ranks, &fr, &err), TL_EINVAL);
    assert_int_equal(tl_friedman_test(s, 1, 3, ranks, &fr, &err), TL_EINVAL);
}

/* Nemenyi: Demsar's CD for k = 4, N = 14 is 2.569 sqrt(4*5 / (6*14)) = 1.25; the q table for
 * k = 2..20 within 1e-3 of the studentized range values scipy computed (Demsar prints
 * 2.343 for k = 3, where the value is 2.3437; neighbouring entries differ by > 0.02). */
static void test_nemenyi(void **state)
{
    (void)state;
    double cd, q;
    tl_err err;
    assert_int_equal(tl_nemenyi_cd(4, 14, 0.05, &cd, &err), TL_OK);
    assert_close(cd, 1.25, 5e-3);
    FILE *f = open_fixture();
    size_t n_q = 0;
    while (next_record(f, "q")) {
        double alpha, want;
        size_t k;
        assert_int_equal(fscanf(f, "%lf %zu %lf", &alpha, &k, &want), 3);
        assert_int_equal(tl_nemenyi_q(k, alpha, &q, &err), TL_OK);
        assert_close(q, want, 1e-3);
        n_q++;
    }
    assert_int_equal(n_q, 38);
    fclose(f);
    f = open_fixture();
    size_t n_cd = 0;
    while (next_record(f, "nemenyi")) {
        double alpha, want;
        size_t k, N;
        assert_int_equal(fscanf(f, "%zu %zu %lf %lf", &k, &N, &alpha, &want), 4);
        assert_int_equal(tl_nemenyi_cd(k, N, alpha, &cd, &err), TL_OK);
        assert_close(cd, want, 1e-12);
        n_cd++;
    }
    assert_int_equal(n_cd, 5);
    fclose(f);
    assert_int_equal(tl_nemenyi_cd(21, 14, 0.05, &cd, &err), TL_EINVAL);
    assert_int_equal(tl_nemenyi_cd(1, 14, 0.05, &cd, &err), TL_EINVAL);
    assert_int_equal(tl_nemenyi_cd(4, 14, 0.01, &cd, &err), TL_EINVAL);
}

static void test_ttest_fixture(void **state)
{
    (void)state;
    FILE *f = open_fixture();
    size_t cases = 0;
    while (next_record(f, "ttest")) {
        size_t n;
        double ratio;
        assert_int_equal(fscanf(f, "%zu %lf", &n, &ratio), 2);
        double *a = malloc(n * sizeof *a), *b = malloc(n * sizeof *b);
        read_doubles(f, a, n);
        read_doubles(f, b, n);
        tl_ttest t;
        tl_err err;
        assert_int_equal(tl_corrected_ttest(a, b, n, ratio, &t, &err), TL_OK);
        assert_close(t.mean_diff, read_value(f, "mean_diff"), 1e-12);
        assert_close(t.t, read_value(f, "t"), 1e-9);
        assert_close(t.df, read_value(f, "df"), 0);
        assert_close(t.p, read_value(f, "p"), 1e-9);
        free(a);
        free(b);
        cases++;
    }
    assert_int_equal(cases, 2);
    fclose(f);
}

/* By hand: differences 1, 2, 3 (mean 2, variance 1), ratio 0: t = 2 / sqrt(1/3) = 2 sqrt 3;
 * with ratio 1/9 the variance factor is 1/3 + 1/9 = 4/9: t = 2 / (2/3) = 3. */
static void test_ttest_hand(void **state)
{
    (void)state;
    const double a[] = {2, 4, 6}, b[] = {1, 2, 3};
    tl_ttest t;
    tl_err err;
    assert_int_equal(tl_corrected_ttest(a, b, 3, 0, &t, &err), TL_OK);
    assert_close(t.t, 2 * sqrt(3.0), 1e-12);
    assert_int_equal(tl_corrected_ttest(a, b, 3, 1.0 / 9, &t, &err), TL_OK);
    assert_close(t.t, 3, 1e-12);
    assert_close(t.df, 2, 0);
    /* two-sided p for t = 3, 2 df: 1 - 3 / sqrt(11) (closed form for df = 2) */
    assert_close(t.p, 1 - 3 / sqrt(11.0), 1e-12);
    assert_int_equal(tl_corrected_ttest(a, a, 3, 0.1, &t, &err), TL_OK);
    assert_true(isnan(t.t));
    assert_close(t.p, 1, 0);
    assert_int_equal(tl_corrected_ttest(a, b, 1, 0.1, &t, &err), TL_EINVAL);
}

/* Every Wilcoxon record to 1e-9 of scipy (exact and approximate, zeros dropped or split).
 * The first is Demsar's (2006) example, C4.5+m against C4.5 on table 6's 14 data sets with
 * the zeros split: R+ = 93, R- = 12 as the paper counts them. */
static void test_wilcoxon_fixture(void **state)
{
    (void)state;
    FILE *f = open_tests_fixture();
    size_t cases = 0, exact = 0;
    while (next_record(f, "wilcoxon")) {
        char name[64], zeros[16];
        size_t n;
        assert_int_equal(fscanf(f, "%63s %15s %zu", name, zeros, &n), 3);
        double *a = malloc(n * sizeof *a), *b = malloc(n * sizeof *b), want[2];
        read_doubles(f, a, n);
        read_doubles(f, b, n);
        read_doubles(f, want, 2);
        tl_wilcoxon w;
        tl_err err;
        tl_wilcoxon_zeros z = strcmp(zeros, "zsplit") ? TL_WILCOXON_WILCOX : TL_WILCOXON_ZSPLIT;
        assert_int_equal(tl_wilcoxon_test(a, b, n, z, &w, &err), TL_OK);
        if (!(fabs(w.statistic - want[0]) <= 1e-12 && fabs(w.p - want[1]) <= 1e-9))
            fail_msg("%s (%s): T %.17g p %.17g, scipy %.17g %.17g", name, zeros, w.statistic, w.p,
                     want[0], want[1]);
        if (cases == 0) {
            assert_close(w.r_plus, 93, 1e-12);
            assert_close(w.r_minus, 12, 1e-12);
            assert_false(w.exact);
        }
        exact += (size_t)w.exact;
        free(a);
        free(b);
        cases++;
    }
    assert_int_equal(cases, 9);
    assert_int_equal(exact, 4); /* n = 6, 10, 20, 50 without ties or zeros */
    fclose(f);
}

static void test_wilcoxon_edges(void **state)
{
    (void)state;
    const double a[] = {1, 2, 3}, nan_a[] = {1, NAN, 3};
    tl_wilcoxon w;
    tl_err err;
    assert_int_equal(tl_wilcoxon_test(a, a, 3, TL_WILCOXON_WILCOX, &w, &err), TL_EINVAL);
    assert_int_equal(tl_wilcoxon_test(a, nan_a, 3, TL_WILCOXON_WILCOX, &w, &err), TL_EINVAL);
    assert_int_equal(tl_wilcoxon_test(a, a, 0, TL_WILCOXON_WILCOX, &w, &err), TL_EINVAL);
    /* by hand: differences 1, 2, 3 all positive, exact: P(R+ = 6) = 1/8, two-sided 1/4 */
    const double b[] = {0, 0, 0};
    assert_int_equal(tl_wilcoxon_test(a, b, 3, TL_WILCOXON_WILCOX, &w, &err), TL_OK);
    assert_true(w.exact);
    assert_close(w.statistic, 0, 0);
    assert_close(w.p, 0.25, 1e-15);
}

/* Demsar (2006) section 3.2.2 on table 6, C4.5 the control: z and p of C4.5+m, C4.5+cf and
 * C4.5+m+cf to 1e-6 of scipy, and to the paper's printed p = 0.019, 0.607 (0.608 unrounded),
 * 0.016; Holm rejects the first two hypotheses (0.016 < 0.017, 0.019 < 0.025), Bonferroni-
 * Dunn only C4.5+m+cf at 0.05 (CD 2.394 * 0.488: 1.179 is beyond it, 1.143 not) and both at
 * 0.10. */
static void test_control_fixture(void **state)
{
    (void)state;
    FILE *f = open_tests_fixture();
    size_t cases = 0;
    while (next_record(f, "control")) {
        size_t k, n, c;
        double alpha, ranks[8];
        assert_int_equal(fscanf(f, "%zu %zu %lf %zu", &k, &n, &alpha, &c), 4);
        assert_true(k <= 8);
        read_doubles(f, ranks, k);
        tl_control_test t[8];
        tl_err err;
        assert_int_equal(tl_control_tests(ranks, k, n, c, alpha, t, &err), TL_OK);
        for (size_t j = 0; j < k; j++) {
            double z, p;
            int holm, bd;
            assert_int_equal(fscanf(f, "%lf %lf %d %d", &z, &p, &holm, &bd), 4);
            assert_close(t[j].z, z, 1e-6);
            assert_close(t[j].p, p, 1e-6);
            assert_int_equal(t[j].holm, holm);
            assert_int_equal(t[j].bonferroni_dunn, bd);
        }
        if (cases == 0) {
            assert_close(t[1].p, 0.019, 5e-4);
            assert_close(t[2].p, 0.607, 1.5e-3);
            assert_close(t[3].p, 0.016, 5e-4);
            assert_true(t[1].holm && !t[2].holm && t[3].holm);
            assert_true(!t[1].bonferroni_dunn && t[3].bonferroni_dunn);
        }
        cases++;
    }
    assert_int_equal(cases, 3);
    fclose(f);
    f = open_tests_fixture();
    size_t n_cd = 0;
    while (next_record(f, "bd_cd")) {
        size_t k, n;
        double alpha, want, cd;
        tl_err err;
        assert_int_equal(fscanf(f, "%zu %zu %lf %lf", &k, &n, &alpha, &want), 4);
        assert_int_equal(tl_bonferroni_dunn_cd(k, n, alpha, &cd, &err), TL_OK);
        assert_close(cd, want, 1e-9);
        /* Demsar's table 5(b) for 4 models: q = 2.394 (0.05) and 2.128 (0.10) */
        if (n_cd < 2)
            assert_close(cd / sqrt(20.0 / 84), n_cd ? 2.128 : 2.394, 5e-4);
        n_cd++;
    }
    assert_int_equal(n_cd, 4);
    fclose(f);
    double r[] = {1, 2};
    tl_control_test t[2];
    tl_err err;
    assert_int_equal(tl_control_tests(r, 2, 5, 2, 0.05, t, &err), TL_EINVAL);
    assert_int_equal(tl_control_tests(r, 1, 5, 0, 0.05, t, &err), TL_EINVAL);
    assert_int_equal(tl_control_tests(r, 2, 5, 0, 1.5, t, &err), TL_EINVAL);
}

static void test_mcnemar_fixture(void **state)
{
    (void)state;
    FILE *f = open_tests_fixture();
    size_t cases = 0;
    while (next_record(f, "mcnemar")) {
        unsigned long n01, n10;
        double want[3];
        assert_int_equal(fscanf(f, "%lu %lu", &n01, &n10), 2);
        read_doubles(f, want, 3);
        tl_mcnemar m;
        tl_mcnemar_test(n01, n10, &m);
        assert_close(m.chi2, want[0], 1e-12);
        assert_close(m.p_chi2, want[1], 1e-9);
        assert_close(m.p_exact, want[2], 1e-9);
        cases++;
    }
    assert_int_equal(cases, 7);
    fclose(f);
    /* by hand: 10 against 3 disagreements: (7 - 1)^2 / 13; exact 2 P(X <= 3), X ~ Bin(13, 1/2)
     * = 2 (1 + 13 + 78 + 286) / 8192 = 756 / 8192; no disagreement: chi2 0, both p 1 */
    tl_mcnemar m;
    tl_mcnemar_test(10, 3, &m);
    assert_close(m.chi2, 36.0 / 13, 1e-15);
    assert_close(m.p_exact, 756.0 / 8192, 1e-15);
    tl_mcnemar_test(0, 0, &m);
    assert_true(m.chi2 == 0 && m.p_chi2 == 1 && m.p_exact == 1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_friedman_fixture), cmocka_unit_test(test_friedman_scipy_no_ties),
        cmocka_unit_test(test_friedman_edges),   cmocka_unit_test(test_nemenyi),
        cmocka_unit_test(test_ttest_fixture),    cmocka_unit_test(test_ttest_hand),
        cmocka_unit_test(test_wilcoxon_fixture), cmocka_unit_test(test_wilcoxon_edges),
        cmocka_unit_test(test_control_fixture),  cmocka_unit_test(test_mcnemar_fixture),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
