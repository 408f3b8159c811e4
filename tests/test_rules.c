/* Rules (show --format rules): each path's conditions merged per attribute into the tightest
 * numeric bounds and one nominal value set (D13: no more `age<=35 AND age<=15`). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tl_test_util.h"
#include "treelab/tl_tree.h"

/* Make node a binary split with two new children; returns the first child. */
static size_t split(tl_tree *t, size_t node, int attr, tl_split_kind kind, double thr,
                    uint64_t mask)
{
    size_t first = tl_tree_add_nodes(t, 2, node, NULL);
    assert_true(first != SIZE_MAX);
    t->attr[node] = attr;
    t->kind[node] = (unsigned char)kind;
    t->threshold[node] = thr;
    t->mask[node] = mask;
    t->first_child[node] = first;
    t->n_children[node] = 2;
    return first;
}

/* A numeric age and a nominal color of four levels, r, g, b, y (their file order). */
static tl_dataset *schema(void)
{
    const char *path =
        tl_test_tmpfile(".csv", "age,color,y\n10,r,no\n20,g,yes\n40,b,no\n70,y,yes\n");
    tl_dataset *d = tl_dataset_load(path, "y", NULL);
    assert_non_null(d);
    remove(path);
    return d;
}

static char *buf;

/* The rules of t, kept in buf until the test ends. */
static const char *rules(const tl_tree *t, const tl_dataset *d)
{
    size_t size = 0;
    FILE *out = open_memstream(&buf, &size);
    assert_int_equal(tl_tree_show(t, &d->schema, TL_SHOW_RULES, out, NULL), TL_OK);
    fclose(out);
    return buf;
}

static void leaf(tl_tree *t, size_t node, size_t cls)
{
    t->stats[node * t->k + cls] = 1;
}

static void test_merged_conditions(void **state)
{
    (void)state;
    tl_dataset *d = schema();
    tl_tree *t = tl_tree_alloc(2, 0, 32, NULL);
    assert_int_equal(tl_tree_add_nodes(t, 1, SIZE_MAX, NULL), 0);
    /* age <= 35 / > 35; left: age <= 15 / > 15; its right: color in {r,g,b} / {y}, then
     * color in {r} / {g,b,y}; right of the root: age <= 60 / > 60 */
    size_t a = split(t, 0, 0, TL_SPLIT_NUMERIC, 35, 0);
    size_t b = split(t, a, 0, TL_SPLIT_NUMERIC, 15, 0);
    leaf(t, b, 0);
    size_t c = split(t, b + 1, 1, TL_SPLIT_SUBSET, 0, 0x7);
    size_t e = split(t, c, 1, TL_SPLIT_SUBSET, 0, 0x1);
    leaf(t, e, 1);
    leaf(t, e + 1, 0);
    leaf(t, c + 1, 1);
    size_t f = split(t, a + 1, 0, TL_SPLIT_NUMERIC, 60, 0);
    leaf(t, f, 0);
    leaf(t, f + 1, 1);
    assert_string_equal(rules(t, d), "IF age <= 15 THEN y = no (1.0)\n"
                                     "IF 15 < age <= 35 AND color = r THEN y = yes (1.0)\n"
                                     "IF 15 < age <= 35 AND color in {g, b} THEN y = no (1.0)\n"
                                     "IF 15 < age <= 35 AND color = y THEN y = yes (1.0)\n"
                                     "IF 35 < age <= 60 THEN y = no (1.0)\n"
                                     "IF age > 60 THEN y = yes (1.0)\n");
    tl_tree_free(t);
    tl_dataset_free(d);
    free(buf);
}

/* A multiway split under a numeric one on another attribute keeps its order of first test. */
static void test_multiway_and_order(void **state)
{
    (void)state;
    tl_dataset *d = schema();
    tl_tree *t = tl_tree_alloc(2, 0, 32, NULL);
    assert_int_equal(tl_tree_add_nodes(t, 1, SIZE_MAX, NULL), 0);
    size_t first = tl_tree_add_nodes(t, 4, 0, NULL);
    t->attr[0] = 1;
    t->kind[0] = TL_SPLIT_MULTIWAY;
    t->first_child[0] = first;
    t->n_children[0] = 4;
    for (size_t i = 0; i < 4; i++)
        leaf(t, first + i, i % 2);
    size_t g = split(t, first + 1, 0, TL_SPLIT_NUMERIC, 20.5, 0);
    leaf(t, g, 0);
    size_t h = split(t, g + 1, 0, TL_SPLIT_NUMERIC, 40, 0);
    leaf(t, h, 1);
    leaf(t, h + 1, 0);
    assert_string_equal(rules(t, d), "IF color = r THEN y = no (1.0)\n"
                                     "IF color = g AND age <= 20.5 THEN y = no (1.0)\n"
                                     "IF color = g AND 20.5 < age <= 40 THEN y = yes (1.0)\n"
                                     "IF color = g AND age > 40 THEN y = no (1.0)\n"
                                     "IF color = b THEN y = no (1.0)\n"
                                     "IF color = y THEN y = yes (1.0)\n");
    tl_tree_free(t);
    tl_dataset_free(d);
    free(buf);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_merged_conditions),
        cmocka_unit_test(test_multiway_and_order),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
