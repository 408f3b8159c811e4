/* What every plug-in registry (criteria/, splitters/, pruners/registry.c) shares: lookup by
 * position and by name over its NULL-terminated array `all`, the error listing the valid
 * names. A registry lists its plug-ins as one X(name) line each. */
#ifndef TL_REGISTRY_IMPL_H
#define TL_REGISTRY_IMPL_H

#include <string.h>

#include "treelab/tl_grow.h"

/* Defines `const TYPE *AT(size_t)` and `const TYPE *FIND(const char *, tl_err *)`; NAMES is
 * a statement filling char names[512] with the valid names; WHAT is the word in errors. */
#define TL_REGISTRY_LOOKUP(TYPE, AT, FIND, NAMES, WHAT)                                        \
    const TYPE *AT(size_t i)                                                                   \
    {                                                                                          \
        return i < sizeof all / sizeof *all && all[i] ? *all[i] : NULL;                        \
    }                                                                                          \
    const TYPE *FIND(const char *name, tl_err *err)                                            \
    {                                                                                          \
        for (size_t i = 0; AT(i); i++)                                                         \
            if (!strcmp(AT(i)->name, name))                                                    \
                return AT(i);                                                                  \
        char names[512];                                                                       \
        NAMES;                                                                                 \
        tl_err_set(err, TL_EINVAL, "unknown " WHAT " '%s'; valid: %s", name, names);           \
        return NULL;                                                                           \
    }

#endif
