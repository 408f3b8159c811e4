/* Rendering a results folder from its cells: metrics, timings, confusion, learning curves. */
#include "report_util.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "treelab/tl_log.h"

FILE *tl_rep_open(const tl_rep *r, const char *name, tl_err *err)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", r->dir, name);
    return tl_out_open(path, err);
}

/* cells[i] comes before (d, m) in the cells' order. */
static int before(const tl_cell *c, size_t d, size_t m)
{
    return c->dataset < d || (c->dataset == d && c->model < m);
}

size_t tl_rep_range(const tl_rep *r, size_t d, size_t m, size_t *first)
{
    size_t i = 0, hi = r->n; /* a binary search: a scan from the start per model made the
                                reports of a 20,000-model grid quadratic */
    while (i < hi) {
        size_t mid = i + (hi - i) / 2;
        if (before(&r->cells[mid], d, m))
            i = mid + 1;
        else
            hi = mid;
    }
    *first = i;
    size_t j = i;
    while (j < r->n && r->cells[j].dataset == d && r->cells[j].model == m)
        j++;
    return j - i;
}

const tl_metric_def *tl_rep_compare_metric(const tl_rep *r, int classification)
{
    const char *name = r->meta.compare_metric;
    tl_err e;
    const tl_metric_def *m = name[0] && strcmp(name, "-") ? tl_metric_find(name, &e) : NULL;
    if (m && m->classification == classification)
        return m;
    return tl_metric_find(classification ? "accuracy" : "rmse", &e);
}

void tl_rep_compare_text(const tl_rep *r, char *buf, size_t size)
{
    const char *name = r->meta.compare_metric;
    const tl_metric_def *m = tl_rep_compare_metric(r, 1);
    if (!name[0] || !strcmp(name, "-"))
        snprintf(buf, size, "accuracy (RMSE for regression)");
    else if (!strcmp(m->name, name))
        snprintf(buf, size, "%s (RMSE for regression)", name);
    else
        snprintf(buf, size, "%s (accuracy for classification)", name);
}

double tl_rep_primary(const tl_rep *r, const tl_cell *c)
{
    const tl_metric_def *m = tl_rep_compare_metric(r, c->classification);
    double v =
        tl_metric_value(m, c->classification ? &c->cm : NULL, c->classification ? NULL : &c->rm);
    return m->lower_is_better ? -v : v;
}

void tl_rep_num(FILE *f, double v)
{
    char buf[32];
    fputs(tl_num_short(v, buf), f); /* "nan" when undefined */
}

const char *tl_rep_protocol_text(const tl_cells_meta *m, char *buf, size_t size)
{
    double a[3];
    size_t rep;
    int strat, used;
    char n[3][32];
    if (sscanf(m->protocol, "holdout train %lf validation %lf test %lf repeats %zu stratified %d",
               &a[0], &a[1], &a[2], &rep, &strat) == 5)
        used = snprintf(buf, size,
                        "holdout train %s validation %s test %s repeats %zu "
                        "stratified %d",
                        tl_num_short(a[0], n[0]), tl_num_short(a[1], n[1]),
                        tl_num_short(a[2], n[2]), rep, strat);
    else
        used = snprintf(buf, size, "%s", m->protocol);
    for (size_t i = 0; i < m->n_fractions && used > 0 && (size_t)used < size; i++)
        used += snprintf(buf + used, size - (size_t)used, "%s%s", i ? ", " : " fractions ",
                         tl_num_short(m->fractions[i], n[0]));
    if (m->missing_rows[0] && used > 0 && (size_t)used < size)
        snprintf(buf + used, size - (size_t)used,
                 ", values removed at random from the %s rows"
                 " (each dataset's copies NAME-missR: R%% removed)",
                 !strcmp(m->missing_rows, "all") ? "training and test" : m->missing_rows);
    return buf;
}

size_t tl_rep_listed(const tl_rep *r, size_t *mi)
{
    size_t n = 0;
    for (size_t m = 0; m < r->meta.n_models; m++)
        if (!r->meta.grid || !r->meta.grid[m])
            mi[n++] = m;
    return n;
}

static int cmp_cell(const void *pa, const void *pb)
{
    const tl_cell *a = pa, *b = pb;
    const size_t ka[] = {a->dataset, a->model, a->repeat, a->fold};
    const size_t kb[] = {b->dataset, b->model, b->repeat, b->fold};
    for (int i = 0; i < 4; i++)
        if (ka[i] != kb[i])
            return ka[i] < kb[i] ? -1 : 1;
    return 0;
}

static int any_task(const tl_rep *r, int classification)
{
    for (size_t d = 0; d < r->meta.n_datasets; d++)
        if ((r->meta.n_classes[d] > 0) == classification)
            return 1;
    return 0;
}

/* A tree's leaves or depth; empty for a learner without a tree (NaN). */
static void size_put(FILE *f, double v)
{
    if (isnan(v))
        fputc(',', f);
    else
        fprintf(f, ",%.0f", v);
}

static int write_metrics(const tl_rep *r, tl_err *err)
{
    FILE *f = tl_rep_open(r, "metrics.csv", err),
         *t = f ? tl_rep_open(r, "timings.csv", err) : NULL;
    if (!t) {
        if (f)
            tl_out_discard(f);
        return err->code;
    }
    int cls = any_task(r, 1), reg = any_task(r, 0);
    fputs("dataset,model,repeat,fold,n_train,n_test", f);
    if (cls)
        fputs(",accuracy,balanced_accuracy,kappa,f1_macro,f1_weighted,log_loss,roc_auc_macro,"
              "roc_auc_weighted,pr_auc,brier",
              f);
    if (reg)
        fputs(",mse,rmse,mae,r2", f);
    const char *sel[64];
    size_t n_sel = tl_rep_sel_columns(r, sel, 64);
    fputs(",leaves,depth", f);
    int ens = 0; /* a trees column only where there are ensembles: other files as they were */
    for (size_t i = 0; i < r->n; i++)
        ens |= r->cells[i].trees > 0;
    if (ens)
        fputs(",trees", f);
    int fid = 0; /* likewise a fidelity column only where a model was distilled */
    for (size_t i = 0; i < r->n; i++)
        fid |= !isnan(r->cells[i].fidelity);
    if (fid)
        fputs(",fidelity", f);
    for (size_t j = 0; j < n_sel; j++) {
        char name[300];
        snprintf(name, sizeof name, "sel.%s", sel[j]);
        fputc(',', f);
        tl_csv_field(f, name);
    }
    fputc('\n', f);
    fputs("dataset,model,repeat,fold,fit_seconds,predict_seconds\n", t);
    for (size_t i = 0; i < r->n; i++) {
        const tl_cell *c = &r->cells[i];
        const char *dn = r->meta.dataset[c->dataset], *mn = r->meta.model[c->model];
        tl_csv_pair(f, dn, mn);
        fprintf(f, ",%zu,%zu,%zu,%zu", c->repeat, c->fold, c->n_train, c->n_test);
        const double cv[] = {c->cm.accuracy,      c->cm.balanced_accuracy, c->cm.kappa,
                             c->cm.f1_macro,      c->cm.f1_weighted,       c->cm.log_loss,
                             c->cm.roc_auc_macro, c->cm.roc_auc_weighted,  c->cm.pr_auc,
                             c->cm.brier};
        const double rv[] = {c->rm.mse, c->rm.rmse, c->rm.mae, c->rm.r2};
        for (size_t j = 0; cls && j < sizeof cv / sizeof *cv; j++) {
            fputc(',', f);
            if (c->classification)
                tl_rep_num(f, cv[j]);
        }
        for (size_t j = 0; reg && j < 4; j++) {
            fputc(',', f);
            if (!c->classification)
                tl_rep_num(f, rv[j]);
        }
        size_put(f, c->leaves);
        size_put(f, c->depth);
        if (ens && c->trees)
            fprintf(f, ",%zu", c->trees);
        else if (ens)
            fputc(',', f);
        if (fid)
            fputc(',', f);
        if (fid && !isnan(c->fidelity))
            tl_rep_num(f, c->fidelity);
        tl_rep_sel_fields(f, r, c, sel, n_sel);
        fputc('\n', f);
        tl_csv_pair(t, dn, mn);
        fprintf(t, ",%zu,%zu,%.6f,%.6f\n", c->repeat, c->fold, c->fit_s, c->predict_s);
    }
    return tl_out_close(t, tl_out_close(f, TL_OK, err), err);
}

void tl_rep_confusion_sum(const tl_rep *r, size_t d, size_t m, double *out)
{
    size_t first, n = tl_rep_range(r, d, m, &first), k = r->meta.n_classes[d];
    memset(out, 0, k * k * sizeof *out);
    for (size_t i = first; i < first + n; i++)
        for (size_t j = 0; j < k * k && r->cells[i].confusion; j++)
            out[j] += r->cells[i].confusion[j];
}

size_t tl_rep_lc_point(const tl_rep *r, size_t d, size_t m, size_t fr, double *mean, double *sd,
                       double *n_train)
{
    double s = 0, s2 = 0, nt = 0;
    size_t first, n = tl_rep_range(r, d, m, &first), cnt = 0;
    for (size_t i = first; i < first + n; i++) {
        const tl_cell *c = &r->cells[i];
        if (c->fold != fr)
            continue;
        double v = c->classification ? c->cm.accuracy : c->rm.rmse;
        s += v, s2 += v * v, nt += (double)c->n_train, cnt++;
    }
    if (!cnt)
        return 0;
    *mean = s / (double)cnt;
    *sd = cnt > 1 ? sqrt(fmax(0, (s2 - (double)cnt * *mean * *mean) / (double)(cnt - 1))) : 0;
    *n_train = nt / (double)cnt;
    return cnt;
}

static int write_confusion(const tl_rep *r, size_t d, size_t m, tl_err *err)
{
    size_t first, n = tl_rep_range(r, d, m, &first), k = r->meta.n_classes[d];
    if (!n || !k)
        return TL_OK;
    char name[2048];
    snprintf(name, sizeof name, "confusion/%s__%s.csv", r->meta.dataset[d], r->meta.model[m]);
    tl_confusion c = {0, NULL};
    double *pr = malloc(3 * k * sizeof *pr);
    int rc = pr ? tl_confusion_init(&c, k, err) : tl_err_set(err, TL_ENOMEM, "out of memory");
    FILE *f = rc ? NULL : tl_rep_open(r, name, err);
    if (!rc && !f)
        rc = err->code;
    if (!rc) {
        tl_rep_confusion_sum(r, d, m, c.m);
        tl_confusion_per_class(&c, pr, pr + k, pr + 2 * k);
        char *const *cl = r->meta.classes[d];
        fputs("truth\\predicted", f);
        for (size_t j = 0; j < k; j++) {
            fputc(',', f);
            tl_csv_field(f, cl[j]);
        }
        fputc('\n', f);
        for (size_t i = 0; i < k; i++) {
            tl_csv_field(f, cl[i]);
            for (size_t j = 0; j < k; j++)
                fprintf(f, ",%.10g", c.m[i * k + j]);
            fputc('\n', f);
        }
        fputs("\nclass,precision,recall,f1\n", f);
        for (size_t i = 0; i < k; i++) {
            tl_csv_field(f, cl[i]);
            fprintf(f, ",%.4f,%.4f,%.4f\n", pr[i], pr[k + i], pr[2 * k + i]);
        }
        rc = tl_out_close(f, rc, err);
    }
    tl_confusion_free(&c);
    free(pr);
    return rc;
}

/* learning_curve.csv: mean and sd of the primary score per training fraction. */
static int write_learning_curve(const tl_rep *r, tl_err *err)
{
    if (!r->meta.n_fractions)
        return TL_OK;
    FILE *f = tl_rep_open(r, "learning_curve.csv", err);
    if (!f)
        return err->code;
    fputs("dataset,model,fraction,n_train_mean,score,score_mean,score_sd\n", f);
    for (size_t d = 0; d < r->meta.n_datasets; d++)
        for (size_t m = 0; m < r->meta.n_models; m++)
            for (size_t fr = 0; fr < r->meta.n_fractions; fr++) {
                double mean, sd, nt;
                if (!tl_rep_lc_point(r, d, m, fr, &mean, &sd, &nt))
                    continue;
                tl_csv_pair(f, r->meta.dataset[d], r->meta.model[m]);
                fprintf(f, ",%.4f,%.1f,%s,%.6f,%.6f\n", r->meta.fractions[fr], nt,
                        r->meta.n_classes[d] ? "accuracy" : "rmse", mean, sd);
            }
    return tl_out_close(f, TL_OK, err);
}

int tl_rep_load(const char *dir, tl_rep *r, tl_err *err)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, TL_CELLS_FILE);
    memset(r, 0, sizeof *r);
    r->dir = dir;
    int rc = tl_cells_read(path, &r->meta, &r->cells, &r->n, NULL, err);
    if (!rc && r->n) /* qsort of no cells: NULL is not an array (UBSan) */
        qsort(r->cells, r->n, sizeof *r->cells, cmp_cell);
    return rc;
}

void tl_rep_free(tl_rep *r)
{
    for (size_t i = 0; r->cells && i < r->n; i++)
        tl_cell_clear(&r->cells[i]);
    free(r->cells);
    tl_cells_meta_clear(&r->meta);
    memset(r, 0, sizeof *r);
}

int tl_report_render(const char *dir, tl_err *err)
{
    /* before the lock, whose file would be left in any folder named by mistake */
    char cells[4200];
    struct stat st;
    snprintf(cells, sizeof cells, "%s/%s", dir, TL_CELLS_FILE);
    if (stat(dir, &st) != 0)
        return tl_err_set(err, TL_EIO, "%s: no such results folder", dir);
    if (!S_ISDIR(st.st_mode) || access(cells, F_OK) != 0)
        return tl_err_set(err, TL_EIO,
                          "%s is not a results folder (%s); treelab run writes "
                          "one",
                          dir,
                          S_ISDIR(st.st_mode) ? "it has no " TL_CELLS_FILE : "it is not a folder");
    if (!tl_results_is_ours(dir)) /* a cells.txt of someone else's: its folder is not ours */
        return tl_err_set(err, TL_EINVAL,
                          "%s is not a treelab results folder: its %s does not start with "
                          "treelab's header, so no report is written into it",
                          dir, TL_CELLS_FILE);
    int lock;
    int rc = tl_results_lock(dir, &lock, err);
    if (!rc) {
        tl_out_sweep(dir); /* what a killed run was writing */
        rc = tl_rep_render(dir, err);
        if (!rc)
            rc = tl_rep_paper(dir, err);
    }
    tl_results_unlock(lock);
    return rc;
}

int tl_rep_render(const char *dir, tl_err *err)
{
    tl_err local;
    if (!err)
        err = &local; /* a failed tl_rep_open leaves its code only in err */
    char path[4096];
    tl_rep r;
    int rc = tl_rep_load(dir, &r, err);
    if (rc)
        return rc;
    /* a checksum line that does not match was refused by the load */
    if (!r.meta.checked && r.meta.format < 2)
        tl_warn("%s/%s was written before cells files carried a checksum (format 1): its %zu "
                "cells are reported unverified",
                dir, TL_CELLS_FILE, r.n);
    else if (!r.meta.checked)
        tl_warn("%s/%s does not end in its checksum line: its run did not finish or the file "
                "was cut; the report covers the %zu cells it holds",
                dir, TL_CELLS_FILE, r.n);
    snprintf(path, sizeof path, "%s/confusion", dir);
    int confusion = any_task(&r, 1) && (r.meta.reports & TL_REPORT_CONFUSION);
    if (confusion)
        mkdir(path, 0777);
    rc = write_metrics(&r, err);
    for (size_t d = 0; !rc && confusion && d < r.meta.n_datasets; d++)
        for (size_t m = 0; !rc && m < r.meta.n_models; m++)
            rc = write_confusion(&r, d, m, err);
    if (!rc)
        rc = write_learning_curve(&r, err);
    if (!rc)
        rc = tl_rep_selections(&r, err);
    if (!rc)
        rc = tl_rep_summary(&r, err);
    tl_rep_free(&r);
    return rc;
}
