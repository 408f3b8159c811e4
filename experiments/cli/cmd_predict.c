/* `treelab predict MODEL DATA [--proba [--digits N]]`: predictions as CSV on stdout. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model_io.h"
#include "treelab/tl_text.h"

static const char usage[] =
    "usage: treelab predict MODEL DATA [--proba] [--digits N] [--id COLUMN] [data options]\n"
    "       treelab predict MODEL --test FILE [--proba] [--digits N] [--id COLUMN] [...]\n"
    "\n"
    "Apply a saved model to DATA (same attributes, matched by name; nominal values by name)\n"
    "and write CSV to stdout: `row,predicted`, plus one probability column per class with\n"
    "--proba. Rows are numbered from 1. For regression `predicted` is the value. DATA needs\n"
    "no target: the model's target column may be missing, empty or absent.\n"
    "Probabilities and regression values are printed in full precision (%.17g: they read\n"
    "back as the same double, to compare with a peer); --digits N (0..17) prints the\n"
    "probabilities with N decimals instead.\n"
    "With --test FILE instead of DATA, FILE must hold the target (rows without one are\n"
    "dropped): the predictions are written as above and the scores (accuracy, kappa, ...;\n"
    "RMSE, MAE, R2 for regression; weighted by ARFF instance weights) go to stderr.\n"
    "\n"
    "options:\n"
    "  --digits N           print probabilities with N decimals (0..17)\n"
    "  --id COLUMN          copy this column of DATA (an id the model need not know) into\n"
    "                       the output, after `row`\n" TL_CLI_DATA_HELP
    "                       (--target defaults to the model's target)\n";

/* The text of column `name` of d in each row (a nominal value's name, a number in its
 * shortest exact form, "" when missing), before the data are conformed to the model (which
 * drops the columns it does not use). NULL with err set when d has no such column. */
static char **id_column(const tl_dataset *d, const char *name, tl_err *err)
{
    const tl_attr_info *a = NULL;
    const tl_column *col = NULL;
    char valid[700] = "";
    for (size_t j = 0; j < d->schema.n_attrs && !a; j++) {
        if (!strcmp(d->schema.attrs[j].name, name))
            a = &d->schema.attrs[j], col = &d->cols[j];
        snprintf(valid + strlen(valid), sizeof valid - strlen(valid), "%s%s", j ? ", " : "",
                 d->schema.attrs[j].name);
    }
    if (!a) {
        tl_err_set(err, TL_EINVAL, "--id: unknown column '%s'; valid columns: %s", name, valid);
        return NULL;
    }
    char **v = calloc(d->n_rows ? d->n_rows : 1, sizeof *v);
    for (size_t i = 0; v && i < d->n_rows; i++) {
        char buf[32] = "";
        const char *text = buf;
        if (a->kind == TL_ATTR_NOMINAL)
            text = col->code[i] >= 0 ? a->levels[col->code[i]] : "";
        else if (!isnan(col->num[i]))
            tl_num_short(col->num[i], buf);
        if (!(v[i] = strdup(text))) {
            for (size_t k = 0; k < i; k++)
                free(v[k]);
            free(v);
            v = NULL;
        }
    }
    if (!v)
        tl_err_set(err, TL_ENOMEM, "out of memory");
    return v;
}

/* %.17g reads back as the same double; digits >= 0 gives that many decimals. */
static void print_number(double v, int digits)
{
    if (digits < 0)
        printf("%.17g", v);
    else
        printf("%.*f", digits, v);
}

static int run(int argc, char **argv, tl_err *err)
{
    const char *proba = NULL, *test = NULL, *digits_s = NULL, *id = NULL, *pos[2];
    char **ids = NULL;
    tl_cli_data dd = {0};
    tl_cli_opt opts[] = {{"--proba", 0, &proba}, {"--test", 1, &test}, {"--digits", 1, &digits_s},
                         {"--id", 1, &id},       TL_CLI_DATA_OPTS(dd), {NULL, 0, NULL}};
    int n_pos, help;
    long digits = -1; /* full precision */
    if (tl_cli_parse(argc, argv, opts, pos, 2, &n_pos, NULL, &help, err) ||
        (digits_s && tl_cli_long("--digits", digits_s, 0, 17, &digits, err)))
        return err->code;
    if (help) {
        fputs(usage, stdout);
        return TL_OK;
    }
    if (n_pos != (test ? 1 : 2))
        return tl_err_set(err, TL_EINVAL,
                          "expected MODEL and DATA, or MODEL and --test FILE "
                          "(see treelab predict --help)");
    tl_model *m = tl_model_load(pos[0], err);
    if (m && tl_cli_check_names(&m->schema, pos[0], err)) {
        tl_model_free(m);
        m = NULL;
    }
    if (m && !dd.target)
        dd.target = m->schema.target.name;
    if (m) /* the columns the model took as nominal (--nominal at fit) are nominal again */
        dd.types = &m->schema;
    /* the rows to predict need no class: unlabelled rows and a missing target column are
     * fine; rows to score (--test) need one, and may all be of one class */
    tl_dataset *d = m ? tl_cli_load(test ? test : pos[1], &dd, NULL,
                                    test ? TL_LOAD_ONE_CLASS : TL_LOAD_UNLABELLED, err)
                      : NULL;
    double *out = NULL;
    if (!d || (id && !(ids = id_column(d, id, err))) || tl_dataset_conform(d, &m->schema, err))
        goto done;
    size_t k = tl_model_out_width(m);
    out = malloc((d->n_rows ? d->n_rows : 1) * k * sizeof *out);
    if (!out) {
        tl_err_set(err, TL_ENOMEM, "out of memory");
        goto done;
    }
    if (tl_model_predict(m, d, NULL, 0, out, err))
        goto done;
    const tl_attr_info *t = &m->schema.target;
    fputs("row,", stdout);
    if (id) {
        tl_csv_field(stdout, id);
        fputc(',', stdout);
    }
    fputs("predicted", stdout);
    for (size_t c = 0; proba && k > 1 && c < k; c++) {
        /* the prefix goes inside the quotes: p_"a,b" would not be one field */
        char *col = malloc(strlen(t->levels[c]) + 3);
        if (!col) {
            tl_err_set(err, TL_ENOMEM, "out of memory");
            goto done;
        }
        sprintf(col, "p_%s", t->levels[c]);
        fputc(',', stdout);
        tl_csv_field(stdout, col);
        free(col);
    }
    fputc('\n', stdout);
    for (size_t i = 0; i < d->n_rows; i++) {
        const double *p = out + i * k;
        printf("%zu,", i + 1);
        if (ids) {
            tl_csv_field(stdout, ids[i]);
            fputc(',', stdout);
        }
        if (k == 1) {
            printf("%.17g\n", p[0]);
            continue;
        }
        size_t best = 0;
        for (size_t c = 1; c < k; c++)
            if (p[c] > p[best])
                best = c;
        tl_csv_field(stdout, t->levels[best]);
        for (size_t c = 0; proba && c < k; c++) {
            fputc(',', stdout);
            print_number(p[c], (int)digits);
        }
        fputc('\n', stdout);
    }
    if (test) {
        fflush(stdout);
        tl_cli_print_scores(stderr, test, m, d, NULL, d->n_rows, err);
    }
done:
    for (size_t i = 0; ids && i < d->n_rows; i++)
        free(ids[i]);
    free(ids);
    free(out);
    tl_dataset_free(d);
    tl_model_free(m);
    return err->code;
}

const tl_cli_command tl_cmd_predict = {"predict", "apply a saved model to a dataset (CSV out)",
                                       usage, run};
