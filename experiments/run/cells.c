/* The cells file: a self-describing header, then one line per finished cell (%.17g). */
#include "treelab/tl_report.h"
#include "treelab/tl_text.h"
#include "treelab/tl_version.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

void tl_cells_meta_clear(tl_cells_meta *m)
{
    if (!m)
        return;
    for (size_t i = 0; i < m->n_datasets; i++) {
        free(m->dataset[i]);
        free(m->dataset_sha[i]);
        for (size_t c = 0; m->classes[i] && c < m->n_classes[i]; c++)
            free(m->classes[i][c]);
        free(m->classes[i]);
    }
    for (size_t j = 0; j < m->n_models; j++) {
        free(m->model[j]);
        tl_cells_select *s = m->select ? &m->select[j] : NULL;
        for (size_t p = 0; s && p < s->n_params; p++) {
            for (size_t v = 0; v < s->n_values[p]; v++)
                free(s->value[p][v]);
            free(s->param[p]);
            free(s->value[p]);
        }
        if (s) {
            free(s->param);
            free(s->value);
            free(s->n_values);
            free(s->by);
        }
    }
    free(m->select);
    free(m->dataset);
    free(m->dataset_sha);
    free(m->n_classes);
    free(m->classes);
    free(m->model);
    free(m->grid);
    free(m->fractions);
    for (size_t i = 0; m->missing_base && i < m->n_missing; i++)
        free(m->missing_base[i]);
    free(m->missing_base);
    free(m->missing_rate);
    memset(m, 0, sizeof *m);
}

static void write_protocol(FILE *f, const tl_protocol *p)
{
    if (p->kind == TL_PROTO_CV)
        fprintf(f, "# protocol cv folds %zu repeats %zu stratified %d\n", p->folds, p->repeats,
                p->stratified);
    else if (p->kind == TL_PROTO_HOLDOUT)
        fprintf(f,
                "# protocol holdout train %.17g validation %.17g test %.17g repeats %zu "
                "stratified %d\n",
                p->train, p->valid, p->test, p->repeats, p->stratified);
    else if (p->kind == TL_PROTO_FOLDS || p->kind == TL_PROTO_SPLIT)
        fprintf(f, "# protocol %s %s%s\n", p->kind == TL_PROTO_FOLDS ? "folds" : "split",
                p->column ? "column " : "from each dataset's file", p->column ? p->column : "");
    else
        fprintf(f, "# protocol learning_curve repeats %zu stratified %d\n", p->repeats,
                p->stratified);
    for (size_t i = 0; i < p->n_fractions; i++)
        fprintf(f, "# fraction %zu %.17g\n", i, p->fractions[i]);
}

/* Whether the outer protocol gives the inner selection validation rows: a hold-out with a
 * validation share on every dataset, a split on those whose split marks some (1 all, 2 some,
 * 0 none; tl_exp_select_describe). */
static int valid_rows(const tl_experiment *x, tl_dataset *const *data)
{
    if (x->protocol.kind == TL_PROTO_HOLDOUT)
        return x->protocol.valid > 0;
    if (x->protocol.kind != TL_PROTO_SPLIT)
        return 0;
    size_t with = 0;
    for (size_t i = 0; i < x->n_datasets; i++) {
        const tl_dataset *d = data[i];
        size_t r = 0;
        while (d->role && r < d->n_rows && d->role[r] != TL_ROLE_VALID)
            r++;
        with += d->role && r < d->n_rows;
    }
    return with == 0 ? 0 : with == x->n_datasets ? 1 : 2;
}

/* Model j's selection grid, so reports name the chosen values without the config. */
static int write_select(FILE *f, const tl_experiment *x, size_t j, int has_valid, tl_err *err)
{
    const tl_exp_select *s = &x->models[j].select;
    for (size_t p = 0; p < s->n_params; p++) {
        fprintf(f, "# select %zu %zu %s\n", j, p, s->params[p]);
        for (size_t v = 0; v < s->n_values[p]; v++) {
            long at = tl_text_ctrl(s->values[p][v]);
            char name[5];
            if (at >= 0) /* a newline would end the header line */
                return tl_err_set(err, TL_EINVAL,
                                  "%s:%d: model '%s': value '%.*s...' of %s "
                                  "holds control character %s",
                                  x->config_path, s->line, x->models[j].name, (int)at,
                                  s->values[p][v], s->params[p],
                                  tl_text_ctrl_name((unsigned char)s->values[p][v][at], name));
            fprintf(f, "# value %zu %zu %zu %s\n", j, p, v, s->values[p][v]);
        }
    }
    if (s->n_params) {
        char by[256];
        tl_exp_select_describe(s, has_valid, by, sizeof by);
        fprintf(f, "# select_by %zu %s\n", j, by);
    }
    return TL_OK;
}

int tl_cells_write_header(FILE *f, const tl_experiment *x, tl_dataset *const *data, tl_err *err)
{
    char sha[65];
    int rc = tl_file_sha256(x->config_path, sha, err);
    if (rc)
        return rc;
    fprintf(f, "# treelab cells 1\n# producer treelab %s commit %s\n", tl_version(), tl_commit());
    fprintf(f, "# name %s\n", x->name);
    fprintf(f, "# config %s\n# config_sha256 %s\n# seed %lu\n", x->config_path, sha, x->seed);
    write_protocol(f, &x->protocol);
    if (x->protocol.n_missing_rates) {
        unsigned w = x->protocol.missing_rows;
        fprintf(f, "# missing_rows %s\n",
                w == TL_MISSING_IN_TRAIN  ? "train"
                : w == TL_MISSING_IN_TEST ? "test"
                                          : "all");
    }
    fprintf(f, "# baseline %zu\n# reports %u\n", x->baseline, x->reports);
    for (size_t i = 0; i < x->n_datasets; i++) {
        const tl_dataset *d = data[i];
        if (!d->path || tl_file_sha256(d->path, sha, NULL))
            strcpy(sha, "-");
        size_t k = tl_dataset_n_classes(d);
        fprintf(f, "# dataset %zu %zu %s %s\n", i, k, sha, x->datasets[i].name);
        if (x->datasets[i].base) /* protocol.missing: the rate and the dataset it came from */
            fprintf(f, "# missing %zu %.17g %s\n", i, x->datasets[i].missing_rate,
                    x->datasets[i].base);
        for (size_t c = 0; c < k; c++) {
            /* class names come from the data, not the config: a quoted CSV field may hold a
             * newline, which would end this line */
            const char *cl = d->schema.target.levels[c];
            long at = tl_text_ctrl(cl);
            char name[5];
            if (at >= 0)
                return tl_err_set(err, TL_EINVAL,
                                  "%s:%d: dataset '%s': class '%.*s...' holds "
                                  "control character %s; class names end up in result files "
                                  "and may not hold one",
                                  x->config_path, x->datasets[i].line, x->datasets[i].name, (int)at,
                                  cl, tl_text_ctrl_name((unsigned char)cl[at], name));
            fprintf(f, "# class %zu %zu %s\n", i, c, cl);
        }
    }
    for (size_t j = 0; j < x->n_models; j++) {
        fprintf(f, "# model %zu %s\n", j, x->models[j].name);
        if ((rc = write_select(f, x, j, valid_rows(x, data), err)))
            return rc;
    }
    /* which models a grid expanded: the summary ranks the listed ones, as the figure does */
    for (size_t j = 0; j < x->n_models; j++)
        if (x->models[j].grid)
            fprintf(f, "# grid %zu\n", j);
    return TL_OK;
}

static void put_g(FILE *f, double v)
{
    fprintf(f, "\t%.17g", v);
}

/* The ROC bins that hold weight, last on the line so that readers before them still read it:
 * "roc N" and N triples (bin, weight, weight of the class). */
static void put_roc_bins(FILE *f, const double *b)
{
    size_t used = 0;
    for (size_t i = 0; b && i < TL_ROC_BINS; i++)
        used += b[2 * i] != 0;
    if (!b)
        return;
    fprintf(f, "\troc\t%zu", used);
    for (size_t i = 0; i < TL_ROC_BINS; i++)
        if (b[2 * i] != 0) {
            fprintf(f, "\t%zu", i);
            put_g(f, b[2 * i]);
            put_g(f, b[2 * i + 1]);
        }
}

/* Reads what put_roc_bins wrote from p (an older line ends before it): TL_OK, TL_EPARSE or
 * TL_ENOMEM. */
static int parse_roc_bins(const char *p, tl_cell *c)
{
    char *end;
    while (*p == '\t')
        p++;
    if (!*p || *p == '\n')
        return TL_OK;
    if (strncmp(p, "roc", 3))
        return TL_EPARSE;
    unsigned long used = strtoul(p + 3, &end, 10);
    if (end == p + 3 || used > TL_ROC_BINS)
        return TL_EPARSE;
    if (!(c->roc_bins = calloc(2 * TL_ROC_BINS, sizeof *c->roc_bins)))
        return TL_ENOMEM;
    for (unsigned long i = 0; i < used; i++) {
        p = end;
        unsigned long b = strtoul(p, &end, 10);
        if (end == p || b >= TL_ROC_BINS)
            return TL_EPARSE;
        for (int j = 0; j < 2; j++) {
            p = end;
            double v = strtod(p, &end);
            if (end == p || !(v >= 0) || !isfinite(v))
                return TL_EPARSE;
            c->roc_bins[2 * b + (size_t)j] = v;
        }
    }
    return TL_OK;
}

void tl_cells_write(FILE *f, const tl_cell *c)
{
    fprintf(f, "%zu\t%zu\t%zu\t%zu\t%zu\t%zu\t%ld", c->dataset, c->model, c->repeat, c->fold,
            c->n_train, c->n_test, c->selected);
    const double v[] = {c->leaves,      c->depth,       c->fit_s,
                        c->predict_s,   c->cm.accuracy, c->cm.balanced_accuracy,
                        c->cm.kappa,    c->cm.f1_macro, c->cm.f1_weighted,
                        c->cm.log_loss, c->rm.mse,      c->rm.rmse,
                        c->rm.mae,      c->rm.r2};
    for (size_t i = 0; i < sizeof v / sizeof *v; i++)
        put_g(f, v[i]);
    fprintf(f, "\t%zu", c->classification ? c->k : 0);
    for (size_t i = 0; c->classification && i < c->k * c->k; i++)
        put_g(f, c->confusion[i]);
    /* appended after the confusion matrix so that cells written before them still read */
    if (c->classification) {
        const double pv[] = {c->cm.roc_auc_macro, c->cm.roc_auc_weighted, c->cm.pr_auc,
                             c->cm.brier};
        for (size_t i = 0; i < sizeof pv / sizeof *pv; i++)
            put_g(f, pv[i]);
        fprintf(f, "\t%d", c->proba_bins ? TL_PROBA_BINS : 0);
        for (size_t i = 0; c->proba_bins && i < 3 * TL_PROBA_BINS; i++)
            put_g(f, c->proba_bins[i]);
        fprintf(f, "\t%s", c->correct && c->correct[0] ? c->correct : "-");
        put_roc_bins(f, c->roc_bins);
    }
    fputc('\n', f);
}

/* The probability metrics and score bins that end a classification cell's line; a line
 * written before they existed ends at the confusion matrix and gets NaN and no bins. */
static int parse_proba(const char *p, tl_cell *c)
{
    char *end;
    double *dst[] = {&c->cm.roc_auc_macro, &c->cm.roc_auc_weighted, &c->cm.pr_auc, &c->cm.brier};
    for (size_t i = 0; i < sizeof dst / sizeof *dst; i++)
        *dst[i] = NAN;
    while (*p == '\t' || *p == ' ')
        p++;
    if (!*p)
        return TL_OK;
    for (size_t i = 0; i < sizeof dst / sizeof *dst; i++) {
        *dst[i] = strtod(p, &end);
        if (end == p)
            return tl_cell_clear(c), TL_EPARSE;
        p = end;
    }
    long bins = strtol(p, &end, 10);
    if (end == p || (bins != 0 && bins != TL_PROBA_BINS))
        return tl_cell_clear(c), TL_EPARSE;
    p = end;
    if (bins && !(c->proba_bins = malloc(3 * TL_PROBA_BINS * sizeof *c->proba_bins)))
        return tl_cell_clear(c), TL_ENOMEM;
    for (long i = 0; i < 3 * bins; i++) {
        c->proba_bins[i] = strtod(p, &end);
        if (end == p)
            return tl_cell_clear(c), TL_EPARSE;
        p = end;
    }
    while (*p == '\t')
        p++;
    size_t len = strspn(p, "01");
    if (!len && !*p)
        return TL_OK;
    if (!len && *p != '-') /* '-': no per-row results */
        return tl_cell_clear(c), TL_EPARSE;
    if (len && len != c->n_test)
        return tl_cell_clear(c), TL_EPARSE;
    if (len && !(c->correct = strndup(p, len)))
        return tl_cell_clear(c), TL_ENOMEM;
    int rc = parse_roc_bins(p + (len ? len : 1), c);
    if (rc)
        tl_cell_clear(c);
    return rc;
}

/* Parse one cell line: TL_OK, TL_EPARSE or TL_ENOMEM. */
static int parse_cell(char *line, tl_cell *c)
{
    char *p = line, *end;
    size_t u[6];
    memset(c, 0, sizeof *c);
    for (int i = 0; i < 6; i++) {
        u[i] = (size_t)strtoull(p, &end, 10);
        if (end == p)
            return TL_EPARSE;
        p = end;
    }
    c->dataset = u[0], c->model = u[1], c->repeat = u[2], c->fold = u[3];
    c->n_train = u[4], c->n_test = u[5];
    c->selected = strtol(p, &end, 10);
    if (end == p)
        return TL_EPARSE;
    p = end;
    double *dst[] = {&c->leaves,      &c->depth,       &c->fit_s,
                     &c->predict_s,   &c->cm.accuracy, &c->cm.balanced_accuracy,
                     &c->cm.kappa,    &c->cm.f1_macro, &c->cm.f1_weighted,
                     &c->cm.log_loss, &c->rm.mse,      &c->rm.rmse,
                     &c->rm.mae,      &c->rm.r2};
    for (size_t i = 0; i < sizeof dst / sizeof *dst; i++) {
        *dst[i] = strtod(p, &end);
        if (end == p)
            return TL_EPARSE;
        p = end;
    }
    c->k = (size_t)strtoull(p, &end, 10);
    if (end == p || c->k > 10000)
        return TL_EPARSE;
    p = end;
    c->classification = c->k > 0;
    if (c->k) {
        if (!(c->confusion = malloc(c->k * c->k * sizeof *c->confusion)))
            return TL_ENOMEM;
        for (size_t i = 0; i < c->k * c->k; i++) {
            c->confusion[i] = strtod(p, &end);
            if (end == p)
                return tl_cell_clear(c), TL_EPARSE;
            p = end;
        }
        return parse_proba(p, c);
    }
    return TL_OK;
}

static int grow(void **arr, size_t n, size_t size)
{
    void *a = realloc(*arr, (n + 1) * size);
    if (!a)
        return -1;
    *arr = a;
    memset((char *)a + n * size, 0, size);
    return 0;
}

/* The name after the numbers of a header line starts after exactly one space: a " %n" in
 * the format would skip a name's own leading spaces. Moves *off onto it; 0 if none. */
static int name_at(const char *line, int *off)
{
    if (!*off || line[*off] != ' ')
        return 0;
    ++*off;
    return 1;
}

/* A dataset or model name as the config reader allows it. Names become file names in the
 * results folder (confusion/D__M.csv), so a crafted "../../x" wrote outside it. */
static int bad_name(const char *s)
{
    return !*s || strchr(s, '/') || tl_text_ctrl(s) >= 0;
}

/* The `# select`, `# value` and `# select_by` lines of the last model read. */
static int parse_select(const char *line, tl_cells_meta *m)
{
    size_t j, p, v;
    int off = 0;
    tl_cells_select *s = m->n_models ? &m->select[m->n_models - 1] : NULL;
    if (sscanf(line, "# select %zu %zu%n", &j, &p, &off) == 2 && name_at(line, &off)) {
        if (!s || j != m->n_models - 1 || p != s->n_params || tl_text_ctrl(line + off) >= 0)
            return TL_EPARSE;
        if (grow((void **)&s->param, p, sizeof *s->param) ||
            grow((void **)&s->value, p, sizeof *s->value) ||
            grow((void **)&s->n_values, p, sizeof *s->n_values))
            return TL_ENOMEM;
        s->n_params++;
        return (s->param[p] = strdup(line + off)) ? TL_OK : TL_ENOMEM;
    }
    if (sscanf(line, "# value %zu %zu %zu%n", &j, &p, &v, &off) == 3 && name_at(line, &off)) {
        if (!s || j != m->n_models - 1 || p + 1 != s->n_params || v != s->n_values[p])
            return TL_EPARSE;
        if (grow((void **)&s->value[p], v, sizeof **s->value))
            return TL_ENOMEM;
        s->n_values[p]++;
        return (s->value[p][v] = strdup(line + off)) ? TL_OK : TL_ENOMEM;
    }
    if (sscanf(line, "# select_by %zu%n", &j, &off) == 1 && name_at(line, &off)) {
        if (!s || j != m->n_models - 1 || s->by)
            return TL_EPARSE;
        return (s->by = strdup(line + off)) ? TL_OK : TL_ENOMEM;
    }
    return TL_EPARSE;
}

/* What parse_header finds besides TL_OK, TL_EPARSE and TL_ENOMEM. */
enum { BAD_NAME = -2, BAD_FORMAT = -3 };

/* One header line into meta: TL_OK, TL_EPARSE (malformed), TL_ENOMEM, BAD_NAME (a name that
 * bad_name refuses) or BAD_FORMAT (another format version). */
static int parse_header(const char *line, tl_cells_meta *m)
{
    size_t i, k;
    int off = 0;
    char sha[65];
    if (!strncmp(line, "# treelab cells ", 16))
        return strcmp(line + 16, "1") ? BAD_FORMAT : TL_OK;
    if (sscanf(line, "# producer %255[^\n]", m->producer) == 1 ||
        sscanf(line, "# config_sha256 %64s", m->config_sha) == 1 ||
        sscanf(line, "# config %1023[^\n]", m->config) == 1 ||
        sscanf(line, "# seed %lu", &m->seed) == 1 ||
        sscanf(line, "# protocol %255[^\n]", m->protocol) == 1 ||
        sscanf(line, "# name %255[^\n]", m->name) == 1 ||
        sscanf(line, "# baseline %zu", &m->baseline) == 1 ||
        sscanf(line, "# reports %u", &m->reports) == 1 ||
        sscanf(line, "# missing_rows %15s", m->missing_rows) == 1)
        return TL_OK;
    double rate;
    if (sscanf(line, "# missing %zu %lf %n", &i, &rate, &off) == 2 && off && line[off]) {
        /* right after its dataset line, and every dataset has one */
        if (i + 1 != m->n_datasets || i != m->n_missing || !(rate >= 0 && rate < 1))
            return TL_EPARSE;
        if (bad_name(line + off))
            return BAD_NAME;
        if (grow((void **)&m->missing_base, i, sizeof *m->missing_base) ||
            grow((void **)&m->missing_rate, i, sizeof *m->missing_rate))
            return TL_ENOMEM;
        m->n_missing++;
        m->missing_rate[i] = rate;
        return (m->missing_base[i] = strdup(line + off)) ? TL_OK : TL_ENOMEM;
    }
    if (sscanf(line, "# shard %zu %zu", &i, &k) == 2) {
        if (i < 1 || i > k || m->n_shards)
            return TL_EPARSE;
        m->shard = i, m->n_shards = k;
        return TL_OK;
    }
    if (sscanf(line, "# fraction %zu %n", &i, &off) == 1 && off) {
        if (i != m->n_fractions)
            return TL_EPARSE;
        if (grow((void **)&m->fractions, i, sizeof *m->fractions))
            return TL_ENOMEM;
        m->fractions[m->n_fractions++] = strtod(line + off, NULL);
        return TL_OK;
    }
    if (sscanf(line, "# dataset %zu %zu %64s%n", &i, &k, sha, &off) == 3 && name_at(line, &off)) {
        if (bad_name(line + off))
            return BAD_NAME;
        if (i != m->n_datasets)
            return TL_EPARSE;
        if (grow((void **)&m->dataset, i, sizeof *m->dataset) ||
            grow((void **)&m->dataset_sha, i, sizeof *m->dataset_sha) ||
            grow((void **)&m->n_classes, i, sizeof *m->n_classes) ||
            grow((void **)&m->classes, i, sizeof *m->classes))
            return TL_ENOMEM;
        m->n_datasets++;
        m->dataset[i] = strdup(line + off);
        m->dataset_sha[i] = strdup(sha);
        if (!m->dataset[i] || !m->dataset_sha[i] ||
            !(m->classes[i] = calloc(k ? k : 1, sizeof **m->classes)))
            return TL_ENOMEM;
        m->n_classes[i] = k;
        return TL_OK;
    }
    if (sscanf(line, "# class %zu %zu%n", &i, &k, &off) == 2 && name_at(line, &off)) {
        if (i >= m->n_datasets || k >= m->n_classes[i] || m->classes[i][k])
            return TL_EPARSE;
        if (tl_text_ctrl(line + off) >= 0)
            return BAD_NAME;
        return (m->classes[i][k] = strdup(line + off)) ? TL_OK : TL_ENOMEM;
    }
    if (sscanf(line, "# grid %zu%n", &i, &off) == 1 && !line[off]) {
        if (i >= m->n_models)
            return TL_EPARSE;
        if (!m->grid && !(m->grid = calloc(m->n_models, 1)))
            return TL_ENOMEM;
        m->grid[i] = 1;
        return TL_OK;
    }
    if (sscanf(line, "# model %zu%n", &i, &off) == 1 && name_at(line, &off)) {
        if (m->grid)
            return TL_EPARSE; /* grid lines follow every model line */
        if (bad_name(line + off))
            return BAD_NAME;
        if (i != m->n_models)
            return TL_EPARSE;
        if (grow((void **)&m->model, i, sizeof *m->model) ||
            grow((void **)&m->select, i, sizeof *m->select))
            return TL_ENOMEM;
        return (m->model[m->n_models++] = strdup(line + off)) ? TL_OK : TL_ENOMEM;
    }
    return parse_select(line, m);
}

size_t tl_cells_candidates(const tl_cells_select *s)
{
    size_t n = 1;
    for (size_t p = 0; p < s->n_params; p++) {
        if (!s->n_values[p] || n > (size_t)1 << 40)
            return 0;
        n *= s->n_values[p];
    }
    return s->n_params ? n : 0;
}

/* Check the parsed file is consistent: every class named, cells inside the tables. */
static int check(const tl_cells_meta *m, const tl_cell *c, size_t n)
{
    for (size_t i = 0; i < m->n_datasets; i++)
        for (size_t k = 0; k < m->n_classes[i]; k++)
            if (!m->classes[i][k])
                return -1;
    for (size_t i = 0; i < n; i++)
        if (c[i].dataset >= m->n_datasets || c[i].model >= m->n_models ||
            c[i].k != m->n_classes[c[i].dataset] ||
            (m->select[c[i].model].n_params &&
             c[i].selected >= (long)tl_cells_candidates(&m->select[c[i].model])))
            return -1;
    return m->n_models && m->baseline < m->n_models ? 0 : -1;
}

int tl_cells_read(const char *path, tl_cells_meta *meta, tl_cell **cells, size_t *n,
                  long *valid_bytes, tl_err *err)
{
    memset(meta, 0, sizeof *meta);
    *cells = NULL;
    *n = 0;
    FILE *f = fopen(path, "r");
    if (!f)
        return tl_err_set(err, TL_EIO, "%s: %s", path, strerror(errno));
    char *line = NULL;
    size_t cap = 0;
    ssize_t len;
    long good = 0, lineno = 0;
    int rc = TL_OK;
    while (!rc && (errno = 0, len = getline(&line, &cap, f)) > 0) {
        lineno++;
        if (line[len - 1] != '\n')
            break; /* a write cut short: drop it */
        line[len - 1] = '\0';
        int header = line[0] == '#';
        rc = header                                     ? parse_header(line, meta)
             : grow((void **)cells, *n, sizeof **cells) ? TL_ENOMEM
                                                        : parse_cell(line, &(*cells)[*n]);
        if (rc == BAD_FORMAT)
            rc = tl_err_set(err, TL_EPARSE,
                            "%s:%ld: '%.40s' is not a cells format this "
                            "treelab reads (it reads 1)",
                            path, lineno, line + 2);
        else if (rc == BAD_NAME)
            rc = tl_err_set(err, TL_EPARSE,
                            "%s:%ld: bad header line: a name must be non-empty "
                            "without '/' or control characters",
                            path, lineno);
        else if (rc == TL_ENOMEM)
            rc = tl_err_set(err, TL_ENOMEM, "out of memory");
        else if (rc)
            rc = tl_err_set(err, TL_EPARSE, "%s:%ld: bad %s line", path, lineno,
                            header ? "header" : "cell");
        else if (!header)
            ++*n;
        good += len;
    }
    if (!rc && len < 0 && errno == ENOMEM) /* getline could not grow its buffer */
        rc = tl_err_set(err, TL_ENOMEM, "out of memory");
    free(line);
    fclose(f);
    if (!rc && check(meta, *cells, *n))
        rc = tl_err_set(err, TL_EPARSE, "%s: the cells do not match the header", path);
    if (rc) {
        for (size_t i = 0; i < *n; i++)
            tl_cell_clear(&(*cells)[i]);
        free(*cells);
        *cells = NULL;
        *n = 0;
        tl_cells_meta_clear(meta);
        return rc;
    }
    if (valid_bytes)
        *valid_bytes = good;
    return TL_OK;
}
