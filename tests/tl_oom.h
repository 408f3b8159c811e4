/* Allocation failures on demand (tests/tl_oom.c), for test programs linked with the wrappers. */
#ifndef TL_TEST_OOM_H
#define TL_TEST_OOM_H

#include "tl_test_util.h"

#define TL_OOM_ASAN TL_TEST_ASAN

/* Operations swept by tl_oom_sweep: self-contained (whatever they make they free before they
 * return, also on success) so that any block left live is a leak. */
typedef int (*oom_call)(void *ctx, tl_err *err);

/* With a stride, the first this many allocations fail one by one, then one in stride. */
#define TL_OOM_EVERY_FIRST 200

/* Runs call with its 0th, 1st, ... allocation failing until a run reaches no failure (each
 * must return TL_ENOMEM with an out-of-memory message, leak nothing and free nothing twice);
 * returns how many allocations the successful run made. */
long tl_oom_sweep(const char *what, oom_call call, void *ctx);
/* The same, failing every stride-th allocation past the first TL_OOM_EVERY_FIRST. */
long tl_oom_sweep_every(const char *what, oom_call call, void *ctx, long stride);
/* The line each sweep prints: its allocation points. */
void tl_oom_print_count(const char *what, long n, long stride);
/* Within a call, for work that is not the operation's: its allocations neither count nor fail. */
void tl_oom_set_armed(int on);
/* TL_OOM_TRACE=K[,J] from the environment (see tl_oom.c); call first in main. */
void tl_oom_trace_from_env(void);

#endif
