/* The composable tree learner: grow with the chosen criterion and splitters, prune with the
 * chosen pruner (holding out validation rows when it needs them), and the model interface
 * around the fitted tree. id3, c45 and cart are presets of it (id3.c, c45.c, cart.c). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>

#include "tree_impl.h"

static const tl_param_spec params[] = {TL_TREE_PARAMS, {NULL, 0, NULL, 0, 0, NULL, NULL}};
static const tl_tree_preset plain = {params, NULL, NULL};

TL_TREE_LEARNER(composable_tree, "tree",
                "a tree composed from a criterion, splitters and a pruner (slots)",
                TL_TASK_CLASSIFICATION | TL_TASK_REGRESSION, plain, params);

/* tie_break names first (in the order given), then the other attributes in file order. */
static int resolve_order(tl_tree_learner *h, const tl_dataset *d, tl_err *err)
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

int tl_tree_learner_check_data(const tl_params *p, const tl_schema *schema, tl_err *err)
{
    const char *tie = tl_params_find(p, "tie_break");
    if (!tie || !*tie || !strcmp(tie, "file")) /* "file": the file's order, no names */
        return TL_OK;
    const char *s = tie;
    while (*s) {
        size_t len = strcspn(s, ",");
        const char *tok = s;
        s += len + (s[len] == ',');
        while (len && *tok == ' ')
            tok++, len--;
        while (len && tok[len - 1] == ' ')
            len--;
        size_t a = 0;
        while (a < schema->n_attrs &&
               (strlen(schema->attrs[a].name) != len || memcmp(schema->attrs[a].name, tok, len)))
            a++;
        if (a < schema->n_attrs)
            continue;
        char valid[600] = "";
        size_t used = 0;
        for (size_t j = 0; j < schema->n_attrs && used < sizeof valid; j++)
            used += (size_t)snprintf(valid + used, sizeof valid - used, "%s%s", j ? ", " : "",
                                     schema->attrs[j].name);
        return tl_err_set(err, TL_EINVAL,
                          "tie_break: no attribute '%.*s' in the data; valid attributes: %s",
                          (int)len, tok, valid);
    }
    return TL_OK;
}

static int cmp_size(const void *a, const void *b)
{
    size_t x = *(const size_t *)a, y = *(const size_t *)b;
    return (x > y) - (x < y);
}

/* Validation rows for the validation pruners: the protocol's, else a share of rows held out
 * with the fit seed (the tree is then grown on the rest). *grow_rows and *valid are
 * allocated (free them) only when rows are held out. */
static int hold_out(const tl_tree_learner *h, const size_t *rows, size_t n, const tl_fit_ctx *ctx,
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

void tl_tree_learner_free(void *state)
{
    tl_tree_learner *h = state;
    if (!h)
        return;
    tl_tree_free(h->tree);
    tl_prune_trace_free(&h->trace);
    if (h->grow.criterion && h->grow.criterion->free && h->criterion_state)
        h->grow.criterion->free(h->criterion_state);
    if (h->grow.numeric && h->grow.numeric->free && h->numeric_state)
        h->grow.numeric->free(h->numeric_state);
    if (h->grow.nominal && h->grow.nominal->free && h->nominal_state)
        h->grow.nominal->free(h->nominal_state);
    if (h->pruner && h->pruner->free && h->pruner_state)
        h->pruner->free(h->pruner_state);
    if (h->grow.missing && h->grow.missing->free && h->missing_state)
        h->grow.missing->free(h->missing_state);
    free(h->tie_break);
    free(h->attr_order);
    free(h);
}

/* The criterion for this target: auto's choice, and a clear error for a mismatch. */
static int pick_criterion(tl_tree_learner *h, const tl_dataset *d, tl_err *err)
{
    int regression = !tl_dataset_is_classification(d);
    if (h->criterion_auto) {
        h->grow.criterion = regression ? h->auto_reg : h->auto_class;
        h->grow.criterion_state = NULL;
    }
    const tl_criterion_type *c = h->grow.criterion;
    if (!(c->tasks & (regression ? TL_TASK_REGRESSION : TL_TASK_CLASSIFICATION)))
        return tl_err_set(err, TL_EINVAL, "criterion %s needs %s; use %s", c->name,
                          regression ? "a nominal target" : "a numeric target",
                          regression ? "mse for a numeric target" : "a class criterion");
    if (regression && h->smoothing.kind != TL_SMOOTH_NONE)
        return tl_err_set(err, TL_EINVAL, "smoothing %s needs a nominal target (use none)",
                          h->smoothing.kind == TL_SMOOTH_LAPLACE ? "laplace" : "m_estimate");
    if (regression && (tl_pruner_needs(h->pruner, h->pruner_state) & TL_NEEDS_CLASSES))
        return tl_err_set(err, TL_EINVAL, "pruner %s needs a nominal target", h->pruner->name);
    return TL_OK;
}

int tl_tree_learner_fit(void *state, const tl_dataset *d, const size_t *rows, size_t n,
                        const tl_fit_ctx *ctx, tl_err *err)
{
    tl_tree_learner *h = state;
    tl_err local;
    if (!err)
        err = &local; /* tl_grow's NULL leaves its code in err only */
    tl_tree_free(h->tree);
    h->tree = NULL;
    tl_prune_trace_reset(&h->trace);
    int rc = pick_criterion(h, d, err);
    if (!rc)
        rc = resolve_order(h, d, err);
    if (rc)
        return rc;
    h->grow.seed = ctx->seed;
    tl_prune_input in = {d, rows, n, ctx->valid_rows, ctx->n_valid, &h->grow, ctx->seed};
    size_t *held = NULL, *grow_rows = NULL, n_grow = 0, *valid = NULL, n_valid = 0;
    if (tl_pruner_needs(h->pruner, h->pruner_state) & TL_NEEDS_VALIDATION) {
        rc = hold_out(h, rows, n, ctx, &grow_rows, &n_grow, &valid, &n_valid, err);
        if (rc)
            return rc;
        if (grow_rows) {
            held = valid;
            in.train_rows = grow_rows;
            in.n_train = n_grow;
        }
        in.valid_rows = valid;
        in.n_valid = n_valid;
    }
    tl_prune_hook hook = {h->pruner_state, &in};
    if (h->pruner->accept) {
        h->grow.accept = h->pruner->accept;
        h->grow.accept_user = &hook;
    }
    h->grow.view_cache = ctx->view_cache; /* the caller's, for this grow only */
    h->tree = tl_grow(d, in.train_rows, in.n_train, &h->grow, err);
    h->grow.accept = NULL; /* the hook lives on this stack frame only */
    h->grow.accept_user = NULL;
    h->grow.view_cache = NULL;
    if (!h->tree)
        rc = err->code;
    else {
        h->trace.pruner = h->pruner->name;
        rc = h->pruner->prune(h->pruner_state, h->tree, &in, &h->trace, err);
    }
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
            return tl_err_set(err, TL_EINVAL,
                              "attribute '%s' is %s in the data but not in the tree",
                              d->schema.attrs[a].name, nominal ? "numeric" : "nominal");
    }
    return TL_OK;
}

int tl_tree_learner_predict(const void *state, const tl_dataset *d, const size_t *rows, size_t n,
                            double *out, tl_err *err)
{
    const tl_tree_learner *h = state;
    int rc = check_tree(h->tree, d, err);
    if (!rc)
        rc = tl_tree_predict_smoothed(h->tree, d, rows, n, &h->smoothing, out, err);
    return rc;
}

int tl_tree_learner_save(const void *state, FILE *f, int indent, tl_err *err)
{
    const tl_tree_learner *h = state;
    /* kept for the model files written before the pruning trace: the alpha cost-complexity
     * pruning settled on (0 otherwise) */
    double alpha = h->pruner && !strcmp(h->pruner->name, "cost_complexity") &&
                           h->trace.chosen_param == h->trace.chosen_param
                       ? h->trace.chosen_param
                       : 0;
    tl_store_put_double(f, indent, "chosen_alpha", alpha);
    tl_store_open_group(f, indent, "tree");
    int rc = tl_tree_save(h->tree, f, indent + 1, err);
    tl_store_close_group(f, indent);
    return rc;
}

int tl_tree_learner_load(void *state, const tl_store *s, tl_err *err)
{
    tl_tree_learner *h = state;
    double alpha;
    if (tl_store_double(s, "state.chosen_alpha", &alpha, err))
        return TL_EPARSE;
    h->trace.chosen_param = alpha;
    h->tree = tl_tree_load(s, "state.tree", err);
    return h->tree ? TL_OK : TL_EPARSE;
}

int tl_tree_learner_check_schema(const void *state, const tl_schema *schema, tl_err *err)
{
    const tl_tree_learner *h = state;
    return tl_tree_check_schema(h->tree, schema, err);
}

int tl_tree_learner_show(const void *state, const tl_schema *schema, tl_show_format fmt, FILE *f,
                         tl_err *err)
{
    const tl_tree_learner *h = state;
    int rc = tl_tree_show(h->tree, schema, fmt, f, err);
    if (!rc && fmt == TL_SHOW_TEXT)
        fprintf(f, "\nNumber of Leaves  : \t%zu\n\nSize of the tree : \t%zu\n",
                tl_tree_leaves(h->tree, 0), h->tree->n_nodes);
    return rc;
}

void tl_tree_learner_info(const void *state, tl_model_info *out)
{
    const tl_tree_learner *h = state;
    out->leaves = tl_tree_leaves(h->tree, 0);
    out->depth = tl_tree_depth(h->tree, 0);
    out->nodes = h->tree->n_nodes;
}

const tl_tree *tl_tree_learner_tree(const void *state)
{
    return ((const tl_tree_learner *)state)->tree;
}

const tl_prune_trace *tl_tree_learner_trace(const void *state)
{
    const tl_tree_learner *h = state;
    return h->trace.pruner ? &h->trace : NULL;
}
