/* The constant leaf (today's): a class distribution softmax(phi), or a value, the same for
 * every row that reaches the leaf. */
#include "soft_tree_impl.h"

const st_leaf_type st_leaf_constant = {
    .name = "constant",
    .summary = "a class distribution softmax(phi) or a value, the same for every row",
    .reference = "Irsoy, Yildiz and Alpaydin 2012; Frosst and Hinton 2017",
};
