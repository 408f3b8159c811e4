/* Hellinger distance (Cieslak & Chawla, "Learning decision trees for unbalanced data", ECML
 * PKDD 2008; Cieslak, Hoens, Chawla & Kegelmeyer, Data Min. Knowl. Disc. 24, 2012): the
 * distance between the class-conditional distributions over the branches,
 * sqrt(sum_b (sqrt(w+_b / w+) - sqrt(w-_b / w-))^2). It ignores the class priors, so a
 * skewed class balance does not bend the split. With more than two classes: the largest
 * one-versus-rest distance (the two-class value when k = 2). */
#include <math.h>

#include "treelab/tl_plugin.h"

static double one_vs_rest(const double *parent, const double *children, size_t n_children, size_t k,
                          size_t c)
{
    double pos = parent[c], neg = 0;
    for (size_t j = 0; j < k; j++)
        neg += j == c ? 0 : parent[j];
    if (pos <= 0 || neg <= 0)
        return 0;
    double sum = 0;
    for (size_t b = 0; b < n_children; b++) {
        const double *ch = children + b * k;
        double bneg = 0;
        for (size_t j = 0; j < k; j++)
            bneg += j == c ? 0 : ch[j];
        double d = sqrt(ch[c] / pos) - sqrt(bneg / neg);
        sum += d * d;
    }
    return sqrt(sum);
}

static double score(const void *state, const double *parent, const double *children,
                    size_t n_children, size_t k)
{
    (void)state;
    double best = 0;
    /* for two classes both one-versus-rest distances are the same: compute one */
    for (size_t c = 0; c < (k == 2 ? 1 : k); c++) {
        double h = one_vs_rest(parent, children, n_children, k, c);
        best = h > best ? h : best;
    }
    return best;
}

static const tl_criterion_type hellinger = {
    .name = "hellinger",
    .summary = "Hellinger distance between the class-conditional branch distributions "
               "(skew-insensitive)",
    .reference = "Cieslak & Chawla, ECML PKDD 2008; Cieslak et al., DMKD 24 (2012)",
    .tasks = TL_TASK_CLASSIFICATION,
    .score = score,
};

const tl_criterion_type *const tl_criterion_hellinger = &hellinger;
