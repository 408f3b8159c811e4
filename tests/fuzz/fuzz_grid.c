/* libFuzzer harness: experiment files with grids. A config that loads is planned on its data
 * (bundled files under 200 KB), and its expanded models keep the promises of a loaded
 * experiment: at most TL_MAX_MODELS, names unique, non-empty and without '/' or control
 * characters, and a plan that counts every cell. */
#include "fuzz_util.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "treelab/tl_experiment.h"
#include "treelab/tl_log.h"
#include "treelab/tl_scale.h"

static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static void check_models(const tl_experiment *x)
{
    if (x->n_models == 0 || x->n_models > TL_MAX_MODELS)
        tl_fuzz_fail("%zu models", x->n_models);
    char **names = malloc(x->n_models * sizeof *names);
    if (!names)
        return;
    for (size_t m = 0; m < x->n_models; m++) {
        const char *n = x->models[m].name;
        if (!n || !n[0] || strchr(n, '/'))
            tl_fuzz_fail("model %zu has the name '%s'", m, n ? n : "(null)");
        for (const char *p = n; *p; p++)
            if ((unsigned char)*p < 0x20 || *p == 0x7f)
                tl_fuzz_fail("model %zu's name has the control character 0x%02x", m, *p);
        names[m] = x->models[m].name;
    }
    qsort(names, x->n_models, sizeof *names, by_name);
    for (size_t m = 1; m < x->n_models; m++)
        if (!strcmp(names[m - 1], names[m]))
            tl_fuzz_fail("two models named '%s'", names[m]);
    free(names);
}

/* Plan x when its data is small; the plan's rows add up to its cells. */
static void check_plan(const tl_experiment *x)
{
    for (size_t i = 0; i < x->n_datasets; i++) {
        struct stat st;
        if (stat(x->datasets[i].path, &st) || !S_ISREG(st.st_mode) || st.st_size > 200000)
            return;
    }
    tl_dataset **data = calloc(x->n_datasets + 1, sizeof *data);
    tl_err err = {0};
    int ok = data != NULL;
    for (size_t i = 0; ok && i < x->n_datasets; i++)
        if (!(data[i] = tl_experiment_load_dataset(x, i, &err))) {
            tl_fuzz_check_rejection(&err, "tl_experiment_load_dataset");
            ok = 0;
        }
    tl_plan p;
    if (ok && !tl_plan_make(x, data, &p, &err)) {
        size_t cells = 0;
        for (size_t r = 0; r < p.n_rows; r++)
            cells += p.rows[r].cells;
        if (cells != p.cells || p.n_rows != x->n_datasets * x->n_models)
            tl_fuzz_fail("a plan of %zu rows and %zu cells, whose rows hold %zu", p.n_rows,
                         p.cells, cells);
        tl_plan_free(&p);
    } else if (ok) {
        tl_fuzz_check_rejection(&err, "tl_plan_make");
    }
    for (size_t i = 0; data && i < x->n_datasets; i++)
        tl_dataset_free(data[i]);
    free(data);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    tl_log_set_hook(NULL, NULL);
    const char *path = tl_fuzz_input(data, size, "cfg/input.cfg");
    tl_err err = {0};
    tl_experiment *x = tl_experiment_load(path, NULL, &err);
    if (!x) {
        tl_fuzz_check_rejection(&err, "tl_experiment_load");
        return 0;
    }
    check_models(x);
    check_plan(x);
    tl_experiment_free(x);
    return 0;
}
