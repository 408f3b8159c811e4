/* The greedy grower shared by every hard tree, as a loop of named steps over a work stack:
 * node statistics, stop rules, best test per attribute (the splitters), selection (the
 * criterion's rules), acceptance (pre-pruning), partition of the rows, children. Depth
 * first, children in branch order, so node numbering is that of the recursive definition. */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "grow_internal.h"

/* Gains at or below this share of the node's impurity are rounding, not a decrease. */
#define TL_GAIN_EPS 1e-12

/* One node on the work stack: its rows and, once split, its children still to grow. */
typedef struct frame {
    size_t node, depth;
    tlg_rowset rs;
    int expanded;
    tlg_children kids; /* n = 0 for a leaf */
    size_t next;       /* next child to push */
    int marked_attr;   /* multiway attribute this node marked used, or -1 */
    unsigned char was_used;
    int materialised; /* this node built the compact records its subtree uses */
} frame;

/* Step 1: the node's statistics from its rows (in row-block order, so sums are exact
 * repeats of what the children's statistics were when the parent was split). */
static double node_stats(tl_grow_ctx *g, const frame *f, double *stats)
{
    /* compact: whole-number counts, the same sums in any order, set by the partition */
    if (g->compact && f->node > 0)
        return tl_tree_node_weight(g->t, f->node);
    memset(stats, 0, g->k * sizeof *stats);
    for (size_t i = 0; i < f->rs.n; i++)
        tlg_add_row(g, stats, f->rs.base[i], g->w[f->rs.base[i]]);
    return tl_tree_node_weight(g->t, f->node);
}

/* Step 2: the stopping rules, before any search. */
static int must_stop(const tl_grow_ctx *g, const frame *f, const double *stats, double w)
{
    const tl_grow_params *p = g->p;
    double eps = g->rules.slack;
    /* impurity-form criteria: pure below scikit-learn's EPSILON, so tiny-valued regression
     * targets still split; a partition criterion has no impurity, so only a single class
     * is pure */
    double impurity = 0;
    if (p->criterion->impurity)
        impurity = p->criterion->impurity(stats, g->k);
    else if (p->criterion->prefix_loss)
        impurity = w > 0 ? g->node_loss / w : 0;
    else if (g->t->regression)
        impurity = 1;
    else
        for (size_t c = 0; c < g->k; c++)
            impurity = stats[c] > 0 && stats[c] < w ? 1 : impurity;
    if (g->leaf_only || (p->max_depth && f->depth >= p->max_depth) ||
        w < p->min_samples_split - eps || w < 2 * p->min_samples_leaf - eps ||
        impurity <= DBL_EPSILON || f->rs.n < 2)
        return 1;
    if (eps > 0 && !g->t->regression) {
        double top = 0;
        for (size_t c = 0; c < g->k; c++)
            top = stats[c] > top ? stats[c] : top;
        if (w - top < eps)
            return 1;
    }
    return 0;
}

/* Step 3: the best test on every attribute (or on only[0..n_only) when only is not NULL),
 * from the splitter for its kind. */
static int find_best_splits(tl_grow_ctx *g, const frame *f, tl_node_rows *view, const size_t *only,
                            size_t n_only, tl_err *err)
{
    const tl_grow_params *p = g->p;
    const tl_dataset *d = g->d;
    for (size_t i = 0; i < (only ? n_only : d->schema.n_attrs); i++) {
        size_t a = only ? only[i] : g->order[i];
        g->has_cand[a] = 0;
        int nominal = d->schema.attrs[a].kind == TL_ATTR_NOMINAL;
        const tl_splitter_type *sp = nominal ? p->nominal : p->numeric;
        if (!sp || (nominal && !p->reuse_nominal && g->used[a]))
            continue;
        view->sorted_rec = NULL;
        if (!nominal && g->compact) {
            size_t slot = (size_t)g->num_slot[a];
            int rc =
                f->rs.rec ? TL_OK : tlg_attr_records(g, f->rs.base, f->rs.n, slot, g->tmp, err);
            if (rc)
                return rc;
            view->sorted_rec = f->rs.rec ? f->rs.rec[slot] : g->tmp;
        }
        view->sorted =
            nominal || !f->rs.sorted || !g->n_blocks ? NULL : f->rs.sorted[g->num_slot[a]];
        view->sorted_x = nominal || !f->rs.xs ? NULL : f->rs.xs[g->num_slot[a]];
        view->sorted_y = nominal || !f->rs.ys ? NULL : f->rs.ys[g->num_slot[a]];
        memset(&g->cand[a], 0, sizeof g->cand[a]);
        g->cand[a].attr = a;
        g->cand[a].missing_branch = -1;
        int found =
            sp->best(nominal ? p->nominal_state : p->numeric_state, g, view, a, &g->cand[a], err);
        if (found < 0)
            return -found;
        g->has_cand[a] = (unsigned char)(found == 1);
    }
    return TL_OK;
}

/* Steps 3 and 4 with a criterion that selects attributes before any search (conditional
 * inference): the splitters try the attributes it selects, in its order, and the first
 * with an admissible test is chosen (*best NULL: none, or none selected); *p_value gets
 * the criterion's p-value for the node. */
static int selected_split(tl_grow_ctx *g, const frame *f, tl_node_rows *view, const tl_split **best,
                          double *p_value, tl_err *err)
{
    const tl_criterion_type *c = g->p->criterion;
    size_t *attrs = malloc((g->d->schema.n_attrs ? g->d->schema.n_attrs : 1) * sizeof *attrs);
    if (!attrs)
        return tl_err_set(err, TL_ENOMEM, "out of memory selecting an attribute");
    *best = NULL;
    int n = c->select(g->p->criterion_state, g, view, attrs, p_value, err);
    int rc = n < 0 ? -n : TL_OK;
    for (int i = 0; i < n && !rc && !*best; i++) {
        size_t a = attrs[i];
        if (!(rc = find_best_splits(g, f, view, &a, 1, err)) && g->has_cand[a])
            *best = &g->cand[a];
    }
    free(attrs);
    return rc;
}

/* J48 leaves nominal attributes with many levels out of the average gain. */
static int in_average(const tl_grow_ctx *g, size_t a)
{
    const tl_attr_info *ai = &g->d->schema.attrs[a];
    double share = g->rules.level_share;
    return share <= 0 || g->multival || ai->kind != TL_ATTR_NOMINAL ||
           (double)ai->n_levels < share * (double)g->n_rows - 1e-6;
}

/* Step 4: choose among the candidates: highest rank, optionally only among tests with at
 * least the average gain (Quinlan); ties go to the attribute tried first. */
static const tl_split *choose(const tl_grow_ctx *g)
{
    size_t n_attrs = g->d->schema.n_attrs;
    const size_t *order = g->order;
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
    double eps = g->rules.slack;
    for (size_t i = 0; i < n_attrs; i++) {
        size_t a = order[i];
        if (!g->has_cand[a])
            continue;
        const tl_split *s = &g->cand[a];
        /* J48 compares against the average less 1e-3, to absorb rounding */
        if (g->rules.average_gain_filter && s->gain < avg - 1e-3)
            continue;
        if (eps > 0 ? s->rank - (best ? best->rank : 0) > eps : (!best || s->rank > best->rank))
            best = s;
    }
    return best;
}

/* What a gain is measured against: the node's impurity (so a target in units of 1e-7
 * splits as one in units of 1), or 1 for a partition criterion. */
static double node_scale(const tl_grow_ctx *g, const double *stats, double w)
{
    const tl_criterion_type *c = g->p->criterion;
    if (c->prefix_loss)
        return w > 0 ? g->node_loss / w : 0;
    return c->impurity ? c->impurity(stats, g->k) : 1;
}

/* Steps 1 to 6 for the frame's node: a leaf (kids.n = 0) or a split whose children are
 * ready to be pushed. */
static int grow_node(tl_grow_ctx *g, frame *f, int root_only, tl_err *err)
{
    const tl_grow_params *p = g->p;
    double *stats = g->t->stats + f->node * g->k;
    double w = node_stats(g, f, stats);
    if (f->node == 0)
        g->root_w = w;
    if (p->criterion->prefix_loss) /* the node's loss, and its value (a median) in the tree */
        g->node_loss = tlg_rows_loss(g, f->rs.base, f->rs.n, &g->t->value[f->node]);
    if (must_stop(g, f, stats, w))
        return TL_OK;
    int rc = TL_OK;
    if (g->compact && !f->rs.rec && f->rs.n <= g->rec_cap) { /* the subtree's records */
        if ((rc = tlg_materialise(g, &f->rs, err)))
            return rc;
        f->materialised = 1;
    }
    tl_node_rows view = {.n = f->rs.n,
                         .rows = f->rs.base,
                         .w = g->w,
                         .stats = stats,
                         .depth = f->depth,
                         .id = f->node,
                         .by_attr = (const uint32_t *const *)f->rs.sorted,
                         .unit_weights = f->rs.unit,
                         .rec_shift = g->rec_shift};
    const tl_split *best = NULL;
    double p_value = NAN;
    if (p->criterion->select && !root_only) {
        if ((rc = selected_split(g, f, &view, &best, &p_value, err)))
            return rc;
    } else {
        rc = find_best_splits(g, f, &view, NULL, 0, err);
        if (rc || root_only)
            return rc;
        best = choose(g);
    }
    if (!best)
        return TL_OK;
    tl_split chosen = *best;
    /* a split must decrease the impurity by more than rounding: otherwise the first of
     * several worthless tests would be taken (on data with unknown values such tests are
     * common, and their children predict alike), unless the criterion's rules say otherwise
     * (scikit-learn's); its min_impurity_decrease on top, the decrease weighted by the node's
     * share */
    if ((!g->rules.zero_gain && chosen.gain <= TL_GAIN_EPS * node_scale(g, stats, w)) ||
        w / g->root_w * chosen.gain + 1e-12 < p->min_impurity_decrease)
        return TL_OK;
    if (p->accept) { /* step 5: pre-pruning may veto the split */
        int ok = p->accept(p->accept_user, g, g->t, f->node, &view, &chosen, err);
        if (ok <= 0)
            return ok < 0 ? -ok : TL_OK;
    }
    if (!isnan(p_value) && (rc = tl_tree_set_p_value(g->t, f->node, p_value, err)))
        return rc;
    if (chosen.kind == TL_SPLIT_MULTIWAY) {
        f->marked_attr = (int)chosen.attr;
        f->was_used = g->used[chosen.attr];
        g->used[chosen.attr] = 1;
    }
    view.sorted = NULL;
    view.sorted_x = NULL;
    view.sorted_y = NULL;
    view.sorted_rec = NULL;
    return tlg_partition(g, &view, &f->rs, &chosen, &f->kids, err); /* step 6 */
}

static void release(tl_grow_ctx *g, frame *f)
{
    if (f->marked_attr >= 0)
        g->used[f->marked_attr] = f->was_used;
    tlg_children_free(&f->kids);
    if (f->materialised && g->rec_cap < g->n_rows) { /* the next subtree builds its own */
        free(g->rec_buf);
        g->rec_buf = NULL;
    }
}

/* Grow depth first from the root frame. With root_only, stop once the root's candidates
 * are known. */
static int run(tl_grow_ctx *g, const tlg_rowset *root, int root_only, tl_err *err)
{
    size_t cap = 64, sp = 0;
    frame *stack = malloc(cap * sizeof *stack);
    if (!stack)
        return tl_err_set(err, TL_ENOMEM, "out of memory");
    stack[sp++] = (frame){.node = 0, .rs = *root, .marked_attr = -1};
    int rc = TL_OK;
    while (sp > 0 && !rc) {
        frame *f = &stack[sp - 1];
        if (!f->expanded) {
            f->expanded = 1;
            if ((rc = grow_node(g, f, root_only, err)) || root_only)
                break;
        }
        if (f->next == f->kids.n) {
            release(g, f);
            sp--;
            continue;
        }
        size_t b = f->next++;
        /* rows with an unknown value weigh their share of this branch in its subtree */
        for (size_t m = 0; m < f->kids.n_missing; m++)
            g->w[f->kids.missing_rows[m]] = f->kids.missing_w[m] * f->kids.share[b];
        frame child = {.node = f->kids.first + b,
                       .depth = f->depth + 1,
                       .rs = f->kids.kids[b],
                       .marked_attr = -1};
        if (sp == cap) {
            frame *ns = realloc(stack, 2 * cap * sizeof *ns);
            if (!ns) {
                rc = tl_err_set(err, TL_ENOMEM, "out of memory: tree deeper than %zu", sp);
                break;
            }
            stack = ns;
            cap *= 2;
        }
        stack[sp++] = child;
    }
    while (sp > 0)
        release(g, &stack[--sp]);
    free(stack);
    return rc;
}

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

/* The root's packed value blocks (and class-code blocks for classification): n per numeric
 * attribute. On failure root->xs stays NULL (the caller reports it). */
static void alloc_packed(const tl_grow_ctx *g, size_t n, tlg_rowset *root, double **xs, int **ys)
{
    int classes = g->tmp_y != NULL;
    *xs = malloc(n * g->n_num * sizeof **xs);
    *ys = classes ? malloc(n * g->n_num * sizeof **ys) : NULL;
    root->xs = malloc(g->n_num * sizeof *root->xs);
    root->ys = classes ? malloc(g->n_num * sizeof *root->ys) : NULL;
    if (!*xs || !root->xs || (classes && (!*ys || !root->ys))) {
        free(root->xs);
        root->xs = NULL; /* the caller sees the failure here */
    }
}

/* The root's row blocks sorted per numeric attribute (and the packed values), n rows; none
 * for an unsorted splitter (the rows are still put in increasing order). */
static int sorted_blocks(tl_grow_ctx *g, size_t n, tlg_rowset *root, uint32_t **blocks, double **xs,
                         int **ys, tl_err *err)
{
    *blocks = malloc((n * g->n_blocks > 0 ? n * g->n_blocks : 1) * sizeof **blocks);
    root->sorted = malloc((g->n_blocks ? g->n_blocks : 1) * sizeof *root->sorted);
    if (g->packed)
        alloc_packed(g, n, root, xs, ys);
    if (!*blocks || !root->sorted || (g->packed && !root->xs))
        return tl_err_set(err, TL_ENOMEM, "out of memory growing a tree on %zu rows", n);
    int rc = tlg_presort(g, root->base, root->n, *blocks, *xs, *ys, err);
    for (size_t s = 0; !rc && s < g->n_blocks; s++) {
        root->sorted[s] = *blocks + s * n;
        if (*xs)
            root->xs[s] = *xs + s * n;
        if (*ys)
            root->ys[s] = *ys + s * n;
    }
    return rc;
}

/* The compact records instead (tlg_compact_applies): the root's rows in increasing order, as
 * tlg_presort leaves them, so the node statistics are summed in the same order. */
static int compact_root(tl_grow_ctx *g, tlg_rowset *root, tl_err *err)
{
    g->packed = 0;
    free(g->tmp_x);
    free(g->tmp_y);
    g->tmp_x = NULL;
    g->tmp_y = NULL;
    tlg_sort_rows(root->base, root->n);
    return tlg_compact_setup(g, g->n_rows, err);
}

/* The splitters' per-fit work (tl_splitter_type.prepare) on the rows grown on. */
static int prepare_slots(tl_grow_ctx *g, const tlg_rowset *root, tl_err *err)
{
    const tl_splitter_type *sp[2] = {g->p->numeric, g->p->nominal};
    const void *st[2] = {g->p->numeric_state, g->p->nominal_state};
    tl_node_rows view = {.n = root->n, .rows = root->base, .w = g->w, .unit_weights = root->unit};
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
    tlg_rowset root = {n, NULL, NULL, NULL, NULL, 1, NULL};
    uint32_t *blocks = NULL;
    double *xs = NULL; /* the packed values and class codes (g.packed) */
    int *ys = NULL;
    g.t = tl_tree_alloc(g.k, regression, 64, err);
    int rc = g.t ? tlg_ctx_alloc(&g, n, err) : TL_ENOMEM;
    if (!rc && p->criterion->prefix_loss)
        rc = tl_tree_keep_values(g.t, err);
    if (!rc && !(root.base = malloc(n * sizeof *root.base)))
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
            root.base[root.n++] = (uint32_t)rows[i];
            g.w[rows[i]] = tl_dataset_weight(d, rows[i]);
            root.unit &= g.w[rows[i]] == 1.0;
        }
        /* no row to grow on (every row lacks a value): the tree is one leaf of them all,
         * what complete cases can say with no complete case */
        for (size_t i = 0; !rc && root.n == 0 && i < n; i++) {
            root.base[i] = (uint32_t)rows[i];
            g.w[rows[i]] = tl_dataset_weight(d, rows[i]);
            root.unit &= g.w[rows[i]] == 1.0;
            g.leaf_only = i + 1 == n;
        }
        if (g.leaf_only)
            root.n = n;
    }
    if (!rc) {
        g.compact = !g.leaf_only && tlg_compact_applies(d, p, root.base, root.n);
        rc = g.compact ? compact_root(&g, &root, err)
                       : sorted_blocks(&g, n, &root, &blocks, &xs, &ys, err);
    }
    if (!rc && tl_tree_add_nodes(g.t, 1, SIZE_MAX, err) == SIZE_MAX)
        rc = TL_ENOMEM;
    if (!rc)
        rc = prepare_slots(&g, &root, err);
    if (!rc)
        rc = run(&g, &root, cand != NULL, err);
    release_slots(&g);
    for (size_t j = 0; cand && !rc && j < d->schema.n_attrs; j++) {
        cand[j] = g.cand[j];
        valid[j] = g.has_cand[j];
    }
    tlg_ctx_free(&g);
    free(blocks);
    free(root.base);
    free(root.sorted);
    free(xs);
    free(ys);
    free(root.xs);
    free(root.ys);
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
