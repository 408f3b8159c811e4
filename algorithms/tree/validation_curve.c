/* The weakest-link sequence of a grown tree on validation accuracy (the curve the validation
 * pruners are judged by), and a tree's accuracy on two row sets, from routed class weights. */
#include <math.h>
#include <stdlib.h>

#include "treelab/tl_tree.h"

/* Where the walk of correct() stands at one level: the node, its next child, and the sum so
 * far of its children's subtrees. */
typedef struct sum_level {
    size_t node, next;
    double sum;
} sum_level;

/* Scratch for correct(): the levels of its walk, grown on the heap as needed (a tree may be
 * far deeper than the C stack allows). */
typedef struct sum_stack {
    sum_level *v;
    size_t cap;
} sum_stack;

/* Weight of the rows routed by reach that the current tree (pruned[] marks cut nodes)
 * classifies right below node into *sum, and its leaves. Depth first without recursion; each
 * subtree is summed on its own and then added into its parent's sum, as a recursion adds. */
static int correct(const tl_tree *t, const unsigned char *pruned, const double *reach, size_t node,
                   sum_stack *st, double *sum, size_t *leaves, tl_err *err)
{
    if (t->attr[node] < 0 || pruned[node]) {
        *leaves = 1;
        *sum = reach[node * t->k + tl_tree_node_class(t, node)];
        return TL_OK;
    }
    *leaves = 0;
    size_t sp = 0;
    for (size_t push = node;;) {
        if (push != SIZE_MAX) {
            if (sp == st->cap) {
                size_t cap = st->cap ? 2 * st->cap : 64;
                sum_level *grown = realloc(st->v, cap * sizeof *grown);
                if (!grown)
                    return tl_err_set(err, TL_ENOMEM, "out of memory");
                st->v = grown;
                st->cap = cap;
            }
            st->v[sp++] = (sum_level){push, 0, 0};
            push = SIZE_MAX;
        }
        sum_level *top = &st->v[sp - 1];
        if (top->next >= t->n_children[top->node]) {
            double sub = top->sum;
            if (!--sp) {
                *sum = sub;
                return TL_OK;
            }
            st->v[sp - 1].sum += sub;
            continue;
        }
        size_t ch = t->first_child[top->node] + top->next++;
        if (t->attr[ch] < 0 || pruned[ch]) {
            ++*leaves;
            top->sum += reach[ch * t->k + tl_tree_node_class(t, ch)];
        } else {
            push = ch;
        }
    }
}

/* The node whose pruning costs the least validation accuracy per leaf removed into *best
 * (SIZE_MAX when only the root is left); ties go to the lowest node number. */
static int weakest(const tl_tree *t, const unsigned char *pruned, const double *reach,
                   sum_stack *st, size_t *best, tl_err *err)
{
    double best_cost = INFINITY;
    *best = SIZE_MAX;
    for (size_t n = 0; n < t->n_nodes; n++) {
        if (t->attr[n] < 0 || pruned[n])
            continue;
        int live = 1; /* under a cut node it is gone already */
        for (size_t a = t->parent[n]; a != SIZE_MAX && live; a = t->parent[a])
            live = !pruned[a];
        if (!live)
            continue;
        size_t leaves;
        double sub;
        int rc = correct(t, pruned, reach, n, st, &sub, &leaves, err);
        if (rc)
            return rc;
        double cost = (sub - reach[n * t->k + tl_tree_node_class(t, n)]) / (double)(leaves - 1);
        if (cost < best_cost - 1e-12) {
            best_cost = cost;
            *best = n;
        }
    }
    return TL_OK;
}

int tl_tree_accuracies(const tl_tree *t, const tl_dataset *d, const size_t *va, size_t nva,
                       const size_t *te, size_t nte, double *acc_va, double *acc_te, size_t *leaves,
                       tl_err *err)
{
    double *reach = malloc(2 * t->n_nodes * t->k * sizeof *reach);
    unsigned char *none = calloc(t->n_nodes, 1);
    sum_stack st = {0};
    double sv = 0, stt = 0;
    int rc = reach && none ? TL_OK : tl_err_set(err, TL_ENOMEM, "out of memory");
    if (!rc)
        rc = tl_tree_route(t, d, va, nva, reach, err);
    if (!rc)
        rc = tl_tree_route(t, d, te, nte, reach + t->n_nodes * t->k, err);
    if (!rc)
        rc = correct(t, none, reach, 0, &st, &sv, leaves, err);
    if (!rc)
        rc = correct(t, none, reach + t->n_nodes * t->k, 0, &st, &stt, leaves, err);
    if (!rc) {
        *acc_va = sv / (double)nva;
        *acc_te = stt / (double)nte;
    }
    free(reach);
    free(none);
    free(st.v);
    return rc;
}

int tl_tree_validation_curve(const tl_tree *t, const tl_dataset *d, const size_t *va, size_t nva,
                             const size_t *te, size_t nte, double *x, double *yv, double *yt,
                             size_t *n, tl_err *err)
{
    size_t nn = t->n_nodes, k = t->k;
    double *reach = malloc(2 * nn * k * sizeof *reach);
    unsigned char *pruned = calloc(nn, 1);
    int rc = reach && pruned ? TL_OK : tl_err_set(err, TL_ENOMEM, "out of memory");
    if (!rc)
        rc = tl_tree_route(t, d, va, nva, reach, err);
    if (!rc)
        rc = tl_tree_route(t, d, te, nte, reach + nn * k, err);
    *n = 0;
    sum_stack st = {0};
    for (size_t cut = 0; !rc;) {
        if (*n)
            pruned[cut] = 1;
        size_t leaves;
        double sv, stt;
        if ((rc = correct(t, pruned, reach, 0, &st, &sv, &leaves, err)) ||
            (rc = correct(t, pruned, reach + nn * k, 0, &st, &stt, &leaves, err)))
            break;
        yv[*n] = sv / (double)nva;
        yt[*n] = stt / (double)nte;
        x[(*n)++] = (double)leaves;
        if (leaves == 1 || (rc = weakest(t, pruned, reach, &st, &cut, err)) || cut == SIZE_MAX)
            break;
    }
    free(reach);
    free(pruned);
    free(st.v);
    return rc;
}
