/* exp, sigmoid and log-sigmoid over arrays (double and float), in loops the compiler vectorises. */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "soft_tree_impl.h"

/* libm's exp is a call per element that no compiler vectorises without -ffast-math; the
 * soft tree needs n_inner exponentials per row and epoch. Double: Tang's method,
 * x = (64 e + j) ln2 / 64 + r with |r| <= ln2 / 128 (ln2 / 64 in two parts, the high one
 * ending in 21 zero bits, so m ln2_hi / 64 is exact), exp(x) = 2^e 2^(j/64) exp(r), exp(r) a
 * Taylor polynomial of degree 5 (the first term left out is below 2^-54 relative), 2^(j/64)
 * from a table and 2^e built in the exponent bits. Float: no table, |r| <= ln2 / 2 and degree
 * 7. No branches: the loops vectorise (soft_tree/CMakeLists.txt gives gcc the flags it needs)
 * and run as AVX2 where the processor has it (ST_CLONES). The vector body and the scalar tail
 * of a loop do the same operations, so an element's result does not depend on where it sits.
 * Within 2 ulp of glibc's exp for double, 1 for float (test_soft_tree_fast checks). */

static const double LOG2E = 1.4426950408889634, LN2_HI = 6.93147180369123816490e-01,
                    LN2_LO = 1.90821492927058770002e-10;
static const float LOG2E_F = 1.44269504f, LN2_HI_F = 6.9314575195e-01f,
                   LN2_LO_F = 1.4286067653e-06f;
/* Adding 1.5 * 2^52 (float: 2^23) rounds to an integer, which then sits in the low bits. */
#define SHIFT 0x1.8p52
#define SHIFT_F 0x1.8p23f

/* 2^(j/64), j = 0..63, correctly rounded (python3: float(Decimal(2) ** (Decimal(j) / 64)) at
 * 50 digits). */
static const double EXP2_64[64] = {
    0x1.0000000000000p+0, 0x1.02c9a3e778061p+0, 0x1.059b0d3158574p+0, 0x1.0874518759bc8p+0,
    0x1.0b5586cf9890fp+0, 0x1.0e3ec32d3d1a2p+0, 0x1.11301d0125b51p+0, 0x1.1429aaea92de0p+0,
    0x1.172b83c7d517bp+0, 0x1.1a35beb6fcb75p+0, 0x1.1d4873168b9aap+0, 0x1.2063b88628cd6p+0,
    0x1.2387a6e756238p+0, 0x1.26b4565e27cddp+0, 0x1.29e9df51fdee1p+0, 0x1.2d285a6e4030bp+0,
    0x1.306fe0a31b715p+0, 0x1.33c08b26416ffp+0, 0x1.371a7373aa9cbp+0, 0x1.3a7db34e59ff7p+0,
    0x1.3dea64c123422p+0, 0x1.4160a21f72e2ap+0, 0x1.44e086061892dp+0, 0x1.486a2b5c13cd0p+0,
    0x1.4bfdad5362a27p+0, 0x1.4f9b2769d2ca7p+0, 0x1.5342b569d4f82p+0, 0x1.56f4736b527dap+0,
    0x1.5ab07dd485429p+0, 0x1.5e76f15ad2148p+0, 0x1.6247eb03a5585p+0, 0x1.6623882552225p+0,
    0x1.6a09e667f3bcdp+0, 0x1.6dfb23c651a2fp+0, 0x1.71f75e8ec5f74p+0, 0x1.75feb564267c9p+0,
    0x1.7a11473eb0187p+0, 0x1.7e2f336cf4e62p+0, 0x1.82589994cce13p+0, 0x1.868d99b4492edp+0,
    0x1.8ace5422aa0dbp+0, 0x1.8f1ae99157736p+0, 0x1.93737b0cdc5e5p+0, 0x1.97d829fde4e50p+0,
    0x1.9c49182a3f090p+0, 0x1.a0c667b5de565p+0, 0x1.a5503b23e255dp+0, 0x1.a9e6b5579fdbfp+0,
    0x1.ae89f995ad3adp+0, 0x1.b33a2b84f15fbp+0, 0x1.b7f76f2fb5e47p+0, 0x1.bcc1e904bc1d2p+0,
    0x1.c199bdd85529cp+0, 0x1.c67f12e57d14bp+0, 0x1.cb720dcef9069p+0, 0x1.d072d4a07897cp+0,
    0x1.d5818dcfba487p+0, 0x1.da9e603db3285p+0, 0x1.dfc97337b9b5fp+0, 0x1.e502ee78b3ff6p+0,
    0x1.ea4afa2a490dap+0, 0x1.efa1bee615a27p+0, 0x1.f50765b6e4540p+0, 0x1.fa7c1819e90d8p+0};

static inline double from_bits(uint64_t u)
{
    double d;
    memcpy(&d, &u, sizeof d);
    return d;
}

static inline uint64_t to_bits(double d)
{
    uint64_t u;
    memcpy(&u, &d, sizeof u);
    return u;
}

static inline float from_bits_f(uint32_t u)
{
    float f;
    memcpy(&f, &u, sizeof f);
    return f;
}

static inline uint32_t to_bits_f(float f)
{
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    return u;
}

/* Elements per block of the double exp: its three loops work in arrays on the stack. */
#define EB 64

/* exp(r) of the reduced argument of v, r = v - m ln2 / 64; *k gets m in its low bits. */
static inline double exp_reduced(double v, double *k)
{
    *k = v * (64 * LOG2E) + SHIFT;
    double m = *k - SHIFT; /* m = 64 e + j */
    double r = (v - m * (LN2_HI / 64)) - m * (LN2_LO / 64);
    double q = 1.0 / 120;
    q = q * r + 1.0 / 24;
    q = q * r + 1.0 / 6;
    q = q * r + 0.5;
    q = q * r + 1.0;
    return q * r + 1.0;
}

/* y = exp(x) for n <= EB elements. x is clamped to [-746, 710], beyond which exp is 0 or inf
 * anyway; NaN stays NaN. 2^e is applied as 2^(e - e1) 2^(j/64) times 2^e1 (e1 = floor(e / 2)),
 * each factor a normal number, so results down in the subnormal range and up to the overflow
 * are rounded once. When every x lies in [-708, 709] (the sigmoid's arguments nearly always),
 * the result is normal and 2^e goes into the table's factor at once: scaling by a power of 2
 * commutes with the rounding there, so the bits are the same, for a third fewer operations.
 * The table's factor has a loop of its own: a gather, which gcc does not vectorise for SSE2,
 * would keep the arithmetic from vectorising too. */
ST_CLONES static void exp_block(const double *restrict x, double *restrict y, size_t n)
{
    double p[EB], t[EB], s1[EB];
    int normal = 1;
    for (size_t i = 0; i < n; i++)
        normal &= (x[i] >= -708.0) & (x[i] <= 709.0); /* false for NaN */
    if (normal) {
        for (size_t i = 0; i < n; i++)
            p[i] = exp_reduced(x[i], &t[i]);
        for (size_t i = 0; i < n; i++) {
            uint64_t u = to_bits(t[i]) - to_bits(SHIFT); /* m, two's complement */
            /* bits 6.. of u are e (mod 2^12 is all the exponent field keeps) */
            y[i] = p[i] * from_bits(to_bits(EXP2_64[u & 63]) + (u >> 6 << 52));
        }
        return;
    }
    for (size_t i = 0; i < n; i++) {
        double v = x[i] < -746.0 ? -746.0 : x[i] > 710.0 ? 710.0 : x[i], k;
        p[i] = exp_reduced(v, &k);
        double m = k - SHIFT;
        /* floor(m / 64) and floor(m / 128): m / 64 - 63/128 is never a tie, nor m / 128 -
         * 127/256 */
        double ke = (m * (1.0 / 64) - 63.0 / 128) + SHIFT;
        double ke1 = (m * (1.0 / 128) - 127.0 / 256) + SHIFT;
        uint64_t j = (to_bits(k) - to_bits(SHIFT)) & 63, e1 = to_bits(ke1) - to_bits(SHIFT);
        uint64_t e2 = to_bits(ke) - to_bits(SHIFT) - e1;
        t[i] = from_bits(j | e2 << 52); /* j and e - e1 packed for the next loop */
        s1[i] = from_bits((e1 + 1023) << 52);
    }
    for (size_t i = 0; i < n; i++) {
        uint64_t u = to_bits(t[i]);
        y[i] = p[i] * from_bits(to_bits(EXP2_64[u & 63]) + (u & ~(uint64_t)63)) * s1[i];
    }
}

/* exp(r) for |r| <= ln2 / 2, Taylor to degree 7: the first term left out is below 2^-27. */
static inline float exp1_f(float x)
{
    float v = x < -104.0f ? -104.0f : x > 89.0f ? 89.0f : x;
    float k = v * LOG2E_F + SHIFT_F, n = k - SHIFT_F;
    float r = (v - n * LN2_HI_F) - n * LN2_LO_F;
    float p = 1.0f / 5040;
    p = p * r + 1.0f / 720;
    p = p * r + 1.0f / 120;
    p = p * r + 1.0f / 24;
    p = p * r + 1.0f / 6;
    p = p * r + 0.5f;
    p = p * r + 1.0f;
    p = p * r + 1.0f;
    float k1 = (n * 0.5f - 0.25f) + SHIFT_F; /* floor(n / 2): n / 2 - 1/4 is never a tie */
    uint32_t i = to_bits_f(k) - to_bits_f(SHIFT_F), i1 = to_bits_f(k1) - to_bits_f(SHIFT_F);
    uint32_t i2 = i - i1;
    return p * from_bits_f((i1 + 127) << 23) * from_bits_f((i2 + 127) << 23);
}

void st_vexp(const double *x, double *y, size_t n)
{
    double b[EB];
    for (size_t at = 0; at < n; at += EB) {
        size_t m = n - at < EB ? n - at : EB;
        exp_block(x + at, b, m);
        memcpy(y + at, b, m * sizeof *b);
    }
}

ST_CLONES static void vexp_f(const float *x, float *y, size_t n)
{
    for (size_t i = 0; i < n; i++)
        y[i] = exp1_f(x[i]);
}

void st_vexp_f(const float *x, float *y, size_t n)
{
    vexp_f(x, y, n);
}

/* sigmoid(z) from e = exp(-|z|): 1 / (1 + e) for z >= 0, e / (1 + e) below, neither of which
 * overflows or cancels. */
ST_CLONES static void vsigmoid(double *z, size_t n)
{
    double e[EB], x[EB];
    for (size_t at = 0; at < n; at += EB) {
        size_t m = n - at < EB ? n - at : EB;
        double *restrict zz = z + at;
        for (size_t i = 0; i < m; i++)
            x[i] = -fabs(zz[i]);
        exp_block(x, e, m);
        for (size_t i = 0; i < m; i++) {
            double p = 1.0 / (1.0 + e[i]);
            zz[i] = zz[i] >= 0 ? p : e[i] * p;
        }
    }
}

ST_CLONES static void vsigmoid_f(float *z, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        float e = exp1_f(-fabsf(z[i])), p = 1.0f / (1.0f + e);
        z[i] = z[i] >= 0 ? p : e * p;
    }
}

void st_vsigmoid(double *z, size_t n)
{
    vsigmoid(z, n);
}

void st_vsigmoid_f(float *z, size_t n)
{
    vsigmoid_f(z, n);
}

/* log sigmoid(z) = min(z, 0) - log1p(exp(-|z|)) with the exponential above: right to the
 * last bits for large |z| (z itself below -37, 0 above 745), where log(sigmoid(z)) gives
 * -inf or loses every digit. */
void st_vlog_sigmoid(const double *z, double *out, size_t n)
{
    for (size_t i = 0; i < n; i++)
        out[i] = -fabs(z[i]);
    st_vexp(out, out, n);
    for (size_t i = 0; i < n; i++)
        out[i] = (z[i] < 0 ? z[i] : 0.0) - log1p(out[i]);
}

void st_vlog_sigmoid_f(const float *z, float *out, size_t n)
{
    for (size_t i = 0; i < n; i++)
        out[i] = -fabsf(z[i]);
    st_vexp_f(out, out, n);
    for (size_t i = 0; i < n; i++)
        out[i] = (z[i] < 0 ? z[i] : 0.0f) - log1pf(out[i]);
}
