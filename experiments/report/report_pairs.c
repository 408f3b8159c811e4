/* Every pair of models over datasets: the Wilcoxon signed-rank test and the z-test of average
 * ranks, each with Holm's step-down over all pairs (Demsar 2006) and Shaffer's static
 * procedure (Garcia & Herrera 2008), as a Markdown table; for `compare.pairs = "all"` in the
 * summary and for `treelab stats`. */
#include <math.h>
#include <stdlib.h>

#include "treelab/tl_report.h"
#include "treelab/tl_stats.h"

/* "rejected (0.007049)", "kept (0.6683)", or n/a. */
static void verdict(FILE *f, int tested, int rejected, double adjusted)
{
    if (!tested)
        fputs("n/a", f);
    else
        fprintf(f, "%s (%.4g)", rejected ? "rejected" : "kept", adjusted);
}

int tl_report_pairs_md(FILE *f, const char *const *names, const double *scores, size_t n, size_t k,
                       const double *ranks, double alpha, int split_zeros, tl_err *err)
{
    size_t np = k * (k - 1) / 2;
    double *a = malloc(2 * n * sizeof *a), *z = malloc(np * sizeof *z),
           *p = malloc(4 * np * sizeof *p);
    int *rej = malloc(4 * np * sizeof *rej);
    tl_wilcoxon *w = malloc(np * sizeof *w);
    int rc = a && z && p && rej && w ? TL_OK : tl_err_set(err, TL_ENOMEM, "out of memory");
    double *sh = p + 2 * np; /* Shaffer's adjusted p: the z-tests', then the Wilcoxon tests' */
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
    /* Shaffer's divisors exist up to TL_SHAFFER_MAX_MODELS models: past that, n/a */
    int shaffer = !rc && !tl_shaffer(p, k, alpha, sh, rej + 2 * np, NULL) &&
                  !tl_shaffer(pw, k, alpha, sh + np, rej + 3 * np, NULL);
    if (!rc) {
        fprintf(f,
                "Every pair: Wilcoxon signed-rank test on the %zu datasets (zero differences "
                "%s), and the z-test of average ranks (Demšar 2006, 3.2.2), each with Holm's "
                "step-down and Shaffer's static procedure (García & Herrera 2008; its "
                "adjusted p in brackets) over the %zu pairs at %.2f.\n\n"
                "| pair | R+ | R- | Wilcoxon p | Holm | Shaffer | z | p | Holm | Shaffer |\n"
                "| --- | ---: | ---: | ---: | --- | --- | ---: | ---: | --- | --- |\n",
                n, split_zeros ? "split between R+ and R-" : "dropped", np, alpha);
        for (size_t i = 0, at = 0; i < k; i++)
            for (size_t j = i + 1; j < k; j++, at++) {
                fprintf(f, "| %s - %s | %.1f | %.1f | %.4g | %s | ", names[j], names[i],
                        w[at].r_minus, w[at].r_plus, pw[at],
                        isnan(pw[at])  ? "n/a"
                        : rej[np + at] ? "rejected"
                                       : "kept");
                verdict(f, shaffer && !isnan(pw[at]), rej[3 * np + at], sh[np + at]);
                fprintf(f, " | %.4f | %.4g | %s | ", -z[at], p[at], rej[at] ? "rejected" : "kept");
                verdict(f, shaffer, rej[2 * np + at], sh[at]);
                fputs(" |\n", f);
            }
    }
    free(a);
    free(z);
    free(p);
    free(rej);
    free(w);
    return rc;
}
