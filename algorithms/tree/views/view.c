/* The one door to a node's views (tl_grow_view): which forms of the rows a fit keeps, from
 * what its splitters ask (tl_splitter_type.views), and each form for a node and attribute:
 * the sorted blocks and packed values, ranges partitioned in place with the rows
 * (grow_rows.c), the compact records (records.c), sorts on demand (sort.c); and the per-fit
 * ones, the training values and what a splitter prepared. */
#include <stdint.h>

#include "../grow_internal.h"

tl_view_request tlg_wanted(const tl_grow_params *p, int kind)
{
    const tl_splitter_type *sp = kind == TL_ATTR_NOMINAL ? p->nominal : p->numeric;
    const void *st = kind == TL_ATTR_NOMINAL ? p->nominal_state : p->numeric_state;
    tl_view_request want = {0, 0};
    if (sp && sp->views)
        sp->views(st, kind, &want);
    return want;
}

/* The records of slot for the node: its kept block, or (a node above rec_cap rows) built now
 * in g->tmp, free until the partition. */
static const uint32_t *records(const tl_grow_ctx *g, const tlg_rowset *rs, size_t slot)
{
    if (!g->v.compact)
        return NULL;
    if (rs->rec)
        return tlg_rec(rs, slot);
    tl_err err;
    return tlg_attr_records(g, tlg_rows(rs), rs->n, slot, g->tmp, &err) ? NULL : g->tmp;
}

const void *tl_grow_view(const tl_grow_ctx *g, const tl_node_rows *node, size_t attr,
                         tl_view_kind kind)
{
    if (attr >= g->d->schema.n_attrs || g->num_slot[attr] < 0 || !node->views)
        return NULL;
    const tlg_rowset *rs = node->views;
    size_t s = (size_t)g->num_slot[attr];
    const void *out;
    switch (kind) {
    case TL_VIEW_SORTED:
        if (!g->v.n_blocks) /* none kept for this fit: sorted here, for the caller alone */
            return tlg_sort_node(g, node, s);
        out = tlg_sorted(rs, s);
        break;
    case TL_VIEW_VALUES:
        out = tlg_xs(rs, s);
        break;
    case TL_VIEW_CLASSES:
        out = tlg_ys(rs, s);
        break;
    case TL_VIEW_RECORDS:
        return records(g, rs, s);
    default:
        return NULL;
    }
    if (out && g->v.stale) /* the block sorted for this node first (same place) */
        tlg_stale_ask(g, rs, s, node->id);
    return out;
}

unsigned tlg_record_shift(const tl_grow_ctx *g)
{
    return g->v.rec_shift;
}

const double *tl_grow_train_values(const tl_grow_ctx *g, size_t attr, size_t *n,
                                   const uint32_t **rows)
{
    /* on the compact path an attribute's values are kept at the root's first sort of it:
     * before that (a splitter's prepare, an accept at the root) there are none yet */
    if (!g->v.train_vals || g->num_slot[attr] < 0 || g->v.train_n[g->num_slot[attr]] == SIZE_MAX)
        return NULL;
    size_t s = (size_t)g->num_slot[attr];
    *n = g->v.train_n[s];
    if (rows)
        *rows = g->v.train_rows + s * g->n_rows;
    return g->v.train_vals + s * g->n_rows;
}

void *tl_grow_prepared(const tl_grow_ctx *g, size_t attr)
{
    if (attr >= g->d->schema.n_attrs)
        return NULL;
    return g->prep[g->d->schema.attrs[attr].kind == TL_ATTR_NOMINAL];
}
