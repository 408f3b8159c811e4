/* The mean score of each dataset and model, and the average ranks with the Friedman test
 * and Nemenyi's critical difference over them: what the summary, the critical-difference
 * figure and the paper tables rank by. */
#include "report_util.h"

#include <gsl/gsl_statistics_double.h>
#include <math.h>
#include <stdlib.h>

#define ALPHA 0.05

int tl_rep_mean_scores(const tl_rep *r, const size_t *models, size_t nm, double *scores,
                       tl_err *err)
{
    double *buf = malloc((r->n ? r->n : 1) * sizeof *buf);
    if (!buf)
        return tl_err_set(err, TL_ENOMEM, "out of memory");
    for (size_t d = 0; d < r->meta.n_datasets; d++)
        for (size_t m = 0; m < nm; m++) {
            size_t first, n = tl_rep_range(r, d, models ? models[m] : m, &first);
            for (size_t i = 0; i < n; i++)
                buf[i] = tl_rep_primary(r, &r->cells[first + i]);
            scores[d * nm + m] = n ? gsl_stats_mean(buf, 1, n) : NAN;
        }
    free(buf);
    return TL_OK;
}

int tl_rep_ranks(const tl_rep *r, const size_t *models, size_t nm, double *ranks, tl_friedman *fr,
                 double *cd, int *applies, tl_err *err)
{
    size_t nd = r->meta.n_datasets;
    *cd = NAN;
    *applies = 0;
    if (nd < 2 || nm < 2 || r->meta.n_fractions)
        return TL_OK;
    double *scores = malloc(nd * nm * sizeof *scores);
    int rc = scores ? tl_rep_mean_scores(r, models, nm, scores, err)
                    : tl_err_set(err, TL_ENOMEM, "out of memory");
    tl_err e;
    int frc = rc ? rc : tl_friedman_test(scores, nd, nm, ranks, fr, &e);
    if (frc == TL_ENOMEM && !rc)
        rc = tl_err_set(err, TL_ENOMEM, "out of memory");
    *applies = !frc; /* else e.g. a NaN score */
    if (*applies && tl_nemenyi_cd(nm, nd, ALPHA, cd, &e) != TL_OK)
        *cd = NAN;
    free(scores);
    return rc;
}
