/* The validation pruners' figure: validation and test accuracy against tree size along a
 * weakest-link sequence of the unpruned tree, with the tree each pruner chose marked. */
#include "report_util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "treelab/tl_plot.h"
#include "treelab/tl_protocol.h"
#include "treelab/tl_runner.h"
#include "treelab/tl_grow.h"
#include "treelab/tl_model.h"

/* Where the walk of correct() stands at one level: the node, its next child, and the sum so
 * far of its children's subtrees. */
typedef struct sum_level {
    size_t node, next;
    double sum;
} sum_level;

/* Scratch for correct(): the levels of its walk, grown on the heap as needed (a tree may be
 * far deeper than the C stack allows). */
typedef struct sum_stack {
    sum_level *v;
    size_t cap;
} sum_stack;

/* Weight of the rows routed by reach that the current tree (pruned[] marks cut nodes)
 * classifies right below node into *sum, and its leaves. Depth first without recursion; each
 * subtree is summed on its own and then added into its parent's sum, as a recursion adds. */
static int correct(const tl_tree *t, const unsigned char *pruned, const double *reach,
                   size_t node, sum_stack *st, double *sum, size_t *leaves, tl_err *err)
{
    if (t->attr[node] < 0 || pruned[node]) {
        *leaves = 1;
        *sum = reach[node * t->k + tl_tree_node_class(t, node)];
        return TL_OK;
    }
    *leaves = 0;
    size_t sp = 0;
    for (size_t push = node;;) {
        if (push != SIZE_MAX) {
            if (sp == st->cap) {
                size_t cap = st->cap ? 2 * st->cap : 64;
                sum_level *grown = realloc(st->v, cap * sizeof *grown);
                if (!grown)
                    return tl_err_set(err, TL_ENOMEM, "out of memory");
                st->v = grown;
                st->cap = cap;
            }
            st->v[sp++] = (sum_level){push, 0, 0};
            push = SIZE_MAX;
        }
        sum_level *top = &st->v[sp - 1];
        if (top->next >= t->n_children[top->node]) {
            double sub = top->sum;
            if (!--sp) {
                *sum = sub;
                return TL_OK;
            }
            st->v[sp - 1].sum += sub;
            continue;
        }
        size_t ch = t->first_child[top->node] + top->next++;
        if (t->attr[ch] < 0 || pruned[ch]) {
            ++*leaves;
            top->sum += reach[ch * t->k + tl_tree_node_class(t, ch)];
        } else {
            push = ch;
        }
    }
}

/* The node whose pruning costs the least validation accuracy per leaf removed into *best
 * (SIZE_MAX when only the root is left); ties go to the lowest node number. */
static int weakest(const tl_tree *t, const unsigned char *pruned, const double *reach,
                   sum_stack *st, size_t *best, tl_err *err)
{
    double best_cost = INFINITY;
    *best = SIZE_MAX;
    for (size_t n = 0; n < t->n_nodes; n++) {
        if (t->attr[n] < 0 || pruned[n])
            continue;
        int live = 1; /* under a cut node it is gone already */
        for (size_t a = t->parent[n]; a != SIZE_MAX && live; a = t->parent[a])
            live = !pruned[a];
        if (!live)
            continue;
        size_t leaves;
        double sub;
        int rc = correct(t, pruned, reach, n, st, &sub, &leaves, err);
        if (rc)
            return rc;
        double cost = (sub - reach[n * t->k + tl_tree_node_class(t, n)]) / (double)(leaves - 1);
        if (cost < best_cost - 1e-12) {
            best_cost = cost;
            *best = n;
        }
    }
    return TL_OK;
}

/* Validation and test accuracy of a fitted tree, and its leaves. */
static int tree_scores(const tl_tree *t, const tl_dataset *d, const size_t *va, size_t nva,
                       const size_t *te, size_t nte, double *acc_va, double *acc_te,
                       size_t *leaves, tl_err *err)
{
    double *reach = malloc(2 * t->n_nodes * t->k * sizeof *reach);
    unsigned char *none = calloc(t->n_nodes, 1);
    sum_stack st = {0};
    double sv = 0, stt = 0;
    int rc = reach && none ? TL_OK : tl_err_set(err, TL_ENOMEM, "out of memory");
    if (!rc)
        rc = tl_tree_route(t, d, va, nva, reach, err);
    if (!rc)
        rc = tl_tree_route(t, d, te, nte, reach + t->n_nodes * t->k, err);
    if (!rc)
        rc = correct(t, none, reach, 0, &st, &sv, leaves, err);
    if (!rc)
        rc = correct(t, none, reach + t->n_nodes * t->k, 0, &st, &stt, leaves, err);
    if (!rc) {
        *acc_va = sv / (double)nva;
        *acc_te = stt / (double)nte;
    }
    free(reach);
    free(none);
    free(st.v);
    return rc;
}

/* The curve of the unpruned tree grown on train, cut node by node. */
static int sequence(const tl_tree *t, const tl_dataset *d, const size_t *va, size_t nva,
                    const size_t *te, size_t nte, double *x, double *yv, double *yt, size_t *n,
                    tl_err *err)
{
    size_t nn = t->n_nodes, k = t->k;
    double *reach = malloc(2 * nn * k * sizeof *reach);
    unsigned char *pruned = calloc(nn, 1);
    int rc = reach && pruned ? TL_OK : tl_err_set(err, TL_ENOMEM, "out of memory");
    if (!rc)
        rc = tl_tree_route(t, d, va, nva, reach, err);
    if (!rc)
        rc = tl_tree_route(t, d, te, nte, reach + nn * k, err);
    *n = 0;
    sum_stack st = {0};
    for (size_t cut = 0; !rc;) {
        if (*n)
            pruned[cut] = 1;
        size_t leaves;
        double sv, stt;
        if ((rc = correct(t, pruned, reach, 0, &st, &sv, &leaves, err)) ||
            (rc = correct(t, pruned, reach + nn * k, 0, &st, &stt, &leaves, err)))
            break;
        yv[*n] = sv / (double)nva;
        yt[*n] = stt / (double)nte;
        x[(*n)++] = (double)leaves;
        if (leaves == 1 || (rc = weakest(t, pruned, reach, &st, &cut, err)) || cut == SIZE_MAX)
            break;
    }
    free(reach);
    free(pruned);
    free(st.v);
    return rc;
}

int tl_report_validation_plot(const char *dir, const tl_experiment *x, const tl_exp_model *em,
                              size_t color, const tl_dataset *d, const char *dn, tl_err *err)
{
    if (x->protocol.kind != TL_PROTO_HOLDOUT || !tl_dataset_is_classification(d))
        return TL_OK;
    size_t n = d->n_rows, ntr, nva, nte, npts = 0;
    size_t *rows = malloc(3 * (n ? n : 1) * sizeof *rows);
    double *order = malloc((n ? n : 1) * sizeof *order);
    tl_model *full = NULL, *chosen = NULL;
    double *xs = NULL;
    tl_params p;
    tl_params_init(&p);
    int rc = rows && order ? TL_OK : tl_err_set(err, TL_ENOMEM, "out of memory");
    /* repeat 0's hold-out split, as the runner makes it */
    if (!rc)
        rc = tl_protocol_order(d, x->protocol.stratified, x->seed, dn, 0, order, err);
    size_t *tr = rows, *va = rows + n, *te = rows + 2 * n;
    if (!rc)
        tl_protocol_split(order, n, x->protocol.train, x->protocol.train + x->protocol.valid, tr,
                          &ntr, va, &nva, te, &nte);
    if (!rc && (!nva || !nte))
        goto done; /* nothing to score on */
    unsigned long seed = tl_protocol_seed(x->seed, dn, 0, 1);
    tl_fit_ctx ctx = {seed, va, nva};
    if (!rc && !(chosen = tl_model_new(em->type->name, &em->params, err)))
        rc = err->code;
    if (!rc)
        rc = tl_model_fit(chosen, d, tr, ntr, &ctx, err);
    /* the figure is the validation pruners': the fitted model says which pruner it ran */
    const tl_prune_trace *trace = rc ? NULL : tl_model_prune_trace(chosen);
    const char *prune = trace ? trace->pruner : NULL;
    if (!rc && (!prune || (strcmp(prune, "reduced_error") && strcmp(prune, "pre_validation"))))
        goto done;
    /* the same tree unpruned: the pruner slot emptied, whatever the model's names for it */
    if (!rc)
        rc = tl_params_copy(&p, &em->params, err);
    if (!rc)
        rc = tl_params_set(&p, "pruner", "none", err);
    if (!rc && !(full = tl_model_new(em->type->name, &p, err)))
        rc = err->code;
    if (!rc)
        rc = tl_model_fit(full, d, tr, ntr, &ctx, err);
    const tl_tree *t = rc ? NULL : tl_model_tree(full);
    const tl_tree *tc = rc ? NULL : tl_model_tree(chosen);
    if (!rc && (!t || !tc))
        goto done; /* not a tree learner */
    if (!rc && !(xs = malloc(3 * t->n_nodes * sizeof *xs)))
        rc = tl_err_set(err, TL_ENOMEM, "out of memory");
    double *yv = xs + (xs ? t->n_nodes : 0), *yt = xs + (xs ? 2 * t->n_nodes : 0);
    if (!rc)
        rc = sequence(t, d, va, nva, te, nte, xs, yv, yt, &npts, err);
    double cv = 0, ct = 0;
    size_t cl = 0;
    if (!rc)
        rc = tree_scores(tc, d, va, nva, te, nte, &cv, &ct, &cl, err);
    if (!rc) {
        char title[1024], stem[4096], mark[64];
        snprintf(title, sizeof title, "Validation pruning: %s on %s (%zu / %zu / %zu rows)",
                 em->name, dn, ntr, nva, nte);
        snprintf(stem, sizeof stem, "%s/plots/validation_%s__%s", dir, dn, em->name);
        snprintf(mark, sizeof mark, "%s (%zu leaves)", prune, cl);
        tl_plot_series s[2] = {
            {"validation accuracy", color, npts, xs, yv, NULL, 0, 0},
            {"test accuracy", color, npts, xs, yt, NULL, 0, 1},
        };
        tl_plot_marker mk = {(double)cl, cv, mark, (color + 1) % TL_PLOT_N_COLORS};
        tl_plot_curve c = {title, "leaves of the subtree (weakest link on validation accuracy)",
                           "accuracy", NULL, 0, s, 2, &mk, 1, NAN, NULL};
        rc = tl_plot_curve_write(&c, stem, err);
    }
done:
    tl_params_clear(&p);
    tl_model_free(full);
    tl_model_free(chosen);
    free(xs);
    free(rows);
    free(order);
    return rc;
}
