/* Fast loading keeps every dataset and message: content hashes recorded from the loader
 * before the memchr tokenizer and the fast number parser (bundled and generated files), the
 * exact error messages of malformed files, and the number parser against strtod bit for bit. */
#include <locale.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../algorithms/data/load_util.h"
#include "tl_test_util.h"
#include "treelab/tl_dataset.h"

/* ---- a dataset's content as one 64-bit FNV-1a hash ---- */

static void mix(uint64_t *h, const void *p, size_t n)
{
    const unsigned char *b = p;
    for (size_t i = 0; i < n; i++) {
        *h ^= b[i];
        *h *= 1099511628211ULL;
    }
}

static void mix_str(uint64_t *h, const char *s)
{
    mix(h, s, strlen(s) + 1);
}

static void mix_size(uint64_t *h, size_t v)
{
    uint64_t x = v;
    mix(h, &x, sizeof x);
}

static void mix_attr(uint64_t *h, const tl_attr_info *a, const tl_column *c, size_t n)
{
    mix_str(h, a->name);
    mix_size(h, (size_t)a->kind);
    mix_size(h, a->n_levels);
    for (size_t k = 0; k < a->n_levels; k++)
        mix_str(h, a->levels[k]);
    if (a->kind == TL_ATTR_NUMERIC)
        mix(h, c->num, n * sizeof *c->num); /* every bit: -0.0, NaN's payload */
    else
        mix(h, c->code, n * sizeof *c->code);
}

/* Names, kinds, levels, every cell's bits, weights, row counts; the dataset's own name only
 * when it is not a temporary file's. */
static uint64_t dataset_hash(const tl_dataset *d, int with_name)
{
    uint64_t h = 1469598103934665603ULL;
    if (with_name)
        mix_str(&h, d->name);
    mix_size(&h, d->n_rows);
    mix_size(&h, d->n_dropped);
    mix_size(&h, d->schema.n_attrs);
    for (size_t j = 0; j < d->schema.n_attrs; j++)
        mix_attr(&h, &d->schema.attrs[j], &d->cols[j], d->n_rows);
    mix_attr(&h, &d->schema.target, &d->y, d->n_rows);
    mix_size(&h, d->weight != NULL);
    if (d->weight)
        mix(&h, d->weight, d->n_rows * sizeof *d->weight);
    return h;
}

/* TL_LOAD_PRINT=1 prints the hashes instead of checking them (to record them again from a
 * loader known to be right; the values below come from the loader of commit 9bd75b1, run
 * with this file's generators). */
static void check_hash(const char *what, const tl_dataset *d, uint64_t want)
{
    uint64_t got = dataset_hash(d, strchr(what, '.') != NULL); /* a file name, not "csv0" */
    if (getenv("TL_LOAD_PRINT")) {
        printf("    {\"%s\", 0x%016llxULL},\n", what, (unsigned long long)got);
        return;
    }
    if (got != want)
        fail_msg("%s: content hash %016llx, recorded %016llx", what, (unsigned long long)got,
                 (unsigned long long)want);
}

typedef struct {
    const char *file;
    uint64_t hash;
} recorded;

static const recorded bundled[] = {
#include "load_hashes.inc"
};

static void test_bundled_datasets_unchanged(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof bundled / sizeof bundled[0]; i++) {
        char rel[256];
        snprintf(rel, sizeof rel, "experiments/datasets/%s", bundled[i].file);
        tl_dataset *d = tl_test_load(rel, NULL);
        check_hash(bundled[i].file, d, bundled[i].hash);
        tl_dataset_free(d);
    }
}

/* ---- generated files: every form a cell can take, in deterministic random order ---- */

static uint64_t rng_next(uint64_t *s)
{
    *s = *s * 6364136223846793005ULL + 1442695040888963407ULL;
    return *s >> 33;
}

/* Growing text. */
typedef struct {
    char *s;
    size_t n, cap;
} text;

static void put(text *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void put(text *t, const char *fmt, ...)
{
    for (;;) {
        va_list ap;
        va_start(ap, fmt);
        int k = vsnprintf(t->s + t->n, t->cap - t->n, fmt, ap);
        va_end(ap);
        if ((size_t)k < t->cap - t->n) {
            t->n += (size_t)k;
            return;
        }
        t->cap = 2 * t->cap + (size_t)k + 64;
        t->s = realloc(t->s, t->cap);
        assert_non_null(t->s);
    }
}

/* A numeric cell in one of many spellings (all finite numbers, or missing). */
static void numeric_cell(text *t, uint64_t *s, char delim)
{
    static const char *const fixed[] = {"0",
                                        "-0",
                                        "+0.0",
                                        ".5",
                                        "-.25",
                                        "1.",
                                        "007",
                                        "1e3",
                                        "1E-3",
                                        "-2.5e+07",
                                        "0x1A",
                                        "0x1p-3",
                                        "1e-320",
                                        "4.9e-324",
                                        "1e308",
                                        "1.7976931348623157e308",
                                        "9007199254740993",
                                        "?",
                                        "NA",
                                        "",
                                        "\"?\"",
                                        "\"NA\"",
                                        "\"3.25\"",
                                        "  12.5  ",
                                        "\t-3\t",
                                        "1e23",
                                        "2.2250738585072011e-308",
                                        "123456789012345678901234",
                                        "0.1",
                                        "100000000000000000000000",
                                        "1.00000000000000011102230246251565404236316680908203125"};
    uint64_t r = rng_next(s) % 8;
    if (r == 0) {
        const char *f = fixed[rng_next(s) % (sizeof fixed / sizeof fixed[0])];
        if (delim == '\t' && strchr(f, '\t'))
            f = "42";
        put(t, "%s", f);
    } else if (r < 4) {
        put(t, "%.4f", ((double)rng_next(s) / (1u << 31) - 0.5) * 20.0);
    } else if (r < 6) {
        double a = (double)rng_next(s); /* one call a statement: a fixed order */
        put(t, "%.17g", a * (double)rng_next(s) / 3.0e9);
    } else {
        long m = (long)(rng_next(s) % 100000) - 50000;
        put(t, "%lde%d", m, (int)(rng_next(s) % 60) - 30);
    }
}

static void nominal_cell(text *t, uint64_t *s)
{
    static const char *const fixed[] = {"red",
                                        "\"blue, dark\"",
                                        "\"say \"\"hi\"\"\"",
                                        "inf",
                                        "nan",
                                        " green ",
                                        "\"two\nl\"",
                                        "1.5",
                                        "1.50",
                                        "?",
                                        "",
                                        "x y"};
    put(t, "%s", fixed[rng_next(s) % (sizeof fixed / sizeof fixed[0])]);
}

/* rows x 7 columns: numeric, numeric turning nominal at row `late`, nominal, mostly missing
 * numeric, integer-like, a quoted numeric, the class. Blank lines and CRLF ends sprinkled. */
static char *gen_csv(uint64_t seed, size_t rows, size_t late, char delim, int crlf)
{
    uint64_t s = seed;
    text t = {NULL, 0, 0};
    put(&t, "num%cturns%cnom%csparse%cint%c\"quoted num\"%cclass\n", delim, delim, delim, delim,
        delim, delim);
    for (size_t i = 0; i < rows; i++) {
        numeric_cell(&t, &s, delim);
        put(&t, "%c", delim);
        if (i == late)
            put(&t, "late word");
        else
            numeric_cell(&t, &s, delim);
        put(&t, "%c", delim);
        nominal_cell(&t, &s);
        put(&t, "%c", delim);
        if (rng_next(&s) % 5 == 0)
            numeric_cell(&t, &s, delim);
        int k = (int)(rng_next(&s) % 7) - 3, units = (int)(rng_next(&s) % 100);
        int cents = (int)(rng_next(&s) % 100), cls = (int)(rng_next(&s) % 3);
        put(&t, "%c%d%c\"%d.%02d\"%cc%d", delim, k, delim, units, cents, delim, cls);
        put(&t, "%s", crlf ? "\r\n" : "\n");
        if (rng_next(&s) % 50 == 0)
            put(&t, "%s", rng_next(&s) % 2 ? "\n" : "  \n");
    }
    return t.s;
}

/* Load generated text (freed here) from a temporary file; the test fails if it does not load. */
static tl_dataset *load_generated(const char *suffix, char *txt)
{
    const char *path = tl_test_tmpfile(suffix, txt);
    free(txt);
    tl_err err;
    tl_dataset *d = tl_dataset_load(path, NULL, &err);
    remove(path);
    if (!d)
        fail_msg("generated %s file: %s", suffix, err.msg);
    return d;
}

static const recorded generated[] = {
#include "load_generated.inc"
};

static void test_generated_csv_unchanged(void **state)
{
    (void)state;
    static const struct {
        uint64_t seed;
        size_t rows, late;
        char delim;
        int crlf;
    } cases[] = {{1, 2000, 700, ',', 0},
                 {2, 3000, 0, ';', 1},
                 {3, 1500, 1499, '\t', 0},
                 {4, 2500, 100000, ',', 1},
                 {6, 40000, 30000, ',', 0}}; /* the last over 1 MiB */
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        char *txt =
            gen_csv(cases[k].seed, cases[k].rows, cases[k].late, cases[k].delim, cases[k].crlf);
        tl_dataset *d = load_generated(".csv", txt);
        char what[32];
        snprintf(what, sizeof what, "csv%zu", k);
        if (k < sizeof generated / sizeof generated[0] || getenv("TL_LOAD_PRINT"))
            check_hash(what, d, k < sizeof generated / sizeof generated[0] ? generated[k].hash : 0);
        else
            fail_msg("no recorded hash for %s", what);
        tl_dataset_free(d);
    }
}

static void arff_number(text *t, uint64_t *s)
{
    static const char *const fixed[] = {
        "-0",        ".5",  "1.", "+7", "1e-3", "2.5E+300", "0x10", "4.9e-324", "9007199254740993",
        "\"12.25\"", "'-3'"};
    if (rng_next(s) % 4 == 0)
        put(t, "%s", fixed[rng_next(s) % (sizeof fixed / sizeof fixed[0])]);
    else
        put(t, "%.17g", ((double)rng_next(s) - 1e9) / 1e5);
}

/* rows of an ARFF file: dense rows (some quoted, some weighted, comments) and sparse ones. */
static char *gen_arff(uint64_t seed, size_t rows)
{
    uint64_t s = seed;
    text t = {NULL, 0, 0};
    put(&t, "%% generated\n@relation 'gen rel'\n@attribute a numeric\n@attribute 'b c' real\n"
            "@attribute n {x, 'y z', \"1.5\"}\n@attribute i INTEGER\n@attribute class {p,q}\n"
            "@data\n");
    for (size_t i = 0; i < rows; i++) {
        if (rng_next(&s) % 4 == 0) {
            put(&t, "{");
            const char *sep = "";
            for (int j = 0; j < 5; j++) {
                if (rng_next(&s) % 2)
                    continue;
                put(&t, "%s%d ", sep, j);
                sep = rng_next(&s) % 2 ? "," : " , ";
                if (j == 2 || j == 4)
                    put(&t, "%s", j == 2 ? "'y z'" : "q");
                else
                    arff_number(&t, &s);
            }
            put(&t, "}");
        } else {
            for (int j = 0; j < 5; j++) {
                if (j)
                    put(&t, "%s", rng_next(&s) % 3 ? "," : " ,\t");
                if (j == 2)
                    put(&t, "%s", rng_next(&s) % 2 ? "x" : "\"1.5\"");
                else if (j == 4)
                    put(&t, "%s", rng_next(&s) % 2 ? "p" : "'q'");
                else if (rng_next(&s) % 9 == 0)
                    put(&t, "?");
                else if (rng_next(&s) % 5 == 0)
                    put(&t, "'%.6g'", (double)rng_next(&s) / 7.0);
                else
                    arff_number(&t, &s);
            }
        }
        if (rng_next(&s) % 6 == 0) {
            const char *sep = rng_next(&s) % 2 ? "," : " ";
            put(&t, "%s{%.3f}", sep, (double)(rng_next(&s) % 5000) / 1e3);
        }
        put(&t, "%s\n", rng_next(&s) % 10 == 0 ? " % note" : "");
    }
    return t.s;
}

static void test_generated_arff_unchanged(void **state)
{
    (void)state;
    tl_dataset *d = load_generated(".arff", gen_arff(5, 3000));
    check_hash("arff", d, 0x2b37a7fd30b4ad72ULL);
    tl_dataset_free(d);
}

/* ---- malformed files: the whole message after "PATH:", as the old loader wrote it ---- */

typedef struct {
    const char *suffix, *text, *message;
} bad_case;

static const bad_case bad[] = {
#include "load_errors.inc"
};

#define ARFF_HEAD "@relation r\n@attribute a numeric\n@attribute c {x,y}\n@data\n"
static const char *const bad_texts[][2] = {
    {".csv", ""},
    {".csv", "\n  \n"},
    {".csv", "a,b\n"},
    {".csv", "a,b\n1,2,3\n"},
    {".csv", "a,b,c\n1,2\n"},
    {".csv", "a,b\n1,\"x\"y\n"},
    {".csv", "a,b\n1,\"x\" ,\"y\"z\n"},
    {".csv", "a,b\n1,\"abc\n\n"},
    {".csv", "a,b\n1,x\n  inf,y\n"},
    {".csv", "a,b\nnan,x\n1,y\n"},
    {".csv", "a,b\n1e999,x\n2,y\n"},
    {".csv", "a,b\n1,x\n-1e400 ,y\n"},
    {".csv", "a,b\n1,x\n\"-Infinity\",y\n"},
    {".csv", "a,b\n1,x\nnan(123456789012345678901234567890123),y\n"},
    {".csv", "a,a\n1,2\n"},
    {".csv", "a,,c\n1,2,3\n"},
    {".csv", "a;b\n1;2;3\n"},
    {".csv", "a\tb\n1\t2\t\n"},
    {".csv", "a,b\r1,2\r3\r"},
    {".csv", "a,b\r\n1,2\r\n3,4,5\r\n"},
    {".csv", "\"a\nb\",c\n1,2\n3\n"},
    {".csv", "a,b\n1,\"two\nlines\"\n3\n"},
    {".csv", "a,b\n 1 , 2 ,3\n"},
    {".csv", "a,b\n1,x\n2,x\n"},
    {".arff", ARFF_HEAD "1e999,x\n"},
    {".arff", ARFF_HEAD "abc,x\n"},
    {".arff", ARFF_HEAD "1.5.5,x\n"},
    {".arff", ARFF_HEAD "1e,x\n"},
    {".arff", ARFF_HEAD " nan,x\n"},
    {".arff", ARFF_HEAD "1,x,{-1}\n"},
    {".arff", ARFF_HEAD "1,x,{abc}\n"},
    {".arff", ARFF_HEAD "1,x {inf}\n"},
    {".arff", ARFF_HEAD "{0 1e999}\n"},
    {".arff", ARFF_HEAD "{0 abc, 1 x}\n"},
    {".arff", ARFF_HEAD "{1 x, 0 2}\n"},
    {".arff", ARFF_HEAD "1 ,\n"},
    {".arff", ARFF_HEAD "'1,x\n"},
    {".arff", ARFF_HEAD "1,z\n"},
    {".arff", ARFF_HEAD "1,x,2\n"},
    {".arff", ARFF_HEAD "\"\",x\n"},
};

/* s as a C string literal, for recording. */
static void print_c_string(const char *s)
{
    putchar('"');
    for (; *s; s++) {
        const char *esc = *s == '\n'   ? "\\n"
                          : *s == '\r' ? "\\r"
                          : *s == '\t' ? "\\t"
                          : *s == '"'  ? "\\\""
                          : *s == '\\' ? "\\\\"
                                       : NULL;
        if (esc)
            fputs(esc, stdout);
        else
            putchar(*s);
    }
    putchar('"');
}

static void test_malformed_messages_unchanged(void **state)
{
    (void)state;
    size_t n = sizeof bad_texts / sizeof bad_texts[0];
    if (!getenv("TL_LOAD_PRINT") && n != sizeof bad / sizeof bad[0])
        fail_msg("%zu malformed texts, %zu recorded messages", n, sizeof bad / sizeof bad[0]);
    for (size_t i = 0; i < n; i++) {
        const char *path = tl_test_tmpfile(bad_texts[i][0], bad_texts[i][1]);
        size_t plen = strlen(path);
        tl_err err;
        tl_dataset *d = tl_dataset_load(path, NULL, &err);
        remove(path);
        if (d) {
            tl_dataset_free(d);
            fail_msg("case %zu loaded; expected an error", i);
        }
        if (strncmp(err.msg, path, plen) != 0 || err.msg[plen] != ':')
            fail_msg("case %zu: message '%s' does not start with the path", i, err.msg);
        const char *tail = err.msg + plen + 1;
        if (getenv("TL_LOAD_PRINT")) {
            printf("    {\"%s\", ", bad_texts[i][0]);
            print_c_string(bad_texts[i][1]);
            printf(", ");
            print_c_string(tail);
            printf("},\n");
            continue;
        }
        assert_string_equal(bad[i].text, bad_texts[i][1]);
        if (strcmp(tail, bad[i].message) != 0)
            fail_msg("case %zu: message '%s', recorded '%s'", i, tail, bad[i].message);
    }
}

/* ---- the number parser against strtod ---- */

/* What the loader accepted before the fast parser: strtod's whole-text rule (C locale). */
static int ref_parse(const char *s, size_t len, double *out)
{
    if (len == 0 || s[0] == ' ' || s[0] == '\t')
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
        {"0x10", 0, 16.0},
        {"0X1P-3", 0, 0.125},
        {"0x.8p1", 0, 1.0},
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
    int ok = tl_parse_number("1.5e3", 5, &v) == 0 && v == 1500.0 && /* fast path */
             tl_parse_number("0x1p3", 5, &v) == 0 && v == 8.0 &&    /* strtod's */
             tl_parse_number("1.00000000000000000000001", 25, &v) == 0 && v == 1.0 &&
             tl_parse_number("1,5", 3, &v) == -1 && tl_parse_number("1,", 2, &v) == -1;
    setlocale(LC_NUMERIC, "C");
    if (!ok)
        fail_msg("under LC_NUMERIC=%s a number is read otherwise than in the C locale", got);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_bundled_datasets_unchanged),
        cmocka_unit_test(test_generated_csv_unchanged),
        cmocka_unit_test(test_generated_arff_unchanged),
        cmocka_unit_test(test_malformed_messages_unchanged),
        cmocka_unit_test(test_parser_random_strings),
        cmocka_unit_test(test_parser_forms),
        cmocka_unit_test(test_parser_ignores_locale),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
