/* The missing-value methods (the tree's `missing` slot): CART with surrogate splits against
 * trees recorded from R's rpart (tests/fixtures/rpart_surrogate, scripts/peers/
 * rpart_surrogate.R), and each other method against a worked example. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tl_test_util.h"
#include "treelab/tl_grow.h"

/* ---- rpart's surrogates ---- */

typedef struct fixture {
    char target[64], data[64]; /* data: the files' name */
    char classes[32][64];    /* the order of rpart's probability columns */
    double cp;
    size_t leaves, n_sur, n_train, n_test, width;
    char sur_name[8][64];
    double sur[8][3];       /* agreement, adjusted agreement, threshold (-1: nominal) */
    double *train, *test;   /* rows x width */
} fixture;

static void read_fixture(const char *name, size_t width, fixture *fx)
{
    char rel[256];
    snprintf(rel, sizeof rel, "tests/fixtures/rpart_surrogate/%s.txt", name);
    FILE *f = fopen(tl_test_path(rel), "r");
    if (!f)
        fail_msg("cannot open %s", rel);
    memset(fx, 0, sizeof *fx);
    fx->width = width;
    size_t cap = 1024;
    fx->train = malloc(cap * width * sizeof(double));
    fx->test = malloc(cap * width * sizeof(double));
    char line[4096];
    while (fgets(line, sizeof line, f)) {
        char tag[16];
        int off = 0;
        if (line[0] == '#' || sscanf(line, "%15s %n", tag, &off) != 1)
            continue;
        char *rest = line + off;
        if (!strcmp(tag, "data")) {
            sscanf(rest, "%63s", fx->data);
        } else if (!strcmp(tag, "target")) {
            sscanf(rest, "%63s", fx->target);
        } else if (!strcmp(tag, "classes")) {
            rest[strcspn(rest, "\r\n")] = '\0';
            char *save = NULL, *tok = strtok_r(rest, "|", &save); /* names may hold spaces */
            for (size_t c = 0; tok && c < width && c < 32; c++, tok = strtok_r(NULL, "|", &save))
                snprintf(fx->classes[c], sizeof fx->classes[c], "%s", tok);
        } else if (!strcmp(tag, "cp")) {
            fx->cp = strtod(rest, NULL);
        } else if (!strcmp(tag, "leaves")) {
            fx->leaves = strtoul(rest, NULL, 10);
        } else if (!strcmp(tag, "surrogate")) {
            size_t i = fx->n_sur++;
            assert_true(i < 8);
            int used = 0;
            assert_int_equal(sscanf(rest, "%lf %lf %lf %n", &fx->sur[i][0], &fx->sur[i][1],
                                    &fx->sur[i][2], &used), 3);
            rest[strcspn(rest, "\r\n")] = '\0'; /* the name: the rest of the line */
            snprintf(fx->sur_name[i], sizeof fx->sur_name[i], "%s", rest + used);
        } else {
            int train = !strcmp(tag, "train");
            size_t *n = train ? &fx->n_train : &fx->n_test;
            double *dst = (train ? fx->train : fx->test) + *n * width;
            assert_true(*n < cap);
            char *p = rest;
            strtoul(p, &p, 10); /* the row number */
            for (size_t c = 0; c < width; c++)
                dst[c] = strtod(p, &p);
            ++*n;
        }
    }
    fclose(f);
}

/* 1 when some attribute of row i is known (rpart grows on those rows only). */
static int some_known(const tl_dataset *d, size_t i)
{
    for (size_t a = 0; a < d->schema.n_attrs; a++)
        if (!tl_dataset_is_missing(d, a, i))
            return 1;
    return 0;
}

/* rpart's cp as treelab's alpha: cp times the root's risk, as a share of its weight
 * (misclassified share, or the mean squared error). */
static double alpha_for_cp(const tl_dataset *d, double cp)
{
    size_t k = tl_dataset_is_classification(d) ? tl_dataset_n_classes(d) : 0, best = 0, n = 0;
    size_t *cnt = calloc(k + 1, sizeof *cnt);
    double s = 0, ss = 0;
    for (size_t i = 0; i < d->n_rows; i++) {
        if (!some_known(d, i))
            continue;
        n++;
        if (k)
            cnt[d->y.code[i]]++;
        else {
            s += d->y.num[i];
            ss += d->y.num[i] * d->y.num[i];
        }
    }
    for (size_t c = 0; c < k; c++)
        best = cnt[c] > best ? cnt[c] : best;
    free(cnt);
    double m = s / (double)n;
    return cp * (k ? 1 - (double)best / (double)n : ss / (double)n - m * m);
}

static void check_predictions(const char *name, const char *what, const tl_model *m,
                              const tl_dataset *d, const fixture *fx, const double *want,
                              size_t n)
{
    tl_err err;
    tl_err_clear(&err);
    size_t width = fx->width;
    assert_int_equal(n, d->n_rows);
    /* rpart's column c is treelab's class col[c] (levels are numbered as first seen) */
    size_t col[32] = {0};
    for (size_t c = 0; c < width; c++) {
        col[c] = c;
        for (size_t l = 0; width > 1 && l < d->schema.target.n_levels; l++)
            if (!strcmp(d->schema.target.levels[l], fx->classes[c]))
                col[c] = l;
    }
    double *got = malloc(n * width * sizeof *got);
    assert_int_equal(tl_model_predict(m, d, NULL, 0, got, &err), TL_OK);
    for (size_t i = 0; i < n; i++)
        for (size_t c = 0; c < width; c++) {
            double g = got[i * width + col[c]], w = want[i * width + c];
            if (!(fabs(g - w) <= 1e-12 * fmax(1, fabs(w))))
                fail_msg("%s %s row %zu: treelab %.17g, rpart %.17g", name, what, i + 1, g, w);
        }
    free(got);
}

/* CART with surrogates and rpart's default controls (cp as recorded) on NAME's training file: the same number
 * of leaves, the same surrogates at the root, the same predictions for the training rows and
 * for the test rows (other values missing). */
static void check_rpart(const char *name, size_t width)
{
    fixture fx;
    read_fixture(name, width, &fx);
    char rel[256];
    snprintf(rel, sizeof rel, "tests/fixtures/rpart_surrogate/%s_train.arff", fx.data);
    tl_dataset *d = tl_test_load(rel, fx.target);
    snprintf(rel, sizeof rel, "tests/fixtures/rpart_surrogate/%s_test.arff", fx.data);
    tl_dataset *t = tl_test_load(rel, fx.target);
    tl_err err;
    tl_err_clear(&err);
    char alpha[64];
    snprintf(alpha, sizeof alpha, "pruner.alpha=%.17g", alpha_for_cp(d, fx.cp));
    const char *kv[] = {"missing=surrogate", "min_samples_split=20", "min_samples_leaf=7",
                        "pruner=cost_complexity", alpha, "pruner.risk=error", NULL};
    tl_model *m = tl_test_fit("cart", d, kv, 1, &err);
    if (!m)
        fail_msg("%s: %s", name, err.msg);
    assert_int_equal(tl_dataset_conform(t, &d->schema, &err), TL_OK);
    const tl_tree *tree = tl_model_tree(m);
    if (tl_tree_leaves(tree, 0) != fx.leaves)
        fail_msg("%s: %zu leaves, rpart %zu", name, tl_tree_leaves(tree, 0), fx.leaves);
    assert_int_equal(tree->sur_n[0], fx.n_sur);
    for (size_t i = 0; i < fx.n_sur; i++) {
        const tl_surrogate *s = &tree->sur[tree->sur_first[0] + i];
        assert_string_equal(d->schema.attrs[s->attr].name, fx.sur_name[i]);
        assert_close(s->agree, fx.sur[i][0], 1e-12);
        assert_close(s->adj, fx.sur[i][1], 1e-12);
        if (fx.sur[i][2] >= 0)
            assert_close(s->threshold, fx.sur[i][2], 1e-12);
        else
            assert_int_equal(s->kind, TL_SPLIT_SUBSET);
    }
    check_predictions(name, "train", m, d, &fx, fx.train, fx.n_train);
    check_predictions(name, "test", m, t, &fx, fx.test, fx.n_test);
    print_message("%s: %zu leaves, %zu root surrogates, %zu + %zu predictions as rpart\n", name,
                  fx.leaves, fx.n_sur, fx.n_train, fx.n_test);
    tl_model_free(m);
    tl_dataset_free(d);
    tl_dataset_free(t);
    free(fx.train);
    free(fx.test);
}

/* Not recorded: iris and soybean, where tests tie exactly (iris: at the
 * second split petal width < 1.75 and petal length < 4.75 both gain 35.71429; soybean: three
 * tests at rpart's node 23 gain 19.68684): rpart's rounding picks one, treelab the attribute
 * first in the file. The grown trees agree on the training rows but split differently, so
 * test rows with unknown values may land elsewhere. */
static void test_surrogate_matches_rpart(void **state)
{
    (void)state;
    check_rpart("wine", 3);
    check_rpart("vote", 2);
    check_rpart("iris_petalwidth", 1);
    check_rpart("wine_cp0", 3);
    check_rpart("glass_cp0", 6);
    check_rpart("breast_cancer_cp0", 2);
    check_rpart("vote_cp0", 2);
    check_rpart("breast_cancer_nominal", 2);
    check_rpart("iris_petalwidth_cp0", 1);
    check_rpart("labor_cp0", 2);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_surrogate_matches_rpart),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
