/* A flat API for language bindings (the Python package): datasets over the caller's arrays,
 * models from "key=value" settings, descriptions as text, and a tree as plain node arrays.
 *
 * API: tl_dataset_wrap returns a dataset whose columns, target and weights are the caller's
 * arrays (borrowed, never written, never freed: they must outlive the dataset); the dataset
 * owns its names and level dictionaries and is freed with tl_dataset_wrap_free (never
 * tl_dataset_free). tl_model_show_text returns a string the caller frees with tl_text_free.
 * Every output array is the caller's, sized as each function says. err may be NULL everywhere.
 */
#ifndef TL_BINDING_H
#define TL_BINDING_H

#include <stddef.h>
#include <stdint.h>

#include "treelab/tl_api.h"
#include "treelab/tl_dataset.h"
#include "treelab/tl_error.h"
#include "treelab/tl_grow.h"
#include "treelab/tl_model.h"
#include "treelab/tl_tree.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A dataset of n_rows rows and n_attrs attributes, each still to be given by
 * tl_dataset_wrap_numeric or tl_dataset_wrap_nominal (index n_attrs is the target). NULL +
 * TL_EINVAL when n_rows is 0, TL_ENOMEM. */
TL_API tl_dataset *tl_dataset_wrap(size_t n_rows, size_t n_attrs, tl_err *err);

/* Column j (j == n_attrs: the target) is numeric, named name, over values (n_rows doubles,
 * NaN for unknown; borrowed). TL_EINVAL naming the column and row of an infinite value, for a
 * bad j or a column given twice; TL_ENOMEM. */
TL_API int tl_dataset_wrap_numeric(tl_dataset *d, size_t j, const char *name, const double *values,
                                   tl_err *err);

/* Column j (j == n_attrs: the target) is nominal, named name, with levels[0..n_levels) and
 * codes (n_rows ints in [0, n_levels), TL_MISSING_CODE for unknown; borrowed). Every code is
 * checked: TL_EINVAL naming the column and row of one out of range, or for a bad j, a column
 * given twice, more than 2^31 levels; TL_ENOMEM. */
TL_API int tl_dataset_wrap_nominal(tl_dataset *d, size_t j, const char *name, const int *codes,
                                   size_t n_levels, const char *const *levels, tl_err *err);

/* Row weights (n_rows finite non-negative doubles; borrowed), or NULL for unit weights.
 * TL_EINVAL naming the first bad weight. */
TL_API int tl_dataset_wrap_weights(tl_dataset *d, const double *weights, tl_err *err);

/* TL_OK when every column and the target have been given, else TL_EINVAL naming the first
 * missing one. Call before handing the dataset to a model. */
TL_API int tl_dataset_wrap_check(const tl_dataset *d, tl_err *err);

/* Free a wrapped dataset (NULL accepted); the caller's arrays are left alone. */
TL_API void tl_dataset_wrap_free(tl_dataset *d);

/* Reading any dataset: attribute j's header (j == n_attrs: the target), its numbers (NULL
 * for a nominal column) or its codes (NULL for a numeric one), all owned by d. */
TL_API const tl_attr_info *tl_dataset_attr(const tl_dataset *d, size_t j);
TL_API const double *tl_dataset_numbers(const tl_dataset *d, size_t j);
TL_API const int *tl_dataset_codes(const tl_dataset *d, size_t j);
/* Its number of rows, and its row weights (n_rows values, NULL when every row weighs 1). */
TL_API size_t tl_dataset_rows(const tl_dataset *d);
TL_API const double *tl_dataset_row_weights(const tl_dataset *d);

/* tl_model_new with the parameters given as n strings "key=value" (SLOT.PARAM keys
 * included). NULL + TL_EINVAL for a string without '=', or tl_model_new's error. */
TL_API tl_model *tl_model_new_kv(const char *algo, const char *const *kv, size_t n, tl_err *err);

/* tl_model_show into a new NUL-terminated string (*len gets its length when len is not
 * NULL), freed with tl_text_free; NULL + err on failure. */
TL_API char *tl_model_show_text(const tl_model *m, tl_show_format fmt, size_t *len, tl_err *err);
TL_API void tl_text_free(char *text);

/* A tree's nodes as arrays of t->n_nodes entries each: the split attribute (-1 for a leaf),
 * the split kind (tl_split_kind; -1 for a leaf), the threshold (NaN unless numeric), the
 * first child (-1 for a leaf) and the number of children (0 for a leaf), the weight, and
 * scikit-learn's tree_.value: n_nodes x k weighted class counts (classification) or the
 * value the node predicts (regression, n_nodes values). Any array may be NULL. */
TL_API void tl_tree_arrays(const tl_tree *t, int *attr, int *kind, double *threshold,
                           int64_t *first_child, int64_t *n_children, double *weight,
                           double *value);

/* Impurity-based importance of each of n_attrs attributes (the total weighted impurity
 * decrease of the splits on it, normalised to sum to 1; all zeros for a tree without a split),
 * scikit-learn's feature_importances_: impurity by crit for classification (NULL: gini; it
 * must have the impurity form, else TL_EINVAL), the squared error for regression. TL_EINVAL
 * for a split on an attribute >= n_attrs. */
TL_API int tl_tree_importances(const tl_tree *t, const tl_criterion_type *crit, size_t n_attrs,
                               double *out, tl_err *err);

#ifdef __cplusplus
}
#endif

#endif
