/* `treelab info` end to end: counts, task summary, errors and exit statuses. */
#include <stdio.h>
#include <string.h>

#include "tl_test_util.h"

static char out[1 << 16], errbuf[1 << 14];

static void expect_in(const char *haystack, const char *needle)
{
    if (!strstr(haystack, needle))
        fail_msg("'%s' not found in:\n%s", needle, haystack);
}

static void test_info_vote(void **state)
{
    (void)state;
    int rc =
        tl_test_cli("info experiments/datasets/vote.arff", out, sizeof out, errbuf, sizeof errbuf);
    assert_int_equal(rc, 0);
    expect_in(out, "rows: 435\n");
    expect_in(out, "attributes: 16 ");
    expect_in(out, "missing cells: 392\n");
    expect_in(out, "classification on 'Class', 2 classes");
    expect_in(out, "  democrat        267\n");
    expect_in(out, "  republican      168\n");
    /* one attribute line: name, type, distinct values, missing count (Weka: 104 missing) */
    expect_in(out, "export-administration-act-south-africa  nominal         2      104\n");
}

static void test_info_regression_and_target(void **state)
{
    (void)state;
    /* engagement 7,5,7,1,2,1,5,4: mean 4, sample sd 2.449489742783178 */
    int rc = tl_test_cli("info experiments/datasets/engagement-regression.csv", out, sizeof out,
                         errbuf, sizeof errbuf);
    assert_int_equal(rc, 0);
    expect_in(out, "regression on 'engagement' (mean 4, sd 2.44949)");
    rc = tl_test_cli("info --target color experiments/datasets/watermelon-2.0-missing.csv", out,
                     sizeof out, errbuf, sizeof errbuf);
    assert_int_equal(rc, 0);
    expect_in(out, "rows: 14 (3 dropped: missing target)");
    expect_in(out, "classification on 'color', 3 classes");
    expect_in(errbuf, "dropped 3 rows whose target 'color' is missing");
}

static void test_info_malformed_file(void **state)
{
    (void)state;
    const char *path = tl_test_tmpfile(".arff", "@relation r\n@attribute a numeric\n"
                                                "@attribute c {x,y}\n@data\n1,x\n2,maybe\n");
    char args[512], want[512];
    snprintf(args, sizeof args, "info '%s'", path);
    snprintf(want, sizeof want, "%s:6:3: value 'maybe' is not declared", path);
    int rc = tl_test_cli(args, out, sizeof out, errbuf, sizeof errbuf);
    remove(path);
    assert_int_equal(rc, 1);
    expect_in(errbuf, want);
    assert_string_equal(out, "");

    path = tl_test_tmpfile(".csv", "a,b\n1,x\n2\n");
    snprintf(args, sizeof args, "info '%s'", path);
    snprintf(want, sizeof want, "%s:3:2: expected 2 fields", path);
    rc = tl_test_cli(args, out, sizeof out, errbuf, sizeof errbuf);
    remove(path);
    assert_int_equal(rc, 1);
    expect_in(errbuf, want);

    rc = tl_test_cli("info /nonexistent/data.csv", out, sizeof out, errbuf, sizeof errbuf);
    assert_int_equal(rc, 1);
    expect_in(errbuf, "/nonexistent/data.csv: cannot open");
}

static void test_usage_errors(void **state)
{
    (void)state;
    int rc = tl_test_cli("infoo x", out, sizeof out, errbuf, sizeof errbuf);
    assert_int_equal(rc, 1);
    expect_in(errbuf, "unknown command 'infoo'; valid commands:");
    expect_in(errbuf, " info");
    rc = tl_test_cli("info --bogus experiments/datasets/iris.arff", out, sizeof out, errbuf,
                     sizeof errbuf);
    assert_int_equal(rc, 1);
    expect_in(
        errbuf,
        "unknown option '--bogus'; valid options: --target, --ignore, --attributes, --nominal, "
        "--weight, --decimal, --encoding, --help");
    rc = tl_test_cli("info", out, sizeof out, errbuf, sizeof errbuf);
    assert_int_equal(rc, 1);
    expect_in(errbuf, "expected one DATA file");
    rc = tl_test_cli("info experiments/datasets/iris.arff --target nope", out, sizeof out, errbuf,
                     sizeof errbuf);
    assert_int_equal(rc, 1);
    expect_in(errbuf, "iris.arff:66:12: unknown target 'nope'; valid attributes: sepallength, "
                      "sepalwidth, petallength, petalwidth, class");
    rc = tl_test_cli("info --help", out, sizeof out, errbuf, sizeof errbuf);
    assert_int_equal(rc, 0);
    expect_in(out, "usage: treelab info DATA [data options]");
    rc = tl_test_cli("--help", out, sizeof out, errbuf, sizeof errbuf);
    assert_int_equal(rc, 0);
    expect_in(out, "  info ");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_info_vote),
        cmocka_unit_test(test_info_regression_and_target),
        cmocka_unit_test(test_info_malformed_file),
        cmocka_unit_test(test_usage_errors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
