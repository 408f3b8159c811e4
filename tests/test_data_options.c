/* Data options (ignore, attributes, nominal), ARFF instance weights and sparse rows against
 * Weka's J48 (tests/fixtures/weighted, scripts/peers/weka_weighted.sh), and the user's own
 * folds and splits (fold files, split columns, test files) through the CLI and the runner. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tl_test_util.h"
#include "treelab/tl_experiment.h"
#include "treelab/tl_model.h"
#include "treelab/tl_protocol.h"
#include "treelab/tl_report.h"
#include "treelab/tl_runner.h"

static tl_dataset *load_with(const char *path, const tl_data_opts *o)
{
    tl_err err;
    tl_dataset *d = tl_dataset_load_with(path, o, &err);
    if (!d)
        fail_msg("loading %s: %s", path, err.msg);
    return d;
}

static void expect_error(const char *path, const tl_data_opts *o, const char *needle)
{
    tl_err err;
    tl_dataset *d = tl_dataset_load_with(path, o, &err);
    if (d) {
        tl_dataset_free(d);
        fail_msg("loading %s should fail with '%s'", path, needle);
    }
    if (!strstr(err.msg, needle))
        fail_msg("message '%s' lacks '%s'", err.msg, needle);
}

/* The text of a fitted c45 tree (Weka's layout), in a malloc'd buffer. */
static char *c45_text(const tl_dataset *d, const char *params)
{
    tl_params p;
    tl_err err;
    tl_params_init(&p);
    if (params)
        assert_int_equal(tl_params_set_kv(&p, params, &err), TL_OK);
    tl_model *m = tl_model_new("c45", &p, &err);
    assert_non_null(m);
    assert_int_equal(tl_model_fit(m, d, NULL, 0, NULL, &err), TL_OK);
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    assert_int_equal(tl_model_show(m, TL_SHOW_TEXT, f, &err), TL_OK);
    fclose(f);
    tl_model_free(m);
    tl_params_clear(&p);
    return buf;
}

/* J48's lines for VARIANT from the fixture, each followed by '\n'. */
static void j48_tree(const char *variant, char *out, size_t size)
{
    FILE *f = fopen(tl_test_path("tests/fixtures/weighted/j48.txt"), "r");
    assert_non_null(f);
    char line[512], prefix[64];
    snprintf(prefix, sizeof prefix, "tree %s ", variant);
    out[0] = '\0';
    while (fgets(line, sizeof line, f))
        if (!strncmp(line, prefix, strlen(prefix)))
            strncat(out, line + strlen(prefix), size - strlen(out) - 1);
    fclose(f);
    assert_true(strlen(out) > 0);
}

/* J48 on the weighted labor data: the same tree, fractional weights included, from the dense
 * rows ({w} after the values) and from Weka's own sparse writing of them. */
static void test_weighted_arff_j48(void **state)
{
    (void)state;
    const char *files[] = {"tests/fixtures/weighted/labor-weighted.arff",
                           "tests/fixtures/weighted/labor-weighted-sparse.arff"};
    const char *variants[][2] = {{"default", NULL}, {"U", "prune=false"}};
    char want[4096];
    for (size_t f = 0; f < 2; f++) {
        tl_dataset *d = tl_test_load(files[f], NULL);
        assert_non_null(d->weight);
        double total = 0;
        for (size_t i = 0; i < d->n_rows; i++)
            total += d->weight[i];
        assert_close(total, 56.75, 1e-12); /* Weka's "Total Number of Instances" */
        for (size_t v = 0; v < 2; v++) {
            j48_tree(variants[v][0], want, sizeof want);
            char *got = c45_text(d, variants[v][1]);
            if (strncmp(got, want, strlen(want)))
                fail_msg("%s, J48 %s:\n%s\nexpected:\n%s", files[f], variants[v][0], got, want);
            free(got);
        }
        tl_dataset_free(d);
    }
}

/* The sparse file holds the same cells as the dense one: unlisted values are 0 or a
 * nominal's first level, '?' stays missing. */
static void test_sparse_equals_dense(void **state)
{
    (void)state;
    tl_dataset *a = tl_test_load("tests/fixtures/weighted/labor-weighted.arff", NULL);
    tl_dataset *b = tl_test_load("tests/fixtures/weighted/labor-weighted-sparse.arff", NULL);
    assert_int_equal(a->n_rows, b->n_rows);
    assert_int_equal(a->schema.n_attrs, b->schema.n_attrs);
    for (size_t i = 0; i < a->n_rows; i++) {
        assert_true(a->weight[i] == b->weight[i]);
        assert_int_equal(a->y.code[i], b->y.code[i]);
        for (size_t j = 0; j < a->schema.n_attrs; j++) {
            if (a->schema.attrs[j].kind == TL_ATTR_NOMINAL)
                assert_int_equal(a->cols[j].code[i], b->cols[j].code[i]);
            else if (isnan(a->cols[j].num[i]))
                assert_true(isnan(b->cols[j].num[i]));
            else
                assert_true(a->cols[j].num[i] == b->cols[j].num[i]);
        }
    }
    tl_dataset_free(a);
    tl_dataset_free(b);
}

/* Scores weigh rows as Weka's evaluation on the training data does: J48's accuracy
 * 55.5 / 56.75, kappa 0.9513 and confusion matrix, through `fit --test`. */
static void test_weighted_scores_as_weka(void **state)
{
    (void)state;
    char out[2048], errb[2048], args[2048], data[512];
    snprintf(data, sizeof data, "%s", tl_test_path("tests/fixtures/weighted/labor-weighted.arff"));
    snprintf(args, sizeof args, "fit '%s' --algo c45 --test '%s'", data, data);
    assert_int_equal(tl_test_cli(args, out, sizeof out, errb, sizeof errb), 0);
    char acc[64];
    snprintf(acc, sizeof acc, "accuracy %.4f", 55.5 / 56.75);
    assert_non_null(strstr(out, "57 rows (weight 56.75)"));
    assert_non_null(strstr(out, acc));
    assert_non_null(strstr(out, "kappa 0.9513"));
    /* the cells of an experiment hold the weighted confusion matrix */
    tl_dataset *d = tl_test_load("tests/fixtures/weighted/labor-weighted.arff", NULL);
    tl_exp_model m;
    memset(&m, 0, sizeof m);
    m.name = "c45";
    tl_err err;
    m.type = tl_model_find("c45", &err);
    tl_params_init(&m.params);
    size_t *all = malloc(d->n_rows * sizeof *all);
    for (size_t i = 0; i < d->n_rows; i++)
        all[i] = i;
    tl_cell c;
    memset(&c, 0, sizeof c);
    assert_int_equal(tl_cell_eval(&m, d, all, d->n_rows, NULL, 0, all, d->n_rows, 1, &c, &err),
                     TL_OK);
    const double weka[4] = {19, 0.5, 0.75, 36.5}; /* rows bad, good; columns predicted */
    for (size_t i = 0; i < 4; i++)
        assert_close(c.confusion[i], weka[i], 1e-12);
    assert_close(c.cm.accuracy, 55.5 / 56.75, 1e-15);
    assert_close(c.cm.kappa, 0.9513, 5e-5);
    tl_cell_clear(&c);
    free(all);
    tl_dataset_free(d);
}

/* ID3 on watermelon 2.0 splits on the id column (ids 1-8 are ripe): 10-fold CV accuracy 1.
 * With ignore = id the column is gone, the tree never tests it, and the CV accuracy is
 * 0.55, the same as with the six attributes named by `attributes`. */
static void test_ignore_id(void **state)
{
    (void)state;
    char out[2048], args[1024], wm[512];
    snprintf(wm, sizeof wm, "%s", tl_test_path("experiments/datasets/watermelon-2.0.csv"));
    snprintf(args, sizeof args, "cv '%s' --algo id3", wm);
    assert_int_equal(tl_test_cli(args, out, sizeof out, NULL, 0), 0);
    assert_non_null(strstr(out, "accuracy 1.0000"));
    snprintf(args, sizeof args, "cv '%s' --algo id3 --ignore id", wm);
    assert_int_equal(tl_test_cli(args, out, sizeof out, NULL, 0), 0);
    assert_non_null(strstr(out, "accuracy 0.5500 (sd 0.4378)"));
    snprintf(args, sizeof args,
             "cv '%s' --algo id3 --attributes color,root,knock,texture,navel,"
             "touch",
             wm);
    assert_int_equal(tl_test_cli(args, out, sizeof out, NULL, 0), 0);
    assert_non_null(strstr(out, "accuracy 0.5500 (sd 0.4378)"));

    const char *ignore[] = {"id"};
    tl_data_opts o = {0};
    o.ignore = ignore, o.n_ignore = 1;
    tl_dataset *d = load_with(wm, &o);
    assert_int_equal(d->schema.n_attrs, 6);
    for (size_t j = 0; j < d->schema.n_attrs; j++)
        assert_string_not_equal(d->schema.attrs[j].name, "id");
    char *tree = c45_text(d, "pruner=none");
    assert_null(strstr(tree, "id "));
    assert_non_null(strstr(tree, "texture = "));
    free(tree);
    tl_dataset_free(d);
    d = load_with(wm, NULL);
    tree = c45_text(d, "pruner=none");
    assert_non_null(strstr(tree, "id <= 8: yes (8.0)")); /* the leak the option removes */
    free(tree);
    tl_dataset_free(d);
}

/* A CSV class coded 0/1 is a regression target; with nominal = y it is classification with
 * classes "0" and "1", and every number equals the ARFF copy's, which declares y {0,1}. */
static void test_nominal_target(void **state)
{
    (void)state;
    char a[2048], b[2048], args[1024], csv[512];
    snprintf(csv, sizeof csv, "%s", tl_test_path("experiments/datasets/two-feature-boundary.csv"));
    snprintf(args, sizeof args, "cv '%s' --algo cart --folds 3 --nominal y", csv);
    assert_int_equal(tl_test_cli(args, a, sizeof a, NULL, 0), 0);
    snprintf(args, sizeof args, "cv '%s' --algo cart --folds 3",
             tl_test_path("experiments/datasets/two-feature-boundary.arff"));
    assert_int_equal(tl_test_cli(args, b, sizeof b, NULL, 0), 0);
    assert_string_equal(a, b);
    assert_non_null(strstr(a, "accuracy 0.5833"));
    const char *nominal[] = {"y"};
    tl_data_opts o = {0};
    o.nominal = nominal, o.n_nominal = 1;
    tl_dataset *d = load_with(csv, &o);
    assert_true(tl_dataset_is_classification(d));
    assert_int_equal(tl_dataset_n_classes(d), 2);
    assert_string_equal(d->schema.target.levels[0], "0");
    assert_string_equal(d->schema.target.levels[1], "1");
    tl_dataset_free(d);
    /* an attribute too: levels in increasing numeric order, named %.17g */
    const char *x1[] = {"x_1"};
    o.nominal = x1;
    d = load_with(csv, &o);
    assert_int_equal(d->schema.attrs[1].kind, TL_ATTR_NOMINAL);
    for (size_t l = 1; l < d->schema.attrs[1].n_levels; l++)
        assert_true(atof(d->schema.attrs[1].levels[l - 1]) < atof(d->schema.attrs[1].levels[l]));
    assert_false(tl_dataset_is_classification(d));
    tl_dataset_free(d);
}

/* Wrong names list the valid columns; the target cannot be ignored. */
static void test_option_errors(void **state)
{
    (void)state;
    char wm[512];
    snprintf(wm, sizeof wm, "%s", tl_test_path("experiments/datasets/watermelon-2.0.csv"));
    const char *bad[] = {"idx"}, *ripe[] = {"ripe"}, *twice[] = {"color", "color"};
    tl_data_opts o = {0};
    o.ignore = bad, o.n_ignore = 1;
    expect_error(wm, &o,
                 "ignore: unknown column 'idx'; valid columns: id, color, root, knock, "
                 "texture, navel, touch, ripe");
    o.ignore = ripe;
    expect_error(wm, &o, "ignore: 'ripe' is the target");
    memset(&o, 0, sizeof o);
    o.attributes = twice, o.n_attributes = 2;
    expect_error(wm, &o, "attributes: 'color' is named twice");
    o.attributes = bad, o.n_attributes = 1;
    expect_error(wm, &o, "attributes: unknown column 'idx'");
    memset(&o, 0, sizeof o);
    o.nominal = bad, o.n_nominal = 1;
    expect_error(wm, &o, "nominal: unknown column 'idx'");
    memset(&o, 0, sizeof o);
    o.fold_column = "color";
    expect_error(wm, &o, "fold column 'color', data row 1: expected a fold id");
    o.fold_column = "idx";
    expect_error(wm, &o, "fold column: unknown column 'idx'");
    memset(&o, 0, sizeof o);
    o.split_column = "id";
    expect_error(wm, &o, "split column 'id' is numeric");
}

static const char *write_folds(const char *text)
{
    return tl_test_tmpfile(".folds", text);
}

/* Fold files: one id a line, a line per data row; -1 trains in every fold. */
static void test_fold_file(void **state)
{
    (void)state;
    char wm[512];
    snprintf(wm, sizeof wm, "%s", tl_test_path("experiments/datasets/watermelon-2.0.csv"));
    char ids[256] = "";
    for (int i = 0; i < 17; i++)
        snprintf(ids + strlen(ids), sizeof ids - strlen(ids), "%d\n", i == 16 ? -1 : i % 3);
    tl_data_opts o = {0};
    o.fold_file = write_folds(ids);
    tl_dataset *d = load_with(wm, &o);
    assert_int_equal(d->n_folds, 3);
    assert_int_equal(d->fold[0], 0);
    assert_int_equal(d->fold[16], -1);
    assert_int_equal(d->schema.n_attrs, 7); /* a file adds no attribute */
    tl_dataset_free(d);
    remove(o.fold_file);
    o.fold_file = write_folds("0\n1\n");
    expect_error(wm, &o, "2 fold ids for the 17 data rows");
    remove(o.fold_file);
    o.fold_file = write_folds("0\n1\n2.5\n");
    expect_error(wm, &o, ":3:1: expected a fold id");
    remove(o.fold_file);
    snprintf(ids, sizeof ids, "%s", "");
    for (int i = 0; i < 17; i++)
        snprintf(ids + strlen(ids), sizeof ids - strlen(ids), "%d\n", i % 2 ? 2 : 0);
    o.fold_file = write_folds(ids);
    expect_error(wm, &o, "fold 1 has no rows");
    remove(o.fold_file);
    for (int i = 0; i < 18; i++)
        snprintf(ids + strlen(ids), sizeof ids - strlen(ids), "0\n");
    o.fold_file = write_folds(ids);
    expect_error(wm, &o, "more fold ids than the 17 data rows");
    remove(o.fold_file);
}

/* An experiment on a fold file: each cell equals the learner fitted on the other folds'
 * rows and scored on its fold, the fold sizes are the file's (6, 5, 5), and the row marked
 * -1 is in every training set. */
static void test_fold_file_experiment(void **state)
{
    (void)state;
    char ids[256] = "", cfg[2048], dir[256];
    for (int i = 0; i < 17; i++)
        snprintf(ids + strlen(ids), sizeof ids - strlen(ids), "%d\n", i == 16 ? -1 : i % 3);
    char folds[512];
    snprintf(folds, sizeof folds, "%s", write_folds(ids));
    snprintf(cfg, sizeof cfg,
             "name = \"ff\";\nseed = 1;\n"
             "datasets = ( { path = \"%s\"; ignore = [\"id\"]; folds = \"%s\"; } );\n"
             "models = ( { name = \"id3\"; algorithm = \"id3\"; } );\n"
             "protocol = { kind = \"folds\"; };\n",
             tl_test_path("experiments/datasets/watermelon-2.0.csv"), folds);
    char path[512];
    snprintf(path, sizeof path, "%s", tl_test_tmpfile(".cfg", cfg));
    tl_err err;
    tl_experiment *x = tl_experiment_load(path, NULL, &err);
    if (!x)
        fail_msg("%s", err.msg);
    tl_dataset *d = tl_experiment_load_dataset(x, 0, &err);
    assert_non_null(d);
    snprintf(dir, sizeof dir, "/tmp/tl_fold_file_%d", (int)getpid());
    tl_run_opts ro;
    memset(&ro, 0, sizeof ro);
    ro.out_dir = dir;
    ro.jobs = 2;
    assert_int_equal(tl_report_run(x, &d, &ro, &err), TL_OK);
    char metrics[600];
    snprintf(metrics, sizeof metrics, "%s/metrics.csv", dir);
    FILE *f = fopen(metrics, "r");
    assert_non_null(f);
    char line[4096];
    assert_non_null(fgets(line, sizeof line, f));
    const size_t sizes[3][2] = {{11, 6}, {12, 5}, {12, 5}};
    for (size_t fold = 0; fold < 3; fold++) {
        assert_non_null(fgets(line, sizeof line, f));
        size_t rep, fo, ntr, nte;
        double acc;
        assert_int_equal(
            sscanf(line, "watermelon-2.0,id3,%zu,%zu,%zu,%zu,%lf", &rep, &fo, &ntr, &nte, &acc), 5);
        assert_int_equal(fo, fold);
        assert_int_equal(ntr, sizes[fold][0]);
        assert_int_equal(nte, sizes[fold][1]);
        size_t tr[17], te[17], a = 0, b = 0;
        for (size_t i = 0; i < 17; i++) {
            if (d->fold[i] == (int)fold)
                te[b++] = i;
            else
                tr[a++] = i;
        }
        tl_cell c;
        memset(&c, 0, sizeof c);
        assert_int_equal(tl_cell_eval(&x->models[0], d, tr, a, NULL, 0, te, b, 1, &c, &err), TL_OK);
        assert_close(acc, c.cm.accuracy, 5e-7); /* metrics.csv has 6 decimals */
        tl_cell_clear(&c);
    }
    assert_null(fgets(line, sizeof line, f));
    fclose(f);
    char cmd[700];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    assert_int_equal(system(cmd), 0);
    remove(folds);
    remove(path);
    tl_dataset_free(d);
    tl_experiment_free(x);
}

/* Split columns and test files: train, validation and test rows as marked. */
static void test_split(void **state)
{
    (void)state;
    const char *csv = tl_test_tmpfile(".csv", "a,part,y\n1,train,p\n2,train,p\n3,test,q\n"
                                              "4,validation,q\n5,train,q\n6,test,p\n");
    char path[512];
    snprintf(path, sizeof path, "%s", csv);
    tl_data_opts o = {0};
    o.split_column = "part";
    tl_dataset *d = load_with(path, &o);
    assert_int_equal(d->schema.n_attrs, 1);
    const unsigned char want[] = {0, 0, 2, 1, 0, 2};
    for (size_t i = 0; i < 6; i++)
        assert_int_equal(d->role[i], want[i]);
    tl_dataset_free(d);
    const char *test = tl_test_tmpfile(".csv", "y,a\nq,7\nr,8\n");
    char tpath[512];
    snprintf(tpath, sizeof tpath, "%s", test);
    memset(&o, 0, sizeof o);
    o.ignore = (const char *const[]){"part"}, o.n_ignore = 1;
    o.target = "y";
    o.test_file = tpath;
    d = load_with(path, &o);
    assert_int_equal(d->n_rows, 8);
    assert_int_equal(d->role[5], TL_ROLE_TRAIN);
    assert_int_equal(d->role[6], TL_ROLE_TEST);
    assert_true(d->cols[0].num[7] == 8);
    assert_int_equal(tl_dataset_n_classes(d), 3); /* r: a class only the test file has */
    assert_string_equal(d->schema.target.levels[d->y.code[7]], "r");
    tl_dataset_free(d);
    remove(path);
    remove(tpath);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_weighted_arff_j48),
        cmocka_unit_test(test_sparse_equals_dense),
        cmocka_unit_test(test_weighted_scores_as_weka),
        cmocka_unit_test(test_ignore_id),
        cmocka_unit_test(test_nominal_target),
        cmocka_unit_test(test_option_errors),
        cmocka_unit_test(test_fold_file),
        cmocka_unit_test(test_fold_file_experiment),
        cmocka_unit_test(test_split),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
