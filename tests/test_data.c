/* The ARFF and CSV loaders on good and malformed input (test_datasets.c has the bundled
 * datasets, select, conform and SHA-256). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../algorithms/data/load_util.h"
#include "tl_test_util.h"
#include "treelab/tl_dataset.h"
#include "treelab/tl_log.h"

/* Loading must fail with code, and the message must start "PATH:LINE:COL: " and hold needle. */
static void expect_fail(const char *suffix, const char *text, const char *target, int code,
                        int line, int col, const char *needle)
{
    const char *path = tl_test_tmpfile(suffix, text);
    char want[512];
    snprintf(want, sizeof want, "%s:%d:%d: ", path, line, col);
    tl_err err;
    tl_dataset *d = tl_dataset_load(path, target, &err);
    remove(path);
    if (d) {
        tl_dataset_free(d);
        fail_msg("loading '%s' should fail", text);
    }
    if (err.code != code)
        fail_msg("code %d, expected %d: %s", err.code, code, err.msg);
    if (strncmp(err.msg, want, strlen(want)) != 0)
        fail_msg("message '%s' does not start with '%s'", err.msg, want);
    if (needle && !strstr(err.msg, needle))
        fail_msg("message '%s' lacks '%s'", err.msg, needle);
}

static const char *level(const tl_attr_info *a, int code)
{
    return code == TL_MISSING_CODE ? "?" : a->levels[code];
}

/* ---- CSV ---- */

static void test_csv_basic_types_and_levels(void **state)
{
    (void)state;
    tl_dataset *d = tl_test_load_text(".csv",
                                      "x,colour,n,class\n"
                                      "1.5,red,3,b\n"
                                      "-2e1,blue,NA,a\n"
                                      "?,red,,b\n"
                                      "4,,7,c\n",
                                      NULL);
    assert_int_equal(d->n_rows, 4);
    assert_int_equal(d->schema.n_attrs, 3);
    assert_int_equal(d->schema.attrs[0].kind, TL_ATTR_NUMERIC);
    assert_int_equal(d->schema.attrs[1].kind, TL_ATTR_NOMINAL);
    assert_int_equal(d->schema.attrs[2].kind, TL_ATTR_NUMERIC);
    assert_close(d->cols[0].num[0], 1.5, 0);
    assert_close(d->cols[0].num[1], -20.0, 0);
    assert_true(isnan(d->cols[0].num[2]));
    assert_true(isnan(d->cols[2].num[1]));
    assert_true(isnan(d->cols[2].num[2]));
    /* levels in order of first appearance */
    assert_int_equal(d->schema.attrs[1].n_levels, 2);
    assert_string_equal(d->schema.attrs[1].levels[0], "red");
    assert_string_equal(d->schema.attrs[1].levels[1], "blue");
    assert_int_equal(d->cols[1].code[3], TL_MISSING_CODE);
    assert_string_equal(d->schema.target.name, "class");
    assert_int_equal(tl_dataset_n_classes(d), 3);
    assert_string_equal(d->schema.target.levels[0], "b");
    assert_string_equal(d->schema.target.levels[1], "a");
    assert_string_equal(d->schema.target.levels[2], "c");
    assert_int_equal(d->y.code[3], 2);
    assert_int_equal(tl_dataset_missing_cells(d), 4);
    assert_null(d->weight);
    tl_dataset_free(d);
}

/* Numbers read back exactly as strtod reads them, on both sides of the fast path. */
static void test_number_parsing(void **state)
{
    (void)state;
    static const char *const nums[] = {"0.1",
                                       "-0.0",
                                       "+3",
                                       ".5",
                                       "1.",
                                       "123456789012345",
                                       "1234567890123456",
                                       "0.0000000000000000000001",
                                       "0.00000000000000000000001",
                                       "9007199254740993",
                                       "3.14159265358979323846",
                                       "1e-5",
                                       "-2.5E+3",
                                       "1.6e1", /* 0x10 was here: hex is refused (test_number) */
                                       "17.99",
                                       "0.07039",
                                       "007"};
    const size_t n = sizeof nums / sizeof nums[0];
    char text[1024] = "v,c\n";
    for (size_t i = 0; i < n; i++)
        snprintf(text + strlen(text), sizeof text - strlen(text), "%s,%c\n", nums[i],
                 i % 2 ? 'a' : 'b');
    tl_dataset *d = tl_test_load_text(".csv", text, NULL);
    assert_int_equal(d->n_rows, n);
    assert_int_equal(d->schema.attrs[0].kind, TL_ATTR_NUMERIC);
    for (size_t i = 0; i < n; i++) {
        double want = strtod(nums[i], NULL), got = d->cols[0].num[i];
        if (memcmp(&want, &got, sizeof want) != 0)
            fail_msg("%s read as %.17g, strtod gives %.17g", nums[i], got, want);
    }
    assert_true(signbit(d->cols[0].num[1]));
    tl_dataset_free(d);
}

static void test_csv_quotes(void **state)
{
    (void)state;
    tl_dataset *d = tl_test_load_text(".csv",
                                      "\"a, b\",\"say \"\"hi\"\"\",y\n"
                                      "\"1\",  \"x,y\"  ,p\n"
                                      "2,\"two\nlines\",q\n"
                                      "3,\"\",p\n"
                                      "4,plain text ,q\n",
                                      NULL);
    assert_string_equal(d->schema.attrs[0].name, "a, b");
    assert_string_equal(d->schema.attrs[1].name, "say \"hi\"");
    assert_int_equal(d->n_rows, 4);
    assert_int_equal(d->schema.attrs[0].kind, TL_ATTR_NUMERIC); /* quoted "1" is a number */
    const tl_attr_info *a = &d->schema.attrs[1];
    assert_int_equal(a->n_levels, 3);
    assert_string_equal(level(a, d->cols[1].code[0]), "x,y");
    assert_string_equal(level(a, d->cols[1].code[1]), "two\nlines");
    assert_int_equal(d->cols[1].code[2], TL_MISSING_CODE); /* "" is missing */
    assert_string_equal(level(a, d->cols[1].code[3]), "plain text");
    tl_dataset_free(d);
}

static void test_csv_delimiters(void **state)
{
    (void)state;
    tl_dataset *d = tl_test_load_text(".csv", "a;b;c\n1,5;x;p\n2;y;q\n", NULL);
    /* ';' chosen; "1,5" is then not a number, so column a is nominal */
    assert_int_equal(d->schema.n_attrs, 2);
    assert_int_equal(d->schema.attrs[0].kind, TL_ATTR_NOMINAL);
    assert_string_equal(d->schema.attrs[0].levels[0], "1,5");
    tl_dataset_free(d);
    d = tl_test_load_text(".csv", "a\tb c\tclass\n1\tx y\tp\n2\tz\tq\n", NULL);
    assert_int_equal(d->schema.n_attrs, 2);
    assert_string_equal(d->schema.attrs[1].name, "b c");
    assert_string_equal(d->schema.attrs[1].levels[0], "x y");
    assert_close(d->cols[0].num[1], 2.0, 0);
    tl_dataset_free(d);
}

static void test_csv_bom_crlf_blank_lines(void **state)
{
    (void)state;
    tl_dataset *d =
        tl_test_load_text(".csv", "\xEF\xBB\xBFx,y\r\n1,yes\r\n\r\n2,no\r\n   \r\n3,yes", NULL);
    assert_string_equal(d->schema.attrs[0].name, "x");
    assert_int_equal(d->n_rows, 3);
    assert_string_equal(d->schema.target.levels[0], "yes");
    assert_string_equal(d->schema.target.levels[1], "no");
    assert_close(d->cols[0].num[2], 3.0, 0);
    tl_dataset_free(d);
    /* positions after a BOM count from the first character after it; CRLF lines count once */
    expect_fail(".csv", "\xEF\xBB\xBFx,y\r\n1,yes\r\n2\r\n", NULL, TL_EPARSE, 3, 2,
                "expected 2 fields");
}

/* Bare-CR line ends (old Mac, Excel "CSV (Macintosh)") end a record like LF and CRLF do.
 * The row buffer was once sized by counting LF only, and this file wrote past it. */
static void test_csv_bare_cr(void **state)
{
    (void)state;
    tl_dataset *d = tl_test_load_text(".csv", "a,b\rx,1\ry,2\r", "b");
    assert_int_equal(d->n_rows, 2);
    assert_int_equal(d->schema.n_attrs, 1);
    assert_string_equal(d->schema.attrs[0].levels[d->cols[0].code[1]], "y");
    assert_close(d->y.num[1], 2.0, 0);
    tl_dataset_free(d);
    /* many short CR-only records, and a mix of all three line ends */
    char big[4096] = "x,c";
    for (int i = 0; i < 300; i++)
        strcat(big, i % 2 ? "\r1,p" : "\r2,q");
    d = tl_test_load_text(".csv", big, NULL);
    assert_int_equal(d->n_rows, 300);
    tl_dataset_free(d);
    d = tl_test_load_text(".csv", "x,c\r1,p\n2,q\r\n3,p\r\r4,q", NULL);
    assert_int_equal(d->n_rows, 4);
    assert_close(d->cols[0].num[3], 4.0, 0);
    tl_dataset_free(d);
    expect_fail(".csv", "x,c\r1,p\r2\r", NULL, TL_EPARSE, 3, 2, "expected 2 fields");
}

/* Write n bytes (NULs included) to a temporary file; returns its path (static buffer). */
static const char *bytes_file(const char *suffix, const char *bytes, size_t n)
{
    const char *path = tl_test_tmpfile(suffix, "");
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(bytes, 1, n, f), n);
    fclose(f);
    return path;
}

/* A NUL byte inside a value once made 'x\0h' the level x (and read past a level's name):
 * text files hold no NUL, so the loaders refuse one, naming where it is. */
static void test_nul_byte_refused(void **state)
{
    (void)state;
    static const char arff[] = "@relation r\n@attribute a {x,y}\n@attribute c {p,q}\n"
                               "@data\nx,p\n'x\0h',q\n";
    static const char csv[] = "a,c\r\nx,p\r\ny\0,q\r\n";
    const struct {
        const char *suffix, *bytes;
        size_t n;
        int line, col;
    } cases[] = {
        {".arff", arff, sizeof arff - 1, 6, 3},
        {".csv", csv, sizeof csv - 1, 3, 2},
        {".csv", "\xEF\xBB\xBF\0a,b\n", 8, 1, 1}, /* columns count after the BOM */
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        const char *path = bytes_file(cases[i].suffix, cases[i].bytes, cases[i].n);
        char want[300];
        snprintf(want, sizeof want, "%s:%d:%d: a NUL byte", path, cases[i].line, cases[i].col);
        tl_err err;
        tl_dataset *d = tl_dataset_load(path, NULL, &err);
        remove(path);
        if (d)
            fail_msg("case %zu loaded", i);
        assert_int_equal(err.code, TL_EPARSE);
        if (strncmp(err.msg, want, strlen(want)) != 0)
            fail_msg("case %zu: '%s', expected '%s...'", i, err.msg, want);
    }
    /* the level dictionary itself never matches a name against a longer key with a NUL */
    tl_levels lv = {0};
    int added;
    assert_int_equal(tl_levels_add(&lv, "x", 1, &added), 0);
    assert_int_equal(tl_levels_find(&lv, "x\0h", 3), -1);
    assert_int_equal(tl_levels_find(&lv, "x", 1), 0);
    tl_levels_free(&lv);
}

static void test_csv_nominal_column_with_nan_text(void **state)
{
    (void)state;
    /* a column with words is nominal; "nan" is then just a level */
    tl_dataset *d = tl_test_load_text(".csv", "a,c\nnan,x\nfoo,y\n", NULL);
    assert_int_equal(d->schema.attrs[0].kind, TL_ATTR_NOMINAL);
    assert_string_equal(d->schema.attrs[0].levels[0], "nan");
    tl_dataset_free(d);
}

static void test_csv_regression_target_and_named_target(void **state)
{
    (void)state;
    tl_dataset *d = tl_test_load_text(".csv", "y,a,b\n1.5,x,2\n2.5,y,4\n", "y");
    assert_false(tl_dataset_is_classification(d));
    assert_int_equal(tl_dataset_n_classes(d), 0);
    assert_string_equal(d->schema.attrs[0].name, "a");
    assert_string_equal(d->schema.attrs[1].name, "b");
    assert_close(d->y.num[1], 2.5, 0);
    tl_dataset_free(d);
}

static void test_missing_target_rows_dropped(void **state)
{
    (void)state;
    tl_test_n_warnings = 0;
    tl_log_fn old = tl_log_set_hook(tl_test_warning_hook, NULL);
    tl_dataset *d = tl_test_load_text(".csv", "a,c\n1,x\n2,?\n3,\n4,y\n5,NA\n", NULL);
    tl_log_set_hook(old, NULL);
    assert_int_equal(d->n_rows, 2);
    assert_int_equal(d->n_dropped, 3);
    assert_close(d->cols[0].num[1], 4.0, 0);
    assert_int_equal(tl_test_n_warnings, 1);
    assert_non_null(strstr(tl_test_last_warning, "dropped 3 rows"));
    tl_dataset_free(d);
    tl_log_set_hook(tl_test_warning_hook, NULL);
    d = tl_test_load_text(".arff",
                          "@relation r\n@attribute a numeric\n@attribute t numeric\n@data\n"
                          "1,2\n2,?\n3,4\n",
                          NULL);
    tl_log_set_hook(old, NULL);
    assert_int_equal(d->n_rows, 2);
    assert_int_equal(d->n_dropped, 1);
    assert_close(d->y.num[1], 4.0, 0);
    tl_dataset_free(d);
}

static void test_csv_malformed(void **state)
{
    (void)state;
    expect_fail(".csv", "", NULL, TL_EPARSE, 1, 1, "empty file");
    expect_fail(".csv", "\n\n", NULL, TL_EPARSE, 3, 1, "expected a header row");
    expect_fail(".csv", "a,b\n", NULL, TL_EPARSE, 2, 1, "expected data rows");
    expect_fail(".csv", "a,b,c\n1,2,x\n3,4\n", NULL, TL_EPARSE, 3, 4,
                "expected 3 fields as in the header, found 2");
    expect_fail(".csv", "a,b\n1,x\n2,y,z\n", NULL, TL_EPARSE, 3, 5, "found more");
    expect_fail(".csv", "a,b\n1,x\n2,x\n", NULL, TL_EINVAL, 1, 3, "target 'b' has only one class");
    expect_fail(".csv", "a,b\n1,x\nnan,y\n", NULL, TL_EPARSE, 3, 1,
                "expected a finite number in numeric column 'a', found 'nan'");
    expect_fail(".csv", "a,b\n1,x\n2,y\n  inf,x\n", NULL, TL_EPARSE, 4, 3, "found 'inf'");
    expect_fail(".csv", "a,b\n-inf,x\n2,y\n", NULL, TL_EPARSE, 2, 1, "found '-inf'");
    expect_fail(".csv", "a,b\n1e999,x\n2,y\n", NULL, TL_EPARSE, 2, 1, "finite");
    expect_fail(".csv", "a,b\n1,x\n2,\"y\n3,z\n", NULL, TL_EPARSE, 3, 3,
                "unterminated quoted field");
    expect_fail(".csv", "a,b\n1,\"x\"y\n", NULL, TL_EPARSE, 2, 6, "after a closing quote");
    expect_fail(".csv", "a,b,a\n1,2,x\n", NULL, TL_EPARSE, 1, 5, "duplicate attribute name 'a'");
    expect_fail(".csv", "a,,c\n1,2,x\n", NULL, TL_EPARSE, 1, 3, "empty");
    expect_fail(".csv", "a,b\n1,x\n2,y\n", "zz", TL_EINVAL, 1, 1,
                "unknown target 'zz'; valid attributes: a, b");
}

/* ---- ARFF ---- */

static const char weather_like[] = "% a comment line\n"
                                   "@RELATION 'my relation'\n"
                                   "\n"
                                   "@Attribute outlook {sunny, 'over cast' ,\"rainy\"}\n"
                                   "@attribute 'temp C' REAL\n"
                                   "@attribute humidity integer % trailing comment\n"
                                   "@attribute windy { TRUE , FALSE }\n"
                                   "@attribute \"play it\" {yes,no}\n"
                                   "@DATA\n"
                                   "% comment inside data\n"
                                   "rainy , 21.5,80,FALSE, no\n"
                                   "'over cast',?,  90 ,TRUE,yes   % trailing\n"
                                   "\n"
                                   "?,-3,70,?,\"yes\"\n"
                                   "sunny,1e1,65,FALSE,'no'\n";

static void test_arff_parse(void **state)
{
    (void)state;
    tl_dataset *d = tl_test_load_text(".arff", weather_like, NULL);
    assert_string_equal(d->name, "my relation");
    assert_int_equal(d->n_rows, 4);
    assert_int_equal(d->schema.n_attrs, 4);
    const tl_attr_info *o = &d->schema.attrs[0];
    assert_int_equal(o->kind, TL_ATTR_NOMINAL);
    /* declared order, not order of appearance */
    assert_int_equal(o->n_levels, 3);
    assert_string_equal(o->levels[0], "sunny");
    assert_string_equal(o->levels[1], "over cast");
    assert_string_equal(o->levels[2], "rainy");
    assert_int_equal(d->cols[0].code[0], 2);
    assert_int_equal(d->cols[0].code[1], 1);
    assert_int_equal(d->cols[0].code[2], TL_MISSING_CODE);
    assert_int_equal(d->cols[0].code[3], 0);
    assert_string_equal(d->schema.attrs[1].name, "temp C");
    assert_int_equal(d->schema.attrs[1].kind, TL_ATTR_NUMERIC);
    assert_int_equal(d->schema.attrs[2].kind, TL_ATTR_NUMERIC);
    assert_close(d->cols[1].num[0], 21.5, 0);
    assert_true(isnan(d->cols[1].num[1]));
    assert_close(d->cols[1].num[3], 10.0, 0);
    assert_close(d->cols[2].num[1], 90.0, 0);
    assert_string_equal(d->schema.attrs[3].levels[0], "TRUE");
    assert_int_equal(d->cols[3].code[0], 1);
    assert_string_equal(d->schema.target.name, "play it");
    assert_int_equal(d->y.code[0], 1);
    assert_int_equal(d->y.code[1], 0);
    assert_int_equal(d->y.code[2], 0);
    assert_int_equal(d->y.code[3], 1);
    assert_int_equal(tl_dataset_missing_cells(d), 3);
    tl_dataset_free(d);
}

static void test_arff_escapes_bom_crlf_regression(void **state)
{
    (void)state;
    tl_dataset *d = tl_test_load_text(".arff",
                                      "\xEF\xBB\xBF@relation r\r\n"
                                      "@attribute 'it\\'s' {'a\\'b', \"c\\\"d\"}\r\n"
                                      "@attribute y numeric\r\n"
                                      "@data\r\n"
                                      "'a\\'b',1.25\r\n"
                                      "\"c\\\"d\",-2\r\n",
                                      NULL);
    assert_string_equal(d->schema.attrs[0].name, "it's");
    assert_string_equal(d->schema.attrs[0].levels[0], "a'b");
    assert_string_equal(d->schema.attrs[0].levels[1], "c\"d");
    assert_int_equal(d->cols[0].code[1], 1);
    assert_false(tl_dataset_is_classification(d));
    assert_close(d->y.num[0], 1.25, 0);
    assert_close(d->y.num[1], -2.0, 0);
    tl_dataset_free(d);
}

#define ARFF_HEAD "@relation r\n@attribute a numeric\n@attribute c {x,y}\n@data\n"

static void assert_same_data(const tl_dataset *a, const tl_dataset *b)
{
    assert_int_equal(a->n_rows, b->n_rows);
    assert_int_equal(a->schema.n_attrs, b->schema.n_attrs);
    for (size_t j = 0; j <= a->schema.n_attrs; j++) {
        int target = j == a->schema.n_attrs;
        const tl_attr_info *x = target ? &a->schema.target : &a->schema.attrs[j];
        const tl_attr_info *y = target ? &b->schema.target : &b->schema.attrs[j];
        const tl_column *cx = target ? &a->y : &a->cols[j], *cy = target ? &b->y : &b->cols[j];
        assert_string_equal(x->name, y->name);
        assert_int_equal(x->kind, y->kind);
        assert_int_equal(x->n_levels, y->n_levels);
        for (size_t l = 0; l < x->n_levels; l++)
            assert_string_equal(x->levels[l], y->levels[l]);
        for (size_t i = 0; i < a->n_rows; i++)
            if (x->kind == TL_ATTR_NOMINAL)
                assert_int_equal(cx->code[i], cy->code[i]);
            else
                assert_true(cx->num[i] == cy->num[i] || (isnan(cx->num[i]) && isnan(cy->num[i])));
    }
}

/* An ARFF file whose lines end in a lone CR (old Mac) loads as its LF version does; it used
 * to be one line, "expected @data, found the end of the file". Errors count CR lines. */
static void test_arff_bare_cr(void **state)
{
    (void)state;
    static const char *const files[] = {"experiments/datasets/weather.nominal.arff",
                                        "experiments/datasets/labor.arff"};
    for (size_t k = 0; k < 2; k++) {
        FILE *f = fopen(tl_test_path(files[k]), "rb");
        assert_non_null(f);
        static char text[1 << 16];
        size_t n = fread(text, 1, sizeof text - 1, f);
        fclose(f);
        text[n] = '\0';
        for (char *p = text; *p; p++)
            *p = *p == '\n' ? '\r' : *p;
        tl_dataset *lf = tl_test_load(files[k], NULL), *cr = tl_test_load_text(".arff", text, NULL);
        assert_same_data(lf, cr);
        tl_dataset_free(lf);
        tl_dataset_free(cr);
    }
    expect_fail(".arff",
                "@relation r\r@attribute x numeric\r@attribute c {a,b}\r@data\r1,a\r"
                "2,z\r",
                NULL, TL_EPARSE, 6, 3, "'z'");
}

static void test_arff_malformed(void **state)
{
    (void)state;
    expect_fail(".arff", "", NULL, TL_EPARSE, 1, 1, "empty file");
    expect_fail(".arff", "% only a comment\n", NULL, TL_EPARSE, 1, 1, "expected @relation");
    expect_fail(".arff", "@relation r\n@attribute a numeric\n", NULL, TL_EPARSE, 2, 1,
                "expected @data");
    expect_fail(".arff", ARFF_HEAD, NULL, TL_EPARSE, 4, 6, "expected data rows");
    expect_fail(".arff", "@relation r\n@data\n1\n", NULL, TL_EPARSE, 2, 1,
                "at least one @attribute");
    expect_fail(".arff", "@relation r\nhello\n", NULL, TL_EPARSE, 2, 1,
                "expected @relation, @attribute or @data");
    expect_fail(".arff", "@relation r\n@attrib a numeric\n", NULL, TL_EPARSE, 2, 1, "'@attrib'");
    expect_fail(".arff", ARFF_HEAD "1,x\n2\n", NULL, TL_EPARSE, 6, 2, "expected 2 values, found 1");
    expect_fail(".arff", ARFF_HEAD "1,x\n2,y,3\n", NULL, TL_EPARSE, 6, 5,
                "expected 2 values, found more");
    expect_fail(".arff", ARFF_HEAD "1,x\n2,z\n", NULL, TL_EPARSE, 6, 3,
                "value 'z' is not declared for attribute 'c' (declared: x, y)");
    expect_fail(".arff", ARFF_HEAD "1,x\nnan,y\n", NULL, TL_EPARSE, 6, 1,
                "expected a finite number for numeric attribute 'a', found 'nan'");
    expect_fail(".arff", ARFF_HEAD "1,x\n -Infinity,y\n", NULL, TL_EPARSE, 6, 2, "finite");
    expect_fail(".arff", ARFF_HEAD "1,x\nabc,y\n", NULL, TL_EPARSE, 6, 1,
                "expected a number for numeric attribute 'a', found 'abc'");
    expect_fail(".arff", ARFF_HEAD "1,x\n2,x\n", NULL, TL_EINVAL, 3, 12,
                "target 'c' has only one class ('x')");
    expect_fail(".arff", ARFF_HEAD "1,x\n2,y\n", "nope", TL_EINVAL, 2, 12,
                "unknown target 'nope'; valid attributes: a, c");
    expect_fail(".arff", ARFF_HEAD "1,'x\n", NULL, TL_EPARSE, 5, 3, "unterminated quoted text");
    expect_fail(".arff", "@relation r\n@attribute 'a b numeric\n", NULL, TL_EPARSE, 2, 12,
                "unterminated");
    expect_fail(".arff",
                "@relation r\n@attribute a numeric\n@attribute A real\n"
                "@attribute a {x,y}\n@data\n",
                NULL, TL_EPARSE, 4, 12, "duplicate attribute name 'a'");
    expect_fail(".arff", "@relation r\n@attribute c {x,y,x}\n@data\n", NULL, TL_EPARSE, 2, 19,
                "duplicate nominal value 'x'");
    expect_fail(".arff", "@relation r\n@attribute c {}\n@data\n", NULL, TL_EPARSE, 2, 15,
                "at least one nominal value");
    expect_fail(".arff", "@relation r\n@attribute c {x,y\n@data\n", NULL, TL_EPARSE, 2, 18, "'}'");
    expect_fail(".arff", "@relation r\n@attribute c bogus\n@data\n", NULL, TL_EPARSE, 2, 14,
                "found 'bogus'");
    expect_fail(".arff", "@relation r\n@attribute s string\n@data\n", NULL, TL_EUNSUPPORTED, 2, 14,
                "string attributes are not supported");
    /* dates are read (test_data_hints.c); a pattern with a month's name is not */
    expect_fail(".arff", "@relation r\n@attribute d DATE \"dd MMM yyyy\"\n@data\n", NULL,
                TL_EUNSUPPORTED, 2, 19, "not supported");
    expect_fail(".arff", "@relation r\n@attribute b relational\n@end b\n@data\n", NULL,
                TL_EUNSUPPORTED, 2, 14, "not supported");
    /* weights and sparse rows are read (test_data_options.c); malformed ones are refused */
    expect_fail(".arff", ARFF_HEAD "1,x,{-2}\n", NULL, TL_EPARSE, 5, 6,
                "expected an instance weight (a number >= 0) in {...}, found '-2'");
    expect_fail(".arff", ARFF_HEAD "1,x,{w}\n", NULL, TL_EPARSE, 5, 6, "found 'w'");
    expect_fail(".arff", ARFF_HEAD "1,x,{2\n", NULL, TL_EPARSE, 5, 7, "expected '}'");
    expect_fail(".arff", ARFF_HEAD "1,x,{2} 3\n", NULL, TL_EPARSE, 5, 9,
                "end of the line after the instance weight");
    expect_fail(".arff", ARFF_HEAD "1,{2}\n", NULL, TL_EPARSE, 5, 3,
                "expected 2 values before an instance weight, found 1");
    expect_fail(".arff", ARFF_HEAD "{0 1, 2 x}\n", NULL, TL_EPARSE, 5, 7,
                "sparse index 2 is out of range: the 2 attributes are numbered 0 to 1");
    expect_fail(".arff", ARFF_HEAD "{1 x, 0 1}\n", NULL, TL_EPARSE, 5, 7,
                "sparse index 0 after 1: expected increasing indices");
    expect_fail(".arff", ARFF_HEAD "{a 1}\n", NULL, TL_EPARSE, 5, 2, "expected an attribute index");
    expect_fail(".arff", ARFF_HEAD "{0 1, 1 z}\n", NULL, TL_EPARSE, 5, 9,
                "value 'z' is not declared");
    expect_fail(".arff", ARFF_HEAD "{0 1, 1 x\n", NULL, TL_EPARSE, 5, 10,
                "to close the sparse row opened at column 1");
}

static void test_io_error(void **state)
{
    (void)state;
    tl_err err;
    assert_null(tl_dataset_load("/nonexistent/dir/x.arff", NULL, &err));
    assert_int_equal(err.code, TL_EIO);
    assert_non_null(strstr(err.msg, "/nonexistent/dir/x.arff"));
    assert_null(tl_dataset_load("/tmp", NULL, &err)); /* a directory */
    assert_int_equal(err.code, TL_EIO);
    assert_null(tl_dataset_load("/nonexistent.csv", NULL, NULL)); /* err may be NULL */
}

static void test_very_long_lines(void **state)
{
    (void)state;
    const size_t big = 1 << 20;
    char *text = malloc(2 * big + 200);
    assert_non_null(text);
    /* CSV: a 1 MB nominal value */
    strcpy(text, "a,c\n1,x\n2,");
    size_t n = strlen(text);
    memset(text + n, 'v', big);
    strcpy(text + n + big, "\n");
    tl_dataset *d = tl_test_load_text(".csv", text, NULL);
    assert_int_equal(d->n_rows, 2);
    assert_int_equal(strlen(d->schema.target.levels[1]), big);
    tl_dataset_free(d);
    /* ARFF: a 1 MB declared value, used in a 1 MB data line */
    strcpy(text, "@relation r\n@attribute a numeric\n@attribute c {x,");
    n = strlen(text);
    memset(text + n, 'w', big);
    strcpy(text + n + big, "}\n@data\n1,x\n2,");
    n = strlen(text);
    memset(text + n, 'w', big);
    strcpy(text + n + big, "\n");
    d = tl_test_load_text(".arff", text, NULL);
    assert_int_equal(d->n_rows, 2);
    assert_int_equal(d->y.code[1], 1);
    tl_dataset_free(d);
    free(text);
    /* a wide CSV: 100000 columns (header and rows of about 0.6 MB) */
    const size_t wide = 100000;
    text = malloc(wide * 20 + 100);
    assert_non_null(text);
    n = 0;
    for (size_t j = 0; j < wide; j++)
        n += (size_t)sprintf(text + n, "%sc%zu", j ? "," : "", j);
    for (int r = 0; r < 2; r++) {
        text[n++] = '\n';
        for (size_t j = 0; j < wide; j++)
            n += (size_t)sprintf(text + n, "%s%d", j ? "," : "", j + 1 == wide ? r : 1);
    }
    text[n] = '\0';
    d = tl_test_load_text(".csv", text, NULL);
    assert_int_equal(d->schema.n_attrs, wide - 1);
    assert_string_equal(d->schema.attrs[wide - 2].name, "c99998");
    tl_dataset_free(d);
    memcpy(text + 3, "c0", 2); /* "c0,c0,c2,..." */
    expect_fail(".csv", text, NULL, TL_EPARSE, 1, 4, "duplicate attribute name 'c0'");
    free(text);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_csv_basic_types_and_levels),
        cmocka_unit_test(test_number_parsing),
        cmocka_unit_test(test_csv_quotes),
        cmocka_unit_test(test_csv_delimiters),
        cmocka_unit_test(test_csv_bom_crlf_blank_lines),
        cmocka_unit_test(test_csv_bare_cr),
        cmocka_unit_test(test_nul_byte_refused),
        cmocka_unit_test(test_csv_nominal_column_with_nan_text),
        cmocka_unit_test(test_csv_regression_target_and_named_target),
        cmocka_unit_test(test_missing_target_rows_dropped),
        cmocka_unit_test(test_csv_malformed),
        cmocka_unit_test(test_arff_parse),
        cmocka_unit_test(test_arff_escapes_bom_crlf_regression),
        cmocka_unit_test(test_arff_bare_cr),
        cmocka_unit_test(test_arff_malformed),
        cmocka_unit_test(test_io_error),
        cmocka_unit_test(test_very_long_lines),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
