/* ID3 and CART: the seed examples, and agreement with scikit-learn's DecisionTreeClassifier. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tl_test_util.h"
#include "treelab/tl_model.h"
#include "treelab/tl_grow.h"

static char *show(const tl_model *m, tl_show_format fmt)
{
    static char buf[1 << 16];
    FILE *f = fmemopen(buf, sizeof buf, "w");
    tl_err err;
    if (tl_model_show(m, fmt, f, &err))
        fail_msg("show: %s", err.msg);
    fclose(f);
    return buf;
}

static void drop_id(tl_dataset *d)
{
    const char *names[16];
    size_t n = 0;
    for (size_t j = 0; j < d->schema.n_attrs; j++)
        if (strcmp(d->schema.attrs[j].name, "id"))
            names[n++] = d->schema.attrs[j].name;
    tl_err err;
    if (tl_dataset_select(d, names, n, &err))
        fail_msg("%s", err.msg);
}

static void test_id3_watermelon_root_is_texture(void **state)
{
    (void)state;
    tl_dataset *d = tl_test_load("experiments/datasets/watermelon-2.0.csv", NULL);
    drop_id(d);
    tl_model *m = tl_test_fitted("id3", d, NULL);
    const tl_tree *t = tl_model_tree(m);
    assert_string_equal(d->schema.attrs[t->attr[0]].name, "texture");
    assert_int_equal(t->kind[0], TL_SPLIT_MULTIWAY);
    /* texture = clear: the three-way tie at 0.458 goes to the first in file order, root */
    size_t clear = t->first_child[0];
    assert_string_equal(d->schema.attrs[t->attr[clear]].name, "root");
    /* the full-data ID3 tree classifies its training data */
    double pred[17];
    tl_err err;
    assert_int_equal(tl_model_predict_label(m, d, NULL, 0, pred, &err), TL_OK);
    for (size_t i = 0; i < d->n_rows; i++)
        assert_int_equal((int)pred[i], d->y.code[i]);
    /* nominal attributes are not reused on a path */
    for (size_t n = 0; n < t->n_nodes; n++)
        for (size_t a = t->parent[n]; t->attr[n] >= 0 && a != SIZE_MAX; a = t->parent[a])
            assert_int_not_equal(t->attr[n], t->attr[a]);
    tl_model_free(m);
    tl_dataset_free(d);
}

static void test_cart_engagement_depth2(void **state)
{
    (void)state;
    tl_dataset *d = tl_test_load("experiments/datasets/engagement-regression.csv", NULL);
    const char *kv[] = {"max_depth=2", NULL};
    tl_model *m = tl_test_fitted("cart", d, kv);
    const tl_tree *t = tl_model_tree(m);
    assert_close(t->threshold[0], 35, 0);
    size_t l = t->first_child[0], r = l + 1;
    assert_close(t->threshold[l], 15, 0);
    assert_close(t->threshold[r], 65, 0);
    const double leaves[] = {7, 6, 4.0 / 3.0, 4.5};
    const size_t nodes[] = {t->first_child[l], t->first_child[l] + 1, t->first_child[r],
                            t->first_child[r] + 1};
    for (size_t i = 0; i < 4; i++) {
        double v;
        tl_tree_node_predict(t, nodes[i], &v);
        assert_close(v, leaves[i], 1e-12);
    }
    tl_model_free(m);
    tl_dataset_free(d);
}

/* Targets in tiny units split as the same targets in ordinary units (variance 1e-14 is
 * not "pure"). */
/* Every split lowers the weighted Gini of its node's training statistics (C4.5's
 * fractional rows included) by more than rounding. On HouseVotes84 (392 unknown votes) CART
 * used to take the first of several worthless tests: 181 leaves, many under splits whose
 * children predict alike; now 48. */
static void test_no_split_without_gain(void **state)
{
    (void)state;
    tl_dataset *d = tl_test_load("experiments/datasets/vote.arff", NULL);
    const char *algos[] = {"cart", "id3"};
    const tl_criterion_type *crit[] = {tl_criterion_find("gini", NULL),
                                       tl_criterion_find("entropy", NULL)};
    for (int a = 0; a < 2; a++) {
        tl_model *m = tl_test_fitted(algos[a], d, NULL);
        const tl_tree *t = tl_model_tree(m);
        size_t useless = 0;
        for (size_t i = 0; i < t->n_nodes; i++) {
            if (t->attr[i] < 0)
                continue;
            double w = tl_tree_node_weight(t, i), after = 0;
            for (size_t c = 0; c < t->n_children[i]; c++) {
                size_t ch = t->first_child[i] + c;
                after +=
                    tl_tree_node_weight(t, ch) / w * crit[a]->impurity(t->stats + ch * t->k, t->k);
            }
            useless += after >= crit[a]->impurity(t->stats + i * t->k, t->k) - 1e-12;
        }
        if (useless)
            fail_msg("%s: %zu splits do not lower the impurity", algos[a], useless);
        tl_model_info info;
        tl_model_get_info(m, &info);
        assert_int_equal(info.leaves, 48);
        tl_model_free(m);
    }
    tl_dataset_free(d);
}

static void test_cart_tiny_regression_targets(void **state)
{
    (void)state;
    tl_dataset *d = tl_test_load("experiments/datasets/engagement-regression.csv", NULL);
    for (size_t i = 0; i < d->n_rows; i++)
        d->y.num[i] *= 1e-7;
    const char *kv[] = {"max_depth=2", NULL};
    tl_model *m = tl_test_fitted("cart", d, kv);
    const tl_tree *t = tl_model_tree(m);
    assert_close(t->threshold[0], 35, 0);
    assert_close(t->threshold[t->first_child[0]], 15, 0);
    assert_close(t->threshold[t->first_child[0] + 1], 65, 0);
    tl_model_free(m);
    tl_dataset_free(d);
}

static void test_cart_two_feature_boundary(void **state)
{
    (void)state;
    tl_dataset *d = tl_test_load("experiments/datasets/two-feature-boundary.arff", NULL);
    const char *kv[] = {"max_depth=2", NULL};
    tl_model *m = tl_test_fitted("cart", d, kv);
    const tl_tree *t = tl_model_tree(m);
    assert_int_equal(t->attr[0], 0);
    assert_close(t->threshold[0], 5, 0);
    size_t l = t->first_child[0], r = l + 1;
    assert_int_equal(t->attr[l], 1);
    assert_close(t->threshold[l], 8, 0);
    assert_int_equal(t->attr[r], 1);
    assert_close(t->threshold[r], 2.5, 0);
    double pred[12];
    assert_int_equal(tl_model_predict_label(m, d, NULL, 0, pred, NULL), TL_OK);
    for (size_t i = 0; i < 12; i++)
        assert_int_equal((int)pred[i], d->y.code[i]);
    tl_model_free(m);
    tl_dataset_free(d);
}

static void test_cart_app_recommendation(void **state)
{
    (void)state;
    tl_dataset *d = tl_test_load("experiments/datasets/app-recommendation.csv", NULL);
    tl_model *m = tl_test_fitted("cart", d, NULL);
    const char *text = show(m, TL_SHOW_TEXT);
    assert_non_null(strstr(text, "age <= 20: Atom Count (3.0)\n"
                                 "age > 20\n"
                                 "|   platform in {iPhone}: Check Mate Mate (2.0)\n"
                                 "|   platform in {Android}: Beehive Finder (1.0)\n"));
    tl_model_free(m);
    tl_dataset_free(d);
}

/* A row of zero weight is not there: scikit-learn drops it before splitting, so
 * DecisionTree{Classifier,Regressor}().fit([[1],[2],[3],[4]], y, sample_weight=[1,0,1,1])
 * cuts at 2.0 (between 1 and 3) for y = a,b,b,b and for y = 1,5,5,5. Cutting next to the
 * weightless row gave 1.5. */
static void test_cart_zero_weight_rows_place_no_cut(void **state)
{
    (void)state;
    const char *csv[2] = {"x,y\n1,a\n2,b\n3,b\n4,b\n", "x,y\n1,1\n2,5\n3,5\n4,5\n"};
    for (int i = 0; i < 2; i++) {
        tl_err err;
        tl_dataset *d = tl_dataset_load(tl_test_tmpfile(".csv", csv[i]), NULL, &err);
        if (!d)
            fail_msg("%s", err.msg);
        d->weight = malloc(4 * sizeof *d->weight);
        for (size_t r = 0; r < 4; r++)
            d->weight[r] = r == 1 ? 0.0 : 1.0;
        tl_model *m = tl_test_fitted("cart", d, NULL);
        const tl_tree *t = tl_model_tree(m);
        assert_int_equal(t->n_nodes, 3);
        assert_close(t->threshold[0], 2.0, 0);
        tl_model_free(m);
        tl_dataset_free(d);
    }
}

/* Leaf labels with more classes than show's old 256-entry buffer: each leaf names its own
 * majority class (it printed the first class for every leaf). */
static void test_show_labels_with_many_classes(void **state)
{
    (void)state;
    static char csv[8192];
    size_t used = (size_t)snprintf(csv, sizeof csv, "x,y\n");
    for (int i = 0; i < 300; i++)
        used += (size_t)snprintf(csv + used, sizeof csv - used, "%d,k%03d\n", i, i);
    tl_err err;
    tl_dataset *d = tl_dataset_load(tl_test_tmpfile(".csv", csv), NULL, &err);
    if (!d)
        fail_msg("%s", err.msg);
    const char *kv[] = {"max_depth=1", NULL};
    tl_model *m = tl_test_fitted("cart", d, kv);
    const tl_tree *t = tl_model_tree(m);
    assert_int_equal(t->n_nodes, 3);
    const char *text = show(m, TL_SHOW_TEXT);
    for (size_t b = 0; b < 2; b++) {
        const char *label = d->schema.target.levels[tl_tree_node_class(t, t->first_child[0] + b)];
        char want[64];
        snprintf(want, sizeof want, ": %s (", label);
        if (!strstr(text, want))
            fail_msg("leaf %zu should read '%s' in:\n%s", b, want, text);
    }
    assert_int_not_equal(tl_tree_node_class(t, 1), tl_tree_node_class(t, 2));
    tl_model_free(m);
    tl_dataset_free(d);
}

/* ---- scikit-learn agreement (tests/fixtures/sklearn_cart_*.txt, scripts/peers/sklearn_cart.py) */
typedef struct {
    size_t leaves, depth, n_pred, n_alpha;
    double cv_accuracy;
    int pred[1024];
    double alpha[256];
    size_t n_folds_lines, fold_len[10];
    int folds[10][1024]; /* scikit-learn's test fold of every row, per repeat */
} sk_fixture;

static void read_fixture(const char *name, sk_fixture *fx)
{
    char rel[256];
    snprintf(rel, sizeof rel, "tests/fixtures/sklearn_cart_%s.txt", name);
    FILE *f = fopen(tl_test_path(rel), "r");
    if (!f)
        fail_msg("cannot open %s", rel);
    memset(fx, 0, sizeof *fx);
    char *line = NULL;
    size_t cap = 0;
    while (getline(&line, &cap, f) > 0) {
        char *save, *key = strtok_r(line, " \n", &save), *tok;
        if (!key || key[0] == '#')
            continue;
        int is_folds = !strcmp(key, "folds");
        while ((tok = strtok_r(NULL, " \n", &save))) {
            if (!strcmp(key, "leaves"))
                fx->leaves = strtoul(tok, NULL, 10);
            else if (!strcmp(key, "depth"))
                fx->depth = strtoul(tok, NULL, 10);
            else if (!strcmp(key, "cv_accuracy"))
                fx->cv_accuracy = strtod(tok, NULL);
            else if (!strcmp(key, "predictions"))
                fx->pred[fx->n_pred++] = atoi(tok);
            else if (!strcmp(key, "folds") && fx->n_folds_lines < 10)
                fx->folds[fx->n_folds_lines][fx->fold_len[fx->n_folds_lines]++] = atoi(tok);
            else if (!strcmp(key, "ccp_alphas"))
                fx->alpha[fx->n_alpha++] = strtod(tok, NULL);
        }
        if (is_folds)
            fx->n_folds_lines++;
    }
    free(line);
    fclose(f);
}

/* Mean accuracy over the repeated 10-fold CVs of the fixture, on scikit-learn's own folds. */
static double cv_accuracy(tl_dataset *d, const char *algo, const sk_fixture *fx)
{
    size_t repeats = fx->n_folds_lines;
    size_t n = d->n_rows, *rows = malloc(n * sizeof *rows), *fold = malloc(n * sizeof *fold);
    size_t *train = malloc(n * sizeof *train), *test = malloc(n * sizeof *test);
    double *pred = malloc(n * sizeof *pred), correct = 0;
    for (size_t i = 0; i < n; i++)
        rows[i] = i;
    tl_err err;
    for (size_t r = 0; r < repeats; r++) {
        assert_int_equal(fx->fold_len[r], n);
        for (size_t i = 0; i < n; i++)
            fold[i] = (size_t)fx->folds[r][i];
        for (size_t f = 0; f < 10; f++) {
            size_t ntr = 0, nte = 0;
            for (size_t i = 0; i < n; i++) {
                if (fold[i] == f)
                    test[nte++] = i;
                else
                    train[ntr++] = i;
            }
            tl_model *m = tl_model_new(algo, NULL, &err);
            tl_fit_ctx ctx = {r, NULL, 0, 0};
            assert_int_equal(tl_model_fit(m, d, train, ntr, &ctx, &err), TL_OK);
            assert_int_equal(tl_model_predict_label(m, d, test, nte, pred, &err), TL_OK);
            for (size_t i = 0; i < nte; i++)
                correct += (int)pred[i] == d->y.code[test[i]];
            tl_model_free(m);
        }
    }
    free(rows);
    free(fold);
    free(train);
    free(test);
    free(pred);
    return correct / (double)(n * repeats);
}

static void check_against_sklearn(const char *name)
{
    sk_fixture *fx = malloc(sizeof *fx);
    read_fixture(name, fx);
    char rel[256];
    snprintf(rel, sizeof rel, "experiments/datasets/%s.arff", name);
    tl_dataset *d = tl_test_load(rel, NULL);
    tl_model *m = tl_test_fitted("cart", d, NULL);
    tl_model_info info;
    tl_model_get_info(m, &info);
    assert_int_equal(info.leaves, fx->leaves);
    assert_int_equal(info.depth, fx->depth);
    double *pred = malloc(d->n_rows * sizeof *pred);
    assert_int_equal(fx->n_pred, d->n_rows);
    assert_int_equal(tl_model_predict_label(m, d, NULL, 0, pred, NULL), TL_OK);
    for (size_t i = 0; i < d->n_rows; i++)
        assert_int_equal((int)pred[i], fx->pred[i]);
    tl_ccp_path path;
    const tl_tree *t = tl_model_tree(m);
    assert_int_equal(tl_ccp_path_compute(t, tl_criterion_find("gini", NULL), 0, &path, NULL),
                     TL_OK);
    assert_int_equal(path.n, fx->n_alpha);
    for (size_t i = 0; i < path.n; i++)
        assert_close(path.alpha[i], fx->alpha[i], 1e-9);
    assert_int_equal(path.leaves[0], fx->leaves);
    assert_int_equal(path.leaves[path.n - 1], 1);
    /* 10 x 10-fold CV on scikit-learn's folds: within one point (ties between equally good
     * splits may go another way on a fold, so the trees need not be identical there) */
    assert_int_equal(fx->n_folds_lines, 10);
    double acc = cv_accuracy(d, "cart", fx);
    print_message("%s: 10x10 CV accuracy %.4f, scikit-learn %.4f\n", name, acc, fx->cv_accuracy);
    if (fabs(acc - fx->cv_accuracy) > 0.01)
        fail_msg("%s: 10x10 CV accuracy %.4f, scikit-learn %.4f", name, acc, fx->cv_accuracy);
    tl_ccp_path_free(&path);
    free(pred);
    free(fx);
    tl_model_free(m);
    tl_dataset_free(d);
}

/* The first node on row's path from the root whose cut alpha is at most beta, or its leaf
 * (rows without unknown values). */
static size_t cut_node(const tl_tree *t, const tl_dataset *d, size_t row, const double *cut,
                       double beta)
{
    size_t node = 0;
    while (t->attr[node] >= 0 && cut[node] > beta)
        node = t->first_child[node] + (size_t)tl_tree_route_row(t, node, d, row);
    return node;
}

/* tl_ccp_cut_alphas serves every alpha at once: at each midpoint of the weakest-link
 * sequence, the subtree tl_ccp_prune keeps has the leaves the cut alphas say, and predicts
 * every row as the node where the row's path is first cut (breast cancer with Gini risk,
 * wine with error risk, the engagement regression). */
static void test_ccp_cut_alphas_match_pruning(void **state)
{
    (void)state;
    const char *files[] = {"experiments/datasets/breast_cancer.arff",
                           "experiments/datasets/wine.arff",
                           "experiments/datasets/engagement-regression.csv"};
    const char *crits[] = {"gini", "gini", "mse"};
    for (int f = 0; f < 3; f++) {
        tl_dataset *d = tl_test_load(files[f], NULL);
        tl_model *m = tl_test_fitted("cart", d, NULL);
        const tl_tree *t = tl_model_tree(m);
        const tl_criterion_type *crit = tl_criterion_find(crits[f], NULL);
        int risk_error = f == 1;
        double *cut = malloc(t->n_nodes * sizeof *cut);
        double pa[256], pb[256];
        assert_int_equal(tl_ccp_cut_alphas(t, crit, risk_error, cut, NULL), TL_OK);
        tl_ccp_path path;
        assert_int_equal(tl_ccp_path_compute(t, crit, risk_error, &path, NULL), TL_OK);
        assert_true(path.n > 3);
        for (size_t i = 0; i < path.n; i++) {
            double beta = i + 1 < path.n ? sqrt(path.alpha[i] * path.alpha[i + 1]) : path.alpha[i];
            tl_tree *c = tl_tree_copy(t, NULL);
            assert_int_equal(tl_ccp_prune(c, crit, risk_error, beta, NULL), TL_OK);
            size_t leaves = 0;
            for (size_t n = 0; n < t->n_nodes; n++) {
                int alive = 1;
                for (size_t a = t->parent[n]; a != SIZE_MAX; a = t->parent[a])
                    alive &= cut[a] > beta;
                leaves += alive && (t->attr[n] < 0 || cut[n] <= beta);
            }
            assert_int_equal(leaves, tl_tree_leaves(c, 0));
            assert_int_equal(leaves, path.leaves[i]);
            for (size_t r = 0; r < d->n_rows; r++) {
                assert_int_equal(tl_tree_predict(c, d, &r, 1, pa, NULL), TL_OK);
                tl_tree_node_predict(t, cut_node(t, d, r, cut, beta), pb);
                for (size_t j = 0; j < (t->regression ? 1 : t->k); j++)
                    assert_true(pa[j] == pb[j]);
            }
            tl_tree_free(c);
        }
        tl_ccp_path_free(&path);
        free(cut);
        tl_model_free(m);
        tl_dataset_free(d);
    }
}

/* numeric_threshold's fast sweep (packed values, Gini inlined, the division-free bound that
 * skips hopeless cuts) grows the very tree of the general sweep, which calls the
 * criterion's impurity for every cut: the same Gini without its declared TL_IMPURITY_GINI form. */
static void test_fast_gini_sweep_grows_the_same_tree(void **state)
{
    (void)state;
    const char *files[] = {"experiments/datasets/digits.arff",
                           "experiments/datasets/segment-challenge.arff",
                           "experiments/datasets/breast_cancer.arff"};
    tl_criterion_type plain = *tl_criterion_find("gini", NULL);
    assert_int_equal(plain.form, TL_IMPURITY_GINI);
    plain.form = TL_IMPURITY_OPAQUE;
    for (int f = 0; f < 3; f++) {
        tl_dataset *d = tl_test_load(files[f], NULL);
        size_t *rows = malloc(d->n_rows * sizeof *rows);
        for (size_t i = 0; i < d->n_rows; i++)
            rows[i] = i;
        tl_grow_params gp;
        tl_grow_params_init(&gp);
        gp.numeric = tl_splitter_find("numeric_threshold", NULL);
        gp.nominal = tl_splitter_find("nominal_subset", NULL);
        gp.criterion = tl_criterion_find("gini", NULL);
        tl_tree *fast = tl_grow(d, rows, d->n_rows, &gp, NULL);
        gp.criterion = &plain;
        tl_tree *slow = tl_grow(d, rows, d->n_rows, &gp, NULL);
        assert_non_null(fast);
        assert_non_null(slow);
        assert_true(fast->n_nodes > 40);
        assert_int_equal(fast->n_nodes, slow->n_nodes);
        for (size_t n = 0; n < fast->n_nodes; n++) {
            assert_int_equal(fast->attr[n], slow->attr[n]);
            assert_true(fast->threshold[n] == slow->threshold[n]);
            assert_int_equal(fast->n_children[n], slow->n_children[n]);
        }
        tl_tree_free(fast);
        tl_tree_free(slow);
        free(rows);
        tl_dataset_free(d);
    }
}

static void test_cart_sklearn_iris(void **state)
{
    (void)state;
    check_against_sklearn("iris");
}
static void test_cart_sklearn_breast_cancer(void **state)
{
    (void)state;
    check_against_sklearn("breast_cancer");
}
static void test_cart_sklearn_wine(void **state)
{
    (void)state;
    check_against_sklearn("wine");
}

/* CART's cost-complexity sequence with misclassification (or squared-error) risk equals
 * rpart's cptable: CP times the root risk is the alpha, splits + 1 the leaves, the relative
 * error times the root risk the risk (tests/fixtures/rpart_*.txt, scripts/peers/
 * rpart_cptable.R). */
static void check_rpart(const char *name, const char *file)
{
    char rel[256], line[512];
    snprintf(rel, sizeof rel, "tests/fixtures/rpart_%s.txt", name);
    FILE *f = fopen(tl_test_path(rel), "r");
    if (!f)
        fail_msg("cannot open %s", rel);
    double root = 0, cp[64], relerr[64];
    int nsplit[64];
    size_t n = 0;
    while (fgets(line, sizeof line, f)) {
        if (line[0] == '#')
            continue;
        if (!strncmp(line, "root_risk ", 10))
            root = strtod(line + 10, NULL);
        else if (n < 64 && sscanf(line, "%lf %d %lf", &cp[n], &nsplit[n], &relerr[n]) == 3)
            n++;
    }
    fclose(f);
    tl_dataset *d = tl_test_load(file, NULL);
    const char *kv[] = {"ccp_risk=error", NULL};
    tl_model *m = tl_test_fitted("cart", d, kv);
    tl_ccp_path path;
    const tl_tree *t = tl_model_tree(m);
    const char *crit = tl_dataset_is_classification(d) ? "gini" : "mse";
    assert_int_equal(tl_ccp_path_compute(t, tl_criterion_find(crit, NULL), 1, &path, NULL), TL_OK);
    if (path.n != n)
        fail_msg("%s: %zu subtrees, rpart has %zu", name, path.n, n);
    for (size_t r = 0; r < n; r++) {
        size_t i = n - 1 - r; /* rpart lists the root first */
        assert_int_equal(path.leaves[i], (size_t)nsplit[r] + 1);
        assert_close(path.alpha[i], cp[r] * root, 1e-12);
        assert_close(path.risk[i], relerr[r] * root, 1e-12);
    }
    tl_ccp_path_free(&path);
    tl_model_free(m);
    tl_dataset_free(d);
}

static void test_cart_rpart_cptable(void **state)
{
    (void)state;
    check_rpart("iris", "experiments/datasets/iris.arff");
    check_rpart("wine", "experiments/datasets/wine.arff");
    check_rpart("breast_cancer", "experiments/datasets/breast_cancer.arff");
    /* Not asserted: diabetes, where rpart's grown tree (128 leaves, as ours) takes other
     * splits among equally good ones deep down and the sequences part after the third
     * subtree; glass, where rpart gives the 16-leaf subtree CP 0.0109 (alpha 6/214/4)
     * against the weakest-link 0.0078 (5/214/3) that treelab and scikit-learn compute. */
    check_rpart("engagement", "experiments/datasets/engagement-regression.csv");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_id3_watermelon_root_is_texture),
        cmocka_unit_test(test_cart_engagement_depth2),
        cmocka_unit_test(test_cart_tiny_regression_targets),
        cmocka_unit_test(test_no_split_without_gain),
        cmocka_unit_test(test_cart_two_feature_boundary),
        cmocka_unit_test(test_cart_app_recommendation),
        cmocka_unit_test(test_cart_zero_weight_rows_place_no_cut),
        cmocka_unit_test(test_show_labels_with_many_classes),
        cmocka_unit_test(test_cart_sklearn_iris),
        cmocka_unit_test(test_cart_sklearn_breast_cancer),
        cmocka_unit_test(test_cart_sklearn_wine),
        cmocka_unit_test(test_cart_rpart_cptable),
        cmocka_unit_test(test_ccp_cut_alphas_match_pruning),
        cmocka_unit_test(test_fast_gini_sweep_grows_the_same_tree),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
