/* Column-oriented dataset: typed attributes, missing cells, a nominal or numeric target.
 *
 * API: the loaders return a dataset the caller frees with tl_dataset_free (NULL accepted);
 * the dataset owns every array and string it points to (but a borrowed sort cache).
 * tl_schema_copy fills a deep copy that tl_schema_clear frees. Output arrays (folds, SHA-256)
 * are the caller's. err may be NULL everywhere.
 */
#ifndef TL_DATASET_H
#define TL_DATASET_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "treelab/tl_api.h"
#include "treelab/tl_error.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum { TL_ATTR_NUMERIC = 0, TL_ATTR_NOMINAL = 1 } tl_attr_kind;

/* Tasks, as bits: what a learner or a plug-in can handle. */
enum { TL_TASK_CLASSIFICATION = 1u, TL_TASK_REGRESSION = 2u };

/* The most classes a target, and levels a nominal attribute, may have. A data file with more
 * is refused when loaded, before any work: per-class and per-level counts are kept at every
 * node, and such a column is an identifier or free text (docs/limits.md). */
#define TL_MAX_CLASSES 1000
#define TL_MAX_LEVELS 10000

/* Code of a missing nominal cell. Numeric missing cells are NaN. */
#define TL_MISSING_CODE (-1)

/* An attribute's header: name, kind and, for nominal ones, the level dictionary. */
typedef struct tl_attr_info {
    char *name;
    tl_attr_kind kind;
    size_t n_levels; /* nominal only */
    char **levels;   /* nominal only: level names, code i is levels[i] */
} tl_attr_info;

/* What a model needs to know about its training data to be saved, shown and applied to new
 * data: the attributes (target excluded) and the target. */
typedef struct tl_schema {
    size_t n_attrs;
    tl_attr_info *attrs;
    tl_attr_info target; /* nominal: classification; numeric: regression */
} tl_schema;

/* One column of data; exactly one of num / code is set, by the attribute's kind. */
typedef struct tl_column {
    double *num; /* numeric: n_rows values, NaN for missing */
    int *code;   /* nominal: n_rows codes in [0, n_levels), TL_MISSING_CODE for missing */
} tl_column;

typedef struct tl_dataset {
    char *name; /* @relation, or the file's base name */
    char *path; /* file it was read from (may be NULL) */
    size_t n_rows;
    tl_schema schema;
    tl_column *cols;  /* schema.n_attrs columns */
    tl_column y;      /* the target: y.code (classification) or y.num (regression) */
    double *weight;   /* n_rows row weights (ARFF {w}), or NULL when every row weighs 1 */
    size_t n_dropped; /* rows dropped at load because the target was missing */
    /* The user's own protocol, when loading asked for it (tl_data_opts): */
    int *fold; /* n_rows fold ids: -1 (a training row of every fold) or 0..n_folds-1 */
    size_t n_folds;
    unsigned char *role; /* n_rows TL_ROLE_* from a split column or a test file */
} tl_dataset;

/* A row's part in a train / test split given by the data (tl_dataset.role). */
enum { TL_ROLE_TRAIN = 0, TL_ROLE_VALID = 1, TL_ROLE_TEST = 2 };

/* Load ARFF (.arff) or CSV (anything else). target: attribute name, or NULL for the last
 * column. Returns a new dataset (free with tl_dataset_free) or NULL with err set; parse
 * errors name the file, line and column. Rows with a missing target are dropped (counted in
 * n_dropped, with a warning through tl_log). */
TL_API tl_dataset *tl_dataset_load(const char *path, const char *target, tl_err *err);
TL_API tl_dataset *tl_dataset_load_arff(const char *path, const char *target, tl_err *err);
TL_API tl_dataset *tl_dataset_load_csv(const char *path, const char *target, tl_err *err);

/* Loading options (bits). TL_LOAD_UNLABELLED, for data to predict: rows whose target is
 * missing are kept (code TL_MISSING_CODE or NaN), one class is enough, and when the target
 * named is not a column at all the dataset gets a target column of that name whose every
 * cell is missing (nominal with no levels). TL_LOAD_LATIN1: the file is Latin-1 (ISO 8859-1),
 * converted to UTF-8 as it is read; without it a byte that is not UTF-8 is refused with its
 * line and column, so that no file treelab writes holds invalid UTF-8. */
enum { TL_LOAD_UNLABELLED = 1u, TL_LOAD_LATIN1 = 2u, TL_LOAD_ONE_CLASS = 4u };
/* TL_LOAD_ONE_CLASS, for rows scored by a model fitted elsewhere (a test file): a target of
 * one class is accepted (the model knows the others). */

/* tl_dataset_load with options. */
TL_API tl_dataset *tl_dataset_load_opts(const char *path, const char *target, unsigned flags,
                                        tl_err *err);

/* What to take from a data file besides its cells. Every name must be a column of the file
 * (an unknown one is TL_EINVAL listing the valid columns); lists may be NULL when empty. */
typedef struct tl_data_opts {
    const char *target;            /* the column to predict; NULL: the last one */
    const char *const *attributes; /* keep only these attributes, in this order */
    size_t n_attributes;
    const char *const *ignore; /* drop these columns */
    size_t n_ignore;
    /* Make these columns nominal (the target too: a class coded as numbers). A numeric
     * column's levels are its distinct values in increasing numeric order, named "%.17g"
     * ("1", "2.5"); a column that is already nominal is left as it is. */
    const char *const *nominal;
    size_t n_nominal;
    /* Fold ids, into d->fold (the column is then no attribute): integers, -1 for a row that
     * is trained on in every fold, else 0..K-1 with every fold holding rows (scikit-learn's
     * PredefinedSplit). From a column of the file, or from a file with one id a line, a line
     * per data row of the file (rows later dropped for a missing target included). */
    const char *fold_column;
    const char *fold_file;
    /* Train / test rows, into d->role: a column holding train, test or validation, or a
     * second file whose rows are appended as test rows (conformed to this file's attributes,
     * as tl_dataset_conform does; classes only it has are added after this file's). */
    const char *split_column;
    const char *test_file;
    unsigned flags; /* TL_LOAD_* */
    /* Row weights from this numeric column (finite, >= 0, none missing), which is then no
     * attribute; the file must not carry ARFF weights {w} too. */
    const char *weight_column;
    /* The decimal mark of a CSV file's numbers: '.' (or 0) or ','. With ',' a cell such as
     * 1,5 is the number 1.5 (the delimiter must then be ';' or a tab). */
    char decimal;
    /* Column types to follow (a model's schema, or the training data's for a test file):
     * a column of the file that is numeric where `types` has a nominal attribute or target
     * of its name is read as nominal, as `nominal` would; names the file lacks are passed
     * over. NULL: none. */
    const tl_schema *types;
} tl_data_opts;

/* Load with every option of o (NULL: none). NULL with err set on failure. */
TL_API tl_dataset *tl_dataset_load_with(const char *path, const tl_data_opts *o, tl_err *err);

TL_API void tl_dataset_free(tl_dataset *d);
/* A view of d in out whose attribute columns are copies in which each value of rows[0..n)
 * is made unknown with probability rate, independently (missing completely at random), from
 * seed (mt19937; a value removed at one rate is removed at every higher one). The view shares
 * everything else with d, which must outlive it; free it with tl_dataset_blanked_free, never
 * tl_dataset_free. TL_ENOMEM. */
TL_API int tl_dataset_blanked(const tl_dataset *d, const size_t *rows, size_t n, double rate,
                              unsigned long seed, tl_dataset *out, tl_err *err);
TL_API void tl_dataset_blanked_free(tl_dataset *v);

/* 1 when the target is nominal. */
TL_API int tl_dataset_is_classification(const tl_dataset *d);
/* Number of classes (0 for regression). */
TL_API size_t tl_dataset_n_classes(const tl_dataset *d);
/* Weight of row i (1 when the dataset has no weights). */
TL_API double tl_dataset_weight(const tl_dataset *d, size_t i);
/* 1 when attribute j of row i is missing. */
TL_API int tl_dataset_is_missing(const tl_dataset *d, size_t j, size_t i);
/* Missing cells in the attributes (target excluded). */
TL_API size_t tl_dataset_missing_cells(const tl_dataset *d);

/* Keep only the named attributes (in the order given); the target stays. Returns TL_OK or
 * TL_EINVAL naming the unknown attribute and listing the valid ones. */
TL_API int tl_dataset_select(tl_dataset *d, const char *const *names, size_t n, tl_err *err);

/* Recode d's nominal columns to the level codes of schema (matched by attribute and level
 * name), so a model fitted on other data can be applied. An attribute missing from d or of
 * another kind is an error; a level the schema does not know becomes missing (warned).
 * Afterwards d's attributes are exactly the schema's, in its order (others are dropped), so
 * attribute j means the same in both. When d's target has the schema's target name and both
 * are nominal, the target is recoded too: the schema's classes first, in its order, then any
 * class only d has (warned), so d may have more classes than the schema. On error d is
 * unchanged except after TL_ENOMEM. */
TL_API int tl_dataset_conform(tl_dataset *d, const tl_schema *schema, tl_err *err);

/* Make a numeric target nominal: its classes are the distinct values in increasing order,
 * named with "%.17g" ("0", "1", "2.5"), for CSV files whose class labels are numbers (a CSV
 * column of numbers loads as numeric). TL_OK, and nothing changes, when the target is already
 * nominal; TL_EINVAL when it has fewer than two distinct values; TL_ENOMEM leaves d as it was. */
TL_API int tl_dataset_target_to_nominal(tl_dataset *d, tl_err *err);

/* Append b's rows to a (b already conformed to a's schema by tl_dataset_conform, so the
 * same attributes in the same order with the same levels; b's target may have classes a
 * lacks, after a's). a's roles (when set) get TL_ROLE_TEST for b's rows; weights are kept.
 * TL_EINVAL when b does not match a; TL_ENOMEM leaves a valid (maybe partly grown). */
TL_API int tl_dataset_append(tl_dataset *a, const tl_dataset *b, tl_err *err);

/* Deep copies / frees of a schema. Returns TL_OK or TL_ENOMEM. */
TL_API int tl_schema_copy(tl_schema *dst, const tl_schema *src, tl_err *err);
TL_API void tl_schema_clear(tl_schema *s);

/* Resolve "rows NULL means every row": returns rows, or fills *all with 0..n_rows-1 (the
 * caller frees it), sets *n and returns it. NULL with TL_ENOMEM. */
TL_API const size_t *tl_rows_or_all(const tl_dataset *d, const size_t *rows, size_t *n,
                                    size_t **all, tl_err *err);

/* Assign rows[0..n) to k folds: fold[i] in [0, k) for rows[i]. Stratified by class for
 * classification (each class shuffled, then dealt round-robin, continuing across classes
 * so fold sizes differ by at most one), a plain shuffle dealt round-robin for regression.
 * Deterministic for a seed (GSL mt19937). TL_EINVAL when k < 2 or k > n. */
TL_API int tl_folds_assign(const tl_dataset *d, const size_t *rows, size_t n, size_t k,
                           unsigned long seed, size_t *fold, tl_err *err);

/* SHA-256 of a file as 64 lowercase hex characters plus NUL in out. */
TL_API int tl_file_sha256(const char *path, char out[65], tl_err *err);

#ifdef __cplusplus
}
#endif

#endif
