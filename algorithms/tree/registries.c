/* Registries of the tree plug-ins. Adding one: its file plus two lines here. */
#include <stdio.h>
#include <string.h>

#include "treelab/tl_tree.h"

extern const tl_criterion_type *const tl_criterion_entropy, *const tl_criterion_gain_ratio,
    *const tl_criterion_gini, *const tl_criterion_misclassification, *const tl_criterion_mse;
extern const tl_splitter_type *const tl_splitter_numeric_threshold,
    *const tl_splitter_nominal_multiway, *const tl_splitter_nominal_subset;
extern const tl_splitter_type *const tl_splitter_c45_threshold;
extern const tl_pruner_type *const tl_pruner_none, *const tl_pruner_cost_complexity;
extern const tl_pruner_type *const tl_pruner_collapse, *const tl_pruner_pessimistic;
extern const tl_pruner_type *const tl_pruner_pre_validation, *const tl_pruner_reduced_error;

/* Addresses of the handles: constant expressions, unlike the handles' values. */
static const tl_criterion_type *const *const criteria[] = {
    &tl_criterion_entropy, &tl_criterion_gain_ratio, &tl_criterion_gini,
    &tl_criterion_misclassification, &tl_criterion_mse, NULL,
};
static const tl_splitter_type *const *const splitters[] = {
    &tl_splitter_numeric_threshold, &tl_splitter_nominal_multiway, &tl_splitter_nominal_subset,
    &tl_splitter_c45_threshold,
    NULL,
};
static const tl_pruner_type *const *const pruners[] = {
    &tl_pruner_none, &tl_pruner_cost_complexity,
    &tl_pruner_collapse, &tl_pruner_pessimistic,
    &tl_pruner_pre_validation, &tl_pruner_reduced_error,
    NULL,
};

#define TL_AT(table, i) ((i) < sizeof table / sizeof *table && table[i] ? *table[i] : NULL)

const tl_criterion_type *tl_criterion_at(size_t i) { return TL_AT(criteria, i); }
const tl_splitter_type *tl_splitter_at(size_t i) { return TL_AT(splitters, i); }
const tl_pruner_type *tl_pruner_at(size_t i) { return TL_AT(pruners, i); }

/* The error lists every valid name, as for learners. */
#define TL_FIND(type, at, what)                                                                \
    const type *found = NULL;                                                                  \
    char names[512] = "";                                                                      \
    size_t used = 0;                                                                           \
    for (size_t i = 0; at(i); i++) {                                                           \
        if (!strcmp(at(i)->name, name))                                                        \
            found = at(i);                                                                     \
        int w_ = snprintf(names + used, sizeof names - used, "%s%s", i ? ", " : "", at(i)->name); \
        if (w_ > 0 && (size_t)w_ < sizeof names - used)                                        \
            used += (size_t)w_;                                                                \
    }                                                                                          \
    if (!found)                                                                                \
        tl_err_set(err, TL_EINVAL, "unknown " what " '%s'; valid: %s", name, names);           \
    return found

const tl_criterion_type *tl_criterion_find(const char *name, tl_err *err)
{
    TL_FIND(tl_criterion_type, tl_criterion_at, "criterion");
}

const tl_splitter_type *tl_splitter_find(const char *name, tl_err *err)
{
    TL_FIND(tl_splitter_type, tl_splitter_at, "splitter");
}

const tl_pruner_type *tl_pruner_find(const char *name, tl_err *err)
{
    TL_FIND(tl_pruner_type, tl_pruner_at, "pruner");
}
