/* Dietterich's 5x2cv t-test and Alpaydin's F-test against SciPy on recorded fold scores
 * (tests/fixtures/scipy_5x2cv.txt from scripts/peers/scipy_5x2cv.py), Holm's step-down on
 * Demsar's (2006) worked p-values, and `treelab stats` on Demsar's table 6: his Wilcoxon
 * example (R+ = 93, R- = 12) and his Friedman example (chi2 = 9.28, F_F = 3.69 with the ranks
 * as the paper computed them); Shaffer's static procedure against scmamp's worked example
 * (tests/fixtures/scmamp_shaffer.txt) and by hand. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tl_test_util.h"
#include "treelab/tl_stats.h"

/* The 10 scores of (dataset, model, metric) from tests/fixtures/scores_5x2cv.csv, repeat i
 * fold j at 2 i + j. */
static void scores(const char *dataset, const char *model, const char *metric, double out[10])
{
    FILE *f = fopen(tl_test_path("tests/fixtures/scores_5x2cv.csv"), "r");
    assert_non_null(f);
    char line[512], d[64], m[64];
    int col = !strcmp(metric, "accuracy") ? 0 : 1, found = 0;
    assert_non_null(fgets(line, sizeof line, f)); /* header */
    while (fgets(line, sizeof line, f)) {
        int r, k;
        double v[2];
        if (sscanf(line, "%63[^,],%63[^,],%d,%d,%lf,%lf", d, m, &r, &k, &v[0], &v[1]) != 6)
            fail_msg("bad line: %s", line);
        if (!strcmp(d, dataset) && !strcmp(m, model)) {
            out[2 * r + k] = v[col];
            found++;
        }
    }
    fclose(f);
    assert_int_equal(found, 10);
}

static void test_5x2cv_as_scipy(void **state)
{
    (void)state;
    FILE *f = fopen(tl_test_path("tests/fixtures/scipy_5x2cv.txt"), "r");
    assert_non_null(f);
    char d[64], a[64], b[64], metric[64];
    double t, pt, fv, pf;
    size_t cases = 0;
    while (fscanf(f, "%63s %63s %63s %63s %lf %lf %lf %lf", d, a, b, metric, &t, &pt, &fv, &pf) ==
           8) {
        double sa[10], sb[10];
        scores(d, a, metric, sa);
        scores(d, b, metric, sb);
        tl_ttest tt;
        tl_ftest ft;
        tl_err err;
        assert_int_equal(tl_5x2cv_t_test(sa, sb, &tt, &err), TL_OK);
        assert_int_equal(tl_5x2cv_f_test(sa, sb, &ft, &err), TL_OK);
        assert_close(tt.t, t, 1e-12 * fmax(1, fabs(t)));
        assert_close(tt.p, pt, 1e-12);
        assert_close(ft.f, fv, 1e-12 * fmax(1, fv));
        assert_close(ft.p, pf, 1e-12);
        assert_true(tt.df == 5 && ft.df1 == 10 && ft.df2 == 5);
        cases++;
    }
    fclose(f);
    assert_int_equal(cases, 24);
}

static void test_holm_demsar(void **state)
{
    (void)state;
    /* Demsar 2006, 3.2.2: C4.5+m, C4.5+cf and C4.5+m+cf against C4.5 with p = 0.016, 0.607
     * and 0.019; Holm compares them with 0.05 / 3, 0.05 / 2, 0.05: rejects two. With 0.017
     * first, the first comparison keeps and the procedure stops. */
    const double p[] = {0.016, 0.607, 0.019}, q[] = {0.017, 0.607, 0.019, NAN};
    int rej[4];
    tl_err err;
    assert_int_equal(tl_holm(p, 3, 0.05, rej, &err), TL_OK);
    assert_true(rej[0] && !rej[1] && rej[2]);
    assert_int_equal(tl_holm(q, 4, 0.05, rej, &err), TL_OK);
    assert_true(!rej[0] && !rej[1] && !rej[2] && !rej[3]);
    /* the rank z-test of every pair: C4.5 (3.143) against C4.5+m (2.000), N = 14, k = 4 */
    const double ranks[] = {3.143, 2.000, 2.893, 1.964};
    double z[6], pz[6];
    assert_int_equal(tl_rank_pairs(ranks, 4, 14, z, pz, &err), TL_OK);
    assert_close(z[0], (3.143 - 2.000) / sqrt(4.0 * 5 / (6.0 * 14)), 1e-12);
    assert_close(pz[0], 0.019, 5e-4); /* the paper's p for C4.5+m */
}

static void test_stats_command(void **state)
{
    (void)state;
    char out[8192], errb[2048];
    int rc = tl_test_cli("stats tests/fixtures/demsar2006_table6.csv --zeros split", out,
                         sizeof out, errb, sizeof errb);
    assert_int_equal(rc, 0);
    const char *want[] = {"14 datasets, 4 models", "| C4.5 | 3.1429 |", "| C4.5+m+cf | 1.9286 |",
                          /* the table as printed (scipy, tests/fixtures/scipy_stats.txt) */
                          ("Friedman chi² = 9.8571 (p = 0.01982); Iman-Davenport F = 3.9867 (p = "
                           "0.01435)"),
                          /* Demsar's Wilcoxon example: R+ = 93, R- = 12 */
                          "| C4.5+m - C4.5 | 93.0 | 12.0 |"};
    for (size_t i = 0; i < sizeof want / sizeof *want; i++)
        if (!strstr(out, want[i]))
            fail_msg("no '%s' in:\n%s", want[i], out);
    rc = tl_test_cli("stats tests/fixtures/demsar2006_table6_ranked.csv", out, sizeof out, errb,
                     sizeof errb);
    assert_int_equal(rc, 0);
    /* the ranks as the paper computed them (voting's C4.5+cf 0.97501): chi2 9.28, F_F 3.69 */
    assert_non_null(strstr(out, "| C4.5+cf | 2.8929 |"));
    assert_non_null(strstr(out, "Friedman chi² = 9.2786 (p = 0.02581); Iman-Davenport F = 3.6863"));
    rc = tl_test_cli("stats tests/fixtures/scores_5x2cv.csv", out, sizeof out, errb, sizeof errb);
    assert_int_equal(rc, 1);
    assert_non_null(strstr(errb, "model 'model': expected a finite number, found 'nb'"));
}

/* compare = { metric; test; pairs; } drives the verdicts, the ranks and the tests: the run
 * that recorded tests/fixtures/scores_5x2cv.csv, compared by ROC AUC with the 5x2cv t-test,
 * gives the fixture's SciPy p-values as verdicts and ranks naive Bayes first by AUC (by
 * accuracy it ranks 1.5). */
static void test_compare_config(void **state)
{
    (void)state;
    char dir[] = "/tmp/tl_compare_XXXXXX", path[256], args[1024], out[4096], errb[4096];
    assert_non_null(mkdtemp(dir));
    snprintf(path, sizeof path, "%s/cmp.cfg", dir);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fprintf(f,
            "name = \"cmp\"; seed = 1998;\n"
            "datasets = ( \"%s/experiments/datasets/breast_cancer.arff\", "
            "\"%s/experiments/datasets/diabetes.arff\", \"%s/experiments/datasets/vote.arff\", "
            "\"%s/experiments/datasets/credit-g.arff\" );\n"
            "models = ( { name = \"nb\"; algorithm = \"gaussian_nb\"; }, { name = \"c45\"; "
            "algorithm = \"c45\"; }, { name = \"cart\"; algorithm = \"cart\"; } );\n"
            "protocol = { kind = \"cv\"; folds = 2; repeats = 5; };\nbaseline = \"nb\";\n"
            "compare = { metric = \"roc_auc_macro\"; test = \"5x2cv_t\"; pairs = \"all\"; };\n",
            TL_SOURCE_DIR, TL_SOURCE_DIR, TL_SOURCE_DIR, TL_SOURCE_DIR);
    fclose(f);
    snprintf(args, sizeof args, "run '%s' --out '%s/r' --quiet", path, dir);
    assert_int_equal(tl_test_cli(args, out, sizeof out, errb, sizeof errb), 0);
    snprintf(path, sizeof path, "%s/r/summary.md", dir);
    char *md = tl_test_slurp(path);
    /* breast_cancer, c45 and cart against nb by AUC: the fixture's p 0.0044765 and the cart
     * line's, as SciPy computed them on these folds */
    FILE *fx = fopen(tl_test_path("tests/fixtures/scipy_5x2cv.txt"), "r");
    assert_non_null(fx);
    char d[64], a[64], b[64], metric[64], want[128];
    double t, pt, fv, pf;
    size_t checked = 0;
    while (fscanf(fx, "%63s %63s %63s %63s %lf %lf %lf %lf", d, a, b, metric, &t, &pt, &fv, &pf) ==
           8)
        if (!strcmp(d, "breast_cancer") && !strcmp(a, "nb") && !strcmp(metric, "roc_auc_macro")) {
            /* the verdict beside the name; the row's 10 cells last */
            snprintf(want, sizeof want, "| %s | %s (%.4f) |", b, t > 0 ? "loss" : "win", pt);
            const char *row = strstr(md, want);
            if (!row)
                fail_msg("no '%s' in summary.md", want);
            assert_memory_equal(strchr(row, '\n') - 5, " 10 |\n", 6);
            checked++;
        }
    fclose(fx);
    assert_int_equal(checked, 2);
    const char *want_md[] = {"Dietterich's 5x2cv paired t-test (1998) on roc_auc_macro",
                             ("| model | vs baseline (p) | roc_auc_macro | accuracy | "
                              "balanced_accuracy | leaves | n |\n"),
                             "| nb | 0 | 0 | 0 | 1.000 |", "## All pairs", "| cart - c45 |"};
    for (size_t i = 0; i < sizeof want_md / sizeof *want_md; i++)
        if (!strstr(md, want_md[i]))
            fail_msg("no '%s' in summary.md", want_md[i]);
    free(md);
    snprintf(args, sizeof args, "rm -rf '%s'", dir);
    assert_int_equal(system(args), 0);
}

/* Garcia & Herrera (2008)'s five classifiers: S(5) = {0, 1, 2, 3, 4, 6, 10}, so the sorted p
 * are multiplied by 10, 6, 6, 6, 6, 4, 4, 3, 2, 1 and made monotone, as scmamp prints them
 * (its raw p to 7 digits: agreement to a relative 1e-6). */
static void test_shaffer_scmamp(void **state)
{
    (void)state;
    FILE *f = fopen(tl_test_path("tests/fixtures/scmamp_shaffer.txt"), "r");
    assert_non_null(f);
    char line[256], a[32], b[32];
    double raw[10], want[10], got[10];
    int rej[10];
    size_t n = 0;
    while (fgets(line, sizeof line, f))
        if (line[0] != '#' && n < 10 &&
            sscanf(line, "%31s %31s %lf %lf", a, b, &raw[n], &want[n]) == 4)
            n++;
    fclose(f);
    assert_int_equal(n, 10);
    assert_int_equal(tl_shaffer(raw, 5, 0.05, got, rej, NULL), TL_OK);
    for (size_t i = 0; i < n; i++) {
        assert_close(got[i] / want[i], 1.0, 1e-6);
        assert_int_equal(rej[i], want[i] < 0.05);
    }
    /* 5 rejected at 0.05: C4.5 - CN2 (raw 0.0185) is kept, 4 x 0.0185 > 0.05 */
    int total = 0;
    for (size_t i = 0; i < n; i++)
        total += rej[i];
    assert_int_equal(total, 5);
}

/* By hand: 3 models, S(3) = {0, 1, 3}: the multipliers 3, 1, 1 (Holm's would be 3, 2, 1);
 * 4 models, S(4) = {0, 1, 2, 3, 6}: 6, 3, 3, 3, 2, 1. A NaN p is kept and adjusted NaN. */
static void test_shaffer_by_hand(void **state)
{
    (void)state;
    double p3[3] = {0.04, 0.01, 0.03}, adj[6];
    int rej[6];
    assert_int_equal(tl_shaffer(p3, 3, 0.05, adj, rej, NULL), TL_OK);
    assert_close(adj[1], 0.03, 1e-15); /* 3 x 0.01 */
    assert_close(adj[2], 0.03, 1e-15); /* max(0.03, 1 x 0.03) */
    assert_close(adj[0], 0.04, 1e-15); /* 1 x 0.04 */
    assert_true(rej[0] && rej[1] && rej[2]);
    double p4[6] = {0.001, 0.002, 0.003, 0.004, 0.005, NAN};
    assert_int_equal(tl_shaffer(p4, 4, 0.05, adj, rej, NULL), TL_OK);
    const double want[5] = {0.006, 0.006, 0.009, 0.012, 0.012}; /* 6p, 3p, 3p, 3p, 2p */
    for (int i = 0; i < 5; i++)
        assert_close(adj[i], want[i], 1e-15);
    assert_true(isnan(adj[5]) && !rej[5]);
    tl_err e;
    assert_int_equal(tl_shaffer(p3, 1, 0.05, adj, rej, &e), TL_EINVAL);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_5x2cv_as_scipy), cmocka_unit_test(test_holm_demsar),
        cmocka_unit_test(test_shaffer_scmamp), cmocka_unit_test(test_shaffer_by_hand),
        cmocka_unit_test(test_stats_command),  cmocka_unit_test(test_compare_config),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
