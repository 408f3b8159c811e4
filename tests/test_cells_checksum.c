/* The cells file's checksum line: written by run, a shard, --resume and merge over the cell
 * lines in their canonical order (so not by the order threads wrote them in); merge and
 * report refuse a file whose cells were edited, removed or cut, naming the file and line.
 * Confusion matrices must add up to the test rows, or to the test weight the cell records. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tl_test_util.h"
#include "treelab/tl_cells.h"
#include "treelab/tl_report.h"
#include "treelab/tl_runner.h"
#include "treelab/tl_scale.h"

#define ROOT "/tmp/tl_cells_sum"

static void rm(const char *dir)
{
    char cmd[512];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    assert_int_equal(system(cmd), 0);
}

static void sh(const char *cmd)
{
    if (system(cmd) != 0)
        fail_msg("failed: %s", cmd);
}

/* iris under 3-fold CV with two learners: 6 cells; weighted adds a weight column. */
static tl_experiment *experiment(int weighted)
{
    const char *cfg;
    if (!weighted)
        cfg = tl_test_tmpfile(
            ".cfg", "name = \"sum\"; seed = 4;\n"
                    "datasets = ( \"" TL_SOURCE_DIR "/experiments/datasets/iris.arff\" );\n"
                    "models = ( { name = \"nb\"; algorithm = \"gaussian_nb\"; },\n"
                    "  { name = \"tree\"; algorithm = \"cart\"; } );\n"
                    "protocol = { kind = \"cv\"; folds = 3; };\n");
    else {
        char data[2048] = "x,w,y\n", text[1024];
        for (int i = 0; i < 30; i++) /* weights 1 to 3: the sums are not the row counts */
            snprintf(data + strlen(data), sizeof data - strlen(data), "%d,%d,%c\n", i, 1 + i % 3,
                     i % 2 ? 'a' : 'b');
        snprintf(text, sizeof text,
                 "name = \"w\"; seed = 4;\n"
                 "datasets = ( { path = \"%s\"; target = \"y\"; weight = \"w\"; } );\n"
                 "models = ( { name = \"nb\"; algorithm = \"gaussian_nb\"; } );\n"
                 "protocol = { kind = \"cv\"; folds = 3; };\n",
                 tl_test_tmpfile(".csv", data));
        cfg = tl_test_tmpfile(".cfg", text);
    }
    tl_err err;
    tl_experiment *x = tl_experiment_load(cfg, NULL, &err);
    if (!x)
        fail_msg("%s", err.msg);
    return x;
}

static int run(const tl_experiment *x, const char *dir, size_t jobs, int resume, size_t max,
               size_t shard, size_t n_shards, tl_err *err)
{
    tl_run_opts o = {.out_dir = dir, .jobs = jobs, .resume = resume, .max_cells = max};
    tl_run_scale sc = {.shard = shard, .n_shards = n_shards};
    tl_err_clear(err);
    return tl_run_scaled(x, NULL, &o, &sc, err);
}

/* Read dir's cells file: the code, with the message in err. */
static int read_cells(const char *dir, tl_cells_meta *meta, size_t *n, tl_err *err)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", dir, TL_CELLS_FILE);
    tl_cell *cells = NULL;
    int rc = tl_cells_read(path, meta, &cells, n, NULL, err);
    for (size_t i = 0; i < *n; i++)
        tl_cell_clear(&cells[i]);
    free(cells);
    return rc;
}

/* dir's cells file reads, in format, with its checksum line verified (checked 1) or not, and
 * n cells. */
static void assert_reads(const char *dir, int format, int checked, size_t n_cells)
{
    tl_cells_meta meta;
    size_t n = 0;
    tl_err err;
    if (read_cells(dir, &meta, &n, &err))
        fail_msg("%s", err.msg);
    assert_int_equal(meta.format, format);
    assert_int_equal(meta.checked, checked);
    assert_int_equal(n, n_cells);
    tl_cells_meta_clear(&meta);
}

static void expect_refused(const char *dir, const char *want)
{
    tl_cells_meta meta;
    size_t n = 0;
    tl_err err;
    assert_int_equal(read_cells(dir, &meta, &n, &err), TL_EPARSE);
    if (!strstr(err.msg, want))
        fail_msg("'%s' lacks '%s'", err.msg, want);
}

static char *last_line(const char *dir)
{
    char *t = tl_test_slurp_in(dir, TL_CELLS_FILE);
    size_t len = strlen(t);
    assert_true(len > 1 && t[len - 1] == '\n');
    t[len - 1] = '\0';
    char *nl = strrchr(t, '\n');
    char *line = strdup(nl ? nl + 1 : t);
    free(t);
    return line;
}

/* A finished run ends in its checksum line, which verifies; with the cell lines in another
 * order (threads finish in any) it still does: the sum is over the canonical order. */
static void test_run_sealed_any_order(void **state)
{
    (void)state;
    tl_err err;
    tl_experiment *x = experiment(0);
    rm(ROOT);
    assert_int_equal(run(x, ROOT "/a", 2, 0, 0, 0, 0, &err), TL_OK);
    char *last = last_line(ROOT "/a");
    assert_int_equal(strncmp(last, "# checksum sha256 6 ", 20), 0);
    assert_int_equal(strlen(last), 20 + 64);
    assert_reads(ROOT "/a", 2, 1, 6);
    /* the header, the cell lines reversed, the checksum line */
    sh("cd " ROOT "/a && { grep '^#' cells.txt | grep -v '^# checksum'; grep -v '^#' cells.txt "
       "| tac; grep '^# checksum' cells.txt; } > c2 && ! cmp -s c2 cells.txt && mv c2 cells.txt");
    assert_reads(ROOT "/a", 2, 1, 6);
    free(last);
    rm(ROOT);
    tl_experiment_free(x);
}

/* Edits after the run: an in-range value changed (the checksum line's number named), a cell
 * line removed, a line after the checksum line, a malformed checksum line, and a confusion
 * count that no longer adds up to n_test (named at its own line, before the sum). */
static void test_edits_refused(void **state)
{
    (void)state;
    tl_err err;
    tl_experiment *x = experiment(0);
    rm(ROOT);
    assert_int_equal(run(x, ROOT "/a", 1, 0, 0, 0, 0, &err), TL_OK);
    sh("cp " ROOT "/a/cells.txt " ROOT "/saved");
    char *cells = tl_test_slurp_in(ROOT "/a", TL_CELLS_FILE);
    int lines = 0, first_cell = 0;
    for (char *p = cells; *p; p = strchr(p, '\n') + 1) {
        lines++;
        first_cell = !first_cell && *p != '#' ? lines : first_cell;
    }
    free(cells);
    char want[256], cmd[512];
    enum { FIRST_CELL, LAST_LINE, AFTER_LAST, LAST_LINE_BUT_ONE };
    static const struct {
        int edit, named; /* the line edited (FIRST_CELL or LAST_LINE), the line named */
        const char *sed, *want;
    } cases[] = {
        /* fit_s (the 10th field) 0.5: in range, so only the checksum sees it */
        {FIRST_CELL, LAST_LINE, "s/^\\(\\([^\t]*\t\\)\\{9\\}\\)[^\t]*/\\10.5/",
         "the checksum of the 6 cells"},
        {FIRST_CELL, LAST_LINE_BUT_ONE, "d",
         "the checksum line counts 6 cells and the file holds 5"},
        {LAST_LINE, AFTER_LAST, "a 0 0 0 0", "a line after the checksum line"},
        {LAST_LINE, LAST_LINE, "s/sha256 6 /sha256 6 x/", "bad checksum line"},
        /* the first confusion count (field 23) gets a digit more: 50 test rows, more counted */
        {FIRST_CELL, FIRST_CELL, "s/^\\(\\([^\t]*\t\\)\\{22\\}\\)\\([0-9]*\\)/\\1\\31/",
         "bad cell line: the confusion counts add up to"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        char addr[16] = "$";
        if (cases[i].edit == FIRST_CELL)
            snprintf(addr, sizeof addr, "%d", first_cell);
        snprintf(cmd, sizeof cmd, "cp %s/saved %s/a/cells.txt && sed -i '%s%s' %s/a/cells.txt",
                 ROOT, ROOT, addr, cases[i].sed, ROOT);
        sh(cmd);
        int named = cases[i].named;
        int line = named == FIRST_CELL   ? first_cell
                   : named == LAST_LINE  ? lines
                   : named == AFTER_LAST ? lines + 1
                                         : lines - 1;
        snprintf(want, sizeof want, "cells.txt:%d: %s", line, cases[i].want);
        expect_refused(ROOT "/a", want);
        /* report says the same */
        char errbuf[1024];
        assert_int_equal(tl_test_cli("report " ROOT "/a", NULL, 0, errbuf, sizeof errbuf), 1);
        if (!strstr(errbuf, want))
            fail_msg("case %zu: '%s' lacks '%s'", i, errbuf, want);
    }
    /* a file written before checksums (format 1, no checksum line) still reads, unverified */
    sh("cp " ROOT "/saved " ROOT "/a/cells.txt && sed -i -e '1s/cells 2/cells 1/' -e '$d' " ROOT
       "/a/cells.txt");
    assert_reads(ROOT "/a", 1, 0, 6);
    char errbuf[1024];
    assert_int_equal(tl_test_cli("report " ROOT "/a", NULL, 0, errbuf, sizeof errbuf), 0);
    assert_non_null(strstr(errbuf, "was written before cells files carried a checksum"));
    rm(ROOT);
    tl_experiment_free(x);
}

/* An interrupted run has no checksum line (report says so); --resume appends where it would
 * be and writes it at the end; resuming a finished run leaves the file byte for byte. */
static void test_resume_seals(void **state)
{
    (void)state;
    tl_err err;
    tl_experiment *x = experiment(0);
    rm(ROOT);
    assert_int_equal(run(x, ROOT "/a", 2, 0, 2, 0, 0, &err), TL_EINTERRUPTED);
    char *last = last_line(ROOT "/a");
    assert_int_not_equal(last[0], '#');
    free(last);
    char errbuf[1024];
    assert_int_equal(tl_test_cli("report " ROOT "/a", NULL, 0, errbuf, sizeof errbuf), 0);
    assert_non_null(strstr(errbuf, "does not end in its checksum line: its run did not finish"));
    assert_int_equal(run(x, ROOT "/a", 1, 1, 0, 0, 0, &err), TL_OK);
    last = last_line(ROOT "/a");
    assert_int_equal(strncmp(last, "# checksum sha256 6 ", 20), 0);
    free(last);
    assert_reads(ROOT "/a", 2, 1, 6);
    char *before = tl_test_slurp_in(ROOT "/a", TL_CELLS_FILE);
    assert_int_equal(run(x, ROOT "/a", 1, 1, 0, 0, 0, &err), TL_OK);
    char *after = tl_test_slurp_in(ROOT "/a", TL_CELLS_FILE);
    assert_string_equal(before, after);
    free(before);
    free(after);
    rm(ROOT);
    tl_experiment_free(x);
}

static int merge(const tl_experiment *x, const char *const *dirs, size_t n, const char *out,
                 tl_err *err)
{
    tl_run_opts o = {.out_dir = out, .jobs = 1};
    tl_err_clear(err);
    return tl_merge(dirs, n, x, NULL, &o, err);
}

/* Shards: a shard cut before its checksum line is refused by merge (with the cells it lacks,
 * or, with all of them, for the missing line); resumed, it merges, and the merged file ends
 * in the checksum of all the cells. */
static void test_shards_sealed(void **state)
{
    (void)state;
    tl_err err;
    tl_experiment *x = experiment(0);
    rm(ROOT);
    assert_int_equal(run(x, ROOT "/s1", 1, 0, 0, 1, 2, &err), TL_OK);
    assert_int_equal(run(x, ROOT "/s2", 2, 0, 0, 2, 2, &err), TL_OK);
    const char *dirs[] = {ROOT "/s1", ROOT "/s2"};
    sh("cp " ROOT "/s2/cells.txt " ROOT "/saved && sed -i '$d' " ROOT "/s2/cells.txt");
    assert_int_equal(merge(x, dirs, 2, ROOT "/m", &err), TL_EINVAL);
    if (!strstr(err.msg, ROOT "/s2/cells.txt does not end in its checksum line"))
        fail_msg("%s", err.msg);
    sh("sed -i '$d' " ROOT "/s2/cells.txt"); /* and a cell */
    assert_int_equal(merge(x, dirs, 2, ROOT "/m", &err), TL_EINVAL);
    if (!strstr(err.msg, "1 cells are missing; shard 2/2"))
        fail_msg("%s", err.msg);
    sh("cp " ROOT "/saved " ROOT "/s2/cells.txt && sed -i '$s/ [0-9a-f]*$/ " /* a wrong sum */
       "0000000000000000000000000000000000000000000000000000000000000000/' " ROOT "/s2/cells.txt");
    assert_int_equal(merge(x, dirs, 2, ROOT "/m", &err), TL_EPARSE);
    if (!strstr(err.msg, ROOT "/s2/cells.txt:") || !strstr(err.msg, "is not the one the run"))
        fail_msg("%s", err.msg);
    sh("cp " ROOT "/saved " ROOT "/s2/cells.txt && sed -i '$d' " ROOT "/s2/cells.txt");
    assert_int_equal(run(x, ROOT "/s2", 1, 1, 0, 2, 2, &err), TL_OK);
    char *a = tl_test_slurp_in(ROOT, "saved"), *b = tl_test_slurp_in(ROOT "/s2", TL_CELLS_FILE);
    assert_string_equal(a, b); /* the resume wrote the same checksum line */
    free(a), free(b);
    assert_int_equal(merge(x, dirs, 2, ROOT "/m", &err), TL_OK);
    char *last = last_line(ROOT "/m");
    assert_int_equal(strncmp(last, "# checksum sha256 6 ", 20), 0);
    free(last);
    assert_reads(ROOT "/m", 2, 1, 6);
    rm(ROOT);
    tl_experiment_free(x);
}

/* Weighted data: a cell records its test weight, which its confusion matrix adds up to (not
 * to n_test); an edited weight is refused at its line. */
static void test_weighted_sums(void **state)
{
    (void)state;
    tl_err err;
    tl_experiment *x = experiment(1);
    rm(ROOT);
    assert_int_equal(run(x, ROOT "/w", 1, 0, 0, 0, 0, &err), TL_OK);
    char *cells = tl_test_slurp_in(ROOT "/w", TL_CELLS_FILE);
    /* 30 rows of weights 1, 2, 3 (sum 60) dealt over 3 folds */
    double total = 0;
    for (char *p = strstr(cells, "\tweight\t"); p; p = strstr(p + 1, "\tweight\t"))
        total += strtod(p + 8, NULL);
    assert_true(total == 60);
    free(cells);
    assert_reads(ROOT "/w", 2, 1, 3);
    sh("sed -i '0,/\\tweight\\t/s/\\tweight\\t[0-9.e+-]*/\\tweight\\t7/' " ROOT "/w/cells.txt");
    expect_refused(ROOT "/w", "not to the test weight 7");
    rm(ROOT);
    tl_experiment_free(x);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_run_sealed_any_order), cmocka_unit_test(test_edits_refused),
        cmocka_unit_test(test_resume_seals),         cmocka_unit_test(test_shards_sealed),
        cmocka_unit_test(test_weighted_sums),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
