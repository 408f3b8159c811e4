/* `treelab stats SCORES.csv`: the tests of the summary on any table of scores, datasets as
 * rows and models as columns (from papers, or from another tool). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "treelab/tl_report.h"
#include "treelab/tl_stats.h"

extern const tl_cli_command tl_cmd_stats;

enum { MAX_MODELS = 64, MAX_CELL = 256 };

typedef struct {
    char *names[MAX_MODELS]; /* the models (the header's cells after the first) */
    size_t k, n;             /* models, datasets */
    double *score;           /* n x k, row-major */
} table;

static void table_free(table *t)
{
    for (size_t j = 0; j < t->k; j++)
        free(t->names[j]);
    free(t->score);
}

/* Cells of one line split at the delimiter, blanks and double quotes around each cut. */
static size_t split(char *line, char delim, char **cell, size_t max)
{
    size_t n = 0;
    for (char *p = line; n < max;) {
        char *end = strchr(p, delim);
        if (end)
            *end = '\0';
        char *e = p + strlen(p);
        while (*p == ' ' || *p == '"')
            p++;
        while (e > p && (e[-1] == ' ' || e[-1] == '"' || e[-1] == '\r' || e[-1] == '\n'))
            *--e = '\0';
        cell[n++] = p;
        if (!end)
            break;
        p = end + 1;
    }
    return n;
}

static int read_table(const char *path, table *t, tl_err *err)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return tl_err_set(err, TL_EIO, "%s: cannot read", path);
    char line[8192], *cell[MAX_MODELS + 2];
    size_t lineno = 0, cap = 0;
    int rc = TL_OK;
    char delim = ',';
    while (!rc && fgets(line, sizeof line, f)) {
        lineno++;
        if (line[strspn(line, " \t\r\n")] == '\0')
            continue;
        if (!t->k && !t->names[0]) {
            delim = strchr(line, ';') ? ';' : strchr(line, '\t') ? '\t' : ',';
            size_t c = split(line, delim, cell, MAX_MODELS + 2);
            if (c < 3 || c > MAX_MODELS + 1) {
                rc = tl_err_set(err, TL_EINVAL,
                                "%s:%zu: expected a header `dataset,MODEL1,MODEL2,...` of 2 to "
                                "%d models",
                                path, lineno, MAX_MODELS);
                break;
            }
            for (size_t j = 1; j < c; j++)
                if (!(t->names[t->k++] = strdup(cell[j])))
                    rc = tl_err_set(err, TL_ENOMEM, "out of memory");
            continue;
        }
        size_t c = split(line, delim, cell, MAX_MODELS + 2);
        if (c != t->k + 1) {
            rc =
                tl_err_set(err, TL_EINVAL, "%s:%zu: expected %zu cells as in the header, found %zu",
                           path, lineno, t->k + 1, c);
            break;
        }
        if (t->n == cap) {
            cap = cap ? 2 * cap : 16;
            double *s = realloc(t->score, cap * t->k * sizeof *s);
            if (!s) {
                rc = tl_err_set(err, TL_ENOMEM, "out of memory");
                break;
            }
            t->score = s;
        }
        for (size_t j = 0; j < t->k && !rc; j++) {
            char *end;
            double v = strtod(cell[j + 1], &end);
            if (end == cell[j + 1] || *end || !isfinite(v))
                rc = tl_err_set(err, TL_EINVAL,
                                "%s:%zu: model '%s': expected a finite number, found '%.40s'", path,
                                lineno, t->names[j], cell[j + 1]);
            t->score[t->n * t->k + j] = v;
        }
        t->n++;
    }
    fclose(f);
    if (!rc && t->n < 2)
        rc = tl_err_set(err, TL_EINVAL, "%s: the tests need 2 or more datasets (rows), found %zu",
                        path, t->n);
    return rc;
}

static int report(const table *t, double alpha, int split_zeros, tl_err *err)
{
    size_t k = t->k, n = t->n;
    double *ranks = malloc(k * sizeof *ranks);
    tl_friedman fr;
    int rc = ranks ? tl_friedman_test(t->score, n, k, ranks, &fr, err)
                   : tl_err_set(err, TL_ENOMEM, "out of memory");
    if (!rc) {
        printf("%zu datasets, %zu models (larger is better)\n\n| model | average rank |\n"
               "| --- | ---: |\n",
               n, k);
        for (size_t j = 0; j < k; j++)
            printf("| %s | %.4f |\n", t->names[j], ranks[j]);
        printf("\nFriedman chi² = %.4f (p = %.4g); Iman-Davenport F = %.4f (p = %.4g)\n", fr.chi2,
               fr.p_chi2, fr.ff, fr.p_ff);
        double cd;
        tl_err e;
        if (!tl_nemenyi_cd(k, n, alpha, &cd, &e))
            printf("Nemenyi critical difference at %.2f: %.4f\n", alpha, cd);
        putchar('\n');
        rc = tl_report_pairs_md(stdout, (const char *const *)t->names, t->score, n, k, ranks, alpha,
                                split_zeros, err);
    }
    free(ranks);
    return rc;
}

static int run(int argc, char **argv, tl_err *err)
{
    const char *alpha_s = "0.05", *zeros_s = "drop", *pos[1];
    const tl_cli_opt opts[] = {{"--alpha", 1, &alpha_s}, {"--zeros", 1, &zeros_s}, {NULL, 0, NULL}};
    int n_pos, help;
    int rc = tl_cli_parse(argc, argv, opts, pos, 1, &n_pos, NULL, &help, err);
    if (!rc && help) {
        fputs(tl_cmd_stats.usage, stdout);
        return TL_OK;
    }
    if (!rc && n_pos != 1)
        rc = tl_err_set(err, TL_EINVAL, "expected one SCORES.csv\n%s", tl_cmd_stats.usage);
    char *end;
    double alpha = rc ? 0 : strtod(alpha_s, &end);
    if (!rc && (*end || !(alpha == 0.05 || alpha == 0.10)))
        rc = tl_err_set(err, TL_EINVAL, "--alpha: expected 0.05 or 0.10, got '%s'", alpha_s);
    int split = !rc && !strcmp(zeros_s, "split");
    if (!rc && !split && strcmp(zeros_s, "drop"))
        rc = tl_err_set(err, TL_EINVAL, "--zeros: expected drop or split, got '%s'", zeros_s);
    if (rc)
        return rc;
    table t;
    memset(&t, 0, sizeof t);
    rc = read_table(pos[0], &t, err);
    if (!rc)
        rc = report(&t, alpha, split, err);
    table_free(&t);
    return rc;
}

const tl_cli_command tl_cmd_stats = {
    "stats", "Friedman, Nemenyi, Wilcoxon and Holm on a table of scores",
    "usage: treelab stats SCORES.csv [--alpha 0.05|0.10] [--zeros drop|split]\n"
    "  SCORES.csv: a header `dataset,MODEL1,MODEL2,...` then one row a dataset of scores,\n"
    "  larger better (accuracies from papers, another tool's results; negate errors).\n"
    "  Prints the average ranks, Friedman and Iman-Davenport tests, Nemenyi's critical\n"
    "  difference, and for every pair of models the Wilcoxon signed-rank test and the z-test\n"
    "  of average ranks, each with Holm's correction over all pairs (Demšar 2006) and\n"
    "  Shaffer's static procedure (García & Herrera 2008).\n"
    "  --zeros split   rank zero differences and split them between R+ and R- (Demšar's\n"
    "                  worked example); drop (default) leaves them out, as scipy does\n",
    run};
