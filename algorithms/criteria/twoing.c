/* Twoing (Breiman, Friedman, Olshen & Stone, Classification and Regression Trees, Wadsworth
 * 1984, sec. 4.2.2): a binary split into L and R is worth
 *     (p_L p_R / 4) (sum_j |p(j|L) - p(j|R)|)^2,
 * the Gini decrease of the best grouping of the classes into two superclasses. With two
 * classes it is half the Gini decrease, so it picks the same splits as gini.
 * Multiway splits (not in CART): the partition is worth the largest twoing value of the
 * binary splits "one branch against all the others" that it refines (for two branches,
 * the binary value). */
#include <math.h>

#include "treelab/tl_plugin.h"
#include "treelab/tl_class_sums.h"

/* Twoing of branch b against the union of the other branches. */
static double one_vs_rest(const double *parent, const double *children, size_t k, size_t b,
                          double n)
{
    const double *ch = children + b * k;
    double wl = tl_class_total(ch, k);
    double wr = n - wl;
    if (wl <= 0 || wr <= 0)
        return 0;
    double s = 0;
    for (size_t j = 0; j < k; j++)
        s += fabs(ch[j] / wl - (parent[j] - ch[j]) / wr);
    return (wl / n) * (wr / n) / 4 * s * s;
}

static double score(const void *state, const double *parent, const double *children,
                    size_t n_children, size_t k)
{
    (void)state;
    double n = tl_class_total(parent, k);
    if (n <= 0)
        return 0;
    double best = 0;
    /* with two branches both sides give the same value: compute it once */
    for (size_t b = 0; b < (n_children == 2 ? 1 : n_children); b++) {
        double t = one_vs_rest(parent, children, k, b, n);
        best = t > best ? t : best;
    }
    return best;
}

static const tl_criterion_type twoing = {
    .name = "twoing",
    .summary = "twoing (p_L p_R / 4)(sum |p(j|L) - p(j|R)|)^2; multiway: best one branch vs rest",
    .reference = "Breiman, Friedman, Olshen & Stone, Classification and Regression Trees "
                 "(1984), sec. 4.2.2",
    .tasks = TL_TASK_CLASSIFICATION,
    .score = score,
};

const tl_criterion_type *const tl_criterion_twoing = &twoing;
