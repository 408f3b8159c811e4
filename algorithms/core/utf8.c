/* UTF-8 validation (RFC 3629's well-formed sequences) and Latin-1 conversion. */
#include "treelab/tl_utf8.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

long tl_utf8_invalid(const char *s, size_t len)
{
    const unsigned char *p = (const unsigned char *)s;
    size_t i = 0;
    while (i < len) {
        /* ASCII runs, the common case, eight bytes at a time */
        while (i + 8 <= len) {
            uint64_t w;
            memcpy(&w, p + i, 8);
            if (w & 0x8080808080808080ull)
                break;
            i += 8;
        }
        if (i >= len)
            break;
        unsigned c = p[i];
        if (c < 0x80) {
            i++;
            continue;
        }
        size_t n;
        unsigned lo = 0x80, hi = 0xBF; /* the second byte's range (RFC 3629, table 3-7) */
        if (c >= 0xC2 && c <= 0xDF)
            n = 1;
        else if (c >= 0xE0 && c <= 0xEF)
            n = 2, lo = c == 0xE0 ? 0xA0 : 0x80, hi = c == 0xED ? 0x9F : 0xBF;
        else if (c >= 0xF0 && c <= 0xF4)
            n = 3, lo = c == 0xF0 ? 0x90 : 0x80, hi = c == 0xF4 ? 0x8F : 0xBF;
        else
            return (long)i;
        if (len - i <= n)
            return (long)i; /* cut short by the end of the text */
        for (size_t k = 1; k <= n; k++) {
            unsigned b = p[i + k];
            if (k == 1 ? (b < lo || b > hi) : (b < 0x80 || b > 0xBF))
                return (long)i; /* the sequence that breaks off: its lead byte */
        }
        i += n + 1;
    }
    return -1;
}

char *tl_utf8_from_latin1(const char *s, size_t len, size_t *out_len)
{
    size_t high = 0;
    for (size_t i = 0; i < len; i++)
        high += (unsigned char)s[i] >= 0x80;
    char *out = malloc(len + high + 1);
    if (!out)
        return NULL;
    size_t k = 0;
    for (size_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c < 0x80) {
            out[k++] = (char)c;
        } else { /* U+0080..U+00FF: two bytes */
            out[k++] = (char)(0xC0 | (c >> 6));
            out[k++] = (char)(0x80 | (c & 0x3F));
        }
    }
    out[k] = '\0';
    *out_len = k;
    return out;
}
