/* Parameter-grid heatmap: validation score per cell, the selected cell outlined. */
#include <math.h>
#include <stdio.h>

#include "plot_internal.h"

static int check(const tl_plot_grid *g, tl_err *err)
{
    if (!g || g->nx == 0 || g->ny == 0 || !g->values || !g->xvalues || !g->yvalues)
        return tl_err_set(err, TL_EINVAL, "grid plot: empty grid or missing labels");
    if (g->has_selected && (g->sel_x >= g->nx || g->sel_y >= g->ny))
        return tl_err_set(err, TL_EINVAL, "grid plot: selected cell (%zu, %zu) outside %zu x %zu",
                          g->sel_x, g->sel_y, g->nx, g->ny);
    return TL_OK;
}

int tl_plot_grid_write(const tl_plot_grid *g, const char *stem, tl_err *err)
{
    int rc = check(g, err);
    if (rc)
        return rc;
    tlp_fig f;
    if ((rc = tlp_open(&f, stem, "parameter grid", err)))
        return rc;
    double lo = INFINITY, hi = -INFINITY;
    for (size_t i = 0; i < g->nx * g->ny; i++)
        if (isfinite(g->values[i]))
            lo = fmin(lo, g->values[i]), hi = fmax(hi, g->values[i]);
    if (!isfinite(lo))
        lo = 0, hi = 1;
    if (hi - lo < 1e-12)
        hi = lo + 1e-12; /* a flat grid still needs a colour range */
    /* the cell text and its colour are data, so that cells not run stay blank */
    fputs("# ix iy value \"cell text\" text_rgb (black on light cells, white on dark)\n", f.dat);
    for (size_t iy = 0; iy < g->ny; iy++)
        for (size_t ix = 0; ix < g->nx; ix++) {
            double v = g->values[iy * g->nx + ix];
            fprintf(f.dat, "%zu %zu ", ix, iy);
            tlp_num(f.dat, v);
            if (isfinite(v))
                fprintf(f.dat, " \"%.3f\" %d\n", v, v > lo + 0.55 * (hi - lo) ? 0 : 0xFFFFFF);
            else
                fputs(" \"\" 0\n", f.dat);
        }
    char title[512];
    int n = snprintf(title, sizeof title, "%s", g->title ? g->title : "Parameter grid");
    if (g->has_selected && n > 0 && (size_t)n < sizeof title)
        snprintf(title + n, sizeof title - (size_t)n, "\nselected: %s = %s, %s = %s (%.4f)",
                 g->xname ? g->xname : "x", g->xvalues[g->sel_x], g->yname ? g->yname : "y",
                 g->yvalues[g->sel_y], g->values[g->sel_y * g->nx + g->sel_x]);
    tlp_labels(f.gp, title, g->xname, g->yname);
    tlp_tics(f.gp, "x", g->xvalues, g->nx);
    tlp_tics(f.gp, "y", g->yvalues, g->ny);
    fprintf(f.gp, "set xrange [-0.5:%g]\nset yrange [-0.5:%g]\n", (double)g->nx - 0.5,
            (double)g->ny - 0.5);
    fputs("set tics scale 0\nunset key\nset border 0\nset style fill solid 1 noborder\n", f.gp);
    fprintf(f.gp, "set cbrange [%.10g:%.10g]\nset cblabel ", lo, hi);
    tlp_str(f.gp, g->value_name ? g->value_name : "validation accuracy");
    fputs("\n# viridis: perceptually uniform and colour-blind safe\n"
          "set palette defined (0 '#440154', 0.25 '#3B528B', 0.5 '#21908C', 0.75 '#5DC863', "
          "1 '#FDE725')\n",
          f.gp);
    if (g->has_selected)
        fprintf(f.gp,
                "# the selected cell\nset object 1 rect from %g,%g to %g,%g front "
                "fillstyle empty border lc rgb '#D55E00' lw 5\n",
                (double)g->sel_x - 0.48, (double)g->sel_y - 0.48, (double)g->sel_x + 0.48,
                (double)g->sel_y + 0.48);
    int font = tlp_cell_font(g->nx > g->ny ? g->nx : g->ny);
    fprintf(f.gp,
            "plot dat using 1:2:3 with image pixels, \\\n"
            "  '' using 1:2:4:5 with labels font ',%d' tc rgb variable\n",
            font);
    return tlp_finish(&f, err);
}
