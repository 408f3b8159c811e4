/* UTF-8 validity of the text treelab reads (data, configs, model files), so that every file it
 * writes (metrics.json above all) is valid UTF-8 too.
 *
 * API: nothing is allocated but by tl_utf8_from_latin1 (the caller frees its result). */
#ifndef TL_UTF8_H
#define TL_UTF8_H

#include <stddef.h>

#include "treelab/tl_api.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Offset of the first byte of s[0..len) that does not begin or continue a well-formed UTF-8
 * sequence (overlong forms, surrogates and code points above U+10FFFF included), or -1 when
 * all of it is UTF-8. */
TL_API long tl_utf8_invalid(const char *s, size_t len);

/* s[0..len) read as Latin-1 (ISO 8859-1) written as UTF-8, NUL-terminated, its length in
 * *out_len; NULL when out of memory. */
TL_API char *tl_utf8_from_latin1(const char *s, size_t len, size_t *out_len);

#ifdef __cplusplus
}
#endif

#endif
