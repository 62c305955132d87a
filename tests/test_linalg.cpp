// Linear algebra: accuracy by identities (A*x = b, Q*R = A with orthonormal Q,
// U*S*V^H = A, A*v = lambda*v, ...) at tolerances scaled by size and condition number, on
// well-conditioned, ill-conditioned and rank-deficient inputs; error reporting; shapes,
// dtypes and batching. Host-side checks are done in complex<double> on values read back,
// never with Ember's own ops. The identity checks also run on every other available
// backend (its native kernels or the reference fallback).
#include <algorithm>
#include <functional>
#include <random>

#include "host_matrix.hpp"

namespace {

// ---------------------------------------------------------------- host matrices (host_matrix.hpp)

std::mt19937& rng() { return per_test_rng(20240611u); }
HM hrandom(int64_t r, int64_t c, bool cplx) { return ::hrandom(r, c, cplx, rng()); }
// A random unitary (orthogonal) n x n matrix: Gram-Schmidt, twice, of a random matrix.
HM hunitary(int64_t n, bool cplx) {
    HM a = hrandom(n, n, cplx);
    for (int64_t j = 0; j < n; ++j)
        for (int pass = 0; pass < 2; ++pass) {
            for (int64_t k = 0; k < j; ++k) {
                cd d = 0;
                for (int64_t i = 0; i < n; ++i) d += std::conj(a(i, k)) * a(i, j);
                for (int64_t i = 0; i < n; ++i) a(i, j) -= d * a(i, k);
            }
            double nr = 0;
            for (int64_t i = 0; i < n; ++i) nr += std::norm(a(i, j));
            nr = std::sqrt(nr);
            for (int64_t i = 0; i < n; ++i) a(i, j) /= nr;
        }
    return a;
}
// m x n with the given singular values (the rest zero).
HM hwith_sv(int64_t m, int64_t n, const std::vector<double>& s, bool cplx) {
    std::vector<cd> d(s.begin(), s.end());
    return hmul(hmul(hunitary(m, cplx), hdiag(d, m, n)), hadj(hunitary(n, cplx)));
}
std::vector<double> geometric(int64_t k, double cond) {  // 1 ... 1/cond
    std::vector<double> s((size_t)k);
    for (int64_t i = 0; i < k; ++i) s[(size_t)i] = k == 1 ? 1 : std::pow(cond, -(double)i / (double)(k - 1));
    return s;
}

// ---------------------------------------------------------------- tensors <-> host

struct Ctx {
    ember_ctx_t* c = nullptr;
    explicit Ctx(const char* backend) { ember_ctx_create_on(backend, 0, &c); }
    ~Ctx() { ember_ctx_release(c); }
};


T tensor(ember_ctx_t* ctx, const std::vector<HM>& ms, std::vector<int64_t> batch, ember_dtype_t dtype) {
    std::vector<cd> data;
    for (const HM& m : ms) data.insert(data.end(), m.v.begin(), m.v.end());
    std::vector<int64_t> shape = batch;
    shape.push_back(ms[0].r);
    shape.push_back(ms[0].c);
    T src, out;
    EXPECT_EQ(ember_tensor_from_data(ctx, data.data(), EMBER_COMPLEX128, shape.data(), (int)shape.size(), src.out()), EMBER_OK);
    EXPECT_EQ(ember_astype(ctx, src, dtype, out.out()), EMBER_OK) << ember_last_error();
    return out;
}
T tensor1(ember_ctx_t* ctx, const HM& m, ember_dtype_t dtype) { return tensor(ctx, {m}, {}, dtype); }

std::vector<double> reals(const ember_tensor_t* t) {
    std::vector<double> r;
    for (cd x : host(t)) r.push_back(x.real());
    return r;
}

double orth_error(const HM& q) { return hnorm(hsub(hmul(hadj(q), q), heye(q.c))); }  // ||Q^H Q - I||

const ember_dtype_t kFloatDtypes[] = {EMBER_FLOAT32, EMBER_FLOAT64, EMBER_COMPLEX64, EMBER_COMPLEX128};

// ---------------------------------------------------------------- identity checks (per backend)

// A*x = b: backward error ||A x - b|| / (||A|| ||x|| + ||b||) <= c n eps, and forward
// error ||x - x_true|| / ||x_true|| <= c n cond eps.
void check_solve(ember_ctx_t* ctx, ember_dtype_t dt, int64_t n, double cond, const std::string& what) {
    bool cx = is_cplx(dt);
    std::vector<HM> as, xs, bs;
    for (int b = 0; b < 3; ++b) {
        as.push_back(hwith_sv(n, n, geometric(n, cond), cx));
        xs.push_back(hrandom(n, 2, cx));
    }
    T A = tensor(ctx, as, {3}, dt), Xt = tensor(ctx, xs, {3}, dt);
    for (int b = 0; b < 3; ++b) bs.push_back(hmul(as[(size_t)b], xs[(size_t)b]));
    T B = tensor(ctx, bs, {3}, dt), X;
    ASSERT_EQ(ember_solve(ctx, A, B, X.out()), EMBER_OK) << ember_last_error();
    EXPECT_EQ(dtype_of(X), dt);
    EXPECT_EQ(shape_of(X), (std::vector<int64_t>{3, n, 2}));
    auto got = mats(X);
    auto a_r = mats(A), b_r = mats(B), x_r = mats(Xt);  // the rounded inputs
    double eps = eps_of(dt);
    for (int b = 0; b < 3; ++b) {
        double back = hnorm(hsub(hmul(a_r[(size_t)b], got[(size_t)b]), b_r[(size_t)b])) /
                      (hnorm(a_r[(size_t)b]) * hnorm(got[(size_t)b]) + hnorm(b_r[(size_t)b]));
        EXPECT_LE(back, 20 * n * eps) << what << " backward error, matrix " << b;
        double fwd = hnorm(hsub(got[(size_t)b], x_r[(size_t)b])) / hnorm(x_r[(size_t)b]);
        EXPECT_LE(fwd, 20 * n * cond * eps + 1e-300) << what << " forward error, matrix " << b;
    }
}

void check_qr(ember_ctx_t* ctx, ember_dtype_t dt, int64_t m, int64_t n, int64_t rank, const std::string& what) {
    bool cx = is_cplx(dt);
    int64_t k = std::min(m, n);
    std::vector<double> s = geometric(rank, 100);
    s.resize((size_t)k, 0.0);
    HM a = hwith_sv(m, n, s, cx);
    T A = tensor1(ctx, a, dt);
    HM ar = mats(A)[0];
    double eps = eps_of(dt);
    for (ember_qr_mode_t mode : {EMBER_QR_REDUCED, EMBER_QR_COMPLETE, EMBER_QR_R}) {
        T Q, R;
        ASSERT_EQ(ember_qr(ctx, A, mode, mode == EMBER_QR_R ? nullptr : Q.out(), R.out()), EMBER_OK) << ember_last_error();
        int64_t kq = mode == EMBER_QR_COMPLETE ? m : k;
        EXPECT_EQ(shape_of(R), (std::vector<int64_t>{kq, n})) << what;
        HM r = mats(R)[0];
        for (int64_t i = 0; i < r.r; ++i) {
            for (int64_t j = 0; j < std::min(i, r.c); ++j) EXPECT_EQ(r(i, j), cd(0)) << what << " R not upper triangular";
            if (i < r.c) {
                EXPECT_EQ(r(i, i).imag(), 0.0) << what << " R's diagonal is not real";
            }
        }
        if (mode == EMBER_QR_R) {
            EXPECT_EQ(Q.t, nullptr);
            continue;
        }
        EXPECT_EQ(shape_of(Q), (std::vector<int64_t>{m, kq})) << what;
        HM q = mats(Q)[0];
        EXPECT_LE(orth_error(q), 20 * m * eps) << what << " Q not orthonormal";
        EXPECT_LE(hnorm(hsub(hmul(q, r), ar)), 20 * m * eps * hnorm(ar)) << what << " Q*R != A";
    }
}

void check_svd(ember_ctx_t* ctx, ember_dtype_t dt, int64_t m, int64_t n, int64_t rank, double cond, const std::string& what) {
    bool cx = is_cplx(dt);
    int64_t k = std::min(m, n);
    std::vector<double> s = geometric(rank, cond);
    s.resize((size_t)k, 0.0);
    std::vector<HM> as = {hwith_sv(m, n, s, cx), hwith_sv(m, n, s, cx)};
    T A = tensor(ctx, as, {2}, dt);
    auto ar = mats(A);
    double eps = eps_of(dt);
    for (int full = 0; full < 2; ++full) {
        T U, S, Vh;
        ASSERT_EQ(ember_svd(ctx, A, full, U.out(), S.out(), Vh.out()), EMBER_OK) << ember_last_error();
        int64_t ku = full ? m : k, kv = full ? n : k;
        EXPECT_EQ(shape_of(U), (std::vector<int64_t>{2, m, ku})) << what;
        EXPECT_EQ(shape_of(S), (std::vector<int64_t>{2, k})) << what;
        EXPECT_EQ(shape_of(Vh), (std::vector<int64_t>{2, kv, n})) << what;
        EXPECT_EQ(dtype_of(S), (dt == EMBER_COMPLEX64 || dt == EMBER_FLOAT32) ? EMBER_FLOAT32 : EMBER_FLOAT64);
        auto u = mats(U), vh = mats(Vh);
        auto sv = mats(S, true);
        for (int b = 0; b < 2; ++b) {
            double anorm = hnorm(ar[(size_t)b]);
            EXPECT_LE(orth_error(u[(size_t)b]), 30 * std::max(m, n) * eps) << what << " U not orthonormal";
            EXPECT_LE(orth_error(hadj(vh[(size_t)b])), 30 * std::max(m, n) * eps) << what << " V not orthonormal";
            std::vector<cd> d;
            for (int64_t i = 0; i < k; ++i) {
                double si = sv[(size_t)b](i, 0).real();
                EXPECT_GE(si, 0) << what;
                if (i) {
                    EXPECT_LE(si, sv[(size_t)b](i - 1, 0).real()) << what << " S not descending";
                }
                EXPECT_NEAR(si, s[(size_t)i], 30 * k * eps * s[0]) << what << " singular value " << i;
                d.push_back(si);
            }
            HM us = hmul(u[(size_t)b], hdiag(d, ku, kv));
            EXPECT_LE(hnorm(hsub(hmul(us, vh[(size_t)b]), ar[(size_t)b])), 30 * std::max(m, n) * eps * anorm) << what << " U*S*Vh != A";
        }
    }
    T S2;
    ASSERT_EQ(ember_svdvals(ctx, A, S2.out()), EMBER_OK) << ember_last_error();
    auto s2 = reals(S2);
    ASSERT_EQ(s2.size(), (size_t)(2 * k));
    for (int64_t i = 0; i < k; ++i) EXPECT_NEAR(s2[(size_t)i], s[(size_t)i], 30 * k * eps * s[0]) << what;
}

void check_eigh(ember_ctx_t* ctx, ember_dtype_t dt, int64_t n, int upper, const std::string& what) {
    bool cx = is_cplx(dt);
    std::vector<double> lam;
    for (int64_t i = 0; i < n; ++i) lam.push_back(std::pow(-1.5, (double)i) * (1 + (double)i));  // mixed signs, some close
    if (n > 3) lam[1] = lam[0];                                                                  // a repeated eigenvalue
    std::vector<cd> dl(lam.begin(), lam.end());
    HM q = hunitary(n, cx);
    HM a = hmul(hmul(q, hdiag(dl, n, n)), hadj(q));
    // Garbage in the triangle that must not be read.
    for (int64_t i = 0; i < n; ++i)
        for (int64_t j = 0; j < n; ++j)
            if (upper ? i > j : i < j) a(i, j) = 1e30;
    T A = tensor1(ctx, a, dt);
    T W, V;
    ASSERT_EQ(ember_eigh(ctx, A, upper, W.out(), V.out()), EMBER_OK) << ember_last_error();
    auto w = reals(W);
    std::vector<double> want = lam;
    std::sort(want.begin(), want.end());
    double eps = eps_of(dt), scale = *std::max_element(want.begin(), want.end(), [](double x, double y) { return std::fabs(x) < std::fabs(y); });
    scale = std::fabs(scale);
    ASSERT_EQ(w.size(), (size_t)n);
    for (int64_t i = 0; i < n; ++i) {
        EXPECT_NEAR(w[(size_t)i], want[(size_t)i], 30 * n * eps * scale) << what << " eigenvalue " << i;
        if (i) {
            EXPECT_LE(w[(size_t)i - 1], w[(size_t)i]) << what << " not ascending";
        }
    }
    HM v = mats(V)[0];
    EXPECT_LE(orth_error(v), 30 * n * eps) << what;
    HM sym = hmul(hmul(q, hdiag(dl, n, n)), hadj(q));  // the Hermitian matrix the triangle describes
    std::vector<cd> dw(w.begin(), w.end());
    EXPECT_LE(hnorm(hsub(hmul(sym, v), hmul(v, hdiag(dw, n, n)))), 50 * n * eps * scale) << what << " A*V != V*diag(W)";
    T W2;
    ASSERT_EQ(ember_eigvalsh(ctx, A, upper, W2.out()), EMBER_OK) << ember_last_error();
    EXPECT_TRUE(all_close(reals(W2), w, 0, 30 * n * eps * scale)) << what;
}

void check_eig(ember_ctx_t* ctx, ember_dtype_t dt, int64_t n, const std::string& what) {
    bool cx = is_cplx(dt);
    HM a = hrandom(n, n, cx);
    T A = tensor1(ctx, a, dt);
    HM ar = mats(A)[0];
    T W, V;
    ASSERT_EQ(ember_eig(ctx, A, W.out(), V.out()), EMBER_OK) << ember_last_error();
    ember_dtype_t ct = (dt == EMBER_FLOAT32 || dt == EMBER_COMPLEX64) ? EMBER_COMPLEX64 : EMBER_COMPLEX128;
    EXPECT_EQ(dtype_of(W), ct);
    EXPECT_EQ(dtype_of(V), ct);
    std::vector<cd> w = host(W);
    HM v = mats(V)[0];
    double eps = eps_of(dt), anorm = hnorm(ar);
    for (int64_t j = 0; j < n; ++j) {
        HM col(n, 1);
        for (int64_t i = 0; i < n; ++i) col(i, 0) = v(i, j);
        EXPECT_NEAR(hnorm(col), 1.0, 10 * n * eps) << what << " eigenvector " << j << " not unit";
        HM r(n, 1), av = hmul(ar, col);
        for (int64_t i = 0; i < n; ++i) r(i, 0) = av(i, 0) - w[(size_t)j] * col(i, 0);
        EXPECT_LE(hnorm(r), 100 * n * eps * anorm) << what << " A*v != lambda*v for " << j;
    }
    // The eigenvalues' sum and product are the trace and the determinant.
    cd tr = 0;
    for (int64_t i = 0; i < n; ++i) tr += ar(i, i);
    cd ws = 0;
    for (cd x : w) ws += x;
    EXPECT_LE(std::abs(ws - tr), 100 * n * eps * anorm) << what << " sum of eigenvalues != trace";
    T W2;
    ASSERT_EQ(ember_eigvals(ctx, A, W2.out()), EMBER_OK) << ember_last_error();
    std::vector<cd> w2 = host(W2);
    ASSERT_EQ(w2.size(), w.size());
    for (cd x : w) {  // the same multiset
        double best = INFINITY;
        for (cd y : w2) best = std::min(best, std::abs(x - y));
        EXPECT_LE(best, 100 * n * eps * anorm) << what;
    }
}

void check_cholesky(ember_ctx_t* ctx, ember_dtype_t dt, int64_t n, double cond, const std::string& what) {
    bool cx = is_cplx(dt);
    std::vector<cd> d;
    for (double s : geometric(n, cond)) d.push_back(s);
    HM q = hunitary(n, cx);
    HM a = hmul(hmul(q, hdiag(d, n, n)), hadj(q));
    for (int64_t i = 0; i < n; ++i) a(i, i) = a(i, i).real();
    T A = tensor1(ctx, a, dt);
    HM ar = mats(A)[0];
    double eps = eps_of(dt);
    for (int upper = 0; upper < 2; ++upper) {
        T L;
        ASSERT_EQ(ember_cholesky(ctx, A, upper, L.out()), EMBER_OK) << ember_last_error();
        HM l = mats(L)[0];
        for (int64_t i = 0; i < n; ++i) {
            EXPECT_GT(l(i, i).real(), 0) << what;
            EXPECT_EQ(l(i, i).imag(), 0) << what;
            for (int64_t j = 0; j < n; ++j)
                if (upper ? i > j : i < j) {
                    EXPECT_EQ(l(i, j), cd(0)) << what << " not triangular";
                }
        }
        HM prod = upper ? hmul(hadj(l), l) : hmul(l, hadj(l));
        EXPECT_LE(hnorm(hsub(prod, ar)), 20 * n * eps * hnorm(ar)) << what << (upper ? " U^H U != A" : " L L^H != A");
    }
}

void check_lstsq(ember_ctx_t* ctx, ember_dtype_t dt, int64_t m, int64_t n, int64_t rank, const std::string& what) {
    bool cx = is_cplx(dt);
    int64_t k = std::min(m, n);
    std::vector<double> s = geometric(rank, 10);
    s.resize((size_t)k, 0.0);
    HM a = hwith_sv(m, n, s, cx);
    HM b = hrandom(m, 2, cx);
    T A = tensor1(ctx, a, dt), B = tensor1(ctx, b, dt);
    HM ar = mats(A)[0], br = mats(B)[0];
    T X, Res, Rank, Sv;
    ASSERT_EQ(ember_lstsq(ctx, A, B, -1, X.out(), Res.out(), Rank.out(), Sv.out()), EMBER_OK) << ember_last_error();
    double eps = eps_of(dt);
    EXPECT_EQ(shape_of(X), (std::vector<int64_t>{n, 2}));
    EXPECT_EQ(reals(Rank), (std::vector<double>{(double)rank})) << what;
    EXPECT_EQ(dtype_of(Rank), EMBER_INT64);
    auto sv = reals(Sv);
    ASSERT_EQ(sv.size(), (size_t)k);
    for (int64_t i = 0; i < k; ++i) EXPECT_NEAR(sv[(size_t)i], s[(size_t)i], 30 * k * eps) << what;
    HM x = mats(X)[0];
    HM r = hsub(hmul(ar, x), br);
    // Optimality: the residual is orthogonal to the range of A (normal equations).
    EXPECT_LE(hnorm(hmul(hadj(ar), r)), 100 * std::max(m, n) * eps * 10 * hnorm(br)) << what << " A^H (A x - b) != 0";
    // Minimum norm: x lies in the row space of A, i.e. x = pinv(A) A x.
    T P;
    ASSERT_EQ(ember_pinv(ctx, A, 0, -1, P.out()), EMBER_OK) << ember_last_error();
    HM p = mats(P)[0];
    EXPECT_LE(hnorm(hsub(hmul(hmul(p, ar), x), x)), 100 * std::max(m, n) * eps * 10 * hnorm(x)) << what << " x not of minimum norm";
    if (m > n && rank == n) {
        EXPECT_EQ(shape_of(Res), (std::vector<int64_t>{2})) << what;
        auto res = reals(Res);
        for (int64_t j = 0; j < 2; ++j) {
            double want = 0;
            for (int64_t i = 0; i < m; ++i) want += std::norm(r(i, j));
            EXPECT_NEAR(res[(size_t)j], want, 100 * m * eps * hnorm(br) * hnorm(br)) << what;
        }
    } else {
        EXPECT_EQ(shape_of(Res), (std::vector<int64_t>{0})) << what;
    }
}

void check_pinv(ember_ctx_t* ctx, ember_dtype_t dt, int64_t m, int64_t n, int64_t rank, const std::string& what) {
    bool cx = is_cplx(dt);
    std::vector<double> s = geometric(rank, 10);
    s.resize((size_t)std::min(m, n), 0.0);
    T A = tensor1(ctx, hwith_sv(m, n, s, cx), dt);
    HM a = mats(A)[0];
    T P;
    ASSERT_EQ(ember_pinv(ctx, A, 0, -1, P.out()), EMBER_OK) << ember_last_error();
    EXPECT_EQ(shape_of(P), (std::vector<int64_t>{n, m}));
    HM p = mats(P)[0];
    double tol = 200 * std::max(m, n) * eps_of(dt) * 10;  // cond of the non-zero part is 10
    HM ap = hmul(a, p), pa = hmul(p, a);
    EXPECT_LE(hnorm(hsub(hmul(ap, a), a)), tol * hnorm(a)) << what << " A A+ A != A";
    EXPECT_LE(hnorm(hsub(hmul(pa, p), p)), tol * hnorm(p)) << what << " A+ A A+ != A+";
    EXPECT_LE(hnorm(hsub(ap, hadj(ap))), tol * hnorm(ap)) << what << " A A+ not Hermitian";
    EXPECT_LE(hnorm(hsub(pa, hadj(pa))), tol * hnorm(pa)) << what << " A+ A not Hermitian";
    T R;
    ASSERT_EQ(ember_matrix_rank(ctx, A, 0, -1, R.out()), EMBER_OK) << ember_last_error();
    EXPECT_EQ(reals(R), (std::vector<double>{(double)rank})) << what;
}

void check_inv_det(ember_ctx_t* ctx, ember_dtype_t dt, int64_t n, double cond, const std::string& what) {
    bool cx = is_cplx(dt);
    HM a = hwith_sv(n, n, geometric(n, cond), cx);
    T A = tensor1(ctx, a, dt);
    HM ar = mats(A)[0];
    double eps = eps_of(dt);
    T Inv;
    ASSERT_EQ(ember_inv(ctx, A, Inv.out()), EMBER_OK) << ember_last_error();
    HM ai = mats(Inv)[0];
    EXPECT_LE(hnorm(hsub(hmul(ar, ai), heye(n))), 30 * n * cond * eps) << what << " A*inv(A) != I";
    // det against a host LU in long double; slogdet against det.
    std::vector<std::complex<long double>> lu(ar.v.begin(), ar.v.end());
    std::complex<long double> det = 1;
    for (int64_t j = 0; j < n; ++j) {
        int64_t p = j;
        for (int64_t i = j + 1; i < n; ++i)
            if (std::abs(lu[(size_t)(i * n + j)]) > std::abs(lu[(size_t)(p * n + j)])) p = i;
        if (p != j) {
            for (int64_t c = 0; c < n; ++c) std::swap(lu[(size_t)(j * n + c)], lu[(size_t)(p * n + c)]);
            det = -det;
        }
        det *= lu[(size_t)(j * n + j)];
        for (int64_t i = j + 1; i < n; ++i) {
            auto l = lu[(size_t)(i * n + j)] / lu[(size_t)(j * n + j)];
            for (int64_t c = j; c < n; ++c) lu[(size_t)(i * n + c)] -= l * lu[(size_t)(j * n + c)];
        }
    }
    cd want((double)det.real(), (double)det.imag());
    T D, Sg, La;
    ASSERT_EQ(ember_det(ctx, A, D.out()), EMBER_OK) << ember_last_error();
    cd got = host(D)[0];
    EXPECT_LE(std::abs(got - want), 30 * n * cond * eps * std::abs(want)) << what << " det " << got << " vs " << want;
    ASSERT_EQ(ember_slogdet(ctx, A, Sg.out(), La.out()), EMBER_OK) << ember_last_error();
    cd sg = host(Sg)[0];
    double la = reals(La)[0];
    EXPECT_NEAR(std::abs(sg), 1.0, 10 * eps) << what;
    EXPECT_LE(std::abs(sg * std::exp(la) - want), 30 * n * cond * eps * std::abs(want)) << what << " slogdet";
}

// Every identity check on one backend.
void check_all(ember_ctx_t* ctx, const std::string& backend) {
    for (ember_dtype_t dt : kFloatDtypes) {
        std::string w = backend + " " + ember_dtype_name(dt);
        bool f64 = dt == EMBER_FLOAT64 || dt == EMBER_COMPLEX128;
        check_solve(ctx, dt, 6, 10, w + " solve cond 10");
        check_solve(ctx, dt, 6, f64 ? 1e10 : 1e4, w + " solve ill-conditioned");
        check_inv_det(ctx, dt, 5, 20, w + " inv/det");
        check_cholesky(ctx, dt, 6, 100, w + " cholesky");
        check_qr(ctx, dt, 6, 4, 4, w + " qr tall");
        check_qr(ctx, dt, 3, 5, 3, w + " qr wide");
        check_qr(ctx, dt, 5, 5, 2, w + " qr rank-deficient");
        check_svd(ctx, dt, 6, 4, 4, 100, w + " svd tall");
        check_svd(ctx, dt, 3, 5, 3, 10, w + " svd wide");
        check_svd(ctx, dt, 6, 5, 3, 10, w + " svd rank-deficient");
        check_svd(ctx, dt, 5, 5, 5, f64 ? 1e12 : 1e5, w + " svd ill-conditioned");
        check_eigh(ctx, dt, 6, 0, w + " eigh lower");
        check_eigh(ctx, dt, 5, 1, w + " eigh upper");
        check_eig(ctx, dt, 6, w + " eig");
        check_lstsq(ctx, dt, 7, 4, 4, w + " lstsq overdetermined");
        check_lstsq(ctx, dt, 6, 5, 3, w + " lstsq rank-deficient");
        check_lstsq(ctx, dt, 3, 6, 3, w + " lstsq underdetermined");
        check_pinv(ctx, dt, 5, 4, 4, w + " pinv");
        check_pinv(ctx, dt, 4, 6, 2, w + " pinv rank-deficient");
        if (::testing::Test::HasFatalFailure()) return;
    }
}

// ---------------------------------------------------------------- tests

TEST(Linalg, IdentitiesOnReference) { check_all(test_ctx(), "reference"); }

TEST(Linalg, IdentitiesOnEveryBackend) {
    int tested = 0;
    for (const std::string& nm : other_backends(true)) {
        const char* name = nm.c_str();
        Ctx c(name);
        if (!c.c) continue;
        // Device backends without the factorization kernels report EMBER_ERR_UNSUPPORTED.
        const char* binding = nullptr;
        ember_op_binding(name, "lu_factor", &binding);
        if (std::string(binding ? binding : "") == "unsupported") continue;
        check_all(c.c, nm);
        ++tested;
    }
    if (!tested) GTEST_SKIP() << "no other backend with linear-algebra kernels";
}

TEST(Linalg, KnownValues) {
    ember_ctx_t* c = test_ctx();
    T A = make<double>({1, 2, 3, 4}, {2, 2}, EMBER_FLOAT64), D, S, L, I;
    EM_OK(ember_det(c, A, D.out()));
    EXPECT_TRUE(all_close(values(D), {-2}, 1e-15));
    EM_OK(ember_slogdet(c, A, S.out(), L.out()));
    EXPECT_TRUE(all_close(values(S), {-1}, 0));
    EXPECT_TRUE(all_close(values(L), {std::log(2.0)}, 1e-15));
    EM_OK(ember_inv(c, A, I.out()));
    EXPECT_TRUE(all_close(values(I), {-2, 1, 1.5, -0.5}, 1e-15));
    // A permutation matrix: det is the sign of the permutation.
    T P = make<double>({0, 1, 0, 0, 0, 1, 1, 0, 0}, {3, 3}, EMBER_FLOAT32), DP;
    EM_OK(ember_det(c, P, DP.out()));
    EXPECT_EQ(values(DP), std::vector<double>{1});
    T P2 = make<double>({0, 1, 0, 1, 0, 0, 0, 0, 1}, {3, 3}, EMBER_FLOAT32), DP2;
    EM_OK(ember_det(c, P2, DP2.out()));
    EXPECT_EQ(values(DP2), std::vector<double>{-1});
    // Integer input computes in the default float.
    T Ai = make<double>({2, 1, 1, 3}, {2, 2}, EMBER_INT32), Di, Xi, bi = make<double>({3, 5}, {2}, EMBER_INT64);
    EM_OK(ember_det(c, Ai, Di.out()));
    EXPECT_EQ(dtype_of(Di), EMBER_FLOAT32);
    EXPECT_TRUE(all_close(values(Di), {5}, 1e-6));
    EM_OK(ember_solve(c, Ai, bi, Xi.out()));
    EXPECT_EQ(shape_of(Xi), std::vector<int64_t>{2});
    EXPECT_TRUE(all_close(values(Xi), {0.8, 1.4}, 1e-6));
    // float16 computes and returns float32.
    T Ah = make<double>({4, 0, 0, 2}, {2, 2}, EMBER_FLOAT16), Ih;
    EM_OK(ember_inv(c, Ah, Ih.out()));
    EXPECT_EQ(dtype_of(Ih), EMBER_FLOAT32);
    EXPECT_TRUE(all_close(values(Ih), {0.25, 0, 0, 0.5}, 0));
    // Complex determinant.
    std::vector<cd> cz = {cd(0, 1), cd(2, 0), cd(1, 0), cd(0, -1)};  // det = i*(-i) - 2 = -1
    int64_t shp[2] = {2, 2};
    T Cz, Dz;
    EM_OK(ember_tensor_from_data(c, cz.data(), EMBER_COMPLEX128, shp, 2, Cz.out()));
    EM_OK(ember_det(c, Cz, Dz.out()));
    auto dz = host(Dz);
    EXPECT_NEAR(dz[0].real(), -1, 1e-15);
    EXPECT_NEAR(dz[0].imag(), 0, 1e-15);
}

TEST(Linalg, SingularAndNotPositiveDefiniteAreErrors) {
    ember_ctx_t* c = test_ctx();
    // A batch of 5 where matrix 3 is singular (its rows are dependent).
    std::vector<HM> ms;
    for (int b = 0; b < 5; ++b) ms.push_back(hwith_sv(3, 3, {3, 2, 1}, false));
    ms[3] = HM(3, 3);
    for (int64_t j = 0; j < 3; ++j) {
        ms[3](0, j) = (double)j + 1;
        ms[3](1, j) = 2.0 * ((double)j + 1);
        ms[3](2, j) = (double)(j * j);
    }
    T A = tensor(c, ms, {5}, EMBER_FLOAT64), B = make<double>({1, 2, 3}, {3}, EMBER_FLOAT64);
    T X;
    EM_FAILS(ember_solve(c, A, B, X.out()), EMBER_ERR_LINALG, "ember_solve: matrix 3 of the batch is singular");
    EXPECT_EQ(X.t, nullptr);
    ember_tensor_t* untouched = reinterpret_cast<ember_tensor_t*>(0x1);  // out-params stay untouched on failure
    EXPECT_EQ(ember_inv(c, A, &untouched), EMBER_ERR_LINALG);
    EXPECT_NE(std::string(ember_last_error()).find("ember_inv: matrix 3 of the batch is singular (pivot 2 is zero)"), std::string::npos)
        << ember_last_error();
    EXPECT_EQ(untouched, reinterpret_cast<ember_tensor_t*>(0x1));
    // det of a singular matrix is 0, slogdet gives sign 0 and -inf, not errors.
    T D, S, L;
    EM_OK(ember_det(c, A, D.out()));
    EXPECT_EQ(values(D)[3], 0.0);
    EM_OK(ember_slogdet(c, A, S.out(), L.out()));
    EXPECT_EQ(values(S)[3], 0.0);
    EXPECT_EQ(values(L)[3], -INFINITY);
    // Exactly zero matrix, unbatched.
    T Z = make<double>({0, 0, 0, 0}, {2, 2}, EMBER_FLOAT32), Zi;
    EM_FAILS(ember_inv(c, Z, Zi.out()), EMBER_ERR_LINALG, "ember_inv: the matrix is singular (pivot 0 is zero)");
    // Cholesky: matrix 3 of a batch of 4 has a negative third pivot.
    std::vector<HM> spd;
    for (int b = 0; b < 4; ++b) spd.push_back(heye(4));
    spd[3](2, 2) = -1;
    T P = tensor(c, spd, {4}, EMBER_FLOAT64), Lc;
    EM_FAILS(ember_cholesky(c, P, 0, Lc.out()), EMBER_ERR_LINALG, "ember_cholesky: matrix 3 of the batch is not positive definite (pivot 2)");
    // Indefinite 2x2 (positive diagonal), upper variant; a 2-d batch names the index.
    std::vector<HM> ind(6, heye(2));
    ind[4](0, 1) = ind[4](1, 0) = 2;
    T Q = tensor(c, ind, {2, 3}, EMBER_COMPLEX64), Lq;
    EM_FAILS(ember_cholesky(c, Q, 1, Lq.out()), EMBER_ERR_LINALG, "matrix (1, 1) of the batch is not positive definite (pivot 1)");
    // NaN input to the iterative factorizations.
    T N = make<double>({1, NAN, 0, 1}, {2, 2}, EMBER_FLOAT64), U, Sv, Vh, W;
    EM_FAILS(ember_svd(c, N, 0, U.out(), Sv.out(), Vh.out()), EMBER_ERR_LINALG, "ember_svd: the matrix contains NaN or infinity");
    EM_FAILS(ember_eig(c, N, W.out(), nullptr), EMBER_ERR_LINALG, "contains NaN or infinity");
    // eigh reads one triangle only: NaN in the other is fine.
    T Wl;
    EM_OK(ember_eigh(c, N, 0, Wl.out(), nullptr));
    EXPECT_TRUE(all_close(values(Wl), {1, 1}, 1e-15));
    EM_FAILS(ember_eigh(c, N, 1, Wl.out(), nullptr), EMBER_ERR_LINALG, "contains NaN or infinity");
    // lu_solve with a zero on U's diagonal.
    T LU, Piv, Xs;
    EM_OK(ember_lu_factor(c, Z, LU.out(), Piv.out()));
    EM_FAILS(ember_lu_solve(c, LU, Piv, B, Xs.out()), EMBER_ERR_SHAPE, "ember_lu_solve");
    T B2 = make<double>({1, 2}, {2}, EMBER_FLOAT64);
    EM_FAILS(ember_lu_solve(c, LU, Piv, B2, Xs.out()), EMBER_ERR_LINALG, "the matrix is singular (pivot 0 is zero)");
}

TEST(Linalg, ArgumentErrors) {
    ember_ctx_t* c = test_ctx();
    T v = make<double>({1, 2, 3}, {3}, EMBER_FLOAT64), r = make<double>({1, 2, 3, 4, 5, 6}, {2, 3}, EMBER_FLOAT64), o, o2;
    EM_FAILS(ember_inv(c, v, o.out()), EMBER_ERR_SHAPE, "ember_inv");
    EM_FAILS(ember_inv(c, r, o.out()), EMBER_ERR_SHAPE, "must be square");
    EM_FAILS(ember_det(c, r, o.out()), EMBER_ERR_SHAPE, "ember_det");
    EM_FAILS(ember_cholesky(c, r, 0, o.out()), EMBER_ERR_SHAPE, "ember_cholesky");
    EM_FAILS(ember_svd(c, v, 0, o.out(), o2.out(), nullptr), EMBER_ERR_INVALID_ARGUMENT, "ember_svd");
    EM_FAILS(ember_qr(c, r, (ember_qr_mode_t)7, o.out(), o2.out()), EMBER_ERR_INVALID_ARGUMENT, "unknown QR mode");
    EM_FAILS(ember_qr(c, r, EMBER_QR_REDUCED, nullptr, o2.out()), EMBER_ERR_INVALID_ARGUMENT, "'q'");
    T sq = make<double>({1, 0, 0, 1}, {2, 2}, EMBER_FLOAT64);
    EM_FAILS(ember_solve(c, sq, v, o.out()), EMBER_ERR_SHAPE, "ember_solve");
    EM_FAILS(ember_matrix_norm(c, sq, (ember_matrix_norm_ord_t)42, 0, o.out()), EMBER_ERR_INVALID_ARGUMENT, "unknown matrix norm order");
    EM_FAILS(ember_norm(c, sq, "bogus", nullptr, 0, 0, o.out()), EMBER_ERR_INVALID_ARGUMENT, "invalid norm order 'bogus'");
    EM_FAILS(ember_norm(c, sq, "3", nullptr, 0, 0, o.out()), EMBER_ERR_INVALID_ARGUMENT, "for matrices");
    EM_FAILS(ember_norm(c, v, "fro", nullptr, 0, 0, o.out()), EMBER_ERR_INVALID_ARGUMENT, "only defined for matrices");
    EM_FAILS(ember_cross(c, r, r, 0, o.out()), EMBER_ERR_SHAPE, "length 3");
    const ember_tensor_t* one[1] = {sq};
    EM_FAILS(ember_multi_dot(c, one, 1, o.out()), EMBER_ERR_INVALID_ARGUMENT, "at least 2");
    EM_FAILS(ember_diag(c, make<double>({1}, {1, 1, 1}, EMBER_FLOAT64), 0, o.out()), EMBER_ERR_SHAPE, "ember_diag");
    EM_FAILS(ember_pinv(c, r, -1, -1, o.out()), EMBER_ERR_INVALID_ARGUMENT, "atol");
    T b = make<double>({1, 0}, {2}, EMBER_BOOL);
    EM_FAILS(ember_matrix_power(c, make<double>({1, 0, 0, 1}, {2, 2}, EMBER_BOOL), 2, o.out()), EMBER_ERR_UNSUPPORTED_DTYPE, "bool");
}

TEST(Linalg, BatchingBroadcastAndViews) {
    ember_ctx_t* c = test_ctx();
    // a (2, 1, 3, 3) with b (4, 3, 2): x is (2, 4, 3, 2); each block solves its own system.
    std::vector<HM> as = {hwith_sv(3, 3, {2, 1, 0.5}, false), hwith_sv(3, 3, {3, 1, 0.2}, false)};
    std::vector<HM> bs;
    for (int i = 0; i < 4; ++i) bs.push_back(hrandom(3, 2, false));
    T A = tensor(c, as, {2, 1}, EMBER_FLOAT64), B = tensor(c, bs, {4}, EMBER_FLOAT64), X;
    EM_OK(ember_solve(c, A, B, X.out()));
    ASSERT_EQ(shape_of(X), (std::vector<int64_t>{2, 4, 3, 2}));
    auto xs = mats(X);
    for (int i = 0; i < 2; ++i)
        for (int j = 0; j < 4; ++j)
            EXPECT_LE(hnorm(hsub(hmul(as[(size_t)i], xs[(size_t)(i * 4 + j)]), bs[(size_t)j])), 1e-13);
    // A vector b broadcasts against a batch of matrices: x is (2, 1, 3).
    T bv = make<double>({1, 2, 3}, {3}, EMBER_FLOAT64), xv;
    EM_OK(ember_solve(c, A, bv, xv.out()));
    EXPECT_EQ(shape_of(xv), (std::vector<int64_t>{2, 1, 3}));
    // A transposed (strided) view gives the transpose's results.
    HM a = hwith_sv(4, 4, {4, 3, 2, 1}, true);
    T At = tensor1(c, hadj(a), EMBER_COMPLEX128), Ac, Atv, Iv;
    EM_OK(ember_matrix_transpose(c, At, Atv.out()));
    EM_OK(ember_conj(c, Atv, Ac.out()));  // a copy equal to a
    EM_OK(ember_inv(c, Atv, Iv.out()));     // inverse of conj(a) from a strided view
    HM ai = mats(Iv)[0];
    HM ca = a;
    for (cd& x : ca.v) x = std::conj(x);
    EXPECT_LE(hnorm(hsub(hmul(ca, ai), heye(4))), 1e-13);
    // Batched svd of a (2, 3, 4, 3) stack.
    std::vector<HM> six;
    for (int i = 0; i < 6; ++i) six.push_back(hwith_sv(4, 3, {3, 2, (double)i}, false));
    T S6 = tensor(c, six, {2, 3}, EMBER_FLOAT32), sv;
    EM_OK(ember_svdvals(c, S6, sv.out()));
    EXPECT_EQ(shape_of(sv), (std::vector<int64_t>{2, 3, 3}));
    auto s = values(sv);
    for (int i = 0; i < 6; ++i) EXPECT_NEAR(s[(size_t)(i * 3 + 2)], std::min(2.0, (double)i), 1e-5);
    T rk;
    EM_OK(ember_matrix_rank(c, S6, 0, -1, rk.out()));
    EXPECT_EQ(values(rk), (std::vector<double>{2, 3, 3, 3, 3, 3}));
    EXPECT_EQ(shape_of(rk), (std::vector<int64_t>{2, 3}));
}

TEST(Linalg, EmptyMatrices) {
    ember_ctx_t* c = test_ctx();
    T e0 = make<double>({}, {0, 0}, EMBER_FLOAT64), eb = make<double>({}, {3, 0, 0}, EMBER_FLOAT32), o, o2, o3;
    EM_OK(ember_det(c, e0, o.out()));
    EXPECT_EQ(values(o), std::vector<double>{1});
    EM_OK(ember_det(c, eb, o.out()));
    EXPECT_EQ(values(o), (std::vector<double>{1, 1, 1}));
    EM_OK(ember_inv(c, eb, o.out()));
    EXPECT_EQ(shape_of(o), (std::vector<int64_t>{3, 0, 0}));
    EM_OK(ember_cholesky(c, e0, 0, o.out()));
    T w = make<double>({}, {0, 3}, EMBER_FLOAT64);
    EM_OK(ember_svd(c, w, 1, o.out(), o2.out(), o3.out()));
    EXPECT_EQ(shape_of(o), (std::vector<int64_t>{0, 0}));
    EXPECT_EQ(shape_of(o2), (std::vector<int64_t>{0}));
    EXPECT_EQ(shape_of(o3), (std::vector<int64_t>{3, 3}));
    EXPECT_EQ(values(o3), (std::vector<double>{1, 0, 0, 0, 1, 0, 0, 0, 1}));
    EM_OK(ember_qr(c, w, EMBER_QR_COMPLETE, o.out(), o2.out()));
    EXPECT_EQ(shape_of(o), (std::vector<int64_t>{0, 0}));
    EXPECT_EQ(shape_of(o2), (std::vector<int64_t>{0, 3}));
    EM_OK(ember_eigh(c, e0, 0, o.out(), o2.out()));
    EXPECT_EQ(shape_of(o), (std::vector<int64_t>{0}));
    EM_OK(ember_matrix_rank(c, w, 0, -1, o.out()));
    EXPECT_EQ(values(o), std::vector<double>{0});
    T b = make<double>({}, {0, 2}, EMBER_FLOAT64);
    EM_OK(ember_lstsq(c, w, b, -1, o.out(), nullptr, nullptr, nullptr));
    EXPECT_EQ(shape_of(o), (std::vector<int64_t>{3, 2}));
    EXPECT_EQ(values(o), std::vector<double>(6, 0.0));
}

TEST(Linalg, LuFactorAndSolve) {
    ember_ctx_t* c = test_ctx();
    for (ember_dtype_t dt : kFloatDtypes) {
        HM a = hrandom(5, 4, is_cplx(dt));
        T A = tensor1(c, a, dt), LU, P;
        EM_OK(ember_lu_factor(c, A, LU.out(), P.out()));
        EXPECT_EQ(shape_of(P), std::vector<int64_t>{4});
        EXPECT_EQ(dtype_of(P), EMBER_INT64);
        HM lu = mats(LU)[0], ar = mats(A)[0];
        auto piv = values(P);
        HM L(5, 4), U(4, 4);
        for (int64_t i = 0; i < 5; ++i)
            for (int64_t j = 0; j < 4; ++j) {
                if (i > j) L(i, j) = lu(i, j);
                else if (i == j) L(i, j) = 1;
                if (i <= j && i < 4) U(i, j) = lu(i, j);
            }
        HM pa = ar;  // apply the row swaps in order
        for (int64_t i = 0; i < 4; ++i)
            for (int64_t j = 0; j < 4; ++j) std::swap(pa(i, j), pa((int64_t)piv[(size_t)i], j));
        EXPECT_LE(hnorm(hsub(hmul(L, U), pa)), 50 * eps_of(dt) * hnorm(ar)) << ember_dtype_name(dt);
        // Partial pivoting bounds L by 1; for complex LAPACK (the cpu backend) picks the
        // pivot of largest |Re| + |Im|, which bounds |L| by sqrt(2) instead.
        double l_bound = is_cplx(dt) ? std::sqrt(2.0) : 1.0;
        for (int64_t i = 0; i < 5; ++i)
            for (int64_t j = 0; j < std::min<int64_t>(i, 4); ++j) EXPECT_LE(std::abs(lu(i, j)), l_bound + 1e-6) << "partial pivoting bounds L";
        HM sq = hwith_sv(4, 4, {4, 3, 2, 1}, is_cplx(dt));
        T S = tensor1(c, sq, dt), B = tensor1(c, hrandom(4, 3, is_cplx(dt)), dt), LU2, P2, X;
        EM_OK(ember_lu_factor(c, S, LU2.out(), P2.out()));
        EM_OK(ember_lu_solve(c, LU2, P2, B, X.out()));
        EXPECT_LE(hnorm(hsub(hmul(mats(S)[0], mats(X)[0]), mats(B)[0])), 50 * eps_of(dt) * hnorm(mats(B)[0]) * 4);
    }
    // Out-of-range pivots are an index error.
    T S = make<double>({2, 0, 0, 2}, {2, 2}, EMBER_FLOAT64), P = make<double>({5, 1}, {2}, EMBER_INT64), B = make<double>({1, 1}, {2}, EMBER_FLOAT64), X;
    EM_FAILS(ember_lu_solve(c, S, P, B, X.out()), EMBER_ERR_INDEX, "out of range");
}

TEST(Linalg, EigOfRealMatrixWithComplexEigenvalues) {
    ember_ctx_t* c = test_ctx();
    T R = make<double>({0, -1, 1, 0}, {2, 2}, EMBER_FLOAT64), W;  // rotation by 90 degrees: +-i
    EM_OK(ember_eigvals(c, R, W.out()));
    auto w = host(W);
    ASSERT_EQ(w.size(), 2u);
    std::sort(w.begin(), w.end(), [](cd a, cd b) { return a.imag() < b.imag(); });
    EXPECT_NEAR(w[0].real(), 0, 1e-15);
    EXPECT_NEAR(w[0].imag(), -1, 1e-15);
    EXPECT_NEAR(w[1].imag(), 1, 1e-15);
    // Triangular: the eigenvalues are the diagonal; a defective (Jordan) block still returns.
    T J = make<double>({2, 1, 0, 0, 2, 1, 0, 0, 3}, {3, 3}, EMBER_FLOAT32), WJ, VJ;
    EM_OK(ember_eig(c, J, WJ.out(), VJ.out()));
    auto wj = host(WJ);
    std::vector<double> re;
    for (cd x : wj) re.push_back(x.real());
    std::sort(re.begin(), re.end());
    EXPECT_TRUE(all_close(re, {2, 2, 3}, 1e-6));
    // A larger batch, with repeated and clustered eigenvalues.
    std::vector<HM> ms;
    for (int b = 0; b < 3; ++b) {
        HM q = hunitary(8, false), qi = hadj(q);
        std::vector<cd> d = {1, 1, 1, 2, -3, 1e-3, 5, 5 + 1e-9};
        ms.push_back(hmul(hmul(q, hdiag(d, 8, 8)), qi));
    }
    T M = tensor(c, ms, {3}, EMBER_FLOAT64), WM, VM;
    EM_OK(ember_eig(c, M, WM.out(), VM.out()));
    auto vm = mats(VM);
    auto wm = host(WM);
    for (int b = 0; b < 3; ++b) {
        HM av = hmul(ms[(size_t)b], vm[(size_t)b]);
        std::vector<cd> d(wm.begin() + b * 8, wm.begin() + b * 8 + 8);
        EXPECT_LE(hnorm(hsub(av, hmul(vm[(size_t)b], hdiag(d, 8, 8)))), 1e-12);
    }
}

TEST(Linalg, MatrixPower) {
    ember_ctx_t* c = test_ctx();
    T F = make<double>({1, 1, 1, 0}, {2, 2}, EMBER_INT64), o;  // Fibonacci
    EM_OK(ember_matrix_power(c, F, 10, o.out()));
    EXPECT_EQ(dtype_of(o), EMBER_INT64);
    EXPECT_EQ(values(o), (std::vector<double>{89, 55, 55, 34}));
    EM_OK(ember_matrix_power(c, F, 0, o.out()));
    EXPECT_EQ(values(o), (std::vector<double>{1, 0, 0, 1}));
    EM_OK(ember_matrix_power(c, F, 1, o.out()));
    EXPECT_EQ(values(o), (std::vector<double>{1, 1, 1, 0}));
    EM_OK(ember_matrix_power(c, F, -2, o.out()));  // inv(F)^2 = [[1, -1], [-1, 2]]... in float
    EXPECT_EQ(dtype_of(o), EMBER_FLOAT32);
    EXPECT_TRUE(all_close(values(o), {1, -1, -1, 2}, 1e-6, 1e-6));
    HM a = hwith_sv(4, 4, {2, 1.5, 1, 0.5}, true);
    T A = tensor(c, {a, a}, {2}, EMBER_COMPLEX128), A5;
    EM_OK(ember_matrix_power(c, A, 5, A5.out()));
    HM want = heye(4);
    for (int i = 0; i < 5; ++i) want = hmul(want, a);
    for (const HM& got : mats(A5)) EXPECT_LE(hnorm(hsub(got, want)), 1e-12 * hnorm(want));
    EM_OK(ember_matrix_power(c, A, -3, A5.out()));
    for (const HM& got : mats(A5)) EXPECT_LE(hnorm(hsub(hmul(hmul(hmul(got, a), a), a), heye(4))), 1e-12);
    EM_FAILS(ember_matrix_power(c, make<double>({0, 0, 0, 0}, {2, 2}, EMBER_FLOAT64), -1, o.out()), EMBER_ERR_LINALG, "ember_matrix_power");
}

TEST(Linalg, Norms) {
    ember_ctx_t* c = test_ctx();
    // [[1, -2, 3], [-4, 5, -6]]: column sums 5, 7, 9; row sums 6, 15.
    T A = make<double>({1, -2, 3, -4, 5, -6}, {2, 3}, EMBER_FLOAT64), o;
    struct { ember_matrix_norm_ord_t ord; double want; } cases[] = {
        {EMBER_NORM_FRO, std::sqrt(91.0)}, {EMBER_NORM_1, 9}, {EMBER_NORM_NEG_1, 5}, {EMBER_NORM_INF, 15}, {EMBER_NORM_NEG_INF, 6},
    };
    for (auto& cs : cases) {
        EM_OK(ember_matrix_norm(c, A, cs.ord, 0, o.out()));
        EXPECT_TRUE(all_close(values(o), {cs.want}, 1e-15)) << cs.ord;
    }
    T S;
    EM_OK(ember_svdvals(c, A, S.out()));
    auto s = values(S);
    EM_OK(ember_matrix_norm(c, A, EMBER_NORM_2, 0, o.out()));
    EXPECT_TRUE(all_close(values(o), {s[0]}, 1e-15));
    EM_OK(ember_matrix_norm(c, A, EMBER_NORM_NEG_2, 0, o.out()));
    EXPECT_TRUE(all_close(values(o), {s[1]}, 1e-15));
    EM_OK(ember_matrix_norm(c, A, EMBER_NORM_NUC, 1, o.out()));
    EXPECT_TRUE(all_close(values(o), {s[0] + s[1]}, 1e-15));
    EXPECT_EQ(shape_of(o), (std::vector<int64_t>{1, 1}));
    EXPECT_NEAR(s[0] * s[0] + s[1] * s[1], 91, 1e-12);  // Frobenius^2 = sum of squares of S
    // Vector norms of [3, -4, 0, 12].
    T v = make<double>({3, -4, 0, 12}, {4}, EMBER_FLOAT32);
    struct { double ord; double want; } vc[] = {
        {2, 13}, {1, 19}, {INFINITY, 12}, {-INFINITY, 0}, {0, 3}, {3, std::cbrt(27 + 64 + 1728.0)}, {0.5, std::pow(std::sqrt(3.0) + 2 + std::sqrt(12.0), 2)}, {-1, 0},
    };
    for (auto& cs : vc) {
        EM_OK(ember_vector_norm(c, v, cs.ord, nullptr, 0, 0, o.out()));
        EXPECT_EQ(dtype_of(o), EMBER_FLOAT32);
        EXPECT_TRUE(all_close(values(o), {cs.want}, 1e-6)) << "ord " << cs.ord;
    }
    T v2 = make<double>({3, -4, 1, 12}, {4}, EMBER_FLOAT64);
    EM_OK(ember_vector_norm(c, v2, -1, nullptr, 0, 0, o.out()));
    EXPECT_TRUE(all_close(values(o), {1 / (1 / 3.0 + 1 / 4.0 + 1 + 1 / 12.0)}, 1e-15));
    // Overflow-safe 2-norms in float32 (squares of 1e30 overflow), and infinity.
    T big = make<double>({3e30, 4e30}, {2}, EMBER_FLOAT32), bigm = make<double>({3e30, 0, 0, 4e30}, {2, 2}, EMBER_FLOAT32);
    EM_OK(ember_vector_norm(c, big, 2, nullptr, 0, 0, o.out()));
    EXPECT_TRUE(all_close(values(o), {5e30}, 1e-6));
    EM_OK(ember_matrix_norm(c, bigm, EMBER_NORM_FRO, 0, o.out()));
    EXPECT_TRUE(all_close(values(o), {5e30}, 1e-6));
    T tiny = make<double>({3e-30, 4e-30}, {2}, EMBER_FLOAT32);
    EM_OK(ember_vector_norm(c, tiny, 2, nullptr, 0, 0, o.out()));
    EXPECT_TRUE(all_close(values(o), {5e-30}, 1e-6));
    T inf = make<double>({1, INFINITY, 2}, {3}, EMBER_FLOAT64), nan = make<double>({1, NAN}, {2}, EMBER_FLOAT64);
    EM_OK(ember_vector_norm(c, inf, 2, nullptr, 0, 0, o.out()));
    EXPECT_EQ(values(o)[0], INFINITY);
    EM_OK(ember_vector_norm(c, nan, 2, nullptr, 0, 0, o.out()));
    EXPECT_TRUE(std::isnan(values(o)[0]));
    // Complex: |3+4i| = 5.
    std::vector<cd> z = {cd(3, 4), cd(0, 0)};
    int64_t zs[1] = {2};
    T Z;
    EM_OK(ember_tensor_from_data(c, z.data(), EMBER_COMPLEX128, zs, 1, Z.out()));
    EM_OK(ember_vector_norm(c, Z, 2, nullptr, 0, 0, o.out()));
    EXPECT_EQ(dtype_of(o), EMBER_FLOAT64);
    EXPECT_TRUE(all_close(values(o), {5}, 1e-7));
    // Complex rows through the dot path (the (re, im) pairs read as reals), a view whose
    // rows are strided (the scaled path), and float32 squares that overflow (the scaled path).
    std::vector<std::complex<float>> zr = {{3, 4}, {0, 12}, {1, -1}, {-1, 1}, {5, 0}, {0, 0}};
    int64_t zrs[2] = {2, 3}, last[1] = {1};
    T ZR, ZS, ZB;
    EM_OK(ember_tensor_from_data(c, zr.data(), EMBER_COMPLEX64, zrs, 2, ZR.out()));
    EM_OK(ember_vector_norm(c, ZR, 2, last, 1, 0, o.out()));
    EXPECT_EQ(dtype_of(o), EMBER_FLOAT32);
    EXPECT_TRUE(all_close(values(o), {std::sqrt(171.0), std::sqrt(27.0)}, 1e-6));
    EM_OK(ember_vector_norm(c, ZR, 2, nullptr, 0, 1, o.out()));
    EXPECT_EQ(shape_of(o), (std::vector<int64_t>{1, 1}));
    EXPECT_TRUE(all_close(values(o), {std::sqrt(198.0)}, 1e-6));
    const int64_t zstart[2] = {0, 0}, zstop[2] = {2, 3}, zstep[2] = {1, 2};
    EM_OK(ember_slice(c, ZR, zstart, zstop, zstep, 2, ZS.out()));
    EM_OK(ember_vector_norm(c, ZS, 2, last, 1, 0, o.out()));
    EXPECT_TRUE(all_close(values(o), {std::sqrt(27.0), std::sqrt(2.0)}, 1e-6));
    std::vector<std::complex<float>> zb = {{3e30f, 4e30f}, {0, 0}};
    EM_OK(ember_tensor_from_data(c, zb.data(), EMBER_COMPLEX64, zs, 1, ZB.out()));
    EM_OK(ember_vector_norm(c, ZB, 2, nullptr, 0, 0, o.out()));
    EXPECT_TRUE(all_close(values(o), {5e30}, 1e-6));
    // Axes and keepdims; integers compute in the default float.
    T M = make<double>({3, 4, 6, 8}, {2, 2}, EMBER_INT32);
    int64_t ax1[1] = {1}, ax0[1] = {0};
    EM_OK(ember_vector_norm(c, M, 2, ax1, 1, 1, o.out()));
    EXPECT_EQ(shape_of(o), (std::vector<int64_t>{2, 1}));
    EXPECT_TRUE(all_close(values(o), {5, 10}, 1e-6));
    // Rows through the dot fast path (sqrt(x . x)); a zero row sends the batch to the scaled
    // computation, which must still give 0 for it.
    T R = make<double>({3, 4, 0, 0, 5, 12}, {3, 2}, EMBER_FLOAT32), R2 = make<double>({3, 4, 5, 12}, {2, 2}, EMBER_FLOAT64);
    EM_OK(ember_vector_norm(c, R, 2, ax1, 1, 0, o.out()));
    EXPECT_TRUE(all_close(values(o), {5, 0, 13}, 1e-6));
    EM_OK(ember_vector_norm(c, R2, 2, ax1, 1, 0, o.out()));
    EXPECT_EQ(shape_of(o), (std::vector<int64_t>{2}));
    EXPECT_TRUE(all_close(values(o), {5, 13}, 1e-15));
    // Other axes through sum(square(x)): columns, a pair of axes, complex columns; one
    // column of squares that overflow float32 sends the batch to the scaled computation;
    // no axis at all is |x| (not the norm of everything).
    T C = make<double>({3, 5, 1, 4, 12, 2}, {2, 3}, EMBER_FLOAT32), CB = make<double>({3, 3e30, 4, 4e30}, {2, 2}, EMBER_FLOAT32);
    EM_OK(ember_vector_norm(c, C, 2, ax0, 1, 0, o.out()));
    EXPECT_TRUE(all_close(values(o), {5, 13, std::sqrt(5.0)}, 1e-6));
    EM_OK(ember_vector_norm(c, CB, 2, ax0, 1, 1, o.out()));
    EXPECT_EQ(shape_of(o), (std::vector<int64_t>{1, 2}));
    EXPECT_TRUE(all_close(values(o), {5, 5e30}, 1e-6));
    T C3 = make<double>({1, 2, 3, 4, 5, 6, 7, 8}, {2, 2, 2}, EMBER_FLOAT64);
    int64_t ax02[2] = {0, 2};
    EM_OK(ember_vector_norm(c, C3, 2, ax02, 2, 0, o.out()));
    EXPECT_TRUE(all_close(values(o), {std::sqrt(1 + 4 + 25 + 36.0), std::sqrt(9 + 16 + 49 + 64.0)}, 1e-15));
    EM_OK(ember_vector_norm(c, ZR, 2, ax0, 1, 0, o.out()));
    EXPECT_EQ(dtype_of(o), EMBER_FLOAT32);
    EXPECT_TRUE(all_close(values(o), {std::sqrt(27.0), 13, std::sqrt(2.0)}, 1e-6));
    EM_OK(ember_vector_norm(c, C, 2, ax0, 0, 0, o.out()));
    EXPECT_EQ(shape_of(o), (std::vector<int64_t>{2, 3}));
    EXPECT_TRUE(all_close(values(o), {3, 5, 1, 4, 12, 2}, 1e-6));
    // ember_norm: numpy.linalg.norm semantics.
    EM_OK(ember_norm(c, M, nullptr, nullptr, 0, 0, o.out()));
    EXPECT_TRUE(all_close(values(o), {std::sqrt(125.0)}, 1e-6));
    EM_OK(ember_norm(c, M, "nuc", nullptr, 0, 0, o.out()));
    T Mf, Sm;
    EM_OK(ember_svdvals(c, M, Sm.out()));
    auto sm = values(Sm);
    EXPECT_TRUE(all_close(values(o), {sm[0] + sm[1]}, 1e-6));
    EM_OK(ember_norm(c, M, "inf", nullptr, 0, 0, o.out()));
    EXPECT_TRUE(all_close(values(o), {14}, 1e-6));
    EM_OK(ember_norm(c, M, "-inf", ax0, 1, 0, o.out()));
    EXPECT_TRUE(all_close(values(o), {3, 4}, 1e-6));
    int64_t swap[2] = {1, 0};
    EM_OK(ember_norm(c, M, "1", swap, 2, 1, o.out()));  // rows and columns exchanged: max row sum
    EXPECT_EQ(shape_of(o), (std::vector<int64_t>{1, 1}));
    EXPECT_TRUE(all_close(values(o), {14}, 1e-6));
    // A batch of matrices with axes (-2, -1).
    T B3 = make<double>({1, 0, 0, 1, 2, 0, 0, 2, 3, 0, 0, 3}, {3, 2, 2}, EMBER_FLOAT64);
    int64_t last2[2] = {-2, -1};
    EM_OK(ember_norm(c, B3, "2", last2, 2, 0, o.out()));
    EXPECT_TRUE(all_close(values(o), {1, 2, 3}, 1e-15));
}

TEST(Linalg, CrossKronMultiDotDiag) {
    ember_ctx_t* c = test_ctx();
    T a = make<double>({1, 0, 0, 0, 1, 0}, {2, 3}, EMBER_INT32), b = make<double>({0, 1, 0}, {3}, EMBER_INT32), o;
    EM_OK(ember_cross(c, a, b, -1, o.out()));
    EXPECT_EQ(dtype_of(o), EMBER_INT32);
    EXPECT_EQ(shape_of(o), (std::vector<int64_t>{2, 3}));
    EXPECT_EQ(values(o), (std::vector<double>{0, 0, 1, 0, 0, 0}));
    T p = make<double>({1, 2, 3}, {3}, EMBER_FLOAT64), q = make<double>({4, 5, 6}, {3}, EMBER_FLOAT64);
    EM_OK(ember_cross(c, p, q, 0, o.out()));
    EXPECT_EQ(values(o), (std::vector<double>{-3, 6, -3}));
    T pc = make<double>({1, 4, 2, 5, 3, 6}, {3, 2}, EMBER_FLOAT64);  // vectors in columns
    EM_OK(ember_cross(c, pc, pc, 0, o.out()));
    EXPECT_EQ(values(o), std::vector<double>(6, 0.0));
    // kron.
    T k1 = make<double>({1, 2, 3, 4}, {2, 2}, EMBER_FLOAT64), k2 = make<double>({0, 5, 6, 7}, {2, 2}, EMBER_FLOAT64);
    EM_OK(ember_kron(c, k1, k2, o.out()));
    EXPECT_EQ(shape_of(o), (std::vector<int64_t>{4, 4}));
    EXPECT_EQ(values(o), (std::vector<double>{0, 5, 0, 10, 6, 7, 12, 14, 0, 15, 0, 20, 18, 21, 24, 28}));
    T kv = make<double>({1, 10}, {2}, EMBER_INT64);
    EM_OK(ember_kron(c, kv, k1, o.out()));
    EXPECT_EQ(shape_of(o), (std::vector<int64_t>{2, 4}));
    EXPECT_EQ(values(o), (std::vector<double>{1, 2, 10, 20, 3, 4, 30, 40}));
    // multi_dot agrees with left-to-right matmul, with vectors at the ends.
    HM m1 = hrandom(3, 10, false), m2 = hrandom(10, 2, false), m3 = hrandom(2, 8, false), m4 = hrandom(8, 1, false);
    T t1 = tensor1(c, m1, EMBER_FLOAT64), t2 = tensor1(c, m2, EMBER_FLOAT64), t3 = tensor1(c, m3, EMBER_FLOAT64), t4 = tensor1(c, m4, EMBER_FLOAT64);
    T t4v;
    int64_t eight[1] = {8};
    EM_OK(ember_reshape(c, t4, eight, 1, t4v.out()));
    const ember_tensor_t* xs[4] = {t1, t2, t3, t4v};
    EM_OK(ember_multi_dot(c, xs, 4, o.out()));
    EXPECT_EQ(shape_of(o), std::vector<int64_t>{3});
    HM want = hmul(hmul(hmul(m1, m2), m3), m4);
    auto got = values(o);
    for (int i = 0; i < 3; ++i) EXPECT_NEAR(got[(size_t)i], want(i, 0).real(), 1e-13);
    const ember_tensor_t* two[2] = {t1, t2};
    EM_OK(ember_multi_dot(c, two, 2, o.out()));
    EXPECT_EQ(shape_of(o), (std::vector<int64_t>{3, 2}));
    const ember_tensor_t* bad[2] = {t1, t3};
    EM_FAILS(ember_multi_dot(c, bad, 2, o.out()), EMBER_ERR_SHAPE, "not aligned");
    // diag and diag_embed.
    T d = make<double>({1, 2, 3}, {3}, EMBER_INT16);
    EM_OK(ember_diag(c, d, 1, o.out()));
    EXPECT_EQ(dtype_of(o), EMBER_INT16);
    EXPECT_EQ(shape_of(o), (std::vector<int64_t>{4, 4}));
    EXPECT_EQ(values(o), (std::vector<double>{0, 1, 0, 0, 0, 0, 2, 0, 0, 0, 0, 3, 0, 0, 0, 0}));
    T sq = make<double>({1, 2, 3, 4, 5, 6, 7, 8, 9}, {3, 3}, EMBER_FLOAT32);
    EM_OK(ember_diag(c, sq, -1, o.out()));
    EXPECT_EQ(values(o), (std::vector<double>{4, 8}));
    EM_OK(ember_diag(c, sq, 0, o.out()));
    int contiguous = 0;
    ember_tensor_is_contiguous(o, &contiguous);
    EXPECT_TRUE(contiguous);
    T batch = make<double>({1, 2, 3, 4}, {2, 2}, EMBER_FLOAT64);
    EM_OK(ember_diag_embed(c, batch, 0, o.out()));
    EXPECT_EQ(shape_of(o), (std::vector<int64_t>{2, 2, 2}));
    EXPECT_EQ(values(o), (std::vector<double>{1, 0, 0, 2, 3, 0, 0, 4}));
}

TEST(Linalg, Expm) {
    ember_ctx_t* c = test_ctx();
    T Z = make<double>({0, 0, 0, 0}, {2, 2}, EMBER_FLOAT64), o;
    EM_OK(ember_expm(c, Z, o.out()));
    EXPECT_EQ(values(o), (std::vector<double>{1, 0, 0, 1}));
    T N = make<double>({0, 1, 0, 0}, {2, 2}, EMBER_FLOAT64);  // nilpotent: I + N
    EM_OK(ember_expm(c, N, o.out()));
    EXPECT_TRUE(all_close(values(o), {1, 1, 0, 1}, 1e-15, 1e-15));
    for (double t : {0.3, 2.0, 40.0}) {  // rotation generator; 40 exercises scaling and squaring
        T G = make<double>({0, -t, t, 0}, {2, 2}, EMBER_FLOAT64);
        EM_OK(ember_expm(c, G, o.out()));
        EXPECT_TRUE(all_close(values(o), {std::cos(t), -std::sin(t), std::sin(t), std::cos(t)}, 0, 1e-12 * std::max(1.0, t))) << t;
    }
    // Symmetric: expm(A) = V diag(exp(w)) V^T; batch of two with different norms; float32 too.
    for (ember_dtype_t dt : {EMBER_FLOAT64, EMBER_FLOAT32, EMBER_COMPLEX128}) {
        bool cx = is_cplx(dt);
        std::vector<HM> ms;
        std::vector<HM> want;
        for (double scale : {0.5, 12.0}) {
            HM q = hunitary(5, cx);
            std::vector<cd> lam = {-2 * scale, -scale, 0.1, scale, 1.5 * scale}, el;
            for (cd l : lam) el.push_back(std::exp(l));
            ms.push_back(hmul(hmul(q, hdiag(lam, 5, 5)), hadj(q)));
            want.push_back(hmul(hmul(q, hdiag(el, 5, 5)), hadj(q)));
        }
        T A = tensor(c, ms, {2}, dt);
        EM_OK(ember_expm(c, A, o.out()));
        auto got = mats(o);
        for (int b = 0; b < 2; ++b)
            EXPECT_LE(hnorm(hsub(got[(size_t)b], want[(size_t)b])), 500 * eps_of(dt) * hnorm(want[(size_t)b]) * (b ? 20 : 1))
                << ember_dtype_name(dt) << " matrix " << b;
    }
}

TEST(Linalg, ExtremeScalesAndTrivialMatrices) {
    // Zero, identity, 1x1 and matrices scaled near overflow / underflow: the iterative
    // kernels must converge and keep their identities (they scale internally).
    ember_ctx_t* c = test_ctx();
    HM base = hwith_sv(4, 4, {3, 2, 1, 0.5}, false);
    for (double scale : {0.0, 1e-300, 1e-150, 1.0, 1e150, 1e300}) {
        HM a = base;
        for (cd& x : a.v) x *= scale;
        T A = tensor1(c, a, EMBER_FLOAT64), U, S, Vh, W, V;
        EM_OK(ember_svd(c, A, 1, U.out(), S.out(), Vh.out()));
        EXPECT_LE(orth_error(mats(U)[0]), 1e-13) << scale;
        EXPECT_LE(orth_error(hadj(mats(Vh)[0])), 1e-13) << scale;
        auto s = values(S);
        EXPECT_NEAR(s[0], 3 * scale, 1e-14 * 3 * scale) << scale;
        EM_OK(ember_eig(c, A, W.out(), V.out()));
        HM v = mats(V)[0];
        std::vector<cd> w = host(W);
        for (cd& x : w) x = scale ? x / scale : x;  // residual of the unscaled matrix (no host overflow)
        EXPECT_LE(hnorm(hsub(hmul(scale ? base : a, v), hmul(v, hdiag(w, 4, 4)))), 1e-12 * 3) << scale;
        HM sym = hmul(base, hadj(base));
        for (cd& x : sym.v) x *= scale;
        T Sy = tensor1(c, sym, EMBER_FLOAT64);
        EM_OK(ember_eigh(c, Sy, 0, W.out(), V.out()));
        EXPECT_LE(orth_error(mats(V)[0]), 1e-13) << scale;
        EXPECT_NEAR(values(W)[3], 9 * scale, 1e-13 * 9 * scale) << scale;
    }
    T one = make<double>({-7}, {1, 1}, EMBER_FLOAT32), o, o2, o3;
    EM_OK(ember_inv(c, one, o.out()));
    EXPECT_TRUE(all_close(values(o), {-1 / 7.0}, 1e-7));
    EM_OK(ember_svd(c, one, 0, o.out(), o2.out(), o3.out()));
    EXPECT_EQ(values(o2), std::vector<double>{7});
    EXPECT_NEAR(values(o)[0] * values(o3)[0], -1, 1e-7);
    EM_OK(ember_eigvals(c, one, o.out()));
    EXPECT_EQ(values(o), std::vector<double>{-7});
    T id = make<double>({1, 0, 0, 0, 1, 0, 0, 0, 1}, {3, 3}, EMBER_COMPLEX64);
    EM_OK(ember_eig(c, id, o.out(), o2.out()));
    EXPECT_EQ(values(o), (std::vector<double>{1, 1, 1}));
    EM_OK(ember_eigh(c, id, 1, o.out(), o2.out()));
    EXPECT_EQ(values(o), (std::vector<double>{1, 1, 1}));
    EM_OK(ember_cholesky(c, id, 1, o.out()));
    EXPECT_EQ(values(o), (std::vector<double>{1, 0, 0, 0, 1, 0, 0, 0, 1}));
    // slogdet where det itself overflows: 200 x 200 of 100 * I.
    T big, sg, la;
    EM_OK(ember_eye(c, 200, 200, 0, EMBER_FLOAT64, big.out()));
    T hundred, big100;
    EM_OK(ember_scalar_f64(c, 100, hundred.out()));
    EM_OK(ember_multiply(c, big, hundred, big100.out()));
    EM_OK(ember_slogdet(c, big100, sg.out(), la.out()));
    EXPECT_EQ(values(sg), std::vector<double>{1});
    EXPECT_TRUE(all_close(values(la), {200 * std::log(100.0)}, 1e-14));
    EM_OK(ember_det(c, big100, o.out()));
    EXPECT_EQ(values(o)[0], INFINITY);
}

TEST(Linalg, OpTableRowsAndBindings) {
    const char* binding = nullptr;
    for (const char* op : {"lu_factor", "lu_solve", "cholesky", "qr", "svd", "eigh", "eig"}) {
        EM_OK(ember_op_binding("reference", op, &binding));
        EXPECT_STREQ(binding, "native") << op;
    }
    for (const char* op : {"solve", "inv", "det", "slogdet", "lstsq", "pinv", "matrix_rank", "matrix_norm", "vector_norm", "norm", "cross",
                           "kron", "multi_dot", "expm", "diag", "svdvals", "eigvalsh", "eigvals", "matrix_power", "diag_embed"}) {
        EM_OK(ember_op_binding("reference", op, &binding));
        EXPECT_STREQ(binding, "composite") << op;
    }
}

TEST(Linalg, SvdConvergesOnManySmallMatrices) {
    // The reference's one-sided Jacobi once demanded columns orthogonal to within DBL_EPSILON,
    // which rounding can leave out of reach (the cosine of two columns stalled at 1.06 eps):
    // this 4 x 4 matrix "did not converge", as did about 1 in 10^4 of the batches below.
    ember_ctx_t* c = test_ctx();
    const std::vector<double> stalled = {
        3.7857661495384605,    -0.20491745681730911, 0.072720559580587096, -0.39083330654112314,
        -0.20491745681730911,  3.985208341612112,    -0.39475970663817583, 0.11680533719100306,
        0.072720559580587096,  -0.39475970663817583, 4.4861542684892912,   0.10452352445783253,
        -0.39083330654112314,  0.11680533719100306,  0.10452352445783253,  3.7618560126339347};
    T A = make<double>(stalled, {4, 4}, EMBER_FLOAT64), U, S, Vh;
    EM_OK(ember_svd(c, A, 0, U.out(), S.out(), Vh.out()));
    HM u = mats(U)[0], vh = mats(Vh)[0], a = mats(A)[0];
    EXPECT_LE(hnorm(hsub(hmul(hmul(u, hdiag(host(S), 4, 4)), vh), a)), 1e-14 * hnorm(a));
    // Batches of symmetric diagonally dominant 4 x 4 and 8 x 8 matrices, as in the benchmark
    // that found it (with the old bound, matrix 567 of the first and 484 of the second stall).
    std::mt19937 g(27);
    for (int64_t n : {4, 8}) {
        const int64_t count = 16384 / n;
        std::uniform_real_distribution<double> u01(-0.5, 0.5);
        std::vector<double> v((size_t)(count * n * n));
        for (int64_t b = 0; b < count; ++b)
            for (int64_t i = 0; i < n; ++i)
                for (int64_t j = 0; j <= i; ++j)
                    v[(size_t)(b * n * n + i * n + j)] = v[(size_t)(b * n * n + j * n + i)] = u01(g) + (i == j ? (double)n : 0.0);
        T B = make<double>(v, {count, n, n}, EMBER_FLOAT64), Sb;
        EM_OK(ember_svdvals(c, B, Sb.out()));
    }
    // Rank-deficient matrices of small integers: the remainder of a dependent column must
    // count as zero, not be rotated sweep after sweep into the subnormals.
    T R = make<double>({-1, 2, 0, -1, 2, 0, 1, 0, -1}, {3, 3}, EMBER_FLOAT64), Ur, Sr, Vhr;
    EM_OK(ember_svd(c, R, 0, Ur.out(), Sr.out(), Vhr.out()));
    auto sr = values(Sr);
    EXPECT_LE(sr[2], 1e-15 * sr[0]);
    HM r = mats(R)[0];
    EXPECT_LE(hnorm(hsub(hmul(hmul(mats(Ur)[0], hdiag(host(Sr), 3, 3)), mats(Vhr)[0]), r)), 1e-14 * hnorm(r));
    std::uniform_int_distribution<int> small(-2, 2);
    for (ember_dtype_t dt : {EMBER_FLOAT64, EMBER_COMPLEX128}) {
        const int64_t count = 1024, n = 4;
        std::vector<double> v((size_t)(count * n * n * (dt == EMBER_COMPLEX128 ? 2 : 1)));
        for (double& x : v) x = small(g);
        T B, Sb;
        const int64_t shape[3] = {count, n, n};
        ASSERT_EQ(ember_tensor_from_data(c, v.data(), dt, shape, 3, B.out()), EMBER_OK) << ember_last_error();
        EM_OK(ember_svdvals(c, B, Sb.out()));
    }
}

TEST(Linalg, SizesUpTo40) {
    // Larger sizes on the reference: Jacobi and QR iterations converge and stay accurate.
    ember_ctx_t* c = test_ctx();
    for (int64_t n : {17, 40}) {
        HM a = hwith_sv(n, n, geometric(n, 1e6), false);
        T A = tensor1(c, a, EMBER_FLOAT64), U, S, Vh, W, V;
        EM_OK(ember_svd(c, A, 0, U.out(), S.out(), Vh.out()));
        auto s = values(S);
        auto g = geometric(n, 1e6);
        for (int64_t i = 0; i < n; ++i) EXPECT_NEAR(s[(size_t)i], g[(size_t)i], 1e-13 * n);
        HM sym = hmul(a, hadj(a));
        T Sy = tensor1(c, sym, EMBER_FLOAT64);
        EM_OK(ember_eigh(c, Sy, 0, W.out(), V.out()));
        EXPECT_LE(orth_error(mats(V)[0]), 1e-13 * n);
        EM_OK(ember_eig(c, A, W.out(), V.out()));
        HM v = mats(V)[0];
        auto w = host(W);
        EXPECT_LE(hnorm(hsub(hmul(a, v), hmul(v, hdiag(w, n, n)))), 1e-12 * n);
    }
}

}  // namespace
