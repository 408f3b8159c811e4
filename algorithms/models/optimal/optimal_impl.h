/* Internals of the optimal tree learner: the binarised view, the solver's results and its
 * arena, shared by the binariser, the depth-two solver, the search and the model type. */
#ifndef TL_OPTIMAL_IMPL_H
#define TL_OPTIMAL_IMPL_H

#include <stddef.h>
#include <stdint.h>

#include "treelab/tl_dataset.h"
#include "treelab/tl_error.h"

/* One binary feature: b(x) = 1 when a numeric x > threshold, or a nominal x is level. */
typedef struct opt_feature {
    size_t attr;
    int nominal;
    double threshold; /* numeric */
    int level;        /* nominal: the level that makes the feature 1 */
} opt_feature;

/* The training rows as binary features (a row's bits, and the features it has as a sorted
 * list for counting pairs), their classes and weights. Row r is the fit's rows[r]. */
typedef struct opt_data {
    size_t n_rows, n_feat, k, words;
    opt_feature *feat;
    uint64_t *bits;    /* n_rows x words */
    uint32_t *off;     /* n_rows + 1 offsets into present */
    uint32_t *present; /* features that are 1, ascending, row by row */
    int *cls;          /* class code of each row */
    double *w;         /* weight of each row */
    int unit_weights;  /* every weight is an integer: counts may be updated incrementally */
} opt_data;

static inline int opt_bit(const opt_data *d, size_t row, size_t f)
{
    return (int)((d->bits[row * d->words + f / 64] >> (f % 64)) & 1u);
}

/* Binarise rows of ds by rule ("midpoints" or "quantiles:K" over the known values):
 * nominal attributes one feature per level (one for two levels), numeric ones a cut per
 * threshold. An unknown value makes every feature of its attribute 0, or (refuse) is
 * TL_EINVAL naming the attribute and row. TL_ENOMEM. */
int opt_data_build(opt_data *d, const tl_dataset *ds, const size_t *rows, size_t n,
                   const char *rule, int refuse, tl_err *err);
void opt_data_clear(opt_data *d);
/* TL_OK when rule is "midpoints" or "quantiles:K" with 2 <= K <= 1024, else TL_EINVAL. */
int opt_rule_check(const char *rule, tl_err *err);

/* A solved (sub)tree: feature -1 for a leaf. Lives in the solver's arena. */
typedef struct opt_sol {
    double cost; /* misclassified weight + lambda per leaf */
    int feat;
    const struct opt_sol *child[2]; /* branch 0: feature 0, branch 1: feature 1 */
} opt_sol;

/* Bump allocator: everything the search makes is freed at once. */
typedef struct opt_arena {
    struct opt_chunk *head;
} opt_arena;
void *opt_arena_alloc(opt_arena *a, size_t size);
void opt_arena_clear(opt_arena *a);

/* The search's cache of row sets (cache.c). Entries live in the arena; the table and the
 * row keys are the cache's (opt_cache_clear). */
typedef struct opt_entry opt_entry;
typedef struct opt_cache {
    const opt_data *d;
    opt_arena *arena;
    uint64_t *zobrist; /* a random word per row: a row set's key is their xor */
    opt_entry **table; /* open addressing, a power of two */
    size_t cap, used;
} opt_cache;
int opt_cache_init(opt_cache *c, const opt_data *d, opt_arena *arena); /* TL_ENOMEM */
void opt_cache_clear(opt_cache *c);
uint64_t opt_cache_hash(const opt_cache *c, const uint32_t *rows, size_t n);
/* The entry of rows (ascending), or NULL. */
opt_entry *opt_cache_find(const opt_cache *c, uint64_t h, const uint32_t *rows, size_t n);
/* A lower bound at (depth, nodes) from what e (may be NULL) knows: anything solved or bounded
 * with at least that much room costs no more; *sol gets an optimal tree for exactly (depth,
 * nodes), or NULL. */
double opt_cache_bound(const opt_entry *e, int depth, int nodes, const opt_sol **sol);
/* MurTree's similarity bound: removing rows lowers the error by at most their weight, so e's
 * bound less the weight of e's rows that rows lacks bounds rows (0 when nothing is left). */
double opt_cache_similar(const opt_cache *c, const opt_entry *e, const uint32_t *rows, size_t n,
                         int depth, int nodes);
/* Record an optimal tree (sol) or a lower bound (sol NULL) for rows at (depth, nodes), in *e
 * (made when NULL). TL_ENOMEM. */
int opt_cache_put(opt_cache *c, opt_entry **e, uint64_t h, const uint32_t *rows, size_t n,
                  int depth, int nodes, const opt_sol *sol, double lb);

/* The depth-two solver: pair frequencies of the features per class, kept between calls so
 * that the next row set is counted from the difference (MurTree's incremental counting). */
typedef struct opt_depth2 opt_depth2;
opt_depth2 *opt_depth2_new(const opt_data *d, tl_err *err);
void opt_depth2_free(opt_depth2 *s);
/* The best trees of depth <= 2 on rows[0..n) (ascending) with at most 1, 2 and 3 splits:
 * out[0], out[1], out[2] (NULL on allocation failure). lambda is the cost of a leaf. */
int opt_depth2_solve(opt_depth2 *s, const uint32_t *rows, size_t n, double lambda, opt_arena *a,
                     const opt_sol *out[3]);
/* Misclassified weight of a leaf on the class weights cw[0..k). */
double opt_leaf_error(const double *cw, size_t k);

/* What a search found. */
typedef struct opt_result {
    const opt_sol *tree; /* in the search's arena */
    double cost, lower_bound;
    int proven; /* 0: stopped by the time limit, cost - lower_bound may be closed further */
    double seconds;
    size_t cache_entries, depth2_calls;
} opt_result;

typedef struct opt_search opt_search;
/* Search the best tree of depth <= max_depth with <= max_nodes splits; time_limit 0: none.
 * The result's tree lives until opt_search_free. NULL + err (TL_ENOMEM). */
opt_search *opt_search_run(const opt_data *d, int max_depth, int max_nodes, double lambda,
                           double time_limit, opt_result *res, tl_err *err);
void opt_search_free(opt_search *s);

#endif
