/* The runner: byte-identical results for any --jobs and on re-runs, resume after an
 * interruption, refusal to overwrite, and summary numbers on a hand-checkable case. */
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tl_test_util.h"
#include "treelab/tl_report.h"
#include "treelab/tl_runner.h"
#include "treelab/tl_stats.h"

/* A test-only learner: predicts the training majority class (lowest code on ties); has no
 * tree to show and a two-row trace. Not in the registry: passed to the config reader. */
typedef struct {
    size_t k;
    double p[16];
} maj_state;
static const tl_param_spec maj_params[] = {{NULL, 0, NULL, 0, 0, NULL, NULL}};
static void *maj_alloc(const tl_params *p, tl_err *err)
{
    (void)p;
    (void)err;
    return calloc(1, sizeof(maj_state));
}
static void maj_free(void *s)
{
    free(s);
}
static int maj_fit(void *st, const tl_dataset *d, const size_t *rows, size_t n,
                   const tl_fit_ctx *ctx, tl_err *err)
{
    (void)ctx;
    (void)err;
    maj_state *s = st;
    s->k = tl_dataset_n_classes(d);
    double c[16] = {0};
    size_t best = 0;
    for (size_t i = 0; i < n; i++)
        c[d->y.code[rows[i]]] += 1;
    for (size_t j = 1; j < s->k; j++)
        best = c[j] > c[best] ? j : best;
    for (size_t j = 0; j < s->k; j++)
        s->p[j] = j == best;
    return TL_OK;
}
static int maj_predict(const void *st, const tl_dataset *d, const size_t *rows, size_t n,
                       double *out, tl_err *err)
{
    (void)d, (void)rows, (void)err;
    const maj_state *s = st;
    for (size_t i = 0; i < n; i++)
        memcpy(out + i * s->k, s->p, s->k * sizeof *out);
    return TL_OK;
}
static int maj_show(const void *st, const tl_schema *sc, tl_show_format f, FILE *o, tl_err *err)
{
    (void)st, (void)sc, (void)f, (void)o;
    return tl_err_set(err, TL_EUNSUPPORTED, "a majority model has no tree");
}
static void maj_info(const void *st, tl_model_info *out)
{
    (void)st;
    out->leaves = 1, out->depth = 0, out->nodes = 1;
}
static const char *const trace_cols[] = {"epoch", "loss"};
static const double trace_vals[] = {1, 0.5, 2, 0.25};
static int maj_trace(const void *st, const char *const **c, size_t *nc, const double **v,
                     size_t *nr)
{
    (void)st;
    *c = trace_cols, *nc = 2, *v = trace_vals, *nr = 2;
    return TL_OK;
}
static const tl_model_type majority = {.name = "majority",
                                       .summary = "test majority",
                                       .tasks = TL_TASK_CLASSIFICATION,
                                       .params = maj_params,
                                       .alloc = maj_alloc,
                                       .free = maj_free,
                                       .fit = maj_fit,
                                       .predict = maj_predict,
                                       .show = maj_show,
                                       .info = maj_info,
                                       .trace = maj_trace};
/* "probe": the majority model whose text show stands for a kill or Ctrl-C in the middle of
 * the report phase: it notes whether its file already exists under its final name, writes a
 * line and sets the run's cancel flag. */
static volatile sig_atomic_t probe_cancel;
static const char *probe_file;
static int probe_final_seen;
static int probe_show(const void *st, const tl_schema *sc, tl_show_format f, FILE *o, tl_err *err)
{
    if (f != TL_SHOW_TEXT)
        return maj_show(st, sc, f, o, err);
    probe_final_seen |= access(probe_file, F_OK) == 0;
    fputs("probe tree\n", o);
    probe_cancel = 1;
    return TL_OK;
}
static tl_model_type probe;
static const tl_model_type *const extra[] = {&majority, &probe, NULL};

static void rm(const char *dir)
{
    char cmd[512];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    assert_int_equal(system(cmd), 0);
}

static const char *config(void)
{
    return tl_test_tmpfile(
        ".cfg",
        "name = \"r\"; seed = 5;\n"
        "datasets = ( \"" TL_SOURCE_DIR "/experiments/datasets/iris.arff\",\n"
        "  { path = \"" TL_SOURCE_DIR
        "/experiments/datasets/watermelon-3.0.csv\"; target = \"ripe\";\n"
        "    attributes = [\"density\", \"sugar\"]; name = \"melon\"; } );\n"
        "models = ( { name = \"nb\"; algorithm = \"gaussian_nb\"; },\n"
        "  { name = \"maj\"; algorithm = \"majority\"; },\n"
        "  { name = \"nb_sel\"; algorithm = \"gaussian_nb\";\n"
        "    select = { param = \"var_smoothing\"; values = [1e-9, 0.5]; folds = 2; }; } );\n"
        "protocol = { kind = \"cv\"; folds = 3; repeats = 2; };\n");
}

static tl_experiment *load(const char *path)
{
    tl_err err;
    tl_experiment *x = tl_experiment_load(path, extra, &err);
    if (!x)
        fail_msg("%s", err.msg);
    return x;
}

/* Run x into dir; returns the code. */
static int run(const tl_experiment *x, const char *dir, size_t jobs, int resume, size_t max)
{
    tl_err err;
    tl_err_clear(&err);
    tl_run_opts o = {.out_dir = dir, .jobs = jobs, .resume = resume, .max_cells = max};
    int rc = tl_report_run(x, NULL, &o, &err);
    if (rc && rc != TL_EINTERRUPTED && rc != TL_EINVAL)
        fail_msg("%s", err.msg);
    return rc;
}

static long file_size(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 ? (long)st.st_size : -1;
}

static void same_file(const char *a, const char *b, const char *name)
{
    char *x = tl_test_slurp_in(a, name), *y = tl_test_slurp_in(b, name);
    assert_string_equal(x, y);
    free(x);
    free(y);
}

static void test_jobs_and_reruns_identical(void **state)
{
    (void)state;
    tl_err err;
    tl_experiment *x = load(config());
    const char *a = "/tmp/tl_run_a", *b = "/tmp/tl_run_b", *c = "/tmp/tl_run_c";
    rm(a), rm(b), rm(c);
    assert_int_equal(run(x, a, 1, 0, 0), TL_OK);
    assert_int_equal(run(x, b, 2, 0, 0), TL_OK);
    assert_int_equal(run(x, c, 1, 0, 0), TL_OK);
    static const char *const files[] = {"metrics.csv", "summary.csv", "summary.md",
                                        "confusion/iris__nb.csv", "selections.csv"};
    for (size_t i = 0; i < 5; i++) {
        same_file(a, b, files[i]);
        same_file(a, c, files[i]);
    }
    /* 2 datasets x 3 models x 2 repeats x 3 folds, plus the header */
    char *m = tl_test_slurp_in(a, "metrics.csv");
    size_t lines = 0;
    for (char *p = m; *p; p++)
        lines += *p == '\n';
    assert_int_equal(lines, 37);
    free(m);
    /* a learner without a tree gets a note; its trace is written */
    char *t = tl_test_slurp_in(a, "trees/iris__maj.txt");
    assert_non_null(strstr(t, "no tree to show"));
    free(t);
    /* ... and no .dot (an empty file is not valid DOT), nor has naive Bayes */
    assert_int_equal(file_size("/tmp/tl_run_a/trees/iris__maj.dot"), -1);
    assert_int_equal(file_size("/tmp/tl_run_a/trees/iris__nb.dot"), -1);
    assert_true(file_size("/tmp/tl_run_a/trees/iris__nb.txt") > 0);
    t = tl_test_slurp_in(a, "trace/iris__maj.csv");
    assert_string_equal(t, "epoch,loss\n1.000000,0.500000\n2.000000,0.250000\n");
    free(t);
    /* the manifest records config, seed, data checksums and versions */
    t = tl_test_slurp_in(a, "manifest");
    assert_non_null(strstr(t, "seed: 5\n"));
    assert_non_null(strstr(t, "commit: "));
    assert_non_null(strstr(t, "gsl: "));
    assert_non_null(strstr(t, "---- config as given ----\nname = \"r\""));
    free(t);
    /* never overwritten silently */
    assert_int_equal(run(x, a, 1, 0, 0), TL_EINVAL);
    /* re-rendering from the stored cells gives the same files */
    assert_int_equal(tl_report_render(c, &err), TL_OK);
    same_file(a, c, "summary.md");
    rm(a), rm(b), rm(c);
    tl_experiment_free(x);
}

/* With threads the cells start largest first by estimated cost (ties in the canonical order
 * dataset, model, repeat, fold), so that the threads finish together: with room for 2 cells,
 * the majority learner's on iris (costed as a tree) are taken before naive Bayes's, which
 * come first in the canonical order. */
static void test_largest_first(void **state)
{
    (void)state;
    tl_err err;
    tl_experiment *x = load(config());
    const char *dir = "/tmp/tl_run_largest";
    rm(dir);
    assert_int_equal(run(x, dir, 2, 0, 2), TL_EINTERRUPTED);
    char path[256];
    snprintf(path, sizeof path, "%s/%s", dir, TL_CELLS_FILE);
    tl_cells_meta meta;
    tl_cell *cells = NULL;
    size_t n = 0;
    long good = 0;
    assert_int_equal(tl_cells_read(path, &meta, &cells, &n, &good, &err), TL_OK);
    assert_int_equal(n, 2);
    unsigned folds = 0;
    for (size_t i = 0; i < n; i++) {
        assert_int_equal(cells[i].dataset, 0);
        assert_int_equal(cells[i].model, 1);
        assert_int_equal(cells[i].repeat, 0);
        folds |= 1u << cells[i].fold;
        tl_cell_clear(&cells[i]);
    }
    assert_int_equal(folds, 3); /* folds 0 and 1, in whichever order they finished */
    free(cells);
    tl_cells_meta_clear(&meta);
    rm(dir);
    tl_experiment_free(x);
}

static void test_resume(void **state)
{
    (void)state;
    tl_experiment *x = load(config());
    const char *full = "/tmp/tl_run_full", *part = "/tmp/tl_run_part";
    rm(full), rm(part);
    assert_int_equal(run(x, full, 2, 0, 0), TL_OK);
    /* stop after 7 cells, then cut the last line short as a kill during a write would */
    assert_int_equal(run(x, part, 2, 0, 7), TL_EINTERRUPTED);
    char *cells = tl_test_slurp_in(part, TL_CELLS_FILE);
    size_t n = 0;
    for (char *p = cells; *p; p++)
        n += *p == '\n' && p[1] && p[1] != '#';
    assert_int_equal(n, 7);
    free(cells);
    FILE *f = fopen("/tmp/tl_run_part/" TL_CELLS_FILE, "a");
    fputs("0\t1\t0\t2\t100\t5", f);
    fclose(f);
    assert_int_equal(run(x, part, 1, 1, 0), TL_OK);
    same_file(full, part, "metrics.csv");
    same_file(full, part, "summary.md");
    rm(full), rm(part);
    tl_experiment_free(x);
}

/* A resume is the same experiment when the config's content is: another spelling of its
 * path is accepted, an edited file (a comment is enough) is refused. */
static void test_resume_config_identity(void **state)
{
    (void)state;
    char path[256], other[300], text[4096];
    snprintf(path, sizeof path, "%s", config());
    tl_experiment *x = load(path);
    const char *part = "/tmp/tl_run_ident";
    rm(part);
    assert_int_equal(run(x, part, 1, 0, 3), TL_EINTERRUPTED);
    tl_experiment_free(x);
    /* /tmp/./tl_test_... names the same file */
    snprintf(other, sizeof other, "/tmp/.%s", path + 4);
    x = load(other);
    assert_int_equal(run(x, part, 1, 1, 3), TL_EINTERRUPTED);
    tl_experiment_free(x);
    FILE *f = fopen(path, "r");
    text[fread(text, 1, sizeof text - 1, f)] = '\0';
    fclose(f);
    f = fopen(path, "w");
    fprintf(f, "# edited\n%s", text);
    fclose(f);
    x = load(path);
    assert_int_equal(run(x, part, 1, 1, 0), TL_EINVAL);
    tl_experiment_free(x);
    rm(part);
}

/* While another process holds a results folder's lock (taken here as a second `treelab run`
 * would), a new run, a resume and `treelab report` are refused at once, naming the folder,
 * and write nothing; once it is released the folder resumes and reports as usual. */
static void test_results_folder_lock(void **state)
{
    (void)state;
    tl_err err;
    tl_experiment *x = load(config());
    const char *dir = "/tmp/tl_run_lock", *cells = "/tmp/tl_run_lock/" TL_CELLS_FILE;
    rm(dir);
    assert_int_equal(mkdir(dir, 0777), 0);
    int fd = open("/tmp/tl_run_lock/.treelab.lock", O_RDWR | O_CREAT, 0666);
    assert_true(fd >= 0);
    assert_int_equal(flock(fd, LOCK_EX | LOCK_NB), 0);
    tl_run_opts o = {.out_dir = dir, .jobs = 1};
    assert_int_equal(tl_report_run(x, NULL, &o, &err), TL_EINVAL);
    assert_non_null(strstr(err.msg, "/tmp/tl_run_lock is in use: another treelab run"));
    assert_int_equal(file_size(cells), -1);
    close(fd);
    assert_int_equal(run(x, dir, 1, 0, 3), TL_EINTERRUPTED);
    long before = file_size(cells);
    fd = open("/tmp/tl_run_lock/.treelab.lock", O_RDWR);
    assert_int_equal(flock(fd, LOCK_EX | LOCK_NB), 0);
    o.resume = 1;
    assert_int_equal(tl_report_run(x, NULL, &o, &err), TL_EINVAL);
    assert_non_null(strstr(err.msg, "is in use"));
    char errbuf[1024];
    assert_int_equal(tl_test_cli("report /tmp/tl_run_lock", NULL, 0, errbuf, sizeof errbuf), 1);
    assert_non_null(strstr(errbuf, "/tmp/tl_run_lock is in use: another treelab run"));
    assert_int_equal(file_size(cells), before);
    assert_int_equal(file_size("/tmp/tl_run_lock/metrics.csv"), -1);
    close(fd);
    assert_int_equal(run(x, dir, 1, 1, 0), TL_OK);
    assert_int_equal(tl_report_render(dir, &err), TL_OK);
    rm(dir);
    tl_experiment_free(x);
}

/* `treelab report` on a folder that holds no results (or on a file) says so and leaves the
 * folder as it was: it took the lock first, and left a .treelab.lock in any folder named.
 * A run into a file is refused as such. */
static void test_report_on_other_folder(void **state)
{
    (void)state;
    char errbuf[1024];
    rm("/tmp/tl_run_other");
    assert_int_equal(mkdir("/tmp/tl_run_other", 0777), 0);
    assert_int_equal(tl_test_cli("report /tmp/tl_run_other", NULL, 0, errbuf, sizeof errbuf), 1);
    assert_non_null(strstr(errbuf, "/tmp/tl_run_other is not a results folder (it has no "
                                   "cells.txt)"));
    assert_int_equal(file_size("/tmp/tl_run_other/" TL_LOCK_FILE), -1);
    assert_int_equal(
        tl_test_cli("report " TL_SOURCE_DIR "/README.md", NULL, 0, errbuf, sizeof errbuf), 1);
    assert_non_null(strstr(errbuf, "README.md is not a results folder (it is not a folder)"));
    rm("/tmp/tl_run_other");
    /* a run told to write into a file says so (it said 'cannot lock FILE/.treelab.lock: Not a
     * directory') */
    tl_experiment *x = load(config());
    const char *file = tl_test_tmpfile(".txt", "mine\n");
    tl_run_opts o = {.out_dir = file, .jobs = 1};
    tl_err err;
    assert_int_equal(tl_report_run(x, NULL, &o, &err), TL_EIO);
    assert_non_null(strstr(err.msg, "it is a file, not a folder"));
    assert_int_equal(file_size(file), 5);
    remove(file);
    tl_experiment_free(x);
}

/* Edit line `at` (0-based) of DIR/cells.txt to text. */
static void edit_cells_line(const char *dir, size_t at, const char *text)
{
    char *cells = tl_test_slurp_in(dir, TL_CELLS_FILE), path[512];
    snprintf(path, sizeof path, "%s/%s", dir, TL_CELLS_FILE);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    size_t line = 0;
    for (char *p = cells; *p; p = strchr(p, '\n') + 1, line++)
        fprintf(f, "%.*s\n", (int)(line == at ? strlen(text) : strcspn(p, "\n")),
                line == at ? text : p);
    fclose(f);
    free(cells);
}

/* `treelab report` on a crafted cells.txt: names become file names in the results folder,
 * and a dataset named "../../x" wrote confusion/../../x__nb.csv outside it. Such names, and
 * a cells format other than 1 and 2, are refused with the line, and nothing is written. */
static void test_report_crafted_cells(void **state)
{
    (void)state;
    tl_experiment *x = load(config());
    const char *dir = "/tmp/tl_run_crafted/r";
    rm("/tmp/tl_run_crafted");
    assert_int_equal(run(x, dir, 2, 0, 0), TL_OK);
    char *cells = tl_test_slurp_in(dir, TL_CELLS_FILE);
    size_t dataset_line = 0, model_line = 0, line = 0;
    for (char *p = cells; *p; p = strchr(p, '\n') + 1, line++) {
        dataset_line = !dataset_line && !strncmp(p, "# dataset 0 ", 12) ? line : dataset_line;
        model_line = !model_line && !strncmp(p, "# model 1 ", 10) ? line : model_line;
    }
    free(cells);
    assert_int_equal(remove("/tmp/tl_run_crafted/r/metrics.csv"), 0);
    static const struct {
        int line; /* 0: the first, 1: the dataset's, 2: the model's */
        const char *text, *want;
    } cases[] = {
        {1, "# dataset 0 3 - ../../pwn", ": bad header line: a name must be non-empty without '/'"},
        {2, "# model 1 a\tb", ": bad header line: a name must be"},
        {2, "# model 1 ", ": bad header line: a name must be"},
        {0, "# treelab cells 3", ":1: 'treelab cells 3' is not a cells format this treelab reads"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        char saved[512], args[600], errbuf[1024];
        snprintf(saved, sizeof saved, "cp %s/cells.txt /tmp/tl_run_crafted/saved", dir);
        assert_int_equal(system(saved), 0);
        edit_cells_line(dir,
                        cases[i].line == 0   ? 0
                        : cases[i].line == 1 ? dataset_line
                                             : model_line,
                        cases[i].text);
        snprintf(args, sizeof args, "report %s", dir);
        assert_int_equal(tl_test_cli(args, NULL, 0, errbuf, sizeof errbuf), 1);
        if (!strstr(errbuf, cases[i].want))
            fail_msg("case %zu: '%s' lacks '%s'", i, errbuf, cases[i].want);
        assert_int_equal(file_size("/tmp/tl_run_crafted/pwn__nb.csv"), -1);
        assert_int_equal(file_size("/tmp/tl_run_crafted/r/metrics.csv"), -1);
        snprintf(saved, sizeof saved, "cp /tmp/tl_run_crafted/saved %s/cells.txt", dir);
        assert_int_equal(system(saved), 0);
    }
    rm("/tmp/tl_run_crafted");
    tl_experiment_free(x);
}

/* A class name from the data with a newline (a quoted CSV field) is refused before any cell
 * is computed, naming the config line and the dataset. */
static void test_control_character_in_class(void **state)
{
    (void)state;
    const char *data = tl_test_tmpfile(".csv", "x,y\n1,a\n2,\"b\nc\"\n3,a\n4,\"b\nc\"\n");
    char text[1024], cfg[256];
    snprintf(text, sizeof text,
             "name = \"nl\";\ndatasets = ( { path = \"%s\"; name = \"d\"; } );\n"
             "models = ( { name = \"maj\"; algorithm = \"majority\"; } );\n"
             "protocol = { kind = \"cv\"; folds = 2; };\n",
             data);
    snprintf(cfg, sizeof cfg, "%s", tl_test_tmpfile(".cfg", text));
    tl_err err;
    tl_experiment *x = load(cfg);
    rm("/tmp/tl_run_nl");
    tl_run_opts o = {.out_dir = "/tmp/tl_run_nl", .jobs = 1};
    assert_int_equal(tl_report_run(x, NULL, &o, &err), TL_EINVAL);
    char want[300];
    snprintf(want, sizeof want, "%s:2: dataset 'd': class 'b...' holds control character \\n", cfg);
    if (!strstr(err.msg, want))
        fail_msg("'%s' lacks '%s'", err.msg, want);
    rm("/tmp/tl_run_nl");
    tl_experiment_free(x);
}

/* Names with a comma, a quote or an edge space are RFC 4180-quoted in every CSV the report
 * writes, so treelab's own CSV reader (the dataset loader) finds the columns in place. */
static void test_csv_quoting(void **state)
{
    (void)state;
    const char *data = tl_test_tmpfile(".csv", "x,y\n1,\"a,b\"\n2,\"a,b\"\n3,\"a,b\"\n4,c\n"
                                               "5,c\n6,c\n7,\"a,b\"\n8,c\n");
    char text[1024];
    snprintf(text, sizeof text,
             "name = \"q\";\ndatasets = ( { path = \"%s\"; name = \"d,1\"; } );\n"
             "models = ( { name = \"m \\\"q\\\",x\"; algorithm = \"majority\"; },\n"
             " { name = \" sp\"; algorithm = \"majority\"; } );\n"
             "protocol = { kind = \"cv\"; folds = 2; };\n",
             data);
    tl_experiment *x = load(tl_test_tmpfile(".cfg", text));
    const char *dir = "/tmp/tl_run_q";
    rm(dir);
    assert_int_equal(run(x, dir, 1, 0, 0), TL_OK);
    char *m = tl_test_slurp_in(dir, "metrics.csv");
    assert_non_null(strstr(m, "\n\"d,1\",\"m \"\"q\"\",x\",0,0,"));
    assert_non_null(strstr(m, "\n\"d,1\",\" sp\",0,1,"));
    free(m);
    m = tl_test_slurp_in(dir, "confusion/d,1__m \"q\",x.csv");
    assert_non_null(strstr(m, "truth\\predicted,\"a,b\",c\n\"a,b\","));
    free(m);
    static const char *const files[] = {"metrics.csv", "timings.csv", "summary.csv"};
    static const size_t rows[] = {4, 4, 2};
    for (size_t i = 0; i < 3; i++) {
        char path[256];
        snprintf(path, sizeof path, "%s/%s", dir, files[i]);
        tl_err err;
        tl_dataset *d = tl_dataset_load(path, "model", &err);
        if (!d)
            fail_msg("%s: %s", files[i], err.msg);
        assert_int_equal(d->n_rows, rows[i]);
        const tl_attr_info *t = &d->schema.target;
        assert_int_equal(t->n_levels, 2);
        assert_true(!strcmp(t->levels[0], "m \"q\",x") || !strcmp(t->levels[1], "m \"q\",x"));
        assert_true(!strcmp(t->levels[0], " sp") || !strcmp(t->levels[1], " sp"));
        tl_dataset_free(d);
    }
    rm(dir);
    tl_experiment_free(x);
}

/* Report files are written under a temporary name and renamed when complete, and the cancel
 * flag (Ctrl-C) stops the report phase before its next file: the file being written when it
 * came is complete, later ones absent, no temporary file left, and the run says it stopped. */
static void test_report_phase_stops_cleanly(void **state)
{
    (void)state;
    char text[1024];
    snprintf(text, sizeof text,
             "name = \"stop\";\ndatasets = ( \"" TL_SOURCE_DIR
             "/experiments/datasets/iris.arff\" );\n"
             "models = ( { name = \"p\"; algorithm = \"probe\"; } );\n"
             "protocol = { kind = \"cv\"; folds = 2; };\n");
    tl_experiment *x = load(tl_test_tmpfile(".cfg", text));
    const char *dir = "/tmp/tl_run_stop";
    rm(dir);
    probe_file = "/tmp/tl_run_stop/trees/iris__p.txt";
    probe_cancel = 0, probe_final_seen = 0;
    tl_run_opts o = {.out_dir = dir, .jobs = 1, .cancel = &probe_cancel};
    tl_err err;
    int rc = tl_report_run(x, NULL, &o, &err);
    assert_false(probe_final_seen);
    assert_int_equal(rc, TL_EINTERRUPTED);
    assert_non_null(strstr(err.msg, "stopped while writing the reports"));
    char *t = tl_test_slurp_in(dir, "trees/iris__p.txt");
    assert_string_equal(t, "probe tree\n");
    free(t);
    assert_int_equal(file_size("/tmp/tl_run_stop/trees/iris__p.dot"), -1);
    assert_int_equal(file_size("/tmp/tl_run_stop/metrics.csv"), -1);
    assert_int_equal(system("test -z \"$(find /tmp/tl_run_stop -name '*.tmp')\""), 0);
    /* every cell was kept: a resume only writes the reports */
    probe_cancel = 0;
    o.resume = 1, o.cancel = NULL;
    assert_int_equal(tl_report_run(x, NULL, &o, &err), TL_OK);
    assert_true(file_size("/tmp/tl_run_stop/metrics.csv") > 0);
    rm(dir);
    tl_experiment_free(x);
}

/* A run the data refuses (more folds than rows, a hold-out split with no test rows) says
 * so before it makes the results folder: it used to leave one holding a cells header, which
 * then refused the corrected config as "the results of another experiment". */
static void test_refused_run_leaves_no_folder(void **state)
{
    (void)state;
    char data[256];
    snprintf(data, sizeof data, "%s", tl_test_tmpfile(".csv", "x,y\n1,a\n2,b\n3,a\n"));
    static const char *const protocols[] = {
        "kind = \"cv\"; folds = 5;",
        "kind = \"holdout\"; train = 0.4; validation = 0.2; test = 0.4;"};
    static const char *const want[] = {"5 folds on 3 rows",
                                       "hold-out split of 3 rows leaves no test rows"};
    for (size_t i = 0; i < 2; i++) {
        char text[1024];
        snprintf(text, sizeof text,
                 "name = \"t\"; datasets = ( { path = \"%s\"; name = \"tiny\"; } );\n"
                 "models = ( { name = \"maj\"; algorithm = \"majority\"; } );\n"
                 "protocol = { %s };\n",
                 data, protocols[i]);
        tl_experiment *x = load(tl_test_tmpfile(".cfg", text));
        rm("/tmp/tl_run_refused");
        tl_run_opts o = {.out_dir = "/tmp/tl_run_refused", .jobs = 1};
        tl_err err;
        int rc = tl_report_run(x, NULL, &o, &err);
        if (rc != TL_EINVAL || !strstr(err.msg, want[i]))
            fail_msg("'%s' lacks '%s'", err.msg, want[i]);
        assert_int_equal(access("/tmp/tl_run_refused", F_OK), -1);
        tl_experiment_free(x);
    }
}

/* Temporary files a killed run left (.NAME.treelab.tmp in the folder and its subfolders;
 * gnuplot finishes the figure it was drawing after treelab is killed) are removed by the
 * resume and by `treelab report`, which hold the folder's lock; other files stay, a user's
 * own hidden .tmp files among them. */
static void test_stale_temporaries_swept(void **state)
{
    (void)state;
    tl_err err;
    tl_experiment *x = load(config());
    const char *dir = "/tmp/tl_run_sweep";
    static const char *const stale[] = {"/tmp/tl_run_sweep/.figure.png.treelab.tmp",
                                        "/tmp/tl_run_sweep/trees/.gone.dot.treelab.tmp"};
    static const char *const kept[] = {
        "/tmp/tl_run_sweep/notes.tmp",       "/tmp/tl_run_sweep/.x",
        "/tmp/tl_run_sweep/trees/.tmp",      "/tmp/tl_run_sweep/.draft.tex.tmp",
        "/tmp/tl_run_sweep/trees/.mine.tmp", "/tmp/tl_run_sweep/.treelab.tmp"};
    const size_t n_kept = sizeof kept / sizeof *kept;
    rm(dir);
    assert_int_equal(run(x, dir, 1, 0, 5), TL_EINTERRUPTED);
    assert_int_equal(mkdir("/tmp/tl_run_sweep/trees", 0777), 0);
    for (int round = 0; round < 2; round++) {
        for (size_t i = 0; i < 2; i++)
            fclose(fopen(stale[i], "w"));
        for (size_t i = 0; round == 0 && i < n_kept; i++)
            fclose(fopen(kept[i], "w"));
        if (round == 0)
            assert_int_equal(run(x, dir, 1, 1, 0), TL_OK);
        else
            assert_int_equal(tl_report_render(dir, &err), TL_OK);
        for (size_t i = 0; i < 2; i++)
            assert_int_equal(file_size(stale[i]), -1);
        for (size_t i = 0; i < n_kept; i++)
            assert_int_equal(file_size(kept[i]), 0);
    }
    rm(dir);
    tl_experiment_free(x);
}

/* Names reach summary.md escaped: a '|' in a model or dataset name added table cells, and
 * HTML in one was written raw into the Markdown, which viewers render. */
static void test_markdown_names_escaped(void **state)
{
    (void)state;
    char data[256], text[1024];
    snprintf(data, sizeof data, "%s",
             tl_test_tmpfile(".csv", "x,y\n1,a\n2,a\n3,a\n4,b\n5,b\n6,b\n"));
    snprintf(text, sizeof text,
             "name = \"md\"; datasets = ( { path = \"%s\"; name = \"d|*x*\"; } );\n"
             "models = ( { name = \"m|<img src=q onerror=alert(1)>\"; algorithm = \"id3\"; },\n"
             "  { name = \"nb\"; algorithm = \"gaussian_nb\"; } );\n"
             "protocol = { kind = \"cv\"; folds = 2; };\n",
             data);
    tl_experiment *x = load(tl_test_tmpfile(".cfg", text));
    const char *dir = "/tmp/tl_run_md";
    rm(dir);
    assert_int_equal(run(x, dir, 1, 0, 0), TL_OK);
    char *md = tl_test_slurp_in(dir, "summary.md");
    if (strstr(md, "<img") || strstr(md, "| m|") ||
        !strstr(md, "m\\|&lt;img src=q onerror=alert(1)&gt;") || !strstr(md, "## d\\|\\*x\\*"))
        fail_msg("%s", md);
    free(md);
    rm(dir);
    tl_experiment_free(x);
}

/* A results folder whose cells file holds the header and no cell (a run stopped before its
 * first cell) is reported, empty: the sort of its cells passed NULL to qsort (UBSan). */
static void test_report_without_cells(void **state)
{
    (void)state;
    tl_experiment *x = load(config());
    const char *dir = "/tmp/tl_run_nocells";
    rm(dir);
    assert_int_equal(run(x, dir, 1, 0, 0), TL_OK);
    assert_int_equal(system("grep '^#' /tmp/tl_run_nocells/cells.txt | grep -v '^# checksum' > "
                            "/tmp/tl_run_nocells/h && "
                            "mv /tmp/tl_run_nocells/h /tmp/tl_run_nocells/cells.txt"),
                     0);
    tl_err err;
    assert_int_equal(tl_report_render(dir, &err), TL_OK);
    assert_true(file_size("/tmp/tl_run_nocells/summary.md") > 0);
    rm(dir);
    tl_experiment_free(x);
}

/* A run asked for tl_run_done (the CLI's way: report/ after run/) writes the cells and no
 * report, and hands back the folder still locked: another run into it is refused until the
 * caller unlocks; a resume says it resumed. */
static void test_done_keeps_lock(void **state)
{
    (void)state;
    tl_experiment *x = load(config());
    const char *dir = "/tmp/tl_run_done";
    rm(dir);
    tl_err err;
    tl_run_done done = {.lock = -2};
    tl_run_opts o = {.out_dir = dir, .jobs = 1, .done = &done};
    assert_int_equal(tl_run(x, NULL, &o, &err), TL_OK);
    assert_true(done.lock >= 0);
    assert_int_equal(done.resumed, 0);
    assert_true(done.start > 0);
    assert_true(file_size("/tmp/tl_run_done/" TL_CELLS_FILE) > 0);
    assert_int_equal(access("/tmp/tl_run_done/metrics.csv", F_OK), -1);
    int fd = -1;
    assert_int_equal(tl_results_lock(dir, &fd, &err), TL_EINVAL);
    tl_run_opts again = {.out_dir = dir, .jobs = 1, .resume = 1};
    assert_int_equal(tl_run(x, NULL, &again, &err), TL_EINVAL);
    tl_results_unlock(done.lock);
    o.resume = 1;
    assert_int_equal(tl_run(x, NULL, &o, &err), TL_OK);
    assert_int_equal(done.resumed, 1);
    tl_results_unlock(done.lock);
    assert_int_equal(tl_results_lock(dir, &fd, &err), TL_OK);
    tl_results_unlock(fd);
    rm(dir);
    tl_experiment_free(x);
}

/* A folder that is neither new, empty nor treelab's is a user's: a run (or resume) into it is
 * refused before anything is written, naming a file of it and --force; nothing of it changes,
 * not even a lock file. An empty folder is taken, and --force takes the user's. */
static void test_user_folder_refused(void **state)
{
    (void)state;
    tl_experiment *x = load(config());
    const char *dir = "/tmp/tl_run_user", *mine = "/tmp/tl_run_user/tables.tex";
    rm(dir);
    assert_int_equal(mkdir(dir, 0777), 0);
    FILE *f = fopen(mine, "w");
    fputs("mine\n", f);
    fclose(f);
    for (int resume = 0; resume < 2; resume++) {
        tl_err err;
        tl_run_opts o = {.out_dir = dir, .jobs = 1, .resume = resume};
        assert_int_equal(tl_report_run(x, NULL, &o, &err), TL_EINVAL);
        if (!strstr(err.msg, "not a treelab results folder (it holds 'tables.tex'") ||
            !strstr(err.msg, "--force"))
            fail_msg("%s", err.msg);
        assert_int_equal(file_size(mine), 5);
        assert_int_equal(access("/tmp/tl_run_user/" TL_LOCK_FILE, F_OK), -1);
        assert_int_equal(access("/tmp/tl_run_user/" TL_CELLS_FILE, F_OK), -1);
        assert_false(tl_results_is_ours(dir));
    }
    tl_err err;
    tl_run_opts o = {.out_dir = dir, .jobs = 1, .force = 1};
    assert_int_equal(tl_report_run(x, NULL, &o, &err), TL_OK);
    assert_true(tl_results_is_ours(dir));
    assert_true(file_size("/tmp/tl_run_user/metrics.csv") > 0);
    rm(dir);
    assert_int_equal(mkdir(dir, 0777), 0);
    assert_int_equal(run(x, dir, 1, 0, 0), TL_OK); /* an empty folder made for the results */
    rm(dir);
    tl_experiment_free(x);
}

/* 6 rows, 4 'a' and 2 'b', 2 stratified folds: each fold tests 2 a + 1 b with a majority
 * model trained on 2 a + 1 b, so accuracy 2/3, balanced accuracy 1/2, kappa 0, macro F1
 * (0.8 + 0) / 2 = 0.4 in every fold. Every row gets p(b) = 0: log loss 15 ln 10 / 3 (the b
 * row clipped to 1e-15), ROC AUC 0.5 (one tied threshold), average precision 1/3 (the
 * precision there), Brier 1/3 (the b row's (0 - 1)^2). */
static void test_hand_checked_summary(void **state)
{
    (void)state;
    const char *data = tl_test_tmpfile(".csv", "x,y\n1,a\n2,a\n3,a\n4,a\n5,b\n6,b\n");
    char text[1024];
    snprintf(text, sizeof text,
             "name = \"h\"; datasets = ( { path = \"%s\"; name = \"tiny\"; } );\n"
             "models = ( { name = \"maj\"; algorithm = \"majority\"; } );\n"
             "protocol = { kind = \"cv\"; folds = 2; repeats = 3; }; reports = [\"confusion\"];\n",
             data);
    tl_experiment *x = load(tl_test_tmpfile(".cfg", text));
    rm("/tmp/tl_run_h");
    assert_int_equal(run(x, "/tmp/tl_run_h", 1, 0, 0), TL_OK);
    char *s = tl_test_slurp_in("/tmp/tl_run_h", "summary.csv");
    /* full precision: 2/3, 8/15 and -ln(1e-15) / 3 to the last digit of their doubles */
    assert_non_null(strstr(s, "\ntiny,maj,6,0.6666666666666666,0,0.5,0,0,0,0.4,0,"
                              "0.5333333333333333,0,11.512925464970229,0,0.5,0,0.5,0,"
                              "0.3333333333333333,0,0.3333333333333333,0,1,0,0,0,,baseline\n"));
    free(s);
    s = tl_test_slurp_in("/tmp/tl_run_h", "metrics.csv");
    assert_non_null(strstr(s, ",f1_weighted,log_loss,roc_auc_macro,roc_auc_weighted,pr_auc,"
                              "brier,leaves"));
    assert_non_null(strstr(s, "\ntiny,maj,2,1,3,3,0.6666666666666666,0.5,0,0.4,0.5333333333333333,"
                              "11.512925464970229,0.5,0.5,0.3333333333333333,0.3333333333333333,"
                              "1,0\n"));
    free(s);
    /* summary.md rounds for reading: the verdict, then accuracy, balanced accuracy, AUC */
    s = tl_test_slurp_in("/tmp/tl_run_h", "summary.md");
    assert_non_null(strstr(s, "| model | vs baseline (p) | accuracy | balanced_accuracy | "
                              "roc_auc_macro | leaves | n |\n"));
    assert_non_null(strstr(s, "\n| maj | baseline | 0.6667 ± 0.0000 | 0.5000 ± 0.0000 | "
                              "0.5000 ± 0.0000 | 1.00 ± 0.00 | 6 |\n"));
    free(s);
    s = tl_test_slurp_in("/tmp/tl_run_h", "confusion/tiny__maj.csv");
    assert_string_equal(s, "truth\\predicted,a,b\na,12,0\nb,6,0\n\nclass,precision,recall,f1\n"
                           "a,0.6667,1.0000,0.8000\nb,0.0000,0.0000,0.0000\n");
    free(s);
    rm("/tmp/tl_run_h");
    tl_experiment_free(x);
}

/* The tests beyond the t-test in summary.md: on a hold-out of a separable set naive Bayes
 * (the baseline) gets every test row right, so McNemar's n01 (rows only the majority model
 * gets wrong) is its errors, n_test (1 - accuracy) from metrics.csv, and n10 = 0. Two
 * datasets give the Wilcoxon and Holm table: the majority model is worse on both (R+ = 0,
 * R- = 1 + 2) and ranks 2 against 1, z = 1 / sqrt(2 * 3 / (6 * 2)) = sqrt 2. */
static void test_summary_baseline_tests(void **state)
{
    (void)state;
    const char *data = tl_test_tmpfile(".csv", "x,y\n1,a\n2,a\n3,a\n4,a\n5,a\n6,a\n7,a\n"
                                               "8,a\n9,a\n10,a\n21,b\n22,b\n23,b\n24,b\n"
                                               "25,b\n26,b\n27,b\n28,b\n29,b\n30,b\n");
    char text[1024];
    snprintf(text, sizeof text,
             "name = \"t\"; seed = 2; datasets = ( { path = \"%s\"; name = \"sep\"; },\n"
             "  { path = \"%s\"; name = \"sep2\"; } );\n"
             "models = ( { name = \"maj\"; algorithm = \"majority\"; },\n"
             "  { name = \"nb\"; algorithm = \"gaussian_nb\"; } );\n"
             "protocol = { kind = \"holdout\"; train = 0.5; validation = 0.0; test = 0.5; "
             "repeats = 2; stratified = false; };\nbaseline = \"nb\";\n",
             data, data);
    tl_experiment *x = load(tl_test_tmpfile(".cfg", text));
    rm("/tmp/tl_run_t");
    assert_int_equal(run(x, "/tmp/tl_run_t", 1, 0, 0), TL_OK);
    char *m = tl_test_slurp_in("/tmp/tl_run_t", "metrics.csv"),
         *s = tl_test_slurp_in("/tmp/tl_run_t", "summary.md");
    double acc_maj, acc_nb;
    size_t n_test;
    char *at = strstr(m, "\nsep,maj,0,0,");
    assert_non_null(at);
    assert_int_equal(sscanf(at, "\nsep,maj,0,0,%*u,%zu,%lf", &n_test, &acc_maj), 2);
    at = strstr(m, "\nsep,nb,0,0,");
    assert_non_null(at);
    assert_int_equal(sscanf(at, "\nsep,nb,0,0,%*u,%*u,%lf", &acc_nb), 1);
    assert_close(acc_nb, 1, 0);
    unsigned long n01 = (unsigned long)lround((double)n_test * (1 - acc_maj));
    assert_true(n01 > 0);
    tl_mcnemar t;
    tl_mcnemar_test(n01, 0, &t);
    char want[256];
    snprintf(want, sizeof want, "sep:\n\n| model | n01 | n10 | chi² | p | exact p |");
    assert_non_null(strstr(s, want));
    snprintf(want, sizeof want, "| maj | %lu | 0 | %.4f | %.4g | %.4g |", n01, t.chi2, t.p_chi2,
             t.p_exact);
    assert_non_null(strstr(s, want));
    assert_non_null(strstr(s, "| maj | 0.0 | 3.0 | "));
    assert_non_null(strstr(s, " | 1.414 | 0.1573 | kept | kept |\n"));
    free(m);
    free(s);
    rm("/tmp/tl_run_t");
    tl_experiment_free(x);
}

int main(void)
{
    probe = majority;
    probe.name = "probe";
    probe.show = probe_show;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_jobs_and_reruns_identical),
        cmocka_unit_test(test_largest_first),
        cmocka_unit_test(test_resume),
        cmocka_unit_test(test_resume_config_identity),
        cmocka_unit_test(test_control_character_in_class),
        cmocka_unit_test(test_results_folder_lock),
        cmocka_unit_test(test_report_on_other_folder),
        cmocka_unit_test(test_report_crafted_cells),
        cmocka_unit_test(test_csv_quoting),
        cmocka_unit_test(test_report_phase_stops_cleanly),
        cmocka_unit_test(test_stale_temporaries_swept),
        cmocka_unit_test(test_refused_run_leaves_no_folder),
        cmocka_unit_test(test_user_folder_refused),
        cmocka_unit_test(test_done_keeps_lock),
        cmocka_unit_test(test_report_without_cells),
        cmocka_unit_test(test_markdown_names_escaped),
        cmocka_unit_test(test_hand_checked_summary),
        cmocka_unit_test(test_summary_baseline_tests),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
