/* The criteria a tree may be grown with. Adding one: its file (and its line in CMakeLists.txt)
 * plus one X(...) line here; a program adds its own at run time (tl_criterion_register). */
#include "../tree/registry_impl.h"

#define CRITERIA(X)                                                                                \
    X(entropy)                                                                                     \
    X(gain_ratio)                                                                                  \
    X(gini)                                                                                        \
    X(misclassification)                                                                           \
    X(mse)                                                                                         \
    X(friedman_mse)                                                                                \
    X(mae)                                                                                         \
    X(hellinger)                                                                                   \
    X(twoing)                                                                                      \
    X(chi_square)                                                                                  \
    X(g_statistic)                                                                                 \
    X(dkm)                                                                                         \
    X(distance)                                                                                    \
    X(ctree)                                                                                       \
    /* one X(name) line per plug-in, above this one */

#define DECLARE(n) extern const tl_criterion_type *const tl_criterion_##n;
#define ADDRESS(n) &tl_criterion_##n,
CRITERIA(DECLARE)
/* Addresses of the handles: constant expressions, unlike the handles' values. */
static const tl_criterion_type *const *const all[] = {CRITERIA(ADDRESS) NULL};

/* What the grower calls unconditionally (a runtime registration must have it). */
static int check(const tl_criterion_type *c, tl_err *err)
{
    if (!c->impurity && !c->score)
        return tl_err_set(err, TL_EINVAL, "criterion '%s' has neither impurity nor score", c->name);
    if (!(c->tasks & (TL_TASK_CLASSIFICATION | TL_TASK_REGRESSION)))
        return tl_err_set(err, TL_EINVAL, "criterion '%s' names no task (TL_TASK_*)", c->name);
    return TL_OK;
}

TL_REGISTRY_LOOKUP(tl_criterion_type, tl_criterion_at, tl_criterion_find, tl_criterion_register,
                   check, tl_criterion_names(names, sizeof names), "criterion")

TL_REGISTRY_NAMES(tl_criterion_type, tl_criterion_at, tl_criterion_names)
