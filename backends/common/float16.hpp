// IEEE binary16 <-> binary32, rounding to nearest even (a NaN stays NaN and comes out quiet:
// widening keeps its payload, as F16C does; narrowing writes sign | 0x7e00), bfloat16 ->
// binary32, and double -> float rounded to odd for the half types, for the reference and cpu
// backends.
// `static inline`: every translation unit that includes it (the cpu backend's per-ISA
// copies of simd_impl.cpp in particular) keeps a private copy.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>

namespace ember_float16 {

static inline float to_float(uint16_t h) {
    uint32_t sign = (uint32_t)(h & 0x8000u) << 16;
    uint32_t e = (h >> 10) & 0x1fu, m = h & 0x3ffu, x;
    if (e == 0) {
        if (m == 0) {
            x = sign;
        } else {
            int shift = 0;
            while (!(m & 0x400u)) {
                m <<= 1;
                ++shift;
            }
            m &= 0x3ffu;
            x = sign | ((uint32_t)(113 - shift) << 23) | (m << 13);
        }
    } else if (e == 31) {
        x = sign | 0x7f800000u | (m << 13) | (m ? 0x400000u : 0u);  // a signalling NaN comes out quiet
    } else {
        x = sign | ((e + 112u) << 23) | (m << 13);
    }
    float f;
    std::memcpy(&f, &x, 4);
    return f;
}
static inline uint16_t from_float(float f) {
    uint32_t x;
    std::memcpy(&x, &f, 4);
    uint32_t sign = (x >> 16) & 0x8000u;
    uint32_t absx = x & 0x7fffffffu;
    if (absx > 0x7f800000u) return (uint16_t)(sign | 0x7e00u);  // NaN (quieted)
    if (absx >= 0x477ff000u) return (uint16_t)(sign | 0x7c00u);  // overflow to inf
    if (absx < 0x38800000u) {  // subnormal or zero
        if (absx < 0x33000000u) return (uint16_t)sign;
        uint32_t mant = (absx & 0x7fffffu) | 0x800000u;
        int shift = 126 - (int)(absx >> 23);
        uint32_t r = mant >> shift;
        uint32_t rem = mant & ((1u << shift) - 1u), halfway = 1u << (shift - 1);
        if (rem > halfway || (rem == halfway && (r & 1u))) ++r;
        return (uint16_t)(sign | r);
    }
    uint32_t r = ((absx >> 13) - (112u << 10));
    uint32_t rem = absx & 0x1fffu;
    if (rem > 0x1000u || (rem == 0x1000u && (r & 1u))) ++r;
    return (uint16_t)(sign | r);
}

// bfloat16 is the top half of a float32: widening is exact.
static inline float bf16_to_float(uint16_t b) {
    const uint32_t wide = (uint32_t)b << 16;
    float f;
    std::memcpy(&f, &wide, 4);
    return f;
}

// double -> float rounded to odd: toward zero, then the last bit set where anything was
// lost. Rounded to nearest at 8 or 11 significant bits (bfloat16, float16), that float gives
// the correctly rounded conversion of the double; the nearest float can round twice
// (1 + 2^-11 + 2^-40 became 1.0 in float16 through it, not 1 + 2^-10).
static inline float to_float_odd(double d) {
    float f = (float)d;
    const double back = (double)f;
    if (back == d || d != d) return f;
    if (std::fabs(back) > std::fabs(d)) f = std::nextafter(f, 0.0f);
    uint32_t bits;
    std::memcpy(&bits, &f, 4);
    bits |= 1u;
    std::memcpy(&f, &bits, 4);
    return f;
}

}  // namespace ember_float16
