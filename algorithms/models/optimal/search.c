/* The optimal tree search (MurTree, Demirovic et al., JMLR 23 (2022)): dynamic programming
 * over (row set, depth, splits) with a cache of solved row sets, lower bounds from the cache
 * and from similar row sets, upper bounds passed down, and depth two solved by counting. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "optimal_impl.h"

#define OPT_ARCHIVE 2 /* row sets remembered per depth for the similarity bound */

struct opt_search {
    const opt_data *d;
    opt_arena arena;
    opt_depth2 *d2;
    opt_cache cache;
    uint32_t *scratch; /* per level: 2 x n_rows */
    double *cw;        /* class weights scratch, k per level */
    opt_entry *archive[64][OPT_ARCHIVE];
    double lambda, deadline;
    int timed_out, oom;
    size_t depth2_calls;
};

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Record in the cache; an allocation failure ends the search (s->oom). */
static opt_entry *remember(opt_search *s, opt_entry *e, uint64_t h, const uint32_t *rows, size_t n,
                           int depth, int nodes, const opt_sol *sol, double lb)
{
    if (opt_cache_put(&s->cache, &e, h, rows, n, depth, nodes, sol, lb))
        s->oom = 1;
    return e;
}

static const opt_sol *leaf(opt_search *s, double cost)
{
    opt_sol *l = opt_arena_alloc(&s->arena, sizeof *l);
    if (!l)
        s->oom = 1;
    else
        *l = (opt_sol){cost, -1, {NULL, NULL}};
    return l;
}

/* (depth, nodes) with no room wasted: at most 2^depth - 1 splits, depth at most splits. */
static void normalise(int *depth, int *nodes)
{
    if (*depth < 30 && *nodes > (1 << *depth) - 1)
        *nodes = (1 << *depth) - 1;
    if (*depth > *nodes)
        *depth = *nodes;
}

static double leaf_cost(opt_search *s, const uint32_t *rows, size_t n, int level)
{
    double *cw = s->cw + (size_t)level * s->d->k;
    memset(cw, 0, s->d->k * sizeof *cw);
    for (size_t i = 0; i < n; i++)
        cw[s->d->cls[rows[i]]] += s->d->w[rows[i]];
    return opt_leaf_error(cw, s->d->k) + s->lambda;
}

/* A cache lower bound of the rows for (depth, nodes), for pruning before a call. */
static double cached_lb(opt_search *s, const uint32_t *rows, size_t n, int depth, int nodes)
{
    normalise(&depth, &nodes);
    if (nodes == 0)
        return 0;
    const opt_sol *sol;
    return opt_cache_bound(opt_cache_find(&s->cache, opt_cache_hash(&s->cache, rows, n), rows, n),
                           depth, nodes, &sol);
}

static const opt_sol *solve(opt_search *s, const uint32_t *rows, size_t n, int depth, int nodes,
                            double ub, int level);

/* rows by feature f: those with 0 into r0, with 1 into r1, each in the order given. */
static void split_rows(const opt_data *d, const uint32_t *rows, size_t n, size_t f, uint32_t *r0,
                       size_t *n0, uint32_t *r1, size_t *n1)
{
    size_t a = 0, b = 0;
    for (size_t i = 0; i < n; i++) {
        if (opt_bit(d, rows[i], f))
            r1[b++] = rows[i];
        else
            r0[a++] = rows[i];
    }
    *n0 = a;
    *n1 = b;
}

static const opt_sol *solve_depth2(opt_search *s, opt_entry *e, uint64_t h, const uint32_t *rows,
                                   size_t n, int depth, int nodes, double ub)
{
    const opt_sol *out[3];
    s->depth2_calls++;
    if (opt_depth2_solve(s->d2, rows, n, s->lambda, &s->arena, out)) {
        s->oom = 1;
        return NULL;
    }
    e = remember(s, e, h, rows, n, 1, 1, out[0], 0);
    e = remember(s, e, h, rows, n, 2, 2, out[1], 0);
    e = remember(s, e, h, rows, n, 2, 3, out[2], 0);
    for (int d = 1; d <= 2 && e; d++) { /* the similarity bound's latest row sets */
        s->archive[d][1] = s->archive[d][0];
        s->archive[d][0] = e;
    }
    const opt_sol *r = out[depth == 1 ? 0 : nodes - 1];
    return r->cost < ub ? r : NULL;
}

/* The best tree on rows with cost below ub at (depth, nodes), or NULL when none is (then a
 * lower bound of ub is recorded) or on a time-out (then nothing is recorded). */
static const opt_sol *solve(opt_search *s, const uint32_t *rows, size_t n, int depth, int nodes,
                            double ub, int level)
{
    normalise(&depth, &nodes);
    double lc = leaf_cost(s, rows, n, level);
    if (nodes == 0 || s->oom)
        return lc < ub ? leaf(s, lc) : NULL;
    uint64_t h = opt_cache_hash(&s->cache, rows, n);
    opt_entry *e = opt_cache_find(&s->cache, h, rows, n);
    const opt_sol *sol;
    double lb = opt_cache_bound(e, depth, nodes, &sol);
    if (sol)
        return sol->cost < ub ? sol : NULL;
    for (int a = 0; a < OPT_ARCHIVE && depth < 64; a++)
        if (s->archive[depth][a] && s->archive[depth][a] != e) {
            double v = opt_cache_similar(&s->cache, s->archive[depth][a], rows, n, depth, nodes);
            lb = v > lb ? v : lb;
        }
    if (lb < s->lambda)
        lb = s->lambda; /* every tree has a leaf */
    if (lb >= ub)
        return NULL;
    if (lc <= lb) { /* the leaf meets the bound */
        const opt_sol *l = leaf(s, lc);
        remember(s, e, h, rows, n, depth, nodes, l, 0);
        return l;
    }
    if (depth <= 2)
        return solve_depth2(s, e, h, rows, n, depth, nodes, ub);
    const opt_sol *best = lc < ub ? leaf(s, lc) : NULL;
    double bound = best ? lc : ub;
    uint32_t *r0 = s->scratch + (size_t)level * 2 * s->d->n_rows, *r1 = r0 + n;
    int child_max = (1 << (depth - 1)) - 1;
    for (size_t f = 0; f < s->d->n_feat && bound > lb; f++) {
        if (now() > s->deadline) {
            s->timed_out = 1;
            return best;
        }
        size_t n0, n1;
        split_rows(s->d, rows, n, f, r0, &n0, r1, &n1);
        if (!n0 || !n1)
            continue;
        int lo = nodes - 1 - child_max > 0 ? nodes - 1 - child_max : 0;
        int hi = nodes - 1 < child_max ? nodes - 1 : child_max;
        for (int left = lo; left <= hi && bound > lb; left++) {
            int right = nodes - 1 - left;
            double lb0 = cached_lb(s, r0, n0, depth - 1, left);
            double lb1 = cached_lb(s, r1, n1, depth - 1, right);
            if (lb0 + lb1 >= bound)
                continue;
            const opt_sol *c0 = solve(s, r0, n0, depth - 1, left, bound - lb1, level + 1);
            if (!c0 || s->timed_out) {
                if (s->timed_out)
                    return best;
                continue;
            }
            const opt_sol *c1 = solve(s, r1, n1, depth - 1, right, bound - c0->cost, level + 1);
            if (!c1 || s->timed_out) {
                if (s->timed_out)
                    return best;
                continue;
            }
            opt_sol *t = opt_arena_alloc(&s->arena, sizeof *t);
            if (!t) {
                s->oom = 1;
                return best;
            }
            *t = (opt_sol){c0->cost + c1->cost, (int)f, {c0, c1}};
            best = t;
            bound = t->cost;
        }
    }
    if (s->oom)
        return best;
    e = remember(s, e, h, rows, n, depth, nodes, best, ub);
    if (e && depth < 64) { /* the most recent row sets serve the similarity bound */
        memmove(&s->archive[depth][1], &s->archive[depth][0],
                (OPT_ARCHIVE - 1) * sizeof(opt_entry *));
        s->archive[depth][0] = e;
    }
    return best;
}

/* After a time-out: the least any tree at the root can cost, from what the cache proved. */
static double root_bound(opt_search *s, const uint32_t *rows, size_t n, int depth, int nodes,
                         double best)
{
    normalise(&depth, &nodes);
    const opt_sol *sol;
    double lb = opt_cache_bound(
        opt_cache_find(&s->cache, opt_cache_hash(&s->cache, rows, n), rows, n), depth, nodes, &sol);
    if (depth <= 0 || lb >= best)
        return lb < best ? lb : best;
    double m = best;
    uint32_t *r0 = s->scratch, *r1 = r0 + n;
    for (size_t f = 0; f < s->d->n_feat; f++) {
        size_t n0, n1;
        split_rows(s->d, rows, n, f, r0, &n0, r1, &n1);
        double v =
            cached_lb(s, r0, n0, depth - 1, nodes - 1) + cached_lb(s, r1, n1, depth - 1, nodes - 1);
        v = v < 2 * s->lambda ? 2 * s->lambda : v;
        m = v < m ? v : m;
    }
    return m > lb ? m : lb;
}

opt_search *opt_search_run(const opt_data *d, int max_depth, int max_nodes, double lambda,
                           double time_limit, opt_result *res, tl_err *err)
{
    double start = now();
    memset(res, 0, sizeof *res);
    opt_search *s = calloc(1, sizeof *s);
    uint32_t *all = malloc((d->n_rows + 1) * sizeof *all);
    int levels = max_depth + 2;
    if (s) {
        s->d = d;
        s->lambda = lambda;
        s->deadline = time_limit > 0 ? start + time_limit : INFINITY;
        s->scratch = malloc(((size_t)levels * 2 * d->n_rows + 1) * sizeof *s->scratch);
        s->cw = malloc((size_t)levels * d->k * sizeof *s->cw);
        s->d2 = opt_depth2_new(d, err);
    }
    if (!s || !all || opt_cache_init(&s->cache, d, &s->arena) || !s->scratch || !s->cw || !s->d2) {
        if (!s || s->d2) /* else opt_depth2_new said why */
            tl_err_set(err, TL_ENOMEM, "out of memory");
        free(all);
        opt_search_free(s);
        return NULL;
    }
    for (size_t i = 0; i < d->n_rows; i++)
        all[i] = (uint32_t)i;
    const opt_sol *t = solve(s, all, d->n_rows, max_depth, max_nodes, INFINITY, 0);
    if (!t && !s->oom) /* only a time-out before anything else: the leaf */
        t = leaf(s, leaf_cost(s, all, d->n_rows, 0));
    if (s->oom || !t) {
        tl_err_set(err, TL_ENOMEM, "optimal: out of memory after %zu cached row sets",
                   s->cache.used);
        free(all);
        opt_search_free(s);
        return NULL;
    }
    res->tree = t;
    res->cost = t->cost;
    res->proven = !s->timed_out;
    res->lower_bound =
        res->proven ? t->cost : root_bound(s, all, d->n_rows, max_depth, max_nodes, t->cost);
    res->cache_entries = s->cache.used;
    res->depth2_calls = s->depth2_calls;
    res->seconds = now() - start;
    free(all);
    return s;
}

void opt_search_free(opt_search *s)
{
    if (!s)
        return;
    opt_arena_clear(&s->arena);
    opt_depth2_free(s->d2);
    opt_cache_clear(&s->cache);
    free(s->scratch);
    free(s->cw);
    free(s);
}
