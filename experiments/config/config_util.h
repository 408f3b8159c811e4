/* Internal helpers shared by config.c and config_models.c (libconfig access with errors that
 * name the file, line and key). Not a public interface. */
#ifndef TL_CONFIG_UTIL_H
#define TL_CONFIG_UTIL_H

#include <libconfig.h>

#include "treelab/tl_experiment.h"

/* Reading context: the file name for messages and learners looked up before the registry. */
typedef struct tl_cfg_ctx {
    const char *file;
    const tl_model_type *const *extra;
    tl_err *err; /* where every error goes */
} tl_cfg_ctx;

/* Error "FILE:LINE: KEY: message" at setting s (its line and dotted path). */
int tl_cfg_fail(const tl_cfg_ctx *c, const config_setting_t *s, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Check that group s has only keys from allowed ('|'-separated); the error lists them. */
int tl_cfg_check_keys(const tl_cfg_ctx *c, const config_setting_t *s, const char *allowed);

/* Typed member lookups. A missing optional member leaves *out alone and returns TL_OK; a
 * missing required one or a wrong type is TL_EINVAL naming the key. */
int tl_cfg_string(const tl_cfg_ctx *c, const config_setting_t *g, const char *key, int required,
                  const char **out);
int tl_cfg_long(const tl_cfg_ctx *c, const config_setting_t *g, const char *key, int required,
                long min, long max, long *out);
int tl_cfg_double(const tl_cfg_ctx *c, const config_setting_t *g, const char *key, int required,
                  double min, double max, double *out);
int tl_cfg_bool(const tl_cfg_ctx *c, const config_setting_t *g, const char *key, int *out);
/* Array/list member of strings: a new NULL-free array of n copies (free with tl_cfg_strv_free). */
int tl_cfg_strings(const tl_cfg_ctx *c, const config_setting_t *g, const char *key, char ***out,
                   size_t *n);
void tl_cfg_strv_free(char **v, size_t n);

/* A scalar setting as parameter text (shortest %g that reads back exactly for floats,
 * "true"/"false" for booleans). TL_EINVAL for a group, list or array. */
int tl_cfg_scalar_text(const tl_cfg_ctx *c, const config_setting_t *s, char *buf, size_t size);

char *tl_cfg_strdup(const char *s);

/* Parameter values (config_values.c). Check m's params against its learner's table; the message gets setting s's place. */
int tl_cfg_check_model(const tl_cfg_ctx *c, const config_setting_t *s, const tl_exp_model *m);
/* Values of an array or list of scalars s, as text: a new array *out of *n copies. */
int tl_cfg_values(const tl_cfg_ctx *c, const config_setting_t *s, char ***out, size_t *n);
/* Each value of param alone on the base model, so that a bad one is reported at at's line. */
int tl_cfg_check_values(const tl_cfg_ctx *c, const config_setting_t *at, const tl_exp_model *base,
                        const char *param, char *const *values, size_t n);
/* The swept parameters of a `params` group, `{ p = [v1, ...]; slot = { q = [...]; }; }`
 * (slot.q), at most max of them: names[i], values[i], n_values[i] for i < *n (new strings,
 * each value checked on base). TL_EINVAL past max or for an empty group. */
int tl_cfg_sweep(const tl_cfg_ctx *c, const config_setting_t *ps, const tl_exp_model *base,
                 size_t max, char **names, char ***values, size_t *n_values, size_t *n);

/* A model's `select` group sel (config_select.c); model is the model's own group. */
int tl_cfg_read_select(const tl_cfg_ctx *c, const config_setting_t *model,
                       const config_setting_t *sel, tl_exp_model *m);

/* The protocol block p into pr (config_protocol.c). */
int tl_cfg_read_protocol(const tl_cfg_ctx *c, const config_setting_t *p, tl_protocol *pr);
/* The compare block s into x's compare_* fields (config_compare.c). */
int tl_cfg_read_compare(const tl_cfg_ctx *c, const config_setting_t *s, tl_experiment *x);

/* Datasets section (config_data.c). */
int tl_cfg_read_datasets(const tl_cfg_ctx *c, const config_setting_t *s, tl_experiment *x);
/* Fold and test files agree with the protocol (read after both). */
/* Frees the n entries of v and v. */
void tl_exp_datasets_free(tl_exp_dataset *v, size_t n);
/* protocol.missing: every dataset entry becomes one entry per rate, NAME-missR (R the rate
 * in percent), in dataset order; TL_ENOMEM. */
int tl_cfg_expand_missing(const tl_cfg_ctx *c, tl_experiment *x);
int tl_cfg_check_dataset_files(const tl_cfg_ctx *c, const config_setting_t *s,
                               const tl_experiment *x);

/* Models section (config_models.c): models, their select groups, grids. */
int tl_cfg_read_models(const tl_cfg_ctx *c, const config_setting_t *models,
                       const config_setting_t *grids, tl_experiment *x);

#endif
