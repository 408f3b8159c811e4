/* Tree pictures: the DOT text on disk, rendered by Graphviz when it is installed. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "plot_internal.h"
#include "treelab/tl_log.h"

int tl_plot_tree_dot(const char *dot_text, const char *stem, tl_err *err)
{
    if (!dot_text)
        return tl_err_set(err, TL_EINVAL, "tree picture: no DOT text");
    tlp_fig f;
    if (!stem || !*stem || strlen(stem) >= sizeof f.stem)
        return tl_err_set(err, TL_EINVAL, "tree picture: bad output stem");
    char path[TLP_PATH_MAX + 8];
    snprintf(path, sizeof path, "%s.dot", stem);
    FILE *fp = fopen(path, "w");
    if (!fp)
        return tl_err_set(err, TL_EIO, "cannot write %s: %s", path, strerror(errno));
    fputs(dot_text, fp);
    int bad = ferror(fp);
    bad |= fclose(fp) != 0;
    if (bad)
        return tl_err_set(err, TL_EIO, "error writing %s", path);
    if (!tlp_render)
        return TL_OK;
    const char *formats[2][2] = {{"-Tpng", "png"}, {"-Tsvg", "svg"}};
    for (int i = 0; i < 2; i++) {
        char out[TLP_PATH_MAX + 8];
        snprintf(out, sizeof out, "-o%s.%s", stem, formats[i][1]);
        char *argv[] = {(char *)tlp_dot_program, (char *)formats[i][0], out, path, NULL};
        int missing = 0;
        int rc = tlp_run(".", argv, &missing, err);
        if (rc)
            return tl_err_prefix(err, "rendering %s: ", path);
        if (missing) {
            tl_info("%s (Graphviz) not found: tree picture left as %s", tlp_dot_program, path);
            return TL_OK;
        }
    }
    return TL_OK;
}
