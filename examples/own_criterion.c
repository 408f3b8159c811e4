/* Example: an out-of-tree split criterion (Tsallis entropy), registered at run time and used
 * from an experiment file that this program runs through libtreelab-experiments. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include <treelab/tl_grow.h>
#include <treelab/tl_report.h>
#include <treelab/tl_runner.h>

/* Tsallis entropy S_q(p) = (1 - sum p^q) / (q - 1): Shannon's (in nats) as q -> 1, Gini's at
 * q = 2 (Tsallis, J. Stat. Phys. 52 (1988)). */
static double tsallis(double q, const double *stats, size_t k)
{
    double w = 0, s = 0;
    for (size_t c = 0; c < k; c++)
        w += stats[c];
    if (w <= 0)
        return 0;
    for (size_t c = 0; c < k; c++)
        s += pow(stats[c] / w, q);
    return (1 - s) / (q - 1);
}

/* The state is q, read from the criterion's parameters (`criterion.q`). */
static const tl_param_spec params[] = {
    {"q", TL_PARAM_DOUBLE, "2", 0.01, 10, NULL, "entropic index (not 1); 2 is the Gini impurity"},
    {NULL, 0, NULL, 0, 0, NULL, NULL}};

static void *init(const tl_params *p, tl_err *err)
{
    tl_param_reader r = tl_params_reader(params, p, err);
    double q = tl_params_double(&r, "q");
    if (r.rc)
        return NULL;
    if (q == 1) {
        tl_err_set(err, TL_EINVAL, "criterion.q must not be 1 (use entropy)");
        return NULL;
    }
    double *state = malloc(sizeof *state);
    if (!state)
        tl_err_set(err, TL_ENOMEM, "out of memory");
    else
        *state = q;
    return state;
}

/* The parent's entropy minus the children's, weighted by their share of the known weight. */
static double score(const void *state, const double *parent, const double *children,
                    size_t n_children, size_t k)
{
    double q = *(const double *)state, known = 0, wimp = 0, w[n_children];
    for (size_t b = 0; b < n_children; b++) {
        w[b] = 0;
        for (size_t c = 0; c < k; c++)
            w[b] += children[b * k + c];
        known += w[b];
    }
    for (size_t b = 0; b < n_children; b++)
        if (w[b] > 0)
            wimp += w[b] / known * tsallis(q, children + b * k, k);
    return tsallis(q, parent, k) - wimp;
}

static const tl_criterion_type tsallis_type = {
    .name = "tsallis",
    .summary = "Tsallis entropy (1 - sum p^q) / (q - 1): entropy as q -> 1, Gini at q = 2",
    .reference = "Tsallis, J. Stat. Phys. 52 (1988); Wang & Xia, Tsallis entropy trees (2017)",
    .params = params,
    .init = init,
    .free = free,
    .tasks = TL_TASK_CLASSIFICATION,
    .score = score,
};

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: %s EXPERIMENT.cfg RESULTS_DIR\n", argv[0]);
        return 1;
    }
    tl_err err = {0};
    tl_experiment *x = NULL;
    if (tl_criterion_register(&tsallis_type, &err))
        goto done;
    char names[512];
    tl_criterion_names(names, sizeof names);
    printf("criteria: %s\n", names);
    /* the config may now say criterion = { name = "tsallis"; q = 2.0; } */
    if (!(x = tl_experiment_load(argv[1], NULL, &err)))
        goto done;
    tl_run_opts opts = {.out_dir = argv[2], .jobs = 2};
    if (tl_report_run(x, NULL, &opts, &err)) /* the cells, then the reports */
        goto done;
    printf("ran %zu models on %zu datasets into %s\n", x->n_models, x->n_datasets, argv[2]);
done:
    if (err.code)
        fprintf(stderr, "error: %s\n", err.msg);
    tl_experiment_free(x);
    return err.code ? 1 : 0;
}
