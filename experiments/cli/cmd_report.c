/* `treelab report DIR`: re-render a results folder's reports from its stored cells. */
#include "cli.h"
#include "treelab/tl_report.h"

extern const tl_cli_command tl_cmd_report;

static int run(int argc, char **argv, tl_err *err)
{
    const char *pos[1];
    int n_pos, help;
    const tl_cli_opt opts[] = {{NULL, 0, NULL}};
    int rc = tl_cli_parse(argc, argv, opts, pos, 1, &n_pos, NULL, &help, err);
    if (rc || help) {
        if (help)
            fputs(tl_cmd_report.usage, stdout);
        return rc;
    }
    if (n_pos != 1)
        return tl_err_set(err, TL_EINVAL, "expected a results folder\n%s", tl_cmd_report.usage);
    if ((rc = tl_report_render(pos[0], err)))
        return rc;
    printf("report: %s/summary.md\n", pos[0]);
    return TL_OK;
}

const tl_cli_command tl_cmd_report = {
    "report", "re-render a results folder's reports from its stored cells",
    "usage: treelab report results/NAME\n"
    "  Rewrites metrics.csv, timings.csv, summary.md, summary.csv, confusion/, metrics.json,\n"
    "  tables.tex and report.html (with the figures already in plots/) from\n"
    "  results/NAME/cells.txt (trees, traces and the manifest are left as they are).\n",
    run};
