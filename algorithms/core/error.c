/* tl_err: the single place where errors are created. */
#include "treelab/tl_error.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

int tl_err_set_at(tl_err *err, int code, const char *src_file, int src_line, const char *fmt, ...)
{
    if (!err)
        return code;
    err->code = code;
    err->src_file = src_file;
    err->src_line = src_line;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err->msg, sizeof err->msg, fmt, ap);
    va_end(ap);
    tl_err_suggest(err); /* an unknown name listed with the valid ones */
    return code;
}

int tl_err_prefix(tl_err *err, const char *fmt, ...)
{
    if (!err)
        return TL_OK;
    char head[TL_ERR_MSG_MAX], old[TL_ERR_MSG_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(head, sizeof head, fmt, ap);
    va_end(ap);
    memcpy(old, err->msg, sizeof old);
    snprintf(err->msg, sizeof err->msg, "%s%s", head, old);
    return err->code;
}

void tl_err_clear(tl_err *err)
{
    if (!err)
        return;
    err->code = TL_OK;
    err->msg[0] = '\0';
    err->src_file = NULL;
    err->src_line = 0;
}

const char *tl_err_code_name(int code)
{
    switch (code) {
    case TL_OK: return "ok";
    case TL_EINVAL: return "invalid input";
    case TL_EPARSE: return "parse error";
    case TL_EIO: return "I/O error";
    case TL_EUNSUPPORTED: return "not supported";
    case TL_ENOMEM: return "out of memory";
    case TL_EINTERRUPTED: return "interrupted";
    default: return "internal error";
    }
}

int tl_err_is_user(int code)
{
    return code == TL_EINVAL || code == TL_EPARSE || code == TL_EIO || code == TL_EUNSUPPORTED ||
           code == TL_EINTERRUPTED;
}

#ifdef __SANITIZE_ADDRESS__
/* libconfig 1.5's parser leaks the text of a string token when a syntax error follows it
 * (its grammar frees no token values on error recovery), so a damaged model or config file
 * would fail the sanitizer build for a leak that is not ours. Only its lexer's two
 * allocation sites are silenced: strbuf_append for a string's text, and the lexer itself
 * for an empty one (scanctx_take_string's calloc, whose frame the stack loses).
 * LeakSanitizer calls this hook in every program linked with the library. clang 14 defines
 * no __SANITIZE_ADDRESS__: the fuzz build reads the same list from tests/fuzz/lsan.supp.
 * Default visibility, so that a program linking the static library exports it to the
 * sanitizer runtime (the shared libraries' version script keeps it local). */
__attribute__((visibility("default"))) const char *__lsan_default_suppressions(void);
__attribute__((visibility("default"))) const char *__lsan_default_suppressions(void)
{
    return "leak:strbuf_append\nleak:libconfig_yylex\n";
}
#endif
