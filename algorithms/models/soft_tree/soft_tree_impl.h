/* Private to the soft tree learner: batch scratch and passes, training, input encoding, the
 * learner's state and its files (the plug-in types and the network: soft_tree_net.h). */
#ifndef TL_SOFT_TREE_IMPL_H
#define TL_SOFT_TREE_IMPL_H

#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include <gsl/gsl_rng.h>

#include "treelab/tl_dataset.h"
#include "treelab/tl_error.h"
#include "treelab/tl_model.h"
#include "treelab/tl_store.h"

#include "soft_tree_net.h"

/* The vectorised loops (exp, the passes, Adam) run as AVX2 where the processor has it: each
 * such function is compiled twice and picked at load time. Without FMA contraction
 * (-ffp-contract=off) both give the same bits. The clones must be static, each behind an
 * exported function: clang 14 names an exported clone's dispatcher name.ifunc, which callers
 * in other files do not find. */
#if defined(__x86_64__) && defined(__has_attribute)
#if __has_attribute(target_clones)
#define ST_CLONES __attribute__((target_clones("avx512f", "avx2", "default")))
#endif
#endif
#ifndef ST_CLONES
#define ST_CLONES
#endif

typedef enum { ST_LOSS_MIXTURE = 0, ST_LOSS_EXPECTED = 1 } st_loss_kind;
typedef enum {
    ST_PREDICT_MIXTURE = 0,
    ST_PREDICT_MAX_PATH = 1,
    ST_PREDICT_HARD = 2
} st_predict_kind;

/* Sums over a batch's rows run in ST_LANES fixed lanes, folded in a fixed order: the same
 * result every time and in every clone, from loops the compiler vectorises without
 * reassociating (eight doubles: one AVX-512 register, two AVX2 ones). */
#define ST_LANES 8
static inline double st_fold(const double u[ST_LANES])
{
    return ((u[0] + u[1]) + (u[2] + u[3])) + ((u[4] + u[5]) + (u[6] + u[7]));
}

/* Keeps log(a) finite when a split routes a whole batch one way (large beta; and the gates
 * that reach 0 and 1). */
#define ST_A_EPS 1e-12

typedef enum { ST_OPT_ADAM = 0, ST_OPT_SGD = 1 } st_optimizer;

/* Options of the objective. */
typedef struct st_objective {
    st_loss_kind loss;
    double lambda; /* balance penalty */
    double l2;     /* 0.5 * l2 * ||W||^2 */
} st_objective;

/* Scratch of one precision for batches of up to cap rows. Node arrays are node-major: the B
 * rows of a batch lie together, row r of inner slot (or node position) s at [s * B + r], so
 * every step of a pass runs over contiguous rows, which the compiler vectorises, and the
 * leaves' path probabilities form one L x B matrix for the products. */
#define ST_BUFS(T)                                                                                 \
    struct {                                                                                       \
        T *p;             /* n_inner x B: routing probabilities p_s(x) */                          \
        T *P, *gP;        /* n_nodes x B: path probabilities (inner, then leaf slots), gradient */ \
        T *gz;            /* n_inner x B: gradient of the pre-beta logits */                       \
        T *Y, *dY;        /* n_out x B: the mixture output and its gradient */                     \
        T *Q, *logQ, *gQ; /* n_leaves x n_out: softmax(phi) (regression: phi), log, gradient */    \
        T *X, *wt;        /* the batch: n_in x B inputs (feature-major), row weights */            \
        T *theta, *grad;  /* float only: the parameters rounded to float, their gradient */        \
    }
typedef ST_BUFS(double) st_bufs_d;
typedef ST_BUFS(float) st_bufs_f;

/* The row-by-row passes' record of a batch (soft_tree_rows.c): every node a row reaches, in
 * the order reached (parents first), row r's from start[r] to start[r + 1]: its position in
 * [inner slots | leaf slots], path probability P, routing probability p and dp/dz (inner),
 * the entries of its children (-1: not reached) and the gradient of P. */
typedef struct st_reach {
    int *pos, *kid;
    double *P, *p, *dp, *g;
    size_t *start;
    /* The soft tree's row passes: W and a row's inputs with rows padded by zeros to D8, a
     * multiple of ST_LANES, so a dot product runs in whole vectors (NULL in the forest's). */
    double *W8, *x8;
    size_t D8;
} st_reach;

/* Batch scratch for one net: its d buffers are allocated, or its f ones when net->single. */
typedef struct st_work {
    size_t cap;
    st_bufs_d d;
    st_bufs_f f;
    double *lq; /* leaves with extra parameters: 3 x n_leaves x n_out, one row's Q, logQ, gQ */
    double *a;  /* 3 x n_inner: balance statistics */
    double *yb; /* the batch's targets */
    double *qb; /* cap x n_out: the batch's soft targets, when `soft` */
    int soft;
    st_reach e; /* the row-by-row passes only */
} st_work;

int st_work_alloc(st_work *w, const st_net *net, size_t cap, tl_err *err);
void st_work_clear(st_work *w);

/* Objective on a batch: weighted-mean data loss + balance penalty + L2. y holds class codes
 * (as doubles) or standardised targets; wt are row weights or NULL. When grad is non-NULL
 * it receives the gradient (n_theta values, overwritten). *data_loss (may be NULL) gets the
 * data loss alone. Returns the objective. B <= w->cap. */
double st_objective_grad(const st_net *net, const st_objective *obj, st_work *w, const double *X,
                         const double *y, const double *wt, size_t B, double *grad,
                         double *data_loss);

/* Data loss alone (weighted mean) over n rows, evaluated in batches of w->cap. */
double st_data_loss(const st_net *net, st_loss_kind loss, st_work *w, const double *X,
                    const double *y, const double *wt, size_t n);

/* Predictions for n rows: n x n_out class probabilities, or n standardised values. */
void st_predict_rows(const st_net *net, st_predict_kind mode, st_work *w, const double *X, size_t n,
                     double *out);

/* Training data already encoded: X (n x n_in), y, optional weights; optional soft targets q
 * (n x n_out class probabilities, a teacher's: the loss is then their cross-entropy with the
 * tree's, and only the row passes, net->distill, read them). */
typedef struct st_data {
    const double *X, *y, *wt;
    size_t n;
    const double *q;
} st_data;

/* Rows idx[0..B) of d (its first B rows when idx is NULL) into the batch buffers in the net's
 * precision (soft_tree_net.c); then st_batch_grad: the objective of that batch as
 * st_objective_grad computes it. */
void st_gather(const st_net *net, st_work *w, const st_data *d, const size_t *idx, size_t B);
double st_batch_grad(const st_net *net, const st_objective *obj, st_work *w, size_t B, double *grad,
                     double *data_loss);

/* The row-by-row passes (soft_tree_rows.c), for nets that are not st_net_dense, double only:
 * the objective of the batch st_gather left in w (row-major inputs), as st_batch_grad; and
 * predictions of B rows X (row-major) into out (B x n_out). */
double st_rows_objective(const st_net *net, const st_objective *obj, st_work *w, size_t B,
                         double *grad, double *data_loss);
void st_rows_predict(const st_net *net, st_predict_kind mode, st_work *w, const double *X, size_t B,
                     double *out);
/* Every node row x reaches, recorded in e from entry `at` on (parents first; the root at `at`),
 * with its path probability, gate value and derivative and its children's entries; returns
 * the entry past the last (e needs two entries to spare past it). bal: see soft_tree_rows.c. */
size_t st_reach_row(const st_net *net, const double *x, double wr, st_reach *e, size_t at,
                    double *bal);
/* Pieces of the dense passes the row passes share (soft_tree_net.c, double): the leaves'
 * outputs from phi into w->d.Q and w->d.logQ; the balance penalty from the sums in w->a (see
 * penalty_d); the leaf parameters' gradient from w->d.gQ. */
void st_leaf_outputs(const st_net *net, st_work *w);
/* softmax(f) and its log, K values (Q may be f), as the leaves' outputs are computed. */
void st_softmax_row(const double *f, size_t K, double *Q, double *logQ);
double st_penalty(const st_net *net, double lambda, st_work *w);
void st_leaf_grad(const st_net *net, st_loss_kind loss, st_work *w, double *gphi);

/* The routing logits Z = beta (W XT + b) (M x B) of a feature-major batch XT (D x B), and the
 * weight gradient gW = gz XT^T (M x D) from gz (M x B), all row-major (soft_tree_gemm.c). */
void st_logits_d(size_t M, size_t B, size_t D, double beta, const double *W, const double *bias,
                 const double *XT, double *Z);
void st_logits_f(size_t M, size_t B, size_t D, float beta, const float *W, const float *bias,
                 const float *XT, float *Z);
void st_wgrad_d(size_t M, size_t D, size_t B, const double *gz, const double *XT, double *gW);
void st_wgrad_f(size_t M, size_t D, size_t B, const float *gz, const float *XT, float *gW);
/* Whether this processor runs the products' own kernels (AVX-512); else they are BLAS calls.
 * st_gemm_force_blas(1) makes them BLAS calls everywhere: for tests, before any fit. */
int st_gemm_has_kernels(void);
void st_gemm_force_blas(int on);

/* Exp, sigmoid and log-sigmoid over arrays (soft_tree_exp.c), vectorised: within 2 ulp of
 * libm's exp in double, 1 in float; the sigmoids work in place; log-sigmoid's out must not
 * overlap z. */
void st_vexp(const double *x, double *y, size_t n);
void st_vexp_f(const float *x, float *y, size_t n);
void st_vsigmoid(double *z, size_t n);
void st_vsigmoid_f(float *z, size_t n);
void st_vlog_sigmoid(const double *z, double *out, size_t n);
void st_vlog_sigmoid_f(const float *z, float *out, size_t n);

/* Training options. */
typedef struct st_train_opts {
    st_objective obj;
    st_optimizer optimizer;
    double learning_rate;
    size_t batch_size, epochs, patience;
    double init_scale; /* spread of the initial leaf parameters */
    double anneal;     /* beta's factor after each epoch (1: none) */
} st_train_opts;

/* Per-epoch trace: rows of (epoch, train_loss, valid_loss). Grows as training runs. */
typedef struct st_trace {
    double *v;
    size_t n_rows, cap;
} st_trace;

/* Random initial parameters for every node (W, b uniform in +-1/sqrt(n_in), leaf parameters
 * normal with sd init_scale). */
void st_init_params(st_net *net, double init_scale, gsl_rng *rng);

/* Train net in place with mini-batch Adam or SGD. valid may have n = 0 (no early stopping:
 * every epoch runs and the last weights stay). Otherwise stops after `patience` epochs
 * without a lower validation loss and restores the best weights. *best_valid gets the
 * best validation loss (or the last training loss without validation). Appends to trace
 * (may be NULL). */
int st_train(st_net *net, const st_train_opts *o, const st_data *train, const st_data *valid,
             gsl_rng *rng, st_trace *trace, double *best_valid, tl_err *err);

/* Irsoy et al.'s incremental growth up to max_depth: start from one leaf; repeatedly try
 * splitting each leaf, retraining the whole tree from the current weights, and keep the
 * split that lowers the validation loss most; stop when none does. Replaces net's tree. */
int st_grow_incremental(st_net *net, const st_train_opts *o, size_t max_depth, const st_data *train,
                        const st_data *valid, gsl_rng *rng, st_trace *trace, tl_err *err);

/* An optimiser's state over n_theta parameters, shared by the soft tree and the soft forest:
 * the batch gradient, Adam's moments, the best parameters seen on validation, the row order
 * shuffled each epoch and the step count. */
typedef struct st_optim {
    double *grad, *m, *v, *best;
    size_t *order;
    size_t n_theta, t;
} st_optim;

/* order starts as 0..n_rows-1 and best as theta. */
int st_optim_alloc(st_optim *o, const double *theta, size_t n_theta, size_t n_rows, tl_err *err);
void st_optim_clear(st_optim *o);
/* One SGD or Adam step (PyTorch's defaults) on theta along o->grad, as opts choose. */
void st_optim_step(st_optim *o, const st_train_opts *opts, double *theta);

/* Early stopping on the validation loss, shared by the soft tree and the soft forest: the best
 * loss seen, the epochs since, and when to stop (patience epochs without a lower loss; 0
 * never; off: no validation rows, never). */
typedef struct st_stopper {
    double best;
    size_t since, patience;
    int on;
} st_stopper;

static inline st_stopper st_stopper_start(int on, size_t patience)
{
    return (st_stopper){.best = INFINITY, .patience = patience, .on = on};
}

/* Records an epoch's validation loss vl; at a new best copies theta (n values) into best and
 * returns 1. */
static inline int st_stopper_see(st_stopper *s, double vl, const double *theta, double *best,
                                 size_t n)
{
    if (!(vl < s->best)) {
        s->since++;
        return 0;
    }
    s->best = vl;
    s->since = 0;
    memcpy(best, theta, n * sizeof *best);
    return 1;
}

static inline int st_stopper_done(const st_stopper *s)
{
    return s->on && s->patience && s->since >= s->patience;
}

int st_trace_push(st_trace *t, double epoch, double train_loss, double valid_loss, tl_err *err);
/* The trace as a model type's trace operation gives it. */
int st_trace_view(const st_trace *t, const char *const **col_names, size_t *n_cols,
                  const double **values, size_t *n_rows);
void st_trace_clear(st_trace *t);

/* Input encoding: numeric attributes standardised with the training mean and sd, nominal
 * attributes one-hot; a missing cell takes the training mean (numeric, i.e. 0 after
 * standardising) or the mode's indicator (nominal). */
typedef struct st_encoder {
    size_t n_in;       /* encoded width */
    int *attr;         /* per encoded column: source attribute */
    int *level;        /* per encoded column: nominal level, -1 for numeric */
    double *mean, *sd; /* per encoded column (one-hot columns: 0 and 1) */
    size_t n_attrs;
    int *mode; /* per source attribute: nominal mode, -1 for numeric */
} st_encoder;

/* The mean of n values and their sample sd (0 for fewer than two). */
void st_mean_sd(const double *x, size_t n, double *mean, double *sd);

/* Rows predicted in batches of at most ST_PREDICT_BATCH (st_predict_cap(n) of them): each
 * batch encoded by e, then scored by score(ctx, X, B, out + K * first row); regression
 * outputs (K = 1) put back on the target's scale. */
#define ST_PREDICT_BATCH 256
size_t st_predict_cap(size_t n);
int st_predict_batched(const st_encoder *e, size_t K, int regression, double y_mean, double y_sd,
                       const tl_dataset *d, const size_t *rows, size_t n,
                       void (*score)(const void *ctx, const double *X, size_t B, double *out),
                       const void *ctx, double *out, tl_err *err);

int st_encoder_fit(st_encoder *e, const tl_dataset *d, const size_t *rows, size_t n, tl_err *err);
/* Encode rows into X (n x n_in, row-major). */
void st_encoder_apply(const st_encoder *e, const tl_dataset *d, const size_t *rows, size_t n,
                      double *X);
void st_encoder_clear(st_encoder *e);

/* Hold out a stratified share f of rows[0..n) (shuffled by rng) into va, the rest into tr. */
int st_split_rows(const tl_dataset *d, const size_t *rows, size_t n, double f, gsl_rng *rng,
                  size_t *tr, size_t *n_tr, size_t *va, size_t *n_va, tl_err *err);
/* Encoded inputs, targets (standardised for regression) and weights of some rows. */
typedef struct st_encoded {
    double *X, *y, *wt, *q;
    st_data data;
} st_encoded;
int st_encode_rows(const st_encoder *enc, int regression, double y_mean, double y_sd,
                   const tl_dataset *d, const size_t *rows, size_t n, st_encoded *e, tl_err *err);
void st_encoded_clear(st_encoded *e);
/* A fit's rows (of a soft tree or forest) prepared: validation rows (the protocol's, else a
 * stratified share f held out by rng, else none), the target's scaling, the encoder fitted on
 * the training rows (into tr, *n_tr of them; tr holds n), both sets encoded. */
int st_prepare(const tl_dataset *d, const size_t *rows, size_t n, const tl_fit_ctx *ctx, double f,
               gsl_rng *rng, int regression, st_encoder *enc, double *y_mean, double *y_sd,
               size_t *tr, size_t *n_tr, st_encoded *etr, st_encoded *eva, tl_err *err);
/* The mean and sd (1 when not positive) of the target of rows, for regression (else 0, 1);
 * buf holds n values. */
void st_target_stats(int regression, const tl_dataset *d, const size_t *rows, size_t n,
                     double *buf, double *y_mean, double *y_sd);

/* The learner's state. */
typedef struct soft_tree {
    /* options */
    size_t depth;   /* of the last fit when depth_auto */
    int depth_auto; /* depth = "auto": st_auto_depth at fit */
    double beta, valid_fraction;
    st_predict_kind predict;
    const st_gate_type *gate;
    double gate_par[ST_GATE_PARS];
    const st_shape_type *shape;
    const st_leaf_type *leaf;
    double leaf_par[ST_LEAF_PARS], shape_par[ST_SHAPE_PARS];
    int single; /* precision = "float" */
    st_train_opts opts;
    /* fitted */
    st_net net;
    st_encoder enc;
    double y_mean, y_sd; /* regression targets are trained standardised */
    st_trace trace;
    /* distillation: the user's parameters (teacher.*), the temperature, the fitted teacher */
    tl_params all;
    double temperature;
    tl_model *teacher;
} soft_tree;

/* Distillation (soft_tree_distill.c). The teacher p names (teacher, or teacher.algorithm; NULL
 * for none) and its parameters (teacher.PARAM) into tp (cleared by the caller). */
int st_teacher_spec(const tl_params *p, const char **name, tl_params *tp, tl_err *err);
/* Every problem of the teacher p names, before any work. */
int st_teacher_check(const tl_params *p, tl_err *err);
/* With a teacher in p: fit it on rows of d (seed and jobs of ctx) into *teacher; its class
 * probabilities p^(1/temperature), normalised, into e->q and e->data.q, or its values,
 * standardised by y_mean and y_sd, into e->y. Without one: nothing (*teacher NULL). */
int st_teacher_targets(const tl_params *p, double temperature, const tl_dataset *d,
                       const size_t *rows, size_t n, const tl_fit_ctx *ctx, st_encoded *e,
                       double y_mean, double y_sd, tl_model **teacher, tl_err *err);

/* Pieces of the model file a soft forest shares (soft_tree_store.c): the target's kind and
 * scaling and the encoder (written and read), the trace, and the encoder against a schema. */
void st_save_head(FILE *f, int indent, int regression, size_t n_out, double y_mean, double y_sd,
                  const st_encoder *e);
int st_read_head(const tl_store *s, int *regression, size_t *n_out, double *y_mean, double *y_sd,
                 tl_err *err);
int st_read_encoder(st_encoder *e, const tl_store *s, tl_err *err);
int st_read_trace(st_trace *t, const tl_store *s, tl_err *err);
int st_check_encoder(const st_encoder *e, const char *learner, int regression, size_t n_out,
                     const tl_schema *schema, tl_err *err);

/* A nominal attribute is one-hot encoded, one input a level, and the encoded training rows
 * are held at once: 100,000 levels asked for 80 GB at 100,000 rows. */
#define ST_MAX_LEVELS 1000
/* TL_EINVAL naming the first nominal attribute of schema with more levels than ST_MAX_LEVELS
 * (tl_model_type.check_data of the soft tree and forest; learner and noun name them). */
int st_check_levels(const char *learner, const char *noun, const tl_schema *schema, tl_err *err);

/* tl_model_type hooks living in soft_tree_store.c and soft_tree_show.c. */
int st_save(const void *state, FILE *f, int indent, tl_err *err);
int st_load(void *state, const tl_store *s, tl_err *err);
/* The loaded encoder and outputs against the schema (tl_model_type.check). */
int st_check(const void *state, const tl_schema *schema, tl_err *err);
int st_show(const void *state, const tl_schema *schema, tl_show_format fmt, FILE *f, tl_err *err);

#endif
