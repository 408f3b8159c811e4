/* Optimal trees of depth two at once (MurTree's specialised solver): the class weights of
 * every pair of features are counted in one pass over the rows, each pair once, and updated
 * from the previous call's counts by the rows that differ; every tree of depth <= 2 is then
 * scored from the counts alone. */
#include <stdlib.h>
#include <string.h>

#include "optimal_impl.h"

struct opt_chunk {
    struct opt_chunk *next;
    size_t used, size;
    max_align_t data[];
};

void *opt_arena_alloc(opt_arena *a, size_t size)
{
    size = (size + sizeof(max_align_t) - 1) / sizeof(max_align_t) * sizeof(max_align_t);
    struct opt_chunk *c = a->head;
    if (!c || c->used + size > c->size) {
        size_t cap = size > (1u << 20) ? size : (1u << 20);
        if (!(c = malloc(sizeof *c + cap)))
            return NULL;
        c->next = a->head;
        c->used = 0;
        c->size = cap;
        a->head = c;
    }
    void *p = (char *)c->data + c->used;
    c->used += size;
    return p;
}

void opt_arena_clear(opt_arena *a)
{
    while (a->head) {
        struct opt_chunk *next = a->head->next;
        free(a->head);
        a->head = next;
    }
}

double opt_leaf_error(const double *cw, size_t k)
{
    double sum = 0, max = 0;
    for (size_t c = 0; c < k; c++) {
        sum += cw[c];
        max = cw[c] > max ? cw[c] : max;
    }
    return sum - max;
}

/* The best split below one side of the root: its cost and the errors of its two leaves. */
typedef struct side {
    double leaf, split; /* costs as a leaf and with the best split (2 leaves) */
    int j;              /* that split's feature, -1 for none */
    double e[2];        /* its leaves' costs, branch 0 and 1 */
} side;

struct opt_depth2 {
    const opt_data *d;
    double *m;   /* k x F x F: m[c][i][j], i <= j, weight of class c with features i and j */
    double *tot; /* k class weights */
    uint32_t *prev, *diff;
    size_t n_prev;
    int have_prev;
    double *cell; /* 4 x k scratch */
    side *sides;  /* 2 per root feature: its branches 0 and 1 */
};

opt_depth2 *opt_depth2_new(const opt_data *d, tl_err *err)
{
    size_t f = d->n_feat, cells = d->k * f * f;
    if (f && cells / f / f != d->k) {
        tl_err_set(err, TL_ENOMEM, "optimal: too many binary features (%zu)", f);
        return NULL;
    }
    opt_depth2 *s = calloc(1, sizeof *s);
    if (s) {
        s->d = d;
        s->m = calloc(cells ? cells : 1, sizeof *s->m);
        s->tot = calloc(d->k, sizeof *s->tot);
        s->prev = malloc((d->n_rows + 1) * sizeof *s->prev);
        s->diff = malloc((2 * d->n_rows + 1) * sizeof *s->diff);
        s->cell = malloc(4 * d->k * sizeof *s->cell);
        s->sides = malloc((2 * f + 1) * sizeof *s->sides);
    }
    if (!s || !s->m || !s->tot || !s->prev || !s->diff || !s->cell || !s->sides) {
        opt_depth2_free(s);
        tl_err_set(err, TL_ENOMEM,
                   "optimal: out of memory for the pair counts of %zu binary features "
                   "(fewer cuts: binarize = quantiles:K)",
                   f);
        return NULL;
    }
    return s;
}

void opt_depth2_free(opt_depth2 *s)
{
    if (!s)
        return;
    free(s->m);
    free(s->tot);
    free(s->prev);
    free(s->diff);
    free(s->cell);
    free(s->sides);
    free(s);
}

static void count_row(opt_depth2 *s, uint32_t r, double w)
{
    const opt_data *d = s->d;
    size_t f = d->n_feat;
    double *m = s->m + (size_t)d->cls[r] * f * f;
    s->tot[d->cls[r]] += w;
    const uint32_t *p = d->present + d->off[r];
    size_t np = d->off[r + 1] - d->off[r];
    for (size_t a = 0; a < np; a++) {
        double *row = m + (size_t)p[a] * f;
        for (size_t b = a; b < np; b++)
            row[p[b]] += w;
    }
}

/* Bring the counts to rows[0..n): from the previous rows when few differ (exact only for
 * integer weights), else from zero. */
static void recount(opt_depth2 *s, const uint32_t *rows, size_t n)
{
    const opt_data *d = s->d;
    size_t nd = 0;
    if (s->have_prev && d->unit_weights) {
        size_t i = 0, j = 0;
        while ((i < s->n_prev || j < n) && nd <= n) {
            if (j == n || (i < s->n_prev && s->prev[i] < rows[j]))
                s->diff[nd++] = s->prev[i++] | 0x80000000u; /* gone */
            else if (i == s->n_prev || rows[j] < s->prev[i])
                s->diff[nd++] = rows[j++]; /* new */
            else
                i++, j++;
        }
    }
    if (s->have_prev && d->unit_weights && nd <= n && d->n_rows < 0x80000000u) {
        for (size_t t = 0; t < nd; t++) {
            uint32_t r = s->diff[t] & 0x7fffffffu;
            count_row(s, r, (s->diff[t] & 0x80000000u) ? -d->w[r] : d->w[r]);
        }
    } else {
        memset(s->m, 0, d->k * d->n_feat * d->n_feat * sizeof *s->m);
        memset(s->tot, 0, d->k * sizeof *s->tot);
        for (size_t t = 0; t < n; t++)
            count_row(s, rows[t], d->w[rows[t]]);
    }
    memcpy(s->prev, rows, n * sizeof *rows);
    s->n_prev = n;
    s->have_prev = 1;
}

/* Class weights of the four cells under root i and feature j. */
static void cells(const opt_depth2 *s, size_t i, size_t j, double *cell)
{
    size_t f = s->d->n_feat, k = s->d->k, lo = i < j ? i : j, hi = i < j ? j : i;
    for (size_t c = 0; c < k; c++) {
        const double *m = s->m + c * f * f;
        double p = m[lo * f + hi], fi = m[i * f + i], fj = m[j * f + j];
        cell[0 * k + c] = s->tot[c] - fi - fj + p; /* i = 0, j = 0 */
        cell[1 * k + c] = fj - p;                  /* i = 0, j = 1 */
        cell[2 * k + c] = fi - p;                  /* i = 1, j = 0 */
        cell[3 * k + c] = p;                       /* i = 1, j = 1 */
    }
}

static void consider_side(side *sd, double e0, double e1, size_t j)
{
    if (e0 + e1 < sd->split) {
        sd->split = e0 + e1;
        sd->j = (int)j;
        sd->e[0] = e0;
        sd->e[1] = e1;
    }
}

static double min2(double a, double b)
{
    return a < b ? a : b;
}

/* Every root's sides for two classes, where a leaf's error is the smaller count, from each
 * unordered pair of features once (MurTree's order): the pair's four cells give root i's
 * children by j and root j's children by i. The same choices as best_sides (each root's
 * children are still considered in increasing order). */
static void all_sides2(opt_depth2 *s, double lambda)
{
    size_t f = s->d->n_feat;
    const double *m0 = s->m, *m1 = s->m + f * f;
    double t0 = s->tot[0], t1 = s->tot[1];
    side *sd = s->sides;
    for (size_t i = 0; i < f; i++) {
        double fi0 = m0[i * f + i], fi1 = m1[i * f + i];
        sd[2 * i].leaf = min2(t0 - fi0, t1 - fi1) + lambda;
        sd[2 * i + 1].leaf = min2(fi0, fi1) + lambda;
        for (int b = 0; b < 2; b++) {
            sd[2 * i + b].split = sd[2 * i + b].leaf;
            sd[2 * i + b].j = -1;
        }
    }
    for (size_t i = 0; i < f; i++) {
        const double *r0 = m0 + i * f, *r1 = m1 + i * f;
        double fi0 = r0[i], fi1 = r1[i];
        for (size_t j = i + 1; j < f; j++) {
            double p0 = r0[j], p1 = r1[j], fj0 = m0[j * f + j], fj1 = m1[j * f + j];
            double e00 = min2(t0 - fi0 - fj0 + p0, t1 - fi1 - fj1 + p1) + lambda;
            double e01 = min2(fj0 - p0, fj1 - p1) + lambda; /* i = 0, j = 1 */
            double e10 = min2(fi0 - p0, fi1 - p1) + lambda; /* i = 1, j = 0 */
            double e11 = min2(p0, p1) + lambda;
            consider_side(&sd[2 * i], e00, e01, j);
            consider_side(&sd[2 * i + 1], e10, e11, j);
            consider_side(&sd[2 * j], e00, e10, i);
            consider_side(&sd[2 * j + 1], e01, e11, i);
        }
    }
}

static void best_sides(opt_depth2 *s, size_t i, double lambda, side out[2])
{
    size_t f = s->d->n_feat, k = s->d->k;
    double *cell = s->cell;
    for (size_t c = 0; c < k; c++) {
        double fi = s->m[c * f * f + i * f + i];
        cell[c] = s->tot[c] - fi;
        cell[k + c] = fi;
    }
    for (int b = 0; b < 2; b++) {
        out[b].leaf = opt_leaf_error(cell + (size_t)b * k, k) + lambda;
        out[b].split = out[b].leaf;
        out[b].j = -1;
    }
    for (size_t j = 0; j < f; j++) {
        if (j == i)
            continue;
        cells(s, i, j, cell);
        for (int b = 0; b < 2; b++)
            consider_side(&out[b], opt_leaf_error(cell + (size_t)(2 * b) * k, k) + lambda,
                          opt_leaf_error(cell + (size_t)(2 * b + 1) * k, k) + lambda, j);
    }
}

static opt_sol *node(opt_arena *a, double cost, int feat, const opt_sol *c0, const opt_sol *c1)
{
    opt_sol *n = opt_arena_alloc(a, sizeof *n);
    if (n)
        *n = (opt_sol){cost, feat, {c0, c1}};
    return n;
}

/* Side b as a leaf, or (split) as its best split. */
static const opt_sol *side_tree(opt_arena *a, const side *sd, int split)
{
    if (!split || sd->j < 0)
        return node(a, sd->leaf, -1, NULL, NULL);
    const opt_sol *l0 = node(a, sd->e[0], -1, NULL, NULL), *l1 = node(a, sd->e[1], -1, NULL, NULL);
    return l0 && l1 ? node(a, sd->split, sd->j, l0, l1) : NULL;
}

/* The choice for one budget: root feature (-1: a leaf) and whether each side splits. */
typedef struct choice {
    double cost;
    int root, split[2];
    side sides[2];
} choice;

static void consider(choice *c, double cost, int root, const side sd[2], int s0, int s1)
{
    if (cost < c->cost) {
        c->cost = cost;
        c->root = root;
        c->split[0] = s0;
        c->split[1] = s1;
        c->sides[0] = sd[0];
        c->sides[1] = sd[1];
    }
}

int opt_depth2_solve(opt_depth2 *s, const uint32_t *rows, size_t n, double lambda, opt_arena *a,
                     const opt_sol *out[3])
{
    recount(s, rows, n);
    size_t f = s->d->n_feat;
    double leaf = opt_leaf_error(s->tot, s->d->k) + lambda;
    choice best[3];
    memset(best, 0, sizeof best);
    for (int b = 0; b < 3; b++) {
        best[b].cost = leaf;
        best[b].root = -1;
    }
    if (s->d->k == 2)
        all_sides2(s, lambda);
    for (size_t i = 0; i < f; i++) {
        side *sd = s->sides + 2 * i;
        if (s->d->k != 2)
            best_sides(s, i, lambda, sd);
        double s0 = sd[0].split < sd[0].leaf ? sd[0].split : sd[0].leaf;
        double s1 = sd[1].split < sd[1].leaf ? sd[1].split : sd[1].leaf;
        consider(&best[0], sd[0].leaf + sd[1].leaf, (int)i, sd, 0, 0);
        consider(&best[1], sd[0].leaf + sd[1].leaf, (int)i, sd, 0, 0);
        consider(&best[1], sd[0].leaf + sd[1].split, (int)i, sd, 0, 1);
        consider(&best[1], sd[0].split + sd[1].leaf, (int)i, sd, 1, 0);
        consider(&best[2], sd[0].leaf + sd[1].leaf, (int)i, sd, 0, 0);
        consider(&best[2], s0 + s1, (int)i, sd, sd[0].split < sd[0].leaf, sd[1].split < sd[1].leaf);
    }
    for (int b = 0; b < 3; b++) {
        if (b && best[b - 1].cost <= best[b].cost)
            best[b] = best[b - 1]; /* a smaller tree that is as good */
        if (best[b].root < 0) {
            out[b] = node(a, leaf, -1, NULL, NULL);
        } else {
            const opt_sol *c0 = side_tree(a, &best[b].sides[0], best[b].split[0]);
            const opt_sol *c1 = side_tree(a, &best[b].sides[1], best[b].split[1]);
            out[b] = c0 && c1 ? node(a, best[b].cost, best[b].root, c0, c1) : NULL;
        }
        if (!out[b])
            return TL_ENOMEM;
    }
    return TL_OK;
}
