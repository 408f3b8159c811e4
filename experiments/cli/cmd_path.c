/* `treelab path DATA --algo cart [--cv K]`: the cost-complexity pruning sequence as CSV. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "model_io.h"
#include "treelab/tl_report.h"
#include "treelab/tl_grow.h"
#include "treelab/tl_model.h"

static const char usage[] =
    "usage: treelab path DATA [--algo cart] [--set key=value]... [--cv K] [--seed S]\n"
    "                    [--plot FILE.png] [data options]\n"
    "\n"
    "Grow the unpruned tree on every row of DATA and print its minimal cost-complexity\n"
    "pruning sequence as CSV: `alpha,leaves,risk` (risk: the subtree's R(T) as a share of\n"
    "the root's weight; `--set ccp_risk=error` for misclassification instead of impurity).\n"
    "With --cv K, also `cv_error,cv_se`: K-fold cross-validated error of the subtree (at the\n"
    "geometric midpoint of its alpha interval) and its standard error.\n"
    "With --plot FILE.png, also draw the pruning curve (tree size on x, resubstitution\n"
    "risk, CV error with a one-SE band, the chosen tree marked): FILE.png, FILE.svg,\n"
    "and FILE.dat + FILE.gp (data and gnuplot script) beside them; without gnuplot only the\n"
    "data and script are written. Risks and CV errors weigh rows by their ARFF weights.\n"
    "\n"
    "data options:\n" TL_CLI_DATA_HELP;

/* FILE.png -> FILE (any extension of the last path component is dropped). */
static void plot_stem(const char *file, char *buf, size_t size)
{
    snprintf(buf, size, "%s", file);
    char *slash = strrchr(buf, '/'), *dot = strrchr(buf, '.');
    if (dot && dot > (slash ? slash + 1 : buf))
        *dot = '\0';
}

static int run(int argc, char **argv, tl_err *err)
{
    const char *algo = "cart", *cv_s = NULL, *seed_s = NULL, *plot = NULL;
    const char *pos[1];
    tl_cli_data dd = {0};
    tl_cli_opt opts[] = {{"--algo", 1, &algo}, {"--cv", 1, &cv_s},   {"--seed", 1, &seed_s},
                         {"--plot", 1, &plot}, TL_CLI_DATA_OPTS(dd), {NULL, 0, NULL}};
    tl_params set;
    tl_params_init(&set);
    int n_pos, help;
    long folds = 0;
    unsigned long seed;
    tl_dataset *d = NULL;
    tl_model *m = NULL;
    const tl_prune_trace *tr = NULL;
    if (tl_cli_parse(argc, argv, opts, pos, 1, &n_pos, &set, &help, err))
        goto done;
    if (help) {
        fputs(usage, stdout);
        goto done;
    }
    if (n_pos != 1) {
        tl_err_set(err, TL_EINVAL, "expected DATA (see treelab path --help)");
        goto done;
    }
    if ((cv_s && tl_cli_long("--cv", cv_s, 2, 1000, &folds, err)) ||
        tl_cli_seed(seed_s, &seed, err))
        goto done;
    /* the path of the grown tree, as the cost-complexity pruner records it: alpha = path
     * keeps the tree, alpha = auto adds the CV error (--cv K). The learner's own criterion
     * gives the risk, and the pruner slot wins over any older name for pruning. */
    const tl_model_type *type = tl_model_find(algo, err);
    if (!type)
        goto done;
    if (!type->tree) {
        tl_err_set(err, TL_EINVAL, "path needs a tree learner (tree, id3, c45 or cart), not %s",
                   algo);
        goto done;
    }
    const char *risk = tl_params_find(&set, "ccp_risk");
    if (!risk)
        risk = tl_params_find(&set, "pruner.risk");
    char folds_s[32];
    snprintf(folds_s, sizeof folds_s, "%ld", folds ? folds : 10);
    if (tl_params_set(&set, "pruner", "cost_complexity", err) ||
        tl_params_set(&set, "pruner.alpha", folds ? "auto" : "path", err) ||
        tl_params_set(&set, "pruner.folds", folds_s, err) ||
        tl_params_set(&set, "pruner.risk", risk ? risk : "auto", err))
        goto done;
    if (!(d = tl_cli_load(pos[0], &dd, NULL, 0, err)) ||
        !(m = tl_cli_fit(algo, &set, d, seed, err)))
        goto done;
    if (!(tr = tl_model_prune_trace(m))) {
        tl_err_set(err, TL_EINVAL, "path needs a tree learner (tree, id3, c45 or cart), not %s",
                   algo);
        goto done;
    }
    printf("alpha,leaves,risk%s\n", folds ? ",cv_error,cv_se" : "");
    for (size_t i = 0; i < tr->n; i++) {
        printf("%.17g,%.0f,%.17g", tr->param[i], tr->leaves[i], tr->risk[i]);
        if (folds)
            printf(",%.17g,%.17g", tr->error[i], tr->se[i]);
        putchar('\n');
    }
    if (plot) {
        char stem[4096], title[1024];
        plot_stem(plot, stem, sizeof stem);
        const char *base = strrchr(pos[0], '/');
        snprintf(title, sizeof title, "Cost-complexity pruning: %s on %s%s", algo,
                 base ? base + 1 : pos[0], folds ? "" : " (no --cv: no CV error)");
        char label[256];
        tl_report_risk_label(tr, !tl_dataset_is_classification(d), label, sizeof label);
        if (tl_report_pruning_plot(tr, !tl_dataset_is_classification(d), label, title, stem, err))
            goto done;
        fprintf(stderr, "treelab path: figure %s.png (data and script: %s.dat, %s.gp)\n", stem,
                stem, stem);
    }
done:

    tl_model_free(m);
    tl_dataset_free(d);
    tl_params_clear(&set);
    return err->code;
}

const tl_cli_command tl_cmd_path = {"path", "cost-complexity pruning sequence (and its CV error)",
                                    usage, run};
