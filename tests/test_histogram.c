/* The histogram splitter: its bins against scikit-learn 1.2.1's _BinMapper (fixture recorded
 * by scripts/peers/sklearn_bins.py), a worked example with max_bins = 4, the exact splitter's
 * tree whenever every attribute has at most max_bins distinct values (parents of 256 rows and
 * more hand their second child histograms by subtraction there: a wrong one parts the trees),
 * and bad parameters. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tl_test_util.h"
#include "treelab/tl_grow.h"
#include "treelab/tl_model.h"
#include "treelab/tl_splitters.h"

/* Every attribute's boundaries are the fixture's doubles: in quantile mode numpy's midpoint
 * interpolation b - (b - a) / 2 reproduced; in distinct mode treelab cuts where
 * numeric_threshold does, at a / 2 + b / 2, scikit-learn at (a + b) * 0.5, which could differ
 * in the last bit but does not on these values. */
static void test_bins_match_sklearn(void **state)
{
    (void)state;
    FILE *f = fopen(tl_test_path("tests/fixtures/sklearn_bins.txt"), "r");
    if (!f)
        fail_msg("cannot open tests/fixtures/sklearn_bins.txt");
    char name[64], mode[16], path[128];
    size_t max_bins, attr, n, lines = 0, quantile = 0, values = 0;
    tl_dataset *d = NULL;
    char loaded[64] = "";
    double *thr = malloc(65535 * sizeof *thr);
    fscanf(f, "%*[^\n]\n"); /* the header */
    while (fscanf(f, "%63s %zu %zu %15s %zu", name, &max_bins, &attr, mode, &n) == 5) {
        if (strcmp(name, loaded)) {
            tl_dataset_free(d);
            snprintf(path, sizeof path, "experiments/datasets/%s.arff", name);
            d = tl_test_load(path, NULL);
            snprintf(loaded, sizeof loaded, "%s", name);
        }
        size_t got = 0;
        tl_err err;
        assert_int_equal(
            tl_histogram_thresholds(d->cols[attr].num, d->n_rows, max_bins, thr, &got, &err),
            TL_OK);
        if (got != n)
            fail_msg("%s max_bins %zu attribute %zu: %zu boundaries, scikit-learn %zu", name,
                     max_bins, attr, got, n);
        int q = !strcmp(mode, "quantile");
        for (size_t i = 0; i < n; i++) {
            double want;
            assert_int_equal(fscanf(f, "%lf", &want), 1);
            if (thr[i] != want)
                fail_msg("%s max_bins %zu attribute %zu (%s) boundary %zu: %.17g, scikit-learn "
                         "%.17g",
                         name, max_bins, attr, mode, i, thr[i], want);
            values++;
        }
        quantile += (size_t)q;
        lines++;
    }
    fclose(f);
    free(thr);
    tl_dataset_free(d);
    /* diabetes and segment-challenge at 255 and 16 bins: 54 attributes, 37 by quantiles */
    assert_int_equal(lines, 54);
    assert_int_equal(quantile, 37);
    assert_int_equal(values, 5149);
}

/* x = 1..8, classes a a a b a b b a. max_bins = 4 < 8 distinct values: quantiles. numpy's
 * midpoint percentile i/4 of 8 values sits at virtual index 7 i / 4 = 1.75, 3.5, 5.25, between
 * values (2, 3), (4, 5), (6, 7): boundaries 2.5, 4.5, 6.5, bins {1,2} {3,4} {5,6} {7,8} with
 * (a, b) counts (2,0) (1,1) (1,1) (1,1). Weighted child Gini (times 8) of the cuts:
 * after bin 0: 2 * 0 + 6 * (1 - 1/4 - 1/4) = 3; after bin 1: 4 * 6/16 + 4 * 1/2 = 3.5;
 * after bin 2: 6 * 4/9 + 2 * 1/2 = 3.667. The cut is x <= 2.5, gain 30/64 - 3/8 = 0.09375.
 * The exact splitter cuts at 3.5 (x <= 3 is pure: 5 * 12/25 = 2.4, gain 0.16875), and so
 * does the histogram with 8 bins, one per value. */
static void test_worked_example_four_bins(void **state)
{
    (void)state;
    const char *csv = tl_test_tmpfile(".csv", "x,y\n1,a\n2,a\n3,a\n4,b\n5,a\n6,b\n7,b\n8,a\n");
    tl_err err;
    tl_dataset *d = tl_dataset_load(csv, NULL, &err);
    assert_non_null(d);
    double thr[7];
    size_t n = 0;
    assert_int_equal(tl_histogram_thresholds(d->cols[0].num, 8, 4, thr, &n, &err), TL_OK);
    assert_int_equal(n, 3);
    assert_true(thr[0] == 2.5 && thr[1] == 4.5 && thr[2] == 6.5);
    size_t rows[8] = {0, 1, 2, 3, 4, 5, 6, 7};
    const tl_splitter_type *hist = tl_splitter_find("histogram", &err);
    assert_non_null(hist);
    struct {
        const char *bins;
        double threshold, gain;
    } cases[] = {{"4", 2.5, 0.09375}, {"8", 3.5, 0.16875}};
    for (size_t c = 0; c < 2; c++) {
        tl_params p;
        tl_params_init(&p);
        assert_int_equal(tl_params_set(&p, "max_bins", cases[c].bins, &err), TL_OK);
        void *st = hist->init(&p, &err);
        tl_params_clear(&p);
        assert_non_null(st);
        tl_grow_params gp;
        tl_grow_params_init(&gp);
        gp.criterion = tl_criterion_find("gini", &err);
        gp.numeric = hist;
        gp.numeric_state = st;
        tl_split cand;
        int valid = 0;
        assert_int_equal(tl_grow_root_candidates(d, rows, 8, &gp, &cand, &valid, &err), TL_OK);
        assert_int_equal(valid, 1);
        assert_true(cand.threshold == cases[c].threshold);
        assert_close(cand.gain, cases[c].gain, 1e-15);
        hist->free(st);
    }
    tl_dataset_free(d);
}

/* The first node where the trees part (attribute, children or statistics), or SIZE_MAX. */
static size_t first_difference(const tl_tree *e, const tl_tree *h)
{
    for (size_t i = 0; i < e->n_nodes && i < h->n_nodes; i++)
        if (e->attr[i] != h->attr[i] || e->n_children[i] != h->n_children[i] ||
            e->first_child[i] != h->first_child[i] ||
            memcmp(e->stats + i * e->k, h->stats + i * h->k, e->k * sizeof *e->stats))
            return i;
    return e->n_nodes == h->n_nodes ? SIZE_MAX
                                    : (e->n_nodes < h->n_nodes ? e->n_nodes : h->n_nodes);
}

/* Node for node the same tree as numeric_threshold's: attributes, children, statistics (the
 * same bits), and a threshold that splits the node's rows alike: the exact splitter cuts
 * midway between the node's own adjacent values, the histogram at its bin's upper boundary,
 * midway to the next value of the whole training set, so at or below the exact one. Returns
 * how many thresholds differ. */
static size_t assert_same_but_thresholds(const tl_tree *e, const tl_tree *h, const char *what)
{
    size_t at = first_difference(e, h);
    if (at != SIZE_MAX)
        fail_msg("%s: the trees part at node %zu", what, at);
    size_t differ = 0;
    for (size_t i = 0; i < e->n_nodes; i++) {
        if (e->attr[i] >= 0 && !(h->threshold[i] <= e->threshold[i]))
            fail_msg("%s: node %zu threshold %.17g above the exact %.17g", what, i, h->threshold[i],
                     e->threshold[i]);
        differ += e->attr[i] >= 0 && h->threshold[i] != e->threshold[i];
    }
    return differ;
}

/* Where a regression tree parts from the exact one, the two attributes tie: the exact
 * splitter's own gains for them at that node (same rows: the ancestors agree) are equal to
 * 1e-12. The histogram adds a bin's targets before adding them to the left side, the sweep
 * row by row, so such ties round either way. */
static void assert_parts_at_tie(const tl_dataset *d, const tl_tree *e, const tl_tree *h,
                                size_t node, const char *what)
{
    size_t *rows = malloc(d->n_rows * sizeof *rows), n = 0;
    for (size_t r = 0; r < d->n_rows; r++) {
        size_t at = 0;
        while (at != node && e->attr[at] >= 0)
            at = e->first_child[at] + (size_t)tl_tree_branch(e, at, d, r);
        if (at == node)
            rows[n++] = r;
    }
    tl_grow_params gp;
    tl_grow_params_init(&gp);
    gp.criterion = tl_criterion_find("mse", NULL);
    gp.numeric = tl_splitter_find("numeric_threshold", NULL);
    tl_split *cand = calloc(d->schema.n_attrs, sizeof *cand);
    int *valid = calloc(d->schema.n_attrs, sizeof *valid);
    tl_err err;
    assert_int_equal(tl_grow_root_candidates(d, rows, n, &gp, cand, valid, &err), TL_OK);
    int ae = e->attr[node], ah = h->attr[node];
    if (ae < 0 || ah < 0 || !valid[ae] || !valid[ah] ||
        fabs(cand[ae].gain - cand[ah].gain) > 1e-12 * fabs(cand[ae].gain))
        fail_msg("%s: node %zu (%zu rows) splits on %d, the histogram's on %d: no tie", what, node,
                 n, ae, ah);
    free(rows);
    free(cand);
    free(valid);
}

static void test_equals_exact_when_bins_hold_every_value(void **state)
{
    (void)state;
    struct {
        const char *file, *target, *criterion;
    } cases[] = {
        {"iris.arff", NULL, "gini"},        {"iris.arff", NULL, "entropy"},
        {"wine.arff", NULL, "gini"},        {"wine.arff", NULL, "entropy"},
        {"glass.arff", NULL, "gini"},       {"glass.arff", NULL, "entropy"},
        {"diabetes.arff", NULL, "gini"},    {"diabetes.arff", NULL, "entropy"},
        {"ionosphere.arff", NULL, "gini"},  {"segment-challenge.arff", NULL, "entropy"},
        {"diabetes.arff", "plas", "mse"},   {"engagement-regression.csv", NULL, "mse"},
        {"iris.arff", "petalwidth", "mse"}, {"diabetes.arff", "mass", "mse"},
    };
    size_t differ = 0, splits = 0, parted = 0;
    for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
        char path[128], crit[64];
        snprintf(path, sizeof path, "experiments/datasets/%s", cases[c].file);
        snprintf(crit, sizeof crit, "criterion=%s", cases[c].criterion);
        tl_dataset *d = tl_test_load(path, cases[c].target);
        /* more bins than any attribute's distinct values: one bin per value */
        const char *exact[] = {crit, NULL};
        const char *hist[] = {crit, "numeric=histogram", "numeric.max_bins=65535", NULL};
        tl_err err;
        tl_model *me = tl_test_fit("cart", d, exact, 1, &err);
        tl_model *mh = tl_test_fit("cart", d, hist, 1, &err);
        assert_non_null(me);
        assert_non_null(mh);
        const tl_tree *te = tl_model_tree(me), *th = tl_model_tree(mh);
        size_t at = first_difference(te, th);
        if (at != SIZE_MAX && !strcmp(cases[c].criterion, "mse")) {
            assert_parts_at_tie(d, te, th, at, path);
            parted++;
        } else {
            differ += assert_same_but_thresholds(te, th, path);
            for (size_t i = 0; i < te->n_nodes; i++)
                splits += te->attr[i] >= 0;
        }
        tl_model_free(me);
        tl_model_free(mh);
        tl_dataset_free(d);
    }
    print_message("%zu splits equal, %zu thresholds below the exact one; %zu regression trees "
                  "part at a tie\n",
                  splits, differ, parted);
    assert_true(differ > 0 && differ < splits);
    assert_int_equal(parted, 2); /* iris petalwidth and diabetes mass */
}

/* Every missing-value method grows the exact splitter's tree on labor (missing cells in
 * numeric attributes; surrogate sorts the node's rows on demand, the grower keeping none). */
static void test_missing_values_as_exact(void **state)
{
    (void)state;
    tl_dataset *d = tl_test_load("experiments/datasets/labor.arff", NULL);
    for (size_t im = 0; tl_missing_at(im); im++) {
        char m[96];
        snprintf(m, sizeof m, "missing=%s", tl_missing_at(im)->name);
        const char *exact[] = {m, NULL};
        const char *hist[] = {m, "numeric=histogram", NULL};
        tl_err err;
        tl_model *me = tl_test_fit("cart", d, exact, 1, &err);
        tl_model *mh = tl_test_fit("cart", d, hist, 1, &err);
        assert_non_null(me);
        assert_non_null(mh);
        assert_same_but_thresholds(tl_model_tree(me), tl_model_tree(mh), m);
        tl_model_free(me);
        tl_model_free(mh);
    }
    tl_dataset_free(d);
}

/* Inside random_subset the histogram gets its bins through random_subset's prepare. */
static void test_inside_random_subset(void **state)
{
    (void)state;
    tl_dataset *d = tl_test_load("experiments/datasets/wine.arff", NULL);
    const char *a[] = {"numeric=random_subset", "numeric.numeric=histogram", NULL};
    const char *b[] = {"numeric=random_subset", NULL};
    tl_err err;
    tl_model *ma = tl_test_fit("cart", d, a, 7, &err), *mb = tl_test_fit("cart", d, b, 7, &err);
    assert_non_null(ma);
    assert_non_null(mb);
    assert_same_but_thresholds(tl_model_tree(mb), tl_model_tree(ma), "random_subset");
    tl_model_free(ma);
    tl_model_free(mb);
    tl_dataset_free(d);
}

static void test_bad_max_bins(void **state)
{
    (void)state;
    const char *bad[] = {"1", "0", "65536", "-3", "many"};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        tl_params p;
        tl_err err;
        char kv[64];
        snprintf(kv, sizeof kv, "numeric.max_bins=%s", bad[i]);
        tl_params_init(&p);
        tl_params_set_kv(&p, "numeric=histogram", &err);
        tl_params_set_kv(&p, kv, &err);
        tl_model *m = tl_model_new("cart", &p, &err);
        tl_params_clear(&p);
        if (m)
            fail_msg("max_bins = %s accepted", bad[i]);
        if (!strstr(err.msg, "max_bins"))
            fail_msg("max_bins = %s: '%s' does not name max_bins", bad[i], err.msg);
        if (i < 4 && !strstr(err.msg, "out of range [2, 65535]"))
            fail_msg("max_bins = %s: '%s' does not give the range", bad[i], err.msg);
    }
    double x[3] = {1, 2, 3}, thr[2];
    size_t n;
    tl_err err;
    assert_int_equal(tl_histogram_thresholds(x, 3, 1, thr, &n, &err), TL_EINVAL);
    assert_non_null(strstr(err.msg, "max_bins = 1 is out of range [2, 65535]"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_bins_match_sklearn),
        cmocka_unit_test(test_worked_example_four_bins),
        cmocka_unit_test(test_equals_exact_when_bins_hold_every_value),
        cmocka_unit_test(test_missing_values_as_exact),
        cmocka_unit_test(test_inside_random_subset),
        cmocka_unit_test(test_bad_max_bins),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
