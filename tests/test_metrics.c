/* Metrics: a hand-computed confusion matrix and values recorded from sklearn.metrics. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tl_test_util.h"
#include "treelab/tl_metrics.h"

/* The hand example: 20 predictions over 3 classes, confusion (row true, column predicted)
 *          p0 p1 p2 | row
 *     t0 [  5  1  0 ]   6
 *     t1 [  2  3  1 ]   6
 *     t2 [  0  2  6 ]   8
 *    col    7  6  7    n = 20, trace 14
 * accuracy 14/20 = 0.7
 * recall 5/6, 3/6, 6/8; balanced accuracy (5/6 + 1/2 + 3/4) / 3 = 25/36
 * precision 5/7, 3/6, 6/7
 * F1 = 2 tp / (row + col): 10/13, 6/12, 12/15; macro (10/13 + 1/2 + 4/5) / 3 = 269/390
 * weighted (6 * 10/13 + 6 * 1/2 + 8 * 4/5) / 20 = (60/13 + 9.4) / 20 = 182.2/260
 * kappa: po = 0.7, pe = (6*7 + 6*6 + 8*7) / 400 = 134/400; (0.7 - 0.335) / 0.665 = 73/133 */
static void hand_predictions(int truth[20], int pred[20])
{
    static const int cells[3][3] = {{5, 1, 0}, {2, 3, 1}, {0, 2, 6}};
    size_t i = 0;
    for (int t = 0; t < 3; t++)
        for (int p = 0; p < 3; p++)
            for (int c = 0; c < cells[t][p]; c++, i++) {
                truth[i] = t;
                pred[i] = p;
            }
    assert_int_equal(i, 20);
}

static void test_hand_confusion(void **state)
{
    (void)state;
    int truth[20], pred[20];
    hand_predictions(truth, pred);
    tl_err err;
    tl_class_metrics m;
    assert_int_equal(tl_class_metrics_compute(truth, pred, NULL, 20, 3, &m, &err), TL_OK);
    assert_close(m.accuracy, 0.7, 1e-15);
    assert_close(m.balanced_accuracy, 25.0 / 36, 1e-15);
    assert_close(m.f1_macro, 269.0 / 390, 1e-15);
    assert_close(m.f1_weighted, 182.2 / 260, 1e-15);
    assert_close(m.kappa, 73.0 / 133, 1e-15);
    assert_true(isnan(m.log_loss));

    tl_confusion c;
    assert_int_equal(tl_confusion_init(&c, 3, &err), TL_OK);
    tl_confusion_add(&c, truth, pred, NULL, 20);
    assert_close(c.m[0 * 3 + 1], 1, 0);
    assert_close(c.m[2 * 3 + 2], 6, 0);
    double p[3], r[3], f[3];
    tl_confusion_per_class(&c, p, r, f);
    const double ep[] = {5.0 / 7, 0.5, 6.0 / 7}, er[] = {5.0 / 6, 0.5, 0.75},
                 ef[] = {10.0 / 13, 0.5, 0.8};
    for (size_t j = 0; j < 3; j++) {
        assert_close(p[j], ep[j], 1e-15);
        assert_close(r[j], er[j], 1e-15);
        assert_close(f[j], ef[j], 1e-15);
    }
    /* the same scores from the matrix, and from weights: doubling every weight changes none */
    tl_class_metrics w;
    double weight[20];
    for (size_t i = 0; i < 20; i++)
        weight[i] = 2;
    tl_confusion_add(&c, truth, pred, weight, 20);
    assert_close(c.m[2 * 3 + 2], 18, 0);
    assert_int_equal(tl_confusion_scores(&c, &w, &err), TL_OK);
    assert_close(w.accuracy, m.accuracy, 1e-15);
    assert_close(w.kappa, m.kappa, 1e-15);
    assert_close(w.f1_weighted, m.f1_weighted, 1e-15);
    tl_confusion_free(&c);
    tl_confusion_free(&c); /* safe twice */
}

/* p(true) = 0.5, 0.25 and 0 (clipped to 1e-15): log loss (log 2 + log 4 + 15 log 10) / 3. */
static void test_hand_log_loss(void **state)
{
    (void)state;
    int truth[] = {0, 1, 1}, pred[] = {0, 0, 0};
    double proba[] = {0.5, 0.5, 0.75, 0.25, 1.0, 0.0};
    tl_class_metrics m;
    tl_err err;
    assert_int_equal(tl_class_metrics_compute(truth, pred, proba, 3, 2, &m, &err), TL_OK);
    assert_close(m.log_loss, (3 * log(2.0) + 15 * log(10.0)) / 3, 1e-12);
    assert_close(m.accuracy, 1.0 / 3, 1e-15);
    /* chance agreement 1: everything true and predicted 0 */
    int z[] = {0, 0};
    assert_int_equal(tl_class_metrics_compute(z, z, NULL, 2, 2, &m, &err), TL_OK);
    assert_true(isnan(m.kappa));
    assert_close(m.accuracy, 1, 0);
    int bad[] = {0, 2};
    assert_int_equal(tl_class_metrics_compute(z, bad, NULL, 2, 2, &m, &err), TL_EINVAL);
    assert_int_equal(tl_class_metrics_compute(z, z, NULL, 0, 2, &m, &err), TL_EINVAL);
}

/* Regression by hand: truth 1 2 3 4, pred 1 3 3 2: errors 0 -1 0 2;
 * MSE 5/4, RMSE sqrt(5)/2, MAE 3/4, SST = 5 (mean 2.5), R2 = 1 - 5/5 = 0. */
static void test_hand_regression(void **state)
{
    (void)state;
    double t[] = {1, 2, 3, 4}, p[] = {1, 3, 3, 2};
    tl_reg_metrics r;
    tl_reg_metrics_compute(t, p, 4, &r);
    assert_close(r.mse, 1.25, 1e-15);
    assert_close(r.rmse, sqrt(5.0) / 2, 1e-15);
    assert_close(r.mae, 0.75, 1e-15);
    assert_close(r.r2, 0, 1e-15);
    double c[] = {2, 2}; /* constant truth: 0, or 1 when predicted exactly (sklearn) */
    tl_reg_metrics_compute(c, p, 2, &r);
    assert_close(r.r2, 0, 0);
    tl_reg_metrics_compute(c, c, 2, &r);
    assert_close(r.r2, 1, 0);
}

/* ---- tests/fixtures/sklearn_metrics.txt (scripts/peers/sklearn_metrics.py) ---- */

static void expect_word(FILE *f, const char *want)
{
    char w[64];
    assert_int_equal(fscanf(f, "%63s", w), 1);
    if (strcmp(w, want) != 0)
        fail_msg("fixture: expected '%s', found '%s'", want, w);
}

static double read_value(FILE *f, const char *name)
{
    double v;
    expect_word(f, name);
    assert_int_equal(fscanf(f, "%lf", &v), 1);
    return v;
}

static void read_doubles(FILE *f, const char *name, double *v, size_t n)
{
    expect_word(f, name);
    for (size_t i = 0; i < n; i++)
        assert_int_equal(fscanf(f, "%lf", &v[i]), 1);
}

static void read_ints(FILE *f, const char *name, int *v, size_t n)
{
    expect_word(f, name);
    for (size_t i = 0; i < n; i++)
        assert_int_equal(fscanf(f, "%d", &v[i]), 1);
}

static void check_class_case(FILE *f)
{
    size_t k, n;
    assert_int_equal(fscanf(f, "%zu %zu", &k, &n), 2);
    int *truth = malloc(n * sizeof *truth), *pred = malloc(n * sizeof *pred);
    double *proba = malloc(n * k * sizeof *proba), *per = malloc(6 * k * sizeof *per);
    read_ints(f, "truth", truth, n);
    read_ints(f, "pred", pred, n);
    read_doubles(f, "proba", proba, n * k);
    tl_class_metrics m;
    tl_err err;
    assert_int_equal(tl_class_metrics_compute(truth, pred, proba, n, k, &m, &err), TL_OK);
    assert_close(m.accuracy, read_value(f, "accuracy"), 1e-12);
    assert_close(m.balanced_accuracy, read_value(f, "balanced_accuracy"), 1e-12);
    assert_close(m.kappa, read_value(f, "kappa"), 1e-12);
    assert_close(m.f1_macro, read_value(f, "f1_macro"), 1e-12);
    assert_close(m.f1_weighted, read_value(f, "f1_weighted"), 1e-12);
    assert_close(m.log_loss, read_value(f, "log_loss"), 1e-12);
    tl_confusion c;
    assert_int_equal(tl_confusion_init(&c, k, &err), TL_OK);
    tl_confusion_add(&c, truth, pred, NULL, n);
    tl_confusion_per_class(&c, per, per + k, per + 2 * k);
    read_doubles(f, "precision", per + 3 * k, k);
    read_doubles(f, "recall", per + 4 * k, k);
    read_doubles(f, "f1", per + 5 * k, k);
    for (size_t i = 0; i < 3 * k; i++)
        assert_close(per[i], per[3 * k + i], 1e-12);
    tl_confusion_free(&c);
    free(truth);
    free(pred);
    free(proba);
    free(per);
}

static void check_reg_case(FILE *f)
{
    size_t n;
    assert_int_equal(fscanf(f, "%zu", &n), 1);
    double *t = malloc(n * sizeof *t), *p = malloc(n * sizeof *p);
    read_doubles(f, "truth", t, n);
    read_doubles(f, "pred", p, n);
    tl_reg_metrics r;
    tl_reg_metrics_compute(t, p, n, &r);
    assert_close(r.mse, read_value(f, "mse"), 1e-12);
    assert_close(r.rmse, read_value(f, "rmse"), 1e-12);
    assert_close(r.mae, read_value(f, "mae"), 1e-12);
    assert_close(r.r2, read_value(f, "r2"), 1e-12);
    free(t);
    free(p);
}

static void test_sklearn_fixture(void **state)
{
    (void)state;
    FILE *f = fopen(tl_test_path("tests/fixtures/sklearn_metrics.txt"), "r");
    assert_non_null(f);
    char line[256];
    assert_non_null(fgets(line, sizeof line, f)); /* comment */
    char w[64];
    size_t n_class = 0, n_reg = 0;
    while (fscanf(f, "%63s", w) == 1) {
        if (strcmp(w, "class") == 0) {
            check_class_case(f);
            n_class++;
        } else if (strcmp(w, "reg") == 0) {
            check_reg_case(f);
            n_reg++;
        } else {
            fail_msg("fixture: unexpected '%s'", w);
        }
    }
    assert_int_equal(n_class, 2);
    assert_int_equal(n_reg, 1);
    fclose(f);
}

/* ---- probability metrics ---- */

/* Scores 0.1 0.4 0.4 0.8 for truth 0 0 1 1, the tie at 0.4 one point: ROC (0, 0.5), (0.5, 1),
 * (1, 1): area 0.5 * 1.5 / 2 + 0.5 = 0.875. Average precision: recall 0.5 at precision 1,
 * then recall 1 at precision 2/3: 0.5 + 0.5 * 2/3 = 5/6. Brier (0.1^2 + 0.4^2 + 0.6^2 +
 * 0.2^2) / 4 = 0.1425. Weight 0 on the tied negative: the ROC goes (0, 0.5), (0, 1), (1, 1),
 * area 1, and the precision at the tie is 1 (AP 1); Brier (0.01 + 0.36 + 0.04) / 3. */
static void test_hand_proba(void **state)
{
    (void)state;
    int truth[] = {0, 0, 1, 1};
    double proba[] = {0.9, 0.1, 0.6, 0.4, 0.6, 0.4, 0.2, 0.8};
    tl_class_metrics m;
    tl_err err;
    assert_int_equal(tl_proba_metrics_compute(truth, proba, NULL, 4, 2, &m, &err), TL_OK);
    assert_close(m.roc_auc_macro, 0.875, 1e-15);
    assert_close(m.roc_auc_weighted, 0.875, 1e-15);
    assert_close(m.pr_auc, 5.0 / 6, 1e-15);
    assert_close(m.brier, 0.1425, 1e-15);
    assert_close(m.log_loss, -(log(0.9) + log(0.6) + log(0.4) + log(0.8)) / 4, 1e-15);
    double w[] = {1, 0, 1, 1};
    assert_int_equal(tl_proba_metrics_compute(truth, proba, w, 4, 2, &m, &err), TL_OK);
    assert_close(m.roc_auc_macro, 1, 1e-15);
    assert_close(m.pr_auc, 1, 1e-15);
    assert_close(m.brier, 0.41 / 3, 1e-15);
    /* one class in the truth: no ROC; a class code outside 0..k-1 is refused */
    int zeros[] = {0, 0, 0, 0};
    assert_int_equal(tl_proba_metrics_compute(zeros, proba, NULL, 4, 2, &m, &err), TL_OK);
    assert_true(isnan(m.roc_auc_macro));
    assert_close(m.pr_auc, 0, 0);
    int bad[] = {0, 2, 0, 0};
    assert_int_equal(tl_proba_metrics_compute(bad, proba, NULL, 4, 2, &m, &err), TL_EINVAL);
    /* the confusion-only scores leave every probability metric undefined */
    assert_int_equal(tl_class_metrics_compute(truth, truth, NULL, 4, 2, &m, &err), TL_OK);
    assert_true(isnan(m.brier) && isnan(m.pr_auc) && isnan(m.roc_auc_weighted));
}

static void check_proba_case(FILE *f, char *name)
{
    size_t k, n;
    int weighted;
    assert_int_equal(fscanf(f, "%63s %zu %zu %d", name, &k, &n, &weighted), 4);
    int *truth = malloc(n * sizeof *truth);
    double *proba = malloc(n * k * sizeof *proba), *w = malloc(n * sizeof *w);
    read_ints(f, "truth", truth, n);
    read_doubles(f, "proba", proba, n * k);
    if (weighted)
        read_doubles(f, "weight", w, n);
    tl_class_metrics m;
    tl_err err;
    assert_int_equal(tl_proba_metrics_compute(truth, proba, weighted ? w : NULL, n, k, &m, &err),
                     TL_OK);
    const double got[] = {m.roc_auc_macro, m.roc_auc_weighted, m.pr_auc, m.brier, m.log_loss};
    const char *names[] = {"roc_auc_macro", "roc_auc_weighted", "pr_auc", "brier", "log_loss"};
    for (size_t j = 0; j < 5; j++) {
        double want = read_value(f, names[j]);
        if (isnan(want) != isnan(got[j]) || (!isnan(want) && !(fabs(got[j] - want) <= 1e-12)))
            fail_msg("%s: %s is %.17g, sklearn %.17g", name, names[j], got[j], want);
    }
    free(truth);
    free(proba);
    free(w);
}

/* tests/fixtures/sklearn_proba_metrics.txt (scripts/peers/sklearn_proba_metrics.py): every
 * case to 1e-12 of sklearn 1.2.1, undefined values included. */
static void test_sklearn_proba_fixture(void **state)
{
    (void)state;
    FILE *f = fopen(tl_test_path("tests/fixtures/sklearn_proba_metrics.txt"), "r");
    assert_non_null(f);
    char line[256], name[64];
    assert_non_null(fgets(line, sizeof line, f)); /* comment */
    size_t cases = 0;
    while (fscanf(f, "%63s", line) == 1) {
        assert_string_equal(line, "case");
        check_proba_case(f, name);
        cases++;
    }
    assert_int_equal(cases, 9);
    fclose(f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_hand_confusion),  cmocka_unit_test(test_hand_log_loss),
        cmocka_unit_test(test_hand_regression), cmocka_unit_test(test_sklearn_fixture),
        cmocka_unit_test(test_hand_proba),      cmocka_unit_test(test_sklearn_proba_fixture),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
