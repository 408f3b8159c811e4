/* Loader plumbing: whole-file reading, line counting, positioned parse errors. */
#include "load_util.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "treelab/tl_utf8.h"

/* Map a large regular file instead of copying it: the pages come from the page cache as
 * they are, with no buffer to clear and fill. The text must end in a NUL, which the bytes
 * past the end of a file in its last page are; a file that fills its last page is read. A
 * file truncated by another process while it is being loaded would fault: only files of
 * TL_SRC_MAP_MIN bytes or more, whose copy costs more than the risk, are mapped. */
#define TL_SRC_MAP_MIN ((off_t)1 << 20)
static char *map_file(FILE *f, const struct stat *st)
{
    long page = sysconf(_SC_PAGESIZE);
    if (!S_ISREG(st->st_mode) || st->st_size < TL_SRC_MAP_MIN || page <= 0 ||
        st->st_size % page == 0 || (uintmax_t)st->st_size >= SIZE_MAX / 2)
        return NULL;
    char *m = mmap(NULL, (size_t)st->st_size, PROT_READ, MAP_PRIVATE, fileno(f), 0);
    if (m == MAP_FAILED)
        return NULL;
    if (m[st->st_size] != '\0') { /* the file grew since fstat: read it instead */
        munmap(m, (size_t)st->st_size);
        return NULL;
    }
    posix_madvise(m, (size_t)st->st_size, POSIX_MADV_SEQUENTIAL);
    return m;
}

/* The whole stream into a new buffer (NUL-terminated); cap is the first capacity. */
static int read_whole(FILE *f, const char *path, size_t cap, char **out, size_t *out_len,
                      tl_err *err)
{
    size_t len = 0;
    char *buf = malloc(cap);
    while (buf) {
        if (cap - len < 2) {
            char *nb = cap > SIZE_MAX / 2 ? NULL : realloc(buf, cap * 2);
            if (!nb) {
                free(buf);
                buf = NULL;
                break;
            }
            buf = nb;
            cap *= 2;
        }
        size_t got = fread(buf + len, 1, cap - len - 1, f);
        len += got;
        if (got == 0)
            break;
    }
    if (!buf)
        return tl_err_set(err, TL_ENOMEM, "%s: out of memory reading the file", path);
    if (ferror(f)) {
        free(buf);
        return tl_err_set(err, TL_EIO, "%s: cannot read: %s", path, strerror(errno));
    }
    buf[len] = '\0';
    *out = buf;
    *out_len = len;
    return TL_OK;
}

/* Line and column (in bytes, from 1) of text[at]. */
static void position(const char *text, size_t at, size_t *line, size_t *col)
{
    const char *p = text + at, *bol = p;
    *line = tl_src_count_lines(text, p);
    while (bol > text && bol[-1] != '\n' && bol[-1] != '\r')
        bol--;
    *col = (size_t)(p - bol) + 1;
}

/* The text as UTF-8: checked, or converted when the caller declared Latin-1. */
static int check_encoding(tl_src *s, unsigned flags, tl_err *err)
{
    long bad = tl_utf8_invalid(s->text, s->len);
    if (bad < 0)
        return TL_OK;
    if (!(flags & TL_LOAD_LATIN1)) {
        size_t line, col;
        position(s->text, (size_t)bad, &line, &col);
        return tl_parse_err(err, TL_EPARSE, s->path, line, col,
                            "byte 0x%02X is not UTF-8: treelab reads UTF-8 text; for a "
                            "Latin-1 (ISO 8859-1) file give --encoding latin1",
                            (unsigned char)s->text[bad]);
    }
    size_t len;
    char *text = tl_utf8_from_latin1(s->text, s->len, &len);
    if (!text)
        return tl_err_set(err, TL_ENOMEM, "%s: out of memory reading the file", s->path);
    const char *path = s->path;
    tl_src_free(s);
    s->path = path, s->buf = text, s->text = text, s->len = len;
    return TL_OK;
}

int tl_src_read(tl_src *s, const char *path, unsigned flags, tl_err *err)
{
    memset(s, 0, sizeof *s);
    s->path = path;
    FILE *f = fopen(path, "rb");
    if (!f)
        return tl_err_set(err, TL_EIO, "%s: cannot open: %s", path, strerror(errno));
    size_t cap = 1 << 16, len = 0;
    struct stat st;
    char *buf = NULL;
    int rc = TL_OK;
    /* Size the buffer from fstat when we can (one allocation for big files); read_whole
     * still grows it for pipes and files that grow meanwhile. */
    int have_st = fstat(fileno(f), &st) == 0;
    if (have_st && S_ISREG(st.st_mode) && (uintmax_t)st.st_size < SIZE_MAX / 2)
        cap = (size_t)st.st_size + 2;
    if (have_st && (s->map = map_file(f, &st)) != NULL) {
        buf = s->map;
        len = s->map_len = (size_t)st.st_size;
    } else {
        rc = read_whole(f, path, cap, &buf, &len, err);
        s->buf = buf;
    }
    fclose(f);
    if (rc)
        return rc;
    s->text = buf;
    s->len = len;
    if (len >= 3 && (unsigned char)buf[0] == 0xEF && (unsigned char)buf[1] == 0xBB &&
        (unsigned char)buf[2] == 0xBF) {
        s->text += 3;
        s->len -= 3;
    }
    /* Names and levels are C strings: a NUL byte would cut a value short and make two
     * different values one level. Text files hold none; UTF-16 files hold many. */
    const char *nul = memchr(s->text, '\0', s->len);
    if (nul) {
        size_t line = tl_src_count_lines(s->text, nul);
        const char *bol = nul;
        while (bol > s->text && bol[-1] != '\n' && bol[-1] != '\r')
            bol--;
        size_t col = (size_t)(nul - bol) + 1;
        tl_src_free(s);
        return tl_parse_err(err, TL_EPARSE, path, line, col,
                            "a NUL byte: expected text (is the file binary, or UTF-16?)");
    }
    if ((rc = check_encoding(s, flags, err)))
        tl_src_free(s);
    return rc;
}

void tl_src_free(tl_src *s)
{
    if (!s)
        return;
    if (s->map)
        munmap(s->map, s->map_len);
    free(s->buf);
    memset(s, 0, sizeof *s);
}

size_t tl_src_count_lines(const char *p, const char *end)
{
    /* Every line end the parsers accept counts: "\n", "\r\n" and a lone "\r" (old Mac
     * files), so the count is an upper bound on the records whatever the line endings. */
    size_t n = 1;
    if (!memchr(p, '\r', (size_t)(end - p))) { /* the usual case: memchr runs a word at a time */
        for (; (p = memchr(p, '\n', (size_t)(end - p))) != NULL; p++)
            n++;
        return n;
    }
    for (; p < end; p++)
        if (*p == '\n' || (*p == '\r' && (p + 1 == end || p[1] != '\n')))
            n++;
    return n;
}

int tl_parse_err_at(tl_err *err, int code, const char *path, size_t line, size_t col,
                    const char *src_file, int src_line, const char *fmt, ...)
{
    char msg[TL_ERR_MSG_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return tl_err_set_at(err, code, src_file, src_line, "%s:%zu:%zu: %s", path, line, col, msg);
}

void tl_join_append(char *buf, size_t size, const char *s)
{
    size_t used = strlen(buf);
    if (used + 1 < size)
        snprintf(buf + used, size - used, "%s%s", used ? ", " : "", s);
}

char *tl_base_name(const char *path)
{
    const char *b = strrchr(path, '/');
    b = b ? b + 1 : path;
    const char *dot = strrchr(b, '.');
    size_t n = dot && dot != b ? (size_t)(dot - b) : strlen(b);
    char *r = malloc(n + 1);
    if (r) {
        memcpy(r, b, n);
        r[n] = '\0';
    }
    return r;
}
