/* The splitters a tree may use per attribute kind. Adding one: its file plus one line here. */
#include <string.h>

#include "treelab/tl_grow.h"

extern const tl_splitter_type *const tl_splitter_numeric_threshold,
    *const tl_splitter_nominal_multiway, *const tl_splitter_nominal_subset,
    *const tl_splitter_c45_threshold;

static const tl_splitter_type *const *const all[] = {
    &tl_splitter_numeric_threshold,
    &tl_splitter_c45_threshold,
    &tl_splitter_nominal_multiway,
    &tl_splitter_nominal_subset,
    NULL,
};

const tl_splitter_type *tl_splitter_at(size_t i)
{
    return i < sizeof all / sizeof *all && all[i] ? *all[i] : NULL;
}

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

const tl_splitter_type *tl_splitter_find(const char *name, tl_err *err)
{
    for (size_t i = 0; tl_splitter_at(i); i++)
        if (!strcmp(tl_splitter_at(i)->name, name))
            return tl_splitter_at(i);
    char names[512];
    tl_splitter_names(0, names, sizeof names);
    tl_err_set(err, TL_EINVAL, "unknown splitter '%s'; valid: %s", name, names);
    return NULL;
}
