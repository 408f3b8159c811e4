/* The pruners any grown tree may be pruned with. Adding one: its file plus one line here. */
#include <string.h>

#include "treelab/tl_grow.h"

extern const tl_pruner_type *const tl_pruner_none, *const tl_pruner_cost_complexity,
    *const tl_pruner_error_based, *const tl_pruner_collapse, *const tl_pruner_reduced_error,
    *const tl_pruner_pre_validation;

static const tl_pruner_type *const *const all[] = {
    &tl_pruner_none,
    &tl_pruner_cost_complexity,
    &tl_pruner_error_based,
    &tl_pruner_collapse,
    &tl_pruner_reduced_error,
    &tl_pruner_pre_validation,
    NULL,
};

const tl_pruner_type *tl_pruner_at(size_t i)
{
    return i < sizeof all / sizeof *all && all[i] ? *all[i] : NULL;
}

static const char *name_at(size_t i, unsigned filter)
{
    (void)filter;
    const tl_pruner_type *p = tl_pruner_at(i);
    return p ? p->name : NULL;
}

void tl_pruner_names(char *buf, size_t size)
{
    tl_join_names(name_at, 0, buf, size);
}

const tl_pruner_type *tl_pruner_find(const char *name, tl_err *err)
{
    for (size_t i = 0; tl_pruner_at(i); i++)
        if (!strcmp(tl_pruner_at(i)->name, name))
            return tl_pruner_at(i);
    char names[512];
    tl_pruner_names(names, sizeof names);
    tl_err_set(err, TL_EINVAL, "unknown pruner '%s'; valid: %s", name, names);
    return NULL;
}
