/* `treelab cv DATA --algo NAME`: stratified k-fold cross-validation of one learner. */
#include <gsl/gsl_statistics_double.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "model_io.h"
#include "treelab/tl_protocol.h"
#include "treelab/tl_runner.h"
#include "treelab/tl_text.h"

extern const tl_cli_command tl_cmd_cv;

/* The dataset's name as `run` derives it (file base name without extension), so that
 * `cv` and `run` with the same seed use the same folds. */
static void base_name(const char *path, char *buf, size_t size)
{
    const char *b = strrchr(path, '/');
    snprintf(buf, size, "%s", b ? b + 1 : path);
    char *dot = strrchr(buf, '.');
    if (dot && dot != buf)
        *dot = '\0';
}

typedef struct {
    double *score, *score2, *leaves, *depth;
} cv_out;

static int cv_loop(const tl_exp_model *m, const tl_dataset *d, const char *name, size_t k,
                   size_t repeats, unsigned long seed, cv_out *o, tl_err *err)
{
    size_t n = d->n_rows, *fold_of = malloc(n * sizeof *fold_of);
    size_t *tr = malloc(n * sizeof *tr), *te = malloc(n * sizeof *te);
    int rc = fold_of && tr && te ? TL_OK : tl_err_set(err, TL_ENOMEM, "out of memory");
    for (size_t r = 0; !rc && r < repeats; r++) {
        rc = tl_protocol_folds(d, k, 1, seed, name, r, fold_of, err);
        for (size_t f = 0; !rc && f < k; f++) {
            size_t ntr, nte, i = r * k + f;
            tl_cell c;
            memset(&c, 0, sizeof c);
            tl_protocol_fold_rows(fold_of, n, f, tr, &ntr, te, &nte);
            rc = tl_cell_eval(m, d, tr, ntr, NULL, 0, te, nte,
                              tl_protocol_seed(seed, name, r, f + 1), &c, err);
            o->score[i] = c.classification ? c.cm.accuracy : c.rm.rmse;
            o->score2[i] = c.rm.r2;
            o->leaves[i] = c.leaves;
            o->depth[i] = c.depth;
            tl_cell_clear(&c);
        }
    }
    free(fold_of);
    free(tr);
    free(te);
    return rc;
}

static void print(const char *data, const char *algo, size_t k, size_t reps, int cls, int csv,
                  const cv_out *o)
{
    size_t n = k * reps;
    double m1 = gsl_stats_mean(o->score, 1, n), s1 = n > 1 ? gsl_stats_sd(o->score, 1, n) : 0;
    double m2 = gsl_stats_mean(o->score2, 1, n), s2 = n > 1 ? gsl_stats_sd(o->score2, 1, n) : 0;
    double lv = gsl_stats_mean(o->leaves, 1, n), dp = gsl_stats_mean(o->depth, 1, n);
    if (csv) {
        printf("dataset,algorithm,folds,repeats,%s,leaves_mean,depth_mean\n",
               cls ? "accuracy_mean,accuracy_sd" : "rmse_mean,rmse_sd,r2_mean,r2_sd");
        tl_csv_pair(stdout, data, algo);
        printf(",%zu,%zu,%.6f,%.6f", k, reps, m1, s1);
        if (!cls)
            printf(",%.6f,%.6f", m2, s2);
        if (isnan(lv)) /* a learner without a tree */
            printf(",,\n");
        else
            printf(",%.4f,%.4f\n", lv, dp);
        return;
    }
    if (cls)
        printf("%s on %s, %zu-fold stratified CV x %zu:\n  accuracy %.4f (sd %.4f)\n", algo, data,
               k, reps, m1, s1);
    else
        printf("%s on %s, %zu-fold CV x %zu:\n  RMSE %.4f (sd %.4f)\n  R2 %.4f (sd %.4f)\n", algo,
               data, k, reps, m1, s1, m2, s2);
    if (isnan(lv))
        printf("  leaves, depth: none (%s has no tree)\n", algo);
    else
        printf("  leaves %.2f, depth %.2f (means)\n", lv, dp);
}

/* --test: the learner fitted on every row of DATA, scored on FILE's rows. DATA is loaded
 * again with FILE appended, so the CV above ran on DATA alone (the folds of `cv` without
 * --test). */
static int hold_out(const tl_exp_model *m, const char *data, const tl_cli_data *dd,
                    const char *test, unsigned long seed, FILE *f, tl_err *err)
{
    size_t *tr = NULL, *te = NULL, ntr = 0, nte = 0;
    tl_dataset *d = tl_cli_load(data, dd, test, 0, err);
    long selected;
    tl_model *model = NULL;
    if (d && (tr = tl_cli_role_rows(d, TL_ROLE_TRAIN, &ntr, err)) &&
        (te = tl_cli_role_rows(d, TL_ROLE_TEST, &nte, err)) &&
        (model = tl_cell_fit(m, d, tr, ntr, NULL, 0, seed, &selected, err))) {
        char label[1100];
        snprintf(label, sizeof label, "hold-out on %s (fitted on every row of the data)", test);
        tl_cli_print_scores(f, label, model, d, te, nte, err);
    }
    tl_model_free(model);
    free(tr);
    free(te);
    tl_dataset_free(d);
    return err->code;
}

static int run(int argc, char **argv, tl_err *err)
{
    const char *algo = NULL, *folds_s = "10", *reps_s = "1", *seed_s = "1", *csv = NULL,
               *test = NULL, *pos[1];
    tl_cli_data dd = {NULL, NULL, NULL, NULL, NULL};
    const tl_cli_opt opts[] = {{"--algo", 1, &algo},      {"--folds", 1, &folds_s},
                               {"--repeats", 1, &reps_s}, {"--seed", 1, &seed_s},
                               {"--csv", 0, &csv},        {"--test", 1, &test},
                               TL_CLI_DATA_OPTS(dd),      {NULL, 0, NULL}};
    tl_exp_model m;
    memset(&m, 0, sizeof m);
    tl_params_init(&m.params);
    int n_pos, help;
    long k, reps;
    unsigned long seed;
    int rc = tl_cli_parse(argc, argv, opts, pos, 1, &n_pos, &m.params, &help, err);
    if (!rc && help)
        fputs(tl_cmd_cv.usage, stdout);
    if (!rc && !help && (n_pos != 1 || !algo))
        rc = tl_err_set(err, TL_EINVAL, "expected DATA and --algo NAME\n%s", tl_cmd_cv.usage);
    if (rc || help || (rc = tl_cli_long("--folds", folds_s, 2, 1000, &k, err)) ||
        (rc = tl_cli_long("--repeats", reps_s, 1, 1000, &reps, err)) ||
        (rc = tl_cli_seed(seed_s, &seed, err))) {
        tl_params_clear(&m.params);
        return rc;
    }
    m.name = (char *)algo;
    tl_dataset *d = NULL;
    cv_out o = {0};
    size_t n = (size_t)(k * reps);
    char name[1024];
    base_name(pos[0], name, sizeof name);
    if (!(m.type = tl_model_find(algo, err)) || tl_model_check_params(m.type, &m.params, err) ||
        !(d = tl_cli_load(pos[0], &dd, NULL, 0, err))) {
        rc = err->code;
    } else if (!(o.score = calloc(4 * n, sizeof *o.score))) {
        rc = tl_err_set(err, TL_ENOMEM, "out of memory");
    } else {
        o.score2 = o.score + n, o.leaves = o.score + 2 * n, o.depth = o.score + 3 * n;
        rc = cv_loop(&m, d, name, (size_t)k, (size_t)reps, seed, &o, err);
        if (!rc)
            print(name, algo, (size_t)k, (size_t)reps, tl_dataset_is_classification(d), csv != NULL,
                  &o);
        if (!rc && test)
            rc = hold_out(&m, pos[0], &dd, test, seed, csv ? stderr : stdout, err);
    }
    free(o.score);
    tl_dataset_free(d);
    tl_params_clear(&m.params);
    return rc;
}

const tl_cli_command tl_cmd_cv = {
    "cv", "stratified k-fold cross-validation of one learner",
    "usage: treelab cv DATA --algo NAME [--set k=v]... [--folds 10] [--repeats 1] [--seed S]\n"
    "                  [--test FILE] [--csv] [data options]\n"
    "  Prints mean and sd of accuracy (RMSE and R2 for regression) and mean leaves and depth.\n"
    "  Folds depend only on the data, k, the repeat and the seed (the same as `treelab run`).\n"
    "  Scores weigh each row by its ARFF instance weight {w} (1 without one).\n"
    "  --csv         a header and one row, for scripts (a --test line then goes to stderr)\n"
    "  --test FILE   after the CV of DATA (unchanged by this option), fit on every row of\n"
    "                DATA and print the scores on FILE's rows: a hold-out test set\n" TL_CLI_DATA_HELP,
    run};
