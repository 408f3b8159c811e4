/* The criteria and splitter plug-ins: worked numbers for Hellinger, twoing, chi-square, G, DKM
 * and the distance measure, and the random attribute subset (test_pruners.c has the pruners,
 * test_contract.c the contract every registered combination meets). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tl_test_util.h"
#include "treelab/tl_grow.h"
#include "treelab/tl_model.h"

/* Fails the test unless a and b show the same tree. */
static void assert_same_tree(const tl_model *a, const tl_model *b)
{
    char *x = tl_test_show(a, TL_SHOW_TEXT), *y = tl_test_show(b, TL_SHOW_TEXT);
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
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
