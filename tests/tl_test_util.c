/* Helpers shared by the cmocka tests. */
#include "tl_test_util.h"

#include <gsl/gsl_errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

const char *tl_test_path(const char *rel)
{
    static char buf[4096];
    snprintf(buf, sizeof buf, "%s/%s", TL_SOURCE_DIR, rel);
    return buf;
}

tl_dataset *tl_test_load(const char *rel, const char *target)
{
    tl_err err;
    tl_err_clear(&err);
    gsl_set_error_handler_off();
    tl_dataset *d = tl_dataset_load(tl_test_path(rel), target, &err);
    if (!d)
        fail_msg("loading %s: %s", rel, err.msg);
    return d;
}

static void slurp(FILE *f, char *buf, size_t size)
{
    if (!buf || !size)
        return;
    size_t n = fread(buf, 1, size - 1, f);
    buf[n] = '\0';
}

int tl_test_cli(const char *args, char *out, size_t out_size, char *errbuf, size_t err_size)
{
    char outp[] = "/tmp/tl_cli_outXXXXXX", errp[] = "/tmp/tl_cli_errXXXXXX";
    int fo = mkstemp(outp), fe = mkstemp(errp);
    if (fo < 0 || fe < 0)
        fail_msg("mkstemp failed");
    close(fo);
    close(fe);
    char cmd[8192];
    snprintf(cmd, sizeof cmd, "cd '%s' && '%s' %s >'%s' 2>'%s' </dev/null", TL_SOURCE_DIR, TL_CLI,
             args, outp, errp);
    int rc = system(cmd);
    int status = WIFEXITED(rc) ? WEXITSTATUS(rc) : 128;
    FILE *f = fopen(outp, "r");
    if (f) {
        slurp(f, out, out_size);
        fclose(f);
    }
    f = fopen(errp, "r");
    if (f) {
        slurp(f, errbuf, err_size);
        fclose(f);
    }
    remove(outp);
    remove(errp);
    return status;
}

const char *tl_test_tmpfile(const char *suffix, const char *text)
{
    static char path[256];
    static unsigned counter;
    snprintf(path, sizeof path, "/tmp/tl_test_%ld_%u%s", (long)getpid(), counter++, suffix);
    FILE *f = fopen(path, "wb");
    if (!f)
        fail_msg("cannot write %s", path);
    fputs(text, f);
    fclose(f);
    return path;
}
