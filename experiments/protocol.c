/* Resampling: stratified deterministic folds and hold-out orders as row-index arrays. */
#include "treelab/tl_protocol.h"

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static uint64_t mix(uint64_t x)
{
    /* splitmix64 finaliser: every input bit affects every output bit */
    x += 0x9e3779b97f4a7c15ULL;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}

unsigned long tl_protocol_seed(unsigned long seed, const char *name, size_t a, size_t b)
{
    uint64_t h = mix((uint64_t)seed);
    for (const char *p = name; p && *p; p++)
        h = mix(h ^ (unsigned char)*p);
    h = mix(h ^ (uint64_t)a);
    h = mix(h ^ ((uint64_t)b + 0x51ed27ULL));
    /* mt19937 uses 32 bits of its seed; 0 would be replaced by GSL's default */
    unsigned long s = (unsigned long)(h & 0xffffffffULL);
    return s ? s : 1;
}

/* Group of row i: its class, or 0 when not stratifying. */
static size_t group_of(const tl_dataset *d, int strat, size_t i)
{
    return strat ? (size_t)d->y.code[i] : 0;
}

/* Visit each group's rows in shuffled order: visit(pos, rank, group size, user), pos being
 * the row (rows NULL: every row of d) or its position in rows[0..n). */
static int shuffled_groups(const tl_dataset *d, const size_t *rows, size_t n_rows, int stratified,
                           unsigned long rng_seed,
                           void (*visit)(size_t pos, size_t rank, size_t size, void *user),
                           void *user, tl_err *err)
{
    int strat = stratified && tl_dataset_is_classification(d);
    size_t n_groups = strat ? tl_dataset_n_classes(d) : 1;
    size_t *pos = malloc((n_rows ? n_rows : 1) * sizeof *pos);
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    if (!pos || !r) {
        free(pos);
        gsl_rng_free(r);
        return tl_err_set(err, TL_ENOMEM, "out of memory");
    }
    gsl_rng_set(r, rng_seed);
    for (size_t g = 0; g < n_groups; g++) {
        size_t n = 0;
        for (size_t i = 0; i < n_rows; i++)
            if (group_of(d, strat, rows ? rows[i] : i) == g)
                pos[n++] = i;
        if (n > 1)
            gsl_ran_shuffle(r, pos, n, sizeof *pos);
        for (size_t j = 0; j < n; j++)
            visit(pos[j], j, n, user);
    }
    free(pos);
    gsl_rng_free(r);
    return TL_OK;
}

typedef struct {
    size_t *fold_of, k, dealt;
} deal_state;

static void deal(size_t pos, size_t rank, size_t size, void *user)
{
    (void)rank;
    (void)size;
    deal_state *s = user;
    s->fold_of[pos] = s->dealt++ % s->k;
}

int tl_protocol_folds(const tl_dataset *d, size_t k, int stratified, unsigned long seed,
                      const char *name, size_t repeat, size_t *fold_of, tl_err *err)
{
    if (k < 2 || k > d->n_rows)
        return tl_err_set(err, TL_EINVAL, "%zu folds on %zu rows: need 2 <= folds <= rows", k,
                          d->n_rows);
    deal_state s = {fold_of, k, 0};
    return shuffled_groups(d, NULL, d->n_rows, stratified, tl_protocol_seed(seed, name, repeat, 0),
                           deal, &s, err);
}

int tl_protocol_folds_of_rows(const tl_dataset *d, const size_t *rows, size_t n, size_t k,
                              unsigned long rng_seed, size_t *fold_of, tl_err *err)
{
    return tl_folds_assign(d, rows, n, k, rng_seed, fold_of, err);
}

void tl_protocol_fold_rows(const size_t *fold_of, size_t n_rows, size_t f, size_t *train,
                           size_t *n_train, size_t *test, size_t *n_test)
{
    *n_train = *n_test = 0;
    for (size_t i = 0; i < n_rows; i++) {
        if (fold_of[i] == f)
            test[(*n_test)++] = i;
        else
            train[(*n_train)++] = i;
    }
}

static void rank(size_t row, size_t r, size_t size, void *user)
{
    ((double *)user)[row] = (double)r / (double)size;
}

int tl_protocol_order(const tl_dataset *d, int stratified, unsigned long seed, const char *name,
                      size_t repeat, double *order_of, tl_err *err)
{
    return shuffled_groups(d, NULL, d->n_rows, stratified, tl_protocol_seed(seed, name, repeat, 0),
                           rank, order_of, err);
}

int tl_protocol_order_of_rows(const tl_dataset *d, const size_t *rows, size_t n,
                              unsigned long rng_seed, double *order_of, tl_err *err)
{
    return shuffled_groups(d, rows, n, 1, rng_seed, rank, order_of, err);
}

static void put(size_t *out, size_t *n, size_t row)
{
    if (out)
        out[*n] = row;
    ++*n;
}

void tl_protocol_split(const double *order_of, size_t n_rows, double a, double b, size_t *first,
                       size_t *n_first, size_t *second, size_t *n_second, size_t *third,
                       size_t *n_third)
{
    size_t dummy1, dummy2, dummy3;
    n_first = n_first ? n_first : &dummy1;
    n_second = n_second ? n_second : &dummy2;
    n_third = n_third ? n_third : &dummy3;
    *n_first = *n_second = *n_third = 0;
    /* a small tolerance so that 0.6 of 50 rows is 30 rows despite 0.6 * 50 rounding */
    const double eps = 1e-9;
    for (size_t i = 0; i < n_rows; i++) {
        if (order_of[i] < a - eps)
            put(first, n_first, i);
        else if (order_of[i] < b - eps)
            put(second, n_second, i);
        else
            put(third, n_third, i);
    }
}
