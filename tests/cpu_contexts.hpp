// The contexts the cpu-backend suites compare: the cpu backend and the reference, each
// created once per process; NEED_CPU() skips a test where the cpu module is absent. And
// the helpers those suites share: host data in, values out, comparison with the reference.
#pragma once

#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include "test_util.hpp"

inline ember_ctx_t* cpu() {
    static ember_ctx_t* ctx = [] {
        ember_ctx_t* c = nullptr;
        if (ember_ctx_create_on("cpu", 0, &c) != EMBER_OK) return (ember_ctx_t*)nullptr;
        return c;
    }();
    return ctx;
}
inline ember_ctx_t* ref() {
    static ember_ctx_t* ctx = [] {
        ember_ctx_t* c = nullptr;
        ember_ctx_create_on("reference", 0, &c);
        return c;
    }();
    return ctx;
}
#define NEED_CPU() \
    if (!cpu()) GTEST_SKIP() << "cpu backend not available: " << ember_last_error()

// A tensor of dtype dt on ctx from host values (float or double), converted as needed.
template <class V>
inline T tensor(ember_ctx_t* ctx, const std::vector<V>& data, std::vector<int64_t> shape, ember_dtype_t dt) {
    static_assert(std::is_same_v<V, float> || std::is_same_v<V, double>, "float or double data");
    const ember_dtype_t src = std::is_same_v<V, float> ? EMBER_FLOAT32 : EMBER_FLOAT64;
    T t;
    EXPECT_EQ(ember_tensor_from_data(ctx, data.data(), src, shape.data(), (int)shape.size(), t.out()), EMBER_OK) << ember_last_error();
    if (dt == src) return t;
    T c;
    EXPECT_EQ(ember_astype(ctx, t, dt, c.out()), EMBER_OK) << ember_last_error();
    return c;
}
inline std::vector<float> randf(size_t n, float lo, float hi, unsigned seed) {
    std::vector<float> v(n);
    std::mt19937 rng(seed);
    std::uniform_real_distribution<float> u(lo, hi);
    for (auto& x : v) x = u(rng);
    return v;
}
inline std::vector<double> host_values(const ember_tensor_t* t) {
    T r;
    ember_tensor_to(ref(), t, r.out());
    T f;
    if (ember_astype(ref(), r, EMBER_FLOAT64, f.out()) != EMBER_OK) return {};
    int64_t n = 0;
    ember_tensor_size(f, &n);
    std::vector<double> v((size_t)n);
    ember_tensor_read(f, v.data(), v.size() * 8);
    return v;
}
inline std::string backend_of(const ember_tensor_t* t) {
    const char* b = nullptr;
    ember_tensor_backend(t, &b, nullptr);
    return b ? b : "";
}
// The same tensor seen by the reference backend (host memory is shared, no copy).
inline T as_ref(const ember_tensor_t* t) {
    T r;
    ember_tensor_to(ref(), t, r.out());
    return r;
}

// The bytes of t in C order.
inline std::vector<unsigned char> raw_bytes(const ember_tensor_t* t) {
    int64_t n = 0;
    ember_tensor_size(t, &n);
    std::vector<unsigned char> b((size_t)n * ember_dtype_size(dtype_of(t)));
    EXPECT_EQ(ember_tensor_read(t, b.data(), b.size()), EMBER_OK) << ember_last_error();
    return b;
}

// Every element within rtol/atol of the reference's (0, 0: identical).
inline void expect_close(const ember_tensor_t* got, const ember_tensor_t* want, double rtol, double atol, const std::string& what) {
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
    // 64-bit integers above 2^53 lose their low bits in float64: compared as integers too.
    if (rtol == 0 && atol == 0 && (dtype_of(got) == EMBER_INT64 || dtype_of(got) == EMBER_UINT64)) {
        T eq, all;
        ASSERT_EQ(ember_equal(ref(), as_ref(got), as_ref(want), eq.out()), EMBER_OK) << ember_last_error();
        ASSERT_EQ(ember_all(ref(), eq, nullptr, 0, 0, all.out()), EMBER_OK) << ember_last_error();
        EXPECT_EQ(host_values(all), std::vector<double>{1.0}) << what << ": 64-bit integers differ";
    }
}

// op binds the cpu backend's own kernel. (This checks registration only; that the kernels
// run is shown by deliberate bugs in them failing the comparisons.)
inline void expect_native_on_cpu(const char* op) {
    const char* binding = nullptr;
    ASSERT_EQ(ember_op_binding("cpu", op, &binding), EMBER_OK) << ember_last_error();
    EXPECT_STREQ(binding, "native") << op;
}
