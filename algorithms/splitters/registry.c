/* The splitters a tree may use per attribute kind. Adding one: its file (and its line in
 * CMakeLists.txt) plus one X(...) line here; a program adds its own at run time
 * (tl_splitter_register). */
#include "../tree/registry_impl.h"

#define SPLITTERS(X)                                                                               \
    X(numeric_threshold)                                                                           \
    X(c45_threshold)                                                                               \
    X(histogram)                                                                                   \
    X(nominal_multiway)                                                                            \
    X(nominal_subset)                                                                              \
    X(random_subset)                                                                               \
    X(max_stat)                                                                                    \
    /* one X(name) line per plug-in, above this one */

#define DECLARE(n) extern const tl_splitter_type *const tl_splitter_##n;
#define ADDRESS(n) &tl_splitter_##n,
SPLITTERS(DECLARE)
static const tl_splitter_type *const *const all[] = {SPLITTERS(ADDRESS) NULL};

/* What the grower calls unconditionally (a runtime registration must have it). */
static int check(const tl_splitter_type *s, tl_err *err)
{
    if (!s->best)
        return tl_err_set(err, TL_EINVAL, "splitter '%s' has no best()", s->name);
    if (!(s->kinds & (TL_KIND_BIT(TL_ATTR_NUMERIC) | TL_KIND_BIT(TL_ATTR_NOMINAL))))
        return tl_err_set(err, TL_EINVAL, "splitter '%s' handles no attribute kind", s->name);
    return TL_OK;
}

TL_REGISTRY_LOOKUP(tl_splitter_type, tl_splitter_at, tl_splitter_find, tl_splitter_register, check,
                   tl_splitter_names(0, names, sizeof names), "splitter")

static const char *name_at(size_t i, unsigned kinds)
{
    const tl_splitter_type *s = tl_splitter_at(i);
    if (!s)
        return NULL;
    return !kinds || (s->kinds & kinds) ? s->name : "";
}

void tl_splitter_names(unsigned kinds, char *buf, size_t size)
{
    tl_join_names(name_at, kinds, buf, size);
}
