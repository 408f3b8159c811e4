/* Accuracy per fold: a box plot per model per dataset, with the folds as dots. */
#include <math.h>
#include <string.h>
#include <stdio.h>

#include "plot_internal.h"

static int check(const tl_plot_folds *f, tl_err *err)
{
    if (!f || !f->n_datasets || !f->n_models || !f->n_folds || !f->values || !f->datasets ||
        !f->models)
        return tl_err_set(err, TL_EINVAL, "fold plot: no datasets, models or values");
    return TL_OK;
}

/* x of model m of dataset d: the models side by side, a gap between datasets. */
static double xpos(const tl_plot_folds *f, size_t d, size_t m)
{
    return (double)(d * (f->n_models + 1) + m + 1);
}

int tl_plot_folds_write(const tl_plot_folds *f, const char *stem, tl_err *err)
{
    int rc = check(f, err);
    if (rc)
        return rc;
    tlp_fig fig;
    if ((rc = tlp_open(&fig, stem, "accuracy per fold", err)))
        return rc;
    size_t groups = f->n_datasets * f->n_models;
    int any = 0;
    for (size_t g = 0; g < groups; g++) {
        fprintf(fig.dat, "# %s / %s\n# x value\n", f->datasets[g / f->n_models],
                f->models[g % f->n_models]);
        for (size_t i = 0; i < f->n_folds; i++) {
            double v = f->values[g * f->n_folds + i];
            if (isnan(v))
                continue;
            tlp_num(fig.dat, xpos(f, g / f->n_models, g % f->n_models));
            fputc(' ', fig.dat);
            tlp_num(fig.dat, v);
            fputc('\n', fig.dat);
            any = 1;
        }
        fputs("\n\n", fig.dat);
    }
    if (!any) {
        tlp_abort(&fig);
        return tl_err_set(err, TL_EINVAL, "fold plot: every value is NaN");
    }
    /* no x label: the ticks name the datasets, and the key sits below them */
    tlp_labels(fig.gp, f->title ? f->title : "Accuracy per fold", "",
               f->ylabel ? f->ylabel : "accuracy");
    fputs("set xtics (", fig.gp);
    for (size_t d = 0; d < f->n_datasets; d++) {
        fputs(d ? ", " : "", fig.gp);
        tlp_tic_str(fig.gp, f->datasets[d]);
        fprintf(fig.gp, " %g", xpos(f, d, 0) + ((double)f->n_models - 1) / 2);
    }
    fputs(") scale 0\n", fig.gp);
    fprintf(fig.gp, "set xrange [0:%g]\n", xpos(f, f->n_datasets - 1, f->n_models - 1) + 1);
    tlp_key(fig.gp);
    /* The key goes under the axis, so the boxes keep the whole height; the dots of equal
     * folds spread a little sideways but stay inside their own box. */
    fputs("set offsets 0, 0, 0, 0\n"
          "set key outside below center horizontal Left reverse noopaque nobox samplen 2\n"
          "set grid noxtics ytics\n"
          "set style boxplot nooutliers  # every fold is drawn as a dot anyway\n"
          "set boxwidth 0.7\nset jitter overlap first 0.004 spread 0.25 wrap 0.3\n",
          fig.gp);
    if (f->rate || !f->ylabel || !strcmp(f->ylabel, "accuracy")) {
        double lo = INFINITY, hi = -INFINITY;
        for (size_t i = 0; i < f->n_datasets * f->n_models * f->n_folds; i++)
            if (isfinite(f->values[i]))
                lo = fmin(lo, f->values[i]), hi = fmax(hi, f->values[i]);
        tlp_rate_range(fig.gp, "y", lo, hi);
    }
    fputs("plot \\\n", fig.gp);
    int first = 1;
    for (size_t g = 0; g < groups; g++) {
        size_t m = g % f->n_models;
        int lt = tlp_lt(f->colors ? f->colors[m] : m);
        size_t count = 0;
        for (size_t i = 0; i < f->n_folds; i++)
            count += !isnan(f->values[g * f->n_folds + i]);
        if (!count)
            continue;
        fprintf(fig.gp,
                "%s  dat index %zu using 1:2 with boxplot lt %d lw 1.5 "
                "fs transparent solid 0.25 border lt %d notitle, \\\n",
                first ? "" : ", \\\n", g, lt, lt);
        fprintf(fig.gp, "  dat index %zu using 1:2 with points lt %d ps 0.8 ", g, lt);
        if (g < f->n_models) {
            fputs("title ", fig.gp);
            tlp_str(fig.gp, f->models[m]);
        } else
            fputs("notitle", fig.gp);
        first = 0;
    }
    fputc('\n', fig.gp);
    return tlp_finish(&fig, err);
}
