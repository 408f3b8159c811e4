/* Running an experiment: a pool of threads over the cells and durable cell records; the
 * reports are the caller's after the call (tl_run_opts.done). */
#include "cells_line.h"
#include "run_state.h"

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "treelab/tl_log.h"
#include "treelab/tl_cells.h"
#include "treelab/tl_outfile.h"
#include "treelab/tl_scale.h"

int tl_run_stored(tl_run_state *s, int *sync)
{
    /* In the kernel before it counts, so killing the process loses nothing; on the disk at
     * least once a second (and at the end), which bounds what a power cut loses without
     * paying an fsync per cell. */
    double t = tl_run_now();
    int due = t - s->last_sync >= 1.0;
    if (due)
        s->last_sync = t;
    if (sync)
        *sync = due, due = 0;
    if (fflush(s->cells) || (due && fsync(fileno(s->cells)))) {
        if (!s->rc)
            s->rc = tl_err_set(&s->err, TL_EIO, "writing cells: %s", strerror(errno));
        s->stop = 1;
        return TL_EIO;
    }
    s->done++;
    if (s->o->progress)
        s->o->progress(s->done, s->total, tl_run_now() - s->t0, s->o->progress_user);
    return TL_OK;
}

char *tl_run_cell_line(const tl_cell *c, const char *prefix, size_t *len)
{
    char *line = NULL;
    FILE *m = open_memstream(&line, len);
    if (!m)
        return NULL;
    fputs(prefix, m);
    tl_cells_write(m, c);
    if (fclose(m) != 0) {
        free(line);
        return NULL;
    }
    return line;
}

/* Store computed cell c (its line formatted by the caller) or record failure rc. The lock is
 * held for the write alone: the formatting comes before it and the once-a-second fsync after
 * it, so a thread finishing a cell never waits for another's formatting or for the disk. */
static void store(tl_run_state *s, int rc, const tl_err *err, const char *line)
{
    int sync = 0;
    pthread_mutex_lock(&s->lock);
    if (rc || !line) {
        if (!s->rc && rc)
            s->rc = rc, s->err = *err;
        else if (!s->rc)
            s->rc = tl_err_set(&s->err, TL_ENOMEM, "out of memory");
        s->stop = 1;
    } else {
        fputs(line, s->cells);
        tl_run_stored(s, &sync);
    }
    int fd = fileno(s->cells);
    pthread_mutex_unlock(&s->lock);
    if (sync && fsync(fd) != 0) {
        int e = errno;
        pthread_mutex_lock(&s->lock);
        if (!s->rc)
            s->rc = tl_err_set(&s->err, TL_EIO, "writing cells: %s", strerror(e));
        s->stop = 1;
        pthread_mutex_unlock(&s->lock);
    }
}

static void *worker(void *arg)
{
    tl_run_state *s = arg;
    size_t *buf = malloc(3 * tl_run_max_rows(s) * sizeof *buf);
    tl_err err;
    tl_err_clear(&err);
    for (;;) {
        pthread_mutex_lock(&s->lock);
        int stop = s->stop || !buf || (s->o->cancel && *s->o->cancel) || s->next >= s->n_todo ||
                   (s->o->max_cells && s->computed >= s->o->max_cells);
        if (!buf && !s->rc)
            s->rc = tl_err_set(&s->err, TL_ENOMEM, "out of memory");
        tl_cell *c = stop ? NULL : &s->todo[s->next++];
        size_t n = c ? 1 : 0; /* with the cells of the same fit that follow it */
        while (c && s->next < s->n_todo && tl_run_same_fit(s->x, c, &s->todo[s->next]) &&
               (!s->o->max_cells || s->computed + n < s->o->max_cells))
            s->next++, n++;
        s->computed += n; /* reserved, so max_cells bounds what is started */
        pthread_mutex_unlock(&s->lock);
        if (!c)
            break;
        int rc = tl_run_compute_group(s, c, n, buf, &err);
        for (size_t i = 0; i < n; i++) {
            size_t len;
            char *line = rc ? NULL : tl_run_cell_line(&c[i], "", &len);
            store(s, rc, &err, line);
            free(line);
            if (rc)
                break;
        }
        for (size_t i = 0; i < n; i++) /* their lines are in the file: finished cells keep only
                                          their indices */
            tl_cell_clear(&c[i]);
    }
    free(buf);
    return NULL;
}

static int check_tasks(const tl_experiment *x, tl_dataset *const *data, tl_err *err)
{
    for (size_t d = 0; d < x->n_datasets; d++) {
        int cls = tl_dataset_is_classification(data[d]);
        unsigned task = cls ? TL_TASK_CLASSIFICATION : TL_TASK_REGRESSION;
        for (size_t m = 0; m < x->n_models; m++) {
            const tl_model_type *type = x->models[m].type;
            tl_err why;
            int rc = type->check_data
                         ? type->check_data(&x->models[m].params, &data[d]->schema, &why)
                         : TL_OK;
            if (rc) /* before the results folder is made */
                return tl_err_set(err, rc, "%s:%d: model '%s', dataset '%s': %s", x->config_path,
                                  x->models[m].line, x->models[m].name, x->datasets[d].name,
                                  why.msg);
            if (!(type->tasks & task))
                return tl_err_set(err, TL_EINVAL,
                                  "%s:%d: model '%s' (%s) does not do %s, which "
                                  "dataset '%s' needs",
                                  x->config_path, x->models[m].line, x->models[m].name,
                                  x->models[m].type->name, cls ? "classification" : "regression",
                                  x->datasets[d].name);
            else if (x->models[m].select.objective &&
                     x->models[m].select.objective->classification != cls)
                return tl_err_set(err, TL_EINVAL,
                                  "%s:%d: model '%s' selects by %s, a %s "
                                  "metric, and dataset '%s' is a %s task",
                                  x->config_path, x->models[m].select.line, x->models[m].name,
                                  x->models[m].select.objective->name,
                                  cls ? "regression" : "classification", x->datasets[d].name,
                                  cls ? "classification" : "regression");
        }
    }
    return TL_OK;
}

static int run_cells(tl_run_state *s, tl_err *err)
{
    size_t jobs = s->o->jobs ? s->o->jobs : 1;
    /* largest first, so that the threads finish together: the last cells are the cheapest
     * (the results do not depend on the order) */
    int rc = jobs > 1 ? tl_run_largest_first(s, err) : TL_OK;
    if (!rc) /* a grid over n_estimators: one fit for all its values */
        rc = tl_run_group_stages(s, err);
    pthread_t *th = rc ? NULL : calloc(jobs, sizeof *th);
    if (rc || !th)
        return rc ? rc : tl_err_set(err, TL_ENOMEM, "out of memory");
    size_t started = 0;
    for (; started < jobs; started++)
        if (pthread_create(&th[started], NULL, worker, s))
            break;
    if (started == 0)
        worker(s);
    for (size_t i = 0; i < started; i++)
        pthread_join(th[i], NULL);
    free(th);
    return tl_run_outcome(s, err);
}

int tl_run_outcome(tl_run_state *s, tl_err *err)
{
    if (s->rc) {
        *err = s->err;
        return s->rc;
    }
    if (s->done < s->total)
        return tl_err_set(err, TL_EINTERRUPTED,
                          "stopped with %zu of %zu cells done; the "
                          "finished ones are kept in %s, --resume completes the run",
                          s->done, s->total, s->o->out_dir);
    return TL_OK;
}

static void free_state(tl_run_state *s)
{
    tl_run_free_splits(s);
    for (size_t i = 0; i < s->n_todo; i++)
        tl_cell_clear(&s->todo[i]);
    free(s->todo);
    if (s->cells) {
        fsync(fileno(s->cells));
        fclose(s->cells);
    }
    pthread_mutex_destroy(&s->lock);
}

static int run_loaded(const tl_experiment *x, tl_dataset *const *data, const tl_run_opts *o,
                      const tl_run_scale *sc, tl_err *err)
{
    time_t start = time(NULL);
    tl_run_state s;
    memset(&s, 0, sizeof s);
    s.x = x, s.data = data, s.o = o, s.sc = sc, s.t0 = tl_run_now();
    pthread_mutex_init(&s.lock, NULL);
    char *header = NULL;
    tl_cell *done = NULL;
    size_t n_done = 0;
    int rc, lock = -1;
    /* everything the data and config can refuse comes before the results folder is made:
     * a refused run leaves no folder behind (one with a cells header only would block the
     * corrected run, as "holds the results of another experiment") */
    if (!(rc = check_tasks(x, data, err)) && !(rc = tl_run_header(x, data, sc, &header, err)) &&
        !(rc = tl_run_make_splits(&s, err)) &&
        !(rc = tl_run_prepare_dir(o->out_dir, o->resume, o->force, &lock, err)) &&
        !(rc = tl_run_open_cells(&s, header, &done, &n_done, err)) &&
        !(rc = tl_run_plan(&s, done, n_done, err))) {
        if (n_done)
            tl_info("resuming: %zu of %zu cells already done", s.done, s.total);
        if (o->progress)
            o->progress(s.done, s.total, 0, o->progress_user);
    }
    /* under MPI the other ranks wait for rank 0's setup, failed or not */
    if (sc->mpi)
        rc = tl_run_mpi_master(&s, header, rc, err);
    else if (!rc)
        rc = run_cells(&s, err);
    if (!rc) { /* every cell is in: the checksum line ends the file, for merge and report */
        char path[4200];
        snprintf(path, sizeof path, "%s/%s", o->out_dir, TL_CELLS_FILE);
        rc = tl_cells_seal(s.cells, path, err);
    }
    for (size_t i = 0; i < n_done; i++)
        tl_cell_clear(&done[i]);
    free(done);
    free(header);
    free_state(&s);
    /* a shard's reports would describe part of the experiment: `treelab merge` writes them */
    if (!rc && !sc->n_shards && o->done) { /* the caller's reports come next, still locked */
        *o->done = (tl_run_done){.start = start, .resumed = n_done > 0, .lock = lock};
        lock = -1;
    }
    tl_results_unlock(lock);
    return rc;
}

int tl_run_load_data(const tl_experiment *x, tl_dataset ***data, tl_err *err)
{
    /* an array of pointers: sizeof *owned is meant */
    /* NOLINTNEXTLINE(bugprone-sizeof-expression) */
    tl_dataset **owned = calloc(x->n_datasets ? x->n_datasets : 1, sizeof *owned);
    int rc = owned ? TL_OK : tl_err_set(err, TL_ENOMEM, "out of memory");
    for (size_t i = 0; !rc && i < x->n_datasets; i++)
        if (!(owned[i] = tl_experiment_load_dataset(x, i, err)))
            rc = err->code;
    if (rc) {
        tl_run_free_data(x, owned);
        owned = NULL;
    }
    *data = owned;
    return rc;
}

void tl_run_free_data(const tl_experiment *x, tl_dataset **data)
{
    for (size_t i = 0; data && i < x->n_datasets; i++)
        tl_dataset_free(data[i]);
    free(data);
}

int tl_run(const tl_experiment *x, tl_dataset *const *data, const tl_run_opts *o, tl_err *err)
{
    return tl_run_scaled(x, data, o, NULL, err);
}

int tl_run_scaled(const tl_experiment *x, tl_dataset *const *data, const tl_run_opts *o,
                  const tl_run_scale *sc, tl_err *err)
{
    static const tl_run_scale none = {0, 0, 0};
    if (!sc)
        sc = &none;
    if (o->done)
        *o->done = (tl_run_done){.lock = -1};
    tl_err local;
    if (!err)
        err = &local; /* failed loads and opens leave their code only in err; a failed cell's
                       * error is copied into it */
    int rc = sc->n_shards && (sc->shard < 1 || sc->shard > sc->n_shards)
                 ? tl_err_set(err, TL_EINVAL, "shard %zu/%zu: I must be from 1 to N", sc->shard,
                              sc->n_shards)
                 : TL_OK;
    if (sc->mpi && (rc || tl_mpi_rank() > 0)) /* every rank must hear how rank 0 started */
        return rc ? tl_mpi_abandon(rc, err) : tl_run_mpi_worker(x, data, o, sc, err);
    if (rc)
        return rc;
    if (data)
        return run_loaded(x, data, o, sc, err);
    tl_dataset **owned;
    rc = tl_run_load_data(x, &owned, err);
    if (!rc)
        rc = run_loaded(x, owned, o, sc, err);
    else if (sc->mpi) /* the other ranks wait for word from this one */
        tl_mpi_abandon(rc, err);
    tl_run_free_data(x, owned);
    return rc;
}
