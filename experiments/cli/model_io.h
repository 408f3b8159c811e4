/* Shared by the model commands of the CLI. */
#ifndef TL_CLI_MODEL_IO_H
#define TL_CLI_MODEL_IO_H

#include "cli.h"
#include "treelab/tl_dataset.h"
#include "treelab/tl_model.h"

tl_dataset *tl_cli_load_data(const char *path, const char *target, tl_err *err);
/* New model of algo with the --set parameters, fitted on every row of d. NULL + err. */
tl_model *tl_cli_fit(const char *algo, const tl_params *set, const tl_dataset *d,
                     unsigned long seed, tl_err *err);
/* --seed's value (default 1). */
int tl_cli_seed(const char *text, unsigned long *seed, tl_err *err);

#endif
