/* CART's cost-complexity pruning curve, as rpart's plotcp: resubstitution and CV error with a
 * one-standard-error band, the min and 1-SE trees marked. */
#include <math.h>
#include <stdio.h>

#include "plot_internal.h"

int tl_plot_cp_choose(const tl_plot_cp_path *p, size_t *i_min, size_t *i_1se, tl_err *err)
{
    if (!p || !p->cv_error || !p->leaves)
        return tl_err_set(err, TL_EINVAL, "pruning plot: no cross-validated errors to choose by");
    size_t best = p->n;
    for (size_t i = 0; i < p->n; i++) {
        double e = p->cv_error[i];
        if (isnan(e))
            continue;
        if (best == p->n || e < p->cv_error[best] ||
            (e == p->cv_error[best] && p->leaves[i] < p->leaves[best]))
            best = i;
    }
    if (best == p->n)
        return tl_err_set(err, TL_EINVAL, "pruning plot: every cross-validated error is NaN");
    double limit = p->cv_error[best] + (p->cv_se ? p->cv_se[best] : 0.0);
    size_t pick = best;
    for (size_t i = 0; i < p->n; i++) {
        if (isnan(p->cv_error[i]) || p->cv_error[i] > limit)
            continue;
        if (p->leaves[i] < p->leaves[pick] ||
            (p->leaves[i] == p->leaves[pick] && p->alpha[i] > p->alpha[pick]))
            pick = i;
    }
    *i_min = best;
    *i_1se = pick;
    return TL_OK;
}

static int check(const tl_plot_cp_path *p, tl_err *err)
{
    if (!p || p->n == 0 || !p->alpha || !p->leaves || !p->risk)
        return tl_err_set(err, TL_EINVAL, "pruning plot: empty or incomplete path");
    for (size_t i = 0; i < p->n; i++)
        if (!(p->alpha[i] >= 0))
            return tl_err_set(err, TL_EINVAL, "pruning plot: alpha[%zu] = %g is not >= 0", i,
                              p->alpha[i]);
    return TL_OK;
}

/* Where the full tree's alpha = 0 goes on a log axis: left of the smallest positive alpha.
 * 0 when there is no positive alpha (then the figure falls back to leaves). */
static double zero_position(const tl_plot_cp_path *p)
{
    double lo = INFINITY;
    for (size_t i = 0; i < p->n; i++)
        if (p->alpha[i] > 0 && p->alpha[i] < lo)
            lo = p->alpha[i];
    return isfinite(lo) ? lo / 4 : 0.0;
}

static void path_block(FILE *dat, const tl_plot_cp_path *p, int by_leaves, double zero)
{
    fputs("# alpha x leaves risk cv_error cv_lower cv_upper leaves_label\n", dat);
    /* Top-axis labels only where they do not crowd: on a log axis the subtrees bunch up,
     * so a label needs 1/14 of the axis (in log units) free since the previous one. */
    double lo = INFINITY, hi = 0, last = -INFINITY;
    for (size_t i = 0; i < p->n; i++) {
        double x = p->alpha[i] > 0 ? p->alpha[i] : zero;
        if (x > 0)
            lo = fmin(lo, x), hi = fmax(hi, x);
    }
    double gap = lo < hi ? log10(hi / lo) / 14 : 0;
    for (size_t i = 0; i < p->n; i++) {
        double x = by_leaves ? p->leaves[i] : p->alpha[i] > 0 ? p->alpha[i] : zero;
        double cv = p->cv_error ? p->cv_error[i] : NAN;
        double se = p->cv_se ? p->cv_se[i] : NAN;
        const double v[7] = {p->alpha[i], x, p->leaves[i], p->risk[i], cv, cv - se, cv + se};
        for (int j = 0; j < 7; j++) {
            tlp_num(dat, v[j]);
            fputc(' ', dat);
        }
        double at = x > 0 ? log10(x) : -INFINITY;
        if (by_leaves || at - last >= gap) {
            fprintf(dat, "\"%.0f\"\n", p->leaves[i]);
            last = at;
        } else {
            fputs("\"\"\n", dat);
        }
    }
    fputs("\n\n", dat);
}

/* Marker data and the 1-SE threshold; returns the number of markers (0 without CV). */
static size_t choose_markers(const tl_plot_cp_path *p, int by_leaves, double zero,
                             tl_plot_marker *m, char labels[2][48], double *threshold)
{
    size_t i_min, i_1se;
    *threshold = NAN;
    if (p->has_chosen && p->chosen < p->n) {
        /* the pruner's own choice, from its trace, on whichever curve it was judged by */
        size_t i = p->chosen;
        int on_cv = p->cv_error && !isnan(p->cv_error[i]);
        if (on_cv && !tl_plot_cp_choose(p, &i_min, &i_1se, NULL) && p->cv_se)
            *threshold = p->cv_error[i_min] + p->cv_se[i_min];
        snprintf(labels[0], sizeof labels[0], "chosen subtree (%.0f leaves)", p->leaves[i]);
        m[0].x = by_leaves ? p->leaves[i] : p->alpha[i] > 0 ? p->alpha[i] : zero;
        m[0].y = on_cv ? p->cv_error[i] : p->risk[i];
        m[0].label = labels[0];
        m[0].color = 1;
        return 1;
    }
    if (!p->cv_error || tl_plot_cp_choose(p, &i_min, &i_1se, NULL))
        return 0;
    if (p->cv_se)
        *threshold = p->cv_error[i_min] + p->cv_se[i_min];
    size_t idx[2] = {i_min, i_1se};
    const char *name[2] = {i_min == i_1se ? "min = 1-SE" : "min", "1-SE"};
    size_t n = i_min == i_1se ? 1 : 2;
    for (size_t j = 0; j < n; j++) {
        size_t i = idx[j];
        snprintf(labels[j], sizeof labels[j], "%s (%.0f leaves)", name[j], p->leaves[i]);
        m[j].x = by_leaves ? p->leaves[i] : p->alpha[i] > 0 ? p->alpha[i] : zero;
        m[j].y = p->cv_error[i];
        m[j].label = labels[j];
        m[j].color = j == 0 ? 1 : 2; /* vermillion, bluish green */
    }
    return n;
}

/* Decade tics on the log alpha axis, leaving room for the "0" of the full tree. */
static void alpha_tics(FILE *gp, double zero, double lo, double hi)
{
    fputs("set xtics (", gp);
    int n = 0;
    if (zero > 0)
        fprintf(gp, "'0' %.10g", zero), n++;
    for (int e = (int)floor(log10(lo)); e <= (int)ceil(log10(hi)); e++) {
        double d = pow(10.0, e);
        if (d < lo || d > hi || (zero > 0 && d < zero * 3))
            continue;
        fprintf(gp, "%s'%g' %.10g", n++ ? ", " : "", d, d);
    }
    fputs(")\nset mxtics 10\n", gp);
}

static void axes(FILE *gp, const tl_plot_cp_path *p, int by_leaves, double zero)
{
    tlp_labels(gp, p->title ? p->title : "Cost-complexity pruning",
               by_leaves ? "tree size (number of leaves)"
                         : "complexity parameter alpha (log scale)",
               p->ylabel ? p->ylabel : "error rate");
    if (p->rate) {
        double lo = INFINITY, hi = -INFINITY;
        for (size_t i = 0; i < p->n; i++) {
            double se = p->cv_se && isfinite(p->cv_se[i]) ? p->cv_se[i] : 0;
            double v[3] = {p->risk[i], p->cv_error ? p->cv_error[i] - se : NAN,
                           p->cv_error ? p->cv_error[i] + se : NAN};
            for (int k = 0; k < 3; k++)
                if (isfinite(v[k]))
                    lo = fmin(lo, v[k]), hi = fmax(hi, v[k]);
        }
        tlp_rate_range(gp, "y", lo, hi);
    }
    if (by_leaves) {
        double lo = INFINITY, hi = -INFINITY;
        for (size_t i = 0; i < p->n; i++)
            lo = fmin(lo, p->leaves[i]), hi = fmax(hi, p->leaves[i]);
        tlp_int_tics(gp, "x", lo, hi);
        return;
    }
    double lo = INFINITY, hi = 0;
    for (size_t i = 0; i < p->n; i++) {
        double x = p->alpha[i] > 0 ? p->alpha[i] : zero;
        lo = fmin(lo, x);
        hi = fmax(hi, x);
    }
    lo /= 1.6;
    hi *= 1.6;
    fputs("set logscale x\n", gp);
    fprintf(gp, "set xrange [%.10g:%.10g]\n", lo, hi);
    fputs("# '0' marks the full tree (alpha = 0), drawn left of the smallest positive alpha\n", gp);
    alpha_tics(gp, zero, lo, hi);
    /* x2 repeats x (gnuplot cannot link a log axis), labelled with the tree sizes */
    fprintf(gp,
            "# the tree size at each alpha on the top axis\n"
            "set logscale x2\nset x2range [%.10g:%.10g]\n"
            "set x2tics out\nset x2label 'number of leaves'\n",
            lo, hi);
}

int tl_plot_pruning(const tl_plot_cp_path *p, const char *stem, tl_err *err)
{
    int rc = check(p, err);
    if (rc)
        return rc;
    double zero = zero_position(p);
    int by_leaves = p->x_leaves || zero == 0.0;
    tl_plot_marker m[2];
    char labels[2][48];
    double threshold;
    size_t n_markers = choose_markers(p, by_leaves, zero, m, labels, &threshold);

    tlp_fig f;
    if ((rc = tlp_open(&f, stem, "cost-complexity pruning curve", err)))
        return rc;
    path_block(f.dat, p, by_leaves, zero);
    if (n_markers)
        tlp_markers_block(f.dat, m, n_markers);

    axes(f.gp, p, by_leaves, zero);
    tlp_key(f.gp);
    if (by_leaves) /* the errors fall from the left: the key goes where the curves are low */
        fputs("set key right\n", f.gp);
    fputs("plot \\\n", f.gp);
    if (p->cv_error) {
        if (p->cv_se)
            fputs("  dat index 0 using 2:6:7 with filledcurves lt 1 notitle, \\\n", f.gp);
        fprintf(f.gp,
                "  dat index 0 using 2:5 with linespoints lt 1 title "
                "'cross-validated error%s', \\\n",
                p->cv_se ? " (band: ± 1 SE)" : "");
    }
    fputs("  dat index 0 using 2:4 with linespoints lt 7 dt 2 pt 6 title ", f.gp);
    tlp_str(f.gp, p->risk_label ? p->risk_label : "resubstitution error");
    if (!by_leaves)
        fputs(", \\\n  dat index 0 using 2:4:x2ticlabels(8) axes x2y1 with points ps 0 notitle",
              f.gp);
    if (n_markers)
        tlp_markers_plot(f.gp, 1, m, n_markers);
    tlp_hline(f.gp, threshold, "min + 1 SE");
    fputc('\n', f.gp);
    return tlp_finish(&f, err);
}
