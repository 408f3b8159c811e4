/* Types registered at run time (tl_criterion_register and its siblings): one lock for every
 * registry, taken only to add; lookups read a count published after the entry it covers. */
#include "registry_impl.h"

#include <pthread.h>

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

const void *tl_registry_extra_at(const tl_registry_extra *x, size_t i)
{
    return i < __atomic_load_n(&x->n, __ATOMIC_ACQUIRE) ? x->items[i] : NULL;
}

static int is_word(const char *s)
{
    if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z')))
        return 0;
    for (; *s; s++)
        if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9') ||
              *s == '_' || *s == '-'))
            return 0;
    return 1;
}

int tl_registry_extra_add(tl_registry_extra *x, const void *item, const char *name,
                          const char *what, const void *(*find)(const char *name), tl_err *err)
{
    if (!is_word(name))
        return tl_err_set(err, TL_EINVAL,
                          "cannot register %s '%s': a name is a letter followed by "
                          "letters, digits, '_' or '-'",
                          what, name);
    pthread_mutex_lock(&lock);
    int rc = TL_OK;
    if (find(name))
        rc = tl_err_set(err, TL_EINVAL, "cannot register %s '%s': that name is taken", what, name);
    else if (x->n >= TL_REGISTRY_EXTRA_MAX)
        rc = tl_err_set(err, TL_EINVAL, "cannot register %s '%s': at most %d can be registered",
                        what, name, TL_REGISTRY_EXTRA_MAX);
    else {
        x->items[x->n] = item;
        __atomic_store_n(&x->n, x->n + 1, __ATOMIC_RELEASE);
    }
    pthread_mutex_unlock(&lock);
    return rc;
}
