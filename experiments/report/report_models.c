/* Results-folder artefacts that need the data: whole-data trees, traces, the manifest. */
#include "treelab/tl_report.h"
#include "treelab/tl_version.h"

#include <cblas.h>
#include <errno.h>
#include <gsl/gsl_version.h>
#include <libconfig.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "treelab/tl_log.h"
#include "treelab/tl_outfile.h"
#include "treelab/tl_protocol.h"
#include "treelab/tl_text.h"

/* dir/sub/d__m.ext (sub created), into path. */
static const char *out_path(const char *dir, const char *sub, const char *d, const char *m,
                            const char *ext, char *path, size_t size)
{
    snprintf(path, size, "%s/%s", dir, sub);
    mkdir(path, 0777);
    snprintf(path, size, "%s/%s/%s__%s%s", dir, sub, d, m, ext);
    return path;
}

static FILE *open_out(const char *dir, const char *sub, const char *d, const char *m,
                      const char *ext, tl_err *err)
{
    char path[4096];
    return tl_out_open(out_path(dir, sub, d, m, ext, path, sizeof path), err);
}

static int write_trees(const char *dir, const char *dn, const tl_exp_model *em,
                       const tl_model *model, tl_err *err)
{
    FILE *f = open_out(dir, "trees", dn, em->name, ".txt", err);
    if (!f)
        return err->code;
    tl_err e;
    tl_err_clear(&e);
    int rc = tl_model_show(model, TL_SHOW_TEXT, f, &e);
    if (rc == TL_EUNSUPPORTED) {
        /* not every learner has a tree to draw: say so instead of failing the run */
        fprintf(f, "(%s: %s has no tree to show: %s)\n", em->name, em->type->name, e.msg);
        tl_info("trees: %s (%s) has no tree to show; skipped", em->name, em->type->name);
        rc = TL_OK;
    } else if (rc) {
        *err = e;
    }
    if ((rc = tl_out_close(f, rc, err)))
        return rc;
    if (!(f = open_out(dir, "trees", dn, em->name, ".dot", err)))
        return err->code;
    tl_err_clear(&e);
    rc = tl_model_show(model, TL_SHOW_DOT, f, &e);
    if (rc == TL_EUNSUPPORTED) {
        /* no tree, no .dot (an empty file is not valid DOT); one left by an older run goes */
        char path[4096];
        tl_out_discard(f);
        unlink(out_path(dir, "trees", dn, em->name, ".dot", path, sizeof path));
        return TL_OK;
    }
    if (rc)
        *err = e;
    return tl_out_close(f, rc, err);
}

static int write_trace(const char *dir, const char *dn, const tl_exp_model *em,
                       const tl_model *model, tl_err *err)
{
    const char *const *cols = NULL;
    const double *v = NULL;
    size_t nc = 0, nr = 0;
    if (!em->type->trace || em->type->trace(model->state, &cols, &nc, &v, &nr) || !nr || !nc)
        return TL_OK;
    FILE *f = open_out(dir, "trace", dn, em->name, ".csv", err);
    if (!f)
        return err->code;
    for (size_t j = 0; j < nc; j++) {
        fputs(j ? "," : "", f);
        tl_csv_field(f, cols[j]);
    }
    fputc('\n', f);
    for (size_t i = 0; i < nr; i++)
        for (size_t j = 0; j < nc; j++)
            fprintf(f, "%.6f%s", v[i * nc + j], j + 1 < nc ? "," : "\n");
    return tl_out_close(f, TL_OK, err);
}

int tl_report_models(const char *dir, const tl_experiment *x, tl_dataset *const *data, tl_err *err)
{
    tl_err local;
    if (!err)
        err = &local; /* failed opens and fits leave their code only in err */
    if (!(x->reports & (TL_REPORT_TREES | TL_REPORT_TRACE)))
        return TL_OK;
    for (size_t d = 0; d < x->n_datasets; d++) {
        const char *dn = x->datasets[d].name;
        for (size_t m = 0; m < x->n_models; m++) {
            const tl_exp_model *em = &x->models[m];
            int want_trace = (x->reports & TL_REPORT_TRACE) && em->type->trace;
            if (!(x->reports & TL_REPORT_TREES) && !want_trace)
                continue;
            long sel;
            char what[4096];
            out_path(dir, "trees", dn, em->name, "", what, sizeof what);
            int rc = tl_out_check_cancel(what, err);
            if (rc)
                return rc;
            tl_model *model = tl_cell_fit(em, data[d], NULL, 0, NULL, 0,
                                          tl_protocol_seed(x->seed, dn, 0, 0), &sel, err);
            rc = model ? TL_OK : err->code;
            if (!rc && (x->reports & TL_REPORT_TREES))
                rc = write_trees(dir, dn, em, model, err);
            if (!rc && want_trace)
                rc = write_trace(dir, dn, em, model, err);
            tl_model_free(model);
            if (rc)
                return tl_err_prefix(err, "whole-data model %s on %s: ", em->name, dn);
        }
    }
    return TL_OK;
}

static void iso_time(time_t t, char *buf, size_t size)
{
    struct tm tm;
    gmtime_r(&t, &tm);
    strftime(buf, size, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

int tl_report_manifest(const char *dir, const tl_experiment *x, tl_dataset *const *data,
                       time_t start, time_t end, int resumed, tl_err *err)
{
    tl_err local;
    if (!err)
        err = &local; /* a failed tl_out_open leaves its code only in err */
    char path[4096], copy[4096], sha[65], t0[32], t1[32];
    int rc = tl_file_sha256(x->config_path, sha, err);
    if (rc)
        return rc;
    snprintf(path, sizeof path, "%s/manifest", dir);
    snprintf(copy, sizeof copy, "%s/config.cfg", dir);
    FILE *in = fopen(x->config_path, "r");
    rc = in ? TL_OK : tl_err_set(err, TL_EIO, "%s: %s", x->config_path, strerror(errno));
    FILE *f = rc ? NULL : tl_out_open(path, err), *c = f ? tl_out_open(copy, err) : NULL;
    if (!rc && !c)
        rc = err->code;
    if (!rc) {
        iso_time(start, t0, sizeof t0);
        iso_time(end, t1, sizeof t1);
        fprintf(f, "experiment: %s\nconfig: %s\nconfig_sha256: %s\nseed: %lu\n", x->name,
                x->config_path, sha, x->seed);
        fprintf(f, "treelab: %s\ncommit: %s\n", tl_version(), tl_commit());
        fprintf(f, "gsl: %s\nlibconfig: %d.%d.%d\nopenblas: %s\n", GSL_VERSION, LIBCONFIG_VER_MAJOR,
                LIBCONFIG_VER_MINOR, LIBCONFIG_VER_REVISION, openblas_get_config());
        for (size_t i = 0; i < x->n_datasets; i++) {
            if (!data[i]->path || tl_file_sha256(data[i]->path, sha, NULL))
                strcpy(sha, "-");
            fprintf(f, "dataset: %s %s sha256 %s rows %zu\n", x->datasets[i].name,
                    data[i]->path ? data[i]->path : "(in memory)", sha, data[i]->n_rows);
        }
        fprintf(f, "start: %s\nend: %s\nresumed: %s\n", t0, t1, resumed ? "yes" : "no");
        fprintf(f, "---- config as given ----\n");
        char buf[4096];
        size_t n;
        while ((n = fread(buf, 1, sizeof buf, in)) > 0) {
            fwrite(buf, 1, n, f);
            fwrite(buf, 1, n, c);
        }
    }
    if (in)
        fclose(in);
    if (c)
        rc = tl_out_close(c, rc, err);
    if (f)
        rc = tl_out_close(f, rc, err);
    return rc;
}
