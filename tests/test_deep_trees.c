/* Deep trees on a small C stack: a chain 100,000 splits deep is shown, copied, compacted,
 * saved, loaded, routed and predicted on a thread with a 1 MB stack, and the CLI shows and
 * predicts with crafted deep model files under a 1 MB stack limit. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tl_test_util.h"
#include "treelab/tl_model.h"
#include "treelab/tl_store.h"
#include "treelab/tl_tree.h"

#define SMALL_STACK (1u << 20)

/* The chain's depth. Loading a model file goes through libconfig, which grows an array one
 * element at a time: under AddressSanitizer (whose realloc always copies) that is quadratic,
 * minutes at 100,000 nodes per array. The sanitizer build therefore loads a chain of 10,000
 * splits, still far past what a recursive walk survives on 1 MB; the normal build does the
 * full 100,000 everywhere. */
#define DEPTH 100000
#define LOAD_DEPTH (TL_TEST_ASAN ? 10000 : DEPTH)
/* The depth of the chain grown by the grower: a chain costs time quadratic in its depth (each
 * level scans the rows below it; scikit-learn's too), 100,000 takes minutes, 5,000 well
 * under a second; both are far past the ~1,000 levels a recursive grower survives on 1 MB. */
#define FIT_DEPTH 5000

/* ---- a chain: split i tests x <= i; its branch 0 is a leaf of class i % 2 (weight 1), its
 * branch 1 the next split; the last split's branch 1 is a leaf of class a (weight 1) ---- */

static tl_tree *chain(size_t depth)
{
    tl_err err;
    tl_tree *t = tl_tree_alloc(2, 0, 2 * depth + 1, &err);
    if (!t || tl_tree_add_nodes(t, 1, SIZE_MAX, &err) != 0)
        return NULL;
    size_t node = 0;
    for (size_t i = 0; i < depth; i++) {
        size_t first = tl_tree_add_nodes(t, 2, node, &err);
        if (first == SIZE_MAX) {
            tl_tree_free(t);
            return NULL;
        }
        t->attr[node] = 0;
        t->kind[node] = TL_SPLIT_NUMERIC;
        t->threshold[node] = (double)i;
        t->first_child[node] = first;
        t->n_children[node] = 2;
        t->stats[first * 2 + i % 2] = 1;
        node = first + 1;
    }
    t->stats[node * 2] = 1;
    /* a split holds the weight of its leaves: sum from the bottom up */
    for (size_t i = depth; i-- > 0;) {
        size_t n = 2 * i, a = n + 1, b = n + 2;
        for (int c = 0; c < 2; c++)
            t->stats[n * 2 + c] = t->stats[a * 2 + c] + t->stats[b * 2 + c];
    }
    return t;
}

/* Lengths of the chain's pieces of text: condition of branch b at split i, leaf labels. */
static size_t num_len(size_t i)
{
    char buf[32];
    return (size_t)snprintf(buf, sizeof buf, "%zu", i);
}

static size_t cond_len(size_t i, int b)
{
    return strlen(b ? "x > " : "x <= ") + num_len(i);
}

/* "a (1.0)" / "b (1.0)" */
#define LEAF_LEN 7

/* Bytes of `show --format text` for the chain: per split i, two lines indented 4i up to 64
 * levels, then 256 bytes and "[depth i] " (linear in depth: the chain once printed 40 GB). */
static size_t text_bytes(size_t depth)
{
    size_t n = 0;
    for (size_t i = 0; i < depth; i++) {
        char tag[32];
        size_t indent =
            i <= 64 ? 4 * i : 256 + (size_t)snprintf(tag, sizeof tag, "[depth %zu] ", i);
        n += indent + cond_len(i, 0) + 2 + LEAF_LEN + 1;
        n += indent + cond_len(i, 1) + (i + 1 == depth ? 2 + LEAF_LEN : 0) + 1;
    }
    return n;
}

/* Bytes of the rules: one per leaf, its path's conditions on x merged into one bound
 * ("x <= 0", "0 < x <= 1", ..., "x > 99999"). */
static size_t rules_bytes(size_t depth)
{
    const size_t then = strlen(" THEN y = ") + LEAF_LEN + 1;
    size_t n = 0;
    for (size_t i = 0; i < depth; i++)
        n += 3 + (i ? num_len(i - 1) + strlen(" < x <= ") + num_len(i) : cond_len(0, 0)) + then;
    return n + 3 + (depth ? cond_len(depth - 1, 1) : strlen("true")) + then;
}

/* ---- a write-only stream that counts bytes and keeps the first and last ones ---- */

#define KEEP 256

typedef struct sink {
    size_t bytes;
    char head[KEEP + 1], tail[KEEP + 1];
    size_t n_head, n_tail;
} sink;

static ssize_t sink_write(void *cookie, const char *buf, size_t size)
{
    sink *s = cookie;
    s->bytes += size;
    for (size_t i = 0; i < size && s->n_head < KEEP; i++)
        s->head[s->n_head++] = buf[i];
    if (size >= KEEP) {
        memcpy(s->tail, buf + size - KEEP, KEEP);
        s->n_tail = KEEP;
    } else {
        size_t keep = s->n_tail + size > KEEP ? KEEP - size : s->n_tail;
        memmove(s->tail, s->tail + s->n_tail - keep, keep);
        memcpy(s->tail + keep, buf, size);
        s->n_tail = keep + size;
    }
    s->head[s->n_head] = s->tail[s->n_tail] = '\0';
    return (ssize_t)size;
}

static int starts_with(const char *s, const char *prefix)
{
    return !strncmp(s, prefix, strlen(prefix));
}

static int ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), m = strlen(suffix);
    return n >= m && !strcmp(s + n - m, suffix);
}

static FILE *sink_open(sink *s)
{
    memset(s, 0, sizeof *s);
    cookie_io_functions_t io = {NULL, sink_write, NULL, NULL};
    return fopencookie(s, "w", io);
}

/* ---- the checks, run on a thread with a 1 MB stack (no cmocka calls there: its failures
 * jump back to the main thread's stack); the first failure is kept as a message ---- */

typedef struct deep_job {
    tl_dataset *d; /* x numeric, y in {a, b}: rows x = 1e9, ?, 5.5 */
    char msg[1024];
} deep_job;

#define CHECK(cond, ...)                                                                           \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            snprintf(job->msg, sizeof job->msg, __VA_ARGS__);                                      \
            goto out;                                                                              \
        }                                                                                          \
    } while (0)

static int same_tree(const tl_tree *a, const tl_tree *b)
{
    if (a->n_nodes != b->n_nodes || a->k != b->k)
        return 0;
    for (size_t i = 0; i < a->n_nodes; i++)
        if (a->attr[i] != b->attr[i] || a->kind[i] != b->kind[i] ||
            a->threshold[i] != b->threshold[i] || a->parent[i] != b->parent[i] ||
            (a->attr[i] >= 0 &&
             (a->first_child[i] != b->first_child[i] || a->n_children[i] != b->n_children[i])) ||
            memcmp(a->stats + i * a->k, b->stats + i * a->k, a->k * sizeof(double)))
            return 0;
    return 1;
}

static void *deep_checks(void *arg)
{
    deep_job *job = arg;
    tl_err err;
    tl_err_clear(&err);
    const size_t D = DEPTH;
    tl_tree *t = chain(D), *c = NULL, *l = NULL;
    tl_store *st = NULL;
    double *out = NULL;
    FILE *f = NULL;
    sink s;
    CHECK(t, "building the chain failed");
    CHECK(tl_tree_leaves(t, 0) == D + 1, "leaves %zu", tl_tree_leaves(t, 0));
    CHECK(tl_tree_depth(t, 0) == D, "depth %zu", tl_tree_depth(t, 0));
    CHECK(tl_tree_depth(t, 2 * (D - 1)) == 1, "depth of the last split");

    /* show: text, rules and dot */
    const tl_schema *sc = &job->d->schema;
    CHECK((f = sink_open(&s)), "fopencookie");
    CHECK(!tl_tree_show(t, sc, TL_SHOW_TEXT, f, &err), "text: %s", err.msg);
    fclose(f);
    f = NULL;
    CHECK(s.bytes == text_bytes(D), "text: %zu bytes, expected %zu", s.bytes, text_bytes(D));
    CHECK(starts_with(s.head, "x <= 0: a (1.0)\nx > 0\n|   x <= 1: b (1.0)\n|   x > 1\n"),
          "text starts %s", s.head);
    CHECK(ends_with(s.tail, "|   |   [depth 99999] x > 99999: a (1.0)\n"), "text ends %s", s.tail);
    CHECK((f = sink_open(&s)), "fopencookie");
    CHECK(!tl_tree_show(t, sc, TL_SHOW_RULES, f, &err), "rules: %s", err.msg);
    fclose(f);
    f = NULL;
    CHECK(s.bytes == rules_bytes(D), "rules: %zu bytes, expected %zu", s.bytes, rules_bytes(D));
    CHECK(starts_with(s.head, "IF x <= 0 THEN y = a (1.0)\nIF 0 < x <= 1 THEN y = b (1.0)\n"),
          "rules start %s", s.head);
    CHECK(ends_with(s.tail,
                    "IF 99998 < x <= 99999 THEN y = b (1.0)\nIF x > 99999 THEN y = a (1.0)\n"),
          "rules end %s", s.tail);
    CHECK((f = sink_open(&s)), "fopencookie");
    CHECK(!tl_tree_show(t, sc, TL_SHOW_DOT, f, &err), "dot: %s", err.msg);
    fclose(f);
    f = NULL;
    CHECK(ends_with(s.tail, "  n199998 -> n200000 [label=\"> 99999\"];\n}\n"), "dot ends %s",
          s.tail);

    /* copy, and compaction after cutting the chain in the middle */
    CHECK((c = tl_tree_copy(t, &err)), "copy: %s", err.msg);
    CHECK(same_tree(c, t), "the copy differs");
    tl_tree_make_leaf(c, 2 * (D / 2));
    CHECK(!tl_tree_compact(c, &err), "compact: %s", err.msg);
    CHECK(c->n_nodes == 2 * (D / 2) + 1, "compacted to %zu nodes", c->n_nodes);
    CHECK(tl_tree_depth(c, 0) == D / 2 && tl_tree_leaves(c, 0) == D / 2 + 1, "compacted shape");
    for (size_t i = 0; i < c->n_nodes; i++)
        CHECK(c->attr[i] == t->attr[i] || i == c->n_nodes - 1, "compacted node %zu", i);

    /* predict: to the bottom, down every branch (a missing x), to split 6's leaf */
    const tl_dataset *d = job->d;
    size_t rows[3] = {0, 1, 2};
    CHECK((out = malloc(3 * 2 * sizeof *out)), "malloc");
    CHECK(!tl_tree_predict(t, d, rows, 3, out, &err), "predict: %s", err.msg);
    double wa = (double)((D + 1) / 2 + 1), wb = (double)(D / 2); /* the root's class weights */
    CHECK(out[0] == 1 && out[1] == 0, "row 0: %g %g", out[0], out[1]);
    CHECK(fabs(out[2] - wa / (wa + wb)) < 1e-9 && fabs(out[3] - wb / (wa + wb)) < 1e-9,
          "row 1 (missing): %g %g", out[2], out[3]);
    CHECK(out[4] == 1 && out[5] == 0, "row 2: %g %g", out[4], out[5]);

    /* route and reach */
    free(out);
    CHECK((out = malloc(t->n_nodes * 2 * sizeof *out)), "malloc");
    CHECK(!tl_tree_route(t, d, rows, 3, out, &err), "route: %s", err.msg);
    CHECK(out[0] == 2 && out[1] == 1, "route at the root: %g %g", out[0], out[1]);
    CHECK(out[4 * D] == 1 && fabs(out[4 * D + 1] - 1.0 / (double)(D + 1)) < 1e-12,
          "route at the bottom: %g %g", out[4 * D], out[4 * D + 1]);
    CHECK(fabs(tl_tree_reach_weight(t, 2 * D, d, 1) - 1.0 / (double)(D + 1)) < 1e-12, "reach");

    /* save and load back (a shallower chain under AddressSanitizer: see LOAD_DEPTH) */
    tl_tree *ls = LOAD_DEPTH == D ? t : chain(LOAD_DEPTH);
    CHECK(ls, "building the chain failed");
    char path[] = "/tmp/tl_deep_treeXXXXXX";
    int fd = mkstemp(path);
    CHECK(fd >= 0 && (f = fdopen(fd, "w")), "mkstemp");
    fputs("tree = {\n", f);
    int rc = tl_tree_save(ls, f, 1, &err);
    fputs("};\n", f);
    fclose(f);
    f = NULL;
    if (!rc && (st = tl_store_read(path, &err)))
        l = tl_tree_load(st, "tree", &err);
    remove(path);
    int same = l && same_tree(l, ls);
    if (ls != t)
        tl_tree_free(ls);
    CHECK(!rc, "save: %s", err.msg);
    CHECK(l, "load: %s", err.msg);
    CHECK(same, "the loaded tree differs");
out:
    if (f)
        fclose(f);
    free(out);
    tl_store_free(st);
    tl_tree_free(l);
    tl_tree_free(c);
    tl_tree_free(t);
    return NULL;
}

/* x, y rows: x = 1e9 (to the bottom), missing, 5.5. */
static tl_dataset *chain_data(void)
{
    const char *path = tl_test_tmpfile(".csv", "x,y\n1e9,a\n?,b\n5.5,a\n");
    tl_err err;
    tl_dataset *d = tl_dataset_load(path, "y", &err);
    if (!d)
        fail_msg("%s", err.msg);
    remove(path);
    return d;
}

static void test_deep_chain_on_small_stack(void **state)
{
    (void)state;
    deep_job job = {chain_data(), ""};
    pthread_attr_t attr;
    pthread_t th;
    assert_int_equal(pthread_attr_init(&attr), 0);
    assert_int_equal(pthread_attr_setstacksize(&attr, SMALL_STACK), 0);
    assert_int_equal(pthread_create(&th, &attr, deep_checks, &job), 0);
    assert_int_equal(pthread_join(th, NULL), 0);
    pthread_attr_destroy(&attr);
    tl_dataset_free(job.d);
    if (job.msg[0])
        fail_msg("%s", job.msg);
}

/* The chain's text for depth 2, in full: the byte counts above follow this layout. */
static void test_small_chain_layout(void **state)
{
    (void)state;
    tl_dataset *d = chain_data();
    tl_tree *t = chain(2);
    char buf[1024];
    tl_err err;
    FILE *f = fmemopen(buf, sizeof buf, "w");
    assert_int_equal(tl_tree_show(t, &d->schema, TL_SHOW_TEXT, f, &err), TL_OK);
    fclose(f);
    assert_string_equal(buf, "x <= 0: a (1.0)\nx > 0\n|   x <= 1: b (1.0)\n|   x > 1: a (1.0)\n");
    assert_int_equal(strlen(buf), text_bytes(2));
    f = fmemopen(buf, sizeof buf, "w");
    assert_int_equal(tl_tree_show(t, &d->schema, TL_SHOW_RULES, f, &err), TL_OK);
    fclose(f);
    assert_string_equal(buf, "IF x <= 0 THEN y = a (1.0)\nIF 0 < x <= 1 THEN y = b (1.0)\n"
                             "IF x > 1 THEN y = a (1.0)\n");
    assert_int_equal(strlen(buf), rules_bytes(2));
    tl_tree_free(t);
    tl_dataset_free(d);
}

/* ---- the CLI on crafted model files, under a 1 MB stack limit ---- */

static const char *model_head(const char *algo)
{
    static char buf[1024];
    snprintf(buf, sizeof buf,
             "format = 1;\nalgorithm = \"%s\";\nparams = {\n};\nschema = {\n"
             "  attributes = (\n    {\n      name = \"x\";\n      kind = \"numeric\";\n"
             "      levels = [];\n    }\n  );\n  target = {\n    name = \"y\";\n"
             "    kind = \"nominal\";\n    levels = [\"a\", \"b\"];\n  };\n};\n",
             algo);
    return buf;
}

/* A c45 model file holding the chain. */
static void write_hard_model(const char *path, size_t depth)
{
    tl_tree *t = chain(depth);
    FILE *f = fopen(path, "w");
    assert_non_null(t);
    assert_non_null(f);
    fputs(model_head("c45"), f);
    fputs("state = {\n  chosen_alpha = 0.0;\n  tree = {\n", f);
    tl_err err;
    assert_int_equal(tl_tree_save(t, f, 2, &err), TL_OK);
    fputs("  };\n};\n", f);
    fclose(f);
    tl_tree_free(t);
}

static void put_ints(FILE *f, const char *name, const int *v, size_t n)
{
    fprintf(f, "  %s = [", name);
    for (size_t i = 0; i < n; i++)
        fprintf(f, "%s%d", i ? ", " : "", v[i]);
    fputs("];\n", f);
}

/* A soft_tree model file whose tree is a chain: split i is node 2i, its right child the leaf
 * 2i + 1 and its left child the next split (the last one's: the leaf 2 depth). Left, since a
 * recursive show descends left first: a compiler may turn the right descent into a loop. */
static void write_soft_model(const char *path, size_t depth)
{
    size_t n = 2 * depth + 1, n_theta = depth * 2 + (depth + 1) * 2;
    int *left = malloc(n * sizeof *left), *right = malloc(n * sizeof *right);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    for (size_t i = 0; i < n; i++) {
        int split = i % 2 == 0 && i < 2 * depth;
        left[i] = split ? (int)i + 2 : -1;
        right[i] = split ? (int)i + 1 : -1;
    }
    fputs(model_head("soft_tree"), f);
    fputs("state = {\n  regression = 0;\n  n_out = 2;\n  y_mean = 0.0;\n  y_sd = 1.0;\n"
          "  enc_attr = [0];\n  enc_level = [-1];\n  enc_mean = [0.0];\n  enc_sd = [1.0];\n"
          "  enc_mode = [-1];\n",
          f);
    put_ints(f, "left", left, n);
    put_ints(f, "right", right, n);
    fputs("  theta = [", f);
    for (size_t i = 0; i < n_theta; i++)
        fprintf(f, "%s%s", i ? ", " : "", i % 3 ? "0.5" : "-0.25");
    fputs("];\n  trace = [];\n};\n", f);
    fclose(f);
    free(left);
    free(right);
}

/* Runs the CLI with argv under a 1 MB stack limit, stdout to out_path (or /dev/null).
 * Returns the exit status, or 128 + the signal that killed it. */
static int cli_small_stack(const char *out_path, const char *const *argv)
{
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        struct rlimit rl = {SMALL_STACK, SMALL_STACK};
        int out = open(out_path ? out_path : "/dev/null", O_WRONLY | O_CREAT | O_TRUNC, 0600);
        int null = open("/dev/null", O_WRONLY);
        if (setrlimit(RLIMIT_STACK, &rl) || out < 0 || null < 0 || dup2(out, 1) < 0 ||
            dup2(null, 2) < 0)
            _exit(99);
        execv(TL_CLI, (char *const *)argv);
        _exit(98);
    }
    int status;
    while (waitpid(pid, &status, 0) < 0)
        assert_int_equal(errno, EINTR);
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

static void expect_cli_ok(const char *out_path, const char *const *argv)
{
    int rc = cli_small_stack(out_path, argv);
    if (rc)
        fail_msg("treelab %s %s %s %s: %s %d with a 1 MB stack", argv[1], argv[2],
                 argv[3] ? argv[3] : "", argv[3] && argv[4] ? argv[4] : "",
                 rc >= 128 ? "killed by signal" : "exit status", rc >= 128 ? rc - 128 : rc);
}

static char *slurp(const char *path)
{
    static char buf[4096];
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    buf[n] = '\0';
    fclose(f);
    return buf;
}

static void test_cli_deep_hard_model_small_stack(void **state)
{
    (void)state;
    char model[64], out[64];
    snprintf(model, sizeof model, "/tmp/tl_deep_%ld.model", (long)getpid());
    snprintf(out, sizeof out, "/tmp/tl_deep_%ld.out", (long)getpid());
    write_hard_model(model, LOAD_DEPTH);
    const char *formats[] = {"text", "dot", "rules"};
    for (size_t i = 0; i < 3; i++) {
        const char *argv[] = {"treelab", "show", model, "--format", formats[i], NULL};
        expect_cli_ok(NULL, argv);
    }
    const char *data = tl_test_tmpfile(".csv", "x,y\n1e9,a\n?,b\n5.5,a\n");
    const char *argv[] = {"treelab", "predict", model, data, "--proba", NULL};
    expect_cli_ok(out, argv);
    char *csv = slurp(out);
    double wa = (double)((LOAD_DEPTH + 1) / 2 + 1), wb = (double)(LOAD_DEPTH / 2), pa, pb;
    assert_non_null(strstr(csv, "\n1,a,1,0\n"));
    assert_non_null(strstr(csv, "\n3,a,1,0\n"));
    const char *row2 = strstr(csv, "\n2,a,");
    assert_non_null(row2);
    assert_int_equal(sscanf(row2, "\n2,a,%lf,%lf", &pa, &pb), 2);
    /* printed in full precision; the fractions add up along the chain */
    assert_close(pa, wa / (wa + wb), 1e-12);
    assert_close(pb, wb / (wa + wb), 1e-12);
    remove(model);
    remove(out);
    remove(data);
}

/* The grower itself: a chain as deep as the data is long (x = i, classes alternating), grown
 * through the CLI with a 1 MB stack, where a recursive grower overflows within about a
 * thousand levels; then shown and applied the same way. */
static void test_cli_fit_deep_chain_small_stack(void **state)
{
    (void)state;
    char csv[64], model[64], out[64];
    snprintf(csv, sizeof csv, "/tmp/tl_chain_%ld.csv", (long)getpid());
    snprintf(model, sizeof model, "/tmp/tl_chain_%ld.model", (long)getpid());
    snprintf(out, sizeof out, "/tmp/tl_chain_%ld.out", (long)getpid());
    FILE *f = fopen(csv, "w");
    assert_non_null(f);
    fputs("x,y\n", f);
    for (size_t i = 0; i < FIT_DEPTH + 1; i++)
        fprintf(f, "%zu,%c\n", i, i % 2 ? 'b' : 'a');
    fclose(f);
    /* (C4.5's log2(cuts)/|D| charge leaves no cut worth taking on this data: a single leaf) */
    const char *crit[] = {"criterion=gini", "criterion=hellinger"};
    for (int a = 0; a < 2; a++) {
        const char *fit[] = {"treelab", "fit",   csv,  "--algo", "tree",
                             "--set",   crit[a], "-o", model,    NULL};
        expect_cli_ok(NULL, fit);
        const char *show[] = {"treelab", "show", model, "--format", "dot", NULL};
        expect_cli_ok(NULL, show);
        const char *predict[] = {"treelab", "predict", model, csv, NULL};
        expect_cli_ok(out, predict);
        /* every training row is predicted right: the chain has one leaf per row */
        FILE *p = fopen(out, "r");
        char line[128];
        size_t rows = 0, right = 0;
        assert_non_null(fgets(line, sizeof line, p)); /* header */
        while (fgets(line, sizeof line, p)) {
            size_t r;
            char pred;
            if (sscanf(line, "%zu,%c", &r, &pred) == 2)
                rows++, right += pred == ((r - 1) % 2 ? 'b' : 'a');
        }
        fclose(p);
        assert_int_equal(rows, FIT_DEPTH + 1);
        assert_int_equal(right, rows);
    }
    remove(csv);
    remove(model);
    remove(out);
}

static void test_cli_deep_soft_model_small_stack(void **state)
{
    (void)state;
    char model[64];
    snprintf(model, sizeof model, "/tmp/tl_deep_soft_%ld.model", (long)getpid());
    write_soft_model(model, LOAD_DEPTH);
    const char *formats[] = {"text", "dot"};
    for (size_t i = 0; i < 2; i++) {
        const char *argv[] = {"treelab", "show", model, "--format", formats[i], NULL};
        expect_cli_ok(NULL, argv);
    }
    remove(model);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_small_chain_layout),
        cmocka_unit_test(test_deep_chain_on_small_stack),
        cmocka_unit_test(test_cli_deep_hard_model_small_stack),
        cmocka_unit_test(test_cli_deep_soft_model_small_stack),
        cmocka_unit_test(test_cli_fit_deep_chain_small_stack),
    };
    if (getenv("TL_TEST_FILTER"))
        cmocka_set_test_filter(getenv("TL_TEST_FILTER"));
    return cmocka_run_group_tests(tests, NULL, NULL);
}
