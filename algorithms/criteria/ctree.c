/* Conditional inference (Hothorn, Hornik & Zeileis 2006; R's partykit ctree): the attribute
 * is selected by the asymptotic permutation test of independence of Strasser & Weber (1999)
 * between it and the target (class indicators, or the numeric value), Bonferroni-adjusted over the attributes tested; a node with no
 * adjusted p-value below 1 - mincriterion stays a leaf. As a partition criterion it scores a
 * split by the standardised two-sample statistic (splitstat), which the max_stat splitter
 * maximises over partykit's cut points. */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ctree_stat.h"
#include "treelab/tl_grow.h"

typedef struct ctree_state {
    tlc_teststat teststat, splitstat;
    int bonferroni;
    double log_mincriterion;
    size_t splittry;
} ctree_state;

static const tl_param_spec params[] = {
    {"teststat", TL_PARAM_CHOICE, "quadratic", 0, 0, "quadratic|maximum",
     "statistic of the variable-selection test"},
    {"splitstat", TL_PARAM_CHOICE, "quadratic", 0, 0, "quadratic|maximum",
     "standardised two-sample statistic maximised over the cut points"},
    {"testtype", TL_PARAM_CHOICE, "Bonferroni", 0, 0, "Bonferroni|Univariate",
     "p-values adjusted over the attributes tested (1 - (1 - p)^m), or not"},
    {"mincriterion", TL_PARAM_DOUBLE, "0.95", 0, 1, NULL,
     "a node splits when some 1 - p-value exceeds this"},
    {"splittry", TL_PARAM_INT, "2", 1, 1e6, NULL,
     "significant attributes tried, best first, until one has an admissible split"},
    {NULL, 0, NULL, 0, 0, NULL, NULL},
};

static void *init(const tl_params *p, tl_err *err)
{
    ctree_state *s = calloc(1, sizeof *s);
    if (!s) {
        tl_err_set(err, TL_ENOMEM, "out of memory");
        return NULL;
    }
    tl_param_reader rd = tl_params_reader(params, p, err);
    s->teststat =
        strcmp(tl_params_string(&rd, "teststat"), "maximum") ? TLC_QUADRATIC : TLC_MAXIMUM;
    s->splitstat =
        strcmp(tl_params_string(&rd, "splitstat"), "maximum") ? TLC_QUADRATIC : TLC_MAXIMUM;
    s->bonferroni = !strcmp(tl_params_string(&rd, "testtype"), "Bonferroni");
    s->log_mincriterion = log(tl_params_double(&rd, "mincriterion"));
    s->splittry = (size_t)tl_params_int(&rd, "splittry");
    if (rd.rc) {
        free(s);
        return NULL;
    }
    return s;
}

static void state_free(void *p)
{
    free(p);
}

/* A binary partition's standardised two-sample statistic; for more branches the table test's
 * statistic (both are partykit's for two branches). Classes here, a numeric target below. */
static double score(const void *state, const double *parent, const double *children,
                    size_t n_children, size_t k)
{
    const ctree_state *s = state;
    if (n_children == 2)
        return tlc_two_sample(children, parent, k, s->splitstat);
    double col[TL_SUBSET_MAX_LEVELS];
    if (k > TL_SUBSET_MAX_LEVELS)
        return 0;
    tlc_test t = tlc_table_test(children, n_children, k, s->splitstat, col);
    return t.ok ? t.stat : 0;
}

/* The test of attribute a on the node's rows whose value of a is known. */
/* The response's sum of squares about mean over the node's rows whose attribute value is
 * known (x: a numeric attribute's column, else code: a nominal one's), in a pass of its own
 * as libcoin's covariance of the influence: sum w y^2 - (sum w y)^2 / n loses the digits that
 * a target of small spread about a large mean (glass's RI) has. */
static double ss_about_mean(const tl_node_rows *node, const double *y, const double *x,
                            const int *code, double mean)
{
    double ss = 0;
    for (size_t i = 0; i < node->n; i++) {
        uint32_t r = node->rows[i];
        if (x ? !isnan(x[r]) : code[r] != TL_MISSING_CODE)
            ss += node->w[r] * (y[r] - mean) * (y[r] - mean);
    }
    return ss;
}

static int attr_test(const ctree_state *s, const tl_grow_ctx *g, const tl_node_rows *node, size_t a,
                     double *work, tlc_test *out, tl_err *err)
{
    const tl_dataset *d = tl_grow_data(g);
    size_t k = tl_grow_k(g);
    int classes = tl_dataset_is_classification(d);
    if (d->schema.attrs[a].kind == TL_ATTR_NOMINAL) {
        size_t levels = d->schema.attrs[a].n_levels;
        tl_grow_level_stats(g, node, a, work);
        if (classes)
            *out = tlc_table_test(work, levels, k, s->teststat, work + levels * k);
        else {
            double n = 0, sy = 0;
            for (size_t b = 0; b < levels; b++)
                n += work[3 * b], sy += work[3 * b + 1];
            double ss = ss_about_mean(node, d->y.num, NULL, d->cols[a].code, n > 0 ? sy / n : 0);
            *out = tlc_reg_table_test(work, levels, ss, s->teststat);
        }
    } else if (classes) {
        const double *x = d->cols[a].num;
        const int *y = d->y.code;
        double n = 0, sx = 0, sxx = 0, *cls = work, *csx = work + k;
        memset(work, 0, 2 * k * sizeof *work);
        for (size_t i = 0; i < node->n; i++) {
            uint32_t r = node->rows[i];
            double v = x[r], w = node->w[r];
            if (isnan(v))
                continue;
            n += w;
            sx += w * v;
            sxx += w * v * v;
            cls[y[r]] += w;
            csx[y[r]] += w * v;
        }
        *out = tlc_numeric_test(n, sx, sxx, cls, csx, k, s->teststat);
    } else {
        const double *x = d->cols[a].num, *y = d->y.num;
        double n = 0, sx = 0, sxx = 0, sy = 0, syy = 0, sxy = 0;
        for (size_t i = 0; i < node->n; i++) {
            uint32_t r = node->rows[i];
            double v = x[r], w = node->w[r];
            if (isnan(v))
                continue;
            n += w;
            sx += w * v;
            sxx += w * v * v;
            sy += w * y[r];
            sxy += w * v * y[r];
        }
        syy = ss_about_mean(node, y, x, NULL, n > 0 ? sy / n : 0);
        *out = tlc_reg_numeric_test(n, sx, sxx, sy, syy, sxy, s->teststat);
    }
    if (out->ok && isnan(out->log1mp))
        return tl_err_set(err, TL_ENOMEM, "out of memory testing attribute '%s'",
                          d->schema.attrs[a].name);
    return TL_OK;
}

/* partykit's .extree_node: crit = m log(1 - p) (Bonferroni: the adjusted p is
 * 1 - (1 - p)^m over the m attributes whose test is defined), maximised; ties within
 * sqrt(DBL_MIN) (p-values that underflow) go to the larger statistic, then to the attribute
 * later in file order (partykit splits on rev(order(crit))[1]). */
static int select_attrs(const void *state, const tl_grow_ctx *g, const tl_node_rows *node,
                        size_t *attrs, double *p_value, tl_err *err)
{
    const ctree_state *s = state;
    const tl_dataset *d = tl_grow_data(g);
    size_t n_attrs = d->schema.n_attrs, k = tl_grow_k(g), most = 1;
    *p_value = NAN;
    for (size_t a = 0; a < n_attrs; a++)
        if (d->schema.attrs[a].kind == TL_ATTR_NOMINAL && d->schema.attrs[a].n_levels > most)
            most = d->schema.attrs[a].n_levels;
    double *work = malloc((most * k + 2 * k + 2) * sizeof *work);
    tlc_test *t = malloc((n_attrs ? n_attrs : 1) * sizeof *t);
    int rc = work && t ? TL_OK : tl_err_set(err, TL_ENOMEM, "out of memory");
    double m = 0;
    for (size_t a = 0; a < n_attrs && !rc; a++) {
        rc = attr_test(s, g, node, a, work, &t[a], err);
        m += t[a].ok;
    }
    size_t n = 0;
    for (size_t a = 0; a < n_attrs && !rc; a++)
        if (t[a].ok) {
            t[a].log1mp *= s->bonferroni ? m : 1; /* now the criterion */
            attrs[n++] = a;
        }
    /* best first: insertion sort by (criterion, statistic), stable on file order */
    for (size_t i = 1; i < n; i++) {
        size_t a = attrs[i], j = i;
        for (; j > 0; j--) {
            const tlc_test *u = &t[attrs[j - 1]], *v = &t[a];
            int tie = fabs(u->log1mp - v->log1mp) < sqrt(DBL_MIN);
            if (tie ? v->stat < u->stat : !(v->log1mp > u->log1mp))
                break;
            attrs[j] = attrs[j - 1];
        }
        attrs[j] = a;
    }
    if (n)
        *p_value = -expm1(t[attrs[0]].log1mp);
    size_t keep = 0;
    while (keep < n && keep < s->splittry && t[attrs[keep]].log1mp > s->log_mincriterion)
        keep++;
    free(work);
    free(t);
    return rc ? -rc : (int)keep;
}

static double score_numeric(const void *state, const double *parent, const double *children,
                            size_t n_children, size_t k)
{
    (void)k;
    const ctree_state *s = state;
    if (n_children == 2)
        return tlc_reg_two_sample(children, parent, s->splitstat);
    tlc_test t = tlc_reg_table_test(children, n_children, tlc_reg_levels_ss(children, n_children),
                                    s->splitstat);
    return t.ok ? t.stat : 0;
}

static const tl_criterion_type ctree = {
    .name = "ctree",
    .summary = "conditional inference: attribute by a permutation test (Bonferroni), splits by "
               "the standardised two-sample statistic, stop when nothing is significant",
    .reference = "Hothorn, Hornik & Zeileis, Unbiased recursive partitioning, JCGS 15 (2006); "
                 "Strasser & Weber (1999)",
    .params = params,
    .init = init,
    .free = state_free,
    .tasks = TL_TASK_CLASSIFICATION | TL_TASK_REGRESSION,
    .score = score,
    .score_numeric = score_numeric,
    .select = select_attrs,
};

const tl_criterion_type *const tl_criterion_ctree = &ctree;
