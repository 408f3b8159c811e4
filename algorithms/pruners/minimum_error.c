/* Minimum-error pruning: bottom-up, a subtree becomes a leaf when the leaf's expected error
 * is no more than the weighted expected errors of its branches (the "dynamic" error). The
 * expected error of a node is Niblett & Bratko's Laplace estimate (n - n_c + k - 1) / (n + k)
 * (Bratko's group, Expert Systems 86, 1986), or Cestnik & Bratko's m-estimate
 * 1 - max_c (n_c + m p_c) / (n + m) with p_c the class shares of the training rows (EWSL
 * 1991). As compared by Mingers (1989) and Esposito, Malerba & Semeraro (1997). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "treelab/tl_prune.h"

static const tl_param_spec params[] = {
    {"estimate", TL_PARAM_CHOICE, "laplace", 0, 0, "laplace|m",
     "laplace: Niblett & Bratko (1986); m: Cestnik & Bratko's m-estimate (1991)"},
    {"m", TL_PARAM_DOUBLE, "2", 0, 1e6, NULL, "estimate = m: weight of the prior class shares"},
    {NULL, 0, NULL, 0, 0, NULL, NULL},
};

typedef struct options {
    int m_estimate;
    double m;
} options;

static void *init(const tl_params *p, tl_err *err)
{
    options *o = malloc(sizeof *o);
    if (!o) {
        tl_err_set(err, TL_ENOMEM, "out of memory");
        return NULL;
    }
    tl_param_reader rd = tl_params_reader(params, p, err);
    o->m_estimate = !strcmp(tl_params_string(&rd, "estimate"), "m");
    o->m = tl_params_double(&rd, "m");
    if (rd.rc) {
        free(o);
        return NULL;
    }
    return o;
}

/* Expected error rate of node as a leaf; prior: the root's class shares. */
static double expected_error(const options *o, const tl_tree *t, size_t node, const double *prior)
{
    const double *s = t->stats + node * t->k;
    double n = 0, best = -INFINITY;
    for (size_t c = 0; c < t->k; c++)
        n += s[c];
    if (!o->m_estimate) {
        for (size_t c = 0; c < t->k; c++)
            best = s[c] > best ? s[c] : best;
        return (n - best + (double)t->k - 1) / (n + (double)t->k);
    }
    if (n + o->m <= 0)
        return 1 - 1.0 / (double)t->k;
    for (size_t c = 0; c < t->k; c++) {
        double p = (s[c] + o->m * prior[c]) / (n + o->m);
        best = p > best ? p : best;
    }
    return 1 - best;
}

static int prune(const void *state, tl_tree *t, const tl_prune_input *in, tl_prune_trace *trace,
                 tl_err *err)
{
    (void)in;
    const options *o = state;
    size_t nn = t->n_nodes, k = t->k;
    double *backed = malloc(nn * sizeof *backed), *prior = malloc(k * sizeof *prior);
    if (!backed || !prior) {
        free(backed);
        free(prior);
        return tl_err_set(err, TL_ENOMEM, "out of memory");
    }
    double root_w = tl_tree_node_weight(t, 0), before = (double)tl_tree_leaves(t, 0);
    for (size_t c = 0; c < k; c++)
        prior[c] = root_w > 0 ? t->stats[c] / root_w : 1.0 / (double)k;
    /* children come after their parent in the arrays: from the last node back is bottom-up */
    for (size_t i = nn; i-- > 0;) {
        double leaf = expected_error(o, t, i, prior);
        backed[i] = leaf;
        if (t->attr[i] < 0)
            continue;
        double w = 0, dynamic = 0;
        for (size_t c = 0; c < t->n_children[i]; c++)
            w += tl_tree_node_weight(t, t->first_child[i] + c);
        for (size_t c = 0; c < t->n_children[i] && w > 0; c++) {
            size_t ch = t->first_child[i] + c;
            dynamic += tl_tree_node_weight(t, ch) / w * backed[ch];
        }
        if (leaf <= dynamic + 1e-12)
            tl_tree_make_leaf(t, i);
        else
            backed[i] = dynamic;
    }
    free(backed);
    free(prior);
    int rc = tl_tree_compact(t, err);
    if (rc)
        return rc;
    return o->m_estimate ? tl_prune_trace_two(trace, "m", o->m, before, t, err)
                         : tl_prune_trace_two(trace, "step", 1, before, t, err);
}

static const tl_pruner_type minimum_error = {
    .name = "minimum_error",
    .summary = "bottom-up, prune where the leaf's expected error (Laplace or m-estimate) is no "
               "more than its branches'",
    .reference = "Niblett & Bratko (1986); Cestnik & Bratko, EWSL (1991)",
    .params = params,
    .init = init,
    .free = free,
    .needs = TL_NEEDS_CLASSES,
    .prune = prune,
};
const tl_pruner_type *const tl_pruner_minimum_error = &minimum_error;
