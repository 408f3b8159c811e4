/* "Did you mean": the listed name nearest to an unknown one, by edit distance. */
#include "treelab/tl_error.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

#define NAME_MAX_LEN 64

/* Levenshtein distance of a[0..na) and b[0..nb), case folded (both at most NAME_MAX_LEN). */
static size_t distance(const char *a, size_t na, const char *b, size_t nb)
{
    size_t row[NAME_MAX_LEN + 1];
    for (size_t j = 0; j <= nb; j++)
        row[j] = j;
    for (size_t i = 1; i <= na; i++) {
        size_t diag = row[0];
        row[0] = i;
        for (size_t j = 1; j <= nb; j++) {
            size_t up = row[j];
            int same = tolower((unsigned char)a[i - 1]) == tolower((unsigned char)b[j - 1]);
            size_t best = diag + !same;
            if (up + 1 < best)
                best = up + 1;
            if (row[j - 1] + 1 < best)
                best = row[j - 1] + 1;
            row[j] = best;
            diag = up;
        }
    }
    return row[nb];
}

static int name_char(char c)
{
    return isalnum((unsigned char)c) || c == '_' || c == '-' || c == '.';
}

const char *tl_suggest(const char *name, const char *list, char *buf, size_t size)
{
    size_t nn = strlen(name), best = 3;
    if (!nn || nn > NAME_MAX_LEN || size == 0)
        return NULL;
    buf[0] = '\0';
    for (const char *s = list; *s;) {
        while (*s == ',' || *s == ' ')
            s++;
        size_t len = 0;
        while (name_char(s[len]))
            len++;
        if (!len)
            break; /* the list ends where a word does not ("...; valid: a, b (c)") */
        size_t dist = len <= NAME_MAX_LEN ? distance(name, nn, s, len) : best; /* 0: case */
        if (len == nn && !strncmp(s, name, nn))
            return NULL; /* the name is listed: nothing to suggest */
        if (dist < best && len < size) {
            best = dist;
            memcpy(buf, s, len);
            buf[len] = '\0';
        }
        s += len;
    }
    return buf[0] ? buf : NULL;
}

void tl_err_suggest(tl_err *err)
{
    /* "... unknown KIND 'NAME'; valid KINDS: A, B, C" or "...; allowed: A, B" */
    char *u = err ? strstr(err->msg, "unknown ") : NULL;
    char *q = u ? strchr(u, '\'') : NULL, *q2 = q ? strchr(q + 1, '\'') : NULL;
    char *v = q2 ? strstr(q2, "; valid") : NULL;
    if (q2 && !v)
        v = strstr(q2, "; allowed");
    char *colon = v ? strchr(v, ':') : NULL;
    /* a message that quotes another one already has its suggestion */
    if (!colon || q2 - q - 1 > NAME_MAX_LEN || strstr(err->msg, "; did you mean '"))
        return;
    char name[NAME_MAX_LEN + 1], near[NAME_MAX_LEN + 1];
    snprintf(name, sizeof name, "%.*s", (int)(q2 - q - 1), q + 1);
    if (!tl_suggest(name, colon + 1, near, sizeof near))
        return;
    size_t len = strlen(err->msg);
    snprintf(err->msg + len, sizeof err->msg - len, "; did you mean '%s'?", near);
}
