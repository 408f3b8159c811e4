/* The bundled datasets (against experiments/datasets/README.md), select, conform, a target
 * made nominal, and SHA-256. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tl_test_util.h"
#include "treelab/tl_dataset.h"
#include "treelab/tl_log.h"

/* ---- bundled datasets (mirrors experiments/datasets/README.md) ---- */

typedef struct {
    const char *file;
    size_t rows, attrs, classes; /* classes 0: regression */
    size_t missing;
} bundled;

static const bundled table[] = {
    {"app-recommendation.csv", 6, 2, 3, 0},
    {"covid-symptoms.csv", 8, 4, 2, 0},
    {"engagement-regression.csv", 8, 1, 0, 0},
    {"fraud.csv", 6, 2, 2, 0},
    {"two-feature-boundary.csv", 12, 2, 0, 0},
    {"two-feature-boundary.arff", 12, 2, 2, 0},
    {"watermelon-2.0.csv", 17, 7, 2, 0},
    {"watermelon-2.0-missing.csv", 17, 7, 2, 13},
    {"watermelon-3.0.csv", 17, 9, 2, 0},
    {"breast-cancer.arff", 286, 9, 2, 9},
    {"contact-lenses.arff", 24, 4, 3, 0},
    {"credit-g.arff", 1000, 20, 2, 0},
    {"diabetes.arff", 768, 8, 2, 0},
    {"glass.arff", 214, 9, 7, 0},
    {"ionosphere.arff", 351, 34, 2, 0},
    {"iris.arff", 150, 4, 3, 0},
    {"labor.arff", 57, 16, 2, 326},
    {"segment-challenge.arff", 1500, 19, 7, 0},
    {"soybean.arff", 683, 35, 19, 2337},
    {"vote.arff", 435, 16, 2, 392},
    {"weather.nominal.arff", 14, 4, 2, 0},
    {"weather.numeric.arff", 14, 4, 2, 0},
    {"breast_cancer.arff", 569, 30, 2, 0},
    {"wine.arff", 178, 13, 3, 0},
    {"digits.arff", 1797, 64, 10, 0},
};

static void test_bundled_datasets(void **state)
{
    (void)state;
    for (size_t k = 0; k < sizeof table / sizeof table[0]; k++) {
        char rel[256];
        snprintf(rel, sizeof rel, "experiments/datasets/%s", table[k].file);
        tl_dataset *d = tl_test_load(rel, NULL);
        if (d->n_rows != table[k].rows || d->schema.n_attrs != table[k].attrs ||
            tl_dataset_n_classes(d) != table[k].classes ||
            tl_dataset_missing_cells(d) != table[k].missing || d->n_dropped != 0)
            fail_msg("%s: %zu rows, %zu attributes, %zu classes, %zu missing; expected %zu, "
                     "%zu, %zu, %zu",
                     table[k].file, d->n_rows, d->schema.n_attrs, tl_dataset_n_classes(d),
                     tl_dataset_missing_cells(d), table[k].rows, table[k].attrs, table[k].classes,
                     table[k].missing);
        tl_dataset_free(d);
    }
}

/* Every bundled file must be in the table: the README and the test cannot drift apart. */
static void test_bundled_table_is_complete(void **state)
{
    (void)state;
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "ls '%s' | grep -v README.md | wc -l",
             tl_test_path("experiments/datasets"));
    FILE *p = popen(cmd, "r");
    assert_non_null(p);
    size_t n = 0;
    assert_int_equal(fscanf(p, "%zu", &n), 1);
    pclose(p);
    assert_int_equal(n, sizeof table / sizeof table[0]);
    /* and the README lists each file */
    FILE *f = fopen(tl_test_path("experiments/datasets/README.md"), "r");
    assert_non_null(f);
    static char readme[32768];
    readme[fread(readme, 1, sizeof readme - 1, f)] = '\0';
    fclose(f);
    for (size_t k = 0; k < n; k++) {
        char row[128];
        snprintf(row, sizeof row, "| %s |", table[k].file);
        if (!strstr(readme, row))
            fail_msg("README.md has no row for %s", table[k].file);
    }
}

static void test_known_values(void **state)
{
    (void)state;
    /* sklearn's float64 values come back exactly (recorded with /usr/bin/python3) */
    tl_dataset *d = tl_test_load("experiments/datasets/breast_cancer.arff", NULL);
    assert_true(d->cols[0].num[0] == 17.99);
    assert_true(d->cols[29].num[568] == 0.07039);
    assert_true(d->cols[9].num[100] == 0.05871);
    assert_string_equal(d->schema.target.levels[0], "malignant");
    assert_int_equal(d->y.code[0], 0);
    assert_int_equal(d->y.code[568], 1);
    double sum = 0;
    for (size_t i = 0; i < d->n_rows; i++)
        sum += d->cols[0].num[i];
    assert_close(sum, 8038.429, 1e-9);
    tl_dataset_free(d);
    d = tl_test_load("experiments/datasets/wine.arff", NULL);
    assert_true(d->cols[12].num[0] == 1065.0 && d->cols[6].num[177] == 0.76);
    assert_string_equal(d->schema.target.levels[d->y.code[177]], "class_2");
    tl_dataset_free(d);
    d = tl_test_load("experiments/datasets/digits.arff", NULL);
    assert_true(d->cols[2].num[0] == 5.0);
    assert_string_equal(d->schema.target.levels[d->y.code[1796]], "8");
    tl_dataset_free(d);
    /* iris: declared class order, first and last rows */
    d = tl_test_load("experiments/datasets/iris.arff", NULL);
    assert_string_equal(d->schema.target.levels[0], "Iris-setosa");
    assert_string_equal(d->schema.target.levels[2], "Iris-virginica");
    assert_true(d->cols[0].num[0] == 5.1 && d->cols[3].num[149] == 1.8);
    assert_int_equal(d->y.code[149], 2);
    tl_dataset_free(d);
    /* credit-g: quoted values with spaces */
    d = tl_test_load("experiments/datasets/credit-g.arff", NULL);
    assert_string_equal(d->schema.attrs[0].levels[3], "no checking");
    tl_dataset_free(d);
}

/* ---- select, conform ---- */

static void test_select(void **state)
{
    (void)state;
    tl_dataset *d = tl_test_load("experiments/datasets/watermelon-2.0.csv", NULL);
    const char *names[] = {"texture", "color"};
    tl_err err;
    assert_int_equal(tl_dataset_select(d, names, 2, &err), TL_OK);
    assert_int_equal(d->schema.n_attrs, 2);
    assert_string_equal(d->schema.attrs[0].name, "texture");
    assert_string_equal(d->schema.attrs[1].name, "color");
    assert_string_equal(d->schema.attrs[1].levels[d->cols[1].code[0]], "green");
    assert_string_equal(d->schema.target.name, "ripe");
    const char *bad[] = {"color", "size"};
    assert_int_equal(tl_dataset_select(d, bad, 2, &err), TL_EINVAL);
    assert_non_null(strstr(err.msg, "unknown attribute 'size'; valid attributes: texture, color"));
    assert_int_equal(d->schema.n_attrs, 2); /* unchanged */
    const char *twice[] = {"color", "color"};
    assert_int_equal(tl_dataset_select(d, twice, 2, &err), TL_EINVAL);
    tl_dataset_free(d);
}

static void test_conform(void **state)
{
    (void)state;
    tl_dataset *train = tl_test_load_text(".csv", "n,c,y\n1,a,p\n2,b,q\n3,c,p\n", NULL);
    /* other column order, an extra column, a level unknown to the model, classes reordered
     * plus a new one */
    tl_dataset *test = tl_test_load_text(".csv", "extra,c,n,y\n0,c,5,q\n0,z,6,p\n0,a,7,r\n", NULL);
    tl_err err;
    tl_test_n_warnings = 0;
    tl_log_fn old = tl_log_set_hook(tl_test_warning_hook, NULL);
    assert_int_equal(tl_dataset_conform(test, &train->schema, &err), TL_OK);
    tl_log_set_hook(old, NULL);
    assert_int_equal(tl_test_n_warnings, 2); /* level z, class r */
    assert_int_equal(test->schema.n_attrs, 2);
    assert_string_equal(test->schema.attrs[0].name, "n");
    assert_string_equal(test->schema.attrs[1].name, "c");
    assert_close(test->cols[0].num[2], 7.0, 0);
    assert_int_equal(test->schema.attrs[1].n_levels, 3);
    assert_int_equal(test->cols[1].code[0], 2); /* c */
    assert_int_equal(test->cols[1].code[1], TL_MISSING_CODE);
    assert_int_equal(test->cols[1].code[2], 0); /* a */
    assert_int_equal(test->schema.target.n_levels, 3);
    assert_string_equal(test->schema.target.levels[0], "p");
    assert_string_equal(test->schema.target.levels[1], "q");
    assert_string_equal(test->schema.target.levels[2], "r");
    assert_int_equal(test->y.code[0], 1);
    assert_int_equal(test->y.code[1], 0);
    assert_int_equal(test->y.code[2], 2);
    tl_dataset_free(test);
    /* a missing attribute and a kind mismatch are errors */
    test = tl_test_load_text(".csv", "c,y\na,p\nb,q\n", NULL);
    assert_int_equal(tl_dataset_conform(test, &train->schema, &err), TL_EINVAL);
    assert_non_null(strstr(err.msg, "lack attribute 'n'"));
    tl_dataset_free(test);
    test = tl_test_load_text(".csv", "n,c,y\nx,a,p\ny,b,q\n", NULL);
    assert_int_equal(tl_dataset_conform(test, &train->schema, &err), TL_EINVAL);
    assert_non_null(strstr(err.msg, "'n' is nominal in the data but numeric in the model"));
    tl_dataset_free(test);
    tl_dataset_free(train);
}

static void test_target_to_nominal(void **state)
{
    (void)state;
    tl_dataset *d = tl_test_load("experiments/datasets/two-feature-boundary.csv", NULL);
    tl_err err;
    assert_false(tl_dataset_is_classification(d));
    assert_int_equal(tl_dataset_target_to_nominal(d, &err), TL_OK);
    assert_true(tl_dataset_is_classification(d));
    assert_int_equal(tl_dataset_n_classes(d), 2);
    assert_string_equal(d->schema.target.levels[0], "0");
    assert_string_equal(d->schema.target.levels[1], "1");
    size_t ones = 0;
    for (size_t i = 0; i < d->n_rows; i++)
        ones += d->y.code[i] == 1;
    assert_int_equal(ones, 6);
    assert_int_equal(d->y.code[0], 0);                              /* first row: 7,1,0 */
    assert_int_equal(tl_dataset_target_to_nominal(d, &err), TL_OK); /* already nominal */
    tl_dataset_free(d);
    d = tl_test_load_text(".csv", "a,y\n1,2.5\n2,-1\n3,2.5\n", NULL);
    assert_int_equal(tl_dataset_target_to_nominal(d, &err), TL_OK);
    assert_string_equal(d->schema.target.levels[0], "-1");
    assert_string_equal(d->schema.target.levels[1], "2.5");
    assert_int_equal(d->y.code[0], 1);
    tl_dataset_free(d);
    d = tl_test_load_text(".csv", "a,y\n1,3\n2,3\n", NULL);
    assert_int_equal(tl_dataset_target_to_nominal(d, &err), TL_EINVAL);
    assert_non_null(strstr(err.msg, "only one value"));
    tl_dataset_free(d);
}

/* ---- SHA-256 ---- */

static void expect_sha(const char *text, const char *hex)
{
    const char *path = tl_test_tmpfile(".txt", text);
    char out[65];
    tl_err err;
    assert_int_equal(tl_file_sha256(path, out, &err), TL_OK);
    remove(path);
    assert_string_equal(out, hex);
}

static void test_sha256(void **state)
{
    (void)state;
    /* FIPS 180-4 examples */
    expect_sha("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    expect_sha("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    expect_sha("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
               "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
    char *a = malloc(1000001);
    assert_non_null(a);
    memset(a, 'a', 1000000);
    a[1000000] = '\0';
    expect_sha(a, "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
    free(a);
    char out[65];
    tl_err err;
    assert_int_equal(tl_file_sha256("/nonexistent", out, &err), TL_EIO);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_bundled_datasets), cmocka_unit_test(test_bundled_table_is_complete),
        cmocka_unit_test(test_known_values),     cmocka_unit_test(test_select),
        cmocka_unit_test(test_conform),          cmocka_unit_test(test_target_to_nominal),
        cmocka_unit_test(test_sha256),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
