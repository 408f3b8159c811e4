/* Strict checkers of the paper reports' markup, shared by the report tests: a JSON parser
 * (RFC 8259) and an XML-ish checker of self-contained HTML. */
#ifndef TL_TEST_MARKUP_H
#define TL_TEST_MARKUP_H

#include <stddef.h>

/* How many times what occurs in s (non-overlapping). */
size_t tl_test_count(const char *s, const char *what);

/* A parsed JSON text: every string it holds, decoded. */
typedef struct tl_test_json {
    const char *p;
    char **strings;
    size_t n;
} tl_test_json;

/* Parse text strictly (one value, nothing after it); fails the test with the offset. */
tl_test_json tl_test_json_check(const char *text);
/* Whether s is one of the decoded strings. */
int tl_test_json_has(const tl_test_json *j, const char *s);
void tl_test_json_free(tl_test_json *j);

/* Balanced tags, entities only as &name;, quoted attributes, no external URL, no url() or
 * @import in CSS; fails the test at the first fault, naming its byte. */
void tl_test_html_check(const char *text);

#endif
