/* CSV field reader: blanks, RFC 4180 quotes (over line ends too), records of a known width,
 * the header and the delimiter, with the line and column of every error. */
#include "csv_field.h"

#include <stdlib.h>
#include <string.h>

#include "load_util.h"

size_t tl_csv_col_of(const csv_cur *c, const char *p)
{
    return (size_t)(p - c->line_start) + 1;
}

static int is_blank(char ch, char delim)
{
    return ch == ' ' || (ch == '\t' && delim != '\t');
}

static int at_eol(const csv_cur *c)
{
    return c->p >= c->end || *c->p == '\n' || *c->p == '\r';
}

static void skip_blanks(csv_cur *c)
{
    while (c->p < c->end && is_blank(*c->p, c->delim))
        c->p++;
}

void tl_csv_next_line(csv_cur *c)
{
    if (c->p < c->end && *c->p == '\r')
        c->p++;
    if (c->p < c->end && *c->p == '\n')
        c->p++;
    c->line++;
    c->line_start = c->p;
}

/* Skip lines holding only blanks. Returns 1 when a record starts at c->p, 0 at the end. */
int tl_csv_skip_blank_lines(csv_cur *c)
{
    while (c->p < c->end) {
        const char *save = c->p;
        skip_blanks(c);
        if (!at_eol(c)) {
            c->p = save;
            return 1;
        }
        if (c->p >= c->end)
            return 0;
        tl_csv_next_line(c);
    }
    return 0;
}

static int read_quoted(csv_cur *c, csv_field *f, tl_err *err)
{
    const char *q = ++c->p;
    for (;;) {
        if (c->p >= c->end)
            return tl_parse_err(err, TL_EPARSE, c->path, f->line, f->col,
                                "unterminated quoted field: expected a closing '\"'");
        if (*c->p == '"') {
            if (c->p + 1 < c->end && c->p[1] == '"') {
                f->escaped = 1;
                c->p += 2;
                continue;
            }
            break;
        }
        if (*c->p == '\n') { /* a quoted field may span lines */
            c->line++;
            c->line_start = c->p + 1;
        }
        c->p++;
    }
    f->s = q;
    f->len = (size_t)(c->p - q);
    c->p++;
    skip_blanks(c);
    if (!at_eol(c) && *c->p != c->delim)
        return tl_parse_err(err, TL_EPARSE, c->path, c->line, tl_csv_col_of(c, c->p),
                            "expected a delimiter or the end of the line after a closing quote, "
                            "found '%c'",
                            *c->p);
    return TL_OK;
}

/* Read one field; leaves c->p on the delimiter, a line end or the end of the text. */
int tl_csv_read_field(csv_cur *c, csv_field *f, tl_err *err)
{
    skip_blanks(c);
    f->line = c->line;
    f->col = tl_csv_col_of(c, c->p);
    f->escaped = 0;
    if (c->p < c->end && *c->p == '"')
        return read_quoted(c, f, err);
    const char *q = c->p;
    while (c->p < c->end && *c->p != c->delim && *c->p != '\n' && *c->p != '\r')
        c->p++;
    const char *e = c->p;
    while (e > q && is_blank(e[-1], c->delim))
        e--;
    f->s = q;
    f->len = (size_t)(e - q);
    return TL_OK;
}

/* Read a record of exactly n fields into fields[] and step to the next line. */
int tl_csv_read_record(csv_cur *c, csv_field *fields, size_t n, tl_err *err)
{
    size_t k = 0;
    for (;;) {
        csv_field f;
        int rc = tl_csv_read_field(c, &f, err);
        if (rc)
            return rc;
        if (k == n)
            return tl_parse_err(err, TL_EPARSE, c->path, f.line, f.col,
                                "expected %zu fields as in the header, found more", n);
        fields[k++] = f;
        if (c->p < c->end && *c->p == c->delim) {
            c->p++;
            continue;
        }
        break;
    }
    if (k < n)
        return tl_parse_err(err, TL_EPARSE, c->path, c->line, tl_csv_col_of(c, c->p),
                            "expected %zu fields as in the header, found %zu", n, k);
    tl_csv_next_line(c);
    return TL_OK;
}

/* The delimiter used most often in the first line outside quotes; ',' on a tie or none. */
char tl_csv_detect_delim(const char *p, const char *end)
{
    size_t n[3] = {0, 0, 0};
    const char cand[3] = {',', ';', '\t'};
    int quoted = 0;
    for (; p < end && (quoted || (*p != '\n' && *p != '\r')); p++) {
        if (*p == '"')
            quoted = !quoted;
        for (int k = 0; k < 3 && !quoted; k++)
            n[k] += *p == cand[k];
    }
    int best = 0;
    for (int k = 1; k < 3; k++)
        if (n[k] > n[best])
            best = k;
    return cand[best];
}

int tl_csv_is_missing(const csv_field *f)
{
    return f->len == 0 || (f->len == 1 && f->s[0] == '?') ||
           (f->len == 2 && f->s[0] == 'N' && f->s[1] == 'A');
}

/* The field's text with "" turned into ", in scratch when that is needed. */
const char *tl_csv_field_text(const csv_field *f, char **scratch, size_t *cap, size_t *len)
{
    if (!f->escaped) {
        *len = f->len;
        return f->s;
    }
    if (*cap < f->len + 1) {
        char *nb = realloc(*scratch, f->len + 1);
        if (!nb)
            return NULL;
        *scratch = nb;
        *cap = f->len + 1;
    }
    size_t n = 0;
    for (size_t i = 0; i < f->len; i++) {
        (*scratch)[n++] = f->s[i];
        if (f->s[i] == '"')
            i++; /* skip the second quote of a pair */
    }
    *len = n;
    return *scratch;
}

/* Header fields into a growing array; *n_out fields. */
int tl_csv_read_header(csv_cur *c, csv_field **out, size_t *n_out, tl_err *err)
{
    size_t n = 0, cap = 16;
    csv_field *fs = malloc(cap * sizeof *fs);
    if (!fs)
        return tl_err_set(err, TL_ENOMEM, "%s: out of memory", c->path);
    for (;;) {
        if (n == cap) {
            csv_field *nf = realloc(fs, 2 * cap * sizeof *nf);
            if (!nf) {
                free(fs);
                return tl_err_set(err, TL_ENOMEM, "%s: out of memory", c->path);
            }
            fs = nf;
            cap *= 2;
        }
        int rc = tl_csv_read_field(c, &fs[n], err);
        if (rc) {
            free(fs);
            return rc;
        }
        n++;
        if (c->p < c->end && *c->p == c->delim) {
            c->p++;
            continue;
        }
        break;
    }
    tl_csv_next_line(c);
    *out = fs;
    *n_out = n;
    return TL_OK;
}
