/* Benchmark driver: time tl_dataset_load alone (the process's own clock around the call,
 * file reading included) and print a checksum of the numbers read, to compare with pandas.
 * Usage: bench_load DATA [REPEATS]   Prints: seconds rows numeric_cells bitsum cpu_seconds
 * seconds (wall) and cpu_seconds (this process's CPU time, user and system) are those of the
 * fastest of REPEATS loads (default 1); bitsum is the sum modulo 2^64 of the
 * IEEE bit patterns of every numeric attribute cell (target excluded), so two readers that
 * produced the same doubles in any order print the same bitsum. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench_time.h"
#include "treelab/tl_dataset.h"

int main(int argc, char **argv)
{
    int repeats = bench_file_repeats(argc, argv, "bench_load", 1);
    if (!repeats)
        return 2;
    double best = 1e300, best_cpu = 0;
    uint64_t bitsum = 0;
    size_t rows = 0, cells = 0;
    for (int r = 0; r < repeats; r++) {
        tl_err err;
        double t0 = bench_now(CLOCK_MONOTONIC), c0 = bench_now(CLOCK_PROCESS_CPUTIME_ID);
        tl_dataset *d = tl_dataset_load(argv[1], NULL, &err);
        double t = bench_now(CLOCK_MONOTONIC) - t0, cpu = bench_now(CLOCK_PROCESS_CPUTIME_ID) - c0;
        if (!d) {
            fprintf(stderr, "%s\n", err.msg);
            return 1;
        }
        if (t < best) {
            best = t;
            best_cpu = cpu;
        }
        bitsum = 0;
        cells = 0;
        rows = d->n_rows;
        for (size_t j = 0; j < d->schema.n_attrs; j++) {
            if (d->schema.attrs[j].kind != TL_ATTR_NUMERIC)
                continue;
            for (size_t i = 0; i < d->n_rows; i++) {
                uint64_t b;
                memcpy(&b, &d->cols[j].num[i], sizeof b);
                bitsum += b;
            }
            cells += d->n_rows;
        }
        tl_dataset_free(d);
    }
    printf("%.4f %zu %zu %llu %.4f\n", best, rows, cells, (unsigned long long)bitsum, best_cpu);
    return 0;
}
