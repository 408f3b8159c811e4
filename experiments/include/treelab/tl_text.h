/* Text that ends up in result files: names checked for control characters. */
#ifndef TL_TEXT_H
#define TL_TEXT_H

#include <stddef.h>

/* Offset of the first control character (bytes below 0x20 and 0x7f) in s, or -1 when there
 * is none. Such a character in a name would end a line of cells.txt or a row of a CSV. */
long tl_text_ctrl(const char *s);

/* A printable name of control character ch ("\\n", "\\t", "\\r" or "\\xNN") into buf[5]. */
const char *tl_text_ctrl_name(unsigned char ch, char buf[5]);

#endif
