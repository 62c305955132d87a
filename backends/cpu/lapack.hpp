// Shared pieces of the cpu backend's LAPACK kernels (lapack.cpp, lapack_eig.cpp): typed
// LAPACKE wrappers, the batch walk, strided <-> column-major copies and the parallel batch
// runner. Conventions of the kernels: docs/numerics-linalg.md ("Kernel convention" and
// "cpu backend (LAPACKE)").
//
// Every matrix is copied into a column-major scratch buffer of its own dtype (inputs may
// have any strides, including 0 and negative), factored there with the LAPACKE `_work`
// routines in LAPACK_COL_MAJOR (no hidden transposition, no NaN pre-check, workspace owned
// here), and copied into the row-major outputs. float32/complex64 compute in single
// precision (sgetrf, cgesdd, ...).
#pragma once

#include <algorithm>
#include <atomic>
#include <climits>
#include <cmath>
#include <complex>
#include <cstring>
#include <vector>

// LAPACK's complex arguments as std::complex (lapack.h and lapacke_config.h both honour
// these; layout-compatible with the Fortran COMPLEX the library was built with).
#define LAPACK_COMPLEX_CPP 1
#define lapack_complex_float std::complex<float>
#define lapack_complex_double std::complex<double>
#include <lapacke.h>
#include <cblas.h>

#include "cpu_common.hpp"

namespace ember_cpu {
namespace lapack {

using c64 = std::complex<float>;
using c128 = std::complex<double>;
using lint = lapack_int;

template <class T> struct real_of { using type = T; };
template <class R> struct real_of<std::complex<R>> { using type = R; };
template <class T> using real_t = typename real_of<T>::type;
template <class T> constexpr bool is_cplx = !std::is_same_v<T, real_t<T>>;
}  // namespace lapack
}  // namespace ember_cpu

#include "tiny_lapack.hpp"

namespace ember_cpu {
namespace lapack {

// ------------------------------------------------------------------ typed LAPACKE calls
// One uniform signature per routine; arguments a real routine does not take (rwork) are
// ignored there.
#define EMBER_LAPACK_COMMON(P, T, R, ORGQR)                                                                                    \
    static lint getrf(lint m, lint n, T* a, lint lda, lint* ipiv) { return LAPACKE_##P##getrf_work(LAPACK_COL_MAJOR, m, n, a, lda, ipiv); } \
    static lint getri(lint n, T* a, lint lda, const lint* ipiv, T* work, lint lwork) {                                        \
        return LAPACKE_##P##getri_work(LAPACK_COL_MAJOR, n, a, lda, ipiv, work, lwork);                                        \
    }                                                                                                                          \
    static lint potrf(char uplo, lint n, T* a, lint lda) { return LAPACKE_##P##potrf_work(LAPACK_COL_MAJOR, uplo, n, a, lda); } \
    static lint geqrf(lint m, lint n, T* a, lint lda, T* tau, T* work, lint lwork) {                                          \
        return LAPACKE_##P##geqrf_work(LAPACK_COL_MAJOR, m, n, a, lda, tau, work, lwork);                                      \
    }                                                                                                                          \
    static lint orgqr(lint m, lint n, lint k, T* a, lint lda, const T* tau, T* work, lint lwork) {                            \
        return LAPACKE_##P##ORGQR##_work(LAPACK_COL_MAJOR, m, n, k, a, lda, tau, work, lwork);                                 \
    }

template <class T> struct Lapack;
template <> struct Lapack<float> {
    EMBER_LAPACK_COMMON(s, float, float, orgqr)
    static lint gesdd(char jobz, lint m, lint n, float* a, lint lda, float* s, float* u, lint ldu, float* vt, lint ldvt, float* work,
                      lint lwork, float*, lint* iwork) {
        return LAPACKE_sgesdd_work(LAPACK_COL_MAJOR, jobz, m, n, a, lda, s, u, ldu, vt, ldvt, work, lwork, iwork);
    }
    static lint syevd(char jobz, char uplo, lint n, float* a, lint lda, float* w, float* work, lint lwork, float*, lint, lint* iwork,
                      lint liwork) {
        return LAPACKE_ssyevd_work(LAPACK_COL_MAJOR, jobz, uplo, n, a, lda, w, work, lwork, iwork, liwork);
    }
    static lint gelsd(lint m, lint n, lint nrhs, float* a, lint lda, float* b, lint ldb, float* s, float rcond, lint* rank, float* work,
                      lint lwork, float*, lint* iwork) {
        return LAPACKE_sgelsd_work(LAPACK_COL_MAJOR, m, n, nrhs, a, lda, b, ldb, s, rcond, rank, work, lwork, iwork);
    }
    static lint geev(char jobvr, lint n, float* a, lint lda, float* wr, float* wi, float* vr, lint ldvr, float* work, lint lwork) {
        return LAPACKE_sgeev_work(LAPACK_COL_MAJOR, 'N', jobvr, n, a, lda, wr, wi, nullptr, 1, vr, ldvr, work, lwork);
    }
};
template <> struct Lapack<double> {
    EMBER_LAPACK_COMMON(d, double, double, orgqr)
    static lint gesdd(char jobz, lint m, lint n, double* a, lint lda, double* s, double* u, lint ldu, double* vt, lint ldvt,
                      double* work, lint lwork, double*, lint* iwork) {
        return LAPACKE_dgesdd_work(LAPACK_COL_MAJOR, jobz, m, n, a, lda, s, u, ldu, vt, ldvt, work, lwork, iwork);
    }
    static lint syevd(char jobz, char uplo, lint n, double* a, lint lda, double* w, double* work, lint lwork, double*, lint,
                      lint* iwork, lint liwork) {
        return LAPACKE_dsyevd_work(LAPACK_COL_MAJOR, jobz, uplo, n, a, lda, w, work, lwork, iwork, liwork);
    }
    static lint gelsd(lint m, lint n, lint nrhs, double* a, lint lda, double* b, lint ldb, double* s, double rcond, lint* rank, double* work,
                      lint lwork, double*, lint* iwork) {
        return LAPACKE_dgelsd_work(LAPACK_COL_MAJOR, m, n, nrhs, a, lda, b, ldb, s, rcond, rank, work, lwork, iwork);
    }
    static lint geev(char jobvr, lint n, double* a, lint lda, double* wr, double* wi, double* vr, lint ldvr, double* work,
                     lint lwork) {
        return LAPACKE_dgeev_work(LAPACK_COL_MAJOR, 'N', jobvr, n, a, lda, wr, wi, nullptr, 1, vr, ldvr, work, lwork);
    }
};
template <> struct Lapack<c64> {
    EMBER_LAPACK_COMMON(c, c64, float, ungqr)
    static lint gesdd(char jobz, lint m, lint n, c64* a, lint lda, float* s, c64* u, lint ldu, c64* vt, lint ldvt, c64* work,
                      lint lwork, float* rwork, lint* iwork) {
        return LAPACKE_cgesdd_work(LAPACK_COL_MAJOR, jobz, m, n, a, lda, s, u, ldu, vt, ldvt, work, lwork, rwork, iwork);
    }
    static lint syevd(char jobz, char uplo, lint n, c64* a, lint lda, float* w, c64* work, lint lwork, float* rwork, lint lrwork,
                      lint* iwork, lint liwork) {
        return LAPACKE_cheevd_work(LAPACK_COL_MAJOR, jobz, uplo, n, a, lda, w, work, lwork, rwork, lrwork, iwork, liwork);
    }
    static lint gelsd(lint m, lint n, lint nrhs, c64* a, lint lda, c64* b, lint ldb, float* s, float rcond, lint* rank, c64* work,
                      lint lwork, float* rwork, lint* iwork) {
        return LAPACKE_cgelsd_work(LAPACK_COL_MAJOR, m, n, nrhs, a, lda, b, ldb, s, rcond, rank, work, lwork, rwork, iwork);
    }
    static lint geev(char jobvr, lint n, c64* a, lint lda, c64* w, c64* vr, lint ldvr, c64* work, lint lwork, float* rwork) {
        return LAPACKE_cgeev_work(LAPACK_COL_MAJOR, 'N', jobvr, n, a, lda, w, nullptr, 1, vr, ldvr, work, lwork, rwork);
    }
};
template <> struct Lapack<c128> {
    EMBER_LAPACK_COMMON(z, c128, double, ungqr)
    static lint gesdd(char jobz, lint m, lint n, c128* a, lint lda, double* s, c128* u, lint ldu, c128* vt, lint ldvt, c128* work,
                      lint lwork, double* rwork, lint* iwork) {
        return LAPACKE_zgesdd_work(LAPACK_COL_MAJOR, jobz, m, n, a, lda, s, u, ldu, vt, ldvt, work, lwork, rwork, iwork);
    }
    static lint syevd(char jobz, char uplo, lint n, c128* a, lint lda, double* w, c128* work, lint lwork, double* rwork, lint lrwork,
                      lint* iwork, lint liwork) {
        return LAPACKE_zheevd_work(LAPACK_COL_MAJOR, jobz, uplo, n, a, lda, w, work, lwork, rwork, lrwork, iwork, liwork);
    }
    static lint gelsd(lint m, lint n, lint nrhs, c128* a, lint lda, c128* b, lint ldb, double* s, double rcond, lint* rank, c128* work,
                      lint lwork, double* rwork, lint* iwork) {
        return LAPACKE_zgelsd_work(LAPACK_COL_MAJOR, m, n, nrhs, a, lda, b, ldb, s, rcond, rank, work, lwork, rwork, iwork);
    }
    static lint geev(char jobvr, lint n, c128* a, lint lda, c128* w, c128* vr, lint ldvr, c128* work, lint lwork, double* rwork) {
        return LAPACKE_zgeev_work(LAPACK_COL_MAJOR, 'N', jobvr, n, a, lda, w, nullptr, 1, vr, ldvr, work, lwork, rwork);
    }
};
#undef EMBER_LAPACK_COMMON

// The optimal workspace size a query (lwork = -1) returned in its first element.
// Element count for a buffer handed to LAPACK: OpenBLAS 0.3.21's Haswell zgemv_n kernel
// (used by zlarf inside zgesdd, zgeqrf, ...) reads past the end of its vectors (OpenBLAS
// issue 4013, fixed in 0.3.22; Debian 12 ships 0.3.21). The spare elements keep such a read
// inside the allocation; ASan caught it as a SEGV when a buffer ended at a page boundary.
constexpr int64_t kOverreadSlack = 64;
inline size_t padded(int64_t n) { return (size_t)(n + kOverreadSlack); }

// A scratch buffer of count elements for LAPACK (a copy of a matrix, a workspace) from the
// caching allocator: reused across calls, backed by huge pages when large and not zero
// filled, so a factorization pays no page faults or memset for its copy of the input (the
// std::vector buffers used before paid both on every call). The over-read slack after the
// elements is zeroed, so what OpenBLAS reads there is defined.
template <class T>
class Buffer {
public:
    explicit Buffer(int64_t count) : s_((int64_t)padded(count)), count_(count) {
        std::fill(s_.data + count, s_.data + count + kOverreadSlack, T(0));
    }
    T* data() { return s_.data; }
    T* begin() { return s_.data; }
    T* end() { return s_.data + count_; }
    T& operator[](size_t i) { return s_.data[i]; }

private:
    Scratch<T> s_;
    int64_t count_;
};

template <class T>
inline lint work_size(const T& w) {
    double v = std::ceil((double)std::real(w));
    if (!(v >= 1)) return 1;
    return v > (double)INT_MAX ? INT_MAX : (lint)v;
}

// Dimensions (and the element counts of the buffers built from them) LAPACK's 32-bit
// integers can address; larger problems are left to the reference kernel.
inline bool fits(std::initializer_list<int64_t> counts) {
    for (int64_t c : counts)
        if (c < 0 || c > (int64_t)INT_MAX) return false;
    return true;
}

// Calls body(T{}) for the four compute dtypes; anything else goes to the reference kernel.
template <class F>
ember_status_t visit(const ember_kernel_call_t* c, int32_t dtype, F&& body) {
    switch (dtype) {
        case EMBER_FLOAT32: return body(float{});
        case EMBER_FLOAT64: return body(double{});
        case EMBER_COMPLEX64: return body(c64{});
        case EMBER_COMPLEX128: return body(c128{});
        default: return delegate(c);
    }
}

// ------------------------------------------------------------------ batch geometry
// The batch axes are the first nb axes of every view (the core broadcasts them; inputs may
// have stride 0 there). Views' element offsets of batch element `flat` (C order).
struct Batch {
    int nb = 0;
    const int64_t* shape = nullptr;
    int64_t count = 1;
    Batch(const ember_view_t& like, int nb_) : nb(nb_), shape(like.shape) {
        for (int d = 0; d < nb; ++d) count *= shape[d];
    }
    int64_t offset(const ember_view_t& v, int64_t flat) const {
        int64_t off = v.offset;
        for (int d = nb - 1; d >= 0; --d) {
            int64_t k = flat % shape[d];
            flat /= shape[d];
            off += k * v.strides[d];
        }
        return off;
    }
};
template <class T>
inline T* at(const ember_view_t& v, int64_t off) {
    return static_cast<T*>(v.data) + off;
}

// dst[c * dst_step + r] = src[r * src_step + c] for r < rows, c < cols: the transposing
// copy between a row-major view and a column-major buffer, in registers
// (simd_transpose.hpp), with streaming stores for matrices of at least g_stream_bytes.
// The generic strided loop this replaced took 3.3 ms for a 1024 x 1024 float64 matrix
// into a column-major buffer (every store of a tile row landed in the same cache set);
// 8 x 8 tiles through a local array then took 0.42 ms on the AMD host of series 1-11,
// 1.2-1.8 ms on the Intel host of series 12.
// A large matrix is split into bands of source rows (destination columns) over the pool:
// lu_factor of a 1024 x 1024 float64 matrix transposes 8 MB in and out around getrf.
template <class T>
void transpose_copy(T* dst, int64_t dst_step, const T* src, int64_t src_step, int64_t rows, int64_t cols) {
    static_assert(sizeof(T) == 4 || sizeof(T) == 8 || sizeof(T) == 16, "float32, float64, complex64 or complex128");
    constexpr int kind = sizeof(T) == 4 ? 0 : sizeof(T) == 8 ? 1 : 2;
    const bool stream = rows * cols * (int64_t)sizeof(T) >= g_stream_bytes;
    const int64_t grain = std::max<int64_t>(16, kParallelCheap / std::max<int64_t>(cols, 1));
    parallel_range(rows, grain * 2, grain, [&](int64_t b, int64_t e) {
        g_isa->transpose[kind](src + b * src_step, src_step, dst + b, dst_step, e - b, cols, stream);
    });
}

// dst(i, j) = src(i, j) for an m x n matrix, both with element strides (rows, columns).
// Unit-stride runs are copied with memcpy, transposing layouts by transpose_copy, anything
// else (strides of views: 0, negative, steps) in 8 x 8 tiles.
template <class T>
void copy2d(T* dst, int64_t drs, int64_t dcs, const T* src, int64_t srs, int64_t scs, int64_t m, int64_t n) {
    if (dcs == 1 && scs == 1) {
        for (int64_t i = 0; i < m; ++i) std::memcpy(dst + i * drs, src + i * srs, (size_t)n * sizeof(T));
        return;
    }
    if (drs == 1 && srs == 1) {
        for (int64_t j = 0; j < n; ++j) std::memcpy(dst + j * dcs, src + j * scs, (size_t)m * sizeof(T));
        return;
    }
    if (drs == 1 && scs == 1 && dcs >= m) return transpose_copy(dst, dcs, src, srs, m, n);
    if (dcs == 1 && srs == 1 && drs >= n) return transpose_copy(dst, drs, src, scs, n, m);
    constexpr int64_t B = 8;
    for (int64_t i0 = 0; i0 < m; i0 += B) {
        int64_t i1 = std::min(m, i0 + B);
        for (int64_t j0 = 0; j0 < n; j0 += B) {
            int64_t j1 = std::min(n, j0 + B);
            for (int64_t i = i0; i < i1; ++i)
                for (int64_t j = j0; j < j1; ++j) dst[i * drs + j * dcs] = src[i * srs + j * scs];
        }
    }
}

// The trailing m x n matrix of view v at element offset off into a column-major buffer.
template <class T>
inline void load_cm(const ember_view_t& v, int64_t off, int64_t m, int64_t n, T* dst, int64_t ld) {
    copy2d(dst, 1, ld, at<const T>(v, off), v.strides[v.ndim - 2], v.strides[v.ndim - 1], m, n);
}
// The trailing n x n matrix of view v at off into a row-major buffer: LAPACK (column-major)
// then sees its transpose, which is what the symmetric-in-layout kernels use (cholesky,
// lu_solve) to skip a transposing copy when the view is row-major already.
template <class T>
inline void load_rm(const ember_view_t& v, int64_t off, int64_t m, int64_t n, T* dst) {
    copy2d(dst, n, 1, at<const T>(v, off), v.strides[v.ndim - 2], v.strides[v.ndim - 1], m, n);
}
template <class T>
inline void store_rm(const ember_view_t& v, int64_t off, int64_t m, int64_t n, const T* src) {
    copy2d(at<T>(v, off), v.strides[v.ndim - 2], v.strides[v.ndim - 1], src, n, 1, m, n);
}
// A triangular factor held row-major in src (n x n) into the trailing matrix of view v at
// off: the lower (or upper) triangle copied and the rest written as 0 in the same pass, so
// the other triangle of src is neither zeroed nor read.
template <class T>
inline void store_rm_triangle(const ember_view_t& v, int64_t off, int64_t n, const T* src, bool lower) {
    T* dst = at<T>(v, off);
    const int64_t rs = v.strides[v.ndim - 2], cs = v.strides[v.ndim - 1];
    for (int64_t r = 0; r < n; ++r) {
        const int64_t lo = lower ? 0 : r, hi = lower ? r + 1 : n;
        T* row = dst + r * rs;
        const T* from = src + r * n;
        if (cs == 1) {
            std::fill(row, row + lo, T(0));
            std::memcpy(row + lo, from + lo, (size_t)(hi - lo) * sizeof(T));
            std::fill(row + hi, row + n, T(0));
        } else {
            for (int64_t c = 0; c < n; ++c) row[c * cs] = c >= lo && c < hi ? from[c] : T(0);
        }
    }
}
// Zeroes the triangle of a row-major n x n factor that holds no part of it: above the
// diagonal of a lower factor, below it of an upper one.
template <class T>
inline void zero_other_triangle(T* a, int64_t n, bool lower) {
    for (int64_t r = 0; r < n; ++r) {
        T* row = a + r * n;
        if (lower)
            std::fill(row + r + 1, row + n, T(0));
        else
            std::fill(row, row + r, T(0));
    }
}
// A column-major m x n buffer into the trailing matrix of view v at off.
template <class T>
inline void store_cm(const ember_view_t& v, int64_t off, int64_t m, int64_t n, const T* src, int64_t ld) {
    copy2d(at<T>(v, off), v.strides[v.ndim - 2], v.strides[v.ndim - 1], src, 1, ld, m, n);
}
// n values (stride 1) into the trailing axis of v at off, converted to the view's type.
template <class D, class S>
inline void store_vec(const ember_view_t& v, int64_t off, int64_t n, const S* src) {
    D* p = at<D>(v, off);
    int64_t s = v.strides[v.ndim - 1];
    for (int64_t i = 0; i < n; ++i) p[i * s] = (D)src[i];
}
inline void store_info(const ember_view_t& v, int64_t off, int64_t info) { *at<int64_t>(v, off) = info; }
// Every matrix of the batch left to the core's composite (info 1; the COMPOSITE_KERNEL
// convention of docs/backend-guide.md).
inline void mark_unsolved(const ember_view_t& info, const Batch& bt) {
    for (int64_t i = 0; i < bt.count; ++i) store_info(info, bt.offset(info, i), 1);
}

// OpenBLAS 0.3.21 runs trsm on its threads once rows * right-hand sides * (2 for complex)
// reach this, and never below it (measured as for the PoolRule sizes below).
constexpr int64_t kAloneTrsmValues = 1024;

// B := op(A)^-1 B for the n x n column-major triangle of A (uplo 'U' or 'L') with a unit
// diagonal, op(A) = A^T, B n x k (columns ldb apart). BLAS trsm, not LAPACK trtrs: OpenBLAS
// 0.3.21 runs trtrs on its threads whatever the size (0.86 against 0.15 us for 4 x 4 on 2
// threads), trsm only from its own size threshold. blas_alone (a task of a batch on the
// pool): B in blocks of columns small enough that OpenBLAS keeps trsm on this thread.
template <class T>
void unit_triangle_solve_t(char uplo, int64_t n, int64_t k, const T* a, int64_t lda, T* b, int64_t ldb, bool blas_alone) {
    if (n == 0 || k == 0) return;
    if (n <= kTinyMatrix) return tiny_unit_triangle_solve_t(uplo, n, k, a, lda, b, ldb);
    const CBLAS_UPLO ul = uplo == 'U' ? CblasUpper : CblasLower;
    const int in = (int)n, ia = (int)lda, ib = (int)ldb;
    if (k == 1) {  // trsv: trsm's blocking costs 6% of a 256 solve with one right-hand side
        if constexpr (std::is_same_v<T, float>) cblas_strsv(CblasColMajor, ul, CblasTrans, CblasUnit, in, a, ia, b, 1);
        else if constexpr (std::is_same_v<T, double>) cblas_dtrsv(CblasColMajor, ul, CblasTrans, CblasUnit, in, a, ia, b, 1);
        else if constexpr (std::is_same_v<T, c64>) cblas_ctrsv(CblasColMajor, ul, CblasTrans, CblasUnit, in, a, ia, b, 1);
        else cblas_ztrsv(CblasColMajor, ul, CblasTrans, CblasUnit, in, a, ia, b, 1);
        return;
    }
    const int64_t values_per_column = n * (is_cplx<T> ? 2 : 1);
    const int64_t block = blas_alone ? std::max<int64_t>(1, (kAloneTrsmValues - 1) / values_per_column) : k;
    for (int64_t c0 = 0; c0 < k; c0 += block) {
        const int ik = (int)std::min(block, k - c0);
        T* bc = b + c0 * ldb;
        if constexpr (std::is_same_v<T, float>) cblas_strsm(CblasColMajor, CblasLeft, ul, CblasTrans, CblasUnit, in, ik, 1.0f, a, ia, bc, ib);
        else if constexpr (std::is_same_v<T, double>) cblas_dtrsm(CblasColMajor, CblasLeft, ul, CblasTrans, CblasUnit, in, ik, 1.0, a, ia, bc, ib);
        else {
            const T one(1);
            if constexpr (std::is_same_v<T, c64>) cblas_ctrsm(CblasColMajor, CblasLeft, ul, CblasTrans, CblasUnit, in, ik, &one, a, ia, bc, ib);
            else cblas_ztrsm(CblasColMajor, CblasLeft, ul, CblasTrans, CblasUnit, in, ik, &one, a, ia, bc, ib);
        }
    }
}

// The row interchanges of getrf's ipiv (1-based: row i with row ipiv[i] - 1, i = 0..n-1)
// applied to the n x k column-major matrix x (columns ld apart), in order, or in reverse
// order for the inverse permutation: LAPACK's laswp, which OpenBLAS 0.3.21 runs on its
// threads whatever the size (0.76 against 0.02 us for a 4 x 4 matrix on 2 threads, and a
// batch of tiny solves took 3.5x its single-threaded time).
template <class T>
void swap_rows(T* x, int64_t n, int64_t k, int64_t ld, const lint* ipiv, bool reverse) {
    for (int64_t c = 0; c < k; ++c) {
        T* col = x + c * ld;
        for (int64_t s = 0; s < n; ++s) {
            const int64_t i = reverse ? n - 1 - s : s, p = (int64_t)ipiv[i] - 1;
            if (p != i) std::swap(col[i], col[p]);
        }
    }
}

// ------------------------------------------------------------------ running a batch
// A negative LAPACK info (an invalid argument: a bug here) seen by any task; reported by
// the calling thread after the batch (host->fail records a per-thread message).
struct Failure {
    std::atomic<int64_t> info{0};
    const char* routine = "";
    void record(const char* r, lint code) {
        int64_t expect = 0;
        if (info.compare_exchange_strong(expect, (int64_t)code)) routine = r;
    }
    ember_status_t status(const char* op) const {
        int64_t i = info.load();
        if (!i) return EMBER_OK;
        return g_host->fail(EMBER_ERR_INTERNAL, "cpu: LAPACK %s (for %s) rejected argument %lld", routine, op, (long long)-i);
    }
};

// Matrices at most this large (rows and columns) are factored one per task on the thread
// pool when the batch has several. The user's OpenBLAS setting is never changed, so each
// kernel says when its LAPACK driver leaves the cores to the pool (PoolRule).
constexpr int64_t kSmallMatrix = 96;

// blas_alone_to: the size up to which OpenBLAS runs the kernel's driver on the calling
// thread even with threads of its own. Above it, with OpenBLAS threads, the batch runs in
// order: OpenBLAS's threads and the pool's workers would compete for the same cores
// (measured 5-10x slower on 2 cores).
// min_matrix_work: the least rows * cols * min(rows, cols) per matrix for the pool. Several
// threads calling OpenBLAS at once on tiny matrices contend inside OpenBLAS (on a buffer
// lock, we guess): raw 8 x 8 getrf, trsm and potrf on 2 threads took 0.55-0.67x the time
// per call of 1 thread, 16 x 16 getrf and trsm 1.3-1.4x, potrf 0.8x at 16 and 1.1x at 24.
struct PoolRule {
    int64_t blas_alone_to = 0;
    double min_matrix_work = 0;
};
// The sizes were measured on OpenBLAS 0.3.21 by the CPU time OpenBLAS's other threads took
// while the caller ran the driver, OPENBLAS_NUM_THREADS=2: zero up to these sizes, as much
// as the caller's above them (bench/openblas_threads.cpp prints the table,
// docs/numerics-linalg.md has it).
constexpr PoolRule kGetrfRule{96, 4096};  // getrf, trsv; trsm in column blocks (below)
constexpr PoolRule kGetriRule{64, 4096};  // getrf + getri: getri threads from 72
constexpr PoolRule kPotrfRule{56, 8192};  // potrf threads from 64
constexpr PoolRule kSvdRule{32, 0};       // gesdd and gelsd thread from 40
template <class T>                        // geqrf + orgqr and geev: real to 88, complex to 32-48
constexpr PoolRule kQrEigRule{is_cplx<T> ? 32 : 64, 0};
// syevd threads from 8: eigh keeps the default rule.
// Tiny matrices: our own loops (tiny_lapack.hpp), and for lu_solve of one right-hand side
// BLAS dot, which OpenBLAS never threads at these lengths nor serialises (65536 4 x 4 solves:
// 4.8 ms on one thread, 2.8 on the pool's two).
constexpr PoolRule kNoBlasRule{kSmallMatrix, 0};
constexpr PoolRule rule_for(int64_t n, PoolRule blas_rule) {
    return n <= kTinyMatrix ? kNoBlasRule : blas_rule;
}

// getrf and potrf, by our own loops for a tiny matrix.
template <class T>
lint factor_lu(int64_t m, int64_t n, T* a, int64_t lda, lint* ipiv) {
    if (std::max(m, n) <= kTinyMatrix) return tiny_getrf(m, n, a, lda, ipiv);
    return Lapack<T>::getrf((lint)m, (lint)n, a, (lint)lda, ipiv);
}
template <class T>
lint factor_cholesky(char uplo, int64_t n, T* a, int64_t lda) {
    if (n <= kTinyMatrix) return tiny_potrf(uplo, n, a, lda);
    return Lapack<T>::potrf(uplo, (lint)n, a, (lint)lda);
}

// Whether run_batch spreads this batch over the pool.
inline bool batch_on_pool(int64_t count, int64_t rows, int64_t cols, PoolRule rule) {
    const int64_t dim = std::max(rows, cols);
    const double per_matrix = (double)rows * (double)cols * (double)std::min(rows, cols);
    return count >= 2 && num_threads() > 1 && dim <= kSmallMatrix && per_matrix >= rule.min_matrix_work &&
           per_matrix * (double)count >= 65536.0 && (dim <= rule.blas_alone_to || openblas_get_num_threads() <= 1);
}

// Runs body(begin, end) over batch elements [0, count), in parallel chunks when that pays.
template <class F>
void run_batch(int64_t count, int64_t rows, int64_t cols, F&& body, PoolRule rule = {}) {
    if (!batch_on_pool(count, rows, cols, rule)) {
        body((int64_t)0, count);
        return;
    }
    const int64_t nt = num_threads();
    int64_t chunks = std::min<int64_t>(count, nt * 4);
    int64_t step = (count + chunks - 1) / chunks;
    chunks = (count + step - 1) / step;
    parallel_tasks(chunks, [&](int64_t t) {
        int64_t b = t * step, e = std::min(count, b + step);
        if (b < e) body(b, e);
    });
}

// Up to this size (rows and columns) svd, eigh and qr run the reference's kernels (Jacobi,
// Householder), on slices of the batch across the pool: per matrix they beat gesdd 2-3x
// from 3 x 3 to 8 x 8, geqrf + orgqr 2x to 6 x 6 and 1.2x at 8 x 8, and syevd, which
// OpenBLAS threads from 8 x 8 (so its batches run in order), at 3 x 3 (C timing program,
// docs/numerics-linalg.md). The reference computes in float64 and returns svd and eigh
// vectors with its own phase convention (docs/numerics-linalg.md).
constexpr int64_t kReferenceMatrix = 8;

// The reference kernel of c (one matrix argument: every input and output view has the nb
// batch dims first, with the same extents) on slices of its largest batch dim across the
// pool; on this thread when the batch is too small to share.
inline ember_status_t reference_on_batch(const ember_kernel_call_t* c, int nb, int64_t rows, int64_t cols) {
    const ember_view_t& first = c->out[0];
    int split = -1;
    int64_t count = 1;
    for (int d = 0; d < nb; ++d) {
        count *= first.shape[d];
        if (split < 0 || first.shape[d] > first.shape[split]) split = d;
    }
    if (split < 0 || first.shape[split] < 2 || num_threads() <= 1 ||
        (double)count * (double)rows * (double)cols * (double)std::min(rows, cols) < 65536.0)
        return delegate(c);
    const int n_in = c->n_in, n_out = c->n_out;
    std::atomic<int> failed{0};
    parallel_range(first.shape[split], 2, 1, [&](int64_t begin, int64_t end) {
        std::vector<ember_view_t> in(c->in, c->in + n_in), out(c->out, c->out + n_out);
        std::vector<int64_t> shapes((size_t)(n_in + n_out) * EMBER_MAX_DIMS);
        int64_t* shape = shapes.data();
        for (std::vector<ember_view_t>* v : {&in, &out})
            for (ember_view_t& view : *v) {
                std::copy(view.shape, view.shape + view.ndim, shape);
                shape[split] = end - begin;
                view.offset += begin * view.strides[split];
                view.shape = shape;
                shape += EMBER_MAX_DIMS;
            }
        ember_kernel_call_t call = *c;
        call.in = in.data();
        call.out = out.data();
        if (delegate(&call) != EMBER_OK) failed.store(1);
    });
    // A failure is reported by the reference on the whole, on this thread, with its message.
    return failed.load() ? delegate(c) : EMBER_OK;
}

// Rescales column j of a column-major complex n x n matrix so that its largest component
// (the first of equal magnitude) is real and positive, as the reference kernel does.
template <class C>
void phase_normalise(C* v, int64_t n) {
    using R = real_t<C>;
    int64_t big = 0;
    R best = std::abs(v[0]);
    for (int64_t i = 1; i < n; ++i) {
        R a = std::abs(v[i]);
        if (a > best) {
            best = a;
            big = i;
        }
    }
    if (!(best > 0)) return;
    C ph = std::conj(v[big]) / best;
    for (int64_t i = 0; i < n; ++i) v[i] *= ph;
    v[big] = C(std::real(v[big]), 0);
}

// Kernels defined in lapack_eig.cpp.
ember_status_t svd_kernel(const ember_kernel_call_t* c);
ember_status_t eigh_kernel(const ember_kernel_call_t* c);
ember_status_t eig_kernel(const ember_kernel_call_t* c);
// Kernels defined in lapack_solve.cpp.
ember_status_t solve_kernel(const ember_kernel_call_t* c);
ember_status_t inv_kernel(const ember_kernel_call_t* c);
ember_status_t det_kernel(const ember_kernel_call_t* c);
ember_status_t slogdet_kernel(const ember_kernel_call_t* c);
ember_status_t lstsq_kernel(const ember_kernel_call_t* c);

}  // namespace lapack
}  // namespace ember_cpu
