/* The greedy grower (tree core): its settings (tl_grow_params, a composition of plug-ins), the
 * services a plug-in may call while the grower runs it (tl_grow_view, tl_grow_score, ...)
 * and tl_grow itself. The plug-in types are tl_plugin.h, the pruners' tl_prune.h; this header
 * includes both, so a file that composes or writes plug-ins may include it alone. (A
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
#include "treelab/tl_registry.h"
#include "treelab/tl_tree.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- the grower's settings, and the services it offers a plug-in during a call ---- */

/* Views a caller keeps across fits on the same rows and values (gradient boosting's stages:
 * only the targets change), so the grower sorts each numeric column once for them all: the
 * caller owns it (tl_view_cache_new / _free below), the grower fills it and uses an entry
 * only for the same rows and the same column values. One fit at a time (a superset cache,
 * below: any number). */
typedef struct tl_view_cache tl_view_cache;

typedef struct tl_grow_params {
    const tl_criterion_type *criterion;
    const void *criterion_state;
    const tl_splitter_type *numeric; /* splitter for numeric attributes */
    const void *numeric_state;
    const tl_splitter_type *nominal; /* splitter for nominal attributes */
    const void *nominal_state;
    size_t max_depth;             /* 0: unlimited */
    double min_samples_split;     /* weight a node needs to be split */
    double min_samples_leaf;      /* weight every branch must hold */
    size_t min_leaf_branches;     /* branches that must hold min_samples_leaf (0 = all) */
    double min_impurity_decrease; /* weighted decrease (as scikit-learn) a split needs */
    int reuse_nominal;            /* 0: a multiway nominal attribute is not reused below */
    const size_t *attr_order;     /* order attributes are tried (ties go to the first);
                                        NULL: file order */
    unsigned long seed;           /* for randomised splitters (the fit's seed) */
    tl_accept_split_fn accept;    /* optional */
    void *accept_user;
    const tl_missing_type *missing; /* unknown values; NULL: C4.5's fractions */
    const void *missing_state;
    tl_view_cache *view_cache; /* borrowed for one fit, or NULL (none kept across fits) */
} tl_grow_params;

/* Defaults: no limits, reuse allowed, file order, min_samples_split 2, min_samples_leaf 1. */
TL_API void tl_grow_params_init(tl_grow_params *p);

/* What splitters may use from the grow context. */
TL_API const tl_dataset *tl_grow_data(const tl_grow_ctx *g);
TL_API const tl_grow_params *tl_grow_params_of(const tl_grow_ctx *g);
/* The criterion's rules (zeros when it has none). */
TL_API const tl_choice_rules *tl_grow_rules(const tl_grow_ctx *g);
TL_API size_t tl_grow_k(const tl_grow_ctx *g);
/* Scratch of at least (max levels + 4) * (k + 1) doubles, private to the current splitter call. */
TL_API double *tl_grow_scratch(const tl_grow_ctx *g);
/* Statistics of the node's rows per level of nominal attr into out (n_levels x k, zeroed
 * here); returns the weight of the rows whose value is unknown. */
TL_API double tl_grow_level_stats(const tl_grow_ctx *g, const tl_node_rows *node, size_t attr,
                                  double *out);
/* The sorted known values of numeric attribute attr over all rows grown on (n of them), or
 * NULL unless a splitter asked for TL_VIEW_TRAIN_VALUES; *rows (if rows is not NULL) gets
 * the row of each value (equal values in row order). */
TL_API const double *tl_grow_train_values(const tl_grow_ctx *g, size_t attr, size_t *n,
                                          const uint32_t **rows);
/* A view of the node's rows for numeric attribute attr (tl_view_kind says which and its
 * type), or NULL: for a nominal attribute, a view the grower does not keep for this fit (the
 * splitter's views() did not ask for it, or the rows do not allow it: TL_VIEW_RECORDS), or no
 * memory to build it. TL_VIEW_SORTED is built on demand when it is not kept (NULL then means
 * out of memory). */
TL_API const void *tl_grow_view(const tl_grow_ctx *g, const tl_node_rows *node, size_t attr,
                                tl_view_kind kind);
/* The parent of node in the tree being grown (SIZE_MAX for the root or past the nodes made
 * so far): node ids grow downwards, children after their parent. */
TL_API size_t tl_grow_parent(const tl_grow_ctx *g, size_t node);
/* What the splitter of attr's kind prepared for this fit (tl_splitter_type.prepare), or
 * NULL. */
TL_API void *tl_grow_prepared(const tl_grow_ctx *g, size_t attr);

/* The branch holding the most weight of the node's rows whose branch[] is known (< nb), the
 * lowest on ties; 0 when none is. For the missing-value methods. */
TL_API int tl_grow_heaviest_branch(const tl_grow_ctx *g, const tl_node_rows *node,
                                   const int *branch, size_t nb);
/* Set branch[row] = to for each of the node's rows whose branch is unknown (< 0). */
TL_API void tl_grow_send_unknown(const tl_node_rows *node, int *branch, int to);
/* 1 when the fit's missing-value method has the node's unknown rows join, at every cut, the
 * side that leaves the least impurity (scikit-learn 1.3), so a threshold sweep scores each cut
 * with them; 0 when they leave a cut's score to tl_grow_score. */
TL_API int tl_grow_unknowns_at_cut(const tl_grow_ctx *g);
/* Add row's statistics with weight w into stats. */
TL_API void tl_grow_add_row(const tl_grow_ctx *g, double *stats, uint32_t row, double w);
/* The criterion's worth of a partition of the known rows (children n x k, summing to the
 * parent), before the known-share weighting: impurity decrease or the criterion's score;
 * NaN for a row-form criterion, whose worth the statistics do not give (tl_grow_score). */
TL_API double tl_grow_partition_gain(const tl_grow_ctx *g, const double *children,
                                     size_t n_children);
/* Row-form criteria, for a sweep over the node's rows in a splitter's order: *left[i] the
 * loss of rows[0..i], *right[i] that of rows[i+1..n), for i < n (the node's weights), in the
 * grower's buffers, valid until the next call. Returns 0 (nothing set) for other criteria. */
TL_API int tl_grow_cut_losses(const tl_grow_ctx *g, const uint32_t *rows, size_t n,
                              const double **left, const double **right);
/* Gain of a partition: tl_grow_partition_gain times the known share of the node's weight;
 * fills split->gain, known/missing weight and rank. split must already hold the test
 * (attribute, kind, threshold or mask): a row-form criterion scores it from the node's rows
 * routed by it. Returns 0 when the partition is not admissible (min_samples_leaf), else 1. */
TL_API int tl_grow_score(const tl_grow_ctx *g, const tl_node_rows *node, const double *children,
                         size_t n_children, double missing_w, tl_split *split);

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
/* A cache for fits on subsets of rows (n_cols: the data's attributes), shared by fits on
 * several threads at once (a forest's members): each column sorted once for all of them. */
TL_API tl_view_cache *tl_view_cache_new_superset(const size_t *rows, size_t n, size_t n_cols);
TL_API void tl_view_cache_free(tl_view_cache *c);

#ifdef __cplusplus
}
#endif

#endif
