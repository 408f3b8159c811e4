/* ARFF date attributes, read as Weka reads them: the text parsed by the attribute's Java
 * SimpleDateFormat pattern (default yyyy-MM-dd'T'HH:mm:ss), the value the milliseconds since
 * 1970-01-01 00:00:00 (in UTC here; Weka uses the JVM's time zone). Only the numeric fields
 * are supported: y, M, d, H, m, s and S; quoted text and other characters are literals. */
#include <ctype.h>
#include <stddef.h>
#include <string.h>

#include "arff_lex.h"

const char *const tl_arff_date_default = "yyyy-MM-dd'T'HH:mm:ss";

int tl_arff_date_check(const char *fmt, char *bad)
{
    for (const char *p = fmt; *p; p++) {
        if (*p == '\'') {
            const char *q = strchr(p + 1, '\'');
            if (!q)
                return *bad = '\'', -1;
            p = q;
        } else if (isalpha((unsigned char)*p) &&
                   (!strchr("yMdHmsS", *p) || (*p == 'M' && p[1] == 'M' && p[2] == 'M'))) {
            return *bad = *p, -1; /* MMM: a month's name */
        }
    }
    return 0;
}

/* Days from 1970-01-01 to y-m-d in the proleptic Gregorian calendar (Hinnant's algorithm). */
static long days_from_civil(long y, long m, long d)
{
    y -= m <= 2;
    long era = (y >= 0 ? y : y - 399) / 400;
    long yoe = y - era * 400;
    long doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
    long doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return era * 146097 + doe - 719468;
}

int tl_arff_parse_date(const char *fmt, const char *s, size_t len, double *ms)
{
    long f[7] = {1970, 1, 1, 0, 0, 0, 0}; /* y M d H m s S */
    static const char letters[] = "yMdHmsS";
    static const long most[] = {999999, 12, 31, 23, 59, 60, 999}, least[] = {0, 1, 1, 0, 0, 0, 0};
    size_t i = 0;
    for (const char *p = fmt; *p; p++) {
        const char *at = strchr(letters, *p);
        if (*p == '\'') {
            const char *q = strchr(p + 1, '\'');
            size_t n = (size_t)(q - p - 1);
            if (i + n > len || memcmp(s + i, p + 1, n))
                return -1;
            i += n;
            p = q;
        } else if (*p && at) {
            size_t run = 1, digits = 0;
            while (p[run] == *p)
                run++;
            /* a field followed by another (yyyyMMdd) takes its width; else every digit, as
             * SimpleDateFormat reads numbers */
            size_t width = isalpha((unsigned char)p[run]) ? run : 9;
            long v = 0;
            while (i < len && digits < width && isdigit((unsigned char)s[i])) {
                v = v * 10 + (s[i++] - '0');
                digits++;
            }
            if (!digits)
                return -1;
            size_t k = (size_t)(at - letters);
            if (v < least[k] || v > most[k])
                return -1;
            f[k] = v;
            p += run - 1;
        } else {
            if (i >= len || s[i] != *p)
                return -1;
            i++;
        }
    }
    if (i != len)
        return -1;
    long days = days_from_civil(f[0], f[1], f[2]);
    *ms = ((((double)days * 24 + f[3]) * 60 + f[4]) * 60 + f[5]) * 1000 + f[6];
    return 0;
}
