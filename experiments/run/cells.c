/* The cells file's format: a self-describing header written, then one line per finished cell
 * (%.17g) written and parsed; cells_read.c reads a whole file back. */
#include "cells_line.h"
#include "treelab/tl_cells.h"
#include "treelab/tl_text.h"
#include "treelab/tl_version.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

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
    fprintf(f, "# treelab cells 2\n# producer treelab %s commit %s\n", tl_version(), tl_commit());
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
    if (x->compare_metric[0] || x->compare_test[0] || x->compare_pairs[0]) /* else as before */
        fprintf(f, "# compare %s %s %s\n", x->compare_metric[0] ? x->compare_metric : "-",
                x->compare_test[0] ? x->compare_test : "-",
                x->compare_pairs[0] ? x->compare_pairs : "-");
    if (x->compare_summary[0])
        fprintf(f, "# summary %s\n", x->compare_summary);
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
    if (c->trees) /* last, tagged: cells without them read as they did */
        fprintf(f, "\ttrees\t%zu", c->trees);
    if (!isnan(c->fidelity))
        fprintf(f, "\tfidelity\t%.17g", c->fidelity);
    if (!isnan(c->test_weight))
        fprintf(f, "\tweight\t%.17g", c->test_weight);
    fputc('\n', f);
}

/* Reads what put_roc_bins wrote from p (an older line ends before it): TL_OK, TL_EPARSE or
 * TL_ENOMEM. */
static int parse_roc_bins(const char *p, tl_cell *c)
{
    char *end;
    while (*p == '\t')
        p++;
    if (!*p || *p == '\n' || !strncmp(p, "trees\t", 6) || !strncmp(p, "fidelity\t", 9) ||
        !strncmp(p, "weight\t", 7))
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

/* An ensemble's member count from the tag that ends the line, 0 without it. */
static size_t parse_trees(const char *line)
{
    const char *t = strstr(line, "\ttrees\t");
    return t ? (size_t)strtoull(t + 7, NULL, 10) : 0;
}

/* The number after a tag ("\tfidelity\t": a distilled model's fidelity; "\tweight\t": the test
 * weight), NaN without it, INFINITY when unreadable (the range check then sees a number or
 * NaN, never garbage). */
static double parse_tagged(const char *line, const char *tag)
{
    const char *t = strstr(line, tag);
    char *end;
    size_t n = strlen(tag);
    double v = t ? strtod(t + n, &end) : NAN;
    return t && end == t + n ? INFINITY : v;
}

int tl_cells_parse_line(char *line, tl_cell *c)
{
    char *p = line, *end;
    size_t u[6];
    memset(c, 0, sizeof *c);
    c->trees = parse_trees(line);
    c->fidelity = parse_tagged(line, "\tfidelity\t");
    c->test_weight = parse_tagged(line, "\tweight\t");
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
    if (end == p || c->k > TL_MAX_CLASSES)
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
