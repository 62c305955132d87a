// The cpu backend's statistics kernels against the reference backend's composites.
#include <cmath>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "cpu_contexts.hpp"
#include "ember/ember_stats.h"

namespace {

using NanReduction = ember_status_t (*)(ember_ctx_t*, const ember_tensor_t*, const int64_t*, int, int, ember_tensor_t**);
struct NanOp {
    const char* name;
    NanReduction fn;
    bool extreme;  // max or min: exact; sums and means round differently
};
const NanOp kNanOps[] = {{"nansum", ember_nansum, false}, {"nanmean", ember_nanmean, false}, {"nanmax", ember_nanmax, true}, {"nanmin", ember_nanmin, true}};

// op of x over axes on cpu and on the reference. Sums are pairwise in double on cpu, in the
// reference's own order there: a float32 sum of `group` values in [-5, 5] may differ by a
// few float32 roundings of the sum of magnitudes; maxima and minima must be identical.
void expect_nan_op_matches(const NanOp& op, const ember_tensor_t* x, const std::vector<int64_t>& axes, int keepdims, int64_t group, const std::string& what) {
    T got, want;
    const int64_t* ax = axes.empty() ? nullptr : axes.data();
    ASSERT_EQ(op.fn(cpu(), x, ax, (int)axes.size(), keepdims, got.out()), EMBER_OK) << what << ": " << ember_last_error();
    ASSERT_EQ(op.fn(ref(), (const ember_tensor_t*)as_ref(x), ax, (int)axes.size(), keepdims, want.out()), EMBER_OK) << what << ": " << ember_last_error();
    const bool f64 = dtype_of(x) == EMBER_FLOAT64;
    double atol = op.extreme ? 0 : 5.0 * (double)group * (f64 ? 1e-15 : 3e-7);
    if (std::string(op.name) == "nanmean") atol /= (double)group;
    expect_close(got, want, op.extreme ? 0 : (f64 ? 1e-13 : 2e-6), atol, std::string(op.name) + " " + what + " " + ember_dtype_name(dtype_of(x)));
}

}  // namespace

// nan_reduce.cpp: nansum, nanmean, nanmax, nanmin in one pass per group over contiguous
// float32/float64 x reduced over trailing axes. NaNs scattered through the data, rows and a
// whole tensor that are all NaN (max/min NaN, sum 0, mean NaN), infinities of both signs in
// some rows (one group holding both would sum to NaN whatever the kernel does), a row whose
// only non-NaN value is -inf (max -inf, not NaN), and the calls the kernel declines
// (leading or middle axes, a transposed view, float16) still right through the composite.
TEST(CpuLarge, NanReductionsMatchReference) {
    NEED_CPU();
    const float nan = std::numeric_limits<float>::quiet_NaN(), inf = std::numeric_limits<float>::infinity();
    auto finite = randf(1000003, -5, 5, 43);  // with NaNs: for the cases of one group
    for (size_t i = 0; i < finite.size(); i += 97) finite[i] = nan;
    auto d = finite;  // and infinities: for the cases of many groups
    for (size_t i = 2000; i < 3000; ++i) d[i] = nan;  // rows 2 of (1000, 1000) and 400 of (200000, 5): all NaN
    d[5000] = inf;                                       // row 5 of (1000, 1000)
    d[6000] = -inf;                                      // row 6
    for (size_t i = 7000; i < 8000; ++i) d[i] = i == 7003 ? -inf : nan;  // row 7: -inf alone
    for (size_t i = 9000; i < 10000; ++i) d[i] = i == 9999 ? inf : nan;  // row 9: inf alone, last
    struct Case {
        std::vector<int64_t> shape, axes;  // axes empty: all
        const char* what;
    };
    const Case cases[] = {{{1000003}, {}, "one group across the pool"},
                          {{1000, 1000}, {1}, "rows of 1000"},
                          {{1000, 1000}, {}, "all of a matrix"},
                          {{200000, 5}, {-1}, "short rows"},
                          {{7, 1}, {-1}, "rows of one"},
                          {{3, 33}, {-1}, "rows of 33 (vector tails)"},
                          {{100, 20, 30}, {1, 2}, "two trailing axes"},
                          {{1000, 1000}, {0}, "columns of 1000 (max/min taken, sums declined)"},
                          {{100, 20, 30}, {0}, "axis 0 (max/min taken, sums declined)"},
                          {{100, 20, 30}, {0, 1}, "axes 0 and 1 (max/min taken, sums declined)"},
                          {{100, 20, 30}, {0, 2}, "axes 0 and 2 (declined)"}};
    for (const Case& c : cases) {
        int64_t count = 1;
        for (int64_t n : c.shape) count *= n;
        const int64_t group = c.axes.empty() ? count : c.axes.size() == 2 ? 600 : c.shape[(size_t)(c.axes[0] < 0 ? c.shape.size() - 1 : c.axes[0])];
        const std::vector<float>& from = c.axes.empty() ? finite : d;
        const std::vector<float> part(from.begin(), from.begin() + count);
        for (ember_dtype_t dt : {EMBER_FLOAT32, EMBER_FLOAT64}) {
            T x = tensor(cpu(), part, c.shape, dt);
            for (const NanOp& op : kNanOps) expect_nan_op_matches(op, x, c.axes, 0, group, c.what);
        }
    }
    // One long group across the pool whose first stretches are all NaN, and one all NaN.
    std::vector<float> half_nan(300000, nan);
    for (size_t i = 200000; i < half_nan.size(); ++i) half_nan[i] = finite[i];
    T long_half_nan = tensor(cpu(), half_nan, {300000}, EMBER_FLOAT32), long_all_nan = tensor(cpu(), std::vector<float>(300000, nan), {300000}, EMBER_FLOAT64);
    for (const NanOp& op : kNanOps) {
        expect_nan_op_matches(op, long_half_nan, {}, 0, 300000, "one group across the pool, its first two thirds NaN");
        expect_nan_op_matches(op, long_all_nan, {}, 0, 300000, "one group across the pool, all NaN");
    }
    // Columns (max/min over the leading axes): one all NaN, one whose only number is -inf,
    // one whose only number is in the last row, a NaN in the first row.
    std::vector<float> cols = randf(50 * 1300, -5, 5, 53);
    for (int r = 0; r < 50; ++r) {
        cols[(size_t)r * 1300 + 3] = nan;
        cols[(size_t)r * 1300 + 5] = r == 20 ? -inf : nan;
        cols[(size_t)r * 1300 + 7] = r == 49 ? 2.0f : nan;
    }
    cols[11] = nan;
    for (ember_dtype_t dt : {EMBER_FLOAT32, EMBER_FLOAT64}) {
        T cm = tensor(cpu(), cols, {50, 1300}, dt), cm3 = tensor(cpu(), cols, {5, 10, 1300}, dt);
        for (const NanOp& op : {kNanOps[2], kNanOps[3]}) {
            expect_nan_op_matches(op, cm, {0}, 0, 50, "columns with an all-NaN one");
            expect_nan_op_matches(op, cm3, {0, 1}, 1, 50, "columns over two leading axes, keepdims");
        }
    }
    // All NaN as one group; keepdims; a transposed view and float16 (declined); int32 (no NaN).
    T all_nan = tensor(cpu(), std::vector<float>(5000, nan), {5000}, EMBER_FLOAT32);
    T m = tensor(cpu(), std::vector<float>(d.begin() + 1900, d.begin() + 2500), {20, 30}, EMBER_FLOAT64), mt, mh, mi;
    EM_OK(ember_transpose(cpu(), m, mt.out()));
    EM_OK(ember_astype(cpu(), m, EMBER_FLOAT16, mh.out()));
    T no_nan = tensor(cpu(), std::vector<float>(d.begin() + 1, d.begin() + 97), {8, 12}, EMBER_FLOAT32);
    EM_OK(ember_astype(cpu(), no_nan, EMBER_INT32, mi.out()));
    for (const NanOp& op : kNanOps) {
        expect_nan_op_matches(op, all_nan, {}, 0, 5000, "all NaN");
        expect_nan_op_matches(op, m, {-1}, 1, 30, "keepdims");
        expect_nan_op_matches(op, mt, {-1}, 0, 20, "transposed");
        expect_nan_op_matches(op, mi, {-1}, 0, 12, "int32");
        T got, want;
        EM_OK(op.fn(cpu(), mh, nullptr, 0, 0, got.out()));
        EM_OK(op.fn(ref(), as_ref(mh), nullptr, 0, 0, want.out()));
        expect_close(got, want, op.extreme ? 0 : 2e-3, op.extreme ? 0 : 0.05, std::string(op.name) + " float16");
        expect_native_on_cpu(op.name);
    }
    // nanmax/nanmin of an empty axis fail as the composite's max does, on both backends.
    T none = tensor(cpu(), std::vector<float>{}, {0, 0}, EMBER_FLOAT32);
    const int64_t last_axis = -1;
    for (const NanOp& op : {kNanOps[2], kNanOps[3]}) {
        T r;
        EXPECT_EQ(op.fn(cpu(), none, &last_axis, 1, 0, r.out()), EMBER_ERR_SHAPE) << op.name;
        EXPECT_EQ(op.fn(ref(), as_ref(none), &last_axis, 1, 0, r.out()), EMBER_ERR_SHAPE) << op.name;
    }
    // Empty: no rows (nothing to run), and empty rows (declined: sum 0, mean NaN).
    T no_rows = tensor(cpu(), std::vector<float>{}, {0, 5}, EMBER_FLOAT32);
    T empty_rows = tensor(cpu(), std::vector<float>{}, {4, 0}, EMBER_FLOAT32);
    for (const NanOp& op : kNanOps) expect_nan_op_matches(op, no_rows, {-1}, 0, 5, "no rows");
    for (const NanOp& op : {kNanOps[0], kNanOps[1]}) expect_nan_op_matches(op, empty_rows, {-1}, 0, 1, "empty rows");
}

// counting.cpp: bincount in one pass, against the reference's composite (a scatter-add of
// ones or weights): counts identical, and weighted sums too (they run in x's order, as the
// scatter adds them). Long x split across the pool with interleaved tables, a wide range
// (one table), short x (the tails), every integer width, a strided view, float32, float64
// and integer weights (float64), float16 weights (declined: the composite), minlength.
TEST(CpuLarge, BincountMatchesReference) {
    NEED_CPU();
    std::mt19937 rng(44);
    auto values = [&](size_t n, int64_t hi) {
        std::vector<double> v(n);
        std::uniform_int_distribution<int64_t> u(0, hi - 1);
        for (auto& e : v) e = (double)u(rng);
        return v;
    };
    struct Case {
        size_t n;
        int64_t hi;
        ember_dtype_t dt;
        const char* what;
    };
    const Case cases[] = {{1000003, 1000, EMBER_INT64, "1e6 int64 in [0, 1000)"},
                          {1000003, 3, EMBER_INT64, "1e6 int64, three values (long runs of equal ones)"},
                          {600000, 200000, EMBER_INT32, "int32 in [0, 200000) (one table per thread)"},
                          {300000, 40000, EMBER_UINT16, "uint16"},
                          {7, 5, EMBER_INT8, "7 int8 (tails)"},
                          {1, 1, EMBER_UINT8, "one uint8 zero"},
                          {5000, 256, EMBER_UINT8, "uint8"},
                          {5000, 70000, EMBER_UINT64, "uint64"}};
    for (const Case& c : cases) {
        const auto v = values(c.n, c.hi);
        T x = tensor(cpu(), v, {(int64_t)c.n}, c.dt);
        for (int64_t minlength : {(int64_t)0, c.hi + 17}) {
            T got, want;
            EM_OK(ember_bincount(cpu(), x, nullptr, minlength, got.out()));
            EM_OK(ember_bincount(ref(), as_ref(x), nullptr, minlength, want.out()));
            expect_close(got, want, 0, 0, std::string("bincount ") + c.what + " minlength " + std::to_string(minlength));
        }
        const auto wv = randf(c.n, -2, 3, 45);
        for (ember_dtype_t wdt : {EMBER_FLOAT32, EMBER_FLOAT64, EMBER_INT32, EMBER_FLOAT16}) {
            T w = tensor(cpu(), wv, {(int64_t)c.n}, wdt), got, want;
            EM_OK(ember_bincount(cpu(), x, w, 0, got.out()));
            EM_OK(ember_bincount(ref(), as_ref(x), as_ref(w), 0, want.out()));
            expect_close(got, want, 0, 0, std::string("weighted bincount ") + c.what + " " + ember_dtype_name(wdt));
        }
    }
    // A strided view of x and of the weights.
    const auto v = values(400000, 300);
    T x = tensor(cpu(), v, {400000}, EMBER_INT64), w = tensor(cpu(), randf(400000, 0, 1, 46), {400000}, EMBER_FLOAT64), xs, ws;
    const int64_t start = 1, stop = 400000, step = 3;
    EM_OK(ember_slice(cpu(), x, &start, &stop, &step, 1, xs.out()));
    EM_OK(ember_slice(cpu(), w, &start, &stop, &step, 1, ws.out()));
    for (int weighted = 0; weighted < 2; ++weighted) {
        T got, want;
        EM_OK(ember_bincount(cpu(), xs, weighted ? (const ember_tensor_t*)ws : nullptr, 0, got.out()));
        EM_OK(ember_bincount(ref(), as_ref(xs), weighted ? (const ember_tensor_t*)as_ref(ws) : nullptr, 0, want.out()));
        expect_close(got, want, 0, 0, weighted ? "weighted bincount of strided views" : "bincount of a strided view");
    }
    expect_native_on_cpu("bincount");
}

// counting.cpp: histogram in one pass, against the reference's composite (numpy's uniform-bin
// path over a dozen temporaries): counts identical, weighted sums too (x's order). Values
// outside the range, NaN, values on the edges (integers on integer edges) and at hi (last
// bin), the range found from the data, a degenerate range, integer x, float16 and bool x
// (declined: the composite), float32/float64 weights, int32 and bool weights (declined).
TEST(CpuLarge, HistogramMatchesReference) {
    NEED_CPU();
    auto normal = randf(1000003, -5, 5, 47);
    std::mt19937 rng(48);
    std::normal_distribution<float> g(0, 1.5f);
    for (auto& v : normal) v = g(rng);
    normal[10] = std::numeric_limits<float>::quiet_NaN();
    std::vector<double> integers(200001);
    for (size_t i = 0; i < integers.size(); ++i) integers[i] = (double)(i % 11);
    const auto weights = randf(1000003, -1, 2, 49);
    struct Case {
        const char* what;
        const std::vector<float>* f;
        const std::vector<double>* d;
        ember_dtype_t dt;
        int64_t bins;
        double lo, hi;
    };
    const Case cases[] = {{"float32 normal, range (-3, 3)", &normal, nullptr, EMBER_FLOAT32, 100, -3, 3},
                          {"float64 normal, 7 bins over (-1, 2.5)", &normal, nullptr, EMBER_FLOAT64, 7, -1, 2.5},
                          {"float32 normal, 1000 bins", &normal, nullptr, EMBER_FLOAT32, 1000, -4, 4},
                          {"integers on the edges, 10 bins over (0, 10)", nullptr, &integers, EMBER_FLOAT64, 10, 0, 10},
                          {"int32 on the edges, 5 bins over (0, 10)", nullptr, &integers, EMBER_INT32, 5, 0, 10},
                          {"uint8, 3 bins over (1, 7)", nullptr, &integers, EMBER_UINT8, 3, 1, 7},
                          {"int64, the range from the data", nullptr, &integers, EMBER_INT64, 4, 0, 0},
                          {"float16 (declined)", &normal, nullptr, EMBER_FLOAT16, 20, -2, 2},
                          {"bool (declined)", nullptr, &integers, EMBER_BOOL, 2, 0, 0}};
    for (const Case& c : cases) {
        const size_t n = c.f ? c.f->size() : c.d->size();
        T x = c.f ? tensor(cpu(), *c.f, {(int64_t)n}, c.dt) : tensor(cpu(), *c.d, {(int64_t)n}, c.dt);
        const std::vector<float> wpart(weights.begin(), weights.begin() + (int64_t)n);
        for (int wdt : {-1, (int)EMBER_FLOAT32, (int)EMBER_FLOAT64, (int)EMBER_INT32, (int)EMBER_BOOL}) {
            T w = wdt < 0 ? T() : tensor(cpu(), wpart, {(int64_t)n}, (ember_dtype_t)wdt), got, want, got_edges, want_edges;
            EM_OK(ember_histogram(cpu(), x, c.bins, c.lo, c.hi, w, got.out(), got_edges.out()));
            EM_OK(ember_histogram(ref(), as_ref(x), c.bins, c.lo, c.hi, wdt < 0 ? nullptr : (const ember_tensor_t*)as_ref(w), want.out(), want_edges.out()));
            const std::string what = std::string("histogram of ") + c.what + (wdt < 0 ? "" : std::string(", weights ") + ember_dtype_name((ember_dtype_t)wdt));
            expect_close(got, want, 0, 0, what);
            expect_close(got_edges, want_edges, 0, 0, what + ": edges");
        }
    }
    // A degenerate range (lo == hi: widened by 0.5 each side) and all of x outside the range.
    T ones = tensor(cpu(), std::vector<float>(300000, 1.0f), {300000}, EMBER_FLOAT32);
    for (auto [lo, hi] : {std::pair<double, double>{1, 1}, {2, 3}}) {
        T got, want;
        EM_OK(ember_histogram(cpu(), ones, 4, lo, hi, nullptr, got.out(), nullptr));
        EM_OK(ember_histogram(ref(), as_ref(ones), 4, lo, hi, nullptr, want.out(), nullptr));
        expect_close(got, want, 0, 0, "histogram of ones over (" + std::to_string(lo) + ", " + std::to_string(hi) + ")");
    }
    // Every edge and its neighbours, over ranges where the first guess of some bin lands one
    // past it (-1 to 0 in 13 bins: one below edge 7) and one short of it (on edge 1): both
    // corrections by the edges decide those bins.
    for (auto [lo, hi] : {std::pair<double, double>{-1, 0}, {0.1, 1.1}}) {
        const int64_t bins = 13;
        const double step = (hi - lo) / (double)bins;
        std::vector<double> v;
        for (int64_t i = 0; i <= bins; ++i) {
            const double e = i == bins ? hi : (double)i * step + lo;
            for (double u : {std::nextafter(e, -1e300), e, std::nextafter(e, 1e300)}) v.push_back(u);
        }
        T x = tensor(cpu(), v, {(int64_t)v.size()}, EMBER_FLOAT64), got, want;
        EM_OK(ember_histogram(cpu(), x, bins, lo, hi, nullptr, got.out(), nullptr));
        EM_OK(ember_histogram(ref(), as_ref(x), bins, lo, hi, nullptr, want.out(), nullptr));
        expect_close(got, want, 0, 0, "histogram of the edges over (" + std::to_string(lo) + ", " + std::to_string(hi) + ")");
    }
    // A range whose width overflows to inf (the guesses come out 0 or NaN, the edges NaN):
    // no crash, and the composite's counts, from the data and given.
    const std::vector<double> wide = {-1e308, 1e308, 0.0, 5e307, -3.0, 1e308};
    T xw = tensor(cpu(), wide, {(int64_t)wide.size()}, EMBER_FLOAT64);
    for (auto [lo, hi] : {std::pair<double, double>{0, 0}, {-1e308, 1e308}}) {
        T got, want;
        EM_OK(ember_histogram(cpu(), xw, 4, lo, hi, nullptr, got.out(), nullptr));
        EM_OK(ember_histogram(ref(), as_ref(xw), 4, lo, hi, nullptr, want.out(), nullptr));
        expect_close(got, want, 0, 0, "histogram over a range wider than the largest double");
    }
    expect_native_on_cpu("histogram");
}

// cum_extreme.cpp: cummax and cummin in one pass along the axis, against the reference's
// composite (a log2(n)-pass scan): identical values. Long lines (the scalar chain) with a
// NaN inside and at the start (NaN from there on), rows and columns of a matrix (the row-
// at-a-time form), three dims along the middle, the flattened tensor, a transposed view,
// 0-d and empty, integers, bool; float16 takes the composite on both.
TEST(CpuLarge, CumulativeExtremesMatchReference) {
    NEED_CPU();
    auto d = randf(1000003, -5, 5, 50);
    d[700000] = std::numeric_limits<float>::quiet_NaN();  // the 1-d line: NaN from here
    d[1000 * 3 + 500] = std::numeric_limits<float>::quiet_NaN();  // row 3 / column 500 of (1000, 1000)
    auto nan_first = randf(5000, -5, 5, 51);
    nan_first[0] = std::numeric_limits<float>::quiet_NaN();
    struct Case {
        std::vector<int64_t> shape;
        int64_t axis;
        const std::vector<float>* data;
        const char* what;
    };
    const int64_t none = EMBER_AXIS_NONE;
    const Case cases[] = {{{1000003}, 0, &d, "a long line with a NaN"},
                          {{5000}, -1, &nan_first, "a line starting with NaN"},
                          {{1000, 1000}, 1, &d, "rows"},
                          {{1000, 1000}, 0, &d, "columns"},
                          {{50, 40, 30}, 1, &d, "the middle axis"},
                          {{300, 7}, none, &d, "flattened"},
                          {{}, 0, &d, "0-d"},
                          {{5, 0, 3}, 2, &d, "empty"}};
    for (const Case& c : cases) {
        int64_t count = 1;
        for (int64_t s : c.shape) count *= s;
        const std::vector<float> part(c.data->begin(), c.data->begin() + count);
        for (ember_dtype_t dt : {EMBER_FLOAT32, EMBER_FLOAT64, EMBER_INT32, EMBER_INT8, EMBER_UINT64, EMBER_BOOL, EMBER_FLOAT16}) {
            std::vector<float> values = part;
            if (dt == EMBER_UINT64)
                for (float& v : values) v = std::isnan(v) ? 0.0f : std::fabs(v) * 1000;
            else if (dt != EMBER_FLOAT32 && dt != EMBER_FLOAT64 && dt != EMBER_FLOAT16)
                for (float& v : values) v = std::isnan(v) ? 0.0f : std::trunc(v * 20);  // int8: within [-100, 100]
            T x = tensor(cpu(), values, c.shape, dt);
            for (int is_max = 0; is_max < 2; ++is_max) {
                auto fn = is_max ? ember_cummax : ember_cummin;
                T got, want;
                EM_OK(fn(cpu(), x, c.axis, got.out()));
                EM_OK(fn(ref(), as_ref(x), c.axis, want.out()));
                expect_close(got, want, 0, 0, std::string(is_max ? "cummax of " : "cummin of ") + c.what + " " + ember_dtype_name(dt));
            }
        }
    }
    T m = tensor(cpu(), std::vector<float>(d.begin(), d.begin() + 600), {20, 30}, EMBER_FLOAT32), mt;
    EM_OK(ember_transpose(cpu(), m, mt.out()));
    T got, want;
    EM_OK(ember_cummax(cpu(), mt, 1, got.out()));
    EM_OK(ember_cummax(ref(), as_ref(mt), 1, want.out()));
    expect_close(got, want, 0, 0, "cummax of a transposed view");
    for (const char* op : {"cummax", "cummin"}) expect_native_on_cpu(op);
}

// topk.cpp: the k first of each line in the stable argsort's order, by a candidate pass,
// against the reference's composite (argsort and a cut): the same indices and values. Values
// rounded to quarters, so most are tied and the order among equals (by index) decides; NaNs
// scattered (first for the largest, last for the smallest), a row with more NaNs than k
// (every element then passes the pass's quick test), signed zeros (equal); rows, columns,
// the middle axis, a transposed view, a long line cut across the pool, k from 1 to n / 16,
// integers, float64; larger k, bool and float16 are declined to the composite on both.
TEST(CpuLarge, TopkMatchesReference) {
    NEED_CPU();
    const float nan = std::numeric_limits<float>::quiet_NaN();
    auto d = randf(1000003, -50, 50, 52);
    for (float& v : d) v = std::round(v * 4) / 4;
    for (size_t i = 0; i < d.size(); i += 89) d[i] = nan;
    for (size_t i = 3000; i < 3040; ++i) d[i] = nan;  // row 3 of (1000, 1000): 40 NaNs from column 0
    for (size_t i = 4000; i < 5000; ++i) d[i] = (i % 3) ? 0.0f : -0.0f;
    struct Case {
        std::vector<int64_t> shape;
        int64_t axis, k;
        const char* what;
    };
    const Case cases[] = {{{1000, 1000}, 1, 10, "rows"},
                          {{1000, 1000}, 1, 1, "rows, k = 1"},
                          {{1000, 1000}, 0, 7, "columns"},
                          {{50, 40, 30}, 1, 5, "the middle axis"},
                          {{1000003}, 0, 100, "a long line across the pool"},
                          {{1000003}, 0, 1, "a long line, k = 1"},
                          {{1000, 1000}, 1, 62, "rows, k = n / 16"},
                          {{1000, 1000}, 1, 200, "rows, k = 200 (declined)"},
                          {{10, 37}, 1, 2, "short rows"},
                          {{10, 37}, 1, 37, "short rows, k = n (declined)"}};
    for (const Case& c : cases) {
        int64_t count = 1;
        for (int64_t s : c.shape) count *= s;
        const std::vector<float> part(d.begin(), d.begin() + count);
        for (ember_dtype_t dt : {EMBER_FLOAT32, EMBER_FLOAT64, EMBER_INT32, EMBER_INT8, EMBER_UINT64, EMBER_BOOL, EMBER_FLOAT16}) {
            std::vector<float> values = part;
            if (dt == EMBER_UINT64)
                for (float& v : values) v = std::isnan(v) ? 0.0f : std::fabs(v) * 1000;
            else if (dt != EMBER_FLOAT32 && dt != EMBER_FLOAT64 && dt != EMBER_FLOAT16)
                for (float& v : values) v = std::isnan(v) ? 0.0f : std::trunc(v * 2);  // int8: within [-100, 100]
            T x = tensor(cpu(), values, c.shape, dt);
            for (int largest = 0; largest < 2; ++largest) {
                T got_v, got_i, want_v, want_i;
                const std::string what = std::string("topk (") + (largest ? "largest" : "smallest") + ") of " + c.what + " " + ember_dtype_name(dt);
                EM_OK(ember_topk(cpu(), x, c.k, c.axis, largest, got_v.out(), got_i.out()));
                EM_OK(ember_topk(ref(), as_ref(x), c.k, c.axis, largest, want_v.out(), want_i.out()));
                expect_close(got_i, want_i, 0, 0, what + ": indices");
                expect_close(got_v, want_v, 0, 0, what + ": values");
            }
        }
    }
    T m = tensor(cpu(), std::vector<float>(d.begin(), d.begin() + 60000), {200, 300}, EMBER_FLOAT32), mt;
    EM_OK(ember_transpose(cpu(), m, mt.out()));
    T got_v, got_i, want_v, want_i;
    EM_OK(ember_topk(cpu(), mt, 20, 1, 1, got_v.out(), got_i.out()));
    EM_OK(ember_topk(ref(), as_ref(mt), 20, 1, 1, want_v.out(), want_i.out()));
    expect_close(got_i, want_i, 0, 0, "topk of a transposed view: indices");
    expect_close(got_v, want_v, 0, 0, "topk of a transposed view: values");
    expect_native_on_cpu("topk");
}

// quantile.cpp: the two order statistics a quantile needs, by selection, against the
// reference's composite (a sort of whole lines): identical results for every method. Values
// in quarters (ties), signed zeros, NaN in some rows (NaN result); short rows (quickselect),
// columns, the middle axis; long lines (sampled bounds and one gathering pass): one across
// the pool, several side by side, sorted, reversed, constant, and one periodic at the
// sample's step, so that the sample misleads the bounds (the whole line is selected then)
// and a NaN hides between the sampled elements. Integers, float64;
// bool and float16 are declined to the composite on both.
TEST(CpuLarge, QuantileMatchesReference) {
    NEED_CPU();
    const float nan = std::numeric_limits<float>::quiet_NaN();
    auto d = randf(1000003, -50, 50, 61);
    for (float& v : d) v = std::round(v * 4) / 4;
    for (size_t i = 3000; i < 4000; ++i) d[i] = (i % 3) ? 0.0f : -0.0f;  // row 3 of (1000, 1000)
    d[5123] = nan;                                                        // row 5
    struct Case {
        std::vector<float> values;
        std::vector<int64_t> shape;
        int64_t axis;
        const char* what;
    };
    std::vector<float> no_nan = d;
    no_nan[5123] = 1.0f;
    auto head = [](const std::vector<float>& v, size_t n) { return std::vector<float>(v.begin(), v.begin() + (ptrdiff_t)n); };
    const int64_t period_line = 8192 * 16;  // the sample takes every 16th element
    std::vector<float> periodic((size_t)period_line), sorted = head(no_nan, 200000), constant(50000, 2.5f);
    for (int64_t i = 0; i < period_line; ++i) periodic[(size_t)i] = i % 16 ? (float)(i % 1000) : -1000.0f + (float)(i / 16 % 7);
    std::vector<float> periodic_nan = periodic;
    periodic_nan[(size_t)period_line / 2 + 5] = nan;
    std::sort(sorted.begin(), sorted.end());
    std::vector<float> reversed(sorted.rbegin(), sorted.rend());
    const std::vector<Case> cases = {{head(d, 1000000), {1000, 1000}, 1, "rows"},
                                     {head(d, 1000000), {1000, 1000}, 0, "columns"},
                                     {head(no_nan, 60000), {50, 40, 30}, 1, "the middle axis"},
                                     {no_nan, {1000003}, 0, "a long line across the pool"},
                                     {d, {1000003}, 0, "a long line with a NaN"},
                                     {head(d, 160000), {4, 40000}, 1, "long lines side by side (a NaN in the first)"},
                                     {head(no_nan, 40000), {1, 40000}, 1, "one long line, one piece"},
                                     {sorted, {200000}, 0, "a sorted line"},
                                     {reversed, {200000}, 0, "a reversed line"},
                                     {constant, {50000}, 0, "a constant line"},
                                     {periodic, {period_line}, 0, "a line periodic at the sample's step"},
                                     {periodic_nan, {period_line}, 0, "the periodic line with a NaN between samples"},
                                     {head(no_nan, 37), {37}, 0, "a short line"},
                                     {head(no_nan, 1), {1}, 0, "one element"}};
    const struct {
        double q;
        ember_quantile_method_t method;
    } asks[] = {{0.5, EMBER_QUANTILE_LINEAR}, {0.9, EMBER_QUANTILE_LINEAR}, {0.37, EMBER_QUANTILE_LOWER}, {0.37, EMBER_QUANTILE_HIGHER},
                {0.625, EMBER_QUANTILE_NEAREST}, {0.3, EMBER_QUANTILE_MIDPOINT}, {0.0, EMBER_QUANTILE_LINEAR}, {1.0, EMBER_QUANTILE_LINEAR}};
    for (const Case& c : cases) {
        for (ember_dtype_t dt : {EMBER_FLOAT32, EMBER_FLOAT64, EMBER_INT32, EMBER_INT64, EMBER_UINT8, EMBER_BOOL, EMBER_FLOAT16}) {
            std::vector<float> values = c.values;
            const bool integer = dt != EMBER_FLOAT32 && dt != EMBER_FLOAT64 && dt != EMBER_FLOAT16;
            if (integer)
                for (float& v : values) v = std::isnan(v) ? 0.0f : dt == EMBER_UINT8 ? std::fabs(std::fmod(std::trunc(v), 200.0f)) : std::trunc(v * 2);
            const T x = tensor(cpu(), values, c.shape, dt);
            for (const auto& ask : asks) {
                if (dt != EMBER_FLOAT32 && ask.q != 0.5 && ask.q != 0.37) continue;  // every method on float32
                T got, want;
                const std::string what = std::string("quantile ") + std::to_string(ask.q) + " (method " + std::to_string((int)ask.method) + ") of " + c.what + " " + ember_dtype_name(dt);
                EM_OK(ember_quantile(cpu(), x, ask.q, c.axis, ask.method, 0, got.out()));
                EM_OK(ember_quantile(ref(), as_ref(x), ask.q, c.axis, ask.method, 0, want.out()));
                expect_close(got, want, 0, 0, what);
            }
        }
    }
    T m = tensor(cpu(), head(no_nan, 60000), {200, 300}, EMBER_FLOAT64), mt, got, want;
    EM_OK(ember_transpose(cpu(), m, mt.out()));
    EM_OK(ember_median(cpu(), mt, 1, 1, got.out()));
    EM_OK(ember_median(ref(), as_ref(mt), 1, 1, want.out()));
    expect_close(got, want, 0, 0, "median of a transposed view, keepdims");
    EM_OK(ember_median(cpu(), mt, EMBER_AXIS_NONE, 0, got.out()));
    EM_OK(ember_median(ref(), as_ref(mt), EMBER_AXIS_NONE, 0, want.out()));
    expect_close(got, want, 0, 0, "median of a transposed view, all axes");
    expect_native_on_cpu("quantile");
}

// The mean of int64 and uint64 (reduce.cpp with EMBER_KERNEL_WIDENS_INPUT): the kernel
// converts the elements as it sums them, in every layout of the float64 sum (one long
// line across the pool, rows long and short, narrow columns side by side, columns with and
// without partial rows, reversed and stepped views), and on a float64 copy where none
// applies (a broadcast input); an empty axis gives NaN. Values up to 2^62 in magnitude (and
// uint64 ones above 2^63, which a signed reading would make negative) round in conversion
// as the reference's cast rounds them; the sums then differ from the reference's in order
// only. Results in float64 (the contexts' default float is set for the test), so a kernel
// that lost precision would not hide behind a float32 result.
TEST(CpuLarge, MeansOfInt64MatchReference) {
    NEED_CPU();
    struct Float64Results {  // restored however the test ends
        ember_dtype_t cpu_float = EMBER_FLOAT32, ref_float = EMBER_FLOAT32;
        Float64Results() {
            ember_ctx_get_default_float(cpu(), &cpu_float);
            ember_ctx_get_default_float(ref(), &ref_float);
            ember_ctx_set_default_float(cpu(), EMBER_FLOAT64);
            ember_ctx_set_default_float(ref(), EMBER_FLOAT64);
        }
        ~Float64Results() {
            ember_ctx_set_default_float(cpu(), cpu_float);
            ember_ctx_set_default_float(ref(), ref_float);
        }
    } float64_results;
    std::mt19937_64 gen(71);
    const size_t n = 2100000;
    std::vector<int64_t> signed_values(n);
    std::vector<uint64_t> unsigned_values(n);
    for (size_t i = 0; i < n; ++i) {
        const uint64_t r = gen();
        signed_values[i] = i % 3 == 0 ? (int64_t)(r >> 1) - (int64_t(1) << 62) : (int64_t)(r % 2000001) - 1000000;
        unsigned_values[i] = i % 5 == 0 ? r | (uint64_t(1) << 63) : r % 1000;
    }
    struct Case {
        std::vector<int64_t> shape, axes;  // axes empty: all
        const char* what;
    };
    const Case cases[] = {{{2100000}, {}, "one line across the pool"},
                          {{}, {}, "0-d"},
                          {{1000, 1000}, {1}, "rows of 1000"},
                          {{700000, 3}, {-1}, "rows of 3"},
                          {{210000, 10}, {-1}, "rows of 10"},
                          {{7, 300000}, {1}, "few long rows"},
                          {{700000, 3}, {0}, "narrow columns"},
                          {{1000, 1000}, {0}, "columns, partial rows"},
                          {{5, 1000}, {0}, "columns of 5 rows"},
                          {{50, 60, 70}, {0, 2}, "outer and inner axes"},
                          {{0, 5}, {0}, "an empty axis"}};
    const int64_t ax0 = 0;
    for (ember_dtype_t dt : {EMBER_INT64, EMBER_UINT64}) {
        const void* data = dt == EMBER_INT64 ? (const void*)signed_values.data() : (const void*)unsigned_values.data();
        const std::string name = ember_dtype_name(dt);
        auto check = [&](const ember_tensor_t* x, const std::vector<int64_t>& axes, int keepdims, const std::string& what) {
            T got, want;
            const int64_t* ax = axes.empty() ? nullptr : axes.data();
            ASSERT_EQ(ember_mean(cpu(), x, ax, (int)axes.size(), keepdims, got.out()), EMBER_OK) << what << ": " << ember_last_error();
            ASSERT_EQ(ember_mean(ref(), as_ref(x), ax, (int)axes.size(), keepdims, want.out()), EMBER_OK) << what << ": " << ember_last_error();
            EXPECT_EQ(dtype_of(got), EMBER_FLOAT64) << what;
            expect_close(got, want, 1e-13, 1e-13 * std::ldexp(1.0, 63), name + " " + what);
        };
        for (const Case& c : cases) {
            T x;
            EM_OK(ember_tensor_from_data(cpu(), data, dt, c.shape.data(), (int)c.shape.size(), x.out()));
            check(x, c.axes, 0, c.what);
        }
        T m, flipped, stepped, row, spread;
        const int64_t shape[2] = {1000, 1000}, from[2] = {0, 1}, to[2] = {1000, 1000}, steps[2] = {1, 2};
        EM_OK(ember_tensor_from_data(cpu(), data, dt, shape, 2, m.out()));
        EM_OK(ember_flip(cpu(), m, &ax0, 1, flipped.out()));
        check(flipped, {0}, 1, "reversed rows, over columns, keepdims");
        check(flipped, {1}, 0, "reversed rows, over rows");
        EM_OK(ember_slice(cpu(), m, from, to, steps, 2, stepped.out()));
        check(stepped, {0}, 0, "stepped columns, over columns");
        const int64_t row_shape[2] = {1, 1000}, wide[2] = {500, 1000};
        EM_OK(ember_tensor_from_data(cpu(), data, dt, row_shape, 2, row.out()));
        EM_OK(ember_broadcast_to(cpu(), row, wide, 2, spread.out()));
        check(spread, {0}, 0, "a broadcast input, over columns");
        check(spread, {}, 0, "a broadcast input, all");
    }
}
