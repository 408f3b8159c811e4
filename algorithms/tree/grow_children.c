/* A split's children while they wait on the work stack: their buffers (one set per depth,
 * kept for the fit, so a split allocates nothing), their release, and their statistics
 * written into the tree (the grower's step 8). */
#include <stdlib.h>
#include <string.h>

#include "grow_internal.h"

/* The depth's buffers for nb children (zeroed), in out (pooled); the pool's stats buffer (nb x
 * k zeros) into *stats. TL_ENOMEM. */
int tlg_children_pooled(tl_grow_ctx *g, size_t depth, size_t nb, tlg_children *out,
                        double **stats, tl_err *err)
{
    if (depth >= g->pool_n) {
        size_t n = depth + 1 > 2 * g->pool_n ? depth + 1 : 2 * g->pool_n;
        tlg_kid_pool *p = realloc(g->pool, n * sizeof *p);
        if (!p)
            return tl_err_set(err, TL_ENOMEM, "out of memory");
        memset(p + g->pool_n, 0, (n - g->pool_n) * sizeof *p);
        g->pool = p;
        g->pool_n = n;
    }
    tlg_kid_pool *p = &g->pool[depth];
    size_t k = g->k ? g->k : 1;
    if (p->cap < nb) {
        tlg_rowset *kids = realloc(p->kids, nb * sizeof *kids);
        if (kids)
            p->kids = kids;
        double *share = kids ? realloc(p->share, nb * sizeof *share) : NULL;
        if (share)
            p->share = share;
        double *st = share ? realloc(p->stats, nb * k * sizeof *st) : NULL;
        if (!st)
            return tl_err_set(err, TL_ENOMEM, "out of memory");
        p->stats = st;
        p->cap = nb;
    }
    memset(p->kids, 0, nb * sizeof *p->kids);
    memset(p->share, 0, nb * sizeof *p->share);
    memset(p->stats, 0, nb * k * sizeof *p->stats);
    out->kids = p->kids;
    out->share = p->share;
    out->pooled = 1;
    *stats = p->stats;
    return TL_OK;
}

void tlg_children_pool_free(tl_grow_ctx *g)
{
    for (size_t i = 0; i < g->pool_n; i++) {
        free(g->pool[i].kids);
        free(g->pool[i].share);
        free(g->pool[i].stats);
    }
    free(g->pool);
    g->pool = NULL;
    g->pool_n = 0;
}

void tlg_children_free(tlg_children *c)
{
    if (!c->pooled) { /* else the depth's buffers, kept for the next split there */
        free(c->kids);
        free(c->share);
        free(c->stats);
    }
    if (c->fresh) {
        free(c->fresh->rows);
        free(c->fresh->xs);
        free(c->fresh->ys);
        free(c->fresh);
    }
    free(c->missing_rows);
    free(c->missing_w);
    memset(c, 0, sizeof *c);
}

void tlg_child_stats(const tl_grow_ctx *g, const tlg_children *c)
{
    const int *code = g->d->y.code;
    for (size_t b = 0; b < c->n; b++) {
        double *stats = g->t->stats + (c->first + b) * g->k;
        const tlg_rowset *kid = &c->kids[b];
        const uint32_t *rows = tlg_rows(kid);
        if (c->stats) /* routed by records: counted then */
            memcpy(stats, c->stats + b * g->k, g->k * sizeof *stats);
        else if (g->v.compact) /* weights 1, every row goes down */
            for (size_t i = 0; i < kid->n; i++)
                stats[code[rows[i]]] += 1.0;
        else
            for (size_t i = 0; i < kid->n; i++) {
                uint32_t r = rows[i];
                if (g->branch[r] >= 0)
                    tlg_add_row(g, stats, r, g->w[r]);
                else if (c->known) /* sent down every branch: its share here */
                    tlg_add_row(g, stats, r, g->w[r] * c->share[b]);
            }
    }
}
