/* The learners treelab knows, by config name. Adding a learner: one file exporting
 * `const tl_model_type *const tl_model_NAME`, plus its two lines here. */
#include "treelab/tl_model.h"

extern const tl_model_type *const tl_model_id3;
extern const tl_model_type *const tl_model_cart;
extern const tl_model_type *const tl_model_gaussian_nb;
extern const tl_model_type *const tl_model_soft_tree;
extern const tl_model_type *const tl_model_c45;

/* The registry holds the handles' addresses: those are constant expressions, the handles'
 * values are not. */
static const tl_model_type *const *const registry[] = {
    &tl_model_id3,
    &tl_model_cart,
    &tl_model_gaussian_nb,
    &tl_model_soft_tree,
    &tl_model_c45,
    NULL
};

const tl_model_type *tl_model_at(size_t i)
{
    return i < sizeof registry / sizeof *registry && registry[i] ? *registry[i] : NULL;
}
