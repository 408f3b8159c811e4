/* The chi-square test of independence of a branch x class table, for the plug-ins that test
 * splits (the chi_square pre-pruner, critical-value pruning). */
#include <string.h>

#include <gsl/gsl_cdf.h>

#include "treelab/tl_grow.h"

/* p-value of the chi-square test of independence of an nb x k table (empty rows and
 * columns left out); 1 when fewer than two rows or columns remain. col: k doubles of scratch. */
double tl_chisq_table_p(const double *bs, size_t nb, size_t k, double *col)
{
    double total = 0;
    size_t rows = 0, cols = 0;
    memset(col, 0, k * sizeof *col);
    for (size_t b = 0; b < nb; b++) {
        double rw = 0;
        for (size_t c = 0; c < k; c++) {
            rw += bs[b * k + c];
            col[c] += bs[b * k + c];
        }
        rows += rw > 0;
        total += rw;
    }
    for (size_t c = 0; c < k; c++)
        cols += col[c] > 0;
    if (rows < 2 || cols < 2 || total <= 0)
        return 1;
    double stat = 0;
    for (size_t b = 0; b < nb; b++) {
        double rw = 0;
        for (size_t c = 0; c < k; c++)
            rw += bs[b * k + c];
        for (size_t c = 0; c < k && rw > 0; c++) {
            if (col[c] <= 0)
                continue;
            double e = rw * col[c] / total, o = bs[b * k + c];
            stat += (o - e) * (o - e) / e;
        }
    }
    return gsl_cdf_chisq_Q(stat, (double)((rows - 1) * (cols - 1)));
}
