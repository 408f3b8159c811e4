/* The criteria a tree may be grown with. Adding one: its file plus one X(...) line here. */
#include "../tree/registry_impl.h"

#define CRITERIA(X)                                                                            \
    X(entropy)                                                                                 \
    X(gain_ratio)                                                                              \
    X(gini)                                                                                    \
    X(misclassification)                                                                       \
    X(mse)                                                                                     \
    X(friedman_mse)                                                                            \
    X(mae)                                                                                     \
    X(hellinger)                                                                               \
    X(twoing)                                                                                  \
    X(chi_square)                                                                              \
    X(g_statistic)                                                                             \
    X(dkm)                                                                                     \
    X(distance)                                                                                \
    /* one X(name) line per plug-in, above this one */

#define DECLARE(n) extern const tl_criterion_type *const tl_criterion_##n;
#define ADDRESS(n) &tl_criterion_##n,
CRITERIA(DECLARE)
/* Addresses of the handles: constant expressions, unlike the handles' values. */
static const tl_criterion_type *const *const all[] = {CRITERIA(ADDRESS) NULL};

TL_REGISTRY_LOOKUP(tl_criterion_type, tl_criterion_at, tl_criterion_find,
                   tl_criterion_names(names, sizeof names), "criterion")

static const char *name_at(size_t i, unsigned filter)
{
    (void)filter;
    const tl_criterion_type *c = tl_criterion_at(i);
    return c ? c->name : NULL;
}

void tl_criterion_names(char *buf, size_t size)
{
    tl_join_names(name_at, 0, buf, size);
}
