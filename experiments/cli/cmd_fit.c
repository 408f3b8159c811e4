/* `treelab fit DATA --algo NAME [--set k=v]... -o MODEL`: fit on every row, save the model. */
#include <stdio.h>
#include <string.h>

#include "model_io.h"

static const char usage[] =
    "usage: treelab fit DATA --algo NAME [--set key=value]... [--target NAME] [--seed S]\n"
    "                   -o MODEL\n"
    "\n"
    "Fit a learner on every row of DATA and write the model (a libconfig text file that\n"
    "`predict` and `show` read back). `treelab fit --algo NAME --help` lists the learner's\n"
    "parameters.\n";

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
    const char *algo = NULL, *out = NULL, *target = NULL, *seed_s = NULL, *pos[1];
    tl_cli_opt opts[] = {{"--algo", 1, &algo}, {"-o", 1, &out},          {"--output", 1, &out},
                         {"--target", 1, &target}, {"--seed", 1, &seed_s}, {NULL, 0, NULL}};
    tl_params set;
    tl_params_init(&set);
    int n_pos, help;
    tl_dataset *d = NULL;
    tl_model *m = NULL;
    unsigned long seed;
    if (tl_cli_parse(argc, argv, opts, pos, 1, &n_pos, &set, &help, err))
        goto done;
    if (help) {
        learner_help(algo);
        goto done;
    }
    if (n_pos != 1 || !out) {
        tl_err_set(err, TL_EINVAL, "expected DATA and -o MODEL (see treelab fit --help)");
        goto done;
    }
    if (tl_cli_seed(seed_s, &seed, err) || !(d = tl_cli_load_data(pos[0], target, err)) ||
        !(m = tl_cli_fit(algo, &set, d, seed, err)) || tl_model_save(m, out, err))
        goto done;
    tl_model_info info;
    tl_model_get_info(m, &info);
    fprintf(stderr, "treelab: %s fitted on %zu rows of %s", algo, d->n_rows, pos[0]);
    if (info.nodes)
        fprintf(stderr, " (%zu leaves, depth %zu)", info.leaves, info.depth);
    fprintf(stderr, "; model written to %s\n", out);
done:
    tl_model_free(m);
    tl_dataset_free(d);
    tl_params_clear(&set);
    return err->code;
}

const tl_cli_command tl_cmd_fit = {"fit", "fit a learner on a dataset and save the model", usage,
                                   run};
