/* The flat API of bindings (tl_binding.h): a dataset over borrowed arrays fits and predicts
 * the same bits as the same data loaded from its file; bad arrays are refused by name; node
 * arrays, text descriptions and impurity importances. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tl_test_util.h"
#include "treelab/tl_binding.h"

/* A wrapped view of d's own arrays (names and levels copied), as a binding builds it. */
static tl_dataset *wrap_of(const tl_dataset *d)
{
    tl_err err;
    size_t na = d->schema.n_attrs;
    tl_dataset *w = tl_dataset_wrap(d->n_rows, na, &err);
    assert_non_null(w);
    for (size_t j = 0; j <= na; j++) {
        const tl_attr_info *a = tl_dataset_attr(d, j);
        int rc = a->kind == TL_ATTR_NUMERIC
                     ? tl_dataset_wrap_numeric(w, j, a->name, tl_dataset_numbers(d, j), &err)
                     : tl_dataset_wrap_nominal(w, j, a->name, tl_dataset_codes(d, j), a->n_levels,
                                               (const char *const *)a->levels, &err);
        if (rc)
            fail_msg("%s", err.msg);
    }
    assert_int_equal(tl_dataset_wrap_weights(w, tl_dataset_row_weights(d), &err), TL_OK);
    assert_int_equal(tl_dataset_rows(w), d->n_rows);
    assert_ptr_equal(tl_dataset_row_weights(w), d->weight);
    assert_int_equal(tl_dataset_wrap_check(w, &err), TL_OK);
    return w;
}

static void same_fit(const char *rel, const char *algo, const char *const *kv, size_t n_kv)
{
    tl_err err;
    tl_dataset *d = tl_test_load(rel, NULL), *w = wrap_of(d);
    tl_model *a = tl_model_new_kv(algo, kv, n_kv, &err), *b = tl_model_new_kv(algo, kv, n_kv, &err);
    assert_non_null(a);
    assert_non_null(b);
    tl_fit_ctx ctx = {.seed = 7};
    assert_int_equal(tl_model_fit(a, d, NULL, 0, &ctx, &err), TL_OK);
    assert_int_equal(tl_model_fit(b, w, NULL, 0, &ctx, &err), TL_OK);
    size_t width = tl_model_out_width(a), n = d->n_rows * width;
    double *pa = malloc(n * sizeof *pa), *pb = malloc(n * sizeof *pb);
    assert_int_equal(tl_model_predict(a, d, NULL, 0, pa, &err), TL_OK);
    assert_int_equal(tl_model_predict(b, w, NULL, 0, pb, &err), TL_OK);
    assert_memory_equal(pa, pb, n * sizeof *pa);
    /* the text a binding gets is what `treelab show` prints */
    char *ta = tl_test_show(a, TL_SHOW_TEXT), *tb = tl_model_show_text(b, TL_SHOW_TEXT, NULL, &err);
    assert_non_null(tb);
    assert_string_equal(ta, tb);
    free(ta);
    tl_text_free(tb);
    free(pa);
    free(pb);
    tl_model_free(a);
    tl_model_free(b);
    tl_dataset_wrap_free(w);
    tl_dataset_free(d);
}

static void test_wrapped_arrays_fit_and_predict_as_the_file(void **state)
{
    (void)state;
    same_fit("experiments/datasets/iris.arff", "cart", NULL, 0);
    const char *c45[] = {"pruner.confidence=0.1"};
    same_fit("experiments/datasets/vote.arff", "c45", c45, 1);           /* nominal, unknowns */
    same_fit("experiments/datasets/breast-cancer.arff", "id3", NULL, 0); /* nominal */
    same_fit("experiments/datasets/wine.arff", "gaussian_nb", NULL, 0);
    same_fit("tests/fixtures/weighted/labor-weighted.arff", "c45", NULL, 0); /* {w} weights */
}

static void expect(int rc, const tl_err *err, const char *msg)
{
    assert_int_equal(rc, TL_EINVAL);
    if (!strstr(err->msg, msg))
        fail_msg("expected '%s' in '%s'", msg, err->msg);
}

static void test_bad_arrays_are_refused_by_name(void **state)
{
    (void)state;
    tl_err err;
    assert_null(tl_dataset_wrap(0, 1, &err));
    assert_int_equal(err.code, TL_EINVAL);
    tl_dataset *w = tl_dataset_wrap(3, 1, &err);
    const int codes[] = {0, 2, TL_MISSING_CODE}, bad[] = {0, 1, -2};
    const char *levels[] = {"a", "b", "c"};
    const double x[] = {1, NAN, 3}, negw[] = {1, -1, 1}, inf[] = {1, 2, -INFINITY};
    expect(tl_dataset_wrap_nominal(w, 0, "g", bad, 3, levels, &err), &err, "row 2: code -2");
    expect(tl_dataset_wrap_nominal(w, 0, "g", codes, 2, levels, &err), &err, "row 1: code 2");
    expect(tl_dataset_wrap_check(w, &err), &err, "column 0 was not given");
    assert_int_equal(tl_dataset_wrap_nominal(w, 0, "g", codes, 3, levels, &err), TL_OK);
    expect(tl_dataset_wrap_numeric(w, 0, "g", x, &err), &err, "given twice");
    expect(tl_dataset_wrap_numeric(w, 2, "y", x, &err), &err, "column 2 outside 0..1");
    expect(tl_dataset_wrap_check(w, &err), &err, "target was not given");
    expect(tl_dataset_wrap_weights(w, negw, &err), &err, "weight of row 1 is -1");
    expect(tl_dataset_wrap_numeric(w, 1, "y", inf, &err), &err, "infinity: column y, row 2");
    assert_int_equal(tl_dataset_wrap_numeric(w, 1, "y", x, &err), TL_OK);
    assert_int_equal(tl_dataset_wrap_check(w, &err), TL_OK);
    tl_dataset_wrap_free(w);
    const char *kv[] = {"max_depth"};
    assert_null(tl_model_new_kv("cart", kv, 1, &err));
    expect(err.code, &err, "expected key=value, got 'max_depth'");
    const char *range[] = {"pruner=error_based", "pruner.confidence=7"};
    assert_null(tl_model_new_kv("tree", range, 2, &err));
    expect(err.code, &err, "confidence");
}

/* The smoothing toy: attribute g splits the root (6 a, 4 b) into (3, 1) and (3, 3) (level e
 * holds no row); attribute n is noise no tree splits on. Gini decrease 4.8 - 1.5 - 3 = 0.3,
 * all of it g's: importances (1, 0). */
static void test_node_arrays_and_importances(void **state)
{
    (void)state;
    tl_dataset *d = tl_test_load_text(".arff",
                                      "@relation t\n@attribute n numeric\n@attribute g {l,r,e}\n"
                                      "@attribute class {a,b}\n@data\n"
                                      "1,l,a\n1,l,a\n1,l,a\n1,l,b\n1,r,a\n1,r,a\n1,r,a\n1,r,b\n"
                                      "1,r,b\n1,r,b\n",
                                      NULL);
    const char *kv[] = {"nominal=nominal_multiway"};
    tl_err err;
    tl_model *m = tl_model_new_kv("tree", kv, 1, &err);
    assert_non_null(m);
    tl_fit_ctx ctx = {.seed = 1};
    assert_int_equal(tl_model_fit(m, d, NULL, 0, &ctx, &err), TL_OK);
    const tl_tree *t = tl_model_tree(m);
    assert_int_equal(t->n_nodes, 4);
    int attr[4], kind[4];
    double thr[4], wt[4], val[8];
    int64_t first[4], nch[4];
    tl_tree_arrays(t, attr, kind, thr, first, nch, wt, val);
    assert_int_equal(attr[0], 1);
    assert_int_equal(kind[0], TL_SPLIT_MULTIWAY);
    assert_true(isnan(thr[0]));
    assert_int_equal(first[0], 1);
    assert_int_equal(nch[0], 3);
    assert_int_equal(first[1], -1);
    assert_int_equal(nch[1], 0);
    assert_int_equal(kind[1], -1);
    assert_true(wt[0] == 10 && wt[1] == 4 && wt[2] == 6 && wt[3] == 0);
    assert_true(val[0] == 6 && val[1] == 4 && val[2] == 3 && val[3] == 1 && val[4] == 3 &&
                val[5] == 3 && val[6] == 0 && val[7] == 0);
    double imp[2];
    assert_int_equal(tl_tree_importances(t, NULL, 2, imp, &err), TL_OK);
    assert_true(imp[0] == 0 && imp[1] == 1);
    /* a partition criterion has no impurity to decrease */
    expect(tl_tree_importances(t, tl_criterion_find("hellinger", NULL), 2, imp, &err), &err,
           "no impurity form");
    expect(tl_tree_importances(t, NULL, 1, imp, &err), &err, "attribute 1 of 1");
    tl_model_free(m);
    tl_dataset_free(d);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_wrapped_arrays_fit_and_predict_as_the_file),
        cmocka_unit_test(test_bad_arrays_are_refused_by_name),
        cmocka_unit_test(test_node_arrays_and_importances),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
