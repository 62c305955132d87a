// gelu (erf form) of float32 in float lanes, for the AVX2 and AVX-512 builds (FMA), included
// by simd_impl.cpp inside its anonymous namespace after simd_math_f32.hpp and
// simd_unary_ops.hpp. It replaces x * erfc(-x / sqrt 2) / 2 through libmvec's erfc in
// double lanes (1.34 ms for 1e6 values on one Zen 5 core). PyTorch's float formula,
// 0.5 x (1 + erf(x / sqrt 2)), is cheaper but cancels to nothing for x < -3; here the
// negative tail keeps its relative accuracy. With a = |x| < 12 and T = Phi(-a):
//   T = e^(-a^2/2) G(a), G = erfc(a / sqrt 2) e^(a^2/2) / 2 (the scaled Mills ratio) by a
//   degree-7 polynomial in t = a - m on [0, 0.5) and nine half-binades [0.5, 0.75),
//   [0.75, 1), ..., [8, 12): one vpermps per coefficient picks the interval's (the exponent
//   and first mantissa bit of a are its index). a^2 / 2 is split exactly into hi + lo (an
//   fma), e^(-a^2/2) = 2^q e^r.
//   x < 0:  x T = (x g0 + (x t G1(t) + x G expm1(r))) 2^q, g0 = G(m): the large term x g0 is
//           rounded once, with the sum;
//   x >= 0: x (1 - T) = x - x T by one fma.
// gelu has the sign of x, and the result takes x's sign bit (-0 stays -0).
// |x| >= 12, out of line: x >= 12 gives x (T < 2e-33); x <= -12 goes through erfc in double,
// and below -14.5 the result rounds to -0 (-inf gives NaN, -inf * 0, as the reference).
// Coefficients: relative least-squares fits against 40-digit mpmath, scripts/fit_gelu_f32.py.
// Accuracy against float64 math: within 2.34 ulp, checked on every float with |x| in
// [1e-6, 15) (scripts/gelu_exhaustive.cpp: 65 of those 398 million results are more than 2
// ulp off, all near x = -1.85, where e^r - 1 < 0 cancels part of x G; 1.83 on
// CpuMath.Float32UlpErrorAtMost4's 2.4 million inputs; libmvec's erfc in double lanes,
// before: 0.5); subnormal results within their coarser ulp. Time per 16 values of N(0, 3) on one Zen 5 core: 6.7 ns
// with AVX-512 (49 before), 16.9 with AVX2 (84 before).
// Rows: the interval's m, then G's coefficients c0..c7 in t; entry k < 9 is [0.5, 0.75) and
// the half-binades after it, 9-14 repeat [8, 12)'s (unused), 15 is [0, 0.5).
alignas(64) constexpr float kGeluTail[9][16] = {
    {0.625f, 0.875f, 1.25f, 1.75f, 2.5f, 3.5f, 5.0f, 7.0f, 10.0f, 10.0f, 10.0f, 10.0f, 10.0f, 10.0f, 10.0f, 0.25f},
    {0.323356181f, 0.279770583f, 0.230760321f, 0.185231671f, 0.14133133f, 0.106345154f, 0.0769193023f, 0.0558934808f, 0.0395066924f, 0.0395066924f, 0.0395066924f, 0.0395066924f, 0.0395066924f, 0.0395066924f, 0.0395066924f, 0.414032102f},
    {-0.196844682f, -0.154143035f, -0.110491879f, -0.0747868642f, -0.045613952f, -0.0267342422f, -0.0143457558f, -0.00768790348f, -0.0038753394f, -0.0038753394f, -0.0038753394f, -0.0038753394f, -0.0038753394f, -0.0038753394f, -0.0038753394f, -0.295434266f},
    {0.100164123f, 0.0724477097f, 0.0463227406f, 0.0271773245f, 0.013648239f, 0.00638765423f, 0.00259527774f, 0.00103908079f, 0.000376654643f, 0.000376654643f, 0.000376654643f, 0.000376654643f, 0.000376654643f, 0.000376654643f, 0.000376654643f, 0.170086816f},
    {-0.0447473675f, -0.0302504282f, -0.0175294857f, -0.00907551683f, -0.00383113022f, -0.00145915372f, -0.000456480862f, -0.000138115502f, -3.62798783e-05f, -3.62798783e-05f, -3.62798783e-05f, -3.62798783e-05f, -3.62798783e-05f, -3.62798783e-05f, -3.62798783e-05f, -0.0843041763f},
    {0.0180491842f, 0.0114946086f, 0.00610248279f, 0.0028237165f, 0.00101734127f, 0.00032011178f, 7.81473354e-05f, 1.80621701e-05f, 3.45834701e-06f, 3.45834701e-06f, 3.45834701e-06f, 3.45834701e-06f, 3.45834701e-06f, 3.45834701e-06f, 3.45834701e-06f, 0.0372495465f},
    {-0.00669330917f, -0.00403851876f, -0.00198018458f, -0.000826764444f, -0.000257383363f, -6.77163116e-05f, -1.30686676e-05f, -2.3271059e-06f, -3.27389444e-07f, -3.27389444e-07f, -3.27389444e-07f, -3.27389444e-07f, -3.27389444e-07f, -3.27389444e-07f, -3.27389444e-07f, -0.0149980243f},
    {0.00231819763f, 0.0013306078f, 0.000610636489f, 0.000231422877f, 6.3993255e-05f, 1.41217361e-05f, 2.24781911e-06f, 3.0487351e-07f, 3.30061134e-08f, 3.30061134e-08f, 3.30061134e-08f, 3.30061134e-08f, 3.30061134e-08f, 3.30061134e-08f, 3.30061134e-08f, 0.00566403894f},
    {-0.000751453859f, -0.000411895395f, -0.000176254878f, -6.114813e-05f, -1.48374011e-05f, -2.79538222e-06f, -3.58370499e-07f, -3.81358092e-08f, -3.07311887e-09f, -3.07311887e-09f, -3.07311887e-09f, -3.07311887e-09f, -3.07311887e-09f, -3.07311887e-09f, -3.07311887e-09f, -0.00196082867f},
};

inline __attribute__((always_inline)) VF fused_f(VF a, VF b, VF c) {
#if defined(__AVX512F__)
    return (VF)_mm512_fmadd_ps((__m512)a, (__m512)b, (__m512)c);
#else
    return (VF)_mm256_fmadd_ps((__m256)a, (__m256)b, (__m256)c);
#endif
}
// table[idx & 15] lane by lane: one vpermps with AVX-512, two and a blend with AVX2.
inline __attribute__((always_inline)) VF lookup16(const float* table, VI idx) {
#if defined(__AVX512F__)
    return __builtin_shuffle(load(table), idx);
#else
    return __builtin_shuffle(load(table), load(table + 8), idx);
#endif
}

inline __attribute__((always_inline)) VF gelu_erf_near(VF x) {
    const VF a = vabs(x);
    const VF ac = a < 12.0f ? a : splat(11.999999f);  // lanes from 12 on (and NaN) are set by the caller
    const VF b = -0.5f * ac, h = b * ac, l = fused_f(b, ac, -h);  // -a^2/2 = h + l exactly
    const float magic = 12582912.0f;  // 1.5 * 2**23: adding it rounds to an integer
    const VF q = (h * 1.44269504088896341f + magic) - magic;
    const VF r1 = fused_f(q, splat(-0.693145751953125f), h);  // exact: ln2's head has 16 bits
    const VF c = fused_f(q, splat(-1.428606765330187045e-06f), l);
    const VF r = r1 + c;  // |r| <= ln2/2
    const VF em1 = fused_f(r * r, exp_u(r), r);  // e^r - 1

    VI idx = (bits_i(ac) >> 22) - 252;  // (bits of 0.5) >> 22 is 252
    idx = idx < -1 ? splat(-1) : idx;  // [0, 0.5) is entry 15
    const VF t = ac - lookup16(kGeluTail[0], idx);
    // G1(t) = (G(a) - g0) / t = c1 + c2 t + ... + c7 t^6 by Estrin's scheme, a shorter chain
    // than Horner's six steps (6.8 against 7.15 ns a vector of 16 on one Zen 5 core).
    auto coef = [&](int k) { return lookup16(kGeluTail[k + 1], idx); };
    const VF t2 = t * t;
    const VF p12 = fused_f(coef(2), t, coef(1)), p34 = fused_f(coef(4), t, coef(3)), p56 = fused_f(coef(6), t, coef(5));
    const VF g1 = fused_f(fused_f(coef(7), t2, p56), t2 * t2, fused_f(p34, t2, p12));
    const VF g0 = coef(0), g = fused_f(g1, t, g0);
    const VF scale = bits_f((__builtin_convertvector(q, VI) + 127) << 23);  // q in [-104, 0]
    const VF neg = fused_f(x, g0, fused_f(x * g, em1, (x * t) * g1)) * scale;
    const VF pos = fused_f(-x, fused_f(g, em1, g) * scale, x);
    return bits_f(bits_i(x < 0.0f ? neg : pos) | (bits_i(x) & (int32_t)0x80000000));
}

__attribute__((noinline)) VF gelu_erf_far(VF x) {
    VF r = gelu_erf_near(x);
    float xs[W<float>], rs[W<float>];
    memcpy(xs, &x, sizeof xs);
    memcpy(rs, &r, sizeof rs);
    for (int k = 0; k < W<float>; ++k) {
        if (xs[k] >= 12.0f) rs[k] = xs[k];
        else if (xs[k] <= -12.0f) rs[k] = xs[k] < -14.5f ? xs[k] * 0.0f : (float)(0.5 * xs[k] * std::erfc(xs[k] * -0.70710678118654752440));
    }
    memcpy(&r, rs, sizeof r);
    return r;
}

struct UGeluErf {
    static constexpr bool unroll2 = true;
    template <class T> static inline __attribute__((always_inline)) V<T> f(V<T> x) {
        if (__builtin_expect(any_set((VI)(vabs(x) >= 12.0f)), 0)) return gelu_erf_far(x);
        return gelu_erf_near(x);
    }
};
