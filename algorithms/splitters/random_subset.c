/* The random-forest split (Breiman, "Random forests", Machine Learning 45, 2001): at each
 * node only mtry attributes drawn at random compete; each is split by an inner splitter for
 * its kind. The draw is a function of (fit seed, node, attribute), so a tree is the same
 * for a seed whatever the thread count, and the numeric and nominal slots agree on the
 * node's draw when both hold this splitter. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "treelab/tl_grow.h"

static const tl_param_spec params[] = {
    {"mtry", TL_PARAM_INT, "0", 0, 1e6, NULL,
     "attributes drawn at each node; 0: floor(sqrt(attributes)), at least 1"},
    {"numeric", TL_PARAM_STRING, "numeric_threshold", 0, 0, NULL,
     "splitter for the drawn numeric attributes"},
    {"nominal", TL_PARAM_STRING, "nominal_subset", 0, 0, NULL,
     "splitter for the drawn nominal attributes"},
    {NULL, 0, NULL, 0, 0, NULL, NULL},
};

typedef struct subset {
    size_t mtry;
    const tl_splitter_type *inner[2]; /* by tl_attr_kind */
    void *state[2];
} subset;

static void subset_free(void *p)
{
    subset *s = p;
    if (!s)
        return;
    for (int k = 0; k < 2; k++)
        if (s->inner[k] && s->inner[k]->free && s->state[k])
            s->inner[k]->free(s->state[k]);
    free(s);
}

/* The inner splitters p names (by tl_attr_kind) into inner: TL_OK, or TL_EINVAL naming the
 * fix (an unknown name, one that does not split its kind, random_subset itself); check and
 * init share it. */
static int read_inner(const tl_params *p, size_t *mtry, const tl_splitter_type *inner[2],
                      tl_err *err)
{
    tl_param_reader rd = tl_params_reader(params, p, err);
    *mtry = (size_t)tl_params_int(&rd, "mtry");
    const char *names[2] = {tl_params_string(&rd, "numeric"), tl_params_string(&rd, "nominal")};
    if (rd.rc)
        return rd.rc;
    for (int k = 0; k < 2; k++) {
        if (!(inner[k] = tl_splitter_find(names[k], err)))
            return TL_EINVAL;
        if (!(inner[k]->kinds & TL_KIND_BIT(k)))
            return tl_err_set(err, TL_EINVAL, "random_subset: %s does not split %s attributes",
                              names[k], k == TL_ATTR_NUMERIC ? "numeric" : "nominal");
        if (!strcmp(inner[k]->name, "random_subset"))
            return tl_err_set(err, TL_EINVAL, "random_subset cannot hold itself");
    }
    return TL_OK;
}

static int check(const tl_params *p, tl_err *err)
{
    size_t mtry;
    const tl_splitter_type *inner[2];
    return read_inner(p, &mtry, inner, err);
}

static void *init(const tl_params *p, tl_err *err)
{
    subset *s = calloc(1, sizeof *s);
    if (!s) {
        tl_err_set(err, TL_ENOMEM, "out of memory");
        return NULL;
    }
    if (read_inner(p, &s->mtry, s->inner, err)) {
        free(s);
        return NULL;
    }
    for (int k = 0; k < 2; k++)
        if (s->inner[k]->init && !(s->state[k] = s->inner[k]->init(NULL, err))) {
            subset_free(s);
            return NULL;
        }
    return s;
}

/* SplitMix64: a well-mixed 64-bit value of (seed, node, attribute). */
static uint64_t mix(uint64_t x)
{
    x += 0x9e3779b97f4a7c15ull;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

/* The node's part of every attribute's draw, mixed once per call: the draw of attribute a is
 * mix(node_key ^ a), that is mix(mix(mix(seed) ^ node) ^ a). */
static uint64_t node_key(unsigned long seed, size_t node)
{
    return mix(mix((uint64_t)seed) ^ (uint64_t)node);
}

/* The node's drawn attributes, kept per thread for the last node asked about: a pure function
 * of (seed, node, attributes, mtry), so it serves every attribute the grower asks about at that
 * node, in any fit of the thread, and a tree stays the same for any thread count. */
#define DRAW_MEMO_ATTRS 1024
typedef struct draw_memo {
    int valid;
    unsigned long seed;
    size_t node, n, mtry;
    unsigned char in[DRAW_MEMO_ATTRS];
} draw_memo;
static _Thread_local draw_memo memo;

/* attr is among the node's m attributes with the smallest draws (ties by index), from the
 * node key: each attribute's draw against attr's. */
static int among(uint64_t key, size_t n, size_t m, size_t attr)
{
    uint64_t mine = mix(key ^ (uint64_t)attr);
    size_t below = 0;
    for (size_t a = 0; a < n && below < m; a++) {
        uint64_t v = mix(key ^ (uint64_t)a);
        below += v < mine || (v == mine && a < attr);
    }
    return below < m;
}

/* The memo's draw for the node: its m least draws of n attributes (ties by index: among's
 * order), chosen once in one pass: top[] holds the least so far, ascending; an attribute
 * enters when its draw is below the greatest there (equal draws keep the lower index, seen
 * first). Apart from drawn(), whose every call would otherwise pay for these arrays' frame. */
static __attribute__((noinline)) void draw_node(draw_memo *mm, unsigned long seed, size_t node,
                                                size_t n, size_t m)
{
    memset(mm->in, m >= n, n);
    if (m < n) {
        uint64_t key = node_key(seed, node), top[DRAW_MEMO_ATTRS];
        size_t at[DRAW_MEMO_ATTRS], held = 0;
        for (size_t a = 0; a < n; a++) {
            uint64_t v = mix(key ^ (uint64_t)a);
            if (held == m && !(v < top[m - 1]))
                continue;
            size_t j = held < m ? held++ : m - 1; /* the greatest drops out */
            for (; j > 0 && v < top[j - 1]; j--) {
                top[j] = top[j - 1];
                at[j] = at[j - 1];
            }
            top[j] = v;
            at[j] = a;
        }
        for (size_t j = 0; j < m; j++)
            mm->in[at[j]] = 1;
    }
}

/* attr is among the node's mtry attributes with the smallest draws (ties by index). The
 * memo is looked up first (the grower asks about every attribute of a node in turn), keyed by
 * the mtry parameter, of which m is a function for n attributes. */
static int drawn(const subset *s, const tl_grow_ctx *g, size_t node, size_t attr)
{
    size_t n = tl_grow_data(g)->schema.n_attrs;
    unsigned long seed = tl_grow_params_of(g)->seed;
    draw_memo *mm = &memo;
    if (mm->valid && mm->node == node && mm->seed == seed && mm->n == n && mm->mtry == s->mtry)
        return mm->in[attr];
    size_t m = s->mtry ? s->mtry : (size_t)floor(sqrt((double)n));
    if (m < 1)
        m = 1;
    if (n > DRAW_MEMO_ATTRS)
        return m >= n || among(node_key(seed, node), n, m, attr);
    draw_node(mm, seed, node, n, m);
    mm->valid = 1;
    mm->seed = seed;
    mm->node = node;
    mm->n = n;
    mm->mtry = s->mtry;
    return mm->in[attr];
}

static int best(const void *state, const tl_grow_ctx *g, const tl_node_rows *node, size_t attr,
                tl_split *out, tl_err *err)
{
    const subset *s = state;
    if (!drawn(s, g, node->id, attr))
        return 0;
    int k = tl_grow_data(g)->schema.attrs[attr].kind;
    return s->inner[k]->best(s->state[k], g, node, attr, out, err);
}

/* What the inner splitter of the slot asks for, but the compact records: they would serve
 * every node, where this splitter scores only the drawn attributes (kept as the sorted blocks
 * and packed values were before views were asked for). */
static void views(const void *state, int kind, tl_view_request *want)
{
    const subset *s = state;
    const tl_splitter_type *in = s ? s->inner[kind] : NULL;
    if (in && in->views)
        in->views(s->state[kind], kind, want);
    want->kinds &= ~TL_VIEW_BIT(TL_VIEW_RECORDS);
}

/* An inner splitter's per-fit work (the histogram's bins), for the slot it stands in. */
static int prepare(const void *state, const tl_grow_ctx *g, const tl_node_rows *root, int kind,
                   void **fit, tl_err *err)
{
    const subset *s = state;
    const tl_splitter_type *in = s->inner[kind];
    return in->prepare ? in->prepare(s->state[kind], g, root, kind, fit, err) : TL_OK;
}

static void release(const void *state, int kind, void *fit)
{
    const subset *s = state;
    if (s->inner[kind]->release)
        s->inner[kind]->release(s->state[kind], kind, fit);
}

static const tl_splitter_type random_subset = {
    .name = "random_subset",
    .summary = "only mtry attributes drawn per node compete (the random-forest split)",
    .reference = "Breiman, Random forests, Machine Learning 45 (2001)",
    .params = params,
    .check = check,
    .init = init,
    .free = subset_free,
    .kinds = TL_KIND_BIT(TL_ATTR_NUMERIC) | TL_KIND_BIT(TL_ATTR_NOMINAL),
    .best = best,
    .views = views,
    .prepare = prepare,
    .release = release,
};

const tl_splitter_type *const tl_splitter_random_subset = &random_subset;
