/* Critical value pruning (CVP; Mingers, "Expert systems - rule induction with statistical
 * data", J. Operational Research Society 38, 1987; compared in Mingers, "An empirical
 * comparison of pruning methods for decision tree induction", Machine Learning 4, 1989):
 * bottom-up, each split's measure of goodness is compared with a critical value; a node whose
 * measure does not reach it becomes a leaf, unless its subtree holds a node that reaches it
 * (such a node and every ancestor of it are kept). The measure is computed from the tree's
 * node statistics, the node's class weights against its children's: the information gain of
 * the split in bits (the default), the Gini decrease, or the p-value of the chi-square test of
 * independence of the branch x class table (a node then passes when the p-value is at most
 * the critical value, i.e. the split is significant at that level). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "treelab/tl_prune.h"

static const tl_param_spec params[] = {
    {"threshold", TL_PARAM_DOUBLE, "0.05", 0, 1e6, NULL,
     "the critical value: gain, gini: a split passes when its measure reaches it; chi_square: "
     "when its p-value is at most it"},
    {"measure", TL_PARAM_CHOICE, "gain", 0, 0, "gain|gini|chi_square",
     "gain: information gain in bits; gini: Gini decrease; chi_square: p-value of the branch x "
     "class chi-square test"},
    {NULL, 0, NULL, 0, 0, NULL, NULL},
};

enum { MEASURE_GAIN, MEASURE_GINI, MEASURE_CHI };

typedef struct options {
    double threshold;
    int measure;
} options;

static void *init(const tl_params *p, tl_err *err)
{
    options o;
    tl_param_reader rd = tl_params_reader(params, p, err);
    o.threshold = tl_params_double(&rd, "threshold");
    const char *m = tl_params_string(&rd, "measure");
    o.measure = !strcmp(m, "gini")         ? MEASURE_GINI
                : !strcmp(m, "chi_square") ? MEASURE_CHI
                                           : MEASURE_GAIN;
    if (rd.rc)
        return NULL;
    options *s = malloc(sizeof *s);
    if (!s)
        tl_err_set(err, TL_ENOMEM, "out of memory");
    else
        *s = o;
    return s;
}

/* Impurity of k class weights: entropy in bits or Gini; *w gets their sum. */
static double impurity(const double *s, size_t k, int gini, double *w)
{
    double n = 0, h = gini ? 1 : 0;
    for (size_t c = 0; c < k; c++)
        n += s[c];
    *w = n;
    if (n <= 0)
        return 0;
    for (size_t c = 0; c < k; c++) {
        double p = s[c] / n;
        if (gini)
            h -= p * p;
        else if (p > 0)
            h -= p * log2(p);
    }
    return h;
}

/* p-value of the chi-square test on the children's class weights (rows: children, columns:
 * classes); 1 when it cannot be computed. */
static double chi_square_p(const tl_tree *t, size_t node)
{
    double col[256];
    if (t->k > 256)
        return 1;
    return tl_chisq_table_p(t->stats + t->first_child[node] * t->k, t->n_children[node], t->k, col);
}

/* The split's measure at node: gain in bits, Gini decrease, or the chi-square p-value. */
static double measure(int which, const tl_tree *t, size_t node)
{
    if (which == MEASURE_CHI)
        return chi_square_p(t, node);
    int gini = which == MEASURE_GINI;
    double w, wc, sum_w = 0, after = 0;
    double before = impurity(t->stats + node * t->k, t->k, gini, &w);
    for (size_t c = 0; c < t->n_children[node]; c++) {
        double h = impurity(t->stats + (t->first_child[node] + c) * t->k, t->k, gini, &wc);
        after += wc * h;
        sum_w += wc;
    }
    return sum_w > 0 ? before - after / sum_w : 0;
}

static int prune(const void *state, tl_tree *t, const tl_prune_input *in, tl_prune_trace *trace,
                 tl_err *err)
{
    (void)in;
    const options *o = state;
    size_t nn = t->n_nodes;
    unsigned char *keep = calloc(nn ? nn : 1, 1);
    if (!keep)
        return tl_err_set(err, TL_ENOMEM, "out of memory");
    double before = (double)tl_tree_leaves(t, 0);
    /* children come after their parent: from the last node back is bottom-up, so a node's
     * children are decided before it */
    for (size_t i = nn; i-- > 0;) {
        if (t->attr[i] < 0)
            continue;
        double m = measure(o->measure, t, i);
        int pass = o->measure == MEASURE_CHI ? m <= o->threshold : m >= o->threshold;
        for (size_t c = 0; !pass && c < t->n_children[i]; c++)
            pass = keep[t->first_child[i] + c];
        keep[i] = (unsigned char)pass;
        if (!pass)
            tl_tree_make_leaf(t, i);
    }
    free(keep);
    int rc = tl_tree_compact(t, err);
    return rc ? rc : tl_prune_trace_two(trace, "threshold", o->threshold, before, t, err);
}

static const tl_pruner_type critical_value = {
    .name = "critical_value",
    .summary = "bottom-up, prune splits whose measure (gain, Gini or chi-square p) misses the "
               "critical value, unless a split below passes (CVP)",
    .reference = "Mingers, J. Operational Research Society 38 (1987); Mingers, Machine "
                 "Learning 4 (1989)",
    .params = params,
    .init = init,
    .free = free,
    .needs = TL_NEEDS_CLASSES,
    .prune = prune,
};
const tl_pruner_type *const tl_pruner_critical_value = &critical_value;
