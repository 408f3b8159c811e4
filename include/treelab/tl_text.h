/* Text that ends up in result files: names checked for control characters, CSV fields
 * quoted.
 *
 * API: nothing is allocated; tl_text_ctrl_name returns the caller's buf. No function fails.
 */
#ifndef TL_TEXT_H
#define TL_TEXT_H

#include <stddef.h>
#include <stdio.h>

#include "treelab/tl_api.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Offset of the first control character (bytes below 0x20 and 0x7f) in s, or -1 when there
 * is none. Such a character in a name would end a line of cells.txt or a row of a CSV. */
TL_API long tl_text_ctrl(const char *s);

/* A printable name of control character ch ("\\n", "\\t", "\\r" or "\\xNN") into buf[5]. */
TL_API const char *tl_text_ctrl_name(unsigned char ch, char buf[5]);

/* Write s as one RFC 4180 CSV field: as it is, or in double quotes with inner quotes doubled
 * when it holds a comma, a double quote, CR or LF, or starts or ends with a space or tab
 * (readers that trim would lose them). */
TL_API void tl_csv_field(FILE *f, const char *s);

/* The two CSV fields "a,b" (each quoted as tl_csv_field does): the dataset and model
 * columns most result files start with. */
TL_API void tl_csv_pair(FILE *f, const char *a, const char *b);

/* s as a JSON string with its quotes: '"' and '\\' escaped, control characters as \\n,
 * \\t, ... or \\u00XX; other bytes (UTF-8) as they are. NULL writes null. */
TL_API void tl_json_str(FILE *f, const char *s);

/* s as LaTeX text: the ten special characters (\\ { } $ & # ^ _ ~ %) escaped, control
 * characters as spaces. */
TL_API void tl_tex_str(FILE *f, const char *s);

/* s as HTML (and XML) text or attribute value: & < > " ' as entities, control characters
 * other than tab and line feed as spaces (XML allows no others). */
TL_API void tl_html_str(FILE *f, const char *s);

/* v with the fewest significant digits (at most 17) that read back as v: 0.6, not
 * 0.59999999999999998. "nan", "inf", "-inf" for those. buf holds 32 bytes. */
TL_API const char *tl_num_short(double v, char buf[32]);

/* s for Markdown text or a table cell, into buf (cut to fit size): '|', '\\', '`', '*' and a
 * link's "](" backslash-escaped, '<', '>' and '&' as HTML entities (viewers
 * render raw HTML), control characters as spaces. Returns buf. */
TL_API const char *tl_md_str(const char *s, char *buf, size_t size);

#ifdef __cplusplus
}
#endif

#endif
