/* `treelab plot KIND FILE -o STEM`: one-off figures from CSV files (see the usage text); the
 * options and the tree kind here, the figures from a table in cmd_plot_tables.c. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cmd_plot.h"
#include "treelab/tl_plot.h"

static const char usage[] =
    "usage: treelab plot KIND FILE -o STEM [options]\n"
    "\n"
    "Draw one figure from a CSV file (header row; columns in any order; extra columns are\n"
    "ignored). Writes STEM.dat, STEM.gp (a gnuplot script you can restyle), STEM.png\n"
    "(1200x800) and STEM.svg; without gnuplot only the data and script are written.\n"
    "\n"
    "kinds and their columns:\n"
    "  pruning         alpha,leaves,risk[,cv_error,cv_se]   (as `treelab path` prints)\n"
    "                  --x leaves puts the number of leaves on x (default: alpha, log axis)\n"
    "  learning-curve  model,fraction,mean[,sd]   one line per model, sd as a band\n"
    "                  (treelab's learning_curve.csv: score_mean, score_sd; one line per\n"
    "                  model and dataset)\n"
    "  curve           series,x,y[,band]   generic lines; --xlabel, --ylabel, --log-x\n"
    "  confusion       true,predicted,count   one row per cell; or treelab's\n"
    "                  confusion/DATASET__MODEL.csv (a truth\\predicted matrix)\n"
    "  grid            x,y,value[,selected]   parameter grid; the row with selected=1 (else\n"
    "                  the largest value) is outlined; --xname, --yname name the parameters\n"
    "  folds           dataset,model,value   one row per fold; or treelab's metrics.csv\n"
    "                  with --metric COLUMN (default accuracy, or rmse)\n"
    "  cd              model,rank   average ranks; --cd VALUE required, --datasets N\n"
    "  tree            FILE is DOT text (treelab show MODEL --format dot); rendered with\n"
    "                  Graphviz when installed\n"
    "\n"
    "options:\n"
    "  -o, --output STEM   output path without extension (required)\n"
    "  --title TEXT        figure title\n";

static int do_tree(const char *path, const plot_opts *o, tl_err *err)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return tl_err_set(err, TL_EIO, "cannot read %s", path);
    char *text = calloc(1, 1 << 22);
    size_t n = text ? fread(text, 1, (1 << 22) - 1, f) : 0;
    fclose(f);
    if (!text)
        return tl_err_set(err, TL_ENOMEM, "out of memory");
    text[n] = '\0';
    int rc = tl_plot_tree_dot(text, o->out, err);
    free(text);
    return rc;
}

static int run(int argc, char **argv, tl_err *err)
{
    plot_opts o = {0};
    const char *out_short = NULL;
    const tl_cli_opt opts[] = {
        {"-o", 1, &out_short},   {"--output", 1, &o.out},        {"--title", 1, &o.title},
        {"--x", 1, &o.x},        {"--xlabel", 1, &o.xlabel},     {"--ylabel", 1, &o.ylabel},
        {"--log-x", 0, &o.logx}, {"--xname", 1, &o.xname},       {"--yname", 1, &o.yname},
        {"--cd", 1, &o.cd},      {"--datasets", 1, &o.datasets}, {"--metric", 1, &o.metric},
        {NULL, 0, NULL}};
    const char *pos[2];
    int n_pos, help, rc = tl_cli_parse(argc, argv, opts, pos, 2, &n_pos, NULL, &help, err);
    if (rc)
        return rc;
    if (help) {
        fputs(usage, stdout);
        return TL_OK;
    }
    if (!o.out)
        o.out = out_short;
    if (n_pos != 2 || !o.out)
        return tl_err_set(err, TL_EINVAL, "expected KIND FILE -o STEM (see treelab plot --help)");
    const char *kind = pos[0];
    if (!strcmp(kind, "tree"))
        return do_tree(pos[1], &o, err);
    if (o.x && strcmp(o.x, "alpha") && strcmp(o.x, "leaves"))
        return tl_err_set(err, TL_EINVAL, "--x: expected alpha or leaves, got '%s'", o.x);
    return tl_cli_plot_table(kind, pos[1], &o, err);
}

const tl_cli_command tl_cmd_plot = {"plot", "draw a figure from a CSV file (gnuplot)", usage, run};
