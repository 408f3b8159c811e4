/* Every pair of models over datasets: the Wilcoxon signed-rank test and the z-test of average
 * ranks, each with Holm's step-down over all pairs (Demsar 2006), as a Markdown table; for
 * `compare.pairs = "all"` in the summary and for `treelab stats`. */
#include <math.h>
#include <stdlib.h>

#include "treelab/tl_report.h"
#include "treelab/tl_stats.h"

int tl_report_pairs_md(FILE *f, const char *const *names, const double *scores, size_t n, size_t k,
                       const double *ranks, double alpha, int split_zeros, tl_err *err)
{
    size_t np = k * (k - 1) / 2;
    double *a = malloc(2 * n * sizeof *a), *z = malloc(np * sizeof *z),
           *p = malloc(2 * np * sizeof *p);
    int *rej = malloc(2 * np * sizeof *rej);
    tl_wilcoxon *w = malloc(np * sizeof *w);
    int rc = a && z && p && rej && w ? TL_OK : tl_err_set(err, TL_ENOMEM, "out of memory");
    tl_wilcoxon_zeros zeros = split_zeros ? TL_WILCOXON_ZSPLIT : TL_WILCOXON_WILCOX;
    if (!rc)
        rc = tl_rank_pairs(ranks, k, n, z, p, err);
    double *pw = p + np;
    for (size_t i = 0, at = 0; !rc && i < k; i++)
        for (size_t j = i + 1; j < k; j++, at++) {
            for (size_t r = 0; r < n; r++)
                a[r] = scores[r * k + i], a[n + r] = scores[r * k + j];
            tl_err e;
            if (tl_wilcoxon_test(a, a + n, n, zeros, &w[at], &e)) /* e.g. no difference */
                w[at].r_plus = w[at].r_minus = pw[at] = NAN;
            else
                pw[at] = w[at].p;
        }
    if (!rc)
        rc = tl_holm(p, np, alpha, rej, err);
    if (!rc)
        rc = tl_holm(pw, np, alpha, rej + np, err);
    if (!rc) {
        fprintf(f,
                "Every pair: Wilcoxon signed-rank test on the %zu datasets (zero differences "
                "%s), and the z-test of average ranks (Demšar 2006, 3.2.2), each with Holm's "
                "step-down over the %zu pairs at %.2f.\n\n"
                "| pair | R+ | R- | Wilcoxon p | Holm | z | p | Holm |\n"
                "| --- | ---: | ---: | ---: | --- | ---: | ---: | --- |\n",
                n, split_zeros ? "split between R+ and R-" : "dropped", np, alpha);
        for (size_t i = 0, at = 0; i < k; i++)
            for (size_t j = i + 1; j < k; j++, at++)
                fprintf(f, "| %s - %s | %.1f | %.1f | %.4g | %s | %.4f | %.4g | %s |\n", names[j],
                        names[i], w[at].r_minus, w[at].r_plus, pw[at],
                        isnan(pw[at])  ? "n/a"
                        : rej[np + at] ? "rejected"
                                       : "kept",
                        -z[at], p[at], rej[at] ? "rejected" : "kept");
    }
    free(a);
    free(z);
    free(p);
    free(rej);
    free(w);
    return rc;
}
