/* The soft decision tree learner (`soft_tree`): parameters, fit, predict, save and load. */
#include <gsl/gsl_rng.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "soft_tree_impl.h"
#include "treelab/tl_model.h"

static const tl_param_spec params[] = {
    {"depth", TL_PARAM_STRING, "auto", 0, 16, NULL,
     "depth of the full tree (the maximum when growing), 0 to 16, or auto: 4 for up to 4 "
     "classes (and regression), ceil(log2 classes) + 3 for more (8 leaves per class), at "
     "most floor(log2 training rows) - 2 and at least 1; show, fit and metrics report it"},
    {"beta", TL_PARAM_DOUBLE, "1", 1e-6, 1e6, NULL, "inverse temperature of the soft splits"},
    {"loss", TL_PARAM_CHOICE, "mixture", 0, 0, "mixture|expected",
     "mixture: loss of the path-weighted mixture; expected: path-weighted leaf losses"},
    {"predict", TL_PARAM_CHOICE, "mixture", 0, 0, "mixture|max_path|hard",
     "routing at prediction: the mixture of the leaves, the leaf with the largest path "
     "probability, or the leaf reached by following each split's likelier branch (p > 1/2)"},
    {"gate", TL_PARAM_STRING, "sigmoid", 0, 0, NULL,
     "the splits' gate: sigmoid, smooth_step or entmoid (below; gate.PARAM sets its "
     "parameters)"},
    {"shape", TL_PARAM_STRING, "full", 0, 0, NULL,
     "the tree's shape: full, incremental, oblivious or sparse (below; default full, or "
     "incremental with grow = incremental)"},
    {"leaf", TL_PARAM_STRING, "constant", 0, 0, NULL,
     "the leaves: constant (a class distribution or value) or linear (a linear model of the "
     "inputs; below, leaf.PARAM sets its parameters)"},
    {"lambda", TL_PARAM_DOUBLE, "0.001", 0, 1e6, NULL, "weight of the balance penalty"},
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
    {"grow", TL_PARAM_CHOICE, "full", 0, 0, "full|incremental",
     "older name of shape: train the full tree, or grow it split by split (Irsoy et al.)"},
    {"init_scale", TL_PARAM_DOUBLE, "0.1", 0, 1e3, NULL, "sd of the initial leaf parameters"},
    {"anneal", TL_PARAM_DOUBLE, "1", 1, 10, NULL,
     "temperature annealing: beta grows by this factor after each epoch (1: none); the fitted "
     "model folds its final beta into the split weights, so it predicts with beta as set"},
    {"precision", TL_PARAM_CHOICE, "double", 0, 0, "double|float",
     "arithmetic of the passes over the data: float (float32, sgemm) is about twice as fast; "
     "the parameters are kept, updated and saved in double either way"},
    {"teacher", TL_PARAM_STRING, "none", 0, 0, NULL,
     "distillation (Frosst and Hinton 2017): a learner (any of `treelab plugins`; its "
     "parameters as teacher.PARAM, or in a config teacher = { algorithm = NAME; ... }) fitted "
     "on the training rows, whose class probabilities (values, for regression) the tree "
     "learns instead of the labels; none: the labels"},
    {"temperature", TL_PARAM_DOUBLE, "1", 1e-3, 1e3, NULL,
     "distillation: the teacher's probabilities p become p^(1/temperature), normalised (above "
     "1 softer, below 1 sharper)"},
    {NULL, 0, NULL, 0, 0, NULL, NULL},
};

static void st_free(void *state);

static void *st_alloc(const tl_params *p, tl_err *err)
{
    soft_tree *m = calloc(1, sizeof *m);
    if (!m) {
        tl_err_set(err, TL_ENOMEM, "out of memory");
        return NULL;
    }
    tl_params own;
    if (st_own_params(p, &own, err) || st_slots_read(p, &m->gate, m->gate_par, &m->shape, err) ||
        st_leaf_read(p, &m->leaf, m->leaf_par, err) ||
        st_shape_par_read(p, m->shape, m->shape_par, err)) {
        tl_params_clear(&own);
        st_free(m);
        return NULL;
    }
    tl_param_reader rd = tl_params_reader(params, &own, err);
    const char *depth = tl_params_string(&rd, "depth");
    m->depth_auto = depth && !strcmp(depth, "auto");
    m->depth = depth && !m->depth_auto ? (size_t)strtoul(depth, NULL, 10) : 0;
    m->beta = tl_params_double(&rd, "beta");
    const char *predict = tl_params_string(&rd, "predict");
    m->predict = !strcmp(predict, "max_path") ? ST_PREDICT_MAX_PATH
                 : !strcmp(predict, "hard")   ? ST_PREDICT_HARD
                                              : ST_PREDICT_MIXTURE;
    m->valid_fraction = tl_params_double(&rd, "validation_fraction");
    m->single = strcmp(tl_params_string(&rd, "precision"), "float") == 0;
    st_train_opts *o = &m->opts;
    o->obj.loss =
        strcmp(tl_params_string(&rd, "loss"), "expected") == 0 ? ST_LOSS_EXPECTED : ST_LOSS_MIXTURE;
    o->obj.lambda = tl_params_double(&rd, "lambda");
    o->obj.l2 = tl_params_double(&rd, "l2");
    o->optimizer =
        strcmp(tl_params_string(&rd, "optimizer"), "sgd") == 0 ? ST_OPT_SGD : ST_OPT_ADAM;
    o->learning_rate = tl_params_double(&rd, "learning_rate");
    o->batch_size = (size_t)tl_params_int(&rd, "batch_size");
    o->epochs = (size_t)tl_params_int(&rd, "epochs");
    o->patience = (size_t)tl_params_int(&rd, "patience");
    o->init_scale = tl_params_double(&rd, "init_scale");
    o->anneal = tl_params_double(&rd, "anneal");
    m->temperature = tl_params_double(&rd, "temperature");
    tl_params_init(&m->all);
    for (size_t i = 0; p && i < p->n && !rd.rc; i++)
        if (tl_params_set(&m->all, p->keys[i], p->values[i], err))
            rd.rc = TL_ENOMEM;
    tl_params_clear(&own);
    if (rd.rc) {
        st_free(m);
        return NULL;
    }
    return m;
}

size_t st_auto_depth(size_t classes, size_t rows)
{
    size_t want = 0, cap = 0;
    while (((size_t)1 << want) < classes)
        want++; /* ceil(log2 classes) */
    /* 4 levels suit up to 4 classes (wine loses 2 points at 5); more classes get
     * ceil(log2 k) + 3, 8 leaves per class (scripts/check_soft_tree_depth.sh: Soybean 0.74 at
     * depth 4 -> 0.93 at 7, Vowel 0.60 -> 0.92) */
    want = classes > 4 ? want + 3 : 4;
    while (cap < 62 && ((size_t)2 << cap) <= rows)
        cap++; /* floor(log2 rows) */
    cap = cap > 3 ? cap - 2 : 1;
    return want < cap ? want : cap;
}

/* depth: "auto" or an integer 0..16 (the table takes it as text, for auto). */
static int st_check_params(const tl_params *p, tl_err *err)
{
    tl_params own;
    int rc = st_own_params(p, &own, err);
    if (!rc)
        rc = tl_params_check(params, &own, err);
    tl_params_clear(&own);
    if (!rc)
        rc = st_slots_check(p, err);
    if (!rc)
        rc = st_teacher_check(p, err);
    const char *v = tl_params_find(p, "depth");
    if (rc || !v || !strcmp(v, "auto"))
        return rc;
    char *end;
    long d = strtol(v, &end, 10);
    if (end == v || *end || d < 0 || d > 16)
        return tl_err_set(err, TL_EINVAL,
                          "parameter depth: expected auto or an integer in "
                          "[0, 16], got '%s'",
                          v);
    return TL_OK;
}

static void st_reset(soft_tree *m)
{
    tl_model_free(m->teacher);
    m->teacher = NULL;
    st_net_clear(&m->net);
    st_encoder_clear(&m->enc);
    st_trace_clear(&m->trace);
}

static void st_free(void *state)
{
    if (!state)
        return;
    st_reset(state);
    tl_params_clear(&((soft_tree *)state)->all);
    free(state);
}

static int fit_encoded(soft_tree *m, const st_data *tr, const st_data *va, gsl_rng *rng,
                       tl_err *err)
{
    return m->shape->fit(&m->net, &m->opts, m->depth, tr, va, rng, &m->trace, err);
}

static int st_fit(void *state, const tl_dataset *d, const size_t *rows, size_t n,
                  const tl_fit_ctx *ctx, tl_err *err)
{
    soft_tree *m = state;
    st_reset(m);
    m->net.regression = !tl_dataset_is_classification(d);
    m->net.n_out = m->net.regression ? 1 : tl_dataset_n_classes(d);
    m->net.beta = m->beta;
    m->net.single = m->single;
    m->net.gate = m->gate;
    memcpy(m->net.gate_par, m->gate_par, sizeof m->gate_par);
    m->net.shape = m->shape;
    m->net.leaf = m->leaf;
    memcpy(m->net.leaf_par, m->leaf_par, sizeof m->leaf_par);
    memcpy(m->net.shape_par, m->shape_par, sizeof m->shape_par);
    if (!m->net.regression && m->net.n_out < 1)
        return tl_err_set(err, TL_EINVAL, "soft_tree: the target has no classes");
    if (d->schema.n_attrs == 0)
        return tl_err_set(err, TL_EINVAL, "soft_tree: the data has no attributes");
    gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
    size_t *tr = malloc((n ? n : 1) * sizeof *tr), n_tr = 0;
    st_encoded etr = {0}, eva = {0};
    int rc = TL_OK;
    if (!rng || !tr) {
        rc = tl_err_set(err, TL_ENOMEM, "out of memory");
        goto cleanup;
    }
    gsl_rng_set(rng, ctx->seed);
    if ((rc = st_prepare(d, rows, n, ctx, m->valid_fraction, rng, m->net.regression, &m->enc,
                         &m->y_mean, &m->y_sd, tr, &n_tr, &etr, &eva, err)) ||
        (rc = st_teacher_targets(&m->all, m->temperature, d, tr, n_tr, ctx, &etr, m->y_mean,
                                 m->y_sd, &m->teacher, err)))
        goto cleanup;
    if (m->depth_auto)
        m->depth = st_auto_depth(m->net.regression ? 1 : m->net.n_out, n_tr);
    m->net.n_in = m->enc.n_in;
    m->net.distill = etr.data.q != NULL;
    rc = fit_encoded(m, &etr.data, &eva.data, rng, err);
    m->net.distill = 0; /* predictions: the passes of the tree as trained on labels */
cleanup:
    if (rc)
        st_reset(m);
    st_encoded_clear(&etr);
    st_encoded_clear(&eva);
    free(tr);
    gsl_rng_free(rng);
    return rc;
}

size_t st_predict_cap(size_t n)
{
    return n < ST_PREDICT_BATCH ? (n ? n : 1) : ST_PREDICT_BATCH;
}

int st_predict_batched(const st_encoder *e, size_t K, int regression, double y_mean, double y_sd,
                       const tl_dataset *d, const size_t *rows, size_t n,
                       void (*score)(const void *ctx, const double *X, size_t B, double *out),
                       const void *ctx, double *out, tl_err *err)
{
    size_t cap = st_predict_cap(n), D = e->n_in ? e->n_in : 1;
    double *X = malloc(cap * D * sizeof *X);
    if (!X)
        return tl_err_set(err, TL_ENOMEM, "out of memory");
    for (size_t at = 0; at < n; at += cap) {
        size_t B = n - at < cap ? n - at : cap;
        st_encoder_apply(e, d, rows + at, B, X);
        score(ctx, X, B, out + at * K);
    }
    if (regression)
        for (size_t i = 0; i < n; i++)
            out[i] = y_mean + y_sd * out[i];
    free(X);
    return TL_OK;
}

typedef struct st_scoring {
    const soft_tree *m;
    st_work *w;
} st_scoring;

static void score_rows(const void *ctx, const double *X, size_t B, double *out)
{
    const st_scoring *s = ctx;
    st_predict_rows(&s->m->net, s->m->predict, s->w, X, B, out);
}

static int st_predict(const void *state, const tl_dataset *d, const size_t *rows, size_t n,
                      double *out, tl_err *err)
{
    const soft_tree *m = state;
    st_work w;
    if (st_work_alloc(&w, &m->net, st_predict_cap(n), err))
        return TL_ENOMEM;
    st_scoring s = {m, &w};
    int rc = st_predict_batched(&m->enc, m->net.n_out, m->net.regression, m->y_mean, m->y_sd, d,
                                rows, n, score_rows, &s, out, err);
    st_work_clear(&w);
    return rc;
}

static void st_info(const void *state, tl_model_info *out)
{
    const soft_tree *m = state;
    out->leaves = m->net.tree.n_leaves;
    out->depth = st_tree_max_depth(&m->net.tree);
    out->nodes = m->net.tree.n_nodes;
}

static int st_trace_get(const void *state, const char *const **col_names, size_t *n_cols,
                        const double **values, size_t *n_rows)
{
    const soft_tree *m = state;
    return st_trace_view(&m->trace, col_names, n_cols, values, n_rows);
}

int st_check_levels(const char *learner, const char *noun, const tl_schema *schema, tl_err *err)
{
    for (size_t j = 0; j < schema->n_attrs; j++) {
        const tl_attr_info *a = &schema->attrs[j];
        if (a->kind == TL_ATTR_NOMINAL && a->n_levels > ST_MAX_LEVELS)
            return tl_err_set(err, TL_EINVAL,
                              "%s: the attribute '%s' has %zu levels; %s "
                              "takes at most %d (one input a level): --ignore %s leaves it out",
                              learner, a->name, a->n_levels, noun, ST_MAX_LEVELS, a->name);
    }
    return TL_OK;
}

static const tl_model *st_teacher(const void *state)
{
    const soft_tree *m = state;
    return m->teacher;
}

static int st_check_data(const tl_params *p, const tl_schema *schema, tl_err *err)
{
    (void)p;
    return st_check_levels("soft_tree", "the soft tree", schema, err);
}

static const tl_model_type type = {
    .name = "soft_tree",
    .summary = "soft decision tree: oblique soft splits trained by gradient descent; gates "
               "sigmoid, smooth_step, entmoid; shapes full, incremental, oblivious, sparse; leaves "
               "constant, linear",
    .tasks = TL_TASK_CLASSIFICATION | TL_TASK_REGRESSION,
    .params = params,
    .alloc = st_alloc,
    .free = st_free,
    .fit = st_fit,
    .predict = st_predict,
    .save = st_save,
    .load = st_load,
    .show = st_show,
    .info = st_info,
    .trace = st_trace_get,
    .check = st_check,
    .check_params = st_check_params,
    .check_data = st_check_data,
    .help = st_slots_help,
    .plugin_at = st_plugin_at,
    .teacher = st_teacher,
};

const tl_model_type *const tl_model_soft_tree = &type;
