/* summary.md and summary.csv: each (dataset, model) pair's means, sds and paired test against
 * the baseline (summary.csv written here, summary.md's text by report_summary_md.c). */
#include "report_summary.h"

#include <gsl/gsl_statistics_double.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "treelab/tl_stats.h"

const char *const tl_rep_cls_names[N_CLS + 2] = {
    "accuracy",      "balanced_accuracy", "kappa",  "f1_macro", "f1_weighted", "log_loss",
    "roc_auc_macro", "roc_auc_weighted",  "pr_auc", "brier",    "leaves",      "depth"};
const char *const tl_rep_reg_names[N_REG + 2] = {"mse", "rmse", "mae", "r2", "leaves", "depth"};

const char *tl_rep_result_word(int r)
{
    return r == 1 ? "win" : r == -1 ? "loss" : r == 0 ? "tie" : r == 2 ? "baseline" : "n/a";
}

static double metric(const tl_cell *c, size_t j)
{
    if (c->classification) {
        const double v[] = {c->cm.accuracy,      c->cm.balanced_accuracy,
                            c->cm.kappa,         c->cm.f1_macro,
                            c->cm.f1_weighted,   c->cm.log_loss,
                            c->cm.roc_auc_macro, c->cm.roc_auc_weighted,
                            c->cm.pr_auc,        c->cm.brier,
                            c->leaves,           c->depth};
        return v[j];
    }
    const double v[] = {c->rm.mse, c->rm.rmse, c->rm.mae, c->rm.r2, c->leaves, c->depth};
    return v[j];
}

/* Indices of the cells of (d, m) at fold fr (SIZE_MAX: every fold) into idx; their count. A
 * learning curve's fold is its training fraction. */
static size_t select_cells(const tl_rep *r, size_t d, size_t m, size_t fr, size_t *idx)
{
    size_t first, n = tl_rep_range(r, d, m, &first), k = 0;
    for (size_t i = first; i < first + n; i++)
        if (fr == SIZE_MAX || r->cells[i].fold == fr)
            idx[k++] = i;
    return k;
}

/* compare.test on the paired scores a (the model) and b (the baseline) of n cells in repeat
 * and fold order: its p and the mean difference. 5x2cv tests need the 10 cells of 5 x 2-fold
 * CV (else not tested). TL_OK, TL_ENOMEM, or another code when the test does not apply. */
static int paired_test(const tl_rep *r, const double *a, const double *b, size_t n,
                       double test_train, double *p, double *diff)
{
    const char *test = r->meta.compare_test;
    tl_err e;
    *diff = 0;
    for (size_t i = 0; i < n; i++)
        *diff += (a[i] - b[i]) / (double)n;
    if (!strcmp(test, "5x2cv_t") || !strcmp(test, "5x2cv_f")) {
        if (n != 10)
            return TL_EINVAL;
        tl_ttest t;
        tl_ftest f;
        int rc = test[6] == 't' ? tl_5x2cv_t_test(a, b, &t, &e) : tl_5x2cv_f_test(a, b, &f, &e);
        *p = test[6] == 't' ? t.p : f.p;
        return rc;
    }
    if (!strcmp(test, "wilcoxon")) {
        tl_wilcoxon w;
        int rc = tl_wilcoxon_test(a, b, n, TL_WILCOXON_WILCOX, &w, &e);
        *p = rc ? NAN : w.p;
        return rc;
    }
    tl_ttest t;
    int rc = tl_corrected_ttest(a, b, n, test_train, &t, &e);
    *p = rc ? NAN : t.p;
    return rc;
}

/* The pair (d, m) over its cells at fold fr (SIZE_MAX: all); idx holds 2 x r->n entries and
 * buf 2 x r->n values. */
static int pair(const tl_rep *r, size_t d, size_t m, size_t fr, double *buf, size_t *idx,
                pair_stats *ps, tl_err *err)
{
    size_t *bidx = idx + r->n;
    size_t n = select_cells(r, d, m, fr, idx);
    size_t bn = select_cells(r, d, r->meta.baseline, fr, bidx);
    size_t nm = (r->meta.n_classes[d] ? N_CLS : N_REG) + 2;
    ps->n = n;
    for (size_t j = 0; j < nm; j++) {
        /* over the cells where the metric is defined (a fold with one class has no AUC) */
        size_t defined = 0;
        for (size_t i = 0; i < n; i++)
            if (!isnan(buf[defined] = metric(&r->cells[idx[i]], j)))
                defined++;
        ps->mean[j] = defined ? gsl_stats_mean(buf, 1, defined) : NAN;
        ps->sd[j] = defined > 1 ? gsl_stats_sd(buf, 1, defined) : 0;
    }
    size_t nf = 0;
    for (size_t i = 0; i < n; i++)
        if (!isnan(buf[nf] = r->cells[idx[i]].fidelity))
            nf++;
    ps->fid_mean = nf ? gsl_stats_mean(buf, 1, nf) : NAN;
    ps->fid_sd = nf > 1 ? gsl_stats_sd(buf, 1, nf) : 0;
    ps->p = NAN;
    ps->result = m == r->meta.baseline ? 2 : 3;
    /* a learning curve is tested per training fraction: pooled, its cells mix sizes */
    if (ps->result == 2 || n != bn || n < 2 || (r->meta.n_fractions && fr == SIZE_MAX))
        return TL_OK;
    double ntr = 0, nte = 0, *b = buf + n;
    for (size_t i = 0; i < n; i++) {
        buf[i] = tl_rep_primary(r, &r->cells[idx[i]]);
        b[i] = tl_rep_primary(r, &r->cells[bidx[i]]);
        ntr += (double)r->cells[bidx[i]].n_train;
        nte += (double)r->cells[bidx[i]].n_test;
    }
    double diff = 0;
    int rc = paired_test(r, buf, b, n, nte / ntr, &ps->p, &diff);
    if (rc == TL_ENOMEM)
        return tl_err_set(err, TL_ENOMEM, "out of memory");
    if (rc)
        return TL_OK; /* e.g. a non-finite difference: reported as not tested */
    ps->result = isnan(ps->p) ? 0 : ps->p < ALPHA ? (diff > 0 ? 1 : -1) : 0;
    return TL_OK;
}

/* ",mean,sd" at full precision. */
static void csv_mean_sd(FILE *f, const pair_stats *p, size_t j)
{
    fputc(',', f);
    tl_rep_num(f, p->mean[j]);
    fputc(',', f);
    tl_rep_num(f, p->sd[j]);
}

static void csv_rows(FILE *f, const tl_rep *r, size_t d, const pair_stats *ps, int any_cls,
                     int any_reg)
{
    int cls = r->meta.n_classes[d] > 0;
    size_t nmod = r->meta.n_models;
    for (size_t m = 0; m < nmod; m++)
        for (size_t g = 0; g < tl_rep_n_groups(r); g++) {
            const pair_stats *p = &ps[g * nmod + m];
            char frac[32];
            tl_csv_pair(f, r->meta.dataset[d], r->meta.model[m]);
            if (r->meta.n_fractions)
                fprintf(f, ",%s", tl_num_short(r->meta.fractions[g], frac));
            fprintf(f, ",%zu", p->n);
            for (size_t j = 0; any_cls && j < N_CLS; j++)
                if (cls)
                    csv_mean_sd(f, p, j);
                else
                    fputs(",,", f);
            for (size_t j = 0; any_reg && j < N_REG; j++)
                if (!cls)
                    csv_mean_sd(f, p, j);
                else
                    fputs(",,", f);
            size_t o = cls ? N_CLS : N_REG;
            for (size_t j = o; j < o + 2; j++) /* leaves and depth: empty without a tree */
                if (isnan(p->mean[j]))
                    fputs(",,", f);
                else
                    csv_mean_sd(f, p, j);
            fputc(',', f);
            if (!isnan(p->p))
                tl_rep_num(f, p->p);
            fprintf(f, ",%s\n", tl_rep_result_word(p->result));
        }
}

static void csv_header(FILE *f, const tl_rep *r, int any_cls, int any_reg)
{
    fputs(r->meta.n_fractions ? "dataset,model,fraction,n" : "dataset,model,n", f);
    for (size_t j = 0; any_cls && j < N_CLS; j++)
        fprintf(f, ",%s_mean,%s_sd", tl_rep_cls_names[j], tl_rep_cls_names[j]);
    for (size_t j = 0; any_reg && j < N_REG; j++)
        fprintf(f, ",%s_mean,%s_sd", tl_rep_reg_names[j], tl_rep_reg_names[j]);
    fputs(",leaves_mean,leaves_sd,depth_mean,depth_sd,p_vs_baseline,vs_baseline\n", f);
}

int tl_rep_summary(const tl_rep *r, tl_err *err)
{
    tl_err local;
    if (!err)
        err = &local; /* a failed tl_rep_open leaves its code only in err */
    size_t nd = r->meta.n_datasets, nm = r->meta.n_models, ng = tl_rep_n_groups(r);
    pair_stats *all = calloc(nd * ng * nm, sizeof *all);
    double *buf = malloc(2 * (r->n ? r->n : 1) * sizeof *buf);
    size_t *idx = malloc(2 * (r->n ? r->n : 1) * sizeof *idx);
    FILE *md = NULL, *csv = NULL;
    int rc = all && buf && idx ? TL_OK : tl_err_set(err, TL_ENOMEM, "out of memory");
    for (size_t d = 0; !rc && d < nd; d++)
        for (size_t g = 0; !rc && g < ng; g++)
            for (size_t m = 0; !rc && m < nm; m++)
                rc = pair(r, d, m, r->meta.n_fractions ? g : SIZE_MAX, buf, idx,
                          &all[(d * ng + g) * nm + m], err);
    if (!rc && !(md = tl_rep_open(r, "summary.md", err)))
        rc = err->code;
    if (!rc && !(csv = tl_rep_open(r, "summary.csv", err)))
        rc = err->code;
    if (!rc) {
        int any_cls = 0, any_reg = 0;
        for (size_t d = 0; d < nd; d++)
            any_cls |= r->meta.n_classes[d] > 0, any_reg |= r->meta.n_classes[d] == 0;
        tl_rep_sum_md_header(md, r);
        fputs("\nEach dataset's table: the verdict against the baseline, then means ± sds over "
              "the test folds of the compared metric, a few others and the leaves. Every "
              "metric is in summary.csv, and per fold in metrics.csv.\n",
              md);
        csv_header(csv, r, any_cls, any_reg);
        for (size_t d = 0; d < nd; d++) {
            tl_rep_sum_md_dataset(md, r, d, &all[d * ng * nm]);
            csv_rows(csv, r, d, &all[d * ng * nm], any_cls, any_reg);
        }
        tl_rep_select_md(md, r);
        rc = tl_rep_sum_md_overall(md, r, all, err);
    }
    if (md)
        rc = tl_out_close(md, rc, err);
    if (csv)
        rc = tl_out_close(csv, rc, err);
    free(all);
    free(buf);
    free(idx);
    return rc;
}
