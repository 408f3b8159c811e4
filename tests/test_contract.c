/* The contract every registered criterion x splitter x pruner x missing combination meets (a
 * plug-in added later is tested here without touching this file), and the combinations that
 * must be refused. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tl_test_util.h"
#include "treelab/tl_grow.h"
#include "treelab/tl_model.h"

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
    tl_model *back = tl_test_reload(m, NULL);
    assert_int_equal(tl_model_predict(back, d, NULL, 0, q, err), TL_OK);
    if (!pred_equal(p, q, n * w))
        fail_msg("%s %s %s %s %s: predictions differ after save/load", kv[0], kv[1], kv[2], kv[3],
                 kv[4]);
    tl_model *again = tl_test_fit("tree", d, kv, 5, err);
    assert_non_null(again);
    char *s1 = tl_test_show(m, TL_SHOW_TEXT), *s2 = tl_test_show(again, TL_SHOW_TEXT);
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

/* Fits one combination (indices into the registries) and checks the outcome against
 * impossible(): fitted and meeting the contract, or refused with the documented reason. */
static void try_combination(const tl_dataset *d, int regression, const size_t ix[5], size_t *n_ok,
                            size_t *n_refused)
{
    const tl_criterion_type *c = tl_criterion_at(ix[0]);
    const tl_splitter_type *num = tl_splitter_at(ix[1]);
    const tl_splitter_type *nom = tl_splitter_at(ix[2]);
    const tl_pruner_type *pr = tl_pruner_at(ix[3]);
    char kv[5][96];
    snprintf(kv[0], sizeof kv[0], "criterion=%s", c->name);
    snprintf(kv[1], sizeof kv[1], "numeric=%s", num->name);
    snprintf(kv[2], sizeof kv[2], "nominal=%s", nom->name);
    snprintf(kv[3], sizeof kv[3], "pruner=%s", pr->name);
    snprintf(kv[4], sizeof kv[4], "missing=%s", tl_missing_at(ix[4])->name);
    const char *args[] = {kv[0], kv[1], kv[2], kv[3], kv[4], "pruner.folds=3", NULL};
    if (strcmp(pr->name, "cost_complexity"))
        args[5] = NULL;
    tl_err err;
    tl_err_clear(&err);
    const char *why = impossible(c, num, nom, pr, regression);
    int ok = contract(d, args, &err);
    /* labor has one complete row of 57: a fold may hold none, and complete cases then leave
     * nothing to grow on */
    if (!why && !ok && !strcmp(tl_missing_at(ix[4])->name, "drop"))
        why = "has an unknown value";
    if (why && ok)
        fail_msg("%s %s %s %s %s was accepted (%s)", kv[0], kv[1], kv[2], kv[3], kv[4], why);
    if (!why && !ok)
        fail_msg("%s %s %s %s %s: %s", kv[0], kv[1], kv[2], kv[3], kv[4], err.msg);
    if (why && !strstr(err.msg, why))
        fail_msg("%s %s %s %s %s: '%s' does not say '%s'", kv[0], kv[1], kv[2], kv[3], kv[4],
                 err.msg, why);
    *(ok ? n_ok : n_refused) += 1;
}

/* Under the sanitizers (about 4x slower, and the full product took 90 s of the suite) every
 * pair of plug-ins is still combined at least once, in the few hundred combinations that a
 * first-fit pass over the product keeps; the release and clang builds fit the whole product. */
#define TL_CONTRACT_PAIRWISE TL_TEST_ASAN

/* The index of the pair (a = ix[i], b = ix[j]) among the pairs of dimensions i < j. */
static size_t pair_slot(const size_t n[5], const size_t ix[5], int i, int j)
{
    size_t at = 0;
    for (int a = 0; a < 5; a++)
        for (int b = a + 1; b < 5; b++) {
            if (a == i && b == j)
                return at + ix[i] * n[j] + ix[j];
            at += n[a] * n[b];
        }
    return at;
}

static void run_contract(const tl_dataset *d, int regression, size_t *n_ok, size_t *n_refused)
{
    size_t n[5] = {0};
    while (tl_criterion_at(n[0]))
        n[0]++;
    while (tl_splitter_at(n[1]))
        n[1]++;
    n[2] = n[1];
    while (tl_pruner_at(n[3]))
        n[3]++;
    while (tl_missing_at(n[4]))
        n[4]++;
    size_t n_pairs = pair_slot(n, (size_t[5]){0}, 5, 5);
    unsigned char *seen = calloc(n_pairs, 1);
    assert_non_null(seen);
    size_t ix[5], tried = 0;
    for (ix[0] = 0; ix[0] < n[0]; ix[0]++)
        for (ix[1] = 0; ix[1] < n[1]; ix[1]++)
            for (ix[2] = 0; ix[2] < n[2]; ix[2]++)
                for (ix[3] = 0; ix[3] < n[3]; ix[3]++)
                    for (ix[4] = 0; ix[4] < n[4]; ix[4]++) {
                        if (!(tl_splitter_at(ix[1])->kinds & TL_KIND_BIT(TL_ATTR_NUMERIC)) ||
                            !(tl_splitter_at(ix[2])->kinds & TL_KIND_BIT(TL_ATTR_NOMINAL)))
                            continue; /* refused before any fit: tested below */
                        int fresh = 0;
                        for (int i = 0; i < 5; i++)
                            for (int j = i + 1; j < 5; j++) {
                                size_t s = pair_slot(n, ix, i, j);
                                fresh |= !seen[s];
                                seen[s] = 1;
                            }
                        if (TL_CONTRACT_PAIRWISE && !fresh)
                            continue;
                        try_combination(d, regression, ix, n_ok, n_refused);
                        tried++;
                    }
    print_message("%zu combinations tried (%s)\n", tried,
                  TL_CONTRACT_PAIRWISE ? "every pair of plug-ins, sanitizer build" : "all");
    free(seen);
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
    assert_true(ok > (TL_CONTRACT_PAIRWISE ? 100 : 600));
    tl_dataset_free(d);
    /* regression on the same attributes: the first year's wage increase as the target */
    d = tl_test_load("experiments/datasets/labor.arff", "wage-increase-first-year");
    ok = refused = 0;
    run_contract(d, 1, &ok, &refused);
    print_message("regression: %zu combinations fitted, %zu refused as documented\n", ok, refused);
    assert_true(ok > (TL_CONTRACT_PAIRWISE ? 10 : 60));
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

/* Training rows whose weights sum to 0 are refused by every learner (each divided by the
 * sum, and cart, c45, id3 and soft_tree scored -nan with exit 0), even when the dataset's
 * other rows carry weight. */
static void test_zero_weight_training_rows(void **state)
{
    (void)state;
    tl_dataset *d = tl_test_load_text(".arff",
                                      "@relation r\n@attribute a numeric\n@attribute c {x,y}\n"
                                      "@data\n1,x,{0}\n2,y,{0}\n3,x,{1}\n4,y,{1}\n5,x,{1}\n"
                                      "6,y,{1}\n7,x,{2}\n8,y,{1}\n9,x,{1}\n10,y,{1}\n",
                                      NULL);
    const size_t rows[] = {0, 1};
    for (size_t i = 0; tl_model_at(i); i++) {
        tl_err err;
        tl_model *m = tl_model_new(tl_model_at(i)->name, NULL, &err);
        assert_non_null(m);
        assert_int_equal(tl_model_fit(m, d, rows, 2, NULL, &err), TL_EINVAL);
        if (!strstr(err.msg, "the weights of its 2 training rows sum to 0"))
            fail_msg("%s: %s", tl_model_at(i)->name, err.msg);
        /* the same learner fits the data whose rows carry weight (10 rows: a bootstrap
         * draws only the two weightless ones about once in 10^7) */
        if (tl_model_fit(m, d, NULL, 0, NULL, &err) != TL_OK)
            fail_msg("%s on the weighted rows: %s", tl_model_at(i)->name, err.msg);
        tl_model_free(m);
    }
    tl_dataset_free(d);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_combination),
        cmocka_unit_test(test_missing_methods_contract),
        cmocka_unit_test(test_impossible_combinations),
        cmocka_unit_test(test_zero_weight_training_rows),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
