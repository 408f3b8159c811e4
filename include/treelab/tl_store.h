/* Model files: libconfig text written with %.17g or, packed, the shortest exact decimal (values
 * read back exactly) and read by path.
 * Numbers follow LC_NUMERIC, which must be "C" (as the CLI sets it): see docs/development.md.
 *
 * API: tl_store_read returns a store the caller frees with tl_store_free; strings that the
 * getters return are owned by the store and live as long as it does. tl_store_params fills a
 * tl_params the caller clears. err may be NULL everywhere.
 */
#ifndef TL_STORE_H
#define TL_STORE_H

#include <stddef.h>
#include <stdio.h>

#include "treelab/tl_api.h"
#include "treelab/tl_error.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- writing: each call writes one `name = value;` line at the given indent ---- */
TL_API void tl_store_put_int(FILE *f, int indent, const char *name, long v);
/* Doubles always carry a '.' or an exponent so libconfig reads them as floats. */
TL_API void tl_store_put_double(FILE *f, int indent, const char *name, double v);
TL_API void tl_store_put_string(FILE *f, int indent, const char *name, const char *v);
TL_API void tl_store_put_doubles(FILE *f, int indent, const char *name, const double *v, size_t n);
TL_API void tl_store_put_ints(FILE *f, int indent, const char *name, const long *v, size_t n);
TL_API void tl_store_put_int_array(FILE *f, int indent, const char *name, const int *v, size_t n);
TL_API void tl_store_put_strings(FILE *f, int indent, const char *name, const char *const *v,
                                 size_t n);
/* Packed arrays (ensemble members, docs/ensembles.md): the array as one string of numbers
 * separated by spaces, doubles in the shortest decimal that reads back exactly. The getters
 * below (tl_store_len, _doubles, _ints, _int_array) read either form. */
TL_API void tl_store_put_packed_doubles(FILE *f, int indent, const char *name, const double *v,
                                        size_t n);
TL_API void tl_store_put_packed_ints(FILE *f, int indent, const char *name, const long *v,
                                     size_t n);
TL_API void tl_store_put_packed_int_array(FILE *f, int indent, const char *name, const int *v,
                                          size_t n);
/* `name = {` and `};` around a group. */
TL_API void tl_store_open_group(FILE *f, int indent, const char *name);
TL_API void tl_store_close_group(FILE *f, int indent);

/* ---- reading ---- */
typedef struct tl_store tl_store;

/* libconfig 1.5 silently keeps the low 32 bits of an integer literal without an L suffix
 * (seed = 4294967303 reads as 7). Scan a libconfig file for such literals, outside strings
 * and comments: TL_EPARSE naming file:line:col, or TL_OK (also when the file cannot be
 * opened; the reader reports that). tl_store_read calls it. */
TL_API int tl_store_check_int_literals(const char *path, tl_err *err);
/* Parse a file; NULL with err naming the file and line on a syntax error. */
TL_API tl_store *tl_store_read(const char *path, tl_err *err);
/* Read the libconfig file path into cfg (config_init'ed by the caller): TL_EIO "PATH: cannot
 * read WHAT (reason)" when it is missing, unreadable or a directory; the integer literal
 * check; TL_EPARSE "FILE:LINE: libconfig's message at `the line's text`" with a hint (a
 * missing ';' on the line before, or the syntax's shape). libconfig gives no column. */
struct config_t;
TL_API int tl_store_parse(struct config_t *cfg, const char *path, const char *what, tl_err *err);
TL_API void tl_store_free(tl_store *s);
/* A store whose "state.X" paths read group.X of s (other paths read s's own): a member
 * model's state saved inside its ensemble's is loaded by the member type's own load. Valid
 * while s is; freed with tl_store_free. NULL with TL_EPARSE when group is not a group. */
TL_API tl_store *tl_store_sub(const tl_store *s, const char *group, tl_err *err);

/* Look up a dotted path ("state.nodes"). Each returns TL_OK, or TL_EPARSE naming the path
 * when it is absent or of the wrong type. Ints are accepted where doubles are expected. */
TL_API int tl_store_int(const tl_store *s, const char *path, long *out, tl_err *err);
TL_API int tl_store_double(const tl_store *s, const char *path, double *out, tl_err *err);
/* The string stays owned by the store. */
TL_API int tl_store_string(const tl_store *s, const char *path, const char **out, tl_err *err);
/* Number of elements of an array or list (TL_EPARSE when absent). */
TL_API int tl_store_len(const tl_store *s, const char *path, size_t *out, tl_err *err);
/* Copy exactly n elements into out (TL_EPARSE when the length differs). */
TL_API int tl_store_doubles(const tl_store *s, const char *path, double *out, size_t n,
                            tl_err *err);
TL_API int tl_store_ints(const tl_store *s, const char *path, long *out, size_t n, tl_err *err);
TL_API int tl_store_int_array(const tl_store *s, const char *path, int *out, size_t n, tl_err *err);
/* Element i of a string array; owned by the store. */
TL_API int tl_store_string_at(const tl_store *s, const char *path, size_t i, const char **out,
                              tl_err *err);
/* Every string setting of a group as key = value into out (initialised here). */
struct tl_params;
TL_API int tl_store_params(const tl_store *s, const char *group, struct tl_params *out,
                           tl_err *err);
/* 1 when the path exists. */
TL_API int tl_store_has(const tl_store *s, const char *path);

#ifdef __cplusplus
}
#endif

#endif
