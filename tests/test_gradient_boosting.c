/* gradient_boosting and adaboost against scikit-learn 1.2.1's GradientBoostingClassifier/
 * Regressor and AdaBoostClassifier (tests/fixtures/sklearn_gradient_boosting.txt and
 * sklearn_adaboost.txt, recorded by scripts/peers/sklearn_gradient_boosting.py and
 * sklearn_adaboost.py):
 * predict_proba / predict to 1e-9 on every recorded case, feature_importances_ to 1e-12 where
 * scikit-learn's own do not move with random_state;
 * early stopping, model files and refused parameters. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tl_test_util.h"

/* Reads numbers after the first `skip` words of line into v (at most max). */
static size_t numbers(const char *line, int skip, double *v, size_t max)
{
    const char *p = line;
    for (int i = 0; i < skip; i++) {
        p = strchr(p, ' ');
        if (!p)
            return 0;
        p++;
    }
    size_t n = 0;
    char *end;
    while (n < max) {
        double x = strtod(p, &end);
        if (end == p)
            break;
        v[n++] = x;
        p = end;
    }
    return n;
}

typedef struct gb_case {
    char name[64], file[64], target[32], loss[32], kv[8][64];
    const char *kvp[9];
} gb_case;

/* key0: what the fourth word names (loss, algorithm); depth: the depth's parameter. */
static void parse_case(const char *line, gb_case *c, const char *key0, const char *depth_key)
{
    char n_est[16], lr[32], depth[16], rest[256] = "";
    int got = sscanf(line, "case %63s %63s %31s %31s %15s %31s %15s %255[^\n]", c->name, c->file,
                     c->target, c->loss, n_est, lr, depth, rest);
    assert_true(got >= 7);
    int i = 0;
    snprintf(c->kv[i++], 64, "%s=%s", key0, c->loss);
    snprintf(c->kv[i++], 64, "n_estimators=%s", n_est);
    snprintf(c->kv[i++], 64, "learning_rate=%s", lr);
    snprintf(c->kv[i++], 64, "%s=%s", depth_key, depth);
    for (char *save = NULL, *tok = strtok_r(rest, " ", &save); tok && i < 8;
         tok = strtok_r(NULL, " ", &save))
        snprintf(c->kv[i++], 64, "%s", tok);
    for (int j = 0; j < i; j++)
        c->kvp[j] = c->kv[j];
    c->kvp[i] = NULL;
}

/* Every case of a fixture fitted by algo and compared; the numbers of cases of each task. */
typedef struct tally {
    size_t cases, binary, multi, regression, with_imp;
} tally;

static tally check_fixture(const char *rel, const char *algo, const char *key0,
                           const char *depth_key, double out_tol, double imp_tol)
{
    FILE *f = fopen(tl_test_path(rel), "r");
    assert_non_null(f);
    char line[1 << 16];
    gb_case c;
    tl_dataset *d = NULL;
    tl_model *m = NULL;
    double *pred = NULL, v[64];
    size_t width = 0, cases = 0, binary = 0, multi = 0, regression = 0, rows_checked = 0;
    size_t with_imp = 0;
    double worst_p = 0, worst_imp = 0;
    while (fgets(line, sizeof line, f)) {
        if (!strncmp(line, "case ", 5)) {
            tl_model_free(m);
            tl_dataset_free(d);
            free(pred);
            parse_case(line, &c, key0, depth_key);
            d = tl_test_load_sklearn(c.file, c.target);
            m = tl_test_fitted(algo, d, c.kvp);
            width = tl_model_out_width(m);
            pred = malloc(d->n_rows * width * sizeof *pred);
            tl_err err;
            assert_int_equal(tl_model_predict(m, d, NULL, 0, pred, &err), TL_OK);
            cases++;
            size_t k = tl_dataset_n_classes(d);
            binary += k == 2;
            multi += k > 2;
            regression += k == 0;
        } else if (!strncmp(line, "importances ", 12)) {
            const tl_ensemble *e = tl_model_ensemble(m);
            size_t n = numbers(line, 1, v, 64);
            assert_int_equal(n, e->n_attrs);
            with_imp++;
            for (size_t a = 0; a < n; a++) {
                double gap = fabs(e->importances[a] - v[a]);
                worst_imp = gap > worst_imp ? gap : worst_imp;
                if (gap > imp_tol)
                    fail_msg("%s: importance %zu = %.17g, scikit-learn %.17g", c.name, a,
                             e->importances[a], v[a]);
            }
        } else if (!strncmp(line, "row ", 4)) {
            size_t r = (size_t)strtoul(line + 4, NULL, 10);
            assert_int_equal(numbers(line, 2, v, 64), width);
            for (size_t j = 0; j < width; j++) {
                double gap = fabs(pred[r * width + j] - v[j]);
                worst_p = gap > worst_p ? gap : worst_p;
                if (gap > out_tol)
                    fail_msg("%s: row %zu output %zu = %.17g, scikit-learn %.17g", c.name, r, j,
                             pred[r * width + j], v[j]);
            }
            rows_checked++;
        } else if (!strncmp(line, "label ", 6)) {
            size_t r, label;
            assert_int_equal(sscanf(line, "label %zu %zu", &r, &label), 2);
            double got;
            tl_err err;
            assert_int_equal(tl_model_predict_label(m, d, &r, 1, &got, &err), TL_OK);
            assert_int_equal((size_t)got, label);
        }
    }
    fclose(f);
    tl_model_free(m);
    tl_dataset_free(d);
    free(pred);
    print_message("%s: %zu cases (%zu binary, %zu multinomial, %zu regression), %zu rows: "
                  "outputs within %.3g; importances of %zu cases within %.3g of scikit-learn\n",
                  algo, cases, binary, multi, regression, rows_checked, worst_p, with_imp,
                  worst_imp);
    return (tally){cases, binary, multi, regression, with_imp};
}

static void test_equals_scikit_learn(void **state)
{
    (void)state;
    tally t = check_fixture("tests/fixtures/sklearn_gradient_boosting.txt", "gradient_boosting",
                            "loss", "max_depth", 1e-9, 1e-12);
    assert_true(t.cases >= 6 && t.binary >= 1 && t.multi >= 1 && t.regression >= 1 &&
                t.with_imp >= 3);
}

/* AdaBoost's SAMME and SAMME.R over stumps (scripts/peers/sklearn_adaboost.py), as exact as
 * gradient boosting. */
static void test_adaboost_equals_scikit_learn(void **state)
{
    (void)state;
    tally t = check_fixture("tests/fixtures/sklearn_adaboost.txt", "adaboost", "algorithm",
                            "base.max_depth", 1e-9, 1e-12);
    assert_true(t.cases >= 4 && t.binary >= 1 && t.multi >= 1);
}

/* Early stopping keeps the stage that did not improve, as scikit-learn; the model file
 * predicts the same bits; the trace holds the training loss of every stage. */
static void test_early_stopping_and_files(void **state)
{
    (void)state;
    tl_dataset *d = tl_test_load("experiments/datasets/diabetes.arff", NULL);
    const char *kv[] = {"n_estimators=500", "n_iter_no_change=5", "learning_rate=0.3", NULL};
    tl_model *m = tl_test_fitted("gradient_boosting", d, kv);
    const tl_ensemble *e = tl_model_ensemble(m);
    const char *const *cols;
    size_t nc, nr;
    const double *t;
    assert_int_equal(m->type->trace(m->state, &cols, &nc, &t, &nr), TL_OK);
    print_message("diabetes: early stopping after %zu of 500 stages, validation loss %.6f\n", nr,
                  t[3 * (nr - 1) + 2]);
    assert_int_equal(e->n_trees, nr);
    assert_true(nr > 5 && nr < 200);
    /* the last five stages improved on none of the five before them by tol */
    double best_before = INFINITY;
    for (size_t i = nr - 10; i < nr - 5; i++)
        best_before = fmin(best_before, t[3 * i + 2]);
    assert_true(t[3 * (nr - 1) + 2] + 1e-4 >= best_before);
    /* the training loss falls stage after stage (binomial deviance) */
    for (size_t i = 1; i < nr; i++)
        assert_true(t[3 * i + 1] < t[3 * (i - 1) + 1]);
    tl_model *back = tl_test_reload(m, NULL);
    size_t n = d->n_rows;
    double *p = malloc(2 * n * sizeof *p), *q = malloc(2 * n * sizeof *q);
    tl_err err;
    assert_int_equal(tl_model_predict(m, d, NULL, 0, p, &err), TL_OK);
    assert_int_equal(tl_model_predict(back, d, NULL, 0, q, &err), TL_OK);
    assert_memory_equal(p, q, 2 * n * sizeof *p);
    free(p);
    free(q);
    tl_model_free(back);
    tl_model_free(m);
    tl_dataset_free(d);
}

static void test_bad_parameters_are_refused(void **state)
{
    (void)state;
    tl_test_refused("gradient_boosting", "n_estimators", "0",
                    "n_estimators = 0 is out of range [1");
    tl_test_refused("gradient_boosting", "base", "c45", "base = c45 fits no numeric target");
    tl_test_refused("gradient_boosting", "base", "gaussian_nb", "grows a tree");
    tl_test_refused("gradient_boosting", "subsample", "1.5", "subsample = 1.5 is out of range");
    tl_test_refused("gradient_boosting", "loss", "exponential", "log_loss|squared_error");
    tl_test_refused("gradient_boosting", "max_features", "auto", "max_features = auto; valid");
    tl_test_refused("adaboost", "algorithm", "M2", "SAMME.R|SAMME|M1");
    tl_test_refused("adaboost", "n_estimators", "0", "n_estimators = 0 is out of range [1");
    tl_test_refused("adaboost", "base", "gaussian_nb", "grows a tree");
    tl_dataset *d = tl_test_load("experiments/datasets/iris.arff", NULL);
    const char *kv[] = {"loss=huber", NULL};
    tl_err err;
    assert_null(tl_test_fit("gradient_boosting", d, kv, 1, &err));
    assert_non_null(strstr(err.msg, "needs a numeric target (use log_loss)"));
    tl_dataset_free(d);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_equals_scikit_learn),
        cmocka_unit_test(test_adaboost_equals_scikit_learn),
        cmocka_unit_test(test_early_stopping_and_files),
        cmocka_unit_test(test_bad_parameters_are_refused),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
