/* Helpers shared by the cmocka tests. */
#include "tl_test_util.h"

#include <dirent.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

const char *tl_test_path(const char *rel)
{
    static char buf[4096];
    snprintf(buf, sizeof buf, "%s/%s", TL_SOURCE_DIR, rel);
    return buf;
}

tl_dataset *tl_test_load(const char *rel, const char *target)
{
    tl_err err;
    tl_err_clear(&err);
    gsl_set_error_handler_off();
    tl_dataset *d = tl_dataset_load(tl_test_path(rel), target, &err);
    if (!d)
        fail_msg("loading %s: %s", rel, err.msg);
    return d;
}

tl_dataset *tl_test_load_sklearn(const char *file, const char *target)
{
    char rel[256];
    snprintf(rel, sizeof rel, "experiments/datasets/%s", file);
    tl_dataset *d = tl_test_load(rel, strcmp(target, "-") ? target : NULL);
    if (!tl_dataset_is_classification(d)) {
        const char *keep[64];
        size_t n = 0;
        for (size_t j = 0; j < d->schema.n_attrs && n < 64; j++)
            if (d->schema.attrs[j].kind == TL_ATTR_NUMERIC)
                keep[n++] = d->schema.attrs[j].name;
        tl_err err;
        if (tl_dataset_select(d, keep, n, &err))
            fail_msg("%s", err.msg);
    }
    for (size_t j = 0; j < d->schema.n_attrs; j++)
        for (size_t r = 0; r < d->n_rows; r++)
            d->cols[j].num[r] = (double)(float)d->cols[j].num[r];
    return d;
}

static void slurp(FILE *f, char *buf, size_t size)
{
    if (!buf || !size)
        return;
    size_t n = fread(buf, 1, size - 1, f);
    buf[n] = '\0';
}

int tl_test_cli(const char *args, char *out, size_t out_size, char *errbuf, size_t err_size)
{
    char outp[] = "/tmp/tl_cli_outXXXXXX", errp[] = "/tmp/tl_cli_errXXXXXX";
    int fo = mkstemp(outp), fe = mkstemp(errp);
    if (fo < 0 || fe < 0)
        fail_msg("mkstemp failed");
    close(fo);
    close(fe);
    char cmd[8192];
    snprintf(cmd, sizeof cmd, "cd '%s' && '%s' %s >'%s' 2>'%s' </dev/null", TL_SOURCE_DIR, TL_CLI,
             args, outp, errp);
    int rc = system(cmd);
    int status = WIFEXITED(rc) ? WEXITSTATUS(rc) : 128;
    FILE *f = fopen(outp, "r");
    if (f) {
        slurp(f, out, out_size);
        fclose(f);
    }
    f = fopen(errp, "r");
    if (f) {
        slurp(f, errbuf, err_size);
        fclose(f);
    }
    remove(outp);
    remove(errp);
    return status;
}

/* Every file tl_test_tmpfile made, removed when the program exits (a test that fails midway
 * leaves none behind; one already removed is skipped). */
static char (*made)[256];
static size_t n_made, cap_made;

static void remove_made(void)
{
    for (size_t i = 0; i < n_made; i++)
        remove(made[i]);
    free(made);
}

const char *tl_test_tmpfile(const char *suffix, const char *text)
{
    static char path[256];
    static unsigned counter;
    snprintf(path, sizeof path, "/tmp/tl_test_%ld_%u%s", (long)getpid(), counter++, suffix);
    if (n_made == cap_made) {
        size_t cap = cap_made ? 2 * cap_made : 16;
        char(*more)[256] = realloc(made, cap * sizeof *made);
        if (!more)
            fail_msg("out of memory");
        if (!made)
            atexit(remove_made);
        made = more, cap_made = cap;
    }
    memcpy(made[n_made++], path, sizeof path);
    FILE *f = fopen(path, "wb");
    if (!f)
        fail_msg("cannot write %s", path);
    fputs(text, f);
    fclose(f);
    return path;
}

/* Rows of block `index` of a gnuplot data file (blocks end with two blank lines); numeric
 * columns parsed, quoted strings read as NaN. Returns the number of rows. */
size_t tl_test_dat_block(const char *path, int index, double rows[][TL_TEST_DAT_COLS], size_t max)
{
    FILE *f = fopen(path, "r");
    if (!f)
        fail_msg("cannot read %s", path);
    char line[1024];
    int b = 0, blanks = 0;
    size_t n = 0;
    while (fgets(line, sizeof line, f)) {
        if (line[0] == '\n') {
            if (++blanks == 2)
                b++;
            continue;
        }
        blanks = 0;
        if (line[0] == '#' || b != index || n >= max)
            continue;
        char *p = line;
        for (int c = 0; c < TL_TEST_DAT_COLS; c++) {
            while (*p == ' ')
                p++;
            if (*p == '\n' || !*p) {
                rows[n][c] = NAN;
                continue;
            }
            if (*p == '"') {
                p = strchr(p + 1, '"') + 1;
                rows[n][c] = NAN;
            } else
                rows[n][c] = strtod(p, &p);
        }
        n++;
    }
    fclose(f);
    return n;
}

void tl_test_png_size(const char *path, unsigned *w, unsigned *h)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        fail_msg("no PNG %s", path);
    unsigned char hd[24];
    size_t got = fread(hd, 1, sizeof hd, f);
    fclose(f);
    assert_int_equal(got, 24);
    assert_memory_equal(hd, "\x89PNG\r\n\x1a\n", 8);
    assert_memory_equal(hd + 12, "IHDR", 4);
    *w = (unsigned)hd[16] << 24 | (unsigned)hd[17] << 16 | (unsigned)hd[18] << 8 | hd[19];
    *h = (unsigned)hd[20] << 24 | (unsigned)hd[21] << 16 | (unsigned)hd[22] << 8 | hd[23];
}

char *tl_test_slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        fail_msg("cannot read %s", path);
    size_t cap = 1 << 12, n = 0, got;
    char *s = malloc(cap);
    while (s && (got = fread(s + n, 1, cap - n - 1, f)) > 0)
        if ((n += got) + 1 == cap)
            s = realloc(s, cap *= 2);
    fclose(f);
    assert_non_null(s);
    s[n] = '\0';
    return s;
}

char *tl_test_slurp_in(const char *dir, const char *name)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    return tl_test_slurp(path);
}

void tl_test_select_one(tl_exp_select *s, const char *param, char **values, size_t n, size_t folds)
{
    static char *params[1];
    static char **lists[1];
    static size_t counts[1];
    params[0] = (char *)param;
    lists[0] = values;
    counts[0] = n;
    memset(s, 0, sizeof *s);
    s->n_params = 1;
    s->params = params;
    s->values = lists;
    s->n_values = counts;
    s->n_candidates = n;
    s->folds = folds;
    s->repeats = 1;
}

void tl_test_refused(const char *algo, const char *key, const char *value, const char *msg)
{
    tl_params p;
    tl_params_init(&p);
    tl_params_set(&p, key, value, NULL);
    tl_err err;
    tl_model *m = tl_model_new(algo, &p, &err);
    tl_params_clear(&p);
    if (m) {
        tl_model_free(m);
        fail_msg("%s accepted %s = %s", algo, key, value);
    }
    if (!strstr(err.msg, msg))
        fail_msg("%s = %s: '%s' does not say '%s'", key, value, err.msg, msg);
}

tl_model *tl_test_fit(const char *algo, const tl_dataset *d, const char *const *kv,
                      unsigned long seed, tl_err *err)
{
    tl_params p;
    tl_params_init(&p);
    for (; kv && *kv; kv++)
        if (tl_params_set_kv(&p, *kv, err))
            fail_msg("%s", err->msg);
    tl_model *m = tl_model_new(algo, &p, err);
    tl_params_clear(&p);
    if (!m)
        return NULL;
    tl_fit_ctx ctx = {.seed = seed};
    if (tl_model_fit(m, d, NULL, 0, &ctx, err)) {
        tl_model_free(m);
        return NULL;
    }
    return m;
}

tl_model *tl_test_fitted(const char *algo, const tl_dataset *d, const char *const *kv)
{
    tl_err err;
    tl_model *m = tl_test_fit(algo, d, kv, 1, &err);
    if (!m)
        fail_msg("fit %s: %s", algo, err.msg);
    return m;
}

tl_model *tl_test_reload(const tl_model *m, char **text)
{
    char path[256];
    snprintf(path, sizeof path, "%s", tl_test_tmpfile(".model", ""));
    tl_err err;
    if (tl_model_save(m, path, &err))
        fail_msg("save: %s", err.msg);
    if (text)
        *text = tl_test_slurp(path);
    tl_model *back = tl_model_load(path, &err);
    remove(path);
    if (!back)
        fail_msg("load: %s", err.msg);
    return back;
}

char *tl_test_show(const tl_model *m, tl_show_format fmt)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    tl_err err;
    if (!f)
        fail_msg("open_memstream failed");
    if (tl_model_show(m, fmt, f, &err))
        fail_msg("show: %s", err.msg);
    fclose(f);
    return buf;
}

tl_dataset *tl_test_load_text(const char *suffix, const char *text, const char *target)
{
    const char *path = tl_test_tmpfile(suffix, text);
    tl_err err;
    tl_dataset *d = tl_dataset_load(path, target, &err);
    if (!d)
        fail_msg("loading %s: %s", text, err.msg);
    remove(path);
    return d;
}

int tl_test_n_warnings;
char tl_test_last_warning[2048];

void tl_test_warning_hook(tl_log_level level, const char *msg, void *user)
{
    (void)user;
    if (level != TL_LOG_WARN)
        return;
    tl_test_n_warnings++;
    snprintf(tl_test_last_warning, sizeof tl_test_last_warning, "%s", msg);
}

int tl_test_temporaries(const char *dir)
{
    int n = 0;
    DIR *d = opendir(dir);
    for (struct dirent *e; d && (e = readdir(d));) {
        size_t len = strlen(e->d_name);
        n += e->d_name[0] == '.' && len > 4 && !strcmp(e->d_name + len - 4, ".tmp");
    }
    if (d)
        closedir(d);
    return n;
}

/* Stratified k folds: each class's rows shuffled (mt19937, seed) and dealt round-robin,
 * continuing the deal across classes so fold sizes differ by at most one. */
static void stratified_folds(const tl_dataset *d, size_t k, unsigned long seed, size_t *fold)
{
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(r, seed);
    size_t n = d->n_rows, K = tl_dataset_n_classes(d), next = 0;
    size_t *idx = malloc(n * sizeof *idx);
    for (size_t c = 0; c < K; c++) {
        size_t m = 0;
        for (size_t i = 0; i < n; i++)
            if ((size_t)d->y.code[i] == c)
                idx[m++] = i;
        gsl_ran_shuffle(r, idx, m, sizeof *idx);
        for (size_t i = 0; i < m; i++)
            fold[idx[i]] = next++ % k;
    }
    free(idx);
    gsl_rng_free(r);
}

double tl_test_cv_on_folds(const char *algo, const tl_dataset *d, const size_t *fold, size_t k,
                           const char *const *kv)
{
    size_t n = d->n_rows, *tr = malloc(n * sizeof *tr), *te = malloc(n * sizeof *te), correct = 0;
    double *lab = malloc(n * sizeof *lab);
    for (size_t f = 0; f < k; f++) {
        size_t ntr = 0, nte = 0;
        for (size_t i = 0; i < n; i++) {
            if (fold[i] == f)
                te[nte++] = i;
            else
                tr[ntr++] = i;
        }
        tl_params p;
        tl_err err;
        tl_params_init(&p);
        for (const char *const *e = kv; e && *e; e++)
            if (tl_params_set_kv(&p, *e, &err))
                fail_msg("%s", err.msg);
        tl_model *m = tl_model_new(algo, &p, &err);
        tl_params_clear(&p);
        tl_fit_ctx ctx = {.seed = 100 + f};
        if (!m || tl_model_fit(m, d, tr, ntr, &ctx, &err) ||
            tl_model_predict_label(m, d, te, nte, lab, &err))
            fail_msg("%s fold %zu: %s", algo, f, err.msg);
        for (size_t i = 0; i < nte; i++)
            correct += (int)lab[i] == d->y.code[te[i]];
        tl_model_free(m);
    }
    free(tr);
    free(te);
    free(lab);
    return (double)correct / (double)n;
}

size_t tl_test_fixture_walk(const char *fixture, const char *skip, size_t *skipped,
                            tl_test_fixture_line line, void *ctx)
{
    FILE *in = fopen(tl_test_path(fixture), "r");
    assert_non_null(in);
    static char text[65536];
    char name[64] = "";
    tl_dataset *d = NULL;
    size_t *fold = NULL, walked = 0;
    while (fgets(text, sizeof text, in)) {
        char kind[16];
        int used;
        if (sscanf(text, "%15s %63s%n", kind, name, &used) != 2 || kind[0] == '#')
            continue;
        if (skip && !strcmp(name, skip)) {
            if (skipped)
                *skipped += strcmp(kind, "folds") != 0;
            continue;
        }
        if (!strcmp(kind, "folds")) {
            char rel[128];
            snprintf(rel, sizeof rel, "experiments/datasets/%s.arff", name);
            tl_dataset_free(d);
            d = tl_test_load(rel, NULL);
            free(fold);
            fold = tl_test_read_folds(text + used, d->n_rows);
            continue;
        }
        assert_non_null(d);
        line(d, fold, name, text + used, ctx);
        walked++;
    }
    fclose(in);
    tl_dataset_free(d);
    free(fold);
    return walked;
}

typedef struct cv_fixture {
    const char *algo, *const *keys, *extra;
} cv_fixture;

/* One "cv" line of tl_test_cv_fixture. */
static void cv_fixture_line(const tl_dataset *d, const size_t *fold, const char *name,
                            const char *at, void *ctx)
{
    enum { MAX_KEYS = 4 };
    const cv_fixture *c = ctx;
    char kv[MAX_KEYS][64], what[256] = "";
    const char *set[MAX_KEYS + 2];
    size_t n = 0;
    for (; c->keys[n]; n++) {
        char word[32];
        int len;
        assert_true(n < MAX_KEYS);
        assert_int_equal(sscanf(at, "%31s%n", word, &len), 1);
        at += len;
        snprintf(kv[n], sizeof kv[n], "%s=%s", c->keys[n], word);
        set[n] = kv[n];
        size_t w = strlen(what);
        snprintf(what + w, sizeof what - w, " %s", word);
    }
    set[n] = c->extra;
    set[n + 1] = NULL;
    double want;
    assert_int_equal(sscanf(at, "%lf", &want), 1);
    double got = tl_test_cv_on_folds(c->algo, d, fold, 10, set),
           tol = !strcmp(name, "iris") || !strcmp(name, "wine") ? 0.03 : 0.015;
    print_message("%s%s: treelab %.4f, torch %.4f\n", name, what, got, want);
    if (fabs(got - want) > tol)
        fail_msg("%s%s: treelab %.4f, torch %.4f", name, what, got, want);
}

size_t tl_test_cv_fixture(const char *fixture, const char *algo, const char *const *keys,
                          const char *extra, const char *skip, size_t *skipped)
{
    cv_fixture c = {algo, keys, extra};
    return tl_test_fixture_walk(fixture, skip, skipped, cv_fixture_line, &c);
}

size_t *tl_test_read_folds(const char *text, size_t n)
{
    size_t *fold = malloc((n ? n : 1) * sizeof *fold);
    for (size_t i = 0; i < n; i++) {
        char *end;
        fold[i] = (size_t)strtoul(text, &end, 10);
        if (end == text)
            fail_msg("fold %zu of %zu missing", i, n);
        text = end;
    }
    return fold;
}

double tl_test_cv_accuracy(const char *algo, const char *rel, const char *const *kv, size_t k)
{
    tl_dataset *d = tl_test_load(rel, NULL);
    size_t *fold = malloc(d->n_rows * sizeof *fold);
    stratified_folds(d, k, 1, fold);
    double acc = tl_test_cv_on_folds(algo, d, fold, k, kv);
    free(fold);
    tl_dataset_free(d);
    printf("%s %zu-fold stratified CV accuracy on %s: %.4f", algo, k, rel, acc);
    for (const char *const *e = kv; e && *e; e++)
        printf("%s%s%s", e == kv ? " (" : ", ", *e, e[1] ? "" : ")");
    printf("\n");
    return acc;
}
