/* libFuzzer harness: model files (tl_model_load), then show, predict and a save/load round trip. */
#include "fuzz_util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "treelab/tl_log.h"
#include "treelab/tl_model.h"

/* Rows to predict: row 0 is all missing, the others cycle through the levels and a few
 * numbers from the edges of the range. */
enum { N_ROWS = 8 };
static const double numbers[N_ROWS] = {NAN, -1e308, -1.0, 0.0, 0.5, 1.0, 2.5, 1e308};

static tl_dataset *rows_for(const tl_model *m)
{
    tl_err err = {0};
    tl_dataset *d = calloc(1, sizeof *d);
    if (!d || tl_schema_copy(&d->schema, &m->schema, &err)) {
        free(d);
        return NULL;
    }
    d->n_rows = N_ROWS;
    size_t p = d->schema.n_attrs;
    d->cols = calloc(p ? p : 1, sizeof *d->cols);
    int ok = d->cols != NULL;
    for (size_t j = 0; ok && j < p; j++) {
        const tl_attr_info *a = &d->schema.attrs[j];
        if (a->kind == TL_ATTR_NOMINAL) {
            ok = (d->cols[j].code = malloc(N_ROWS * sizeof(int))) != NULL;
            for (size_t i = 0; ok && i < N_ROWS; i++)
                d->cols[j].code[i] =
                    i == 0 || !a->n_levels ? TL_MISSING_CODE : (int)((i - 1 + j) % a->n_levels);
        } else {
            ok = (d->cols[j].num = malloc(N_ROWS * sizeof(double))) != NULL;
            for (size_t i = 0; ok && i < N_ROWS; i++)
                d->cols[j].num[i] = numbers[(i + (i ? j : 0)) % N_ROWS];
        }
    }
    if (ok && d->schema.target.kind == TL_ATTR_NOMINAL) {
        ok = (d->y.code = malloc(N_ROWS * sizeof(int))) != NULL;
        for (size_t i = 0; ok && i < N_ROWS; i++)
            d->y.code[i] = TL_MISSING_CODE;
    } else if (ok) {
        ok = (d->y.num = malloc(N_ROWS * sizeof(double))) != NULL;
        for (size_t i = 0; ok && i < N_ROWS; i++)
            d->y.num[i] = NAN;
    }
    if (!ok) {
        tl_dataset_free(d);
        return NULL;
    }
    return d;
}

static void predict(const tl_model *m)
{
    tl_dataset *d = rows_for(m);
    if (!d)
        return; /* out of memory (a schema with very many attributes) */
    size_t k = tl_model_out_width(m);
    double *out = malloc(N_ROWS * k * sizeof *out);
    tl_err err = {0};
    if (out && tl_model_predict(m, d, NULL, 0, out, &err) == TL_OK) {
        for (size_t i = 0; i < N_ROWS; i++) {
            double sum = 0;
            for (size_t c = 0; c < k; c++) {
                double v = out[i * k + c];
                if (!isfinite(v) || (k > 1 && (v < -1e-9 || v > 1 + 1e-9)))
                    tl_fuzz_fail("%s: row %zu output %zu is %g", m->type->name, i, c, v);
                sum += v;
            }
            if (k > 1 && fabs(sum - 1) > 1e-6)
                tl_fuzz_fail("%s: row %zu probabilities sum to %.17g", m->type->name, i, sum);
        }
    } else if (out) {
        tl_fuzz_check_rejection(&err, "tl_model_predict");
    }
    free(out);
    tl_dataset_free(d);
}

/* A loaded model saved and read back saves the same file again (the first save may
 * normalise: parameters in full, huge numbers read as inf written as the 1.7e308 sentinel). */
static void round_trip(const tl_model *m)
{
    const char *a = tl_fuzz_path("saved-a.model");
    char a_path[4096];
    snprintf(a_path, sizeof a_path, "%s", a);
    tl_err err = {0};
    if (tl_model_save(m, a_path, &err)) {
        tl_fuzz_check_rejection(&err, "tl_model_save");
        return;
    }
    tl_model *back = tl_model_load(a_path, &err);
    if (!back)
        tl_fuzz_fail("a saved %s model does not load: %s", m->type->name, err.msg);
    const char *b_path = tl_fuzz_path("saved-b.model");
    if (tl_model_save(back, b_path, &err))
        tl_fuzz_fail("a reloaded %s model does not save: %s", m->type->name, err.msg);
    tl_model_free(back);
    FILE *fa = fopen(a_path, "rb"), *fb = fopen(b_path, "rb");
    if (!fa || !fb)
        tl_fuzz_fail("cannot read the saved models back");
    size_t line = 1;
    for (;;) {
        int ca = fgetc(fa), cb = fgetc(fb);
        if (ca != cb)
            tl_fuzz_fail("a %s model saved, loaded and saved again differs at line %zu "
                         "(%s, %s)",
                         m->type->name, line, a_path, b_path);
        if (ca == EOF)
            break;
        line += ca == '\n';
    }
    fclose(fa);
    fclose(fb);
}

static FILE *null_out;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    tl_log_set_hook(NULL, NULL);
    if (!null_out && !(null_out = fopen("/dev/null", "w")))
        tl_fuzz_fail("cannot open /dev/null");
    const char *path = tl_fuzz_input(data, size, "input.model");
    tl_err err = {0};
    tl_model *m = tl_model_load(path, &err);
    if (!m) {
        tl_fuzz_check_rejection(&err, "tl_model_load");
        return 0;
    }
    tl_model_info info;
    tl_model_get_info(m, &info);
    static const tl_show_format formats[] = {TL_SHOW_TEXT, TL_SHOW_DOT, TL_SHOW_RULES};
    for (size_t i = 0; i < sizeof formats / sizeof *formats; i++) {
        tl_err_clear(&err);
        if (tl_model_show(m, formats[i], null_out, &err) && err.code != TL_EUNSUPPORTED)
            tl_fuzz_check_rejection(&err, "tl_model_show");
    }
    predict(m);
    round_trip(m);
    tl_model_free(m);
    return 0;
}
