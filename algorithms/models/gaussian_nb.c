/* Gaussian naive Bayes's plug-in: parameters (priors checked at config load), predict and
 * its type; the estimation is gaussian_nb_fit.c, the file gaussian_nb_store.c. */
#include "gaussian_nb_impl.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static const tl_param_spec gnb_params[] = {
    {"var_smoothing", TL_PARAM_DOUBLE, "1e-9", 0, 1, NULL,
     "share of the largest attribute variance added to every variance (scikit-learn's)"},
    {"priors", TL_PARAM_STRING, "", 0, 0, NULL,
     "class priors as a comma-separated list in class order (empty: from the training weights)"},
    {NULL, 0, NULL, 0, 0, NULL, NULL},
};

static void gnb_free(void *state)
{
    gnb *g = state;
    if (!g)
        return;
    tl_gnb_clear_fit(g);
    free(g->user_priors);
    free(g);
}

/* Parse "0.2,0.3,0.5": non-negative numbers summing to 1 (as scikit-learn demands). */
static int parse_priors(gnb *g, const char *text, tl_err *err)
{
    size_t n = 1;
    for (const char *s = text; *s; s++)
        n += *s == ',';
    if (!(g->user_priors = malloc(n * sizeof *g->user_priors)))
        return tl_err_set(err, TL_ENOMEM, "out of memory");
    const char *s = text;
    double sum = 0;
    for (size_t i = 0; i < n; i++) {
        char *end;
        errno = 0;
        double v = strtod(s, &end);
        while (*end == ' ')
            end++;
        if (end == s || errno || !isfinite(v) || v < 0 || (*end != ',' && *end != '\0'))
            return tl_err_set(err, TL_EINVAL,
                              "gaussian_nb: priors '%s': expected non-negative numbers "
                              "separated by commas",
                              text);
        g->user_priors[i] = v;
        sum += v;
        s = end + 1;
    }
    if (fabs(sum - 1.0) > 1e-6)
        return tl_err_set(err, TL_EINVAL, "gaussian_nb: priors '%s' sum to %g, not 1", text, sum);
    g->n_user_priors = n;
    return TL_OK;
}

/* The table's checks, and priors' form, at config load (not at the first cell). */
static int gnb_check_params(const tl_params *p, tl_err *err)
{
    int rc = tl_params_check(gnb_params, p, err);
    const char *pri = rc ? NULL : tl_params_find(p, "priors");
    if (!pri || !*pri)
        return rc;
    gnb g;
    memset(&g, 0, sizeof g);
    rc = parse_priors(&g, pri, err);
    free(g.user_priors);
    return rc;
}

/* As many priors as the data has classes, before any work. */
static int gnb_check_data(const tl_params *p, const tl_schema *schema, tl_err *err)
{
    const char *pri = tl_params_find(p, "priors");
    if (!pri || !*pri || schema->target.kind != TL_ATTR_NOMINAL)
        return TL_OK;
    size_t n = 1;
    for (const char *s = pri; *s; s++)
        n += *s == ',';
    if (n == schema->target.n_levels)
        return TL_OK;
    return tl_err_set(err, TL_EINVAL, "gaussian_nb: %zu priors given for %zu classes", n,
                      schema->target.n_levels);
}

static void *gnb_alloc(const tl_params *p, tl_err *err)
{
    gnb *g = calloc(1, sizeof *g);
    if (!g) {
        tl_err_set(err, TL_ENOMEM, "out of memory");
        return NULL;
    }
    tl_param_reader rd = tl_params_reader(gnb_params, p, err);
    g->var_smoothing = tl_params_double(&rd, "var_smoothing");
    const char *pri = tl_params_string(&rd, "priors");
    if (rd.rc) {
        gnb_free(g);
        return NULL;
    }
    if (pri && *pri && parse_priors(g, pri, err)) {
        gnb_free(g);
        return NULL;
    }
    return g;
}

/* Joint log-likelihood of row r for every class; missing cells are left out of the product. */
static int joint_log_lik(const gnb *g, const tl_dataset *d, size_t r, double *jll, tl_err *err)
{
    for (size_t c = 0; c < g->k; c++)
        jll[c] = g->log_prior[c];
    for (size_t j = 0; j < g->p; j++) {
        if (g->kind[j] == TL_ATTR_NUMERIC) {
            double x = d->cols[j].num[r];
            if (isnan(x))
                continue;
            for (size_t c = 0; c < g->k; c++) {
                double z = x - g->mean[c * g->p + j];
                jll[c] += g->log_norm[c * g->p + j] - 0.5 * z * z / g->var[c * g->p + j];
            }
        } else {
            int code = d->cols[j].code[r];
            if (code == TL_MISSING_CODE)
                continue;
            if (code < 0 || code >= g->n_levels[j])
                return tl_err_set(err, TL_EINVAL,
                                  "gaussian_nb: attribute %zu has level code %d,"
                                  " the model knows %d levels",
                                  j + 1, code, g->n_levels[j]);
            for (size_t c = 0; c < g->k; c++)
                jll[c] += g->log_level[c * g->n_lev_total + g->lev_off[j] + (size_t)code];
        }
    }
    return TL_OK;
}

static int check_layout(const gnb *g, const tl_dataset *d, tl_err *err)
{
    for (size_t j = 0; j < g->p; j++)
        if ((int)d->schema.attrs[j].kind != g->kind[j])
            return tl_err_set(err, TL_EINVAL,
                              "gaussian_nb: attribute '%s' is %s in the data but"
                              " was %s in training",
                              d->schema.attrs[j].name,
                              g->kind[j] == TL_ATTR_NUMERIC ? "nominal" : "numeric",
                              g->kind[j] == TL_ATTR_NUMERIC ? "numeric" : "nominal");
    return TL_OK;
}

static int gnb_predict(const void *state, const tl_dataset *d, const size_t *rows, size_t n,
                       double *out, tl_err *err)
{
    const gnb *g = state;
    int rc = check_layout(g, d, err);
    for (size_t i = 0; !rc && i < n; i++) {
        double *jll = out + i * g->k;
        if ((rc = joint_log_lik(g, d, rows[i], jll, err)))
            break;
        double top = -INFINITY;
        for (size_t c = 0; c < g->k; c++)
            if (jll[c] > top)
                top = jll[c];
        if (!isfinite(top)) { /* every class impossible: fall back to the priors */
            memcpy(jll, g->prior, g->k * sizeof *jll);
            continue;
        }
        /* log-sum-exp, written as scikit-learn's exp(jll - logsumexp(jll)) */
        double s = 0;
        for (size_t c = 0; c < g->k; c++)
            s += exp(jll[c] - top);
        double lse = top + log(s);
        for (size_t c = 0; c < g->k; c++)
            jll[c] = exp(jll[c] - lse);
    }
    return rc;
}

static const tl_model_type gnb_type = {
    .name = "gaussian_nb",
    .summary =
        "Gaussian naive Bayes (scikit-learn's GaussianNB; Laplace-smoothed nominal attributes)",
    .tasks = TL_TASK_CLASSIFICATION,
    .params = gnb_params,
    .alloc = gnb_alloc,
    .free = gnb_free,
    .fit = tl_gnb_fit,
    .predict = gnb_predict,
    .save = tl_gnb_save,
    .load = tl_gnb_load,
    .show = tl_gnb_show,
    .trace = NULL,
    .check = tl_gnb_check,
    .check_params = gnb_check_params,
    .check_data = gnb_check_data,
};

const tl_model_type *const tl_model_gaussian_nb = &gnb_type;
