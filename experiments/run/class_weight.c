/* Class weights (a model's `class_weight`): every training row's weight times its class's,
 * "balanced" as scikit-learn's n / (k * n_c) over the training rows (counts, not weights), or
 * "a=2,b=0.5" per class (a class not named keeps 1). Applied by the cell to the rows a learner
 * is fitted on, so every learner that reads row weights takes them; scores stay unweighted
 * by class. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "treelab/tl_runner.h"

/* The weight spec gives to class c of d, into w[0..k); TL_EINVAL naming a bad part. */
static int per_class(const char *spec, const tl_dataset *d, const size_t *rows, size_t n, double *w,
                     tl_err *err)
{
    const tl_attr_info *t = &d->schema.target;
    size_t k = t->n_levels;
    for (size_t c = 0; c < k; c++)
        w[c] = 1.0;
    if (!strcmp(spec, "balanced")) {
        double *count = calloc(k ? k : 1, sizeof *count);
        if (!count)
            return tl_err_set(err, TL_ENOMEM, "out of memory");
        size_t present = 0;
        for (size_t i = 0; i < n; i++)
            if (d->y.code[rows[i]] >= 0)
                present += count[d->y.code[rows[i]]]++ == 0;
        for (size_t c = 0; c < k; c++)
            w[c] = count[c] > 0 ? (double)n / ((double)present * count[c]) : 1.0;
        free(count);
        return TL_OK;
    }
    const char *p = spec;
    while (*p) {
        const char *eq = strchr(p, '='), *end = strchr(p, ',');
        end = end ? end : p + strlen(p);
        if (!eq || eq > end)
            return tl_err_set(err, TL_EINVAL,
                              "class_weight '%s': expected balanced or CLASS=WEIGHT,... ", spec);
        size_t c = 0;
        while (c < k && (strlen(t->levels[c]) != (size_t)(eq - p) ||
                         strncmp(t->levels[c], p, (size_t)(eq - p))))
            c++;
        if (c == k)
            return tl_err_set(err, TL_EINVAL, "class_weight: '%.*s' is not a class of '%s'",
                              (int)(eq - p), p, t->name);
        char *num_end;
        w[c] = strtod(eq + 1, &num_end);
        if (num_end != end || !(w[c] >= 0) || !isfinite(w[c]))
            return tl_err_set(err, TL_EINVAL,
                              "class_weight: the weight of '%s' must be a finite number >= 0",
                              t->levels[c]);
        p = *end ? end + 1 : end;
    }
    return TL_OK;
}

int tl_class_weights_apply(const char *spec, const tl_dataset *d, const size_t *rows, size_t n,
                           double **weight, tl_err *err)
{
    *weight = NULL;
    if (!tl_dataset_is_classification(d))
        return tl_err_set(err, TL_EINVAL, "class_weight needs a nominal target ('%s' is numeric)",
                          d->schema.target.name);
    size_t k = d->schema.target.n_levels;
    double *w = malloc((k ? k : 1) * sizeof *w),
           *out = malloc((d->n_rows ? d->n_rows : 1) * sizeof *out);
    int rc = w && out ? per_class(spec, d, rows, n, w, err)
                      : tl_err_set(err, TL_ENOMEM, "out of memory");
    for (size_t i = 0; !rc && i < d->n_rows; i++) {
        int c = d->y.code[i];
        out[i] = (d->weight ? d->weight[i] : 1.0) * (c >= 0 ? w[c] : 1.0);
    }
    free(w);
    if (rc)
        free(out);
    else
        *weight = out;
    return rc;
}
