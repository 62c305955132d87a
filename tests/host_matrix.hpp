// Dense host matrices in complex<double> for checking linear algebra by identities,
// independently of Ember's own ops, and reading tensors back into them.
#pragma once

#include <cmath>
#include <complex>
#include <random>
#include <string>
#include <vector>

#include "test_util.hpp"

using cd = std::complex<double>;

struct HM {  // row-major
    int64_t r = 0, c = 0;
    std::vector<cd> v;
    HM() = default;
    HM(int64_t rows, int64_t cols) : r(rows), c(cols), v((size_t)(rows * cols)) {}
    cd& operator()(int64_t i, int64_t j) { return v[(size_t)(i * c + j)]; }
    cd operator()(int64_t i, int64_t j) const { return v[(size_t)(i * c + j)]; }
};

// Compiled at -O2 in every build (host_matrix.cpp): at the sanitizer build's -O0 the
// products of these checks took most of the linear-algebra tests' time.
HM heye(int64_t n);
HM hmul(const HM& a, const HM& b);
HM hadj(const HM& a);
HM hsub(const HM& a, const HM& b);
double hnorm(const HM& a);  // Frobenius
HM hdiag(const std::vector<cd>& d, int64_t rows, int64_t cols);
// A generator seeded afresh at the start of each test, from the test's name and `salt`: what
// a test draws does not depend on which tests ran before it in the process (a ctest shard,
// a --gtest_filter, a child process), so a failure reproduces on its own.
inline std::mt19937& per_test_rng(uint32_t salt) {
    static std::mt19937 g;
    static std::string seeded_for;
    static bool seeded = false;
    const ::testing::TestInfo* info = ::testing::UnitTest::GetInstance()->current_test_info();
    std::string name = info ? std::string(info->test_suite_name()) + "." + info->name() : std::string();
    if (!seeded || name != seeded_for) {
        seeded = true;
        seeded_for = name;
        uint32_t h = 2166136261u ^ salt;  // FNV-1a
        for (unsigned char ch : name) h = (h ^ ch) * 16777619u;
        g.seed(h);
    }
    return g;
}

// Entries uniform on [-1, 1] (real and imaginary parts).
inline HM hrandom(int64_t r, int64_t c, bool cplx, std::mt19937& g) {
    std::uniform_real_distribution<double> u(-1, 1);
    HM m(r, c);
    for (cd& x : m.v) x = cplx ? cd(u(g), u(g)) : cd(u(g), 0);
    return m;
}

inline bool is_cplx(ember_dtype_t d) { return d == EMBER_COMPLEX64 || d == EMBER_COMPLEX128; }
inline double eps_of(ember_dtype_t d) { return (d == EMBER_FLOAT32 || d == EMBER_COMPLEX64) ? 1.1920929e-7 : 2.220446e-16; }

// A tensor's values as complex<double>, read through the reference backend (any backend).
inline std::vector<cd> host(const ember_tensor_t* t) {
    T on_ref, c;
    if (ember_tensor_to(test_ctx(), t, on_ref.out()) != EMBER_OK) return {};
    if (ember_astype(test_ctx(), on_ref, EMBER_COMPLEX128, c.out()) != EMBER_OK) return {};
    int64_t n = 0;
    ember_tensor_size(c, &n);
    std::vector<cd> v((size_t)n);
    ember_tensor_read(c, v.data(), v.size() * sizeof(cd));
    return v;
}
// The matrices of a (..., r, c) tensor (a (..., n) tensor with vec = true: n x 1 columns).
inline std::vector<HM> mats(const ember_tensor_t* t, bool vec = false) {
    auto s = shape_of(t);
    int64_t r = vec ? s.back() : s[s.size() - 2], c = vec ? 1 : s.back();
    std::vector<cd> v = host(t);
    std::vector<HM> out;
    for (size_t off = 0; r * c > 0 && off + (size_t)(r * c) <= v.size(); off += (size_t)(r * c)) {
        HM m(r, c);
        std::copy(v.begin() + (long)off, v.begin() + (long)(off + (size_t)(r * c)), m.v.begin());
        out.push_back(m);
    }
    return out;
}
