/* Gradient boosting (Friedman 2001) as scikit-learn 1.2's GradientBoostingClassifier and
 * GradientBoostingRegressor: the prior as the initial raw prediction, a regression tree (the
 * base, friedman_mse by default) fitted to the negative gradient at each stage, its leaves
 * set by the loss's Newton step (log_loss) or its median rules (absolute_error, huber), and
 * learning_rate times the tree added; early stopping on held-out rows. */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>

#include "gradient_boosting.h"
#include "treelab/tl_grow.h"

static const tl_param_spec params[] = {
    TL_ENS_BASE_PARAMS("tree"),
    {"loss", TL_PARAM_CHOICE, "auto", 0, 0, "auto|log_loss|squared_error|absolute_error|huber",
     "auto: log_loss for classes (binomial, or multinomial with a tree per class), "
     "squared_error for values"},
    {"n_estimators", TL_PARAM_INT, "100", 1, 1e6, NULL, "boosting stages"},
    {"learning_rate", TL_PARAM_DOUBLE, "0.1", 0, 1e6, NULL, "shrinkage of each stage"},
    {"max_depth", TL_PARAM_INT, "3", 1, 1e6, NULL, "depth of each tree (unless base.max_depth)"},
    {"subsample", TL_PARAM_DOUBLE, "1", 1e-9, 1, NULL,
     "share of the rows each stage is fitted on (drawn without replacement)"},
    {"max_features", TL_PARAM_STRING, "all", 0, 0, NULL,
     "attributes drawn per node (random_subset): all, sqrt, log2, a count, or a share in (0, 1)"},
    {"alpha", TL_PARAM_DOUBLE, "0.9", 1e-9, 0.999999, NULL,
     "huber: the quantile of the absolute residuals beyond which the loss is linear"},
    {"n_iter_no_change", TL_PARAM_INT, "0", 0, 1e6, NULL,
     "stop when the validation loss has not improved by tol for this many stages (0: never)"},
    {"validation_fraction", TL_PARAM_DOUBLE, "0.1", 1e-9, 0.999, NULL,
     "n_iter_no_change > 0: share of the rows held out (with the fit seed) to score stages"},
    {"tol", TL_PARAM_DOUBLE, "1e-4", 0, 1e12, NULL, "n_iter_no_change: the least improvement"},
    {NULL, 0, NULL, 0, 0, NULL, NULL},
};
static const char *const base_defaults[] = {"criterion=friedman_mse", NULL};

static void gb_free(void *state)
{
    tl_gb *g = state;
    if (!g)
        return;
    tl_ens_base_clear(&g->base);
    tl_ens_trees_clear(&g->trees);
    free(g->init);
    free(g->importances);
    free(g->trace);
    free(g);
}

static int read_own(tl_gb *g, const tl_params *own, tl_err *err)
{
    tl_param_reader rd = tl_params_reader(params, own, err);
    const char *loss = tl_params_string(&rd, "loss");
    g->n_estimators = (size_t)tl_params_int(&rd, "n_estimators");
    g->learning_rate = tl_params_double(&rd, "learning_rate");
    g->max_depth = tl_params_int(&rd, "max_depth");
    g->subsample = tl_params_double(&rd, "subsample");
    const char *mf = tl_params_string(&rd, "max_features");
    g->alpha = tl_params_double(&rd, "alpha");
    g->n_iter_no_change = (size_t)tl_params_int(&rd, "n_iter_no_change");
    g->validation_fraction = tl_params_double(&rd, "validation_fraction");
    g->tol = tl_params_double(&rd, "tol");
    g->jobs = tl_params_int(&rd, "jobs");
    if (rd.rc)
        return rd.rc;
    if (!tl_ens_max_features(mf, 16, 1) || !strcmp(mf, "auto"))
        return tl_err_set(err, TL_EINVAL,
                          "max_features = %s; valid: all, sqrt, log2, a count >= 1 or a share in "
                          "(0, 1)",
                          mf);
    snprintf(g->max_features, sizeof g->max_features, "%s", mf);
    g->loss = !strcmp(loss, "log_loss")         ? TL_GB_LOG
              : !strcmp(loss, "squared_error")  ? TL_GB_SQUARED
              : !strcmp(loss, "absolute_error") ? TL_GB_ABSOLUTE
              : !strcmp(loss, "huber")          ? TL_GB_HUBER
                                                : TL_GB_AUTO;
    if (!(g->base.type->tasks & TL_TASK_REGRESSION))
        return tl_err_set(err, TL_EINVAL,
                          "base = %s fits no numeric target; gradient boosting fits regression "
                          "trees to the gradients (valid: tree, cart)",
                          g->base.type->name);
    return TL_OK;
}

static void *gb_alloc(const tl_params *p, tl_err *err)
{
    tl_gb *g = calloc(1, sizeof *g);
    if (!g) {
        tl_err_set(err, TL_ENOMEM, "out of memory");
        return NULL;
    }
    tl_params own;
    int rc = tl_ens_parse(params, p, base_defaults, 0, &own, &g->base, err);
    if (!rc) {
        rc = read_own(g, &own, err);
        tl_params_clear(&own);
    }
    if (rc) {
        gb_free(g);
        return NULL;
    }
    return g;
}

static int gb_check(const tl_params *p, tl_err *err)
{
    void *g = gb_alloc(p, err);
    gb_free(g);
    return g ? TL_OK : (err && err->code ? err->code : TL_EINVAL);
}

/* The base for this fit: the stage depth unless the user set base.max_depth, max_features. */
static int resolve(const tl_gb *g, const tl_dataset *d, tl_ens_base *out, tl_err *err)
{
    int rc = tl_ens_resolve(&g->base, g->max_features, 1, d, out, err);
    if (!rc && !tl_params_find(&out->params, "max_depth")) {
        char text[32];
        snprintf(text, sizeof text, "%ld", g->max_depth);
        rc = tl_params_set(&out->params, "max_depth", text, err);
    }
    return rc;
}

/* The fit's rows and the held-out rows of early stopping (a shuffle with the fit seed; the
 * first ceil(fraction n) held out, as scikit-learn's test_size). */
static int split_rows(const tl_gb *g, const size_t *rows, size_t n, unsigned long seed,
                      size_t **all, size_t *n_fit, size_t *n_valid, tl_err *err)
{
    if (!(*all = malloc((n ? n : 1) * sizeof **all)))
        return tl_err_set(err, TL_ENOMEM, "out of memory");
    memcpy(*all, rows, n * sizeof **all);
    *n_valid = 0;
    *n_fit = n;
    if (!g->n_iter_no_change)
        return TL_OK;
    size_t nv = (size_t)ceil(g->validation_fraction * (double)n);
    if (nv < 1 || nv >= n)
        return tl_err_set(err, TL_EINVAL,
                          "validation_fraction = %g of %zu rows leaves no rows to fit or to "
                          "score",
                          g->validation_fraction, n);
    gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
    if (!rng)
        return tl_err_set(err, TL_ENOMEM, "out of memory");
    gsl_rng_set(rng, (unsigned long)tl_ens_seed(seed, 0, 2));
    gsl_ran_shuffle(rng, *all, n, sizeof **all);
    gsl_rng_free(rng);
    /* fitted rows first, held-out rows after them */
    size_t *tmp = malloc(n * sizeof *tmp);
    if (!tmp)
        return tl_err_set(err, TL_ENOMEM, "out of memory");
    memcpy(tmp, *all + nv, (n - nv) * sizeof *tmp);
    memcpy(tmp + (n - nv), *all, nv * sizeof *tmp);
    free(*all);
    *all = tmp;
    *n_fit = n - nv;
    *n_valid = nv;
    return TL_OK;
}

/* K caches of the grower's sorted orders, one per class's trees (fitted in parallel), when
 * keep (the rows are the same at every stage: no subsample); else K NULLs. */
static int view_caches(size_t K, int keep, tl_view_cache ***out, tl_err *err)
{
    if (!(*out = calloc(K, sizeof **out)))
        return tl_err_set(err, TL_ENOMEM, "out of memory");
    for (size_t k = 0; k < K && keep; k++)
        if (!((*out)[k] = tl_view_cache_new()))
            return tl_err_set(err, TL_ENOMEM, "out of memory");
    return TL_OK;
}

static void free_caches(tl_view_cache **caches, size_t K)
{
    for (size_t k = 0; caches && k < K; k++)
        tl_view_cache_free(caches[k]);
    free(caches);
}

/* Stage i's K trees fitted in parallel: each on its own class's residuals. */
typedef struct stage_job {
    const tl_ens_base *base;
    const tl_dataset *d;
    tl_view_cache *const *caches; /* per class: its trees' sorted orders, or NULLs */
    const size_t *rows;
    size_t n;
    const double *mask; /* per row of d, or NULL */
    double *const *residual;
    tl_tree **out;
    unsigned long seed;
    size_t stage;
} stage_job;

static int fit_tree(void *user, size_t k, tl_err *err)
{
    const stage_job *s = user;
    tl_ens_member m = {.d = s->d,
                       .rows = s->rows,
                       .n = s->n,
                       .count = s->mask,
                       .y_num = s->residual[k],
                       .seed = (unsigned long)tl_ens_seed(s->seed, s->stage, 1 + (unsigned)k),
                       .view_cache = s->caches[k]};
    s->out[k] = tl_ens_fit_member(s->base, &m, err);
    return s->out[k] ? TL_OK : (err->code ? err->code : TL_EINTERNAL);
}

static int gb_fit(void *state, const tl_dataset *d, const size_t *rows, size_t n,
                  const tl_fit_ctx *ctx, tl_err *err)
{
    tl_gb *g = state;
    tl_ens_trees_clear(&g->trees);
    free(g->trace);
    free(g->importances);
    g->trace = NULL;
    g->importances = NULL;
    g->n_stages = 0;
    g->classes = tl_dataset_n_classes(d);
    g->n_attrs = d->schema.n_attrs;
    g->fitted_loss = g->loss == TL_GB_AUTO ? (g->classes ? TL_GB_LOG : TL_GB_SQUARED) : g->loss;
    static const char *const names[] = {"auto", "log_loss", "squared_error", "absolute_error",
                                        "huber"};
    if ((g->fitted_loss == TL_GB_LOG) != (g->classes > 0))
        return tl_err_set(err, TL_EINVAL, "loss %s needs %s", names[g->fitted_loss],
                          g->classes ? "a numeric target (use log_loss)"
                                     : "a nominal target (use squared_error, absolute_error "
                                       "or huber)");
    g->K = g->classes > 2 ? g->classes : 1;
    tl_gb_run run;
    memset(&run, 0, sizeof run);
    int rc = resolve(g, d, &run.base, err);
    if (!rc)
        rc = split_rows(g, rows, n, ctx->seed, &run.rows, &run.n_fit, &run.n_valid, err);
    if (!rc)
        rc = tl_gb_prepare(g, d, &run, err);
    size_t cap = g->n_estimators * g->K;
    if (!rc)
        rc = tl_ens_trees_alloc(&g->trees, cap, err);
    if (!rc && !(g->trace = malloc(g->n_estimators * 3 * sizeof *g->trace)))
        rc = tl_err_set(err, TL_ENOMEM, "out of memory");
    gsl_rng *rng = NULL;
    if (!rc && g->subsample < 1 && !(rng = gsl_rng_alloc(gsl_rng_mt19937)))
        rc = tl_err_set(err, TL_ENOMEM, "out of memory");
    tl_view_cache **caches = NULL; /* the stages' rows and values are the same: sorted once */
    if (!rc)
        rc = view_caches(g->K, !rng, &caches, err);
    if (rng)
        gsl_rng_set(rng, (unsigned long)tl_ens_seed(ctx->seed, 0, 3));
    for (size_t i = 0; !rc && i < g->n_estimators; i++) {
        if (rng) {
            size_t draw = (size_t)(g->subsample * (double)run.n_fit);
            draw = draw < 1 ? 1 : draw;
            gsl_ran_choose(rng, run.pick, draw, run.rows, run.n_fit, sizeof *run.pick);
            for (size_t j = 0; j < run.n_fit; j++)
                run.mask[run.rows[j]] = 0;
            for (size_t j = 0; j < draw; j++)
                run.mask[run.pick[j]] = 1;
        }
        tl_gb_gradients(g, d, &run);
        stage_job job = {&run.base,
                         d,
                         caches,
                         run.rows,
                         run.n_fit,
                         rng ? run.mask : NULL,
                         run.residual,
                         g->trees.t + i * g->K,
                         ctx->seed,
                         i};
        rc = tl_ens_parallel(g->K, tl_ens_jobs(g->jobs, ctx), fit_tree, &job, err);
        for (size_t k = 0; !rc && k < g->K; k++)
            rc = tl_gb_update(g, d, &run, g->trees.t[i * g->K + k], k, err);
        if (rc)
            break;
        g->n_stages = i + 1;
        double train = tl_gb_loss(g, d, &run, run.rows, run.n_fit);
        double valid =
            run.n_valid ? tl_gb_loss(g, d, &run, run.rows + run.n_fit, run.n_valid) : NAN;
        g->trace[3 * i] = (double)(i + 1);
        g->trace[3 * i + 1] = train;
        g->trace[3 * i + 2] = valid;
        if (run.n_valid && tl_gb_stop(g, &run, i, valid))
            break;
    }
    gsl_rng_free(rng);
    free_caches(caches, g->K);
    if (!rc) { /* the stages not grown are not kept */
        for (size_t t = g->n_stages * g->K; t < cap; t++)
            tl_tree_free(g->trees.t[t]);
        g->trees.n = g->n_stages * g->K;
        rc = tl_gb_importances(g, err);
    }
    tl_gb_run_free(&run);
    if (rc)
        tl_ens_trees_clear(&g->trees);
    return rc;
}

/* Stages are sequential (the subsample's draws and early stopping's held-out rows too): the
 * first n are those of a fit of n stages. */
static int gb_truncate(void *state, size_t n, const tl_dataset *d, tl_err *err)
{
    (void)d;
    tl_gb *g = state;
    if (n >= g->n_stages)
        return TL_OK;
    tl_ens_trees_truncate(&g->trees, n * g->K);
    g->n_stages = n;
    g->n_estimators = n;
    return tl_gb_importances(g, err);
}

static int gb_predict(const void *state, const tl_dataset *d, const size_t *rows, size_t n,
                      double *out, tl_err *err)
{
    const tl_gb *g = state;
    double *raw = malloc((n ? n : 1) * g->K * sizeof *raw);
    if (!raw)
        return tl_err_set(err, TL_ENOMEM, "out of memory");
    int rc = tl_gb_raw(g, d, rows, n, g->n_stages, raw, err);
    if (!rc)
        tl_gb_output(g, raw, n, out);
    free(raw);
    return rc;
}

static int gb_trace(const void *state, const char *const **col_names, size_t *n_cols,
                    const double **values, size_t *n_rows)
{
    const tl_gb *g = state;
    static const char *const cols[] = {"stage", "train_loss", "valid_loss"};
    *col_names = cols;
    *n_cols = 3;
    *values = g->trace;
    *n_rows = g->trace ? g->n_stages : 0;
    return TL_OK;
}

static void gb_info(const void *state, tl_model_info *out)
{
    tl_ens_trees_info(&((const tl_gb *)state)->trees, out);
}

static int gb_show(const void *state, const tl_schema *schema, tl_show_format fmt, FILE *f,
                   tl_err *err)
{
    const tl_gb *g = state;
    static const char *const names[] = {"auto", "log_loss", "squared_error", "absolute_error",
                                        "huber"};
    char line[200];
    snprintf(line, sizeof line, "gradient_boosting (%s, learning rate %g): %zu stages of %zu %s",
             names[g->fitted_loss], g->learning_rate, g->n_stages, g->K,
             g->K > 1 ? "trees (one per class)" : "tree");
    return tl_ens_trees_show(&g->trees, line, 2, schema, fmt, f, err);
}

static const tl_ensemble *gb_view(const void *state)
{
    tl_gb *g = (tl_gb *)state;
    g->view = (tl_ensemble){
        g->trees.n, (const tl_tree *const *)g->trees.t, NULL, NULL, 0, NAN, g->importances,
        g->n_attrs};
    return &g->view;
}

static const tl_model_type gradient_boosting = {
    .name = "gradient_boosting",
    .summary = "gradient boosting (Friedman 2001) as scikit-learn's: log_loss, squared_error, "
               "absolute_error, huber",
    .tasks = TL_TASK_CLASSIFICATION | TL_TASK_REGRESSION,
    .params = params,
    .alloc = gb_alloc,
    .free = gb_free,
    .fit = gb_fit,
    .predict = gb_predict,
    .save = tl_gb_save,
    .load = tl_gb_load,
    .show = gb_show,
    .info = gb_info,
    .trace = gb_trace,
    .check = tl_gb_check_schema,
    .check_params = gb_check,
    .ensemble = gb_view,
    .help = tl_ens_help,
    .stage_param = "n_estimators",
    .truncate = gb_truncate,
};

const tl_model_type *const tl_model_gradient_boosting = &gradient_boosting;
