/* One branch per level of a nominal attribute (ID3, C4.5). */
#include "treelab/tl_grow.h"

static int best(const void *state, const tl_grow_ctx *g, const tl_node_rows *node, size_t attr,
                tl_split *out, tl_err *err)
{
    (void)state;
    (void)err;
    const tl_dataset *d = tl_grow_data(g);
    size_t levels = d->schema.attrs[attr].n_levels;
    double *children = tl_grow_scratch(g); /* levels x k */
    double missing_w = tl_grow_level_stats(g, node, attr, children);
    out->attr = attr; /* the test first: a row-form criterion scores it from the rows */
    out->kind = TL_SPLIT_MULTIWAY;
    return tl_grow_score(g, node, children, levels, missing_w, out);
}

static const tl_splitter_type nominal_multiway = {
    .name = "nominal_multiway",
    .summary = "one branch per level (ID3, C4.5)",
    .reference = "Quinlan (1986); Quinlan (1993)",
    .kinds = TL_KIND_BIT(TL_ATTR_NOMINAL),
    .best = best,
};

const tl_splitter_type *const tl_splitter_nominal_multiway = &nominal_multiway;
