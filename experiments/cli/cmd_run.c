/* `treelab run CONFIG`: run an experiment file (or a shard of it, or under MPI), or plan it. */
#include <ctype.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "run_plan.h"
#include "treelab/tl_report.h"
#include "treelab/tl_scale.h"

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

/* "I/N" with 1 <= I <= N. */
static int parse_shard(const char *v, tl_run_scale *sc, tl_err *err)
{
    char *end = (char *)v;
    unsigned long long i = 0, n = 0;
    /* digits only: strtoull takes a sign and wraps it (-18446744073709551615 was 1) */
    if (isdigit((unsigned char)v[0]) && (i = strtoull(v, &end, 10), *end == '/') &&
        isdigit((unsigned char)end[1]))
        n = strtoull(end + 1, &end, 10);
    if (*end || !n || i < 1 || i > n || n > 1000000)
        return tl_err_set(err, TL_EINVAL,
                          "--shard: expected I/N with 1 <= I <= N (e.g. 2/8 "
                          "for the second of 8 shards), got '%s'",
                          v);
    sc->shard = (size_t)i, sc->n_shards = (size_t)n;
    return TL_OK;
}

/* The results folder: DIR, results/NAME (NAME-2, -3, ... when an earlier run is there), or
 * results/NAME-shard-I-of-N for a shard. */
static void results_dir(const tl_experiment *x, const char *out, int resume, const tl_run_scale *sc,
                        char *dir, size_t size)
{
    if (out) {
        snprintf(dir, size, "%s", out);
        return;
    }
    if (sc->n_shards) {
        snprintf(dir, size, "results/%s-shard-%zu-of-%zu", x->name, sc->shard, sc->n_shards);
        return;
    }
    snprintf(dir, size, "results/%s", x->name);
    /* Without --out, an earlier run is kept: this one goes to results/NAME-2, -3, ... */
    for (int i = 2; !resume && i < 10000; i++) {
        char cells[4200];
        snprintf(cells, sizeof cells, "%s/cells.txt", dir);
        if (access(cells, F_OK) != 0) {
            if (i > 2)
                fprintf(stderr, "treelab run: results/%s holds an earlier run; writing %s\n",
                        x->name, dir);
            break;
        }
        snprintf(dir, size, "results/%s-%d", x->name, i);
    }
}

/* Start MPI when a launcher started several ranks (or one, in an MPI build). */
static int start_mpi(size_t jobs, int *on, tl_err *err)
{
    size_t ranks = tl_mpi_launched();
    *on = 0;
    if (!ranks || (ranks == 1 && !tl_mpi_built))
        return TL_OK;
    if (!tl_mpi_built)
        return tl_err_set(err, TL_EUNSUPPORTED,
                          "started by mpirun with %zu ranks, but this "
                          "treelab was built without MPI: every rank would run the whole "
                          "experiment; rebuild with cmake -DTREELAB_MPI=ON",
                          ranks);
    *on = 1;
    return tl_mpi_init(jobs > 1, err);
}

static int run(int argc, char **argv, tl_err *err)
{
    const char *out = NULL, *jobs_s = "1", *resume = NULL, *quiet = NULL, *shard = NULL,
               *plan = NULL, *wall = "1h", *force = NULL, *pos[1];
    const tl_cli_opt opts[] = {
        {"--out", 1, &out},     {"--jobs", 1, &jobs_s}, {"--resume", 0, &resume},
        {"--quiet", 0, &quiet}, {"--shard", 1, &shard}, {"--plan", 0, &plan},
        {"--wall", 1, &wall},   {"--force", 0, &force}, {NULL, 0, NULL}};
    int n_pos, help, mpi = 0;
    long jobs;
    double wall_s;
    tl_run_scale sc = {0, 0, 0};
    int rc = tl_cli_parse(argc, argv, opts, pos, 1, &n_pos, NULL, &help, err);
    if (rc || help) {
        if (help)
            fputs(tl_cmd_run.usage, stdout);
        return rc;
    }
    if (n_pos != 1)
        return tl_err_set(err, TL_EINVAL, "expected one experiment file\n%s", tl_cmd_run.usage);
    if ((rc = tl_cli_long("--jobs", jobs_s, 1, 256, &jobs, err)) ||
        (shard && (rc = parse_shard(shard, &sc, err))) ||
        (rc = tl_cli_duration("--wall", wall, &wall_s, err)))
        return rc;
    if (plan)
        return tl_cli_print_plan(pos[0], wall_s, (size_t)jobs, &sc, err);
    if ((rc = start_mpi((size_t)jobs, &mpi, err))) {
        tl_mpi_end(tl_cli_exit_status(err));
        return rc;
    }
    sc.mpi = mpi && tl_mpi_size() > 1;
    int lead = !sc.mpi || tl_mpi_rank() == 0; /* the rank that talks and writes */
    tl_experiment *x = tl_experiment_load(pos[0], NULL, err);
    if (!x) {
        rc = err->code;
        if (sc.mpi)
            rc = tl_mpi_abandon(rc, err);
    } else {
        char dir[4096];
        results_dir(x, out, resume != NULL, &sc, dir, sizeof dir);
        progress_state ps = {isatty(2), 0};
        tl_run_done done = {.lock = -1};
        tl_run_opts o = {.out_dir = dir,
                         .jobs = (size_t)jobs,
                         .resume = resume != NULL,
                         .cancel = &interrupted,
                         .progress = quiet || !lead ? NULL : progress,
                         .progress_user = &ps,
                         .force = force != NULL,
                         .done = &done};
        if (lead) { /* the other ranks stop at once: mpirun stops the run as a whole */
            struct sigaction sa;
            memset(&sa, 0, sizeof sa);
            sa.sa_handler = on_signal;
            sigaction(SIGINT, &sa, NULL);
            sigaction(SIGTERM, &sa, NULL);
        }
        /* the lead rank loads the data for the run and for the reports after it; the other
         * ranks load their own in the run */
        tl_dataset **data = NULL;
        rc = lead ? tl_run_load_data(x, &data, err) : TL_OK;
        if (rc && sc.mpi) /* the other ranks wait for word from this one */
            tl_mpi_abandon(rc, err);
        if (!rc)
            rc = tl_run_scaled(x, data, &o, &sc, err);
        if (!rc && done.lock >= 0) /* report/ after run/, the folder still locked */
            rc = tl_report_results(dir, x, data, done.start, done.resumed, (size_t)jobs,
                                   &interrupted, err);
        tl_results_unlock(done.lock);
        if (data)
            tl_run_free_data(x, data);
        if (!rc && lead && sc.n_shards)
            printf("shard %zu/%zu: cells in %s/cells.txt; once every shard is done: treelab "
                   "merge SHARD_DIR... --out DIR\n",
                   sc.shard, sc.n_shards, dir);
        else if (!rc && lead)
            printf("report: %s/summary.md (cells in %s/metrics.csv)\n", dir, dir);
        else if (rc == TL_EINTERRUPTED)
            tl_err_prefix(err, "interrupted: ");
        tl_experiment_free(x);
    }
    if (mpi) {
        fflush(stdout);
        if (rc && !tl_mpi_clean()) /* the abort ends this process: say why first */
            fprintf(stderr, "treelab run: %s\n", err->msg);
        tl_mpi_end(tl_cli_exit_status(err));
    }
    return rc;
}

const tl_cli_command tl_cmd_run = {
    "run", "run an experiment file (cross-validation, reports, statistics)",
    "usage: treelab run CONFIG [--out DIR] [--jobs N] [--resume] [--quiet] [--shard I/N]\n"
    "                          [--force]\n"
    "       treelab run CONFIG --plan [--wall TIME] [--jobs N] [--shard I/N]\n"
    "       mpirun -n RANKS treelab run CONFIG [options]   (a build with -DTREELAB_MPI=ON)\n"
    "  Runs every cell (dataset x model x repeat x fold) of the experiment file CONFIG and\n"
    "  writes results/NAME/ (or DIR): metrics.csv, timings.csv, summary.md, summary.csv,\n"
    "  confusion/, trees/, trace/, plots/, manifest. Dataset paths are taken relative to\n"
    "  CONFIG's folder when the file is there, else to the current folder. Results are never\n"
    "  overwritten: without --out, when results/NAME holds an earlier run this one goes to\n"
    "  results/NAME-2 (-3, ...); an existing --out DIR with results is refused, and so is a\n"
    "  folder another treelab run is writing. A folder that is neither new, empty nor a\n"
    "  treelab results folder is refused, so that none of a user's files is replaced. Ctrl-C stops after the running cells, or\n"
    "  during the reports before the next file (files are written whole or not at all).\n"
    "  --jobs N     threads, and figures drawn at once (the numbers do not depend on N);\n"
    "               under MPI, per rank\n"
    "  --resume     finish an interrupted run (or shard) in results/NAME (or DIR)\n"
    "  --quiet      no progress on stderr\n"
    "  --force      write into an existing folder that is not a treelab results folder\n"
    "               (its files of treelab's names are replaced)\n"
    "  --shard I/N  only the cells of shard I of N (a stable partition balanced by estimated\n"
    "               cost), into DIR (default results/NAME-shard-I-of-N) as cells.txt alone;\n"
    "               `treelab merge` assembles the N shards into the results of one run\n"
    "  --plan       run nothing: print the cells, the estimated seconds per cell and in all,\n"
    "               and the MPI ranks (or shards) that finish within --wall TIME (default\n"
    "               1h; s, m, h or d)\n"
    "  Under mpirun, rank 0 hands out the cells (largest first) and alone writes the\n"
    "  results; the other ranks fit them, each with --jobs threads. The numbers equal a\n"
    "  serial run's byte for byte.\n",
    run};
