/* Bagging, random forests and extra-trees: the out-of-bag score against a direct computation
 * from the recorded draws, models that do not depend on the thread count, model files,
 * votes, the uniform cut of random_threshold, and parameters refused before any work. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tl_test_util.h"
#include "treelab/tl_grow.h"
#include "treelab/tl_metrics.h"

/* The members' seeds (algorithms/models/ensembles/ensemble.h, private to the models). */
uint64_t tl_ens_seed(unsigned long seed, size_t i, unsigned stream);

static tl_model *fit_jobs(const char *algo, const tl_dataset *d, const char *const *kv,
                          unsigned long seed, size_t jobs)
{
    tl_params p;
    tl_params_init(&p);
    tl_err err;
    for (; kv && *kv; kv++)
        if (tl_params_set_kv(&p, *kv, &err))
            fail_msg("%s", err.msg);
    tl_model *m = tl_model_new(algo, &p, &err);
    tl_params_clear(&p);
    if (!m)
        fail_msg("%s: %s", algo, err.msg);
    tl_fit_ctx ctx = {.seed = seed, .jobs = jobs};
    if (tl_model_fit(m, d, NULL, 0, &ctx, &err))
        fail_msg("fit %s: %s", algo, err.msg);
    return m;
}

/* The out-of-bag score from the draws the model recorded, computed here tree by tree: each
 * row's members that did not draw it, their probabilities averaged (or votes counted), the
 * arg max against the class; R^2 of the mean for a numeric target. */
static double direct_oob(const tl_model *m, const tl_dataset *d, int majority)
{
    const tl_ensemble *e = tl_model_ensemble(m);
    assert_non_null(e);
    size_t n = e->n_rows, k = tl_dataset_is_classification(d) ? tl_dataset_n_classes(d) : 1;
    assert_int_equal(n, d->n_rows);
    double *one = malloc(k * sizeof *one), *sum = malloc(k * sizeof *sum);
    double right = 0, used = 0, ys = 0, yss = 0, sse = 0;
    for (size_t i = 0; i < n; i++) {
        size_t row = e->rows[i], votes = 0;
        memset(sum, 0, k * sizeof *sum);
        for (size_t t = 0; t < e->n_trees; t++) {
            if (e->inbag[t * n + i])
                continue;
            tl_err err;
            assert_int_equal(tl_tree_predict(e->trees[t], d, &row, 1, one, &err), TL_OK);
            votes++;
            size_t best = 0;
            for (size_t c = 0; c < k; c++)
                best = one[c] > one[best] ? c : best;
            for (size_t c = 0; c < k; c++)
                sum[c] += majority ? (c == best) : one[c];
        }
        if (!votes)
            continue;
        used++;
        if (k == 1) {
            double y = d->y.num[row], err = y - sum[0] / (double)votes;
            ys += y;
            yss += y * y;
            sse += err * err;
        } else {
            size_t best = 0;
            for (size_t c = 0; c < k; c++)
                best = sum[c] > sum[best] ? c : best;
            right += (int)best == d->y.code[row];
        }
    }
    free(one);
    free(sum);
    return k == 1 ? 1 - sse / (yss - ys * ys / used) : right / used;
}

static void test_oob_score_equals_the_recorded_draws(void **state)
{
    (void)state;
    tl_dataset *wine = tl_test_load("experiments/datasets/wine.arff", NULL);
    const char *bag[] = {"n_estimators=25", "oob_score=true", NULL};
    tl_model *m = tl_test_fitted("bagging", wine, bag);
    const tl_ensemble *e = tl_model_ensemble(m);
    /* every member drew as many rows as there are, with replacement */
    for (size_t t = 0; t < e->n_trees; t++) {
        size_t drawn = 0, distinct = 0;
        for (size_t i = 0; i < e->n_rows; i++) {
            drawn += e->inbag[t * e->n_rows + i];
            distinct += e->inbag[t * e->n_rows + i] > 0;
        }
        assert_int_equal(drawn, wine->n_rows);
        /* about 1 - 1/e of them distinct (0.632 * 178 = 112.5; sd about 4) */
        assert_in_range(distinct, 95, 130);
    }
    print_message("bagging on wine: out-of-bag accuracy %.6f\n", e->oob_score);
    assert_close(e->oob_score, direct_oob(m, wine, 0), 1e-15);
    assert_true(e->oob_score > 0.85 && e->oob_score < 1);
    tl_model_free(m);

    const char *vote[] = {"n_estimators=25", "oob_score=true", "vote=majority", "max_samples=0.5",
                          NULL};
    m = tl_test_fitted("random_forest", wine, vote);
    e = tl_model_ensemble(m);
    for (size_t t = 0; t < e->n_trees; t++) {
        size_t drawn = 0;
        for (size_t i = 0; i < e->n_rows; i++)
            drawn += e->inbag[t * e->n_rows + i];
        assert_int_equal(drawn, 89);
    }
    assert_close(e->oob_score, direct_oob(m, wine, 1), 1e-15);
    tl_model_free(m);
    tl_dataset_free(wine);

    tl_dataset *age = tl_test_load("experiments/datasets/diabetes.arff", "age");
    const char *reg[] = {"n_estimators=10", "oob_score=true", "base.max_depth=6", NULL};
    m = tl_test_fitted("random_forest", age, reg);
    e = tl_model_ensemble(m);
    print_message("random forest on diabetes (age): out-of-bag R^2 %.6f\n", e->oob_score);
    assert_close(e->oob_score, direct_oob(m, age, 0), 1e-12);
    tl_model_free(m);
    tl_dataset_free(age);
}

/* The model file of a fit on 1 thread and on 3 is the same text; saved and loaded, the model
 * predicts the same bits. */
static void test_threads_and_files_change_nothing(void **state)
{
    (void)state;
    tl_dataset *d = tl_test_load("experiments/datasets/vote.arff", NULL);
    const char *algos[] = {"random_forest", "extra_trees", "bagging"};
    const char *kv[] = {"n_estimators=12", "base.criterion=hellinger", NULL};
    for (int a = 0; a < 3; a++) {
        tl_model *one = fit_jobs(algos[a], d, kv, 5, 1), *three = fit_jobs(algos[a], d, kv, 5, 3);
        tl_model *other = fit_jobs(algos[a], d, kv, 6, 3);
        char *t1, *t3, *t6;
        tl_model *back = tl_test_reload(one, &t1);
        tl_model_free(tl_test_reload(three, &t3));
        tl_model_free(tl_test_reload(other, &t6));
        assert_string_equal(t1, t3);
        assert_true(strcmp(t1, t6) != 0); /* the seed matters */
        size_t k = tl_model_out_width(one), n = d->n_rows;
        double *p = malloc(n * k * sizeof *p), *q = malloc(n * k * sizeof *q);
        tl_err err;
        assert_int_equal(tl_model_predict(one, d, NULL, 0, p, &err), TL_OK);
        assert_int_equal(tl_model_predict(back, d, NULL, 0, q, &err), TL_OK);
        assert_memory_equal(p, q, n * k * sizeof *p);
        for (size_t i = 0; i < n; i++)
            assert_close(p[i * k] + p[i * k + 1], 1, 1e-12);
        free(p);
        free(q);
        free(t1);
        free(t3);
        free(t6);
        tl_model_free(one);
        tl_model_free(three);
        tl_model_free(other);
        tl_model_free(back);
    }
    tl_dataset_free(d);
}

/* A majority vote's probabilities are shares of the members' votes. */
static void test_majority_vote_counts_members(void **state)
{
    (void)state;
    tl_dataset *d = tl_test_load("experiments/datasets/iris.arff", NULL);
    const char *kv[] = {"n_estimators=7", "vote=majority", NULL};
    tl_model *m = tl_test_fitted("random_forest", d, kv);
    const tl_ensemble *e = tl_model_ensemble(m);
    double p[3 * 150], one[3];
    tl_err err;
    assert_int_equal(tl_model_predict(m, d, NULL, 0, p, &err), TL_OK);
    for (size_t r = 0; r < 150; r++) {
        double votes[3] = {0, 0, 0};
        for (size_t t = 0; t < e->n_trees; t++) {
            assert_int_equal(tl_tree_predict(e->trees[t], d, &r, 1, one, &err), TL_OK);
            votes[one[1] > one[0] ? (one[2] > one[1] ? 2 : 1) : (one[2] > one[0] ? 2 : 0)]++;
        }
        for (int c = 0; c < 3; c++)
            assert_close(p[3 * r + c], votes[c] / 7, 1e-15);
    }
    /* importances: a share per attribute, the petals' above the sepals' */
    assert_close(e->importances[0] + e->importances[1] + e->importances[2] + e->importances[3], 1,
                 1e-12);
    assert_true(e->importances[2] + e->importances[3] > 0.7);
    tl_model_free(m);
    tl_dataset_free(d);
}

/* random_threshold's root cut on x = 0 .. 99 over 400 seeds: uniform on [0, 99] (mean 49.5,
 * sd 99 / sqrt(12) = 28.6), hardly ever a midpoint of two values. */
static void test_random_threshold_cuts_uniformly(void **state)
{
    (void)state;
    char text[4096] = "x,y\n";
    size_t used = strlen(text);
    for (int i = 0; i < 100; i++)
        used += (size_t)snprintf(text + used, sizeof text - used, "%d,%c\n", i, i < 50 ? 'a' : 'b');
    tl_dataset *d = tl_test_load_text(".csv", text, NULL);
    const char *kv[] = {"numeric=random_threshold", "max_depth=1", NULL};
    double s = 0, ss = 0;
    int halves = 0;
    for (unsigned long seed = 1; seed <= 400; seed++) {
        tl_err err;
        tl_model *m = tl_test_fit("tree", d, kv, seed, &err);
        assert_non_null(m);
        const tl_tree *t = tl_model_tree(m);
        assert_int_equal(t->attr[0], 0);
        double c = t->threshold[0];
        assert_true(c >= 0 && c < 99);
        s += c;
        ss += c * c;
        halves += c - floor(c) == 0.5;
        tl_model_free(m);
    }
    double mean = s / 400, sd = sqrt(ss / 400 - mean * mean);
    print_message("random_threshold: root cut mean %.3f, sd %.3f over 400 seeds\n", mean, sd);
    assert_close(mean, 49.5, 4.5); /* 3.1 standard errors */
    assert_close(sd, 28.6, 3);
    assert_true(halves < 5);
    tl_dataset_free(d);
}

static void test_bad_parameters_are_refused(void **state)
{
    (void)state;
    tl_test_refused("random_forest", "n_estimators", "0", "n_estimators = 0 is out of range [1");
    /* bagging takes any learner (soft trees, naive Bayes); the forests and boosting need trees */
    tl_test_refused("random_forest", "base", "gaussian_nb",
                    "base = gaussian_nb: an ensemble needs a learner that grows a tree");
    tl_test_refused("adaboost", "base", "gaussian_nb",
                    "base = gaussian_nb: an ensemble needs a learner that grows a tree");
    tl_test_refused("bagging", "base", "no_such", "unknown algorithm 'no_such'");
    tl_test_refused("random_forest", "base.criterion", "foo", "unknown criterion 'foo'");
    tl_test_refused("random_forest", "base.max_depth", "-1", "base tree: parameter max_depth");
    tl_test_refused("extra_trees", "oob_score", "true", "oob_score needs bootstrap = true");
    tl_test_refused("random_forest", "max_features", "1.5", "max_features = 1.5; valid");
    tl_test_refused("bagging", "max_samples", "0", "max_samples = 0 is out of range");
    tl_test_refused("bagging", "vote", "soft", "average|majority");
    tl_test_refused("bagging", "base.smoothing", "laplace", "valid: none");
}

/* A forest beats its single tree on wine (10-fold CV; scikit-learn's RandomForestClassifier
 * scores about 0.98 there, its tree about 0.90). */
static void test_forest_beats_its_tree(void **state)
{
    (void)state;
    const char *kv[] = {"n_estimators=30", NULL};
    double rf = tl_test_cv_accuracy("random_forest", "experiments/datasets/wine.arff", kv, 10);
    double et = tl_test_cv_accuracy("extra_trees", "experiments/datasets/wine.arff", kv, 10);
    double tree = tl_test_cv_accuracy("cart", "experiments/datasets/wine.arff", NULL, 10);
    print_message("wine, 10-fold CV: random forest %.4f, extra-trees %.4f, cart %.4f\n", rf, et,
                  tree);
    assert_true(rf > 0.95 && et > 0.95 && tree < 0.93);
}

/* Permutation importance on held-out rows: exactly 0 for every attribute a stump does not
 * test, the accuracy it loses for the one it tests; the forest leans on the petals. */
static void test_permutation_importance(void **state)
{
    (void)state;
    tl_dataset *d = tl_test_load("experiments/datasets/iris.arff", NULL);
    size_t train[75], test[75];
    for (size_t i = 0; i < 75; i++) {
        train[i] = 2 * i;
        test[i] = 2 * i + 1;
    }
    tl_params p;
    tl_params_init(&p);
    tl_params_set(&p, "max_depth", "1", NULL);
    tl_err err;
    tl_model *stump = tl_model_new("cart", &p, &err);
    tl_params_clear(&p);
    tl_fit_ctx ctx = {.seed = 1};
    assert_int_equal(tl_model_fit(stump, d, train, 75, &ctx, &err), TL_OK);
    int root = tl_model_tree(stump)->attr[0];
    double mean[4], sd[4];
    assert_int_equal(tl_permutation_importance(stump, d, test, 75, 10, 3, mean, sd, &err), TL_OK);
    print_message("stump on attribute %d: permutation importances %.4f %.4f %.4f %.4f\n", root,
                  mean[0], mean[1], mean[2], mean[3]);
    for (int j = 0; j < 4; j++)
        if (j != root) {
            assert_true(mean[j] == 0 && sd[j] == 0);
        }
    /* the stump puts setosa apart (accuracy 2/3); shuffled, a row lands on the setosa side
     * with chance 1/3: setosa right with 1/3, the other predicted class with 2/3, so the
     * accuracy is 1/3 and the expected drop 1/3 (observed 0.3307 over 10 shuffles) */
    assert_close(mean[root], 1.0 / 3, 0.04);
    tl_model_free(stump);
    tl_model *rf = tl_model_new("random_forest", NULL, &err);
    assert_non_null(rf);
    assert_int_equal(tl_model_fit(rf, d, train, 75, &ctx, &err), TL_OK);
    assert_int_equal(tl_permutation_importance(rf, d, test, 75, 5, 3, mean, sd, &err), TL_OK);
    print_message("random forest: permutation importances %.4f %.4f %.4f %.4f\n", mean[0], mean[1],
                  mean[2], mean[3]);
    assert_true(mean[2] + mean[3] > mean[0] + mean[1]);
    tl_model_free(rf);
    tl_dataset_free(d);
}

/* 10-fold CV accuracy of treelab (one seed) on the folds of tests/fixtures/ensemble_cv/ within
 * 1.5 points of the peer's mean over its seeds, for each line of fixture (DATASET LEARNER MEAN
 * SD ...); where the peer's seeds do not move it (SD 0: scikit-learn's AdaBoost, deterministic
 * and matched to 1e-9 by test_gradient_boosting), the same count of rows right. Returns the
 * number of comparisons. */
static size_t cv_near_peer(const char *fixture, const char *peer)
{
    char rel[128];
    snprintf(rel, sizeof rel, "tests/fixtures/ensemble_cv/%s", fixture);
    FILE *f = fopen(tl_test_path(rel), "r");
    assert_non_null(f);
    char line[1024], name[64], learner[64];
    double sk_mean, sk_sd, worst = 0;
    size_t checked = 0;
    while (fgets(line, sizeof line, f)) {
        if (line[0] == '#' ||
            sscanf(line, "%63s %63s %lf %lf", name, learner, &sk_mean, &sk_sd) != 4)
            continue;
        char data[128], folds[128];
        snprintf(data, sizeof data, "%s", tl_test_path("experiments/datasets/"));
        size_t used = strlen(data);
        snprintf(data + used, sizeof data - used, "%s.arff", name);
        snprintf(folds, sizeof folds, "%s", tl_test_path("tests/fixtures/ensemble_cv/"));
        used = strlen(folds);
        snprintf(folds + used, sizeof folds - used, "%s.folds", name);
        tl_data_opts o = {0};
        o.fold_file = folds;
        tl_err err;
        tl_dataset *d = tl_dataset_load_with(data, &o, &err);
        if (!d)
            fail_msg("%s", err.msg);
        size_t n = d->n_rows, *tr = malloc(n * sizeof *tr), *te = malloc(n * sizeof *te);
        double *lab = malloc(n * sizeof *lab), right = 0;
        const char *kv[] = {"n_estimators=50", NULL};
        for (int k = 0; k < 10; k++) {
            size_t ntr = 0, nte = 0;
            for (size_t r = 0; r < n; r++) {
                if (d->fold[r] == k)
                    te[nte++] = r;
                else
                    tr[ntr++] = r;
            }
            tl_params p;
            tl_params_init(&p);
            tl_params_set_kv(&p, kv[0], NULL);
            tl_model *m = tl_model_new(learner, &p, &err);
            tl_params_clear(&p);
            assert_non_null(m);
            tl_fit_ctx ctx = {.seed = 100 + (unsigned long)k};
            assert_int_equal(tl_model_fit(m, d, tr, ntr, &ctx, &err), TL_OK);
            assert_int_equal(tl_model_predict_label(m, d, te, nte, lab, &err), TL_OK);
            for (size_t i = 0; i < nte; i++)
                right += (int)lab[i] == d->y.code[te[i]];
            tl_model_free(m);
        }
        double acc = right / (double)n;
        print_message("%-10s %-13s treelab %.4f, %s %.4f (sd %.4f over its seeds)\n", name, learner,
                      acc, peer, sk_mean, sk_sd);
        worst = fmax(worst, fabs(acc - sk_mean));
        checked++;
        double tol = sk_sd < 1e-9 ? 0.5 / (double)n : 0.015;
        if (fabs(acc - sk_mean) > tol)
            fail_msg("%s %s: %.17g against %s's %.17g (allowed %.3g)", name, learner, acc, peer,
                     sk_mean, tol);
        free(tr);
        free(te);
        free(lab);
        tl_dataset_free(d);
    }
    fclose(f);
    print_message("%s: %zu comparisons, largest gap %.4f\n", peer, checked, worst);
    return checked;
}

/* scikit-learn's folds and accuracies (scripts/peers/sklearn_ensemble_cv.py), random_state
 * 0..4: random_forest, extra_trees (50 trees) and adaboost (SAMME.R, 50 stumps) on 4 data
 * sets, every line of the fixture. */
static void test_cv_accuracy_near_scikit_learn(void **state)
{
    (void)state;
    assert_int_equal(cv_near_peer("sklearn_cv.txt", "scikit-learn"), 12);
}

/* R's ranger on the same folds (scripts/peers/ranger_cv.R), seeds 1..10: a 50-tree forest,
 * mtry sqrt, min.node.size 1, bootstrap. 1.5 points, as for scikit-learn: one run's 10-fold
 * accuracy moves with its seed by up to 0.9 points (sd) on these data, and the two peers'
 * means differ from each other by up to 1.1 points (iris, diabetes). */
static void test_cv_accuracy_near_ranger(void **state)
{
    (void)state;
    assert_int_equal(cv_near_peer("ranger_cv.txt", "ranger"), 4);
}

/* Soft trees as members: bagging of 3 soft trees on every row (no bootstrap) predicts the mean
 * of 3 soft trees fitted alone with the members' seeds (fit seed, index), bit for bit, on 1 and
 * 3 threads, and after truncation to 2 the mean of the first two; saved and loaded, the same
 * bits; refused where a tree is needed (random_forest, bootstrap_features). */
static void test_soft_tree_members(void **state)
{
    (void)state;
    tl_dataset *d = tl_test_load("experiments/datasets/iris.arff", NULL);
    size_t n = d->n_rows, k = 3;
    const char *kv[] = {"base=soft_tree", "base.epochs=20",  "base.depth=2",
                        "n_estimators=3", "bootstrap=false", NULL};
    const char *one_kv[] = {"epochs=20", "depth=2", NULL};
    double *bag1 = malloc(n * k * sizeof *bag1), *bag3 = malloc(n * k * sizeof *bag3);
    double *mean = calloc(n * k, sizeof *mean), *p = malloc(n * k * sizeof *p);
    tl_err err;
    tl_model *m1 = tl_test_fit("bagging", d, kv, 7, &err), *m3 = NULL;
    assert_non_null(m1);
    tl_params params;
    tl_params_init(&params);
    for (size_t i = 0; kv[i]; i++)
        assert_int_equal(tl_params_set_kv(&params, kv[i], &err), TL_OK);
    assert_non_null(m3 = tl_model_new("bagging", &params, &err));
    tl_params_clear(&params);
    tl_fit_ctx ctx = {.seed = 7, .jobs = 3};
    assert_int_equal(tl_model_fit(m3, d, NULL, n, &ctx, &err), TL_OK);
    assert_int_equal(tl_model_predict(m1, d, NULL, n, bag1, &err), TL_OK);
    assert_int_equal(tl_model_predict(m3, d, NULL, n, bag3, &err), TL_OK);
    assert_memory_equal(bag1, bag3, n * k * sizeof *bag1);
    assert_int_equal(tl_model_ensemble(m1)->n_trees, 3);
    for (size_t i = 0; i < 3; i++) {
        tl_model *t =
            tl_test_fit("soft_tree", d, one_kv, (unsigned long)tl_ens_seed(7, i, 1), &err);
        assert_non_null(t);
        assert_int_equal(tl_model_predict(t, d, NULL, n, p, &err), TL_OK);
        for (size_t j = 0; j < n * k; j++)
            mean[j] += p[j];
        tl_model_free(t);
        if (i == 1) { /* the first two: the bagging truncated to 2 */
            assert_int_equal(tl_model_truncate(m3, 2, d, &err), TL_OK);
            assert_int_equal(tl_model_predict(m3, d, NULL, n, p, &err), TL_OK);
            for (size_t j = 0; j < n * k; j++)
                assert_true(p[j] == mean[j] / 2);
        }
    }
    double worst = 0;
    for (size_t j = 0; j < n * k; j++)
        worst = fmax(worst, fabs(bag1[j] - mean[j] / 3));
    print_message("bagged soft trees: the mean of 3 soft trees fitted alone within %.3g\n", worst);
    assert_true(worst == 0);
    char *text = tl_test_show(m1, TL_SHOW_TEXT);
    assert_non_null(strstr(text, "3 soft_tree members"));
    free(text);
    /* saved and loaded: each member in its own type's form, the same bits predicted, and the
     * loaded model saves the same file */
    char *t1, *t2;
    tl_model *back = tl_test_reload(m1, &t1);
    tl_model_free(tl_test_reload(back, &t2));
    assert_string_equal(t1, t2);
    assert_non_null(strstr(t1, "members = {"));
    assert_int_equal(tl_model_predict(back, d, NULL, n, p, &err), TL_OK);
    assert_memory_equal(p, bag1, n * k * sizeof *p);
    assert_int_equal(tl_model_ensemble(back)->n_trees, 3);
    tl_model_free(back);
    free(t1), free(t2);
    tl_test_refused("random_forest", "base", "soft_tree", "needs a learner that grows a tree");
    tl_params_init(&params);
    tl_params_set_kv(&params, "base=soft_tree", &err);
    tl_params_set_kv(&params, "bootstrap_features=true", &err);
    assert_null(tl_model_new("bagging", &params, &err));
    assert_non_null(strstr(err.msg, "bootstrap_features needs a base that grows a tree"));
    tl_params_clear(&params);
    tl_model_free(m1);
    tl_model_free(m3);
    free(bag1), free(bag3), free(mean), free(p);
    tl_dataset_free(d);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_oob_score_equals_the_recorded_draws),
        cmocka_unit_test(test_threads_and_files_change_nothing),
        cmocka_unit_test(test_majority_vote_counts_members),
        cmocka_unit_test(test_random_threshold_cuts_uniformly),
        cmocka_unit_test(test_bad_parameters_are_refused),
        cmocka_unit_test(test_forest_beats_its_tree),
        cmocka_unit_test(test_permutation_importance),
        cmocka_unit_test(test_cv_accuracy_near_scikit_learn),
        cmocka_unit_test(test_cv_accuracy_near_ranger),
        cmocka_unit_test(test_soft_tree_members),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
