/* The loading options whose columns describe rows rather than attributes: fold ids (a column
 * or a fold file), train / test roles (a column) and row weights, each checked, and the ids
 * and roles moved into the dataset once its rows are final. */
#include "load_util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Parse s as a fold id (an integer >= -1). 0 on success. */
static int parse_fold(const char *s, size_t len, double *out)
{
    double v;
    if (tl_parse_number(s, len, &v) != 0 || v != floor(v) || v < -1 || v > 1e6)
        return -1;
    *out = v;
    return 0;
}

/* Turn column j into numeric fold ids (-1 .. K-1), checking each. */
static int fold_values(tl_build *b, size_t j, const char *what, tl_err *err)
{
    tl_colbuild *c = &b->cols[j];
    double *num = c->num ? c->num : malloc((b->cap_rows ? b->cap_rows : 1) * sizeof *num);
    if (!num)
        return tl_err_set(err, TL_ENOMEM, "%s: out of memory", b->path);
    for (size_t i = 0; i < b->n_rows; i++) {
        char text[40];
        int bad;
        if (c->kind == TL_ATTR_NUMERIC) {
            snprintf(text, sizeof text, "%.17g", num[i]);
            bad = isnan(num[i]) || num[i] != floor(num[i]) || num[i] < -1 || num[i] > 1e6;
            if (isnan(num[i]))
                strcpy(text, "?");
        } else {
            const char *s = c->code[i] < 0 ? "?" : c->lv.names[c->code[i]];
            snprintf(text, sizeof text, "%s", s);
            bad = c->code[i] < 0 || parse_fold(s, strlen(s), &num[i]);
        }
        if (bad) {
            if (num != c->num)
                free(num);
            return tl_err_set(err, TL_EINVAL,
                              "%s: fold column '%s', data row %zu: expected a fold id (an "
                              "integer: -1 to train on the row in every fold, else 0, 1, ...), "
                              "found '%s'",
                              b->path, what, i + 1, text);
        }
    }
    if (num != c->num) {
        free(c->code);
        c->code = NULL;
        c->num = num;
        c->kind = TL_ATTR_NUMERIC;
    }
    return TL_OK;
}

/* Read a fold file (one id a line, a line per data row) into a new column. */
static int read_fold_file(tl_build *b, const char *path, long *col, tl_err *err)
{
    tl_src src;
    int rc = tl_src_read(&src, path, 0, err);
    if (rc)
        return rc;
    if ((rc = tl_build_add_col(b, err)))
        goto done;
    tl_colbuild *c = &b->cols[b->n_cols - 1];
    if (!(c->name = calloc(1, 1)) ||
        !(c->num = malloc((b->cap_rows ? b->cap_rows : 1) * sizeof *c->num))) {
        rc = tl_err_set(err, TL_ENOMEM, "%s: out of memory", path);
        goto done;
    }
    *col = (long)(b->n_cols - 1);
    size_t n = 0, line = 0;
    const char *p = src.text, *end = src.text + src.len;
    while (p < end && !rc) {
        const char *e = p, *ls = p;
        while (e < end && *e != '\n' && *e != '\r')
            e++;
        line++;
        const char *s = p, *t = e;
        while (s < t && (*s == ' ' || *s == '\t'))
            s++;
        while (t > s && (t[-1] == ' ' || t[-1] == '\t'))
            t--;
        p = e < end ? e + (*e == '\r' && e + 1 < end && e[1] == '\n' ? 2 : 1) : e;
        if (s == t)
            continue; /* blank lines (a final line end) hold no id */
        if (n >= b->n_rows)
            rc = tl_parse_err(err, TL_EINVAL, path, line, 1,
                              "more fold ids than the %zu data "
                              "rows of %s: expected one id a line, a line per data row",
                              b->n_rows, b->path);
        else if (parse_fold(s, (size_t)(t - s), &c->num[n++]))
            rc = tl_parse_err(err, TL_EINVAL, path, line, (size_t)(s - ls) + 1,
                              "expected a fold id (an integer: -1 to train on the row in every "
                              "fold, else 0, 1, ...), found '%.*s'",
                              (int)(t - s > 30 ? 30 : t - s), s);
    }
    if (!rc && n < b->n_rows)
        rc = tl_err_set(err, TL_EINVAL,
                        "%s: %zu fold ids for the %zu data rows of %s: expected "
                        "one id a line, a line per data row",
                        path, n, b->n_rows, b->path);
done:
    tl_src_free(&src);
    return rc;
}

/* Turn column j into numeric TL_ROLE_* codes. */
static int split_values(tl_build *b, size_t j, tl_err *err)
{
    tl_colbuild *c = &b->cols[j];
    if (c->kind != TL_ATTR_NOMINAL)
        return tl_err_set(err, TL_EINVAL,
                          "%s: split column '%s' is numeric: expected the "
                          "words train, test or validation",
                          b->path, c->name);
    double *num = malloc((b->cap_rows ? b->cap_rows : 1) * sizeof *num);
    if (!num)
        return tl_err_set(err, TL_ENOMEM, "%s: out of memory", b->path);
    for (size_t i = 0; i < b->n_rows; i++) {
        const char *s = c->code[i] < 0 ? "?" : c->lv.names[c->code[i]];
        num[i] = !strcmp(s, "train")        ? TL_ROLE_TRAIN
                 : !strcmp(s, "test")       ? TL_ROLE_TEST
                 : !strcmp(s, "validation") ? TL_ROLE_VALID
                                            : -1;
        if (num[i] < 0) {
            free(num);
            return tl_err_set(err, TL_EINVAL,
                              "%s: split column '%s', data row %zu: expected "
                              "train, test or validation, found '%s'",
                              b->path, c->name, i + 1, s);
        }
    }
    free(c->code);
    c->code = NULL;
    c->num = num;
    c->kind = TL_ATTR_NUMERIC;
    return TL_OK;
}

/* Row weights from column j: numeric, every value finite and >= 0. */
static int weight_values(tl_build *b, size_t j, tl_err *err)
{
    const tl_colbuild *c = &b->cols[j];
    if (b->weight)
        return tl_err_set(err, TL_EINVAL,
                          "%s: the rows carry ARFF weights {w}; a weight column '%s' cannot "
                          "weigh them too",
                          b->path, c->name);
    if (c->kind != TL_ATTR_NUMERIC)
        return tl_err_set(err, TL_EINVAL,
                          "%s: weight column '%s' is nominal: expected numbers >= 0", b->path,
                          c->name);
    for (size_t i = 0; i < b->n_rows; i++) {
        double w = c->num[i];
        if (isnan(w)) /* a missing cell */
            return tl_err_set(err, TL_EINVAL,
                              "%s: weight column '%s', data row %zu: the weight is missing",
                              b->path, c->name, i + 1);
        if (!(w >= 0) || !isfinite(w))
            return tl_err_set(err, TL_EINVAL,
                              "%s: weight column '%s', data row %zu: expected a finite "
                              "number >= 0, found %g",
                              b->path, c->name, i + 1, w);
        int rc = tl_build_set_weight(b, i, w, err);
        if (rc)
            return rc;
    }
    return TL_OK;
}

int tl_build_plan_rows(tl_build *b, const tl_data_opts *o, size_t t, tl_build_plan *p, tl_err *err)
{
    int rc = TL_OK;
    size_t j = 0;
    if (o->fold_column && !(rc = tl_build_find_col(b, "fold column", o->fold_column, &j, err))) {
        p->fold = (long)j;
        rc = (long)j == (long)t ? tl_err_set(err, TL_EINVAL,
                                             "%s: fold column '%s' is the "
                                             "target",
                                             b->path, o->fold_column)
                                : fold_values(b, j, o->fold_column, err);
    }
    if (!rc && o->fold_file)
        rc = read_fold_file(b, o->fold_file, &p->fold, err);
    if (!rc && o->split_column &&
        !(rc = tl_build_find_col(b, "split column", o->split_column, &j, err))) {
        p->split = (long)j;
        rc = (long)j == (long)t ? tl_err_set(err, TL_EINVAL,
                                             "%s: split column '%s' is the "
                                             "target",
                                             b->path, o->split_column)
                                : split_values(b, j, err);
    }
    if (!rc && o->weight_column &&
        !(rc = tl_build_find_col(b, "weight", o->weight_column, &j, err))) {
        p->weight = (long)j;
        rc = (long)j == (long)t ? tl_err_set(err, TL_EINVAL, "%s: weight column '%s' is the target",
                                             b->path, o->weight_column)
                                : weight_values(b, j, err);
    }
    return rc;
}

/* d->fold from the fold column: K = the largest id + 1, every fold with test and training
 * rows. */
static int take_folds(const tl_build *b, const double *v, tl_dataset *d, tl_err *err)
{
    size_t n = d->n_rows, k = 0;
    if (!(d->fold = malloc((n ? n : 1) * sizeof *d->fold)))
        return tl_err_set(err, TL_ENOMEM, "%s: out of memory", b->path);
    for (size_t i = 0; i < n; i++) {
        d->fold[i] = (int)v[i];
        if (v[i] >= 0 && (size_t)v[i] + 1 > k)
            k = (size_t)v[i] + 1;
    }
    size_t *count = calloc(k + 1, sizeof *count), always = 0;
    if (!count)
        return tl_err_set(err, TL_ENOMEM, "%s: out of memory", b->path);
    for (size_t i = 0; i < n; i++)
        d->fold[i] < 0 ? always++ : count[d->fold[i]]++;
    int rc = TL_OK;
    if (k == 0 || (k == 1 && !always))
        rc = tl_err_set(err, TL_EINVAL,
                        "%s: the fold ids make %zu fold%s with nothing to train "
                        "on: expected ids 0..K-1 (K >= 2), or -1 for rows trained on in every "
                        "fold",
                        b->path, k, k == 1 ? "" : "s");
    for (size_t f = 0; f < k && !rc; f++)
        if (!count[f])
            rc = tl_err_set(err, TL_EINVAL,
                            "%s: fold %zu has no rows: fold ids must be 0..K-1 "
                            "with every fold used (the largest id is %zu)",
                            b->path, f, k - 1);
    free(count);
    d->n_folds = k;
    return rc;
}

static int take_roles(const tl_build *b, const double *v, tl_dataset *d, tl_err *err)
{
    size_t n = d->n_rows, count[3] = {0, 0, 0};
    if (!(d->role = malloc(n ? n : 1)))
        return tl_err_set(err, TL_ENOMEM, "%s: out of memory", b->path);
    for (size_t i = 0; i < n; i++)
        count[(d->role[i] = (unsigned char)v[i])]++;
    if (!count[TL_ROLE_TRAIN] || !count[TL_ROLE_TEST])
        return tl_err_set(err, TL_EINVAL, "%s: the split has no %s rows", b->path,
                          count[TL_ROLE_TRAIN] ? "test" : "train");
    return TL_OK;
}

int tl_build_plan_parts(tl_build *b, const tl_build_plan *p, tl_dataset *d, tl_err *err)
{
    int rc = TL_OK;
    if (p->fold >= 0)
        rc = take_folds(b, b->cols[p->fold].num, d, err);
    if (!rc && p->split >= 0)
        rc = take_roles(b, b->cols[p->split].num, d, err);
    return rc;
}
