/* The number parser against strtod, bit for bit: over a million generated strings (random
 * digits and exponents, printed doubles and subnormals, halfways, integer ties), every form
 * the loader accepted or refused before it, and C-locale behaviour under another LC_NUMERIC. */
#include <locale.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../algorithms/data/load_util.h"
#include "tl_test_util.h"

static uint64_t rng_next(uint64_t *s)
{
    *s = *s * 6364136223846793005ULL + 1442695040888963407ULL;
    return *s >> 33;
}

/* What the loader accepted before the fast parser: strtod's whole-text rule (C locale), less
 * hex (refused since issue 23: 0x10 among decimals is a mistake). */
static int ref_parse(const char *s, size_t len, double *out)
{
    if (len == 0 || s[0] == ' ' || s[0] == '\t')
        return -1;
    const char *p = s + (s[0] == '+' || s[0] == '-');
    if (p + 1 < s + len && p[0] == '0' && (p[1] == 'x' || p[1] == 'X'))
        return -1;
    char *end;
    double v = strtod(s, &end);
    if (end != s + len)
        return -1;
    *out = v;
    return isfinite(v) ? 0 : 1;
}

typedef struct {
    size_t n, scanned; /* strings checked, read by tl_number_scan itself */
} parse_stats;

/* tl_parse_number and ref_parse agree on s (NUL-terminated), bit for bit; when
 * tl_number_scan reads s it stops where strtod stops, with strtod's value. */
static void same_as_strtod(const char *s, parse_stats *st)
{
    size_t len = strlen(s);
    double a = 0.0, b = 0.0;
    int ra = tl_parse_number(s, len, &a), rb = ref_parse(s, len, &b);
    if (ra != rb || (ra >= 0 && memcmp(&a, &b, sizeof a) != 0))
        fail_msg("'%s': parsed %d %.17g (%a), strtod %d %.17g (%a)", s, ra, a, a, rb, b, b);
    double c;
    const char *e = tl_number_scan(s, s + len, &c);
    if (e) {
        char *se;
        double d = strtod(s, &se);
        if (se != e || memcmp(&c, &d, sizeof c) != 0)
            fail_msg("'%s': scan stops at %td with %a, strtod at %td with %a", s, e - s, c, se - s,
                     d);
        st->scanned++;
    }
    st->n++;
}

/* A random decimal: sign, leading zeros, 1..25 significant digits, a point anywhere (or
 * none, or leading), an exponent in -330..310 in any spelling. */
static void random_decimal(uint64_t *rs, char *buf)
{
    char *p = buf;
    uint64_t r = rng_next(rs);
    if (r % 3 == 1)
        *p++ = '-';
    else if (r % 7 == 2)
        *p++ = '+';
    int nd = 1 + (int)(rng_next(rs) % 25), point = (int)(rng_next(rs) % (nd + 2)) - 1;
    for (int z = (int)(rng_next(rs) % 8); z > 4; z--)
        *p++ = '0';
    for (int i = 0; i < nd; i++) {
        if (i == point)
            *p++ = '.';
        uint64_t d = rng_next(rs);
        /* runs of 9s and 0s reach the rounding boundaries more often than uniform digits */
        *p++ = (char)('0' + (d % 4 == 0 ? 9 : d % 4 == 1 ? 0 : (int)((d >> 8) % 10)));
        if (i == 0 && p[-1] == '0')
            p[-1] = '1';
    }
    if (rng_next(rs) % 4) {
        *p++ = rng_next(rs) % 2 ? 'e' : 'E';
        int ex = (int)(rng_next(rs) % 641) - 330;
        const char *sg = ex < 0 ? "-" : rng_next(rs) % 2 ? "+" : "";
        p += sprintf(p, "%s%s%d", sg, rng_next(rs) % 5 ? "" : "00", ex < 0 ? -ex : ex);
    }
    *p = '\0';
}

static double random_double(uint64_t *rs)
{
    uint64_t bits = rng_next(rs) << 33;
    bits ^= rng_next(rs) << 2;
    bits ^= rng_next(rs);
    if (rng_next(rs) % 8 == 0)
        bits &= 0x800FFFFFFFFFFFFFULL; /* a subnormal */
    double d;
    memcpy(&d, &bits, sizeof d);
    return isfinite(d) ? d : 1.5;
}

static void test_parser_random_strings(void **state)
{
    (void)state;
    parse_stats st = {0, 0};
    uint64_t rs = 20261124;
    char buf[128];
    for (int i = 0; i < 600000; i++) {
        random_decimal(&rs, buf);
        same_as_strtod(buf, &st);
    }
    static const char *const fmts[] = {"%.17g", "%.16g", "%.15g", "%.6e", "%.3f", "%.19e"};
    for (int i = 0; i < 300000; i++) {
        double d = random_double(&rs);
        snprintf(buf, sizeof buf, fmts[i % 6], d);
        same_as_strtod(buf, &st);
    }
    /* halfway between two neighbouring doubles, and just off it, in 17 to 25 digits */
    for (int i = 0; i < 150000; i++) {
        double d = fabs(random_double(&rs));
        long double mid = ((long double)d + (long double)nextafter(d, INFINITY)) / 2;
        snprintf(buf, sizeof buf, "%.*Le", 16 + i % 9, mid);
        same_as_strtod(buf, &st);
    }
    /* exact ties of integers: (2^53 + odd) * 2^k, all of whose digits fit in 19 */
    for (uint64_t k = 0; k < 10; k++)
        for (uint64_t odd = 1; odd < 2000; odd += 2) {
            snprintf(buf, sizeof buf, "%llu", (unsigned long long)(((1ULL << 53) + odd) << k));
            same_as_strtod(buf, &st);
        }
    if (st.n < 1000000 || st.scanned < st.n / 2)
        fail_msg("%zu strings, %zu read by the fast path: too few", st.n, st.scanned);
    printf("parser: %zu strings agree with strtod, %zu read by the fast path\n", st.n, st.scanned);
}

/* Every form the loader accepted or refused before stays so. */
static void test_parser_forms(void **state)
{
    (void)state;
    static const struct {
        const char *s;
        int rc;
        double v;
    } forms[] = {
        {"0", 0, 0.0},
        {"-0", 0, -0.0},
        {"+0.0", 0, 0.0},
        {".5", 0, 0.5},
        {"-.25", 0, -0.25},
        {"1.", 0, 1.0},
        {"1.e2", 0, 100.0},
        {"007", 0, 7.0},
        {"1E5", 0, 1e5},
        {"1e+05", 0, 1e5},
        {"2.5e-3", 0, 2.5e-3},
        {"0x10", -1, 0}, /* hex, which strtod reads, is no data file's number */
        {"0X1P-3", -1, 0},
        {"-0x.8p1", -1, 0},
        {"1e23", 0, 1e23},
        {"9007199254740993", 0, 9007199254740992.0},
        {"4.9e-324", 0, 4.9e-324},
        {"1e-400", 0, 0.0},
        {"-1e-400", 0, -0.0},
        {"0e999999999999", 0, 0.0},
        {"2.2250738585072011e-308", 0, 2.2250738585072011e-308},
        {"1.7976931348623157e308", 0, 1.7976931348623157e308},
        {"00000000000000000000001.5", 0, 1.5}, /* 24 digits, 2 significant */
        {"0.000000000000000000000123456789012345678", 0, 1.23456789012345678e-22},
        {"-00.00000000000000000000000", 0, -0.0},
        {"inf", 1, 0},
        {"-INF", 1, 0},
        {"Infinity", 1, 0},
        {"nan", 1, 0},
        {"NaN", 1, 0},
        {"nan(0x1)", 1, 0},
        {"1e999", 1, 0},
        {"-1e309", 1, 0},
        {"1e99999999999", 1, 0},
        {"\v1", 0, 1.0},
        {"\f-2", 0, -2.0},
        {"\n3", 0, 3.0},
        {"", -1, 0},
        {" 1", -1, 0},
        {"\t1", -1, 0},
        {"1 ", -1, 0},
        {"+", -1, 0},
        {"-", -1, 0},
        {".", -1, 0},
        {"-.", -1, 0},
        {".e5", -1, 0},
        {"e5", -1, 0},
        {"1e", -1, 0},
        {"1e+", -1, 0},
        {"1e-", -1, 0},
        {"1e5.5", -1, 0},
        {"1..2", -1, 0},
        {"1.2.3", -1, 0},
        {"--1", -1, 0},
        {"+-1", -1, 0},
        {"1,5", -1, 0},
        {"1_000", -1, 0},
        {"1'000", -1, 0},
        {"0x", -1, 0},
        {"1d5", -1, 0},
        {"1f", -1, 0},
        {"in", -1, 0},
        {"nana", -1, 0},
        {"1\v", -1, 0},
        {"- 1", -1, 0},
        {"red", -1, 0},
        {"?", -1, 0},
        {"NA", -1, 0},
        {"1.5.5", -1, 0},
    };
    parse_stats st = {0, 0};
    for (size_t i = 0; i < sizeof forms / sizeof forms[0]; i++) {
        same_as_strtod(forms[i].s, &st);
        double v = 0;
        int rc = tl_parse_number(forms[i].s, strlen(forms[i].s), &v);
        if (rc != forms[i].rc || (rc == 0 && memcmp(&v, &forms[i].v, sizeof v) != 0))
            fail_msg("'%s': %d %a, expected %d %a", forms[i].s, rc, v, forms[i].rc, forms[i].v);
    }
    /* the scanner stops where strtod does; what follows is the caller's business */
    double v;
    const char *t = "12.5e3;x";
    assert_ptr_equal(tl_number_scan(t, t + strlen(t), &v), t + 6);
    assert_true(v == 12500.0);
    t = "7e+,";
    assert_ptr_equal(tl_number_scan(t, t + strlen(t), &v), t + 1);
    t = "0.5";
    assert_ptr_equal(tl_number_scan(t, t + 2, &v), t + 2); /* bounded by end: "0." */
    assert_true(v == 0.0);
}

/* C-locale behaviour whatever LC_NUMERIC says (a locale whose decimal point is ','). */
static void test_parser_ignores_locale(void **state)
{
    (void)state;
    static const char *const names[] = {"de_DE.UTF-8", "de_DE.utf8", "fr_FR.UTF-8", "de_DE"};
    const char *got = NULL;
    for (size_t i = 0; i < sizeof names / sizeof names[0] && !got; i++)
        got = setlocale(LC_NUMERIC, names[i]);
    if (!got) {
        printf("no locale with a decimal comma installed: LC_NUMERIC case not run\n");
        return;
    }
    double v = 0;
    int ok = tl_parse_number("1.5e3", 5, &v) == 0 && v == 1500.0 &&  /* fast path */
             tl_parse_number("1e-320", 6, &v) == 0 && v == 1e-320 && /* strtod's */
             tl_parse_number("1.00000000000000000000001", 25, &v) == 0 && v == 1.0 &&
             tl_parse_number("1,5", 3, &v) == -1 && tl_parse_number("1,", 2, &v) == -1;
    setlocale(LC_NUMERIC, "C");
    if (!ok)
        fail_msg("under LC_NUMERIC=%s a number is read otherwise than in the C locale", got);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_parser_random_strings),
        cmocka_unit_test(test_parser_forms),
        cmocka_unit_test(test_parser_ignores_locale),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
