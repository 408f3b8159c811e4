/* Warnings about columns that are probably not what the user meant, each naming the option
 * that says otherwise: classes coded as numbers, a row id used as an attribute, numbers with
 * decimal commas read as levels. They never change the data. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "load_util.h"
#include "treelab/tl_log.h"

/* A numeric target with at most this many distinct integers, each held by at least
 * ROWS_PER_VALUE rows on average, is probably classes. */
enum { FEW_INTEGERS = 10, ROWS_PER_VALUE = 3 };
/* Fewer rows than this make an "id" too likely by chance to be worth a warning. */
enum { ID_MIN_ROWS = 10 };

/* The number of distinct values of a numeric column when they are all integers and at most
 * FEW_INTEGERS, else 0. Stops at the first value that rules it out, so it costs little. */
static size_t few_integers(const tl_colbuild *c, size_t n)
{
    double seen[FEW_INTEGERS];
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        double v = c->num[i];
        if (isnan(v))
            continue;
        if (v != floor(v))
            return 0;
        size_t s = 0;
        while (s < k && seen[s] != v)
            s++;
        if (s == k) {
            if (k == FEW_INTEGERS)
                return 0;
            seen[k++] = v;
        }
    }
    return k;
}

/* Why column c looks like a row id (every value distinct, or integers in strict order), or
 * NULL. */
static const char *id_like(const tl_colbuild *c, size_t n)
{
    if (n < ID_MIN_ROWS)
        return NULL;
    if (c->kind == TL_ATTR_NUMERIC) {
        int up = 1, down = 1;
        for (size_t i = 0; i < n && (up || down); i++) {
            double v = c->num[i];
            if (isnan(v) || v != floor(v))
                return NULL;
            if (i) {
                up &= v > c->num[i - 1];
                down &= v < c->num[i - 1];
            }
        }
        return up || down ? "integers in strict order, as a row counter" : NULL;
    }
    if (c->lv.n < n)
        return NULL;
    unsigned char *used = calloc(c->lv.n, 1);
    if (!used)
        return NULL;
    size_t i = 0;
    for (; i < n; i++) {
        int code = c->code[i];
        if (code < 0 || used[code])
            break;
        used[code] = 1;
    }
    free(used);
    return i == n ? "a different value in every row" : NULL;
}

/* A level of c that is a number written with a decimal comma, when every level is a number
 * so written (or a plain integer), else NULL. */
static const char *comma_number(const tl_colbuild *c)
{
    const char *example = NULL;
    for (size_t l = 0; l < c->lv.n; l++) {
        const char *s = c->lv.names[l];
        char buf[64];
        size_t len = strlen(s), commas = 0;
        if (len == 0 || len >= sizeof buf)
            return NULL;
        for (size_t i = 0; i <= len; i++) {
            buf[i] = s[i] == ',' ? '.' : s[i];
            commas += s[i] == ',';
        }
        double v;
        if (commas > 1 || strchr(s, '.') || tl_parse_number(buf, len, &v) != 0)
            return NULL;
        if (commas)
            example = s;
    }
    return example;
}

static int is_arff(const char *path)
{
    size_t n = strlen(path);
    return n >= 5 && strcmp(path + n - 5, ".arff") == 0;
}

void tl_build_hints(const tl_build *b, const tl_data_opts *o, size_t t, const tl_build_plan *p)
{
    const tl_colbuild *target = &b->cols[t];
    size_t k;
    if (target->kind == TL_ATTR_NUMERIC && (k = few_integers(target, b->n_rows)) >= 2 &&
        b->n_rows >= ROWS_PER_VALUE * k)
        tl_warn("%s: the target '%s' is numeric with only %zu distinct integer values, so "
                "this is regression; if they are classes, --nominal %s (nominal = [\"%s\"]; "
                "in a dataset entry) reads them as classes",
                b->path, target->name, k, target->name, target->name);
    for (size_t a = 0; a < p->n_keep; a++) {
        const tl_colbuild *c = &b->cols[p->keep[a]];
        const char *why = id_like(c, b->n_rows), *example;
        if (why)
            tl_warn("%s: the attribute '%s' looks like a row id (%s), which tells nothing "
                    "about new rows; --ignore %s (ignore = [\"%s\"]; in a dataset entry) "
                    "leaves it out",
                    b->path, c->name, why, c->name, c->name);
        if (c->kind == TL_ATTR_NOMINAL && o->decimal != ',' && !is_arff(b->path) &&
            (example = comma_number(c)))
            tl_warn("%s: the column '%s' holds numbers with a decimal comma (such as '%s'), "
                    "read as nominal levels; --decimal , (decimal = \",\"; in a dataset "
                    "entry) reads them as numbers",
                    b->path, c->name, example);
    }
}
