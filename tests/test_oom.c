/* Out of memory: every allocation a call makes is failed in turn; the call must report
 * TL_ENOMEM (not write made-up numbers) and free nothing twice. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tl_test_util.h"
#include "treelab/tl_model.h"

/* ---- allocation failures on demand ----
 * This program alone is linked with -Wl,--wrap=malloc,--wrap=calloc,--wrap=realloc,
 * --wrap=free (CMakeLists.txt): every call the library (a static archive) and this file make
 * goes through the wrappers below, which pass through unless armed. Armed, they count
 * allocations and fail the fail_at-th, and they remember the blocks freed so that a second
 * free of one is caught (and not done) in the normal build too, not only under ASan. */
void *__real_malloc(size_t size);
void *__real_calloc(size_t n, size_t size);
void *__real_realloc(void *p, size_t size);
void __real_free(void *p);

#define OOM_FREED_MAX 65536

static struct {
    int armed;
    long fail_at, count;
    int failed;      /* the fail_at-th allocation was reached (and refused) */
    int freed_twice;
    size_t n_freed;
    void *freed[OOM_FREED_MAX];
} oom;

static int oom_refuse(void)
{
    if (!oom.armed || oom.count++ != oom.fail_at)
        return 0;
    oom.failed = 1;
    return 1;
}

/* p was handed out again: freeing it is fine once more. */
static void oom_reused(void *p)
{
    if (!oom.armed || !p)
        return;
    for (size_t i = 0; i < oom.n_freed; i++)
        if (oom.freed[i] == p) {
            oom.freed[i] = oom.freed[--oom.n_freed];
            return;
        }
}

/* Returns 1 when p was freed already (since it was last handed out). */
static int oom_note_free(void *p)
{
    if (!oom.armed || !p)
        return 0;
    for (size_t i = 0; i < oom.n_freed; i++)
        if (oom.freed[i] == p) {
            oom.freed_twice = 1;
            return 1;
        }
    if (oom.n_freed < OOM_FREED_MAX)
        oom.freed[oom.n_freed++] = p;
    return 0;
}

void *__wrap_malloc(size_t size)
{
    if (oom_refuse())
        return NULL;
    void *p = __real_malloc(size);
    oom_reused(p);
    return p;
}

void *__wrap_calloc(size_t n, size_t size)
{
    if (oom_refuse())
        return NULL;
    void *p = __real_calloc(n, size);
    oom_reused(p);
    return p;
}

void *__wrap_realloc(void *p, size_t size)
{
    if (oom_refuse())
        return NULL;
    void *q = __real_realloc(p, size);
    if (q && q != p && p)
        oom_note_free(p);
    oom_reused(q);
    return q;
}

void __wrap_free(void *p)
{
    if (!oom_note_free(p))
        __real_free(p);
}

typedef int (*oom_call)(void *ctx, tl_err *err);

/* Runs call with its 0th, 1st, ... allocation failing until a run reaches no failure: each
 * failed run must return TL_ENOMEM and free no block twice; the last must succeed. Returns
 * how many allocations the successful run made. */
static long sweep(const char *what, oom_call call, void *ctx)
{
    for (long k = 0;; k++) {
        tl_err err;
        tl_err_clear(&err);
        memset(&oom, 0, sizeof oom);
        oom.fail_at = k;
        oom.armed = 1;
        int rc = call(ctx, &err);
        oom.armed = 0;
        if (oom.freed_twice)
            fail_msg("%s with allocation %ld failing: a block was freed twice", what, k);
        if (!oom.failed) {
            if (rc)
                fail_msg("%s failed without a failing allocation: %s", what, err.msg);
            return k;
        }
        if (rc != TL_ENOMEM)
            fail_msg("%s with allocation %ld failing returned %d (%s), not TL_ENOMEM", what, k,
                     rc, err.msg);
        if (!strstr(err.msg, "memory"))
            fail_msg("%s with allocation %ld failing: message '%s'", what, k, err.msg);
    }
}

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

static tl_model *fit_model(const char *algo, const tl_dataset *d, const char *const *kv)
{
    tl_params p;
    tl_err err;
    tl_params_init(&p);
    for (; kv && *kv; kv++)
        if (tl_params_set_kv(&p, *kv, &err))
            fail_msg("%s", err.msg);
    tl_model *m = tl_model_new(algo, &p, &err);
    tl_params_clear(&p);
    if (!m)
        fail_msg("%s: %s", algo, err.msg);
    tl_fit_ctx ctx = {1, NULL, 0};
    if (tl_model_fit(m, d, NULL, 0, &ctx, &err))
        fail_msg("fit %s: %s", algo, err.msg);
    return m;
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
    tl_model *m = fit_model("c45", d, kv);
    double *out = malloc(d->n_rows * tl_model_out_width(m) * sizeof *out);
    predict_ctx c = {m, d, out};
    long allocs = sweep("c45 predict with 300 classes", call_predict, &c);
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

/* ---- soft_tree fit ---- */

typedef struct fit_ctx {
    tl_model *m;
    const tl_dataset *d;
} fit_ctx;

static int call_fit(void *ctx, tl_err *err)
{
    fit_ctx *c = ctx;
    tl_fit_ctx fc = {7, NULL, 0};
    return tl_model_fit(c->m, c->d, NULL, 0, &fc, err);
}

/* Each allocation of a soft tree fit fails in turn, with and without a validation share and
 * growing incrementally. encode_rows freed its buffers on failure and left the pointers for
 * the caller's cleanup to free again. */
static void test_soft_tree_fit_out_of_memory(void **state)
{
    (void)state;
    tl_dataset *d = tl_test_load("experiments/datasets/weather.numeric.arff", NULL);
    const char *const configs[][6] = {
        {"epochs=2", "depth=2", NULL},
        {"epochs=2", "depth=2", "validation_fraction=0.3", NULL},
        {"epochs=2", "depth=2", "grow=incremental", "validation_fraction=0.3", NULL},
    };
    for (size_t i = 0; i < sizeof configs / sizeof *configs; i++) {
        tl_params p;
        tl_err err;
        tl_params_init(&p);
        for (const char *const *kv = configs[i]; *kv; kv++)
            if (tl_params_set_kv(&p, *kv, &err))
                fail_msg("%s", err.msg);
        tl_model *m = tl_model_new("soft_tree", &p, &err);
        tl_params_clear(&p);
        if (!m)
            fail_msg("%s", err.msg);
        fit_ctx c = {m, d};
        char what[128];
        snprintf(what, sizeof what, "soft_tree fit (%s %s %s)", configs[i][0], configs[i][1],
                 configs[i][2] ? configs[i][2] : "");
        assert_true(sweep(what, call_fit, &c) > 0);
        tl_model_free(m);
    }
    tl_dataset_free(d);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_tree_predict_reports_out_of_memory),
        cmocka_unit_test(test_soft_tree_fit_out_of_memory),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
