/* Allocation failures on demand for test_oom and test_oom_run (linked with --wrap=malloc & co.,
 * see tests/CMakeLists.txt), and the sweep that fails each allocation of an operation in turn. */
#include <execinfo.h>
#include <malloc.h>
#include <gsl/gsl_rng.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tl_oom.h"
#include "treelab/tl_log.h"

/* ---- allocation failures on demand ----
 * This program alone is linked with -Wl,--wrap=malloc,--wrap=calloc,--wrap=realloc,
 * --wrap=free,--wrap=strdup,--wrap=strndup,--wrap=gsl_rng_alloc (CMakeLists.txt): every call
 * the library (a static archive) and this file make goes through the wrappers below, which
 * pass through unless armed. Armed, they count allocations and fail the fail_at-th, and they
 * track every block in a table (no allocation of its own) so that:
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

#define OOM_QUARANTINE (!TL_OOM_ASAN)

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

void tl_oom_trace_from_env(void)
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

/* Operations swept by tl_oom_sweep(): self-contained (whatever they make they free before they
 * return, also on success) so that any block left live is a leak. */
typedef int (*oom_call)(void *ctx, tl_err *err);

/* Within a call, for work that is not the operation's (removing the folder of the previous
 * run, ...): its allocations neither count nor fail. */
void tl_oom_set_armed(int on)
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
 * block). With stride > 1 only the first TL_OOM_EVERY_FIRST allocations and then every
 * stride-th are failed (for an operation with many thousands of allocations: the sweep's
 * cost is quadratic). Returns how many allocations the successful run made.
 * TL_OOM_ALL=1 in the environment reports every failing allocation number before failing. */
long tl_oom_sweep_every(const char *what, oom_call call, void *ctx, long stride)
{
    tl_log_fn old_log = tl_log_set_hook(quiet_log, NULL);
    int keep_going = getenv("TL_OOM_ALL") != NULL;
    size_t problems = 0;
    for (long k = 0;; k = k < TL_OOM_EVERY_FIRST ? k + 1 : k + stride) {
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
void tl_oom_print_count(const char *what, long n, long stride)
{
    if (stride > 1)
        print_message("%-60s %6ld allocations (failed: the first %d, then one in %ld)\n", what, n,
                      TL_OOM_EVERY_FIRST, stride);
    else
        print_message("%-60s %6ld allocations\n", what, n);
}

long tl_oom_sweep(const char *what, oom_call call, void *ctx)
{
    return tl_oom_sweep_every(what, call, ctx, 1);
}
