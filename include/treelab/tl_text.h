/* Text that ends up in result files: names checked for control characters, CSV fields
 * quoted. */
#ifndef TL_TEXT_H
#define TL_TEXT_H

#include <stddef.h>
#include <stdio.h>

/* Offset of the first control character (bytes below 0x20 and 0x7f) in s, or -1 when there
 * is none. Such a character in a name would end a line of cells.txt or a row of a CSV. */
long tl_text_ctrl(const char *s);

/* A printable name of control character ch ("\\n", "\\t", "\\r" or "\\xNN") into buf[5]. */
const char *tl_text_ctrl_name(unsigned char ch, char buf[5]);

/* Write s as one RFC 4180 CSV field: as it is, or in double quotes with inner quotes doubled
 * when it holds a comma, a double quote, CR or LF, or starts or ends with a space or tab
 * (readers that trim would lose them). */
void tl_csv_field(FILE *f, const char *s);

/* The two CSV fields "a,b" (each quoted as tl_csv_field does): the dataset and model
 * columns most result files start with. */
void tl_csv_pair(FILE *f, const char *a, const char *b);

#endif
