/* Shared by the libFuzzer harnesses: the input bytes as a file for treelab's path-taking loaders. */
#ifndef TL_FUZZ_UTIL_H
#define TL_FUZZ_UTIL_H

#include <stddef.h>
#include <stdint.h>

#include "treelab/tl_dataset.h"
#include "treelab/tl_error.h"

/* Write data to NAME inside this process's private temporary folder and return its path
 * (the same file is rewritten at every call). The folder, made at the first call under
 * $TMPDIR (default /tmp) and removed at exit, also holds a link `experiments` to the source
 * tree's experiments/ folder, so that "../experiments/datasets/iris.arff" in a config
 * written as "cfg/input.cfg" names a bundled dataset, as it does from configs/. NAME may
 * hold one folder ("cfg/input.cfg"). Aborts when the file cannot be written: a harness that
 * cannot hand over its input must not pass for a clean run. */
const char *tl_fuzz_input(const uint8_t *data, size_t size, const char *name);

/* A loader's verdict on a rejected input: a user error (TL_EINVAL, TL_EPARSE, TL_EIO,
 * TL_EUNSUPPORTED) or TL_ENOMEM are fine, an internal error (a damaged input reported as a
 * bug in treelab) or an empty message aborts with the message, so libFuzzer keeps the input. */
void tl_fuzz_check_rejection(const tl_err *err, const char *what);

/* The path of NAME in the same folder (for files a harness writes itself, e.g. a saved
 * model); removed at exit with the folder. */
const char *tl_fuzz_path(const char *name);

/* Remove path and, for a folder, everything in it (a link, not what it points to). */
void tl_fuzz_remove_tree(const char *path);

/* What a loaded dataset promises (tl_dataset.h): a column per attribute of its kind, level
 * codes in range or TL_MISSING_CODE, numbers finite or NaN (missing), a target that is
 * missing only when flags has TL_LOAD_UNLABELLED, names and levels present. Aborts naming
 * the first broken promise. */
void tl_fuzz_check_dataset(const tl_dataset *d, unsigned flags);

/* A loader harness: data as file NAME through tl_dataset_load_opts, for the target
 * being the last column and then with TL_LOAD_UNLABELLED; each dataset checked. */
void tl_fuzz_load_dataset(const uint8_t *data, size_t size, const char *name);

/* Abort with a message (a failed invariant): libFuzzer reports it as a crash. */
void tl_fuzz_fail(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));

#endif
