// Shared pieces of the reference linear-algebra kernels (ref_linalg*.cpp): the batch loop,
// loading a strided matrix into a dense workspace and storing it back. Every kernel
// computes in double or complex<double> whatever the storage precision, and rounds once
// on store. Conventions (in/out views, attrs, info): docs/numerics-linalg.md.
#pragma once

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <complex>
#include <vector>

#include "ref_common.hpp"

namespace ember_ref {
namespace linalg {

using cd = std::complex<double>;

inline double conj_of(double x) { return x; }
inline cd conj_of(cd x) { return std::conj(x); }
inline double real_of_s(double x) { return x; }
inline double real_of_s(cd x) { return x.real(); }
inline double abs2(double x) { return x * x; }
inline double abs2(cd x) { return x.real() * x.real() + x.imag() * x.imag(); }

// A dense row-major matrix workspace.
template <class S>
struct Mat {
    int64_t rows = 0, cols = 0;
    std::vector<S> a;
    Mat() = default;
    Mat(int64_t r, int64_t c) : rows(r), cols(c), a((size_t)(r * c), S(0)) {}
    S& operator()(int64_t i, int64_t j) { return a[(size_t)(i * cols + j)]; }
    const S& operator()(int64_t i, int64_t j) const { return a[(size_t)(i * cols + j)]; }
    static Mat eye(int64_t n) {
        Mat m(n, n);
        for (int64_t i = 0; i < n; ++i) m(i, i) = S(1);
        return m;
    }
};

// Offsets of matrix `b` (C order over the batch axes) in a view whose first `nb` axes are
// the batch axes.
inline int64_t batch_offset(const ember_view_t& v, int nb, const int64_t* idx) {
    int64_t off = v.offset;
    for (int d = 0; d < nb; ++d) off += idx[d] * v.strides[d];
    return off;
}

// Calls f(flat_index, idx) for every batch index of the first nb axes of `shape`.
template <class F>
void for_each_batch(int nb, const int64_t* shape, F&& f) {
    int64_t flat = 0;
    for_each_index(nb, shape, [&](const int64_t* idx) { f(flat++, idx); });
}

// Storage type T <-> compute type S element conversion.
template <class S, class T>
inline S load1(const T& v) {
    if constexpr (std::is_same_v<S, cd>) return cd((double)std::real(v), (double)std::imag(v));
    else return (double)v;
}
template <class T, class S>
inline T store1(const S& v) {
    if constexpr (is_cplx_v<T>) return T((typename T::value_type)std::real(v), (typename T::value_type)std::imag(v));
    else return (T)std::real(v);
}

// The trailing two axes of v at element offset off, as a dense matrix.
template <class S, class T>
Mat<S> load(const ember_view_t& v, int64_t off) {
    int64_t r = v.shape[v.ndim - 2], c = v.shape[v.ndim - 1], sr = v.strides[v.ndim - 2], sc = v.strides[v.ndim - 1];
    Mat<S> m(r, c);
    const T* p = (const T*)v.data;
    for (int64_t i = 0; i < r; ++i)
        for (int64_t j = 0; j < c; ++j) m(i, j) = load1<S>(p[off + i * sr + j * sc]);
    return m;
}

template <class T, class S>
void store(const ember_view_t& v, int64_t off, const Mat<S>& m) {
    int64_t sr = v.strides[v.ndim - 2], sc = v.strides[v.ndim - 1];
    T* p = (T*)v.data;
    for (int64_t i = 0; i < m.rows; ++i)
        for (int64_t j = 0; j < m.cols; ++j) p[off + i * sr + j * sc] = store1<T>(m(i, j));
}

// The trailing axis of v at offset off (n elements).
template <class T, class S>
void store_vec(const ember_view_t& v, int64_t off, const std::vector<S>& x) {
    int64_t s = v.strides[v.ndim - 1];
    T* p = (T*)v.data;
    for (size_t i = 0; i < x.size(); ++i) p[off + (int64_t)i * s] = store1<T>(x[i]);
}

inline void store_info(const ember_view_t& v, int64_t off, int64_t code) { ((int64_t*)v.data)[off] = code; }

// Dispatch a kernel body over the four compute dtypes: body(tag<T>, tag<S>) with T the
// storage type and S = double or complex<double>.
template <class F>
ember_status_t visit_float(const char* op, int32_t dtype, F&& body) {
    switch (dtype) {
        case EMBER_FLOAT32: return body(tag<float>{}, tag<double>{});
        case EMBER_FLOAT64: return body(tag<double>{}, tag<double>{});
        case EMBER_COMPLEX64: return body(tag<c64>{}, tag<cd>{});
        case EMBER_COMPLEX128: return body(tag<c128>{}, tag<cd>{});
        default: return fail_dtype(op, dtype);
    }
}

// Euclidean norm of n values a[k*stride] without overflow or underflow.
template <class S>
double nrm2(const S* a, int64_t n, int64_t stride) {
    double scale = 0;
    for (int64_t k = 0; k < n; ++k) scale = std::max(scale, std::abs(a[k * stride]));
    if (scale == 0 || !std::isfinite(scale)) return scale;
    double ssq = 0;
    for (int64_t k = 0; k < n; ++k) ssq += abs2(a[k * stride] / scale);
    return scale * std::sqrt(ssq);
}

// A Householder reflector H = I - tau v v^H with v[0] = 1 such that H^H (alpha; x) =
// (beta; 0), beta real (LAPACK's larfg). x (n values at stride) is overwritten by v[1:];
// alpha by beta. Returns tau (0 when H = I).
template <class S>
S householder(S& alpha, S* x, int64_t n, int64_t stride) {
    double xnorm = nrm2(x, n, stride);
    double ai = std::imag(cd(alpha));
    if (xnorm == 0 && ai == 0) return S(0);
    double ar = real_of_s(alpha);
    double beta = -std::copysign(std::hypot(std::abs(alpha), xnorm), ar);
    S tau = (S(beta) - alpha) / S(beta);
    S scal = S(1) / (alpha - S(beta));
    for (int64_t k = 0; k < n; ++k) x[k * stride] *= scal;
    alpha = S(beta);
    return tau;
}

}  // namespace linalg
}  // namespace ember_ref
