/* What splitters ask of the grower: node statistics, and a partition's gain as the
 * criterion scores it (the impurity decrease, or the criterion's own partition score). */
#include <math.h>
#include <string.h>

#include "grow_internal.h"

void tl_grow_params_init(tl_grow_params *p)
{
    memset(p, 0, sizeof *p);
    p->min_samples_split = 2;
    p->min_samples_leaf = 1;
    p->reuse_nominal = 1;
}

const tl_dataset *tl_grow_data(const tl_grow_ctx *g)
{
    return g->d;
}
const tl_grow_params *tl_grow_params_of(const tl_grow_ctx *g)
{
    return g->p;
}
const tl_choice_rules *tl_grow_rules(const tl_grow_ctx *g)
{
    return &g->rules;
}
size_t tl_grow_k(const tl_grow_ctx *g)
{
    return g->k;
}
double *tl_grow_scratch(const tl_grow_ctx *g)
{
    return g->scratch;
}
void tl_grow_add_row(const tl_grow_ctx *g, double *stats, uint32_t row, double w)
{
    tlg_add_row(g, stats, row, w);
}

double tl_grow_level_stats(const tl_grow_ctx *g, const tl_node_rows *node, size_t attr, double *out)
{
    const int *code = g->d->cols[attr].code;
    memset(out, 0, g->d->schema.attrs[attr].n_levels * g->k * sizeof *out);
    double missing_w = 0;
    for (size_t i = 0; i < node->n; i++) {
        uint32_t r = node->rows[i];
        if (code[r] < 0)
            missing_w += node->w[r];
        else
            tlg_add_row(g, out + (size_t)code[r] * g->k, r, node->w[r]);
    }
    return missing_w;
}

/* Sums the children into g->parent_buf and their weights into g->branch_w; returns the
 * known weight. */
static double sum_children(const tl_grow_ctx *g, const double *children, size_t n_children)
{
    size_t k = g->k;
    double *par = g->parent_buf, known = 0;
    memset(par, 0, k * sizeof *par);
    for (size_t b = 0; b < n_children; b++) {
        const double *c = children + b * k;
        double w = 0;
        if (g->t->regression)
            w = c[0];
        else
            for (size_t j = 0; j < k; j++)
                w += c[j];
        for (size_t j = 0; j < k; j++)
            par[j] += c[j];
        g->branch_w[b] = w;
        known += w;
    }
    return known;
}

/* After sum_children: the criterion's worth of the partition. */
static double gain_of(const tl_grow_ctx *g, const double *children, size_t n_children, double known)
{
    const tl_criterion_type *cr = g->p->criterion;
    size_t k = g->k;
    if (cr->prefix_loss)
        return NAN; /* the statistics cannot tell: the rows must (rows_gain) */
    if (cr->score_numeric && g->t->regression)
        return cr->score_numeric(g->p->criterion_state, g->parent_buf, children, n_children, k);
    if (cr->score)
        return cr->score(g->p->criterion_state, g->parent_buf, children, n_children, k);
    double wimp = 0;
    for (size_t b = 0; b < n_children; b++)
        if (g->branch_w[b] > 0)
            wimp += g->branch_w[b] / known * cr->impurity(children + b * k, k);
    return cr->impurity(g->parent_buf, k) - wimp;
}

/* The loss of the rows' targets gathered into g->ry / g->rw (n of them). */
static double gathered_loss(const tl_grow_ctx *g, size_t n, double *value)
{
    if (n == 0) {
        *value = 0;
        return 0;
    }
    g->p->criterion->prefix_loss(g->p->criterion_state, g->ry, g->rw, n, g->rloss, g->rvalue,
                                 g->rwork);
    *value = g->rvalue[n - 1];
    return g->rloss[n - 1];
}

double tlg_rows_loss(const tl_grow_ctx *g, const uint32_t *rows, size_t n, double *value)
{
    for (size_t i = 0; i < n; i++) {
        g->ry[i] = g->d->y.num[rows[i]];
        g->rw[i] = g->w[rows[i]];
    }
    return gathered_loss(g, n, value);
}

int tl_grow_cut_losses(const tl_grow_ctx *g, const uint32_t *rows, size_t n, const double **left,
                       const double **right)
{
    const tl_criterion_type *cr = g->p->criterion;
    if (!cr->prefix_loss || n == 0)
        return 0;
    double v;
    tlg_rows_loss(g, rows, n, &v);
    memcpy(g->cut_left, g->rloss, n * sizeof *g->rloss);
    /* the right parts are the prefixes of the rows taken backwards */
    for (size_t i = 0; i < n; i++) {
        g->ry[i] = g->d->y.num[rows[n - 1 - i]];
        g->rw[i] = g->w[rows[n - 1 - i]];
    }
    gathered_loss(g, n, &v);
    for (size_t i = 0; i + 1 < n; i++)
        g->cut_right[i] = g->rloss[n - 2 - i];
    g->cut_right[n - 1] = 0;
    *left = g->cut_left;
    *right = g->cut_right;
    return 1;
}

/* Row-form criteria: the decrease of the loss of the node's known rows when split by s into
 * n_children branches, per unit of their weight `known`. */
static double rows_gain(const tl_grow_ctx *g, const tl_node_rows *node, const tl_split *s,
                        size_t n_children, double known)
{
    double v, parent = 0, children = 0;
    for (size_t i = 0; i < node->n; i++)
        g->branch[node->rows[i]] = tl_split_branch(s, g->d, node->rows[i]);
    for (long b = -1; b < (long)n_children; b++) { /* b = -1: every known row */
        size_t m = 0;
        for (size_t i = 0; i < node->n; i++) {
            uint32_t r = node->rows[i];
            if (b < 0 ? g->branch[r] >= 0 : g->branch[r] == b) {
                g->ry[m] = g->d->y.num[r];
                g->rw[m++] = g->w[r];
            }
        }
        double loss = gathered_loss(g, m, &v);
        if (b < 0)
            parent = loss;
        else
            children += loss;
    }
    return (parent - children) / known;
}

double tl_grow_partition_gain(const tl_grow_ctx *g, const double *children, size_t n_children)
{
    double known = sum_children(g, children, n_children);
    return known > 0 ? gain_of(g, children, n_children, known) : 0;
}

size_t tl_grow_parent(const tl_grow_ctx *g, size_t node)
{
    return node < g->t->n_nodes ? g->t->parent[node] : SIZE_MAX;
}

int tl_grow_heaviest_branch(const tl_grow_ctx *g, const tl_node_rows *node, const int *branch,
                            size_t nb)
{
    double *w = g->branch_w; /* max levels + 2: free between scoring calls */
    memset(w, 0, nb * sizeof *w);
    for (size_t i = 0; i < node->n; i++) {
        int b = branch[node->rows[i]];
        if (b >= 0 && (size_t)b < nb)
            w[b] += node->w[node->rows[i]];
    }
    size_t best = 0;
    for (size_t b = 1; b < nb; b++)
        if (w[b] > w[best])
            best = b;
    return (int)best;
}

void tl_grow_send_unknown(const tl_node_rows *node, int *branch, int to)
{
    for (size_t i = 0; i < node->n; i++)
        if (branch[node->rows[i]] < 0)
            branch[node->rows[i]] = to;
}

/* Enough weight in enough branches (min_samples_leaf). */
static int admissible(const tl_grow_ctx *g, size_t n_children, double known)
{
    const tl_grow_params *p = g->p;
    size_t holding = 0;
    for (size_t b = 0; b < n_children; b++)
        if (g->branch_w[b] >= p->min_samples_leaf - g->rules.slack && g->branch_w[b] > 0)
            holding++;
    size_t need = p->min_leaf_branches ? p->min_leaf_branches : n_children;
    return known > 0 && holding >= need && holding >= 2;
}

/* The rows of the node with an unknown value: its statistics less the known children's,
 * into u (k). */
static void unknown_stats(const tl_grow_ctx *g, const tl_node_rows *node, const double *children,
                          size_t n_children, double *u)
{
    size_t k = g->k;
    memcpy(u, node->stats, k * sizeof *u);
    for (size_t b = 0; b < n_children; b++)
        for (size_t j = 0; j < k; j++)
            u[j] -= children[b * k + j];
    for (size_t j = 0; j < k; j++) /* rounding: a count cannot be below zero */
        if (u[j] < 0 && (!g->t->regression || j == 0))
            u[j] = 0;
}

/* The gain when the unknown rows are placed as the missing-value method scores them
 * (TL_MISSING_SCORE_BEST_BRANCH or _OWN_BRANCH): sets *to (the branch they join) and
 * *n_out (branches); 0 when no placement is admissible. */
static int place_unknown(const tl_grow_ctx *g, const tl_node_rows *node, const double *children,
                         size_t n_children, tl_missing_scoring how, double *gain, int *to,
                         size_t *n_out)
{
    size_t k = g->k, nb = n_children;
    double *buf = g->miss_buf, *u = buf + (nb + 1) * k;
    unknown_stats(g, node, children, nb, u);
    if (how == TL_MISSING_SCORE_OWN_BRANCH) {
        memcpy(buf, children, nb * k * sizeof *buf);
        memcpy(buf + nb * k, u, k * sizeof *buf);
        double total = sum_children(g, buf, nb + 1);
        /* the unknown rows' branch need not hold min_samples_leaf: it is no choice of cut */
        if (!admissible(g, nb, total))
            return 0;
        *gain = gain_of(g, buf, nb + 1, total);
        *to = (int)nb;
        *n_out = nb + 1;
        return 1;
    }
    int found = 0;
    for (size_t b = nb; b-- > 0;) { /* the last branch first: it keeps ties */
        memcpy(buf, children, nb * k * sizeof *buf);
        for (size_t j = 0; j < k; j++)
            buf[b * k + j] += u[j];
        double total = sum_children(g, buf, nb);
        if (!admissible(g, nb, total))
            continue;
        double v = gain_of(g, buf, nb, total);
        if (!found || v > *gain) {
            *gain = v;
            *to = (int)b;
            found = 1;
        }
    }
    *n_out = nb;
    return found;
}

int tl_grow_score(const tl_grow_ctx *g, const tl_node_rows *node, const double *children,
                  size_t n_children, double missing_w, tl_split *split)
{
    const tl_grow_params *p = g->p;
    double known = sum_children(g, children, n_children);
    if (!admissible(g, n_children, known))
        return 0;
    double gain = 0;
    tl_missing_scoring how = p->missing ? p->missing->scoring : TL_MISSING_SCORE_SHARE;
    split->missing_branch = -1;
    split->n_branches = n_children;
    if (p->criterion->prefix_loss) { /* from the rows (a median): unknowns count by share */
        gain = rows_gain(g, node, split, n_children, known) * (known / (known + missing_w));
    } else if (missing_w > 0 && how != TL_MISSING_SCORE_SHARE) {
        if (!place_unknown(g, node, children, n_children, how, &gain, &split->missing_branch,
                           &split->n_branches))
            return 0;
        sum_children(g, children, n_children); /* branch_w: the known weights, for rank */
    } else {
        gain = gain_of(g, children, n_children, known) * (known / (known + missing_w));
    }
    split->gain = gain;
    split->known_weight = known;
    split->missing_weight = missing_w;
    const tl_criterion_type *cr = p->criterion;
    split->rank =
        cr->rank ? cr->rank(p->criterion_state, gain, g->branch_w, n_children, missing_w) : gain;
    return 1;
}

int tl_grow_unknowns_at_cut(const tl_grow_ctx *g)
{
    return g->p->missing && g->p->missing->scoring == TL_MISSING_SCORE_BEST_BRANCH;
}
