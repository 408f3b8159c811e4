/* Minimal cost-complexity pruning (Breiman et al. 1984, ch. 3): the weakest-link sequence
 * and pruning to a given alpha; the cost_complexity pruner chooses alpha. Risks are shares of
 * the root's weight, so alphas compare with scikit-learn's ccp_alpha (impurity risk) and
 * rpart's cp times the root error. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "treelab/tl_prune.h"

/* Relative slack when comparing alphas: links within it are pruned together. */
#define TL_CCP_EPS 1e-12

static double node_risk(const tl_tree *t, const tl_criterion_type *crit, int risk_error,
                        size_t node)
{
    if (risk_error || t->regression || !crit->impurity)
        return tl_tree_node_error(t, node);
    return tl_tree_node_weight(t, node) * crit->impurity(t->stats + node * t->k, t->k);
}

typedef struct {
    double *r_node;   /* risk if the node were a leaf */
    double *r_branch; /* risk of the leaves of its current subtree */
    size_t *leaves;
    double *g; /* weakest-link value; INFINITY for leaves */
} ccp_work;

/* Post-order over the current (partly pruned) tree; returns the minimum g. */
static double update(const tl_tree *t, const unsigned char *pruned, ccp_work *w, size_t node)
{
    if (t->attr[node] < 0 || pruned[node]) {
        w->r_branch[node] = w->r_node[node];
        w->leaves[node] = 1;
        w->g[node] = INFINITY;
        return INFINITY;
    }
    double rb = 0, best = INFINITY;
    size_t lv = 0;
    for (size_t c = 0; c < t->n_children[node]; c++) {
        size_t ch = t->first_child[node] + c;
        double m = update(t, pruned, w, ch);
        if (m < best)
            best = m;
        rb += w->r_branch[ch];
        lv += w->leaves[ch];
    }
    w->r_branch[node] = rb;
    w->leaves[node] = lv;
    w->g[node] = lv > 1 ? (w->r_node[node] - rb) / (double)(lv - 1) : INFINITY;
    if (w->g[node] < 0) /* rounding: a split never raises the risk */
        w->g[node] = 0;
    return w->g[node] < best ? w->g[node] : best;
}

/* Prune (mark) every node of the current tree whose g is within slack of alpha_min; with
 * cut, record `reached` as the alpha at which each marked node is cut. */
static void prune_weakest(const tl_tree *t, unsigned char *pruned, const ccp_work *w,
                          double alpha_min, size_t node, double *cut, double reached)
{
    if (t->attr[node] < 0 || pruned[node])
        return;
    if (w->g[node] <= alpha_min + TL_CCP_EPS * fmax(1.0, fabs(alpha_min))) {
        pruned[node] = 1;
        if (cut)
            cut[node] = reached;
        return;
    }
    for (size_t c = 0; c < t->n_children[node]; c++)
        prune_weakest(t, pruned, w, alpha_min, t->first_child[node] + c, cut, reached);
}

static int work_alloc(ccp_work *w, size_t n)
{
    w->r_node = malloc(n * sizeof *w->r_node);
    w->r_branch = malloc(n * sizeof *w->r_branch);
    w->leaves = malloc(n * sizeof *w->leaves);
    w->g = malloc(n * sizeof *w->g);
    return w->r_node && w->r_branch && w->leaves && w->g ? 0 : -1;
}

static void work_free(ccp_work *w)
{
    free(w->r_node);
    free(w->r_branch);
    free(w->leaves);
    free(w->g);
}

/* Runs the weakest-link loop; with path != NULL records every subtree, with cut != NULL the
 * alpha at which each node is cut (both leave t as it is), otherwise stops before the first
 * link weaker than alpha and applies the pruning to t. */
static int run(tl_tree *t, const tl_criterion_type *crit, int risk_error, double alpha,
               tl_ccp_path *path, double *cut, tl_err *err)
{
    size_t n = t->n_nodes;
    ccp_work w;
    unsigned char *pruned = calloc(n ? n : 1, 1);
    int rc = TL_OK;
    if (work_alloc(&w, n ? n : 1) || !pruned) {
        rc = tl_err_set(err, TL_ENOMEM, "out of memory");
        goto done;
    }
    double root_w = tl_tree_node_weight(t, 0);
    for (size_t i = 0; i < n; i++)
        w.r_node[i] = root_w > 0 ? node_risk(t, crit, risk_error, i) / root_w : 0;
    size_t cap = 0;
    double cur_alpha = 0; /* the alpha at which the current subtree becomes optimal */
    double reached = 0;   /* the largest alpha_min so far */
    for (;;) {
        double alpha_min = update(t, pruned, &w, 0);
        if (path) {
            if (path->n == cap) {
                cap = cap ? 2 * cap : 16;
                double *a = realloc(path->alpha, cap * sizeof *a);
                if (a)
                    path->alpha = a;
                size_t *l = realloc(path->leaves, cap * sizeof *l);
                if (l)
                    path->leaves = l;
                double *r = realloc(path->risk, cap * sizeof *r);
                if (r)
                    path->risk = r;
                if (!a || !l || !r) {
                    rc = tl_err_set(err, TL_ENOMEM, "out of memory");
                    goto done;
                }
            }
            path->alpha[path->n] = cur_alpha;
            path->leaves[path->n] = w.leaves[0];
            path->risk[path->n] = w.r_branch[0];
            path->n++;
        }
        if (alpha_min == INFINITY)
            break;
        if (!path && !cut && alpha_min > alpha)
            break;
        cur_alpha = alpha_min;
        /* pruning at alpha stops at the first link above it: a link is cut once every
         * link before it is, even where rounding makes it a hair weaker than one of those */
        reached = alpha_min > reached ? alpha_min : reached;
        prune_weakest(t, pruned, &w, alpha_min, 0, cut, reached);
    }
    if (!path && !cut) {
        for (size_t i = 0; i < n; i++)
            if (pruned[i])
                tl_tree_make_leaf(t, i);
        rc = tl_tree_compact(t, err);
    }
done:
    work_free(&w);
    free(pruned);
    return rc;
}

int tl_ccp_path_compute(const tl_tree *t, const tl_criterion_type *crit, int risk_error,
                        tl_ccp_path *path, tl_err *err)
{
    memset(path, 0, sizeof *path);
    /* run() only marks nodes when recording a path: the tree is left as it is */
    int rc = run((tl_tree *)t, crit, risk_error, 0, path, NULL, err);
    if (rc)
        tl_ccp_path_free(path);
    return rc;
}

void tl_ccp_path_free(tl_ccp_path *path)
{
    if (!path)
        return;
    free(path->alpha);
    free(path->leaves);
    free(path->risk);
    memset(path, 0, sizeof *path);
}

int tl_ccp_prune(tl_tree *t, const tl_criterion_type *crit, int risk_error, double alpha,
                 tl_err *err)
{
    return run(t, crit, risk_error, alpha, NULL, NULL, err);
}

int tl_ccp_cut_alphas(const tl_tree *t, const tl_criterion_type *crit, int risk_error, double *cut,
                      tl_err *err)
{
    for (size_t i = 0; i < t->n_nodes; i++)
        cut[i] = INFINITY;
    /* run() only marks nodes when recording cut alphas: the tree is left as it is */
    return run((tl_tree *)t, crit, risk_error, INFINITY, NULL, cut, err);
}
