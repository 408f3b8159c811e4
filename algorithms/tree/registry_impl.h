/* What every registry (criteria/, splitters/, pruners/registry.c and models/registry.c) shares:
 * lookup by position and by name over its NULL-terminated array `all` followed by the types
 * registered at run time, the error listing the valid names. A plug-in registry lists its
 * plug-ins as one X(name) line each. */
#ifndef TL_REGISTRY_IMPL_H
#define TL_REGISTRY_IMPL_H

#include <stddef.h>
#include <string.h>

#include "treelab/tl_grow.h"

/* Types a program registers at run time, per registry (more is TL_EINVAL). */
#define TL_REGISTRY_EXTRA_MAX 64

/* The types registered at run time: items[0..n). Registration takes a process-wide lock and
 * publishes n last (release), so lookups take no lock and see whole entries (acquire). */
typedef struct tl_registry_extra {
    const void *items[TL_REGISTRY_EXTRA_MAX];
    size_t n;
} tl_registry_extra;

/* Entry i of x, or NULL past the last. */
const void *tl_registry_extra_at(const tl_registry_extra *x, size_t i);

/* Add item called name to x: TL_EINVAL when the name is not a config word (a letter, then
 * letters, digits, '_' or '-'), when find(name) already knows it, or when x is full. what names
 * the registry in messages ("criterion"). */
int tl_registry_extra_add(tl_registry_extra *x, const void *item, const char *name,
                          const char *what, const void *(*find)(const char *name), tl_err *err);

/* Defines `const TYPE *AT(size_t)`, `const TYPE *FIND(const char *, tl_err *)` and
 * `int REGISTER(const TYPE *, tl_err *)` (which runs `int CHECK(const TYPE *, tl_err *)` on
 * the type first); NAMES is a statement filling char names[512] with the valid names; WHAT is
 * the word in errors. */
#define TL_REGISTRY_LOOKUP(TYPE, AT, FIND, REGISTER, CHECK, NAMES, WHAT)                           \
    static tl_registry_extra extra;                                                                \
    const TYPE *AT(size_t i)                                                                       \
    {                                                                                              \
        const size_t n_builtin = sizeof all / sizeof *all - 1;                                     \
        if (i < n_builtin)                                                                         \
            return *all[i];                                                                        \
        return (const TYPE *)tl_registry_extra_at(&extra, i - n_builtin);                          \
    }                                                                                              \
    const TYPE *FIND(const char *name, tl_err *err)                                                \
    {                                                                                              \
        for (size_t i = 0; AT(i); i++)                                                             \
            if (!strcmp(AT(i)->name, name))                                                        \
                return AT(i);                                                                      \
        char names[512];                                                                           \
        NAMES;                                                                                     \
        tl_err_set(err, TL_EINVAL, "unknown " WHAT " '%s'; valid: %s", name, names);               \
        return NULL;                                                                               \
    }                                                                                              \
    static const void *find_quietly(const char *name)                                              \
    {                                                                                              \
        return FIND(name, NULL);                                                                   \
    }                                                                                              \
    int REGISTER(const TYPE *t, tl_err *err)                                                       \
    {                                                                                              \
        if (!t || !t->name)                                                                        \
            return tl_err_set(err, TL_EINVAL, "cannot register a " WHAT " without a name");        \
        int rc = CHECK(t, err);                                                                    \
        return rc ? rc : tl_registry_extra_add(&extra, t, t->name, WHAT, find_quietly, err);       \
    }

/* Defines `void NAMES(char *buf, size_t size)`: every name AT gives, comma separated (for a
 * registry without a filter; splitters filter theirs by attribute kind). */
#define TL_REGISTRY_NAMES(TYPE, AT, NAMES)                                                         \
    static const char *name_at(size_t i, unsigned filter)                                          \
    {                                                                                              \
        (void)filter;                                                                              \
        const TYPE *t = AT(i);                                                                     \
        return t ? t->name : NULL;                                                                 \
    }                                                                                              \
    void NAMES(char *buf, size_t size)                                                             \
    {                                                                                              \
        tl_join_names(name_at, 0, buf, size);                                                      \
    }

#endif
