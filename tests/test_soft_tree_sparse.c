/* The soft tree's sparse shape: objective and gradient (L1 on the split weights) against
 * PyTorch's autograd and finite differences, exact zeros from the proximal step, `show`
 * listing each split's attributes, refusals, and cross-validated accuracy against PyTorch on
 * the same folds. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "soft_tree_case.h"
#include "treelab/tl_model.h"

/* 12 cases (3 gates x the full depth-2 tree x classification, regression x mixture,
 * expected; L1 0.04 besides the penalty, L2 and row weights): tests/fixtures/soft_tree/
 * sparse_gradients.txt, 1e-10, and finite differences, 1e-6. */
static void test_against_torch(void **state)
{
    (void)state;
    against_torch("tests/fixtures/soft_tree/sparse_gradients.txt", NULL, 1);
}

/* The proximal step by hand: l1 0.5, step 0.1 moves each weight 0.05 towards 0 and stops
 * there. */
static void test_prox(void **state)
{
    (void)state;
    double par[1] = {0.5}, W[5] = {0.2, -0.2, 0.03, -0.05, 0}, g[5] = {0};
    assert_true(fabs(st_shape_sparse.penalty(par, W, 5, g) - 0.5 * 0.48) < 1e-15);
    assert_true(g[0] == 0.5 && g[1] == -0.5 && g[2] == 0.5 && g[3] == -0.5 && g[4] == 0);
    st_shape_sparse.prox(par, 0.1, W, 5);
    assert_true(fabs(W[0] - 0.15) < 1e-15 && fabs(W[1] + 0.15) < 1e-15);
    assert_true(W[2] == 0 && W[3] == 0 && W[4] == 0);
}

static void test_refused(void **state)
{
    (void)state;
    tl_test_refused("soft_tree", "shape.l1", "1", "shape full takes no parameters");
    tl_test_refused("soft_forest", "shape", "sparse", "the forest's trees are full or oblivious");
    const char *const cases[][3] = {
        {"shape=sparse", "shape.l1=-1", "l1"},
        {"shape=sparse", "grow=incremental", "incremental growth adds one split at a time"},
    };
    refused_pairs(cases, sizeof cases / sizeof *cases);
}

static void test_listed(void **state)
{
    (void)state;
    static char out[1 << 17];
    assert_int_equal(tl_test_cli("plugins", out, sizeof out, NULL, 0), 0);
    assert_non_null(strstr(out, "  sparse "));
    assert_int_equal(tl_test_cli("fit --algo soft_tree --help", out, sizeof out, NULL, 0), 0);
    assert_non_null(strstr(out, "  sparse       full tree whose splits read few attributes"));
    assert_int_equal(tl_test_cli("fit --algo soft_forest --help", out, sizeof out, NULL, 0), 0);
    assert_null(strstr(out, "  sparse       full tree whose splits read few attributes"));
}

/* A sparse tree on wine (13 inputs): most split weights exactly 0, show lists the inputs each
 * split reads (and counts them as it does), the file reloads to the same predictions and the
 * same seed gives the same file. */
static void test_model_file(void **state)
{
    (void)state;
    tl_dataset *d = tl_test_load("experiments/datasets/wine.arff", NULL);
    const char *kv[] = {"shape=sparse", "shape.l1=0.05", "depth=2", "epochs=30", NULL};
    tl_model *m = tl_test_fitted("soft_tree", d, kv), *again = tl_test_fitted("soft_tree", d, kv);
    const soft_tree *st = m->state;
    size_t zeros = 0, n = st->net.n_split * st->net.n_in;
    for (size_t k = 0; k < n; k++)
        zeros += st_W(&st->net)[k] == 0;
    assert_true(zeros > n / 2);
    char *shown = tl_test_show(m, TL_SHOW_TEXT), *at = shown;
    size_t listed = 0, read_total = 0;
    while ((at = strstr(at, "; reads "))) {
        size_t r, of;
        assert_int_equal(sscanf(at, "; reads %zu of %zu inputs", &r, &of), 2);
        assert_int_equal(of, 13);
        read_total += r;
        listed++;
        at++;
    }
    assert_int_equal(listed, 3);
    assert_int_equal(read_total, n - zeros);
    free(shown);
    char *text, *again_text;
    tl_model *back = tl_test_reload(m, &text);
    tl_model_free(tl_test_reload(again, &again_text));
    assert_string_equal(text, again_text);
    size_t rows = d->n_rows, k = tl_model_out_width(m);
    double *a = malloc(rows * k * sizeof *a), *b = malloc(rows * k * sizeof *b);
    assert_int_equal(tl_model_predict(m, d, NULL, rows, a, NULL), TL_OK);
    assert_int_equal(tl_model_predict(back, d, NULL, rows, b, NULL), TL_OK);
    assert_memory_equal(a, b, rows * k * sizeof *a);
    free(a);
    free(b);
    free(text);
    free(again_text);
    tl_model_free(back);
    tl_model_free(again);
    tl_model_free(m);
    tl_dataset_free(d);
}

/* Sparse trees against PyTorch trees of the same design with the same proximal step
 * (tests/fixtures/soft_tree/sparse_cv.txt, scripts/peers/torch_soft_tree_cv.py sparse). */
static void test_cv_against_torch(void **state)
{
    (void)state;
    assert_true(cv_against_torch("tests/fixtures/soft_tree/sparse_cv.txt", NULL) >= 4);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_against_torch), cmocka_unit_test(test_prox),
        cmocka_unit_test(test_refused),       cmocka_unit_test(test_listed),
        cmocka_unit_test(test_model_file),    cmocka_unit_test(test_cv_against_torch),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
