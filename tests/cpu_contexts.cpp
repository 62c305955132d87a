// The data helpers of cpu_contexts.hpp, in a file of their own so that they are compiled
// optimised even where the tests are not (tests/CMakeLists.txt).
#include "cpu_contexts.hpp"

std::vector<float> randf(size_t n, float lo, float hi, unsigned seed) {
    std::vector<float> v(n);
    std::mt19937 rng(seed);
    std::uniform_real_distribution<float> u(lo, hi);
    for (auto& x : v) x = u(rng);
    return v;
}
std::vector<double> host_values(const ember_tensor_t* t) {
    T r;
    ember_tensor_to(ref(), t, r.out());
    // float32 and float64 are read back as they are (by the reference, views included) and
    // widened here: the values the reference's astype to float64 gives, without one more
    // tensor of n doubles, whose fresh pages the sanitized suite spent much of its time
    // faulting in.
    const ember_dtype_t dt = dtype_of(r);
    int64_t count = 0;
    ember_tensor_size(r, &count);
    if (dt == EMBER_FLOAT64) {
        std::vector<double> v((size_t)count);
        if (ember_tensor_read(r, v.data(), v.size() * 8) == EMBER_OK) return v;
    } else if (dt == EMBER_FLOAT32) {
        std::vector<float> narrow((size_t)count);
        if (ember_tensor_read(r, narrow.data(), narrow.size() * 4) == EMBER_OK) return std::vector<double>(narrow.begin(), narrow.end());
    }
    T f;
    if (ember_astype(ref(), r, EMBER_FLOAT64, f.out()) != EMBER_OK) return {};
    int64_t n = 0;
    ember_tensor_size(f, &n);
    std::vector<double> v((size_t)n);
    ember_tensor_read(f, v.data(), v.size() * 8);
    return v;
}
std::string backend_of(const ember_tensor_t* t) {
    const char* b = nullptr;
    ember_tensor_backend(t, &b, nullptr);
    return b ? b : "";
}
T as_ref(const ember_tensor_t* t) {
    T r;
    ember_tensor_to(ref(), t, r.out());
    return r;
}

std::vector<unsigned char> raw_bytes(const ember_tensor_t* t) {
    int64_t n = 0;
    ember_tensor_size(t, &n);
    std::vector<unsigned char> b((size_t)n * ember_dtype_size(dtype_of(t)));
    EXPECT_EQ(ember_tensor_read(t, b.data(), b.size()), EMBER_OK) << ember_last_error();
    return b;
}

void expect_close(const ember_tensor_t* got, const ember_tensor_t* want, double rtol, double atol, const std::string& what) {
    EXPECT_EQ(dtype_of(got), dtype_of(want)) << what;
    ASSERT_EQ(shape_of(got), shape_of(want)) << what;
    auto g = host_values(got), w = host_values(want);
    ASSERT_EQ(g.size(), w.size()) << what;
    size_t bad = 0, first = 0;
    for (size_t i = 0; i < g.size(); ++i)
        if (!close(g[i], w[i], rtol, atol)) {
            if (!bad) first = i;
            ++bad;
        }
    EXPECT_EQ(bad, 0u) << what << ": first mismatch at " << first << ": got " << g[first] << ", want " << w[first];
    // host_values holds the real parts of complex values: the imaginary parts are compared
    // on their own (before 2026-12-05 they were not compared at all).
    if (dtype_of(got) == EMBER_COMPLEX64 || dtype_of(got) == EMBER_COMPLEX128) {
        auto imag_of = [](const ember_tensor_t* t) {
            T r, im;
            if (ember_tensor_to(ref(), t, r.out()) != EMBER_OK || ember_imag(ref(), r, im.out()) != EMBER_OK) return std::vector<double>{};
            return host_values(im);
        };
        auto gi = imag_of(got), wi = imag_of(want);
        ASSERT_EQ(gi.size(), g.size()) << what << ": imaginary parts";
        ASSERT_EQ(wi.size(), w.size()) << what << ": imaginary parts";
        bad = 0;
        for (size_t i = 0; i < gi.size(); ++i)
            if (!close(gi[i], wi[i], rtol, atol)) {
                if (!bad) first = i;
                ++bad;
            }
        EXPECT_EQ(bad, 0u) << what << ": first mismatch of imaginary parts at " << first << ": got " << gi[first] << ", want " << wi[first];
    }
    // 64-bit integers above 2^53 lose their low bits in float64: compared as integers too.
    if (rtol == 0 && atol == 0 && (dtype_of(got) == EMBER_INT64 || dtype_of(got) == EMBER_UINT64)) {
        T eq, all;
        ASSERT_EQ(ember_equal(ref(), as_ref(got), as_ref(want), eq.out()), EMBER_OK) << ember_last_error();
        ASSERT_EQ(ember_all(ref(), eq, nullptr, 0, 0, all.out()), EMBER_OK) << ember_last_error();
        EXPECT_EQ(host_values(all), std::vector<double>{1.0}) << what << ": 64-bit integers differ";
    }
}

