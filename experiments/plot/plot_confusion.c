/* Confusion-matrix heatmap: cells coloured by the row-normalised share, counts printed. */
#include <math.h>
#include <stdio.h>

#include "plot_internal.h"

static int check(const tl_plot_confusion *c, tl_err *err)
{
    if (!c || c->k == 0 || !c->counts || !c->classes)
        return tl_err_set(err, TL_EINVAL, "confusion plot: empty matrix or no class names");
    for (size_t i = 0; i < c->k * c->k; i++)
        if (!(c->counts[i] >= 0))
            return tl_err_set(err, TL_EINVAL, "confusion plot: count %g is not >= 0", c->counts[i]);
    return TL_OK;
}

int tl_plot_confusion_write(const tl_plot_confusion *c, const char *stem, tl_err *err)
{
    int rc = check(c, err);
    if (rc)
        return rc;
    tlp_fig f;
    if ((rc = tlp_open(&f, stem, "confusion matrix", err)))
        return rc;
    size_t k = c->k;
    double total = 0, right = 0;
    fputs("# predicted true count share_of_true_row\n", f.dat);
    for (size_t t = 0; t < k; t++) {
        double row = 0;
        for (size_t p = 0; p < k; p++)
            row += c->counts[t * k + p];
        total += row;
        right += c->counts[t * k + t];
        for (size_t p = 0; p < k; p++) {
            double v = c->counts[t * k + p];
            fprintf(f.dat, "%zu %zu ", p, t);
            tlp_num(f.dat, v);
            fputc(' ', f.dat);
            tlp_num(f.dat, row > 0 ? v / row : 0.0);
            fputc('\n', f.dat);
        }
    }
    /* past a dozen classes the printed numbers overlap: the colours carry the shares */
    int numbers = k <= TL_PLOT_CONFUSION_NUMBERS;
    char title[512];
    snprintf(title, sizeof title, "%s\naccuracy %.4f (%.0f of %.0f)%s",
             c->title ? c->title : "Confusion matrix", total > 0 ? right / total : 0.0, right,
             total, numbers ? "" : " (numbers hidden)");
    tlp_labels(f.gp, title, "predicted class", "true class");
    tlp_tics(f.gp, "x", c->classes, k);
    tlp_tics(f.gp, "y", c->classes, k);
    if (!numbers) /* many names side by side along x: upright */
        fputs("set xtics rotate by 90 right font ',10'\nset ytics font ',10'\n"
              "set title font ',13'\n",
              f.gp);
    fprintf(f.gp, "set xrange [-0.5:%g]\nset yrange [%g:-0.5]  # first class at the top\n",
            (double)k - 0.5, (double)k - 0.5);
    fputs("set size ratio -1\nset tics scale 0\nunset key\nset border 0\n"
          "set style fill solid 1 noborder\n"
          "set cbrange [0:1]\nset cblabel 'share of the true class (row-normalised)'\n"
          "set palette defined (0 '#FFFFFF', 1 '#0072B2')\n",
          f.gp);
    int font = tlp_cell_font(k);
    /* "pixels": each cell a filled rectangle; a plain image is embedded in the SVG as a
     * k x k raster that browsers stretch and blur */
    if (!numbers) {
        fputs("plot dat using 1:2:4 with image pixels\n", f.gp);
        return tlp_finish(&f, err);
    }
    fprintf(f.gp,
            "# cell text: count and share; white on dark cells\n"
            "cell(c, s) = sprintf('%%g\\n%%.1f%%%%', c, 100 * s)\n"
            "plot dat using 1:2:4 with image pixels, \\\n"
            "  '' using 1:2:($4 <= 0.55 ? cell($3, $4) : '') with labels "
            "font ',%d' tc rgb '#000000', \\\n"
            "  '' using 1:2:($4 > 0.55 ? cell($3, $4) : '') with labels "
            "font ',%d' tc rgb '#FFFFFF'\n",
            font, font);
    return tlp_finish(&f, err);
}
