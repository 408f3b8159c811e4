/* The soft tree's leaf slot: linear leaves' objective and gradient against PyTorch's autograd
 * and finite differences, refusals, listings, model files and growth, and cross-validated
 * accuracy against PyTorch on the same folds. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "soft_tree_case.h"
#include "treelab/tl_model.h"

/* 36 cases (3 gates x full, lopsided, oblivious x classification, regression x mixture,
 * expected; balance penalty, L2 on splits and on the leaves' coefficients, row weights):
 * tests/fixtures/soft_tree/linear_gradients.txt, 1e-10, and finite differences, 1e-6. */
static void test_against_torch(void **state)
{
    (void)state;
    against_torch("tests/fixtures/soft_tree/linear_gradients.txt", &st_leaf_linear, 3);
}

/* Soft targets (distillation) go through the same leaf outputs: with A = 0 a linear net's
 * objective and its splits' and constants' gradient are the constant net's, to the bit, and
 * its coefficients' gradient is the constants' times the inputs, summed over rows (checked
 * here against finite differences). */
static void test_zero_coefficients_are_constant(void **state)
{
    (void)state;
    const char *gates[] = {"sigmoid", "smooth_step", "entmoid"};
    for (size_t g = 0; g < 3; g++)
        for (int regression = 0; regression < 2; regression++) {
            st_net c, l;
            make_net(&c, gates[g], "full", regression);
            make_net_leaf(&l, gates[g], "full", regression, &st_leaf_linear);
            size_t head = c.n_theta, extra = l.n_theta - head;
            assert_int_equal(extra, l.tree.n_leaves * l.n_out * D);
            memset(st_extra(&l), 0, extra * sizeof(double));
            memcpy(l.theta, c.theta, head * sizeof(double));
            st_objective obj = {ST_LOSS_MIXTURE, 0.3, 0.05};
            tl_err err;
            st_work wc, wl;
            assert_int_equal(st_work_alloc(&wc, &c, B, &err), TL_OK);
            assert_int_equal(st_work_alloc(&wl, &l, B, &err), TL_OK);
            double *gc = malloc(c.n_theta * sizeof *gc), *gl = malloc(l.n_theta * sizeof *gl);
            double fc = objective(&c, &wc, &obj, regression, gc);
            double fl = objective(&l, &wl, &obj, regression, gl);
            /* the row passes and, for sigmoid, the batch passes: equal to rounding */
            assert_true(fabs(fc - fl) <= 1e-13 * fabs(fc));
            for (size_t k = 0; k < head; k++)
                assert_true(fabs(gc[k] - gl[k]) <= 1e-12 * fmax(1, fabs(gc[k])));
            finite_differences(&l, &wl, &obj, regression, gl);
            free(gc);
            free(gl);
            st_work_clear(&wc);
            st_work_clear(&wl);
            st_net_clear(&c);
            st_net_clear(&l);
        }
}

static void test_refused(void **state)
{
    (void)state;
    tl_test_refused("soft_tree", "leaf", "quadratic", "valid: constant, linear");
    tl_test_refused("soft_tree", "leaf.l2", "1", "leaf constant takes no parameters");
    tl_test_refused("soft_forest", "leaf", "linear", "leaf");
    const char *const cases[][3] = {
        {"leaf=linear", "leaf.l2=-1", "l2"},
        {"leaf=linear", "precision=float", "float passes run over whole batches with leaves"},
        {"leaf=linear", "leaf.slope=1", "slope"},
    };
    refused_pairs(cases, sizeof cases / sizeof *cases);
}

/* The leaf slot is listed by `treelab plugins` and `fit --algo soft_tree --help`, not by the
 * soft forest's. */
static void test_listed(void **state)
{
    (void)state;
    static char out[1 << 17];
    assert_int_equal(tl_test_cli("plugins", out, sizeof out, NULL, 0), 0);
    assert_non_null(strstr(out, "soft_tree.leaf (set leaf = NAME"));
    assert_null(strstr(out, "soft_forest.leaf"));
    assert_int_equal(tl_test_cli("fit --algo soft_tree --help", out, sizeof out, NULL, 0), 0);
    assert_non_null(strstr(out, "  linear       each leaf's class logits"));
    assert_non_null(strstr(out, "L2 penalty 0.5 * l2 * ||A||^2"));
    assert_int_equal(tl_test_cli("fit --algo soft_forest --help", out, sizeof out, NULL, 0), 0);
    assert_null(strstr(out, "  linear       each leaf's class logits"));
}

/* Predictions of m and of its reloaded file, identical; returns m's (n x width). */
static double *same_after_reload(const tl_model *m, const tl_dataset *d)
{
    tl_model *back = tl_test_reload(m, NULL);
    size_t n = d->n_rows, k = tl_model_out_width(m);
    double *a = malloc(n * k * sizeof *a), *b = malloc(n * k * sizeof *b);
    assert_int_equal(tl_model_predict(m, d, NULL, n, a, NULL), TL_OK);
    assert_int_equal(tl_model_predict(back, d, NULL, n, b, NULL), TL_OK);
    assert_memory_equal(a, b, n * k * sizeof *a);
    free(b);
    tl_model_free(back);
    return a;
}

/* A linear-leaf tree on wine: sized as the leaf type says, its file reloads to the same
 * predictions (mixture, hard routing), the same seed gives the same file, show says so; grown
 * incrementally it keeps its leaves' coefficients. */
static void test_model_file(void **state)
{
    (void)state;
    tl_dataset *d = tl_test_load("experiments/datasets/wine.arff", NULL);
    const char *kv[] = {"leaf=linear", "gate=smooth_step", "depth=2", "epochs=20", NULL};
    tl_model *m = tl_test_fitted("soft_tree", d, kv), *again = tl_test_fitted("soft_tree", d, kv);
    char *text, *again_text;
    tl_model_free(tl_test_reload(m, &text));
    tl_model_free(tl_test_reload(again, &again_text));
    assert_string_equal(text, again_text);
    const soft_tree *st = m->state;
    assert_int_equal(st->net.n_theta, 3 * (13 + 1) + 4 * 3 * (13 + 1));
    double nonzero = 0;
    for (size_t k = 0; k < 4 * 3 * 13; k++)
        nonzero += st_extra(&st->net)[k] != 0;
    assert_true(nonzero > 100); /* trained: the coefficients moved from 0 */
    free(same_after_reload(m, d));
    char *shown = tl_test_show(m, TL_SHOW_TEXT);
    assert_non_null(strstr(shown, "linear leaves (phi + A x"));
    free(shown);
    const char *hard[] = {"leaf=linear", "predict=hard", "depth=2", "epochs=20", NULL};
    tl_model *h = tl_test_fitted("soft_tree", d, hard);
    double *p = same_after_reload(h, d);
    size_t right = 0;
    for (size_t i = 0; i < d->n_rows; i++) {
        size_t best = 0;
        for (size_t c = 1; c < 3; c++)
            best = p[i * 3 + c] > p[i * 3 + best] ? c : best;
        right += best == (size_t)d->y.code[i];
    }
    assert_true(right >= 0.95 * (double)d->n_rows);
    free(p);
    const char *grow[] = {"leaf=linear", "shape=incremental",       "depth=2",
                          "epochs=10",   "validation_fraction=0.2", NULL};
    tl_model *g = tl_test_fitted("soft_tree", d, grow);
    free(same_after_reload(g, d));
    tl_model_free(g);
    tl_model_free(h);
    free(text);
    free(again_text);
    tl_model_free(again);
    tl_model_free(m);
    tl_dataset_free(d);
}

/* Linear leaves against PyTorch trees of the same design (tests/fixtures/soft_tree/
 * linear_cv.txt, scripts/peers/torch_soft_tree_cv.py linear): iris, wine, breast cancer. */
static void test_cv_against_torch(void **state)
{
    (void)state;
    assert_true(cv_against_torch("tests/fixtures/soft_tree/linear_cv.txt", "leaf=linear") >= 4);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_against_torch), cmocka_unit_test(test_zero_coefficients_are_constant),
        cmocka_unit_test(test_refused),       cmocka_unit_test(test_listed),
        cmocka_unit_test(test_model_file),    cmocka_unit_test(test_cv_against_torch),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
