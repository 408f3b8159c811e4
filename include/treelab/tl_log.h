/* Logging through a replaceable hook: library code never prints; the CLI installs a hook. */
#ifndef TL_LOG_H
#define TL_LOG_H

typedef enum { TL_LOG_DEBUG, TL_LOG_INFO, TL_LOG_WARN } tl_log_level;

typedef void (*tl_log_fn)(tl_log_level level, const char *msg, void *user);

/* Install a hook (NULL silences everything). Returns the previous one. Not thread-safe:
 * call once at start-up. */
tl_log_fn tl_log_set_hook(tl_log_fn fn, void *user);

void tl_log(tl_log_level level, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#define tl_warn(...) tl_log(TL_LOG_WARN, __VA_ARGS__)
#define tl_info(...) tl_log(TL_LOG_INFO, __VA_ARGS__)

#endif
