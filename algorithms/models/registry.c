/* The learners treelab knows, by config name. Adding a learner: one file plus one line here. */
#include "treelab/tl_model.h"

extern const tl_model_type tl_model_gaussian_nb_type;

const tl_model_type *const tl_model_registry[] = {
    &tl_model_gaussian_nb_type,
    NULL
};
