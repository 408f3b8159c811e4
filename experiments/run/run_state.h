/* What the runner shares with its shard filter, merge and MPI master/worker (internal). */
#ifndef TL_RUN_STATE_H
#define TL_RUN_STATE_H

#include <pthread.h>
#include <stdio.h>

#include "treelab/tl_runner.h"
#include "treelab/tl_scale.h"

typedef struct tl_run_state {
    const tl_experiment *x;
    tl_dataset *const *data;
    const tl_run_opts *o;
    const tl_run_scale *sc; /* never NULL */
    /* per (dataset, repeat): CV folds, or an order for hold-out and learning curves */
    size_t **fold_of;
    double **order_of;
    tl_cell *todo; /* cells to compute (indices only) */
    size_t n_todo, next, done, total, computed;
    FILE *cells;
    pthread_mutex_t lock;
    int stop, rc;
    tl_err err;
    double t0;
    double last_sync; /* when the cells file last reached the disk */
} tl_run_state;

double tl_run_now(void);

/* Folds of dataset d under protocol p (the data's own fold ids give each dataset its number;
 * a learning curve's "folds" are its training fractions). */
size_t tl_run_n_folds(const tl_protocol *p, const tl_dataset *d);

/* The folds or orders of every (dataset, repeat) into s; freed by tl_run_free_splits. */
int tl_run_make_splits(tl_run_state *s, tl_err *err);
void tl_run_free_splits(tl_run_state *s);

/* Rows of the largest dataset: a compute buffer holds 3 times that many indices. */
size_t tl_run_max_rows(const tl_run_state *s);

/* Fit, predict and score cell c (its indices set) with the buffer buf. */
int tl_run_compute(tl_run_state *s, tl_cell *c, size_t *buf, tl_err *err);
/* The same for cells c[0..n_cells) of one fit (tl_run_same_fit, decreasing stages): one fit
 * truncated for each. */
int tl_run_compute_group(tl_run_state *s, tl_cell *c, size_t n_cells, size_t *buf, tl_err *err);

/* The value of model's stage parameter when its cells may share one fit with the other
 * models of its grid (a grid over its learner's stage parameter alone, no nested selection),
 * else 0. */
size_t tl_run_stage(const tl_experiment *x, size_t model);
/* 1 when cells a and b can come from one fit: the same dataset, repeat, fold and staged grid. */
int tl_run_same_fit(const tl_experiment *x, const tl_cell *a, const tl_cell *b);
/* Reorder s->todo so that the cells of one fit follow each other, most stages first, at the
 * place of the first of them (the results do not depend on the order). */
int tl_run_group_stages(tl_run_state *s, tl_err *err);

/* After a cell line was written to s->cells (lock held): flush it, count it and report
 * progress; fsync at most once a second, here, or, given sync, by the caller after it let go
 * of the lock when *sync is 1. TL_EIO (and s->stop) when the write failed. */
int tl_run_stored(tl_run_state *s, int *sync);

/* s's result once its cells stopped: the first error, TL_EINTERRUPTED when some are left
 * (cancelled, or max_cells reached), else TL_OK. */
int tl_run_outcome(tl_run_state *s, tl_err *err);

/* MPI (run/mpi_master.c and mpi_worker.c over mpi.c, or run/mpi_none.c without MPI). Rank 0: tell the other ranks
 * how its setup went (setup_rc, and the cells header they check their own against), then,
 * when it went well, hand them s's cells largest first and store what they send back, as
 * the threads do. Returns setup_rc, or what the cells came to (tl_run_outcome). */
int tl_run_mpi_master(tl_run_state *s, const char *header, int setup_rc, tl_err *err);
/* The other ranks: load the data (unless given), wait for rank 0's setup, then compute the
 * cells it hands out on o->jobs threads until told to stop. */
int tl_run_mpi_worker(const tl_experiment *x, tl_dataset *const *data, const tl_run_opts *o,
                      const tl_run_scale *sc, tl_err *err);

/* The cells file's header for x and its data (a new string), with "# shard I N" when the
 * options ask for a shard. */
int tl_run_header(const tl_experiment *x, tl_dataset *const *data, const tl_run_scale *sc,
                  char **text, tl_err *err);

/* The header lines (those starting with '#') of the cells file at path, as a new string. */
int tl_run_read_header(const char *path, char **text, tl_err *err);

/* 0 when headers a and b identify the same experiment (the producer and config path aside,
 * and with skip_shard the shard line); else 1 and what differs first, as "X against Y", in
 * what. */
int tl_run_header_diff(const char *a, const char *b, int skip_shard, char *what, size_t size);


/* Create the results folder and lock it. A folder that is neither new, empty nor treelab's
 * is refused unless force (tl_results_claim); one with results is refused unless resuming
 * (checked after the lock, so two runs cannot both pass it). */
int tl_run_prepare_dir(const char *dir, int resume, int force, int *lock, tl_err *err);
/* Open (or create) the cells file with header; on resume read what is there into
 * done[0..n_done) (after checking the header is this run's) and cut a half-written line. */
int tl_run_open_cells(tl_run_state *s, const char *header, tl_cell **done, size_t *n_done,
                      tl_err *err);
/* s->todo: the cells not found in done[0..n_done), of the shard when there are shards;
 * s->total and s->done count the shard's cells and those already done. */
int tl_run_plan(tl_run_state *s, const tl_cell *done, size_t n_done, tl_err *err);

/* Which cells shard sc->shard (1-based) of sc->n_shards holds: *mask gets one byte per cell
 * in the canonical order (dataset, model, repeat, fold), 1 for the shard's; NULL without
 * shards. The partition depends on the experiment and the data only (estimated costs,
 * largest first to the least loaded shard), so every shard computes the same one. */
int tl_run_shard_mask(const tl_run_state *s, unsigned char **mask, tl_err *err);

/* Order s->todo largest estimated cost first (ties in the canonical order). */
int tl_run_largest_first(tl_run_state *s, tl_err *err);

/* Cell c's line as tl_cells_write writes it, after prefix, as a new string of *len bytes
 * (runner.c); NULL when out of memory. The runner stores it, MPI workers send it ("C"). */
char *tl_run_cell_line(const tl_cell *c, const char *prefix, size_t *len);

#endif
