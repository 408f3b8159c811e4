/* The ways of handling unknown values a tree may be grown with (the `missing` slot).
 * Adding one: its file plus one X(...) line here. */
#include "../tree/registry_impl.h"

#define MISSING(X)                                                                             \
    X(fractional)                                                                              \
    X(surrogate)                                                                               \
    X(majority)                                                                                \
    X(learned)                                                                                 \
    X(separate)                                                                                \
    X(drop)                                                                                    \
    /* one X(name) line per plug-in, above this one */

#define DECLARE(n) extern const tl_missing_type *const tl_missing_##n;
#define ADDRESS(n) &tl_missing_##n,
MISSING(DECLARE)
static const tl_missing_type *const *const all[] = {MISSING(ADDRESS) NULL};

TL_REGISTRY_LOOKUP(tl_missing_type, tl_missing_at, tl_missing_find,
                   tl_missing_names(names, sizeof names), "missing-value method")

static const char *name_at(size_t i, unsigned filter)
{
    (void)filter;
    const tl_missing_type *m = tl_missing_at(i);
    return m ? m->name : NULL;
}

void tl_missing_names(char *buf, size_t size)
{
    tl_join_names(name_at, 0, buf, size);
}
