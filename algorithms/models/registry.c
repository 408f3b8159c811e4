/* The learners treelab knows, by config name. Adding a learner: one file exporting
 * `const tl_model_type *const tl_model_NAME`, plus its two lines here. */
#include "treelab/tl_model.h"

#include <stdio.h>
#include <string.h>

extern const tl_model_type *const tl_model_id3;
extern const tl_model_type *const tl_model_cart;
extern const tl_model_type *const tl_model_gaussian_nb;
extern const tl_model_type *const tl_model_soft_tree;
extern const tl_model_type *const tl_model_c45;
extern const tl_model_type *const tl_model_composable_tree;

/* The registry holds the handles' addresses: those are constant expressions, the handles'
 * values are not. */
static const tl_model_type *const *const registry[] = {
    &tl_model_id3,
    &tl_model_cart,
    &tl_model_gaussian_nb,
    &tl_model_soft_tree,
    &tl_model_c45,
    &tl_model_composable_tree,
    NULL
};

const tl_model_type *tl_model_at(size_t i)
{
    return i < sizeof registry / sizeof *registry && registry[i] ? *registry[i] : NULL;
}

const tl_model_type *tl_model_find(const char *name, tl_err *err)
{
    for (size_t i = 0; tl_model_at(i); i++)
        if (strcmp(tl_model_at(i)->name, name) == 0)
            return tl_model_at(i);
    char names[512] = "";
    size_t used = 0;
    for (size_t i = 0; tl_model_at(i) && used + 1 < sizeof names; i++) {
        int w = snprintf(names + used, sizeof names - used, "%s%s", i ? ", " : "",
                         tl_model_at(i)->name);
        if (w > 0)
            used += (size_t)w;
    }
    tl_err_set(err, TL_EINVAL, "unknown algorithm '%s'; valid algorithms: %s", name,
               used ? names : "(none)");
    return NULL;
}

