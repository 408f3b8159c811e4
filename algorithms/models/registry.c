/* The learners treelab knows, by config name. Adding a learner: one file plus one line here. */
#include "treelab/tl_model.h"

const tl_model_type *const tl_model_registry[] = {
    NULL
};
