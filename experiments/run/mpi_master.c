/* MPI rank 0 (built with -DTREELAB_MPI=ON): hands out the cells largest first, one per
 * message to each worker slot that asks, and stores the lines that come back. */
#include "mpi_link.h"

#include <stdlib.h>
#include <string.h>

#include "treelab/tl_cells.h"

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
    for (int r = 1; r < tl_mpi_size(); r++)
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
        return tlm_send("S", 1, from, tag, err);
    }
    const tl_cell *c = &s->todo[s->next++];
    s->computed++;
    int n =
        snprintf(next, sizeof next, "N%zu %zu %zu %zu", c->dataset, c->model, c->repeat, c->fold);
    return tlm_send(next, (size_t)n, from, tag, err);
}

int tl_run_mpi_master(tl_run_state *s, const char *header, int setup_rc, tl_err *err)
{
    char *h = (char *)header;
    tlm_set_clean(0);
    int rc = tlm_share_setup(&setup_rc, &h);
    if (rc != MPI_SUCCESS)
        return tlm_failed(rc, err);
    if (setup_rc) {
        tlm_set_clean(1);
        return setup_rc;
    }
    size_t ranks = (size_t)tl_mpi_size();
    master m = {s, calloc(ranks, sizeof(long)), calloc(ranks, sizeof(long)), calloc(ranks, 1)};
    if (!m.slots || !m.closed || !m.gone)
        s->rc = tl_err_set(&s->err, TL_ENOMEM, "out of memory"), s->stop = 1;
    else if ((rc = tl_run_largest_first(s, &s->err)))
        s->rc = rc, s->stop = 1;
    for (size_t r = 0; m.slots && r < ranks; r++)
        m.slots[r] = -1;
    rc = m.slots && m.closed && m.gone ? TL_OK : TL_ENOMEM;
    while (!rc && !all_finished(&m)) {
        char *msg = NULL;
        int from, tag;
        rc = tlm_recv(MPI_ANY_SOURCE, MPI_ANY_TAG, &msg, &from, &tag, master_gives_up, &m, err);
        if (!rc && from > 0 && from < tl_mpi_size())
            rc = master_serve(&m, from, tag, msg, err);
        free(msg);
    }
    tlm_set_clean(!rc);
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
