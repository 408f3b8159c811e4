/* Benchmark driver for scripts/bench/soft_tree.sh: seconds per epoch of treelab's soft_tree. */
#include <gsl/gsl_errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "treelab/tl_model.h"

/* usage: bench_soft_tree DATA.csv N_TRAIN DEPTH BATCH EPOCHS [PRECISION]
 * Fits on the first N_TRAIN rows, prints "seconds_per_epoch cpu_seconds_per_epoch
 * test_accuracy" (on the rest): wall-clock and the process's CPU time around fit and predict.
 * PRECISION is soft_tree's precision parameter (double, the default, or float). */
int main(int argc, char **argv)
{
    if (argc != 6 && argc != 7) {
        fprintf(stderr, "usage: %s DATA.csv N_TRAIN DEPTH BATCH EPOCHS [PRECISION]\n", argv[0]);
        return 2;
    }
    gsl_set_error_handler_off();
    tl_err err;
    tl_dataset *d = tl_dataset_load(argv[1], NULL, &err);
    if (!d) {
        fprintf(stderr, "%s\n", err.msg);
        return 1;
    }
    size_t n_train = strtoul(argv[2], NULL, 10), n = d->n_rows;
    long epochs = strtol(argv[5], NULL, 10);
    tl_params p;
    tl_params_init(&p);
    char kv[4][64];
    snprintf(kv[0], sizeof kv[0], "depth=%s", argv[3]);
    snprintf(kv[1], sizeof kv[1], "batch_size=%s", argv[4]);
    snprintf(kv[2], sizeof kv[2], "epochs=%s", argv[5]);
    snprintf(kv[3], sizeof kv[3], "precision=%s", argc == 7 ? argv[6] : "double");
    for (int i = 0; i < 4; i++)
        tl_params_set_kv(&p, kv[i], &err);
    size_t *rows = malloc(n * sizeof *rows);
    double *lab = malloc(n * sizeof *lab);
    for (size_t i = 0; i < n; i++)
        rows[i] = i;
    tl_model *m = tl_model_new("soft_tree", &p, &err);
    struct timespec t0, t1, c0, c1;
    tl_fit_ctx ctx = {1, NULL, 0};
    clock_gettime(CLOCK_MONOTONIC, &t0);
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &c0);
    int rc = !m || tl_model_fit(m, d, rows, n_train, &ctx, &err) ||
             tl_model_predict_label(m, d, rows + n_train, n - n_train, lab, &err);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &c1);
    if (rc) {
        fprintf(stderr, "%s\n", err.msg);
        return 1;
    }
    size_t correct = 0;
    for (size_t i = n_train; i < n; i++)
        correct += (int)lab[i - n_train] == d->y.code[i];
    double secs = (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec);
    double cpu = (double)(c1.tv_sec - c0.tv_sec) + 1e-9 * (double)(c1.tv_nsec - c0.tv_nsec);
    printf("%.4f %.4f %.4f\n", secs / (double)epochs, cpu / (double)epochs,
           (double)correct / (double)(n - n_train));
    tl_model_free(m);
    tl_params_clear(&p);
    free(rows);
    free(lab);
    tl_dataset_free(d);
    return 0;
}
