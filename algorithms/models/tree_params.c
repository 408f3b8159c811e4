/* The composable tree's parameters: a preset's defaults and older names resolved into slot
 * choices and SLOT.PARAM values, every problem reported before any work, and the slots'
 * plug-ins built from them. */
#include <stdlib.h>
#include <string.h>

#include "tree_impl.h"

static const char *const slots[] = {"criterion", "numeric", "nominal", "pruner", "missing"};
enum { N_SLOTS = 5 };
static const tl_param_spec tree_spec[] = {TL_TREE_PARAMS, {NULL, 0, NULL, 0, 0, NULL, NULL}};

/* The slot a key addresses ("pruner.confidence" -> 3, *param = "confidence"), or -1. */
static int slot_of(const char *key, const char **param)
{
    for (int s = 0; s < N_SLOTS; s++) {
        size_t n = strlen(slots[s]);
        if (!strncmp(key, slots[s], n) && key[n] == '.') {
            *param = key + n + 1;
            return s;
        }
    }
    return -1;
}

static int is_slot(const char *key)
{
    for (int s = 0; s < N_SLOTS; s++)
        if (!strcmp(key, slots[s]))
            return 1;
    return 0;
}

/* Sets key = value; a slot's plug-in chosen anew drops the slot's earlier parameters. */
static int put(tl_params *out, const char *key, const char *value, tl_err *err)
{
    if (is_slot(key)) {
        const char *old = tl_params_find(out, key);
        if (!old || strcmp(old, value)) {
            char prefix[64];
            snprintf(prefix, sizeof prefix, "%s.", key);
            tl_params_unset_prefix(out, prefix);
        }
    }
    return tl_params_set(out, key, value, err);
}

/* A name of the tree itself (not a preset's older name). */
static int own_name(const char *key)
{
    const char *param;
    if (slot_of(key, &param) >= 0)
        return 1;
    for (const tl_param_spec *s = tree_spec; s->name; s++)
        if (!strcmp(s->name, key))
            return 1;
    return 0;
}

int tl_tree_resolve(const tl_tree_preset *preset, const tl_params *user, tl_params *out,
                    tl_err *err)
{
    tl_params_init(out);
    int rc = TL_OK;
    for (const char *const *kv = preset ? preset->defaults : NULL; kv && *kv && !rc; kv++) {
        const char *eq = strchr(*kv, '=');
        char key[128];
        snprintf(key, sizeof key, "%.*s", (int)(eq - *kv), *kv);
        rc = put(out, key, eq + 1, err);
    }
    if (!rc && preset && preset->translate && user) {
        tl_params legacy;
        if (!(rc = preset->translate(user, &legacy, err)))
            for (size_t i = 0; i < legacy.n && !rc; i++)
                rc = put(out, legacy.keys[i], legacy.values[i], err);
        tl_params_clear(&legacy);
    }
    /* the tree's own names: slots first, so that a slot chosen by the user drops the
     * preset's parameters of that slot before the user's SLOT.PARAM values are set */
    for (int pass = 0; pass < 2 && user && !rc; pass++)
        for (size_t i = 0; i < user->n && !rc; i++)
            if (is_slot(user->keys[i]) == !pass && own_name(user->keys[i]))
                rc = put(out, user->keys[i], user->values[i], err);
    if (rc)
        tl_params_clear(out);
    return rc;
}

/* Parameters of one slot, SLOT. stripped. */
static int slot_params(const tl_params *p, int slot, tl_params *out, tl_err *err)
{
    tl_params_init(out);
    for (size_t i = 0; i < p->n; i++) {
        const char *param;
        if (slot_of(p->keys[i], &param) == slot && tl_params_set(out, param, p->values[i], err)) {
            tl_params_clear(out);
            return TL_ENOMEM;
        }
    }
    return TL_OK;
}

/* The plug-in named for slot s, as its info (name, params, init, free); TL_EINVAL listing
 * the valid names. */
typedef struct plugin {
    const void *type;
    const char *name;
    const tl_param_spec *params;
    void *(*init)(const tl_params *p, tl_err *err);
    void (*free)(void *state);
    int (*check)(const tl_params *p, tl_err *err);
} plugin;

static int find_plugin(int s, const char *name, plugin *out, tl_err *err)
{
    memset(out, 0, sizeof *out);
    char names[512];
    if (s == 0) {
        if (!strcmp(name, "auto")) {
            out->name = name;
            return TL_OK;
        }
        const tl_criterion_type *c = tl_criterion_find(name, err);
        if (!c)
            return TL_EINVAL;
        *out = (plugin){c, c->name, c->params, c->init, c->free, c->check};
    } else if (s == 3) {
        const tl_pruner_type *pr = tl_pruner_find(name, err);
        if (!pr)
            return TL_EINVAL;
        *out = (plugin){pr, pr->name, pr->params, pr->init, pr->free, pr->check};
    } else if (s == 4) {
        const tl_missing_type *m = tl_missing_find(name, err);
        if (!m)
            return TL_EINVAL;
        *out = (plugin){m, m->name, m->params, m->init, m->free, m->check};
    } else {
        unsigned kind = TL_KIND_BIT(s == 1 ? TL_ATTR_NUMERIC : TL_ATTR_NOMINAL);
        const tl_splitter_type *sp = tl_splitter_find(name, err);
        if (sp && !(sp->kinds & kind)) {
            tl_splitter_names(kind, names, sizeof names);
            return tl_err_set(err, TL_EINVAL, "splitter %s does not split %s attributes; valid: %s",
                              name, s == 1 ? "numeric" : "nominal", names);
        }
        if (!sp)
            return TL_EINVAL;
        *out = (plugin){sp, sp->name, sp->params, sp->init, sp->free, sp->check};
    }
    return TL_OK;
}

/* Checks slot s's plug-in and its parameters (its table, then its own check); with state !=
 * NULL builds its state, the one call of the plug-in's init for the model. */
static int build_slot(const tl_params *p, int s, plugin *pl, void **state, tl_err *err)
{
    tl_err local;
    if (!err)
        err = &local; /* a plug-in's init returns NULL and leaves its code in err only */
    tl_param_reader rd = tl_params_reader(tree_spec, p, err);
    const char *name = tl_params_string(&rd, slots[s]); /* set, or the default */
    if (rd.rc)
        return rd.rc;
    int rc = find_plugin(s, name, pl, err);
    tl_params sub;
    if (!rc && !(rc = slot_params(p, s, &sub, err))) {
        if (sub.n && !pl->params) {
            rc = tl_err_set(err, TL_EINVAL, "%s.%s: %s %s takes no parameters", slots[s],
                            sub.keys[0], slots[s], pl->name);
        } else if (!(rc = tl_params_check(pl->params, &sub, err)) && !state && pl->check) {
            rc = pl->check(&sub, err);
        } else if (!rc && state && pl->init && !(*state = pl->init(&sub, err))) {
            rc = err->code;
        }
        tl_params_clear(&sub);
    }
    if (rc)
        tl_err_prefix(err, "%s %s: ", slots[s], name);
    return rc;
}

/* The tree's own parameters (not a slot's) against its table. */
static int check_own(const tl_params *p, tl_err *err)
{
    tl_params own;
    tl_params_init(&own);
    int rc = TL_OK;
    for (size_t i = 0; i < p->n && !rc; i++) {
        const char *param;
        if (slot_of(p->keys[i], &param) < 0)
            rc = tl_params_set(&own, p->keys[i], p->values[i], err);
    }
    if (!rc)
        rc = tl_params_check(tree_spec, &own, err);
    tl_params_clear(&own);
    return rc;
}

int tl_tree_check_resolved(const tl_params *p, tl_err *err)
{
    int rc = check_own(p, err);
    for (int s = 0; s < N_SLOTS && !rc; s++) {
        plugin pl;
        rc = build_slot(p, s, &pl, NULL, err);
    }
    return rc;
}

/* Builds the learner's slots from resolved parameters (already checked). */
static int build(tl_tree_learner *h, const tl_params *p, tl_err *err)
{
    plugin pl[N_SLOTS];
    void **states[N_SLOTS] = {&h->criterion_state, &h->numeric_state, &h->nominal_state,
                              &h->pruner_state, &h->missing_state};
    for (int s = 0; s < N_SLOTS; s++) {
        int rc = build_slot(p, s, &pl[s], states[s], err);
        if (rc) {
            /* the learner's free knows a slot's plug-in only once every slot is built */
            for (int t = 0; t < s; t++)
                if (pl[t].free && *states[t]) {
                    pl[t].free(*states[t]);
                    *states[t] = NULL;
                }
            return rc;
        }
    }
    tl_grow_params_init(&h->grow);
    h->criterion_auto = pl[0].type == NULL;
    h->grow.criterion = pl[0].type;
    h->grow.criterion_state = h->criterion_state;
    h->grow.numeric = pl[1].type;
    h->grow.numeric_state = h->numeric_state;
    h->grow.nominal = pl[2].type;
    h->grow.nominal_state = h->nominal_state;
    h->pruner = pl[3].type;
    h->grow.missing = pl[4].type;
    h->grow.missing_state = h->missing_state;
    /* a multiway attribute is not tested again below itself (its known rows there share one
     * value), and a multiway split may leave branches empty (they predict the parent): two
     * branches must hold min_samples_leaf; binary splits are unaffected by either */
    h->grow.reuse_nominal = 0;
    h->grow.min_leaf_branches = 2;
    tl_param_reader rd = tl_params_reader(tree_spec, p, err);
    h->grow.max_depth = (size_t)tl_params_int(&rd, "max_depth");
    h->grow.min_samples_split = tl_params_double(&rd, "min_samples_split");
    h->grow.min_samples_leaf = tl_params_double(&rd, "min_samples_leaf");
    h->grow.min_impurity_decrease = tl_params_double(&rd, "min_impurity_decrease");
    h->validation_fraction = tl_params_double(&rd, "validation_fraction");
    const char *tb = tl_params_string(&rd, "tie_break");
    const char *sm = tl_params_string(&rd, "smoothing");
    h->smoothing.m = tl_params_double(&rd, "smoothing_m");
    if (rd.rc)
        return rd.rc;
    h->smoothing.kind = !strcmp(sm, "laplace")      ? TL_SMOOTH_LAPLACE
                        : !strcmp(sm, "m_estimate") ? TL_SMOOTH_M_ESTIMATE
                                                    : TL_SMOOTH_NONE;
    if (strcmp(tb, "file") && !(h->tie_break = strdup(tb)))
        return tl_err_set(err, TL_ENOMEM, "out of memory");
    if (h->criterion_auto) {
        h->auto_class = tl_criterion_find("gini", err);
        h->auto_reg = tl_criterion_find("mse", err);
    }
    return TL_OK;
}

int tl_tree_learner_check(const tl_tree_preset *preset, const tl_params *user, tl_err *err)
{
    /* the preset's table for plain names; SLOT.PARAM names are checked once resolved */
    tl_params plain;
    tl_params_init(&plain);
    int rc = TL_OK;
    for (size_t i = 0; user && i < user->n && !rc; i++) {
        const char *param;
        if (slot_of(user->keys[i], &param) < 0)
            rc = tl_params_set(&plain, user->keys[i], user->values[i], err);
    }
    if (!rc)
        rc = tl_params_check(preset->params, &plain, err);
    tl_params_clear(&plain);
    tl_params p;
    if (!rc && !(rc = tl_tree_resolve(preset, user, &p, err))) {
        rc = tl_tree_check_resolved(&p, err);
        tl_params_clear(&p);
    }
    return rc;
}

void *tl_tree_learner_alloc(const tl_tree_preset *preset, const tl_params *user, tl_err *err)
{
    tl_params p;
    if (tl_tree_resolve(preset, user, &p, err))
        return NULL;
    tl_tree_learner *h = calloc(1, sizeof *h);
    /* the slots are checked as they are built, each plug-in's init run once here (the
     * model's parameter check before this ran the tables and the plug-ins' checks only) */
    int rc = h ? check_own(&p, err) : tl_err_set(err, TL_ENOMEM, "out of memory");
    if (!rc) {
        tl_prune_trace_reset(&h->trace);
        rc = build(h, &p, err);
    }
    tl_params_clear(&p);
    if (rc) {
        tl_tree_learner_free(h);
        return NULL;
    }
    return h;
}

void tl_tree_learner_help(FILE *f)
{
    char names[512];
    fputs("\nSlots (--set SLOT=NAME, and a plug-in's own parameters as --set SLOT.PARAM=V):\n", f);
    tl_criterion_names(names, sizeof names);
    fprintf(f, "  criterion  auto, %s\n", names);
    tl_splitter_names(TL_KIND_BIT(TL_ATTR_NUMERIC), names, sizeof names);
    fprintf(f, "  numeric    %s\n", names);
    tl_splitter_names(TL_KIND_BIT(TL_ATTR_NOMINAL), names, sizeof names);
    fprintf(f, "  nominal    %s\n", names);
    tl_pruner_names(names, sizeof names);
    fprintf(f, "  pruner     %s\n", names);
    tl_missing_names(names, sizeof names);
    fprintf(f, "  missing    %s\n", names);
    fputs("`treelab plugins` describes each plug-in and its parameters.\n", f);
}
