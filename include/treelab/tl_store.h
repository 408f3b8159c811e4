/* Model files: libconfig text written with %.17g (values read back exactly) and read by path.
 * Numbers follow LC_NUMERIC, which must be "C" (as the CLI sets it): see README. */
#ifndef TL_STORE_H
#define TL_STORE_H

#include <stddef.h>
#include <stdio.h>

#include "treelab/tl_error.h"

/* ---- writing: each call writes one `name = value;` line at the given indent ---- */
void tl_store_put_int(FILE *f, int indent, const char *name, long v);
/* Doubles always carry a '.' or an exponent so libconfig reads them as floats. */
void tl_store_put_double(FILE *f, int indent, const char *name, double v);
void tl_store_put_string(FILE *f, int indent, const char *name, const char *v);
void tl_store_put_doubles(FILE *f, int indent, const char *name, const double *v, size_t n);
void tl_store_put_ints(FILE *f, int indent, const char *name, const long *v, size_t n);
void tl_store_put_int_array(FILE *f, int indent, const char *name, const int *v, size_t n);
void tl_store_put_strings(FILE *f, int indent, const char *name, const char *const *v, size_t n);
/* `name = {` and `};` around a group. */
void tl_store_open_group(FILE *f, int indent, const char *name);
void tl_store_close_group(FILE *f, int indent);

/* ---- reading ---- */
typedef struct tl_store tl_store;

/* libconfig 1.5 silently keeps the low 32 bits of an integer literal without an L suffix
 * (seed = 4294967303 reads as 7). Scan a libconfig file for such literals, outside strings
 * and comments: TL_EPARSE naming file:line:col, or TL_OK (also when the file cannot be
 * opened; the reader reports that). tl_store_read calls it. */
int tl_store_check_int_literals(const char *path, tl_err *err);
/* Parse a file; NULL with err naming the file and line on a syntax error. */
tl_store *tl_store_read(const char *path, tl_err *err);
/* Read the libconfig file path into cfg (config_init'ed by the caller): TL_EIO "PATH: cannot
 * read WHAT (reason)" when it is missing, unreadable or a directory; the integer literal
 * check; TL_EPARSE "FILE:LINE: libconfig's message at `the line's text`" with a hint (a
 * missing ';' on the line before, or the syntax's shape). libconfig gives no column. */
struct config_t;
int tl_store_parse(struct config_t *cfg, const char *path, const char *what, tl_err *err);
void tl_store_free(tl_store *s);

/* Look up a dotted path ("state.nodes"). Each returns TL_OK, or TL_EPARSE naming the path
 * when it is absent or of the wrong type. Ints are accepted where doubles are expected. */
int tl_store_int(const tl_store *s, const char *path, long *out, tl_err *err);
int tl_store_double(const tl_store *s, const char *path, double *out, tl_err *err);
/* The string stays owned by the store. */
int tl_store_string(const tl_store *s, const char *path, const char **out, tl_err *err);
/* Number of elements of an array or list (TL_EPARSE when absent). */
int tl_store_len(const tl_store *s, const char *path, size_t *out, tl_err *err);
/* Copy exactly n elements into out (TL_EPARSE when the length differs). */
int tl_store_doubles(const tl_store *s, const char *path, double *out, size_t n, tl_err *err);
int tl_store_ints(const tl_store *s, const char *path, long *out, size_t n, tl_err *err);
int tl_store_int_array(const tl_store *s, const char *path, int *out, size_t n, tl_err *err);
/* Element i of a string array; owned by the store. */
int tl_store_string_at(const tl_store *s, const char *path, size_t i, const char **out, tl_err *err);
/* Every string setting of a group as key = value into out (initialised here). */
struct tl_params;
int tl_store_params(const tl_store *s, const char *group, struct tl_params *out, tl_err *err);
/* 1 when the path exists. */
int tl_store_has(const tl_store *s, const char *path);

#endif
