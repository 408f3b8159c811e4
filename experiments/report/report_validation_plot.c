/* The validation pruners' figure: validation and test accuracy against tree size along a
 * weakest-link sequence of the unpruned tree, with the tree each pruner chose marked. */
#include "report_util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "treelab/tl_plot.h"
#include "treelab/tl_protocol.h"
#include "treelab/tl_runner.h"
#include "treelab/tl_grow.h"
#include "treelab/tl_model.h"

int tl_report_validation_plot(const char *dir, const tl_experiment *x, const tl_exp_model *em,
                              size_t color, const tl_dataset *d, const char *dn, tl_err *err)
{
    tl_err local;
    if (!err)
        err = &local; /* a failed tl_model_new leaves its code only in err */
    if (x->protocol.kind != TL_PROTO_HOLDOUT || !tl_dataset_is_classification(d))
        return TL_OK;
    size_t n = d->n_rows, ntr, nva, nte, npts = 0;
    size_t *rows = malloc(3 * (n ? n : 1) * sizeof *rows);
    double *order = malloc((n ? n : 1) * sizeof *order);
    tl_model *full = NULL, *chosen = NULL;
    double *xs = NULL;
    tl_params p;
    tl_params_init(&p);
    int rc = rows && order ? TL_OK : tl_err_set(err, TL_ENOMEM, "out of memory");
    /* repeat 0's hold-out split, as the runner makes it */
    if (!rc)
        rc = tl_protocol_order(d, x->protocol.stratified, x->seed, dn, 0, order, err);
    size_t *tr = rows, *va = rows + n, *te = rows + 2 * n;
    if (!rc)
        tl_protocol_split(order, n, x->protocol.train, x->protocol.train + x->protocol.valid, tr,
                          &ntr, va, &nva, te, &nte);
    if (!rc && (!nva || !nte))
        goto done; /* nothing to score on */
    unsigned long seed = tl_protocol_seed(x->seed, dn, 0, 1);
    tl_fit_ctx ctx = {.seed = seed, .valid_rows = va, .n_valid = nva};
    if (!rc && !(chosen = tl_model_new(em->type->name, &em->params, err)))
        rc = err->code;
    if (!rc)
        rc = tl_model_fit(chosen, d, tr, ntr, &ctx, err);
    /* the figure is the validation pruners': the fitted model says which pruner it ran */
    const tl_prune_trace *trace = rc ? NULL : tl_model_prune_trace(chosen);
    const char *prune = trace ? trace->pruner : NULL;
    if (!rc && (!prune || (strcmp(prune, "reduced_error") && strcmp(prune, "pre_validation"))))
        goto done;
    /* the same tree unpruned: the pruner slot emptied, whatever the model's names for it */
    if (!rc)
        rc = tl_params_copy(&p, &em->params, err);
    if (!rc)
        rc = tl_params_set(&p, "pruner", "none", err);
    if (!rc && !(full = tl_model_new(em->type->name, &p, err)))
        rc = err->code;
    if (!rc)
        rc = tl_model_fit(full, d, tr, ntr, &ctx, err);
    const tl_tree *t = rc ? NULL : tl_model_tree(full);
    const tl_tree *tc = rc ? NULL : tl_model_tree(chosen);
    if (!rc && (!t || !tc))
        goto done; /* not a tree learner */
    if (!rc && !(xs = malloc(3 * t->n_nodes * sizeof *xs)))
        rc = tl_err_set(err, TL_ENOMEM, "out of memory");
    double *yv = xs + (xs ? t->n_nodes : 0), *yt = xs + (xs ? 2 * t->n_nodes : 0);
    if (!rc)
        rc = tl_tree_validation_curve(t, d, va, nva, te, nte, xs, yv, yt, &npts, err);
    double cv = 0, ct = 0;
    size_t cl = 0;
    if (!rc)
        rc = tl_tree_accuracies(tc, d, va, nva, te, nte, &cv, &ct, &cl, err);
    if (!rc) {
        char title[1024], stem[4096], mark[64];
        snprintf(title, sizeof title, "Validation pruning: %s on %s (%zu / %zu / %zu rows)",
                 em->name, dn, ntr, nva, nte);
        snprintf(stem, sizeof stem, "%s/plots/validation_%s__%s", dir, dn, em->name);
        snprintf(mark, sizeof mark, "%s (%zu leaves)", prune, cl);
        tl_plot_series s[2] = {
            {"validation accuracy", color, npts, xs, yv, NULL, 0, 0},
            {"test accuracy", color, npts, xs, yt, NULL, 0, 1},
        };
        tl_plot_marker mk = {(double)cl, cv, mark, (color + 1) % TL_PLOT_N_COLORS};
        tl_plot_curve c = {
            title,      "leaves of the subtree (weakest link on validation accuracy)",
            "accuracy", NULL,
            0,          s,
            2,          &mk,
            1,          NAN,
            NULL,       1,
            1,          0};
        rc = tl_plot_curve_write(&c, stem, err);
    }
done:
    tl_params_clear(&p);
    tl_model_free(full);
    tl_model_free(chosen);
    free(xs);
    free(rows);
    free(order);
    return rc;
}
