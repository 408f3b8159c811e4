/* Model and experiment files parsed with libconfig: integer literals checked first (libconfig
 * wraps them silently), syntax errors reported with the file, line and the text there. */
#include "treelab/tl_store.h"

#include <libconfig.h>
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "treelab/tl_utf8.h"

/* The integer literals of text[0..n) that do not fit 32 bits (libconfig wraps them). */
static int check_int_literals(const char *path, const char *text, size_t n, tl_err *err)
{
    char tok[64];
    size_t len = 0;
    int line = 1, col = 0, tok_line = 0, tok_col = 0, prev = '\n', c, rc = TL_OK;
    enum { CODE, STRING, LINE_COMMENT, BLOCK_COMMENT } st = CODE;
    for (size_t i = 0; !rc && i < n; i++) {
        c = (unsigned char)text[i];
        col++;
        if (st == STRING) {
            /* a string's plain text at once: packed arrays are strings of megabytes */
            size_t j = i + strcspn(text + i, "\"\\\n");
            if (j >= n)
                break;
            col += (int)(j - i), i = j, c = (unsigned char)text[i];
            if (c == '\\' && i + 1 < n)
                i++, col++;
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
            /* a decimal or hex integer without the L suffix (names start with a letter); one
             * of fewer than 10 characters fits (999999999, 0xFFFFFFF), so most are not parsed */
            char *end;
            if (len >= 10 && (isdigit((unsigned char)tok[0]) || ((tok[0] == '-' || tok[0] == '+') &&
                                                                 isdigit((unsigned char)tok[1])))) {
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
    return rc;
}

/* The whole file as a NUL-terminated string of *n bytes (free it), or NULL when it cannot be
 * read (the reader reports it) or, with *oom set, when memory ran out. */
static char *slurp_file(const char *path, size_t *n, int *oom)
{
    *oom = 0;
    FILE *f = fopen(path, "rb");
    char *buf = NULL;
    size_t cap = 0, len = 0;
    while (f) {
        if (cap - len < (1u << 16)) {
            size_t ncap = cap ? 2 * cap : (1u << 20);
            char *nb = realloc(buf, ncap + 1);
            if (!nb) {
                free(buf), buf = NULL;
                *oom = 1;
                break;
            }
            buf = nb, cap = ncap;
        }
        size_t got = fread(buf + len, 1, cap - len, f);
        len += got;
        if (!got) {
            buf[len] = '\0';
            break;
        }
    }
    if (f && ferror(f))
        free(buf), buf = NULL;
    if (f)
        fclose(f);
    *n = len;
    return buf;
}

int tl_store_check_int_literals(const char *path, tl_err *err)
{
    size_t n;
    int oom;
    char *text = slurp_file(path, &n, &oom);
    int rc = text  ? check_int_literals(path, text, n, err)
             : oom ? tl_err_set(err, TL_ENOMEM, "%s: out of memory reading it", path)
                   : TL_OK;
    free(text);
    return rc;
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
                                    "models = ( ... );`, see docs/experiments.md)");
    if (!hint[0] && !strcmp(config_error_text(cfg), "syntax error"))
        snprintf(hint, sizeof hint,
                 "; expected `name = value;` settings, strings in double "
                 "quotes, lists ( ), arrays [ ] and groups { } closed in order");
    return tl_err_set(err, TL_EPARSE, "%s:%d: %s%s%s", file, line, config_error_text(cfg), where,
                      hint);
}

/* The file's bytes as UTF-8 (libconfig takes any byte into a string, which then reaches
 * metrics.json and the reports), read in blocks: a sequence cut by a block's end is carried
 * into the next. */
static int check_utf8(const char *path, const char *what, tl_err *err)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return TL_OK; /* the reader reports it */
    char buf[1 << 14];
    size_t keep = 0, line = 1, col = 1;
    int rc = TL_OK;
    for (;;) {
        size_t n = keep + fread(buf + keep, 1, sizeof buf - keep, f);
        int last = n < sizeof buf;
        long bad = tl_utf8_invalid(buf, n);
        size_t good = bad < 0 ? n : (size_t)bad;
        /* the bytes before the bad one only count lines and columns */
        for (size_t i = 0; i < good; i++)
            buf[i] == '\n' ? (line++, col = 1) : col++;
        if (bad >= 0 && (last || n - good > 3)) {
            rc = tl_err_set(err, TL_EPARSE,
                            "%s:%zu:%zu: byte 0x%02X is not UTF-8: %s must be UTF-8 text", path,
                            line, col, (unsigned char)buf[good], what);
            break;
        }
        if (last)
            break;
        keep = n - good; /* 0, or the start of a sequence the block cut */
        memmove(buf, buf + good, keep);
    }
    fclose(f);
    return rc;
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
    /* read once: libconfig reads a file a character at a time, a string in one pass (a
     * 16 MB forest of 500 trees parses in about two thirds of the time) */
    size_t n;
    int oom;
    char *text = slurp_file(path, &n, &oom);
    int rc = text  ? check_int_literals(path, text, n, err)
             : oom ? tl_err_set(err, TL_ENOMEM, "%s: out of memory reading %s", path, what)
                   : TL_OK;
    if (!rc)
        rc = check_utf8(path, what, err);
    if (rc) {
        free(text);
        return rc;
    }
    errno = 0;
    /* a NUL byte would end the string early: such a file goes through libconfig's reader */
    int ok = text && !memchr(text, '\0', n) ? config_read_string(cfg, text)
                                            : config_read_file(cfg, path);
    free(text);
    if (ok == CONFIG_TRUE)
        return TL_OK;
    if (config_error_type(cfg) == CONFIG_ERR_FILE_IO)
        return tl_err_set(err, TL_EIO, "%s: cannot read %s (%s)", path, what,
                          errno ? strerror(errno) : "I/O error");
    return syntax_error(cfg, path, what, err);
}
