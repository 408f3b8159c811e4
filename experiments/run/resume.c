/* Where a run starts: the results folder created and locked, the cells file opened (read back
 * and cut after its last whole line on --resume), and the cells still to compute. */
#include "run_state.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "treelab/tl_outfile.h"
#include "treelab/tl_cells.h"

int tl_run_plan(tl_run_state *s, const tl_cell *done, size_t n_done, tl_err *err)
{
    const tl_experiment *x = s->x;
    size_t nf = 1, all = 0; /* the most folds of any dataset: the stride of seen[] */
    for (size_t d = 0; d < x->n_datasets; d++) {
        size_t k = tl_run_n_folds(&x->protocol, s->data[d]);
        nf = k > nf ? k : nf;
        all += x->n_models * x->protocol.repeats * k;
    }
    size_t n_seen = x->n_datasets * x->n_models * x->protocol.repeats * nf;
    unsigned char *seen = calloc(n_seen ? n_seen : 1, 1), *mine = NULL;
    s->todo = calloc(all ? all : 1, sizeof *s->todo);
    int rc = seen && s->todo ? tl_run_shard_mask(s, &mine, err)
                             : tl_err_set(err, TL_ENOMEM, "out of memory");
    if (rc) {
        free(seen);
        return rc;
    }
    for (size_t i = 0; i < n_done; i++) {
        const tl_cell *c = &done[i];
        if (c->dataset < x->n_datasets && c->model < x->n_models &&
            c->repeat < x->protocol.repeats &&
            c->fold < tl_run_n_folds(&x->protocol, s->data[c->dataset]))
            seen[((c->dataset * x->n_models + c->model) * x->protocol.repeats + c->repeat) * nf +
                 c->fold] = 1;
    }
    size_t at = 0; /* position in the canonical order, which the shard mask follows */
    s->total = 0;
    for (size_t d = 0; d < x->n_datasets; d++)
        for (size_t m = 0; m < x->n_models; m++)
            for (size_t r = 0; r < x->protocol.repeats; r++)
                for (size_t f = 0; f < tl_run_n_folds(&x->protocol, s->data[d]); f++, at++) {
                    if (mine && !mine[at])
                        continue;
                    s->total++;
                    if (!seen[((d * x->n_models + m) * x->protocol.repeats + r) * nf + f]) {
                        tl_cell *c = &s->todo[s->n_todo++];
                        c->dataset = d, c->model = m, c->repeat = r, c->fold = f;
                    } else {
                        s->done++;
                    }
                }
    free(seen);
    free(mine);
    return TL_OK;
}

int tl_run_open_cells(tl_run_state *s, const char *header, tl_cell **done, size_t *n_done,
                      tl_err *err)
{
    char path[4096], what[1100];
    snprintf(path, sizeof path, "%s/%s", s->o->out_dir, TL_CELLS_FILE);
    *done = NULL;
    *n_done = 0;
    if (s->o->resume && access(path, F_OK) == 0) {
        char *old = NULL;
        int rc = tl_run_read_header(path, &old, err);
        if (!rc && tl_run_header_diff(header, old, 0, what, sizeof what))
            rc = tl_err_set(err, TL_EINVAL,
                            "%s holds the results of another experiment "
                            "(config, seed, data, models or shard differ: this run has %s); use "
                            "a new --out",
                            s->o->out_dir, what);
        free(old);
        if (rc)
            return rc;
        tl_cells_meta meta;
        long good = 0;
        rc = tl_cells_read(path, &meta, done, n_done, &good, err);
        tl_cells_meta_clear(&meta);
        if (rc || truncate(path, good))
            return rc ? rc : tl_err_set(err, TL_EIO, "%s: %s", path, strerror(errno));
        s->cells = fopen(path, "a");
    } else {
        s->cells = fopen(path, "w");
        if (s->cells)
            fputs(header, s->cells);
    }
    if (!s->cells || fflush(s->cells) || fsync(fileno(s->cells)))
        return tl_err_set(err, TL_EIO, "%s: %s", path, strerror(errno));
    return TL_OK;
}

int tl_run_prepare_dir(const char *dir, int resume, int force, int *lock, tl_err *err)
{
    /* before anything is made or locked: the lock file would mark a user's folder as ours */
    int rc = tl_results_claim(dir, force, err);
    if (rc)
        return rc;
    char buf[4096];
    snprintf(buf, sizeof buf, "%s", dir);
    for (char *p = buf + 1; *p; p++)
        if (*p == '/') {
            *p = '\0';
            mkdir(buf, 0777);
            *p = '/';
        }
    struct stat st;
    if (mkdir(buf, 0777) != 0 && errno != EEXIST)
        return tl_err_set(err, TL_EIO, "cannot create %s: %s", dir, strerror(errno));
    if (stat(buf, &st) == 0 && !S_ISDIR(st.st_mode))
        return tl_err_set(err, TL_EIO,
                          "cannot write the results to %s: it is a file, not a "
                          "folder",
                          dir);
    rc = tl_results_lock(dir, lock, err);
    if (!rc && resume) /* what a killed run was writing: its files are all rewritten */
        tl_out_sweep(dir);
    if (rc || resume)
        return rc;
    char cells[4200];
    snprintf(cells, sizeof cells, "%s/%s", dir, TL_CELLS_FILE);
    if (access(cells, F_OK) == 0)
        return tl_err_set(err, TL_EINVAL,
                          "%s already holds results; use --resume to finish "
                          "them or --out to write elsewhere",
                          dir);
    return TL_OK;
}
