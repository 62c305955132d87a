// Binary op functors and their loops: arithmetic in the operands' type, comparisons,
// integer division and remainder,
// for the ISA simd_impl.cpp is being compiled for (included there, inside its anonymous
// namespace, after the vector types and helpers it defines).

template <class T> inline V<T> wrap_add(V<T> a, V<T> b) {
    if constexpr (is_flt<T>) return a + b;
    else return (V<T>)((V<uint_of<T>>)a + (V<uint_of<T>>)b);
}
template <class T> inline V<T> wrap_sub(V<T> a, V<T> b) {
    if constexpr (is_flt<T>) return a - b;
    else return (V<T>)((V<uint_of<T>>)a - (V<uint_of<T>>)b);
}
template <class T> inline V<T> wrap_mul(V<T> a, V<T> b) {
    if constexpr (is_flt<T>) return a * b;
    else return (V<T>)((V<uint_of<T>>)a * (V<uint_of<T>>)b);
}
// NaN-propagating maximum/minimum with the reference's choice among equal values.
template <class T> inline V<T> vmax(V<T> a, V<T> b) {
    if constexpr (is_flt<T>) return ((a < b) | (b != b)) ? b : a;
    else return a < b ? b : a;
}
template <class T> inline V<T> vmin(V<T> a, V<T> b) {
    if constexpr (is_flt<T>) return ((b < a) | (b != b)) ? b : a;
    else return b < a ? b : a;
}
// maximum/minimum: any NaN operand gives the reference's NaN (the type's default quiet NaN,
// positive), not the operand's own sign and payload as vmax/vmin (the reductions') keep it.
template <class T> inline V<T> max_or_nan(V<T> a, V<T> b) {
    if constexpr (is_flt<T>) return ((a != a) | (b != b)) ? splat<T>(std::numeric_limits<T>::quiet_NaN()) : (a < b ? b : a);
    else return vmax<T>(a, b);
}
template <class T> inline V<T> min_or_nan(V<T> a, V<T> b) {
    if constexpr (is_flt<T>) return ((a != a) | (b != b)) ? splat<T>(std::numeric_limits<T>::quiet_NaN()) : (b < a ? b : a);
    else return vmin<T>(a, b);
}
// Shifts with the reference's rule for counts outside [0, bits): 0 to the left; to the
// right 0, or -1 for a negative signed value.
template <class T> inline V<T> vshl(V<T> a, V<T> b) {
    constexpr T bits = T(sizeof(T) * 8);
    using U = uint_of<T>;
    const V<T> shifted = (V<T>)((V<U>)a << (V<U>)(b & (T)(bits - 1)));
    if constexpr (std::is_signed_v<T>) return ((b < 0) | (b >= bits)) ? (V<T>){} : shifted;
    else return b >= bits ? (V<T>){} : shifted;
}
template <class T> inline V<T> vshr(V<T> a, V<T> b) {
    constexpr T bits = T(sizeof(T) * 8);
    const V<T> shifted = a >> (b & (T)(bits - 1));
    if constexpr (std::is_signed_v<T>) return ((b < 0) | (b >= bits)) ? (a < 0 ? (V<T>){} - 1 : (V<T>){}) : shifted;
    else return b >= bits ? (V<T>){} : shifted;
}
// Integer quotients rounded toward minus infinity and their remainders, as the reference's:
// a zero divisor gives 0 for both, -1 gives -a (wrapped) and 0. The other lanes' truncated
// quotient comes from floating point, exactly where |a| < 2^24 (float) or 2^53 (double): the
// rounded quotient cannot reach the next integer, 1/|b| away. float for 8- and 16-bit types,
// double for 32-bit ones, and for 64-bit ones when every lane is under 2^53 (else lane by
// lane). 8- and 16-bit lanes widen to int32 one doubling at a time and narrow back the same
// way: GCC lowers a direct int8 <-> float conversion of a whole vector lane by lane (ten
// times slower).
// Below AVX-512DQ x86 has no vector conversion between int64 and double (GCC converts lane by
// lane). Integers under 2^51 in magnitude go through the bits of 2^52 + 2^51 instead: its ulp
// is 1, so adding such an integer to it is exact and lands in its low bits, and adding it to
// a double under 2^51 rounds that to the nearest integer. The division below and the one by
// a single divisor (floor_div_or_rem_by) use these where every lane is small enough.
#if defined(__AVX512DQ__)
template <class T> constexpr bool kIntDoubleByBits = false;
#else
template <class T> constexpr bool kIntDoubleByBits = sizeof(T) == 8;
#endif
constexpr double kRoundingMagic = 0x1.8p52;
constexpr uint64_t kRoundingMagicBits = 0x4338000000000000;
template <class L> inline V<double> small_int_to_double(V<L> x) { return (V<double>)((V<uint64_t>)x + kRoundingMagicBits) - kRoundingMagic; }
template <class L> inline V<L> nearest_small_int(V<double> x) { return (V<L>)((V<uint64_t>)(x + kRoundingMagic) - kRoundingMagicBits); }
// The quotient rounded to nearest, stepped toward zero where that went away from it.
template <class T> inline V<T> truncated_quotient_by_bits(V<T> a, V<T> b) {
    using VD = V<double>;
    using VU = V<uint64_t>;
    constexpr uint64_t sign = 0x8000000000000000;
    const VD q = small_int_to_double<T>(a) / small_int_to_double<T>(b);
    const VD nearest = (q + kRoundingMagic) - kRoundingMagic;
    const VD toward_q = (VD)(((VU)q & sign) | 0x3ff0000000000000ull);  // +-1 with q's sign
    const auto away = ((VU)nearest & ~sign) > ((VU)q & ~sign);           // |nearest| > |q|
    return nearest_small_int<T>(away ? nearest - toward_q : nearest);
}
template <class T> inline V<T> truncated_quotient(V<T> a, V<T> b) {
    if constexpr (sizeof(T) == 8) {
        using VD = typename VT<double>::type;
        if constexpr (kIntDoubleByBits<T>) {
            const T small = T(1) << 51;
            auto large = a >= small || b >= small;
            if constexpr (std::is_signed_v<T>) large = large || a <= -small || b <= -small;
            if (!any_set(large)) return truncated_quotient_by_bits<T>(a, b);
        }
        const T limit = T(1) << 53;
        auto large = a >= limit || b >= limit;
        if constexpr (std::is_signed_v<T>) large = large || a <= -limit || b <= -limit;
        bool any_large = false;
        for (int l = 0; l < W<T>; ++l) any_large |= large[l] != 0;
        if (!any_large) return __builtin_convertvector(__builtin_convertvector(a, VD) / __builtin_convertvector(b, VD), V<T>);
        V<T> q;
        for (int l = 0; l < W<T>; ++l) q[l] = a[l] / b[l];
        return q;
    } else if constexpr (sizeof(T) == 4) {
        using Wide = typename VT<double, 2 * VB>::type;
        return __builtin_convertvector(__builtin_convertvector(a, Wide) / __builtin_convertvector(b, Wide), V<T>);
    } else {
        using H = std::conditional_t<std::is_signed_v<T>, int16_t, uint16_t>;
        using VH = typename VT<H, 2 * W<T>>::type;
        using VI = typename VT<int32_t, 4 * W<T>>::type;
        using VF = typename VT<float, 4 * W<T>>::type;
        VI ai, bi;
        if constexpr (sizeof(T) == 1) {
            ai = __builtin_convertvector(__builtin_convertvector(a, VH), VI);
            bi = __builtin_convertvector(__builtin_convertvector(b, VH), VI);
        } else {
            ai = __builtin_convertvector(a, VI);
            bi = __builtin_convertvector(b, VI);
        }
        const VI q = __builtin_convertvector(__builtin_convertvector(ai, VF) / __builtin_convertvector(bi, VF), VI);
        if constexpr (sizeof(T) == 1) return __builtin_convertvector(__builtin_convertvector(q, VH), V<T>);
        else return __builtin_convertvector(q, V<T>);
    }
}
template <class T, bool Remainder> inline V<T> floor_div_or_rem(V<T> a, V<T> b) {
    using U = uint_of<T>;
    const V<T> zero = {}, one = zero + 1;
    V<T> safe = b == zero ? one : b;  // divisors 0 (and -1) are answered below
    if constexpr (std::is_signed_v<T>) safe = b == zero - 1 ? one : safe;
    V<T> q = truncated_quotient<T>(a, safe);
    V<T> r = (V<T>)((V<U>)a - (V<U>)q * (V<U>)safe);  // |q * safe| <= |a|
    if constexpr (std::is_signed_v<T>) {
        const auto across = (r != zero) & ((r < zero) != (safe < zero));  // the quotient was rounded up
        q = across ? (V<T>)((V<U>)q - 1) : q;  // unsigned: both sides are computed in every lane
        r = across ? (V<T>)((V<U>)r + (V<U>)safe) : r;
        q = b == zero - 1 ? (V<T>)((V<U>)zero - (V<U>)a) : q;
        r = b == zero - 1 ? zero : r;
    }
    return b == zero ? zero : Remainder ? r : q;
}
// Integer powers as the reference's: by squaring with wrapping products, as many steps as
// the widest exponent in the vector has bits; a negative exponent gives 1 for a base of 1,
// +-1 for -1 (by the exponent's parity) and 0 for any other base.
template <class T> inline V<T> pow_int(V<T> a, V<T> b) {
    using U = uint_of<T>;
    const V<T> zero = {}, one = zero + 1;
    V<U> e = (V<U>)b, base = (V<U>)a, r = (V<U>)one;
    if constexpr (std::is_signed_v<T>) e = b < zero ? (V<U>)zero : e;
    U steps = 0;
    for (int l = 0; l < W<T>; ++l) steps |= e[l];
    for (; steps; steps >>= 1) {
        r = (e & 1) != 0 ? r * base : r;
        base *= base;
        e >>= 1;
    }
    if constexpr (std::is_signed_v<T>) {
        const V<T> odd = (b & 1) != 0 ? zero - 1 : one;
        return b < zero ? (a == one ? one : a == zero - 1 ? odd : zero) : (V<T>)r;
    }
    return (V<T>)r;
}
template <class T> inline V<uint_of<T>> sign_bit() { return splat<uint_of<T>>((uint_of<T>)1 << (8 * sizeof(T) - 1)); }

#define BIN_ARITH(Name, EXPR)                                     \
    struct Name {                                                 \
        static constexpr bool boolean = false;                    \
        static constexpr bool narrow_scalar = false;              \
        template <class T> static inline V<T> f(V<T> a, V<T> b) { return EXPR; } \
    };
// Comparisons have only a scalar form (s): their loops are plain loops the compiler
// vectorises, which narrow four vectors of masks to bytes with packs; narrowing one vector
// at a time (__builtin_convertvector to bytes) went through general registers lane by lane
// on AVX2 (less of 1e6 float32: 343 against 113 us).
#define BIN_CMP(Name, EXPR)                                       \
    struct Name {                                                 \
        static constexpr bool boolean = true;                     \
        static constexpr bool narrow_scalar = false;              \
        template <class T> static inline uint8_t s(T a, T b) { return (EXPR) ? 1 : 0; } \
    };
BIN_ARITH(OpAdd, wrap_add<T>(a, b))
BIN_ARITH(OpSub, wrap_sub<T>(a, b))
BIN_ARITH(OpMul, wrap_mul<T>(a, b))
BIN_ARITH(OpDiv, a / b)
BIN_ARITH(OpMax, max_or_nan<T>(a, b))
BIN_ARITH(OpMin, min_or_nan<T>(a, b))
BIN_ARITH(OpAnd, a & b)
BIN_ARITH(OpOr, a | b)
BIN_ARITH(OpXor, a ^ b)
// Shifts of 8- and 16-bit lanes (narrow_scalar): x86 has variable shifts of 32- and 64-bit
// lanes only (16-bit ones from AVX-512BW), and GCC lowers vshl/vshr of narrower vectors lane
// by lane; the plain loops over scalars (s) it vectorises through 32-bit lanes itself
// (1e6 lanes on two threads, Zen 3: int8 << int8 627 -> 130 us, int16 740 -> 88, uint16
// 929 -> 100; NumPy's int8 and int16 shifts 268 and 187 us).
// A count outside [0, bits) shifts everything out: 0, or -1 for a right shift of a negative.
template <class T> inline bool shift_count_outside(T b) {
    constexpr int bits = sizeof(T) * 8;
    return std::is_signed_v<T> ? (b < 0 || b >= bits) : (b >= bits);
}
template <class T> inline T shl_scalar(T a, T b) {
    return shift_count_outside(b) ? T(0) : (T)((uint32_t)(uint_of<T>)a << (b & (sizeof(T) * 8 - 1)));
}
template <class T> inline T shr_scalar(T a, T b) {
    using Wide = std::conditional_t<std::is_signed_v<T>, int32_t, uint32_t>;  // arithmetic where signed
    return shift_count_outside(b) ? (a < 0 ? T(-1) : T(0)) : (T)((Wide)a >> (b & (sizeof(T) * 8 - 1)));
}
#define BIN_SHIFT(Name, VECTOR, SCALAR)                           \
    struct Name {                                                 \
        static constexpr bool boolean = false;                    \
        static constexpr bool narrow_scalar = true;               \
        template <class T> static inline V<T> f(V<T> a, V<T> b) { return VECTOR<T>(a, b); } \
        template <class T> static inline T s(T a, T b) { return SCALAR<T>(a, b); } \
    };
BIN_SHIFT(OpShl, vshl, shl_scalar)
BIN_SHIFT(OpShr, vshr, shr_scalar)
#undef BIN_SHIFT
BIN_ARITH(OpFloorDiv, (floor_div_or_rem<T, false>(a, b)))
BIN_ARITH(OpRem, (floor_div_or_rem<T, true>(a, b)))
BIN_ARITH(OpPow, pow_int<T>(a, b))
BIN_ARITH(OpLeakyRelu, (a > splat<T>(0) ? a : a * b))
BIN_ARITH(OpCopysign, (V<T>)(((V<uint_of<T>>)a & ~sign_bit<T>()) | ((V<uint_of<T>>)b & sign_bit<T>())))
BIN_CMP(OpEq, a == b)
BIN_CMP(OpNe, a != b)
BIN_CMP(OpLt, a < b)
BIN_CMP(OpLe, a <= b)
BIN_CMP(OpGt, a > b)
BIN_CMP(OpGe, a >= b)
#undef BIN_ARITH
#undef BIN_CMP

// The arithmetic ops' loop over vectors (MODE bit 1: a is one scalar, bit 2: b is; NT:
// streaming stores, fenced where `fence`).
template <class T, class Op, int MODE, bool NT>
void bin_vectors(const T* __restrict a, const T* __restrict b, T* __restrict o, int64_t n, bool fence) {
    using R = T;
    constexpr int w = W<T>;
    V<T> sa = {}, sb = {};
    if (MODE & 1) sa = splat<T>(*a);
    if (MODE & 2) sb = splat<T>(*b);
    int64_t i = 0;
    if (NT)  // reach a vector-aligned output address lane by lane
        for (; i < n && ((uintptr_t)(o + i) % VB) != 0; ++i) {
            V<T> x = splat<T>((MODE & 1) ? *a : a[i]), y = splat<T>((MODE & 2) ? *b : b[i]);
            o[i] = (R)Op::template f<T>(x, y)[0];
        }
    // Both operands' lines asked for ahead (prefetch_step): float32 logaddexp of 1e7 on one
    // thread 0.62-0.71 -> 0.52-0.53 ns an element; add timed the same.
    for (; i + 4 * w <= n; i += 4 * w) {
        if (!(MODE & 1)) prefetch_step<T, 4 * w>(a + i);
        if (!(MODE & 2)) prefetch_step<T, 4 * w>(b + i);
        V<T> x0 = (MODE & 1) ? sa : load(a + i), y0 = (MODE & 2) ? sb : load(b + i);
        V<T> x1 = (MODE & 1) ? sa : load(a + i + w), y1 = (MODE & 2) ? sb : load(b + i + w);
        V<T> x2 = (MODE & 1) ? sa : load(a + i + 2 * w), y2 = (MODE & 2) ? sb : load(b + i + 2 * w);
        V<T> x3 = (MODE & 1) ? sa : load(a + i + 3 * w), y3 = (MODE & 2) ? sb : load(b + i + 3 * w);
        if (NT) {
            stream_vec(o + i, Op::template f<T>(x0, y0));
            stream_vec(o + i + w, Op::template f<T>(x1, y1));
            stream_vec(o + i + 2 * w, Op::template f<T>(x2, y2));
            stream_vec(o + i + 3 * w, Op::template f<T>(x3, y3));
        } else {
            store_vec(o + i, Op::template f<T>(x0, y0));
            store_vec(o + i + w, Op::template f<T>(x1, y1));
            store_vec(o + i + 2 * w, Op::template f<T>(x2, y2));
            store_vec(o + i + 3 * w, Op::template f<T>(x3, y3));
        }
    }
    for (; i + w <= n; i += w) {
        V<T> x = (MODE & 1) ? sa : load(a + i), y = (MODE & 2) ? sb : load(b + i);
        store_vec(o + i, Op::template f<T>(x, y));
    }
    if (NT && fence) stream_fence();
    if (i < n && n - i <= 2) {  // short tails (and 1-element ops): lane by lane
        for (; i < n; ++i) {
            V<T> x = splat<T>((MODE & 1) ? *a : a[i]), y = splat<T>((MODE & 2) ? *b : b[i]);
            o[i] = (R)Op::template f<T>(x, y)[0];
        }
    }
    if constexpr (w > 2) {  // (with w <= 2 the loop above has finished every tail)
    if (i < n) {
        const size_t bytes = (size_t)(n - i) * sizeof(T);
        const V<T> x = (MODE & 1) ? sa : load_partial(a + i, bytes), y = (MODE & 2) ? sb : load_partial(b + i, bytes);
        store_partial(o + i, Op::template f<T>(x, y), (size_t)(n - i) * sizeof(R));
    }
    }
}

template <class T, class Op, int MODE, bool NT>
void bin_loop(const T* __restrict a, const T* __restrict b, void* __restrict out, int64_t n, bool fence) {
    using R = std::conditional_t<Op::boolean, uint8_t, T>;
    R* o = (R*)out;
    if constexpr (Op::boolean || (Op::narrow_scalar && sizeof(T) <= 2)) {
        if (n <= 0) return;
        const T a0 = *a, b0 = *b;
        for (int64_t i = 0; i < n; ++i) o[i] = Op::template s<T>((MODE & 1) ? a0 : a[i], (MODE & 2) ? b0 : b[i]);
    } else {
        bin_vectors<T, Op, MODE, NT>(a, b, o, n, fence);
    }
}

template <class T, class Op>
void bin_fn(const void* a, const void* b, void* out, int64_t n, int mode) {
    const T* x = (const T*)a;
    const T* y = (const T*)b;
    if ((mode & kStream) && !Op::boolean) {
        const bool fence = !(mode & kCallerFences);
        switch (mode & 3) {
            case 0: bin_loop<T, Op, 0, true>(x, y, out, n, fence); return;
            case 1: bin_loop<T, Op, 1, true>(x, y, out, n, fence); return;
            case 2: bin_loop<T, Op, 2, true>(x, y, out, n, fence); return;
            default: bin_loop<T, Op, 3, true>(x, y, out, n, fence); return;
        }
    }
    switch (mode & 3) {
        case 0: bin_loop<T, Op, 0, false>(x, y, out, n, false); break;
        case 1: bin_loop<T, Op, 1, false>(x, y, out, n, false); break;
        case 2: bin_loop<T, Op, 2, false>(x, y, out, n, false); break;
        default: bin_loop<T, Op, 3, false>(x, y, out, n, false); break;
    }
}

// Integer floor_divide / remainder by one divisor d (b broadcast, mode 2): a multiplication
// by r, 1/d rounded and then moved one place away from zero, instead of a division per lane.
// (8-bit lanes: floor_div_or_rem_by_small, below.) The truncated quotient of wider lanes is
// trunc(a * r) in float (16-bit lanes) or double (32- and 64-bit),
// exact while |a| <= 2^(P-3) (P = 24 or 53 significand bits): |r| exceeds |1/d| by at most
// 3 * 2^-P of it and the product rounds by 2^-P more, so a * r stays under the next integer
// (a fractional quotient is at least 1/|d| below it), and an integral quotient, which the
// product cannot round below, comes out exact. 64-bit lanes at or above 2^50 divide.
// d = 0 and d = -1 (whose negation wraps) are answered before the loop.
template <class T> using DivLane = std::conditional_t<sizeof(T) <= 2, int32_t, T>;
template <class T> using DivFloat = std::conditional_t<sizeof(T) <= 2, float, double>;
template <class T> using VDivLane = typename VT<DivLane<T>, W<T> * (int)sizeof(DivLane<T>)>::type;
template <class T> using VDivFloat = typename VT<DivFloat<T>, W<T> * (int)sizeof(DivFloat<T>)>::type;
template <class T> inline DivFloat<T> reciprocal_away_from_zero(T d) {
    using F = DivFloat<T>;
    F r = F(1) / F(d);
    uint_of<F> bits;
    memcpy(&bits, &r, sizeof bits);
    ++bits;  // one place larger in magnitude, whatever the sign
    memcpy(&r, &bits, sizeof bits);
    return r;
}
// The high halves of 16-bit unsigned products (one instruction on every x86 ISA).
inline V<uint16_t> mulhi_u16(V<uint16_t> a, V<uint16_t> b) {
    V<uint16_t> r;
#if defined(__AVX512BW__)
    __m512i x, y;
    memcpy(&x, &a, 64), memcpy(&y, &b, 64);
    const __m512i h = _mm512_mulhi_epu16(x, y);
#elif defined(__AVX2__)
    __m256i x, y;
    memcpy(&x, &a, 32), memcpy(&y, &b, 32);
    const __m256i h = _mm256_mulhi_epu16(x, y);
#elif defined(__SSE2__)
    __m128i x, y;
    memcpy(&x, &a, 16), memcpy(&y, &b, 16);
    const __m128i h = _mm_mulhi_epu16(x, y);
#else
    using Wide = typename VT<uint32_t, 2 * VB>::type;
    const auto h = __builtin_convertvector((__builtin_convertvector(a, Wide) * __builtin_convertvector(b, Wide)) >> 16, V<uint16_t>);
#endif
    static_assert(sizeof h == sizeof r, "one vector");
    memcpy(&r, &h, sizeof r);
    return r;
}
// 8-bit lanes by d, |d| >= 2: |quotient| = mulhi(|a|, m), m = ceil(2^16 / |d|) (at most 2^15),
// in the 16-bit lanes the bytes already sit in (the even bytes masked, the odd ones shifted
// down), then floored in 8-bit lanes. The product exceeds |a| / |d| by under |a| / 2^16 <
// 1/256 <= 1/|d|, which cannot carry a quotient to the next integer: a fractional one is at
// least 1/|d| below it. Widened to two 16-bit vectors and narrowed back, as before, int8 //
// 7 of 1e6 took 109 us on Zen 3's AVX2 (NumPy 84); in place, 47.
template <class T, bool Remainder>
inline V<T> floor_div_or_rem_by_small(V<T> a, T d, uint16_t m) {
    using VB8 = V<uint8_t>;
    using VB16 = V<uint16_t>;
    const V<T> zero = {};
    VB8 magnitude = (VB8)a;
    if constexpr (std::is_signed_v<T>) magnitude = a < zero ? (VB8){} - (VB8)a : (VB8)a;  // -128 gives 128
    const uint16_t dm = (uint16_t)(d < 0 ? 0 - (int)d : (int)d);
    const VB16 words = (VB16)magnitude;
    const VB16 even = words & (uint16_t)0xFF, odd = words >> 8;
    const VB16 q_even = mulhi_u16(even, splat<uint16_t>(m)), q_odd = mulhi_u16(odd, splat<uint16_t>(m));
    const VB16 r_even = even - q_even * dm, r_odd = odd - q_odd * dm;  // both below |d|
    const V<T> q = (V<T>)(q_even | (q_odd << 8)), r = (V<T>)(r_even | (r_odd << 8));
    if constexpr (!std::is_signed_v<T>) {
        return Remainder ? r : q;
    } else {
        const V<T> across = (V<T>)((a ^ d) < zero);  // the signs differ: the floor is below
        const V<T> inexact = (V<T>)(r != zero);
        if constexpr (Remainder) {  // Python's remainder has d's sign: d - r across, else r signed as d
            const V<T> r_signed = d > 0 ? r : zero - r;
            return across ? (inexact & (splat<T>(d) - r_signed)) : r_signed;
        } else {
            return across ? zero - (q - inexact) : q;  // -(|q| + 1) where inexact
        }
    }
}
// 16-bit lanes by d, |d| >= 2: |quotient| of |a| (at most 2^15) by |d| as Granlund and
// Montgomery's unsigned division by an invariant (1994, figure 4.1), t = mulhi(|a|, m),
// q = (t + ((|a| - t) >> s1)) >> s2, exact for every 16-bit dividend, then signed and floored
// as the 8-bit lanes are. In 16-bit lanes throughout: through float32 and 32-bit lanes (the
// wider types' way) int16 // 7 took 1.8x NumPy's time.
struct Divisor16 {
    uint16_t magnitude, m;
    int s1, s2;
};
inline Divisor16 divisor16(int32_t d) {
    const uint32_t magnitude = d < 0 ? 0u - (uint32_t)d : (uint32_t)d;  // 2 .. 65535
    int l = 0;
    while ((1u << l) < magnitude) ++l;  // ceil(log2 |d|)
    const uint32_t m = (uint32_t)((((uint64_t)1 << 16) * (((uint64_t)1 << l) - magnitude)) / magnitude + 1);
    return {(uint16_t)magnitude, (uint16_t)m, l < 1 ? l : 1, l - 1 > 0 ? l - 1 : 0};
}
template <class T, bool Remainder>
inline V<T> floor_div_or_rem_by_16(V<T> a, T d, Divisor16 v) {
    using VU = V<uint16_t>;
    const V<T> zero = {};
    VU magnitude = (VU)a;
    if constexpr (std::is_signed_v<T>) magnitude = a < zero ? (VU){} - (VU)a : (VU)a;  // -2^15 gives 2^15
    const VU t = mulhi_u16(magnitude, splat<uint16_t>(v.m));
    V<T> q = (V<T>)((t + ((magnitude - t) >> v.s1)) >> v.s2);
    // In unsigned lanes wherever a select computes both sides in every lane: the side not
    // taken may overflow (rem + d where rem has d's sign).
    if constexpr (std::is_signed_v<T>) q = (a ^ d) < zero ? (V<T>)((VU){} - (VU)q) : q;
    V<T> rem = (V<T>)((VU)a - (VU)q * (uint16_t)d);  // |q d| <= |a|
    if constexpr (std::is_signed_v<T>) {
        const auto across = (rem != zero) & ((rem ^ d) < zero);  // rounded up: q - 1, rem + d
        q = across ? (V<T>)((VU)q - 1) : q;
        rem = across ? (V<T>)((VU)rem + (uint16_t)d) : rem;
    }
    return Remainder ? rem : q;
}
// 64-bit lanes below AVX-512DQ convert through the bits (kIntDoubleByBits, above): the
// quotient comes out rounded to nearest, the floor or the ceiling of the true one (the
// product errs by under 1/4 below 2^50), and the rounding down below corrects the ceiling
// for signed and unsigned lanes.
template <class T, bool Remainder>
inline V<T> floor_div_or_rem_by(V<T> a, T d, DivFloat<T> r) {
    if constexpr (sizeof(T) == 8) {
        const T limit = T(1) << 50;
        auto large = a >= limit;
        if constexpr (std::is_signed_v<T>) large = large || a <= -limit;
        bool any_large = false;
        for (int l = 0; l < W<T>; ++l) any_large |= large[l] != 0;
        if (any_large) return floor_div_or_rem<T, Remainder>(a, splat<T>(d));
    }
    using L = DivLane<T>;
    using U = uint_of<L>;
    // 8-bit lanes widen (and narrow) through 16 bits: GCC converts int8 <-> int32 lane by lane.
    using H = std::conditional_t<std::is_signed_v<T>, int16_t, uint16_t>;
    using VH = typename VT<H, 2 * W<T>>::type;
    VDivLane<T> x, q;
    if constexpr (sizeof(T) == 1) x = __builtin_convertvector(__builtin_convertvector(a, VH), VDivLane<T>);
    else x = __builtin_convertvector(a, VDivLane<T>);
    if constexpr (kIntDoubleByBits<T>) q = nearest_small_int<T>(small_int_to_double<T>(x) * r);
    else q = __builtin_convertvector(__builtin_convertvector(x, VDivFloat<T>) * r, VDivLane<T>);
    // The remainder and the rounding down in vectors of the machine's width: GCC compares
    // wider vectors lane by lane.
    constexpr int parts = (int)(sizeof(VDivLane<T>) / sizeof(V<L>));
    V<L> xs[parts], qs[parts], rs[parts];
    memcpy(xs, &x, sizeof xs);
    memcpy(qs, &q, sizeof qs);
    for (int p = 0; p < parts; ++p) {
        rs[p] = (V<L>)((V<U>)xs[p] - (V<U>)qs[p] * (U)d);
        if constexpr (std::is_signed_v<T>) {
            // Where truncation rounded the quotient up (rem nonzero, its sign not d's).
            const V<L> zero = {};
            const auto across = (rs[p] != zero) & ((rs[p] ^ (L)d) < zero);
            qs[p] = across ? (V<L>)((V<U>)qs[p] - 1) : qs[p];  // unsigned: both sides are computed in every lane
            rs[p] = across ? (V<L>)((V<U>)rs[p] + (U)d) : rs[p];
        } else if constexpr (kIntDoubleByBits<T>) {
            // Rounded up: the remainder wrapped below zero (|a| < 2^50, so a true one reads positive).
            const auto across = (V<int64_t>)rs[p] < 0;
            qs[p] = across ? qs[p] - 1 : qs[p];
            rs[p] = across ? rs[p] + d : rs[p];
        }
    }
    VDivLane<T> rem;
    memcpy(&q, qs, sizeof qs);
    memcpy(&rem, rs, sizeof rs);
    const VDivLane<T> result = Remainder ? rem : q;
    if constexpr (sizeof(T) == 1) return __builtin_convertvector(__builtin_convertvector(result, VH), V<T>);
    else return __builtin_convertvector(result, V<T>);
}
template <class T, bool Remainder>
void int_floordiv_rem(const void* av, const void* bv, void* out, int64_t n, int mode) {
    using Op = std::conditional_t<Remainder, OpRem, OpFloorDiv>;
    if ((mode & 3) != 2) return bin_fn<T, Op>(av, bv, out, n, mode);
    const T* a = (const T*)av;
    const T d = *(const T*)bv;
    T* o = (T*)out;
    if (d == 0 || (Remainder && (d == 1 || (std::is_signed_v<T> && d == T(-1))))) {
        memset((void*)o, 0, (size_t)n * sizeof(T));
        return;
    }
    if (std::is_signed_v<T> && d == T(-1)) {  // floor_divide: -a, wrapped
        for (int64_t i = 0; i < n; ++i) o[i] = (T)(uint_of<T>(0) - (uint_of<T>)a[i]);
        return;
    }
    if (d == 1) {
        if (o != a) memcpy((void*)o, a, (size_t)n * sizeof(T));
        return;
    }
    DivFloat<T> r = 0;  // wider lanes' reciprocal
    uint16_t m = 0;     // 8-bit lanes' multiplier (|d| >= 2 here)
    Divisor16 d16{};    // 16-bit lanes'
    if constexpr (sizeof(T) == 1) {
        const unsigned magnitude = d < 0 ? 0u - (unsigned)(int)d : (unsigned)d;
        m = (uint16_t)((65536u + magnitude - 1) / magnitude);
    } else if constexpr (sizeof(T) == 2) {
        d16 = divisor16((int32_t)d);
    } else {
        r = reciprocal_away_from_zero(d);
    }
    auto quotients = [&](V<T> x) {
        if constexpr (sizeof(T) == 1) return floor_div_or_rem_by_small<T, Remainder>(x, d, m);
        else if constexpr (sizeof(T) == 2) return floor_div_or_rem_by_16<T, Remainder>(x, d, d16);
        else return floor_div_or_rem_by<T, Remainder>(x, d, r);
    };
    constexpr int w = W<T>;
    int64_t i = 0;
    for (; i + w <= n; i += w) store_vec(o + i, quotients(load(a + i)));
    if (i < n) {
        const V<T> q = quotients(load_partial(a + i, (size_t)(n - i) * sizeof(T)));
        store_partial(o + i, q, (size_t)(n - i) * sizeof(T));
    }
}
