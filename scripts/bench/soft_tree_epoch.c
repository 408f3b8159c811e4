/* Benchmark driver for scripts/bench/soft_tree.sh: seconds per epoch of treelab's soft_tree. */
#include <gsl/gsl_errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "treelab/tl_model.h"

/* One fit on rows [0, n_train) and a prediction of the rest, with `epochs` epochs: wall and
 * CPU seconds into t[0], t[1], test accuracy into *acc. Returns non-zero on error. */
static int timed_fit(const tl_dataset *d, size_t n_train, char **kv, int n_kv, long epochs,
                     double t[2], double *acc)
{
    tl_err err;
    tl_params p;
    tl_params_init(&p);
    char ep[32];
    snprintf(ep, sizeof ep, "epochs=%ld", epochs);
    for (int i = 0; i < n_kv; i++)
        tl_params_set_kv(&p, kv[i], &err);
    tl_params_set_kv(&p, ep, &err);
    size_t n = d->n_rows;
    size_t *rows = malloc(n * sizeof *rows);
    double *lab = malloc(n * sizeof *lab);
    for (size_t i = 0; i < n; i++)
        rows[i] = i;
    tl_model *m = tl_model_new("soft_tree", &p, &err);
    struct timespec t0, t1, c0, c1;
    tl_fit_ctx ctx = {.seed = 1};
    clock_gettime(CLOCK_MONOTONIC, &t0);
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &c0);
    int rc = !m || tl_model_fit(m, d, rows, n_train, &ctx, &err) ||
             tl_model_predict_label(m, d, rows + n_train, n - n_train, lab, &err);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &c1);
    if (rc) {
        fprintf(stderr, "%s\n", err.msg);
    } else {
        size_t correct = 0;
        for (size_t i = n_train; i < n; i++)
            correct += (int)lab[i - n_train] == d->y.code[i];
        t[0] = (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec);
        t[1] = (double)(c1.tv_sec - c0.tv_sec) + 1e-9 * (double)(c1.tv_nsec - c0.tv_nsec);
        *acc = (double)correct / (double)(n - n_train);
    }
    tl_model_free(m);
    tl_params_clear(&p);
    free(rows);
    free(lab);
    return rc;
}

/* usage: bench_soft_tree DATA.csv N_TRAIN DEPTH BATCH EPOCHS [PRECISION [KEY=VALUE...]]
 * Fits on the first N_TRAIN rows and prints "seconds_per_epoch cpu_seconds_per_epoch
 * test_accuracy epoch_seconds": the first two are wall-clock and the process's CPU time around
 * the whole fit (input encoding, initialisation and every epoch) and the prediction of the
 * other rows, divided by EPOCHS; epoch_seconds is the cost of one more epoch, (T(EPOCHS) -
 * T(1)) / (EPOCHS - 1) in CPU time, which is what the PyTorch side's clock (around its epochs
 * only) measures. PRECISION is soft_tree's precision parameter (double, the default, or
 * float); KEY=VALUE more of its parameters (gate=smooth_step). */
int main(int argc, char **argv)
{
    if (argc < 6 || argc > 16) {
        fprintf(stderr,
                "usage: %s DATA.csv N_TRAIN DEPTH BATCH EPOCHS [PRECISION [KEY=VALUE...]]\n",
                argv[0]);
        return 2;
    }
    gsl_set_error_handler_off();
    tl_err err;
    tl_dataset *d = tl_dataset_load(argv[1], NULL, &err);
    if (!d) {
        fprintf(stderr, "%s\n", err.msg);
        return 1;
    }
    size_t n_train = strtoul(argv[2], NULL, 10);
    long epochs = strtol(argv[5], NULL, 10);
    if (epochs < 2) {
        fprintf(stderr, "EPOCHS must be at least 2\n");
        return 2;
    }
    char set[3][64], *kv[16]; /* depth, batch size, precision, then the rest */
    snprintf(set[0], sizeof set[0], "depth=%s", argv[3]);
    snprintf(set[1], sizeof set[1], "batch_size=%s", argv[4]);
    snprintf(set[2], sizeof set[2], "precision=%s", argc >= 7 ? argv[6] : "double");
    int n_kv = 0;
    for (int i = 0; i < 3; i++)
        kv[n_kv++] = set[i];
    for (int i = 7; i < argc; i++)
        kv[n_kv++] = argv[i];
    double one[2], all[2], acc, acc1;
    if (timed_fit(d, n_train, kv, n_kv, 1, one, &acc1) ||
        timed_fit(d, n_train, kv, n_kv, epochs, all, &acc))
        return 1;
    printf("%.4f %.4f %.4f %.4f\n", all[0] / (double)epochs, all[1] / (double)epochs, acc,
           (all[1] - one[1]) / (double)(epochs - 1));
    tl_dataset_free(d);
    return 0;
}
