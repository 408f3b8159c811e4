/* `treelab run CONFIG`: run an experiment file and say where the report is. */
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "treelab/tl_runner.h"

extern const tl_cli_command tl_cmd_run;

static volatile sig_atomic_t interrupted;

static void on_signal(int sig)
{
    (void)sig;
    interrupted = 1;
}

typedef struct {
    int tty;
    double last;
} progress_state;

static void progress(size_t done, size_t total, double elapsed, void *user)
{
    progress_state *p = user;
    double left = done ? elapsed / (double)done * (double)(total - done) : 0;
    if (p->tty) {
        int width = 30, fill = total ? (int)((double)width * (double)done / (double)total) : width;
        fprintf(stderr, "\r[%.*s%*s] %zu/%zu cells, %.0fs elapsed, ~%.0fs left ", fill,
                "##############################", width - fill, "", done, total, elapsed, left);
        if (done == total)
            fputc('\n', stderr);
    } else if (done == total || elapsed - p->last >= 5) {
        /* plain lines for logs: at most one every 5 seconds */
        fprintf(stderr, "treelab run: %zu/%zu cells, %.0fs elapsed, ~%.0fs left\n", done, total,
                elapsed, left);
        p->last = elapsed;
    }
}

static int run(int argc, char **argv, tl_err *err)
{
    const char *out = NULL, *jobs_s = "1", *resume = NULL, *quiet = NULL, *pos[1];
    const tl_cli_opt opts[] = {{"--out", 1, &out}, {"--jobs", 1, &jobs_s},
                               {"--resume", 0, &resume}, {"--quiet", 0, &quiet}, {NULL, 0, NULL}};
    int n_pos, help;
    long jobs;
    int rc = tl_cli_parse(argc, argv, opts, pos, 1, &n_pos, NULL, &help, err);
    if (rc || help) {
        if (help)
            fputs(tl_cmd_run.usage, stdout);
        return rc;
    }
    if (n_pos != 1)
        return tl_err_set(err, TL_EINVAL, "expected one experiment file\n%s", tl_cmd_run.usage);
    if ((rc = tl_cli_long("--jobs", jobs_s, 1, 256, &jobs, err)))
        return rc;
    tl_experiment *x = tl_experiment_load(pos[0], NULL, err);
    if (!x)
        return err->code;
    char dir[4096];
    snprintf(dir, sizeof dir, "%s", out ? out : "results/");
    if (!out)
        snprintf(dir, sizeof dir, "results/%s", x->name);
    /* Without --out, an earlier run is kept: this one goes to results/NAME-2, -3, ... */
    for (int i = 2; !out && !resume && i < 10000; i++) {
        char cells[4200];
        snprintf(cells, sizeof cells, "%s/cells.txt", dir);
        if (access(cells, F_OK) != 0) {
            if (i > 2)
                fprintf(stderr, "treelab run: results/%s holds an earlier run; writing %s\n",
                        x->name, dir);
            break;
        }
        snprintf(dir, sizeof dir, "results/%s-%d", x->name, i);
    }
    progress_state ps = {isatty(2), 0};
    tl_run_opts o = {dir, (size_t)jobs, resume != NULL, 0, &interrupted,
                     quiet ? NULL : progress, &ps};
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    rc = tl_run(x, NULL, &o, err);
    if (!rc)
        printf("report: %s/summary.md (cells in %s/metrics.csv)\n", dir, dir);
    else if (rc == TL_EINTERRUPTED)
        tl_err_prefix(err, "interrupted: ");
    tl_experiment_free(x);
    return rc;
}

const tl_cli_command tl_cmd_run = {
    "run", "run an experiment file (cross-validation, reports, statistics)",
    "usage: treelab run CONFIG [--out DIR] [--jobs N] [--resume] [--quiet]\n"
    "  Runs every cell (dataset x model x repeat x fold) of the experiment file CONFIG and\n"
    "  writes results/NAME/ (or DIR): metrics.csv, timings.csv, summary.md, summary.csv,\n"
    "  confusion/, trees/, trace/, plots/, manifest. Dataset paths are taken relative to\n"
    "  CONFIG's folder when the file is there, else to the current folder. Results are never\n"
    "  overwritten: without --out, when results/NAME holds an earlier run this one goes to\n"
    "  results/NAME-2 (-3, ...); an existing --out DIR with results is refused, and so is a\n"
    "  folder another treelab run is writing. Ctrl-C stops after the running cells, or\n"
    "  during the reports before the next file (files are written whole or not at all).\n"
    "  --jobs N   threads (the numbers do not depend on N)\n"
    "  --resume   finish an interrupted run in results/NAME (or DIR)\n"
    "  --quiet    no progress on stderr\n",
    run};
