/* The model commands end to end: fit, predict, show, path, cv, and their errors. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tl_test_util.h"

static char out[1 << 16], errb[1 << 14];

static void test_fit_show_predict_round_trip(void **state)
{
    (void)state;
    const char *model = "/tmp/tl_test_cli_iris.model";
    char args[512];
    snprintf(args, sizeof args, "fit experiments/datasets/iris.arff --algo cart -o %s", model);
    assert_int_equal(tl_test_cli(args, out, sizeof out, errb, sizeof errb), 0);
    assert_non_null(strstr(errb, "9 leaves, depth 5"));
    snprintf(args, sizeof args, "show %s", model);
    assert_int_equal(tl_test_cli(args, out, sizeof out, errb, sizeof errb), 0);
    assert_non_null(strstr(out, "petallength <= 2.45: Iris-setosa (50.0)\npetallength > 2.45\n"));
    snprintf(args, sizeof args, "show %s --format dot", model);
    assert_int_equal(tl_test_cli(args, out, sizeof out, errb, sizeof errb), 0);
    assert_non_null(strstr(out, "digraph tree {"));
    assert_non_null(strstr(out, "n0 -> n1 [label=\"<= 2.45\"]"));
    snprintf(args, sizeof args, "show %s --format rules", model);
    assert_int_equal(tl_test_cli(args, out, sizeof out, errb, sizeof errb), 0);
    assert_non_null(strstr(out, "IF petallength <= 2.45 THEN class = Iris-setosa (50.0)\n"));

    /* the saved model predicts what scikit-learn's tree predicts on its training rows */
    snprintf(args, sizeof args, "predict %s experiments/datasets/iris.arff --proba", model);
    assert_int_equal(tl_test_cli(args, out, sizeof out, errb, sizeof errb), 0);
    assert_non_null(strstr(out, "row,predicted,p_Iris-setosa,p_Iris-versicolor,p_Iris-virginica\n"
                                "1,Iris-setosa,1,0,0\n"));
    FILE *f = fopen(tl_test_path("tests/fixtures/sklearn_cart_iris.txt"), "r");
    char line[4096];
    int sk[150], n = 0;
    while (fgets(line, sizeof line, f))
        if (!strncmp(line, "predictions ", 12))
            for (char *t = strtok(line + 12, " \n"); t && n < 150; t = strtok(NULL, " \n"))
                sk[n++] = atoi(t);
    fclose(f);
    assert_int_equal(n, 150);
    const char *names[] = {"Iris-setosa", "Iris-versicolor", "Iris-virginica"};
    char *p = strchr(out, '\n') + 1;
    for (int i = 0; i < 150; i++) {
        char want[64];
        snprintf(want, sizeof want, "%d,%s,", i + 1, names[sk[i]]);
        assert_memory_equal(p, want, strlen(want));
        p = strchr(p, '\n') + 1;
    }
    remove(model);
}

static void test_regression_predict_values(void **state)
{
    (void)state;
    const char *model = "/tmp/tl_test_cli_eng.model";
    char args[512];
    snprintf(
        args, sizeof args,
        "fit experiments/datasets/engagement-regression.csv --algo cart --set max_depth=2 -o %s",
        model);
    assert_int_equal(tl_test_cli(args, out, sizeof out, errb, sizeof errb), 0);
    snprintf(args, sizeof args, "predict %s experiments/datasets/engagement-regression.csv", model);
    assert_int_equal(tl_test_cli(args, out, sizeof out, errb, sizeof errb), 0);
    /* leaves 7, 6, 1.333, 4.5 (seed 001, figure 9.26) for ages 10, 20..30, 40..60, 70..80 */
    assert_non_null(strstr(out, "row,predicted\n1,7\n2,6\n3,6\n4,1.3333333333333333\n"));
    assert_non_null(strstr(out, "7,4.5\n8,4.5\n"));
    remove(model);
}

/* A class name with a comma is one quoted CSV field, in the probability header too (it was
 * written p_"a,b", two fields). */
static void test_predict_quoted_classes(void **state)
{
    (void)state;
    const char *model = "/tmp/tl_test_cli_quoted.model";
    char args[512], data[256];
    snprintf(data, sizeof data, "%s",
             tl_test_tmpfile(".csv", "x,y\n1,\"a,b\"\n2,\"a,b\"\n8,c\n9,c\n"));
    snprintf(args, sizeof args, "fit %s --algo cart -o %s", data, model);
    assert_int_equal(tl_test_cli(args, out, sizeof out, errb, sizeof errb), 0);
    snprintf(args, sizeof args, "predict %s %s --proba", model, data);
    assert_int_equal(tl_test_cli(args, out, sizeof out, errb, sizeof errb), 0);
    assert_non_null(strstr(out, "row,predicted,\"p_a,b\",p_c\n1,\"a,b\",1,0\n"));
    /* --digits N: N decimals; outside 0..17 refused */
    snprintf(args, sizeof args, "predict %s %s --proba --digits 3", model, data);
    assert_int_equal(tl_test_cli(args, out, sizeof out, errb, sizeof errb), 0);
    assert_non_null(strstr(out, "\n1,\"a,b\",1.000,0.000\n"));
    snprintf(args, sizeof args, "predict %s %s --proba --digits 18", model, data);
    assert_int_equal(tl_test_cli(args, out, sizeof out, errb, sizeof errb), 1);
    assert_non_null(strstr(errb, "--digits"));
    remove(model);
    remove(data);
}

/* Data to predict needs no class: a CSV without the column, unknown classes ('?'), and a
 * regression file without its target. */
static void test_predict_unlabelled(void **state)
{
    (void)state;
    const char *model = "/tmp/tl_test_cli_unl.model";
    char args[512];
    snprintf(args, sizeof args, "fit experiments/datasets/iris.arff --algo cart -o %s", model);
    assert_int_equal(tl_test_cli(args, out, sizeof out, errb, sizeof errb), 0);
    const char *csv = tl_test_tmpfile(".csv", "petalwidth,petallength,sepalwidth,sepallength\n"
                                              "0.2,1.4,3.5,5.1\n2.3,5.7,3.2,6.9\n");
    snprintf(args, sizeof args, "predict %s %s", model, csv);
    assert_int_equal(tl_test_cli(args, out, sizeof out, errb, sizeof errb), 0);
    assert_string_equal(out, "row,predicted\n1,Iris-setosa\n2,Iris-virginica\n");
    remove(csv);
    const char *arff =
        tl_test_tmpfile(".arff", "@relation q\n@attribute sepallength numeric\n"
                                 "@attribute sepalwidth numeric\n@attribute petallength numeric\n"
                                 "@attribute petalwidth numeric\n"
                                 "@attribute class {Iris-setosa,Iris-versicolor,Iris-virginica}\n"
                                 "@data\n5.1,3.5,1.4,0.2,?\n6.9,3.2,5.7,2.3,?\n");
    snprintf(args, sizeof args, "predict %s %s", model, arff);
    assert_int_equal(tl_test_cli(args, out, sizeof out, errb, sizeof errb), 0);
    assert_string_equal(out, "row,predicted\n1,Iris-setosa\n2,Iris-virginica\n");
    remove(arff);
    remove(model);

    snprintf(
        args, sizeof args,
        "fit experiments/datasets/engagement-regression.csv --algo cart --set max_depth=2 -o %s",
        model);
    assert_int_equal(tl_test_cli(args, out, sizeof out, errb, sizeof errb), 0);
    csv = tl_test_tmpfile(".csv", "age\n10\n75\n");
    snprintf(args, sizeof args, "predict %s %s", model, csv);
    assert_int_equal(tl_test_cli(args, out, sizeof out, errb, sizeof errb), 0);
    assert_string_equal(out, "row,predicted\n1,7\n2,4.5\n");
    remove(csv);
    remove(model);
}

static void test_path_matches_sklearn_alphas(void **state)
{
    (void)state;
    assert_int_equal(
        tl_test_cli("path experiments/datasets/iris.arff", out, sizeof out, errb, sizeof errb), 0);
    assert_non_null(strstr(out, "alpha,leaves,risk\n0,9,0\n"));
    /* 0.006521739130434777 (scikit-learn) and the last, 0.3333333333333334, at the root */
    assert_non_null(strstr(out, "0.00652173913043"));
    assert_non_null(strstr(out, "0.33333333333333"));
    assert_int_equal(tl_test_cli("path experiments/datasets/iris.arff --cv 5 --seed 3", out,
                                 sizeof out, errb, sizeof errb),
                     0);
    assert_non_null(strstr(out, "alpha,leaves,risk,cv_error,cv_se\n"));
    /* the root alone misclassifies two thirds of iris, in CV too */
    assert_non_null(strstr(out, ",1,0.66666666666666"));
}

static void test_cv_csv(void **state)
{
    (void)state;
    assert_int_equal(tl_test_cli("cv experiments/datasets/iris.arff --algo cart --csv --seed 1",
                                 out, sizeof out, errb, sizeof errb),
                     0);
    assert_non_null(strstr(out, "dataset,algorithm,folds,repeats,accuracy_mean,accuracy_sd,"
                                "leaves_mean,depth_mean\niris,cart,10,1,"));
    double acc = strtod(strstr(out, "iris,cart,10,1,") + 15, NULL);
    assert_true(acc > 0.92 && acc < 0.97);
}

static void test_errors_exit_1_with_choices(void **state)
{
    (void)state;
    assert_int_equal(tl_test_cli("fit experiments/datasets/iris.arff --algo c99 -o /tmp/x", out,
                                 sizeof out, errb, sizeof errb),
                     1);
    assert_non_null(strstr(errb, "unknown algorithm 'c99'; valid algorithms: id3, cart"));
    assert_int_equal(tl_test_cli("fit experiments/datasets/iris.arff --algo cart --set depth=3 -o "
                                 "/tmp/x",
                                 out, sizeof out, errb, sizeof errb),
                     1);
    assert_non_null(strstr(errb, "unknown parameter 'depth'; valid parameters: ccp_alpha"));
    assert_non_null(strstr(errb, "criterion, numeric, nominal, pruner, missing, max_depth"));
    assert_int_equal(tl_test_cli("fit experiments/datasets/iris.arff --algo cart --set "
                                 "criterion=mse -o /tmp/x",
                                 out, sizeof out, errb, sizeof errb),
                     1);
    assert_non_null(strstr(errb, "criterion mse needs a numeric target"));
    /* the reason, not just "cannot read the file" */
    assert_int_equal(tl_test_cli("show /nonexistent.model", out, sizeof out, errb, sizeof errb), 1);
    assert_non_null(strstr(errb, "/nonexistent.model: cannot read the model file (No such file "
                                 "or directory)"));
    assert_int_equal(tl_test_cli("show experiments", out, sizeof out, errb, sizeof errb), 1);
    assert_non_null(strstr(errb, "experiments: cannot read the model file (it is a directory)"));
    const char *bad =
        tl_test_tmpfile(".model", "format = 1;\nalgorithm = \"cart\";\nstate = = {};\n");
    char args[512];
    snprintf(args, sizeof args, "show %s", bad);
    assert_int_equal(tl_test_cli(args, out, sizeof out, errb, sizeof errb), 1);
    /* the line of the syntax error and its text */
    assert_non_null(strstr(errb, ":3: syntax error at `state = = {};`"));
    remove(bad);
    assert_int_equal(tl_test_cli("path experiments/datasets/iris.arff --cv 1", out, sizeof out,
                                 errb, sizeof errb),
                     1);
    assert_non_null(strstr(errb, "--cv: 1 is out of range"));
    assert_int_equal(tl_test_cli("fit --algo cart --help", out, sizeof out, errb, sizeof errb), 0);
    assert_non_null(strstr(out, "ccp_alpha"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fit_show_predict_round_trip),
        cmocka_unit_test(test_regression_predict_values),
        cmocka_unit_test(test_predict_unlabelled),
        cmocka_unit_test(test_predict_quoted_classes),
        cmocka_unit_test(test_path_matches_sklearn_alphas),
        cmocka_unit_test(test_cv_csv),
        cmocka_unit_test(test_errors_exit_1_with_choices),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
