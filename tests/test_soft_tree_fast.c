/* The soft tree's vectorised exp, sigmoid and log-sigmoid against libm, and its float32 mode. */
#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../algorithms/models/soft_tree/soft_tree_impl.h"
#include "tl_test_util.h"
#include "treelab/tl_model.h"

/* Distance in units in the last place: doubles (floats) of one sign map to consecutive
 * integers, so the difference of the mapped values counts the representable numbers between. */
static int64_t ulp_key(double d)
{
    int64_t i;
    memcpy(&i, &d, sizeof i);
    return i < 0 ? INT64_MIN - i : i;
}

static int32_t ulp_key_f(float f)
{
    int32_t i;
    memcpy(&i, &f, sizeof i);
    return i < 0 ? INT32_MIN - i : i;
}

/* exp against glibc's over a dense grid of [-760, 760] (both ends overflow or underflow, the
 * subnormal range included) and [-2, 2], odd lengths so the vector loops' tails run too: 2 ulp
 * at most for double (Tang's table entries are rounded once, then the product), 1 for float. */
static void test_vexp_grid(void **state)
{
    (void)state;
    const size_t n = 2000003;
    double *x = malloc(n * sizeof *x), *y = malloc(n * sizeof *y);
    int64_t worst = 0;
    for (int range = 0; range < 2; range++) {
        double lo = range ? -2 : -760, hi = range ? 2 : 760;
        for (size_t i = 0; i < n; i++)
            x[i] = lo + (hi - lo) * (double)i / (double)(n - 1);
        st_vexp(x, y, n);
        for (size_t i = 0; i < n; i++) {
            int64_t d = llabs(ulp_key(y[i]) - ulp_key(exp(x[i])));
            if (d > 2)
                fail_msg("exp(%.17g): %.17g, libm %.17g (%lld ulp)", x[i], y[i], exp(x[i]),
                         (long long)d);
            worst = d > worst ? d : worst;
        }
    }
    printf("vector exp, double: at most %lld ulp from libm\n", (long long)worst);
    assert_true(worst >= 1); /* the grid does reach the rounded cases */
    float *xf = malloc(n * sizeof *xf), *yf = malloc(n * sizeof *yf);
    int32_t worst_f = 0;
    for (size_t i = 0; i < n; i++)
        xf[i] = (float)(-110 + 220.0 * (double)i / (double)(n - 1));
    st_vexp_f(xf, yf, n);
    for (size_t i = 0; i < n; i++) {
        int32_t d = abs(ulp_key_f(yf[i]) - ulp_key_f(expf(xf[i])));
        if (d > 1)
            fail_msg("expf(%.9g): %.9g, libm %.9g (%d ulp)", xf[i], yf[i], expf(xf[i]), d);
        worst_f = d > worst_f ? d : worst_f;
    }
    printf("vector exp, float: at most %d ulp from libm\n", worst_f);
    free(x);
    free(y);
    free(xf);
    free(yf);
}

/* Edges: exact 1 at 0, the last finite value and the first overflow, the subnormal range
 * down to the smallest (exp(-745.1) = 2^-1074) and 0 below, the infinities and NaN. */
static void test_vexp_edges(void **state)
{
    (void)state;
    const double x[] = {0,    -0.0,   1e-300, -1e-300, 709.78, 709.79, 710,      800,      -708.5,
                        -744, -745.1, -745.2, -800,    1e308,  -1e308, INFINITY, -INFINITY};
    enum { N = sizeof x / sizeof *x };
    double y[N + 1];
    st_vexp(x, y, N);
    for (size_t i = 0; i < N; i++)
        if (llabs(ulp_key(y[i]) - ulp_key(exp(x[i]))) > 1)
            fail_msg("exp(%g): %.17g, libm %.17g", x[i], y[i], exp(x[i]));
    assert_true(y[0] == 1.0 && isinf(y[5]) && y[9] > 0 && y[10] == 0x1p-1074 && y[11] == 0);
    double nan_in = NAN, nan_out;
    st_vexp(&nan_in, &nan_out, 1);
    assert_true(isnan(nan_out));
    const float xf[] = {0, 88.7f, 89, -87, -103, -104, -200, INFINITY, -INFINITY};
    float yf[9];
    st_vexp_f(xf, yf, 9);
    for (size_t i = 0; i < 9; i++)
        if (abs(ulp_key_f(yf[i]) - ulp_key_f(expf(xf[i]))) > 1)
            fail_msg("expf(%g): %.9g, libm %.9g", xf[i], yf[i], expf(xf[i]));
}

/* sigmoid within 4 ulp of 1 / (1 + exp(-z)) (z >= 0) or exp(z) / (1 + exp(z)) from libm;
 * log-sigmoid within 4 ulp of its libm form and exactly -800 and 0 at -800 and 800, where
 * log(sigmoid(z)) is -inf, for both precisions. */
static void test_sigmoid_and_log(void **state)
{
    (void)state;
    enum { N = 100001 };
    static double z[N], s[N], ls[N];
    for (size_t i = 0; i < N; i++)
        z[i] = -60 + 120.0 * (double)i / (N - 1);
    memcpy(s, z, sizeof z);
    st_vsigmoid(s, N);
    st_vlog_sigmoid(z, ls, N);
    for (size_t i = 0; i < N; i++) {
        double e = exp(-fabs(z[i])), want = z[i] >= 0 ? 1 / (1 + e) : e / (1 + e);
        double want_log = (z[i] < 0 ? z[i] : 0) - log1p(e);
        if (llabs(ulp_key(s[i]) - ulp_key(want)) > 4 ||
            llabs(ulp_key(ls[i]) - ulp_key(want_log)) > 4)
            fail_msg("z = %.17g: sigmoid %.17g (libm %.17g), log-sigmoid %.17g (libm %.17g)", z[i],
                     s[i], want, ls[i], want_log);
    }
    const double big[] = {800, -800, 40, -40};
    double lb[4], sb[4];
    st_vlog_sigmoid(big, lb, 4);
    memcpy(sb, big, sizeof big);
    st_vsigmoid(sb, 4);
    assert_true(lb[0] == 0 && lb[1] == -800);
    assert_close(lb[2], -exp(-40.0), 1e-30);
    assert_close(lb[3], -40 - exp(-40.0), 1e-13);
    assert_true(sb[0] == 1 && sb[1] == 0 && sb[2] == 1);
    assert_close(sb[3], exp(-40.0), 1e-30);
    const float bigf[] = {800, -800};
    float lf[2], sf[2] = {800, -800};
    st_vlog_sigmoid_f(bigf, lf, 2);
    st_vsigmoid_f(sf, 2);
    assert_true(lf[0] == 0 && lf[1] == -800 && sf[0] == 1 && sf[1] == 0);
}

/* The float passes give the double passes' objective and gradient to float precision (a
 * depth-3 tree, 3 classes, penalty and L2 on, 37 rows so the vector loops' tails run). */
static void test_float_gradient(void **state)
{
    (void)state;
    enum { D = 4, K = 3, B = 37 };
    double X[B * D], y[B], wt[B];
    unsigned long seed = 5;
    for (size_t i = 0; i < B * D; i++) {
        seed = seed * 6364136223846793005UL + 1442695040888963407UL;
        X[i] = (double)(seed >> 11) / 0x1p53 * 4 - 2;
    }
    for (size_t i = 0; i < B; i++) {
        y[i] = (double)(i % K);
        wt[i] = 0.5 + (double)(i % 5) / 4;
    }
    st_net net[2];
    memset(net, 0, sizeof net);
    tl_err err;
    double *g[2], f[2];
    for (int single = 0; single < 2; single++) {
        assert_int_equal(st_tree_full(&net[single].tree, 3, &err), TL_OK);
        net[single].n_in = D;
        net[single].n_out = K;
        net[single].beta = 1.5;
        net[single].single = single;
        assert_int_equal(st_net_alloc_theta(&net[single], &err), TL_OK);
        for (size_t k = 0; k < net[single].n_theta; k++)
            net[single].theta[k] = sin(1.7 * (double)k);
        st_work w;
        assert_int_equal(st_work_alloc(&w, &net[single], B, &err), TL_OK);
        st_objective obj = {ST_LOSS_MIXTURE, 0.3, 0.05};
        g[single] = malloc(net[single].n_theta * sizeof(double));
        f[single] = st_objective_grad(&net[single], &obj, &w, X, y, wt, B, g[single], NULL);
        st_work_clear(&w);
    }
    assert_close(f[1], f[0], 1e-6 * fabs(f[0]));
    double scale = 0;
    for (size_t k = 0; k < net[0].n_theta; k++)
        scale = fmax(scale, fabs(g[0][k]));
    for (size_t k = 0; k < net[0].n_theta; k++)
        if (!(fabs(g[1][k] - g[0][k]) <= 1e-5 * scale))
            fail_msg("parameter %zu: float %.9g, double %.9g", k, g[1][k], g[0][k]);
    for (int single = 0; single < 2; single++) {
        free(g[single]);
        st_net_clear(&net[single]);
    }
}

/* float32 trains and predicts as well as double: iris and wine meet the double model's
 * targets (0.95, 0.96) and stay within 0.02 of its accuracy on the same folds. */
static void test_float_accuracy(void **state)
{
    (void)state;
    static const char *const sets[] = {"experiments/datasets/iris.arff",
                                       "experiments/datasets/wine.arff"};
    static const double target[] = {0.95, 0.96};
    const char *const fl[] = {"precision=float", NULL}, *const db[] = {"precision=double", NULL};
    for (size_t i = 0; i < 2; i++) {
        double a_f = tl_test_cv_accuracy("soft_tree", sets[i], fl, 10);
        double a_d = tl_test_cv_accuracy("soft_tree", sets[i], db, 10);
        assert_true(a_f >= target[i]);
        assert_true(fabs(a_f - a_d) <= 0.02);
    }
}

/* A float32 model saved and loaded predicts the same bits (its parameters are saved in
 * double, the precision with the parameters), and refits to the same bits with the seed. */
static void test_float_save_load(void **state)
{
    (void)state;
    tl_dataset *d = tl_test_load("experiments/datasets/iris.arff", NULL);
    const char *kv[] = {"depth=3", "epochs=20", "precision=float", NULL};
    tl_err err;
    tl_model *m = tl_test_fit("soft_tree", d, kv, 7, &err),
             *again = tl_test_fit("soft_tree", d, kv, 7, &err);
    assert_non_null(m);
    assert_non_null(again);
    char *text;
    tl_model *back = tl_test_reload(m, &text);
    assert_non_null(strstr(text, "precision = \"float\""));
    free(text);
    size_t n = d->n_rows * 3;
    double *a = malloc(n * sizeof *a), *b = malloc(n * sizeof *b), *c = malloc(n * sizeof *c);
    assert_int_equal(tl_model_predict(m, d, NULL, 0, a, &err), TL_OK);
    assert_int_equal(tl_model_predict(back, d, NULL, 0, b, &err), TL_OK);
    assert_int_equal(tl_model_predict(again, d, NULL, 0, c, &err), TL_OK);
    assert_memory_equal(a, b, n * sizeof *a);
    assert_memory_equal(a, c, n * sizeof *a);
    free(a);
    free(b);
    free(c);
    tl_model_free(m);
    tl_model_free(again);
    tl_model_free(back);
    tl_dataset_free(d);
}

/* The products' own kernels (AVX-512) against BLAS on shapes that leave partial tiles and
 * masked lanes (M, B, D not multiples of 4, 8 or 16): the same sums in another order, so
 * within a few ulp of the operands' scale. Where the processor has no such kernels both
 * sides are BLAS and must agree exactly. Then a model fitted either way: the same labels and
 * probabilities within rounding. */
static void test_kernels_against_blas(void **state)
{
    (void)state;
    gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
    static const size_t shapes[][3] = {{255, 128, 20}, {7, 37, 3}, {1, 1, 1}, {13, 100, 9}};
    for (size_t t = 0; t < sizeof shapes / sizeof *shapes; t++) {
        size_t M = shapes[t][0], B = shapes[t][1], D = shapes[t][2];
        double *W = malloc(M * D * sizeof *W), *bias = malloc(M * sizeof *bias);
        double *XT = malloc(D * B * sizeof *XT), *gz = malloc(M * B * sizeof *gz);
        double *z[2], *gw[2];
        float *Wf = malloc(M * D * sizeof *Wf), *bf = malloc(M * sizeof *bf);
        float *XTf = malloc(D * B * sizeof *XTf), *zf[2];
        for (size_t i = 0; i < M * D; i++)
            Wf[i] = (float)(W[i] = gsl_ran_gaussian(rng, 1));
        for (size_t i = 0; i < M; i++)
            bf[i] = (float)(bias[i] = gsl_ran_gaussian(rng, 1));
        for (size_t i = 0; i < D * B; i++)
            XTf[i] = (float)(XT[i] = gsl_ran_gaussian(rng, 1));
        for (size_t i = 0; i < M * B; i++)
            gz[i] = gsl_ran_gaussian(rng, 1);
        for (int blas = 0; blas < 2; blas++) {
            st_gemm_force_blas(blas);
            z[blas] = malloc(M * B * sizeof **z);
            gw[blas] = malloc(M * D * sizeof **gw);
            zf[blas] = malloc(M * B * sizeof **zf);
            st_logits_d(M, B, D, 1.5, W, bias, XT, z[blas]);
            st_wgrad_d(M, D, B, gz, XT, gw[blas]);
            st_logits_f(M, B, D, 1.5f, Wf, bf, XTf, zf[blas]);
        }
        st_gemm_force_blas(0);
        double tol_d = st_gemm_has_kernels() ? 1e-13 : 0, tol_f = st_gemm_has_kernels() ? 1e-5 : 0;
        for (size_t i = 0; i < M * B; i++) {
            assert_close(z[0][i], z[1][i], tol_d * (double)(D + 1) * 4);
            assert_close(zf[0][i], zf[1][i], tol_f * (double)(D + 1) * 4);
        }
        for (size_t i = 0; i < M * D; i++)
            assert_close(gw[0][i], gw[1][i], tol_d * (double)B * 4);
        for (int blas = 0; blas < 2; blas++) {
            free(z[blas]);
            free(gw[blas]);
            free(zf[blas]);
        }
        free(W), free(bias), free(XT), free(gz), free(Wf), free(bf), free(XTf);
    }
    gsl_rng_free(rng);

    tl_dataset *d = tl_test_load("experiments/datasets/wine.arff", NULL);
    const char *kv[] = {"depth=4", "epochs=10", NULL};
    tl_err err;
    size_t n = d->n_rows * 3;
    double *p[2];
    for (int blas = 0; blas < 2; blas++) {
        st_gemm_force_blas(blas);
        tl_model *m = tl_test_fit("soft_tree", d, kv, 3, &err);
        assert_non_null(m);
        p[blas] = malloc(n * sizeof **p);
        assert_int_equal(tl_model_predict(m, d, NULL, 0, p[blas], &err), TL_OK);
        tl_model_free(m);
    }
    st_gemm_force_blas(0);
    for (size_t i = 0; i < n; i++)
        assert_close(p[0][i], p[1][i], 1e-9);
    free(p[0]);
    free(p[1]);
    tl_dataset_free(d);
}

/* A model file written before the passes changed (tests/fuzz/corpus/model/
 * soft_tree-weather.model, depth 2, no precision parameter: double) loads and predicts
 * weather.nominal as that code did: P(yes) per row from `treelab predict --proba` at commit
 * 9bd75b1; the new exp and summation order move them by a few 1e-17. */
static void test_old_model_loads(void **state)
{
    (void)state;
    static const double p_yes[14] = {0.33590260862160642, 0.21139363329113312, 0.76919314134662053,
                                     0.71224619663477684, 0.85025770523422717, 0.50276419864165867,
                                     0.85729000976808123, 0.64778223777533617, 0.81828010273296736,
                                     0.90411251183850527, 0.6600317667248019,  0.72863865399029315,
                                     0.91191772323468012, 0.34594511676127604};
    tl_err err;
    tl_model *m =
        tl_model_load(tl_test_path("tests/fuzz/corpus/model/soft_tree-weather.model"), &err);
    if (!m)
        fail_msg("%s", err.msg);
    tl_dataset *d = tl_test_load("experiments/datasets/weather.nominal.arff", NULL);
    double out[14 * 2];
    assert_int_equal(d->n_rows, 14);
    assert_int_equal(tl_model_predict(m, d, NULL, 0, out, &err), TL_OK);
    for (size_t i = 0; i < 14; i++)
        assert_close(out[2 * i], p_yes[i], 1e-15);
    tl_model_free(m);
    tl_dataset_free(d);
}

/* A bad precision names the valid ones. */
static void test_bad_precision(void **state)
{
    (void)state;
    tl_test_refused("soft_tree", "precision", "half",
                    "parameter precision: 'half' is not one of double|float");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_vexp_grid),
        cmocka_unit_test(test_vexp_edges),
        cmocka_unit_test(test_sigmoid_and_log),
        cmocka_unit_test(test_float_gradient),
        cmocka_unit_test(test_float_accuracy),
        cmocka_unit_test(test_float_save_load),
        cmocka_unit_test(test_old_model_loads),
        cmocka_unit_test(test_bad_precision),
        cmocka_unit_test(test_kernels_against_blas),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
