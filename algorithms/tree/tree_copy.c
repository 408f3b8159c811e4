/* Copies of a tree and of a node's test: the deep copy, compaction of the reachable nodes
 * (renumbered depth first), and a node taking a descendant's test (subtree raising). */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "treelab/tl_tree.h"

/* The one list of a node's test fields (attribute, kind, threshold, mask, rule for unknown
 * values, levels seen): a new field of the test is added here, and both the copy of a tree
 * and a pruner's raising of a branch carry it. */
static void copy_test(tl_tree *dst, size_t dst_node, const tl_tree *src, size_t node)
{
    dst->attr[dst_node] = src->attr[node];
    dst->kind[dst_node] = src->kind[node];
    dst->threshold[dst_node] = src->threshold[node];
    dst->mask[dst_node] = src->mask[node];
    dst->unknown[dst_node] = src->unknown[node];
    dst->seen[dst_node] = src->seen[node];
}

void tl_tree_take_test(tl_tree *t, size_t node, size_t from)
{
    copy_test(t, node, t, from);
    t->sur_first[node] = t->sur_first[from];
    t->sur_n[node] = t->sur_n[from];
    t->first_child[node] = t->first_child[from];
    t->n_children[node] = t->attr[from] < 0 ? 0 : t->n_children[from];
    for (size_t c = 0; c < t->n_children[node]; c++)
        t->parent[t->first_child[node] + c] = node;
}

/* Copy node's test and statistics from src into dst_node of dst, and for a split give
 * dst_node its block of children (appended, so they come after every node made so far). */
static int copy_node(tl_tree *dst, size_t dst_node, const tl_tree *src, size_t node, tl_err *err)
{
    copy_test(dst, dst_node, src, node);
    memcpy(dst->stats + dst_node * dst->k, src->stats + node * src->k, src->k * sizeof(double));
    if (src->value)
        dst->value[dst_node] = src->value[node];
    if (src->p_value && !isnan(src->p_value[node]) &&
        tl_tree_set_p_value(dst, dst_node, src->p_value[node], err))
        return TL_ENOMEM;
    if (src->attr[node] < 0)
        return TL_OK;
    if (src->sur_n[node] && tl_tree_set_surrogates(dst, dst_node, src->sur + src->sur_first[node],
                                                   src->sur_n[node], err))
        return TL_ENOMEM;
    size_t nc = src->n_children[node];
    size_t first = tl_tree_add_nodes(dst, nc, dst_node, err);
    if (first == SIZE_MAX)
        return TL_ENOMEM;
    dst->first_child[dst_node] = first;
    dst->n_children[dst_node] = nc;
    return TL_OK;
}

/* The nodes of t reachable from the root, renumbered depth-first: a node's children get
 * their block when the walk reaches the node, before any of its children's subtrees (the
 * numbering the pruners' compaction has always produced). An explicit stack, not recursion:
 * a tree may be far deeper than the C stack allows. */
static tl_tree *copy_reachable(const tl_tree *t, tl_err *err)
{
    typedef struct {
        size_t src, dst, next; /* next: the child to copy next */
    } frame;
    tl_tree *c = tl_tree_alloc(t->k, t->regression, t->n_nodes ? t->n_nodes : 1, err);
    if (!c)
        return NULL;
    frame local[64], *stack = local;
    size_t sp = 0, cap = sizeof local / sizeof *local;
    int rc = t->value ? tl_tree_keep_values(c, err) : TL_OK;
    if (!rc)
        rc = tl_tree_add_nodes(c, 1, SIZE_MAX, err) == SIZE_MAX ? TL_ENOMEM
                                                                : copy_node(c, 0, t, 0, err);
    if (!rc && t->attr[0] >= 0)
        stack[sp++] = (frame){0, 0, 0};
    while (!rc && sp) {
        frame *top = &stack[sp - 1];
        if (top->next >= t->n_children[top->src]) {
            sp--;
            continue;
        }
        size_t s = t->first_child[top->src] + top->next;
        size_t d = c->first_child[top->dst] + top->next;
        top->next++;
        if ((rc = copy_node(c, d, t, s, err)) || t->attr[s] < 0)
            continue;
        if (sp == cap) {
            frame *grown = stack == local ? malloc(2 * cap * sizeof *grown)
                                          : realloc(stack, 2 * cap * sizeof *grown);
            if (!grown) {
                rc = tl_err_set(err, TL_ENOMEM, "out of memory");
                continue;
            }
            if (stack == local)
                memcpy(grown, local, sizeof local);
            stack = grown;
            cap *= 2;
        }
        stack[sp++] = (frame){s, d, 0};
    }
    if (stack != local)
        free(stack);
    if (rc) {
        tl_tree_free(c);
        return NULL;
    }
    return c;
}

tl_tree *tl_tree_copy(const tl_tree *t, tl_err *err)
{
    return copy_reachable(t, err);
}

int tl_tree_compact(tl_tree *t, tl_err *err)
{
    tl_tree *c = copy_reachable(t, err);
    if (!c)
        return TL_ENOMEM;
    tl_tree tmp = *t;
    *t = *c;
    *c = tmp;
    tl_tree_free(c);
    return TL_OK;
}
