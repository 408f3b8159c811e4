/* Tree pictures: the DOT text on disk, rendered by Graphviz when it is installed. */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "plot_internal.h"
#include "treelab/tl_log.h"
#include "treelab/tl_outfile.h"

int tl_plot_tree_dot(const char *dot_text, const char *stem, tl_err *err)
{
    tl_err local;
    if (!err)
        err = &local; /* read for the code of a failed tl_out_open and by tl_err_prefix */
    if (!dot_text)
        return tl_err_set(err, TL_EINVAL, "tree picture: no DOT text");
    tlp_fig f;
    if (!stem || !*stem || strlen(stem) >= sizeof f.stem)
        return tl_err_set(err, TL_EINVAL, "tree picture: bad output stem");
    char path[TLP_PATH_MAX + 8];
    snprintf(path, sizeof path, "%s.dot", stem);
    FILE *fp = tl_out_open(path, err);
    if (!fp)
        return err->code;
    fputs(dot_text, fp);
    int rc = tl_out_close(fp, TL_OK, err);
    if (rc || !tlp_render)
        return rc;
    const char *formats[2][2] = {{"-Tpng", "png"}, {"-Tsvg", "svg"}};
    for (int i = 0; i < 2; i++) {
        /* to a temporary name, renamed once dot has finished */
        char out[TLP_PATH_MAX + 8], opt[TLP_PATH_MAX + 32];
        snprintf(out, sizeof out, "%s.%s", stem, formats[i][1]);
        if ((rc = tl_out_check_cancel(out, err)))
            return rc;
        snprintf(opt, sizeof opt, "-o");
        tl_out_tmp_name(out, opt + 2, sizeof opt - 2);
        char *argv[] = {(char *)tlp_dot_program, (char *)formats[i][0], opt, path, NULL};
        int missing = 0;
        rc = tlp_run(".", argv, &missing, err);
        if (!rc && !missing)
            rc = tl_out_rename(out, err);
        if (rc) {
            unlink(opt + 2);
            return tl_err_prefix(err, "rendering %s: ", path);
        }
        if (missing) {
            tl_info("%s (Graphviz) not found: tree picture left as %s", tlp_dot_program, path);
            return TL_OK;
        }
    }
    return TL_OK;
}
