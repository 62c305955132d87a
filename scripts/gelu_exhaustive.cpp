// Every float32 x with |x| in [1e-6, 15), both signs, through the cpu backend's float-lane
// gelu (backends/cpu/simd_gelu_erf.hpp) against float64 math: the largest error in float32
// ulp and how many results are more than 1.5 and 2 ulp off. About 5 s on one core.
//
//   g++ -O2 -std=c++17 -Ibackends/cpu -Iinclude -mavx512f -mavx512dq -mavx512bw -mavx512vl \
//       -mavx2 -mfma -mf16c -mbmi -mbmi2 -ffp-contract=fast -fno-math-errno -fno-trapping-math \
//       -Wno-uninitialized -Wno-maybe-uninitialized scripts/gelu_exhaustive.cpp -lmvec -lm \
//       -o /tmp/gelu_exhaustive && /tmp/gelu_exhaustive
//   (the AVX2 kernel: leave out the five -mavx512 flags)
//
// It compiles the ISA table's source into itself, as the backend's per-ISA objects do, and
// calls the kernel's loop directly.
#define EMBER_ISA_NAME exhaustive
#include "simd_impl.cpp"

#include <cstdio>
#include <vector>

int main() {
    using namespace ember_cpu;
    const float first = 1e-6f, last = 15.0f;
    uint32_t lo, hi;
    std::memcpy(&lo, &first, 4);
    std::memcpy(&hi, &last, 4);
    const int64_t chunk = 1 << 16;
    std::vector<float> x(chunk), y(chunk);
    double worst = 0;
    float worst_x = 0;
    int64_t total = 0, above_1_5 = 0, above_2 = 0;
    for (uint32_t sign : {0u, 0x80000000u})
        for (uint64_t b = lo; b < hi; b += chunk) {
            const int64_t n = std::min<int64_t>(chunk, (int64_t)(hi - b));
            for (int64_t k = 0; k < n; ++k) {
                const uint32_t bits = (uint32_t)(b + k) | sign;
                std::memcpy(&x[k], &bits, 4);
            }
            un_fn<float, UGeluErf>(x.data(), y.data(), n, 0);
            for (int64_t k = 0; k < n; ++k) {
                const double v = x[k], want = 0.5 * v * std::erfc(-v * M_SQRT1_2);
                if (std::fabs(want) < 1.17549435e-38) continue;  // subnormal results: their own ulp
                int e;
                std::frexp(want, &e);
                const double err = std::fabs(y[k] - want) / std::ldexp(1.0, e - 24);
                ++total;
                above_1_5 += err > 1.5;
                above_2 += err > 2;
                if (err > worst) worst = err, worst_x = x[k];
            }
        }
    std::printf("%s gelu, |x| in [1e-6, 15): %lld values, max %.4f ulp at x = %.9g, %lld above 1.5 ulp, %lld above 2\n",
                EMBER_STR(EMBER_ISA_NAME), (long long)total, worst, worst_x, (long long)above_1_5, (long long)above_2);
    return 0;
}
