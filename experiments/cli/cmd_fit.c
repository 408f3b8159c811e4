/* `treelab fit DATA --algo NAME [--set k=v]... -o MODEL`: fit on every row, save the model. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model_io.h"
#include "treelab/tl_runner.h"

static const char usage[] =
    "usage: treelab fit DATA --algo NAME [--set key=value]... [--seed S] [data options]\n"
    "                   [--test FILE] [--jobs N] -o MODEL\n"
    "\n"
    "Fit a learner on every row of DATA and write the model (a libconfig text file that\n"
    "`predict` and `show` read back). `treelab fit --algo NAME --help` lists the learner's\n"
    "parameters. Rows weigh what their ARFF instance weight {w} (or --weight COLUMN) says,\n"
    "1 without one, times their class's weight with --class-weight.\n"
    "\n"
    "options:\n"
    "  --test FILE          also score the model on FILE's rows (same columns; the data\n"
    "                       options apply to it too) and print the scores; -o is then\n"
    "                       optional\n"
    "  --jobs N             threads an ensemble fits its members on (1 to 256; the model\n"
    "                       does not depend on N)\n"
    "  --class-weight balanced|a=2,b=1  training rows weighted by class (balanced:\n"
    "                       n / (k n_c), as scikit-learn; a class not named keeps 1)\n" TL_CLI_DATA_HELP;

static void learner_help(const char *algo)
{
    tl_err err;
    const tl_model_type *t = algo ? tl_model_find(algo, &err) : NULL;
    fputs(usage, stdout);
    if (t) {
        printf("\n%s: %s\nparameters:\n", t->name, t->summary);
        tl_params_print_help(t->params, stdout);
        if (t->help)
            t->help(stdout);
        return;
    }
    printf("\nlearners:\n");
    for (size_t i = 0; tl_model_at(i); i++)
        printf("  %-12s %s\n", tl_model_at(i)->name, tl_model_at(i)->summary);
}

static int run(int argc, char **argv, tl_err *err)
{
    const char *algo = NULL, *out = NULL, *seed_s = NULL, *test = NULL, *jobs_s = "1",
               *class_weight = NULL, *pos[1];
    tl_cli_data dd = {0};
    tl_cli_opt opts[] = {{"--algo", 1, &algo},
                         {"-o", 1, &out},
                         {"--output", 1, &out},
                         {"--seed", 1, &seed_s},
                         {"--test", 1, &test},
                         {"--jobs", 1, &jobs_s},
                         {"--class-weight", 1, &class_weight},
                         TL_CLI_DATA_OPTS(dd),
                         {NULL, 0, NULL}};
    size_t *train = NULL, *te = NULL, n_train = 0, n_te = 0;
    tl_params set;
    tl_params_init(&set);
    int n_pos, help;
    tl_dataset *d = NULL, view = {0}; /* view: d with class-weighted rows, never freed */
    tl_model *m = NULL;
    unsigned long seed;
    long jobs;
    if (tl_cli_parse(argc, argv, opts, pos, 1, &n_pos, &set, &help, err))
        goto done;
    if (help) {
        learner_help(algo);
        goto done;
    }
    if (n_pos != 1 || (!out && !test)) {
        tl_err_set(err, TL_EINVAL, "expected DATA and -o MODEL (see treelab fit --help)");
        goto done;
    }
    /* with --test the test rows are appended to the data (role test) and left out of the fit */
    if (tl_cli_seed(seed_s, &seed, err) || tl_cli_long("--jobs", jobs_s, 1, 256, &jobs, err) ||
        !(d = tl_cli_load(pos[0], &dd, test, 0, err)) ||
        !(train = tl_cli_role_rows(d, TL_ROLE_TRAIN, &n_train, err)))
        goto done;
    view = *d; /* the test rows, scored below, keep their own weights */
    if ((class_weight &&
         tl_class_weights_apply(class_weight, d, train, n_train, &view.weight, err)) ||
        !(m = tl_cli_fit_rows(algo, &set, &view, test ? train : NULL, n_train, seed, (size_t)jobs,
                              err)) ||
        (out && tl_model_save(m, out, err)))
        goto done;
    tl_model_info info;
    tl_model_get_info(m, &info);
    fprintf(stderr, "treelab: %s fitted on %zu rows of %s", algo, n_train, pos[0]);
    if (info.nodes)
        fprintf(stderr, " (%zu leaves, depth %zu)", info.leaves, info.depth);
    if (out)
        fprintf(stderr, "; model written to %s", out);
    fputc('\n', stderr);
    if (test && (te = tl_cli_role_rows(d, TL_ROLE_TEST, &n_te, err)))
        tl_cli_print_scores(stdout, test, m, d, te, n_te, err);
done:
    if (d && view.weight != d->weight)
        free(view.weight);
    free(train);
    free(te);
    tl_model_free(m);
    tl_dataset_free(d);
    tl_params_clear(&set);
    return err->code;
}

const tl_cli_command tl_cmd_fit = {"fit", "fit a learner on a dataset and save the model", usage,
                                   run};
