/* The greedy grower shared by every hard tree: each node owns a block of row ids (one block
 * per numeric attribute, pre-sorted once per fit), a splitter proposes the best test per
 * attribute, the criterion ranks them, and the node's blocks are partitioned in place for
 * its children (copied only when rows with an unknown value go down several branches). */
#include "treelab/tl_tree.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

struct tl_grow_ctx {
    const tl_dataset *d;
    const tl_grow_params *p;
    size_t k;
    double *w;            /* w[row]: weight of the row in the node being processed */
    int *branch;          /* branch[row] while partitioning */
    double *scratch;      /* for splitters */
    double *branch_w;     /* for tl_grow_score */
    double *parent_buf;   /* for tl_grow_score: k */
    size_t n_num;         /* numeric attributes */
    size_t *num_attr;     /* their indices */
    long *num_slot;       /* attribute -> slot in the sorted blocks, or -1 */
    uint32_t *tmp;        /* partition buffer */
    unsigned char *used;  /* nominal attributes used on the current path */
    const size_t *order;  /* order attributes are tried in: p->attr_order or file order */
    size_t *file_order;   /* 0..n_attrs-1, allocated once per fit when attr_order is NULL */
    tl_split *cand;       /* best test per attribute */
    unsigned char *has_cand;
    tl_tree *t;
    double root_w;
    int root_only; /* stop once the root's candidates are known */
    size_t n_rows;        /* rows grown on */
    int multival;         /* J48: every attribute is nominal with many levels */
    double *train_vals;   /* per numeric slot: sorted known values (needs_train_values) */
    size_t *train_n;      /* per numeric slot: how many */
    uint32_t *train_rows; /* per numeric slot: the rows of those values */
};

/* The rows of one node: `base` in any order, and per numeric attribute a sorted block. */
typedef struct rowset {
    size_t n;
    uint32_t *base;
    uint32_t **sorted; /* n_num blocks */
} rowset;

void tl_grow_params_init(tl_grow_params *p)
{
    memset(p, 0, sizeof *p);
    p->min_samples_split = 2;
    p->min_samples_leaf = 1;
    p->reuse_nominal = 1;
}

const tl_dataset *tl_grow_data(const tl_grow_ctx *g) { return g->d; }
const tl_grow_params *tl_grow_params_of(const tl_grow_ctx *g) { return g->p; }
size_t tl_grow_k(const tl_grow_ctx *g) { return g->k; }
double *tl_grow_scratch(const tl_grow_ctx *g) { return g->scratch; }

const double *tl_grow_train_values(const tl_grow_ctx *g, size_t attr, size_t *n,
                                   const uint32_t **rows)
{
    if (!g->train_vals || g->num_slot[attr] < 0)
        return NULL;
    size_t s = (size_t)g->num_slot[attr];
    *n = g->train_n[s];
    if (rows)
        *rows = g->train_rows + s * g->n_rows;
    return g->train_vals + s * g->n_rows;
}

void tl_grow_add_row(const tl_grow_ctx *g, double *stats, uint32_t row, double w)
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

double tl_grow_level_stats(const tl_grow_ctx *g, const tl_node_rows *node, size_t attr,
                           double *out)
{
    const int *code = g->d->cols[attr].code;
    memset(out, 0, g->d->schema.attrs[attr].n_levels * g->k * sizeof *out);
    double missing_w = 0;
    for (size_t i = 0; i < node->n; i++) {
        uint32_t r = node->rows[i];
        if (code[r] < 0)
            missing_w += node->w[r];
        else
            tl_grow_add_row(g, out + (size_t)code[r] * g->k, r, node->w[r]);
    }
    return missing_w;
}

int tl_grow_score(const tl_grow_ctx *g, const tl_node_rows *node, const double *children,
                  size_t n_children, double missing_w, tl_split *split)
{
    const tl_grow_params *p = g->p;
    size_t k = g->k;
    double *par = g->parent_buf;
    memset(par, 0, k * sizeof *par);
    double known = 0;
    size_t holding = 0;
    for (size_t b = 0; b < n_children; b++) {
        const double *c = children + b * k;
        double w = 0;
        if (g->t->regression)
            w = c[0];
        else
            for (size_t j = 0; j < k; j++)
                w += c[j];
        for (size_t j = 0; j < k; j++)
            par[j] += c[j];
        g->branch_w[b] = w;
        known += w;
        if (w >= p->min_samples_leaf - p->weight_eps && w > 0)
            holding++;
    }
    size_t need = p->min_leaf_branches ? p->min_leaf_branches : n_children;
    if (known <= 0 || holding < need || holding < 2)
        return 0;
    double wimp = 0;
    for (size_t b = 0; b < n_children; b++)
        if (g->branch_w[b] > 0)
            wimp += g->branch_w[b] / known * p->criterion->impurity(children + b * k, k);
    double gain = p->criterion->impurity(par, k) - wimp;
    gain *= known / (known + missing_w);
    split->gain = gain;
    split->n_branches = n_children;
    split->known_weight = known;
    split->missing_weight = missing_w;
    split->rank = p->criterion->rank ? p->criterion->rank(gain, g->branch_w, n_children, missing_w)
                                     : gain;
    (void)node;
    return 1;
}

/* A double's bits as an unsigned key with the same order; NaN last. */
static uint64_t sort_key(double v)
{
    if (isnan(v))
        return UINT64_MAX;
    uint64_t b;
    memcpy(&b, &v, sizeof b);
    return (b >> 63) ? ~b : b | 0x8000000000000000ull;
}

typedef struct {
    uint64_t key;
    uint32_t row;
} keyed_row;

/* Below this many rows qsort wins; above, a stable LSD radix sort on 16-bit digits (the
 * presort is the one sort of a fit, and on 10^6 rows it dominated qsort's comparisons). */
#define TL_RADIX_MIN_ROWS 4096

static int cmp_keyed(const void *a, const void *b)
{
    const keyed_row *x = a, *y = b;
    if (x->key != y->key)
        return x->key < y->key ? -1 : 1;
    return (x->row > y->row) - (x->row < y->row);
}

/* Sorts a[0..n) by key, ties in input order; tmp holds n entries. */
static int radix_sort(keyed_row *a, keyed_row *tmp, size_t n)
{
    size_t *count = calloc(4 * 65536, sizeof *count);
    if (!count)
        return -1;
    for (size_t i = 0; i < n; i++)
        for (int d = 0; d < 4; d++)
            count[d * 65536 + ((a[i].key >> (16 * d)) & 0xffff)]++;
    for (int d = 0; d < 4; d++) {
        size_t *c = count + d * 65536;
        if (c[(a[0].key >> (16 * d)) & 0xffff] == n)
            continue; /* every key has this digit: the pass would change nothing */
        size_t sum = 0;
        for (size_t v = 0; v < 65536; v++) {
            size_t t = c[v];
            c[v] = sum;
            sum += t;
        }
        for (size_t i = 0; i < n; i++)
            tmp[c[(a[i].key >> (16 * d)) & 0xffff]++] = a[i];
        memcpy(a, tmp, n * sizeof *a);
    }
    free(count);
    return 0;
}

static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

/* Sort the rows by each numeric attribute once; equal values keep row order, so trees are
 * deterministic whatever order the rows were given in. */
static int presort(tl_grow_ctx *g, uint32_t *rows, size_t n, uint32_t *blocks, tl_err *err)
{
    keyed_row *pairs = malloc(2 * n * sizeof *pairs);
    if (!pairs)
        return tl_err_set(err, TL_ENOMEM, "out of memory");
    qsort(rows, n, sizeof *rows, cmp_u32);
    for (size_t s = 0; s < g->n_num; s++) {
        const double *x = g->d->cols[g->num_attr[s]].num;
        for (size_t i = 0; i < n; i++) {
            pairs[i].key = sort_key(x[rows[i]]);
            pairs[i].row = rows[i];
        }
        if (n < TL_RADIX_MIN_ROWS)
            qsort(pairs, n, sizeof *pairs, cmp_keyed);
        else if (radix_sort(pairs, pairs + n, n)) {
            free(pairs);
            return tl_err_set(err, TL_ENOMEM, "out of memory");
        }
        for (size_t i = 0; i < n; i++)
            blocks[s * n + i] = pairs[i].row;
        if (g->train_vals) {
            size_t m = 0;
            while (m < n && !isnan(x[pairs[m].row])) {
                g->train_vals[s * n + m] = x[pairs[m].row];
                g->train_rows[s * n + m] = pairs[m].row;
                m++;
            }
            g->train_n[s] = m;
        }
    }
    free(pairs);
    return TL_OK;
}

/* J48 leaves nominal attributes with many levels out of the average gain. */
static int in_average(const tl_grow_ctx *g, size_t a)
{
    const tl_attr_info *ai = &g->d->schema.attrs[a];
    double share = g->p->avg_gain_level_share;
    return share <= 0 || g->multival || ai->kind != TL_ATTR_NOMINAL ||
           (double)ai->n_levels < share * (double)g->n_rows - 1e-6;
}

/* Choose among the per-attribute candidates: highest rank, optionally only among tests
 * with at least the average gain (Quinlan); ties go to the attribute tried first. */
static const tl_split *choose(const tl_grow_ctx *g, const size_t *order, size_t n_attrs)
{
    double avg = 0;
    size_t n_valid = 0;
    for (size_t i = 0; i < n_attrs; i++)
        if (g->has_cand[order[i]] && in_average(g, order[i])) {
            avg += g->cand[order[i]].gain;
            n_valid++;
        }
    if (!n_valid)
        return NULL;
    avg /= (double)n_valid;
    const tl_split *best = NULL;
    for (size_t i = 0; i < n_attrs; i++) {
        size_t a = order[i];
        if (!g->has_cand[a])
            continue;
        const tl_split *s = &g->cand[a];
        /* J48 compares against the average less 1e-3, to absorb rounding */
        if (g->p->criterion->average_gain_filter && s->gain < avg - 1e-3)
            continue;
        double eps = g->p->criterion->rank_eps;
        if (eps > 0 ? s->rank - (best ? best->rank : 0) > eps : (!best || s->rank > best->rank))
            best = s;
    }
    return best;
}

/* Stable partition of block[0..n) by g->branch into nb branches of the given sizes (every
 * row has a known branch here). */
static void partition(const tl_grow_ctx *g, uint32_t *block, size_t n, size_t nb, size_t *counts)
{
    size_t off[TL_SUBSET_MAX_LEVELS + 1], *o = off;
    size_t *heap = NULL;
    if (nb > TL_SUBSET_MAX_LEVELS) {
        heap = malloc(nb * sizeof *heap);
        if (!heap)
            return; /* cannot happen for the sizes in use: children were already allocated */
        o = heap;
    }
    size_t acc = 0;
    for (size_t b = 0; b < nb; b++) {
        o[b] = acc;
        acc += counts[b];
    }
    for (size_t i = 0; i < n; i++)
        g->tmp[o[g->branch[block[i]]]++] = block[i];
    memcpy(block, g->tmp, n * sizeof *block);
    free(heap);
}

static int build(tl_grow_ctx *g, size_t node, rowset *rs, size_t depth, tl_err *err);

/* Children get sub-blocks of the parent's blocks when every row has a known value;
 * otherwise fresh blocks holding the branch's rows plus every row with an unknown value. */
static int split_node(tl_grow_ctx *g, size_t node, rowset *rs, const tl_split *s, size_t depth,
                      tl_err *err)
{
    tl_tree *t = g->t;
    const tl_dataset *d = g->d;
    size_t nb = s->n_branches, n_missing = 0;
    t->attr[node] = (int)s->attr;
    t->kind[node] = (unsigned char)s->kind;
    t->threshold[node] = s->threshold;
    t->mask[node] = s->left_mask;
    size_t first = tl_tree_add_nodes(t, nb, node, err);
    if (first == SIZE_MAX)
        return TL_ENOMEM;
    t->first_child[node] = first;
    t->n_children[node] = nb; /* before tl_tree_branch, which checks codes against it */
    for (size_t i = 0; i < rs->n; i++) {
        uint32_t r = rs->base[i];
        /* from the split record: the node's children do not exist yet */
        g->branch[r] = tl_split_branch(s, d, r);
        n_missing += g->branch[r] < 0;
    }

    size_t *counts = calloc(nb + 1, sizeof *counts);
    double *known_w = calloc(nb, sizeof *known_w);
    rowset *kids = calloc(nb, sizeof *kids);
    uint32_t **ptrs = calloc(nb * (g->n_num ? g->n_num : 1), sizeof *ptrs);
    uint32_t *missing_rows = NULL, *fresh = NULL;
    double *missing_w = NULL;
    int rc = TL_OK;
    if (!counts || !known_w || !kids || !ptrs) {
        rc = tl_err_set(err, TL_ENOMEM, "out of memory");
        goto done;
    }
    double known_total = 0;
    for (size_t i = 0; i < rs->n; i++) {
        uint32_t r = rs->base[i];
        if (g->branch[r] >= 0) {
            counts[g->branch[r]]++;
            known_w[g->branch[r]] += g->w[r];
            known_total += g->w[r];
        }
    }
    /* Every child's statistics are there before any subtree is grown, for the accept
     * callback (build() recomputes them in the same order). */
    for (size_t i = 0; i < rs->n; i++) {
        uint32_t r = rs->base[i];
        int b = g->branch[r];
        if (b >= 0)
            tl_grow_add_row(g, t->stats + (first + (size_t)b) * g->k, r, g->w[r]);
        else
            for (size_t c = 0; c < nb && known_total > 0; c++)
                tl_grow_add_row(g, t->stats + (first + c) * g->k, r,
                                g->w[r] * (known_w[c] / known_total));
    }
    if (n_missing == 0) {
        partition(g, rs->base, rs->n, nb, counts);
        for (size_t s2 = 0; s2 < g->n_num; s2++)
            partition(g, rs->sorted[s2], rs->n, nb, counts);
        size_t off = 0;
        for (size_t b = 0; b < nb; b++) {
            kids[b].n = counts[b];
            kids[b].base = rs->base + off;
            kids[b].sorted = ptrs + b * g->n_num;
            for (size_t s2 = 0; s2 < g->n_num; s2++)
                kids[b].sorted[s2] = rs->sorted[s2] + off;
            off += counts[b];
        }
        for (size_t b = 0; b < nb && !rc; b++)
            rc = build(g, first + b, &kids[b], depth + 1, err);
        goto done;
    }
    /* Rows with an unknown value: remember their weight here, give each branch its share. */
    missing_rows = malloc(n_missing * sizeof *missing_rows);
    missing_w = malloc(n_missing * sizeof *missing_w);
    size_t total = 0;
    for (size_t b = 0; b < nb; b++)
        total += counts[b] + n_missing;
    fresh = malloc(total * (g->n_num + 1) * sizeof *fresh);
    if (!missing_rows || !missing_w || !fresh) {
        rc = tl_err_set(err, TL_ENOMEM, "out of memory");
        goto done;
    }
    for (size_t i = 0, m = 0; i < rs->n; i++) {
        uint32_t r = rs->base[i];
        if (g->branch[r] < 0) {
            missing_rows[m] = r;
            missing_w[m++] = g->w[r];
        }
    }
    /* child b's blocks: base, then one per numeric attribute, each counts[b] + n_missing */
    uint32_t *cur = fresh;
    for (size_t b = 0; b < nb; b++) {
        kids[b].n = counts[b] + n_missing;
        kids[b].sorted = ptrs + b * g->n_num;
        kids[b].base = cur;
        for (size_t s2 = 0; s2 < g->n_num; s2++)
            kids[b].sorted[s2] = cur + (s2 + 1) * kids[b].n;
        cur += (g->n_num + 1) * kids[b].n;
    }
    /* one pass per block deals each row to its branch, an unknown one to every branch */
    uint32_t **dst = (uint32_t **)calloc(nb, sizeof *dst);
    if (!dst) {
        rc = tl_err_set(err, TL_ENOMEM, "out of memory");
        goto done;
    }
    for (size_t s2 = 0; s2 <= g->n_num; s2++) {
        const uint32_t *src = s2 == 0 ? rs->base : rs->sorted[s2 - 1];
        for (size_t b = 0; b < nb; b++)
            dst[b] = s2 == 0 ? kids[b].base : kids[b].sorted[s2 - 1];
        for (size_t i = 0; i < rs->n; i++) {
            int br = g->branch[src[i]];
            if (br >= 0)
                *dst[br]++ = src[i];
            else
                for (size_t b = 0; b < nb; b++)
                    *dst[b]++ = src[i];
        }
    }
    free(dst);
    for (size_t b = 0; b < nb && !rc; b++) {
        double share = known_total > 0 ? known_w[b] / known_total : 0;
        for (size_t m = 0; m < n_missing; m++)
            g->w[missing_rows[m]] = missing_w[m] * share;
        rc = build(g, first + b, &kids[b], depth + 1, err);
    }
done:
    free(counts);
    free(known_w);
    free(kids);
    free(ptrs);
    free(missing_rows);
    free(missing_w);
    free(fresh);
    return rc;
}

static int build(tl_grow_ctx *g, size_t node, rowset *rs, size_t depth, tl_err *err)
{
    const tl_grow_params *p = g->p;
    const tl_dataset *d = g->d;
    size_t k = g->k;
    double *stats = g->t->stats + node * k;
    memset(stats, 0, k * sizeof *stats);
    for (size_t i = 0; i < rs->n; i++)
        tl_grow_add_row(g, stats, rs->base[i], g->w[rs->base[i]]);
    double w = tl_tree_node_weight(g->t, node);
    if (node == 0)
        g->root_w = w;
    double impurity = p->criterion->impurity(stats, k);
    double eps = p->weight_eps;
    /* pure below scikit-learn's EPSILON, so tiny-valued regression targets still split */
    if ((p->max_depth && depth >= p->max_depth) || w < p->min_samples_split - eps ||
        w < 2 * p->min_samples_leaf - eps || impurity <= DBL_EPSILON || rs->n < 2)
        return TL_OK;
    if (eps > 0 && !g->t->regression) {
        double top = 0;
        for (size_t c = 0; c < k; c++)
            top = stats[c] > top ? stats[c] : top;
        if (w - top < eps)
            return TL_OK;
    }

    size_t n_attrs = d->schema.n_attrs;
    tl_node_rows view = {rs->n, rs->base, NULL, g->w, stats, depth};
    for (size_t i = 0; i < n_attrs; i++) {
        size_t a = g->order[i];
        g->has_cand[a] = 0;
        int nominal = d->schema.attrs[a].kind == TL_ATTR_NOMINAL;
        const tl_splitter_type *sp = nominal ? p->nominal : p->numeric;
        if (!sp || (nominal && !p->reuse_nominal && g->used[a]))
            continue;
        view.sorted = nominal ? NULL : rs->sorted[g->num_slot[a]];
        memset(&g->cand[a], 0, sizeof g->cand[a]);
        g->cand[a].attr = a;
        int found = sp->best(g, &view, a, &g->cand[a], err);
        if (found < 0)
            return -found;
        g->has_cand[a] = (unsigned char)(found == 1);
    }
    if (g->root_only)
        return TL_OK;
    const tl_split *best = choose(g, g->order, n_attrs);
    if (!best)
        return TL_OK;
    tl_split chosen = *best;
    /* scikit-learn's min_impurity_decrease: the decrease weighted by the node's share */
    if (w / g->root_w * chosen.gain + 1e-12 < p->min_impurity_decrease)
        return TL_OK;
    if (p->accept) {
        int ok = p->accept(p->accept_user, g, g->t, node, &view, &chosen, err);
        if (ok < 0)
            return -ok;
        if (!ok)
            return TL_OK;
    }
    int multiway = chosen.kind == TL_SPLIT_MULTIWAY;
    unsigned char was_used = g->used[chosen.attr];
    if (multiway)
        g->used[chosen.attr] = 1;
    int rc = split_node(g, node, rs, &chosen, depth, err);
    g->used[chosen.attr] = was_used;
    return rc;
}

/* Grows the tree, or with cand != NULL only evaluates the root's candidates. */
static tl_tree *grow(const tl_dataset *d, const size_t *rows, size_t n, const tl_grow_params *p,
                     tl_split *cand, int *valid, tl_err *err)
{
    tl_grow_ctx g;
    memset(&g, 0, sizeof g);
    g.d = d;
    g.p = p;
    int regression = !tl_dataset_is_classification(d);
    g.k = regression ? TL_REG_STATS : tl_dataset_n_classes(d);
    if (!(p->criterion->tasks & (regression ? TL_TASK_REGRESSION : TL_TASK_CLASSIFICATION))) {
        tl_err_set(err, TL_EINVAL, "criterion %s does not apply to %s", p->criterion->name,
                   regression ? "regression" : "classification");
        return NULL;
    }
    if (n == 0 || n > UINT32_MAX) {
        tl_err_set(err, TL_EINVAL, "cannot grow a tree on %zu rows", n);
        return NULL;
    }
    size_t n_attrs = d->schema.n_attrs, max_levels = 2;
    for (size_t j = 0; j < n_attrs; j++) {
        if (d->schema.attrs[j].kind == TL_ATTR_NUMERIC)
            g.n_num++;
        else if (d->schema.attrs[j].n_levels > max_levels)
            max_levels = d->schema.attrs[j].n_levels;
    }
    rowset root = {n, NULL, NULL};
    uint32_t *blocks = NULL;
    int rc = TL_OK;
    g.t = tl_tree_alloc(g.k, regression, 64, err);
    g.w = malloc(d->n_rows * sizeof *g.w);
    g.branch = malloc(d->n_rows * sizeof *g.branch);
    g.scratch = malloc((max_levels + 3) * (g.k + 1) * sizeof *g.scratch);
    g.branch_w = malloc((max_levels + 2) * sizeof *g.branch_w);
    g.parent_buf = malloc(g.k * sizeof *g.parent_buf);
    g.num_attr = malloc((g.n_num ? g.n_num : 1) * sizeof *g.num_attr);
    g.num_slot = malloc((n_attrs ? n_attrs : 1) * sizeof *g.num_slot);
    g.tmp = malloc(n * sizeof *g.tmp);
    g.used = calloc(n_attrs ? n_attrs : 1, 1);
    g.cand = calloc(n_attrs ? n_attrs : 1, sizeof *g.cand);
    g.has_cand = calloc(n_attrs ? n_attrs : 1, 1);
    g.order = p->attr_order;
    if (!g.order && (g.file_order = malloc((n_attrs ? n_attrs : 1) * sizeof *g.file_order))) {
        for (size_t j = 0; j < n_attrs; j++)
            g.file_order[j] = j;
        g.order = g.file_order;
    }
    g.n_rows = n;
    g.multival = n_attrs > 0;
    for (size_t j = 0; j < n_attrs; j++)
        if (d->schema.attrs[j].kind != TL_ATTR_NOMINAL ||
            (double)d->schema.attrs[j].n_levels < p->avg_gain_level_share * (double)n - 1e-6)
            g.multival = 0;
    if (p->numeric && p->numeric->needs_train_values && g.n_num) {
        g.train_vals = malloc(n * g.n_num * sizeof *g.train_vals);
        g.train_n = malloc(g.n_num * sizeof *g.train_n);
        g.train_rows = malloc(n * g.n_num * sizeof *g.train_rows);
        if (!g.train_vals || !g.train_n || !g.train_rows) {
            rc = tl_err_set(err, TL_ENOMEM, "out of memory growing a tree on %zu rows", n);
            goto done;
        }
    }
    blocks = malloc(n * (g.n_num + 1) * sizeof *blocks);
    root.sorted = malloc((g.n_num ? g.n_num : 1) * sizeof *root.sorted);
    if (!g.t || !g.w || !g.branch || !g.scratch || !g.branch_w || !g.parent_buf || !g.num_attr || !g.num_slot ||
        !g.tmp || !g.used || !g.cand || !g.has_cand || !g.order || !blocks || !root.sorted) {
        rc = tl_err_set(err, TL_ENOMEM, "out of memory growing a tree on %zu rows", n);
        goto done;
    }
    for (size_t j = 0, s = 0; j < n_attrs; j++) {
        g.num_slot[j] = -1;
        if (d->schema.attrs[j].kind == TL_ATTR_NUMERIC) {
            g.num_attr[s] = j;
            g.num_slot[j] = (long)s++;
        }
    }
    root.base = blocks + n * g.n_num;
    for (size_t i = 0; i < n; i++) {
        if (rows[i] >= d->n_rows) {
            rc = tl_err_set(err, TL_EINVAL, "row %zu is out of range (%zu rows)", rows[i], d->n_rows);
            goto done;
        }
        root.base[i] = (uint32_t)rows[i];
        g.w[rows[i]] = tl_dataset_weight(d, rows[i]);
    }
    if ((rc = presort(&g, root.base, n, blocks, err)))
        goto done;
    for (size_t s = 0; s < g.n_num; s++)
        root.sorted[s] = blocks + s * n;
    if (tl_tree_add_nodes(g.t, 1, SIZE_MAX, err) == SIZE_MAX) {
        rc = TL_ENOMEM;
        goto done;
    }
    g.root_only = cand != NULL;
    rc = build(&g, 0, &root, 0, err);
    for (size_t j = 0; cand && !rc && j < n_attrs; j++) {
        cand[j] = g.cand[j];
        valid[j] = g.has_cand[j];
    }
done:
    free(g.w);
    free(g.branch);
    free(g.scratch);
    free(g.branch_w);
    free(g.parent_buf);
    free(g.num_attr);
    free(g.num_slot);
    free(g.tmp);
    free(g.used);
    free(g.cand);
    free(g.has_cand);
    free(g.file_order);
    free(g.train_vals);
    free(g.train_n);
    free(g.train_rows);
    free(blocks);
    free(root.sorted);
    if (rc || cand) {
        tl_tree_free(g.t);
        return NULL;
    }
    return g.t;
}

tl_tree *tl_grow(const tl_dataset *d, const size_t *rows, size_t n, const tl_grow_params *p,
                 tl_err *err)
{
    return grow(d, rows, n, p, NULL, NULL, err);
}

int tl_grow_root_candidates(const tl_dataset *d, const size_t *rows, size_t n,
                            const tl_grow_params *p, tl_split *cand, int *valid, tl_err *err)
{
    tl_err local;
    if (!err)
        err = &local; /* the result is err->code: a NULL err must still see a failure */
    tl_err_clear(err);
    for (size_t j = 0; j < d->schema.n_attrs; j++)
        valid[j] = 0;
    grow(d, rows, n, p, cand, valid, err);
    return err->code;
}
