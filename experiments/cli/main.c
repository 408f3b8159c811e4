/* treelab's entry point: the command table, the log hook, and exit statuses. */
#include <cblas.h>
#include <gsl/gsl_errno.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "treelab/tl_version.h"
#include "cli.h"
#include "treelab/tl_log.h"

static void log_to_stderr(tl_log_level level, const char *msg, void *user)
{
    (void)user;
    if (level == TL_LOG_DEBUG && !getenv("TREELAB_DEBUG"))
        return;
    fprintf(stderr, "%s%s\n", level == TL_LOG_WARN ? "treelab: warning: " : "", msg);
}

int tl_cli_exit_status(const tl_err *err)
{
    if (err->code == TL_OK)
        return 0;
    return tl_err_is_user(err->code) ? 1 : 2;
}

static void usage(FILE *f)
{
    fprintf(f, "usage: treelab COMMAND [ARGS]...\n\n"
               "Compare decision-tree learners on datasets (ARFF or CSV).\n\ncommands:\n");
    for (size_t i = 0; tl_cli_commands[i]; i++)
        fprintf(f, "  %-9s %s\n", tl_cli_commands[i]->name, tl_cli_commands[i]->summary);
    fprintf(f, "\n`treelab COMMAND --help` describes a command.\n"
               "Exit status: 0 success, 1 bad input or usage, 2 internal error.\n");
}

int main(int argc, char **argv)
{
    setlocale(LC_ALL, "C");
    gsl_set_error_handler_off();
    /* Cells run in parallel (--jobs); BLAS threads on top would only oversubscribe the
     * cores. OPENBLAS_NUM_THREADS still wins when set. */
    if (!getenv("OPENBLAS_NUM_THREADS"))
        openblas_set_num_threads(1);
    tl_log_set_hook(log_to_stderr, NULL);
    if (argc < 2) {
        usage(stderr);
        return 1;
    }
    if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
        usage(stdout);
        return 0;
    }
    if (!strcmp(argv[1], "--version")) {
        printf("treelab %s (commit %s)\n", tl_version(), tl_commit());
        return 0;
    }
    for (size_t i = 0; tl_cli_commands[i]; i++) {
        if (strcmp(argv[1], tl_cli_commands[i]->name) == 0) {
            tl_err err;
            tl_err_clear(&err);
            tl_cli_commands[i]->run(argc - 1, argv + 1, &err);
            if (err.code != TL_OK) {
                fprintf(stderr, "treelab %s: %s\n", argv[1], err.msg);
                if (!tl_err_is_user(err.code) && err.src_file)
                    fprintf(stderr, "  (%s at %s:%d)\n", tl_err_code_name(err.code), err.src_file,
                            err.src_line);
            }
            return tl_cli_exit_status(&err);
        }
    }
    char list[512] = "", near[64];
    for (size_t i = 0; tl_cli_commands[i]; i++)
        snprintf(list + strlen(list), sizeof list - strlen(list), " %s", tl_cli_commands[i]->name);
    fprintf(stderr, "treelab: unknown command '%s'; valid commands:%s", argv[1], list);
    if (tl_suggest(argv[1], list, near, sizeof near))
        fprintf(stderr, "; did you mean '%s'?", near);
    fprintf(stderr, "\n");
    return 1;
}
