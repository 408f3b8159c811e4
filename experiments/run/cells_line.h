/* One line of the cells file parsed (internal: cells.c writes and parses, cells_read.c reads). */
#ifndef TL_CELLS_LINE_H
#define TL_CELLS_LINE_H

#include "treelab/tl_cells.h"

/* A line as tl_cells_write writes it into c (line is modified): TL_OK, TL_EPARSE or TL_ENOMEM. */
int tl_cells_parse_line(char *line, tl_cell *c);

/* 0 when c's values are in their ranges (NaN standing for no value): n_train and n_test > 0,
 * scores in theirs (accuracy in [0, 1], ...), times, counts and bins finite and >= 0; else -1
 * with the first value out of range in why. */
int tl_cells_check_values(const tl_cell *c, char *why, size_t size);

#endif
