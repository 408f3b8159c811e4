/* Internal to the paper reports (metrics.json, tables.tex, report.html): metrics.csv read
 * back with every metric column it has, summarised per dataset (and training fraction) and
 * model, and the manifest's provenance. */
#ifndef TL_REPORT_PAPER_H
#define TL_REPORT_PAPER_H

#include "report_util.h"
#include "treelab/tl_table.h"

typedef struct tl_paper {
    const tl_rep *r;
    tl_table t;         /* metrics.csv */
    size_t n_metrics;   /* numeric columns after the keys (whatever metrics.csv holds) */
    int *mcol;          /* their column numbers */
    int *dir;           /* +1 larger is better, -1 smaller is better, 0 neither (leaves) */
    size_t n_sel;       /* nested selection's sel.* columns: chosen values, not metrics */
    int *selcol;        /* their column numbers */
    double *v;          /* n_rows x n_metrics values (NaN: empty cell) */
    size_t *key;        /* per row: its dataset, model, repeat, fold (4 entries) */
    size_t *by_group;   /* the rows by (dataset, group, model), file order within each */
    size_t *group_at;   /* group i's rows: by_group[group_at[i] .. group_at[i + 1]) */
    size_t ng;          /* row groups per dataset: 1, or a learning curve's fractions */
    size_t nl, *listed; /* the models of the tables: as listed, grid cells left out */
    /* per metric x (dataset, group) x model: [(j * nd * ng + d * ng + g) * nm + m] */
    double *mean, *sd;
    size_t *count;
    int *result;        /* vs the baseline: 1 win, 0 tie, -1 loss, 2 baseline, 3 not tested */
    char *manifest;     /* the manifest's text, NULL when there is none */
    const char *config; /* the config as given (inside manifest, or config.cfg's text) */
    char *config_own;
} tl_paper;

/* Index into mean/sd/count/result. */
size_t tl_paper_at(const tl_paper *p, size_t j, size_t d, size_t g, size_t m);
/* The name of metric j (its metrics.csv column). */
const char *tl_paper_metric(const tl_paper *p, size_t j);
/* 1 when metric j has a value on dataset d. */
int tl_paper_has(const tl_paper *p, size_t j, size_t d);
/* 1 when metric j has a value on some dataset (it gets a table). */
int tl_paper_shown(const tl_paper *p, size_t j);
/* A whole file's text (malloc'd), NULL when it cannot be read (*nomem = 1 when memory ran
 * out, else 0). */
char *tl_paper_read(const char *path, int *nomem);
/* Row label of (d, g): the dataset's name, and a learning curve's fraction ("iris @ 0.2"). */
void tl_paper_row_name(const tl_paper *p, size_t d, size_t g, char *buf, size_t size);
/* The best listed model's mean among (j, d, g) as printed with `decimals`, NaN when none. */
double tl_paper_best(const tl_paper *p, size_t j, size_t d, size_t g, int decimals);
/* Decimals a metric is printed with (2 for counts such as leaves, else 4). */
int tl_paper_decimals(const tl_paper *p, size_t j);
/* Wins, ties and losses of model m against the baseline over the rows of metric j. */
void tl_paper_wtl(const tl_paper *p, size_t j, size_t m, int *w, int *t, int *l);
/* The value of manifest line "key: value" into buf ("" when absent). */
const char *tl_paper_manifest(const tl_paper *p, const char *key, char *buf, size_t size);

int tl_paper_json(const tl_paper *p, tl_err *err);
int tl_paper_tex(const tl_paper *p, tl_err *err);
int tl_paper_html(const tl_paper *p, tl_err *err);
/* summary.md's warnings and its sections from the nested selection or the statistics across
 * datasets on, as HTML (report_html_md.c); md may be NULL (no summary.md). */
void tl_paper_html_md(FILE *f, const char *md);

#endif
