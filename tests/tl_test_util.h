/* Helpers shared by the cmocka tests. */
#ifndef TL_TEST_UTIL_H
#define TL_TEST_UTIL_H

#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "treelab/tl_dataset.h"
#include "treelab/tl_experiment.h"
#include "treelab/tl_log.h"
#include "treelab/tl_model.h"

/* 1 in a build with AddressSanitizer (several times slower: the costliest checks shrink), else
 * 0. */
#if defined(__SANITIZE_ADDRESS__)
#define TL_TEST_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define TL_TEST_ASAN 1
#endif
#endif
#ifndef TL_TEST_ASAN
#define TL_TEST_ASAN 0
#endif

/* Absolute path of a file in the source tree ("experiments/datasets/iris.arff"). The
 * returned buffer is static and overwritten by the next call. */
const char *tl_test_path(const char *rel);

/* Load a dataset from the source tree, failing the test with the message on error. */
tl_dataset *tl_test_load(const char *rel, const char *target);

/* experiments/datasets/FILE as scikit-learn peer scripts read it (target "-": the last
 * column): attributes rounded to float32 (scikit-learn's trees read float32), nominal
 * attributes left out when the target is numeric. */
tl_dataset *tl_test_load_sklearn(const char *file, const char *target);

/* A dataset loaded from text written to a temporary file (suffix ".csv" or ".arff", removed
 * again); the test fails when loading fails. */
tl_dataset *tl_test_load_text(const char *suffix, const char *text, const char *target);

/* A learner `algo` with parameters "key=value" (kv NULL-terminated, may be NULL) fitted on
 * every row of d with seed; NULL + err when refused (a bad parameter fails the test). */
tl_model *tl_test_fit(const char *algo, const tl_dataset *d, const char *const *kv,
                      unsigned long seed, tl_err *err);

/* The same with seed 1, failing the test (with the message) when the learner refuses. */
tl_model *tl_test_fitted(const char *algo, const tl_dataset *d, const char *const *kv);

/* m saved to a temporary file and loaded back (the file removed); *text, when asked, gets the
 * saved file's content (free it). Fails the test on any error. */
tl_model *tl_test_reload(const tl_model *m, char **text);

/* What tl_model_show prints for m in fmt, as a new string (free it); fails the test on error. */
char *tl_test_show(const tl_model *m, tl_show_format fmt);

/* k-fold stratified CV accuracy of learner `algo` with parameters kv (NULL-terminated, may be
 * NULL) on a classification data set of the source tree: folds dealt from each class's rows
 * shuffled with mt19937 seed 1, fold f fitted with seed 100 + f. Prints it; fails the test on
 * an error. */
double tl_test_cv_accuracy(const char *algo, const char *rel, const char *const *kv, size_t k);
/* n fold numbers read from text (a new array; free it), failing the test when one is missing. */
size_t *tl_test_read_folds(const char *text, size_t n);
/* The same on given folds (fold[i] in [0, k) for each row of d), not printed. */
double tl_test_cv_on_folds(const char *algo, const tl_dataset *d, const size_t *fold, size_t k,
                           const char *const *kv);

/* A PyTorch CV fixture (scripts/peers/torch_soft_*) walked: each "folds NAME f1 f2 ..." line
 * (NAME a data set of experiments/datasets) loads the data set and its folds, and every other
 * line "KIND NAME REST" is passed to line (rest: the text after NAME). Lines of data set skip
 * (or NULL) are passed over, counted into *skipped (may be NULL). Returns the lines passed. */
typedef void (*tl_test_fixture_line)(const tl_dataset *d, const size_t *fold, const char *name,
                                     const char *rest, void *ctx);
size_t tl_test_fixture_walk(const char *fixture, const char *skip, size_t *skipped,
                            tl_test_fixture_line line, void *ctx);
/* The walk of "cv NAME WORD... ACCURACY" lines, whose i-th WORD sets
 * keys[i] (NULL-terminated) of learner algo, with extra (a KEY=VALUE, or NULL): each refitted
 * on the line's folds and compared, within 3 points, 1.5 on breast cancer. Lines of data set
 * skip (or NULL) are passed over, counted into *skipped (may be NULL). Returns the lines
 * checked. */
size_t tl_test_cv_fixture(const char *fixture, const char *algo, const char *const *keys,
                          const char *extra, const char *skip, size_t *skipped);

/* Fails the test unless tl_model_new(algo) refuses key = value with a message containing msg. */
void tl_test_refused(const char *algo, const char *key, const char *value, const char *msg);

/* Run the treelab CLI with a shell command line fragment; stdout and stderr captured into
 * the given buffers (may be NULL). Returns the exit status. */
int tl_test_cli(const char *args, char *out, size_t out_size, char *errbuf, size_t err_size);

/* Write text to a fresh temporary file and return its path (static buffer). suffix like
 * ".csv" keeps the loader's format detection. */
const char *tl_test_tmpfile(const char *suffix, const char *text);

/* Rows of block `index` of a gnuplot data file (blocks end with two blank lines): up to
 * TL_TEST_DAT_COLS numeric columns, quoted strings and absent columns read as NaN; '#'
 * lines skipped. Returns the number of rows (at most max). Fails the test if unreadable. */
#define TL_TEST_DAT_COLS 8
size_t tl_test_dat_block(const char *path, int index, double rows[][TL_TEST_DAT_COLS], size_t max);

/* Width and height from a PNG's IHDR; fails the test unless path is a PNG. */
void tl_test_png_size(const char *path, unsigned *w, unsigned *h);

/* The whole content of a file as a new string (free it); fails the test if unreadable. */
char *tl_test_slurp(const char *path);
/* The same for file `name` of folder dir ("results/x", "metrics.csv"). */
char *tl_test_slurp_in(const char *dir, const char *name);

/* Hidden temporaries (".NAME.tmp", a file still being written) in folder dir; 0 when the
 * folder does not exist. */
int tl_test_temporaries(const char *dir);

/* A log hook that counts the warnings into tl_test_n_warnings and keeps the last one's text
 * (tl_log_set_hook(tl_test_warning_hook, NULL); the test zeroes the count). */
extern int tl_test_n_warnings;
extern char tl_test_last_warning[2048];
void tl_test_warning_hook(tl_log_level level, const char *msg, void *user);

/* Make s a one-parameter nested selection (param over values[0..n), inner CV of `folds`
 * folds); its arrays are static, valid until the next call. */
void tl_test_select_one(tl_exp_select *s, const char *param, char **values, size_t n, size_t folds);

#define assert_close(a, b, tol)                                                                    \
    do {                                                                                           \
        double tl_a_ = (a), tl_b_ = (b);                                                           \
        if (!(fabs(tl_a_ - tl_b_) <= (tol)))                                                       \
            fail_msg("%s = %.12g, expected %.12g (tol %g)", #a, tl_a_, tl_b_, (double)(tol));      \
    } while (0)

#endif
