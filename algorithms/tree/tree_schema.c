/* A loaded tree checked against the schema it will be shown or applied with (attribute
 * indices, split kinds and levels, surrogates, the target's task and classes). */
#include <stddef.h>

#include "treelab/tl_tree.h"

int tl_tree_check_schema(const tl_tree *t, const tl_schema *s, tl_err *err)
{
    const tl_attr_info *target = &s->target;
    if (t->regression != (target->kind == TL_ATTR_NUMERIC) ||
        (!t->regression && t->k != target->n_levels))
        return tl_err_set(err, TL_EPARSE,
                          "model file: the tree (%s, %zu statistics per node) "
                          "does not fit the target '%s' (%s, %zu levels)",
                          t->regression ? "regression" : "classification", t->k, target->name,
                          target->kind == TL_ATTR_NUMERIC ? "numeric" : "nominal",
                          target->n_levels);
    for (size_t i = 0; i < t->n_nodes; i++) {
        if (t->attr[i] < 0)
            continue;
        size_t a = (size_t)t->attr[i];
        if (a >= s->n_attrs)
            return tl_err_set(err, TL_EPARSE,
                              "model file: node %zu tests attribute %zu; the "
                              "schema has %zu attributes",
                              i, a, s->n_attrs);
        const tl_attr_info *ai = &s->attrs[a];
        int nominal = t->kind[i] != TL_SPLIT_NUMERIC;
        size_t nl = ai->n_levels;
        const char *bad = NULL;
        if (nominal != (ai->kind == TL_ATTR_NOMINAL))
            bad = nominal ? "a nominal split on a numeric attribute"
                          : "a numeric split on a nominal attribute";
        else if (t->kind[i] == TL_SPLIT_MULTIWAY && t->n_children[i] != nl &&
                 !(t->n_children[i] == nl + 1 && t->unknown[i] == (int)nl))
            bad = "a multiway split whose branches are not the attribute's levels";
        else if (t->kind[i] == TL_SPLIT_SUBSET &&
                 (nl > TL_SUBSET_MAX_LEVELS ||
                  (nl < TL_SUBSET_MAX_LEVELS && (t->mask[i] >> nl) != 0)))
            bad = "a subset split naming levels the attribute does not have";
        if (bad)
            return tl_err_set(err, TL_EPARSE, "model file: node %zu is %s ('%s')", i, bad,
                              ai->name);
        for (size_t q = 0; q < t->sur_n[i]; q++) {
            const tl_surrogate *su = &t->sur[t->sur_first[i] + q];
            const tl_attr_info *sa = (size_t)su->attr < s->n_attrs ? &s->attrs[su->attr] : NULL;
            int nominal_sur = su->kind == TL_SPLIT_SUBSET;
            if (!sa || nominal_sur != (sa->kind == TL_ATTR_NOMINAL) ||
                (nominal_sur && sa->n_levels < TL_SUBSET_MAX_LEVELS &&
                 ((su->known_mask | su->left_mask) >> sa->n_levels) != 0))
                return tl_err_set(err, TL_EPARSE,
                                  "model file: node %zu has a surrogate split "
                                  "that does not fit attribute %d of the schema",
                                  i, su->attr);
        }
    }
    return TL_OK;
}
