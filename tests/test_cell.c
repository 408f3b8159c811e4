/* Nested parameter selection in a cell: inner CV on the training rows, or the hold-out's
 * validation rows when there are any. */
#include <stdlib.h>
#include <string.h>

#include "tl_test_util.h"
#include "treelab/tl_experiment.h"
#include "treelab/tl_runner.h"

/* Validation accuracy of cart with max_depth = depth, fitted on tr. */
static double valid_accuracy(const tl_dataset *d, const char *depth, const size_t *tr, size_t ntr,
                             const size_t *va, size_t nva)
{
    tl_params p;
    tl_params_init(&p);
    tl_params_set(&p, "max_depth", depth, NULL);
    tl_err err;
    tl_model *m = tl_model_new("cart", &p, &err);
    tl_fit_ctx ctx = {.seed = 7};
    assert_int_equal(tl_model_fit(m, d, tr, ntr, &ctx, &err), TL_OK);
    double pred[150], right = 0;
    assert_int_equal(tl_model_predict_label(m, d, va, nva, pred, &err), TL_OK);
    for (size_t i = 0; i < nva; i++)
        right += (int)pred[i] == d->y.code[va[i]];
    tl_model_free(m);
    tl_params_clear(&p);
    return right / (double)nva;
}

static void test_selection_uses_validation_rows(void **state)
{
    (void)state;
    tl_dataset *d = tl_test_load("experiments/datasets/iris.arff", NULL);
    /* a small, lopsided training set so depths differ on the validation rows */
    size_t tr[30], va[60], ntr = 0, nva = 0;
    for (size_t i = 0; i < 150; i++) {
        if (i % 5 == 0 && ntr < 30)
            tr[ntr++] = i;
        else if (i % 5 == 1 && nva < 60)
            va[nva++] = i;
    }
    char *values[] = {"1", "2", "3"};
    tl_exp_model m;
    memset(&m, 0, sizeof m);
    m.name = "cart_sel";
    m.type = tl_model_find("cart", NULL);
    tl_params_init(&m.params);
    tl_test_select_one(&m.select, "max_depth", values, 3, 3);
    double best = -1;
    long want = -1;
    for (long v = 0; v < 3; v++) {
        double a = valid_accuracy(d, values[v], tr, ntr, va, nva);
        if (a > best)
            best = a, want = v;
    }
    long selected;
    tl_err err;
    tl_model *model = tl_cell_fit(&m, d, tr, ntr, va, nva, 7, &selected, &err);
    assert_non_null(model);
    assert_int_equal(selected, want);
    assert_int_equal(want, 1); /* depth 1 separates one class of three: depth 2 wins */
    tl_model_free(model);
    /* validation rows of one class: every depth is perfect there, so the first value wins,
     * where an inner CV of the training rows would have taken depth 2 */
    size_t setosa[10] = {1, 2, 3, 4, 6, 7, 8, 9, 11, 12};
    model = tl_cell_fit(&m, d, tr, ntr, setosa, 10, 7, &selected, &err);
    assert_non_null(model);
    assert_int_equal(selected, 0);
    tl_model_free(model);
    model = tl_cell_fit(&m, d, tr, ntr, NULL, 0, 7, &selected, &err);
    assert_non_null(model);
    assert_int_equal(selected, 1);
    tl_model_free(model);
    tl_dataset_free(d);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_selection_uses_validation_rows),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
