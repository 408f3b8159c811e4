/* The soft tree's two products in one precision, AVX-512 or BLAS; soft_tree_gemm.c includes it. */
/* Expects REAL, FN(name) (name with the precision's suffix), GEMM (cblas_dgemm or
 * cblas_sgemm) and, for the kernels, VEC (the 512-bit vector type), VW (its REAL lanes), MASK
 * (the mask type), SET1, ZERO, MLOAD (masked load, zeros elsewhere), MSTORE, FMA, MUL, ADD and
 * REDUCE (the horizontal sum). The batch is feature-major: XT holds input j of row r at
 * [j * B + r], so a vector of rows is one load, as are the node-major arrays'. Only what a
 * tile needs is in registers: 4 nodes x 4 vectors of rows (logits), 4 nodes x 4 inputs (weight
 * gradient), 16 accumulators of 32. */

#if ST_HAVE_AVX512
/* Lanes [0, n) of a vector, n <= VW. */
ST_AVX512 static inline MASK FN(lanes)(size_t n)
{
    return n >= VW ? (MASK) ~(MASK)0 : (MASK)(((MASK)1 << n) - 1);
}

/* z[s][r] = beta (sum_j W[s][j] XT[j][r]) + beta bias[s] for NS nodes from s, rows r0 + [0,
 * 4 VW) masked by m. */
ST_AVX512 static inline __attribute__((always_inline)) void FN(logit_tile)(
    int NS, size_t s, size_t r0, const MASK m[4], size_t B, size_t D, REAL beta, const REAL *W,
    const REAL *bias, const REAL *XT, REAL *Z)
{
    VEC acc[4][4];
    for (int i = 0; i < NS; i++)
        for (int v = 0; v < 4; v++)
            acc[i][v] = ZERO();
    for (size_t j = 0; j < D; j++) {
        VEC x[4];
        for (int v = 0; v < 4; v++)
            x[v] = MLOAD(m[v], XT + j * B + r0 + (size_t)v * VW);
        for (int i = 0; i < NS; i++) {
            VEC w = SET1(W[(s + (size_t)i) * D + j]);
            for (int v = 0; v < 4; v++)
                acc[i][v] = FMA(w, x[v], acc[i][v]);
        }
    }
    VEC vb = SET1(beta);
    for (int i = 0; i < NS; i++) {
        VEC c = SET1(beta * bias[s + (size_t)i]);
        for (int v = 0; v < 4; v++)
            MSTORE(Z + (s + (size_t)i) * B + r0 + (size_t)v * VW, m[v], ADD(MUL(vb, acc[i][v]), c));
    }
}

/* The routing logits of M nodes for B rows into Z (M x B, node-major). */
ST_AVX512 static void FN(logits_avx512)(size_t M, size_t B, size_t D, REAL beta, const REAL *W,
                                        const REAL *bias, const REAL *XT, REAL *Z)
{
    for (size_t r0 = 0; r0 < B; r0 += 4 * VW) {
        MASK m[4];
        for (int v = 0; v < 4; v++) {
            size_t at = r0 + (size_t)v * VW;
            m[v] = at < B ? FN(lanes)(B - at) : 0;
        }
        size_t s = 0;
        for (; s + 4 <= M; s += 4)
            FN(logit_tile)(4, s, r0, m, B, D, beta, W, bias, XT, Z);
        for (; s < M; s++)
            FN(logit_tile)(1, s, r0, m, B, D, beta, W, bias, XT, Z);
    }
}

/* gW[s][j] = sum_r gz[s][r] XT[j][r] for NS nodes from s and NJ inputs from j. */
ST_AVX512 static inline __attribute__((always_inline)) void FN(wgrad_tile)(int NS, int NJ, size_t s,
                                                                           size_t j, size_t B,
                                                                           size_t D, const REAL *gz,
                                                                           const REAL *XT, REAL *gW)
{
    VEC acc[4][4];
    for (int i = 0; i < NS; i++)
        for (int k = 0; k < NJ; k++)
            acc[i][k] = ZERO();
    for (size_t r = 0; r < B; r += VW) {
        MASK m = FN(lanes)(B - r);
        VEC g[4], x[4];
        for (int i = 0; i < NS; i++)
            g[i] = MLOAD(m, gz + (s + (size_t)i) * B + r);
        for (int k = 0; k < NJ; k++)
            x[k] = MLOAD(m, XT + (j + (size_t)k) * B + r);
        for (int i = 0; i < NS; i++)
            for (int k = 0; k < NJ; k++)
                acc[i][k] = FMA(g[i], x[k], acc[i][k]);
    }
    for (int i = 0; i < NS; i++)
        for (int k = 0; k < NJ; k++)
            gW[(s + (size_t)i) * D + j + (size_t)k] = REDUCE(acc[i][k]);
}

/* The weight gradient gW = gz X (M x D) from gz (M x B, node-major). */
ST_AVX512 static void FN(wgrad_avx512)(size_t M, size_t D, size_t B, const REAL *gz, const REAL *XT,
                                       REAL *gW)
{
    size_t s = 0;
    for (; s + 4 <= M; s += 4) {
        size_t j = 0;
        for (; j + 4 <= D; j += 4)
            FN(wgrad_tile)(4, 4, s, j, B, D, gz, XT, gW);
        for (; j < D; j++)
            FN(wgrad_tile)(4, 1, s, j, B, D, gz, XT, gW);
    }
    for (; s < M; s++) {
        size_t j = 0;
        for (; j + 4 <= D; j += 4)
            FN(wgrad_tile)(1, 4, s, j, B, D, gz, XT, gW);
        for (; j < D; j++)
            FN(wgrad_tile)(1, 1, s, j, B, D, gz, XT, gW);
    }
}
#endif

void FN(st_logits)(size_t M, size_t B, size_t D, REAL beta, const REAL *W, const REAL *bias,
                   const REAL *XT, REAL *Z)
{
#if ST_HAVE_AVX512
    if (have_avx512()) {
        FN(logits_avx512)(M, B, D, beta, W, bias, XT, Z);
        return;
    }
#endif
    GEMM(CblasRowMajor, CblasNoTrans, CblasNoTrans, (int)M, (int)B, (int)D, beta, W, (int)D, XT,
         (int)B, 0, Z, (int)B);
    for (size_t s = 0; s < M; s++) {
        REAL *restrict z = Z + s * B, c = beta * bias[s];
        for (size_t r = 0; r < B; r++)
            z[r] += c;
    }
}

void FN(st_wgrad)(size_t M, size_t D, size_t B, const REAL *gz, const REAL *XT, REAL *gW)
{
#if ST_HAVE_AVX512
    if (have_avx512()) {
        FN(wgrad_avx512)(M, D, B, gz, XT, gW);
        return;
    }
#endif
    GEMM(CblasRowMajor, CblasNoTrans, CblasTrans, (int)M, (int)D, (int)B, 1, gz, (int)B, XT, (int)B,
         0, gW, (int)D);
}
