/* Out of memory in a whole run (tl_oom.c's sweep, as test_oom.c): tl_run of small experiments
 * (config, cells, every report, figure data; cv, hold-out with validation rows, learning
 * curve, a resumed run) with each allocation failing in turn must return TL_ENOMEM, leak
 * nothing and free nothing twice. */
#define _XOPEN_SOURCE 700 /* nftw */
#include <ftw.h>
#include <gsl/gsl_errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tl_oom.h"
#include "treelab/tl_plot.h"
#include "treelab/tl_report.h"
#include "treelab/tl_runner.h"

/* ---- a small experiment run ---- */

typedef struct run_ctx {
    const char *config;
    const char *out_dir;
    size_t partial; /* > 0: the run resumes a folder where a first run stopped after so many
                       cells (that first run is not swept) */
} run_ctx;

static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st, (void)flag, (void)ftw;
    return remove(path);
}

static void remove_dir(const char *dir)
{
    if (access(dir, F_OK) == 0 && nftw(dir, remove_entry, 16, FTW_DEPTH | FTW_PHYS))
        fail_msg("cannot remove %s", dir);
}

static int run_config(const char *config, const char *dir, int resume, size_t max_cells,
                      tl_err *err)
{
    tl_experiment *x = tl_experiment_load(config, NULL, err);
    if (!x)
        return err->code;
    tl_run_opts o = {.out_dir = dir, .jobs = 1, .resume = resume, .max_cells = max_cells};
    int rc = tl_report_run(x, NULL, &o, err);
    tl_experiment_free(x);
    return rc;
}

/* Read the config, load the data, run every cell and write every report into a fresh
 * folder, or resume a partial one. */
static int call_run(void *ctx, tl_err *err)
{
    run_ctx *c = ctx;
    tl_oom_set_armed(0);
    remove_dir(c->out_dir);
    tl_err e;
    if (c->partial && run_config(c->config, c->out_dir, 0, c->partial, &e) != TL_EINTERRUPTED)
        fail_msg("the partial run: %s", e.msg);
    tl_oom_set_armed(1);
    return run_config(c->config, c->out_dir, c->partial > 0, 0, err);
}

/* Sweeps the run of one experiment config (text) in a fresh folder under tmpfs when there
 * is one (the runner fsyncs every cell and report file); the successful run must have
 * written the files named in expect (NULL-terminated). */
static void sweep_run(const char *what, const char *text, size_t partial, long stride,
                      const char *const *expect)
{
    char dir[256], config[256];
    const char *tmp = access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp";
    snprintf(dir, sizeof dir, "%s/tl_oom_run_%ld", tmp, (long)getpid());
    snprintf(config, sizeof config, "%s", tl_test_tmpfile(".cfg", text));
    run_ctx c = {config, dir, partial};
    /* ASan makes a run about three times slower: there the runs fail only every other
     * allocation past the first TL_OOM_EVERY_FIRST (the normal build fails each) */
    stride *= TL_OOM_ASAN ? 2 : 1;
    long n = tl_oom_sweep_every(what, call_run, &c, stride);
    tl_oom_print_count(what, n, stride);
    for (; *expect; expect++) {
        char path[512];
        snprintf(path, sizeof path, "%s/%s", dir, *expect);
        if (access(path, F_OK))
            fail_msg("%s: no %s", what, *expect);
    }
    remove_dir(dir);
    remove(config);
}

#define OOM_DATA(name) "\"" TL_SOURCE_DIR "/experiments/datasets/" name "\""

/* Two datasets, so that the summary ranks the models (Friedman, Nemenyi); then the same
 * run resuming a folder that holds 3 of its 8 cells. */
static void test_run_out_of_memory(void **state)
{
    (void)state;
    static const char *const expect[] = {
        "summary.md", "metrics.csv", "trees/labor__c45.txt", "confusion/weather.nominal__nb.csv",
        "manifest",   NULL};
    static const char config[] =
        "name = \"oom\"; seed = 3;\n"
        "datasets = ( " OOM_DATA("labor.arff") ", " OOM_DATA(
            "weather.nominal.arff") " );\n"
                                    "models = ( { name = \"c45\"; algorithm = \"c45\"; },\n"
                                    "  { name = \"nb\"; algorithm = \"gaussian_nb\"; } );\n"
                                    "protocol = { kind = \"cv\"; folds = 2; repeats = 1; };\n";
    sweep_run("run (labor + weather, c45 + gaussian_nb, 2-fold CV)", config, 0, 1, expect);
    sweep_run("run resumed after 3 of 8 cells", config, 3, 1, expect);
}

/* With the figures' data and gnuplot scripts (gnuplot and dot are not looked for: no child
 * process). Over 4,000 allocations, most of them fits the other sweeps cover: the first 200
 * and every third are failed. */
static void test_run_plots_out_of_memory(void **state)
{
    (void)state;
    static const char *const expect[] = {"plots/accuracy.gp",
                                         "plots/critical_difference.dat",
                                         "plots/confusion_weather.nominal__nb.gp",
                                         "plots/pruning_contact-lenses__cart.dat",
                                         "trees/contact-lenses__cart.dot",
                                         NULL};
    tl_plot_set_gnuplot("/nonexistent/gnuplot");
    tl_plot_set_dot("/nonexistent/dot");
    sweep_run(
        "run with plots (weather + contact-lenses, gaussian_nb + cart cv, 2-fold CV)",
        "name = \"oom\"; seed = 3;\n"
        "datasets = ( " OOM_DATA("contact-lenses.arff") ", " OOM_DATA(
            "weather.nominal.arff") " );\n"
                                    "models = ( { name = \"nb\"; algorithm = \"gaussian_nb\"; },\n"
                                    "  { name = \"cart\"; algorithm = \"cart\"; params = { prune = \"cv\"; folds = 2; }; } );\n"
                                    "protocol = { kind = \"cv\"; folds = 2; repeats = 1; };\n"
                                    "plots = [\"accuracy\", \"critical_difference\", \"confusion\", \"pruning\",\n"
                                    "  \"trees\"];\n",
        0, 3, expect);
    tl_plot_set_gnuplot(NULL);
    tl_plot_set_dot(NULL);
}

/* The other protocols: hold-out with validation rows (validation pruners and their figure)
 * and a learning curve (its figure and the ranks over its cells). */
static void test_run_protocols_out_of_memory(void **state)
{
    (void)state;
    static const char *const holdout[] = {"plots/validation_contact-lenses__rep.dat", NULL};
    static const char *const curve[] = {"learning_curve.csv",
                                        "plots/learning_curve_weather.nominal.gp", NULL};
    tl_plot_set_gnuplot("/nonexistent/gnuplot");
    tl_plot_set_dot("/nonexistent/dot");
    sweep_run(
        "run (contact-lenses, cart reduced_error + tree pre_validation, hold-out)",
        "name = \"oom\"; seed = 3;\n"
        "datasets = ( " OOM_DATA(
            "contact-lenses.arff") " );\n"
                                   "models = ( { name = \"rep\"; algorithm = \"cart\"; params = { prune = \"reduced_error\"; }; },\n"
                                   "  { name = \"pv\"; algorithm = \"tree\"; params = { pruner = \"pre_validation\"; }; } );\n"
                                   "protocol = { kind = \"holdout\"; train = 0.6; validation = 0.2; test = 0.2; repeats = 1; };\n"
                                   "plots = [\"validation\", \"accuracy\"];\n",
        0, 1, holdout);
    sweep_run(
        "run (contact-lenses + weather, gaussian_nb + id3, learning curve)",
        "name = \"oom\"; seed = 3;\n"
        "datasets = ( " OOM_DATA("contact-lenses.arff") ", " OOM_DATA(
            "weather.nominal.arff") " );\n"
                                    "models = ( { name = \"nb\"; algorithm = \"gaussian_nb\"; }, { name = \"id3\"; algorithm = \"id3\"; } );\n"
                                    "protocol = { kind = \"learning_curve\"; fractions = [0.5]; repeats = 1; };\n"
                                    "plots = [\"learning_curve\", \"accuracy\", \"critical_difference\"];\n",
        0, 1, curve);
    tl_plot_set_gnuplot(NULL);
    tl_plot_set_dot(NULL);
}

int main(void)
{
    gsl_set_error_handler_off();
    tl_oom_trace_from_env();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_run_out_of_memory),
        cmocka_unit_test(test_run_plots_out_of_memory),
        cmocka_unit_test(test_run_protocols_out_of_memory),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
