/* The `protocol` block of an experiment file: CV, hold-out, splits, learning curves and
 * missing-value rates. */
#include "config_util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

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

int tl_cfg_read_protocol(const tl_cfg_ctx *c, const config_setting_t *p, tl_protocol *pr)
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
