/* Log hook: the library reports progress and warnings here, never on stdout. */
#include "treelab/tl_log.h"

#include <stdarg.h>
#include <stdio.h>

static tl_log_fn log_fn;
static void *log_user;

tl_log_fn tl_log_set_hook(tl_log_fn fn, void *user)
{
    tl_log_fn old = log_fn;
    log_fn = fn;
    log_user = user;
    return old;
}

void tl_log(tl_log_level level, const char *fmt, ...)
{
    if (!log_fn)
        return;
    char buf[2048];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    log_fn(level, buf, log_user);
}
