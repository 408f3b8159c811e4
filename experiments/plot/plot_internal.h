/* Shared plumbing of the figure writers: output files, script preamble, running programs. */
#ifndef TL_PLOT_INTERNAL_H
#define TL_PLOT_INTERNAL_H

#include <stdio.h>
#include <sys/types.h>

#include "treelab/tl_plot.h"

#define TLP_PATH_MAX 4096

/* One figure being written: STEM.dat and STEM.gp, plus the stem split into dir and base. */
typedef struct tlp_fig {
    FILE *dat, *gp;
    char stem[TLP_PATH_MAX];
    char dir[TLP_PATH_MAX]; /* "." when the stem has no directory */
    const char *base;       /* points into stem */
} tlp_fig;

/* Open STEM.dat and STEM.gp and write the script preamble (comment naming `what`, pngcairo
 * terminal, palette as line types 1..8, common style). TL_EIO/TL_EINVAL on failure (nothing
 * left open). */
int tlp_open(tlp_fig *f, const char *stem, const char *what, tl_err *err);
/* Open an extra data file STEM<suffix> (e.g. "_points.dat") for writing; NULL + TL_EIO. */
FILE *tlp_open_extra(const tlp_fig *f, const char *suffix, tl_err *err);
/* Write the SVG trailer, close both files (checking write errors) and run gnuplot in the
 * stem's directory. A missing gnuplot is a warning and TL_OK. In a batch (plot_batch.h)
 * gnuplot is only started: the batch puts the figure in place (or reports its failure). */
int tlp_finish(tlp_fig *f, tl_err *err);
/* After gnuplot drew stem (rc and missing as tlp_run gave them): the PNG and SVG renamed into
 * place, or their temporaries removed and the error prefixed with the stem. */
int tlp_drawn(const char *stem, int rc, int missing, tl_err *err);
/* 1 while a batch is open on this thread; tlp_batch_draw then starts argv in dir to draw
 * stem (once fewer than the batch's limit are running) and returns without waiting. */
int tlp_batch_on(void);
int tlp_batch_draw(const char *dir, char *const argv[], const char *stem, tl_err *err);
/* Close whatever is open after an error. */
void tlp_abort(tlp_fig *f);
/* Close an extra file, TL_EIO naming it when a write failed. */
int tlp_close_extra(FILE *fp, const tlp_fig *f, const char *suffix, tl_err *err);

/* Write s as a gnuplot single-quoted string: nothing in it is expanded (no `command`), a
 * quote is doubled, control characters become spaces. Every user or file text that reaches
 * a script goes through here. */
void tlp_str(FILE *fp, const char *s);
/* tlp_str for the label of a tic list ("set xtics ('label' 1)"), which gnuplot reads as a
 * format of the position: '%' is doubled as well. */
void tlp_tic_str(FILE *fp, const char *s);
/* Write the script line NAME = 'BASE SUFFIX' (quoted by tlp_str), so plot clauses name their
 * data file by a variable instead of pasting a path. The preamble defines dat = BASE.dat. */
void tlp_var(FILE *gp, const char *name, const char *base, const char *suffix);
/* Write s as a double-quoted data-file field (inner double quotes become single quotes,
 * control characters spaces). Data files are never expanded by gnuplot. */
void tlp_field(FILE *fp, const char *s);
/* Write a number with %.17g; NaN and infinities as NaN (gnuplot's missing value). */
void tlp_num(FILE *fp, double v);
/* Line type (1-based) of palette colour i. */
int tlp_lt(size_t color);
/* "#RRGGBB" of colour i mixed with white (share of white in [0,1]) into buf[8]. */
const char *tlp_tint(size_t color, double white, char buf[8]);

/* Run argv[0] with argv (no shell) in dir, stdin/stdout on /dev/null, stderr captured.
 * *missing = 1 (and TL_OK) when the program cannot be found or executed. A non-zero exit is
 * TL_EINTERNAL with the tail of stderr; on success, stderr text is passed to tl_warn. */
int tlp_run(const char *dir, char *const argv[], int *missing, tl_err *err);
/* tlp_run in two halves, so that a figure's program can run while the caller goes on:
 * tlp_start returns once the program has started (c->pid) or could not (c->pid 0: *missing,
 * or an error); tlp_wait waits for it and says how it ended, as tlp_run. */
typedef struct tlp_child {
    pid_t pid;  /* 0: nothing to wait for */
    FILE *errf; /* its stderr */
    const char *program;
} tlp_child;
int tlp_start(const char *dir, char *const argv[], tlp_child *c, int *missing, tl_err *err);
int tlp_wait(tlp_child *c, tl_err *err);

extern const char *tlp_gnuplot_program;
extern const char *tlp_dot_program;
extern int tlp_render; /* tl_plot_set_render */

/* Helpers shared by the curve-like figures (plot_curve.c). */
/* Data block of markers: x, y, "label", line type of the marker's colour. */
void tlp_markers_block(FILE *dat, const tl_plot_marker *m, size_t n);
/* The plot clauses (leading ", \\\n") drawing block `index` of BASE.dat as markers m[0..n),
 * each with its label in the key. */
void tlp_markers_plot(FILE *gp, size_t index, const tl_plot_marker *m, size_t n);
/* The plot clause (leading ", \\\n") of a dashed horizontal reference line at y, labelled in
 * the key (NaN: nothing). */
void tlp_hline(FILE *gp, double y, const char *label);
/* Grid and key for curves: the key sits in headroom above the data, top left. */
void tlp_key(FILE *gp);
/* A title's longest line, in characters: at the title's 20 points one takes about 13.5 of
 * the canvas' 1200 pixels, so 64 leave room wherever gnuplot centres the title. */
#define TLP_TITLE_CHARS 64
/* The title as a gnuplot string expression, wrapped at spaces into lines of at most
 * TLP_TITLE_CHARS characters (a newline in it starts a line too). */
void tlp_title(FILE *gp, const char *title);
/* title/xlabel/ylabel lines (NULL skips); the title through tlp_title. */
void tlp_labels(FILE *gp, const char *title, const char *xlabel, const char *ylabel);

/* tl_plot_curve_write with a description for the script header and extra commands placed
 * before `plot` (may be NULL). */
int tlp_curve_write_ex(const tl_plot_curve *c, const char *stem, const char *what,
                       const char *extra, tl_err *err);

/* "set yrange [lo:hi]" for rates in [ymin, ymax] (NaN-free), kept within [0, 1] with room
 * for the key above the data (a fixed range turns `set offsets` off). */
void tlp_rate_range(FILE *gp, const char *axis, double ymin, double ymax);
/* Tics on whole numbers for an integer axis spanning [lo, hi] (leaves, depth, k). */
void tlp_int_tics(FILE *gp, const char *axis, double lo, double hi);

/* Category tics "set xtics ('a' 0, 'b' 1, ...)" for axis "x" or "y"; long x labels rotated. */
void tlp_tics(FILE *gp, const char *axis, const char *const *labels, size_t n);
/* Font size for text printed in heatmap cells, by the number of cells across. */
int tlp_cell_font(size_t cells_across);

#endif
