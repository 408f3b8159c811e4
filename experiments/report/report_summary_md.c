/* summary.md's text: the header, a table per dataset (with the majority-class warning) and
 * the comparison across datasets (wins, ranks, Friedman, Nemenyi, all pairs). */
#include "report_summary.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "treelab/tl_stats.h"

/* The test's name for the summary's header. */
static const char *test_text(const tl_rep *r)
{
    const char *t = r->meta.compare_test;
    return !strcmp(t, "5x2cv_t")    ? "Dietterich's 5x2cv paired t-test (1998)"
           : !strcmp(t, "5x2cv_f")  ? "Alpaydin's combined 5x2cv F-test (1999)"
           : !strcmp(t, "wilcoxon") ? "Wilcoxon signed-rank test on the paired folds"
                                    : "corrected resampled t-test (Nadeau & Bengio 2003)";
}

void tl_rep_sum_md_header(FILE *f, const tl_rep *r)
{
    const tl_cells_meta *m = &r->meta;
    char proto[1024];
    fprintf(f, "# Experiment %s\n\n", m->name);
    fprintf(f, "Produced by %s from `%s` (sha256 %s), seed %lu, protocol: %s.\n\n", m->producer,
            m->config, m->config_sha, m->seed, tl_rep_protocol_text(m, proto, sizeof proto));
    fputs("| dataset | sha256 |\n| --- | --- |\n", f);
    for (size_t d = 0; d < m->n_datasets; d++)
        fprintf(f, "| %s | %s |\n", MD(m->dataset[d]), m->dataset_sha[d]);
    if (!m->compare_test[0]) { /* a run without `compare` */
        fprintf(f,
                "\nBaseline: **%s**. Wins / ties / losses: corrected resampled t-test (Nadeau & "
                "Bengio 2003) on %s at %.2f, paired over the same folds.\n",
                m->model[m->baseline], "accuracy (RMSE for regression)", ALPHA);
        return;
    }
    char metric[96];
    tl_rep_compare_text(r, metric, sizeof metric);
    fprintf(f,
            "\nBaseline: **%s**. Wins / ties / losses: %s on %s at %.2f, paired over the same "
            "folds; the ranks and the tests across datasets use %s too.\n",
            m->model[m->baseline], test_text(r), metric, ALPHA, metric);
}

/* The share of dataset d's test rows (weighted) in its largest class, from the baseline's
 * confusion matrices, and that class in *top; NaN for regression or without matrices. */
static double majority_rate(const tl_rep *r, size_t d, size_t *top)
{
    size_t first, n = tl_rep_range(r, d, r->meta.baseline, &first), k = r->meta.n_classes[d];
    double best = 0, total = 0;
    *top = 0;
    for (size_t c = 0; c < k; c++) {
        double w = 0;
        for (size_t i = first; i < first + n; i++)
            for (size_t j = 0; r->cells[i].confusion && r->cells[i].k == k && j < k; j++)
                w += r->cells[i].confusion[c * k + j];
        total += w;
        if (w > best)
            best = w, *top = c;
    }
    return total > 0 ? best / total : NAN;
}

/* A note under a dataset's table for each model whose accuracy is no better than always
 * predicting the majority class: on skewed classes accuracy says little. */
static void md_majority(FILE *f, const tl_rep *r, size_t d, const pair_stats *ps)
{
    size_t top, nmod = r->meta.n_models;
    double rate = majority_rate(r, d, &top);
    if (isnan(rate))
        return;
    for (size_t m = 0; m < nmod; m++)
        for (size_t g = 0; g < tl_rep_n_groups(r); g++)
            if (ps[g * nmod + m].mean[0] <= rate + 1e-12)
                fprintf(f,
                        "\n**Warning:** %s's accuracy %.4f is no better than always "
                        "predicting the majority class '%s' (%.4f of the test rows); compare "
                        "balanced_accuracy and roc_auc_macro.\n",
                        r->meta.model[m], ps[g * nmod + m].mean[0], r->meta.classes[d][top], rate);
}

#define MD_MAX_COLS 16

/* Index of metric name among the task's names (leaves and depth included), or -1. */
static long md_index(int cls, const char *name, size_t len)
{
    const char *const *names = cls ? tl_rep_cls_names : tl_rep_reg_names;
    for (size_t j = 0; j < (cls ? N_CLS : N_REG) + 2; j++)
        if (strlen(names[j]) == len && !strncmp(names[j], name, len))
            return (long)j;
    return -1;
}

/* Add column j to col unless it is there already. */
static void md_add(size_t *col, size_t *n, long j)
{
    for (size_t i = 0; j >= 0 && i < *n; i++)
        if (col[i] == (size_t)j)
            return;
    if (j >= 0 && *n < MD_MAX_COLS)
        col[(*n)++] = (size_t)j;
}

/* The columns of a dataset's table (indices into pair_stats' means) into col: the compared
 * metric first, then compare.summary's names of this task, or by default accuracy, balanced
 * accuracy and ROC AUC (RMSE, MAE and R² for regression) and the leaves; summary.csv has
 * every metric. Returns their count. */
static size_t md_columns(const tl_rep *r, int cls, size_t col[MD_MAX_COLS])
{
    static const size_t cls_cols[] = {0, 1, 6, N_CLS}, reg_cols[] = {1, 2, 3, N_REG};
    const size_t *dflt = cls ? cls_cols : reg_cols;
    const char *chosen = tl_rep_compare_metric(r, cls)->name;
    size_t n = 0;
    md_add(col, &n, md_index(cls, chosen, strlen(chosen)));
    const char *p = r->meta.summary;
    if (!*p)
        for (size_t i = 0; i < 4; i++)
            md_add(col, &n, (long)dflt[i]);
    while (*p) { /* a name of the other task is left out */
        size_t len = strcspn(p, ",");
        md_add(col, &n, md_index(cls, p, len));
        p += len + (p[len] == ',');
    }
    return n;
}

void tl_rep_sum_md_dataset(FILE *f, const tl_rep *r, size_t d, const pair_stats *ps)
{
    int cls = r->meta.n_classes[d] > 0, lc = r->meta.n_fractions > 0;
    size_t nmod = r->meta.n_models, col[MD_MAX_COLS], nc = md_columns(r, cls, col);
    const char *const *names = cls ? tl_rep_cls_names : tl_rep_reg_names;
    int fid = 0; /* a fidelity column when a model of this dataset was distilled */
    for (size_t i = 0; i < nmod * tl_rep_n_groups(r); i++)
        fid |= !isnan(ps[i].fid_mean);
    /* the verdict beside the name, the compared metric next: what a reader looks for */
    fprintf(f, "\n## %s (%s)\n\n| model |%s vs baseline (p) |", MD(r->meta.dataset[d]),
            cls ? "classification" : "regression", lc ? " training fraction |" : "");
    for (size_t j = 0; j < nc; j++)
        fprintf(f, " %s |", names[col[j]]);
    fprintf(f, "%s n |\n| --- |%s --- |", fid ? " fidelity |" : "", lc ? " ---: |" : "");
    for (size_t j = 0; j <= nc + (size_t)fid; j++)
        fputs(" ---: |", f);
    fputc('\n', f);
    for (size_t m = 0; m < nmod; m++)
        for (size_t g = 0; g < tl_rep_n_groups(r); g++) {
            const pair_stats *p = &ps[g * nmod + m];
            char frac[32];
            fprintf(f, "| %s |", MD(r->meta.model[m]));
            if (lc)
                fprintf(f, " %s |", tl_num_short(r->meta.fractions[g], frac));
            if (isnan(p->p))
                fprintf(f, " %s |", tl_rep_result_word(p->result));
            else
                fprintf(f, " %s (%.4f) |", tl_rep_result_word(p->result), p->p);
            for (size_t j = 0; j < nc; j++)
                if (isnan(p->mean[col[j]])) /* e.g. the leaves of a learner without a tree */
                    fputs(" n/a |", f);
                else { /* counts (leaves, depth) with 2 decimals */
                    int prec = col[j] >= (cls ? N_CLS : N_REG) ? 2 : 4;
                    fprintf(f, " %.*f ± %.*f |", prec, p->mean[col[j]], prec, p->sd[col[j]]);
                }
            if (fid && isnan(p->fid_mean))
                fputs(" |", f);
            else if (fid)
                fprintf(f, " %.4f ± %.4f |", p->fid_mean, p->fid_sd);
            fprintf(f, " %zu |\n", p->n);
        }
    if (cls)
        md_majority(f, r, d, ps);
}

/* compare.pairs = "all": every pair of the listed models across the datasets. */
static int md_all_pairs(FILE *f, const tl_rep *r, const size_t *mi, size_t nl, const double *ranks,
                        tl_err *err)
{
    size_t nd = r->meta.n_datasets;
    double *scores = malloc(nd * nl * sizeof *scores);
    const char **names = malloc(nl * sizeof *names);
    int rc = scores && names ? tl_rep_mean_scores(r, mi, nl, scores, err)
                             : tl_err_set(err, TL_ENOMEM, "out of memory");
    for (size_t j = 0; !rc && j < nl; j++)
        names[j] = r->meta.model[mi[j]];
    if (!rc) {
        fputs("\n## All pairs\n\n", f);
        rc = tl_report_pairs_md(f, names, scores, nd, nl, ranks, ALPHA, 0, err);
    }
    free(scores);
    free(names);
    return rc;
}

/* Across datasets: W/T/L totals, average ranks, Friedman and Nemenyi when they apply. */
int tl_rep_sum_md_overall(FILE *f, const tl_rep *r, const pair_stats *all, tl_err *err)
{
    size_t nd = r->meta.n_datasets, nm = r->meta.n_models, ng = tl_rep_n_groups(r);
    fputs("\n## Across datasets\n\n", f);
    /* ranked: the models as listed, grid cells left out, as the critical-difference figure
     * ranks them (both from tl_rep_listed) */
    double *ranks = malloc(nm * sizeof *ranks), cd;
    size_t *mi = malloc(nm * sizeof *mi), nl = mi ? tl_rep_listed(r, mi) : 0, at = 0;
    tl_friedman fr;
    int have_ranks = 0;
    int rc = ranks && mi ? tl_rep_ranks(r, mi, nl, ranks, &fr, &cd, &have_ranks, err)
                         : tl_err_set(err, TL_ENOMEM, "out of memory");
    if (rc) {
        free(ranks);
        free(mi);
        return rc;
    }
    fprintf(f, "| model | wins | ties | losses |%s\n| --- | ---: | ---: | ---: |%s\n",
            have_ranks ? " average rank |" : "", have_ranks ? " ---: |" : "");
    for (size_t m = 0; m < nm; m++) {
        int w = 0, t = 0, l = 0;
        for (size_t d = 0; d < nd; d++)
            for (size_t g = 0; g < ng; g++) {
                int res = all[(d * ng + g) * nm + m].result;
                w += res == 1, t += res == 0, l += res == -1;
            }
        fprintf(f, "| %s | %d | %d | %d |", MD(r->meta.model[m]), w, t, l);
        if (have_ranks && at < nl && mi[at] == m)
            fprintf(f, " %.3f |", ranks[at++]);
        else if (have_ranks)
            fputs(" (grid cell) |", f);
        fputc('\n', f);
    }
    if (ng > 1)
        fprintf(f,
                "\nWins, ties and losses count every training fraction of every dataset "
                "(%zu x %zu).\n",
                nd, ng);
    if (have_ranks) {
        fprintf(f,
                "\nFriedman chi² = %.4f (p = %.4g); Iman-Davenport F = %.4f (p = %.4g); "
                "%zu datasets, %zu models%s (Demšar 2006).\n",
                fr.chi2, fr.p_chi2, fr.ff, fr.p_ff, nd, nl,
                nl < nm ? " as listed, grid cells left out, as in the "
                          "critical-difference figure"
                        : "");
        if (!isnan(cd))
            fprintf(f,
                    "Nemenyi critical difference at %.2f: %.4f (average ranks further apart "
                    "differ significantly).\n",
                    ALPHA, cd);
    } else {
        fputs("\nAverage ranks, Friedman and Nemenyi need at least 2 datasets and 2 models "
              "(and are not computed for learning curves).\n",
              f);
    }
    rc = tl_rep_md_baseline_tests(f, r, have_ranks ? ranks : NULL, ALPHA, err);
    if (!rc && have_ranks && !strcmp(r->meta.compare_pairs, "all"))
        rc = md_all_pairs(f, r, mi, nl, ranks, err);
    free(ranks);
    free(mi);
    return rc;
}
