/* `treelab merge`: shard folders of one experiment assembled into the results of one run. */
#include "cells_line.h"
#include "run_state.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "treelab/tl_outfile.h"
#include "treelab/tl_cells.h"
#include "treelab/tl_log.h"
#include "treelab/tl_scale.h"

/* Where each cell goes in the canonical order (dataset, model, repeat, fold). */
typedef struct {
    const tl_experiment *x;
    tl_dataset *const *data;
    size_t *first; /* per dataset: index of its first cell */
    size_t n;      /* cells in all */
} layout;

static int layout_make(layout *l, const tl_experiment *x, tl_dataset *const *data, tl_err *err)
{
    l->x = x, l->data = data, l->n = 0;
    if (!(l->first = malloc((x->n_datasets + 1) * sizeof *l->first)))
        return tl_err_set(err, TL_ENOMEM, "out of memory");
    for (size_t d = 0; d < x->n_datasets; d++) {
        l->first[d] = l->n;
        l->n += x->n_models * x->protocol.repeats * tl_run_n_folds(&x->protocol, data[d]);
    }
    return TL_OK;
}

/* The canonical index of c, or SIZE_MAX when the experiment has no such cell. */
static size_t layout_index(const layout *l, const tl_cell *c)
{
    const tl_experiment *x = l->x;
    if (c->dataset >= x->n_datasets || c->model >= x->n_models || c->repeat >= x->protocol.repeats)
        return (size_t)-1;
    size_t k = tl_run_n_folds(&x->protocol, l->data[c->dataset]);
    if (c->fold >= k)
        return (size_t)-1;
    return l->first[c->dataset] + (c->model * x->protocol.repeats + c->repeat) * k + c->fold;
}

typedef struct {
    layout l;
    const char *const *dirs;
    size_t n_dirs, n_shards;
    size_t *dir_of_shard; /* per shard: the folder given for it + 1 (0: none yet) */
    tl_cell *cells;       /* in canonical order */
    size_t *from;         /* per cell: its folder + 1 (0: not seen) */
    size_t unsealed;      /* the first folder whose cells file lacks its checksum line + 1 */
} merge;

/* Check one shard folder against the experiment and take its cells. */
static int take_shard(merge *g, size_t i, const char *header, tl_err *err)
{
    const char *dir = g->dirs[i];
    char path[4200], what[1100];
    snprintf(path, sizeof path, "%s/%s", dir, TL_CELLS_FILE);
    if (access(path, F_OK) != 0)
        return tl_err_set(err, TL_EINVAL,
                          "%s is not a shard's results folder (it has no %s; "
                          "treelab run CONFIG --shard I/N writes one)",
                          dir, TL_CELLS_FILE);
    char *theirs = NULL;
    int rc = tl_run_read_header(path, &theirs, err);
    if (!rc && tl_run_header_diff(header, theirs, 1, what, sizeof what))
        rc = tl_err_set(err, TL_EINVAL,
                        "%s is a shard of another experiment: the config and "
                        "data given have %s; merge only shards of one config, seed and data",
                        dir, what);
    free(theirs);
    tl_cells_meta meta;
    tl_cell *cells = NULL;
    size_t n = 0;
    if (rc || (rc = tl_cells_read(path, &meta, &cells, &n, NULL, err)))
        return rc;
    if (!meta.n_shards)
        rc = tl_err_set(err, TL_EINVAL, "%s is not a shard: it was run without --shard I/N", dir);
    else if (!g->n_shards)
        g->n_shards = meta.n_shards;
    if (!rc && !meta.checked && meta.format >= 2 && !g->unsealed)
        g->unsealed = i + 1; /* refused once its missing cells, if any, are named */
    else if (!rc && !meta.checked && meta.format < 2)
        tl_warn("%s was written before cells files carried a checksum (format 1): its cells "
                "are merged unverified",
                path);
    if (!rc && meta.n_shards != g->n_shards)
        rc = tl_err_set(err, TL_EINVAL,
                        "%s is shard %zu of %zu, but %s is one of %zu: merge "
                        "the shards of one split",
                        dir, meta.shard, meta.n_shards, g->dirs[0], g->n_shards);
    if (!rc && !g->dir_of_shard &&
        !(g->dir_of_shard = calloc(g->n_shards, sizeof *g->dir_of_shard)))
        rc = tl_err_set(err, TL_ENOMEM, "out of memory");
    if (!rc && g->dir_of_shard[meta.shard - 1])
        rc = tl_err_set(err, TL_EINVAL, "shard %zu/%zu is given twice: %s and %s", meta.shard,
                        g->n_shards, g->dirs[g->dir_of_shard[meta.shard - 1] - 1], dir);
    if (!rc)
        g->dir_of_shard[meta.shard - 1] = i + 1;
    size_t j = 0;
    for (; !rc && j < n; j++) {
        size_t at = layout_index(&g->l, &cells[j]);
        if (at == (size_t)-1)
            rc = tl_err_set(err, TL_EINVAL,
                            "%s holds a cell the experiment does not have "
                            "(dataset %zu, model %zu, repeat %zu, fold %zu)",
                            dir, cells[j].dataset, cells[j].model, cells[j].repeat, cells[j].fold);
        else if (g->from[at])
            rc = tl_err_set(err, TL_EINVAL,
                            "%s and %s both hold the cell of dataset %s, model "
                            "%s, repeat %zu, fold %zu: were the shards split by different "
                            "treelab versions?",
                            g->dirs[g->from[at] - 1], dir, g->l.x->datasets[cells[j].dataset].name,
                            g->l.x->models[cells[j].model].name, cells[j].repeat, cells[j].fold);
        else {
            g->cells[at] = cells[j];
            memset(&cells[j], 0, sizeof cells[j]); /* now owned by g */
            g->from[at] = i + 1;
        }
    }
    for (size_t k = 0; k < n; k++)
        tl_cell_clear(&cells[k]);
    free(cells);
    tl_cells_meta_clear(&meta);
    return rc;
}

/* Every shard given and every cell present; else which shard lacks what. */
static int check_complete(merge *g, tl_err *err)
{
    for (size_t s = 0; s < g->n_shards; s++)
        if (!g->dir_of_shard[s])
            return tl_err_set(err, TL_EINVAL,
                              "shard %zu/%zu is missing: give the folders of "
                              "all %zu shards",
                              s + 1, g->n_shards, g->n_shards);
    size_t missing = 0, first = 0;
    for (size_t i = g->l.n; i-- > 0;)
        if (!g->from[i])
            missing++, first = i;
    if (!missing)
        return TL_OK;
    /* name the shard that should have held the first missing cell */
    double *cost = malloc(g->l.n * sizeof *cost);
    size_t *shard = malloc(g->l.n * sizeof *shard), at = 0;
    for (size_t d = 0; cost && d < g->l.x->n_datasets; d++)
        for (size_t m = 0; m < g->l.x->n_models; m++)
            for (size_t r = 0; r < g->l.x->protocol.repeats; r++)
                for (size_t f = 0; f < tl_run_n_folds(&g->l.x->protocol, g->l.data[d]); f++)
                    cost[at++] = tl_cell_cost(g->l.x, g->l.data[d], m, f);
    int rc = cost && shard ? tl_shard_partition(cost, g->l.n, g->n_shards, shard, err)
                           : tl_err_set(err, TL_ENOMEM, "out of memory");
    if (!rc) {
        size_t s = shard[first], have = 0, want = 0;
        for (size_t i = 0; i < g->l.n; i++)
            if (shard[i] == s)
                want++, have += g->from[i] != 0;
        rc = tl_err_set(err, TL_EINVAL,
                        "%zu cells are missing; shard %zu/%zu in %s has %zu of "
                        "its %zu: finish it with treelab run CONFIG --shard %zu/%zu --out %s "
                        "--resume",
                        missing, s + 1, g->n_shards, g->dirs[g->dir_of_shard[s] - 1], have, want,
                        s + 1, g->n_shards, g->dirs[g->dir_of_shard[s] - 1]);
    }
    free(cost);
    free(shard);
    return rc;
}

/* A results folder is not merged into: merge has no --resume (tl_run_prepare_dir's message
 * suggested one). */
static int refuse_results(const char *dir, tl_err *err)
{
    char cells[4200];
    snprintf(cells, sizeof cells, "%s/%s", dir, TL_CELLS_FILE);
    if (access(cells, F_OK) != 0)
        return TL_OK;
    return tl_err_set(err, TL_EINVAL,
                      "%s already holds results; merge writes into a new or empty folder: "
                      "--out elsewhere, or remove it first",
                      dir);
}

static int write_cells(const merge *g, const char *dir, const char *header, tl_err *err)
{
    char path[4200];
    snprintf(path, sizeof path, "%s/%s", dir, TL_CELLS_FILE);
    FILE *f = tl_out_open(path, err);
    if (!f)
        return err->code;
    fputs(header, f);
    tl_cells_sum sum = {0};
    int rc = TL_OK;
    for (size_t i = 0; !rc && i < g->l.n; i++) {
        const tl_cell *c = &g->cells[i];
        size_t len, key[4] = {c->dataset, c->model, c->repeat, c->fold};
        char *line = tl_run_cell_line(c, "", &len);
        if (!line || tl_cells_sum_add(&sum, key, line, len - 1))
            rc = tl_err_set(err, TL_ENOMEM, "out of memory");
        else
            fputs(line, f);
        free(line);
    }
    char hex[65];
    tl_cells_sum_hex(&sum, hex);
    if (!rc)
        fprintf(f, TL_CELLS_CHECKSUM "%zu %s\n", sum.n, hex);
    tl_cells_sum_free(&sum);
    return tl_out_close(f, rc, err);
}

static int merge_loaded(const char *const *dirs, size_t n_dirs, const tl_experiment *x,
                        tl_dataset *const *data, const tl_run_opts *o, tl_err *err)
{
    time_t start = time(NULL);
    merge g;
    memset(&g, 0, sizeof g);
    g.dirs = dirs, g.n_dirs = n_dirs;
    char *header = NULL;
    int lock = -1;
    int rc = n_dirs ? layout_make(&g.l, x, data, err)
                    : tl_err_set(err, TL_EINVAL, "no shard folders to merge");
    if (!rc && (!(g.cells = calloc(g.l.n + 1, sizeof *g.cells)) ||
                !(g.from = calloc(g.l.n + 1, sizeof *g.from))))
        rc = tl_err_set(err, TL_ENOMEM, "out of memory");
    if (!rc)
        rc = tl_run_header(x, data, NULL, &header, err);
    for (size_t i = 0; !rc && i < n_dirs; i++)
        rc = take_shard(&g, i, header, err);
    if (!rc)
        rc = check_complete(&g, err);
    if (!rc && g.unsealed) /* every cell there, but the line that vouches for them is not */
        rc = tl_err_set(err, TL_EINVAL,
                        "%s/%s does not end in its checksum line: it was cut short or edited; "
                        "treelab run CONFIG --shard I/N --out %s --resume rewrites it",
                        dirs[g.unsealed - 1], TL_CELLS_FILE, dirs[g.unsealed - 1]);
    /* the folder is made only once the shards are known good */
    if (!rc)
        rc = refuse_results(o->out_dir, err);
    if (!rc)
        rc = tl_run_prepare_dir(o->out_dir, 0, o->force, &lock, err);
    if (!rc)
        rc = write_cells(&g, o->out_dir, header, err);
    if (!rc && o->done) { /* the caller's reports come next, still locked */
        *o->done = (tl_run_done){.start = start, .resumed = 0, .lock = lock};
        lock = -1;
    }
    tl_results_unlock(lock);
    for (size_t i = 0; g.cells && i < g.l.n; i++)
        tl_cell_clear(&g.cells[i]);
    free(g.cells);
    free(g.from);
    free(g.dir_of_shard);
    free(g.l.first);
    free(header);
    return rc;
}

int tl_merge(const char *const *dirs, size_t n_dirs, const tl_experiment *x,
             tl_dataset *const *data, const tl_run_opts *o, tl_err *err)
{
    tl_err local;
    if (!err)
        err = &local;
    if (o->done)
        *o->done = (tl_run_done){.lock = -1};
    if (data)
        return merge_loaded(dirs, n_dirs, x, data, o, err);
    tl_dataset **owned;
    int rc = tl_run_load_data(x, &owned, err);
    if (!rc)
        rc = merge_loaded(dirs, n_dirs, x, owned, o, err);
    tl_run_free_data(x, owned);
    return rc;
}
