/* The command table. Adding a command: one cmd_NAME.c plus one line here. */
#include "cli.h"

extern const tl_cli_command tl_cmd_info;
extern const tl_cli_command tl_cmd_run;
extern const tl_cli_command tl_cmd_report;
extern const tl_cli_command tl_cmd_cv;

const tl_cli_command *const tl_cli_commands[] = {
    &tl_cmd_info,
    &tl_cmd_run,
    &tl_cmd_report,
    &tl_cmd_cv,
    NULL
};
