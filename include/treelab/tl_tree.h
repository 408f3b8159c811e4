/* Hard decision trees: compact node arrays, the split record, prediction, routing and
 * export. The grower is in tl_grow.h, the plug-in contract in tl_plugin.h.
 *
 * API: tl_tree_alloc, tl_tree_copy and tl_tree_load return a tree the caller frees with
 * tl_tree_free (NULL accepted); the tree owns its arrays. Every output array is the caller's,
 * sized as each function says. err may be NULL everywhere.
 */
#ifndef TL_TREE_H
#define TL_TREE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "treelab/tl_api.h"
#include "treelab/tl_dataset.h"
#include "treelab/tl_error.h"
#include "treelab/tl_store.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum { TL_SHOW_TEXT = 0, TL_SHOW_DOT = 1, TL_SHOW_RULES = 2 } tl_show_format;

/* Regression nodes keep three statistics: weight, weighted sum, weighted sum of squares. */
#define TL_REG_STATS 3

typedef enum {
    TL_SPLIT_NUMERIC = 0,  /* binary: x <= threshold goes to branch 0 */
    TL_SPLIT_MULTIWAY = 1, /* nominal: branch = level code */
    TL_SPLIT_SUBSET = 2    /* nominal binary: levels in left_mask go to branch 0 */
} tl_split_kind;

/* Most levels a subset split can hold (the mask is 64 bits). */
#define TL_SUBSET_MAX_LEVELS 64

/* A candidate test, kept apart from the code that searches for it. */
typedef struct tl_split {
    size_t attr;
    tl_split_kind kind;
    double threshold;   /* NUMERIC */
    uint64_t left_mask; /* SUBSET */
    size_t n_branches;
    double gain; /* impurity decrease on the known rows, times their weight share */
    double rank; /* what selection across attributes maximises (gain, or gain ratio) */
    double known_weight, missing_weight;
    int missing_branch; /* where the missing-value method put the unknown rows when scoring
                           (a branch), or -1 (none: they count by the known share) */
} tl_split;

/* Where a row whose value for a node's test is unknown goes, once the node's surrogate
 * splits (if any) cannot place it. A value >= 0 is a branch. */
enum {
    TL_UNKNOWN_SHARE = -1,   /* every branch, by its share of the training weight (C4.5) */
    TL_UNKNOWN_STOP = -2,    /* no branch: the node's own prediction */
    TL_UNKNOWN_HEAVIEST = -3 /* the branch with the most training weight; a tie stops (rpart) */
};

/* A surrogate split (Breiman et al. 1984, sec. 5.3; rpart): another attribute's test that
 * mimics the node's own, used in order when the node's attribute is unknown. */
typedef struct tl_surrogate {
    int attr;
    unsigned char kind;  /* TL_SPLIT_NUMERIC or TL_SPLIT_SUBSET */
    unsigned char below; /* NUMERIC: the branch of x < threshold (x >= threshold: the other) */
    double threshold;
    uint64_t left_mask;  /* SUBSET: levels sent to branch 0 */
    uint64_t known_mask; /* SUBSET: levels with a direction (others cannot place a row) */
    double agree, adj;   /* agreement with the node's test, and rpart's adjusted agreement */
} tl_surrogate;

/* A tree as parallel arrays; node 0 is the root; the children of a node are contiguous. */
typedef struct tl_tree {
    size_t n_nodes, cap;
    size_t k; /* statistics per node: classes, or TL_REG_STATS */
    int regression;
    int *attr;           /* split attribute, -1 for a leaf */
    unsigned char *kind; /* tl_split_kind */
    double *threshold;
    uint64_t *mask;
    size_t *first_child; /* first of n_children contiguous nodes */
    size_t *n_children;
    size_t *parent;       /* SIZE_MAX for the root */
    double *stats;        /* n_nodes x k weighted class counts, or (w, sum, sumsq) */
    signed char *unknown; /* per split: TL_UNKNOWN_* or a branch (tl_tree_route_row) */
    uint64_t *seen;       /* per SUBSET split: the levels its training rows had, a level
                              outside counting as unknown (rpart); 0: not recorded, every level
                              goes by mask */
    uint32_t *sur_first;  /* per node: its surrogates are sur[sur_first .. + sur_n) */
    unsigned char *sur_n;
    tl_surrogate *sur; /* every node's surrogates */
    size_t sur_count, sur_cap;
    double *value;   /* regression: what each node predicts when that is not the mean of
                              its statistics (an mae tree's weighted median); NULL: the mean */
    double *p_value; /* per node: the p-value of the test that chose its split (conditional
                        inference), NaN where none; NULL: no node has one */
} tl_tree;

/* An empty tree with room for cap nodes. NULL + err on allocation failure. */
TL_API tl_tree *tl_tree_alloc(size_t k, int regression, size_t cap, tl_err *err);
TL_API void tl_tree_free(tl_tree *t);
/* Give t a value per node (t->value, zeros), for a regression tree whose nodes predict
 * something else than their mean. TL_OK or TL_ENOMEM. */
TL_API int tl_tree_keep_values(tl_tree *t, tl_err *err);
/* Record p as node's p-value (t->p_value, NaN elsewhere, made on first use). TL_ENOMEM. */
TL_API int tl_tree_set_p_value(tl_tree *t, size_t node, double p, tl_err *err);
/* Append n nodes (leaves with zero stats) and return the index of the first, or SIZE_MAX
 * with err set on allocation failure. */
TL_API size_t tl_tree_add_nodes(tl_tree *t, size_t n, size_t parent, tl_err *err);
/* Give leaf node the test s and a block of s->n_branches new leaf children (the grower's write
 * step). The child index, or SIZE_MAX with err set on allocation failure. */
TL_API size_t tl_tree_split_node(tl_tree *t, size_t node, const tl_split *s, tl_err *err);
/* Number of leaves and depth (root alone = depth 0) of the subtree at node. */
TL_API size_t tl_tree_leaves(const tl_tree *t, size_t node);
TL_API size_t tl_tree_depth(const tl_tree *t, size_t node);
/* Make node a leaf (its descendants become unreachable until tl_tree_compact). */
TL_API void tl_tree_make_leaf(tl_tree *t, size_t node);
/* Node takes the test of node from (a descendant: attribute, kind, threshold, mask, rule for
 * unknown values, levels seen, surrogates) and its children, which get node as parent; node
 * keeps its own statistics. from's former place becomes unreachable (subtree raising). */
TL_API void tl_tree_take_test(tl_tree *t, size_t node, size_t from);
/* J48's collapse: top-down, a subtree whose leaves misclassify no less training weight than
 * the node would as a leaf (within J48's 1e-3) becomes that leaf (the pruned nodes stay until
 * tl_tree_compact). For a class target. */
TL_API void tl_tree_collapse(tl_tree *t);
/* Drop unreachable nodes, renumbering in depth-first order. Returns TL_OK or TL_ENOMEM. */
TL_API int tl_tree_compact(tl_tree *t, tl_err *err);
/* Deep copy, or NULL + err. */
TL_API tl_tree *tl_tree_copy(const tl_tree *t, tl_err *err);
/* Weight at a node (sum of class counts, or the regression weight). */
TL_API double tl_tree_node_weight(const tl_tree *t, size_t node);
/* The prediction stored at a node: class distribution (k shares summing to 1) or the mean
 * (the node's value when the tree keeps values) in out[0]. A node with no weight predicts as its nearest ancestor with weight. */
TL_API void tl_tree_node_predict(const tl_tree *t, size_t node, double *out);
/* Weight the node's prediction gets wrong: misclassified weight (classification) or the
 * sum of squared errors around the mean (regression). */
TL_API double tl_tree_node_error(const tl_tree *t, size_t node);
/* Branch of a row at a split node, or -1 when its value is missing. */
TL_API int tl_tree_branch(const tl_tree *t, size_t node, const tl_dataset *d, size_t row);
/* Where a row goes at a split node: its branch when the value is known; else the first
 * surrogate that places it, else the node's rule (a branch, TL_UNKNOWN_SHARE or
 * TL_UNKNOWN_STOP; TL_UNKNOWN_HEAVIEST is resolved here from the children's weights). */
TL_API int tl_tree_route_row(const tl_tree *t, size_t node, const tl_dataset *d, size_t row);
/* The branch surrogate s sends row to (0 or 1), or -1 when it cannot place it. */
TL_API int tl_surrogate_branch(const tl_surrogate *s, const tl_dataset *d, size_t row);
/* Give node n surrogates (copied; the node's earlier ones are forgotten). TL_ENOMEM. */
TL_API int tl_tree_set_surrogates(tl_tree *t, size_t node, const tl_surrogate *s, size_t n,
                                  tl_err *err);
/* 1 when some node has surrogates or a rule other than TL_UNKNOWN_SHARE. */
TL_API int tl_tree_has_unknown_rules(const tl_tree *t);
/* Branch of a row under a candidate test not yet in a tree, or -1 when its value is missing. */
TL_API int tl_split_branch(const tl_split *s, const tl_dataset *d, size_t row);

/* Share of row that reaches node: 1 along the path of its known values, times each branch's
 * share of the training weight where a value on the path is unknown, 0 off the path. */
TL_API double tl_tree_reach_weight(const tl_tree *t, size_t node, const tl_dataset *d, size_t row);
/* Class weights of rows at every node (the row weight times its reach): out is n_nodes x k,
 * overwritten. Rows without a class are skipped. TL_EINVAL for a regression tree. */
TL_API int tl_tree_route(const tl_tree *t, const tl_dataset *d, const size_t *rows, size_t n,
                         double *out, tl_err *err);
/* Accuracy of t on rows a and on rows b (the weight it classifies right, row weights times
 * reach, over the number of rows), and its leaves. TL_EINVAL for a regression tree. */
TL_API int tl_tree_accuracies(const tl_tree *t, const tl_dataset *d, const size_t *a, size_t na,
                              const size_t *b, size_t nb, double *acc_a, double *acc_b,
                              size_t *leaves, tl_err *err);
/* The weakest-link sequence of t on the accuracy of the validation rows va, from t down to its
 * root: each step cuts the node whose pruning costs the least validation accuracy per leaf
 * removed (ties to the lowest node number). For subtree i: leaves[i], its accuracy on va and
 * on a second row set te (e.g. test rows). The arrays hold t->n_nodes values; *n gets the
 * number of subtrees. TL_ENOMEM, or tl_tree_route's error. */
TL_API int tl_tree_validation_curve(const tl_tree *t, const tl_dataset *d, const size_t *va,
                                    size_t nva, const size_t *te, size_t nte, double *leaves,
                                    double *acc_va, double *acc_te, size_t *n, tl_err *err);
/* The class a node predicts (arg max of tl_tree_node_predict, the lowest code on ties). */
TL_API size_t tl_tree_node_class(const tl_tree *t, size_t node);

/* Predict rows: classification writes n x k probabilities, regression n values. A missing
 * value goes where tl_tree_route_row says: by default down every branch weighted by the
 * branch's share of the training weight (C4.5's fractional descent). Returns TL_OK, or TL_ENOMEM (err set). */
TL_API int tl_tree_predict(const tl_tree *t, const tl_dataset *d, const size_t *rows, size_t n,
                           double *out, tl_err *err);

/* Leaf probability smoothing of a classification tree: raw weighted frequencies n_c / N
 * (the peers'), Laplace's rule (n_c + 1) / (N + k) (Weka's J48 -A), or Cestnik's (1990)
 * m-estimate (n_c + m p_c) / (N + m) with p the class distribution at the root. A branch no
 * training weight reached uses its nearest ancestor's counts, smoothed or not, as J48. */
typedef enum {
    TL_SMOOTH_NONE = 0,
    TL_SMOOTH_LAPLACE = 1,
    TL_SMOOTH_M_ESTIMATE = 2
} tl_smoothing_kind;
typedef struct tl_smoothing {
    tl_smoothing_kind kind;
    double m; /* TL_SMOOTH_M_ESTIMATE: weight of the prior, >= 0 */
} tl_smoothing;
/* The class distribution a node predicts under s (NULL: none, tl_tree_node_predict);
 * regression trees ignore s. */
void tl_tree_node_proba(const tl_tree *t, size_t node, const tl_smoothing *s, double *out);
/* tl_tree_predict with every leaf's distribution smoothed by s (NULL: none). */
int tl_tree_predict_smoothed(const tl_tree *t, const tl_dataset *d, const size_t *rows, size_t n,
                             const tl_smoothing *s, double *out, tl_err *err);

/* ---- export ---- */
/* Text in Weka's style (`attr <= 2.5: bad (15.0/2.0)`), Graphviz DOT, or if-then rules. */
TL_API int tl_tree_show(const tl_tree *t, const tl_schema *schema, tl_show_format fmt, FILE *f,
                        tl_err *err);
/* Save the arrays as libconfig settings at indent / load them back from prefix ("state").
 * Loading checks the shape (children in range, one parent per node, split kinds, finite
 * non-negative weights): NULL + TL_EPARSE naming the setting otherwise. */
TL_API int tl_tree_save(const tl_tree *t, FILE *f, int indent, tl_err *err);
/* The same settings with the arrays packed (tl_store.h): an ensemble's members, read by
 * tl_tree_load as well. */
TL_API int tl_tree_save_packed(const tl_tree *t, FILE *f, int indent, tl_err *err);
TL_API tl_tree *tl_tree_load(const tl_store *s, const char *prefix, tl_err *err);
/* Check a loaded tree against the schema it will be shown or applied with: attribute
 * indices, kinds and levels of every split, and the target's task and classes. Returns
 * TL_OK or TL_EPARSE naming the node. */
TL_API int tl_tree_check_schema(const tl_tree *t, const tl_schema *schema, tl_err *err);

#ifdef __cplusplus
}
#endif

#endif
