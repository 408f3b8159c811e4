/* `treelab cv DATA --algo NAME`: stratified k-fold cross-validation of one learner. */
#include <gsl/gsl_statistics_double.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "model_io.h"
#include "treelab/tl_protocol.h"
#include "treelab/tl_runner.h"
#include "treelab/tl_log.h"
#include "treelab/tl_metrics.h"
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

/* The metrics printed: --metrics, or accuracy (rmse and r2 for regression). */
enum { MAX_METRICS = 16 };
typedef struct {
    const tl_metric_def *metric[MAX_METRICS];
    size_t n_metrics;
    double *score;    /* n_metrics x cells */
    double *accuracy; /* cells: for the majority-rate warning */
    double *leaves, *depth;
} cv_out;

/* --stages: each fold fits once with the most stages and scores every count (decreasing) by
 * truncation (tl_cell_eval_stages), into o[0..n_stages); without it, n_stages is 1. */
static int cv_loop(const tl_exp_model *m, const tl_dataset *d, const char *name, size_t k,
                   size_t repeats, unsigned long seed, const size_t *stages, size_t n_stages,
                   cv_out *o, tl_err *err)
{
    size_t n = d->n_rows, *fold_of = malloc(n * sizeof *fold_of), cells = k * repeats;
    size_t *tr = malloc(n * sizeof *tr), *te = malloc(n * sizeof *te);
    tl_cell *c = calloc(n_stages, sizeof *c);
    const tl_exp_model **ms = malloc(n_stages * sizeof *ms);
    int rc = fold_of && tr && te && c && ms ? TL_OK : tl_err_set(err, TL_ENOMEM, "out of memory");
    for (size_t s = 0; ms && s < n_stages; s++)
        ms[s] = m;
    for (size_t r = 0; !rc && r < repeats; r++) {
        rc = tl_protocol_folds(d, k, 1, seed, name, r, fold_of, err);
        for (size_t f = 0; !rc && f < k; f++) {
            size_t ntr, nte, i = r * k + f;
            memset(c, 0, n_stages * sizeof *c);
            tl_protocol_fold_rows(fold_of, n, f, tr, &ntr, te, &nte);
            unsigned long fs = tl_protocol_seed(seed, name, r, f + 1);
            rc = stages ? tl_cell_eval_stages(ms, stages, n_stages, d, tr, ntr, NULL, 0, te, nte,
                                              fs, c, err)
                        : tl_cell_eval(m, d, tr, ntr, NULL, 0, te, nte, fs, c, err);
            for (size_t s = 0; s < n_stages; s++) {
                cv_out *os = &o[s];
                for (size_t j = 0; j < os->n_metrics; j++)
                    os->score[j * cells + i] =
                        tl_metric_value(os->metric[j], c[s].classification ? &c[s].cm : NULL,
                                        c[s].classification ? NULL : &c[s].rm);
                os->accuracy[i] = c[s].classification ? c[s].cm.accuracy : NAN;
                os->leaves[i] = c[s].leaves;
                os->depth[i] = c[s].depth;
                tl_cell_clear(&c[s]);
            }
        }
    }
    free(fold_of);
    free(tr);
    free(te);
    free(c);
    free(ms);
    return rc;
}

/* Mean and sd of the defined values of v[0..n); *defined gets their count. */
static void mean_sd(const double *v, size_t n, double *mean, double *sd, size_t *defined)
{
    double s = 0, s2 = 0;
    size_t m = 0;
    for (size_t i = 0; i < n; i++)
        if (!isnan(v[i]))
            s += v[i], m++;
    *mean = m ? s / (double)m : NAN;
    for (size_t i = 0; i < n; i++)
        if (!isnan(v[i]))
            s2 += (v[i] - *mean) * (v[i] - *mean);
    *sd = m > 1 ? sqrt(s2 / (double)(m - 1)) : 0;
    *defined = m;
}

/* rmse and r2 print as RMSE and R2, as cv always has; the others by their names. */
static const char *label(const tl_metric_def *m)
{
    return !strcmp(m->name, "rmse") ? "RMSE" : !strcmp(m->name, "r2") ? "R2" : m->name;
}

/* header: the CSV header line too (the first of --stages' rows). */
static void print(const char *data, const char *algo, size_t k, size_t reps, int cls, int csv,
                  int header, const cv_out *o)
{
    size_t n = k * reps, defined;
    double lv = gsl_stats_mean(o->leaves, 1, n), dp = gsl_stats_mean(o->depth, 1, n), mean, sd;
    if (csv) {
        if (header) {
            printf("dataset,algorithm,folds,repeats");
            for (size_t j = 0; j < o->n_metrics; j++)
                printf(",%s_mean,%s_sd", o->metric[j]->name, o->metric[j]->name);
            printf(",leaves_mean,depth_mean\n");
        }
        tl_csv_pair(stdout, data, algo);
        printf(",%zu,%zu", k, reps);
        for (size_t j = 0; j < o->n_metrics; j++) {
            mean_sd(o->score + j * n, n, &mean, &sd, &defined);
            printf(",%.6f,%.6f", mean, sd);
        }
        if (isnan(lv)) /* a learner without a tree */
            printf(",,\n");
        else
            printf(",%.4f,%.4f\n", lv, dp);
        return;
    }
    printf("%s on %s, %zu-fold%s CV x %zu:\n", algo, data, k, cls ? " stratified" : "", reps);
    for (size_t j = 0; j < o->n_metrics; j++) {
        mean_sd(o->score + j * n, n, &mean, &sd, &defined);
        printf("  %s %.4f (sd %.4f)", label(o->metric[j]), mean, sd);
        if (defined < n)
            printf(", undefined in %zu of %zu folds", n - defined, n);
        printf("\n");
    }
    if (isnan(lv))
        printf("  leaves, depth: none (%s has no tree)\n", algo);
    else
        printf("  leaves %.2f, depth %.2f (means)\n", lv, dp);
}

/* A warning when the mean accuracy is no better than always predicting the majority class. */
static void warn_majority(const tl_dataset *d, const double *accuracy, size_t n)
{
    size_t k = d->schema.target.n_levels, top = 0;
    double *w = calloc(k ? k : 1, sizeof *w), total = 0, mean, sd;
    if (!w)
        return;
    for (size_t i = 0; i < d->n_rows; i++)
        if (d->y.code[i] >= 0) {
            double wi = d->weight ? d->weight[i] : 1.0;
            w[d->y.code[i]] += wi;
            total += wi;
        }
    for (size_t c = 1; c < k; c++)
        if (w[c] > w[top])
            top = c;
    size_t defined;
    mean_sd(accuracy, n, &mean, &sd, &defined);
    double rate = total > 0 ? w[top] / total : NAN;
    if (defined && mean <= rate + 1e-12)
        tl_warn("accuracy %.4f is no better than always predicting the majority class '%s' "
                "(%.4f of the rows); compare balanced_accuracy or roc_auc_macro "
                "(--metrics accuracy,balanced_accuracy,roc_auc_macro)",
                mean, d->schema.target.levels[top], rate);
    free(w);
}

/* --metrics a,b,c into o (the defaults without it). */
static int choose_metrics(const char *list, int cls, cv_out *o, tl_err *err)
{
    char buf[512];
    snprintf(buf, sizeof buf, "%s", list ? list : cls ? "accuracy" : "rmse,r2");
    for (char *tok = strtok(buf, ","); tok; tok = strtok(NULL, ",")) {
        while (*tok == ' ')
            tok++;
        const tl_metric_def *m = tl_metric_find(tok, err);
        if (!m)
            return tl_err_prefix(err, "--metrics: ");
        if (m->classification != cls)
            return tl_err_set(err, TL_EINVAL, "--metrics: %s is a %s metric, and this is %s",
                              m->name, m->classification ? "classification" : "regression",
                              cls ? "classification" : "regression");
        if (o->n_metrics == MAX_METRICS)
            return tl_err_set(err, TL_EINVAL, "--metrics: at most %d metrics", MAX_METRICS);
        o->metric[o->n_metrics++] = m;
    }
    if (!o->n_metrics)
        return tl_err_set(err, TL_EINVAL, "--metrics: expected metric names separated by commas");
    return TL_OK;
}

/* --stages 10,50,100 into decreasing distinct counts (at most 64), for a learner with stages;
 * the model's stage parameter is set to the most. */
static int parse_stages(const char *list, tl_exp_model *m, size_t *st, size_t *n, tl_err *err)
{
    const char *param = tl_model_stage_param(m->type);
    if (!param)
        return tl_err_set(err, TL_EINVAL,
                          "--stages: %s has no stages (bagging, random_forest, extra_trees, "
                          "adaboost and gradient_boosting do)",
                          m->type->name);
    *n = 0;
    for (const char *p = list; *p;) {
        char *end;
        unsigned long long v = strtoull(p, &end, 10);
        if (end == p || (*end && *end != ',') || v == 0 || v > 1000000 || *p == '-')
            return tl_err_set(err, TL_EINVAL,
                              "--stages %s: expected counts from 1 to 10^6 separated by commas",
                              list);
        size_t i = 0;
        while (i < *n && st[i] > v)
            i++;
        if ((i == *n || st[i] != v) && *n == 64)
            return tl_err_set(err, TL_EINVAL, "--stages: at most 64 counts");
        if (i == *n || st[i] != v) {
            memmove(st + i + 1, st + i, (*n - i) * sizeof *st);
            st[i] = (size_t)v, (*n)++;
        }
        p = *end ? end + 1 : end;
    }
    if (!*n)
        return tl_err_set(err, TL_EINVAL, "--stages: expected counts separated by commas");
    char v[32];
    snprintf(v, sizeof v, "%zu", st[0]);
    return tl_params_set(&m->params, param, v, err);
}

/* --test: the learner fitted on every row of DATA, scored on FILE's rows. d is DATA loaded
 * again with FILE appended (before the CV, so that an incompatible FILE is refused before any
 * work), and the CV ran on DATA alone (the folds of `cv` without --test). */
static int hold_out(const tl_exp_model *m, tl_dataset *d, const char *test, unsigned long seed,
                    FILE *f, tl_err *err)
{
    size_t *tr = NULL, *te = NULL, ntr = 0, nte = 0;
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
    return err->code;
}

static int run(int argc, char **argv, tl_err *err)
{
    const char *algo = NULL, *folds_s = "10", *reps_s = "1", *seed_s = "1", *csv = NULL,
               *test = NULL, *metrics = NULL, *class_weight = NULL, *stages_s = NULL, *pos[1];
    tl_cli_data dd = {0};
    const tl_cli_opt opts[] = {{"--algo", 1, &algo},
                               {"--folds", 1, &folds_s},
                               {"--repeats", 1, &reps_s},
                               {"--seed", 1, &seed_s},
                               {"--csv", 0, &csv},
                               {"--test", 1, &test},
                               {"--metrics", 1, &metrics},
                               {"--class-weight", 1, &class_weight},
                               {"--stages", 1, &stages_s},
                               TL_CLI_DATA_OPTS(dd),
                               {NULL, 0, NULL}};
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
    m.class_weight = (char *)class_weight;
    tl_dataset *d = NULL, *held = NULL;
    cv_out o[64];
    memset(o, 0, sizeof o);
    size_t n = (size_t)(k * reps), stages[64], n_st = 1;
    char name[1024];
    base_name(pos[0], name, sizeof name);
    if (!(m.type = tl_model_find(algo, err)) ||
        (stages_s && parse_stages(stages_s, &m, stages, &n_st, err)) ||
        tl_model_check_params(m.type, &m.params, err) ||
        !(d = tl_cli_load(pos[0], &dd, NULL, 0, err)) ||
        (test && !(held = tl_cli_load(pos[0], &dd, test, 0, err))))
        rc = err->code;
    for (size_t s = 0; !rc && s < n_st; s++) {
        if ((rc = choose_metrics(metrics, tl_dataset_is_classification(d), &o[s], err)))
            break;
        if (!(o[s].score = calloc((o[s].n_metrics + 3) * n, sizeof *o[s].score)))
            rc = tl_err_set(err, TL_ENOMEM, "out of memory");
        else
            o[s].accuracy = o[s].score + o[s].n_metrics * n, o[s].leaves = o[s].accuracy + n,
            o[s].depth = o[s].leaves + n;
    }
    if (!rc) {
        rc = cv_loop(&m, d, name, (size_t)k, (size_t)reps, seed, stages_s ? stages : NULL, n_st, o,
                     err);
        int cls = tl_dataset_is_classification(d);
        for (size_t s = n_st; !rc && s-- > 0;) { /* fewest stages first */
            char label[300];
            if (stages_s)
                snprintf(label, sizeof label, "%s[%s=%zu]", algo, tl_model_stage_param(m.type),
                         stages[s]);
            print(name, stages_s ? label : algo, (size_t)k, (size_t)reps, cls, csv != NULL,
                  s + 1 == n_st, &o[s]);
        }
        if (!rc && cls)
            warn_majority(d, o[0].accuracy, n);
        if (!rc && test)
            rc = hold_out(&m, held, test, seed, csv ? stderr : stdout, err);
    }
    for (size_t s = 0; s < n_st; s++)
        free(o[s].score);
    tl_dataset_free(d);
    tl_dataset_free(held);
    tl_params_clear(&m.params);
    return rc;
}

const tl_cli_command tl_cmd_cv = {
    "cv", "stratified k-fold cross-validation of one learner",
    "usage: treelab cv DATA --algo NAME [--set k=v]... [--folds 10] [--repeats 1] [--seed S]\n"
    "                  [--metrics a,b,c] [--stages N1,N2,...] [--test FILE] [--csv]\n"
    "                  [data options]\n"
    "  Prints mean and sd of accuracy (RMSE and R2 for regression) and mean leaves and depth;\n"
    "  warns when the accuracy is no better than always predicting the majority class.\n"
    "  --class-weight balanced|a=2,b=1  training rows weighted by class (balanced:\n"
    "                n / (k n_c), scikit-learn's); scores stay unweighted by class\n"
    "  --metrics a,b  these metrics instead (any column of metrics.csv: accuracy,\n"
    "                balanced_accuracy, kappa, f1_macro, log_loss, roc_auc_macro, brier, ...)\n"
    "  --stages 10,50,100  an ensemble's scores with its first 10, 50 and 100 members, from\n"
    "                one fit per fold (the most, truncated: the numbers of separate fits)\n"
    "  Folds depend only on the data, k, the repeat and the seed (the same as `treelab run`).\n"
    "  Scores weigh each row by its ARFF instance weight {w} (1 without one).\n"
    "  --csv         a header and one row, for scripts (a --test line then goes to stderr)\n"
    "  --test FILE   after the CV of DATA (unchanged by this option), fit on every row of\n"
    "                DATA and print the scores on FILE's rows: a hold-out test set\n" TL_CLI_DATA_HELP,
    run};
