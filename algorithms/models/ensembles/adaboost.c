/* AdaBoost over any tree learner that takes row weights: SAMME and SAMME.R (Zhu, Zou, Rosset &
 * Hastie 2009) as scikit-learn 1.2's AdaBoostClassifier, and AdaBoost.M1 (Freund & Schapire
 * 1996) as Weka's AdaBoostM1 with reweighting. Stumps (a CART of depth 1) by default. */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "adaboost.h"

static const tl_param_spec params[] = {
    TL_ENS_BASE_PARAMS("cart"),
    {"algorithm", TL_PARAM_CHOICE, "SAMME.R", 0, 0, "SAMME.R|SAMME|M1",
     "SAMME.R (real, from the members' probabilities) and SAMME (discrete) as scikit-learn; "
     "M1: AdaBoost.M1 as Weka's AdaBoostM1 with reweighting"},
    {"n_estimators", TL_PARAM_INT, "50", 1, 1e6, NULL, "most boosting rounds"},
    {"learning_rate", TL_PARAM_DOUBLE, "1", 1e-12, 1e6, NULL,
     "SAMME, SAMME.R: shrinkage of each member's weight"},
    {NULL, 0, NULL, 0, 0, NULL, NULL},
};
/* scikit-learn's DecisionTreeClassifier(max_depth=1): its min_samples_* count rows, treelab's
 * weigh them, so the weight rules are off (rows of zero weight are left out anyway) */
static const char *const base_defaults[] = {"max_depth=1", "min_samples_leaf=0",
                                            "min_samples_split=0", NULL};

static void boost_free(void *state)
{
    boost *b = state;
    if (!b)
        return;
    tl_ens_base_clear(&b->base);
    tl_ens_trees_clear(&b->trees);
    free(b->alpha);
    free(b->importances);
    free(b);
}

static void *boost_alloc(const tl_params *p, tl_err *err)
{
    boost *b = calloc(1, sizeof *b);
    if (!b) {
        tl_err_set(err, TL_ENOMEM, "out of memory");
        return NULL;
    }
    tl_params own;
    int rc = tl_ens_parse(params, p, base_defaults, 0, &own, &b->base, err);
    if (!rc) {
        tl_param_reader rd = tl_params_reader(params, &own, err);
        const char *alg = tl_params_string(&rd, "algorithm");
        b->n_estimators = (size_t)tl_params_int(&rd, "n_estimators");
        b->learning_rate = tl_params_double(&rd, "learning_rate");
        rc = rd.rc;
        b->algorithm = rc ? 0 : !strcmp(alg, "SAMME") ? SAMME : !strcmp(alg, "M1") ? M1 : SAMME_R;
        tl_params_clear(&own);
    }
    if (rc) {
        boost_free(b);
        return NULL;
    }
    return b;
}

static int boost_check(const tl_params *p, tl_err *err)
{
    void *b = boost_alloc(p, err);
    boost_free(b);
    return b ? TL_OK : (err && err->code ? err->code : TL_EINVAL);
}

/* One round on weights w (per row of d): the member, its error and the new weights; 1 to
 * stop after it (perfect, or too weak: then it is dropped unless it is the first). */
static int round_one(boost *b, const tl_dataset *d, const size_t *rows, size_t n, double *w,
                     double *p, size_t t, unsigned long seed, int *stop, tl_err *err)
{
    size_t k = b->k, last = t + 1 == b->n_estimators;
    /* the member sees the weights as they are: summing to 1 (SAMME, SAMME.R, as scikit-learn)
     * or to the rows' weight (M1, as Weka), so the base's weight rules are off by default */
    tl_dataset v = *d; /* w holds the rows' own weights already */
    v.weight = NULL;
    tl_ens_member m = {&v, rows, n, w, NULL, 0, NULL, (unsigned long)tl_ens_seed(seed, t, 1)};
    tl_tree *tree = tl_ens_fit_member(&b->base, &m, err);
    if (!tree)
        return err->code ? err->code : TL_EINTERNAL;
    int rc = tl_tree_predict(tree, d, rows, n, p, err);
    if (rc) {
        tl_tree_free(tree);
        return rc;
    }
    double wrong = 0, total = 0;
    for (size_t i = 0; i < n; i++) {
        total += w[rows[i]];
        wrong += w[rows[i]] * ((int)tl_ada_arg_max(p + i * k, k) != d->y.code[rows[i]]);
    }
    double e = wrong / total;
    *stop = 0;
    /* scikit-learn stops at a perfect member and keeps it (weight 1); Weka stops at an error
     * of 0 or of 0.5 and more (within its Utils eps), keeping the member only when first */
    int sk_stop = b->algorithm != M1 && e <= 0;
    if (sk_stop || (b->algorithm == M1 && (e - 0.5 > -1e-6 || fabs(e) < 1e-6))) {
        *stop = 1;
        if (sk_stop || t == 0) {
            b->trees.t[b->trees.n] = tree;
            b->alpha[b->trees.n++] = 1;
        } else {
            tl_tree_free(tree);
        }
        return TL_OK;
    }
    if (b->algorithm == SAMME && e >= 1 - 1.0 / (double)k) {
        tl_tree_free(tree);
        *stop = 1;
        return b->trees.n ? TL_OK
                          : tl_err_set(err, TL_EINVAL,
                                       "the first member is worse than chance (error %g): "
                                       "AdaBoost cannot start",
                                       e);
    }
    double alpha;
    if (b->algorithm == SAMME_R) {
        alpha = 1;
        for (size_t i = 0; i < n && !last; i++) {
            size_t r = rows[i];
            double s = 0;
            for (size_t c = 0; c < k; c++) {
                double pc = p[i * k + c] > DBL_EPSILON ? p[i * k + c] : DBL_EPSILON;
                double code = (int)c == d->y.code[r] ? 1.0 : -1.0 / ((double)k - 1);
                s += code * log(pc);
            }
            double ew = -1.0 * b->learning_rate * (((double)k - 1.0) / (double)k) * s;
            w[r] *= exp(ew * ((w[r] > 0) || (ew < 0)));
        }
    } else if (b->algorithm == SAMME) {
        alpha = b->learning_rate * (log((1.0 - e) / e) + log((double)k - 1.0));
        for (size_t i = 0; i < n && !last; i++) {
            size_t r = rows[i];
            int bad = (int)tl_ada_arg_max(p + i * k, k) != d->y.code[r];
            w[r] = exp(log(w[r]) + alpha * bad * (w[r] > 0));
        }
    } else { /* Weka: the misclassified weights times (1 - e) / e, the total kept */
        alpha = log((1 - e) / e);
        double before = total, after = 0;
        for (size_t i = 0; i < n; i++) {
            size_t r = rows[i];
            if ((int)tl_ada_arg_max(p + i * k, k) != d->y.code[r])
                w[r] *= (1 - e) / e;
            after += w[r];
        }
        for (size_t i = 0; i < n; i++)
            w[rows[i]] *= before / after;
    }
    b->trees.t[b->trees.n] = tree;
    b->alpha[b->trees.n++] = alpha;
    double sum = 0;
    for (size_t i = 0; i < n; i++)
        sum += w[rows[i]];
    if (!isfinite(sum) || sum <= 0)
        *stop = 1;
    else if (b->algorithm != M1 && !last)
        for (size_t i = 0; i < n; i++)
            w[rows[i]] /= sum;
    return TL_OK;
}

/* scikit-learn's: the members' normalised importances weighted by their weights. */
static int boost_importances(boost *b, tl_err *err)
{
    free(b->importances);
    double aw = 0, *one = malloc((b->n_attrs ? b->n_attrs : 1) * sizeof *one);
    if (!(b->importances = calloc(b->n_attrs ? b->n_attrs : 1, sizeof *b->importances)) || !one) {
        free(one);
        return tl_err_set(err, TL_ENOMEM, "out of memory");
    }
    for (size_t t = 0; t < b->trees.n; t++) {
        double sum = 0;
        memset(one, 0, b->n_attrs * sizeof *one);
        tl_ens_tree_importances(b->trees.t[t], b->n_attrs, one);
        for (size_t a = 0; a < b->n_attrs; a++)
            sum += one[a];
        for (size_t a = 0; a < b->n_attrs && sum > 0; a++)
            b->importances[a] += b->alpha[t] * one[a] / sum;
        aw += b->alpha[t];
    }
    for (size_t a = 0; a < b->n_attrs && aw > 0; a++)
        b->importances[a] /= aw;
    free(one);
    return TL_OK;
}

/* The rounds are sequential and the last one's reweighting is never used: the first n
 * members and weights are those of a fit of n rounds. */
static int boost_truncate(void *state, size_t n, const tl_dataset *d, tl_err *err)
{
    (void)d;
    boost *b = state;
    if (n >= b->trees.n)
        return TL_OK;
    tl_ens_trees_truncate(&b->trees, n);
    b->n_estimators = n;
    return boost_importances(b, err);
}

static int boost_fit(void *state, const tl_dataset *d, const size_t *rows, size_t n,
                     const tl_fit_ctx *ctx, tl_err *err)
{
    boost *b = state;
    b->k = tl_dataset_n_classes(d);
    b->n_attrs = d->schema.n_attrs;
    if (b->k > 64)
        return tl_err_set(err, TL_EINVAL, "adaboost handles at most 64 classes (%zu here)", b->k);
    free(b->alpha);
    free(b->importances);
    b->importances = NULL;
    int rc = tl_ens_trees_alloc(&b->trees, b->n_estimators, err);
    b->trees.n = 0; /* the members kept so far */
    b->alpha = calloc(b->n_estimators, sizeof *b->alpha);
    double *w = calloc(d->n_rows ? d->n_rows : 1, sizeof *w);
    double *p = malloc((n ? n : 1) * (b->k ? b->k : 1) * sizeof *p);
    if (!rc && (!b->alpha || !w || !p))
        rc = tl_err_set(err, TL_ENOMEM, "out of memory");
    double total = 0;
    for (size_t i = 0; !rc && i < n; i++)
        total += w[rows[i]] = tl_dataset_weight(d, rows[i]);
    for (size_t i = 0; !rc && b->algorithm != M1 && i < n; i++)
        w[rows[i]] /= total; /* scikit-learn starts from weights summing to 1 */
    int stop = 0;
    for (size_t t = 0; !rc && !stop && t < b->n_estimators; t++)
        rc = round_one(b, d, rows, n, w, p, t, ctx->seed, &stop, err);
    if (!rc)
        rc = boost_importances(b, err);
    free(w);
    free(p);
    if (rc)
        tl_ens_trees_clear(&b->trees);
    return rc;
}

static int boost_save(const void *state, FILE *f, int indent, tl_err *err)
{
    const boost *b = state;
    static const char *const names[] = {"SAMME.R", "SAMME", "M1"};
    tl_store_put_string(f, indent, "algorithm", names[b->algorithm]);
    tl_store_put_int(f, indent, "classes", (long)b->k);
    tl_store_put_doubles(f, indent, "alpha", b->alpha, b->trees.n);
    tl_store_put_doubles(f, indent, "importances", b->importances, b->n_attrs);
    return tl_ens_trees_save(&b->trees, f, indent, err);
}

static int boost_load(void *state, const tl_store *s, tl_err *err)
{
    boost *b = state;
    const char *alg;
    long k;
    size_t na;
    if (tl_store_string(s, "state.algorithm", &alg, err) ||
        tl_store_int(s, "state.classes", &k, err) || tl_store_len(s, "state.importances", &na, err))
        return TL_EPARSE;
    if (k < 2 || k > 64)
        return tl_err_set(err, TL_EPARSE, "model file: state.classes = %ld; expected 2 to 64", k);
    b->algorithm = !strcmp(alg, "SAMME") ? SAMME : !strcmp(alg, "M1") ? M1 : SAMME_R;
    b->k = (size_t)k;
    b->n_attrs = na;
    int rc = tl_ens_trees_load(&b->trees, s, err);
    free(b->alpha);
    free(b->importances);
    b->alpha = malloc(b->trees.n * sizeof *b->alpha);
    b->importances = malloc((na ? na : 1) * sizeof *b->importances);
    if (!rc && (!b->alpha || !b->importances))
        rc = tl_err_set(err, TL_ENOMEM, "out of memory");
    if (!rc && (tl_store_doubles(s, "state.alpha", b->alpha, b->trees.n, err) ||
                tl_store_doubles(s, "state.importances", b->importances, na, err)))
        rc = TL_EPARSE;
    return rc;
}

static int boost_check_schema(const void *state, const tl_schema *schema, tl_err *err)
{
    const boost *b = state;
    int rc = tl_ens_check_shape(b->n_attrs, b->k, schema, err);
    return rc ? rc : tl_ens_trees_check(&b->trees, schema, err);
}

static int boost_show(const void *state, const tl_schema *schema, tl_show_format fmt, FILE *f,
                      tl_err *err)
{
    const boost *b = state;
    static const char *const names[] = {"SAMME.R", "SAMME", "AdaBoost.M1"};
    char line[96];
    snprintf(line, sizeof line, "adaboost (%s)", names[b->algorithm]);
    return tl_ens_trees_show(&b->trees, line, 3, schema, fmt, f, err);
}

static void boost_info(const void *state, tl_model_info *out)
{
    tl_ens_trees_info(&((const boost *)state)->trees, out);
}

static const tl_ensemble *boost_view(const void *state)
{
    boost *b = (boost *)state;
    b->view = (tl_ensemble){
        b->trees.n, (const tl_tree *const *)b->trees.t, NULL, NULL, 0, NAN, b->importances,
        b->n_attrs};
    return &b->view;
}

static const tl_model_type adaboost = {
    .name = "adaboost",
    .summary = "AdaBoost: SAMME, SAMME.R (scikit-learn) or AdaBoost.M1 (Weka) over stumps or any "
               "tree",
    .tasks = TL_TASK_CLASSIFICATION,
    .params = params,
    .alloc = boost_alloc,
    .free = boost_free,
    .fit = boost_fit,
    .predict = tl_ada_predict,
    .save = boost_save,
    .load = boost_load,
    .show = boost_show,
    .info = boost_info,
    .check = boost_check_schema,
    .check_params = boost_check,
    .ensemble = boost_view,
    .help = tl_ens_help,
    .stage_param = "n_estimators",
    .truncate = boost_truncate,
};

const tl_model_type *const tl_model_adaboost = &adaboost;
