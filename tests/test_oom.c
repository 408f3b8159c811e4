/* Out of memory, SQLite-style: each operation below runs with its allocation 0, 1, 2, ...
 * failing until a run succeeds; every failed run must return TL_ENOMEM with an out-of-memory
 * message (not success with made-up numbers, nor another code), leak nothing and free
 * nothing twice. Operations: tl_tree_predict (300 classes), loading ARFF and CSV, fitting
 * and predicting with every learner of the registry (classification and regression) and
 * with composed trees (each pruner and splitter), tl_model_save / tl_model_load of each
 * learner, and tl_run of small experiments (config, cells, every report, figure data; cv,
 * hold-out with validation rows, learning curve).
 * Each sweep prints its number of allocation points. When one fails, TL_OOM_ALL=1 lists
 * every failing allocation and TL_OOM_TRACE (below) shows where a block came from. */
#define _XOPEN_SOURCE 700 /* nftw */
#include <execinfo.h>
#include <ftw.h>
#include <malloc.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_rng.h>
#include <math.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tl_test_util.h"
#include "treelab/tl_log.h"
#include "treelab/tl_model.h"
#include "treelab/tl_plot.h"
#include "treelab/tl_runner.h"

/* ---- allocation failures on demand ----
 * This program alone is linked with -Wl,--wrap=malloc,--wrap=calloc,--wrap=realloc,
 * --wrap=free,--wrap=strdup,--wrap=strndup,--wrap=gsl_rng_alloc (CMakeLists.txt): every call
 * the library (a static archive) and this file make goes through the wrappers below, which
 * pass through unless armed. Armed, they count allocations and fail the fail_at-th, and they track every
 * block in a table (no allocation of its own) so that:
 * - a block freed twice is caught, and not freed again, in the normal build too;
 * - a block allocated during the call and still live when it returns is a leak, named by
 *   its allocation number (LeakSanitizer also reports it, at exit, in the ASan build);
 * - in the normal build freed blocks are held back (quarantined) until the call returns, so
 *   that libc cannot hand an address out again (getline, open_memstream) and make a
 *   legitimate free look like a second one; ASan has its own quarantine, and frees for real
 *   at once so that it sees any use after free.
 * Allocations libc makes for itself (getline, open_memstream, fopen) and those of the shared
 * libraries (libconfig, GSL) are not wrapped and never fail here. */
void *__real_malloc(size_t size);
void *__real_calloc(size_t n, size_t size);
void *__real_realloc(void *p, size_t size);
void __real_free(void *p);

#if defined(__SANITIZE_ADDRESS__)
#define OOM_ASAN 1
#else
#define OOM_ASAN 0
#endif
#define OOM_QUARANTINE (!OOM_ASAN)

/* Open addressing, never deleted within a call: a slot's state moves LIVE -> FREED (and back
 * when an address is handed out again, which only happens without quarantine). */
#define OOM_SLOTS (1u << 20)
enum { OOM_EMPTY = 0, OOM_LIVE, OOM_FREED };

typedef struct oom_slot {
    void *p;
    long ordinal; /* allocation number within the call (-1: allocated before it) */
    int state;
} oom_slot;

static oom_slot oom_table[OOM_SLOTS];
static unsigned oom_used[OOM_SLOTS / 2]; /* slots to clear after the call */

static struct {
    int armed;
    long fail_at, count;
    int failed; /* the fail_at-th allocation was reached (and refused) */
    int benign; /* ... and it was a realloc that shrinks */
    int freed_twice;
    long twice_ordinal;
    int overflow; /* more blocks than the table holds */
    size_t n_used;
    long trace_at, trace_run; /* TL_OOM_TRACE (see oom_trace) */
    pthread_mutex_t lock;     /* the runner fits on a worker thread */
} oom = {.trace_at = -1, .trace_run = -1, .lock = PTHREAD_MUTEX_INITIALIZER};

static oom_slot *oom_slot_of(void *p)
{
    uintptr_t h = (uintptr_t)p;
    h ^= h >> 17;
    h *= 0x9E3779B97F4A7C15u;
    unsigned i = (unsigned)(h >> 40) & (OOM_SLOTS - 1);
    while (oom_table[i].state != OOM_EMPTY && oom_table[i].p != p)
        i = (i + 1) & (OOM_SLOTS - 1);
    if (oom_table[i].state == OOM_EMPTY) {
        if (oom.n_used == sizeof oom_used / sizeof *oom_used) {
            oom.overflow = 1;
            return NULL;
        }
        oom_used[oom.n_used++] = i;
        oom_table[i].p = p;
        oom_table[i].ordinal = -1;
    }
    return &oom_table[i];
}

/* TL_OOM_TRACE=K or K,J in the environment prints the stack of allocation K (in the run that
 * fails allocation J, else in every run) on stderr: where the block a failure names as
 * leaked or freed twice comes from, or the allocation that was refused. */
static void oom_trace(void)
{
    void *bt[40];
    int n = backtrace(bt, 40);
    fprintf(stderr, "---- allocation %ld (allocation %ld failing):\n", oom.count, oom.fail_at);
    backtrace_symbols_fd(bt, n, 2);
}

static void oom_trace_from_env(void)
{
    const char *s = getenv("TL_OOM_TRACE");
    if (s && sscanf(s, "%ld,%ld", &oom.trace_at, &oom.trace_run) < 1)
        oom.trace_at = -1;
}

/* Under the lock: 1 when this allocation is the one to refuse. */
static int oom_refuse(void)
{
    if (oom.armed && oom.count == oom.trace_at &&
        (oom.trace_run < 0 || oom.trace_run == oom.fail_at))
        oom_trace();
    if (!oom.armed || oom.count++ != oom.fail_at)
        return 0;
    oom.failed = 1;
    oom.benign = 0;
    return 1;
}

static void oom_note_alloc(void *p)
{
    if (!oom.armed || !p)
        return;
    oom_slot *s = oom_slot_of(p);
    if (s) {
        s->state = OOM_LIVE;
        s->ordinal = oom.count - 1;
    }
}

/* Under the lock: 1 when p must really be freed now. */
static int oom_note_free(void *p)
{
    if (!oom.armed || !p)
        return 1;
    oom_slot *s = oom_slot_of(p);
    if (!s)
        return 1;
    if (s->state == OOM_FREED) {
        if (!oom.freed_twice)
            oom.twice_ordinal = s->ordinal;
        oom.freed_twice = 1;
        return 0;
    }
    s->state = OOM_FREED;
    return !OOM_QUARANTINE;
}

void *__wrap_malloc(size_t size)
{
    pthread_mutex_lock(&oom.lock);
    void *p = oom_refuse() ? NULL : __real_malloc(size);
    oom_note_alloc(p);
    pthread_mutex_unlock(&oom.lock);
    return p;
}

void *__wrap_calloc(size_t n, size_t size)
{
    pthread_mutex_lock(&oom.lock);
    void *p = oom_refuse() ? NULL : __real_calloc(n, size);
    oom_note_alloc(p);
    pthread_mutex_unlock(&oom.lock);
    return p;
}

void __wrap_free(void *p)
{
    pthread_mutex_lock(&oom.lock);
    int really = oom_note_free(p);
    pthread_mutex_unlock(&oom.lock);
    if (really)
        __real_free(p);
}

/* Armed, realloc always moves the block (malloc, copy, free), so that a caller still holding
 * the old address touches a freed block (ASan reports it) and the old one is quarantined. */
void *__wrap_realloc(void *p, size_t size)
{
    pthread_mutex_lock(&oom.lock);
    if (!oom.armed) {
        pthread_mutex_unlock(&oom.lock);
        return __real_realloc(p, size);
    }
    size_t old = p ? malloc_usable_size(p) : 0;
    void *q = oom_refuse() ? NULL : __real_malloc(size ? size : 1);
    if (!q && p && size <= old)
        oom.benign = 1;
    oom_note_alloc(q);
    pthread_mutex_unlock(&oom.lock);
    if (q && p) {
        memcpy(q, p, old < size ? old : size);
        __wrap_free(p);
    }
    return q;
}

char *__wrap_strdup(const char *s)
{
    size_t n = strlen(s) + 1;
    char *p = __wrap_malloc(n);
    return p ? memcpy(p, s, n) : NULL;
}

char *__wrap_strndup(const char *s, size_t max)
{
    size_t n = strnlen(s, max);
    char *p = __wrap_malloc(n + 1);
    if (!p)
        return NULL;
    memcpy(p, s, n);
    p[n] = '\0';
    return p;
}

/* GSL's generator: an allocation point of the library's own (freed inside GSL, so not
 * tracked). GSL returns NULL once its error handler is off (main). */
gsl_rng *__real_gsl_rng_alloc(const gsl_rng_type *type);

gsl_rng *__wrap_gsl_rng_alloc(const gsl_rng_type *type)
{
    pthread_mutex_lock(&oom.lock);
    int refuse = oom_refuse();
    pthread_mutex_unlock(&oom.lock);
    return refuse ? NULL : __real_gsl_rng_alloc(type);
}

static void oom_arm(long fail_at)
{
    pthread_mutex_lock(&oom.lock);
    oom.fail_at = fail_at;
    oom.count = 0;
    oom.failed = oom.freed_twice = oom.overflow = 0;
    oom.armed = 1;
    pthread_mutex_unlock(&oom.lock);
}

/* Disarm; returns how many blocks allocated since oom_arm are still live (the first one's
 * allocation number in *first_leak), frees the quarantined blocks and clears the table. */
static size_t oom_disarm(long *first_leak)
{
    pthread_mutex_lock(&oom.lock);
    oom.armed = 0;
    size_t leaks = 0;
    *first_leak = -1;
    for (size_t i = 0; i < oom.n_used; i++) {
        oom_slot *s = &oom_table[oom_used[i]];
        if (s->state == OOM_LIVE && s->ordinal >= 0) {
            if (!leaks++ || s->ordinal < *first_leak)
                *first_leak = s->ordinal;
        }
        if (s->state == OOM_FREED && OOM_QUARANTINE)
            __real_free(s->p);
        memset(s, 0, sizeof *s);
    }
    oom.n_used = 0;
    pthread_mutex_unlock(&oom.lock);
    return leaks;
}

/* Operations swept by sweep(): self-contained (whatever they make they free before they
 * return, also on success) so that any block left live is a leak. */
typedef int (*oom_call)(void *ctx, tl_err *err);

/* Within a call, for work that is not the operation's (removing the folder of the previous
 * run, ...): its allocations neither count nor fail. */
static void oom_set_armed(int on)
{
    pthread_mutex_lock(&oom.lock);
    oom.armed = on;
    pthread_mutex_unlock(&oom.lock);
}

static void quiet_log(tl_log_level level, const char *msg, void *user)
{
    (void)level, (void)msg, (void)user;
}

/* Runs call with its 0th, 1st, ... allocation failing until a run reaches no failure: each
 * failed run must return TL_ENOMEM with an out-of-memory message, leave no block allocated
 * and free none twice; the last must succeed and leak nothing either. A refused realloc
 * that shrinks its block may instead leave the call succeeding (the caller keeps the larger
 * block). With stride > 1 only the first OOM_EVERY_FIRST allocations and then every
 * stride-th are failed (for an operation with many thousands of allocations: the sweep's
 * cost is quadratic). Returns how many allocations the successful run made.
 * TL_OOM_ALL=1 in the environment reports every failing allocation number before failing. */
#define OOM_EVERY_FIRST 200
static long sweep_every(const char *what, oom_call call, void *ctx, long stride)
{
    tl_log_fn old_log = tl_log_set_hook(quiet_log, NULL);
    int keep_going = getenv("TL_OOM_ALL") != NULL;
    size_t problems = 0;
    for (long k = 0;; k = k < OOM_EVERY_FIRST ? k + 1 : k + stride) {
        tl_err err;
        tl_err_clear(&err);
        oom_arm(k);
        int rc = call(ctx, &err);
        int failed = oom.failed, benign = oom.benign, twice = oom.freed_twice;
        long count = oom.count, twice_ordinal = oom.twice_ordinal, first_leak;
        size_t leaks = oom_disarm(&first_leak);
        char problem[TL_ERR_MSG_MAX + 256] = "";
        if (oom.overflow)
            snprintf(problem, sizeof problem, "too many blocks to track");
        else if (twice)
            snprintf(problem, sizeof problem,
                     "a block (from allocation %ld; TL_OOM_TRACE=%ld,%ld "
                     "shows where) was freed twice",
                     twice_ordinal, twice_ordinal, k);
        else if (leaks)
            snprintf(problem, sizeof problem,
                     "%zu block(s) leaked, the first from allocation %ld "
                     "(TL_OOM_TRACE=%ld,%ld shows where)",
                     leaks, first_leak, first_leak, k);
        else if (!failed && rc)
            snprintf(problem, sizeof problem, "returned %d (%s) though no allocation failed", rc,
                     err.msg);
        else if (failed && rc != TL_ENOMEM && !(benign && rc == TL_OK))
            snprintf(problem, sizeof problem, "returned %d (%s), not TL_ENOMEM", rc, err.msg);
        else if (failed && rc && !strstr(err.msg, "memory"))
            snprintf(problem, sizeof problem, "message '%s'", err.msg);
        if (*problem) {
            if (!keep_going)
                fail_msg("%s with allocation %ld failing: %s", what, k, problem);
            print_message("%s with allocation %ld failing: %s\n", what, k, problem);
            problems++;
        }
        if (!failed) {
            tl_log_set_hook(old_log, NULL);
            if (problems)
                fail_msg("%s: %zu failing allocation(s)", what, problems);
            return count;
        }
    }
}

/* The line each sweep prints: its allocation points. */
static void print_count(const char *what, long n, long stride)
{
    if (stride > 1)
        print_message("%-60s %6ld allocations (failed: the first %d, then one in %ld)\n", what, n,
                      OOM_EVERY_FIRST, stride);
    else
        print_message("%-60s %6ld allocations\n", what, n);
}

static long sweep(const char *what, oom_call call, void *ctx)
{
    return sweep_every(what, call, ctx, 1);
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
        long n = sweep(what, call_load, (void *)files[i]);
        print_count(what, n, 1);
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
    tl_fit_ctx fc = {7, NULL, 0};
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
    long n = sweep_every(what, call_fit, c, stride);
    print_count(what, n, stride);
    return n;
}

/* Every learner of the registry with its defaults, on labor (57 rows, nominal attributes,
 * missing values); the regression learners also on a numeric target. */
static void test_registry_fit_out_of_memory(void **state)
{
    (void)state;
    tl_dataset *d = tl_test_load("experiments/datasets/labor.arff", NULL);
    for (size_t i = 0; tl_model_at(i); i++) {
        fit_ctx c = {tl_model_at(i)->name, NULL, d, NULL, NULL};
        assert_true(sweep_fit(&c, 1) > 0);
    }
    tl_dataset_free(d);
    /* and those that do regression, on 8 rows */
    d = tl_test_load("experiments/datasets/engagement-regression.csv", NULL);
    for (size_t i = 0; tl_model_at(i); i++)
        if (tl_model_at(i)->tasks & TL_TASK_REGRESSION) {
            fit_ctx c = {tl_model_at(i)->name, NULL, d, NULL, NULL};
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
        fit_ctx c = {name, strcmp(name, "soft_tree") ? NULL : soft, d, path, NULL};
        c.m = tl_test_fitted(name, d, c.kv);
        char what[256];
        describe(what, sizeof what, "save", &c);
        long n = sweep(what, call_save, &c);
        print_count(what, n, 1);
        describe(what, sizeof what, "load", &c);
        n = sweep(what, call_load_model, &c);
        print_count(what, n, 1);
        tl_model_free(c.m);
    }
    remove(path);
    tl_dataset_free(d);
}

/* ---- a small experiment run ---- */

typedef struct run_ctx {
    const char *config;
    const char *out_dir;
    size_t partial; /* > 0: the run resumes a folder where a first run stopped after so many
                       cells (that first run is not swept) */
} run_ctx;

static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st, (void)flag, (void)ftw;
    return remove(path);
}

static void remove_dir(const char *dir)
{
    if (access(dir, F_OK) == 0 && nftw(dir, remove_entry, 16, FTW_DEPTH | FTW_PHYS))
        fail_msg("cannot remove %s", dir);
}

static int run_config(const char *config, const char *dir, int resume, size_t max_cells,
                      tl_err *err)
{
    tl_experiment *x = tl_experiment_load(config, NULL, err);
    if (!x)
        return err->code;
    tl_run_opts o = {dir, 1, resume, max_cells, NULL, NULL, NULL};
    int rc = tl_run(x, NULL, &o, err);
    tl_experiment_free(x);
    return rc;
}

/* Read the config, load the data, run every cell and write every report into a fresh
 * folder, or resume a partial one. */
static int call_run(void *ctx, tl_err *err)
{
    run_ctx *c = ctx;
    oom_set_armed(0);
    remove_dir(c->out_dir);
    tl_err e;
    if (c->partial && run_config(c->config, c->out_dir, 0, c->partial, &e) != TL_EINTERRUPTED)
        fail_msg("the partial run: %s", e.msg);
    oom_set_armed(1);
    return run_config(c->config, c->out_dir, c->partial > 0, 0, err);
}

/* Sweeps the run of one experiment config (text) in a fresh folder under tmpfs when there
 * is one (the runner fsyncs every cell and report file); the successful run must have
 * written the files named in expect (NULL-terminated). */
static void sweep_run(const char *what, const char *text, size_t partial, long stride,
                      const char *const *expect)
{
    char dir[256], config[256];
    const char *tmp = access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp";
    snprintf(dir, sizeof dir, "%s/tl_oom_run_%ld", tmp, (long)getpid());
    snprintf(config, sizeof config, "%s", tl_test_tmpfile(".cfg", text));
    run_ctx c = {config, dir, partial};
    /* ASan makes a run about three times slower: there the runs fail only every other
     * allocation past the first OOM_EVERY_FIRST (the normal build fails each) */
    stride *= OOM_ASAN ? 2 : 1;
    long n = sweep_every(what, call_run, &c, stride);
    print_count(what, n, stride);
    for (; *expect; expect++) {
        char path[512];
        snprintf(path, sizeof path, "%s/%s", dir, *expect);
        if (access(path, F_OK))
            fail_msg("%s: no %s", what, *expect);
    }
    remove_dir(dir);
    remove(config);
}

#define OOM_DATA(name) "\"" TL_SOURCE_DIR "/experiments/datasets/" name "\""

/* Two datasets, so that the summary ranks the models (Friedman, Nemenyi); then the same
 * run resuming a folder that holds 3 of its 8 cells. */
static void test_run_out_of_memory(void **state)
{
    (void)state;
    static const char *const expect[] = {
        "summary.md", "metrics.csv", "trees/labor__c45.txt", "confusion/weather.nominal__nb.csv",
        "manifest",   NULL};
    static const char config[] =
        "name = \"oom\"; seed = 3;\n"
        "datasets = ( " OOM_DATA("labor.arff") ", " OOM_DATA(
            "weather.nominal.arff") " );\n"
                                    "models = ( { name = \"c45\"; algorithm = \"c45\"; },\n"
                                    "  { name = \"nb\"; algorithm = \"gaussian_nb\"; } );\n"
                                    "protocol = { kind = \"cv\"; folds = 2; repeats = 1; };\n";
    sweep_run("run (labor + weather, c45 + gaussian_nb, 2-fold CV)", config, 0, 1, expect);
    sweep_run("run resumed after 3 of 8 cells", config, 3, 1, expect);
}

/* With the figures' data and gnuplot scripts (gnuplot and dot are not looked for: no child
 * process). Over 4,000 allocations, most of them fits the other sweeps cover: the first 200
 * and every third are failed. */
static void test_run_plots_out_of_memory(void **state)
{
    (void)state;
    static const char *const expect[] = {"plots/accuracy.gp",
                                         "plots/critical_difference.dat",
                                         "plots/confusion_weather.nominal__nb.gp",
                                         "plots/pruning_contact-lenses__cart.dat",
                                         "trees/contact-lenses__cart.dot",
                                         NULL};
    tl_plot_set_gnuplot("/nonexistent/gnuplot");
    tl_plot_set_dot("/nonexistent/dot");
    sweep_run(
        "run with plots (weather + contact-lenses, gaussian_nb + cart cv, 2-fold CV)",
        "name = \"oom\"; seed = 3;\n"
        "datasets = ( " OOM_DATA("contact-lenses.arff") ", " OOM_DATA(
            "weather.nominal.arff") " );\n"
                                    "models = ( { name = \"nb\"; algorithm = \"gaussian_nb\"; },\n"
                                    "  { name = \"cart\"; algorithm = \"cart\"; params = { prune = \"cv\"; folds = 2; }; } );\n"
                                    "protocol = { kind = \"cv\"; folds = 2; repeats = 1; };\n"
                                    "plots = [\"accuracy\", \"critical_difference\", \"confusion\", \"pruning\",\n"
                                    "  \"trees\"];\n",
        0, 3, expect);
    tl_plot_set_gnuplot(NULL);
    tl_plot_set_dot(NULL);
}

/* The other protocols: hold-out with validation rows (validation pruners and their figure)
 * and a learning curve (its figure and the ranks over its cells). */
static void test_run_protocols_out_of_memory(void **state)
{
    (void)state;
    static const char *const holdout[] = {"plots/validation_contact-lenses__rep.dat", NULL};
    static const char *const curve[] = {"learning_curve.csv",
                                        "plots/learning_curve_weather.nominal.gp", NULL};
    tl_plot_set_gnuplot("/nonexistent/gnuplot");
    tl_plot_set_dot("/nonexistent/dot");
    sweep_run(
        "run (contact-lenses, cart reduced_error + tree pre_validation, hold-out)",
        "name = \"oom\"; seed = 3;\n"
        "datasets = ( " OOM_DATA(
            "contact-lenses.arff") " );\n"
                                   "models = ( { name = \"rep\"; algorithm = \"cart\"; params = { prune = \"reduced_error\"; }; },\n"
                                   "  { name = \"pv\"; algorithm = \"tree\"; params = { pruner = \"pre_validation\"; }; } );\n"
                                   "protocol = { kind = \"holdout\"; train = 0.6; validation = 0.2; test = 0.2; repeats = 1; };\n"
                                   "plots = [\"validation\", \"accuracy\"];\n",
        0, 1, holdout);
    sweep_run(
        "run (contact-lenses + weather, gaussian_nb + id3, learning curve)",
        "name = \"oom\"; seed = 3;\n"
        "datasets = ( " OOM_DATA("contact-lenses.arff") ", " OOM_DATA(
            "weather.nominal.arff") " );\n"
                                    "models = ( { name = \"nb\"; algorithm = \"gaussian_nb\"; }, { name = \"id3\"; algorithm = \"id3\"; } );\n"
                                    "protocol = { kind = \"learning_curve\"; fractions = [0.5]; repeats = 1; };\n"
                                    "plots = [\"learning_curve\", \"accuracy\", \"critical_difference\"];\n",
        0, 1, curve);
    tl_plot_set_gnuplot(NULL);
    tl_plot_set_dot(NULL);
}

int main(void)
{
    gsl_set_error_handler_off();
    oom_trace_from_env();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_tree_predict_reports_out_of_memory),
        cmocka_unit_test(test_load_out_of_memory),
        cmocka_unit_test(test_registry_fit_out_of_memory),
        cmocka_unit_test(test_composed_tree_fit_out_of_memory),
        cmocka_unit_test(test_soft_tree_fit_out_of_memory),
        cmocka_unit_test(test_save_load_out_of_memory),
        cmocka_unit_test(test_run_out_of_memory),
        cmocka_unit_test(test_run_plots_out_of_memory),
        cmocka_unit_test(test_run_protocols_out_of_memory),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
