/* Internal to the report renderer: the loaded cells, sorted, and a few shared helpers. */
#ifndef TL_REPORT_UTIL_H
#define TL_REPORT_UTIL_H

#include "treelab/tl_report.h"

typedef struct tl_rep {
    const char *dir;
    tl_cells_meta meta;
    tl_cell *cells; /* sorted by dataset, model, repeat, fold */
    size_t n;
} tl_rep;

/* Open dir/name for writing; NULL with err set. */
FILE *tl_rep_open(const tl_rep *r, const char *name, tl_err *err);
/* Close f, turning a write failure into TL_EIO. Returns rc or the new error. */
int tl_rep_close(FILE *f, int rc, tl_err *err);
/* Cells of (dataset, model): *first index and the count (sorted order makes them adjacent). */
size_t tl_rep_range(const tl_rep *r, size_t d, size_t m, size_t *first);
/* The primary score of a cell, larger is better: accuracy, or minus the RMSE. */
double tl_rep_primary(const tl_cell *c);
/* A value with fixed decimals ("nan" when undefined). */
void tl_rep_num(FILE *f, double v);

/* summary.md and summary.csv (report_summary.c). */
int tl_rep_summary(const tl_rep *r, tl_err *err);

#endif
