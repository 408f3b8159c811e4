/* MPI master/worker (built with -DTREELAB_MPI=ON): rank 0 hands out the cells largest first
 * and stores what comes back; the other ranks fit them, each on --jobs threads. */
#include "run_state.h"

#include <mpi.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "treelab/tl_log.h"
#include "treelab/tl_report.h"
#include "treelab/tl_scale.h"

const int tl_mpi_built = 1;

/* Messages are text; the first character says what they are.
 *   worker -> 0, tag = slot + 1:  "R<slots>" ready; "C<cell line>" a result, and ready;
 *                                 "E<code> <message>" the slot failed and stops
 *   worker -> 0, tag 0:           "F<code> <message>" the rank cannot start (no slot runs)
 *   0 -> worker, tag = slot + 1:  "N<dataset> <model> <repeat> <fold>" compute it; "S" stop */
enum { TAG_RANK = 0 };

static int g_rank, g_size, g_inited, g_clean;
/* Worker threads share one MPI connection (MPI_THREAD_SERIALIZED): every call under the lock,
 * and waits by polling, so no thread blocks the others inside MPI; sleeping between polls
 * keeps an idle rank off the CPU, which Open MPI's own blocking calls would spin on. */
static pthread_mutex_t g_lock = PTHREAD_MUTEX_INITIALIZER;

int tl_mpi_init(int threads, tl_err *err)
{
    int want = threads ? MPI_THREAD_SERIALIZED : MPI_THREAD_FUNNELED, provided = 0;
    if (MPI_Init_thread(NULL, NULL, want, &provided) != MPI_SUCCESS)
        return tl_err_set(err, TL_EIO, "MPI could not start (MPI_Init_thread failed)");
    g_inited = 1;
    g_clean = 1; /* until a rank starts the master/worker protocol */
    MPI_Comm_rank(MPI_COMM_WORLD, &g_rank);
    MPI_Comm_size(MPI_COMM_WORLD, &g_size);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    if (provided < want)
        return tl_err_set(err, TL_EUNSUPPORTED,
                          "the MPI library offers thread level %d, and "
                          "--jobs above 1 needs MPI_THREAD_SERIALIZED (%d); run with --jobs 1",
                          provided, want);
    return TL_OK;
}

int tl_mpi_rank(void)
{
    return g_rank;
}
int tl_mpi_size(void)
{
    return g_inited ? g_size : 1;
}

int tl_mpi_clean(void)
{
    return !g_inited || g_clean;
}

void tl_mpi_end(int status)
{
    if (!g_inited)
        return;
    g_inited = 0;
    if (g_clean)
        MPI_Finalize();
    else /* a rank still waits for this one (or is dead): MPI_Finalize would hang */
        MPI_Abort(MPI_COMM_WORLD, status ? status : 1);
}

static void nap(unsigned *us)
{
    struct timespec ts = {0, (long)*us * 1000L};
    nanosleep(&ts, NULL);
    if (*us < 2000)
        *us *= 2;
}

static int mpi_failed(int code, tl_err *err)
{
    char text[MPI_MAX_ERROR_STRING];
    int len = 0;
    MPI_Error_string(code, text, &len);
    return tl_err_set(err, TL_EIO, "MPI: %.*s", len, text);
}

static int send_text(const char *text, size_t len, int dest, int tag, tl_err *err)
{
    MPI_Request req;
    pthread_mutex_lock(&g_lock);
    int rc = MPI_Isend(text, (int)len, MPI_CHAR, dest, tag, MPI_COMM_WORLD, &req);
    pthread_mutex_unlock(&g_lock);
    for (unsigned us = 20; rc == MPI_SUCCESS;) {
        int done = 0;
        pthread_mutex_lock(&g_lock);
        rc = MPI_Test(&req, &done, MPI_STATUS_IGNORE);
        pthread_mutex_unlock(&g_lock);
        if (done)
            break;
        nap(&us);
    }
    return rc == MPI_SUCCESS ? TL_OK : mpi_failed(rc, err);
}

/* The next message from src with tag (MPI_ANY_* allowed) as a new NUL-terminated string;
 * *from and *tag_out say whose. With give_up set, TL_EINTERRUPTED once *give_up returns 1. */
static int recv_text(int src, int tag, char **text, int *from, int *tag_out, int (*give_up)(void *),
                     void *arg, tl_err *err)
{
    for (unsigned us = 20;;) {
        MPI_Status st;
        int flag = 0, len = 0, rc;
        pthread_mutex_lock(&g_lock);
        rc = MPI_Iprobe(src, tag, MPI_COMM_WORLD, &flag, &st);
        if (rc == MPI_SUCCESS && flag) {
            MPI_Get_count(&st, MPI_CHAR, &len);
            *text = malloc((size_t)len + 1);
            rc = *text ? MPI_Recv(*text, len, MPI_CHAR, st.MPI_SOURCE, st.MPI_TAG, MPI_COMM_WORLD,
                                  MPI_STATUS_IGNORE)
                       : MPI_ERR_NO_MEM;
        }
        pthread_mutex_unlock(&g_lock);
        if (rc != MPI_SUCCESS)
            return rc == MPI_ERR_NO_MEM ? tl_err_set(err, TL_ENOMEM, "out of memory")
                                        : mpi_failed(rc, err);
        if (flag) {
            (*text)[len] = '\0';
            *from = st.MPI_SOURCE;
            *tag_out = st.MPI_TAG;
            return TL_OK;
        }
        if (give_up && give_up(arg))
            return TL_EINTERRUPTED;
        nap(&us);
    }
}

/* Rank 0's setup outcome and the cells header, to every rank. */
static int share_setup(int *setup_rc, char **header)
{
    long long h[2] = {*setup_rc, *setup_rc || !*header ? 0 : (long long)strlen(*header)};
    int rc = MPI_Bcast(h, 2, MPI_LONG_LONG, 0, MPI_COMM_WORLD);
    if (rc == MPI_SUCCESS && g_rank && h[1] && !(*header = calloc((size_t)h[1] + 1, 1)))
        return MPI_ERR_NO_MEM;
    if (rc == MPI_SUCCESS && h[1])
        rc = MPI_Bcast(*header, (int)h[1], MPI_CHAR, 0, MPI_COMM_WORLD);
    *setup_rc = (int)h[0];
    return rc;
}

/* ---- rank 0 ---- */

typedef struct {
    tl_run_state *s;
    long *slots;  /* per rank: slots it runs (-1 until it says) */
    long *closed; /* per rank: slots told to stop or failed */
    char *gone;   /* per rank: could not start */
} master;

static int rank_finished(const master *m, int r)
{
    return m->gone[r] || (m->slots[r] >= 0 && m->closed[r] == m->slots[r]);
}

static int all_finished(const master *m)
{
    for (int r = 1; r < g_size; r++)
        if (!rank_finished(m, r))
            return 0;
    return 1;
}

/* Stop waiting at once on Ctrl-C or a kill: under mpirun every rank gets the signal (mpirun
 * sends it to all when a rank dies or it is stopped itself) and is killed soon after, so
 * waiting for running cells gains nothing; what finished is on the disk already. */
static int master_gives_up(void *arg)
{
    master *m = arg;
    if (!m->s->o->cancel || !*m->s->o->cancel)
        return 0;
    m->s->stop = 1;
    return 1;
}

/* A worker's failure ("E" or "F": "<code> <message>") becomes the run's error. */
static void master_fail(master *m, int from, const char *what)
{
    tl_run_state *s = m->s;
    char *end;
    long code = strtol(what, &end, 10);
    if (!s->rc) {
        s->rc = tl_err_set(&s->err, code > 0 && code <= TL_EINTERRUPTED ? (int)code : TL_EINTERNAL,
                           "rank %d: %s", from, *end == ' ' ? end + 1 : end);
    }
    s->stop = 1;
}

/* A message from a slot: store its result, then hand it the next cell or stop it. */
static int master_serve(master *m, int from, int tag, const char *msg, tl_err *err)
{
    tl_run_state *s = m->s;
    if (msg[0] == 'F' || msg[0] == 'E') {
        master_fail(m, from, msg + 1);
        if (msg[0] == 'F')
            m->gone[from] = 1;
        else
            m->closed[from]++;
        return TL_OK;
    }
    if (msg[0] == 'R' && m->slots[from] < 0)
        m->slots[from] = strtol(msg + 1, NULL, 10);
    if (msg[0] == 'C') {
        size_t len = strlen(msg + 1);
        if (!len || msg[len] != '\n' || memchr(msg + 1, '\n', len - 1)) {
            if (!s->rc)
                s->rc = tl_err_set(&s->err, TL_EINTERNAL, "rank %d sent a malformed cell", from);
            s->stop = 1;
        } else { /* a finished cell is kept even after another one failed, as threads do */
            fputs(msg + 1, s->cells);
            tl_run_stored(s, NULL);
        }
    }
    char next[128];
    int stop = s->stop || s->next >= s->n_todo || (s->o->cancel && *s->o->cancel) ||
               (s->o->max_cells && s->computed >= s->o->max_cells);
    if (stop) {
        m->closed[from]++;
        return send_text("S", 1, from, tag, err);
    }
    const tl_cell *c = &s->todo[s->next++];
    s->computed++;
    int n =
        snprintf(next, sizeof next, "N%zu %zu %zu %zu", c->dataset, c->model, c->repeat, c->fold);
    return send_text(next, (size_t)n, from, tag, err);
}

int tl_run_mpi_master(tl_run_state *s, const char *header, int setup_rc, tl_err *err)
{
    char *h = (char *)header;
    g_clean = 0;
    int rc = share_setup(&setup_rc, &h);
    if (rc != MPI_SUCCESS)
        return mpi_failed(rc, err);
    if (setup_rc) {
        g_clean = 1;
        return setup_rc;
    }
    master m = {s, calloc((size_t)g_size, sizeof(long)), calloc((size_t)g_size, sizeof(long)),
                calloc((size_t)g_size, 1)};
    if (!m.slots || !m.closed || !m.gone)
        s->rc = tl_err_set(&s->err, TL_ENOMEM, "out of memory"), s->stop = 1;
    else if ((rc = tl_run_largest_first(s, &s->err)))
        s->rc = rc, s->stop = 1;
    for (int r = 0; m.slots && r < g_size; r++)
        m.slots[r] = -1;
    rc = m.slots && m.closed && m.gone ? TL_OK : TL_ENOMEM;
    while (!rc && !all_finished(&m)) {
        char *msg = NULL;
        int from, tag;
        rc = recv_text(MPI_ANY_SOURCE, MPI_ANY_TAG, &msg, &from, &tag, master_gives_up, &m, err);
        if (!rc && from > 0 && from < g_size)
            rc = master_serve(&m, from, tag, msg, err);
        free(msg);
    }
    g_clean = !rc;
    free(m.slots);
    free(m.closed);
    free(m.gone);
    if (rc && rc != TL_EINTERRUPTED) /* MPI itself failed: the cells so far are kept */
        return tl_err_prefix(err,
                             "stopped with %zu of %zu cells done (kept in %s; --resume "
                             "completes the run): ",
                             s->done, s->total, s->o->out_dir);
    if (!s->rc && s->done < s->total && s->o->cancel && *s->o->cancel)
        return tl_err_set(err, TL_EINTERRUPTED,
                          "stopped by a signal (Ctrl-C, a kill, or "
                          "mpirun ending the job because a rank died, which mpirun names) with "
                          "%zu of %zu cells done; the finished ones are kept in %s, --resume "
                          "completes the run",
                          s->done, s->total, s->o->out_dir);
    return tl_run_outcome(s, err);
}

/* ---- the other ranks ---- */

typedef struct {
    tl_run_state *s;
    int tag;
    long slots;
    int stopped; /* told to stop (the protocol ended cleanly for this slot) */
} slot;

/* The cell named by "N<dataset> <model> <repeat> <fold>", checked against the experiment. */
static int parse_next(const tl_run_state *s, const char *msg, tl_cell *c)
{
    memset(c, 0, sizeof *c);
    if (sscanf(msg, "N%zu %zu %zu %zu", &c->dataset, &c->model, &c->repeat, &c->fold) != 4)
        return -1;
    const tl_experiment *x = s->x;
    return c->dataset < x->n_datasets && c->model < x->n_models &&
                   c->repeat < x->protocol.repeats &&
                   c->fold < tl_run_n_folds(&x->protocol, s->data[c->dataset])
               ? 0
               : -1;
}

static void *slot_main(void *arg)
{
    slot *sl = arg;
    tl_run_state *s = sl->s;
    size_t *buf = malloc(3 * tl_run_max_rows(s) * sizeof *buf);
    char first[32], *out = first, *msg = NULL;
    size_t len = (size_t)snprintf(first, sizeof first, "R%ld", sl->slots);
    tl_err err;
    tl_err_clear(&err);
    for (;;) {
        int from, tag, rc = send_text(out, len, 0, sl->tag, &err);
        if (out != first)
            free(out);
        if (!rc)
            rc = recv_text(0, sl->tag, &msg, &from, &tag, NULL, NULL, &err);
        if (rc)
            break; /* MPI failed: rank 0 or mpirun notices */
        tl_cell c;
        if (msg[0] == 'S') {
            sl->stopped = 1;
            break;
        }
        if (!buf)
            rc = tl_err_set(&err, TL_ENOMEM, "out of memory");
        else if (parse_next(s, msg, &c))
            rc = tl_err_set(&err, TL_EINTERNAL, "rank 0 sent '%.40s', which names no cell", msg);
        else
            rc = tl_run_compute(s, &c, buf, &err);
        free(msg);
        msg = NULL;
        if (!rc && !(out = tl_run_cell_line(&c, "C", &len)))
            rc = tl_err_set(&err, TL_ENOMEM, "out of memory");
        if (!rc)
            tl_cell_clear(&c);
        if (rc) {
            char fail[sizeof err.msg + 32];
            int n = snprintf(fail, sizeof fail, "E%d %s", rc, err.msg);
            send_text(fail, (size_t)n, 0, sl->tag, &err);
            sl->stopped = 1; /* rank 0 counts the slot closed and sends nothing more */
            break;
        }
    }
    free(msg);
    free(buf);
    return NULL;
}

/* Say why this rank cannot take part (rank 0 reports it and stops the run). */
static void refuse(int code, const char *why)
{
    char text[1200];
    int n = snprintf(text, sizeof text, "F%d %s", code, why);
    tl_err ignored;
    send_text(text, (size_t)n, 0, TAG_RANK, &ignored);
}

int tl_run_mpi_worker(const tl_experiment *x, tl_dataset *const *data, const tl_run_opts *o,
                      const tl_run_scale *sc, tl_err *err)
{
    tl_dataset **owned = NULL;
    tl_run_state s;
    memset(&s, 0, sizeof s);
    g_clean = 0;
    int rc = data ? TL_OK : tl_run_load_data(x, &owned, err);
    s.x = x, s.data = data ? data : owned, s.o = o, s.sc = sc;
    char *mine = NULL, *theirs = NULL, what[1100];
    if (!rc)
        rc = tl_run_make_splits(&s, err);
    if (!rc)
        rc = tl_run_header(x, s.data, sc, &mine, err);
    int setup_rc = 0, mrc = share_setup(&setup_rc, &theirs);
    if (mrc != MPI_SUCCESS)
        rc = mpi_failed(mrc, err);
    else if (setup_rc) /* rank 0 failed and says why: nothing to add */
        g_clean = 1, rc = TL_OK;
    else if (!rc && tl_run_header_diff(mine, theirs, 0, what, sizeof what))
        rc = tl_err_set(err, TL_EINVAL,
                        "its config or data differ from rank 0's (%s): every "
                        "rank must see the same files",
                        what);
    if (!setup_rc && mrc == MPI_SUCCESS && rc) {
        refuse(rc, err->msg);
        g_clean = 1, rc = TL_OK; /* rank 0 reports it */
    } else if (!setup_rc && mrc == MPI_SUCCESS) {
        size_t jobs = o->jobs ? o->jobs : 1, started = 0;
        slot *slots = calloc(jobs, sizeof *slots);
        pthread_t *th = calloc(jobs, sizeof *th);
        if (!slots || !th)
            jobs = 0, refuse(TL_ENOMEM, "out of memory");
        for (size_t i = 0; i < jobs; i++)
            slots[i] = (slot){&s, (int)i + 1, (long)jobs, 0};
        /* the last slot runs on this thread, so rank 0 always hears how many there are */
        for (; started + 1 < jobs; started++)
            if (pthread_create(&th[started], NULL, slot_main, &slots[started]))
                break;
        for (size_t i = started; i + 1 < jobs; i++) {
            char text[64];
            int n = snprintf(text, sizeof text, "E%d could not start a thread", TL_EINTERNAL);
            slots[i].stopped = 1;
            send_text(text, (size_t)n, 0, slots[i].tag, err);
        }
        if (jobs)
            slot_main(&slots[jobs - 1]);
        for (size_t i = 0; i < started; i++)
            pthread_join(th[i], NULL);
        g_clean = 1;
        for (size_t i = 0; i < jobs; i++)
            g_clean &= slots[i].stopped;
        free(slots);
        free(th);
        rc = TL_OK;
    }
    free(mine);
    free(theirs);
    tl_run_free_splits(&s);
    tl_run_free_data(x, owned);
    return rc;
}

int tl_mpi_abandon(int rc, tl_err *err)
{
    if (g_size < 2)
        return rc;
    g_clean = 0;
    char *header = NULL;
    int setup_rc = g_rank ? 0 : rc, mrc = share_setup(&setup_rc, &header);
    free(header);
    if (mrc != MPI_SUCCESS)
        return mpi_failed(mrc, err);
    g_clean = 1;
    if (!g_rank)
        return rc;
    if (!setup_rc) /* rank 0 got going: it must hear why this rank will not */
        refuse(rc, err->msg);
    return TL_OK;
}
