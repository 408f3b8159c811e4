/* Pearson's chi-square statistic of the branch x class contingency table (Pearson 1900), as
 * a selection measure compared by Mingers, "An empirical comparison of selection measures
 * for decision-tree induction", Machine Learning 3 (1989) 319-342:
 *     X^2 = sum_b sum_j (O_bj - E_bj)^2 / E_bj,   E_bj = n_b n_j / N,
 * over the known rows; a larger statistic is a better split. It is the statistic itself,
 * not its p-value: not corrected for the degrees of freedom, so it favours tests with many
 * branches, and it grows with the node's weight (so does min_impurity_decrease's scale).
 * With unknown values N is the test's known weight, and the grower then weights by the known
 * share as for gain: a test with unknowns loses that share about twice.
 * Empty branches and absent classes add nothing (E = 0). */
#include "treelab/tl_plugin.h"
#include "treelab/tl_class_sums.h"

static double score(const void *state, const double *parent, const double *children,
                    size_t n_children, size_t k)
{
    (void)state;
    double n = tl_class_total(parent, k);
    if (n <= 0)
        return 0;
    double x2 = 0;
    for (size_t b = 0; b < n_children; b++) {
        const double *ch = children + b * k;
        double nb = tl_class_total(ch, k);
        if (nb <= 0)
            continue;
        for (size_t j = 0; j < k; j++) {
            if (parent[j] <= 0)
                continue;
            /* N E and N (O - E): exact for integer weights, so independence scores 0 */
            double ne = nb * parent[j], d = ch[j] * n - ne;
            x2 += d * d / (ne * n);
        }
    }
    return x2;
}

static const tl_criterion_type chi_square = {
    .name = "chi_square",
    .summary = "Pearson's chi-square statistic of the branch x class table (larger is better)",
    .reference = "Mingers, An empirical comparison of selection measures for decision-tree "
                 "induction, Machine Learning 3 (1989)",
    .tasks = TL_TASK_CLASSIFICATION,
    .score = score,
};

const tl_criterion_type *const tl_criterion_chi_square = &chi_square;
