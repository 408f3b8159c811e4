/* Fast loading keeps every dataset and message: content hashes recorded from the loader
 * before the one-pass CSV reader and the fast number parser (bundled and generated files)
 * and the exact error messages of malformed files (test_number.c checks the parser). */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
                                        "26",    /* was 0x1A: hex is refused */
                                        "0.125", /* was 0x1p-3 */
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
                 {6, 40000, 100000, ',', 0}}; /* the last over 1 MiB */
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
    /* the last file with 'turns' made nominal at row 30000: a level a row, over TL_MAX_LEVELS */
    char *txt = gen_csv(6, 40000, 30000, ',', 0);
    const char *path = tl_test_tmpfile(".csv", txt);
    free(txt);
    tl_err err;
    tl_dataset *d = tl_dataset_load(path, NULL, &err);
    remove(path);
    assert_null(d);
    assert_non_null(strstr(err.msg, ":1:5: the attribute 'turns' has 34441 levels; at most 10000 "
                                    "are supported"));
}

static void arff_number(text *t, uint64_t *s)
{
    static const char *const fixed[] = {
        "-0",        ".5",  "1.", "+7", "1e-3", "2.5E+300", "16", "4.9e-324", "9007199254740993",
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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_bundled_datasets_unchanged),
        cmocka_unit_test(test_generated_csv_unchanged),
        cmocka_unit_test(test_generated_arff_unchanged),
        cmocka_unit_test(test_malformed_messages_unchanged),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
