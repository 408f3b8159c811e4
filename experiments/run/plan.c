/* Sizing an experiment: estimated cost per cell, the plan table, shards, largest-first order. */
#include "run_state.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "treelab/tl_scale.h"

/* Seconds per unit of work, measured with configs/default.cfg on the project's 2-core
 * machine (scripts/bench/scale.sh; docs/scale.md): fit and predict of one cell. */
#define COST_TREE 8.5e-8 /* per n p log2(n) of a grown tree (c45, id3, cart, tree) */
#define COST_NB 5e-8     /* per n p of naive Bayes */
#define COST_SOFT 7e-10  /* per epoch n (p + 1) 2^depth of the soft tree */
#define COST_CELL 2e-5   /* per cell: setting up, scoring */

static long int_param(const tl_exp_model *em, const char *key, long def)
{
    const char *v = tl_params_find(&em->params, key);
    return v ? strtol(v, NULL, 10) : def;
}

/* Fits a cell makes: the pruner's cross-validation regrows the tree once per fold. */
static double pruner_fits(const tl_exp_model *em)
{
    const char *prune = tl_params_find(&em->params, "prune");
    const char *pruner = tl_params_find(&em->params, "pruner");
    const char *alpha = tl_params_find(&em->params, "pruner.alpha");
    int cv = (prune && !strcmp(prune, "cv")) ||
             (pruner && !strcmp(pruner, "cost_complexity") && (!alpha || !strcmp(alpha, "auto")));
    if (!cv)
        return 1;
    long folds = int_param(em, prune ? "folds" : "pruner.folds", 10);
    return (double)(folds > 0 ? folds : 10) + 1;
}

/* Training rows of a cell of dataset d. */
static double train_rows(const tl_experiment *x, const tl_dataset *d, size_t fold)
{
    const tl_protocol *p = &x->protocol;
    double n = (double)d->n_rows;
    size_t k = tl_run_n_folds(p, d);
    if (p->kind == TL_PROTO_CV || p->kind == TL_PROTO_FOLDS)
        return k > 1 ? n * (double)(k - 1) / (double)k : n;
    if (p->kind == TL_PROTO_HOLDOUT)
        return n * p->train;
    if (p->kind == TL_PROTO_LEARNING_CURVE)
        return n * (fold < p->n_fractions ? p->fractions[fold] : 1);
    double t = 0;
    for (size_t i = 0; d->role && i < d->n_rows; i++)
        t += d->role[i] == TL_ROLE_TRAIN;
    return t;
}

double tl_cell_cost(const tl_experiment *x, const tl_dataset *d, size_t m, size_t fold)
{
    const tl_exp_model *em = &x->models[m];
    double n = train_rows(x, d, fold), p = (double)d->schema.n_attrs;
    double work, fits = pruner_fits(em);
    if (!strcmp(em->type->name, "gaussian_nb"))
        work = COST_NB * n * (p + 1);
    else if (!strcmp(em->type->name, "soft_tree"))
        work = COST_SOFT * (double)int_param(em, "epochs", 100) * n * (p + 1) *
               ldexp(1, (int)int_param(em, "depth", 4));
    else
        work = COST_TREE * n * (p + 1) * log2(n + 2);
    if (em->select.n_params) { /* every candidate on its inner draws, then the chosen one */
        const tl_exp_select *sel = &em->select;
        double draws = sel->inner == TL_INNER_HOLDOUT
                           ? (double)sel->repeats
                           : (double)(sel->folds > 1 ? sel->folds - 1 : 1) * (double)sel->repeats;
        fits *= (double)sel->n_candidates * draws + 1;
    }
    return COST_CELL + work * fits;
}

int tl_plan_make(const tl_experiment *x, tl_dataset *const *data, tl_plan *p, tl_err *err)
{
    memset(p, 0, sizeof *p);
    p->rows = calloc(x->n_datasets * x->n_models + 1, sizeof *p->rows);
    if (!p->rows)
        return tl_err_set(err, TL_ENOMEM, "out of memory");
    for (size_t d = 0; d < x->n_datasets; d++)
        for (size_t m = 0; m < x->n_models; m++) {
            tl_plan_row *r = &p->rows[p->n_rows++];
            size_t k = tl_run_n_folds(&x->protocol, data[d]);
            r->dataset = d, r->model = m, r->rows = data[d]->n_rows;
            r->attributes = data[d]->schema.n_attrs;
            r->cells = k * x->protocol.repeats;
            for (size_t f = 0; f < k; f++) {
                double c = tl_cell_cost(x, data[d], m, f);
                r->total += c * (double)x->protocol.repeats;
                p->largest = c > p->largest ? c : p->largest;
            }
            r->cost = r->cells ? r->total / (double)r->cells : 0;
            p->cells += r->cells;
            p->total += r->total;
        }
    return TL_OK;
}

void tl_plan_free(tl_plan *p)
{
    if (p) {
        free(p->rows);
        memset(p, 0, sizeof *p);
    }
}

size_t tl_plan_ranks(const tl_plan *p, double wall, size_t jobs)
{
    if (wall <= 0 || p->largest > wall)
        return 0;
    double workers = ceil(p->total / (wall * (double)(jobs ? jobs : 1)));
    return 1 + (size_t)(workers < 1 ? 1 : workers);
}

typedef struct {
    double cost;
    size_t index;
} costed;

static int by_cost_desc(const void *pa, const void *pb)
{
    const costed *a = pa, *b = pb;
    if (a->cost != b->cost)
        return a->cost > b->cost ? -1 : 1;
    return a->index < b->index ? -1 : a->index > b->index;
}

/* A min-heap of shards by (load, number). */
static int lighter(const double *load, size_t a, size_t b)
{
    return load[a] < load[b] || (load[a] == load[b] && a < b);
}

static void sift_down(size_t *heap, size_t n, const double *load, size_t i)
{
    for (;;) {
        size_t l = 2 * i + 1, r = l + 1, min = i;
        if (l < n && lighter(load, heap[l], heap[min]))
            min = l;
        if (r < n && lighter(load, heap[r], heap[min]))
            min = r;
        if (min == i)
            return;
        size_t t = heap[i];
        heap[i] = heap[min], heap[min] = t;
        i = min;
    }
}

int tl_shard_partition(const double *cost, size_t n, size_t n_shards, size_t *shard, tl_err *err)
{
    costed *order = malloc((n ? n : 1) * sizeof *order);
    size_t *heap = malloc((n_shards ? n_shards : 1) * sizeof *heap);
    double *load = calloc(n_shards ? n_shards : 1, sizeof *load);
    if (!order || !heap || !load) {
        free(order), free(heap), free(load);
        return tl_err_set(err, TL_ENOMEM, "out of memory");
    }
    for (size_t i = 0; i < n; i++)
        order[i].cost = cost[i], order[i].index = i;
    qsort(order, n, sizeof *order, by_cost_desc);
    for (size_t s = 0; s < n_shards; s++)
        heap[s] = s; /* all loads 0: already a heap in number order */
    for (size_t i = 0; i < n && n_shards; i++) {
        size_t s = heap[0];
        shard[order[i].index] = s;
        load[s] += order[i].cost;
        sift_down(heap, n_shards, load, 0);
    }
    free(order), free(heap), free(load);
    return TL_OK;
}

/* Estimated cost of every cell in the canonical order (dataset, model, repeat, fold). */
static double *canonical_costs(const tl_run_state *s, size_t *n)
{
    const tl_experiment *x = s->x;
    size_t all = 0;
    for (size_t d = 0; d < x->n_datasets; d++)
        all += x->n_models * x->protocol.repeats * tl_run_n_folds(&x->protocol, s->data[d]);
    double *cost = malloc((all ? all : 1) * sizeof *cost);
    size_t at = 0;
    for (size_t d = 0; cost && d < x->n_datasets; d++)
        for (size_t m = 0; m < x->n_models; m++)
            for (size_t r = 0; r < x->protocol.repeats; r++)
                for (size_t f = 0; f < tl_run_n_folds(&x->protocol, s->data[d]); f++)
                    cost[at++] = tl_cell_cost(x, s->data[d], m, f);
    *n = all;
    return cost;
}

int tl_run_shard_mask(const tl_run_state *s, unsigned char **mask, tl_err *err)
{
    *mask = NULL;
    if (!s->sc->n_shards)
        return TL_OK;
    size_t n;
    double *cost = canonical_costs(s, &n);
    size_t *shard = malloc((n ? n : 1) * sizeof *shard);
    unsigned char *m = malloc(n ? n : 1);
    int rc = cost && shard && m ? tl_shard_partition(cost, n, s->sc->n_shards, shard, err)
                                : tl_err_set(err, TL_ENOMEM, "out of memory");
    for (size_t i = 0; !rc && i < n; i++)
        m[i] = shard[i] + 1 == s->sc->shard;
    free(cost);
    free(shard);
    if (rc)
        free(m);
    else
        *mask = m;
    return rc;
}

int tl_run_largest_first(tl_run_state *s, tl_err *err)
{
    costed *order = malloc((s->n_todo ? s->n_todo : 1) * sizeof *order);
    tl_cell *sorted = malloc((s->n_todo ? s->n_todo : 1) * sizeof *sorted);
    if (!order || !sorted) {
        free(order), free(sorted);
        return tl_err_set(err, TL_ENOMEM, "out of memory");
    }
    for (size_t i = 0; i < s->n_todo; i++) {
        const tl_cell *c = &s->todo[i];
        order[i].cost = tl_cell_cost(s->x, s->data[c->dataset], c->model, c->fold);
        order[i].index = i;
    }
    qsort(order, s->n_todo, sizeof *order, by_cost_desc);
    for (size_t i = 0; i < s->n_todo; i++)
        sorted[i] = s->todo[order[i].index];
    memcpy(s->todo, sorted, s->n_todo * sizeof *sorted);
    free(order), free(sorted);
    return TL_OK;
}

/* A cell's place in tl_run_group_stages: by its fit's key, then by where its group starts. */
typedef struct staged {
    size_t d, grid, r, f; /* the key (grid 0: a cell of its own) */
    size_t stage, index, first;
} staged;

static int cmp_size(size_t a, size_t b)
{
    return a < b ? -1 : a > b;
}

static int by_key(const void *pa, const void *pb)
{
    const staged *a = pa, *b = pb;
    int c = cmp_size(a->d, b->d);
    c = c ? c : cmp_size(a->grid, b->grid);
    c = c ? c : cmp_size(a->r, b->r);
    c = c ? c : cmp_size(a->f, b->f);
    return c ? c : cmp_size(a->index, b->index);
}

static int by_group(const void *pa, const void *pb)
{
    const staged *a = pa, *b = pb;
    int c = cmp_size(a->first, b->first);
    c = c ? c : cmp_size(b->stage, a->stage);
    return c ? c : cmp_size(a->index, b->index);
}

int tl_run_group_stages(tl_run_state *s, tl_err *err)
{
    size_t n = s->n_todo, grouped = 0;
    staged *o = malloc((n ? n : 1) * sizeof *o);
    tl_cell *sorted = malloc((n ? n : 1) * sizeof *sorted);
    if (!o || !sorted) {
        free(o), free(sorted);
        return tl_err_set(err, TL_ENOMEM, "out of memory");
    }
    for (size_t i = 0; i < n; i++) {
        const tl_cell *c = &s->todo[i];
        size_t st = tl_run_stage(s->x, c->model);
        grouped += st > 0;
        o[i] = (staged){c->dataset, st ? s->x->models[c->model].grid : 0, c->repeat, c->fold,
                        st, i, i};
    }
    if (grouped) {
        qsort(o, n, sizeof *o, by_key);
        for (size_t i = 1; i < n; i++)
            if (o[i].grid && o[i].grid == o[i - 1].grid && o[i].d == o[i - 1].d &&
                o[i].r == o[i - 1].r && o[i].f == o[i - 1].f)
                o[i].first = o[i - 1].first;
        qsort(o, n, sizeof *o, by_group);
        for (size_t i = 0; i < n; i++)
            sorted[i] = s->todo[o[i].index];
        memcpy(s->todo, sorted, n * sizeof *sorted);
    }
    free(o), free(sorted);
    return TL_OK;
}
