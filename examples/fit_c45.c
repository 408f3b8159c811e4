/* Example: load an ARFF file, fit C4.5 (Weka's J48), print the tree and predict its rows. */
#include <stdio.h>
#include <stdlib.h>

#include <treelab/tl_model.h>

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: %s DATA.arff\n", argv[0]);
        return 1;
    }
    tl_err err = {0};
    tl_model *m = NULL;
    double *pred = NULL;
    tl_dataset *d = tl_dataset_load(argv[1], NULL, &err); /* the class is the last attribute */
    if (!d || !(m = tl_model_new("c45", NULL, &err)) ||   /* NULL: every parameter's default */
        tl_model_fit(m, d, NULL, 0, NULL, &err) ||        /* rows NULL: every row */
        tl_model_show(m, TL_SHOW_TEXT, stdout, &err))
        goto done;
    if (!(pred = malloc(d->n_rows * sizeof *pred))) {
        fprintf(stderr, "out of memory\n");
        goto done;
    }
    if (tl_model_predict_label(m, d, NULL, 0, pred, &err)) /* class codes, as doubles */
        goto done;
    size_t right = 0;
    for (size_t i = 0; i < d->n_rows; i++)
        right += (int)pred[i] == d->y.code[i];
    const tl_attr_info *cls = &d->schema.target;
    printf("\nrow 1: %s (true: %s)\n", cls->levels[(int)pred[0]], cls->levels[d->y.code[0]]);
    printf("training accuracy: %zu/%zu\n", right, d->n_rows);
done:
    if (err.code)
        fprintf(stderr, "error: %s\n", err.msg);
    free(pred);
    tl_model_free(m);
    tl_dataset_free(d);
    return err.code ? 1 : 0;
}
