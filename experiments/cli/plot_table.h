/* A small CSV table reader for `treelab plot` (header row, comma-separated, RFC 4180
 * quoting within a line). */
#ifndef TL_PLOT_TABLE_H
#define TL_PLOT_TABLE_H

#include <stddef.h>

#include "treelab/tl_error.h"

typedef struct plot_table {
    size_t n_cols, n_rows;
    char **head;  /* n_cols names */
    char **cells; /* n_rows x n_cols */
    const char *path;
} plot_table;

/* Read path into t. TL_EIO / TL_EPARSE (naming file and line) on failure. */
int plot_table_read(const char *path, plot_table *t, tl_err *err);
void plot_table_free(plot_table *t);
/* Column index of name, or -1; with required = 1 a missing column is TL_EINVAL listing the
 * columns found (returned as -1 with err set). */
int plot_table_col(const plot_table *t, const char *name, int required, tl_err *err);
const char *plot_table_cell(const plot_table *t, size_t row, int col);
/* Parse a numeric cell; empty or "NA"/"nan" is NaN. TL_EPARSE naming file, row and column. */
int plot_table_num(const plot_table *t, size_t row, int col, double *out, tl_err *err);
/* Fill out[n_rows] with column col parsed as numbers. */
int plot_table_nums(const plot_table *t, int col, double *out, tl_err *err);
/* Index of s in names[0..*n), appended (not copied) when absent. */
size_t plot_table_intern(const char **names, size_t *n, const char *s);

#endif
