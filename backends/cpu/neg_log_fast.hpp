// -log(u) for 2^-53 <= u < 1 to a relative error below kRaceExponentialError: the
// exponentials of random_categorical's exponential race (simd_random.hpp), which needs them
// only to within its margin, at a third of libmvec log's time. u = 2^k m with m in
// [sqrt(1/2), sqrt(2)), log m = 2 atanh(s), s = (m - 1) / (m + 1), |s| <= 0.172, by the
// series to s^9: at most 2.1e-9 measured (tests/test_cpu_random.cpp checks the bound).
// A template over double and the ISA's vectors of doubles (GCC vector extensions), so that
// the test measures the arithmetic the kernels run; internal linkage, so that each ISA's
// copy stays its own.
#pragma once

#include <stdint.h>
#include <string.h>

namespace ember_cpu {
namespace {

constexpr double kRaceExponentialError = 0x1p-27;

template <class To, class From>
inline To same_bits(From x) {
    static_assert(sizeof(To) == sizeof(From), "a reinterpretation");
    To t;
    memcpy(&t, &x, sizeof t);
    return t;
}

// D: double or a vector of doubles; Q: uint64_t or the vector of as many uint64_t.
template <class D, class Q>
inline D neg_log_fast(D u) {
    // The bits of u moved so that the exponent field holds k + 1023 with m in the range above.
    const Q shifted = same_bits<Q>(u) + (0x3ff0000000000000u - 0x3fe6a09e667f3bcdu);
    const D m = same_bits<D>((Q)((shifted & 0xfffffffffffffu) + 0x3fe6a09e667f3bcdu));
    const D k = same_bits<D>((Q)((shifted >> 52) | 0x4330000000000000u)) - (4503599627370496.0 + 1023.0);  // exact
    const D f = m - 1.0, s = f / (f + 2.0), z = s * s;
    const D series = 2.0 + z * (2.0 / 3 + z * (2.0 / 5 + z * (2.0 / 7 + z * (2.0 / 9))));
    return 0.0 - (k * 0.6931471805599453 + s * series);
}

}  // namespace
}  // namespace ember_cpu
