// float32 erf in double lanes from two polynomials, for the ISA simd_impl.cpp is being
// compiled for (included there, inside its anonymous namespace). libmvec's float variant
// reaches 4 ulp and its double variant, which the float32 op used before, took 2.9 ms for
// 1e6 values on two threads (Zen 3, AVX2); this takes about a tenth of that.
//
//   |x| < 1.25:          erf(x) = x P(x^2),        P of degree 7
//   1.25 <= |x| < 3.92:  erf(x) = +-B(|x| - 2.585), B of degree 13
//   |x| >= 3.92:         +-1 (1 - erf(3.92) = 2.7e-8 is below half an ulp of 1 in float32)
//
// Coefficients: least-squares fits on Chebyshev nodes against 40-digit erf (mpmath),
// relative for P, absolute for B (erf >= 0.92 there), made for this file; in double the
// polynomials' own rounding is far below float32's, so the result rounds once: within
// 0.57 ulp on a sweep of 57000 floats in [0, 4] (tests: CpuMath.Float32UlpErrorAtMost4
// and its per-ISA runs sweep 1e6 values and every binade down to the subnormals).
// NaN stays NaN (it fails both comparisons), -0.0 keeps its sign, +-inf gives +-1.

constexpr double kErfP[8] = {1.1283791659325018,     -0.37612629791415197,    0.11283672549316763,   -0.026860155459392843,
                             0.0052088523316961366,  -0.00083380631413377626, 0.00010386985074975916, -7.560546605569303e-06};
constexpr double kErfB[14] = {0.99974356330472236,     0.0014138256079598895,  -0.0036549160103524275, 0.0058275318451371204,
                              -0.0063122130137517694,  0.0047774078934674771,  -0.0024384958281864909, 0.00066692605687631028,
                              9.983157209637273e-05,   -0.00019202795306711622, 7.4749100157465843e-05, 1.6899209407245994e-07,
                              -8.647083143808189e-06,  1.8992513708512397e-06};
constexpr double kErfSmall = 1.25, kErfMid = 2.585, kErfOne = 3.92;

// erf of U vectors of w floats at src into dst, in double: the polynomials of all U step
// together, so that 2U Horner chains are in flight (one vector at a time waited on the
// fused multiply-adds' latency: 1.8 against 1.4 ns an element on one thread).
template <int U>
inline void erf_vectors(const float* src, float* dst) {
    constexpr int w = W<double>;
    using Vf = typename VT<float, VB / 2>::type;  // w floats
    constexpr uint64_t kSign = uint64_t(1) << 63;
    V<double> x[U], a[U], s[U], d[U], p[U], b[U];
    for (int u = 0; u < U; ++u) {
        Vf v;
        memcpy(&v, src + u * w, sizeof v);
        x[u] = __builtin_convertvector(v, V<double>);
        a[u] = (V<double>)((V<uint64_t>)x[u] & ~kSign);
        s[u] = x[u] * x[u];
        d[u] = a[u] - kErfMid;
        p[u] = splat(kErfP[7]);
        b[u] = splat(kErfB[13]);
    }
    for (int k = 6; k >= 0; --k)
        for (int u = 0; u < U; ++u) p[u] = p[u] * s[u] + kErfP[k];
    for (int k = 12; k >= 0; --k)
        for (int u = 0; u < U; ++u) b[u] = b[u] * d[u] + kErfB[k];
    for (int u = 0; u < U; ++u) {
        const V<double> one_or_b = a[u] >= kErfOne ? splat(1.0) : b[u];
        const V<double> large = (V<double>)(((V<uint64_t>)x[u] & kSign) | (V<uint64_t>)one_or_b);
        const Vf r = __builtin_convertvector(a[u] < kErfSmall ? x[u] * p[u] : large, Vf);
        memcpy(dst + u * w, &r, sizeof r);
    }
}

void erf_f32(const void* in, void* out, int64_t n, int) {
    constexpr int w = W<double>;
    const float* x = (const float*)in;
    float* o = (float*)out;
    int64_t i = 0;
    for (; i + 4 * w <= n; i += 4 * w) erf_vectors<4>(x + i, o + i);
    for (; i < n; i += w) {  // the tail through the same lanes, padded with its first value
        const int64_t m = n - i < w ? n - i : w;
        float lanes[w];
        for (int k = 0; k < w; ++k) lanes[k] = x[i + (k < m ? k : 0)];
        erf_vectors<1>(lanes, lanes);
        memcpy(o + i, lanes, (size_t)m * sizeof(float));
    }
}
