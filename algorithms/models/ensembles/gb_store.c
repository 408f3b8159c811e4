/* Gradient boosting's model file: the loss, the prior, the stages' trees (their leaves as
 * values) and the importances. */
#include <stdlib.h>
#include <string.h>

#include "gradient_boosting.h"

static const char *const loss_names[] = {"auto", "log_loss", "squared_error", "absolute_error",
                                         "huber"};

int tl_gb_save(const void *state, FILE *f, int indent, tl_err *err)
{
    const tl_gb *g = state;
    tl_store_put_string(f, indent, "loss", loss_names[g->fitted_loss]);
    tl_store_put_int(f, indent, "classes", (long)g->classes);
    tl_store_put_double(f, indent, "learning_rate", g->learning_rate);
    tl_store_put_int(f, indent, "stages", (long)g->n_stages);
    tl_store_put_doubles(f, indent, "init", g->init, g->K);
    tl_store_put_doubles(f, indent, "importances", g->importances, g->n_attrs);
    return tl_ens_trees_save(&g->trees, f, indent, err);
}

int tl_gb_load(void *state, const tl_store *s, tl_err *err)
{
    tl_gb *g = state;
    const char *loss;
    long classes, stages;
    size_t K, na;
    if (tl_store_string(s, "state.loss", &loss, err) ||
        tl_store_int(s, "state.classes", &classes, err) ||
        tl_store_double(s, "state.learning_rate", &g->learning_rate, err) ||
        tl_store_int(s, "state.stages", &stages, err) || tl_store_len(s, "state.init", &K, err) ||
        tl_store_len(s, "state.importances", &na, err))
        return TL_EPARSE;
    g->fitted_loss = TL_GB_AUTO;
    for (int i = 1; i < 5; i++)
        if (!strcmp(loss, loss_names[i]))
            g->fitted_loss = (tl_gb_loss_kind)i;
    if (g->fitted_loss == TL_GB_AUTO || classes < 0 || stages < 1 ||
        (g->fitted_loss == TL_GB_LOG) != (classes > 0) || K != (classes > 2 ? (size_t)classes : 1))
        return tl_err_set(err, TL_EPARSE,
                          "model file: state.loss = %s, classes = %ld, stages = %ld and %zu "
                          "initial values do not fit together",
                          loss, classes, stages, K);
    g->classes = (size_t)classes;
    g->K = K;
    g->n_stages = (size_t)stages;
    g->n_attrs = na;
    free(g->init);
    free(g->importances);
    g->init = malloc(K * sizeof *g->init);
    g->importances = malloc((na ? na : 1) * sizeof *g->importances);
    if (!g->init || !g->importances)
        return tl_err_set(err, TL_ENOMEM, "out of memory");
    if (tl_store_doubles(s, "state.init", g->init, K, err) ||
        tl_store_doubles(s, "state.importances", g->importances, na, err))
        return TL_EPARSE;
    int rc = tl_ens_trees_load(&g->trees, s, err);
    if (!rc && g->trees.n != g->n_stages * K)
        rc = tl_err_set(err, TL_EPARSE, "model file: %zu trees for %zu stages of %zu", g->trees.n,
                        g->n_stages, K);
    for (size_t t = 0; !rc && t < g->trees.n; t++)
        if (!g->trees.t[t]->regression)
            rc = tl_err_set(err, TL_EPARSE, "model file: tree %zu is not a regression tree", t);
    return rc;
}

int tl_gb_check_schema(const void *state, const tl_schema *schema, tl_err *err)
{
    const tl_gb *g = state;
    int rc = tl_ens_check_shape(g->n_attrs, g->classes, schema, err);
    if (rc)
        return rc;
    /* the trees predict the gradients, a numeric target of their own */
    tl_schema own = *schema;
    own.target = (tl_attr_info){"residual", TL_ATTR_NUMERIC, 0, NULL};
    return tl_ens_trees_check(&g->trees, &own, err);
}
