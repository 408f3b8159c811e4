/* The soft forest learner (`soft_forest`): m soft trees trained jointly, summed (TEL, NODE) or
 * averaged with closed-form leaves (deep neural decision forests); fit, predict, files. */
#include <gsl/gsl_rng.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "soft_forest_impl.h"
#include "treelab/tl_model.h"

static const tl_param_spec params[] = {
    {"trees", TL_PARAM_INT, "10", 1, 1024, NULL, "number of soft trees, trained jointly"},
    {"depth", TL_PARAM_INT, "3", 0, 12, NULL, "depth of every (full) tree"},
    {"beta", TL_PARAM_DOUBLE, "1", 1e-6, 1e6, NULL, "inverse temperature of the soft splits"},
    {"gate", TL_PARAM_STRING, "sigmoid", 0, 0, NULL,
     "the splits' gate: sigmoid, smooth_step or entmoid (gate.PARAM sets its parameters; "
     "see soft_tree --help)"},
    {"shape", TL_PARAM_STRING, "full", 0, 0, NULL,
     "the trees' shape: full (a hyperplane per split) or oblivious (one per level, NODE)"},
    {"leaf_update", TL_PARAM_CHOICE, "gradient", 0, 0, "gradient|closed_form",
     "gradient: the trees' outputs are summed (logits, or the value) and every parameter is "
     "trained by the optimiser (TEL, NODE); closed_form (classification): each tree mixes "
     "leaf class distributions, the forest averages them, and after every epoch the leaves "
     "take Kontschieder et al.'s closed-form update while the splits follow the gradient"},
    {"leaf_iterations", TL_PARAM_INT, "20", 1, 1000, NULL,
     "closed_form: rounds of the leaf update after every epoch"},
    {"l2", TL_PARAM_DOUBLE, "0", 0, 1e6, NULL, "L2 penalty 0.5 * l2 * ||W||^2 on split weights"},
    {"optimizer", TL_PARAM_CHOICE, "adam", 0, 0, "adam|sgd", "mini-batch optimiser"},
    {"learning_rate", TL_PARAM_DOUBLE, "0.01", 1e-12, 1e3, NULL, "step size"},
    {"batch_size", TL_PARAM_INT, "32", 1, 1e9, NULL, "rows per mini-batch"},
    {"epochs", TL_PARAM_INT, "100", 1, 1e7, NULL, "maximum passes over the training rows"},
    {"validation_fraction", TL_PARAM_DOUBLE, "0", 0, 0.9, NULL,
     "share of the training rows held out for early stopping (0: none, unless the protocol "
     "names validation rows)"},
    {"patience", TL_PARAM_INT, "10", 1, 1e7, NULL,
     "epochs without a lower validation loss before stopping"},
    {"init_scale", TL_PARAM_DOUBLE, "0.1", 0, 1e3, NULL,
     "sd of the initial leaf parameters (gradient leaves)"},
    {NULL, 0, NULL, 0, 0, NULL, NULL},
};

typedef struct soft_forest {
    size_t m, depth, leaf_iters;
    double beta, valid_fraction;
    const st_gate_type *gate;
    double gate_par[ST_GATE_PARS];
    const st_shape_type *shape;
    sf_leaf_update leaf;
    st_train_opts opts;
    /* fitted */
    sf_net net;
    st_encoder enc;
    double y_mean, y_sd;
    st_trace trace;
} soft_forest;

static void sf_reset(soft_forest *m)
{
    sf_net_clear(&m->net);
    st_encoder_clear(&m->enc);
    st_trace_clear(&m->trace);
}

static void sf_free(void *state)
{
    if (!state)
        return;
    sf_reset(state);
    free(state);
}

static void *sf_alloc(const tl_params *p, tl_err *err)
{
    soft_forest *m = calloc(1, sizeof *m);
    if (!m) {
        tl_err_set(err, TL_ENOMEM, "out of memory");
        return NULL;
    }
    tl_params own;
    if (st_own_params(p, &own, err) || st_slots_read(p, &m->gate, m->gate_par, &m->shape, err)) {
        tl_params_clear(&own);
        sf_free(m);
        return NULL;
    }
    tl_param_reader rd = tl_params_reader(params, &own, err);
    m->m = (size_t)tl_params_int(&rd, "trees");
    m->depth = (size_t)tl_params_int(&rd, "depth");
    m->beta = tl_params_double(&rd, "beta");
    m->leaf = strcmp(tl_params_string(&rd, "leaf_update"), "closed_form") == 0
                  ? SF_LEAF_CLOSED_FORM
                  : SF_LEAF_GRADIENT;
    m->leaf_iters = (size_t)tl_params_int(&rd, "leaf_iterations");
    m->valid_fraction = tl_params_double(&rd, "validation_fraction");
    st_train_opts *o = &m->opts;
    o->obj.l2 = tl_params_double(&rd, "l2");
    o->optimizer =
        strcmp(tl_params_string(&rd, "optimizer"), "sgd") == 0 ? ST_OPT_SGD : ST_OPT_ADAM;
    o->learning_rate = tl_params_double(&rd, "learning_rate");
    o->batch_size = (size_t)tl_params_int(&rd, "batch_size");
    o->epochs = (size_t)tl_params_int(&rd, "epochs");
    o->patience = (size_t)tl_params_int(&rd, "patience");
    o->init_scale = tl_params_double(&rd, "init_scale");
    o->anneal = 1;
    tl_params_clear(&own);
    if (rd.rc) {
        sf_free(m);
        return NULL;
    }
    return m;
}

static int sf_check_params(const tl_params *p, tl_err *err)
{
    tl_params own;
    int rc = st_own_params(p, &own, err);
    if (!rc)
        rc = tl_params_check(params, &own, err);
    tl_params_clear(&own);
    if (!rc)
        rc = st_slots_check(p, err);
    for (size_t i = 0; !rc && p && i < p->n; i++)
        if (!strncmp(p->keys[i], "teacher.", 8))
            rc = tl_err_set(err, TL_EINVAL,
                            "unknown parameter '%s': a soft forest has no teacher (soft_tree "
                            "has)",
                            p->keys[i]);
        else if (!strncmp(p->keys[i], "leaf.", 5))
            rc = tl_err_set(err, TL_EINVAL,
                            "unknown parameter '%s': a soft forest's leaves are constant "
                            "(leaf = linear is soft_tree's)",
                            p->keys[i]);
    const char *shape = tl_params_find(p, "shape");
    if (!rc && shape && !strcmp(shape, "sparse"))
        rc = tl_err_set(err, TL_EINVAL,
                        "shape = sparse in a soft forest: the forest's trees are full or "
                        "oblivious (the sparse shape's penalty is soft_tree's)");
    if (!rc && shape && !strcmp(shape, "incremental"))
        rc = tl_err_set(err, TL_EINVAL,
                        "shape = incremental in a soft forest: the forest trains all its trees "
                        "jointly from the start, incremental growth retrains one tree for "
                        "every candidate split; use shape = full or oblivious");
    return rc;
}

static int sf_fit(void *state, const tl_dataset *d, const size_t *rows, size_t n,
                  const tl_fit_ctx *ctx, tl_err *err)
{
    soft_forest *m = state;
    sf_reset(m);
    sf_net *f = &m->net;
    f->regression = !tl_dataset_is_classification(d);
    f->n_out = f->regression ? 1 : tl_dataset_n_classes(d);
    f->leaf = m->leaf;
    if (f->regression && m->leaf == SF_LEAF_CLOSED_FORM)
        return tl_err_set(err, TL_EINVAL,
                          "soft_forest: leaf_update = closed_form on a numeric target: the "
                          "closed-form update is that of leaf class distributions; use "
                          "leaf_update = gradient for regression");
    if (!f->regression && f->n_out < 1)
        return tl_err_set(err, TL_EINVAL, "soft_forest: the target has no classes");
    if (d->schema.n_attrs == 0)
        return tl_err_set(err, TL_EINVAL, "soft_forest: the data has no attributes");
    gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
    size_t *tr = malloc((n ? n : 1) * sizeof *tr), n_tr = 0;
    st_encoded etr = {0}, eva = {0};
    int rc = TL_OK;
    if (!rng || !tr) {
        rc = tl_err_set(err, TL_ENOMEM, "out of memory");
        goto cleanup;
    }
    gsl_rng_set(rng, ctx->seed);
    if ((rc = st_prepare(d, rows, n, ctx, m->valid_fraction, rng, f->regression, &m->enc,
                         &m->y_mean, &m->y_sd, tr, &n_tr, &etr, &eva, err)))
        goto cleanup;
    f->n_in = m->enc.n_in;
    if ((rc = sf_net_build(f, m->m, m->depth, m->gate, m->gate_par, m->shape, m->beta, err)))
        goto cleanup;
    sf_train_opts o = {.base = m->opts, .leaf_iters = m->leaf_iters};
    rc = sf_train(f, &o, &etr.data, &eva.data, ctx->seed, &m->trace, err);
cleanup:
    if (rc)
        sf_reset(m);
    st_encoded_clear(&etr);
    st_encoded_clear(&eva);
    free(tr);
    gsl_rng_free(rng);
    return rc;
}

typedef struct sf_scoring {
    const soft_forest *m;
    sf_work *w;
} sf_scoring;

static void score_rows(const void *ctx, const double *X, size_t B, double *out)
{
    const sf_scoring *s = ctx;
    sf_predict_rows(&s->m->net, s->w, X, B, out);
}

static int sf_predict(const void *state, const tl_dataset *d, const size_t *rows, size_t n,
                      double *out, tl_err *err)
{
    const soft_forest *m = state;
    sf_work w;
    if (sf_work_alloc(&w, &m->net, err))
        return TL_ENOMEM;
    sf_scoring s = {m, &w};
    int rc = st_predict_batched(&m->enc, m->net.n_out, m->net.regression, m->y_mean, m->y_sd, d,
                                rows, n, score_rows, &s, out, err);
    sf_work_clear(&w);
    return rc;
}

static int sf_save(const void *state, FILE *f, int indent, tl_err *err)
{
    const soft_forest *m = state;
    st_save_head(f, indent, m->net.regression, m->net.n_out, m->y_mean, m->y_sd, &m->enc);
    tl_store_put_int(f, indent, "trees", (long)m->net.m);
    tl_store_put_int(f, indent, "depth", (long)m->depth);
    tl_store_put_doubles(f, indent, "theta", m->net.theta, m->net.n_theta);
    tl_store_put_doubles(f, indent, "trace", m->trace.v, 3 * m->trace.n_rows);
    return ferror(f) ? tl_err_set(err, TL_EIO, "soft_forest: write failed") : TL_OK;
}

static int sf_load(void *state, const tl_store *s, tl_err *err)
{
    soft_forest *m = state;
    sf_net *f = &m->net;
    long trees, depth;
    size_t n_theta;
    int rc = st_read_head(s, &f->regression, &f->n_out, &m->y_mean, &m->y_sd, err);
    if (rc)
        return rc;
    if (tl_store_int(s, "state.trees", &trees, err) || tl_store_int(s, "state.depth", &depth, err))
        return TL_EPARSE;
    if (trees != (long)m->m || depth != (long)m->depth)
        return tl_err_set(err, TL_EPARSE,
                          "model file: state.trees = %ld, state.depth = %ld; the parameters "
                          "say %zu and %zu",
                          trees, depth, m->m, m->depth);
    f->leaf = m->leaf;
    rc = st_read_encoder(&m->enc, s, err);
    f->n_in = m->enc.n_in;
    if (!rc && tl_store_len(s, "state.theta", &n_theta, err))
        rc = TL_EPARSE;
    if (!rc)
        rc = sf_net_build(f, m->m, m->depth, m->gate, m->gate_par, m->shape, m->beta, err);
    if (!rc && n_theta != f->n_theta)
        rc = tl_err_set(err, TL_EPARSE, "model file: state.theta has %zu values; the forest needs %zu",
                        n_theta, f->n_theta);
    if (!rc && tl_store_doubles(s, "state.theta", f->theta, f->n_theta, err))
        rc = TL_EPARSE;
    if (!rc)
        rc = st_read_trace(&m->trace, s, err);
    if (rc)
        sf_reset(m);
    return rc;
}

static int sf_check(const void *state, const tl_schema *schema, tl_err *err)
{
    const soft_forest *m = state;
    return st_check_encoder(&m->enc, "soft_forest", m->net.regression, m->net.n_out, schema,
                            err);
}

static int sf_show(const void *state, const tl_schema *schema, tl_show_format fmt, FILE *f,
                   tl_err *err)
{
    const soft_forest *m = state;
    (void)schema;
    if (fmt != TL_SHOW_TEXT)
        return tl_err_set(err, TL_EUNSUPPORTED, "soft_forest: show has text only");
    fprintf(f, "soft forest: %zu trees of depth %zu (%s), gate %s, leaves by %s; %zu inputs, "
               "%zu parameters\n",
            m->net.m, m->depth, m->shape->name, m->gate->name,
            m->leaf == SF_LEAF_CLOSED_FORM ? "closed form" : "gradient", m->net.n_in,
            m->net.n_theta);
    return ferror(f) ? tl_err_set(err, TL_EIO, "soft_forest: write failed") : TL_OK;
}

static void sf_info(const void *state, tl_model_info *out)
{
    const soft_forest *m = state;
    const st_tree *t = m->net.m ? &m->net.tree[0].tree : NULL;
    out->leaves = t ? m->net.m * t->n_leaves : 0;
    out->depth = t ? st_tree_max_depth(t) : 0;
    out->nodes = t ? m->net.m * t->n_nodes : 0;
}

static int sf_trace_get(const void *state, const char *const **col_names, size_t *n_cols,
                        const double **values, size_t *n_rows)
{
    const soft_forest *m = state;
    return st_trace_view(&m->trace, col_names, n_cols, values, n_rows);
}

static int sf_check_data(const tl_params *p, const tl_schema *schema, tl_err *err)
{
    (void)p;
    return st_check_levels("soft_forest", "the soft forest", schema, err);
}

static const tl_model_type type = {
    .name = "soft_forest",
    .summary = "soft forest: m soft trees trained jointly, summed (TEL, NODE) or averaged with "
               "closed-form leaves (deep neural decision forests)",
    .tasks = TL_TASK_CLASSIFICATION | TL_TASK_REGRESSION,
    .params = params,
    .alloc = sf_alloc,
    .free = sf_free,
    .fit = sf_fit,
    .predict = sf_predict,
    .save = sf_save,
    .load = sf_load,
    .show = sf_show,
    .info = sf_info,
    .trace = sf_trace_get,
    .check = sf_check,
    .check_params = sf_check_params,
    .check_data = sf_check_data,
    .help = st_forest_slots_help,
    .plugin_at = st_forest_plugin_at,
};

const tl_model_type *const tl_model_soft_forest = &type;
