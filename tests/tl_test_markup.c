/* Strict checkers of the paper reports' markup (tl_test_markup.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tl_test_util.h"
#include "tl_test_markup.h"

size_t tl_test_count(const char *s, const char *what)
{
    size_t n = 0;
    for (const char *p = s; (p = strstr(p, what)); p += strlen(what))
        n++;
    return n;
}

/* ---- a strict JSON checker (RFC 8259): values, and the decoded strings kept ---- */

static void ws(tl_test_json *j)
{
    while (*j->p == ' ' || *j->p == '\n' || *j->p == '\t' || *j->p == '\r')
        j->p++;
}

static int value(tl_test_json *j);

static int string(tl_test_json *j)
{
    if (*j->p != '"')
        return 0;
    char *out = malloc(strlen(j->p) + 1), *w = out;
    for (j->p++; *j->p != '"'; j->p++) {
        unsigned char c = (unsigned char)*j->p;
        if (c < 0x20) { /* raw control characters are not JSON */
            free(out);
            return 0;
        }
        if (c != '\\') {
            *w++ = (char)c;
            continue;
        }
        j->p++;
        const char *esc = strchr("\"\\/bfnrt", *j->p);
        if (esc && *j->p) {
            *w++ = "\"\\/\b\f\n\r\t"[esc - "\"\\/bfnrt"];
        } else if (*j->p == 'u') {
            unsigned v = 0;
            for (int i = 1; i <= 4; i++) {
                char h = j->p[i];
                if (!strchr("0123456789abcdefABCDEF", h) || !h) {
                    free(out);
                    return 0;
                }
                v = v * 16 + (unsigned)(h <= '9' ? h - '0' : (h | 0x20) - 'a' + 10);
            }
            *w++ = (char)v; /* the writer only escapes control characters this way */
            j->p += 4;
        } else {
            free(out);
            return 0;
        }
    }
    j->p++;
    *w = '\0';
    j->strings = realloc(j->strings, (j->n + 1) * sizeof *j->strings);
    j->strings[j->n++] = out;
    return 1;
}

static int number(tl_test_json *j)
{
    const char *s = j->p;
    if (*s == '-')
        s++;
    if (*s == '0')
        s++;
    else if (*s >= '1' && *s <= '9')
        while (*s >= '0' && *s <= '9')
            s++;
    else
        return 0;
    if (*s == '.') {
        if (!(*++s >= '0' && *s <= '9'))
            return 0;
        while (*s >= '0' && *s <= '9')
            s++;
    }
    if (*s == 'e' || *s == 'E') {
        s++;
        if (*s == '+' || *s == '-')
            s++;
        if (!(*s >= '0' && *s <= '9'))
            return 0;
        while (*s >= '0' && *s <= '9')
            s++;
    }
    j->p = s;
    return 1;
}

static int members(tl_test_json *j, char open, char close, int keyed)
{
    j->p++;
    ws(j);
    if (*j->p == close) {
        j->p++;
        return 1;
    }
    for (;;) {
        ws(j);
        if (keyed) {
            if (!string(j))
                return 0;
            ws(j);
            if (*j->p++ != ':')
                return 0;
        }
        if (!value(j))
            return 0;
        ws(j);
        if (*j->p == close) {
            j->p++;
            return 1;
        }
        if (*j->p++ != ',')
            return 0;
    }
    (void)open;
}

static int value(tl_test_json *j)
{
    ws(j);
    switch (*j->p) {
    case '{': return members(j, '{', '}', 1);
    case '[': return members(j, '[', ']', 0);
    case '"': return string(j);
    case 't': return !strncmp(j->p, "true", 4) ? (j->p += 4, 1) : 0;
    case 'f': return !strncmp(j->p, "false", 5) ? (j->p += 5, 1) : 0;
    case 'n': return !strncmp(j->p, "null", 4) ? (j->p += 4, 1) : 0;
    default: return number(j);
    }
}

/* Parse text strictly (one value, nothing after it); fails the test with the offset. */
tl_test_json tl_test_json_check(const char *text)
{
    tl_test_json j = {text, NULL, 0};
    int ok = value(&j);
    ws(&j);
    if (!ok || *j.p)
        fail_msg("metrics.json is not valid JSON at byte %ld: '%.40s'", (long)(j.p - text), j.p);
    return j;
}

int tl_test_json_has(const tl_test_json *j, const char *s)
{
    for (size_t i = 0; i < j->n; i++)
        if (!strcmp(j->strings[i], s))
            return 1;
    return 0;
}

void tl_test_json_free(tl_test_json *j)
{
    for (size_t i = 0; i < j->n; i++)
        free(j->strings[i]);
    free(j->strings);
}

/* ---- an XML-ish checker of report.html: balanced tags, entities, no external URL ---- */

static const char *const void_tags[] = {"meta", "br", "hr", "img", "link", "input", NULL};

void tl_test_html_check(const char *text)
{
    char stack[512][32];
    size_t depth = 0;
    for (const char *p = text; *p;) {
        if (*p == '&') {
            size_t n =
                strspn(p + 1, "#abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789");
            if (!n || p[1 + n] != ';')
                fail_msg("bare '&' at byte %ld: '%.30s'", (long)(p - text), p);
            p += n + 2;
            continue;
        }
        if (*p != '<') {
            p++;
            continue;
        }
        if (!strncmp(p, "<!--", 4)) {
            const char *e = strstr(p, "-->");
            assert_non_null(e);
            p = e + 3;
            continue;
        }
        if (!strncmp(p, "<!", 2) || !strncmp(p, "<?", 2)) {
            p = strchr(p, '>') + 1;
            continue;
        }
        int closing = p[1] == '/';
        const char *name = p + 1 + closing;
        size_t nl =
            strspn(name, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789:-_");
        if (!nl || nl >= 32)
            fail_msg("bad tag at byte %ld: '%.30s'", (long)(p - text), p);
        /* attributes: quoted values only, none pointing outside the page */
        const char *q = name + nl;
        while (*q && *q != '>') {
            if (*q == '"' || *q == '\'') {
                const char *e = strchr(q + 1, *q);
                assert_non_null(e);
                char val[256];
                snprintf(val, sizeof val, "%.*s", (int)(e - q - 1), q + 1);
                if (strstr(val, "http://") || strstr(val, "https://") || strstr(val, "url("))
                    fail_msg("external reference in an attribute: %s", val);
                q = e + 1;
            } else if (*q == '<') {
                fail_msg("'<' inside a tag at byte %ld", (long)(q - text));
            } else {
                q++;
            }
        }
        assert_int_equal(*q, '>');
        int self = q[-1] == '/';
        char tag[32];
        snprintf(tag, sizeof tag, "%.*s", (int)nl, name);
        int is_void = 0;
        for (int i = 0; void_tags[i]; i++)
            is_void |= !strcmp(tag, void_tags[i]);
        if (closing) {
            if (!depth || strcmp(stack[depth - 1], tag))
                fail_msg("</%s> at byte %ld closes <%s>", tag, (long)(p - text),
                         depth ? stack[depth - 1] : "(nothing)");
            depth--;
        } else if (!self && !is_void) {
            assert_true(depth < 512);
            strcpy(stack[depth++], tag);
        }
        p = q + 1;
        /* style text is CSS: no url() to fetch */
        if (!closing && !strcmp(tag, "style")) {
            const char *e = strstr(p, "</style>");
            assert_non_null(e);
            char css[4096];
            snprintf(css, sizeof css, "%.*s", (int)(e - p), p);
            assert_null(strstr(css, "url("));
            assert_null(strstr(css, "@import"));
            p = e;
        }
    }
    if (depth)
        fail_msg("<%s> is never closed", stack[depth - 1]);
}
