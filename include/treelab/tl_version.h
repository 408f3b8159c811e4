/* What produced a result: treelab's version (of the headers and of the library) and the commit
 * it was built from.
 *
 * API: the strings returned are static (never freed, valid for the whole program). Compare
 * TL_VERSION_* (the headers a program was compiled with) with tl_version() (the library it
 * runs with) when that matters; the shared libraries' SONAME changes with TL_VERSION_MAJOR.
 * CMakeLists.txt reads the version from the three lines below. */
#ifndef TL_VERSION_H
#define TL_VERSION_H

#include "treelab/tl_api.h"

#ifdef __cplusplus
extern "C" {
#endif

#define TL_VERSION_MAJOR 0
#define TL_VERSION_MINOR 1
#define TL_VERSION_PATCH 0

#define TL_VERSION_STR_(x) #x
#define TL_VERSION_STR(x) TL_VERSION_STR_(x)
/* "MAJOR.MINOR.PATCH" of the headers. */
#define TL_VERSION_STRING                                                                          \
    TL_VERSION_STR(TL_VERSION_MAJOR)                                                               \
    "." TL_VERSION_STR(TL_VERSION_MINOR) "." TL_VERSION_STR(TL_VERSION_PATCH)

/* The library's "MAJOR.MINOR.PATCH". Static string. */
TL_API const char *tl_version(void);

/* `git describe --always --dirty` of the source tree at build time ("28a08e90e86b", with
 * "-dirty" when files were modified), or "unknown" outside git. Static string. */
TL_API const char *tl_commit(void);

#ifdef __cplusplus
}
#endif

#endif
