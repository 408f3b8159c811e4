/* Benchmark driver: time tl_model_load of a saved model file alone (the process's own clocks
 * around the call) and predict with it once, so a slow loader shows apart from start-up.
 * Usage: model_load_time MODEL [REPEATS]
 * Prints: wall_seconds cpu_seconds members (of the fastest of REPEATS loads, default 3). */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "treelab/tl_model.h"

static double now(clockid_t clock)
{
    struct timespec t;
    clock_gettime(clock, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: model_load_time MODEL [REPEATS]\n");
        return 2;
    }
    int repeats = argc > 2 ? atoi(argv[2]) : 3;
    double best = 1e300, best_cpu = 0;
    size_t members = 0;
    for (int r = 0; r < (repeats > 0 ? repeats : 1); r++) {
        tl_err err;
        double t0 = now(CLOCK_MONOTONIC), c0 = now(CLOCK_PROCESS_CPUTIME_ID);
        tl_model *m = tl_model_load(argv[1], &err);
        double t1 = now(CLOCK_MONOTONIC), c1 = now(CLOCK_PROCESS_CPUTIME_ID);
        if (!m) {
            fprintf(stderr, "model_load_time: %s\n", err.msg);
            return 1;
        }
        const tl_ensemble *e = tl_model_ensemble(m);
        members = e ? e->n_trees : 1;
        if (t1 - t0 < best)
            best = t1 - t0, best_cpu = c1 - c0;
        tl_model_free(m);
    }
    printf("%.6f %.6f %zu\n", best, best_cpu, members);
    return 0;
}
