/* The command table. Adding a command: one cmd_NAME.c plus one line here. */
#include "cli.h"

extern const tl_cli_command tl_cmd_info, tl_cmd_fit, tl_cmd_predict, tl_cmd_show, tl_cmd_path,
    tl_cmd_cv, tl_cmd_run, tl_cmd_merge, tl_cmd_report, tl_cmd_plot, tl_cmd_plugins, tl_cmd_stats;

const tl_cli_command *const tl_cli_commands[] = {
    &tl_cmd_run,  &tl_cmd_merge, &tl_cmd_report, &tl_cmd_cv,   &tl_cmd_fit,     &tl_cmd_predict,
    &tl_cmd_show, &tl_cmd_path,  &tl_cmd_plot,   &tl_cmd_info, &tl_cmd_plugins, &tl_cmd_stats,
    NULL};
