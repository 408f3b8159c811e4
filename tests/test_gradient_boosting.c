/* gradient_boosting and adaboost against scikit-learn 1.2.1's GradientBoostingClassifier/
 * Regressor and AdaBoostClassifier (tests/fixtures/sklearn_gradient_boosting.txt and
 * sklearn_adaboost.txt, recorded by scripts/peers/sklearn_gradient_boosting.py and
 * sklearn_adaboost.py):
 * predict_proba / predict to 1e-9 on every row of every recorded case, the initial raw
 * prediction to 1e-12, feature_importances_ to 1e-12 where scikit-learn's own do not move
 * with random_state;
 * early stopping, model files and refused parameters. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tl_test_util.h"
#include "treelab/tl_store.h"

/* Reads numbers after the first `skip` words of line into v (at most max). */
static size_t numbers(const char *line, int skip, double *v, size_t max)
{
    const char *p = line;
    for (int i = 0; i < skip; i++) {
        p = strchr(p, ' ');
        if (!p)
            return 0;
        p++;
    }
    size_t n = 0;
    char *end;
    while (n < max) {
        double x = strtod(p, &end);
        if (end == p)
            break;
        v[n++] = x;
        p = end;
    }
    return n;
}

typedef struct gb_case {
    char name[64], file[64], target[32], loss[32], kv[8][64];
    const char *kvp[9];
} gb_case;

/* key0: what the fourth word names (loss, algorithm); depth: the depth's parameter. */
static void parse_case(const char *line, gb_case *c, const char *key0, const char *depth_key)
{
    char n_est[16], lr[32], depth[16], rest[256] = "";
    int got = sscanf(line, "case %63s %63s %31s %31s %15s %31s %15s %255[^\n]", c->name, c->file,
                     c->target, c->loss, n_est, lr, depth, rest);
    assert_true(got >= 7);
    int i = 0;
    snprintf(c->kv[i++], 64, "%s=%s", key0, c->loss);
    snprintf(c->kv[i++], 64, "n_estimators=%s", n_est);
    snprintf(c->kv[i++], 64, "learning_rate=%s", lr);
    snprintf(c->kv[i++], 64, "%s=%s", depth_key, depth);
    for (char *save = NULL, *tok = strtok_r(rest, " ", &save); tok && i < 8;
         tok = strtok_r(NULL, " ", &save))
        snprintf(c->kv[i++], 64, "%s", tok);
    for (int j = 0; j < i; j++)
        c->kvp[j] = c->kv[j];
    c->kvp[i] = NULL;
}

/* The peers recorded every training row (and its label, for classes): a case that compared
 * fewer was cut short. */
static void case_complete(const gb_case *c, const tl_dataset *d, size_t rows, size_t labels)
{
    if (!d)
        return;
    if (rows != d->n_rows || (tl_dataset_is_classification(d) && labels != d->n_rows))
        fail_msg("%s: %zu rows and %zu labels compared of %zu", c->name, rows, labels, d->n_rows);
}

/* The initial raw prediction (gradient boosting's init, before any stage), read from the
 * model's file, against the peer's: the stages do not hide a wrong start. */
static void check_init(const tl_model *m, const char *line, const char *name)
{
    double want[64], got[64];
    size_t k = numbers(line, 1, want, 64), n;
    char path[256];
    snprintf(path, sizeof path, "%s", tl_test_tmpfile(".model", ""));
    tl_err err;
    assert_int_equal(tl_model_save(m, path, &err), TL_OK);
    tl_store *s = tl_store_read(path, &err);
    remove(path);
    assert_non_null(s);
    assert_int_equal(tl_store_len(s, "state.init", &n, &err), TL_OK);
    assert_true(k >= 1 && n == k);
    assert_int_equal(tl_store_doubles(s, "state.init", got, n, &err), TL_OK);
    tl_store_free(s);
    for (size_t j = 0; j < k; j++)
        if (!(fabs(got[j] - want[j]) <= 1e-12 * fmax(1, fabs(want[j]))))
            fail_msg("%s: init %zu = %.17g, the peer's %.17g", name, j, got[j], want[j]);
}

/* Every case of a fixture fitted by algo and compared; the numbers of cases of each task. */
typedef struct tally {
    size_t cases, binary, multi, regression, with_imp, with_init, with_rounds;
} tally;

/* f32: the peer read the attributes as float32 (scikit-learn), else as doubles (Weka). */
static tally check_fixture(const char *rel, const char *algo, const char *key0,
                           const char *depth_key, double out_tol, double imp_tol, int f32)
{
    FILE *f = fopen(tl_test_path(rel), "r");
    assert_non_null(f);
    char line[1 << 16];
    gb_case c = {0};
    tl_dataset *d = NULL;
    tl_model *m = NULL;
    double *pred = NULL, v[64];
    size_t width = 0, cases = 0, binary = 0, multi = 0, regression = 0, rows_checked = 0;
    size_t with_imp = 0, with_init = 0, with_rounds = 0, case_rows = 0, case_labels = 0;
    double worst_p = 0, worst_imp = 0;
    while (fgets(line, sizeof line, f)) {
        if (!strncmp(line, "case ", 5)) {
            case_complete(&c, d, case_rows, case_labels);
            case_rows = case_labels = 0;
            tl_model_free(m);
            tl_dataset_free(d);
            free(pred);
            parse_case(line, &c, key0, depth_key);
            if (f32) {
                d = tl_test_load_sklearn(c.file, c.target);
            } else {
                char path[128];
                snprintf(path, sizeof path, "experiments/datasets/%s", c.file);
                d = tl_test_load(path, NULL);
            }
            m = tl_test_fitted(algo, d, c.kvp);
            width = tl_model_out_width(m);
            pred = malloc(d->n_rows * width * sizeof *pred);
            tl_err err;
            assert_int_equal(tl_model_predict(m, d, NULL, 0, pred, &err), TL_OK);
            cases++;
            size_t k = tl_dataset_n_classes(d);
            binary += k == 2;
            multi += k > 2;
            regression += k == 0;
        } else if (!strncmp(line, "init ", 5)) {
            check_init(m, line, c.name);
            with_init++;
        } else if (!strncmp(line, "# rounds kept: ", 15)) {
            /* Weka keeps the first member alone when it stops there (0 rounds listed) */
            size_t kept = (size_t)strtoul(line + 15, NULL, 10);
            if (tl_model_ensemble(m)->n_trees != (kept ? kept : 1))
                fail_msg("%s: %zu members, the peer kept %zu", c.name,
                         tl_model_ensemble(m)->n_trees, kept);
            with_rounds++;
        } else if (!strncmp(line, "importances ", 12)) {
            const tl_ensemble *e = tl_model_ensemble(m);
            size_t n = numbers(line, 1, v, 64);
            assert_int_equal(n, e->n_attrs);
            with_imp++;
            for (size_t a = 0; a < n; a++) {
                double gap = fabs(e->importances[a] - v[a]);
                worst_imp = gap > worst_imp ? gap : worst_imp;
                if (gap > imp_tol)
                    fail_msg("%s: importance %zu = %.17g, scikit-learn %.17g", c.name, a,
                             e->importances[a], v[a]);
            }
        } else if (!strncmp(line, "row ", 4)) {
            size_t r = (size_t)strtoul(line + 4, NULL, 10);
            assert_true(r < d->n_rows);
            assert_int_equal(numbers(line, 2, v, 64), width);
            for (size_t j = 0; j < width; j++) {
                double gap = fabs(pred[r * width + j] - v[j]);
                worst_p = gap > worst_p ? gap : worst_p;
                if (gap > out_tol)
                    fail_msg("%s: row %zu output %zu = %.17g, scikit-learn %.17g", c.name, r, j,
                             pred[r * width + j], v[j]);
            }
            rows_checked++;
            case_rows++;
        } else if (!strncmp(line, "label ", 6)) {
            size_t r, label;
            assert_int_equal(sscanf(line, "label %zu %zu", &r, &label), 2);
            double got;
            tl_err err;
            assert_int_equal(tl_model_predict_label(m, d, &r, 1, &got, &err), TL_OK);
            assert_int_equal((size_t)got, label);
            case_labels++;
        }
    }
    fclose(f);
    case_complete(&c, d, case_rows, case_labels);
    tl_model_free(m);
    tl_dataset_free(d);
    free(pred);
    print_message("%s: %zu cases (%zu binary, %zu multinomial, %zu regression), %zu rows: "
                  "outputs within %.3g; importances of %zu cases within %.3g of the peer; "
                  "%zu initial predictions, %zu counts of members\n",
                  algo, cases, binary, multi, regression, rows_checked, worst_p, with_imp,
                  worst_imp, with_init, with_rounds);
    return (tally){cases, binary, multi, regression, with_imp, with_init, with_rounds};
}

static void test_equals_scikit_learn(void **state)
{
    (void)state;
    tally t = check_fixture("tests/fixtures/sklearn_gradient_boosting.txt", "gradient_boosting",
                            "loss", "max_depth", 1e-9, 1e-12, 1);
    /* every case of the fixture, each with its init line */
    assert_true(t.cases == 13 && t.binary == 3 && t.multi == 4 && t.regression == 6 &&
                t.with_imp == 5 && t.with_init == 13);
}

/* AdaBoost's SAMME and SAMME.R over stumps (scripts/peers/sklearn_adaboost.py), as exact as
 * gradient boosting. */
static void test_adaboost_equals_scikit_learn(void **state)
{
    (void)state;
    tally t = check_fixture("tests/fixtures/sklearn_adaboost.txt", "adaboost", "algorithm",
                            "base.max_depth", 1e-9, 1e-12, 1);
    assert_true(t.cases == 6 && t.binary == 3 && t.multi == 3 && t.with_imp == 4);
}

/* AdaBoost.M1 as Weka 3.6's AdaBoostM1 with reweighting over DecisionStump (an entropy stump),
 * tests/fixtures/weka_adaboost.txt by scripts/peers/weka_adaboost.sh: deterministic, so exact,
 * on 7 cases (binary, multiclass; ten classes' stumps stopping at the first round), each
 * with as many members as Weka kept. */
static void test_adaboost_m1_equals_weka(void **state)
{
    (void)state;
    tally t = check_fixture("tests/fixtures/weka_adaboost.txt", "adaboost", "algorithm",
                            "base.max_depth", 1e-9, 1e-12, 0);
    assert_true(t.cases == 7 && t.binary == 2 && t.multi == 5 && t.with_rounds == 7);
}

/* scikit-learn's rule on a trace's validation losses (column 2 of 3), stage by stage: a
 * stage's loss plus tol below one of the `window` before it (any, before the window is full)
 * lets the fit go on; the last stage kept is the first whose loss is not. */
static void stopped_as_scikit_learn(const double *t, size_t nr, size_t window, double tol)
{
    for (size_t i = 0; i < nr; i++) {
        int better = i < window;
        assert_true(isfinite(t[3 * i + 2]));
        for (size_t j = i >= window ? i - window : 0; j < i; j++)
            better |= t[3 * i + 2] + tol < t[3 * j + 2];
        if (better != (i + 1 < nr))
            fail_msg("stage %zu of %zu: validation loss %.17g %s", i + 1, nr, t[3 * i + 2],
                     better ? "improved, yet the fit stopped"
                            : "did not improve, yet the fit went on");
    }
}

/* How many of the window's places in scikit-learn's ring of past losses (stage j in place
 * j % window) were, at some stage, the only loss the stage improved on: a fit that decides
 * by each place alone shows that every place is compared. */
static size_t places_deciding_alone(const double *t, size_t nr, size_t window, double tol)
{
    unsigned char alone[16] = {0};
    size_t n = 0;
    assert_true(window <= sizeof alone);
    for (size_t i = window; i < nr; i++) {
        size_t better = 0, place = 0;
        for (size_t j = i - window; j < i; j++)
            if (t[3 * i + 2] + tol < t[3 * j + 2]) {
                better++;
                place = j % window;
            }
        if (better == 1 && !alone[place]) {
            alone[place] = 1;
            n++;
        }
    }
    return n;
}

/* Early stopping keeps the stage that did not improve, as scikit-learn; the model file
 * predicts the same bits; the trace holds the training loss of every stage. */
static void test_early_stopping_and_files(void **state)
{
    (void)state;
    tl_dataset *d = tl_test_load("experiments/datasets/diabetes.arff", NULL);
    const char *kv[] = {"n_estimators=500", "n_iter_no_change=5", "learning_rate=0.3", NULL};
    tl_model *m = tl_test_fitted("gradient_boosting", d, kv);
    const tl_ensemble *e = tl_model_ensemble(m);
    const char *const *cols;
    size_t nc, nr;
    const double *t;
    assert_int_equal(m->type->trace(m->state, &cols, &nc, &t, &nr), TL_OK);
    print_message("diabetes: early stopping after %zu of 500 stages, validation loss %.6f\n", nr,
                  t[3 * (nr - 1) + 2]);
    assert_int_equal(e->n_trees, nr);
    assert_true(nr > 5 && nr < 200);
    stopped_as_scikit_learn(t, nr, 5, 1e-4);
    /* the training loss falls stage after stage (binomial deviance) */
    for (size_t i = 1; i < nr; i++)
        assert_true(t[3 * i + 1] < t[3 * (i - 1) + 1]);
    /* a tol the improvements fall below while the loss still falls, a window of 3 */
    const char *kv_tol[] = {"n_estimators=500", "n_iter_no_change=3", "tol=0.003", NULL};
    tl_model *m_tol = tl_test_fitted("gradient_boosting", d, kv_tol);
    const double *t_tol;
    size_t nr_tol;
    assert_int_equal(m_tol->type->trace(m_tol->state, &cols, &nc, &t_tol, &nr_tol), TL_OK);
    print_message("diabetes, tol 0.003: early stopping after %zu stages, validation loss %.6f\n",
                  nr_tol, t_tol[3 * (nr_tol - 1) + 2]);
    assert_true(nr_tol > 3 && nr_tol < 500);
    stopped_as_scikit_learn(t_tol, nr_tol, 3, 0.003);
    tl_model_free(m_tol);
    /* iris, a window of 4: each of the 4 past losses is, at some stage, the only one the
     * stage improves on (found by trying windows, tols and learning rates on the bundled
     * data), so a rule that skipped a place would stop elsewhere */
    tl_dataset *iris = tl_test_load("experiments/datasets/iris.arff", NULL);
    const char *kv_ring[] = {"n_estimators=300", "n_iter_no_change=4", "tol=0.01", NULL};
    tl_model *m_ring = tl_test_fitted("gradient_boosting", iris, kv_ring);
    assert_int_equal(m_ring->type->trace(m_ring->state, &cols, &nc, &t_tol, &nr_tol), TL_OK);
    print_message("iris, window 4, tol 0.01: early stopping after %zu stages\n", nr_tol);
    assert_true(nr_tol > 4 && nr_tol < 300);
    stopped_as_scikit_learn(t_tol, nr_tol, 4, 0.01);
    assert_int_equal(places_deciding_alone(t_tol, nr_tol, 4, 0.01), 4);
    tl_model_free(m_ring);
    tl_dataset_free(iris);
    tl_model *back = tl_test_reload(m, NULL);
    size_t n = d->n_rows;
    double *p = malloc(2 * n * sizeof *p), *q = malloc(2 * n * sizeof *q);
    tl_err err;
    assert_int_equal(tl_model_predict(m, d, NULL, 0, p, &err), TL_OK);
    assert_int_equal(tl_model_predict(back, d, NULL, 0, q, &err), TL_OK);
    assert_memory_equal(p, q, 2 * n * sizeof *p);
    free(p);
    free(q);
    tl_model_free(back);
    tl_model_free(m);
    tl_dataset_free(d);
}

static void test_bad_parameters_are_refused(void **state)
{
    (void)state;
    tl_test_refused("gradient_boosting", "n_estimators", "0",
                    "n_estimators = 0 is out of range [1");
    tl_test_refused("gradient_boosting", "base", "c45", "base = c45 fits no numeric target");
    tl_test_refused("gradient_boosting", "base", "gaussian_nb", "grows a tree");
    tl_test_refused("gradient_boosting", "subsample", "1.5", "subsample = 1.5 is out of range");
    tl_test_refused("gradient_boosting", "loss", "exponential", "log_loss|squared_error");
    tl_test_refused("gradient_boosting", "max_features", "auto", "max_features = auto; valid");
    tl_test_refused("adaboost", "algorithm", "M2", "SAMME.R|SAMME|M1");
    tl_test_refused("adaboost", "n_estimators", "0", "n_estimators = 0 is out of range [1");
    tl_test_refused("adaboost", "base", "gaussian_nb", "grows a tree");
    tl_dataset *d = tl_test_load("experiments/datasets/iris.arff", NULL);
    const char *kv[] = {"loss=huber", NULL};
    tl_err err;
    assert_null(tl_test_fit("gradient_boosting", d, kv, 1, &err));
    assert_non_null(strstr(err.msg, "needs a numeric target (use log_loss)"));
    tl_dataset_free(d);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_equals_scikit_learn),
        cmocka_unit_test(test_adaboost_equals_scikit_learn),
        cmocka_unit_test(test_adaboost_m1_equals_weka),
        cmocka_unit_test(test_early_stopping_and_files),
        cmocka_unit_test(test_bad_parameters_are_refused),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
