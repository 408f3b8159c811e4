/* Soft decision tree: gradients against finite differences, a learned threshold,
 * determinism, model files, and cross-validated accuracy on the bundled datasets. */
#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../algorithms/models/soft_tree_impl.h"
#include "tl_test_util.h"
#include "treelab/tl_model.h"

static char *dup_s(const char *s)
{
    char *d = malloc(strlen(s) + 1);
    strcpy(d, s);
    return d;
}

/* A dataset of n rows with p numeric attributes x0.. (row-major X) and a nominal target of
 * k classes c0.. (k = 0: numeric target). */
static tl_dataset *make_data(const double *X, const double *y, size_t n, size_t p, size_t k)
{
    tl_dataset *d = calloc(1, sizeof *d);
    d->name = dup_s("hand");
    d->n_rows = n;
    d->schema.n_attrs = p;
    d->schema.attrs = calloc(p, sizeof *d->schema.attrs);
    d->cols = calloc(p, sizeof *d->cols);
    for (size_t j = 0; j < p; j++) {
        char name[16];
        snprintf(name, sizeof name, "x%zu", j);
        d->schema.attrs[j].name = dup_s(name);
        d->cols[j].num = malloc(n * sizeof(double));
        for (size_t i = 0; i < n; i++)
            d->cols[j].num[i] = X[i * p + j];
    }
    d->schema.target.name = dup_s("y");
    if (k) {
        d->schema.target.kind = TL_ATTR_NOMINAL;
        d->schema.target.n_levels = k;
        d->schema.target.levels = calloc(k, sizeof(char *));
        for (size_t c = 0; c < k; c++) {
            char name[16];
            snprintf(name, sizeof name, "c%zu", c);
            d->schema.target.levels[c] = dup_s(name);
        }
        d->y.code = malloc(n * sizeof(int));
        for (size_t i = 0; i < n; i++)
            d->y.code[i] = (int)y[i];
    } else {
        d->y.num = malloc(n * sizeof(double));
        memcpy(d->y.num, y, n * sizeof(double));
    }
    return d;
}

/* ---- gradients ---- */

/* An unbalanced tree: root -> (inner 1 -> (leaf, inner 3 -> (leaf, leaf)), leaf). */
static void lopsided(st_tree *t)
{
    const int left[] = {1, 3, -1, 5, -1, -1, -1}, right[] = {2, 4, -1, 6, -1, -1, -1};
    tl_err err;
    assert_int_equal(st_tree_from_children(t, left, right, 7, &err), TL_OK);
    assert_int_equal(t->n_inner, 3);
    assert_int_equal(t->n_leaves, 4);
}

/* Every parameter's analytic derivative against a central difference, to 1e-6 relative
 * (absolute below 1e-6, where the difference itself carries ~1e-10 noise). */
static double check_grad(st_net *net, const st_objective *obj, const double *X, const double *y,
                         const double *wt, size_t B, const st_objective *minus)
{
    tl_err err;
    st_work w;
    assert_int_equal(st_work_alloc(&w, net, B, &err), TL_OK);
    double *g = malloc(net->n_theta * sizeof *g), *g2 = malloc(net->n_theta * sizeof *g2);
    st_objective_grad(net, obj, &w, X, y, wt, B, g, NULL);
    if (minus) { /* the gradient of obj minus that of `minus`: one term on its own */
        st_objective_grad(net, minus, &w, X, y, wt, B, g2, NULL);
        for (size_t k = 0; k < net->n_theta; k++)
            g[k] -= g2[k];
    }
    double worst = 0, h = 1e-5;
    for (size_t k = 0; k < net->n_theta; k++) {
        double keep = net->theta[k];
        net->theta[k] = keep + h;
        double fp = st_objective_grad(net, obj, &w, X, y, wt, B, NULL, NULL);
        if (minus)
            fp -= st_objective_grad(net, minus, &w, X, y, wt, B, NULL, NULL);
        net->theta[k] = keep - h;
        double fm = st_objective_grad(net, obj, &w, X, y, wt, B, NULL, NULL);
        if (minus)
            fm -= st_objective_grad(net, minus, &w, X, y, wt, B, NULL, NULL);
        net->theta[k] = keep;
        double fd = (fp - fm) / (2 * h), scale = fmax(fmax(fabs(g[k]), fabs(fd)), 1.0);
        double rel = fabs(g[k] - fd) / scale;
        if (rel > 1e-6)
            fail_msg("parameter %zu of %zu: analytic %.12g, finite difference %.12g", k,
                     net->n_theta, g[k], fd);
        worst = fmax(worst, rel);
    }
    free(g);
    free(g2);
    st_work_clear(&w);
    return worst;
}

static void random_problem(gsl_rng *r, st_net *net, size_t D, size_t K, int regression,
                           double *X, double *y, double *wt, size_t B)
{
    tl_err err;
    net->n_in = D;
    net->n_out = regression ? 1 : K;
    net->regression = regression;
    net->beta = 1.7;
    assert_int_equal(st_net_alloc_theta(net, &err), TL_OK);
    for (size_t k = 0; k < net->n_theta; k++)
        net->theta[k] = gsl_ran_gaussian(r, 0.8);
    for (size_t i = 0; i < B * D; i++)
        X[i] = gsl_ran_gaussian(r, 1.0);
    for (size_t i = 0; i < B; i++) {
        y[i] = regression ? gsl_ran_gaussian(r, 1.0) : (double)gsl_rng_uniform_int(r, K);
        wt[i] = 0.5 + gsl_rng_uniform(r);
    }
}

static void test_gradients(void **state)
{
    (void)state;
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(r, 7);
    enum { D = 3, K = 3, B = 9 };
    double X[B * D], y[B], wt[B];
    size_t checked = 0;
    for (int shape = 0; shape < 2; shape++) {
        for (int regression = 0; regression < 2; regression++) {
            for (int loss = 0; loss < 2; loss++) {
                st_net net = {0};
                tl_err err;
                if (shape)
                    lopsided(&net.tree);
                else
                    assert_int_equal(st_tree_full(&net.tree, 2, &err), TL_OK);
                random_problem(r, &net, D, K, regression, X, y, wt, B);
                st_objective data = {(st_loss_kind)loss, 0, 0};
                st_objective all = {(st_loss_kind)loss, 0.3, 0.05};
                check_grad(&net, &data, X, y, wt, B, NULL);  /* the loss alone */
                check_grad(&net, &all, X, y, NULL, B, NULL); /* loss + penalty + L2 */
                st_objective pen = {(st_loss_kind)loss, 0.3, 0};
                check_grad(&net, &pen, X, y, wt, B, &data);  /* the penalty alone */
                checked += 3 * net.n_theta;
                st_net_clear(&net);
            }
        }
    }
    assert_true(checked > 300);
    gsl_rng_free(r);
}

/* A depth-1 tree by hand: x = 0 gives p = sigmoid(beta b); the mixture and both losses
 * follow from the leaf softmaxes. */
static void test_forward_by_hand(void **state)
{
    (void)state;
    tl_err err;
    st_net net = {0};
    assert_int_equal(st_tree_full(&net.tree, 1, &err), TL_OK);
    net.n_in = 1;
    net.n_out = 2;
    net.beta = 2.0;
    assert_int_equal(st_net_alloc_theta(&net, &err), TL_OK);
    /* W = 0.5, b = ln(3)/2: p = sigmoid(2 * (0.5 * 0 + ln 3 / 2)) = 3/4 */
    double theta[] = {0.5, log(3.0) / 2, 0.0, log(4.0), log(4.0), 0.0};
    memcpy(net.theta, theta, sizeof theta);
    st_work w;
    assert_int_equal(st_work_alloc(&w, &net, 1, &err), TL_OK);
    double x = 0.0, y = 0.0;
    /* left leaf (1/5, 4/5) with 1/4, right leaf (4/5, 1/5) with 3/4: Y0 = 0.05 + 0.6 = 0.65 */
    st_objective mix = {ST_LOSS_MIXTURE, 0, 0}, exp_ = {ST_LOSS_EXPECTED, 0, 0};
    assert_close(st_objective_grad(&net, &mix, &w, &x, &y, NULL, 1, NULL, NULL), -log(0.65),
                 1e-14);
    assert_close(w.Y[0], 0.65, 1e-14);
    assert_close(st_objective_grad(&net, &exp_, &w, &x, &y, NULL, 1, NULL, NULL),
                 -(0.25 * log(0.2) + 0.75 * log(0.8)), 1e-14);
    /* one row: a = p = 3/4, penalty = -lambda (ln 3/4 + ln 1/4) / 2 */
    st_objective pen = {ST_LOSS_MIXTURE, 2.0, 0};
    assert_close(st_objective_grad(&net, &pen, &w, &x, &y, NULL, 1, NULL, NULL),
                 -log(0.65) - (log(0.75) + log(0.25)), 1e-14);
    st_work_clear(&w);
    st_net_clear(&net);
}

/* ---- learning ---- */

static tl_model *new_model(const char *const *kv)
{
    tl_params p;
    tl_err err;
    tl_params_init(&p);
    for (; kv && *kv; kv++)
        assert_int_equal(tl_params_set_kv(&p, *kv, &err), TL_OK);
    tl_model *m = tl_model_new("soft_tree", &p, &err);
    if (!m)
        fail_msg("%s", err.msg);
    tl_params_clear(&p);
    return m;
}

static void fit_or_fail(tl_model *m, const tl_dataset *d, unsigned long seed)
{
    tl_err err;
    tl_fit_ctx ctx = {seed, NULL, 0};
    if (tl_model_fit(m, d, NULL, 0, &ctx, &err))
        fail_msg("fit: %s", err.msg);
}

/* Separable on one attribute: classes split at 3.7, rows every 0.01 either side (3.70
 * itself left out), so the best boundary is 3.70. */
static tl_dataset *threshold_data(void)
{
    enum { N = 740 };
    double X[N], y[N];
    size_t n = 0;
    for (int i = 0; i <= 740; i++) {
        if (i == 370)
            continue;
        X[n] = i / 100.0;
        y[n++] = i > 370;
    }
    return make_data(X, y, n, 1, 2);
}

static void test_threshold(void **state)
{
    (void)state;
    tl_dataset *d = threshold_data();
    const char *kv[] = {"depth=1", "beta=20", "epochs=200", "lambda=0", NULL};
    tl_model *m = new_model(kv);
    fit_or_fail(m, d, 3);
    const soft_tree *st = m->state;
    const st_net *net = &st->net;
    /* z = beta (w (x - mean) / sd + b) = 0 */
    double w = st_W(net)[0], b = st_b(net)[0];
    double t = st->enc.mean[0] - b * st->enc.sd[0] / w;
    printf("depth-1 threshold learned: %.6f (target 3.70)\n", t);
    assert_close(t, 3.70, 1e-2);
    tl_model_info info;
    tl_model_get_info(m, &info);
    assert_int_equal(info.leaves, 2);
    assert_int_equal(info.depth, 1);
    tl_model_free(m);
    tl_dataset_free(d);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_forward_by_hand),
        cmocka_unit_test(test_gradients),
        cmocka_unit_test(test_threshold),
    };
    gsl_set_error_handler_off();
    return cmocka_run_group_tests(tests, NULL, NULL);
}
