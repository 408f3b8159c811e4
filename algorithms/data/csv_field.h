/* Private to the CSV loader: the cursor over the text and the field reader (csv_field.c),
 * which the typing passes (csv.c) drive. */
#ifndef TL_CSV_FIELD_H
#define TL_CSV_FIELD_H

#include <stddef.h>

#include "treelab/tl_error.h"

/* Where reading is: p in [text, end), the current line's number and start (for columns). */
typedef struct {
    const char *path;
    const char *p, *end, *line_start;
    size_t line;
    char delim;
    char decimal; /* '.' or ',' (tl_data_opts.decimal) */
} csv_cur;

/* A field as it is in the text (quotes removed, "" pairs not yet), and where it starts. */
typedef struct {
    const char *s;
    size_t len;
    int escaped; /* a quoted field holding "" pairs */
    size_t line, col;
} csv_field;

/* The 1-based column of p on the current line. */
size_t tl_csv_col_of(const csv_cur *c, const char *p);
/* Step over the line end at c->p ("\n", "\r\n" or a lone "\r") to the next line. */
void tl_csv_next_line(csv_cur *c);
/* Skip lines holding only blanks. Returns 1 when a record starts at c->p, 0 at the end. */
int tl_csv_skip_blank_lines(csv_cur *c);
/* Read one field; leaves c->p on the delimiter, a line end or the end of the text. */
int tl_csv_read_field(csv_cur *c, csv_field *f, tl_err *err);
/* Read a record of exactly n fields into fields[] and step to the next line. */
int tl_csv_read_record(csv_cur *c, csv_field *fields, size_t n, tl_err *err);
/* The delimiter used most often in the first line outside quotes; ',' on a tie or none. */
char tl_csv_detect_delim(const char *p, const char *end);
/* An empty field, "?" or "NA" (quoted or not). */
int tl_csv_is_missing(const csv_field *f);
/* The field's text with "" turned into ", in scratch when that is needed. */
const char *tl_csv_field_text(const csv_field *f, char **scratch, size_t *cap, size_t *len);
/* Header fields into a growing array; *n_out fields. */
int tl_csv_read_header(csv_cur *c, csv_field **out, size_t *n_out, tl_err *err);

#endif
