/* Report files written whole or not at all: a temporary name in the same folder, renamed
 * into place once complete.
 *
 * API: a FILE from tl_out_open belongs to the caller until tl_out_close or tl_out_discard,
 * one of which must end it. The cancel flag stays the caller's (kept by pointer, per thread).
 * err may be NULL everywhere.
 */
#ifndef TL_OUTFILE_H
#define TL_OUTFILE_H

#include <signal.h>
#include <stdio.h>

#include "treelab/tl_api.h"
#include "treelab/tl_error.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Open path for writing under a temporary name in its folder (.NAME.treelab.tmp). NULL with
 * TL_EIO naming path, or TL_EINTERRUPTED once the flag given to tl_out_set_cancel is set, so
 * a stopped report phase starts no new file. */
TL_API FILE *tl_out_open(const char *path, tl_err *err);

/* Finish a file from tl_out_open: with rc TL_OK and every write successful it is renamed to
 * its name (replacing an older one), else the temporary file is removed (an older file of
 * that name is left as it was). Returns rc, or TL_EIO naming the file. err may be NULL when
 * rc is an error. */
TL_API int tl_out_close(FILE *f, int rc, tl_err *err);

/* Close and remove a file from tl_out_open (after an error). */
TL_API void tl_out_discard(FILE *f);

/* The temporary name tl_out_open uses for path, into buf (for files another program
 * writes, e.g. gnuplot's PNG, renamed with tl_out_rename). */
TL_API void tl_out_tmp_name(const char *path, char *buf, size_t size);
/* The ending of every temporary name: a user's own hidden .tmp files are never swept. */
#define TL_OUT_TMP_SUFFIX ".treelab.tmp"
/* Rename the temporary file of path (tl_out_tmp_name) into place; TL_EIO naming path. */
TL_API int tl_out_rename(const char *path, tl_err *err);

/* Remove the temporary files (.NAME.treelab.tmp) that a killed writer left in dir and in its
 * folders one level down (a results folder's plots/, trees/, ...). Only for a folder whose
 * lock the caller holds: no other process writes there. */
TL_API void tl_out_sweep(const char *dir);

/* The calling thread's cancel flag (NULL: none), checked by tl_out_open; the runner sets
 * its run's flag for the report phase. */
TL_API void tl_out_set_cancel(volatile sig_atomic_t *flag);
/* 1 when the calling thread's cancel flag is set. */
TL_API int tl_out_cancelled(void);
/* TL_EINTERRUPTED "stopped before writing PATH" when it is, else TL_OK: for a writer about
 * to start a long step (a fit, gnuplot) on the way to path. */
TL_API int tl_out_check_cancel(const char *path, tl_err *err);

#ifdef __cplusplus
}
#endif

#endif
