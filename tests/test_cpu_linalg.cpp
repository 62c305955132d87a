// The cpu backend's LAPACKE kernels (backends/cpu/lapack*.cpp) for the linalg primitives
// lu_factor, lu_solve, cholesky, qr, svd, eigh and eig: bound natively, compared with the
// reference backend on random data for every float dtype, batched, on non-contiguous
// views (transposed, strided, flipped, broadcast batch), empty and 1x1 matrices,
// rectangular shapes, singular and non-positive-definite inputs (same status and message),
// plus the identities P*L*U = A, Q*R = A, U*S*Vh = A, A*v = lambda*v. Where LAPACK and the
// reference may legitimately differ (eig's order, the phase of singular and eigen vectors)
// the comparison is by identities. Composites (solve, inv, det, lstsq, ...) on cpu against
// the reference, concurrent calls, batches that take the thread pool and blocked sizes.
#include <algorithm>
#include <atomic>
#include <functional>
#include <limits>
#include <random>
#include <thread>

#include "cpu_contexts.hpp"
#include "host_matrix.hpp"

namespace {

const ember_dtype_t kDtypes[] = {EMBER_FLOAT32, EMBER_FLOAT64, EMBER_COMPLEX64, EMBER_COMPLEX128};

// ---------------------------------------------------------------- host matrices

double diff(const HM& a, const HM& b) { return hnorm(hsub(a, b)); }
double orth_err(const HM& q) { return diff(hmul(hadj(q), q), heye(q.c)); }

std::mt19937& rng() { return per_test_rng(4242u); }
HM random(int64_t r, int64_t c, bool cplx) { return hrandom(r, c, cplx, rng()); }
HM spd(int64_t n, bool cplx) {  // B B^H + n I
    HM b = random(n, n, cplx), a = hmul(b, hadj(b));
    for (int64_t i = 0; i < n; ++i) a(i, i) += (double)n;
    return a;
}
HM hermitian(int64_t n, bool cplx) {
    HM b = random(n, n, cplx), a(n, n);
    for (int64_t i = 0; i < n; ++i)
        for (int64_t j = 0; j < n; ++j) a(i, j) = (b(i, j) + std::conj(b(j, i))) / 2.0;
    return a;
}

// ---------------------------------------------------------------- tensors <-> host

// How an input reaches the kernels: contiguous, a transposed view, every other row of a
// taller tensor, flipped columns (negative stride) or one matrix broadcast over the batch
// (stride 0; the generator then makes every matrix equal).
enum Layout { CONTIG, TRANSPOSED, STRIDED, FLIPPED, BROADCAST };
const Layout kLayouts[] = {CONTIG, TRANSPOSED, STRIDED, FLIPPED, BROADCAST};
const char* layout_name(Layout l) {
    static const char* n[] = {"contiguous", "transposed", "strided", "flipped", "broadcast"};
    return n[l];
}

T from_host(ember_ctx_t* ctx, const std::vector<cd>& data, std::vector<int64_t> shape, ember_dtype_t dt) {
    T src, out;
    EXPECT_EQ(ember_tensor_from_data(ctx, data.data(), EMBER_COMPLEX128, shape.data(), (int)shape.size(), src.out()), EMBER_OK)
        << ember_last_error();
    EXPECT_EQ(ember_astype(ctx, src, dt, out.out()), EMBER_OK) << ember_last_error();
    return out;
}

// A (batch..., m, n) tensor holding `ms` (one per batch element, C order) with the layout.
T build(ember_ctx_t* ctx, const std::vector<HM>& ms, const std::vector<int64_t>& batch, ember_dtype_t dt, Layout lay) {
    int64_t m = ms[0].r, n = ms[0].c;
    std::vector<int64_t> shape = batch;
    shape.push_back(m);
    shape.push_back(n);
    const int nd = (int)shape.size();
    std::vector<cd> data;
    T out;
    switch (lay) {
        case CONTIG:
            for (const HM& a : ms) data.insert(data.end(), a.v.begin(), a.v.end());
            return from_host(ctx, data, shape, dt);
        case TRANSPOSED: {
            for (const HM& a : ms) {
                HM t(n, m);
                for (int64_t i = 0; i < m; ++i)
                    for (int64_t j = 0; j < n; ++j) t(j, i) = a(i, j);
                data.insert(data.end(), t.v.begin(), t.v.end());
            }
            std::vector<int64_t> s = batch;
            s.push_back(n);
            s.push_back(m);
            T t = from_host(ctx, data, s, dt);
            EXPECT_EQ(ember_matrix_transpose(ctx, t, out.out()), EMBER_OK) << ember_last_error();
            return out;
        }
        case STRIDED: {
            for (const HM& a : ms)
                for (int64_t i = 0; i < m; ++i) {
                    data.insert(data.end(), a.v.begin() + i * n, a.v.begin() + (i + 1) * n);
                    for (int64_t j = 0; j < n; ++j) data.push_back(cd(1e3, is_cplx(dt) ? -1e3 : 0));  // never read
                }
            std::vector<int64_t> s = shape, start(nd, 0), stop(nd, EMBER_SLICE_END), step(nd, 1);
            s[nd - 2] = 2 * m;
            step[nd - 2] = 2;
            T t = from_host(ctx, data, s, dt);
            EXPECT_EQ(ember_slice(ctx, t, start.data(), stop.data(), step.data(), nd, out.out()), EMBER_OK) << ember_last_error();
            return out;
        }
        case FLIPPED: {
            for (const HM& a : ms)
                for (int64_t i = 0; i < m; ++i)
                    for (int64_t j = n; j-- > 0;) data.push_back(a(i, j));
            T t = from_host(ctx, data, shape, dt);
            int64_t ax = -1;
            EXPECT_EQ(ember_flip(ctx, t, &ax, 1, out.out()), EMBER_OK) << ember_last_error();
            return out;
        }
        case BROADCAST: {
            data = ms[0].v;
            std::vector<int64_t> s = {1, m, n};
            T t = from_host(ctx, data, s, dt);
            EXPECT_EQ(ember_broadcast_to(ctx, t, shape.data(), nd, out.out()), EMBER_OK) << ember_last_error();
            return out;
        }
    }
    return out;
}

std::vector<std::vector<cd>> vecs(const ember_tensor_t* t) {  // the trailing axis, per batch element
    auto s = shape_of(t);
    int64_t k = s.empty() ? 1 : s.back();
    std::vector<cd> v = host(t);
    std::vector<std::vector<cd>> out;
    for (size_t off = 0; k > 0 && off + (size_t)k <= v.size(); off += (size_t)k) out.emplace_back(v.begin() + (long)off, v.begin() + (long)(off + (size_t)k));
    return out;
}
double max_diff(const std::vector<cd>& a, const std::vector<cd>& b) {
    if (a.size() != b.size()) return INFINITY;
    double d = 0;
    for (size_t i = 0; i < a.size(); ++i) d = std::max(d, std::abs(a[i] - b[i]));
    return d;
}
bool contiguous(const ember_tensor_t* t) {
    int c = 0;
    ember_tensor_is_contiguous(t, &c);
    return c != 0;
}

// One case: batch shape, matrix shape, layout, dtype.
struct Case {
    std::vector<int64_t> batch;
    int64_t m, n;
    Layout lay;
    ember_dtype_t dt;
    std::string name() const {
        std::string s = std::string(ember_dtype_name(dt)) + " batch(";
        for (int64_t b : batch) s += std::to_string(b) + ",";
        return s + ") " + std::to_string(m) + "x" + std::to_string(n) + " " + layout_name(lay);
    }
    int64_t count() const {
        int64_t c = 1;
        for (int64_t b : batch) c *= b;
        return c;
    }
};
// Every dtype x layout over the given matrix shapes; the layouts that need a batch axis
// (broadcast) get one.
std::vector<Case> cases(const std::vector<std::pair<int64_t, int64_t>>& shapes) {
    std::vector<Case> out;
    for (ember_dtype_t dt : kDtypes)
        for (auto [m, n] : shapes)
            for (Layout lay : kLayouts) {
                std::vector<int64_t> batch = lay == BROADCAST ? std::vector<int64_t>{3} : (m + n) % 2 ? std::vector<int64_t>{}
                                                                                                        : std::vector<int64_t>{2, 3};
                out.push_back(Case{batch, m, n, lay, dt});
            }
    return out;
}
std::vector<HM> gen(const Case& c, const std::function<HM(int64_t, int64_t, bool)>& g) {
    std::vector<HM> ms;
    for (int64_t i = 0; i < c.count(); ++i) ms.push_back(c.lay == BROADCAST && i > 0 ? ms[0] : g(c.m, c.n, is_cplx(c.dt)));
    return ms;
}
// The same input on both backends; checks the cpu view really is non-contiguous.
std::pair<T, T> inputs(const Case& c, const std::vector<HM>& ms) {
    T a = build(cpu(), ms, c.batch, c.dt, c.lay), b = build(ref(), ms, c.batch, c.dt, c.lay);
    if (c.lay != CONTIG && c.m > 1 && c.n > 1) {
        EXPECT_FALSE(contiguous(a)) << c.name();
    }
    return {std::move(a), std::move(b)};
}

// ---------------------------------------------------------------- bindings

TEST(CpuLinalg, PrimitivesAreBoundNatively) {
    NEED_CPU();
    const char* binding = nullptr;
    for (const char* op : {"lu_factor", "lu_solve", "cholesky", "qr", "svd", "eigh", "eig", "solve", "inv", "det", "slogdet", "lstsq"}) {
        EM_OK(ember_op_binding("cpu", op, &binding));
        EXPECT_STREQ(binding, "native") << op;
    }
    for (const char* op : {"pinv", "matrix_rank", "svdvals", "eigvalsh", "eigvals", "expm"}) {
        EM_OK(ember_op_binding("cpu", op, &binding));
        EXPECT_STREQ(binding, "composite") << op;
    }
}

// ---------------------------------------------------------------- against the reference

const std::vector<std::pair<int64_t, int64_t>> kSquare = {{1, 1}, {2, 2}, {5, 5}, {12, 12}, {20, 20}};
// Up to 16 x 16 the cpu backend factors with loops of its own (tiny_lapack.hpp), above with
// LAPACK: both sides of that line.
const std::vector<std::pair<int64_t, int64_t>> kRect = {{1, 1}, {5, 5}, {7, 4}, {4, 7}, {1, 3}, {3, 1}, {20, 17}, {17, 20}};

TEST(CpuLinalg, LuFactorMatchesReference) {
    NEED_CPU();
    for (const Case& c : cases(kRect)) {
        auto ms = gen(c, random);
        auto [a, ar] = inputs(c, ms);
        T lu, piv, lur, pivr;
        EM_OK(ember_lu_factor(cpu(), a, lu.out(), piv.out()));
        EM_OK(ember_lu_factor(ref(), ar, lur.out(), pivr.out()));
        ASSERT_EQ(shape_of(lu), shape_of(lur)) << c.name();
        ASSERT_EQ(shape_of(piv), shape_of(pivr)) << c.name();
        EXPECT_EQ(dtype_of(piv), EMBER_INT64);
        double tol = 50 * (double)std::max(c.m, c.n) * eps_of(c.dt);
        // Real input: the same pivots (largest |a_ij|) and the same factors. Complex input:
        // LAPACK's i?amax picks the largest |Re| + |Im|, the reference the largest modulus,
        // so the pivots may differ; both give |l_ij| <= 1 (modulus) or <= sqrt(2) (LAPACK).
        if (!is_cplx(c.dt)) {
            EXPECT_EQ(host(piv), host(pivr)) << c.name();
            EXPECT_LE(max_diff(host(lu), host(lur)), tol) << c.name();
        }
        // P*L*U = A, the row swaps applied in order.
        auto lus = mats(lu);
        auto ps = vecs(piv);
        int64_t k = std::min(c.m, c.n);
        for (size_t b = 0; b < lus.size(); ++b) {
            HM L(c.m, k), U(k, c.n), pa = ms[b];
            for (int64_t i = 0; i < c.m; ++i)
                for (int64_t j = 0; j < k; ++j) {
                    L(i, j) = i == j ? cd(1) : i > j ? lus[b](i, j) : cd(0);
                    EXPECT_LE(std::abs(L(i, j)), (is_cplx(c.dt) ? std::sqrt(2.0) : 1.0) * (1 + tol)) << c.name();
                }
            for (int64_t i = 0; i < k; ++i)
                for (int64_t j = i; j < c.n; ++j) U(i, j) = lus[b](i, j);
            for (int64_t i = 0; i < k; ++i) {
                int64_t p = (int64_t)ps[b][(size_t)i].real();
                ASSERT_TRUE(p >= i && p < c.m) << c.name();
                for (int64_t j = 0; j < c.n; ++j) std::swap(pa(i, j), pa(p, j));
            }
            EXPECT_LE(diff(hmul(L, U), pa), tol * std::max(1.0, hnorm(ms[b]))) << c.name();
        }
    }
}

// Matrices larger than the blocks of the transposing copies between views and LAPACK's
// column-major buffers (register tiles in 64-column blocks, simd_transpose.hpp), with partial tiles and
// blocks at both edges: a misplaced element breaks P L U = A or Q R = A. 144 x 80 has
// 64-byte aligned columns both ways, which the streaming copies need
// (CpuBackend.StreamingTransposesRoundTrip runs this with every copy streaming).
TEST(CpuLinalg, MatricesLargerThanTheCopyBlocksRoundTrip) {
    NEED_CPU();
    for (ember_dtype_t dt : {EMBER_FLOAT32, EMBER_FLOAT64, EMBER_COMPLEX64, EMBER_COMPLEX128})
        for (auto [m, n] : std::vector<std::pair<int64_t, int64_t>>{{131, 70}, {70, 131}, {144, 80}, {80, 144}})
            for (Layout lay : {CONTIG, TRANSPOSED, STRIDED, FLIPPED}) {
                Case c{{}, m, n, lay, dt};
                auto ms = gen(c, random);
                auto [a, ar] = inputs(c, ms);
                const double tol = 50 * (double)std::max(m, n) * eps_of(dt) * std::max(1.0, hnorm(ms[0]));
                T lu, piv, lur, pivr;
                EM_OK(ember_lu_factor(cpu(), a, lu.out(), piv.out()));
                EM_OK(ember_lu_factor(ref(), ar, lur.out(), pivr.out()));
                if (!is_cplx(dt)) {
                    EXPECT_EQ(host(piv), host(pivr)) << c.name();
                }
                HM f = mats(lu)[0], pa = ms[0];
                const int64_t k = std::min(m, n);
                HM L(m, k), U(k, n);
                for (int64_t i = 0; i < m; ++i)
                    for (int64_t j = 0; j < k; ++j) L(i, j) = i == j ? cd(1) : i > j ? f(i, j) : cd(0);
                for (int64_t i = 0; i < k; ++i)
                    for (int64_t j = i; j < n; ++j) U(i, j) = f(i, j);
                auto p = vecs(piv)[0];
                for (int64_t i = 0; i < k; ++i)
                    for (int64_t j = 0; j < n; ++j) std::swap(pa(i, j), pa((int64_t)p[(size_t)i].real(), j));
                EXPECT_LE(diff(hmul(L, U), pa), tol) << c.name();
                T q, r;
                EM_OK(ember_qr(cpu(), a, EMBER_QR_COMPLETE, q.out(), r.out()));
                EXPECT_LE(diff(hmul(mats(q)[0], mats(r)[0]), ms[0]), tol) << c.name();
                EXPECT_LE(orth_err(mats(q)[0]), 50 * (double)m * eps_of(dt)) << c.name();
                // svd gives LAPACK a wide A as its transpose (gesdd's divide and conquer here).
                // Two layouts and dtypes, full matrices in one: the host products cost
                // minutes under ASan.
                if (lay == TRANSPOSED || lay == STRIDED || dt == EMBER_FLOAT64 || dt == EMBER_COMPLEX64) continue;
                for (int full : {0, 1}) {
                    if (full && lay != CONTIG) continue;
                    T u, s, vh;
                    EM_OK(ember_svd(cpu(), a, full, u.out(), s.out(), vh.out()));
                    ASSERT_EQ(shape_of(u), (std::vector<int64_t>{m, full ? m : k})) << c.name();
                    ASSERT_EQ(shape_of(vh), (std::vector<int64_t>{full ? n : k, n})) << c.name();
                    HM U = mats(u)[0], V = mats(vh)[0], S(U.c, V.r);
                    auto sv = vecs(s)[0];
                    for (int64_t j = 0; j < k; ++j) {
                        S(j, j) = sv[(size_t)j];
                        if (j) {
                            EXPECT_GE(sv[(size_t)j - 1].real(), sv[(size_t)j].real()) << c.name();
                        }
                    }
                    EXPECT_LE(diff(hmul(hmul(U, S), V), ms[0]), tol) << c.name() << " full " << full;
                    EXPECT_LE(orth_err(U), 50 * (double)m * eps_of(dt)) << c.name() << " full " << full;
                    EXPECT_LE(orth_err(hadj(V)), 50 * (double)n * eps_of(dt)) << c.name() << " full " << full;
                }
            }
}

// Matrices of at least 2^19 elements: the transposing copies in and out of LAPACK's
// buffers run in bands of rows over the pool (lapack.hpp transpose_copy). An upper
// triangular A with a nonzero diagonal needs no row swaps and no updates, so getrf
// returns A itself: LU must equal A exactly and the pivots must be 0, 1, ..., k-1.
TEST(CpuLinalg, LargeTransposingCopiesKeepEveryElement) {
    NEED_CPU();
    for (ember_dtype_t dt : {EMBER_FLOAT32, EMBER_FLOAT64, EMBER_COMPLEX64, EMBER_COMPLEX128})
        for (auto [m, n] : std::vector<std::pair<int64_t, int64_t>>{{1000, 600}, {600, 1000}})
            for (Layout lay : {CONTIG, STRIDED}) {
                HM a(m, n);  // small integers: exact in every dtype
                for (int64_t i = 0; i < m; ++i)
                    for (int64_t j = i; j < n; ++j) a(i, j) = cd((double)(1 + (i * 131 + j * 17) % 4093), is_cplx(dt) ? (double)((i + 2 * j) % 7) : 0.0);
                T x = build(cpu(), {a}, {}, dt, lay), lu, piv;
                EM_OK(ember_lu_factor(cpu(), x, lu.out(), piv.out()));
                const std::string what = std::string(ember_dtype_name(dt)) + " " + std::to_string(m) + "x" + std::to_string(n) + " " + layout_name(lay);
                EXPECT_EQ(max_diff(host(lu), a.v), 0.0) << what;
                std::vector<cd> want_piv;
                for (int64_t i = 0; i < std::min(m, n); ++i) want_piv.push_back(cd((double)i));
                EXPECT_EQ(host(piv), want_piv) << what;
            }
}

TEST(CpuLinalg, LuSolveMatchesReference) {
    NEED_CPU();
    for (const Case& c : cases(kSquare)) {
        auto ms = gen(c, [](int64_t m, int64_t n, bool cp) {
            HM a = random(m, n, cp);
            for (int64_t i = 0; i < n; ++i) a(i, i) += (double)n;  // diagonally dominant: well conditioned
            return a;
        });
        auto [a, ar] = inputs(c, ms);
        T lu, piv;
        EM_OK(ember_lu_factor(cpu(), a, lu.out(), piv.out()));
        // B: (batch..., n, 3) as a transposed view.
        std::vector<HM> bs;
        for (int64_t i = 0; i < c.count(); ++i) bs.push_back(random(c.n, 3, is_cplx(c.dt)));
        T b = build(cpu(), bs, c.batch, c.dt, TRANSPOSED), x, xr;
        T lur, pivr, br = build(ref(), bs, c.batch, c.dt, TRANSPOSED);
        EM_OK(ember_lu_factor(ref(), ar, lur.out(), pivr.out()));
        EM_OK(ember_lu_solve(cpu(), lu, piv, b, x.out()));
        EM_OK(ember_lu_solve(ref(), lur, pivr, br, xr.out()));
        ASSERT_EQ(shape_of(x), shape_of(xr)) << c.name();
        // Elementwise against the reference (which computes float32 in double): within the
        // forward error bound, n * cond * eps (cond < 100 here); the backward error is tight.
        double tol = 100 * (double)c.n * eps_of(c.dt);
        EXPECT_LE(max_diff(host(x), host(xr)), tol * 100) << c.name();
        auto xs = mats(x);
        for (size_t i = 0; i < xs.size(); ++i) EXPECT_LE(diff(hmul(ms[i], xs[i]), bs[i]), tol * hnorm(bs[i])) << c.name();
        // One LU (no batch axes) against the whole batch of B: the kernel sees stride 0.
        if (!c.batch.empty()) {
            T lu0, p0, lu0r, p0r, x0, x0r;
            T a0 = from_host(cpu(), ms[0].v, {c.n, c.n}, c.dt), a0r = from_host(ref(), ms[0].v, {c.n, c.n}, c.dt);
            EM_OK(ember_lu_factor(cpu(), a0, lu0.out(), p0.out()));
            EM_OK(ember_lu_factor(ref(), a0r, lu0r.out(), p0r.out()));
            EM_OK(ember_lu_solve(cpu(), lu0, p0, b, x0.out()));
            EM_OK(ember_lu_solve(ref(), lu0r, p0r, br, x0r.out()));
            EXPECT_EQ(shape_of(x0), shape_of(x0r));
            EXPECT_LE(max_diff(host(x0), host(x0r)), tol * 100) << c.name();
        }
        // A single vector b, broadcast over the batch.
        std::vector<cd> bv((size_t)c.n, cd(1, is_cplx(c.dt) ? -1 : 0));
        T v = from_host(cpu(), bv, {c.n}, c.dt), vr = from_host(ref(), bv, {c.n}, c.dt), xv, xvr;
        EM_OK(ember_lu_solve(cpu(), lu, piv, v, xv.out()));
        EM_OK(ember_lu_solve(ref(), lur, pivr, vr, xvr.out()));
        EXPECT_EQ(shape_of(xv), shape_of(xvr));
        EXPECT_LE(max_diff(host(xv), host(xvr)), tol * 100) << c.name();
        // The vector path reads LU's rows in place (unit column stride, any row stride:
        // STRIDED); other layouts take the copying path.
        for (Layout lay : {STRIDED, TRANSPOSED, FLIPPED}) {
            T luv = build(cpu(), mats(lu), c.batch, c.dt, lay), xl;
            EM_OK(ember_lu_solve(cpu(), luv, piv, v, xl.out()));
            EXPECT_LE(max_diff(host(xl), host(xvr)), tol * 100) << c.name() << " LU " << layout_name(lay);
        }
    }
    // U's diagonal is divided out exactly: lu_solve(lu_factor(D), diag(D)) is 1 exactly
    // (41 and 49: c * fl(1/c) != 1 in float32 and float64), on the vector path and the
    // general one.
    for (ember_dtype_t dt : kDtypes) {
        HM dd = heye(4);
        const std::vector<cd> diag = {41, 49, 55, 103};
        for (int64_t j = 0; j < 4; ++j) dd(j, j) = diag[(size_t)j];
        T a = from_host(cpu(), dd.v, {4, 4}, dt), lu, p, x, x2;
        EM_OK(ember_lu_factor(cpu(), a, lu.out(), p.out()));
        EM_OK(ember_lu_solve(cpu(), lu, p, from_host(cpu(), diag, {4}, dt), x.out()));
        EXPECT_EQ(host(x), std::vector<cd>(4, cd(1))) << ember_dtype_name(dt);
        EM_OK(ember_lu_solve(cpu(), lu, p, from_host(cpu(), dd.v, {4, 4}, dt), x2.out()));
        EXPECT_EQ(host(x2), host(from_host(cpu(), heye(4).v, {4, 4}, dt))) << ember_dtype_name(dt);
    }
}

TEST(CpuLinalg, LuSolveOutOfRangePivotIsAnIndexError) {
    NEED_CPU();
    for (ember_dtype_t dt : kDtypes) {
        std::vector<cd> lu = {2, 1, 1, 0, 3, 0, 0, 0, 1}, b = {1, 2, 3};
        for (ember_ctx_t* ctx : {cpu(), ref()}) {
            T L = from_host(ctx, lu, {3, 3}, dt), B = from_host(ctx, b, {3}, dt), X;
            // Batch of 2 pivot vectors: the second has an out-of-range entry.
            std::vector<int64_t> pv = {0, 1, 2, 1, 7, 2};
            int64_t ps[2] = {2, 3};
            T P;
            EM_OK(ember_tensor_from_data(ctx, pv.data(), EMBER_INT64, ps, 2, P.out()));
            EXPECT_EQ(ember_lu_solve(ctx, L, P, B, X.out()), EMBER_ERR_INDEX);
        }
        // Same message on both backends.
        std::string msg[2];
        int i = 0;
        for (ember_ctx_t* ctx : {cpu(), ref()}) {
            T L = from_host(ctx, lu, {3, 3}, dt), B = from_host(ctx, b, {3}, dt), X, P;
            std::vector<int64_t> pv = {0, 1, 2, 1, -1, 2};
            int64_t ps[2] = {2, 3};
            EM_OK(ember_tensor_from_data(ctx, pv.data(), EMBER_INT64, ps, 2, P.out()));
            EXPECT_EQ(ember_lu_solve(ctx, L, P, B, X.out()), EMBER_ERR_INDEX);
            msg[i++] = ember_last_error();
        }
        EXPECT_EQ(msg[0], msg[1]);
        EXPECT_NE(msg[0].find("pivot -1 of matrix 1 of the batch is out of range [0, 3)"), std::string::npos) << msg[0];
    }
}

TEST(CpuLinalg, CholeskyMatchesReference) {
    NEED_CPU();
    for (const Case& c : cases(kSquare))
        for (int upper : {0, 1}) {
            auto ms = gen(c, [](int64_t m, int64_t, bool cp) { return spd(m, cp); });
            auto [a, ar] = inputs(c, ms);
            T l, lr;
            EM_OK(ember_cholesky(cpu(), a, upper, l.out()));
            EM_OK(ember_cholesky(ref(), ar, upper, lr.out()));
            ASSERT_EQ(shape_of(l), shape_of(lr));
            double tol = 30 * (double)c.n * eps_of(c.dt);
            auto ls = mats(l);
            for (size_t i = 0; i < ls.size(); ++i) {
                const HM& f = ls[i];
                double scale = std::sqrt(hnorm(ms[i]));
                for (int64_t r = 0; r < c.n; ++r) {
                    EXPECT_EQ(f(r, r).imag(), 0.0) << c.name();
                    EXPECT_GT(f(r, r).real(), 0.0) << c.name();
                    for (int64_t q = 0; q < c.n; ++q)
                        if (upper ? r > q : r < q) {
                            EXPECT_EQ(f(r, q), cd(0)) << c.name();
                        }
                }
                HM prod = upper ? hmul(hadj(f), f) : hmul(f, hadj(f));
                EXPECT_LE(diff(prod, ms[i]), tol * hnorm(ms[i])) << c.name() << " upper " << upper;
                EXPECT_LE(max_diff(f.v, mats(lr)[i].v), tol * scale) << c.name() << " upper " << upper;
            }
        }
}

// Real types factor in the result's own memory (the junk copied there must be zeroed), the
// tiny path (n <= 16) and potrf alike; complex ones through a buffer.
TEST(CpuLinalg, CholeskyReadsOneTriangle) {
    NEED_CPU();
    for (int64_t n : {4, 40}) {
        HM a = spd(n, true);  // its real part is symmetric positive definite too
        for (int upper : {0, 1}) {
            HM junk = a;  // the other triangle holds NaN and garbage; the diagonal an imaginary part
            for (int64_t i = 0; i < n; ++i)
                for (int64_t j = 0; j < n; ++j) {
                    if (upper ? i > j : i < j) junk(i, j) = i + j == 3 ? cd(NAN, 0) : cd(1e9, -7);
                    if (i == j) junk(i, j) += cd(0, 5);
                }
            for (ember_dtype_t dt : {EMBER_FLOAT32, EMBER_FLOAT64, EMBER_COMPLEX64, EMBER_COMPLEX128}) {
                T x = from_host(cpu(), junk.v, {n, n}, dt), l;
                T xr = from_host(ref(), junk.v, {n, n}, dt), lr;
                EM_OK(ember_cholesky(cpu(), x, upper, l.out()));
                EM_OK(ember_cholesky(ref(), xr, upper, lr.out()));
                const auto got = host(l), want = host(lr);
                EXPECT_LE(max_diff(got, want), 100 * eps_of(dt) * (double)n) << n << " upper " << upper << " dtype " << (int)dt;
                for (int64_t i = 0; i < n; ++i)
                    for (int64_t j = 0; j < n; ++j)
                        if (upper ? i > j : i < j) {
                            EXPECT_EQ(got[(size_t)(i * n + j)], cd(0)) << n << " upper " << upper << " dtype " << (int)dt;
                        }
            }
        }
    }
}

// A real lower factor from 192 on goes through a column-major buffer, half the matrix
// copied each way in strips of 64 rows (lapack.cpp, kCholeskyColumnMajorLower), over the
// pool from 512: the strips must read A's lower triangle only, from any view, and leave the
// upper one of L zero.
TEST(CpuLinalg, LargeLowerCholeskyFromEveryLayout) {
    NEED_CPU();
    for (int64_t n : {200, 520})  // 520^2 >= kParallelCheap: strips on the pool
        for (ember_dtype_t dt : {EMBER_FLOAT32, EMBER_FLOAT64})
            for (Layout lay : {CONTIG, TRANSPOSED, STRIDED, FLIPPED}) {
                if (n == 520 && (lay == TRANSPOSED || lay == FLIPPED || (dt == EMBER_FLOAT32 && lay != CONTIG))) continue;  // the reference's factor: seconds under the sanitizers
                HM a = spd(n, false);
                const double scale = std::sqrt(hnorm(a));
                for (int64_t i = 0; i < n; ++i)
                    for (int64_t j = i + 1; j < n; ++j) a(i, j) = (i + j) % 3 ? cd(1e9) : cd(NAN);  // never read
                Case c{{}, n, n, lay, dt};
                auto [x, xr] = inputs(c, {a});
                T l, lr;
                EM_OK(ember_cholesky(cpu(), x, 0, l.out()));
                EM_OK(ember_cholesky(ref(), xr, 0, lr.out()));
                const auto got = host(l), want = host(lr);
                EXPECT_LE(max_diff(got, want), 30 * (double)n * eps_of(dt) * scale) << c.name();
                int64_t nonzero_above = 0;
                for (int64_t i = 0; i < n; ++i)
                    for (int64_t j = i + 1; j < n; ++j) nonzero_above += got[(size_t)(i * n + j)] != cd(0);
                EXPECT_EQ(nonzero_above, 0) << c.name();
            }
}

TEST(CpuLinalg, QrMatchesReference) {
    NEED_CPU();
    for (const Case& c : cases(kRect))
        for (ember_qr_mode_t mode : {EMBER_QR_REDUCED, EMBER_QR_COMPLETE, EMBER_QR_R}) {
            auto ms = gen(c, random);
            auto [a, ar] = inputs(c, ms);
            T q, r, qr_, rr;
            EM_OK(ember_qr(cpu(), a, mode, q.out(), r.out()));
            EM_OK(ember_qr(ref(), ar, mode, qr_.out(), rr.out()));
            std::string w = c.name() + " mode " + std::to_string((int)mode);
            ASSERT_EQ(shape_of(r), shape_of(rr)) << w;
            double tol = 50 * (double)std::max(c.m, c.n) * eps_of(c.dt);
            // Householder QR with larfg's sign convention is the same factorization on both.
            EXPECT_LE(max_diff(host(r), host(rr)), tol * 4) << w;
            auto rs = mats(r);
            for (const HM& R : rs)
                for (int64_t i = 0; i < R.r; ++i) {
                    if (i < R.c) {
                        EXPECT_EQ(R(i, i).imag(), 0.0) << w;
                    }
                    for (int64_t j = 0; j < std::min(i, R.c); ++j) EXPECT_EQ(R(i, j), cd(0)) << w;
                }
            if (mode == EMBER_QR_R) continue;
            ASSERT_EQ(shape_of(q), shape_of(qr_)) << w;
            EXPECT_LE(max_diff(host(q), host(qr_)), tol * 4) << w;
            auto qs = mats(q);
            for (size_t i = 0; i < qs.size(); ++i) {
                EXPECT_LE(orth_err(qs[i]), tol) << w;
                EXPECT_LE(diff(hmul(qs[i], rs[i]), ms[i]), tol * hnorm(ms[i])) << w;
            }
        }
}

TEST(CpuLinalg, SvdMatchesReference) {
    NEED_CPU();
    for (const Case& c : cases(kRect))
        for (int full : {0, 1}) {
            auto ms = gen(c, random);
            auto [a, ar] = inputs(c, ms);
            T u, s, vh, ur, sr, vhr, sv, svr;
            EM_OK(ember_svd(cpu(), a, full, u.out(), s.out(), vh.out()));
            EM_OK(ember_svd(ref(), ar, full, ur.out(), sr.out(), vhr.out()));
            std::string w = c.name() + " full " + std::to_string(full);
            ASSERT_EQ(shape_of(u), shape_of(ur)) << w;
            ASSERT_EQ(shape_of(s), shape_of(sr)) << w;
            ASSERT_EQ(shape_of(vh), shape_of(vhr)) << w;
            EXPECT_EQ(dtype_of(s), dtype_of(sr));
            double tol = 50 * (double)std::max(c.m, c.n) * eps_of(c.dt);
            EXPECT_LE(max_diff(host(s), host(sr)), tol * 4) << w;
            // Values only (gesdd with jobz 'N').
            EM_OK(ember_svdvals(cpu(), a, sv.out()));
            EM_OK(ember_svdvals(ref(), ar, svr.out()));
            EXPECT_LE(max_diff(host(sv), host(svr)), tol * 4) << w;
            auto us = mats(u), vs = mats(vh);
            auto ss = vecs(s);
            for (size_t i = 0; i < us.size(); ++i) {
                for (size_t j = 0; j + 1 < ss[i].size(); ++j) EXPECT_GE(ss[i][j].real(), ss[i][j + 1].real()) << w;
                for (cd x : ss[i]) EXPECT_GE(x.real(), 0.0);
                EXPECT_LE(orth_err(us[i]), tol) << w;
                EXPECT_LE(orth_err(hadj(vs[i])), tol) << w;
                std::vector<cd> d(ss[i].begin(), ss[i].end());
                HM S(us[i].c, vs[i].r);
                for (size_t j = 0; j < d.size(); ++j) S((int64_t)j, (int64_t)j) = d[j];
                EXPECT_LE(diff(hmul(hmul(us[i], S), vs[i]), ms[i]), tol * std::max(1.0, hnorm(ms[i]))) << w;
            }
        }
}

TEST(CpuLinalg, EighMatchesReference) {
    NEED_CPU();
    for (const Case& c : cases(kSquare))
        for (int upper : {0, 1}) {
            auto ms = gen(c, [](int64_t m, int64_t, bool cp) { return hermitian(m, cp); });
            auto [a, ar] = inputs(c, ms);
            T w, v, wr, vr, w2, w2r;
            EM_OK(ember_eigh(cpu(), a, upper, w.out(), v.out()));
            EM_OK(ember_eigh(ref(), ar, upper, wr.out(), vr.out()));
            std::string nm = c.name() + " upper " + std::to_string(upper);
            ASSERT_EQ(shape_of(w), shape_of(wr)) << nm;
            ASSERT_EQ(shape_of(v), shape_of(vr)) << nm;
            double tol = 50 * (double)c.n * eps_of(c.dt);
            EXPECT_LE(max_diff(host(w), host(wr)), tol * 2) << nm;
            EM_OK(ember_eigvalsh(cpu(), a, upper, w2.out()));  // values only (jobz 'N')
            EM_OK(ember_eigvalsh(ref(), ar, upper, w2r.out()));
            EXPECT_LE(max_diff(host(w2), host(w2r)), tol * 2) << nm;
            auto vs = mats(v);
            auto ws = vecs(w);
            for (size_t i = 0; i < vs.size(); ++i) {
                for (size_t j = 0; j + 1 < ws[i].size(); ++j) EXPECT_LE(ws[i][j].real(), ws[i][j + 1].real()) << nm;
                EXPECT_LE(orth_err(vs[i]), tol) << nm;
                HM D(c.n, c.n);
                for (int64_t j = 0; j < c.n; ++j) D(j, j) = ws[i][(size_t)j];
                EXPECT_LE(diff(hmul(ms[i], vs[i]), hmul(vs[i], D)), tol * std::max(1.0, hnorm(ms[i]))) << nm;
            }
        }
}

TEST(CpuLinalg, EighReadsOneTriangle) {
    NEED_CPU();
    HM a = hermitian(5, true);
    for (int upper : {0, 1})
        for (ember_dtype_t dt : kDtypes) {
            HM junk = a;
            for (int64_t i = 0; i < 5; ++i)
                for (int64_t j = 0; j < 5; ++j) {
                    if (upper ? i > j : i < j) junk(i, j) = cd(NAN, NAN);
                    if (i == j && is_cplx(dt)) junk(i, j) += cd(0, 3);  // ignored
                }
            T x = from_host(cpu(), junk.v, {5, 5}, dt), xr = from_host(ref(), junk.v, {5, 5}, dt), w, v, wr;
            EM_OK(ember_eigh(cpu(), x, upper, w.out(), v.out()));
            EM_OK(ember_eigvalsh(ref(), xr, upper, wr.out()));
            EXPECT_LE(max_diff(host(w), host(wr)), 200 * eps_of(dt)) << upper << " " << ember_dtype_name(dt);
            for (cd z : host(v)) EXPECT_TRUE(std::isfinite(z.real()) && std::isfinite(z.imag()));
        }
}

// Eigenvalues as multisets: each of a matched to a distinct nearest of b.
double match_error(std::vector<cd> a, std::vector<cd> b) {
    double worst = 0;
    for (cd x : a) {
        size_t best = 0;
        for (size_t j = 1; j < b.size(); ++j)
            if (std::abs(b[j] - x) < std::abs(b[best] - x)) best = j;
        worst = std::max(worst, std::abs(b[best] - x));
        b.erase(b.begin() + (long)best);
    }
    return worst;
}

TEST(CpuLinalg, EigMatchesReference) {
    NEED_CPU();
    for (const Case& c : cases(kSquare)) {
        auto ms = gen(c, random);
        auto [a, ar] = inputs(c, ms);
        T w, v, wr, vr, w2;
        EM_OK(ember_eig(cpu(), a, w.out(), v.out()));
        EM_OK(ember_eig(ref(), ar, wr.out(), vr.out()));
        ASSERT_EQ(shape_of(w), shape_of(wr)) << c.name();
        ASSERT_EQ(shape_of(v), shape_of(vr)) << c.name();
        EXPECT_EQ(dtype_of(w), dtype_of(wr));
        EXPECT_EQ(dtype_of(v), dtype_of(vr));
        EM_OK(ember_eigvals(cpu(), a, w2.out()));  // values only (jobvr 'N')
        double tol = 200 * (double)c.n * eps_of(c.dt);
        auto ws = vecs(w), wrs = vecs(wr), w2s = vecs(w2);
        auto vs = mats(v);
        for (size_t i = 0; i < vs.size(); ++i) {
            double an = std::max(1.0, hnorm(ms[i]));
            // The order is unspecified (LAPACK's differs from the reference's): compare sets.
            EXPECT_LE(match_error(ws[i], wrs[i]), tol * an) << c.name();
            EXPECT_LE(match_error(w2s[i], ws[i]), tol * an) << c.name();
            cd trace = 0, sum = 0;
            for (int64_t j = 0; j < c.n; ++j) trace += ms[i](j, j), sum += ws[i][(size_t)j];
            EXPECT_LE(std::abs(trace - sum), tol * an) << c.name();
            if (!is_cplx(c.dt)) {  // real input: exact conjugate pairs
                for (cd z : ws[i]) {
                    bool found = false;
                    for (cd y : ws[i]) found = found || y == std::conj(z);
                    EXPECT_TRUE(found) << c.name() << " " << z;
                }
            }
            for (int64_t j = 0; j < c.n; ++j) {
                HM col(c.n, 1);
                int64_t big = 0;
                double nrm = 0;
                for (int64_t r = 0; r < c.n; ++r) {
                    col(r, 0) = vs[i](r, j);
                    nrm += std::norm(col(r, 0));
                    if (std::abs(col(r, 0)) > std::abs(col(big, 0))) big = r;
                }
                EXPECT_NEAR(std::sqrt(nrm), 1.0, tol) << c.name();
                EXPECT_EQ(col(big, 0).imag(), 0.0) << c.name();  // largest component real and positive
                EXPECT_GT(col(big, 0).real(), 0.0) << c.name();
                HM av = hmul(ms[i], col), lv = col;
                for (cd& x : lv.v) x *= ws[i][(size_t)j];
                EXPECT_LE(diff(av, lv), tol * an) << c.name() << " eigenpair " << j;
            }
        }
    }
}

TEST(CpuLinalg, EigOfKnownMatrices) {
    NEED_CPU();
    // A rotation (eigenvalues +-i), a defective Jordan block, a diagonal matrix.
    for (ember_dtype_t dt : kDtypes) {
        T r = from_host(cpu(), {0, -1, 1, 0}, {2, 2}, dt), w, v;
        EM_OK(ember_eig(cpu(), r, w.out(), v.out()));
        auto ws = host(w);
        EXPECT_LE(match_error(ws, {cd(0, 1), cd(0, -1)}), 10 * eps_of(dt));
        T j = from_host(cpu(), {2, 1, 0, 2}, {2, 2}, dt);
        EM_OK(ember_eig(cpu(), j, w.out(), v.out()));
        for (cd z : host(w)) EXPECT_NEAR(std::abs(z - 2.0), 0, 1e3 * eps_of(dt));
        T d = from_host(cpu(), {3, 0, 0, 0, -1, 0, 0, 0, 2}, {3, 3}, dt);
        EM_OK(ember_eig(cpu(), d, w.out(), v.out()));
        EXPECT_LE(match_error(host(w), {3, -1, 2}), 0.0);
        for (cd z : host(v)) EXPECT_TRUE(z == cd(0) || z == cd(1)) << z;  // unit vectors, phase normalised
    }
}

// ---------------------------------------------------------------- singular, not PD, empty

// Runs f on both backends; the status and the message must agree.
void same_outcome(const std::function<ember_status_t(ember_ctx_t*)>& f, ember_status_t want, const std::string& want_msg,
                  const std::string& what) {
    ember_status_t st[2];
    std::string msg[2];
    int i = 0;
    for (ember_ctx_t* ctx : {cpu(), ref()}) {
        st[i] = f(ctx);
        msg[i] = st[i] == EMBER_OK ? "" : ember_last_error();
        ++i;
    }
    EXPECT_EQ(st[0], want) << what << ": " << msg[0];
    EXPECT_EQ(st[0], st[1]) << what;
    EXPECT_EQ(msg[0], msg[1]) << what;
    if (!want_msg.empty()) {
        EXPECT_NE(msg[0].find(want_msg), std::string::npos) << what << ": " << msg[0];
    }
}

TEST(CpuLinalg, SingularMatricesLikeTheReference) {
    NEED_CPU();
    for (ember_dtype_t dt : kDtypes) {
        std::string dn = ember_dtype_name(dt);
        // Exactly singular matrices whose elimination is exact in any precision: the LU,
        // the pivots and info (the first zero pivot) agree exactly.
        std::vector<std::vector<cd>> sing = {
            {0, 0, 0, 0},                             // 2x2 zero: pivot 0
            {0, 1, 0, 2},                             // zero first column: pivot 0, then continues
            {1, 2, 3, 2, 4, 6, 1, 1, 1},              // rows 0 and 1 dependent: pivot 2
            {1, 2, 3, 4, 5, 6, 7, 8, 9},              // rank 2 (not exact in floating point)
            {2, 0, 0, 0, 0, 0, 0, 0, 3},              // zero middle pivot: 1
        };
        for (size_t s = 0; s < sing.size(); ++s) {
            int64_t n = sing[s].size() == 4 ? 2 : 3;
            if (s == 3) continue;  // only identities for the inexact one (below)
            T a = from_host(cpu(), sing[s], {n, n}, dt), ar = from_host(ref(), sing[s], {n, n}, dt), lu, p, lur, pr;
            EM_OK(ember_lu_factor(cpu(), a, lu.out(), p.out()));
            EM_OK(ember_lu_factor(ref(), ar, lur.out(), pr.out()));
            EXPECT_EQ(host(p), host(pr)) << dn << " matrix " << s;
            EXPECT_EQ(host(lu), host(lur)) << dn << " matrix " << s;
            same_outcome([&](ember_ctx_t* ctx) {
                T x = from_host(ctx, sing[s], {n, n}, dt), o;
                return ember_inv(ctx, x, o.out());
            }, EMBER_ERR_LINALG, "is singular (pivot", dn + " inv " + std::to_string(s));
            same_outcome([&](ember_ctx_t* ctx) {
                T x = from_host(ctx, sing[s], {n, n}, dt), o;
                ember_status_t st = ember_det(ctx, x, o.out());
                if (st == EMBER_OK) {
                    EXPECT_EQ(host(o)[0], cd(0)) << dn;
                }
                return st;
            }, EMBER_OK, "", dn + " det");
        }
        // A batch (2, 3) with matrix (1, 0) singular; solve names it on both backends.
        std::vector<HM> ms;
        for (int i = 0; i < 6; ++i) {
            HM a = random(3, 3, is_cplx(dt));
            for (int64_t j = 0; j < 3; ++j) a(j, j) += 3.0;
            ms.push_back(a);
        }
        ms[3] = HM(3, 3);
        for (int64_t j = 0; j < 3; ++j) ms[3](0, j) = (double)j + 1, ms[3](1, j) = 2.0 * ((double)j + 1), ms[3](2, j) = (double)(j * j);
        for (Layout lay : {CONTIG, TRANSPOSED}) {
            same_outcome([&](ember_ctx_t* ctx) {
                T a = build(ctx, ms, {2, 3}, dt, lay), b, x;
                b = from_host(ctx, {1, 2, 3}, {3}, dt);
                return ember_solve(ctx, a, b, x.out());
            }, EMBER_ERR_LINALG, "ember_solve: matrix (1, 0) of the batch is singular (pivot", dn + " batched solve");
        }
        // lu_solve on a factor with a zero on U's diagonal.
        same_outcome([&](ember_ctx_t* ctx) {
            T a = from_host(ctx, sing[2], {3, 3}, dt), lu, p, b = from_host(ctx, {1, 1, 1}, {3}, dt), x;
            ember_status_t st = ember_lu_factor(ctx, a, lu.out(), p.out());
            return st ? st : ember_lu_solve(ctx, lu, p, b, x.out());
        }, EMBER_ERR_LINALG, "the matrix is singular (pivot 2 is zero)", dn + " lu_solve");
        // Rectangular rank-deficient LU: identities only.
        HM r(5, 3);
        for (int64_t i = 0; i < 5; ++i) r(i, 0) = (double)i + 1, r(i, 1) = 0, r(i, 2) = 2.0 * ((double)i + 1);
        T ra = from_host(cpu(), r.v, {5, 3}, dt), lu, p;
        T rar = from_host(ref(), r.v, {5, 3}, dt), lur, pr;
        EM_OK(ember_lu_factor(cpu(), ra, lu.out(), p.out()));
        EM_OK(ember_lu_factor(ref(), rar, lur.out(), pr.out()));
        EXPECT_EQ(host(p), host(pr)) << dn;
        EXPECT_LE(max_diff(host(lu), host(lur)), 10 * eps_of(dt)) << dn;
        // det / slogdet of the inexactly singular matrix: tiny but finite, or 0 on both.
        T a4 = from_host(cpu(), sing[3], {3, 3}, dt), d4;
        EM_OK(ember_det(cpu(), a4, d4.out()));
        EXPECT_LE(std::abs(host(d4)[0]), 1e3 * eps_of(dt)) << dn;
    }
}

// solve and inv have kernels of their own on cpu (backends/cpu/lapack_solve.cpp: getrf of
// A^T, no transposing copies). Against the reference: every layout of A, batch axes of A
// and B broadcast against each other, a vector b, a factorization shared by a broadcast A,
// sizes past LAPACK's blocking; and the exact cases the composite keeps exact.
TEST(CpuLinalg, SolveAndInvKernelsMatchReference) {
    NEED_CPU();
    for (ember_dtype_t dt : kDtypes) {
        const bool cp = is_cplx(dt);
        const std::string dn = ember_dtype_name(dt);
        auto well_conditioned = [&](int64_t n) {  // dominant off the diagonal: pivoting swaps rows
            HM a = random(n, n, cp);
            for (int64_t j = 0; j < n; ++j) a(j, (j + 2) % n) += (double)n;
            return a;
        };
        auto check = [&](const std::string& what, const std::function<ember_status_t(ember_ctx_t*, T&)>& f, double tol) {
            T got, want;
            ASSERT_EQ(f(cpu(), got), EMBER_OK) << dn << " " << what << ": " << ember_last_error();
            ASSERT_EQ(f(ref(), want), EMBER_OK) << dn << " " << what << ": " << ember_last_error();
            ASSERT_EQ(shape_of(got), shape_of(want)) << dn << " " << what;
            EXPECT_LE(max_diff(host(got), host(want)), tol) << dn << " " << what;
        };
        const double tol = 200 * eps_of(dt);
        for (Layout lay : kLayouts) {
            std::vector<HM> as, bs;
            for (int i = 0; i < 6; ++i) as.push_back(lay == BROADCAST && i ? as[0] : well_conditioned(6));
            for (int i = 0; i < 3; ++i) bs.push_back(random(6, 2, cp));
            const std::string ln = layout_name(lay);
            // A (2, 3, 6, 6) against B (3, 6, 2), broadcast over A's first axis (the kernel).
            check("solve, B broadcast, A " + ln, [&](ember_ctx_t* ctx, T& x) {
                return ember_solve(ctx, build(ctx, as, {2, 3}, dt, lay), build(ctx, bs, {3}, dt, CONTIG), x.out());
            }, tol);
            // A (2, 1, 6, 6) against B (1, 3, 6, 2): X (2, 3, 6, 2) (the composite: the
            // kernel takes A as one matrix or as the whole batch).
            check("solve, both broadcast, A " + ln, [&](ember_ctx_t* ctx, T& x) {
                std::vector<HM> two(as.begin(), as.begin() + 2);
                T a0 = build(ctx, two, {2}, dt, lay), b0 = build(ctx, bs, {3}, dt, CONTIG), a, b;
                const int64_t sa[4] = {2, 1, 6, 6}, sb[4] = {1, 3, 6, 2};
                EXPECT_EQ(ember_reshape(ctx, a0, sa, 4, a.out()), EMBER_OK) << ember_last_error();
                EXPECT_EQ(ember_reshape(ctx, b0, sb, 4, b.out()), EMBER_OK) << ember_last_error();
                return ember_solve(ctx, a, b, x.out());
            }, tol);
            check("inv, A " + ln, [&](ember_ctx_t* ctx, T& x) { return ember_inv(ctx, build(ctx, as, {2, 3}, dt, lay), x.out()); }, tol);
        }
        // One A for a batch of right-hand sides (factored once per chunk), and a vector b.
        std::vector<HM> one = {well_conditioned(5)}, many;
        for (int i = 0; i < 8; ++i) many.push_back(random(5, 3, cp));
        check("solve, one A, 8 right-hand sides", [&](ember_ctx_t* ctx, T& x) {
            return ember_solve(ctx, build(ctx, one, {}, dt, CONTIG), build(ctx, many, {8}, dt, FLIPPED), x.out());
        }, tol);
        const HM bv = random(5, 1, cp);
        check("solve, vector b", [&](ember_ctx_t* ctx, T& x) {
            T b = from_host(ctx, bv.v, {5}, dt);
            return ember_solve(ctx, build(ctx, one, {}, dt, TRANSPOSED), b, x.out());
        }, tol);
        // Past LAPACK's block size (getrf's recursion, getri's blocked update).
        std::vector<HM> big = {well_conditioned(150)}, bigb = {random(150, 4, cp)};
        check("solve 150x150", [&](ember_ctx_t* ctx, T& x) {
            return ember_solve(ctx, build(ctx, big, {}, dt, CONTIG), build(ctx, bigb, {}, dt, CONTIG), x.out());
        }, tol);
        check("inv 150x150", [&](ember_ctx_t* ctx, T& x) { return ember_inv(ctx, build(ctx, big, {}, dt, STRIDED), x.out()); }, tol);
        // Exact: solve(D, D) is I (41 and 49 are the smallest c with c * fl(1/c) != 1 in
        // float32 and float64: a solve by reciprocals misses there), inv(3I) is 1/3
        // correctly rounded, a permutation's inverse is its transpose.
        // Sizes 4 (the cpu backend's own loops) and 20 (LAPACK).
        for (int64_t n : {4, 20}) {
            HM dd = heye(n), ci = heye(n), perm(n, n);
            const double diag[4] = {41, 49, 55, 103};
            for (int64_t j = 0; j < n; ++j) dd(j, j) = diag[j % 4], ci(j, j) = 3.0, perm(j, (j + 1) % n) = 1.0;
            const std::string sz = " " + std::to_string(n);
            check("solve(D, D)" + sz, [&](ember_ctx_t* ctx, T& x) {
                T a = from_host(ctx, dd.v, {n, n}, dt);
                return ember_solve(ctx, a, a, x.out());
            }, 0);
            check("inv(3I)" + sz, [&](ember_ctx_t* ctx, T& x) { return ember_inv(ctx, from_host(ctx, ci.v, {n, n}, dt), x.out()); }, 0);
            check("inv(permutation)" + sz, [&](ember_ctx_t* ctx, T& x) { return ember_inv(ctx, from_host(ctx, perm.v, {n, n}, dt), x.out()); }, 0);
            T s, id = from_host(cpu(), heye(n).v, {n, n}, dt);
            EM_OK(ember_solve(cpu(), from_host(cpu(), dd.v, {n, n}, dt), from_host(cpu(), dd.v, {n, n}, dt), s.out()));
            EXPECT_EQ(host(s), host(id)) << dn << sz;
        }
    }
}

// The core runs the composite whenever a kernel leaves a matrix unsolved, which gives the
// right answer too; its debug log line shows which path ran: none for regular matrices
// (the kernel's own result is returned), one for a singular matrix (then the composite's
// error), also for inv, whose fallback solves with the composite only.
TEST(CpuLinalg, SolveAndInvKernelsSolveRegularMatricesThemselves) {
    NEED_CPU();
    std::vector<std::string> log;
    ember_set_log_callback([](ember_log_level_t, const char* m, void* ud) { static_cast<std::vector<std::string>*>(ud)->push_back(m); }, &log,
                           EMBER_LOG_DEBUG);
    auto fallbacks = [&] {
        size_t n = 0;
        for (const std::string& m : log) n += m.find("unsolved; running the composite") != std::string::npos;
        log.clear();
        return n;
    };
    HM a = random(5, 5, false);
    for (int64_t j = 0; j < 5; ++j) a(j, (j + 2) % 5) += 5.0;
    T x, y, z, ta = from_host(cpu(), a.v, {5, 5}, EMBER_FLOAT64), tb = from_host(cpu(), random(5, 2, false).v, {5, 2}, EMBER_FLOAT64);
    EM_OK(ember_solve(cpu(), ta, tb, x.out()));
    EM_OK(ember_inv(cpu(), ta, y.out()));
    EXPECT_EQ(fallbacks(), 0u);
    T sing = from_host(cpu(), {1, 2, 2, 4}, {2, 2}, EMBER_FLOAT64), b2 = from_host(cpu(), {1, 1}, {2}, EMBER_FLOAT64);
    EXPECT_EQ(ember_solve(cpu(), sing, b2, z.out()), EMBER_ERR_LINALG);
    EXPECT_EQ(fallbacks(), 1u);
    EXPECT_EQ(ember_inv(cpu(), sing, z.out()), EMBER_ERR_LINALG);
    EXPECT_EQ(fallbacks(), 1u);  // inv's kernel failed: the solve kernel is not tried after it
    ember_set_log_callback(nullptr, nullptr, EMBER_LOG_WARN);
}

// det and slogdet have kernels of their own on cpu (lapack_solve.cpp: each matrix factored
// and reduced in one pass, getrf of A^T). Against the reference's composite: every layout,
// both sides of the 16 x 16 line, matrices whose pivoting swaps rows (the sign), exact
// zero pivots (0, and sign 0 with -inf), exact permutations, overflow of det but not of
// slogdet, empty batches, and batches that take the pool.
TEST(CpuLinalg, DetAndSlogdetKernelsMatchReference) {
    NEED_CPU();
    const char* binding = nullptr;
    EM_OK(ember_op_binding("cpu", "det", &binding));
    ASSERT_STREQ(binding, "native");
    auto swapping = [](int64_t n, bool cp) {  // dominant off the diagonal (pivoting swaps rows), |det| near 1
        HM a = random(n, n, cp);
        for (cd& v : a.v) v *= 0.5 / (double)n;
        for (int64_t j = 0; j < n; ++j) a(j, (j + 1) % n) += 1.0;  // a permutation for every n
        return a;
    };
    // det relative to |det|, slogdet's sign and log absolutely (log|det| is O(n)).
    auto compare = [](const T& a, const T& ar, const std::string& what, ember_dtype_t dt, int64_t n) {
        const double tol = 40 * (double)(n + 1) * eps_of(dt);
        T d, dr, s, sr, l, lr;
        ASSERT_EQ(ember_det(cpu(), a, d.out()), EMBER_OK) << what << ": " << ember_last_error();
        EM_OK(ember_det(ref(), ar, dr.out()));
        ASSERT_EQ(shape_of(d), shape_of(dr)) << what;
        EXPECT_EQ(dtype_of(d), dtype_of(dr)) << what;
        std::vector<cd> got = host(d), want = host(dr);
        for (size_t i = 0; i < want.size(); ++i)
            EXPECT_LE(std::abs(got[i] - want[i]), tol * std::abs(want[i])) << what << " det " << i << ": " << got[i] << " vs " << want[i];
        ASSERT_EQ(ember_slogdet(cpu(), a, s.out(), l.out()), EMBER_OK) << what << ": " << ember_last_error();
        EM_OK(ember_slogdet(ref(), ar, sr.out(), lr.out()));
        ASSERT_EQ(shape_of(s), shape_of(sr)) << what;
        EXPECT_EQ(dtype_of(l), dtype_of(lr)) << what;
        EXPECT_LE(max_diff(host(s), host(sr)), tol) << what << " slogdet sign";
        EXPECT_LE(max_diff(host(l), host(lr)), tol) << what << " slogdet log";
    };
    for (const Case& c : cases({{1, 1}, {2, 2}, {5, 5}, {16, 16}, {17, 17}, {40, 40}})) {
        auto ms = gen(c, [&](int64_t m, int64_t, bool cp) { return swapping(m, cp); });
        auto [a, ar] = inputs(c, ms);
        compare(a, ar, c.name(), c.dt, c.n);
    }
    for (ember_dtype_t dt : kDtypes) {
        const std::string dn = ember_dtype_name(dt);
        for (int64_t n : {3, 20}) {
            // A zero row: an exact zero pivot, det 0, sign 0 and log -inf, with and without a
            // regular matrix beside it in the batch.
            HM z = swapping(n, is_cplx(dt)), r = swapping(n, is_cplx(dt));
            for (int64_t j = 0; j < n; ++j) z(1, j) = 0;
            T a = build(cpu(), {r, z}, {2}, dt, CONTIG), d, s, l;
            EM_OK(ember_det(cpu(), a, d.out()));
            EM_OK(ember_slogdet(cpu(), a, s.out(), l.out()));
            EXPECT_NE(host(d)[0], cd(0)) << dn << " " << n;
            EXPECT_EQ(host(d)[1], cd(0)) << dn << " " << n;
            EXPECT_EQ(host(s)[1], cd(0)) << dn << " " << n;
            EXPECT_EQ(host(l)[1], cd(-INFINITY)) << dn << " " << n;
            T ar = build(ref(), {r, z}, {2}, dt, CONTIG);
            compare(a, ar, dn + " zero row " + std::to_string(n), dt, n);
            // A permutation: det is its sign, exactly.
            HM p(n, n);
            for (int64_t i = 0; i < n; ++i) p(i, (i * 7 + 2) % n) = 1;
            T pa = build(cpu(), {p}, {}, dt, TRANSPOSED), pd, pdr, ps, pl;
            T pr = build(ref(), {p}, {}, dt, TRANSPOSED);
            EM_OK(ember_det(cpu(), pa, pd.out()));
            EM_OK(ember_det(ref(), pr, pdr.out()));
            EXPECT_EQ(host(pd), host(pdr)) << dn << " permutation " << n;
            EXPECT_EQ(std::abs(host(pd)[0]), 1.0) << dn << " permutation " << n;
            EM_OK(ember_slogdet(cpu(), pa, ps.out(), pl.out()));
            EXPECT_EQ(host(ps), host(pd)) << dn << " permutation " << n;
            EXPECT_EQ(host(pl)[0], cd(0)) << dn << " permutation " << n;
        }
        // 100 I of 200 x 200: det overflows, slogdet gives 1 and 200 log(100).
        HM big(200, 200);
        for (int64_t i = 0; i < 200; ++i) big(i, i) = 100;
        T b = build(cpu(), {big}, {}, dt, CONTIG), d, s, l;
        EM_OK(ember_det(cpu(), b, d.out()));
        EM_OK(ember_slogdet(cpu(), b, s.out(), l.out()));
        if (!is_cplx(dt)) {  // complex: inf times 100 + 0i has a NaN part
            EXPECT_EQ(host(d)[0], cd(INFINITY)) << dn;
        }
        EXPECT_EQ(host(s)[0], cd(1)) << dn;
        EXPECT_NEAR(host(l)[0].real(), 200 * std::log(100.0), 1e-4 * 200 * std::log(100.0)) << dn;
        // Partial products beyond float32's range, a representable det: float32 accumulates
        // in float64 (as the reference's prod does).
        for (int64_t n : {4, 20}) {
            HM g = heye(n);
            g(0, 0) = 1e30, g(1, 1) = 1e30, g(2, 2) = 1e-30, g(3, 3) = -1e-30;
            T ga = build(cpu(), {g}, {}, dt, CONTIG), gd, gs, gl;
            EM_OK(ember_det(cpu(), ga, gd.out()));
            EM_OK(ember_slogdet(cpu(), ga, gs.out(), gl.out()));
            EXPECT_NEAR(host(gd)[0].real(), -1.0, 1e-5) << dn << " " << n;
            EXPECT_EQ(host(gs)[0], cd(-1)) << dn << " " << n;
            EXPECT_NEAR(host(gl)[0].real(), 0.0, 1e-5) << dn << " " << n;
            compare(ga, build(ref(), {g}, {}, dt, CONTIG), dn + " wide range " + std::to_string(n), dt, n);
        }
        // Empty batches and 0 x 0 matrices never reach the kernel: shapes and values as the composite's.
        for (std::vector<int64_t> shape : {std::vector<int64_t>{0, 4, 4}, std::vector<int64_t>{2, 0, 0}}) {
            T e = from_host(cpu(), {}, shape, dt), ed, es, el;
            EM_OK(ember_det(cpu(), e, ed.out()));
            EM_OK(ember_slogdet(cpu(), e, es.out(), el.out()));
            EXPECT_EQ(shape_of(ed), std::vector<int64_t>{shape[0]}) << dn;
            EXPECT_EQ(shape_of(el), std::vector<int64_t>{shape[0]}) << dn;
            for (const cd& v : host(ed)) EXPECT_EQ(v, cd(1)) << dn;
            for (const cd& v : host(el)) EXPECT_EQ(v, cd(0)) << dn;
        }
    }
    // Batches that take the pool: 2048 4 x 4 (own loops) and 64 24 x 24 (getrf).
    for (auto [count, n] : std::vector<std::pair<int64_t, int64_t>>{{2048, 4}, {64, 24}}) {
        Case c{{count}, n, n, FLIPPED, EMBER_FLOAT64};
        auto ms = gen(c, [&](int64_t m, int64_t, bool cp) { return swapping(m, cp); });
        auto [a, ar] = inputs(c, ms);
        compare(a, ar, c.name(), c.dt, n);
    }
}

// lstsq has a kernel of its own on cpu (gelsd, backends/cpu/lapack_solve.cpp) where A
// holds the whole batch. Against the reference's composite (one-sided Jacobi SVD): tall,
// wide and square A in every layout but broadcast, B broadcast over A's batch, a vector b,
// rank-deficient A (the minimum-norm solution), cutoffs that drop known singular values;
// X, residuals, rank (exactly) and the singular values. One A for B's batch runs the
// kernel once on B's batch folded into columns; A broadcast over part of B's batch runs
// the composite on both.
TEST(CpuLinalg, LstsqKernelMatchesReference) {
    NEED_CPU();
    std::vector<std::string> log;
    ember_set_log_callback([](ember_log_level_t, const char* m, void* ud) { static_cast<std::vector<std::string>*>(ud)->push_back(m); }, &log,
                           EMBER_LOG_DEBUG);
    for (ember_dtype_t dt : kDtypes) {
        const bool cp = is_cplx(dt);
        const std::string dn = ember_dtype_name(dt);
        const double tol = 500 * eps_of(dt);
        auto check = [&](const std::string& what, T a_cpu, T b_cpu, T a_ref, T b_ref, double rcond) {
            T x[2], res[2], rank[2], sv[2];
            ASSERT_EQ(ember_lstsq(cpu(), a_cpu, b_cpu, rcond, x[0].out(), res[0].out(), rank[0].out(), sv[0].out()), EMBER_OK)
                << dn << " " << what << ": " << ember_last_error();
            ASSERT_EQ(ember_lstsq(ref(), a_ref, b_ref, rcond, x[1].out(), res[1].out(), rank[1].out(), sv[1].out()), EMBER_OK)
                << dn << " " << what << ": " << ember_last_error();
            EXPECT_EQ(host(rank[0]), host(rank[1])) << dn << " " << what;
            const char* names[3] = {"x", "residuals", "singular values"};
            T* outs[3] = {x, res, sv};
            for (int o = 0; o < 3; ++o) {
                ASSERT_EQ(shape_of(outs[o][0]), shape_of(outs[o][1])) << dn << " " << what << " " << names[o];
                double scale = 1;
                for (const cd& v : host(outs[o][1])) scale = std::max(scale, std::abs(v));
                EXPECT_LE(max_diff(host(outs[o][0]), host(outs[o][1])), tol * scale) << dn << " " << what << " " << names[o];
            }
        };
        auto both = [&](const std::string& what, const std::vector<HM>& as, std::vector<int64_t> ab, Layout lay, const std::vector<HM>& bs,
                         std::vector<int64_t> bb, double rcond = -1) {
            check(what + ", A " + layout_name(lay), build(cpu(), as, ab, dt, lay), build(cpu(), bs, bb, dt, CONTIG), build(ref(), as, ab, dt, lay),
                  build(ref(), bs, bb, dt, CONTIG), rcond);
        };
        // Well conditioned (a dominant diagonal): the bounds need no condition number.
        auto conditioned = [&](int64_t r, int64_t c) {
            HM a = random(r, c, cp);
            for (int64_t j = 0; j < std::min(r, c); ++j) a(j, j) += (double)std::max(r, c);
            return a;
        };
        auto randoms = [&](int count, int64_t r, int64_t c) {
            std::vector<HM> v;
            for (int i = 0; i < count; ++i) v.push_back(random(r, c, cp));
            return v;
        };
        auto matrices = [&](int count, int64_t r, int64_t c) {
            std::vector<HM> v;
            for (int i = 0; i < count; ++i) v.push_back(conditioned(r, c));
            return v;
        };
        for (Layout lay : {CONTIG, TRANSPOSED, STRIDED, FLIPPED}) {
            both("tall 9x4, B broadcast", matrices(6, 9, 4), {2, 3}, lay, randoms(3, 9, 2), {3});
            both("wide 4x9", matrices(3, 4, 9), {3}, lay, randoms(3, 4, 2), {3});
            both("square 8x8", matrices(2, 8, 8), {2}, lay, randoms(2, 8, 2), {2});
        }
        // Rank 3 of 7 x 5 (residuals empty: not every matrix has full rank), with one
        // right-hand side (the kernel) and with 40 (the composite: many right-hand sides).
        std::vector<HM> low;
        for (int i = 0; i < 2; ++i) low.push_back(hmul(conditioned(7, 3), conditioned(3, 5)));
        both("rank-deficient 7x5", low, {2}, CONTIG, randoms(2, 7, 1), {2});
        both("rank-deficient 7x5, 40 right-hand sides", low, {2}, CONTIG, randoms(2, 7, 40), {2});
        // Singular values 4, 2, 1, 0.5 (U, V permutations): rcond 0.3 keeps two, 0.6 one,
        // 0 all four.
        HM d(6, 4);
        const double sd[4] = {1, 4, 0.5, 2};
        for (int64_t j = 0; j < 4; ++j) d((j + 3) % 6, j) = sd[j];
        for (double rc : {0.3, 0.6, 0.0}) both("cutoff " + std::to_string(rc), {d}, {}, CONTIG, randoms(1, 6, 1), {}, rc);
        // gelsd reads a cutoff of 0 or >= 1 as eps: those run the composite. rcond 0 keeps
        // a singular value of 1e-20 (rank 2), 1 and 2 keep none (rank 0, X = 0).
        HM tiny(3, 2);
        tiny(0, 0) = 1;
        tiny(1, 1) = 1e-20;
        const HM tb = random(3, 1, cp);
        for (auto [rc, want] : std::vector<std::pair<double, int>>{{0.0, 2}, {1.0, 0}, {2.0, 0}}) {
            T x, rk;
            EM_OK(ember_lstsq(cpu(), from_host(cpu(), tiny.v, {3, 2}, dt), from_host(cpu(), tb.v, {3, 1}, dt), rc, x.out(), nullptr, rk.out(), nullptr));
            EXPECT_EQ(host(rk)[0], cd(want)) << dn << " rcond " << rc;
            if (want == 0) {
                EXPECT_EQ(host(x), std::vector<cd>(2, cd(0))) << dn << " rcond " << rc;
            }
        }
        // Past gelsd's small-matrix path (min(m, n) > 25: divide and conquer, with its
        // integer and real workspaces), tall and wide.
        both("tall 60x40", matrices(1, 60, 40), {}, CONTIG, randoms(1, 60, 3), {});
        both("wide 40x60", matrices(1, 40, 60), {}, TRANSPOSED, randoms(1, 40, 3), {});
        T x1, rk1;
        EM_OK(ember_lstsq(cpu(), from_host(cpu(), d.v, {6, 4}, dt), from_host(cpu(), random(6, 1, cp).v, {6}, dt), 0.3, x1.out(), nullptr,
                          rk1.out(), nullptr));
        EXPECT_EQ(host(rk1)[0], cd(2)) << dn;
        EXPECT_EQ(shape_of(x1), (std::vector<int64_t>{4})) << dn << " vector b";
        // A (2, 1, 5, 3) against B (4, 5, 2): the composite on both.
        const std::vector<HM> as = matrices(2, 5, 3), bs = randoms(4, 5, 2);
        check("A broadcast over B's batch", build(cpu(), as, {2, 1}, dt, CONTIG), build(cpu(), bs, {4}, dt, CONTIG), build(ref(), as, {2, 1}, dt, CONTIG),
              build(ref(), bs, {4}, dt, CONTIG), -1);
        // One A (no batch axes, or all of size 1) for B's batch: B's batch moves into its
        // columns (12 of them) and the kernel factors A once.
        const std::vector<HM> a1 = matrices(1, 50, 24), b6 = randoms(6, 50, 2);
        for (Layout lay : {CONTIG, FLIPPED}) {
            check(std::string("one A for a (2, 3) batch of B ") + layout_name(lay), build(cpu(), a1, {}, dt, CONTIG), build(cpu(), b6, {2, 3}, dt, lay),
                  build(ref(), a1, {}, dt, CONTIG), build(ref(), b6, {2, 3}, dt, lay), -1);
            check(std::string("A (1, 1) for B (2, 3), A ") + layout_name(lay), build(cpu(), a1, {1, 1}, dt, lay), build(cpu(), b6, {2, 3}, dt, CONTIG),
                  build(ref(), a1, {1, 1}, dt, lay), build(ref(), b6, {2, 3}, dt, CONTIG), 0.5);
        }
        const std::vector<HM> wide = matrices(1, 12, 30), b3 = randoms(3, 12, 1);
        check("one wide A for B (3, 4, 1)", build(cpu(), wide, {}, dt, TRANSPOSED), build(cpu(), b3, {3}, dt, CONTIG),
              build(ref(), wide, {}, dt, TRANSPOSED), build(ref(), b3, {3}, dt, CONTIG), -1);
        // One B of the batch with an infinity: the whole call runs the composite (logged),
        // so the other matrices' X are the composite's too.
        std::vector<HM> bad = randoms(3, 12, 1);
        const std::vector<HM> three = matrices(3, 12, 6);  // A with the whole batch: the kernel's case
        bad[1](2, 0) = cd(INFINITY);
        T xs[2];
        for (int i = 0; i < 2; ++i) {
            ember_ctx_t* ctx = i ? ref() : cpu();
            EM_OK(ember_lstsq(ctx, build(ctx, three, {3}, dt, CONTIG), build(ctx, bad, {3}, dt, CONTIG), -1, xs[i].out(), nullptr, nullptr, nullptr));
        }
        auto hx = host(xs[0]), hr = host(xs[1]);
        for (size_t j = 0; j < hx.size(); ++j)
            if (std::isfinite(hr[j].real())) {
                EXPECT_LE(std::abs(hx[j] - hr[j]), tol * 10) << dn << " element " << j;
            }
        // The same B with one A: the kernel sees one (12, 3) B with the infinity, leaves its
        // only matrix unsolved (logged as matrix 0), and the composite runs.
        for (int i = 0; i < 2; ++i) {
            ember_ctx_t* ctx = i ? ref() : cpu();
            EM_OK(ember_lstsq(ctx, build(ctx, {three[0]}, {}, dt, CONTIG), build(ctx, bad, {3}, dt, CONTIG), -1, xs[i].out(), nullptr, nullptr,
                              nullptr));
            if (i == 0) hx = host(xs[0]);
        }
        hr = host(xs[1]);
        for (size_t j = 0; j < hx.size(); ++j)
            if (std::isfinite(hr[j].real())) {
                EXPECT_LE(std::abs(hx[j] - hr[j]), tol * 10) << dn << " one A, element " << j;
            }
        // Four right-hand sides per matrix of A (12 x 6) are many: the composite, with no
        // kernel call to leave matrix 1 unsolved (the log counts below).
        std::vector<HM> bad4 = randoms(3, 12, 4);
        bad4[1](2, 3) = cd(INFINITY);
        T many;
        EM_OK(ember_lstsq(cpu(), build(cpu(), three, {3}, dt, CONTIG), build(cpu(), bad4, {3}, dt, CONTIG), -1, many.out(), nullptr, nullptr, nullptr));
    }
    ember_set_log_callback(nullptr, nullptr, EMBER_LOG_WARN);
    size_t fallbacks[2] = {0, 0};
    for (const std::string& m : log)
        for (int i = 0; i < 2; ++i) fallbacks[i] += m.find("ember_lstsq: the backend's kernel left matrix " + std::to_string(i) + " ") != std::string::npos;
    EXPECT_EQ(fallbacks[1], 4u) << "one per dtype: the infinity in B (rcond outside (0, 1) and many right-hand sides never call the kernel)";
    EXPECT_EQ(fallbacks[0], 4u) << "one per dtype: the infinity in the folded B of one A";
}

TEST(CpuLinalg, NotPositiveDefiniteLikeTheReference) {
    NEED_CPU();
    for (ember_dtype_t dt : kDtypes) {
        std::string dn = ember_dtype_name(dt);
        for (int upper : {0, 1}) {
            // Batch of 4: matrix 3 has a negative third pivot.
            std::vector<HM> ms(4, heye(4));
            ms[3](2, 2) = -1;
            same_outcome([&](ember_ctx_t* ctx) {
                T a = build(ctx, ms, {4}, dt, TRANSPOSED), l;
                return ember_cholesky(ctx, a, upper, l.out());
            }, EMBER_ERR_LINALG, "matrix 3 of the batch is not positive definite (pivot 2)", dn + " negative pivot");
            // Indefinite 2x2 with a positive diagonal in a (2, 3) batch: pivot 1 of (1, 1).
            std::vector<HM> ind(6, heye(2));
            ind[4](0, 1) = ind[4](1, 0) = 2;
            same_outcome([&](ember_ctx_t* ctx) {
                T a = build(ctx, ind, {2, 3}, dt, CONTIG), l;
                return ember_cholesky(ctx, a, upper, l.out());
            }, EMBER_ERR_LINALG, "matrix (1, 1) of the batch is not positive definite (pivot 1)", dn + " indefinite");
            // Zero matrix (pivot 0), NaN on the diagonal (pivot 1), singular PSD (pivot 1),
            // a 1x1 negative (pivot 0).
            std::vector<std::pair<std::vector<cd>, std::string>> bad = {
                {{0, 0, 0, 0}, "(pivot 0)"},
                {{1, 0, 0, NAN}, "(pivot 1)"},
                {{1, 1, 1, 1}, "(pivot 1)"},
                {{-2}, "(pivot 0)"},
            };
            for (auto& [vals, want] : bad) {
                int64_t n = vals.size() == 1 ? 1 : 2;
                same_outcome([&](ember_ctx_t* ctx) {
                    T a = from_host(ctx, vals, {n, n}, dt), l;
                    return ember_cholesky(ctx, a, upper, l.out());
                }, EMBER_ERR_LINALG, "the matrix is not positive definite " + want, dn + " " + want);
            }
        }
    }
}

TEST(CpuLinalg, NonFiniteInputToIterativeFactorizations) {
    NEED_CPU();
    for (ember_dtype_t dt : kDtypes) {
        std::vector<cd> v = {1, NAN, 0, 1};
        same_outcome([&](ember_ctx_t* ctx) {
            T a = from_host(ctx, v, {2, 2}, dt), u, s, vh;
            return ember_svd(ctx, a, 0, u.out(), s.out(), vh.out());
        }, EMBER_ERR_LINALG, "ember_svd: the matrix contains NaN or infinity", "svd");
        same_outcome([&](ember_ctx_t* ctx) {
            T a = from_host(ctx, v, {2, 2}, dt), w;
            return ember_eig(ctx, a, w.out(), nullptr);
        }, EMBER_ERR_LINALG, "contains NaN or infinity", "eig");
        same_outcome([&](ember_ctx_t* ctx) {
            T a = from_host(ctx, v, {2, 2}, dt), w;
            return ember_eigh(ctx, a, 1, w.out(), nullptr);
        }, EMBER_ERR_LINALG, "contains NaN or infinity", "eigh upper");
        same_outcome([&](ember_ctx_t* ctx) {
            T a = from_host(ctx, v, {2, 2}, dt), w;
            ember_status_t st = ember_eigh(ctx, a, 0, w.out(), nullptr);
            if (st == EMBER_OK) {
                EXPECT_EQ(host(w), (std::vector<cd>{1, 1}));
            }
            return st;
        }, EMBER_OK, "", "eigh lower");
        // lstsq's kernel (gelsd) leaves non-finite input to the composite: A's NaN is an
        // error, B's gives NaN in X's column (and nothing on stderr from LAPACK's checks).
        const std::vector<cd> tall = {1, 2, 3, 4, 5, 7}, b = {1, 2, 3, 4, 5, 6};
        std::vector<cd> tall_nan = tall, b_inf = b;
        tall_nan[3] = NAN;
        b_inf[2] = INFINITY;
        same_outcome([&](ember_ctx_t* ctx) {
            T a = from_host(ctx, tall_nan, {3, 2}, dt), bb = from_host(ctx, b, {3, 2}, dt), x;
            return ember_lstsq(ctx, a, bb, -1, x.out(), nullptr, nullptr, nullptr);
        }, EMBER_ERR_LINALG, "ember_lstsq: the matrix contains NaN or infinity", "lstsq, NaN in A");
        T x[2];
        for (int i = 0; i < 2; ++i) {
            ember_ctx_t* ctx = i ? ref() : cpu();
            EM_OK(ember_lstsq(ctx, from_host(ctx, tall, {3, 2}, dt), from_host(ctx, b_inf, {3, 2}, dt), -1, x[i].out(), nullptr, nullptr, nullptr));
            std::vector<cd> h = host(x[i]);
            EXPECT_TRUE(std::isfinite(h[1].real()) && std::isfinite(h[3].real())) << dt << " column without the infinity";
            EXPECT_FALSE(std::isfinite(h[0].real()) && std::isfinite(h[2].real())) << dt << " column with it";
        }
    }
}

TEST(CpuLinalg, EmptyAndOneByOne) {
    NEED_CPU();
    // Shapes the core handles itself (never reaching a kernel) and 1x1 ones that do.
    const std::vector<std::vector<int64_t>> shapes = {{0, 0}, {3, 0, 0}, {0, 3, 3}, {0, 3}, {3, 0}, {2, 0, 4}, {1, 1}, {4, 1, 1}};
    for (ember_dtype_t dt : kDtypes)
        for (const auto& shp : shapes) {
            int64_t size = 1;
            for (int64_t d : shp) size *= d;
            std::vector<cd> vals((size_t)size);
            for (size_t i = 0; i < vals.size(); ++i) vals[i] = cd(2.0 + (double)i, is_cplx(dt) ? 0.5 : 0);
            bool square = shp[shp.size() - 1] == shp[shp.size() - 2];
            std::string w = std::string(ember_dtype_name(dt)) + " shape " + std::to_string(shp.size()) + "d " +
                            std::to_string(shp[shp.size() - 2]) + "x" + std::to_string(shp.back());
            // Every output's shape and values must match the reference's.
            // values: bit i set = compare output i elementwise (else its shape only).
            auto compare = [&](const char* op, const std::function<ember_status_t(ember_ctx_t*, std::vector<T>&)>& f, unsigned values = ~0u) {
                std::vector<T> o1, o2;
                ember_status_t s1 = f(cpu(), o1), s2 = f(ref(), o2);
                ASSERT_EQ(s1, s2) << w << " " << op << " " << ember_last_error();
                ASSERT_EQ(o1.size(), o2.size());
                for (size_t i = 0; i < o1.size(); ++i) {
                    EXPECT_EQ(shape_of(o1[i]), shape_of(o2[i])) << w << " " << op << " output " << i;
                    if (values >> i & 1) {
                        EXPECT_LE(max_diff(host(o1[i]), host(o2[i])), 10 * eps_of(dt)) << w << " " << op << " output " << i;
                    }
                }
            };
            auto in = [&](ember_ctx_t* ctx) { return from_host(ctx, vals, shp, dt); };
            compare("lu_factor", [&](ember_ctx_t* ctx, std::vector<T>& o) {
                T a = in(ctx);
                o.resize(2);
                return ember_lu_factor(ctx, a, o[0].out(), o[1].out());
            });
            for (int mode = 0; mode < 3; ++mode)
                compare("qr", [&](ember_ctx_t* ctx, std::vector<T>& o) {
                    T a = in(ctx);
                    o.resize(2);
                    ember_status_t st = ember_qr(ctx, a, (ember_qr_mode_t)mode, o[0].out(), o[1].out());
                    if (mode == 2) o.erase(o.begin());
                    return st;
                });
            for (int full : {0, 1})
                compare("svd", [&](ember_ctx_t* ctx, std::vector<T>& o) {
                    T a = in(ctx);
                    o.resize(3);
                    return ember_svd(ctx, a, full, o[0].out(), o[1].out(), o[2].out());
                }, 2u);  // U and Vh of a complex 1x1 are unit phases that may differ (their product may not)
            if (!square) continue;
            for (int upper : {0, 1}) {
                compare("cholesky", [&](ember_ctx_t* ctx, std::vector<T>& o) {
                    T a = in(ctx);
                    o.resize(1);
                    return ember_cholesky(ctx, a, upper, o[0].out());
                });
                compare("eigh", [&](ember_ctx_t* ctx, std::vector<T>& o) {
                    T a = in(ctx);
                    o.resize(2);
                    return ember_eigh(ctx, a, upper, o[0].out(), o[1].out());
                });
            }
            compare("eig", [&](ember_ctx_t* ctx, std::vector<T>& o) {
                T a = in(ctx);
                o.resize(2);
                return ember_eig(ctx, a, o[0].out(), o[1].out());
            });
            compare("solve", [&](ember_ctx_t* ctx, std::vector<T>& o) {
                T a = in(ctx);
                o.resize(1);
                return ember_solve(ctx, a, a, o[0].out());
            });
            compare("lu_solve", [&](ember_ctx_t* ctx, std::vector<T>& o) {
                T a = in(ctx), lu, p;
                o.resize(1);
                ember_status_t st = ember_lu_factor(ctx, a, lu.out(), p.out());
                return st ? st : ember_lu_solve(ctx, lu, p, a, o[0].out());
            });
        }
}

// ---------------------------------------------------------------- composites on cpu

TEST(CpuLinalg, CompositesMatchReference) {
    NEED_CPU();
    for (ember_dtype_t dt : kDtypes) {
        bool cp = is_cplx(dt);
        std::string dn = ember_dtype_name(dt);
        double tol = 2000 * eps_of(dt);
        std::vector<HM> sq, rect, herm;
        for (int i = 0; i < 3; ++i) {
            HM a = random(6, 6, cp);
            for (int64_t j = 0; j < 6; ++j) a(j, j) += 2.0;
            sq.push_back(a);
            rect.push_back(random(7, 4, cp));
            herm.push_back(hermitian(6, cp));
        }
        std::vector<HM> rhs = {random(6, 2, cp), random(6, 2, cp), random(6, 2, cp)};
        std::vector<HM> rrhs = {random(7, 2, cp), random(7, 2, cp), random(7, 2, cp)};
        using Fn = std::function<ember_status_t(ember_ctx_t*, std::vector<T>&)>;
        auto both = [&](const char* what, const Fn& f, double t) {
            std::vector<T> o1, o2;
            ASSERT_EQ(f(cpu(), o1), EMBER_OK) << dn << " " << what << ": " << ember_last_error();
            ASSERT_EQ(f(ref(), o2), EMBER_OK) << dn << " " << what << ": " << ember_last_error();
            for (size_t i = 0; i < o1.size(); ++i) {
                ASSERT_EQ(shape_of(o1[i]), shape_of(o2[i])) << dn << " " << what;
                // Relative to the result's largest element (matrix_power -2 of a matrix
                // with a small pivot has elements in the hundreds).
                double scale = 1;
                for (const cd& v : host(o2[i])) scale = std::max(scale, std::abs(v));
                EXPECT_LE(max_diff(host(o1[i]), host(o2[i])), t * scale) << dn << " " << what << " output " << i << " (largest element " << scale << ")";
            }
        };
        auto A = [&](ember_ctx_t* ctx) { return build(ctx, sq, {3}, dt, TRANSPOSED); };
        both("solve", [&](ember_ctx_t* ctx, std::vector<T>& o) {
            o.resize(1);
            T a = A(ctx), b = build(ctx, rhs, {3}, dt, CONTIG);
            return ember_solve(ctx, a, b, o[0].out());
        }, tol);
        both("inv", [&](ember_ctx_t* ctx, std::vector<T>& o) {
            o.resize(1);
            T a = A(ctx);
            return ember_inv(ctx, a, o[0].out());
        }, tol);
        both("det", [&](ember_ctx_t* ctx, std::vector<T>& o) {
            o.resize(1);
            T a = A(ctx);
            return ember_det(ctx, a, o[0].out());
        }, tol * 100);
        both("slogdet", [&](ember_ctx_t* ctx, std::vector<T>& o) {
            o.resize(2);
            T a = A(ctx);
            return ember_slogdet(ctx, a, o[0].out(), o[1].out());
        }, tol);
        both("matrix_power -2", [&](ember_ctx_t* ctx, std::vector<T>& o) {
            o.resize(1);
            T a = A(ctx);
            return ember_matrix_power(ctx, a, -2, o[0].out());
        }, tol);
        both("expm", [&](ember_ctx_t* ctx, std::vector<T>& o) {
            o.resize(1);
            T b = build(ctx, herm, {3}, dt, FLIPPED);
            return ember_expm(ctx, b, o[0].out());
        }, tol * 50);
        both("lstsq", [&](ember_ctx_t* ctx, std::vector<T>& o) {
            o.resize(4);
            T a = build(ctx, rect, {3}, dt, STRIDED), b = build(ctx, rrhs, {3}, dt, CONTIG);
            return ember_lstsq(ctx, a, b, -1, o[0].out(), o[1].out(), o[2].out(), o[3].out());
        }, tol);
        both("pinv", [&](ember_ctx_t* ctx, std::vector<T>& o) {
            o.resize(1);
            T a = build(ctx, rect, {3}, dt, TRANSPOSED);
            return ember_pinv(ctx, a, 0, -1, o[0].out());
        }, tol);
        both("matrix_rank", [&](ember_ctx_t* ctx, std::vector<T>& o) {
            o.resize(1);
            T a = build(ctx, rect, {3}, dt, CONTIG);
            return ember_matrix_rank(ctx, a, 0, -1, o[0].out());
        }, 0);
        both("svdvals", [&](ember_ctx_t* ctx, std::vector<T>& o) {
            o.resize(1);
            T a = build(ctx, rect, {3}, dt, FLIPPED);
            return ember_svdvals(ctx, a, o[0].out());
        }, tol);
        both("matrix_norm 2, nuc, -2", [&](ember_ctx_t* ctx, std::vector<T>& o) {
            o.resize(3);
            T a = build(ctx, sq, {3}, dt, CONTIG);
            ember_status_t s = ember_matrix_norm(ctx, a, EMBER_NORM_2, 0, o[0].out());
            if (!s) s = ember_matrix_norm(ctx, a, EMBER_NORM_NUC, 0, o[1].out());
            if (!s) s = ember_matrix_norm(ctx, a, EMBER_NORM_NEG_2, 0, o[2].out());
            return s;
        }, tol * 10);
        both("eigvalsh", [&](ember_ctx_t* ctx, std::vector<T>& o) {
            o.resize(1);
            T a = build(ctx, herm, {3}, dt, CONTIG);
            return ember_eigvalsh(ctx, a, 0, o[0].out());
        }, tol);
        // Rank deficiency seen through the SVD: rank 2 of a 5x4 product.
        HM low = hmul(random(5, 2, cp), random(2, 4, cp));
        T lc = from_host(cpu(), low.v, {5, 4}, dt), lr = from_host(ref(), low.v, {5, 4}, dt), rc, rr;
        EM_OK(ember_matrix_rank(cpu(), lc, 0, -1, rc.out()));
        EM_OK(ember_matrix_rank(ref(), lr, 0, -1, rr.out()));
        EXPECT_EQ(host(rc), host(rr)) << dn;
        EXPECT_EQ(host(rc)[0], cd(2)) << dn;
    }
}

// ---------------------------------------------------------------- threads and sizes

TEST(CpuLinalg, ConcurrentCallsFromSeveralThreads) {
    NEED_CPU();
    // Each thread its own context (a context is used by one thread at a time); the input
    // tensors are shared read-only.
    const int kThreads = 4;
    std::vector<HM> ms;
    for (int i = 0; i < 8; ++i) ms.push_back(spd(24, false));
    T a = build(cpu(), ms, {8}, EMBER_FLOAT64, CONTIG);
    T want_x, want_s, want_w, want_r;
    T rhs = build(cpu(), std::vector<HM>(8, heye(24)), {8}, EMBER_FLOAT64, CONTIG);
    {
        T q;
        EM_OK(ember_solve(cpu(), a, rhs, want_x.out()));
        EM_OK(ember_svdvals(cpu(), a, want_s.out()));
        EM_OK(ember_eigvalsh(cpu(), a, 0, want_w.out()));
        EM_OK(ember_cholesky(cpu(), a, 0, want_r.out()));
    }
    auto wx = host(want_x), ws = host(want_s), ww = host(want_w), wr = host(want_r);
    // Contiguous float64 results read without any context (host() uses the shared
    // reference context, which only this thread may use).
    auto raw = [](const ember_tensor_t* t) {
        int64_t n = 0;
        ember_tensor_size(t, &n);
        std::vector<double> d((size_t)n);
        ember_tensor_read(t, d.data(), d.size() * sizeof(double));
        return std::vector<cd>(d.begin(), d.end());
    };
    std::atomic<int> bad{0};
    std::vector<std::thread> th;
    for (int t = 0; t < kThreads; ++t)
        th.emplace_back([&] {
            ember_ctx_t* ctx = nullptr;
            if (ember_ctx_create_on("cpu", 0, &ctx) != EMBER_OK) {
                bad++;
                return;
            }
            for (int it = 0; it < 5; ++it) {
                ember_tensor_t *x = nullptr, *s = nullptr, *w = nullptr, *l = nullptr;
                if (ember_solve(ctx, a, rhs, &x) || ember_svdvals(ctx, a, &s) || ember_eigvalsh(ctx, a, 0, &w) ||
                    ember_cholesky(ctx, a, 0, &l))
                    bad++;
                else if (max_diff(raw(x), wx) > 1e-12 || max_diff(raw(s), ws) > 1e-11 || max_diff(raw(w), ww) > 1e-11 ||
                         max_diff(raw(l), wr) > 1e-12)
                    bad++;
                ember_tensor_release(x);
                ember_tensor_release(s);
                ember_tensor_release(w);
                ember_tensor_release(l);
            }
            ember_ctx_release(ctx);
        });
    for (auto& t : th) t.join();
    EXPECT_EQ(bad.load(), 0);
}

TEST(CpuLinalg, LargeBatchOfSmallMatricesUsesThePool) {
    NEED_CPU();
    // 64 matrices of 24x24: enough work, per matrix and in all, for every kernel's batch to
    // be split over the thread pool (PoolRule in backends/cpu/lapack.hpp).
    for (ember_dtype_t dt : {EMBER_FLOAT64, EMBER_COMPLEX64}) {
        Case c{{8, 8}, 24, 24, STRIDED, dt};
        auto ms = gen(c, [](int64_t m, int64_t, bool cp) { return spd(m, cp); });
        auto [a, ar] = inputs(c, ms);
        double tol = 2000 * eps_of(dt);
        T x, xr, l, lr, w, wr, s, sr, r, rr, q, qr_, e, er;
        EM_OK(ember_inv(cpu(), a, x.out()));
        EM_OK(ember_inv(ref(), ar, xr.out()));
        EXPECT_LE(max_diff(host(x), host(xr)), tol);
        // One A (a broadcast batch: each chunk of the pool factors it once) against 64 B.
        Case cb{{8, 8}, 24, 24, BROADCAST, dt};
        auto mb = gen(cb, [](int64_t m, int64_t, bool cp) { return spd(m, cp); });
        auto [ab, abr] = inputs(cb, mb);
        T sx, sxr;
        EM_OK(ember_solve(cpu(), ab, a, sx.out()));
        EM_OK(ember_solve(ref(), abr, ar, sxr.out()));
        EXPECT_LE(max_diff(host(sx), host(sxr)), tol);
        // 48 right-hand sides: a task on the pool solves them in blocks of columns small
        // enough that OpenBLAS keeps trsm on its thread (2 blocks for float64, 3 complex).
        Case cr{{8, 8}, 24, 48, STRIDED, dt};
        auto [rhs, rhsr] = inputs(cr, gen(cr, random));
        T mx, mxr, lu, piv, lur, pivr, ux, uxr;
        EM_OK(ember_solve(cpu(), a, rhs, mx.out()));
        EM_OK(ember_solve(ref(), ar, rhsr, mxr.out()));
        EXPECT_LE(max_diff(host(mx), host(mxr)), tol * 10);
        EM_OK(ember_lu_factor(cpu(), a, lu.out(), piv.out()));
        EM_OK(ember_lu_factor(ref(), ar, lur.out(), pivr.out()));
        EXPECT_LE(max_diff(host(lu), host(lur)), tol);
        EM_OK(ember_lu_solve(cpu(), lu, piv, rhs, ux.out()));
        EM_OK(ember_lu_solve(ref(), lur, pivr, rhsr, uxr.out()));
        EXPECT_LE(max_diff(host(ux), host(uxr)), tol * 10);
        EM_OK(ember_cholesky(cpu(), a, 1, l.out()));
        EM_OK(ember_cholesky(ref(), ar, 1, lr.out()));
        EXPECT_LE(max_diff(host(l), host(lr)), tol);
        T lx, lxr;
        EM_OK(ember_lstsq(cpu(), a, a, -1, lx.out(), nullptr, nullptr, nullptr));
        EM_OK(ember_lstsq(ref(), ar, ar, -1, lxr.out(), nullptr, nullptr, nullptr));
        EXPECT_LE(max_diff(host(lx), host(lxr)), tol * 10);
        EM_OK(ember_eigvalsh(cpu(), a, 1, w.out()));
        EM_OK(ember_eigvalsh(ref(), ar, 1, wr.out()));
        EXPECT_LE(max_diff(host(w), host(wr)), tol * 10);
        EM_OK(ember_svdvals(cpu(), a, s.out()));
        EM_OK(ember_svdvals(ref(), ar, sr.out()));
        EXPECT_LE(max_diff(host(s), host(sr)), tol * 10);
        EM_OK(ember_qr(cpu(), a, EMBER_QR_REDUCED, q.out(), r.out()));
        EM_OK(ember_qr(ref(), ar, EMBER_QR_REDUCED, qr_.out(), rr.out()));
        EXPECT_LE(max_diff(host(r), host(rr)), tol * 10);
        EM_OK(ember_eigvals(cpu(), a, e.out()));
        EM_OK(ember_eigvals(ref(), ar, er.out()));
        auto es = vecs(e), ers = vecs(er);
        for (size_t i = 0; i < es.size(); ++i) EXPECT_LE(match_error(es[i], ers[i]), tol * 10);
        // 2048 matrices of 4 x 4: the cpu backend's own loops (tiny_lapack.hpp) on the pool.
        Case ct{{32, 64}, 4, 4, STRIDED, dt};
        auto [t, tr] = inputs(ct, gen(ct, [](int64_t m, int64_t, bool cp) { return spd(m, cp); }));
        T ti, tir, ts, tsr, tc, tcr, tl, tp, tlr, tpr;
        EM_OK(ember_inv(cpu(), t, ti.out()));
        EM_OK(ember_inv(ref(), tr, tir.out()));
        EXPECT_LE(max_diff(host(ti), host(tir)), tol);
        EM_OK(ember_solve(cpu(), t, t, ts.out()));
        EM_OK(ember_solve(ref(), tr, tr, tsr.out()));
        EXPECT_LE(max_diff(host(ts), host(tsr)), tol);
        EM_OK(ember_cholesky(cpu(), t, 0, tc.out()));
        EM_OK(ember_cholesky(ref(), tr, 0, tcr.out()));
        EXPECT_LE(max_diff(host(tc), host(tcr)), tol);
        EM_OK(ember_lu_factor(cpu(), t, tl.out(), tp.out()));
        EM_OK(ember_lu_factor(ref(), tr, tlr.out(), tpr.out()));
        if (!is_cplx(dt)) {
            EXPECT_EQ(host(tp), host(tpr));
        }
        // ... and the reference's svd, eigh and qr on slices of the batch (lapack.hpp,
        // reference_on_batch): the same results as the reference on the whole.
        T tu, tsv, tvh, tsvr, tw, tv, twr, tvr, tud, tsvd, tvhd, tq, tr2, tqr, tr2r;
        EM_OK(ember_qr(cpu(), t, EMBER_QR_COMPLETE, tq.out(), tr2.out()));
        EM_OK(ember_qr(ref(), tr, EMBER_QR_COMPLETE, tqr.out(), tr2r.out()));
        EXPECT_EQ(host(tq), host(tqr));
        EXPECT_EQ(host(tr2), host(tr2r));
        EM_OK(ember_svd(cpu(), t, 0, tu.out(), tsv.out(), tvh.out()));
        EM_OK(ember_svdvals(ref(), tr, tsvr.out()));
        EXPECT_EQ(host(tsv), host(tsvr));
        EM_OK(ember_svd(ref(), tr, 0, tud.out(), tsvd.out(), tvhd.out()));
        EXPECT_EQ(host(tu), host(tud));
        EXPECT_EQ(host(tvh), host(tvhd));
        EM_OK(ember_eigh(cpu(), t, 1, tw.out(), tv.out()));
        EM_OK(ember_eigh(ref(), tr, 1, twr.out(), tvr.out()));
        EXPECT_EQ(host(tw), host(twr));
        EXPECT_EQ(host(tv), host(tvr));
    }
}

TEST(CpuLinalg, BlockedSizesByIdentities) {
    NEED_CPU();
    // Sizes past LAPACK's block sizes (and OpenBLAS's threading thresholds): identities only
    // (the reference's Jacobi iterations are slow at these sizes).
    for (ember_dtype_t dt : {EMBER_FLOAT64, EMBER_COMPLEX64}) {
        bool cp = is_cplx(dt);
        const int64_t n = 160;
        double tol = 50 * (double)n * eps_of(dt);
        HM a = random(n, n, cp), s = spd(n, cp), h = hermitian(n, cp);
        for (int64_t i = 0; i < n; ++i) a(i, i) += 4.0;
        T ta = from_host(cpu(), a.v, {n, n}, dt), ts = from_host(cpu(), s.v, {n, n}, dt), th = from_host(cpu(), h.v, {n, n}, dt);
        T at;  // transposed view of a^T: the kernels see a strided input
        HM atr(n, n);
        for (int64_t i = 0; i < n; ++i)
            for (int64_t j = 0; j < n; ++j) atr(j, i) = a(i, j);
        T tat = from_host(cpu(), atr.v, {n, n}, dt);
        EM_OK(ember_matrix_transpose(cpu(), tat, at.out()));
        T x;
        EM_OK(ember_inv(cpu(), at, x.out()));
        EXPECT_LE(diff(hmul(a, mats(x)[0]), heye(n)), tol * 10);
        T l;
        EM_OK(ember_cholesky(cpu(), ts, 0, l.out()));
        HM L = mats(l)[0];
        EXPECT_LE(diff(hmul(L, hadj(L)), s), tol * hnorm(s));
        T q, r;
        EM_OK(ember_qr(cpu(), ta, EMBER_QR_REDUCED, q.out(), r.out()));
        EXPECT_LE(orth_err(mats(q)[0]), tol);
        EXPECT_LE(diff(hmul(mats(q)[0], mats(r)[0]), a), tol * hnorm(a));
        T u, sv, vh;
        EM_OK(ember_svd(cpu(), ta, 0, u.out(), sv.out(), vh.out()));
        HM U = mats(u)[0], Vh = mats(vh)[0];
        HM S(n, n);
        auto svs = host(sv);
        for (int64_t i = 0; i < n; ++i) S(i, i) = svs[(size_t)i];
        EXPECT_LE(orth_err(U), tol);
        EXPECT_LE(diff(hmul(hmul(U, S), Vh), a), tol * hnorm(a));
        T w, v;
        EM_OK(ember_eigh(cpu(), th, 1, w.out(), v.out()));
        HM V = mats(v)[0], D(n, n);
        auto wv = host(w);
        for (int64_t i = 0; i < n; ++i) D(i, i) = wv[(size_t)i];
        EXPECT_LE(orth_err(V), tol);
        EXPECT_LE(diff(hmul(h, V), hmul(V, D)), tol * hnorm(h));
        T ew, ev;
        EM_OK(ember_eig(cpu(), ta, ew.out(), ev.out()));
        HM EV = mats(ev)[0], ED(n, n);
        auto ewv = host(ew);
        for (int64_t i = 0; i < n; ++i) ED(i, i) = ewv[(size_t)i];
        EXPECT_LE(diff(hmul(a, EV), hmul(EV, ED)), tol * 10 * hnorm(a));
    }
}

}  // namespace

// cross.cpp: the cross product in one pass, bit for bit the composite's (each product
// rounded, then the difference): vectors along the last axis across the pool, a broadcast
// b, mixed float32 x float64, infinities and NaN; vectors along other axes, integers and
// float16 run the composite on both.
TEST(CpuLarge, CrossMatchesReferenceExactly) {
    NEED_CPU();
    auto d = randf(300000, -3, 3, 81), e = randf(300000, -3, 3, 82);
    d[7] = std::numeric_limits<float>::infinity();
    e[11] = std::numeric_limits<float>::quiet_NaN();
    struct Case {
        std::vector<int64_t> a_shape, b_shape;
        int64_t axis;
        const char* what;
    };
    const Case cases[] = {{{100000, 3}, {100000, 3}, -1, "rows of 3"},
                          {{3, 100000}, {3, 100000}, 0, "the first axis"},
                          {{100000, 3}, {3}, -1, "a broadcast b"},
                          {{4, 3, 50}, {4, 3, 50}, 1, "the middle axis"},
                          {{0, 3}, {0, 3}, -1, "empty"}};
    for (const Case& c : cases)
        for (auto [da, db] : {std::pair{EMBER_FLOAT32, EMBER_FLOAT32}, {EMBER_FLOAT64, EMBER_FLOAT64}, {EMBER_FLOAT32, EMBER_FLOAT64}, {EMBER_INT32, EMBER_INT32}, {EMBER_FLOAT16, EMBER_FLOAT16}}) {
            int64_t na = 1, nb = 1;
            for (int64_t s : c.a_shape) na *= s;
            for (int64_t s : c.b_shape) nb *= s;
            std::vector<float> va(d.begin(), d.begin() + na), vb(e.begin(), e.begin() + nb);
            if (da == EMBER_INT32)
                for (auto* v : {&va, &vb})
                    for (float& x : *v) x = std::isfinite(x) ? std::round(x * 100) : 0.0f;
            T a = tensor(cpu(), va, c.a_shape, da), b = tensor(cpu(), vb, c.b_shape, db), got, want;
            EM_OK(ember_cross(cpu(), a, b, c.axis, got.out()));
            EM_OK(ember_cross(ref(), as_ref(a), as_ref(b), c.axis, want.out()));
            expect_close(got, want, 0, 0, std::string("cross of ") + c.what + " " + ember_dtype_name(da) + " x " + ember_dtype_name(db));
        }
    expect_native_on_cpu("cross");
}

// triangle.cpp: tril and triu in one pass, the composite's where() bit for bit: k from far
// below to far above the diagonal (INT64 extremes included), wide and tall matrices, a
// batch of them across the pool, transposed (strided) and reversed inputs, every element
// size; -0.0 and NaN copied as they are.
TEST(CpuLarge, TriangleMatchesReferenceExactly) {
    NEED_CPU();
    auto d = randf(3 * 300 * 500, -3, 3, 91);
    d[5] = -0.0f;
    d[9] = std::numeric_limits<float>::quiet_NaN();
    const std::vector<std::vector<int64_t>> shapes = {{7, 5}, {5, 7}, {3, 300, 500}, {2, 3, 4, 6}, {0, 4}, {4, 0}, {1, 1}};
    const int64_t ks[] = {INT64_MIN, -1000, -3, -1, 0, 1, 2, 499, INT64_MAX};
    int64_t flip_axis = -1;
    for (const auto& shape : shapes)
        for (ember_dtype_t dt : {EMBER_FLOAT32, EMBER_FLOAT64, EMBER_COMPLEX128, EMBER_BOOL, EMBER_INT8, EMBER_FLOAT16})
            for (int layout = 0; layout < 3; ++layout) {
                int64_t count = 1;
                for (int64_t s : shape) count *= s;
                T x = tensor(cpu(), std::vector<float>(d.begin(), d.begin() + count), shape, dt), view;
                if (layout == 1) {
                    EM_OK(ember_matrix_transpose(cpu(), x, view.out()));
                } else if (layout == 2) {
                    EM_OK(ember_flip(cpu(), x, &flip_axis, 1, view.out()));
                }
                const ember_tensor_t* in = layout ? (const ember_tensor_t*)view : (const ember_tensor_t*)x;
                for (int64_t k : ks)
                    for (bool lower : {true, false}) {
                        T got, want;
                        auto fn = lower ? ember_tril : ember_triu;
                        EM_OK(fn(cpu(), in, k, got.out()));
                        EM_OK(fn(ref(), as_ref(in), k, want.out()));
                        expect_close(got, want, 0, 0, std::string(lower ? "tril" : "triu") + " k=" + std::to_string(k) + " " + ember_dtype_name(dt) + " layout " +
                                                          std::to_string(layout) + " of " + std::to_string(shape.size()) + "-d");
                    }
            }
    expect_native_on_cpu("tril");
    expect_native_on_cpu("triu");
}
