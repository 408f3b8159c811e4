/* The grower's compact records: taken exactly where they apply (unit weights, classes, an
 * impurity, no unknown value, a splitter that reads them) and growing the very tree of the
 * packed path (CART's) or the gathered one (C4.5's), including nodes too large to keep
 * records and values closer than the splitter's gap; and the sorted blocks partitioned on
 * demand growing the tree of blocks partitioned at every split. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../algorithms/tree/grow_internal.h"
#include "tl_test_util.h"
#include "treelab/tl_grow.h"

static size_t *all_rows(const tl_dataset *d, uint32_t **rows32)
{
    size_t *rows = malloc(d->n_rows * sizeof *rows);
    *rows32 = malloc(d->n_rows * sizeof **rows32);
    assert_non_null(rows);
    assert_non_null(*rows32);
    for (size_t i = 0; i < d->n_rows; i++) {
        rows[i] = i;
        (*rows32)[i] = (uint32_t)i;
    }
    return rows;
}

static void cart_params(tl_grow_params *gp, const char *criterion)
{
    tl_grow_params_init(gp);
    gp->numeric = tl_splitter_find("numeric_threshold", NULL);
    gp->nominal = tl_splitter_find("nominal_subset", NULL);
    gp->criterion = tl_criterion_find(criterion, NULL);
    assert_non_null(gp->criterion);
}

static int applies(const tl_dataset *d, const tl_grow_params *gp, const uint32_t *rows)
{
    return tlg_compact_applies(d, gp, rows, d->n_rows);
}

static void test_compact_path_where_it_must_be(void **state)
{
    (void)state;
    tl_dataset *d = tl_test_load("experiments/datasets/digits.arff", NULL);
    uint32_t *r32;
    size_t *rows = all_rows(d, &r32);
    tl_grow_params gp;
    cart_params(&gp, "gini");
    assert_int_equal(applies(d, &gp, r32), 1);
    cart_params(&gp, "entropy");
    assert_int_equal(applies(d, &gp, r32), 1);
    cart_params(&gp, "hellinger"); /* a score of its own, no impurity for the cuts */
    assert_int_equal(applies(d, &gp, r32), 0);
    cart_params(&gp, "gini");
    const char *routing[] = {"learned", "surrogate", "majority"};
    for (int i = 0; i < 3; i++) {
        gp.missing = tl_missing_find(routing[i], NULL);
        assert_non_null(gp.missing);
        assert_int_equal(applies(d, &gp, r32), 0);
    }
    gp.missing = tl_missing_find("fractional", NULL);
    assert_int_equal(applies(d, &gp, r32), 1);
    gp.numeric = tl_splitter_find("c45_threshold", NULL); /* reads records too (J48's gap) */
    assert_int_equal(applies(d, &gp, r32), 1);
    gp.numeric = tl_splitter_find("random_subset", NULL);
    assert_int_equal(applies(d, &gp, r32), 0);
    gp.numeric = tl_splitter_find("histogram", NULL); /* unsorted: neither blocks nor records */
    assert_non_null(gp.numeric);
    assert_int_equal(applies(d, &gp, r32), 0);
    cart_params(&gp, "gini");
    /* weights: every weight exactly 1 is unit weight; one other weight turns it off */
    d->weight = malloc(d->n_rows * sizeof *d->weight);
    for (size_t i = 0; i < d->n_rows; i++)
        d->weight[i] = 1.0;
    assert_int_equal(applies(d, &gp, r32), 1);
    d->weight[d->n_rows / 2] = 2.0;
    assert_int_equal(applies(d, &gp, r32), 0);
    d->weight[d->n_rows / 2] = 0.5;
    assert_int_equal(applies(d, &gp, r32), 0);
    free(d->weight);
    d->weight = NULL;
    /* one unknown value among the rows grown on */
    double kept = d->cols[3].num[7];
    d->cols[3].num[7] = NAN;
    assert_int_equal(applies(d, &gp, r32), 0);
    assert_int_equal(tlg_compact_applies(d, &gp, r32, 7), 1); /* not among rows 0..6 */
    d->cols[3].num[7] = kept;
    free(rows);
    free(r32);
    tl_dataset_free(d);

    d = tl_test_load("experiments/datasets/engagement-regression.csv", NULL);
    rows = all_rows(d, &r32);
    const char *reg[] = {"mse", "friedman_mse", "mae"};
    for (int i = 0; i < 3; i++) {
        cart_params(&gp, reg[i]);
        assert_int_equal(applies(d, &gp, r32), 0);
    }
    free(rows);
    free(r32);
    tl_dataset_free(d);
}

/* Trees a and b are the same to the bit: tests, thresholds (the sign of a zero too), layout
 * and statistics. */
static void assert_same_tree(const tl_tree *a, const tl_tree *b)
{
    assert_non_null(a);
    assert_non_null(b);
    assert_int_equal(a->n_nodes, b->n_nodes);
    assert_int_equal(a->k, b->k);
    for (size_t n = 0; n < a->n_nodes; n++) {
        assert_int_equal(a->attr[n], b->attr[n]);
        assert_int_equal(a->kind[n], b->kind[n]);
        assert_true(a->mask[n] == b->mask[n]);
        assert_memory_equal(&a->threshold[n], &b->threshold[n], sizeof a->threshold[n]);
        assert_int_equal(a->n_children[n], b->n_children[n]);
        assert_int_equal(a->first_child[n], b->first_child[n]);
        assert_memory_equal(a->stats + n * a->k, b->stats + n * b->k, a->k * sizeof *a->stats);
    }
}

/* The records' tree against the packed path's: missing = majority routes unknown values
 * itself, so the grower keeps packed values, though no value is unknown here. */
static void compare_paths(const tl_dataset *d, const char *criterion, double min_leaf,
                          size_t min_nodes)
{
    uint32_t *r32;
    size_t *rows = all_rows(d, &r32);
    tl_grow_params gp;
    cart_params(&gp, criterion);
    gp.min_samples_leaf = min_leaf;
    assert_int_equal(applies(d, &gp, r32), 1);
    tl_tree *compact = tl_grow(d, rows, d->n_rows, &gp, NULL);
    gp.missing = tl_missing_find("majority", NULL);
    assert_int_equal(applies(d, &gp, r32), 0);
    tl_tree *packed = tl_grow(d, rows, d->n_rows, &gp, NULL);
    assert_true(compact->n_nodes >= min_nodes);
    assert_same_tree(compact, packed);
    tl_tree_free(compact);
    tl_tree_free(packed);
    free(rows);
    free(r32);
}

/* C4.5's tree (gain ratio, c45_threshold, multiway nominal tests, J48's least leaf of 2)
 * from the records against the gathered path's (missing = majority turns the records off,
 * though no value is unknown); max_depth 0: no limit. */
static void compare_c45_paths(const tl_dataset *d, size_t max_depth, size_t min_nodes)
{
    uint32_t *r32;
    size_t *rows = all_rows(d, &r32);
    tl_err err;
    tl_err_clear(&err);
    tl_grow_params gp;
    tl_grow_params_init(&gp);
    gp.criterion = tl_criterion_find("gain_ratio", NULL);
    gp.numeric = tl_splitter_find("c45_threshold", NULL);
    gp.nominal = tl_splitter_find("nominal_multiway", NULL);
    void *crit = gp.criterion->init(NULL, &err), *num = gp.numeric->init(NULL, &err);
    assert_non_null(crit);
    assert_non_null(num);
    gp.criterion_state = crit; /* J48's rules: the average-gain filter, the slack */
    gp.numeric_state = num;
    gp.max_depth = max_depth;
    gp.min_samples_leaf = 2;
    gp.min_samples_split = 4;
    gp.min_leaf_branches = 2;
    assert_int_equal(applies(d, &gp, r32), 1);
    tl_tree *compact = tl_grow(d, rows, d->n_rows, &gp, &err);
    gp.missing = tl_missing_find("majority", NULL);
    assert_int_equal(applies(d, &gp, r32), 0);
    tl_tree *gathered = tl_grow(d, rows, d->n_rows, &gp, &err);
    assert_true(compact->n_nodes >= min_nodes);
    assert_same_tree(compact, gathered);
    tl_tree_free(compact);
    tl_tree_free(gathered);
    gp.criterion->free(crit);
    gp.numeric->free(num);
    free(rows);
    free(r32);
}

static void test_compact_path_grows_the_packed_tree(void **state)
{
    (void)state;
    const char *files[] = {"experiments/datasets/digits.arff",
                           "experiments/datasets/segment-challenge.arff",
                           "experiments/datasets/breast_cancer.arff", /* two classes */
                           "experiments/datasets/glass.arff"};
    for (int f = 0; f < 4; f++) {
        tl_dataset *d = tl_test_load(files[f], NULL);
        compare_paths(d, "gini", 1, 20);
        compare_paths(d, "entropy", 1, 20);
        compare_paths(d, "gini", 3, 10);
        compare_c45_paths(d, 0, 9);
        tl_dataset_free(d);
    }
}

/* More cells than the root keeps records for (2^22): n rows of p = 20 values on a grid of 1/40
 * shifted by 0, shift or 2 shift (shift a little over half the splitter's gap: each step
 * closer than the gap, two steps farther, so a child that lacks the middle value may be cut
 * between its neighbours), two or three classes. */
static tl_dataset *close_values(size_t n, double shift, int classes)
{
    const size_t p = 20;
    size_t cap = n * (p * 16 + 8) + 1024, at = 0;
    char *csv = malloc(cap);
    assert_non_null(csv);
    for (size_t j = 0; j < p; j++)
        at += (size_t)snprintf(csv + at, cap - at, "x%zu,", j);
    at += (size_t)snprintf(csv + at, cap - at, "y\n");
    uint64_t s = 88172645463325252ull;
    for (size_t i = 0; i < n; i++) {
        double v[20];
        for (size_t j = 0; j < p; j++) {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            v[j] = (double)(s % 40) / 40.0 + (double)((s >> 20) % 3) * shift;
            at += (size_t)snprintf(csv + at, cap - at, "%.10f,", v[j]);
        }
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        int y = (v[0] + v[1] * v[2] > 0.6) ^ (s % 10 == 0); /* 10% noise */
        if (classes == 3 && v[3] > 0.8)
            y = 2;
        at += (size_t)snprintf(csv + at, cap - at, "c%d\n", y);
    }
    tl_err err;
    tl_dataset *d = tl_dataset_load(tl_test_tmpfile(".csv", csv), NULL, &err);
    free(csv);
    assert_non_null(d);
    return d;
}

static void test_compact_path_on_large_nodes_and_close_values(void **state)
{
    (void)state;
    for (int classes = 2; classes <= 3; classes++) {
        tl_dataset *d = close_values(220000, 6e-8, classes); /* TL_REC_GAP 1e-7 */
        compare_paths(d, "gini", 1, 1000);
        tl_dataset_free(d);
        d = close_values(220000, 6e-6, classes); /* c45_threshold's 1e-5 */
        compare_c45_paths(d, 8, 200);
        tl_dataset_free(d);
    }
}

/* A superset cache (a forest's: each column sorted once for all its members) grows the
 * very tree of a fit that sorts its own rows: on subsets of its rows, again from the orders it
 * already holds, with an unknown value, and on rows it does not hold (then the grower sorts). */
static void test_superset_cache_grows_the_same_tree(void **state)
{
    (void)state;
    tl_dataset *d = tl_test_load("experiments/datasets/digits.arff", NULL);
    uint32_t *r32;
    size_t *all = all_rows(d, &r32), *sub = malloc(d->n_rows * sizeof *sub), n_sub = 0;
    assert_non_null(sub);
    for (size_t i = 0; i < d->n_rows; i++)
        if (i % 3)
            sub[n_sub++] = i;
    tl_grow_params gp;
    const char *missing[] = {NULL, "majority"}; /* the records' path, and the packed one */
    for (int m = 0; m < 2; m++) {
        cart_params(&gp, "gini");
        gp.missing = missing[m] ? tl_missing_find(missing[m], NULL) : NULL;
        if (m) /* an unknown value, sorted last */
            d->cols[5].num[10] = NAN;
        tl_view_cache *c = tl_view_cache_new_superset(all, d->n_rows, d->schema.n_attrs);
        assert_non_null(c);
        for (int again = 0; again < 2; again++) {
            gp.view_cache = NULL;
            tl_tree *own = tl_grow(d, sub, n_sub, &gp, NULL);
            gp.view_cache = c;
            tl_tree *cached = tl_grow(d, sub, n_sub, &gp, NULL);
            assert_true(own->n_nodes > 50);
            assert_same_tree(own, cached);
            tl_tree_free(own);
            tl_tree_free(cached);
        }
        tl_view_cache_free(c);
        /* the cache holds the first half of the rows only: the grower sorts all of them */
        c = tl_view_cache_new_superset(all, d->n_rows / 2, d->schema.n_attrs);
        gp.view_cache = NULL;
        tl_tree *own = tl_grow(d, all, d->n_rows, &gp, NULL);
        gp.view_cache = c;
        tl_tree *cached = tl_grow(d, all, d->n_rows, &gp, NULL);
        assert_same_tree(own, cached);
        tl_tree_free(own);
        tl_tree_free(cached);
        tl_view_cache_free(c);
    }
    free(all);
    free(sub);
    free(r32);
    tl_dataset_free(d);
}

/* Partitions on demand (views/stale.c): the forest's splitter reads 3 drawn attributes of 64
 * a node, so most sorted blocks are partitioned only where a node asks for them; the tree is
 * the one of a fit that partitions every block at every split (missing = majority routes
 * unknown values itself, which turns the partitions on demand off; no value is unknown here),
 * on all the rows and on rows given twice (a bootstrap's repeats). */
static void test_partitions_on_demand_grow_the_same_tree(void **state)
{
    (void)state;
    tl_dataset *d = tl_test_load("experiments/datasets/digits.arff", NULL);
    uint32_t *r32;
    size_t *all = all_rows(d, &r32), n2 = 0;
    size_t *twice = malloc(2 * d->n_rows * sizeof *twice);
    assert_non_null(twice);
    for (size_t i = 0; i < d->n_rows; i++) {
        twice[n2++] = i;
        if (i % 4 == 0)
            twice[n2++] = i;
    }
    const tl_splitter_type *sub = tl_splitter_find("random_subset", NULL);
    assert_non_null(sub);
    tl_params p;
    tl_params_init(&p);
    assert_int_equal(tl_params_set(&p, "mtry", "3", NULL), TL_OK);
    void *st = sub->init(&p, NULL);
    assert_non_null(st);
    for (unsigned long seed = 1; seed <= 3; seed++)
        for (int rep = 0; rep < 2; rep++) {
            tl_grow_params gp;
            cart_params(&gp, "gini");
            gp.numeric = sub;
            gp.numeric_state = st;
            gp.seed = seed;
            const size_t *rows = rep ? twice : all;
            size_t n = rep ? n2 : d->n_rows;
            tl_tree *on_demand = tl_grow(d, rows, n, &gp, NULL);
            gp.missing = tl_missing_find("majority", NULL);
            tl_tree *every = tl_grow(d, rows, n, &gp, NULL);
            assert_true(on_demand->n_nodes > 300);
            assert_same_tree(on_demand, every);
            tl_tree_free(on_demand);
            tl_tree_free(every);
        }
    sub->free(st);
    tl_params_clear(&p);
    free(twice);
    free(all);
    free(r32);
    tl_dataset_free(d);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_compact_path_where_it_must_be),
        cmocka_unit_test(test_compact_path_grows_the_packed_tree),
        cmocka_unit_test(test_compact_path_on_large_nodes_and_close_values),
        cmocka_unit_test(test_superset_cache_grows_the_same_tree),
        cmocka_unit_test(test_partitions_on_demand_grow_the_same_tree),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
