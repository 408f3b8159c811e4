/* The binary test that maximises the criterion's worth over partykit's candidate splits: a
 * numeric attribute cut after each of the node's values (x <= a value seen in the node), a
 * nominal one split into two level sets, every set of the node's levels enumerated in
 * libcoin's order (the first level always on the left); the first maximum wins and each side
 * needs max(min_samples_leaf, ceil(minprob * node weight)). With the ctree criterion this is
 * ctree's maximally selected standardised two-sample statistic (Hothorn et al. 2006). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "treelab/tl_grow.h"
#include "treelab/tl_class_sums.h"

/* libcoin refuses more (it enumerates 2^(L-1) sets); so does this splitter. */
#define MAX_STAT_LEVELS 30

typedef struct max_stat_state {
    double minprob;
} max_stat_state;

static const tl_param_spec params[] = {
    {"minprob", TL_PARAM_DOUBLE, "0.01", 0, 1, NULL,
     "each side of a split holds at least this share of the node's weight (partykit's minprob)"},
    {NULL, 0, NULL, 0, 0, NULL, NULL},
};

static void *init(const tl_params *p, tl_err *err)
{
    max_stat_state *s = calloc(1, sizeof *s);
    if (!s) {
        tl_err_set(err, TL_ENOMEM, "out of memory");
        return NULL;
    }
    tl_param_reader rd = tl_params_reader(params, p, err);
    s->minprob = tl_params_double(&rd, "minprob");
    if (rd.rc) {
        free(s);
        return NULL;
    }
    return s;
}

static void state_free(void *p)
{
    free(p);
}

/* The weight each side needs at this node (partykit's minbucket raised by minprob). */
static double min_side(const max_stat_state *s, const tl_grow_ctx *g, const tl_node_rows *node)
{
    const tl_grow_params *p = tl_grow_params_of(g);
    double w = 0;
    for (size_t i = 0; i < node->n; i++)
        w += node->w[node->rows[i]];
    double mp = ceil(w * s->minprob);
    return mp > p->min_samples_leaf ? mp : p->min_samples_leaf;
}

static int best_numeric(const max_stat_state *s, const tl_grow_ctx *g, const tl_node_rows *node,
                        size_t attr, tl_split *out)
{
    const tl_dataset *d = tl_grow_data(g);
    const double *x = d->cols[attr].num;
    const uint32_t *sorted = tl_grow_view(g, node, attr, TL_VIEW_SORTED);
    if (!sorted)
        return 0;
    size_t k = tl_grow_k(g), n = 0;
    /* within the grower's scratch (at least 4 (k + 1) doubles) */
    double *ch = tl_grow_scratch(g), *left = ch, *right = ch + k, *best = ch + 2 * k;
    double *parent = ch + 3 * k, known = 0, missing_w = 0, mb = min_side(s, g, node);
    memset(ch, 0, 4 * k * sizeof *ch);
    for (size_t i = 0; i < node->n; i++) {
        uint32_t r = sorted[i];
        if (isnan(x[r])) {
            missing_w += node->w[r];
            continue;
        }
        tl_grow_add_row(g, parent, r, node->w[r]);
        known += node->w[r];
        n++;
    }
    double wl = 0, top = 0, thr = 0;
    for (size_t i = 0; i + 1 < n; i++) {
        uint32_t r = sorted[i];
        tl_grow_add_row(g, left, r, node->w[r]);
        wl += node->w[r];
        if (x[sorted[i + 1]] == x[r] || wl < mb || known - wl < mb)
            continue;
        for (size_t c = 0; c < k; c++)
            right[c] = parent[c] - left[c];
        double v = tl_grow_partition_gain(g, ch, 2);
        if (v > top) {
            top = v;
            thr = x[r];
            memcpy(best, left, k * sizeof *ch);
        }
    }
    if (!(top > 0))
        return 0;
    out->attr = attr;
    out->kind = TL_SPLIT_NUMERIC;
    out->threshold = thr;
    memcpy(left, best, k * sizeof *ch);
    for (size_t c = 0; c < k; c++)
        right[c] = parent[c] - left[c];
    return tl_grow_score(g, node, ch, 2, missing_w, out);
}

static int best_nominal(const max_stat_state *s, const tl_grow_ctx *g, const tl_node_rows *node,
                        size_t attr, tl_split *out, tl_err *err)
{
    const tl_dataset *d = tl_grow_data(g);
    size_t k = tl_grow_k(g), levels = d->schema.attrs[attr].n_levels, present[64], np = 0;
    double *stats = tl_grow_scratch(g), *ch = stats + levels * k, *best = ch + 2 * k;
    double missing_w = tl_grow_level_stats(g, node, attr, stats), w[64];
    double mb = min_side(s, g, node), total = 0, top = 0;
    int classes = tl_dataset_is_classification(d);
    for (size_t l = 0; l < levels && l < 64; l++) {
        double lw = classes ? tl_class_total(stats + l * k, k) : stats[l * k];
        if (lw > 0) {
            w[np] = lw;
            present[np++] = l;
            total += lw;
        }
    }
    if (np < 2)
        return 0;
    if (np > MAX_STAT_LEVELS)
        return -tl_err_set(err, TL_EINVAL,
                           "max_stat: attribute '%s' has %zu levels at a node; at most %d (every "
                           "set of levels is tried)",
                           d->schema.attrs[attr].name, np, MAX_STAT_LEVELS);
    uint64_t best_mask = 0;
    for (uint64_t j = 1; j < (uint64_t)1 << (np - 1); j++) {
        double wl = 0; /* libcoin's left: the levels whose bit is set (never the first) */
        for (size_t l = 1; l < np; l++)
            wl += (j >> (l - 1) & 1) ? w[l] : 0;
        if (wl < mb || total - wl < mb)
            continue;
        memset(ch, 0, 2 * k * sizeof *ch);
        for (size_t l = 0; l < np; l++) {
            double *side = ch + ((l > 0 && (j >> (l - 1) & 1)) ? k : 0);
            for (size_t c = 0; c < k; c++)
                side[c] += stats[present[l] * k + c];
        }
        double v = tl_grow_partition_gain(g, ch, 2);
        if (v > top) {
            top = v;
            best_mask = 0;
            for (size_t l = 0; l < np; l++)
                if (!(l > 0 && (j >> (l - 1) & 1)))
                    best_mask |= (uint64_t)1 << present[l];
            memcpy(best, ch, 2 * k * sizeof *ch);
        }
    }
    if (!(top > 0))
        return 0;
    out->attr = attr;
    out->kind = TL_SPLIT_SUBSET;
    out->left_mask = best_mask;
    return tl_grow_score(g, node, best, 2, missing_w, out);
}

static int best(const void *state, const tl_grow_ctx *g, const tl_node_rows *node, size_t attr,
                tl_split *out, tl_err *err)
{
    const tl_dataset *d = tl_grow_data(g);
    if (d->schema.attrs[attr].kind == TL_ATTR_NOMINAL)
        return best_nominal(state, g, node, attr, out, err);
    return best_numeric(state, g, node, attr, out);
}

/* The sorted rows of every numeric attribute, kept down the tree. */
static void views(const void *state, int kind, tl_view_request *want)
{
    (void)state;
    want->kinds = kind == TL_ATTR_NUMERIC ? TL_VIEW_BIT(TL_VIEW_SORTED) : 0;
}

static const tl_splitter_type max_stat = {
    .name = "max_stat",
    .summary = "binary test maximising the criterion over partykit's cuts (numeric: x <= a node "
               "value; nominal: every level set)",
    .reference = "Hothorn, Hornik & Zeileis (2006); libcoin's maximally selected statistics",
    .params = params,
    .init = init,
    .free = state_free,
    .kinds = TL_KIND_BIT(TL_ATTR_NUMERIC) | TL_KIND_BIT(TL_ATTR_NOMINAL),
    .best = best,
    .views = views,
};

const tl_splitter_type *const tl_splitter_max_stat = &max_stat;
