/* Bagging's fit: each member's rows (bootstrap counts or a draw without replacement), its
 * attributes and its model, fitted in parallel with seeds from (fit seed, member index); the
 * members' combined predictions, the out-of-bag score and the impurity importances. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>

#include "bagging.h"
#include "treelab/tl_grow.h"

/* Free the model members past the first n. */
void bag_models_truncate(bag *b, size_t n)
{
    for (size_t i = n; b->models && i < b->trees.n; i++)
        tl_model_free(b->models[i]), b->models[i] = NULL;
}

/* One fit's shared inputs. */
typedef struct bag_fit {
    const bag *b;
    tl_ens_base base; /* with mtry resolved for this data */
    const tl_dataset *d;
    const size_t *rows;
    size_t n;
    unsigned long seed;
    tl_view_cache *cache; /* the members' sorted columns, shared (NULL: each sorts its own) */
    unsigned short *inbag;
    tl_tree **out;
    tl_model **models; /* the members, when they are not trees */
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
    tl_ens_member m = {.d = f->d,
                       .rows = f->rows,
                       .n = f->n,
                       .count = count,
                       .attrs = attrs,
                       .n_attrs = n_attrs,
                       .seed = (unsigned long)tl_ens_seed(f->seed, i, 1),
                       .view_cache = f->cache};
    if (f->models ? !(f->models[i] = tl_ens_fit_model(&f->base, &m, err))
                  : !(f->out[i] = tl_ens_fit_member(&f->base, &m, err)))
        rc = err && err->code ? err->code : TL_EINTERNAL;
done:
    free(count);
    free(pick);
    free(attrs);
    gsl_rng_free(rng);
    return rc;
}

/* predict_proba (or the mean value) of the members whose use[] is set (NULL: all) on rows. */
int bag_combine(const bag *b, const tl_dataset *d, const size_t *rows, size_t n,
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
        if (!(rc = b->models ? tl_model_predict(b->models[t], d, rows, n, tmp, err)
                             : tl_tree_predict(b->trees.t[t], d, rows, n, tmp, err)))
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
        rc = bag_combine(b, d, b->fit_rows, n, use, n, p, votes, err);
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
    b->importances = NULL;
    if (b->models) /* impurity importances are the trees' */
        return TL_OK;
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

int bag_fit_all(void *state, const tl_dataset *d, const size_t *rows, size_t n,
                const tl_fit_ctx *ctx, tl_err *err)
{
    bag *b = state;
    bag_models_truncate(b, 0);
    free(b->models);
    b->models = NULL;
    tl_ens_trees_clear(&b->trees);
    free(b->inbag);
    free(b->fit_rows);
    b->inbag = NULL;
    b->fit_rows = NULL;
    b->regression = !tl_dataset_is_classification(d);
    b->k = tl_dataset_n_classes(d);
    b->n_attrs = d->schema.n_attrs;
    b->oob_score = NAN;
    bag_fit f = {.b = b, .d = d, .rows = rows, .n = n, .seed = ctx->seed};
    int rc = tl_ens_resolve(&b->base, b->max_features, 0, d, &f.base, err);
    if (!rc)
        rc = tl_ens_trees_alloc(&b->trees, b->n_estimators, err);
    if (!rc && !b->base.type->tree &&
        !(f.models = b->models = calloc(b->n_estimators, sizeof *b->models)))
        rc = tl_err_set(err, TL_ENOMEM, "out of memory");
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
    /* trees on subsets of the rows sort each column once for all (a speed-up only: the
     * sorted orders are the same) */
    if (!rc && b->base.type->tree && !b->bootstrap_features &&
        !(f.cache = tl_view_cache_new_superset(rows, n, d->schema.n_attrs)))
        rc = tl_err_set(err, TL_ENOMEM, "out of memory");
    if (!rc)
        rc = tl_ens_parallel(b->n_estimators, tl_ens_jobs(b->jobs, ctx), fit_one, &f, err);
    if (!rc && b->oob)
        rc = oob_score(b, d, err);
    if (!rc)
        rc = importances(b, err);
    tl_params_clear(&f.base.params);
    tl_view_cache_free(f.cache);
    if (rc) {
        bag_models_truncate(b, 0);
        tl_ens_trees_clear(&b->trees);
    }
    return rc;
}

int bag_truncate(void *state, size_t n, const tl_dataset *d, tl_err *err)
{
    bag *b = state;
    if (n >= b->trees.n)
        return TL_OK;
    bag_models_truncate(b, n);
    tl_ens_trees_truncate(&b->trees, n);
    b->n_estimators = n; /* member i's draws sit at inbag[i * n_fit], whatever the count */
    if (b->inbag && !d)
        return tl_err_set(err, TL_EINVAL, "the out-of-bag score needs the data fitted on");
    if (!b->inbag) /* a loaded model keeps no draws: its score was of all the members */
        b->oob_score = NAN;
    int rc = b->inbag ? oob_score(b, d, err) : TL_OK;
    return rc ? rc : importances(b, err);
}
