// Reductions: sums (pairwise), products and extremes along lines and across rows,
// for the ISA simd_impl.cpp is being compiled for (included there, inside its anonymous
// namespace, after the vector types and helpers it defines).

template <class T> inline T lane_sum(V<T> v) {
    T s = 0;
    for (int k = 0; k < W<T>; ++k) s += v[k];
    return s;
}

// The lanes of v summed by halving the vector: log2(lanes) dependent adds, where a lane
// at a time took 16 (a (10000, 100) float32 matrix's products waited on them).
template <class T, int B>
inline __attribute__((always_inline)) T halving_lane_sum(typename VT<T, B>::type v) {
    if constexpr (B > (int)sizeof(T)) {
        typedef typename VT<T, B / 2>::type Half;
        Half lo, hi;
        memcpy(&lo, &v, sizeof lo);
        memcpy(&hi, (const char*)&v + sizeof lo, sizeof hi);
        return halving_lane_sum<T, B / 2>(lo + hi);
    } else {
        return v[0];
    }
}

// Sum of float32 values in double lanes: exact enough that blocking only bounds the depth.
using VD = V<double>;
using VFH = typename VT<float, VB / 2>::type;  // as many floats as VD has doubles
inline VD load_f32_as_f64(const float* p) {
#if defined(__AVX512F__)
    __m512d d = _mm512_maskz_cvtps_pd((__mmask8)0xff, _mm256_loadu_ps(p));  // one vcvtps2pd zmm, m256
    VD v;
    memcpy(&v, &d, sizeof v);
    return v;
#elif defined(__AVX__)
    __m256d d = _mm256_cvtps_pd(_mm_loadu_ps(p));
    VD v;
    memcpy(&v, &d, sizeof v);
    return v;
#else
    VFH h;
    memcpy(&h, p, sizeof h);
    return __builtin_convertvector(h, VD);
#endif
}
inline VD load_as_f64(const float* p) { return load_f32_as_f64(p); }
inline VD load_as_f64(const double* p) { return load(p); }
// (u)int64 as doubles (a mean's sum), rounded as the scalar conversion rounds: one
// vcvtqq2pd (vcvtuqq2pd) with AVX-512DQ, lane by lane before it.
inline VD load_as_f64(const int64_t* p) { return __builtin_convertvector(load(p), VD); }
inline VD load_as_f64(const uint64_t* p) { return __builtin_convertvector(load(p), VD); }

// The vector part of a sum of float32, float64 or (u)int64 values in double lanes: four
// accumulators over x[0..i), combined; i is left at the first element not summed (fewer
// than a vector's worth remain).
template <class T>
VD sum_lanes(const T* x, int64_t n, int64_t& i) {
    constexpr int wd = W<double>;
    auto ld = [](const T* p) { return load_as_f64(p); };
    VD a0 = {}, a1 = {}, a2 = {}, a3 = {};
    for (i = 0; i + 4 * wd <= n; i += 4 * wd) {
        prefetch_step<T, 4 * wd>(x + i);
        a0 += ld(x + i);
        a1 += ld(x + i + wd);
        a2 += ld(x + i + 2 * wd);
        a3 += ld(x + i + 3 * wd);
    }
    for (; i + wd <= n; i += wd) a0 += ld(x + i);
    return (a0 + a1) + (a2 + a3);
}
template <class T>
double sum_block(const T* x, int64_t n) {
    int64_t i;
    double s = lane_sum<double>(sum_lanes(x, n, i));
    for (; i < n; ++i) s += (double)x[i];
    return s;
}
// Pairwise over blocks (as NumPy does), so rounding error grows with log(n).
template <class T>
double sum_pairwise(const T* x, int64_t n) {
    constexpr int64_t block = std::is_same_v<T, float> ? 4096 : 1024;
    if (n <= block) return sum_block(x, n);
    int64_t h = (n / 2) & ~(int64_t)63;
    return sum_pairwise(x, h) + sum_pairwise(x + h, n - h);
}
template <class T>
void row_sum_flt(const void* x, int64_t n, void* acc) {
    *(double*)acc += sum_pairwise((const T*)x, n);
}
// sum((x - mean)^2) in double lanes, pairwise over blocks as sum_pairwise.
template <class T>
double squared_deviations_block(const T* x, int64_t n, double mean) {
    constexpr int wd = W<double>;
    auto dev = [m = splat<double>(mean)](const T* p) {
        VD d;
        if constexpr (std::is_same_v<T, float>) d = load_f32_as_f64(p) - m;
        else d = load(p) - m;
        return d * d;
    };
    VD a0 = {}, a1 = {}, a2 = {}, a3 = {};
    int64_t i;
    for (i = 0; i + 4 * wd <= n; i += 4 * wd) {
        prefetch_step<T, 4 * wd>(x + i);
        a0 += dev(x + i);
        a1 += dev(x + i + wd);
        a2 += dev(x + i + 2 * wd);
        a3 += dev(x + i + 3 * wd);
    }
    for (; i + wd <= n; i += wd) a0 += dev(x + i);
    double s = lane_sum<double>((a0 + a1) + (a2 + a3));
    for (; i < n; ++i) {
        const double d = (double)x[i] - mean;
        s += d * d;
    }
    return s;
}
template <class T>
double squared_deviations_pairwise(const T* x, int64_t n, double mean) {
    constexpr int64_t block = std::is_same_v<T, float> ? 4096 : 1024;
    if (n <= block) return squared_deviations_block(x, n, mean);
    const int64_t h = (n / 2) & ~(int64_t)63;
    return squared_deviations_pairwise(x, h, mean) + squared_deviations_pairwise(x + h, n - h, mean);
}
template <class T>
double squared_deviations(const void* x, int64_t n, double mean) {
    return squared_deviations_pairwise((const T*)x, n, mean);
}
// nansum, nanmean: the sum of the values that are not NaN, in double lanes, pairwise over
// blocks as sum_pairwise; *valid gains their count.
template <class T>
double nan_sum_block(const T* x, int64_t n, int64_t* valid) {
    constexpr int wd = W<double>;
    using VL = V<int64_t>;  // the comparison masks of VD: -1 where true
    auto ld = [](const T* p) {
        if constexpr (std::is_same_v<T, float>) return load_f32_as_f64(p);
        else return load(p);
    };
    // sum_lanes's four accumulators and order: where no value is NaN, the sum is sum's.
    VD a0 = {}, a1 = {}, a2 = {}, a3 = {};
    VL c0 = {}, c1 = {};
    int64_t i;
    for (i = 0; i + 4 * wd <= n; i += 4 * wd) {
        prefetch_step<T, 4 * wd>(x + i);
        const VD v0 = ld(x + i), v1 = ld(x + i + wd), v2 = ld(x + i + 2 * wd), v3 = ld(x + i + 3 * wd);
        const VL k0 = v0 == v0, k1 = v1 == v1, k2 = v2 == v2, k3 = v3 == v3;
        a0 += (VD)((VL)v0 & k0);  // NaN lanes add +0
        a1 += (VD)((VL)v1 & k1);
        a2 += (VD)((VL)v2 & k2);
        a3 += (VD)((VL)v3 & k3);
        c0 -= k0 + k1;
        c1 -= k2 + k3;
    }
    for (; i + wd <= n; i += wd) {
        const VD v = ld(x + i);
        const VL k = v == v;
        a0 += (VD)((VL)v & k);
        c0 -= k;
    }
    double s = lane_sum<double>((a0 + a1) + (a2 + a3));
    int64_t count = lane_sum<int64_t>(c0 + c1);
    for (; i < n; ++i)
        if (x[i] == x[i]) s += (double)x[i], ++count;
    *valid += count;
    return s;
}
template <class T>
double nan_sum_pairwise(const T* x, int64_t n, int64_t* valid) {
    constexpr int64_t block = std::is_same_v<T, float> ? 4096 : 1024;
    if (n <= block) return nan_sum_block(x, n, valid);
    const int64_t h = (n / 2) & ~(int64_t)63;
    const double lo = nan_sum_pairwise(x, h, valid);
    return lo + nan_sum_pairwise(x + h, n - h, valid);
}
template <class T>
double nan_sum(const void* x, int64_t n, int64_t* valid) {
    return nan_sum_pairwise((const T*)x, n, valid);
}
// One row into running nanmax (nanmin) values, column by column: a NaN running value (no
// number yet) takes the row's; a NaN in the row never displaces a number, nor does an equal
// value the first.
template <class T, bool Max>
void nan_fold(const void* rowv, void* accv, int64_t n) {
    const T* x = (const T*)rowv;
    T* acc = (T*)accv;
    constexpr int w = W<T>;
    int64_t j = 0;
    for (; j + w <= n; j += w) {
        const V<T> v = load(x + j), a = load(acc + j);
        store_vec(acc + j, ((Max ? v > a : v < a) | (a != a)) ? v : a);
    }
    for (; j < n; ++j) {
        const T v = x[j], a = acc[j];
        acc[j] = ((Max ? v > a : v < a) | (a != a)) ? v : a;
    }
}
// nanmax, nanmin: the largest (smallest) value that is not NaN, in T's own lanes (exact);
// returns whether there was one. A NaN lane fails the comparison and keeps the accumulator.
template <class T, bool Max>
bool nan_extreme(const void* xv, int64_t n, double* result) {
    const T* x = (const T*)xv;
    constexpr int w = W<T>;
    using VM = V<sint_of<T>>;  // comparison masks
    const T start = Max ? -INFINITY : INFINITY;
    auto pick = [](V<T> acc, V<T> v) {
        if constexpr (Max) return v > acc ? v : acc;
        else return v < acc ? v : acc;
    };
    V<T> a0 = splat<T>(start), a1 = a0, a2 = a0, a3 = a0;
    VM seen = {};
    int64_t i;
    for (i = 0; i + 4 * w <= n; i += 4 * w) {
        const V<T> v0 = load(x + i), v1 = load(x + i + w), v2 = load(x + i + 2 * w), v3 = load(x + i + 3 * w);
        a0 = pick(a0, v0), a1 = pick(a1, v1), a2 = pick(a2, v2), a3 = pick(a3, v3);
        seen |= (v0 == v0) | (v1 == v1) | (v2 == v2) | (v3 == v3);
    }
    for (; i + w <= n; i += w) {
        const V<T> v = load(x + i);
        a0 = pick(a0, v);
        seen |= v == v;
    }
    const V<T> a = pick(pick(a0, a1), pick(a2, a3));
    T r = start;
    bool found = false;
    for (int k = 0; k < w; ++k) {
        if (Max ? a[k] > r : a[k] < r) r = a[k];
        found |= seen[k] != 0;
    }
    for (; i < n; ++i) {
        if (Max ? x[i] > r : x[i] < r) r = x[i];
        found |= x[i] == x[i];
    }
    *result = (double)r;
    return found;
}
// Complex sums: the same double lanes over the interleaved parts. Every vector starts at an
// even part (the lane counts are even), so even lanes sum real parts and odd lanes
// imaginary ones; pairwise over blocks as above. acc: two doubles, (real, imaginary).
template <class T>
void complex_sum_block(const T* x, int64_t n, double* part) {
    const int64_t m = 2 * n;
    int64_t i;
    const VD v = sum_lanes(x, m, i);
    double re = 0, im = 0;
    for (int k = 0; k < W<double>; k += 2) {
        re += v[k];
        im += v[k + 1];
    }
    for (; i < m; i += 2) {
        re += (double)x[i];
        im += (double)x[i + 1];
    }
    part[0] = re;
    part[1] = im;
}
template <class T>
void complex_sum_pairwise(const T* x, int64_t n, double* part) {
    constexpr int64_t block = std::is_same_v<T, float> ? 2048 : 512;
    if (n <= block) return complex_sum_block(x, n, part);
    const int64_t h = (n / 2) & ~(int64_t)31;
    double lo[2], hi[2];
    complex_sum_pairwise(x, h, lo);
    complex_sum_pairwise(x + 2 * h, n - h, hi);
    part[0] = lo[0] + hi[0];
    part[1] = lo[1] + hi[1];
}
template <class T>
void row_sum_complex(const void* x, int64_t n, void* acc) {
    double part[2];
    complex_sum_pairwise((const T*)x, n, part);
    ((double*)acc)[0] += part[0];
    ((double*)acc)[1] += part[1];
}
template <class T>
void row_sum_int(const void* in, int64_t n, void* acc) {
    using U = uint_of<T>;
    const U* x = (const U*)in;
    constexpr int w = W<U>;
    V<U> a0 = {}, a1 = {};
    int64_t i = 0;
    for (; i + 2 * w <= n; i += 2 * w) {
        a0 += load(x + i);
        a1 += load(x + i + w);
    }
    for (; i + w <= n; i += w) a0 += load(x + i);
    a0 += a1;
    U s = *(U*)acc;
    for (int k = 0; k < w; ++k) s += a0[k];
    for (; i < n; ++i) s += x[i];
    *(U*)acc = s;
}

// Sums of bools and integers narrower than 64 bits (handed over as they are, without the
// core's widened copy) into (u)int64, wrapping as the reference's. C's conversions
// sign-extend signed elements and zero-extend unsigned ones, as the reference's widening
// does. Each step widens to twice the width only: GCC 12 assembles a conversion to four
// times the width (int8 to int32, say) element by element.
// Bytes: psadbw sums each 8 bytes into a 64-bit lane (one instruction on every x86 ISA);
// int8 is offset by 128 (x ^ 0x80) into the unsigned range and the offsets taken off after.
inline V<uint64_t> byte_sums(V<uint8_t> v) {
    V<uint64_t> r;
#if defined(__AVX512BW__)
    __m512i x;
    memcpy(&x, &v, 64);
    const __m512i h = _mm512_sad_epu8(x, _mm512_setzero_si512());
#elif defined(__AVX2__)
    __m256i x;
    memcpy(&x, &v, 32);
    const __m256i h = _mm256_sad_epu8(x, _mm256_setzero_si256());
#elif defined(__SSE2__)
    __m128i x;
    memcpy(&x, &v, 16);
    const __m128i h = _mm_sad_epu8(x, _mm_setzero_si128());
#else
    V<uint64_t> h = {};
    for (int k = 0; k < W<uint64_t>; ++k)
        for (int b = 0; b < 8; ++b) h[k] += v[8 * k + b];
#endif
    static_assert(sizeof h == sizeof r, "one vector");
    memcpy(&r, &h, sizeof r);
    return r;
}
// Wider elements widen into full registers of SumMid, twice their width: 16-bit ones into
// 32-bit lanes, which take at most 2^15 per add and so fold into the 64-bit total every
// kMidBlock adds, before they could overflow; 32-bit ones into 64-bit lanes (wrapping).
template <class T>
using SumMid = std::conditional_t<sizeof(T) == 4, uint64_t,
                                  std::conditional_t<sizeof(T) == 2, std::conditional_t<std::is_signed_v<T>, int32_t, uint32_t>,
                                                     std::conditional_t<std::is_signed_v<T>, int16_t, uint16_t>>>;
constexpr int64_t kMidBlock = 65536;
template <class T>
inline __attribute__((always_inline)) V<SumMid<T>> load_widened(const T* p) {
    typename VT<T, W<SumMid<T>> * (int)sizeof(T)>::type narrow;
    memcpy(&narrow, p, sizeof narrow);
    return __builtin_convertvector(narrow, V<SumMid<T>>);
}
template <class Mid>
inline uint64_t lane_total(V<Mid> lanes) {
    uint64_t total = 0;
    for (int k = 0; k < W<Mid>; ++k) total += (uint64_t)(int64_t)lanes[k];
    return total;
}
template <class T>
void row_sum_widen(const void* in, int64_t n, void* acc) {
    const T* x = (const T*)in;
    uint64_t total = 0;
    int64_t i = 0;
    if constexpr (sizeof(T) == 1) {
        constexpr int w = W<uint8_t>;
        const V<uint8_t> offset = splat<uint8_t>(std::is_signed_v<T> ? 0x80 : 0);
        V<uint64_t> a0 = {}, a1 = {};
        for (; i + 2 * w <= n; i += 2 * w) {
            a0 += byte_sums(load((const uint8_t*)x + i) ^ offset);
            a1 += byte_sums(load((const uint8_t*)x + i + w) ^ offset);
        }
        total = lane_total<uint64_t>(a0 + a1) - (std::is_signed_v<T> ? 128 * (uint64_t)i : 0);
    } else {
        using Mid = SumMid<T>;
        constexpr int wm = W<Mid>;
        while (i + 4 * wm <= n) {
            V<Mid> a0 = {}, a1 = {}, a2 = {}, a3 = {};
            const int64_t groups = (n - i) / (4 * wm), end = i + (groups < kMidBlock ? groups : kMidBlock) * 4 * wm;
            for (; i < end; i += 4 * wm) {
                a0 += load_widened(x + i);
                a1 += load_widened(x + i + wm);
                a2 += load_widened(x + i + 2 * wm);
                a3 += load_widened(x + i + 3 * wm);
            }
            total += lane_total<Mid>(a0) + lane_total<Mid>(a1) + lane_total<Mid>(a2) + lane_total<Mid>(a3);
        }
    }
    for (; i < n; ++i) total += (uint64_t)(int64_t)x[i];
    *(uint64_t*)acc += total;
}
// acc[0, W<Mid>) += the lanes of s as 64-bit values, widening by halves.
template <class Mid>
inline __attribute__((always_inline)) void add_widened(uint64_t* acc, V<Mid> s) {
    if constexpr (sizeof(Mid) == 8) {
        store_vec(acc, load(acc) + (V<uint64_t>)s);
    } else {
        using Wider = std::conditional_t<sizeof(Mid) == 2, std::conditional_t<std::is_signed_v<Mid>, int32_t, uint32_t>,
                                         std::conditional_t<std::is_signed_v<Mid>, int64_t, uint64_t>>;
        typename VT<Mid, VB / 2>::type half[2];
        memcpy(half, &s, sizeof s);
        add_widened<Wider>(acc, __builtin_convertvector(half[0], V<Wider>));
        add_widened<Wider>(acc + W<Wider>, __builtin_convertvector(half[1], V<Wider>));
    }
}
// Up to kColRows rows of such elements into (u)int64 column accumulators: the rows add up in
// SumMid lanes (8 rows cannot overflow them), which then widen once into the accumulators.
template <class T>
void col_sum_widen(const void* const* xs, int nrows, int64_t n, void* accv) {
    using Mid = SumMid<T>;
    constexpr int wm = W<Mid>;
    static_assert(kColRows * 128 <= 32768, "a column group must not overflow 16-bit lanes");
    const T* x[kColRows];
    for (int r = 0; r < nrows; ++r) x[r] = (const T*)xs[r];
    uint64_t* acc = (uint64_t*)accv;
    int64_t j = 0;
    for (; j + wm <= n; j += wm) {
        V<Mid> s = load_widened(x[0] + j);
        for (int r = 1; r < nrows; ++r) s += load_widened(x[r] + j);
        add_widened<Mid>(acc + j, s);
    }
    for (; j < n; ++j)
        for (int r = 0; r < nrows; ++r) acc[j] += (uint64_t)(int64_t)x[r][j];
}

// Counts of elements != 0 (NaN counts, -0.0 does not: a float compare). A lane compare
// gives 0 or -1 in a lane as wide as the element, so subtracting it counts; a lane holds
// at most 2^(8*size) - 1, so the lanes fold into the total every kBlock vectors. Half
// types ignore their sign bit.
template <class T, bool IgnoreSign>
inline bool is_nonzero(T v) {
    if constexpr (IgnoreSign) return (v & T(0x7fff)) != 0;
    else return v != T(0);
}
template <class T, bool IgnoreSign = false>
void row_count_nonzero(const void* in, int64_t n, void* acc) {
    using US = uint_of<T>;
    const T* x = (const T*)in;
    constexpr int w = W<T>;
    constexpr int64_t kBlock = sizeof(T) == 1 ? 255 : sizeof(T) == 2 ? 65535 : int64_t(1) << 30;
    const V<T> zero = {}, magnitude = splat<T>(T(IgnoreSign ? 0x7fff : 0));
    uint64_t count = 0;
    int64_t i = 0;
    while (i + w <= n) {
        V<US> lanes = {};  // unsigned, so subtracting all ones is a defined +1
        const int64_t vectors = (n - i) / w, end = i + (vectors < kBlock ? vectors : kBlock) * w;
        for (; i < end; i += w) {
            V<T> v = load(x + i);
            if constexpr (IgnoreSign) v &= magnitude;
            lanes -= (V<US>)(v != zero);
        }
        for (int k = 0; k < w; ++k) count += lanes[k];
    }
    for (; i < n; ++i) count += is_nonzero<T, IgnoreSign>(x[i]);
    *(uint64_t*)acc += count;
}

template <class T, bool IsMax>
inline V<T> vpick(V<T> a, V<T> b) {
    if constexpr (IsMax) return vmax<T>(a, b);
    else return vmin<T>(a, b);
}
// The lanes of v folded in lane order by the pick: adjacent lanes, then adjacent pairs, and
// so on. The pick keeps the first of equal values and the last NaN, an associative rule,
// so the tree's answer is the lane-by-lane fold's, in log2(lanes) steps instead of lanes.
// The step is a template parameter so that each partner pattern is a constant: built in a
// loop over the steps, GCC assembled every pattern lane by lane with masked moves, which
// made the fold cost as much as a 100-element row.
template <class T, bool IsMax, int Step = 1>
inline __attribute__((always_inline)) T fold_lanes(V<T> v) {
    if constexpr (Step >= W<T>) {
        return v[0];
    } else {
        V<uint_of<T>> partner;
        for (int i = 0; i < W<T>; ++i) partner[i] = (uint_of<T>)(i ^ Step);
        return fold_lanes<T, IsMax, 2 * Step>(vpick<T, IsMax>(v, __builtin_shuffle(v, partner)));
    }
}
// A row shorter than a vector, in order, as the reference: a greater (smaller) value or any
// NaN replaces (the first of equal values and the last NaN stay). The vector path's setup
// and padded tail took 38 ns for a row of 3 floats. Kept out of line: inlined, it cost the
// long rows of float16 max 20%.
template <class T, bool IsMax>
__attribute__((noinline)) void row_minmax_short(const T* x, int64_t n, void* acc) {
    T r = *(T*)acc;
    for (int64_t k = 0; k < n; ++k) {
        const T v = x[k];
        if (IsMax ? v > r : v < r) r = v;
        if constexpr (is_flt<T>)
            if (v != v) r = v;
    }
    *(T*)acc = r;
}
template <class T, bool IsMax>
void row_minmax(const void* in, int64_t n, void* acc) {
    const T* x = (const T*)in;
    constexpr int w = W<T>;
    if (n < w) return row_minmax_short<T, IsMax>(x, n, acc);
    T init = *(T*)acc;
    V<T> a0 = splat<T>(init), a1 = a0, a2 = a0, a3 = a0;
    int64_t i = 0;
    for (; i + 4 * w <= n; i += 4 * w) {
        a0 = vpick<T, IsMax>(a0, load(x + i));
        a1 = vpick<T, IsMax>(a1, load(x + i + w));
        a2 = vpick<T, IsMax>(a2, load(x + i + 2 * w));
        a3 = vpick<T, IsMax>(a3, load(x + i + 3 * w));
    }
    for (; i + w <= n; i += w) a0 = vpick<T, IsMax>(a0, load(x + i));
    // The tail as the row's last whole vector, which overlaps elements already seen: seeing
    // one twice changes no maximum's value, and which NaN or zero the result is gets looked
    // up below. (A copy into a padded vector stalled on store forwarding and needed a fold
    // of its own: 30% of a 100-element row.)
    if (i < n) a1 = vpick<T, IsMax>(a1, load(x + n - w));
    a0 = vpick<T, IsMax>(vpick<T, IsMax>(a0, a1), vpick<T, IsMax>(a2, a3));
    T r = fold_lanes<T, IsMax>(a0);  // every lane began as init: no separate fold of it
    if constexpr (is_flt<T>) {
        // The lanes see the elements out of order, so which NaN, or which of -0.0 and +0.0,
        // they keep is not the reference's: the last NaN and the first zero are looked up.
        if (r != r) {
            for (int64_t k = n - 1; k >= 0; --k)
                if (x[k] != x[k]) {
                    r = x[k];
                    break;
                }  // none: init was the NaN
        } else if (r == 0) {
            r = init;
            for (int64_t k = 0; k < n && !(r == 0); ++k) r = x[k];
        }
    }
    *(T*)acc = r;
}

// Column kernels. Float sums fold a group of rows into each vector of the accumulator row
// (doubles: twice the input's bytes) and load and store it once per group, not once per
// row: a 2000 x 5000 float32 column sum took 2.4 ms on one thread one row at a time, 1.2
// ms eight rows at a time.
template <class T>  // float, double, or (u)int64 (a mean's sum)
void col_sum_flt(const void* const* xs, int nrows, int64_t n, void* accv) {
    const T* x[kColRows];
    for (int r = 0; r < nrows; ++r) x[r] = (const T*)xs[r];
    double* acc = (double*)accv;
    constexpr int wd = W<double>;
    int64_t j = 0;
    for (; j + wd <= n; j += wd) {
        VD s = load_as_f64(x[0] + j);
        for (int r = 1; r < nrows; ++r) s += load_as_f64(x[r] + j);
        store_vec(acc + j, load(acc + j) + s);
    }
    for (; j < n; ++j) {
        double s = (double)x[0][j];
        for (int r = 1; r < nrows; ++r) s += (double)x[r][j];
        acc[j] += s;
    }
}
// Products of float32/float64 values in double: four vectors of lane products, combined
// in order, then the tail; then into *acc. (The reference multiplies in sequence: the
// results differ in rounding only.)
template <class T>
void row_prod_flt(const void* xv, int64_t n, void* acc) {
    const T* x = (const T*)xv;
    constexpr int wd = W<double>;
    VD p0 = splat(1.0), p1 = p0, p2 = p0, p3 = p0;
    int64_t i = 0;
    for (; i + 4 * wd <= n; i += 4 * wd) {
        p0 *= load_as_f64(x + i);
        p1 *= load_as_f64(x + i + wd);
        p2 *= load_as_f64(x + i + 2 * wd);
        p3 *= load_as_f64(x + i + 3 * wd);
    }
    const VD p = (p0 * p1) * (p2 * p3);
    double r = 1;
    for (int k = 0; k < wd; ++k) r *= p[k];
    for (; i < n; ++i) r *= (double)x[i];
    *(double*)acc *= r;
}
template <class T>
void col_prod_flt(const void* const* xs, int nrows, int64_t n, void* accv) {
    const T* x[kColRows];
    for (int r = 0; r < nrows; ++r) x[r] = (const T*)xs[r];
    double* acc = (double*)accv;
    constexpr int wd = W<double>;
    int64_t j = 0;
    for (; j + wd <= n; j += wd) {
        VD p = load(acc + j);
        for (int r = 0; r < nrows; ++r) p *= load_as_f64(x[r] + j);
        store_vec(acc + j, p);
    }
    for (; j < n; ++j) {
        double p = acc[j];
        for (int r = 0; r < nrows; ++r) p *= (double)x[r][j];
        acc[j] = p;
    }
}
// Products of (u)int64 values, wrapping as the reference's: multiplication modulo 2^64 is
// associative and commutative, so the lanes' grouping gives the reference's bits.
template <class T>
void row_prod_int(const void* xv, int64_t n, void* acc) {
    using U = uint_of<T>;
    const U* x = (const U*)xv;
    constexpr int w = W<U>;
    V<U> p0 = splat<U>(1), p1 = p0, p2 = p0, p3 = p0;
    int64_t i = 0;
    for (; i + 4 * w <= n; i += 4 * w) {
        p0 *= load(x + i);
        p1 *= load(x + i + w);
        p2 *= load(x + i + 2 * w);
        p3 *= load(x + i + 3 * w);
    }
    for (; i + w <= n; i += w) p0 *= load(x + i);
    const V<U> p = (p0 * p1) * (p2 * p3);
    U r = *(U*)acc;
    for (int k = 0; k < w; ++k) r *= p[k];
    for (; i < n; ++i) r *= x[i];
    *(U*)acc = r;
}
// Products of complex64/complex128 values in complex<double> (the reference's accumulator),
// (re, im) pairs in the lanes of double vectors: p * x = p * (xr, xr) + (-1, 1) * (pi, pr)
// * (xi, xi) per pair. The rounding (fused or not, the order) differs from the reference's
// sequence of products.
struct PairLanes {
    typedef sint_of<double> I;
    typename VT<I>::type even, odd, swap;
    VD sign;
    PairLanes() {
        for (int l = 0; l < W<double>; ++l) {
            even[l] = l & ~1;
            odd[l] = l | 1;
            swap[l] = l ^ 1;
            sign[l] = (l & 1) ? 1.0 : -1.0;
        }
    }
    VD times(VD p, VD x) const { return p * __builtin_shuffle(x, even) + sign * (__builtin_shuffle(p, swap) * __builtin_shuffle(x, odd)); }
};
// Four vectors of chains, combined in order; then acc (two doubles) times their lanes in
// order, then times the tail.
template <class T>
void row_prod_complex(const void* xv, int64_t n, void* acc) {
    const T* x = (const T*)xv;
    constexpr int pairs = W<double> / 2;
    const PairLanes lanes;
    VD p0, p1, p2, p3;
    for (int l = 0; l < W<double>; ++l) p0[l] = l & 1 ? 0.0 : 1.0;
    p1 = p2 = p3 = p0;
    int64_t i = 0;
    for (; i + 4 * pairs <= n; i += 4 * pairs) {
        p0 = lanes.times(p0, load_as_f64(x + 2 * i));
        p1 = lanes.times(p1, load_as_f64(x + 2 * (i + pairs)));
        p2 = lanes.times(p2, load_as_f64(x + 2 * (i + 2 * pairs)));
        p3 = lanes.times(p3, load_as_f64(x + 2 * (i + 3 * pairs)));
    }
    const VD p = lanes.times(lanes.times(p0, p1), lanes.times(p2, p3));
    double* a = (double*)acc;
    for (int k = 0; k < pairs; ++k) multiply_pair(a[0], a[1], p[2 * k], p[2 * k + 1]);
    for (; i < n; ++i) multiply_pair(a[0], a[1], (double)x[2 * i], (double)x[2 * i + 1]);
}
template <class T>
void col_prod_complex(const void* const* xs, int nrows, int64_t n, void* accv) {
    const T* x[kColRows];
    for (int r = 0; r < nrows; ++r) x[r] = (const T*)xs[r];
    double* acc = (double*)accv;
    constexpr int pairs = W<double> / 2;
    const PairLanes lanes;
    int64_t j = 0;
    for (; j + pairs <= n; j += pairs) {
        VD p = load(acc + 2 * j);
        for (int r = 0; r < nrows; ++r) p = lanes.times(p, load_as_f64(x[r] + 2 * j));
        store_vec(acc + 2 * j, p);
    }
    for (; j < n; ++j)
        for (int r = 0; r < nrows; ++r) multiply_pair(acc[2 * j], acc[2 * j + 1], (double)x[r][2 * j], (double)x[r][2 * j + 1]);
}
// The other column kernels take one row at a time: Row(x, n, acc) for each row in order.
template <void (*Row)(const void*, int64_t, void*)>
void col_each_row(const void* const* xs, int nrows, int64_t n, void* acc) {
    for (int r = 0; r < nrows; ++r) Row(xs[r], n, acc);
}
// One row of (u)int64 values into the column accumulators: sums, or (Multiply) products,
// both wrapping.
template <class T, bool Multiply = false>
void col_int_row(const void* in, int64_t n, void* accv) {
    using U = uint_of<T>;
    const U* x = (const U*)in;
    U* acc = (U*)accv;
    constexpr int w = W<U>;
    int64_t j = 0;
    for (; j + w <= n; j += w) store_vec(acc + j, Multiply ? load(acc + j) * load(x + j) : load(acc + j) + load(x + j));
    for (; j < n; ++j) acc[j] = Multiply ? acc[j] * x[j] : acc[j] + x[j];
}
template <class T, bool IgnoreSign = false>
void col_count_nonzero(const void* const* xs, int nrows, int64_t n, void* accv) {
    uint64_t* acc = (uint64_t*)accv;
    for (int r = 0; r < nrows; ++r) {
        const T* x = (const T*)xs[r];
        for (int64_t j = 0; j < n; ++j) acc[j] += is_nonzero<T, IgnoreSign>(x[j]);
    }
}
// Complex count_nonzero: an element counts where either part is not +-0 (the sign bits
// shifted out). P: the bits of one part, uint32_t (complex64) or uint64_t (complex128).
template <class P>
inline bool complex_nonzero(const P* z) {
    return (P)((z[0] | z[1]) << 1) != 0;
}
template <class P>
void row_count_nonzero_complex(const void* in, int64_t n, void* acc) {
    const P* x = (const P*)in;
    uint64_t count = 0;
    for (int64_t i = 0; i < n; ++i) count += complex_nonzero(x + 2 * i);
    *(uint64_t*)acc += count;
}
template <class P>
void col_count_nonzero_complex(const void* const* xs, int nrows, int64_t n, void* accv) {
    uint64_t* acc = (uint64_t*)accv;
    for (int r = 0; r < nrows; ++r) {
        const P* x = (const P*)xs[r];
        for (int64_t j = 0; j < n; ++j) acc[j] += complex_nonzero(x + 2 * j);
    }
}
// Rows into the column picks, in row order, a vector of columns through all of the rows at
// a time. The last columns (fewer than a vector) go as the last full vector again: a pick is
// idempotent (pick(pick(a, x), x) is pick(a, x), NaNs and equal values included), so the
// columns already done keep their values. Row by row, with those columns one by one, the
// all(axis=0) of a (1000, 1000) bool took 51-56 us on either one thread or two (NumPy 46).
template <class T, bool IsMax>
void col_minmax(const void* const* xs, int nrows, int64_t n, void* accv) {
    T* acc = (T*)accv;
    constexpr int w = W<T>;
    auto columns = [&](int64_t j) {
        V<T> v = load(acc + j);
        for (int r = 0; r < nrows; ++r) v = vpick<T, IsMax>(v, load((const T*)xs[r] + j));
        store_vec(acc + j, v);
    };
    int64_t j = 0;
    for (; j + w <= n; j += w) columns(j);
    if (j < n && n >= w) return columns(n - w);
    for (; j < n; ++j)
        for (int r = 0; r < nrows; ++r) acc[j] = vpick<T, IsMax>(splat<T>(acc[j]), splat<T>(((const T*)xs[r])[j]))[0];
}
