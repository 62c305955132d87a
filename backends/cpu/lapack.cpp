// The cpu backend's linalg primitives over LAPACKE: lu_factor (getrf), lu_solve (row swaps +
// trsv/trsm), cholesky (potrf), qr (geqrf + orgqr/ungqr) here; svd (gesdd), eigh
// (syevd/heevd) and eig (geev) in lapack_eig.cpp. The in/out views, attrs and info outputs follow the kernel
// convention of docs/numerics-linalg.md exactly (the reference kernels' behaviour), so the
// core's checks and messages are the same on both backends.
#include "lapack.hpp"

#include <cblas.h>

namespace ember_cpu {
namespace lapack {
namespace {

// in: A (..., m, n). out: LU (..., m, n), pivots int64 (..., min(m, n)), info int64 (...).
// getrf has the convention's semantics already: it completes the factorization past a zero
// pivot and reports the first one (info = its index + 1).
template <class T>
ember_status_t lu_factor_t(const ember_kernel_call_t* c) {
    const ember_view_t &A = c->in[0], &LU = c->out[0], &P = c->out[1], &I = c->out[2];
    const int nb = A.ndim - 2;
    const int64_t m = A.shape[nb], n = A.shape[nb + 1], k = std::min(m, n);
    if (!fits({m, n, m * n})) return delegate(c);
    Batch bt(LU, nb);
    Failure fail;
    run_batch(bt.count, m, n, [&](int64_t b, int64_t e) {
        Buffer<T> a(m * n);
        std::vector<lint> ipiv((size_t)std::max<int64_t>(k, 1));
        for (int64_t i = b; i < e; ++i) {
            load_cm(A, bt.offset(A, i), m, n, a.data(), m);
            lint info = factor_lu(m, n, a.data(), m, ipiv.data());
            if (info < 0) {
                fail.record("getrf", info);
                info = 0;
            }
            store_cm(LU, bt.offset(LU, i), m, n, a.data(), m);
            int64_t* piv = at<int64_t>(P, bt.offset(P, i));
            for (int64_t j = 0; j < k; ++j) piv[j * P.strides[nb]] = (int64_t)ipiv[(size_t)j] - 1;
            store_info(I, bt.offset(I, i), info);
        }
    }, rule_for(std::max(m, n), kGetrfRule));
    return fail.status("lu_factor");
}

// sum of a[i] * b[i] (unconjugated for complex): BLAS's vector kernels.
inline float dot(int64_t n, const float* a, const float* b) { return cblas_sdot((int)n, a, 1, b, 1); }
inline double dot(int64_t n, const double* a, const double* b) { return cblas_ddot((int)n, a, 1, b, 1); }
inline c64 dot(int64_t n, const c64* a, const c64* b) {
    c64 r;
    cblas_cdotu_sub((int)n, a, 1, b, 1, &r);
    return r;
}
inline c128 dot(int64_t n, const c128* a, const c128* b) {
    c128 r;
    cblas_zdotu_sub((int)n, a, 1, b, 1, &r);
    return r;
}

// One right-hand side with LU's rows contiguous: forward and back substitution by row dot
// products straight from the view, reading LU once as getrs does, U's diagonal divided out
// exactly. The general path below copies LU and divides U's strict upper part by the
// diagonal first: float64 2048 x 2048 with one right-hand side took 5.6 ms there against
// 3.0 for raw getrs.
template <class T>
void lu_solve_vector(const T* lu, int64_t rs, const int64_t* piv, int64_t ps, int64_t n, T* x) {
    for (int64_t j = 0; j < n; ++j) std::swap(x[j], x[piv[j * ps]]);
    for (int64_t r = 1; r < n; ++r) x[r] -= dot(r, lu + r * rs, x);
    for (int64_t r = n - 1; r >= 0; --r) {
        const T* row = lu + r * rs;
        x[r] = (x[r] - dot(n - 1 - r, row + r + 1, x + r + 1)) / row[r];
    }
}

// in: LU (..., n, n), pivots int64 (..., n), B (..., n, k), batch axes broadcast (LU and the
// pivots often with stride 0). out: X (..., n, k). An out-of-range pivot is EMBER_ERR_INDEX
// with the reference kernel's message (the first one in batch order).
//
// Not getrs: OpenBLAS's triangular solves multiply by the reciprocal of U's diagonal, so
// even solve(c*I, c*I) is off by an ulp (and expm(0) is not exactly I). U = D*U' with
// D = diag(U): X = U'^-1 (D^-1 (L^-1 P B)), the two triangular solves with unit diagonals
// (row swaps + trsv/trsm) and D^-1 applied by division, as the reference does: the flops of getrs
// plus n^2/2 + n*k divisions. LU is loaded row-major, i.e. LAPACK sees M = LU^T (a plain
// copy for the row-major LU that lu_factor returns): L = (strict upper of M)^T and
// U' = (strict lower of M, columns divided by d)^T, solved with trans = 'T'.
template <class T>
ember_status_t lu_solve_t(const ember_kernel_call_t* c) {
    const ember_view_t &LUv = c->in[0], &P = c->in[1], &B = c->in[2], &X = c->out[0];
    const int nb = X.ndim - 2;
    const int64_t n = X.shape[nb], k = X.shape[nb + 1];
    if (!fits({n, k, n * n, n * k})) return delegate(c);
    Batch bt(X, nb);
    for (int64_t i = 0; i < bt.count; ++i) {
        const int64_t* piv = at<const int64_t>(P, bt.offset(P, i));
        for (int64_t j = 0; j < n; ++j) {
            int64_t p = piv[j * P.strides[nb]];
            if (p < 0 || p >= n)
                return g_host->fail(EMBER_ERR_INDEX, "pivot %lld of matrix %lld of the batch is out of range [0, %lld)", (long long)p,
                                    (long long)i, (long long)n);
        }
    }
    if (k == 1 && LUv.strides[nb + 1] == 1 && n <= INT_MAX) {
        run_batch(bt.count, n, n, [&](int64_t b, int64_t e) {
            Buffer<T> x(n);
            for (int64_t i = b; i < e; ++i) {
                load_cm(B, bt.offset(B, i), n, 1, x.data(), n);
                lu_solve_vector(at<const T>(LUv, bt.offset(LUv, i)), LUv.strides[nb], at<const int64_t>(P, bt.offset(P, i)), P.strides[nb], n,
                                x.data());
                store_cm(X, bt.offset(X, i), n, 1, x.data(), n);
            }
        }, rule_for(n, kGetrfRule));
        return EMBER_OK;
    }
    const PoolRule rule = rule_for(n, kGetrfRule);
    const bool pooled = batch_on_pool(bt.count, n, n + k, rule);
    run_batch(bt.count, n, n + k, [&](int64_t b, int64_t e) {
        Buffer<T> lu(n * n), x(n * k);
        std::vector<T> d((size_t)n);
        std::vector<lint> ipiv((size_t)n);
        int64_t last_lu = -1, last_p = -1;
        for (int64_t i = b; i < e; ++i) {
            int64_t lo = bt.offset(LUv, i), po = bt.offset(P, i);
            if (lo != last_lu) {  // a broadcast LU is prepared once per chunk
                load_rm(LUv, lo, n, n, lu.data());
                for (int64_t r = 0; r < n; ++r) d[(size_t)r] = lu[(size_t)(r + r * n)];
                for (int64_t col = 0; col < n; ++col)  // M(i, j) = U(j, i) below the diagonal: / d_j
                    for (int64_t r = col + 1; r < n; ++r) lu[(size_t)(r + col * n)] /= d[(size_t)col];
                last_lu = lo;
            }
            if (po != last_p) {
                const int64_t* piv = at<const int64_t>(P, po);
                for (int64_t j = 0; j < n; ++j) ipiv[(size_t)j] = (lint)(piv[j * P.strides[nb]] + 1);
                last_p = po;
            }
            load_cm(B, bt.offset(B, i), n, k, x.data(), n);
            swap_rows(x.data(), n, k, n, ipiv.data(), false);
            unit_triangle_solve_t('U', n, k, lu.data(), n, x.data(), n, pooled);
            for (int64_t col = 0; col < k; ++col)
                for (int64_t r = 0; r < n; ++r) x[(size_t)(r + col * n)] /= d[(size_t)r];
            unit_triangle_solve_t('L', n, k, lu.data(), n, x.data(), n, pooled);
            store_cm(X, bt.offset(X, i), n, k, x.data(), n);
        }
    }, rule);
    return EMBER_OK;
}

// Zeroes the imaginary parts of the diagonal of a column-major n x n buffer (the
// convention ignores them; LAPACK assumes they are zero).
template <class T>
void real_diagonal(T* a, int64_t n) {
    if constexpr (is_cplx<T>)
        for (int64_t i = 0; i < n; ++i) a[i + i * n] = T(std::real(a[i + i * n]), 0);
}

// f(r0, r1) for strips of 64 rows of an n x n lower triangle, spread round-robin over the
// pool (strips further down are longer) when the triangle is large.
template <class F>
void each_lower_strip(int64_t n, F&& f) {
    constexpr int64_t kStrip = 64;
    const int64_t strips = (n + kStrip - 1) / kStrip, tasks = n * n >= kParallelCheap ? std::min<int64_t>(num_threads(), strips) : 1;
    parallel_tasks(tasks, [&](int64_t t) {
        for (int64_t s = t; s < strips; s += tasks) f(s * kStrip, std::min(n, (s + 1) * kStrip));
    });
}

// Real lower factors from this size on: OpenBLAS 0.3.21's potrf is faster with uplo 'L'
// than 'U' from about 192 (raw, float64: 310 against 352 us at 256, 8.5 against 9.3 ms
// at 1024; slower below 128), so A's lower triangle goes to a column-major buffer (a
// transposing copy of half the matrix) and L comes back the same way.
constexpr int64_t kCholeskyColumnMajorLower = 192;

// in: A (..., n, n), only the triangle named by attrs i[0] (1 = upper) read.
// out: L lower (A = L L^H) or U upper (A = U^H U) with the other triangle 0; info (...).
// potrf reports the order of the first leading minor that is not positive definite (a
// pivot <= 0), the reference kernel's info. A is loaded row-major, so LAPACK sees
// M = A^T = conj(A) with the triangles swapped: potrf of M with the other uplo gives
// U_M^H U_M = conj(A), i.e. L = U_M^T (or U = L_M^T), whose row-major layout is U_M's
// column-major one: no transposing copy either way. A large real lower factor is the
// exception (kCholeskyColumnMajorLower).
template <class T>
ember_status_t cholesky_t(const ember_kernel_call_t* c) {
    const ember_view_t &A = c->in[0], &L = c->out[0], &I = c->out[1];
    const bool upper = c->attrs->i[0] != 0;
    const char uplo_m = upper ? 'L' : 'U';
    const int nb = A.ndim - 2;
    const int64_t n = A.shape[nb];
    if (!fits({n, n * n})) return delegate(c);
    Batch bt(L, nb);
    Failure fail;
    // A row-major real result (the usual fresh one) is factored where it lies, one copy
    // fewer (cholesky_f64 1024: 0.91 of raw potrf with the copy). Complex types keep the
    // padded buffer: OpenBLAS 0.3.21's zgemv_n reads past its vectors (lapack.hpp).
    const bool in_result = !is_cplx<T> && L.strides[nb] == n && L.strides[nb + 1] == 1 && L.data != A.data;
    const bool lower_cm = in_result && !upper && n >= kCholeskyColumnMajorLower;
    run_batch(bt.count, n, n, [&](int64_t b, int64_t e) {
        Buffer<T> buffer(in_result && !lower_cm ? 0 : n * n);
        for (int64_t i = b; i < e; ++i) {
            T* a = in_result && !lower_cm ? at<T>(L, bt.offset(L, i)) : buffer.data();
            if (lower_cm) {  // rows r0..r1 of A, columns 0..r1: the diagonal block whole
                const T* src = at<const T>(A, bt.offset(A, i));
                const int64_t rs = A.strides[nb], cs = A.strides[nb + 1];
                each_lower_strip(n, [&](int64_t r0, int64_t r1) { copy2d(a + r0, 1, n, src + r0 * rs, rs, cs, r1 - r0, r1); });
            } else {
                load_rm(A, bt.offset(A, i), n, n, a);
                real_diagonal(a, n);
            }
            lint info = factor_cholesky(lower_cm ? 'L' : uplo_m, n, a, n);
            if (info < 0) {
                fail.record("potrf", info);
                info = 0;
            }
            // OpenBLAS's potrf tests a pivot with `<= 0` only, so a NaN (on A's diagonal,
            // or produced from one in the triangle) runs through to the end. NaN spreads to
            // every later pivot, so the first NaN on the factor's diagonal is the pivot at
            // which the reference (and netlib LAPACK) stops.
            for (int64_t j = 0; j < (info ? info - 1 : n); ++j)
                if (std::isnan(std::real(a[(size_t)(j + j * n)]))) {
                    info = (lint)(j + 1);
                    break;
                }
            if (lower_cm) {
                T* out = at<T>(L, bt.offset(L, i));
                each_lower_strip(n, [&](int64_t r0, int64_t r1) { copy2d(out + r0 * n, n, 1, a + r0, 1, n, r1 - r0, r1); });
                zero_other_triangle(out, n, true);
            } else if (in_result)
                zero_other_triangle(a, n, !upper);
            else
                store_rm_triangle(L, bt.offset(L, i), n, a, !upper);  // the other triangle as 0
            store_info(I, bt.offset(I, i), info);
        }
    }, rule_for(n, kPotrfRule));
    return fail.status("cholesky");
}

// in: A (..., m, n); attrs i[0]: 0 reduced (Q m x k, R k x n), 1 complete (Q m x m,
// R m x n), 2 R only (k x n). geqrf's reflectors follow larfg (R's diagonal real, as the
// reference's); orgqr/ungqr forms the first kq columns of Q = H_1 ... H_k.
template <class T>
ember_status_t qr_t(const ember_kernel_call_t* c) {
    const ember_view_t& A = c->in[0];
    const int mode = (int)c->attrs->i[0];
    const bool want_q = mode != 2;
    const ember_view_t& R = c->out[want_q ? 1 : 0];
    const int nb = A.ndim - 2;
    const int64_t m = A.shape[nb], n = A.shape[nb + 1], k = std::min(m, n), kq = mode == 1 ? m : k;
    const int64_t rrows = R.shape[nb];  // k, or m for the complete mode
    const int64_t cols = want_q ? std::max(n, kq) : n;
    if (!fits({m, n, m * cols})) return delegate(c);
    if (std::max(m, n) <= kReferenceMatrix) return reference_on_batch(c, nb, m, n);
    Batch bt(R, nb);
    // Workspace sizes depend only on the shape: one query for the whole batch.
    lint lwork = 1;
    {
        Buffer<T> a(m * cols);
        std::vector<T> tau(padded(k));
        T q = T(0);
        if (Lapack<T>::geqrf((lint)m, (lint)n, a.data(), (lint)m, tau.data(), &q, -1) == 0) lwork = std::max(lwork, work_size(q));
        if (want_q && Lapack<T>::orgqr((lint)m, (lint)kq, (lint)k, a.data(), (lint)m, tau.data(), &q, -1) == 0)
            lwork = std::max(lwork, work_size(q));
    }
    Failure fail;
    run_batch(bt.count, m, n, [&](int64_t b, int64_t e) {
        Buffer<T> a(m * cols), work(lwork), r(rrows * n);
        std::vector<T> tau(padded(k));
        for (int64_t i = b; i < e; ++i) {
            load_cm(A, bt.offset(A, i), m, n, a.data(), m);
            lint info = Lapack<T>::geqrf((lint)m, (lint)n, a.data(), (lint)m, tau.data(), work.data(), lwork);
            if (info < 0) fail.record("geqrf", info);
            for (int64_t j = 0; j < n; ++j)  // R: rows above the diagonal of the factored buffer
                for (int64_t row = 0; row < rrows; ++row)
                    r[(size_t)(row + j * rrows)] = row <= j && row < k ? a[(size_t)(row + j * m)] : T(0);
            store_cm(R, bt.offset(R, i), rrows, n, r.data(), rrows);
            if (!want_q) continue;
            info = Lapack<T>::orgqr((lint)m, (lint)kq, (lint)k, a.data(), (lint)m, tau.data(), work.data(), lwork);
            if (info < 0) fail.record(is_cplx<T> ? "ungqr" : "orgqr", info);
            store_cm(c->out[0], bt.offset(c->out[0], i), m, kq, a.data(), m);
        }
    }, kQrEigRule<T>);
    return fail.status("qr");
}

#define EMBER_LAPACK_KERNEL(name, dtype_expr)                                                          \
    ember_status_t name##_kernel(const ember_kernel_call_t* c) {                                       \
        return visit(c, dtype_expr, [&](auto z) { return name##_t<decltype(z)>(c); });                 \
    }
EMBER_LAPACK_KERNEL(lu_factor, c->in[0].dtype)
EMBER_LAPACK_KERNEL(cholesky, c->in[0].dtype)
EMBER_LAPACK_KERNEL(qr, c->in[0].dtype)
#undef EMBER_LAPACK_KERNEL

ember_status_t lu_solve_kernel(const ember_kernel_call_t* c) {
    if (c->in[2].dtype != c->in[0].dtype || c->in[1].dtype != EMBER_INT64) return delegate(c);
    return visit(c, c->in[0].dtype, [&](auto z) { return lu_solve_t<decltype(z)>(c); });
}

}  // namespace
}  // namespace lapack

void add_lapack_kernels(std::vector<NativeKernel>& k) {
    k.push_back({"lu_factor", lapack::lu_factor_kernel, 0, false});
    k.push_back({"lu_solve", lapack::lu_solve_kernel, 0, false});
    k.push_back({"cholesky", lapack::cholesky_kernel, 0, false});
    k.push_back({"qr", lapack::qr_kernel, 0, false});
    k.push_back({"svd", lapack::svd_kernel, 0, false});
    k.push_back({"eigh", lapack::eigh_kernel, 0, false});
    k.push_back({"eig", lapack::eig_kernel, 0, false});
    k.push_back({"solve", lapack::solve_kernel, 0, true});
    k.push_back({"inv", lapack::inv_kernel, 0, true});
    k.push_back({"det", lapack::det_kernel, 0, true});
    k.push_back({"slogdet", lapack::slogdet_kernel, 0, true});
    k.push_back({"lstsq", lapack::lstsq_kernel, 0, true});
}

}  // namespace ember_cpu
