/* A CSV table read whole (RFC 4180): treelab's own result files, for `treelab plot` and the
 * paper reports.
 *
 * API: tl_table_read fills a tl_table that owns its names and cells (tl_table_free; a failed
 * read frees what it read); tl_table_cell returns the table's own string. err may be NULL
 * everywhere.
 */
#ifndef TL_TABLE_H
#define TL_TABLE_H

#include <stddef.h>

#include "treelab/tl_api.h"
#include "treelab/tl_error.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct tl_table {
    size_t n_cols, n_rows;
    char **head;  /* n_cols names */
    char **cells; /* n_rows x n_cols */
    const char *path;
} tl_table;

/* Read path into t: a header row, then records of as many fields, comma-separated, RFC 4180
 * quoting (a quoted field may hold commas, doubled quotes and line breaks), CRLF or LF line
 * ends, a UTF-8 byte-order mark ignored, unquoted fields trimmed, '#' lines skipped. A blank
 * line after the first record ends the table (treelab's confusion files put a second table
 * after one). TL_EIO / TL_EPARSE (naming file and line) / TL_ENOMEM. */
TL_API int tl_table_read(const char *path, tl_table *t, tl_err *err);
TL_API void tl_table_free(tl_table *t);
/* Column index of name, or -1; with required = 1 a missing column is TL_EINVAL listing the
 * columns found (returned as -1 with err set). */
TL_API int tl_table_col(const tl_table *t, const char *name, int required, tl_err *err);
TL_API const char *tl_table_cell(const tl_table *t, size_t row, int col);
/* Parse a numeric cell; empty or "NA"/"nan" is NaN. TL_EPARSE naming file, row and column. */
TL_API int tl_table_num(const tl_table *t, size_t row, int col, double *out, tl_err *err);
/* Fill out[n_rows] with column col parsed as numbers. */
TL_API int tl_table_nums(const tl_table *t, int col, double *out, tl_err *err);
/* Index of s in names[0..*n), appended (not copied) when absent. */
TL_API size_t tl_table_intern(const char **names, size_t *n, const char *s);

#ifdef __cplusplus
}
#endif

#endif
