/* C4.5: the seed's worked numbers through the grower, J48's exact text, and agreement with
 * Weka J48 (tests/fixtures/j48*, recorded by scripts/peers/weka_j48.sh) on every bundled
 * Weka dataset: tree size and leaves, and 10-fold CV accuracy within one point. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../algorithms/splitters/c45_scan.h"
#include "tl_test_util.h"
#include "treelab/tl_model.h"
#include "treelab/tl_grow.h"

static const char *const weka_sets[] = {
    "iris",
    "vote",
    "soybean",
    "breast-cancer",
    "credit-g",
    "diabetes",
    "glass",
    "ionosphere",
    "labor",
    "contact-lenses",
    "segment-challenge",
    "weather.nominal",
    "weather.numeric",
};
#define N_SETS (sizeof weka_sets / sizeof *weka_sets)

/* ---- helpers ---- */

static tl_dataset *load_only(const char *rel, const char *attr)
{
    tl_dataset *d = tl_test_load(rel, NULL);
    tl_err err;
    tl_err_clear(&err);
    if (tl_dataset_select(d, &attr, 1, &err))
        fail_msg("select %s: %s", attr, err.msg);
    return d;
}

static tl_dataset *load_without_id(const char *rel)
{
    tl_dataset *d = tl_test_load(rel, NULL);
    const char *names[16];
    size_t n = 0;
    for (size_t j = 0; j < d->schema.n_attrs && n < 16; j++)
        if (strcmp(d->schema.attrs[j].name, "id"))
            names[n++] = d->schema.attrs[j].name;
    tl_err err;
    tl_err_clear(&err);
    if (tl_dataset_select(d, names, n, &err))
        fail_msg("select: %s", err.msg);
    return d;
}

/* The root test the grower picks, captured through the accept callback. */
static int capture(void *user, const tl_grow_ctx *g, const tl_tree *t, size_t node,
                   const tl_node_rows *rows, const tl_split *s, tl_err *err)
{
    (void)g;
    (void)t;
    (void)rows;
    (void)err;
    if (node == 0)
        *(tl_split *)user = *s;
    return 1;
}

/* A stump with C4.5's stopping rules (min_leaf 2; the slack is gain_ratio's, none here). */
static tl_tree *stump(const tl_dataset *d, const char *criterion, const char *numeric,
                      tl_split *root)
{
    tl_err err;
    tl_err_clear(&err);
    tl_grow_params p;
    tl_grow_params_init(&p);
    p.criterion = tl_criterion_find(criterion, &err);
    p.numeric = tl_splitter_find(numeric, &err);
    p.nominal = tl_splitter_find("nominal_multiway", &err);
    void *numeric_state = p.numeric->init ? p.numeric->init(NULL, &err) : NULL;
    p.numeric_state = numeric_state;
    p.max_depth = 1;
    p.min_samples_leaf = 2;
    p.min_samples_split = 4;
    p.min_leaf_branches = 2;
    p.accept = capture;
    p.accept_user = root;
    memset(root, 0, sizeof *root);
    size_t *rows = malloc(d->n_rows * sizeof *rows);
    for (size_t i = 0; i < d->n_rows; i++)
        rows[i] = i;
    tl_tree *t = tl_grow(d, rows, d->n_rows, &p, &err);
    free(rows);
    if (numeric_state)
        p.numeric->free(numeric_state);
    if (!t)
        fail_msg("grow: %s", err.msg);
    return t;
}

static tl_model *fit_c45(const tl_dataset *d, const char *const *kv, size_t n_kv)
{
    tl_err err;
    tl_err_clear(&err);
    tl_params p;
    tl_params_init(&p);
    for (size_t i = 0; i < n_kv; i++)
        tl_params_set_kv(&p, kv[i], &err);
    tl_model *m = tl_model_new("c45", &p, &err);
    tl_params_clear(&p);
    if (!m)
        fail_msg("c45: %s", err.msg);
    tl_fit_ctx ctx = {.seed = 1};
    if (tl_model_fit(m, d, NULL, 0, &ctx, &err))
        fail_msg("fit: %s", err.msg);
    return m;
}

/* The tree as `treelab show` prints it, without the size footer. */
static char *tree_text(const tl_model *m)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    tl_err err;
    tl_err_clear(&err);
    tl_tree_show(tl_model_tree(m), &m->schema, TL_SHOW_TEXT, f, &err);
    fclose(f);
    return buf;
}

static char *slurp(const char *rel)
{
    FILE *f = fopen(tl_test_path(rel), "r");
    if (!f)
        fail_msg("cannot open %s", rel);
    char *buf = calloc(1, 1 << 16);
    size_t n = fread(buf, 1, (1 << 16) - 1, f);
    buf[n] = '\0';
    fclose(f);
    return buf;
}

/* ---- the seed's numbers (watermelon 2.0 with missing cells, watermelon 3.0) ---- */

static void test_missing_gains(void **state)
{
    (void)state;
    static const struct {
        const char *attr;
        double gain;
    } want[] = {{"color", 0.252},   {"root", 0.171},  {"knock", 0.145},
                {"texture", 0.424}, {"navel", 0.289}, {"touch", 0.006}};
    for (size_t i = 0; i < sizeof want / sizeof *want; i++) {
        tl_dataset *d = load_only("experiments/datasets/watermelon-2.0-missing.csv", want[i].attr);
        tl_split s;
        tl_tree *t = stump(d, "entropy", "numeric_threshold", &s);
        assert_int_equal(t->attr[0], 0);
        assert_close(s.gain, want[i].gain, 5e-4);
        tl_tree_free(t);
        tl_dataset_free(d);
    }
}

static void test_missing_branch_weights(void **state)
{
    (void)state;
    tl_dataset *d = load_without_id("experiments/datasets/watermelon-2.0-missing.csv");
    tl_split s;
    tl_tree *t = stump(d, "entropy", "numeric_threshold", &s);
    size_t texture = 3;
    assert_string_equal(d->schema.attrs[t->attr[0]].name, "texture");
    assert_int_equal(t->attr[0], (int)texture);
    /* known texture: 7 clear, 5 slightly blurry, 3 blurry of 15; the 2 unknown rows follow */
    const double share[3] = {7.0 / 15, 5.0 / 15, 3.0 / 15};
    size_t n_unknown = 0;
    for (size_t r = 0; r < d->n_rows; r++) {
        if (!tl_dataset_is_missing(d, texture, r))
            continue;
        n_unknown++;
        for (size_t b = 0; b < 3; b++) {
            assert_int_equal(tl_split_branch(&s, d, r), -1);
            size_t ch = t->first_child[0] + b;
            assert_close(tl_tree_reach_weight(t, ch, d, r), share[b], 1e-12);
        }
    }
    assert_int_equal(n_unknown, 2);
    for (size_t b = 0; b < 3; b++) {
        /* the branch's weight: its known rows plus its share of the two unknown ones */
        double known = share[b] * 15;
        assert_close(tl_tree_node_weight(t, t->first_child[0] + b), known + 2 * share[b], 1e-12);
    }
    tl_tree_free(t);
    tl_dataset_free(d);
}

static void test_watermelon3_thresholds(void **state)
{
    (void)state;
    static const struct {
        const char *attr;
        double gain, cut, c45_value;
    } want[] = {{"density", 0.262, 0.3815, 0.360}, {"sugar", 0.349, 0.126, 0.103}};
    for (size_t i = 0; i < 2; i++) {
        tl_dataset *d = load_only("experiments/datasets/watermelon-3.0.csv", want[i].attr);
        tl_split s;
        /* the textbook's midpoint cut and plain gain */
        tl_tree *t = stump(d, "entropy", "numeric_threshold", &s);
        assert_close(s.gain, want[i].gain, 5e-4);
        assert_close(t->threshold[0], want[i].cut, 1e-12);
        tl_tree_free(t);
        /* C4.5: the same cut, stored as the largest training value at or below it, and the
         * gain charged log2(14)/17 (14 cuts leave two rows a side among 17 distinct values) */
        t = stump(d, "entropy", "c45_threshold", &s);
        assert_close(t->threshold[0], want[i].c45_value, 1e-12);
        assert_close(s.gain, want[i].gain - log2(14.0) / 17, 5e-4);
        tl_tree_free(t);
        tl_dataset_free(d);
    }
}

/* ---- J48's text ---- */

static void test_labor_and_vote_text(void **state)
{
    (void)state;
    tl_dataset *d = tl_test_load("experiments/datasets/labor.arff", NULL);
    tl_model *m = fit_c45(d, NULL, 0);
    char *txt = tree_text(m);
    assert_string_equal(txt, "wage-increase-first-year <= 2.5: bad (15.27/2.27)\n"
                             "wage-increase-first-year > 2.5\n"
                             "|   statutory-holidays <= 10: bad (10.77/4.77)\n"
                             "|   statutory-holidays > 10: good (30.96/1.0)\n");
    free(txt);
    tl_model_free(m);
    tl_dataset_free(d);

    d = tl_test_load("experiments/datasets/vote.arff", NULL);
    m = fit_c45(d, NULL, 0);
    txt = tree_text(m);
    assert_true(!strncmp(txt, "physician-fee-freeze = n: democrat (253.41/3.75)\n", 49));
    free(txt);
    tl_model_free(m);
    tl_dataset_free(d);
}

/* Every bundled Weka set, four J48 settings: the whole tree text must be J48's, and its
 * leaves and size those J48 reports. */
static void test_j48_trees(void **state)
{
    (void)state;
    static const struct {
        const char *variant;
        const char *kv[2];
        size_t n;
    } variants[] = {{"default", {NULL, NULL}, 0},
                    {"U", {"prune=false", NULL}, 1},
                    {"S", {"subtree_raising=false", NULL}, 1},
                    {"C0.1M5", {"confidence=0.1", "min_leaf=5"}, 2}};
    char *summary = slurp("tests/fixtures/j48_summary.txt");
    for (size_t i = 0; i < N_SETS; i++) {
        char path[256];
        snprintf(path, sizeof path, "experiments/datasets/%s.arff", weka_sets[i]);
        tl_dataset *d = tl_test_load(path, NULL);
        for (size_t v = 0; v < sizeof variants / sizeof *variants; v++) {
            tl_model *m = fit_c45(d, variants[v].kv, variants[v].n);
            char *txt = tree_text(m);
            snprintf(path, sizeof path, "tests/fixtures/j48/%s.%s.txt", weka_sets[i],
                     variants[v].variant);
            char *want = slurp(path);
            if (strcmp(txt, want))
                fail_msg("%s: the tree differs from J48's:\n%s\nJ48:\n%s", path, txt, want);
            char key[128];
            snprintf(key, sizeof key, "tree %s %s ", weka_sets[i], variants[v].variant);
            const char *line = strstr(summary, key);
            assert_non_null(line);
            size_t leaves = 0, size = 0;
            assert_int_equal(sscanf(line + strlen(key), "%zu %zu", &leaves, &size), 2);
            tl_model_info info;
            tl_model_get_info(m, &info);
            assert_int_equal(info.leaves, leaves);
            assert_int_equal(info.nodes, size);
            free(want);
            free(txt);
            tl_model_free(m);
        }
        tl_dataset_free(d);
    }
    free(summary);
}

/* ---- cross-validated accuracy against J48's ---- */

static double cv_accuracy(const tl_dataset *d, unsigned long seed)
{
    tl_err err;
    tl_err_clear(&err);
    size_t n = d->n_rows, *rows = malloc(n * sizeof *rows), *fold = malloc(n * sizeof *fold);
    size_t *train = malloc(n * sizeof *train), *test = malloc(n * sizeof *test);
    double *pred = malloc(n * sizeof *pred);
    for (size_t i = 0; i < n; i++)
        rows[i] = i;
    if (tl_folds_assign(d, rows, n, 10, seed, fold, &err))
        fail_msg("folds: %s", err.msg);
    size_t correct = 0;
    for (size_t f = 0; f < 10; f++) {
        size_t ntr = 0, nte = 0;
        for (size_t i = 0; i < n; i++) {
            if (fold[i] == f)
                test[nte++] = i;
            else
                train[ntr++] = i;
        }
        tl_params p;
        tl_params_init(&p);
        tl_model *m = tl_model_new("c45", &p, &err);
        tl_fit_ctx ctx = {.seed = seed};
        if (!m || tl_model_fit(m, d, train, ntr, &ctx, &err) ||
            tl_model_predict_label(m, d, test, nte, pred, &err))
            fail_msg("cv: %s", err.msg);
        for (size_t i = 0; i < nte; i++)
            correct += (int)pred[i] == d->y.code[test[i]];
        tl_model_free(m);
        tl_params_clear(&p);
    }
    free(rows);
    free(fold);
    free(train);
    free(test);
    free(pred);
    return (double)correct / (double)n;
}

static void test_j48_cv_accuracy(void **state)
{
    (void)state;
    char *summary = slurp("tests/fixtures/j48_summary.txt");
    size_t failed = 0;
    for (size_t i = 0; i < N_SETS; i++) {
        char path[256];
        snprintf(path, sizeof path, "experiments/datasets/%s.arff", weka_sets[i]);
        tl_dataset *d = tl_test_load(path, NULL);
        /* as many of our fold seeds as J48 was run with (its -s 1..n) */
        double ours = 0, j48 = 0;
        unsigned long n_seeds = 0;
        for (unsigned long s = 1;; s++) {
            char key[128];
            snprintf(key, sizeof key, "\ncv %s %lu ", weka_sets[i], s);
            const char *line = strstr(summary, key);
            if (!line)
                break;
            double c = 0, total = 0;
            assert_int_equal(sscanf(line + strlen(key), "%lf %lf", &c, &total), 2);
            j48 += c / total;
            ours += cv_accuracy(d, s);
            n_seeds++;
        }
        assert_true(n_seeds >= 5);
        ours /= (double)n_seeds;
        j48 /= (double)n_seeds;
        print_message("%-18s c45 %.4f  J48 %.4f  (10-fold CV, mean of %lu seeds)\n", weka_sets[i],
                      ours, j48, n_seeds);
        if (fabs(ours - j48) > 0.01) {
            print_error("%s: CV accuracy %.4f, J48 %.4f\n", weka_sets[i], ours, j48);
            failed++;
        }
        tl_dataset_free(d);
    }
    free(summary);
    assert_int_equal(failed, 0);
}

/* The cut scan's table of n log2 n (algorithms/splitters/c45_scan.c): every entry must
 * be the very double the scan computed before it had one, v > 0 ? v * log2(v) : 0, or a
 * J48 choice could move. */

static void test_xlogx_table(void **state)
{
    (void)state;
    size_t n = 0;
    const double *t = tl_c45_xlogx_table(&n);
    assert_int_equal(n, 1u << 17);
    size_t differ = 0;
    for (size_t i = 0; i < n; i++) {
        volatile double v = (double)i; /* computed at run time, as the scan does */
        double expect = v > 0 ? v * log2(v) : 0;
        differ += memcmp(&t[i], &expect, sizeof expect) != 0;
    }
    assert_int_equal(differ, 0);
    assert_true(t[0] == 0 && t[1] == 0 && t[2] == 2 && t[8] == 24 && t[1024] == 10240);
    assert_true(fabs(t[3] - 4.754887502163468) < 1e-15);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_xlogx_table),
        cmocka_unit_test(test_missing_gains),
        cmocka_unit_test(test_missing_branch_weights),
        cmocka_unit_test(test_watermelon3_thresholds),
        cmocka_unit_test(test_labor_and_vote_text),
        cmocka_unit_test(test_j48_trees),
        cmocka_unit_test(test_j48_cv_accuracy),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
