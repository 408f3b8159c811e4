/* Shared by the model commands of the CLI. */
#ifndef TL_CLI_MODEL_IO_H
#define TL_CLI_MODEL_IO_H

#include "cli.h"
#include "treelab/tl_dataset.h"
#include "treelab/tl_model.h"

/* The options naming what to take from a data file, shared by every command that reads one. */
typedef struct tl_cli_data {
    const char *target, *ignore, *attributes, *nominal; /* the lists: comma-separated names */
    const char *weight, *decimal; /* a column of row weights; the decimal mark */
    const char *encoding;         /* utf8 (default) or latin1 */
    const tl_schema *types;       /* column types to follow (tl_data_opts.types), or NULL */
} tl_cli_data;

#define TL_CLI_DATA_OPTS(dd)                                                                       \
    {"--target", 1, &(dd).target}, {"--ignore", 1, &(dd).ignore},                                  \
        {"--attributes", 1, &(dd).attributes}, {"--nominal", 1, &(dd).nominal},                    \
        {"--weight", 1, &(dd).weight}, {"--decimal", 1, &(dd).decimal},                            \
    {                                                                                              \
        "--encoding", 1, &(dd).encoding                                                            \
    }

#define TL_CLI_DATA_HELP                                                                           \
    "  --target NAME        the column to predict (default: the last one)\n"                       \
    "  --ignore A,B         leave these columns out (an id, a leak)\n"                             \
    "  --attributes A,B,C   use only these attributes, in this order (and the target)\n"           \
    "  --nominal A,B        read these columns as nominal; for the target, a class coded as\n"     \
    "                       numbers: classification, classes in increasing numeric order\n"        \
    "  --weight COLUMN      weigh each row by this column's value (>= 0; then no attribute)\n"     \
    "  --decimal ,          a CSV's numbers use a decimal comma (1,5); cells split by ; or tab\n"  \
    "  --encoding E         the file's encoding: utf8 (default; other bytes are refused) or\n"     \
    "                       latin1 (ISO 8859-1, converted to UTF-8)\n"

/* Load path with dd's options (dd may be NULL), flags (TL_LOAD_*) and, when test is not NULL,
 * the rows of test appended as test rows (d->role). NULL + err. */
tl_dataset *tl_cli_load(const char *path, const tl_cli_data *dd, const char *test, unsigned flags,
                        tl_err *err);
/* TL_EINVAL naming path and the name when an attribute, level or class name of s holds a
 * control character (escape, bell, newline: they would act on the terminal, as `run` refuses
 * them in result files). */
int tl_cli_check_names(const tl_schema *s, const char *path, tl_err *err);
/* New model of algo with the --set parameters, fitted on every row of d. NULL + err. */
tl_model *tl_cli_fit(const char *algo, const tl_params *set, const tl_dataset *d,
                     unsigned long seed, tl_err *err);
/* New model of algo fitted on rows[0..n) of d (rows NULL: every row), an ensemble's members on
 * jobs threads. NULL + err. */
tl_model *tl_cli_fit_rows(const char *algo, const tl_params *set, const tl_dataset *d,
                          const size_t *rows, size_t n, unsigned long seed, size_t jobs,
                          tl_err *err);
/* The rows of d whose role is role (every row when d has no roles): a new array, *n rows. */
size_t *tl_cli_role_rows(const tl_dataset *d, int role, size_t *n, tl_err *err);
/* Predict rows[0..n) of d (rows NULL: every row) with m and print "LABEL: N rows: accuracy ..., kappa ..." (RMSE,
 * MAE and R2 for regression), every score weighted by the rows' weights, to f. */
int tl_cli_print_scores(FILE *f, const char *label, const tl_model *m, const tl_dataset *d,
                        const size_t *rows, size_t n, tl_err *err);
/* --seed's value (default 1). */
int tl_cli_seed(const char *text, unsigned long *seed, tl_err *err);

#endif
