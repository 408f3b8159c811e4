/* Benchmark driver: load a CSV, then time tl_model_fit alone (the library's own clock
 * around fit) and report peak memory. Usage: bench_fit DATA.csv ALGO [key=value]...
 * Prints: rows fit_seconds leaves peak_rss_mb rss_before_fit_mb dataset_mb fit_cpu_seconds
 * load_peak_mb [accuracy]. peak_rss_mb is the process's high-water mark while fitting (reset
 * after loading through /proc/self/clear_refs, so the loader's own peak, load_peak_mb, is
 * apart). The driver's own key holdout=K fits on the other rows (rows then counts them) and
 * adds the accuracy on rows i with i % K == K - 1 (the split the peers' hold-out benchmarks
 * use); columns are only ever appended, as the scripts read them by position. */
#include <gsl/gsl_errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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
    size_t holdout = 0;
    for (int i = 3; i < argc; i++)
        if (!strncmp(argv[i], "holdout=", 8))
            holdout = (size_t)strtoul(argv[i] + 8, NULL, 10);
        else if (tl_params_set_kv(&p, argv[i], &err)) {
            fprintf(stderr, "%s\n", err.msg);
            return 1;
        }
    tl_model *m = tl_model_new(argv[2], &p, &err);
    if (!m) {
        fprintf(stderr, "%s\n", err.msg);
        return 1;
    }
    /* the hold-out split (holdout=K) before the clocks; without it the fit takes every row */
    size_t *train = NULL, *test = NULL, n_train = d->n_rows, n_test = 0;
    if (holdout > 1) {
        train = malloc(d->n_rows * sizeof *train);
        test = malloc(d->n_rows * sizeof *test);
        if (!train || !test) {
            fprintf(stderr, "out of memory\n");
            return 1;
        }
        n_train = 0;
        for (size_t i = 0; i < d->n_rows; i++) {
            if (i % holdout == holdout - 1)
                test[n_test++] = i;
            else
                train[n_train++] = i;
        }
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
    tl_fit_ctx ctx = {.seed = 1};
    if (tl_model_fit(m, d, train, train ? n_train : 0, &ctx, &err)) {
        fprintf(stderr, "%s\n", err.msg);
        return 1;
    }
    clock_gettime(CLOCK_MONOTONIC, &t1);
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &c1);
    tl_model_info info;
    tl_model_get_info(m, &info);
    double data_mb = (double)d->n_rows * (double)(d->schema.n_attrs * 8 + 4) / (1024.0 * 1024.0);
    printf("%zu %.4f %zu %.1f %.1f %.1f %.3f %.1f", n_train,
           (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec), info.leaves,
           rss_mb("VmHWM: %lf"), before, data_mb,
           (double)(c1.tv_sec - c0.tv_sec) + 1e-9 * (double)(c1.tv_nsec - c0.tv_nsec), load_peak);
    double *label = n_test ? malloc(n_test * sizeof *label) : NULL;
    if (label && !tl_model_predict_label(m, d, test, n_test, label, &err)) {
        size_t right = 0;
        for (size_t i = 0; i < n_test; i++)
            right += (int)label[i] == d->y.code[test[i]];
        printf(" %.4f", (double)right / (double)n_test);
    }
    printf("\n");
    free(label);
    free(train);
    free(test);
    tl_model_free(m);
    tl_params_clear(&p);
    tl_dataset_free(d);
    return 0;
}
