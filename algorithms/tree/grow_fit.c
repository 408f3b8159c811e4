/* One fit of the grower around its loop (grow.c): the rows grown on, the fit's partition
 * (its one index array, the sorted blocks and packed values kept with it) or compact
 * records, the splitters' per-fit work, and the public entry points tl_grow and
 * tl_grow_root_candidates. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "grow_internal.h"

/* How many attributes of row are unknown. */
static size_t n_unknown(const tl_dataset *d, size_t row)
{
    size_t n = 0;
    for (size_t a = 0; a < d->schema.n_attrs; a++)
        n += (size_t)tl_dataset_is_missing(d, a, row);
    return n;
}

/* 0 when the missing-value method leaves row out of growing. */
static int grown_on(const tl_grow_params *p, const tl_dataset *d, size_t row)
{
    if (!p->missing || !(p->missing->complete_rows || p->missing->known_rows))
        return 1;
    size_t u = n_unknown(d, row);
    return p->missing->complete_rows ? u == 0 : u < d->schema.n_attrs;
}

/* The fit's partition: the root's rows sorted per numeric attribute (and the packed values
 * and class codes for classification), n rows a block; no blocks when no splitter asked for
 * them (the rows are still put in increasing order). */
static int sorted_blocks(tl_grow_ctx *g, size_t n, tlg_rowset *root, tlg_part *part, tl_err *err)
{
    part->stride = n;
    part->sorted = malloc((n * g->v.n_blocks > 0 ? n * g->v.n_blocks : 1) * sizeof *part->sorted);
    int classes = g->v.tmp_y != NULL;
    size_t cells = n * g->n_num > 0 ? n * g->n_num : 1;
    if (g->v.packed) {
        part->xs = malloc(cells * sizeof *part->xs);
        part->ys = classes ? malloc(cells * sizeof *part->ys) : NULL;
    }
    if (!part->sorted || (g->v.packed && (!part->xs || (classes && !part->ys))))
        return tl_err_set(err, TL_ENOMEM, "out of memory growing a tree on %zu rows", n);
    int rc = tlg_presort(g, part->rows, root->n, part->sorted, part->xs, part->ys, err);
    return rc ? rc : tlg_stale_setup(g, root, err);
}

/* The compact records instead (tlg_compact_applies): the root's rows in increasing order, as
 * tlg_presort leaves them, so the node statistics are summed in the same order. */
static int compact_root(tl_grow_ctx *g, tlg_rowset *root, tl_err *err)
{
    g->v.packed = 0;
    free(g->v.tmp_x);
    free(g->v.tmp_y);
    g->v.tmp_x = NULL;
    g->v.tmp_y = NULL;
    tlg_sort_rows(tlg_rows(root), root->n);
    return tlg_compact_setup(g, g->n_rows, err);
}

/* The splitters' per-fit work (tl_splitter_type.prepare) on the rows grown on. */
static int prepare_slots(tl_grow_ctx *g, const tlg_rowset *root, tl_err *err)
{
    const tl_splitter_type *sp[2] = {g->p->numeric, g->p->nominal};
    const void *st[2] = {g->p->numeric_state, g->p->nominal_state};
    tl_node_rows view = {
        .n = root->n, .rows = tlg_rows(root), .w = g->w, .views = root, .unit_weights = root->unit};
    for (int k = 0; k < 2; k++)
        if (sp[k] && sp[k]->prepare) {
            int rc = sp[k]->prepare(st[k], g, &view, k ? TL_ATTR_NOMINAL : TL_ATTR_NUMERIC,
                                    &g->prep[k], err);
            if (rc)
                return rc;
        }
    return TL_OK;
}

static void release_slots(tl_grow_ctx *g)
{
    const tl_splitter_type *sp[2] = {g->p->numeric, g->p->nominal};
    const void *st[2] = {g->p->numeric_state, g->p->nominal_state};
    for (int k = 0; k < 2; k++)
        if (g->prep[k] && sp[k] && sp[k]->release)
            sp[k]->release(st[k], k ? TL_ATTR_NOMINAL : TL_ATTR_NUMERIC, g->prep[k]);
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
    if (tlg_check_params(p, regression, err))
        return NULL;
    if (p->criterion->rules)
        p->criterion->rules(p->criterion_state, &g.rules);
    if (n == 0 || n > UINT32_MAX) {
        tl_err_set(err, TL_EINVAL, "cannot grow a tree on %zu rows", n);
        return NULL;
    }
    tlg_part part = {0}; /* the fit's one index array and the blocks kept with it */
    tlg_rowset root = {.part = &part, .n = n, .unit = 1};
    g.t = tl_tree_alloc(g.k, regression, 64, err);
    int rc = g.t ? tlg_ctx_alloc(&g, n, err) : TL_ENOMEM;
    if (!rc && p->criterion->prefix_loss)
        rc = tl_tree_keep_values(g.t, err);
    uint32_t *base = NULL;
    if (!rc && !(base = part.rows = malloc(n * sizeof *part.rows)))
        rc = tl_err_set(err, TL_ENOMEM, "out of memory growing a tree on %zu rows", n);
    if (!rc) {
        root.n = 0;
        for (size_t i = 0; i < n && !rc; i++) {
            if (rows[i] >= d->n_rows) {
                rc = tl_err_set(err, TL_EINVAL, "row %zu is out of range (%zu rows)", rows[i],
                                d->n_rows);
                break;
            }
            if (!grown_on(p, d, rows[i]))
                continue;
            base[root.n++] = (uint32_t)rows[i];
            g.w[rows[i]] = tl_dataset_weight(d, rows[i]);
            root.unit &= g.w[rows[i]] == 1.0;
        }
        /* no row to grow on (every row lacks a value): the tree is one leaf of them all,
         * what complete cases can say with no complete case */
        for (size_t i = 0; !rc && root.n == 0 && i < n; i++) {
            base[i] = (uint32_t)rows[i];
            g.w[rows[i]] = tl_dataset_weight(d, rows[i]);
            root.unit &= g.w[rows[i]] == 1.0;
            g.leaf_only = i + 1 == n;
        }
        if (g.leaf_only)
            root.n = n;
    }
    if (!rc) {
        g.v.compact = !g.leaf_only && tlg_compact_applies(d, p, base, root.n);
        rc = g.v.compact ? compact_root(&g, &root, err)
                       : sorted_blocks(&g, n, &root, &part, err);
    }
    if (!rc && tl_tree_add_nodes(g.t, 1, SIZE_MAX, err) == SIZE_MAX)
        rc = TL_ENOMEM;
    if (!rc)
        rc = prepare_slots(&g, &root, err);
    if (!rc)
        rc = tlg_run(&g, &root, cand != NULL, err);
    release_slots(&g);
    for (size_t j = 0; cand && !rc && j < d->schema.n_attrs; j++) {
        cand[j] = g.cand[j];
        valid[j] = g.has_cand[j];
    }
    tlg_ctx_free(&g);
    free(part.rows);
    free(part.sorted);
    free(part.xs);
    free(part.ys);
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
