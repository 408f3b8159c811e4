/* One branch per level of a nominal attribute (ID3, C4.5). */
#include <string.h>

#include "treelab/tl_tree.h"

static int best(const tl_grow_ctx *g, const tl_node_rows *node, size_t attr, tl_split *out,
                tl_err *err)
{
    (void)err;
    size_t k = tl_grow_k(g);
    const tl_dataset *d = tl_grow_data(g);
    size_t levels = d->schema.attrs[attr].n_levels;
    const int *code = d->cols[attr].code;
    double *children = tl_grow_scratch(g); /* levels x k */
    memset(children, 0, levels * k * sizeof *children);
    double missing_w = 0;
    for (size_t i = 0; i < node->n; i++) {
        uint32_t r = node->rows[i];
        if (code[r] < 0)
            missing_w += node->w[r];
        else
            tl_grow_add_row(g, children + (size_t)code[r] * k, r, node->w[r]);
    }
    if (!tl_grow_score(g, node, children, levels, missing_w, out))
        return 0;
    out->attr = attr;
    out->kind = TL_SPLIT_MULTIWAY;
    return 1;
}

static const tl_splitter_type nominal_multiway = {
    .name = "nominal_multiway",
    .kind = TL_ATTR_NOMINAL,
    .best = best,
};

const tl_splitter_type *const tl_splitter_nominal_multiway = &nominal_multiway;
