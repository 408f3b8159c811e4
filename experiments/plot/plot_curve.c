/* Generic curves with shaded bands and markers; learning curves are one use of them. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plot_internal.h"

/* Characters, not bytes: a UTF-8 continuation byte adds no width. */
static size_t text_width(const char *s, size_t len)
{
    size_t w = 0;
    for (size_t i = 0; i < len; i++)
        w += ((unsigned char)s[i] & 0xc0) != 0x80;
    return w;
}

/* Where the line starting at s (len bytes up to its newline) breaks: after the last space
 * that keeps it within TLP_TITLE_CHARS, else (one long word) at the limit itself. */
static size_t title_break(const char *s, size_t len)
{
    if (text_width(s, len) <= TLP_TITLE_CHARS)
        return len;
    size_t cut = 0, w = 0, i = 0;
    for (; i < len && w < TLP_TITLE_CHARS; i++) {
        w += ((unsigned char)s[i] & 0xc0) != 0x80;
        if (s[i] == ' ')
            cut = i;
    }
    while (!cut && i < len && ((unsigned char)s[i] & 0xc0) == 0x80)
        i++; /* never inside a character */
    return cut ? cut : i;
}

void tlp_title(FILE *gp, const char *title)
{
    /* Line by line, each single-quoted, joined by "\n" (the one double-quoted string, which
     * holds no text of the caller's): a newline of the title and a long line both wrap. */
    char line[TLP_TITLE_CHARS * 4 + 1];
    int first = 1;
    for (const char *s = title ? title : ""; first || *s;) {
        size_t len = strcspn(s, "\n"), cut = title_break(s, len);
        snprintf(line, sizeof line, "%.*s", (int)cut, s);
        if (!first)
            fputs(".\"\\n\".", gp);
        tlp_str(gp, line);
        first = 0;
        s += cut;
        while (*s == ' ')
            s++;
        if (*s == '\n')
            s++;
    }
}

void tlp_labels(FILE *gp, const char *title, const char *xlabel, const char *ylabel)
{
    const char *cmd[3] = {"title", "xlabel", "ylabel"};
    const char *val[3] = {title, xlabel, ylabel};
    for (int i = 0; i < 3; i++) {
        if (!val[i])
            continue;
        fprintf(gp, "set %s ", cmd[i]);
        if (i == 0)
            tlp_title(gp, val[i]);
        else
            tlp_str(gp, val[i]);
        fputs(i == 0 ? " font ',20'\n" : "\n", gp);
    }
}

void tlp_key(FILE *gp)
{
    /* Headroom above the data keeps the key from covering any curve. */
    fputs("set grid lc rgb '#dddddd'\n"
          "set offsets 0, 0, graph 0.30, 0\n"
          "set key inside top left vertical Left reverse opaque box lc rgb '#bbbbbb' "
          "samplen 3 spacing 1.1\n",
          gp);
}

void tlp_markers_block(FILE *dat, const tl_plot_marker *m, size_t n)
{
    fputs("# markers: x y label linetype\n", dat);
    for (size_t i = 0; i < n; i++) {
        tlp_num(dat, m[i].x);
        fputc(' ', dat);
        tlp_num(dat, m[i].y);
        fputc(' ', dat);
        tlp_field(dat, m[i].label);
        fprintf(dat, " %d\n", tlp_lt(m[i].color));
    }
    fputs("\n\n", dat);
}

void tlp_markers_plot(FILE *gp, size_t index, const tl_plot_marker *m, size_t n)
{
    /* one clause per marker so that each is explained in the key, not by text that could
     * cover the curves */
    for (size_t i = 0; i < n; i++) {
        fprintf(gp,
                ", \\\n  dat index %zu every ::%zu::%zu using 1:2 with points pt 6 "
                "ps 3.5 lw 3 lc %d title ",
                index, i, i, tlp_lt(m[i].color));
        tlp_str(gp, m[i].label);
    }
}

void tlp_hline(FILE *gp, double y, const char *label)
{
    if (!isfinite(y))
        return;
    fprintf(gp, ", \\\n  %.10g with lines dt 2 lw 1.5 lc rgb '#666666' title ", y);
    tlp_str(gp, label);
}

static int check(const tl_plot_curve *c, tl_err *err)
{
    if (!c || !c->series || c->n_series == 0)
        return tl_err_set(err, TL_EINVAL, "curve plot: no series");
    for (size_t s = 0; s < c->n_series; s++) {
        const tl_plot_series *p = &c->series[s];
        if (p->n == 0 || !p->x || !p->y)
            return tl_err_set(err, TL_EINVAL, "curve plot: series %zu (%s) has no points", s,
                              p->name ? p->name : "unnamed");
        for (size_t i = 0; c->xlog && i < p->n; i++)
            if (!(p->x[i] > 0))
                return tl_err_set(err, TL_EINVAL, "curve plot: x = %g in series '%s' on a log axis",
                                  p->x[i], p->name ? p->name : "");
    }
    if (c->n_markers && !c->markers)
        return tl_err_set(err, TL_EINVAL, "curve plot: markers missing");
    return TL_OK;
}

static void series_block(FILE *dat, const tl_plot_series *p)
{
    fputs("# ", dat);
    /* a line break in a name (a quoted CSV field) would turn the rest into a data row */
    for (const char *c = p->name ? p->name : ""; *c; c++)
        fputc((unsigned char)*c < 0x20 || *c == 0x7f ? ' ' : *c, dat);
    fputs("\n# x y lower upper\n", dat);
    for (size_t i = 0; i < p->n; i++) {
        double b = p->band ? p->band[i] : 0.0;
        tlp_num(dat, p->x[i]);
        fputc(' ', dat);
        tlp_num(dat, p->y[i]);
        fputc(' ', dat);
        tlp_num(dat, p->y[i] - b);
        fputc(' ', dat);
        tlp_num(dat, p->y[i] + b);
        fputc('\n', dat);
    }
    fputs("\n\n", dat);
}

static void series_plot(FILE *gp, const tl_plot_series *p, size_t index, int first)
{
    const char *axes = p->y2 ? " axes x1y2" : "";
    int lt = tlp_lt(p->color);
    if (p->band)
        fprintf(gp, "%s  dat index %zu using 1:3:4 with filledcurves lt %d%s notitle",
                first ? "" : ", \\\n", index, lt, axes),
            first = 0;
    fprintf(gp, "%s  dat index %zu using 1:2 with linespoints lt %d%s%s title ",
            first ? "" : ", \\\n", index, lt, p->dashed ? " dt 2" : "", axes);
    tlp_str(gp, p->name);
}

/* A rate's y axis within [0, 1] and an integer parameter's whole-number x tics. */
static void axis_kinds(FILE *gp, const tl_plot_curve *c)
{
    double ylo = INFINITY, yhi = -INFINITY, xlo = INFINITY, xhi = -INFINITY;
    for (size_t k = 0; k < c->n_series; k++) {
        const tl_plot_series *p = &c->series[k];
        for (size_t i = 0; i < p->n; i++) {
            double b = p->band && isfinite(p->band[i]) ? p->band[i] : 0;
            if (isfinite(p->x[i]))
                xlo = fmin(xlo, p->x[i]), xhi = fmax(xhi, p->x[i]);
            if (!p->y2 && isfinite(p->y[i]))
                ylo = fmin(ylo, p->y[i] - b), yhi = fmax(yhi, p->y[i] + b);
        }
    }
    for (size_t i = 0; i < c->n_markers; i++)
        if (isfinite(c->markers[i].y))
            ylo = fmin(ylo, c->markers[i].y), yhi = fmax(yhi, c->markers[i].y);
    if (c->rate)
        tlp_rate_range(gp, "y", ylo, yhi);
    if (c->xint && isfinite(xlo) && !c->xlog)
        tlp_int_tics(gp, "x", xlo, xhi);
}

/* Where the names of single-point series go so that none leaves the plot or covers one placed
 * before it: left of the point (right[s] = 1) when it would pass the right edge, and from the
 * top point down, each one line lower (dy[s], characters) while it would overlap. In the
 * plot's unit square (the points' range, NAME_PAD of it added each side): a 9-point name is
 * about 0.0075 a character wide and, with its leading, 0.03 high; a character of offset (the
 * 16-point default) about 0.034 high and 0.01 wide. */
#define NAME_PAD 0.04
static void name_offsets(const tl_plot_curve *c, double *dy, int *right)
{
    size_t n = c->n_series;
    double x0 = INFINITY, x1 = -INFINITY, y0 = INFINITY, y1 = -INFINITY;
    for (size_t s = 0; s < n; s++) {
        dy[s] = 0.5;
        right[s] = 0;
        if (c->series[s].n != 1 || !isfinite(c->series[s].x[0]) || !isfinite(c->series[s].y[0]))
            continue;
        double x = c->xlog ? log(c->series[s].x[0]) : c->series[s].x[0];
        x0 = fmin(x0, x), x1 = fmax(x1, x);
        y0 = fmin(y0, c->series[s].y[0]), y1 = fmax(y1, c->series[s].y[0]);
    }
    if (!(x0 <= x1))
        return;
    double xs = x1 > x0 ? x1 - x0 : 1, ys = y1 > y0 ? y1 - y0 : 1;
    unsigned char *placed = calloc(n ? n : 1, 1);
    for (size_t k = 0; placed && k < n; k++) {
        size_t i = n; /* the highest point not placed yet */
        for (size_t s = 0; s < n; s++)
            if (!placed[s] && c->series[s].n == 1 && isfinite(c->series[s].y[0]) &&
                isfinite(c->series[s].x[0]) && (i == n || c->series[s].y[0] > c->series[i].y[0]))
                i = s;
        if (i == n)
            break;
        placed[i] = 1;
        double xi = ((c->xlog ? log(c->series[i].x[0]) : c->series[i].x[0]) - x0) / xs,
               yi = (c->series[i].y[0] - y0) / ys,
               wi = 0.0075 * (double)strlen(c->series[i].name ? c->series[i].name : "");
        right[i] = xi + 0.01 + wi > 1 + NAME_PAD;
        xi = right[i] ? xi - 0.01 - wi : xi + 0.01; /* where the name starts */
        for (int step = 0, hit = 1; hit && step < 12; step++) {
            hit = 0;
            for (size_t j = 0; j < n && !hit; j++) {
                if (j == i || !placed[j] || c->series[j].n != 1)
                    continue;
                double xj = ((c->xlog ? log(c->series[j].x[0]) : c->series[j].x[0]) - x0) / xs,
                       yj = (c->series[j].y[0] - y0) / ys,
                       wj = 0.0075 * (double)strlen(c->series[j].name ? c->series[j].name : "");
                xj = right[j] ? xj - 0.01 - wj : xj + 0.01;
                double li = yi + 0.034 * dy[i], lj = yj + 0.034 * dy[j];
                hit = xi < xj + wj && xj < xi + wi && fabs(li - lj) < 0.03;
            }
            if (hit)
                dy[i] -= 1;
        }
    }
    free(placed);
}

/* extra: gnuplot commands placed before `plot` (axis ranges of a specific figure). */
int tlp_curve_write_ex(const tl_plot_curve *c, const char *stem, const char *what,
                       const char *extra, tl_err *err)
{
    int rc = check(c, err);
    if (rc)
        return rc;
    tlp_fig f;
    if ((rc = tlp_open(&f, stem, what, err)))
        return rc;
    int any_y2 = 0;
    for (size_t s = 0; s < c->n_series; s++) {
        series_block(f.dat, &c->series[s]);
        any_y2 |= c->series[s].y2;
    }
    if (c->n_markers)
        tlp_markers_block(f.dat, c->markers, c->n_markers);

    tlp_labels(f.gp, c->title, c->xlabel, c->ylabel);
    if (c->xlog)
        fputs("set logscale x\nset format x '%g'\n", f.gp);
    if (any_y2) {
        /* `set offsets` leaves headroom for the key on y1 only: give y2 the same */
        double lo = INFINITY, hi = -INFINITY;
        for (size_t s = 0; s < c->n_series; s++)
            for (size_t i = 0; c->series[s].y2 && i < c->series[s].n; i++)
                if (isfinite(c->series[s].y[i]))
                    lo = fmin(lo, c->series[s].y[i]), hi = fmax(hi, c->series[s].y[i]);
        if (isfinite(lo)) {
            double span = hi > lo ? hi - lo : fmax(1.0, fabs(hi));
            fprintf(f.gp, "set y2range [%.10g:%.10g]\n", lo - 0.03 * span, lo + span / 0.7);
        }
        fputs("set y2tics\nset ytics nomirror\n", f.gp);
        int whole = isfinite(lo);
        for (size_t k = 0; k < c->n_series; k++)
            for (size_t i = 0; c->series[k].y2 && i < c->series[k].n; i++)
                whole &=
                    !isfinite(c->series[k].y[i]) || c->series[k].y[i] == floor(c->series[k].y[i]);
        if (whole) /* counts (leaves) get whole-number tics */
            tlp_int_tics(f.gp, "y2", lo, hi);
        if (c->y2label) {
            fputs("set y2label ", f.gp);
            tlp_str(f.gp, c->y2label);
            fputc('\n', f.gp);
        }
    }
    axis_kinds(f.gp, c);
    tlp_key(f.gp);
    if (c->name_points) /* every point says whose it is; a key would cover some */
        fprintf(f.gp, "unset key\nset offsets graph %g, graph %g, graph 0.06, graph %g\n",
                NAME_PAD, NAME_PAD, NAME_PAD);
    if (extra)
        fputs(extra, f.gp);
    fputs("plot \\\n", f.gp);
    for (size_t s = 0; s < c->n_series; s++)
        series_plot(f.gp, &c->series[s], s, s == 0);
    size_t ns = c->n_series ? c->n_series : 1;
    double *dy = c->name_points ? malloc(ns * sizeof *dy) : NULL;
    int *right = dy ? malloc(ns * sizeof *right) : NULL;
    if (right)
        name_offsets(c, dy, right);
    for (size_t s = 0; c->name_points && s < c->n_series; s++) {
        fprintf(f.gp, ", \\\n  dat index %zu using 1:2:(", s);
        tlp_str(f.gp, c->series[s].name);
        int r = right && right[s];
        fprintf(f.gp, ") with labels %s offset char %g,%g font ',9' tc lt %d notitle",
                r ? "right" : "left", r ? -0.8 : 0.8, right ? dy[s] : 0.5,
                tlp_lt(c->series[s].color));
    }
    free(dy);
    free(right);
    if (c->n_markers)
        tlp_markers_plot(f.gp, c->n_series, c->markers, c->n_markers);
    tlp_hline(f.gp, c->hline, c->hline_label);
    fputc('\n', f.gp);
    return tlp_finish(&f, err);
}

int tl_plot_curve_write(const tl_plot_curve *c, const char *stem, tl_err *err)
{
    return tlp_curve_write_ex(c, stem, c && c->title ? c->title : "curve", NULL, err);
}

int tl_plot_learning_curve(const tl_plot_series *models, size_t n_models, const char *title,
                           const char *stem, tl_err *err)
{
    tl_plot_curve c = {
        .title = title ? title : "Learning curve",
        .xlabel = "training set size (fraction of the training data)",
        .ylabel = "test accuracy (mean ± sd)",
        .series = models,
        .n_series = n_models,
        .hline = NAN,
    };
    return tlp_curve_write_ex(&c, stem, "learning curve", "set xrange [0:1]\n", err);
}
