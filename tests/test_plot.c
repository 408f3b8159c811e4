/* Figures: data files hold the numbers given, scripts reference them, gnuplot renders
 * 1200x800 PNGs and SVGs, and a missing or failing gnuplot is handled. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../experiments/plot/plot_batch.h"
#include "tl_test_util.h"
#include "treelab/tl_log.h"
#include "treelab/tl_plot.h"

static char dir[64];
static const char *stem(const char *name)
{
    static char buf[256];
    snprintf(buf, sizeof buf, "%s/%s", dir, name);
    return buf;
}

static const char *file(const char *name, const char *ext)
{
    static char buf[300];
    snprintf(buf, sizeof buf, "%s/%s%s", dir, name, ext);
    return buf;
}

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        fail_msg("cannot read %s", path);
    static char buf[1 << 20];
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    buf[n] = '\0';
    fclose(f);
    return buf;
}

#define MAXC TL_TEST_DAT_COLS
#define block tl_test_dat_block

/* The PNG's IHDR width and height. */
static void assert_png(const char *name)
{
    unsigned w, ht;
    tl_test_png_size(file(name, ".png"), &w, &ht);
    assert_int_equal(w, 1200);
    assert_int_equal(ht, 800);
    const char *svg = slurp(file(name, ".svg"));
    assert_non_null(strstr(svg, "<svg"));
    assert_non_null(strstr(svg, "</svg>"));
}

/* The script names its data, PNG and SVG; gnuplot rendered them without warnings. */
static void assert_rendered(const char *name)
{
    char want[128];
    const char *gp = slurp(file(name, ".gp"));
    const char *ext[] = {".dat'", ".png'", ".svg'"};
    for (int i = 0; i < 3; i++) {
        snprintf(want, sizeof want, "'%s%s", name, ext[i]);
        if (!strstr(gp, want))
            fail_msg("%s.gp does not mention %s", name, want);
    }
    if (tl_test_n_warnings)
        fail_msg("warning: %s", tl_test_last_warning);
    assert_png(name);
}

static int setup(void **state)
{
    (void)state;
    snprintf(dir, sizeof dir, "/tmp/tl_plot_XXXXXX");
    if (!mkdtemp(dir))
        return -1;
    tl_log_set_hook(tl_test_warning_hook, NULL);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    if (!getenv("TL_PLOT_KEEP")) {
        char cmd[128];
        snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
        if (system(cmd) != 0)
            return -1;
    }
    return 0;
}

/* An rpart-like sequence: full tree (alpha 0) to the root. */
static const double alpha[] = {0, 0.002, 0.005, 0.01, 0.02, 0.04, 0.1, 0.3};
static const double leaves[] = {21, 15, 11, 8, 5, 4, 2, 1};
static const double risk[] = {0.02, 0.03, 0.04, 0.06, 0.09, 0.12, 0.25, 0.6};
static const double cv[] = {0.16, 0.15, 0.13, 0.12, 0.125, 0.14, 0.28, 0.61};
static const double se[] = {0.02, 0.02, 0.018, 0.017, 0.017, 0.018, 0.025, 0.03};

static void test_pruning(void **state)
{
    (void)state;
    tl_err err;
    tl_plot_cp_path p = {8, alpha, leaves, risk, cv, se, "Pruning: test", 0, NULL, NULL, 0, 0, 0};
    size_t i_min, i_1se;
    /* min 0.12 at 8 leaves; 0.12 + 0.017 = 0.137 admits 11, 8 and 5 leaves: 1-SE = 5 */
    assert_int_equal(tl_plot_cp_choose(&p, &i_min, &i_1se, &err), TL_OK);
    assert_int_equal(i_min, 3);
    assert_int_equal(i_1se, 4);
    tl_test_n_warnings = 0;
    assert_int_equal(tl_plot_pruning(&p, stem("pruning"), &err), TL_OK);
    double r[16][MAXC];
    assert_int_equal(block(file("pruning", ".dat"), 0, r, 16), 8);
    for (size_t i = 0; i < 8; i++) {
        assert_close(r[i][0], alpha[i], 0);
        assert_close(r[i][1], i == 0 ? 0.002 / 4 : alpha[i], 1e-15); /* 0 drawn left of 0.002 */
        assert_close(r[i][2], leaves[i], 0);
        assert_close(r[i][3], risk[i], 0);
        assert_close(r[i][4], cv[i], 0);
        assert_close(r[i][5], cv[i] - se[i], 1e-15);
        assert_close(r[i][6], cv[i] + se[i], 1e-15);
    }
    assert_int_equal(block(file("pruning", ".dat"), 1, r, 16), 2);
    assert_close(r[0][0], 0.01, 0);
    assert_close(r[0][1], 0.12, 0);
    assert_close(r[1][0], 0.02, 0);
    assert_close(r[1][1], 0.125, 0);
    const char *gp = slurp(file("pruning", ".gp"));
    assert_non_null(strstr(gp, "set logscale x"));
    assert_non_null(strstr(gp, "0.137 with lines")); /* the 1-SE threshold */
    assert_non_null(strstr(gp, "min (8 leaves)"));
    assert_non_null(strstr(gp, "1-SE (5 leaves)"));
    assert_rendered("pruning");

    p.x_leaves = 1;
    p.cv_se = NULL;
    assert_int_equal(tl_plot_pruning(&p, stem("pruning_leaves"), &err), TL_OK);
    assert_int_equal(block(file("pruning_leaves", ".dat"), 0, r, 16), 8);
    assert_close(r[0][1], 21, 0);
    assert_true(isnan(r[0][5]));
    assert_int_equal(block(file("pruning_leaves", ".dat"), 1, r, 16), 1); /* min = 1-SE */
    assert_rendered("pruning_leaves");
}

static void test_curves(void **state)
{
    (void)state;
    tl_err err;
    double fr[] = {0.1, 0.5, 1.0}, m1[] = {0.7, 0.85, 0.9}, s1[] = {0.05, 0.03, 0.01};
    double m2[] = {0.8, 0.84, 0.86}, s2[] = {0.04, 0.02, 0.02};
    tl_plot_series lc[2] = {{"cart_gini", 0, 3, fr, m1, s1, 0, 0},
                            {"gaussian_nb", 1, 3, fr, m2, s2, 0, 0}};
    tl_test_n_warnings = 0;
    assert_int_equal(tl_plot_learning_curve(lc, 2, "LC", stem("learning"), &err), TL_OK);
    double r[8][MAXC];
    assert_int_equal(block(file("learning", ".dat"), 1, r, 8), 3);
    assert_close(r[1][0], 0.5, 0);
    assert_close(r[1][1], 0.84, 0);
    assert_close(r[1][2], 0.82, 1e-15);
    assert_close(r[1][3], 0.86, 1e-15);
    const char *gp = slurp(file("learning", ".gp"));
    assert_non_null(strstr(gp, "index 1 using 1:2 with linespoints lt 2"));
    assert_rendered("learning");

    /* C4.5: accuracy and size against CF, size on the right-hand axis, a marker */
    double cf[] = {0.05, 0.1, 0.25, 0.5}, acc[] = {0.93, 0.94, 0.945, 0.94}, size[] = {5, 7, 9, 15};
    tl_plot_series c45[2] = {{"accuracy", 0, 4, cf, acc, NULL, 0, 0},
                             {"leaves", 1, 4, cf, size, NULL, 1, 1}};
    tl_plot_marker mk = {0.25, 0.945, "default CF", 2};
    tl_plot_curve c = {"C4.5 pruning",
                       "confidence factor",
                       "accuracy",
                       "leaves",
                       1,
                       c45,
                       2,
                       &mk,
                       1,
                       NAN,
                       NULL,
                       0,
                       0,
                       0};
    assert_int_equal(tl_plot_curve_write(&c, stem("c45"), &err), TL_OK);
    assert_int_equal(block(file("c45", ".dat"), 1, r, 8), 4);
    assert_close(r[3][1], 15, 0);
    assert_int_equal(block(file("c45", ".dat"), 2, r, 8), 1);
    assert_close(r[0][0], 0.25, 0);
    assert_close(r[0][3], 3, 0); /* colour 2 is line type 3 */
    assert_non_null(strstr(slurp(file("c45", ".gp")), "axes x1y2"));
    assert_rendered("c45");
    c.xlog = 1;
    cf[0] = 0;
    assert_int_equal(tl_plot_curve_write(&c, stem("bad"), &err), TL_EINVAL);
}

/* A scatter of named points (size_accuracy): two points 0.0005 apart get their names a line
 * apart, the higher one first; a name that would pass the right edge goes left of its point;
 * the points keep off the frame. */
static void test_named_points(void **state)
{
    (void)state;
    tl_err err;
    double x[] = {80, 80, 160, 89.5}, y[] = {0.9777, 0.9772, 0.845, 0.871};
    tl_plot_series s[4] = {{"node_forest", 0, 1, &x[0], &y[0], NULL, 0, 0},
                           {"soft_forest", 1, 1, &x[1], &y[1], NULL, 0, 0},
                           {"cart_with_a_long_name", 2, 1, &x[2], &y[2], NULL, 0, 0},
                           {"c45", 3, 1, &x[3], &y[3], NULL, 0, 0}};
    tl_plot_curve c = {.title = "digits", .xlabel = "leaves", .ylabel = "accuracy",
                       .series = s, .n_series = 4, .hline = NAN, .name_points = 1};
    assert_int_equal(tl_plot_curve_write(&c, stem("named"), &err), TL_OK);
    const char *gp = slurp(file("named", ".gp"));
    assert_non_null(strstr(gp, "('node_forest') with labels left offset char 0.8,0.5 "));
    assert_non_null(strstr(gp, "('soft_forest') with labels left offset char 0.8,-0.5 "));
    assert_non_null(strstr(gp, "('cart_with_a_long_name') with labels right offset char -0.8,0.5 "));
    assert_non_null(strstr(gp, "('c45') with labels left offset char 0.8,0.5 "));
    assert_non_null(strstr(gp, "set offsets graph 0.04, graph 0.04, graph 0.06, graph 0.04\n"));
    assert_rendered("named");
}

static void test_heatmaps(void **state)
{
    (void)state;
    tl_err err;
    const double cm[] = {50, 0, 0, 0, 47, 3, 0, 4, 46, 0, 0, 0};
    const char *cls[] = {"setosa", "versicolor", "virginica"};
    tl_plot_confusion c = {3, cm, cls, NULL};
    tl_test_n_warnings = 0;
    assert_int_equal(tl_plot_confusion_write(&c, stem("confusion"), &err), TL_OK);
    double r[32][MAXC];
    assert_int_equal(block(file("confusion", ".dat"), 0, r, 32), 9);
    /* row 2 (virginica): predicted versicolor 4 of 50 */
    assert_close(r[7][0], 1, 0);
    assert_close(r[7][1], 2, 0);
    assert_close(r[7][2], 4, 0);
    assert_close(r[7][3], 0.08, 1e-15);
    const char *gp = slurp(file("confusion", ".gp"));
    assert_non_null(strstr(gp, "'versicolor' 1"));
    assert_non_null(strstr(gp, "accuracy 0.9533 (143 of 150)"));
    assert_rendered("confusion");

    double g[6] = {0.9, 0.91, NAN, 0.93, 0.95, 0.94};
    const char *xv[] = {"2", "5", "10"}, *yv[] = {"1", "none"};
    tl_plot_grid grid = {3, 2, g, xv, yv, "min_samples_split", "max_depth", NULL, "Grid", 1, 1, 1};
    assert_int_equal(tl_plot_grid_write(&grid, stem("grid"), &err), TL_OK);
    assert_int_equal(block(file("grid", ".dat"), 0, r, 32), 6);
    assert_close(r[4][0], 1, 0);
    assert_close(r[4][1], 1, 0);
    assert_close(r[4][2], 0.95, 0);
    assert_true(isnan(r[2][2]));
    gp = slurp(file("grid", ".gp"));
    assert_non_null(strstr(gp, "selected: min_samples_split = 5, max_depth = none (0.9500)"));
    assert_non_null(strstr(gp, "rect from 0.52,0.52 to 1.48,1.48"));
    assert_rendered("grid");
    grid.sel_x = 3;
    assert_int_equal(tl_plot_grid_write(&grid, stem("bad"), &err), TL_EINVAL);
}

static void test_folds_and_cd(void **state)
{
    (void)state;
    tl_err err;
    const char *ds[] = {"iris", "wine"}, *mo[] = {"c45", "nb"};
    double v[2 * 2 * 3] = {0.9, 0.95, 1.0, 0.8, 0.85, NAN, 0.7, 0.75, 0.8, 0.6, 0.65, 0.7};
    size_t colors[] = {3, 1};
    tl_plot_folds f = {2, 2, 3, ds, mo, colors, v, NULL, NULL, 0};
    tl_test_n_warnings = 0;
    assert_int_equal(tl_plot_folds_write(&f, stem("folds"), &err), TL_OK);
    double r[16][MAXC];
    assert_int_equal(block(file("folds", ".dat"), 1, r, 16), 2); /* the NaN fold skipped */
    assert_close(r[1][0], 2, 0);
    assert_close(r[1][1], 0.85, 0);
    assert_int_equal(block(file("folds", ".dat"), 2, r, 16), 3);
    assert_close(r[0][0], 4, 0); /* wine's first model after a gap */
    assert_close(r[0][1], 0.7, 0);
    assert_non_null(strstr(slurp(file("folds", ".gp")), "with boxplot lt 4"));
    assert_rendered("folds");

    /* cliques by hand: sorted ranks 2.1 2.4 2.9 3.8 4.6 5.2, CD 1.2 */
    const char *m6[] = {"c45", "cart", "cart_e", "id3", "nb", "soft"};
    double rk[] = {2.1, 2.4, 2.9, 4.6, 3.8, 5.2};
    tl_plot_cd cd = {6, m6, rk, 1.2, 14, NULL};
    size_t order[6], first[6], last[6];
    assert_int_equal(tl_plot_cd_cliques(&cd, order, first, last), 4);
    const size_t want_first[] = {0, 2, 3, 4}, want_last[] = {2, 3, 4, 5};
    for (int q = 0; q < 4; q++) {
        assert_int_equal(first[q], want_first[q]);
        assert_int_equal(last[q], want_last[q]);
    }
    assert_int_equal(order[3], 4); /* nb (3.8) is fourth */
    assert_int_equal(tl_plot_cd_write(&cd, stem("cd"), &err), TL_OK);
    assert_int_equal(block(file("cd", ".dat"), 0, r, 16), 6);
    assert_close(r[0][1], 2.1, 0);
    assert_close(r[0][4], -1, 0);
    assert_close(r[5][1], 5.2, 0);
    assert_close(r[5][4], 1, 0);
    assert_int_equal(block(file("cd", ".dat"), 1, r, 16), 4);
    assert_close(r[1][0], 2.9 - 0.03, 1e-12);
    assert_close(r[1][1], 3.8 + 0.03, 1e-12);
    assert_non_null(strstr(slurp(file("cd", ".gp")), "CD = 1.200"));
    assert_rendered("cd");
    /* short names: a quarter of the canvas each side; a 60-character name widens the label
     * room to 0.45 and is cut to 35 characters with "..." (12 px a character of 1200) */
    assert_non_null(strstr(slurp(file("cd", ".gp")), "set lmargin at screen 0.2600\n"));
    const char *m6l[] = {"c45", "cart", "cart_e", "id3", "nb",
                         "a_model_name_of_sixty_characters_that_no_label_room_can_hold"};
    tl_plot_cd cdl = {6, m6l, rk, 1.2, 14, NULL};
    assert_int_equal(tl_plot_cd_write(&cdl, stem("cd_long"), &err), TL_OK);
    const char *gp = slurp(file("cd_long", ".gp"));
    assert_non_null(strstr(gp, "set lmargin at screen 0.4500\nset rmargin at screen 0.5500\n"));
    assert_non_null(strstr(gp, "cut(s) = strlen(s) > 35 ? s[1:32].'...' : s\n"));
    assert_rendered("cd_long");
    cd.cd = 10; /* everything in one clique */
    assert_int_equal(tl_plot_cd_cliques(&cd, order, first, last), 1);
}

static void test_boundaries(void **state)
{
    (void)state;
    tl_err err;
    int g[3 * 2] = {0, 0, 1, 0, 1, 1};
    double px[] = {0.1, 1.9}, py[] = {0.2, 0.8};
    int pc[] = {0, 1};
    const char *cls[] = {"no", "yes"};
    tl_plot_boundary b = {"B", "x0", "x1", 3, 2, 0, 2, 0, 1, g, 2, cls, 2, px, py, pc};
    tl_test_n_warnings = 0;
    assert_int_equal(tl_plot_boundary_write(&b, stem("boundary"), &err), TL_OK);
    double r[16][MAXC];
    assert_int_equal(block(file("boundary", ".dat"), 0, r, 16), 6);
    assert_close(r[4][0], 1, 0);
    assert_close(r[4][1], 1, 0);
    assert_close(r[4][2], 1, 0);
    assert_int_equal(block(file("boundary", "_points.dat"), 0, r, 16), 2);
    assert_close(r[1][0], 1.9, 0);
    assert_close(r[1][2], 1, 0);
    assert_non_null(strstr(slurp(file("boundary", ".gp")), "boundary_points.dat"));
    assert_rendered("boundary");
    g[0] = 2;
    assert_int_equal(tl_plot_boundary_write(&b, stem("bad"), &err), TL_EINVAL);

    /* predictions at x = 0, 1, ..., 4: jumps between 1-2 and 3-4 drawn at 1.5 and 3.5 */
    double pred[] = {2, 2, 5, 5, 4}, sx[] = {0.5, 3}, sy[] = {2.1, 5.2};
    tl_plot_steps s = {"S", "age", "engagement", 5, 0, 4, pred, 2, sx, sy};
    assert_int_equal(tl_plot_steps_write(&s, stem("steps"), &err), TL_OK);
    assert_int_equal(block(file("steps", ".dat"), 0, r, 16), 4);
    const double want[4][2] = {{0, 2}, {1.5, 5}, {3.5, 4}, {4, 4}};
    for (int i = 0; i < 4; i++) {
        assert_close(r[i][0], want[i][0], 1e-15);
        assert_close(r[i][1], want[i][1], 0);
    }
    assert_int_equal(block(file("steps", ".dat"), 1, r, 16), 2);
    assert_close(r[1][1], 5.2, 0);
    assert_rendered("steps");
}

static void test_tree_dot(void **state)
{
    (void)state;
    tl_err err;
    const char *dot = "digraph T { a -> b; }\n";
    tl_plot_set_dot("/nonexistent/dot");
    assert_int_equal(tl_plot_tree_dot(dot, stem("tree"), &err), TL_OK);
    assert_string_equal(slurp(file("tree", ".dot")), dot);
    assert_int_equal(access(file("tree", ".png"), F_OK), -1);
    tl_plot_set_dot("false"); /* a renderer that fails */
    assert_int_equal(tl_plot_tree_dot(dot, stem("tree"), &err), TL_EINTERNAL);
    assert_non_null(strstr(err.msg, "exit status 1"));
    tl_plot_set_dot(NULL);
}

/* Figures are drawn from now on by a script NAME.sh that prints complaint and exits with 3. */
static void use_failing_gnuplot(const char *name, const char *complaint)
{
    static char fake[300]; /* tl_plot_set_gnuplot keeps the pointer */
    snprintf(fake, sizeof fake, "%s", file(name, ".sh"));
    FILE *f = fopen(fake, "w");
    assert_non_null(f);
    fprintf(f, "#!/bin/sh\necho \"%s\" >&2\nexit 3\n", complaint);
    fclose(f);
    chmod(fake, 0755);
    tl_plot_set_gnuplot(fake);
}

static void test_missing_and_failing_gnuplot(void **state)
{
    (void)state;
    tl_err err;
    double x[] = {1, 2}, y[] = {0.5, 0.6};
    tl_plot_series s = {"m", 0, 2, x, y, NULL, 0, 0};
    tl_plot_set_gnuplot("/nonexistent/gnuplot");
    tl_test_n_warnings = 0;
    assert_int_equal(tl_plot_learning_curve(&s, 1, NULL, stem("nognuplot"), &err), TL_OK);
    assert_int_equal(tl_test_n_warnings, 1);
    assert_non_null(strstr(tl_test_last_warning, "plotting skipped"));
    double r[4][MAXC];
    assert_int_equal(block(file("nognuplot", ".dat"), 0, r, 4), 2);
    assert_close(r[1][1], 0.6, 0);
    assert_non_null(strstr(slurp(file("nognuplot", ".gp")), "'nognuplot.dat'"));
    assert_int_equal(access(file("nognuplot", ".png"), F_OK), -1);

    /* a gnuplot that complains and fails: its stderr ends up in the message */
    use_failing_gnuplot("fake_gnuplot", "line 7: invalid command");
    assert_int_equal(tl_plot_learning_curve(&s, 1, NULL, stem("failing"), &err), TL_EINTERNAL);
    assert_non_null(strstr(err.msg, "exit status 3"));
    assert_non_null(strstr(err.msg, "line 7: invalid command"));
    tl_plot_set_gnuplot(NULL);

    assert_int_equal(tl_plot_learning_curve(&s, 1, NULL, "/nonexistent/dir/x", &err), TL_EIO);
    assert_int_equal(tl_plot_learning_curve(&s, 0, NULL, stem("x"), &err), TL_EINVAL);
}

/* A batch of 2 (the runner's figures with --jobs 2): each figure's gnuplot runs while the
 * next is written, the batch's end puts every figure in place; a failing gnuplot is reported
 * at the next figure that has to wait for it, naming its figure, and nothing is left behind. */
static void test_batch(void **state)
{
    (void)state;
    tl_err err;
    double fr[] = {0.1, 0.5, 1.0}, m1[] = {0.7, 0.85, 0.9}, s1[] = {0.05, 0.03, 0.01};
    tl_plot_series s = {"m", 0, 3, fr, m1, s1, 0, 0};
    const char *names[] = {"batch0", "batch1", "batch2"};
    tl_test_n_warnings = 0;
    assert_int_equal(tlp_batch_begin(2, &err), TL_OK);
    for (int i = 0; i < 3; i++)
        assert_int_equal(tl_plot_learning_curve(&s, 1, NULL, stem(names[i]), &err), TL_OK);
    /* the third figure waited for the first, which is then in place */
    assert_png("batch0");
    assert_int_equal(tlp_batch_end(TL_OK, &err), TL_OK);
    for (int i = 0; i < 3; i++)
        assert_rendered(names[i]);
    assert_int_equal(tl_test_temporaries(dir), 0);
    /* batches do not nest: the second begin is refused and the first still ends cleanly */
    assert_int_equal(tlp_batch_begin(2, &err), TL_OK);
    assert_int_equal(tlp_batch_begin(3, &err), TL_EINVAL);
    assert_non_null(strstr(err.msg, "already open"));
    assert_int_equal(tlp_batch_end(TL_OK, &err), TL_OK);

    use_failing_gnuplot("fake_gnuplot_batch", "line 3: undefined variable");
    assert_int_equal(tlp_batch_begin(2, &err), TL_OK);
    assert_int_equal(tl_plot_learning_curve(&s, 1, NULL, stem("bfail0"), &err), TL_OK);
    assert_int_equal(tl_plot_learning_curve(&s, 1, NULL, stem("bfail1"), &err), TL_OK);
    assert_int_equal(tl_plot_learning_curve(&s, 1, NULL, stem("bfail2"), &err), TL_EINTERNAL);
    assert_non_null(strstr(err.msg, "bfail0: "));
    assert_non_null(strstr(err.msg, "(exit status 3): line 3: undefined variable"));
    /* the first failure is kept; bfail1 is waited for */
    assert_int_equal(tlp_batch_end(TL_EINTERNAL, &err), TL_EINTERNAL);
    assert_non_null(strstr(err.msg, "bfail0: "));
    tl_plot_set_gnuplot(NULL);
    assert_int_equal(access(file("bfail1", ".png"), F_OK), -1);
    assert_int_equal(tl_test_temporaries(dir), 0);
}

/* `treelab plot KIND FILE -o STEM` from CSV files, one row per value. */
/* No text from a config or a data file may run a command when gnuplot reads the script:
 * gnuplot runs `...` inside double-quoted strings through sh, and a newline starts a new
 * command. Each hostile label tries to create a marker file. */
static void test_no_command_from_labels(void **state)
{
    (void)state;
    char m[8][128];
    const char *forms[8] = {
        "a`touch %s`b",  "x\"`touch %s`\"", "y' . system('touch %s') . '",
        "$(touch %s)",   "z\n!touch %s\n",  "q; system(\"touch %s\"); ",
        "w\r`touch %s`", "v\\\"`touch %s`",
    };
    char lab[8][256];
    const char *labels[8];
    for (int i = 0; i < 8; i++) {
        snprintf(m[i], sizeof m[i], "%s/pwned%d", dir, i);
        snprintf(lab[i], sizeof lab[i], forms[i], m[i]);
        labels[i] = lab[i];
    }
    tl_err err;
    tl_test_n_warnings = 0;
    double cm[64] = {0};
    for (int i = 0; i < 8; i++)
        cm[i * 8 + i] = 3, cm[i * 8 + (i + 1) % 8] = 1;
    tl_plot_confusion c = {8, cm, labels, labels[2]};
    assert_int_equal(tl_plot_confusion_write(&c, stem("hostile_conf"), &err), TL_OK);
    double y[2] = {0.5, 0.6}, x[2] = {1, 2};
    tl_plot_series series[8];
    for (int i = 0; i < 8; i++)
        series[i] = (tl_plot_series){labels[i], (size_t)i, 2, x, y, NULL, 0, 0};
    tl_plot_marker mk = {1, 0.5, labels[4], 0};
    tl_plot_curve hc = {labels[0], labels[1], labels[5], NULL,      0, series, 8,
                        &mk,       1,         0.55,      labels[3], 0, 0,      1};
    assert_int_equal(tl_plot_curve_write(&hc, stem("hostile_curve"), &err), TL_OK);
    for (int i = 0; i < 8; i++)
        if (access(m[i], F_OK) == 0)
            fail_msg("label %d ran a command: %s exists", i, m[i]);
    /* the figures were drawn all the same: gnuplot parsed every line (a syntax error would
     * have failed the write) */
    if (tl_plot_found(tl_plot_gnuplot())) {
        assert_png("hostile_conf");
        assert_png("hostile_curve");
    }
    /* a stem (file name) with a newline is refused before anything is written */
    char bad[300];
    snprintf(bad, sizeof bad, "%s/x\n!touch %s", dir, m[0]);
    assert_int_equal(tl_plot_curve_write(&hc, bad, &err), TL_EINVAL);
    assert_non_null(strstr(err.msg, "control character"));
    assert_int_equal(access(m[0], F_OK), -1);
    /* the re-render command a script's comment suggests is one shell word per path: a
     * quote in the name ended the quoting and let '$(...)' run for whoever pasted it */
    const char *base = "q'$(touch pwned_sh)'q";
    assert_int_equal(tl_plot_curve_write(&hc, stem(base), &err), TL_OK);
    char *line = strstr(slurp(file(base, ".gp")), "#   cd ");
    assert_non_null(line);
    *strchr(line, '\n') = '\0';
    char *gnuplot = strstr(line, " && gnuplot ");
    assert_non_null(gnuplot);
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "%.*s && test -f %s", (int)(gnuplot - line - 4), line + 4,
             gnuplot + 12);
    assert_int_equal(system(cmd), 0); /* and it names the script */
    assert_int_equal(access(file("pwned_sh", ""), F_OK), -1);
}

static void test_cli(void **state)
{
    (void)state;
    char out[4096], errbuf[4096], args[1024];
    const char *csv = tl_test_tmpfile(".csv", "alpha,leaves,risk,cv_error,cv_se\n"
                                              "0,21,0.02,0.16,0.02\n0.01,8,0.06,0.12,0.017\n"
                                              "0.02,5,0.09,0.125,0.017\n0.3,1,0.6,0.61,0.03\n");
    snprintf(args, sizeof args, "plot pruning '%s' -o '%s'", csv, stem("cli_pruning"));
    assert_int_equal(tl_test_cli(args, out, sizeof out, errbuf, sizeof errbuf), 0);
    double r[8][MAXC];
    assert_int_equal(block(file("cli_pruning", ".dat"), 0, r, 8), 4);
    assert_close(r[2][4], 0.125, 0);
    assert_int_equal(block(file("cli_pruning", ".dat"), 1, r, 8), 2); /* min 8, 1-SE 5 */
    assert_close(r[1][0], 0.02, 0);
    assert_png("cli_pruning");

    csv = tl_test_tmpfile(".csv", "true,predicted,count\na,a,5\na,b,1\nb,b,7\nb,a,2\n");
    snprintf(args, sizeof args, "plot confusion '%s' -o '%s'", csv, stem("cli_conf"));
    assert_int_equal(tl_test_cli(args, out, sizeof out, errbuf, sizeof errbuf), 0);
    assert_int_equal(block(file("cli_conf", ".dat"), 0, r, 8), 4);
    assert_close(r[2][2], 2, 0); /* true b, predicted a */
    assert_close(r[2][3], 2.0 / 9, 1e-15);

    csv = tl_test_tmpfile(".csv", "model,fraction,mean,sd\nnb,0.5,0.8,0.1\ntree,0.5,0.7,0.1\n"
                                  "nb,1,0.85,0.05\ntree,1,0.9,0.02\n");
    snprintf(args, sizeof args, "plot learning-curve '%s' -o '%s'", csv, stem("cli_lc"));
    assert_int_equal(tl_test_cli(args, out, sizeof out, errbuf, sizeof errbuf), 0);
    assert_int_equal(block(file("cli_lc", ".dat"), 1, r, 8), 2); /* tree */
    assert_close(r[1][1], 0.9, 0);
    assert_close(r[1][2], 0.88, 1e-15);

    csv = tl_test_tmpfile(".csv", "x,y,value\n2,1,0.9\n5,1,0.95\n2,3,0.92\n5,3,0.91\n");
    snprintf(args, sizeof args, "plot grid '%s' -o '%s' --xname min_split --yname depth", csv,
             stem("cli_grid"));
    assert_int_equal(tl_test_cli(args, out, sizeof out, errbuf, sizeof errbuf), 0);
    assert_non_null(strstr(slurp(file("cli_grid", ".gp")), "selected: min_split = 5, depth = 1"));

    csv = tl_test_tmpfile(".csv", "model,rank\na,1.5\nb,1.5\nc,3\n");
    snprintf(args, sizeof args, "plot cd '%s' -o '%s'", csv, stem("cli_cd"));
    assert_int_equal(tl_test_cli(args, out, sizeof out, errbuf, sizeof errbuf), 1);
    assert_non_null(strstr(errbuf, "--cd"));
    snprintf(args, sizeof args, "plot confusion '%s' -o '%s'", csv, stem("cli_bad"));
    assert_int_equal(tl_test_cli(args, out, sizeof out, errbuf, sizeof errbuf), 1);
    assert_non_null(strstr(errbuf, "no column 'true'"));
    assert_int_equal(tl_test_cli("plot --help", out, sizeof out, errbuf, sizeof errbuf), 0);
    assert_non_null(strstr(out, "alpha,leaves,risk[,cv_error,cv_se]"));
}

/* `treelab plot` reads RFC 4180 quoting as treelab's CSV files write it: a comma or a
 * doubled quote inside a quoted name stays in the name; a broken quote is an error. */
static void test_cli_quoted_fields(void **state)
{
    (void)state;
    char out[4096], errbuf[4096], args[1024];
    const char *csv = tl_test_tmpfile(".csv", "model,rank\n\"a,b\",1.5\n \"say \"\"hi\"\"\" ,2\n"
                                              "c,3\n");
    snprintf(args, sizeof args, "plot cd '%s' -o '%s' --cd 1 --datasets 5", csv,
             stem("cli_quoted"));
    if (tl_test_cli(args, out, sizeof out, errbuf, sizeof errbuf))
        fail_msg("%s", errbuf);
    /* data files turn an inner double quote into a single one */
    const char *dat = slurp(file("cli_quoted", ".dat"));
    assert_non_null(strstr(dat, "\n\"a,b\" 1.5 "));
    assert_non_null(strstr(dat, "\n\"say 'hi'\" 2 "));
    csv = tl_test_tmpfile(".csv", "model,rank\n\"a,b\"x,1.5\n");
    snprintf(args, sizeof args, "plot cd '%s' -o '%s' --cd 1", csv, stem("cli_quoted"));
    assert_int_equal(tl_test_cli(args, out, sizeof out, errbuf, sizeof errbuf), 1);
    assert_non_null(strstr(errbuf, ":2: text follows a closing quote"));
    csv = tl_test_tmpfile(".csv", "model,rank\nc,3\n\"a,1.5\n");
    assert_int_equal(tl_test_cli(args, out, sizeof out, errbuf, sizeof errbuf), 1);
    snprintf(args, sizeof args, "plot cd '%s' -o '%s' --cd 1", csv, stem("cli_quoted"));
    assert_int_equal(tl_test_cli(args, out, sizeof out, errbuf, sizeof errbuf), 1);
    assert_non_null(strstr(errbuf, ":3: a quoted field is not closed"));
}

/* D4: RFC 4180 beyond one line: a byte-order mark, CRLF line ends, a quoted field holding
 * a line break (shown as a space in the figure's files) and a second table after a blank
 * line (treelab's confusion files) are read. */
static void test_cli_rfc4180_records(void **state)
{
    (void)state;
    char out[4096], errbuf[4096], args[1024];
    const char *csv = tl_test_tmpfile(".csv", "\xEF\xBB\xBFmodel,rank\r\n\"two\r\nlines\",1.25\r\n"
                                              "c,1.75\r\n\nclass,x\nq,1\n");
    snprintf(args, sizeof args, "plot cd '%s' -o '%s' --cd 1 --datasets 5", csv,
             stem("cli_records"));
    if (tl_test_cli(args, out, sizeof out, errbuf, sizeof errbuf))
        fail_msg("%s", errbuf);
    const char *dat = slurp(file("cli_records", ".dat"));
    assert_non_null(strstr(dat, "\n\"two  lines\" 1.25 "));
    assert_non_null(strstr(dat, "\n\"c\" 1.75 "));
    assert_null(strstr(dat, "\"q\""));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_pruning),
        cmocka_unit_test(test_curves),
        cmocka_unit_test(test_named_points),
        cmocka_unit_test(test_heatmaps),
        cmocka_unit_test(test_folds_and_cd),
        cmocka_unit_test(test_boundaries),
        cmocka_unit_test(test_tree_dot),
        cmocka_unit_test(test_missing_and_failing_gnuplot),
        cmocka_unit_test(test_batch),
        cmocka_unit_test(test_cli),
        cmocka_unit_test(test_cli_rfc4180_records),
        cmocka_unit_test(test_no_command_from_labels),
        cmocka_unit_test(test_cli_quoted_fields),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
