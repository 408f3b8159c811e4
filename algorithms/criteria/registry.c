/* The criteria a tree may be grown with. Adding one: its file plus one line here. */
#include <string.h>

#include "treelab/tl_grow.h"

extern const tl_criterion_type *const tl_criterion_entropy, *const tl_criterion_gain_ratio,
    *const tl_criterion_gini, *const tl_criterion_misclassification, *const tl_criterion_mse;

/* Addresses of the handles: constant expressions, unlike the handles' values. */
static const tl_criterion_type *const *const all[] = {
    &tl_criterion_entropy,
    &tl_criterion_gain_ratio,
    &tl_criterion_gini,
    &tl_criterion_misclassification,
    &tl_criterion_mse,
    NULL,
};

const tl_criterion_type *tl_criterion_at(size_t i)
{
    return i < sizeof all / sizeof *all && all[i] ? *all[i] : NULL;
}

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

const tl_criterion_type *tl_criterion_find(const char *name, tl_err *err)
{
    for (size_t i = 0; tl_criterion_at(i); i++)
        if (!strcmp(tl_criterion_at(i)->name, name))
            return tl_criterion_at(i);
    char names[512];
    tl_criterion_names(names, sizeof names);
    tl_err_set(err, TL_EINVAL, "unknown criterion '%s'; valid: %s", name, names);
    return NULL;
}
