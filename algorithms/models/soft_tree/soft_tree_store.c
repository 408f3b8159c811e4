/* Soft tree model files: encoding, tree shape, parameters and training trace. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "soft_tree_impl.h"

void st_save_head(FILE *f, int indent, int regression, size_t n_out, double y_mean, double y_sd,
                  const st_encoder *e)
{
    tl_store_put_int(f, indent, "regression", regression);
    tl_store_put_int(f, indent, "n_out", (long)n_out);
    tl_store_put_double(f, indent, "y_mean", y_mean);
    tl_store_put_double(f, indent, "y_sd", y_sd);
    tl_store_put_int_array(f, indent, "enc_attr", e->attr, e->n_in);
    tl_store_put_int_array(f, indent, "enc_level", e->level, e->n_in);
    tl_store_put_doubles(f, indent, "enc_mean", e->mean, e->n_in);
    tl_store_put_doubles(f, indent, "enc_sd", e->sd, e->n_in);
    tl_store_put_int_array(f, indent, "enc_mode", e->mode, e->n_attrs);
}

int st_save(const void *state, FILE *f, int indent, tl_err *err)
{
    const soft_tree *m = state;
    const st_net *net = &m->net;
    st_save_head(f, indent, net->regression, net->n_out, m->y_mean, m->y_sd, &m->enc);
    tl_store_put_int_array(f, indent, "left", net->tree.left, net->tree.n_nodes);
    tl_store_put_int_array(f, indent, "right", net->tree.right, net->tree.n_nodes);
    tl_store_put_doubles(f, indent, "theta", net->theta, net->n_theta);
    tl_store_put_doubles(f, indent, "trace", m->trace.v, 3 * m->trace.n_rows);
    return ferror(f) ? tl_err_set(err, TL_EIO, "soft_tree: write failed") : TL_OK;
}

int st_read_encoder(st_encoder *e, const tl_store *s, tl_err *err)
{
    size_t n, na;
    if (tl_store_len(s, "state.enc_attr", &n, err) || tl_store_len(s, "state.enc_mode", &na, err))
        return TL_EPARSE;
    e->n_in = n;
    e->n_attrs = na;
    e->attr = malloc((n ? n : 1) * sizeof *e->attr);
    e->level = malloc((n ? n : 1) * sizeof *e->level);
    e->mean = malloc((n ? n : 1) * sizeof *e->mean);
    e->sd = malloc((n ? n : 1) * sizeof *e->sd);
    e->mode = malloc((na ? na : 1) * sizeof *e->mode);
    if (!e->attr || !e->level || !e->mean || !e->sd || !e->mode)
        return tl_err_set(err, TL_ENOMEM, "out of memory");
    if (tl_store_int_array(s, "state.enc_attr", e->attr, n, err) ||
        tl_store_int_array(s, "state.enc_level", e->level, n, err) ||
        tl_store_doubles(s, "state.enc_mean", e->mean, n, err) ||
        tl_store_doubles(s, "state.enc_sd", e->sd, n, err) ||
        tl_store_int_array(s, "state.enc_mode", e->mode, na, err))
        return TL_EPARSE;
    for (size_t k = 0; k < n; k++)
        if (e->attr[k] < 0 || (size_t)e->attr[k] >= na)
            return tl_err_set(err, TL_EPARSE, "soft_tree: bad encoded attribute %d", e->attr[k]);
    return TL_OK;
}

static int read_tree(st_net *net, const tl_store *s, tl_err *err)
{
    size_t n;
    if (tl_store_len(s, "state.left", &n, err))
        return TL_EPARSE;
    int *left = malloc((n ? n : 1) * sizeof *left), *right = malloc((n ? n : 1) * sizeof *right);
    int rc = TL_OK;
    if (!left || !right)
        rc = tl_err_set(err, TL_ENOMEM, "out of memory");
    if (!rc && (tl_store_int_array(s, "state.left", left, n, err) ||
                tl_store_int_array(s, "state.right", right, n, err)))
        rc = TL_EPARSE;
    if (!rc)
        rc = st_tree_from_children(&net->tree, left, right, n, err);
    free(left);
    free(right);
    size_t n_theta; /* before allocating: a damaged n_out could ask for any amount */
    if (!rc && tl_store_len(s, "state.theta", &n_theta, err))
        rc = TL_EPARSE;
    size_t S = rc                                 ? 0
               : net->shape && net->shape->n_rows ? net->shape->n_rows(&net->tree)
                                                  : net->tree.n_inner;
    size_t E = net->leaf && net->leaf->n_extra ? net->leaf->n_extra(net->n_in, net->n_out) : 0;
    size_t want = S * (net->n_in + 1) + net->tree.n_leaves * (net->n_out + E);
    if (!rc && n_theta != want)
        rc = tl_err_set(err, TL_EPARSE,
                        "model file: state.theta has %zu values; %zu inputs, "
                        "%zu outputs and this tree need %zu",
                        n_theta, net->n_in, net->n_out, want);
    if (!rc)
        rc = st_net_alloc_theta(net, err);
    if (!rc && tl_store_doubles(s, "state.theta", net->theta, net->n_theta, err))
        rc = TL_EPARSE;
    return rc;
}

int st_read_trace(st_trace *t, const tl_store *s, tl_err *err)
{
    size_t n;
    if (tl_store_len(s, "state.trace", &n, err))
        return TL_EPARSE;
    if (n % 3)
        return tl_err_set(err, TL_EPARSE, "soft_tree: the trace has %zu values", n);
    t->v = malloc((n ? n : 1) * sizeof *t->v);
    if (!t->v)
        return tl_err_set(err, TL_ENOMEM, "out of memory");
    t->n_rows = t->cap = n / 3;
    if (tl_store_doubles(s, "state.trace", t->v, n, err))
        return TL_EPARSE;
    /* The store writes NaN (no validation loss) as a huge sentinel. */
    for (size_t k = 0; k < n; k++)
        if (t->v[k] >= 1e307)
            t->v[k] = NAN;
    return TL_OK;
}

int st_read_head(const tl_store *s, int *regression, size_t *n_out, double *y_mean, double *y_sd,
                 tl_err *err)
{
    long r, k;
    if (tl_store_int(s, "state.regression", &r, err) || tl_store_int(s, "state.n_out", &k, err) ||
        tl_store_double(s, "state.y_mean", y_mean, err) ||
        tl_store_double(s, "state.y_sd", y_sd, err))
        return TL_EPARSE;
    if (k < 1 || k > (1L << 24))
        return tl_err_set(err, TL_EPARSE,
                          "model file: state.n_out = %ld; expected 1 or the "
                          "number of classes",
                          k);
    *regression = r != 0;
    *n_out = (size_t)k;
    return TL_OK;
}

int st_load(void *state, const tl_store *s, tl_err *err)
{
    soft_tree *m = state;
    st_net *net = &m->net;
    int rc = st_read_head(s, &net->regression, &net->n_out, &m->y_mean, &m->y_sd, err);
    if (rc)
        return rc;
    net->beta = m->beta;
    net->single = m->single;
    net->gate = m->gate;
    memcpy(net->gate_par, m->gate_par, sizeof net->gate_par);
    net->shape = m->shape;
    net->leaf = m->leaf;
    memcpy(net->leaf_par, m->leaf_par, sizeof net->leaf_par);
    memcpy(net->shape_par, m->shape_par, sizeof net->shape_par);
    rc = st_read_encoder(&m->enc, s, err);
    net->n_in = m->enc.n_in;
    if (!rc)
        rc = read_tree(net, s, err);
    if (!rc)
        rc = st_read_trace(&m->trace, s, err);
    if (rc) {
        st_net_clear(net);
        st_encoder_clear(&m->enc);
        st_trace_clear(&m->trace);
    }
    return rc;
}

/* The encoder must be exactly the one st_encoder_fit builds from this schema (one input per
 * numeric attribute, one per level of a nominal one, in attribute order), and the outputs
 * must fit the target: show and predict index the schema and the data with them. */
int st_check(const void *state, const tl_schema *schema, tl_err *err)
{
    const soft_tree *m = state;
    return st_check_encoder(&m->enc, "soft_tree", m->net.regression, m->net.n_out, schema, err);
}

int st_check_encoder(const st_encoder *e, const char *learner, int regression, size_t n_out,
                     const tl_schema *schema, tl_err *err)
{
    const tl_attr_info *t = &schema->target;
    size_t want_out = t->kind == TL_ATTR_NOMINAL ? t->n_levels : 1;
    if (regression != (t->kind == TL_ATTR_NUMERIC) || n_out != want_out)
        return tl_err_set(err, TL_EPARSE,
                          "model file: %s (regression = %d, n_out = %zu) "
                          "does not fit the target '%s' (%s, %zu outputs)",
                          learner, regression, n_out, t->name,
                          t->kind == TL_ATTR_NUMERIC ? "numeric" : "nominal", want_out);
    if (e->n_attrs != schema->n_attrs)
        return tl_err_set(err, TL_EPARSE,
                          "model file: state.enc_mode has %zu elements; the "
                          "schema has %zu attributes",
                          e->n_attrs, schema->n_attrs);
    size_t k = 0;
    for (size_t j = 0; j < schema->n_attrs; j++) {
        const tl_attr_info *a = &schema->attrs[j];
        int nominal = a->kind == TL_ATTR_NOMINAL;
        size_t width = nominal ? a->n_levels : 1;
        if (nominal ? (e->mode[j] < -1 || e->mode[j] >= (int)a->n_levels) : e->mode[j] != -1)
            return tl_err_set(err, TL_EPARSE,
                              "model file: state.enc_mode[%zu] = %d does not "
                              "fit attribute '%s'",
                              j, e->mode[j], a->name);
        for (size_t v = 0; v < width; v++, k++)
            if (k >= e->n_in || e->attr[k] != (int)j || e->level[k] != (nominal ? (int)v : -1) ||
                !isfinite(e->mean[k]) || !(e->sd[k] > 0) || !isfinite(e->sd[k]))
                return tl_err_set(err, TL_EPARSE,
                                  "model file: input %zu of the encoding "
                                  "(state.enc_*) does not fit attribute '%s' of the schema",
                                  k, a->name);
    }
    if (k != e->n_in)
        return tl_err_set(err, TL_EPARSE,
                          "model file: state.enc_attr has %zu inputs; the "
                          "schema gives %zu",
                          e->n_in, k);
    return TL_OK;
}
