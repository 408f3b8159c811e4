/* report.html's statistics: summary.md's own sections (ranks, Friedman, Wilcoxon, Holm, all
 * pairs, nested selection) carried over from its Markdown, so both say the same. */
#include "report_paper.h"

#include <string.h>

/* Inline Markdown of the summary's own writing: **bold**, `code`, backslash escapes, and the
 * entities tl_md_str writes (&lt; &gt; &amp;) kept; any other '&', '<' or '>' escaped. */
static void inline_md(FILE *f, const char *s, size_t len)
{
    int bold = 0, code = 0;
    for (size_t i = 0; i < len; i++) {
        char ch = s[i];
        if (ch == '\\' && i + 1 < len) {
            ch = s[++i];
        } else if (ch == '*' && i + 1 < len && s[i + 1] == '*') {
            fputs(bold ? "</b>" : "<b>", f);
            bold = !bold;
            i++;
            continue;
        } else if (ch == '`') {
            fputs(code ? "</code>" : "<code>", f);
            code = !code;
            continue;
        } else if (ch == '&' && (!strncmp(s + i, "&lt;", 4) || !strncmp(s + i, "&gt;", 4) ||
                                 !strncmp(s + i, "&amp;", 5))) {
            fputc('&', f);
            continue;
        }
        char one[2] = {ch, '\0'};
        tl_html_str(f, one);
    }
    if (code)
        fputs("</code>", f);
    if (bold)
        fputs("</b>", f);
}

/* One table row "| a | b |": the cells split at unescaped '|'. */
static void table_row(FILE *f, const char *s, size_t len, int head)
{
    const char *tag = head ? "th" : "td";
    fputs("<tr>", f);
    size_t i = 1; /* past the leading '|' */
    while (i < len) {
        size_t j = i;
        while (j < len && s[j] != '|')
            j += s[j] == '\\' && j + 1 < len ? 2 : 1;
        size_t a = i, b = j;
        while (a < b && s[a] == ' ')
            a++;
        while (b > a && s[b - 1] == ' ')
            b--;
        if (j < len || a < b) {
            fprintf(f, "<%s>", tag);
            inline_md(f, s + a, b - a);
            fprintf(f, "</%s>", tag);
        }
        i = j + 1;
    }
    fputs("</tr>\n", f);
}

void tl_paper_html_md(FILE *f, const char *md)
{
    /* the datasets' warnings (accuracy no better than the majority class) first */
    const char *end = md ? strstr(md, "\n## Nested selection") : NULL;
    if (md && !end)
        end = strstr(md, "\n## Across datasets");
    for (const char *w = md; w && end && (w = strstr(w, "\n**Warning:**")) && w < end; w++) {
        fputs("<p class=\"warn\">", f);
        inline_md(f, w + 1, strcspn(w + 1, "\n"));
        fputs("</p>\n", f);
    }
    if (!end) {
        fputs("<p>No statistics across datasets (summary.md has none).</p>\n", f);
        return;
    }
    const char *s = end + 1;
    int in_table = 0, in_par = 0, rows = 0;
    while (*s) {
        size_t len = strcspn(s, "\n");
        int is_row = len > 0 && s[0] == '|';
        if (in_table && !is_row) {
            fputs("</table>\n", f);
            in_table = 0;
        }
        if (in_par && (!len || is_row || !strncmp(s, "## ", 3))) {
            fputs("</p>\n", f);
            in_par = 0;
        }
        if (!strncmp(s, "## ", 3)) {
            fputs("<h3>", f);
            inline_md(f, s + 3, len - 3);
            fputs("</h3>\n", f);
        } else if (is_row) {
            if (!in_table) {
                fputs("<table>\n", f);
                in_table = 1;
                rows = 0;
            }
            /* the second line is the header's rule "| --- | ---: |" */
            if (rows++ != 1)
                table_row(f, s, len, rows == 1);
        } else if (len) {
            fputs(in_par ? "\n" : "<p>", f);
            in_par = 1;
            inline_md(f, s, len);
        }
        s += len + (s[len] == '\n');
    }
    if (in_table)
        fputs("</table>\n", f);
    if (in_par)
        fputs("</p>\n", f);
}
