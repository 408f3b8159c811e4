/* Private to the soft tree learner: the plug-in types (gate, shape, leaf), their registries and
 * slots, and the network they make up: the tree of soft splits and the parameter vector. */
#ifndef TL_SOFT_TREE_NET_H
#define TL_SOFT_TREE_NET_H

#include <stddef.h>
#include <stdio.h>

#include <gsl/gsl_rng.h>

#include "treelab/tl_error.h"
#include "treelab/tl_model.h"

/* Values a gate reads from its parameters (gate.NAME), at most this many. */
#define ST_GATE_PARS 2

/* A gate plug-in (soft_tree_gate_*.c): the probability p = g(z) that a split sends a row right,
 * from its logit z = beta (w.x + b). Every gate is symmetric, g(-z) = 1 - g(z), so a row goes
 * right with p > 1/2 exactly when z > 0 (hard routing). */
typedef struct st_gate_type {
    const char *name, *summary, *reference;
    const tl_param_spec *params; /* gate.NAME; NULL: none */
    /* The parameters of p (checked against params) into par[0..ST_GATE_PARS). */
    void (*init)(const tl_params *p, double *par);
    /* p = g(z) and dp = dp/dz. */
    void (*apply)(const double *par, double z, double *p, double *dp);
    /* log g(z) where g(z) underflows long before its log would (NULL: log of apply's p,
     * -inf where p is exactly 0) */
    double (*log_p)(const double *par, double z);
} st_gate_type;

extern const st_gate_type st_gate_sigmoid, st_gate_smooth_step, st_gate_entmoid;

struct st_net;
struct st_tree;
struct st_train_opts;
struct st_data;
struct st_trace;

/* A shape plug-in (soft_tree_shape_*.c): which tree is trained, and which row of the split
 * parameters each split reads. */
typedef struct st_shape_type {
    const char *name, *summary, *reference;
    const tl_param_spec *params; /* shape.NAME; NULL: none */
    int grows;                   /* grown split by split: needs validation rows */
    /* Rows of split parameters the tree needs, and the row of inner slot s; NULL: one row per
     * split, its slot. */
    size_t (*n_rows)(const struct st_tree *t);
    size_t (*row)(const struct st_tree *t, size_t s);
    /* Build net's tree (up to depth), initialise and train it. */
    int (*fit)(struct st_net *net, const struct st_train_opts *o, size_t depth,
               const struct st_data *train, const struct st_data *valid, gsl_rng *rng,
               struct st_trace *trace, tl_err *err);
    /* The parameters (checked against params) into par[0..ST_SHAPE_PARS); NULL: none. */
    void (*init)(const tl_params *p, double *par);
    /* A penalty on the split weights W (n values), its gradient added to gW when not NULL;
     * and the proximal step of that penalty after each optimiser step of size `step` (which
     * sets weights exactly to 0). NULL: none. */
    double (*penalty)(const double *par, const double *W, size_t n, double *gW);
    void (*prox)(const double *par, double step, double *W, size_t n);
} st_shape_type;

/* Values a shape reads from its parameters (shape.NAME), at most this many. */
#define ST_SHAPE_PARS 1

extern const st_shape_type st_shape_full, st_shape_incremental, st_shape_oblivious,
    st_shape_sparse;

/* Values a leaf reads from its parameters (leaf.NAME), at most this many. */
#define ST_LEAF_PARS 1

/* A leaf plug-in (soft_tree_leaf_*.c): what a leaf outputs (class logits, or a value in
 * standardised target units). Every leaf has its n_out constants phi; a leaf type may add
 * parameters of its own per leaf (theta's last block, after phi, leaf by leaf), which make
 * the output depend on the row: then the passes go row by row. */
typedef struct st_leaf_type {
    const char *name, *summary, *reference;
    const tl_param_spec *params; /* leaf.NAME; NULL: none */
    void (*init)(const tl_params *p, double *par);
    /* Parameters of a leaf past its constants, for n_in inputs and n_out outputs; NULL: none
     * (the leaf is its constants, the same for every row). */
    size_t (*n_extra)(size_t n_in, size_t n_out);
    /* Add the row-dependent part of a leaf's outputs for input x (D values) to out (K). */
    void (*add)(const double *extra, const double *x, size_t D, size_t K, double *out);
    /* Add d loss / d extra to gextra, from g = d loss / d (the leaf's outputs). */
    void (*grad)(const double *g, const double *x, size_t D, size_t K, double *gextra);
    /* The penalty on all leaves' extra parameters (n of them), its gradient added to gextra
     * when not NULL; NULL: none. */
    double (*penalty)(const double *par, const double *extra, size_t n, double *gextra);
} st_leaf_type;

extern const st_leaf_type st_leaf_constant, st_leaf_linear;

/* Gate, shape and leaf i of their registries (soft_tree_slots.c), NULL past the last; by name,
 * NULL when unknown. */
const st_gate_type *st_gate_at(size_t i);
const st_shape_type *st_shape_at(size_t i);
const st_leaf_type *st_leaf_at(size_t i);
const st_gate_type *st_gate_find(const char *name);
const st_shape_type *st_shape_find(const char *name);
const st_leaf_type *st_leaf_find(const char *name);

/* The slots' parameters (soft_tree_slots.c): p's keys without a '.' into own (TL_EINVAL for
 * a SLOT.PARAM of no slot); slot's PARAMs, the prefix stripped, into out; every problem of
 * the gate and shape named (or implied by grow) and of their compositions; the plug-ins and
 * the gate's parameter values p names; more for --help. */
int st_own_params(const tl_params *p, tl_params *own, tl_err *err);
int st_slot_params(const tl_params *p, const char *slot, tl_params *out, tl_err *err);
int st_slots_check(const tl_params *p, tl_err *err);
int st_slots_read(const tl_params *p, const st_gate_type **gate, double *gate_par,
                  const st_shape_type **shape, tl_err *err);
/* The leaf p names and its parameters, and the shape's parameters (soft_tree only). */
int st_leaf_read(const tl_params *p, const st_leaf_type **leaf, double *leaf_par, tl_err *err);
int st_shape_par_read(const tl_params *p, const st_shape_type *shape, double *par, tl_err *err);
/* The soft forest's help: the slots it takes (no incremental shape) and what it refuses. */
void st_forest_slots_help(FILE *f);
void st_slots_help(FILE *f);
int st_plugin_at(size_t i, tl_model_plugin *out);        /* tl_model_type.plugin_at */
int st_forest_plugin_at(size_t i, tl_model_plugin *out); /* the forest's: no leaf */

/* A binary tree of soft splits. Nodes are numbered so that a parent comes before its
 * children (the root is node 0), which lets the forward pass run in one sweep and the
 * backward pass in one reverse sweep. slot[i] is node i's row in W/b (inner) or phi (leaf),
 * numbered in node order. */
typedef struct st_tree {
    size_t n_nodes, n_inner, n_leaves;
    int *left, *right; /* children; -1 for a leaf */
    int *slot;
    int *depth; /* root 0 */
    /* Per inner slot s: positions of its children in a row of path probabilities laid out
     * [inner slots | leaf slots] (an inner node at its slot, a leaf at n_inner + slot),
     * kid[2s] left and kid[2s+1] right; and its depth. Inner slots follow node order, so a
     * sweep over slots visits parents first. */
    int *kid;
    int *slot_depth;
} st_tree;

/* The depth of `depth = auto` for a target of `classes` classes (1 for regression) and
 * `rows` training rows: 4 up to 4 classes, else ceil(log2 classes) + 3; capped at
 * floor(log2 rows) - 2 (at least 1). */
size_t st_auto_depth(size_t classes, size_t rows);

/* The full binary tree of the given depth (heap order: children of i are 2i+1, 2i+2). */
int st_tree_full(st_tree *t, size_t depth, tl_err *err);
/* A tree from child arrays of n nodes (parent before child); copies them. */
int st_tree_from_children(st_tree *t, const int *left, const int *right, size_t n, tl_err *err);
void st_tree_clear(st_tree *t);
size_t st_tree_max_depth(const st_tree *t);

/* The network: tree, sizes and the flat parameter vector
 * theta = [ W (n_inner x n_in, row-major) | b (n_inner) | phi (n_leaves x n_out) ].
 * Classification: phi are leaf logits (n_out = classes). Regression: phi are leaf values
 * (n_out = 1) in standardised target units. */
typedef struct st_net {
    st_tree tree;
    size_t n_in, n_out;
    int regression;
    double beta;
    int single; /* float32 passes (the parameters stay double) */
    double *theta;
    size_t n_theta;
    /* The gate (NULL: sigmoid) and its parameters; the shape (NULL: full). */
    const st_gate_type *gate;
    double gate_par[ST_GATE_PARS];
    const st_shape_type *shape;
    double shape_par[ST_SHAPE_PARS];
    size_t n_split; /* rows of W and b (st_net_alloc_theta): n_inner unless the shape shares */
    int distill;    /* training on soft targets (st_data.q): the row passes, which read them */
    /* The leaf (NULL: constant) and its parameters; its extra parameters per leaf. */
    const st_leaf_type *leaf;
    double leaf_par[ST_LEAF_PARS];
    size_t n_extra;
} st_net;

/* Whether net runs today's passes over whole batches (soft_tree_net.c): the sigmoid gate, one
 * split row per split. Else the passes go row by row (soft_tree_rows.c) and skip every subtree
 * a row reaches with path probability exactly 0. */
static inline int st_net_dense(const st_net *n)
{
    return (!n->gate || n->gate == &st_gate_sigmoid) && (!n->shape || !n->shape->row) &&
           !n->distill && !n->n_extra;
}

/* The split-parameter row of inner slot s. */
static inline size_t st_split_row(const st_net *n, size_t s)
{
    return n->shape && n->shape->row ? n->shape->row(&n->tree, s) : s;
}

/* Size theta for the tree already in net (n_in, n_out set); theta zeroed. */
int st_net_alloc_theta(st_net *net, tl_err *err);
void st_net_clear(st_net *net);
/* Offsets into theta. */
static inline double *st_W(const st_net *n)
{
    return n->theta;
}
static inline double *st_b(const st_net *n)
{
    return n->theta + n->n_split * n->n_in;
}
static inline double *st_phi(const st_net *n)
{
    return st_b(n) + n->n_split;
}
/* The leaves' extra parameters (st_leaf_type.n_extra), n_extra per leaf. */
static inline double *st_extra(const st_net *n)
{
    return st_phi(n) + n->tree.n_leaves * n->n_out;
}

#endif
