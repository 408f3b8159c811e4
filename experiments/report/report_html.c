/* report.html: one self-contained page (summary tables, every figure inline as SVG, the
 * config, the provenance) that opens offline: no external reference, the style inline. */
#include "report_paper.h"

#include <dirent.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static const char style[] =
    "body{font-family:sans-serif;margin:2em auto;max-width:1250px;color:#222}"
    "table{border-collapse:collapse;margin:1em 0}"
    "th,td{padding:.25em .7em;border-bottom:1px solid #ddd;text-align:right}"
    "th:first-child,td:first-child{text-align:left}"
    "tr.wtl td{border-top:2px solid #888}"
    "caption{text-align:left;font-size:.9em;color:#555;caption-side:top;padding-bottom:.4em}"
    "p.warn{color:#8a3c00}nav ul{columns:3}nav li{break-inside:avoid}"
    "figure{margin:2em 0}figure svg{max-width:100%;height:auto}"
    "figcaption{font-size:.9em;color:#555}"
    "pre{background:#f6f6f6;padding:1em;overflow-x:auto}";

static void provenance(FILE *f, const tl_paper *p)
{
    const tl_cells_meta *m = &p->r->meta;
    char proto[1024];
    fputs("<h2 id=\"provenance\">Provenance</h2>\n<table>\n", f);
    const char *rows[][2] = {{"producer", m->producer},
                             {"config", m->config},
                             {"config sha256", m->config_sha},
                             {"protocol", tl_rep_protocol_text(m, proto, sizeof proto)},
                             {"baseline", m->model[m->baseline]}};
    for (size_t i = 0; i < sizeof rows / sizeof *rows; i++) {
        fprintf(f, "<tr><th>%s</th><td>", rows[i][0]);
        tl_html_str(f, rows[i][1]);
        fputs("</td></tr>\n", f);
    }
    fprintf(f, "<tr><th>seed</th><td>%lu</td></tr>\n", m->seed);
    for (size_t d = 0; d < m->n_datasets; d++) {
        fputs("<tr><th>dataset ", f);
        tl_html_str(f, m->dataset[d]);
        fputs("</th><td>sha256 ", f);
        tl_html_str(f, m->dataset_sha[d]);
        fputs("</td></tr>\n", f);
    }
    /* the manifest's lines (versions, libraries, times) as they are */
    for (const char *s = p->manifest; s && *s && strncmp(s, "----", 4);) {
        size_t len = strcspn(s, "\n"), k = strcspn(s, ":");
        /* times and resumption vary between identical runs: they stay in the manifest */
        if (k < len && strncmp(s, "dataset:", 8) && strncmp(s, "start:", 6) &&
            strncmp(s, "end:", 4) && strncmp(s, "resumed:", 8)) {
            fprintf(f, "<tr><th>%s</th><td>", "manifest");
            char line[4096];
            snprintf(line, sizeof line, "%.*s", (int)len, s);
            tl_html_str(f, line);
            fputs("</td></tr>\n", f);
        }
        s += len + (s[len] == '\n');
    }
    fputs("</table>\n", f);
}

static void table(FILE *f, const tl_paper *p, size_t j)
{
    const tl_cells_meta *m = &p->r->meta;
    int dec = tl_paper_decimals(p, j);
    double scale = pow(10, dec);
    fputs("<h3 id=\"metric-", f);
    tl_html_str(f, tl_paper_metric(p, j));
    fputs("\">", f);
    tl_html_str(f, tl_paper_metric(p, j));
    fputs("</h3>\n<table>\n<caption>", f);
    tl_html_str(f, tl_paper_metric(p, j));
    fputs(": mean ± sd over the test folds", f);
    if (p->dir[j])
        fprintf(f,
                "; best per row in bold (%s is better); W/T/L by the corrected resampled "
                "t-test at 0.05",
                p->dir[j] > 0 ? "larger" : "smaller");
    fputs(".</caption>\n<tr><th>dataset</th>", f);
    for (size_t i = 0; i < p->nl; i++) {
        fputs("<th>", f);
        tl_html_str(f, m->model[p->listed[i]]);
        fputs("</th>", f);
    }
    fputs("</tr>\n", f);
    for (size_t d = 0; d < m->n_datasets; d++)
        for (size_t g = 0; tl_paper_has(p, j, d) && g < p->ng; g++) {
            char name[1100];
            tl_paper_row_name(p, d, g, name, sizeof name);
            fputs("<tr><td>", f);
            tl_html_str(f, name);
            fputs("</td>", f);
            double best = tl_paper_best(p, j, d, g, dec);
            for (size_t i = 0; i < p->nl; i++) {
                size_t at = tl_paper_at(p, j, d, g, p->listed[i]);
                int bold =
                    p->count[at] && !isnan(best) && round(p->mean[at] * scale) / scale == best;
                if (!p->count[at])
                    fputs("<td>–</td>", f);
                else
                    fprintf(f, "<td>%s%.*f ± %.*f%s</td>", bold ? "<b>" : "", dec, p->mean[at], dec,
                            p->sd[at], bold ? "</b>" : "");
            }
            fputs("</tr>\n", f);
        }
    if (p->dir[j]) {
        fputs("<tr class=\"wtl\"><td>W/T/L vs ", f);
        tl_html_str(f, m->model[m->baseline]);
        fputs("</td>", f);
        for (size_t i = 0; i < p->nl; i++) {
            int w, t, l;
            tl_paper_wtl(p, j, p->listed[i], &w, &t, &l);
            if (p->listed[i] == m->baseline)
                fputs("<td>baseline</td>", f);
            else
                fprintf(f, "<td>%d/%d/%d</td>", w, t, l);
        }
        fputs("</tr>\n", f);
    }
    fputs("</table>\n", f);
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Names in dir/plots ending in .svg or .gp (not temporary files), sorted; NULL when none. */
static char **figure_files(const tl_paper *p, size_t *n, int *nomem)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/plots", p->r->dir);
    *n = 0;
    *nomem = 0;
    DIR *dir = opendir(path);
    if (!dir)
        return NULL;
    char **v = NULL;
    size_t cap = 0;
    for (struct dirent *e; (e = readdir(dir));) {
        size_t len = strlen(e->d_name);
        if (e->d_name[0] == '.' || !((len > 4 && !strcmp(e->d_name + len - 4, ".svg")) ||
                                     (len > 3 && !strcmp(e->d_name + len - 3, ".gp"))))
            continue;
        if (*n == cap) {
            char **grown = realloc(v, (cap = cap ? 2 * cap : 32) * sizeof *v);
            if (!grown) {
                *nomem = 1;
                break;
            }
            v = grown;
        }
        if (!(v[*n] = strdup(e->d_name))) {
            *nomem = 1;
            break;
        }
        ++*n;
    }
    closedir(dir);
    if (v)
        qsort(v, *n, sizeof *v, cmp_str);
    return v;
}

/* The SVG element of file path, inline: from "<svg" on (no XML declaration, doctype or
 * comment before it), the start tag without its xmlns attributes (an HTML page needs none,
 * and they are the only URLs gnuplot and Graphviz write). 0 when the file has no SVG, -1
 * when memory ran out. */
static int inline_svg(FILE *f, const char *path)
{
    int nomem;
    char *text = tl_paper_read(path, &nomem);
    if (nomem)
        return -1;
    char *s = text ? strstr(text, "<svg") : NULL, *end = s ? strchr(s, '>') : NULL;
    if (!end) {
        free(text);
        return 0;
    }
    for (char *a = s; a < end;) {
        char *x = strstr(a, " xmlns");
        if (!x || x > end) {
            fwrite(a, 1, (size_t)(end - a), f);
            break;
        }
        fwrite(a, 1, (size_t)(x - a), f);
        char *q = strpbrk(x, "\"'");
        char *q2 = q && q < end ? strchr(q + 1, *q) : NULL;
        a = q2 && q2 < end ? q2 + 1 : end;
    }
    fputs(end, f);
    free(text);
    return 1;
}

/* The title a figure's script names in its first line ("# treelab figure: TITLE"). */
static void figure_title(FILE *f, const char *gp_path, const char *fallback)
{
    char line[1024] = "";
    FILE *in = fopen(gp_path, "r");
    if (in) {
        if (!fgets(line, sizeof line, in))
            line[0] = '\0';
        fclose(in);
    }
    const char *t = strncmp(line, "# treelab figure: ", 18) ? fallback : line + 18;
    char clean[1024];
    snprintf(clean, sizeof clean, "%.*s", (int)strcspn(t, "\n"), t);
    tl_html_str(f, clean);
}

/* 1 when v[i] is a script whose SVG is listed beside it (the SVG stands for both). */
static int script_of_svg(char *const *v, size_t n, size_t i)
{
    size_t len = strlen(v[i]);
    if (len < 3 || strcmp(v[i] + len - 3, ".gp"))
        return 0;
    size_t stem = len - 3;
    for (size_t k = i ? i - 1 : 0; k < n && k <= i + 1; k++)
        if (k != i && !strncmp(v[k], v[i], stem) && !strcmp(v[k] + stem, ".svg"))
            return 1;
    return 0;
}

/* The figure's stem: its file name without ".svg" or ".gp". */
static void figure_stem(const char *name, char *stem, size_t size)
{
    size_t len = strlen(name);
    int svg = len > 4 && !strcmp(name + len - 4, ".svg");
    snprintf(stem, size, "%.*s", (int)(len - (svg ? 4 : 3)), name);
}

/* The table of contents: the metric tables, the statistics, each figure, the config. */
static void contents(FILE *f, const tl_paper *p, char *const *v, size_t n)
{
    fputs("<nav>\n<h2 id=\"contents\">Contents</h2>\n<ul>\n", f);
    for (size_t j = 0; j < p->n_metrics; j++) {
        if (!tl_paper_shown(p, j))
            continue;
        fputs("<li><a href=\"#metric-", f);
        tl_html_str(f, tl_paper_metric(p, j));
        fputs("\">Summary: ", f);
        tl_html_str(f, tl_paper_metric(p, j));
        fputs("</a></li>\n", f);
    }
    fputs("<li><a href=\"#statistics\">Statistics across datasets</a></li>\n", f);
    for (size_t i = 0; i < n; i++) {
        if (script_of_svg(v, n, i))
            continue;
        char stem[4096];
        figure_stem(v[i], stem, sizeof stem);
        fputs("<li><a href=\"#fig-", f);
        tl_html_str(f, stem);
        fputs("\">", f);
        tl_html_str(f, stem);
        fputs("</a></li>\n", f);
    }
    fputs("<li><a href=\"#config\">Config</a></li>\n"
          "<li><a href=\"#provenance\">Provenance</a></li>\n</ul>\n</nav>\n",
          f);
}

static int figures(FILE *f, const tl_paper *p, char *const *v, size_t n, tl_err *err)
{
    fputs("<h2 id=\"figures\">Figures</h2>\n", f);
    if (!n)
        fputs("<p>No figures (the config's <code>plots</code> names none).</p>\n", f);
    for (size_t i = 0; i < n; i++) {
        size_t len = strlen(v[i]);
        int svg = len > 4 && !strcmp(v[i] + len - 4, ".svg");
        char stem[4096], path[4200], gp[4200];
        figure_stem(v[i], stem, sizeof stem);
        if (script_of_svg(v, n, i))
            continue;
        snprintf(path, sizeof path, "%s/plots/%s", p->r->dir, v[i]);
        snprintf(gp, sizeof gp, "%s/plots/%s.gp", p->r->dir, stem);
        fputs("<figure id=\"fig-", f);
        tl_html_str(f, stem);
        fputs("\">\n", f);
        int shown = svg ? inline_svg(f, path) : 0;
        if (shown < 0)
            return tl_err_set(err, TL_ENOMEM, "out of memory");
        if (!shown) {
            fputs("<p>Not drawn (gnuplot or Graphviz missing): its data and script are in "
                  "plots/",
                  f);
            tl_html_str(f, stem);
            fputs(".gp.</p>", f);
        }
        fputs("\n<figcaption>", f);
        figure_title(f, gp, stem);
        fputs(" (plots/", f);
        tl_html_str(f, stem);
        fputs(")</figcaption>\n</figure>\n", f);
    }
    return TL_OK;
}

int tl_paper_html(const tl_paper *p, tl_err *err)
{
    size_t n;
    int nomem;
    char **v = figure_files(p, &n, &nomem);
    char path[4200];
    snprintf(path, sizeof path, "%s/summary.md", p->r->dir);
    char *md = nomem ? NULL : tl_paper_read(path, &nomem);
    FILE *f = nomem ? NULL : tl_rep_open(p->r, "report.html", err);
    int rc = nomem ? tl_err_set(err, TL_ENOMEM, "out of memory") : f ? TL_OK : err->code;
    if (f) {
        fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\"/>\n<title>", f);
        tl_html_str(f, p->r->meta.name);
        fprintf(f, " (treelab)</title>\n<style>%s</style>\n</head>\n<body>\n<h1>Experiment ",
                style);
        tl_html_str(f, p->r->meta.name);
        fputs("</h1>\n", f);
        contents(f, p, v, n);
        fputs("<h2 id=\"summary\">Summary</h2>\n", f);
        if (p->nl < p->r->meta.n_models)
            fputs("<p>Parameter-grid cells are left out of these tables (see the grid figures "
                  "and metrics.json).</p>\n",
                  f);
        for (size_t j = 0; j < p->n_metrics; j++)
            if (tl_paper_shown(p, j))
                table(f, p, j);
        fputs("<h2 id=\"statistics\">Statistics across datasets</h2>\n", f);
        tl_paper_html_md(f, md);
        rc = figures(f, p, v, n, err);
    }
    if (f && !rc) {
        fputs("<h2 id=\"config\">Config</h2>\n<pre>", f);
        tl_html_str(f, p->config ? p->config : "(no config.cfg in the results folder)");
        fputs("</pre>\n", f);
        provenance(f, p);
        fputs("</body>\n</html>\n", f);
    }
    for (size_t i = 0; i < n; i++)
        free(v[i]);
    free(v);
    free(md);
    return f ? tl_out_close(f, rc, err) : rc;
}
