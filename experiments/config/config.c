/* Experiment files (libconfig): top-level keys, reports, plots, the cell cap and baseline (the
 * datasets, models, protocol and compare blocks are read by the other config_*.c files). */
#include "config_util.h"
#include "treelab/tl_store.h"

#include <ctype.h>
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
        rc = tl_cfg_read_protocol(c, pr, &x->protocol);
    else
        x->protocol.kind = TL_PROTO_CV, x->protocol.folds = 10, x->protocol.repeats = 1,
        x->protocol.stratified = 1;
    if (rc || (rc = tl_cfg_check_dataset_files(c, ds, x)) || (rc = read_reports(c, root, x)) ||
        (rc = read_plots(c, root, x)) || (rc = tl_cfg_expand_missing(c, x)) ||
        (rc = check_cells(c, root, x)))
        return rc;
    const config_setting_t *cmp = config_setting_get_member(root, "compare");
    if (cmp && (rc = tl_cfg_read_compare(c, cmp, x)))
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
