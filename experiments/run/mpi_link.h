/* The MPI connection shared by rank 0 and the workers (internal; -DTREELAB_MPI=ON only). */
#ifndef TL_MPI_LINK_H
#define TL_MPI_LINK_H

#include <mpi.h>

#include "run_state.h"

/* Messages are text; the first character says what they are.
 *   worker -> 0, tag = slot + 1:  "R<slots>" ready; "C<cell line>" a result, and ready;
 *                                 "E<code> <message>" the slot failed and stops
 *   worker -> 0, tag 0:           "F<code> <message>" the rank cannot start (no slot runs)
 *   0 -> worker, tag = slot + 1:  "N<dataset> <model> <repeat> <fold>" compute it; "S" stop */
enum { TLM_TAG_RANK = 0 };

/* Whether MPI_Finalize is safe at the end (no rank waits for this one): tl_mpi_clean reads it. */
void tlm_set_clean(int clean);
/* An MPI error code as TL_EIO with MPI's message. */
int tlm_failed(int code, tl_err *err);
/* Send len bytes of text to dest with tag, polling under the connection's lock. */
int tlm_send(const char *text, size_t len, int dest, int tag, tl_err *err);
/* The next message from src with tag (MPI_ANY_* allowed) as a new NUL-terminated string;
 * *from and *tag_out say whose. With give_up set, TL_EINTERRUPTED once give_up(arg) returns 1. */
int tlm_recv(int src, int tag, char **text, int *from, int *tag_out, int (*give_up)(void *),
             void *arg, tl_err *err);
/* Rank 0's setup outcome and the cells header, to every rank (an MPI code). */
int tlm_share_setup(int *setup_rc, char **header);
/* Tell rank 0 why this rank cannot take part (rank 0 reports it and stops the run). */
void tlm_refuse(int code, const char *why);

#endif
