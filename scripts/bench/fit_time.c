/* Benchmark driver: load a CSV, then time tl_model_fit alone (the library's own clock
 * around fit) and report peak memory. Usage: bench_fit DATA.csv ALGO [key=value]...
 * Prints: rows fit_seconds leaves peak_rss_mb rss_before_fit_mb dataset_mb fit_cpu_seconds
 * load_peak_mb. peak_rss_mb is the process's high-water mark while fitting (reset after
 * loading through /proc/self/clear_refs, so the loader's own peak, load_peak_mb, is apart). */
#include <gsl/gsl_errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <time.h>

#include "treelab/tl_dataset.h"
#include "treelab/tl_model.h"

static double rss_mb(const char *field)
{
    FILE *f = fopen("/proc/self/status", "r");
    char line[256];
    double kb = 0;
    while (f && fgets(line, sizeof line, f))
        if (sscanf(line, field, &kb) == 1)
            break;
    if (f)
        fclose(f);
    return kb / 1024.0;
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: bench_fit DATA.csv ALGO [key=value]...\n");
        return 2;
    }
    gsl_set_error_handler_off();
    tl_err err;
    tl_dataset *d = tl_dataset_load(argv[1], NULL, &err);
    if (!d) {
        fprintf(stderr, "%s\n", err.msg);
        return 1;
    }
    tl_params p;
    tl_params_init(&p);
    for (int i = 3; i < argc; i++)
        if (tl_params_set_kv(&p, argv[i], &err)) {
            fprintf(stderr, "%s\n", err.msg);
            return 1;
        }
    tl_model *m = tl_model_new(argv[2], &p, &err);
    if (!m) {
        fprintf(stderr, "%s\n", err.msg);
        return 1;
    }
    double before = rss_mb("VmRSS: %lf"), load_peak = rss_mb("VmHWM: %lf");
    FILE *clear = fopen("/proc/self/clear_refs", "w"); /* "5": reset the high-water mark */
    if (clear) {
        fputs("5", clear);
        fclose(clear);
    }
    struct timespec t0, t1, c0, c1;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &c0);
    clock_gettime(CLOCK_MONOTONIC, &t0);
    tl_fit_ctx ctx = {1, NULL, 0};
    if (tl_model_fit(m, d, NULL, 0, &ctx, &err)) {
        fprintf(stderr, "%s\n", err.msg);
        return 1;
    }
    clock_gettime(CLOCK_MONOTONIC, &t1);
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &c1);
    tl_model_info info;
    tl_model_get_info(m, &info);
    double data_mb = (double)d->n_rows * (double)(d->schema.n_attrs * 8 + 4) / (1024.0 * 1024.0);
    printf("%zu %.3f %zu %.1f %.1f %.1f %.3f %.1f\n", d->n_rows,
           (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec), info.leaves,
           rss_mb("VmHWM: %lf"), before, data_mb,
           (double)(c1.tv_sec - c0.tv_sec) + 1e-9 * (double)(c1.tv_nsec - c0.tv_nsec), load_peak);
    tl_model_free(m);
    tl_params_clear(&p);
    tl_dataset_free(d);
    return 0;
}
