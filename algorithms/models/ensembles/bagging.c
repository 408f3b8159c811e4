/* Bagging (Breiman 1996) over any tree learner, and its two presets: random forests
 * (Breiman 2001; scikit-learn's defaults: unpruned trees, the random_subset splitter drawing
 * sqrt(attributes) per node for classes and all for a numeric target, probabilities averaged)
 * and extra-trees (Geurts, Ernst & Wehenkel 2006: one uniform cut per drawn attribute, the
 * random_threshold splitter, no bootstrap). Each member gets its rows (a bootstrap sample as
 * row weights) and its tree's seed from (fit seed, member index). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>

#include "ensemble.h"

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

typedef struct bag_kind {
    const char *name;
    const tl_param_spec *spec;
    const char *const *base_defaults;
} bag_kind;

typedef struct bag {
    const bag_kind *kind;
    tl_ens_base base;
    size_t n_estimators;
    double max_samples;
    int bootstrap, bootstrap_features, majority, oob;
    long jobs;
    char max_features[32];
    /* fitted */
    tl_ens_trees trees;
    int regression;
    size_t k, n_attrs;
    double oob_score;
    double *importances;
    unsigned short *inbag; /* oob_score: n_estimators x n_fit counts, per fit row */
    size_t *fit_rows, n_fit;
    tl_ensemble view;
} bag;

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

static int bag_check(const bag_kind *kind, const tl_params *p, tl_err *err)
{
    tl_params own;
    tl_ens_base base;
    int rc = tl_ens_parse(kind->spec, p, kind->base_defaults, &own, &base, err);
    if (rc)
        return rc; /* parse cleared both */
    rc = check_own(&own, err, NULL, kind->spec);
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
    int rc = tl_ens_parse(kind->spec, p, kind->base_defaults, &own, &b->base, err);
    if (!rc) {
        rc = check_own(&own, err, b, kind->spec);
        tl_params_clear(&own);
    }
    if (rc) {
        bag_free(b);
        return NULL;
    }
    return b;
}

/* One fit's shared inputs. */
typedef struct bag_fit {
    const bag *b;
    tl_ens_base base; /* with mtry resolved for this data */
    const tl_dataset *d;
    const size_t *rows;
    size_t n;
    unsigned long seed;
    unsigned short *inbag;
    tl_tree **out;
} bag_fit;

/* Member i: its rows (bootstrap counts, or a draw without replacement), its attributes, its
 * tree. */
static int fit_one(void *user, size_t i, tl_err *err)
{
    const bag_fit *f = user;
    const bag *b = f->b;
    size_t nd = f->d->n_rows, na = f->d->schema.n_attrs;
    size_t draws = (size_t)(b->max_samples * (double)f->n);
    if (draws < 1)
        draws = 1;
    double *count = calloc(nd ? nd : 1, sizeof *count);
    size_t *pick = malloc((f->n ? f->n : 1) * sizeof *pick), *attrs = NULL, n_attrs = 0;
    gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
    int rc = TL_OK;
    if (!count || !pick || !rng) {
        rc = tl_err_set(err, TL_ENOMEM, "out of memory");
        goto done;
    }
    gsl_rng_set(rng, (unsigned long)tl_ens_seed(f->seed, i, 0));
    if (b->bootstrap) {
        for (size_t j = 0; j < draws; j++)
            count[f->rows[gsl_rng_uniform_int(rng, f->n)]] += 1;
    } else {
        gsl_ran_choose(rng, pick, draws, (void *)f->rows, f->n, sizeof *pick);
        for (size_t j = 0; j < draws; j++)
            count[pick[j]] = 1;
    }
    if (f->inbag)
        for (size_t j = 0; j < f->n; j++)
            f->inbag[i * f->n + j] =
                (unsigned short)(count[f->rows[j]] > 65535 ? 65535 : count[f->rows[j]]);
    if (b->bootstrap_features) {
        unsigned char *seen = calloc(na ? na : 1, 1);
        if (!seen || !(attrs = malloc((na ? na : 1) * sizeof *attrs))) {
            free(seen);
            rc = tl_err_set(err, TL_ENOMEM, "out of memory");
            goto done;
        }
        for (size_t j = 0; j < na; j++)
            seen[gsl_rng_uniform_int(rng, na)] = 1;
        for (size_t a = 0; a < na; a++)
            if (seen[a])
                attrs[n_attrs++] = a;
        free(seen);
    }
    tl_ens_member m = {f->d,  f->rows, f->n, count,
                       attrs, n_attrs, NULL, (unsigned long)tl_ens_seed(f->seed, i, 1)};
    if (!(f->out[i] = tl_ens_fit_member(&f->base, &m, err)))
        rc = err && err->code ? err->code : TL_EINTERNAL;
done:
    free(count);
    free(pick);
    free(attrs);
    gsl_rng_free(rng);
    return rc;
}

/* predict_proba (or the mean value) of the members whose use[] is set (NULL: all) on rows. */
static int combine(const bag *b, const tl_dataset *d, const size_t *rows, size_t n,
                   const unsigned char *use, size_t stride, double *out, size_t *votes, tl_err *err)
{
    size_t k = b->regression ? 1 : b->k;
    double *tmp = malloc((n ? n : 1) * k * sizeof *tmp);
    if (!tmp)
        return tl_err_set(err, TL_ENOMEM, "out of memory");
    memset(out, 0, n * k * sizeof *out);
    if (votes)
        memset(votes, 0, n * sizeof *votes);
    int rc = TL_OK;
    for (size_t t = 0; t < b->trees.n && !rc; t++) {
        if (!(rc = tl_tree_predict(b->trees.t[t], d, rows, n, tmp, err)))
            for (size_t i = 0; i < n; i++) {
                if (use && !use[t * stride + i])
                    continue;
                if (votes)
                    votes[i]++;
                if (b->majority && !b->regression) {
                    size_t best = 0;
                    for (size_t c = 1; c < k; c++)
                        best = tmp[i * k + c] > tmp[i * k + best] ? c : best;
                    out[i * k + best] += 1;
                } else {
                    for (size_t c = 0; c < k; c++)
                        out[i * k + c] += tmp[i * k + c];
                }
            }
    }
    free(tmp);
    return rc;
}

/* Accuracy (classes) or R^2 (values) on the training rows from the members that did not draw
 * them; rows every member drew are left out. */
static int oob_score(bag *b, const tl_dataset *d, tl_err *err)
{
    size_t n = b->n_fit, k = b->regression ? 1 : b->k;
    size_t cells = b->trees.n * n;
    unsigned char *use = malloc(cells ? cells : 1);
    double *p = malloc((n ? n : 1) * k * sizeof *p);
    size_t *votes = malloc((n ? n : 1) * sizeof *votes);
    int rc = (!use || !p || !votes) ? tl_err_set(err, TL_ENOMEM, "out of memory") : TL_OK;
    for (size_t j = 0; !rc && j < b->trees.n * n; j++)
        use[j] = b->inbag[j] == 0;
    if (!rc)
        rc = combine(b, d, b->fit_rows, n, use, n, p, votes, err);
    double right = 0, used = 0, sum = 0, ss = 0, sse = 0;
    for (size_t i = 0; !rc && i < n; i++) {
        if (!votes[i])
            continue;
        size_t r = b->fit_rows[i];
        used++;
        if (b->regression) {
            double y = d->y.num[r], e = y - p[i] / (double)votes[i];
            sum += y;
            ss += y * y;
            sse += e * e;
        } else {
            size_t best = 0;
            for (size_t c = 1; c < k; c++)
                best = p[i * k + c] > p[i * k + best] ? c : best;
            right += (int)best == d->y.code[r];
        }
    }
    if (!rc) {
        double var = used > 0 ? ss - sum * sum / used : 0;
        b->oob_score = used == 0       ? NAN
                       : b->regression ? (var > 0 ? 1 - sse / var : NAN)
                                       : right / used;
    }
    free(use);
    free(p);
    free(votes);
    return rc;
}

/* scikit-learn's feature_importances_: each tree's normalised, their mean normalised. */
static int importances(bag *b, tl_err *err)
{
    size_t na = b->n_attrs;
    free(b->importances);
    double *one = calloc(na ? na : 1, sizeof *one);
    b->importances = calloc(na ? na : 1, sizeof *b->importances);
    if (!one || !b->importances) {
        free(one);
        return tl_err_set(err, TL_ENOMEM, "out of memory");
    }
    double total = 0;
    for (size_t t = 0; t < b->trees.n; t++) {
        memset(one, 0, na * sizeof *one);
        tl_ens_tree_importances(b->trees.t[t], na, one);
        double s = 0;
        for (size_t a = 0; a < na; a++)
            s += one[a];
        for (size_t a = 0; a < na && s > 0; a++)
            b->importances[a] += one[a] / s;
    }
    for (size_t a = 0; a < na; a++)
        total += b->importances[a];
    for (size_t a = 0; a < na && total > 0; a++)
        b->importances[a] /= total;
    free(one);
    return TL_OK;
}

static int bag_fit_all(void *state, const tl_dataset *d, const size_t *rows, size_t n,
                       const tl_fit_ctx *ctx, tl_err *err)
{
    bag *b = state;
    tl_ens_trees_clear(&b->trees);
    free(b->inbag);
    free(b->fit_rows);
    b->inbag = NULL;
    b->fit_rows = NULL;
    b->regression = !tl_dataset_is_classification(d);
    b->k = tl_dataset_n_classes(d);
    b->n_attrs = d->schema.n_attrs;
    b->oob_score = NAN;
    bag_fit f = {b, {0}, d, rows, n, ctx->seed, NULL, NULL};
    int rc = tl_ens_resolve(&b->base, b->max_features, 0, d, &f.base, err);
    if (!rc)
        rc = tl_ens_trees_alloc(&b->trees, b->n_estimators, err);
    if (!rc && b->oob) {
        b->inbag = malloc(b->n_estimators * n * sizeof *b->inbag);
        b->fit_rows = malloc(n * sizeof *b->fit_rows);
        if (!b->inbag || !b->fit_rows)
            rc = tl_err_set(err, TL_ENOMEM, "out of memory");
        else {
            memcpy(b->fit_rows, rows, n * sizeof *rows);
            b->n_fit = n;
            f.inbag = b->inbag;
        }
    }
    f.out = b->trees.t;
    if (!rc)
        rc = tl_ens_parallel(b->n_estimators, tl_ens_jobs(b->jobs, ctx), fit_one, &f, err);
    if (!rc && b->oob)
        rc = oob_score(b, d, err);
    if (!rc)
        rc = importances(b, err);
    tl_params_clear(&f.base.params);
    if (rc)
        tl_ens_trees_clear(&b->trees);
    return rc;
}

static int bag_truncate(void *state, size_t n, const tl_dataset *d, tl_err *err)
{
    bag *b = state;
    if (n >= b->trees.n)
        return TL_OK;
    tl_ens_trees_truncate(&b->trees, n);
    b->n_estimators = n; /* member i's draws sit at inbag[i * n_fit], whatever the count */
    if (b->inbag && !d)
        return tl_err_set(err, TL_EINVAL, "the out-of-bag score needs the data fitted on");
    if (!b->inbag) /* a loaded model keeps no draws: its score was of all the members */
        b->oob_score = NAN;
    int rc = b->inbag ? oob_score(b, d, err) : TL_OK;
    return rc ? rc : importances(b, err);
}

static int bag_predict(const void *state, const tl_dataset *d, const size_t *rows, size_t n,
                       double *out, tl_err *err)
{
    const bag *b = state;
    int rc = combine(b, d, rows, n, NULL, 0, out, NULL, err);
    size_t k = b->regression ? 1 : b->k;
    for (size_t j = 0; !rc && j < n * k; j++)
        out[j] /= (double)b->trees.n;
    return rc;
}

static int bag_save(const void *state, FILE *f, int indent, tl_err *err)
{
    const bag *b = state;
    tl_store_put_string(f, indent, "vote", b->majority ? "majority" : "average");
    tl_store_put_int(f, indent, "classes", (long)b->k);
    tl_store_put_double(f, indent, "oob_score", b->oob_score);
    tl_store_put_doubles(f, indent, "importances", b->importances, b->n_attrs);
    return tl_ens_trees_save(&b->trees, f, indent, err);
}

static int bag_load(void *state, const tl_store *s, tl_err *err)
{
    bag *b = state;
    const char *vote;
    long k;
    size_t na;
    if (tl_store_string(s, "state.vote", &vote, err) || tl_store_int(s, "state.classes", &k, err) ||
        tl_store_double(s, "state.oob_score", &b->oob_score, err) ||
        tl_store_len(s, "state.importances", &na, err))
        return TL_EPARSE;
    if (b->oob_score >= 1e308) /* how a file holds NaN (not computed) */
        b->oob_score = NAN;
    b->majority = !strcmp(vote, "majority");
    b->k = k > 0 ? (size_t)k : 0;
    b->regression = k == 0;
    b->n_attrs = na;
    free(b->importances);
    if (!(b->importances = calloc(na ? na : 1, sizeof *b->importances)))
        return tl_err_set(err, TL_ENOMEM, "out of memory");
    if (tl_store_doubles(s, "state.importances", b->importances, na, err))
        return TL_EPARSE;
    return tl_ens_trees_load(&b->trees, s, err);
}

static int bag_check_schema(const void *state, const tl_schema *schema, tl_err *err)
{
    const bag *b = state;
    int rc = tl_ens_check_shape(b->n_attrs, b->k, schema, err);
    return rc ? rc : tl_ens_trees_check(&b->trees, schema, err);
}

static int bag_show(const void *state, const tl_schema *schema, tl_show_format fmt, FILE *f,
                    tl_err *err)
{
    const bag *b = state;
    char line[160];
    snprintf(line, sizeof line, "%s (%s vote)%s", b->kind->name,
             b->majority ? "majority" : "average", "");
    int rc = tl_ens_trees_show(&b->trees, line, 3, schema, fmt, f, err);
    if (!rc && fmt == TL_SHOW_TEXT && b->oob_score == b->oob_score)
        fprintf(f, "out-of-bag %s: %.6f\n", b->regression ? "R^2" : "accuracy", b->oob_score);
    return rc;
}

static void bag_info(const void *state, tl_model_info *out)
{
    tl_ens_trees_info(&((const bag *)state)->trees, out);
}

static const tl_ensemble *bag_view(const void *state)
{
    bag *b = (bag *)state;
    b->view = (tl_ensemble){b->trees.n,
                            (const tl_tree *const *)b->trees.t,
                            b->inbag,
                            b->fit_rows,
                            b->inbag ? b->n_fit : 0,
                            b->oob_score,
                            b->importances,
                            b->n_attrs};
    return &b->view;
}

#define BAG_TYPE(ID, NAME, SUMMARY, SPEC, DEFAULTS)                                                \
    static const bag_kind ID##_kind = {NAME, SPEC, DEFAULTS};                                      \
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
         "bagging (Breiman 1996): members on bootstrap samples, any tree learner", bagging_params,
         NULL);
BAG_TYPE(random_forest, "random_forest",
         "random forest (Breiman 2001): bagged unpruned trees, random_subset splits", forest_params,
         forest_base);
BAG_TYPE(extra_trees, "extra_trees",
         "extremely randomized trees (Geurts et al. 2006): random_threshold cuts, no bootstrap",
         extra_params, extra_base);
