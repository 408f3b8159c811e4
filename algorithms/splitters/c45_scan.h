/* C4.5's cut scan (c45_scan.c) for the c45_threshold splitter: J48's cut among the
 * admissible ones of a node's known rows in an attribute's order, exactly as a plain scan in
 * order would choose it, with the cuts that cannot be chosen skipped. */
#ifndef TL_SPLITTERS_C45_SCAN_H
#define TL_SPLITTERS_C45_SCAN_H

#include <stddef.h>

#include "../tree/views/views.h"
#include "treelab/tl_grow.h"
#include "treelab/tl_class_sums.h"

/* J48 treats values closer than this as equal (no cut between them). */
#define TL_C45_VALUE_EPS 1e-5

/* The node's known rows in the attribute's order: value, weight and class of each; or, in a
 * node whose rows all weigh 1 and have the attribute's value, the grower's compact records
 * instead (rec non-NULL, x, w and y unused: the class code in the word, the cut bit set by
 * J48's TL_C45_VALUE_EPS rule). */
typedef struct {
    const double *x, *w;
    const int *y;
    const uint32_t *rec;
    unsigned rec_shift;
} tl_c45_rows;

/* The cut chosen: its gain, left weight and last row on the left (SIZE_MAX: none). */
typedef struct {
    double gain, left_w;
    size_t i;
} tl_c45_cut;

/* Fills the n log2 n table once per process (thread-safe). */
void tl_c45_scan_init(void);
/* For tests: the n log2 n table and its length. */
const double *tl_c45_xlogx_table(size_t *n);

/* J48's cut over rows[0..n_known): known (k) their class weights, known_w their weight,
 * total_w the node's with its unknown rows, min_split the least weight per side, eps J48's
 * slack; unit: every row weighs 1. closed_form: the criterion is entropy in bits (the gain
 * computed in J48's weighted form, cuts skipped by bounds); else every cut is scored by the
 * criterion. Sets *cuts (the admissible cuts) and *best. TL_OK or TL_ENOMEM. */
int tl_c45_scan(const tl_grow_ctx *g, const tl_c45_rows *sr, size_t n_known, const double *known,
                double known_w, double total_w, double min_split, double eps, int unit,
                int closed_form, size_t *cuts, tl_c45_cut *best, tl_err *err);

/* The closed_form scan alone, with no grower: k classes, h_known the entropy in bits of
 * known (what the criterion's impurity gives). tl_c45_scan calls it; tests compare it with a
 * plain scan in order. */
int tl_c45_scan_entropy(size_t k, double h_known, const tl_c45_rows *sr, size_t n_known,
                        const double *known, double known_w, double total_w, double min_split,
                        double eps, int unit, size_t *cuts, tl_c45_cut *best, tl_err *err);

#endif
