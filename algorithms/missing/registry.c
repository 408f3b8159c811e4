/* The ways of handling unknown values a tree may be grown with (the `missing` slot).
 * Adding one: its file (and its line in CMakeLists.txt) plus one X(...) line here; a program
 * adds its own at run time (tl_missing_register). */
#include "../tree/registry_impl.h"

#define MISSING(X)                                                                                 \
    X(fractional)                                                                                  \
    X(surrogate)                                                                                   \
    X(majority)                                                                                    \
    X(learned)                                                                                     \
    X(separate)                                                                                    \
    X(drop)                                                                                        \
    /* one X(name) line per plug-in, above this one */

#define DECLARE(n) extern const tl_missing_type *const tl_missing_##n;
#define ADDRESS(n) &tl_missing_##n,
MISSING(DECLARE)
static const tl_missing_type *const *const all[] = {MISSING(ADDRESS) NULL};

/* What the grower reads unconditionally (a runtime registration must have it; route may be
 * NULL: every branch by its share). */
static int check(const tl_missing_type *m, tl_err *err)
{
    switch (m->scoring) {
    case TL_MISSING_SCORE_SHARE:
    case TL_MISSING_SCORE_BEST_BRANCH:
    case TL_MISSING_SCORE_OWN_BRANCH: return TL_OK;
    }
    return tl_err_set(err, TL_EINVAL, "missing-value method '%s' has an unknown scoring (%d)",
                      m->name, (int)m->scoring);
}

TL_REGISTRY_LOOKUP(tl_missing_type, tl_missing_at, tl_missing_find, tl_missing_register, check,
                   tl_missing_names(names, sizeof names), "missing-value method")

TL_REGISTRY_NAMES(tl_missing_type, tl_missing_at, tl_missing_names)
