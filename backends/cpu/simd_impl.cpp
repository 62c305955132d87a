// SIMD kernels, written once with GCC vector extensions and compiled once per instruction
// set (CMakeLists.txt generates simd_<isa>.cpp, which defines EMBER_ISA_NAME and includes
// this file, with -mavx2 / -mavx512* flags). The vector width follows the flags: 16 bytes
// (SSE2, every x86-64), 32 (AVX2 + FMA) or 64 (AVX-512).
//
// Everything here has internal linkage (an anonymous namespace) and calls no inline
// function of the C++ library, so no code compiled for a wide ISA can be picked by the
// linker for the generic path.
//
// Accuracy of the float32 transcendental functions (max error against float64 math,
// measured by tests/test_cpu_backend.cpp over sweeps of inputs, every ISA variant):
//   exp      0.97 ulp  (Cody-Waite reduction, degree-6 minimax polynomial as in SLEEF's expf;
//                       2**q by vscalefps on AVX-512, by two exponent steps elsewhere)
//   log      0.92 ulp  (x = 2**k * m, m in [0.75, 1.5): vgetexpps/vgetmantps on AVX-512, bits
//                       elsewhere; division-free degree-10 polynomial in m - 1; 1.06 generic)
//   tanh     2.23 ulp  (e = expm1(2|x|), one division: e / (e + 2); <= 1.5 ulp for |x| >= 2;
//                       2.33 generic)
//   sigmoid  2.19 ulp  (e = exp(-|x|); (x >= 0 ? 1 : e) / (1 + e))
// Special values follow IEEE/libm: NaN propagates, exp(-inf) = 0, exp(+inf) = inf,
// log(0) = -inf, log(x < 0) = NaN, tanh(+-inf) = +-1, sigmoid(-inf) = 0, subnormal results
// and inputs are handled (no flush to zero).
#include <stdint.h>
#include <string.h>

#include <algorithm>
#include <cmath>
#include <initializer_list>
#include <limits>
#include <type_traits>

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#endif

#include "../common/float16.hpp"
#include "isa.hpp"
#include "neg_log_fast.hpp"

#ifndef EMBER_ISA_NAME
#define EMBER_ISA_NAME generic
#endif
#define EMBER_CAT2(a, b) a##b
#define EMBER_CAT(a, b) EMBER_CAT2(a, b)
#define EMBER_STR2(a) #a
#define EMBER_STR(a) EMBER_STR2(a)

namespace ember_cpu {
namespace {

#if defined(__AVX512F__)
constexpr int VB = 64;
#elif defined(__AVX2__)
constexpr int VB = 32;
#else
constexpr int VB = 16;
#endif

template <class T, int B = VB>
struct VT {
    typedef T type __attribute__((vector_size(B)));
};
template <class T> using V = typename VT<T>::type;
template <class T> constexpr int W = VB / (int)sizeof(T);

template <class T> using uint_of = std::conditional_t<sizeof(T) == 1, uint8_t, std::conditional_t<sizeof(T) == 2, uint16_t,
                                   std::conditional_t<sizeof(T) == 4, uint32_t, uint64_t>>>;
template <class T> using sint_of = std::conditional_t<sizeof(T) == 1, int8_t, std::conditional_t<sizeof(T) == 2, int16_t,
                                   std::conditional_t<sizeof(T) == 4, int32_t, int64_t>>>;
template <class T> constexpr bool is_flt = std::is_same_v<T, float> || std::is_same_v<T, double>;

template <class T> inline __attribute__((always_inline)) V<T> load(const T* p) {
    V<T> v;
    memcpy(&v, p, sizeof v);
    return v;
}
template <class Vec, class P> inline __attribute__((always_inline)) void store_vec(P* p, const Vec& v) { memcpy((void*)p, &v, sizeof v); }
// Non-temporal (streaming) store of one full vector to a vector-aligned address: large
// outputs bypass the caches and skip the read-for-ownership of every destination line.
template <class Vec, class P> inline __attribute__((always_inline)) void stream_vec(P* p, const Vec& v) {
#if defined(__AVX512F__)
    if constexpr (sizeof(Vec) == 64) {
        __m512i x;
        memcpy(&x, &v, 64);
        _mm512_stream_si512((__m512i*)(void*)p, x);
        return;
    }
#endif
#if defined(__AVX__)
    if constexpr (sizeof(Vec) == 32) {
        __m256i x;
        memcpy(&x, &v, 32);
        _mm256_stream_si256((__m256i*)(void*)p, x);
        return;
    }
#endif
#if defined(__SSE2__)
    if constexpr (sizeof(Vec) == 16) {
        __m128i x;
        memcpy(&x, &v, 16);
        _mm_stream_si128((__m128i*)(void*)p, x);
        return;
    }
#endif
    memcpy((void*)p, &v, sizeof v);
}
// The first `bytes` (< a vector) of a vector, the rest zero, and the store of a vector's
// first `bytes`: the tails of the loops below. AVX-512 masks them (a masked load does not
// touch the bytes it leaves out); elsewhere through a buffer with memcpy. Filling the
// buffer element by element was 30% of the negative of (1000, 1000) uint8 rows: a
// 40-byte tail on every row.
template <class T> inline __attribute__((always_inline)) V<T> load_partial(const T* p, size_t bytes) {
    V<T> v;
#if defined(__AVX512BW__)
    if constexpr (sizeof(V<T>) == 64) {
        const __m512i x = _mm512_maskz_loadu_epi8((__mmask64)_bzhi_u64(~0ull, (unsigned)bytes), p);
        memcpy(&v, &x, 64);
        return v;
    }
#endif
    T t[W<T>] = {};
    memcpy(t, p, bytes);
    memcpy(&v, t, sizeof v);
    return v;
}
template <class Vec, class P> inline __attribute__((always_inline)) void store_partial(P* p, const Vec& v, size_t bytes) {
#if defined(__AVX512BW__)
    if constexpr (sizeof(Vec) == 64) {
        __m512i x;
        memcpy(&x, &v, 64);
        _mm512_mask_storeu_epi8((void*)p, (__mmask64)_bzhi_u64(~0ull, (unsigned)bytes), x);
        return;
    }
    if constexpr (sizeof(Vec) == 32) {
        __m256i x;
        memcpy(&x, &v, 32);
        _mm256_mask_storeu_epi8((void*)p, (__mmask32)_bzhi_u32(~0u, (unsigned)bytes), x);
        return;
    }
    if constexpr (sizeof(Vec) == 16) {
        __m128i x;
        memcpy(&x, &v, 16);
        _mm_mask_storeu_epi8((void*)p, (__mmask16)_bzhi_u32(~0u, (unsigned)bytes), x);
        return;
    }
#endif
    memcpy((void*)p, &v, bytes < sizeof v ? bytes : sizeof v);
}
inline void stream_fence() {
#if defined(__SSE2__)
    _mm_sfence();
#endif
}
// Through the unsigned lanes: a float zero vector plus x would turn -0.0 into +0.0 (x * -0.0
// on a vector of positive numbers came out +0.0).
template <class T> inline __attribute__((always_inline)) V<T> splat(T x) {
    uint_of<T> bits;
    memcpy(&bits, &x, sizeof bits);
    V<uint_of<T>> v = {};
    return (V<T>)(v + bits);
}

// Whether any lane of a comparison result (all-ones or zero lanes) is set.
template <class Vec>
inline __attribute__((always_inline)) bool any_set(Vec m) {
#if defined(__AVX512F__)
    __m512i v;
    memcpy(&v, &m, 64);
    return _mm512_test_epi64_mask(v, v) != 0;
#elif defined(__AVX2__)
    __m256i v;
    memcpy(&v, &m, 32);
    return !_mm256_testz_si256(v, v);
#else
    __m128i v;
    memcpy(&v, &m, 16);
    return _mm_movemask_epi8(v) != 0;
#endif
}

// ------------------------------------------------------------------ binary op functors
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
    for (; i + 4 * w <= n; i += 4 * w) {
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
// 8-bit lanes by d, |d| >= 2, in 16-bit lanes: |quotient| = mulhi(|a|, m), m = ceil(2^16 / |d|)
// (at most 2^15). The product exceeds |a| / |d| by under |a| / 2^16 < 1/256 <= 1/|d|, which
// cannot carry a quotient to the next integer: a fractional one is at least 1/|d| below it.
template <class T, bool Remainder>
inline V<T> floor_div_or_rem_by_small(V<T> a, T d, uint16_t m) {
    using VH = typename VT<int16_t, 2 * W<T>>::type;
    V<int16_t> x[2], q[2], rem[2];
    const VH wide = __builtin_convertvector(a, VH);  // sign- or zero-extended
    memcpy(x, &wide, sizeof x);
    const int16_t dd = d;
    const V<int16_t> zero = {};
    for (int p = 0; p < 2; ++p) {
        const V<uint16_t> magnitude = (V<uint16_t>)(x[p] < zero ? zero - x[p] : x[p]);
        q[p] = (V<int16_t>)mulhi_u16(magnitude, splat<uint16_t>(m));
        if constexpr (std::is_signed_v<T>) q[p] = (x[p] ^ dd) < zero ? zero - q[p] : q[p];
        rem[p] = x[p] - q[p] * dd;  // |q d| <= |a|: no overflow
        if constexpr (std::is_signed_v<T>) {
            const auto across = (rem[p] != zero) & ((rem[p] ^ dd) < zero);  // rounded up: q - 1, rem + d
            q[p] = across ? q[p] - 1 : q[p];
            rem[p] = across ? rem[p] + dd : rem[p];
        }
    }
    VH result;
    memcpy(&result, Remainder ? rem : q, sizeof result);
    return __builtin_convertvector(result, V<T>);
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

// ------------------------------------------------------------------ float32 math
using VF = V<float>;
using VI = V<int32_t>;

inline VF bits_f(VI v) { return (VF)v; }
inline VI bits_i(VF v) { return (VI)v; }
inline VF vabs(VF x) { return bits_f(bits_i(x) & 0x7fffffff); }
inline VF copysign_v(VF mag, VF sgn) { return bits_f((bits_i(mag) & 0x7fffffff) | (bits_i(sgn) & (int32_t)0x80000000)); }

// e**x. Cody-Waite reduction x = q*ln2 + s, |s| <= ln2/2, e**s by the degree-6 minimax
// polynomial of SLEEF's expf. exp_poly returns e**s and q (an integer-valued float).
inline VF exp_poly(VF x, VF& q) {
    const float magic = 12582912.0f;  // 1.5 * 2**23: adding it rounds to an integer
    q = (x * 1.44269504088896341f + magic) - magic;
    VF s = x - q * 0.693145751953125f;
    s = s - q * 1.428606765330187045e-06f;
    VF u = splat(0.000198527617612853646278381f);
    u = u * s + 0.00139304355252534151077271f;
    u = u * s + 0.00833336077630519866943359f;
    u = u * s + 0.0416664853692054748535156f;
    u = u * s + 0.166666671633720397949219f;
    u = u * s + 0.5f;
    return (s * s) * u + s + 1.0f;
}
#if defined(__AVX512F__)
// u * 2**q in one instruction (vscalefps), rounded once, overflow and subnormals included.
inline VF scale_by_pow2(VF u, VF q) {
    __m512 a, b;
    memcpy(&a, &u, 64);
    memcpy(&b, &q, 64);
    __m512 r = _mm512_mask_scalef_ps(a, (__mmask16)0xffff, a, b);
    VF v;
    memcpy(&v, &r, 64);
    return v;
}
#else
// u * 2**q in two steps so that results in the subnormal range are rounded once.
inline VF scale_by_pow2(VF u, VF q) {
    VI n = __builtin_convertvector(q, VI);
    VI n1 = n >> 1, n2 = n - n1;
    return u * bits_f((n1 + 127) << 23) * bits_f((n2 + 127) << 23);
}
#endif
// Full range. NaN needs no special case: it reaches u, and NaN times anything is NaN.
inline VF exp_f32(VF x) {
    VF xc = x < -104.0f ? splat(-104.0f) : x;
    xc = xc > 89.0f ? splat(89.0f) : xc;  // NaN compares false and passes through
    VF q;
    VF u = exp_poly(xc, q);
    return scale_by_pow2(u, q);
}

// Natural logarithm. x = 2**k * m with m in [0.75, 1.5), f = m - 1 (exact) in [-0.25, 0.5),
// log(x) = k*ln2 + (f + f*f * R(f)), R(f) = -1/2 + f*P(f) with P a degree-7 minimax polynomial
// fitted by scripts/fit_simd_math.py for the error relative to the result. No division.
// k*ln2 is added by one fma with ln2 rounded to float: its error, |k| * 1.9e-9, is at most
// ~0.1 ulp of the result because |log(x)| >= 0.28 |k| whenever k != 0.
inline VF log1p_kernel(VF f, VF dk) {
    VF r = splat(-4.515220597e-02f);
    r = r * f + 1.047255397e-01f;
    r = r * f + -1.316394210e-01f;
    r = r * f + 1.447763145e-01f;
    r = r * f + -1.664687842e-01f;
    r = r * f + 1.999084800e-01f;
    r = r * f + -2.500011027e-01f;
    r = r * f + 3.333345056e-01f;
    r = r * f + -0.5f;
    VF l = (f * f) * r + f;
    return dk * 0.693147180559945309f + l;
}
#if defined(__AVX512F__)
// vgetmantps: m in [0.75, 1.5) (subnormals included); vgetexpps: floor(log2 .) as a float, so
// k = exp(x) - exp(m). vfixupimmps then sets the special inputs from x's class in one
// instruction: NaN -> NaN, +-0 -> -inf, +inf -> +inf, -inf and x < 0 -> NaN.
inline VF log_f32(VF x) {
    __m512 vx;
    memcpy(&vx, &x, 64);
    __m512 vm = _mm512_maskz_getmant_ps((__mmask16)0xffff, vx, _MM_MANT_NORM_p75_1p5, _MM_MANT_SIGN_src);
    __m512 vk = _mm512_sub_ps(_mm512_maskz_getexp_ps((__mmask16)0xffff, vx), _mm512_maskz_getexp_ps((__mmask16)0xffff, vm));
    VF m, dk;
    memcpy(&m, &vm, 64);
    memcpy(&dk, &vk, 64);
    VF r = log1p_kernel(m - 1.0f, dk);
    __m512 vr;
    memcpy(&vr, &r, 64);
    // response nibbles by class: QNaN 2 (QNaN(x)), SNaN 2, +-0 4 (-inf), +1 0 (keep),
    // -inf 3 (default NaN), +inf 5 (+inf), negative 3 (default NaN), positive 0 (keep)
    vr = _mm512_maskz_fixupimm_ps((__mmask16)0xffff, vr, vx, _mm512_set1_epi32(0x03530422), 0);
    memcpy(&r, &vr, 64);
    return r;
}
#else
// k and f = m - 1 from the bit pattern of a positive normal x.
inline VF log_reduce_bits(VF x, VF& dk) {
    using VU = V<uint32_t>;  // bit arithmetic without signed overflow
    VI ix = (VI)((VU)bits_i(x) + (uint32_t)(0x3f800000 - 0x3f400000));
    dk = __builtin_convertvector((ix >> 23) - 0x7f, VF);
    return bits_f((ix & 0x007fffff) + 0x3f400000) - 1.0f;
}

// Inputs that are not positive normal numbers, handled branch-free: subnormals scaled by
// 2**23, then 0 -> -inf, x < 0 -> NaN, +inf -> +inf, NaN -> NaN.
__attribute__((noinline)) VF log_f32_rare(VF x) {
    auto sub = x < 1.17549435e-38f;
    VF xs = sub ? x * 8388608.0f : x;
    VF dk;
    VF f = log_reduce_bits(xs, dk);
    dk = sub ? dk - 23.0f : dk;
    VF r = log1p_kernel(f, dk);
    const float inf = __builtin_inff();
    r = x == 0.0f ? splat(-inf) : r;
    r = x < 0.0f ? splat(__builtin_nanf("")) : r;
    r = x == inf ? splat(inf) : r;
    return x != x ? x : r;
}
inline VF log_f32(VF x) {
    using VU = V<uint32_t>;
    // not in [FLT_MIN, inf): zero, negative, subnormal, inf, NaN (a branch: rare in practice)
    if (__builtin_expect(any_set((VI)((VU)bits_i(x) - 0x00800000u >= 0x7f000000u)), 0)) return log_f32_rare(x);
    VF dk;
    VF f = log_reduce_bits(x, dk);
    return log1p_kernel(f, dk);
}
#endif

// min(|a|, 10); NaN passes through.
inline VF abs_min10(VF a) {
    VF ax = vabs(a);
#if defined(__AVX512F__)
    __m512 v;
    memcpy(&v, &ax, 64);
    v = _mm512_maskz_min_ps((__mmask16)0xffff, _mm512_set1_ps(10.0f), v);  // the second operand if NaN
    memcpy(&ax, &v, 64);
    return ax;
#else
    return 10.0f < ax ? splat(10.0f) : ax;
#endif
}
inline VF two_pow_q1(VF q) {  // 2**(q + 1) for integer-valued q in [0, 29]
#if defined(__AVX512F__)
    return scale_by_pow2(splat(2.0f), q);
#else
    return bits_f((__builtin_convertvector(q, VI) + 128) << 23);
#endif
}

// tanh(x) = sign(x) * e / (e + 2) with e = expm1(2|x|): relative accuracy for small |x| (e
// carries it), and near +-1 the roundings of e and e + 2 enter the result at most ~1.5 ulp.
// One division per vector, no branch and no select: an earlier form that divided (d - 2)/d
// above |x| = 0.55 (1 - 2/d rounded once, 1.0 ulp there) cost two more operations per vector,
// ~11% of the kernel. (On this file's targets the divider runs beside the FMA units; vrcp14ps
// plus a Newton step measured slower.)
// expm1(2|x|) = 2**q * (2p + 1) - 1 with q = round(2|x|/ln2), h = |x| - q*ln2/2 and
// p = expm1(2h)/2 = h + h*h * U(h), U a degree-4 minimax polynomial (scripts/fit_simd_math.py).
// ln2/2 is rounded to float: the error q * 5e-10 in h is negligible next to 2/(e + 2) for q >= 1.
inline VF tanh_f32(VF x) {
    VF xc = abs_min10(x);  // tanh rounds to 1 long before |x| = 10
    const float magic = 12582912.0f;  // 1.5 * 2**23: adding it rounds to an integer
    VF q = (xc * 2.88539008177792681f + magic) - magic;  // round(2|x| / ln2)
    VF h = xc - q * 0.346573590279972655f;
    VF u = splat(4.438364506e-02f);
    u = u * h + 1.338600367e-01f;
    u = u * h + 3.333395422e-01f;
    u = u * h + 6.666618586e-01f;
    u = u * h + 9.999999404e-01f;
    VF p = (h * h) * u + h;  // expm1(2h) / 2
    VF t2 = two_pow_q1(q);
    VF e = t2 * p + (t2 * 0.5f - 1.0f);  // expm1(2|x|), exact 2h when q = 0
    VF t = e / (e + 2.0f);
    return bits_f(bits_i(t) ^ (bits_i(x) & (int32_t)0x80000000));  // NaN propagates throughout
}

inline VF sigmoid_f32(VF x) {
    VF e = exp_f32(-vabs(x));
    VF num = x >= 0.0f ? splat(1.0f) : e;
    return num / (1.0f + e);
}

// ------------------------------------------------------------------ unary op functors
struct UNeg {
    template <class T> static inline V<T> f(V<T> x) { return wrap_sub<T>(V<T>{}, x); }
};
struct UAbs {
    template <class T> static inline V<T> f(V<T> x) {
        if constexpr (is_flt<T>) return (V<T>)((V<uint_of<T>>)x & (uint_of<T>)(~(uint_of<T>)0 >> 1));
        else if constexpr (std::is_unsigned_v<T>) return x;
        else return x < 0 ? wrap_sub<T>(V<T>{}, x) : x;
    }
};
// |x| of float16 (Bf16: bfloat16) bits: the sign cleared, and a NaN as the reference's
// rounding from float32 writes it (float16: 0x7e00; bfloat16: its bits, quieted). No
// conversion to float32 and back.
template <bool Bf16>
struct UAbsHalf {
    template <class T> static inline V<T> f(V<T> x) {
        static_assert(std::is_same_v<T, uint16_t>, "half bits");
        const V<T> magnitude = x & (T)0x7fff;
        if constexpr (Bf16) return magnitude > (T)0x7f80 ? magnitude | (T)0x0040 : magnitude;
        else return magnitude > (T)0x7c00 ? splat<T>(0x7e00) : magnitude;
    }
};
struct USquare {
    template <class T> static inline V<T> f(V<T> x) { return wrap_mul<T>(x, x); }
};
struct URecip {
    template <class T> static inline V<T> f(V<T> x) { return (T)1 / x; }
};
struct URelu {  // maximum(x, 0), a NaN included
    template <class T> static inline V<T> f(V<T> x) {
        if constexpr (std::is_unsigned_v<T>) return x;
        else return max_or_nan<T>(x, V<T>{});
    }
};
struct UExp {
    template <class T> static inline V<T> f(V<T> x) { return exp_f32(x); }
};
struct ULog {
    static constexpr bool unroll2 = true;
    template <class T> static inline V<T> f(V<T> x) { return log_f32(x); }
};
struct UTanh {
    static constexpr bool unroll2 = true;
    template <class T> static inline V<T> f(V<T> x) { return tanh_f32(x); }
};
struct USigmoid {
    template <class T> static inline V<T> f(V<T> x) { return sigmoid_f32(x); }
};
struct USilu {
    template <class T> static inline V<T> f(V<T> x) { return x * sigmoid_f32(x); }
};
// gelu, tanh form: x * (1 + tanh(u)) / 2 = x * sigmoid(2u), 2u = x (2 sqrt(2/pi) + 0.0713548 x^2)
// (the gelu kernel of gelu.cpp; no cancellation for negative x).
struct UGeluTanh {
    template <class T> static inline V<T> f(V<T> x) { return x * sigmoid_f32(x * ((x * x) * 0.07135481627260025f + 1.5957691216057308f)); }
};

// logaddexp of float32: m + log1p(exp(-|a - b|)), m the larger operand, the log1p of t in
// (0, 1] by log1p_kernel on an exact argument: t itself below 1/2, else ln2 + log1p((t -
// 1) / 2). Equal operands (equal infinities included) give a + ln2, as the reference; a NaN
// operand makes the difference, and so the result, NaN. softplus is logaddexp(x, 0).
struct OpLogAddExp {
    static constexpr bool boolean = false;
    static constexpr bool narrow_scalar = false;
    template <class T> static inline V<T> f(V<T> a, V<T> b) {
        static_assert(std::is_same_v<T, float>, "float32 lanes");
        const VF d = a - b, t = exp_f32(-vabs(d));
        const auto upper = t >= 0.5f;
        const VF l = log1p_kernel(upper ? (t - 1.0f) * 0.5f : t, upper ? splat(1.0f) : splat(0.0f));
        const VF sum = (d > 0.0f ? a : b) + l;
        return a == b ? a + 0.693147180559945309f : sum;
    }
};

// bitwise_invert / logical_not: ~x for integers, x ^ 1 for bool (bytes holding 0 or 1).
struct UInvert {
    template <class T> static inline V<T> f(V<T> x) { return ~x; }
};
struct UBoolNot {
    template <class T> static inline V<T> f(V<T> x) { return x ^ (T)1; }
};
// -1, 0 or 1 (+0 for -0, as the reference); NaN stays NaN.
struct USign {
    template <class T> static inline V<T> f(V<T> x) {
        const V<T> one = splat<T>((T)1), zero = {};
        V<T> r = (x > (T)0 ? one : zero) - (x < (T)0 ? one : zero);
        if constexpr (is_flt<T>) return x != x ? x : r;
        else return r;
    }
};

// Ops with `unroll2` run two vectors per main-loop iteration.
template <class Op, class = void> constexpr bool UNROLL2 = false;
template <class Op> constexpr bool UNROLL2<Op, std::void_t<decltype(Op::unroll2)>> = Op::unroll2;
template <class T, class Op, bool NT>
void un_loop(const T* __restrict x, T* __restrict o, int64_t n, bool fence = true) {
    constexpr int w = W<T>;
    int64_t i = 0;
    if (NT)
        for (; i < n && ((uintptr_t)(o + i) % VB) != 0; ++i) o[i] = Op::template f<T>(splat<T>(x[i]))[0];
    if constexpr (UNROLL2<Op>) {
        for (; i + 2 * w <= n; i += 2 * w) {
            V<T> a = Op::template f<T>(load(x + i)), b = Op::template f<T>(load(x + i + w));
            if (NT) {
                stream_vec(o + i, a);
                stream_vec(o + i + w, b);
            } else {
                store_vec(o + i, a);
                store_vec(o + i + w, b);
            }
        }
    }
    for (; i + w <= n; i += w) {
        if (NT) stream_vec(o + i, Op::template f<T>(load(x + i)));
        else store_vec(o + i, Op::template f<T>(load(x + i)));
    }
    if (NT && fence) stream_fence();
    if (i < n && n - i <= 2)
        for (; i < n; ++i) o[i] = Op::template f<T>(splat<T>(x[i]))[0];
    if constexpr (w > 2) {
    if (i < n) {
        const V<T> r = Op::template f<T>(load_partial(x + i, (size_t)(n - i) * sizeof(T)));
        store_partial(o + i, r, (size_t)(n - i) * sizeof(T));
    }
    }
}
template <class T, class Op>
void un_fn(const void* in, void* out, int64_t n, int flags) {
    if (flags & kStream) un_loop<T, Op, true>((const T*)in, (T*)out, n, !(flags & kCallerFences));
    else un_loop<T, Op, false>((const T*)in, (T*)out, n);
}

// sqrt: a plain loop the compiler vectorises (no errno with -fno-math-errno).
void sqrt_f32(const void* in, void* out, int64_t n, int) {
    const float* __restrict x = (const float*)in;
    float* __restrict o = (float*)out;
    for (int64_t i = 0; i < n; ++i) o[i] = __builtin_sqrtf(x[i]);
}
void sqrt_f64(const void* in, void* out, int64_t n, int) {
    const double* __restrict x = (const double*)in;
    double* __restrict o = (double*)out;
    for (int64_t i = 0; i < n; ++i) o[i] = __builtin_sqrt(x[i]);
}

// Rounding and classification: plain loops the compiler vectorises (vrndscaleps/roundps,
// or SSE2 bit arithmetic, which -fno-trapping-math allows), exact like the reference's libm
// calls; round is half to even (rint, as the reference's nearbyint). These ran as one libm
// call per element before: floor of 1e6 float32 took 0.53 ms, 6x NumPy's time.
// The sign bit from the bits: GCC does not vectorise __builtin_signbit of a double (of a
// float it does, and better than this).
template <class T> inline uint8_t sign_bit_of(T v) {
    uint_of<T> bits;
    memcpy(&bits, &v, sizeof bits);
    return (uint8_t)(bits >> (8 * sizeof(T) - 1));
}
#define EMBER_EXACT_LOOP(fn, T, R, expr)                               \
    void fn(const void* in, void* out, int64_t n, int) {               \
        const T* __restrict x = (const T*)in;                          \
        R* __restrict o = (R*)out;                                     \
        for (int64_t i = 0; i < n; ++i) {                              \
            const T v = x[i];                                          \
            o[i] = (R)(expr);                                          \
        }                                                              \
    }
#define EMBER_EXACT_PAIR(name, R32, R64, e32, e64) \
    EMBER_EXACT_LOOP(name##_f32, float, R32, e32)  \
    EMBER_EXACT_LOOP(name##_f64, double, R64, e64)
EMBER_EXACT_PAIR(floor, float, double, __builtin_floorf(v), __builtin_floor(v))
EMBER_EXACT_PAIR(ceil, float, double, __builtin_ceilf(v), __builtin_ceil(v))
EMBER_EXACT_PAIR(trunc, float, double, __builtin_truncf(v), __builtin_trunc(v))
EMBER_EXACT_PAIR(round, float, double, __builtin_rintf(v), __builtin_rint(v))
EMBER_EXACT_PAIR(isnan, uint8_t, uint8_t, v != v, v != v)
EMBER_EXACT_PAIR(isinf, uint8_t, uint8_t, __builtin_fabsf(v) == __builtin_inff(), __builtin_fabs(v) == __builtin_inf())
EMBER_EXACT_PAIR(isfinite, uint8_t, uint8_t, __builtin_fabsf(v) < __builtin_inff(), __builtin_fabs(v) < __builtin_inf())
EMBER_EXACT_PAIR(signbit, uint8_t, uint8_t, __builtin_signbit(v) != 0, sign_bit_of(v))
#undef EMBER_EXACT_PAIR
#undef EMBER_EXACT_LOOP

// float32/float64 floor_divide and remainder as the reference computes them from fmod, in the
// operands' type. The fmod is computed exactly where cheap, else with libm after the loop:
// - float32 through float64: for |a / b| < 2^29, n = trunc(|a| / |b|) times |b| (29 + 24
//   bits) and |a| - n |b| are exact. n is never one too many: a quotient just below an
//   integer k is below it by at least 2^-24 (|a| and k |b| are multiples of |b|'s last
//   place), more than float64's rounding of a quotient under 2^29 can close.
// - float64 with one fused multiply-add: for |a / b| < 2^52, r = |a| - n |b| rounded once is
//   exact when n is the true truncated quotient (fmod's result is representable). The
//   rounded quotient can make n one off; then the exact |a| - n |b| lies in [-|b|, 0) or
//   [|b|, 2 |b|), a nonzero multiple of the smallest subnormal that rounding keeps there, so
//   0 <= r < |b| proves n right.
// Other lanes (a or b not finite, b zero, larger quotients, a float64 n proved wrong) take
// libm's fmod.
template <class T> inline T floor_of(T v) { return sizeof(T) == 4 ? __builtin_floorf(v) : __builtin_floor(v); }
template <class T> inline T copysign_of(T v, T s) { return sizeof(T) == 4 ? __builtin_copysignf(v, s) : __builtin_copysign(v, s); }
template <class T> inline T fmod_of(T a, T b) { return sizeof(T) == 4 ? __builtin_fmodf(a, b) : __builtin_fmod(a, b); }
template <class T, bool Remainder>
inline T from_fmod(T a, T b, T m) {
    if (Remainder) return m != 0 ? ((b < 0) != (m < 0) ? m + b : m) : copysign_of(T(0), b);
    T d = (a - m) / b;
    d = m != 0 && (b < 0) != (m < 0) ? d - 1 : d;
    T fd = floor_of(d);
    fd = d - fd > T(0.5) ? fd + 1 : fd;
    return d == 0 ? copysign_of(T(0), a / b) : fd;
}
// fmod(x, y) into m where the exact shortcut holds; false where libm must compute it.
inline bool quick_fmod(float x, float y, float& m) {
    const double ax = __builtin_fabs((double)x), ay = __builtin_fabs((double)y), q = ax / ay;
    const bool fast = q < 536870912.0 && ay < __builtin_inf();  // false for NaN
    const double k = __builtin_trunc(fast ? q : 0.0);
    m = __builtin_copysignf((float)(ax - k * ay), x);
    return fast;
}
inline bool quick_fmod(double x, double y, double& m) {
    const double ax = __builtin_fabs(x), ay = __builtin_fabs(y), q = ax / ay;
    const bool small = q < 4503599627370496.0 && ay < __builtin_inf();  // false for NaN
    const double k = __builtin_trunc(small ? q : 0.0), r = __builtin_fma(-k, ay, ax);
    m = __builtin_copysign(r, x);
    return small && r >= 0 && r < ay;
}
template <class T, bool Remainder>
void floordiv_rem(const void* av, const void* bv, void* out, int64_t n, int mode) {
    // out may be a or b (in-place ops): each block is computed into `block`, its slow lanes
    // patched from the still untouched inputs, and only then stored.
    const T* a = (const T*)av;
    const T* b = (const T*)bv;
    T* o = (T*)out;
    const int64_t sa = mode & 1 ? 0 : 1, sb = mode & 2 ? 0 : 1;
    constexpr int64_t kBlock = 256;
    alignas(64) T block[kBlock];
    for (int64_t i0 = 0; i0 < n; i0 += kBlock) {
        const int64_t m = n - i0 < kBlock ? n - i0 : kBlock;
        const T* pa = a + i0 * sa;
        const T* pb = b + i0 * sb;
        int slow = 0;
        for (int64_t i = 0; i < m; ++i) {
            const T x = pa[i * sa], y = pb[i * sb];
            T r;
            slow |= !quick_fmod(x, y, r);
            block[i] = from_fmod<T, Remainder>(x, y, r);
        }
        if (slow)
            for (int64_t i = 0; i < m; ++i) {
                const T x = pa[i * sa], y = pb[i * sb];
                T r;
                if (quick_fmod(x, y, r)) continue;
                block[i] = y == 0 ? (Remainder ? fmod_of(x, y) : x / y) : from_fmod<T, Remainder>(x, y, fmod_of(x, y));
            }
        memcpy(o + i0, block, (size_t)m * sizeof(T));
    }
}

// ------------------------------------------------------------------ complex
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

#if defined(__AVX512F__)
// ------------------------------------------------------------------ pow, float32
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

// ------------------------------------------------------------------ reductions
template <class T> inline T lane_sum(V<T> v) {
    T s = 0;
    for (int k = 0; k < W<T>; ++k) s += v[k];
    return s;
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

// Each step of a streaming reduction first asks for the lines 2 KiB ahead of it: the
// hardware prefetchers alone kept one core of the Emerald Rapids host at 18 GB/s from L3
// and 29 GB/s from L2 in a float32 sum; with this, 23 and 37 (sum of 1e7 float32 on two
// threads 0.88-0.91 -> 0.79-0.85 ms, 1e6 66-80 -> 47-59 us).
constexpr int64_t kStreamPrefetchBytes = 2048;
template <class T, int64_t Elems>
inline void prefetch_step(const T* p) {
    for (int64_t line = 0; line < Elems * (int64_t)sizeof(T); line += 64) __builtin_prefetch((const char*)p + kStreamPrefetchBytes + line);
}
// The vector part of a sum of float32 or float64 values in double lanes: four
// accumulators over x[0..i), combined; i is left at the first element not summed (fewer
// than a vector's worth remain).
template <class T>
VD sum_lanes(const T* x, int64_t n, int64_t& i) {
    constexpr int wd = W<double>;
    auto ld = [](const T* p) {
        if constexpr (std::is_same_v<T, float>) return load_f32_as_f64(p);
        else return load(p);
    };
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
inline VD load_as_f64(const float* p) { return load_f32_as_f64(p); }
inline VD load_as_f64(const double* p) { return load(p); }
template <class T>  // float or double
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

// ------------------------------------------------------------------ conversions
void cvt_f16_f32(const void* in, void* out, int64_t n) {
    const uint16_t* x = (const uint16_t*)in;
    float* o = (float*)out;
    int64_t i = 0;
#if defined(__F16C__)
    for (; i + 8 <= n; i += 8) _mm256_storeu_ps(o + i, _mm256_cvtph_ps(_mm_loadu_si128((const __m128i*)(x + i))));
#endif
    for (; i < n; ++i) o[i] = ember_float16::to_float(x[i]);
}
void cvt_f32_f16(const void* in, void* out, int64_t n) {
    const float* x = (const float*)in;
    uint16_t* o = (uint16_t*)out;
    int64_t i = 0;
#if defined(__F16C__)
    // Hardware conversion rounds to nearest even like the scalar code; it keeps a NaN's top
    // payload bits, where the reference writes sign | 0x7e00: NaN lanes are replaced.
    const __m128i sign = _mm_set1_epi16((short)0x8000), quiet = _mm_set1_epi16(0x7e00);
    for (; i + 8 <= n; i += 8) {
        const __m256 v = _mm256_loadu_ps(x + i);
        const __m128i h = _mm256_cvtps_ph(v, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
        const __m256i nan = _mm256_castps_si256(_mm256_cmp_ps(v, v, _CMP_UNORD_Q));
        const __m128i nan16 = _mm_packs_epi32(_mm256_castsi256_si128(nan), _mm256_extracti128_si256(nan, 1));
        _mm_storeu_si128((__m128i*)(o + i), _mm_blendv_epi8(h, _mm_or_si128(_mm_and_si128(h, sign), quiet), nan16));
    }
#endif
    for (; i < n; ++i) o[i] = ember_float16::from_float(x[i]);
}
// The float32 side as float objects (bits through memcpy): a uint32_t store into a float
// that the caller then reads as float could be reordered under strict aliasing.
void cvt_bf16_f32(const void* in, void* out, int64_t n) {
    const uint16_t* x = (const uint16_t*)in;
    float* o = (float*)out;
    for (int64_t i = 0; i < n; ++i) o[i] = ember_float16::bf16_to_float(x[i]);
}
void cvt_f32_bf16(const void* in, void* out, int64_t n) {
    const float* x = (const float*)in;
    uint16_t* o = (uint16_t*)out;
    for (int64_t i = 0; i < n; ++i) {
        uint32_t u;
        memcpy(&u, x + i, 4);
        if ((u & 0x7fffffffu) > 0x7f800000u) {
            o[i] = (uint16_t)((u >> 16) | 0x40);
        } else {
            u += 0x7fffu + ((u >> 16) & 1u);
            o[i] = (uint16_t)(u >> 16);
        }
    }
}
void cvt_f32_f64(const void* in, void* out, int64_t n) {
    const float* x = (const float*)in;
    double* o = (double*)out;
    for (int64_t i = 0; i < n; ++i) o[i] = (double)x[i];
}
void cvt_f64_f32(const void* in, void* out, int64_t n) {
    const double* x = (const double*)in;
    float* o = (float*)out;
    for (int64_t i = 0; i < n; ++i) o[i] = (float)x[i];
}
// float64 -> float32 rounded to odd (ember_float16::to_float_odd), a vector at a time: the
// nearest float, one step toward zero where that rounded away from zero, the last bit set
// where anything was lost.
void cvt_f64_f32_odd(const double* x, float* o, int64_t n) {
    typedef typename VT<float, VB / 2>::type Half;  // W<double> floats
    typedef typename VT<uint32_t, VB / 2>::type HalfBits;
    constexpr int w = W<double>;
    const V<int64_t> magnitude = splat<int64_t>(INT64_MAX);
    int64_t i = 0;
    for (; i + w <= n; i += w) {
        const V<double> d = load(x + i);
        const Half f = __builtin_convertvector(d, Half);
        const V<double> back = __builtin_convertvector(f, V<double>);
        const V<int64_t> lost = (back != d) & (d == d);
        const V<int64_t> away = lost & (((V<int64_t>)back & magnitude) > ((V<int64_t>)d & magnitude));
        HalfBits bits;
        memcpy(&bits, &f, sizeof f);
        bits += __builtin_convertvector(away, HalfBits);  // -1: one step toward zero
        bits |= __builtin_convertvector(lost, HalfBits) & 1u;
        memcpy(o + i, &bits, sizeof bits);
    }
    for (; i < n; ++i) o[i] = ember_float16::to_float_odd(x[i]);
}

// Conversions through float32 in L1-sized pieces, Up into a float buffer, then Down:
// float64 -> float16/bfloat16 rounded once (through floats rounded to odd, then the float32
// conversion to nearest even); float16/bfloat16 -> float64 (exact), and between the half
// types (rounded once, as the reference's conversion through float). The reference converted
// the latter element by element: astype of 1e6 float16 to float64 took 0.95 ms.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
template <class In, auto Up, auto Down, class Out>
void cvt_via_f32(const void* in, void* out, int64_t n) {
    alignas(64) float buf[1024];
    for (int64_t i = 0; i < n; i += 1024) {
        const int64_t m = n - i < 1024 ? n - i : 1024;
        Up((const In*)in + i, buf, m);
        Down(buf, (Out*)out + i, m);
    }
}
#pragma GCC diagnostic pop

// float16/bfloat16 sums: L1-sized chunks converted to float32, then the float32 kernels
// (double accumulators, as the reference's). GCC cannot see that Up fills the buffer.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
template <CvtFn Up>
void row_sum_half(const void* x, int64_t n, void* acc) {
    alignas(64) float buf[1024];
    for (int64_t i = 0; i < n; i += 1024) {
        const int64_t m = n - i < 1024 ? n - i : 1024;
        Up((const uint16_t*)x + i, buf, m);
        row_sum_flt<float>(buf, m, acc);
    }
}
template <CvtFn Up>
void col_sum_half_row(const void* x, int64_t n, void* acc) {
    alignas(64) float buf[1024];
    const void* rows[1] = {buf};
    for (int64_t j = 0; j < n; j += 1024) {
        const int64_t m = n - j < 1024 ? n - j : 1024;
        Up((const uint16_t*)x + j, buf, m);
        col_sum_flt<float>(rows, 1, m, (double*)acc + j);
    }
}

// float16/bfloat16 max/min: float32 holds every value exactly, so the float32 pick (first of
// equal values, the last NaN) finds the same element, and a value that is not NaN converts
// back to the element's bits, -0 included. NaN results are written as the reference's
// conversion writes them by reduce.cpp's quiet_nans, after the whole reduction.
template <CvtFn Up, CvtFn Down, bool IsMax>
void row_minmax_half(const void* in, int64_t n, void* acc) {
    const uint16_t* x = (const uint16_t*)in;
    alignas(64) float buf[1024];
    float best;
    Up(acc, &best, 1);
    for (int64_t i = 0; i < n; i += 1024) {
        const int64_t m = n - i < 1024 ? n - i : 1024;
        Up(x + i, buf, m);
        row_minmax<float, IsMax>(buf, m, &best);
    }
    Down(&best, acc, 1);
}
template <CvtFn Up, bool IsMax>
void col_minmax_half_row(const void* in, int64_t n, void* accv) {
    const uint16_t* x = (const uint16_t*)in;
    uint16_t* acc = (uint16_t*)accv;
    alignas(64) float fa[512], fx[512];
    for (int64_t j = 0; j < n; j += 512) {
        const int64_t m = n - j < 512 ? n - j : 512;
        Up(acc + j, fa, m);
        Up(x + j, fx, m);
        for (int64_t k = 0; k < m; ++k) {
            const bool take = fx[k] != fx[k] || (IsMax ? fx[k] > fa[k] : fx[k] < fa[k]);
            acc[j + k] = take ? x[j + k] : acc[j + k];
        }
    }
}
#pragma GCC diagnostic pop

// ------------------------------------------------------------------ copy
// Groups of 4 vectors from byte i on, by plain or streaming stores; the first byte left.
template <bool Stream>
int64_t copy_vector_groups(const char* x, char* o, int64_t i, int64_t nbytes) {
    using VU = V<uint8_t>;
    auto put = [](char* p, const VU& v) {
        if constexpr (Stream) stream_vec(p, v);
        else store_vec(p, v);
    };
    for (; i + 4 * VB <= nbytes; i += 4 * VB) {
        const VU a = load((const uint8_t*)x + i), b = load((const uint8_t*)x + i + VB);
        const VU c = load((const uint8_t*)x + i + 2 * VB), d = load((const uint8_t*)x + i + 3 * VB);
        put(o + i, a), put(o + i + VB, b), put(o + i + 2 * VB, c), put(o + i + 3 * VB, d);
    }
    return i;
}

// glibc 2.36's memcpy moves a few KiB and more with `rep movsb`, which on the Zen 4 host ran
// 10-18x slower when the destination lies 1-31 bytes past the source modulo 4 KiB: rows of a
// (1000, 1000) float32 assigned 7 columns along (roll, pad, slice assignment) took 1.2 ms
// instead of 0.1. Such distances (up to 63, to be safe) take the vector loop instead.
void copy_bytes(const void* in, void* out, int64_t nbytes, int flags) {
    const char* x = (const char*)in;
    char* o = (char*)out;
    int64_t i = 0;
    if (!(flags & kStream)) {
        const uintptr_t ahead = ((uintptr_t)o - (uintptr_t)x) % 4096;
        if (nbytes >= 1024 && ahead != 0 && ahead < 64) i = copy_vector_groups<false>(x, o, 0, nbytes);
        memcpy(o + i, x + i, (size_t)(nbytes - i));
        return;
    }
    int64_t head = (int64_t)((VB - (uintptr_t)o % VB) % VB);
    if (head > nbytes) head = nbytes;
    memcpy(o, x, (size_t)head);
    i = copy_vector_groups<true>(x, o, head, nbytes);
    if (!(flags & kCallerFences)) stream_fence();
    memcpy(o + i, x + i, (size_t)(nbytes - i));
}

// ------------------------------------------------------------------ the table
enum Dt { D_BOOL, D_I8, D_I16, D_I32, D_I64, D_U8, D_U16, D_U32, D_U64, D_F16, D_BF16, D_F32, D_F64, D_C64, D_C128 };

#include "simd_mvec.hpp"
#include "simd_erf.hpp"
#include "simd_random.hpp"
#include "simd_sortnet.hpp"
#include "simd_quicksort.hpp"
#include "sort_keys.hpp"

// The ISA table's sort keys of a line; a unit stride as a constant, so that the loops
// vectorise (AVX2, 1e4 float64 keys: encode and decode took 14% of a sort in SSE2).
template <KeyKind K, class U>
bool encode_sort_keys(const void* src, int64_t step, int64_t n, void* keys, uint64_t inf_bits, uint64_t flip) {
    if (step == 1) return encode_line<K, false>((const U*)src, std::integral_constant<int64_t, 1>{}, n, (U*)keys, U(inf_bits), U(flip));
    return encode_line<K, false>((const U*)src, step, n, (U*)keys, U(inf_bits), U(flip));
}
template <KeyKind K, class U>
void decode_sort_keys(const void* keys, int64_t n, void* dst, int64_t step, uint64_t flip) {
    if (step == 1) decode_line<K>((const U*)keys, n, (U*)dst, std::integral_constant<int64_t, 1>{}, U(flip));
    else decode_line<K>((const U*)keys, n, (U*)dst, step, U(flip));
}
template <class U>
void fill_sort_keys(IsaTable& t, int wide) {
    t.encode_sort_keys[kUnsigned][wide] = encode_sort_keys<kUnsigned, U>;
    t.encode_sort_keys[kSigned][wide] = encode_sort_keys<kSigned, U>;
    t.encode_sort_keys[kFloat][wide] = encode_sort_keys<kFloat, U>;
    t.decode_sort_keys[kUnsigned][wide] = decode_sort_keys<kUnsigned, U>;
    t.decode_sort_keys[kSigned][wide] = decode_sort_keys<kSigned, U>;
    t.decode_sort_keys[kFloat][wide] = decode_sort_keys<kFloat, U>;
}
#include "simd_transpose.hpp"
#include "simd_transpose_narrow.hpp"
#include "simd_small_gemm.hpp"
#include "simd_fft.hpp"
#include "simd_argreduce.hpp"


// Integer (and bool, as bytes) to float: the plain conversion, as the reference's astype.
template <class From, class To>
void cvt_to(const void* in, void* out, int64_t n) {
    const From* x = (const From*)in;
    To* o = (To*)out;
    for (int64_t i = 0; i < n; ++i) o[i] = (To)x[i];
}

// Float to integer as the reference's astype: NaN -> 0, saturation at the integer's range,
// truncation toward zero inside it. Selects instead of branches, so the loop vectorises.
template <class F, class I>
I float_in_range(F v) {  // v is in [lowest, the smallest F at or above max)
    if constexpr (sizeof(I) < 4 || (sizeof(I) == 4 && std::is_signed_v<I>)) {
        return (I)(int32_t)v;
    } else if constexpr (sizeof(I) == 4 || std::is_signed_v<I>) {
        return (I)(int64_t)v;
    } else {
        const F two63 = (F)9223372036854775808.0;
        return v >= two63 ? (I)(int64_t)(v - two63) ^ (I(1) << 63) : (I)(int64_t)v;
    }
}
// Blocks of values that all lie strictly inside int32's range (NaN does not) convert
// through int32, exactly as the general loop would: x86 has no vector conversion to 64-bit
// integers below AVX-512DQ, and the general loop's (int64_t) casts ran one element at a time
// (float32 -> int64 took 0.9 ns an element on AVX2, against 0.1 ns to int32).
template <class F, class I>
bool cvt_float_to_int64_via_int32(const F* x, I* o, int64_t n) {
    const F above = std::is_signed_v<I> ? F(-2147483648.0) : F(-1), below = F(2147483648.0);
    int outside = 0;
    for (int64_t i = 0; i < n; ++i) outside |= !(x[i] > above && x[i] < below);
    if (outside) return false;
    for (int64_t i = 0; i < n; ++i) o[i] = (I)(int32_t)x[i];
    return true;
}
template <class F, class I>
void cvt_float_to_int_saturating(const F* x, I* o, int64_t n) {
    const double max = (double)std::numeric_limits<I>::max();
    const F top = (double)(F)max >= max ? (F)max : std::nextafter((F)max, std::numeric_limits<F>::infinity());
    const F bottom = (F)std::numeric_limits<I>::lowest();  // 0 or minus a power of two: exact
    for (int64_t i = 0; i < n; ++i) {
        F v = x[i];
        const bool over = v >= top;
        v = v == v ? v : F(0);
        v = v <= bottom ? bottom : v;
        v = over ? F(0) : v;
        o[i] = over ? std::numeric_limits<I>::max() : float_in_range<F, I>(v);
    }
}
template <class F, class I>
void cvt_float_to_int(const void* in, void* out, int64_t n) {
    const F* x = (const F*)in;
    I* o = (I*)out;
#if !defined(__AVX512DQ__)  // AVX-512DQ converts to 64-bit integers in vectors itself
    if constexpr (sizeof(I) == 8) {
        constexpr int64_t kBlock = 512;
        for (int64_t i = 0; i < n; i += kBlock) {
            const int64_t m = std::min(kBlock, n - i);
            if (!cvt_float_to_int64_via_int32<F, I>(x + i, o + i, m)) cvt_float_to_int_saturating<F, I>(x + i, o + i, m);
        }
        return;
    }
#endif
    cvt_float_to_int_saturating<F, I>(x, o, n);
}

// To bool: "!= 0" (NaN is true, -0.0 false), as the reference's astype.
template <class From>
void cvt_to_bool(const void* in, void* out, int64_t n) {
    const From* x = (const From*)in;
    uint8_t* o = (uint8_t*)out;
    for (int64_t i = 0; i < n; ++i) o[i] = x[i] != From(0);
}

template <class P>  // complex: either part not +-0 (complex_nonzero)
void cvt_complex_to_bool(const void* in, void* out, int64_t n) {
    const P* x = (const P*)in;
    uint8_t* o = (uint8_t*)out;
    for (int64_t i = 0; i < n; ++i) o[i] = complex_nonzero(x + 2 * i);
}

// Calls f(dtype slot, a value of its C type) for every integer dtype.
template <class F>
void for_int_dtypes(F&& f) {
    f(D_I8, int8_t{});
    f(D_I16, int16_t{});
    f(D_I32, int32_t{});
    f(D_I64, int64_t{});
    f(D_U8, uint8_t{});
    f(D_U16, uint16_t{});
    f(D_U32, uint32_t{});
    f(D_U64, uint64_t{});
}
// bools: the op on bytes is the op on bools too (values 0 and 1: comparisons).
template <class Op>
void fill_bin_all(IsaTable& t, int op, bool ints, bool bools = false) {
    t.bin[op][D_F32] = bin_fn<float, Op>;
    t.bin[op][D_F64] = bin_fn<double, Op>;
    if (ints) for_int_dtypes([&](int d, auto z) { t.bin[op][d] = bin_fn<decltype(z), Op>; });
    if (bools) t.bin[op][D_BOOL] = bin_fn<uint8_t, Op>;
}
// Integer and bool dtypes (bool as bytes).
template <class Op>
void fill_bin_bits(IsaTable& t, int op) {
    t.bin[op][D_BOOL] = bin_fn<uint8_t, Op>;
    for_int_dtypes([&](int d, auto z) { t.bin[op][d] = bin_fn<decltype(z), Op>; });
}
template <class Op>
void fill_un_ints(IsaTable& t, int op) {
    for_int_dtypes([&](int d, auto z) { t.un[op][d] = un_fn<decltype(z), Op>; });
}
template <class Op>
void fill_un_all(IsaTable& t, int op, bool ints) {
    t.un[op][D_F32] = un_fn<float, Op>;
    t.un[op][D_F64] = un_fn<double, Op>;
    if (ints) fill_un_ints<Op>(t, op);
}
template <bool IsMax>
void fill_minmax(IsaTable& t, int op) {
    t.row[op][D_F32] = row_minmax<float, IsMax>;
    t.row[op][D_F64] = row_minmax<double, IsMax>;
    t.col[op][D_F32] = col_minmax<float, IsMax>;
    t.col[op][D_F64] = col_minmax<double, IsMax>;
    for_int_dtypes([&](int d, auto z) {
        t.row[op][d] = row_minmax<decltype(z), IsMax>;
        t.col[op][d] = col_minmax<decltype(z), IsMax>;
    });
    t.row[op][D_BOOL] = row_minmax<uint8_t, IsMax>;  // bools are bytes 0 and 1
    t.col[op][D_BOOL] = col_minmax<uint8_t, IsMax>;
    t.row[op][D_F16] = row_minmax_half<cvt_f16_f32, cvt_f32_f16, IsMax>;
    t.row[op][D_BF16] = row_minmax_half<cvt_bf16_f32, cvt_f32_bf16, IsMax>;
    t.col[op][D_F16] = col_each_row<col_minmax_half_row<cvt_f16_f32, IsMax>>;
    t.col[op][D_BF16] = col_each_row<col_minmax_half_row<cvt_bf16_f32, IsMax>>;
}

IsaTable build_table() {
    IsaTable t;
    memset(&t, 0, sizeof t);
    t.name = EMBER_STR(EMBER_ISA_NAME);
    t.copy = copy_bytes;
    t.transpose[0] = transpose_elems<4>;
    t.transpose[1] = transpose_elems<8>;
    t.transpose[2] = transpose_elems<16>;
    t.transpose_narrow[0] = transpose_narrow<1>;
    t.transpose_narrow[1] = transpose_narrow<2>;
    t.philox = philox_words;
    t.neg_log_open_uniform[0] = neg_log_open_uniform<float>;
    t.neg_log_open_uniform[1] = neg_log_open_uniform<double>;
    t.race_exponentials[0] = neg_log_open_uniform<float>;
    t.race_exponentials[1] = neg_log_open_uniform<double, true>;
    t.race_rows[0] = race_rows<float>;
    t.race_rows[1] = race_rows<double>;
    t.fft_lines = fft_lines;
    t.rfft_split = rfft_split_lines;
    t.irfft_merge = irfft_merge_lines;
    t.rfft_split_line = real_step_line<true>;
    t.irfft_merge_line = real_step_line<false>;
    t.fft_pairs_in[0] = pairs_to_block<float>;
    t.fft_pairs_in[1] = pairs_to_block<double>;
    t.fft_pairs_out[0] = block_to_pairs<float>;
    t.fft_pairs_out[1] = block_to_pairs<double>;
    t.fft_columns_in[0] = columns_to_block<float>;
    t.fft_columns_in[1] = columns_to_block<double>;
    t.fft_columns_out[0] = block_to_columns<float>;
    t.fft_columns_out[1] = block_to_columns<double>;
    t.fft_twiddle_columns = twiddle_to_columns;
    t.small_gemm[0] = small_gemm<float, false>;
    t.small_gemm[1] = small_gemm<double, false>;
    t.small_gemm[2] = small_gemm<float, true>;
    t.small_gemm[3] = small_gemm<double, true>;
    t.network_sort[0] = network_sort<uint32_t>;
    t.network_sort[1] = network_sort<uint64_t>;
    t.network_sort_max[0] = kNetworkSortMax<uint32_t>;
    t.network_sort_max[1] = kNetworkSortMax<uint64_t>;
    fill_sort_keys<uint32_t>(t, 0);
    fill_sort_keys<uint64_t>(t, 1);
#if defined(__AVX512F__) || defined(__AVX2__)
    t.quicksort[0] = quicksort_keys<uint32_t>;
    t.quicksort[1] = quicksort_keys<uint64_t>;
    t.quick_split[0] = quick_split_keys<uint32_t>;
    t.quick_split[1] = quick_split_keys<uint64_t>;
#endif
    t.vector_bytes = VB;
    fill_bin_all<OpAdd>(t, B_ADD, true);
    fill_bin_all<OpSub>(t, B_SUB, true);
    fill_bin_all<OpMul>(t, B_MUL, true);
    fill_bin_all<OpDiv>(t, B_DIV, false);
    fill_bin_all<OpMax>(t, B_MAX, true);
    fill_bin_all<OpMin>(t, B_MIN, true);
    fill_bin_all<OpEq>(t, B_EQ, true, true);
    fill_bin_all<OpNe>(t, B_NE, true, true);
    fill_bin_all<OpLt>(t, B_LT, true, true);
    fill_bin_all<OpLe>(t, B_LE, true, true);
    fill_bin_all<OpGt>(t, B_GT, true, true);
    fill_bin_all<OpGe>(t, B_GE, true, true);

    fill_un_all<UNeg>(t, U_NEG, true);
    fill_un_all<UAbs>(t, U_ABS, true);
    t.un[U_ABS][D_F16] = un_fn<uint16_t, UAbsHalf<false>>;
    t.un[U_ABS][D_BF16] = un_fn<uint16_t, UAbsHalf<true>>;
    fill_un_all<USquare>(t, U_SQUARE, true);
    fill_un_all<URelu>(t, U_RELU, true);
    fill_bin_bits<OpAnd>(t, B_AND);
    fill_bin_bits<OpOr>(t, B_OR);
    fill_bin_bits<OpXor>(t, B_XOR);
    for_int_dtypes([&](int d, auto z) {
        t.bin[B_SHL][d] = bin_fn<decltype(z), OpShl>;
        t.bin[B_SHR][d] = bin_fn<decltype(z), OpShr>;
        t.bin[B_FLOORDIV][d] = int_floordiv_rem<decltype(z), false>;
        t.bin[B_REM][d] = int_floordiv_rem<decltype(z), true>;
        t.bin[B_POW][d] = bin_fn<decltype(z), OpPow>;
        t.icvt[d][0] = cvt_to<decltype(z), float>;
        t.icvt[d][1] = cvt_to<decltype(z), double>;
        t.tobool[d] = cvt_to_bool<decltype(z)>;
        using To = decltype(z);
        t.toint[D_F32][d] = cvt_float_to_int<float, To>;
        t.toint[D_F64][d] = cvt_float_to_int<double, To>;
        t.toint[D_BOOL][d] = cvt_to<uint8_t, To>;
        for_int_dtypes([&](int from, auto y) { t.toint[from][d] = cvt_to<decltype(y), To>; });
    });
    t.bin[B_COPYSIGN][D_F32] = bin_fn<float, OpCopysign>;
    t.bin[B_LOGADDEXP][D_F32] = bin_fn<float, OpLogAddExp>;
    t.bin[B_COPYSIGN][D_F64] = bin_fn<double, OpCopysign>;
    t.bin[B_FLOORDIV][D_F32] = floordiv_rem<float, false>;  // float16/bfloat16 too, staged through float32
    t.bin[B_REM][D_F32] = floordiv_rem<float, true>;
    t.bin[B_FLOORDIV][D_F64] = floordiv_rem<double, false>;
    t.bin[B_REM][D_F64] = floordiv_rem<double, true>;
    t.tobool[D_F32] = cvt_to_bool<float>;
    t.tobool[D_F64] = cvt_to_bool<double>;
    t.tobool[D_C64] = cvt_complex_to_bool<uint32_t>;
    t.tobool[D_C128] = cvt_complex_to_bool<uint64_t>;
    t.icvt[D_BOOL][0] = cvt_to<uint8_t, float>;
    t.icvt[D_BOOL][1] = cvt_to<uint8_t, double>;
    fill_un_ints<UInvert>(t, U_NOT);
    t.un[U_NOT][D_BOOL] = un_fn<uint8_t, UBoolNot>;
    fill_un_all<USign>(t, U_SIGN, true);
    t.complex_mul[0] = complex_mul<float>;
    t.complex_mul[1] = complex_mul<double>;
    t.complex_div[0] = complex_div_c64;
    t.complex_div[1] = complex_div_c128;
    t.un[U_ABS][D_C64] = abs_c64;
    t.un[U_SIGN][D_C64] = sign_c64;
    t.un[U_CONJ][D_C64] = conj_c64;
    t.un[U_CONJ][D_C128] = conj_c128;
#if defined(__FMA__)
    t.un[U_ABS][D_C128] = abs_c128;
#endif
    t.un[U_RECIP][D_F32] = un_fn<float, URecip>;
    t.un[U_RECIP][D_F64] = un_fn<double, URecip>;
    t.un[U_SQRT][D_F32] = sqrt_f32;
    t.un[U_SQRT][D_F64] = sqrt_f64;
    t.un[U_EXP][D_F32] = un_fn<float, UExp>;
    t.un[U_LOG][D_F32] = un_fn<float, ULog>;
    t.un[U_TANH][D_F32] = un_fn<float, UTanh>;
    t.un[U_SIGMOID][D_F32] = un_fn<float, USigmoid>;
    t.un[U_SILU][D_F32] = un_fn<float, USilu>;
    t.un[U_GELU_TANH][D_F32] = un_fn<float, UGeluTanh>;

    t.squared_deviations[0] = squared_deviations<float>;
    t.squared_deviations[1] = squared_deviations<double>;
    t.nan_sum[0] = nan_sum<float>;
    t.nan_sum[1] = nan_sum<double>;
    t.nan_extreme[0][0] = nan_extreme<float, false>;
    t.nan_extreme[0][1] = nan_extreme<float, true>;
    t.nan_extreme[1][0] = nan_extreme<double, false>;
    t.nan_extreme[1][1] = nan_extreme<double, true>;
    t.nan_fold[0][0] = nan_fold<float, false>;
    t.nan_fold[0][1] = nan_fold<float, true>;
    t.nan_fold[1][0] = nan_fold<double, false>;
    t.nan_fold[1][1] = nan_fold<double, true>;
    t.row[R_SUM][D_F32] = row_sum_flt<float>;
    t.row[R_SUM][D_F64] = row_sum_flt<double>;
    t.row[R_SUM][D_C64] = row_sum_complex<float>;
    t.row[R_SUM][D_C128] = row_sum_complex<double>;
    t.row[R_SUM][D_I64] = row_sum_int<int64_t>;
    t.row[R_SUM][D_U64] = row_sum_int<uint64_t>;
    t.col[R_SUM][D_F32] = col_sum_flt<float>;
    t.row[R_SUM][D_F16] = row_sum_half<cvt_f16_f32>;
    t.row[R_SUM][D_BF16] = row_sum_half<cvt_bf16_f32>;
    t.col[R_SUM][D_F16] = col_each_row<col_sum_half_row<cvt_f16_f32>>;
    t.col[R_SUM][D_BF16] = col_each_row<col_sum_half_row<cvt_bf16_f32>>;
    t.col[R_SUM][D_F64] = col_sum_flt<double>;
    t.row[R_PROD][D_F32] = row_prod_flt<float>;
    t.row[R_PROD][D_F64] = row_prod_flt<double>;
    t.col[R_PROD][D_F32] = col_prod_flt<float>;
    t.col[R_PROD][D_F64] = col_prod_flt<double>;
    t.row[R_PROD][D_C64] = row_prod_complex<float>;
    t.row[R_PROD][D_C128] = row_prod_complex<double>;
    t.col[R_PROD][D_C64] = col_prod_complex<float>;
    t.col[R_PROD][D_C128] = col_prod_complex<double>;
    t.row[R_PROD][D_I64] = row_prod_int<int64_t>;
    t.row[R_PROD][D_U64] = row_prod_int<uint64_t>;
    t.col[R_PROD][D_I64] = col_each_row<col_int_row<int64_t, true>>;
    t.col[R_PROD][D_U64] = col_each_row<col_int_row<uint64_t, true>>;
    auto fill_widening_sum = [&](int d, auto z) {  // bools and integers narrower than 64 bits
        if constexpr (sizeof(z) < 8) {
            t.row[R_SUM][d] = row_sum_widen<decltype(z)>;
            t.col[R_SUM][d] = col_sum_widen<decltype(z)>;
        }
    };
    fill_widening_sum(D_BOOL, uint8_t{});
    for_int_dtypes(fill_widening_sum);
    t.col[R_SUM][D_I64] = col_each_row<col_int_row<int64_t>>;
    t.col[R_SUM][D_U64] = col_each_row<col_int_row<uint64_t>>;
    fill_minmax<true>(t, R_MAX);
    fill_minmax<false>(t, R_MIN);
    for_int_dtypes([&](int d, auto z) { fill_argreduce_dtype<decltype(z)>(t, d); });
    fill_argreduce_dtype<uint8_t>(t, D_BOOL);
    fill_argreduce_dtype<float>(t, D_F32);
    fill_argreduce_dtype<double>(t, D_F64);
    auto fill_count = [&](int d, auto z, auto ignore_sign) {
        t.row[R_NONZERO][d] = row_count_nonzero<decltype(z), decltype(ignore_sign)::value>;
        t.col[R_NONZERO][d] = col_count_nonzero<decltype(z), decltype(ignore_sign)::value>;
    };
    for (int d : {D_BOOL, D_I8, D_U8}) fill_count(d, uint8_t{}, std::false_type{});
    for (int d : {D_I16, D_U16}) fill_count(d, uint16_t{}, std::false_type{});
    for (int d : {D_I32, D_U32}) fill_count(d, uint32_t{}, std::false_type{});
    for (int d : {D_I64, D_U64}) fill_count(d, uint64_t{}, std::false_type{});
    fill_count(D_F32, float{}, std::false_type{});
    fill_count(D_F64, double{}, std::false_type{});
    fill_count(D_F16, uint16_t{}, std::true_type{});
    fill_count(D_BF16, uint16_t{}, std::true_type{});
    t.row[R_NONZERO][D_C64] = row_count_nonzero_complex<uint32_t>;
    t.row[R_NONZERO][D_C128] = row_count_nonzero_complex<uint64_t>;
    t.col[R_NONZERO][D_C64] = col_count_nonzero_complex<uint32_t>;
    t.col[R_NONZERO][D_C128] = col_count_nonzero_complex<uint64_t>;

    t.cvt[C_F16][C_F32] = cvt_f16_f32;
    t.cvt[C_F32][C_F16] = cvt_f32_f16;
    t.cvt[C_BF16][C_F32] = cvt_bf16_f32;
    t.cvt[C_F32][C_BF16] = cvt_f32_bf16;
    t.cvt[C_F32][C_F64] = cvt_f32_f64;
    t.cvt[C_F64][C_F32] = cvt_f64_f32;
    t.cvt[C_F64][C_F16] = cvt_via_f32<double, cvt_f64_f32_odd, cvt_f32_f16, uint16_t>;
    t.cvt[C_F64][C_BF16] = cvt_via_f32<double, cvt_f64_f32_odd, cvt_f32_bf16, uint16_t>;
    t.cvt[C_F16][C_F64] = cvt_via_f32<uint16_t, cvt_f16_f32, cvt_f32_f64, double>;
    t.cvt[C_BF16][C_F64] = cvt_via_f32<uint16_t, cvt_bf16_f32, cvt_f32_f64, double>;
    t.cvt[C_F16][C_BF16] = cvt_via_f32<uint16_t, cvt_f16_f32, cvt_f32_bf16, uint16_t>;
    t.cvt[C_BF16][C_F16] = cvt_via_f32<uint16_t, cvt_bf16_f32, cvt_f32_f16, uint16_t>;
    fill_mvec(t);
    t.math[M_erf][0] = erf_f32;
#if defined(__AVX512F__)
    t.math2[M_pow][0] = pow_f32;
#endif
#define EMBER_EXACT_FILL(fn)       \
    t.math[M_##fn][0] = fn##_f32; \
    t.math[M_##fn][1] = fn##_f64;
    EMBER_EXACT_UNARY(EMBER_EXACT_FILL)
#undef EMBER_EXACT_FILL
    return t;
}

}  // namespace

const IsaTable* EMBER_CAT(isa_table_, EMBER_ISA_NAME)() {
    static const IsaTable table = build_table();
    return &table;
}

}  // namespace ember_cpu
