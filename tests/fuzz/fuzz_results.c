/* libFuzzer harness: results folders. The input is a cells.txt; `report` renders its folder
 * and `merge` takes it as the only shard of a fixed experiment (the corpus's config). */
#include "fuzz_util.h"

#include <stdio.h>
#include <string.h>

#include "treelab/tl_experiment.h"
#include "treelab/tl_log.h"
#include "treelab/tl_report.h"
#include "treelab/tl_scale.h"

/* The experiment the seeds in tests/fuzz/corpus/results were run from (their config line
 * names its copy, cfg/fz.cfg). */
static const char config[] =
    "name = \"fz\";\n"
    "seed = 3;\n"
    "datasets = ( \"../experiments/datasets/weather.nominal.arff\" );\n"
    "models = ( { name = \"nb\"; algorithm = \"gaussian_nb\"; },\n"
    "           { name = \"tree\"; algorithm = \"cart\"; params = { max_depth = 2; }; } );\n"
    "protocol = { kind = \"cv\"; folds = 2; repeats = 2; };\n";

static tl_experiment *experiment(void)
{
    static tl_experiment *x;
    if (x)
        return x;
    const char *path = tl_fuzz_path("cfg/fz.cfg");
    FILE *f = fopen(path, "w");
    if (!f || fputs(config, f) < 0 || fclose(f))
        tl_fuzz_fail("cannot write %s", path);
    tl_err err = {0};
    if (!(x = tl_experiment_load(path, NULL, &err)))
        tl_fuzz_fail("the fixed experiment: %s", err.msg);
    return x;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    tl_log_set_hook(NULL, NULL);
    tl_experiment *x = experiment();
    /* a fresh folder: the last input's reports would make this one's look like a damaged
     * treelab folder */
    char dir[4096], out[4096];
    snprintf(dir, sizeof dir, "%s", tl_fuzz_path("res"));
    snprintf(out, sizeof out, "%s", tl_fuzz_path("merged"));
    tl_fuzz_remove_tree(dir);
    tl_fuzz_remove_tree(out);
    tl_fuzz_input(data, size, "res/cells.txt");
    tl_err err = {0};
    if (tl_report_render(dir, &err))
        tl_fuzz_check_rejection(&err, "tl_report_render");
    tl_fuzz_remove_tree(dir);
    tl_fuzz_input(data, size, "res/cells.txt");
    const char *dirs[] = {dir};
    tl_run_opts o = {.out_dir = out, .jobs = 1}; /* no reports: they fit and draw */
    memset(&err, 0, sizeof err);
    if (tl_merge(dirs, 1, x, NULL, &o, &err))
        tl_fuzz_check_rejection(&err, "tl_merge");
    return 0;
}
