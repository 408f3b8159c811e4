/* Loader plumbing: whole-file reading, positioned parse errors, strict number parsing. */
#include "load_util.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int tl_src_read(tl_src *s, const char *path, tl_err *err)
{
    memset(s, 0, sizeof *s);
    s->path = path;
    FILE *f = fopen(path, "rb");
    if (!f)
        return tl_err_set(err, TL_EIO, "%s: cannot open: %s", path, strerror(errno));
    size_t cap = 1 << 16, len = 0;
    char *buf = malloc(cap);
    int rc = TL_OK;
    /* A read loop rather than fstat: works for pipes and files that grow. */
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
    size_t n = 1;
    while (p < end && (p = memchr(p, '\n', (size_t)(end - p))) != NULL) {
        n++;
        p++;
    }
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

int tl_parse_number(const char *s, size_t len, double *out)
{
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
