/* Decimal text to double, exactly as strtod in the C locale rounds it, fast for plain
 * decimals: Clinger's exact fast path, then Eisel and Lemire's 128-bit product with a
 * conservative bail-out, then strtod_l for everything else (inf, nan, long digit strings,
 * subnormals, cases too close to a rounding boundary); hex is refused. */
#define _GNU_SOURCE /* strtod_l in glibc; the other names are POSIX */
#include "load_util.h"

#include <float.h>
#include <locale.h>
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#if defined(__SIZEOF_INT128__)
__extension__ typedef unsigned __int128 u128;
#define TL_HAVE_U128 1
#endif

typedef struct {
    uint64_t hi, lo;
    int e;
} pow5_entry;

/* 5^q for q in [POW5_QMIN, POW5_QMAX], see scripts/gen_pow5_table.py. */
#define POW5_QMIN (-342)
#define POW5_QMAX 308
static const pow5_entry pow5[] = {
#include "pow5_table.inc"
};

static int is_digit(char c)
{
    return (unsigned char)(c - '0') < 10;
}

#if TL_HAVE_U128
static int clz64(uint64_t x)
{
    return __builtin_clzll(x);
}

/* w * 10^q (w > 0, q in the table) rounded to nearest even into *bits, or -1 when the
 * product lies too near a rounding boundary to decide, or the result is subnormal or
 * infinite. T = floor(F) errs by less than 1, so w*T errs by less than w < 2^64 and the top
 * 128 bits M of the 192-bit product are within (M - 1, M + 2) of the truth: the decision is
 * safe unless the dropped bits of M's high word sit at the halfway pattern or just below. */
static int eisel_lemire(uint64_t w, int q, uint64_t *bits)
{
    const pow5_entry *t = &pow5[q - POW5_QMIN];
    int lz = clz64(w);
    w <<= lz;
    u128 x = (u128)w * t->hi, y = (u128)w * t->lo;
    u128 m = x + (y >> 64); /* floor(w * T / 2^64): cannot overflow, w*T < 2^192 */
    uint64_t mhi = (uint64_t)(m >> 64);
    int drop = (int)(mhi >> 63) + 10; /* keep 53 bits of the 127- or 128-bit M */
    uint64_t mant = mhi >> drop, low = mhi & ((1ULL << drop) - 1), half = 1ULL << (drop - 1);
    if (low == half || low == half - 1)
        return -1;
    mant += low > half;
    int e = drop + 1 + t->e + q - lz + 1075; /* value = mant * 2^(e - 1075) */
    if (mant == 1ULL << 53) {
        mant >>= 1;
        e++;
    }
    if (e <= 0 || e >= 2047)
        return -1;
    *bits = (uint64_t)e << 52 | (mant & ((1ULL << 52) - 1));
    return 0;
}
#endif

/* w * 10^q as a double when that is certainly strtod's answer; -1 otherwise. */
static int decimal_to_double(uint64_t w, int q, int neg, double *out)
{
    static const double p10[] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                                 1e8,  1e9,  1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
                                 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};
    if (w == 0) {
        *out = neg ? -0.0 : 0.0;
        return 0;
    }
#if FLT_EVAL_METHOD == 0
    /* Clinger: w and 10^|q| are exact doubles, so one correctly rounded operation is exact
     * rounding of the true quotient or product. */
    if (w <= (1ULL << 53) && q >= -22 && q <= 22) {
        double v = q < 0 ? (double)w / p10[-q] : (double)w * p10[q];
        uint64_t bits;
        memcpy(&bits, &v, sizeof bits);
        bits |= (uint64_t)neg << 63; /* v >= 0: setting the sign bit negates it */
        memcpy(out, &bits, sizeof bits);
        return 0;
    }
#endif
#if TL_HAVE_U128
    uint64_t bits;
    if (q >= POW5_QMIN && q <= POW5_QMAX && eisel_lemire(w, q, &bits) == 0) {
        bits |= (uint64_t)neg << 63;
        memcpy(out, &bits, sizeof *out);
        return 0;
    }
#endif
    return -1;
}

/* The digits at p appended to *w (which wraps past 19 digits); returns the first non-digit. */
static const char *digits(const char *p, const char *end, uint64_t *w)
{
    for (; p < end && is_digit(*p); p++)
        *w = *w * 10 + (uint64_t)(*p - '0');
    return p;
}

/* Significant digits of the mantissa [p, e): all its digits but the leading zeros. */
static size_t significant(const char *p, const char *e)
{
    while (p < e && (*p == '0' || *p == '.'))
        p++;
    size_t n = 0;
    for (; p < e; p++)
        n += is_digit(*p);
    return n;
}

const char *tl_number_scan(const char *p, const char *end, double *out)
{
    /* Branch-free sign and no loop over leading zeros: on random data those branches are
     * the ones the processor cannot predict. */
    int neg = p < end && *p == '-';
    p += p < end && (*p == '-' || *p == '+');
    const char *m0 = p;
    uint64_t w = 0;
    p = digits(p, end, &w);
    size_t nd = (size_t)(p - m0), frac = 0;
    if (p < end && *p == '.') {
        const char *f0 = ++p;
        p = digits(p, end, &w);
        frac = (size_t)(p - f0);
        nd += frac;
    }
    if (nd == 0 || (p < end && (*p == 'x' || *p == 'X')))
        return NULL; /* no digits, or "0x": hex is strtod's */
    if (nd > 19 && significant(m0, p) > 19)
        return NULL; /* w wrapped: strtod's */
    long ex = 0;
    if (p < end && (*p == 'e' || *p == 'E')) {
        const char *e = p + 1;
        int eneg = 0;
        if (e < end && (*e == '-' || *e == '+'))
            eneg = *e++ == '-';
        if (e < end && is_digit(*e)) { /* else strtod stops before the 'e' too */
            for (; e < end && is_digit(*e); e++)
                if (ex < 100000)
                    ex = ex * 10 + (*e - '0');
            ex = eneg ? -ex : ex;
            p = e;
        }
    }
    if (frac > 100000)
        return NULL;
    if (decimal_to_double(w, (int)(ex - (long)frac), neg, out))
        return NULL;
    return p;
}

#ifdef __GLIBC__
static locale_t c_locale;
static pthread_once_t c_locale_once = PTHREAD_ONCE_INIT;

static void c_locale_init(void)
{
    c_locale = newlocale(LC_ALL_MASK, "C", (locale_t)0);
}
#endif

/* strtod as in the C locale, whatever the program's LC_NUMERIC. */
static double strtod_c(const char *s, char **end)
{
#ifdef __GLIBC__
    pthread_once(&c_locale_once, c_locale_init);
    if (c_locale)
        return strtod_l(s, end, c_locale);
#endif
    return strtod(s, end);
}

int tl_parse_number(const char *s, size_t len, double *out)
{
    if (tl_number_scan(s, s + len, out) == s + len)
        return 0;
    /* strtod skips leading blanks (the caller has trimmed them) and reads hex, which no data
     * file means: 0x10 read as 16 among decimals (data, weights, fold ids) is refused. */
    if (len == 0 || s[0] == ' ' || s[0] == '\t')
        return -1;
    /* What strtod can read starts, after a sign, with a digit, '.', inf or nan, or with the
     * other white space it skips: anything else is no number, without the call. */
    const char *p = s + (s[0] == '+' || s[0] == '-');
    char c = p < s + len ? *p : '\0';
    if (c == '0' && p + 1 < s + len && (p[1] == 'x' || p[1] == 'X'))
        return -1;
    if (!is_digit(c) && c != '.' && c != 'i' && c != 'I' && c != 'n' && c != 'N' && s[0] != '\n' &&
        s[0] != '\v' && s[0] != '\f' && s[0] != '\r')
        return -1;
    char *end;
    double v = strtod_c(s, &end);
    if (end != s + len)
        return -1;
    *out = v;
    if (!isfinite(v))
        return 1;
    return 0;
}
