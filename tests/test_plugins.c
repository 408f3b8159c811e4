/* The plug-ins: worked numbers for Hellinger distance, twoing, chi-square, G, DKM and the
 * distance measure, the random attribute subset and minimum-error pruning, and a contract
 * every registered criterion x splitter x pruner combination meets (a plug-in added later is
 * tested here without touching this file). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tl_test_util.h"
#include "treelab/tl_grow.h"
#include "treelab/tl_model.h"

static tl_model *fit_kv(const char *algo, const tl_dataset *d, const char *const *kv,
                        unsigned long seed, tl_err *err)
{
    tl_params p;
    tl_params_init(&p);
    for (; kv && *kv; kv++)
        if (tl_params_set_kv(&p, *kv, err))
            fail_msg("%s", err->msg);
    tl_model *m = tl_model_new(algo, &p, err);
    tl_params_clear(&p);
    if (!m)
        return NULL;
    tl_fit_ctx ctx = {seed, NULL, 0};
    if (tl_model_fit(m, d, NULL, 0, &ctx, err)) {
        tl_model_free(m);
        return NULL;
    }
    return m;
}

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
    double want = sqrt(pow(sqrt(5.0 / 6) - sqrt(1.0 / 4), 2) + pow(sqrt(1.0 / 6) - sqrt(3.0 / 4), 2));
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
    tl_model *m = fit_kv("tree", d, kv, 1, &err);
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
static double crit_gain(const tl_criterion_type *c, const double *parent,
                        const double *children, size_t n, size_t k)
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
    assert_close(9.05156644741436,
                 2 * (6 * log(9.0 / 4) + 4 * log(3.0 / 4) + 2 * log(1.5)), 1e-13);
    assert_close(0.152138623511026,
                 (3.55481767683901 / 20) / -(0.5 * log(0.5) + 0.2 * log(0.1) + 0.3 * log(0.3)),
                 1e-14);
    assert_close(0.207215856415484,
                 (9.05156644741436 / 24) /
                     -(0.5 * log(0.25) + log(1.0 / 12) / 3 + log(1.0 / 6) / 6),
                 1e-14);
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
    tl_model *a = fit_kv("tree", d, all, 7, &err), *b = fit_kv("tree", d, NULL, 7, &err);
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
    a = fit_kv("tree", d, one, 3, &err);
    b = fit_kv("tree", d, one, 3, &err);
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
    const double (*cases[2])[2] = {prunable, kept};
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

/* ---- the contract over the registries ---- */

static int pred_equal(const double *a, const double *b, size_t n)
{
    return memcmp(a, b, n * sizeof *a) == 0;
}

/* Fit, predict (rows sum to 1), save/load (same predictions), refit with the same seed
 * (same tree). Returns 0 when the fit was refused (err set), 1 when it met the contract. */
static int contract(const tl_dataset *d, const char *const *kv, tl_err *err)
{
    tl_model *m = fit_kv("tree", d, kv, 5, err);
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
        fail_msg("%s %s %s %s: predictions differ after save/load", kv[0], kv[1], kv[2], kv[3]);
    tl_model *again = fit_kv("tree", d, kv, 5, err);
    assert_non_null(again);
    char *s1 = show_text(m), *s2 = show_text(again);
    if (strcmp(s1, s2))
        fail_msg("%s %s %s %s: the same seed grew another tree", kv[0], kv[1], kv[2], kv[3]);
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
                              const tl_splitter_type *nom, const tl_pruner_type *pr,
                              int regression)
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
                for (size_t ip = 0; tl_pruner_at(ip); ip++) {
                    const tl_criterion_type *c = tl_criterion_at(ic);
                    const tl_splitter_type *num = tl_splitter_at(is), *nom = tl_splitter_at(jn);
                    const tl_pruner_type *pr = tl_pruner_at(ip);
                    if (!(num->kinds & TL_KIND_BIT(TL_ATTR_NUMERIC)) ||
                        !(nom->kinds & TL_KIND_BIT(TL_ATTR_NOMINAL)))
                        continue; /* refused before any fit: tested below */
                    char kv[4][96];
                    snprintf(kv[0], sizeof kv[0], "criterion=%s", c->name);
                    snprintf(kv[1], sizeof kv[1], "numeric=%s", num->name);
                    snprintf(kv[2], sizeof kv[2], "nominal=%s", nom->name);
                    snprintf(kv[3], sizeof kv[3], "pruner=%s", pr->name);
                    const char *args[] = {kv[0], kv[1], kv[2], kv[3], "pruner.folds=3", NULL};
                    if (strcmp(pr->name, "cost_complexity"))
                        args[4] = NULL;
                    tl_err err;
                    tl_err_clear(&err);
                    const char *why = impossible(c, num, nom, pr, regression);
                    int ok = contract(d, args, &err);
                    if (why && ok)
                        fail_msg("%s %s %s %s was accepted (%s)", kv[0], kv[1], kv[2], kv[3],
                                 why);
                    if (!why && !ok)
                        fail_msg("%s %s %s %s: %s", kv[0], kv[1], kv[2], kv[3], err.msg);
                    if (why && !strstr(err.msg, why))
                        fail_msg("%s %s %s %s: '%s' does not say '%s'", kv[0], kv[1], kv[2],
                                 kv[3], err.msg, why);
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
    assert_true(ok > 100);
    tl_dataset_free(d);
    /* regression on the same attributes: the first year's wage increase as the target */
    d = tl_test_load("experiments/datasets/labor.arff", "wage-increase-first-year");
    ok = refused = 0;
    run_contract(d, 1, &ok, &refused);
    print_message("regression: %zu combinations fitted, %zu refused as documented\n", ok,
                  refused);
    assert_true(ok > 10);
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
        {{"numeric=nominal_subset"}, "splitter nominal_subset does not split numeric attributes; "
                                     "valid: numeric_threshold, c45_threshold"},
        {{"nominal=c45_threshold"}, "does not split nominal attributes"},
        {{"criterion=variance"}, "unknown criterion 'variance'; valid: entropy"},
        {{"pruner=magic"}, "unknown pruner 'magic'; valid: none, cost_complexity"},
        {{"pruner=error_based", "pruner.confidance=0.1"},
         "unknown parameter 'confidance'; valid parameters: confidence"},
        {{"pruner=none", "pruner.alpha=1"}, "pruner none: pruner.alpha: pruner none takes no "
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
        cmocka_unit_test(test_impossible_combinations),
        cmocka_unit_test(test_every_combination),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
