/* The plug-in contract: the fields every plug-in starts with, the types a criterion, splitter
 * or missing-value method fills in, and what the grower shows them of a node (tl_node_rows,
 * the view kinds). Elsewhere: the pruner type (tl_prune.h), the registries (tl_registry.h),
 * the grower's settings and the tl_grow_* services a plug-in calls (tl_grow.h, which
 * includes all three), sums a sweep must compute as a criterion does (tl_class_sums.h).
 *
 * A plug-in is a GSL-style type (one `const` struct per file, exported as a handle such as
 * `tl_criterion_gini`) that starts with TL_PLUGIN_FIELDS: the word used in configs, a line
 * for `treelab plugins`, its own parameter table, and init/free for a state built from those
 * parameters (rpart's `init(parms)`). The grower calls the operations and never knows which
 * plug-in it runs; adding one is its file plus one registry line (docs/architecture.md).
 *
 * API: plug-in types are `const` structs owned by whoever defines them (static in practice)
 * that must outlive any use. What the tl_grow_* getters return belongs to the grower and is
 * valid during the plug-in call only. err may be NULL everywhere.
 */
#ifndef TL_PLUGIN_H
#define TL_PLUGIN_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "treelab/tl_api.h"
#include "treelab/tl_dataset.h"
#include "treelab/tl_error.h"
#include "treelab/tl_params.h"
#include "treelab/tl_tree.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The fields every plug-in type starts with. init may be NULL (no state: NULL is passed to
 * the operations); it gets the plug-in's parameters already checked against params. */
#define TL_PLUGIN_FIELDS                                                                           \
    const char *name;            /* the word in configs and on the command line */                 \
    const char *summary;         /* one line for `treelab plugins` */                              \
    const char *reference;       /* where the method comes from */                                 \
    const tl_param_spec *params; /* its own parameters (NULL: none) */                             \
    void *(*init)(const tl_params *p, tl_err *err);                                                \
    void (*free)(void *state);                                                                     \
    /* rules across its parameters the table cannot state (NULL: none), run with the table's    \
     * check before any work, without a state: init runs once per model made, never to check */ \
    int (*check)(const tl_params *p, tl_err *err)

/* ---- criterion: scores a partition of a node's statistics ---- */

typedef struct tl_grow_ctx tl_grow_ctx;   /* the grower's state */
typedef struct tl_node_rows tl_node_rows; /* what the grower shows a plug-in of a node (below) */

/* How candidates and weights are compared, when a criterion wants more than "the highest
 * rank wins" (C4.5 / J48 does). */
typedef struct tl_choice_rules {
    int average_gain_filter; /* Quinlan: only tests with at least the average gain compete */
    double level_share;      /* J48: a nominal attribute with at least this share of the grown-on
                                rows as levels stays out of that average; 0: off */
    double slack;            /* J48's Utils.eps: a rank must beat the best by more than this
                                (and be above it), and weights compare with this slack; 0 */
    int zero_gain;           /* scikit-learn: a node that is not pure splits at its best
                                admissible test even when that decreases nothing (its
                                children may then split); 0: such a node is a leaf */
} tl_choice_rules;

/* Closed forms of an impurity that a splitter may compute inline in its sweep, or update
 * incrementally, and get exactly the bits impurity() returns (only where impurity scores the
 * cuts: not with a score of the criterion's own). */
typedef enum tl_impurity_form {
    TL_IMPURITY_OPAQUE = 0, /* known only through impurity() */
    TL_IMPURITY_GINI,       /* exactly tl_gini_impurity (tl_class_sums.h): 1 - sum (s_c / w)^2 */
    TL_IMPURITY_SHANNON     /* Shannon entropy in bits, -sum p log2 p over non-empty classes,
                               so C4.5's closed forms of the cut scan give the same test */
} tl_impurity_form;

/* Closed forms of a binary cut's score (a criterion's score, two children) that a splitter
 * may compute inline in its sweep and get exactly the bits score() returns. */
typedef enum tl_score_form {
    TL_SCORE_OPAQUE = 0, /* known only through score() */
    TL_SCORE_FRIEDMAN    /* exactly tl_friedman_score (tl_class_sums.h), on TL_REG_STATS statistics */
} tl_score_form;

typedef struct tl_criterion_type {
    TL_PLUGIN_FIELDS;
    unsigned tasks; /* TL_TASK_* */
    /* Impurity form: impurity of one node's statistics (k class weights, or TL_REG_STATS
     * values); the gain is then the weighted impurity decrease. NULL for partition criteria. */
    double (*impurity)(const double *stats, size_t k);
    /* Partition form (NULL: the impurity decrease): the worth of splitting parent into
     * n_children children (n_children x k statistics, summing to parent), larger is
     * better. Distances between the children's class distributions (Hellinger) live here.
     * A criterion may give both: impurity then serves the node (stopping, the scale of a
     * gain) and score the splits (friedman_mse). */
    double (*score)(const void *state, const double *parent, const double *children,
                    size_t n_children, size_t k);
    /* Rank a test across attributes from its gain and branch weights (the missing weight
     * counts as one more branch); NULL ranks by gain. */
    double (*rank)(const void *state, double gain, const double *branch_w, size_t n_branches,
                   double missing_w);
    /* NULL: all rules off. */
    void (*rules)(const void *state, tl_choice_rules *out);
    /* Row form (NULL for the others), for a criterion that no fixed statistics give, such as
     * the absolute error around the weighted median: for each prefix y[0..i] of n weighted
     * targets, its weighted loss around its own best constant into loss[i] and that constant
     * (what a leaf of those rows predicts) into value[i]; work holds TL_ROW_WORK doubles per
     * target. With it the grower keeps each node's value in the tree, takes the node's
     * impurity as loss / weight, and scores a test from the node's rows (tl_grow_score); a
     * threshold sweep gets every cut's losses from tl_grow_cut_losses. Such a criterion has
     * neither impurity nor score. */
    void (*prefix_loss)(const void *state, const double *y, const double *w, size_t n, double *loss,
                        double *value, double *work);
    /* The closed form impurity computes, if it is one a splitter may evaluate incrementally
     * (tl_impurity_form): a property of the function, declared by any criterion whose
     * impurity it is, never a name a splitter looks for. */
    tl_impurity_form form;
    /* Optional variable selection before any split search (conditional inference, Hothorn,
     * Hornik & Zeileis 2006): the attributes worth splitting the node on, best first, into
     * attrs (room for every attribute), and the node's p-value into *p_value (NaN: none).
     * Returns how many (0: the node stays a leaf) or a negative error code. The grower then
     * asks the splitters for these attributes only, in this order, splits on the first that
     * has an admissible test and keeps *p_value in the tree (tl_tree.p_value). */
    int (*select)(const void *state, const tl_grow_ctx *g, const tl_node_rows *node, size_t *attrs,
                  double *p_value, tl_err *err);
    /* Optional partition form for a numeric target, for a criterion that serves both tasks
     * with score (whose k statistics alone cannot tell classes from TL_REG_STATS): used
     * instead of score when the target is numeric. */
    double (*score_numeric)(const void *state, const double *parent, const double *children,
                            size_t n_children, size_t k);
    /* The closed form score computes for two children (tl_score_form), declared as form. */
    tl_score_form score_form;
} tl_criterion_type;

/* Work a row-form criterion's prefix_loss gets per target, in doubles. */
#define TL_ROW_WORK 4

/* ---- what the grower shows a plug-in of a node ---- */

/* The rows of the node being split, as the splitters see them. */
struct tl_node_rows {
    size_t n;
    const uint32_t *rows; /* the node's rows (any order) */
    const double *w;      /* w[row]: the row's weight in this node (fractional for C4.5) */
    const double *stats;  /* the node's statistics (k) */
    size_t depth;
    size_t id;         /* the node's index in the tree being grown */
    const void *views; /* the grower's: the forms of these rows it keeps (tl_grow_view) */
    int unit_weights;  /* every row of the node weighs exactly 1 (w[row] == 1) */
};

/* ---- views: the forms of a node's rows a splitter reads ---- */

/* What tl_grow_view gives for a numeric attribute of a node. */
typedef enum tl_view_kind {
    TL_VIEW_SORTED,  /* const uint32_t *: the node's rows sorted by the attribute's value,
                        unknown values last, equal values in row order */
    TL_VIEW_VALUES,  /* const double *: the values of those rows, in that order */
    TL_VIEW_CLASSES, /* const int *: their class codes in that order (a nominal target) */
    TL_VIEW_RECORDS, /* const uint32_t *: the compact records (a library splitter's:
                        algorithms/tree/views/views.h), where they serve the node */
    /* per fit, not per node: asked for here, read through tl_grow_train_values */
    TL_VIEW_TRAIN_VALUES
} tl_view_kind;

#define TL_VIEW_BIT(kind) (1u << (unsigned)(kind))

/* The views a splitter's best() will ask for, so that the grower keeps them down the tree
 * rather than building them at every node. */
typedef struct tl_view_request {
    unsigned kinds;    /* TL_VIEW_BIT()s */
    double record_gap; /* TL_VIEW_RECORDS: the cut bit marks steps of more than this (0: 1e-7,
                          scikit-learn's FEATURE_THRESHOLD; C4.5's is 1e-5) */
} tl_view_request;

/* ---- splitter: the best test on one attribute at a node ---- */
typedef struct tl_splitter_type {
    TL_PLUGIN_FIELDS;
    unsigned kinds; /* attribute kinds it handles: bits 1u << TL_ATTR_NUMERIC / NOMINAL */
    unsigned tasks; /* TL_TASK_* it handles; 0: both */
    /* Best test on attr for the node. Returns 1 and fills out, 0 when the attribute offers
     * no admissible test, or a negative tl error code (err set). */
    int (*best)(const void *state, const tl_grow_ctx *g, const tl_node_rows *node, size_t attr,
                tl_split *out, tl_err *err);
    /* The views best() asks tl_grow_view for in the slot of kind (TL_ATTR_NUMERIC or
     * _NOMINAL), into *want (zeroed): the grower keeps these down the tree. A view not asked
     * for is built on demand where it can be (TL_VIEW_SORTED, a sort of the node's rows), else
     * NULL. NULL: nothing is kept. A wrapper asks what its inner splitters ask. */
    void (*views)(const void *state, int kind, tl_view_request *want);
    /* Optional (NULL for the others): per-fit work done once, before the root is split, on
     * the rows grown on (root: rows, n, w and unit_weights; no statistics or sorted orders
     * yet), for the slot it fills (kind: TL_ATTR_NUMERIC or _NOMINAL),
     * e.g. binning every numeric attribute. *fit (NULL before the call) is then what
     * tl_grow_prepared hands the splitter during that fit, released by release(state, kind,
     * fit) when the fit ends, whatever happened. Returns TL_OK or an error code (err set). */
    int (*prepare)(const void *state, const tl_grow_ctx *g, const tl_node_rows *root, int kind,
                   void **fit, tl_err *err);
    void (*release)(const void *state, int kind, void *fit);
} tl_splitter_type;

#define TL_KIND_BIT(kind) (1u << (unsigned)(kind))

/* ---- missing: rows with an unknown value, while growing and while predicting ---- */

/* How a candidate test's worth counts the node's rows whose value is unknown. */
typedef enum {
    TL_MISSING_SCORE_SHARE = 0,   /* the gain on the known rows times their weight share
                                     (C4.5; rpart's improvement on the known rows) */
    TL_MISSING_SCORE_BEST_BRANCH, /* they join the branch where the gain is highest, last
                                     branch first on ties (scikit-learn 1.3) */
    TL_MISSING_SCORE_OWN_BRANCH   /* they form one more branch (tl_split.missing_branch) */
} tl_missing_scoring;

typedef struct tl_missing_type {
    TL_PLUGIN_FIELDS;
    int complete_rows;          /* grow on the rows with no unknown attribute value only */
    int known_rows;             /* grow on the rows with some known attribute value only
                                   (rpart's na.rpart) */
    tl_missing_scoring scoring; /* used by tl_grow_score */
    /* Once node's test s is chosen: branch[row] holds the test's branch for each row of rows
     * (-1 where its value is unknown); set those to a branch, TL_UNKNOWN_SHARE (every branch by
     * its share of the known weight, C4.5) or TL_UNKNOWN_STOP (the row stays at the node), and
     * set the node's rule for prediction: t->unknown[node] and tl_tree_set_surrogates. NULL:
     * every branch by its share, while growing and predicting. Returns TL_OK or an error. */
    int (*route)(const void *state, const tl_grow_ctx *g, tl_tree *t, size_t node,
                 const tl_node_rows *rows, const tl_split *s, int *branch, tl_err *err);
} tl_missing_type;

#ifdef __cplusplus
}
#endif

#endif
