/* Nested selection over a grid: each candidate's inner score equals the one computed here by
 * running the inner folds (or hold-out) explicitly through the library, the chosen candidate
 * is the best by the objective's direction (first on ties), the config's `select` group and
 * its errors, and the chosen values in metrics.csv and summary.md, the same for --jobs 1 and 2. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "tl_test_util.h"
#include "treelab/tl_experiment.h"
#include "treelab/tl_protocol.h"
#include "treelab/tl_report.h"
#include "treelab/tl_runner.h"

static tl_experiment *load(const char *text, tl_err *err)
{
    tl_err_clear(err);
    return tl_experiment_load(tl_test_tmpfile(".cfg", text), NULL, err);
}

#define HEAD                                                                                       \
    "name = \"s\";\nseed = 11;\ndatasets = ( \"" TL_SOURCE_DIR "/experiments/datasets/%s\" );\n"

static tl_experiment *load_model(const char *data, const char *model)
{
    char text[2048];
    snprintf(text, sizeof text, HEAD "models = ( %s );\n", data, model);
    tl_err err;
    tl_experiment *x = load(text, &err);
    if (!x)
        fail_msg("%s", err.msg);
    return x;
}

/* The objective on predictions out (n x k, or n values) of rows te, as the library scores
 * any evaluation: each row with its instance weight, when the data has them. */
static double objective(const tl_dataset *d, const tl_metric_def *obj, const size_t *te, size_t n,
                        const double *out)
{
    double *w = d->weight ? malloc(n * sizeof *w) : NULL;
    for (size_t i = 0; w && i < n; i++)
        w[i] = d->weight[te[i]];
    if (!tl_dataset_is_classification(d)) {
        double *truth = malloc(n * sizeof *truth);
        for (size_t i = 0; i < n; i++)
            truth[i] = d->y.num[te[i]];
        tl_reg_metrics rm;
        tl_reg_metrics_compute_w(truth, out, w, n, &rm);
        free(truth);
        free(w);
        return tl_metric_value(obj, NULL, &rm);
    }
    size_t k = tl_dataset_n_classes(d);
    int *truth = malloc(n * sizeof *truth), *pred = malloc(n * sizeof *pred);
    for (size_t i = 0; i < n; i++) {
        size_t b = 0;
        for (size_t j = 1; j < k; j++)
            b = out[i * k + j] > out[i * k + b] ? j : b;
        truth[i] = d->y.code[te[i]];
        pred[i] = (int)b;
    }
    tl_class_metrics cm;
    assert_int_equal(tl_class_metrics_compute_w(truth, pred, out, w, n, k, &cm, NULL), TL_OK);
    free(truth);
    free(pred);
    free(w);
    return tl_metric_value(obj, &cm, NULL);
}

/* Candidate c's inner score, recomputed: the inner folds (or hold-out) of each repeat made
 * here, each fitted and predicted by a model built from the parameters written out. */
static double recompute(const tl_exp_model *m, const tl_dataset *d, const size_t *rows, size_t n,
                        unsigned long seed, size_t c)
{
    const tl_exp_select *s = &m->select;
    const tl_metric_def *obj = tl_select_objective(s, tl_dataset_is_classification(d));
    size_t k = tl_dataset_is_classification(d) ? tl_dataset_n_classes(d) : 1;
    size_t ix[8], *part = malloc(n * sizeof *part), *tr = malloc(n * sizeof *tr);
    size_t *te = malloc(n * sizeof *te);
    double *out = malloc(n * k * sizeof *out), *order = malloc(n * sizeof *order), sum = 0;
    tl_exp_select_candidate(s, c, ix);
    tl_params p;
    tl_params_init(&p);
    tl_params_copy(&p, &m->params, NULL);
    for (size_t q = 0; q < s->n_params; q++)
        tl_params_set(&p, s->params[q], s->values[q][ix[q]], NULL);
    int holdout = s->inner == TL_INNER_HOLDOUT;
    for (size_t r = 0; r < s->repeats; r++) {
        unsigned long rs = tl_select_split_seed(seed, r);
        if (holdout) {
            assert_int_equal(tl_protocol_order_of_rows(d, rows, n, rs, order, NULL), TL_OK);
            for (size_t j = 0; j < n; j++)
                part[j] = order[j] < s->fraction - 1e-9;
        } else {
            assert_int_equal(tl_folds_assign(d, rows, n, s->folds, rs, part, NULL), TL_OK);
        }
        size_t done = 0;
        for (size_t f = holdout ? 1 : 0; f < (holdout ? 2 : s->folds); f++) {
            size_t ntr = 0, nte = 0;
            for (size_t j = 0; j < n; j++)
                if (part[j] == f)
                    te[done + nte++] = rows[j];
                else
                    tr[ntr++] = rows[j];
            tl_model *model = tl_model_new_type(m->type, &p, NULL);
            tl_fit_ctx ctx = {.seed = seed};
            assert_int_equal(tl_model_fit(model, d, tr, ntr, &ctx, NULL), TL_OK);
            assert_int_equal(tl_model_predict(model, d, te + done, nte, out + done * k, NULL),
                             TL_OK);
            tl_model_free(model);
            done += nte;
        }
        sum += objective(d, obj, te, done, out);
    }
    tl_params_clear(&p);
    free(part), free(tr), free(te), free(out), free(order);
    return sum / (double)s->repeats;
}

/* Every candidate's score as recomputed, the choice as the best of them, and distinct
 * scores (so that the choice means something). Returns the chosen candidate. */
static long check_scores(const char *data, const char *model, const size_t *rows, size_t n)
{
    tl_experiment *x = load_model(data, model);
    tl_dataset *d = tl_experiment_load_dataset(x, 0, NULL);
    const tl_exp_model *m = &x->models[0];
    size_t nc = m->select.n_candidates;
    double *got = malloc(nc * sizeof *got), *want = malloc(nc * sizeof *want);
    tl_err err;
    if (tl_select_scores(m, d, rows, n, NULL, 0, 77, got, &err))
        fail_msg("%s", err.msg);
    size_t distinct = 0;
    for (size_t c = 0; c < nc; c++) {
        want[c] = recompute(m, d, rows, n, 77, c);
        assert_close(got[c], want[c], 1e-12);
        distinct += c == 0 || want[c] != want[0];
        printf("  candidate %zu: %.6f\n", c, want[c]);
    }
    assert_true(distinct > 1);
    const tl_metric_def *obj = tl_select_objective(&m->select, tl_dataset_is_classification(d));
    size_t best = 0;
    for (size_t c = 1; c < nc; c++)
        if (obj->lower_is_better ? want[c] < want[best] : want[c] > want[best])
            best = c;
    long sel;
    tl_model *fitted = tl_cell_fit(m, d, rows, n, NULL, 0, 77, &sel, &err);
    assert_non_null(fitted);
    assert_int_equal(sel, (long)best);
    tl_model_free(fitted);
    free(got);
    free(want);
    tl_dataset_free(d);
    tl_experiment_free(x);
    return sel;
}

/* The outer training rows of a 4-fold split: every row but each fourth. */
static size_t train_rows(size_t n_rows, size_t *rows)
{
    size_t n = 0;
    for (size_t i = 0; i < n_rows; i++)
        if (i % 4 != 1)
            rows[n++] = i;
    return n;
}

static void test_grid_kappa_inner_cv(void **state)
{
    (void)state;
    size_t rows[435], n = train_rows(435, rows);
    /* 3 x 3 candidates, C4.5 on vote, kappa over 3 inner folds repeated twice */
    long sel = check_scores(
        "vote.arff",
        "{ name = \"c45\"; algorithm = \"c45\"; select = { params = {"
        " min_samples_leaf = [2, 8, 30]; pruner = { confidence = [0.01, 0.25, 0.5]; }; };"
        " objective = \"kappa\"; inner = \"cv\"; folds = 3; repeats = 2; }; }",
        rows, n);
    printf("  chosen %ld\n", sel);
}

static void test_holdout_macro_f1(void **state)
{
    (void)state;
    size_t rows[214], n = train_rows(214, rows);
    check_scores("glass.arff",
                 "{ name = \"cart\"; algorithm = \"cart\"; select = { params = {"
                 " max_depth = [1, 2, 4, 8]; }; objective = \"macro_f1\"; inner = \"holdout\";"
                 " fraction = 0.3; repeats = 3; }; }",
                 rows, n);
}

static void test_regression_minimises_mae(void **state)
{
    (void)state;
    size_t rows[400];
    tl_dataset *d = tl_test_load("experiments/datasets/engagement-regression.csv", NULL);
    size_t n = train_rows(d->n_rows, rows);
    tl_dataset_free(d);
    /* an error-like objective: the lowest inner MAE wins */
    check_scores("engagement-regression.csv",
                 "{ name = \"cart\"; algorithm = \"cart\"; select = { param = \"max_depth\";"
                 " values = [1, 2, 3]; objective = \"mae\"; folds = 4; }; }",
                 rows, n);
}

/* The probability metrics are objectives too: ROC AUC maximised, the Brier score and log
 * loss minimised (check_scores picks the best by the table's direction). */
static void test_probability_objectives(void **state)
{
    (void)state;
    const tl_metric_def *brier = tl_metric_find("brier", NULL);
    assert_non_null(brier);
    assert_true(brier->lower_is_better);
    assert_false(tl_metric_find("roc_auc_macro", NULL)->lower_is_better);
    assert_false(tl_metric_find("roc_auc_weighted", NULL)->lower_is_better);
    assert_false(tl_metric_find("pr_auc", NULL)->lower_is_better);
    size_t rows[214], n = train_rows(214, rows);
    check_scores("glass.arff",
                 "{ name = \"cart\"; algorithm = \"cart\"; select = { params = {"
                 " max_depth = [1, 2, 4, 8]; }; objective = \"roc_auc_macro\"; folds = 3; }; }",
                 rows, n);
    check_scores("glass.arff",
                 "{ name = \"cart\"; algorithm = \"cart\"; select = { params = {"
                 " max_depth = [1, 2, 4, 8]; }; objective = \"brier\"; folds = 3; }; }",
                 rows, n);
    size_t vrows[435], vn = train_rows(435, vrows);
    check_scores("vote.arff",
                 "{ name = \"c45\"; algorithm = \"c45\"; select = { params = {"
                 " min_samples_leaf = [2, 30]; }; objective = \"pr_auc\"; folds = 3; }; }",
                 vrows, vn);
}

/* ARFF instance weights count in the inner scores as in the outer cells' (check_scores
 * recomputes them weighted): C4.5 on the weighted labor data. */
static void test_weighted_inner_scores(void **state)
{
    (void)state;
    tl_dataset *d = tl_test_load("tests/fixtures/weighted/labor-weighted.arff", NULL);
    assert_non_null(d->weight);
    size_t rows[64], n = train_rows(d->n_rows, rows);
    tl_dataset_free(d);
    check_scores("../../tests/fixtures/weighted/labor-weighted.arff",
                 "{ name = \"c45\"; algorithm = \"c45\"; select = { params = {"
                 " min_samples_leaf = [1, 2, 8]; }; objective = \"log_loss\"; folds = 3; }; }",
                 rows, n);
}

/* The cells header's description of the inner protocol: inner auto takes a hold-out's or a
 * split's validation rows, and says so when only some datasets' split has them. */
static void test_describe_inner(void **state)
{
    (void)state;
    tl_exp_select s;
    char *values[] = {"1", "2"}, by[256];
    tl_test_select_one(&s, "max_depth", values, 2, 3);
    tl_exp_select_describe(&s, 0, by, sizeof by);
    assert_string_equal(by, "accuracy (mse for regression) by 3-fold inner CV x 1");
    tl_exp_select_describe(&s, 1, by, sizeof by);
    assert_string_equal(by, "accuracy (mse for regression) on the protocol's validation rows");
    tl_exp_select_describe(&s, 2, by, sizeof by);
    assert_string_equal(by, "accuracy (mse for regression) on the protocol's validation rows "
                            "where a dataset has them, else by 3-fold inner CV x 1");
}

/* Equal scores: the first candidate in grid order wins. */
static void test_ties_go_to_the_first(void **state)
{
    (void)state;
    tl_experiment *x = load_model(
        "iris.arff", "{ name = \"cart\"; algorithm = \"cart\"; select = { param = \"max_depth\";"
                     " values = [10, 20, 30]; }; }");
    tl_dataset *d = tl_experiment_load_dataset(x, 0, NULL);
    size_t rows[150], n = train_rows(150, rows);
    double s[3];
    assert_int_equal(tl_select_scores(&x->models[0], d, rows, n, NULL, 0, 5, s, NULL), TL_OK);
    /* iris's CART trees are shallower than 10: one tree, one score */
    assert_true(s[0] == s[1] && s[1] == s[2]);
    assert_true(s[0] > 0.9);
    long sel;
    tl_model *m = tl_cell_fit(&x->models[0], d, rows, n, NULL, 0, 5, &sel, NULL);
    assert_int_equal(sel, 0);
    tl_model_free(m);
    tl_dataset_free(d);
    tl_experiment_free(x);
    /* the grid's order: the last parameter varies fastest */
    x = load_model("iris.arff", "{ algorithm = \"id3\"; select = { params = {"
                                " max_depth = [1, 2]; min_samples_split = [2, 3, 4]; }; }; }");
    assert_int_equal(x->models[0].select.n_candidates, 6);
    size_t ix[2];
    tl_exp_select_candidate(&x->models[0].select, 1, ix);
    assert_int_equal(ix[0], 0);
    assert_int_equal(ix[1], 1);
    tl_exp_select_candidate(&x->models[0].select, 4, ix);
    assert_int_equal(ix[0], 1);
    assert_int_equal(ix[1], 1);
    tl_experiment_free(x);
    const tl_metric_def *acc = tl_metric_find("accuracy", NULL),
                        *ll = tl_metric_find("log_loss", NULL);
    const double v[] = {NAN, 0.5, 0.7, 0.7, 0.2};
    assert_int_equal(tl_select_best(acc, v, 5), 2);
    assert_int_equal(tl_select_best(ll, v, 5), 4);
    const double all_nan[] = {NAN, NAN};
    assert_int_equal(tl_select_best(acc, all_nan, 2), 0);
}

static void expect_error(const char *model, int line, const char *n1, const char *n2)
{
    char text[2048], where[64];
    snprintf(text, sizeof text, HEAD "models = (\n%s );\n", "iris.arff", model);
    tl_err err;
    tl_experiment *x = load(text, &err);
    if (x)
        fail_msg("accepted: %s", model);
    snprintf(where, sizeof where, ".cfg:%d: ", line);
    if (!strstr(err.msg, where) || !strstr(err.msg, n1) || (n2 && !strstr(err.msg, n2)))
        fail_msg("message '%s' lacks '%s' / '%s' / '%s'", err.msg, where, n1, n2 ? n2 : "");
}

static void test_config_errors(void **state)
{
    (void)state;
    /* D14: a parameter both fixed and selected names both places */
    expect_error("{ algorithm = \"id3\"; params = {\n max_depth = 3; };\n"
                 " select = { param = \"max_depth\"; values = [1, 2]; }; }",
                 7, "'max_depth' is both fixed in params (", ".cfg:6) and selected (");
    expect_error("{ algorithm = \"c45\";\n params = { pruner = { name = \"error_based\";\n"
                 " confidence = 0.1; }; };\n select = { params = { pruner = {"
                 " confidence = [0.1, 0.2]; }; }; }; }",
                 8, "'pruner.confidence' is both fixed", ".cfg:7) and selected (");
    expect_error("{ algorithm = \"c45\";\n params = { pruner = \"none\"; };\n"
                 " select = { params = { pruner = [\"none\", \"collapse\"]; }; }; }",
                 7, "'pruner' is both fixed", ".cfg:6)");
    /* objectives and inner protocols */
    expect_error("{ algorithm = \"id3\";\n select = { param = \"max_depth\"; values = [1];\n"
                 " objective = \"auc\"; }; }",
                 7, "unknown metric 'auc'", "kappa, f1_macro");
    expect_error("{ algorithm = \"id3\";\n select = { param = \"max_depth\"; values = [1];\n"
                 " inner = \"holdout\"; folds = 3; }; }",
                 7, "folds is for inner = \"cv\"", NULL);
    expect_error("{ algorithm = \"id3\";\n select = { param = \"max_depth\"; values = [1];\n"
                 " inner = \"loo\"; }; }",
                 7, "unknown inner protocol 'loo'", "auto, cv, holdout");
    expect_error("{ algorithm = \"c45\";\n select = { params = { pruner = {\n"
                 " confidence = [0.1, 2.0]; }; }; }; }",
                 7, "confidence", NULL);
}

/* metrics.csv gets a sel.* column per selected parameter holding the chosen values, the
 * summary how often each was chosen, byte-identical for 1 and 2 threads. */
static void test_run_records_values(void **state)
{
    (void)state;
    tl_err err;
    tl_experiment *x = load(
        "name = \"s\";\nseed = 3;\ndatasets = ( \"" TL_SOURCE_DIR
        "/experiments/datasets/vote.arff\" );\n"
        "models = ( { name = \"nb\"; algorithm = \"gaussian_nb\"; },\n"
        " { name = \"c45\"; algorithm = \"c45\"; select = { params = { min_samples_leaf = [2, 30];"
        " pruner = { confidence = [0.01, 0.5]; }; }; objective = \"kappa\"; }; } );\n"
        "protocol = { kind = \"cv\"; folds = 4; repeats = 1; };\n",
        &err);
    if (!x)
        fail_msg("%s", err.msg);
    const char *dirs[] = {"/tmp/tl_select_run1", "/tmp/tl_select_run2"};
    for (size_t j = 0; j < 2; j++) {
        char cmd[300];
        snprintf(cmd, sizeof cmd, "rm -rf %s", dirs[j]);
        assert_int_equal(system(cmd), 0);
        tl_run_opts o = {.out_dir = dirs[j], .jobs = j + 1};
        if (tl_report_run(x, NULL, &o, &err))
            fail_msg("%s", err.msg);
    }
    const char *files[] = {"metrics.csv", "summary.md", "selections.csv"};
    for (size_t i = 0; i < 3; i++) {
        char *a = tl_test_slurp_in(dirs[0], files[i]), *b = tl_test_slurp_in(dirs[1], files[i]);
        assert_string_equal(a, b);
        free(a), free(b);
    }
    char *m = tl_test_slurp_in(dirs[0], "metrics.csv");
    assert_non_null(strstr(m, ",leaves,depth,sel.min_samples_leaf,sel.pruner.confidence\n"));
    /* naive Bayes selects nothing (and has no tree); each c45 row names its chosen values */
    char *nb = strstr(m, "\nvote,nb,0,0,");
    assert_non_null(nb);
    /* D8: no tree, so no leaves or depth (they were "0"), and no selected values */
    const char *eol = strchr(nb + 1, '\n');
    assert_memory_equal(eol - 4, ",,,,\n", 5);
    assert_true(eol[-5] >= '0' && eol[-5] <= '9'); /* the Brier score before them */
    size_t rows = 0;
    for (char *p = strstr(m, "\nvote,c45,"); p; p = strstr(p + 1, "\nvote,c45,")) {
        char *end = strchr(p + 1, '\n');
        *end = '\0';
        char *sel = strrchr(p, ',');
        *sel = '\0';
        char *leaf = strrchr(p, ',');
        assert_true(!strcmp(leaf, ",2") || !strcmp(leaf, ",30"));
        assert_true(!strcmp(sel + 1, "0.01") || !strcmp(sel + 1, "0.5"));
        *sel = ',';
        *end = '\n';
        rows++;
    }
    assert_int_equal(rows, 4);
    free(m);
    char *s = tl_test_slurp_in(dirs[0], "summary.md");
    assert_non_null(strstr(s, "## Nested selection"));
    /* naive Bayes: the baseline, and no leaves */
    const char *nb_row = strstr(s, "\n| nb | baseline | ");
    assert_non_null(nb_row);
    const char *nb_leaves = strstr(nb_row, " | n/a | ");
    assert_true(nb_leaves && nb_leaves < strchr(nb_row + 1, '\n'));
    assert_non_null(strstr(s, "c45: kappa by 3-fold inner CV x 1."));
    assert_non_null(strstr(s, "| vote | c45 | pruner.confidence |"));
    assert_non_null(strstr(s, "/4)"));
    free(s);
    /* the paper reports: chosen values are no metric (no summary, no table); each c45 cell
     * has them under "selected", naive Bayes' cells have null leaves and depth and a "--"
     * in the leaves table */
    char *js = tl_test_slurp_in(dirs[0], "metrics.json");
    assert_null(strstr(js, "\"sel."));
    const char *cells = strstr(js, "\"cells\": [");
    assert_non_null(cells);
    const char *c45 = strstr(cells, "\"model\": \"c45\"");
    assert_non_null(c45);
    const char *chosen = strstr(c45, "\"selected\": {\"min_samples_leaf\": \"");
    assert_non_null(chosen);
    assert_true(chosen < strchr(c45, '\n'));
    assert_non_null(strstr(chosen, "\", \"pruner.confidence\": \""));
    const char *nbc = strstr(cells, "\"model\": \"nb\"");
    assert_non_null(nbc);
    const char *nbl = strstr(nbc, "\"leaves\": null, \"depth\": null");
    assert_true(nbl && nbl < strchr(nbc, '\n'));
    const char *nbsel = strstr(nbc, "\"selected\"");
    assert_true(!nbsel || nbsel > strchr(nbc, '\n'));
    free(js);
    char *tex = tl_test_slurp_in(dirs[0], "tables.tex");
    assert_null(strstr(tex, "sel."));
    const char *leaves = strstr(tex, "\\label{tab:leaves}");
    assert_non_null(leaves);
    assert_non_null(strstr(leaves, "\nvote & -- & $"));
    free(tex);
    tl_experiment_free(x);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_grid_kappa_inner_cv),
        cmocka_unit_test(test_holdout_macro_f1),
        cmocka_unit_test(test_regression_minimises_mae),
        cmocka_unit_test(test_probability_objectives),
        cmocka_unit_test(test_weighted_inner_scores),
        cmocka_unit_test(test_describe_inner),
        cmocka_unit_test(test_ties_go_to_the_first),
        cmocka_unit_test(test_config_errors),
        cmocka_unit_test(test_run_records_values),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
