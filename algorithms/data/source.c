/* Loader plumbing: whole-file reading, positioned parse errors, strict number parsing. */
#include "load_util.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int tl_src_read(tl_src *s, const char *path, tl_err *err)
{
    memset(s, 0, sizeof *s);
    s->path = path;
    FILE *f = fopen(path, "rb");
    if (!f)
        return tl_err_set(err, TL_EIO, "%s: cannot open: %s", path, strerror(errno));
    size_t cap = 1 << 16, len = 0;
    struct stat st;
    /* Size the buffer from fstat when we can (one allocation for big files); the loop below
     * still grows it for pipes and files that grow meanwhile. */
    if (fstat(fileno(f), &st) == 0 && S_ISREG(st.st_mode) && (uintmax_t)st.st_size < SIZE_MAX / 2)
        cap = (size_t)st.st_size + 2;
    char *buf = malloc(cap);
    int rc = TL_OK;
    while (buf) {
        if (cap - len < 2) {
            char *nb = cap > SIZE_MAX / 2 ? NULL : realloc(buf, cap * 2);
            if (!nb) {
                free(buf);
                buf = NULL;
                break;
            }
            buf = nb;
            cap *= 2;
        }
        size_t got = fread(buf + len, 1, cap - len - 1, f);
        len += got;
        if (got == 0)
            break;
    }
    if (!buf)
        rc = tl_err_set(err, TL_ENOMEM, "%s: out of memory reading the file", path);
    else if (ferror(f))
        rc = tl_err_set(err, TL_EIO, "%s: cannot read: %s", path, strerror(errno));
    fclose(f);
    if (rc) {
        free(buf);
        return rc;
    }
    buf[len] = '\0';
    s->buf = buf;
    s->text = buf;
    s->len = len;
    if (len >= 3 && (unsigned char)buf[0] == 0xEF && (unsigned char)buf[1] == 0xBB &&
        (unsigned char)buf[2] == 0xBF) {
        s->text += 3;
        s->len -= 3;
    }
    /* Names and levels are C strings: a NUL byte would cut a value short and make two
     * different values one level. Text files hold none; UTF-16 files hold many. */
    const char *nul = memchr(s->text, '\0', s->len);
    if (nul) {
        size_t line = tl_src_count_lines(s->text, nul);
        const char *bol = nul;
        while (bol > s->text && bol[-1] != '\n' && bol[-1] != '\r')
            bol--;
        size_t col = (size_t)(nul - bol) + 1;
        tl_src_free(s);
        return tl_parse_err(err, TL_EPARSE, path, line, col,
                            "a NUL byte: expected text (is the file binary, or UTF-16?)");
    }
    return TL_OK;
}

void tl_src_free(tl_src *s)
{
    if (!s)
        return;
    free(s->buf);
    memset(s, 0, sizeof *s);
}

size_t tl_src_count_lines(const char *p, const char *end)
{
    /* Every line end the parsers accept counts: "\n", "\r\n" and a lone "\r" (old Mac
     * files), so the count is an upper bound on the records whatever the line endings. */
    size_t n = 1;
    for (; p < end; p++)
        if (*p == '\n' || (*p == '\r' && (p + 1 == end || p[1] != '\n')))
            n++;
    return n;
}

int tl_parse_err_at(tl_err *err, int code, const char *path, size_t line, size_t col,
                    const char *src_file, int src_line, const char *fmt, ...)
{
    char msg[TL_ERR_MSG_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return tl_err_set_at(err, code, src_file, src_line, "%s:%zu:%zu: %s", path, line, col, msg);
}

/* Clinger's fast path: a plain decimal with at most 15 significant digits and at most 22
 * after the point is an exact integer divided by an exact power of ten, so one IEEE division
 * gives the correctly rounded value strtod would. Returns 0 on success, -1 to fall back. */
static int fast_decimal(const char *s, size_t len, double *out)
{
    static const double p10[] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                                 1e8,  1e9,  1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
                                 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};
    size_t i = 0;
    int neg = 0, digits = 0, frac = 0, any = 0, point = 0;
    uint64_t m = 0;
    if (i < len && (s[i] == '-' || s[i] == '+'))
        neg = s[i++] == '-';
    for (; i < len; i++) {
        if (s[i] == '.' && !point) {
            point = 1;
            continue;
        }
        if (s[i] < '0' || s[i] > '9')
            return -1; /* exponents, hex, inf, nan: strtod */
        any = 1;
        frac += point;
        if (m == 0 && s[i] == '0')
            continue; /* a leading zero is no significant digit */
        if (++digits > 15)
            return -1;
        m = m * 10 + (uint64_t)(s[i] - '0');
    }
    if (!any || frac > 22)
        return -1;
    double v = (double)m / p10[frac];
    *out = neg ? -v : v;
    return 0;
}

int tl_parse_number(const char *s, size_t len, double *out)
{
    if (fast_decimal(s, len, out) == 0)
        return 0;
    /* strtod skips leading blanks and accepts hex; the caller has trimmed blanks, and a hex
     * cell is rare enough that accepting it does no harm. */
    if (len == 0 || s[0] == ' ' || s[0] == '\t')
        return -1;
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (end != s + len)
        return -1;
    *out = v;
    if (!isfinite(v))
        return 1;
    return 0;
}

void tl_join_append(char *buf, size_t size, const char *s)
{
    size_t used = strlen(buf);
    if (used + 1 < size)
        snprintf(buf + used, size - used, "%s%s", used ? ", " : "", s);
}

char *tl_base_name(const char *path)
{
    const char *b = strrchr(path, '/');
    b = b ? b + 1 : path;
    const char *dot = strrchr(b, '.');
    size_t n = dot && dot != b ? (size_t)(dot - b) : strlen(b);
    char *r = malloc(n + 1);
    if (r) {
        memcpy(r, b, n);
        r[n] = '\0';
    }
    return r;
}
