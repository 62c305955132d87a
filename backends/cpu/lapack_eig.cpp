// The cpu backend's iterative linalg primitives over LAPACKE: svd (gesdd), eigh
// (syevd/heevd), eig (geev). The core has checked that the input (eigh: the triangle read)
// is finite; info > 0 (no convergence) is copied through. Conventions:
// docs/numerics-linalg.md.
#include "lapack.hpp"

namespace ember_cpu {
namespace lapack {

namespace {

// in: A (..., m, n); attrs i[0]: full_matrices, i[1]: compute_uv.
// out: U (..., m, m|k), S real (..., k) descending, Vh (..., n|k, n), info; without uv:
// S, info. gesdd with jobz 'A', 'S' or 'N', always on a tall (or square) matrix: gesdd's
// path for a wide one (an LQ factorization first) took 3x as long as on its transpose
// (float64 100 x 1000: 12.3 against 4.2 ms; 300 x 2000: 89 against 34). A wide A goes to
// LAPACK as A^T, its row-major copy: A^T = U' S V'^H gives A = conj(V') S U'^T, so
// U = (V'^H)^T and Vh = U'^T, plain transposes that the row-major stores make.
template <class T>
ember_status_t svd_t(const ember_kernel_call_t* c) {
    using R = real_t<T>;
    const ember_view_t& A = c->in[0];
    const bool full = c->attrs->i[0] != 0, uv = c->attrs->i[1] != 0;
    const ember_view_t& Sv = c->out[uv ? 1 : 0];
    const ember_view_t& I = c->out[uv ? 3 : 1];
    const int nb = A.ndim - 2;
    const int64_t m = A.shape[nb], n = A.shape[nb + 1], k = std::min(m, n), mx = std::max(m, n);
    const bool wide = m < n;
    if (mx <= kReferenceMatrix) return reference_on_batch(c, nb, m, n);
    // LAPACK's matrix is mx x k: U' mx x (mx | k), V'^H k x k.
    const int64_t ucols = full ? mx : k;
    const char jobz = !uv ? 'N' : full ? 'A' : 'S';
    const int64_t ldu = uv ? mx : 1, ldvt = uv ? k : 1;
    // zgesdd's real workspace (LAPACK 3.11 documentation, with the pre-3.7 bound for 'N').
    const int64_t lrwork = !is_cplx<T> ? 1 : !uv ? 7 * k : std::max(5 * k * k + 5 * k, 2 * mx * k + 2 * k * k + k);
    if (!fits({m, n, m * n, mx * ucols, k * k, lrwork, 8 * k})) return delegate(c);
    Batch bt(A, nb);
    lint lwork = 1;
    {
        Buffer<T> a(m * n);
        std::vector<T> u(padded(1)), vt(padded(1));
        std::vector<R> s(padded(k)), rwork(padded(1));
        std::vector<lint> iwork((size_t)(8 * k));
        T q = T(0);
        if (Lapack<T>::gesdd(jobz, (lint)mx, (lint)k, a.data(), (lint)mx, s.data(), u.data(), (lint)ldu, vt.data(), (lint)ldvt, &q, -1,
                             rwork.data(), iwork.data()) == 0)
            lwork = work_size(q);
    }
    Failure fail;
    run_batch(bt.count, m, n, [&](int64_t b, int64_t e) {
        Buffer<T> a(m * n), u(uv ? mx * ucols : 1), vt(uv ? k * k : 1), work(lwork);
        std::vector<R> s(padded(k)), rwork(padded(lrwork));
        std::vector<lint> iwork((size_t)(8 * k));
        for (int64_t i = b; i < e; ++i) {
            int64_t off = bt.offset(A, i);
            if (wide)
                load_rm(A, off, m, n, a.data());
            else
                load_cm(A, off, m, n, a.data(), m);
            lint info = Lapack<T>::gesdd(jobz, (lint)mx, (lint)k, a.data(), (lint)mx, s.data(), u.data(), (lint)ldu, vt.data(), (lint)ldvt,
                                         work.data(), lwork, rwork.data(), iwork.data());
            if (info < 0) {
                fail.record("gesdd", info);
                info = 0;
            }
            store_vec<R>(Sv, bt.offset(Sv, i), k, s.data());
            if (uv && wide) {
                store_rm(c->out[0], bt.offset(c->out[0], i), k, k, vt.data());
                store_rm(c->out[2], bt.offset(c->out[2], i), ucols, n, u.data());
            } else if (uv) {
                store_cm(c->out[0], bt.offset(c->out[0], i), m, ucols, u.data(), m);
                store_cm(c->out[2], bt.offset(c->out[2], i), k, n, vt.data(), k);
            }
            store_info(I, bt.offset(I, i), info);
        }
    }, kSvdRule);
    return fail.status("svd");
}

// in: A (..., n, n), only the triangle named by attrs i[0] (1 = upper) read, its diagonal's
// imaginary part ignored; attrs i[1]: compute_v. out: W real ascending, V (eigenvectors in
// columns), info; without v: W, info. syevd/heevd.
template <class T>
ember_status_t eigh_t(const ember_kernel_call_t* c) {
    using R = real_t<T>;
    const ember_view_t& A = c->in[0];
    const bool upper = c->attrs->i[0] != 0, want_v = c->attrs->i[1] != 0;
    const ember_view_t& W = c->out[0];
    const ember_view_t& I = c->out[want_v ? 2 : 1];
    const int nb = A.ndim - 2;
    const int64_t n = A.shape[nb];
    const char jobz = want_v ? 'V' : 'N', uplo = upper ? 'U' : 'L';
    if (!fits({n, n * n})) return delegate(c);
    if (n <= kReferenceMatrix) return reference_on_batch(c, nb, n, n);
    Batch bt(A, nb);
    lint lwork = 1, lrwork = 1, liwork = 1;
    {
        Buffer<T> a(n * n);
        std::vector<R> w(padded(n));
        T q = T(0);
        R rq = R(1);
        lint iq = 1;
        if (Lapack<T>::syevd(jobz, uplo, (lint)n, a.data(), (lint)n, w.data(), &q, -1, &rq, -1, &iq, -1) == 0) {
            lwork = work_size(q);
            if (is_cplx<T>) lrwork = work_size(rq);
            liwork = std::max<lint>(1, iq);
        }
    }
    Failure fail;
    run_batch(bt.count, n, n, [&](int64_t b, int64_t e) {
        Buffer<T> a(n * n), work(lwork);
        std::vector<R> w(padded(n)), rwork(padded(lrwork));
        std::vector<lint> iwork((size_t)liwork);
        for (int64_t i = b; i < e; ++i) {
            load_cm(A, bt.offset(A, i), n, n, a.data(), n);
            // Only the named triangle is meaningful (the other may hold anything, NaN
            // included): zero the other one and the diagonal's imaginary parts.
            for (int64_t j = 0; j < n; ++j)
                for (int64_t r = 0; r < n; ++r) {
                    T& x = a[(size_t)(r + j * n)];
                    if (upper ? r > j : r < j) x = T(0);
                    else if (r == j) x = T(std::real(x));
                }
            lint info = Lapack<T>::syevd(jobz, uplo, (lint)n, a.data(), (lint)n, w.data(), work.data(), lwork, rwork.data(), lrwork,
                                         iwork.data(), liwork);
            if (info < 0) {
                fail.record(is_cplx<T> ? "heevd" : "syevd", info);
                info = 0;
            }
            store_vec<R>(W, bt.offset(W, i), n, w.data());
            if (want_v) store_cm(c->out[1], bt.offset(c->out[1], i), n, n, a.data(), n);
            store_info(I, bt.offset(I, i), info);
        }
    });
    return fail.status("eigh");
}

// in: A (..., n, n) real or complex; attrs i[0]: compute_v. out: W complex (..., n), V
// complex (..., n, n), info; without v: W, info. geev (with balancing) for the right
// eigenvectors; a real matrix's conjugate pairs (wr ± i wi, vr[:, j] ± i vr[:, j+1]) are
// expanded into complex columns; every column is then rescaled so that its largest
// component is real and positive (the reference's normalisation; geev returns unit norm).
template <class T>
ember_status_t eig_t(const ember_kernel_call_t* c) {
    using R = real_t<T>;
    using C = std::complex<R>;
    const ember_view_t& A = c->in[0];
    const bool want_v = c->attrs->i[0] != 0;
    const ember_view_t& W = c->out[0];
    const ember_view_t& I = c->out[want_v ? 2 : 1];
    const int nb = A.ndim - 2;
    const int64_t n = A.shape[nb];
    const char jobvr = want_v ? 'V' : 'N';
    const int64_t ldvr = want_v ? n : 1;
    if (!fits({n, 2 * n * n})) return delegate(c);
    Batch bt(A, nb);
    lint lwork = 1;
    {
        Buffer<T> a(n * n);
        std::vector<T> vr(padded(1));
        std::vector<R> rwork(padded(2 * n));
        T q = T(0);
        lint st;
        if constexpr (is_cplx<T>) {
            std::vector<T> w(padded(n));
            st = Lapack<T>::geev(jobvr, (lint)n, a.data(), (lint)n, w.data(), vr.data(), (lint)ldvr, &q, -1, rwork.data());
        } else {
            std::vector<T> wr(padded(n)), wi(padded(n));
            st = Lapack<T>::geev(jobvr, (lint)n, a.data(), (lint)n, wr.data(), wi.data(), vr.data(), (lint)ldvr, &q, -1);
        }
        if (st == 0) lwork = work_size(q);
    }
    Failure fail;
    run_batch(bt.count, n, n, [&](int64_t b, int64_t e) {
        Buffer<T> a(n * n), vr(want_v ? n * n : 1), work(lwork);
        std::vector<R> wr(padded(n)), wi(padded(n)), rwork(padded(2 * n));
        std::vector<C> w(padded(n));
        Buffer<C> v(want_v ? n * n : 0);
        for (int64_t i = b; i < e; ++i) {
            load_cm(A, bt.offset(A, i), n, n, a.data(), n);
            lint info;
            if constexpr (is_cplx<T>) {
                info = Lapack<T>::geev(jobvr, (lint)n, a.data(), (lint)n, w.data(), vr.data(), (lint)ldvr, work.data(), lwork, rwork.data());
                if (want_v) std::copy(vr.begin(), vr.end(), v.begin());
            } else {
                info = Lapack<T>::geev(jobvr, (lint)n, a.data(), (lint)n, wr.data(), wi.data(), vr.data(), (lint)ldvr, work.data(), lwork);
                for (int64_t j = 0; j < n; ++j) w[(size_t)j] = C(wr[(size_t)j], wi[(size_t)j]);
                if (want_v) {
                    for (int64_t j = 0; j < n; ++j) {
                        const R* re = &vr[(size_t)(j * n)];
                        C* col = &v[(size_t)(j * n)];
                        if (wi[(size_t)j] != 0 && j + 1 < n) {  // a pair: columns j (real part) and j+1 (imaginary part)
                            const R* im = re + n;
                            C* col2 = col + n;
                            for (int64_t r = 0; r < n; ++r) {
                                col[r] = C(re[r], im[r]);
                                col2[r] = C(re[r], -im[r]);
                            }
                            ++j;
                        } else {
                            for (int64_t r = 0; r < n; ++r) col[r] = C(re[r], 0);
                        }
                    }
                }
            }
            if (info < 0) {
                fail.record("geev", info);
                info = 0;
            }
            store_vec<C>(W, bt.offset(W, i), n, w.data());
            if (want_v) {
                if (info == 0)
                    for (int64_t j = 0; j < n; ++j) phase_normalise(&v[(size_t)(j * n)], n);
                else  // no eigenvectors were computed
                    std::fill(v.begin(), v.end(), C(0));
                store_cm(c->out[1], bt.offset(c->out[1], i), n, n, v.data(), n);
            }
            store_info(I, bt.offset(I, i), info);
        }
    }, kQrEigRule<T>);
    return fail.status("eig");
}

}  // namespace

ember_status_t svd_kernel(const ember_kernel_call_t* c) {
    return visit(c, c->in[0].dtype, [&](auto z) { return svd_t<decltype(z)>(c); });
}
ember_status_t eigh_kernel(const ember_kernel_call_t* c) {
    return visit(c, c->in[0].dtype, [&](auto z) { return eigh_t<decltype(z)>(c); });
}
ember_status_t eig_kernel(const ember_kernel_call_t* c) {
    return visit(c, c->in[0].dtype, [&](auto z) { return eig_t<decltype(z)>(c); });
}

}  // namespace lapack
}  // namespace ember_cpu
