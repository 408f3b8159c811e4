/* If-then rules, one per leaf, each path's conditions merged per attribute into the tightest
 * bounds (`15 < age <= 35`, not `age <= 35 AND age > 15 AND age <= 40`) or one value set. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "export_internal.h"

/* What the path so far says about one attribute. */
typedef struct bound {
    int on;             /* the path tests this attribute */
    int has_lo, has_hi; /* numeric: lo < x, x <= hi */
    double lo, hi;
    uint64_t mask; /* nominal with at most 64 levels: the levels still allowed */
    long eq;       /* nominal with more levels (multiway only): the level, or -1 */
} bound;

/* A level of the depth-first walk (on the heap: a tree may be deeper than the C stack):
 * the node, its next branch, and what the walk restores when it leaves the node: the
 * node's attribute's bound and the number of attributes tested above. */
typedef struct frame {
    size_t node, next, n_order;
    bound saved;
} frame;

static uint64_t all_levels(size_t n)
{
    return n >= 64 ? ~(uint64_t)0 : ((uint64_t)1 << n) - 1;
}

/* Narrow b by branch br of node's test. */
static void narrow(const tl_tree *t, const tl_schema *s, size_t node, size_t br, bound *b)
{
    const tl_attr_info *a = &s->attrs[t->attr[node]];
    if (!b->on) {
        *b = (bound){1, 0, 0, -INFINITY, INFINITY, all_levels(a->n_levels), -1};
    }
    switch ((tl_split_kind)t->kind[node]) {
    case TL_SPLIT_NUMERIC:
        if (br == 0 && (!b->has_hi || t->threshold[node] < b->hi))
            b->hi = t->threshold[node], b->has_hi = 1;
        else if (br != 0 && (!b->has_lo || t->threshold[node] > b->lo))
            b->lo = t->threshold[node], b->has_lo = 1;
        return;
    case TL_SPLIT_MULTIWAY:
        if (a->n_levels > 64)
            b->eq = (long)br;
        else
            b->mask &= br < 64 ? (uint64_t)1 << br : 0;
        return;
    case TL_SPLIT_SUBSET:
        b->mask &= (br == 0 ? t->mask[node] : ~t->mask[node]) & all_levels(a->n_levels);
        return;
    }
}

static const char *level_name(const tl_attr_info *a, size_t l)
{
    return l < a->n_levels ? a->levels[l] : "?";
}

/* One merged condition. */
static void put_bound(const tl_attr_info *a, const bound *b, FILE *f)
{
    char lo[64], hi[64];
    if (a->kind == TL_ATTR_NUMERIC) {
        tl_export_threshold(lo, sizeof lo, b->lo);
        tl_export_threshold(hi, sizeof hi, b->hi);
        if (b->has_lo && b->has_hi)
            fprintf(f, "%s < %s <= %s", lo, a->name, hi);
        else if (b->has_lo)
            fprintf(f, "%s > %s", a->name, lo);
        else
            fprintf(f, "%s <= %s", a->name, hi);
        return;
    }
    size_t count = 0, first = 0;
    for (size_t l = 0; l < 64 && l < a->n_levels; l++)
        if ((b->mask >> l) & 1u)
            first = count++ ? first : l;
    if (b->eq >= 0 || count == 1) {
        fprintf(f, "%s = %s", a->name, level_name(a, b->eq >= 0 ? (size_t)b->eq : first));
        return;
    }
    fprintf(f, "%s in {", a->name);
    for (size_t l = 0, n = 0; l < 64 && l < a->n_levels; l++)
        if ((b->mask >> l) & 1u)
            fprintf(f, "%s%s", n++ ? ", " : "", a->levels[l]);
    fputc('}', f);
}

static void put_rule(const tl_tree *t, const tl_schema *s, size_t leaf, const bound *b,
                     const size_t *order, size_t n_order, FILE *f)
{
    char label[512];
    fputs("IF ", f);
    if (!n_order)
        fputs("true", f);
    for (size_t i = 0; i < n_order; i++) {
        if (i)
            fputs(" AND ", f);
        put_bound(&s->attrs[order[i]], &b[order[i]], f);
    }
    tl_export_leaf_label(t, s, leaf, label, sizeof label);
    fprintf(f, " THEN %s = %s\n", s->target.name, label);
}

static int push(frame **v, size_t *n, size_t *cap, size_t node, size_t n_order, const bound *b,
                tl_err *err)
{
    if (*n == *cap) {
        size_t c = *cap ? 2 * *cap : 64;
        frame *grown = realloc(*v, c * sizeof *grown);
        if (!grown)
            return tl_err_set(err, TL_ENOMEM, "out of memory showing a tree");
        *v = grown;
        *cap = c;
    }
    (*v)[(*n)++] = (frame){node, 0, n_order, b ? *b : (bound){0, 0, 0, 0, 0, 0, -1}};
    return TL_OK;
}

int tl_export_rules(const tl_tree *t, const tl_schema *s, FILE *f, tl_err *err)
{
    size_t na = s->n_attrs ? s->n_attrs : 1, n = 0, cap = 0, n_order = 0;
    bound *b = calloc(na, sizeof *b);
    size_t *order = malloc(na * sizeof *order); /* tested attributes, first tested first */
    frame *v = NULL;
    int rc = b && order ? TL_OK : tl_err_set(err, TL_ENOMEM, "out of memory showing a tree");
    if (!rc)
        rc = push(&v, &n, &cap, 0, 0, t->attr[0] >= 0 ? &b[t->attr[0]] : NULL, err);
    while (!rc && n) {
        frame *at = &v[n - 1];
        size_t node = at->node;
        if (t->attr[node] < 0) {
            put_rule(t, s, node, b, order, n_order, f);
            n--;
            continue;
        }
        size_t attr = (size_t)t->attr[node];
        b[attr] = at->saved; /* as above this node, for the next branch or for leaving */
        n_order = at->n_order;
        if (at->next >= t->n_children[node]) {
            n--;
            continue;
        }
        size_t br = at->next++;
        if (!b[attr].on)
            order[n_order++] = attr;
        narrow(t, s, node, br, &b[attr]);
        size_t ch = t->first_child[node] + br;
        rc = push(&v, &n, &cap, ch, n_order, t->attr[ch] >= 0 ? &b[t->attr[ch]] : NULL, err);
    }
    free(v);
    free(b);
    free(order);
    return rc;
}
