/* summary.md: Wilcoxon, Holm and Bonferroni-Dunn across datasets; McNemar on hold-out splits. */
#include "report_util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static const char *yes_no(int v)
{
    return v ? "rejected" : "kept";
}

/* Across datasets: Wilcoxon on the per-dataset means, Holm / Bonferroni-Dunn on the ranks. */
static int across_datasets(FILE *f, const tl_rep *r, const double *ranks, double alpha, tl_err *err)
{
    size_t nd = r->meta.n_datasets, nm = r->meta.n_models, base = r->meta.baseline;
    double *scores = malloc(nd * nm * sizeof *scores), *a = malloc(2 * nd * sizeof *a);
    tl_control_test *ct = malloc(nm * sizeof *ct);
    int rc = scores && a && ct ? tl_rep_mean_scores(r, NULL, nm, scores, err)
                               : tl_err_set(err, TL_ENOMEM, "out of memory");
    tl_err e;
    int crc = rc || !ranks ? TL_EINVAL : tl_control_tests(ranks, nm, nd, base, alpha, ct, &e);
    if (crc == TL_ENOMEM)
        rc = tl_err_set(err, TL_ENOMEM, "out of memory");
    int have_ct = crc == TL_OK;
    char metric[96] = "accuracy (minus RMSE for regression)";
    if (r->meta.compare_test[0])
        tl_rep_compare_text(r, metric, sizeof metric);
    if (!rc) {
        fprintf(f,
                "\nAgainst the baseline across the %zu datasets (mean %s per dataset): "
                "Wilcoxon signed-rank test (two-sided; zero differences dropped; exact p up to "
                "50 datasets without ties, else the normal approximation with tie correction, "
                "as scipy 1.10)",
                nd, metric);
        if (have_ct)
            fprintf(f,
                    "; Holm's step-down and Bonferroni-Dunn procedures on the average ranks "
                    "with the baseline as control (Demšar 2006, 3.2.2), at %.2f",
                    alpha);
        fprintf(f, ".\n\n| model | R+ | R- | Wilcoxon p |%s\n| --- | ---: | ---: | ---: |%s\n",
                have_ct ? " z | p | Holm | Bonferroni-Dunn |" : "",
                have_ct ? " ---: | ---: | --- | --- |" : "");
    }
    for (size_t m = 0; !rc && m < nm; m++) {
        if (m == base)
            continue;
        for (size_t d = 0; d < nd; d++)
            a[d] = scores[d * nm + m], a[nd + d] = scores[d * nm + base];
        tl_wilcoxon w;
        int wrc = tl_wilcoxon_test(a, a + nd, nd, TL_WILCOXON_WILCOX, &w, &e);
        if (wrc == TL_ENOMEM) {
            rc = tl_err_set(err, TL_ENOMEM, "out of memory");
            break;
        }
        fprintf(f, "| %s |", MD(r->meta.model[m]));
        if (wrc) /* every difference 0 or a NaN score */
            fputs(" n/a | n/a | n/a |", f);
        else
            fprintf(f, " %.1f | %.1f | %.4g%s |", w.r_plus, w.r_minus, w.p,
                    w.exact ? "" : " (normal)");
        if (have_ct)
            fprintf(f, " %.3f | %.4g | %s | %s |", ct[m].z, ct[m].p, yes_no(ct[m].holm),
                    yes_no(ct[m].bonferroni_dunn));
        fputc('\n', f);
    }
    free(scores);
    free(a);
    free(ct);
    return rc;
}

/* McNemar on the paired per-row results of a model and the baseline in one split. */
static int split_counts(const tl_cell *c, const tl_cell *b, unsigned long *n01, unsigned long *n10)
{
    if (!c->correct || !b->correct || c->n_test != b->n_test || c->repeat != b->repeat)
        return -1;
    *n01 = *n10 = 0;
    for (size_t i = 0; i < c->n_test; i++) {
        *n01 += c->correct[i] == '0' && b->correct[i] == '1';
        *n10 += c->correct[i] == '1' && b->correct[i] == '0';
    }
    return 0;
}

static void mcnemar_dataset(FILE *f, const tl_rep *r, size_t d, double alpha)
{
    size_t base = r->meta.baseline, bfirst, bn = tl_rep_range(r, d, base, &bfirst);
    fprintf(f,
            "\n%s:\n\n| model | n01 | n10 | chi² | p | exact p | splits with exact p < "
            "%.2f |\n| --- | ---: | ---: | ---: | ---: | ---: | ---: |\n",
            r->meta.dataset[d], alpha);
    for (size_t m = 0; m < r->meta.n_models; m++) {
        size_t first, n = tl_rep_range(r, d, m, &first), significant = 0, tested = 0;
        if (m == base || !r->meta.n_classes[d])
            continue;
        unsigned long n01, n10, first01 = 0, first10 = 0;
        tl_mcnemar first_t = {NAN, NAN, NAN}, t;
        for (size_t i = 0; i < n && i < bn; i++) {
            if (split_counts(&r->cells[first + i], &r->cells[bfirst + i], &n01, &n10))
                continue;
            tl_mcnemar_test(n01, n10, &t);
            if (!tested)
                first_t = t, first01 = n01, first10 = n10;
            tested++;
            significant += t.p_exact < alpha;
        }
        if (!tested) {
            fprintf(f, "| %s | n/a | n/a | n/a | n/a | n/a | n/a |\n", MD(r->meta.model[m]));
            continue;
        }
        fprintf(f, "| %s | %lu | %lu | %.4f | %.4g | %.4g | %zu of %zu |\n", MD(r->meta.model[m]),
                first01, first10, first_t.chi2, first_t.p_chi2, first_t.p_exact, significant,
                tested);
    }
}

int tl_rep_md_baseline_tests(FILE *f, const tl_rep *r, const double *ranks, double alpha,
                             tl_err *err)
{
    if (r->meta.n_datasets >= 2 && r->meta.n_models >= 2 && !r->meta.n_fractions) {
        int rc = across_datasets(f, r, ranks, alpha, err);
        if (rc)
            return rc;
    }
    if (strncmp(r->meta.protocol, "holdout", 7) || r->meta.n_models < 2)
        return TL_OK;
    fprintf(f,
            "\nMcNemar's test against the baseline on the hold-out test rows (n01: rows "
            "only the model gets wrong, n10: only the baseline; chi² with Edwards' "
            "continuity correction as Dietterich 1998, and the exact binomial p). The "
            "counts are those of the first split; the last column counts the splits whose "
            "exact p is below %.2f.\n",
            alpha);
    for (size_t d = 0; d < r->meta.n_datasets; d++)
        if (r->meta.n_classes[d])
            mcnemar_dataset(f, r, d, alpha);
    return TL_OK;
}
