/* Error reporting: fallible functions return an int code and fill a tl_err.
 *
 * API: a tl_err is the caller's (on the stack, usually); no function allocates one. Every
 * treelab function that takes `tl_err *err` accepts NULL there: the return value (a code, or
 * NULL) still says whether it failed, only the message is lost. tl_err_code_name returns a
 * static string.
 */
#ifndef TL_ERROR_H
#define TL_ERROR_H

#include <stddef.h>

#include "treelab/tl_api.h"

#ifdef __cplusplus
extern "C" {
#endif

enum {
    TL_OK = 0,
    TL_EINVAL = 1,       /* bad argument, parameter or configuration (user error) */
    TL_EPARSE = 2,       /* malformed input file (user error) */
    TL_EIO = 3,          /* cannot open / read / write a file (user error) */
    TL_EUNSUPPORTED = 4, /* valid input we do not handle (user error) */
    TL_ENOMEM = 5,       /* allocation failed (internal) */
    TL_EINTERNAL = 6,    /* a bug or a numerical failure (internal) */
    TL_EINTERRUPTED = 7  /* stopped on request (Ctrl-C) */
};

#define TL_ERR_MSG_MAX 1024

typedef struct tl_err {
    int code;
    char msg[TL_ERR_MSG_MAX];
    const char *src_file; /* where in treelab's source the error arose */
    int src_line;
} tl_err;

/* The one function that creates errors (a single breakpoint for debugging).
 * Returns code so callers can write `return tl_err_set(...)`. err may be NULL. */
TL_API int tl_err_set_at(tl_err *err, int code, const char *src_file, int src_line, const char *fmt,
                         ...) __attribute__((format(printf, 5, 6)));

/* tl_err_set evaluates to code where the compiler and static analysers see it (they cannot see
 * into tl_err_set_at), so `return tl_err_set(err, TL_ENOMEM, ...)` is known to fail. code is
 * evaluated twice: pass a constant or a variable. */
static inline int tl_err_code_(int code, int set)
{
    (void)set;
    return code;
}
#define tl_err_set(err, code, ...)                                                                 \
    tl_err_code_((code), tl_err_set_at((err), (code), __FILE__, __LINE__, __VA_ARGS__))

/* The name of list (names separated by commas or spaces, up to the first other character)
 * nearest to name by edit distance (case folded), if within 2 and name is not listed
 * itself: copied into buf (size bytes) and returned; NULL otherwise. */
TL_API const char *tl_suggest(const char *name, const char *list, char *buf, size_t size);
/* A message "... unknown KIND 'NAME'; valid ...: A, B, C" (or "; allowed: ...") gains
 * "; did you mean 'B'?" when tl_suggest finds one; tl_err_set_at calls it on every error. */
TL_API void tl_err_suggest(tl_err *err);

/* Prefix an existing message with context ("file.cfg: ..."), keeping the code. */
TL_API int tl_err_prefix(tl_err *err, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Reset to TL_OK with an empty message. */
TL_API void tl_err_clear(tl_err *err);

/* A short name for a code ("parse error", ...). */
TL_API const char *tl_err_code_name(int code);

/* 1 for errors caused by the user's input, 0 for internal ones (CLI exit status 1 vs 2). */
TL_API int tl_err_is_user(int code);

#ifdef __cplusplus
}
#endif

#endif
