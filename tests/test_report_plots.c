/* The figures of a results folder hold the report's numbers: per-fold accuracies as in
 * metrics.csv, confusion counts as in confusion/, grid cells and ranks from summary.csv,
 * pruning paths as `treelab path` prints them, seed 001's regression steps and boundary;
 * PNGs are 1200x800; without gnuplot the run still succeeds with one warning. */
#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tl_test_util.h"
#include "treelab/tl_log.h"
#include "treelab/tl_plot.h"
#include "treelab/tl_protocol.h"
#include "treelab/tl_report.h"
#include "treelab/tl_runner.h"
#include "treelab/tl_grow.h"

#define D TL_SOURCE_DIR "/experiments/datasets/"
static char dir[64];
static const char *in(const char *run, const char *name)
{
    static char buf[4][512];
    static int i;
    i = (i + 1) % 4;
    snprintf(buf[i], sizeof buf[i], "%s/%s/%s", dir, run, name);
    return buf[i];
}

/* Run the config text into dir/run. */
static void run(const char *run_name, const char *text)
{
    tl_err err;
    tl_err_clear(&err);
    tl_experiment *x = tl_experiment_load(tl_test_tmpfile(".cfg", text), NULL, &err);
    if (!x)
        fail_msg("%s", err.msg);
    char out[256];
    snprintf(out, sizeof out, "%s/%s", dir, run_name);
    tl_run_opts o = {.out_dir = out, .jobs = 1};
    if (tl_report_run(x, NULL, &o, &err))
        fail_msg("%s", err.msg);
    tl_experiment_free(x);
}

/* Field `col` (0-based) of a CSV line, as a number; the text into txt when given. */
static double field(const char *line, int col, char *txt, size_t size)
{
    for (int i = 0; i < col && line; i++)
        line = strchr(line, ',') ? strchr(line, ',') + 1 : NULL;
    if (!line)
        fail_msg("no column %d", col);
    if (txt)
        snprintf(txt, size, "%.*s", (int)strcspn(line, ",\n"), line);
    return strtod(line, NULL);
}

/* Column index of name in a CSV header line. */
static int column(const char *header, const char *name)
{
    char f[128];
    for (int c = 0;; c++) {
        field(header, c, f, sizeof f);
        if (!strcmp(f, name))
            return c;
        if (!strchr(header, ',') || c > 100)
            fail_msg("no column %s", name);
    }
}

/* Value of column col in the row of summary.csv (or any CSV starting dataset,model) for
 * (dataset, model); with n_out, every such row's value in file order (returns the count). */
static size_t rows_of(const char *path, const char *ds, const char *model, const char *col,
                      double *out, size_t max)
{
    FILE *f = fopen(path, "r");
    if (!f)
        fail_msg("cannot read %s", path);
    char line[4096], hdr[4096], a[256], b[256];
    if (!fgets(hdr, sizeof hdr, f))
        fail_msg("empty %s", path);
    int c = column(hdr, col);
    size_t n = 0;
    while (fgets(line, sizeof line, f) && n < max) {
        field(line, 0, a, sizeof a);
        field(line, 1, b, sizeof b);
        if (!strcmp(a, ds) && !strcmp(b, model))
            out[n++] = field(line, c, NULL, 0);
    }
    fclose(f);
    return n;
}

static double summary(const char *run_name, const char *ds, const char *model, const char *col)
{
    double v;
    if (rows_of(in(run_name, "summary.csv"), ds, model, col, &v, 1) != 1)
        fail_msg("no summary row %s / %s", ds, model);
    return v;
}

static double rows[40000][TL_TEST_DAT_COLS];

static void test_figures_hold_the_reports_numbers(void **state)
{
    (void)state;
    /* a fake Graphviz that leaves the PNG it is asked for, to see tree pictures requested */
    char fake[128];
    snprintf(fake, sizeof fake, "%s/fake_dot.sh", dir);
    FILE *f = fopen(fake, "w");
    assert_non_null(f);
    fputs("#!/bin/sh\nfor a; do case $a in -o*) : > \"${a#-o}\";; esac; done\n", f);
    fclose(f);
    chmod(fake, 0755);
    tl_plot_set_dot(fake);
    run("a",
        "name = \"a\"; seed = 5;\n"
        "datasets = ( \"" D "iris.arff\", \"" D "two-feature-boundary.arff\" );\n"
        "models = ( { name = \"nb\"; algorithm = \"gaussian_nb\"; },\n"
        "  { name = \"id3\"; algorithm = \"id3\"; },\n"
        "  { name = \"cart_cv\"; algorithm = \"cart\"; params = { prune = \"cv\"; folds = 3; }; } );\n"
        "grids = ( { model = \"id3\"; params = { max_depth = [1, 2]; min_samples_split = [2, 60]; }; },\n"
        "  { model = \"cart_cv\"; param = \"min_samples_leaf\"; values = [1, 4]; } );\n"
        "protocol = { kind = \"cv\"; folds = 3; repeats = 1; };\n"
        "reports = [ \"confusion\", \"trees\" ];\n"
        "plots = [ \"accuracy\", \"critical_difference\", \"confusion\", \"grid\", \"pruning\",\n"
        "          \"boundary\", \"trees\", \"learning_curve\" ];\n");
    tl_plot_set_dot(NULL);
    static const char *const ds[] = {"iris", "two-feature-boundary"};
    static const char *const ms[] = {"nb", "id3", "cart_cv"};

    /* accuracy per fold: block (d, m) holds metrics.csv's accuracies, listed models only */
    for (int d = 0; d < 2; d++)
        for (int m = 0; m < 3; m++) {
            double want[3];
            assert_int_equal(rows_of(in("a", "metrics.csv"), ds[d], ms[m], "accuracy", want, 3), 3);
            assert_int_equal(tl_test_dat_block(in("a", "plots/accuracy.dat"), d * 3 + m, rows, 10),
                             3);
            for (int i = 0; i < 3; i++)
                assert_close(rows[i][1], want[i], 5e-7);
        }
    assert_int_equal(tl_test_dat_block(in("a", "plots/accuracy.dat"), 6, rows, 10), 0);

    /* confusion heatmap counts = confusion/D__M.csv */
    f = fopen(in("a", "confusion/iris__id3.csv"), "r");
    assert_non_null(f);
    char line[512];
    double want[9];
    assert_non_null(fgets(line, sizeof line, f));
    for (int i = 0; i < 3; i++) {
        assert_non_null(fgets(line, sizeof line, f));
        for (int j = 0; j < 3; j++)
            want[i * 3 + j] = field(line, j + 1, NULL, 0);
    }
    fclose(f);
    assert_int_equal(tl_test_dat_block(in("a", "plots/confusion_iris__id3.dat"), 0, rows, 10), 9);
    double total = 0;
    for (int i = 0; i < 9; i++) {
        int p = (int)rows[i][0], t = (int)rows[i][1];
        assert_close(rows[i][2], want[t * 3 + p], 0);
        total += rows[i][2];
    }
    assert_close(total, 150, 0);

    /* two-parameter grid: cell (ix, iy) = summary's mean accuracy of that model */
    assert_int_equal(
        tl_test_dat_block(in("a", "plots/grid_iris__id3__max_depth__min_samples_split.dat"), 0,
                          rows, 10),
        4);
    static const char *const cells[] = {
        "id3[max_depth=1][min_samples_split=2]", "id3[max_depth=2][min_samples_split=2]",
        "id3[max_depth=1][min_samples_split=60]", "id3[max_depth=2][min_samples_split=60]"};
    for (int i = 0; i < 4; i++) {
        assert_close(rows[i][0], i % 2, 0);
        assert_close(rows[i][1], i / 2, 0);
        assert_close(rows[i][2], summary("a", "iris", cells[i], "accuracy_mean"), 5e-7);
    }
    assert_true(rows[1][2] > rows[0][2]); /* depth 2 beats the stump on iris */
    /* one parameter: accuracy and mean leaves against the value */
    const char *g1 = in("a", "plots/grid_iris__cart_cv__min_samples_leaf.dat");
    assert_int_equal(tl_test_dat_block(g1, 0, rows, 10), 2);
    assert_close(rows[0][0], 1, 0);
    assert_close(rows[1][0], 4, 0);
    assert_close(rows[1][1], summary("a", "iris", "cart_cv[min_samples_leaf=4]", "accuracy_mean"),
                 5e-7);
    assert_close(rows[1][3] - rows[1][1],
                 summary("a", "iris", "cart_cv[min_samples_leaf=4]", "accuracy_sd"), 5e-7);
    assert_int_equal(tl_test_dat_block(g1, 1, rows, 10), 2);
    assert_close(rows[0][1], summary("a", "iris", "cart_cv[min_samples_leaf=1]", "leaves_mean"),
                 5e-7);

    /* critical difference: ranks of the listed models from summary.csv's means, by hand */
    assert_int_equal(tl_test_dat_block(in("a", "plots/critical_difference.dat"), 0, rows, 10), 3);
    for (int m = 0; m < 3; m++) {
        double r = 0;
        for (int d = 0; d < 2; d++) {
            double a = summary("a", ds[d], ms[m], "accuracy_mean"), better = 0, tied = 0;
            for (int o = 0; o < 3; o++) {
                double b = summary("a", ds[d], ms[o], "accuracy_mean");
                better += b > a, tied += b == a;
            }
            r += 1 + better + (tied - 1) / 2;
        }
        int found = 0;
        for (int i = 0; i < 3; i++)
            found += fabs(rows[i][1] - r / 2) < 1e-9;
        if (!found)
            fail_msg("no rank %g for %s in the CD data", r / 2, ms[m]);
    }

    /* pruning curve: alpha, leaves and risk as `treelab path` prints them (CV errors too for
     * the CLI's own figure); the report's CV errors are those of the whole-data fit */
    char args[512], out[8192];
    snprintf(args, sizeof args, "path " D "iris.arff --cv 3 --plot %s/cli_path.png", dir);
    assert_int_equal(tl_test_cli(args, out, sizeof out, NULL, 0), 0);
    const char *dat = in("a", "plots/pruning_iris__cart_cv.dat");
    size_t n = tl_test_dat_block(dat, 0, rows, 50);
    assert_true(n >= 3);
    char cli_dat[128];
    snprintf(cli_dat, sizeof cli_dat, "%s/cli_path.dat", dir);
    static double cli_rows[50][TL_TEST_DAT_COLS];
    assert_int_equal(tl_test_dat_block(cli_dat, 0, cli_rows, 50), n);
    const char *p = strchr(out, '\n') + 1;
    for (size_t i = 0; i < n; i++, p = strchr(p, '\n') + 1) {
        for (int c = 0; c < 5; c++) {
            int col = c == 0 ? 0 : c + 1; /* alpha, leaves, risk, cv_error, cv_lower */
            double v = c == 4 ? field(p, 3, NULL, 0) - field(p, 4, NULL, 0) : field(p, c, NULL, 0);
            if (c < 3)
                assert_close(rows[i][col], v, 1e-12 * fmax(1, fabs(v)));
            assert_close(cli_rows[i][col], v, 1e-12 * fmax(1, fabs(v)));
        }
    }
    tl_dataset *iris = tl_test_load("experiments/datasets/iris.arff", NULL);
    tl_params prm;
    tl_params_init(&prm);
    tl_err err;
    assert_int_equal(tl_params_set_kv(&prm, "prune=cv", &err), 0);
    assert_int_equal(tl_params_set_kv(&prm, "folds=3", &err), 0);
    tl_model *cart = tl_model_new("cart", &prm, &err);
    tl_fit_ctx ctx = {.seed = tl_protocol_seed(5, "iris", 0, 0)};
    assert_int_equal(tl_model_fit(cart, iris, NULL, 0, &ctx, &err), 0);
    const tl_prune_trace *tr = tl_model_prune_trace(cart);
    assert_non_null(tr);
    assert_string_equal(tr->pruner, "cost_complexity");
    assert_int_equal(tr->n, n);
    for (size_t i = 0; i < n; i++) {
        assert_close(rows[i][4], tr->error[i], 1e-15);
        assert_close(rows[i][6], tr->error[i] + tr->se[i], 1e-15);
    }
    tl_model_free(cart);
    tl_params_clear(&prm);
    tl_dataset_free(iris);
    unsigned w, h;
    snprintf(cli_dat, sizeof cli_dat, "%s/cli_path.png", dir);
    tl_test_png_size(cli_dat, &w, &h);
    assert_true(w == 1200 && h == 800);

    /* decision regions: every training point lies in a region of its class (id3 fits them
     * all, seed 001's depth-2 tree) */
    size_t np = tl_test_dat_block(in("a", "plots/boundary_two-feature-boundary__id3_points.dat"), 0,
                                  rows, 20);
    assert_int_equal(np, 12);
    double pts[12][3];
    for (size_t i = 0; i < np; i++)
        memcpy(pts[i], rows[i], sizeof pts[i]);
    assert_int_equal(
        tl_test_dat_block(in("a", "plots/boundary_two-feature-boundary__id3.dat"), 0, rows, 40000),
        40000);
    for (size_t i = 0; i < np; i++) {
        size_t best = 0;
        for (size_t j = 1; j < 40000; j++)
            if (hypot(rows[j][0] - pts[i][0], rows[j][1] - pts[i][1]) <
                hypot(rows[best][0] - pts[i][0], rows[best][1] - pts[i][1]))
                best = j;
        assert_close(rows[best][2], pts[i][2], 0);
    }
    /* the figures not asked for or not applicable are absent */
    assert_int_equal(access(in("a", "plots/boundary_iris__id3.dat"), F_OK), -1);
    assert_int_equal(access(in("a", "plots/pruning_iris__id3.dat"), F_OK), -1);
    assert_int_equal(
        access(in("a", "plots/confusion_iris__id3[max_depth=1][min_samples_split=2].dat"), F_OK),
        -1);
    assert_int_equal(access(in("a", "plots/learning_curve_iris.dat"), F_OK), -1);
    /* tree pictures: the whole-data tree's DOT, rendered by (fake) dot; none for naive Bayes */
    char *t1 = NULL, *t2 = NULL;
    size_t l1 = 0, l2 = 0;
    FILE *a = fopen(in("a", "trees/iris__id3.dot"), "r"),
         *b = fopen(in("a", "plots/tree_iris__id3.dot"), "r");
    assert_true(a && b);
    assert_int_equal(getdelim(&t1, &l1, '\0', a) > 0, 1);
    assert_int_equal(getdelim(&t2, &l2, '\0', b) > 0, 1);
    assert_string_equal(t1, t2);
    fclose(a), fclose(b), free(t1), free(t2);
    assert_int_equal(access(in("a", "plots/tree_iris__id3.png"), F_OK), 0);
    assert_int_equal(access(in("a", "plots/tree_iris__nb.dot"), F_OK), -1);

    /* every gnuplot figure is a 1200x800 PNG */
    DIR *dd = opendir(in("a", "plots"));
    assert_non_null(dd);
    int pngs = 0;
    for (struct dirent *e; (e = readdir(dd));) {
        size_t len = strlen(e->d_name);
        if (len < 4 || strcmp(e->d_name + len - 4, ".png") || !strncmp(e->d_name, "tree_", 5))
            continue;
        char png[512];
        snprintf(png, sizeof png, "%s/%s", in("a", "plots"), e->d_name);
        tl_test_png_size(png, &w, &h);
        if (w != 1200 || h != 800)
            fail_msg("%s is %ux%u", e->d_name, w, h);
        pngs++;
    }
    closedir(dd);
    /* accuracy, cd, 6 confusion, 2 + 2 grids, 2 pruning, 3 boundaries */
    assert_int_equal(pngs, 1 + 1 + 6 + 4 + 2 + 3);
}

/* Seed 001, figure 9.26: the depth-2 regression tree's steps (cuts 15, 35, 65; values 7, 6,
 * 1.333, 4.5); then the same run without gnuplot: data and scripts, one warning, success. */
static void test_steps_and_missing_gnuplot(void **state)
{
    (void)state;
    const char *cfg =
        "name = \"s\"; seed = 1;\n"
        "datasets = ( \"" D "engagement-regression.csv\" );\n"
        "models = ( { name = \"cart2\"; algorithm = \"cart\"; params = { max_depth = 2; }; } );\n"
        "protocol = { kind = \"cv\"; folds = 2; repeats = 1; };\n"
        "plots = [ \"boundary\", \"accuracy\" ];\n";
    tl_test_n_warnings = 0;
    run("s", cfg);
    assert_int_equal(tl_test_n_warnings, 0);
    assert_int_equal(
        tl_test_dat_block(in("s", "plots/steps_engagement-regression__cart2.dat"), 0, rows, 10), 5);
    const double v[] = {7, 6, 4.0 / 3, 4.5}, cut[] = {15, 35, 65};
    for (int i = 0; i < 4; i++)
        assert_close(rows[i][1], v[i], 1e-12);
    for (int i = 0; i < 3; i++)
        assert_close(rows[i + 1][0], cut[i], 0.25);
    assert_int_equal(
        tl_test_dat_block(in("s", "plots/steps_engagement-regression__cart2.dat"), 1, rows, 10), 8);
    unsigned w, h;
    tl_test_png_size(in("s", "plots/rmse.png"), &w, &h);
    assert_true(w == 1200 && h == 800);

    tl_plot_set_gnuplot("/nonexistent/gnuplot");
    run("s_nognuplot", cfg);
    tl_plot_set_gnuplot(NULL);
    assert_int_equal(tl_test_n_warnings, 1);
    assert_int_equal(access(in("s_nognuplot", "plots/rmse.gp"), F_OK), 0);
    assert_int_equal(
        access(in("s_nognuplot", "plots/steps_engagement-regression__cart2.dat"), F_OK), 0);
    assert_int_equal(access(in("s_nognuplot", "plots/rmse.png"), F_OK), -1);
    assert_int_equal(access(in("s_nognuplot", "summary.md"), F_OK), 0);
}

/* Learning curve: mean and sd per fraction as learning_curve.csv has them. */
static void test_learning_curve(void **state)
{
    (void)state;
    run("l",
        "name = \"l\"; seed = 4;\n"
        "datasets = ( \"" D "iris.arff\" );\n"
        "models = ( { name = \"nb\"; algorithm = \"gaussian_nb\"; }, { name = \"id3\"; algorithm = \"id3\"; } );\n"
        "protocol = { kind = \"learning_curve\"; fractions = [0.3, 0.6]; repeats = 3; };\n"
        "plots = [ \"learning_curve\", \"accuracy\", \"critical_difference\" ];\n");
    static const char *const ms[] = {"nb", "id3"};
    for (int m = 0; m < 2; m++) {
        double mean[2], sd[2], fr[2];
        assert_int_equal(
            rows_of(in("l", "learning_curve.csv"), "iris", ms[m], "score_mean", mean, 2), 2);
        rows_of(in("l", "learning_curve.csv"), "iris", ms[m], "score_sd", sd, 2);
        rows_of(in("l", "learning_curve.csv"), "iris", ms[m], "fraction", fr, 2);
        assert_int_equal(tl_test_dat_block(in("l", "plots/learning_curve_iris.dat"), m, rows, 10),
                         2);
        for (int i = 0; i < 2; i++) {
            assert_close(rows[i][0], fr[i], 1e-12);
            assert_close(rows[i][1], mean[i], 5e-7);
            assert_close(rows[i][3] - rows[i][1], sd[i], 5e-7);
        }
    }
    /* not applicable to learning curves: skipped, not failed */
    assert_int_equal(access(in("l", "plots/accuracy.dat"), F_OK), -1);
    assert_int_equal(access(in("l", "plots/critical_difference.dat"), F_OK), -1);
}

/* Accuracy of model (fitted on tr, validation rows va) on rows te of d. */
static double accuracy_on(const char *prune, const tl_dataset *d, const size_t *tr, size_t ntr,
                          const size_t *va, size_t nva, const size_t *te, size_t nte,
                          size_t *leaves)
{
    tl_params p;
    tl_params_init(&p);
    tl_params_set(&p, "prune", prune, NULL);
    tl_err err;
    tl_model *m = tl_model_new("cart", &p, &err);
    tl_fit_ctx ctx = {.seed = 1, .valid_rows = va, .n_valid = nva};
    assert_int_equal(tl_model_fit(m, d, tr, ntr, &ctx, &err), TL_OK);
    double pred[200], right = 0;
    assert_int_equal(tl_model_predict_label(m, d, te, nte, pred, &err), TL_OK);
    for (size_t i = 0; i < nte; i++)
        right += (int)pred[i] == d->y.code[te[i]];
    tl_model_info info;
    tl_model_get_info(m, &info);
    *leaves = info.leaves;
    tl_model_free(m);
    tl_params_clear(&p);
    return right / (double)nte;
}

/* Validation pruners: the curve starts at the unpruned tree grown on repeat 0's training rows
 * (its validation and test accuracy), ends at the root, and marks reduced-error's tree. */
static void test_validation_curve(void **state)
{
    (void)state;
    run("v",
        "name = \"v\"; seed = 11;\n"
        "datasets = ( \"" D "iris.arff\" );\n"
        "models = ( { name = \"rep\"; algorithm = \"cart\"; params = { prune = \"reduced_error\"; }; } );\n"
        "protocol = { kind = \"holdout\"; train = 0.6; validation = 0.2; test = 0.2; repeats = 1; };\n"
        "plots = [ \"validation\" ];\n");
    tl_dataset *d = tl_test_load("experiments/datasets/iris.arff", NULL);
    size_t n = d->n_rows, tr[150], va[150], te[150], ntr, nva, nte;
    double order[150];
    tl_err err;
    assert_int_equal(tl_protocol_order(d, 1, 11, "iris", 0, order, &err), TL_OK);
    tl_protocol_split(order, n, 0.6, 0.8, tr, &ntr, va, &nva, te, &nte);
    size_t full_leaves, rep_leaves;
    double full_va = accuracy_on("none", d, tr, ntr, va, nva, va, nva, &full_leaves);
    double full_te = accuracy_on("none", d, tr, ntr, va, nva, te, nte, &full_leaves);
    double rep_va = accuracy_on("reduced_error", d, tr, ntr, va, nva, va, nva, &rep_leaves);
    size_t nv = tl_test_dat_block(in("v", "plots/validation_iris__rep.dat"), 0, rows, 100);
    assert_true(nv >= 2);
    assert_close(rows[0][0], (double)full_leaves, 0);
    assert_close(rows[0][1], full_va, 1e-12);
    assert_close(rows[nv - 1][0], 1, 0);
    for (size_t i = 1; i < nv; i++)
        assert_true(rows[i][0] < rows[i - 1][0]);
    assert_int_equal(tl_test_dat_block(in("v", "plots/validation_iris__rep.dat"), 1, rows, 100),
                     nv);
    assert_close(rows[0][1], full_te, 1e-12);
    assert_int_equal(tl_test_dat_block(in("v", "plots/validation_iris__rep.dat"), 2, rows, 10), 1);
    assert_close(rows[0][0], (double)rep_leaves, 0);
    assert_close(rows[0][1], rep_va, 1e-12);
    assert_true(rep_va >= full_va); /* reduced-error pruning never lowers it */
    if (tl_plot_found(tl_plot_gnuplot())) {
        unsigned w, h;
        tl_test_png_size(in("v", "plots/validation_iris__rep.png"), &w, &h);
        assert_int_equal(w, 1200);
        assert_int_equal(h, 800);
    }
    tl_dataset_free(d);
}

static int setup(void **state)
{
    (void)state;
    snprintf(dir, sizeof dir, "/tmp/tl_repplot_XXXXXX");
    if (!mkdtemp(dir))
        return -1;
    tl_log_set_hook(tl_test_warning_hook, NULL);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    return getenv("TL_PLOT_KEEP") || system(cmd) == 0 ? 0 : -1;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_figures_hold_the_reports_numbers),
        cmocka_unit_test(test_steps_and_missing_gnuplot),
        cmocka_unit_test(test_learning_curve),
        cmocka_unit_test(test_validation_curve),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
