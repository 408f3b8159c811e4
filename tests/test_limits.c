/* The class and level limits (TL_MAX_CLASSES, TL_MAX_LEVELS, the soft tree's levels): refused
 * when the data is loaded or before a fit starts, naming the column, the count, the limit and
 * the way out; data at the limits loads. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "tl_test_util.h"
#include "treelab/tl_dataset.h"
#include "treelab/tl_model.h"

/* A CSV "x,y,class" of n rows: x is "l<i % levels>" (or the number i % levels when numeric),
 * y is i % 5 and the class is "c<i % classes>". */
static const char *write_csv(size_t n, size_t levels, size_t classes, int numeric)
{
    size_t cap = 64 + n * 40, used = 0;
    char *text = malloc(cap);
    assert_non_null(text);
    used += (size_t)snprintf(text, cap, "x,y,class\n");
    for (size_t i = 0; i < n; i++)
        used += (size_t)snprintf(text + used, cap - used, "%s%zu,%zu,c%zu\n", numeric ? "" : "l",
                                 i % levels, i % 5, i % classes);
    static char path[512];
    snprintf(path, sizeof path, "%s", tl_test_tmpfile(".csv", text));
    free(text);
    return path;
}

static void expect_refused(const char *path, const tl_data_opts *o, const char *needle)
{
    tl_err err;
    tl_dataset *d = tl_dataset_load_with(path, o, &err);
    if (d) {
        tl_dataset_free(d);
        fail_msg("loading %s should fail with '%s'", path, needle);
    }
    assert_int_equal(err.code, TL_EINVAL);
    if (!strstr(err.msg, needle))
        fail_msg("message '%s' lacks '%s'", err.msg, needle);
}

static tl_dataset *load_ok(const char *path, const tl_data_opts *o)
{
    tl_err err;
    tl_dataset *d = tl_dataset_load_with(path, o, &err);
    if (!d)
        fail_msg("loading %s: %s", path, err.msg);
    return d;
}

static void test_classes(void **state)
{
    (void)state;
    const char *path = write_csv(TL_MAX_CLASSES + 1, 3, TL_MAX_CLASSES + 1, 0);
    expect_refused(path, NULL,
                   ":1:5: the target 'class' has 1001 classes; at most 1000 are supported (a "
                   "count per class is kept at every node): merge classes, or predict another "
                   "column (--target; target = \"...\"; in a dataset entry)");
    remove(path);
    path = write_csv(TL_MAX_CLASSES, 3, TL_MAX_CLASSES, 0);
    tl_dataset *d = load_ok(path, NULL);
    assert_int_equal(tl_dataset_n_classes(d), TL_MAX_CLASSES);
    tl_dataset_free(d);
    remove(path);
}

static void test_levels(void **state)
{
    (void)state;
    const char *path = write_csv(TL_MAX_LEVELS + 1, TL_MAX_LEVELS + 1, 2, 0);
    expect_refused(path, NULL,
                   ":1:1: the attribute 'x' has 10001 levels; at most 10000 are supported (a "
                   "column of so many distinct values is an identifier or free text): --ignore "
                   "x (ignore = [\"x\"]; in a dataset entry) leaves it out");
    tl_data_opts o = {0};
    o.ignore = (const char *const[]){"x"}, o.n_ignore = 1;
    tl_dataset *d = load_ok(path, &o);
    assert_int_equal(d->schema.n_attrs, 1);
    tl_dataset_free(d);
    remove(path);
    path = write_csv(TL_MAX_LEVELS, TL_MAX_LEVELS, 2, 0);
    d = load_ok(path, NULL);
    assert_int_equal(d->schema.attrs[0].n_levels, TL_MAX_LEVELS);
    tl_dataset_free(d);
    remove(path);
    /* a numeric column made nominal: the way out is to leave it numeric */
    path = write_csv(TL_MAX_LEVELS + 1, TL_MAX_LEVELS + 1, 2, 1);
    memset(&o, 0, sizeof o);
    o.nominal = (const char *const[]){"x"}, o.n_nominal = 1;
    expect_refused(path, &o,
                   ":1:1: the attribute 'x' has 10001 levels; at most 10000 are supported: "
                   "without --nominal x (nominal = [...]; in a dataset entry) it stays numeric, "
                   "or --ignore x leaves it out");
    remove(path);
}

/* The soft tree encodes a level as an input: 1,000 levels fit, 1,001 are refused before the
 * fit starts, and other learners take them. */
static void test_soft_tree_levels(void **state)
{
    (void)state;
    const char *path = write_csv(1001, 1001, 2, 0);
    tl_dataset *d = load_ok(path, NULL);
    remove(path);
    tl_err err;
    tl_model *m = tl_test_fit("soft_tree", d, (const char *const[]){"epochs=1", NULL}, 1, &err);
    assert_null(m);
    assert_int_equal(err.code, TL_EINVAL);
    assert_string_equal(err.msg, "soft_tree: the attribute 'x' has 1001 levels; the soft tree "
                                 "takes at most 1000 (one input a level): --ignore x leaves it "
                                 "out");
    tl_model_free(tl_test_fitted("id3", d, NULL));
    tl_dataset_free(d);
    path = write_csv(1000, 1000, 2, 0);
    d = load_ok(path, NULL);
    remove(path);
    tl_model_free(tl_test_fitted("soft_tree", d, (const char *const[]){"epochs=1", NULL}));
    tl_dataset_free(d);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_classes),
        cmocka_unit_test(test_levels),
        cmocka_unit_test(test_soft_tree_levels),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
