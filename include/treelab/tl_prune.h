/* The pruners' layer: the pruner plug-in type and its pre-pruning hook (its registry:
 * tl_registry.h), and what pruners share and reports read: the trace of the subtrees a pruner
 * considered, the class table of a candidate split and its chi-square p-value (tree core), and
 * minimal cost-complexity pruning's path (pruners/ccp_path.c).
 *
 * API: a tl_prune_trace's arrays are freed by tl_prune_trace_free (the struct is the
 * caller's); a tl_ccp_path's by tl_ccp_path_free. err may be NULL everywhere.
 */
#ifndef TL_PRUNE_H
#define TL_PRUNE_H

#include <stddef.h>

#include "treelab/tl_api.h"
#include "treelab/tl_error.h"
#include "treelab/tl_plugin.h"
#include "treelab/tl_tree.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The grower's settings (tl_grow.h), which a pruner gets to regrow on folds, and the record
 * of the subtrees it considered (below). */
typedef struct tl_grow_params tl_grow_params;
typedef struct tl_prune_trace tl_prune_trace;

/* ---- pruners: work on a grown tree ---- */

/* What a pruner sees besides the tree. */
typedef struct tl_prune_input {
    const tl_dataset *d;
    const size_t *train_rows; /* the rows the tree was grown on */
    size_t n_train;
    const size_t *valid_rows; /* validation rows (set when the pruner needs them) */
    size_t n_valid;
    const tl_grow_params *grow; /* the grower's settings, to regrow on folds */
    unsigned long seed;         /* the fit's seed */
} tl_prune_input;

/* Called once a node's test is chosen; return 0 to make the node a leaf instead (validation
 * pre-pruning), 1 to split, or a negative error code. rows: the node's training rows and
 * their weights in it. When it is called, the node's ancestors are split and every node
 * created so far (the node's siblings included) holds its training statistics. */
typedef int (*tl_accept_split_fn)(void *user, const tl_grow_ctx *g, const tl_tree *t, size_t node,
                                  const tl_node_rows *rows, const tl_split *s, tl_err *err);

enum {
    TL_NEEDS_VALIDATION = 1u, /* validation rows: the protocol's, or held out of training */
    TL_NEEDS_CLASSES = 2u     /* a nominal target */
};

typedef struct tl_pruner_type {
    TL_PLUGIN_FIELDS;
    unsigned needs; /* TL_NEEDS_* */
    /* Optional: what the pruner needs with these parameters, when that depends on them
     * (cost_complexity with alpha = validation needs validation rows); NULL: needs. */
    unsigned (*needs_of)(const void *state);
    /* Prune the grown tree; record what was considered in trace (already reset). */
    int (*prune)(const void *state, tl_tree *t, const tl_prune_input *in, tl_prune_trace *trace,
                 tl_err *err);
    /* Optional pre-pruning while growing: installed as the grower's accept callback, with
     * a tl_prune_hook (below) as user data. */
    tl_accept_split_fn accept;
} tl_pruner_type;

/* What pruner p with state needs: needs_of(state) when it has one, else needs. */
static inline unsigned tl_pruner_needs(const tl_pruner_type *p, const void *state)
{
    return p->needs_of ? p->needs_of(state) : p->needs;
}

/* User data of a pruner's accept callback. */
typedef struct tl_prune_hook {
    const void *state;
    const tl_prune_input *in;
} tl_prune_hook;

/* The subtrees a pruner considered, in the order it considered them, and its choice: one
 * record that reports and the pruning-curve figure read, whatever the pruner. */
typedef struct tl_prune_trace {
    const char *pruner;     /* its name */
    const char *param_name; /* what param[] holds: "alpha", "step", ... */
    const char *error_name; /* what error[] holds: "cv error", "validation error", NULL */
    const char *risk_name;  /* what risk[] measures: "error", or the criterion whose
                               impurity it is; NULL when risk[] is not recorded */
    size_t n, cap;
    double *param;       /* the parameter value at which subtree i is chosen */
    double *leaves;      /* its number of leaves */
    double *risk;        /* its training risk (share of the root's weight) */
    double *error;       /* its validation or cross-validated error, or NaN */
    double *se;          /* that error's standard error, or NaN */
    size_t chosen;       /* the subtree kept (index), SIZE_MAX when none recorded */
    double chosen_param; /* the parameter the pruner settled on (CCP by CV: the midpoint
                               alpha it pruned at), NaN when it has none */
    size_t min_error;    /* the subtree with the least error, SIZE_MAX when none */
} tl_prune_trace;

/* Append a subtree to the trace; TL_ENOMEM. */
TL_API int tl_prune_trace_add(tl_prune_trace *tr, double param, double leaves, double risk,
                              double error, double se, tl_err *err);
/* The trace of a pruner that goes from the grown tree straight to its result: the grown tree
 * (parameter 0, `before` leaves) and t as pruned (param, its leaves), the latter chosen, with
 * param named param_name. TL_ENOMEM. */
TL_API int tl_prune_trace_two(tl_prune_trace *tr, const char *param_name, double param,
                              double before, const tl_tree *t, tl_err *err);
TL_API void tl_prune_trace_reset(tl_prune_trace *tr);
TL_API void tl_prune_trace_free(tl_prune_trace *tr);
/* Deep copy into an empty dst; TL_ENOMEM. */
TL_API int tl_prune_trace_copy(tl_prune_trace *dst, const tl_prune_trace *src, tl_err *err);

/* The class weights per branch of candidate test s (bs: n_branches x k) from the node's
 * training rows, an unknown value shared among the branches by their known weight as the
 * grower will share it; share gets each branch's share of the known weight (n_branches),
 * miss the class weights of the rows with an unknown value (k). For plug-ins that judge a
 * split before it is made (pre-pruners). */
TL_API void tl_split_class_table(const tl_dataset *d, const tl_node_rows *rows, const tl_split *s,
                                 size_t k, double *bs, double *share, double *miss);

/* p-value of the chi-square test of independence of an nb x k table of weights (empty rows and
 * columns left out of the table and of the degrees of freedom); 1 when fewer than two rows or
 * columns remain. col: k doubles of scratch. */
TL_API double tl_chisq_table_p(const double *table, size_t nb, size_t k, double *col);

/* The margins of an nb x k table of weights: col gets the k column sums; rows and cols (either
 * may be NULL) the number of non-empty rows and columns. Returns the total. */
TL_API double tl_table_margins(const double *table, size_t nb, size_t k, double *col,
                               size_t *rows, size_t *cols);

/* ---- minimal cost-complexity pruning (Breiman et al. 1984) ---- */
typedef struct tl_ccp_path {
    size_t n;      /* subtrees T0 (unpruned) ... T_{n-1} (root alone) */
    double *alpha; /* alpha at which T_i becomes optimal (alpha[0] = 0) */
    size_t *leaves;
    double *risk; /* R(T_i): total leaf risk, as a share of the root's weight */
} tl_ccp_path;

/* The weakest-link sequence of t. risk_error: 1 = misclassification rate (Breiman, rpart),
 * 0 = weighted impurity of crit (scikit-learn's R(t); crit must have the impurity form).
 * Fills path (free with tl_ccp_path_free). */
TL_API int tl_ccp_path_compute(const tl_tree *t, const tl_criterion_type *crit, int risk_error,
                               tl_ccp_path *path, tl_err *err);
TL_API void tl_ccp_path_free(tl_ccp_path *path);
/* For every node of t, the alpha at which the weakest-link sequence cuts it (makes it a
 * leaf) into cut[node], INFINITY for leaves and for nodes only removed with an ancestor: in
 * t pruned at alpha (tl_ccp_prune) a node is a leaf when its cut is at most alpha and no
 * ancestor's is, so one pass serves every alpha. cut: t->n_nodes doubles. TL_ENOMEM. */
TL_API int tl_ccp_cut_alphas(const tl_tree *t, const tl_criterion_type *crit, int risk_error,
                             double *cut, tl_err *err);
/* Prune t to the smallest optimal subtree for alpha. */
TL_API int tl_ccp_prune(tl_tree *t, const tl_criterion_type *crit, int risk_error, double alpha,
                        tl_err *err);

#ifdef __cplusplus
}
#endif

#endif
