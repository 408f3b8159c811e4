/* Shared by the tree exporters (export.c, export_rules.c); not a public interface. */
#ifndef TL_EXPORT_INTERNAL_H
#define TL_EXPORT_INTERNAL_H

#include <stddef.h>
#include <stdio.h>

#include "treelab/tl_tree.h"

/* Labels (export_label.c). A threshold as Weka's Utils.doubleToString(v, 6) prints it. */
void tl_export_threshold(char *buf, size_t size, double v);
/* "bad (15.27/2.27)" for a class leaf, "4.5 (2.0)" for a regression leaf. */
void tl_export_leaf_label(const tl_tree *t, const tl_schema *s, size_t node, char *buf,
                          size_t size);
/* One rule per leaf, its path's conditions merged per attribute (export_rules.c). */
int tl_export_rules(const tl_tree *t, const tl_schema *s, FILE *f, tl_err *err);

#endif
