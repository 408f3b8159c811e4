/* A report as a reader sees it: every figure title fits its canvas (no line over 64
 * characters at 20 points on 1200 pixels, no 17-digit number), probability keys sit beside
 * the square, no confusion matrix is an upscaled raster, report.html has a table of
 * contents, named tables and summary.md's statistics, summary.md puts the verdict and the
 * compared metric first, and metrics.csv keeps full precision. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tl_test_markup.h"
#include "tl_test_util.h"

static char root[64];

/* Run the config text into root/name with the CLI; the results folder (static). */
static const char *run(const char *name, const char *text)
{
    static char out[256];
    char cfg[256], args[1024], e[8192];
    if (!root[0]) {
        strcpy(root, "/tmp/tl_layout_XXXXXX");
        assert_non_null(mkdtemp(root));
    }
    snprintf(cfg, sizeof cfg, "%s/%s.cfg", root, name);
    snprintf(out, sizeof out, "%s/%s", root, name);
    FILE *f = fopen(cfg, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
    snprintf(args, sizeof args, "run '%s' --out '%s' --quiet", cfg, out);
    if (tl_test_cli(args, NULL, 0, e, sizeof e))
        fail_msg("treelab %s: %s", args, e);
    return out;
}

/* Two datasets, the baseline, C4.5 and CART pruned by CV, every figure kind of a default
 * report; filled in by layout(). */
static char cfg_text[2048];

static const char *layout_dir;

static const char *layout(void)
{
    if (!layout_dir) {
        const char *ds = TL_SOURCE_DIR "/experiments/datasets";
        snprintf(cfg_text, sizeof cfg_text,
                 "name = \"layout\";\nseed = 3;\n"
                 "datasets = ( \"%s/breast_cancer.arff\", \"%s/wine.arff\" );\n"
                 "models = ( { name = \"naive_bayes_baseline\"; algorithm = \"gaussian_nb\"; },\n"
                 "  { name = \"c45\"; algorithm = \"c45\"; },\n"
                 "  { name = \"cart\"; algorithm = \"cart\"; params = { prune = \"cv\"; }; } );\n"
                 "protocol = { kind = \"cv\"; folds = 3; repeats = 1; stratified = true; };\n"
                 "baseline = \"naive_bayes_baseline\";\n"
                 "plots = [ \"accuracy\", \"critical_difference\", \"confusion\", \"pruning\", "
                 "\"roc\", \"reliability\" ];\n",
                 ds, ds);
        layout_dir = strdup(run("layout", cfg_text));
    }
    return layout_dir;
}

/* The lines of a `set title A."\n".B ...` command: each single-quoted piece checked. Returns
 * the number of lines. */
static int title_lines(const char *cmd, const char *file)
{
    int lines = 0;
    const char *s = cmd + strlen("set title ");
    while (*s == '\'') {
        size_t chars = 0, digits = 0, longest_digits = 0;
        for (s++; *s && !(*s == '\'' && s[1] != '\''); s++) {
            if (*s == '\'')
                s++; /* a doubled quote is one character */
            chars += ((unsigned char)*s & 0xc0) != 0x80;
            digits = *s >= '0' && *s <= '9' ? digits + 1 : 0;
            if (digits > longest_digits)
                longest_digits = digits;
        }
        if (chars > 64)
            fail_msg("%s: a title line of %zu characters: %.200s", file, chars, cmd);
        if (longest_digits > 6)
            fail_msg("%s: a title number of %zu digits: %.200s", file, longest_digits, cmd);
        lines++;
        if (*s)
            s++;
        if (strncmp(s, ".\"\\n\".", 6))
            break;
        s += 6;
    }
    if (!lines)
        fail_msg("%s: no quoted title in %.200s", file, cmd);
    return lines;
}

static void test_figure_titles_fit(void **state)
{
    (void)state;
    char path[512];
    snprintf(path, sizeof path, "%s/plots", layout());
    DIR *d = opendir(path);
    assert_non_null(d);
    size_t scripts = 0, wrapped = 0, proba = 0, confusion = 0;
    for (struct dirent *e; (e = readdir(d));) {
        size_t len = strlen(e->d_name);
        if (len < 4 || strcmp(e->d_name + len - 3, ".gp"))
            continue;
        char name[300];
        snprintf(name, sizeof name, "plots/%s", e->d_name);
        char *gp = tl_test_slurp_in(layout(), name);
        const char *t = strstr(gp, "\nset title '");
        if (!t)
            fail_msg("%s has no title", name);
        int lines = title_lines(t + 1, name);
        wrapped += lines > 1;
        if (!strncmp(e->d_name, "roc_", 4) || !strncmp(e->d_name, "reliability_", 12)) {
            /* the key beside the square, not over the curves */
            assert_non_null(strstr(gp, "set key outside right"));
            proba++;
        }
        if (!strncmp(e->d_name, "confusion_", 10)) {
            assert_non_null(strstr(gp, "with image pixels"));
            confusion++;
        }
        if (!strncmp(e->d_name, "pruning_", 8)) {
            /* the chosen alpha at 4 significant digits, not 17 */
            const char *a = strstr(t, "alpha = ");
            assert_non_null(a);
            double alpha = strtod(a + 8, NULL);
            char want[64];
            snprintf(want, sizeof want, "alpha = %.4g chosen", alpha);
            assert_non_null(strstr(t, want));
            assert_true(alpha > 0);
        }
        free(gp);
        scripts++;
    }
    closedir(d);
    /* accuracy, CD, 2 x 3 confusion, 2 pruning, 2 roc, 2 reliability */
    assert_int_equal(scripts, 1 + 1 + 6 + 2 + 2 + 2);
    assert_int_equal(proba, 4);
    assert_int_equal(confusion, 6);
    /* the confusion matrices, the CD diagram and the pruning curves had one long line */
    assert_true(wrapped >= 6 + 1 + 2);
}

static void test_html_layout(void **state)
{
    (void)state;
    char *html = tl_test_slurp_in(layout(), "report.html");
    tl_test_html_check(html); /* balanced tags, entities */
    /* no raster anywhere: each confusion cell is a vector rectangle */
    assert_null(strstr(html, "<image"));
    /* the contents lead to each table, the statistics and each figure */
    const char *nav = strstr(html, "<nav>"), *end = strstr(html, "</nav>");
    assert_true(nav && end && nav < end);
    const char *links[] = {"href=\"#metric-accuracy\"",
                           "href=\"#metric-roc_auc_macro\"",
                           "href=\"#statistics\"",
                           "href=\"#fig-critical_difference\"",
                           "href=\"#fig-confusion_wine__cart\"",
                           "href=\"#fig-pruning_wine__cart\""};
    for (size_t i = 0; i < sizeof links / sizeof *links; i++) {
        const char *l = strstr(nav, links[i]);
        if (!l || l > end)
            fail_msg("no %s in the contents", links[i]);
    }
    /* the metric named above its table */
    const char *h = strstr(html, "<h3 id=\"metric-balanced_accuracy\">balanced_accuracy</h3>\n"
                                 "<table>\n<caption>balanced_accuracy: mean");
    assert_non_null(h);
    /* summary.md's Friedman line and Wilcoxon / Holm table, in the HTML as well */
    char *md = tl_test_slurp_in(layout(), "summary.md");
    const char *fr = strstr(md, "\nFriedman chi² = ");
    assert_non_null(fr);
    char line[512];
    snprintf(line, sizeof line, "%.*s", (int)strcspn(fr + 1, "\n"), fr + 1);
    assert_non_null(strstr(html, line));
    const char *c45 = strstr(strstr(md, "Wilcoxon p"), "\n| c45 | ");
    assert_non_null(c45);
    double rp, rm;
    assert_int_equal(sscanf(c45, "\n| c45 | %lf | %lf |", &rp, &rm), 2);
    snprintf(line, sizeof line, "<tr><td>c45</td><td>%.1f</td><td>%.1f</td>", rp, rm);
    assert_non_null(strstr(html, line));
    assert_non_null(strstr(html, "<th>Holm</th>"));
    free(md);
    free(html);
}

/* Field col (0-based) of a CSV line as text. */
static void field(const char *line, int col, char *buf, size_t size)
{
    for (int i = 0; i < col; i++)
        line = strchr(line, ',') + 1;
    snprintf(buf, size, "%.*s", (int)strcspn(line, ",\n"), line);
}

static void test_full_precision(void **state)
{
    (void)state;
    char *csv = tl_test_slurp_in(layout(), "metrics.csv");
    /* dataset,model,repeat,fold,n_train,n_test,accuracy,...: wine's folds hold 59 or 60 rows,
     * so an accuracy is k / 59 or k / 60 exactly, which 6 decimals cannot say */
    assert_non_null(strstr(csv, "dataset,model,repeat,fold,n_train,n_test,accuracy,"));
    size_t rows = 0, inexact6 = 0;
    for (const char *l = strstr(csv, "\nwine,"); l; l = strstr(l + 1, "\nwine,")) {
        char nt[32], acc[64];
        field(l + 1, 5, nt, sizeof nt);
        field(l + 1, 6, acc, sizeof acc);
        double n = strtod(nt, NULL), a = strtod(acc, NULL), k = round(a * n);
        if (a != k / n)
            fail_msg("wine accuracy %s is not %g / %g", acc, k, n);
        char six[32];
        snprintf(six, sizeof six, "%.6f", a);
        inexact6 += strtod(six, NULL) != a;
        rows++;
    }
    assert_int_equal(rows, 9);
    assert_true(inexact6 > 0); /* else the test could not tell */
    free(csv);
}

static void test_summary_columns(void **state)
{
    (void)state;
    char *md = tl_test_slurp_in(layout(), "summary.md");
    const char *head = "| model | vs baseline (p) | accuracy | balanced_accuracy | roc_auc_macro "
                       "| leaves | n |\n";
    assert_int_equal(tl_test_count(md, head), 2);
    /* every dataset row short enough to read without scrolling */
    for (const char *l = strstr(md, "\n## wine"); *l && strncmp(l, "\n## Across", 10);) {
        size_t len = strcspn(l + 1, "\n");
        if (len > 130)
            fail_msg("a summary line of %zu bytes: %.*s", len, (int)len, l + 1);
        l += len + 1;
    }
    free(md);
    /* ranked by AUC: its column comes first */
    char text[sizeof cfg_text + 128];
    snprintf(text, sizeof text, "%scompare = { metric = \"roc_auc_macro\"; };\n", cfg_text);
    const char *plots = strstr(text, "plots = ");
    memcpy(text + (plots - text), "# ", 2);
    const char *dir = run("auc", text);
    md = tl_test_slurp_in(dir, "summary.md");
    head = "| model | vs baseline (p) | roc_auc_macro | accuracy | balanced_accuracy | leaves "
           "| n |\n";
    assert_int_equal(tl_test_count(md, head), 2);
    free(md);
    /* a chosen set: aliases resolved, the compared metric once, the other task's left out, a
     * count at 2 decimals */
    snprintf(text, sizeof text,
             "%scompare = { metric = \"kappa\"; summary = [\"macro_f1\", \"depth\", \"rmse\", "
             "\"kappa\"]; };\n",
             cfg_text);
    memcpy(text + (strstr(text, "plots = ") - text), "# ", 2);
    dir = run("chosen", text);
    md = tl_test_slurp_in(dir, "summary.md");
    assert_int_equal(tl_test_count(md, "| model | vs baseline (p) | kappa | f1_macro | depth | n |\n"),
                     2);
    const char *row = strstr(md, "| kappa | f1_macro | depth | n |");
    row = row ? strstr(row, "\n| ") : NULL; /* the rule */
    row = row ? strstr(row + 1, "\n| ") : NULL; /* naive Bayes, no depth: n/a */
    row = row ? strstr(row + 1, "\n| ") : NULL; /* c45 */
    const char *end = row ? strchr(row + 1, '\n') : NULL;
    assert_non_null(end);
    /* the depth column (the fifth field) at 2 decimals: "2.67 ± 1.15" */
    char line[512], *field = NULL;
    snprintf(line, sizeof line, "%.*s", (int)(end - row - 1), row + 1);
    char *save = NULL, *tok = strtok_r(line, "|", &save);
    for (int i = 1; tok && i < 5; i++)
        tok = strtok_r(NULL, "|", &save);
    field = tok;
    assert_non_null(field);
    const char *dot = strchr(field, '.');
    assert_non_null(dot);
    assert_true(dot[1] >= '0' && dot[1] <= '9' && dot[2] >= '0' && dot[2] <= '9' && dot[3] == ' ');
    free(md);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_figure_titles_fit),
        cmocka_unit_test(test_html_layout),
        cmocka_unit_test(test_full_precision),
        cmocka_unit_test(test_summary_columns),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    if (root[0]) {
        char cmd[128];
        snprintf(cmd, sizeof cmd, "rm -rf '%s'", root);
        if (system(cmd))
            rc = 1;
    }
    return rc;
}
