/* The data traps a new user falls into, each caught by a warning naming the option that says
 * otherwise (classes coded as numbers, a row id, decimal commas), and the options themselves:
 * --decimal , reads what the dot file holds, --weight COLUMN weighs as ARFF's {w} does, and
 * ARFF date attributes read as Weka's milliseconds (checked against Python's datetime). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tl_test_util.h"
#include "treelab/tl_log.h"

/* text loaded with options o; the warnings it raised counted (the last kept). */
static tl_dataset *load_warned(const char *suffix, const char *text, const tl_data_opts *o)
{
    tl_err err;
    tl_test_n_warnings = 0;
    tl_test_last_warning[0] = '\0';
    tl_log_fn old = tl_log_set_hook(tl_test_warning_hook, NULL);
    tl_dataset *d = tl_dataset_load_with(tl_test_tmpfile(suffix, text), o, &err);
    tl_log_set_hook(old, NULL);
    if (!d)
        fail_msg("loading: %s", err.msg);
    return d;
}

static void test_coded_classes_warned(void **state)
{
    (void)state;
    const char *csv = "a,grade\n0.1,1\n0.5,2\n0.9,3\n0.2,1\n0.6,2\n0.8,3\n0.3,1\n0.4,2\n0.7,3\n";
    tl_dataset *d = load_warned(".csv", csv, NULL);
    assert_int_equal(tl_test_n_warnings, 1);
    assert_non_null(strstr(tl_test_last_warning, "3 distinct integer values"));
    assert_non_null(strstr(tl_test_last_warning, "--nominal grade"));
    tl_err err;
    tl_model *m = tl_test_fit("c45", d, NULL, 1, &err); /* the refusal gives the same hint */
    assert_null(m);
    assert_non_null(strstr(err.msg, "c45 does not do regression"));
    assert_non_null(strstr(err.msg, "--nominal grade"));
    tl_dataset_free(d);
    const char *nominal[] = {"grade"};
    tl_data_opts o = {0};
    o.nominal = nominal, o.n_nominal = 1;
    d = load_warned(".csv", csv, &o); /* said so: no warning */
    assert_int_equal(tl_test_n_warnings, 0);
    assert_int_equal(d->schema.target.n_levels, 3);
    tl_dataset_free(d);
    /* a real-valued target, one of 11 integers, and 3 integers in 8 rows are left alone */
    d = load_warned(".csv", "a,y\n1,1\n2,2\n3,3\n4,1\n5,2\n6,3\n7,1\n8,2\n", NULL);
    assert_int_equal(tl_test_n_warnings, 0);
    tl_dataset_free(d);
    d = load_warned(".csv", "a,y\n1,0.5\n2,1.5\n3,2\n", NULL);
    assert_int_equal(tl_test_n_warnings, 0);
    tl_dataset_free(d);
    d = load_warned(".csv", "a,y\n1,0\n2,1\n3,2\n4,3\n5,4\n6,5\n7,6\n8,7\n9,8\n1,9\n2,10\n", NULL);
    assert_int_equal(tl_test_n_warnings, 0);
    tl_dataset_free(d);
}

static void test_row_id_warned(void **state)
{
    (void)state;
    char csv[1024] = "id,name,x,class\n";
    for (int i = 0; i < 12; i++) /* id counts up, name differs in every row, x repeats */
        snprintf(csv + strlen(csv), sizeof csv - strlen(csv), "%d,n%d,%d,%c\n", 100 + i,
                 (i * 5) % 12, i % 3, i % 2 ? 'a' : 'b');
    tl_dataset *d = load_warned(".csv", csv, NULL);
    assert_int_equal(tl_test_n_warnings, 2);
    assert_non_null(strstr(tl_test_last_warning, "'name' looks like a row id"));
    assert_non_null(strstr(tl_test_last_warning, "--ignore name"));
    tl_dataset_free(d);
    const char *ignore[] = {"id", "name"};
    tl_data_opts o = {0};
    o.ignore = ignore, o.n_ignore = 2;
    d = load_warned(".csv", csv, &o);
    assert_int_equal(tl_test_n_warnings, 0);
    assert_int_equal(d->schema.n_attrs, 1);
    tl_dataset_free(d);
    /* iris: 150 rows of measurements, no id */
    tl_test_n_warnings = 0;
    tl_log_fn old = tl_log_set_hook(tl_test_warning_hook, NULL);
    d = tl_test_load("experiments/datasets/iris.arff", NULL);
    tl_log_set_hook(old, NULL);
    assert_int_equal(tl_test_n_warnings, 0);
    tl_dataset_free(d);
}

static void test_decimal_comma(void **state)
{
    (void)state;
    const char *comma = "x;y;c\n1,5;-2;p\n0,25;3,75;q\n7;1e3;p\n";
    tl_dataset *d = load_warned(".csv", comma, NULL);
    assert_int_equal(tl_test_n_warnings, 2); /* x and y, the last named last */
    assert_non_null(strstr(tl_test_last_warning, "'y' holds numbers with a decimal comma"));
    assert_non_null(strstr(tl_test_last_warning, "--decimal ,"));
    assert_int_equal(d->schema.attrs[0].kind, TL_ATTR_NOMINAL);
    tl_dataset_free(d);
    tl_data_opts o = {0};
    o.decimal = ',';
    d = load_warned(".csv", comma, &o);
    assert_int_equal(tl_test_n_warnings, 0);
    assert_int_equal(d->schema.attrs[0].kind, TL_ATTR_NUMERIC);
    assert_int_equal(d->schema.attrs[1].kind, TL_ATTR_NUMERIC);
    const double x[] = {1.5, 0.25, 7}, y[] = {-2, 3.75, 1000};
    for (int i = 0; i < 3; i++) {
        assert_true(d->cols[0].num[i] == x[i]);
        assert_true(d->cols[1].num[i] == y[i]);
    }
    tl_dataset_free(d);
    tl_err err; /* a comma cannot be both */
    assert_null(tl_dataset_load_with(tl_test_tmpfile(".csv", "a,b\n1,2\n"), &o, &err));
    assert_non_null(strstr(err.msg, "separate the cells by ';' or a tab"));
}

static void test_weight_column(void **state)
{
    (void)state;
    tl_data_opts o = {0};
    o.weight_column = "w";
    tl_dataset *d = load_warned(".csv", "a,w,c\n1,0.5,p\n2,2,q\n3,0,p\n", &o);
    tl_dataset *a = load_warned(".arff",
                                "@relation r\n@attribute a numeric\n@attribute c {p,q}\n@data\n"
                                "1,p,{0.5}\n2,q,{2}\n3,p,{0}\n",
                                NULL);
    assert_int_equal(d->schema.n_attrs, 1); /* the weights are no attribute */
    assert_non_null(d->weight);
    for (int i = 0; i < 3; i++)
        assert_true(d->weight[i] == a->weight[i]);
    tl_dataset_free(d);
    tl_dataset_free(a);
    tl_err err;
    const char *bad[] = {"a,w,c\n1,-1,p\n2,1,q\n", "a,w,c\n1,,p\n2,1,q\n", "a,w,c\n1,x,p\n2,1,q\n"};
    const char *why[] = {"data row 1: expected a finite number >= 0, found -1",
                         "data row 1: the weight is missing", "'w' is nominal"};
    for (int k = 0; k < 3; k++) {
        assert_null(tl_dataset_load_with(tl_test_tmpfile(".csv", bad[k]), &o, &err));
        if (!strstr(err.msg, why[k]))
            fail_msg("case %d: %s", k, err.msg);
    }
}

static void test_arff_dates(void **state)
{
    (void)state;
    /* the values are Python's
     * datetime(Y, M, D, h, m, s, tzinfo=timezone.utc).timestamp() * 1000 */
    tl_dataset *d = load_warned(".arff",
                                "@relation r\n@attribute when date \"yyyy-MM-dd HH:mm:ss\"\n"
                                "@attribute day date\n@attribute compact date yyyyMMdd\n"
                                "@attribute c {p,q}\n@data\n"
                                "'2001-04-03 12:12:12',2001-04-03T12:12:12,20240229,p\n"
                                "'1969-12-31 23:59:59',1970-01-01T00:00:00,19000301,q\n"
                                "?,2024-02-29T23:59:59,20000101,q\n",
                                NULL);
    assert_true(d->cols[0].num[0] == 986299932000.0);
    assert_true(d->cols[0].num[1] == -1000.0);
    assert_true(isnan(d->cols[0].num[2]));
    assert_true(d->cols[1].num[0] == 986299932000.0);
    assert_true(d->cols[1].num[1] == 0.0);
    assert_true(d->cols[1].num[2] == 1709251199000.0);
    assert_true(d->cols[2].num[0] == 1709164800000.0);
    assert_true(d->cols[2].num[1] == -2203891200000.0);
    assert_true(d->cols[2].num[2] == 946684800000.0);
    tl_dataset_free(d);
    tl_err err;
    const char *head = "@relation r\n@attribute t date 'dd MMM yyyy'\n@attribute c {p,q}\n@data\n";
    char text[256];
    snprintf(text, sizeof text, "%s'01 Jan 2001',p\n", head);
    assert_null(tl_dataset_load_with(tl_test_tmpfile(".arff", text), NULL, &err));
    assert_non_null(strstr(err.msg, "date pattern 'dd MMM yyyy' of attribute 't'"));
    assert_null(tl_dataset_load_with(
        tl_test_tmpfile(".arff", "@relation r\n@attribute t date\n@attribute c {p,q}\n@data\n"
                                 "2001-02-30T00:00:00x,p\n"),
        NULL, &err));
    assert_non_null(strstr(err.msg, "expected a date as 'yyyy-MM-dd'T'HH:mm:ss'"));
}

/* cv and the summary warn when accuracy is no better than the majority class's share. */
static void test_majority_rate_warned(void **state)
{
    (void)state;
    char out[4096], errb[4096], dir[] = "/tmp/tl_hints_XXXXXX", path[256], args[1024];
    int rc = tl_test_cli("cv tests/bad_inputs/csv_skewed.csv --algo c45", out, sizeof out, errb,
                         sizeof errb);
    assert_int_equal(rc, 0);
    assert_non_null(strstr(errb, "accuracy 0.9600 is no better than always predicting the "
                                 "majority class 'common' (0.9600 of the rows)"));
    rc = tl_test_cli("cv experiments/datasets/iris.arff --algo c45", out, sizeof out, errb,
                     sizeof errb);
    assert_int_equal(rc, 0);
    assert_null(strstr(errb, "majority"));
    assert_non_null(mkdtemp(dir));
    snprintf(path, sizeof path, "%s/skew.cfg", dir);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fprintf(f,
            "name = \"skew\"; seed = 1;\n"
            "datasets = ( \"%s/tests/bad_inputs/csv_skewed.csv\", "
            "\"%s/experiments/datasets/iris.arff\" );\n"
            "models = ( { name = \"nb\"; algorithm = \"gaussian_nb\"; },\n"
            "           { name = \"c45\"; algorithm = \"c45\"; } );\n"
            "protocol = { kind = \"cv\"; folds = 5; repeats = 1; };\nbaseline = \"nb\";\n",
            TL_SOURCE_DIR, TL_SOURCE_DIR);
    fclose(f);
    snprintf(args, sizeof args, "run '%s' --out '%s/r' --quiet", path, dir);
    assert_int_equal(tl_test_cli(args, out, sizeof out, errb, sizeof errb), 0);
    snprintf(path, sizeof path, "%s/r/summary.md", dir);
    char *md = tl_test_slurp(path);
    const char *w = strstr(md, "**Warning:** c45's accuracy 0.9600 is no better than always "
                               "predicting the majority class 'common' (0.9600");
    assert_non_null(w);
    assert_non_null(strstr(md, "## iris"));
    assert_true(w < strstr(md, "## iris")); /* under the skewed set's table, none for iris */
    assert_null(strstr(strstr(md, "## iris"), "**Warning:**"));
    free(md);
    snprintf(args, sizeof args, "rm -rf '%s'", dir);
    assert_int_equal(system(args), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_coded_classes_warned), cmocka_unit_test(test_row_id_warned),
        cmocka_unit_test(test_decimal_comma),        cmocka_unit_test(test_weight_column),
        cmocka_unit_test(test_arff_dates),           cmocka_unit_test(test_majority_rate_warned),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
