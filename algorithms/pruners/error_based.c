/* C4.5's error-based pruning (Quinlan 1993, ch. 4) as Weka's J48 does it: bottom-up, each
 * subtree is compared, by the upper confidence limit of its errors, with a leaf and with its
 * largest branch (subtree raising: that branch then takes every training row of the node,
 * and is pruned again). Works on the training rows with the fractional weights of C4.5. */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_cdf.h>

#include "error_based.h"
#include "treelab/tl_prune.h"
#include "treelab/tl_class_sums.h"

/* J48's Utils.SMALL: slack on every weight comparison. */
#define TL_EBP_EPS 1e-6

typedef struct wrow {
    uint32_t row;
    double w;
} wrow;

typedef struct rowlist {
    wrow *r;
    size_t n;
} rowlist;

typedef struct ebp {
    tl_tree *t;
    const tl_dataset *d;
    size_t k;
    double cf, z;
    int raising;
    rowlist *data; /* per node: its training rows and their weights there */
    double *cls;   /* scratch: k */
    /* split_rows' scratch (no list is longer than the training rows): each row's branch,
     * and per branch the share of the known weight and the known rows */
    int *branch;
    double *share;
    size_t *count;
} ebp;

/* Upper confidence limit of e errors among n, less e (J48's Stats.addErrs: exact at e = 0,
 * interpolated below 1 and near n, otherwise the normal approximation with continuity
 * correction). */
static double add_errs(const ebp *p, double n, double e)
{
    if (p->cf > 0.5)
        return 0;
    if (e < 1) {
        double base = n * (1 - pow(p->cf, 1 / n));
        if (e == 0)
            return base;
        return base + e * (add_errs(p, n, 1) - base);
    }
    if (e + 0.5 >= n)
        return fmax(n - e, 0);
    double z = p->z, f = (e + 0.5) / n;
    double r =
        (f + z * z / (2 * n) + z * sqrt(f / n - f * f / n + z * z / (4 * n * n))) / (1 + z * z / n);
    return r * n - e;
}

/* Misclassified weight of class totals s (the first of near-equal classes predicted). */
static double num_incorrect(const double *s, size_t k, double *total)
{
    double w = 0, top = 0;
    for (size_t c = 0; c < k; c++) {
        w += s[c];
        if (s[c] > top + TL_EBP_EPS)
            top = s[c];
    }
    *total = w;
    return w - top;
}

/* Errors predicted for a leaf holding class totals s. */
static double leaf_errors(const ebp *p, const double *s)
{
    double n, e = num_incorrect(s, p->k, &n);
    return fabs(n) < TL_EBP_EPS ? 0 : e + add_errs(p, n, e);
}

static void class_totals(const ebp *p, const wrow *r, size_t n, double *out)
{
    memset(out, 0, p->k * sizeof *out);
    for (size_t i = 0; i < n; i++)
        out[p->d->y.code[r[i].row]] += r[i].w;
}

/* Each row's branch of node's test (-1: unknown value) into p->branch; the rows with an
 * unknown value are counted into *unknown and each branch's known rows into count. */
static void find_branches(const ebp *p, size_t node, const wrow *r, size_t n, size_t *count,
                          size_t *unknown)
{
    const tl_tree *t = p->t;
    int *branch = p->branch;
    size_t nb = t->n_children[node], u = 0;
    memset(count, 0, nb * sizeof *count);
    if (t->kind[node] == TL_SPLIT_NUMERIC) { /* the common test, without a call per row */
        const double *x = p->d->cols[t->attr[node]].num;
        double thr = t->threshold[node];
        size_t right = 0;
        for (size_t i = 0; i < n; i++) {
            double v = x[r[i].row];
            int b = isnan(v) ? -1 : (v <= thr ? 0 : 1);
            branch[i] = b;
            u += b < 0;
            right += b > 0;
        }
        count[0] = n - u - right;
        count[1] = right;
    } else {
        for (size_t i = 0; i < n; i++) {
            int b = tl_tree_branch(t, node, p->d, r[i].row);
            branch[i] = b;
            if (b < 0)
                u++;
            else
                count[b]++;
        }
    }
    *unknown = u;
}

/* Rows of node's test into out[0..n_children): known values to their branch, unknown ones to
 * every branch with the branch's share of the known weight (uniform when none is known). */
static int split_rows(const ebp *p, size_t node, const wrow *r, size_t n, rowlist *out, tl_err *err)
{
    const tl_tree *t = p->t;
    size_t nb = t->n_children[node], unknown;
    double *share = p->share, known = 0;
    size_t *count = p->count;
    const int *branch = p->branch;
    find_branches(p, node, r, n, count, &unknown);
    if (unknown) { /* the shares serve only the rows with an unknown value */
        memset(share, 0, nb * sizeof *share);
        if (nb == 2) {
            double s0 = 0, s1 = 0;
            for (size_t i = 0; i < n; i++) {
                int b = branch[i];
                s0 += tl_kept_weight(r[i].w, b == 0);
                s1 += tl_kept_weight(r[i].w, b == 1);
                known += tl_kept_weight(r[i].w, b >= 0);
            }
            share[0] = s0;
            share[1] = s1;
        } else {
            for (size_t i = 0; i < n; i++) {
                int b = branch[i];
                if (b >= 0) {
                    share[b] += r[i].w;
                    known += r[i].w;
                }
            }
        }
        for (size_t b = 0; b < nb; b++)
            share[b] = fabs(known) < TL_EBP_EPS ? 1.0 / (double)nb : share[b] / known;
    }
    int rc = TL_OK;
    for (size_t b = 0; b < nb; b++) {
        size_t m = count[b] + (unknown && share[b] > TL_EBP_EPS ? unknown : 0);
        out[b].n = 0;
        out[b].r = malloc((m ? m : 1) * sizeof *out[b].r);
        if (!out[b].r)
            rc = TL_ENOMEM;
    }
    for (size_t i = 0; i < n && !rc; i++) {
        int b = branch[i];
        if (b >= 0) {
            out[b].r[out[b].n++] = r[i];
            continue;
        }
        for (size_t c = 0; c < nb; c++)
            if (share[c] > TL_EBP_EPS)
                out[c].r[out[c].n++] = (wrow){r[i].row, r[i].w * share[c]};
    }
    if (rc) {
        for (size_t b = 0; b < nb; b++) {
            free(out[b].r);
            out[b].r = NULL;
        }
        return tl_err_set(err, TL_ENOMEM, "out of memory");
    }
    return TL_OK;
}

/* Errors predicted for the subtree at node if rows (not its own) reached it. */
static int branch_errors(ebp *p, size_t node, const wrow *r, size_t n, double *out, tl_err *err)
{
    const tl_tree *t = p->t;
    if (t->attr[node] < 0) {
        class_totals(p, r, n, p->cls);
        *out = leaf_errors(p, p->cls);
        return TL_OK;
    }
    size_t nb = t->n_children[node];
    rowlist *kids = calloc(nb, sizeof *kids);
    if (!kids)
        return tl_err_set(err, TL_ENOMEM, "out of memory");
    int rc = split_rows(p, node, r, n, kids, err);
    *out = 0;
    for (size_t b = 0; b < nb && !rc; b++) {
        double e;
        rc = branch_errors(p, t->first_child[node] + b, kids[b].r, kids[b].n, &e, err);
        *out += e;
    }
    for (size_t b = 0; b < nb; b++)
        free(kids[b].r);
    free(kids);
    return rc;
}

/* Give node the rows (taking ownership) and pass them down its subtree; statistics follow. */
static int redistribute(ebp *p, size_t node, rowlist rows, tl_err *err)
{
    tl_tree *t = p->t;
    free(p->data[node].r);
    p->data[node] = rows;
    class_totals(p, rows.r, rows.n, t->stats + node * p->k);
    if (t->attr[node] < 0)
        return TL_OK;
    size_t nb = t->n_children[node];
    rowlist *kids = calloc(nb, sizeof *kids);
    if (!kids)
        return tl_err_set(err, TL_ENOMEM, "out of memory");
    int rc = split_rows(p, node, rows.r, rows.n, kids, err);
    size_t b = 0;
    for (; b < nb && !rc; b++)
        rc = redistribute(p, t->first_child[node] + b, kids[b], err);
    for (; b < nb; b++)
        free(kids[b].r);
    free(kids);
    return rc;
}

static double subtree_errors(const ebp *p, size_t node)
{
    const tl_tree *t = p->t;
    if (t->attr[node] < 0)
        return leaf_errors(p, t->stats + node * p->k);
    double e = 0;
    for (size_t c = 0; c < t->n_children[node]; c++)
        e += subtree_errors(p, t->first_child[node] + c);
    return e;
}

/* The child holding the most weight (J48: the last of near-equal ones). */
static size_t largest_branch(const ebp *p, size_t node)
{
    size_t best = p->t->first_child[node];
    double top = 0;
    for (size_t c = 0; c < p->t->n_children[node]; c++) {
        size_t ch = p->t->first_child[node] + c;
        double w = tl_tree_node_weight(p->t, ch);
        if (w >= top - TL_EBP_EPS) {
            top = w;
            best = ch;
        }
    }
    return best;
}

static int prune_node(ebp *p, size_t node, tl_err *err)
{
    tl_tree *t = p->t;
    if (t->attr[node] < 0)
        return TL_OK;
    for (size_t c = 0; c < t->n_children[node]; c++) {
        int rc = prune_node(p, t->first_child[node] + c, err);
        if (rc)
            return rc;
    }
    size_t big = largest_branch(p, node);
    double e_big = DBL_MAX;
    if (p->raising) {
        int rc = branch_errors(p, big, p->data[node].r, p->data[node].n, &e_big, err);
        if (rc)
            return rc;
    }
    double e_leaf = leaf_errors(p, t->stats + node * p->k);
    double e_tree = subtree_errors(p, node);
    /* J48's 0.1 favours the simpler tree */
    if (e_leaf - (e_tree + 0.1) < TL_EBP_EPS && e_leaf - (e_big + 0.1) < TL_EBP_EPS) {
        tl_tree_make_leaf(t, node);
        return TL_OK;
    }
    if (!(e_big - (e_tree + 0.1) < TL_EBP_EPS))
        return TL_OK;
    /* raise the largest branch: node takes its test and children, then all of node's rows */
    tl_tree_take_test(t, node, big); /* the rule for unknowns comes with the test */
    rowlist mine = p->data[node];
    p->data[node] = (rowlist){NULL, 0};
    int rc = redistribute(p, node, mine, err);
    return rc ? rc : prune_node(p, node, err);
}

static const tl_param_spec params[] = {
    TL_EBP_CONFIDENCE,
    TL_EBP_SUBTREE_RAISING,
    TL_EBP_COLLAPSE,
    {NULL, 0, NULL, 0, 0, NULL, NULL},
};

typedef struct options {
    double confidence;
    int subtree_raising, collapse;
} options;

static void *init(const tl_params *p, tl_err *err)
{
    options *o = malloc(sizeof *o);
    if (!o) {
        tl_err_set(err, TL_ENOMEM, "out of memory");
        return NULL;
    }
    tl_param_reader rd = tl_params_reader(params, p, err);
    o->confidence = tl_params_double(&rd, "confidence");
    o->subtree_raising = tl_params_bool(&rd, "subtree_raising");
    o->collapse = tl_params_bool(&rd, "collapse");
    if (rd.rc) {
        free(o);
        return NULL;
    }
    return o;
}

static int prune(const void *state, tl_tree *t, const tl_prune_input *in, tl_prune_trace *trace,
                 tl_err *err)
{
    const options *o = state;
    if (!in->d || !in->train_rows)
        return tl_err_set(err, TL_EINVAL, "error-based pruning needs the training rows");
    if (o->collapse) {
        tl_tree_collapse(t);
        int rc = tl_tree_compact(t, err);
        if (rc)
            return rc;
    }
    double before = (double)tl_tree_leaves(t, 0);
    ebp p = {.t = t, .d = in->d, .k = t->k, .raising = o->subtree_raising};
    p.cf = (double)(float)o->confidence; /* J48 keeps the confidence as a float */
    p.z = gsl_cdf_ugaussian_Pinv(1 - p.cf);
    size_t n_nodes = t->n_nodes; /* compacting below renumbers */
    p.data = calloc(n_nodes, sizeof *p.data);
    p.cls = malloc(t->k * sizeof *p.cls);
    size_t max_nb = 1;
    for (size_t i = 0; i < n_nodes; i++)
        max_nb = t->n_children[i] > max_nb ? t->n_children[i] : max_nb;
    p.branch = malloc((in->n_train ? in->n_train : 1) * sizeof *p.branch);
    p.share = malloc(max_nb * sizeof *p.share);
    p.count = malloc(max_nb * sizeof *p.count);
    rowlist all = {malloc((in->n_train ? in->n_train : 1) * sizeof(wrow)), 0};
    int rc = TL_OK;
    if (!p.data || !p.cls || !all.r || !p.branch || !p.share || !p.count) {
        free(all.r);
        rc = tl_err_set(err, TL_ENOMEM, "out of memory");
        goto done;
    }
    for (size_t i = 0; i < in->n_train; i++) {
        size_t r = in->train_rows[i];
        if (in->d->y.code[r] >= 0) /* J48 drops rows without a class */
            all.r[all.n++] = (wrow){(uint32_t)r, tl_dataset_weight(in->d, r)};
    }
    rc = redistribute(&p, 0, all, err);
    if (!rc)
        rc = prune_node(&p, 0, err);
    if (!rc)
        rc = tl_tree_compact(t, err);
    if (!rc)
        rc = tl_prune_trace_two(trace, "confidence", o->confidence, before, t, err);
done:
    if (p.data)
        for (size_t i = 0; i < n_nodes; i++)
            free(p.data[i].r);
    free(p.data);
    free(p.cls);
    free(p.branch);
    free(p.share);
    free(p.count);
    return rc;
}

static const tl_pruner_type error_based = {
    .name = "error_based",
    .summary = "C4.5's error-based pruning: upper confidence limit of the errors, subtree "
               "raising (J48)",
    .reference = "Quinlan, C4.5: Programs for Machine Learning (1993), ch. 4",
    .params = params,
    .init = init,
    .free = free,
    .needs = TL_NEEDS_CLASSES,
    .prune = prune,
};
const tl_pruner_type *const tl_pruner_error_based = &error_based;
