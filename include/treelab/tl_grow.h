/* The greedy grower: a tree from a dataset's rows and a composition of plug-ins
 * (tl_grow_params). The plug-in contract is tl_plugin.h, what pruners share tl_prune.h; this
 * header includes both, so a file that composes or writes plug-ins may include it alone. (A
 * splitter's own public helpers, such as the histogram's bins in tl_splitters.h, are included
 * where they are used.)
 *
 * API: tl_grow returns a tree the caller frees with tl_tree_free. err may be NULL everywhere.
 */
#ifndef TL_GROW_H
#define TL_GROW_H

#include <stddef.h>

#include "treelab/tl_api.h"
#include "treelab/tl_dataset.h"
#include "treelab/tl_error.h"
#include "treelab/tl_plugin.h"
#include "treelab/tl_prune.h"
#include "treelab/tl_tree.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Grow a tree on rows[0..n) of d (row weights from d->weight, or 1). Numeric columns are
 * sorted once per call. The tree is grown depth first with a work stack on the heap, so
 * no depth overflows the C stack. NULL + err on failure. */
TL_API tl_tree *tl_grow(const tl_dataset *d, const size_t *rows, size_t n, const tl_grow_params *p,
                        tl_err *err);

/* The best test per attribute at the root of rows (what the grower compares before its
 * first split): cand[j] and valid[j] for every attribute j (valid 0: no admissible test).
 * For teaching (the gains table of a textbook) and for tests. */
TL_API int tl_grow_root_candidates(const tl_dataset *d, const size_t *rows, size_t n,
                                   const tl_grow_params *p, tl_split *cand, int *valid,
                                   tl_err *err);

/* An empty cache of views kept across fits (tl_grow_params.view_cache); NULL when out of
 * memory. _free accepts NULL. */
TL_API tl_view_cache *tl_view_cache_new(void);
TL_API void tl_view_cache_free(tl_view_cache *c);

#ifdef __cplusplus
}
#endif

#endif
