/* Model files written in libconfig syntax: groups, scalars and arrays, doubles exact (%.17g). */
#include "treelab/tl_store.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

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
