/* Parameter tables: checking, defaults, errors that list the valid names. */
#include <math.h>
#include <string.h>

#include "tl_test_util.h"
#include "treelab/tl_params.h"

static const tl_param_spec spec[] = {
    {"max_depth", TL_PARAM_INT, "0", 0, 1000, NULL, "depth limit"},
    {"alpha", TL_PARAM_DOUBLE, "0.5", 0, 1, NULL, "a fraction"},
    {"prune", TL_PARAM_BOOL, "true", 0, 0, NULL, "prune or not"},
    {"criterion", TL_PARAM_CHOICE, "gini", 0, 0, "gini|entropy", "impurity"},
    {NULL, 0, NULL, 0, 0, NULL, NULL},
};

static void test_defaults_and_values(void **state)
{
    (void)state;
    tl_params p;
    tl_err err;
    tl_params_init(&p);
    assert_int_equal(tl_params_check(spec, &p, &err), TL_OK);
    tl_param_reader rd = tl_params_reader(spec, &p, &err);
    assert_int_equal(tl_params_int(&rd, "max_depth"), 0);
    assert_close(tl_params_double(&rd, "alpha"), 0.5, 0);
    assert_int_equal(tl_params_bool(&rd, "prune"), 1);
    assert_string_equal(tl_params_string(&rd, "criterion"), "gini");
    assert_int_equal(tl_params_set_kv(&p, "max_depth=3", &err), TL_OK);
    assert_int_equal(tl_params_set_kv(&p, "criterion=entropy", &err), TL_OK);
    assert_int_equal(tl_params_set(&p, "prune", "false", &err), TL_OK);
    assert_int_equal(tl_params_check(spec, &p, &err), TL_OK);
    assert_int_equal(tl_params_int(&rd, "max_depth"), 3);
    assert_int_equal(tl_params_bool(&rd, "prune"), 0);
    assert_string_equal(tl_params_string(&rd, "criterion"), "entropy");
    assert_int_equal(rd.rc, TL_OK);
    /* SLOT.name=X sets SLOT, as `name` in a config's plug-in group does */
    assert_int_equal(tl_params_set_kv(&p, "criterion.name=gini", &err), TL_OK);
    assert_string_equal(tl_params_string(&rd, "criterion"), "gini");
    assert_null(tl_params_find(&p, "criterion.name"));
    /* a name the table does not hold is an error naming it, not a silent 0 */
    assert_int_equal(tl_params_int(&rd, "max_dpeth"), 0);
    assert_int_equal(rd.rc, TL_EINTERNAL);
    assert_non_null(strstr(err.msg, "'max_dpeth' is read but not in the parameter table"));
    tl_params_clear(&p);
}

static void expect_error(const char *kv, const char *needle)
{
    tl_params p;
    tl_err err;
    tl_params_init(&p);
    assert_int_equal(tl_params_set_kv(&p, kv, &err), TL_OK);
    assert_int_equal(tl_params_check(spec, &p, &err), TL_EINVAL);
    if (!strstr(err.msg, needle))
        fail_msg("'%s' gave '%s', expected it to mention '%s'", kv, err.msg, needle);
    tl_params_clear(&p);
}

static void test_errors(void **state)
{
    (void)state;
    expect_error("depth=3", "valid parameters: max_depth, alpha, prune, criterion");
    expect_error("max_depth=-1", "out of range");
    expect_error("max_depth=2.5", "expected an integer");
    expect_error("alpha=1.5", "out of range");
    expect_error("alpha=nan", "expected a number");
    expect_error("prune=maybe", "true or false");
    expect_error("criterion=mse", "gini|entropy");
    tl_params p;
    tl_err err;
    tl_params_init(&p);
    assert_int_equal(tl_params_set_kv(&p, "=3", &err), TL_EINVAL);
    assert_int_equal(tl_params_set_kv(&p, "novalue", &err), TL_EINVAL);
    tl_params_clear(&p);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_defaults_and_values),
        cmocka_unit_test(test_errors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
