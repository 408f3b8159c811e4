/* Model files in libconfig syntax: writers with exact doubles, readers by dotted path. */
#include "treelab/tl_store.h"
#include "treelab/tl_params.h"

#include <libconfig.h>
#include <math.h>
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

struct tl_store {
    config_t cfg;
};

static void indent_to(FILE *f, int indent)
{
    for (int i = 0; i < indent; i++)
        fputs("  ", f);
}

/* %.17g round-trips a double; libconfig needs a '.' or exponent to see a float. */
static void put_double_value(FILE *f, double v)
{
    char buf[40];
    if (!isfinite(v)) {
        /* libconfig has no NaN or inf: store a sentinel that reads back as a huge value */
        snprintf(buf, sizeof buf, "%s", isnan(v) ? "1.0e308" : (v > 0 ? "1.7e308" : "-1.7e308"));
    } else {
        snprintf(buf, sizeof buf, "%.17g", v);
        if (!strpbrk(buf, ".eE"))
            strcat(buf, ".0");
    }
    fputs(buf, f);
}

static void put_string_value(FILE *f, const char *s)
{
    fputc('"', f);
    for (; *s; s++) {
        switch (*s) {
        case '"': fputs("\\\"", f); break;
        case '\\': fputs("\\\\", f); break;
        case '\n': fputs("\\n", f); break;
        case '\t': fputs("\\t", f); break;
        case '\r': fputs("\\r", f); break;
        default: fputc(*s, f);
        }
    }
    fputc('"', f);
}

void tl_store_put_int(FILE *f, int indent, const char *name, long v)
{
    indent_to(f, indent);
    fprintf(f, "%s = %ld%s;\n", name, v, (v > 2147483647L || v < -2147483647L) ? "L" : "");
}

void tl_store_put_double(FILE *f, int indent, const char *name, double v)
{
    indent_to(f, indent);
    fprintf(f, "%s = ", name);
    put_double_value(f, v);
    fputs(";\n", f);
}

void tl_store_put_string(FILE *f, int indent, const char *name, const char *v)
{
    indent_to(f, indent);
    fprintf(f, "%s = ", name);
    put_string_value(f, v ? v : "");
    fputs(";\n", f);
}

/* Arrays may be empty; libconfig reads `[]` as an empty array. Long arrays wrap lines. */
void tl_store_put_doubles(FILE *f, int indent, const char *name, const double *v, size_t n)
{
    indent_to(f, indent);
    fprintf(f, "%s = [", name);
    for (size_t i = 0; i < n; i++) {
        if (i)
            fputs(i % 8 ? ", " : ",\n    ", f);
        put_double_value(f, v[i]);
    }
    fputs("];\n", f);
}

void tl_store_put_ints(FILE *f, int indent, const char *name, const long *v, size_t n)
{
    /* libconfig reads a literal beyond 32 bits as int64 only with an L suffix, and an array
     * must not mix the two types: one wide element makes every element wide. */
    const char *suffix = "";
    for (size_t i = 0; i < n; i++)
        if (v[i] > 2147483647L || v[i] < -2147483647L)
            suffix = "L";
    indent_to(f, indent);
    fprintf(f, "%s = [", name);
    for (size_t i = 0; i < n; i++)
        fprintf(f, "%s%ld%s", i ? (i % 16 ? ", " : ",\n    ") : "", v[i], suffix);
    fputs("];\n", f);
}

int tl_store_check_int_literals(const char *path, tl_err *err)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return TL_OK; /* the reader reports it */
    char tok[64];
    size_t len = 0;
    int line = 1, col = 0, tok_line = 0, tok_col = 0, prev = '\n', c, rc = TL_OK;
    enum { CODE, STRING, LINE_COMMENT, BLOCK_COMMENT } st = CODE;
    while (!rc && (c = fgetc(f)) != EOF) {
        col++;
        if (st == STRING) {
            if (c == '\\' && fgetc(f) != EOF)
                col++;
            else if (c == '"')
                st = CODE;
        } else if (st == LINE_COMMENT) {
            st = c == '\n' ? CODE : st;
        } else if (st == BLOCK_COMMENT) {
            st = prev == '*' && c == '/' ? CODE : st;
        } else if (isalnum(c) || c == '.' || c == '_' || c == '+' || c == '-') {
            if (!len)
                tok_line = line, tok_col = col;
            if (len + 1 < sizeof tok)
                tok[len++] = (char)c;
        } else {
            tok[len] = '\0';
            /* a decimal or hex integer without the L suffix (names start with a letter) */
            char *end;
            if (len && (isdigit((unsigned char)tok[0]) ||
                        ((tok[0] == '-' || tok[0] == '+') && isdigit((unsigned char)tok[1])))) {
                errno = 0;
                long long v = strtoll(tok, &end, 0);
                if (*end == '\0' && (errno == ERANGE || v > 2147483647LL || v < -2147483648LL))
                    rc = tl_err_set(err, TL_EPARSE,
                                    "%s:%d:%d: the integer %s does not fit 32 "
                                    "bits; write it with an L suffix (%sL) if it is meant",
                                    path, tok_line, tok_col, tok, tok);
            }
            len = 0;
            if (c == '"')
                st = STRING;
            else if (c == '#' || (c == '/' && prev == '/'))
                st = LINE_COMMENT;
            else if (c == '*' && prev == '/')
                st = BLOCK_COMMENT;
        }
        if (c == '\n')
            line++, col = 0;
        prev = c;
    }
    fclose(f);
    return rc;
}

void tl_store_put_int_array(FILE *f, int indent, const char *name, const int *v, size_t n)
{
    indent_to(f, indent);
    fprintf(f, "%s = [", name);
    for (size_t i = 0; i < n; i++)
        fprintf(f, "%s%d", i ? (i % 16 ? ", " : ",\n    ") : "", v[i]);
    fputs("];\n", f);
}

void tl_store_put_strings(FILE *f, int indent, const char *name, const char *const *v, size_t n)
{
    indent_to(f, indent);
    fprintf(f, "%s = [", name);
    for (size_t i = 0; i < n; i++) {
        if (i)
            fputs(", ", f);
        put_string_value(f, v[i]);
    }
    fputs("];\n", f);
}

void tl_store_open_group(FILE *f, int indent, const char *name)
{
    indent_to(f, indent);
    fprintf(f, "%s = {\n", name);
}

void tl_store_close_group(FILE *f, int indent)
{
    indent_to(f, indent);
    fputs("};\n", f);
}

/* Line n (1-based) of path, trimmed and cut to 80 bytes, into buf. Returns 1 when it
 * exists. */
static int line_text(const char *path, int n, char *buf, size_t size)
{
    FILE *f = fopen(path, "r");
    char line[4096];
    int i = 0;
    buf[0] = '\0';
    while (f && i < n && fgets(line, sizeof line, f)) {
        int whole = strchr(line, '\n') != NULL;
        if (++i == n) {
            char *t = line + strspn(line, " \t");
            size_t len = strcspn(t, "\r\n");
            while (len && (t[len - 1] == ' ' || t[len - 1] == '\t'))
                len--;
            snprintf(buf, size, "%.*s", (int)(len < 80 ? len : 80), t);
        }
        /* the rest of a line longer than the buffer is not another line */
        while (!whole && fgets(line, sizeof line, f) && !strchr(line, '\n'))
            ;
    }
    if (f)
        fclose(f);
    return i == n;
}

/* At the end of path, the innermost bracket or string left open, as a hint into buf (empty
 * when all are closed). Strings and comments are skipped as libconfig does. */
static void unclosed(const char *path, char *buf, size_t size)
{
    FILE *f = fopen(path, "r");
    char open[64];
    int at[64], line = 1, c, prev = 0, str_line = 0;
    size_t depth = 0;
    enum { CODE, STRING, LINE_COMMENT, BLOCK_COMMENT } st = CODE;
    buf[0] = '\0';
    while (f && (c = fgetc(f)) != EOF) {
        if (st == STRING) {
            if (c == '\\') { /* the escaped character is part of the string */
                if ((c = fgetc(f)) == EOF)
                    break;
                line += c == '\n';
                c = 0;
            } else if (c == '"') {
                st = CODE;
            }
        } else if (st == LINE_COMMENT) {
            st = c == '\n' ? CODE : st;
        } else if (st == BLOCK_COMMENT) {
            st = prev == '*' && c == '/' ? CODE : st;
        } else if (c == '"') {
            st = STRING, str_line = line;
        } else if (c == '#' || (prev == '/' && c == '/')) {
            st = LINE_COMMENT;
        } else if (prev == '/' && c == '*') {
            st = BLOCK_COMMENT, c = 0; /* so that "/" "*" "/" does not close it */
        } else if (c == '(' || c == '[' || c == '{') {
            if (depth < 64)
                open[depth] = (char)c, at[depth] = line;
            depth++;
        } else if ((c == ')' || c == ']' || c == '}') && depth) {
            depth--;
        }
        line += c == '\n';
        prev = c;
    }
    if (f)
        fclose(f);
    if (st == STRING)
        snprintf(buf, size, "; the string opened on line %d is not closed", str_line);
    else if (st == BLOCK_COMMENT)
        snprintf(buf, size, "; a /* comment is not closed");
    else if (depth && depth <= 64)
        snprintf(buf, size, "; the '%c' opened on line %d is not closed", open[depth - 1],
                 at[depth - 1]);
}

/* What a file libconfig cannot parse seems to hold instead: "ARFF data" when its first line
 * that is not blank is a '%' comment or @relation, "CSV data" when that line has a comma, a
 * semicolon or a tab and nothing of libconfig's (= : { ( [); NULL otherwise. */
static const char *data_kind(const char *path)
{
    FILE *f = fopen(path, "r");
    char line[512];
    const char *kind = NULL;
    while (f && fgets(line, sizeof line, f)) {
        const char *p = line + strspn(line, " \t\r\n");
        if (!strncmp(p, "\xEF\xBB\xBF", 3)) /* a byte order mark */
            p += 3;
        if (!*p)
            continue;
        if (*p == '%' || !strncasecmp(p, "@relation", 9))
            kind = "ARFF data";
        else if (strpbrk(p, ",;\t") && !strpbrk(p, "=:{(["))
            kind = "CSV data";
        break;
    }
    if (f)
        fclose(f);
    return kind;
}

/* libconfig says only "syntax error" and a line: add that line's text and what to look for
 * (or what the file seems to be instead of what, "the model file"). */
static int syntax_error(const config_t *cfg, const char *path, const char *what, tl_err *err)
{
    const char *file = config_error_file(cfg) ? config_error_file(cfg) : path;
    int line = config_error_line(cfg);
    char cur[96], where[160], hint[160] = "";
    if (line > 0 && line_text(file, line, cur, sizeof cur) && cur[0]) {
        snprintf(where, sizeof where, " at `%s`", cur);
    } else {
        snprintf(where, sizeof where, " at the end of the file");
        unclosed(file, hint, sizeof hint);
    }
    const char *kind = data_kind(file);
    if (kind) /* the syntax error says nothing useful then: say what was expected instead */
        return tl_err_set(
            err, TL_EPARSE, "%s: this looks like %s, not %s: expected %s", file, kind, what,
            strstr(what, "model") ? "a model file written by `treelab fit DATA --algo NAME -o "
                                    "MODEL` (libconfig text starting `format = ...;`)"
                                  : "libconfig settings (`name = \"...\"; datasets = ( ... ); "
                                    "models = ( ... );`, see the README's Experiment files)");
    if (!hint[0] && !strcmp(config_error_text(cfg), "syntax error"))
        snprintf(hint, sizeof hint,
                 "; expected `name = value;` settings, strings in double "
                 "quotes, lists ( ), arrays [ ] and groups { } closed in order");
    return tl_err_set(err, TL_EPARSE, "%s:%d: %s%s%s", file, line, config_error_text(cfg), where,
                      hint);
}

int tl_store_parse(config_t *cfg, const char *path, const char *what, tl_err *err)
{
    struct stat sb;
    /* fopen succeeds on a directory and libconfig then says only "file I/O error" */
    if (stat(path, &sb) != 0 || access(path, R_OK) != 0)
        return tl_err_set(err, TL_EIO, "%s: cannot read %s (%s)", path, what, strerror(errno));
    if (!S_ISREG(sb.st_mode))
        return tl_err_set(err, TL_EIO, "%s: cannot read %s (%s)", path, what,
                          S_ISDIR(sb.st_mode) ? "it is a directory" : "not a regular file");
    int rc = tl_store_check_int_literals(path, err);
    if (rc)
        return rc;
    errno = 0;
    if (config_read_file(cfg, path) == CONFIG_TRUE)
        return TL_OK;
    if (config_error_type(cfg) == CONFIG_ERR_FILE_IO)
        return tl_err_set(err, TL_EIO, "%s: cannot read %s (%s)", path, what,
                          errno ? strerror(errno) : "I/O error");
    return syntax_error(cfg, path, what, err);
}

tl_store *tl_store_read(const char *path, tl_err *err)
{
    tl_store *s = malloc(sizeof *s);
    if (!s) {
        tl_err_set(err, TL_ENOMEM, "out of memory");
        return NULL;
    }
    config_init(&s->cfg);
    config_set_options(&s->cfg, CONFIG_OPTION_AUTOCONVERT);
    if (tl_store_parse(&s->cfg, path, "the model file", err)) {
        config_destroy(&s->cfg);
        free(s);
        return NULL;
    }
    return s;
}

void tl_store_free(tl_store *s)
{
    if (!s)
        return;
    config_destroy(&s->cfg);
    free(s);
}

static config_setting_t *lookup(const tl_store *s, const char *path, tl_err *err)
{
    config_setting_t *st = config_lookup((config_t *)&s->cfg, path);
    if (!st)
        tl_err_set(err, TL_EPARSE, "model file: missing setting '%s'", path);
    return st;
}

static int bad_type(tl_err *err, const char *path, const char *want)
{
    return tl_err_set(err, TL_EPARSE, "model file: setting '%s' should be %s", path, want);
}

int tl_store_has(const tl_store *s, const char *path)
{
    return config_lookup((config_t *)&s->cfg, path) != NULL;
}

int tl_store_int(const tl_store *s, const char *path, long *out, tl_err *err)
{
    config_setting_t *st = lookup(s, path, err);
    if (!st)
        return TL_EPARSE;
    int t = config_setting_type(st);
    if (t == CONFIG_TYPE_INT)
        *out = config_setting_get_int(st);
    else if (t == CONFIG_TYPE_INT64)
        *out = (long)config_setting_get_int64(st);
    else if (t == CONFIG_TYPE_BOOL)
        *out = config_setting_get_bool(st);
    else
        return bad_type(err, path, "an integer");
    return TL_OK;
}

static int number_of(const config_setting_t *st, double *out)
{
    switch (config_setting_type(st)) {
    case CONFIG_TYPE_FLOAT: *out = config_setting_get_float(st); return 1;
    case CONFIG_TYPE_INT: *out = config_setting_get_int(st); return 1;
    case CONFIG_TYPE_INT64: *out = (double)config_setting_get_int64(st); return 1;
    default: return 0;
    }
}

int tl_store_double(const tl_store *s, const char *path, double *out, tl_err *err)
{
    config_setting_t *st = lookup(s, path, err);
    if (!st)
        return TL_EPARSE;
    if (!number_of(st, out))
        return bad_type(err, path, "a number");
    return TL_OK;
}

int tl_store_string(const tl_store *s, const char *path, const char **out, tl_err *err)
{
    config_setting_t *st = lookup(s, path, err);
    if (!st)
        return TL_EPARSE;
    const char *v = config_setting_get_string(st);
    if (!v)
        return bad_type(err, path, "a string");
    *out = v;
    return TL_OK;
}

static config_setting_t *aggregate(const tl_store *s, const char *path, tl_err *err)
{
    config_setting_t *st = lookup(s, path, err);
    if (!st)
        return NULL;
    if (!config_setting_is_aggregate(st)) {
        bad_type(err, path, "a list or an array");
        return NULL;
    }
    return st;
}

int tl_store_len(const tl_store *s, const char *path, size_t *out, tl_err *err)
{
    config_setting_t *st = aggregate(s, path, err);
    if (!st)
        return TL_EPARSE;
    *out = (size_t)config_setting_length(st);
    return TL_OK;
}

static config_setting_t *sized(const tl_store *s, const char *path, size_t n, tl_err *err)
{
    config_setting_t *st = aggregate(s, path, err);
    if (st && (size_t)config_setting_length(st) != n) {
        tl_err_set(err, TL_EPARSE, "model file: '%s' has %d elements, expected %zu", path,
                   config_setting_length(st), n);
        return NULL;
    }
    return st;
}

int tl_store_doubles(const tl_store *s, const char *path, double *out, size_t n, tl_err *err)
{
    config_setting_t *st = sized(s, path, n, err);
    if (!st)
        return TL_EPARSE;
    for (size_t i = 0; i < n; i++)
        if (!number_of(config_setting_get_elem(st, (unsigned)i), &out[i]))
            return bad_type(err, path, "an array of numbers");
    return TL_OK;
}

int tl_store_ints(const tl_store *s, const char *path, long *out, size_t n, tl_err *err)
{
    config_setting_t *st = sized(s, path, n, err);
    if (!st)
        return TL_EPARSE;
    for (size_t i = 0; i < n; i++) {
        config_setting_t *e = config_setting_get_elem(st, (unsigned)i);
        int t = config_setting_type(e);
        if (t == CONFIG_TYPE_INT)
            out[i] = config_setting_get_int(e);
        else if (t == CONFIG_TYPE_INT64)
            out[i] = (long)config_setting_get_int64(e);
        else
            return bad_type(err, path, "an array of integers");
    }
    return TL_OK;
}

int tl_store_int_array(const tl_store *s, const char *path, int *out, size_t n, tl_err *err)
{
    config_setting_t *st = sized(s, path, n, err);
    if (!st)
        return TL_EPARSE;
    for (size_t i = 0; i < n; i++) {
        config_setting_t *e = config_setting_get_elem(st, (unsigned)i);
        if (config_setting_type(e) != CONFIG_TYPE_INT)
            return bad_type(err, path, "an array of integers");
        out[i] = config_setting_get_int(e);
    }
    return TL_OK;
}

int tl_store_string_at(const tl_store *s, const char *path, size_t i, const char **out, tl_err *err)
{
    config_setting_t *st = aggregate(s, path, err);
    if (!st)
        return TL_EPARSE;
    if (i >= (size_t)config_setting_length(st))
        return tl_err_set(err, TL_EPARSE, "model file: '%s' has no element %zu", path, i);
    const char *v = config_setting_get_string_elem(st, (unsigned)i);
    if (!v)
        return bad_type(err, path, "an array of strings");
    *out = v;
    return TL_OK;
}

/* The string settings of g into out, a group inside as SLOT (its `name`) and SLOT.PARAM. */
static int read_params(config_setting_t *g, const char *slot, tl_params *out, tl_err *err)
{
    for (int i = 0; i < config_setting_length(g); i++) {
        config_setting_t *e = config_setting_get_elem(g, (unsigned)i);
        const char *name = config_setting_name(e);
        if (!slot && config_setting_is_group(e)) {
            int rc = read_params(e, name, out, err);
            if (rc)
                return rc;
            continue;
        }
        const char *v = config_setting_get_string(e);
        if (!v)
            return bad_type(err, name, "a string");
        char key[256];
        if (!slot)
            snprintf(key, sizeof key, "%s", name);
        else if (!strcmp(name, "name"))
            snprintf(key, sizeof key, "%s", slot);
        else
            snprintf(key, sizeof key, "%s.%s", slot, name);
        if (tl_params_set(out, key, v, err))
            return err ? err->code : TL_ENOMEM;
    }
    return TL_OK;
}

int tl_store_params(const tl_store *s, const char *group, tl_params *out, tl_err *err)
{
    tl_params_init(out);
    config_setting_t *g = config_lookup((config_t *)&s->cfg, group);
    if (!g)
        return TL_OK;
    if (!config_setting_is_group(g))
        return bad_type(err, group, "a group");
    return read_params(g, NULL, out, err);
}
