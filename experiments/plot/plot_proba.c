/* Probability figures on the unit square: ROC curves and reliability diagrams, each with its
 * dashed diagonal (chance, or perfect calibration). */
#include <math.h>
#include <stdio.h>

#include "plot_internal.h"

static int check(const tl_plot_proba *p, tl_err *err)
{
    if (!p || !p->series || !p->n_series)
        return tl_err_set(err, TL_EINVAL, "probability plot: no series");
    for (size_t s = 0; s < p->n_series; s++) {
        const tl_plot_proba_series *q = &p->series[s];
        if (!q->n || !q->x || !q->y)
            return tl_err_set(err, TL_EINVAL, "probability plot: series %zu (%s) has no points", s,
                              q->name ? q->name : "unnamed");
        for (size_t i = 0; i < q->n; i++)
            if (!(q->x[i] >= 0 && q->x[i] <= 1 && q->y[i] >= 0 && q->y[i] <= 1))
                return tl_err_set(err, TL_EINVAL,
                                  "probability plot: point (%g, %g) of '%s' is outside [0, 1]",
                                  q->x[i], q->y[i], q->name ? q->name : "");
    }
    return TL_OK;
}

/* Block of one series: x, y, weight and the point size (area proportional to the point's
 * share of the series' weight; 1 without weights). */
static void block(FILE *dat, const tl_plot_proba_series *q)
{
    double total = 0;
    for (size_t i = 0; q->weight && i < q->n; i++)
        total += q->weight[i];
    fputs("# ", dat);
    fputs(q->name ? q->name : "", dat);
    fputs("\n# x y weight point_size\n", dat);
    for (size_t i = 0; i < q->n; i++) {
        double w = q->weight ? q->weight[i] : NAN;
        tlp_num(dat, q->x[i]);
        fputc(' ', dat);
        tlp_num(dat, q->y[i]);
        fputc(' ', dat);
        tlp_num(dat, w);
        fputc(' ', dat);
        tlp_num(dat, q->weight && total > 0 ? 0.6 + 4 * sqrt(w / total) : 1.0);
        fputc('\n', dat);
    }
    fputs("\n\n", dat);
}

int tl_plot_proba_write(const tl_plot_proba *p, const char *stem, tl_err *err)
{
    int rc = check(p, err);
    tlp_fig f;
    if (rc || (rc = tlp_open(&f, stem, p->reliability ? "reliability diagram" : "ROC curve", err)))
        return rc;
    for (size_t s = 0; s < p->n_series; s++)
        block(f.dat, &p->series[s]);
    if (p->reliability)
        tlp_labels(f.gp, p->title ? p->title : "Reliability diagram",
                   "mean predicted probability (per bin)", "observed frequency of the class");
    else
        tlp_labels(f.gp, p->title ? p->title : "ROC curve", "false positive rate",
                   "true positive rate");
    /* square axes fixed to [0, 1]; the key sits right of the square, in the canvas' spare
     * width: inside, a reliability diagram's curves cross every corner and the key hid them */
    fputs("set grid lc rgb '#dddddd'\nset size square\n"
          "set xrange [0:1]\nset yrange [0:1]\nset xtics 0.1\nset ytics 0.1\n"
          "set key outside right top vertical Left reverse noopaque box lc rgb '#bbbbbb' "
          "samplen 3 spacing 1.1\n"
          "plot \\\n",
          f.gp);
    fputs("  x with lines dt 2 lw 1.5 lc rgb '#666666' title ", f.gp);
    tlp_str(f.gp, p->reliability ? "perfect calibration" : "chance");
    for (size_t s = 0; s < p->n_series; s++) {
        int lt = tlp_lt(p->series[s].color);
        if (p->reliability)
            fprintf(f.gp,
                    ", \\\n  dat index %zu using 1:2 with lines lt %d notitle, \\\n"
                    "  dat index %zu using 1:2:4 with points lt %d pt 7 ps variable title ",
                    s, lt, s, lt);
        else
            fprintf(f.gp,
                    ", \\\n  dat index %zu using 1:2 with linespoints lt %d pt 7 ps 0.8 title ", s,
                    lt);
        tlp_str(f.gp, p->series[s].name);
    }
    fputc('\n', f.gp);
    return tlp_finish(&f, err);
}
