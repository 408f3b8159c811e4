/* Experiment files (libconfig): top-level keys, datasets, protocol, reports and baseline. */
#include "config_util.h"
#include "treelab/tl_metrics.h"
#include "treelab/tl_store.h"

#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

const char *const tl_experiment_top_keys =
    "name|seed|datasets|models|grids|protocol|baseline|reports|plots|compare|max_cells";

/* The figures `plots = [...]` may ask for; each lands in results/NAME/plots/ as
 * STEM.dat + STEM.gp (+ .png and .svg when gnuplot is installed):
 *   accuracy             accuracy per fold, box plots per model grouped by dataset
 *                        (RMSE for regression datasets, in rmse.*)
 *   critical_difference  Demsar's diagram from the summary's Friedman / Nemenyi ranks
 *   confusion            heatmap of the summed confusion matrix per dataset and model
 *   learning_curve       accuracy mean +/- sd against the training fraction, per dataset
 *   grid                 per grid and dataset: one parameter as a curve (accuracy and mean
 *                        leaves against the value), two parameters as a heatmap with the
 *                        best cell outlined
 *   pruning              cost-complexity curve of every model that chose alpha by CV
 *   validation           hold-out protocols: validation and test accuracy against tree
 *                        size for models pruned with reduced_error or pre_validation
 *   boundary             decision regions (two numeric attributes) or the step function
 *                        (regression on one numeric attribute), whole-data models
 *   trees                tree pictures rendered from DOT by Graphviz's dot, when installed
 *   missing_rate         protocol.missing: accuracy mean +/- sd against the share of values
 *                        removed at random, per dataset
 *   size_accuracy        per dataset, each model at its mean leaves and mean accuracy
 *   roc                  per classification dataset, the ROC curve of every model from its
 *                        cells' score bins (two classes: the second class; more: micro-averaged
 *                        one-vs-rest)
 *   reliability          per classification dataset, the reliability (calibration) diagram
 *                        of every model from the same bins */
const char *const tl_experiment_plot_names =
    "accuracy|critical_difference|confusion|learning_curve|grid|pruning|validation|boundary|"
    "trees|missing_rate|size_accuracy|roc|reliability";
static const char *const plot_names = tl_experiment_plot_names;

void tl_experiment_free(tl_experiment *x)
{
    if (!x)
        return;
    tl_exp_datasets_free(x->datasets, x->n_datasets);
    for (size_t i = 0; x->models && i < x->n_models; i++) {
        tl_exp_model *m = &x->models[i];
        free(m->name);
        free(m->class_weight);
        tl_params_clear(&m->params);
        tl_exp_select_clear(&m->select);
    }
    free(x->models);
    free(x->protocol.fractions);
    free(x->protocol.column);
    free(x->protocol.missing_rates);
    tl_cfg_strv_free(x->plots, x->n_plots);
    for (size_t i = 0; x->grids && i < x->n_grids; i++)
        for (int j = 0; j < 2; j++) {
            free(x->grids[i].param[j]);
            tl_cfg_strv_free(x->grids[i].values[j], x->grids[i].n_values[j]);
        }
    free(x->grids);
    free(x->name);
    free(x->config_path);
    free(x);
}

/* An increasing array of shares at key: in (0, 1), or [0, 1) with zero_ok. */
static int read_shares(const tl_cfg_ctx *c, const config_setting_t *p, const char *key, int zero_ok,
                       double **out, size_t *n_out)
{
    const config_setting_t *f = config_setting_get_member(p, key);
    if (!f)
        return tl_cfg_fail(c, p, "missing required key '%s'", key);
    int t = config_setting_type(f);
    size_t n = (size_t)config_setting_length(f);
    if ((t != CONFIG_TYPE_ARRAY && t != CONFIG_TYPE_LIST) || n == 0)
        return tl_cfg_fail(c, f, "expected a non-empty array of %s [%s0.2, 0.4, ...]", key,
                           zero_ok ? "0.0, " : "");
    if (!(*out = calloc(n, sizeof **out)))
        return tl_err_set(c->err, TL_ENOMEM, "out of memory");
    *n_out = n;
    for (size_t i = 0; i < n; i++) {
        const config_setting_t *e = config_setting_get_elem(f, (unsigned)i);
        int et = config_setting_type(e);
        double v = et == CONFIG_TYPE_FLOAT ? config_setting_get_float(e) : -1;
        if (et != CONFIG_TYPE_FLOAT || !((zero_ok ? v >= 0 : v > 0) && v < 1) ||
            (i && v <= (*out)[i - 1]))
            return tl_cfg_fail(c, e,
                               "%s must be increasing numbers in %s0, 1) (write 0.0, "
                               "not 0)",
                               key, zero_ok ? "[" : "(");
        (*out)[i] = v;
    }
    return TL_OK;
}

static int read_fractions(const tl_cfg_ctx *c, const config_setting_t *p, tl_protocol *pr)
{
    return read_shares(c, p, "fractions", 0, &pr->fractions, &pr->n_fractions);
}

/* missing = { rates = [0.0, 0.1, 0.2, 0.4]; rows = "train"; }: values removed completely at
 * random (Ding & Simonoff 2010), from the training rows, the test rows or both. */
static int read_missing(const tl_cfg_ctx *c, const config_setting_t *p, tl_protocol *pr)
{
    const config_setting_t *m = config_setting_get_member(p, "missing");
    if (!m)
        return TL_OK;
    if (config_setting_type(m) != CONFIG_TYPE_GROUP)
        return tl_cfg_fail(c, m, "expected a group { rates = [0.0, 0.1]; rows = \"train\"; }");
    const char *rows = "train";
    int rc;
    if ((rc = tl_cfg_check_keys(c, m, "rates|rows")) ||
        (rc = read_shares(c, m, "rates", 1, &pr->missing_rates, &pr->n_missing_rates)) ||
        (rc = tl_cfg_string(c, m, "rows", 0, &rows)))
        return rc;
    /* each rate names its datasets NAME-miss%g (of the percent): two rates of one name would
     * write each other's files */
    for (size_t i = 1; i < pr->n_missing_rates; i++) {
        char a[64], b[64];
        snprintf(a, sizeof a, "%g", 100 * pr->missing_rates[i - 1]);
        snprintf(b, sizeof b, "%g", 100 * pr->missing_rates[i]);
        if (!strcmp(a, b))
            return tl_cfg_fail(
                c, config_setting_get_elem(config_setting_get_member(m, "rates"), (unsigned)i),
                "rates %.12g and %.12g both name their datasets NAME-miss%s; "
                "rates must differ within 6 significant digits of their percent",
                pr->missing_rates[i - 1], pr->missing_rates[i], a);
    }
    pr->missing_rows = !strcmp(rows, "train")  ? TL_MISSING_IN_TRAIN
                       : !strcmp(rows, "test") ? TL_MISSING_IN_TEST
                       : !strcmp(rows, "all")  ? TL_MISSING_IN_TRAIN | TL_MISSING_IN_TEST
                                               : 0;
    if (!pr->missing_rows)
        return tl_cfg_fail(c, config_setting_get_member(m, "rows"),
                           "unknown rows '%s'; "
                           "allowed: train, test, all",
                           rows);
    return TL_OK;
}

static int read_protocol(const tl_cfg_ctx *c, const config_setting_t *p, tl_protocol *pr)
{
    const char *kind = "cv";
    long folds = 10, repeats = 1;
    int rc;
    pr->stratified = 1;
    if (config_setting_type(p) != CONFIG_TYPE_GROUP)
        return tl_cfg_fail(c, p, "expected a group { kind = \"cv\"; ... }");
    if ((rc = tl_cfg_string(c, p, "kind", 0, &kind)))
        return rc;
    if (!strcmp(kind, "cv")) {
        pr->kind = TL_PROTO_CV;
        if ((rc = tl_cfg_check_keys(c, p, "kind|folds|repeats|stratified|missing")) ||
            (rc = tl_cfg_long(c, p, "folds", 0, 2, 1000, &folds)))
            return rc;
    } else if (!strcmp(kind, "holdout")) {
        pr->kind = TL_PROTO_HOLDOUT;
        pr->train = 0.6, pr->valid = 0.2, pr->test = 0.2;
        if ((rc = tl_cfg_check_keys(c, p,
                                    "kind|train|validation|test|repeats|stratified|"
                                    "missing")) ||
            (rc = tl_cfg_double(c, p, "train", 0, 0, 1, &pr->train)) ||
            (rc = tl_cfg_double(c, p, "validation", 0, 0, 1, &pr->valid)) ||
            (rc = tl_cfg_double(c, p, "test", 0, 0, 1, &pr->test)))
            return rc;
        if (fabs(pr->train + pr->valid + pr->test - 1) > 1e-9 || pr->train <= 0 || pr->test <= 0)
            return tl_cfg_fail(c, p,
                               "train + validation + test must be 1, with train and test "
                               "above 0 (got %g + %g + %g)",
                               pr->train, pr->valid, pr->test);
    } else if (!strcmp(kind, "learning_curve")) {
        pr->kind = TL_PROTO_LEARNING_CURVE;
        if ((rc = tl_cfg_check_keys(c, p, "kind|fractions|repeats|stratified")) ||
            (rc = read_fractions(c, p, pr)))
            return rc;
    } else if (!strcmp(kind, "folds") || !strcmp(kind, "split")) {
        /* the data's own rows: nothing to repeat, shuffle or stratify */
        const char *column = NULL;
        pr->kind = kind[0] == 'f' ? TL_PROTO_FOLDS : TL_PROTO_SPLIT;
        if ((rc = tl_cfg_check_keys(c, p, "kind|column")) ||
            (rc = tl_cfg_string(c, p, "column", 0, &column)))
            return rc;
        if (column && !(pr->column = tl_cfg_strdup(column)))
            return tl_err_set(c->err, TL_ENOMEM, "out of memory");
    } else {
        return tl_cfg_fail(c, config_setting_get_member(p, "kind"),
                           "unknown protocol '%s'; allowed: cv, holdout, learning_curve, folds, "
                           "split",
                           kind);
    }
    if ((rc = tl_cfg_long(c, p, "repeats", 0, 1, 1000, &repeats)) ||
        (rc = tl_cfg_bool(c, p, "stratified", &pr->stratified)) || (rc = read_missing(c, p, pr)))
        return rc;
    pr->folds = pr->kind == TL_PROTO_CV ? (size_t)folds : 1;
    pr->repeats = (size_t)repeats;
    return TL_OK;
}

static int read_reports(const tl_cfg_ctx *c, const config_setting_t *root, tl_experiment *x)
{
    char **v = NULL;
    size_t n = 0;
    int rc = tl_cfg_strings(c, root, "reports", &v, &n);
    if (rc)
        return rc;
    if (!v) {
        x->reports = TL_REPORT_ALL;
        return TL_OK;
    }
    static const char *const names[] = {"confusion", "trees", "trace"};
    x->reports = 0;
    for (size_t i = 0; i < n && !rc; i++) {
        size_t k = 0;
        while (k < 3 && strcmp(v[i], names[k]))
            k++;
        if (k == 3)
            rc = tl_cfg_fail(
                c, config_setting_get_elem(config_setting_get_member(root, "reports"), (unsigned)i),
                "unknown report '%s'; allowed: confusion, trees, trace (metrics, "
                "summary and manifest are always written)",
                v[i]);
        else
            x->reports |= 1u << k;
    }
    tl_cfg_strv_free(v, n);
    return rc;
}

static int read_plots(const tl_cfg_ctx *c, const config_setting_t *root, tl_experiment *x)
{
    int rc = tl_cfg_strings(c, root, "plots", &x->plots, &x->n_plots);
    for (size_t i = 0; !rc && i < x->n_plots; i++) {
        const char *p = plot_names;
        size_t len = strlen(x->plots[i]);
        int ok = 0;
        for (; *p; p += strcspn(p, "|") + (p[strcspn(p, "|")] ? 1 : 0))
            ok |= strcspn(p, "|") == len && !strncmp(p, x->plots[i], len);
        if (!ok)
            rc = tl_cfg_fail(
                c, config_setting_get_elem(config_setting_get_member(root, "plots"), (unsigned)i),
                "unknown plot '%s'; allowed: %s", x->plots[i], plot_names);
    }
    return rc;
}

int tl_experiment_wants_plot(const tl_experiment *x, const char *plot)
{
    for (size_t i = 0; i < x->n_plots; i++)
        if (!strcmp(x->plots[i], plot))
            return 1;
    return 0;
}

static int read_baseline(const tl_cfg_ctx *c, const config_setting_t *root, tl_experiment *x)
{
    const char *name = NULL;
    int rc = tl_cfg_string(c, root, "baseline", 0, &name);
    if (rc)
        return rc;
    for (size_t i = 0; i < x->n_models; i++) {
        if (name ? !strcmp(x->models[i].name, name)
                 : !strcmp(x->models[i].type->name, "gaussian_nb")) {
            x->baseline = i;
            return TL_OK;
        }
    }
    if (name)
        return tl_cfg_fail(c, config_setting_get_member(root, "baseline"),
                           "baseline '%s' is not the name of a model", name);
    x->baseline = 0; /* no naive Bayes model: the first model is the reference */
    return TL_OK;
}

/* The cells the config asks for (folds a data file gives count one: a lower bound) against
 * max_cells: a run of millions of cells would end out of memory after hours. */
static int check_cells(const tl_cfg_ctx *c, const config_setting_t *root, const tl_experiment *x)
{
    const config_setting_t *mc = config_setting_get_member(root, "max_cells");
    long long cap = TL_MAX_CELLS_DEFAULT;
    if (mc &&
        (config_setting_type(mc) != CONFIG_TYPE_INT || (cap = config_setting_get_int(mc)) < 1))
        return tl_cfg_fail(c, mc, "max_cells: expected an integer >= 1 (default %d)",
                           TL_MAX_CELLS_DEFAULT);
    const tl_protocol *p = &x->protocol;
    double per =
        (double)(p->repeats ? p->repeats : 1) * (double)(p->kind == TL_PROTO_CV ? p->folds
                                                         : p->kind == TL_PROTO_LEARNING_CURVE
                                                             ? (p->n_fractions ? p->n_fractions : 1)
                                                             : 1);
    double cells = (double)x->n_datasets * (double)x->n_models * per;
    if (cells > (double)cap)
        return tl_cfg_fail(c, mc ? mc : root,
                           "the experiment asks for %.0f cells (%zu datasets x %zu models x "
                           "%.0f fits each), more than max_cells = %lld; sweep fewer values, or "
                           "raise max_cells if the machine can hold them (treelab run --plan "
                           "estimates the time)",
                           cells, x->n_datasets, x->n_models, per, cap);
    return TL_OK;
}

/* compare.summary = ["f1_macro", "leaves"]: metric names (any task) or leaves and depth, joined
 * with commas into x->compare_summary. */
static int read_summary(const tl_cfg_ctx *c, const config_setting_t *s, tl_experiment *x)
{
    char **v = NULL;
    size_t n = 0, at = 0;
    int rc = tl_cfg_strings(c, s, "summary", &v, &n);
    const config_setting_t *m = config_setting_get_member(s, "summary");
    for (size_t i = 0; !rc && v && i < n; i++) {
        tl_err e;
        const tl_metric_def *def = NULL;
        if (strcmp(v[i], "leaves") && strcmp(v[i], "depth") && !(def = tl_metric_find(v[i], &e)))
            rc = tl_cfg_fail(c, m, "%s (or leaves, depth)", e.msg);
        const char *name = def ? def->name : v[i];
        size_t len = strlen(name);
        if (!rc && at + len + 2 > sizeof x->compare_summary)
            rc = tl_cfg_fail(c, m, "too many metrics (at most 255 characters of names)");
        if (!rc) {
            if (at)
                x->compare_summary[at++] = ',';
            memcpy(x->compare_summary + at, name, len + 1);
            at += len;
        }
    }
    if (v)
        tl_cfg_strv_free(v, n);
    return rc;
}

/* compare = { metric = "roc_auc_macro"; test = "wilcoxon"; pairs = "all"; }; */
static int read_compare(const tl_cfg_ctx *c, const config_setting_t *s, tl_experiment *x)
{
    const char *metric = NULL, *test = NULL, *pairs = NULL;
    int rc;
    if (config_setting_type(s) != CONFIG_TYPE_GROUP)
        return tl_cfg_fail(c, s,
                           "expected a group compare = { metric = ...; test = ...; pairs = ...; "
                           "summary = [...]; }");
    if ((rc = tl_cfg_check_keys(c, s, "metric|test|pairs|summary")) ||
        (rc = read_summary(c, s, x)) ||
        (rc = tl_cfg_string(c, s, "metric", 0, &metric)) ||
        (rc = tl_cfg_string(c, s, "test", 0, &test)) ||
        (rc = tl_cfg_string(c, s, "pairs", 0, &pairs)))
        return rc;
    tl_err e;
    if (metric && !tl_metric_find(metric, &e))
        return tl_cfg_fail(c, config_setting_get_member(s, "metric"), "compare: %s", e.msg);
    if (metric) /* the table's own name, for an alias such as macro_f1 */
        snprintf(x->compare_metric, sizeof x->compare_metric, "%s",
                 tl_metric_find(metric, &e)->name);
    if (test && strcmp(test, "corrected_t") && strcmp(test, "5x2cv_t") && strcmp(test, "5x2cv_f") &&
        strcmp(test, "wilcoxon"))
        return tl_cfg_fail(c, config_setting_get_member(s, "test"),
                           "compare: test \"%s\": expected corrected_t, 5x2cv_t, 5x2cv_f or "
                           "wilcoxon",
                           test);
    if (test && !strncmp(test, "5x2cv", 5) &&
        (x->protocol.kind != TL_PROTO_CV || x->protocol.folds != 2 || x->protocol.repeats != 5))
        return tl_cfg_fail(c, config_setting_get_member(s, "test"),
                           "compare: test \"%s\" needs 5 repeats of 2-fold CV: protocol = { "
                           "kind = \"cv\"; folds = 2; repeats = 5; }",
                           test);
    if (pairs && strcmp(pairs, "baseline") && strcmp(pairs, "all"))
        return tl_cfg_fail(c, config_setting_get_member(s, "pairs"),
                           "compare: pairs \"%s\": expected baseline or all", pairs);
    snprintf(x->compare_test, sizeof x->compare_test, "%s", test ? test : "");
    snprintf(x->compare_pairs, sizeof x->compare_pairs, "%s", pairs ? pairs : "");
    return TL_OK;
}

static int read_root(const tl_cfg_ctx *c, const config_setting_t *root, tl_experiment *x)
{
    const char *name = NULL;
    long seed = 1;
    int rc;
    if ((rc = tl_cfg_check_keys(c, root, tl_experiment_top_keys)) ||
        (rc = tl_cfg_string(c, root, "name", 1, &name)) ||
        (rc = tl_cfg_long(c, root, "seed", 0, 0, 4294967295L, &seed)))
        return rc;
    size_t len = strlen(name);
    if (!name[0] || strchr(name, '/') || !strcmp(name, ".") || !strcmp(name, ".."))
        return tl_cfg_fail(c, config_setting_get_member(root, "name"),
                           "'%s' cannot name a results folder", name);
    if (isspace((unsigned char)name[0]) || isspace((unsigned char)name[len - 1]))
        return tl_cfg_fail(c, config_setting_get_member(root, "name"),
                           "'%s' cannot name a results folder: it starts or ends with a space",
                           name);
    if (!(x->name = tl_cfg_strdup(name)))
        return tl_err_set(c->err, TL_ENOMEM, "out of memory");
    x->seed = (unsigned long)seed;
    const config_setting_t *ds = config_setting_get_member(root, "datasets");
    const config_setting_t *ms = config_setting_get_member(root, "models");
    const config_setting_t *pr = config_setting_get_member(root, "protocol");
    if (!ds)
        return tl_cfg_fail(c, root, "missing required key 'datasets'");
    if (!ms)
        return tl_cfg_fail(c, root, "missing required key 'models'");
    if ((rc = tl_cfg_read_datasets(c, ds, x)) ||
        (rc = tl_cfg_read_models(c, ms, config_setting_get_member(root, "grids"), x)))
        return rc;
    if (pr)
        rc = read_protocol(c, pr, &x->protocol);
    else
        x->protocol.kind = TL_PROTO_CV, x->protocol.folds = 10, x->protocol.repeats = 1,
        x->protocol.stratified = 1;
    if (rc || (rc = tl_cfg_check_dataset_files(c, ds, x)) || (rc = read_reports(c, root, x)) ||
        (rc = read_plots(c, root, x)) || (rc = tl_cfg_expand_missing(c, x)) ||
        (rc = check_cells(c, root, x)))
        return rc;
    const config_setting_t *cmp = config_setting_get_member(root, "compare");
    if (cmp && (rc = read_compare(c, cmp, x)))
        return rc;
    return read_baseline(c, root, x);
}

tl_experiment *tl_experiment_load(const char *path, const tl_model_type *const *extra, tl_err *err)
{
    config_t cfg;
    config_init(&cfg);
    tl_experiment *x = calloc(1, sizeof *x);
    if (!x || !(x->config_path = tl_cfg_strdup(path))) {
        tl_err_set(err, TL_ENOMEM, "out of memory");
        goto fail;
    }
    if (tl_store_parse(&cfg, path, "the experiment file", err))
        goto fail;
    tl_cfg_ctx c = {path, extra, err};
    if (read_root(&c, config_root_setting(&cfg), x))
        goto fail;
    config_destroy(&cfg);
    return x;
fail:
    config_destroy(&cfg);
    tl_experiment_free(x);
    return NULL;
}
