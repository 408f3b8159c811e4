/* Private to the row passes (soft_tree_rows.c, soft_tree_rows_route.c): w.x in fixed lanes, a
 * node entered in a row's record of the nodes it reaches, and the routings to one leaf. */
#ifndef TL_SOFT_TREE_ROWS_H
#define TL_SOFT_TREE_ROWS_H

#include <string.h>

#include "soft_tree_impl.h"

_Static_assert(ST_LANES == 8, "st_dot spells out eight lanes");

/* w.x in ST_LANES fixed lanes (see st_fold): the tail's k-th input into lane k % ST_LANES,
 * spelt out on the lanes' scalars so they stay in registers. */
static inline double st_dot(const double *restrict w, const double *restrict x, size_t D)
{
    double u[ST_LANES] = {0};
    size_t k = 0;
    for (; k + ST_LANES <= D; k += ST_LANES)
        for (int j = 0; j < ST_LANES; j++)
            u[j] += w[k + j] * x[k + j];
    double a0 = u[0], a1 = u[1], a2 = u[2], a3 = u[3], a4 = u[4], a5 = u[5], a6 = u[6],
           a7 = u[7];
    w += k;
    x += k;
    switch (D - k) { /* k is a multiple of ST_LANES = 8: 0 to 7 inputs left */
    case 7: a6 += w[6] * x[6]; /* fall through */
    case 6: a5 += w[5] * x[5]; /* fall through */
    case 5: a4 += w[4] * x[4]; /* fall through */
    case 4: a3 += w[3] * x[3]; /* fall through */
    case 3: a2 += w[2] * x[2]; /* fall through */
    case 2: a1 += w[1] * x[1]; /* fall through */
    case 1: a0 += w[0] * x[0]; /* fall through */
    default: break;
    }
    return ((a0 + a1) + (a2 + a3)) + ((a4 + a5) + (a6 + a7));
}

/* st_dot over rows padded to D8 (a multiple of ST_LANES) by zeros: whole vectors, the same lanes
 * and the same fold, so the same bits (a lane starts at +0 and never holds -0, so adding the
 * pads' +0 leaves it as it is). */
typedef double st_v4 __attribute__((vector_size(4 * sizeof(double))));
static inline double st_dot8(const double *restrict w, const double *restrict x, size_t D8)
{
    st_v4 lo = {0}, hi = {0}, a, b; /* lanes 0-3 and 4-7: one AVX2 register each */
    for (size_t k = 0; k < D8; k += ST_LANES) {
        memcpy(&a, w + k, sizeof a);
        memcpy(&b, x + k, sizeof b);
        lo += a * b;
        memcpy(&a, w + k + 4, sizeof a);
        memcpy(&b, x + k + 4, sizeof b);
        hi += a * b;
    }
    return ((lo[0] + lo[1]) + (lo[2] + lo[3])) + ((hi[0] + hi[1]) + (hi[2] + hi[3]));
}

static inline size_t st_push(st_reach *e, size_t *n, int pos, double P)
{
    e->pos[*n] = pos;
    e->P[*n] = P;
    return (*n)++;
}

/* The leaf of row x (D inputs) by max_path and by hard routing (soft_tree_rows_route.c); e is
 * max_path's scratch. */
size_t st_max_path_leaf(const st_net *net, const double *x, st_reach *e);
size_t st_hard_leaf(const st_net *net, const double *x);

#endif
