/* The composable tree learner's state and the preset mechanism, shared by tree.c and the
 * presets (id3.c, c45.c, cart.c). Private to algorithms/models/. */
#ifndef TL_TREE_IMPL_H
#define TL_TREE_IMPL_H

#include "treelab/tl_grow.h"
#include "treelab/tl_model.h"

/* A tree composed from plug-ins: each slot is a type and the state built from its
 * parameters, plus stopping rules; what the last fit grew and how it was pruned. */
typedef struct tl_tree_learner {
    tl_grow_params grow; /* criterion, splitters (types and states), stopping rules */
    int criterion_auto;  /* criterion = auto: gini for classes, mse for a numeric target */
    void *criterion_state, *numeric_state, *nominal_state;
    const tl_criterion_type *auto_class, *auto_reg; /* what auto resolves to */
    const tl_pruner_type *pruner;
    void *pruner_state;
    void *missing_state; /* the missing slot's (its type is grow.missing) */
    double validation_fraction;
    char *tie_break;        /* "file", or attribute names separated by commas */
    size_t *attr_order;     /* resolved from tie_break at fit (NULL: file order) */
    tl_smoothing smoothing; /* of the leaf probabilities predicted (not of the tree grown) */
    tl_tree *tree;
    tl_prune_trace trace;
} tl_tree_learner;

/* The parameters of the composable tree (slots, stopping rules, validation share, tie
 * break), for the tables of the tree and of every preset. Keys SLOT.PARAM go to the slot's
 * plug-in (tl_tree_check_params). */
#define TL_TREE_PARAMS                                                                             \
    {"criterion",                                                                                  \
     TL_PARAM_STRING,                                                                              \
     "auto",                                                                                       \
     0,                                                                                            \
     0,                                                                                            \
     NULL,                                                                                         \
     "split criterion (treelab plugins); auto: gini for classes, mse for a numeric target"},       \
        {"numeric",                                                                                \
         TL_PARAM_STRING,                                                                          \
         "numeric_threshold",                                                                      \
         0,                                                                                        \
         0,                                                                                        \
         NULL,                                                                                     \
         "splitter for numeric attributes (treelab plugins)"},                                     \
        {"nominal",                                                                                \
         TL_PARAM_STRING,                                                                          \
         "nominal_subset",                                                                         \
         0,                                                                                        \
         0,                                                                                        \
         NULL,                                                                                     \
         "splitter for nominal attributes (treelab plugins)"},                                     \
        {"pruner", TL_PARAM_STRING, "none", 0, 0, NULL, "pruner (treelab plugins)"},               \
        {"missing",                                                                                \
         TL_PARAM_STRING,                                                                          \
         "fractional",                                                                             \
         0,                                                                                        \
         0,                                                                                        \
         NULL,                                                                                     \
         "unknown values while growing and predicting (treelab plugins)"},                         \
        {"max_depth", TL_PARAM_INT, "0", 0, 1e6, NULL, "largest depth, 0 for no limit"},           \
        {"min_samples_split",                                                                      \
         TL_PARAM_DOUBLE,                                                                          \
         "2",                                                                                      \
         0,                                                                                        \
         1e12,                                                                                     \
         NULL,                                                                                     \
         "least weight a node needs to be split"},                                                 \
        {"min_samples_leaf",                                                                       \
         TL_PARAM_DOUBLE,                                                                          \
         "1",                                                                                      \
         0,                                                                                        \
         1e12,                                                                                     \
         NULL,                                                                                     \
         "least weight each of two branches of a split must hold"},                                \
        {"min_impurity_decrease",                                                                  \
         TL_PARAM_DOUBLE,                                                                          \
         "0",                                                                                      \
         0,                                                                                        \
         1e12,                                                                                     \
         NULL,                                                                                     \
         "least weighted impurity decrease a split must bring (as scikit-learn)"},                 \
        {"validation_fraction",                                                                    \
         TL_PARAM_DOUBLE,                                                                          \
         "0.3",                                                                                    \
         0.01,                                                                                     \
         0.99,                                                                                     \
         NULL,                                                                                     \
         "a pruner that needs validation rows, when the protocol names none: share of the "        \
         "training rows held out (with the fit seed)"},                                            \
        {"tie_break",                                                                              \
         TL_PARAM_STRING,                                                                          \
         "file",                                                                                   \
         0,                                                                                        \
         0,                                                                                        \
         NULL,                                                                                     \
         "order attributes are tried in, ties going to the first: file, or names separated by "    \
         "commas (the others follow in file order)"},                                              \
        {"smoothing",                                                                              \
         TL_PARAM_CHOICE,                                                                          \
         "none",                                                                                   \
         0,                                                                                        \
         0,                                                                                        \
         "none|laplace|m_estimate",                                                                \
         "leaf class probabilities: none (raw frequencies, the peers'), laplace (n_c+1)/(N+k), "   \
         "m_estimate (n_c + m p_c)/(N + m) with p the root's class distribution (Cestnik 1990)"},  \
    {                                                                                              \
        "smoothing_m", TL_PARAM_DOUBLE, "2", 0, 1e12, NULL,                                        \
            "smoothing = m_estimate: m, the weight of the prior in rows"                           \
    }

/* A preset: named defaults for the tree's parameters, and the translation of the preset's
 * own (older) parameter names into the tree's. */
typedef struct tl_tree_preset {
    const tl_param_spec *params; /* the preset's table: its own names + TL_TREE_PARAMS */
    const char *const *defaults; /* "key=value" pairs, NULL-terminated */
    /* Set the tree parameters that the preset's own names in user stand for; NULL: none. */
    int (*translate)(const tl_params *user, tl_params *out, tl_err *err);
} tl_tree_preset;

/* The tree's parameters for a preset and the user's values: the defaults, then the
 * translated preset names, then the user's tree names (SLOT.PARAM included). Choosing a
 * slot's plug-in drops the earlier stages' parameters of that slot. */
int tl_tree_resolve(const tl_tree_preset *preset, const tl_params *user, tl_params *out,
                    tl_err *err);
/* Every problem with a tree's resolved parameters, before any work: unknown names (listing
 * the valid ones), a splitter on the wrong kind, each plug-in's parameters against its
 * table and its init. */
int tl_tree_check_resolved(const tl_params *p, tl_err *err);

/* The model-type operations of every tree learner (the tree and its presets). */
void *tl_tree_learner_alloc(const tl_tree_preset *preset, const tl_params *user, tl_err *err);
int tl_tree_learner_check(const tl_tree_preset *preset, const tl_params *user, tl_err *err);
void tl_tree_learner_free(void *state);
int tl_tree_learner_fit(void *state, const tl_dataset *d, const size_t *rows, size_t n,
                        const tl_fit_ctx *ctx, tl_err *err);
int tl_tree_learner_predict(const void *state, const tl_dataset *d, const size_t *rows, size_t n,
                            double *out, tl_err *err);
int tl_tree_learner_save(const void *state, FILE *f, int indent, tl_err *err);
int tl_tree_learner_load(void *state, const tl_store *s, tl_err *err);
int tl_tree_learner_show(const void *state, const tl_schema *schema, tl_show_format fmt, FILE *f,
                         tl_err *err);
void tl_tree_learner_info(const void *state, tl_model_info *out);
int tl_tree_learner_check_schema(const void *state, const tl_schema *schema, tl_err *err);
/* The tree learners' check_data: every tie_break name is an attribute of the data. */
int tl_tree_learner_check_data(const tl_params *p, const tl_schema *schema, tl_err *err);
const tl_tree *tl_tree_learner_tree(const void *state);
const tl_prune_trace *tl_tree_learner_trace(const void *state);
void tl_tree_learner_help(FILE *f);

/* Defines the tree learner type `tl_model_ID`, called NAME in configs, from a preset: its
 * alloc and check call the shared ones with the preset. PARAMS is the preset's table
 * (PRESET.params) by name: a member of a const object is no constant expression in C, and
 * clang refuses it in a static initializer where gcc folds it. */
#define TL_TREE_LEARNER(ID, NAME_STR, SUMMARY, TASKS, PRESET, PARAMS)                              \
    static void *ID##_alloc(const tl_params *p, tl_err *err)                                       \
    {                                                                                              \
        return tl_tree_learner_alloc(&(PRESET), p, err);                                           \
    }                                                                                              \
    static int ID##_check(const tl_params *p, tl_err *err)                                         \
    {                                                                                              \
        return tl_tree_learner_check(&(PRESET), p, err);                                           \
    }                                                                                              \
    static const tl_model_type ID##_type = {                                                       \
        .name = (NAME_STR),                                                                        \
        .summary = (SUMMARY),                                                                      \
        .tasks = (TASKS),                                                                          \
        .params = (PARAMS),                                                                        \
        .alloc = ID##_alloc,                                                                       \
        .check_params = ID##_check,                                                                \
        .free = tl_tree_learner_free,                                                              \
        .fit = tl_tree_learner_fit,                                                                \
        .predict = tl_tree_learner_predict,                                                        \
        .save = tl_tree_learner_save,                                                              \
        .load = tl_tree_learner_load,                                                              \
        .show = tl_tree_learner_show,                                                              \
        .info = tl_tree_learner_info,                                                              \
        .check = tl_tree_learner_check_schema,                                                     \
        .check_data = tl_tree_learner_check_data,                                                  \
        .tree = tl_tree_learner_tree,                                                              \
        .prune_trace = tl_tree_learner_trace,                                                      \
        .help = tl_tree_learner_help,                                                              \
    };                                                                                             \
    const tl_model_type *const tl_model_##ID = &ID##_type

#endif
