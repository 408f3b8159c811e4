/* One line of the cells file parsed (internal: cells.c writes and parses, cells_read.c reads). */
#ifndef TL_CELLS_LINE_H
#define TL_CELLS_LINE_H

#include "treelab/tl_cells.h"

/* A line as tl_cells_write writes it into c (line is modified): TL_OK, TL_EPARSE or TL_ENOMEM. */
int tl_cells_parse_line(char *line, tl_cell *c);

#endif
