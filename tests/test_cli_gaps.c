/* The small gaps of a first hour, closed: hold-out lines with the probability metrics, a
 * one-class test batch scored, `predict --id`, predict reading columns as the model did,
 * `fit --class-weight`, and "did you mean" for unknown names. Numbers worked by hand. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tl_test_util.h"
#include "treelab/tl_error.h"

static char out[8192], errb[8192];

/* Run the CLI; fail unless its exit status is want. */
static void cli(int want, const char *fmt, ...)
{
    char args[2048];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(args, sizeof args, fmt, ap);
    va_end(ap);
    int rc = tl_test_cli(args, out, sizeof out, errb, sizeof errb);
    if (rc != want)
        fail_msg("treelab %s: exit %d, expected %d\n%s%s", args, rc, want, out, errb);
}

static void has(const char *text, const char *what)
{
    if (!strstr(text, what))
        fail_msg("no '%s' in:\n%s", what, text);
}

/* x = 1 holds a, a, b and x = 2 holds b, b, a: CART's two leaves say p(b) = 1/3 and 2/3. On
 * its own rows: accuracy 4/6; ROC AUC 6/9 (the positives' scores 1/3, 2/3, 2/3 against the
 * negatives' 1/3, 1/3, 2/3: 4 wins and 4 ties of 9 pairs); log loss -(4 ln 2/3 + 2 ln 1/3) / 6
 * = 0.636514; Brier on b: (4 (1/3)^2 + 2 (2/3)^2) / 6 = 2/9. */
static const char mixed[] = "x,y\n1,a\n1,a\n1,b\n2,b\n2,b\n2,a\n";

static void test_holdout_probability_metrics(void **state)
{
    (void)state;
    const char *data = tl_test_tmpfile(".csv", mixed);
    cli(0, "fit '%s' --algo cart --test '%s'", data, data);
    has(out, ": accuracy 0.6667, balanced accuracy 0.6667, kappa 0.3333, macro F1 0.6667, "
             "ROC AUC 0.6667, log loss 0.6365, Brier 0.2222\n");
}

/* Test rows of class a only: scored as scikit-learn would (2 of 3 right; balanced accuracy
 * the recall of a, 2/3; kappa 0 as p_o = p_e = 2/3; macro F1 (0.8 + 0) / 2 over the classes
 * true or predicted), the AUC said undefined; log loss -(2 ln 2/3 + ln 1/3) / 3 = 0.636514,
 * Brier ((1/3)^2 + (1/3)^2 + (2/3)^2) / 3 = 2/9. */
static void test_one_class_batch(void **state)
{
    (void)state;
    char model[64], data[256];
    snprintf(data, sizeof data, "%s", tl_test_tmpfile(".csv", mixed));
    snprintf(model, sizeof model, "/tmp/tl_gaps_%d.model", (int)getpid());
    cli(0, "fit '%s' --algo cart -o %s", data, model);
    const char *test = tl_test_tmpfile(".csv", "x,y\n1,a\n1,a\n2,a\n");
    cli(0, "predict %s --test '%s'", model, test);
    assert_string_equal(out, "row,predicted\n1,a\n2,a\n3,b\n");
    has(errb, ": 3 rows: accuracy 0.6667, balanced accuracy 0.6667, kappa 0.0000, macro F1 "
              "0.4000");
    has(errb, ", ROC AUC undefined (the rows hold one class), log loss 0.6365, Brier 0.2222\n");
    /* fit --test takes a one-class test file too */
    cli(0, "fit '%s' --algo cart --test '%s'", data, test);
    has(out, "3 rows: accuracy 0.6667");
    remove(model);
}

static void test_predict_id_and_types(void **state)
{
    (void)state;
    char model[64], data[256];
    snprintf(model, sizeof model, "/tmp/tl_gaps_t_%d.model", (int)getpid());
    /* a class coded as numbers, made nominal at fit; an id column left out */
    snprintf(data, sizeof data, "%s",
             tl_test_tmpfile(".csv", "id,x,Type\nr1,1,1\nr2,2,1\nr3,3,1\nr4,7,3\nr5,8,3\n"
                                     "r6,9,3\n"));
    cli(0, "fit '%s' --algo c45 --ignore id --nominal Type --set min_leaf=1 -o %s", data, model);
    /* no --nominal Type at predict: the model's own types; the ids carried through */
    cli(0, "predict %s '%s' --id id --proba", model, data);
    assert_string_equal(out, "row,id,predicted,p_1,p_3\n1,r1,1,1,0\n2,r2,1,1,0\n3,r3,1,1,0\n"
                             "4,r4,3,0,1\n5,r5,3,0,1\n6,r6,3,0,1\n");
    cli(0, "predict %s --test '%s' --id id", model, data);
    has(errb, "6 rows: accuracy 1.0000");
    cli(1, "predict %s '%s' --id idd", model, data);
    has(errb, "--id: unknown column 'idd'; valid columns: id, x; did you mean 'id'?");
    remove(model);
}

/* --class-weight b=3 is a weight of 3 on every b row: the same tree as --weight w. */
static void test_fit_class_weight(void **state)
{
    (void)state;
    char text[4096] = "x,y,w,cls\n", m[3][64], data[256];
    for (int i = 0; i < 40; i++) /* a, b interleaved along x with some overlap */
        snprintf(text + strlen(text), sizeof text - strlen(text), "%d,%d,%d,%s\n", i, (i * 7) % 11,
                 i % 4 == 0 ? 3 : 1, i % 4 == 0 ? "b" : "a");
    snprintf(data, sizeof data, "%s", tl_test_tmpfile(".csv", text));
    for (int i = 0; i < 3; i++)
        snprintf(m[i], sizeof m[i], "/tmp/tl_gaps_cw%d_%d.model", i, (int)getpid());
    cli(0, "fit '%s' --algo cart --ignore w --class-weight b=3 -o %s", data, m[0]);
    cli(0, "fit '%s' --algo cart --weight w -o %s", data, m[1]);
    cli(0, "fit '%s' --algo cart --ignore w -o %s", data, m[2]);
    char shown[3][4096];
    for (int i = 0; i < 3; i++) {
        cli(0, "show %s", m[i]);
        snprintf(shown[i], sizeof shown[i], "%s", out);
        remove(m[i]);
    }
    assert_string_equal(shown[0], shown[1]);
    assert_string_not_equal(shown[0], shown[2]);
    cli(1, "fit '%s' --algo cart --ignore w --class-weight c=2 -o %s", data, m[0]);
    has(errb, "'c' is not a class");
}

static void test_did_you_mean(void **state)
{
    (void)state;
    char buf[64];
    assert_string_equal(tl_suggest("max_dept", "max_depth, min_samples_leaf", buf, sizeof buf),
                        "max_depth");
    assert_string_equal(tl_suggest("GINI", "entropy, gini", buf, sizeof buf), "gini");
    assert_string_equal(tl_suggest("ab", "abcd, xyz", buf, sizeof buf), "abcd"); /* 2 edits */
    assert_null(tl_suggest("ab", "abcde", buf, sizeof buf));                     /* 3 edits */
    assert_null(tl_suggest("gini", "entropy, gini", buf, sizeof buf));           /* listed */
    /* the nearest wins, the first of equals; the list ends at the first other character */
    assert_string_equal(tl_suggest("cat", "cut, car, cart", buf, sizeof buf), "cut");
    assert_null(tl_suggest("zeta", "alpha (beta) zeta", buf, sizeof buf));
    tl_err e;
    tl_err_set(&e, TL_EINVAL, "unknown pruner 'colapse'; valid: none, collapse, optimal");
    assert_string_equal(e.msg, "unknown pruner 'colapse'; valid: none, collapse, optimal; did "
                               "you mean 'collapse'?");
    tl_err_set(&e, TL_EINVAL, "unknown pruner 'zzz'; valid: none, collapse, optimal");
    assert_null(strstr(e.msg, "did you mean"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_holdout_probability_metrics),
        cmocka_unit_test(test_one_class_batch),
        cmocka_unit_test(test_predict_id_and_types),
        cmocka_unit_test(test_fit_class_weight),
        cmocka_unit_test(test_did_you_mean),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
