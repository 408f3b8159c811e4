/* Figures drawn side by side: gnuplot runs in a child process, so a run with N threads can
 * draw N figures at once instead of leaving a core idle through ~50 ms per figure. */
#include "plot_batch.h"

#include <stdlib.h>
#include <string.h>

#include "plot_internal.h"

typedef struct job {
    tlp_child c;
    char *stem;
} job;

/* A ring of the running figures, oldest first. */
typedef struct batch {
    job *jobs;
    size_t max, first, n;
} batch;

/* per thread, as the cancel flag of tl_out_set_cancel: a batch never sees another's figures */
static _Thread_local batch *open_batch;

int tlp_batch_on(void)
{
    return open_batch != NULL;
}

int tlp_batch_begin(size_t n, tl_err *err)
{
    if (open_batch)
        return tl_err_set(err, TL_EINVAL, "internal: a figure batch is already open");
    if (n <= 1) /* one figure at a time: drawn in place, nothing to keep */
        return TL_OK;
    batch *b = calloc(1, sizeof *b);
    job *jobs = calloc(n, sizeof *jobs);
    if (!b || !jobs) {
        free(b);
        free(jobs);
        return tl_err_set(err, TL_ENOMEM, "out of memory");
    }
    b->jobs = jobs, b->max = n;
    open_batch = b;
    return TL_OK;
}

/* Wait for the oldest figure and put it in place. */
static int finish_oldest(batch *b, tl_err *err)
{
    job *j = &b->jobs[b->first];
    b->first = (b->first + 1) % b->max;
    b->n--;
    int rc = tlp_wait(&j->c, err);
    rc = tlp_drawn(j->stem, rc, 0, err);
    free(j->stem);
    j->stem = NULL;
    return rc;
}

int tlp_batch_draw(const char *dir, char *const argv[], const char *stem, tl_err *err)
{
    batch *b = open_batch;
    int rc = b->n == b->max ? finish_oldest(b, err) : TL_OK;
    char *copy = rc ? NULL : strdup(stem);
    if (!rc && !copy)
        rc = tl_err_set(err, TL_ENOMEM, "out of memory");
    if (rc)
        return rc;
    job *j = &b->jobs[(b->first + b->n) % b->max];
    int missing = 0;
    rc = tlp_start(dir, argv, &j->c, &missing, err);
    if (rc || !j->c.pid) { /* not started: nothing to wait for */
        free(copy);
        return tlp_drawn(stem, rc, missing, err);
    }
    j->stem = copy;
    b->n++;
    return TL_OK;
}

int tlp_batch_end(int rc, tl_err *err)
{
    batch *b = open_batch;
    if (!b)
        return rc;
    tl_err later; /* failures after the first are waited for, not reported */
    while (b->n) {
        int r = finish_oldest(b, rc ? &later : err);
        rc = rc ? rc : r;
    }
    free(b->jobs);
    free(b);
    open_batch = NULL;
    return rc;
}
