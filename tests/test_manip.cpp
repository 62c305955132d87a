// Creation, views, joining, indexing, sorting, conversion, assignment and linear algebra.
// Expected values are hand-derived constants (the results NumPy documents for the same
// arguments) or float64 loops written here.
#include <algorithm>
#include <numeric>
#include <random>

#include "test_util.hpp"

namespace {

using V = std::vector<double>;
using I = std::vector<int64_t>;
using C = std::complex<double>;
constexpr int64_t END = EMBER_SLICE_END;
const double NaN = std::numeric_limits<double>::quiet_NaN(), Inf = std::numeric_limits<double>::infinity();

// RUN(call): runs an op whose output slot is written as O and returns the result.
#define RUN(...)                                                                  \
    [&] {                                                                         \
        T y_;                                                                     \
        ember_tensor_t** O = y_.out();                                            \
        ember_status_t st_ = (__VA_ARGS__);                                       \
        EXPECT_EQ(st_, EMBER_OK) << #__VA_ARGS__ << ": " << ember_last_error();  \
        return y_;                                                                \
    }()
// FAILS(status, fn, call): the call fails with status, names fn, and leaves O untouched.
#define FAILS(status, fn, ...)                        \
    do {                                              \
        ember_tensor_t* o_ = nullptr;                 \
        ember_tensor_t** O = &o_;                     \
        EM_FAILS((__VA_ARGS__), status, fn);          \
        EXPECT_EQ(o_, nullptr);                       \
        (void)O;                                      \
    } while (0)

// Shape, values within tol (relative and absolute; NaN matches NaN) and, if given, dtype.
::testing::AssertionResult near(const ember_tensor_t* y, const I& shape, const V& want, double tol, int dtype = -1) {
    if (!y) return ::testing::AssertionFailure() << "no tensor";
    if (dtype >= 0 && dtype_of(y) != dtype) return ::testing::AssertionFailure() << "dtype " << ember_dtype_name(dtype_of(y));
    if (shape_of(y) != shape) return ::testing::AssertionFailure() << "shape has " << shape_of(y).size() << " dims / differs";
    return all_close(values(y), want, tol, tol);
}
::testing::AssertionResult is(const ember_tensor_t* y, const I& shape, const V& want, int dtype = -1) { return near(y, shape, want, 0, dtype); }
V iota(int n, double start = 0) {
    V v((size_t)n);
    std::iota(v.begin(), v.end(), start);
    return v;
}
int contig(const ember_tensor_t* t) {
    int c = -1;
    ember_tensor_is_contiguous(t, &c);
    return c;
}
T make_c(const std::vector<C>& v, I shape, ember_dtype_t d) {
    T src = RUN(ember_tensor_from_data(test_ctx(), v.data(), EMBER_COMPLEX128, shape.data(), (int)shape.size(), O));
    return RUN(ember_astype(test_ctx(), src, d, O));
}
T weak(double v) { return RUN(ember_scalar_f64(test_ctx(), v, O)); }
V mm(const V& a, const V& b, int m, int k, int n) {  // row-major (m, k) x (k, n)
    V r((size_t)(m * n), 0);
    for (int i = 0; i < m; ++i)
        for (int j = 0; j < n; ++j)
            for (int p = 0; p < k; ++p) r[(size_t)(i * n + j)] += a[(size_t)(i * k + p)] * b[(size_t)(p * n + j)];
    return r;
}
V rand_v(std::mt19937& rng, int n, int lo = -4, int hi = 4) {  // quarters: exact in every float dtype
    V v((size_t)n);
    for (auto& x : v) x = std::uniform_int_distribution<int>(lo * 4, hi * 4)(rng) / 4.0;
    return v;
}

// ---------------------------------------------------------------- creation
TEST(ManipCreation, FillsAndLikes) {
    ember_ctx_t* ctx = test_ctx();
    const I s = {2, 3}, es = {0, 3}, bad = {2, -1};
    EXPECT_TRUE(is(RUN(ember_zeros(ctx, s.data(), 2, EMBER_DTYPE_DEFAULT, O)), s, V(6, 0), EMBER_FLOAT32));
    EXPECT_TRUE(is(RUN(ember_ones(ctx, s.data(), 2, EMBER_INT8, O)), s, V(6, 1), EMBER_INT8));
    EXPECT_TRUE(is(RUN(ember_full(ctx, s.data(), 2, 2.5, EMBER_FLOAT64, O)), s, V(6, 2.5)));
    EXPECT_TRUE(is(RUN(ember_full(ctx, nullptr, 0, -7, EMBER_INT32, O)), {}, {-7}));
    for (auto& e : {std::make_pair(es, (int)EMBER_COMPLEX64), std::make_pair(s, EMBER_DTYPE_DEFAULT)}) {
        T t = RUN(ember_empty(ctx, e.first.data(), 2, e.second, O));
        EXPECT_EQ(shape_of(t), e.first);
        EXPECT_EQ(dtype_of(t), e.second < 0 ? EMBER_FLOAT32 : (ember_dtype_t)e.second);
    }
    // *_like: DEFAULT keeps x's dtype; a view's shape is used.
    T x = make(iota(6), {2, 3}, EMBER_INT16), xt = RUN(ember_transpose(ctx, x, O));
    EXPECT_TRUE(is(RUN(ember_zeros_like(ctx, xt, EMBER_DTYPE_DEFAULT, O)), {3, 2}, V(6, 0), EMBER_INT16));
    EXPECT_TRUE(is(RUN(ember_ones_like(ctx, x, EMBER_FLOAT64, O)), s, V(6, 1), EMBER_FLOAT64));
    EXPECT_TRUE(is(RUN(ember_full_like(ctx, x, 3.75, EMBER_DTYPE_DEFAULT, O)), s, V(6, 3)));  // toward zero
    T el = RUN(ember_empty_like(ctx, xt, EMBER_BOOL, O));
    EXPECT_EQ(dtype_of(el), EMBER_BOOL);
    EXPECT_EQ(shape_of(el), (I{3, 2}));
    FAILS(EMBER_ERR_SHAPE, "ember_zeros", ember_zeros(ctx, bad.data(), 2, EMBER_FLOAT32, O));
    FAILS(EMBER_ERR_INVALID_ARGUMENT, "ember_ones", ember_ones(ctx, s.data(), 2, 99, O));
}

TEST(ManipCreation, ArangeLinspaceEye) {
    ember_ctx_t* ctx = test_ctx();
    EXPECT_TRUE(is(RUN(ember_arange(ctx, 0, 5, 1, EMBER_DTYPE_DEFAULT, O)), {5}, {0, 1, 2, 3, 4}, EMBER_INT64));
    EXPECT_TRUE(is(RUN(ember_arange(ctx, 5, 0, -2, EMBER_DTYPE_DEFAULT, O)), {3}, {5, 3, 1}));
    EXPECT_TRUE(is(RUN(ember_arange(ctx, 0, 1, 0.25, EMBER_DTYPE_DEFAULT, O)), {4}, {0, 0.25, 0.5, 0.75}, EMBER_FLOAT32));
    EXPECT_TRUE(is(RUN(ember_arange(ctx, 1, 0, -0.25, EMBER_DTYPE_DEFAULT, O)), {4}, {1, 0.75, 0.5, 0.25}));
    EXPECT_TRUE(is(RUN(ember_arange(ctx, -1.5, 1, 0.5, EMBER_DTYPE_DEFAULT, O)), {5}, {-1.5, -1, -0.5, 0, 0.5}));
    EXPECT_TRUE(near(RUN(ember_arange(ctx, 0, 1, 0.1, EMBER_FLOAT64, O)), {10}, {0, .1, .2, .3, .4, .5, .6, .7, .8, .9}, 1e-12));
    EXPECT_TRUE(is(RUN(ember_arange(ctx, 3, 3, 1, EMBER_DTYPE_DEFAULT, O)), {0}, {}));
    EXPECT_TRUE(is(RUN(ember_arange(ctx, 0, -3, 1, EMBER_DTYPE_DEFAULT, O)), {0}, {}));
    FAILS(EMBER_ERR_INVALID_ARGUMENT, "ember_arange", ember_arange(ctx, 0, 1, 0, EMBER_DTYPE_DEFAULT, O));

    EXPECT_TRUE(is(RUN(ember_linspace(ctx, 0, 1, 5, 1, EMBER_DTYPE_DEFAULT, O)), {5}, {0, 0.25, 0.5, 0.75, 1}, EMBER_FLOAT32));
    EXPECT_TRUE(near(RUN(ember_linspace(ctx, 0, 1, 5, 0, EMBER_FLOAT64, O)), {5}, {0, 0.2, 0.4, 0.6, 0.8}, 1e-15));
    EXPECT_TRUE(is(RUN(ember_linspace(ctx, 1, 0, 3, 1, EMBER_FLOAT64, O)), {3}, {1, 0.5, 0}));
    EXPECT_EQ(values(RUN(ember_linspace(ctx, 0, 1, 7, 1, EMBER_FLOAT64, O))).back(), 1.0);  // exact endpoint
    EXPECT_TRUE(is(RUN(ember_linspace(ctx, 0, 10, 5, 1, EMBER_INT32, O)), {5}, {0, 2, 5, 7, 10}));
    EXPECT_TRUE(is(RUN(ember_linspace(ctx, 2, 3, 1, 1, EMBER_DTYPE_DEFAULT, O)), {1}, {2}));
    EXPECT_TRUE(is(RUN(ember_linspace(ctx, 2, 3, 0, 1, EMBER_DTYPE_DEFAULT, O)), {0}, {}));

    EXPECT_TRUE(is(RUN(ember_eye(ctx, 3, 4, 1, EMBER_DTYPE_DEFAULT, O)), {3, 4}, {0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1}, EMBER_FLOAT32));
    EXPECT_TRUE(is(RUN(ember_eye(ctx, 4, 3, -1, EMBER_INT32, O)), {4, 3}, {0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1}, EMBER_INT32));
    EXPECT_TRUE(is(RUN(ember_eye(ctx, 2, 2, 0, EMBER_FLOAT64, O)), {2, 2}, {1, 0, 0, 1}));
    EXPECT_TRUE(is(RUN(ember_eye(ctx, 2, 3, 5, EMBER_FLOAT64, O)), {2, 3}, V(6, 0)));
}

TEST(ManipCreation, TrilTriuMeshgrid) {
    ember_ctx_t* ctx = test_ctx();
    T x = make(iota(24, 1), {2, 3, 4}, EMBER_INT32);
    for (int64_t k : {int64_t(0), int64_t(1), int64_t(-1), int64_t(3), int64_t(-3), int64_t(4), INT64_MIN, INT64_MAX})  // the extremes: none or all
        for (int lower = 0; lower < 2; ++lower) {
            V want;
            for (int b = 0; b < 2; ++b)
                for (int i = 0; i < 3; ++i)
                    for (int j = 0; j < 4; ++j) want.push_back((lower ? j - i <= k : j - i >= k) ? 1 + b * 12 + i * 4 + j : 0);
            EXPECT_TRUE(is(RUN((lower ? ember_tril : ember_triu)(ctx, x, k, O)), {2, 3, 4}, want, EMBER_INT32)) << (lower ? "tril" : "triu") << k;
        }
    FAILS(EMBER_ERR_SHAPE, "ember_tril", ember_tril(ctx, make(V{1, 2}, {2}, EMBER_FLOAT32), 0, O));

    T a = make(V{1, 2, 3}, {3}, EMBER_FLOAT32), b = make(V{4, 5}, {2}, EMBER_FLOAT32), c = make(V{6, 7, 8, 9}, {4}, EMBER_FLOAT32);
    const ember_tensor_t* in[3] = {a, b, c};
    ember_tensor_t* out[3] = {};
    EM_OK(ember_meshgrid(ctx, in, 2, 0, out));  // xy
    T X(out[0]), Y(out[1]);
    EXPECT_TRUE(is(X, {2, 3}, {1, 2, 3, 1, 2, 3}));
    EXPECT_TRUE(is(Y, {2, 3}, {4, 4, 4, 5, 5, 5}));
    EM_OK(ember_meshgrid(ctx, in, 2, 1, out));  // ij
    T Xi(out[0]), Yi(out[1]);
    EXPECT_TRUE(is(Xi, {3, 2}, {1, 1, 2, 2, 3, 3}));
    EXPECT_TRUE(is(Yi, {3, 2}, {4, 5, 4, 5, 4, 5}));
    EM_OK(ember_meshgrid(ctx, in, 3, 0, out));  // xy with 3 inputs: shape (len b, len a, len c)
    T P(out[0]), Q(out[1]), R(out[2]);
    EXPECT_EQ(shape_of(P), (I{2, 3, 4}));
    auto pv = values(P), qv = values(Q), rv = values(R);
    ASSERT_EQ(pv.size(), 24u);
    EXPECT_EQ((V{pv[20], qv[20], rv[20], pv[3], qv[3], rv[3]}), (V{3, 5, 6, 1, 4, 9}));  // at [1, 2, 0] and [0, 0, 3]
}

// ---------------------------------------------------------------- views
TEST(ManipViews, ReshapeViewFlatten) {
    ember_ctx_t* ctx = test_ctx();
    T x = make(iota(24), {2, 3, 4}, EMBER_FLOAT64);
    const I s46 = {4, -1}, flat = {24}, unit = {4, 3, 2, 1}, two = {2, -1, -1}, wrong = {5, 5}, s223 = {2, 2, 3};
    T r = RUN(ember_reshape(ctx, x, s46.data(), 2, O));
    EXPECT_TRUE(is(r, {4, 6}, iota(24)));
    EXPECT_EQ(strides_of(r), (I{6, 1}));
    EM_OK(ember_assign(ctx, r, weak(-1)));  // a view: the write reaches x
    EXPECT_EQ(values(x), V(24, -1));
    x = make(iota(24), {2, 3, 4}, EMBER_FLOAT64);
    T t = RUN(ember_transpose(ctx, x, O));
    EXPECT_EQ(strides_of(t), (I{1, 4, 12}));
    EXPECT_EQ(contig(t), 0);
    V tv;
    for (int i = 0; i < 4; ++i)
        for (int j = 0; j < 3; ++j)
            for (int k = 0; k < 2; ++k) tv.push_back(k * 12 + j * 4 + i);
    T c = RUN(ember_reshape(ctx, t, flat.data(), 1, O));  // needs a copy
    EXPECT_EQ(contig(c), 1);
    EXPECT_TRUE(is(c, {24}, tv));
    FAILS(EMBER_ERR_SHAPE, "ember_view", ember_view(ctx, t, flat.data(), 1, O));
    T u = RUN(ember_view(ctx, t, unit.data(), 4, O));  // a unit axis needs no copy
    EXPECT_EQ(strides_of(u), (I{1, 4, 12, 1}));
    EXPECT_TRUE(is(u, unit, tv));
    FAILS(EMBER_ERR_SHAPE, "ember_reshape", ember_reshape(ctx, x, two.data(), 3, O));
    FAILS(EMBER_ERR_SHAPE, "ember_reshape", ember_reshape(ctx, x, wrong.data(), 2, O));
    EXPECT_EQ(strides_of(RUN(ember_flatten(ctx, x, O))), I{1});
    EXPECT_TRUE(is(RUN(ember_flatten(ctx, t, O)), {24}, tv));
    // Columns 0..2 of a (4, 6): the row axis can split without a copy, the whole cannot merge.
    const I st = {0, 0}, sp = {END, 3}, one = {1, 1};
    T m = make(iota(24), {4, 6}, EMBER_FLOAT32), cols = RUN(ember_slice(ctx, m, st.data(), sp.data(), one.data(), 2, O));
    T v = RUN(ember_view(ctx, cols, s223.data(), 3, O));
    EXPECT_EQ(strides_of(v), (I{12, 6, 1}));
    EXPECT_TRUE(is(v, s223, {0, 1, 2, 6, 7, 8, 12, 13, 14, 18, 19, 20}));
    const I twelve = {12};
    FAILS(EMBER_ERR_SHAPE, "ember_view", ember_view(ctx, cols, twelve.data(), 1, O));
}

TEST(ManipViews, AxisViews) {
    ember_ctx_t* ctx = test_ctx();
    T x = make(iota(24), {2, 3, 4}, EMBER_FLOAT32);
    const I perm = {2, 0, 1}, rep = {0, 0, 1}, ax0 = {0}, ax1 = {1}, b23 = {2, 3}, b24 = {2, 4};
    V want;
    for (int k = 0; k < 4; ++k)
        for (int i = 0; i < 2; ++i)
            for (int j = 0; j < 3; ++j) want.push_back(i * 12 + j * 4 + k);
    T p = RUN(ember_permute_dims(ctx, x, perm.data(), 3, O));
    EXPECT_TRUE(is(p, {4, 2, 3}, want));
    EXPECT_EQ(strides_of(p), (I{1, 12, 4}));
    EXPECT_TRUE(is(RUN(ember_moveaxis(ctx, x, -1, 0, O)), {4, 2, 3}, want));
    EXPECT_EQ(strides_of(RUN(ember_matrix_transpose(ctx, x, O))), (I{12, 1, 4}));
    T sw = RUN(ember_swapaxes(ctx, x, 0, 2, O));
    EXPECT_EQ(shape_of(sw), (I{4, 3, 2}));
    EXPECT_EQ(strides_of(sw), (I{1, 4, 12}));
    EXPECT_TRUE(is(RUN(ember_expand_dims(ctx, x, 1, O)), {2, 1, 3, 4}, iota(24)));
    EXPECT_EQ(shape_of(RUN(ember_expand_dims(ctx, x, -1, O))), (I{2, 3, 4, 1}));
    T u = make(V{1, 2, 3}, {1, 3, 1}, EMBER_FLOAT32);
    EXPECT_TRUE(is(RUN(ember_squeeze(ctx, u, nullptr, 0, O)), {3}, {1, 2, 3}));
    EXPECT_TRUE(is(RUN(ember_squeeze(ctx, u, ax0.data(), 1, O)), {3, 1}, {1, 2, 3}));
    FAILS(EMBER_ERR_SHAPE, "ember_squeeze", ember_squeeze(ctx, u, ax1.data(), 1, O));
    T r = make(V{1, 2, 3}, {3}, EMBER_FLOAT32), bc = RUN(ember_broadcast_to(ctx, r, b23.data(), 2, O));
    EXPECT_EQ(strides_of(bc), (I{0, 1}));
    EXPECT_TRUE(is(bc, b23, {1, 2, 3, 1, 2, 3}));
    FAILS(EMBER_ERR_SHAPE, "ember_broadcast_to", ember_broadcast_to(ctx, r, b24.data(), 2, O));
    FAILS(EMBER_ERR_INVALID_ARGUMENT, "ember_permute_dims", ember_permute_dims(ctx, x, rep.data(), 3, O));
    FAILS(EMBER_ERR_INDEX, "ember_swapaxes", ember_swapaxes(ctx, x, 0, 3, O));
}

TEST(ManipViews, SliceSelectDiagonalFlipRealImag) {
    ember_ctx_t* ctx = test_ctx();
    T x = make(iota(20), {4, 5}, EMBER_FLOAT64);
    struct S {
        I start, stop, step, shape;
        V want;
    };
    const S cases[] = {
        {{1, 0}, {END, END}, {2, 2}, {2, 3}, {5, 7, 9, 15, 17, 19}},
        {{-1, 0}, {END, 1}, {-1, 1}, {4, 1}, {15, 10, 5, 0}},
        {{3, 4}, {0, END}, {-2, -3}, {2, 2}, {19, 16, 9, 6}},
        {{-100, 3}, {100, 1}, {1, -1}, {4, 2}, {3, 2, 8, 7, 13, 12, 18, 17}},
        {{2, 0}, {2, END}, {1, 1}, {0, 5}, {}},
    };
    for (auto& c : cases) EXPECT_TRUE(is(RUN(ember_slice(ctx, x, c.start.data(), c.stop.data(), c.step.data(), 2, O)), c.shape, c.want));
    T s = RUN(ember_slice(ctx, x, cases[2].start.data(), cases[2].stop.data(), cases[2].step.data(), 2, O));
    EXPECT_EQ(strides_of(s), (I{-10, -3}));
    EXPECT_EQ(contig(s), 0);
    const I z = {0}, e = {END}, s0 = {0};
    FAILS(EMBER_ERR_INVALID_ARGUMENT, "ember_slice", ember_slice(ctx, x, z.data(), e.data(), s0.data(), 1, O));
    // Fewer slices than axes (the rest whole), and a zero step past the first axis.
    T x3 = make(iota(24), {2, 3, 4}, EMBER_INT32);
    const I st3 = {1, -1}, sp3 = {END, END}, by3 = {1, -2}, zero_second = {1, 0};
    T s3 = RUN(ember_slice(ctx, x3, st3.data(), sp3.data(), by3.data(), 2, O));
    EXPECT_TRUE(is(s3, {1, 2, 4}, {20, 21, 22, 23, 12, 13, 14, 15}, EMBER_INT32));
    EXPECT_EQ(strides_of(s3), (I{12, -8, 1}));
    FAILS(EMBER_ERR_INVALID_ARGUMENT, "ember_slice", ember_slice(ctx, x3, st3.data(), sp3.data(), zero_second.data(), 2, O));
    FAILS(EMBER_ERR_INDEX, "ember_slice", ember_slice(ctx, x3, st3.data(), sp3.data(), by3.data(), 4, O));
    T col = RUN(ember_select(ctx, x, 1, -1, O));
    EXPECT_TRUE(is(col, {4}, {4, 9, 14, 19}));
    EXPECT_EQ(strides_of(col), I{5});
    FAILS(EMBER_ERR_INDEX, "ember_select", ember_select(ctx, x, 0, 4, O));
    const std::pair<int64_t, V> diags[] = {{0, {0, 6, 12, 18}}, {1, {1, 7, 13, 19}}, {-1, {5, 11, 17}}, {10, {}}};
    for (auto& dg : diags) EXPECT_TRUE(is(RUN(ember_diagonal(ctx, x, dg.first, O)), {(int64_t)dg.second.size()}, dg.second)) << dg.first;
    EXPECT_EQ(strides_of(RUN(ember_diagonal(ctx, x, 0, O))), I{6});
    EXPECT_TRUE(is(RUN(ember_diagonal(ctx, make(iota(18), {2, 3, 3}, EMBER_INT32), 0, O)), {2, 3}, {0, 4, 8, 9, 13, 17}));
    V rev = iota(20);
    std::reverse(rev.begin(), rev.end());
    EXPECT_TRUE(is(RUN(ember_flip(ctx, x, nullptr, 0, O)), {4, 5}, rev));
    const I a1 = {-1};
    T fl = RUN(ember_flip(ctx, x, a1.data(), 1, O));
    EXPECT_EQ(strides_of(fl), (I{5, -1}));
    EXPECT_TRUE(is(fl, {4, 5}, {4, 3, 2, 1, 0, 9, 8, 7, 6, 5, 14, 13, 12, 11, 10, 19, 18, 17, 16, 15}));
    // real / imag: strided views of a complex tensor; writes reach it.
    T c = make_c({C(1, 2), C(3, 4), C(5, 6)}, {3}, EMBER_COMPLEX128), re = RUN(ember_real(ctx, c, O)), im = RUN(ember_imag(ctx, c, O));
    EXPECT_EQ(dtype_of(re), EMBER_FLOAT64);
    EXPECT_EQ(strides_of(im), I{2});
    EXPECT_TRUE(is(re, {3}, {1, 3, 5}));
    EXPECT_TRUE(is(im, {3}, {2, 4, 6}));
    EM_OK(ember_assign(ctx, im, weak(-1)));
    EXPECT_EQ(values_c(c), (std::vector<C>{C(1, -1), C(3, -1), C(5, -1)}));
    EXPECT_TRUE(is(RUN(ember_imag(ctx, make_c({C(1, 2)}, {1}, EMBER_COMPLEX64), O)), {1}, {2}, EMBER_FLOAT32));
    EXPECT_TRUE(is(RUN(ember_imag(ctx, x, O)), {4, 5}, V(20, 0)));  // real input: zeros
    const I one = {1}, end = {END}, two = {2};  // real part of a sliced complex view: c[1::2]
    T cs = RUN(ember_slice(ctx, make_c({C(0, 9), C(1, 8), C(2, 7), C(3, 6)}, {4}, EMBER_COMPLEX64), one.data(), end.data(), two.data(), 1, O));
    EXPECT_TRUE(is(RUN(ember_real(ctx, cs, O)), {2}, {1, 3}, EMBER_FLOAT32));
    EXPECT_TRUE(is(RUN(ember_imag(ctx, cs, O)), {2}, {8, 6}, EMBER_FLOAT32));
}

// as_strided: any geometry over x's memory, in elements from x's first element, within the
// memory x's storage holds; windows, a broadcast row, a reversed view, a view of a view that
// reaches before its source's first element, the errors. The values are x's element indices.
TEST(ManipViews, AsStridedWithinItsMemory) {
    ember_ctx_t* ctx = test_ctx();
    T x = make(iota(10), {10}, EMBER_FLOAT64);
    const I win = {8, 3}, win_st = {1, 1};  // sliding windows of 3
    T w = RUN(ember_as_strided(ctx, x, win.data(), win_st.data(), 2, 0, O));
    EXPECT_TRUE(is(w, {8, 3}, {0, 1, 2, 1, 2, 3, 2, 3, 4, 3, 4, 5, 4, 5, 6, 5, 6, 7, 6, 7, 8, 7, 8, 9}));
    EXPECT_EQ(strides_of(w), (I{1, 1}));
    const I rows = {2, 4}, rows_st = {0, 2}, rev = {5}, rev_st = {-2};
    EXPECT_TRUE(is(RUN(ember_as_strided(ctx, x, rows.data(), rows_st.data(), 2, 1, O)), {2, 4}, {1, 3, 5, 7, 1, 3, 5, 7}));
    EXPECT_TRUE(is(RUN(ember_as_strided(ctx, x, rev.data(), rev_st.data(), 1, 9, O)), {5}, {9, 7, 5, 3, 1}));
    EXPECT_TRUE(is(RUN(ember_as_strided(ctx, x, nullptr, nullptr, 0, 4, O)), {}, {4}));
    // A view of x[6:]: offsets count from its first element, and may reach back into x.
    const I six = {6}, end = {END};
    T tail = RUN(ember_slice(ctx, x, six.data(), end.data(), nullptr, 1, O));
    const I three = {3}, one = {1};
    EXPECT_TRUE(is(RUN(ember_as_strided(ctx, tail, three.data(), one.data(), 1, -6, O)), {3}, {0, 1, 2}));
    // Writes reach x.
    T back = RUN(ember_as_strided(ctx, tail, three.data(), rev_st.data(), 1, 2, O));  // x[8], x[6], x[4]
    EM_OK(ember_assign(ctx, back, weak(-1)));
    EXPECT_EQ(values(x), (V{0, 1, 2, 3, -1, 5, -1, 7, -1, 9}));
    // Empty views reach nothing: any offset.
    const I none = {0, 3};
    EXPECT_TRUE(is(RUN(ember_as_strided(ctx, x, none.data(), win_st.data(), 2, 100, O)), {0, 3}, {}));
    // Past the memory: before the first element, past the last, a stride too long, overflow.
    const I over = {4}, over_st = {4}, huge = {3}, huge_st = {INT64_MAX / 2 + 1};
    FAILS(EMBER_ERR_INDEX, "ember_as_strided", ember_as_strided(ctx, x, three.data(), one.data(), 1, -1, O));
    FAILS(EMBER_ERR_INDEX, "ember_as_strided", ember_as_strided(ctx, x, three.data(), one.data(), 1, 8, O));
    FAILS(EMBER_ERR_INDEX, "ember_as_strided", ember_as_strided(ctx, x, over.data(), over_st.data(), 1, 0, O));
    FAILS(EMBER_ERR_INDEX, "ember_as_strided", ember_as_strided(ctx, x, huge.data(), huge_st.data(), 1, 0, O));
    FAILS(EMBER_ERR_INDEX, "ember_as_strided", ember_as_strided(ctx, tail, three.data(), one.data(), 1, -7, O));
    EXPECT_NE(std::string(ember_last_error()).find("reaches elements -7 to -5"), std::string::npos) << ember_last_error();
    const I neg = {-1};
    FAILS(EMBER_ERR_SHAPE, "ember_as_strided", ember_as_strided(ctx, x, neg.data(), one.data(), 1, 0, O));
    FAILS(EMBER_ERR_INVALID_ARGUMENT, "ember_as_strided", ember_as_strided(ctx, x, three.data(), nullptr, 1, 0, O));
    FAILS(EMBER_ERR_INVALID_ARGUMENT, "ember_as_strided", ember_as_strided(ctx, x, three.data(), one.data(), EMBER_MAX_DIMS + 1, 0, O));
    // The real part of a complex tensor: float elements, twice as many as complex ones.
    T c = make_c({C(1, 2), C(3, 4)}, {2}, EMBER_COMPLEX128), re = RUN(ember_real(ctx, c, O));
    const I four = {4};
    EXPECT_TRUE(is(RUN(ember_as_strided(ctx, re, four.data(), one.data(), 1, 0, O)), {4}, {1, 2, 3, 4}));
    FAILS(EMBER_ERR_INDEX, "ember_as_strided", ember_as_strided(ctx, re, four.data(), one.data(), 1, 1, O));
}

// Caller memory (ember_tensor_wrap): Ember does not know its extent, so a view may reach only
// the elements the wrapping tensor reaches.
TEST(HostMemory, AsStridedOfWrappedMemoryStaysInsideIt) {
    REQUIRE_HOST_MEMORY_TEST_BACKEND();
    ember_ctx_t* ctx = test_ctx();
    double data[8] = {0, 1, 2, 3, 4, 5, 6, 7};
    const I shape = {3}, st = {-2}, two = {2}, one = {1};
    T x = RUN(ember_tensor_wrap(ctx, data + 6, EMBER_FLOAT64, shape.data(), st.data(), 1, O));  // 6, 4, 2
    EXPECT_TRUE(is(RUN(ember_as_strided(ctx, x, two.data(), one.data(), 1, -4, O)), {2}, {2, 3}));
    FAILS(EMBER_ERR_INDEX, "ember_as_strided", ember_as_strided(ctx, x, two.data(), one.data(), 1, -5, O));
    FAILS(EMBER_ERR_INDEX, "ember_as_strided", ember_as_strided(ctx, x, two.data(), one.data(), 1, 0, O));

    // A view of part of the wrapped block may reach the rest of what the wrap reached (data[1]
    // to data[6] of this reversed row of 6), nothing past it.
    const I six = {6}, back = {-1};
    T row = RUN(ember_tensor_wrap(ctx, data + 6, EMBER_FLOAT64, six.data(), back.data(), 1, O));  // 6..1
    const I from2 = {2}, to4 = {4}, from1 = {1}, to2 = {2};
    T part = RUN(ember_slice(ctx, row, from2.data(), to4.data(), one.data(), 1, O));  // 4, 3
    EXPECT_TRUE(is(RUN(ember_as_strided(ctx, part, six.data(), one.data(), 1, -3, O)), {6}, {1, 2, 3, 4, 5, 6}));
    FAILS(EMBER_ERR_INDEX, "ember_as_strided", ember_as_strided(ctx, part, six.data(), one.data(), 1, -4, O));
    FAILS(EMBER_ERR_INDEX, "ember_as_strided", ember_as_strided(ctx, part, six.data(), one.data(), 1, -2, O));
    // The real parts of wrapped complex numbers: the bytes of all of them, in float steps.
    float cdata[6] = {1, -1, 2, -2, 3, -3};
    const I three = {3};
    T c = RUN(ember_tensor_wrap(ctx, cdata, EMBER_COMPLEX64, three.data(), nullptr, 1, O));
    T re = RUN(ember_real(ctx, RUN(ember_slice(ctx, c, from1.data(), to2.data(), one.data(), 1, O)), O));  // 2
    EXPECT_TRUE(is(RUN(ember_as_strided(ctx, re, six.data(), one.data(), 1, -2, O)), {6}, {1, -1, 2, -2, 3, -3}));
    FAILS(EMBER_ERR_INDEX, "ember_as_strided", ember_as_strided(ctx, re, six.data(), one.data(), 1, -1, O));
    // A wrap no int64 offset can address fails before it takes the memory.
    const I huge = {INT64_MAX / 2 + 1};
    FAILS(EMBER_ERR_INDEX, "ember_tensor_wrap", ember_tensor_wrap(ctx, data, EMBER_FLOAT64, three.data(), huge.data(), 1, O));
    // An empty wrap reaches nothing.
    const I none = {0};
    T empty = RUN(ember_tensor_wrap(ctx, data, EMBER_FLOAT64, none.data(), nullptr, 1, O));
    FAILS(EMBER_ERR_INDEX, "ember_as_strided", ember_as_strided(ctx, empty, one.data(), one.data(), 1, 0, O));
}

// ---------------------------------------------------------------- joining
TEST(ManipJoin, ConcatStackSplit) {
    ember_ctx_t* ctx = test_ctx();
    T a = make(iota(6), {2, 3}, EMBER_FLOAT32), b = make(V{6, 7, 8}, {1, 3}, EMBER_FLOAT32);
    T c = make(V{10, 11, 12, 13}, {2, 2}, EMBER_INT8), d = make(V{200, 201}, {2, 1}, EMBER_UINT8);
    const ember_tensor_t *ab[2] = {a, b}, *acd[3] = {a, c, d}, *cd[2] = {c, d};
    EXPECT_TRUE(is(RUN(ember_concat(ctx, ab, 2, 0, O)), {3, 3}, iota(9)));
    EXPECT_TRUE(is(RUN(ember_concat(ctx, ab, 2, EMBER_AXIS_NONE, O)), {9}, iota(9)));
    FAILS(EMBER_ERR_SHAPE, "ember_concat", ember_concat(ctx, ab, 2, 1, O));
    T m = RUN(ember_concat(ctx, acd, 3, -1, O));  // float32, int8, uint8 -> float32
    EXPECT_TRUE(is(m, {2, 6}, {0, 1, 2, 10, 11, 200, 3, 4, 5, 12, 13, 201}, EMBER_FLOAT32));
    EXPECT_TRUE(is(RUN(ember_concat(ctx, cd, 2, 1, O)), {2, 3}, {10, 11, 200, 12, 13, 201}, EMBER_INT16));

    T p = make(V{1, 2, 3}, {3}, EMBER_INT32), q = make(V{4, 5, 6}, {3}, EMBER_INT32);
    const ember_tensor_t *pq[2] = {p, q}, *pa[2] = {p, a};
    EXPECT_TRUE(is(RUN(ember_stack(ctx, pq, 2, 0, O)), {2, 3}, {1, 2, 3, 4, 5, 6}));
    EXPECT_TRUE(is(RUN(ember_stack(ctx, pq, 2, -1, O)), {3, 2}, {1, 4, 2, 5, 3, 6}));
    FAILS(EMBER_ERR_SHAPE, "ember_stack", ember_stack(ctx, pa, 2, 0, O));

    T s = make(iota(12), {2, 6}, EMBER_FLOAT64);
    ember_tensor_t* parts[3] = {};
    EM_OK(ember_split(ctx, s, 3, nullptr, 0, 1, parts));
    T p0(parts[0]), p1(parts[1]), p2(parts[2]);
    EXPECT_TRUE(is(p1, {2, 2}, {2, 3, 8, 9}));
    EXPECT_EQ(contig(p1), 0);  // a view
    EXPECT_EQ(strides_of(p1), (I{6, 1}));
    const I cuts = {2, 5}, far = {2, 10};
    EM_OK(ember_split(ctx, s, 0, cuts.data(), 2, -1, parts));
    T q0(parts[0]), q1(parts[1]), q2(parts[2]);
    EXPECT_TRUE(is(q0, {2, 2}, {0, 1, 6, 7}));
    EXPECT_TRUE(is(q1, {2, 3}, {2, 3, 4, 8, 9, 10}));
    EXPECT_TRUE(is(q2, {2, 1}, {5, 11}));
    EM_OK(ember_split(ctx, s, 0, far.data(), 2, 1, parts));  // past the end: an empty last part
    T r0(parts[0]), r1(parts[1]), r2(parts[2]);
    EXPECT_TRUE(is(r1, {2, 4}, {2, 3, 4, 5, 8, 9, 10, 11}));
    EXPECT_TRUE(is(r2, {2, 0}, {}));
    EM_FAILS(ember_split(ctx, s, 4, nullptr, 0, 1, parts), EMBER_ERR_SHAPE, "ember_split");
}

TEST(ManipJoin, TileRepeatPadRoll) {
    ember_ctx_t* ctx = test_ctx();
    T x = make(V{1, 2, 3, 4}, {2, 2}, EMBER_INT32);
    const I r21 = {2, 1}, r2 = {2}, r211 = {2, 1, 1};
    EXPECT_TRUE(is(RUN(ember_tile(ctx, x, r21.data(), 2, O)), {4, 2}, {1, 2, 3, 4, 1, 2, 3, 4}));
    EXPECT_TRUE(is(RUN(ember_tile(ctx, x, r2.data(), 1, O)), {2, 4}, {1, 2, 1, 2, 3, 4, 3, 4}));
    EXPECT_TRUE(is(RUN(ember_tile(ctx, x, r211.data(), 3, O)), {2, 2, 2}, {1, 2, 3, 4, 1, 2, 3, 4}));
    EXPECT_TRUE(is(RUN(ember_tile(ctx, RUN(ember_transpose(ctx, x, O)), r2.data(), 1, O)), {2, 4}, {1, 3, 1, 3, 2, 4, 2, 4}));
    EXPECT_TRUE(is(RUN(ember_repeat(ctx, x, 2, 0, O)), {4, 2}, {1, 2, 1, 2, 3, 4, 3, 4}));
    EXPECT_TRUE(is(RUN(ember_repeat(ctx, x, 2, 1, O)), {2, 4}, {1, 1, 2, 2, 3, 3, 4, 4}));
    EXPECT_TRUE(is(RUN(ember_repeat(ctx, x, 2, EMBER_AXIS_NONE, O)), {8}, {1, 1, 2, 2, 3, 3, 4, 4}));
    EXPECT_TRUE(is(RUN(ember_repeat(ctx, x, 0, 0, O)), {0, 2}, {}));
    // pad: NumPy's results for the same arguments.
    struct P {
        V in;
        I shape, width;
        ember_pad_mode_t mode;
        I out_shape;
        V want;
    };
    const V m = {1, 2, 3, 4, 5, 6};
    const P pads[] = {
        {{1, 2, 3}, {3}, {2, 3}, EMBER_PAD_CONSTANT, {8}, {9, 9, 1, 2, 3, 9, 9, 9}},
        {{1, 2, 3}, {3}, {2, 3}, EMBER_PAD_EDGE, {8}, {1, 1, 1, 2, 3, 3, 3, 3}},
        {{1, 2, 3}, {3}, {2, 3}, EMBER_PAD_REFLECT, {8}, {3, 2, 1, 2, 3, 2, 1, 2}},
        {{1, 2, 3}, {3}, {2, 3}, EMBER_PAD_WRAP, {8}, {2, 3, 1, 2, 3, 1, 2, 3}},
        {{1, 2, 3}, {3}, {5, 0}, EMBER_PAD_REFLECT, {8}, {2, 1, 2, 3, 2, 1, 2, 3}},
        {m, {2, 3}, {1, 1, 2, 1}, EMBER_PAD_EDGE, {4, 6}, {1, 1, 1, 2, 3, 3, 1, 1, 1, 2, 3, 3, 4, 4, 4, 5, 6, 6, 4, 4, 4, 5, 6, 6}},
        {m, {2, 3}, {0, 1, 1, 2}, EMBER_PAD_WRAP, {3, 6}, {3, 1, 2, 3, 1, 2, 6, 4, 5, 6, 4, 5, 3, 1, 2, 3, 1, 2}},
        {m, {2, 3}, {1, 0, 0, 1}, EMBER_PAD_CONSTANT, {3, 4}, {9, 9, 9, 9, 1, 2, 3, 9, 4, 5, 6, 9}},
        {{1, 2, 3, 4}, {2, 2}, {1, 0, 0, 2}, EMBER_PAD_REFLECT, {3, 4}, {3, 4, 3, 4, 1, 2, 1, 2, 3, 4, 3, 4}},
    };
    for (auto& p : pads) {
        EXPECT_TRUE(is(RUN(ember_pad(ctx, make(p.in, p.shape, EMBER_INT32), p.width.data(), p.mode, 9, O)), p.out_shape, p.want, EMBER_INT32)) << "mode " << p.mode << " width[0] " << p.width[0];
    }
    const I neg = {-1, 0, 0, 0};
    FAILS(EMBER_ERR_INVALID_ARGUMENT, "ember_pad", ember_pad(ctx, x, neg.data(), EMBER_PAD_EDGE, 0, O));
    // roll: along an axis, flattened (axes NULL), and along several axes.
    T r = make(iota(6), {2, 3}, EMBER_INT64);
    const I one = {1}, ax1 = {1}, two = {2}, sh = {-1, 1}, axes01 = {0, 1};
    EXPECT_TRUE(is(RUN(ember_roll(ctx, r, one.data(), ax1.data(), 1, O)), {2, 3}, {2, 0, 1, 5, 3, 4}));
    EXPECT_TRUE(is(RUN(ember_roll(ctx, r, two.data(), nullptr, 1, O)), {2, 3}, {4, 5, 0, 1, 2, 3}));
    EXPECT_TRUE(is(RUN(ember_roll(ctx, r, sh.data(), axes01.data(), 2, O)), {2, 3}, {5, 3, 4, 2, 0, 1}));
}

// roll and the pad modes are block copies: against index formulas written here, for shifts
// and widths beyond the axis length (several chunks), negative shifts, a repeated axis
// (shifts add up), a transposed input, and empty and length-1 axes.
TEST(ManipShape, RollAndPadAgainstIndexFormulas) {
    ember_ctx_t* ctx = test_ctx();
    const I shape = {4, 5, 3};
    T x = make(iota(60), shape, EMBER_INT32), xt;
    const I perm = {2, 1, 0};
    EM_OK(ember_permute_dims(ctx, x, perm.data(), 3, xt.out()));
    auto wrap = [](int64_t i, int64_t n) { return ((i % n) + n) % n; };
    auto value = [](const I& sh, const I& st, const I& idx) {  // element idx of an iota with strides st
        double v = 0;
        for (size_t d = 0; d < sh.size(); ++d) v += (double)(idx[d] * st[d]);
        return v;
    };
    struct R {
        I shifts, axes;
    };
    const R rolls[] = {{{1}, {0}}, {{-7}, {1}}, {{13, -2}, {2, 0}}, {{2, 3}, {1, 1}}, {{4}, {0}}, {{0, 0, 0}, {0, 1, 2}}, {{-101, 9, 1}, {0, 1, 2}}};
    for (const ember_tensor_t* src : {(const ember_tensor_t*)x, (const ember_tensor_t*)xt}) {
        const I sh = shape_of(src), st = strides_of(src);
        for (const R& r : rolls) {
            I total(3, 0);
            for (size_t k = 0; k < r.axes.size(); ++k) total[(size_t)r.axes[k]] += r.shifts[k];
            V want;
            for (int64_t i = 0; i < sh[0]; ++i)
                for (int64_t j = 0; j < sh[1]; ++j)
                    for (int64_t k = 0; k < sh[2]; ++k) want.push_back(value(sh, st, {wrap(i - total[0], sh[0]), wrap(j - total[1], sh[1]), wrap(k - total[2], sh[2])}));
            EXPECT_TRUE(is(RUN(ember_roll(ctx, src, r.shifts.data(), r.axes.data(), (int)r.axes.size(), O)), sh, want, EMBER_INT32))
                << "roll by " << r.shifts[0] << " along " << r.axes[0] << (src == xt ? " transposed" : "");
        }
        for (int64_t s : {0, 1, -17, 61, 60 * 5 + 3}) {  // flattened, in C order of src
            V flat;
            for (int64_t i = 0; i < sh[0]; ++i)
                for (int64_t j = 0; j < sh[1]; ++j)
                    for (int64_t k = 0; k < sh[2]; ++k) flat.push_back(value(sh, st, {i, j, k}));
            V want(flat.size());
            for (int64_t i = 0; i < 60; ++i) want[(size_t)i] = flat[(size_t)wrap(i - s, 60)];
            EXPECT_TRUE(is(RUN(ember_roll(ctx, src, &s, nullptr, 1, O)), sh, want, EMBER_INT32)) << "flattened roll by " << s;
        }
    }
    const I empty_shape = {3, 0};
    T empty = make(V{}, empty_shape, EMBER_INT32);
    const I e_shift = {2, 5}, e_axes = {0, 1};
    EXPECT_TRUE(is(RUN(ember_roll(ctx, empty, e_shift.data(), e_axes.data(), 2, O)), empty_shape, {}, EMBER_INT32));
    EXPECT_TRUE(is(RUN(ember_roll(ctx, empty, e_shift.data(), nullptr, 1, O)), empty_shape, {}, EMBER_INT32));
    FAILS(EMBER_ERR_INVALID_ARGUMENT, "ember_roll", ember_roll(ctx, x, e_shift.data(), e_axes.data(), -1, O));
    // Six shifted axes (more than one pass of block copies) and the extreme shifts.
    const I six = {2, 3, 2, 3, 2, 2};
    T y = make(iota(144), six, EMBER_INT32);
    const I six_shifts = {1, -1, INT64_MIN, INT64_MAX, 3, -5}, six_axes = {0, 1, 2, 3, 4, 5};
    V want6(144);
    for (int64_t i = 0; i < 144; ++i) {  // want6[i] = y[index of i shifted back]
        int64_t rest = i, src = 0, scale = 1;
        I idx(6);
        for (int d = 5; d >= 0; --d) idx[(size_t)d] = rest % six[(size_t)d], rest /= six[(size_t)d];
        for (int d = 5; d >= 0; --d) {
            const int64_t n = six[(size_t)d], sh = six_shifts[(size_t)d] % n;
            src += wrap(idx[(size_t)d] - sh, n) * scale;
            scale *= n;
        }
        want6[(size_t)i] = (double)src;
    }
    EXPECT_TRUE(is(RUN(ember_roll(ctx, y, six_shifts.data(), six_axes.data(), 6, O)), six, want6, EMBER_INT32)) << "roll along six axes";

    // pad: widths (before, after) per axis; the source index of each output position.
    auto source = [&](int64_t i, int64_t n, ember_pad_mode_t mode) -> int64_t {
        if (i >= 0 && i < n) return i;
        if (mode == EMBER_PAD_CONSTANT) return -1;
        if (mode == EMBER_PAD_EDGE || n == 1) return std::min<int64_t>(std::max<int64_t>(i, 0), n - 1);
        if (mode == EMBER_PAD_WRAP) return wrap(i, n);
        const int64_t j = wrap(i, 2 * (n - 1));  // reflect: period 2(n - 1)
        return j >= n ? 2 * (n - 1) - j : j;
    };
    const I widths[] = {{0, 0, 0, 0}, {1, 2, 3, 0}, {9, 4, 0, 13}, {2, 2, 2, 2}, {0, 11, 6, 1}};
    for (const I& in_shape : {I{3, 4}, I{1, 5}, I{6, 2}}) {
        T m0 = make(iota((int)(in_shape[0] * in_shape[1]), 1), in_shape, EMBER_INT32), m;
        EM_OK(ember_matrix_transpose(ctx, m0, m.out()));  // a transposed input as well
        for (const ember_tensor_t* src : {(const ember_tensor_t*)m0, (const ember_tensor_t*)m}) {
            const I sh = shape_of(src), st = strides_of(src);
            for (const I& w : widths)
                for (ember_pad_mode_t mode : {EMBER_PAD_CONSTANT, EMBER_PAD_EDGE, EMBER_PAD_REFLECT, EMBER_PAD_WRAP}) {
                    const I out_shape = {sh[0] + w[0] + w[1], sh[1] + w[2] + w[3]};
                    V want;
                    for (int64_t i = 0; i < out_shape[0]; ++i)
                        for (int64_t j = 0; j < out_shape[1]; ++j) {
                            const int64_t a = source(i - w[0], sh[0], mode), b = source(j - w[2], sh[1], mode);
                            want.push_back(a < 0 || b < 0 ? -5.0 : 1 + value(sh, st, {a, b}));
                        }
                    EXPECT_TRUE(is(RUN(ember_pad(ctx, src, w.data(), mode, -5, O)), out_shape, want, EMBER_INT32))
                        << "pad mode " << mode << " of (" << sh[0] << ", " << sh[1] << ") widths " << w[0] << " " << w[1] << " " << w[2] << " " << w[3];
                }
        }
    }
    const I pad_empty = {1, 1, 0, 0};
    for (ember_pad_mode_t mode : {EMBER_PAD_CONSTANT, EMBER_PAD_REFLECT})  // the padded axis is not the empty one
        EXPECT_TRUE(is(RUN(ember_pad(ctx, empty, pad_empty.data(), mode, 7, O)), {5, 0}, {}, EMBER_INT32));
    const I pad_cols = {0, 0, 1, 1};
    FAILS(EMBER_ERR_SHAPE, "ember_pad", ember_pad(ctx, empty, pad_cols.data(), EMBER_PAD_WRAP, 0, O));
    FAILS(EMBER_ERR_INVALID_ARGUMENT, "ember_pad", ember_pad(ctx, x, widths[1].data(), (ember_pad_mode_t)17, 0, O));
    const I huge = {INT64_MAX, INT64_MAX, 0, 0, 0, 0};
    FAILS(EMBER_ERR_INVALID_ARGUMENT, "ember_pad", ember_pad(ctx, x, huge.data(), EMBER_PAD_WRAP, 0, O));
    const I wide_empty = {0, 0, 1000000000, 0};  // an empty result: nothing to copy, however wide
    EXPECT_TRUE(is(RUN(ember_pad(ctx, make(V{}, {0, 2}, EMBER_INT32), wide_empty.data(), EMBER_PAD_REFLECT, 0, O)), {0, 1000000002}, {}, EMBER_INT32));
    EXPECT_TRUE(is(RUN(ember_pad(ctx, make(V{4}, {}, EMBER_INT32), nullptr, EMBER_PAD_EDGE, 0, O)), {}, {4}, EMBER_INT32));
}

// ---------------------------------------------------------------- indexing
TEST(ManipIndex, TakeAndTakeAlongAxis) {
    ember_ctx_t* ctx = test_ctx();
    T x = make(iota(12), {3, 4}, EMBER_FLOAT32);
    EXPECT_TRUE(is(RUN(ember_take(ctx, x, make(V{2, 0, 1, -1}, {2, 2}, EMBER_INT32), 0, O)), {2, 2, 4},
                   {8, 9, 10, 11, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}));
    EXPECT_TRUE(is(RUN(ember_take(ctx, x, make(V{3, 0}, {2}, EMBER_UINT8), 1, O)), {3, 2}, {3, 0, 7, 4, 11, 8}));
    T fl = make(V{11, 0, 5}, {3}, EMBER_INT64);
    EXPECT_TRUE(is(RUN(ember_take(ctx, x, fl, EMBER_AXIS_NONE, O)), {3}, {11, 0, 5}));
    FAILS(EMBER_ERR_INDEX, "ember_take", ember_take(ctx, x, make(V{3}, {1}, EMBER_INT64), 0, O));
    FAILS(EMBER_ERR_UNSUPPORTED_DTYPE, "ember_take", ember_take(ctx, x, make(V{1}, {1}, EMBER_FLOAT32), 0, O));

    T v = make(V{10, 30, 20, 60, 40, 50}, {2, 3}, EMBER_INT16);
    EXPECT_TRUE(is(RUN(ember_take_along_axis(ctx, v, make(V{1, 2, 0, 0, 0, 2}, {2, 3}, EMBER_INT64), 1, O)), {2, 3}, {30, 20, 10, 60, 60, 50}, EMBER_INT16));
    EXPECT_TRUE(is(RUN(ember_take_along_axis(ctx, v, make(V{2, 0}, {1, 2}, EMBER_INT64), -1, O)), {2, 2}, {20, 10, 50, 60}));
    EXPECT_TRUE(is(RUN(ember_take_along_axis(ctx, v, make(V{1, 0, 1}, {1, 3}, EMBER_INT64), 0, O)), {1, 3}, {60, 30, 50}));
    FAILS(EMBER_ERR_INDEX, "ember_take_along_axis", ember_take_along_axis(ctx, v, make(V{3}, {1, 1}, EMBER_INT64), 1, O));
    FAILS(EMBER_ERR_SHAPE, "ember_take_along_axis", ember_take_along_axis(ctx, v, fl, 1, O));
}

TEST(ManipIndex, Scatter) {
    ember_ctx_t* ctx = test_ctx();
    // src rows [1 2] [3 4] [5 6] [7 8] go to rows 0, 2, 0, 1.
    T src = make(iota(8, 1), {4, 2}, EMBER_FLOAT32), idx = make(V{0, 2, 0, 1}, {4}, EMBER_INT64);
    const std::pair<ember_scatter_reduce_t, V> cases[] = {{EMBER_SCATTER_ADD, {6, 8, 7, 8, 3, 4}},
                                                          {EMBER_SCATTER_MEAN, {3, 4, 7, 8, 3, 4}},
                                                          {EMBER_SCATTER_MAX, {5, 6, 7, 8, 3, 4}},
                                                          {EMBER_SCATTER_MIN, {1, 2, 7, 8, 3, 4}}};
    for (auto& c : cases)
        for (int64_t dim : {3, -1}) {
            EXPECT_TRUE(is(RUN(ember_scatter(ctx, src, idx, 0, dim, c.first, O)), {3, 2}, c.second, EMBER_FLOAT32)) << "reduce " << c.first << " dim_size " << dim;
        }
    T perm = make(V{0, 2, 3, 1}, {4}, EMBER_INT32);
    EXPECT_TRUE(is(RUN(ember_scatter(ctx, src, perm, 0, -1, EMBER_SCATTER_REPLACE, O)), {4, 2}, {1, 2, 7, 8, 3, 4, 5, 6}));
    EXPECT_TRUE(is(RUN(ember_scatter(ctx, src, perm, 0, 5, EMBER_SCATTER_REPLACE, O)), {5, 2}, {1, 2, 7, 8, 3, 4, 5, 6, 0, 0}));
    T s2 = make(V{1, 2, 3, 4, 5, 6}, {2, 3}, EMBER_INT32), i3 = make(V{1, 1, 0}, {3}, EMBER_INT64);
    EXPECT_TRUE(is(RUN(ember_scatter(ctx, s2, i3, 1, 2, EMBER_SCATTER_ADD, O)), {2, 2}, {3, 3, 6, 9}, EMBER_INT32));
    FAILS(EMBER_ERR_INDEX, "ember_scatter", ember_scatter(ctx, src, perm, 0, 3, EMBER_SCATTER_ADD, O));
    FAILS(EMBER_ERR_SHAPE, "ember_scatter", ember_scatter(ctx, src, i3, 0, 3, EMBER_SCATTER_ADD, O));
}

TEST(ManipIndex, OneHotNonzero) {
    ember_ctx_t* ctx = test_ctx();
    T i = make(V{0, 2, 1, 3}, {2, 2}, EMBER_INT32);
    EXPECT_TRUE(is(RUN(ember_one_hot(ctx, i, 4, EMBER_DTYPE_DEFAULT, O)), {2, 2, 4}, {1, 0, 0, 0, 0, 0, 1, 0, 0, 1, 0, 0, 0, 0, 0, 1}, EMBER_FLOAT32));
    EXPECT_EQ(dtype_of(RUN(ember_one_hot(ctx, i, 4, EMBER_INT8, O))), EMBER_INT8);
    // Unsigned indices (uint64 has no common integer dtype with the int64 positions)
    for (ember_dtype_t it : {EMBER_UINT64, EMBER_UINT8})
        EXPECT_TRUE(is(RUN(ember_one_hot(ctx, make(V{1, 0, 3, 5}, {4}, it), 4, EMBER_DTYPE_DEFAULT, O)), {4, 4},
                       {0, 1, 0, 0, 1, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0}, EMBER_FLOAT32))
            << ember_dtype_name(it);
    FAILS(EMBER_ERR_UNSUPPORTED_DTYPE, "ember_one_hot", ember_one_hot(ctx, make(V{1}, {1}, EMBER_FLOAT32), 3, EMBER_DTYPE_DEFAULT, O));
    // Indices outside [0, depth) give a zero row; a 0-d index, a view, empty, depth 0.
    T j = make(V{-1, 4, 2, 9, 0}, {5}, EMBER_INT64);
    EXPECT_TRUE(is(RUN(ember_one_hot(ctx, j, 4, EMBER_FLOAT64, O)), {5, 4}, {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 1, 0, 0, 0}, EMBER_FLOAT64));
    EXPECT_TRUE(is(RUN(ember_one_hot(ctx, make(V{2}, {}, EMBER_UINT8), 3, EMBER_BOOL, O)), {3}, {0, 0, 1}, EMBER_BOOL));
    EXPECT_TRUE(is(RUN(ember_one_hot(ctx, RUN(ember_transpose(ctx, i, O)), 4, EMBER_INT32, O)), {2, 2, 4}, {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1}, EMBER_INT32));
    EXPECT_TRUE(is(RUN(ember_one_hot(ctx, make(V{}, {0, 2}, EMBER_INT32), 3, EMBER_DTYPE_DEFAULT, O)), {0, 2, 3}, {}));
    EXPECT_TRUE(is(RUN(ember_one_hot(ctx, i, 0, EMBER_DTYPE_DEFAULT, O)), {2, 2, 0}, {}));

    T x = make(V{0, 1, 0, 2, 0, 3}, {2, 3}, EMBER_FLOAT32);
    EXPECT_TRUE(is(RUN(ember_nonzero(ctx, x, O)), {3, 2}, {0, 1, 1, 0, 1, 2}, EMBER_INT64));
    EXPECT_TRUE(is(RUN(ember_nonzero(ctx, RUN(ember_transpose(ctx, x, O)), O)), {3, 2}, {0, 1, 1, 0, 2, 1}));  // view order
    EXPECT_TRUE(is(RUN(ember_nonzero(ctx, make(V{1, 0, 1}, {3}, EMBER_BOOL), O)), {2, 1}, {0, 2}));
    EXPECT_TRUE(is(RUN(ember_nonzero(ctx, make(V{0, 0}, {2}, EMBER_INT8), O)), {0, 1}, {}));
}

TEST(ManipRegression, NonzeroOfImaginaryOnlyComplex) {
    T z = make_c({C(0, 1), C(0, 0), C(2, 0)}, {3}, EMBER_COMPLEX64);
    EXPECT_TRUE(is(RUN(ember_nonzero(test_ctx(), z, O)), {2, 1}, {0, 2}));
}

// ---------------------------------------------------------------- sort
TEST(ManipSort, SortArgsort) {
    ember_ctx_t* ctx = test_ctx();
    T x = make(V{3, 1, NaN, 1, 2}, {5}, EMBER_FLOAT64);
    EXPECT_TRUE(is(RUN(ember_sort(ctx, x, 0, 0, O)), {5}, {1, 1, 2, 3, NaN}));  // NaN last ascending
    EXPECT_TRUE(is(RUN(ember_argsort(ctx, x, 0, 0, O)), {5}, {1, 3, 4, 0, 2}, EMBER_INT64));
    EXPECT_TRUE(is(RUN(ember_sort(ctx, x, -1, 1, O)), {5}, {NaN, 3, 2, 1, 1}));
    EXPECT_TRUE(is(RUN(ember_argsort(ctx, x, 0, 1, O)), {5}, {2, 0, 4, 1, 3}));  // stable: the 1s keep order
    // Random 2-d inputs with many ties, along each axis, against std::stable_sort.
    std::mt19937 rng(11);
    for (ember_dtype_t d : {EMBER_INT8, EMBER_UINT16, EMBER_FLOAT16, EMBER_FLOAT32, EMBER_BOOL}) {
        V v = rand_v(rng, 20, d == EMBER_UINT16 || d == EMBER_BOOL ? 0 : -2, 2);
        for (auto& e : v) e = d == EMBER_BOOL ? (e != 0) : d == EMBER_FLOAT16 || d == EMBER_FLOAT32 ? e : std::round(e);
        T t = make(v, {4, 5}, d);
        for (int64_t axis : {0, 1})
            for (int desc = 0; desc < 2; ++desc) {
                V ws(20), wa(20);
                int n = axis ? 5 : 4;
                for (int l = 0; l < (axis ? 4 : 5); ++l) {
                    auto pos = [&](int k) { return (size_t)(axis ? l * 5 + k : k * 5 + l); };
                    std::vector<int> ord((size_t)n);
                    std::iota(ord.begin(), ord.end(), 0);
                    std::stable_sort(ord.begin(), ord.end(), [&](int p, int q) { return desc ? v[pos(p)] > v[pos(q)] : v[pos(p)] < v[pos(q)]; });
                    for (int k = 0; k < n; ++k) ws[pos(k)] = v[pos(ord[(size_t)k])], wa[pos(k)] = ord[(size_t)k];
                }
                EXPECT_TRUE(is(RUN(ember_sort(ctx, t, axis, desc, O)), {4, 5}, ws, d)) << ember_dtype_name(d) << " axis " << axis << " desc " << desc;
                EXPECT_TRUE(is(RUN(ember_argsort(ctx, t, axis, desc, O)), {4, 5}, wa)) << ember_dtype_name(d) << " axis " << axis;
            }
    }
    FAILS(EMBER_ERR_SHAPE, "ember_sort", ember_sort(ctx, make(V{1}, {}, EMBER_FLOAT32), 0, 0, O));
    FAILS(EMBER_ERR_INDEX, "ember_argsort", ember_argsort(ctx, x, 1, 0, O));
}

// ---------------------------------------------------------------- conversion and assignment
TEST(ManipConvert, Astype) {
    ember_ctx_t* ctx = test_ctx();
    T f = make(V{300, -300, 1e20, -1e20, NaN, 2.7, -2.7, Inf}, {8}, EMBER_FLOAT32);
    const double i64max = 9223372036854775807.0, i64min = -9223372036854775808.0;
    const std::pair<ember_dtype_t, V> sat[] = {  // saturate, NaN -> 0, round toward zero
        {EMBER_INT8, {127, -128, 127, -128, 0, 2, -2, 127}},
        {EMBER_UINT8, {255, 0, 255, 0, 0, 2, 0, 255}},
        {EMBER_INT32, {300, -300, 2147483647, -2147483648.0, 0, 2, -2, 2147483647}},
        {EMBER_INT64, {300, -300, i64max, i64min, 0, 2, -2, i64max}},
        {EMBER_BOOL, {1, 1, 1, 1, 1, 1, 1, 1}},
    };
    for (auto& c : sat) EXPECT_TRUE(is(RUN(ember_astype(ctx, f, c.first, O)), {8}, c.second, c.first)) << ember_dtype_name(c.first);
    T z = make_c({C(1.5, 2), C(-3.25, -4)}, {2}, EMBER_COMPLEX64);
    EXPECT_TRUE(is(RUN(ember_astype(ctx, z, EMBER_FLOAT64, O)), {2}, {1.5, -3.25}));  // the real part
    EXPECT_TRUE(is(RUN(ember_astype(ctx, z, EMBER_INT32, O)), {2}, {1, -3}));
    EXPECT_TRUE(is(RUN(ember_astype(ctx, make(V{0, 0.5, -1, 0}, {4}, EMBER_FLOAT64), EMBER_BOOL, O)), {4}, {0, 1, 1, 0}));
    // float32 -> float16 / bfloat16: nearest even, overflow to inf, subnormals.
    const std::vector<float> h = {1 + 0x1p-11f, 1 + 3 * 0x1p-11f, 65520.f, 65519.f, 0x1p-24f, 0x1p-25f, 3 * 0x1p-25f, -1e-9f};
    const std::vector<float> bh = {1 + 0x1p-8f, 1 + 3 * 0x1p-8f, 3e38f};
    int64_t nh = (int64_t)h.size(), nb = (int64_t)bh.size();
    T th, tb;
    EM_OK(ember_tensor_from_data(ctx, h.data(), EMBER_FLOAT32, &nh, 1, th.out()));
    EM_OK(ember_tensor_from_data(ctx, bh.data(), EMBER_FLOAT32, &nb, 1, tb.out()));
    EXPECT_TRUE(is(RUN(ember_astype(ctx, th, EMBER_FLOAT16, O)), {nh}, {1, 1 + 0x1p-9, Inf, 65504, 0x1p-24, 0, 0x1p-23, -0.0}));
    EXPECT_TRUE(is(RUN(ember_astype(ctx, tb, EMBER_BFLOAT16, O)), {nb}, {1, 1 + 0x1p-6, 3.00405527047391e+38}));
    // Integer to integer wraps; bool and ints to float / complex.
    EXPECT_TRUE(is(RUN(ember_astype(ctx, make(V{-1, 300}, {2}, EMBER_INT16), EMBER_UINT8, O)), {2}, {255, 44}));
    EXPECT_TRUE(is(RUN(ember_astype(ctx, make(V{1, 0}, {2}, EMBER_BOOL), EMBER_FLOAT16, O)), {2}, {1, 0}));
    EXPECT_EQ(values_c(RUN(ember_astype(ctx, make(V{1, -2}, {2}, EMBER_INT8), EMBER_COMPLEX128, O))), (std::vector<C>{C(1, 0), C(-2, 0)}));
    FAILS(EMBER_ERR_INVALID_ARGUMENT, "ember_astype", ember_astype(ctx, f, (ember_dtype_t)99, O));
}

TEST(ManipConvert, AssignFromAnOverlappingViewUsesTheOriginalValues) {
    // NumPy: x[1:] = x[:-1] shifts, y[...] = y.T transposes; an element-by-element copy
    // would read values it has already overwritten.
    ember_ctx_t* ctx = test_ctx();
    const I s0 = {0}, s1 = {1}, e_last = {-1}, end = {END}, one = {1};
    T x = make(iota(6), {6}, EMBER_FLOAT32);
    EM_OK(ember_assign(ctx, RUN(ember_slice(ctx, x, s1.data(), end.data(), one.data(), 1, O)),
                       RUN(ember_slice(ctx, x, s0.data(), e_last.data(), one.data(), 1, O))));
    EXPECT_TRUE(is(x, {6}, {0, 0, 1, 2, 3, 4}, EMBER_FLOAT32));
    EM_OK(ember_assign(ctx, RUN(ember_slice(ctx, x, s0.data(), e_last.data(), one.data(), 1, O)),
                       RUN(ember_slice(ctx, x, s1.data(), end.data(), one.data(), 1, O))));
    EXPECT_TRUE(is(x, {6}, {0, 1, 2, 3, 4, 4}, EMBER_FLOAT32));
    T y = make(iota(9), {3, 3}, EMBER_INT64);
    EM_OK(ember_assign(ctx, y, RUN(ember_transpose(ctx, y, O))));
    EXPECT_TRUE(is(y, {3, 3}, {0, 3, 6, 1, 4, 7, 2, 5, 8}, EMBER_INT64));
    // A broadcast row of y itself into all of y.
    EM_OK(ember_assign(ctx, y, RUN(ember_select(ctx, y, 0, 1, O))));
    EXPECT_TRUE(is(y, {3, 3}, {1, 4, 7, 1, 4, 7, 1, 4, 7}, EMBER_INT64));
}

TEST(ManipConvert, CopyAssignWhereClip) {
    ember_ctx_t* ctx = test_ctx();
    T x = make(iota(6), {2, 3}, EMBER_FLOAT64), c = RUN(ember_copy(ctx, RUN(ember_transpose(ctx, x, O)), O));
    EXPECT_EQ(contig(c), 1);
    EXPECT_TRUE(is(c, {3, 2}, {0, 3, 1, 4, 2, 5}));
    EM_OK(ember_assign(ctx, x, weak(9)));  // the copy does not share x's storage
    EXPECT_TRUE(is(c, {3, 2}, {0, 3, 1, 4, 2, 5}));

    T base = make(V(12, 0), {3, 4}, EMBER_FLOAT64);
    const I st = {0}, sp = {END}, step = {2};
    EM_OK(ember_assign(ctx, RUN(ember_select(ctx, base, 1, 1, O)), weak(7)));
    T rows = RUN(ember_slice(ctx, base, st.data(), sp.data(), step.data(), 1, O));
    EM_OK(ember_assign(ctx, rows, make(V{1, 2, 3, 4}, {4}, EMBER_INT32)));  // broadcast and convert
    EXPECT_TRUE(is(base, {3, 4}, {1, 2, 3, 4, 0, 7, 0, 0, 1, 2, 3, 4}));
    EM_FAILS(ember_assign(ctx, rows, make(V{1, 2, 3}, {3}, EMBER_INT32)), EMBER_ERR_SHAPE, "ember_assign");
    // leading axes of length 1 beyond dst's are dropped, as in NumPy; other extra axes fail
    EM_OK(ember_assign(ctx, rows, make(V{5, 6, 7, 8}, {1, 1, 4}, EMBER_INT32)));
    EXPECT_TRUE(is(base, {3, 4}, {5, 6, 7, 8, 0, 7, 0, 0, 5, 6, 7, 8}));
    EM_OK(ember_assign(ctx, RUN(ember_select(ctx, base, 0, 1, O)), make(V{9, 8, 7, 6}, {1, 4}, EMBER_FLOAT64)));
    EXPECT_TRUE(is(base, {3, 4}, {5, 6, 7, 8, 9, 8, 7, 6, 5, 6, 7, 8}));
    EM_FAILS(ember_assign(ctx, RUN(ember_select(ctx, base, 0, 1, O)), make(V{1, 2, 3, 4, 5, 6, 7, 8}, {2, 4}, EMBER_INT32)),
             EMBER_ERR_SHAPE, "ember_assign");
    // An empty dst still checks the shapes (NumPy: x[0:0] = [] fails for rows of 4).
    T no_rows = make(V{}, {0, 4}, EMBER_FLOAT32);
    EM_FAILS(ember_assign(ctx, no_rows, make(V{}, {0}, EMBER_FLOAT32)), EMBER_ERR_SHAPE, "ember_assign");
    EM_FAILS(ember_assign(ctx, no_rows, make(V{1, 2}, {2, 1}, EMBER_FLOAT32)), EMBER_ERR_SHAPE, "ember_assign");
    EM_OK(ember_assign(ctx, no_rows, make(V{1, 2, 3, 4}, {1, 1, 4}, EMBER_FLOAT32)));
    EM_OK(ember_assign(ctx, no_rows, make(V{}, {0, 1}, EMBER_FLOAT32)));

    T cond = make(V{1, 0, 1}, {3, 1}, EMBER_BOOL), a = make(V{1, 2, 3, 4}, {1, 4}, EMBER_INT8);
    EXPECT_TRUE(is(RUN(ember_where(ctx, cond, a, weak(0.5), O)), {3, 4}, {1, 2, 3, 4, 0.5, 0.5, 0.5, 0.5, 1, 2, 3, 4}, EMBER_FLOAT32));
    T f32 = make(V{1, 2}, {2}, EMBER_FLOAT32), f64 = make(V{-1, -2}, {2}, EMBER_FLOAT64);
    T w2 = RUN(ember_where(ctx, make(V{2, 0}, {2}, EMBER_INT32), f32, f64, O));  // non-bool condition
    EXPECT_TRUE(is(w2, {2}, {1, -2}, EMBER_FLOAT64));
    FAILS(EMBER_ERR_SHAPE, "ember_where", ember_where(ctx, make(V{1, 0, 1}, {3}, EMBER_BOOL), f32, f64, O));

    T v = make(V{-2, -1, 0, 1, 2}, {5}, EMBER_FLOAT32), lo = make(V{-1}, {}, EMBER_FLOAT32), hi = make(V{1.5}, {}, EMBER_FLOAT32);
    EXPECT_TRUE(is(RUN(ember_clip(ctx, v, lo, hi, O)), {5}, {-1, -1, 0, 1, 1.5}));
    EXPECT_TRUE(is(RUN(ember_clip(ctx, v, nullptr, hi, O)), {5}, {-2, -1, 0, 1, 1.5}));
    EXPECT_TRUE(is(RUN(ember_clip(ctx, v, lo, nullptr, O)), {5}, {-1, -1, 0, 1, 2}));
    EXPECT_TRUE(is(RUN(ember_clip(ctx, v, nullptr, nullptr, O)), {5}, {-2, -1, 0, 1, 2}));
    EXPECT_TRUE(is(RUN(ember_clip(ctx, make(V{-100, 5, 100}, {3}, EMBER_INT8), make(V{0, 6, 0}, {3}, EMBER_INT8), weak(50.7), O)), {3}, {0, 6, 50}, EMBER_INT8));

    T p = make(V{1, 1 + 1e-6, NaN, Inf, 1, -Inf}, {6}, EMBER_FLOAT64), q = make(V{1, 1, NaN, Inf, 2, Inf}, {6}, EMBER_FLOAT64);
    T ic = RUN(ember_isclose(ctx, p, q, 0, 1.5, 0, O));  // atol alone
    EXPECT_TRUE(is(ic, {6}, {1, 1, 0, 1, 1, 0}, EMBER_BOOL));
    T p5 = make(V{1, 1 + 1e-6, NaN, Inf, 1}, {5}, EMBER_FLOAT64), q5 = make(V{1, 1, NaN, Inf, 2}, {5}, EMBER_FLOAT64);
    EXPECT_TRUE(is(RUN(ember_isclose(ctx, p5, q5, 1e-5, 0, 0, O)), {5}, {1, 1, 0, 1, 0}));
    EXPECT_TRUE(is(RUN(ember_isclose(ctx, p5, q5, 1e-5, 0, 1, O)), {5}, {1, 1, 1, 1, 0}));  // equal_nan
    int all = -1;
    EM_OK(ember_allclose(ctx, p5, q5, 1e-5, 0, 1, &all));
    EXPECT_EQ(all, 0);
    EM_OK(ember_allclose(ctx, make(V{1, 2}, {2}, EMBER_INT32), make(V{1, 2 + 1e-9}, {2}, EMBER_FLOAT64), 1e-8, 0, 0, &all));
    EXPECT_EQ(all, 1);

    EXPECT_TRUE(all_close(values(RUN(ember_round_decimals(ctx, make(V{1.2345, 2.5, -0.125, 0.5}, {4}, EMBER_FLOAT64), 2, O))),
                          {1.23, 2.5, -0.12, 0.5}, 1e-12));
    T ri = RUN(ember_round_decimals(ctx, make(V{15, 25, 35, -25}, {4}, EMBER_INT32), -1, O));
    EXPECT_TRUE(is(ri, {4}, {20, 20, 40, -20}, EMBER_INT32));  // half to even
    EXPECT_TRUE(is(RUN(ember_round_decimals(ctx, make(V{0.5, 1.5, 2.5}, {3}, EMBER_FLOAT32), 0, O)), {3}, {0, 2, 2}));
}

TEST(ManipRegression, IscloseWithInfiniteB) {  // NumPy: b must be finite unless a == b
    T a = make(V{1, -Inf, Inf}, {3}, EMBER_FLOAT64), b = make(V{Inf, Inf, Inf}, {3}, EMBER_FLOAT64);
    EXPECT_TRUE(is(RUN(ember_isclose(test_ctx(), a, b, 1e-5, 1e-8, 0, O)), {3}, {0, 0, 1}));
}

// ---------------------------------------------------------------- linear algebra
TEST(ManipLinalg, Matmul) {
    ember_ctx_t* ctx = test_ctx();
    std::mt19937 rng(21);
    V a = rand_v(rng, 6), b = rand_v(rng, 12);
    for (ember_dtype_t d : {EMBER_FLOAT32, EMBER_FLOAT64, EMBER_FLOAT16, EMBER_INT32, EMBER_INT8, EMBER_UINT8}) {
        V aa = a, bb = b;
        if (d != EMBER_FLOAT32 && d != EMBER_FLOAT64 && d != EMBER_FLOAT16)
            for (auto* v : {&aa, &bb})
                for (auto& e : *v) e = std::fabs(std::round(e));
        EXPECT_TRUE(near(RUN(ember_matmul(ctx, make(aa, {2, 3}, d), make(bb, {3, 4}, d), O)), {2, 4}, mm(aa, bb, 2, 3, 4),
                         d == EMBER_FLOAT16 ? 1e-3 : 1e-6, d))
            << ember_dtype_name(d);
    }
    V at(6);  // A given as the (non-contiguous) transpose of a (3, 2) tensor
    for (int i = 0; i < 2; ++i)
        for (int k = 0; k < 3; ++k) at[(size_t)(k * 2 + i)] = a[(size_t)(i * 3 + k)];
    T A = make(a, {2, 3}, EMBER_FLOAT64), B = make(b, {3, 4}, EMBER_FLOAT64);
    EXPECT_TRUE(near(RUN(ember_matmul(ctx, RUN(ember_transpose(ctx, make(at, {3, 2}, EMBER_FLOAT64), O)), B, O)), {2, 4}, mm(a, b, 2, 3, 4), 1e-12));
    // Batched with broadcasting: (2, 1, 2, 3) @ (3, 3, 4) -> (2, 3, 2, 4).
    V ba = rand_v(rng, 12), bb = rand_v(rng, 36), want;
    T BA = make(ba, {2, 1, 2, 3}, EMBER_FLOAT64);
    for (int i = 0; i < 2; ++i)
        for (int j = 0; j < 3; ++j) {
            V r = mm(V(ba.begin() + i * 6, ba.begin() + i * 6 + 6), V(bb.begin() + j * 12, bb.begin() + j * 12 + 12), 2, 3, 4);
            want.insert(want.end(), r.begin(), r.end());
        }
    EXPECT_TRUE(near(RUN(ember_matmul(ctx, BA, make(bb, {3, 3, 4}, EMBER_FLOAT64), O)), I{2, 3, 2, 4}, want, 1e-12));
    // 1-d operands.
    T v3 = make(V{1, 2, 3}, {3}, EMBER_FLOAT64);
    EXPECT_TRUE(near(RUN(ember_matmul(ctx, v3, B, O)), I{4}, mm({1, 2, 3}, b, 1, 3, 4), 1e-12));
    EXPECT_TRUE(near(RUN(ember_matmul(ctx, A, v3, O)), I{2}, mm(a, {1, 2, 3}, 2, 3, 1), 1e-12));
    EXPECT_TRUE(is(RUN(ember_matmul(ctx, v3, v3, O)), {}, {14}));
    // Mixed dtypes promote; complex has no conjugation; k = 0 gives zeros.
    EXPECT_TRUE(is(RUN(ember_matmul(ctx, make(V{1, 2}, {1, 2}, EMBER_INT8), make(V{0.5, 0.25}, {2, 1}, EMBER_FLOAT32), O)), {1, 1}, {1}, EMBER_FLOAT32));
    T y = RUN(ember_matmul(ctx, make_c({C(1, 1), C(2, -1)}, {1, 2}, EMBER_COMPLEX64), make_c({C(0, 1), C(3, 0)}, {2, 1}, EMBER_COMPLEX64), O));
    EXPECT_EQ(dtype_of(y), EMBER_COMPLEX64);
    EXPECT_EQ(values_c(y), std::vector<C>{C(5, -2)});  // (1+i)i + (2-i)3
    EXPECT_TRUE(is(RUN(ember_matmul(ctx, make(V{}, {2, 0}, EMBER_FLOAT32), make(V{}, {0, 3}, EMBER_FLOAT32), O)), {2, 3}, V(6, 0)));
    FAILS(EMBER_ERR_SHAPE, "ember_matmul", ember_matmul(ctx, A, make(V(20, 1), {4, 5}, EMBER_FLOAT64), O));
    EXPECT_NE(std::string(ember_last_error()).find("not aligned"), std::string::npos) << ember_last_error();
    FAILS(EMBER_ERR_SHAPE, "ember_matmul", ember_matmul(ctx, make(V{1}, {}, EMBER_FLOAT64), A, O));
    FAILS(EMBER_ERR_SHAPE, "ember_matmul", ember_matmul(ctx, BA, make(V(36, 1), {3, 2, 3, 2}, EMBER_FLOAT64), O));
    FAILS(EMBER_ERR_UNSUPPORTED_DTYPE, "ember_matmul", ember_matmul(ctx, make(V{1, 0}, {1, 2}, EMBER_BOOL), make(V{1, 0}, {2, 1}, EMBER_BOOL), O));
}

TEST(ManipLinalg, DotTensordotOuterVecdotTrace) {
    ember_ctx_t* ctx = test_ctx();
    std::mt19937 rng(31);
    EXPECT_TRUE(is(RUN(ember_dot(ctx, make(V{1, 2, 3}, {3}, EMBER_INT32), make(V{4, 5, 6}, {3}, EMBER_INT32), O)), {}, {32}));
    EXPECT_TRUE(is(RUN(ember_dot(ctx, make(V{2}, {}, EMBER_FLOAT32), make(V{1, 2}, {2}, EMBER_FLOAT32), O)), {2}, {2, 4}));
    V a = rand_v(rng, 6), b = rand_v(rng, 60), want;  // N-d dot: last axis of a with second-to-last of b
    for (int i = 0; i < 2; ++i)
        for (int j = 0; j < 4; ++j)
            for (int k = 0; k < 5; ++k) {
                double s = 0;
                for (int l = 0; l < 3; ++l) s += a[(size_t)(i * 3 + l)] * b[(size_t)(j * 15 + l * 5 + k)];
                want.push_back(s);
            }
    EXPECT_TRUE(near(RUN(ember_dot(ctx, make(a, {2, 3}, EMBER_FLOAT64), make(b, {4, 3, 5}, EMBER_FLOAT64), O)), I{2, 4, 5}, want, 1e-12));
    V ta = rand_v(rng, 24), tb = rand_v(rng, 60), ua = rand_v(rng, 6), ub = rand_v(rng, 12);
    EXPECT_TRUE(near(RUN(ember_tensordot(ctx, make(ta, {2, 3, 4}, EMBER_FLOAT64), make(tb, {3, 4, 5}, EMBER_FLOAT64), 2, nullptr, nullptr, -1, O)), I{2, 5}, mm(ta, tb, 2, 12, 5), 1e-12));
    const I pa = {0}, pb = {1};
    want.clear();
    for (int i = 0; i < 2; ++i)
        for (int j = 0; j < 4; ++j) {
            double s = 0;
            for (int l = 0; l < 3; ++l) s += ua[(size_t)(l * 2 + i)] * ub[(size_t)(j * 3 + l)];
            want.push_back(s);
        }
    T UA = make(ua, {3, 2}, EMBER_FLOAT64), UB = make(ub, {4, 3}, EMBER_FLOAT64);
    EXPECT_TRUE(near(RUN(ember_tensordot(ctx, UA, UB, 0, pa.data(), pb.data(), 1, O)), I{2, 4}, want, 1e-12));
    EXPECT_TRUE(is(RUN(ember_tensordot(ctx, make(V{1, 2}, {2}, EMBER_FLOAT64), make(V{3, 4, 5}, {3}, EMBER_FLOAT64), 0, nullptr, nullptr, -1, O)),
                   {2, 3}, {3, 4, 5, 6, 8, 10}));
    FAILS(EMBER_ERR_SHAPE, "ember_tensordot", ember_tensordot(ctx, UA, UB, 0, pb.data(), pb.data(), 1, O));

    EXPECT_TRUE(is(RUN(ember_outer(ctx, make(V{1, 2, 3}, {3}, EMBER_INT32), make(V{4, 5}, {2}, EMBER_INT32), O)), {3, 2}, {4, 5, 8, 10, 12, 15}));
    FAILS(EMBER_ERR_SHAPE, "ember_outer", ember_outer(ctx, make(V{1, 2}, {1, 2}, EMBER_INT32), make(V{4, 5}, {2}, EMBER_INT32), O));

    T ca = make_c({C(1, 1), C(2, 0)}, {2}, EMBER_COMPLEX128), cb = make_c({C(0, 1), C(3, 0)}, {2}, EMBER_COMPLEX128);
    EXPECT_EQ(values_c(RUN(ember_vecdot(ctx, ca, cb, -1, O))), std::vector<C>{C(7, 1)});  // conj(1+i)i + 2*3
    EXPECT_TRUE(is(RUN(ember_vecdot(ctx, make(iota(6), {2, 3}, EMBER_FLOAT32), make(V{1, 2, 3}, {3}, EMBER_FLOAT32), -1, O)), {2}, {8, 26}));
    EXPECT_TRUE(is(RUN(ember_vecdot(ctx, make(iota(6), {3, 2}, EMBER_FLOAT64), make(V{1, 1, 2, 2, 3, 3}, {3, 2}, EMBER_FLOAT64), 0, O)), {2}, {16, 22}));
    // Real floats along the last axis go through matmul: batches that broadcast either way.
    EXPECT_TRUE(is(RUN(ember_vecdot(ctx, make(V{1, 2, 3}, {3}, EMBER_FLOAT32), make(iota(6), {2, 3}, EMBER_FLOAT32), -1, O)), {2}, {8, 26}));
    EXPECT_TRUE(is(RUN(ember_vecdot(ctx, make(iota(6), {2, 1, 3}, EMBER_FLOAT64), make(V{1, 0, 0, 0, 0, 1}, {2, 3}, EMBER_FLOAT64), -1, O)), {2, 2},
                   {0, 2, 3, 5}));
    EXPECT_TRUE(is(RUN(ember_vecdot(ctx, make(V{}, {0}, EMBER_FLOAT32), make(V{}, {0}, EMBER_FLOAT32), -1, O)), {}, {0}));
    FAILS(EMBER_ERR_SHAPE, "ember_vecdot", ember_vecdot(ctx, make(iota(6), {2, 3}, EMBER_FLOAT32), make(V{1, 2}, {2}, EMBER_FLOAT32), -1, O));

    T m = make(iota(9), {3, 3}, EMBER_INT32);
    for (auto& c : std::vector<std::pair<int64_t, double>>{{0, 12}, {1, 6}, {-1, 10}, {-2, 6}, {3, 0}}) {
        EXPECT_TRUE(is(RUN(ember_trace(ctx, m, c.first, O)), {}, {c.second}, EMBER_INT64)) << "offset " << c.first;
    }
    EXPECT_TRUE(is(RUN(ember_trace(ctx, make(iota(18), {2, 3, 3}, EMBER_FLOAT32), 0, O)), {2}, {12, 39}, EMBER_FLOAT32));
}

}  // namespace
