/* Critical difference diagram (Demsar 2006): average ranks on an axis, models not
 * significantly different joined by bars. */
#include <gsl/gsl_sort.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plot_internal.h"

size_t tl_plot_cd_cliques(const tl_plot_cd *c, size_t *order, size_t *first, size_t *last)
{
    gsl_sort_index(order, c->ranks, 1, c->k);
    size_t n = 0, reach = 0;
    for (size_t i = 0; i < c->k; i++) {
        size_t j = i;
        while (j + 1 < c->k && c->ranks[order[j + 1]] - c->ranks[order[i]] < c->cd)
            j++;
        /* a run inside the previous one is not maximal */
        if (j > i && (n == 0 || j > reach)) {
            first[n] = i;
            last[n] = j;
            n++;
            reach = j;
        }
    }
    return n;
}

static int check(const tl_plot_cd *c, tl_err *err)
{
    if (!c || c->k < 2 || !c->models || !c->ranks)
        return tl_err_set(err, TL_EINVAL, "CD diagram: needs at least two models with ranks");
    if (!(c->cd >= 0))
        return tl_err_set(err, TL_EINVAL, "CD diagram: critical difference %g is not >= 0", c->cd);
    for (size_t i = 0; i < c->k; i++)
        if (!(c->ranks[i] >= 1 && c->ranks[i] <= (double)c->k))
            return tl_err_set(err, TL_EINVAL, "CD diagram: rank %g of '%s' outside [1, %zu]",
                              c->ranks[i], c->models[i], c->k);
    return TL_OK;
}

/* Block 0 (labels) and block 1 (cliques); returns the number of cliques. */
static size_t write_data(const tl_plot_cd *c, FILE *dat, size_t *order, double pad, double *depth)
{
    size_t *first = order + c->k, *last = first + c->k;
    size_t nq = tl_plot_cd_cliques(c, order, first, last);
    double top = 0.4 + 0.35 * (double)nq; /* clique bars sit between the axis and labels */
    size_t left = (c->k + 1) / 2;
    fputs("# model rank label_x label_y side(-1 left, 1 right)\n", dat);
    for (size_t i = 0; i < c->k; i++) {
        size_t m = order[i];
        int on_left = i < left;
        /* nearest to the axis: the best on the left, the worst on the right */
        size_t row = on_left ? i : c->k - 1 - i;
        fputs("", dat);
        tlp_field(dat, c->models[m]);
        fputc(' ', dat);
        tlp_num(dat, c->ranks[m]);
        fprintf(dat, " %.10g %.10g %d\n", on_left ? 1 - pad : (double)c->k + pad,
                -(top + 0.7 * (double)row), on_left ? -1 : 1);
    }
    fputs("\n\n# clique: rank_from rank_to y\n", dat);
    for (size_t q = 0; q < nq; q++)
        fprintf(dat, "%.10g %.10g %.10g\n", c->ranks[order[first[q]]] - 0.03,
                c->ranks[order[last[q]]] + 0.03, -(0.3 + 0.35 * (double)q));
    fputs("\n\n", dat);
    *depth = top + 0.7 * (double)(left - 1) + 0.4;
    return nq;
}

int tl_plot_cd_write(const tl_plot_cd *c, const char *stem, tl_err *err)
{
    int rc = check(c, err);
    if (rc)
        return rc;
    size_t *order = malloc(3 * c->k * sizeof *order);
    if (!order)
        return tl_err_set(err, TL_ENOMEM, "CD diagram: out of memory");
    tlp_fig f;
    if ((rc = tlp_open(&f, stem, "critical difference diagram", err))) {
        free(order);
        return rc;
    }
    double pad = 0.1 + 0.04 * (double)c->k, depth;
    size_t nq = write_data(c, f.dat, order, pad, &depth);
    free(order);

    char title[512];
    snprintf(title, sizeof title,
             "%s\naverage ranks over %zu datasets (1 = best); bars join "
             "models within CD",
             c->title ? c->title : "Critical difference diagram (Nemenyi)", c->n_datasets);
    tlp_labels(f.gp, title, NULL, NULL);
    fprintf(f.gp, "set xrange [%.10g:%.10g]\nset x2range [%.10g:%.10g]\n", 1 - pad,
            (double)c->k + pad, 1 - pad, (double)c->k + pad);
    depth += 0.5; /* room for the CD bar */
    fprintf(f.gp, "set yrange [%.10g:0]\n", -depth);
    fprintf(f.gp,
            "# the rank axis is the top border\n"
            "set border 4 lw 2\nunset xtics\nunset ytics\n"
            "set x2tics 1,1,%zu out scale 1.5\nset mx2tics 2\n",
            c->k);
    /* room beside the axis for the longest label, "NAME (r.rr)" at about 12 px a character
     * of the 1200 px canvas, from a quarter of it up to 0.45; longer names are cut with
     * "..." so that no label leaves the canvas */
    size_t longest = 0;
    for (size_t i = 0; i < c->k; i++)
        longest = strlen(c->models[i]) > longest ? strlen(c->models[i]) : longest;
    const double char_w = 12.0 / 1200.0, most = 0.45;
    double side = 0.03 + char_w * (double)(longest + 7);
    side = side < 0.26 ? 0.26 : side > most ? most : side;
    size_t fit = (size_t)((most - 0.03) / char_w) - 7; /* name characters a label can hold */
    fprintf(f.gp,
            "set lmargin at screen %.4f\nset rmargin at screen %.4f\nset tmargin 7\n"
            "unset key\n",
            side, 1 - side);
    fprintf(f.gp,
            "cut(s) = strlen(s) > %zu ? s[1:%zu].'...' : s\n"
            "name(s, r) = sprintf('%%s (%%.2f)', cut(s), r)\n",
            fit, fit - 3);
    fprintf(f.gp,
            "# the critical difference as a bar from rank 1, under the labels\n"
            "set arrow 1 from first 1, first %.10g to first %.10g, first %.10g heads "
            "size screen 0.008,90 lw 2.5 lc rgb '#D55E00'\n"
            "set label 1 'CD = %.3f' at first %.10g, first %.10g left offset 1,0 "
            "tc rgb '#D55E00'\n",
            -depth + 0.35, 1 + c->cd, -depth + 0.35, c->cd, 1 + c->cd, -depth + 0.35);
    fputs("plot dat index 0 using 2:(0):(0):4 with vectors nohead lw 1.5 "
          "lc rgb '#333333', \\\n"
          "  '' index 0 using 2:4:($3 - $2):(0) with vectors nohead lw 1.5 "
          "lc rgb '#333333', \\\n"
          "  '' index 0 using 3:($5 < 0 ? $4 : NaN):(name(strcol(1), $2)) with labels "
          "right offset -0.5,0, \\\n"
          "  '' index 0 using 3:($5 > 0 ? $4 : NaN):(name(strcol(1), $2)) with labels "
          "left offset 0.5,0",
          f.gp);
    if (nq)
        fputs(", \\\n  '' index 1 using 1:3:($2 - $1):(0) with vectors nohead lw 7 "
              "lc rgb '#000000'",
              f.gp);
    fputc('\n', f.gp);
    return tlp_finish(&f, err);
}
