// Reference elementwise unary kernels. Each op: the kinds it accepts, its result kind,
// and one expression over the compute type.
#include "../common/complex_reciprocal.hpp"
#include "ref_common.hpp"

namespace ember_ref {
namespace {

enum class Out { Same, Bool, Real };

template <class C> auto abs_of(C x) {
    if constexpr (is_cplx_v<C>) return std::abs(x);
    else if constexpr (std::is_unsigned_v<C>) return x;
    else if constexpr (is_int_v<C>) return x < 0 ? wsub(C(0), x) : x;
    else return std::fabs(x);
}
template <class C> C sign_of(C x) {
    if constexpr (is_cplx_v<C>) {
        auto a = std::abs(x);
        return a == 0 ? C(0) : x / a;
    } else if constexpr (std::is_floating_point_v<C>) {
        return std::isnan(x) ? x : C((x > 0) - (x < 0));
    } else if constexpr (std::is_unsigned_v<C>) {
        return C(x > 0);
    } else {
        return C((x > 0) - (x < 0));
    }
}
template <class C> C round_even(C x) {
    if constexpr (is_cplx_v<C>) return C(std::nearbyint(x.real()), std::nearbyint(x.imag()));
    else if constexpr (std::is_floating_point_v<C>) return std::nearbyint(x);
    else return x;
}
template <class C, class F> C real_only(C x, F f) {
    if constexpr (std::is_floating_point_v<C>) return f(x);
    else return x;  // integers are already integral
}
template <class C> bool is_nan(C x) {
    if constexpr (is_cplx_v<C>) return std::isnan(x.real()) || std::isnan(x.imag());
    else if constexpr (std::is_floating_point_v<C>) return std::isnan(x);
    else return false;
}
template <class C> bool is_inf(C x) {
    if constexpr (is_cplx_v<C>) return std::isinf(x.real()) || std::isinf(x.imag());
    else if constexpr (std::is_floating_point_v<C>) return std::isinf(x);
    else return false;
}
// Complex expm1 and log1p: exp(z) - 1 and log(1 + z) lose the digits of a small z, so
// inside |re|, |im| < 1/2 they take forms without the cancellation (NumPy's expm1 is the
// first); outside it, and for infinities and NaNs, C99's exp and log give the answers.
template <class C> bool near_zero(C z) {
    using R = typename C::value_type;
    return std::fabs(z.real()) < R(0.5) && std::fabs(z.imag()) < R(0.5);
}
// complex64's expm1 too is taken in complex128 and rounded once: on the Zen 4 host of
// session 74, expm1 of 1e6 complex64 values took 25-32 ms through glibc's cexpf and the
// float functions (NumPy 20-30), 4-14 ms in complex128.
template <class C> C expm1_of(C x) {
    if constexpr (std::is_same_v<C, c64>) {
        return C(expm1_of(c128(x)));
    } else if constexpr (is_cplx_v<C>) {
        if (!near_zero(x)) return std::exp(x) - C(1);
        const auto a = x.real(), b = x.imag(), half_sin = std::sin(b / 2);
        return C(std::expm1(a) * std::cos(b) - 2 * half_sin * half_sin, std::exp(a) * std::sin(b));  // e^a cos b - 1, e^a sin b
    } else {
        return std::expm1(x);
    }
}
// complex64's log1p is taken in complex128 and rounded once, which also keeps the digits
// of 1 + z: on a Zen 5, log1p of 1e6 values 1..101 took 16.8 ms through glibc's clogf
// (its hypotf a third of that), 4.8 through clog, normal values 30 and 25. (log itself
// stays in complex64: clog near |z| = 1 is the slower one, 30 ms against 22.)
template <class C> C log1p_of(C x) {
    if constexpr (std::is_same_v<C, c64>) {
        return C(log1p_of(c128(x)));
    } else if constexpr (is_cplx_v<C>) {
        if (!near_zero(x)) return std::log(C(1) + x);
        const auto a = x.real(), b = x.imag();
        return C(std::log1p(a * (2 + a) + b * b) / 2, std::atan2(b, 1 + a));  // log |1 + z| = log1p(|1 + z|^2 - 1) / 2
    } else {
        return std::log1p(x);
    }
}
template <class C> C log2_of(C x) {
    if constexpr (is_cplx_v<C>) return std::log(x) / real_t<C>(0.693147180559945309417232121458176568L);
    else return std::log2(x);
}
template <class C> C sigmoid_of(C x) {
    if (x >= 0) return C(1) / (C(1) + std::exp(-x));
    C e = std::exp(x);
    return e / (C(1) + e);
}

#define UNARY_OP(Name, ACCEPT, OUT, EXPR)                          \
    struct Name {                                                  \
        static constexpr const char* name = #Name;                 \
        static constexpr unsigned accept = ACCEPT;                 \
        static constexpr Out out = OUT;                            \
        template <class C> static auto f(C x) { return EXPR; }     \
    };

// glibc's cbrt and cbrtf are within 1 ulp but not exact on cubes: cbrt(27.0) is
// 3.0000000000000004, cbrtf(27) not 3 either, where NumPy gives 3. Float types narrower than
// double take double's cbrt rounded once; double takes one Newton step from libm's result y
// with the residual y^3 - x computed exactly by FMA splits (y^2 = p + pe, p y = q + qe, and
// q - x exact as q is within a few ulp of x), which then rounds to the nearest double but
// for results very near a halfway point. (A long double step did the same on hardware, but
// valgrind runs x87 arithmetic in double and took inf for finite.)
template <class C>
C cbrt_of(C x) {
    if constexpr (std::is_same_v<C, double>) {
        const double y = std::cbrt(x);
        if (x == 0 || !std::isfinite(x)) return y;
        const double p = y * y, pe = std::fma(y, y, -p);
        const double q = p * y, qe = std::fma(p, y, -q);
        if (!std::isfinite(q)) return y;  // y^3 past the largest double: x near it keeps libm's y
        const double residual = (q - x) + (qe + pe * y);
        return y - residual / (3 * p);
    } else {
        return C(std::cbrt((double)x));
    }
}

// -x, not 0 - x: the negative of +0.0 is -0.0 (and a NaN's sign flips), as IEEE 754 and NumPy.
UNARY_OP(negative, K_NUM, Out::Same, [](C v) { if constexpr (is_int_v<C>) return wsub(C(0), v); else return C(-v); }(x))
UNARY_OP(abs, K_NUM, Out::Real, abs_of(x))
UNARY_OP(sign, K_NUM, Out::Same, sign_of(x))
UNARY_OP(sqrt, K_FLOAT | K_COMPLEX, Out::Same, std::sqrt(x))
UNARY_OP(square, K_NUM, Out::Same, wmul(x, x))
UNARY_OP(exp, K_FLOAT | K_COMPLEX, Out::Same, std::exp(x))
UNARY_OP(expm1, K_FLOAT | K_COMPLEX, Out::Same, expm1_of(x))
UNARY_OP(log, K_FLOAT | K_COMPLEX, Out::Same, std::log(x))
UNARY_OP(log1p, K_FLOAT | K_COMPLEX, Out::Same, log1p_of(x))
UNARY_OP(log2, K_FLOAT | K_COMPLEX, Out::Same, log2_of(x))
UNARY_OP(log10, K_FLOAT | K_COMPLEX, Out::Same, std::log10(x))
UNARY_OP(sin, K_FLOAT | K_COMPLEX, Out::Same, std::sin(x))
UNARY_OP(cos, K_FLOAT | K_COMPLEX, Out::Same, std::cos(x))
UNARY_OP(tan, K_FLOAT | K_COMPLEX, Out::Same, std::tan(x))
UNARY_OP(asin, K_FLOAT | K_COMPLEX, Out::Same, std::asin(x))
UNARY_OP(acos, K_FLOAT | K_COMPLEX, Out::Same, std::acos(x))
UNARY_OP(atan, K_FLOAT | K_COMPLEX, Out::Same, std::atan(x))
UNARY_OP(sinh, K_FLOAT | K_COMPLEX, Out::Same, std::sinh(x))
UNARY_OP(cosh, K_FLOAT | K_COMPLEX, Out::Same, std::cosh(x))
UNARY_OP(tanh, K_FLOAT | K_COMPLEX, Out::Same, std::tanh(x))
UNARY_OP(asinh, K_FLOAT | K_COMPLEX, Out::Same, std::asinh(x))
UNARY_OP(acosh, K_FLOAT | K_COMPLEX, Out::Same, std::acosh(x))
UNARY_OP(atanh, K_FLOAT | K_COMPLEX, Out::Same, std::atanh(x))
UNARY_OP(erf, K_FLOAT, Out::Same, std::erf(x))
UNARY_OP(erfc, K_FLOAT, Out::Same, std::erfc(x))
UNARY_OP(cbrt, K_FLOAT, Out::Same, cbrt_of(x))
UNARY_OP(floor, K_REAL, Out::Same, real_only(x, [](auto v) { return std::floor(v); }))
UNARY_OP(ceil, K_REAL, Out::Same, real_only(x, [](auto v) { return std::ceil(v); }))
UNARY_OP(trunc, K_REAL, Out::Same, real_only(x, [](auto v) { return std::trunc(v); }))
UNARY_OP(round, K_NUM, Out::Same, round_even(x))
UNARY_OP(reciprocal, K_FLOAT | K_COMPLEX, Out::Same, [](C v) { if constexpr (is_cplx_v<C>) return ember_complex::reciprocal(v); else return C(C(1) / v); }(x))
UNARY_OP(isnan, K_ALL, Out::Bool, is_nan(x))
UNARY_OP(isinf, K_ALL, Out::Bool, is_inf(x))
UNARY_OP(isfinite, K_ALL, Out::Bool, !is_nan(x) && !is_inf(x))
UNARY_OP(signbit, K_REAL, Out::Bool, bool(std::signbit((double)x)))
UNARY_OP(conj, K_NUM, Out::Same, [](C v) { if constexpr (is_cplx_v<C>) return std::conj(v); else return v; }(x))
UNARY_OP(logical_not, K_BOOL, Out::Bool, !x)
UNARY_OP(bitwise_invert, K_INT | K_BOOL, Out::Same, [](C v) { if constexpr (is_bool_v<C>) return !v; else return C(~v); }(x))
UNARY_OP(sigmoid, K_FLOAT, Out::Same, sigmoid_of(x))
#undef UNARY_OP

template <class Op>
ember_status_t unary_kernel(const ember_kernel_call_t* call) {
    const ember_view_t& in = call->in[0];
    const ember_view_t& out = call->out[0];
    return visit(in.dtype, [&](auto t) -> ember_status_t {
        using T = typename decltype(t)::type;
        if constexpr (!(Op::accept & kind_bit<T>())) {
            return fail_dtype(Op::name, in.dtype);
        } else {
            using C = compute_t<T>;
            using R = std::conditional_t<Op::out == Out::Bool, bool, std::conditional_t<Op::out == Out::Real, real_t<T>, T>>;
            const ember_view_t* views[2] = {&out, &in};
            size_t sizes[2] = {sizeof(R), sizeof(T)};
            strided_loop<2>(views, sizes, [](char** p, const int64_t* s, int64_t n) {
                char* o = p[0];
                const char* i = p[1];
                for (int64_t k = 0; k < n; ++k, o += s[0], i += s[1]) {
                    C x = C(*reinterpret_cast<const T*>(i));
                    *reinterpret_cast<R*>(o) = R(Op::f(x));
                }
            });
            return EMBER_OK;
        }
    });
}

}  // namespace

void add_unary_kernels(KernelList& k) {
#define ADD(Name) k.emplace_back(#Name, unary_kernel<Name>);
    ADD(negative) ADD(abs) ADD(sign) ADD(sqrt) ADD(square) ADD(exp) ADD(expm1) ADD(log) ADD(log1p) ADD(log2)
    ADD(log10) ADD(sin) ADD(cos) ADD(tan) ADD(asin) ADD(acos) ADD(atan) ADD(sinh) ADD(cosh) ADD(tanh) ADD(asinh)
    ADD(acosh) ADD(atanh) ADD(erf) ADD(erfc) ADD(cbrt) ADD(floor) ADD(ceil) ADD(trunc) ADD(round) ADD(reciprocal) ADD(isnan) ADD(isinf)
    ADD(isfinite) ADD(signbit) ADD(conj) ADD(logical_not) ADD(bitwise_invert) ADD(sigmoid)
#undef ADD
}

}  // namespace ember_ref
