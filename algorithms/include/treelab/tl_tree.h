/* Hard decision trees: compact node arrays, the greedy grower, and its three plug-in
 * interfaces (criterion, splitter, pruner). */
#ifndef TL_TREE_H
#define TL_TREE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "treelab/tl_dataset.h"
#include "treelab/tl_error.h"
#include "treelab/tl_model.h"

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
    double gain;        /* impurity decrease on the known rows, times their weight share */
    double rank;        /* what selection across attributes maximises (gain, or gain ratio) */
    double known_weight, missing_weight;
} tl_split;

/* A tree as parallel arrays; node 0 is the root; the children of a node are contiguous. */
typedef struct tl_tree {
    size_t n_nodes, cap;
    size_t k;              /* statistics per node: classes, or TL_REG_STATS */
    int regression;
    int *attr;             /* split attribute, -1 for a leaf */
    unsigned char *kind;   /* tl_split_kind */
    double *threshold;
    uint64_t *mask;
    size_t *first_child;   /* first of n_children contiguous nodes */
    size_t *n_children;
    size_t *parent;        /* SIZE_MAX for the root */
    double *stats;         /* n_nodes x k weighted class counts, or (w, sum, sumsq) */
} tl_tree;

/* An empty tree with room for cap nodes. NULL + err on allocation failure. */
tl_tree *tl_tree_alloc(size_t k, int regression, size_t cap, tl_err *err);
void tl_tree_free(tl_tree *t);
/* Append n nodes (leaves with zero stats) and return the index of the first, or SIZE_MAX
 * with err set on allocation failure. */
size_t tl_tree_add_nodes(tl_tree *t, size_t n, size_t parent, tl_err *err);
/* Number of leaves and depth (root alone = depth 0) of the subtree at node. */
size_t tl_tree_leaves(const tl_tree *t, size_t node);
size_t tl_tree_depth(const tl_tree *t, size_t node);
/* Make node a leaf (its descendants become unreachable until tl_tree_compact). */
void tl_tree_make_leaf(tl_tree *t, size_t node);
/* Drop unreachable nodes, renumbering in depth-first order. Returns TL_OK or TL_ENOMEM. */
int tl_tree_compact(tl_tree *t, tl_err *err);
/* Deep copy, or NULL + err. */
tl_tree *tl_tree_copy(const tl_tree *t, tl_err *err);
/* Weight at a node (sum of class counts, or the regression weight). */
double tl_tree_node_weight(const tl_tree *t, size_t node);
/* The prediction stored at a node: class distribution (k shares summing to 1) or the mean
 * in out[0]. A node with no weight predicts as its nearest ancestor with weight. */
void tl_tree_node_predict(const tl_tree *t, size_t node, double *out);
/* Weight the node's prediction gets wrong: misclassified weight (classification) or the
 * sum of squared errors around the mean (regression). */
double tl_tree_node_error(const tl_tree *t, size_t node);
/* Branch of a row at a split node, or -1 when its value is missing. */
int tl_tree_branch(const tl_tree *t, size_t node, const tl_dataset *d, size_t row);
/* Branch of a row under a candidate test not yet in a tree, or -1 when its value is missing. */
int tl_split_branch(const tl_split *s, const tl_dataset *d, size_t row);

/* Share of row that reaches node: 1 along the path of its known values, times each branch's
 * share of the training weight where a value on the path is unknown, 0 off the path. */
double tl_tree_reach_weight(const tl_tree *t, size_t node, const tl_dataset *d, size_t row);
/* Class weights of rows at every node (the row weight times its reach): out is n_nodes x k,
 * overwritten. Rows without a class are skipped. TL_EINVAL for a regression tree. */
int tl_tree_route(const tl_tree *t, const tl_dataset *d, const size_t *rows, size_t n,
                  double *out, tl_err *err);
/* The class a node predicts (arg max of tl_tree_node_predict, the lowest code on ties). */
size_t tl_tree_node_class(const tl_tree *t, size_t node);

/* Predict rows: classification writes n x k probabilities, regression n values. A missing
 * value sends the row down every branch weighted by the branch's share of the training
 * weight (C4.5's fractional descent). Returns TL_OK, or TL_ENOMEM (err set). */
int tl_tree_predict(const tl_tree *t, const tl_dataset *d, const size_t *rows, size_t n,
                    double *out, tl_err *err);

/* ---- criterion: scores node statistics ---- */
typedef struct tl_criterion_type {
    const char *name;
    unsigned tasks; /* TL_TASK_* */
    /* Impurity of one node's statistics (k class weights, or TL_REG_STATS values). */
    double (*impurity)(const double *stats, size_t k);
    /* Rank a test across attributes from its gain and branch weights (the missing weight
     * counts as one more branch); NULL ranks by gain. */
    double (*rank)(double gain, const double *branch_w, size_t n_branches, double missing_w);
    /* Quinlan's filter: only tests with at least the average gain compete on rank. */
    int average_gain_filter;
    /* 0: the highest rank wins (ties to the attribute tried first). > 0 (J48's Utils.gr
     * slack, 1e-6): a test must rank above zero and above the best so far by more than
     * this, so near-ties go to the attribute tried first and a rank of ~0 is no test. */
    double rank_eps;
} tl_criterion_type;

/* Plug-in i of the registry (algorithms/tree/registries.c), NULL past the last. */
const tl_criterion_type *tl_criterion_at(size_t i);
const tl_criterion_type *tl_criterion_find(const char *name, tl_err *err);

/* ---- the grower ---- */
typedef struct tl_grow_ctx tl_grow_ctx;

/* The rows of the node being split, as the splitters see them. */
typedef struct tl_node_rows {
    size_t n;
    const uint32_t *rows;   /* the node's rows (any order) */
    const uint32_t *sorted; /* for a numeric attribute: the same rows sorted by its value,
                               missing values last; NULL otherwise */
    const double *w;        /* w[row]: the row's weight in this node (fractional for C4.5) */
    const double *stats;    /* the node's statistics (k) */
    size_t depth;
} tl_node_rows;

typedef struct tl_splitter_type {
    const char *name;
    tl_attr_kind kind;
    /* Best test on attr for the node. Returns 1 and fills out, 0 when the attribute offers
     * no admissible test, or a negative tl error code (err set). */
    int (*best)(const tl_grow_ctx *g, const tl_node_rows *node, size_t attr, tl_split *out,
                tl_err *err);
    /* Non-zero: the grower keeps every numeric attribute's sorted known training values
     * (tl_grow_train_values), e.g. for C4.5's threshold = a value seen in training. */
    int needs_train_values;
} tl_splitter_type;

/* Plug-in i of the registry (algorithms/tree/registries.c), NULL past the last. */
const tl_splitter_type *tl_splitter_at(size_t i);
const tl_splitter_type *tl_splitter_find(const char *name, tl_err *err);

/* Called once a node's test is chosen; return 0 to make the node a leaf instead (validation
 * pre-pruning), 1 to split, or a negative error code. rows: the node's training rows and
 * their weights in it. When it is called, the node's ancestors are split and every node
 * created so far (the node's siblings included) holds its training statistics. */
typedef int (*tl_accept_split_fn)(void *user, const tl_grow_ctx *g, const tl_tree *t,
                                  size_t node, const tl_node_rows *rows, const tl_split *s,
                                  tl_err *err);

typedef struct tl_grow_params {
    const tl_criterion_type *criterion;
    const tl_splitter_type *numeric; /* splitter for numeric attributes */
    const tl_splitter_type *nominal; /* splitter for nominal attributes */
    size_t max_depth;                /* 0: unlimited */
    double min_samples_split;        /* weight a node needs to be split */
    double min_samples_leaf;         /* weight every branch must hold */
    size_t min_leaf_branches;        /* branches that must hold min_samples_leaf (0 = all) */
    double min_impurity_decrease;    /* weighted decrease (as scikit-learn) a split needs */
    int reuse_nominal;               /* 0: a multiway nominal attribute is not reused below */
    const size_t *attr_order;        /* order attributes are tried (ties go to the first);
                                        NULL: file order */
    tl_accept_split_fn accept;       /* optional */
    void *accept_user;
    /* For splitters with options of their own (e.g. C4.5's numeric penalty). */
    const void *splitter_opts;
    /* Slack on weight comparisons (J48: 1e-6, as its Utils.sm/grOrEq): a node is a leaf when
     * its weight is below 2 min_samples_leaf - eps or all but eps of it is one class, and a
     * branch holds min_samples_leaf when its weight is >= min_samples_leaf - eps. 0: exact. */
    double weight_eps;
    /* J48: a nominal attribute with at least this share of the grown-on row count as levels
     * stays out of Quinlan's average gain (unless every attribute is such). 0: off. */
    double avg_gain_level_share;
} tl_grow_params;

/* Defaults: no limits, reuse allowed, file order, min_samples_split 2, min_samples_leaf 1. */
void tl_grow_params_init(tl_grow_params *p);

/* Grow a tree on rows[0..n) of d (row weights from d->weight, or 1). Numeric columns are
 * sorted once per call. NULL + err on failure. */
tl_tree *tl_grow(const tl_dataset *d, const size_t *rows, size_t n, const tl_grow_params *p,
                 tl_err *err);

/* The best test per attribute at the root of rows (what the grower compares before its
 * first split): cand[j] and valid[j] for every attribute j (valid 0: no admissible test).
 * For teaching (the gains table of a textbook) and for tests. */
int tl_grow_root_candidates(const tl_dataset *d, const size_t *rows, size_t n,
                            const tl_grow_params *p, tl_split *cand, int *valid, tl_err *err);

/* What splitters may use from the grow context. */
const tl_dataset *tl_grow_data(const tl_grow_ctx *g);
const tl_grow_params *tl_grow_params_of(const tl_grow_ctx *g);
size_t tl_grow_k(const tl_grow_ctx *g);
/* Scratch of at least (max levels + 3) * (k + 1) doubles, private to the current splitter call. */
double *tl_grow_scratch(const tl_grow_ctx *g);
/* Statistics of the node's rows per level of nominal attr into out (n_levels x k, zeroed
 * here); returns the weight of the rows whose value is unknown. */
double tl_grow_level_stats(const tl_grow_ctx *g, const tl_node_rows *node, size_t attr,
                           double *out);
/* The sorted known values of numeric attribute attr over all rows grown on (n of them), or
 * NULL unless the numeric splitter sets needs_train_values; *rows (if rows is not NULL) gets
 * the row of each value (equal values in row order). */
const double *tl_grow_train_values(const tl_grow_ctx *g, size_t attr, size_t *n,
                                   const uint32_t **rows);
/* Add row's statistics with weight w into stats. */
void tl_grow_add_row(const tl_grow_ctx *g, double *stats, uint32_t row, double w);
/* Gain of a partition: impurity decrease over the known rows (parent = sum of children),
 * times the known share of the node's weight; fills split->gain, known/missing weight and
 * rank. Returns 0 when the partition is not admissible (min_samples_leaf), else 1. */
int tl_grow_score(const tl_grow_ctx *g, const tl_node_rows *node, const double *children,
                  size_t n_children, double missing_w, tl_split *split);

/* ---- pruners: work on a grown tree ---- */
typedef struct tl_prune_ctx {
    const tl_dataset *d;
    const size_t *train_rows; /* the rows the tree was grown on */
    size_t n_train;
    const size_t *valid_rows; /* validation rows, for the validation pruners */
    size_t n_valid;
    double alpha;             /* cost-complexity parameter */
    int risk_error;           /* cost complexity: 1 = misclassification, 0 = impurity */
    const tl_criterion_type *criterion;
    double confidence;        /* error-based pruning (J48's -C) */
    int subtree_raising;
    int collapse;             /* error-based pruning: J48's collapse step first */
} tl_prune_ctx;

typedef struct tl_pruner_type {
    const char *name;
    /* Prune the grown tree (c->d, train_rows and, for validation pruners, valid_rows set). */
    int (*prune)(tl_tree *t, const tl_prune_ctx *c, tl_err *err);
    /* Optional pre-pruning while growing: the fit installs it as the grower's accept
     * callback with the tl_prune_ctx as user data. */
    tl_accept_split_fn accept;
    /* Non-zero: needs validation rows (the protocol's, or held out of the training rows). */
    int needs_validation;
} tl_pruner_type;

/* Plug-in i of the registry (algorithms/tree/registries.c), NULL past the last. */
const tl_pruner_type *tl_pruner_at(size_t i);
const tl_pruner_type *tl_pruner_find(const char *name, tl_err *err);

/* ---- minimal cost-complexity pruning (Breiman et al. 1984) ---- */
typedef struct tl_ccp_path {
    size_t n;       /* subtrees T0 (unpruned) ... T_{n-1} (root alone) */
    double *alpha;  /* alpha at which T_i becomes optimal (alpha[0] = 0) */
    size_t *leaves;
    double *risk;   /* R(T_i): total leaf risk, as a share of the root's weight */
} tl_ccp_path;

/* The weakest-link sequence of t. risk_error: 1 = misclassification rate (Breiman, rpart),
 * 0 = weighted impurity (scikit-learn's R(t)). Fills path (free with tl_ccp_path_free). */
int tl_ccp_path_compute(const tl_tree *t, const tl_criterion_type *crit, int risk_error,
                        tl_ccp_path *path, tl_err *err);
void tl_ccp_path_free(tl_ccp_path *path);
/* Prune t to the smallest optimal subtree for alpha. */
int tl_ccp_prune(tl_tree *t, const tl_criterion_type *crit, int risk_error, double alpha,
                 tl_err *err);

/* Cross-validated choice of alpha (Breiman's ch. 3.4): for each fold a tree is grown on the
 * other folds, pruned at the geometric midpoint of every alpha interval of the full-data
 * path, and scored on the fold. Errors are misclassification rates (classification) or
 * mean squared errors (regression), with the standard error of the mean loss. rows NULL:
 * every row of d. */
typedef struct tl_ccp_cv {
    size_t n;          /* = path->n */
    double *beta;      /* alpha tried for subtree i: sqrt(alpha_i alpha_{i+1}); the last: alpha */
    double *cv_error;
    double *cv_se;
    size_t best_min;   /* subtree with the least error (the smallest tree on ties) */
    size_t best_1se;   /* the smallest subtree within one SE of that */
} tl_ccp_cv;

int tl_ccp_cv_run(const tl_dataset *d, const size_t *rows, size_t n, const tl_grow_params *gp,
                  const tl_criterion_type *crit, int risk_error, const tl_ccp_path *path,
                  size_t folds, unsigned long seed, tl_ccp_cv *out, tl_err *err);
void tl_ccp_cv_free(tl_ccp_cv *cv);

/* ---- hard-tree models (id3, cart, c45) seen as trees ---- */
/* The fitted tree of a hard-tree model, or NULL for other learners (or before fit). */
const tl_tree *tl_model_tree(const tl_model *m);
/* The grow parameters of a hard-tree model, as resolved at its last fit, or NULL. */
const tl_grow_params *tl_model_grow_params(const tl_model *m);
/* What the last fit learned about cost-complexity pruning: path and cv are NULL when the
 * model did not choose alpha by cross-validation. Returns 0 for other learners. */
int tl_model_ccp(const tl_model *m, const tl_ccp_path **path, const tl_ccp_cv **cv,
                 double *chosen_alpha);

/* ---- export ---- */
/* Text in Weka's style (`attr <= 2.5: bad (15.0/2.0)`), Graphviz DOT, or if-then rules. */
int tl_tree_show(const tl_tree *t, const tl_schema *schema, tl_show_format fmt, FILE *f,
                 tl_err *err);
/* Save the arrays as libconfig settings at indent / load them back from prefix ("state").
 * Loading checks the shape (children in range, one parent per node, split kinds, finite
 * non-negative weights): NULL + TL_EPARSE naming the setting otherwise. */
int tl_tree_save(const tl_tree *t, FILE *f, int indent, tl_err *err);
tl_tree *tl_tree_load(const tl_store *s, const char *prefix, tl_err *err);
/* Check a loaded tree against the schema it will be shown or applied with: attribute
 * indices, kinds and levels of every split, and the target's task and classes. Returns
 * TL_OK or TL_EPARSE naming the node. */
int tl_tree_check_schema(const tl_tree *t, const tl_schema *schema, tl_err *err);

#endif
