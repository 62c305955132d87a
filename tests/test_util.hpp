// Small helpers shared by the C API tests. Tests use only the public ABI.
#pragma once

#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <complex>
#include <cstring>
#include <string>
#include <vector>

#include "ember/ember.h"

#define EM_OK(call) ASSERT_EQ((call), EMBER_OK) << ember_last_error()

// Owning wrapper so failing assertions never leak handles.
struct T {
    ember_tensor_t* t = nullptr;
    T() = default;
    explicit T(ember_tensor_t* p) : t(p) {}
    T(const T&) = delete;
    T& operator=(const T&) = delete;
    T(T&& o) noexcept : t(o.t) { o.t = nullptr; }
    T& operator=(T&& o) noexcept {
        std::swap(t, o.t);
        return *this;
    }
    ~T() { ember_tensor_release(t); }
    ember_tensor_t** out() {
        ember_tensor_release(t);
        t = nullptr;
        return &t;
    }
    operator ember_tensor_t*() const { return t; }
};

// The test context: backend from EMBER_TEST_BACKEND (default "reference"). CTest runs the
// whole suite on reference, then on cpu and on opencl (tests/CMakeLists.txt).
inline const char* test_backend_name() {
    const char* b = std::getenv("EMBER_TEST_BACKEND");
    return b && *b ? b : "reference";
}

inline ember_ctx_t* test_ctx() {
    static ember_ctx_t* ctx = [] {
        ember_ctx_t* c = nullptr;
        if (ember_ctx_create_on(test_backend_name(), 0, &c) != EMBER_OK) std::abort();
        return c;
    }();
    return ctx;
}

// Device backends keep tensors off the host and refuse to wrap host memory.
inline bool test_backend_uses_host_memory() {
    static const bool host = [] {
        T t;
        void* p = nullptr;
        const int64_t one[1] = {1};
        return ember_empty(test_ctx(), one, 1, EMBER_FLOAT32, t.out()) == EMBER_OK &&
               ember_tensor_host_data(t, &p) == EMBER_OK && p != nullptr;
    }();
    return host;
}
#define REQUIRE_HOST_MEMORY_TEST_BACKEND()                                                  \
    do {                                                                                    \
        if (!test_backend_uses_host_memory())                                               \
            GTEST_SKIP() << "the test backend keeps tensors in device memory: nothing to wrap"; \
    } while (0)

template <class V>
inline T make(const std::vector<V>& data, std::vector<int64_t> shape, ember_dtype_t dtype) {
    T t;
    std::vector<double> d(data.begin(), data.end());
    T src;
    if (ember_tensor_from_data(test_ctx(), d.data(), EMBER_FLOAT64, shape.data(), (int)shape.size(), src.out()) != EMBER_OK) return t;
    if (ember_astype(test_ctx(), src, dtype, t.out()) != EMBER_OK) return T();
    return t;
}

inline std::vector<int64_t> shape_of(const ember_tensor_t* t) {
    int nd = 0;
    const int64_t* s = nullptr;
    ember_tensor_ndim(t, &nd);
    ember_tensor_shape(t, &s);
    return std::vector<int64_t>(s, s + nd);
}

inline std::vector<int64_t> strides_of(const ember_tensor_t* t) {
    const int64_t* s = nullptr;
    ember_tensor_strides(t, &s);
    return s ? std::vector<int64_t>(s, s + shape_of(t).size()) : std::vector<int64_t>{};
}

inline ember_dtype_t dtype_of(const ember_tensor_t* t) {
    ember_dtype_t d = EMBER_BOOL;
    ember_tensor_dtype(t, &d);
    return d;
}

// Every dtype, dtype kinds, and the per-dtype tolerance (relative and absolute) of the
// op-family suites; integer and bool results are exact.
const ember_dtype_t kAll[] = {EMBER_BOOL,     EMBER_INT8,    EMBER_INT16,   EMBER_INT32,     EMBER_INT64,
                              EMBER_UINT8,    EMBER_UINT16,  EMBER_UINT32,  EMBER_UINT64,    EMBER_FLOAT16,
                              EMBER_BFLOAT16, EMBER_FLOAT32, EMBER_FLOAT64, EMBER_COMPLEX64, EMBER_COMPLEX128};
inline bool is_b(ember_dtype_t d) { return d == EMBER_BOOL; }
inline bool is_i(ember_dtype_t d) { return d >= EMBER_INT8 && d <= EMBER_UINT64; }
inline bool is_u(ember_dtype_t d) { return d >= EMBER_UINT8 && d <= EMBER_UINT64; }
inline bool is_f(ember_dtype_t d) { return d >= EMBER_FLOAT16 && d <= EMBER_FLOAT64; }
inline bool is_c(ember_dtype_t d) { return d == EMBER_COMPLEX64 || d == EMBER_COMPLEX128; }
inline double tol(ember_dtype_t d) {
    switch (d) {
        case EMBER_FLOAT16: return 1e-3;
        case EMBER_BFLOAT16: return 1e-2;
        case EMBER_FLOAT32: case EMBER_COMPLEX64: return 1e-5;
        case EMBER_FLOAT64: case EMBER_COMPLEX128: return 1e-12;
        default: return 0;
    }
}

// The available backends other than the reference; with_fake: also the "fake" test module,
// whose deliberately wrong kernels only some tests expect.
inline std::vector<std::string> other_backends(bool with_fake = false) {
    std::vector<std::string> v;
    for (int i = 0; i < ember_backend_count(); ++i) {
        const char* name = nullptr;
        int available = 0;
        if (ember_backend_get(i, &name, &available, nullptr, nullptr) != EMBER_OK || !available) continue;
        std::string n = name;
        if (n != "reference" && (with_fake || n != "fake")) v.push_back(n);
    }
    return v;
}

// Values as float64 (complex: the real part; values_c for both parts), read through the
// test context. These and all_close are compiled optimised in test_util.cpp: they handle
// every element the suites compare, which the sanitizer build's -O0 made slow.
std::vector<double> values(const ember_tensor_t* t);
std::vector<std::complex<double>> values_c(const ember_tensor_t* t);

inline bool close(double a, double b, double rtol, double atol = 0) {
    if (std::isnan(a) || std::isnan(b)) return std::isnan(a) && std::isnan(b);
    if (std::isinf(a) || std::isinf(b)) return a == b;
    return std::fabs(a - b) <= atol + rtol * std::fabs(b);
}

// Starts this test binary on the tests of a gtest filter, with the parent's environment
// plus extra_env ("NAME=value", in place of same-named variables), less gtest's shard
// variables (a child runs all of its filter, whichever shard of the suite started it).
// Returns the child's pid, or -1; wait_test_child returns its exit status (128 + signal).
int spawn_test_child(const std::string& filter, const std::vector<std::string>& extra_env);
int wait_test_child(int pid);

// Under valgrind /proc/self/exe is valgrind itself: the child-process tests are skipped.
inline bool under_valgrind() {
    const char* p = std::getenv("LD_PRELOAD");
    return p && std::strstr(p, "valgrind");
}
#define NEED_CHILD_PROCESSES() \
    if (under_valgrind()) GTEST_SKIP() << "child processes cannot be started under valgrind"

::testing::AssertionResult all_close(const std::vector<double>& got, const std::vector<double>& want, double rtol, double atol = 0);

// Asserts that a call failed with status and that the message names fn.
#define EM_FAILS(call, status, fn)                                                \
    do {                                                                          \
        ember_status_t st_ = (call);                                              \
        EXPECT_EQ(st_, (status)) << ember_last_error();                           \
        EXPECT_NE(std::string(ember_last_error()).find(fn), std::string::npos)    \
            << "message '" << ember_last_error() << "' does not name " << fn;     \
    } while (0)
