/* One line of the cells file parsed, and the checksum line that ends a finished file
 * (internal: cells.c writes and parses, cells_read.c reads, cells_sum.c sums). */
#ifndef TL_CELLS_LINE_H
#define TL_CELLS_LINE_H

#include <stdio.h>

#include "treelab/tl_cells.h"
#include "treelab/tl_sha256.h"

/* A line as tl_cells_write writes it into c (line is modified): TL_OK, TL_EPARSE or TL_ENOMEM. */
int tl_cells_parse_line(char *line, tl_cell *c);

/* 0 when c's values are in their ranges (NaN standing for no value): n_train and n_test > 0,
 * scores in theirs (accuracy in [0, 1], ...), times, counts and bins finite and >= 0, and,
 * with sums, a confusion matrix that adds up to the test rows (n_test, or the test weight
 * the cell records); else -1 with the first value out of range in why. sums is 0 for files
 * written before cells recorded their test weight (format 1). */
int tl_cells_check_values(const tl_cell *c, int sums, char *why, size_t size);

/* "# checksum sha256 N HEX": the last line of a finished cells file (format 2). */
#define TL_CELLS_CHECKSUM "# checksum sha256 "

/* The digests of cell lines, by their cell's canonical key (dataset, model, repeat, fold). */
typedef struct {
    size_t key[4];
    unsigned char digest[32];
} tl_cells_sum_line;
typedef struct {
    tl_cells_sum_line *v;
    size_t n, cap;
} tl_cells_sum;

/* Add a cell line (len bytes, without its newline) with its key: TL_OK or TL_ENOMEM. */
int tl_cells_sum_add(tl_cells_sum *s, const size_t key[4], const char *line, size_t len);
/* SHA-256 over the lines' digests in key order (s is sorted), as hex. */
void tl_cells_sum_hex(tl_cells_sum *s, char out[65]);
void tl_cells_sum_free(tl_cells_sum *s);
/* The first four numbers of a cell line (its key): 0, or -1 when it has none. */
int tl_cells_line_key(const char *line, size_t key[4]);
/* Append the checksum line of the cells file at path to out, which is open on it for
 * appending (flushed first, and synced after). */
int tl_cells_seal(FILE *out, const char *path, tl_err *err);

#endif
