/* What the ensemble learners share: the base learner spec (`base = NAME`, `base.PARAM`), per
 * tree seeds, trees fitted on threads, and the fitted trees' storage. Private to models/. */
#ifndef TL_ENSEMBLE_H
#define TL_ENSEMBLE_H

#include <stddef.h>
#include <stdint.h>

#include "treelab/tl_model.h"

/* The parameters every ensemble table starts with (the learner's own follow). */
#define TL_ENS_BASE_PARAMS(DEF_BASE)                                                               \
    {"base",                                                                                       \
     TL_PARAM_STRING,                                                                              \
     DEF_BASE,                                                                                     \
     0,                                                                                            \
     0,                                                                                            \
     NULL,                                                                                         \
     "the learner each member is (a tree learner: tree, cart, c45, id3; bagging: any, soft_tree "  \
     "included); its own parameters "                                                              \
     "as base.PARAM (configs: base = { name = \"tree\"; criterion = \"hellinger\"; })"},           \
    {                                                                                              \
        "jobs", TL_PARAM_INT, "0", 0, 256, NULL,                                                   \
            "threads the members are fitted on (0: the fit's --jobs, else 1); the model does not " \
            "depend on it"                                                                         \
    }

/* The base learner of an ensemble: its type and its parameters (base. stripped). */
typedef struct tl_ens_base {
    const tl_model_type *type;
    tl_params params;
} tl_ens_base;

/* The learner's own parameters (keys without "base.") into own, and the base learner (from
 * `base` or `base.algorithm`, else def_base) with defaults[] ("key=value", NULL-terminated,
 * overridden by the user's base.KEY) into base. Checks everything before any work: own
 * against spec, a base that offers a tree unless any (TL_EINVAL naming the tree learners
 * otherwise), the base's parameters against its own check. Both outputs are cleared on
 * error. */
int tl_ens_parse(const tl_param_spec *spec, const tl_params *user, const char *const *defaults,
                 int any, tl_params *own, tl_ens_base *base, tl_err *err);
void tl_ens_base_clear(tl_ens_base *b);

/* max_features as a count for n attributes: auto (sqrt for classes, all for values), sqrt,
 * log2, all, a count, or a share in (0, 1) of n, at least 1; 0 when the text is not valid. */
size_t tl_ens_max_features(const char *mf, size_t n, int regression);
/* The base's parameters for data d in out (cleared by the caller with tl_ens_base_clear): a
 * random_subset slot the user left without mtry draws max_features attributes; with
 * force_subset and fewer than all, both slots become random_subset. */
int tl_ens_resolve(const tl_ens_base *b, const char *max_features, int force_subset,
                   const tl_dataset *d, tl_ens_base *out, tl_err *err);

/* SplitMix64 of (seed, i, stream): a member's seeds (stream 0: its rows, 1: its tree). */
uint64_t tl_ens_seed(unsigned long seed, size_t i, unsigned stream);

/* Run task(user, i) for i in [0, n) on up to jobs threads (1: in order, here); which thread
 * runs which i never matters to a task that writes only its own slot. The error of the lowest
 * failing i is returned (err set from it). */
typedef int (*tl_ens_task)(void *user, size_t i, tl_err *err);
int tl_ens_parallel(size_t n, size_t jobs, tl_ens_task task, void *user, tl_err *err);

/* The threads to use: the learner's jobs when set, else the fit's, at least 1. */
size_t tl_ens_jobs(long jobs_param, const tl_fit_ctx *ctx);

/* --help: how the base learner is given. */
void tl_ens_help(FILE *f);

/* Fit one member: base on the rows with count[r] > 0 (counts NULL: all rows, weight 1), each
 * row's weight times its count, attributes restricted to attrs[0..n_attrs) when attrs is not
 * NULL (the tree's attribute indices mapped back to d's), target replaced by the numeric
 * values y_num (indexed by row, for boosting; NULL: d's target). Returns the member's tree
 * (the caller frees it) or NULL + err. */
typedef struct tl_ens_member {
    const tl_dataset *d;
    const size_t *rows;
    size_t n;
    const double *count; /* per row of d (NULL: 1) */
    const size_t *attrs; /* NULL: every attribute */
    size_t n_attrs;
    const double *y_num; /* per row of d (NULL: d's target) */
    unsigned long seed;
    struct tl_view_cache *view_cache; /* the grower's views kept across members (tl_fit_ctx), or NULL */
} tl_ens_member;
tl_tree *tl_ens_fit_member(const tl_ens_base *b, const tl_ens_member *m, tl_err *err);
/* The same member as the fitted model itself (any learner; the caller frees it), for bases
 * without a tree (the soft tree). Not with attrs or y_num: it predicts d's own rows. */
tl_model *tl_ens_fit_model(const tl_ens_base *b, const tl_ens_member *m, tl_err *err);

/* The members of a fitted ensemble. */
typedef struct tl_ens_trees {
    size_t n;
    tl_tree **t;
} tl_ens_trees;

void tl_ens_trees_clear(tl_ens_trees *tr);
int tl_ens_trees_alloc(tl_ens_trees *tr, size_t n, tl_err *err);
/* Free the members past the first n (none when it has n or fewer). */
void tl_ens_trees_truncate(tl_ens_trees *tr, size_t n);
/* trees = { n = N; t0 = { ... }; ... } at indent / read back from state.trees, each checked
 * against the schema by tl_ens_trees_check. */
int tl_ens_trees_save(const tl_ens_trees *tr, FILE *f, int indent, tl_err *err);
int tl_ens_trees_load(tl_ens_trees *tr, const tl_store *s, tl_err *err);
int tl_ens_trees_check(const tl_ens_trees *tr, const tl_schema *schema, tl_err *err);
/* A loaded ensemble's importances and classes (0: a numeric target) against the schema read
 * with it: TL_EPARSE naming the mismatch. */
int tl_ens_check_shape(size_t n_attrs, size_t classes, const tl_schema *schema, tl_err *err);
/* Mean leaves and depth (rounded), total nodes. */
void tl_ens_trees_info(const tl_ens_trees *tr, tl_model_info *out);
/* `show`: a summary line, mean size, then the first up to `first` trees in fmt. */
int tl_ens_trees_show(const tl_ens_trees *tr, const char *summary, size_t first,
                      const tl_schema *schema, tl_show_format fmt, FILE *f, tl_err *err);
/* scikit-learn's impurity importances of one tree (unnormalised: the weighted impurity
 * decrease of each split, summed per attribute, over the root's weight) added into imp
 * (n_attrs); the tree's own criterion impurity: Gini for classes, variance for values. */
void tl_ens_tree_importances(const tl_tree *t, size_t n_attrs, double *imp);

#endif
