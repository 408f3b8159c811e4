/* The ARFF reader's tokenizer: lines (LF, CRLF or CR), quoted and bare tokens with escapes. */
#include "arff_lex.h"

#include <stdlib.h>
#include <string.h>

int tla_next_line(arff_cur *c)
{
    if (c->p >= c->end && c->line > 0)
        return 0;
    /* a line ends at LF, CRLF or a lone CR (old Mac files), as tl_src_count_lines counts */
    const char *e = c->p;
    while (e < c->end && *e != '\n' && *e != '\r')
        e++;
    c->ls = c->q = c->p;
    c->le = e;
    if (e < c->end)
        e += *e == '\r' && e + 1 < c->end && e[1] == '\n' ? 2 : 1;
    c->p = e;
    c->line++;
    return 1;
}

/* Room for n more characters after the token's, and its NUL. */
static int tok_reserve(arff_cur *c, size_t n)
{
    if (c->tok_len + n < c->tok_cap)
        return 0;
    size_t cap = c->tok_cap ? 2 * c->tok_cap : 64;
    while (c->tok_len + n >= cap)
        cap *= 2;
    char *t = realloc(c->tok, cap);
    if (!t)
        return -1;
    c->tok = t;
    c->tok_cap = cap;
    return 0;
}

static int tok_push(arff_cur *c, char ch)
{
    if (tok_reserve(c, 1))
        return -1;
    c->tok[c->tok_len++] = ch;
    return 0;
}

/* ch ends a bare token: '%', a character of stops (at most a few), or a blank when asked. */
static int is_stop(char ch, const char *stops, int stop_at_blank)
{
    if (ch == '%' || (stop_at_blank && (ch == ' ' || ch == '\t')))
        return 1;
    for (; *stops; stops++)
        if (*stops == ch)
            return 1;
    return 0;
}

int tla_oom(const arff_cur *c, tl_err *err)
{
    return tl_err_set(err, TL_ENOMEM, "%s: out of memory", c->path);
}

int tla_read_token(arff_cur *c, const char *stops, int stop_at_blank, tl_err *err)
{
    c->tok_len = 0;
    c->tok_col = col_of(c, c->q);
    c->tok_quoted = c->q < c->le && (*c->q == '\'' || *c->q == '"');
    if (c->tok_quoted) {
        char quote = *c->q++;
        for (;;) {
            if (c->q >= c->le)
                return tl_parse_err(err, TL_EPARSE, c->path, c->line, c->tok_col,
                                    "unterminated quoted text: expected a closing %c", quote);
            char ch = *c->q++;
            if (ch == quote)
                break;
            if (ch == '\\' && c->q < c->le) {
                ch = *c->q++;
                ch = ch == 'n' ? '\n' : ch == 't' ? '\t' : ch == 'r' ? '\r' : ch;
            }
            if (tok_push(c, ch))
                return tla_oom(c, err);
        }
    } else {
        const char *s = c->q;
        while (c->q < c->le && !is_stop(*c->q, stops, stop_at_blank))
            c->q++;
        const char *e = c->q;
        while (e > s && (e[-1] == ' ' || e[-1] == '\t'))
            e--;
        size_t n = (size_t)(e - s);
        if (tok_reserve(c, n + 1))
            return tla_oom(c, err);
        memcpy(c->tok, s, n);
        c->tok_len = n;
    }
    if (tok_push(c, '\0'))
        return tla_oom(c, err);
    c->tok_len--;
    return TL_OK;
}
