// The first position of a value in a contiguous array, blocks of 16 tested without a
// branch: the search that follows a vectorised max/min (argmax/argmin, random_categorical).
#pragma once
#include <cstdint>
#include <type_traits>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "cpu_common.hpp"

namespace ember_cpu {

// Is v among x[0..16)? GCC leaves a float compare loop scalar, so floats use SSE2 directly.
template <class T>
bool any_equal16(const T* x, T v) {
#if defined(__SSE2__)
    if constexpr (std::is_same_v<T, float>) {
        const __m128 s = _mm_set1_ps(v);
        __m128 m = _mm_or_ps(_mm_cmpeq_ps(_mm_loadu_ps(x), s), _mm_cmpeq_ps(_mm_loadu_ps(x + 4), s));
        m = _mm_or_ps(m, _mm_or_ps(_mm_cmpeq_ps(_mm_loadu_ps(x + 8), s), _mm_cmpeq_ps(_mm_loadu_ps(x + 12), s)));
        return _mm_movemask_ps(m) != 0;
    } else if constexpr (std::is_same_v<T, double>) {
        const __m128d s = _mm_set1_pd(v);
        __m128d m = _mm_setzero_pd();
        for (int k = 0; k < 16; k += 2) m = _mm_or_pd(m, _mm_cmpeq_pd(_mm_loadu_pd(x + k), s));
        return _mm_movemask_pd(m) != 0;
    }
#endif
    int hits = 0;
    for (int k = 0; k < 16; ++k) hits += x[k] == v;
    return hits != 0;
}

// First position of v (or of the first NaN when v is NaN) in x[0..n); v is there.
// Blocks of 16 are tested without a branch so the compiler vectorises the test.
template <class T>
int64_t first_position(const T* x, int64_t n, T v) {
    int64_t i = 0;
    if (is_nan(v)) {  // rare: a scalar scan
        while (!is_nan(x[i])) ++i;
        return i;
    }
    for (; i + 16 <= n; i += 16)
        if (any_equal16(x + i, v)) break;
    while (!(x[i] == v)) ++i;
    return i;
}

}  // namespace ember_cpu
