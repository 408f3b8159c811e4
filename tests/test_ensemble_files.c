/* Ensemble model files with packed member arrays (trees format 2): the files of format 1
 * (tests/fixtures/ensemble_format1, written by aab9927) still load to the predictions that
 * build recorded; a saved-and-loaded ensemble predicts the same bits and saves the same
 * bytes; the packed numbers read back exactly; damaged arrays are refused by element. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tl_test_util.h"
#include "treelab/tl_store.h"

static double *predict(const tl_model *m, const tl_dataset *d)
{
    size_t k = tl_model_out_width(m);
    double *p = malloc(d->n_rows * k * sizeof *p);
    tl_err err;
    assert_non_null(p);
    if (tl_model_predict(m, d, NULL, 0, p, &err))
        fail_msg("predict: %s", err.msg);
    return p;
}

/* Saved and loaded: the same bits predicted, packed members, and the loaded model saves the
 * same bytes. Returns the file's text (free it). */
static char *round_trip(const tl_model *m, const tl_dataset *d)
{
    char *t1, *t2;
    tl_model *back = tl_test_reload(m, &t1);
    tl_model_free(tl_test_reload(back, &t2));
    assert_string_equal(t1, t2);
    assert_non_null(strstr(t1, "    format = 2;\n"));
    assert_non_null(strstr(t1, "attr = \""));
    assert_null(strstr(t1, "attr = ["));
    size_t k = tl_model_out_width(m);
    double *p = predict(m, d), *q = predict(back, d);
    assert_memory_equal(p, q, d->n_rows * k * sizeof *p);
    free(p);
    free(q);
    free(t2);
    tl_model_free(back);
    return t1;
}

/* Format 1 files: the classes and probabilities that aab9927's `treelab predict --proba`
 * printed (%.17g, exact), from the file as it was and from the file saved again in format 2. */
static void test_format1_files_load_to_recorded_predictions(void **state)
{
    (void)state;
    tl_dataset *d = tl_test_load("experiments/datasets/iris.arff", NULL);
    const char *names[] = {"rf_iris", "gb_iris"};
    for (int f = 0; f < 2; f++) {
        char path[128];
        snprintf(path, sizeof path, "tests/fixtures/ensemble_format1/%s.model", names[f]);
        char *old = tl_test_slurp(path);
        assert_null(strstr(old, "format = 2")); /* the fixture is of the old form */
        assert_non_null(strstr(old, "attr = ["));
        tl_err err;
        tl_model *m = tl_model_load(path, &err);
        if (!m)
            fail_msg("%s", err.msg);
        size_t k = tl_model_out_width(m);
        assert_int_equal(k, 3);
        double *p = predict(m, d), *label = malloc(d->n_rows * sizeof *label);
        assert_int_equal(tl_model_predict_label(m, d, NULL, 0, label, &err), TL_OK);
        snprintf(path, sizeof path, "tests/fixtures/ensemble_format1/%s.csv", names[f]);
        char *csv = tl_test_slurp(path), *save = NULL;
        size_t row = 0;
        for (char *line = strtok_r(csv, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
            if (!strncmp(line, "row,", 4))
                continue;
            assert_true(row < d->n_rows);
            char *name = strchr(line, ',') + 1, *c = strchr(name, ',') + 1;
            const char *want = d->schema.target.levels[(size_t)label[row]];
            if (strncmp(name, want, strlen(want)) || name[strlen(want)] != ',')
                fail_msg("%s row %zu: predicted %s, recorded %.*s", names[f], row + 1, want,
                         (int)(c - 1 - name), name);
            for (size_t j = 0; j < k; j++, c = strchr(c, ',') + 1)
                assert_true(strtod(c, NULL) == p[row * k + j]);
            row++;
        }
        assert_int_equal(row, d->n_rows);
        print_message("%s: %zu rows x %zu probabilities as recorded\n", names[f], row, k);
        char *text = round_trip(m, d);
        free(text);
        free(p);
        free(label);
        free(csv);
        free(old);
        tl_model_free(m);
    }
    tl_dataset_free(d);
}

/* Every ensemble kind, with the optional arrays a member may have: leaf values (boosting),
 * unknown-value rules with surrogates (bagged CART-style trees on vote's missing values). */
static void test_packed_round_trip_is_exact(void **state)
{
    (void)state;
    struct {
        const char *algo, *data, *target, *kv[4], *must;
    } cases[] = {
        {"random_forest", "iris.arff", NULL, {"n_estimators=6"}, "stats = \""},
        {"extra_trees", "wine.arff", NULL, {"n_estimators=4"}, "threshold = \""},
        {"gradient_boosting",
         "diabetes.arff",
         "age",
         {"n_estimators=5", "loss=huber"},
         "value = \""},
        {"gradient_boosting", "iris.arff", NULL, {"n_estimators=4"}, "value = \""},
        {"adaboost", "vote.arff", NULL, {"n_estimators=5"}, "mask = \""},
        {"bagging",
         "vote.arff",
         NULL,
         {"n_estimators=4", "base.missing=surrogate"},
         "sur_attr = \""},
    };
    for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
        char rel[128];
        snprintf(rel, sizeof rel, "experiments/datasets/%s", cases[c].data);
        tl_dataset *d = tl_test_load(rel, cases[c].target);
        tl_model *m = tl_test_fitted(cases[c].algo, d, cases[c].kv);
        char *text = round_trip(m, d);
        if (!strstr(text, cases[c].must))
            fail_msg("%s: no %s in the file", cases[c].algo, cases[c].must);
        print_message("%s on %s: %zu bytes, round trip exact\n", cases[c].algo, cases[c].data,
                      strlen(text));
        free(text);
        tl_model_free(m);
        tl_dataset_free(d);
    }
}

/* Doubles written packed read back as the same bits: the shortest decimal, the fast path's
 * edges (2^53, 1e22, 1e23), subnormals, signed zero, and 2000 pseudo-random doubles. */
static void test_packed_numbers_are_exact(void **state)
{
    (void)state;
    enum { N = 2016 };
    double v[N] = {0.1,  1.0 / 3,   -0.0,  5e-324, 1.7976931348623157e308,  9007199254740992.0,
                   1e22, 1e23,      0.8,   -2.5,   2.2250738585072014e-308, 123456789.125,
                   1e15, -1e15 - 1, 7e-10, 4.35};
    unsigned long long x = 88172645463325252ULL;
    for (size_t i = 16; i < N; i++) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        double u;
        memcpy(&u, &x, sizeof u);
        v[i] = isfinite(u) ? u : (double)(x >> 11) * 0x1p-53 * (i % 7 == 0 ? 1e9 : 1);
    }
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    tl_store_put_packed_doubles(f, 0, "v", v, N);
    long l[] = {0, -1, 9223372036854775807L, -9223372036854775807L - 1, 42};
    tl_store_put_packed_ints(f, 0, "l", l, 5);
    fclose(f);
    const char *path = tl_test_tmpfile(".model", buf);
    tl_err err;
    tl_store *s = tl_store_read(path, &err);
    if (!s)
        fail_msg("%s", err.msg);
    double back[N];
    long lb[5];
    size_t n;
    assert_int_equal(tl_store_len(s, "v", &n, &err), TL_OK);
    assert_int_equal(n, N);
    assert_int_equal(tl_store_doubles(s, "v", back, N, &err), TL_OK);
    assert_memory_equal(v, back, sizeof v);
    assert_int_equal(tl_store_ints(s, "l", lb, 5, &err), TL_OK);
    assert_memory_equal(l, lb, sizeof l);
    assert_non_null(strstr(buf, "v = \"0.1 0.3333333333333333 -0 4.94065645841247e-324 "));
    tl_store_free(s);
    free(buf);
}

/* A damaged packed array names the setting and the element, and nothing is loaded. */
static void test_damaged_arrays_are_refused(void **state)
{
    (void)state;
    tl_dataset *d = tl_test_load("experiments/datasets/iris.arff", NULL);
    const char *kv[] = {"n_estimators=2", NULL};
    tl_model *m = tl_test_fitted("random_forest", d, kv);
    char *good;
    tl_model_free(tl_test_reload(m, &good));
    /* element 0 of tree 0's setting replaced by token ("" drops it, "+" adds one) */
    struct {
        const char *setting, *token, *msg;
    } cases[] = {
        {"threshold", "0.8x",
         "'state.trees.t0.threshold' element 0 is `0.8x`; expected a finite decimal number"},
        {"threshold", "1e999", "element 0 is `1e999`"},
        {"threshold", "nan", "element 0 is `nan`"},
        {"threshold", "0x1p3", "element 0 is `0x1p3`"},
        {"threshold", "-", "element 0 is `-`"},
        {"stats", "1e", "element 0 is `1e`"},
        {"threshold", "", "'state.trees.t0.threshold' has"},
        {"threshold", "+", "'state.trees.t0.threshold' has"},
        {"attr", "2147483648", "element 0 is `2147483648`; expected a 32-bit integer"},
        {"kind", "1.5", "element 0 is `1.5`; expected an integer"},
        {"mask", "99999999999999999999", "expected an integer"},
        {"first_child", "-3", "first_child[0] = -3"},
    };
    for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
        char key[64];
        snprintf(key, sizeof key, "  %s = \"", cases[c].setting);
        char *at = strstr(strstr(good, "t0 = {"), key);
        assert_non_null(at);
        at += strlen(key);
        size_t head = (size_t)(at - good), tok = strcspn(at, " \"");
        const char *tail = at + tok + (at[tok] == ' ' && !*cases[c].token);
        const char *put = !strcmp(cases[c].token, "+") ? "1 " : cases[c].token;
        char *bad = malloc(strlen(good) + strlen(put) + 2);
        memcpy(bad, good, head);
        strcpy(bad + head, put);
        strcat(bad, !strcmp(cases[c].token, "+") ? at : tail);
        tl_err err;
        tl_model *l = tl_model_load(tl_test_tmpfile(".model", bad), &err);
        assert_null(l);
        if (!strstr(err.msg, cases[c].msg))
            fail_msg("case %zu: '%s' lacks '%s'", c, err.msg, cases[c].msg);
        free(bad);
    }
    char *future = strstr(good, "    format = 2;");
    assert_non_null(future);
    future[13] = '3';
    tl_err err;
    assert_null(tl_model_load(tl_test_tmpfile(".model", good), &err));
    assert_non_null(strstr(err.msg, "state.trees.format = 3 is not supported"));
    free(good);
    tl_model_free(m);
    tl_dataset_free(d);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_format1_files_load_to_recorded_predictions),
        cmocka_unit_test(test_packed_round_trip_is_exact),
        cmocka_unit_test(test_packed_numbers_are_exact),
        cmocka_unit_test(test_damaged_arrays_are_refused),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
