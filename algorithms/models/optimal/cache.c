/* The optimal search's cache: row sets (keyed by the xor of a random word per row) with, per
 * (depth, splits), the optimal tree or a lower bound; and the bounds read from it, including
 * MurTree's similarity bound from a row set that differs in a few rows. */
#include <stdlib.h>
#include <string.h>

#include "optimal_impl.h"

/* What is known about a row set at (depth, splits): an optimal tree, or a lower bound. */
typedef struct item {
    int depth, nodes;
    double lb;
    const opt_sol *sol;
    struct item *next;
} item;

struct opt_entry {
    uint64_t hash;
    uint32_t n, *rows;
    item *items;
};

static uint64_t splitmix(uint64_t *x)
{
    uint64_t z = (*x += 0x9e3779b97f4a7c15u);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
    return z ^ (z >> 31);
}

int opt_cache_init(opt_cache *c, const opt_data *d, opt_arena *arena)
{
    memset(c, 0, sizeof *c);
    c->d = d;
    c->arena = arena;
    c->cap = 1024;
    c->table = calloc(c->cap, sizeof *c->table);
    c->zobrist = malloc((d->n_rows + 1) * sizeof *c->zobrist);
    if (!c->table || !c->zobrist)
        return TL_ENOMEM;
    uint64_t seed = 20220101u; /* fixed: the same keys, so the same search, every run */
    for (size_t i = 0; i < d->n_rows; i++)
        c->zobrist[i] = splitmix(&seed);
    return TL_OK;
}

void opt_cache_clear(opt_cache *c)
{
    free(c->table);
    free(c->zobrist);
    memset(c, 0, sizeof *c);
}

uint64_t opt_cache_hash(const opt_cache *c, const uint32_t *rows, size_t n)
{
    uint64_t h = n;
    for (size_t i = 0; i < n; i++)
        h ^= c->zobrist[rows[i]];
    return h;
}

opt_entry *opt_cache_find(const opt_cache *c, uint64_t h, const uint32_t *rows, size_t n)
{
    for (size_t i = h & (c->cap - 1);; i = (i + 1) & (c->cap - 1)) {
        opt_entry *e = c->table[i];
        if (!e)
            return NULL;
        if (e->hash == h && e->n == n && !memcmp(e->rows, rows, n * sizeof *rows))
            return e;
    }
}

static int grow_table(opt_cache *c)
{
    size_t cap = c->cap * 2;
    opt_entry **t = calloc(cap, sizeof *t);
    if (!t)
        return TL_ENOMEM;
    for (size_t i = 0; i < c->cap; i++)
        if (c->table[i]) {
            size_t j = c->table[i]->hash & (cap - 1);
            while (t[j])
                j = (j + 1) & (cap - 1);
            t[j] = c->table[i];
        }
    free(c->table);
    c->table = t;
    c->cap = cap;
    return TL_OK;
}

static opt_entry *insert(opt_cache *c, uint64_t h, const uint32_t *rows, size_t n)
{
    if (2 * (c->used + 1) > c->cap && grow_table(c))
        return NULL;
    opt_entry *e = opt_arena_alloc(c->arena, sizeof *e);
    uint32_t *copy = opt_arena_alloc(c->arena, (n ? n : 1) * sizeof *copy);
    if (!e || !copy)
        return NULL;
    memcpy(copy, rows, n * sizeof *rows);
    *e = (opt_entry){h, (uint32_t)n, copy, NULL};
    size_t i = h & (c->cap - 1);
    while (c->table[i])
        i = (i + 1) & (c->cap - 1);
    c->table[i] = e;
    c->used++;
    return e;
}

double opt_cache_bound(const opt_entry *e, int depth, int nodes, const opt_sol **sol)
{
    double lb = 0;
    *sol = NULL;
    for (const item *it = e ? e->items : NULL; it; it = it->next) {
        if (it->depth == depth && it->nodes == nodes && it->sol)
            *sol = it->sol;
        if (it->depth >= depth && it->nodes >= nodes) {
            double v = it->sol ? it->sol->cost : it->lb;
            lb = v > lb ? v : lb;
        }
    }
    return lb;
}

double opt_cache_similar(const opt_cache *c, const opt_entry *e, const uint32_t *rows, size_t n,
                         int depth, int nodes)
{
    const opt_sol *sol;
    double lb = opt_cache_bound(e, depth, nodes, &sol);
    if (lb <= 0)
        return 0;
    double gone = 0;
    size_t i = 0, j = 0;
    while (i < e->n) {
        if (j == n || e->rows[i] < rows[j])
            gone += c->d->w[e->rows[i++]];
        else if (rows[j] < e->rows[i])
            j++;
        else
            i++, j++;
        if (gone >= lb)
            return 0;
    }
    return lb - gone;
}

static item *item_for(opt_cache *c, opt_entry *e, int depth, int nodes)
{
    for (item *it = e->items; it; it = it->next)
        if (it->depth == depth && it->nodes == nodes)
            return it;
    item *it = opt_arena_alloc(c->arena, sizeof *it);
    if (it) {
        *it = (item){depth, nodes, 0, NULL, e->items};
        e->items = it;
    }
    return it;
}

int opt_cache_put(opt_cache *c, opt_entry **e, uint64_t h, const uint32_t *rows, size_t n,
                  int depth, int nodes, const opt_sol *sol, double lb)
{
    if (!*e && !(*e = insert(c, h, rows, n)))
        return TL_ENOMEM;
    item *it = item_for(c, *e, depth, nodes);
    if (!it)
        return TL_ENOMEM;
    if (sol)
        it->sol = sol;
    else if (lb > it->lb)
        it->lb = lb;
    return TL_OK;
}
