// complex64 and complex128 arithmetic on interleaved (re, im) lanes,
// for the ISA simd_impl.cpp is being compiled for (included there, inside its anonymous
// namespace, after the vector types and helpers it defines).

// |z| of one complex64 value as glibc's hypotf computes it: sqrt(re^2 + im^2) in float64,
// rounded to float32 (each square is exact in float64, so a fused multiply-add rounds the
// same sum), and +inf where a part is infinite, even with a NaN in the other. Bit for bit
// the reference's std::abs.
inline __attribute__((always_inline)) float abs_of_c64(float re, float im) {
    const double dre = re, dim = im;
    const bool inf = __builtin_fabsf(re) == __builtin_inff() || __builtin_fabsf(im) == __builtin_inff();
    return inf ? __builtin_inff() : (float)__builtin_sqrt(dre * dre + dim * dim);
}
void abs_c64(const void* in, void* out, int64_t n, int) {
    const float* __restrict x = (const float*)in;
    float* __restrict o = (float*)out;
    for (int64_t i = 0; i < n; ++i) o[i] = abs_of_c64(x[2 * i], x[2 * i + 1]);
}
// sign of complex64 values as the reference computes it: 0 where |z| = 0, else z / |z|
// with |z| as abs_c64 rounds it and each part divided by it (GCC divides a complex value by
// a real one part by part).
void sign_c64(const void* in, void* out, int64_t n, int) {
    const float* __restrict x = (const float*)in;
    float* __restrict o = (float*)out;
    for (int64_t i = 0; i < n; ++i) {
        const float re = x[2 * i], im = x[2 * i + 1];
        const float a = abs_of_c64(re, im);
        o[2 * i] = a == 0 ? 0.0f : re / a;
        o[2 * i + 1] = a == 0 ? 0.0f : im / a;
    }
}
// The empty asm hides the product from the optimiser, so it cannot be fused into the sum
// that follows: each product is rounded on its own, as without FMA.
template <class Vec> inline __attribute__((always_inline)) Vec unfused(Vec v) {
    asm("" : "+x"(v));
    return v;
}
// Products of (re, im) pairs in vectors: (ar br - ai bi, ar bi + ai br), each product
// rounded, then the sum or difference (ComplexMulFn in isa.hpp).
template <class T, int Scalars>
bool complex_mul_loop(const T* a, const T* b, T* o, int64_t n) {
    typedef sint_of<T> I;
    typedef typename VT<I>::type Mask;
    constexpr int lanes = W<T>, w = lanes / 2;
    Mask even, odd, swap;
    V<T> sign;
    for (int l = 0; l < lanes; ++l) {
        even[l] = l & ~1;
        odd[l] = l | 1;
        swap[l] = l ^ 1;
        sign[l] = (l & 1) ? T(1) : T(-1);
    }
    auto pair = [&](const T* p) {  // one (re, im) in every pair of lanes
        V<T> v;
        for (int l = 0; l < lanes; ++l) v[l] = p[l & 1];
        return v;
    };
    const V<T> sa = Scalars & 1 ? pair(a) : V<T>{}, sb = Scalars & 2 ? pair(b) : V<T>{};
    Mask nan_pairs{};
    int64_t i = 0;
    for (; i + w <= n; i += w) {
        const V<T> x = Scalars & 1 ? sa : load(a + 2 * i), y = Scalars & 2 ? sb : load(b + 2 * i);
        const V<T> p = unfused(__builtin_shuffle(x, even) * y), q = unfused(__builtin_shuffle(x, odd) * __builtin_shuffle(y, swap));
        const V<T> r = p + sign * q;
        const Mask nan = (Mask)(r != r);
        nan_pairs |= nan & __builtin_shuffle(nan, swap);
        store_vec(o + 2 * i, r);
    }
    bool any = false;
    for (int l = 0; l < lanes; ++l) any = any || nan_pairs[l] != 0;
    for (; i < n; ++i) {
        const T* x = a + (Scalars & 1 ? 0 : 2 * i);
        const T* y = b + (Scalars & 2 ? 0 : 2 * i);
        T p0 = x[0] * y[0], p1 = x[1] * y[1], p2 = x[0] * y[1], p3 = x[1] * y[0];
        asm("" : "+x"(p0), "+x"(p1), "+x"(p2), "+x"(p3));
        o[2 * i] = p0 - p1;
        o[2 * i + 1] = p2 + p3;
        any = any || (o[2 * i] != o[2 * i] && o[2 * i + 1] != o[2 * i + 1]);
    }
    return any;
}
// Calls f(std::integral_constant<int, s>) for the kernels' `scalars` argument s (bit 0: a is
// one broadcast value, bit 1: b), so that each case compiles on its own.
template <class F>
inline bool with_scalars(int scalars, F&& f) {
    switch (scalars) {
        case 1: return f(std::integral_constant<int, 1>{});
        case 2: return f(std::integral_constant<int, 2>{});
        case 3: return f(std::integral_constant<int, 3>{});
        default: return f(std::integral_constant<int, 0>{});
    }
}
// The loop of the complex quotient kernels: step(pa, pb, po) computes W<double> quotients
// of (re, im) pairs of T; the last few go through padded copies (dividing by 1 + 1i, never
// NaN).
template <int Scalars, class T, class Step>
void quotient_steps(const T* a, const T* b, T* o, int64_t n, Step&& step) {
    constexpr int w = W<double>;
    int64_t i = 0;
    for (; i + w <= n; i += w) step(a + (Scalars & 1 ? 0 : 2 * i), b + (Scalars & 2 ? 0 : 2 * i), o + 2 * i);
    if (i < n) {
        T xa[2 * w] = {}, xb[2 * w], r[2 * w];
        for (int l = 0; l < 2 * w; ++l) xb[l] = 1;
        const size_t bytes = (size_t)(n - i) * 2 * sizeof(T);
        if (!(Scalars & 1)) memcpy(xa, a + 2 * i, bytes);
        if (!(Scalars & 2)) memcpy(xb, b + 2 * i, bytes);
        step(xa, xb, r);
        memcpy(o + 2 * i, r, bytes);
    }
}
// complex64 quotients in float64 (see ComplexDivFn): x = (ac + bd) / (c^2 + d^2),
// y = (bc - ad) / (c^2 + d^2). Products of float32 values are exact in float64 (so fusing
// them changes nothing), and nothing can overflow or underflow there: libgcc scales only in
// its float64 routine.
template <int Scalars>
bool complex_div_c64_loop(const float* a, const float* b, float* o, int64_t n) {
    typedef typename VT<float, VB / 2>::type Half;  // w floats
    typedef V<int32_t> Mask32;
    constexpr int w = W<double>;
    Mask32 split, merge;
    for (int l = 0; l < w; ++l) {
        split[l] = 2 * l;  // real parts first, then imaginary parts
        split[l + w] = 2 * l + 1;
        merge[2 * l] = l;
        merge[2 * l + 1] = l + w;
    }
    auto parts = [&](const float* p, V<double>& re, V<double>& im) {
        const V<float> s = __builtin_shuffle(load(p), split);
        Half lo, hi;
        memcpy(&lo, &s, sizeof lo);
        memcpy(&hi, (const char*)&s + sizeof lo, sizeof hi);
        re = __builtin_convertvector(lo, V<double>);
        im = __builtin_convertvector(hi, V<double>);
    };
    V<double> sar = {}, sai = {}, sbr = {}, sbi = {};
    if (Scalars & 1) sar = splat((double)a[0]), sai = splat((double)a[1]);
    if (Scalars & 2) sbr = splat((double)b[0]), sbi = splat((double)b[1]);
    V<int64_t> nan_pairs = {};
    auto step = [&](const float* pa, const float* pb, float* po) {
        V<double> ar = sar, ai = sai, br = sbr, bi = sbi;
        if (!(Scalars & 1)) parts(pa, ar, ai);
        if (!(Scalars & 2)) parts(pb, br, bi);
        const V<double> den = br * br + bi * bi;
        const V<double> x = (ar * br + ai * bi) / den;
        const V<double> y = (ai * br - ar * bi) / den;
        nan_pairs |= (x != x) & (y != y);
        const Half hx = __builtin_convertvector(x, Half), hy = __builtin_convertvector(y, Half);
        V<float> s;
        memcpy(&s, &hx, sizeof hx);
        memcpy((char*)&s + sizeof hx, &hy, sizeof hy);
        store_vec(po, __builtin_shuffle(s, merge));
    };
    quotient_steps<Scalars>(a, b, o, n, step);
    return any_set(nan_pairs);
}
// complex128 quotients as libgcc's __divdc3 (GCC 12) computes them (see ComplexDivFn):
// Smith's method on the divisor's larger part (ratio = smaller / larger), after its
// scalings: all four values halved where that part is at least DBL_MAX / 2, multiplied by
// 2^52 where it is below 2^-52 or a dividend part is below DBL_MIN (and the others below
// DBL_MAX 2^-53), and its other order of operations where the ratio is subnormal or zero
// (a real or imaginary divisor). Each choice is made per lane with blends; the second
// order is computed only when a lane needs it. Products are rounded before their sums.
template <int Scalars>
bool complex_div_c128_loop(const double* a, const double* b, double* o, int64_t n) {
    typedef V<int64_t> Mask;
    constexpr int w = W<double>;
    Mask even, odd, first_half, second_half;
    for (int l = 0; l < w; ++l) {
        even[l] = 2 * l;
        odd[l] = 2 * l + 1;
        first_half[l] = l / 2 + (l & 1 ? w : 0);  // x0 y0 x1 y1 ...
        second_half[l] = w / 2 + l / 2 + (l & 1 ? w : 0);
    }
    const V<double> big_half = splat(0x1.fffffffffffffp+1022), eps = splat(0x1p-52), up_scale = splat(0x1p+52),
                    min_normal = splat(0x1p-1022), max_up = splat(0x1.fffffffffffffp+970), one = splat(1.0), half = splat(0.5);
    auto magnitude = [](V<double> v) { return (V<double>)((Mask)v & INT64_MAX); };
    auto parts = [&](const double* p, V<double>& re, V<double>& im) {
        const V<double> v0 = load(p), v1 = load(p + w);
        re = __builtin_shuffle(v0, v1, even);
        im = __builtin_shuffle(v0, v1, odd);
    };
    V<double> sar = {}, sai = {}, sbr = {}, sbi = {};
    if (Scalars & 1) sar = splat(a[0]), sai = splat(a[1]);
    if (Scalars & 2) sbr = splat(b[0]), sbi = splat(b[1]);
    Mask nan_pairs = {};
    auto step = [&](const double* pa, const double* pb, double* po) {
        V<double> ar = sar, ai = sai, br = sbr, bi = sbi;
        if (!(Scalars & 1)) parts(pa, ar, ai);
        if (!(Scalars & 2)) parts(pb, br, bi);
        const Mask by_im = magnitude(br) < magnitude(bi);  // libgcc's |c| < |d| branch
        V<double> big = by_im ? bi : br, small = by_im ? br : bi;
        const V<double> abig = magnitude(big), aar = magnitude(ar), aai = magnitude(ai);
        const Mask up = (abig < eps) | ((abig < max_up) & (((aar < min_normal) & (aai < max_up)) | ((aai < min_normal) & (aar < max_up))));
        const V<double> f = abig >= big_half ? half : up ? up_scale : one;
        ar *= f, ai *= f, big *= f, small *= f;
        const V<double> ratio = small / big;
        const V<double> den = unfused(small * ratio) + big;
        const V<double> rr = unfused(ar * ratio), ri = unfused(ai * ratio);
        // x = (p + q) / den, y = (r - s) / den
        V<double> p = by_im ? rr : ri, r = by_im ? ri : ai, s = by_im ? ar : rr;
        const V<double> q = by_im ? ai : ar;
        const Mask other_order = ~(Mask)(magnitude(ratio) > min_normal);
        if (__builtin_expect(any_set(other_order), 0)) {
            const V<double> sr = unfused(small * (ar / big)), si = unfused(small * (ai / big));
            p = other_order ? (by_im ? sr : si) : p;
            r = other_order ? (by_im ? si : ai) : r;
            s = other_order ? (by_im ? ar : sr) : s;
        }
        const V<double> x = (p + q) / den, y = (r - s) / den;
        nan_pairs |= (x != x) & (y != y);
        store_vec(po, __builtin_shuffle(x, y, first_half));
        store_vec(po + w, __builtin_shuffle(x, y, second_half));
    };
    quotient_steps<Scalars>(a, b, o, n, step);
    return any_set(nan_pairs);
}
bool complex_div_c128(const void* a, const void* b, void* out, int64_t n, int scalars) {
    return with_scalars(scalars, [&](auto s) { return complex_div_c128_loop<s.value>((const double*)a, (const double*)b, (double*)out, n); });
}
bool complex_div_c64(const void* a, const void* b, void* out, int64_t n, int scalars) {
    return with_scalars(scalars, [&](auto s) { return complex_div_c64_loop<s.value>((const float*)a, (const float*)b, (float*)out, n); });
}
template <class T>
bool complex_mul(const void* a, const void* b, void* out, int64_t n, int scalars) {
    return with_scalars(scalars, [&](auto s) { return complex_mul_loop<T, s.value>((const T*)a, (const T*)b, (T*)out, n); });
}

// conj: the imaginary part's sign bit flipped (as std::conj's negation, NaNs included).
void conj_c64(const void* in, void* out, int64_t n, int) {
    const uint64_t* __restrict x = (const uint64_t*)in;
    uint64_t* __restrict o = (uint64_t*)out;
    for (int64_t i = 0; i < n; ++i) o[i] = x[i] ^ (uint64_t(1) << 63);
}
void conj_c128(const void* in, void* out, int64_t n, int) {
    const uint64_t* __restrict x = (const uint64_t*)in;
    uint64_t* __restrict o = (uint64_t*)out;
    for (int64_t i = 0; i < 2 * n; ++i) o[i] = x[i] ^ ((uint64_t)(i & 1) << 63);
}
// negative: both parts negated (std::complex's unary minus), the real kernel on the 2n
// parts, instead of the reference's kernel on slices of the pool. Two threads, 1e6 values:
// complex64 121 -> 65-128 us, complex128 231-255 -> 204-214 (NumPy 1.0-1.7 ms).
template <class R>
void negative_complex(const void* in, void* out, int64_t n, int flags) {
    un_fn<R, UNeg>(in, out, 2 * n, flags);
}

// 1/z of (re, im) pairs by common/complex_reciprocal.hpp's steps, bit for bit (each part
// divided by d, the product in d unfused), a vector's pairs at a time: the divisor's larger
// part chosen per pair by blends, the numerators (1, -r) or (r, -1) divided by d in one
// vector division. A zero, infinite or NaN pair is then overwritten by that function's
// answer (its early returns, which no contraction of this ISA's build can change); the last
// few pairs go through a copy padded with ones. 1e6 complex64 values: 4.7 ms through the
// function alone, 0.58 ms this way, two threads.
template <class T>
void complex_recip_loop(const T* z, T* o, int64_t n) {
    typedef sint_of<T> I;
    typedef typename VT<I>::type Mask;
    constexpr int lanes = W<T>;
    Mask swap, dup_even, odd;
    for (int l = 0; l < lanes; ++l) {
        swap[l] = l ^ 1;
        dup_even[l] = l & ~1;
        odd[l] = l & 1 ? -1 : 0;
    }
    const V<T> one = splat(T(1)), inf = splat(std::numeric_limits<T>::infinity());
    const Mask magnitude = ~(Mask)splat((T)-0.0);
    auto step = [&](const V<T> v, T* dst) {
        const V<T> s = __builtin_shuffle(v, swap);
        const V<T> av = (V<T>)((Mask)v & magnitude), as = (V<T>)((Mask)s & magnitude);
        const Mask by_im = __builtin_shuffle((Mask)(av < as), dup_even);  // |re| < |im|, from the even lanes
        const V<T> re = __builtin_shuffle(v, dup_even), im = __builtin_shuffle(s, dup_even);
        const V<T> big = by_im ? im : re, small = by_im ? re : im;
        const V<T> r = small / big;
        const V<T> d = unfused(small * r) + big;
        store_vec(dst, (odd ? (by_im ? -one : -r) : (by_im ? r : one)) / d);
        if (any_set(~(Mask)(av < inf) | ((v == 0) & (s == 0))))
            for (int k = 0; k < lanes; k += 2) {
                const T x = v[k], y = v[k + 1];
                if ((std::isfinite(x) && std::isfinite(y)) && (x != 0 || y != 0)) continue;
                const std::complex<T> w = ember_complex::reciprocal(std::complex<T>(x, y));
                dst[k] = w.real();
                dst[k + 1] = w.imag();
            }
    };
    int64_t i = 0;
    for (; i + lanes <= 2 * n; i += lanes) step(load(z + i), o + i);
    if (i < 2 * n) {
        T buf[lanes];
        for (int l = 0; l < lanes; ++l) buf[l] = 1;
        memcpy(buf, z + i, (size_t)(2 * n - i) * sizeof(T));
        step(load(buf), buf);
        memcpy(o + i, buf, (size_t)(2 * n - i) * sizeof(T));
    }
}
void recip_c64(const void* in, void* out, int64_t n, int) { complex_recip_loop((const float*)in, (float*)out, n); }
void recip_c128(const void* in, void* out, int64_t n, int) { complex_recip_loop((const double*)in, (double*)out, n); }

#if defined(__FMA__)
// a * b + c rounded once (vfmadd), the building block of the exact products below.
inline __attribute__((always_inline)) V<double> fused(V<double> a, V<double> b, V<double> c) {
#if defined(__AVX512F__)
    return (V<double>)_mm512_fmadd_pd((__m512d)a, (__m512d)b, (__m512d)c);
#else
    return (V<double>)_mm256_fmadd_pd((__m256d)a, (__m256d)b, (__m256d)c);
#endif
}
inline __attribute__((always_inline)) V<double> vsqrt(V<double> x) {
#if defined(__AVX512F__)
    return (V<double>)_mm512_maskz_sqrt_pd(0xFF, (__m512d)x);  // the unmasked form trips -Wmaybe-uninitialized in GCC 12
#else
    return (V<double>)_mm256_sqrt_pd((__m256d)x);
#endif
}

// |z| of complex128 values, correctly rounded in our tests (4e6 random pairs against
// float128): h = sqrt(s) of the rounded sum of squares s, then one Newton step with the
// exact remainder big^2 + small^2 - h^2 (exact products by FMA, an exact two-sum).
// Operands are scaled by 2^-600 or 2^600 where a square would overflow or underflow, and
// where small <= big 2^-54 the result is big + small, as in glibc's hypot. glibc's hypot
// (the reference's std::abs) is not always correctly rounded: the two differ by at most
// 1 ulp, in about 0.6% of random inputs. +inf where a part is infinite, even beside a NaN.
void abs_c128(const void* in, void* out, int64_t n, int) {
    typedef V<int64_t> Mask;
    constexpr int w = W<double>;
    Mask even, odd;
    for (int l = 0; l < w; ++l) {
        even[l] = 2 * l;  // the real parts of two vectors of (re, im) pairs
        odd[l] = 2 * l + 1;
    }
    const V<double> inf = splat(__builtin_inf());
    const Mask magnitude = splat<int64_t>(INT64_MAX);
    auto abs_of = [&](const double* z) {
        const V<double> v0 = load(z), v1 = load(z + w);
        const V<double> a = (V<double>)((Mask)__builtin_shuffle(v0, v1, even) & magnitude);
        const V<double> b = (V<double>)((Mask)__builtin_shuffle(v0, v1, odd) & magnitude);
        const V<double> big = a < b ? b : a, small = a < b ? a : b;
        const auto huge = big > 0x1p511, tiny = small < 0x1p-511;
        const V<double> scale = huge ? splat(0x1p-600) : tiny ? splat(0x1p600) : splat(1.0);
        const V<double> unscale = huge ? splat(0x1p600) : tiny ? splat(0x1p-600) : splat(1.0);
        const V<double> hi = big * scale, lo = small * scale;
        const V<double> p = unfused(hi * hi), q = unfused(lo * lo);
        const V<double> sum = p + q;
        const V<double> rest = fused(hi, hi, -p) + fused(lo, lo, -q) + (q - (sum - p));
        const V<double> h = vsqrt(sum);
        V<double> r = (h + (fused(-h, h, sum) + rest) / (h + h)) * unscale;
        r = small <= big * 0x1p-54 ? big + small : r;
        r = (a != a) | (b != b) ? a + b : r;
        return (a == inf) | (b == inf) ? inf : r;
    };
    const double* x = (const double*)in;
    double* o = (double*)out;
    int64_t i = 0;
    for (; i + w <= n; i += w) store_vec(o + i, abs_of(x + 2 * i));
    if (i < n) {  // the tail through a padded copy, so every element takes the same path
        double z[2 * w] = {}, r[w];
        memcpy(z, x + 2 * i, (size_t)(n - i) * 16);
        store_vec(r, abs_of(z));
        memcpy(o + i, r, (size_t)(n - i) * 8);
    }
}
#endif
