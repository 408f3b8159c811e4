/* Private to the soft forest learner: m soft trees trained jointly, their passes and training. */
#ifndef TL_SOFT_FOREST_IMPL_H
#define TL_SOFT_FOREST_IMPL_H

#include "soft_tree_impl.h"

/* How the leaves learn. gradient: additive trees (TEL, NODE), the sum of the trees' outputs is
 * the logit vector (classification) or the value (regression), every parameter by Adam.
 * closed_form: Kontschieder et al.'s forest, each tree a mixture of leaf class distributions
 * pi, the forest their mean; the splits by Adam on the sum of the trees' log losses, pi by the
 * closed-form update after every epoch. */
typedef enum { SF_LEAF_GRADIENT = 0, SF_LEAF_CLOSED_FORM = 1 } sf_leaf_update;

/* The forest: m nets of one shape and gate, whose parameters lie one after another in theta
 * (tree t's from t * per_tree; tree[t].theta points there, owned by the forest). */
typedef struct sf_net {
    size_t m, per_tree, n_theta;
    st_net *tree;
    double *theta;
    sf_leaf_update leaf;
    size_t n_in, n_out;
    int regression;
} sf_net;

/* m trees of the given depth, shape (full or oblivious) and gate; theta zeroed. */
int sf_net_build(sf_net *f, size_t m, size_t depth, const st_gate_type *gate,
                 const double *gate_par, const st_shape_type *shape, double beta, tl_err *err);
void sf_net_clear(sf_net *f);

/* Scratch for the passes: every tree's reach record of one row. */
typedef struct sf_work {
    st_reach e;
    size_t *at;        /* m + 1: tree t's entries from at[t] */
    double *F, *dF;    /* n_out: the forest's output of a row and its gradient */
    double *Pc;        /* m: closed_form: each tree's P(y | x) */
} sf_work;

int sf_work_alloc(sf_work *w, const sf_net *f, tl_err *err);
void sf_work_clear(sf_work *w);

/* Objective of rows X (n x n_in), targets y (class codes or standardised values), weights wt
 * (NULL: 1): the weighted mean data loss (closed_form: summed over the trees) plus
 * 0.5 * l2 * ||W||^2; with grad (n_theta values, overwritten) its gradient; *data_loss (may
 * be NULL) the data loss alone. */
double sf_objective(const sf_net *f, sf_work *w, double l2, const double *X, const double *y,
                    const double *wt, size_t n, double *grad, double *data_loss);

/* Outputs of n rows X into out (n x n_out): class probabilities, or standardised values. */
void sf_predict_rows(const sf_net *f, sf_work *w, const double *X, size_t n, double *out);

/* closed_form: `iters` rounds of the leaf update over the rows (Kontschieder et al. eq. 11):
 * pi_l(c) <- sum over rows of class c of wt pi_l(c) mu_l(x) / P_T(c | x), normalised; a leaf
 * no row reaches keeps its pi. */
int sf_leaf_closed_form(sf_net *f, sf_work *w, const double *X, const double *y, const double *wt,
                        size_t n, size_t iters, tl_err *err);

/* Training options: those of the soft tree (its objective's l2 only) and the closed form's
 * rounds per epoch. */
typedef struct sf_train_opts {
    st_train_opts base;
    size_t leaf_iters;
} sf_train_opts;

/* Initialise (tree t from its own stream of seed) and train the forest: mini-batch Adam or
 * SGD, early stopping on valid (n = 0: none) as st_train; appends to trace. */
int sf_train(sf_net *f, const sf_train_opts *o, const st_data *train, const st_data *valid,
             unsigned long seed, st_trace *trace, tl_err *err);

#endif
