/* Text that ends up in result files: names checked for control characters; CSV, JSON, LaTeX
 * and HTML escaping; numbers in their shortest exact form. */
#include "treelab/tl_text.h"

#include <math.h>
#include <stdlib.h>
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

void tl_json_str(FILE *f, const char *s)
{
    if (!s) {
        fputs("null", f);
        return;
    }
    fputc('"', f);
    for (; *s; s++) {
        unsigned char ch = (unsigned char)*s;
        if (ch == '"' || ch == '\\')
            fprintf(f, "\\%c", ch);
        else if (ch == '\n')
            fputs("\\n", f);
        else if (ch == '\t')
            fputs("\\t", f);
        else if (ch == '\r')
            fputs("\\r", f);
        else if (ch < 0x20 || ch == 0x7f)
            fprintf(f, "\\u%04x", ch);
        else
            fputc(ch, f);
    }
    fputc('"', f);
}

void tl_tex_str(FILE *f, const char *s)
{
    for (; s && *s; s++) {
        unsigned char ch = (unsigned char)*s;
        switch (ch) {
        case '\\': fputs("\\textbackslash{}", f); break;
        case '~': fputs("\\textasciitilde{}", f); break;
        case '^': fputs("\\textasciicircum{}", f); break;
        case '{':
        case '}':
        case '$':
        case '&':
        case '#':
        case '_':
        case '%':
            fputc('\\', f);
            fputc(ch, f);
            break;
        default: fputc(ch < 0x20 || ch == 0x7f ? ' ' : ch, f);
        }
    }
}

void tl_html_str(FILE *f, const char *s)
{
    for (; s && *s; s++) {
        unsigned char ch = (unsigned char)*s;
        switch (ch) {
        case '&': fputs("&amp;", f); break;
        case '<': fputs("&lt;", f); break;
        case '>': fputs("&gt;", f); break;
        case '"': fputs("&quot;", f); break;
        case '\'': fputs("&#39;", f); break;
        default: fputc((ch < 0x20 && ch != '\n' && ch != '\t') || ch == 0x7f ? ' ' : ch, f);
        }
    }
}

const char *tl_md_str(const char *s, char *buf, size_t size)
{
    size_t k = 0;
    for (; s && *s && k + 8 < size; s++) {
        unsigned char ch = (unsigned char)*s;
        if (ch == '<' || ch == '>' || ch == '&') /* HTML inside Markdown is rendered: inert */
            k += (size_t)snprintf(buf + k, size - k, "%s",
                                  ch == '<'   ? "&lt;"
                                  : ch == '>' ? "&gt;"
                                              : "&amp;");
        else if (strchr("|\\`*", ch) || (ch == ']' && s[1] == '(')) /* a cell border, code,
                                  emphasis, a link's "](" (a grid's m[a=1] stays as it is) */
            buf[k++] = '\\', buf[k++] = (char)ch;
        else
            buf[k++] = (char)((ch < 0x20 || ch == 0x7f) ? ' ' : ch);
    }
    buf[k] = '\0';
    return buf;
}

const char *tl_num_short(double v, char buf[32])
{
    if (isnan(v))
        return strcpy(buf, "nan");
    if (isinf(v))
        return strcpy(buf, v > 0 ? "inf" : "-inf");
    for (int digits = 1; digits <= 17; digits++) {
        snprintf(buf, 32, "%.*g", digits, v);
        if (strtod(buf, NULL) == v)
            break;
    }
    return buf;
}
