/* `treelab run CONFIG --plan`: the cells and their estimated cost, and what finishes in time. */
#include "run_plan.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "treelab/tl_metrics.h"
#include "treelab/tl_runner.h"

static void print_rows(const tl_experiment *x, const tl_plan *p)
{
    printf("%-20s %-20s %7s %8s %6s %14s %12s\n", "dataset", "model", "cells", "rows", "attrs",
           "est. s/cell", "est. s");
    for (size_t i = 0; i < p->n_rows; i++) {
        const tl_plan_row *r = &p->rows[i];
        printf("%-20s %-20s %7zu %8zu %6zu %14.6f %12.3f\n", x->datasets[r->dataset].name,
               x->models[r->model].name, r->cells, r->rows, r->attributes, r->cost, r->total);
    }
    printf("%-41s %7zu %8s %6s %14s %12.3f\n", "total", p->cells, "", "", "", p->total);
}

/* bytes in kB, MB or GB (a tiny experiment's memory is not 0.0 MB). */
static void print_bytes(const char *before, double b)
{
    const char *unit = b >= 1e9 ? "GB" : b >= 1e6 ? "MB" : "kB";
    printf("%s%.1f %s", before, b / (b >= 1e9 ? 1e9 : b >= 1e6 ? 1e6 : 1e3), unit);
}

/* The memory a run holds (the data, the cells' indices; a finished cell's results are in the
 * cells file, not in memory), then what the reports hold: every cell with its confusion
 * matrix and its calibration and ROC bins. */
static void print_memory(const tl_experiment *x, tl_dataset *const *data, const tl_plan *p)
{
    double data_b = 0, report_b = 0;
    for (size_t d = 0; d < x->n_datasets; d++)
        data_b += (double)data[d]->n_rows * (double)(data[d]->schema.n_attrs + 2) * 8;
    for (size_t i = 0; i < p->n_rows; i++) {
        const tl_dataset *d = data[p->rows[i].dataset];
        double k = tl_dataset_is_classification(d) ? (double)tl_dataset_n_classes(d) : 0;
        double per =
            (double)sizeof(tl_cell) + (k ? 8 * (k * k + 3 * TL_PROBA_BINS + 2 * TL_ROC_BINS) : 0);
        report_b += per * (double)p->rows[i].cells;
    }
    double run_b = data_b + (double)sizeof(tl_cell) * (double)p->cells;
    print_bytes("memory: the run holds about ", run_b);
    printf(" (the data, and %zu bytes a cell for its place in the plan)", sizeof(tl_cell));
    print_bytes("; the reports then about ", data_b + report_b);
    printf(" (every cell's scores, confusion matrix and ROC bins)\n");
}

/* What finishes within wall: one process, MPI ranks, or a job array of shards. */
static void print_advice(const tl_plan *p, double wall, size_t jobs, const tl_run_scale *sc)
{
    double per_process = p->total / (double)jobs;
    printf("costliest cell: %.3f s; one process with --jobs %zu: about %.0f s\n", p->largest, jobs,
           per_process);
    size_t ranks = tl_plan_ranks(p, wall, jobs);
    if (!ranks) {
        printf("no number of ranks finishes within %.0f s: the costliest cell alone takes "
               "longer\n",
               wall);
        return;
    }
    if (per_process <= wall)
        printf("within %.0f s: one process is enough (treelab run CONFIG --jobs %zu)\n", wall,
               jobs);
    else
        printf("within %.0f s: mpirun -n %zu treelab run CONFIG --jobs %zu (rank 0 hands out "
               "the cells, %zu ranks fit them), or a job array of %zu shards (--shard I/%zu) "
               "with --jobs %zu each\n",
               wall, ranks, jobs, ranks - 1, ranks - 1, ranks - 1, jobs);
    if (sc->n_shards)
        printf("with %zu shards: about %.0f s of cells each (the partition balances the "
               "estimates)\n",
               sc->n_shards, p->total / (double)sc->n_shards);
}

int tl_cli_print_plan(const char *config, double wall, size_t jobs, const tl_run_scale *sc,
                      tl_err *err)
{
    tl_experiment *x = tl_experiment_load(config, NULL, err);
    if (!x)
        return err->code;
    tl_dataset **data = calloc(x->n_datasets ? x->n_datasets : 1, sizeof *data);
    int rc = data ? TL_OK : tl_err_set(err, TL_ENOMEM, "out of memory");
    for (size_t i = 0; !rc && i < x->n_datasets; i++)
        if (!(data[i] = tl_experiment_load_dataset(x, i, err)))
            rc = err->code;
    tl_plan p;
    if (!rc && !(rc = tl_plan_make(x, data, &p, err))) {
        printf("plan of %s (%s): %zu cells; estimated seconds on the machine the cost "
               "constants were measured on (docs/scale.md), good to a small factor\n",
               x->name, config, p.cells);
        print_rows(x, &p);
        print_memory(x, data, &p);
        print_advice(&p, wall, jobs, sc);
        tl_plan_free(&p);
    }
    for (size_t i = 0; data && i < x->n_datasets; i++)
        tl_dataset_free(data[i]);
    free(data);
    tl_experiment_free(x);
    return rc;
}
