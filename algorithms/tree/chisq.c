/* A candidate split's branch x class table and its chi-square test of independence, for the
 * plug-ins that test splits (the chi_square and validation pre-pruners, critical-value pruning). */
#include <string.h>

#include <gsl/gsl_cdf.h>

#include "treelab/tl_grow.h"

/* p-value of the chi-square test of independence of an nb x k table (empty rows and
 * columns left out); 1 when fewer than two rows or columns remain. col: k doubles of scratch. */
double tl_table_margins(const double *table, size_t nb, size_t k, double *col, size_t *rows,
                        size_t *cols)
{
    double total = 0;
    size_t nr = 0, nc = 0;
    memset(col, 0, k * sizeof *col);
    for (size_t b = 0; b < nb; b++) {
        double rw = 0;
        for (size_t c = 0; c < k; c++) {
            rw += table[b * k + c];
            col[c] += table[b * k + c];
        }
        nr += rw > 0;
        total += rw;
    }
    for (size_t c = 0; c < k; c++)
        nc += col[c] > 0;
    if (rows)
        *rows = nr;
    if (cols)
        *cols = nc;
    return total;
}

double tl_chisq_table_p(const double *bs, size_t nb, size_t k, double *col)
{
    size_t rows, cols;
    double total = tl_table_margins(bs, nb, k, col, &rows, &cols);
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

void tl_split_class_table(const tl_dataset *d, const tl_node_rows *rows, const tl_split *s,
                          size_t k, double *bs, double *share, double *miss)
{
    size_t nb = s->n_branches;
    double known = 0;
    memset(bs, 0, nb * k * sizeof *bs);
    memset(share, 0, nb * sizeof *share);
    memset(miss, 0, k * sizeof *miss);
    for (size_t i = 0; i < rows->n; i++) {
        uint32_t r = rows->rows[i];
        int b = tl_split_branch(s, d, r);
        size_t y = (size_t)d->y.code[r];
        if (b >= 0) {
            bs[(size_t)b * k + y] += rows->w[r];
            share[b] += rows->w[r];
            known += rows->w[r];
        } else {
            miss[y] += rows->w[r];
        }
    }
    for (size_t b = 0; b < nb; b++) {
        share[b] = known > 0 ? share[b] / known : 0;
        for (size_t c = 0; c < k; c++)
            bs[b * k + c] += miss[c] * share[b];
    }
}
