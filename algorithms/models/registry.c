/* The learners treelab knows, by config name. Adding a learner: one file exporting
 * `const tl_model_type *const tl_model_NAME`, plus its two lines here (and its line in
 * CMakeLists.txt); a program adds its own at run time (tl_model_register). */
#include "treelab/tl_model.h"

#include "../tree/registry_impl.h"

#include <stdio.h>
#include <string.h>

extern const tl_model_type *const tl_model_id3;
extern const tl_model_type *const tl_model_cart;
extern const tl_model_type *const tl_model_gaussian_nb;
extern const tl_model_type *const tl_model_soft_tree;
extern const tl_model_type *const tl_model_c45;
extern const tl_model_type *const tl_model_ctree;
extern const tl_model_type *const tl_model_composable_tree;
extern const tl_model_type *const tl_model_optimal;
extern const tl_model_type *const tl_model_bagging;
extern const tl_model_type *const tl_model_random_forest;
extern const tl_model_type *const tl_model_extra_trees;
extern const tl_model_type *const tl_model_gradient_boosting;
extern const tl_model_type *const tl_model_adaboost;
extern const tl_model_type *const tl_model_soft_forest;

/* The registry holds the handles' addresses: those are constant expressions, the handles'
 * values are not. */
/* clang-format off: one learner a line, so that branches adding learners merge */
static const tl_model_type *const *const registry[] = {&tl_model_id3,
                                                       &tl_model_cart,
                                                       &tl_model_gaussian_nb,
                                                       &tl_model_soft_tree,
                                                       &tl_model_c45,
                                                       &tl_model_ctree,
                                                       &tl_model_composable_tree,
                                                       &tl_model_optimal,
                                                       &tl_model_bagging,
                                                       &tl_model_random_forest,
                                                       &tl_model_extra_trees,
                                                       &tl_model_gradient_boosting,
                                                       &tl_model_adaboost,
                                                       &tl_model_soft_forest,
                                                       NULL};
/* clang-format on */

static tl_registry_extra extra; /* learners registered at run time */

const tl_model_type *tl_model_at(size_t i)
{
    const size_t n_builtin = sizeof registry / sizeof *registry - 1;
    if (i < n_builtin)
        return *registry[i];
    return (const tl_model_type *)tl_registry_extra_at(&extra, i - n_builtin);
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

static const void *find_quietly(const char *name)
{
    return tl_model_find(name, NULL);
}

int tl_model_register(const tl_model_type *t, tl_err *err)
{
    if (!t || !t->name)
        return tl_err_set(err, TL_EINVAL, "cannot register a learner without a name");
    /* what tl_model_* call unconditionally (info may be NULL: a learner without a size) */
    if (!t->params || !t->alloc || !t->free || !t->fit || !t->predict || !t->save || !t->load ||
        !t->show)
        return tl_err_set(err, TL_EINVAL,
                          "learner '%s' lacks one of params, alloc, free, fit, "
                          "predict, save, load, show",
                          t->name);
    if (!(t->tasks & (TL_TASK_CLASSIFICATION | TL_TASK_REGRESSION)))
        return tl_err_set(err, TL_EINVAL, "learner '%s' names no task (TL_TASK_*)", t->name);
    return tl_registry_extra_add(&extra, t, t->name, "learner", find_quietly, err);
}
