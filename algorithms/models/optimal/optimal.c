/* The optimal learner: the tree of least training error (plus alpha per leaf, GOSDT's
 * objective) within a depth and a split budget, found by the search over a binarised view
 * of the data, and returned as an ordinary tree whose tests are the original attributes'. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "treelab/tl_log.h"
#include "treelab/tl_model.h"

#include "optimal_impl.h"

static const tl_param_spec params[] = {
    {"max_depth", TL_PARAM_INT, "3", 0, 20, NULL, "most tests on a path from root to leaf"},
    {"max_nodes", TL_PARAM_INT, "-1", -1, 1048575, NULL,
     "most splits in the tree (-1: 2^max_depth - 1, every tree of that depth)"},
    {"alpha", TL_PARAM_DOUBLE, "0", 0, 1, NULL,
     "penalty per leaf added to the training error rate (GOSDT's objective); 0: least error"},
    {"time_limit", TL_PARAM_DOUBLE, "0", 0, 1e9, NULL,
     "seconds before the search stops with its best tree, reported as not proven optimal "
     "(0: none)"},
    {"binarize", TL_PARAM_STRING, "quantiles:8", 0, 0, NULL,
     "cuts of numeric attributes: midpoints (between every two distinct values) or "
     "quantiles:K (one below each of the K-1 inner K-quantiles); nominal ones one-vs-rest"},
    {"missing", TL_PARAM_CHOICE, "zero", 0, 0, "zero|refuse",
     "unknown values: zero sends them to branch 0 of every test on their attribute, in "
     "training and prediction (the tree's unknown rule); refuse stops the fit"},
    {NULL, 0, NULL, 0, 0, NULL, NULL},
};

typedef struct optimal {
    int max_depth, max_nodes;
    double alpha, time_limit;
    int refuse;
    char *rule;
    tl_tree *tree;
    /* the last fit (or the model file): objective in weight units, its bound, proof */
    double objective, errors, lower_bound, seconds, proven;
    double n_features, cache_entries;
    double trace_row[7];
} optimal;

static int check(const tl_params *p, tl_err *err)
{
    int rc = tl_params_check(params, p, err);
    if (rc)
        return rc;
    tl_param_reader r = tl_params_reader(params, p, err);
    long depth = tl_params_int(&r, "max_depth"), nodes = tl_params_int(&r, "max_nodes");
    const char *rule = tl_params_string(&r, "binarize");
    if (r.rc)
        return r.rc;
    long most = (1L << depth) - 1;
    if (nodes > most)
        return tl_err_set(err, TL_EINVAL,
                          "optimal: max_nodes %ld is more than a tree of depth %ld holds; "
                          "valid: -1 or 0..%ld",
                          nodes, depth, most);
    return opt_rule_check(rule, err);
}

static void optimal_free(void *state)
{
    optimal *o = state;
    if (!o)
        return;
    tl_tree_free(o->tree);
    free(o->rule);
    free(o);
}

static void *optimal_alloc(const tl_params *p, tl_err *err)
{
    optimal *o = calloc(1, sizeof *o);
    if (!o) {
        tl_err_set(err, TL_ENOMEM, "out of memory");
        return NULL;
    }
    tl_param_reader r = tl_params_reader(params, p, err);
    o->max_depth = (int)tl_params_int(&r, "max_depth");
    long nodes = tl_params_int(&r, "max_nodes");
    o->max_nodes = nodes < 0 ? (1 << o->max_depth) - 1 : (int)nodes;
    o->alpha = tl_params_double(&r, "alpha");
    o->time_limit = tl_params_double(&r, "time_limit");
    o->refuse = !strcmp(tl_params_string(&r, "missing"), "refuse");
    const char *rule = tl_params_string(&r, "binarize");
    if (!r.rc && !(o->rule = strdup(rule)))
        r.rc = tl_err_set(err, TL_ENOMEM, "out of memory");
    if (r.rc) {
        optimal_free(o);
        return NULL;
    }
    return o;
}

/* Node at of t becomes sol's subtree over rows[0..n) (indices into d), stats included. */
static int build(tl_tree *t, size_t at, const opt_sol *sol, const opt_data *d, const tl_dataset *ds,
                 uint32_t *rows, size_t n, uint32_t *tmp, tl_err *err)
{
    for (size_t i = 0; i < n; i++)
        t->stats[at * t->k + (size_t)d->cls[rows[i]]] += d->w[rows[i]];
    if (sol->feat < 0)
        return TL_OK;
    const opt_feature *f = &d->feat[sol->feat];
    size_t first = tl_tree_add_nodes(t, 2, at, err);
    if (first == SIZE_MAX)
        return TL_ENOMEM;
    t->attr[at] = (int)f->attr;
    t->unknown[at] = 0; /* as the search counted them */
    t->first_child[at] = first;
    t->n_children[at] = 2;
    if (f->nominal) {
        size_t levels = ds->schema.attrs[f->attr].n_levels;
        t->kind[at] = TL_SPLIT_SUBSET;
        uint64_t all = levels >= 64 ? ~(uint64_t)0 : (((uint64_t)1 << levels) - 1);
        t->mask[at] = all & ~((uint64_t)1 << f->level);
    } else {
        t->kind[at] = TL_SPLIT_NUMERIC;
        t->threshold[at] = f->threshold;
    }
    size_t n0 = 0, n1 = 0;
    for (size_t i = 0; i < n; i++) {
        if (opt_bit(d, rows[i], (size_t)sol->feat))
            tmp[n1++] = rows[i];
        else
            rows[n0++] = rows[i];
    }
    memcpy(rows + n0, tmp, n1 * sizeof *tmp);
    int rc = build(t, first, sol->child[0], d, ds, rows, n0, tmp, err);
    return rc ? rc : build(t, first + 1, sol->child[1], d, ds, rows + n0, n1, tmp, err);
}

static int refuse_wide_nominals(const tl_dataset *ds, tl_err *err)
{
    for (size_t a = 0; a < ds->schema.n_attrs; a++)
        if (ds->schema.attrs[a].kind == TL_ATTR_NOMINAL &&
            ds->schema.attrs[a].n_levels > TL_SUBSET_MAX_LEVELS)
            return tl_err_set(err, TL_EINVAL,
                              "optimal: attribute '%s' has %zu levels; at most %d (remove it "
                              "or merge levels)",
                              ds->schema.attrs[a].name, ds->schema.attrs[a].n_levels,
                              TL_SUBSET_MAX_LEVELS);
    return TL_OK;
}

static int optimal_fit(void *state, const tl_dataset *ds, const size_t *rows, size_t n,
                       const tl_fit_ctx *ctx, tl_err *err)
{
    (void)ctx;
    optimal *o = state;
    tl_tree_free(o->tree);
    o->tree = NULL;
    int rc = refuse_wide_nominals(ds, err);
    opt_data d;
    if (rc || (rc = opt_data_build(&d, ds, rows, n, o->rule, o->refuse, err)))
        return rc;
    double total = 0;
    for (size_t i = 0; i < n; i++)
        total += d.w[i];
    double lambda = o->alpha * total;
    opt_result res;
    opt_search *s =
        opt_search_run(&d, o->max_depth, o->max_nodes, lambda, o->time_limit, &res, err);
    uint32_t *order = malloc((2 * n + 1) * sizeof *order);
    if (!s || !order) {
        rc = s ? tl_err_set(err, TL_ENOMEM, "out of memory") : TL_ENOMEM;
        goto done;
    }
    for (size_t i = 0; i < n; i++)
        order[i] = (uint32_t)i;
    if (!(o->tree = tl_tree_alloc(d.k, 0, 16, err)) ||
        tl_tree_add_nodes(o->tree, 1, SIZE_MAX, err) == SIZE_MAX) {
        rc = TL_ENOMEM;
        goto done;
    }
    rc = build(o->tree, 0, res.tree, &d, ds, order, n, order + n, err);
    if (rc)
        goto done;
    o->objective = res.cost;
    o->errors = 0; /* summed from the leaves, not the objective less the penalty (rounding) */
    for (size_t i = 0; i < o->tree->n_nodes; i++)
        if (o->tree->attr[i] < 0)
            o->errors += tl_tree_node_error(o->tree, i);
    o->lower_bound = res.lower_bound;
    o->proven = res.proven;
    o->seconds = res.seconds;
    o->n_features = (double)d.n_feat;
    o->cache_entries = (double)res.cache_entries;
    if (!res.proven)
        tl_warn("optimal: time_limit %g s reached: the tree (objective %g) is not proven "
                "optimal; lower bound %g",
                o->time_limit, res.cost, res.lower_bound);
done:
    if (rc) {
        tl_tree_free(o->tree);
        o->tree = NULL;
    }
    free(order);
    opt_search_free(s);
    opt_data_clear(&d);
    return rc;
}

static int optimal_predict(const void *state, const tl_dataset *d, const size_t *rows, size_t n,
                           double *out, tl_err *err)
{
    const optimal *o = state;
    int rc = tl_tree_check_schema(o->tree, &d->schema, err);
    return rc ? rc : tl_tree_predict(o->tree, d, rows, n, out, err);
}

static const char *const result_names[] = {"objective", "errors",   "lower_bound",  "proven",
                                           "seconds",   "features", "cache_entries"};

static int optimal_save(const void *state, FILE *f, int indent, tl_err *err)
{
    const optimal *o = state;
    const double v[7] = {o->objective, o->errors,     o->lower_bound,  o->proven,
                         o->seconds,   o->n_features, o->cache_entries};
    for (size_t i = 0; i < 7; i++)
        tl_store_put_double(f, indent, result_names[i], v[i]);
    tl_store_open_group(f, indent, "tree");
    int rc = tl_tree_save(o->tree, f, indent + 1, err);
    tl_store_close_group(f, indent);
    return rc;
}

static int optimal_load(void *state, const tl_store *s, tl_err *err)
{
    optimal *o = state;
    double *v[7] = {&o->objective, &o->errors,     &o->lower_bound,  &o->proven,
                    &o->seconds,   &o->n_features, &o->cache_entries};
    char path[64];
    for (size_t i = 0; i < 7; i++) {
        snprintf(path, sizeof path, "state.%s", result_names[i]);
        if (tl_store_double(s, path, v[i], err))
            return TL_EPARSE;
    }
    o->tree = tl_tree_load(s, "state.tree", err);
    return o->tree ? TL_OK : TL_EPARSE;
}

static int optimal_check_schema(const void *state, const tl_schema *schema, tl_err *err)
{
    return tl_tree_check_schema(((const optimal *)state)->tree, schema, err);
}

static int optimal_show(const void *state, const tl_schema *schema, tl_show_format fmt, FILE *f,
                        tl_err *err)
{
    const optimal *o = state;
    int rc = tl_tree_show(o->tree, schema, fmt, f, err);
    if (rc || fmt != TL_SHOW_TEXT)
        return rc;
    fprintf(f, "\nNumber of Leaves  : \t%zu\n\nSize of the tree : \t%zu\n",
            tl_tree_leaves(o->tree, 0), o->tree->n_nodes);
    if (o->proven)
        fprintf(f, "\nProven optimal: objective %.17g (%.17g misclassified), %g binary features\n",
                o->objective, o->errors, o->n_features);
    else
        fprintf(f,
                "\nNOT proven optimal (time_limit reached after %.3f s): objective %.17g "
                "(%.17g misclassified), lower bound %.17g\n",
                o->seconds, o->objective, o->errors, o->lower_bound);
    return TL_OK;
}

static void optimal_info(const void *state, tl_model_info *out)
{
    const optimal *o = state;
    out->leaves = tl_tree_leaves(o->tree, 0);
    out->depth = tl_tree_depth(o->tree, 0);
    out->nodes = o->tree->n_nodes;
}

/* The search's outcome as a one-row table, so a run's trace files say whether each tree is
 * proven optimal and how far from it it may be. */
static int optimal_trace(const void *state, const char *const **cols, size_t *n_cols,
                         const double **values, size_t *n_rows)
{
    optimal *o = (optimal *)state; /* the row is a cache of fields, kept in the state */
    const double v[7] = {o->objective, o->errors,     o->lower_bound,  o->proven,
                         o->seconds,   o->n_features, o->cache_entries};
    memcpy(o->trace_row, v, sizeof v);
    *cols = result_names;
    *n_cols = 7;
    *values = o->trace_row;
    *n_rows = 1;
    return TL_OK;
}

static const tl_tree *optimal_tree(const void *state)
{
    return ((const optimal *)state)->tree;
}

static void optimal_help(FILE *f)
{
    fputs("The tree of least training error (plus alpha per leaf) among all trees within\n"
          "max_depth and max_nodes over the binarised attributes (MurTree's dynamic\n"
          "programming). Unknown values take branch 0 of a test (missing = zero) or are\n"
          "refused (missing = refuse). See docs/optimal.md.\n",
          f);
}

static const tl_model_type optimal_type = {
    .name = "optimal",
    .summary = "depth-limited optimal classification tree (MurTree's search) on binarised data",
    .tasks = TL_TASK_CLASSIFICATION,
    .params = params,
    .alloc = optimal_alloc,
    .free = optimal_free,
    .fit = optimal_fit,
    .predict = optimal_predict,
    .save = optimal_save,
    .load = optimal_load,
    .show = optimal_show,
    .info = optimal_info,
    .trace = optimal_trace,
    .check = optimal_check_schema,
    .check_params = check,
    .tree = optimal_tree,
    .help = optimal_help,
};

const tl_model_type *const tl_model_optimal = &optimal_type;
