// Dense host matrices in complex<double> for checking linear algebra by identities,
// independently of Ember's own ops, and reading tensors back into them.
#pragma once

#include <cmath>
#include <complex>
#include <random>
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

inline HM heye(int64_t n) {
    HM m(n, n);
    for (int64_t i = 0; i < n; ++i) m(i, i) = 1;
    return m;
}
inline HM hmul(const HM& a, const HM& b) {
    HM m(a.r, b.c);
    for (int64_t i = 0; i < a.r; ++i)
        for (int64_t k = 0; k < a.c; ++k)
            for (int64_t j = 0; j < b.c; ++j) m(i, j) += a(i, k) * b(k, j);
    return m;
}
inline HM hadj(const HM& a) {
    HM m(a.c, a.r);
    for (int64_t i = 0; i < a.r; ++i)
        for (int64_t j = 0; j < a.c; ++j) m(j, i) = std::conj(a(i, j));
    return m;
}
inline HM hsub(const HM& a, const HM& b) {
    HM m = a;
    for (size_t i = 0; i < m.v.size(); ++i) m.v[i] -= b.v[i];
    return m;
}
inline double hnorm(const HM& a) {  // Frobenius
    double s = 0;
    for (cd x : a.v) s += std::norm(x);
    return std::sqrt(s);
}
inline HM hdiag(const std::vector<cd>& d, int64_t rows, int64_t cols) {
    HM m(rows, cols);
    for (size_t i = 0; i < d.size(); ++i) m((int64_t)i, (int64_t)i) = d[i];
    return m;
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
