/* Experiment files: valid ones parse to the right spec; every error names file, line, key. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "tl_test_util.h"
#include "treelab/tl_experiment.h"

/* Stand-ins for the tree learners not merged yet, with the lead's parameter names, so the
 * shipped configs can be parsed (only parsing: they are never fitted here). */
static const tl_param_spec tree_params[] = {
    {"max_depth", TL_PARAM_INT, "0", 0, 1000, NULL, ""},
    {"min_samples_split", TL_PARAM_INT, "2", 2, 1e9, NULL, ""},
    {"min_samples_leaf", TL_PARAM_INT, "1", 1, 1e9, NULL, ""},
    {"min_impurity_decrease", TL_PARAM_DOUBLE, "0", 0, 1e9, NULL, ""},
    {"criterion", TL_PARAM_CHOICE, "gini", 0, 0, "gini|entropy|mse", ""},
    {"ccp_alpha", TL_PARAM_DOUBLE, "0", 0, 1e9, NULL, ""},
    {"prune", TL_PARAM_CHOICE, "none", 0, 0, "none|cv|pre_validation|reduced_error", ""},
    {"select", TL_PARAM_CHOICE, "min", 0, 0, "min|1se", ""},
    {"folds", TL_PARAM_INT, "10", 2, 100, NULL, ""},
    {NULL, 0, NULL, 0, 0, NULL, NULL},
};
static const tl_model_type id3 = {.name = "id3", .summary = "", .tasks = 1, .params = tree_params};
static const tl_model_type c45 = {.name = "c45", .summary = "", .tasks = 1, .params = tree_params};
static const tl_model_type cart = {
    .name = "cart", .summary = "", .tasks = 3, .params = tree_params};
static const tl_param_spec none[] = {{NULL, 0, NULL, 0, 0, NULL, NULL}};
static const tl_model_type soft = {.name = "soft_tree", .summary = "", .tasks = 1, .params = none};
static const tl_model_type *const stand_ins[] = {&id3, &c45, &cart, &soft, NULL};

static tl_experiment *load_text(const char *text, tl_err *err, const char **path)
{
    *path = tl_test_tmpfile(".cfg", text);
    return tl_experiment_load(*path, stand_ins, err);
}

#define IRIS "datasets = ( \"" TL_SOURCE_DIR "/experiments/datasets/iris.arff\" );\n"
#define NB "models = ( { name = \"nb\"; algorithm = \"gaussian_nb\"; } );\n"

static void test_full_config(void **state)
{
    (void)state;
    const char *path;
    tl_err err;
    tl_experiment *x = load_text(
        "name = \"t\"; seed = 9;\n" IRIS
        "models = ( { name = \"nb\"; algorithm = \"gaussian_nb\"; },\n"
        "  { algorithm = \"cart\"; params = { max_depth = 3; ccp_alpha = 0.1; prune = \"cv\"; }; },\n"
        "  { name = \"sel\"; algorithm = \"id3\"; select = { param = \"max_depth\"; values = [1, 2]; }; } );\n"
        "grids = ( { model = \"cart\"; param = \"min_samples_leaf\"; values = [1, 5]; } );\n"
        "protocol = { kind = \"holdout\"; train = 0.5; validation = 0.25; test = 0.25; repeats = 3; };\n"
        "baseline = \"nb\"; reports = [\"trees\"]; plots = [\"grid\"];\n",
        &err, &path);
    if (!x)
        fail_msg("%s", err.msg);
    assert_string_equal(x->name, "t");
    assert_int_equal(x->seed, 9);
    assert_int_equal(x->n_datasets, 1);
    assert_string_equal(x->datasets[0].name, "iris");
    assert_int_equal(x->n_models, 5);
    assert_string_equal(x->models[1].name, "cart");
    assert_string_equal(tl_params_find(&x->models[1].params, "ccp_alpha"), "0.1");
    assert_string_equal(tl_params_find(&x->models[1].params, "max_depth"), "3");
    assert_string_equal(x->models[3].name, "cart[min_samples_leaf=1]");
    assert_string_equal(x->models[4].name, "cart[min_samples_leaf=5]");
    assert_string_equal(tl_params_find(&x->models[4].params, "min_samples_leaf"), "5");
    assert_string_equal(tl_params_find(&x->models[4].params, "max_depth"), "3");
    assert_string_equal(x->models[2].select.params[0], "max_depth");
    assert_int_equal(x->models[2].select.n_values[0], 2);
    assert_int_equal(x->models[2].select.folds, 3);
    assert_int_equal(x->protocol.kind, TL_PROTO_HOLDOUT);
    assert_close(x->protocol.valid, 0.25, 0);
    assert_int_equal(x->protocol.repeats, 3);
    assert_int_equal(x->baseline, 0);
    assert_int_equal(x->reports, TL_REPORT_TREES);
    assert_int_equal(x->n_plots, 1);
    tl_experiment_free(x);
}

/* A grid over two parameters is their cartesian product, x varying fastest. */
static void test_two_parameter_grid(void **state)
{
    (void)state;
    const char *path;
    tl_err err;
    tl_experiment *x = load_text(
        "name = \"t\";\n" IRIS "models = ( { name = \"nb\"; algorithm = \"gaussian_nb\"; },\n"
        "  { name = \"t\"; algorithm = \"cart\"; params = { max_depth = 4; }; } );\n"
        "grids = ( { model = \"t\"; params = { max_depth = [1, 2, 3]; min_samples_split = [2, 10]; }; },\n"
        "  { model = \"t\"; param = \"criterion\"; values = [\"gini\", \"entropy\"]; } );\n"
        "plots = [ \"grid\" ];\n",
        &err, &path);
    if (!x)
        fail_msg("%s", err.msg);
    assert_int_equal(x->n_models, 2 + 6 + 2);
    assert_int_equal(x->n_grids, 2);
    const tl_exp_grid *g = &x->grids[0];
    assert_int_equal(g->base, 1);
    assert_int_equal(g->first, 2);
    assert_string_equal(g->param[0], "max_depth");
    assert_string_equal(g->param[1], "min_samples_split");
    assert_int_equal(g->n_values[0], 3);
    assert_int_equal(g->n_values[1], 2);
    assert_string_equal(g->values[1][1], "10");
    const tl_exp_model *m = &x->models[2 + 4]; /* ix 1, iy 1 */
    assert_string_equal(m->name, "t[max_depth=2][min_samples_split=10]");
    assert_string_equal(tl_params_find(&m->params, "max_depth"), "2");
    assert_string_equal(tl_params_find(&m->params, "min_samples_split"), "10");
    assert_int_equal(m->grid, 1);
    assert_int_equal(m->grid_ix, 1);
    assert_int_equal(m->grid_iy, 1);
    assert_null(x->grids[1].param[1]);
    assert_int_equal(x->grids[1].n_values[1], 1);
    assert_int_equal(x->grids[1].first, 8);
    assert_string_equal(x->models[9].name, "t[criterion=entropy]");
    assert_int_equal(x->models[9].grid, 2);
    assert_int_equal(x->models[0].grid, 0);
    assert_true(tl_experiment_wants_plot(x, "grid"));
    assert_false(tl_experiment_wants_plot(x, "pruning"));
    tl_experiment_free(x);
}

/* Relative dataset paths: the config's folder first, then the current folder. */
static void test_relative_paths(void **state)
{
    (void)state;
    tl_err err;
    /* from the repository root (the tests' working directory) */
    const char *p =
        tl_test_tmpfile(".cfg", "name = \"r\";\n"
                                "datasets = ( \"experiments/datasets/iris.arff\" );\n" NB);
    tl_experiment *x = tl_experiment_load(p, NULL, &err);
    if (!x)
        fail_msg("%s", err.msg);
    assert_string_equal(x->datasets[0].path, "experiments/datasets/iris.arff");
    tl_experiment_free(x);
    /* the shipped configs name their data relative to configs/ and pass the real learners'
     * parameter checks */
    static const char *const shipped[] = {
        "default",        "iris_study",       "iris_learning_curve", "watermelon",
        "regularisation", "seed001_examples", "seed001_regression",  "c45_confidence",
        "composed_trees", "ensembles",        "soft_trees",          "soft_trees_small"};
    for (size_t i = 0; i < sizeof shipped / sizeof *shipped; i++) {
        char rel[128];
        snprintf(rel, sizeof rel, "configs/%s.cfg", shipped[i]);
        x = tl_experiment_load(rel, NULL, &err); /* the real learners and their tables */
        if (!x)
            fail_msg("%s: %s", rel, err.msg);
        assert_string_equal(x->name, shipped[i]);
        assert_int_equal(strncmp(x->datasets[0].path, "configs/../experiments/datasets/", 32), 0);
        tl_experiment_free(x);
    }
    static const char *const literature[] = {"pruning_methods", "selection_measures",
                                             "missing_values"};
    for (size_t i = 0; i < sizeof literature / sizeof *literature; i++) {
        char rel[128];
        snprintf(rel, sizeof rel, "configs/literature/%s.cfg", literature[i]);
        x = tl_experiment_load(rel, NULL, &err);
        if (!x)
            fail_msg("%s: %s", rel, err.msg);
        assert_string_equal(x->name, literature[i]);
        assert_int_equal(
            strncmp(x->datasets[0].path, "configs/literature/../../experiments/datasets/", 46), 0);
        tl_experiment_free(x);
    }
}

/* The error for text contains every needle, and the file name with ":LINE:". */
static void expect_error(const char *text, int line, const char *n1, const char *n2)
{
    const char *path;
    tl_err err;
    tl_err_clear(&err);
    tl_experiment *x = load_text(text, &err, &path);
    if (x)
        fail_msg("accepted: %s", text);
    char where[300];
    snprintf(where, sizeof where, "%s:%d: ", path, line);
    if (!strstr(err.msg, where) || !strstr(err.msg, n1) || (n2 && !strstr(err.msg, n2)))
        fail_msg("message '%s' lacks '%s' / '%s' / '%s'", err.msg, where, n1, n2 ? n2 : "");
    assert_true(err.code == TL_EINVAL || err.code == TL_EPARSE);
}

static void test_errors(void **state)
{
    (void)state;
    /* grids: both forms at once, three parameters, a bad value in the second parameter */
    expect_error("name = \"t\";\n" IRIS NB
                 "grids = ( { model = \"nb\";\n param = \"var_smoothing\"; "
                 "values = [0.1];\n params = { var_smoothing = [1.0]; }; } );\n",
                 6, "params", "not both");
    expect_error("name = \"t\";\n" IRIS "models = ( { name = \"c\"; algorithm = \"cart\"; } );\n"
                 "grids = ( { model = \"c\";\n params = { max_depth = [1]; folds = [2]; "
                 "ccp_alpha = [0.0]; }; } );\n",
                 5, "one or two parameters", NULL);
    expect_error(
        "name = \"t\";\n" IRIS "models = ( { name = \"c\"; algorithm = \"cart\"; } );\n"
        "grids = ( { model = \"c\";\n params = { max_depth = [1];\n folds = [2, 1]; }; } );\n",
        6, "folds", NULL);
    expect_error("name = \"t\";\n" IRIS NB "plots = [ \"accuracy\",\n \"trace\" ];\n", 5,
                 "unknown plot 'trace'", "boundary|trees");
    /* unknown keys, with the allowed list */
    expect_error("name = \"t\";\nsedd = 3;\n" IRIS NB, 2, "sedd: unknown key",
                 "allowed keys: name, seed, datasets, models");
    expect_error("name = \"t\";\nsedd = 3;\n" IRIS NB, 2, "unknown key 'sedd'",
                 "; did you mean 'seed'?");
    expect_error("name = \"t\";\n" IRIS "models = ( { name = \"a\"; algorithm = \"gaussian_nb\";\n"
                 "  paramz = { }; } );\n",
                 4, "models[0].paramz: unknown key",
                 "allowed keys: name, algorithm, params, select");
    expect_error("name = \"t\";\n" IRIS NB
                 "protocol = { kind = \"cv\"; folds = 3;\n repeat = 2; };\n",
                 5, "protocol.repeat: unknown key", "folds, repeats, stratified");
    expect_error("name = \"t\";\n" IRIS NB
                 "protocol = { kind = \"cv\"; folds = 3;\n repeat = 2; };\n",
                 5, "unknown key 'repeat'", "did you mean 'repeats'?");
    /* unknown algorithm, with the valid ones */
    expect_error("name = \"t\";\n" IRIS "models = (\n { algorithm = \"j48\"; } );\n", 4,
                 "unknown algorithm 'j48'", "gaussian_nb");
    /* bad parameter name and value */
    expect_error("name = \"t\";\n" IRIS "models = ( { algorithm = \"cart\";\n"
                 " params = { max_depht = 3; }; } );\n",
                 4, "max_depht", "max_depth");
    expect_error("name = \"t\";\n" IRIS "models = ( { algorithm = \"cart\";\n"
                 " params = { criterion = \"gain\"; }; } );\n",
                 4, "gain", "gini");
    expect_error("name = \"t\";\n" IRIS "models = ( { algorithm = \"cart\";\n"
                 " params = { max_depth = -1; }; } );\n",
                 4, "max_depth", NULL);
    expect_error("name = \"t\";\n" IRIS "models = ( { algorithm = \"cart\"; } );\n"
                 "grids = ( { model = \"cart\"; param = \"max_depth\";\n values = [1, -2]; } );\n",
                 5, "max_depth", NULL);
    expect_error("name = \"t\";\n" IRIS "models = ( { algorithm = \"id3\";\n select = { param = "
                 "\"max_depth\"; values = [\"deep\"]; }; } );\n",
                 4, "max_depth", NULL);
    /* missing dataset file */
    expect_error("name = \"t\";\ndatasets = (\n \"no/such.arff\" );\n" NB, 3,
                 "dataset file 'no/such.arff' not found", NULL);
    /* wrong types */
    expect_error("name = 5;\n" IRIS NB, 1, "name: expected a string", NULL);
    expect_error("name = \"t\";\nseed = \"x\";\n" IRIS NB, 2, "seed: expected an integer", NULL);
    expect_error("name = \"t\";\n" IRIS NB "protocol = { kind = \"cv\";\n folds = 2.5; };\n", 5,
                 "protocol.folds: expected an integer", NULL);
    expect_error("name = \"t\";\n" IRIS NB "protocol = { kind = \"cv\";\n stratified = 1; };\n", 5,
                 "expected true or false", NULL);
    expect_error("name = \"t\";\n" IRIS "models = ( { algorithm = \"cart\";\n"
                 " params = { max_depth = [3]; }; } );\n",
                 4, "max_depth: expected a number", NULL);
    /* other semantic errors */
    expect_error("name = \"t\";\n" IRIS NB "protocol = {\n kind = \"bootstrap\"; };\n", 5,
                 "unknown protocol 'bootstrap'", "cv, holdout, learning_curve");
    expect_error("name = \"t\";\n" IRIS NB "protocol = { kind = \"holdout\";\n train = 0.5; "
                 "validation = 0.2; test = 0.2; };\n",
                 4, "must be 1", NULL);
    expect_error("name = \"t\";\n" IRIS NB "protocol = { kind = \"learning_curve\";\n"
                 " fractions = [0.5, 0.3]; };\n",
                 5, "increasing", NULL);
    expect_error("name = \"t\";\n" IRIS NB "baseline = \"zz\";\n", 4, "baseline 'zz'", NULL);
    expect_error("name = \"t\";\n" IRIS NB "reports = [\"pdf\"];\n", 4, "unknown report 'pdf'",
                 "confusion, trees, trace");
    expect_error("name = \"t\";\n" IRIS "models = ( { algorithm = \"cart\"; },\n"
                 " { algorithm = \"cart\"; } );\n",
                 4, "model name 'cart' is used twice", NULL);
    expect_error("seed = 1;\n" IRIS NB, 1, "missing required key 'name'", NULL);
    /* a syntax error: libconfig's message with the line, the line's text and a hint */
    expect_error("name = \"t\";\nseed = = 1;\n", 2, "syntax error at `seed = = 1;`",
                 "expected `name = value;` settings");
    /* at the end of the file: what was left open, and where */
    expect_error("name = \"t\";\nmodels = ( { a = \")\"; } # )\n\n", 4,
                 "syntax error at the end of the file", "the '(' opened on line 2 is not closed");
    expect_error("name = \"t\";\nx = \"a\\\"b;\n", 3, "syntax error at the end of the file",
                 "the string opened on line 2 is not closed");
}

/* A control character in any string that may end up in a result file is refused at load,
 * at its line (it used to break cells.txt after every cell had been computed). */
static void test_control_characters(void **state)
{
    (void)state;
    expect_error("name = \"t\";\n" IRIS "models = ( { algorithm = \"gaussian_nb\";\n"
                 " name = \"a\\nb\"; } );\n",
                 4, "models[0].name: control character \\n", "character 2 of the string");
    expect_error("name = \"t\\tx\";\n" IRIS NB, 1, "name: control character \\t", NULL);
    expect_error("name = \"t\";\ndatasets = ( { path = \"" TL_SOURCE_DIR
                 "/experiments/datasets/iris.arff\";\n name = \"ir\\x01is\"; } );\n" NB,
                 3, "datasets[0].name: control character \\x01", NULL);
    expect_error("name = \"t\";\n" IRIS "models = ( { algorithm = \"cart\"; } );\n"
                 "grids = ( { model = \"cart\"; param = \"criterion\";\n"
                 " values = [\"gini\", \"x\\ry\"]; } );\n",
                 5, "control character \\r", NULL);
    expect_error("name = \"t\";\n" IRIS NB "reports = [\"trees\",\n \"\\x7f\"];\n", 5,
                 "control character \\x7f", NULL);
}

/* A plug-in's parameters nest under its slot (libconfig names hold no dot): read as
 * SLOT = name and SLOT.PARAM, checked against the real plug-in's table, and swept by a grid
 * written the same way. */
static void test_nested_plugin_params(void **state)
{
    (void)state;
    tl_err err;
    const char *path = tl_test_tmpfile(
        ".cfg",
        "name = \"n\";\n" IRIS
        "models = ( { name = \"t\"; algorithm = \"tree\"; params = { criterion = "
        "\"gain_ratio\";\n  pruner = { name = \"error_based\"; confidence = 0.1; }; }; },\n"
        "  { name = \"c\"; algorithm = \"c45\"; params = { pruner = { name = \"cost_complexity\"; "
        "select = \"1se\"; }; }; } );\n"
        "grids = ( { model = \"t\"; params = { pruner = { confidence = [0.05, 0.5]; }; }; } );\n"
        "protocol = { kind = \"cv\"; folds = 3; };\n");
    tl_experiment *x = tl_experiment_load(path, NULL, &err);
    if (!x)
        fail_msg("%s", err.msg);
    assert_string_equal(tl_params_find(&x->models[0].params, "pruner"), "error_based");
    assert_string_equal(tl_params_find(&x->models[0].params, "pruner.confidence"), "0.1");
    assert_string_equal(tl_params_find(&x->models[1].params, "pruner.select"), "1se");
    assert_string_equal(x->grids[0].param[0], "pruner.confidence");
    assert_int_equal(x->n_models, 4);
    assert_string_equal(tl_params_find(&x->models[3].params, "pruner.confidence"), "0.5");
    tl_experiment_free(x);
    /* a misspelt parameter of the plug-in: its line, the slot, and the valid names */
    path = tl_test_tmpfile(
        ".cfg",
        "name = \"n\"; " IRIS "models = ( { algorithm = \"tree\";\n  params = { pruner = { name = "
        "\"error_based\"; confidance = 0.1; }; }; } );\nprotocol = { kind = \"cv\"; };\n");
    assert_null(tl_experiment_load(path, NULL, &err));
    assert_non_null(strstr(err.msg, ":3"));
    assert_non_null(strstr(err.msg, "pruner error_based: unknown parameter 'confidance'; "
                                    "valid parameters: confidence, subtree_raising, collapse"));
    /* a value out of the plug-in's range in a grid: refused at its line before any work */
    path = tl_test_tmpfile(
        ".cfg",
        "name = \"n\"; " IRIS
        "models = ( { name = \"t\"; algorithm = \"tree\"; params = { pruner = "
        "\"error_based\"; }; } );\n"
        "grids = ( { model = \"t\";\n  params = { pruner = { confidence = [0.1, 0.9]; }; }; } );\n"
        "protocol = { kind = \"cv\"; };\n");
    assert_null(tl_experiment_load(path, NULL, &err));
    assert_non_null(strstr(err.msg, ":4"));
    assert_non_null(strstr(err.msg, "confidence = 0.9 is out of range"));
    /* an unknown plug-in lists the registry */
    path = tl_test_tmpfile(
        ".cfg", "name = \"n\"; " IRIS
                "models = ( { algorithm = \"id3\"; params = { criterion = \"gini2\"; }; } );\n"
                "protocol = { kind = \"cv\"; };\n");
    assert_null(tl_experiment_load(path, NULL, &err));
    assert_non_null(strstr(err.msg, "unknown criterion 'gini2'; valid: entropy, gain_ratio"));
}

static void test_unreadable_file(void **state)
{
    (void)state;
    tl_err err;
    assert_null(tl_experiment_load("/no/such/file.cfg", NULL, &err));
    assert_int_equal(err.code, TL_EIO);
    assert_non_null(strstr(err.msg, "/no/such/file.cfg"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_full_config),          cmocka_unit_test(test_two_parameter_grid),
        cmocka_unit_test(test_relative_paths),       cmocka_unit_test(test_errors),
        cmocka_unit_test(test_control_characters),   cmocka_unit_test(test_unreadable_file),
        cmocka_unit_test(test_nested_plugin_params),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
