/* A caller may pass err == NULL: failures of the public functions must still come back as a
 * return value (a code, or NULL), never as a crash on a NULL err. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tl_test_util.h"
#include "treelab/tl_experiment.h"
#include "treelab/tl_model.h"
#include "treelab/tl_outfile.h"
#include "treelab/tl_params.h"
#include "treelab/tl_plot.h"
#include "treelab/tl_report.h"
#include "treelab/tl_runner.h"

/* A test-only learner whose fit always fails (passed to the config reader, not registered). */
static const tl_param_spec no_params[] = {{NULL, 0, NULL, 0, 0, NULL, NULL}};
static void *fail_alloc(const tl_params *p, tl_err *err)
{
    (void)p, (void)err;
    return calloc(1, 1);
}
static void fail_free(void *s)
{
    free(s);
}
static int fail_fit(void *st, const tl_dataset *d, const size_t *rows, size_t n,
                    const tl_fit_ctx *ctx, tl_err *err)
{
    (void)st, (void)d, (void)rows, (void)n, (void)ctx;
    return tl_err_set(err, TL_EINVAL, "this learner never fits");
}
static int fail_predict(const void *st, const tl_dataset *d, const size_t *rows, size_t n,
                        double *out, tl_err *err)
{
    (void)st, (void)d, (void)rows, (void)n, (void)out;
    return tl_err_set(err, TL_EINTERNAL, "never fitted");
}
static int fail_show(const void *st, const tl_schema *sc, tl_show_format f, FILE *o, tl_err *err)
{
    (void)st, (void)sc, (void)f, (void)o;
    return tl_err_set(err, TL_EUNSUPPORTED, "no tree");
}
static void fail_info(const void *st, tl_model_info *out)
{
    (void)st;
    out->leaves = 1, out->depth = 0, out->nodes = 1;
}
static const tl_model_type failing = {.name = "failing",
                                      .summary = "test learner that fails",
                                      .tasks = TL_TASK_CLASSIFICATION,
                                      .params = no_params,
                                      .alloc = fail_alloc,
                                      .free = fail_free,
                                      .fit = fail_fit,
                                      .predict = fail_predict,
                                      .show = fail_show,
                                      .info = fail_info};
static const tl_model_type *const extra[] = {&failing, NULL};

static char dir[64]; /* a fresh folder per test */

static int setup(void **state)
{
    (void)state;
    snprintf(dir, sizeof dir, "/tmp/tl_null_err_XXXXXX");
    return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    return system(cmd) == 0 ? 0 : -1;
}

/* dir/name holding text; the path in a static buffer. */
static const char *put(const char *name, const char *text)
{
    static char path[256];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    if (!f)
        fail_msg("cannot write %s", path);
    fputs(text, f);
    fclose(f);
    return path;
}

static void expect_no_dataset(const char *path)
{
    tl_dataset *d = tl_dataset_load(path, NULL, NULL);
    if (d) {
        tl_dataset_free(d);
        fail_msg("%s was loaded", path);
    }
}

static void test_dataset_load(void **state)
{
    (void)state;
    expect_no_dataset("/no/such/file.csv");
    expect_no_dataset(put("fields.csv", "a,b\n1,2,3\n"));   /* a record too long */
    expect_no_dataset(put("quote.csv", "\"a,b\n1,2\n"));    /* an unterminated header */
    expect_no_dataset(put("value.csv", "a,b\n\"1\"x,2\n")); /* text after a quote */
    expect_no_dataset(put("relation.arff", "@relation 'r\n@attribute a numeric\n@data\n"));
    expect_no_dataset(put("levels.arff", "@relation r\n@attribute a {x,'y}\n@data\n"));
    expect_no_dataset(put("type.arff", "@relation r\n@attribute a blob\n@data\n"));
    expect_no_dataset(put("row.arff", "@relation r\n@attribute a numeric\n"
                                      "@attribute b {x,y}\n@data\n1,z\n"));
    expect_no_dataset(put("name.arff", "@relation r\n@attribute a numeric\n"
                                       "@attribute a numeric\n@data\n"));
}

static void test_models(void **state)
{
    (void)state;
    tl_params p;
    tl_params_init(&p);
    assert_null(tl_model_new("no_such_learner", &p, NULL));
    assert_int_equal(tl_params_set(&p, "no_such_parameter", "1", NULL), TL_OK);
    assert_null(tl_model_new("cart", &p, NULL));
    tl_params_clear(&p);
    assert_null(tl_model_load("/no/such/file.model", NULL));
    assert_null(tl_model_load(put("syntax.model", "format = ;\n"), NULL));
    /* an integer beyond 32 bits without its L suffix: refused before libconfig reads it */
    assert_null(tl_model_load(put("wide.model", "format = 99999999999;\n"), NULL));
}

static void test_experiment_load(void **state)
{
    (void)state;
    assert_null(tl_experiment_load("/no/such/file.cfg", NULL, NULL));
    assert_null(tl_experiment_load(put("syntax.cfg", "name = ;\n"), NULL, NULL));
    const char *bad_algo = "name = \"x\";\n"
                           "datasets = ( \"" TL_SOURCE_DIR "/experiments/datasets/iris.arff\" );\n"
                           "models = ( { algorithm = \"no_such_learner\"; } );\n";
    assert_null(tl_experiment_load(put("algo.cfg", bad_algo), NULL, NULL));
    const char *bad_param =
        "name = \"x\";\n"
        "datasets = ( \"" TL_SOURCE_DIR "/experiments/datasets/iris.arff\" );\n"
        "models = ( { algorithm = \"cart\"; params = { no_such_parameter = 1; }; } );\n";
    assert_null(tl_experiment_load(put("param.cfg", bad_param), NULL, NULL));
}

/* A cart whose max_depth does not parse: the model cannot be made, directly or as one of
 * the candidates of a nested selection. */
static void test_cell(void **state)
{
    (void)state;
    tl_dataset *d = tl_test_load("experiments/datasets/iris.arff", NULL);
    size_t tr[100], te[50];
    for (size_t i = 0; i < 150; i++)
        if (i % 3)
            tr[i - i / 3 - 1] = i;
        else
            te[i / 3] = i;
    tl_exp_model m;
    memset(&m, 0, sizeof m);
    m.name = "bad";
    m.type = tl_model_find("cart", NULL);
    tl_params_init(&m.params);
    assert_int_equal(tl_params_set(&m.params, "max_depth", "banana", NULL), TL_OK);
    tl_cell c;
    memset(&c, 0, sizeof c);
    assert_int_not_equal(tl_cell_eval(&m, d, tr, 100, NULL, 0, te, 50, 1, &c, NULL), TL_OK);
    tl_cell_clear(&c);
    long sel;
    assert_null(tl_cell_fit(&m, d, tr, 100, NULL, 0, 1, &sel, NULL));
    tl_params_clear(&m.params);
    char *values[] = {"1", "banana"};
    tl_test_select_one(&m.select, "max_depth", values, 2, 2);
    memset(&c, 0, sizeof c);
    assert_int_not_equal(tl_cell_eval(&m, d, tr, 100, NULL, 0, te, 50, 1, &c, NULL), TL_OK);
    tl_cell_clear(&c);
    assert_null(tl_cell_fit(&m, d, tr, 100, te, 50, 1, &sel, NULL));
    tl_dataset_free(d);
}

static tl_experiment *load(const char *path)
{
    tl_err err;
    tl_experiment *x = tl_experiment_load(path, extra, &err);
    if (!x)
        fail_msg("%s", err.msg);
    return x;
}

static int run(const tl_experiment *x, const char *out, tl_err *err)
{
    tl_run_opts o = {.out_dir = out, .jobs = 1};
    return tl_report_run(x, NULL, &o, err);
}

static void test_run(void **state)
{
    (void)state;
    char out[128];
    /* a learner that fails in every cell */
    tl_experiment *x = load(put("fail.cfg", "name = \"f\";\n"
                                            "datasets = ( \"" TL_SOURCE_DIR
                                            "/experiments/datasets/iris.arff\" );\n"
                                            "models = ( { algorithm = \"failing\"; } );\n"
                                            "protocol = { kind = \"cv\"; folds = 2; };\n"));
    snprintf(out, sizeof out, "%s/fail", dir);
    assert_int_equal(run(x, out, NULL), TL_EINVAL);
    tl_experiment_free(x);
    /* a dataset gone between reading the config and the run */
    char data[128];
    snprintf(data, sizeof data, "%s", put("gone.csv", "a,y\n1,p\n2,q\n3,p\n4,q\n"));
    char cfg[512];
    snprintf(cfg, sizeof cfg,
             "name = \"g\";\ndatasets = ( \"%s\" );\n"
             "models = ( { algorithm = \"gaussian_nb\"; } );\n"
             "protocol = { kind = \"cv\"; folds = 2; };\n",
             data);
    x = load(put("gone.cfg", cfg));
    assert_int_equal(unlink(data), 0);
    snprintf(out, sizeof out, "%s/gone", dir);
    assert_int_not_equal(run(x, out, NULL), TL_OK);
    tl_experiment_free(x);
}

/* A folder where the temporary file of name should go, so that name cannot be written
 * (whoever runs the test, root included). */
static void block(const char *folder, const char *name)
{
    char path[512];
    snprintf(path, sizeof path, "%s/.%s" TL_OUT_TMP_SUFFIX, folder, name);
    assert_int_equal(mkdir(path, 0777), 0);
}

static void unblock(const char *folder, const char *name)
{
    char path[512];
    snprintf(path, sizeof path, "%s/.%s" TL_OUT_TMP_SUFFIX, folder, name);
    assert_int_equal(rmdir(path), 0);
}

static void test_reports(void **state)
{
    (void)state;
    const char *cfg =
        put("ok.cfg", "name = \"ok\";\n"
                      "datasets = ( \"" TL_SOURCE_DIR "/experiments/datasets/iris.arff\" );\n"
                      "models = ( { name = \"nb\"; algorithm = \"gaussian_nb\"; } );\n"
                      "protocol = { kind = \"cv\"; folds = 2; };\n");
    tl_experiment *x = load(cfg);
    char out[128];
    snprintf(out, sizeof out, "%s/ok", dir);
    tl_err err;
    tl_err_clear(&err);
    if (run(x, out, &err))
        fail_msg("%s", err.msg);
    assert_int_equal(tl_report_render(out, NULL), TL_OK);
    static const char *const blocked[] = {"metrics.csv", "summary.md", "summary.csv"};
    for (size_t i = 0; i < 3; i++) {
        block(out, blocked[i]);
        assert_int_equal(tl_report_render(out, NULL), TL_EIO);
        unblock(out, blocked[i]);
    }
    assert_int_not_equal(tl_report_render("/no/such/folder", NULL), TL_OK);
    tl_dataset *d = tl_test_load("experiments/datasets/iris.arff", NULL);
    tl_dataset *data[] = {d};
    assert_int_equal(tl_report_models("/no/such/folder", x, data, NULL), TL_EIO);
    assert_int_equal(tl_report_manifest("/no/such/folder", x, data, 0, 0, 0, NULL), TL_EIO);
    /* the config file is read again for its checksum */
    assert_int_equal(unlink(cfg), 0);
    FILE *f = tmpfile();
    assert_non_null(f);
    assert_int_equal(tl_cells_write_header(f, x, data, NULL), TL_EIO);
    fclose(f);
    assert_int_equal(tl_report_manifest(out, x, data, 0, 0, 0, NULL), TL_EIO);
    tl_dataset_free(d);
    tl_experiment_free(x);
}

static void test_plots(void **state)
{
    (void)state;
    const char *stem = "/no/such/folder/figure";
    tl_plot_set_render(0);
    assert_int_equal(tl_plot_tree_dot("digraph T { a -> b; }\n", stem, NULL), TL_EIO);
    double counts[] = {3, 1, 0, 4};
    const char *const classes[] = {"p", "q"};
    tl_plot_confusion c = {2, counts, classes, NULL};
    assert_int_equal(tl_plot_confusion_write(&c, stem, NULL), TL_EIO);
    double xs[] = {1, 2}, ys[] = {0.5, 0.6};
    tl_plot_series s = {"m", 0, 2, xs, ys, NULL, 0, 0};
    assert_int_equal(tl_plot_learning_curve(&s, 1, "LC", stem, NULL), TL_EIO);
    tl_plot_set_render(1);
    /* a renderer that fails: its error is prefixed with the figure's name on the way out */
    char ok[128];
    snprintf(ok, sizeof ok, "%s/tree", dir);
    tl_plot_set_dot("false");
    assert_int_not_equal(tl_plot_tree_dot("digraph T { a -> b; }\n", ok, NULL), TL_OK);
    tl_plot_set_dot(NULL);
    snprintf(ok, sizeof ok, "%s/lc", dir);
    tl_plot_set_gnuplot("false");
    assert_int_not_equal(tl_plot_learning_curve(&s, 1, "LC", ok, NULL), TL_OK);
    tl_plot_set_gnuplot(NULL);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_dataset_load, setup, teardown),
        cmocka_unit_test_setup_teardown(test_models, setup, teardown),
        cmocka_unit_test_setup_teardown(test_experiment_load, setup, teardown),
        cmocka_unit_test(test_cell),
        cmocka_unit_test_setup_teardown(test_run, setup, teardown),
        cmocka_unit_test_setup_teardown(test_reports, setup, teardown),
        cmocka_unit_test_setup_teardown(test_plots, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
