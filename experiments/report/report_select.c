/* Nested selection in the reports: the chosen values per cell (metrics.csv's sel.* columns,
 * selections.csv) and how often each value was chosen (summary.md). */
#include "report_util.h"

#include <stdlib.h>
#include <string.h>

size_t tl_rep_sel_columns(const tl_rep *r, const char **names, size_t max)
{
    size_t n = 0;
    for (size_t m = 0; m < r->meta.n_models; m++) {
        const tl_cells_select *s = &r->meta.select[m];
        for (size_t p = 0; p < s->n_params; p++) {
            size_t j = 0;
            while (j < n && strcmp(names[j], s->param[p]))
                j++;
            if (j == n && n < max)
                names[n++] = s->param[p];
        }
    }
    return n;
}

/* The value of parameter `param` chosen in cell c, or NULL (not selected there). */
static const char *chosen(const tl_rep *r, const tl_cell *c, const char *param)
{
    const tl_cells_select *s = &r->meta.select[c->model];
    if (c->selected < 0 || !s->n_params)
        return NULL;
    size_t index = (size_t)c->selected;
    const char *v = NULL;
    for (size_t p = s->n_params; p-- > 0;) {
        if (!strcmp(s->param[p], param))
            v = s->value[p][index % s->n_values[p]];
        index /= s->n_values[p];
    }
    return v;
}

void tl_rep_sel_fields(FILE *f, const tl_rep *r, const tl_cell *c, const char *const *names,
                       size_t n)
{
    for (size_t j = 0; j < n; j++) {
        const char *v = chosen(r, c, names[j]);
        fputc(',', f);
        if (v)
            tl_csv_field(f, v);
    }
}

int tl_rep_selections(const tl_rep *r, tl_err *err)
{
    size_t i = 0;
    while (i < r->n && (r->cells[i].selected < 0 || !r->meta.select[r->cells[i].model].n_params))
        i++;
    if (i == r->n)
        return TL_OK;
    FILE *f = tl_rep_open(r, "selections.csv", err);
    if (!f)
        return err->code;
    fputs("dataset,model,repeat,fold,parameter,value\n", f);
    for (i = 0; i < r->n; i++) {
        const tl_cell *c = &r->cells[i];
        const tl_cells_select *s = &r->meta.select[c->model];
        for (size_t p = 0; c->selected >= 0 && p < s->n_params; p++) {
            tl_csv_pair(f, r->meta.dataset[c->dataset], r->meta.model[c->model]);
            fprintf(f, ",%zu,%zu,", c->repeat, c->fold);
            tl_csv_field(f, s->param[p]);
            fputc(',', f);
            tl_csv_field(f, chosen(r, c, s->param[p]));
            fputc('\n', f);
        }
    }
    return tl_out_close(f, TL_OK, err);
}

/* One table row: how often each value of parameter p was chosen over the pair's cells. */
static void md_counts(FILE *f, const tl_rep *r, size_t d, size_t m, size_t p)
{
    const tl_cells_select *s = &r->meta.select[m];
    size_t first, n = tl_rep_range(r, d, m, &first);
    fprintf(f, "| %s | %s | %s |", MD(r->meta.dataset[d]), MD(r->meta.model[m]), MD(s->param[p]));
    int any = 0;
    for (size_t v = 0; v < s->n_values[p]; v++) {
        size_t times = 0;
        for (size_t i = first; i < first + n; i++)
            times += chosen(r, &r->cells[i], s->param[p]) == s->value[p][v];
        if (times)
            fprintf(f, "%s %s (%zu/%zu)", any++ ? "," : "", s->value[p][v], times, n);
    }
    fputs(" |\n", f);
}

void tl_rep_select_md(FILE *f, const tl_rep *r)
{
    int header = 0;
    for (size_t m = 0; m < r->meta.n_models; m++) {
        const tl_cells_select *s = &r->meta.select[m];
        if (!s->n_params)
            continue;
        if (!header++)
            fputs("\n## Nested selection\n\nThe value each selecting model chose in its outer "
                  "folds (times chosen / cells), a sign of how stable the choice is. Ties go to "
                  "the first candidate of the grid (the first parameter varying slowest).\n\n",
                  f);
        fprintf(f,
                "%s: %s.\n\n| dataset | model | parameter | chosen |\n| --- | --- | --- | "
                "--- |\n",
                r->meta.model[m], s->by ? s->by : "(not recorded)");
        for (size_t d = 0; d < r->meta.n_datasets; d++)
            for (size_t p = 0; p < s->n_params; p++)
                md_counts(f, r, d, m, p);
        fputc('\n', f);
    }
}
