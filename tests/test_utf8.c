/* UTF-8 validation (RFC 3629 section 4's well-formed sequences, Unicode table 3-7) and the
 * Latin-1 conversion the loaders use for --encoding latin1. */
#include <stdlib.h>
#include <string.h>

#include "tl_test_util.h"
#include "treelab/tl_utf8.h"

static long invalid(const char *s)
{
    return tl_utf8_invalid(s, strlen(s));
}

static void test_valid_sequences(void **state)
{
    (void)state;
    assert_int_equal(invalid(""), -1);
    assert_int_equal(invalid("plain ASCII text, longer than eight bytes"), -1);
    assert_int_equal(invalid("caf\xc3\xa9"), -1);                 /* U+00E9 */
    assert_int_equal(invalid("\xe2\x82\xac 10"), -1);             /* U+20AC euro */
    assert_int_equal(invalid("\xed\x9f\xbf"), -1);                /* U+D7FF, below surrogates */
    assert_int_equal(invalid("\xef\xbf\xbd"), -1);                /* U+FFFD */
    assert_int_equal(invalid("\xf0\x9f\x8c\xb3 tree"), -1);       /* U+1F333 */
    assert_int_equal(invalid("\xf4\x8f\xbf\xbf"), -1);            /* U+10FFFF, the last */
    assert_int_equal(invalid("0123456789abcdef\xc3\xa9xyz"), -1); /* after the word loop */
}

static void test_invalid_sequences(void **state)
{
    (void)state;
    assert_int_equal(invalid("caf\xe9"), 3);          /* Latin-1 e acute */
    assert_int_equal(invalid("caf\xe9 au lait"), 3);  /* a lead without continuation */
    assert_int_equal(invalid("ab\x80"), 2);           /* a lone continuation byte */
    assert_int_equal(invalid("\xc0\xaf"), 0);         /* overlong '/' */
    assert_int_equal(invalid("\xc1\xbf"), 0);         /* overlong */
    assert_int_equal(invalid("\xe0\x80\xaf"), 0);     /* overlong 3-byte */
    assert_int_equal(invalid("\xf0\x80\x80\xaf"), 0); /* overlong 4-byte */
    assert_int_equal(invalid("x\xed\xa0\x80"), 1);    /* U+D800, a surrogate */
    assert_int_equal(invalid("\xf4\x90\x80\x80"), 0); /* above U+10FFFF */
    assert_int_equal(invalid("\xf5\x80\x80\x80"), 0); /* no such lead */
    assert_int_equal(invalid("\xff"), 0);
    assert_int_equal(invalid("0123456789abcdef\xe2\x82"), 16); /* cut short by the end */
    assert_int_equal(invalid("\xe2\x28\xa1"), 0);              /* a broken second byte */
    assert_int_equal(invalid("\xf0\x9f\x8c\x28"), 0);          /* a broken last byte */
}

static void test_latin1(void **state)
{
    (void)state;
    size_t n;
    char *s = tl_utf8_from_latin1("caf\xe9 \xff\xa0!", 8, &n);
    assert_non_null(s);
    assert_int_equal(n, 11);
    assert_string_equal(s, "caf\xc3\xa9 \xc3\xbf\xc2\xa0!");
    assert_int_equal(tl_utf8_invalid(s, n), -1);
    free(s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_valid_sequences),
        cmocka_unit_test(test_invalid_sequences),
        cmocka_unit_test(test_latin1),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
