// Reference kernels of the iterative factorizations: svd (one-sided Jacobi), eigh (cyclic
// Jacobi), eig (Householder Hessenberg reduction + shifted complex QR, eigenvectors by
// back substitution on the Schur form). Conventions in docs/numerics-linalg.md.
#include "ref_linalg.hpp"

namespace ember_ref {
namespace linalg {
namespace {

constexpr double kEps = DBL_EPSILON;

template <class S>
double max_abs(const Mat<S>& m) {
    double r = 0;
    for (const S& v : m.a) r = std::max(r, std::abs(v));
    return r;
}

// Fills the columns of q (p x c) marked in `missing` with unit vectors orthogonal to every
// other column: of the standard basis vectors, Gram-Schmidt (twice) keeps the one with the
// largest remainder (at least 1/sqrt(p) of it survives, so the result is well defined).
template <class S>
void complete_basis(Mat<S>& q, std::vector<bool> missing) {
    int64_t p = q.rows, c = q.cols;
    for (int64_t col = 0; col < c; ++col) {
        if (!missing[(size_t)col]) continue;
        std::vector<S> best;
        double best_norm = -1;
        for (int64_t t = 0; t < p; ++t) {
            std::vector<S> v((size_t)p, S(0));
            v[(size_t)t] = S(1);
            for (int pass = 0; pass < 2; ++pass)
                for (int64_t o = 0; o < c; ++o) {
                    if (missing[(size_t)o]) continue;
                    S dot = S(0);
                    for (int64_t i = 0; i < p; ++i) dot += conj_of(q(i, o)) * v[(size_t)i];
                    for (int64_t i = 0; i < p; ++i) v[(size_t)i] -= dot * q(i, o);
                }
            double nv = nrm2(v.data(), p, 1);
            if (nv > best_norm) {
                best_norm = nv;
                best = v;
            }
        }
        for (int64_t i = 0; i < p; ++i) q(i, col) = best[(size_t)i] / best_norm;
        missing[(size_t)col] = false;
    }
}

// One-sided Jacobi on the columns of w (p x q, p >= q): w <- w*J, v <- v*J until every
// pair of columns is orthogonal to within p * eps (the cosine of their angle) or one of the
// two is negligible. Returns false if it did not converge. Both bounds stop a rotation that
// rounding would repeat forever:
// - p * eps is the rounding error of a length-p dot product: with eps alone, a 4 x 4 matrix
//   stalled at a cosine of 1.06 eps, rotating one pair every sweep;
// - a column of norm <= eps^2 * ||w|| (the remainder of a rank-deficient matrix's column
//   after its dependence has been rotated out) keeps a cosine near 1 with the column it
//   came from and shrinks each sweep into the subnormals instead of converging: 3 x 3
//   matrices of small integers with two equal rows failed that way.
template <class S>
bool jacobi_columns(Mat<S>& w, Mat<S>* v) {
    int64_t p = w.rows, q = w.cols;
    const double tolerance = kEps * (double)p;
    double fro2 = 0;
    for (const S& x : w.a) fro2 += abs2(x);
    const double negligible = kEps * kEps * kEps * kEps * fro2;  // a squared column norm
    for (int sweep = 0; sweep < 80; ++sweep) {
        bool rotated = false;
        for (int64_t i = 0; i < q; ++i)
            for (int64_t j = i + 1; j < q; ++j) {
                double alpha = 0, beta = 0;
                S gamma = S(0);
                for (int64_t r = 0; r < p; ++r) {
                    alpha += abs2(w(r, i));
                    beta += abs2(w(r, j));
                    gamma += conj_of(w(r, i)) * w(r, j);
                }
                double g = std::abs(gamma);
                if (g == 0 || g <= tolerance * std::sqrt(alpha) * std::sqrt(beta) || std::min(alpha, beta) <= negligible) continue;
                rotated = true;
                double zeta = (beta - alpha) / (2 * g);
                double t = (zeta >= 0 ? 1.0 : -1.0) / (std::fabs(zeta) + std::sqrt(1 + zeta * zeta));
                double c = 1 / std::sqrt(1 + t * t), s = c * t;
                S e = conj_of(gamma / g);  // e^{-i phi}
                auto rot = [&](Mat<S>& m, int64_t rows) {
                    for (int64_t r = 0; r < rows; ++r) {
                        S a = m(r, i), b = m(r, j) * e;
                        m(r, i) = c * a - s * b;
                        m(r, j) = s * a + c * b;
                    }
                };
                rot(w, p);
                if (v) rot(*v, v->rows);
            }
        if (!rotated) return true;
    }
    return false;
}

// in: A (..., m, n). attrs i[0]: full_matrices, i[1]: compute_uv.
// out: U (..., m, m|k), S real (..., k), Vh (..., n|k, n), info (...); without uv: S, info.
ember_status_t svd_kernel(const ember_kernel_call_t* call) {
    const ember_view_t& A = call->in[0];
    bool full = call->attrs->i[0] != 0, uv = call->attrs->i[1] != 0;
    const ember_view_t& Sv = call->out[uv ? 1 : 0];
    const ember_view_t& I = call->out[uv ? 3 : 1];
    int nb = A.ndim - 2;
    return visit_float("svd", A.dtype, [&](auto tt, auto ts) {
        using T = typename decltype(tt)::type;
        using S = typename decltype(ts)::type;
        using R = real_t<T>;
        for_each_batch(nb, A.shape, [&](int64_t, const int64_t* idx) {
            Mat<S> a = load<S, T>(A, batch_offset(A, nb, idx));
            int64_t m = a.rows, n = a.cols;
            bool trans = m < n;
            int64_t p = std::max(m, n), q = std::min(m, n);
            Mat<S> w(p, q);
            for (int64_t i = 0; i < p; ++i)
                for (int64_t j = 0; j < q; ++j) w(i, j) = trans ? conj_of(a(j, i)) : a(i, j);
            double scale = max_abs(w);
            if (scale > 0)
                for (S& x : w.a) x /= scale;
            Mat<S> v = Mat<S>::eye(q);
            bool ok = jacobi_columns(w, uv ? &v : nullptr);
            std::vector<double> sig((size_t)q);
            for (int64_t j = 0; j < q; ++j) sig[(size_t)j] = nrm2(&w(0, j), p, q);
            std::vector<int64_t> order((size_t)q);
            for (int64_t j = 0; j < q; ++j) order[(size_t)j] = j;
            std::stable_sort(order.begin(), order.end(), [&](int64_t x, int64_t y) { return sig[(size_t)x] > sig[(size_t)y]; });
            std::vector<double> s((size_t)q);
            for (int64_t j = 0; j < q; ++j) s[(size_t)j] = sig[(size_t)order[(size_t)j]] * scale;
            store_vec<R>(Sv, batch_offset(Sv, nb, idx), s);
            store_info(I, batch_offset(I, nb, idx), ok ? 0 : 1);
            if (!uv) return;
            // left: the normalised columns of w (p x q, or p x p completed when full).
            int64_t lc = full ? p : q;
            Mat<S> left(p, lc), right(q, q);
            std::vector<bool> missing((size_t)lc, true);
            for (int64_t j = 0; j < q; ++j) {
                int64_t o = order[(size_t)j];
                double sj = sig[(size_t)o];
                for (int64_t i = 0; i < q; ++i) right(i, j) = v(i, o);
                if (sj > 1e-280) {
                    for (int64_t i = 0; i < p; ++i) left(i, j) = w(i, o) / sj;
                    missing[(size_t)j] = false;
                }
            }
            complete_basis(left, missing);
            // !trans: A = left * S * right^H.  trans: A^H = left * S * right^H, so A = right * S * left^H.
            const Mat<S>& um = trans ? right : left;
            const Mat<S>& vm = trans ? left : right;
            Mat<S> vh(vm.cols, vm.rows);
            for (int64_t i = 0; i < vm.rows; ++i)
                for (int64_t j = 0; j < vm.cols; ++j) vh(j, i) = conj_of(vm(i, j));
            store<T>(call->out[0], batch_offset(call->out[0], nb, idx), um);
            store<T>(call->out[2], batch_offset(call->out[2], nb, idx), vh);
        });
        return EMBER_OK;
    });
}

// in: A (..., n, n); attrs i[0]: upper (read the upper triangle, else the lower), i[1]:
// compute_v. out: W real (..., n) ascending, V (..., n, n), info (...); without v: W, info.
ember_status_t eigh_kernel(const ember_kernel_call_t* call) {
    const ember_view_t& A = call->in[0];
    bool upper = call->attrs->i[0] != 0, want_v = call->attrs->i[1] != 0;
    const ember_view_t& W = call->out[0];
    const ember_view_t& I = call->out[want_v ? 2 : 1];
    int nb = A.ndim - 2;
    return visit_float("eigh", A.dtype, [&](auto tt, auto ts) {
        using T = typename decltype(tt)::type;
        using S = typename decltype(ts)::type;
        using R = real_t<T>;
        for_each_batch(nb, A.shape, [&](int64_t, const int64_t* idx) {
            Mat<S> a = load<S, T>(A, batch_offset(A, nb, idx));
            int64_t n = a.rows;
            Mat<S> h(n, n);
            for (int64_t i = 0; i < n; ++i) {
                h(i, i) = S(real_of_s(a(i, i)));
                for (int64_t j = 0; j < i; ++j) {
                    S lij = upper ? conj_of(a(j, i)) : a(i, j);  // the (i, j) entry, i > j
                    h(i, j) = lij;
                    h(j, i) = conj_of(lij);
                }
            }
            double scale = max_abs(h);
            if (scale > 0)
                for (S& x : h.a) x /= scale;
            double fro = 0;
            for (const S& x : h.a) fro += abs2(x);
            double floor_abs = std::max(kEps * kEps * std::sqrt(fro), DBL_MIN);
            Mat<S> v = Mat<S>::eye(n);
            bool ok = false;
            for (int sweep = 0; sweep < 100 && !ok; ++sweep) {
                bool rotated = false;
                for (int64_t p = 0; p < n; ++p)
                    for (int64_t q = p + 1; q < n; ++q) {
                        S apq = h(p, q);
                        double g = std::abs(apq);
                        double app = real_of_s(h(p, p)), aqq = real_of_s(h(q, q));
                        if (g <= std::max(kEps * std::sqrt(std::fabs(app)) * std::sqrt(std::fabs(aqq)), floor_abs)) continue;
                        rotated = true;
                        double tau = (aqq - app) / (2 * g);
                        double t = (tau >= 0 ? 1.0 : -1.0) / (std::fabs(tau) + std::sqrt(1 + tau * tau));
                        double c = 1 / std::sqrt(1 + t * t), s = c * t;
                        S e = apq / g, ec = conj_of(e);
                        for (int64_t r = 0; r < n; ++r) {  // columns: h <- h J
                            S x = h(r, p), y = h(r, q) * ec;
                            h(r, p) = c * x - s * y;
                            h(r, q) = s * x + c * y;
                        }
                        for (int64_t r = 0; r < n; ++r) {  // rows: h <- J^H h
                            S x = h(p, r), y = h(q, r) * e;
                            h(p, r) = c * x - s * y;
                            h(q, r) = s * x + c * y;
                        }
                        h(p, q) = h(q, p) = S(0);
                        h(p, p) = S(real_of_s(h(p, p)));
                        h(q, q) = S(real_of_s(h(q, q)));
                        if (want_v)
                            for (int64_t r = 0; r < n; ++r) {
                                S x = v(r, p), y = v(r, q) * ec;
                                v(r, p) = c * x - s * y;
                                v(r, q) = s * x + c * y;
                            }
                    }
                if (!rotated) ok = true;
            }
            std::vector<int64_t> order((size_t)n);
            for (int64_t j = 0; j < n; ++j) order[(size_t)j] = j;
            std::stable_sort(order.begin(), order.end(), [&](int64_t x, int64_t y) { return real_of_s(h(x, x)) < real_of_s(h(y, y)); });
            std::vector<double> w((size_t)n);
            for (int64_t j = 0; j < n; ++j) w[(size_t)j] = real_of_s(h(order[(size_t)j], order[(size_t)j])) * scale;
            store_vec<R>(W, batch_offset(W, nb, idx), w);
            store_info(I, batch_offset(I, nb, idx), ok ? 0 : 1);
            if (!want_v) return;
            Mat<S> vs(n, n);
            for (int64_t i = 0; i < n; ++i)
                for (int64_t j = 0; j < n; ++j) vs(i, j) = v(i, order[(size_t)j]);
            store<T>(call->out[1], batch_offset(call->out[1], nb, idx), vs);
        });
        return EMBER_OK;
    });
}

// Givens rotation G = [[c, s], [-conj(s), c]] with G*(x; y) = (r; 0), c real.
void givens(cd x, cd y, double& c, cd& s) {
    double ax = std::abs(x), ay = std::abs(y);
    if (ay == 0) {
        c = 1;
        s = 0;
        return;
    }
    if (ax == 0) {
        c = 0;
        s = std::conj(y) / ay;
        return;
    }
    double r = std::hypot(ax, ay);
    c = ax / r;
    s = x * std::conj(y) / (ax * r);
}

// Schur form A = Z*T*Z^H of a complex matrix (h is overwritten by T). Returns the 1-based
// index of an eigenvalue that did not converge, or 0.
int64_t complex_schur(Mat<cd>& h, Mat<cd>* z) {
    int64_t n = h.rows;
    for (int64_t k = 0; k + 2 < n; ++k) {  // Householder reduction to Hessenberg form
        cd tau = householder(h(k + 1, k), &h(k + 2, k), n - k - 2, n);
        if (tau == cd(0)) continue;
        std::vector<cd> v((size_t)n, cd(0));
        v[(size_t)(k + 1)] = 1;
        for (int64_t i = k + 2; i < n; ++i) {
            v[(size_t)i] = h(i, k);
            h(i, k) = 0;
        }
        for (int64_t c = k + 1; c < n; ++c) {  // h <- H^H h
            cd w = 0;
            for (int64_t i = k + 1; i < n; ++i) w += std::conj(v[(size_t)i]) * h(i, c);
            w *= std::conj(tau);
            for (int64_t i = k + 1; i < n; ++i) h(i, c) -= v[(size_t)i] * w;
        }
        auto right = [&](Mat<cd>& m) {  // m <- m H
            for (int64_t r = 0; r < m.rows; ++r) {
                cd w = 0;
                for (int64_t i = k + 1; i < n; ++i) w += m(r, i) * v[(size_t)i];
                w *= tau;
                for (int64_t i = k + 1; i < n; ++i) m(r, i) -= w * std::conj(v[(size_t)i]);
            }
        };
        right(h);
        if (z) right(*z);
    }
    double hnorm = max_abs(h);
    int64_t hi = n - 1;
    int iter = 0;
    while (hi > 0) {
        int64_t l = hi;
        for (; l > 0; --l) {
            double s = std::abs(h(l - 1, l - 1)) + std::abs(h(l, l));
            if (s == 0) s = hnorm;
            if (std::abs(h(l, l - 1)) <= kEps * s) {
                h(l, l - 1) = 0;
                break;
            }
        }
        if (l == hi) {
            --hi;
            iter = 0;
            continue;
        }
        if (++iter > 100) return hi + 1;
        cd mu;
        if (iter % 10 == 0) {  // exceptional shift against cycling
            mu = h(hi, hi) + 0.75 * std::fabs(h(hi, hi - 1).real());
        } else {  // Wilkinson: the eigenvalue of the trailing 2x2 closer to h(hi, hi)
            cd a = h(hi - 1, hi - 1), b = h(hi - 1, hi), c = h(hi, hi - 1), d = h(hi, hi);
            cd half = (a - d) / 2.0, disc = std::sqrt(half * half + b * c);
            cd m1 = (a + d) / 2.0 + disc, m2 = (a + d) / 2.0 - disc;
            mu = std::abs(m1 - d) < std::abs(m2 - d) ? m1 : m2;
        }
        cd x = h(l, l) - mu, y = h(l + 1, l);
        for (int64_t k = l; k < hi; ++k) {
            if (k > l) {
                x = h(k, k - 1);
                y = h(k + 1, k - 1);
            }
            double c;
            cd s;
            givens(x, y, c, s);
            for (int64_t j = k > l ? k - 1 : l; j < n; ++j) {  // rows k, k+1 <- G * rows
                cd h1 = h(k, j), h2 = h(k + 1, j);
                h(k, j) = c * h1 + s * h2;
                h(k + 1, j) = -std::conj(s) * h1 + c * h2;
            }
            if (k > l) h(k + 1, k - 1) = 0;
            auto cols = [&](Mat<cd>& m, int64_t rows) {  // columns k, k+1 <- columns * G^H
                for (int64_t i = 0; i < rows; ++i) {
                    cd h1 = m(i, k), h2 = m(i, k + 1);
                    m(i, k) = c * h1 + std::conj(s) * h2;
                    m(i, k + 1) = -s * h1 + c * h2;
                }
            };
            cols(h, std::min(k + 3, hi + 1));
            if (z) cols(*z, n);
        }
    }
    for (int64_t i = 0; i < n; ++i)
        for (int64_t j = 0; j < i; ++j) h(i, j) = 0;
    return 0;
}

template <class T>
Mat<cd> load_complex(const ember_view_t& v, int64_t off) {
    return load<cd, T>(v, off);
}

// in: A (..., n, n) real or complex; attrs i[0]: compute_v.
// out: W complex (..., n), V complex (..., n, n), info (...); without v: W, info.
ember_status_t eig_kernel(const ember_kernel_call_t* call) {
    const ember_view_t& A = call->in[0];
    bool want_v = call->attrs->i[0] != 0;
    const ember_view_t& W = call->out[0];
    const ember_view_t& I = call->out[want_v ? 2 : 1];
    int nb = A.ndim - 2;
    return visit_float("eig", A.dtype, [&](auto tt, auto) {
        using T = typename decltype(tt)::type;
        using C = std::conditional_t<std::is_same_v<real_t<T>, float>, c64, c128>;  // output storage
        for_each_batch(nb, A.shape, [&](int64_t, const int64_t* idx) {
            Mat<cd> h = load_complex<T>(A, batch_offset(A, nb, idx));
            int64_t n = h.rows;
            double scale = max_abs(h);
            if (scale > 0)
                for (cd& x : h.a) x /= scale;
            Mat<cd> z = Mat<cd>::eye(n);
            int64_t info = complex_schur(h, want_v ? &z : nullptr);
            std::vector<cd> w((size_t)n);
            for (int64_t i = 0; i < n; ++i) w[(size_t)i] = h(i, i) * scale;
            store_vec<C>(W, batch_offset(W, nb, idx), w);
            store_info(I, batch_offset(I, nb, idx), info);
            if (!want_v) return;
            // Eigenvectors of the triangular T by back substitution, then v = Z*x.
            double tnorm = max_abs(h);
            double smin = std::max(kEps * tnorm, DBL_MIN);
            Mat<cd> vecs(n, n);
            std::vector<cd> x((size_t)n);
            for (int64_t k = 0; k < n; ++k) {
                std::fill(x.begin(), x.end(), cd(0));
                x[(size_t)k] = 1;
                cd lambda = h(k, k);
                for (int64_t i = k; i-- > 0;) {
                    cd s = 0;
                    for (int64_t j = i + 1; j <= k; ++j) s += h(i, j) * x[(size_t)j];
                    cd d = h(i, i) - lambda;
                    if (std::abs(d) < smin) d = smin;
                    x[(size_t)i] = -s / d;
                    double ax = std::abs(x[(size_t)i]);
                    if (ax > 1e100)
                        for (int64_t j = i; j <= k; ++j) x[(size_t)j] /= ax;
                }
                std::vector<cd> col((size_t)n, cd(0));
                for (int64_t r = 0; r < n; ++r)
                    for (int64_t j = 0; j <= k; ++j) col[(size_t)r] += z(r, j) * x[(size_t)j];
                double nv = nrm2(col.data(), n, 1);
                int64_t big = 0;
                for (int64_t r = 1; r < n; ++r)
                    if (std::abs(col[(size_t)r]) > std::abs(col[(size_t)big])) big = r;
                cd phase = std::abs(col[(size_t)big]) > 0 ? std::conj(col[(size_t)big]) / std::abs(col[(size_t)big]) : cd(1);
                for (int64_t r = 0; r < n; ++r) vecs(r, k) = col[(size_t)r] * phase / (nv > 0 ? nv : 1.0);
                vecs(big, k) = cd(vecs(big, k).real(), 0);
            }
            store<C>(call->out[1], batch_offset(call->out[1], nb, idx), vecs);
        });
        return EMBER_OK;
    });
}

void add_linalg_eig_kernels(KernelList& k) {
    k.emplace_back("svd", svd_kernel);
    k.emplace_back("eigh", eigh_kernel);
    k.emplace_back("eig", eig_kernel);
}

RegisterKernels reg(add_linalg_eig_kernels);

}  // namespace
}  // namespace linalg
}  // namespace ember_ref
