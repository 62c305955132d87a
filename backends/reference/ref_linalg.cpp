// Reference kernels of the direct factorizations: lu_factor (partial pivoting), lu_solve,
// cholesky, qr (Householder). Conventions in docs/numerics-linalg.md.
#include "ref_linalg.hpp"

namespace ember_ref {
namespace linalg {
namespace {

// in: A (..., m, n). out: LU (..., m, n), pivots int64 (..., min(m, n)), info int64 (...).
ember_status_t lu_factor_kernel(const ember_kernel_call_t* call) {
    const ember_view_t &A = call->in[0], &LU = call->out[0], &P = call->out[1], &I = call->out[2];
    int nb = A.ndim - 2;
    return visit_float("lu_factor", A.dtype, [&](auto tt, auto ts) {
        using T = typename decltype(tt)::type;
        using S = typename decltype(ts)::type;
        for_each_batch(nb, A.shape, [&](int64_t, const int64_t* idx) {
            Mat<S> a = load<S, T>(A, batch_offset(A, nb, idx));
            int64_t m = a.rows, n = a.cols, k = std::min(m, n), info = 0;
            std::vector<int64_t> piv((size_t)k);
            for (int64_t j = 0; j < k; ++j) {
                int64_t p = j;
                double best = std::abs(a(j, j));
                for (int64_t i = j + 1; i < m; ++i)
                    if (std::abs(a(i, j)) > best) {
                        best = std::abs(a(i, j));
                        p = i;
                    }
                piv[(size_t)j] = p;
                if (a(p, j) == S(0)) {  // singular: record the first zero pivot, keep going
                    if (!info) info = j + 1;
                    continue;
                }
                if (p != j)
                    for (int64_t c = 0; c < n; ++c) std::swap(a(j, c), a(p, c));
                for (int64_t i = j + 1; i < m; ++i) {
                    a(i, j) /= a(j, j);
                    S l = a(i, j);
                    if (l == S(0)) continue;
                    for (int64_t c = j + 1; c < n; ++c) a(i, c) -= l * a(j, c);
                }
            }
            store<T>(LU, batch_offset(LU, nb, idx), a);
            int64_t po = batch_offset(P, nb, idx);
            for (int64_t j = 0; j < k; ++j) ((int64_t*)P.data)[po + j * P.strides[nb]] = piv[(size_t)j];
            store_info(I, batch_offset(I, nb, idx), info);
        });
        return EMBER_OK;
    });
}

// in: LU (..., n, n), pivots int64 (..., n), B (..., n, k) (batch axes already broadcast).
// out: X (..., n, k).
ember_status_t lu_solve_kernel(const ember_kernel_call_t* call) {
    const ember_view_t &LU = call->in[0], &P = call->in[1], &B = call->in[2], &X = call->out[0];
    int nb = X.ndim - 2;
    return visit_float("lu_solve", LU.dtype, [&](auto tt, auto ts) {
        using T = typename decltype(tt)::type;
        using S = typename decltype(ts)::type;
        bool failed = false;
        int64_t bad = 0, bad_batch = 0;
        for_each_batch(nb, X.shape, [&](int64_t flat, const int64_t* idx) {
            if (failed) return;
            Mat<S> lu = load<S, T>(LU, batch_offset(LU, nb, idx));
            Mat<S> b = load<S, T>(B, batch_offset(B, nb, idx));
            int64_t n = lu.rows, k = b.cols, po = batch_offset(P, nb, idx);
            for (int64_t i = 0; i < n; ++i) {
                int64_t p = ((const int64_t*)P.data)[po + i * P.strides[nb]];
                if (p < 0 || p >= n) {
                    failed = true;
                    bad = p;
                    bad_batch = flat;
                    return;
                }
                if (p != i)
                    for (int64_t c = 0; c < k; ++c) std::swap(b(i, c), b(p, c));
            }
            for (int64_t i = 0; i < n; ++i)  // L y = P b, unit diagonal
                for (int64_t j = 0; j < i; ++j) {
                    S l = lu(i, j);
                    if (l != S(0))
                        for (int64_t c = 0; c < k; ++c) b(i, c) -= l * b(j, c);
                }
            for (int64_t i = n; i-- > 0;) {  // U x = y
                for (int64_t j = i + 1; j < n; ++j) {
                    S u = lu(i, j);
                    if (u != S(0))
                        for (int64_t c = 0; c < k; ++c) b(i, c) -= u * b(j, c);
                }
                for (int64_t c = 0; c < k; ++c) b(i, c) /= lu(i, i);
            }
            store<T>(X, batch_offset(X, nb, idx), b);
        });
        if (failed)
            return g_host->fail(EMBER_ERR_INDEX, "pivot %lld of matrix %lld of the batch is out of range [0, %lld)", (long long)bad,
                                (long long)bad_batch, (long long)LU.shape[LU.ndim - 1]);
        return EMBER_OK;
    });
}

// in: A (..., n, n). out: L or U (..., n, n), info int64 (...). attrs i[0]: upper.
ember_status_t cholesky_kernel(const ember_kernel_call_t* call) {
    const ember_view_t &A = call->in[0], &L = call->out[0], &I = call->out[1];
    bool upper = call->attrs->i[0] != 0;
    int nb = A.ndim - 2;
    return visit_float("cholesky", A.dtype, [&](auto tt, auto ts) {
        using T = typename decltype(tt)::type;
        using S = typename decltype(ts)::type;
        for_each_batch(nb, A.shape, [&](int64_t, const int64_t* idx) {
            Mat<S> a = load<S, T>(A, batch_offset(A, nb, idx));
            int64_t n = a.rows, info = 0;
            Mat<S> l(n, n);  // the lower triangle of A (upper: of A^H)
            for (int64_t i = 0; i < n; ++i)
                for (int64_t j = 0; j <= i; ++j) l(i, j) = upper ? conj_of(a(j, i)) : a(i, j);
            for (int64_t j = 0; j < n && !info; ++j) {
                double d = real_of_s(l(j, j));
                for (int64_t k = 0; k < j; ++k) d -= abs2(l(j, k));
                if (!(d > 0)) {  // also catches NaN
                    info = j + 1;
                    break;
                }
                d = std::sqrt(d);
                l(j, j) = S(d);
                for (int64_t i = j + 1; i < n; ++i) {
                    S s = l(i, j);
                    for (int64_t k = 0; k < j; ++k) s -= l(i, k) * conj_of(l(j, k));
                    l(i, j) = s / d;
                }
            }
            Mat<S> r(n, n);
            for (int64_t i = 0; i < n; ++i)
                for (int64_t j = 0; j <= i; ++j) {
                    if (upper) r(j, i) = conj_of(l(i, j));
                    else r(i, j) = l(i, j);
                }
            store<T>(L, batch_offset(L, nb, idx), r);
            store_info(I, batch_offset(I, nb, idx), info);
        });
        return EMBER_OK;
    });
}

// in: A (..., m, n). attrs i[0]: mode (0 reduced, 1 complete, 2 R only).
// out: reduced Q (..., m, k), R (..., k, n); complete Q (..., m, m), R (..., m, n); R only: R.
ember_status_t qr_kernel(const ember_kernel_call_t* call) {
    const ember_view_t& A = call->in[0];
    int mode = (int)call->attrs->i[0];
    bool want_q = mode != 2;
    const ember_view_t& R = call->out[want_q ? 1 : 0];
    int nb = A.ndim - 2;
    return visit_float("qr", A.dtype, [&](auto tt, auto ts) {
        using T = typename decltype(tt)::type;
        using S = typename decltype(ts)::type;
        for_each_batch(nb, A.shape, [&](int64_t, const int64_t* idx) {
            Mat<S> a = load<S, T>(A, batch_offset(A, nb, idx));
            int64_t m = a.rows, n = a.cols, k = std::min(m, n), kq = mode == 1 ? m : k;
            std::vector<S> tau((size_t)k);
            for (int64_t j = 0; j < k; ++j) {
                S t = householder(a(j, j), j + 1 < m ? &a(j + 1, j) : nullptr, m - j - 1, n);
                tau[(size_t)j] = t;
                if (t == S(0)) continue;
                S ct = conj_of(t);
                for (int64_t c = j + 1; c < n; ++c) {  // A := H^H A
                    S w = a(j, c);
                    for (int64_t i = j + 1; i < m; ++i) w += conj_of(a(i, j)) * a(i, c);
                    w *= ct;
                    a(j, c) -= w;
                    for (int64_t i = j + 1; i < m; ++i) a(i, c) -= a(i, j) * w;
                }
            }
            Mat<S> r(kq, n);
            for (int64_t i = 0; i < std::min(kq, k); ++i)
                for (int64_t c = i; c < n; ++c) r(i, c) = a(i, c);
            store<T>(R, batch_offset(R, nb, idx), r);
            if (!want_q) return;
            Mat<S> q(m, kq);  // Q = H_0 H_1 ... H_{k-1} applied to the first kq columns of I
            for (int64_t i = 0; i < kq; ++i) q(i, i) = S(1);
            for (int64_t j = k; j-- > 0;) {
                S t = tau[(size_t)j];
                if (t == S(0)) continue;
                for (int64_t c = 0; c < kq; ++c) {
                    S w = q(j, c);
                    for (int64_t i = j + 1; i < m; ++i) w += conj_of(a(i, j)) * q(i, c);
                    w *= t;
                    q(j, c) -= w;
                    for (int64_t i = j + 1; i < m; ++i) q(i, c) -= a(i, j) * w;
                }
            }
            store<T>(call->out[0], batch_offset(call->out[0], nb, idx), q);
        });
        return EMBER_OK;
    });
}

void add_linalg_kernels(KernelList& k) {
    k.emplace_back("lu_factor", lu_factor_kernel);
    k.emplace_back("lu_solve", lu_solve_kernel);
    k.emplace_back("cholesky", cholesky_kernel);
    k.emplace_back("qr", qr_kernel);
}

RegisterKernels reg(add_linalg_kernels);

}  // namespace
}  // namespace linalg
}  // namespace ember_ref
