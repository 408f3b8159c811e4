/* Learner parameters: a table of specs per learner, and a bag of user-set values.
 *
 * API: a tl_params owns copies of its keys and values (tl_params_set copies, tl_params_clear
 * frees; the struct itself is the caller's). tl_params_find and tl_params_string return
 * pointers into the bag or into the spec table: valid until the bag next changes. Spec tables
 * are never copied (static in practice). A tl_problems owns its messages (tl_problems_clear).
 * err may be NULL everywhere.
 */
#ifndef TL_PARAMS_H
#define TL_PARAMS_H

#include <stddef.h>
#include <stdio.h>

#include "treelab/tl_api.h"
#include "treelab/tl_error.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum {
    TL_PARAM_INT,
    TL_PARAM_DOUBLE,
    TL_PARAM_BOOL,
    TL_PARAM_CHOICE,
    TL_PARAM_STRING
} tl_param_type;

/* One parameter of a learner. Tables end with an entry whose name is NULL. */
typedef struct tl_param_spec {
    const char *name;
    tl_param_type type;
    const char *def;     /* default, as text ("0.25", "true", "gini") */
    double min, max;     /* inclusive range for INT and DOUBLE */
    const char *choices; /* CHOICE: the allowed words separated by '|' */
    const char *help;
} tl_param_spec;

/* User-set values, kept as text in the order set. */
typedef struct tl_params {
    size_t n;
    char **keys;
    char **values;
} tl_params;

TL_API void tl_params_init(tl_params *p);
TL_API void tl_params_clear(tl_params *p);
/* Set (or replace) key = value. Returns TL_OK or TL_ENOMEM. */
TL_API int tl_params_set(tl_params *p, const char *key, const char *value, tl_err *err);
/* Parse "key=value" (as given to --set). */
TL_API int tl_params_set_kv(tl_params *p, const char *kv, tl_err *err);
TL_API int tl_params_copy(tl_params *dst, const tl_params *src, tl_err *err);
/* Remove every key that starts with prefix. */
TL_API void tl_params_unset_prefix(tl_params *p, const char *prefix);
/* The value set for key, or NULL. */
TL_API const char *tl_params_find(const tl_params *p, const char *key);

/* Check every set value against spec: unknown keys (the error lists the valid names), wrong
 * types, out-of-range numbers and unknown choices (listing the allowed ones) are TL_EINVAL. */
TL_API int tl_params_check(const tl_param_spec *spec, const tl_params *p, tl_err *err);

/* Every problem a check found, not only the first (the messages are owned by the list). */
typedef struct tl_problems {
    size_t n;
    char **msg;
} tl_problems;

TL_API void tl_problems_init(tl_problems *p);
/* Free the messages and empty the list (p may be NULL). */
TL_API void tl_problems_clear(tl_problems *p);
/* Append a copy of msg; TL_ENOMEM. */
TL_API int tl_problems_add(tl_problems *p, const char *msg, tl_err *err);
/* The messages as one line into buf, cut to size: the message alone for one problem, else
 * "(1) first; (2) second; ...". */
TL_API void tl_problems_join(const tl_problems *p, char *buf, size_t size);

/* Typed getters: the set value or the spec's default, through a reader that remembers the
 * first problem. A name the table does not hold (a misspelling in the code that reads it) is
 * TL_EINTERNAL naming it, never a silent 0: read every value, then check r.rc. Call after
 * tl_params_check. */
typedef struct tl_param_reader {
    const tl_param_spec *spec;
    const tl_params *p;
    tl_err *err; /* may be NULL */
    int rc;      /* TL_OK, or the first problem */
} tl_param_reader;

/* A reader of p (may be NULL: every value is the default) against spec. */
TL_API tl_param_reader tl_params_reader(const tl_param_spec *spec, const tl_params *p, tl_err *err);
TL_API long tl_params_int(tl_param_reader *r, const char *name);
TL_API double tl_params_double(tl_param_reader *r, const char *name);
TL_API int tl_params_bool(tl_param_reader *r, const char *name);
TL_API const char *tl_params_string(tl_param_reader *r, const char *name);

/* Join the names name_at(0, filter), name_at(1, filter), ... (until NULL; "" entries are
 * skipped) with ", " into buf, cut to size: the list of valid names an error gives. */
TL_API void tl_join_names(const char *(*name_at)(size_t i, unsigned filter), unsigned filter,
                          char *buf, size_t size);

/* Help text for a table, one parameter per line, for `--help`. */
TL_API void tl_params_print_help(const tl_param_spec *spec, FILE *f);

#ifdef __cplusplus
}
#endif

#endif
