/* Validation pre-pruning and reduced-error post-pruning: the watermelon 2.0 example of seed
 * 003 (Zhou, section 4.3; table in ../shared/seed-data/README.md) for both ways the root tie
 * can go, and the pruners under C4.5 and CART, with protocol or held-out validation rows. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tl_test_util.h"
#include "treelab/tl_model.h"
#include "treelab/tl_tree.h"

/* The textbook's split, 0-based. */
static const size_t train_rows[] = {0, 1, 2, 5, 6, 9, 13, 14, 15, 16};
static const size_t valid_rows[] = {3, 4, 7, 8, 10, 11, 12};
#define N_TRAIN (sizeof train_rows / sizeof *train_rows)
#define N_VALID (sizeof valid_rows / sizeof *valid_rows)

static tl_dataset *watermelon(void)
{
    tl_dataset *d = tl_test_load("experiments/datasets/watermelon-2.0.csv", NULL);
    static const char *const attrs[] = {"color", "root", "knock", "texture", "navel", "touch"};
    tl_err err;
    tl_err_clear(&err);
    if (tl_dataset_select(d, attrs, 6, &err))
        fail_msg("select: %s", err.msg);
    /* majority ties go to "yes" as in the textbook: it is class 0, and ties take the lowest */
    assert_string_equal(d->schema.target.levels[0], "yes");
    return d;
}

static tl_model *fit(const char *algo, const tl_dataset *d, const char *const *kv, size_t n_kv,
                     const size_t *rows, size_t n, const tl_fit_ctx *ctx)
{
    tl_err err;
    tl_err_clear(&err);
    tl_params p;
    tl_params_init(&p);
    for (size_t i = 0; i < n_kv; i++)
        if (tl_params_set_kv(&p, kv[i], &err))
            fail_msg("%s: %s", kv[i], err.msg);
    tl_model *m = tl_model_new(algo, &p, &err);
    tl_params_clear(&p);
    if (!m)
        fail_msg("%s: %s", algo, err.msg);
    if (tl_model_fit(m, d, rows, n, ctx, &err))
        fail_msg("fit %s: %s", algo, err.msg);
    return m;
}

static size_t correct(const tl_model *m, const tl_dataset *d, const size_t *rows, size_t n)
{
    double *pred = malloc(n * sizeof *pred);
    tl_err err;
    tl_err_clear(&err);
    if (tl_model_predict_label(m, d, rows, n, pred, &err))
        fail_msg("predict: %s", err.msg);
    size_t c = 0;
    for (size_t i = 0; i < n; i++)
        c += (int)pred[i] == d->y.code[rows[i]];
    free(pred);
    return c;
}

static void check_row(const char *tie_break, const char *root, const size_t want[3])
{
    static const char *const prunes[] = {"prune=none", "prune=pre_validation",
                                         "prune=reduced_error"};
    tl_dataset *d = watermelon();
    tl_fit_ctx ctx = {.seed = 1, .valid_rows = valid_rows, .n_valid = N_VALID};
    char tb[64];
    snprintf(tb, sizeof tb, "tie_break=%s", tie_break);
    for (size_t i = 0; i < 3; i++) {
        const char *kv[2] = {prunes[i], tb};
        tl_model *m = fit("id3", d, kv, 2, train_rows, N_TRAIN, &ctx);
        const tl_tree *t = tl_model_tree(m);
        assert_true(t->attr[0] >= 0);
        assert_string_equal(d->schema.attrs[t->attr[0]].name, root);
        size_t c = correct(m, d, valid_rows, N_VALID);
        if (c != want[i])
            fail_msg("tie_break %s, %s: %zu of 7 right, expected %zu", tie_break, prunes[i], c,
                     want[i]);
        tl_model_free(m);
    }
    tl_dataset_free(d);
}

/* Root navel (the textbook's tree): unpruned 3/7, pre-pruned 5/7, post-pruned 5/7. */
static void test_navel_first(void **state)
{
    (void)state;
    const size_t want[3] = {3, 5, 5};
    check_row("navel", "navel", want);
}

/* Root color (file order wins the tie): 2, 4, 4. */
static void test_color_first(void **state)
{
    (void)state;
    const size_t want[3] = {2, 4, 4};
    check_row("file", "color", want);
}

/* Shapes for the navel root: the unpruned tree has 11 leaves; pre-pruning stops at the navel
 * stump; reduced-error pruning, which prunes on ties (the seed README's rule; Zhou prunes only
 * on a strict gain and keeps a subtree under slightly-sunken), also ends at the stump. */
static void test_tree_shapes(void **state)
{
    (void)state;
    static const struct {
        const char *prune;
        size_t leaves, depth;
    } want[] = {
        {"prune=none", 11, 4}, {"prune=pre_validation", 3, 1}, {"prune=reduced_error", 3, 1}};
    tl_dataset *d = watermelon();
    tl_fit_ctx ctx = {.seed = 1, .valid_rows = valid_rows, .n_valid = N_VALID};
    for (size_t i = 0; i < 3; i++) {
        const char *kv[2] = {want[i].prune, "tie_break=navel"};
        tl_model *m = fit("id3", d, kv, 2, train_rows, N_TRAIN, &ctx);
        tl_model_info info;
        tl_model_get_info(m, &info);
        assert_int_equal(info.leaves, want[i].leaves);
        assert_int_equal(info.depth, want[i].depth);
        tl_model_free(m);
    }
    tl_dataset_free(d);
}

/* Both pruners under C4.5 and CART: reduced-error pruning never lowers validation accuracy,
 * and pre-pruning keeps a subtree of the unpruned tree's size at most. */
static void test_c45_and_cart(void **state)
{
    (void)state;
    static const char *const algos[] = {"c45", "cart"};
    tl_dataset *d = tl_test_load("experiments/datasets/credit-g.arff", NULL);
    size_t n = d->n_rows, nt = 0, nv = 0;
    size_t *tr = malloc(n * sizeof *tr), *va = malloc(n * sizeof *va);
    for (size_t i = 0; i < n; i++) {
        if (i % 3 == 0)
            va[nv++] = i;
        else
            tr[nt++] = i;
    }
    tl_fit_ctx ctx = {.seed = 7, .valid_rows = va, .n_valid = nv};
    for (size_t a = 0; a < 2; a++) {
        const char *unpruned = !strcmp(algos[a], "c45") ? "prune=false" : "prune=none";
        tl_model *full = fit(algos[a], d, &unpruned, 1, tr, nt, &ctx);
        const char *kv_post = "prune=reduced_error", *kv_pre = "prune=pre_validation";
        tl_model *post = fit(algos[a], d, &kv_post, 1, tr, nt, &ctx);
        tl_model *pre = fit(algos[a], d, &kv_pre, 1, tr, nt, &ctx);
        tl_model_info fi, po, pr;
        tl_model_get_info(full, &fi);
        tl_model_get_info(post, &po);
        tl_model_get_info(pre, &pr);
        size_t c_full = correct(full, d, va, nv), c_post = correct(post, d, va, nv);
        assert_true(c_post >= c_full);
        assert_true(po.leaves < fi.leaves);
        assert_true(pr.leaves <= fi.leaves);
        /* the grown tree saw only the training rows */
        assert_close(tl_tree_node_weight(tl_model_tree(full), 0), (double)nt, 1e-9);
        tl_model_free(full);
        tl_model_free(post);
        tl_model_free(pre);
    }
    free(tr);
    free(va);
    tl_dataset_free(d);
}

/* Without protocol rows, validation_fraction of the training rows is held out with the fit
 * seed: the tree is grown on the rest, and the same seed gives the same tree. */
static void test_held_out(void **state)
{
    (void)state;
    tl_dataset *d = tl_test_load("experiments/datasets/iris.arff", NULL);
    tl_fit_ctx ctx = {.seed = 3};
    const char *kv[2] = {"prune=reduced_error", "validation_fraction=0.3"};
    tl_model *a = fit("c45", d, kv, 2, NULL, 0, &ctx);
    tl_model *b = fit("c45", d, kv, 2, NULL, 0, &ctx);
    const tl_tree *ta = tl_model_tree(a), *tb = tl_model_tree(b);
    assert_close(tl_tree_node_weight(ta, 0), 105, 1e-12); /* 150 - 45 held out */
    assert_int_equal(ta->n_nodes, tb->n_nodes);
    for (size_t i = 0; i < ta->n_nodes; i++) {
        assert_int_equal(ta->attr[i], tb->attr[i]);
        assert_true(ta->threshold[i] == tb->threshold[i]);
    }
    tl_model_free(a);
    tl_model_free(b);
    tl_dataset_free(d);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_navel_first), cmocka_unit_test(test_color_first),
        cmocka_unit_test(test_tree_shapes), cmocka_unit_test(test_c45_and_cart),
        cmocka_unit_test(test_held_out),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
