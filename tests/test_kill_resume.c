/* Kill and resume: `treelab run` killed with SIGKILL at points chosen by its observed progress
 * (cells written, the report phase begun, a figure half-rendered), then resumed with --resume
 * until it finishes, ends with the same results folder as an uninterrupted run: every file
 * byte-identical but for the timings (cells.txt, timings.csv, the manifest's times), and no
 * file more or less (no temporary file left behind). */
#define _XOPEN_SOURCE 700 /* nftw */
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "tl_test_util.h"
#include "treelab/tl_plot.h"

static char work[64]; /* the test's temporary folder */
static char cfg[128], log_path[128];

/* The experiment: 2 datasets x 3 models x 5 folds x 2 repeats = 60 cells, with figures so
 * that the report phase runs gnuplot a while. The soft tree's epochs make every stretch of
 * cells slow enough (tens of ms each) that a kill on observed progress lands well before the
 * cells run out; the c45 cells are the quick ones. */
#define TOTAL_CELLS 60
static const char config_text[] =
    "name = \"kill\";\nseed = 11;\n"
    "datasets = ( \"" TL_SOURCE_DIR "/experiments/datasets/vote.arff\",\n"
    "  \"" TL_SOURCE_DIR "/experiments/datasets/diabetes.arff\" );\n"
    "models = ( { name = \"c45\"; algorithm = \"c45\"; },\n"
    "  { name = \"cart\"; algorithm = \"cart\"; params = { prune = \"cv\"; }; },\n"
    "  { name = \"soft\"; algorithm = \"soft_tree\"; params = { epochs = 600; depth = 3; }; } );\n"
    "protocol = { kind = \"cv\"; folds = 5; repeats = 2; };\n"
    "reports = [ \"confusion\", \"trees\", \"trace\" ];\n"
    "plots = [ \"accuracy\", \"confusion\" ];\n";

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 1 << 16, n = 0, got;
    char *s = malloc(cap + 1);
    while (s && (got = fread(s + n, 1, cap - n, f)) > 0) {
        n += got;
        if (n == cap)
            s = realloc(s, (cap *= 2) + 1);
    }
    fclose(f);
    if (s)
        s[n] = '\0';
    if (len)
        *len = n;
    return s;
}

/* Complete cell lines in DIR/cells.txt (a line cut short by a kill does not count). */
static size_t cells_written(const char *dir)
{
    char path[256];
    snprintf(path, sizeof path, "%s/cells.txt", dir);
    char *s = slurp(path, NULL);
    size_t n = 0;
    for (char *p = s; p && *p;) {
        char *nl = strchr(p, '\n');
        if (!nl)
            break;
        n += *p != '#';
        p = nl + 1;
    }
    free(s);
    return n;
}

static int exists(const char *dir, const char *name)
{
    char path[256];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    return access(path, F_OK) == 0;
}

/* A report file being written (a hidden NAME.tmp) in DIR/plots: gnuplot rendering. */
static int figure_in_progress(const char *dir)
{
    char path[256];
    snprintf(path, sizeof path, "%s/plots", dir);
    return tl_test_temporaries(path) > 0;
}

/* Start `treelab run CONFIG --out DIR --jobs 2 --quiet [--resume]` in a process group of
 * its own (so that a kill takes its gnuplot too); stderr appends to the log. */
static pid_t start(const char *dir, int resume)
{
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        setpgid(0, 0);
        int out = open("/dev/null", O_WRONLY), err = open(log_path, O_WRONLY | O_APPEND);
        dup2(out, 1);
        dup2(err, 2);
        execl(TL_CLI, "treelab", "run", cfg, "--out", dir, "--jobs", "2", "--quiet",
              resume ? "--resume" : (char *)NULL, (char *)NULL);
        _exit(127);
    }
    setpgid(pid, pid);
    return pid;
}

static void show_log(void)
{
    char *s = slurp(log_path, NULL);
    print_error("treelab's stderr:\n%s\n", s ? s : "(none)");
    free(s);
}

typedef int (*ready_fn)(const char *dir, size_t arg);
static int cells_at_least(const char *dir, size_t n)
{
    return cells_written(dir) >= n;
}
static int rendering(const char *dir, size_t n)
{
    (void)n;
    return figure_in_progress(dir);
}

/* Run (or resume) into dir and kill it with SIGKILL as soon as ready(dir, arg) holds: its
 * whole process group, or with alone set treelab alone (as `kill -9 PID` does: its gnuplot
 * finishes the figure it was drawing). The run must still be going then (it must not have
 * finished on its own), and must die of the kill. */
static void run_and_kill(const char *dir, int resume, ready_fn ready, size_t arg, int alone,
                         const char *what)
{
    pid_t pid = start(dir, resume);
    double t0 = now_s();
    int st;
    for (;;) {
        pid_t w = waitpid(pid, &st, WNOHANG);
        if (w == pid) {
            show_log();
            fail_msg("%s: the run ended (status %d) before the kill; %zu cells were written", what,
                     st, cells_written(dir));
        }
        if (ready(dir, arg))
            break;
        if (now_s() - t0 > 120) {
            kill(-pid, SIGKILL);
            waitpid(pid, &st, 0);
            fail_msg("%s: not reached in 120 s", what);
        }
        struct timespec ms = {0, 1000000};
        nanosleep(&ms, NULL);
    }
    kill(alone ? pid : -pid, SIGKILL);
    assert_int_equal(waitpid(pid, &st, 0), pid);
    if (!WIFSIGNALED(st) || WTERMSIG(st) != SIGKILL) {
        show_log();
        fail_msg("%s: the run was not killed (status %d)", what, st);
    }
    /* the manifest is the last file a run writes: its absence says the kill came first */
    if (exists(dir, "manifest"))
        fail_msg("%s: the run had written its manifest before the kill", what);
    /* the resume starts once no gnuplot of the killed run is left to write into the folder */
    while (kill(-pid, 0) == 0) {
        struct timespec ms = {0, 1000000};
        nanosleep(&ms, NULL);
    }
}

static void run_to_end(const char *dir, int resume)
{
    pid_t pid = start(dir, resume);
    int st;
    assert_int_equal(waitpid(pid, &st, 0), pid);
    if (!WIFEXITED(st) || WEXITSTATUS(st) != 0) {
        show_log();
        fail_msg("treelab run%s into %s: status %d", resume ? " --resume" : "", dir, st);
    }
}

/* ---- comparing two results folders ---- */

static char *files[2][256];
static size_t n_files[2];
static int which;
static size_t root_len;

static int collect(const char *path, const struct stat *sb, int type, struct FTW *ftw)
{
    (void)sb, (void)ftw;
    if (type == FTW_F && n_files[which] < 256)
        files[which][n_files[which]++] = strdup(path + root_len);
    return 0;
}

static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Every file below dir (hidden ones too), as paths relative to it, sorted. */
static void list(int k, const char *dir)
{
    which = k, root_len = strlen(dir);
    n_files[k] = 0;
    assert_int_equal(nftw(dir, collect, 16, FTW_PHYS), 0);
    qsort(files[k], n_files[k], sizeof *files[k], by_name);
}

/* s with every occurrence of from replaced by to (a new string). */
static char *replace(const char *s, const char *from, const char *to)
{
    size_t lf = strlen(from), lt = strlen(to), n = 0;
    for (const char *p = s; (p = strstr(p, from)); p += lf)
        n++;
    char *out = malloc(strlen(s) + n * (lt > lf ? lt - lf : 0) + 1), *o = out;
    for (const char *p = s, *q; (q = strstr(p, from)) || *p; p = q + lf) {
        if (!q) {
            strcpy(o, p);
            return out;
        }
        memcpy(o, p, (size_t)(q - p));
        o += q - p;
        memcpy(o, to, lt);
        o += lt;
    }
    *o = '\0';
    return out;
}

/* The text with what may differ between two runs of one experiment blanked: the cells'
 * fit and predict seconds (fields 10 and 11 of a cell line; cells are then sorted, as a
 * resumed run appends them in another order) and so the checksum line's sum (its count
 * stays), timings.csv's last two columns, the
 * manifest's start, end and resumed lines. */
static int by_line(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static char *normalise(const char *name, char *text)
{
    int cells = !strcmp(name, "/cells.txt"), timings = !strcmp(name, "/timings.csv");
    int manifest = !strcmp(name, "/manifest");
    if (!cells && !timings && !manifest)
        return text;
    char *lines[1024];
    size_t n = 0;
    for (char *p = strtok(text, "\n"); p && n < 1024; p = strtok(NULL, "\n")) {
        if (manifest &&
            (!strncmp(p, "start: ", 7) || !strncmp(p, "end: ", 5) || !strncmp(p, "resumed: ", 9)))
            continue;
        if (cells && !strncmp(p, "# checksum sha256 ", 18)) /* its sum covers the timings */
            *strrchr(p, ' ') = '\0';
        if (cells && *p != '#') { /* drop tab fields 9 and 10 (0-based), in place */
            char *t = p, *u;
            for (int f = 0; f < 9 && t; f++)
                t = strchr(t, '\t') ? strchr(t, '\t') + 1 : NULL;
            u = t ? strchr(t, '\t') : NULL;
            u = u ? strchr(u + 1, '\t') : NULL;
            if (u)
                memmove(t, u + 1, strlen(u + 1) + 1);
        }
        if (timings) { /* cut the last two columns */
            for (int f = 0; f < 2; f++)
                if (strrchr(p, ','))
                    *strrchr(p, ',') = '\0';
        }
        lines[n++] = p;
    }
    if (cells)
        qsort(lines, n, sizeof *lines, by_line);
    size_t len = 0;
    for (size_t i = 0; i < n; i++)
        len += strlen(lines[i]) + 1;
    char *out = malloc(len + 1), *o = out;
    for (size_t i = 0; i < n; i++)
        o += sprintf(o, "%s\n", lines[i]);
    *o = '\0';
    free(text);
    return out;
}

static void assert_same_results(const char *a, const char *b)
{
    list(0, a);
    list(1, b);
    for (size_t i = 0; i < n_files[0] || i < n_files[1]; i++) {
        const char *x = i < n_files[0] ? files[0][i] : "(none)";
        const char *y = i < n_files[1] ? files[1][i] : "(none)";
        if (strcmp(x, y))
            fail_msg("file %zu: %s in the uninterrupted run, %s in the resumed one", i, x, y);
    }
    for (size_t i = 0; i < n_files[0]; i++) {
        const char *name = files[0][i];
        char pa[512], pb[512];
        snprintf(pa, sizeof pa, "%s%s", a, name);
        snprintf(pb, sizeof pb, "%s%s", b, name);
        size_t la, lb;
        char *ta = slurp(pa, &la), *tb = slurp(pb, &lb);
        assert_non_null(ta);
        assert_non_null(tb);
        int text = memchr(ta, '\0', la) == NULL && memchr(tb, '\0', lb) == NULL;
        if (text) { /* figure scripts name their folder */
            char *ra = replace(ta, a, "RESULTS"), *rb = replace(tb, b, "RESULTS");
            free(ta), free(tb);
            ta = normalise(name, ra), tb = normalise(name, rb);
            la = strlen(ta), lb = strlen(tb);
        }
        if (la != lb || memcmp(ta, tb, la))
            fail_msg("%s differs between the uninterrupted and the resumed run", name);
        free(ta);
        free(tb);
    }
    for (int k = 0; k < 2; k++)
        for (size_t i = 0; i < n_files[k]; i++)
            free(files[k][i]);
}

static void test_kill_and_resume(void **state)
{
    (void)state;
    char whole[128], part[128];
    snprintf(whole, sizeof whole, "%s/whole", work);
    snprintf(part, sizeof part, "%s/part", work);
    double t0 = now_s();
    run_to_end(whole, 0);
    assert_int_equal(cells_written(whole), TOTAL_CELLS);
    /* in the cells phase, early, midway and late. Cells are planned dataset by dataset,
     * model by model (c45, cart, soft): the last kill point leaves 24 cells to do, 20 of them
     * slow ones (~0.5 s of work on 2 threads), against a poll every millisecond */
    run_and_kill(part, 0, cells_at_least, 4, 0, "kill after 4 cells");
    size_t a = cells_written(part);
    run_and_kill(part, 1, cells_at_least, 20, 0, "kill after 20 cells");
    size_t b = cells_written(part);
    run_and_kill(part, 1, cells_at_least, 36, 0, "kill after 36 cells");
    size_t c = cells_written(part);
    assert_true(a < b && b < c && c < TOTAL_CELLS);
    /* in the report phase: as soon as the last cell is written (the whole-data models are
     * being fitted), and treelab alone with a figure half-rendered (a temporary file in
     * plots/, which its gnuplot then completes) */
    run_and_kill(part, 1, cells_at_least, TOTAL_CELLS, 0, "kill when the cells are done");
    if (tl_plot_found(tl_plot_gnuplot())) {
        /* a loaded machine can finish the figure and rename it between the poll that saw
         * its temporary and the kill: that kill proves nothing, so try again (the figures
         * left are many) until one leaves a temporary for the resume to remove */
        int left = 0;
        for (int attempt = 0; attempt < 3 && !left; attempt++) {
            run_and_kill(part, 1, rendering, 0, 1, "kill while gnuplot renders");
            left = figure_in_progress(part);
        }
        assert_true(left);
    }
    run_to_end(part, 1);
    assert_same_results(whole, part);
    print_message("kill and resume: cells at the kills %zu, %zu, %zu; %.1f s\n", a, b, c,
                  now_s() - t0);
}

static int remove_one(const char *path, const struct stat *sb, int type, struct FTW *ftw)
{
    (void)sb, (void)type, (void)ftw;
    return remove(path);
}

static int setup(void **state)
{
    (void)state;
    snprintf(work, sizeof work, "/tmp/tl_kill_resume_XXXXXX");
    if (!mkdtemp(work))
        return -1;
    snprintf(cfg, sizeof cfg, "%s/kill.cfg", work);
    snprintf(log_path, sizeof log_path, "%s/stderr.log", work);
    FILE *f = fopen(cfg, "w"), *g = fopen(log_path, "w");
    if (!f || !g)
        return -1;
    fputs(config_text, f);
    fclose(f);
    fclose(g);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    if (getenv("TL_KILL_KEEP"))
        return 0;
    return nftw(work, remove_one, 16, FTW_DEPTH | FTW_PHYS);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_kill_and_resume),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
