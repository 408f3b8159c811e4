/* The `compare` block of an experiment file: the metric, test and pairs the summary compares
 * by, and the metrics its tables show. */
#include "config_util.h"
#include "treelab/tl_metrics.h"

#include <stdlib.h>
#include <string.h>

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
int tl_cfg_read_compare(const tl_cfg_ctx *c, const config_setting_t *s, tl_experiment *x)
{
    const char *metric = NULL, *test = NULL, *pairs = NULL;
    int rc;
    if (config_setting_type(s) != CONFIG_TYPE_GROUP)
        return tl_cfg_fail(c, s,
                           "expected a group compare = { metric = ...; test = ...; pairs = ...; "
                           "summary = [...]; }");
    if ((rc = tl_cfg_check_keys(c, s, "metric|test|pairs|summary")) ||
        (rc = read_summary(c, s, x)) || (rc = tl_cfg_string(c, s, "metric", 0, &metric)) ||
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
