/* A list of problems (messages), for checks that report everything wrong at once. */
#include "treelab/tl_params.h"

#include <stdlib.h>
#include <string.h>

void tl_problems_init(tl_problems *p)
{
    p->n = 0;
    p->msg = NULL;
}

void tl_problems_clear(tl_problems *p)
{
    if (!p)
        return;
    for (size_t i = 0; i < p->n; i++)
        free(p->msg[i]);
    free(p->msg);
    tl_problems_init(p);
}

int tl_problems_add(tl_problems *p, const char *msg, tl_err *err)
{
    char **grown = realloc(p->msg, (p->n + 1) * sizeof *grown);
    char *copy = grown ? strdup(msg) : NULL;
    if (grown)
        p->msg = grown;
    if (!copy)
        return tl_err_set(err, TL_ENOMEM, "out of memory");
    p->msg[p->n++] = copy;
    return TL_OK;
}

void tl_problems_join(const tl_problems *p, char *buf, size_t size)
{
    size_t used = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < p->n && used + 1 < size; i++) {
        int w = p->n == 1 ? snprintf(buf, size, "%s", p->msg[0])
                          : snprintf(buf + used, size - used, "%s(%zu) %s", i ? "; " : "", i + 1,
                                     p->msg[i]);
        if (w < 0)
            break;
        used += (size_t)w;
    }
}
