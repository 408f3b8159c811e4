/* Reading packed arrays (store_packed.c) for the model store's getters: s is the string's
 * text, path names it in messages. TL_EPARSE with the element when one is not a number of
 * the kind, or when the count differs from n (the message without "model file: ", which the
 * caller puts with the line). */
#ifndef TL_STORE_PACKED_H
#define TL_STORE_PACKED_H

#include <stddef.h>

#include "treelab/tl_store.h"

size_t tl_packed_count(const char *s);
int tl_packed_doubles(const char *s, const char *path, double *out, size_t n, tl_err *err);
int tl_packed_longs(const char *s, const char *path, long *out, size_t n, tl_err *err);
int tl_packed_ints(const char *s, const char *path, int *out, size_t n, tl_err *err);

#endif
