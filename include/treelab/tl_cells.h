/* The cells file of a results folder: one line per finished cell after a header that records
 * the experiment (written and read by the runner, experiments/run; the reports read it).
 *
 * API: tl_cells_read allocates *cells (the caller clears each with tl_cell_clear and frees
 * the array with free) and fills meta (cleared with tl_cells_meta_clear). err may be NULL.
 */
#ifndef TL_CELLS_H
#define TL_CELLS_H

#include <stdio.h>

#include "treelab/tl_api.h"
#include "treelab/tl_error.h"
#include "treelab/tl_runner.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A model's nested selection as the cells file's header records it: the grid's parameters
 * and values (a cell's `selected` indexes their product, tl_exp_select_candidate's order)
 * and how it was scored. */
typedef struct tl_cells_select {
    size_t n_params;
    char **param;
    size_t *n_values;
    char ***value;
    char *by; /* objective and inner protocol (tl_exp_select_describe), or NULL */
} tl_cells_select;

/* The number of candidates of s's grid (0 without selection). */
TL_API size_t tl_cells_candidates(const tl_cells_select *s);

/* What the cells file's header records (enough to render every report without the config
 * or the data). */
typedef struct tl_cells_meta {
    char name[256], config[1024], config_sha[65], producer[256];
    unsigned long seed;
    char protocol[256]; /* "cv folds 10 repeats 10 stratified 1", ... */
    size_t n_datasets, n_models, baseline;
    unsigned reports;        /* TL_REPORT_* bits */
    char **dataset;          /* names */
    char **dataset_sha;      /* SHA-256 of the data files ("-" when in memory) */
    size_t *n_classes;       /* 0 for regression */
    char ***classes;         /* class names per dataset */
    char **model;            /* display names */
    tl_cells_select *select; /* per model (n_params 0: no selection) */
    unsigned char *grid;     /* per model: 1 for a cell of a parameter grid (a "# grid J" line),
                           0 for a model listed in the config; NULL when none is */
    double *fractions;       /* learning curves: training fraction per fold index, else NULL */
    size_t n_fractions;
    /* protocol.missing: per dataset the dataset it was copied from (NULL for one that was
     * not) and the share of values removed; both NULL when the run had no missing rates */
    char **missing_base;
    double *missing_rate;
    size_t n_missing;       /* entries of both (every dataset's when the run had rates) */
    char missing_rows[16];  /* "train", "test", "all" or "" */
    size_t shard, n_shards; /* "# shard I N" of `treelab run --shard I/N`; 0 0 for a run */
    /* "# compare METRIC TEST PAIRS" (tl_experiment's compare_*; "-" a default): "" without */
    char compare_metric[32], compare_test[16], compare_pairs[16];
    char summary[256]; /* "# summary a,b,c" (tl_experiment's compare_summary): "" without */
    int format;        /* "# treelab cells F": 1, or 2 when a finished file ends in its checksum */
    int checked;       /* 1 when the file ended in a checksum line, which matched its cells */
} tl_cells_meta;

TL_API void tl_cells_meta_clear(tl_cells_meta *m);

/* Write the header of a cells file for x and its loaded data. */
TL_API int tl_cells_write_header(FILE *f, const tl_experiment *x, tl_dataset *const *data,
                                 tl_err *err);
/* Write one cell as a line (%.17g, read back exactly). */
TL_API void tl_cells_write(FILE *f, const tl_cell *c);

/* Read a cells file: its header into meta and every complete cell line into a new array
 * (*cells, *n, free each with tl_cell_clear and the array with free). A last line without
 * its newline (a write cut short) is ignored; *valid_bytes gets the length of the complete
 * part before the checksum line (may be NULL). A checksum line is verified (meta->checked);
 * an unfinished file has none. TL_EIO / TL_EPARSE on failure, naming the file and line. */
TL_API int tl_cells_read(const char *path, tl_cells_meta *meta, tl_cell **cells, size_t *n,
                         long *valid_bytes, tl_err *err);

#ifdef __cplusplus
}
#endif

#endif
