/* The ARFF reader's cursor and tokenizer (internal to arff.c, arff_lex.c and arff_rows.c). */
#ifndef TL_ARFF_LEX_H
#define TL_ARFF_LEX_H

#include <stddef.h>

#include "load_util.h"

typedef struct {
    const char *path;
    const char *p, *end; /* the rest of the text */
    const char *ls, *le; /* the current line, without its line end */
    const char *q;       /* where parsing is on the current line */
    size_t line;
    char *tok; /* the last token read, unescaped and NUL-terminated */
    size_t tok_len, tok_cap;
    int tok_quoted;
    size_t tok_col;
} arff_cur;

static inline size_t col_of(const arff_cur *c, const char *p)
{
    return (size_t)(p - c->ls) + 1;
}

static inline void skip_ws(arff_cur *c)
{
    while (c->q < c->le && (*c->q == ' ' || *c->q == '\t'))
        c->q++;
}

/* At the end of the meaningful part of the line (its end or a comment). */
static inline int at_end(const arff_cur *c)
{
    return c->q >= c->le || *c->q == '%';
}

/* The next line into c->ls..c->le (LF, CRLF or a lone CR ends it); 0 at the end of the text. */
int tla_next_line(arff_cur *c);
/* Read a quoted or bare token into c->tok. A bare token stops at a blank when
 * stop_at_blank, and always at '%' and any character in stops; trailing blanks are cut. */
int tla_read_token(arff_cur *c, const char *stops, int stop_at_blank, tl_err *err);
/* TL_ENOMEM naming the file. */
int tla_oom(const arff_cur *c, tl_err *err);
/* Date attributes (arff_date.c): Weka's default pattern; 0 when every letter of a pattern is
 * supported, else -1 with the letter in *bad; a text by the pattern into milliseconds since
 * the epoch (UTC), 0 or -1 when it does not match. */
extern const char *const tl_arff_date_default;
int tl_arff_date_check(const char *fmt, char *bad);
int tl_arff_parse_date(const char *fmt, const char *s, size_t len, double *ms);
/* The rows after @data into b (dense or sparse, with Weka's instance weights). */
int tla_read_data(arff_cur *c, tl_build *b, tl_err *err);

#endif
