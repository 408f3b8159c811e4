/* The missing-value methods (the tree's `missing` slot): CART with surrogate splits against
 * trees recorded from R's rpart (tests/fixtures/rpart_surrogate, scripts/peers/
 * rpart_surrogate.R), and each other method against a worked example. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <unistd.h>

#include "tl_test_util.h"
#include "treelab/tl_experiment.h"
#include "treelab/tl_grow.h"

/* ---- rpart's surrogates ---- */

typedef struct fixture {
    char target[64], data[64]; /* data: the files' name */
    char classes[32][64];      /* the order of rpart's probability columns */
    double cp;
    size_t leaves, n_sur, n_train, n_test, width;
    char sur_name[8][64];
    double sur[8][3];     /* agreement, adjusted agreement, threshold (-1: nominal) */
    double *train, *test; /* rows x width */
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
                                    &fx->sur[i][2], &used),
                             3);
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
                              const tl_dataset *d, const fixture *fx, const double *want, size_t n)
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
    const char *kv[] = {"missing=surrogate",
                        "min_samples_split=20",
                        "min_samples_leaf=7",
                        "pruner=cost_complexity",
                        alpha,
                        "pruner.risk=error",
                        NULL};
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

/* ---- each method on a worked example ----
 * x splits the classes at 4.5 on the eight rows where it is known; rows 9 and 10 (class B)
 * lack x. y agrees with x but for rows 4 and 6, so x is chosen at the root by every method,
 * and y < 3.5 is x's surrogate: it agrees on 7 of the 8 rows x places (agreement 0.875,
 * majority 0.5, adjusted (0.875 - 0.5) / 0.5 = 0.75). */
static const char worked_train[] = "x,y,class\n1,1,A\n2,2,A\n3,3,A\n4,6,A\n5,5,B\n6,4,B\n"
                                   "7,7,B\n8,8,B\n?,9,B\n?,10,B\n";
/* x unknown, with y unknown, y = 2 and y = 9 */
static const char worked_test[] = "x,y,class\n?,?,A\n?,2,A\n?,9,B\n";

/* Class A's probability for the three test rows, and the number of leaves. */
static void worked(const char *missing, const char *extra, double *p_a, size_t *leaves)
{
    tl_err err;
    tl_err_clear(&err);
    tl_dataset *d = tl_dataset_load(tl_test_tmpfile(".csv", worked_train), "class", &err);
    assert_non_null(d);
    tl_dataset *t = tl_dataset_load(tl_test_tmpfile(".csv", worked_test), "class", &err);
    assert_non_null(t);
    assert_int_equal(tl_dataset_conform(t, &d->schema, &err), TL_OK);
    const char *kv[] = {missing, extra, NULL};
    tl_model *m = tl_test_fit("cart", d, kv, 1, &err);
    if (!m)
        fail_msg("%s: %s", missing, err.msg);
    double out[6];
    assert_int_equal(tl_model_predict(m, t, NULL, 0, out, &err), TL_OK);
    for (size_t i = 0; i < 3; i++)
        p_a[i] = out[2 * i];
    *leaves = tl_tree_leaves(tl_model_tree(m), 0);
    if (!strcmp(missing, "missing=surrogate")) {
        const tl_tree *tr = tl_model_tree(m);
        assert_int_equal(tr->sur_n[0], 1);
        const tl_surrogate *s = &tr->sur[tr->sur_first[0]];
        assert_string_equal(d->schema.attrs[s->attr].name, "y");
        assert_close(s->threshold, 3.5, 1e-15);
        assert_close(s->agree, 0.875, 1e-15);
        assert_close(s->adj, 0.75, 1e-15);
        assert_int_equal(s->below, 0);
    }
    assert_string_equal(d->schema.attrs[tl_model_tree(m)->attr[0]].name, "x");
    tl_model_free(m);
    tl_dataset_free(d);
    tl_dataset_free(t);
}

static void test_methods_worked_example(void **state)
{
    (void)state;
    double p[3];
    size_t leaves;
    /* fractional: rows 9 and 10 go both ways at weight 1/2: left {A 4, B 1}, right {B 5};
     * an unknown x goes both ways by the children's weights 5/10: A = 0.5 * 0.8 = 0.4 */
    worked("missing=fractional", NULL, p, &leaves);
    assert_close(p[0], 0.4, 1e-15);
    /* majority: the known branches tie (4 and 4), the first takes rows 9 and 10: left
     * {A 4, B 2}, split again on y > 7.5; an unknown x goes left, an unknown y at that node to
     * its heavier branch (A 4): A; y = 9 reaches B */
    worked("missing=majority", NULL, p, &leaves);
    assert_close(p[0], 1, 0);
    assert_close(p[2], 0, 0);
    assert_int_equal(leaves, 3);
    /* learned: rows 9 and 10 on the right give {A 4} | {B 6}, Gini gain 0.48, against 0.2133
     * on the left: they go right, and so does an unknown x */
    worked("missing=learned", NULL, p, &leaves);
    assert_close(p[0], 0, 0);
    assert_int_equal(leaves, 2);
    /* separate: a third branch x = ? holding {B 2} */
    worked("missing=separate", NULL, p, &leaves);
    assert_close(p[0], 0, 0);
    assert_int_equal(leaves, 3);
    /* drop: grown on rows 1-8; an unknown x stops at the root: A = 4/8 */
    worked("missing=drop", NULL, p, &leaves);
    assert_close(p[0], 0.5, 1e-15);
    assert_int_equal(leaves, 2);
    worked("missing=drop", "missing.predict=majority", p, &leaves); /* a 4-4 tie: stops too */
    assert_close(p[0], 0.5, 1e-15);
    /* drop with no complete row: one leaf of every row (A 2 of 3) */
    tl_err err;
    tl_err_clear(&err);
    tl_dataset *none =
        tl_dataset_load(tl_test_tmpfile(".csv", "x,y,class\n?,1,A\n1,?,B\n?,2,A\n"), "class", &err);
    assert_non_null(none);
    const char *drop[] = {"missing=drop", NULL};
    tl_model *m = tl_test_fit("cart", none, drop, 1, &err);
    assert_non_null(m);
    assert_int_equal(tl_tree_leaves(tl_model_tree(m), 0), 1);
    double pa[6];
    assert_int_equal(tl_model_predict(m, none, NULL, 0, pa, &err), TL_OK);
    assert_close(pa[0], 2.0 / 3, 1e-15);
    tl_model_free(m);
    tl_dataset_free(none);
    /* surrogate: y >= 3.5 sends rows 9 and 10 right ({A 4} | {B 6}); an unknown x follows y
     * (y = 2: A, y = 9: B), and with y unknown too the heavier branch (B 6) */
    worked("missing=surrogate", NULL, p, &leaves);
    assert_close(p[0], 0, 0);
    assert_close(p[1], 1, 0);
    assert_close(p[2], 0, 0);
    /* use_surrogate = 1: with both unknown the row stops at the root: A = 4/10 */
    worked("missing=surrogate", "missing.use_surrogate=1", p, &leaves);
    assert_close(p[0], 0.4, 1e-15);
    assert_close(p[1], 1, 0);
}

/* learned places the unknown rows at every cut, not only at the cut best for the known rows:
 * known A B B A B B at x = 1..6, unknown A A A B B B. On the known rows x <= 1.5 leaves the
 * least Gini (weighted 1.6); with the unknowns joining a side at each cut, x <= 4.5 does
 * ({A 2, B 2} + {A 3, B 3} | {B 2}: 5.0, against 5.03 at 1.5). */
static void test_learned_places_unknowns_per_cut(void **state)
{
    (void)state;
    tl_err err;
    tl_err_clear(&err);
    tl_dataset *d = tl_dataset_load(tl_test_tmpfile(".csv", "x,class\n1,A\n2,B\n3,B\n4,A\n5,B\n"
                                                            "6,B\n?,A\n?,A\n?,A\n?,B\n?,B\n?,B\n"),
                                    "class", &err);
    assert_non_null(d);
    const char *learned[] = {"missing=learned", "max_depth=1", NULL};
    const char *fractional[] = {"missing=fractional", "max_depth=1", NULL};
    tl_model *m = tl_test_fit("cart", d, learned, 1, &err);
    assert_non_null(m);
    assert_close(tl_model_tree(m)->threshold[0], 4.5, 0);
    assert_int_equal(tl_model_tree(m)->unknown[0], 0); /* the unknowns went left */
    tl_model_free(m);
    m = tl_test_fit("cart", d, fractional, 1, &err);
    assert_non_null(m);
    assert_close(tl_model_tree(m)->threshold[0], 1.5, 0);
    tl_model_free(m);
    tl_dataset_free(d);
}

/* Values removed at random: the share removed is near the rate, only from the rows given,
 * nested across rates with one seed, and the source is untouched. */
static void test_blanked_view(void **state)
{
    (void)state;
    tl_dataset *d = tl_test_load("experiments/datasets/wine.arff", NULL);
    size_t n = d->n_rows, na = d->schema.n_attrs, half = n / 2;
    size_t *rows = malloc(half * sizeof *rows);
    for (size_t i = 0; i < half; i++)
        rows[i] = 2 * i; /* the even rows */
    tl_err err;
    tl_err_clear(&err);
    tl_dataset v10, v40;
    assert_int_equal(tl_dataset_blanked(d, rows, half, 0.1, 7, &v10, &err), TL_OK);
    assert_int_equal(tl_dataset_blanked(d, rows, half, 0.4, 7, &v40, &err), TL_OK);
    size_t m10 = 0, m40 = 0, odd = 0, not_nested = 0;
    for (size_t i = 0; i < n; i++)
        for (size_t a = 0; a < na; a++) {
            int u10 = tl_dataset_is_missing(&v10, a, i), u40 = tl_dataset_is_missing(&v40, a, i);
            m10 += u10;
            m40 += u40;
            odd += (i % 2) && (u10 || u40);
            not_nested += u10 && !u40;
            assert_false(tl_dataset_is_missing(d, a, i));
        }
    /* 89 rows x 13 attributes = 1157 draws: within 4 binomial sd of the rate */
    double cells = (double)half * (double)na;
    assert_true(fabs((double)m10 - 0.1 * cells) < 4 * sqrt(cells * 0.1 * 0.9));
    assert_true(fabs((double)m40 - 0.4 * cells) < 4 * sqrt(cells * 0.4 * 0.6));
    assert_int_equal(odd, 0);
    assert_int_equal(not_nested, 0);
    assert_ptr_equal(v10.y.code, d->y.code); /* the target is shared, not removed */
    tl_dataset_blanked_free(&v10);
    tl_dataset_blanked_free(&v40);
    free(rows);
    tl_dataset_free(d);
}

/* protocol.missing: each dataset becomes one entry per rate, on the same folds; the rate 0
 * copy scores exactly as the dataset without the protocol key. */
static void test_missing_rates_protocol(void **state)
{
    (void)state;
    char cfg[2048], cfg0[2048];
    const char *body = "name = \"m\"; seed = 3;\n"
                       "datasets = ( \"%s\" );\n"
                       "models = ( { name = \"c\"; algorithm = \"cart\"; params = { missing = "
                       "\"surrogate\"; }; } );\n"
                       "protocol = { kind = \"cv\"; folds = 3;%s };\n"
                       "plots = [ \"missing_rate\", \"size_accuracy\" ];\n";
    char data[1024];
    snprintf(data, sizeof data, "%s", tl_test_path("experiments/datasets/vote.arff"));
    snprintf(cfg, sizeof cfg, body, data, " missing = { rates = [0.0, 0.25]; rows = \"train\"; };");
    snprintf(cfg0, sizeof cfg0, body, data, "");
    char path[256], path0[256];
    snprintf(path, sizeof path, "%s", tl_test_tmpfile(".cfg", cfg));
    snprintf(path0, sizeof path0, "%s", tl_test_tmpfile(".cfg", cfg0));
    tl_err err;
    tl_err_clear(&err);
    tl_experiment *x = tl_experiment_load(path, NULL, &err);
    if (!x)
        fail_msg("%s", err.msg);
    assert_int_equal(x->n_datasets, 2);
    assert_string_equal(x->datasets[0].name, "vote-miss0");
    assert_string_equal(x->datasets[1].name, "vote-miss25");
    assert_string_equal(x->datasets[1].base, "vote");
    assert_close(x->datasets[1].missing_rate, 0.25, 0);
    tl_experiment_free(x);
    char out[8192], errb[4096], cmd[1024];
    snprintf(cmd, sizeof cmd, "run %s --out /tmp/tl_missing_rates_%d --quiet", path, (int)getpid());
    assert_int_equal(tl_test_cli(cmd, out, sizeof out, errb, sizeof errb), 0);
    snprintf(cmd, sizeof cmd, "run %s --out /tmp/tl_missing_rates0_%d --quiet", path0,
             (int)getpid());
    assert_int_equal(tl_test_cli(cmd, out, sizeof out, errb, sizeof errb), 0);
    /* every metric of each cell: rate 0 equals the plain run fold for fold */
    char a[64], b[64];
    snprintf(a, sizeof a, "/tmp/tl_missing_rates_%d/metrics.csv", (int)getpid());
    snprintf(b, sizeof b, "/tmp/tl_missing_rates0_%d/metrics.csv", (int)getpid());
    FILE *fa = fopen(a, "r"), *fb = fopen(b, "r");
    assert_non_null(fa);
    assert_non_null(fb);
    char la[4096], lb[4096];
    size_t same = 0, rows25 = 0;
    double acc0 = 0, leaves0 = 0;
    assert_non_null(fgets(la, sizeof la, fa)); /* headers */
    assert_non_null(fgets(lb, sizeof lb, fb));
    while (fgets(la, sizeof la, fa)) {
        if (strncmp(la, "vote-miss0,", 11)) {
            rows25 += !strncmp(la, "vote-miss25,", 12);
            continue;
        }
        assert_non_null(fgets(lb, sizeof lb, fb));
        /* from the model column on (the dataset names differ) */
        assert_string_equal(strchr(la, ','), strchr(lb, ','));
        /* accuracy is column 7, leaves the second last */
        const char *f = la;
        for (int col = 1; col < 7; col++)
            f = strchr(f, ',') + 1;
        acc0 += strtod(f, NULL);
        const char *end = la + strlen(la);
        int commas = 0;
        while (end > la && commas < 2)
            commas += *--end == ',';
        leaves0 += strtod(end + 1, NULL);
        same++;
    }
    fclose(fa);
    fclose(fb);
    assert_int_equal(same, 3);
    assert_int_equal(rows25, 3);
    /* the figure: accuracy at rates 0 and 0.25, the first the plain run's mean */
    char dat[128];
    snprintf(dat, sizeof dat, "/tmp/tl_missing_rates_%d/plots/missing_vote.dat", (int)getpid());
    double pts[8][TL_TEST_DAT_COLS];
    assert_int_equal(tl_test_dat_block(dat, 0, pts, 8), 2);
    assert_close(pts[0][0], 0, 0);
    assert_close(pts[1][0], 0.25, 0);
    assert_true(pts[0][1] > 0.85 && pts[0][1] <= 1 && pts[1][1] > 0.5 && pts[1][1] <= 1);
    /* size against accuracy: one point, at the mean leaves and accuracy of the 3 folds */
    snprintf(dat, sizeof dat, "/tmp/tl_missing_rates_%d/plots/size_accuracy_vote-miss0.dat",
             (int)getpid());
    assert_int_equal(tl_test_dat_block(dat, 0, pts, 8), 1);
    assert_close(pts[0][0], leaves0 / 3, 1e-12);
    assert_close(pts[0][1], acc0 / 3, 1e-6);
    snprintf(cmd, sizeof cmd, "rm -rf /tmp/tl_missing_rates_%d /tmp/tl_missing_rates0_%d",
             (int)getpid(), (int)getpid());
    assert_int_equal(system(cmd), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_surrogate_matches_rpart),
        cmocka_unit_test(test_methods_worked_example),
        cmocka_unit_test(test_learned_places_unknowns_per_cut),
        cmocka_unit_test(test_blanked_view),
        cmocka_unit_test(test_missing_rates_protocol),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
