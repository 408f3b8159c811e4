/* Staged ensembles: the first n members of a fitted ensemble (tl_model_truncate) are, file
 * byte for file byte, a fit with n_estimators = n (so a curve over n_estimators costs one
 * fit), and staged predictions on new rows equal scikit-learn 1.2.1's staged_predict_proba /
 * staged_predict (tests/fixtures/sklearn_staged.txt, scripts/peers/sklearn_staged.py). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tl_test_util.h"

/* kv with "n_estimators=N" appended (room for 15 entries). */
static void with_n(const char *const *kv, size_t n, char *buf, const char **out)
{
    size_t i = 0;
    for (; kv && kv[i]; i++)
        out[i] = kv[i];
    snprintf(buf, 32, "n_estimators=%zu", n);
    out[i] = buf;
    out[i + 1] = NULL;
}

/* algo with kv fitted with `most` members, truncated to each of stages[] (decreasing), and
 * each saved file compared with a fit of that many members. */
static void truncate_equals_fit(const char *algo, const char *rel, const char *const *kv,
                                size_t most, const size_t *stages, size_t n_stages)
{
    tl_dataset *d = tl_test_load(rel, NULL);
    const char *kvn[16];
    char buf[32];
    with_n(kv, most, buf, kvn);
    tl_model *big = tl_test_fitted(algo, d, kvn);
    tl_err err;
    for (size_t s = 0; s < n_stages; s++) {
        assert_int_equal(tl_model_truncate(big, stages[s], d, &err), TL_OK);
        with_n(kv, stages[s], buf, kvn);
        tl_model *one = tl_test_fitted(algo, d, kvn);
        char *a, *b;
        tl_model_free(tl_test_reload(big, &a));
        tl_model_free(tl_test_reload(one, &b));
        if (strcmp(a, b))
            fail_msg("%s on %s: the first %zu of %zu members are not a fit of %zu (%zu and %zu "
                     "bytes)",
                     algo, rel, stages[s], most, stages[s], strlen(a), strlen(b));
        tl_model_info ia, ib;
        tl_model_get_info(big, &ia);
        tl_model_get_info(one, &ib);
        assert_int_equal(ia.nodes, ib.nodes);
        const tl_ensemble *e = tl_model_ensemble(big);
        assert_true(e->oob_score == tl_model_ensemble(one)->oob_score ||
                    (isnan(e->oob_score) && isnan(tl_model_ensemble(one)->oob_score)));
        free(a);
        free(b);
        tl_model_free(one);
    }
    print_message("%s on %s: %zu members truncated to %zu stages, each file equal to its own fit\n",
                  algo, rel, most, n_stages);
    tl_model_free(big);
    tl_dataset_free(d);
}

static void test_truncate_forests(void **state)
{
    (void)state;
    static const size_t st[] = {11, 5, 1};
    const char *rf[] = {"oob_score=true", NULL};
    truncate_equals_fit("random_forest", "experiments/datasets/diabetes.arff", rf, 20, st, 3);
    truncate_equals_fit("extra_trees", "experiments/datasets/wine.arff", NULL, 20, st, 3);
    const char *bag[] = {"base=c45", "vote=majority", "bootstrap_features=true", NULL};
    truncate_equals_fit("bagging", "experiments/datasets/vote.arff", bag, 15, st, 3);
}

static void test_truncate_boosting(void **state)
{
    (void)state;
    static const size_t st[] = {17, 6, 1};
    const char *gb[] = {"subsample=0.7", "max_depth=2", NULL};
    truncate_equals_fit("gradient_boosting", "experiments/datasets/iris.arff", gb, 25, st, 3);
    const char *es[] = {"n_iter_no_change=3", "learning_rate=0.5", NULL};
    truncate_equals_fit("gradient_boosting", "experiments/datasets/diabetes.arff", es, 60, st, 3);
    const char *sr[] = {"algorithm=SAMME.R", NULL}, *sm[] = {"algorithm=SAMME", NULL};
    const char *m1[] = {"algorithm=M1", "base.max_depth=2", NULL};
    truncate_equals_fit("adaboost", "experiments/datasets/wine.arff", sr, 25, st, 3);
    truncate_equals_fit("adaboost", "experiments/datasets/diabetes.arff", sm, 25, st, 3);
    truncate_equals_fit("adaboost", "experiments/datasets/ionosphere.arff", m1, 25, st, 3);
}

static void test_truncate_refused(void **state)
{
    (void)state;
    tl_dataset *d = tl_test_load("experiments/datasets/iris.arff", NULL);
    tl_model *m = tl_test_fitted("cart", d, NULL);
    tl_err err;
    assert_int_equal(tl_model_truncate(m, 1, d, &err), TL_EUNSUPPORTED);
    assert_non_null(strstr(err.msg, "cart has no stages"));
    assert_null(tl_model_stage_param(m->type));
    tl_model_free(m);
    const char *kv[] = {"n_estimators=3", NULL};
    m = tl_test_fitted("random_forest", d, kv);
    assert_string_equal(tl_model_stage_param(m->type), "n_estimators");
    assert_int_equal(tl_model_truncate(m, 0, d, &err), TL_EINVAL);
    assert_int_equal(tl_model_truncate(m, 7, d, &err), TL_OK); /* more than it has: unchanged */
    assert_int_equal(tl_model_ensemble(m)->n_trees, 3);
    tl_model_free(m);
    tl_dataset_free(d);
}

/* A stage of the fixture compared its first 80 new rows (all, when fewer), each once. */
static void stage_complete(size_t stage, size_t rows, size_t n_test)
{
    size_t want = n_test < 80 ? n_test : 80;
    if (stage && rows != want)
        fail_msg("stage %zu: %zu rows compared, the fixture records %zu", stage, rows, want);
}

/* Every case of tests/fixtures/sklearn_staged.txt: fitted on the rows i % 3 != 0, truncated
 * stage by stage (most first) and its predictions of the rows i % 3 == 0 compared. */
static void test_staged_equals_scikit_learn(void **state)
{
    (void)state;
    FILE *f = fopen(tl_test_path("tests/fixtures/sklearn_staged.txt"), "r");
    assert_non_null(f);
    static char line[1 << 16];
    tl_dataset *d = NULL;
    tl_model *m = NULL;
    double *pred = NULL, worst = 0;
    size_t width = 0, cases = 0, stages = 0, rows = 0, *test = NULL, n_test = 0, kinds[3] = {0};
    size_t stage = 0, stage_rows = 0, case_stages = 0, next_row = 0;
    tl_err err;
    while (fgets(line, sizeof line, f)) {
        if (!strncmp(line, "case ", 5)) {
            stage_complete(stage, stage_rows, n_test);
            assert_true(!cases || case_stages > 0);
            stage = stage_rows = case_stages = 0;
            tl_model_free(m);
            tl_dataset_free(d);
            free(pred);
            free(test);
            char name[64], file[64], target[32], algo[32], rest[512] = "", *kv[16];
            assert_true(sscanf(line, "case %63s %63s %31s %31s %511[^\n]", name, file, target,
                               algo, rest) >= 4);
            size_t nkv = 0;
            for (char *save = NULL, *t = strtok_r(rest, " ", &save); t && nkv < 15;
                 t = strtok_r(NULL, " ", &save))
                kv[nkv++] = t;
            kv[nkv] = NULL;
            d = tl_test_load_sklearn(file, target);
            size_t n = d->n_rows, *train = malloc(n * sizeof *train), n_train = 0;
            test = malloc(n * sizeof *test), n_test = 0;
            for (size_t r = 0; r < n; r++)
                if (r % 3)
                    train[n_train++] = r;
                else
                    test[n_test++] = r;
            tl_params p;
            tl_params_init(&p);
            for (size_t i = 0; i < nkv; i++)
                assert_int_equal(tl_params_set_kv(&p, kv[i], &err), TL_OK);
            m = tl_model_new(algo, &p, &err);
            tl_params_clear(&p);
            if (!m)
                fail_msg("%s: %s", name, err.msg);
            tl_fit_ctx ctx = {.seed = 1};
            assert_int_equal(tl_model_fit(m, d, train, n_train, &ctx, &err), TL_OK);
            free(train);
            width = tl_model_out_width(m);
            pred = malloc(n_test * width * sizeof *pred);
            size_t k = tl_dataset_n_classes(d);
            kinds[k == 0 ? 2 : k == 2 ? 0 : 1]++;
            cases++;
        } else if (!strncmp(line, "stage ", 6)) {
            size_t s = (size_t)strtoul(line + 6, NULL, 10);
            stage_complete(stage, stage_rows, n_test);
            /* decreasing, so that each truncation leaves the next stage's members */
            assert_true(s >= 1 && (!stage || s < stage));
            stage = s, stage_rows = next_row = 0, case_stages++;
            assert_int_equal(tl_model_truncate(m, s, d, &err), TL_OK);
            assert_int_equal(tl_model_predict(m, d, test, n_test, pred, &err), TL_OK);
            stages++;
        } else if (!strncmp(line, "row ", 4)) {
            char *p = line + 4, *end;
            size_t r = (size_t)strtoul(p, &end, 10);
            assert_true(stage > 0);
            assert_int_equal(r % 3, 0);
            assert_int_equal(r, next_row); /* the new rows in order, none skipped */
            next_row = r + 3;
            for (size_t j = 0; j < width; j++) {
                double v = strtod(p = end, &end);
                assert_true(end != p);
                double gap = fabs(pred[(r / 3) * width + j] - v);
                worst = gap > worst ? gap : worst;
                if (gap > 1e-9)
                    fail_msg("row %zu output %zu = %.17g, scikit-learn %.17g", r, j,
                             pred[(r / 3) * width + j], v);
            }
            assert_true(strtod(p = end, &end) == 0 && end == p); /* no output left unread */
            rows++;
            stage_rows++;
        }
    }
    fclose(f);
    stage_complete(stage, stage_rows, n_test);
    assert_true(case_stages > 0);
    tl_model_free(m);
    tl_dataset_free(d);
    free(pred);
    free(test);
    print_message("%zu cases (%zu binary, %zu multiclass, %zu regression), %zu stages, %zu "
                  "predictions of new rows: within %.3g of scikit-learn's staged outputs\n",
                  cases, kinds[0], kinds[1], kinds[2], stages, rows, worst);
    assert_true(cases == 9 && kinds[0] == 3 && kinds[1] == 3 && kinds[2] == 3 && stages == 115 &&
                rows == 6506);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_truncate_forests),
        cmocka_unit_test(test_truncate_boosting),
        cmocka_unit_test(test_truncate_refused),
        cmocka_unit_test(test_staged_equals_scikit_learn),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
