/* The G statistic (log-likelihood ratio) of the branch x class contingency table, as a
 * selection measure: Mingers, "Expert systems - rule induction with statistical data", J.
 * Operational Research Society 38 (1987) 39-47, and "An empirical comparison of selection
 * measures for decision-tree induction", Machine Learning 3 (1989) 319-342:
 *     G = 2 sum_b sum_j O_bj ln(O_bj / E_bj),   E_bj = n_b n_j / N,
 * over the known rows, i.e. G = 2 N ln 2 x the information gain in bits: with no unknown
 * values it ranks the tests of one node as information gain does, but grows with the node's
 * weight. Larger is better. With unknown values N is the test's known weight and the grower
 * then weights by the known share as for gain, so a test with unknowns loses that share
 * twice (once more than under information gain).
 * Values below 1e-12 N (an information gain under 1e-12 nats a row) are rounding and count
 * as 0, so a test whose branches repeat the parent's class distribution is worth nothing. */
#include <math.h>

#include "treelab/tl_plugin.h"
#include "treelab/tl_class_sums.h"

static double score(const void *state, const double *parent, const double *children,
                    size_t n_children, size_t k)
{
    (void)state;
    double n = tl_class_total(parent, k);
    if (n <= 0)
        return 0;
    double g = 0;
    for (size_t b = 0; b < n_children; b++) {
        const double *ch = children + b * k;
        double nb = tl_class_total(ch, k);
        for (size_t j = 0; j < k; j++)
            if (ch[j] > 0) /* O / E = O N / (n_b n_j): exactly 1 on independent integer counts */
                g += ch[j] * log(ch[j] * n / (nb * parent[j]));
    }
    g *= 2;
    return g > 1e-12 * n ? g : 0;
}

static const tl_criterion_type g_statistic = {
    .name = "g_statistic",
    .summary = "G = 2 sum O ln(O/E) of the branch x class table (2 N ln 2 x information gain)",
    .reference = "Mingers, An empirical comparison of selection measures for decision-tree "
                 "induction, Machine Learning 3 (1989)",
    .tasks = TL_TASK_CLASSIFICATION,
    .score = score,
};

const tl_criterion_type *const tl_criterion_g_statistic = &g_statistic;
