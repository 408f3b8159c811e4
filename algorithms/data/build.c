/* Dataset assembly shared by the loaders: target choice, the options' plan and final checks
 * over the columns that builder.c collected. */
#include "load_util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "treelab/tl_log.h"

static int is_missing(const tl_colbuild *c, size_t i)
{
    return c->kind == TL_ATTR_NUMERIC ? isnan(c->num[i]) : c->code[i] == TL_MISSING_CODE;
}

/* Data to predict may lack the target column: add one whose every cell is missing. */
static int add_empty_target(tl_build *b, const char *target, size_t *t, tl_err *err)
{
    int rc = tl_build_add_col(b, err);
    if (rc)
        return rc;
    tl_colbuild *c = &b->cols[b->n_cols - 1];
    c->kind = TL_ATTR_NOMINAL;
    c->name = malloc(strlen(target) + 1);
    c->code = malloc((b->n_rows ? b->n_rows : 1) * sizeof *c->code);
    if (!c->name || !c->code)
        return tl_err_set(err, TL_ENOMEM, "%s: out of memory", b->path);
    strcpy(c->name, target);
    for (size_t i = 0; i < b->n_rows; i++)
        c->code[i] = TL_MISSING_CODE;
    *t = b->n_cols - 1;
    return TL_OK;
}

static int find_target(tl_build *b, const char *target, size_t *t, tl_err *err)
{
    if (!target) {
        *t = b->n_cols - 1;
        return TL_OK;
    }
    for (size_t j = 0; j < b->n_cols; j++)
        if (strcmp(b->cols[j].name, target) == 0) {
            *t = j;
            return TL_OK;
        }
    if (b->flags & TL_LOAD_UNLABELLED)
        return add_empty_target(b, target, t, err);
    char names[700] = "";
    for (size_t j = 0; j < b->n_cols; j++)
        tl_join_append(names, sizeof names, b->cols[j].name);
    return tl_parse_err(err, TL_EINVAL, b->path, b->cols[0].line, b->cols[0].col,
                        "unknown target '%s'; valid attributes: %s", target, names);
}

/* Remove the rows whose target is missing, keeping the others in order. */
static size_t drop_missing_target(tl_build *b, size_t t)
{
    size_t kept = 0;
    while (kept < b->n_rows && !is_missing(&b->cols[t], kept))
        kept++; /* rows before the first dropped one stay where they are */
    for (size_t i = kept; i < b->n_rows; i++) {
        if (is_missing(&b->cols[t], i))
            continue;
        for (size_t j = 0; j < b->n_cols; j++) {
            tl_colbuild *c = &b->cols[j];
            if (c->num)
                c->num[kept] = c->num[i];
            else
                c->code[kept] = c->code[i];
        }
        if (b->weight)
            b->weight[kept] = b->weight[i];
        kept++;
    }
    size_t dropped = b->n_rows - kept;
    b->n_rows = kept;
    return dropped;
}

static int check_classes(const tl_build *b, size_t t, tl_err *err)
{
    const tl_colbuild *c = &b->cols[t];
    if (c->kind != TL_ATTR_NOMINAL)
        return TL_OK;
    for (size_t i = 1; i < b->n_rows; i++)
        if (c->code[i] != c->code[0])
            return TL_OK;
    return tl_parse_err(err, TL_EINVAL, b->path, c->line, c->col,
                        "target '%s' has only one class ('%s'); classification needs two or more",
                        c->name, c->lv.names[c->code[0]]);
}

static int forced_nominal(const tl_data_opts *o, const char *name)
{
    for (size_t k = 0; k < o->n_nominal; k++)
        if (!strcmp(o->nominal[k], name))
            return 1;
    return 0;
}

/* Classes and levels within TL_MAX_CLASSES and TL_MAX_LEVELS, checked before any work: a
 * 100,000-class target made every learner run for minutes, then out of memory. */
static int check_limits(const tl_build *b, const tl_data_opts *o, size_t t, const tl_build_plan *p,
                        int unlabelled, tl_err *err)
{
    const tl_colbuild *c = &b->cols[t];
    if (!unlabelled && c->kind == TL_ATTR_NOMINAL && c->lv.n > TL_MAX_CLASSES)
        return tl_parse_err(err, TL_EINVAL, b->path, c->line, c->col,
                            "the target '%s' has %zu classes; at most %d are supported (a "
                            "count per class is kept at every node): %s",
                            c->name, c->lv.n, TL_MAX_CLASSES,
                            forced_nominal(o, c->name)
                                ? "without --nominal (nominal = [...]; in a dataset entry) "
                                  "it is read as a numeric target, a regression"
                                : "merge classes, or predict another column (--target; "
                                  "target = \"...\"; in a dataset entry)");
    for (size_t a = 0; a < p->n_keep; a++) {
        c = &b->cols[p->keep[a]];
        if (c->kind != TL_ATTR_NOMINAL || c->lv.n <= TL_MAX_LEVELS)
            continue;
        if (forced_nominal(o, c->name))
            return tl_parse_err(err, TL_EINVAL, b->path, c->line, c->col,
                                "the attribute '%s' has %zu levels; at most %d are supported: "
                                "without --nominal %s (nominal = [...]; in a dataset entry) it "
                                "stays numeric, or --ignore %s leaves it out",
                                c->name, c->lv.n, TL_MAX_LEVELS, c->name, c->name);
        return tl_parse_err(err, TL_EINVAL, b->path, c->line, c->col,
                            "the attribute '%s' has %zu levels; at most %d are supported (a "
                            "column of so many distinct values is an identifier or free "
                            "text): --ignore %s (ignore = [\"%s\"]; in a dataset entry) "
                            "leaves it out",
                            c->name, c->lv.n, TL_MAX_LEVELS, c->name, c->name);
    }
    return TL_OK;
}

/* The instance weights' sum, which every learner and metric divides by: finite and > 0. */
static int check_weights(const tl_build *b, tl_err *err)
{
    double w = 0;
    for (size_t i = 0; b->weight && i < b->n_rows; i++)
        w += b->weight[i];
    if (!b->weight || (isfinite(w) && w > 0))
        return TL_OK;
    return tl_err_set(err, TL_EINVAL,
                      "%s: the instance weights of its %zu rows sum to %g; they must sum to a "
                      "finite number > 0",
                      b->path, b->n_rows, w);
}

/* Move a built column into an attribute header and a data column. */
static void take_col(tl_colbuild *c, size_t n_rows, tl_attr_info *a, tl_column *out)
{
    a->name = c->name;
    a->kind = c->kind;
    a->levels = c->lv.names;
    a->n_levels = c->lv.n;
    out->num = c->num;
    out->code = c->code;
    /* Shrink to the rows read (the capacity was an upper bound); keep the block if not. */
    if (out->num) {
        double *p = realloc(out->num, (n_rows ? n_rows : 1) * sizeof *p);
        if (p)
            out->num = p;
    } else {
        int *p = realloc(out->code, (n_rows ? n_rows : 1) * sizeof *p);
        if (p)
            out->code = p;
    }
    free(c->lv.slots);
    free(c->date);
    memset(c, 0, sizeof *c);
}

tl_dataset *tl_build_finish(tl_build *b, const char *name, const tl_data_opts *o, tl_err *err)
{
    static const tl_data_opts none = {0};
    o = o ? o : &none;
    tl_dataset *d = NULL;
    tl_build_plan plan = {NULL, 0, -1, -1, -1};
    size_t t = 0;
    if (b->n_rows == 0) {
        tl_parse_err(err, TL_EPARSE, b->path, b->eof_line, b->eof_col,
                     "expected data rows after the header, found none");
        goto fail;
    }
    if (find_target(b, o->target, &t, err) || tl_build_plan_make(b, o, t, &plan, err))
        goto fail;
    int unlabelled = (b->flags & TL_LOAD_UNLABELLED) != 0;
    size_t dropped = unlabelled ? 0 : drop_missing_target(b, t);
    if (dropped)
        tl_warn("%s: dropped %zu row%s whose target '%s' is missing", b->path, dropped,
                dropped == 1 ? "" : "s", b->cols[t].name);
    if (b->n_rows == 0) {
        tl_err_set(err, TL_EINVAL, "%s: every row's target '%s' is missing", b->path,
                   b->cols[t].name);
        goto fail;
    }
    if (check_limits(b, o, t, &plan, unlabelled, err))
        goto fail;
    if (!unlabelled)
        tl_build_hints(b, o, t, &plan);
    int one_class = unlabelled || (b->flags & TL_LOAD_ONE_CLASS);
    if ((!one_class && check_classes(b, t, err)) || check_weights(b, err))
        goto fail;
    d = calloc(1, sizeof *d);
    if (!d || !(d->schema.attrs = calloc(plan.n_keep ? plan.n_keep : 1, sizeof *d->schema.attrs)) ||
        !(d->cols = calloc(plan.n_keep ? plan.n_keep : 1, sizeof *d->cols)) ||
        !(d->path = malloc(strlen(b->path) + 1)))
        goto oom;
    strcpy(d->path, b->path);
    d->name = name ? malloc(strlen(name) + 1) : tl_base_name(b->path);
    if (!d->name)
        goto oom;
    if (name)
        strcpy(d->name, name);
    d->n_rows = b->n_rows;
    d->n_dropped = dropped;
    if (tl_build_plan_parts(b, &plan, d, err))
        goto fail;
    take_col(&b->cols[t], b->n_rows, &d->schema.target, &d->y);
    for (size_t k = 0; k < plan.n_keep; k++) {
        size_t j = d->schema.n_attrs++;
        take_col(&b->cols[plan.keep[k]], b->n_rows, &d->schema.attrs[j], &d->cols[j]);
    }
    d->weight = b->weight; /* the rows kept are its first n_rows */
    b->weight = NULL;
    tl_build_plan_free(&plan);
    tl_build_free(b);
    return d;
oom:
    tl_err_set(err, TL_ENOMEM, "%s: out of memory", b->path);
fail:
    tl_build_plan_free(&plan);
    tl_dataset_free(d);
    tl_build_free(b);
    return NULL;
}
