/* The library's version, as compiled (tl_commit is generated at build time: scripts/commit.cmake). */
#include "treelab/tl_version.h"

const char *tl_version(void)
{
    return TL_VERSION_STRING;
}
