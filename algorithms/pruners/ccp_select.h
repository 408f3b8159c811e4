/* cost_complexity's selection of alpha (internal to cost_complexity.c and ccp_select.c). */
#ifndef TL_CCP_SELECT_H
#define TL_CCP_SELECT_H

#include "treelab/tl_grow.h"

/* The cross-validated error (and its SE) of the m candidate alphas beta[] (increasing), into
 * error[] and se[]: a tree grown with in's grower on each fold's other rows. */
int tl_ccp_cv_errors(const tl_prune_input *in, size_t m, int risk_error, size_t folds,
                     const double *beta, double *error, double *se, tl_err *err);
/* The error (and its SE) on in's validation rows of t pruned at each of the m candidate
 * alphas beta[] (increasing); rows without a target value are left out. */
int tl_ccp_valid_errors(const tl_tree *t, const tl_prune_input *in, int risk_error, size_t m,
                        const double *beta, double *error, double *se, tl_err *err);

#endif
