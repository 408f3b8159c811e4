/* The greedy grower shared by every hard tree, as a loop of named steps over a work stack:
 * node statistics, stop rules, best test per attribute (the splitters), selection (the
 * criterion's rules), acceptance (pre-pruning), the test written into the tree, partition
 * of the rows, the children's statistics written into the tree, children. Depth first,
 * children in branch order, so node numbering is that of the recursive definition. The fit
 * around the loop (its root, sorts, views): grow_fit.c. */
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
    int expanded, materialised, stats_set; /* built its subtree's records; stats set by parent */
    tlg_children kids;                     /* n = 0 for a leaf */
    size_t next;                           /* next child to push */
    int marked_attr;                       /* multiway attribute this node marked used, or -1 */
    unsigned char was_used;
} frame;

/* Step 1: the node's statistics from its rows (in row-block order, so sums are exact
 * repeats of what the children's statistics were when the parent was split). */
static double node_stats(tl_grow_ctx *g, const frame *f, double *stats)
{
    /* compact: whole counts set by the partition; a child of a split that sent no row down
     * every branch: summed then from the same weights in this order */
    if ((g->v.compact && f->node > 0) || f->stats_set)
        return tl_tree_node_weight(g->t, f->node);
    memset(stats, 0, g->k * sizeof *stats);
    const uint32_t *rows = tlg_rows(&f->rs);
    for (size_t i = 0; i < f->rs.n; i++)
        tlg_add_row(g, stats, rows[i], g->w[rows[i]]);
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
static int find_best_splits(tl_grow_ctx *g, tl_node_rows *view, const size_t *only, size_t n_only,
                            tl_err *err)
{
    const tl_grow_params *p = g->p;
    const tl_dataset *d = g->d;
    g->n_found = 0;
    for (size_t i = 0; i < (only ? n_only : d->schema.n_attrs); i++) {
        size_t a = only ? only[i] : g->order[i];
        g->has_cand[a] = 0;
        int nominal = d->schema.attrs[a].kind == TL_ATTR_NOMINAL;
        const tl_splitter_type *sp = nominal ? p->nominal : p->numeric;
        if (!sp || (nominal && !p->reuse_nominal && g->used[a]))
            continue;
        memset(&g->cand[a], 0, sizeof g->cand[a]);
        g->cand[a].attr = a;
        g->cand[a].missing_branch = -1;
        int found =
            sp->best(nominal ? p->nominal_state : p->numeric_state, g, view, a, &g->cand[a], err);
        if (found < 0)
            return -found;
        if ((g->has_cand[a] = (unsigned char)(found == 1)))
            g->found[g->n_found++] = a;
    }
    return TL_OK;
}

/* Steps 3 and 4 with a criterion that selects attributes before any search (conditional
 * inference): the splitters try the attributes it selects, in its order, and the first
 * with an admissible test is chosen (*best NULL: none, or none selected); *p_value gets
 * the criterion's p-value for the node. */
static int selected_split(tl_grow_ctx *g, tl_node_rows *view, const tl_split **best,
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
        if (!(rc = find_best_splits(g, view, &a, 1, err)) && g->has_cand[a])
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

/* Step 4: choose among the candidates (g->found, in the order tried): highest rank,
 * optionally only among tests with at least the average gain (Quinlan); ties go to the
 * attribute tried first. */
static const tl_split *choose(const tl_grow_ctx *g)
{
    const size_t *found = g->found;
    size_t n_found = g->n_found;
    double avg = 0;
    size_t n_valid = 0;
    for (size_t i = 0; i < n_found; i++)
        if (in_average(g, found[i])) {
            avg += g->cand[found[i]].gain;
            n_valid++;
        }
    if (!n_valid)
        return NULL;
    avg /= (double)n_valid;
    const tl_split *best = NULL;
    double eps = g->rules.slack;
    for (size_t i = 0; i < n_found; i++) {
        const tl_split *s = &g->cand[found[i]];
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

/* Steps 1 to 8 for the frame's node: a leaf (kids.n = 0) or a split whose children are
 * ready to be pushed. */
static int grow_node(tl_grow_ctx *g, frame *f, int root_only, tl_err *err)
{
    const tl_grow_params *p = g->p;
    double *stats = g->t->stats + f->node * g->k;
    double w = node_stats(g, f, stats);
    if (f->node == 0)
        g->root_w = w;
    if (p->criterion->prefix_loss) /* the node's loss, and its value (a median) in the tree */
        g->node_loss = tlg_rows_loss(g, tlg_rows(&f->rs), f->rs.n, &g->t->value[f->node]);
    if (must_stop(g, f, stats, w))
        return TL_OK;
    int rc = TL_OK;
    if (g->v.compact && !f->rs.rec && f->rs.n <= g->v.rec_cap) { /* the subtree's records */
        if ((rc = tlg_materialise(g, &f->rs, err)))
            return rc;
        f->materialised = 1;
    }
    tl_node_rows view = {.n = f->rs.n,
                         .rows = tlg_rows(&f->rs),
                         .w = g->w,
                         .stats = stats,
                         .depth = f->depth,
                         .id = f->node,
                         .views = &f->rs,
                         .unit_weights = f->rs.unit};
    const tl_split *best = NULL;
    double p_value = NAN;
    if (p->criterion->select && !root_only) {
        if ((rc = selected_split(g, &view, &best, &p_value, err)))
            return rc;
    } else {
        rc = find_best_splits(g, &view, NULL, 0, err);
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
    if (tl_tree_split_node(g->t, f->node, &chosen, err) == SIZE_MAX) /* step 6: the test */
        return TL_ENOMEM;
    if ((rc = tlg_partition(g, &view, &f->rs, &chosen, &f->kids, err))) /* step 7: rows */
        return rc;
    tlg_child_stats(g, &f->kids); /* step 8: the children's statistics, in the tree */
    return TL_OK;
}

static void release(tl_grow_ctx *g, frame *f)
{
    if (f->marked_attr >= 0)
        g->used[f->marked_attr] = f->was_used;
    tlg_children_free(&f->kids);
    if (f->materialised && g->v.rec_cap < g->n_rows) { /* the next subtree builds its own */
        free(g->v.rec_buf);
        g->v.rec_buf = NULL;
    }
}

int tlg_run(tl_grow_ctx *g, const tlg_rowset *root, int root_only, tl_err *err)
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
                       .marked_attr = -1,
                       .stats_set = f->kids.n_missing == 0};
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
