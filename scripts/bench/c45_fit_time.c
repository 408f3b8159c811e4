/* Time one learner's fit in-process: `c45_fit_time DATA ALGO REPEATS [key=value...]` prints
 * the best wall time of REPEATS fits on every row, the tree size, and the best CPU time of
 * the process over a fit (for scripts/bench/c45.sh). */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include <gsl/gsl_errno.h>

#include "bench_time.h"
#include "treelab/tl_model.h"

int main(int argc, char **argv)
{
    gsl_set_error_handler_off();
    if (argc < 4) {
        fprintf(stderr, "usage: %s DATA ALGO REPEATS [key=value...]\n", argv[0]);
        return 2;
    }
    tl_err err;
    tl_err_clear(&err);
    tl_dataset *d = tl_dataset_load(argv[1], NULL, &err);
    if (!d) {
        fprintf(stderr, "%s\n", err.msg);
        return 1;
    }
    tl_params p;
    tl_params_init(&p);
    for (int i = 4; i < argc; i++)
        tl_params_set_kv(&p, argv[i], &err);
    int reps = atoi(argv[3]);
    double best = 1e300, best_cpu = 1e300;
    tl_model_info info = {0, 0, 0};
    for (int r = 0; r < reps; r++) {
        tl_model *m = tl_model_new(argv[2], &p, &err);
        tl_fit_ctx ctx = {1, NULL, 0, 0};
        double t0 = bench_now(CLOCK_MONOTONIC), c0 = bench_now(CLOCK_PROCESS_CPUTIME_ID);
        if (!m || tl_model_fit(m, d, NULL, 0, &ctx, &err)) {
            fprintf(stderr, "%s\n", err.msg);
            return 1;
        }
        double t = bench_now(CLOCK_MONOTONIC) - t0, c = bench_now(CLOCK_PROCESS_CPUTIME_ID) - c0;
        best = t < best ? t : best;
        best_cpu = c < best_cpu ? c : best_cpu;
        tl_model_get_info(m, &info);
        tl_model_free(m);
    }
    printf("%.4f %zu %zu %.4f\n", best, info.leaves, info.nodes, best_cpu);
    tl_params_clear(&p);
    tl_dataset_free(d);
    return 0;
}
