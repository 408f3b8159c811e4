/* Chi-square pre-pruning (Quinlan, "Induction of decision trees", Machine Learning 1, 1986,
 * sec. 5, after Hart 1985): while growing, a node is split only when the chosen test is
 * statistically relevant, i.e. when the chi-square test of independence of its branch x class
 * table (the node's training rows, an unknown value shared among the branches as the grower
 * will) rejects independence at level alpha. The p-value is GSL's gsl_cdf_chisq_Q with
 * (branches - 1)(classes - 1) degrees of freedom over the non-empty rows and columns; a table
 * with fewer than two of either is never significant. No validation rows are needed. */
#include <math.h>
#include <stdlib.h>

#include "treelab/tl_grow.h"

static const tl_param_spec params[] = {
    {"alpha", TL_PARAM_DOUBLE, "0.05", 0, 1, NULL,
     "significance level: a split is made only when its chi-square p-value is at most alpha"},
    {NULL, 0, NULL, 0, 0, NULL, NULL},
};

static void *init(const tl_params *p, tl_err *err)
{
    tl_param_reader rd = tl_params_reader(params, p, err);
    double a = tl_params_double(&rd, "alpha");
    if (rd.rc)
        return NULL;
    double *s = malloc(sizeof *s);
    if (!s)
        tl_err_set(err, TL_ENOMEM, "out of memory");
    else
        *s = a;
    return s;
}

static int accept(void *user, const tl_grow_ctx *g, const tl_tree *t, size_t node,
                  const tl_node_rows *rows, const tl_split *s, tl_err *err)
{
    (void)node;
    double alpha = *(const double *)((const tl_prune_hook *)user)->state;
    size_t k = t->k, nb = s->n_branches;
    if (t->regression)
        return -tl_err_set(err, TL_EINVAL, "chi-square pre-pruning needs a class target");
    double *bs = malloc((nb * k + nb + 2 * k) * sizeof *bs);
    if (!bs)
        return -tl_err_set(err, TL_ENOMEM, "out of memory");
    double *share = bs + nb * k, *miss = share + nb, *col = miss + k;
    tl_split_class_table(tl_grow_data(g), rows, s, k, bs, share, miss);
    double p = tl_chisq_table_p(bs, nb, k, col);
    free(bs);
    return p <= alpha;
}

static int prune(const void *state, tl_tree *t, const tl_prune_input *in, tl_prune_trace *trace,
                 tl_err *err)
{
    (void)in;
    /* all the work happened while growing: record the tree kept */
    trace->param_name = "alpha";
    int rc = tl_prune_trace_add(trace, *(const double *)state, (double)tl_tree_leaves(t, 0), NAN,
                                NAN, NAN, err);
    trace->chosen = trace->n ? trace->n - 1 : SIZE_MAX;
    trace->chosen_param = *(const double *)state;
    return rc;
}

static const tl_pruner_type chi_square = {
    .name = "chi_square",
    .summary = "while growing, split only if the test's branch x class chi-square is "
               "significant at alpha (ID3)",
    .reference = "Quinlan, Induction of decision trees, Machine Learning 1 (1986)",
    .params = params,
    .init = init,
    .free = free,
    .needs = TL_NEEDS_CLASSES,
    .prune = prune,
    .accept = accept,
};
const tl_pruner_type *const tl_pruner_chi_square = &chi_square;
