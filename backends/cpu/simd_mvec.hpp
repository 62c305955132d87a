// glibc's libmvec (vector variants of libm, glibc >= 2.35 for most of these) for the ISA
// simd_impl.cpp is being compiled for: _ZGVeN16v_sinf is sin on 16 floats in a zmm register
// (AVX-512), _ZGVdN8v_ on ymm (AVX2), _ZGVbN4v_ on xmm (SSE2), per the x86-64 vector
// function ABI. Included by simd_impl.cpp inside its anonymous namespace; fills the math
// tables of isa.hpp and the vector gelu (erf form).
//
// Measured on sweeps of float32 inputs (AVX-512 variants, against double libm): sin 1.8 ulp,
// erf 4.0 (so float32 erf has its own kernel, simd_erf.hpp), erfc 1.6, expm1 2.3, log1p 1.1,
// atan 1.2, cosh 2.3, tan 3.2, cbrt 1.9 (2.0 for float64; not exact on cubes, nor is libm's
// scalar cbrt, so cbrt_exact_on_cubes mends the integer cubes; 70x faster than libm's: 0.17
// ms for 1e6 float32 on 2 threads), at 0.6-3.9 TSC ticks per element against 11-25 for scalar
// libm. tests/test_cpu_backend.cpp checks erf, erfc, sin, expm1, log1p on every ISA variant. Tails shorter than a vector go through the same
// vector function (padded), so one input value always gives one result.

#if defined(__AVX512F__)
#define EMBER_MVEC_F(fn) _ZGVeN16v_##fn##f
#define EMBER_MVEC_D(fn) _ZGVeN8v_##fn
#define EMBER_MVEC_F2(fn) _ZGVeN16vv_##fn##f
#define EMBER_MVEC_D2(fn) _ZGVeN8vv_##fn
#define EMBER_MVEC_TF __m512
#define EMBER_MVEC_TD __m512d
#elif defined(__AVX2__)
#define EMBER_MVEC_F(fn) _ZGVdN8v_##fn##f
#define EMBER_MVEC_D(fn) _ZGVdN4v_##fn
#define EMBER_MVEC_F2(fn) _ZGVdN8vv_##fn##f
#define EMBER_MVEC_D2(fn) _ZGVdN4vv_##fn
#define EMBER_MVEC_TF __m256
#define EMBER_MVEC_TD __m256d
#else
#define EMBER_MVEC_F(fn) _ZGVbN4v_##fn##f
#define EMBER_MVEC_D(fn) _ZGVbN2v_##fn
#define EMBER_MVEC_F2(fn) _ZGVbN4vv_##fn##f
#define EMBER_MVEC_D2(fn) _ZGVbN2vv_##fn
#define EMBER_MVEC_TF __m128
#define EMBER_MVEC_TD __m128d
#endif

}  // namespace
}  // namespace ember_cpu
extern "C" {
#define EMBER_MVEC_DECLARE(fn) EMBER_MVEC_TF EMBER_MVEC_F(fn)(EMBER_MVEC_TF); EMBER_MVEC_TD EMBER_MVEC_D(fn)(EMBER_MVEC_TD);
#define EMBER_MVEC_DECLARE2(fn) \
    EMBER_MVEC_TF EMBER_MVEC_F2(fn)(EMBER_MVEC_TF, EMBER_MVEC_TF); EMBER_MVEC_TD EMBER_MVEC_D2(fn)(EMBER_MVEC_TD, EMBER_MVEC_TD);
EMBER_MVEC_UNARY(EMBER_MVEC_DECLARE)
EMBER_MVEC_BINARY(EMBER_MVEC_DECLARE2)
// float64 only: float32 exp, log and tanh have their own kernels (simd_math_f32.hpp)
EMBER_MVEC_TD EMBER_MVEC_D(exp)(EMBER_MVEC_TD);
EMBER_MVEC_TD EMBER_MVEC_D(log)(EMBER_MVEC_TD);
EMBER_MVEC_TD EMBER_MVEC_D(tanh)(EMBER_MVEC_TD);
#undef EMBER_MVEC_DECLARE
#undef EMBER_MVEC_DECLARE2
}
namespace ember_cpu {
namespace {

typedef EMBER_MVEC_TF MvF;
typedef EMBER_MVEC_TD MvD;

// With kStream the full vectors go out by streaming stores from the first vector-aligned
// output (the head before it through the padded path, as the tail): without them a large
// output was read for ownership and written back through the caches, and sin of 1e7
// float32 on one thread took 0.48-0.51 ns an element against 0.27-0.29 up to 6e6.
template <class T, class NV, NV (*F)(NV), bool MayStream = true>
void mvec_unary(const void* in, void* out, int64_t n, int flags) {
    constexpr int w = sizeof(NV) / sizeof(T);
    const T* x = (const T*)in;
    T* o = (T*)out;
    auto padded = [&](int64_t i, int64_t m) {  // o[i, i + m) for m < w
        T t[w];
        for (int k = 0; k < w; ++k) t[k] = x[i + (k < m ? k : 0)];  // pad with a real input
        NV v;
        memcpy(&v, t, sizeof v);
        v = F(v);
        memcpy(t, &v, sizeof v);
        for (int64_t k = 0; k < m; ++k) o[i + k] = t[k];
    };
    int64_t i = 0;
    const bool stream = MayStream && (flags & kStream) && (uintptr_t)o % sizeof(T) == 0;
    if (stream) {
        i = std::min<int64_t>(n, (int64_t)((sizeof(NV) - (uintptr_t)o % sizeof(NV)) % sizeof(NV) / sizeof(T)));
        if (i > 0) padded(0, i);
        for (; i + w <= n; i += w) {
            prefetch_step<T, w>(x + i);
            NV v;
            memcpy(&v, x + i, sizeof v);
            stream_vec(o + i, F(v));
        }
        if (!(flags & kCallerFences)) stream_fence();
    } else {
        for (; i + w <= n; i += w) {
            prefetch_step<T, w>(x + i);
            NV v;
            memcpy(&v, x + i, sizeof v);
            v = F(v);
            memcpy(o + i, &v, sizeof v);
        }
    }
    if (i < n) padded(i, n - i);
}
template <class T, class NV, NV (*F)(NV, NV), bool Prefetch = true>
void mvec_binary(const void* a, const void* b, void* out, int64_t n, int mode) {
    constexpr int w = sizeof(NV) / sizeof(T);
    const T* x = (const T*)a;
    const T* y = (const T*)b;
    T* o = (T*)out;
    if (n <= 0) return;
    // A scalar operand (mode bit set) is broadcast into its register once; full vectors of
    // the others load straight from memory (copying them lane by lane cost as much as pow).
    T lanes_a[w], lanes_b[w];
    for (int k = 0; k < w; ++k) {
        lanes_a[k] = x[0];
        lanes_b[k] = y[0];
    }
    NV va, vb;
    memcpy(&va, lanes_a, sizeof va);
    memcpy(&vb, lanes_b, sizeof vb);
    // The first operand's lines are asked for ahead (prefetch_step): float32 atan2 of 1e7 on
    // one thread 0.75-0.87 -> 0.61-0.72 ns an element, float64 1.79-1.96 -> 1.49-1.71; both
    // operands' gained atan2 10% more and cost hypot 10-30%. hypot goes without (fill_mvec).
    int64_t i = 0;
    for (; i + w <= n; i += w) {
        if (Prefetch && !(mode & 1)) prefetch_step<T, w>(x + i);
        if (!(mode & 1)) memcpy(&va, x + i, sizeof va);
        if (!(mode & 2)) memcpy(&vb, y + i, sizeof vb);
        const NV r = F(va, vb);
        memcpy(o + i, &r, sizeof r);
    }
    if (i < n) {  // the tail, padded with a real input
        const int64_t m = n - i;
        for (int k = 0; k < w; ++k) {
            lanes_a[k] = (mode & 1) ? x[0] : x[i + (k < m ? k : 0)];
            lanes_b[k] = (mode & 2) ? y[0] : y[i + (k < m ? k : 0)];
        }
        memcpy(&va, lanes_a, sizeof va);
        memcpy(&vb, lanes_b, sizeof vb);
        va = F(va, vb);
        memcpy(lanes_a, &va, sizeof va);
        for (int64_t k = 0; k < m; ++k) o[i + k] = lanes_a[k];
    }
}

// Runs body(d) on the inputs widened to double, one vector's worth (w lanes) at a time; the
// lanes past the end are padded with a real input. Results are d, rounded to T once.
template <class T, class Body>
void in_double_lanes(const void* in, void* out, int64_t n, Body body) {
    constexpr int w = sizeof(MvD) / sizeof(double);
    const T* x = (const T*)in;
    T* o = (T*)out;
    for (int64_t i = 0; i < n; i += w) {
        const int64_t m = n - i < w ? n - i : w;
        double d[w];
        for (int k = 0; k < w; ++k) d[k] = (double)x[i + (k < m ? k : 0)];
        body(d);
        for (int64_t k = 0; k < m; ++k) o[i + k] = (T)d[k];
    }
}
template <MvD (*F)(MvD)>
inline void apply_in_place(double* d) {
    MvD v;
    memcpy(&v, d, sizeof v);
    v = F(v);
    memcpy(d, &v, sizeof v);
}

// gelu, erf form, x * erfc(-x / sqrt 2) / 2, in double lanes for float32 too: -x / sqrt 2 in
// float would carry a relative error that erfc's tail magnifies by 2 z^2 (~1e-5 at x = -9).
template <class T>
void gelu_erf_vec(const void* in, void* out, int64_t n, int) {
    in_double_lanes<T>(in, out, n, [](double* d) {
        constexpr int w = sizeof(MvD) / sizeof(double);
        double z[w];
        for (int k = 0; k < w; ++k) z[k] = d[k] * -0.70710678118654752440;
        apply_in_place<EMBER_MVEC_D(erfc)>(z);
        for (int k = 0; k < w; ++k) d[k] = 0.5 * d[k] * z[k];
    });
}

// exp of float64 lanes for logaddexp, where -inf (log 0) and large differences are common
// inputs. libmvec's vector code hands a whole vector to a scalar path when one lane is NaN,
// infinite, outside about [-708.39, 708.9] or subnormal (AVX-512 variant, the Intel host
// of series 40-45: 4.7-6.7 ns an element for a vector with -inf, NaN, -800 or 800 in it,
// 34 for the subnormal results of -745..-708.4, against 0.54). Lanes whose result needs
// no exp get it by a select, the value libmvec gives them: 0 below -746, +inf above 710,
// NaN for NaN; the subnormal results in between, and subnormal inputs, still take the
// scalar path. The test costs two vector operations: exp itself, the softmaxes and sigmoid
// go without it (exp of float64 0.54 -> 0.65 ns an element with it).
inline V<double> exp_f64_libmvec(V<double> x) {
    static_assert(sizeof(V<double>) == sizeof(MvD), "one libmvec vector is one V<double>");
    MvD t;
    memcpy(&t, &x, sizeof t);
    t = EMBER_MVEC_D(exp)(t);
    memcpy(&x, &t, sizeof x);
    return x;
}
__attribute__((noinline)) V<double> exp_f64_settled(V<double> x) {
    const auto under = x < -746.0, over = x > 710.0, nan = x != x;
    V<double> r = exp_f64_libmvec(under | over | nan ? splat(0.0) : x);
    r = under ? splat(0.0) : r;
    r = over ? splat(std::numeric_limits<double>::infinity()) : r;
    return nan ? x : r;
}
inline V<double> exp_f64_checked(V<double> x) {
    constexpr uint64_t k708 = 0x4086200000000000;  // the bits of 708.0
    if (any_set(((V<uint64_t>)x << 1) > (k708 << 1))) return exp_f64_settled(x);  // |x| > 708 or NaN: the sign shifted out
    return exp_f64_libmvec(x);
}

// logaddexp of float64 lanes: m + log1p(exp(-|a - b|)) through exp_f64_checked and libmvec's log1p
// (float32: OpLogAddExp, simd_unary_ops.hpp), equal operands a + ln2, as the reference.
// log1p(t) of a t below 2^-60 (zero and subnormals among them) or NaN is t, without
// libmvec, whose log1p leaves its vector code for those (37 ns an element for a subnormal t).
inline MvD logaddexp_f64(MvD va, MvD vb) {
    V<double> a, b;
    memcpy(&a, &va, sizeof a);
    memcpy(&b, &vb, sizeof b);
    const V<double> d = a - b, minus_abs = (V<double>)((V<uint64_t>)d | (uint64_t(1) << 63));
    const V<double> e = exp_f64_checked(minus_abs);
    const auto is_log1p = e >= 0x1p-60;
    const V<double> arg = is_log1p ? e : splat(0.0);
    MvD t;
    memcpy(&t, &arg, sizeof t);
    t = EMBER_MVEC_D(log1p)(t);
    V<double> l;
    memcpy(&l, &t, sizeof l);
    l = is_log1p ? l : e;
    const V<double> r = a == b ? a + 0.693147180559945309417 : (d > 0.0 ? a : b) + l;
    memcpy(&t, &r, sizeof t);
    return t;
}

// sigmoid of float64 lanes through libmvec's exp, by the float32 kernel's formula
// (simd_math_f32.hpp), which is the reference's: e = exp(-|x|), (x >= 0 ? 1 : e) / (1 + e):
// exp's error (<= 4 ulp) and two roundings. libm's exp per element took 3.9 ms for 1e6
// (NumPy's 1 / (1 + np.exp(-x)): 1.1 ms).
inline V<double> sigmoid_f64_lanes(V<double> x) {
    const V<double> minus_abs = (V<double>)((V<uint64_t>)x | (uint64_t(1) << 63));
    MvD t;
    memcpy(&t, &minus_abs, sizeof t);
    t = EMBER_MVEC_D(exp)(t);
    V<double> e;
    memcpy(&e, &t, sizeof e);
    return (x >= 0.0 ? splat(1.0) : e) / (1.0 + e);
}
template <bool TimesX>  // silu: x * sigmoid(x)
inline MvD sigmoid_f64(MvD v) {
    V<double> x;
    memcpy(&x, &v, sizeof x);
    const V<double> r = TimesX ? x * sigmoid_f64_lanes(x) : sigmoid_f64_lanes(x);
    memcpy(&v, &r, sizeof v);
    return v;
}

// cbrt through libmvec (<= 2 ulp), made exact on the cubes of integers (up to 2^12 in
// magnitude for float32, 2^26 for float64), as NumPy's and the reference's are: cbrt(27.0)
// is 3.0, not the neighbour of 3 that libmvec (or glibc's scalar cbrt) can give. A lane
// whose result rounds to an integer r with r * r * r == x takes r: r * r is exact below
// those bounds, so the product is rounded once, and r^3 within half an ulp of x makes r the
// correctly rounded cube root of x. Other lanes keep libmvec's result; so does -0.
template <class T, class NV, NV (*F)(NV)>
inline NV cbrt_exact_on_cubes(NV v) {
    static_assert(sizeof(NV) == sizeof(V<T>), "one libmvec vector is one V<T>");
    constexpr T magic = sizeof(T) == 4 ? T(0x1.8p23) : T(0x1.8p52), limit = sizeof(T) == 4 ? T(0x1p12) : T(0x1p26);
    V<T> x, y;
    memcpy(&x, &v, sizeof x);
    v = F(v);
    memcpy(&y, &v, sizeof y);
    const V<T> r = (y + magic) - magic;  // y rounded to an integer (|y| < limit here)
    const auto cube = (x != T(0)) & (r >= -limit) & (r <= limit) & (r * r * r == x);
    y = cube ? r : y;
    memcpy(&v, &y, sizeof v);
    return v;
}

void fill_mvec(IsaTable& t) {
#define EMBER_MVEC_FILL(fn)                                                       \
    t.math[M_##fn][0] = mvec_unary<float, MvF, EMBER_MVEC_F(fn)>;                 \
    t.math[M_##fn][1] = mvec_unary<double, MvD, EMBER_MVEC_D(fn)>;
#define EMBER_MVEC_FILL2(fn)                                                      \
    t.math2[M_##fn][0] = mvec_binary<float, MvF, EMBER_MVEC_F2(fn)>;              \
    t.math2[M_##fn][1] = mvec_binary<double, MvD, EMBER_MVEC_D2(fn)>;
    EMBER_MVEC_UNARY(EMBER_MVEC_FILL)
    // float32 erfc and log1p without streaming stores: with them, 1e7 on one thread took
    // 1.08-1.20 against 0.66-0.77 ns an element (erfc) and 0.63-1.15 against 0.56-0.60
    // (log1p), while the others gained 20-40% (sin 0.39-0.45 -> 0.29-0.30; tan the same);
    // two threads timed the same. Since the loop asks for its input ahead (prefetch_step)
    // both are faster (erfc 0.44, log1p 0.37-0.39) and streaming still costs them 5-10%
    // (0.49, 0.39-0.40): they write too slowly for the saved reads of their output to count.
    // Measured on the AVX-512 Intel host only.
    t.math[M_erfc][0] = mvec_unary<float, MvF, EMBER_MVEC_F(erfc), false>;
    t.math[M_log1p][0] = mvec_unary<float, MvF, EMBER_MVEC_F(log1p), false>;
    EMBER_MVEC_BINARY(EMBER_MVEC_FILL2)
    // hypot without prefetch_step: with it, 1e7 float32 on one thread took 0.73-0.79 against
    // 0.58-0.62 ns an element, float64 1.74-1.79 against 1.60-1.65 (1e6 5% slower). Not
    // understood; measured on the AVX-512 Intel host only.
    t.math[M_cbrt][0] = mvec_unary<float, MvF, cbrt_exact_on_cubes<float, MvF, EMBER_MVEC_F(cbrt)>>;
    t.math[M_cbrt][1] = mvec_unary<double, MvD, cbrt_exact_on_cubes<double, MvD, EMBER_MVEC_D(cbrt)>>;
    t.math2[M_hypot][0] = mvec_binary<float, MvF, EMBER_MVEC_F2(hypot), false>;
    t.math2[M_hypot][1] = mvec_binary<double, MvD, EMBER_MVEC_D2(hypot), false>;
#undef EMBER_MVEC_FILL
#undef EMBER_MVEC_FILL2
    t.un[U_EXP][D_F64] = mvec_unary<double, MvD, EMBER_MVEC_D(exp)>;
    t.un[U_LOG][D_F64] = mvec_unary<double, MvD, EMBER_MVEC_D(log)>;
    t.un[U_TANH][D_F64] = mvec_unary<double, MvD, EMBER_MVEC_D(tanh)>;
    t.bin[B_LOGADDEXP][D_F64] = mvec_binary<double, MvD, logaddexp_f64>;
    t.un[U_SIGMOID][D_F64] = mvec_unary<double, MvD, sigmoid_f64<false>>;
    t.un[U_SILU][D_F64] = mvec_unary<double, MvD, sigmoid_f64<true>>;
    t.un[U_GELU_ERF][D_F32] = gelu_erf_vec<float>;
    t.un[U_GELU_ERF][D_F64] = gelu_erf_vec<double>;
}
