/* `treelab show MODEL [--format text|dot|rules]`: print a saved model. */
#include <stdio.h>
#include <string.h>

#include "model_io.h"

static const char usage[] =
    "usage: treelab show MODEL [--format text|dot|rules]\n"
    "\n"
    "Print a saved model: text in Weka's layout (`attr <= 2.5: bad (15.0/2.0)`: the weight\n"
    "reaching the leaf / the weight it misclassifies), Graphviz DOT, or if-then rules.\n";

static int run(int argc, char **argv, tl_err *err)
{
    const char *format = "text", *pos[1];
    tl_cli_opt opts[] = {{"--format", 1, &format}, {NULL, 0, NULL}};
    int n_pos, help;
    if (tl_cli_parse(argc, argv, opts, pos, 1, &n_pos, NULL, &help, err))
        return err->code;
    if (help) {
        fputs(usage, stdout);
        return TL_OK;
    }
    if (n_pos != 1)
        return tl_err_set(err, TL_EINVAL, "expected MODEL (see treelab show --help)");
    tl_show_format fmt;
    if (!strcmp(format, "text"))
        fmt = TL_SHOW_TEXT;
    else if (!strcmp(format, "dot"))
        fmt = TL_SHOW_DOT;
    else if (!strcmp(format, "rules"))
        fmt = TL_SHOW_RULES;
    else
        return tl_err_set(err, TL_EINVAL, "--format: '%s' is not one of text, dot, rules", format);
    tl_model *m = tl_model_load(pos[0], err);
    if (m && tl_cli_check_names(&m->schema, pos[0], err)) {
        tl_model_free(m);
        m = NULL;
    }
    if (!m)
        return err->code;
    tl_model_show(m, fmt, stdout, err);
    tl_model_free(m);
    return err->code;
}

const tl_cli_command tl_cmd_show = {"show", "print a saved model (text, dot or rules)", usage, run};
