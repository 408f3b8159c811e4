/* The grower's private state, shared by its steps (grow.c, grow_fit.c, grow_rows.c,
 * grow_score.c, grow_setup.c) and its views (views/). */
#ifndef TL_GROW_INTERNAL_H
#define TL_GROW_INTERNAL_H

#include <string.h>

#include "views/views.h"
#include "treelab/tl_grow.h"

/* The views a fit keeps of the rows (views/view.c decides from the splitters' requests):
 * sorted blocks, packed values, compact records, training values, sorts on demand. */
typedef struct tlg_views {
    size_t n_blocks;       /* sorted blocks per row set: n_num, or 0 when no splitter asked
                              for a sorted view (tl_grow_view then sorts on demand) */
    struct tlg_lazy *lazy; /* tl_grow_view's sorts on demand when there are no blocks */
    int packed;            /* the numeric splitter asked for TL_VIEW_VALUES / _CLASSES */
    double *tmp_x;         /* partition buffers of the packed values (packed only) */
    int *tmp_y;            /* ... and class codes (packed classification only) */
    double *train_vals;    /* per numeric slot: sorted known values (TL_VIEW_TRAIN_VALUES) */
    size_t *train_n;       /* per numeric slot: how many */
    uint32_t *train_rows;  /* per numeric slot: the rows of those values */
    /* The compact records (TL_VIEW_RECORDS), when tlg_compact_applies: nodes of at most
     * rec_cap rows keep them per numeric attribute in rec_buf (one such subtree at a time,
     * depth first); a larger node builds one attribute's records at a time in g->tmp when
     * the splitter asks (free until the partition). */
    int compact;
    unsigned rec_shift;
    double rec_gap; /* the cut bit's gap: the numeric splitter's request or TL_REC_GAP */
    size_t rec_cap;
    uint32_t *rec_buf;   /* rec_cap x n_num words, allocated while a subtree uses it */
    size_t *last_kept;   /* partition scratch: per group, where its last record came from */
    uint64_t *branch1;   /* a binary split's branch per row, a bit each (compact) */
    struct tlg_stale *stale; /* blocks partitioned when asked for (views/stale.c), or NULL */
} tlg_views;

/* The state of the grower's named steps (grow.c) for one fit, and the views it keeps. */
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
    void *prep[2];         /* what the numeric and the nominal splitter prepared for the fit */
    uint32_t *tmp;         /* partition buffer */
    unsigned char *used;   /* nominal attributes used on the current path */
    const size_t *order;   /* order attributes are tried in: p->attr_order or file order */
    size_t *file_order;    /* 0..n_attrs-1 when attr_order is NULL */
    tl_split *cand;        /* best test per attribute */
    unsigned char *has_cand;
    size_t *found, n_found; /* the attributes with a candidate, in the order tried */
    tl_tree *t;
    struct tlg_kid_pool *pool; /* per depth (grow_children.c), pool_n of them */
    size_t pool_n;
    double root_w;
    size_t n_rows;        /* rows grown on */
    int multival;         /* J48: every attribute is nominal with many levels */
    int leaf_only;        /* the missing-value method left no row to grow on: one leaf */
    /* row-form criteria (prefix_loss), each n_rows long: a row set's targets and weights,
     * their prefix losses and values, the criterion's work (TL_ROW_WORK per row), a sweep's
     * cut losses; and the loss of the node being grown */
    double *ry, *rw, *rloss, *rvalue, *rwork, *cut_left, *cut_right;
    double node_loss;
    tlg_views v;
};

/* tl_grow_view's sorts on demand when the grower keeps no sorted blocks (allocated on first
 * use, n_rows entries each: (key, row) pairs and the rows in their order). */
struct tlg_lazy {
    void *pairs;
    uint32_t *rows;
};

/* One index array of rows with the blocks kept in the same order per numeric attribute
 * (LightGBM's DataPartition): the fit's, or the fresh one a split makes when some rows go
 * down every branch. A node owns a range [begin, begin + n) of it, partitioned in place for
 * its children; block s of the range starts at s * stride + begin. */
typedef struct tlg_part {
    uint32_t *rows;   /* in increasing order within every node */
    uint32_t *sorted; /* g->v.n_blocks blocks, each by value then row, or NULL */
    double *xs;       /* n_blocks blocks of the values in sorted's order (packed), or NULL */
    int *ys;          /* ... and class codes (packed classification), or NULL */
    size_t stride;
} tlg_part;

/* The rows of one node (tl_node_rows.views): its range of a partition, and when its subtree
 * keeps compact records, its range of the records the subtree's top node built (block s at
 * rec + s * rec_stride + rec_begin). */
typedef struct tlg_rowset {
    const tlg_part *part;
    size_t begin, n;
    int unit;       /* every row weighs 1 in this node */
    uint32_t depth; /* the node's, from the root's 0 (beside unit: no room taken) */
    uint32_t *rec;  /* NULL: no records kept (not materialised) */
    size_t rec_stride, rec_begin;
} tlg_rowset;

static inline uint32_t *tlg_rows(const tlg_rowset *rs)
{
    return rs->part->rows + rs->begin;
}
/* The node's sorted block, values or class codes for numeric slot s, or NULL (not kept). */
static inline uint32_t *tlg_sorted(const tlg_rowset *rs, size_t s)
{
    return rs->part->sorted ? rs->part->sorted + s * rs->part->stride + rs->begin : NULL;
}
static inline double *tlg_xs(const tlg_rowset *rs, size_t s)
{
    return rs->part->xs ? rs->part->xs + s * rs->part->stride + rs->begin : NULL;
}
static inline int *tlg_ys(const tlg_rowset *rs, size_t s)
{
    return rs->part->ys ? rs->part->ys + s * rs->part->stride + rs->begin : NULL;
}
static inline uint32_t *tlg_rec(const tlg_rowset *rs, size_t s)
{
    return rs->rec ? rs->rec + s * rs->rec_stride + rs->rec_begin : NULL;
}

/* A split node's children, waiting on the work stack: their ranges, and what the rows sent
 * down every branch weigh in each (C4.5's fractions). Owns the fresh partition the children
 * live in when some rows go down every branch, so it is released only once the whole
 * subtree is grown. */
typedef struct tlg_children {
    size_t first, n; /* child nodes first .. first + n - 1 */
    tlg_rowset *kids;
    tlg_part *fresh; /* the children's partition when rows go down every branch, else NULL
                        (their ranges are the parent's, partitioned in place) */
    size_t n_missing;
    uint32_t *missing_rows;
    double *missing_w; /* their weight at the parent */
    double *share;     /* per child: its share of the known weight */
    int known;         /* some row's branch was known (the shares are not all 0) */
    double *stats;     /* routed by records: the children's class counts (n x k), else NULL */
    int pooled;        /* kids, share and stats are the grower's buffers for this depth */
} tlg_children;

/* Per depth of the work stack, the buffers a split's children, shares and counts live in
 * while its subtree grows (one split per depth at a time): no allocation per split. */
typedef struct tlg_kid_pool {
    tlg_rowset *kids;
    double *share, *stats;
    size_t cap; /* children they hold */
} tlg_kid_pool;

/* A partition's entries back from the buffers it dealt them into (g->tmp, g->v.tmp_x,
 * g->v.tmp_y, from their start): n of them into block and, when kept, xs and ys. */
static inline void tlg_from_tmp(const tl_grow_ctx *g, uint32_t *block, double *xs, int *ys,
                                size_t n)
{
    memcpy(block, g->tmp, n * sizeof *block);
    if (xs)
        memcpy(xs, g->v.tmp_x, n * sizeof *xs);
    if (ys)
        memcpy(ys, g->v.tmp_y, n * sizeof *ys);
}

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

/* What the splitter of the slot of kind (TL_ATTR_*) asks to be kept (views/view.c). */
tl_view_request tlg_wanted(const tl_grow_params *p, int kind);

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

/* A double's bits as an unsigned key with the same order; NaN last. */
static inline uint64_t tlg_sort_key(double v)
{
    if (v != v)
        return UINT64_MAX;
    uint64_t b;
    memcpy(&b, &v, sizeof b);
    return (b >> 63) ? ~b : b | 0x8000000000000000ull;
}

/* The value whose tlg_sort_key is key (not NaN's). */
static inline double tlg_key_value(uint64_t key)
{
    uint64_t b = (key >> 63) ? key & 0x7fffffffffffffffull : ~key;
    double v;
    memcpy(&v, &b, sizeof v);
    return v;
}

/* Packed: 12 bytes instead of 16, a quarter less memory for the sorts (x86 and ARMv8 load
 * unaligned words at full speed). */
typedef struct __attribute__((packed)) tlg_keyed_row {
    uint64_t key;
    uint32_t row;
} tlg_keyed_row;

/* Sorts a[0..n) by key, ties by row (stable on rows given in increasing order); tmp holds n
 * entries. -1 when out of memory. */
int tlg_sort_keyed(tlg_keyed_row *a, tlg_keyed_row *tmp, size_t n);

/* rows[0..n) in increasing order (the root's, before any sort by value). */
void tlg_sort_rows(uint32_t *rows, size_t n);

/* The node's rows sorted by numeric attribute slot s as a sorted block would hold them, in
 * g->lazy's buffers (views/sort.c); NULL when out of memory. */
const uint32_t *tlg_sort_node(const tl_grow_ctx *g, const tl_node_rows *node, size_t s);
void tlg_lazy_free(struct tlg_lazy *lazy);
/* Sort every numeric attribute's block once per fit (views/sort.c); with g->packed, fill
 * the value blocks xs (and class blocks ys for classification) in the same order. */
int tlg_presort(tl_grow_ctx *g, uint32_t *rows, size_t n, uint32_t *blocks, double *xs, int *ys,
                tl_err *err);
/* Depth-first growth keeps one path from the root: per depth, the range of the node split
 * there and, per block, whether the ranges at that depth (the path's node and its waiting
 * siblings) hold it sorted. A range not sorted at depth d still holds, untouched, the order
 * of the nearest sorted depth above: only a split there (partitioning it) or a refresh from
 * there (sorting every range below) moves it, and each marks the depth below sorted. */
struct tlg_stale {
    size_t n_blocks, cap; /* depths with room */
    unsigned char *fresh; /* [depth * n_blocks + s] */
    size_t *path_begin, *path_n;
    unsigned char *kept; /* [depth]: every split above on the path partitioned every block */
    uint32_t *range_of;  /* per row: the begin of the range it is in now (kept: not read) */
    uint32_t *cursor;    /* per position: a refresh's next place in the range starting there */
    size_t *asked;       /* per block: 1 + the last node that asked for it */
};

/* Blocks partitioned when asked for (views/stale.c), for a fit whose rows each go down one
 * branch: set up on the root's sorted blocks (g->v.stale stays NULL where it does not
 * apply); at a split of rs's node, the path noted before the partition, whether block s is
 * partitioned with the rows (wanted), and each child's rows noted after. TL_ENOMEM. */
int tlg_stale_setup(tl_grow_ctx *g, const tlg_rowset *root, tl_err *err);
void tlg_stale_refresh(const tl_grow_ctx *g, const tlg_rowset *rs, size_t s);
int tlg_stale_split(const tl_grow_ctx *g, const tlg_rowset *rs, size_t node, tl_err *err);
void tlg_stale_moved(const tl_grow_ctx *g, const tlg_rowset *kid);
void tlg_stale_free(struct tlg_stale *st);

/* Block s is partitioned at node's split: always, but with partitions on demand only when
 * node asked for it. */
static inline int tlg_stale_wanted(const tl_grow_ctx *g, size_t s, size_t node)
{
    return !g->v.stale || g->v.stale->asked[s] == node + 1;
}

/* A view of block s for rs's node: noted as asked for by node, made sorted there first when
 * it is not (tlg_stale_refresh). */
static inline void tlg_stale_ask(const tl_grow_ctx *g, const tlg_rowset *rs, size_t s, size_t node)
{
    struct tlg_stale *st = g->v.stale;
    st->asked[s] = node + 1;
    if (!st->fresh[rs->depth * st->n_blocks + s])
        tlg_stale_refresh(g, rs, s);
}

/* 1 when the compact records serve this fit: the numeric splitter reads them, the target is
 * nominal with codes that fit beside the row ids, the missing-value method routes nothing
 * itself, the criterion scores cuts by an impurity, and rows[0..n) all weigh 1 and have no
 * unknown value. Exposed for tests: the fit takes this path exactly when it says 1. */
int tlg_compact_applies(const tl_dataset *d, const tl_grow_params *p, const uint32_t *rows,
                        size_t n);
/* Sets g->rec_shift and g->rec_cap for n rows, allocates the scratch. TL_ENOMEM. */
int tlg_compact_setup(tl_grow_ctx *g, size_t n, tl_err *err);
/* Builds rs's records for every numeric attribute in g->rec_buf (rs->n <= g->rec_cap), and
 * makes rs the top of the subtree that keeps them; TL_ENOMEM. */
int tlg_materialise(tl_grow_ctx *g, tlg_rowset *rs, tl_err *err);
/* One numeric attribute's (slot's) records over rows[0..n) into out (n words). TL_ENOMEM. */
int tlg_attr_records(const tl_grow_ctx *g, const uint32_t *rows, size_t n, size_t slot,
                     uint32_t *out, tl_err *err);
/* Stable partition of a block of n records by the rows' groups (g->branch8 when narrow, else
 * g->branch), starting at off (advanced; groups entries), the bits recomputed for the
 * records' new neighbours; x: the attribute's values. */
void tlg_partition_records(const tl_grow_ctx *g, uint32_t *rec, size_t n, size_t *off,
                           size_t groups, int narrow, const double *x);
/* Route rs's rows by binary numeric test s from the test attribute's records: the rows with
 * a value at most the threshold (a prefix of the records) left, the others right, into
 * g->branch8 and g->branch1; counts[0..1] and the children's class counts (stats: 2 x k,
 * zero) follow, the same whole numbers as from the rows. */
void tlg_route_records(const tl_grow_ctx *g, const tlg_rowset *rs, const tl_split *s,
                       size_t *counts, double *stats);
/* Route the node's rows by the chosen test (its children already made in the tree; rows
 * with an unknown value where the missing-value method says) and hand each child its row set
 * (grow_rows.c): the parent's blocks partitioned in place when each row goes to one branch or
 * none, fresh blocks when some go down every branch. Writes nothing into the tree but the
 * missing-value method's rule for the node. */
int tlg_partition(tl_grow_ctx *g, const tl_node_rows *view, const tlg_rowset *rs, const tl_split *s,
                  tlg_children *out, tl_err *err);
/* The children's training statistics into the tree, from their row sets in order (the sums
 * the node step repeats when it grows each child), with the rows sent down every branch at
 * their share. */
void tlg_child_stats(const tl_grow_ctx *g, const tlg_children *c);
void tlg_children_free(tlg_children *c);
/* The per-depth children buffers of the fit (tlg_ctx_free). */
void tlg_children_pool_free(tl_grow_ctx *g);
/* The depth's children buffers for nb children (zeroed) into out (marked pooled: the fit
 * keeps them), and the depth's nb x k zeros for their statistics into *stats
 * (grow_children.c). TL_ENOMEM. */
int tlg_children_pooled(tl_grow_ctx *g, size_t depth, size_t nb, tlg_children *out,
                        double **stats, tl_err *err);
/* A binary numeric split of a node whose rows carry nothing with them, in two passes
 * (grow_split_two.c): 1 done (children in out, their statistics in stats), 0 when some row's
 * value is unknown (nothing moved: tlg_partition's general path takes the node). */
int tlg_split_two(tl_grow_ctx *g, size_t node, const tlg_rowset *rs, const tl_split *s,
                  double *stats, tlg_children *out);
/* The grower's loop (grow.c): grow depth first from the root's rows into g->t (its root node
 * made); with root_only, stop once the root's candidates are known (g->cand, g->has_cand). */
int tlg_run(tl_grow_ctx *g, const tlg_rowset *root, int root_only, tl_err *err);

#endif
