/* Packed arrays: a whole numeric array as one libconfig string of space-separated numbers,
 * so that a model of many trees costs libconfig one token and one allocation per array
 * instead of one per number (docs/ensembles.md, "Model files"). Doubles are written in the
 * shortest decimal that reads back as the same double; the reader parses them without
 * allocating and exactly (Clinger's fast path, strtod for the rest). */
#include "store_packed.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* ---- writing ---- */

/* The shortest of %.15g, %.16g and %.17g that reads back as v (whole numbers as integers);
 * the same sentinels as the array form for what libconfig cannot hold. */
static int format_double(char *buf, size_t size, double v)
{
    if (!isfinite(v))
        return snprintf(buf, size, "%s", isnan(v) ? "1.0e308" : (v > 0 ? "1.7e308" : "-1.7e308"));
    if (v == trunc(v) && fabs(v) < 1e15 && !(v == 0 && signbit(v)))
        return snprintf(buf, size, "%lld", (long long)v);
    int len = 0;
    for (int prec = 15; prec <= 17; prec++) {
        len = snprintf(buf, size, "%.*g", prec, v);
        if (strtod(buf, NULL) == v)
            break;
    }
    return len;
}

static void open_packed(FILE *f, int indent, const char *name)
{
    for (int i = 0; i < indent; i++)
        fputs("  ", f);
    fprintf(f, "%s = \"", name);
}

void tl_store_put_packed_doubles(FILE *f, int indent, const char *name, const double *v, size_t n)
{
    char buf[40];
    open_packed(f, indent, name);
    for (size_t i = 0; i < n; i++) {
        if (i)
            fputc(' ', f);
        format_double(buf, sizeof buf, v[i]);
        fputs(buf, f);
    }
    fputs("\";\n", f);
}

void tl_store_put_packed_ints(FILE *f, int indent, const char *name, const long *v, size_t n)
{
    open_packed(f, indent, name);
    for (size_t i = 0; i < n; i++)
        fprintf(f, i ? " %ld" : "%ld", v[i]);
    fputs("\";\n", f);
}

void tl_store_put_packed_int_array(FILE *f, int indent, const char *name, const int *v, size_t n)
{
    open_packed(f, indent, name);
    for (size_t i = 0; i < n; i++)
        fprintf(f, i ? " %d" : "%d", v[i]);
    fputs("\";\n", f);
}

/* ---- reading ---- */

static int is_space(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

size_t tl_packed_count(const char *s)
{
    size_t n = 0;
    while (*s) {
        while (is_space(*s))
            s++;
        if (!*s)
            break;
        n++;
        while (*s && !is_space(*s))
            s++;
    }
    return n;
}

/* The token at *s: its start and length, *s moved past it; 0 at the end. */
static size_t next_token(const char **s, const char **tok)
{
    const char *p = *s;
    while (is_space(*p))
        p++;
    *tok = p;
    while (*p && !is_space(*p))
        p++;
    *s = p;
    return (size_t)(p - *tok);
}

static const double pow10_exact[] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                                     1e8,  1e9,  1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
                                     1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};

/* A decimal number [-]D[.D][(e|E)[+-]D] of len characters, at least one digit before the
 * exponent: 1 with *out, 0 when it is not one or is not finite. */
static int parse_double(const char *t, size_t len, double *out)
{
    const char *p = t, *end = t + len;
    int neg = 0, digits = 0, overflow = 0;
    long e10 = 0;
    uint64_t m = 0;
    if (p < end && (*p == '-' || *p == '+'))
        neg = *p++ == '-';
    for (; p < end && *p >= '0' && *p <= '9'; p++, digits++) {
        if (m > (UINT64_MAX - 9) / 10)
            overflow = 1, e10++;
        else
            m = m * 10 + (uint64_t)(*p - '0');
    }
    if (p < end && *p == '.')
        for (p++; p < end && *p >= '0' && *p <= '9'; p++, digits++) {
            if (m > (UINT64_MAX - 9) / 10)
                overflow = 1;
            else
                m = m * 10 + (uint64_t)(*p - '0'), e10--;
        }
    if (!digits)
        return 0;
    if (p < end && (*p == 'e' || *p == 'E')) {
        int eneg = 0, edigits = 0;
        long e = 0;
        p++;
        if (p < end && (*p == '-' || *p == '+'))
            eneg = *p++ == '-';
        for (; p < end && *p >= '0' && *p <= '9'; p++, edigits++)
            e = e < 100000 ? e * 10 + (*p - '0') : e;
        if (!edigits)
            return 0;
        e10 += eneg ? -e : e;
    }
    if (p != end)
        return 0;
    double v;
    if (!overflow && m <= (UINT64_C(1) << 53) && e10 >= -22 && e10 <= 22) {
        /* both operands exact: one correctly rounded operation (Clinger 1990) */
        v = e10 < 0 ? (double)m / pow10_exact[-e10] : (double)m * pow10_exact[e10];
    } else {
        char buf[128];
        if (len >= sizeof buf)
            return 0;
        memcpy(buf, t, len);
        buf[len] = '\0';
        v = strtod(buf, NULL); /* the grammar above is a subset of strtod's */
        neg = 0;               /* strtod read the sign itself */
    }
    if (!isfinite(v))
        return 0;
    *out = neg ? -v : v;
    return 1;
}

/* A whole number [-]D of len characters within [lo, hi]. */
static int parse_long(const char *t, size_t len, long lo, long hi, long *out)
{
    const char *p = t, *end = t + len;
    int neg = 0;
    if (p < end && (*p == '-' || *p == '+'))
        neg = *p++ == '-';
    if (p == end)
        return 0;
    unsigned long v = 0, lim = neg ? (unsigned long)LONG_MAX + 1 : (unsigned long)LONG_MAX;
    for (; p < end; p++) {
        if (*p < '0' || *p > '9')
            return 0;
        unsigned d = (unsigned)(*p - '0');
        if (v > (lim - d) / 10)
            return 0;
        v = v * 10 + d;
    }
    long r = neg ? (v == (unsigned long)LONG_MAX + 1 ? LONG_MIN : -(long)v) : (long)v;
    if (r < lo || r > hi)
        return 0;
    *out = r;
    return 1;
}

static int bad_element(tl_err *err, const char *path, size_t i, const char *tok, size_t len,
                       const char *want)
{
    return tl_err_set(err, TL_EPARSE, "'%s' element %zu is `%.*s`; expected %s", path, i,
                      (int)(len > 40 ? 40 : len), tok, want);
}

/* The shared loop: n tokens, each read by one of the parsers. */
static int unpack(const char *s, const char *path, size_t n, double *d, long *l, int *in,
                  tl_err *err)
{
    const char *all = s;
    for (size_t i = 0; i <= n; i++) {
        const char *tok;
        size_t len = next_token(&s, &tok);
        if ((i < n) != (len > 0)) /* one pass: counted only when the count is wrong */
            return tl_err_set(err, TL_EPARSE, "'%s' has %zu elements, expected %zu", path,
                              tl_packed_count(all), n);
        if (i == n)
            break;
        long v;
        if (d && !parse_double(tok, len, &d[i]))
            return bad_element(err, path, i, tok, len, "a finite decimal number");
        if (l && !parse_long(tok, len, LONG_MIN, LONG_MAX, &l[i]))
            return bad_element(err, path, i, tok, len, "an integer");
        if (in) {
            if (!parse_long(tok, len, INT_MIN, INT_MAX, &v))
                return bad_element(err, path, i, tok, len, "a 32-bit integer");
            in[i] = (int)v;
        }
    }
    return TL_OK;
}

int tl_packed_doubles(const char *s, const char *path, double *out, size_t n, tl_err *err)
{
    return unpack(s, path, n, out, NULL, NULL, err);
}

int tl_packed_longs(const char *s, const char *path, long *out, size_t n, tl_err *err)
{
    return unpack(s, path, n, NULL, out, NULL, err);
}

int tl_packed_ints(const char *s, const char *path, int *out, size_t n, tl_err *err)
{
    return unpack(s, path, n, NULL, NULL, out, err);
}
