/* A run's memory does not grow with the cells it finished: a finished cell's results are in
 * the cells file, and the cell keeps only its indices (each held ~3.7 KB of ROC and
 * calibration bins until the end, so a large grid ran out of memory). */
#include <malloc.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "tl_test_util.h"
#include "treelab/tl_experiment.h"
#include "treelab/tl_runner.h"

#define CELLS 2000

typedef struct {
    size_t at_100, at_end; /* heap bytes in use when 100 and every cell were done */
} sampled;

static void progress(size_t done, size_t total, double elapsed, void *user)
{
    (void)elapsed;
    sampled *s = user;
    if (done == 100)
        s->at_100 = mallinfo2().uordblks;
    if (done == total)
        s->at_end = mallinfo2().uordblks;
}

static void test_memory_per_finished_cell(void **state)
{
    (void)state;
#if defined(__SANITIZE_ADDRESS__)
    skip(); /* the sanitizer's allocator keeps no mallinfo */
#endif
    char cfg[1024];
    snprintf(cfg, sizeof cfg,
             "name = \"mem\";\n"
             "datasets = ( \"%s\" );\n"
             "models = ( { name = \"nb\"; algorithm = \"gaussian_nb\"; } );\n"
             "protocol = { kind = \"cv\"; folds = 2; repeats = %d; };\n",
             tl_test_path("experiments/datasets/iris.arff"), CELLS / 2);
    char path[512];
    snprintf(path, sizeof path, "%s", tl_test_tmpfile(".cfg", cfg));
    tl_err err;
    tl_experiment *x = tl_experiment_load(path, NULL, &err);
    if (!x)
        fail_msg("%s", err.msg);
    char dir[256];
    snprintf(dir, sizeof dir, "/tmp/tl_run_memory_%d", (int)getpid());
    sampled s = {0, 0};
    tl_run_opts o = {.out_dir = dir, .jobs = 1, .progress = progress, .progress_user = &s};
    if (tl_run(x, NULL, &o, &err))
        fail_msg("%s", err.msg);
    assert_true(s.at_100 > 0 && s.at_end > 0);
    double per_cell = ((double)s.at_end - (double)s.at_100) / (CELLS - 100);
    print_message("heap growth per finished cell: %.1f bytes\n", per_cell);
    assert_true(per_cell < 64); /* 3,700 before */
    tl_experiment_free(x);
    remove(path);
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    assert_int_equal(system(cmd), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_memory_per_finished_cell),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
