// float32 pow in float64 lanes, AVX-512 builds only (the others use libmvec's powf),
// for the ISA simd_impl.cpp is being compiled for (included there, inside its anonymous
// namespace, after the vector types and helpers it defines).

#if defined(__AVX512F__)
// pow(x, y) = 2^(y log2 x) in float64 lanes, rounded to float32 once. It buys accuracy
// (libmvec's powf rounds 5% of results the other way) and zero lanes in the vector (a zero
// sent libmvec's whole vector to its scalar path: 3.9x slower on ReLU outputs). log2 x from
// a 16-entry table and a polynomial Q (degree 6, below), 2^w = 2^n E(r) with n = round(w),
// |r| <= 1/2, E of degree 7; both minimax fits of scripts/fit_pow_f32.py, relative errors
// 2^-44.4 and 2^-34.5. A normal float32 result needs |w| <= 128, and w = y log2 x is then
// off by at most about 2^-36 (Q's error on |log2(1 + r)| <= 0.043, at most twice |log2 x|
// where the table's log2 c has the other sign); the float64 power is off by 2^-34 relative,
// 2^-10 float32 ulp: a normal result is within 0.5 + 2^-10 ulp once rounded (subnormal
// ones within half of their coarser ulp and that). One Intel AVX-512 core (the host of
// series 40-44): 0.91 ns an element in the L2, NumPy's SVML powf 0.82; the version before
// (log2 through t = (m - 1) / (m + 1), range checks of every lane first, the scaling by 2^n
// through the integer lanes, GCC's piecewise widening) took 1.55-1.6. With AVX2 that version
// took 2.8 ns on a Zen 4 core against libmvec's 2.6, so that variant keeps libmvec.
// Lanes of x = +-0 (y not NaN) are set from the sign and parity of y; lanes with x or y inf
// or NaN, or x < 0 with a fraction, are libm's powf, the reference's function. Every lane
// gets the same answer wherever it sits: in a tail, beside a special lane, on any thread.
using VDp = V<double>;
using VFp = typename VT<float, VB / 2>::type;  // one float per float64 lane
using VIp = typename VT<int32_t, VB / 2>::type;
using VUp = typename VT<uint32_t, VB / 2>::type;
using VLp = V<uint64_t>;

inline bool every_lane(VIp m) {  // m: all-ones or zero lanes
    __m256i v;
    memcpy(&v, &m, 32);
    return _mm256_movemask_epi8(v) == -1;
}

// Which lanes the kernel computes, which are x = +-0, and the sign bit of x ** y (negative
// x, odd integer y).
struct PowLanes {
    VIp kernel, zero, sign;
};
inline PowLanes pow_f32_lanes(VFp x, VFp y) {
    const VIp ax_bits = (VIp)x & 0x7fffffff, ay_bits = (VIp)y & 0x7fffffff;
    const VIp negative = (VIp)x < 0;
    // y's parity; every float from 2^24 up is an even integer
    const VIp small = (VFp)ay_bits < 16777216.0f;
    const VIp yi = __builtin_convertvector(small ? y : VFp{}, VIp);
    const VIp integral = ~small | (__builtin_convertvector(yi, VFp) == y);
    PowLanes p;
    p.kernel = (((VUp)ax_bits - 1u) < 0x7f7fffffu) & (ay_bits < 0x7f800000) & (~negative | integral);
    p.zero = (ax_bits == 0) & (ay_bits <= 0x7f800000);
    p.sign = negative & integral & ((yi & 1) != 0) & (int32_t)0x80000000;  // -0 ** 1.5 is +0
    return p;
}

// log2 x = k + log2 c + log2(1 + r): x = 2^k z with z in [kPowLogLow, 2 kPowLogLow), a range
// of 2^23 float bit patterns cut into 16 runs of 2^19 (the top four bits of z's bits minus
// kPowLogLow's), c the centre of z's run by value, r = z / c - 1 = z (1/c) - 1 (one fused
// rounding), |r| <= 0.0298. The range starts where 1.0 is the centre of its run, so that
// c = 1 there and x near 1 keeps its relative accuracy. 1/c and -log2(1/c) are float64
// (scripts/fit_pow_f32.py prints them), so that z (1/c) is the product log2 c belongs to.
constexpr uint32_t kPowLogLow = 0x3f32aaab;  // 0.6979..., 1.0 - 9.5 sixteenths in float bits
alignas(64) constexpr double kPowInvC[16] = {
    0x1.66c612080c1cfp+0, 0x1.57b863a69d5d4p+0, 0x1.49e1125888fd4p+0, 0x1.3d1c134ed1b94p+0,
    0x1.314abb273ced4p+0, 0x1.2652c6d740da2p+0, 0x1.1c1d98016fdf7p+0, 0x1.129798a4f8fe5p+0,
    0x1.09afbd3826d61p+0, 0x1.0000000000000p+0, 0x1.e6a7484ce492dp-1, 0x1.cb5d4de146feep-1,
    0x1.b2f93324d446bp-1, 0x1.9d0ac0bee6db0p-1, 0x1.89374afd54548p-1, 0x1.7734c2b42c933p-1};
alignas(64) constexpr double kPowLog2C[16] = {
    -0x1.f29de07cb40dap-2, -0x1.b34b1686a20b2p-2, -0x1.7692affe973d0p-2, -0x1.3c400b5cd2ddbp-2,
    -0x1.042486d7e401ep-2, -0x1.9c2d3f07774f4p-3, -0x1.33e2704de0f4fp-3, -0x1.9e4bfe94b44abp-4,
    -0x1.b6ef85f31ce17p-5, 0x0.0p+0,               0x1.2c072e851568ep-4,  0x1.40857364a4d20p-3,
    0x1.e1b9319d13e44p-3,  0x1.3d4ab5c7bd674p-2,  0x1.85f62842e90f4p-2,  0x1.cb393d93f5834p-2};

// t[idx] for a 16-entry table, idx in 0..15 in each float64 lane.
inline __attribute__((always_inline)) VDp table16(const double* t, VLp idx) {
    __m512d lo, hi;
    __m512i i;
    memcpy(&lo, t, 64);
    memcpy(&hi, t + 8, 64);
    memcpy(&i, &idx, 64);
    return (VDp)_mm512_permutex2var_pd(lo, i, hi);
}

// Widening through the intrinsics: GCC 12 converts a 256-bit vector into a 512-bit one
// (__builtin_convertvector) half by half, with extracts and inserts.
inline __attribute__((always_inline)) VDp widen(VFp v) {
    __m256 a;
    memcpy(&a, &v, 32);
    return (VDp)_mm512_cvtps_pd(a);
}
inline __attribute__((always_inline)) VDp widen(VIp v) {
    __m256i a;
    memcpy(&a, &v, 32);
    return (VDp)_mm512_cvtepi32_pd(a);
}
inline __attribute__((always_inline)) VLp widen_index(VIp v) {
    __m256i a;
    memcpy(&a, &v, 32);
    return (VLp)_mm512_cvtepu32_epi64(a);
}

// U vectors of ordinary lanes side by side, step by step, so that one vector's chain of
// dependent operations overlaps with the others'.
template <int U, bool Subnormal>
inline __attribute__((always_inline)) void pow_f32_block(const VFp* x, const VFp* y, const VIp* sign, VFp* result) {
    VDp r[U], w[U];
    for (int u = 0; u < U; ++u) {
        VUp ib = (VUp)x[u] & 0x7fffffffu;
        VIp k_offset = VIp{};
        if (Subnormal) {
            const VIp subnormal = (VIp)(ib < 0x00800000u);
            ib = subnormal ? (VUp)((VFp)ib * 8388608.0f) : ib;
            k_offset = subnormal & 23;
        }
        const VIp from_low = (VIp)(ib - kPowLogLow);
        const VLp idx = widen_index((from_low >> 19) & 15);
        const VDp z = widen((VFp)(ib - ((VUp)from_low & 0xff800000u)));
        r[u] = z * table16(kPowInvC, idx) - 1.0;
        w[u] = widen((from_low >> 23) - k_offset) + table16(kPowLog2C, idx);
    }
    for (int u = 0; u < U; ++u) {
        VDp q = splat(0.20634385129210661);
        q = q * r[u] - 0.24072738645567476;
        q = q * r[u] + 0.28853889766174606;
        q = q * r[u] - 0.36067363769024119;
        q = q * r[u] + 0.48089834697758049;
        q = q * r[u] - 0.72134752045797135;
        q = q * r[u] + 1.4426950408889625;
        // finite: vmaxpd/vminpd, which the comparisons would not become (NaN rules)
        __m512d v;
        const VDp product = widen(y[u]) * (r[u] * q + w[u]);
        memcpy(&v, &product, 64);
        w[u] = (VDp)_mm512_min_pd(_mm512_max_pd(v, _mm512_set1_pd(-160.0)), _mm512_set1_pd(130.0));
    }
    for (int u = 0; u < U; ++u) {
        __m512d wv;
        memcpy(&wv, &w[u], 64);
        const __m512d n = _mm512_roundscale_pd(wv, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
        const VDp r = w[u] - (VDp)n;
        VDp e = splat(1.520192597287669e-05);
        e = e * r + 0.0001546929375074493;
        e = e * r + 0.0013333922568443384;
        e = e * r + 0.009618027245615958;
        e = e * r + 0.05550410353412984;
        e = e * r + 0.24022651198216993;
        e = e * r + 0.6931471807284669;
        e = e * r + 0.9999999999616764;
        __m512d ev;
        memcpy(&ev, &e, 64);
        const VDp scaled = (VDp)_mm512_scalef_pd(ev, n);
        result[u] = (VFp)((VIp)__builtin_convertvector(scaled, VFp) | sign[u]);
    }
}

// One vector's results: the kernel's lanes through pow_f32_block (the others given (1, 1)),
// then the zero lanes, then any others through powf. U vectors side by side.
template <int U>
inline __attribute__((always_inline)) void pow_f32_vectors(const VFp* x, const VFp* y, VFp* r) {
    const VFp one = VFp{} + 1.0f;
    VIp sign[U];
    // The common case first: every x positive, normal and finite, every y finite; no sign,
    // no subnormal scaling, no blends.
    VIp ordinary = (VIp){} - 1;
    for (int u = 0; u < U; ++u) {
        sign[u] = VIp{};
        ordinary &= (((VUp)x[u] - 0x00800000u) < 0x7f000000u) & (((VIp)y[u] & 0x7fffffff) < 0x7f800000);
    }
    if (__builtin_expect(every_lane(ordinary), 1)) {
        pow_f32_block<U, false>(x, y, sign, r);
        return;
    }
    bool all_kernel = true;
    for (int u = 0; u < U; ++u) {
        const PowLanes p = pow_f32_lanes(x[u], y[u]);
        sign[u] = p.sign;
        all_kernel &= every_lane(p.kernel);
    }
    if (all_kernel) {  // negative x with integer y, or subnormal x, among them
        pow_f32_block<U, true>(x, y, sign, r);
        return;
    }
    PowLanes p[U];
    VFp xk[U], yk[U];
    for (int u = 0; u < U; ++u) {
        p[u] = pow_f32_lanes(x[u], y[u]);
        xk[u] = p[u].kernel ? x[u] : one;
        yk[u] = p[u].kernel ? y[u] : one;
    }
    pow_f32_block<U, true>(xk, yk, sign, r);
    for (int u = 0; u < U; ++u) {
        // +-0 ** y: +inf for y < 0, 0 for y > 0, 1 for y = 0; negative for -0 and an odd y
        const VIp zero_bits = (y[u] < 0.0f ? VIp{} + 0x7f800000 : y[u] > 0.0f ? VIp{} : VIp{} + 0x3f800000) | p[u].sign;
        r[u] = p[u].zero ? (VFp)zero_bits : r[u];
        const VIp computed = p[u].kernel | p[u].zero;
        if (!every_lane(computed))
            for (int l = 0; l < W<double>; ++l)
                if (!computed[l]) r[u][l] = std::pow(x[u][l], y[u][l]);
    }
}

void pow_f32(const void* av, const void* bv, void* ov, int64_t n, int mode) {
    const float* a = (const float*)av;
    const float* b = (const float*)bv;
    float* o = (float*)ov;
    if (n <= 0) return;
    constexpr int w = W<double>, U = 4;
    VFp xs, ys;  // the broadcast operand's value
    for (int l = 0; l < w; ++l) {
        xs[l] = a[0];
        ys[l] = b[0];
    }
    int64_t i = 0;
    for (; i + U * w <= n; i += U * w) {
        VFp x[U], y[U], r[U];
        for (int u = 0; u < U; ++u) {
            x[u] = xs;
            y[u] = ys;
            if (!(mode & 1)) memcpy(&x[u], a + i + u * w, sizeof x[u]);
            if (!(mode & 2)) memcpy(&y[u], b + i + u * w, sizeof y[u]);
        }
        pow_f32_vectors<U>(x, y, r);
        memcpy(o + i, r, sizeof r);
    }
    for (; i < n; i += w) {  // single vectors, the last padded with (1, 1)
        const int64_t m = std::min<int64_t>(w, n - i);
        VFp x = xs, y = ys, r;
        for (int l = 0; l < w; ++l) {
            if (!(mode & 1)) x[l] = l < m ? a[i + l] : 1.0f;
            if (!(mode & 2)) y[l] = l < m ? b[i + l] : 1.0f;
        }
        pow_f32_vectors<1>(&x, &y, &r);
        memcpy(o + i, &r, (size_t)m * sizeof(float));
    }
}
#endif
