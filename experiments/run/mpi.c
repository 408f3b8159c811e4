/* MPI master/worker (built with -DTREELAB_MPI=ON): the connection every rank shares; rank 0
 * hands out the cells largest first and stores what comes back (mpi_master.c), the other
 * ranks fit them, each on --jobs threads (mpi_worker.c). */
#include "mpi_link.h"

#include <mpi.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "treelab/tl_scale.h"

const int tl_mpi_built = 1;

static int g_rank, g_size, g_inited, g_clean;

void tlm_set_clean(int clean)
{
    g_clean = clean;
}
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

int tlm_failed(int code, tl_err *err)
{
    char text[MPI_MAX_ERROR_STRING];
    int len = 0;
    MPI_Error_string(code, text, &len);
    return tl_err_set(err, TL_EIO, "MPI: %.*s", len, text);
}

int tlm_send(const char *text, size_t len, int dest, int tag, tl_err *err)
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
    return rc == MPI_SUCCESS ? TL_OK : tlm_failed(rc, err);
}

int tlm_recv(int src, int tag, char **text, int *from, int *tag_out, int (*give_up)(void *),
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
                                        : tlm_failed(rc, err);
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

int tlm_share_setup(int *setup_rc, char **header)
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

void tlm_refuse(int code, const char *why)
{
    char text[1200];
    int n = snprintf(text, sizeof text, "F%d %s", code, why);
    tl_err ignored;
    tlm_send(text, (size_t)n, 0, TLM_TAG_RANK, &ignored);
}

int tl_mpi_abandon(int rc, tl_err *err)
{
    if (g_size < 2)
        return rc;
    g_clean = 0;
    char *header = NULL;
    int setup_rc = g_rank ? 0 : rc, mrc = tlm_share_setup(&setup_rc, &header);
    free(header);
    if (mrc != MPI_SUCCESS)
        return tlm_failed(mrc, err);
    g_clean = 1;
    if (!g_rank)
        return rc;
    if (!setup_rc) /* rank 0 got going: it must hear why this rank will not */
        tlm_refuse(rc, err->msg);
    return TL_OK;
}
