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

#ifdef __cplusplus
}
#endif

#endif
