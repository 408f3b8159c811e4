/* The pruner plug-ins' worked examples: minimum-error, pessimistic, critical value, chi-square
 * pre-pruning, optimal pruning and cost-complexity on validation rows. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tl_test_util.h"
#include "treelab/tl_grow.h"
#include "treelab/tl_model.h"

/* ---- minimum-error pruning ---- */

/* Hand computations, k = 2 classes. Tree 1: a root (15, 5) over leaves (10, 0) and (5, 5).
 * Laplace (Niblett & Bratko): the root as a leaf (20 - 15 + 1) / 22 = 0.2727; its branches
 * 10/20 * (10 - 10 + 1)/12 + 10/20 * (10 - 5 + 1)/12 = 0.2917 > 0.2727: pruned. The
 * m-estimate at m = 2 with the root's priors 3/4, 1/4: as a leaf 1 - (15 + 1.5)/22 = 0.25;
 * branches 1/2 (1 - 11.5/12) + 1/2 (1 - 6.5/12) = 0.25: a tie, and ties prune.
 * Tree 2: a root (10, 10) over (10, 0) and (0, 10). Laplace: 11/22 = 0.5 against 1/12 on
 * both branches: kept; the m-estimate (m = 2, priors 1/2): 1 - 11/22 = 0.5 against
 * 1 - 11/12 = 1/12: kept. */
static tl_tree *two_leaf_tree(const double *root, const double *l, const double *r)
{
    tl_err err;
    tl_tree *t = tl_tree_alloc(2, 0, 4, &err);
    tl_tree_add_nodes(t, 1, SIZE_MAX, &err);
    size_t first = tl_tree_add_nodes(t, 2, 0, &err);
    t->attr[0] = 0;
    t->kind[0] = TL_SPLIT_NUMERIC;
    t->threshold[0] = 0.5;
    t->first_child[0] = first;
    t->n_children[0] = 2;
    memcpy(t->stats, root, 2 * sizeof *root);
    memcpy(t->stats + 2, l, 2 * sizeof *l);
    memcpy(t->stats + 4, r, 2 * sizeof *r);
    return t;
}

static size_t mep_leaves(const double *root, const double *l, const double *r, const char *est,
                         const char *m)
{
    const tl_pruner_type *pr = tl_pruner_find("minimum_error", NULL);
    tl_params p;
    tl_params_init(&p);
    tl_err err;
    tl_params_set(&p, "estimate", est, &err);
    tl_params_set(&p, "m", m, &err);
    void *st = pr->init(&p, &err);
    tl_tree *t = two_leaf_tree(root, l, r);
    tl_prune_trace tr = {0};
    tl_prune_trace_reset(&tr);
    tl_prune_input in = {0};
    assert_int_equal(pr->prune(st, t, &in, &tr, &err), TL_OK);
    size_t leaves = tl_tree_leaves(t, 0);
    assert_int_equal(tr.n, 2);
    assert_close(tr.leaves[0], 2, 0);
    assert_close(tr.leaves[1], (double)leaves, 0);
    tl_prune_trace_free(&tr);
    tl_tree_free(t);
    pr->free(st);
    tl_params_clear(&p);
    return leaves;
}

static void test_minimum_error_worked_example(void **state)
{
    (void)state;
    double root[2] = {15, 5}, l[2] = {10, 0}, r[2] = {5, 5};
    assert_int_equal(mep_leaves(root, l, r, "laplace", "2"), 1);
    assert_int_equal(mep_leaves(root, l, r, "m", "2"), 1);
    double root2[2] = {10, 10}, l2[2] = {10, 0}, r2[2] = {0, 10};
    assert_int_equal(mep_leaves(root2, l2, r2, "laplace", "2"), 2);
    assert_int_equal(mep_leaves(root2, l2, r2, "m", "2"), 2);
}

/* PEP by hand (Quinlan 1987). A node of 20 training rows (18, 2) over leaves (5, 0), (4, 1),
 * (4, 0), (5, 1): the subtree's corrected errors 2 + 4/2 = 4, SE = sqrt(4 * 16 / 20) = 1.789;
 * as a leaf 2 + 1/2 = 2.5 <= 5.789: pruned. A node (14, 6) over (5, 0), (0, 5), (5, 0), (4, 1):
 * the subtree 1 + 4/2 = 3, SE = sqrt(3 * 17 / 20) = 1.597; as a leaf 6.5 > 4.597: kept. */
static tl_tree *four_leaf_tree(const double leaves[4][2])
{
    tl_err err;
    tl_tree *t = tl_tree_alloc(2, 0, 8, &err);
    tl_tree_add_nodes(t, 1, SIZE_MAX, &err);
    size_t first = tl_tree_add_nodes(t, 4, 0, &err);
    t->attr[0] = 0;
    t->kind[0] = TL_SPLIT_MULTIWAY;
    t->first_child[0] = first;
    t->n_children[0] = 4;
    for (size_t b = 0; b < 4; b++)
        for (size_t c = 0; c < 2; c++) {
            t->stats[(first + b) * 2 + c] = leaves[b][c];
            t->stats[c] += leaves[b][c];
        }
    return t;
}

static void test_pessimistic_worked_example(void **state)
{
    (void)state;
    const tl_pruner_type *pr = tl_pruner_find("pessimistic", NULL);
    const double prunable[4][2] = {{5, 0}, {4, 1}, {4, 0}, {5, 1}};
    const double kept[4][2] = {{5, 0}, {0, 5}, {5, 0}, {4, 1}};
    const double(*cases[2])[2] = {prunable, kept};
    size_t want[2] = {1, 4};
    for (int i = 0; i < 2; i++) {
        tl_err err;
        tl_tree *t = four_leaf_tree(cases[i]);
        tl_prune_trace tr = {0};
        tl_prune_trace_reset(&tr);
        tl_prune_input in = {0};
        assert_int_equal(pr->prune(NULL, t, &in, &tr, &err), TL_OK);
        assert_int_equal(tl_tree_leaves(t, 0), want[i]);
        tl_prune_trace_free(&tr);
        tl_tree_free(t);
    }
}

/* A root over nodes 1 and 2, each split in two when split1 / split2 (on attribute 0, numeric:
 * the root at 0.5, node 1 at -0.5, node 2 at 1.5); stats in node order (k = 2). */
static tl_tree *small_tree(const double (*stats)[2], int split1, int split2)
{
    tl_err err;
    tl_tree *t = tl_tree_alloc(2, 0, 8, &err);
    tl_tree_add_nodes(t, 1, SIZE_MAX, &err);
    const double thr[3] = {0.5, -0.5, 1.5};
    int split[3] = {1, split1, split2};
    for (size_t i = 0; i < 3; i++) {
        if (!split[i])
            continue;
        size_t first = tl_tree_add_nodes(t, 2, i, &err);
        t->attr[i] = 0;
        t->kind[i] = TL_SPLIT_NUMERIC;
        t->threshold[i] = thr[i];
        t->first_child[i] = first;
        t->n_children[i] = 2;
    }
    memcpy(t->stats, stats, t->n_nodes * 2 * sizeof *t->stats);
    return t;
}

/* Run pruner name with parameters kv ("key=value", NULL-terminated) on t; the trace in tr. */
static void run_pruner(const char *name, const char *const *kv, tl_tree *t,
                       const tl_prune_input *in, tl_prune_trace *tr)
{
    const tl_pruner_type *pr = tl_pruner_find(name, NULL);
    assert_non_null(pr);
    tl_params p;
    tl_params_init(&p);
    tl_err err;
    for (; kv && *kv; kv++)
        tl_params_set_kv(&p, *kv, &err);
    void *st = pr->init ? pr->init(&p, &err) : NULL;
    if (pr->init && !st)
        fail_msg("%s: %s", name, err.msg);
    tl_prune_trace_reset(tr);
    tl_prune_input none = {0};
    if (pr->prune(st, t, in ? in : &none, tr, &err))
        fail_msg("%s: %s", name, err.msg);
    if (pr->free)
        pr->free(st);
    tl_params_clear(&p);
}

/* ---- critical value pruning ---- */

/* CVP by hand (Mingers 1987). A root (10, 10) over node 1 (6, 4) and a leaf (4, 6); node 1
 * over leaves (4, 2) and (2, 2).
 * Gain in bits: the root 1 - H(0.6) = 1 - 0.970951 = 0.029049; node 1 H(0.6) - (0.6 H(2/3) +
 * 0.4 H(1/2)) = 0.970951 - 0.950978 = 0.019973. At threshold 0.05 neither passes: the root
 * alone (1 leaf); at 0.025 the root passes and node 1 does not (2 leaves); at 0.01 both pass
 * (3 leaves).
 * Gini decrease: the root 0.5 - 0.48 = 0.02, node 1 0.48 - (0.6 * 4/9 + 0.4 * 1/2) = 0.013333:
 * at 0.015, 2 leaves.
 * Chi-square p-values (df 1): the root, table (6, 4 | 4, 6), X2 = 4 * 1^2 / 5 = 0.8,
 * p = 0.371093; node 1, table (4, 2 | 2, 2), expected (3.6, 2.4 | 2.4, 1.6),
 * X2 = 0.16 (1/3.6 + 2/2.4 + 1/1.6) = 0.277778, p = 0.598161. At 0.5: 2 leaves; 0.05: 1 leaf;
 * 0.6: 3 leaves.
 * A passing node keeps its ancestors: with node 1 over (6, 0) and (0, 4) (gain 0.970951), the
 * root (gain 0.029049 < 0.05) stays split: 3 leaves. */
static size_t cvp_leaves(const double (*stats)[2], const char *measure, const char *threshold)
{
    char m[64], th[64];
    snprintf(m, sizeof m, "measure=%s", measure);
    snprintf(th, sizeof th, "threshold=%s", threshold);
    const char *kv[] = {m, th, NULL};
    tl_tree *t = small_tree(stats, 1, 0);
    tl_prune_trace tr = {0};
    run_pruner("critical_value", kv, t, NULL, &tr);
    size_t leaves = tl_tree_leaves(t, 0);
    assert_int_equal(tr.n, 2);
    assert_close(tr.leaves[0], 3, 0);
    assert_close(tr.leaves[1], (double)leaves, 0);
    assert_close(tr.chosen_param, atof(threshold), 0);
    tl_prune_trace_free(&tr);
    tl_tree_free(t);
    return leaves;
}

static void test_critical_value_worked_example(void **state)
{
    (void)state;
    const double weak[5][2] = {{10, 10}, {6, 4}, {4, 6}, {4, 2}, {2, 2}};
    const double strong[5][2] = {{10, 10}, {6, 4}, {4, 6}, {6, 0}, {0, 4}};
    assert_int_equal(cvp_leaves(weak, "gain", "0.05"), 1);
    assert_int_equal(cvp_leaves(weak, "gain", "0.025"), 2);
    assert_int_equal(cvp_leaves(weak, "gain", "0.01"), 3);
    assert_int_equal(cvp_leaves(weak, "gain", "0.0291"), 1); /* just above the root's gain */
    assert_int_equal(cvp_leaves(weak, "gain", "0.0290"), 2);
    assert_int_equal(cvp_leaves(weak, "gini", "0.015"), 2);
    assert_int_equal(cvp_leaves(weak, "gini", "0.013"), 3);
    assert_int_equal(cvp_leaves(weak, "chi_square", "0.5"), 2);
    assert_int_equal(cvp_leaves(weak, "chi_square", "0.05"), 1);
    assert_int_equal(cvp_leaves(weak, "chi_square", "0.6"), 3);
    assert_int_equal(cvp_leaves(weak, "chi_square", "0.371"), 1); /* p = 0.371093 */
    assert_int_equal(cvp_leaves(weak, "chi_square", "0.3711"), 2);
    assert_int_equal(cvp_leaves(strong, "gain", "0.05"), 3);
}

/* ---- chi-square pre-pruning ---- */

/* ID3's test by hand: 20 rows, a = x: 6 p, 4 n; a = y: 4 p, 6 n. X2 = 4 * 1^2 / 5 = 0.8 with
 * df 1, p = erfc(sqrt(0.4)) = 0.371093: split at alpha = 0.372, not at 0.371 nor 0.05. */
static void test_chi_square_worked_example(void **state)
{
    (void)state;
    char csv_text[512] = "a,y\n";
    const char *rows[4] = {"x,p\n", "x,n\n", "y,p\n", "y,n\n"};
    const int count[4] = {6, 4, 4, 6};
    for (int r = 0; r < 4; r++)
        for (int i = 0; i < count[r]; i++)
            strcat(csv_text, rows[r]);
    const char *csv = tl_test_tmpfile(".csv", csv_text);
    tl_err err;
    tl_dataset *d = tl_dataset_load(csv, NULL, &err);
    assert_non_null(d);
    assert_close(erfc(sqrt(0.4)), 0.371093, 1e-6);
    const char *alphas[] = {"0.05", "0.371", "0.372", "1"};
    const size_t want[] = {1, 1, 2, 2};
    for (int i = 0; i < 4; i++) {
        char a[64];
        snprintf(a, sizeof a, "pruner.alpha=%s", alphas[i]);
        const char *kv[] = {"criterion=entropy", "pruner=chi_square", a, NULL};
        tl_model *m = tl_test_fit("tree", d, kv, 1, &err);
        if (!m)
            fail_msg("%s", err.msg);
        assert_int_equal(tl_tree_leaves(tl_model_tree(m), 0), want[i]);
        const tl_prune_trace *tr = tl_model_prune_trace(m);
        assert_int_equal(tr->n, 1);
        assert_close(tr->leaves[0], (double)want[i], 0);
        tl_model_free(m);
    }
    tl_dataset_free(d);
    remove(csv);
}

/* ---- optimal pruning ---- */

/* OPT by hand (Bohanec & Bratko 1994). A root (8, 10) over node 1 (6, 4) and node 2 (2, 6);
 * node 1 over (5, 0) and (1, 4), node 2 over (1, 3) and (1, 3). Training errors as leaves:
 * root 8, node 1 4, node 2 2; node 1's table E[1] = 4, E[2] = 1; node 2's E[1] = 2, E[2] = 2.
 * The root: E[1] = 8, E[2] = 4 + 2 = 6, E[3] = min(1 + 2, 4 + 2) = 3, E[4] = 1 + 2 = 3. The
 * curve (leaves: errors / 18): 4: 3, 3: 3, 2: 6, 1: 8. leaves = 0 keeps the smallest of the
 * fewest errors, 3 leaves (node 2 pruned, node 1 kept); leaves = 2: 2 leaves (6 errors);
 * leaves = 1: the root. */
static void test_optimal_worked_example(void **state)
{
    (void)state;
    const double stats[7][2] = {{8, 10}, {6, 4}, {2, 6}, {5, 0}, {1, 4}, {1, 3}, {1, 3}};
    const char *cap[] = {"leaves=0", "leaves=4", "leaves=3", "leaves=2", "leaves=1", "leaves=99"};
    const size_t want[] = {3, 3, 3, 2, 1, 3};
    for (int i = 0; i < 6; i++) {
        tl_tree *t = small_tree(stats, 1, 1);
        tl_prune_trace tr = {0};
        const char *kv[] = {cap[i], NULL};
        run_pruner("optimal", kv, t, NULL, &tr);
        assert_int_equal(tl_tree_leaves(t, 0), want[i]);
        assert_int_equal(tr.n, 4);
        const double leaves[4] = {4, 3, 2, 1}, errors[4] = {3, 3, 6, 8};
        for (size_t j = 0; j < 4; j++) {
            assert_close(tr.leaves[j], leaves[j], 0);
            assert_close(tr.risk[j], errors[j] / 18, 1e-15);
        }
        assert_close(tr.leaves[tr.chosen], (double)want[i], 0);
        if (want[i] == 3) { /* node 1 kept split, node 2 a leaf */
            assert_int_equal(t->n_nodes, 5);
            assert_true(t->attr[t->first_child[0]] >= 0);
            assert_true(t->attr[t->first_child[0] + 1] < 0);
        }
        tl_prune_trace_free(&tr);
        tl_tree_free(t);
    }
    /* on a grown tree, every subtree of the weakest-link sequence (risk = error) is one of
     * the subtrees OPT compares: OPT's errors for its leaves are never more */
    tl_dataset *d = tl_test_load("experiments/datasets/vote.arff", NULL);
    tl_err err;
    const char *kv[] = {"criterion=entropy", "pruner=none", NULL};
    tl_model *m = tl_test_fit("tree", d, kv, 1, &err);
    assert_non_null(m);
    tl_tree *t = tl_tree_copy(tl_model_tree(m), &err);
    tl_ccp_path path;
    assert_int_equal(tl_ccp_path_compute(t, tl_criterion_find("entropy", NULL), 1, &path, &err),
                     TL_OK);
    tl_prune_trace tr = {0};
    run_pruner("optimal", NULL, t, NULL, &tr);
    assert_close(tr.leaves[0], (double)path.leaves[0], 0);
    for (size_t i = 0; i < path.n; i++) {
        size_t j = (size_t)tr.leaves[0] - path.leaves[i]; /* the curve has every size */
        assert_close(tr.leaves[j], (double)path.leaves[i], 0);
        assert_true(tr.risk[j] <= path.risk[i] + 1e-12);
    }
    assert_true(tr.risk[tr.chosen] <= path.risk[0] + 1e-12); /* error-minimal */
    assert_true(tl_tree_leaves(t, 0) <= path.leaves[0]);
    tl_ccp_path_free(&path);
    tl_prune_trace_free(&tr);
    tl_tree_free(t);
    tl_model_free(m);
    tl_dataset_free(d);
}

/* ---- cost-complexity pruning on validation rows ---- */

/* By hand, risk = error. A root (10, 6) on x <= 0.5 over a leaf (8, 0) and node 2 (2, 6) on
 * x <= 1.5 over (2, 1) and (0, 5) (classes a, b; 16 rows). g(node 2) = (2 - 1) / 16 = 0.0625
 * (the root's g = (6 - 1) / 16 / 2 = 0.15625 is larger): node 2 goes first; then the root's
 * g = (6 - 2) / 16 / 1 = 0.25. The sequence: T0 (3 leaves, alpha 0), T1 (2 leaves, 0.0625),
 * T2 (the root, 0.25); the midpoints 0, sqrt(0.0625 * 0.25) = 0.125, 0.25.
 * Validation rows: x = 0 (a), x = 1 (b) twice, x = 2 (b). T0 sends the two x = 1 rows to the
 * (2, 1) leaf, which says a: 2/4 = 0.5 wrong, SE sqrt(1 / 3 / 4) = 0.288675; T1 predicts b
 * right of 0.5: 0 wrong; T2 says a everywhere: 3/4. alpha = validation keeps T1 at
 * alpha 0.125. With alphas = "0.1,0.01": 0.01 keeps T0 (0.5), 0.1 keeps T1 (0): 0.1. */
static void test_cost_complexity_validation_worked_example(void **state)
{
    (void)state;
    const char *csv = tl_test_tmpfile(".csv", "x,y\n0,a\n1,b\n1,b\n2,b\n");
    tl_err err;
    tl_dataset *d = tl_dataset_load(csv, NULL, &err);
    assert_non_null(d);
    assert_string_equal(d->schema.target.levels[0], "a");
    const double stats[5][2] = {{10, 6}, {8, 0}, {2, 6}, {2, 1}, {0, 5}};
    size_t valid[4] = {0, 1, 2, 3};
    tl_grow_params gp;
    tl_grow_params_init(&gp);
    gp.criterion = tl_criterion_find("gini", &err);
    tl_prune_input in = {d, NULL, 0, valid, 4, &gp, 1};
    tl_prune_trace tr = {0};

    tl_tree *t = small_tree(stats, 0, 1);
    const char *kv[] = {"alpha=validation", "risk=error", NULL};
    run_pruner("cost_complexity", kv, t, &in, &tr);
    assert_int_equal(tl_tree_leaves(t, 0), 2);
    assert_int_equal(tr.n, 3);
    assert_string_equal(tr.error_name, "validation error");
    const double alpha[3] = {0, 0.0625, 0.25}, leaves[3] = {3, 2, 1};
    const double risk[3] = {1.0 / 16, 2.0 / 16, 6.0 / 16}, error[3] = {0.5, 0, 0.75};
    for (size_t i = 0; i < 3; i++) {
        assert_close(tr.param[i], alpha[i], 1e-15);
        assert_close(tr.leaves[i], leaves[i], 0);
        assert_close(tr.risk[i], risk[i], 1e-15);
        assert_close(tr.error[i], error[i], 1e-15);
    }
    assert_close(tr.se[0], 0.288675, 1e-6);
    assert_int_equal(tr.chosen, 1);
    assert_close(tr.chosen_param, 0.125, 1e-15);
    tl_tree_free(t);

    t = small_tree(stats, 0, 1);
    const char *grid[] = {"alpha=validation", "risk=error", "alphas=0.1,0.01", NULL};
    run_pruner("cost_complexity", grid, t, &in, &tr);
    assert_int_equal(tl_tree_leaves(t, 0), 2);
    assert_int_equal(tr.n, 2);
    assert_close(tr.param[0], 0.01, 0);
    assert_close(tr.param[1], 0.1, 0);
    assert_close(tr.leaves[0], 3, 0);
    assert_close(tr.error[0], 0.5, 1e-15);
    assert_close(tr.error[1], 0, 1e-15);
    assert_close(tr.chosen_param, 0.1, 0);
    tl_tree_free(t);
    tl_prune_trace_free(&tr);

    /* no validation rows: a clear error, not a tree cut to its root */
    const tl_pruner_type *cc = tl_pruner_find("cost_complexity", NULL);
    tl_params p;
    tl_params_init(&p);
    tl_params_set(&p, "alpha", "validation", &err);
    void *st = cc->init(&p, &err);
    assert_true(tl_pruner_needs(cc, st) & TL_NEEDS_VALIDATION);
    t = small_tree(stats, 0, 1);
    tl_prune_trace_reset(&tr);
    tl_prune_input none = {d, NULL, 0, NULL, 0, &gp, 1};
    assert_int_equal(cc->prune(st, t, &none, &tr, &err), TL_EINVAL);
    assert_non_null(strstr(err.msg, "cost_complexity with alpha = validation needs validation "
                                    "rows"));
    cc->free(st);
    tl_params_clear(&p);
    tl_tree_free(t);
    tl_prune_trace_free(&tr);
    tl_dataset_free(d);
    remove(csv);

    /* through the tree learner: rows are held out; alpha = auto with a grid cross-validates
     * only those alphas */
    d = tl_test_load("experiments/datasets/iris.arff", NULL);
    const char *held[] = {"pruner=cost_complexity", "pruner.alpha=validation", NULL};
    tl_model *m = tl_test_fit("tree", d, held, 3, &err);
    if (!m)
        fail_msg("%s", err.msg);
    assert_string_equal(tl_model_prune_trace(m)->error_name, "validation error");
    tl_model_free(m);
    const char *cv[] = {"pruner=cost_complexity", "pruner.folds=3", "pruner.alphas=0.1, 0.001,0.01",
                        NULL};
    m = tl_test_fit("tree", d, cv, 3, &err);
    if (!m)
        fail_msg("%s", err.msg);
    const tl_prune_trace *ct = tl_model_prune_trace(m);
    assert_int_equal(ct->n, 3);
    assert_close(ct->param[0], 0.001, 0);
    assert_close(ct->param[2], 0.1, 0);
    assert_string_equal(ct->error_name, "cv error");
    tl_model_free(m);
    tl_dataset_free(d);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_minimum_error_worked_example),
        cmocka_unit_test(test_pessimistic_worked_example),
        cmocka_unit_test(test_critical_value_worked_example),
        cmocka_unit_test(test_chi_square_worked_example),
        cmocka_unit_test(test_optimal_worked_example),
        cmocka_unit_test(test_cost_complexity_validation_worked_example),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
