/* What produced a result: treelab's version and the commit it was built from. */
#ifndef TL_VERSION_H
#define TL_VERSION_H

/* TREELAB_VERSION ("0.1.0") is defined by the build. */

/* `git describe --always --dirty` of the source tree at build time ("28a08e90e86b", with
 * "-dirty" when files were modified), or "unknown" outside git. Static string. */
const char *tl_commit(void);

#endif
