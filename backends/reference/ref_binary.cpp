// Reference elementwise binary kernels (inputs already share one dtype).
#include "ref_common.hpp"

namespace ember_ref {
namespace {

template <class C> C floor_div(C a, C b) {
    if constexpr (is_int_v<C>) {
        if (b == 0) return 0;
        if constexpr (std::is_signed_v<C>)
            if (b == -1) return wsub(C(0), a);
        C q = C(a / b);
        if constexpr (std::is_signed_v<C>)
            if ((a % b != 0) && ((a < 0) != (b < 0))) --q;
        return q;
    } else {
        if (b == 0) return a / b;
        C m = std::fmod(a, b);
        C d = (a - m) / b;
        if (m != 0 && ((b < 0) != (m < 0))) d -= 1;
        if (d == 0) return std::copysign(C(0), a / b);
        C fd = std::floor(d);
        if (d - fd > C(0.5)) fd += 1;
        return fd;
    }
}
template <class C> C rem(C a, C b) {
    if constexpr (is_int_v<C>) {
        if (b == 0) return 0;
        if constexpr (std::is_signed_v<C>) {
            if (b == -1) return 0;
            C r = C(a % b);
            if (r != 0 && ((r < 0) != (b < 0))) r = C(r + b);
            return r;
        } else {
            return C(a % b);
        }
    } else {
        if (b == 0) return std::fmod(a, b);
        C m = std::fmod(a, b);
        if (m != 0) {
            if ((b < 0) != (m < 0)) m += b;
        } else {
            m = std::copysign(C(0), b);
        }
        return m;
    }
}
// C's fmod: the remainder of the quotient truncated toward zero, with a's sign. Integers
// divided by 0 give 0 (as NumPy, without its warning); INT_MIN % -1 is 0, not a trap.
template <class C> C trunc_rem(C a, C b) {
    if constexpr (is_int_v<C>) {
        if (b == 0) return 0;
        if constexpr (std::is_signed_v<C>)
            if (b == -1) return 0;
        return C(a % b);
    } else {
        return std::fmod(a, b);
    }
}
// Complex x ** n for an integral real exponent n with |n| < 100: repeated products, as
// NumPy computes them. n = 0 gives 1, n = 1 x, n = 2 x x, n = 3 x (x x); other n multiply
// in x^(2^k) for each set bit of |n| from the lowest, and take 1 / r for n < 0. This is
// faster than cpow's exp(n log x) and exact wherever the products are: (1 + 1j) ** 2 is
// 2j, not 1.2e-16 + 2j. Other exponents: cpow.
template <class C> C complex_power(C a, C b) {
    using R = typename C::value_type;
    const R br = b.real();
    if (b.imag() != R(0) || br != std::trunc(br) || !(std::fabs(br) < R(100))) return std::pow(a, b);
    const int n = (int)br;
    if (n == 0) return C(1, 0);
    if (n == 1) return a;
    if (n == 2) return wmul(a, a);
    if (n == 3) return wmul(a, wmul(a, a));
    const int e = n < 0 ? -n : n;
    C r(1, 0), p = a;
    for (int bit = 1;; bit <<= 1) {
        if (e & bit) r = wmul(r, p);
        if (e < (bit << 1)) break;
        p = wmul(p, p);
    }
    return n < 0 ? C(C(1, 0) / r) : r;
}
template <class C> C ipow(C a, C b) {
    if constexpr (is_cplx_v<C>) {
        return complex_power(a, b);
    } else if constexpr (is_int_v<C>) {
        if constexpr (std::is_signed_v<C>)
            if (b < 0) return a == 1 ? C(1) : a == -1 ? (b % 2 ? C(-1) : C(1)) : C(0);
        C r = 1;
        while (b) {
            if (b & 1) r = wmul(r, a);
            a = wmul(a, a);
            b = C(b >> 1);
        }
        return r;
    } else {
        return std::pow(a, b);
    }
}
template <class C> C max_nan(C a, C b) {
    if constexpr (std::is_floating_point_v<C>)
        if (std::isnan(a) || std::isnan(b)) return std::numeric_limits<C>::quiet_NaN();
    return a < b ? b : a;
}
template <class C> C min_nan(C a, C b) {
    if constexpr (std::is_floating_point_v<C>)
        if (std::isnan(a) || std::isnan(b)) return std::numeric_limits<C>::quiet_NaN();
    return b < a ? b : a;
}
template <class C> C logaddexp_of(C a, C b) {
    if (a == b) return a + C(0.693147180559945309417232121458176568L);
    C d = a - b;
    if (d > 0) return a + std::log1p(std::exp(-d));
    if (d <= 0) return b + std::log1p(std::exp(d));
    return d;  // NaN
}
template <class C> C shl(C a, C b) {
    if (b < 0 || (uint64_t)b >= sizeof(C) * 8) return 0;
    return C(uint64_t(a) << b);
}
template <class C> C shr(C a, C b) {
    if (b < 0 || (uint64_t)b >= sizeof(C) * 8) return std::is_signed_v<C> && a < 0 ? C(-1) : C(0);
    return C(a >> b);
}
template <class C> C nextafter_of(C a, C b, float*) { return std::nextafter(a, b); }

enum class Out { Same, Bool };

#define BINARY_OP(Name, ACCEPT, OUT, EXPR)                                     \
    struct Name {                                                              \
        static constexpr const char* name = #Name;                             \
        static constexpr unsigned accept = ACCEPT;                             \
        static constexpr Out out = OUT;                                        \
        template <class C, class T> static auto f(C a, C b) { return EXPR; }   \
    };

BINARY_OP(add, K_NUM, Out::Same, wadd(a, b))
BINARY_OP(subtract, K_NUM, Out::Same, wsub(a, b))
BINARY_OP(multiply, K_NUM, Out::Same, wmul(a, b))
BINARY_OP(divide, K_FLOAT | K_COMPLEX, Out::Same, C(a / b))
BINARY_OP(floor_divide, K_REAL, Out::Same, floor_div(a, b))
BINARY_OP(remainder, K_REAL, Out::Same, rem(a, b))
BINARY_OP(fmod, K_REAL, Out::Same, trunc_rem(a, b))
BINARY_OP(pow, K_NUM, Out::Same, ipow(a, b))
BINARY_OP(maximum, K_REAL | K_BOOL, Out::Same, max_nan(a, b))
BINARY_OP(minimum, K_REAL | K_BOOL, Out::Same, min_nan(a, b))
BINARY_OP(atan2, K_FLOAT, Out::Same, std::atan2(a, b))
BINARY_OP(hypot, K_FLOAT, Out::Same, std::hypot(a, b))
BINARY_OP(copysign, K_FLOAT, Out::Same, std::copysign(a, b))
// nextafter steps in the storage precision, so half types are handled in nextafter_kernel.
BINARY_OP(nextafter, K_FLOAT, Out::Same, std::nextafter(a, b))
BINARY_OP(logaddexp, K_FLOAT, Out::Same, logaddexp_of(a, b))
BINARY_OP(equal, K_ALL, Out::Bool, a == b)
BINARY_OP(not_equal, K_ALL, Out::Bool, a != b)
BINARY_OP(less, K_REAL | K_BOOL, Out::Bool, a < b)
BINARY_OP(less_equal, K_REAL | K_BOOL, Out::Bool, a <= b)
BINARY_OP(greater, K_REAL | K_BOOL, Out::Bool, a > b)
BINARY_OP(greater_equal, K_REAL | K_BOOL, Out::Bool, a >= b)
BINARY_OP(logical_and, K_BOOL, Out::Bool, a && b)
BINARY_OP(logical_or, K_BOOL, Out::Bool, a || b)
BINARY_OP(logical_xor, K_BOOL, Out::Bool, a != b)
BINARY_OP(bitwise_and, K_INT | K_BOOL, Out::Same, C(a & b))
BINARY_OP(bitwise_or, K_INT | K_BOOL, Out::Same, C(a | b))
BINARY_OP(bitwise_xor, K_INT | K_BOOL, Out::Same, C(a ^ b))
BINARY_OP(bitwise_left_shift, K_INT, Out::Same, shl(a, b))
BINARY_OP(bitwise_right_shift, K_INT, Out::Same, shr(a, b))
#undef BINARY_OP

template <class T> T half_nextafter(T a, T b) {
    float fa = float(a), fb = float(b);
    if (std::isnan(fa) || std::isnan(fb)) return T(std::numeric_limits<float>::quiet_NaN());
    if (fa == fb) return b;
    if (fa == 0) {
        T r;
        r.bits = (uint16_t)((std::signbit(fb) ? 0x8000u : 0u) | 1u);
        return r;
    }
    T r = a;
    bool up = (fb > fa) == (fa > 0);
    r.bits = (uint16_t)(up ? r.bits + 1 : r.bits - 1);
    return r;
}

template <class Op>
ember_status_t binary_kernel(const ember_kernel_call_t* call) {
    const ember_view_t& a = call->in[0];
    const ember_view_t& b = call->in[1];
    const ember_view_t& out = call->out[0];
    return visit(a.dtype, [&](auto t) -> ember_status_t {
        using T = typename decltype(t)::type;
        if constexpr (!(Op::accept & kind_bit<T>())) {
            return fail_dtype(Op::name, a.dtype);
        } else {
            using C = compute_t<T>;
            using R = std::conditional_t<Op::out == Out::Bool, bool, T>;
            const ember_view_t* views[3] = {&out, &a, &b};
            size_t sizes[3] = {sizeof(R), sizeof(T), sizeof(T)};
            strided_loop<3>(views, sizes, [](char** p, const int64_t* s, int64_t n) {
                char* o = p[0];
                const char *x = p[1], *y = p[2];
                for (int64_t k = 0; k < n; ++k, o += s[0], x += s[1], y += s[2]) {
                    const T& tx = *reinterpret_cast<const T*>(x);
                    const T& ty = *reinterpret_cast<const T*>(y);
                    if constexpr (std::is_same_v<Op, nextafter> && is_half_v<T>)
                        *reinterpret_cast<R*>(o) = half_nextafter(tx, ty);
                    else
                        *reinterpret_cast<R*>(o) = R(Op::template f<C, T>(C(tx), C(ty)));
                }
            });
            return EMBER_OK;
        }
    });
}

}  // namespace

void add_binary_kernels(KernelList& k) {
#define ADD(Name) k.emplace_back(#Name, binary_kernel<Name>);
    ADD(add) ADD(subtract) ADD(multiply) ADD(divide) ADD(floor_divide) ADD(remainder) ADD(fmod) ADD(pow) ADD(maximum)
    ADD(minimum) ADD(atan2) ADD(hypot) ADD(copysign) ADD(nextafter) ADD(logaddexp) ADD(equal) ADD(not_equal)
    ADD(less) ADD(less_equal) ADD(greater) ADD(greater_equal) ADD(logical_and) ADD(logical_or) ADD(logical_xor)
    ADD(bitwise_and) ADD(bitwise_or) ADD(bitwise_xor) ADD(bitwise_left_shift) ADD(bitwise_right_shift)
#undef ADD
}

}  // namespace ember_ref
