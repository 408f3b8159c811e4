/* Tree export: Weka-style text (J48's layout and numbers), Graphviz DOT (rules: export_rules.c). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "export_internal.h"
#include "treelab/tl_tree.h"

/* "attr <= 2.5", "attr = level", "attr in {a, b}", "attr = ?" for branch b of node. */
static void condition(const tl_tree *t, const tl_schema *s, size_t node, size_t b, char *buf,
                      size_t size)
{
    const tl_attr_info *a = &s->attrs[t->attr[node]];
    char num[64];
    if (t->unknown[node] >= 0 && (size_t)t->unknown[node] == b && b + 1 == t->n_children[node] &&
        b == (t->kind[node] == TL_SPLIT_MULTIWAY ? a->n_levels : 2)) {
        snprintf(buf, size, "%s = ?", a->name); /* the unknown values' own branch */
        return;
    }
    switch ((tl_split_kind)t->kind[node]) {
    case TL_SPLIT_NUMERIC:
        tl_export_threshold(num, sizeof num, t->threshold[node]);
        snprintf(buf, size, "%s %s %s", a->name, b == 0 ? "<=" : ">", num);
        return;
    case TL_SPLIT_MULTIWAY:
        snprintf(buf, size, "%s = %s", a->name, b < a->n_levels ? a->levels[b] : "?");
        return;
    case TL_SPLIT_SUBSET: {
        size_t used = (size_t)snprintf(buf, size, "%s in {", a->name);
        int first = 1;
        for (size_t l = 0; l < a->n_levels && used < size; l++) {
            int left = (int)((t->mask[node] >> l) & 1u);
            if ((b == 0) != left)
                continue;
            used +=
                (size_t)snprintf(buf + used, size - used, "%s%s", first ? "" : ", ", a->levels[l]);
            first = 0;
        }
        if (used < size)
            snprintf(buf + used, size - used, "}");
        return;
    }
    }
}

/* Where a depth-first walk of a tree stands at one level: the node and the branch to take
 * next. Walks keep these on the heap, not the C stack: a tree may be far deeper than the C
 * stack allows. */
typedef struct level {
    size_t node, next;
} level;

typedef struct walk {
    level *v;
    size_t n, cap;
} walk;

static int walk_push(walk *w, size_t node, tl_err *err)
{
    if (w->n == w->cap) {
        size_t cap = w->cap ? 2 * w->cap : 64;
        level *grown = realloc(w->v, cap * sizeof *grown);
        if (!grown)
            return tl_err_set(err, TL_ENOMEM, "out of memory showing a tree");
        w->v = grown;
        w->cap = cap;
    }
    w->v[w->n++] = (level){node, 0};
    return TL_OK;
}

/* A growing text buffer: the indentation of a text line, or the conditions of a rule. */
typedef struct strbuf {
    char *s;
    size_t len, cap;
} strbuf;

static int strbuf_reserve(strbuf *b, size_t len, tl_err *err)
{
    if (len <= b->cap)
        return TL_OK;
    size_t cap = b->cap ? b->cap : 256;
    while (cap < len)
        cap *= 2;
    char *grown = realloc(b->s, cap);
    if (!grown)
        return tl_err_set(err, TL_ENOMEM, "out of memory showing a tree");
    b->s = grown;
    b->cap = cap;
    return TL_OK;
}

static int strbuf_add(strbuf *b, const char *s, tl_err *err)
{
    size_t n = strlen(s);
    int rc = strbuf_reserve(b, b->len + n, err);
    if (!rc) {
        memcpy(b->s + b->len, s, n);
        b->len += n;
    }
    return rc;
}

/* The most levels of "|   " a line is indented by; deeper lines say their depth instead (a
 * 20,000-deep chain printed 1.6 GB). */
#define TEXT_MAX_INDENT 64

/* Weka's layout: one line per branch, "|   " per level above it (at most TEXT_MAX_INDENT),
 * the leaf after a colon. */
static int text(const tl_tree *t, const tl_schema *s, FILE *f, tl_err *err)
{
    char cond[1024], leaf[512];
    walk w = {0};
    strbuf indent = {0}; /* "|   " repeated for the deepest level so far */
    int rc = walk_push(&w, 0, err);
    while (!rc && w.n) {
        level *at = &w.v[w.n - 1];
        if (at->next >= t->n_children[at->node]) {
            w.n--;
            continue;
        }
        size_t node = at->node, b = at->next++, depth = w.n - 1;
        size_t ch = t->first_child[node] + b,
               shown = depth < TEXT_MAX_INDENT ? depth : TEXT_MAX_INDENT;
        while (indent.len < 4 * shown && !(rc = strbuf_add(&indent, "|   ", err)))
            ;
        if (rc)
            break;
        if (shown)
            fwrite(indent.s, 1, 4 * shown, f);
        if (depth > shown) /* the text grows linearly with depth, not with its square */
            fprintf(f, "[depth %zu] ", depth);
        condition(t, s, node, b, cond, sizeof cond);
        if (b == 0 && t->p_value && !isnan(t->p_value[node])) { /* the test's p-value, once */
            size_t len = strlen(cond);
            snprintf(cond + len, sizeof cond - len, " [p = %.4g]", t->p_value[node]);
        }
        if (t->attr[ch] < 0) {
            tl_export_leaf_label(t, s, ch, leaf, sizeof leaf);
            fprintf(f, "%s: %s\n", cond, leaf);
        } else {
            fprintf(f, "%s\n", cond);
            rc = walk_push(&w, ch, err);
        }
    }
    free(w.v);
    free(indent.s);
    return rc;
}

static void dot_escape(const char *in, FILE *f)
{
    for (; *in; in++) {
        if (*in == '"' || *in == '\\')
            fputc('\\', f);
        fputc(*in, f);
    }
}

static void dot(const tl_tree *t, const tl_schema *s, FILE *f)
{
    char buf[1024];
    fprintf(f, "digraph tree {\n  node [shape=box, fontname=\"Helvetica\"];\n"
               "  edge [fontname=\"Helvetica\"];\n");
    for (size_t n = 0; n < t->n_nodes; n++) {
        fprintf(f, "  n%zu [label=\"", n);
        if (t->attr[n] < 0) {
            tl_export_leaf_label(t, s, n, buf, sizeof buf);
            dot_escape(buf, f);
            fprintf(f, "\", style=rounded];\n");
        } else {
            dot_escape(s->attrs[t->attr[n]].name, f);
            if (t->p_value && !isnan(t->p_value[n]))
                fprintf(f, "\\np = %.4g", t->p_value[n]);
            fprintf(f, "\"];\n");
        }
    }
    for (size_t n = 0; n < t->n_nodes; n++)
        for (size_t b = 0; t->attr[n] >= 0 && b < t->n_children[n]; b++) {
            condition(t, s, n, b, buf, sizeof buf);
            const char *cut = buf + strlen(s->attrs[t->attr[n]].name) + 1; /* drop the name */
            fprintf(f, "  n%zu -> n%zu [label=\"", n, t->first_child[n] + b);
            dot_escape(cut, f);
            fprintf(f, "\"];\n");
        }
    fprintf(f, "}\n");
}

int tl_tree_show(const tl_tree *t, const tl_schema *s, tl_show_format fmt, FILE *f, tl_err *err)
{
    if (fmt == TL_SHOW_DOT) {
        dot(t, s, f);
        return TL_OK;
    }
    if (fmt == TL_SHOW_RULES)
        return tl_export_rules(t, s, f, err);
    if (t->attr[0] < 0) {
        char leaf[512];
        tl_export_leaf_label(t, s, 0, leaf, sizeof leaf);
        fprintf(f, ": %s\n", leaf);
        return TL_OK;
    }
    return text(t, s, f, err);
}
