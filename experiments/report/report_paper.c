/* The paper reports' common part: metrics.csv read back generically (every numeric column
 * is a metric), means, sds and corrected t-tests against the baseline per dataset, the
 * manifest's provenance; and the entry point writing metrics.json, tables.tex, report.html. */
#include "report_paper.h"

#include <errno.h>
#include <gsl/gsl_statistics_double.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "treelab/tl_stats.h"

#define ALPHA 0.05

static const char *const keys[] = {"dataset", "model", "repeat", "fold"};

size_t tl_paper_at(const tl_paper *p, size_t j, size_t d, size_t g, size_t m)
{
    return ((j * p->r->meta.n_datasets + d) * p->ng + g) * p->r->meta.n_models + m;
}

const char *tl_paper_metric(const tl_paper *p, size_t j)
{
    return p->t.head[p->mcol[j]];
}

int tl_paper_shown(const tl_paper *p, size_t j)
{
    for (size_t d = 0; d < p->r->meta.n_datasets; d++)
        if (tl_paper_has(p, j, d))
            return 1;
    return 0;
}

int tl_paper_has(const tl_paper *p, size_t j, size_t d)
{
    for (size_t g = 0; g < p->ng; g++)
        for (size_t m = 0; m < p->r->meta.n_models; m++)
            if (p->count[tl_paper_at(p, j, d, g, m)])
                return 1;
    return 0;
}

void tl_paper_row_name(const tl_paper *p, size_t d, size_t g, char *buf, size_t size)
{
    char frac[32];
    if (p->r->meta.n_fractions)
        snprintf(buf, size, "%s @ %s", p->r->meta.dataset[d],
                 tl_num_short(p->r->meta.fractions[g], frac));
    else
        snprintf(buf, size, "%s", p->r->meta.dataset[d]);
}

int tl_paper_decimals(const tl_paper *p, size_t j)
{
    return p->dir[j] ? 4 : 2;
}

double tl_paper_best(const tl_paper *p, size_t j, size_t d, size_t g, int decimals)
{
    double best = NAN, scale = pow(10, decimals);
    for (size_t i = 0; p->dir[j] && i < p->nl; i++) {
        size_t at = tl_paper_at(p, j, d, g, p->listed[i]);
        /* as printed: models that print the same mean are equally best */
        double v = round(p->mean[at] * scale) / scale;
        if (p->count[at] && (isnan(best) || v * p->dir[j] > best * p->dir[j]))
            best = v;
    }
    return best;
}

void tl_paper_wtl(const tl_paper *p, size_t j, size_t m, int *w, int *t, int *l)
{
    *w = *t = *l = 0;
    for (size_t d = 0; d < p->r->meta.n_datasets; d++)
        for (size_t g = 0; g < p->ng; g++) {
            int res = p->result[tl_paper_at(p, j, d, g, m)];
            *w += res == 1, *t += res == 0, *l += res == -1;
        }
}

const char *tl_paper_manifest(const tl_paper *p, const char *key, char *buf, size_t size)
{
    size_t kl = strlen(key);
    buf[0] = '\0';
    for (const char *s = p->manifest; s && *s && strncmp(s, "----", 4);) {
        size_t len = strcspn(s, "\n");
        if (len > kl + 1 && !strncmp(s, key, kl) && s[kl] == ':' && s[kl + 1] == ' ') {
            snprintf(buf, size, "%.*s", (int)(len - kl - 2), s + kl + 2);
            break;
        }
        s += len + (s[len] == '\n');
    }
    return buf;
}

/* Which way a metric is better, by its name: scores up, losses and errors down, sizes
 * (leaves, depth) and anything unknown neither (no bold, no wins). */
static int direction(const char *name)
{
    static const char *const up[] = {"accuracy", "kappa",     "f1",     "r2",
                                     "auc",      "precision", "recall", NULL};
    static const char *const down[] = {"loss", "brier", "mse", "rmse", "mae", "error", NULL};
    for (int i = 0; down[i]; i++)
        if (strstr(name, down[i]))
            return -1;
    for (int i = 0; up[i]; i++)
        if (strstr(name, up[i]))
            return 1;
    return 0;
}

char *tl_paper_read(const char *path, int *nomem)
{
    *nomem = 0;
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    long n = fseek(f, 0, SEEK_END) ? -1 : ftell(f);
    char *text = n >= 0 ? malloc((size_t)n + 1) : NULL;
    *nomem = n >= 0 && !text;
    if (text && (fseek(f, 0, SEEK_SET) || fread(text, 1, (size_t)n, f) != (size_t)n)) {
        free(text);
        text = NULL;
    }
    if (text)
        text[n] = '\0';
    fclose(f);
    return text;
}

/* Metric columns: every column but the keys whose cells are all numbers or empty. The
 * values a nested selection chose (sel.PARAM, numbers or not) are no metric: they are kept
 * apart, for metrics.json's cells only. */
static int find_metrics(tl_paper *p, tl_err *err)
{
    const tl_table *t = &p->t;
    p->mcol = malloc((t->n_cols + 1) * sizeof *p->mcol);
    p->dir = malloc((t->n_cols + 1) * sizeof *p->dir);
    p->selcol = malloc((t->n_cols + 1) * sizeof *p->selcol);
    p->key = malloc((t->n_rows * 4 + 1) * sizeof *p->key);
    if (!p->mcol || !p->dir || !p->selcol || !p->key)
        return tl_err_set(err, TL_ENOMEM, "out of memory");
    for (size_t c = 0; c < t->n_cols; c++) {
        if (!strncmp(t->head[c], "sel.", 4)) {
            p->selcol[p->n_sel++] = (int)c;
            continue;
        }
        int numeric = strcmp(t->head[c], "n_train") && strcmp(t->head[c], "n_test");
        for (int k = 0; k < 4; k++)
            numeric &= strcmp(t->head[c], keys[k]) != 0;
        for (size_t i = 0; numeric && i < t->n_rows; i++) {
            double v;
            numeric = tl_table_num(t, i, (int)c, &v, NULL) == TL_OK;
        }
        if (numeric)
            p->mcol[p->n_metrics] = (int)c, p->dir[p->n_metrics++] = direction(t->head[c]);
    }
    p->v = malloc((t->n_rows * p->n_metrics + 1) * sizeof *p->v);
    if (!p->v)
        return tl_err_set(err, TL_ENOMEM, "out of memory");
    for (size_t i = 0; i < t->n_rows; i++)
        for (size_t j = 0; j < p->n_metrics; j++)
            tl_table_num(t, i, p->mcol[j], &p->v[i * p->n_metrics + j], NULL);
    return TL_OK;
}

typedef struct {
    const char *name;
    size_t i;
} named;

static int by_name(const void *a, const void *b)
{
    return strcmp(((const named *)a)->name, ((const named *)b)->name);
}

/* Each row's dataset, model, repeat and fold, the names found in the cells' header (models by
 * a binary search: a scan per row made a 20,000-model grid's reports quadratic). */
static int find_keys(tl_paper *p, tl_err *err)
{
    const tl_table *t = &p->t;
    const tl_cells_meta *m = &p->r->meta;
    int c[4];
    for (int k = 0; k < 4; k++)
        if ((c[k] = tl_table_col(t, keys[k], 1, err)) < 0)
            return TL_EPARSE;
    named *models = malloc((m->n_models + 1) * sizeof *models);
    if (!models)
        return tl_err_set(err, TL_ENOMEM, "out of memory");
    for (size_t j = 0; j < m->n_models; j++)
        models[j] = (named){m->model[j], j};
    qsort(models, m->n_models, sizeof *models, by_name);
    int rc = TL_OK;
    for (size_t i = 0; i < t->n_rows && !rc; i++) {
        size_t *key = &p->key[4 * i];
        const char *dn = tl_table_cell(t, i, c[0]);
        named want = {tl_table_cell(t, i, c[1]), 0};
        for (key[0] = 0; key[0] < m->n_datasets && strcmp(m->dataset[key[0]], dn); key[0]++)
            ;
        const named *at = bsearch(&want, models, m->n_models, sizeof *models, by_name);
        key[1] = at ? at->i : m->n_models;
        char *end1, *end2;
        key[2] = (size_t)strtoul(tl_table_cell(t, i, c[2]), &end1, 10);
        key[3] = (size_t)strtoul(tl_table_cell(t, i, c[3]), &end2, 10);
        if (key[0] == m->n_datasets || key[1] == m->n_models || *end1 || *end2 ||
            (m->n_fractions && key[3] >= m->n_fractions))
            rc = tl_err_set(err, TL_EPARSE,
                            "%s: data row %zu names a dataset, model or "
                            "fold that cells.txt does not have",
                            t->path, i + 1);
    }
    free(models);
    return rc;
}

static size_t group_of(const tl_paper *p, size_t d, size_t g, size_t m)
{
    return (d * p->ng + g) * p->r->meta.n_models + m;
}

/* by_group and group_at: the rows counted into their groups once (a scan of every row per
 * model made a 20,000-model grid's reports quadratic). */
static int group_rows(tl_paper *p, tl_err *err)
{
    const tl_cells_meta *m = &p->r->meta;
    size_t ng = m->n_datasets * p->ng * m->n_models, nr = p->t.n_rows;
    p->group_at = calloc(ng + 2, sizeof *p->group_at);
    p->by_group = malloc((nr + 1) * sizeof *p->by_group);
    if (!p->group_at || !p->by_group)
        return tl_err_set(err, TL_ENOMEM, "out of memory");
    size_t *gi = p->group_at + 1; /* counts, then where each group's next row goes */
    for (size_t i = 0; i < nr; i++) {
        const size_t *k = &p->key[4 * i];
        gi[group_of(p, k[0], m->n_fractions ? k[3] : 0, k[1])]++;
    }
    for (size_t i = 0, at = 0; i <= ng; i++) {
        size_t c = p->group_at[i + 1];
        p->group_at[i + 1] = at;
        at += c;
    }
    for (size_t i = 0; i < nr; i++) {
        const size_t *k = &p->key[4 * i];
        p->by_group[gi[group_of(p, k[0], m->n_fractions ? k[3] : 0, k[1])]++] = i;
    }
    return TL_OK;
}

/* Rows of (d, g, m) in file order (repeat, fold: the same order for every model). */
static size_t rows_of(const tl_paper *p, size_t d, size_t g, size_t m, size_t *out)
{
    size_t at = group_of(p, d, g, m), n = p->group_at[at + 1] - p->group_at[at];
    memcpy(out, p->by_group + p->group_at[at], n * sizeof *out);
    return n;
}

/* Mean, sd and the test against the baseline of metric j on (d, g, m). */
static int summarise(tl_paper *p, size_t j, size_t d, size_t g, size_t m, size_t *ia, size_t *ib,
                     double *a, double *b, tl_err *err)
{
    size_t at = tl_paper_at(p, j, d, g, m), nj = p->n_metrics, k = 0;
    size_t n = rows_of(p, d, g, m, ia), nb = rows_of(p, d, g, p->r->meta.baseline, ib);
    for (size_t i = 0; i < n; i++)
        if (!isnan(p->v[ia[i] * nj + j]))
            a[k++] = p->v[ia[i] * nj + j];
    p->count[at] = k;
    p->mean[at] = k ? gsl_stats_mean(a, 1, k) : NAN;
    p->sd[at] = k > 1 ? gsl_stats_sd(a, 1, k) : 0;
    p->result[at] = m == p->r->meta.baseline ? 2 : 3;
    if (m == p->r->meta.baseline || !p->dir[j] || k != n || n != nb || n < 2)
        return TL_OK;
    double ntr = 0, nte = 0;
    int ctr = tl_table_col(&p->t, "n_train", 0, NULL), cte = tl_table_col(&p->t, "n_test", 0, NULL);
    for (size_t i = 0; i < n; i++) {
        b[i] = p->v[ib[i] * nj + j];
        double x;
        if (ctr >= 0 && !tl_table_num(&p->t, ib[i], ctr, &x, NULL))
            ntr += x;
        if (cte >= 0 && !tl_table_num(&p->t, ib[i], cte, &x, NULL))
            nte += x;
    }
    tl_ttest tt;
    tl_err e;
    int rc = ntr > 0 ? tl_corrected_ttest(a, b, n, nte / ntr, &tt, &e) : TL_EINVAL;
    if (rc == TL_ENOMEM)
        return tl_err_set(err, TL_ENOMEM, "out of memory");
    if (!rc)
        p->result[at] = isnan(tt.p) || tt.p >= ALPHA ? 0 : tt.mean_diff * p->dir[j] > 0 ? 1 : -1;
    return TL_OK;
}

static int load(tl_paper *p, const tl_rep *r, tl_err *err)
{
    memset(p, 0, sizeof *p);
    p->r = r;
    char path[4096];
    snprintf(path, sizeof path, "%s/metrics.csv", r->dir);
    int rc = tl_table_read(path, &p->t, err);
    if (rc)
        return rc;
    size_t nd = r->meta.n_datasets, nm = r->meta.n_models, nr = p->t.n_rows;
    p->ng = r->meta.n_fractions ? r->meta.n_fractions : 1;
    if ((rc = find_metrics(p, err)) || (rc = find_keys(p, err)) || (rc = group_rows(p, err)))
        return rc;
    size_t cells = p->n_metrics * nd * p->ng * nm + 1;
    p->mean = malloc(cells * sizeof *p->mean);
    p->sd = malloc(cells * sizeof *p->sd);
    p->count = malloc(cells * sizeof *p->count);
    p->result = malloc(cells * sizeof *p->result);
    p->listed = malloc((nm + 1) * sizeof *p->listed);
    size_t *idx = malloc(2 * (nr + 1) * sizeof *idx);
    double *buf = malloc(2 * (nr + 1) * sizeof *buf);
    if (!p->mean || !p->sd || !p->count || !p->result || !p->listed || !idx || !buf)
        rc = tl_err_set(err, TL_ENOMEM, "out of memory");
    if (!rc)
        p->nl = tl_rep_listed(r, p->listed);
    for (size_t j = 0; !rc && j < p->n_metrics; j++)
        for (size_t d = 0; !rc && d < nd; d++)
            for (size_t g = 0; !rc && g < p->ng; g++)
                for (size_t m = 0; !rc && m < nm; m++)
                    rc = summarise(p, j, d, g, m, idx, idx + nr + 1, buf, buf + nr + 1, err);
    free(idx);
    free(buf);
    if (rc)
        return rc;
    /* provenance: the manifest (absent while a first run is cut short before it) */
    int nomem;
    snprintf(path, sizeof path, "%s/manifest", r->dir);
    p->manifest = tl_paper_read(path, &nomem);
    const char *cfg = p->manifest ? strstr(p->manifest, "\n---- config as given ----\n") : NULL;
    if (cfg)
        p->config = cfg + 27;
    else if (!nomem) {
        snprintf(path, sizeof path, "%s/config.cfg", r->dir);
        p->config = p->config_own = tl_paper_read(path, &nomem);
    }
    return nomem ? tl_err_set(err, TL_ENOMEM, "out of memory") : TL_OK;
}

static void clear(tl_paper *p)
{
    tl_table_free(&p->t);
    free(p->mcol), free(p->dir), free(p->selcol), free(p->v), free(p->key), free(p->listed);
    free(p->by_group), free(p->group_at);
    free(p->mean), free(p->sd), free(p->count), free(p->result);
    free(p->manifest), free(p->config_own);
}

int tl_rep_paper(const char *dir, tl_err *err)
{
    tl_err local;
    if (!err)
        err = &local;
    tl_rep r;
    tl_paper p;
    int rc = tl_rep_load(dir, &r, err);
    if (rc)
        return rc;
    rc = load(&p, &r, err);
    if (!rc)
        rc = tl_paper_json(&p, err);
    if (!rc)
        rc = tl_paper_tex(&p, err);
    if (!rc)
        rc = tl_paper_html(&p, err);
    clear(&p);
    tl_rep_free(&r);
    return rc;
}
