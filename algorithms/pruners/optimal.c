/* Optimal pruning (Bohanec & Bratko, "Trading accuracy for simplicity in decision trees",
 * Machine Learning 15, 1994; the OPT algorithm): for every number of leaves l, the pruned
 * subtree with l leaves and the fewest training errors, by dynamic programming over the
 * tree. Bottom-up, a node's table E[l] (least errors of a pruned subtree rooted there with l
 * leaves) is the node as a leaf for l = 1, or the knapsack-style merge of its children's
 * tables (l shared among the children) when that is better. The whole curve
 * (leaves against training error) goes into the trace; the tree is pruned to the subtree of
 * the fewest errors with at most `leaves` leaves (0: with any number), ties to fewer leaves,
 * so leaves = 0 keeps the smallest error-minimal subtree.
 * Memory: one table per node, the sum over nodes of their leaves (n log n for a balanced
 * tree, n^2 / 2 for a chain); time: the merges, at most quadratic in the leaves. */
#include <math.h>
#include <stdlib.h>

#include "treelab/tl_prune.h"

static const tl_param_spec params[] = {
    {"leaves", TL_PARAM_INT, "0", 0, 1e9, NULL,
     "the most leaves the pruned tree may have; 0: the smallest subtree with the fewest "
     "training errors"},
    {NULL, 0, NULL, 0, 0, NULL, NULL},
};

static void *init(const tl_params *p, tl_err *err)
{
    tl_param_reader rd = tl_params_reader(params, p, err);
    long l = tl_params_int(&rd, "leaves");
    if (rd.rc)
        return NULL;
    size_t *s = malloc(sizeof *s);
    if (!s)
        tl_err_set(err, TL_ENOMEM, "out of memory");
    else
        *s = (size_t)l;
    return s;
}

/* Tables: node i's E[1..L(i)] at tab + off[i] (E[l] at index l - 1). */
typedef struct opt_work {
    size_t *off, *n_leaves;
    double *tab, *a, *b; /* a, b: merge scratch of the largest table */
} opt_work;

/* Merge the first j children's tables into out (1-based leaves, out[l - 1]); returns the
 * leaves of the merge (the sum of the children's). acc, tmp: scratch. */
static size_t merge_children(const tl_tree *t, const opt_work *w, size_t node, size_t upto,
                             double *acc, double *tmp)
{
    size_t first = t->first_child[node], la = 0;
    for (size_t j = 0; j < upto; j++) {
        size_t ch = first + j, lc = w->n_leaves[ch];
        const double *e = w->tab + w->off[ch];
        if (j == 0) {
            for (size_t l = 0; l < lc; l++)
                acc[l] = e[l];
            la = lc;
            continue;
        }
        /* tmp[l] for l = 2 .. la + lc leaves: min over a + c = l */
        for (size_t l = 0; l < la + lc; l++)
            tmp[l] = INFINITY;
        for (size_t x = 1; x <= la; x++)
            for (size_t y = 1; y <= lc; y++) {
                double v = acc[x - 1] + e[y - 1];
                if (v < tmp[x + y - 1])
                    tmp[x + y - 1] = v;
            }
        la += lc;
        for (size_t l = 0; l < la; l++)
            acc[l] = tmp[l];
    }
    return la;
}

/* Prune the subtree at node to its best subtree with exactly l leaves (E[l] finite). */
static int cut(tl_tree *t, const opt_work *w, size_t node, size_t l, tl_err *err)
{
    const double *e = w->tab + w->off[node];
    if (t->attr[node] < 0)
        return TL_OK;
    if (l == 1 && e[0] == tl_tree_node_error(t, node)) {
        tl_tree_make_leaf(t, node);
        return TL_OK;
    }
    /* share l among the children: from the last child back, the prefix merge of the others
     * plus this child's table must give the node's value (the same sums, so equal exactly) */
    size_t nc = t->n_children[node], first = t->first_child[node];
    double target = e[l - 1];
    size_t *give = malloc(nc * sizeof *give);
    if (!give)
        return tl_err_set(err, TL_ENOMEM, "out of memory");
    for (size_t j = nc; j-- > 0;) {
        size_t ch = first + j, lc = w->n_leaves[ch];
        const double *ec = w->tab + w->off[ch];
        if (j == 0) {
            give[0] = l;
            break;
        }
        size_t lp = merge_children(t, w, node, j, w->a, w->b);
        size_t best = 0;
        for (size_t y = 1; y <= lc && y < l; y++) {
            size_t x = l - y;
            if (x <= lp && w->a[x - 1] + ec[y - 1] == target) {
                best = y;
                break;
            }
        }
        if (!best) { /* rounding: take the closest */
            double gap = INFINITY;
            for (size_t y = 1; y <= lc && y < l; y++) {
                size_t x = l - y;
                double d = x <= lp ? fabs(w->a[x - 1] + ec[y - 1] - target) : INFINITY;
                if (d < gap)
                    gap = d, best = y;
            }
        }
        give[j] = best;
        target -= ec[best - 1];
        l -= best;
    }
    int rc = TL_OK;
    for (size_t j = 0; j < nc && !rc; j++)
        rc = cut(t, w, first + j, give[j], err);
    free(give);
    return rc;
}

static int prune(const void *state, tl_tree *t, const tl_prune_input *in, tl_prune_trace *trace,
                 tl_err *err)
{
    (void)in;
    size_t want = *(const size_t *)state, nn = t->n_nodes, total = 0;
    opt_work w = {malloc(nn * sizeof *w.off), malloc(nn * sizeof *w.n_leaves), NULL, NULL, NULL};
    int rc = TL_OK;
    if (!w.off || !w.n_leaves) {
        rc = tl_err_set(err, TL_ENOMEM, "out of memory");
        goto done;
    }
    for (size_t i = nn; i-- > 0;) {
        w.n_leaves[i] = t->attr[i] < 0 ? 1 : 0;
        for (size_t c = 0; t->attr[i] >= 0 && c < t->n_children[i]; c++)
            w.n_leaves[i] += w.n_leaves[t->first_child[i] + c];
    }
    for (size_t i = 0; i < nn; i++) {
        w.off[i] = total;
        total += w.n_leaves[i];
    }
    size_t big = nn ? w.n_leaves[0] : 1;
    w.tab = malloc((total ? total : 1) * sizeof *w.tab);
    w.a = malloc(big * sizeof *w.a);
    w.b = malloc(big * sizeof *w.b);
    if (!w.tab || !w.a || !w.b) {
        rc = tl_err_set(err, TL_ENOMEM, "optimal pruning: out of memory for %zu table entries",
                        total);
        goto done;
    }
    /* children come after their parent: from the last node back is bottom-up */
    for (size_t i = nn; i-- > 0;) {
        double *e = w.tab + w.off[i];
        if (t->attr[i] >= 0) {
            size_t lm = merge_children(t, &w, i, t->n_children[i], e, w.b);
            for (size_t l = lm; l < w.n_leaves[i]; l++) /* cannot happen: lm = n_leaves */
                e[l] = INFINITY;
        } else {
            e[0] = 0;
        }
        double leaf = tl_tree_node_error(t, i);
        if (t->attr[i] < 0 || leaf <= e[0])
            e[0] = leaf;
    }
    /* the curve, from the grown tree's size down to the root alone, as the weakest-link
     * sequence is recorded; ties within a relative 1e-12 go to fewer leaves */
    const double *root = w.tab;
    size_t lr = nn ? w.n_leaves[0] : 0, best = 0;
    double root_w = nn ? tl_tree_node_weight(t, 0) : 0;
    trace->param_name = "leaves";
    trace->risk_name = "error";
    for (size_t l = lr; l >= 1 && !rc; l--) {
        if (isinf(root[l - 1]))
            continue;
        rc = tl_prune_trace_add(trace, (double)l, (double)l, root_w > 0 ? root[l - 1] / root_w : 0,
                                NAN, NAN, err);
        if (want && l > want)
            continue;
        if (!best || root[l - 1] <= root[best - 1] + 1e-12 * fmax(1.0, root[best - 1]))
            best = l;
    }
    if (rc || !best)
        goto done;
    for (size_t i = 0; i < trace->n; i++)
        if (trace->leaves[i] == (double)best)
            trace->chosen = i;
    trace->chosen_param = (double)best;
    rc = cut(t, &w, 0, best, err);
    if (!rc)
        rc = tl_tree_compact(t, err);
done:
    free(w.off);
    free(w.n_leaves);
    free(w.tab);
    free(w.a);
    free(w.b);
    return rc;
}

static const tl_pruner_type optimal = {
    .name = "optimal",
    .summary = "for every number of leaves the subtree with the fewest training errors (DP); "
               "keeps the best with at most `leaves` leaves (OPT)",
    .reference = "Bohanec & Bratko, Trading accuracy for simplicity in decision trees, Machine "
                 "Learning 15 (1994)",
    .params = params,
    .init = init,
    .free = free,
    .needs = TL_NEEDS_CLASSES,
    .prune = prune,
};
const tl_pruner_type *const tl_pruner_optimal = &optimal;
