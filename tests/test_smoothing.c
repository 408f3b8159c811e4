/* Leaf probability smoothing of the hard trees (laplace, m_estimate) against hand-computed
 * leaves, for every tree learner, through model files, and its effect on cross-validated log
 * loss. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tl_test_util.h"
#include "treelab/tl_experiment.h"
#include "treelab/tl_protocol.h"
#include "treelab/tl_runner.h"

/* One nominal attribute g: level l holds classes (a, a, a, b), level r (a, a, a, b, b, b),
 * level e no row. Any tree splits the root (6, 4) into the leaves (3, 1) and (3, 3); the
 * m-estimate's prior is the root's (0.6, 0.4). */
#define HEADER "@relation smooth\n@attribute g {l,r,e}\n@attribute class {a,b}\n@data\n"
static const char *train_arff = HEADER "l,a\nl,a\nl,a\nl,b\nr,a\nr,a\nr,a\nr,b\nr,b\nr,b\n";
/* rows predicted: l, r, e (a level no training row had) and unknown */
static const char *test_arff = HEADER "l,a\nr,b\ne,a\n?,b\n";

/* P(a) of the four test rows. */
static void predict_a(const tl_model *m, double pa[4])
{
    tl_dataset *t = tl_test_load_text(".arff", test_arff, NULL);
    double out[8];
    tl_err err;
    if (tl_model_predict(m, t, NULL, 4, out, &err))
        fail_msg("%s", err.msg);
    for (int i = 0; i < 4; i++) {
        assert_close(out[2 * i] + out[2 * i + 1], 1, 1e-15);
        pa[i] = out[2 * i];
    }
    tl_dataset_free(t);
}

/* The unknown row goes down l and r by their training shares 0.4 and 0.6. */
static double unknown(double l, double r)
{
    return 0.4 * l + 0.6 * r;
}

static void test_hand_computed_leaves_for_every_tree_learner(void **state)
{
    (void)state;
    tl_dataset *d = tl_test_load_text(".arff", train_arff, NULL);
    /* id3 and c45 split three ways (e is an empty branch); cart and tree split {l} | {r},
     * sending e, a level outside the left set, right */
    static const struct {
        const char *algo;
        int multiway;
    } learners[] = {{"id3", 1}, {"c45", 1}, {"cart", 0}, {"tree", 0}};
    /* P(a) at leaf l, leaf r and the empty leaf (the parent's counts (6, 4)), by hand:
     *   none:       3/4, 3/6, 6/10
     *   laplace:    (3+1)/(4+2), (3+1)/(6+2), (6+1)/(10+2)
     *   m_estimate: (3 + 2*0.6)/(4+2) = 0.7, (3 + 1.2)/(6+2) = 0.525, (6 + 1.2)/12 = 0.6 */
    static const struct {
        const char *smoothing;
        double l, r, empty;
    } cases[] = {{"none", 0.75, 0.5, 0.6},
                 {"laplace", 4.0 / 6, 0.5, 7.0 / 12},
                 {"m_estimate", 0.7, 0.525, 0.6}};
    for (size_t i = 0; i < sizeof learners / sizeof *learners; i++)
        for (size_t c = 0; c < 3; c++) {
            char s[64];
            snprintf(s, sizeof s, "smoothing=%s", cases[c].smoothing);
            /* c45 unpruned: its pruners would collapse a split that fixes no training error */
            const char *kv[] = {s, "pruner=none", NULL};
            tl_model *m = tl_test_fitted(learners[i].algo, d, kv);
            double pa[4], u = unknown(cases[c].l, cases[c].r);
            predict_a(m, pa);
            assert_close(pa[0], cases[c].l, 1e-15);
            assert_close(pa[1], cases[c].r, 1e-15);
            assert_close(pa[2], learners[i].multiway ? cases[c].empty : cases[c].r, 1e-15);
            assert_close(pa[3], u, 1e-15);
            tl_model_free(m);
        }
    /* the leaf (3, 1) of the example: m = 2 gives ((3 + 1.2)/6, (1 + 0.8)/6), and a
     * larger m pulls it towards the prior 0.6: m = 8 gives (3 + 4.8)/12 = 0.65 */
    const char *m8[] = {"smoothing=m_estimate", "smoothing_m=8", NULL};
    tl_model *m = tl_test_fitted("id3", d, m8);
    double pa[4];
    predict_a(m, pa);
    assert_close(pa[0], 0.65, 1e-15);
    assert_close(pa[1], (3 + 8 * 0.6) / 14, 1e-15);
    tl_model_free(m);
    tl_dataset_free(d);
}

/* Rows not a multiple of 3 into tr, the others into te; with a separate test set, every row
 * of d into tr and every row of t into te. */
static void split_rows(const tl_dataset *d, const tl_dataset *t, size_t *tr, size_t *ntr,
                       size_t *te, size_t *nte)
{
    *ntr = *nte = 0;
    for (size_t i = 0; i < d->n_rows; i++) {
        if (t || i % 3)
            tr[(*ntr)++] = i;
        else
            te[(*nte)++] = i;
    }
    for (size_t i = 0; t && i < t->n_rows; i++)
        te[(*nte)++] = i;
}

/* c45 with smoothing = laplace equals Weka's J48 -A (scripts/peers/weka_j48_laplace.sh):
 * trained on the rows whose index is not a multiple of 3 and predicting the others, the same
 * trees, each leaf's (n_c + 1) / (N + k), fractional descent for unknown values, and on an
 * empty branch the parent's (breast-cancer's row 198 at inv-nodes = 12-14; the toy's e,
 * unpruned as J48 -U). */
static void test_c45_laplace_equals_weka_j48_A(void **state)
{
    (void)state;
    static const struct {
        const char *name, *train, *test, *param; /* param: key=value or NULL */
    } sets[] = {{"soybean", "experiments/datasets/soybean.arff", NULL, NULL},
                {"labor", "experiments/datasets/labor.arff", NULL, NULL},
                {"vote", "experiments/datasets/vote.arff", NULL, NULL},
                {"breast-cancer", "experiments/datasets/breast-cancer.arff", NULL, NULL},
                {"toy", "tests/fixtures/smoothing_toy.arff",
                 "tests/fixtures/smoothing_toy_test.arff", "prune=false"}};
    for (size_t s = 0; s < sizeof sets / sizeof *sets; s++) {
        tl_dataset *d = tl_test_load(sets[s].train, NULL);
        tl_dataset *t = sets[s].test ? tl_test_load(sets[s].test, NULL) : NULL;
        size_t n = d->n_rows + (t ? t->n_rows : 0), k = d->schema.target.n_levels, ntr, nte;
        size_t *tr = malloc(n * sizeof *tr), *te = malloc(n * sizeof *te);
        double *out = malloc(n * k * sizeof *out);
        split_rows(d, t, tr, &ntr, te, &nte);
        tl_err err;
        tl_params p;
        tl_params_init(&p);
        assert_int_equal(tl_params_set(&p, "smoothing", "laplace", &err), TL_OK);
        if (sets[s].param) {
            char key[64];
            const char *eq = strchr(sets[s].param, '=');
            snprintf(key, sizeof key, "%.*s", (int)(eq - sets[s].param), sets[s].param);
            assert_int_equal(tl_params_set(&p, key, eq + 1, &err), TL_OK);
        }
        tl_model *m = tl_model_new("c45", &p, &err);
        assert_non_null(m);
        tl_fit_ctx ctx = {.seed = 1};
        if (tl_model_fit(m, d, tr, ntr, &ctx, &err) ||
            tl_model_predict(m, t ? t : d, te, nte, out, &err))
            fail_msg("%s: %s", sets[s].name, err.msg);
        char rel[256];
        snprintf(rel, sizeof rel, "tests/fixtures/weka_j48_laplace_%s.csv", sets[s].name);
        FILE *f = fopen(tl_test_path(rel), "r");
        assert_non_null(f);
        char line[8192];
        size_t row = 0;
        while (fgets(line, sizeof line, f)) {
            if (line[0] == '#')
                continue;
            char *q = line;
            assert_int_equal(strtoul(q, &q, 10), te[row]);
            for (size_t c = 0; c < k; c++) {
                assert_int_equal(*q++, ',');
                double want = strtod(q, &q);
                if (fabs(out[row * k + c] - want) > 1e-12)
                    fail_msg("%s row %zu class %zu: %.17g, Weka %.17g", sets[s].name, te[row], c,
                             out[row * k + c], want);
            }
            row++;
        }
        fclose(f);
        assert_int_equal(row, nte);
        if (t) { /* by hand: l (4/6, 2/6), r (2/5, 3/5), e the root's (5/9, 4/9), unknown
                  * 4/7 of l and 3/7 of r */
            assert_close(out[0], 4.0 / 6, 1e-15);
            assert_close(out[2], 2.0 / 5, 1e-15);
            assert_close(out[4], 5.0 / 9, 1e-15);
            assert_close(out[6], 4.0 / 7 * 4 / 6 + 3.0 / 7 * 2 / 5, 1e-15);
        }
        tl_model_free(m);
        tl_params_clear(&p);
        free(tr);
        free(te);
        free(out);
        tl_dataset_free(d);
        tl_dataset_free(t);
    }
}

static void test_model_files_keep_the_smoothing(void **state)
{
    (void)state;
    tl_dataset *d = tl_test_load_text(".arff", train_arff, NULL);
    tl_err err;
    char path[256];
    snprintf(path, sizeof path, "%s", tl_test_tmpfile(".model", ""));
    const char *kv[] = {"smoothing=m_estimate", "smoothing_m=2", NULL};
    tl_model *m = tl_test_fitted("c45", d, kv);
    assert_int_equal(tl_model_save(m, path, &err), TL_OK);
    tl_model_free(m);
    char *text = tl_test_slurp(path);
    assert_non_null(strstr(text, "smoothing"));
    tl_model *back = tl_model_load(path, &err);
    if (!back)
        fail_msg("%s", err.msg);
    double pa[4];
    predict_a(back, pa); /* c45's error-based pruner collapses to the root (6, 4) */
    assert_close(pa[0], (6 + 1.2) / 12, 1e-15);
    tl_model_free(back);

    /* the same file without the setting (as written before smoothing existed) loads as
     * none: raw frequencies */
    for (char *line; (line = strstr(text, "smoothing"));) {
        char *start = line, *end = strchr(line, '\n');
        while (start > text && start[-1] != '\n')
            start--;
        memmove(start, end + 1, strlen(end + 1) + 1);
    }
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
    back = tl_model_load(path, &err);
    if (!back)
        fail_msg("%s", err.msg);
    predict_a(back, pa);
    assert_close(pa[0], 0.6, 1e-15);
    tl_model_free(back);
    free(text);
    remove(path);
    tl_dataset_free(d);
}

static void test_bad_smoothing_is_refused(void **state)
{
    (void)state;
    tl_err err;
    tl_params p;
    tl_params_init(&p);
    assert_int_equal(tl_params_set(&p, "smoothing", "laplas", &err), TL_OK);
    assert_null(tl_model_new("cart", &p, &err));
    assert_non_null(strstr(err.msg, "none|laplace|m_estimate"));
    tl_params_clear(&p);
    tl_params_init(&p);
    assert_int_equal(tl_params_set(&p, "smoothing_m", "-1", &err), TL_OK);
    assert_null(tl_model_new("id3", &p, &err));
    assert_non_null(strstr(err.msg, "smoothing_m"));
    tl_params_clear(&p);
    /* a numeric target has no class probabilities to smooth */
    tl_dataset *r = tl_test_load("experiments/datasets/engagement-regression.csv", NULL);
    const char *kv[] = {"smoothing=laplace", NULL};
    assert_null(tl_test_fit("tree", r, kv, 1, &err));
    assert_non_null(strstr(err.msg, "smoothing laplace needs a nominal target"));
    tl_dataset_free(r);
}

/* Mean log loss and accuracy of algo with params kv over 10-fold CV x 2 on d. */
static void cv(const tl_dataset *d, const char *algo, const char *const *kv, double *log_loss,
               double *accuracy)
{
    tl_err err;
    tl_exp_model m;
    memset(&m, 0, sizeof m);
    m.name = (char *)algo;
    m.type = tl_model_find(algo, &err);
    assert_non_null(m.type);
    tl_params_init(&m.params);
    for (const char *const *p = kv; p && *p; p++) {
        char key[64];
        const char *eq = strchr(*p, '=');
        snprintf(key, sizeof key, "%.*s", (int)(eq - *p), *p);
        assert_int_equal(tl_params_set(&m.params, key, eq + 1, &err), TL_OK);
    }
    size_t n = d->n_rows, k = 10, *fold_of = malloc(n * sizeof *fold_of);
    size_t *tr = malloc(n * sizeof *tr), *te = malloc(n * sizeof *te);
    *log_loss = *accuracy = 0;
    for (size_t r = 0; r < 2; r++) {
        assert_int_equal(tl_protocol_folds(d, k, 1, 7, "vote", r, fold_of, &err), TL_OK);
        for (size_t f = 0; f < k; f++) {
            size_t ntr, nte;
            tl_cell c;
            memset(&c, 0, sizeof c);
            tl_protocol_fold_rows(fold_of, n, f, tr, &ntr, te, &nte);
            if (tl_cell_eval(&m, d, tr, ntr, NULL, 0, te, nte,
                             tl_protocol_seed(7, "vote", r, f + 1), &c, &err))
                fail_msg("%s", err.msg);
            *log_loss += c.cm.log_loss / 20;
            *accuracy += c.cm.accuracy / 20;
            tl_cell_clear(&c);
        }
    }
    tl_params_clear(&m.params);
    free(fold_of);
    free(tr);
    free(te);
}

static void test_smoothing_lowers_cv_log_loss(void **state)
{
    (void)state;
    /* ID3 grows pure leaves on vote: a test row a pure leaf gets wrong costs -log(1e-15) =
     * 34.5 raw, and -log(1 / (N + 2)) smoothed */
    tl_dataset *d = tl_test_load("experiments/datasets/vote.arff", NULL);
    const char *none[] = {NULL}, *lap[] = {"smoothing=laplace", NULL};
    const char *mest[] = {"smoothing=m_estimate", NULL};
    double ll_none, ll_lap, ll_m, acc_none, acc_lap, acc_m;
    cv(d, "id3", none, &ll_none, &acc_none);
    cv(d, "id3", lap, &ll_lap, &acc_lap);
    cv(d, "id3", mest, &ll_m, &acc_m);
    print_message("id3 on vote, 10-fold CV x 2: log loss none %.6f, laplace %.6f, m_estimate "
                  "%.6f; accuracy %.6f, %.6f, %.6f\n",
                  ll_none, ll_lap, ll_m, acc_none, acc_lap, acc_m);
    /* observed 0.5527, 0.1523 and 0.1525: raw frequencies cost more than three times as much */
    assert_true(ll_none > 0.5);
    assert_true(ll_lap < 0.16 && ll_lap < ll_none / 3);
    assert_true(ll_m < 0.16 && ll_m < ll_none / 3);
    /* the classes hardly move (a leaf's arg max is kept by Laplace; rows with an unknown
     * value mix leaves of different sizes, where it may change) */
    assert_close(acc_lap, acc_none, 0.01);
    assert_close(acc_m, acc_none, 0.01);
    tl_dataset_free(d);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_hand_computed_leaves_for_every_tree_learner),
        cmocka_unit_test(test_c45_laplace_equals_weka_j48_A),
        cmocka_unit_test(test_model_files_keep_the_smoothing),
        cmocka_unit_test(test_bad_smoothing_is_refused),
        cmocka_unit_test(test_smoothing_lowers_cv_log_loss),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
