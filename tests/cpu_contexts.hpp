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
// Compiled optimised in cpu_contexts.cpp: they handle every element of the large suites' data,
// which the sanitizer build's -O0 made a quarter of those suites' time.
std::vector<float> randf(size_t n, float lo, float hi, unsigned seed);
// Every element as float64, read through the reference (so from any backend).
std::vector<double> host_values(const ember_tensor_t* t);
std::string backend_of(const ember_tensor_t* t);
// The same tensor seen by the reference backend (host memory is shared, no copy).
T as_ref(const ember_tensor_t* t);
// The bytes of t in C order.
std::vector<unsigned char> raw_bytes(const ember_tensor_t* t);
// Every element within rtol/atol of the reference's (0, 0: identical).
void expect_close(const ember_tensor_t* got, const ember_tensor_t* want, double rtol, double atol, const std::string& what);

// op binds the cpu backend's own kernel. (This checks registration only; that the kernels
// run is shown by deliberate bugs in them failing the comparisons.)
inline void expect_native_on_cpu(const char* op) {
    const char* binding = nullptr;
    ASSERT_EQ(ember_op_binding("cpu", op, &binding), EMBER_OK) << ember_last_error();
    EXPECT_STREQ(binding, "native") << op;
}
