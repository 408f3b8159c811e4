/* Out of memory, SQLite-style: each operation below runs with its allocation 0, 1, 2, ...
 * failing until a run succeeds; every failed run must return TL_ENOMEM with an out-of-memory
 * message (not success with made-up numbers, nor another code), leak nothing and free
 * nothing twice. Operations: tl_tree_predict (300 classes), loading ARFF and CSV, fitting
 * and predicting with every learner of the registry (classification and regression) and
 * with composed trees (each pruner and splitter), and tl_model_save / tl_model_load of each
 * learner (test_oom_run.c sweeps tl_run of small experiments).
 * Each sweep prints its number of allocation points. When one fails, TL_OOM_ALL=1 lists
 * every failing allocation and TL_OOM_TRACE (tl_oom.c) shows where a block came from. */
#include <gsl/gsl_errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tl_oom.h"
#include "treelab/tl_model.h"

/* ---- tl_tree_predict (through the model) ---- */

typedef struct predict_ctx {
    const tl_model *m;
    const tl_dataset *d;
    double *out;
} predict_ctx;

static int call_predict(void *ctx, tl_err *err)
{
    predict_ctx *c = ctx;
    return tl_model_predict(c->m, c->d, NULL, 0, c->out, err);
}

/* More than 256 classes: the tree's prediction buffer comes from the heap. A run whose
 * allocation fails used to report success with all-zero probabilities. */
static void test_tree_predict_reports_out_of_memory(void **state)
{
    (void)state;
    enum { N = 600, K = 300 };
    size_t size = 32 + (size_t)N * 24;
    char *csv = malloc(size), *at = csv;
    at += sprintf(at, "x,z,y\n");
    for (int i = 0; i < N; i++) /* some cells missing: C4.5's fractional descent */
        at += i % 7 == 3 ? sprintf(at, "?,%d,c%d\n", i % 5, i % K)
                         : sprintf(at, "%d,%d,c%d\n", i / 2, i % 5, i % K);
    const char *path = tl_test_tmpfile(".csv", csv);
    free(csv);
    tl_err err;
    tl_dataset *d = tl_dataset_load(path, "y", &err);
    if (!d)
        fail_msg("%s", err.msg);
    remove(path);
    assert_true(tl_dataset_n_classes(d) > 256);
    const char *const kv[] = {"prune=false", "min_leaf=1", NULL};
    tl_model *m = tl_test_fitted("c45", d, kv);
    double *out = malloc(d->n_rows * tl_model_out_width(m) * sizeof *out);
    predict_ctx c = {m, d, out};
    long allocs = tl_oom_sweep("c45 predict with 300 classes", call_predict, &c);
    assert_true(allocs > 0);
    /* the surviving run predicts: every row's probabilities sum to 1 */
    size_t k = tl_model_out_width(m);
    for (size_t i = 0; i < d->n_rows; i++) {
        double s = 0;
        for (size_t j = 0; j < k; j++)
            s += out[i * k + j];
        assert_close(s, 1, 1e-9);
    }
    free(out);
    tl_model_free(m);
    tl_dataset_free(d);
}

/* ---- loading data ---- */

static int call_load(void *ctx, tl_err *err)
{
    tl_dataset *d = tl_dataset_load(tl_test_path(ctx), NULL, err);
    if (!d)
        return err->code;
    tl_dataset_free(d);
    return TL_OK;
}

/* ARFF with nominal attributes and missing values; CSV (header, nominal cells, an id). */
static void test_load_out_of_memory(void **state)
{
    (void)state;
    static const char *const files[] = {"experiments/datasets/labor.arff",
                                        "experiments/datasets/watermelon-2.0.csv",
                                        "experiments/datasets/watermelon-2.0-missing.csv"};
    for (size_t i = 0; i < sizeof files / sizeof *files; i++) {
        char what[128];
        snprintf(what, sizeof what, "loading %s", files[i]);
        long n = tl_oom_sweep(what, call_load, (void *)files[i]);
        tl_oom_print_count(what, n, 1);
    }
}

/* ---- fitting (and predicting with) each learner ---- */

typedef struct fit_ctx {
    const char *algo;
    const char *const *kv; /* NULL-terminated key=value list */
    const tl_dataset *d;
    const char *save_path; /* for the save and load sweeps */
    tl_model *m;           /* fitted: the save sweep */
} fit_ctx;

static int params_from(const char *const *kv, tl_params *p, tl_err *err)
{
    int rc = TL_OK;
    for (; !rc && kv && *kv; kv++)
        rc = tl_params_set_kv(p, *kv, err);
    return rc;
}

/* New model, fit, predict every row, free: each step's allocations fail in turn. */
static int call_fit(void *ctx, tl_err *err)
{
    fit_ctx *c = ctx;
    tl_params p;
    tl_params_init(&p);
    int rc = params_from(c->kv, &p, err);
    tl_model *m = rc ? NULL : tl_model_new(c->algo, &p, err);
    tl_params_clear(&p);
    if (!m)
        return rc ? rc : err->code;
    tl_fit_ctx fc = {.seed = 7};
    rc = tl_model_fit(m, c->d, NULL, 0, &fc, err);
    double *out = rc ? NULL : malloc(c->d->n_rows * tl_model_out_width(m) * sizeof *out);
    if (!rc && !out)
        rc = tl_err_set(err, TL_ENOMEM, "out of memory (the test's buffer)");
    if (!rc)
        rc = tl_model_predict(m, c->d, NULL, 0, out, err);
    free(out);
    tl_model_free(m);
    return rc;
}

static void describe(char *what, size_t size, const char *verb, const fit_ctx *c)
{
    int n = snprintf(what, size, "%s %s", verb, c->algo);
    for (const char *const *kv = c->kv; kv && *kv && n > 0 && (size_t)n < size; kv++)
        n += snprintf(what + n, size - (size_t)n, " %s", *kv);
}

static long sweep_fit(fit_ctx *c, long stride)
{
    char what[256];
    describe(what, sizeof what, "fit+predict", c);
    size_t len = strlen(what);
    snprintf(what + len, sizeof what - len, " (%s)", c->d->name);
    long n = tl_oom_sweep_every(what, call_fit, c, stride);
    tl_oom_print_count(what, n, stride);
    return n;
}

/* An ensemble with three members (its default 10 or 100 would make the sweep a hundred times
 * longer, failing the same allocations per member); NULL: the learner's defaults. */
static const char *const *small(const tl_model_type *t)
{
    static const char *const bagged[] = {"n_estimators=3", "bootstrap=true", "oob_score=true",
                                         NULL};
    static const char *const three[] = {"n_estimators=3", NULL};
    if (!t->ensemble)
        return NULL;
    for (const tl_param_spec *p = t->params; p->name; p++)
        if (!strcmp(p->name, "oob_score")) /* the bagged ones: their draws and OOB score too */
            return bagged;
    return three;
}

/* Every learner of the registry with its defaults (an ensemble with three members), on labor
 * (57 rows, nominal attributes, missing values); the regression learners also on a numeric
 * target. */
static void test_registry_fit_out_of_memory(void **state)
{
    (void)state;
    tl_dataset *d = tl_test_load("experiments/datasets/labor.arff", NULL);
    for (size_t i = 0; tl_model_at(i); i++) {
        fit_ctx c = {tl_model_at(i)->name, small(tl_model_at(i)), d, NULL, NULL};
        assert_true(sweep_fit(&c, 1) > 0);
    }
    tl_dataset_free(d);
    /* and those that do regression, on 8 rows */
    d = tl_test_load("experiments/datasets/engagement-regression.csv", NULL);
    for (size_t i = 0; tl_model_at(i); i++)
        if (tl_model_at(i)->tasks & TL_TASK_REGRESSION) {
            fit_ctx c = {tl_model_at(i)->name, small(tl_model_at(i)), d, NULL, NULL};
            assert_true(sweep_fit(&c, 1) > 0);
        }
    tl_dataset_free(d);
}

/* Sweeps algo's fit with each parameter list of configs on a bundled dataset. */
static void sweep_configs(const char *algo, const char *data, const char *const (*configs)[6],
                          size_t n)
{
    char rel[256];
    snprintf(rel, sizeof rel, "experiments/datasets/%s", data);
    tl_dataset *d = tl_test_load(rel, NULL);
    for (size_t i = 0; i < n; i++) {
        fit_ctx c = {algo, configs[i], d, NULL, NULL};
        assert_true(sweep_fit(&c, 1) > 0);
    }
    tl_dataset_free(d);
}

/* The composed tree with each pruner and splitter (treelab plugins). The cost-complexity
 * pruner's inner CV grows a tree per fold; with 3 folds it stays under a thousand
 * allocations. */
static void test_composed_tree_fit_out_of_memory(void **state)
{
    (void)state;
    static const char *const configs[][6] = {
        {"criterion=hellinger", "pruner=cost_complexity", "pruner.folds=3", NULL},
        {"criterion=gain_ratio", "numeric=c45_threshold", "nominal=nominal_multiway",
         "pruner=error_based", NULL},
        {"numeric=random_subset", "pruner=minimum_error", NULL},
        {"numeric=histogram", "missing=surrogate", NULL},
        {"numeric=histogram", "missing=learned", NULL},
        {"pruner=reduced_error", NULL},
        {"pruner=pessimistic", NULL},
        {"pruner=pre_validation", NULL},
        {"criterion=entropy", "nominal=nominal_multiway", "pruner=collapse", NULL},
        {"criterion=misclassification", "pruner=minimum_error", "pruner.estimate=m", NULL},
        {"pruner=cost_complexity", "pruner.alpha=path", NULL},
    };
    sweep_configs("tree", "labor.arff", configs, sizeof configs / sizeof *configs);
    /* the histogram keeps a second child's histograms (subtraction) below parents of 256 rows
     * and more */
    static const char *const big[][6] = {{"numeric=histogram", NULL}};
    sweep_configs("tree", "diabetes.arff", big, 1);
}

/* The soft tree with and without a validation share, growing incrementally, and in float32
 * (its own buffers), on a 14-row dataset. encode_rows freed its buffers on failure and left
 * the pointers for the caller's cleanup to free again. */
static void test_soft_tree_fit_out_of_memory(void **state)
{
    (void)state;
    static const char *const configs[][6] = {
        {"epochs=2", "depth=2", NULL},
        {"epochs=2", "depth=2", "validation_fraction=0.3", NULL},
        {"epochs=2", "depth=2", "grow=incremental", "validation_fraction=0.3", NULL},
        {"epochs=2", "depth=2", "validation_fraction=0.3", "precision=float", NULL},
    };
    sweep_configs("soft_tree", "weather.numeric.arff", configs, sizeof configs / sizeof *configs);
}

/* ---- saving and loading a fitted model ---- */

static int call_save(void *ctx, tl_err *err)
{
    fit_ctx *c = ctx;
    return tl_model_save(c->m, c->save_path, err);
}

static int call_load_model(void *ctx, tl_err *err)
{
    fit_ctx *c = ctx;
    tl_model *m = tl_model_load(c->save_path, err);
    if (!m)
        return err->code;
    tl_model_free(m);
    return TL_OK;
}

static void test_save_load_out_of_memory(void **state)
{
    (void)state;
    tl_dataset *d = tl_test_load("experiments/datasets/labor.arff", NULL);
    char path[256];
    snprintf(path, sizeof path, "%s", tl_test_tmpfile(".model", ""));
    static const char *const soft[] = {"epochs=2", "depth=2", NULL};
    for (size_t i = 0; tl_model_at(i); i++) {
        const char *name = tl_model_at(i)->name;
        fit_ctx c = {name, strcmp(name, "soft_tree") ? small(tl_model_at(i)) : soft, d, path, NULL};
        c.m = tl_test_fitted(name, d, c.kv);
        char what[256];
        describe(what, sizeof what, "save", &c);
        long n = tl_oom_sweep(what, call_save, &c);
        tl_oom_print_count(what, n, 1);
        describe(what, sizeof what, "load", &c);
        n = tl_oom_sweep(what, call_load_model, &c);
        tl_oom_print_count(what, n, 1);
        tl_model_free(c.m);
    }
    remove(path);
    tl_dataset_free(d);
}

int main(void)
{
    gsl_set_error_handler_off();
    tl_oom_trace_from_env();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_tree_predict_reports_out_of_memory),
        cmocka_unit_test(test_load_out_of_memory),
        cmocka_unit_test(test_registry_fit_out_of_memory),
        cmocka_unit_test(test_composed_tree_fit_out_of_memory),
        cmocka_unit_test(test_soft_tree_fit_out_of_memory),
        cmocka_unit_test(test_save_load_out_of_memory),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
