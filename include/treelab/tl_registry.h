/* The registries of the plug-ins (criteria/, splitters/, pruners/, missing/registry.c): plug-in
 * i, NULL past the last; find by name, or NULL with TL_EINVAL listing the valid names; add one
 * defined outside treelab; the valid names.
 *
 * API: the registries return pointers to the `const` types, never copies, and tl_*_register
 * keep the pointer given. err may be NULL everywhere.
 */
#ifndef TL_REGISTRY_H
#define TL_REGISTRY_H

#include <stddef.h>

#include "treelab/tl_api.h"
#include "treelab/tl_error.h"
#include "treelab/tl_plugin.h"
#include "treelab/tl_prune.h"

#ifdef __cplusplus
extern "C" {
#endif

TL_API const tl_criterion_type *tl_criterion_at(size_t i);
TL_API const tl_criterion_type *tl_criterion_find(const char *name, tl_err *err);
TL_API const tl_splitter_type *tl_splitter_at(size_t i);
TL_API const tl_splitter_type *tl_splitter_find(const char *name, tl_err *err);
TL_API const tl_missing_type *tl_missing_at(size_t i);
TL_API const tl_missing_type *tl_missing_find(const char *name, tl_err *err);
TL_API const tl_pruner_type *tl_pruner_at(size_t i);
TL_API const tl_pruner_type *tl_pruner_find(const char *name, tl_err *err);

/* Add a plug-in defined outside treelab (an out-of-tree criterion, splitter, pruner or
 * missing-value method), so that lookups, configs, `--set SLOT=NAME` and listings know it as
 * the built-in ones. The type is kept by pointer (it must outlive every use; a static const
 * struct). Register before use: registration takes a lock, but a fit running meanwhile may not
 * see the new name. TL_EINVAL when the name is taken or not a word (a letter, then letters,
 * digits, '_' or '-'), when an operation the grower needs is missing (a criterion's impurity or
 * score and its tasks; a splitter's best and kinds; a pruner's prune; a missing-value method's
 * scoring out of range), or past 64 registrations per kind. */
TL_API int tl_criterion_register(const tl_criterion_type *t, tl_err *err);
TL_API int tl_splitter_register(const tl_splitter_type *t, tl_err *err);
TL_API int tl_missing_register(const tl_missing_type *t, tl_err *err);
TL_API int tl_pruner_register(const tl_pruner_type *t, tl_err *err);

/* The valid names of a registry, comma separated, into buf (what errors and --help list);
 * for splitters, kinds keeps those handling one of these attribute kinds (0: all). */
TL_API void tl_criterion_names(char *buf, size_t size);
TL_API void tl_splitter_names(unsigned kinds, char *buf, size_t size);
TL_API void tl_missing_names(char *buf, size_t size);
TL_API void tl_pruner_names(char *buf, size_t size);

#ifdef __cplusplus
}
#endif

#endif
