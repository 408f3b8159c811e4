/* An ensemble's base learner: its spec parsed and checked before any work, per-member seeds,
 * and one member fitted on a view of the data (bootstrap counts as row weights, a subset of
 * attributes, boosting's pseudo-residuals as the target) that copies no column. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ensemble.h"

void tl_ens_base_clear(tl_ens_base *b)
{
    tl_params_clear(&b->params);
    b->type = NULL;
}

/* The learners an ensemble can hold, for the error that refuses another. */
static void tree_learners(char *buf, size_t size)
{
    size_t used = 0;
    buf[0] = '\0';
    for (size_t i = 0; tl_model_at(i) && used + 1 < size; i++)
        if (tl_model_at(i)->tree) {
            int w =
                snprintf(buf + used, size - used, "%s%s", used ? ", " : "", tl_model_at(i)->name);
            if (w > 0)
                used += (size_t)w;
        }
}

/* base.KEY = value over the defaults: a slot chosen anew drops the defaults' SLOT.PARAM. */
static int put_base(tl_params *p, const char *key, const char *value, tl_err *err)
{
    if (!strchr(key, '.')) {
        const char *old = tl_params_find(p, key);
        if (old && strcmp(old, value)) {
            char prefix[128];
            snprintf(prefix, sizeof prefix, "%s.", key);
            tl_params_unset_prefix(p, prefix);
        }
    }
    return tl_params_set(p, key, value, err);
}

static int base_params(const tl_params *user, const char *const *defaults, tl_params *out,
                       tl_err *err)
{
    int rc = TL_OK;
    for (const char *const *kv = defaults; kv && *kv && !rc; kv++) {
        const char *eq = strchr(*kv, '=');
        char key[128];
        snprintf(key, sizeof key, "%.*s", (int)(eq - *kv), *kv);
        rc = tl_params_set(out, key, eq + 1, err);
    }
    /* slots before their parameters, as the tree resolves them */
    for (int pass = 0; pass < 2 && user && !rc; pass++)
        for (size_t i = 0; i < user->n && !rc; i++) {
            const char *k = user->keys[i];
            if (strncmp(k, "base.", 5) || !strcmp(k, "base.algorithm") ||
                (strchr(k + 5, '.') != NULL) != pass)
                continue;
            rc = put_base(out, k + 5, user->values[i], err);
        }
    return rc;
}

int tl_ens_parse(const tl_param_spec *spec, const tl_params *user, const char *const *defaults,
                 int any, tl_params *own, tl_ens_base *base, tl_err *err)
{
    tl_params_init(own);
    tl_params_init(&base->params);
    base->type = NULL;
    int rc = TL_OK;
    for (size_t i = 0; user && i < user->n && !rc; i++)
        if (strncmp(user->keys[i], "base.", 5))
            rc = tl_params_set(own, user->keys[i], user->values[i], err);
    if (!rc)
        rc = tl_params_check(spec, own, err);
    tl_param_reader rd = tl_params_reader(spec, own, err);
    const char *name = rc ? NULL : tl_params_string(&rd, "base");
    const char *alias = tl_params_find(user, "base.algorithm");
    if (!rc && (rc = rd.rc) == TL_OK && alias) {
        if (tl_params_find(own, "base") && strcmp(alias, name))
            rc = tl_err_set(err, TL_EINVAL, "base = %s and base.algorithm = %s disagree", name,
                            alias);
        name = alias;
    }
    if (!rc && !(base->type = tl_model_find(name, err)))
        rc = TL_EINVAL;
    if (!rc && !base->type->tree && !any) {
        char names[256];
        tree_learners(names, sizeof names);
        rc = tl_err_set(err, TL_EINVAL,
                        "base = %s: an ensemble needs a learner that grows a tree; valid: %s", name,
                        names);
    }
    if (!rc)
        rc = base_params(user, defaults, &base->params, err);
    const char *sm = rc ? NULL : tl_params_find(&base->params, "smoothing");
    if (sm && strcmp(sm, "none"))
        rc = tl_err_set(err, TL_EINVAL,
                        "base.smoothing = %s: the members' raw leaf frequencies are averaged "
                        "(valid: none)",
                        sm);
    if (!rc && (rc = tl_model_check_params(base->type, &base->params, err)))
        tl_err_prefix(err, "base %s: ", name);
    if (rc) {
        tl_params_clear(own);
        tl_ens_base_clear(base);
    }
    return rc;
}

uint64_t tl_ens_seed(unsigned long seed, size_t i, unsigned stream)
{
    uint64_t x = (uint64_t)seed * 0x9e3779b97f4a7c15ull ^ ((uint64_t)i << 2) ^ stream;
    for (int r = 0; r < 2; r++) {
        x += 0x9e3779b97f4a7c15ull;
        x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
        x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
        x ^= x >> 31;
    }
    return x;
}

size_t tl_ens_jobs(long jobs_param, const tl_fit_ctx *ctx)
{
    size_t j = jobs_param > 0 ? (size_t)jobs_param : ctx->jobs;
    return j ? j : 1;
}

/* The tree's attribute indices (splits and surrogates) from the view's to d's. */
static void map_attrs(tl_tree *t, const size_t *attrs)
{
    for (size_t i = 0; i < t->n_nodes; i++)
        if (t->attr[i] >= 0)
            t->attr[i] = (int)attrs[t->attr[i]];
    for (size_t s = 0; s < t->sur_count; s++)
        t->sur[s].attr = (int)attrs[t->sur[s].attr];
}

tl_model *tl_ens_fit_model(const tl_ens_base *b, const tl_ens_member *m, tl_err *err)
{
    const tl_dataset *d = m->d;
    tl_dataset v = *d;
    tl_model *model = NULL;
    size_t *rows = malloc((m->n ? m->n : 1) * sizeof *rows), n = 0;
    double *w = m->count || d->weight ? calloc(d->n_rows ? d->n_rows : 1, sizeof *w) : NULL;
    tl_column *cols = m->attrs ? malloc((m->n_attrs ? m->n_attrs : 1) * sizeof *cols) : NULL;
    tl_attr_info *info = m->attrs ? malloc((m->n_attrs ? m->n_attrs : 1) * sizeof *info) : NULL;
    if (!rows || ((m->count || d->weight) && !w) || (m->attrs && (!cols || !info))) {
        tl_err_set(err, TL_ENOMEM, "out of memory");
        goto done;
    }
    for (size_t i = 0; i < m->n; i++) {
        size_t r = m->rows[i];
        double c = m->count ? m->count[r] : 1;
        if (c > 0) {
            rows[n++] = r;
            if (w)
                w[r] = tl_dataset_weight(d, r) * c;
        }
    }
    if (n == 0) {
        tl_err_set(err, TL_EINVAL, "a member drew no rows to fit on");
        goto done;
    }
    v.weight = w;
    if (m->attrs) {
        for (size_t j = 0; j < m->n_attrs; j++) {
            cols[j] = d->cols[m->attrs[j]];
            info[j] = d->schema.attrs[m->attrs[j]];
        }
        v.cols = cols;
        v.schema.attrs = info;
        v.schema.n_attrs = m->n_attrs;
    }
    if (m->y_num) {
        v.y.num = (double *)m->y_num;
        v.y.code = NULL;
        v.schema.target = (tl_attr_info){"residual", TL_ATTR_NUMERIC, 0, NULL};
    }
    if (!(model = tl_model_new_type(b->type, &b->params, err)))
        goto done;
    tl_fit_ctx ctx = {.seed = m->seed, .jobs = 1, .view_cache = m->view_cache};
    if (tl_model_fit(model, &v, rows, n, &ctx, err)) {
        tl_model_free(model);
        model = NULL;
    }
done:
    free(rows);
    free(w);
    free(cols);
    free(info);
    return model;
}

tl_tree *tl_ens_fit_member(const tl_ens_base *b, const tl_ens_member *m, tl_err *err)
{
    tl_model *model = tl_ens_fit_model(b, m, err);
    tl_tree *out = model ? tl_tree_copy(tl_model_tree(model), err) : NULL;
    if (out && m->attrs)
        map_attrs(out, m->attrs);
    tl_model_free(model);
    return out;
}

void tl_ens_help(FILE *f)
{
    fputs("\nThe base learner: --set base=NAME, and its own parameters as --set base.PARAM=V\n"
          "(a tree's slots too: base.criterion=hellinger, base.pruner.confidence=0.1). In a\n"
          "config: params = { base = { name = \"tree\"; criterion = \"hellinger\"; }; };\n"
          "Member i's rows and tree seed come from (fit seed, i): the model is the same for\n"
          "any number of threads (jobs, or the fit's --jobs).\n",
          f);
}

/* max_features as a count for n attributes; 0 when the text is not valid. */
size_t tl_ens_max_features(const char *mf, size_t n, int regression)
{
    if (!strcmp(mf, "auto"))
        mf = regression ? "all" : "sqrt";
    double v;
    size_t m;
    if (!strcmp(mf, "all"))
        m = n;
    else if (!strcmp(mf, "sqrt"))
        m = (size_t)sqrt((double)n);
    else if (!strcmp(mf, "log2"))
        m = n ? (size_t)log2((double)n) : 0;
    else {
        char *end;
        v = strtod(mf, &end);
        if (*end || !(v > 0) || v > 1e6)
            return 0;
        m = v < 1 ? (size_t)(v * (double)n) : (size_t)v;
        if (v >= 1 && v != floor(v))
            return 0;
    }
    return m < 1 ? 1 : m;
}

int tl_ens_resolve(const tl_ens_base *b, const char *max_features, int force_subset,
                   const tl_dataset *d, tl_ens_base *out, tl_err *err)
{
    out->type = b->type;
    tl_params_init(&out->params);
    int rc = tl_params_copy(&out->params, &b->params, err);
    size_t na = d->schema.n_attrs;
    size_t m = tl_ens_max_features(max_features, na, !tl_dataset_is_classification(d));
    char text[32];
    snprintf(text, sizeof text, "%zu", m);
    const char *slots[] = {"numeric", "nominal"};
    for (int s = 0; s < 2 && !rc; s++) {
        const char *v = tl_params_find(&out->params, slots[s]);
        char key[64];
        snprintf(key, sizeof key, "%s.mtry", slots[s]);
        if (force_subset && m < na && !(v && !strcmp(v, "random_subset"))) {
            char prefix[64];
            snprintf(prefix, sizeof prefix, "%s.", slots[s]);
            tl_params_unset_prefix(&out->params, prefix); /* the slot's old parameters */
            rc = tl_params_set(&out->params, slots[s], "random_subset", err);
            v = "random_subset";
        }
        if (!rc && v && !strcmp(v, "random_subset") && !tl_params_find(&out->params, key))
            rc = tl_params_set(&out->params, key, text, err);
    }
    if (rc)
        tl_params_clear(&out->params);
    return rc;
}
