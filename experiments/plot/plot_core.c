/* Figure plumbing: output files, the common gnuplot preamble and trailer, palette, quoting. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plot_internal.h"
#include <unistd.h>

#include "treelab/tl_log.h"
#include "treelab/tl_outfile.h"
#include "treelab/tl_text.h"

/* Okabe & Ito (2008), ordered so the first colours are the most distinct on white; yellow,
 * the weakest on white, comes last. */
static const char *const palette[TL_PLOT_N_COLORS] = {
    "#0072B2", "#D55E00", "#009E73", "#E69F00", "#CC79A7", "#56B4E9", "#000000", "#F0E442",
};
/* A marker shape per colour, so series stay apart in grey-scale print too. */
static const int point_types[TL_PLOT_N_COLORS] = {7, 5, 9, 13, 11, 6, 4, 8};

const char *tl_plot_color(size_t i)
{
    return palette[i % TL_PLOT_N_COLORS];
}

int tlp_lt(size_t color)
{
    return (int)(color % TL_PLOT_N_COLORS) + 1;
}

const char *tlp_tint(size_t color, double white, char buf[8])
{
    unsigned rgb = 0;
    sscanf(tl_plot_color(color) + 1, "%x", &rgb);
    unsigned out = 0;
    for (int shift = 16; shift >= 0; shift -= 8) {
        double c = (double)((rgb >> shift) & 0xffu);
        out |= (unsigned)lround(c + (255.0 - c) * white) << shift;
    }
    snprintf(buf, 8, "#%06X", out & 0xffffffu);
    return buf;
}

/* Control characters (newline, CR, tab, ...) shown as a space: a newline would end the
 * gnuplot command and start another one of the text's choosing. */
static int shown(unsigned char ch)
{
    return ch < 0x20 || ch == 0x7f ? ' ' : ch;
}

void tlp_str(FILE *fp, const char *s)
{
    /* Single quotes, never double: gnuplot runs `...` inside double-quoted strings through
     * the shell, and expands nothing inside single-quoted ones, where '' is a quote. */
    fputc('\'', fp);
    for (; s && *s; s++) {
        if (*s == '\'')
            fputc('\'', fp);
        fputc(shown((unsigned char)*s), fp);
    }
    fputc('\'', fp);
}

void tlp_tic_str(FILE *fp, const char *s)
{
    /* a tic label is a format applied to its position: a '%' of the text is written '%%' */
    fputc('\'', fp);
    for (; s && *s; s++) {
        if (*s == '\'' || *s == '%')
            fputc(*s, fp);
        fputc(shown((unsigned char)*s), fp);
    }
    fputc('\'', fp);
}

void tlp_var(FILE *gp, const char *name, const char *base, const char *suffix)
{
    char path[TLP_PATH_MAX + 32];
    snprintf(path, sizeof path, "%s%s", base, suffix);
    fprintf(gp, "%s = ", name);
    tlp_str(gp, path);
    fputc('\n', gp);
}

void tlp_field(FILE *fp, const char *s)
{
    /* Data files are never expanded, but their one quoting style has no escape. */
    fputc('"', fp);
    for (; s && *s; s++)
        fputc(*s == '"' ? '\'' : shown((unsigned char)*s), fp);
    fputc('"', fp);
}

void tlp_num(FILE *fp, double v)
{
    if (isfinite(v))
        fprintf(fp, "%.17g", v);
    else
        fputs("NaN", fp);
}

static int open_file(FILE **fp, const char *stem, const char *suffix, tl_err *err)
{
    tl_err local;
    if (!err)
        err = &local; /* a failed tl_out_open leaves its code only in err */
    char path[TLP_PATH_MAX + 32];
    snprintf(path, sizeof path, "%s%s", stem, suffix);
    *fp = tl_out_open(path, err);
    return *fp ? TL_OK : err->code;
}

FILE *tlp_open_extra(const tlp_fig *f, const char *suffix, tl_err *err)
{
    FILE *fp = NULL;
    open_file(&fp, f->stem, suffix, err);
    return fp;
}

int tlp_close_extra(FILE *fp, const tlp_fig *f, const char *suffix, tl_err *err)
{
    (void)f, (void)suffix; /* tl_out_close names the file */
    return tl_out_close(fp, TL_OK, err);
}

/* The variable naming the PNG or SVG file: NAME.png, or the temporary name treelab passes
 * with -e when it renders (renamed into place afterwards, so a stopped gnuplot leaves no
 * half figure under the final name). */
static void output_var(FILE *gp, const char *kind, const char *base)
{
    char out[TLP_PATH_MAX + 8];
    snprintf(out, sizeof out, "%s.%s", base, kind);
    fprintf(gp, "%s_file = exists(\"tl_%s\") ? tl_%s : ", kind, kind, kind);
    tlp_str(gp, out);
    fputc('\n', gp);
}

/* The terminal line, shared by the PNG and SVG outputs so both look alike. */
static void terminal(FILE *gp, const char *kind)
{
    if (!strcmp(kind, "png"))
        fputs("set terminal pngcairo size 1200,800 noenhanced font 'Sans,16' linewidth 1.5\n", gp);
    else
        fputs("set terminal svg size 1200,800 noenhanced font 'Sans,16' linewidth 1.5 "
              "background rgb 'white'\n",
              gp);
    fprintf(gp, "set output %s_file\n", kind);
}

/* s then suffix as one POSIX shell word, for the command a script's comment suggests: in
 * single quotes, a quote written '\'' (a name holding '$(cmd)' is then text, not a command
 * for whoever pastes the line). */
static void shell_word(FILE *fp, const char *s, const char *suffix)
{
    fputc('\'', fp);
    for (int part = 0; part < 2; part++)
        for (const char *p = part ? suffix : s; *p; p++)
            if (*p == '\'')
                fputs("'\\''", fp);
            else
                fputc(shown((unsigned char)*p), fp);
    fputc('\'', fp);
}

static void preamble(const tlp_fig *f, const char *what)
{
    FILE *gp = f->gp;
    /* A newline would end the comment and start a command: what (a title) is shown
     * through shown(), and tlp_open refused control characters in the stem. */
    fputs("# treelab figure: ", gp);
    for (; what && *what; what++)
        fputc(shown((unsigned char)*what), gp);
    fputc('\n', gp);
    fprintf(gp, "# Data: %s*.dat beside this script. Restyle freely, then re-render with\n",
            f->base);
    fputs("#   cd ", gp);
    shell_word(gp, f->dir, "");
    fputs(" && gnuplot ", gp);
    shell_word(gp, f->base, ".gp");
    fputc('\n', gp);
    fputs("# It writes the PNG first, then replots the same figure as SVG at the end.\n\n", gp);
    fputs("set encoding utf8\n", gp);
    output_var(gp, "png", f->base);
    output_var(gp, "svg", f->base);
    terminal(gp, "png");
    fputs("# Okabe-Ito colour-blind-safe palette; line type i is model colour i-1\n", gp);
    for (size_t i = 0; i < TL_PLOT_N_COLORS; i++)
        fprintf(gp, "set linetype %zu lc rgb '%s' lw 2 pt %d ps 1.4\n", i + 1, palette[i],
                point_types[i]);
    fputs("set style fill transparent solid 0.20 noborder\n", gp);
    fputs("set border lw 1 lc rgb '#444444'\n", gp);
    fputs("set key opaque box lc rgb '#bbbbbb'\n", gp);
    fputs("set tics nomirror out\n", gp);
    tlp_var(gp, "dat", f->base, ".dat");
    fputc('\n', gp);
}

int tlp_open(tlp_fig *f, const char *stem, const char *what, tl_err *err)
{
    memset(f, 0, sizeof *f);
    if (!stem || !*stem)
        return tl_err_set(err, TL_EINVAL, "plot: no output stem given");
    if (strlen(stem) >= sizeof f->stem)
        return tl_err_set(err, TL_EINVAL, "plot: output stem too long");
    long ctrl = tl_text_ctrl(stem);
    if (ctrl >= 0)
        return tl_err_set(err, TL_EINVAL,
                          "plot: output stem holds a control character (byte 0x%02x)",
                          (unsigned)(unsigned char)stem[ctrl]);
    strcpy(f->stem, stem);
    const char *slash = strrchr(f->stem, '/');
    if (slash) {
        size_t len = (size_t)(slash - f->stem);
        memcpy(f->dir, f->stem, len ? len : 1); /* "/x" lives in "/" */
        f->dir[len ? len : 1] = '\0';
        f->base = slash + 1;
    } else {
        strcpy(f->dir, ".");
        f->base = f->stem;
    }
    if (!*f->base)
        return tl_err_set(err, TL_EINVAL, "plot: output stem '%s' names a directory", stem);
    int rc = open_file(&f->dat, stem, ".dat", err);
    if (!rc)
        rc = open_file(&f->gp, stem, ".gp", err);
    if (rc) {
        tlp_abort(f);
        return rc;
    }
    preamble(f, what);
    return TL_OK;
}

void tlp_abort(tlp_fig *f)
{
    if (f->dat)
        tl_out_discard(f->dat);
    if (f->gp)
        tl_out_discard(f->gp);
    f->dat = f->gp = NULL;
}

int tlp_drawn(const char *stem, int rc, int missing, tl_err *err)
{
    char out[2][TLP_PATH_MAX + 8], tmp[2][TLP_PATH_MAX + 16];
    for (int i = 0; i < 2; i++) {
        snprintf(out[i], sizeof out[i], "%s.%s", stem, i ? "svg" : "png");
        tl_out_tmp_name(out[i], tmp[i], sizeof tmp[i]);
    }
    for (int i = 0; !rc && !missing && i < 2; i++)
        rc = tl_out_rename(out[i], err);
    if (rc) {
        unlink(tmp[0]);
        unlink(tmp[1]);
        tl_err_prefix(err, "plotting %s: ", stem);
        return rc; /* not tl_err_prefix's result: that is TL_OK when err is NULL */
    }
    if (missing)
        tl_warn("%s not found: plotting skipped; data and script written to %s.dat and %s.gp",
                tlp_gnuplot_program, stem, stem);
    return TL_OK;
}

int tlp_finish(tlp_fig *f, tl_err *err)
{
    fputs("\n# The same figure as SVG\n", f->gp);
    terminal(f->gp, "svg");
    fputs("replot\nunset output\n", f->gp);
    int rc = tl_out_close(f->dat, TL_OK, err);
    rc = tl_out_close(f->gp, rc, err);
    f->dat = f->gp = NULL;
    if (rc || !tlp_render)
        return rc;
    if ((rc = tl_out_check_cancel(f->stem, err)))
        return rc;
    /* the figures go to temporary names (the base is free of control characters and quoted
     * as a gnuplot string), renamed once gnuplot has finished both */
    char script[TLP_PATH_MAX + 4], out[TLP_PATH_MAX + 8], tmp[TLP_PATH_MAX + 16];
    char *vars = NULL;
    size_t vars_len = 0;
    FILE *e = open_memstream(&vars, &vars_len);
    if (!e)
        return tl_err_set(err, TL_ENOMEM, "out of memory");
    for (int i = 0; i < 2; i++) {
        const char *kind = i ? "svg" : "png";
        snprintf(out, sizeof out, "%s.%s", f->stem, kind);
        tl_out_tmp_name(out, tmp, sizeof tmp);
        fprintf(e, "tl_%s = ", kind);
        tlp_str(e, strrchr(tmp, '/') ? strrchr(tmp, '/') + 1 : tmp);
        fputs("; ", e);
    }
    fclose(e);
    snprintf(script, sizeof script, "%s.gp", f->base);
    char *argv[] = {(char *)tlp_gnuplot_program, "-e", vars, script, NULL};
    int missing = 0;
    if (tlp_batch_on()) {
        rc = tlp_batch_draw(f->dir, argv, f->stem, err);
    } else {
        rc = tlp_run(f->dir, argv, &missing, err);
        rc = tlp_drawn(f->stem, rc, missing, err);
    }
    free(vars);
    return rc;
}

void tlp_tics(FILE *gp, const char *axis, const char *const *labels, size_t n)
{
    size_t longest = 0;
    for (size_t i = 0; i < n; i++)
        if (labels[i] && strlen(labels[i]) > longest)
            longest = strlen(labels[i]);
    fprintf(gp, "set %stics (", axis);
    for (size_t i = 0; i < n; i++) {
        fputs(i ? ", " : "", gp);
        tlp_tic_str(gp, labels[i]);
        fprintf(gp, " %zu", i);
    }
    fputs(")", gp);
    /* long names along x are turned so that neighbours do not collide */
    if (!strcmp(axis, "x") && longest * n > 60)
        fputs(" rotate by 30 right", gp);
    fputs("\n", gp);
}

int tlp_cell_font(size_t cells_across)
{
    return cells_across <= 4 ? 20 : cells_across <= 7 ? 16 : cells_across <= 10 ? 12 : 9;
}

void tlp_rate_range(FILE *gp, const char *axis, double ymin, double ymax)
{
    if (!(ymin <= ymax))
        ymin = 0, ymax = 1;
    double span = fmax(ymax - ymin, 0.05);
    double lo = fmax(0.0, ymin - 0.05 * span), hi = fmin(1.0, ymax + 0.45 * span);
    fprintf(gp, "# a rate: the axis stays within [0, 1]\nset %srange [%.10g:%.10g]\n", axis, lo,
            hi);
}

void tlp_int_tics(FILE *gp, const char *axis, double lo, double hi)
{
    /* a round step (1, 2, 5 x 10^k) giving at most about ten tics */
    double raw = fmax(1.0, (hi - lo) / 10.0), base = pow(10, floor(log10(raw))), step = base;
    for (int i = 0; i < 3 && step < raw; i++)
        step = base * (double[]){2, 5, 10}[i];
    /* gnuplot picks tics at multiples of the step: whole numbers, no 2.5 leaves */
    fprintf(gp, "set %stics %.0f\nset m%stics 1\nset format %s '%%.0f'\n", axis, step, axis, axis);
}
