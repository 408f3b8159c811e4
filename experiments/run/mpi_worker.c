/* MPI ranks 1.. (built with -DTREELAB_MPI=ON): check they see rank 0's config and data, then
 * fit the cells rank 0 names on --jobs slots, each a thread with its own message tag. */
#include "mpi_link.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "treelab/tl_cells.h"

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
        int from, tag, rc = tlm_send(out, len, 0, sl->tag, &err);
        if (out != first)
            free(out);
        if (!rc)
            rc = tlm_recv(0, sl->tag, &msg, &from, &tag, NULL, NULL, &err);
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
            tlm_send(fail, (size_t)n, 0, sl->tag, &err);
            sl->stopped = 1; /* rank 0 counts the slot closed and sends nothing more */
            break;
        }
    }
    free(msg);
    free(buf);
    return NULL;
}

int tl_run_mpi_worker(const tl_experiment *x, tl_dataset *const *data, const tl_run_opts *o,
                      const tl_run_scale *sc, tl_err *err)
{
    tl_dataset **owned = NULL;
    tl_run_state s;
    memset(&s, 0, sizeof s);
    tlm_set_clean(0);
    int rc = data ? TL_OK : tl_run_load_data(x, &owned, err);
    s.x = x, s.data = data ? data : owned, s.o = o, s.sc = sc;
    char *mine = NULL, *theirs = NULL, what[1100];
    if (!rc)
        rc = tl_run_make_splits(&s, err);
    if (!rc)
        rc = tl_run_header(x, s.data, sc, &mine, err);
    int setup_rc = 0, mrc = tlm_share_setup(&setup_rc, &theirs);
    if (mrc != MPI_SUCCESS)
        rc = tlm_failed(mrc, err);
    else if (setup_rc) /* rank 0 failed and says why: nothing to add */
        tlm_set_clean(1), rc = TL_OK;
    else if (!rc && tl_run_header_diff(mine, theirs, 0, what, sizeof what))
        rc = tl_err_set(err, TL_EINVAL,
                        "its config or data differ from rank 0's (%s): every "
                        "rank must see the same files",
                        what);
    if (!setup_rc && mrc == MPI_SUCCESS && rc) {
        tlm_refuse(rc, err->msg);
        tlm_set_clean(1), rc = TL_OK; /* rank 0 reports it */
    } else if (!setup_rc && mrc == MPI_SUCCESS) {
        size_t jobs = o->jobs ? o->jobs : 1, started = 0;
        slot *slots = calloc(jobs, sizeof *slots);
        pthread_t *th = calloc(jobs, sizeof *th);
        if (!slots || !th)
            jobs = 0, tlm_refuse(TL_ENOMEM, "out of memory");
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
            tlm_send(text, (size_t)n, 0, slots[i].tag, err);
        }
        if (jobs)
            slot_main(&slots[jobs - 1]);
        for (size_t i = 0; i < started; i++)
            pthread_join(th[i], NULL);
        int stopped = 1;
        for (size_t i = 0; i < jobs; i++)
            stopped &= slots[i].stopped;
        tlm_set_clean(stopped);
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
