/* Decision boundaries: predicted regions of a two-attribute model with its training points,
 * and a one-attribute regression tree's step function. */
#include <math.h>
#include <stdio.h>

#include "plot_internal.h"

/* Filled and open outline of the same marker shape, per class. */
static const int filled_pt[] = {7, 5, 9, 13, 11, 15};
static const int open_pt[] = {6, 4, 8, 12, 10, 14};

static int check(const tl_plot_boundary *b, tl_err *err)
{
    if (!b || b->nx < 2 || b->ny < 2 || !b->grid || !b->n_classes || !b->classes)
        return tl_err_set(err, TL_EINVAL,
                          "boundary plot: needs a grid of at least 2 x 2 and "
                          "class names");
    if (!(b->x1 > b->x0) || !(b->y1 > b->y0))
        return tl_err_set(err, TL_EINVAL, "boundary plot: empty grid span");
    if (b->n_points && (!b->px || !b->py || !b->pclass))
        return tl_err_set(err, TL_EINVAL, "boundary plot: points missing");
    for (size_t i = 0; i < b->nx * b->ny; i++)
        if (b->grid[i] < 0 || (size_t)b->grid[i] >= b->n_classes)
            return tl_err_set(err, TL_EINVAL, "boundary plot: grid class %d out of range",
                              b->grid[i]);
    for (size_t i = 0; i < b->n_points; i++)
        if (b->pclass[i] < 0 || (size_t)b->pclass[i] >= b->n_classes)
            return tl_err_set(err, TL_EINVAL, "boundary plot: point class %d out of range",
                              b->pclass[i]);
    return TL_OK;
}

static void write_grid(const tl_plot_boundary *b, FILE *dat)
{
    double dx = (b->x1 - b->x0) / (double)(b->nx - 1), dy = (b->y1 - b->y0) / (double)(b->ny - 1);
    fputs("# x y predicted_class\n", dat);
    for (size_t iy = 0; iy < b->ny; iy++)
        for (size_t ix = 0; ix < b->nx; ix++) {
            tlp_num(dat, b->x0 + (double)ix * dx);
            fputc(' ', dat);
            tlp_num(dat, b->y0 + (double)iy * dy);
            fprintf(dat, " %d\n", b->grid[iy * b->nx + ix]);
        }
}

/* Arrays of the region tints by class, so rgbimage can colour by class code. */
static void tint_arrays(FILE *gp, size_t k)
{
    const char *chan[3] = {"R", "G", "B"};
    fputs("# region colours: the class colours mixed with 70% white\n", gp);
    for (int c = 0; c < 3; c++) {
        fprintf(gp, "array %s[%zu] = [", chan[c], k);
        for (size_t i = 0; i < k; i++) {
            char buf[8];
            unsigned rgb = 0;
            sscanf(tlp_tint(i, 0.7, buf) + 1, "%x", &rgb);
            fprintf(gp, "%s%u", i ? ", " : "", (rgb >> (16 - 8 * c)) & 0xffu);
        }
        fputs("]\n", gp);
    }
}

int tl_plot_boundary_write(const tl_plot_boundary *b, const char *stem, tl_err *err)
{
    int rc = check(b, err);
    if (rc)
        return rc;
    tlp_fig f;
    if ((rc = tlp_open(&f, stem, "decision boundary", err)))
        return rc;
    write_grid(b, f.dat);
    FILE *pts = tlp_open_extra(&f, "_points.dat", err);
    if (!pts) {
        tlp_abort(&f);
        return err ? err->code : TL_EIO;
    }
    fputs("# x y class\n", pts);
    for (size_t i = 0; i < b->n_points; i++) {
        tlp_num(pts, b->px[i]);
        fputc(' ', pts);
        tlp_num(pts, b->py[i]);
        fprintf(pts, " %d\n", b->pclass[i]);
    }
    if ((rc = tlp_close_extra(pts, &f, "_points.dat", err))) {
        tlp_abort(&f);
        return rc;
    }
    tlp_labels(f.gp, b->title ? b->title : "Decision boundary", b->xname, b->yname);
    double hx = (b->x1 - b->x0) / (double)(b->nx - 1) / 2,
           hy = (b->y1 - b->y0) / (double)(b->ny - 1) / 2;
    fprintf(f.gp, "set xrange [%.10g:%.10g]\nset yrange [%.10g:%.10g]\n", b->x0 - hx, b->x1 + hx,
            b->y0 - hy, b->y1 + hy);
    fputs("set key outside right top vertical Left reverse opaque box lc rgb '#bbbbbb' "
          "title 'class'\n"
          "set tics front\n",
          f.gp);
    tint_arrays(f.gp, b->n_classes);
    tlp_var(f.gp, "pts", f.base, "_points.dat");
    fputs("plot dat using 1:2:(R[$3+1]):(G[$3+1]):(B[$3+1]) with rgbimage notitle", f.gp);
    size_t np = sizeof filled_pt / sizeof *filled_pt;
    for (size_t c = 0; c < b->n_classes; c++) {
        fprintf(f.gp,
                ", \\\n  pts using 1:($3 == %zu ? $2 : NaN) with points "
                "pt %d ps 2.2 lc rgb '%s' title ",
                c, filled_pt[c % np], tl_plot_color(c));
        tlp_str(f.gp, b->classes[c]);
        fprintf(f.gp,
                ", \\\n  pts using 1:($3 == %zu ? $2 : NaN) with points "
                "pt %d ps 2.2 lw 1.5 lc rgb '#000000' notitle",
                c, open_pt[c % np]);
    }
    fputc('\n', f.gp);
    return tlp_finish(&f, err);
}

static int check_steps(const tl_plot_steps *s, tl_err *err)
{
    if (!s || s->n_grid < 2 || !s->pred || !(s->x1 > s->x0))
        return tl_err_set(err, TL_EINVAL, "step plot: needs at least 2 predictions over a span");
    if (s->n_points && (!s->px || !s->py))
        return tl_err_set(err, TL_EINVAL, "step plot: points missing");
    return TL_OK;
}

int tl_plot_steps_write(const tl_plot_steps *s, const char *stem, tl_err *err)
{
    int rc = check_steps(s, err);
    if (rc)
        return rc;
    tlp_fig f;
    if ((rc = tlp_open(&f, stem, "regression step function", err)))
        return rc;
    double dx = (s->x1 - s->x0) / (double)(s->n_grid - 1);
    fputs("# x_start value (each value holds until the next row's x)\n", f.dat);
    for (size_t i = 0; i < s->n_grid; i++) {
        if (i > 0 && s->pred[i] == s->pred[i - 1])
            continue;
        /* the jump lies somewhere between two grid points: draw it half-way */
        tlp_num(f.dat, i == 0 ? s->x0 : s->x0 + ((double)i - 0.5) * dx);
        fputc(' ', f.dat);
        tlp_num(f.dat, s->pred[i]);
        fputc('\n', f.dat);
    }
    tlp_num(f.dat, s->x1);
    fputc(' ', f.dat);
    tlp_num(f.dat, s->pred[s->n_grid - 1]);
    fputs("\n\n\n# training points: x y\n", f.dat);
    for (size_t i = 0; i < s->n_points; i++) {
        tlp_num(f.dat, s->px[i]);
        fputc(' ', f.dat);
        tlp_num(f.dat, s->py[i]);
        fputc('\n', f.dat);
    }
    fputs("\n\n", f.dat);
    tlp_labels(f.gp, s->title ? s->title : "Regression tree", s->xname, s->yname);
    tlp_key(f.gp);
    fputs("plot dat index 0 using 1:2 with steps lt 1 lw 3 title 'prediction'", f.gp);
    if (s->n_points)
        fputs(", \\\n  dat index 1 using 1:2 with points lt 2 ps 2 title 'training points'", f.gp);
    fputc('\n', f.gp);
    return tlp_finish(&f, err);
}
