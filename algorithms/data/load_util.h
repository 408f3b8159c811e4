/* Private to algorithms/data: what the ARFF and CSV loaders share (file text, level
 * dictionaries, column building and the final checks). */
#ifndef TL_LOAD_UTIL_H
#define TL_LOAD_UTIL_H

#include <stddef.h>
#include <stdint.h>

#include "treelab/tl_dataset.h"

/* A whole file in memory, NUL-terminated, a leading UTF-8 BOM skipped (text points past it):
 * a copy, or for a large file a read-only mapping. */
typedef struct tl_src {
    const char *path;
    char *buf; /* owned allocation, or NULL when mapped */
    char *map; /* the file's mapping (map_len bytes), or NULL */
    size_t map_len;
    const char *text; /* buf, or buf + 3 after a BOM */
    size_t len;       /* bytes from text to the terminating NUL */
} tl_src;

/* Read path into s. TL_EIO naming the file and the system's reason on failure. */
int tl_src_read(tl_src *s, const char *path, unsigned flags, tl_err *err);
void tl_src_free(tl_src *s);

/* Number of '\n' in [p, end) plus one: an upper bound on the records left. */
size_t tl_src_count_lines(const char *p, const char *end);

/* Create an error whose message starts "PATH:LINE:COL: ". Returns code. */
int tl_parse_err_at(tl_err *err, int code, const char *path, size_t line, size_t col,
                    const char *src_file, int src_line, const char *fmt, ...)
    __attribute__((format(printf, 8, 9)));
#define tl_parse_err(err, code, path, line, col, ...)                                              \
    tl_parse_err_at((err), (code), (path), (line), (col), __FILE__, __LINE__, __VA_ARGS__)

/* Parse [s, s + len) as a number, as strtod does in the C locale (number.c). Returns 0 for a
 * finite number (in *out), 1 for a number that is not finite (nan, inf, overflow), -1 for
 * anything else. s must be followed by a character that cannot continue a number (a
 * delimiter, quote, space, newline or NUL). */
int tl_parse_number(const char *s, size_t len, double *out);
/* The plain decimal at p ([+-]digits[.digits][(e|E)[+-]digits], at most 19 significant
 * digits) read from [p, end): its end, with *out bit-identical to strtod's value, or NULL
 * when p starts no such number or its value needs strtod (subnormal, overflow, too close to
 * a rounding boundary). The end is where strtod would stop. */
const char *tl_number_scan(const char *p, const char *end, double *out);

/* A dictionary of level names: code i is names[i]; lookups by hash. */
typedef struct tl_levels {
    char **names;
    size_t n, cap;
    int32_t *slots; /* open addressing: code + 1, 0 for empty */
    size_t n_slots;
} tl_levels;

/* Code of [s, s + len), or -1 when absent. */
int tl_levels_find(const tl_levels *lv, const char *s, size_t len);
/* Code of [s, s + len), adding it when absent. *added says which. -1 on out of memory. */
int tl_levels_add(tl_levels *lv, const char *s, size_t len, int *added);
void tl_levels_free(tl_levels *lv);

/* One column under construction. */
typedef struct tl_colbuild {
    char *name;
    tl_attr_kind kind;
    tl_levels lv;
    double *num;      /* numeric: cap values */
    int *code;        /* nominal: cap codes */
    size_t line, col; /* where the attribute was declared, for messages */
    char *date;       /* an ARFF date attribute's pattern (numeric: milliseconds), or NULL */
} tl_colbuild;

/* A dataset under construction: columns of cap_rows cells, n_rows of them filled. */
typedef struct tl_build {
    const char *path;
    size_t n_cols, cap_cols;
    tl_colbuild *cols;
    tl_levels names; /* the column names, to find duplicates fast in wide files */
    size_t n_rows, cap_rows;
    size_t eof_line, eof_col; /* where "no data rows" is reported */
    unsigned flags;           /* TL_LOAD_* */
    double *weight;           /* cap_rows row weights once a row has one (ARFF {w}), or NULL */
} tl_build;

/* Allocate n_cols empty columns. Returns TL_OK or TL_ENOMEM. */
int tl_build_init(tl_build *b, const char *path, size_t n_cols, tl_err *err);
/* Append an empty column (kind numeric). Returns TL_OK or TL_ENOMEM. */
int tl_build_add_col(tl_build *b, tl_err *err);
/* Set column j's name (copying [s, s + len)) and position; name columns in order 0, 1, ...
 * TL_EPARSE when the name is empty or already used by an earlier column. */
int tl_build_name(tl_build *b, size_t j, const char *s, size_t len, size_t line, size_t col,
                  tl_err *err);
/* Allocate each column's cells (num or code by kind) for cap rows. */
int tl_build_alloc_rows(tl_build *b, size_t cap, tl_err *err);
void tl_build_free(tl_build *b);

/* Set row's weight to w, the rows before it weighing 1. Returns TL_OK or TL_ENOMEM. */
int tl_build_set_weight(tl_build *b, size_t row, double w, tl_err *err);

/* Turn b into a dataset (b is emptied either way): choose the target (named, or the last
 * column), apply o's column options, drop rows whose target is missing (warned), check a
 * classification target has two classes or more. NULL with err set on failure. */
tl_dataset *tl_build_finish(tl_build *b, const char *name, const tl_data_opts *o, tl_err *err);
/* The loaders with options (o->target, o->flags and the column options). */
tl_dataset *tl_arff_load(const char *path, const tl_data_opts *o, tl_err *err);
tl_dataset *tl_csv_load(const char *path, const tl_data_opts *o, tl_err *err);

/* What tl_build_finish does with a tl_data_opts (options.c, options_rows.c). */
typedef struct tl_build_plan {
    size_t *keep; /* the attributes' columns, in order */
    size_t n_keep;
    long fold;   /* column of fold ids (numeric, checked), or -1 */
    long split;  /* column of roles (numeric TL_ROLE_* codes, checked), or -1 */
    long weight; /* column of row weights (numeric, checked, in b->weight), or -1 */
} tl_build_plan;

/* Resolve o's names against b's columns (target t), force the nominal columns, read the
 * fold file into a new column, check fold and split values. TL_OK or an error naming the
 * option and listing the valid columns. */
int tl_build_plan_make(tl_build *b, const tl_data_opts *o, size_t t, tl_build_plan *p, tl_err *err);
void tl_build_plan_free(tl_build_plan *p);
/* Column of name in *out, or TL_EINVAL naming the option and listing the valid columns. */
int tl_build_find_col(const tl_build *b, const char *option, const char *name, size_t *out,
                      tl_err *err);
/* tl_build_plan_make's columns that describe rows: p->fold (a column, or o->fold_file read
 * into a new column), p->split and p->weight, each checked and none the target t. */
int tl_build_plan_rows(tl_build *b, const tl_data_opts *o, size_t t, tl_build_plan *p, tl_err *err);
/* Warnings through tl_log about the columns of a plan made for target t: a numeric target of
 * few integers (classes coded as numbers?), an attribute that looks like a row id, a nominal
 * column of numbers written with decimal commas (hints.c). */
void tl_build_hints(const tl_build *b, const tl_data_opts *o, size_t t, const tl_build_plan *p);
/* Fill d->fold / d->role from the plan's columns (rows already dropped). TL_EINVAL when a
 * fold or a role ends up without rows. */
int tl_build_plan_parts(tl_build *b, const tl_build_plan *p, tl_dataset *d, tl_err *err);

/* Append ", s" (just s when buf is empty) to the NUL-terminated list in buf, cutting the
 * list to fit size: for messages that list the valid names. */
void tl_join_append(char *buf, size_t size, const char *s);

/* The file's base name without its extension (a new string, or NULL). */
char *tl_base_name(const char *path);

#endif
