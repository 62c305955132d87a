// float32/float64 elementwise math without a kernel in simd_impl.cpp (sin, erf, pow, ...),
// over any strides, on the thread pool. The functions glibc's libmvec vectorises go
// through it (isa.hpp, simd_mvec.hpp: <= 4 ulp; float32 pow on AVX-512 through
// simd_impl.cpp's own kernel), rounding and classification through simd_impl.cpp's exact
// loops, wherever the output is contiguous along its last dim (stepped and transposed
// inputs gathered first, as for exp: a scalar libm call per element made pow of a
// transposed (1e6, 3) float32 take 28 ms); everything else is the same libm call as the
// reference backend, per element (bit-identical to it). Complex rounding and
// classification run on the parts; float16/bfloat16 through the float32 vector functions
// (staged in L1 chunks, rounded once), except nextafter; their classification reads the
// bits. Other dtypes go to the reference kernel (complex ones on slices across the pool).
#include <algorithm>
#include <cmath>
#include <string_view>

#include "cpu_common.hpp"

namespace ember_cpu {
namespace {

// One op: how each element is computed, and whether the result is bool.
#define LIBM_UNARY(X)                                                   \
    X(expm1, false, std::expm1(v))                                      \
    X(log1p, false, std::log1p(v))                                      \
    X(log2, false, std::log2(v))                                        \
    X(log10, false, std::log10(v))                                      \
    X(sin, false, std::sin(v))                                          \
    X(cos, false, std::cos(v))                                          \
    X(tan, false, std::tan(v))                                          \
    X(asin, false, std::asin(v))                                        \
    X(acos, false, std::acos(v))                                        \
    X(atan, false, std::atan(v))                                        \
    X(sinh, false, std::sinh(v))                                        \
    X(cosh, false, std::cosh(v))                                        \
    X(asinh, false, std::asinh(v))                                      \
    X(acosh, false, std::acosh(v))                                      \
    X(atanh, false, std::atanh(v))                                      \
    X(erf, false, std::erf(v))                                          \
    X(erfc, false, std::erfc(v))                                        \
    X(cbrt, false, std::cbrt(v))                                        \
    X(floor, false, std::floor(v))                                      \
    X(ceil, false, std::ceil(v))                                        \
    X(trunc, false, std::trunc(v))                                      \
    X(round, false, std::nearbyint(v)) /* half to even, as the reference */ \
    X(isnan, true, std::isnan(v))                                       \
    X(isinf, true, std::isinf(v))                                       \
    X(isfinite, true, std::isfinite(v))                                 \
    X(signbit, true, std::signbit(v))
#define LIBM_BINARY(X)                 \
    X(pow, std::pow(a, b))             \
    X(atan2, std::atan2(a, b))         \
    X(hypot, std::hypot(a, b))         \
    X(nextafter, std::nextafter(a, b)) \
    X(fmod, std::fmod(a, b))

// The libmvec slot of an op, or -1.
constexpr int mvec_unary_of(std::string_view op) {
#define EMBER_MVEC_MATCH(fn) if (op == #fn) return M_##fn;
    EMBER_MVEC_UNARY(EMBER_MVEC_MATCH)
    EMBER_EXACT_UNARY(EMBER_MVEC_MATCH)
    return -1;
}
constexpr int mvec_binary_of(std::string_view op) {
    EMBER_MVEC_BINARY(EMBER_MVEC_MATCH)
    return -1;
#undef EMBER_MVEC_MATCH
}

// Elements per task: libm calls cost 5-50 ns, so a few thousand are worth a thread.
constexpr int64_t kGrain = 1 << 12;

template <class T, bool Bool, class F>
void unary_loop(const Geometry& g, const char* px, char* po, UnFn vec, F f) {
    using R = std::conditional_t<Bool, uint8_t, T>;
    const int64_t so = g.st[0][g.nd - 1], sx = g.st[1][g.nd - 1];
    // A single element takes the vector function too, so it gets the same result as in an
    // array (libm's scalar function rounded about a fifth of sin's results the other way).
    if (g.size != 1 && (so != 1 || sx != 1)) vec = nullptr;
    parallel_range(g.size, kParallelCostly, kGrain, [&](int64_t begin, int64_t end) {
        walk_runs<2>(g, begin, end, [&](const int64_t* off, int64_t len) {
            R* o = (R*)po + off[0];
            const T* x = (const T*)px + off[1];
            if (vec) vec(x, o, len, 0);
            else for (int64_t i = 0; i < len; ++i) o[i * so] = (R)f(x[i * sx]);
        });
    });
}

// round, isnan, isinf and isfinite of complex values act on the parts: round each part (the
// real kernel over twice the reals), or classify each and combine the pair's answers (both
// finite for isfinite, either for isnan and isinf), as the reference does. Contiguous runs;
// false for anything else.
bool complex_by_parts(const ember_kernel_call_t* c, int mvec) {
    const ember_view_t& x = c->in[0];
    const ember_view_t& o = c->out[0];
    const bool by_parts = mvec == M_round || mvec == M_isnan || mvec == M_isinf || mvec == M_isfinite;
    if (!by_parts || (x.dtype != EMBER_COMPLEX64 && x.dtype != EMBER_COMPLEX128)) return false;
    const bool classify = mvec != M_round;
    if (o.dtype != (classify ? (int32_t)EMBER_BOOL : x.dtype)) return false;
    const ember_view_t* views[2] = {&o, &x};
    Geometry g;
    if (!make_geometry(views, 2, g)) return true;
    if (g.shape[g.nd - 1] > 1 && (g.st[0][g.nd - 1] != 1 || g.st[1][g.nd - 1] != 1)) return false;
    const UnFn parts = g_isa->math[mvec][x.dtype == EMBER_COMPLEX128];
    if (!parts) return false;
    const int64_t sz = (int64_t)itemsize_of(x.dtype), osz = (int64_t)itemsize_of(o.dtype);
    const char* px = base_ptr(x);
    char* po = base_ptr(o);
    parallel_range(g.size, kParallelCheap, 1 << 14, [&](int64_t begin, int64_t end) {
        walk_runs<2>(g, begin, end, [&](const int64_t* off, int64_t len) {
            const char* z = px + off[1] * sz;
            char* r = po + off[0] * osz;
            if (!classify) return parts(z, r, 2 * len, 0);
            constexpr int64_t kPiece = 2048;
            alignas(64) uint8_t each[2 * kPiece];
            for (int64_t i = 0; i < len; i += kPiece) {
                const int64_t n = std::min(kPiece, len - i);
                parts(z + i * sz, each, 2 * n, 0);
                uint8_t* out = (uint8_t*)r + i;
                if (mvec == M_isfinite)
                    for (int64_t k = 0; k < n; ++k) out[k] = each[2 * k] & each[2 * k + 1];
                else
                    for (int64_t k = 0; k < n; ++k) out[k] = each[2 * k] | each[2 * k + 1];
            }
        });
    });
    return true;
}

// isnan, isinf, isfinite and signbit of float16/bfloat16 read the bits (the reference
// widens each value to float32 first, which keeps its class and sign): (h & 0x7fff)
// against the infinity's pattern, or the top bit.
bool classify_half(const ember_kernel_call_t* c, int mvec) {
    const ember_view_t& x = c->in[0];
    const ember_view_t& o = c->out[0];
    if (half_slot(x.dtype) < 0 || o.dtype != EMBER_BOOL) return false;
    if (mvec != M_isnan && mvec != M_isinf && mvec != M_isfinite && mvec != M_signbit) return false;
    const ember_view_t* views[2] = {&o, &x};
    Geometry g;
    if (!make_geometry(views, 2, g)) return true;
    const uint16_t inf = x.dtype == EMBER_FLOAT16 ? 0x7c00 : 0x7f80;
    const int64_t so = g.st[0][g.nd - 1], sx = g.st[1][g.nd - 1];
    const char* px = base_ptr(x);
    char* po = base_ptr(o);
    auto run = [&](auto test) {
        parallel_range(g.size, kParallelCheap, 1 << 14, [&](int64_t begin, int64_t end) {
            walk_runs<2>(g, begin, end, [&](const int64_t* off, int64_t len) {
                const uint16_t* h = (const uint16_t*)px + off[1];
                uint8_t* r = (uint8_t*)po + off[0];
                if (so == 1 && sx == 1)
                    for (int64_t i = 0; i < len; ++i) r[i] = test(h[i]);
                else
                    for (int64_t i = 0; i < len; ++i) r[i * so] = test(h[i * sx]);
            });
        });
    };
    switch (mvec) {
        case M_isnan: run([inf](uint16_t h) -> uint8_t { return (h & 0x7fff) > inf; }); break;
        case M_isinf: run([inf](uint16_t h) -> uint8_t { return (h & 0x7fff) == inf; }); break;
        case M_isfinite: run([inf](uint16_t h) -> uint8_t { return (h & 0x7fff) < inf; }); break;
        default: run([](uint16_t h) -> uint8_t { return h >> 15; }); break;
    }
    return true;
}

// Rounding and classification of integers (and classification of bool) have answers
// known without computing: rounding is the identity, isnan and isinf are false, isfinite
// true, signbit of unsigned false. They run as the backend's copy kernel, of x or of a
// broadcast constant (the reference computed them per element: round of 1e6 int32 took
// 2.6x, isnan 1.4x NumPy's time). signbit of signed integers stays with the reference.
bool integer_exact(const ember_kernel_call_t* c, int mvec, ember_status_t& status) {
    const ember_view_t& x = c->in[0];
    const ember_view_t& o = c->out[0];
    const bool integer = x.dtype >= EMBER_INT8 && x.dtype <= EMBER_UINT64;
    const bool is_unsigned = x.dtype >= EMBER_UINT8 && x.dtype <= EMBER_UINT64;
    if (mvec == M_floor || mvec == M_ceil || mvec == M_trunc || mvec == M_round) {
        if (!integer || o.dtype != x.dtype) return false;
        status = copy_in_c_order(c, x, o);
        return true;
    }
    const bool classify = mvec == M_isnan || mvec == M_isinf || mvec == M_isfinite || (mvec == M_signbit && is_unsigned);
    if (!classify || !(integer || (x.dtype == EMBER_BOOL && mvec != M_signbit)) || o.dtype != EMBER_BOOL) return false;
    static const uint8_t kFalse = 0, kTrue = 1;
    static const int64_t kNoSteps[EMBER_MAX_DIMS] = {};
    const ember_view_t answer{(void*)(mvec == M_isfinite ? &kTrue : &kFalse), 0, EMBER_BOOL, o.ndim, o.shape, kNoSteps};
    status = copy_in_c_order(c, answer, o);
    return true;
}

// Other dtypes go to the reference kernel: complex and half ones (which it computes in
// libm's complex functions or in float32) on slices across the pool, the rest (integers,
// bool: cheap or an error) as they are.
ember_status_t reference_for(const ember_kernel_call_t* c) {
    const int32_t dt = c->in[0].dtype;
    const bool costly = dt == EMBER_COMPLEX64 || dt == EMBER_COMPLEX128 || dt == EMBER_FLOAT16 || dt == EMBER_BFLOAT16;
    return costly ? reference_on_slices(c, kElementwise) : delegate(c);
}

template <bool Bool, class F>
ember_status_t unary(const ember_kernel_call_t* c, int mvec, F f) {
    const ember_view_t& x = c->in[0];
    const ember_view_t& o = c->out[0];
    const bool float_in = x.dtype == EMBER_FLOAT32 || x.dtype == EMBER_FLOAT64;
    if (!float_in && complex_by_parts(c, mvec)) return EMBER_OK;
    if (ember_status_t status; !float_in && integer_exact(c, mvec, status)) return status;
    if (!Bool && mvec >= 0 && unary_half_staged(c, g_isa->math[mvec][0])) return EMBER_OK;
    if (Bool && classify_half(c, mvec)) return EMBER_OK;
    if (!float_in || o.dtype != (Bool ? (int32_t)EMBER_BOOL : x.dtype)) return reference_for(c);
    const ember_view_t* views[2] = {&o, &x};
    Geometry g;
    if (!make_geometry(views, 2, g)) return EMBER_OK;
    const int is64 = x.dtype == EMBER_FLOAT64;
    UnFn vec = mvec >= 0 ? g_isa->math[mvec][is64] : nullptr;
    if (vec && unary_vector_runs(g, base_ptr(x), itemsize_of(x.dtype), base_ptr(o), itemsize_of(o.dtype), vec, is64 ? kParallelCostly / 2 : kParallelCostly,
                                 Bool ? 0 : stream_flag(g.size * (int64_t)itemsize_of(o.dtype), o, {&x})))
        return EMBER_OK;
    if (is64) unary_loop<double, Bool>(g, base_ptr(x), base_ptr(o), vec, f);
    else unary_loop<float, Bool>(g, base_ptr(x), base_ptr(o), vec, f);
    return EMBER_OK;
}

template <class T, class F>
void binary_loop(const Geometry& g, const char* pa, const char* pb, char* po, BinFn vec, F f) {
    const int64_t so = g.st[0][g.nd - 1], sa = g.st[1][g.nd - 1], sb = g.st[2][g.nd - 1];
    // The vector functions take unit-stride operands or broadcast scalars (stride 0; all
    // three for a single element, which so gets the same result as in an array).
    if (g.size != 1 && (so != 1 || (sa != 1 && sa != 0) || (sb != 1 && sb != 0))) vec = nullptr;
    const int mode = (sa == 0 ? 1 : 0) | (sb == 0 ? 2 : 0);
    parallel_range(g.size, kParallelCostly, kGrain, [&](int64_t begin, int64_t end) {
        walk_runs<3>(g, begin, end, [&](const int64_t* off, int64_t len) {
            T* o = (T*)po + off[0];
            const T* a = (const T*)pa + off[1];
            const T* b = (const T*)pb + off[2];
            if (vec) vec(a, b, o, len, mode);
            else for (int64_t i = 0; i < len; ++i) o[i * so] = f(a[i * sa], b[i * sb]);
        });
    });
}

// Whether b (the exponent, operand 2 of g) is one value broadcast, equal to `value`.
template <class T>
bool exponent_is(const Geometry& g, const char* pb, T value) {
    for (int d = 0; d < g.nd; ++d)
        if (g.st[2][d] != 0) return false;
    return *(const T*)pb == value;
}
// x ** 2 for a broadcast exponent of 2: x * x, the correctly rounded square (what a
// correctly rounded pow gives), at the speed of a multiply, over any layout of x (the
// multiply's call with x as both operands). NumPy takes the same shortcut.
ember_status_t square(const ember_kernel_call_t* c) {
    const ember_view_t both[2] = {c->in[0], c->in[0]};
    ember_kernel_call_t call = *c;
    call.in = both;
    return binary_vector_kernel(&call, g_isa->bin[B_MUL][c->in[0].dtype]);
}
// x ** 0.5 for a broadcast exponent of 0.5: the square root with pow's values at -0 and
// -inf (U_POW_HALF), in the unary kernels' layouts; false for the others. NumPy takes the
// same shortcut. Through the pow kernel, whose lanes of negative x take libm's powf, 1e6
// float32 values in [-1, 1) took 3.75 ms, NumPy's square root 0.28.
bool square_root(const ember_kernel_call_t* c) {
    const ember_view_t& a = c->in[0];
    const ember_view_t& o = c->out[0];
    const UnFn fn = g_isa->un[U_POW_HALF][a.dtype];
    const ember_view_t* views[2] = {&o, &a};
    Geometry g;
    if (!fn || !make_geometry(views, 2, g)) return false;
    const size_t sz = itemsize_of(a.dtype);
    return unary_vector_runs(g, base_ptr(a), sz, base_ptr(o), sz, fn, kParallelCheap, 0);
}

template <class F>
ember_status_t binary(const ember_kernel_call_t* c, int mvec, F f) {
    const ember_view_t& a = c->in[0];
    const ember_view_t& b = c->in[1];
    const ember_view_t& o = c->out[0];
    const bool float_in = a.dtype == EMBER_FLOAT32 || a.dtype == EMBER_FLOAT64;
    if (mvec == M_pow && a.dtype >= EMBER_INT8 && a.dtype <= EMBER_UINT64) return binary_isa_kernel(c, B_POW);  // integer powers
    if (mvec == M_pow && (a.dtype == EMBER_COMPLEX64 || a.dtype == EMBER_COMPLEX128)) return complex_power_kernel(c);
    if (half_slot(a.dtype) >= 0 && mvec >= 0 && b.dtype == a.dtype && o.dtype == a.dtype && g_isa->math2[mvec][0])
        return binary_vector_kernel(c, g_isa->math2[mvec][0]);
    if (!float_in || b.dtype != a.dtype || o.dtype != a.dtype) return reference_for(c);
    const ember_view_t* views[3] = {&o, &a, &b};
    Geometry g;
    if (!make_geometry(views, 3, g)) return EMBER_OK;
    const int is64 = a.dtype == EMBER_FLOAT64;
    if (mvec == M_pow && g_isa->bin[B_MUL][a.dtype] && (is64 ? exponent_is(g, base_ptr(b), 2.0) : exponent_is(g, base_ptr(b), 2.0f))) return square(c);
    if (mvec == M_pow && (is64 ? exponent_is(g, base_ptr(b), 0.5) : exponent_is(g, base_ptr(b), 0.5f)) && square_root(c)) return EMBER_OK;
    BinFn vec = mvec >= 0 ? g_isa->math2[mvec][is64] : nullptr;
    if (vec && g.st[0][g.nd - 1] == 1) return binary_vector_kernel(c, vec, mvec == M_hypot ? kParallelCostly : kParallelHeavy);
    if (is64) binary_loop<double>(g, base_ptr(a), base_ptr(b), base_ptr(o), vec, f);
    else binary_loop<float>(g, base_ptr(a), base_ptr(b), base_ptr(o), vec, f);
    return EMBER_OK;
}

#define DEFINE_UNARY(Name, BOOL, EXPR) \
    ember_status_t Name##_kernel(const ember_kernel_call_t* c) {                                      \
        constexpr int slot = mvec_unary_of(#Name);                                                  \
        return unary<BOOL>(c, slot, [](auto v) { return EXPR; });                                   \
    }
#define DEFINE_BINARY(Name, EXPR) \
    ember_status_t Name##_kernel(const ember_kernel_call_t* c) {                                      \
        constexpr int slot = mvec_binary_of(#Name);                                                 \
        return binary(c, slot, [](auto a, auto b) { return EXPR; });                                \
    }
LIBM_UNARY(DEFINE_UNARY)
LIBM_BINARY(DEFINE_BINARY)
#undef DEFINE_UNARY
#undef DEFINE_BINARY

}  // namespace

void add_libm_kernels(std::vector<NativeKernel>& k) {
#define REGISTER_UNARY(Name, BOOL, EXPR) k.push_back({#Name, Name##_kernel, 0, false});
#define REGISTER_BINARY(Name, EXPR) k.push_back({#Name, Name##_kernel, 0, false});
    LIBM_UNARY(REGISTER_UNARY)
    LIBM_BINARY(REGISTER_BINARY)
#undef REGISTER_UNARY
#undef REGISTER_BINARY
}

}  // namespace ember_cpu
