/* Bagging (Breiman 1996) over any tree learner, and its two presets: random forests
 * (Breiman 2001; scikit-learn's defaults: unpruned trees, the random_subset splitter drawing
 * sqrt(attributes) per node for classes and all for a numeric target, probabilities averaged)
 * and extra-trees (Geurts, Ernst & Wehenkel 2006: one uniform cut per drawn attribute, the
 * random_threshold splitter, no bootstrap). Each member gets its rows (a bootstrap sample as
 * row weights) and its tree's seed from (fit seed, member index). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bagging.h"

#define BAG_PARAMS(DEF_BASE, DEF_N, DEF_BOOT)                                                      \
    TL_ENS_BASE_PARAMS(DEF_BASE),                                                                  \
        {"n_estimators", TL_PARAM_INT, DEF_N, 1, 1e6, NULL, "number of members"},                  \
        {"max_samples",                                                                            \
         TL_PARAM_DOUBLE,                                                                          \
         "1",                                                                                      \
         1e-9,                                                                                     \
         1,                                                                                        \
         NULL,                                                                                     \
         "rows each member draws, as a share of the training rows (at least 1 row)"},              \
        {"bootstrap",                                                                              \
         TL_PARAM_BOOL,                                                                            \
         DEF_BOOT,                                                                                 \
         0,                                                                                        \
         0,                                                                                        \
         NULL,                                                                                     \
         "draw rows with replacement (counts become row weights); false: without"},                \
        {"bootstrap_features",                                                                     \
         TL_PARAM_BOOL,                                                                            \
         "false",                                                                                  \
         0,                                                                                        \
         0,                                                                                        \
         NULL,                                                                                     \
         "each member sees the distinct attributes of as many draws with replacement"},            \
        {"vote",                                                                                   \
         TL_PARAM_CHOICE,                                                                          \
         "average",                                                                                \
         0,                                                                                        \
         0,                                                                                        \
         "average|majority",                                                                       \
         "average: mean of the members' probabilities (scikit-learn); majority: share of the "     \
         "members' votes (Breiman)"},                                                              \
        {"oob_score",                                                                              \
         TL_PARAM_BOOL,                                                                            \
         "false",                                                                                  \
         0,                                                                                        \
         0,                                                                                        \
         NULL,                                                                                     \
         "score the members on the rows they did not draw (accuracy, or R^2 for values)"},         \
    {                                                                                              \
        "max_features", TL_PARAM_STRING, "auto", 0, 0, NULL,                                       \
            "attributes drawn per node by a random_subset splitter of the base (its mtry): "       \
            "auto (sqrt for classes, all for values), sqrt, log2, all, a count, or a share "       \
            "in (0, 1)"                                                                            \
    }

static const tl_param_spec bagging_params[] = {BAG_PARAMS("cart", "10", "true"),
                                               {NULL, 0, NULL, 0, 0, NULL, NULL}};
static const tl_param_spec forest_params[] = {BAG_PARAMS("tree", "100", "true"),
                                              {NULL, 0, NULL, 0, 0, NULL, NULL}};
static const tl_param_spec extra_params[] = {BAG_PARAMS("tree", "100", "false"),
                                             {NULL, 0, NULL, 0, 0, NULL, NULL}};
static const char *const forest_base[] = {"numeric=random_subset", "nominal=random_subset", NULL};
static const char *const extra_base[] = {
    "numeric=random_subset", "numeric.numeric=random_threshold", "nominal=random_subset", NULL};

static int check_own(const tl_params *own, tl_err *err, bag *b, const tl_param_spec *spec)
{
    tl_param_reader rd = tl_params_reader(spec, own, err);
    long n = tl_params_int(&rd, "n_estimators");
    double ms = tl_params_double(&rd, "max_samples");
    int boot = tl_params_bool(&rd, "bootstrap"), bf = tl_params_bool(&rd, "bootstrap_features");
    const char *vote = tl_params_string(&rd, "vote");
    int oob = tl_params_bool(&rd, "oob_score");
    long jobs = tl_params_int(&rd, "jobs");
    const char *mf = tl_params_string(&rd, "max_features");
    if (rd.rc)
        return rd.rc;
    if (!tl_ens_max_features(mf, 16, 0))
        return tl_err_set(err, TL_EINVAL,
                          "max_features = %s; valid: auto, sqrt, log2, all, a count >= 1 or a "
                          "share in (0, 1)",
                          mf);
    if (oob && !boot)
        return tl_err_set(err, TL_EINVAL, "oob_score needs bootstrap = true");
    if (b) {
        b->n_estimators = (size_t)n;
        b->max_samples = ms;
        b->bootstrap = boot;
        b->bootstrap_features = bf;
        b->majority = !strcmp(vote, "majority");
        b->oob = oob;
        b->jobs = jobs;
        snprintf(b->max_features, sizeof b->max_features, "%s", mf);
    }
    return TL_OK;
}

/* Members without a tree predict the data's own attributes: bootstrap_features is for trees. */
static int check_members(const tl_params *own, const tl_ens_base *base, tl_err *err)
{
    const char *bf = tl_params_find(own, "bootstrap_features");
    if (!base->type->tree && bf && strcmp(bf, "false") && strcmp(bf, "0"))
        return tl_err_set(err, TL_EINVAL,
                          "bootstrap_features needs a base that grows a tree (base = %s)",
                          base->type->name);
    return TL_OK;
}

static int bag_check(const bag_kind *kind, const tl_params *p, tl_err *err)
{
    tl_params own;
    tl_ens_base base;
    int rc = tl_ens_parse(kind->spec, p, kind->base_defaults, kind->any, &own, &base, err);
    if (rc)
        return rc; /* parse cleared both */
    rc = check_own(&own, err, NULL, kind->spec);
    if (!rc)
        rc = check_members(&own, &base, err);
    tl_params_clear(&own);
    tl_ens_base_clear(&base);
    return rc;
}

static void bag_free(void *state)
{
    bag *b = state;
    if (!b)
        return;
    tl_ens_base_clear(&b->base);
    bag_models_truncate(b, 0);
    free(b->models);
    tl_ens_trees_clear(&b->trees);
    free(b->importances);
    free(b->inbag);
    free(b->fit_rows);
    free(b);
}

static void *bag_alloc(const bag_kind *kind, const tl_params *p, tl_err *err)
{
    bag *b = calloc(1, sizeof *b);
    if (!b) {
        tl_err_set(err, TL_ENOMEM, "out of memory");
        return NULL;
    }
    b->kind = kind;
    tl_params own;
    int rc = tl_ens_parse(kind->spec, p, kind->base_defaults, kind->any, &own, &b->base, err);
    if (!rc) {
        rc = check_own(&own, err, b, kind->spec);
        if (!rc)
            rc = check_members(&own, &b->base, err);
        tl_params_clear(&own);
    }
    if (rc) {
        bag_free(b);
        return NULL;
    }
    return b;
}

static int bag_predict(const void *state, const tl_dataset *d, const size_t *rows, size_t n,
                       double *out, tl_err *err)
{
    const bag *b = state;
    int rc = bag_combine(b, d, rows, n, NULL, 0, out, NULL, err);
    size_t k = b->regression ? 1 : b->k;
    for (size_t j = 0; !rc && j < n * k; j++)
        out[j] /= (double)b->trees.n;
    return rc;
}

/* Members that are not trees (the soft tree): each its own type's state in a group,
 * members = { n = N; m0 = { ... }; ... }, read back by that type's load (tl_store_sub). */
static int save_members(const bag *b, FILE *f, int indent, tl_err *err)
{
    tl_store_put_int(f, indent, "attributes", (long)b->n_attrs);
    tl_store_open_group(f, indent, "members");
    tl_store_put_int(f, indent + 1, "n", (long)b->trees.n);
    int rc = TL_OK;
    for (size_t i = 0; i < b->trees.n && !rc; i++) {
        char name[32];
        snprintf(name, sizeof name, "m%zu", i);
        tl_store_open_group(f, indent + 1, name);
        rc = b->models[i]->type->save(b->models[i]->state, f, indent + 2, err);
        tl_store_close_group(f, indent + 1);
    }
    tl_store_close_group(f, indent);
    return rc;
}

static int load_members(bag *b, const tl_store *s, tl_err *err)
{
    long n, na;
    if (tl_store_int(s, "state.attributes", &na, err) ||
        tl_store_int(s, "state.members.n", &n, err))
        return TL_EPARSE;
    if (n < 1 || n > 100000000 || na < 0)
        return tl_err_set(err, TL_EPARSE, "model file: state.members.n = %ld; expected 1 or more",
                          n);
    char last[48]; /* there before n slots are allocated for them */
    snprintf(last, sizeof last, "state.members.m%ld", n - 1);
    if (!tl_store_has(s, last))
        return tl_err_set(err, TL_EPARSE, "model file: missing setting '%s'", last);
    b->n_attrs = (size_t)na;
    if (!b->base.type->save || !b->base.type->load)
        return tl_err_set(err, TL_EPARSE, "model file: %s members cannot be loaded",
                          b->base.type->name);
    bag_models_truncate(b, 0);
    free(b->models);
    b->trees.n = 0;
    if (!(b->models = calloc((size_t)n, sizeof *b->models)))
        return tl_err_set(err, TL_ENOMEM, "out of memory");
    int rc = TL_OK;
    for (size_t i = 0; i < (size_t)n && !rc; i++) {
        char group[48];
        snprintf(group, sizeof group, "state.members.m%zu", i);
        tl_store *sub = tl_store_sub(s, group, err);
        tl_model *m = sub ? tl_model_new_type(b->base.type, &b->base.params, err) : NULL;
        if (!m || m->type->load(m->state, sub, err)) {
            tl_err_prefix(err, "member %zu: ", i);
            rc = err && err->code ? err->code : TL_EPARSE;
        } else {
            m->fitted = 1;
        }
        b->models[i] = m;
        b->trees.n = i + 1; /* freed with the others on failure */
        tl_store_free(sub);
    }
    return rc;
}

static int bag_save(const void *state, FILE *f, int indent, tl_err *err)
{
    const bag *b = state;
    if (b->models && !b->base.type->save)
        return tl_err_set(err, TL_EUNSUPPORTED, "a %s of %s members cannot be saved", b->kind->name,
                          b->base.type->name);
    tl_store_put_string(f, indent, "vote", b->majority ? "majority" : "average");
    tl_store_put_int(f, indent, "classes", (long)b->k);
    tl_store_put_double(f, indent, "oob_score", b->oob_score);
    if (b->models)
        return save_members(b, f, indent, err);
    tl_store_put_doubles(f, indent, "importances", b->importances, b->n_attrs);
    return tl_ens_trees_save(&b->trees, f, indent, err);
}

static int bag_load(void *state, const tl_store *s, tl_err *err)
{
    bag *b = state;
    const char *vote;
    long k;
    if (tl_store_string(s, "state.vote", &vote, err) || tl_store_int(s, "state.classes", &k, err) ||
        tl_store_double(s, "state.oob_score", &b->oob_score, err))
        return TL_EPARSE;
    if (b->oob_score >= 1e308) /* how a file holds NaN (not computed) */
        b->oob_score = NAN;
    b->majority = !strcmp(vote, "majority");
    b->k = k > 0 ? (size_t)k : 0;
    b->regression = k == 0;
    if (tl_store_has(s, "state.members"))
        return load_members(b, s, err);
    size_t na;
    if (tl_store_len(s, "state.importances", &na, err))
        return TL_EPARSE;
    b->n_attrs = na;
    free(b->importances);
    if (!(b->importances = calloc(na ? na : 1, sizeof *b->importances)))
        return tl_err_set(err, TL_ENOMEM, "out of memory");
    if (tl_store_doubles(s, "state.importances", b->importances, na, err))
        return TL_EPARSE;
    return tl_ens_trees_load(&b->trees, s, err);
}

/* The loaded model's schema against its state; model members take it as their own (they were
 * fitted on the ensemble's data, every attribute) and are checked against it. */
static int bag_check_schema(const void *state, const tl_schema *schema, tl_err *err)
{
    const bag *b = state;
    int rc = tl_ens_check_shape(b->n_attrs, b->k, schema, err);
    for (size_t i = 0; !rc && b->models && i < b->trees.n; i++) {
        tl_model *m = b->models[i];
        tl_schema_clear(&m->schema);
        rc = tl_schema_copy(&m->schema, schema, err);
        if (!rc && m->type->check)
            rc = m->type->check(m->state, &m->schema, err);
        if (rc)
            tl_err_prefix(err, "member %zu: ", i);
    }
    if (b->models)
        return rc;
    return rc ? rc : tl_ens_trees_check(&b->trees, schema, err);
}

static int bag_show(const void *state, const tl_schema *schema, tl_show_format fmt, FILE *f,
                    tl_err *err)
{
    const bag *b = state;
    char line[160];
    snprintf(line, sizeof line, "%s (%s vote)%s", b->kind->name,
             b->majority ? "majority" : "average", "");
    if (b->models) {
        if (fmt != TL_SHOW_TEXT)
            return tl_err_set(err, TL_EUNSUPPORTED, "%s members have no %s form here",
                              b->base.type->name, fmt == TL_SHOW_DOT ? "dot" : "rules");
        fprintf(f, "%s: %zu %s members\n", line, b->trees.n, b->base.type->name);
        return TL_OK;
    }
    int rc = tl_ens_trees_show(&b->trees, line, 3, schema, fmt, f, err);
    if (!rc && fmt == TL_SHOW_TEXT && b->oob_score == b->oob_score)
        fprintf(f, "out-of-bag %s: %.6f\n", b->regression ? "R^2" : "accuracy", b->oob_score);
    return rc;
}

static void bag_info(const void *state, tl_model_info *out)
{
    const bag *b = state;
    if (!b->models) {
        tl_ens_trees_info(&b->trees, out);
        return;
    }
    tl_model_info sum = {0, 0, 0}, one; /* the members' mean leaves and depth, total nodes */
    for (size_t i = 0; i < b->trees.n; i++) {
        tl_model_get_info(b->models[i], &one);
        sum.leaves += one.leaves, sum.depth += one.depth, sum.nodes += one.nodes;
    }
    size_t n = b->trees.n ? b->trees.n : 1;
    *out = (tl_model_info){(sum.leaves + n / 2) / n, (sum.depth + n / 2) / n, sum.nodes};
}

static const tl_ensemble *bag_view(const void *state)
{
    bag *b = (bag *)state;
    b->view = (tl_ensemble){b->trees.n,
                            b->models ? NULL : (const tl_tree *const *)b->trees.t,
                            b->inbag,
                            b->fit_rows,
                            b->inbag ? b->n_fit : 0,
                            b->oob_score,
                            b->importances,
                            b->n_attrs};
    return &b->view;
}

#define BAG_TYPE(ID, NAME, SUMMARY, SPEC, DEFAULTS, ANY)                                           \
    static const bag_kind ID##_kind = {NAME, SPEC, DEFAULTS, ANY};                                 \
    static void *ID##_alloc(const tl_params *p, tl_err *err)                                       \
    {                                                                                              \
        return bag_alloc(&ID##_kind, p, err);                                                      \
    }                                                                                              \
    static int ID##_check(const tl_params *p, tl_err *err)                                         \
    {                                                                                              \
        return bag_check(&ID##_kind, p, err);                                                      \
    }                                                                                              \
    static const tl_model_type ID##_type = {                                                       \
        .name = NAME,                                                                              \
        .summary = SUMMARY,                                                                        \
        .tasks = TL_TASK_CLASSIFICATION | TL_TASK_REGRESSION,                                      \
        .params = SPEC,                                                                            \
        .alloc = ID##_alloc,                                                                       \
        .free = bag_free,                                                                          \
        .fit = bag_fit_all,                                                                        \
        .predict = bag_predict,                                                                    \
        .save = bag_save,                                                                          \
        .load = bag_load,                                                                          \
        .show = bag_show,                                                                          \
        .info = bag_info,                                                                          \
        .check = bag_check_schema,                                                                 \
        .check_params = ID##_check,                                                                \
        .ensemble = bag_view,                                                                      \
        .help = tl_ens_help,                                                                       \
        .stage_param = "n_estimators",                                                             \
        .truncate = bag_truncate,                                                                  \
    };                                                                                             \
    const tl_model_type *const tl_model_##ID = &ID##_type

BAG_TYPE(bagging, "bagging",
         "bagging (Breiman 1996): members on bootstrap samples, any tree learner or soft_tree",
         bagging_params, NULL, 1);
BAG_TYPE(random_forest, "random_forest",
         "random forest (Breiman 2001): bagged unpruned trees, random_subset splits", forest_params,
         forest_base, 0);
BAG_TYPE(extra_trees, "extra_trees",
         "extremely randomized trees (Geurts et al. 2006): random_threshold cuts, no bootstrap",
         extra_params, extra_base, 0);
