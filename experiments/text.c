/* Text that ends up in result files: names checked for control characters, CSV fields
 * quoted. */
#include "treelab/tl_text.h"

#include <string.h>

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

void tl_csv_field(FILE *f, const char *s)
{
    size_t n = strlen(s);
    int edge = n && (strchr(" \t", s[0]) || strchr(" \t", s[n - 1]));
    if (!edge && !strpbrk(s, ",\"\n\r")) {
        fputs(s, f);
        return;
    }
    fputc('"', f);
    for (; *s; s++) {
        if (*s == '"')
            fputc('"', f);
        fputc(*s, f);
    }
    fputc('"', f);
}

void tl_csv_pair(FILE *f, const char *a, const char *b)
{
    tl_csv_field(f, a);
    fputc(',', f);
    tl_csv_field(f, b);
}
