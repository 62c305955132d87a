// Reductions, statistics, arg-reductions, scans, softmax and activations. Expectations
// are float64 loops written here over the same input values.
#include <algorithm>
#include <functional>
#include <random>
#include <type_traits>

#include "test_util.hpp"

namespace {

using C = std::complex<double>;
using V = std::vector<double>;
using Shape = std::vector<int64_t>;
using RFn = ember_status_t (*)(ember_ctx_t*, const ember_tensor_t*, const int64_t*, int, int, ember_tensor_t**);
const double NaN = std::numeric_limits<double>::quiet_NaN(), Inf = std::numeric_limits<double>::infinity();

ember_dtype_t real_of(ember_dtype_t d) { return d == EMBER_COMPLEX64 ? EMBER_FLOAT32 : d == EMBER_COMPLEX128 ? EMBER_FLOAT64 : d; }
ember_dtype_t float_of(ember_dtype_t d) { return is_i(d) || is_b(d) ? EMBER_FLOAT32 : d; }

// Values: floats k/16 in [lo, hi] (exact in every float dtype), integers in [ilo, ihi].
struct Dom {
    double lo, hi;
    int64_t ilo, ihi;
    bool nonzero = false;
    double step = 1.0 / 16;
};
std::vector<C> gen(std::mt19937& rng, size_t n, ember_dtype_t d, const Dom& dom) {
    auto pick = [&](int64_t a, int64_t b) { return (double)std::uniform_int_distribution<int64_t>(a, b)(rng); };
    std::vector<C> v(n);
    for (auto& x : v) {
        double re, im = 0;
        if (is_b(d)) re = pick(0, 1);
        else if (is_i(d)) re = pick(is_u(d) ? std::max<int64_t>(0, dom.ilo) : dom.ilo, dom.ihi);
        else re = pick((int64_t)std::ceil(dom.lo / dom.step), (int64_t)std::floor(dom.hi / dom.step)) * dom.step;
        if (is_c(d)) im = pick(-8, 8) * 0.125;
        if (dom.nonzero && re == 0 && im == 0) re = 1;
        x = C(re, im);
    }
    return v;
}
T make_any(const std::vector<C>& v, Shape shape, ember_dtype_t d) {
    if (!is_c(d)) {
        V re;
        for (auto& x : v) re.push_back(x.real());
        return make(re, shape, d);
    }
    T src, t;
    if (ember_tensor_from_data(test_ctx(), v.data(), EMBER_COMPLEX128, shape.data(), (int)shape.size(), src.out()) != EMBER_OK) return t;
    if (ember_astype(test_ctx(), src, d, t.out()) != EMBER_OK) return T();
    return t;
}
::testing::AssertionResult matches(const ember_tensor_t* out, ember_dtype_t rd, const std::vector<C>& want, double t) {
    if (!out) return ::testing::AssertionFailure() << "no output";
    if (dtype_of(out) != rd) return ::testing::AssertionFailure() << "dtype " << ember_dtype_name(dtype_of(out)) << " != " << ember_dtype_name(rd);
    if (is_c(rd)) {
        auto got = values_c(out);
        if (got.size() != want.size()) return ::testing::AssertionFailure() << "size " << got.size() << " != " << want.size();
        for (size_t i = 0; i < got.size(); ++i)
            if (!(std::isnan(std::abs(want[i])) && std::isnan(std::abs(got[i]))) && !(std::abs(got[i] - want[i]) <= t * (1 + std::abs(want[i]))))
                return ::testing::AssertionFailure() << "element " << i << ": got " << got[i] << ", want " << want[i];
        return ::testing::AssertionSuccess();
    }
    V w;
    for (auto& x : want) w.push_back(x.real());
    return all_close(values(out), w, t, t);
}

// Groups the elements of x (shape) by their index over the kept axes, in C order.
std::vector<std::vector<C>> groups(const std::vector<C>& x, const Shape& shape, uint64_t mask) {
    int64_t nout = 1;
    for (size_t d = 0; d < shape.size(); ++d)
        if (!(mask >> d & 1)) nout *= shape[d];
    std::vector<std::vector<C>> g((size_t)nout);
    for (size_t i = 0; i < x.size(); ++i) {
        int64_t rem = (int64_t)i, out = 0, scale = 1;
        for (int d = (int)shape.size() - 1; d >= 0; --d) {
            int64_t idx = rem % shape[d];
            rem /= shape[d];
            if (!(mask >> d & 1)) {
                out += idx * scale;
                scale *= shape[d];
            }
        }
        g[(size_t)out].push_back(x[i]);
    }
    return g;
}
Shape out_shape(const Shape& s, uint64_t mask, bool keep) {
    Shape r;
    for (size_t d = 0; d < s.size(); ++d)
        if (!(mask >> d & 1)) r.push_back(s[d]);
        else if (keep) r.push_back(1);
    return r;
}

// ---------------------------------------------------------------- REDUCE rows
enum Rule { SUM, REAL_OR_BOOL, LOGICAL, FLOAT, REAL_FLOAT, COUNT };
struct ROp {
    const char* name;
    RFn fn;
    Rule rule;
    Dom dom;
    C (*f)(const std::vector<C>& g);
    double empty;  // the value over an empty axis; NaN here with empty_error: an error
    bool empty_error;
};
C r_max(const std::vector<C>& g) {
    double m = g[0].real();
    for (auto& v : g) m = (std::isnan(v.real()) || std::isnan(m)) ? NaN : std::max(m, v.real());
    return m;
}
C r_min(const std::vector<C>& g) {
    double m = g[0].real();
    for (auto& v : g) m = (std::isnan(v.real()) || std::isnan(m)) ? NaN : std::min(m, v.real());
    return m;
}
#define RF(body) [](const std::vector<C>& g) -> C { body }
const ROp kReduce[] = {
    {"sum", ember_sum, SUM, {-4, 4, -5, 5}, RF(C s = 0; for (auto& v : g) s += v; return s;), 0, false},
    {"prod", ember_prod, SUM, {-1.5, 1.5, -2, 2, true}, RF(C s = 1; for (auto& v : g) s *= v; return s;), 1, false},
    {"max", ember_max, REAL_OR_BOOL, {-4, 4, -50, 50}, r_max, NaN, true},
    {"min", ember_min, REAL_OR_BOOL, {-4, 4, -50, 50}, r_min, NaN, true},
    {"all", ember_all, LOGICAL, {-1, 1, -1, 1, false, 0.5}, RF(for (auto& v : g) if (v == 0.0) return 0.0; return 1.0;), 1, false},
    {"any", ember_any, LOGICAL, {-1, 1, -1, 1, false, 0.5}, RF(for (auto& v : g) if (v != 0.0) return 1.0; return 0.0;), 0, false},
    {"count_nonzero", ember_count_nonzero, COUNT, {-1, 1, -1, 1, false, 0.5}, RF(double n = 0; for (auto& v : g) n += v != 0.0; return n;), 0, false},
    {"mean", ember_mean, FLOAT, {-4, 4, -5, 5}, RF(C s = 0; for (auto& v : g) s += v; return s / (double)g.size();), NaN, false},
    {"logsumexp", ember_logsumexp, REAL_FLOAT, {-4, 4, -5, 5},
     RF(double s = 0; for (auto& v : g) s += std::exp(v.real()); return std::log(s);), -Inf, false},
};
bool accepts(Rule r, ember_dtype_t d) { return !is_c(d) || r == SUM || r == FLOAT || r == LOGICAL || r == COUNT; }
ember_dtype_t result_of(Rule r, ember_dtype_t d) {
    switch (r) {
        case SUM: return is_b(d) || (is_i(d) && !is_u(d)) ? EMBER_INT64 : is_u(d) ? EMBER_UINT64 : d;
        case LOGICAL: return EMBER_BOOL;
        case COUNT: return EMBER_INT64;
        case FLOAT: case REAL_FLOAT: return float_of(d);
        default: return d;
    }
}

class ReduceOp : public ::testing::TestWithParam<ROp> {};

TEST_P(ReduceOp, AxesKeepdimsLayoutsAndDtypes) {
    const ROp& op = GetParam();
    ember_ctx_t* ctx = test_ctx();
    const std::string fname = std::string("ember_") + op.name;
    for (ember_dtype_t d : kAll) {
        SCOPED_TRACE(std::string(op.name) + " on " + ember_dtype_name(d));
        std::mt19937 rng(3000u + (unsigned)d);
        const Shape shape = {2, 3, 4};
        auto x = gen(rng, 24, d, op.dom);
        T t = make_any(x, shape, d);
        ASSERT_TRUE(t.t);
        if (!accepts(op.rule, d)) {
            ember_tensor_t* o = nullptr;
            EM_FAILS(op.fn(ctx, t, nullptr, 0, 0, &o), EMBER_ERR_UNSUPPORTED_DTYPE, fname);
            EXPECT_EQ(o, nullptr);
            continue;
        }
        ember_dtype_t rd = result_of(op.rule, d);
        double tl = 2 * tol(rd);  // composites round more than once in half precision
        const std::vector<Shape> axes_list = {{}, {1}, {-1}, {0, 2}, {2, 0}, {0, 1, 2}};
        for (size_t k = 0; k < axes_list.size(); ++k) {
            const Shape& axes = axes_list[k];
            uint64_t mask = 0;
            for (int64_t a : axes) mask |= 1ull << (a < 0 ? a + 3 : a);
            if (k == 0) mask = 7;  // NULL: all axes
            for (int keep = 0; keep < 2; ++keep) {
                SCOPED_TRACE("axes set " + std::to_string(k) + " keepdims " + std::to_string(keep));
                T y;
                EM_OK(op.fn(ctx, t, k == 0 ? nullptr : axes.data(), (int)axes.size(), keep, y.out()));
                EXPECT_EQ(shape_of(y), out_shape(shape, mask, keep));
                std::vector<C> want;
                for (auto& g : groups(x, shape, mask)) want.push_back(op.f(g));
                EXPECT_TRUE(matches(y, rd, want, tl));
            }
        }
        {  // non-contiguous: transpose of a (4, 3, 2) base, reduced over axis 1 and over all
            auto base = gen(rng, 24, d, op.dom);
            T b = make_any(base, {4, 3, 2}, d), v, y;
            EM_OK(ember_transpose(ctx, b, v.out()));
            std::vector<C> xv(24);
            for (int i = 0; i < 2; ++i)
                for (int j = 0; j < 3; ++j)
                    for (int l = 0; l < 4; ++l) xv[(size_t)(i * 12 + j * 4 + l)] = base[(size_t)(l * 6 + j * 2 + i)];
            int64_t ax = 1;
            EM_OK(op.fn(ctx, v, &ax, 1, 0, y.out()));
            std::vector<C> want;
            for (auto& g : groups(xv, shape, 2)) want.push_back(op.f(g));
            EXPECT_TRUE(matches(y, rd, want, tl));
            EM_OK(op.fn(ctx, v, nullptr, 0, 0, y.out()));
            EXPECT_TRUE(matches(y, rd, {op.f(xv)}, tl));
        }
        {  // 0-d: the value itself (as the result dtype); axis 0 does not exist
            auto one = gen(rng, 1, d, op.dom);
            T s = make_any(one, {}, d), y;
            EM_OK(op.fn(ctx, s, nullptr, 0, 0, y.out()));
            EXPECT_TRUE(shape_of(y).empty());
            EXPECT_TRUE(matches(y, rd, {op.f(one)}, tl));
            int64_t ax = 0;
            EM_FAILS(op.fn(ctx, s, &ax, 1, 0, y.out()), EMBER_ERR_INDEX, fname);
        }
        {  // empty (0, 3): identity over the empty axis, or an error for max/min
            T e = make_any({}, {0, 3}, d), y;
            int64_t ax1 = 1, ax0 = 0;
            EM_OK(op.fn(ctx, e, &ax1, 1, 0, y.out()));  // reducing the non-empty axis
            EXPECT_EQ(shape_of(y), (Shape{0}));
            if (op.empty_error) {
                ember_tensor_t* o = nullptr;
                EM_FAILS(op.fn(ctx, e, nullptr, 0, 0, &o), EMBER_ERR_SHAPE, fname);
                EM_FAILS(op.fn(ctx, e, &ax0, 1, 0, &o), EMBER_ERR_SHAPE, fname);
                EXPECT_EQ(o, nullptr);
            } else {
                EM_OK(op.fn(ctx, e, nullptr, 0, 0, y.out()));
                EXPECT_TRUE(matches(y, rd, {op.empty}, 0));
                EM_OK(op.fn(ctx, e, &ax0, 1, 1, y.out()));
                EXPECT_EQ(shape_of(y), (Shape{1, 3}));
                EXPECT_TRUE(matches(y, rd, {op.empty, op.empty, op.empty}, 0));
            }
        }
    }
}
INSTANTIATE_TEST_SUITE_P(Table, ReduceOp, ::testing::ValuesIn(kReduce), [](const auto& i) { return std::string(i.param.name); });

TEST(ReduceRegression, AllAnyOfComplex) {
    T z = make_any({C(0, 1), C(0, 0)}, {2}, EMBER_COMPLEX64), y;
    EM_OK(ember_any(test_ctx(), z, nullptr, 0, 0, y.out()));
    EXPECT_EQ(values(y), V{1});
    T z1 = make_any({C(0, 1), C(2, 0)}, {2}, EMBER_COMPLEX128);
    EM_OK(ember_all(test_ctx(), z1, nullptr, 0, 0, y.out()));
    EXPECT_EQ(values(y), V{1});
}

TEST(Reduce, AccumulationDtypesAndAccuracy) {
    ember_ctx_t* ctx = test_ctx();
    T y;
    T i8 = make(V(100, 100), {100}, EMBER_INT8);  // 10000 does not fit in int8
    EM_OK(ember_sum(ctx, i8, nullptr, 0, 0, y.out()));
    EXPECT_EQ(dtype_of(y), EMBER_INT64);
    EXPECT_EQ(values(y), V{10000});
    T u8 = make(V(300, 255), {300}, EMBER_UINT8);
    EM_OK(ember_sum(ctx, u8, nullptr, 0, 0, y.out()));
    EXPECT_EQ(dtype_of(y), EMBER_UINT64);
    EXPECT_EQ(values(y), V{76500});
    T bl = make(V{1, 0, 1, 1}, {4}, EMBER_BOOL);
    EM_OK(ember_sum(ctx, bl, nullptr, 0, 0, y.out()));
    EXPECT_EQ(dtype_of(y), EMBER_INT64);
    EXPECT_EQ(values(y), V{3});
    T i32 = make(V{-2, 3, 1000}, {3}, EMBER_INT32);
    EM_OK(ember_prod(ctx, i32, nullptr, 0, 0, y.out()));
    EXPECT_EQ(dtype_of(y), EMBER_INT64);
    EXPECT_EQ(values(y), V{-6000});
    // float32: 1e6 random values in [0, 1); the sum must be good to 1e-6 relative.
    std::mt19937 rng(7);
    std::uniform_real_distribution<float> u(0.f, 1.f);
    std::vector<float> big(1000000);
    double exact = 0;
    for (auto& v : big) exact += (v = u(rng));
    int64_t n = (int64_t)big.size();
    T f;
    EM_OK(ember_tensor_from_data(ctx, big.data(), EMBER_FLOAT32, &n, 1, f.out()));
    EM_OK(ember_sum(ctx, f, nullptr, 0, 0, y.out()));
    EXPECT_EQ(dtype_of(y), EMBER_FLOAT32);
    EXPECT_TRUE(all_close(values(y), {exact}, 1e-6));
    EM_OK(ember_mean(ctx, f, nullptr, 0, 0, y.out()));
    EXPECT_TRUE(all_close(values(y), {exact / 1e6}, 1e-6));
    // NaN propagates through max/min along an axis.
    T x = make(V{1, NaN, 3, 4, 5, 6}, {2, 3}, EMBER_FLOAT32);
    int64_t ax = 1;
    EM_OK(ember_max(ctx, x, &ax, 1, 0, y.out()));
    EXPECT_TRUE(all_close(values(y), {NaN, 6}, 0));
    EM_OK(ember_min(ctx, x, nullptr, 0, 0, y.out()));
    EXPECT_TRUE(all_close(values(y), {NaN}, 0));
    T nx = make(V{NaN, -Inf}, {2}, EMBER_FLOAT64);
    EM_OK(ember_min(ctx, nx, nullptr, 0, 0, y.out()));
    EXPECT_TRUE(all_close(values(y), {NaN}, 0));
    // Logsumexp is stable for large inputs and handles -inf.
    T big2 = make(V{1000, 1000, -Inf}, {3}, EMBER_FLOAT32);
    EM_OK(ember_logsumexp(ctx, big2, nullptr, 0, 0, y.out()));
    EXPECT_TRUE(all_close(values(y), {1000 + std::log(2.0)}, 1e-6));
    // Bad axes.
    const int64_t repeated[2] = {1, -1}, out_of_range[1] = {2};
    EM_FAILS(ember_sum(ctx, x, repeated, 2, 0, y.out()), EMBER_ERR_INVALID_ARGUMENT, "ember_sum");
    EM_FAILS(ember_sum(ctx, x, out_of_range, 1, 0, y.out()), EMBER_ERR_INDEX, "ember_sum");
    EM_FAILS(ember_sum(ctx, nullptr, nullptr, 0, 0, y.out()), EMBER_ERR_INVALID_ARGUMENT, "ember_sum");
}

// Sums and products of bool and integers into (u)int64 over more than 2^20 elements cast
// one slice of rows at a time (dispatch.cpp, widened_in_slices): full reductions of
// contiguous and strided inputs, the sliced axis reduced or kept, and wrap-around products,
// against host loops, on the reference and the cpu backend.
TEST(Reduce, WideSumsOfLargeIntegerArraysInSlices) {
    const int64_t rows = 1301, cols = 1001;
    std::vector<int64_t> v((size_t)(rows * cols));
    for (size_t i = 0; i < v.size(); ++i) v[i] = (int64_t)((i * 2654435761u) % 251) - 125;  // int8 values
    for (const char* backend : {"reference", "cpu"}) {
        ember_ctx_t* ctx = nullptr;
        if (ember_ctx_create_on(backend, 0, &ctx) != EMBER_OK) continue;
        auto read_i64 = [](const ember_tensor_t* t) {
            int64_t n = 0;
            EXPECT_EQ(ember_tensor_size(t, &n), EMBER_OK);
            std::vector<int64_t> r((size_t)n);
            EXPECT_EQ(ember_tensor_read(t, r.data(), r.size() * 8), EMBER_OK);
            return r;
        };
        T src, x8, xt, bits, u8;
        const int64_t shape[2] = {rows, cols};
        EM_OK(ember_tensor_from_data(ctx, v.data(), EMBER_INT64, shape, 2, src.out()));
        EM_OK(ember_astype(ctx, src, EMBER_INT8, x8.out()));
        EM_OK(ember_matrix_transpose(ctx, x8, xt.out()));  // strided: sliced along its own axis 0
        std::vector<int64_t> col(cols, 0), row(rows, 0);
        int64_t total = 0, positive = 0;
        for (int64_t r = 0; r < rows; ++r)
            for (int64_t c = 0; c < cols; ++c) {
                const int64_t e = v[(size_t)(r * cols + c)];
                col[(size_t)c] += e;
                row[(size_t)r] += e;
                total += e;
                positive += e > 0;
            }
        const std::string b = std::string(backend) + " ";
        T y;
        EM_OK(ember_sum(ctx, x8, nullptr, 0, 0, y.out()));
        EXPECT_EQ(read_i64(y), std::vector<int64_t>{total}) << b << "full sum";
        EM_OK(ember_sum(ctx, xt, nullptr, 0, 1, y.out()));
        EXPECT_EQ(shape_of(y), (std::vector<int64_t>{1, 1})) << b << "keepdims";
        EXPECT_EQ(read_i64(y), std::vector<int64_t>{total}) << b << "full sum of the transpose";
        const int64_t ax0 = 0, ax1 = 1;
        EM_OK(ember_sum(ctx, x8, &ax0, 1, 0, y.out()));
        EXPECT_EQ(read_i64(y), col) << b << "sum over the sliced axis";
        EM_OK(ember_sum(ctx, x8, &ax1, 1, 0, y.out()));
        EXPECT_EQ(read_i64(y), row) << b << "sum keeping the sliced axis";
        EM_OK(ember_sum(ctx, xt, &ax0, 1, 0, y.out()));
        EXPECT_EQ(read_i64(y), row) << b << "sum of the transpose over its axis 0";
        T zero;
        EM_OK(ember_full(ctx, nullptr, 0, 0, EMBER_INT8, zero.out()));
        EM_OK(ember_greater(ctx, x8, zero, bits.out()));
        EM_OK(ember_sum(ctx, bits, nullptr, 0, 0, y.out()));
        EXPECT_EQ(read_i64(y), std::vector<int64_t>{positive}) << b << "sum of bool";
        // Products of 1..3 wrap around 2^64 many times: any grouping gives the same bits.
        std::vector<int64_t> small(v.size());
        uint64_t product = 1;
        for (size_t i = 0; i < v.size(); ++i) product *= (uint64_t)(small[i] = 1 + (v[i] + 125) % 3);
        T s64;
        EM_OK(ember_tensor_from_data(ctx, small.data(), EMBER_INT64, shape, 2, s64.out()));
        EM_OK(ember_astype(ctx, s64, EMBER_UINT8, u8.out()));
        EM_OK(ember_prod(ctx, u8, nullptr, 0, 0, y.out()));
        EXPECT_EQ(dtype_of(y), EMBER_UINT64);
        EXPECT_EQ((uint64_t)read_i64(y)[0], product) << b << "wrapped product";
        ember_ctx_release(ctx);
    }
}

// ---------------------------------------------------------------- var / std
TEST(Reduce, VarStdWithDdof) {
    ember_ctx_t* ctx = test_ctx();
    const Shape shape = {2, 3, 4};
    struct Case {
        Shape axes;
        double ddof;
        int keep;
    };
    const Case cases[] = {{{}, 0, 0}, {{}, 1, 1}, {{0}, 1, 0}, {{-1}, 0, 1}, {{0, 2}, 1.5, 0}, {{1}, 2, 0}};
    for (ember_dtype_t d : {EMBER_FLOAT16, EMBER_FLOAT32, EMBER_FLOAT64, EMBER_INT32, EMBER_UINT8, EMBER_BOOL, EMBER_COMPLEX64, EMBER_COMPLEX128}) {
        std::mt19937 rng(4000u + (unsigned)d);
        auto x = gen(rng, 24, d, {-4, 4, -5, 5});
        T t = make_any(x, shape, d);
        ember_dtype_t rd = real_of(float_of(d));
        double tl = (d == EMBER_FLOAT16 ? 4 : 2) * tol(rd);
        for (auto& c : cases) {
            SCOPED_TRACE(std::string(ember_dtype_name(d)) + " naxes " + std::to_string(c.axes.size()) + " ddof " + std::to_string(c.ddof));
            uint64_t mask = c.axes.empty() ? 7 : 0;
            for (int64_t a : c.axes) mask |= 1ull << (a < 0 ? a + 3 : a);
            std::vector<C> wv, ws;
            for (auto& g : groups(x, shape, mask)) {
                C mu = 0;
                for (auto& v : g) mu += v;
                mu /= (double)g.size();
                double ss = 0;
                for (auto& v : g) ss += std::norm(v - mu);
                wv.push_back(ss / ((double)g.size() - c.ddof));
                ws.push_back(std::sqrt(ss / ((double)g.size() - c.ddof)));
            }
            T v, s;
            const int64_t* ax = c.axes.empty() ? nullptr : c.axes.data();
            EM_OK(ember_var(ctx, t, ax, (int)c.axes.size(), c.keep, c.ddof, v.out()));
            EM_OK(ember_std(ctx, t, ax, (int)c.axes.size(), c.keep, c.ddof, s.out()));
            EXPECT_EQ(shape_of(v), out_shape(shape, mask, c.keep));
            EXPECT_TRUE(matches(v, rd, wv, tl));
            EXPECT_TRUE(matches(s, rd, ws, tl));
        }
    }
    T one = make(V{3, 5, 7, 9}, {4}, EMBER_FLOAT64), y;  // hand-computed: var 5, ddof=1: 20/3
    EM_OK(ember_var(ctx, one, nullptr, 0, 0, 1, y.out()));
    EXPECT_TRUE(all_close(values(y), {20.0 / 3}, 1e-15));
    EM_OK(ember_std(ctx, one, nullptr, 0, 0, 0, y.out()));
    EXPECT_TRUE(all_close(values(y), {std::sqrt(5.0)}, 1e-15));
    // ddof >= n divides by 0, as NumPy's max(n - ddof, 0): inf, or nan where the squares sum
    // to 0 (the divisor once went negative: var of 4 values with ddof 5 was -20)
    const double inf = std::numeric_limits<double>::infinity();
    for (ember_dtype_t d : {EMBER_FLOAT32, EMBER_FLOAT64}) {
        SCOPED_TRACE(ember_dtype_name(d));
        T four = make(V{3, 5, 7, 9}, {4}, d), same = make(V{2, 2}, {2}, d), none = make(V{}, {0}, d);
        for (double ddof : {4.0, 5.0, 100.0}) {
            EM_OK(ember_var(ctx, four, nullptr, 0, 0, ddof, y.out()));
            EXPECT_EQ(values(y), (V{inf})) << "var ddof " << ddof;
            EM_OK(ember_std(ctx, four, nullptr, 0, 0, ddof, y.out()));
            EXPECT_EQ(values(y), (V{inf})) << "std ddof " << ddof;
        }
        EM_OK(ember_var(ctx, same, nullptr, 0, 0, 3, y.out()));
        EXPECT_TRUE(std::isnan(values(y)[0]));
        EM_OK(ember_var(ctx, none, nullptr, 0, 0, 1, y.out()));
        EXPECT_TRUE(std::isnan(values(y)[0]));
    }
}

// Means (mean, nanmean, unweighted average) and variances of 32- and 64-bit integers
// round once to the float32 result (int32 means: the exact int64 sum over the count in
// float64; int64: in float64, as NumPy accumulates integers). Cast to float32 first, 2^50 + 12345 and -2^50 + 7 lose their
// low bits (a mean of 0 instead of 6176), and the squared deviations of uint64 values
// near 1.8e19 overflow float32 (inf) where the variance, 8.1e37, fits.
TEST(Reduce, WideIntegerMeansAndVariancesAccumulateInFloat64) {
    ember_ctx_t* ctx = test_ctx();
    const int64_t pair[2] = {(int64_t(1) << 50) + 12345, -(int64_t(1) << 50) + 7}, two = 2;
    T p, y;
    EM_OK(ember_tensor_from_data(ctx, pair, EMBER_INT64, &two, 1, p.out()));
    EM_OK(ember_mean(ctx, p, nullptr, 0, 0, y.out()));
    EXPECT_EQ(dtype_of(y), EMBER_FLOAT32);
    EXPECT_EQ(values(y), V{6176});
    EM_OK(ember_nanmean(ctx, p, nullptr, 0, 0, y.out()));  // integers have no NaN: the mean
    EXPECT_EQ(values(y), V{6176});
    T weight_sum;
    EM_OK(ember_average(ctx, p, nullptr, EMBER_AXIS_NONE, 0, y.out(), weight_sum.out()));
    EXPECT_EQ(values(y), V{6176});
    EXPECT_EQ(values(weight_sum), V{2});
    T p32;  // the same through int32: 2^30 + 123 and -2^30 + 5
    const int32_t pair32[2] = {(1 << 30) + 123, -(1 << 30) + 5};
    EM_OK(ember_tensor_from_data(ctx, pair32, EMBER_INT32, &two, 1, p32.out()));
    EM_OK(ember_mean(ctx, p32, nullptr, 0, 0, y.out()));
    EXPECT_EQ(values(y), V{64});
    std::vector<uint64_t> big(16);
    for (size_t i = 0; i < big.size(); ++i) big[i] = i % 2 ? 18000000000000000000ull : 0;
    const int64_t n = (int64_t)big.size();
    T u;
    EM_OK(ember_tensor_from_data(ctx, big.data(), EMBER_UINT64, &n, 1, u.out()));
    EM_OK(ember_var(ctx, u, nullptr, 0, 0, 0, y.out()));
    EXPECT_EQ(dtype_of(y), EMBER_FLOAT32);
    EXPECT_TRUE(all_close(values(y), {8.1e37}, 1e-6));
    EM_OK(ember_std(ctx, u, nullptr, 0, 0, 0, y.out()));
    EXPECT_TRUE(all_close(values(y), {9e18}, 1e-6));
}

// Means of int64 and uint64 arrays of more than 2^20 elements sum in float64 one slice of
// rows at a time (dispatch.cpp, sum_in_slices): full means of contiguous and transposed
// inputs, the sliced axis reduced or kept. Values near +-2^32 keep every float64 partial sum
// exact, so each mean must be the exact sum over the count rounded to float32, bit for bit.
TEST(Reduce, WideIntegerMeansOfLargeArraysInSlices) {
    const int64_t rows = 1100, cols = 999;
    std::vector<int64_t> signed_values((size_t)(rows * cols));
    std::vector<uint64_t> unsigned_values(signed_values.size());
    for (size_t i = 0; i < signed_values.size(); ++i) {
        const int64_t small = (int64_t)((i * 2654435761u) % 2001);
        signed_values[i] = small - 1000 + (i % 3 == 0 ? (int64_t(1) << 32) : i % 3 == 1 ? -(int64_t(1) << 32) - 7 : 0);
        unsigned_values[i] = (uint64_t(1) << 32) + (uint64_t)small * 977;
    }
    auto expected = [&](const auto& v, int axis) {  // axis -1: the full mean
        using Sum = std::conditional_t<std::is_signed_v<typename std::decay_t<decltype(v)>::value_type>, int64_t, uint64_t>;
        const int64_t groups = axis < 0 ? 1 : axis == 0 ? cols : rows, count = rows * cols / groups;
        std::vector<Sum> sums((size_t)groups, 0);
        for (int64_t r = 0; r < rows; ++r)
            for (int64_t c = 0; c < cols; ++c) sums[(size_t)(axis < 0 ? 0 : axis == 0 ? c : r)] += v[(size_t)(r * cols + c)];
        std::vector<float> means;
        for (Sum s : sums) means.push_back((float)((double)s / (double)count));
        return means;
    };
    auto read_f32 = [](const ember_tensor_t* t) {
        int64_t n = 0;
        EXPECT_EQ(ember_tensor_size(t, &n), EMBER_OK);
        EXPECT_EQ(dtype_of(t), EMBER_FLOAT32);
        std::vector<float> r((size_t)n);
        EXPECT_EQ(ember_tensor_read(t, r.data(), r.size() * 4), EMBER_OK);
        return r;
    };
    for (const char* backend : {"reference", "cpu"}) {
        ember_ctx_t* ctx = nullptr;
        if (ember_ctx_create_on(backend, 0, &ctx) != EMBER_OK) continue;
        const int64_t shape[2] = {rows, cols}, ax0 = 0, ax1 = 1;
        for (ember_dtype_t d : {EMBER_INT64, EMBER_UINT64}) {
            const std::string b = std::string(backend) + " " + ember_dtype_name(d) + " ";
            const void* data = d == EMBER_INT64 ? (const void*)signed_values.data() : (const void*)unsigned_values.data();
            auto want = [&](int axis) { return d == EMBER_INT64 ? expected(signed_values, axis) : expected(unsigned_values, axis); };
            T x, xt, y;
            EM_OK(ember_tensor_from_data(ctx, data, d, shape, 2, x.out()));
            EM_OK(ember_matrix_transpose(ctx, x, xt.out()));
            EM_OK(ember_mean(ctx, x, nullptr, 0, 0, y.out()));
            EXPECT_EQ(read_f32(y), want(-1)) << b << "full mean";
            EM_OK(ember_mean(ctx, xt, nullptr, 0, 1, y.out()));
            EXPECT_EQ(shape_of(y), (std::vector<int64_t>{1, 1})) << b << "keepdims";
            EXPECT_EQ(read_f32(y), want(-1)) << b << "full mean of the transpose";
            EM_OK(ember_mean(ctx, x, &ax0, 1, 0, y.out()));
            EXPECT_EQ(read_f32(y), want(0)) << b << "mean over the sliced axis";
            EM_OK(ember_mean(ctx, x, &ax1, 1, 0, y.out()));
            EXPECT_EQ(read_f32(y), want(1)) << b << "mean keeping the sliced axis";
            EM_OK(ember_mean(ctx, xt, &ax0, 1, 0, y.out()));
            EXPECT_EQ(read_f32(y), want(1)) << b << "mean of the transpose over its axis 0";
        }
        ember_ctx_release(ctx);
    }
}

// ---------------------------------------------------------------- argmax / argmin
TEST(Reduce, ArgmaxArgmin) {
    ember_ctx_t* ctx = test_ctx();
    const Shape shape = {3, 4};
    for (ember_dtype_t d : kAll) {
        SCOPED_TRACE(ember_dtype_name(d));
        std::mt19937 rng(5000u + (unsigned)d);
        auto x = gen(rng, 12, d, {-1, 1, -2, 2, false, 0.5});  // few distinct values: ties are common
        T t = make_any(x, shape, d);
        if (is_c(d)) {
            ember_tensor_t* o = nullptr;
            EM_FAILS(ember_argmax(ctx, t, 0, 0, &o), EMBER_ERR_UNSUPPORTED_DTYPE, "ember_argmax");
            EM_FAILS(ember_argmin(ctx, t, 0, 0, &o), EMBER_ERR_UNSUPPORTED_DTYPE, "ember_argmin");
            EXPECT_EQ(o, nullptr);
            continue;
        }
        auto first = [](const std::vector<C>& g, bool mx) {
            size_t best = 0;
            for (size_t i = 1; i < g.size(); ++i)
                if (mx ? g[i].real() > g[best].real() : g[i].real() < g[best].real()) best = i;
            return (double)best;
        };
        for (int mx = 0; mx < 2; ++mx) {
            auto fn = mx ? ember_argmax : ember_argmin;
            T y;
            for (int64_t axis : {0, 1, -1}) {
                uint64_t mask = 1ull << (axis < 0 ? axis + 2 : axis);
                for (int keep = 0; keep < 2; ++keep) {
                    EM_OK(fn(ctx, t, axis, keep, y.out()));
                    EXPECT_EQ(dtype_of(y), EMBER_INT64);
                    EXPECT_EQ(shape_of(y), out_shape(shape, mask, keep));
                    V want;
                    for (auto& g : groups(x, shape, mask)) want.push_back(first(g, mx));
                    EXPECT_EQ(values(y), want) << "axis " << axis << (mx ? " argmax" : " argmin");
                }
            }
            EM_OK(fn(ctx, t, EMBER_AXIS_NONE, 0, y.out()));
            EXPECT_TRUE(shape_of(y).empty());
            EXPECT_EQ(values(y), V{first(x, mx)});
            EM_OK(fn(ctx, t, EMBER_AXIS_NONE, 1, y.out()));
            EXPECT_EQ(shape_of(y), (Shape{1, 1}));
            T tv;  // non-contiguous: transpose, along axis 0 of the (4, 3) view
            EM_OK(ember_transpose(ctx, t, tv.out()));
            EM_OK(fn(ctx, tv, 0, 0, y.out()));
            V want;
            for (auto& g : groups(x, shape, 2)) want.push_back(first(g, mx));  // == rows of x
            EXPECT_EQ(values(y), want);
        }
    }
    T fl = make(V{5, 1, 5, 0}, {4}, EMBER_INT32), fv, y;  // a negative-stride view: [0, 5, 1, 5]
    EM_OK(ember_flip(ctx, fl, nullptr, 0, fv.out()));
    EM_OK(ember_argmax(ctx, fv, 0, 0, y.out()));
    EXPECT_EQ(values(y), V{1});
    EM_OK(ember_argmin(ctx, fv, 0, 0, y.out()));
    EXPECT_EQ(values(y), V{0});
    T n = make(V{1, NaN, 3, NaN}, {4}, EMBER_FLOAT32);  // the first NaN wins, as in NumPy
    EM_OK(ember_argmax(ctx, n, 0, 0, y.out()));
    EXPECT_EQ(values(y), V{1});
    EM_OK(ember_argmin(ctx, n, 0, 0, y.out()));
    EXPECT_EQ(values(y), V{1});
    T e = make(V{}, {0, 3}, EMBER_FLOAT32);
    EM_FAILS(ember_argmax(ctx, e, 0, 0, y.out()), EMBER_ERR_SHAPE, "ember_argmax");
    EM_FAILS(ember_argmin(ctx, e, EMBER_AXIS_NONE, 0, y.out()), EMBER_ERR_SHAPE, "ember_argmin");
    EM_OK(ember_argmax(ctx, e, 1, 0, y.out()));  // the empty axis is not reduced
    EXPECT_EQ(shape_of(y), (Shape{0}));
    EM_FAILS(ember_argmax(ctx, n, 1, 0, y.out()), EMBER_ERR_INDEX, "ember_argmax");
}

// ---------------------------------------------------------------- scans
TEST(Reduce, CumsumCumprod) {
    ember_ctx_t* ctx = test_ctx();
    const Shape shape = {3, 4};
    const ember_dtype_t dts[] = {EMBER_BOOL, EMBER_INT8, EMBER_INT32, EMBER_UINT8, EMBER_FLOAT16, EMBER_BFLOAT16,
                                 EMBER_FLOAT32, EMBER_FLOAT64, EMBER_COMPLEX64, EMBER_COMPLEX128};
    for (ember_dtype_t d : dts) {
        std::mt19937 rng(6000u + (unsigned)d);
        auto x = gen(rng, 12, d, {-2, 2, -3, 3, true});
        T t = make_any(x, shape, d), tv;
        EM_OK(ember_transpose(ctx, make_any(x, shape, d), tv.out()));  // (4, 3) view
        ember_dtype_t rd = result_of(SUM, d);
        for (int prod = 0; prod < 2; ++prod) {
            auto fn = prod ? ember_cumprod : ember_cumsum;
            auto scan = [&](std::vector<C> v) {
                C acc = prod ? 1.0 : 0.0;
                for (auto& e : v) e = acc = prod ? acc * e : acc + e;
                return v;
            };
            for (int64_t axis : std::initializer_list<int64_t>{0, 1, -1, EMBER_AXIS_NONE}) {
                SCOPED_TRACE(std::string(ember_dtype_name(d)) + (prod ? " cumprod" : " cumsum") + " axis " + std::to_string(axis));
                T y;
                EM_OK(fn(ctx, t, axis, y.out()));
                std::vector<C> want(12);
                if (axis == EMBER_AXIS_NONE) {
                    want = scan(x);
                    EXPECT_EQ(shape_of(y), (Shape{12}));
                } else {
                    EXPECT_EQ(shape_of(y), shape);
                    bool rows = axis != 0;  // scan along the last axis
                    for (int o = 0; o < (rows ? 3 : 4); ++o) {
                        std::vector<C> line;
                        for (int k = 0; k < (rows ? 4 : 3); ++k) line.push_back(x[(size_t)(rows ? o * 4 + k : k * 4 + o)]);
                        line = scan(line);
                        for (int k = 0; k < (rows ? 4 : 3); ++k) want[(size_t)(rows ? o * 4 + k : k * 4 + o)] = line[(size_t)k];
                    }
                }
                EXPECT_TRUE(matches(y, rd, want, 2 * tol(rd)));
                if (axis == 1) {  // along axis 0 of the transposed view == along rows of x
                    EM_OK(fn(ctx, tv, 0, y.out()));
                    std::vector<C> wt(12);
                    for (int i = 0; i < 4; ++i)
                        for (int j = 0; j < 3; ++j) wt[(size_t)(i * 3 + j)] = want[(size_t)(j * 4 + i)];
                    EXPECT_TRUE(matches(y, rd, wt, 2 * tol(rd)));
                }
            }
        }
    }
    T s = make(V{5}, {}, EMBER_INT32), y;  // 0-d scans as one element
    EM_OK(ember_cumsum(ctx, s, EMBER_AXIS_NONE, y.out()));
    EXPECT_EQ(shape_of(y), (Shape{1}));
    EXPECT_EQ(values(y), V{5});
    T e = make(V{}, {0, 3}, EMBER_FLOAT32);
    EM_OK(ember_cumsum(ctx, e, 0, y.out()));
    EXPECT_EQ(shape_of(y), (Shape{0, 3}));
    EM_FAILS(ember_cumsum(ctx, e, 2, y.out()), EMBER_ERR_INDEX, "ember_cumsum");
}

TEST(Reduce, CountNonzero) {
    ember_ctx_t* ctx = test_ctx();
    T x = make(V{0, 1, 2, 0, 0, -3}, {2, 3}, EMBER_FLOAT32), y, tv;
    EM_OK(ember_count_nonzero(ctx, x, nullptr, 0, 0, y.out()));
    EXPECT_EQ(dtype_of(y), EMBER_INT64);
    EXPECT_EQ(values(y), V{3});
    int64_t ax = 0;
    EM_OK(ember_count_nonzero(ctx, x, &ax, 1, 1, y.out()));
    EXPECT_EQ(shape_of(y), (Shape{1, 3}));
    EXPECT_EQ(values(y), (V{0, 1, 2}));
    EM_OK(ember_transpose(ctx, x, tv.out()));
    ax = -1;
    EM_OK(ember_count_nonzero(ctx, tv, &ax, 1, 0, y.out()));
    EXPECT_EQ(values(y), (V{0, 1, 2}));
    T z = make_any({C(0, 1), C(0, 0), C(2, 0)}, {3}, EMBER_COMPLEX64);  // 0+1j is non-zero
    EM_OK(ember_count_nonzero(ctx, z, nullptr, 0, 0, y.out()));
    EXPECT_EQ(values(y), V{2});
    T e = make(V{}, {0, 3}, EMBER_INT8);
    EM_OK(ember_count_nonzero(ctx, e, nullptr, 0, 0, y.out()));
    EXPECT_EQ(values(y), V{0});
    for (ember_dtype_t d : {EMBER_FLOAT16, EMBER_BFLOAT16, EMBER_FLOAT32, EMBER_FLOAT64}) {  // -0.0 is zero, NaN is not
        T f = make(V{-0.0, NaN, 0.0, -Inf, 1e-30}, {5}, d);
        EM_OK(ember_count_nonzero(ctx, f, nullptr, 0, 0, y.out()));
        EXPECT_EQ(values(y), V{d == EMBER_FLOAT16 ? 2.0 : 3.0}) << ember_dtype_name(d);  // 1e-30 is 0 in float16
    }
}

// ---------------------------------------------------------------- softmax and activations
TEST(Reduce, SoftmaxLogSoftmax) {
    ember_ctx_t* ctx = test_ctx();
    const V x = {1, 2, 3, 4, -1, 0, -7, 8, 1000, 1000, 999, -1000};  // last row: stability
    for (ember_dtype_t d : {EMBER_FLOAT32, EMBER_FLOAT64, EMBER_INT32}) {
        SCOPED_TRACE(ember_dtype_name(d));
        ember_dtype_t rd = float_of(d);
        T t = make(x, {3, 4}, d);
        for (int64_t axis : {-1, 1, 0}) {
            bool rows = axis != 0;
            V sm(12), lsm(12);
            for (int o = 0; o < (rows ? 3 : 4); ++o) {
                double m = -Inf, s = 0;
                auto at = [&](int k) { return (size_t)(rows ? o * 4 + k : k * 4 + o); };
                for (int k = 0; k < (rows ? 4 : 3); ++k) m = std::max(m, x[at(k)]);
                for (int k = 0; k < (rows ? 4 : 3); ++k) s += std::exp(x[at(k)] - m);
                for (int k = 0; k < (rows ? 4 : 3); ++k) {
                    sm[at(k)] = std::exp(x[at(k)] - m) / s;
                    lsm[at(k)] = x[at(k)] - m - std::log(s);
                }
            }
            T y, ly, tot;
            EM_OK(ember_softmax(ctx, t, axis, y.out()));
            EXPECT_EQ(dtype_of(y), rd);
            EXPECT_TRUE(all_close(values(y), sm, tol(rd), 1e-30)) << "axis " << axis;
            EM_OK(ember_log_softmax(ctx, t, axis, ly.out()));
            EXPECT_TRUE(all_close(values(ly), lsm, tol(rd), tol(rd))) << "axis " << axis;
            auto v = values(y);
            for (int o = 0; o < (rows ? 3 : 4); ++o) {  // rows sum to 1
                double s = 0;
                for (int k = 0; k < (rows ? 4 : 3); ++k) s += v[(size_t)(rows ? o * 4 + k : k * 4 + o)];
                EXPECT_NEAR(s, 1.0, 1e-6);
            }
        }
    }
    T f16 = make(V{10, 10, 9}, {3}, EMBER_FLOAT16), y;
    EM_OK(ember_softmax(ctx, f16, 0, y.out()));
    EXPECT_EQ(dtype_of(y), EMBER_FLOAT16);
    double e1 = std::exp(-1.0), den = 2 + e1;
    EXPECT_TRUE(all_close(values(y), {1 / den, 1 / den, e1 / den}, 2e-3));
    T ninf = make(V{-Inf, 0}, {2}, EMBER_FLOAT32);
    EM_OK(ember_softmax(ctx, ninf, 0, y.out()));
    EXPECT_EQ(values(y), (V{0, 1}));
    EM_FAILS(ember_softmax(ctx, f16, 1, y.out()), EMBER_ERR_INDEX, "ember_softmax");
    T s0 = make(V{3}, {}, EMBER_FLOAT64);  // 0-d: softmax 1, log_softmax 0
    EM_OK(ember_softmax(ctx, s0, 0, y.out()));
    EXPECT_EQ(values(y), V{1});
    EM_OK(ember_log_softmax(ctx, s0, 0, y.out()));
    EXPECT_EQ(values(y), V{0});
}

TEST(Reduce, Activations) {
    ember_ctx_t* ctx = test_ctx();
    const V x = {-4, -1.5, -0.5, 0, 0.25, 1, 2.5, 6};
    auto Phi = [](double v) { return 0.5 * (1 + std::erf(v / std::sqrt(2.0))); };
    for (ember_dtype_t d : {EMBER_FLOAT16, EMBER_BFLOAT16, EMBER_FLOAT32, EMBER_FLOAT64, EMBER_INT32}) {
        SCOPED_TRACE(ember_dtype_name(d));
        ember_dtype_t rd = float_of(d);
        V in = x;
        if (d == EMBER_INT32)
            for (auto& v : in) v = std::trunc(v);
        T t = make(in, {2, 4}, d), y;
        double tl = 2 * tol(rd);
        V g0, g1, lr, sg, sp, sl, re;
        for (double v : in) {
            g0.push_back(v * Phi(v));
            g1.push_back(0.5 * v * (1 + std::tanh(std::sqrt(2 / M_PI) * (v + 0.044715 * v * v * v))));
            lr.push_back(v > 0 ? v : 0.1 * v);
            sg.push_back(1 / (1 + std::exp(-v)));
            sp.push_back(std::log1p(std::exp(v)));
            sl.push_back(v / (1 + std::exp(-v)));
            re.push_back(std::max(v, 0.0));
        }
        EM_OK(ember_gelu(ctx, t, 0, y.out()));
        EXPECT_EQ(dtype_of(y), rd);
        EXPECT_TRUE(all_close(values(y), g0, tl, tl)) << "gelu erf";
        EM_OK(ember_gelu(ctx, t, 1, y.out()));
        EXPECT_EQ(dtype_of(y), rd);
        EXPECT_TRUE(all_close(values(y), g1, tl, tl)) << "gelu tanh";
        EM_OK(ember_leaky_relu(ctx, t, 0.1, y.out()));
        EXPECT_EQ(dtype_of(y), rd);
        EXPECT_TRUE(all_close(values(y), lr, tl, tl)) << "leaky_relu";
        EM_OK(ember_sigmoid(ctx, t, y.out()));
        EXPECT_TRUE(all_close(values(y), sg, tl, tl)) << "sigmoid";
        EM_OK(ember_softplus(ctx, t, y.out()));
        EXPECT_EQ(dtype_of(y), rd);
        EXPECT_TRUE(all_close(values(y), sp, tl, tl)) << "softplus";
        EM_OK(ember_silu(ctx, t, y.out()));
        EXPECT_EQ(dtype_of(y), rd);
        EXPECT_TRUE(all_close(values(y), sl, tl, tl)) << "silu";
        EM_OK(ember_relu(ctx, t, y.out()));
        EXPECT_EQ(dtype_of(y), d);  // relu keeps integer dtypes
        EXPECT_TRUE(all_close(values(y), re, 0)) << "relu";
    }
    // The two gelu forms differ (slightly) and both stay finite for large |x|.
    T big = make(V{-30, 30, 1}, {3}, EMBER_FLOAT32), a, b;
    EM_OK(ember_gelu(ctx, big, 0, a.out()));
    EM_OK(ember_gelu(ctx, big, 1, b.out()));
    EXPECT_TRUE(all_close(values(a), {0, 30, 0.8413447460685429}, 1e-6, 1e-6));
    EXPECT_TRUE(all_close(values(b), {0, 30, 0.8411919906082768}, 1e-6, 1e-6));
    T bl = make(V{1, 0}, {2}, EMBER_BOOL), z = make(V{1, 0}, {2}, EMBER_COMPLEX64), y;
    EM_FAILS(ember_leaky_relu(ctx, bl, 0.1, y.out()), EMBER_ERR_UNSUPPORTED_DTYPE, "ember_leaky_relu");
    EM_FAILS(ember_leaky_relu(ctx, z, 0.1, y.out()), EMBER_ERR_UNSUPPORTED_DTYPE, "ember_leaky_relu");
    EM_FAILS(ember_relu(ctx, bl, y.out()), EMBER_ERR_UNSUPPORTED_DTYPE, "ember_relu");
    EM_FAILS(ember_gelu(ctx, z, 0, y.out()), EMBER_ERR_UNSUPPORTED_DTYPE, "ember_gelu");
    EM_FAILS(ember_silu(ctx, z, y.out()), EMBER_ERR_UNSUPPORTED_DTYPE, "ember_silu");
}

// Activations, softmaxes and logsumexps of float16 and bfloat16 round once: computed in
// float32 (composites.cpp, float32_for_halves; the cpu kernels widen the same way), every
// value lies within one ulp of the float64 result of the same inputs. Computed step by step
// in the type itself, every intermediate rounded to 11 (8) bits, they were several ulp off.
TEST(Activations, HalfPrecisionCompositesRoundOnce) {
    ember_ctx_t* ctx = test_ctx();
    std::mt19937 rng(2026);
    std::uniform_real_distribution<double> uniform(-6, 6);
    const int64_t rows = 4, cols = 1000, last = 1;
    V x0((size_t)(rows * cols));
    for (auto& v : x0) v = uniform(rng);
    auto Phi = [](double v) { return 0.5 * std::erfc(-v / std::sqrt(2.0)); };
    for (ember_dtype_t d : {EMBER_FLOAT16, EMBER_BFLOAT16}) {
        SCOPED_TRACE(ember_dtype_name(d));
        const int mantissa = d == EMBER_FLOAT16 ? 10 : 7, min_exp = d == EMBER_FLOAT16 ? -14 : -126;
        auto worst_ulps = [&](const V& got, const V& want) {
            double worst = 0;
            for (size_t i = 0; i < want.size(); ++i) {
                const int e = want[i] == 0 ? min_exp : std::max(std::ilogb(want[i]), min_exp);
                worst = std::max(worst, std::fabs(got[i] - want[i]) / std::ldexp(1.0, e - mantissa));
            }
            return worst;
        };
        T t = make(x0, {rows, cols}, d), y;
        const V x = values(t);  // the inputs as the type holds them
        V g0, g1, sm(x.size()), lsm(x.size()), lse;
        for (double v : x) {
            g0.push_back(v * Phi(v));
            g1.push_back(v / (1 + std::exp(-2 * std::sqrt(2 / M_PI) * (v + 0.044715 * v * v * v))));
        }
        for (int64_t r = 0; r < rows; ++r) {
            const double* row = x.data() + r * cols;
            const double m = *std::max_element(row, row + cols);
            double s = 0;
            for (int64_t k = 0; k < cols; ++k) s += std::exp(row[k] - m);
            for (int64_t k = 0; k < cols; ++k) {
                sm[(size_t)(r * cols + k)] = std::exp(row[k] - m) / s;
                lsm[(size_t)(r * cols + k)] = row[k] - m - std::log(s);
            }
            lse.push_back(m + std::log(s));
        }
        EM_OK(ember_gelu(ctx, t, 0, y.out()));
        EXPECT_LE(worst_ulps(values(y), g0), 1.0) << "gelu erf";
        EM_OK(ember_gelu(ctx, t, 1, y.out()));
        EXPECT_LE(worst_ulps(values(y), g1), 1.0) << "gelu tanh";
        EM_OK(ember_softmax(ctx, t, last, y.out()));
        EXPECT_LE(worst_ulps(values(y), sm), 1.0) << "softmax";
        EM_OK(ember_log_softmax(ctx, t, last, y.out()));
        EXPECT_LE(worst_ulps(values(y), lsm), 1.0) << "log_softmax";
        EM_OK(ember_logsumexp(ctx, t, &last, 1, 0, y.out()));
        EXPECT_EQ(dtype_of(y), d);
        EXPECT_LE(worst_ulps(values(y), lse), 1.0) << "logsumexp";
        // silu down to -20, where sigmoid alone is below the type's smallest subnormal
        // (rounded step by step, silu(-18) in float16 was -0, not -2.98e-7)
        V wide;
        for (int k = 0; k <= 520; ++k) wide.push_back(-20 + k * 0.05);
        T tw = make(wide, {(int64_t)wide.size()}, d);
        V silu;
        for (double v : values(tw)) silu.push_back(v / (1 + std::exp(-v)));
        EM_OK(ember_silu(ctx, tw, y.out()));
        EXPECT_LE(worst_ulps(values(y), silu), 1.0) << "silu";
    }
}

}  // namespace
