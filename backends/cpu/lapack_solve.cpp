// solve, inv, det, slogdet and lstsq under the COMPOSITE_KERNEL convention of
// docs/backend-guide.md. solve, inv, det and slogdet make no transposing copy of A. A row-major n x n matrix read as a column-major buffer is
// M = A^T, and getrf factors M = P L U, so A = U^T L^T P^T:
//   A X = B:  U^T Y = B,  L^T Z = Y,  X = P Z   (what getrs does with trans = 'T');
//   inv(A) = inv(M)^T, and getri's inv(M) in column-major order is inv(A) in row-major order;
//   det(A) = det(M).
// The composite (lu_factor + lu_solve) copies A into column-major order and the LU back:
// two transposes, 90 us of a 540 us 256 x 256 float64 solve on the Intel host of series 12.
// An exact zero pivot of M's factorization gives info = 1, and the core runs the composite
// for the whole call: its error and message name a pivot of A's own factorization. Exact
// zeros depend on rounding, which differs between the two factorizations, so a matrix that
// is singular in exact arithmetic may come out of one as singular and of the other with huge
// finite values (as between any two LU codes).
#include "lapack.hpp"

namespace ember_cpu {
namespace lapack {
namespace {

// in: A (..., n, n), B (..., n, k), batch axes broadcast to X's (stride 0 where repeated).
// out: X (..., n, k), info int64 (...).
// U's diagonal is divided out exactly as lu_solve does (U = D U', U^T Y = B as
// U'^T W = B, Y = D^-1 W): OpenBLAS's triangular solves multiply by reciprocals, which
// would make solve(c*I, c*I) miss I by an ulp.
template <class T>
ember_status_t solve_t(const ember_kernel_call_t* c) {
    const ember_view_t &A = c->in[0], &B = c->in[1], &X = c->out[0], &I = c->out[1];
    const int nb = X.ndim - 2;
    const int64_t n = X.shape[nb], k = X.shape[nb + 1];
    Batch bt(X, nb);
    if (!fits({n, k, n * n, n * k})) {
        mark_unsolved(I, bt);
        return EMBER_OK;
    }
    Failure fail;
    const PoolRule rule = rule_for(n, kGetrfRule);
    const bool pooled = batch_on_pool(bt.count, n, n + k, rule);
    run_batch(bt.count, n, n + k, [&](int64_t b, int64_t e) {
        Buffer<T> m(n * n), x(n * k);
        std::vector<T> d((size_t)n);
        std::vector<lint> ipiv((size_t)n);
        int64_t last_a = -1;
        lint singular = 0;
        for (int64_t i = b; i < e; ++i) {
            const int64_t ao = bt.offset(A, i);
            if (ao != last_a) {  // a broadcast A is factored once per chunk
                load_rm(A, ao, n, n, m.data());
                singular = factor_lu(n, n, m.data(), n, ipiv.data());
                if (singular < 0) fail.record("getrf", singular);
                if (singular == 0) {
                    for (int64_t r = 0; r < n; ++r) d[(size_t)r] = m[(size_t)(r + r * n)];
                    for (int64_t col = 1; col < n; ++col)  // U' = D^-1 U: row r of U's strict upper part / d_r
                        for (int64_t r = 0; r < col; ++r) m[(size_t)(r + col * n)] /= d[(size_t)r];
                }
                last_a = ao;
            }
            store_info(I, bt.offset(I, i), singular != 0);
            if (singular) continue;
            load_cm(B, bt.offset(B, i), n, k, x.data(), n);
            unit_triangle_solve_t('U', n, k, m.data(), n, x.data(), n, pooled);
            for (int64_t col = 0; col < k; ++col)
                for (int64_t r = 0; r < n; ++r) x[(size_t)(r + col * n)] /= d[(size_t)r];
            unit_triangle_solve_t('L', n, k, m.data(), n, x.data(), n, pooled);
            swap_rows(x.data(), n, k, n, ipiv.data(), true);
            store_cm(X, bt.offset(X, i), n, k, x.data(), n);
        }
    }, rule);
    return fail.status("solve");
}

// in: A (..., n, n). out: X (..., n, n), info int64 (...).
template <class T>
ember_status_t inv_t(const ember_kernel_call_t* c) {
    const ember_view_t &A = c->in[0], &X = c->out[0], &I = c->out[1];
    const int nb = X.ndim - 2;
    const int64_t n = X.shape[nb];
    Batch bt(X, nb);
    if (!fits({n, n * n})) {
        mark_unsolved(I, bt);
        return EMBER_OK;
    }
    lint lwork = 1;
    {
        T q = T(0);
        lint piv = 1;
        if (Lapack<T>::getri((lint)n, &q, (lint)n, &piv, &q, -1) == 0) lwork = std::max(lwork, work_size(q));
    }
    Failure fail;
    const bool tiny = n <= kTinyMatrix;
    run_batch(bt.count, n, n, [&](int64_t b, int64_t e) {
        // Not in place in X: LAPACK gets buffers with over-read slack (lapack.hpp, padded).
        Buffer<T> m(n * n), work(tiny ? n * n : lwork);
        std::vector<lint> ipiv((size_t)n);
        for (int64_t i = b; i < e; ++i) {
            load_rm(A, bt.offset(A, i), n, n, m.data());
            lint info = factor_lu(n, n, m.data(), n, ipiv.data());
            if (info < 0) fail.record("getrf", info);
            T* inverse = m.data();
            if (info == 0 && tiny) {  // getri's inv(M), as M^-1 I
                std::fill(work.begin(), work.end(), T(0));
                for (int64_t d = 0; d < n; ++d) work[(size_t)(d + d * n)] = T(1);
                tiny_getrs(n, m.data(), n, ipiv.data(), work.data(), n, n);
                inverse = work.data();
            } else if (info == 0) {
                info = Lapack<T>::getri((lint)n, m.data(), (lint)n, ipiv.data(), work.data(), lwork);
                if (info < 0) fail.record("getri", info);
            }
            store_info(I, bt.offset(I, i), info != 0);
            if (info == 0) store_rm(X, bt.offset(X, i), n, n, inverse);
        }
    }, rule_for(n, kGetriRule));
    return fail.status("inv");
}

// in: A (..., n, n), n >= 1. out: det (...) in A's dtype, info int64 (...); with
// log_form, sign (...) in A's dtype, log|det| (...) in the real dtype, info (...).
// det = (-1)^swaps * prod(U's diagonal); slogdet's sign is prod(d / |d|) times the same
// (-1)^swaps, its log the sum of log|d|; an exact zero pivot gives 0 (sign 0 and -inf), as
// the composite does. info is nonzero only for a matrix LAPACK's integers cannot address.
// The composite runs lu_factor and then five reductions and elementwise ops over the batch;
// here each matrix is factored and reduced while it is in the cache.
template <class T>
ember_status_t det_t(const ember_kernel_call_t* c, bool log_form) {
    using R = real_t<T>;
    // float32 accumulates in float64: a product whose partial products leave float32's range
    // still gives the representable det, and n logs sum without float32's rounding.
    using Wide = std::conditional_t<std::is_same_v<R, float>, std::conditional_t<is_cplx<T>, c128, double>, T>;
    using WideR = real_t<Wide>;
    const ember_view_t &A = c->in[0], &I = c->out[log_form ? 2 : 1];
    const int nb = A.ndim - 2;
    const int64_t n = A.shape[nb];
    Batch bt(A, nb);
    if (!fits({n, n * n})) {
        mark_unsolved(I, bt);
        return EMBER_OK;
    }
    Failure fail;
    run_batch(bt.count, n, n, [&](int64_t b, int64_t e) {
        Buffer<T> m(n * n);
        std::vector<lint> ipiv((size_t)n);
        for (int64_t i = b; i < e; ++i) {
            load_rm(A, bt.offset(A, i), n, n, m.data());
            const lint info = factor_lu(n, n, m.data(), n, ipiv.data());
            if (info < 0) fail.record("getrf", info);
            bool odd = false;
            for (int64_t j = 0; j < n; ++j) odd ^= ipiv[(size_t)j] != (lint)(j + 1);
            Wide product = Wide(odd ? -1 : 1);
            WideR log_abs = 0;
            for (int64_t j = 0; j < n; ++j) {
                const Wide d = Wide(m[(size_t)(j * n + j)]);
                if (!log_form) {
                    product *= d;
                    continue;
                }
                const WideR magnitude = std::abs(d);
                product *= magnitude == 0 ? Wide(0) : d / magnitude;
                log_abs += std::log(magnitude);
            }
            *at<T>(c->out[0], bt.offset(c->out[0], i)) = T(product);
            if (log_form) *at<R>(c->out[1], bt.offset(c->out[1], i)) = R(log_abs);
            store_info(I, bt.offset(I, i), 0);
        }
    }, rule_for(n, kGetrfRule));
    return fail.status(log_form ? "slogdet" : "det");
}

template <class T>
bool all_finite(const T* p, int64_t count) {
    for (int64_t i = 0; i < count; ++i)
        if (!std::isfinite(std::real(p[i])) || !std::isfinite(std::imag(p[i]))) return false;
    return true;
}

// in: A (..., m, n), B (..., m, k), batch axes as X's (stride 0 where B is broadcast);
// attrs f[0]: rcond in (0, 1) (singular values at most rcond * s_max count as zero;
// gelsd would replace any other value with eps, so the core keeps those composite).
// out: X (..., n, k), S (..., min(m, n)) in the real dtype, rank int64 (...), info int64
// (...): nonzero where gelsd's SVD did not converge or A or B is not finite (the core then
// runs the composite, which gives A's NaN its error and B's NaN its results; gelsd's
// scaling would reject either as an illegal argument, and print that to stderr).
// gelsd reduces A to bidiagonal form and solves there by divide and conquer, applying the
// transformations to B, so it never forms U and V^H as the composite (svd, then two
// matmuls) does.
template <class T>
ember_status_t lstsq_t(const ember_kernel_call_t* c) {
    using R = real_t<T>;
    const ember_view_t &A = c->in[0], &B = c->in[1], &X = c->out[0], &S = c->out[1], &K = c->out[2], &I = c->out[3];
    const int nb = X.ndim - 2;
    const int64_t m = A.shape[nb], n = A.shape[nb + 1], k = X.shape[nb + 1], ld = std::max(m, n), mn = std::min(m, n);
    Batch bt(X, nb);
    const R rcond = (R)c->attrs->f[0];
    if (!fits({m, n, k, m * n, ld * k}) || !(rcond > 0 && rcond < 1)) {  // float32 may round rcond to 0 or 1
        mark_unsolved(I, bt);
        return EMBER_OK;
    }
    lint lwork = 1, lrwork = 1, liwork = 1;
    {
        T q = T(0);
        R rq[2] = {R(0), R(0)};
        lint iq[2] = {0, 0}, rank = 0;
        if (Lapack<T>::gelsd((lint)m, (lint)n, (lint)k, &q, (lint)m, &q, (lint)ld, rq, rcond, &rank, &q, -1, rq, iq) == 0) {
            lwork = std::max(lwork, work_size(q));
            lrwork = std::max(lrwork, work_size(rq[0]));
            liwork = std::max(liwork, iq[0]);
        }
    }
    Failure fail;
    run_batch(bt.count, m, n, [&](int64_t b, int64_t e) {
        Buffer<T> a(m * n), x(ld * k), work(lwork);
        Buffer<R> s(mn), rwork(is_cplx<T> ? lrwork : 1);
        std::vector<lint> iwork((size_t)liwork);
        for (int64_t i = b; i < e; ++i) {
            load_cm(A, bt.offset(A, i), m, n, a.data(), m);
            load_cm(B, bt.offset(B, i), m, k, x.data(), ld);
            bool finite = all_finite(a.data(), m * n);
            for (int64_t j = 0; finite && j < k; ++j) finite = all_finite(x.data() + j * ld, m);
            if (!finite) {
                store_info(I, bt.offset(I, i), 1);
                continue;
            }
            lint rank = 0;
            lint info = Lapack<T>::gelsd((lint)m, (lint)n, (lint)k, a.data(), (lint)m, x.data(), (lint)ld, s.data(), rcond, &rank,
                                         work.data(), lwork, rwork.data(), iwork.data());
            if (info < 0) fail.record("gelsd", info);
            store_info(I, bt.offset(I, i), info != 0);
            if (info != 0) continue;
            store_cm(X, bt.offset(X, i), n, k, x.data(), ld);
            store_vec<R>(S, bt.offset(S, i), mn, s.data());
            store_info(K, bt.offset(K, i), rank);
        }
    }, kSvdRule);
    return fail.status("lstsq");
}

}  // namespace

ember_status_t solve_kernel(const ember_kernel_call_t* c) {
    if (c->in[1].dtype != c->in[0].dtype) return g_host->fail(EMBER_ERR_UNSUPPORTED_DTYPE, "cpu solve: a and b of different dtypes");
    return visit(c, c->in[0].dtype, [&](auto z) { return solve_t<decltype(z)>(c); });
}
ember_status_t inv_kernel(const ember_kernel_call_t* c) {
    return visit(c, c->in[0].dtype, [&](auto z) { return inv_t<decltype(z)>(c); });
}
ember_status_t det_kernel(const ember_kernel_call_t* c) {
    return visit(c, c->in[0].dtype, [&](auto z) { return det_t<decltype(z)>(c, false); });
}
ember_status_t slogdet_kernel(const ember_kernel_call_t* c) {
    return visit(c, c->in[0].dtype, [&](auto z) { return det_t<decltype(z)>(c, true); });
}
ember_status_t lstsq_kernel(const ember_kernel_call_t* c) {
    if (c->in[1].dtype != c->in[0].dtype) return g_host->fail(EMBER_ERR_UNSUPPORTED_DTYPE, "cpu lstsq: a and b of different dtypes");
    return visit(c, c->in[0].dtype, [&](auto z) { return lstsq_t<decltype(z)>(c); });
}

}  // namespace lapack
}  // namespace ember_cpu
