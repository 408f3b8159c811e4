/* What each cell trains and tests on: the folds and orders of every (dataset, repeat), the
 * rows of a cell, and computing one cell. */
#include "run_state.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "treelab/tl_protocol.h"

double tl_run_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* The name a dataset's folds and seeds come from: the entry it was copied from for
 * protocol.missing, so every rate runs on the same folds. */
static const char *seed_name(const tl_exp_dataset *ed)
{
    return ed->base ? ed->base : ed->name;
}

/* Folds of dataset d (the data's own fold ids give each dataset its number). */
size_t tl_run_n_folds(const tl_protocol *p, const tl_dataset *d)
{
    return p->kind == TL_PROTO_CV               ? p->folds
           : p->kind == TL_PROTO_FOLDS          ? d->n_folds
           : p->kind == TL_PROTO_LEARNING_CURVE ? p->n_fractions
                                                : 1;
}

/* Rows of d by role into tr, va, te. */
static void role_rows(const tl_dataset *d, size_t *tr, size_t *ntr, size_t *va, size_t *nva,
                      size_t *te, size_t *nte)
{
    *ntr = *nva = *nte = 0;
    for (size_t i = 0; i < d->n_rows; i++) {
        if (d->role[i] == TL_ROLE_TRAIN)
            tr[(*ntr)++] = i;
        else if (d->role[i] == TL_ROLE_VALID)
            va[(*nva)++] = i;
        else
            te[(*nte)++] = i;
    }
}

/* Train / validation / test rows of cell c (arrays of n_rows). */
static void cell_rows(const tl_run_state *s, const tl_cell *c, size_t *tr, size_t *ntr, size_t *va,
                      size_t *nva, size_t *te, size_t *nte)
{
    const tl_protocol *p = &s->x->protocol;
    size_t slot = c->dataset * p->repeats + c->repeat, n = s->data[c->dataset]->n_rows;
    *nva = 0;
    if (p->kind == TL_PROTO_CV || p->kind == TL_PROTO_FOLDS) {
        tl_protocol_fold_rows(s->fold_of[slot], n, c->fold, tr, ntr, te, nte);
    } else if (p->kind == TL_PROTO_SPLIT) {
        role_rows(s->data[c->dataset], tr, ntr, va, nva, te, nte);
    } else if (p->kind == TL_PROTO_HOLDOUT) {
        tl_protocol_split(s->order_of[slot], n, p->train, p->train + p->valid, tr, ntr, va, nva, te,
                          nte);
    } else {
        double f = p->fractions[c->fold];
        tl_protocol_split(s->order_of[slot], n, f, f, tr, ntr, NULL, NULL, te, nte);
    }
}

/* protocol.missing: the cell's data with values removed at random from its training rows,
 * its test rows or both (the draws seeded per dataset, repeat and fold, not per model or
 * rate, so every learner and rate sees nested removals on the same folds). */
static int blank(const tl_run_state *s, const tl_exp_dataset *ed, const tl_dataset *d,
                 const tl_cell *c, const size_t *tr, size_t ntr, const size_t *te, size_t nte,
                 tl_dataset *out, tl_err *err)
{
    unsigned rows = s->x->protocol.missing_rows;
    size_t *pick = malloc((ntr + nte + 1) * sizeof *pick), n = 0;
    if (!pick)
        return tl_err_set(err, TL_ENOMEM, "out of memory");
    for (size_t i = 0; (rows & TL_MISSING_IN_TRAIN) && i < ntr; i++)
        pick[n++] = tr[i];
    for (size_t i = 0; (rows & TL_MISSING_IN_TEST) && i < nte; i++)
        pick[n++] = te[i];
    unsigned long seed =
        tl_protocol_seed(s->x->seed, ed->base, c->repeat, c->fold + 1) ^ 0x9e3779b9UL;
    int rc = tl_dataset_blanked(d, pick, n, ed->missing_rate, seed ? seed : 1, out, err);
    free(pick);
    return rc;
}

int tl_run_compute(tl_run_state *s, tl_cell *c, size_t *buf, tl_err *err)
{
    return tl_run_compute_group(s, c, 1, buf, err);
}

size_t tl_run_stage(const tl_experiment *x, size_t model)
{
    const tl_exp_model *m = &x->models[model];
    const char *param = tl_model_stage_param(m->type);
    if (!param || !m->grid || m->select.n_params)
        return 0;
    const tl_exp_grid *g = &x->grids[m->grid - 1];
    const char *v = tl_params_find(&m->params, param);
    char *end;
    unsigned long long n = v ? strtoull(v, &end, 10) : 0;
    return g->param[1] || strcmp(g->param[0], param) || !n || *end || v[0] == '-' ? 0
                                                                                  : (size_t)n;
}

int tl_run_same_fit(const tl_experiment *x, const tl_cell *a, const tl_cell *b)
{
    return a->dataset == b->dataset && a->repeat == b->repeat && a->fold == b->fold &&
           x->models[a->model].grid == x->models[b->model].grid &&
           tl_run_stage(x, a->model) && tl_run_stage(x, b->model);
}

int tl_run_compute_group(tl_run_state *s, tl_cell *c, size_t n_cells, size_t *buf, tl_err *err)
{
    size_t n = s->data[c->dataset]->n_rows, ntr, nva, nte;
    size_t *tr = buf, *va = buf + n, *te = buf + 2 * n;
    cell_rows(s, c, tr, &ntr, va, &nva, te, &nte);
    const tl_exp_dataset *ed = &s->x->datasets[c->dataset];
    unsigned long seed = tl_protocol_seed(s->x->seed, seed_name(ed), c->repeat, c->fold + 1);
    const tl_dataset *d = s->data[c->dataset];
    tl_dataset blanked;
    int rc = ed->missing_rate > 0 ? blank(s, ed, d, c, tr, ntr, te, nte, &blanked, err) : TL_OK;
    const tl_dataset *used = ed->missing_rate > 0 ? &blanked : d;
    if (!rc && n_cells == 1) {
        rc = tl_cell_eval(&s->x->models[c->model], used, tr, ntr, nva ? va : NULL, nva, te, nte,
                          seed, c, err);
    } else if (!rc) { /* the grid's models in decreasing stage order (tl_run_group_stages) */
        const tl_exp_model **m = malloc(n_cells * sizeof *m);
        size_t *stage = malloc(n_cells * sizeof *stage);
        rc = m && stage ? TL_OK : tl_err_set(err, TL_ENOMEM, "out of memory");
        for (size_t i = 0; !rc && i < n_cells; i++)
            m[i] = &s->x->models[c[i].model], stage[i] = tl_run_stage(s->x, c[i].model);
        if (!rc)
            rc = tl_cell_eval_stages(m, stage, n_cells, used, tr, ntr, nva ? va : NULL, nva, te,
                                     nte, seed, c, err);
        free(m);
        free(stage);
    }
    if (ed->missing_rate > 0)
        tl_dataset_blanked_free(&blanked);
    /* per-row results are kept for McNemar's test of a single split only */
    for (size_t i = 0; i < n_cells && s->x->protocol.kind != TL_PROTO_HOLDOUT; i++)
        free(c[i].correct), c[i].correct = NULL;
    if (rc)
        tl_err_prefix(err, "dataset %s, model %s, repeat %zu, fold %zu: ", ed->name,
                      s->x->models[c->model].name, c->repeat, c->fold);
    return rc;
}

int tl_run_make_splits(tl_run_state *s, tl_err *err)
{
    const tl_experiment *x = s->x;
    size_t slots = x->n_datasets * x->protocol.repeats;
    int cv = x->protocol.kind == TL_PROTO_CV, own = x->protocol.kind == TL_PROTO_FOLDS;
    s->fold_of = calloc(slots, sizeof *s->fold_of);
    s->order_of = calloc(slots, sizeof *s->order_of);
    if (!s->fold_of || !s->order_of)
        return tl_err_set(err, TL_ENOMEM, "out of memory");
    for (size_t d = 0; d < x->n_datasets; d++) {
        const tl_dataset *ds = s->data[d];
        for (size_t r = 0; r < x->protocol.repeats; r++) {
            size_t i = d * x->protocol.repeats + r, n = ds->n_rows ? ds->n_rows : 1;
            int rc;
            if (own && !ds->fold)
                rc = tl_err_set(err, TL_EINVAL,
                                "protocol folds: the dataset has no fold ids "
                                "(load it with a fold column or file)");
            else if (x->protocol.kind == TL_PROTO_SPLIT && !ds->role)
                rc = tl_err_set(err, TL_EINVAL,
                                "protocol split: the dataset has no train / "
                                "test rows (load it with a split column or a test file)");
            else if (x->protocol.kind == TL_PROTO_SPLIT)
                rc = TL_OK;
            else if (own) { /* -1 (trained on in every fold) is no fold's number */
                rc = (s->fold_of[i] = malloc(n * sizeof **s->fold_of))
                         ? TL_OK
                         : tl_err_set(err, TL_ENOMEM, "out of memory");
                for (size_t j = 0; !rc && j < ds->n_rows; j++)
                    s->fold_of[i][j] = ds->fold[j] < 0 ? SIZE_MAX : (size_t)ds->fold[j];
            } else if (cv)
                rc = (s->fold_of[i] = malloc(n * sizeof **s->fold_of))
                         ? tl_protocol_folds(ds, x->protocol.folds, x->protocol.stratified, x->seed,
                                             seed_name(&x->datasets[d]), r, s->fold_of[i], err)
                         : tl_err_set(err, TL_ENOMEM, "out of memory");
            else
                rc = (s->order_of[i] = malloc(n * sizeof **s->order_of))
                         ? tl_protocol_order(ds, x->protocol.stratified, x->seed,
                                             seed_name(&x->datasets[d]), r, s->order_of[i], err)
                         : tl_err_set(err, TL_ENOMEM, "out of memory");
            if (!rc && x->protocol.kind == TL_PROTO_HOLDOUT) {
                size_t ntr, nva, nte;
                tl_protocol_split(s->order_of[i], ds->n_rows, x->protocol.train,
                                  x->protocol.train + x->protocol.valid, NULL, &ntr, NULL, &nva,
                                  NULL, &nte);
                if (!ntr || !nte)
                    rc = tl_err_set(err, TL_EINVAL,
                                    "repeat %zu: the hold-out split of %zu rows "
                                    "leaves %s (train %g, validation %g, test %g); use more "
                                    "rows or larger fractions",
                                    r, ds->n_rows, ntr ? "no test rows" : "no training rows",
                                    x->protocol.train, x->protocol.valid, x->protocol.test);
            }
            if (rc)
                return tl_err_prefix(err, "dataset %s: ", x->datasets[d].name);
        }
    }
    return TL_OK;
}

void tl_run_free_splits(tl_run_state *s)
{
    size_t slots = s->x->n_datasets * s->x->protocol.repeats;
    for (size_t i = 0; i < slots; i++) {
        free(s->fold_of ? s->fold_of[i] : NULL);
        free(s->order_of ? s->order_of[i] : NULL);
    }
    free(s->fold_of);
    free(s->order_of);
    s->fold_of = NULL;
    s->order_of = NULL;
}

size_t tl_run_max_rows(const tl_run_state *s)
{
    size_t max_rows = 1;
    for (size_t i = 0; i < s->x->n_datasets; i++)
        max_rows = s->data[i]->n_rows > max_rows ? s->data[i]->n_rows : max_rows;
    return max_rows;
}
