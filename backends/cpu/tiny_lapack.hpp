// LU and Cholesky factorizations and solves of our own for matrices of at most
// kTinyMatrix rows and columns, column-major, with LAPACK's conventions (getrf's pivots
// and info, potrf's info). At these sizes a LAPACK call costs more in its own overhead than
// in arithmetic (0.28 us for an 8 x 8 dgetrf, 0.15 us for dpotrf), and several threads
// calling OpenBLAS at once on them contend inside OpenBLAS: these loops call nothing, so a
// batch of tiny matrices runs on the pool at full speed.
// Differences from LAPACK, on purpose: multipliers and solutions are divided by the pivot
// (LAPACK multiplies by its reciprocal), so solve(c*I, c*I) is exactly I.
#pragma once

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdint>
#include <utility>

namespace ember_cpu {
namespace lapack {

constexpr int64_t kTinyMatrix = 16;

// The magnitude i?amax compares: |x|, or |re| + |im| for complex x.
template <class T>
inline auto pivot_magnitude(T x) {
    if constexpr (is_cplx<T>) return std::fabs(x.real()) + std::fabs(x.imag());
    else return std::fabs(x);
}
template <class T>
inline T conj_if_complex(T x) {
    if constexpr (is_cplx<T>) return std::conj(x);
    else return x;
}

// getrf (LAPACK's unblocked getf2): A = P L U in place, ipiv 1-based; returns the 1-based
// index of the first exactly zero pivot (0 if none), having completed the factorization.
template <class T>
lint tiny_getrf(int64_t m, int64_t n, T* a, int64_t lda, lint* ipiv) {
    lint info = 0;
    for (int64_t j = 0; j < std::min(m, n); ++j) {
        T* col = a + j * lda;
        int64_t p = j;
        auto best = pivot_magnitude(col[j]);
        for (int64_t i = j + 1; i < m; ++i)
            if (pivot_magnitude(col[i]) > best) {
                best = pivot_magnitude(col[i]);
                p = i;
            }
        ipiv[j] = (lint)(p + 1);
        if (col[p] != T(0)) {
            if (p != j)
                for (int64_t c = 0; c < n; ++c) std::swap(a[j + c * lda], a[p + c * lda]);
            const T pivot = col[j];
            for (int64_t i = j + 1; i < m; ++i) col[i] /= pivot;
        } else if (info == 0) {
            info = (lint)(j + 1);
        }
        for (int64_t c = j + 1; c < n; ++c) {
            T* target = a + c * lda;
            const T f = target[j];
            for (int64_t i = j + 1; i < m; ++i) target[i] -= col[i] * f;
        }
    }
    return info;
}

// getrs with trans = 'N': B := M^-1 B for the n x n factorization of tiny_getrf (or getrf),
// B n x k with columns ldb apart. The loops over B's columns are innermost: each column's
// substitution is a chain of dependent steps, and the columns' chains overlap.
template <class T>
void tiny_getrs(int64_t n, const T* lu, int64_t lda, const lint* ipiv, T* b, int64_t k, int64_t ldb) {
    for (int64_t i = 0; i < n; ++i)
        if (ipiv[i] - 1 != i)
            for (int64_t c = 0; c < k; ++c) std::swap(b[i + c * ldb], b[ipiv[i] - 1 + c * ldb]);
    for (int64_t j = 0; j < n; ++j) {
        const T* l = lu + j * lda;
        for (int64_t c = 0; c < k; ++c) {
            T* x = b + c * ldb;
            for (int64_t i = j + 1; i < n; ++i) x[i] -= l[i] * x[j];
        }
    }
    for (int64_t j = n - 1; j >= 0; --j) {
        const T* u = lu + j * lda;
        for (int64_t c = 0; c < k; ++c) {
            T* x = b + c * ldb;
            x[j] /= u[j];
            for (int64_t i = 0; i < j; ++i) x[i] -= u[i] * x[j];
        }
    }
}

// B := (A^T)^-1 B for the unit triangle of A named by uplo (as unit_triangle_solve_t):
// 'U': A^T is unit lower, forward substitution; 'L': unit upper, back substitution. Each
// step reads one column of A, contiguous; B's columns innermost, as in tiny_getrs.
template <class T>
void tiny_unit_triangle_solve_t(char uplo, int64_t n, int64_t k, const T* a, int64_t lda, T* b, int64_t ldb) {
    const bool forward = uplo == 'U';
    for (int64_t step = 1; step < n; ++step) {
        const int64_t i = forward ? step : n - 1 - step, from = forward ? 0 : i + 1, to = forward ? i : n;
        const T* col = a + i * lda;
        for (int64_t c = 0; c < k; ++c) {
            T* x = b + c * ldb;
            T s = T(0);
            for (int64_t j = from; j < to; ++j) s += col[j] * x[j];
            x[i] -= s;
        }
    }
}

// potrf (LAPACK's unblocked potf2): 'U': A = U^H U, 'L': A = L L^H, only that triangle read
// and written; returns the 1-based order of the first leading minor that is not positive
// definite (its pivot <= 0 or NaN), leaving the pivot's value on the diagonal, or 0.
template <class T>
lint tiny_potrf(char uplo, int64_t n, T* a, int64_t lda) {
    using R = real_t<T>;
    auto at = [&](int64_t i, int64_t j) -> T& { return a[i + j * lda]; };
    const bool upper = uplo == 'U';
    for (int64_t j = 0; j < n; ++j) {
        R d = std::real(at(j, j));
        for (int64_t k = 0; k < j; ++k) d -= std::norm(upper ? at(k, j) : at(j, k));
        if (!(d > R(0))) {
            at(j, j) = T(d);
            return (lint)(j + 1);
        }
        d = std::sqrt(d);
        at(j, j) = T(d);
        for (int64_t o = j + 1; o < n; ++o) {  // the rest of row j of U, or of column j of L
            T s = upper ? at(j, o) : at(o, j);
            for (int64_t k = 0; k < j; ++k) s -= upper ? conj_if_complex(at(k, j)) * at(k, o) : at(o, k) * conj_if_complex(at(j, k));
            (upper ? at(j, o) : at(o, j)) = s / d;
        }
    }
    return 0;
}

}  // namespace lapack
}  // namespace ember_cpu
