/* The soft tree's routing logits and weight gradient: AVX-512 kernels, else BLAS. */
#include <cblas.h>

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

#define REAL double
#define FN(name) name##_d
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

static int have_avx512(void)
{
    static int known = -1;
    if (known < 0) {
        __builtin_cpu_init();
        known = __builtin_cpu_supports("avx512f") != 0;
    }
    return known;
}
#else
#define ST_HAVE_AVX512 0
#endif

void st_logits_d(size_t M, size_t B, size_t D, double beta, const double *W, const double *bias,
                 const double *XT, double *Z)
{
#if ST_HAVE_AVX512
    if (have_avx512()) {
        logits_avx512_d(M, B, D, beta, W, bias, XT, Z);
        return;
    }
#endif
    cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, (int)M, (int)B, (int)D, beta, W,
                (int)D, XT, (int)B, 0, Z, (int)B);
    for (size_t s = 0; s < M; s++) {
        double *restrict z = Z + s * B, c = beta * bias[s];
        for (size_t r = 0; r < B; r++)
            z[r] += c;
    }
}

void st_logits_f(size_t M, size_t B, size_t D, float beta, const float *W, const float *bias,
                 const float *XT, float *Z)
{
#if ST_HAVE_AVX512
    if (have_avx512()) {
        logits_avx512_f(M, B, D, beta, W, bias, XT, Z);
        return;
    }
#endif
    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, (int)M, (int)B, (int)D, beta, W,
                (int)D, XT, (int)B, 0, Z, (int)B);
    for (size_t s = 0; s < M; s++) {
        float *restrict z = Z + s * B, c = beta * bias[s];
        for (size_t r = 0; r < B; r++)
            z[r] += c;
    }
}

void st_wgrad_d(size_t M, size_t D, size_t B, const double *gz, const double *XT, double *gW)
{
#if ST_HAVE_AVX512
    if (have_avx512()) {
        wgrad_avx512_d(M, D, B, gz, XT, gW);
        return;
    }
#endif
    cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasTrans, (int)M, (int)D, (int)B, 1, gz, (int)B,
                XT, (int)B, 0, gW, (int)D);
}

void st_wgrad_f(size_t M, size_t D, size_t B, const float *gz, const float *XT, float *gW)
{
#if ST_HAVE_AVX512
    if (have_avx512()) {
        wgrad_avx512_f(M, D, B, gz, XT, gW);
        return;
    }
#endif
    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasTrans, (int)M, (int)D, (int)B, 1, gz, (int)B,
                XT, (int)B, 0, gW, (int)D);
}
