// Statistics and features (issue 3): hand-derived expected values (float64 math, numpy's
// documented definitions), dtypes, batching over axes, empty / NaN inputs and error paths.
#include <algorithm>
#include <limits>

#include "test_util.hpp"

namespace {

ember_ctx_t* C() { return test_ctx(); }
const double kNaN = std::numeric_limits<double>::quiet_NaN();
const double kInf = std::numeric_limits<double>::infinity();

std::vector<double> iv(const ember_tensor_t* t) { return values(t); }

TEST(StatsQuantile, MethodsOnHandCase) {
    // n = 5 sorted {1, 2, 4, 8, 16} stored unsorted; q = 0.3 -> pos 1.2.
    T x = make<double>({8, 1, 16, 4, 2}, {5}, EMBER_FLOAT64);
    T r;
    EM_OK(ember_quantile(C(), x, 0.3, 0, EMBER_QUANTILE_LINEAR, 0, r.out()));
    EXPECT_TRUE(all_close(values(r), {2 + 0.2 * 2}, 1e-15));
    EM_OK(ember_quantile(C(), x, 0.3, 0, EMBER_QUANTILE_LOWER, 0, r.out()));
    EXPECT_TRUE(all_close(values(r), {2}, 0));
    EM_OK(ember_quantile(C(), x, 0.3, 0, EMBER_QUANTILE_HIGHER, 0, r.out()));
    EXPECT_TRUE(all_close(values(r), {4}, 0));
    EM_OK(ember_quantile(C(), x, 0.3, 0, EMBER_QUANTILE_NEAREST, 0, r.out()));
    EXPECT_TRUE(all_close(values(r), {2}, 0));
    EM_OK(ember_quantile(C(), x, 0.3, 0, EMBER_QUANTILE_MIDPOINT, 0, r.out()));
    EXPECT_TRUE(all_close(values(r), {3}, 0));
    // q = 0.875 -> pos 3.5: nearest rounds half to even (index 4); linear from the upper end.
    EM_OK(ember_quantile(C(), x, 0.875, 0, EMBER_QUANTILE_NEAREST, 0, r.out()));
    EXPECT_TRUE(all_close(values(r), {16}, 0));
    EM_OK(ember_quantile(C(), x, 0.625, 0, EMBER_QUANTILE_NEAREST, 0, r.out()));  // pos 2.5 -> 2
    EXPECT_TRUE(all_close(values(r), {4}, 0));
    EM_OK(ember_quantile(C(), x, 0.875, 0, EMBER_QUANTILE_LINEAR, 0, r.out()));
    EXPECT_TRUE(all_close(values(r), {12}, 1e-15));
    EM_OK(ember_quantile(C(), x, 1.0, 0, EMBER_QUANTILE_LINEAR, 0, r.out()));
    EXPECT_TRUE(all_close(values(r), {16}, 0));
    EM_OK(ember_percentile(C(), x, 0, 0, EMBER_QUANTILE_LINEAR, 0, r.out()));
    EXPECT_TRUE(all_close(values(r), {1}, 0));
    EM_OK(ember_percentile(C(), x, 30, 0, EMBER_QUANTILE_LINEAR, 0, r.out()));
    EXPECT_TRUE(all_close(values(r), {2.4}, 1e-15));
}

TEST(StatsQuantile, MedianAxesKeepdimsDtypes) {
    T x = make<double>({3, 1, 2, 10, 40, 20, 30, 0}, {2, 4}, EMBER_INT32);
    T r;
    EM_OK(ember_median(C(), x, 1, 0, r.out()));
    EXPECT_EQ(dtype_of(r), EMBER_FLOAT32);  // integer input: the default float
    EXPECT_TRUE(all_close(values(r), {2.5, 25}, 0));
    EM_OK(ember_median(C(), x, 0, 1, r.out()));
    EXPECT_EQ(shape_of(r), (std::vector<int64_t>{1, 4}));
    EXPECT_TRUE(all_close(values(r), {21.5, 10.5, 16, 5}, 0));
    EM_OK(ember_median(C(), x, EMBER_AXIS_NONE, 0, r.out()));
    EXPECT_TRUE(shape_of(r).empty());
    EXPECT_TRUE(all_close(values(r), {6.5}, 0));  // sorted 0 1 2 3 10 20 30 40
    EM_OK(ember_median(C(), x, EMBER_AXIS_NONE, 1, r.out()));
    EXPECT_EQ(shape_of(r), (std::vector<int64_t>{1, 1}));
    T h = make<double>({1, 2, 4}, {3}, EMBER_FLOAT16);
    EM_OK(ember_quantile(C(), h, 0.75, 0, EMBER_QUANTILE_LINEAR, 0, r.out()));
    EXPECT_EQ(dtype_of(r), EMBER_FLOAT16);
    EXPECT_TRUE(all_close(values(r), {3}, 0));
    T one = make<double>({7}, {1}, EMBER_FLOAT64);
    EM_OK(ember_median(C(), one, 0, 0, r.out()));
    EXPECT_TRUE(all_close(values(r), {7}, 0));
}

TEST(StatsQuantile, NaNInfEmptyAndErrors) {
    T x = make<double>({1, kNaN, 3, 1, 2, 3}, {2, 3}, EMBER_FLOAT64);
    T r;
    EM_OK(ember_median(C(), x, 1, 0, r.out()));
    auto v = values(r);
    EXPECT_TRUE(std::isnan(v[0]));
    EXPECT_EQ(v[1], 2);
    T inf = make<double>({kInf, kInf, 1}, {3}, EMBER_FLOAT64);
    EM_OK(ember_quantile(C(), inf, 0.75, 0, EMBER_QUANTILE_LINEAR, 0, r.out()));
    EXPECT_EQ(values(r)[0], kInf);  // equal ends interpolate exactly (no inf - inf)
    T e = make<double>({}, {0}, EMBER_FLOAT64);
    EM_FAILS(ember_median(C(), e, 0, 0, r.out()), EMBER_ERR_SHAPE, "ember_median");
    EM_FAILS(ember_quantile(C(), x, 1.5, 1, EMBER_QUANTILE_LINEAR, 0, r.out()), EMBER_ERR_INVALID_ARGUMENT, "ember_quantile");
    EM_FAILS(ember_quantile(C(), x, kNaN, 1, EMBER_QUANTILE_LINEAR, 0, r.out()), EMBER_ERR_INVALID_ARGUMENT, "ember_quantile");
    EM_FAILS(ember_quantile(C(), x, 0.5, 1, (ember_quantile_method_t)9, 0, r.out()), EMBER_ERR_INVALID_ARGUMENT, "ember_quantile");
    EM_FAILS(ember_percentile(C(), x, 101, 1, EMBER_QUANTILE_LINEAR, 0, r.out()), EMBER_ERR_INVALID_ARGUMENT, "ember_percentile");
    EM_FAILS(ember_median(C(), x, 2, 0, r.out()), EMBER_ERR_INDEX, "ember_median");
    T c = make<double>({1, 2}, {2}, EMBER_COMPLEX128);
    EM_FAILS(ember_median(C(), c, 0, 0, r.out()), EMBER_ERR_UNSUPPORTED_DTYPE, "ember_median");
}

TEST(StatsNan, Reductions) {
    T x = make<double>({1, kNaN, 3, kNaN, kNaN, kNaN}, {2, 3}, EMBER_FLOAT64);
    int64_t ax1 = 1;
    T r;
    EM_OK(ember_nansum(C(), x, &ax1, 1, 0, r.out()));
    EXPECT_TRUE(all_close(values(r), {4, 0}, 0));
    EM_OK(ember_nanmean(C(), x, &ax1, 1, 0, r.out()));
    auto m = values(r);
    EXPECT_EQ(m[0], 2);
    EXPECT_TRUE(std::isnan(m[1]));
    EM_OK(ember_nanmax(C(), x, &ax1, 1, 1, r.out()));
    EXPECT_EQ(shape_of(r), (std::vector<int64_t>{2, 1}));
    m = values(r);
    EXPECT_EQ(m[0], 3);
    EXPECT_TRUE(std::isnan(m[1]));
    EM_OK(ember_nanmin(C(), x, nullptr, 0, 0, r.out()));
    EXPECT_TRUE(all_close(values(r), {1}, 0));
    T neg = make<double>({kNaN, -kInf, -5}, {3}, EMBER_FLOAT32);
    EM_OK(ember_nanmax(C(), neg, nullptr, 0, 0, r.out()));
    EXPECT_EQ(dtype_of(r), EMBER_FLOAT32);
    EXPECT_TRUE(all_close(values(r), {-5}, 0));
    EM_OK(ember_nanmin(C(), neg, nullptr, 0, 0, r.out()));
    EXPECT_EQ(values(r)[0], -kInf);
    // Integers: plain reductions; nanmean gives the default float.
    T i = make<double>({1, 2, 4}, {3}, EMBER_INT16);
    EM_OK(ember_nansum(C(), i, nullptr, 0, 0, r.out()));
    EXPECT_EQ(dtype_of(r), EMBER_INT64);
    EXPECT_TRUE(all_close(values(r), {7}, 0));
    EM_OK(ember_nanmean(C(), i, nullptr, 0, 0, r.out()));
    EXPECT_EQ(dtype_of(r), EMBER_FLOAT32);
    EXPECT_TRUE(all_close(values(r), {7.0 / 3}, 1e-7));
    EM_OK(ember_nanmax(C(), i, nullptr, 0, 0, r.out()));
    EXPECT_EQ(dtype_of(r), EMBER_INT16);
    EXPECT_TRUE(all_close(values(r), {4}, 0));
    // Empty: nansum 0, nanmean NaN, nanmax error.
    T e = make<double>({}, {0}, EMBER_FLOAT64);
    EM_OK(ember_nansum(C(), e, nullptr, 0, 0, r.out()));
    EXPECT_EQ(values(r)[0], 0);
    EM_OK(ember_nanmean(C(), e, nullptr, 0, 0, r.out()));
    EXPECT_TRUE(std::isnan(values(r)[0]));
    EM_FAILS(ember_nanmax(C(), e, nullptr, 0, 0, r.out()), EMBER_ERR_SHAPE, "ember_nanmax");
    int64_t bad = 3;
    EM_FAILS(ember_nansum(C(), x, &bad, 1, 0, r.out()), EMBER_ERR_INDEX, "ember_nansum");
}

TEST(StatsAverage, WeightsAlongAxisAndAll) {
    T x = make<double>({1, 2, 3, 4, 5, 6}, {2, 3}, EMBER_FLOAT64);
    T w = make<double>({3, 0, 1}, {3}, EMBER_FLOAT64);
    T r, sw;
    EM_OK(ember_average(C(), x, w, 1, 0, r.out(), sw.out()));
    EXPECT_TRUE(all_close(values(r), {(3 + 3) / 4.0, (12 + 6) / 4.0}, 1e-15));
    EXPECT_TRUE(all_close(values(sw), {4, 4}, 0));
    T wf = make<double>({1, 1, 1, 1, 1, 5}, {2, 3}, EMBER_FLOAT64);
    EM_OK(ember_average(C(), x, wf, EMBER_AXIS_NONE, 0, r.out(), nullptr));
    EXPECT_TRUE(all_close(values(r), {(1 + 2 + 3 + 4 + 5 + 30) / 10.0}, 1e-15));
    EM_OK(ember_average(C(), x, nullptr, 0, 1, r.out(), sw.out()));
    EXPECT_EQ(shape_of(r), (std::vector<int64_t>{1, 3}));
    EXPECT_TRUE(all_close(values(r), {2.5, 3.5, 4.5}, 0));
    EXPECT_TRUE(all_close(values(sw), {2, 2, 2}, 0));
    T xi = make<double>({1, 2}, {2}, EMBER_INT32);
    EM_OK(ember_average(C(), xi, nullptr, EMBER_AXIS_NONE, 0, r.out(), nullptr));
    EXPECT_EQ(dtype_of(r), EMBER_FLOAT32);
    EXPECT_TRUE(all_close(values(r), {1.5}, 0));
    T w0 = make<double>({1, -1, 0}, {3}, EMBER_FLOAT64);
    EM_FAILS(ember_average(C(), x, w0, 1, 0, r.out(), nullptr), EMBER_ERR_INVALID_ARGUMENT, "ember_average");
    T w2 = make<double>({1, 2}, {2}, EMBER_FLOAT64);
    EM_FAILS(ember_average(C(), x, w2, 1, 0, r.out(), nullptr), EMBER_ERR_SHAPE, "ember_average");
    EM_FAILS(ember_average(C(), x, w, EMBER_AXIS_NONE, 0, r.out(), nullptr), EMBER_ERR_SHAPE, "ember_average");
}

TEST(StatsCounting, HistogramMatchesNumpyEdges) {
    // numpy.histogram([0, 0.1, 0.2, 0.3, 1, 2.5, 3, -1, nan], bins=3, range=(0, 3))
    // edges 0,1,2,3; counts [4, 1, 2] (1 -> bin 1, 3 -> last bin, -1 and NaN dropped).
    T x = make<double>({0, 0.1, 0.2, 0.3, 1, 2.5, 3, -1, kNaN}, {9}, EMBER_FLOAT64);
    T c, e;
    EM_OK(ember_histogram(C(), x, 3, 0, 3, nullptr, c.out(), e.out()));
    EXPECT_EQ(dtype_of(c), EMBER_INT64);
    EXPECT_TRUE(all_close(values(c), {4, 1, 2}, 0));
    EXPECT_TRUE(all_close(values(e), {0, 1, 2, 3}, 0));
    // Edges that are not exact in binary: 0.1-wide bins over [0, 1]; values on edges go up.
    std::vector<double> xs;
    for (int i = 0; i <= 10; ++i) xs.push_back(i * 0.1);  // i*0.1 vs edges i*0.1: the same double
    T x2 = make<double>(xs, {11}, EMBER_FLOAT64);
    EM_OK(ember_histogram(C(), x2, 10, 0, 1, nullptr, c.out(), e.out()));
    EXPECT_TRUE(all_close(values(c), {1, 1, 1, 1, 1, 1, 1, 1, 1, 2}, 0));
    // Auto range over a 2-d int tensor, and weights.
    T xi = make<double>({1, 2, 2, 3, 3, 3}, {2, 3}, EMBER_INT32);
    EM_OK(ember_histogram(C(), xi, 2, 0, 0, nullptr, c.out(), e.out()));
    EXPECT_TRUE(all_close(values(c), {1, 5}, 0));  // [1, 2) and [2, 3]
    EXPECT_TRUE(all_close(values(e), {1, 2, 3}, 0));
    T w = make<double>({0.5, 1, 1, 2, 2, 2}, {2, 3}, EMBER_FLOAT32);
    EM_OK(ember_histogram(C(), xi, 2, 0, 0, w, c.out(), nullptr));
    EXPECT_EQ(dtype_of(c), EMBER_FLOAT32);
    EXPECT_TRUE(all_close(values(c), {0.5, 8}, 0));
    // A constant input widens to [v - 0.5, v + 0.5]; empty input uses [0, 1].
    T k = make<double>({5, 5}, {2}, EMBER_FLOAT64);
    EM_OK(ember_histogram(C(), k, 2, 0, 0, nullptr, c.out(), e.out()));
    EXPECT_TRUE(all_close(values(e), {4.5, 5, 5.5}, 0));
    EXPECT_TRUE(all_close(values(c), {0, 2}, 0));
    T em = make<double>({}, {0}, EMBER_FLOAT64);
    EM_OK(ember_histogram(C(), em, 4, 0, 0, nullptr, c.out(), e.out()));
    EXPECT_TRUE(all_close(values(c), {0, 0, 0, 0}, 0));
    EXPECT_TRUE(all_close(values(e), {0, 0.25, 0.5, 0.75, 1}, 0));
    EM_FAILS(ember_histogram(C(), x, 3, 0, 0, nullptr, c.out(), nullptr), EMBER_ERR_INVALID_ARGUMENT, "ember_histogram");  // NaN, auto range
    EM_FAILS(ember_histogram(C(), x, 0, 0, 3, nullptr, c.out(), nullptr), EMBER_ERR_INVALID_ARGUMENT, "ember_histogram");
    EM_FAILS(ember_histogram(C(), x, 3, 3, 0, nullptr, c.out(), nullptr), EMBER_ERR_INVALID_ARGUMENT, "ember_histogram");
    EM_FAILS(ember_histogram(C(), x, 3, 0, kInf, nullptr, c.out(), nullptr), EMBER_ERR_INVALID_ARGUMENT, "ember_histogram");
    EM_FAILS(ember_histogram(C(), xi, 2, 0, 0, k, c.out(), nullptr), EMBER_ERR_SHAPE, "ember_histogram");
}

TEST(StatsCounting, Bincount) {
    T x = make<double>({0, 1, 1, 3, 1}, {5}, EMBER_UINT8);
    T r;
    EM_OK(ember_bincount(C(), x, nullptr, 0, r.out()));
    EXPECT_EQ(dtype_of(r), EMBER_INT64);
    EXPECT_TRUE(all_close(values(r), {1, 3, 0, 1}, 0));
    EM_OK(ember_bincount(C(), x, nullptr, 6, r.out()));
    EXPECT_TRUE(all_close(values(r), {1, 3, 0, 1, 0, 0}, 0));
    T w = make<double>({0.5, 1, 2, 4, 8}, {5}, EMBER_FLOAT64);
    EM_OK(ember_bincount(C(), x, w, 0, r.out()));
    EXPECT_EQ(dtype_of(r), EMBER_FLOAT64);
    EXPECT_TRUE(all_close(values(r), {0.5, 11, 0, 4}, 0));
    T e = make<double>({}, {0}, EMBER_INT64);
    EM_OK(ember_bincount(C(), e, nullptr, 3, r.out()));
    EXPECT_TRUE(all_close(values(r), {0, 0, 0}, 0));
    T neg = make<double>({1, -2}, {2}, EMBER_INT32);
    EM_FAILS(ember_bincount(C(), neg, nullptr, 0, r.out()), EMBER_ERR_INVALID_ARGUMENT, "ember_bincount");
    T fl = make<double>({1, 2}, {2}, EMBER_FLOAT32);
    EM_FAILS(ember_bincount(C(), fl, nullptr, 0, r.out()), EMBER_ERR_UNSUPPORTED_DTYPE, "ember_bincount");
    T two = make<double>({1, 2}, {1, 2}, EMBER_INT32);
    EM_FAILS(ember_bincount(C(), two, nullptr, 0, r.out()), EMBER_ERR_SHAPE, "ember_bincount");
    EM_FAILS(ember_bincount(C(), x, nullptr, -1, r.out()), EMBER_ERR_INVALID_ARGUMENT, "ember_bincount");
}

TEST(StatsCounting, UniqueAllOutputs) {
    T x = make<double>({3, 1, 2, 3, kNaN, 1, -0.0, kNaN, 0}, {3, 3}, EMBER_FLOAT64);
    T v, idx, inv, cnt;
    EM_OK(ember_unique(C(), x, v.out(), idx.out(), inv.out(), cnt.out()));
    auto vals = values(v);
    ASSERT_EQ(vals.size(), 5u);  // 0 (both zeros), 1, 2, 3, NaN
    EXPECT_TRUE(all_close({vals[0], vals[1], vals[2], vals[3]}, {0, 1, 2, 3}, 0));
    EXPECT_TRUE(std::isnan(vals[4]));
    EXPECT_TRUE(all_close(values(idx), {6, 1, 2, 0, 4}, 0));
    EXPECT_EQ(shape_of(inv), (std::vector<int64_t>{3, 3}));
    EXPECT_TRUE(all_close(values(inv), {3, 1, 2, 3, 4, 1, 0, 4, 0}, 0));
    EXPECT_TRUE(all_close(values(cnt), {2, 2, 1, 2, 2}, 0));
    // The zero group's value is the first zero of x, with or without indices (a stable sort).
    EXPECT_TRUE(std::signbit(vals[0]));
    EM_OK(ember_unique(C(), x, v.out(), nullptr, nullptr, cnt.out()));
    EXPECT_TRUE(std::signbit(values(v)[0]));
    EXPECT_TRUE(all_close(values(cnt), {2, 2, 1, 2, 2}, 0));
    T plus_first = make<double>({0.0, 5, -0.0}, {3}, EMBER_FLOAT32);
    EM_OK(ember_unique(C(), plus_first, v.out(), nullptr, nullptr, nullptr));
    EXPECT_FALSE(std::signbit(values(v)[0]));
    // Integer, only values requested; empty input.
    T xi = make<double>({5, 5, 5}, {3}, EMBER_INT8);
    EM_OK(ember_unique(C(), xi, v.out(), nullptr, nullptr, cnt.out()));
    EXPECT_EQ(dtype_of(v), EMBER_INT8);
    EXPECT_TRUE(all_close(values(v), {5}, 0));
    EXPECT_TRUE(all_close(values(cnt), {3}, 0));
    T e = make<double>({}, {0, 2}, EMBER_FLOAT32);
    EM_OK(ember_unique(C(), e, v.out(), idx.out(), inv.out(), cnt.out()));
    EXPECT_EQ(shape_of(v), (std::vector<int64_t>{0}));
    EXPECT_EQ(shape_of(inv), (std::vector<int64_t>{0, 2}));
    EM_FAILS(ember_unique(C(), x, nullptr, nullptr, nullptr, nullptr), EMBER_ERR_INVALID_ARGUMENT, "ember_unique");
}

TEST(StatsSearch, SearchsortedLeftRight) {
    T s = make<double>({1, 2, 2, 3, kNaN}, {5}, EMBER_FLOAT64);
    T v = make<double>({0, 2, 2.5, 3, 9, kNaN}, {2, 3}, EMBER_FLOAT64);
    T r;
    EM_OK(ember_searchsorted(C(), s, v, 0, r.out()));
    EXPECT_EQ(dtype_of(r), EMBER_INT64);
    EXPECT_EQ(shape_of(r), (std::vector<int64_t>{2, 3}));
    EXPECT_TRUE(all_close(values(r), {0, 1, 3, 3, 4, 4}, 0));
    EM_OK(ember_searchsorted(C(), s, v, 1, r.out()));
    EXPECT_TRUE(all_close(values(r), {0, 3, 3, 4, 4, 5}, 0));
    // Mixed dtypes promote; a strided (reversed) sequence view; empty sequence.
    T si = make<double>({30, 20, 10}, {3}, EMBER_INT32);
    T rev;
    int64_t ax = 0;
    EM_OK(ember_flip(C(), si, &ax, 1, rev.out()));
    T vf = make<double>({15.5, 10}, {2}, EMBER_FLOAT32);
    EM_OK(ember_searchsorted(C(), rev, vf, 0, r.out()));
    EXPECT_TRUE(all_close(values(r), {1, 0}, 0));
    T e = make<double>({}, {0}, EMBER_FLOAT64);
    EM_OK(ember_searchsorted(C(), e, vf, 1, r.out()));
    EXPECT_TRUE(all_close(values(r), {0, 0}, 0));
    T two = make<double>({1, 2}, {1, 2}, EMBER_FLOAT64);
    EM_FAILS(ember_searchsorted(C(), two, vf, 0, r.out()), EMBER_ERR_SHAPE, "ember_searchsorted");
    T c = make<double>({1, 2}, {2}, EMBER_COMPLEX64);
    EM_FAILS(ember_searchsorted(C(), c, vf, 0, r.out()), EMBER_ERR_UNSUPPORTED_DTYPE, "ember_searchsorted");
}

TEST(StatsSearch, Topk) {
    T x = make<double>({5, 1, 5, 7, 2, 9, kNaN, 0}, {2, 4}, EMBER_FLOAT32);
    T v, i;
    EM_OK(ember_topk(C(), x, 2, 1, 1, v.out(), i.out()));
    EXPECT_EQ(shape_of(v), (std::vector<int64_t>{2, 2}));
    EXPECT_EQ(dtype_of(v), EMBER_FLOAT32);
    auto vv = values(v);
    EXPECT_EQ(vv[0], 7);
    EXPECT_EQ(vv[1], 5);
    EXPECT_TRUE(std::isnan(vv[2]));  // NaN counts as largest
    EXPECT_EQ(vv[3], 9);
    EXPECT_TRUE(all_close(values(i), {3, 0, 2, 1}, 0));  // ties: lower index first
    EM_OK(ember_topk(C(), x, 3, -1, 0, v.out(), i.out()));
    EXPECT_TRUE(all_close(values(v), {1, 5, 5, 0, 2, 9}, 0));
    EXPECT_TRUE(all_close(values(i), {1, 0, 2, 3, 0, 1}, 0));
    EM_OK(ember_topk(C(), x, 0, 1, 1, v.out(), nullptr));
    EXPECT_EQ(shape_of(v), (std::vector<int64_t>{2, 0}));
    EM_OK(ember_topk(C(), x, 1, 0, 1, v.out(), i.out()));
    EXPECT_EQ(shape_of(v), (std::vector<int64_t>{1, 4}));
    EXPECT_TRUE(all_close(values(i), {0, 1, 1, 0}, 0));  // columns (5,2) (1,9) (5,NaN) (7,0)
    EM_FAILS(ember_topk(C(), x, 5, 1, 1, v.out(), nullptr), EMBER_ERR_INVALID_ARGUMENT, "ember_topk");
    EM_FAILS(ember_topk(C(), x, -1, 1, 1, v.out(), nullptr), EMBER_ERR_INVALID_ARGUMENT, "ember_topk");
    T s = make<double>({1}, {}, EMBER_FLOAT32);
    EM_FAILS(ember_topk(C(), s, 1, 0, 1, v.out(), nullptr), EMBER_ERR_SHAPE, "ember_topk");
}

TEST(StatsScan, CummaxCummin) {
    std::vector<double> d = {3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5};
    T x = make<double>(d, {11}, EMBER_INT32);
    T r;
    EM_OK(ember_cummax(C(), x, 0, r.out()));
    EXPECT_EQ(dtype_of(r), EMBER_INT32);
    std::vector<double> want(d.size()), wmin(d.size());
    double m = -1e9, mn = 1e9;
    for (size_t i = 0; i < d.size(); ++i) {
        m = std::max(m, d[i]);
        mn = std::min(mn, d[i]);
        want[i] = m;
        wmin[i] = mn;
    }
    EXPECT_TRUE(all_close(values(r), want, 0));
    EM_OK(ember_cummin(C(), x, -1, r.out()));
    EXPECT_TRUE(all_close(values(r), wmin, 0));
    // 2-d along axis 0, NaN propagating, axis NONE flattens.
    T y = make<double>({1, 5, kNaN, 2, 3, 7}, {3, 2}, EMBER_FLOAT64);
    EM_OK(ember_cummax(C(), y, 0, r.out()));
    auto v = values(r);
    EXPECT_EQ(v[0], 1);
    EXPECT_EQ(v[1], 5);
    EXPECT_TRUE(std::isnan(v[2]));
    EXPECT_EQ(v[3], 5);
    EXPECT_TRUE(std::isnan(v[4]));
    EXPECT_EQ(v[5], 7);
    EM_OK(ember_cummin(C(), y, EMBER_AXIS_NONE, r.out()));
    EXPECT_EQ(shape_of(r), (std::vector<int64_t>{6}));
    v = values(r);
    EXPECT_EQ(v[1], 1);
    EXPECT_TRUE(std::isnan(v[2]) && std::isnan(v[5]));
    T b = make<double>({0, 1, 0}, {3}, EMBER_BOOL);
    EM_OK(ember_cummax(C(), b, 0, r.out()));
    EXPECT_EQ(dtype_of(r), EMBER_BOOL);
    EXPECT_TRUE(all_close(values(r), {0, 1, 1}, 0));
    T e = make<double>({}, {0}, EMBER_FLOAT32);
    EM_OK(ember_cummax(C(), e, 0, r.out()));
    EXPECT_EQ(shape_of(r), (std::vector<int64_t>{0}));
    T c = make<double>({1}, {1}, EMBER_COMPLEX64);
    EM_FAILS(ember_cummax(C(), c, 0, r.out()), EMBER_ERR_UNSUPPORTED_DTYPE, "ember_cummax");
    EM_FAILS(ember_cummin(C(), x, 1, r.out()), EMBER_ERR_INDEX, "ember_cummin");
}

TEST(StatsScan, DiffAndGradient) {
    T x = make<double>({1, 2, 4, 7, 0, 1, 4, 9}, {2, 4}, EMBER_INT64);
    T r;
    EM_OK(ember_diff(C(), x, 1, -1, r.out()));
    EXPECT_EQ(dtype_of(r), EMBER_INT64);
    EXPECT_EQ(shape_of(r), (std::vector<int64_t>{2, 3}));
    EXPECT_TRUE(all_close(values(r), {1, 2, 3, 1, 3, 5}, 0));
    EM_OK(ember_diff(C(), x, 2, 1, r.out()));
    EXPECT_TRUE(all_close(values(r), {1, 1, 2, 2}, 0));
    EM_OK(ember_diff(C(), x, 1, 0, r.out()));
    EXPECT_TRUE(all_close(values(r), {-1, -1, 0, 2}, 0));
    EM_OK(ember_diff(C(), x, 9, 1, r.out()));
    EXPECT_EQ(shape_of(r), (std::vector<int64_t>{2, 0}));
    EM_OK(ember_diff(C(), x, 0, 1, r.out()));
    EXPECT_EQ(shape_of(r), (std::vector<int64_t>{2, 4}));
    T b = make<double>({1, 1, 0, 1}, {4}, EMBER_BOOL);
    EM_OK(ember_diff(C(), b, 1, 0, r.out()));
    EXPECT_EQ(dtype_of(r), EMBER_BOOL);
    EXPECT_TRUE(all_close(values(r), {0, 1, 1}, 0));
    EM_FAILS(ember_diff(C(), x, -1, 0, r.out()), EMBER_ERR_INVALID_ARGUMENT, "ember_diff");
    // gradient of f(t) = t^2 at spacing 0.5: exact in the interior and with edge_order 2.
    std::vector<double> t, f;
    for (int i = 0; i < 6; ++i) {
        t.push_back(0.5 * i);
        f.push_back(t.back() * t.back());
    }
    T fx = make<double>(f, {6}, EMBER_FLOAT64);
    EM_OK(ember_gradient(C(), fx, 0.5, 0, 2, r.out()));
    std::vector<double> want;
    for (double v : t) want.push_back(2 * v);
    EXPECT_TRUE(all_close(values(r), want, 1e-14, 1e-14));
    EM_OK(ember_gradient(C(), fx, 0.5, 0, 1, r.out()));
    want.front() = (f[1] - f[0]) / 0.5;
    want.back() = (f[5] - f[4]) / 0.5;
    EXPECT_TRUE(all_close(values(r), want, 1e-14, 1e-14));
    // Integer input along axis 1 of a batch; float result.
    EM_OK(ember_gradient(C(), x, 1.0, 1, 1, r.out()));
    EXPECT_EQ(dtype_of(r), EMBER_FLOAT32);
    EXPECT_TRUE(all_close(values(r), {1, 1.5, 2.5, 3, 1, 2, 4, 5}, 0));
    T two = make<double>({1, 3}, {2}, EMBER_FLOAT64);
    EM_OK(ember_gradient(C(), two, 2.0, 0, 1, r.out()));
    EXPECT_TRUE(all_close(values(r), {1, 1}, 0));
    EM_FAILS(ember_gradient(C(), two, 1.0, 0, 2, r.out()), EMBER_ERR_SHAPE, "ember_gradient");
    EM_FAILS(ember_gradient(C(), two, 0.0, 0, 1, r.out()), EMBER_ERR_INVALID_ARGUMENT, "ember_gradient");
    EM_FAILS(ember_gradient(C(), two, 1.0, 0, 3, r.out()), EMBER_ERR_INVALID_ARGUMENT, "ember_gradient");
}

// int64 timestamps near 1.7e9, 1000 apart: cast to float32 first (a grid of 128 there),
// their covariance, correlation and standardized values came out wrong; they are centred
// in float64 and rounded once to the float32 result.
TEST(StatsCov, WideIntegersCentredInFloat64) {
    const int64_t stamps[8] = {1700000000, 1700001000, 1700002000, 1700003000, 1700003000, 1700002000, 1700001000, 1700000000};
    const int64_t shape[2] = {2, 4};
    T x, r;
    EM_OK(ember_tensor_from_data(C(), stamps, EMBER_INT64, shape, 2, x.out()));
    EM_OK(ember_cov(C(), x, 1, 1.0, r.out()));
    EXPECT_EQ(dtype_of(r), EMBER_FLOAT32);
    const double v = 5e6 / 3;  // sum of squared deviations 5e6, over n - 1 = 3
    EXPECT_TRUE(all_close(values(r), {v, -v, -v, v}, 1e-6));
    EM_OK(ember_corrcoef(C(), x, 1, r.out()));
    EXPECT_TRUE(all_close(values(r), {1, -1, -1, 1}, 1e-6));
    const int64_t last = 1;
    EM_OK(ember_standardize(C(), x, &last, 1, r.out()));
    EXPECT_EQ(dtype_of(r), EMBER_FLOAT32);
    const double z = 1500 / std::sqrt(1.25e6);  // population std of 0, 1000, 2000, 3000
    const double w = 500 / std::sqrt(1.25e6);
    EXPECT_TRUE(all_close(values(r), {-z, -w, w, z, z, w, -w, -z}, 1e-6));
}

TEST(StatsCov, CovAndCorrcoef) {
    // Variables in rows: x0 = [0, 1, 2], x1 = [2, 1, 0], x2 = [1, 1, 4].
    T x = make<double>({0, 1, 2, 2, 1, 0, 1, 1, 4}, {3, 3}, EMBER_FLOAT64);
    T r;
    EM_OK(ember_cov(C(), x, 1, 1.0, r.out()));
    // means 1, 1, 2; deviations [-1,0,1], [1,0,-1], [-1,-1,2]
    EXPECT_TRUE(all_close(values(r), {1, -1, 1.5, -1, 1, -1.5, 1.5, -1.5, 3}, 1e-15));
    EM_OK(ember_cov(C(), x, 1, 0.0, r.out()));
    EXPECT_TRUE(all_close(values(r), {2.0 / 3, -2.0 / 3, 1, -2.0 / 3, 2.0 / 3, -1, 1, -1, 2}, 1e-15));
    T xt;
    EM_OK(ember_matrix_transpose(C(), x, xt.out()));
    EM_OK(ember_cov(C(), xt, 0, 1.0, r.out()));  // rowvar = 0 on the transpose: same matrix
    EXPECT_TRUE(all_close(values(r), {1, -1, 1.5, -1, 1, -1.5, 1.5, -1.5, 3}, 1e-15));
    EM_OK(ember_corrcoef(C(), x, 1, r.out()));
    double c = 1.5 / std::sqrt(3.0);
    EXPECT_TRUE(all_close(values(r), {1, -1, c, -1, 1, -c, c, -c, 1}, 1e-15));
    T v = make<double>({1, 2, 3, 4}, {4}, EMBER_INT32);
    EM_OK(ember_cov(C(), v, 1, 1.0, r.out()));
    EXPECT_TRUE(shape_of(r).empty());
    EXPECT_TRUE(all_close(values(r), {5.0 / 3}, 1e-6));
    // A constant variable: NaN correlations.
    T k = make<double>({1, 2, 3, 5, 5, 5}, {2, 3}, EMBER_FLOAT64);
    EM_OK(ember_corrcoef(C(), k, 1, r.out()));
    auto cv = values(r);
    EXPECT_EQ(cv[0], 1);
    EXPECT_TRUE(std::isnan(cv[1]) && std::isnan(cv[3]));
    // Complex: Hermitian.
    T z;
    std::vector<std::complex<double>> zd = {{1, 1}, {0, 0}, {0, 2}, {1, 0}};
    EM_OK(ember_tensor_from_data(C(), zd.data(), EMBER_COMPLEX128, std::vector<int64_t>{2, 2}.data(), 2, z.out()));
    EM_OK(ember_cov(C(), z, 1, 1.0, r.out()));
    auto zc = values_c(r);
    // rows: a = [1+i, 0] (mean (1+i)/2, dev ±(1+i)/2), b = [2i, 1] (mean (1+2i)/2, dev ±(-1+2i)/2)
    // cov(a, b) = 2 * ((1+i)/2) * conj((-1+2i)/2) = (1+i)(-1-2i)/2 = (1 - 3i)/2
    EXPECT_NEAR(zc[0].real(), 1.0, 1e-15);
    EXPECT_NEAR(zc[1].real(), 0.5, 1e-15);
    EXPECT_NEAR(zc[1].imag(), -1.5, 1e-15);
    EXPECT_NEAR(zc[2].imag(), 1.5, 1e-15);
    T s = make<double>({1}, {}, EMBER_FLOAT64);
    EM_FAILS(ember_cov(C(), s, 1, 1.0, r.out()), EMBER_ERR_SHAPE, "ember_cov");
    T three = make<double>({1, 2}, {1, 1, 2}, EMBER_FLOAT64);
    EM_FAILS(ember_corrcoef(C(), three, 1, r.out()), EMBER_ERR_SHAPE, "ember_corrcoef");
}

TEST(StatsFeatures, StandardizeAndNormalize) {
    T x = make<double>({1, 2, 3, 4, 4, 4}, {2, 3}, EMBER_FLOAT64);
    int64_t ax = 1;
    T r;
    EM_OK(ember_standardize(C(), x, &ax, 1, r.out()));
    double s = std::sqrt(2.0 / 3);
    EXPECT_TRUE(all_close(values(r), {-1 / s, 0, 1 / s, 0, 0, 0}, 1e-15));  // constant row -> 0
    EM_OK(ember_standardize(C(), x, nullptr, 0, r.out()));
    auto v = values(r);
    double mean = 0, var = 0;
    for (double a : v) mean += a / 6;
    for (double a : v) var += (a - mean) * (a - mean) / 6;
    EXPECT_NEAR(mean, 0, 1e-15);
    EXPECT_NEAR(var, 1, 1e-14);
    T xi = make<double>({3, 4, 0, 0}, {2, 2}, EMBER_INT32);
    EM_OK(ember_normalize(C(), xi, 2, 1, 1e-12, r.out()));
    EXPECT_EQ(dtype_of(r), EMBER_FLOAT32);
    EXPECT_TRUE(all_close(values(r), {0.6, 0.8, 0, 0}, 1e-7));
    EM_OK(ember_normalize(C(), xi, 1, 1, 0, r.out()));
    auto n1 = values(r);
    EXPECT_TRUE(close(n1[0], 3.0 / 7, 1e-7) && close(n1[1], 4.0 / 7, 1e-7));
    EXPECT_TRUE(std::isnan(n1[2]));  // 0 / max(0, eps = 0)
    EM_OK(ember_normalize(C(), xi, INFINITY, 0, 1e-12, r.out()));
    EXPECT_TRUE(all_close(values(r), {1, 1, 0, 0}, 0));
    T y = make<double>({1, -2, 2}, {3}, EMBER_FLOAT64);
    EM_OK(ember_normalize(C(), y, 3, 0, 0, r.out()));
    double n3 = std::cbrt(17.0);
    EXPECT_TRUE(all_close(values(r), {1 / n3, -2 / n3, 2 / n3}, 1e-15));
    EM_FAILS(ember_normalize(C(), y, 0, 0, 0, r.out()), EMBER_ERR_INVALID_ARGUMENT, "ember_normalize");
    EM_FAILS(ember_normalize(C(), y, 2, 0, -1, r.out()), EMBER_ERR_INVALID_ARGUMENT, "ember_normalize");
    EM_FAILS(ember_normalize(C(), y, 2, 1, 0, r.out()), EMBER_ERR_INDEX, "ember_normalize");
    T c = make<double>({1}, {1}, EMBER_COMPLEX64);
    EM_FAILS(ember_standardize(C(), c, nullptr, 0, r.out()), EMBER_ERR_UNSUPPORTED_DTYPE, "ember_standardize");
    (void)iv;
}

}  // namespace
