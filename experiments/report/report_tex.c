/* tables.tex: one booktabs table per metric, datasets (x training fractions) by models,
 * mean ± sd, the best per row in bold, a wins/ties/losses row against the baseline. */
#include "report_paper.h"

#include <math.h>
#include <string.h>

static void header(FILE *f, const tl_paper *p, size_t j)
{
    const tl_cells_meta *m = &p->r->meta;
    char proto[1024];
    fputs("\\begin{table}[htbp]\n\\centering\n\\caption{", f);
    tl_tex_str(f, tl_paper_metric(p, j));
    fputs(" of each model (mean $\\pm$ sd over the test folds; ", f);
    tl_tex_str(f, tl_rep_protocol_text(m, proto, sizeof proto));
    fputs(")", f);
    if (p->dir[j]) {
        fprintf(f,
                ". Best per row in bold (%s is better). W/T/L: wins, ties and losses "
                "against ",
                p->dir[j] > 0 ? "larger" : "smaller");
        tl_tex_str(f, m->model[m->baseline]);
        fputs(" by the corrected resampled t-test at 0.05", f);
    }
    fputs(".}\n\\label{tab:", f);
    /* a label is a name, not text: letters and digits only */
    for (const char *s = tl_paper_metric(p, j); *s; s++)
        fputc((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9')
                  ? *s
                  : '-',
              f);
    fputs("}\n\\begin{tabular}{l", f);
    for (size_t i = 0; i < p->nl; i++)
        fputc('c', f);
    fputs("}\n\\toprule\nDataset", f);
    for (size_t i = 0; i < p->nl; i++) {
        fputs(" & ", f);
        tl_tex_str(f, m->model[p->listed[i]]);
    }
    fputs(" \\\\\n\\midrule\n", f);
}

static void rows(FILE *f, const tl_paper *p, size_t j)
{
    const tl_cells_meta *m = &p->r->meta;
    int dec = tl_paper_decimals(p, j);
    double scale = pow(10, dec);
    for (size_t d = 0; d < m->n_datasets; d++) {
        if (!tl_paper_has(p, j, d))
            continue;
        for (size_t g = 0; g < p->ng; g++) {
            char name[1100];
            tl_paper_row_name(p, d, g, name, sizeof name);
            tl_tex_str(f, name);
            double best = tl_paper_best(p, j, d, g, dec);
            for (size_t i = 0; i < p->nl; i++) {
                size_t at = tl_paper_at(p, j, d, g, p->listed[i]);
                if (!p->count[at]) {
                    fputs(" & --", f);
                    continue;
                }
                int bold = !isnan(best) && round(p->mean[at] * scale) / scale == best;
                fprintf(f, bold ? " & $\\mathbf{%.*f \\pm %.*f}$" : " & $%.*f \\pm %.*f$", dec,
                        p->mean[at], dec, p->sd[at]);
            }
            fputs(" \\\\\n", f);
        }
    }
}

static void wtl_row(FILE *f, const tl_paper *p, size_t j)
{
    if (!p->dir[j])
        return;
    fputs("\\midrule\nW/T/L vs ", f);
    tl_tex_str(f, p->r->meta.model[p->r->meta.baseline]);
    for (size_t i = 0; i < p->nl; i++) {
        int w, t, l;
        tl_paper_wtl(p, j, p->listed[i], &w, &t, &l);
        if (p->listed[i] == p->r->meta.baseline)
            fputs(" & (baseline)", f);
        else
            fprintf(f, " & %d/%d/%d", w, t, l);
    }
    fputs(" \\\\\n", f);
}

int tl_paper_tex(const tl_paper *p, tl_err *err)
{
    FILE *f = tl_rep_open(p->r, "tables.tex", err);
    if (!f)
        return err->code;
    fputs("% treelab: tables of experiment ", f);
    tl_tex_str(f, p->r->meta.name);
    fputs(" (rewritten by `treelab report`; needs \\usepackage{booktabs})\n", f);
    if (p->nl < p->r->meta.n_models)
        fputs("% parameter-grid cells are left out, as in the summary's ranks; every cell is in "
              "metrics.json\n",
              f);
    for (size_t j = 0; j < p->n_metrics; j++) {
        if (!tl_paper_shown(p, j))
            continue;
        fputc('\n', f);
        header(f, p, j);
        rows(f, p, j);
        wtl_row(f, p, j);
        fputs("\\bottomrule\n\\end{tabular}\n\\end{table}\n", f);
    }
    return tl_out_close(f, TL_OK, err);
}
