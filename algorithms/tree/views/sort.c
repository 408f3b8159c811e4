/* The grower's sorts: numeric columns sorted once per fit (a stable radix sort of keyed
 * rows, or copied from the caller's tl_view_cache for the same rows), the root's rows in
 * order, and a node's rows sorted on demand when no sorted blocks are kept (tl_grow_view's
 * TL_VIEW_SORTED, e.g. for a missing-value method). */
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "../grow_internal.h"

static int cmp_keyed(const void *a, const void *b)
{
    const tlg_keyed_row *x = a, *y = b;
    if (x->key != y->key)
        return x->key < y->key ? -1 : 1;
    return (x->row > y->row) - (x->row < y->row);
}

/* Below this many rows qsort wins; above, a stable LSD radix sort (the presort is the one
 * sort of a fit, and on 10^6 rows it dominated qsort's comparisons). */
#define TL_RADIX_MIN_ROWS 4096

/* Radix digits of 11 bits (6 passes over a 64-bit key): 2048 buckets keep the scatter's
 * write streams in cache, where 16-bit digits (65536 buckets) missed on nearly every write. */
#define TL_RADIX_BITS 11
#define TL_RADIX_PASSES 6
#define TL_RADIX_BUCKETS (1u << TL_RADIX_BITS)

int tlg_sort_keyed(tlg_keyed_row *a, tlg_keyed_row *tmp, size_t n)
{
    if (n < TL_RADIX_MIN_ROWS) {
        qsort(a, n, sizeof *a, cmp_keyed);
        return 0;
    }
    size_t *count = calloc(TL_RADIX_PASSES * TL_RADIX_BUCKETS, sizeof *count);
    if (!count)
        return -1;
    const uint64_t mask = TL_RADIX_BUCKETS - 1;
    for (size_t i = 0; i < n; i++)
        for (int d = 0; d < TL_RADIX_PASSES; d++)
            count[d * TL_RADIX_BUCKETS + ((a[i].key >> (TL_RADIX_BITS * d)) & mask)]++;
    tlg_keyed_row *src = a, *dst = tmp;
    for (int d = 0; d < TL_RADIX_PASSES; d++) {
        size_t *c = count + d * TL_RADIX_BUCKETS;
        unsigned shift = TL_RADIX_BITS * (unsigned)d;
        if (c[(src[0].key >> shift) & mask] == n)
            continue; /* every key has this digit: the pass would change nothing */
        size_t sum = 0;
        for (size_t v = 0; v < TL_RADIX_BUCKETS; v++) {
            size_t t = c[v];
            c[v] = sum;
            sum += t;
        }
        for (size_t i = 0; i < n; i++)
            dst[c[(src[i].key >> shift) & mask]++] = src[i];
        tlg_keyed_row *t = src;
        src = dst;
        dst = t;
    }
    if (src != a)
        memcpy(a, src, n * sizeof *a);
    free(count);
    return 0;
}

static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

void tlg_sort_rows(uint32_t *rows, size_t n)
{
    /* a fit on all rows, or on rows drawn in order, hands them over sorted already */
    size_t i = 1;
    while (i < n && rows[i - 1] <= rows[i])
        i++;
    if (i < n)
        qsort(rows, n, sizeof *rows, cmp_u32);
}

/* The numeric columns' row orders for one row set, per attribute index. A superset cache
 * (a forest's: its members grow on subsets of the fit's rows, at once on several threads)
 * keeps the orders of its own rows, each sorted on first demand under the lock and never
 * changed after, and serves any subset of them by a filter: the order by (value, row) of a
 * subset is the superset's with the other rows left out, the sort's own order. */
struct tl_view_cache {
    size_t n; /* the row set, increasing */
    uint32_t *rows;
    size_t n_cols;    /* entries below */
    const double **x; /* the values array entry j was sorted from (NULL: none yet) */
    uint32_t **order; /* the rows by value, then row */
    int superset;
    pthread_mutex_t lock; /* a superset cache's, around the filling of an entry */
};

tl_view_cache *tl_view_cache_new(void)
{
    return calloc(1, sizeof(tl_view_cache));
}

tl_view_cache *tl_view_cache_new_superset(const size_t *rows, size_t n, size_t n_cols)
{
    tl_view_cache *c = calloc(1, sizeof *c);
    if (!c)
        return NULL;
    c->rows = malloc((n ? n : 1) * sizeof *c->rows);
    c->x = calloc(n_cols ? n_cols : 1, sizeof *c->x);
    c->order = calloc(n_cols ? n_cols : 1, sizeof *c->order);
    if (!c->rows || !c->x || !c->order || pthread_mutex_init(&c->lock, NULL)) {
        free(c->rows);
        free((void *)c->x);
        free(c->order);
        free(c);
        return NULL;
    }
    for (size_t i = 0; i < n; i++)
        c->rows[i] = (uint32_t)rows[i];
    tlg_sort_rows(c->rows, n);
    size_t m = 0; /* each row once: a filter then meets a subset's rows once each */
    for (size_t i = 0; i < n; i++)
        if (!m || c->rows[i] != c->rows[m - 1])
            c->rows[m++] = c->rows[i];
    c->n = m;
    c->n_cols = n_cols;
    c->superset = 1;
    return c;
}

void tl_view_cache_free(tl_view_cache *c)
{
    if (!c)
        return;
    for (size_t j = 0; c->order && j < c->n_cols; j++)
        free(c->order[j]);
    free(c->order);
    free((void *)c->x);
    free(c->rows);
    if (c->superset)
        pthread_mutex_destroy(&c->lock);
    free(c);
}

/* The caller's cache (tl_grow_params.view_cache) for these rows and n_cols attributes in
 * *out, emptied when it was made for other rows (NULL: none); -1 when out of memory. */
static int cache_for(const tl_grow_ctx *g, const uint32_t *rows, size_t n, tl_view_cache **out)
{
    tl_view_cache *c = *out = g->p->view_cache;
    if (c && c->superset) /* shared: never resized nor emptied */
        return 0;
    size_t n_cols = g->d->schema.n_attrs;
    if (c && c->n_cols < n_cols) { /* first use, or more attributes than before */
        const double **x = realloc((void *)c->x, n_cols * sizeof *x);
        if (x)
            c->x = x;
        uint32_t **order = realloc(c->order, n_cols * sizeof *order);
        if (order)
            c->order = order;
        if (!x || !order)
            return -1;
        for (size_t j = c->n_cols; j < n_cols; j++) {
            c->x[j] = NULL;
            c->order[j] = NULL;
        }
        c->n_cols = n_cols;
    }
    if (!c || (c->n == n && c->rows && !memcmp(c->rows, rows, n * sizeof *rows)))
        return 0;
    uint32_t *copy = malloc((n ? n : 1) * sizeof *copy);
    if (!copy)
        return -1;
    memcpy(copy, rows, n * sizeof *rows);
    free(c->rows);
    c->rows = copy;
    c->n = n;
    for (size_t j = 0; j < c->n_cols; j++) {
        free(c->order[j]);
        c->order[j] = NULL;
        c->x[j] = NULL;
    }
    return 0;
}

/* rows (n, increasing) by x's values, then row, into out (pairs: room for 2 n). */
static int sort_by(const double *x, const uint32_t *rows, size_t n, tlg_keyed_row *pairs,
                   uint32_t *out)
{
    for (size_t i = 0; i < n; i++) {
        pairs[i].key = tlg_sort_key(x[rows[i]]);
        pairs[i].row = rows[i];
    }
    if (tlg_sort_keyed(pairs, pairs + n, n))
        return -1;
    for (size_t i = 0; i < n; i++)
        out[i] = pairs[i].row;
    return 0;
}

/* A superset cache's order of column a (values x), sorted now if it is the first demand, in
 * *o (NULL when the entry holds another column's values); -1 when memory ran out. */
static int superset_order(tl_view_cache *c, size_t a, const double *x, const uint32_t **o)
{
    *o = NULL;
    if (a >= c->n_cols)
        return 0;
    int rc = 0;
    pthread_mutex_lock(&c->lock);
    if (!c->order[a]) {
        uint32_t *order = malloc((c->n ? c->n : 1) * sizeof *order);
        tlg_keyed_row *pairs = malloc(2 * (c->n ? c->n : 1) * sizeof *pairs);
        if (order && pairs && !sort_by(x, c->rows, c->n, pairs, order)) {
            c->order[a] = order;
            c->x[a] = x;
        } else {
            free(order);
            rc = -1;
        }
        free(pairs);
    }
    if (c->x[a] == x)
        *o = c->order[a];
    pthread_mutex_unlock(&c->lock);
    return rc;
}

/* Block s sorted into out: from the cache when it holds this column (a superset's filtered
 * by in, the rows asked for), else by the sort. */
static int sort_block(const tl_grow_ctx *g, tl_view_cache *c, size_t s, const uint32_t *rows,
                      size_t n, const unsigned char *in, tlg_keyed_row *pairs, uint32_t *out)
{
    size_t a = g->num_attr[s];
    const double *x = g->d->cols[a].num;
    const uint32_t *o = NULL;
    if (c && c->superset && superset_order(c, a, x, &o))
        return -1;
    if (o) {
        size_t m = 0;
        for (size_t i = 0; i < c->n && m < n; i++) {
            out[m] = o[i];
            m += in[o[i]];
        }
        if (m == n)
            return 0;
    }
    if (c && !c->superset && a < c->n_cols && c->x[a] == x && c->order[a]) {
        memcpy(out, c->order[a], n * sizeof *out);
        return 0;
    }
    if (sort_by(x, rows, n, pairs, out))
        return -1;
    if (c && !c->superset && a < c->n_cols) {
        free(c->order[a]);
        c->x[a] = NULL;
        if (!(c->order[a] = malloc((n ? n : 1) * sizeof *out)))
            return -1;
        memcpy(c->order[a], out, n * sizeof *out);
        c->x[a] = x;
    }
    return 0;
}

/* Sort the rows by each numeric attribute once; equal values keep row order, so trees are
 * deterministic whatever order the rows were given in. Block s starts at s * g->n_rows. */
int tlg_presort(tl_grow_ctx *g, uint32_t *rows, size_t n, uint32_t *blocks, double *xs, int *ys,
                tl_err *err)
{
    size_t stride = g->n_rows; /* blocks are laid out for every row given, n may be fewer */
    tlg_keyed_row *pairs = malloc(2 * (n ? n : 1) * sizeof *pairs);
    if (!pairs)
        return tl_err_set(err, TL_ENOMEM, "out of memory");
    tlg_sort_rows(rows, n);
    tl_view_cache *c;
    if (cache_for(g, rows, n, &c)) {
        free(pairs);
        return tl_err_set(err, TL_ENOMEM, "out of memory");
    }
    /* the rows asked for, by row, to filter a superset cache's orders (NULL: sort them) */
    unsigned char *in = c && c->superset ? calloc(g->d->n_rows ? g->d->n_rows : 1, 1) : NULL;
    if (c && c->superset && !in) {
        free(pairs);
        return tl_err_set(err, TL_ENOMEM, "out of memory");
    }
    for (size_t i = 0; in && i < n; i++)
        in[rows[i]] = 1;
    for (size_t s = 0; s < g->v.n_blocks; s++) {
        const double *x = g->d->cols[g->num_attr[s]].num;
        uint32_t *b = blocks + s * stride;
        if (sort_block(g, c, s, rows, n, in, pairs, b)) {
            free(in);
            free(pairs);
            return tl_err_set(err, TL_ENOMEM, "out of memory");
        }
        for (size_t i = 0; xs && i < n; i++)
            xs[s * stride + i] = x[b[i]];
        for (size_t i = 0; ys && i < n; i++)
            ys[s * stride + i] = g->d->y.code[b[i]];
        if (g->v.train_vals) {
            size_t m = 0;
            while (m < n && !isnan(x[b[m]])) {
                g->v.train_vals[s * stride + m] = x[b[m]];
                g->v.train_rows[s * stride + m] = b[m];
                m++;
            }
            g->v.train_n[s] = m;
        }
    }
    free(in);
    free(pairs);
    return TL_OK;
}

void tlg_lazy_free(struct tlg_lazy *lazy)
{
    if (!lazy)
        return;
    free(lazy->pairs);
    free(lazy->rows);
    free(lazy);
}

/* The order of a sorted block (value, then row: the presort's, kept by stable partitions),
 * for a missing-value method that asks while the splitter needs none. */
const uint32_t *tlg_sort_node(const tl_grow_ctx *g, const tl_node_rows *node, size_t s)
{
    struct tlg_lazy *z = g->v.lazy;
    tlg_keyed_row *pairs = z->pairs;
    if (!pairs) {
        z->pairs = malloc((g->n_rows ? g->n_rows : 1) * sizeof *pairs);
        z->rows = malloc((g->n_rows ? g->n_rows : 1) * sizeof *z->rows);
        if (!z->pairs || !z->rows) {
            free(z->pairs);
            free(z->rows);
            z->pairs = NULL;
            z->rows = NULL;
            return NULL;
        }
        pairs = z->pairs;
    }
    const double *x = g->d->cols[g->num_attr[s]].num;
    for (size_t i = 0; i < node->n; i++) {
        pairs[i].key = tlg_sort_key(x[node->rows[i]]);
        pairs[i].row = node->rows[i];
    }
    qsort(pairs, node->n, sizeof *pairs, cmp_keyed);
    for (size_t i = 0; i < node->n; i++)
        z->rows[i] = pairs[i].row;
    return z->rows;
}
