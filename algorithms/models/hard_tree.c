/* The model-interface functions shared by the hard trees (ID3, CART, C4.5). */
#include "hard_tree.h"

#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>

static int in_spec(const tl_param_spec *spec, const char *name)
{
    for (; spec->name; spec++)
        if (!strcmp(spec->name, name))
            return 1;
    return 0;
}

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
    if (in_spec(spec, "validation_fraction"))
        h->validation_fraction = tl_params_double(spec, p, "validation_fraction");
    const char *tb = in_spec(spec, "tie_break") ? tl_params_string(spec, p, "tie_break") : NULL;
    if (tb && strcmp(tb, "file")) {
        h->tie_break = strdup(tb);
        if (!h->tie_break) {
            free(h);
            tl_err_set(err, TL_ENOMEM, "out of memory");
            return NULL;
        }
    }
    return h;
}

int tl_hard_tree_set_pruner(tl_hard_tree *h, const char *name, tl_err *err)
{
    const tl_pruner_type *pr = tl_pruner_find(name, err);
    if (!pr)
        return TL_EINVAL;
    h->pruner = pr;
    return TL_OK;
}

/* tie_break names first (in the order given), then the other attributes in file order. */
static int resolve_order(tl_hard_tree *h, const tl_dataset *d, tl_err *err)
{
    free(h->attr_order);
    h->attr_order = NULL;
    h->grow.attr_order = NULL;
    if (!h->tie_break)
        return TL_OK;
    size_t na = d->schema.n_attrs, used = 0;
    size_t *order = malloc((na ? na : 1) * sizeof *order);
    unsigned char *taken = calloc(na ? na : 1, 1);
    char *copy = strdup(h->tie_break);
    int rc = TL_OK;
    if (!order || !taken || !copy) {
        rc = tl_err_set(err, TL_ENOMEM, "out of memory");
        goto done;
    }
    char *save = NULL;
    for (char *tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        while (*tok == ' ')
            tok++;
        size_t len = strlen(tok);
        while (len && tok[len - 1] == ' ')
            tok[--len] = '\0';
        size_t a = 0;
        while (a < na && strcmp(d->schema.attrs[a].name, tok))
            a++;
        if (a == na) {
            rc = tl_err_set(err, TL_EINVAL, "tie_break: no attribute '%s' in the data", tok);
            goto done;
        }
        if (!taken[a]) {
            taken[a] = 1;
            order[used++] = a;
        }
    }
    for (size_t a = 0; a < na; a++)
        if (!taken[a])
            order[used++] = a;
    h->attr_order = order;
    h->grow.attr_order = order;
    order = NULL;
done:
    free(order);
    free(taken);
    free(copy);
    return rc;
}

static int cmp_size(const void *a, const void *b)
{
    size_t x = *(const size_t *)a, y = *(const size_t *)b;
    return (x > y) - (x < y);
}

/* Validation rows for the validation pruners: the protocol's, else a share of rows held out
 * with the fit seed (the tree is then grown on the rest). *grow_rows and *valid are
 * allocated (free them) only when rows are held out. */
static int hold_out(const tl_hard_tree *h, const size_t *rows, size_t n, const tl_fit_ctx *ctx,
                    size_t **grow_rows, size_t *n_grow, size_t **valid, size_t *n_valid,
                    tl_err *err)
{
    if (ctx->valid_rows && ctx->n_valid) {
        *valid = (size_t *)ctx->valid_rows;
        *n_valid = ctx->n_valid;
        return TL_OK;
    }
    size_t nv = (size_t)(h->validation_fraction * (double)n + 0.5);
    if (n < 2)
        return tl_err_set(err, TL_EINVAL, "validation pruning needs at least 2 training rows");
    nv = nv < 1 ? 1 : nv > n - 1 ? n - 1 : nv;
    size_t *all = malloc(n * sizeof *all);
    gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
    if (!all || !rng) {
        free(all);
        gsl_rng_free(rng);
        return tl_err_set(err, TL_ENOMEM, "out of memory");
    }
    memcpy(all, rows, n * sizeof *all);
    gsl_rng_set(rng, ctx->seed);
    gsl_ran_shuffle(rng, all, n, sizeof *all);
    gsl_rng_free(rng);
    qsort(all, nv, sizeof *all, cmp_size);
    qsort(all + nv, n - nv, sizeof *all, cmp_size);
    *valid = all;
    *n_valid = nv;
    *grow_rows = all + nv;
    *n_grow = n - nv;
    return TL_OK;
}

void tl_hard_tree_free(void *state)
{
    tl_hard_tree *h = state;
    if (!h)
        return;
    tl_tree_free(h->tree);
    tl_ccp_path_free(&h->path);
    tl_ccp_cv_free(&h->cv);
    free(h->tie_break);
    free(h->attr_order);
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
    h->tree = NULL;
    tl_ccp_path_free(&h->path);
    tl_ccp_cv_free(&h->cv);
    int rc = resolve_order(h, d, err);
    if (rc)
        return rc;
    if (!h->prune.criterion)
        h->prune.criterion = h->grow.criterion;
    tl_prune_ctx pc = h->prune;
    pc.d = d;
    pc.train_rows = rows;
    pc.n_train = n;
    pc.valid_rows = ctx->valid_rows;
    pc.n_valid = ctx->n_valid;
    size_t *held = NULL, *grow_rows = NULL, n_grow = 0, *valid = NULL, n_valid = 0;
    if (h->pruner->needs_validation) {
        rc = hold_out(h, rows, n, ctx, &grow_rows, &n_grow, &valid, &n_valid, err);
        if (rc)
            return rc;
        if (grow_rows) {
            held = valid;
            pc.train_rows = grow_rows;
            pc.n_train = n_grow;
        }
        pc.valid_rows = valid;
        pc.n_valid = n_valid;
    }
    if (h->pruner->accept) {
        h->grow.accept = h->pruner->accept;
        h->grow.accept_user = &pc;
    }
    h->tree = tl_grow(d, pc.train_rows, pc.n_train, &h->grow, err);
    h->grow.accept = NULL; /* pc lives on this stack frame only */
    h->grow.accept_user = NULL;
    if (!h->tree)
        rc = err ? err->code : TL_EINTERNAL;
    else if (h->ccp_cv)
        rc = fit_ccp_cv(h, d, rows, n, ctx, err);
    else
        rc = h->pruner->prune(h->tree, &pc, err);
    free(held);
    return rc;
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
        rc = tl_tree_predict(h->tree, d, rows, n, out, err);
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

int tl_hard_tree_check(const void *state, const tl_schema *schema, tl_err *err)
{
    const tl_hard_tree *h = state;
    return tl_tree_check_schema(h->tree, schema, err);
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
