/* The pruners any grown tree may be pruned with. Adding one: its file (and its line in
 * CMakeLists.txt) plus one X(...) line here; a program adds its own at run time
 * (tl_pruner_register). */
#include "../tree/registry_impl.h"

#define PRUNERS(X)                                                                                 \
    X(none)                                                                                        \
    X(cost_complexity)                                                                             \
    X(error_based)                                                                                 \
    X(collapse)                                                                                    \
    X(reduced_error)                                                                               \
    X(pre_validation)                                                                              \
    X(minimum_error)                                                                               \
    X(pessimistic)                                                                                 \
    X(critical_value)                                                                              \
    X(chi_square)                                                                                  \
    X(optimal)                                                                                     \
    /* one X(name) line per plug-in, above this one */

#define DECLARE(n) extern const tl_pruner_type *const tl_pruner_##n;
#define ADDRESS(n) &tl_pruner_##n,
PRUNERS(DECLARE)
static const tl_pruner_type *const *const all[] = {PRUNERS(ADDRESS) NULL};

/* What a tree calls unconditionally (a runtime registration must have it). */
static int check(const tl_pruner_type *p, tl_err *err)
{
    return p->prune ? TL_OK : tl_err_set(err, TL_EINVAL, "pruner '%s' has no prune()", p->name);
}

TL_REGISTRY_LOOKUP(tl_pruner_type, tl_pruner_at, tl_pruner_find, tl_pruner_register, check,
                   tl_pruner_names(names, sizeof names), "pruner")

TL_REGISTRY_NAMES(tl_pruner_type, tl_pruner_at, tl_pruner_names)
