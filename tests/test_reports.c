/* The paper reports (metrics.json, tables.tex, report.html) parsed back strictly, their
 * escaping of hostile names, and the report defects D2, D3, D4, D7 of issue 13. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <unistd.h>

#include "tl_test_util.h"
#include "tl_test_markup.h"
#include "treelab/tl_text.h"

/* ---- running experiments ---- */

static char root[256];

static const char *tmpdir(void)
{
    if (!root[0]) {
        strcpy(root, "/tmp/tl_reports_XXXXXX");
        assert_non_null(mkdtemp(root));
    }
    return root;
}

/* Write CONFIG text as NAME.cfg in the temporary folder and run it into NAME/; returns the
 * results folder (static). */
static const char *run_config(const char *name, const char *text)
{
    static char out[512];
    char cfg[512], args[2048], o[8192], e[8192];
    snprintf(cfg, sizeof cfg, "%s/%s.cfg", tmpdir(), name);
    snprintf(out, sizeof out, "%s/%s", tmpdir(), name);
    FILE *f = fopen(cfg, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
    snprintf(args, sizeof args, "run '%s' --out '%s' --quiet", cfg, out);
    if (tl_test_cli(args, o, sizeof o, e, sizeof e))
        fail_msg("treelab %s: %s", args, e);
    return out;
}

#define DATA(f) "\"" TL_SOURCE_DIR "/experiments/datasets/" f "\""

/* Names a paper's tables and a notebook choke on: quotes, a backslash, %, &, _, braces,
 * #, $, ~, ^ and markup. */
#define HOSTILE_DATASET "ir\"is\\ 50% & _{x}#$~^<b>"
#define HOSTILE_MODEL "n\"b\\% & <i>"

static const char hostile_cfg[] =
    "name = \"paper\";\nseed = 7;\n"
    "datasets = ( { path = " DATA(
        "iris.arff") "; name = \"ir\\\"is\\\\ 50% & _{x}#$~^<b>\"; },"
                     " " DATA("wine.arff") ", " DATA(
                         "glass.arff") " );\n"
                                       "models = ( { name = \"n\\\"b\\\\% & <i>\"; algorithm = \"gaussian_nb\"; },\n"
                                       "  { name = \"id3\"; algorithm = \"id3\"; },\n"
                                       "  { name = \"cart\"; algorithm = \"cart\"; params = { prune = \"cv\"; }; } );\n"
                                       "grids = ( { model = \"cart\"; param = \"max_depth\"; values = [1, 2]; } );\n"
                                       "protocol = { kind = \"cv\"; folds = 3; repeats = 2; stratified = true; };\n"
                                       "baseline = \"n\\\"b\\\\% & <i>\";\n"
                                       "reports = [ \"confusion\" ];\n"
                                       "plots = [ \"accuracy\", \"critical_difference\", \"confusion\", \"pruning\" ];\n";

static const char *paper_dir;

static const char *paper(void)
{
    if (!paper_dir)
        paper_dir = strdup(run_config("paper", hostile_cfg));
    return paper_dir;
}

/* First data line of metrics.csv: the value of column `col`. */
static double csv_first(const char *dir, const char *col)
{
    char *csv = tl_test_slurp_in(dir, "metrics.csv");
    char *head = strtok(csv, "\n"), *row = strtok(NULL, "\n");
    int at = -1, i = 0;
    for (char *h = head, *end; h; h = end ? end + 1 : NULL, i++) {
        end = strchr(h, ',');
        if ((end ? (size_t)(end - h) : strlen(h)) == strlen(col) && !strncmp(h, col, strlen(col)))
            at = i;
    }
    assert_true(at >= 0);
    /* the first row's dataset name is quoted (it holds a comma? no: a quote) */
    const char *p = row;
    for (i = 0; i < at; i++) {
        if (*p == '"')
            for (p++; !(*p == '"' && p[1] != '"'); p += *p == '"' ? 2 : 1)
                ;
        p = strchr(p, ',') + 1;
    }
    double v = strtod(p, NULL);
    free(csv);
    return v;
}

static void test_metrics_json(void **state)
{
    (void)state;
    const char *dir = paper();
    char *text = tl_test_slurp_in(dir, "metrics.json");
    tl_test_json j = tl_test_json_check(text);
    /* names come back exactly, through the escapes */
    assert_true(tl_test_json_has(&j, HOSTILE_DATASET));
    assert_true(tl_test_json_has(&j, HOSTILE_MODEL));
    assert_true(tl_test_json_has(&j, "treelab metrics 1"));
    /* provenance: the config, its checksum and the data's, the seed, version and commit */
    char *cfg = tl_test_slurp_in(tmpdir(), "paper.cfg");
    assert_true(tl_test_json_has(&j, cfg));
    assert_non_null(strstr(text, "\"seed\": 7,"));
    assert_non_null(strstr(text, "\"treelab_version\": \"0.1.0\""));
    assert_non_null(strstr(text, "\"commit\": \""));
    /* iris.arff's SHA-256 */
    assert_true(
        tl_test_json_has(&j, "7d34ba556497e9dc28335ea6628a37d1dbcba090a1ae20dc2de9c7032d199153"));
    /* every cell: 3 datasets x 5 models (2 grid cells) x 2 repeats x 3 folds */
    assert_int_equal(tl_test_count(text, "\"repeat\": "), 90);
    /* the first cell's accuracy is metrics.csv's */
    const char *first = strstr(text, "\"cells\": [");
    assert_non_null(first);
    const char *acc = strstr(first, "\"accuracy\": ");
    assert_close(strtod(acc + 12, NULL), csv_first(dir, "accuracy"), 1e-12);
    assert_close(strtod(strstr(first, "\"log_loss\": ") + 12, NULL), csv_first(dir, "log_loss"),
                 1e-12);
    tl_test_json_free(&j);
    free(cfg);
    free(text);
}

/* JSON escapes of control characters: \n, \t, \u0001; '/' and UTF-8 as they are. */
static void test_escapes(void **state)
{
    (void)state;
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    tl_json_str(f, "a\"b\\c\nd\te\x01/é");
    fputc('|', f);
    tl_tex_str(f, "50% & $x_1$ #2 {a} ~^\\\n");
    fputc('|', f);
    tl_html_str(f, "<a href=\"x\">&'\x02");
    fclose(f);
    assert_string_equal(buf, "\"a\\\"b\\\\c\\nd\\te\\u0001/é\"|"
                             "50\\% \\& \\$x\\_1\\$ \\#2 \\{a\\} \\textasciitilde{}"
                             "\\textasciicircum{}\\textbackslash{} |"
                             "&lt;a href=&quot;x&quot;&gt;&amp;&#39; ");
    free(buf);
    char n[32];
    assert_string_equal(tl_num_short(0.6, n), "0.6");
    assert_string_equal(tl_num_short(0.1 + 0.2, n), "0.30000000000000004");
    assert_string_equal(tl_num_short(1e-300, n), "1e-300");
    assert_string_equal(tl_num_short(NAN, n), "nan");
}

/* Fields of a LaTeX table row: '&' not escaped as \&. */
static size_t tex_fields(const char *line, size_t len)
{
    size_t n = 1;
    for (size_t i = 0; i < len; i++)
        n += line[i] == '&' && (i == 0 || line[i - 1] != '\\');
    return n;
}

static void test_tables_tex(void **state)
{
    (void)state;
    const char *dir = paper();
    char *tex = tl_test_slurp_in(dir, "tables.tex");
    /* one booktabs table per metric (12 of them: 10 scores, leaves and depth), each closed */
    size_t tables = tl_test_count(tex, "\\begin{table}");
    assert_int_equal(tables, 12);
    assert_int_equal(tl_test_count(tex, "\\end{table}"), tables);
    assert_int_equal(tl_test_count(tex, "\\toprule"), tables);
    assert_int_equal(tl_test_count(tex, "\\bottomrule"), tables);
    assert_int_equal(tl_test_count(tex, "\\begin{tabular}{lccc}"),
                     tables); /* grid cells left out */
    /* the hostile names escaped: no bare special character survives */
    assert_non_null(strstr(tex, "ir\"is\\textbackslash{} 50\\% \\& \\_\\{x\\}\\#\\$"
                                "\\textasciitilde{}\\textasciicircum{}<b>"));
    assert_non_null(strstr(tex, "n\"b\\textbackslash{}\\% \\& <i>"));
    /* the accuracy table: every row has 4 fields, one bold best, and ends with \\ */
    const char *t = strstr(tex, "\\label{tab:accuracy}");
    assert_non_null(t);
    const char *mid = strstr(t, "\\midrule\n") + 9, *end = strstr(mid, "\\bottomrule");
    size_t rows = 0, bold = 0;
    for (const char *line = mid; line < end;) {
        size_t len = strcspn(line, "\n");
        if (strncmp(line, "\\midrule", 8)) {
            assert_int_equal(tex_fields(line, len), 4);
            assert_memory_equal(line + len - 3, " \\\\", 3);
            rows++;
            char row[2048];
            snprintf(row, sizeof row, "%.*s", (int)len, line);
            bold += tl_test_count(row, "\\mathbf{") > 0;
        }
        line += len + 1;
    }
    assert_int_equal(rows, 4); /* 3 datasets and the W/T/L row */
    assert_int_equal(bold, 3);
    /* the W/T/L row says what summary.md says for accuracy */
    char *md = tl_test_slurp_in(dir, "summary.md");
    int w, ti, l;
    const char *id3 = strstr(strstr(md, "## Across datasets"), "| id3 | ");
    assert_int_equal(sscanf(id3, "| id3 | %d | %d | %d |", &w, &ti, &l), 3);
    const char *wtl = strstr(t, "W/T/L vs ");
    char expect[64];
    snprintf(expect, sizeof expect, "& (baseline) & %d/%d/%d & ", w, ti, l);
    assert_true(strstr(wtl, expect) && strstr(wtl, expect) < strchr(wtl, '\n'));
    /* a mean is the summary's, rounded */
    /* (the row: model, verdict, accuracy first) */
    const char *iris = strstr(strstr(md, "\n## "), "| id3 | ");
    double mean;
    assert_int_equal(sscanf(iris, "| id3 | %*[^|]| %lf", &mean), 1);
    char cell[64];
    snprintf(cell, sizeof cell, "%.4f \\pm", mean);
    assert_non_null(strstr(t, cell));
    free(md);
    free(tex);
}

static void test_report_html(void **state)
{
    (void)state;
    const char *dir = paper();
    char *html = tl_test_slurp_in(dir, "report.html");
    tl_test_html_check(html);
    assert_null(strstr(html, "http://"));
    assert_null(strstr(html, "https://"));
    assert_non_null(strstr(html, "ir&quot;is\\ 50% &amp; _{x}#$~^&lt;b&gt;"));
    /* every SVG figure of plots/ is inline, under its name */
    char path[600];
    snprintf(path, sizeof path, "%s/plots", dir);
    DIR *d = opendir(path);
    assert_non_null(d);
    size_t svgs = 0;
    int pruning = 0;
    for (struct dirent *e; (e = readdir(d));) {
        size_t len = strlen(e->d_name);
        if (len < 5 || strcmp(e->d_name + len - 4, ".svg"))
            continue;
        char stem[600], *id = NULL;
        size_t id_len = 0;
        snprintf(stem, sizeof stem, "%.*s", (int)(len - 4), e->d_name);
        FILE *f = open_memstream(&id, &id_len);
        fputs("<figure id=\"fig-", f);
        tl_html_str(f, stem); /* names hold quotes and markup */
        fputs("\">\n<svg", f);
        fclose(f);
        int found = strstr(html, id) != NULL;
        free(id);
        if (!found)
            fail_msg("figure %s is not inline in report.html", e->d_name);
        pruning |= !strncmp(e->d_name, "pruning_", 8);
        svgs++;
    }
    closedir(d);
    /* accuracy, critical difference, 3 x 3 confusion matrices, cart's pruning curve on 3 */
    assert_int_equal(svgs, 1 + 1 + 9 + 3);
    assert_true(pruning);
    assert_int_equal(tl_test_count(html, "<svg"), svgs);
    /* the config as given and the provenance */
    assert_non_null(strstr(html, "protocol = { kind = &quot;cv&quot;; folds = 3;"));
    assert_non_null(strstr(html, "<th>seed</th><td>7</td>"));
    free(html);
    /* `treelab report` writes the same three files again */
    char args[1024], o[4096], e[4096];
    char *before = tl_test_slurp_in(dir, "tables.tex");
    snprintf(path, sizeof path, "%s/tables.tex", dir);
    remove(path);
    snprintf(path, sizeof path, "%s/metrics.json", dir);
    remove(path);
    snprintf(args, sizeof args, "report '%s'", dir);
    assert_int_equal(tl_test_cli(args, o, sizeof o, e, sizeof e), 0);
    char *after = tl_test_slurp_in(dir, "tables.tex");
    assert_string_equal(before, after);
    free(tl_test_slurp_in(dir, "metrics.json"));
    free(before);
    free(after);
}

/* D2: with grids, the summary's average ranks are the critical-difference figure's. */
static void test_d2_ranks_agree(void **state)
{
    (void)state;
    const char *dir = paper();
    char *md = tl_test_slurp_in(dir, "summary.md"),
         *dat = tl_test_slurp_in(dir, "plots/critical_difference.dat");
    const char *names[] = {"id3", "cart", HOSTILE_MODEL};
    for (int i = 0; i < 3; i++) {
        char key[64], row[128];
        /* the data file shows a name's double quotes as single ones */
        snprintf(key, sizeof key, "\n\"%s\" ", i == 2 ? "n'b\\% & <i>" : names[i]);
        const char *at = strstr(dat, key);
        assert_non_null(at);
        double rank = strtod(at + strlen(key), NULL);
        char md_name[64]; /* summary.md shows the name escaped for Markdown */
        snprintf(row, sizeof row, "| %s | ", tl_md_str(names[i], md_name, sizeof md_name));
        const char *r = strstr(strstr(md, "## Across datasets"), row);
        assert_non_null(r);
        int w, t, l;
        double mr;
        assert_int_equal(sscanf(r + strlen(row), "%d | %d | %d | %lf", &w, &t, &l, &mr), 4);
        assert_close(mr, rank, 5e-4);
    }
    assert_non_null(strstr(md, "| cart[max_depth=1] | "));
    free(md);
    free(dat);
}

static const char lc_cfg[] = "name = \"lc\";\nseed = 4;\ndatasets = ( " DATA("iris.arff") ", " DATA(
    "wine.arff") " );\n"
                 "models = ( { name = \"naive_bayes\"; algorithm = \"gaussian_nb\"; },\n"
                 "  { name = \"id3\"; algorithm = \"id3\"; } );\n"
                 "protocol = { kind = \"learning_curve\"; fractions = [0.2, 0.5, 0.8]; repeats = 5; };\n"
                 "reports = [ \"confusion\" ];\nplots = [ \"learning_curve\" ];\n";

/* D3: a learning curve's summary has one row per training fraction, each with its own
 * cells (5 repeats) and its own test against the baseline. */
static void test_d3_learning_curve_rows(void **state)
{
    (void)state;
    const char *dir = run_config("lc", lc_cfg);
    char *md = tl_test_slurp_in(dir, "summary.md"), *csv = tl_test_slurp_in(dir, "summary.csv");
    const char *iris = strstr(md, "## iris"), *wine = strstr(md, "## wine");
    assert_true(iris && wine && iris < wine);
    const char *fr[] = {"0.2", "0.5", "0.8"};
    for (int i = 0; i < 3; i++) {
        char row[64];
        snprintf(row, sizeof row, "| id3 | %s | ", fr[i]);
        const char *r = strstr(iris, row);
        assert_true(r && r < wine);
        /* not "n/a": within one fraction the cells pair up; 5 of them (the last column) */
        const char *end = strchr(r, '\n');
        assert_true(strstr(r, "win") < end || strstr(r, "tie") < end || strstr(r, "loss") < end);
        assert_memory_equal(end - 4, " 5 |\n", 5);
        snprintf(row, sizeof row, "| naive_bayes | %s | baseline | ", fr[i]);
        r = strstr(wine, row);
        assert_non_null(r);
        assert_memory_equal(strchr(r, '\n') - 4, " 5 |\n", 5);
    }
    assert_null(strstr(md, "| 15 |")); /* no pooled row */
    assert_non_null(strstr(csv, "dataset,model,fraction,n,"));
    assert_non_null(strstr(csv, "\niris,id3,0.5,5,"));
    /* the tables too: a row per dataset and fraction */
    char *tex = tl_test_slurp_in(dir, "tables.tex");
    assert_non_null(strstr(tex, "\niris @ 0.2 & "));
    assert_non_null(strstr(tex, "\nwine @ 0.8 & "));
    free(tex);
    free(md);
    free(csv);
}

/* D4: `treelab plot` reads the CSV files treelab writes. */
static void test_d4_plot_own_files(void **state)
{
    (void)state;
    const char *lc = run_config("lc4", lc_cfg);
    char args[2048], o[4096], e[4096];
    const char *cases[][2] = {
        {"learning-curve", "learning_curve.csv"},
        {"folds", "metrics.csv"},
        {"confusion", "confusion/iris__id3.csv"},
    };
    for (int i = 0; i < 3; i++) {
        snprintf(args, sizeof args, "plot %s '%s/%s' -o '%s/own%d'", cases[i][0], lc, cases[i][1],
                 tmpdir(), i);
        if (tl_test_cli(args, o, sizeof o, e, sizeof e))
            fail_msg("treelab %s: %s", args, e);
    }
    /* the learning curve: a series per model and dataset, the means of learning_curve.csv */
    char *dat = tl_test_slurp_in(tmpdir(), "own0.dat");
    assert_non_null(strstr(dat, "# id3 (wine)"));
    char *curve = tl_test_slurp_in(lc, "learning_curve.csv");
    double frac, nt, mean, sd;
    const char *row = strstr(curve, "\nwine,id3,");
    assert_int_equal(sscanf(row, "\nwine,id3,%lf,%lf,accuracy,%lf,%lf", &frac, &nt, &mean, &sd), 4);
    double rows[16][TL_TEST_DAT_COLS];
    char path[600];
    snprintf(path, sizeof path, "%s/own0.dat", tmpdir());
    size_t n = tl_test_dat_block(path, 3, rows, 16);
    assert_int_equal(n, 3);
    assert_close(rows[0][0], frac, 1e-12);
    assert_close(rows[0][1], mean, 1e-12);
    assert_close(rows[0][3], mean + sd, 1e-12);
    free(dat);
    free(curve);
    /* the confusion matrix: iris x id3's counts summed over the cells */
    snprintf(path, sizeof path, "%s/own2.dat", tmpdir());
    n = tl_test_dat_block(path, 0, rows, 16);
    assert_int_equal(n, 9);
    char *cm = tl_test_slurp_in(lc, "confusion/iris__id3.csv");
    double c00;
    assert_int_equal(sscanf(strchr(cm, '\n'), "\nIris-setosa,%lf", &c00), 1);
    assert_close(rows[0][2], c00, 0);
    free(cm);
}

static const char holdout_cfg[] = "name = \"ho\";\nseed = 4;\ndatasets = ( " DATA(
    "iris.arff") " );\n"
                 "models = ( { name = \"naive_bayes\"; algorithm = \"gaussian_nb\"; },\n"
                 "  { name = \"id3\"; algorithm = \"id3\"; } );\n"
                 "protocol = { kind = \"holdout\"; train = 0.6; validation = 0.2; test = 0.2; repeats = 3; };\n"
                 "plots = [ ];\n";

/* D7: the summary's header gives the protocol's numbers as written, not as raw doubles. */
static void test_d7_clean_numbers(void **state)
{
    (void)state;
    const char *dir = run_config("ho", holdout_cfg);
    char *md = tl_test_slurp_in(dir, "summary.md");
    assert_non_null(strstr(md, "protocol: holdout train 0.6 validation 0.2 test 0.2 repeats 3"));
    assert_null(strstr(md, "0.5999"));
    assert_null(strstr(md, "0.2000000"));
    char *js = tl_test_slurp_in(dir, "metrics.json");
    assert_non_null(strstr(js, "\"protocol\": \"holdout train 0.6 validation 0.2 test 0.2 "));
    free(js);
    free(md);
}

static const char undrawable_cfg[] = "name = \"nofig\";\nseed = 4;\ndatasets = ( " DATA(
    "iris.arff") " );\n"
                 "models = ( { name = \"naive_bayes\"; algorithm = \"gaussian_nb\"; } );\n"
                 "protocol = { kind = \"cv\"; folds = 3; repeats = 1; };\n"
                 "plots = [ \"learning_curve\", \"pruning\", \"critical_difference\", \"grid\" ];\n";

/* D5: a figure named in plots that cannot be drawn is a warning with the reason. */
static void test_d5_undrawable_warned(void **state)
{
    (void)state;
    char cfg[600], args[2048], o[4096], e[8192];
    snprintf(cfg, sizeof cfg, "%s/nofig.cfg", tmpdir());
    FILE *f = fopen(cfg, "w");
    fputs(undrawable_cfg, f);
    fclose(f);
    snprintf(args, sizeof args, "run '%s' --out '%s/nofig' --quiet", cfg, tmpdir());
    assert_int_equal(tl_test_cli(args, o, sizeof o, e, sizeof e), 0);
    assert_non_null(strstr(e, "warning: figure learning_curve not drawn: the protocol is not "
                              "learning_curve"));
    assert_non_null(strstr(e, "warning: figure pruning not drawn: no model's pruner"));
    assert_non_null(strstr(e, "warning: figure critical_difference not drawn: it needs 2 or "
                              "more datasets"));
    assert_non_null(strstr(e, "warning: figure grid not drawn: the config has no grids"));
}

static int teardown(void **state)
{
    (void)state;
    if (root[0] && !getenv("TL_KEEP")) {
        char cmd[600];
        snprintf(cmd, sizeof cmd, "rm -rf '%s'", root);
        if (system(cmd)) {
        }
    }
    return 0;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_escapes),
        cmocka_unit_test(test_metrics_json),
        cmocka_unit_test(test_tables_tex),
        cmocka_unit_test(test_report_html),
        cmocka_unit_test(test_d2_ranks_agree),
        cmocka_unit_test(test_d3_learning_curve_rows),
        cmocka_unit_test(test_d4_plot_own_files),
        cmocka_unit_test(test_d7_clean_numbers),
        cmocka_unit_test(test_d5_undrawable_warned),
    };
    return cmocka_run_group_tests(tests, NULL, teardown);
}
