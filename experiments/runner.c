/* Running an experiment: split cache, a pool of threads over cells, durable cell records. */
#include "treelab/tl_runner.h"

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "treelab/tl_log.h"
#include "treelab/tl_outfile.h"
#include "treelab/tl_protocol.h"
#include "report_util.h"

typedef struct run_state {
    const tl_experiment *x;
    tl_dataset *const *data;
    const tl_run_opts *o;
    /* per (dataset, repeat): CV folds, or an order for hold-out and learning curves */
    size_t **fold_of;
    double **order_of;
    tl_cell *todo; /* cells to compute (indices only) */
    size_t n_todo, next, done, total, computed;
    FILE *cells;
    pthread_mutex_t lock;
    int stop, rc;
    tl_err err;
    double t0;
    double last_sync; /* when the cells file last reached the disk */
} run_state;

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static size_t n_folds(const tl_protocol *p)
{
    return p->kind == TL_PROTO_CV ? p->folds
           : p->kind == TL_PROTO_LEARNING_CURVE ? p->n_fractions : 1;
}

/* Train / validation / test rows of cell c (arrays of n_rows). */
static void cell_rows(const run_state *s, const tl_cell *c, size_t *tr, size_t *ntr, size_t *va,
                      size_t *nva, size_t *te, size_t *nte)
{
    const tl_protocol *p = &s->x->protocol;
    size_t slot = c->dataset * p->repeats + c->repeat, n = s->data[c->dataset]->n_rows;
    *nva = 0;
    if (p->kind == TL_PROTO_CV) {
        tl_protocol_fold_rows(s->fold_of[slot], n, c->fold, tr, ntr, te, nte);
    } else if (p->kind == TL_PROTO_HOLDOUT) {
        tl_protocol_split(s->order_of[slot], n, p->train, p->train + p->valid, tr, ntr, va, nva,
                          te, nte);
    } else {
        double f = p->fractions[c->fold];
        tl_protocol_split(s->order_of[slot], n, f, f, tr, ntr, NULL, NULL, te, nte);
    }
}

static int compute(run_state *s, tl_cell *c, size_t *buf, tl_err *err)
{
    size_t n = s->data[c->dataset]->n_rows, ntr, nva, nte;
    size_t *tr = buf, *va = buf + n, *te = buf + 2 * n;
    cell_rows(s, c, tr, &ntr, va, &nva, te, &nte);
    const tl_exp_dataset *ed = &s->x->datasets[c->dataset];
    unsigned long seed = tl_protocol_seed(s->x->seed, ed->name, c->repeat, c->fold + 1);
    int rc = tl_cell_eval(&s->x->models[c->model], s->data[c->dataset], tr, ntr,
                          nva ? va : NULL, nva, te, nte, seed, c, err);
    if (rc)
        tl_err_prefix(err, "dataset %s, model %s, repeat %zu, fold %zu: ", ed->name,
                      s->x->models[c->model].name, c->repeat, c->fold);
    return rc;
}

static void *worker(void *arg)
{
    run_state *s = arg;
    size_t max_rows = 1;
    for (size_t i = 0; i < s->x->n_datasets; i++)
        max_rows = s->data[i]->n_rows > max_rows ? s->data[i]->n_rows : max_rows;
    size_t *buf = malloc(3 * max_rows * sizeof *buf);
    tl_err err;
    tl_err_clear(&err);
    for (;;) {
        pthread_mutex_lock(&s->lock);
        int stop = s->stop || !buf || (s->o->cancel && *s->o->cancel) || s->next >= s->n_todo ||
                   (s->o->max_cells && s->computed >= s->o->max_cells);
        if (!buf && !s->rc)
            s->rc = tl_err_set(&s->err, TL_ENOMEM, "out of memory");
        tl_cell *c = stop ? NULL : &s->todo[s->next++];
        if (c)
            s->computed++; /* reserved, so max_cells bounds what is started */
        pthread_mutex_unlock(&s->lock);
        if (!c)
            break;
        int rc = compute(s, c, buf, &err);
        pthread_mutex_lock(&s->lock);
        if (rc) {
            if (!s->rc)
                s->rc = rc, s->err = err;
            s->stop = 1;
        } else {
            tl_cells_write(s->cells, c);
            /* In the kernel before it counts, so killing the process loses nothing; on the
             * disk at least once a second (and at the end), which bounds what a power cut
             * loses without paying an fsync per cell. */
            double t = now_s();
            int sync = t - s->last_sync >= 1.0;
            if (sync)
                s->last_sync = t;
            if (fflush(s->cells) || (sync && fsync(fileno(s->cells)))) {
                if (!s->rc)
                    s->rc = tl_err_set(&s->err, TL_EIO, "writing cells: %s", strerror(errno));
                s->stop = 1;
            }
            s->done++;
            if (s->o->progress)
                s->o->progress(s->done, s->total, now_s() - s->t0, s->o->progress_user);
        }
        pthread_mutex_unlock(&s->lock);
    }
    free(buf);
    return NULL;
}

static int make_splits(run_state *s, tl_err *err)
{
    const tl_experiment *x = s->x;
    size_t slots = x->n_datasets * x->protocol.repeats;
    int cv = x->protocol.kind == TL_PROTO_CV;
    s->fold_of = calloc(slots, sizeof *s->fold_of);
    s->order_of = calloc(slots, sizeof *s->order_of);
    if (!s->fold_of || !s->order_of)
        return tl_err_set(err, TL_ENOMEM, "out of memory");
    for (size_t d = 0; d < x->n_datasets; d++) {
        const tl_dataset *ds = s->data[d];
        for (size_t r = 0; r < x->protocol.repeats; r++) {
            size_t i = d * x->protocol.repeats + r, n = ds->n_rows ? ds->n_rows : 1;
            int rc;
            if (cv)
                rc = (s->fold_of[i] = malloc(n * sizeof **s->fold_of))
                         ? tl_protocol_folds(ds, x->protocol.folds, x->protocol.stratified,
                                             x->seed, x->datasets[d].name, r, s->fold_of[i], err)
                         : tl_err_set(err, TL_ENOMEM, "out of memory");
            else
                rc = (s->order_of[i] = malloc(n * sizeof **s->order_of))
                         ? tl_protocol_order(ds, x->protocol.stratified, x->seed,
                                             x->datasets[d].name, r, s->order_of[i], err)
                         : tl_err_set(err, TL_ENOMEM, "out of memory");
            if (!rc && x->protocol.kind == TL_PROTO_HOLDOUT) {
                size_t ntr, nva, nte;
                tl_protocol_split(s->order_of[i], ds->n_rows, x->protocol.train,
                                  x->protocol.train + x->protocol.valid, NULL, &ntr, NULL, &nva,
                                  NULL, &nte);
                if (!ntr || !nte)
                    rc = tl_err_set(err, TL_EINVAL, "repeat %zu: the hold-out split of %zu rows "
                                    "leaves %s (train %g, validation %g, test %g); use more "
                                    "rows or larger fractions", r, ds->n_rows,
                                    ntr ? "no test rows" : "no training rows", x->protocol.train,
                                    x->protocol.valid, x->protocol.test);
            }
            if (rc)
                return tl_err_prefix(err, "dataset %s: ", x->datasets[d].name);
        }
    }
    return TL_OK;
}

/* The cells not found in done[0..n_done). */
static int plan(run_state *s, const tl_cell *done, size_t n_done, tl_err *err)
{
    const tl_experiment *x = s->x;
    size_t nf = n_folds(&x->protocol);
    s->total = x->n_datasets * x->n_models * x->protocol.repeats * nf;
    unsigned char *seen = calloc(s->total ? s->total : 1, 1);
    s->todo = calloc(s->total ? s->total : 1, sizeof *s->todo);
    if (!seen || !s->todo) {
        free(seen);
        return tl_err_set(err, TL_ENOMEM, "out of memory");
    }
    for (size_t i = 0; i < n_done; i++) {
        const tl_cell *c = &done[i];
        if (c->repeat < x->protocol.repeats && c->fold < nf)
            seen[((c->dataset * x->n_models + c->model) * x->protocol.repeats + c->repeat) * nf +
                 c->fold] = 1;
    }
    for (size_t d = 0; d < x->n_datasets; d++)
        for (size_t m = 0; m < x->n_models; m++)
            for (size_t r = 0; r < x->protocol.repeats; r++)
                for (size_t f = 0; f < nf; f++)
                    if (!seen[((d * x->n_models + m) * x->protocol.repeats + r) * nf + f]) {
                        tl_cell *c = &s->todo[s->n_todo++];
                        c->dataset = d, c->model = m, c->repeat = r, c->fold = f;
                    } else {
                        s->done++;
                    }
    free(seen);
    return TL_OK;
}

/* Header lines that do not identify the experiment: the producer (a resume may use a rebuilt
 * treelab) and the config's path (`./x.cfg` and `x.cfg` are one file; the config_sha256 line
 * is what says it is the same config). */
static const char *skip_incidental(const char *h)
{
    while (!strncmp(h, "# producer ", 11) || !strncmp(h, "# config ", 9))
        h = strchr(h, '\n') ? strchr(h, '\n') + 1 : h + strlen(h);
    return h;
}

/* The header lines that identify the experiment are the same in a and b. */
static int same_header(const char *a, const char *b)
{
    for (;;) {
        a = skip_incidental(a);
        b = skip_incidental(b);
        if (*a != '#' || *b != '#')
            return (*a == '#') == (*b == '#');
        size_t la = strcspn(a, "\n"), lb = strcspn(b, "\n");
        if (la != lb || strncmp(a, b, la))
            return 0;
        a += la + (a[la] == '\n');
        b += lb + (b[lb] == '\n');
    }
}

/* Open (or create) the cells file; on resume read what is there. */
static int open_cells(run_state *s, const char *header, tl_cell **done, size_t *n_done,
                      tl_err *err)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", s->o->out_dir, TL_CELLS_FILE);
    *done = NULL;
    *n_done = 0;
    if (s->o->resume && access(path, F_OK) == 0) {
        FILE *f = fopen(path, "r");
        char old[1 << 16];
        size_t len = f ? fread(old, 1, sizeof old - 1, f) : 0;
        if (f)
            fclose(f);
        old[len] = '\0';
        if (!same_header(header, old))
            return tl_err_set(err, TL_EINVAL, "%s holds the results of another experiment "
                              "(config, seed, data or models differ); use a new --out", s->o->out_dir);
        tl_cells_meta meta;
        long good = 0;
        int rc = tl_cells_read(path, &meta, done, n_done, &good, err);
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

/* Create the results folder and lock it; an existing non-empty one is refused unless
 * resuming. The check comes after the lock, so two runs cannot both pass it. */
static int prepare_dir(const char *dir, int resume, int *lock, tl_err *err)
{
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
        return tl_err_set(err, TL_EIO, "cannot write the results to %s: it is a file, not a "
                          "folder", dir);
    int rc = tl_results_lock(dir, lock, err);
    if (!rc && resume) /* what a killed run was writing: its files are all rewritten */
        tl_out_sweep(dir);
    if (rc || resume)
        return rc;
    char cells[4200];
    snprintf(cells, sizeof cells, "%s/%s", dir, TL_CELLS_FILE);
    if (access(cells, F_OK) == 0)
        return tl_err_set(err, TL_EINVAL, "%s already holds results; use --resume to finish "
                          "them or --out to write elsewhere", dir);
    return TL_OK;
}

static int check_tasks(const tl_experiment *x, tl_dataset *const *data, tl_err *err)
{
    for (size_t d = 0; d < x->n_datasets; d++) {
        int cls = tl_dataset_is_classification(data[d]);
        unsigned task = cls ? TL_TASK_CLASSIFICATION : TL_TASK_REGRESSION;
        for (size_t m = 0; m < x->n_models; m++)
            if (!(x->models[m].type->tasks & task))
                return tl_err_set(err, TL_EINVAL, "%s:%d: model '%s' (%s) does not do %s, which "
                                  "dataset '%s' needs", x->config_path, x->models[m].line,
                                  x->models[m].name, x->models[m].type->name,
                                  cls ? "classification" : "regression", x->datasets[d].name);
    }
    return TL_OK;
}

static int run_cells(run_state *s, tl_err *err)
{
    size_t jobs = s->o->jobs ? s->o->jobs : 1;
    pthread_t *th = calloc(jobs, sizeof *th);
    if (!th)
        return tl_err_set(err, TL_ENOMEM, "out of memory");
    size_t started = 0;
    for (; started < jobs; started++)
        if (pthread_create(&th[started], NULL, worker, s))
            break;
    if (started == 0)
        worker(s);
    for (size_t i = 0; i < started; i++)
        pthread_join(th[i], NULL);
    free(th);
    if (s->rc) {
        *err = s->err;
        return s->rc;
    }
    if (s->done < s->total)
        return tl_err_set(err, TL_EINTERRUPTED, "stopped with %zu of %zu cells done; the "
                          "finished ones are kept in %s, --resume completes the run", s->done,
                          s->total, s->o->out_dir);
    return TL_OK;
}

static void free_state(run_state *s)
{
    size_t slots = s->x->n_datasets * s->x->protocol.repeats;
    for (size_t i = 0; i < slots; i++) {
        free(s->fold_of ? s->fold_of[i] : NULL);
        free(s->order_of ? s->order_of[i] : NULL);
    }
    free(s->fold_of);
    free(s->order_of);
    free(s->todo);
    if (s->cells) {
        fsync(fileno(s->cells));
        fclose(s->cells);
    }
    pthread_mutex_destroy(&s->lock);
}

static int header_text(const tl_experiment *x, tl_dataset *const *data, char **text, tl_err *err)
{
    size_t len = 0;
    FILE *f = open_memstream(text, &len);
    if (!f)
        return tl_err_set(err, TL_ENOMEM, "out of memory");
    int rc = tl_cells_write_header(f, x, data, err);
    fclose(f);
    return rc;
}

static int run_loaded(const tl_experiment *x, tl_dataset *const *data, const tl_run_opts *o,
                      tl_err *err)
{
    time_t start = time(NULL);
    run_state s;
    memset(&s, 0, sizeof s);
    s.x = x, s.data = data, s.o = o, s.t0 = now_s();
    pthread_mutex_init(&s.lock, NULL);
    char *header = NULL;
    tl_cell *done = NULL;
    size_t n_done = 0;
    int rc, lock = -1;
    /* everything the data and config can refuse comes before the results folder is made:
     * a refused run leaves no folder behind (one with a cells header only would block the
     * corrected run, as "holds the results of another experiment") */
    if (!(rc = check_tasks(x, data, err)) && !(rc = header_text(x, data, &header, err)) &&
        !(rc = make_splits(&s, err)) && !(rc = prepare_dir(o->out_dir, o->resume, &lock, err)) &&
        !(rc = open_cells(&s, header, &done, &n_done, err)) &&
        !(rc = plan(&s, done, n_done, err))) {
        if (n_done)
            tl_info("resuming: %zu of %zu cells already done", s.done, s.total);
        if (o->progress)
            o->progress(s.done, s.total, 0, o->progress_user);
        rc = run_cells(&s, err);
    }
    for (size_t i = 0; i < n_done; i++)
        tl_cell_clear(&done[i]);
    free(done);
    free(header);
    for (size_t i = 0; i < s.n_todo; i++)
        tl_cell_clear(&s.todo[i]);
    free_state(&s);
    /* whole-data models, reports and manifest are rebuilt from scratch on every finish; the
     * cancel flag stops them before the next file (each one is written whole or not at all) */
    int cells_done = !rc;
    tl_out_set_cancel(o->cancel);
    if (!rc)
        rc = tl_report_models(o->out_dir, x, data, err);
    if (!rc)
        rc = tl_rep_render(o->out_dir, err);
    if (!rc)
        rc = tl_report_plots(o->out_dir, x, data, err);
    if (!rc)
        rc = tl_report_manifest(o->out_dir, x, data, start, time(NULL), n_done > 0, err);
    /* a gnuplot killed by the same Ctrl-C fails too: the stop is what to report */
    if (cells_done && rc && tl_out_cancelled())
        rc = tl_err_set(err, TL_EINTERRUPTED, "stopped while writing the reports; every cell "
                        "is kept in %s and each report file there is complete or absent; "
                        "--resume writes them all", o->out_dir);
    tl_out_set_cancel(NULL);
    tl_results_unlock(lock);
    return rc;
}

int tl_run(const tl_experiment *x, tl_dataset *const *data, const tl_run_opts *o, tl_err *err)
{
    tl_err local;
    if (!err)
        err = &local; /* failed loads and opens leave their code only in err; a failed cell's
                       * error is copied into it */
    if (data)
        return run_loaded(x, data, o, err);
    /* an array of pointers: sizeof *owned is meant */
    tl_dataset **owned = calloc(x->n_datasets, sizeof *owned); /* NOLINT(bugprone-sizeof-expression) */
    int rc = owned ? TL_OK : tl_err_set(err, TL_ENOMEM, "out of memory");
    for (size_t i = 0; !rc && i < x->n_datasets; i++)
        if (!(owned[i] = tl_experiment_load_dataset(x, i, err)))
            rc = err->code;
    if (!rc)
        rc = run_loaded(x, owned, o, err);
    for (size_t i = 0; owned && i < x->n_datasets; i++)
        tl_dataset_free(owned[i]);
    free(owned);
    return rc;
}
