// Unary op functors and their loops,
// for the ISA simd_impl.cpp is being compiled for (included there, inside its anonymous
// namespace, after the vector types and helpers it defines).

struct UNeg {
    template <class T> static inline V<T> f(V<T> x) {
        if constexpr (is_flt<T>) return -x;  // the sign flipped: -(+0.0) is -0.0, where 0 - x gives +0.0
        else return wrap_sub<T>(V<T>{}, x);
    }
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
// 1) / 2), and never above t. Equal operands (equal infinities included) give a + ln2, as the reference; a NaN
// operand makes the difference, and so the result, NaN. softplus is logaddexp(x, 0).
struct OpLogAddExp {
    static constexpr bool boolean = false;
    static constexpr bool narrow_scalar = false;
    template <class T> static inline V<T> f(V<T> a, V<T> b) {
        static_assert(std::is_same_v<T, float>, "float32 lanes");
        const VF d = a - b, t = exp_f32(-vabs(d));
        const auto upper = t >= 0.5f;
        // The kernel's t * t of a t below 2^-63 would be subnormal: a microcode assist on
        // every such vector (softplus of -50 took 7.9 ns an element, of -100 24, against
        // 0.66; the Intel host of series 40-45). It gets at least 2^-60 instead, and since
        // log1p(t) < t the smaller of the two is log1p(t) (which below 2^-60 rounds to t).
        // A NaN t stays NaN through both. (Selects of t and 0 by a test of t cost 8%.)
        const VF floor = splat(0x1p-60f), lower_arg = t > floor ? t : floor;
        VF l = log1p_kernel(upper ? (t - 1.0f) * 0.5f : lower_arg, upper ? splat(1.0f) : splat(0.0f));
        l = l < t ? l : t;
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
            prefetch_step<T, 2 * w>(x + i);
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
        prefetch_step<T, w>(x + i);
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
// x ** 0.5 as pow gives it (C's Annex F): the square root, which is correctly rounded as
// pow's value is, but for pow(-0, 0.5) = +0 and pow(-inf, 0.5) = +inf, where sqrt gives -0
// and NaN. Negative x gives the default NaN either way (0/0 in glibc's pow).
template <class T>
void pow_half(const void* in, void* out, int64_t n, int) {
    const T* __restrict x = (const T*)in;
    T* __restrict o = (T*)out;
    constexpr T inf = __builtin_inf();
    for (int64_t i = 0; i < n; ++i) {  // the root of every lane, then selects: a sqrt under a condition was not vectorised
        const T v = x[i], r = __builtin_sqrt(v);
        o[i] = v == T(0) ? T(0) : v == -inf ? inf : r;
    }
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
    void fn##_run(const T* __restrict x, R* __restrict o, int64_t n) { \
        for (int64_t i = 0; i < n; ++i) {                              \
            const T v = x[i];                                          \
            o[i] = (R)(expr);                                          \
        }                                                              \
    }                                                                  \
    void fn(const void* in, void* out, int64_t n, int flags) {         \
        if (!(flags & kStream) || sizeof(R) != 8) return fn##_run((const T*)in, (R*)out, n); \
        auto run = [in](int64_t k, char* o, int64_t m) { fn##_run((const T*)in + k, (R*)o, m); }; \
        run_streamed_in_pieces(run, (char*)out, sizeof(R), n, copy_bytes);  \
        if (!(flags & kCallerFences)) stream_fence();                  \
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
        // float32: the dividends' lines two blocks ahead (1e7 on one thread 2.1 -> 1.1-1.2 ns
        // an element). float64 gained nothing at 1e7 and lost 10-30% at 1e6 (in the L2) so.
        if (sizeof(T) == 4 && sa) prefetch_step<T, kBlock>(pa);
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
