/* Labels the tree exporters share: thresholds and leaf labels as J48 prints them (text and DOT
 * in export.c, rules in export_rules.c both build on this file). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "export_internal.h"
#include "treelab/tl_tree.h"

/* Java's Double.toString of a value rounded to 2 decimals, as J48 prints weights. */
static void fmt_weight(char *buf, size_t size, double v)
{
    snprintf(buf, size, "%.2f", round(v * 100) / 100);
    char *dot = strchr(buf, '.');
    if (!dot)
        return;
    char *end = buf + strlen(buf) - 1;
    while (end > dot + 1 && *end == '0')
        *end-- = '\0';
}

/* Weka's Utils.doubleToString(v, 6): v * 10^6 rounded half up in floating point (not the
 * exact decimal rounding of printf), at most 6 decimals, no trailing zeros. */
void tl_export_threshold(char *buf, size_t size, double v)
{
    double scaled = v * 1e6;
    if (!(fabs(scaled) < 9.2e18)) {
        snprintf(buf, size, "%.17g", v);
        return;
    }
    long long p = scaled > 0 ? (long long)(scaled + 0.5) : -(long long)(fabs(scaled) + 0.5);
    long long a = p < 0 ? -p : p;
    snprintf(buf, size, "%s%lld.%06lld", p < 0 ? "-" : "", a / 1000000, a % 1000000);
    char *end = buf + strlen(buf) - 1;
    while (*end == '0')
        *end-- = '\0';
    if (*end == '.')
        *end = '\0';
}

void tl_export_leaf_label(const tl_tree *t, const tl_schema *s, size_t node, char *buf, size_t size)
{
    double w = tl_tree_node_weight(t, node);
    char wbuf[64], ebuf[64];
    fmt_weight(wbuf, sizeof wbuf, w);
    if (t->regression) {
        double mean;
        tl_tree_node_predict(t, node, &mean);
        snprintf(buf, size, "%.6g (%s)", mean, wbuf);
        return;
    }
    size_t best = tl_tree_node_class(t, node);
    double e = tl_tree_node_error(t, node);
    const char *label = best < s->target.n_levels ? s->target.levels[best] : "?";
    fmt_weight(ebuf, sizeof ebuf, e);
    if (e > 1e-6) /* J48's Utils.gr(errors, 0): "/0.0" when a trace of error remains */
        snprintf(buf, size, "%s (%s/%s)", label, wbuf, ebuf);
    else
        snprintf(buf, size, "%s (%s)", label, wbuf);
}
