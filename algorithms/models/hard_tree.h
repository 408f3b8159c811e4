/* What ID3, CART and C4.5 share: a grown tree plus the model-interface functions around it.
 * Private to algorithms/models/. */
#ifndef TL_HARD_TREE_H
#define TL_HARD_TREE_H

#include "treelab/tl_model.h"
#include "treelab/tl_tree.h"

typedef struct tl_hard_tree {
    tl_grow_params grow;
    const tl_pruner_type *pruner; /* applied after growing */
    tl_prune_ctx prune;           /* the pruner's parameters (data fields filled at fit) */
    int criterion_auto;           /* CART's "auto": chosen from the target at each fit */
    /* cost-complexity selection by cross-validation (CART's prune = "cv") */
    int ccp_cv;
    int ccp_1se;
    size_t ccp_folds;
    /* validation pruners: share of the training rows held out when the protocol names no
     * validation rows; the order attributes are tried in (ties go to the first) */
    double validation_fraction;
    char *tie_break;      /* "file", or attribute names separated by commas */
    size_t *attr_order;   /* resolved from tie_break at fit (NULL: file order) */
    /* the fitted tree, and what the fit learned about pruning (for reports) */
    tl_tree *tree;
    tl_ccp_path path;
    tl_ccp_cv cv;
    double chosen_alpha;
} tl_hard_tree;

/* Parameters every hard tree takes (stopping rules); the learner's table includes them. */
#define TL_HARD_TREE_STOP_PARAMS                                                               \
    {"max_depth", TL_PARAM_INT, "0", 0, 1e6, NULL, "largest depth, 0 for no limit"},           \
    {"min_samples_split", TL_PARAM_DOUBLE, "2", 0, 1e12, NULL,                                 \
     "least weight a node needs to be split"},                                                 \
    {"min_samples_leaf", TL_PARAM_DOUBLE, "1", 0, 1e12, NULL,                                  \
     "least weight each branch of a split must hold"},                                         \
    {"min_impurity_decrease", TL_PARAM_DOUBLE, "0", 0, 1e12, NULL,                             \
     "least weighted impurity decrease a split must bring (as scikit-learn)"}

/* Parameters of the validation pruners and of the attribute order, for every hard tree. */
#define TL_HARD_TREE_VALID_PARAMS                                                              \
    {"validation_fraction", TL_PARAM_DOUBLE, "0.3", 0.01, 0.99, NULL,                          \
     "prune = pre_validation | reduced_error without protocol validation rows: share of the "  \
     "training rows held out (with the fit seed)"},                                            \
    {"tie_break", TL_PARAM_STRING, "file", 0, 0, NULL,                                         \
     "order attributes are tried in, ties going to the first: file, or names separated by "    \
     "commas (the others follow in file order)"}

/* A zeroed state with the stopping rules of p read into grow (those of the stop and valid
 * parameter tables that spec holds). NULL + err. */
tl_hard_tree *tl_hard_tree_alloc(const tl_param_spec *spec, const tl_params *p, tl_err *err);
/* Grow on rows, then prune (cost-complexity CV when ccp_cv is set). */
int tl_hard_tree_fit(void *state, const tl_dataset *d, const size_t *rows, size_t n,
                     const tl_fit_ctx *ctx, tl_err *err);

/* Select the pruner called name ("pre_validation", "reduced_error", ...). */
int tl_hard_tree_set_pruner(tl_hard_tree *h, const char *name, tl_err *err);

void tl_hard_tree_free(void *state);
int tl_hard_tree_predict(const void *state, const tl_dataset *d, const size_t *rows, size_t n,
                         double *out, tl_err *err);
int tl_hard_tree_save(const void *state, FILE *f, int indent, tl_err *err);
int tl_hard_tree_load(void *state, const tl_store *s, tl_err *err);
int tl_hard_tree_show(const void *state, const tl_schema *schema, tl_show_format fmt, FILE *f,
                      tl_err *err);
void tl_hard_tree_info(const void *state, tl_model_info *out);
/* The loaded tree against the model file's schema (tl_tree_check_schema). */
int tl_hard_tree_check(const void *state, const tl_schema *schema, tl_err *err);

/* The tl_model_type members every hard tree shares (fit may be the learner's own). */
#define TL_HARD_TREE_METHODS                                                                   \
    .free = tl_hard_tree_free, .predict = tl_hard_tree_predict, .save = tl_hard_tree_save,     \
    .load = tl_hard_tree_load, .show = tl_hard_tree_show, .info = tl_hard_tree_info,      \
    .check = tl_hard_tree_check

#endif
