/* The soft forest: objective, gradient and closed-form leaf update against PyTorch and finite
 * differences, compositions refused, model files, determinism, and CV accuracy on the
 * reference's folds. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../algorithms/models/soft_tree/soft_forest_impl.h"
#include "tl_test_util.h"
#include "treelab/tl_model.h"

/* Under AddressSanitizer (several times slower) the CV check skips breast cancer, about 80%
 * of its cost; the release build checks every data set. */
#define SKIP_CV (TL_TEST_ASAN ? "breast_cancer" : NULL)

/* The fixed problem of scripts/peers/torch_soft_forest.py (that of the soft tree's). */
enum { D = 3, K = 3, B = 9, M = 3, DEPTH = 2 };
#define BETA 1.7
#define GAMMA 1.5
#define L2 0.05

static void problem(int regression, double *X, double *y, double *wt)
{
    for (size_t r = 0; r < B; r++) {
        for (size_t j = 0; j < D; j++)
            X[r * D + j] = sin(0.7 * (double)(r * D + j) + 0.3) * 1.5;
        y[r] = regression ? cos(1.1 * (double)r) : (double)((r * 7 + 3) % K);
        wt[r] = 0.5 + 0.1 * (double)(r % 5);
    }
}

/* The script's forest: theta[k] = 0.8 sin(1.3 k + 0.5), closed-form leaves 1.2 + sin(...)
 * normalised per leaf. */
static void make_forest(sf_net *f, const char *gate, const char *shape, int regression,
                        int closed)
{
    tl_err err;
    double par[ST_GATE_PARS] = {GAMMA, 1 / GAMMA};
    memset(f, 0, sizeof *f);
    f->n_in = D;
    f->n_out = regression ? 1 : K;
    f->regression = regression;
    f->leaf = closed ? SF_LEAF_CLOSED_FORM : SF_LEAF_GRADIENT;
    assert_non_null(st_gate_find(gate));
    assert_int_equal(sf_net_build(f, M, DEPTH, st_gate_find(gate), par, st_shape_find(shape),
                                  BETA, &err),
                     TL_OK);
    for (size_t k = 0; k < f->n_theta; k++)
        f->theta[k] = 0.8 * sin(1.3 * (double)k + 0.5);
    size_t S = f->tree[0].n_split, L = f->tree[0].tree.n_leaves;
    for (size_t t = 0; closed && t < M; t++)
        for (size_t l = 0; l < L; l++) {
            size_t at = t * f->per_tree + S * (D + 1) + l * K;
            double raw[K], z = 0;
            for (size_t c = 0; c < K; c++)
                z += raw[c] = 1.2 + sin(1.3 * (double)(at + c) + 0.5);
            for (size_t c = 0; c < K; c++)
                f->theta[at + c] = raw[c] / z;
        }
}

static double objective(const sf_net *f, sf_work *w, int regression, double *g)
{
    double X[B * D], y[B], wt[B];
    problem(regression, X, y, wt);
    return sf_objective(f, w, L2, X, y, wt, B, g, NULL);
}

/* Central differences against g (1e-6 relative, absolute below 1) for the parameters the
 * gradient trains (closed form: not the leaves); returns how many moved. */
static size_t finite_differences(sf_net *f, sf_work *w, int regression, const double *g)
{
    size_t moving = 0, S = f->tree[0].n_split;
    for (size_t k = 0; k < f->n_theta; k++) {
        if (f->leaf == SF_LEAF_CLOSED_FORM && k % f->per_tree >= S * (D + 1)) {
            assert_true(g[k] == 0);
            continue;
        }
        double keep = f->theta[k], h = 1e-6;
        f->theta[k] = keep + h;
        double fp = objective(f, w, regression, NULL);
        f->theta[k] = keep - h;
        double fm = objective(f, w, regression, NULL);
        f->theta[k] = keep;
        double fd = (fp - fm) / (2 * h);
        if (fabs(g[k] - fd) > 1e-6 * fmax(1.0, fabs(fd)))
            fail_msg("parameter %zu: analytic %.12g, finite difference %.12g", k, g[k], fd);
        moving += g[k] != 0;
    }
    return moving;
}

/* The numbers after `used` characters of line into v (n of them). */
static void read_values(const char *line, double *v, size_t n)
{
    for (size_t k = 0; k < n; k++) {
        char *end;
        v[k] = strtod(line, &end);
        assert_true(end != line);
        line = end;
    }
}

static void check_close(const char *what, size_t k, double got, double want)
{
    if (fabs(got - want) > 1e-10 * fmax(fabs(want), 1e-3))
        fail_msg("%s: value %zu: %.17g, torch %.17g", what, k, got, want);
}

/* Every gate x shape x (classification, regression, closed form): objective and gradient to
 * 1e-10 of PyTorch's autograd in double and to finite differences; the closed-form leaves
 * after 3 rounds of the update to 1e-10. */
static void test_against_torch(void **state)
{
    (void)state;
    FILE *in = fopen(tl_test_path("tests/fixtures/soft_forest/gradients.txt"), "r");
    assert_non_null(in);
    static char line[65536];
    size_t grads = 0, updates = 0;
    while (fgets(line, sizeof line, in)) {
        char kind[16], gate[32], shape[32], task[32] = "", leaf[32] = "";
        int used;
        if (line[0] == '#')
            continue;
        int update = !strncmp(line, "update", 6);
        if (update)
            assert_int_equal(sscanf(line, "%15s %31s %31s%n", kind, gate, shape, &used), 3);
        else
            assert_int_equal(sscanf(line, "%15s %31s %31s %31s %31s%n", kind, gate, shape, task,
                                    leaf, &used),
                             5);
        int regression = !strcmp(task, "regression"), closed = update || !strcmp(leaf, "closed_form");
        char what[160];
        snprintf(what, sizeof what, "%s %s %s %s %s", kind, gate, shape, task, leaf);
        sf_net f;
        sf_work w;
        tl_err err;
        make_forest(&f, gate, shape, regression, closed);
        assert_int_equal(sf_work_alloc(&w, &f, &err), TL_OK);
        double *want = malloc((f.n_theta + 1) * sizeof *want), *g = malloc(f.n_theta * sizeof *g);
        if (update) {
            double X[B * D], y[B], wt[B];
            problem(0, X, y, wt);
            assert_int_equal(sf_leaf_closed_form(&f, &w, X, y, wt, B, 3, &err), TL_OK);
            size_t S = f.tree[0].n_split, LK = f.tree[0].tree.n_leaves * K;
            read_values(line + used, want, M * LK);
            for (size_t t = 0; t < M; t++)
                for (size_t k = 0; k < LK; k++)
                    check_close(what, t * LK + k, f.theta[t * f.per_tree + S * (D + 1) + k],
                                want[t * LK + k]);
            updates++;
        } else {
            read_values(line + used, want, f.n_theta + 1);
            check_close(what, 0, objective(&f, &w, regression, g), want[0]);
            for (size_t k = 0; k < f.n_theta; k++)
                check_close(what, k + 1, g[k], want[k + 1]);
            assert_true(finite_differences(&f, &w, regression, g) > f.n_theta / 3);
            grads++;
        }
        free(want);
        free(g);
        sf_work_clear(&w);
        sf_net_clear(&f);
    }
    fclose(in);
    assert_int_equal(grads, 3 * 2 * 3);
    assert_int_equal(updates, 3 * 2);
}

/* smooth_step skips subtrees: on the fixed batch some rows reach fewer than all nodes. */
static void test_skips(void **state)
{
    (void)state;
    sf_net f;
    sf_work w;
    tl_err err;
    make_forest(&f, "smooth_step", "full", 0, 0);
    assert_int_equal(sf_work_alloc(&w, &f, &err), TL_OK);
    double X[B * D], y[B], wt[B], out[K];
    problem(0, X, y, wt);
    size_t short_rows = 0;
    for (size_t r = 0; r < B; r++) {
        sf_predict_rows(&f, &w, X + r * D, 1, out);
        short_rows += w.at[M] < M * f.tree[0].tree.n_nodes;
        assert_true(fabs(out[0] + out[1] + out[2] - 1) < 1e-12);
    }
    assert_true(short_rows > 0);
    sf_work_clear(&w);
    sf_net_clear(&f);
}

static void test_refused(void **state)
{
    (void)state;
    tl_test_refused("soft_forest", "shape", "incremental", "trains all its trees jointly");
    tl_test_refused("soft_forest", "gate", "relu", "valid: sigmoid, smooth_step, entmoid");
    tl_test_refused("soft_forest", "leaf_update", "newton", "gradient|closed_form");
    tl_test_refused("soft_forest", "trees", "0", "trees");
    /* closed-form leaves are class distributions: refused on a numeric target before training */
    tl_dataset *d = tl_test_load("experiments/datasets/iris.arff", "petalwidth");
    const char *kv[] = {"leaf_update=closed_form", NULL};
    tl_err err;
    assert_null(tl_test_fit("soft_forest", d, kv, 1, &err));
    assert_non_null(strstr(err.msg, "use leaf_update = gradient for regression"));
    tl_dataset_free(d);
}

/* Same seed, same model for any jobs; the file reloads to the same predictions; regression
 * learns (RMSE of petalwidth far below its sd). */
static void test_files_and_determinism(void **state)
{
    (void)state;
    const char *const sets[][4] = {
        {"epochs=20", NULL},
        {"epochs=20", "gate=smooth_step", "shape=oblivious", NULL},
        {"epochs=5", "leaf_update=closed_form", "validation_fraction=0.2", NULL},
    };
    tl_dataset *d = tl_test_load("experiments/datasets/iris.arff", NULL);
    size_t n = d->n_rows;
    for (size_t s = 0; s < sizeof sets / sizeof *sets; s++) {
        char *text[3];
        tl_model *m[3];
        double *p[2] = {malloc(n * K * sizeof(double)), malloc(n * K * sizeof(double))};
        for (size_t jobs = 0; jobs < 2; jobs++) {
            tl_params pr;
            tl_err err;
            tl_params_init(&pr);
            for (const char *const *e = sets[s]; *e; e++)
                assert_int_equal(tl_params_set_kv(&pr, *e, &err), TL_OK);
            m[jobs] = tl_model_new("soft_forest", &pr, &err);
            tl_params_clear(&pr);
            assert_non_null(m[jobs]);
            tl_fit_ctx ctx = {.seed = 7, .jobs = jobs ? 4 : 1};
            assert_int_equal(tl_model_fit(m[jobs], d, NULL, n, &ctx, &err), TL_OK);
        }
        m[2] = tl_test_reload(m[0], &text[0]);
        tl_model_free(tl_test_reload(m[1], &text[1]));
        tl_model_free(tl_test_reload(m[2], &text[2]));
        assert_string_equal(text[0], text[1]);
        assert_string_equal(text[0], text[2]);
        tl_err err;
        assert_int_equal(tl_model_predict(m[0], d, NULL, n, p[0], &err), TL_OK);
        assert_int_equal(tl_model_predict(m[2], d, NULL, n, p[1], &err), TL_OK);
        assert_memory_equal(p[0], p[1], n * K * sizeof(double));
        for (size_t i = 0; i < 3; i++) {
            free(text[i]);
            tl_model_free(m[i]);
        }
        free(p[0]);
        free(p[1]);
    }
    tl_dataset_free(d);
    d = tl_test_load("experiments/datasets/iris.arff", "petalwidth");
    tl_model *r = tl_test_fitted("soft_forest", d, NULL);
    double *y = malloc(n * sizeof *y), se = 0, mean = 0, var = 0;
    tl_err err;
    assert_int_equal(tl_model_predict(r, d, NULL, n, y, &err), TL_OK);
    for (size_t i = 0; i < n; i++)
        mean += d->y.num[i] / (double)n;
    for (size_t i = 0; i < n; i++) {
        se += (y[i] - d->y.num[i]) * (y[i] - d->y.num[i]);
        var += (d->y.num[i] - mean) * (d->y.num[i] - mean);
    }
    print_message("petalwidth: training RMSE %.4f, sd %.4f\n", sqrt(se / (double)n),
                  sqrt(var / (double)n));
    assert_true(se < 0.1 * var);
    free(y);
    tl_model_free(r);
    tl_dataset_free(d);
}

/* Each variant against the PyTorch forest of the same design and hyper-parameters on the same
 * folds (tests/fixtures/soft_forest/cv.txt): within 3 points on iris and wine, 1.5 on breast
 * cancer. */
static void test_cv_against_torch(void **state)
{
    (void)state;
    static const char *const keys[] = {"gate", "shape", "leaf_update", NULL};
    size_t skipped = 0, checked = tl_test_cv_fixture("tests/fixtures/soft_forest/cv.txt",
                                                     "soft_forest", keys, NULL, SKIP_CV, &skipped);
    assert_int_equal(checked + skipped, 3 * 4);
    assert_true(checked >= 2 * 4);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_against_torch),
        cmocka_unit_test(test_skips),
        cmocka_unit_test(test_refused),
        cmocka_unit_test(test_files_and_determinism),
        cmocka_unit_test(test_cv_against_torch),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
