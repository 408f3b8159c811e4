/* The regression criteria mae and friedman_mse against scikit-learn 1.2's
 * DecisionTreeRegressor(criterion="absolute_error" / "friedman_mse"): every node's attribute,
 * threshold and value, the shape and the training predictions, from
 * tests/fixtures/sklearn_regression.txt (scripts/peers/sklearn_regression.py). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tl_test_util.h"
#include "treelab/tl_grow.h"
#include "treelab/tl_model.h"

/* One recorded tree: scikit-learn's node arrays and its training predictions. */
typedef struct sk_case {
    char dataset[64], criterion[32], variant[64];
    size_t nodes, leaves, depth, n_pred;
    int *feature;
    long *left, *right;
    double *threshold, *value, *pred;
} sk_case;

static void case_free(sk_case *c)
{
    free(c->feature);
    free(c->left);
    free(c->right);
    free(c->threshold);
    free(c->value);
    free(c->pred);
    memset(c, 0, sizeof *c);
}

/* The next case of the fixture into c; 0 at the end. */
static int read_case(FILE *f, sk_case *c)
{
    char *line = NULL;
    size_t cap = 0;
    int have = 0;
    long pos = ftell(f);
    while (getline(&line, &cap, f) > 0) {
        if (line[0] == '#')
            continue;
        if (!strncmp(line, "case ", 5)) {
            if (have) { /* the next case: read it next time */
                fseek(f, pos, SEEK_SET);
                break;
            }
            have = 1;
            assert_int_equal(
                sscanf(line, "case %63s %31s %63s", c->dataset, c->criterion, c->variant), 3);
        } else if (!strncmp(line, "shape ", 6)) {
            assert_int_equal(sscanf(line, "shape %zu %zu %zu", &c->nodes, &c->leaves, &c->depth),
                             3);
            c->feature = calloc(c->nodes, sizeof *c->feature);
            c->left = calloc(c->nodes, sizeof *c->left);
            c->right = calloc(c->nodes, sizeof *c->right);
            c->threshold = calloc(c->nodes, sizeof *c->threshold);
            c->value = calloc(c->nodes, sizeof *c->value);
        } else if (!strncmp(line, "node ", 5)) {
            size_t i;
            int feat;
            long l, r;
            double t, v;
            assert_int_equal(sscanf(line, "node %zu %d %lf %ld %ld %lf", &i, &feat, &t, &l, &r, &v),
                             6);
            assert_true(i < c->nodes);
            c->feature[i] = feat;
            c->threshold[i] = t;
            c->left[i] = l;
            c->right[i] = r;
            c->value[i] = v;
        } else if (!strncmp(line, "predictions ", 12)) {
            size_t n = 1;
            for (const char *s = line; *s; s++)
                n += *s == ' ';
            c->pred = malloc(n * sizeof *c->pred);
            char *save, *tok = strtok_r(line + 12, " \n", &save);
            for (; tok; tok = strtok_r(NULL, " \n", &save))
                c->pred[c->n_pred++] = strtod(tok, NULL);
        }
        pos = ftell(f);
    }
    free(line);
    return have;
}

/* The case's data as scikit-learn saw it: attributes rounded to float32 (it fits on float32
 * X; the target stays float64), so thresholds, the midpoints of two adjacent values, are the
 * same doubles on both sides. */
static tl_dataset *load_case_data(const char *name)
{
    struct {
        const char *name, *path, *target, *attrs[8];
    } sets[] = {
        {"engagement", "experiments/datasets/engagement-regression.csv", NULL, {NULL}},
        {"two_feature", "experiments/datasets/two-feature-boundary.csv", NULL, {NULL}},
        {"ties", "tests/fixtures/regression_ties.csv", NULL, {NULL}},
        {"ties_x0", "tests/fixtures/regression_ties.csv", NULL, {"x0", NULL}},
        {"diabetes_age",
         "experiments/datasets/diabetes.arff",
         "age",
         {"preg", "plas", "pres", "skin", "insu", "mass", "pedi", NULL}},
        {"diabetes_age_plas", "experiments/datasets/diabetes.arff", "age", {"plas", NULL}},
        {"diabetes_age_mass", "experiments/datasets/diabetes.arff", "age", {"mass", NULL}},
    };
    for (size_t s = 0; s < sizeof sets / sizeof *sets; s++) {
        if (strcmp(sets[s].name, name))
            continue;
        tl_dataset *d = tl_test_load(sets[s].path, sets[s].target);
        size_t n = 0;
        while (sets[s].attrs[n])
            n++;
        tl_err err;
        if (n && tl_dataset_select(d, sets[s].attrs, n, &err))
            fail_msg("%s: %s", name, err.msg);
        for (size_t j = 0; j < d->schema.n_attrs; j++) {
            assert_int_equal(d->schema.attrs[j].kind, TL_ATTR_NUMERIC);
            for (size_t r = 0; r < d->n_rows; r++)
                d->cols[j].num[r] = (double)(float)d->cols[j].num[r];
        }
        return d;
    }
    fail_msg("no dataset %s", name);
    return NULL;
}

static tl_model *fit_case(const sk_case *c, const tl_dataset *d)
{
    tl_params p;
    tl_params_init(&p);
    tl_err err;
    char crit[64], extra[96];
    snprintf(crit, sizeof crit, "criterion=%s",
             strcmp(c->criterion, "absolute_error") ? c->criterion : "mae");
    /* the variant is a parameter of both (max_depth=3, ...), "default" none */
    snprintf(extra, sizeof extra, "%s", strcmp(c->variant, "default") ? c->variant : "");
    const char *kv[] = {crit, "pruner=none", "numeric=numeric_threshold", extra};
    for (size_t i = 0; i < 4; i++)
        if (kv[i][0] && tl_params_set_kv(&p, kv[i], &err))
            fail_msg("%s: %s", kv[i], err.msg);
    tl_model *m = tl_model_new("tree", &p, &err);
    tl_params_clear(&p);
    if (!m)
        fail_msg("%s", err.msg);
    tl_fit_ctx ctx = {.seed = 0};
    if (tl_model_fit(m, d, NULL, 0, &ctx, &err))
        fail_msg("%s %s %s: %s", c->dataset, c->criterion, c->variant, err.msg);
    return m;
}

/* Values to 1e-12 relative: medians and means are exact on both sides but a mean's sum may
 * be added in another order. */
static int close_rel(double a, double b)
{
    return a == b || fabs(a - b) <= 1e-12 * fmax(fabs(a), fabs(b));
}

/* Walks scikit-learn's tree and treelab's side by side (a stack of node pairs). */
static void compare_nodes(const sk_case *c, const tl_tree *t)
{
    size_t *stack = malloc(2 * c->nodes * sizeof *stack), sp = 0;
    stack[sp++] = 0;
    stack[sp++] = 0;
    while (sp) {
        size_t tn = stack[--sp], sn = stack[--sp];
        const char *what = NULL;
        double out;
        tl_tree_node_predict(t, tn, &out);
        if ((c->feature[sn] < 0) != (t->attr[tn] < 0))
            what = c->feature[sn] < 0 ? "a leaf in scikit-learn" : "a split in scikit-learn";
        else if (c->feature[sn] >= 0 && c->feature[sn] != t->attr[tn])
            what = "the attribute";
        else if (c->feature[sn] >= 0 && c->threshold[sn] != t->threshold[tn])
            what = "the threshold";
        else if (!close_rel(c->value[sn], out))
            what = "the value";
        if (what)
            fail_msg("%s %s %s: node %zu (scikit-learn %zu) differs in %s: attr %d / %d, "
                     "threshold %.17g / %.17g, value %.17g / %.17g",
                     c->dataset, c->criterion, c->variant, tn, sn, what, t->attr[tn],
                     c->feature[sn], t->threshold[tn], c->threshold[sn], out, c->value[sn]);
        if (c->feature[sn] < 0)
            continue;
        stack[sp++] = (size_t)c->left[sn];
        stack[sp++] = t->first_child[tn];
        stack[sp++] = (size_t)c->right[sn];
        stack[sp++] = t->first_child[tn] + 1;
    }
    free(stack);
}

static void check_case(const sk_case *c)
{
    tl_dataset *d = load_case_data(c->dataset);
    tl_model *m = fit_case(c, d);
    const tl_tree *t = tl_model_tree(m);
    assert_non_null(t);
    if (t->n_nodes != c->nodes || tl_tree_leaves(t, 0) != c->leaves ||
        tl_tree_depth(t, 0) != c->depth)
        fail_msg("%s %s %s: %zu nodes, %zu leaves, depth %zu; scikit-learn %zu, %zu, %zu",
                 c->dataset, c->criterion, c->variant, t->n_nodes, tl_tree_leaves(t, 0),
                 tl_tree_depth(t, 0), c->nodes, c->leaves, c->depth);
    compare_nodes(c, t);
    assert_int_equal(c->n_pred, d->n_rows);
    double *pred = malloc(d->n_rows * sizeof *pred);
    tl_err err;
    assert_int_equal(tl_model_predict(m, d, NULL, 0, pred, &err), TL_OK);
    for (size_t i = 0; i < d->n_rows; i++)
        if (!close_rel(pred[i], c->pred[i]))
            fail_msg("%s %s %s: row %zu predicts %.17g, scikit-learn %.17g", c->dataset,
                     c->criterion, c->variant, i, pred[i], c->pred[i]);
    free(pred);
    tl_model_free(m);
    tl_dataset_free(d);
}

/* Every recorded case of one criterion; at least `min_cases` of them. */
static void check_criterion(const char *criterion, size_t min_cases)
{
    FILE *f = fopen(tl_test_path("tests/fixtures/sklearn_regression.txt"), "r");
    if (!f)
        fail_msg("cannot open tests/fixtures/sklearn_regression.txt");
    sk_case c = {0};
    size_t n = 0, nodes = 0;
    while (read_case(f, &c)) {
        if (!strcmp(c.criterion, criterion)) {
            check_case(&c);
            n++;
            nodes += c.nodes;
        }
        case_free(&c);
    }
    fclose(f);
    print_message("%s: %zu scikit-learn trees (%zu nodes) matched\n", criterion, n, nodes);
    assert_true(n >= min_cases);
}

static void test_friedman_mse_matches_sklearn(void **state)
{
    (void)state;
    check_criterion("friedman_mse", 18);
}

/* The weighted median and loss of every prefix, worked by hand: y = 3, 1, 2, 10 with weights
 * 1, 2, 1, 4. {3}: 3, loss 0. {1 (w 2), 3}: half of 3 is reached at 1, loss 2. {1, 1, 2, 3}
 * (weights): half of 4 is reached exactly at 1, so (1 + 2) / 2 = 1.5, loss 2(0.5) + 0.5 + 1.5
 * = 3. With 10 (w 4): half of 8 exactly at 3, (3 + 10) / 2 = 6.5, loss 2(5.5) + 4.5 + 3.5 +
 * 4(3.5) = 33. And around a large offset (1e9 + 0.25, 0.5, 1): medians 1e9 + 0.375 and
 * 1e9 + 0.5, losses 0.25 and 0.75, exactly. */
static void test_mae_weighted_median_worked_example(void **state)
{
    (void)state;
    const tl_criterion_type *mae = tl_criterion_find("mae", NULL);
    assert_non_null(mae);
    assert_non_null(mae->prefix_loss);
    assert_null(mae->impurity);
    double y[] = {3, 1, 2, 10}, w[] = {1, 2, 1, 4}, loss[4], value[4], work[4 * TL_ROW_WORK];
    mae->prefix_loss(NULL, y, w, 4, loss, value, work);
    double want_v[] = {3, 1, 1.5, 6.5}, want_l[] = {0, 2, 3, 33};
    for (size_t i = 0; i < 4; i++) {
        assert_true(value[i] == want_v[i]);
        assert_true(loss[i] == want_l[i]);
    }
    double big[] = {1e9 + 0.25, 1e9 + 0.5, 1e9 + 1}, ones[] = {1, 1, 1};
    mae->prefix_loss(NULL, big, ones, 3, loss, value, work);
    assert_true(value[1] == 1e9 + 0.375);
    assert_true(loss[1] == 0.25);
    assert_true(value[2] == 1e9 + 0.5);
    assert_true(loss[2] == 0.75);
}

static void test_mae_matches_sklearn(void **state)
{
    (void)state;
    check_criterion("absolute_error", 15);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_mae_weighted_median_worked_example),
        cmocka_unit_test(test_mae_matches_sklearn),
        cmocka_unit_test(test_friedman_mse_matches_sklearn),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
