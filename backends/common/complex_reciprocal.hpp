// 1/z of a complex z, shared by the reference backend (its specification) and the cpu
// kernels; the OpenCL backend's c_recip takes the same steps. conj(z) / |z|^2 with Smith's
// scaling: a complex division (1 + 0i) / z rounds 1/(1e-310 + 0i) to inf + NaN i where this
// gives inf - 0i (NumPy's reciprocal), and its zero parts take conj(z)'s signs (1/(0 - 1i) is
// +0 + 1i). C99 Annex G's infinities: 1/inf is 0 (signed as conj(z)), 1/0 is inf + NaN i.
// Each part is divided by d, not multiplied by 1/d: 0 * (1/1e-310) would be NaN.
#pragma once

#include <cmath>
#include <complex>
#include <limits>

namespace ember_complex {

template <class R>
inline std::complex<R> reciprocal(std::complex<R> z) {
    const R x = z.real(), y = z.imag(), nan = std::numeric_limits<R>::quiet_NaN();
    if (std::isinf(x) || std::isinf(y)) return {std::copysign(R(0), x), std::copysign(R(0), -y)};
    if (std::isnan(x) || std::isnan(y)) return {nan, nan};
    if (x == 0 && y == 0) return {std::copysign(std::numeric_limits<R>::infinity(), x), nan};
    if (std::fabs(x) >= std::fabs(y)) {
        const R r = y / x, d = x + y * r;
        return {R(1) / d, -r / d};
    }
    const R r = x / y, d = y + x * r;
    return {r / d, R(-1) / d};
}

}  // namespace ember_complex
