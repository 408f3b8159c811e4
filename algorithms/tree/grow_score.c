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

const tl_dataset *tl_grow_data(const tl_grow_ctx *g) { return g->d; }
const tl_grow_params *tl_grow_params_of(const tl_grow_ctx *g) { return g->p; }
const tl_choice_rules *tl_grow_rules(const tl_grow_ctx *g) { return &g->rules; }
size_t tl_grow_k(const tl_grow_ctx *g) { return g->k; }
double *tl_grow_scratch(const tl_grow_ctx *g) { return g->scratch; }

const double *tl_grow_train_values(const tl_grow_ctx *g, size_t attr, size_t *n,
                                   const uint32_t **rows)
{
    if (!g->train_vals || g->num_slot[attr] < 0)
        return NULL;
    size_t s = (size_t)g->num_slot[attr];
    *n = g->train_n[s];
    if (rows)
        *rows = g->train_rows + s * g->n_rows;
    return g->train_vals + s * g->n_rows;
}

void tl_grow_add_row(const tl_grow_ctx *g, double *stats, uint32_t row, double w)
{
    if (g->t->regression) {
        double y = g->d->y.num[row];
        stats[0] += w;
        stats[1] += w * y;
        stats[2] += w * y * y;
    } else {
        stats[g->d->y.code[row]] += w;
    }
}

double tl_grow_level_stats(const tl_grow_ctx *g, const tl_node_rows *node, size_t attr,
                           double *out)
{
    const int *code = g->d->cols[attr].code;
    memset(out, 0, g->d->schema.attrs[attr].n_levels * g->k * sizeof *out);
    double missing_w = 0;
    for (size_t i = 0; i < node->n; i++) {
        uint32_t r = node->rows[i];
        if (code[r] < 0)
            missing_w += node->w[r];
        else
            tl_grow_add_row(g, out + (size_t)code[r] * g->k, r, node->w[r]);
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
static double gain_of(const tl_grow_ctx *g, const double *children, size_t n_children,
                      double known)
{
    const tl_criterion_type *cr = g->p->criterion;
    size_t k = g->k;
    if (cr->prefix_loss)
        return NAN; /* the statistics cannot tell: the rows must (rows_gain) */
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

int tl_grow_cut_losses(const tl_grow_ctx *g, const uint32_t *rows, size_t n,
                       const double **left, const double **right)
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

int tl_grow_score(const tl_grow_ctx *g, const tl_node_rows *node, const double *children,
                  size_t n_children, double missing_w, tl_split *split)
{
    const tl_grow_params *p = g->p;
    double known = sum_children(g, children, n_children);
    size_t holding = 0;
    for (size_t b = 0; b < n_children; b++)
        if (g->branch_w[b] >= p->min_samples_leaf - g->rules.slack && g->branch_w[b] > 0)
            holding++;
    size_t need = p->min_leaf_branches ? p->min_leaf_branches : n_children;
    if (known <= 0 || holding < need || holding < 2)
        return 0;
    split->n_branches = n_children;
    double gain = p->criterion->prefix_loss ? rows_gain(g, node, split, n_children, known)
                                            : gain_of(g, children, n_children, known);
    gain *= known / (known + missing_w);
    split->gain = gain;
    split->known_weight = known;
    split->missing_weight = missing_w;
    const tl_criterion_type *cr = p->criterion;
    split->rank =
        cr->rank ? cr->rank(p->criterion_state, gain, g->branch_w, n_children, missing_w) : gain;
    return 1;
}
