/* metrics.json: every cell with all its metrics, the summaries, the config and the
 * provenance, for a notebook (json.load) or any JSON reader. */
#include "report_paper.h"

#include <math.h>
#include <string.h>

static void num(FILE *f, double v)
{
    char buf[32];
    fputs(isfinite(v) ? tl_num_short(v, buf) : "null", f); /* JSON has no NaN */
}

static void kv_str(FILE *f, const char *indent, const char *key, const char *value, int last)
{
    fprintf(f, "%s", indent);
    tl_json_str(f, key);
    fputs(": ", f);
    tl_json_str(f, value);
    fputs(last ? "\n" : ",\n", f);
}

static void provenance(FILE *f, const tl_paper *p)
{
    const tl_cells_meta *m = &p->r->meta;
    char version[64] = "", commit[64] = "", proto[1024], buf[1024];
    sscanf(m->producer, "treelab %63s commit %63s", version, commit);
    fputs("  \"provenance\": {\n", f);
    kv_str(f, "    ", "treelab_version", version, 0);
    kv_str(f, "    ", "commit", commit, 0);
    kv_str(f, "    ", "config_path", m->config, 0);
    kv_str(f, "    ", "config_sha256", m->config_sha, 0);
    fprintf(f, "    \"seed\": %lu,\n", m->seed);
    kv_str(f, "    ", "protocol", tl_rep_protocol_text(m, proto, sizeof proto), 0);
    /* no start and end times: the file is byte-identical for the same config, seed and data
     * (the manifest keeps the times) */
    static const char *const lib[] = {"gsl", "libconfig", "openblas"};
    for (size_t i = 0; i < sizeof lib / sizeof *lib; i++)
        kv_str(f, "    ", lib[i],
               p->manifest ? tl_paper_manifest(p, lib[i], buf, sizeof buf) : NULL, 0);
    kv_str(f, "    ", "baseline", m->model[m->baseline], 1);
    fputs("  },\n", f);
    kv_str(f, "  ", "config", p->config, 0);
}

static void datasets_models(FILE *f, const tl_paper *p)
{
    const tl_cells_meta *m = &p->r->meta;
    fputs("  \"datasets\": [\n", f);
    for (size_t d = 0; d < m->n_datasets; d++) {
        fputs("    {\"name\": ", f);
        tl_json_str(f, m->dataset[d]);
        fputs(", \"sha256\": ", f);
        tl_json_str(f, m->dataset_sha[d]);
        fprintf(f, ", \"task\": \"%s\", \"classes\": [",
                m->n_classes[d] ? "classification" : "regression");
        for (size_t c = 0; c < m->n_classes[d]; c++) {
            fputs(c ? ", " : "", f);
            tl_json_str(f, m->classes[d][c]);
        }
        fprintf(f, "]}%s\n", d + 1 < m->n_datasets ? "," : "");
    }
    fputs("  ],\n  \"models\": [\n", f);
    for (size_t j = 0; j < m->n_models; j++) {
        fputs("    {\"name\": ", f);
        tl_json_str(f, m->model[j]);
        fprintf(f, ", \"baseline\": %s, \"grid_cell\": %s}%s\n",
                j == m->baseline ? "true" : "false", m->grid && m->grid[j] ? "true" : "false",
                j + 1 < m->n_models ? "," : "");
    }
    fputs("  ],\n  \"metrics\": [", f);
    for (size_t j = 0; j < p->n_metrics; j++) {
        fputs(j ? ", " : "", f);
        tl_json_str(f, tl_paper_metric(p, j));
    }
    fputs("],\n", f);
}

/* The values a nested selection chose for row i, as metrics.csv has them (text: a value may
 * be a name), under their parameter's name: "selected": {"max_depth": "3"}; nothing when
 * the row's model selects nothing. */
static void selected(FILE *f, const tl_paper *p, size_t i)
{
    int any = 0;
    for (size_t j = 0; j < p->n_sel; j++) {
        const char *v = tl_table_cell(&p->t, i, p->selcol[j]);
        if (!*v)
            continue;
        fputs(any ? ", " : ", \"selected\": {", f);
        any = 1;
        tl_json_str(f, p->t.head[p->selcol[j]] + 4);
        fputs(": ", f);
        tl_json_str(f, v);
    }
    if (any)
        fputc('}', f);
}

static void cells(FILE *f, const tl_paper *p)
{
    const tl_cells_meta *m = &p->r->meta;
    int ctr = tl_table_col(&p->t, "n_train", 0, NULL), cte = tl_table_col(&p->t, "n_test", 0, NULL);
    fputs("  \"cells\": [\n", f);
    for (size_t i = 0; i < p->t.n_rows; i++) {
        const size_t *k = &p->key[4 * i];
        fputs("    {\"dataset\": ", f);
        tl_json_str(f, m->dataset[k[0]]);
        fputs(", \"model\": ", f);
        tl_json_str(f, m->model[k[1]]);
        fprintf(f, ", \"repeat\": %zu, \"fold\": %zu", k[2], k[3]);
        if (m->n_fractions) {
            fputs(", \"fraction\": ", f);
            num(f, m->fractions[k[3]]);
        }
        for (int c = 0; c < 2; c++) {
            double v = NAN;
            int col = c ? cte : ctr;
            if (col >= 0)
                tl_table_num(&p->t, i, col, &v, NULL);
            fprintf(f, ", \"%s\": ", c ? "n_test" : "n_train");
            num(f, v);
        }
        for (size_t j = 0; j < p->n_metrics; j++) {
            fputs(", ", f);
            tl_json_str(f, tl_paper_metric(p, j));
            fputs(": ", f);
            num(f, p->v[i * p->n_metrics + j]);
        }
        selected(f, p, i);
        fprintf(f, "}%s\n", i + 1 < p->t.n_rows ? "," : "");
    }
    fputs("  ],\n", f);
}

static const char *result_word(int r)
{
    return r == 1 ? "win" : r == -1 ? "loss" : r == 0 ? "tie" : r == 2 ? "baseline" : NULL;
}

static void summary(FILE *f, const tl_paper *p)
{
    const tl_cells_meta *m = &p->r->meta;
    int first = 1;
    fputs("  \"summary\": [", f);
    for (size_t d = 0; d < m->n_datasets; d++)
        for (size_t g = 0; g < p->ng; g++)
            for (size_t mo = 0; mo < m->n_models; mo++)
                for (size_t j = 0; j < p->n_metrics; j++) {
                    size_t at = tl_paper_at(p, j, d, g, mo);
                    if (!p->count[at])
                        continue;
                    fputs(first ? "\n    {\"dataset\": " : ",\n    {\"dataset\": ", f);
                    first = 0;
                    tl_json_str(f, m->dataset[d]);
                    if (m->n_fractions) {
                        fputs(", \"fraction\": ", f);
                        num(f, m->fractions[g]);
                    }
                    fputs(", \"model\": ", f);
                    tl_json_str(f, m->model[mo]);
                    fputs(", \"metric\": ", f);
                    tl_json_str(f, tl_paper_metric(p, j));
                    fprintf(f, ", \"n\": %zu, \"mean\": ", p->count[at]);
                    num(f, p->mean[at]);
                    fputs(", \"sd\": ", f);
                    num(f, p->sd[at]);
                    fputs(", \"vs_baseline\": ", f);
                    tl_json_str(f, result_word(p->result[at]));
                    fputc('}', f);
                }
    fputs("\n  ]\n", f);
}

int tl_paper_json(const tl_paper *p, tl_err *err)
{
    FILE *f = tl_rep_open(p->r, "metrics.json", err);
    if (!f)
        return err->code;
    fputs("{\n  \"format\": \"treelab metrics 1\",\n", f);
    kv_str(f, "  ", "experiment", p->r->meta.name, 0);
    provenance(f, p);
    datasets_models(f, p);
    cells(f, p);
    summary(f, p);
    fputs("}\n", f);
    return tl_out_close(f, TL_OK, err);
}
