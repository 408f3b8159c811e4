/* The treelab command-line program: one cmd_*.c per command, dispatched from main.c. */
#ifndef TL_CLI_H
#define TL_CLI_H

#include <stdio.h>

#include "treelab/tl_error.h"
#include "treelab/tl_params.h"

typedef struct tl_cli_command {
    const char *name;
    const char *summary;                            /* one line for `treelab --help` */
    const char *usage;                              /* full help for `treelab CMD --help` */
    int (*run)(int argc, char **argv, tl_err *err); /* argv[0] is the command name */
} tl_cli_command;

/* Exit status: 0 success, 1 user error, 2 internal error. */
int tl_cli_exit_status(const tl_err *err);

/* Option parsing shared by the commands. Options may come before or after the positional
 * arguments. An unknown option is TL_EINVAL listing the valid ones. */
typedef struct tl_cli_opt {
    const char *name;   /* "--folds" */
    int takes_value;    /* 0 for flags */
    const char **value; /* where the value (or "1" for a flag) goes; repeated options: see `set` */
} tl_cli_opt;

/* Parse argv[1..argc). Positionals are collected into pos (at most max_pos; more is an error
 * naming the extra one). Every "--set k=v" is added to set (may be NULL if not accepted).
 * Returns TL_OK, or TL_EINVAL naming the problem. `--help` returns TL_OK with *help = 1. */
int tl_cli_parse(int argc, char **argv, const tl_cli_opt *opts, const char **pos, int max_pos,
                 int *n_pos, tl_params *set, int *help, tl_err *err);

/* Parse an option value as a number with range check; errors name the option. */
int tl_cli_long(const char *opt, const char *v, long min, long max, long *out, tl_err *err);

/* A duration: a number with an optional unit s, m, h or d ("90", "30m", "12h"), in seconds
 * (> 0); errors name the option. */
int tl_cli_duration(const char *opt, const char *v, double *seconds, tl_err *err);

extern const tl_cli_command *const tl_cli_commands[];

#endif
