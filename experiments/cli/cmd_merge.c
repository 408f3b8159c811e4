/* `treelab merge SHARD_DIR... --out DIR`: the shards of a job array into one run's results. */
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "treelab/tl_report.h"
#include "treelab/tl_scale.h"

extern const tl_cli_command tl_cmd_merge;

#define MAX_SHARDS 4096

/* The config the shards were run with, as their cells file names it. */
static int shard_config(const char *dir, char *path, size_t size, tl_err *err)
{
    char cells[4200];
    snprintf(cells, sizeof cells, "%s/%s", dir, TL_CELLS_FILE);
    tl_cells_meta meta;
    tl_cell *c = NULL;
    size_t n = 0;
    int rc = tl_cells_read(cells, &meta, &c, &n, NULL, err);
    if (rc)
        return tl_err_prefix(err, "%s is not a shard's results folder: ", dir);
    snprintf(path, size, "%s", meta.config);
    for (size_t i = 0; i < n; i++)
        tl_cell_clear(&c[i]);
    free(c);
    tl_cells_meta_clear(&meta);
    return TL_OK;
}

static int merge(int argc, char **argv, tl_err *err)
{
    const char *out = NULL, *config = NULL, *force = NULL, *pos[MAX_SHARDS];
    const tl_cli_opt opts[] = {
        {"--out", 1, &out}, {"--config", 1, &config}, {"--force", 0, &force}, {NULL, 0, NULL}};
    int n_pos, help;
    int rc = tl_cli_parse(argc, argv, opts, pos, MAX_SHARDS, &n_pos, NULL, &help, err);
    if (rc || help) {
        if (help)
            fputs(tl_cmd_merge.usage, stdout);
        return rc;
    }
    if (n_pos < 1 || !out)
        return tl_err_set(err, TL_EINVAL, "expected shard folders and --out DIR\n%s",
                          tl_cmd_merge.usage);
    char recorded[1024];
    if (!config) {
        if ((rc = shard_config(pos[0], recorded, sizeof recorded, err)))
            return rc;
        config = recorded;
    }
    tl_experiment *x = tl_experiment_load(config, NULL, err);
    /* the path is the shard's word, and a cells file may be edited: a parse error's excerpt
     * of whatever file it names (the first line of any file) is not shown */
    if (!x)
        return config == recorded
                   ? tl_err_set(err, err->code,
                                "the shards name their config %s, which does not load as an "
                                "experiment; give the config with --config CONFIG",
                                recorded)
                   : err->code;
    tl_run_done done = {.lock = -1};
    tl_run_opts o = {.out_dir = out, .force = force != NULL, .done = &done};
    tl_dataset **data = NULL;
    rc = tl_run_load_data(x, &data, err);
    if (!rc)
        rc = tl_merge(pos, (size_t)n_pos, x, data, &o, err);
    if (!rc && done.lock >= 0) /* report/ after the merge, the folder still locked */
        rc = tl_report_results(out, x, data, done.start, 0, o.jobs, NULL, err);
    tl_results_unlock(done.lock);
    if (data)
        tl_run_free_data(x, data);
    if (!rc)
        printf("report: %s/summary.md (cells in %s/metrics.csv)\n", out, out);
    tl_experiment_free(x);
    return rc;
}

const tl_cli_command tl_cmd_merge = {
    "merge", "assemble the shards of `run --shard I/N` into one run's results",
    "usage: treelab merge SHARD_DIR... --out DIR [--config CONFIG] [--force]\n"
    "  Reads the cells of every shard folder (written by treelab run CONFIG --shard I/N, a\n"
    "  job array's tasks), checks they are the N shards of one experiment, all done, and\n"
    "  writes DIR as a single run of CONFIG would: the same metrics.csv, confusion/,\n"
    "  summary, trees/ and figures, byte for byte (timings.csv and the manifest's times\n"
    "  aside). Refused, before DIR is made: a shard of another config, seed, data (SHA-256),\n"
    "  models or number of shards, a shard given twice or missing, an unfinished shard; a DIR\n"
    "  that is neither new, empty nor a treelab results folder (unless --force).\n"
    "  --config CONFIG  the experiment file (default: the path the shards recorded; its\n"
    "                   content must be the one they ran)\n"
    "  --force          write into an existing folder that is not a treelab results folder\n",
    merge};
