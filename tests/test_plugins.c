/* The plug-ins: worked numbers for the criteria (Hellinger, twoing, chi-square, G, DKM, the
 * distance measure), the random attribute subset and the pruners (minimum-error,
 * pessimistic, critical value, chi-square, optimal, cost-complexity on validation rows), and
 * a contract every registered criterion x splitter x pruner x missing combination meets (a plug-in
 * added later is tested here without touching this file). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tl_test_util.h"
#include "treelab/tl_grow.h"
#include "treelab/tl_model.h"

/* Fails the test unless a and b show the same tree. */
static void assert_same_tree(const tl_model *a, const tl_model *b);

static char *show_text(const tl_model *m)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    tl_err err;
    if (tl_model_show(m, TL_SHOW_TEXT, f, &err))
        fail_msg("show: %s", err.msg);
    fclose(f);
    return buf;
}

static void assert_same_tree(const tl_model *a, const tl_model *b)
{
    char *x = show_text(a), *y = show_text(b);
    int same = !strcmp(x, y);
    free(x);
    free(y);
    assert_true(same);
}

/* ---- Hellinger distance ---- */

/* A two-class node (+ 6, - 4) cut into (+ 5, - 1) and (+ 1, - 3): by hand,
 * sqrt((sqrt(5/6) - sqrt(1/4))^2 + (sqrt(1/6) - sqrt(3/4))^2) = 0.616459... The distance
 * ignores the class balance: the same cut with every negative row weighing 10 scores the
 * same, while Gini's gain changes. */
static void test_hellinger_worked_example(void **state)
{
    (void)state;
    const tl_criterion_type *h = tl_criterion_find("hellinger", NULL);
    assert_non_null(h);
    assert_null(h->impurity); /* a partition criterion */
    double parent[2] = {6, 4}, children[4] = {5, 1, 1, 3};
    double want =
        sqrt(pow(sqrt(5.0 / 6) - sqrt(1.0 / 4), 2) + pow(sqrt(1.0 / 6) - sqrt(3.0 / 4), 2));
    assert_close(want, 0.6164595, 1e-7);
    assert_close(h->score(NULL, parent, children, 2, 2), want, 1e-15);
    double parent10[2] = {6, 40}, children10[4] = {5, 10, 1, 30};
    assert_close(h->score(NULL, parent10, children10, 2, 2), want, 1e-15);
    /* a cut that does not separate the classes is worth nothing; a perfect one sqrt(2) */
    double same[4] = {3, 2, 3, 2}, perfect[4] = {6, 0, 0, 4};
    assert_close(h->score(NULL, parent, same, 2, 2), 0, 1e-15);
    assert_close(h->score(NULL, parent, perfect, 2, 2), sqrt(2), 1e-15);
    /* three classes: the largest one-versus-rest distance; class 2 alone is split off */
    double p3[3] = {2, 2, 4}, c3[6] = {2, 2, 0, 0, 0, 4};
    assert_close(h->score(NULL, p3, c3, 2, 3), sqrt(2), 1e-15);
    /* grown: on a skewed two-class set the root test is the one with the largest distance */
    const char *csv = tl_test_tmpfile(".csv", "a,b,y\n1,1,p\n1,1,p\n1,0,p\n1,0,n\n0,0,n\n0,1,n\n"
                                              "1,1,p\n1,1,p\n1,1,p\n1,1,p\n");
    tl_err err;
    tl_dataset *d = tl_dataset_load(csv, NULL, &err);
    assert_non_null(d);
    const char *kv[] = {"criterion=hellinger", "max_depth=1", NULL};
    tl_model *m = tl_test_fit("tree", d, kv, 1, &err);
    if (!m)
        fail_msg("%s", err.msg);
    /* a (p: 7/7 at a > 0.5, n: 1/3): sqrt((1 - sqrt(1/3))^2 + (0 - sqrt(2/3))^2) = 0.919;
     * b (p: 6/7 at b > 0.5, n: 1/3): 0.730. */
    assert_string_equal(d->schema.attrs[tl_model_tree(m)->attr[0]].name, "a");
    tl_model_free(m);
    tl_dataset_free(d);
    remove(csv);
}

/* ---- twoing, chi-square, G, DKM, distance ---- */

/* The worth of children (n x k) of parent under criterion c: the weighted impurity decrease
 * for an impurity criterion, as the grower computes it, else its score. */
static double crit_gain(const tl_criterion_type *c, const double *parent, const double *children,
                        size_t n, size_t k)
{
    if (c->score)
        return c->score(NULL, parent, children, n, k);
    double w = 0, wimp = 0;
    for (size_t j = 0; j < k; j++)
        w += parent[j];
    for (size_t b = 0; b < n; b++) {
        double wb = 0;
        for (size_t j = 0; j < k; j++)
            wb += children[b * k + j];
        if (wb > 0)
            wimp += wb / w * c->impurity(children + b * k, k);
    }
    return c->impurity(parent, k) - wimp;
}

static const tl_criterion_type *criterion(const char *name)
{
    const tl_criterion_type *c = tl_criterion_find(name, NULL);
    if (!c)
        fail_msg("criterion %s is not registered", name);
    return c;
}

/* Worked tables, by hand; scripts/peers/criteria_worked.py recomputes every number
 * independently (scipy's chi2_contingency for chi-square and G, scipy.stats.entropy for the
 * distance, exact fractions for twoing) and agrees to the digits shown.
 *
 * Two classes: a node (6, 4) cut into (5, 1) and (1, 3), N = 10.
 *  twoing: p_L p_R / 4 = 0.06; |5/6 - 1/4| + |1/6 - 3/4| = 7/6: 0.06 x 49/36 = 49/600 =
 *    0.0816667, half Gini's decrease 0.48 - (0.6 x 10/36 + 0.4 x 6/16) = 49/300;
 *  chi-square: E = (3.6, 2.4; 2.4, 1.6), every |O - E| = 1.4:
 *    1.96 (1/3.6 + 1/2.4 + 1/2.4 + 1/1.6) = 245/72 = 3.4027778;
 *  G: 2 (5 ln(5/3.6) + 2 ln(1/2.4) + 3 ln(3/1.6)) = 2 (1.642520 - 1.750937 + 1.885826) =
 *    3.5548177 (= 2 N ln 2 x information gain);
 *  DKM: 2 sqrt(0.24) - 0.6 x 2 sqrt(5/36) - 0.4 x 2 sqrt(3/16) = (2 sqrt 6 - sqrt 5 - sqrt 3)/5
 *    = 0.1861721;
 *  distance: I = G / 2N = 0.1777409 nats over H(branch, class) = -(0.5 ln 0.5 + 2 x 0.1 ln 0.1
 *    + 0.3 ln 0.3) = 1.1682829: 0.1521386.
 * Three classes, three branches: a node (4, 4, 4) cut into (3, 1, 0), (1, 2, 1), (0, 1, 3).
 *  twoing: branch 1 against the rest (1/3 x 2/3 / 4)(|3/4 - 1/8| + |1/4 - 3/8| + |0 - 1/2|)^2
 *    = (1/18)(5/4)^2 = 25/288 = 0.0868056 (branch 3 the same, branch 2 (1/18)(1/2)^2 = 1/72):
 *    the largest, 25/288;
 *  chi-square: every E = 4/3, the squared deviations sum to 10: 10 x 3/4 = 7.5;
 *  G: 2 (6 ln(9/4) + 4 ln(3/4) + 2 ln(3/2)) = 2 (4.865581 - 1.150728 + 0.810930) = 9.0515664;
 *  DKM: sqrt 2 (uniform: the maximum sqrt(k - 1)) - (sqrt3/2 + (sqrt3/2 + 1/2) + sqrt3/2)/3
 *    = sqrt 2 - sqrt3/2 - 1/6 = 0.3815215;
 *  distance: I = G / 2N = 0.3771486 over H = -(2 x 1/4 ln 1/4 + 4 x 1/12 ln 1/12 + 1/6 ln 1/6)
 *    = 1.8200759: 0.2072159. */
static void test_literature_criteria_worked_examples(void **state)
{
    (void)state;
    double p2[2] = {6, 4}, c2[4] = {5, 1, 1, 3};
    double p3[3] = {4, 4, 4}, c3[9] = {3, 1, 0, 1, 2, 1, 0, 1, 3};
    struct {
        const char *name;
        int partition;     /* score, not impurity */
        double two, three; /* the worth of the two tables */
    } cases[] = {
        {"twoing", 1, 49.0 / 600, 25.0 / 288},
        {"chi_square", 1, 245.0 / 72, 7.5},
        {"g_statistic", 1, 3.55481767683901, 9.05156644741436},
        {"dkm", 0, (2 * sqrt(6) - sqrt(5) - sqrt(3)) / 5, sqrt(2) - sqrt(3) / 2 - 1.0 / 6},
        {"distance", 1, 0.152138623511026, 0.207215856415484},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        const tl_criterion_type *c = criterion(cases[i].name);
        assert_true(c->tasks == TL_TASK_CLASSIFICATION);
        assert_true(cases[i].partition ? c->score && !c->impurity : c->impurity && !c->score);
        assert_non_null(c->summary);
        assert_non_null(c->reference);
        double two = crit_gain(c, p2, c2, 2, 2), three = crit_gain(c, p3, c3, 3, 3);
        if (fabs(two - cases[i].two) > 1e-12 || fabs(three - cases[i].three) > 1e-12)
            fail_msg("%s: %.15g and %.15g, expected %.15g and %.15g", cases[i].name, two, three,
                     cases[i].two, cases[i].three);
        /* a cut whose branches repeat the parent's distribution is worth nothing */
        double same2[4] = {3, 2, 3, 2}, same3[6] = {2, 2, 2, 2, 2, 2};
        assert_close(crit_gain(c, p2, same2, 2, 2), 0, 1e-15);
        assert_close(crit_gain(c, p3, same3, 2, 3), 0, 1e-15);
    }
    /* the hand values above, to their digits */
    assert_close(3.55481767683901, 2 * (5 * log(5 / 3.6) + 2 * log(1 / 2.4) + 3 * log(3 / 1.6)),
                 1e-13);
    assert_close(9.05156644741436, 2 * (6 * log(9.0 / 4) + 4 * log(3.0 / 4) + 2 * log(1.5)), 1e-13);
    assert_close(0.152138623511026,
                 (3.55481767683901 / 20) / -(0.5 * log(0.5) + 0.2 * log(0.1) + 0.3 * log(0.3)),
                 1e-14);
    assert_close(
        0.207215856415484,
        (9.05156644741436 / 24) / -(0.5 * log(0.25) + log(1.0 / 12) / 3 + log(1.0 / 6) / 6), 1e-14);
}

/* A reproducible table generator for the properties below. */
static double table_draw(unsigned long *s)
{
    *s = *s * 6364136223846793005ul + 1442695040888963407ul;
    return (double)((*s >> 33) % 9); /* 0..8 */
}

/* Twoing, for two classes: half Gini's decrease on every binary cut (Breiman et al. 1984,
 * sec. 4.2.2), so it ranks the cuts as gini does. */
static void test_twoing_is_half_gini_for_two_classes(void **state)
{
    (void)state;
    const tl_criterion_type *tw = criterion("twoing"), *gini = criterion("gini");
    unsigned long s = 42;
    for (int i = 0; i < 500; i++) {
        double ch[4], par[2];
        for (int j = 0; j < 4; j++)
            ch[j] = table_draw(&s) + (i % 3 ? 0 : 0.25); /* some fractional weights */
        if (ch[0] + ch[1] <= 0 || ch[2] + ch[3] <= 0)
            continue;
        par[0] = ch[0] + ch[2];
        par[1] = ch[1] + ch[3];
        assert_close(tw->score(NULL, par, ch, 2, 2), crit_gain(gini, par, ch, 2, 2) / 2, 1e-14);
    }
}

/* Chi-square, G, distance and twoing rank the root tests of weather.nominal (14 rows, no
 * unknown values) as information gain does, as Mingers (1989) found the measures to agree;
 * G is 2 N ln 2 x the gain exactly. Gains 0.2467 (outlook), 0.0292 (temperature), 0.1518
 * (humidity), 0.0481 (windy); scipy's chi-square 3.546667, 0.570370, 2.8, 0.933333. */
static void test_chi_square_and_g_rank_as_gain(void **state)
{
    (void)state;
    tl_dataset *d = tl_test_load("experiments/datasets/weather.nominal.arff", NULL);
    assert_int_equal(d->schema.n_attrs, 4);
    size_t rows[14];
    for (size_t i = 0; i < 14; i++)
        rows[i] = i;
    const char *names[] = {"entropy", "chi_square", "g_statistic", "distance", "twoing"};
    double gain[5][4];
    tl_err err;
    for (size_t c = 0; c < 5; c++) {
        tl_grow_params p;
        tl_grow_params_init(&p);
        p.criterion = criterion(names[c]);
        p.nominal = tl_splitter_find("nominal_multiway", &err);
        tl_split cand[4];
        int valid[4];
        assert_int_equal(tl_grow_root_candidates(d, rows, 14, &p, cand, valid, &err), TL_OK);
        for (size_t a = 0; a < 4; a++) {
            assert_true(valid[a]);
            gain[c][a] = cand[a].gain;
        }
    }
    double chi[4] = {3.54666666666667, 0.570370370370370, 2.8, 0.933333333333333};
    for (size_t a = 0; a < 4; a++) {
        assert_close(gain[1][a], chi[a], 1e-12);
        assert_close(gain[2][a], 2 * 14 * log(2) * gain[0][a], 1e-12);
    }
    for (size_t c = 1; c < 5; c++)
        for (size_t a = 0; a < 4; a++)
            for (size_t b = 0; b < 4; b++)
                if ((gain[0][a] > gain[0][b]) != (gain[c][a] > gain[c][b]))
                    fail_msg("%s orders %s and %s unlike information gain", names[c],
                             d->schema.attrs[a].name, d->schema.attrs[b].name);
    tl_dataset_free(d);
}

/* DKM for two classes lies above the entropy in bits, which lies above Gini and the
 * misclassification rate (Kearns & Mansour 1999), and meets the entropy at p = 1/2; for k
 * classes it peaks at sqrt(k - 1) on the uniform node, and being concave no cut of
 * pseudo-random three-class tables has a negative gain. */
static void test_dkm_bounds(void **state)
{
    (void)state;
    const tl_criterion_type *dkm = criterion("dkm"), *ent = criterion("entropy"),
                            *gini = criterion("gini"), *mis = criterion("misclassification");
    for (int i = 0; i <= 100; i++) {
        double st[2] = {i, 100 - i};
        double m = mis->impurity(st, 2), g = gini->impurity(st, 2), h = ent->impurity(st, 2),
               q = dkm->impurity(st, 2);
        assert_true(m <= g + 1e-15 && g <= h + 1e-15 && h <= q + 1e-15);
        assert_close(q, 2 * sqrt(i / 100.0 * (1 - i / 100.0)), 1e-15);
    }
    double half[2] = {7, 7}, u3[3] = {5, 5, 5}, u4[4] = {1, 1, 1, 1}, pure[3] = {0, 9, 0};
    assert_close(dkm->impurity(half, 2), ent->impurity(half, 2), 1e-15);
    assert_close(dkm->impurity(u3, 3), sqrt(2), 1e-15);
    assert_close(dkm->impurity(u4, 4), sqrt(3), 1e-15);
    assert_close(dkm->impurity(pure, 3), 0, 0);
    unsigned long s = 7;
    for (int i = 0; i < 500; i++) {
        double ch[9], par[3] = {0, 0, 0};
        for (int j = 0; j < 9; j++) {
            ch[j] = table_draw(&s);
            par[j % 3] += ch[j];
        }
        if (par[0] + par[1] + par[2] <= 0)
            continue;
        assert_true(crit_gain(dkm, par, ch, 3, 3) >= -1e-15);
        assert_true(dkm->impurity(par, 3) <= sqrt(2) + 1e-15);
    }
}

/* The distance measure is 1 for a test whose branches are the classes and does not favour
 * a test with more branches at the same information gain (Lopez de Mantaras 1991): cutting
 * a pure branch of (4, 0) | (0, 4) in two keeps the gain at 1 bit but the joint entropy
 * grows to 1.5 bits, so the measure falls to 2/3. */
static void test_distance_penalises_extra_branches(void **state)
{
    (void)state;
    const tl_criterion_type *dist = criterion("distance"), *ent = criterion("entropy");
    double par[2] = {4, 4}, two[4] = {4, 0, 0, 4}, three[6] = {2, 0, 2, 0, 0, 4};
    assert_close(crit_gain(ent, par, two, 2, 2), 1, 1e-15);
    assert_close(crit_gain(ent, par, three, 3, 2), 1, 1e-15);
    assert_close(dist->score(NULL, par, two, 2, 2), 1, 1e-15);
    assert_close(dist->score(NULL, par, three, 3, 2), 2.0 / 3, 1e-15);
    /* in [0, 1] on pseudo-random tables */
    unsigned long s = 11;
    for (int i = 0; i < 500; i++) {
        double ch[9], p3[3] = {0, 0, 0};
        for (int j = 0; j < 9; j++) {
            ch[j] = table_draw(&s);
            p3[j % 3] += ch[j];
        }
        double v = dist->score(NULL, p3, ch, 3, 3);
        assert_true(v >= 0 && v <= 1);
    }
}

/* ---- random attribute subset ---- */

static void test_random_subset(void **state)
{
    (void)state;
    tl_dataset *d = tl_test_load("experiments/datasets/iris.arff", NULL);
    tl_err err;
    /* drawing every attribute is the inner splitter itself */
    const char *all[] = {"numeric=random_subset", "numeric.mtry=4", NULL};
    tl_model *a = tl_test_fit("tree", d, all, 7, &err), *b = tl_test_fit("tree", d, NULL, 7, &err);
    assert_non_null(a);
    assert_non_null(b);
    assert_same_tree(a, b);
    tl_model_free(a);
    tl_model_free(b);
    /* one attribute per node: the root has exactly one candidate; the same seed gives the
     * same tree, and the draw differs between seeds */
    tl_grow_params p;
    tl_grow_params_init(&p);
    p.criterion = tl_criterion_find("gini", &err);
    p.numeric = tl_splitter_find("random_subset", &err);
    tl_params sp;
    tl_params_init(&sp);
    tl_params_set(&sp, "mtry", "1", &err);
    void *st = p.numeric->init(&sp, &err);
    assert_non_null(st);
    p.numeric_state = st;
    size_t rows[150];
    for (size_t i = 0; i < 150; i++)
        rows[i] = i;
    int seen[4] = {0};
    for (unsigned long seed = 1; seed <= 40; seed++) {
        tl_split cand[4];
        int valid[4], n = 0;
        p.seed = seed;
        assert_int_equal(tl_grow_root_candidates(d, rows, 150, &p, cand, valid, &err), TL_OK);
        for (int j = 0; j < 4; j++)
            if (valid[j])
                n++, seen[j]++;
        assert_int_equal(n, 1);
    }
    for (int j = 0; j < 4; j++) /* each attribute is drawn at the root for some seed */
        assert_true(seen[j] > 0);
    p.numeric->free(st);
    tl_params_clear(&sp);
    const char *one[] = {"numeric=random_subset", "numeric.mtry=1", NULL};
    a = tl_test_fit("tree", d, one, 3, &err);
    b = tl_test_fit("tree", d, one, 3, &err);
    assert_same_tree(a, b);
    tl_model_free(a);
    tl_model_free(b);
    tl_dataset_free(d);
}

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

/* ---- the contract over the registries ---- */

static int pred_equal(const double *a, const double *b, size_t n)
{
    return memcmp(a, b, n * sizeof *a) == 0;
}

/* Fit, predict (rows sum to 1), save/load (same predictions), refit with the same seed
 * (same tree). Returns 0 when the fit was refused (err set), 1 when it met the contract. */
static int contract(const tl_dataset *d, const char *const *kv, tl_err *err)
{
    tl_model *m = tl_test_fit("tree", d, kv, 5, err);
    if (!m)
        return 0;
    size_t w = tl_model_out_width(m), n = d->n_rows;
    double *p = malloc(n * w * sizeof *p), *q = malloc(n * w * sizeof *q);
    assert_int_equal(tl_model_predict(m, d, NULL, 0, p, err), TL_OK);
    for (size_t i = 0; w > 1 && i < n; i++) {
        double s = 0;
        for (size_t c = 0; c < w; c++) {
            assert_true(p[i * w + c] >= 0);
            s += p[i * w + c];
        }
        assert_close(s, 1, 1e-9);
    }
    char path[128];
    snprintf(path, sizeof path, "/tmp/tl_contract_%d.model", (int)getpid());
    if (tl_model_save(m, path, err))
        fail_msg("save: %s", err->msg);
    tl_model *back = tl_model_load(path, err);
    if (!back)
        fail_msg("load: %s", err->msg);
    remove(path);
    assert_int_equal(tl_model_predict(back, d, NULL, 0, q, err), TL_OK);
    if (!pred_equal(p, q, n * w))
        fail_msg("%s %s %s %s %s: predictions differ after save/load", kv[0], kv[1], kv[2], kv[3],
                 kv[4]);
    tl_model *again = tl_test_fit("tree", d, kv, 5, err);
    assert_non_null(again);
    char *s1 = show_text(m), *s2 = show_text(again);
    if (strcmp(s1, s2))
        fail_msg("%s %s %s %s %s: the same seed grew another tree", kv[0], kv[1], kv[2], kv[3],
                 kv[4]);
    free(s1);
    free(s2);
    tl_model_free(again);
    tl_model_free(back);
    tl_model_free(m);
    free(p);
    free(q);
    return 1;
}

/* Why a combination cannot work on data of this task, or NULL: the documented errors. */
static const char *impossible(const tl_criterion_type *c, const tl_splitter_type *num,
                              const tl_splitter_type *nom, const tl_pruner_type *pr, int regression)
{
    unsigned task = regression ? TL_TASK_REGRESSION : TL_TASK_CLASSIFICATION;
    if (!(c->tasks & task))
        return regression ? "needs a nominal target" : "needs a numeric target";
    if ((num->tasks && !(num->tasks & task)) || (nom->tasks && !(nom->tasks & task)))
        return "needs a nominal target";
    if (regression && (pr->needs & TL_NEEDS_CLASSES))
        return "needs a nominal target";
    return NULL;
}

static void run_contract(const tl_dataset *d, int regression, size_t *n_ok, size_t *n_refused)
{
    for (size_t ic = 0; tl_criterion_at(ic); ic++)
        for (size_t is = 0; tl_splitter_at(is); is++)
            for (size_t jn = 0; tl_splitter_at(jn); jn++)
                for (size_t ip = 0; tl_pruner_at(ip); ip++)
                    for (size_t im = 0; tl_missing_at(im); im++) {
                        const tl_criterion_type *c = tl_criterion_at(ic);
                        const tl_splitter_type *num = tl_splitter_at(is);
                        const tl_splitter_type *nom = tl_splitter_at(jn);
                        const tl_pruner_type *pr = tl_pruner_at(ip);
                        if (!(num->kinds & TL_KIND_BIT(TL_ATTR_NUMERIC)) ||
                            !(nom->kinds & TL_KIND_BIT(TL_ATTR_NOMINAL)))
                            continue; /* refused before any fit: tested below */
                        char kv[5][96];
                        snprintf(kv[0], sizeof kv[0], "criterion=%s", c->name);
                        snprintf(kv[1], sizeof kv[1], "numeric=%s", num->name);
                        snprintf(kv[2], sizeof kv[2], "nominal=%s", nom->name);
                        snprintf(kv[3], sizeof kv[3], "pruner=%s", pr->name);
                        snprintf(kv[4], sizeof kv[4], "missing=%s", tl_missing_at(im)->name);
                        const char *args[] = {kv[0], kv[1], kv[2], kv[3], kv[4], "pruner.folds=3",
                                              NULL};
                        if (strcmp(pr->name, "cost_complexity"))
                            args[5] = NULL;
                        tl_err err;
                        tl_err_clear(&err);
                        const char *why = impossible(c, num, nom, pr, regression);
                        int ok = contract(d, args, &err);
                        /* labor has one complete row of 57: a fold may hold none, and
                         * complete cases then leave nothing to grow on */
                        if (!why && !ok && !strcmp(tl_missing_at(im)->name, "drop"))
                            why = "has an unknown value";
                        if (why && ok)
                            fail_msg("%s %s %s %s %s was accepted (%s)", kv[0], kv[1], kv[2], kv[3],
                                     kv[4], why);
                        if (!why && !ok)
                            fail_msg("%s %s %s %s %s: %s", kv[0], kv[1], kv[2], kv[3], kv[4],
                                     err.msg);
                        if (why && !strstr(err.msg, why))
                            fail_msg("%s %s %s %s %s: '%s' does not say '%s'", kv[0], kv[1], kv[2],
                                     kv[3], kv[4], err.msg, why);
                        *(ok ? n_ok : n_refused) += 1;
                    }
}

static void test_every_combination(void **state)
{
    (void)state;
    /* labor: 57 rows, numeric and nominal attributes, 326 missing cells */
    tl_dataset *d = tl_test_load("experiments/datasets/labor.arff", NULL);
    size_t ok = 0, refused = 0;
    run_contract(d, 0, &ok, &refused);
    print_message("classification: %zu combinations fitted, %zu refused as documented\n", ok,
                  refused);
    assert_true(ok > 600);
    tl_dataset_free(d);
    /* regression on the same attributes: the first year's wage increase as the target */
    d = tl_test_load("experiments/datasets/labor.arff", "wage-increase-first-year");
    ok = refused = 0;
    run_contract(d, 1, &ok, &refused);
    print_message("regression: %zu combinations fitted, %zu refused as documented\n", ok, refused);
    assert_true(ok > 60);
    tl_dataset_free(d);
}

/* Every missing-value method on data with complete rows too (vote: 232 of 435 complete),
 * with each pruner. */
static void test_missing_methods_contract(void **state)
{
    (void)state;
    tl_dataset *d = tl_test_load("experiments/datasets/vote.arff", NULL);
    for (size_t im = 0; tl_missing_at(im); im++)
        for (size_t ip = 0; tl_pruner_at(ip); ip++) {
            char m[96], pr[96];
            snprintf(m, sizeof m, "missing=%s", tl_missing_at(im)->name);
            snprintf(pr, sizeof pr, "pruner=%s", tl_pruner_at(ip)->name);
            const char *args[] = {"criterion=gini",
                                  "numeric=numeric_threshold",
                                  "nominal=nominal_subset",
                                  pr,
                                  m,
                                  NULL};
            tl_err err;
            tl_err_clear(&err);
            if (!contract(d, args, &err))
                fail_msg("%s %s: %s", m, pr, err.msg);
        }
    tl_dataset_free(d);
}

/* Refused before any work: a splitter in the wrong slot, an unknown plug-in or parameter
 * (listing the valid ones), a bad value, and a validation pruner with no rows to validate. */
static void test_impossible_combinations(void **state)
{
    (void)state;
    tl_err err;
    tl_params p;
    struct {
        const char *kv[3], *msg;
    } cases[] = {
        {{"numeric=nominal_subset"},
         "splitter nominal_subset does not split numeric attributes; "
         "valid: numeric_threshold, c45_threshold"},
        {{"nominal=c45_threshold"}, "does not split nominal attributes"},
        {{"criterion=variance"}, "unknown criterion 'variance'; valid: entropy"},
        {{"pruner=magic"}, "unknown pruner 'magic'; valid: none, cost_complexity"},
        {{"pruner=error_based", "pruner.confidance=0.1"},
         "unknown parameter 'confidance'; valid parameters: confidence"},
        {{"pruner=none", "pruner.alpha=1"},
         "pruner none: pruner.alpha: pruner none takes no "
         "parameters"},
        {{"pruner=cost_complexity", "pruner.alpha=-1"}, "expected auto, path or a number >= 0"},
        {{"pruner.confidence=0.1"}, "pruner none"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        tl_params_init(&p);
        for (int j = 0; j < 3 && cases[i].kv[j]; j++)
            tl_params_set_kv(&p, cases[i].kv[j], &err);
        tl_model *m = tl_model_new("tree", &p, &err);
        tl_params_clear(&p);
        if (m)
            fail_msg("case %zu accepted", i);
        if (!strstr(err.msg, cases[i].msg))
            fail_msg("case %zu: '%s' lacks '%s'", i, err.msg, cases[i].msg);
    }
    /* reduced_error with no rows to validate on: an error, not a tree cut to its root */
    tl_tree *t = tl_tree_alloc(2, 0, 4, &err);
    tl_tree_add_nodes(t, 1, SIZE_MAX, &err);
    tl_prune_trace tr = {0};
    tl_prune_trace_reset(&tr);
    tl_prune_input in = {0};
    const tl_pruner_type *re = tl_pruner_find("reduced_error", NULL);
    assert_int_equal(re->prune(NULL, t, &in, &tr, &err), TL_EINVAL);
    assert_non_null(strstr(err.msg, "needs validation rows"));
    tl_prune_trace_free(&tr);
    tl_tree_free(t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_hellinger_worked_example),
        cmocka_unit_test(test_literature_criteria_worked_examples),
        cmocka_unit_test(test_twoing_is_half_gini_for_two_classes),
        cmocka_unit_test(test_chi_square_and_g_rank_as_gain),
        cmocka_unit_test(test_dkm_bounds),
        cmocka_unit_test(test_distance_penalises_extra_branches),
        cmocka_unit_test(test_random_subset),
        cmocka_unit_test(test_minimum_error_worked_example),
        cmocka_unit_test(test_pessimistic_worked_example),
        cmocka_unit_test(test_critical_value_worked_example),
        cmocka_unit_test(test_chi_square_worked_example),
        cmocka_unit_test(test_optimal_worked_example),
        cmocka_unit_test(test_cost_complexity_validation_worked_example),
        cmocka_unit_test(test_impossible_combinations),
        cmocka_unit_test(test_every_combination),
        cmocka_unit_test(test_missing_methods_contract),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
