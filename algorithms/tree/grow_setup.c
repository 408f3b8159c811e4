/* The grower's setup: the combination checked before any work, and the per-fit buffers. */
#include <stdlib.h>
#include <string.h>

#include "grow_internal.h"

void tlg_ctx_free(tl_grow_ctx *g)
{
    free(g->w);
    free(g->branch);
    free(g->branch8);
    free(g->scratch);
    free(g->branch_w);
    free(g->parent_buf);
    free(g->miss_buf);
    free(g->num_attr);
    free(g->num_slot);
    free(g->tmp);
    free(g->v.tmp_x);
    free(g->v.tmp_y);
    free(g->used);
    free(g->cand);
    free(g->has_cand);
    free(g->found);
    free(g->file_order);
    free(g->v.train_vals);
    free(g->v.train_n);
    free(g->v.train_rows);
    free(g->ry);
    free(g->rw);
    free(g->rloss);
    free(g->rvalue);
    free(g->rwork);
    free(g->cut_left);
    free(g->cut_right);
    free(g->v.rec_buf);
    free(g->v.last_kept);
    free(g->v.branch1);
    tlg_lazy_free(g->v.lazy);
    tlg_children_pool_free(g);
    tlg_stale_free(g->v.stale);
}

/* Everything a fit needs besides the row blocks; TL_ENOMEM. */
int tlg_ctx_alloc(tl_grow_ctx *g, size_t n, tl_err *err)
{
    const tl_dataset *d = g->d;
    size_t n_attrs = d->schema.n_attrs, max_levels = 2, na = n_attrs ? n_attrs : 1;
    for (size_t j = 0; j < n_attrs; j++) {
        if (d->schema.attrs[j].kind == TL_ATTR_NUMERIC)
            g->n_num++;
        else if (d->schema.attrs[j].n_levels > max_levels)
            max_levels = d->schema.attrs[j].n_levels;
    }
    g->w = malloc(d->n_rows * sizeof *g->w);
    g->branch = malloc(d->n_rows * sizeof *g->branch);
    g->branch8 = malloc(d->n_rows ? d->n_rows : 1);
    g->scratch = malloc((max_levels + 4) * (g->k + 1) * sizeof *g->scratch);
    g->branch_w = malloc((max_levels + 2) * sizeof *g->branch_w);
    g->parent_buf = malloc(g->k * sizeof *g->parent_buf);
    g->miss_buf = malloc((max_levels + 2) * g->k * sizeof *g->miss_buf);
    g->num_attr = malloc((g->n_num ? g->n_num : 1) * sizeof *g->num_attr);
    g->num_slot = malloc(na * sizeof *g->num_slot);
    g->tmp = malloc(n * sizeof *g->tmp);
    g->used = calloc(na, 1);
    g->cand = calloc(na, sizeof *g->cand);
    g->has_cand = calloc(na, 1);
    g->found = malloc(na * sizeof *g->found);
    g->order = g->p->attr_order;
    if (!g->order && (g->file_order = malloc(na * sizeof *g->file_order))) {
        for (size_t j = 0; j < n_attrs; j++)
            g->file_order[j] = j;
        g->order = g->file_order;
    }
    /* the views the splitters asked for: sorted blocks (and packed values) carried down the
     * tree, or none and sorts on demand */
    unsigned num = tlg_wanted(g->p, TL_ATTR_NUMERIC).kinds,
             nom = tlg_wanted(g->p, TL_ATTR_NOMINAL).kinds;
    unsigned packed_bits = TL_VIEW_BIT(TL_VIEW_VALUES) | TL_VIEW_BIT(TL_VIEW_CLASSES);
    g->v.packed = g->n_num && g->p->numeric && (num & packed_bits);
    if (g->v.packed) {
        g->v.tmp_x = malloc(n * sizeof *g->v.tmp_x);
        g->v.tmp_y =
            d->y.code && tl_dataset_is_classification(d) ? malloc(n * sizeof *g->v.tmp_y) : NULL;
        if (!g->v.tmp_x || (tl_dataset_is_classification(d) && !g->v.tmp_y))
            return tl_err_set(err, TL_ENOMEM, "out of memory growing a tree on %zu rows", n);
    }
    int need_vals = ((num | nom) & TL_VIEW_BIT(TL_VIEW_TRAIN_VALUES)) != 0;
    int unsorted = g->p->numeric && !(num & (TL_VIEW_BIT(TL_VIEW_SORTED) | packed_bits)) &&
                   !need_vals;
    g->v.n_blocks = unsorted ? 0 : g->n_num;
    if (unsorted && !(g->v.lazy = calloc(1, sizeof *g->v.lazy)))
        return tl_err_set(err, TL_ENOMEM, "out of memory growing a tree on %zu rows", n);
    if (need_vals && g->n_num) {
        g->v.train_vals = malloc(n * g->n_num * sizeof *g->v.train_vals);
        g->v.train_n = malloc(g->n_num * sizeof *g->v.train_n);
        g->v.train_rows = malloc(n * g->n_num * sizeof *g->v.train_rows);
        if (!g->v.train_vals || !g->v.train_n || !g->v.train_rows)
            return tl_err_set(err, TL_ENOMEM, "out of memory growing a tree on %zu rows", n);
    }
    if (g->p->criterion->prefix_loss) {
        g->ry = malloc(n * sizeof *g->ry);
        g->rw = malloc(n * sizeof *g->rw);
        g->rloss = malloc(n * sizeof *g->rloss);
        g->rvalue = malloc(n * sizeof *g->rvalue);
        g->rwork = malloc(TL_ROW_WORK * n * sizeof *g->rwork);
        g->cut_left = malloc(n * sizeof *g->cut_left);
        g->cut_right = malloc(n * sizeof *g->cut_right);
        if (!g->ry || !g->rw || !g->rloss || !g->rvalue || !g->rwork || !g->cut_left ||
            !g->cut_right)
            return tl_err_set(err, TL_ENOMEM, "out of memory growing a tree on %zu rows", n);
    }
    if (!g->w || !g->branch || !g->branch8 || !g->scratch || !g->branch_w || !g->parent_buf ||
        !g->miss_buf || !g->num_attr || !g->num_slot || !g->tmp || !g->used || !g->cand ||
        !g->has_cand || !g->found || !g->order)
        return tl_err_set(err, TL_ENOMEM, "out of memory growing a tree on %zu rows", n);
    for (size_t j = 0, s = 0; j < n_attrs; j++) {
        g->num_slot[j] = -1;
        if (d->schema.attrs[j].kind == TL_ATTR_NUMERIC) {
            g->num_attr[s] = j;
            g->num_slot[j] = (long)s++;
        }
    }
    g->n_rows = n;
    g->multival = n_attrs > 0;
    for (size_t j = 0; j < n_attrs; j++)
        if (d->schema.attrs[j].kind != TL_ATTR_NOMINAL ||
            (double)d->schema.attrs[j].n_levels < g->rules.level_share * (double)n - 1e-6)
            g->multival = 0;
    return TL_OK;
}

/* The combination must make sense before any work: a criterion for the task, a splitter
 * for each attribute kind it is given. */
int tlg_check_params(const tl_grow_params *p, int regression, tl_err *err)
{
    if (!p->criterion)
        return tl_err_set(err, TL_EINVAL, "no criterion given");
    if (!(p->criterion->tasks & (regression ? TL_TASK_REGRESSION : TL_TASK_CLASSIFICATION)))
        return tl_err_set(err, TL_EINVAL, "criterion %s does not apply to %s: %s",
                          p->criterion->name, regression ? "regression" : "classification",
                          regression ? "use mse for a numeric target"
                                     : "it needs a numeric target");
    unsigned task = regression ? TL_TASK_REGRESSION : TL_TASK_CLASSIFICATION;
    const tl_splitter_type *sp[2] = {p->numeric, p->nominal};
    for (int i = 0; i < 2; i++)
        if (sp[i] && sp[i]->tasks && !(sp[i]->tasks & task))
            return tl_err_set(err, TL_EINVAL, "splitter %s needs a %s target", sp[i]->name,
                              regression ? "nominal" : "numeric");
    if (p->numeric && !(p->numeric->kinds & TL_KIND_BIT(TL_ATTR_NUMERIC)))
        return tl_err_set(err, TL_EINVAL, "splitter %s does not split numeric attributes",
                          p->numeric->name);
    if (p->nominal && !(p->nominal->kinds & TL_KIND_BIT(TL_ATTR_NOMINAL)))
        return tl_err_set(err, TL_EINVAL, "splitter %s does not split nominal attributes",
                          p->nominal->name);
    return TL_OK;
}
