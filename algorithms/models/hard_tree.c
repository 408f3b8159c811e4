/* The model-interface functions shared by the hard trees (ID3, CART, C4.5). */
#include "hard_tree.h"

#include <stdlib.h>
#include <string.h>

tl_hard_tree *tl_hard_tree_alloc(const tl_param_spec *spec, const tl_params *p, tl_err *err)
{
    tl_hard_tree *h = calloc(1, sizeof *h);
    if (!h) {
        tl_err_set(err, TL_ENOMEM, "out of memory");
        return NULL;
    }
    tl_grow_params_init(&h->grow);
    h->grow.max_depth = (size_t)tl_params_int(spec, p, "max_depth");
    h->grow.min_samples_split = tl_params_double(spec, p, "min_samples_split");
    h->grow.min_samples_leaf = tl_params_double(spec, p, "min_samples_leaf");
    h->grow.min_impurity_decrease = tl_params_double(spec, p, "min_impurity_decrease");
    h->pruner = tl_pruner_find("none", err);
    h->prune.criterion = NULL;
    return h;
}

void tl_hard_tree_free(void *state)
{
    tl_hard_tree *h = state;
    if (!h)
        return;
    tl_tree_free(h->tree);
    tl_ccp_path_free(&h->path);
    tl_ccp_cv_free(&h->cv);
    free(h);
}

static int fit_ccp_cv(tl_hard_tree *h, const tl_dataset *d, const size_t *rows, size_t n,
                      const tl_fit_ctx *ctx, tl_err *err)
{
    int rc = tl_ccp_path_compute(h->tree, h->prune.criterion, h->prune.risk_error, &h->path, err);
    if (rc)
        return rc;
    size_t folds = h->ccp_folds;
    if (folds > n)
        folds = n;
    rc = tl_ccp_cv_run(d, rows, n, &h->grow, h->prune.criterion, h->prune.risk_error, &h->path,
                       folds, ctx->seed, &h->cv, err);
    if (rc)
        return rc;
    size_t pick = h->ccp_1se ? h->cv.best_1se : h->cv.best_min;
    h->chosen_alpha = h->cv.beta[pick];
    return tl_ccp_prune(h->tree, h->prune.criterion, h->prune.risk_error, h->chosen_alpha, err);
}

int tl_hard_tree_fit(void *state, const tl_dataset *d, const size_t *rows, size_t n,
                     const tl_fit_ctx *ctx, tl_err *err)
{
    tl_hard_tree *h = state;
    tl_tree_free(h->tree);
    tl_ccp_path_free(&h->path);
    tl_ccp_cv_free(&h->cv);
    h->tree = tl_grow(d, rows, n, &h->grow, err);
    if (!h->tree)
        return err ? err->code : TL_EINTERNAL;
    if (!h->prune.criterion)
        h->prune.criterion = h->grow.criterion;
    if (h->ccp_cv)
        return fit_ccp_cv(h, d, rows, n, ctx, err);
    tl_prune_ctx pc = h->prune;
    pc.d = d;
    pc.train_rows = rows;
    pc.n_train = n;
    pc.valid_rows = ctx->valid_rows;
    pc.n_valid = ctx->n_valid;
    return h->pruner->prune(h->tree, &pc, err);
}

/* A model file could name attributes the data does not have: check before descending. */
static int check_tree(const tl_tree *t, const tl_dataset *d, tl_err *err)
{
    for (size_t i = 0; i < t->n_nodes; i++) {
        if (t->attr[i] < 0)
            continue;
        size_t a = (size_t)t->attr[i];
        if (a >= d->schema.n_attrs)
            return tl_err_set(err, TL_EINVAL, "the tree tests attribute %zu; the data has %zu", a,
                              d->schema.n_attrs);
        int nominal = t->kind[i] != TL_SPLIT_NUMERIC;
        if (nominal != (d->schema.attrs[a].kind == TL_ATTR_NOMINAL))
            return tl_err_set(err, TL_EINVAL, "attribute '%s' is %s in the data but not in the tree",
                              d->schema.attrs[a].name, nominal ? "numeric" : "nominal");
    }
    return TL_OK;
}

int tl_hard_tree_predict(const void *state, const tl_dataset *d, const size_t *rows, size_t n,
                         double *out, tl_err *err)
{
    const tl_hard_tree *h = state;
    int rc = check_tree(h->tree, d, err);
    if (!rc)
        tl_tree_predict(h->tree, d, rows, n, out);
    return rc;
}

int tl_hard_tree_save(const void *state, FILE *f, int indent, tl_err *err)
{
    const tl_hard_tree *h = state;
    tl_store_put_double(f, indent, "chosen_alpha", h->chosen_alpha);
    tl_store_open_group(f, indent, "tree");
    int rc = tl_tree_save(h->tree, f, indent + 1, err);
    tl_store_close_group(f, indent);
    return rc;
}

int tl_hard_tree_load(void *state, const tl_store *s, tl_err *err)
{
    tl_hard_tree *h = state;
    if (tl_store_double(s, "state.chosen_alpha", &h->chosen_alpha, err))
        return TL_EPARSE;
    h->tree = tl_tree_load(s, "state.tree", err);
    return h->tree ? TL_OK : TL_EPARSE;
}

int tl_hard_tree_show(const void *state, const tl_schema *schema, tl_show_format fmt, FILE *f,
                      tl_err *err)
{
    const tl_hard_tree *h = state;
    int rc = tl_tree_show(h->tree, schema, fmt, f, err);
    if (!rc && fmt == TL_SHOW_TEXT) {
        fprintf(f, "\nNumber of Leaves  : \t%zu\n\nSize of the tree : \t%zu\n",
                tl_tree_leaves(h->tree, 0), h->tree->n_nodes);
    }
    return rc;
}

void tl_hard_tree_info(const void *state, tl_model_info *out)
{
    const tl_hard_tree *h = state;
    out->leaves = tl_tree_leaves(h->tree, 0);
    out->depth = tl_tree_depth(h->tree, 0);
    out->nodes = h->tree->n_nodes;
}

static const tl_hard_tree *as_hard_tree(const tl_model *m)
{
    return m && m->fitted && m->type->free == tl_hard_tree_free ? m->state : NULL;
}

const tl_tree *tl_model_tree(const tl_model *m)
{
    const tl_hard_tree *h = as_hard_tree(m);
    return h ? h->tree : NULL;
}

const tl_grow_params *tl_model_grow_params(const tl_model *m)
{
    const tl_hard_tree *h = as_hard_tree(m);
    return h ? &h->grow : NULL;
}

int tl_model_ccp(const tl_model *m, const tl_ccp_path **path, const tl_ccp_cv **cv,
                 double *chosen_alpha)
{
    const tl_hard_tree *h = as_hard_tree(m);
    if (!h)
        return 0;
    *path = h->path.n ? &h->path : NULL;
    *cv = h->cv.n ? &h->cv : NULL;
    *chosen_alpha = h->chosen_alpha;
    return 1;
}
