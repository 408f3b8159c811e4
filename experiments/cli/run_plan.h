/* `treelab run CONFIG --plan`: the cells and their estimated cost, and what finishes in time. */
#ifndef TL_CLI_RUN_PLAN_H
#define TL_CLI_RUN_PLAN_H

#include <stddef.h>

#include "treelab/tl_scale.h"

/* Load CONFIG and its data and print the plan on stdout (wall: target seconds; jobs:
 * threads per process or rank). */
int tl_cli_print_plan(const char *config, double wall, size_t jobs, const tl_run_scale *sc,
                      tl_err *err);

#endif
