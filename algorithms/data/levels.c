/* Level dictionaries for nominal columns: names in code order plus a hash index. */
#include "load_util.h"

#include <stdlib.h>
#include <string.h>

static uint64_t hash(const char *s, size_t len)
{
    uint64_t h = 1469598103934665603ULL; /* FNV-1a */
    for (size_t i = 0; i < len; i++) {
        h ^= (unsigned char)s[i];
        h *= 1099511628211ULL;
    }
    return h;
}

/* name (a C string) equals s[0..len). strnlen never reads past name's terminator, and a
 * NUL inside s cannot match a name that is shorter. */
static int eq(const char *name, const char *s, size_t len)
{
    return strnlen(name, len + 1) == len && memcmp(name, s, len) == 0;
}

int tl_levels_find(const tl_levels *lv, const char *s, size_t len)
{
    if (!lv->n_slots)
        return -1;
    size_t mask = lv->n_slots - 1;
    for (size_t i = (size_t)hash(s, len) & mask;; i = (i + 1) & mask) {
        int32_t c = lv->slots[i];
        if (c == 0)
            return -1;
        if (eq(lv->names[c - 1], s, len))
            return c - 1;
    }
}

static void insert_slot(int32_t *slots, size_t n_slots, const char *name, int32_t code)
{
    size_t mask = n_slots - 1;
    size_t i = (size_t)hash(name, strlen(name)) & mask;
    while (slots[i])
        i = (i + 1) & mask;
    slots[i] = code + 1;
}

/* Keep the table at most half full so probes stay short. */
static int grow(tl_levels *lv)
{
    if (lv->n == lv->cap) {
        size_t cap = lv->cap ? 2 * lv->cap : 8;
        char **names = realloc(lv->names, cap * sizeof *names);
        if (!names)
            return -1;
        lv->names = names;
        lv->cap = cap;
    }
    if (2 * (lv->n + 1) > lv->n_slots) {
        size_t n_slots = lv->n_slots ? 2 * lv->n_slots : 16;
        int32_t *slots = calloc(n_slots, sizeof *slots);
        if (!slots)
            return -1;
        for (size_t k = 0; k < lv->n; k++)
            insert_slot(slots, n_slots, lv->names[k], (int32_t)k);
        free(lv->slots);
        lv->slots = slots;
        lv->n_slots = n_slots;
    }
    return 0;
}

int tl_levels_add(tl_levels *lv, const char *s, size_t len, int *added)
{
    *added = 0;
    int c = tl_levels_find(lv, s, len);
    if (c >= 0)
        return c;
    if (lv->n >= INT32_MAX - 1 || grow(lv))
        return -1;
    char *name = malloc(len + 1);
    if (!name)
        return -1;
    memcpy(name, s, len);
    name[len] = '\0';
    lv->names[lv->n] = name;
    insert_slot(lv->slots, lv->n_slots, name, (int32_t)lv->n);
    *added = 1;
    return (int)lv->n++;
}

void tl_levels_free(tl_levels *lv)
{
    if (!lv)
        return;
    for (size_t i = 0; i < lv->n; i++)
        free(lv->names[i]);
    free(lv->names);
    free(lv->slots);
    memset(lv, 0, sizeof *lv);
}
