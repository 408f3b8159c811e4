/* Experiments beyond one machine: cost estimates and plans, shards and their merge, MPI.
 *
 * API: a tl_plan owns its rows (tl_plan_free); the other functions keep nothing of their
 * arguments after they return. err may be NULL everywhere.
 */
#ifndef TL_SCALE_H
#define TL_SCALE_H

#include <stddef.h>

#include "treelab/tl_api.h"
#include "treelab/tl_runner.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Beyond tl_run's options. */
typedef struct tl_run_scale {
    size_t shard, n_shards; /* n_shards > 0: only shard `shard` (1..n_shards) of the cells;
                               its folder gets cells.txt alone, its header naming the shard */
    int mpi;                /* spread the cells over the MPI ranks (after tl_mpi_init): rank 0
                               plans, hands them out and writes everything, the others fit */
} tl_run_scale;

/* tl_run with shards or MPI (sc NULL: neither, as tl_run). */
TL_API int tl_run_scaled(const tl_experiment *x, tl_dataset *const *data, const tl_run_opts *o,
                         const tl_run_scale *sc, tl_err *err);

/* Estimated seconds of one cell of model m on dataset d (fold: the learning curve's fraction
 * index, else unused) on the machine the constants were measured on (docs/scale.md): work
 * from the training rows, attributes and classes, scaled by the learner (a tree grows in
 * n p log n, naive Bayes in n p, the soft tree in epochs n p 2^depth), by the regrowths of a
 * cross-validated pruner and by nested selection's inner fits. Good to a small factor: it
 * orders cells and sizes runs, it does not time them. */
TL_API double tl_cell_cost(const tl_experiment *x, const tl_dataset *d, size_t m, size_t fold);

/* One row of a plan: the cells of a dataset x model pair. */
typedef struct tl_plan_row {
    size_t dataset, model, cells, rows, attributes;
    double cost;  /* estimated seconds per cell (the mean over the pair's cells) */
    double total; /* estimated seconds of them all */
} tl_plan_row;

typedef struct tl_plan {
    tl_plan_row *rows; /* dataset-major */
    size_t n_rows, cells;
    double total, largest; /* seconds of every cell, of the costliest one */
} tl_plan;

/* The plan of x on its loaded data. TL_OK or TL_ENOMEM; free with tl_plan_free. */
TL_API int tl_plan_make(const tl_experiment *x, tl_dataset *const *data, tl_plan *p, tl_err *err);
TL_API void tl_plan_free(tl_plan *p);

/* Ranks to finish p in wall seconds with `jobs` threads per rank: rank 0 coordinates, the
 * others compute, so 1 + ceil(total / (wall * jobs)), at least 2. 0 when no number of ranks
 * can (the costliest cell alone takes longer than wall). */
TL_API size_t tl_plan_ranks(const tl_plan *p, double wall, size_t jobs);

/* Split n cells of the given costs into n_shards shards: the costliest first, each to the
 * shard with the least cost so far (the lowest number on ties); shard[i] gets 0..n_shards-1.
 * Depends on the costs alone, so every shard computes the same partition. */
TL_API int tl_shard_partition(const double *cost, size_t n, size_t n_shards, size_t *shard,
                              tl_err *err);

/* Assemble shard folders (each written by tl_run_scaled with n_shards) into o->out_dir, which
 * then holds what a single run of x writes (the same bytes but for the timing fields).
 * data: x's datasets, or NULL to load them. Refused with TL_EINVAL naming the folder: a
 * shard of another config, seed, data (checksums), models or number of shards, a shard
 * given twice or missing, and a shard whose cells are not all done. */
TL_API int tl_merge(const char *const *dirs, size_t n_dirs, const tl_experiment *x,
                    tl_dataset *const *data, const tl_run_opts *o, tl_err *err);

/* MPI. In a build without MPI (-DTREELAB_MPI=OFF) tl_mpi_built is 0 and tl_mpi_init fails
 * with a message saying so. */
extern TL_API const int tl_mpi_built;
/* Ranks the process launcher started (mpirun, srun), read from its environment before any
 * MPI call; 0 when not started by one. */
TL_API size_t tl_mpi_launched(void);
/* Start MPI (threads: worker ranks will call MPI from several threads). */
TL_API int tl_mpi_init(int threads, tl_err *err);
TL_API int tl_mpi_rank(void);
TL_API int tl_mpi_size(void);
/* This rank failed (rc, err) before it could take part in a run (e.g. its config did not
 * load): do what the others wait for. Rank 0 tells them the run is off and returns rc; any
 * other rank tells rank 0, which reports it, and returns TL_OK. rc itself with one rank. */
TL_API int tl_mpi_abandon(int rc, tl_err *err);
/* 1 when tl_mpi_end will finalize (not abort). */
TL_API int tl_mpi_clean(void);
/* End MPI: a normal finalize when every rank finished its part of the protocol, else an
 * abort of the whole job with status (a rank that waits for a dead one would hang). */
TL_API void tl_mpi_end(int status);

#ifdef __cplusplus
}
#endif

#endif
