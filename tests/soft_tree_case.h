/* The soft tree's fixed gradient problem (scripts/peers/torch_soft_tree_grad.py) shared by its
 * tests: the batch, the nets of its cases, finite differences and the PyTorch fixture check. */
#ifndef TL_TEST_SOFT_TREE_CASE_H
#define TL_TEST_SOFT_TREE_CASE_H

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../algorithms/models/soft_tree/soft_tree_impl.h"
#include "tl_test_util.h"
#include "treelab/tl_model.h"

/* The fixed problem of scripts/peers/torch_soft_tree_grad.py. */
enum { D = 3, K = 3, B = 9 };
#define BETA 1.7
#define GAMMA 1.5
#define LEAF_L2 0.07
#define L1 0.04

static inline void problem(int regression, double *X, double *y, double *wt)
{
    for (size_t r = 0; r < B; r++) {
        for (size_t j = 0; j < D; j++)
            X[r * D + j] = sin(0.7 * (double)(r * D + j) + 0.3) * 1.5;
        y[r] = regression ? cos(1.1 * (double)r) : (double)((r * 7 + 3) % K);
        wt[r] = 0.5 + 0.1 * (double)(r % 5);
    }
}

/* The net of a case: gate, tree (full depth 2, the lopsided one, oblivious depth 3) and the
 * script's parameters theta[k] = 0.8 sin(1.3 k + 0.5). */
static inline void make_net_leaf(st_net *net, const char *gate, const char *shape, int regression,
                                 const st_leaf_type *leaf)
{
    static const int lop_l[] = {1, 3, -1, 5, -1, -1, -1}, lop_r[] = {2, 4, -1, 6, -1, -1, -1};
    tl_err err;
    memset(net, 0, sizeof *net);
    net->gate = st_gate_find(gate);
    assert_non_null(net->gate);
    net->gate_par[0] = GAMMA;
    net->gate_par[1] = 1 / GAMMA;
    net->shape = !strcmp(shape, "oblivious") ? &st_shape_oblivious
                 : !strcmp(shape, "sparse")  ? &st_shape_sparse
                                             : &st_shape_full;
    net->shape_par[0] = L1;
    if (!strcmp(shape, "lopsided"))
        assert_int_equal(st_tree_from_children(&net->tree, lop_l, lop_r, 7, &err), TL_OK);
    else
        assert_int_equal(st_tree_full(&net->tree, strcmp(shape, "oblivious") ? 2 : 3, &err), TL_OK);
    net->n_in = D;
    net->n_out = regression ? 1 : K;
    net->regression = regression;
    net->beta = BETA;
    net->leaf = leaf;
    net->leaf_par[0] = LEAF_L2;
    assert_int_equal(st_net_alloc_theta(net, &err), TL_OK);
    for (size_t k = 0; k < net->n_theta; k++)
        net->theta[k] = 0.8 * sin(1.3 * (double)k + 0.5);
}

static inline void make_net(st_net *net, const char *gate, const char *shape, int regression)
{
    make_net_leaf(net, gate, shape, regression, NULL);
}

/* Objective (and gradient when g) of the case's batch. */
static inline double objective(st_net *net, st_work *w, const st_objective *obj, int regression,
                               double *g)
{
    double X[B * D], y[B], wt[B];
    problem(regression, X, y, wt);
    return st_objective_grad(net, obj, w, X, y, wt, B, g, NULL);
}

/* Central differences of every parameter against the analytic gradient g, to 1e-6 relative
 * (absolute below 1); returns how many parameters had a nonzero derivative. */
static inline size_t finite_differences(st_net *net, st_work *w, const st_objective *obj,
                                        int regression, const double *g)
{
    size_t moving = 0;
    for (size_t k = 0; k < net->n_theta; k++) {
        double keep = net->theta[k], h = 1e-6;
        net->theta[k] = keep + h;
        double fp = objective(net, w, obj, regression, NULL);
        net->theta[k] = keep - h;
        double fm = objective(net, w, obj, regression, NULL);
        net->theta[k] = keep;
        double fd = (fp - fm) / (2 * h);
        if (fabs(g[k] - fd) > 1e-6 * fmax(1.0, fabs(fd)))
            fail_msg("parameter %zu: analytic %.12g, finite difference %.12g", k, g[k], fd);
        moving += g[k] != 0;
    }
    return moving;
}

/* Every line of the PyTorch fixture: the objective and every derivative within 1e-10
 * relative (of 1e-3 at least), and the same gradient by finite differences. For the gates
 * that reach 0 and 1 the batch must have skipped subtrees (conditional computation) and
 * still kept some splits inside the band. `trees`: how many of the trees (full, lopsided,
 * oblivious; sparse) the fixture has, each with 3 gates x 2 tasks x 2 losses. */
static inline void against_torch(const char *fixture, const st_leaf_type *leaf, size_t trees)
{
    FILE *f = fopen(tl_test_path(fixture), "r");
    assert_non_null(f);
    char line[16384];
    size_t cases = 0, skipped_cases = 0;
    while (fgets(line, sizeof line, f)) {
        if (line[0] == '#')
            continue;
        char gate[32], shape[32], task[32], loss[32];
        int used;
        double want;
        assert_int_equal(
            sscanf(line, "%31s %31s %31s %31s %lf%n", gate, shape, task, loss, &want, &used), 5);
        int regression = !strcmp(task, "regression");
        st_net net;
        make_net_leaf(&net, gate, shape, regression, leaf);
        st_objective obj = {!strcmp(loss, "expected") ? ST_LOSS_EXPECTED : ST_LOSS_MIXTURE, 0.3,
                            0.05};
        tl_err err;
        st_work w;
        assert_int_equal(st_work_alloc(&w, &net, B, &err), TL_OK);
        double *g = malloc(net.n_theta * sizeof *g);
        double got = objective(&net, &w, &obj, regression, g);
        assert_true(finite_differences(&net, &w, &obj, regression, g) > net.n_theta / 3);
        if (fabs(got - want) > 1e-10 * fabs(want))
            fail_msg("%s %s %s %s: objective %.17g, torch %.17g", gate, shape, task, loss, got,
                     want);
        const char *at = line + used;
        for (size_t k = 0; k < net.n_theta; k++) {
            char *end;
            double t = strtod(at, &end);
            assert_true(end != at);
            at = end;
            if (fabs(g[k] - t) > 1e-10 * fmax(fabs(t), 1e-3))
                fail_msg("%s %s %s %s: parameter %zu: %.17g, torch %.17g", gate, shape, task, loss,
                         k, g[k], t);
        }
        assert_true(finite_differences(&net, &w, &obj, regression, g) > net.n_theta / 3);
        if (strcmp(gate, "sigmoid")) {
            size_t reached = w.e.start[B], band = 0;
            for (size_t i = 0; i < reached; i++)
                band += w.e.pos[i] < (int)net.tree.n_inner && w.e.p[i] > 0 && w.e.p[i] < 1;
            assert_true(band > 0);
            skipped_cases += reached < B * net.tree.n_nodes;
        }
        free(g);
        st_work_clear(&w);
        st_net_clear(&net);
        cases++;
    }
    fclose(f);
    assert_int_equal(cases, trees * 3 * 2 * 2);
    assert_int_equal(skipped_cases, trees * 2 * 2 * 2);
}

/* Each line "cv NAME GATE SHAPE ACCURACY" of a PyTorch CV fixture (scripts/peers/
 * torch_soft_tree_cv.py) against treelab refitted on its folds with gate, shape and extra (a
 * KEY=VALUE, or NULL), as tl_test_cv_fixture. Returns the lines checked. */
static inline size_t cv_against_torch(const char *fixture, const char *extra)
{
    static const char *const keys[] = {"gate", "shape", NULL};
    return tl_test_cv_fixture(fixture, "soft_tree", keys, extra, NULL, NULL);
}

/* Each pair of KEY=VALUE settings refused by soft_tree with a message naming cases[i][2]. */
static inline void refused_pairs(const char *const (*cases)[3], size_t n)
{
    for (size_t i = 0; i < n; i++) {
        tl_params p;
        tl_params_init(&p);
        tl_err err;
        assert_int_equal(tl_params_set_kv(&p, cases[i][0], &err), TL_OK);
        assert_int_equal(tl_params_set_kv(&p, cases[i][1], &err), TL_OK);
        tl_model *m = tl_model_new("soft_tree", &p, &err);
        tl_params_clear(&p);
        assert_null(m);
        if (!strstr(err.msg, cases[i][2]))
            fail_msg("%s, %s: '%s'", cases[i][0], cases[i][1], err.msg);
    }
}

#endif
