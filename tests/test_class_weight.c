/* Class weights: "balanced" equals scikit-learn's compute_class_weight (n / (k * n_c) over the
 * training rows), and a model fitted with class weights is the model fitted on rows carrying
 * those weights in a --weight column, for a tree and for naive Bayes. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tl_test_util.h"
#include "treelab/tl_experiment.h"
#include "treelab/tl_runner.h"

static const char *skewed = "a,b,class\n1,x,p\n2,y,p\n3,x,p\n4,y,q\n5,x,p\n6,y,p\n7,x,q\n8,y,p\n";

static void test_balanced_as_sklearn(void **state)
{
    (void)state;
    tl_dataset *d = tl_test_load_text(".csv", skewed, NULL);
    double *w;
    tl_err err;
    const size_t rows[] = {0, 1, 2, 3, 4, 5}; /* 5 p, 1 q: 6 / (2 * 5) and 6 / (2 * 1) */
    assert_int_equal(tl_class_weights_apply("balanced", d, rows, 6, &w, &err), TL_OK);
    assert_close(w[0], 0.6, 1e-15);
    assert_close(w[3], 3.0, 1e-15);
    assert_close(w[6], 3.0, 1e-15); /* rows outside the training rows weigh by the same rule */
    free(w);
    assert_int_equal(tl_class_weights_apply("q=2.5", d, rows, 6, &w, &err), TL_OK);
    assert_close(w[0], 1.0, 0);
    assert_close(w[3], 2.5, 0);
    free(w);
    const char *bad[] = {"r=2", "q=-1", "q", "q=2,p"};
    const char *why[] = {"'r' is not a class of 'class'", "must be a finite number >= 0",
                         "expected balanced or CLASS=WEIGHT", "expected balanced or CLASS=WEIGHT"};
    for (int k = 0; k < 4; k++) {
        assert_int_not_equal(tl_class_weights_apply(bad[k], d, rows, 6, &w, &err), TL_OK);
        if (!strstr(err.msg, why[k]))
            fail_msg("%s: %s", bad[k], err.msg);
    }
    tl_dataset_free(d);
    d = tl_test_load_text(".csv", "a,y\n1,0.5\n2,1.5\n", NULL);
    assert_int_not_equal(tl_class_weights_apply("balanced", d, rows, 2, &w, &err), TL_OK);
    assert_non_null(strstr(err.msg, "class_weight needs a nominal target"));
    tl_dataset_free(d);
}

/* The shown model of `algo` fitted through a cell with class_weight spec on every row. */
static char *fitted_with(const char *algo, const tl_dataset *d, const char *spec)
{
    tl_exp_model m;
    memset(&m, 0, sizeof m);
    tl_params_init(&m.params);
    tl_err err;
    m.name = (char *)algo;
    m.type = tl_model_find(algo, &err);
    m.class_weight = (char *)spec;
    long selected;
    tl_model *model = tl_cell_fit(&m, d, NULL, 0, NULL, 0, 1, &selected, &err);
    if (!model)
        fail_msg("%s: %s", algo, err.msg);
    char *text = tl_test_show(model, TL_SHOW_TEXT);
    tl_model_free(model);
    tl_params_clear(&m.params);
    return text;
}

static void test_same_as_row_weights(void **state)
{
    (void)state;
    tl_dataset *d = tl_test_load_text(".csv", skewed, NULL);
    /* balanced on every row: 8 / (2 * 6) for p, 8 / (2 * 2) for q */
    char csv[512] = "a,b,w,class\n";
    const char *rows = strchr(skewed, '\n') + 1;
    for (const char *p = rows; *p;) {
        const char *e = strchr(p, '\n');
        int is_q = e[-1] == 'q';
        snprintf(csv + strlen(csv), sizeof csv - strlen(csv), "%.*s%.17g,%c\n", (int)(e - p - 1), p,
                 is_q ? 2.0 : 8.0 / 12, is_q ? 'q' : 'p');
        p = e + 1;
    }
    tl_data_opts o = {0};
    o.weight_column = "w";
    tl_err err;
    tl_dataset *w = tl_dataset_load_with(tl_test_tmpfile(".csv", csv), &o, &err);
    assert_non_null(w);
    const char *algos[] = {"cart", "gaussian_nb"};
    for (int k = 0; k < 2; k++) {
        char *a = fitted_with(algos[k], d, "balanced"), *b = fitted_with(algos[k], w, NULL);
        assert_string_equal(a, b);
        char *plain = fitted_with(algos[k], d, NULL); /* and the weights change the model */
        assert_string_not_equal(a, plain);
        free(a);
        free(b);
        free(plain);
    }
    tl_dataset_free(w);
    tl_dataset_free(d);
}

static void test_config_forms(void **state)
{
    (void)state;
    const char *cfg =
        "name = \"cw\";\ndatasets = ( \"%s/experiments/datasets/iris.arff\" );\n"
        "models = ( { name = \"a\"; algorithm = \"cart\"; class_weight = \"balanced\"; },\n"
        "  { name = \"b\"; algorithm = \"c45\"; class_weight = { setosa = 2; virginica = 0.5; }; },\n"
        "  { name = \"c\"; algorithm = \"gaussian_nb\"; } );\n"
        "grids = ( { model = \"b\"; param = \"min_samples_leaf\"; values = [2, 4]; } );\n";
    char text[1024];
    snprintf(text, sizeof text, cfg, TL_SOURCE_DIR);
    tl_err err;
    tl_experiment *x = tl_experiment_load(tl_test_tmpfile(".cfg", text), NULL, &err);
    if (!x)
        fail_msg("%s", err.msg);
    assert_string_equal(x->models[0].class_weight, "balanced");
    assert_string_equal(x->models[1].class_weight, "setosa=2,virginica=0.5");
    assert_null(x->models[2].class_weight);
    assert_int_equal(x->n_models, 5); /* the grid's models keep their base's weights */
    assert_string_equal(x->models[4].class_weight, "setosa=2,virginica=0.5");
    tl_experiment_free(x);
    snprintf(text, sizeof text,
             "name = \"cw\";\ndatasets = ( \"%s/experiments/datasets/iris.arff\" );\n"
             "models = ( { algorithm = \"cart\"; class_weight = { setosa = \"x\"; }; } );\n",
             TL_SOURCE_DIR);
    assert_null(tl_experiment_load(tl_test_tmpfile(".cfg", text), NULL, &err));
    assert_non_null(strstr(err.msg, "class_weight: expected a number for class 'setosa'"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_balanced_as_sklearn),
        cmocka_unit_test(test_same_as_row_weights),
        cmocka_unit_test(test_config_forms),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
