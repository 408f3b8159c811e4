/* libFuzzer harness: the ARFF reader (a .arff file through tl_dataset_load_opts), labelled and unlabelled. */
#include "fuzz_util.h"

#include "treelab/tl_log.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    tl_log_set_hook(NULL, NULL); /* dropped-row warnings */
    tl_fuzz_load_dataset(data, size, "input.arff");
    return 0;
}
