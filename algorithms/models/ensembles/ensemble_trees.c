/* An ensemble's fitted members: fitted on threads (each writes its own slot, so the result
 * never depends on the thread count), saved, loaded, checked, shown and measured. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "ensemble.h"
#include "treelab/tl_grow.h"
#include "treelab/tl_class_sums.h"

typedef struct pool {
    size_t n, next;
    tl_ens_task task;
    void *user;
    pthread_mutex_t lock;
    size_t failed; /* the lowest failing index, n when none */
    tl_err err;    /* its error */
} pool;

static void *work(void *arg)
{
    pool *p = arg;
    for (;;) {
        pthread_mutex_lock(&p->lock);
        size_t i = p->next < p->failed ? p->next++ : p->n;
        pthread_mutex_unlock(&p->lock);
        if (i >= p->n)
            return NULL;
        tl_err e;
        tl_err_clear(&e);
        if (p->task(p->user, i, &e)) {
            pthread_mutex_lock(&p->lock);
            if (i < p->failed) {
                p->failed = i;
                p->err = e;
            }
            pthread_mutex_unlock(&p->lock);
        }
    }
}

int tl_ens_parallel(size_t n, size_t jobs, tl_ens_task task, void *user, tl_err *err)
{
    pool p = {n, 0, task, user, PTHREAD_MUTEX_INITIALIZER, n, {0}};
    if (jobs > n)
        jobs = n;
    pthread_t th[256];
    size_t started = 0;
    for (size_t j = 1; j < jobs && j < 256; j++, started++)
        if (pthread_create(&th[started], NULL, work, &p))
            break; /* fewer threads: the same result */
    work(&p);
    for (size_t j = 0; j < started; j++)
        pthread_join(th[j], NULL);
    pthread_mutex_destroy(&p.lock);
    if (p.failed < n) {
        if (err)
            *err = p.err;
        return p.err.code ? p.err.code : TL_EINTERNAL;
    }
    return TL_OK;
}

void tl_ens_trees_clear(tl_ens_trees *tr)
{
    for (size_t i = 0; tr->t && i < tr->n; i++)
        tl_tree_free(tr->t[i]);
    free(tr->t);
    tr->t = NULL;
    tr->n = 0;
}

void tl_ens_trees_truncate(tl_ens_trees *tr, size_t n)
{
    for (size_t i = n; tr->t && i < tr->n; i++)
        tl_tree_free(tr->t[i]), tr->t[i] = NULL;
    tr->n = n < tr->n ? n : tr->n;
}

int tl_ens_trees_alloc(tl_ens_trees *tr, size_t n, tl_err *err)
{
    tl_ens_trees_clear(tr);
    if (!(tr->t = calloc(n ? n : 1, sizeof *tr->t)))
        return tl_err_set(err, TL_ENOMEM, "out of memory");
    tr->n = n;
    return TL_OK;
}

/* The members' encoding: 1, libconfig arrays (files of before 2026-11-28, still read); 2, the
 * arrays packed into strings, which a 500-tree forest loads several times faster. */
#define TREES_FORMAT 2

int tl_ens_trees_save(const tl_ens_trees *tr, FILE *f, int indent, tl_err *err)
{
    tl_store_open_group(f, indent, "trees");
    tl_store_put_int(f, indent + 1, "format", TREES_FORMAT);
    tl_store_put_int(f, indent + 1, "n", (long)tr->n);
    int rc = TL_OK;
    for (size_t i = 0; i < tr->n && !rc; i++) {
        char name[32];
        snprintf(name, sizeof name, "t%zu", i);
        tl_store_open_group(f, indent + 1, name);
        rc = tl_tree_save_packed(tr->t[i], f, indent + 2, err);
        tl_store_close_group(f, indent + 1);
    }
    tl_store_close_group(f, indent);
    return rc;
}

int tl_ens_trees_load(tl_ens_trees *tr, const tl_store *s, tl_err *err)
{
    long n, format = 1; /* absent in format 1 */
    if (tl_store_has(s, "state.trees.format") &&
        tl_store_int(s, "state.trees.format", &format, err))
        return TL_EPARSE;
    if (format != 1 && format != TREES_FORMAT)
        return tl_err_set(err, TL_EPARSE,
                          "model file: state.trees.format = %ld is not supported (this treelab "
                          "reads 1 and %d)",
                          format, TREES_FORMAT);
    if (tl_store_int(s, "state.trees.n", &n, err))
        return TL_EPARSE;
    if (n < 1 || n > 100000000)
        return tl_err_set(err, TL_EPARSE, "model file: state.trees.n = %ld; expected 1 or more", n);
    int rc = tl_ens_trees_alloc(tr, (size_t)n, err);
    for (size_t i = 0; i < tr->n && !rc; i++) {
        char path[64];
        snprintf(path, sizeof path, "state.trees.t%zu", i);
        if (!(tr->t[i] = tl_tree_load(s, path, err)))
            rc = TL_EPARSE;
    }
    return rc;
}

int tl_ens_trees_check(const tl_ens_trees *tr, const tl_schema *schema, tl_err *err)
{
    for (size_t i = 0; i < tr->n; i++) {
        int rc = tl_tree_check_schema(tr->t[i], schema, err);
        if (rc) {
            tl_err_prefix(err, "tree %zu: ", i);
            return rc;
        }
    }
    return TL_OK;
}

int tl_ens_check_shape(size_t n_attrs, size_t classes, const tl_schema *schema, tl_err *err)
{
    if (n_attrs != schema->n_attrs)
        return tl_err_set(err, TL_EPARSE, "model file: %zu importances for %zu attributes", n_attrs,
                          schema->n_attrs);
    if ((schema->target.kind == TL_ATTR_NOMINAL ? schema->target.n_levels : 0) != classes)
        return tl_err_set(err, TL_EPARSE, "model file: state.classes = %zu does not fit the target",
                          classes);
    return TL_OK;
}

static void mean_size(const tl_ens_trees *tr, double *leaves, double *depth, size_t *nodes)
{
    double l = 0, d = 0;
    size_t nn = 0;
    for (size_t i = 0; i < tr->n; i++) {
        l += (double)tl_tree_leaves(tr->t[i], 0);
        d += (double)tl_tree_depth(tr->t[i], 0);
        nn += tr->t[i]->n_nodes;
    }
    *leaves = tr->n ? l / (double)tr->n : 0;
    *depth = tr->n ? d / (double)tr->n : 0;
    *nodes = nn;
}

void tl_ens_trees_info(const tl_ens_trees *tr, tl_model_info *out)
{
    double l, d;
    mean_size(tr, &l, &d, &out->nodes);
    out->leaves = (size_t)(l + 0.5);
    out->depth = (size_t)(d + 0.5);
}

int tl_ens_trees_show(const tl_ens_trees *tr, const char *summary, size_t first,
                      const tl_schema *schema, tl_show_format fmt, FILE *f, tl_err *err)
{
    double l, d;
    size_t nodes;
    mean_size(tr, &l, &d, &nodes);
    if (fmt == TL_SHOW_TEXT)
        fprintf(f, "%s\n%zu trees: %.2f leaves and depth %.2f on average, %zu nodes in all\n",
                summary, tr->n, l, d, nodes);
    else if (fmt == TL_SHOW_DOT)
        first = first ? 1 : 0; /* one digraph per output */
    for (size_t i = 0; i < tr->n && i < first; i++) {
        if (fmt != TL_SHOW_DOT)
            fprintf(f, "\nTree %zu:\n", i);
        int rc = tl_tree_show(tr->t[i], schema, fmt, f, err);
        if (rc)
            return rc;
    }
    if (fmt == TL_SHOW_TEXT && tr->n > first)
        fprintf(f, "\n(%zu more trees)\n", tr->n - first);
    return TL_OK;
}

/* Gini for classes, variance for a numeric target: the impurity scikit-learn's importances
 * use for its default criteria. */
static double impurity(const tl_tree *t, size_t node)
{
    const double *s = t->stats + node * t->k;
    if (!t->regression)
        return tl_gini_impurity(s, t->k);
    if (s[0] <= 0)
        return 0;
    double m = s[1] / s[0];
    return s[2] / s[0] - m * m;
}

void tl_ens_tree_importances(const tl_tree *t, size_t n_attrs, double *imp)
{
    double root = tl_tree_node_weight(t, 0);
    if (!(root > 0))
        return;
    for (size_t i = 0; i < t->n_nodes; i++) {
        if (t->attr[i] < 0 || (size_t)t->attr[i] >= n_attrs)
            continue;
        double dec = tl_tree_node_weight(t, i) * impurity(t, i);
        for (size_t c = t->first_child[i]; c < t->first_child[i] + t->n_children[i]; c++)
            dec -= tl_tree_node_weight(t, c) * impurity(t, c);
        imp[t->attr[i]] += dec / root;
    }
}
