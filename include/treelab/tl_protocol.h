/* Resampling protocols as row-index arrays: stratified k-fold, hold-out, learning curves.
 *
 * API: nothing is allocated for the caller: every output array is the caller's, sized as
 * each function says. err may be NULL everywhere.
 */
#ifndef TL_PROTOCOL_H
#define TL_PROTOCOL_H

#include <stddef.h>

#include "treelab/tl_api.h"
#include "treelab/tl_dataset.h"
#include "treelab/tl_error.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The seed of one random stream, a hash (splitmix64 steps) of the experiment seed, a name
 * (dataset name, or NULL) and up to two indices; depends on nothing else. */
TL_API unsigned long tl_protocol_seed(unsigned long seed, const char *name, size_t a, size_t b);

/* Fold of every row (fold_of[i] in [0, k)) for one repeat. Stratified: rows of each class
 * (regression or stratified = 0: all rows as one group) are shuffled with gsl_ran_shuffle on
 * an mt19937 seeded by tl_protocol_seed(seed, name, repeat, 0), then dealt round-robin, the
 * deal continuing from class to class so fold sizes differ by at most one. Depends only on
 * the data's target, k, seed, name and repeat. Returns TL_OK, TL_EINVAL (k < 2 or k > rows)
 * or TL_ENOMEM. */
TL_API int tl_protocol_folds(const tl_dataset *d, size_t k, int stratified, unsigned long seed,
                             const char *name, size_t repeat, size_t *fold_of, tl_err *err);

/* Stratified folds of a subset of rows (inner CV of nested selection): fold_of[j] is the
 * fold of rows[j]; rng_seed seeds the shuffle directly. The same deal as tl_protocol_folds
 * (it is tl_folds_assign, which cost-complexity CV uses too). */
TL_API int tl_protocol_folds_of_rows(const tl_dataset *d, const size_t *rows, size_t n, size_t k,
                                     unsigned long rng_seed, size_t *fold_of, tl_err *err);

/* The hold-out rank of a subset of rows (inner hold-out of nested selection): order_of[j] in
 * [0, 1) for rows[j], as tl_protocol_order ranks them (each class of rows shuffled by an
 * mt19937 seeded with rng_seed, position / class size), so rows with order < fraction are a
 * stratified share of them. TL_OK or TL_ENOMEM. */
TL_API int tl_protocol_order_of_rows(const tl_dataset *d, const size_t *rows, size_t n,
                                     unsigned long rng_seed, double *order_of, tl_err *err);

/* Rows of fold f as test and the others as train, in increasing row order. train and test
 * must hold n_rows entries; the counts go to *n_train, *n_test. */
TL_API void tl_protocol_fold_rows(const size_t *fold_of, size_t n_rows, size_t f, size_t *train,
                                  size_t *n_train, size_t *test, size_t *n_test);

/* A rank per row for hold-out and learning curves: rows of each class (or of all, when not
 * stratified) are shuffled as for folds; order_of[i] in [0, 1) is the row's position in its
 * class's shuffle divided by the class size. A row goes to the first `fraction` of its
 * class when order_of[i] < fraction, so the training sets of a learning curve are nested. */
TL_API int tl_protocol_order(const tl_dataset *d, int stratified, unsigned long seed,
                             const char *name, size_t repeat, double *order_of, tl_err *err);

/* Split by order: order < a -> first, a <= order < b -> second, else third (any output may be
 * NULL when its range is empty). Rows in increasing order. */
TL_API void tl_protocol_split(const double *order_of, size_t n_rows, double a, double b,
                              size_t *first, size_t *n_first, size_t *second, size_t *n_second,
                              size_t *third, size_t *n_third);

#ifdef __cplusplus
}
#endif

#endif
