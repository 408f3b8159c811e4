/* `treelab plot`'s options, shared by the command (cmd_plot.c) and its figures drawn from a
 * table (cmd_plot_tables.c). */
#ifndef TL_CLI_CMD_PLOT_H
#define TL_CLI_CMD_PLOT_H

#include "treelab/tl_error.h"

typedef struct plot_opts {
    const char *out, *title, *x, *xlabel, *ylabel, *logx, *xname, *yname, *cd, *datasets;
    const char *metric;
} plot_opts;

/* Read the CSV file at path and draw the figure of kind (pruning, learning-curve, curve,
 * confusion, grid, folds, cd) to o->out; an unknown kind is an error listing the valid ones. */
int tl_cli_plot_table(const char *kind, const char *path, const plot_opts *o, tl_err *err);

#endif
