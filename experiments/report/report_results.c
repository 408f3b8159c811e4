/* What a finished run or merge writes beside its cells: the whole-data models, the reports,
 * the figures, the manifest and the paper, asked for after run/ has finished (the CLI, and
 * tl_report_run for a library caller). */
#include <time.h>

#include "report_util.h"
#include "treelab/tl_outfile.h"
#include "treelab/tl_report.h"

int tl_report_results(const char *dir, const tl_experiment *x, tl_dataset *const *data,
                      time_t start, int resumed, size_t jobs, volatile sig_atomic_t *cancel,
                      tl_err *err)
{
    /* whole-data models, reports and manifest are rebuilt from scratch on every finish; the
     * cancel flag stops them before the next file (each one is written whole or not at all) */
    tl_out_set_cancel(cancel);
    int rc = tl_report_models(dir, x, data, err);
    if (!rc)
        rc = tl_rep_render(dir, err);
    if (!rc)
        rc = tl_rep_figures(dir, x, data, jobs, err);
    if (!rc)
        rc = tl_report_manifest(dir, x, data, start, time(NULL), resumed, err);
    if (!rc) /* last: they hold the figures and the manifest's provenance */
        rc = tl_rep_paper(dir, err);
    /* a gnuplot killed by the same Ctrl-C fails too: the stop is what to report */
    if (rc && tl_out_cancelled())
        rc = tl_err_set(err, TL_EINTERRUPTED,
                        "stopped while writing the reports; every cell "
                        "is kept in %s and each report file there is complete or absent; "
                        "--resume writes them all",
                        dir);
    tl_out_set_cancel(NULL);
    return rc;
}

int tl_report_run(const tl_experiment *x, tl_dataset *const *data, const tl_run_opts *o,
                  tl_err *err)
{
    tl_err local;
    if (!err)
        err = &local; /* as tl_run: a NULL err is allowed */
    tl_dataset **own = NULL; /* loaded once here, for the run and its reports */
    if (!data) {
        int rc = tl_run_load_data(x, &own, err);
        if (rc)
            return rc;
        data = own;
    }
    tl_run_done done = {.lock = -1};
    tl_run_opts ro = *o;
    ro.done = &done;
    int rc = tl_run(x, data, &ro, err);
    if (!rc && done.lock >= 0)
        rc = tl_report_results(o->out_dir, x, data, done.start, done.resumed, o->jobs, o->cancel,
                               err);
    tl_results_unlock(done.lock);
    if (own)
        tl_run_free_data(x, own);
    return rc;
}
