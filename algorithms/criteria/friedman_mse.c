/* Friedman's improvement for regression (Friedman, "Greedy function approximation: a gradient
 * boosting machine", Ann. Statist. 29(5), 2001, eq. 35), as scikit-learn's FriedmanMSE: a
 * binary split is worth w_l w_r (mean_l - mean_r)^2 / (w_l + w_r); the node impurity stays
 * the squared error around the mean (stopping, leaf values and pruning are mse's).
 *
 * The sweep maximises scikit-learn's proxy diff^2 / (w_l w_r), diff = w_r S_l - w_l S_r
 * (S: sums of the targets), computed the same way so equal cuts resolve as there. The score
 * divides it by W^2 (W = w_l + w_r): the impurity decrease per unit of the node's weight,
 * which the grower weights by W / W_root for min_impurity_decrease. scikit-learn instead
 * compares its improvement w_l w_r (m_l - m_r)^2 / W with that bound, W_root times more:
 * min_impurity_decrease = c here is scikit-learn's c * (total sample weight).
 * Multiway splits (not in scikit-learn): the between-branch variance sum_b w_b (m_b - m)^2 / W,
 * which is the binary score for two branches. */
#include "treelab/tl_plugin.h"
#include "treelab/tl_class_sums.h"

extern const tl_criterion_type *const tl_criterion_mse;

/* Node impurity: mse's, through its handle rather than a copy. */
static double impurity(const double *stats, size_t k)
{
    return tl_criterion_mse->impurity(stats, k);
}

static double score(const void *state, const double *parent, const double *children,
                    size_t n_children, size_t k)
{
    (void)state;
    double w = parent[0];
    if (n_children == 2)
        return tl_friedman_score(w, children[0], children[1], children[k], children[k + 1]);
    if (w <= 0)
        return 0;
    double mean = parent[1] / w, between = 0;
    for (size_t b = 0; b < n_children; b++) {
        const double *c = children + b * k;
        if (c[0] > 0) {
            double d = c[1] / c[0] - mean;
            between += c[0] * d * d;
        }
    }
    return between / w;
}

/* As scikit-learn, a node that is not pure splits at its best cut even when the children's
 * means are equal. */
static void rules(const void *state, tl_choice_rules *out)
{
    (void)state;
    out->zero_gain = 1;
}

static const tl_criterion_type friedman_mse = {
    .name = "friedman_mse",
    .summary = "Friedman's improvement w_l w_r (mean_l - mean_r)^2 / (w_l + w_r); impurity mse "
               "(regression, scikit-learn's friedman_mse)",
    .reference = "Friedman, Greedy function approximation, Ann. Statist. 29(5) (2001), eq. 35",
    .tasks = TL_TASK_REGRESSION,
    .impurity = impurity,
    .score = score,
    .rules = rules,
    .score_form = TL_SCORE_FRIEDMAN,
};

const tl_criterion_type *const tl_criterion_friedman_mse = &friedman_mse;
