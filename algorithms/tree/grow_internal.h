/* The grower's private state, shared by its steps (grow.c, grow_rows.c, grow_score.c). */
#ifndef TL_GROW_INTERNAL_H
#define TL_GROW_INTERNAL_H

#include "treelab/tl_grow.h"

struct tl_grow_ctx {
    const tl_dataset *d;
    const tl_grow_params *p;
    tl_choice_rules rules; /* the criterion's, resolved once per fit */
    size_t k;
    double *w;             /* w[row]: weight of the row in the node being processed */
    int *branch;           /* branch[row] while partitioning */
    uint8_t *branch8;      /* the same in a byte, for partitions into at most 255 groups */
    double *scratch;       /* for splitters */
    double *branch_w;      /* for tl_grow_score */
    double *parent_buf;    /* for tl_grow_score: k */
    double *miss_buf;      /* for tl_grow_score: the children and the unknown rows' statistics */
    size_t n_num;          /* numeric attributes */
    size_t *num_attr;      /* their indices */
    long *num_slot;        /* attribute -> slot in the sorted blocks, or -1 */
    size_t n_blocks;       /* sorted blocks per row set: n_num, or 0 when the numeric splitter
                            is unsorted (and nothing else needs them) */
    void *prep[2];         /* what the numeric and the nominal splitter prepared for the fit */
    struct tlg_lazy *lazy; /* tl_grow_sorted_rows' buffers when there are no blocks */
    uint32_t *tmp;         /* partition buffer */
    int packed;            /* the numeric splitter reads sorted values (tl_node_rows.sorted_x) */
    double *tmp_x;         /* partition buffers of the packed values (packed only) */
    int *tmp_y;            /* ... and class codes (packed classification only) */
    unsigned char *used;   /* nominal attributes used on the current path */
    const size_t *order;   /* order attributes are tried in: p->attr_order or file order */
    size_t *file_order;    /* 0..n_attrs-1 when attr_order is NULL */
    tl_split *cand;        /* best test per attribute */
    unsigned char *has_cand;
    tl_tree *t;
    double root_w;
    size_t n_rows;        /* rows grown on */
    int multival;         /* J48: every attribute is nominal with many levels */
    int leaf_only;        /* the missing-value method left no row to grow on: one leaf */
    double *train_vals;   /* per numeric slot: sorted known values (needs_train_values) */
    size_t *train_n;      /* per numeric slot: how many */
    uint32_t *train_rows; /* per numeric slot: the rows of those values */
    /* row-form criteria (prefix_loss), each n_rows long: a row set's targets and weights,
     * their prefix losses and values, the criterion's work (TL_ROW_WORK per row), a sweep's
     * cut losses; and the loss of the node being grown */
    double *ry, *rw, *rloss, *rvalue, *rwork, *cut_left, *cut_right;
    double node_loss;
};

/* tl_grow_sorted_rows' buffers when the grower keeps no sorted blocks (allocated on first
 * use, n_rows entries each: (key, row) pairs and the rows in their order). */
struct tlg_lazy {
    void *pairs;
    uint32_t *rows;
};

/* The rows of one node: `base` in any order, and per numeric attribute a sorted block (with,
 * when g->packed, the rows' values and class codes in the same order). */
typedef struct tlg_rowset {
    size_t n;
    uint32_t *base;
    uint32_t **sorted; /* n_num blocks */
    double **xs;       /* n_num blocks of values, or NULL */
    int **ys;          /* n_num blocks of class codes, or NULL */
    int unit;          /* every row weighs 1 in this node */
} tlg_rowset;

/* A split node's children, waiting on the work stack: their row sets and what the rows sent
 * down every branch weigh in each (C4.5's fractions). Owns the buffers the children's blocks
 * live in, so it is released only once the whole subtree is grown. */
typedef struct tlg_children {
    size_t first, n; /* child nodes first .. first + n - 1 */
    tlg_rowset *kids;
    uint32_t **ptrs; /* the kids' sorted-block pointers */
    double **xptrs;  /* the kids' value-block pointers (packed) */
    int **yptrs;     /* the kids' class-block pointers (packed classification) */
    uint32_t *fresh; /* blocks copied for the kids when some rows go down every branch */
    double *fresh_x; /* ... and their values */
    int *fresh_y;    /* ... and class codes */
    size_t n_missing;
    uint32_t *missing_rows;
    double *missing_w; /* their weight at the parent */
    double *share;     /* per child: its share of the known weight */
} tlg_children;

/* tl_grow_add_row, inline for the grower's per-row loops (the same arithmetic). */
static inline void tlg_add_row(const tl_grow_ctx *g, double *stats, uint32_t row, double w)
{
    if (g->t->regression) {
        double y = g->d->y.num[row];
        stats[0] += w;
        stats[1] += w * y;
        stats[2] += w * y * y;
    } else {
        stats[g->d->y.code[row]] += w;
    }
}

/* The combination must make sense before any work: a criterion and splitters for the task
 * and for each attribute kind (grow_setup.c). TL_EINVAL naming the reason. */
int tlg_check_params(const tl_grow_params *p, int regression, tl_err *err);
/* Every buffer of a fit on n rows but the row blocks; g->d, g->p, g->k and g->rules set.
 * TL_ENOMEM (tlg_ctx_free frees what was allocated). */
int tlg_ctx_alloc(tl_grow_ctx *g, size_t n, tl_err *err);
void tlg_ctx_free(tl_grow_ctx *g);

/* Row-form criteria: the loss of rows[0..n) around their best constant, which goes into
 * *value (grow_score.c). */
double tlg_rows_loss(const tl_grow_ctx *g, const uint32_t *rows, size_t n, double *value);

/* The node's rows sorted by numeric attribute slot s as a sorted block would hold them, in
 * g->lazy's buffers (grow_rows.c); NULL when out of memory. */
const uint32_t *tlg_sort_node(const tl_grow_ctx *g, const tl_node_rows *node, size_t s);
void tlg_lazy_free(struct tlg_lazy *lazy);
/* Sort every numeric attribute's block once per fit (grow_rows.c); with g->packed, fill
 * the value blocks xs (and class blocks ys for classification) in the same order. */
int tlg_presort(tl_grow_ctx *g, uint32_t *rows, size_t n, uint32_t *blocks, double *xs, int *ys,
                tl_err *err);
/* Route the node's rows by the chosen test (rows with an unknown value where the missing-
 * value method says) and hand each child its row set (grow_rows.c): the parent's blocks
 * partitioned in place when each row goes to one branch or none, fresh blocks when some go
 * down every branch. Sets every child's training statistics. */
int tlg_partition(tl_grow_ctx *g, const tl_node_rows *view, const tlg_rowset *rs, const tl_split *s,
                  tlg_children *out, tl_err *err);
void tlg_children_free(tlg_children *c);

#endif
