/* libFuzzer harness: experiment files (tl_experiment_load), as if read from configs/. */
#include "fuzz_util.h"

#include "treelab/tl_experiment.h"
#include "treelab/tl_log.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    tl_log_set_hook(NULL, NULL);
    /* cfg/ beside a link to experiments/: the seeds' "../experiments/datasets/..." resolve */
    const char *path = tl_fuzz_input(data, size, "cfg/input.cfg");
    tl_err err = {0};
    tl_experiment *x = tl_experiment_load(path, NULL, &err);
    if (!x)
        tl_fuzz_check_rejection(&err, "tl_experiment_load");
    tl_experiment_free(x);
    return 0;
}
