/* Logging through a replaceable hook: library code never prints; the CLI installs a hook.
 *
 * API: the hook and its user pointer stay the caller's and must outlive their installation; a
 * message passed to the hook is valid only during the call. The hook is process-wide.
 */
#ifndef TL_LOG_H
#define TL_LOG_H

#include "treelab/tl_api.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum { TL_LOG_DEBUG, TL_LOG_INFO, TL_LOG_WARN } tl_log_level;

typedef void (*tl_log_fn)(tl_log_level level, const char *msg, void *user);

/* Install a hook (NULL silences everything). Returns the previous one. Not thread-safe:
 * call once at start-up. */
TL_API tl_log_fn tl_log_set_hook(tl_log_fn fn, void *user);

TL_API void tl_log(tl_log_level level, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#define tl_warn(...) tl_log(TL_LOG_WARN, __VA_ARGS__)
#define tl_info(...) tl_log(TL_LOG_INFO, __VA_ARGS__)

#ifdef __cplusplus
}
#endif

#endif
