/* Placeholder: the arff loader lands with issue 2's data layer. */
#include "treelab/tl_dataset.h"

tl_dataset *tl_dataset_load_arff(const char *path, const char *target, tl_err *err)
{
    (void)target;
    tl_err_set(err, TL_EUNSUPPORTED, "%s: the arff loader is not written yet", path);
    return NULL;
}
