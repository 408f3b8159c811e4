/* Benchmark driver: load a CSV, then time tl_model_fit alone (the library's own clock
 * around fit) and report peak memory. Usage: bench_fit DATA.csv ALGO [key=value]...
 * Prints: rows fit_seconds leaves peak_rss_mb rss_before_fit_mb dataset_mb [accuracy]
 * The driver's own key holdout=K fits on the other rows and prints the accuracy on rows
 * i with i % K == K - 1 (the split the peers' hold-out benchmarks use). */
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
    double before = rss_mb("VmRSS: %lf");
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    size_t *train = malloc(d->n_rows * sizeof *train), *test = malloc(d->n_rows * sizeof *test);
    size_t n_train = 0, n_test = 0;
    for (size_t i = 0; train && test && i < d->n_rows; i++) {
        if (holdout > 1 && i % holdout == holdout - 1)
            test[n_test++] = i;
        else
            train[n_train++] = i;
    }
    tl_fit_ctx ctx = {1, NULL, 0};
    if (!train || !test || tl_model_fit(m, d, train, n_train, &ctx, &err)) {
        fprintf(stderr, "%s\n", err.msg);
        return 1;
    }
    clock_gettime(CLOCK_MONOTONIC, &t1);
    tl_model_info info;
    tl_model_get_info(m, &info);
    double data_mb = (double)d->n_rows * (double)(d->schema.n_attrs * 8 + 4) / (1024.0 * 1024.0);
    printf("%zu %.4f %zu %.1f %.1f %.1f", n_train,
           (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec), info.leaves,
           rss_mb("VmHWM: %lf"), before, data_mb);
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
