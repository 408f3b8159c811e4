/* The ROC and reliability figures: their points from hand-made score bins, and a run's data
 * files against what its cells must hold (every test row once per fold, the class counts),
 * re-rendered from cells.txt, and from cells written before the finer ROC bins. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tl_test_util.h"
#include "treelab/tl_experiment.h"
#include "treelab/tl_log.h"
#include "treelab/tl_metrics.h"
#include "treelab/tl_plot.h"
#include "treelab/tl_report.h"
#include "treelab/tl_runner.h"

#define D TL_SOURCE_DIR "/experiments/datasets/"
static char dir[64];
static int n_warnings;

static void hook(tl_log_level level, const char *msg, void *user)
{
    (void)user;
    n_warnings += level == TL_LOG_WARN && strstr(msg, "roc and reliability figures skipped");
}

static void test_reliability_and_coarse_roc_by_hand(void **state)
{
    (void)state;
    /* bin 2 ([0.10, 0.15)): 4 pairs, p summing to 0.5, 1 of the class; bin 19: 6 pairs at
     * 0.95, 5 of the class */
    double bins[3 * TL_PROBA_BINS] = {0};
    bins[3 * 2] = 4, bins[3 * 2 + 1] = 0.5, bins[3 * 2 + 2] = 1;
    bins[3 * 19] = 6, bins[3 * 19 + 1] = 5.7, bins[3 * 19 + 2] = 5;
    double x[TL_PROBA_BINS + 1], y[TL_PROBA_BINS + 1], w[TL_PROBA_BINS], area;
    assert_int_equal(tl_proba_bins_reliability(bins, x, y, w), 2);
    assert_close(x[0], 0.125, 1e-15);
    assert_close(y[0], 0.25, 1e-15);
    assert_close(w[0], 4, 0);
    assert_close(x[1], 0.95, 1e-15);
    assert_close(y[1], 5.0 / 6, 1e-15);
    /* 6 positives, 4 negatives: the 0.95 bin gives TP 5, FP 1, then everything */
    assert_int_equal(tl_proba_bins_roc(bins, x, y, &area), 3);
    assert_close(x[1], 0.25, 1e-15);
    assert_close(y[1], 5.0 / 6, 1e-15);
    assert_close(x[2], 1, 0);
    assert_close(y[2], 1, 0);
    assert_close(area, 0.25 * 5 / 6 / 2 + 0.75 * (5.0 / 6 + 1) / 2, 1e-15);
    /* one class only: no curve */
    bins[3 * 2 + 2] = 4, bins[3 * 19 + 2] = 6;
    assert_int_equal(tl_proba_bins_roc(bins, x, y, &area), 0);
}

static void test_fine_roc_bins_keep_the_ranking(void **state)
{
    (void)state;
    /* class-1 scores 0.1 (negative), 0.4 (positive), 0.6 (negative), 0.9 and 0.9 (positive):
     * sklearn's roc_curve gives (0, 2/3), (0.5, 2/3), (0.5, 1), (1, 1) and an AUC of 5/6
     * (the positives beat the negatives in 5 of 6 pairs) */
    int truth[] = {0, 1, 0, 1, 1};
    double p1[] = {0.1, 0.4, 0.6, 0.9, 0.9}, proba[10];
    for (int i = 0; i < 5; i++)
        proba[2 * i] = 1 - p1[i], proba[2 * i + 1] = p1[i];
    double *bins = calloc(2 * TL_ROC_BINS, sizeof *bins);
    double x[TL_ROC_BINS + 1], y[TL_ROC_BINS + 1], area;
    tl_roc_bins_add(truth, proba, NULL, 5, 2, bins);
    assert_int_equal(tl_roc_bins_curve(bins, x, y, &area), 5);
    const double want[5][2] = {{0, 0}, {0, 2.0 / 3}, {0.5, 2.0 / 3}, {0.5, 1}, {1, 1}};
    for (int i = 0; i < 5; i++) {
        assert_close(x[i], want[i][0], 1e-15);
        assert_close(y[i], want[i][1], 1e-15);
    }
    assert_close(area, 5.0 / 6, 1e-15);
    /* scores 1 - 1e-3 (negative) and 1 - 1e-6 (positive) share the top bin of 1/20 in p, so
     * the coarse bins tie them (area 0.5); the log-odds bins keep them apart (area 1) */
    int t2[] = {0, 1};
    double pr2[] = {1e-3, 1 - 1e-3, 1e-6, 1 - 1e-6};
    double coarse[3 * TL_PROBA_BINS] = {0};
    memset(bins, 0, 2 * TL_ROC_BINS * sizeof *bins);
    tl_roc_bins_add(t2, pr2, NULL, 2, 2, bins);
    tl_proba_bins_add(t2, pr2, NULL, 2, 2, coarse);
    tl_roc_bins_curve(bins, x, y, &area);
    assert_close(area, 1, 1e-15);
    tl_proba_bins_roc(coarse, x, y, &area);
    assert_close(area, 0.5, 1e-15);
    /* three classes: every (row, class) pair, micro-averaged; weights count */
    int t3[] = {2};
    double pr3[] = {0.2, 0.3, 0.5}, wt[] = {2};
    memset(bins, 0, 2 * TL_ROC_BINS * sizeof *bins);
    tl_roc_bins_add(t3, pr3, wt, 1, 3, bins);
    double total = 0, pos = 0;
    for (size_t b = 0; b < TL_ROC_BINS; b++)
        total += bins[2 * b], pos += bins[2 * b + 1];
    assert_close(total, 6, 0);
    assert_close(pos, 2, 0);
    free(bins);
}

static const char *in(const char *run, const char *name)
{
    static char buf[4][512];
    static int i;
    i = (i + 1) % 4;
    snprintf(buf[i], sizeof buf[i], "%s/%s/%s", dir, run, name);
    return buf[i];
}

/* Run the config text into dir/run; the experiment is returned (free it). */
static tl_experiment *run(const char *run_name, const char *text)
{
    tl_err err;
    tl_experiment *x = tl_experiment_load(tl_test_tmpfile(".cfg", text), NULL, &err);
    if (!x)
        fail_msg("%s", err.msg);
    char out[256];
    snprintf(out, sizeof out, "%s/%s", dir, run_name);
    tl_run_opts o = {.out_dir = out, .jobs = 1};
    if (tl_report_run(x, NULL, &o, &err))
        fail_msg("%s", err.msg);
    return x;
}

static double rows[1000][TL_TEST_DAT_COLS];

/* Block b of a reliability file: the bins' weights sum to the pairs (rows x repeats, or x k
 * classes), weight x observed frequency to the pairs of the class; mean p in [0, 1]. */
static void check_reliability(const char *path, int b, double pairs, double of_class)
{
    size_t n = tl_test_dat_block(path, b, rows, 1000);
    assert_true(n > 0 && n <= TL_PROBA_BINS);
    double w = 0, c = 0;
    for (size_t i = 0; i < n; i++) {
        assert_true(rows[i][0] >= 0 && rows[i][0] <= 1);
        w += rows[i][2], c += rows[i][2] * rows[i][1];
    }
    assert_close(w, pairs, 1e-9);
    assert_close(c, of_class, 1e-9);
}

/* Block b of a ROC file: from (0, 0) to (1, 1), never decreasing; returns its trapezoid
 * area. */
static double check_roc(const char *path, int b)
{
    size_t n = tl_test_dat_block(path, b, rows, 1000);
    assert_true(n >= 3);
    assert_close(rows[0][0], 0, 0);
    assert_close(rows[0][1], 0, 0);
    assert_close(rows[n - 1][0], 1, 1e-12);
    assert_close(rows[n - 1][1], 1, 1e-12);
    double area = 0;
    for (size_t i = 1; i < n; i++) {
        assert_true(rows[i][0] >= rows[i - 1][0] && rows[i][1] >= rows[i - 1][1]);
        area += (rows[i][0] - rows[i - 1][0]) * (rows[i][1] + rows[i - 1][1]) / 2;
    }
    return area;
}

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    rewind(f);
    char *s = malloc((size_t)n + 1);
    assert_int_equal(fread(s, 1, (size_t)n, f), (size_t)n);
    s[n] = '\0';
    fclose(f);
    return s;
}

static void test_run_draws_both_figures(void **state)
{
    (void)state;
    tl_experiment *x =
        run("p",
            "name = \"p\"; seed = 4;\n"
            "datasets = ( \"" D "weather.nominal.arff\", \"" D "iris.arff\" );\n"
            "models = ( { name = \"nb\"; algorithm = \"gaussian_nb\"; },\n"
            "  { name = \"id3\"; algorithm = \"id3\"; params = { smoothing = \"laplace\"; }; } );\n"
            "grids = ( { model = \"id3\"; param = \"max_depth\"; values = [1, 2]; } );\n"
            "protocol = { kind = \"cv\"; folds = 2; repeats = 3; };\n"
            "plots = [ \"roc\", \"reliability\" ];\n");
    /* weather: 14 rows x 3 repeats, class 1 ('no') in 5 of them; iris: 150 x 3 repeats x 3
     * classes, one of each row's three pairs is its class. Grid cells are left out: two
     * blocks per file. */
    for (int b = 0; b < 2; b++) {
        check_reliability(in("p", "plots/reliability_weather.nominal.dat"), b, 42, 15);
        check_reliability(in("p", "plots/reliability_iris.dat"), b, 1350, 450);
    }
    assert_int_equal(tl_test_dat_block(in("p", "plots/reliability_iris.dat"), 2, rows, 10), 0);
    /* the area in the legend is the curve's */
    char *roc = slurp(in("p", "plots/roc_iris.dat"));
    const char *at = strstr(roc, "# nb (area ");
    assert_non_null(at);
    assert_close(strtod(at + strlen("# nb (area "), NULL),
                 check_roc(in("p", "plots/roc_iris.dat"), 0), 5e-4);
    assert_true(check_roc(in("p", "plots/roc_weather.nominal.dat"), 1) > 0);
    char *gp = slurp(in("p", "plots/roc_weather.nominal.gp"));
    assert_non_null(strstr(gp, "positive class no"));
    free(gp);

    /* redrawn from cells.txt: the same data */
    tl_err err;
    assert_int_equal(tl_report_plots(in("p", ""), x, NULL, &err), TL_OK);
    char *again = slurp(in("p", "plots/roc_iris.dat"));
    assert_string_equal(again, roc);
    free(again);

    /* cells written before the finer ROC bins (the line ends at the per-row field) still
     * read; their ROC falls back to the 20 bins and says so. Such files are format 1, which
     * has no checksum line. */
    char *cells = slurp(in("p", "cells.txt"));
    for (char *r; (r = strstr(cells, "\troc\t"));) {
        char *end = strchr(r, '\n');
        memmove(r, end, strlen(end) + 1);
    }
    char *sum = strstr(cells, "# checksum sha256 ");
    assert_non_null(sum);
    *sum = '\0';
    memcpy(strstr(cells, "# treelab cells 2"), "# treelab cells 1", 17);
    FILE *f = fopen(in("p", "cells.txt"), "w");
    fputs(cells, f);
    fclose(f);
    free(cells);
    assert_int_equal(tl_report_plots(in("p", ""), x, NULL, &err), TL_OK);
    again = slurp(in("p", "plots/roc_iris.dat"));
    assert_non_null(strstr(again, "older cells: 1/20 bins"));
    check_roc(in("p", "plots/roc_iris.dat"), 0);
    free(again);
    free(roc);
    tl_experiment_free(x);

    /* a regression-only run asks for them in vain: a warning, no file */
    n_warnings = 0;
    tl_experiment_free(run("r", "name = \"r\"; seed = 4;\n"
                                "datasets = ( \"" D "engagement-regression.csv\" );\n"
                                "models = ( { name = \"cart\"; algorithm = \"cart\"; } );\n"
                                "protocol = { kind = \"cv\"; folds = 2; repeats = 1; };\n"
                                "plots = [ \"roc\" ];\n"));
    assert_int_equal(n_warnings, 1);
    assert_int_equal(access(in("r", "plots/roc_engagement-regression.dat"), F_OK), -1);
}

static int setup(void **state)
{
    (void)state;
    snprintf(dir, sizeof dir, "/tmp/tl_proba_plots_%d", (int)getpid());
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf %s && mkdir -p %s", dir, dir);
    tl_log_set_hook(hook, NULL);
    return system(cmd);
}

static int teardown(void **state)
{
    (void)state;
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    return system(cmd);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_reliability_and_coarse_roc_by_hand),
        cmocka_unit_test(test_fine_roc_bins_keep_the_ranking),
        cmocka_unit_test(test_run_draws_both_figures),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
