/* `treelab info DATA`: placeholder until the data layer lands (issue 2). */
#include "cli.h"

static int run(int argc, char **argv, tl_err *err)
{
    (void)argc;
    (void)argv;
    return tl_err_set(err, TL_EUNSUPPORTED, "info is not implemented yet");
}

const tl_cli_command tl_cmd_info = {"info", "describe a dataset", "usage: treelab info DATA\n", run};
