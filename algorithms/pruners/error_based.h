/* error_based's parameters, one spec each: the pruner's own table and the c45 preset's (which
 * hands them on as pruner.NAME) are made of these, so a parameter has one name, one range and
 * one default wherever it is set. */
#ifndef TL_ERROR_BASED_H
#define TL_ERROR_BASED_H

#include "treelab/tl_params.h"

#define TL_EBP_CONFIDENCE                                                                          \
    {                                                                                              \
        "confidence", TL_PARAM_DOUBLE, "0.25", 1e-6, 0.5, NULL,                                    \
            "error-based pruning: confidence factor (J48 -C); smaller prunes more"                 \
    }
#define TL_EBP_SUBTREE_RAISING                                                                     \
    {                                                                                              \
        "subtree_raising", TL_PARAM_BOOL, "true", 0, 0, NULL,                                      \
            "error-based pruning may replace a subtree by its largest branch (J48 without -S)"     \
    }
#define TL_EBP_COLLAPSE                                                                            \
    {                                                                                              \
        "collapse", TL_PARAM_BOOL, "true", 0, 0, NULL,                                             \
            "first collapse subtrees that do not lower the training error (J48 without -O)"        \
    }

#endif
