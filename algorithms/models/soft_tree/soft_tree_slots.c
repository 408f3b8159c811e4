/* The soft tree's slots: the gate, shape and leaf registries, their SLOT.PARAM parameters, and the
 * compositions that cannot work, refused before any work. */
#include <stdlib.h>
#include <string.h>

#include "soft_tree_impl.h"

static const st_gate_type *const gates[] = {&st_gate_sigmoid, &st_gate_smooth_step,
                                            &st_gate_entmoid, NULL};
static const st_shape_type *const shapes[] = {&st_shape_full, &st_shape_incremental,
                                              &st_shape_oblivious, &st_shape_sparse, NULL};
static const st_leaf_type *const leaves[] = {&st_leaf_constant, &st_leaf_linear, NULL};

const st_gate_type *st_gate_at(size_t i)
{
    return i < sizeof gates / sizeof *gates ? gates[i] : NULL;
}

const st_shape_type *st_shape_at(size_t i)
{
    return i < sizeof shapes / sizeof *shapes ? shapes[i] : NULL;
}

const st_leaf_type *st_leaf_at(size_t i)
{
    return i < sizeof leaves / sizeof *leaves ? leaves[i] : NULL;
}

const st_leaf_type *st_leaf_find(const char *name)
{
    for (size_t i = 0; leaves[i]; i++)
        if (!strcmp(leaves[i]->name, name))
            return leaves[i];
    return NULL;
}

const st_gate_type *st_gate_find(const char *name)
{
    for (size_t i = 0; gates[i]; i++)
        if (!strcmp(gates[i]->name, name))
            return gates[i];
    return NULL;
}

const st_shape_type *st_shape_find(const char *name)
{
    for (size_t i = 0; shapes[i]; i++)
        if (!strcmp(shapes[i]->name, name))
            return shapes[i];
    return NULL;
}

/* A slot: its name, and plug-in i's description (0 past the last). */
typedef struct slot {
    const char *name;
    int (*at)(size_t i, tl_model_plugin *out);
} slot;

static int gate_at(size_t i, tl_model_plugin *out)
{
    const st_gate_type *g = st_gate_at(i);
    if (g)
        *out = (tl_model_plugin){"gate", g->name, g->summary, g->reference, g->params};
    return g != NULL;
}

static int shape_at(size_t i, tl_model_plugin *out)
{
    const st_shape_type *s = st_shape_at(i);
    if (s)
        *out = (tl_model_plugin){"shape", s->name, s->summary, s->reference, s->params};
    return s != NULL;
}

static int leaf_at(size_t i, tl_model_plugin *out)
{
    const st_leaf_type *l = st_leaf_at(i);
    if (l)
        *out = (tl_model_plugin){"leaf", l->name, l->summary, l->reference, l->params};
    return l != NULL;
}

static const slot slots[] = {{"gate", gate_at}, {"shape", shape_at}, {"leaf", leaf_at}};
enum { N_SLOTS = 3 };

/* The slot a SLOT.PARAM key addresses, *param its PARAM; -1 when none. */
static int slot_of(const char *key, const char **param)
{
    for (int s = 0; s < N_SLOTS; s++) {
        size_t n = strlen(slots[s].name);
        if (!strncmp(key, slots[s].name, n) && key[n] == '.') {
            *param = key + n + 1;
            return s;
        }
    }
    return -1;
}

int st_slot_params(const tl_params *p, const char *slot_name, tl_params *out, tl_err *err)
{
    tl_params_init(out);
    for (size_t i = 0; p && i < p->n; i++) {
        const char *param;
        int s = slot_of(p->keys[i], &param);
        if (s >= 0 && !strcmp(slots[s].name, slot_name) &&
            tl_params_set(out, param, p->values[i], err)) {
            tl_params_clear(out);
            return TL_ENOMEM;
        }
    }
    return TL_OK;
}

int st_own_params(const tl_params *p, tl_params *own, tl_err *err)
{
    tl_params_init(own);
    for (size_t i = 0; p && i < p->n; i++) {
        const char *param;
        if (!strncmp(p->keys[i], "teacher.", 8)) /* the teacher's (st_teacher_spec) */
            continue;
        if (strchr(p->keys[i], '.') && slot_of(p->keys[i], &param) < 0) {
            tl_params_clear(own);
            return tl_err_set(err, TL_EINVAL,
                              "unknown parameter '%s'; the soft tree's slots with parameters "
                              "are gate, shape and leaf (gate.PARAM, shape.PARAM, leaf.PARAM), "
                              "and its teacher's "
                              "are teacher.PARAM",
                              p->keys[i]);
        }
        if (!strchr(p->keys[i], '.') && tl_params_set(own, p->keys[i], p->values[i], err)) {
            tl_params_clear(own);
            return TL_ENOMEM;
        }
    }
    return TL_OK;
}

/* The plug-in `name` of slot s and its parameters: known, and each parameter in its table. */
static int check_slot(const tl_params *p, int s, const char *name, tl_err *err)
{
    tl_model_plugin pl = {0};
    size_t i = 0;
    while (slots[s].at(i, &pl) && strcmp(pl.name, name))
        i++;
    if (!slots[s].at(i, &pl)) {
        char names[256] = "";
        size_t used = 0;
        for (size_t k = 0; slots[s].at(k, &pl) && used + 1 < sizeof names; k++) {
            int w = snprintf(names + used, sizeof names - used, "%s%s", k ? ", " : "", pl.name);
            used += w > 0 ? (size_t)w : 0;
        }
        return tl_err_set(err, TL_EINVAL, "unknown %s '%s'; valid: %s", slots[s].name, name, names);
    }
    const tl_param_spec *spec = pl.params;
    tl_params sub;
    int rc = st_slot_params(p, slots[s].name, &sub, err);
    if (!rc && sub.n && !spec)
        rc = tl_err_set(err, TL_EINVAL, "%s.%s: %s %s takes no parameters", slots[s].name,
                        sub.keys[0], slots[s].name, name);
    else if (!rc && (rc = tl_params_check(spec, &sub, err)))
        tl_err_prefix(err, "%s %s: ", slots[s].name, name);
    tl_params_clear(&sub);
    return rc;
}

/* The shape p names: shape, or else grow (its older name for incremental growth). */
static const char *shape_name(const tl_params *p)
{
    const char *shape = tl_params_find(p, "shape"), *grow = tl_params_find(p, "grow");
    return shape ? shape : grow && !strcmp(grow, "incremental") ? "incremental" : "full";
}

int st_slots_check(const tl_params *p, tl_err *err)
{
    const char *gate = tl_params_find(p, "gate"), *shape = shape_name(p);
    const char *grow = tl_params_find(p, "grow"), *prec = tl_params_find(p, "precision");
    gate = gate ? gate : "sigmoid";
    const char *leaf = tl_params_find(p, "leaf");
    leaf = leaf ? leaf : "constant";
    int rc = check_slot(p, 0, gate, err);
    if (rc || (rc = check_slot(p, 1, shape, err)) || (rc = check_slot(p, 2, leaf, err)))
        return rc;
    const st_shape_type *sh = st_shape_find(shape);
    if (grow && !strcmp(grow, "incremental") && !sh->grows)
        return tl_err_set(err, TL_EINVAL,
                          "grow = incremental with shape = %s: incremental growth adds one "
                          "split at a time to any leaf, a %s tree is fixed in advance; use "
                          "shape = incremental",
                          shape, shape);
    const char *anneal = tl_params_find(p, "anneal");
    if (anneal && sh->grows && strtod(anneal, NULL) != 1)
        return tl_err_set(err, TL_EINVAL,
                          "anneal = %s with shape = %s: incremental growth retrains the tree "
                          "for every candidate split, each from the last one's beta; anneal a "
                          "full or oblivious tree",
                          anneal, shape);
    if (prec && !strcmp(prec, "float") && (strcmp(gate, "sigmoid") || sh->row))
        return tl_err_set(err, TL_EINVAL,
                          "precision = float with gate = %s, shape = %s: the float passes run "
                          "over whole batches, with the sigmoid gate and a hyperplane per split "
                          "only; use precision = double",
                          gate, shape);
    if (prec && !strcmp(prec, "float") && st_leaf_find(leaf)->n_extra)
        return tl_err_set(err, TL_EINVAL,
                          "precision = float with leaf = %s: the float passes run over whole "
                          "batches with leaves the same for every row; use precision = double",
                          leaf);
    return TL_OK;
}

int st_slots_read(const tl_params *p, const st_gate_type **gate, double *gate_par,
                  const st_shape_type **shape, tl_err *err)
{
    const char *g = tl_params_find(p, "gate");
    *gate = st_gate_find(g ? g : "sigmoid");
    *shape = st_shape_find(shape_name(p));
    memset(gate_par, 0, ST_GATE_PARS * sizeof *gate_par);
    if (!*gate || !*shape)
        return tl_err_set(err, TL_EINVAL, "soft_tree: unknown gate or shape");
    tl_params sub;
    if (st_slot_params(p, "gate", &sub, err))
        return TL_ENOMEM;
    if ((*gate)->init)
        (*gate)->init(&sub, gate_par);
    tl_params_clear(&sub);
    return TL_OK;
}

int st_shape_par_read(const tl_params *p, const st_shape_type *shape, double *par, tl_err *err)
{
    memset(par, 0, ST_SHAPE_PARS * sizeof *par);
    tl_params sub;
    if (st_slot_params(p, "shape", &sub, err))
        return TL_ENOMEM;
    if (shape->init)
        shape->init(&sub, par);
    tl_params_clear(&sub);
    return TL_OK;
}

int st_leaf_read(const tl_params *p, const st_leaf_type **leaf, double *leaf_par, tl_err *err)
{
    const char *name = tl_params_find(p, "leaf");
    *leaf = st_leaf_find(name ? name : "constant");
    memset(leaf_par, 0, ST_LEAF_PARS * sizeof *leaf_par);
    if (!*leaf)
        return tl_err_set(err, TL_EINVAL, "soft_tree: unknown leaf '%s'", name);
    tl_params sub;
    if (st_slot_params(p, "leaf", &sub, err))
        return TL_ENOMEM;
    if ((*leaf)->init)
        (*leaf)->init(&sub, leaf_par);
    tl_params_clear(&sub);
    return TL_OK;
}

/* skip: the plug-ins the learner refuses, left out of its help (names, space-separated; NULL:
 * none). */
static void help_slot(FILE *f, int s, const char *skip)
{
    tl_model_plugin pl;
    fprintf(f, "\n%s (set %s = NAME, its parameters as %s.PARAM):\n", slots[s].name, slots[s].name,
            slots[s].name);
    for (size_t i = 0; slots[s].at(i, &pl); i++) {
        if (skip && strstr(skip, pl.name))
            continue;
        fprintf(f, "  %-12s %s\n  %-12s (%s)\n", pl.name, pl.summary, "", pl.reference);
        if (pl.params)
            tl_params_print_help(pl.params, f);
    }
}

void st_slots_help(FILE *f)
{
    help_slot(f, 0, NULL);
    help_slot(f, 1, NULL);
    help_slot(f, 2, NULL);
    fprintf(f, "\nRefused before any work: grow = incremental with a shape other than "
               "incremental; precision = float with a gate other than sigmoid, the oblivious "
               "shape or linear leaves; anneal with incremental growth.\n");
}

void st_forest_slots_help(FILE *f)
{
    help_slot(f, 0, NULL);
    help_slot(f, 1, "incremental sparse");
    fprintf(f, "\nRefused before any work: shape = incremental (the forest trains its trees "
               "jointly from the start) or sparse; teacher (distil into a soft_tree instead); leaf "
               "(a soft forest's leaves are constant).\n");
}

/* Plug-in i over the first n_slots slots. */
static int plugin_at(size_t i, int n_slots, tl_model_plugin *out)
{
    for (int s = 0; s < n_slots; s++) {
        size_t n = 0;
        while (slots[s].at(n, out))
            n++;
        if (i < n)
            return slots[s].at(i, out);
        i -= n;
    }
    return 0;
}

int st_plugin_at(size_t i, tl_model_plugin *out)
{
    return plugin_at(i, N_SLOTS, out);
}

int st_forest_plugin_at(size_t i, tl_model_plugin *out)
{
    return plugin_at(i, 2, out); /* gate and shape: no leaf slot */
}
