/* Plug-ins and learners registered at run time (tl_criterion_register and its siblings,
 * tl_missing_register included): found by name, listed, used by fits and configs, refused with
 * a reason when unusable, and registered from several threads at once without a loss. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tl_test_util.h"
#include "treelab/tl_experiment.h"
#include "treelab/tl_grow.h"
#include "treelab/tl_model.h"

/* Twice the Gini impurity: it ranks every split as Gini does, so it must grow Gini's trees. */
static double gini_twice(const double *stats, size_t k)
{
    double w = 0, s = 0;
    for (size_t c = 0; c < k; c++)
        w += stats[c];
    for (size_t c = 0; c < k && w > 0; c++)
        s += (stats[c] / w) * (stats[c] / w);
    return w > 0 ? 2 * (1 - s) : 0;
}

static const tl_criterion_type gini_twice_type = {.name = "gini_twice",
                                                  .summary = "2 x Gini",
                                                  .reference = "test",
                                                  .tasks = TL_TASK_CLASSIFICATION,
                                                  .impurity = gini_twice};

/* The text of a tree fitted on data (a bundled dataset) with one --set value, into buf. */
static void fit_show_on(const char *data, const char *set, char *buf, size_t size, size_t *leaves)
{
    tl_err err = {0};
    tl_params p;
    tl_params_init(&p);
    assert_int_equal(tl_params_set_kv(&p, set, &err), TL_OK);
    tl_dataset *d = tl_test_load(data, NULL);
    tl_model *m = tl_model_new("tree", &p, &err);
    if (!m)
        fail_msg("%s: %s", set, err.msg);
    assert_int_equal(tl_model_fit(m, d, NULL, 0, NULL, &err), TL_OK);
    FILE *f = fmemopen(buf, size, "w");
    assert_non_null(f);
    assert_int_equal(tl_model_show(m, TL_SHOW_TEXT, f, &err), TL_OK);
    fclose(f);
    tl_model_info info;
    tl_model_get_info(m, &info);
    *leaves = info.leaves;
    tl_model_free(m);
    tl_dataset_free(d);
    tl_params_clear(&p);
}

/* The same on iris. */
static void fit_show(const char *set, char *buf, size_t size, size_t *leaves)
{
    fit_show_on("experiments/datasets/iris.arff", set, buf, size, leaves);
}

static void criterion_registered_grows_ginis_tree(void **state)
{
    (void)state;
    tl_err err = {0};
    size_t builtin = 0;
    while (tl_criterion_at(builtin))
        builtin++;
    assert_null(tl_criterion_find("gini_twice", NULL));
    assert_int_equal(tl_criterion_register(&gini_twice_type, &err), TL_OK);
    assert_ptr_equal(tl_criterion_find("gini_twice", &err), &gini_twice_type);
    assert_ptr_equal(tl_criterion_at(builtin), &gini_twice_type);
    assert_null(tl_criterion_at(builtin + 1));
    char names[512];
    tl_criterion_names(names, sizeof names);
    assert_non_null(strstr(names, ", gini_twice"));

    static char a[8192], b[8192];
    size_t la, lb;
    fit_show("criterion=gini", a, sizeof a, &la);
    fit_show("criterion=gini_twice", b, sizeof b, &lb);
    assert_string_equal(a, b);
    assert_int_equal(la, 9); /* iris, unpruned Gini tree */
    assert_int_equal(lb, 9);
}

static void unusable_types_are_refused(void **state)
{
    (void)state;
    tl_err err = {0};
    tl_criterion_type bad = gini_twice_type;
    assert_int_equal(tl_criterion_register(&gini_twice_type, &err), TL_EINVAL); /* again */
    assert_non_null(strstr(err.msg, "'gini_twice': that name is taken"));
    bad.name = "gini";
    assert_int_equal(tl_criterion_register(&bad, &err), TL_EINVAL);
    assert_non_null(strstr(err.msg, "taken"));
    const char *words[] = {"", "a.b", "x=1", "two words", "9lives", "crit,other"};
    for (size_t i = 0; i < sizeof words / sizeof *words; i++) {
        bad.name = words[i];
        assert_int_equal(tl_criterion_register(&bad, &err), TL_EINVAL);
        assert_non_null(strstr(err.msg, "a name is a letter followed by"));
    }
    bad.name = "no_impurity";
    bad.impurity = NULL;
    assert_int_equal(tl_criterion_register(&bad, &err), TL_EINVAL);
    assert_string_equal(err.msg, "criterion 'no_impurity' has neither impurity nor score");
    assert_int_equal(tl_criterion_register(NULL, NULL), TL_EINVAL); /* err may be NULL */
    assert_null(tl_criterion_find("no_impurity", NULL));

    tl_pruner_type no_prune = {.name = "no_prune"};
    assert_int_equal(tl_pruner_register(&no_prune, &err), TL_EINVAL);
    assert_string_equal(err.msg, "pruner 'no_prune' has no prune()");
    tl_model_type half = *tl_model_find("gaussian_nb", &err);
    half.name = "half";
    half.fit = NULL;
    assert_int_equal(tl_model_register(&half, &err), TL_EINVAL);
    assert_non_null(strstr(err.msg, "learner 'half' lacks one of"));
}

/* A pruner that keeps the root alone. */
static int to_root(const void *st, tl_tree *t, const tl_prune_input *in, tl_prune_trace *tr,
                   tl_err *err)
{
    (void)st, (void)in;
    double before = (double)tl_tree_leaves(t, 0);
    tl_tree_make_leaf(t, 0);
    if (tl_tree_compact(t, err))
        return err ? err->code : TL_ENOMEM;
    return tl_prune_trace_two(tr, "step", 1, before, t, err);
}
static const tl_pruner_type to_root_type = {
    .name = "to_root", .summary = "root alone", .reference = "test", .prune = to_root};

static void pruner_registered_prunes(void **state)
{
    (void)state;
    assert_int_equal(tl_pruner_register(&to_root_type, NULL), TL_OK);
    static char text[8192];
    size_t leaves;
    fit_show("pruner=to_root", text, sizeof text, &leaves);
    assert_int_equal(leaves, 1);
    assert_non_null(strstr(text, "Number of Leaves  : \t1"));
}

/* A pruner that counts its checks, inits and frees: a parameter's rule across values is
 * checked before any work without a state, and init runs once per model made, never to
 * check (the config's check and the model's own check build nothing). */
static int counted_checks, counted_inits, counted_frees;
static const tl_param_spec counted_params[] = {
    {"level", TL_PARAM_INT, "0", 0, 3, NULL, "test: 3 is refused by check"},
    {NULL, 0, NULL, 0, 0, NULL, NULL},
};
static int counted_check(const tl_params *p, tl_err *err)
{
    counted_checks++;
    const char *v = tl_params_find(p, "level");
    return v && !strcmp(v, "3") ? tl_err_set(err, TL_EINVAL, "parameter level: 3 is refused")
                                : TL_OK;
}
static void *counted_init(const tl_params *p, tl_err *err)
{
    (void)p, (void)err;
    counted_inits++;
    return &counted_inits;
}
static void counted_free(void *st)
{
    assert_ptr_equal(st, &counted_inits);
    counted_frees++;
}
static const tl_pruner_type counted_type = {.name = "counted",
                                            .summary = "root alone, counting its inits",
                                            .reference = "test",
                                            .params = counted_params,
                                            .check = counted_check,
                                            .init = counted_init,
                                            .free = counted_free,
                                            .prune = to_root};

static void init_runs_once_per_model(void **state)
{
    (void)state;
    tl_err err = {0};
    assert_int_equal(tl_pruner_register(&counted_type, &err), TL_OK);
    char cfg[512];
    snprintf(cfg, sizeof cfg,
             "name = \"count\"; seed = 1; datasets = ( \"%s\" );\n"
             "models = ( { name = \"a\"; algorithm = \"tree\";\n"
             "  params = { pruner = { name = \"counted\"; level = 2; }; }; } );\n"
             "protocol = { kind = \"cv\"; folds = 3; repeats = 1; };\n",
             tl_test_path("experiments/datasets/iris.arff"));
    tl_experiment *x = tl_experiment_load(tl_test_tmpfile(".cfg", cfg), NULL, &err);
    if (!x)
        fail_msg("%s", err.msg);
    tl_experiment_free(x);
    assert_true(counted_checks >= 1);
    assert_int_equal(counted_inits, 0); /* loading a config checks, builds nothing */

    tl_params p;
    tl_params_init(&p);
    assert_int_equal(tl_params_set(&p, "pruner", "counted", &err), TL_OK);
    assert_int_equal(tl_params_set(&p, "pruner.level", "3", &err), TL_OK);
    assert_int_equal(tl_model_check_params(tl_model_find("tree", NULL), &p, &err), TL_EINVAL);
    assert_non_null(strstr(err.msg, "parameter level: 3 is refused"));
    assert_null(tl_model_new("tree", &p, &err));
    assert_int_equal(counted_inits, 0); /* refused by check, before any state */

    assert_int_equal(tl_params_set(&p, "pruner.level", "1", &err), TL_OK);
    tl_dataset *d = tl_test_load("experiments/datasets/iris.arff", NULL);
    for (int i = 1; i <= 3; i++) {
        int checks = counted_checks;
        tl_model *m = tl_model_new("tree", &p, &err);
        if (!m)
            fail_msg("%s", err.msg);
        assert_int_equal(counted_inits, i); /* one init for the model, after one check */
        assert_int_equal(counted_checks, checks + 1);
        assert_int_equal(tl_model_fit(m, d, NULL, 0, NULL, &err), TL_OK);
        tl_model_info info;
        tl_model_get_info(m, &info);
        assert_int_equal(info.leaves, 1); /* its pruner ran */
        tl_model_free(m);
        assert_int_equal(counted_frees, i);
    }
    assert_int_equal(counted_inits, 3);
    tl_dataset_free(d);
    tl_params_clear(&p);
}

/* A missing-value method registered under another name grows the built-in one's tree on data
 * with unknown values (labor: 56 rows with some); one with an unknown scoring is refused. */
static tl_missing_type majority_again;

static void missing_method_registered_grows_its_tree(void **state)
{
    (void)state;
    tl_err err = {0};
    majority_again = *tl_missing_find("majority", &err);
    majority_again.name = "majority_again";
    assert_int_equal(tl_missing_register(&majority_again, &err), TL_OK);
    assert_ptr_equal(tl_missing_find("majority_again", &err), &majority_again);
    char names[512];
    tl_missing_names(names, sizeof names);
    assert_non_null(strstr(names, ", majority_again"));
    static char a[8192], b[8192];
    size_t la, lb;
    fit_show_on("experiments/datasets/labor.arff", "missing=majority", a, sizeof a, &la);
    fit_show_on("experiments/datasets/labor.arff", "missing=majority_again", b, sizeof b, &lb);
    assert_string_equal(a, b);
    assert_int_equal(la, lb);

    tl_missing_type bad = majority_again;
    bad.name = "bad_scoring";
    bad.scoring = (tl_missing_scoring)7;
    assert_int_equal(tl_missing_register(&bad, &err), TL_EINVAL);
    assert_string_equal(err.msg, "missing-value method 'bad_scoring' has an unknown scoring (7)");
    assert_null(tl_missing_find("bad_scoring", NULL));
}

/* A learner registered under another name is found by configs as the built-in ones are. */
static tl_model_type nb_again;

static void learner_registered_is_used_by_a_config(void **state)
{
    (void)state;
    tl_err err = {0};
    nb_again = *tl_model_find("gaussian_nb", &err);
    nb_again.name = "nb_again";
    assert_int_equal(tl_model_register(&nb_again, &err), TL_OK);
    char cfg[512];
    snprintf(cfg, sizeof cfg,
             "name = \"reg\"; seed = 1; datasets = ( \"%s\" );\n"
             "models = ( { name = \"a\"; algorithm = \"nb_again\"; },\n"
             "           { name = \"b\"; algorithm = \"gaussian_nb\"; } );\n"
             "protocol = { kind = \"cv\"; folds = 3; repeats = 1; };\n",
             tl_test_path("experiments/datasets/iris.arff"));
    tl_experiment *x = tl_experiment_load(tl_test_tmpfile(".cfg", cfg), NULL, &err);
    if (!x)
        fail_msg("%s", err.msg);
    assert_ptr_equal(x->models[0].type, &nb_again);
    tl_experiment_free(x);

    tl_dataset *d = tl_test_load("experiments/datasets/iris.arff", NULL);
    tl_model *a = tl_model_new("nb_again", NULL, &err),
             *b = tl_model_new("gaussian_nb", NULL, &err);
    assert_non_null(a);
    assert_non_null(b);
    assert_int_equal(tl_model_fit(a, d, NULL, 0, NULL, &err), TL_OK);
    assert_int_equal(tl_model_fit(b, d, NULL, 0, NULL, &err), TL_OK);
    double *pa = malloc(d->n_rows * 3 * sizeof *pa), *pb = malloc(d->n_rows * 3 * sizeof *pb);
    assert_int_equal(tl_model_predict(a, d, NULL, 0, pa, &err), TL_OK);
    assert_int_equal(tl_model_predict(b, d, NULL, 0, pb, &err), TL_OK);
    assert_memory_equal(pa, pb, d->n_rows * 3 * sizeof *pa);
    free(pa);
    free(pb);
    tl_model_free(a);
    tl_model_free(b);
    tl_dataset_free(d);
}

/* 4 threads register 8 splitters each at once: all 32 land, then the registry fills at 64. */
enum { THREADS = 4, EACH = 8 };
static tl_splitter_type copies[80];
static char copy_names[80][16];

static void *register_some(void *arg)
{
    size_t t = (size_t)arg;
    for (size_t i = t * EACH; i < (t + 1) * EACH; i++)
        if (tl_splitter_register(&copies[i], NULL))
            return (void *)1;
    return NULL;
}

static void splitters_registered_concurrently(void **state)
{
    (void)state;
    const tl_splitter_type *base = tl_splitter_find("numeric_threshold", NULL);
    assert_non_null(base);
    size_t builtin = 0;
    while (tl_splitter_at(builtin))
        builtin++;
    for (size_t i = 0; i < 80; i++) {
        copies[i] = *base;
        snprintf(copy_names[i], sizeof copy_names[i], "split_%zu", i);
        copies[i].name = copy_names[i];
    }
    pthread_t th[THREADS];
    for (size_t t = 0; t < THREADS; t++)
        assert_int_equal(pthread_create(&th[t], NULL, register_some, (void *)t), 0);
    for (size_t t = 0; t < THREADS; t++) {
        void *r;
        pthread_join(th[t], &r);
        assert_null(r);
    }
    for (size_t i = 0; i < THREADS * EACH; i++)
        assert_ptr_equal(tl_splitter_find(copy_names[i], NULL), &copies[i]);
    assert_non_null(tl_splitter_at(builtin + THREADS * EACH - 1));
    assert_null(tl_splitter_at(builtin + THREADS * EACH));
    tl_err err = {0};
    for (size_t i = THREADS * EACH; i < 64; i++)
        assert_int_equal(tl_splitter_register(&copies[i], &err), TL_OK);
    assert_int_equal(tl_splitter_register(&copies[64], &err), TL_EINVAL);
    assert_string_equal(err.msg,
                        "cannot register splitter 'split_64': at most 64 can be registered");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(criterion_registered_grows_ginis_tree),
        cmocka_unit_test(unusable_types_are_refused),
        cmocka_unit_test(pruner_registered_prunes),
        cmocka_unit_test(init_runs_once_per_model),
        cmocka_unit_test(missing_method_registered_grows_its_tree),
        cmocka_unit_test(learner_registered_is_used_by_a_config),
        cmocka_unit_test(splitters_registered_concurrently),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
