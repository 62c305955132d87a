// float32 pow in float64 lanes, AVX-512 builds only (the others use libmvec's powf),
// for the ISA simd_impl.cpp is being compiled for (included there, inside its anonymous
// namespace, after the vector types and helpers it defines).

#if defined(__AVX512F__)
// pow(x, y) = 2^(y log2 x) in float64 lanes, rounded to float32 once: 1.9 ns per element on
// a Zen 4 core, as libmvec's powf (NumPy's SVML: 0.7; a first version without the zero lanes
// and the same-answer rule below took 1.5, for a reason not found). It buys accuracy
// (libmvec's powf rounds 5% of results the other way) and zero lanes in the vector (a zero
// sent libmvec's whole vector to its scalar path: 3.9x slower on ReLU outputs). With AVX2 it
// took 2.8 against libmvec's 2.6, so that variant keeps libmvec. x = 2^k m with m in
// [sqrt(1/2), sqrt(2)), log2 m = t L(t^2) where t = (m - 1) / (m + 1); 2^w = 2^n E(r) where
// n = round(w), |r| <= 1/2. L (degree 4) and E (degree 7) are the minimax polynomials of
// scripts/fit_pow_f32.py, relative errors 2^-37.8 and 2^-34.5. |y log2 m| <= |w|, and a
// normal float32 result needs |w| <= 128: w is off by at most 2^-30.8, the float64 power by
// 2^-31.1 relative, 2^-7.1 float32 ulp: a normal result is within 0.5 + 2^-7 ulp once rounded
// (subnormal ones within half of their coarser ulp and that).
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
    p.sign = negative & ((yi & 1) != 0) & (int32_t)0x80000000;
    return p;
}

// U vectors of ordinary lanes side by side, step by step: one vector's chain of dependent
// operations (a division, two polynomials) is too long for the out-of-order window to
// overlap with the next one's (one at a time, this kernel ran slower than libmvec's powf).
template <int U>
inline __attribute__((always_inline)) void pow_f32_block(const VFp* x, const VFp* y, const VIp* sign, VFp* result) {
    VDp t[U], s[U], w[U];
    for (int u = 0; u < U; ++u) {
        const VIp ax_bits = (VIp)x[u] & 0x7fffffff;
        const VIp subnormal = ax_bits < 0x00800000;
        const VFp ax = subnormal ? (VFp)ax_bits * 8388608.0f : (VFp)ax_bits;
        const VUp ib = (VUp)ax;
        const VIp k0 = (VIp)(ib - 0x3f3504f3u) >> 23;
        const VDp m = __builtin_convertvector((VFp)(ib - ((VUp)k0 << 23)), VDp);
        w[u] = __builtin_convertvector(k0 - (subnormal & 23), VDp);  // k, for now
        t[u] = (m - 1.0) / (m + 1.0);
        s[u] = t[u] * t[u];
    }
    for (int u = 0; u < U; ++u) {
        VDp l = splat(0.34072802575649797);
        l = l * s[u] + 0.41167283365452556;
        l = l * s[u] + 0.57708358294517081;
        l = l * s[u] + 0.96179667335415886;
        l = l * s[u] + 2.8853900817900686;
        VDp v = __builtin_convertvector(y[u], VDp) * (t[u] * l + w[u]);
        v = v < -160.0 ? splat(-160.0) : v;
        w[u] = v > 130.0 ? splat(130.0) : v;
    }
    const double shifter = 6755399441055744.0;  // 1.5 * 2^52: adding it rounds to an integer
    uint64_t shifter_bits;
    memcpy(&shifter_bits, &shifter, 8);
    for (int u = 0; u < U; ++u) {
        const VDp big = w[u] + shifter, r = w[u] - (big - shifter);
        VDp e = splat(1.5201926030293316e-05);
        e = e * r + 0.00015469293758605917;
        e = e * r + 0.0013333922568294391;
        e = e * r + 0.009618027245601464;
        e = e * r + 0.055504103534122343;
        e = e * r + 0.24022651198216904;
        e = e * r + 0.69314718072846659;
        e = e * r + 0.99999999996167654;
        const VLp scaled = (VLp)e + (((VLp)big - shifter_bits) << 52);
        result[u] = (VFp)((VIp)__builtin_convertvector((VDp)scaled, VFp) | sign[u]);
    }
}

// One vector's results: the kernel's lanes through pow_f32_block (the others given (1, 1)),
// then the zero lanes, then any others through powf. U vectors side by side.
template <int U>
inline __attribute__((always_inline)) void pow_f32_vectors(const VFp* x, const VFp* y, VFp* r) {
    const VFp one = VFp{} + 1.0f;
    VIp sign[U];
    bool all_kernel = true;
    for (int u = 0; u < U; ++u) {
        const PowLanes p = pow_f32_lanes(x[u], y[u]);
        sign[u] = p.sign;
        all_kernel &= every_lane(p.kernel);
    }
    if (__builtin_expect(all_kernel, 1)) {  // the common case, without the blends below
        pow_f32_block<U>(x, y, sign, r);
        return;
    }
    PowLanes p[U];
    VFp xk[U], yk[U];
    for (int u = 0; u < U; ++u) {
        p[u] = pow_f32_lanes(x[u], y[u]);
        xk[u] = p[u].kernel ? x[u] : one;
        yk[u] = p[u].kernel ? y[u] : one;
    }
    pow_f32_block<U>(xk, yk, sign, r);
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
