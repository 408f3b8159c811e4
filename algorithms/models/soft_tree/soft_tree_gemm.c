/* The soft tree's routing logits and weight gradient: AVX-512 kernels, else BLAS. */
#include <cblas.h>
#include <stdatomic.h>

#include "soft_tree_impl.h"

/* Both products are small and run once per batch: 255 x 128 x 20 at depth 8, batch 128.
 * OpenBLAS packs both operands on every call, which cost 40% on top of its kernel there, and
 * 0.3.21 runs its AVX2 kernel on processors with AVX-512. These kernels read the operands in
 * place, the batch feature-major (a vector of rows is one load), and use all 32 registers;
 * each sum runs in a fixed order, but not BLAS's: results differ from it by rounding. */
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>
#define ST_HAVE_AVX512 1
#define ST_AVX512 __attribute__((target("avx512f")))

/* Set by tests only (st_gemm_force_blas), before any fit: the kernels are checked against BLAS
 * on the processors that have them. */
static _Atomic int force_blas;

/* A read of what libgcc's (compiler-rt's) constructor found, unless a test asked for BLAS. */
static int have_avx512(void)
{
    return !atomic_load_explicit(&force_blas, memory_order_relaxed) &&
           __builtin_cpu_supports("avx512f") != 0;
}

void st_gemm_force_blas(int on)
{
    atomic_store_explicit(&force_blas, on, memory_order_relaxed);
}

int st_gemm_has_kernels(void)
{
    return __builtin_cpu_supports("avx512f") != 0;
}
#else
#define ST_HAVE_AVX512 0

void st_gemm_force_blas(int on)
{
    (void)on;
}

int st_gemm_has_kernels(void)
{
    return 0;
}
#endif

#define REAL double
#define FN(name) name##_d
#define GEMM cblas_dgemm
#define VEC __m512d
#define VW 8
#define MASK __mmask8
#define SET1 _mm512_set1_pd
#define ZERO _mm512_setzero_pd
#define MLOAD _mm512_maskz_loadu_pd
#define MSTORE _mm512_mask_storeu_pd
#define FMA _mm512_fmadd_pd
#define MUL _mm512_mul_pd
#define ADD _mm512_add_pd
#define REDUCE _mm512_reduce_add_pd
#include "soft_tree_gemm_body.h"
#undef REAL
#undef FN
#undef GEMM
#undef VEC
#undef VW
#undef MASK
#undef SET1
#undef ZERO
#undef MLOAD
#undef MSTORE
#undef FMA
#undef MUL
#undef ADD
#undef REDUCE

#define REAL float
#define FN(name) name##_f
#define GEMM cblas_sgemm
#define VEC __m512
#define VW 16
#define MASK __mmask16
#define SET1 _mm512_set1_ps
#define ZERO _mm512_setzero_ps
#define MLOAD _mm512_maskz_loadu_ps
#define MSTORE _mm512_mask_storeu_ps
#define FMA _mm512_fmadd_ps
#define MUL _mm512_mul_ps
#define ADD _mm512_add_ps
#define REDUCE _mm512_reduce_add_ps
#include "soft_tree_gemm_body.h"
