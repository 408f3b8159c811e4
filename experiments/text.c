/* Text that ends up in result files: names checked for control characters. */
#include "treelab/tl_text.h"

#include <stdio.h>

long tl_text_ctrl(const char *s)
{
    for (const char *p = s; p && *p; p++)
        if ((unsigned char)*p < 0x20 || *p == 0x7f)
            return (long)(p - s);
    return -1;
}

const char *tl_text_ctrl_name(unsigned char ch, char buf[5])
{
    if (ch == '\n' || ch == '\t' || ch == '\r')
        snprintf(buf, 5, "\\%c", ch == '\n' ? 'n' : ch == '\t' ? 't' : 'r');
    else
        snprintf(buf, 5, "\\x%02x", ch);
    return buf;
}
