/* Benchmark driver: time tl_model_load of a saved model file alone (the process's own clocks
 * around the call) and predict with it once, so a slow loader shows apart from start-up.
 * Usage: model_load_time MODEL [REPEATS]
 * Prints: wall_seconds cpu_seconds members (of the fastest of REPEATS loads, default 3). */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "bench_time.h"
#include "treelab/tl_model.h"

int main(int argc, char **argv)
{
    int repeats = bench_file_repeats(argc, argv, "model_load_time", 3);
    if (!repeats)
        return 2;
    double best = 1e300, best_cpu = 0;
    size_t members = 0;
    for (int r = 0; r < repeats; r++) {
        tl_err err;
        double t0 = bench_now(CLOCK_MONOTONIC), c0 = bench_now(CLOCK_PROCESS_CPUTIME_ID);
        tl_model *m = tl_model_load(argv[1], &err);
        double t1 = bench_now(CLOCK_MONOTONIC), c1 = bench_now(CLOCK_PROCESS_CPUTIME_ID);
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
