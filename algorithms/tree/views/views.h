/* The layout of the compact records (tl_grow_view's TL_VIEW_RECORDS), private to the library:
 * what its own splitters (numeric_threshold, c45_threshold through the C4.5 scan) may read
 * beyond the public contract (tl_plugin.h).
 * One 32-bit word per row of a node in an attribute's sorted order: the row above rec_shift,
 * the class code from bit TL_REC_CLASS_SHIFT, and two bits below. */
#ifndef TL_GROW_VIEW_H
#define TL_GROW_VIEW_H

#include <stdint.h>

#include "treelab/tl_plugin.h"

/* A compact record's bits: the cut between the previous record and this one is allowed (this
 * value exceeds the previous one by more than TL_REC_GAP, or the splitter's record_gap), and
 * this value differs from the previous one; the first record of a node carries neither
 * meaningfully. */
#define TL_REC_CUT 1u
#define TL_REC_DIFFERS 2u
#define TL_REC_CLASS_SHIFT 2u
/* Values closer than this are not cut between (scikit-learn's FEATURE_THRESHOLD). */
#define TL_REC_GAP 1e-7

/* Where a record's row starts (its bits above the class code). */
unsigned tlg_record_shift(const tl_grow_ctx *g);

#endif
