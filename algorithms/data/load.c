/* Loading a dataset by its file type: ARFF or CSV, then the rows of a test file. The loaders
 * build on dataset.c; this file is the one above both, so neither calls back into the other. */
#include "treelab/tl_dataset.h"

#include "load_util.h"

#include <stdlib.h>
#include <string.h>

static int ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), m = strlen(suffix);
    if (n < m)
        return 0;
    for (size_t i = 0; i < m; i++) {
        char c = s[n - m + i];
        if (c >= 'A' && c <= 'Z')
            c = (char)(c - 'A' + 'a');
        if (c != suffix[i])
            return 0;
    }
    return 1;
}

tl_dataset *tl_dataset_load(const char *path, const char *target, tl_err *err)
{
    return tl_dataset_load_opts(path, target, 0, err);
}

tl_dataset *tl_dataset_load_opts(const char *path, const char *target, unsigned flags, tl_err *err)
{
    tl_data_opts o = {0};
    o.target = target;
    o.flags = flags;
    return tl_dataset_load_with(path, &o, err);
}

/* The rows of o->test_file appended to d as test rows. */
static int add_test_file(tl_dataset *d, const tl_data_opts *o, tl_err *err)
{
    tl_data_opts t = {0};
    t.target = d->schema.target.name; /* the same target, by name */
    t.attributes = o->attributes, t.n_attributes = o->n_attributes;
    t.nominal = o->nominal, t.n_nominal = o->n_nominal;
    t.weight_column = o->weight_column;
    t.decimal = o->decimal;
    /* the same encoding; one class is enough for rows that are only scored */
    t.flags = (o->flags & TL_LOAD_LATIN1) | TL_LOAD_ONE_CLASS;
    t.types = &d->schema; /* the training file's nominal columns are nominal here too */
    /* ignore names columns of the training file; the test file's extra columns go anyway */
    tl_dataset *test = tl_dataset_load_with(o->test_file, &t, err);
    if (!test)
        return err ? err->code : TL_EINVAL;
    int rc = TL_OK;
    if (!(d->role = calloc(d->n_rows ? d->n_rows : 1, 1)))
        rc = tl_err_set(err, TL_ENOMEM, "out of memory");
    if (!rc && (rc = tl_dataset_conform(test, &d->schema, err)))
        tl_err_prefix(err, "test file %s: ", o->test_file);
    if (!rc)
        rc = tl_dataset_append(d, test, err);
    tl_dataset_free(test);
    return rc;
}

tl_dataset *tl_dataset_load_with(const char *path, const tl_data_opts *o, tl_err *err)
{
    static const tl_data_opts none = {0};
    o = o ? o : &none;
    if (o->test_file && o->split_column) {
        tl_err_set(err, TL_EINVAL,
                   "%s: the test rows come from a split column or a test file, "
                   "not both",
                   path);
        return NULL;
    }
    tl_dataset *d =
        ends_with(path, ".arff") ? tl_arff_load(path, o, err) : tl_csv_load(path, o, err);
    if (d && o->test_file && add_test_file(d, o, err)) {
        tl_dataset_free(d);
        d = NULL;
    }
    return d;
}
