/* tl_check_params reports every problem of a parameter set, and an experiment file every
 * problem of its models, before any work. */
#include <stdio.h>
#include <string.h>

#include "tl_test_util.h"
#include "treelab/tl_experiment.h"
#include "treelab/tl_model.h"

static void set_all(tl_params *p, const char *const *kv, size_t n)
{
    tl_params_init(p);
    for (size_t i = 0; i < n; i++)
        assert_int_equal(tl_params_set_kv(p, kv[i], NULL), TL_OK);
}

static void every_problem_is_listed(void **state)
{
    (void)state;
    const char *kv[] = {"foo=1",           "max_depth=-3", "criterion=nope", "min_samples_leaf=2",
                        "criterion.bar=1", "select=best"};
    tl_params p;
    set_all(&p, kv, 6);
    tl_problems out;
    tl_err err = {0};
    const tl_model_type *cart = tl_model_find("cart", &err);
    assert_int_equal(tl_check_params(cart, &p, &out, &err), TL_EINVAL);
    assert_int_equal(out.n, 5); /* all but min_samples_leaf = 2 */
    assert_string_equal(out.msg[1], "parameter max_depth = -3 is out of range [0, 1e+06]");
    assert_non_null(strstr(out.msg[0], "unknown parameter 'foo'; valid parameters: "));
    assert_non_null(strstr(out.msg[2], "unknown criterion 'nope'; valid: entropy,"));
    assert_non_null(strstr(out.msg[3], "select"));
    /* criterion.bar is checked against the default criterion, since 'nope' was refused */
    assert_non_null(strstr(out.msg[4], "bar"));
    assert_true(strncmp(err.msg, "(1) unknown parameter 'foo'", 27) == 0);
    assert_non_null(strstr(err.msg, "; (2) parameter max_depth = -3 is out of range"));
    assert_non_null(strstr(err.msg, "; (5) "));
    tl_problems_clear(&out);
    /* the same through tl_model_check_params and tl_model_new, and with err NULL */
    assert_int_equal(tl_model_check_params(cart, &p, NULL), TL_EINVAL);
    assert_null(tl_model_new("cart", &p, &err));
    assert_non_null(strstr(err.msg, "(5) "));
    tl_params_clear(&p);
}

static void good_sets_pass_in_any_order(void **state)
{
    (void)state;
    /* a slot's parameter may come before the slot that accepts it */
    const char *kv[] = {"pruner.select=1se", "pruner=cost_complexity", "criterion=entropy"};
    tl_params p;
    set_all(&p, kv, 3);
    tl_problems out;
    const tl_model_type *tree = tl_model_find("tree", NULL);
    assert_int_equal(tl_check_params(tree, &p, &out, NULL), TL_OK);
    assert_int_equal(out.n, 0);
    assert_int_equal(tl_check_params(tree, NULL, &out, NULL), TL_OK);
    tl_params_clear(&p);
    /* one problem: its message alone, not numbered */
    const char *one[] = {"pruner=cost_complexity", "pruner.select=worst"};
    set_all(&p, one, 2);
    tl_err err = {0};
    assert_int_equal(tl_check_params(tree, &p, &out, &err), TL_EINVAL);
    assert_int_equal(out.n, 1);
    assert_string_equal(err.msg, out.msg[0]);
    assert_non_null(strstr(err.msg, "worst"));
    tl_problems_clear(&out);
    tl_params_clear(&p);
}

static void a_config_reports_every_model(void **state)
{
    (void)state;
    char cfg[1024];
    snprintf(cfg, sizeof cfg,
             "name = \"bad\"; seed = 1; datasets = ( \"%s\" );\n"
             "models = (\n"
             "  { name = \"a\"; algorithm = \"cart\"; params = { max_depth = -1; foo = 2; }; },\n"
             "  { name = \"b\"; algorithm = \"c45\"; },\n"
             "  { name = \"c\"; algorithm = \"nope\"; }\n"
             ");\n"
             "protocol = { kind = \"cv\"; folds = 3; repeats = 1; };\n",
             tl_test_path("experiments/datasets/iris.arff"));
    const char *path = tl_test_tmpfile(".cfg", cfg);
    tl_err err = {0};
    assert_null(tl_experiment_load(path, NULL, &err));
    assert_int_equal(err.code, TL_EINVAL);
    char want[512];
    snprintf(want, sizeof want,
             "%s:3: models[0].params: model 'a' (cart): (1) parameter "
             "max_depth = -1 is out of range [0, 1e+06]; (2) unknown parameter 'foo'",
             path);
    assert_true(strncmp(err.msg, want, strlen(want)) == 0);
    snprintf(want, sizeof want, "\n%s:5: models[2].algorithm: unknown algorithm 'nope'", path);
    assert_non_null(strstr(err.msg, want));
    assert_null(tl_experiment_load(path, NULL, NULL)); /* err may be NULL */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(every_problem_is_listed),
        cmocka_unit_test(good_sets_pass_in_any_order),
        cmocka_unit_test(a_config_reports_every_model),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
