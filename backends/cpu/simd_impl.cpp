// SIMD kernels, written once with GCC vector extensions and compiled once per instruction
// set (CMakeLists.txt generates simd_<isa>.cpp, which defines EMBER_ISA_NAME and includes
// this file, with -mavx2 / -mavx512* flags). The vector width follows the flags: 16 bytes
// (SSE2, every x86-64), 32 (AVX2 + FMA) or 64 (AVX-512).
//
// This file holds the vector types and load/store helpers, the copy loops and the ISA
// table; the kernels come from fragments included in order (each uses what the ones before
// it define): simd_binary_ops, simd_math_f32, simd_unary_ops, simd_complex, simd_pow,
// simd_reduce and simd_convert, then the sort, transpose, small-GEMM, GEMV, FFT and
// complex-steps headers.
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
#include <complex>
#include <initializer_list>
#include <limits>
#include <type_traits>
#include <utility>

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#endif

#include "../common/complex_reciprocal.hpp"
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
void copy_bytes(const void* in, void* out, int64_t nbytes, int flags);  // below, with kStream
#include "streamed_pieces.hpp"

// Each step of a long pass over an input first asks for the lines 2 KiB ahead of it.
// Reductions: the hardware prefetchers alone kept one core of the Emerald Rapids host at
// 18 GB/s from L3 and 29 GB/s from L2 in a float32 sum; with this, 23 and 37 (sum of 1e7
// float32 on two threads 0.88-0.91 -> 0.79-0.85 ms, 1e6 66-80 -> 47-59 us). Unary kernels
// whose result is a long chain of dependent steps (gelu): the loads of the next vectors
// wait behind it, and the Intel host of series 41 ran gelu_tanh of 1e7 float32 at
// 0.47-0.50 ns an element on one thread against 0.34 at 1e6; with this, 0.31-0.32.
constexpr int64_t kStreamPrefetchBytes = 2048;
template <class T, int64_t Elems>
inline __attribute__((always_inline)) void prefetch_step(const T* p) {
    for (int64_t line = 0; line < Elems * (int64_t)sizeof(T); line += 64) __builtin_prefetch((const char*)p + kStreamPrefetchBytes + line);
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

#include "simd_binary_ops.hpp"
#include "simd_math_f32.hpp"
#include "simd_unary_ops.hpp"
#include "simd_complex.hpp"
#include "simd_pow.hpp"
#include "simd_reduce.hpp"
#include "simd_convert.hpp"

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
#if defined(__FMA__)
#include "simd_gelu_erf.hpp"
#endif
#include "simd_random.hpp"
#include "simd_sortnet.hpp"
#include "simd_quicksort.hpp"
#include "simd_softmax.hpp"
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
// Packed rows of 5 to 16 elements ((1e5, 10) in rows), a row in each lane of the vectors:
// vector j holds element j of W<U> rows. Their keys are encoded together (the rows are
// one block), moved into the lanes, and ordered with each element's position (its index in
// the row) by odd-even transposition: adjacent compare-exchanges that swap only on a
// strictly greater key, so equal keys keep their input order, as the stable sorts do.
// sort then writes each row's elements from its positions, with their own bits (the keys
// of -0.0 and +0.0, and of NaNs, are merged); argsort the positions. One sort per row
// through sort_short_lines took 44 ns a row of 10 int32 on one thread (the Intel host
// of series 40-45).
template <KeyKind K, class U>
void sort_packed_rows(const void* src_, void* dst, int64_t rows, int n, uint64_t inf_bits, uint64_t flip, bool indices) {
    using VU = V<U>;
    constexpr int L = W<U>;
    const U* src = (const U*)src_;
    alignas(64) U keys[kPackedRowsMax * L];
    alignas(64) U lane[L];
    int64_t r0 = 0;
    for (; r0 + L <= rows; r0 += L) {
        const U* block = src + r0 * n;
        encode_line<K, false>(block, std::integral_constant<int64_t, 1>{}, (int64_t)L * n, keys, U(inf_bits), U(flip));
        VU key[kPackedRowsMax], at[kPackedRowsMax];
        for (int j = 0; j < n; ++j) {
            for (int r = 0; r < L; ++r) lane[r] = keys[r * n + j];
            key[j] = load(lane);
            at[j] = splat<U>((U)j);
        }
        for (int round = 0; round < n; ++round)
            for (int i = round & 1; i + 1 < n; i += 2) {
                const auto swap = key[i] > key[i + 1];
                const VU ka = key[i], kb = key[i + 1], pa = at[i], pb = at[i + 1];
                key[i] = swap ? kb : ka;
                key[i + 1] = swap ? ka : kb;
                at[i] = swap ? pb : pa;
                at[i + 1] = swap ? pa : pb;
            }
        for (int j = 0; j < n; ++j) {
            store_vec(lane, at[j]);
            if (indices) {
                int64_t* out = (int64_t*)dst + r0 * n + j;
                for (int r = 0; r < L; ++r) out[r * n] = (int64_t)lane[r];
            } else {
                U* out = (U*)dst + r0 * n + j;
                for (int r = 0; r < L; ++r) out[r * n] = block[r * n + (int64_t)lane[r]];
            }
        }
    }
    for (; r0 < rows; ++r0) {  // the last rows, one at a time by the same steps
        const U* row = src + r0 * n;
        U key[kPackedRowsMax], at[kPackedRowsMax];
        for (int j = 0; j < n; ++j) key[j] = encode_key<K>(row[j], U(inf_bits), U(flip)), at[j] = (U)j;
        for (int round = 0; round < n; ++round)
            for (int i = round & 1; i + 1 < n; i += 2)
                if (key[i] > key[i + 1]) std::swap(key[i], key[i + 1]), std::swap(at[i], at[i + 1]);
        for (int j = 0; j < n; ++j) {
            if (indices) ((int64_t*)dst)[r0 * n + j] = (int64_t)at[j];
            else ((U*)dst)[r0 * n + j] = row[at[j]];
        }
    }
}

template <class U>
void fill_sort_keys(IsaTable& t, int wide) {
    t.sort_packed_rows[kUnsigned][wide] = sort_packed_rows<kUnsigned, U>;
    t.sort_packed_rows[kSigned][wide] = sort_packed_rows<kSigned, U>;
    t.sort_packed_rows[kFloat][wide] = sort_packed_rows<kFloat, U>;
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
#include "simd_gemv.hpp"
#include "simd_fft.hpp"
#include "simd_complex_steps.hpp"
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
    t.int_gemm[0] = small_gemm<uint16_t, false>;
    t.int_gemm[1] = small_gemm<uint32_t, false>;
    t.int_gemm[2] = small_gemm<uint64_t, false>;
    t.row_dots[0] = row_dots<float>;
    t.row_dots[1] = row_dots<double>;
    t.paired_row_dots[0] = paired_row_dots<float>;
    t.paired_row_dots[1] = paired_row_dots<double>;
    t.paired_column_dots[0] = paired_column_dots<float>;
    t.paired_column_dots[1] = paired_column_dots<double>;
    t.row_dots[2] = row_dots<F16Matrix>;
    t.row_dots[3] = row_dots<BF16Matrix>;
    t.row_combination[0] = row_combination<float>;
    t.row_combination[1] = row_combination<double>;
    t.row_combination[2] = row_combination<F16Matrix>;
    t.row_combination[3] = row_combination<BF16Matrix>;
    t.row_dots[4] = row_dots<uint16_t>;
    t.row_dots[5] = row_dots<uint32_t>;
    t.row_dots[6] = row_dots<uint64_t>;
    t.row_dots[7] = row_dots<U8Matrix>;
    t.row_combination[4] = row_combination<uint16_t>;
    t.row_combination[5] = row_combination<uint32_t>;
    t.row_combination[6] = row_combination<uint64_t>;
    t.row_combination[7] = row_combination<U8Matrix>;
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
    t.bin[B_LEAKY_RELU][D_F32] = bin_fn<float, OpLeakyRelu>;
    t.bin[B_LEAKY_RELU][D_F64] = bin_fn<double, OpLeakyRelu>;
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
    t.complex_steps[0][0] = complex_steps<float, false>;
    t.complex_steps[0][1] = complex_steps<float, true>;
    t.complex_steps[1][0] = complex_steps<double, false>;
    t.complex_steps[1][1] = complex_steps<double, true>;
    t.un[U_ABS][D_C64] = abs_c64;
    t.un[U_SIGN][D_C64] = sign_c64;
    t.un[U_CONJ][D_C64] = conj_c64;
    t.un[U_CONJ][D_C128] = conj_c128;
    t.un[U_NEG][D_C64] = negative_complex<float>;
    t.un[U_NEG][D_C128] = negative_complex<double>;
    t.un[U_RECIP][D_C64] = recip_c64;
    t.un[U_RECIP][D_C128] = recip_c128;
#if defined(__FMA__)
    t.un[U_ABS][D_C128] = abs_c128;
#endif
    t.un[U_RECIP][D_F32] = un_fn<float, URecip>;
    t.un[U_RECIP][D_F64] = un_fn<double, URecip>;
    t.un[U_SQRT][D_F32] = sqrt_f32;
    t.un[U_SQRT][D_F64] = sqrt_f64;
    t.un[U_POW_HALF][D_F32] = pow_half<float>;
    t.un[U_POW_HALF][D_F64] = pow_half<double>;
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
    t.row[R_SUM][D_F16] = row_half<cvt_f16_f32, row_sum_flt<float>>;
    t.row[R_SUM][D_BF16] = row_half<cvt_bf16_f32, row_sum_flt<float>>;
    t.col[R_SUM][D_F16] = col_each_row<col_half_row<cvt_f16_f32, col_sum_flt<float>>>;
    t.col[R_SUM][D_BF16] = col_each_row<col_half_row<cvt_bf16_f32, col_sum_flt<float>>>;
    t.row[R_PROD][D_F16] = row_half<cvt_f16_f32, row_prod_flt<float>>;
    t.row[R_PROD][D_BF16] = row_half<cvt_bf16_f32, row_prod_flt<float>>;
    t.col[R_PROD][D_F16] = col_each_row<col_half_row<cvt_f16_f32, col_prod_flt<float>>>;
    t.col[R_PROD][D_BF16] = col_each_row<col_half_row<cvt_bf16_f32, col_prod_flt<float>>>;
    t.col[R_SUM][D_F64] = col_sum_flt<double>;
    t.row_sum_as_f64[0] = row_sum_flt<int64_t>;
    t.row_sum_as_f64[1] = row_sum_flt<uint64_t>;
    t.col_sum_as_f64[0] = col_sum_flt<int64_t>;
    t.col_sum_as_f64[1] = col_sum_flt<uint64_t>;
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
    fill_softmax(t);
    t.math[M_erf][0] = erf_f32;
#if defined(__FMA__)
    t.un[U_GELU_ERF][D_F32] = un_fn<float, UGeluErf>;
#endif
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
