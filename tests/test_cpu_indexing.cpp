// The cpu backend's threaded index-shaped and random kernels (gather.cpp, line_ops.cpp,
// random_ops.cpp) against the reference backend, on inputs large enough to take the
// threaded paths. Each of them promises the reference's results bit for bit, so every
// comparison here is exact.
#include <algorithm>
#include <cmath>
#include <complex>
#include <cstring>
#include <functional>
#include <limits>
#include <random>
#include <string>
#include <tuple>
#include <vector>

#include "cpu_contexts.hpp"

namespace {

// An int64 index tensor on ctx with values drawn from [lo, hi); `bad`, if set, replaces
// one value in the middle.
T indices(ember_ctx_t* ctx, std::vector<int64_t> shape, int64_t lo, int64_t hi, unsigned seed, const int64_t* bad = nullptr) {
    size_t n = 1;
    for (int64_t s : shape) n *= (size_t)s;
    std::vector<int64_t> v(n);
    std::mt19937 rng(seed);
    std::uniform_int_distribution<int64_t> u(lo, hi - 1);
    for (auto& x : v) x = u(rng);
    if (bad) v[n / 2 + 7] = *bad;
    T t;
    EXPECT_EQ(ember_tensor_from_data(ctx, v.data(), EMBER_INT64, shape.data(), (int)shape.size(), t.out()), EMBER_OK) << ember_last_error();
    return t;
}

// Complex results are compared part by part (host_values keeps only the real part).
void expect_identical(const ember_tensor_t* got, const ember_tensor_t* want, const std::string& what) {
    EXPECT_EQ(backend_of(got), "cpu") << what;
    if (dtype_of(got) == EMBER_COMPLEX64 || dtype_of(got) == EMBER_COMPLEX128) {
        T gi, wi;
        ASSERT_EQ(ember_imag(ref(), as_ref(got), gi.out()), EMBER_OK);
        ASSERT_EQ(ember_imag(ref(), as_ref(want), wi.out()), EMBER_OK);
        expect_close(gi, wi, 0, 0, what + " (imaginary parts)");
    }
    expect_close(got, want, 0, 0, what);
}

TEST(CpuLarge, TakeMatchesReferenceExactly) {
    NEED_CPU();
    T x32 = tensor(cpu(), randf(300 * 1001, -3, 3, 41), {300, 1001}, EMBER_FLOAT32), xt;
    EM_OK(ember_matrix_transpose(cpu(), x32, xt.out()));
    T rows = indices(cpu(), {2000}, -300, 300, 42);       // negative indices wrap
    T cols = indices(cpu(), {40, 50}, -1001, 1001, 43);   // a 2-d index: out (300, 40, 50)
    T plain = indices(cpu(), {3000}, 0, 300, 45);          // none negative: used as it is
    T many = indices(cpu(), {40000}, -300300, 300300, 46);  // elements of a long vector: on two threads
    T every_other;                                         // a strided index view
    const int64_t from = 0, to = EMBER_SLICE_END, by = 2;
    EM_OK(ember_slice(cpu(), rows, &from, &to, &by, 1, every_other.out()));
    T three = indices(cpu(), {3}, -13, 13, 47), six = indices(cpu(), {2, 3}, -13, 13, 48);  // short index lists
    const int64_t flat_shape = 300 * 1001, cube_shape[3] = {300, 77, 13};
    const int64_t cube_from[3] = {0, 0, 0}, cube_to[3] = {300, 77, 13}, cube_step[3] = {1, 2, 1};
    for (ember_dtype_t dt : {EMBER_FLOAT32, EMBER_INT16, EMBER_INT8, EMBER_FLOAT64, EMBER_COMPLEX64, EMBER_COMPLEX128}) {
        T x, flat, cube, stepped_cube;
        EM_OK(ember_astype(cpu(), x32, dt, x.out()));
        EM_OK(ember_reshape(cpu(), x, &flat_shape, 1, flat.out()));
        EM_OK(ember_reshape(cpu(), x, cube_shape, 3, cube.out()));
        EM_OK(ember_slice(cpu(), cube, cube_from, cube_to, cube_step, 3, stepped_cube.out()));  // outer dims that do not merge
        const std::string d = ember_dtype_name(dt);
        for (auto [name, xv, idx, axis] : {std::tuple<const char*, const ember_tensor_t*, const ember_tensor_t*, int64_t>{"rows", x, rows, 0},
                                           {"elements", x, cols, 1},
                                           {"transposed rows", xt, cols, 0},  // the slice is not one block: the reference runs
                                           {"transposed elements", xt, rows, 1},
                                           {"transposed elements, no negative index", xt, plain, 1},  // a strided checked gather
                                           {"rows, no negative index", x, plain, 0},
                                           {"elements, a strided index", x, every_other, 1},
                                           {"elements of a long vector", flat, many, 0},
                                           {"elements of a long vector, no negative index", flat, plain, 0},
                                           {"channels of pixels", cube, three, 2},
                                           {"channels of pixels, a 2-d index", cube, six, 2},
                                           {"channels of every other pixel", stepped_cube, three, 2},
                                           {"a few elements of transposed rows", xt, three, 1},
                                           {"a few rows", x, three, 0}}) {
            T got, want;
            EM_OK(ember_take(cpu(), xv, idx, axis, got.out()));
            EM_OK(ember_take(ref(), as_ref(xv), as_ref(idx), axis, want.out()));
            expect_identical(got, want, std::string("take ") + name + " " + d);
        }
    }
    // A bad index anywhere fails with the reference's status and message; the output is not
    // kept. Rows (one memcpy each) and elements of a long vector, on two threads.
    T flat;
    EM_OK(ember_reshape(cpu(), x32, &flat_shape, 1, flat.out()));
    const int64_t too_big = 300, too_small = -301, far_too_big = flat_shape, far_too_small = -flat_shape - 1;
    for (auto [v, table, len] : {std::tuple<const int64_t*, const ember_tensor_t*, int64_t>{&too_big, x32, 300}, {&too_small, x32, 300},
                                 {&far_too_big, flat, flat_shape}, {&far_too_small, flat, flat_shape}}) {
        T idx = indices(cpu(), {40000}, 0, len, 44, v), y;
        EM_FAILS(ember_take(cpu(), table, idx, 0, y.out()), EMBER_ERR_INDEX, "take");
        EXPECT_EQ((const ember_tensor_t*)y, nullptr);
    }
    for (int64_t bad : {1001, -1002}) {  // in a short index list
        const int64_t list[3] = {0, bad, 2}, len = 3;
        T idx, y;
        EM_OK(ember_tensor_from_data(cpu(), list, EMBER_INT64, &len, 1, idx.out()));
        EM_FAILS(ember_take(cpu(), x32, idx, 1, y.out()), EMBER_ERR_INDEX, "take");
        EXPECT_EQ((const ember_tensor_t*)y, nullptr);
    }
}

// gather.cpp's take_along_axis: every element size, negative indices (wrapped), a
// transposed x, an x reversed along the axis, one index per line, broadcasting on either
// side outside the axis, int32 indices, the middle axis of a 3-d x; a bad negative index fails with the reference's status.
TEST(CpuLarge, TakeAlongAxisLayoutsAndDtypes) {
    NEED_CPU();
    auto d = randf(2 * 301 * 437, -100, 100, 61);
    for (ember_dtype_t dt : {EMBER_INT8, EMBER_FLOAT16, EMBER_FLOAT32, EMBER_FLOAT64, EMBER_COMPLEX128}) {
        T x3 = tensor(cpu(), d, {2, 301, 437}, dt), x2, xt;
        x2 = tensor(cpu(), std::vector<float>(d.begin(), d.begin() + 301 * 437), {301, 437}, dt);
        EM_OK(ember_matrix_transpose(cpu(), x2, xt.out()));  // (437, 301)
        struct Case {
            const char* what;
            const ember_tensor_t* x;
            T index;
            int64_t axis;
        };
        Case cases[] = {
            {"rows, negative indices", x2, indices(cpu(), {301, 600}, -437, 437, 62), 1},
            {"columns", x2, indices(cpu(), {250, 437}, -301, 301, 63), 0},
            {"transposed x", xt, indices(cpu(), {437, 77}, -301, 301, 64), 1},
            {"index broadcast over rows", x2, indices(cpu(), {1, 900}, 0, 437, 65), 1},
            {"x broadcast over rows", nullptr, indices(cpu(), {50, 40}, -437, 437, 66), 1},
            {"middle axis of 3-d", x3, indices(cpu(), {2, 500, 437}, -301, 301, 67), 1},
            {"x reversed along the axis", nullptr, indices(cpu(), {301, 50}, -437, 437, 69), 1},
            {"one index per line", x2, indices(cpu(), {301, 1}, -437, 437, 70), 1},
            // No negative index: each checked block is gathered as it is (gather_run).
            {"transposed x, no negative index", xt, indices(cpu(), {437, 77}, 0, 301, 71), 1},
            {"x reversed, no negative index", nullptr, indices(cpu(), {301, 50}, 0, 437, 72), 1},
            {"columns, no negative index", x2, indices(cpu(), {250, 437}, 0, 301, 73), 0},
        };
        T reversed;
        const int64_t along[1] = {1};
        EM_OK(ember_flip(cpu(), x2, along, 1, reversed.out()));
        cases[6].x = cases[9].x = reversed;
        T first_row;
        const int64_t start[2] = {0, 0}, stop[2] = {1, EMBER_SLICE_END}, step[2] = {1, 1};
        EM_OK(ember_slice(cpu(), x2, start, stop, step, 2, first_row.out()));
        cases[4].x = first_row;
        for (Case& cs : cases) {
            T got, want;
            EM_OK(ember_take_along_axis(cpu(), cs.x, cs.index, cs.axis, got.out()));
            EM_OK(ember_take_along_axis(ref(), as_ref(cs.x), as_ref(cs.index), cs.axis, want.out()));
            EXPECT_EQ(raw_bytes(got), raw_bytes(want)) << "take_along_axis, " << cs.what << ", " << ember_dtype_name(dt);
        }
        T i32, got, want;
        EM_OK(ember_astype(cpu(), cases[0].index, EMBER_INT32, i32.out()));
        EM_OK(ember_take_along_axis(cpu(), x2, i32, 1, got.out()));
        EM_OK(ember_take_along_axis(ref(), as_ref(x2), as_ref(i32), 1, want.out()));
        EXPECT_EQ(raw_bytes(got), raw_bytes(want)) << "take_along_axis with int32 indices, " << ember_dtype_name(dt);
    }
    const int64_t bad = -438;
    T x = tensor(cpu(), d, {602, 437}, EMBER_FLOAT32), order = indices(cpu(), {602, 437}, 0, 437, 68, &bad), y;
    EM_FAILS(ember_take_along_axis(cpu(), x, order, 1, y.out()), EMBER_ERR_INDEX, "take_along_axis");
}

// line_ops.cpp: ops split along a dim they do not work along, with inputs passed whole
// where every slice needs all of them (searchsorted's sequence, scatter's index).
TEST(CpuLarge, SlicedIndexOpsMatchReferenceExactly) {
    NEED_CPU();
    auto d = randf(701 * 1001, -3, 3, 51);
    for (size_t i = 0; i < d.size(); i += 1009) d[i] = std::numeric_limits<float>::quiet_NaN();
    T x = tensor(cpu(), d, {701, 1001}, EMBER_FLOAT32), xt;
    EM_OK(ember_matrix_transpose(cpu(), x, xt.out()));
    for (int64_t axis : {0, 1}) {
        const std::string a = " axis " + std::to_string(axis);
        T order, got, want;
        EM_OK(ember_argsort(cpu(), x, axis, 0, order.out()));
        EM_OK(ember_take_along_axis(cpu(), x, order, axis, got.out()));
        EM_OK(ember_take_along_axis(ref(), as_ref(x), as_ref(order), axis, want.out()));
        expect_identical(got, want, "take_along_axis" + a);
        const int64_t width = axis == 0 ? 701 : 1001;
        for (ember_scatter_reduce_t r : {EMBER_SCATTER_ADD, EMBER_SCATTER_MEAN, EMBER_SCATTER_MAX, EMBER_SCATTER_MIN, EMBER_SCATTER_REPLACE}) {
            T index = indices(cpu(), {width}, -37, 37, 52), s, sw;
            EM_OK(ember_scatter(cpu(), xt, index, axis == 0 ? 1 : 0, 37, r, s.out()));
            EM_OK(ember_scatter(ref(), as_ref(xt), as_ref(index), axis == 0 ? 1 : 0, 37, r, sw.out()));
            expect_identical(s, sw, "scatter reduce " + std::to_string((int)r) + a);
        }
    }
    // A bad index in one slice: the reference's status and message.
    const int64_t bad = 1001;
    T order = indices(cpu(), {701, 1001}, 0, 1001, 54, &bad), y;
    EM_FAILS(ember_take_along_axis(cpu(), x, order, 1, y.out()), EMBER_ERR_INDEX, "take_along_axis");
    T index = indices(cpu(), {1001}, 0, 37, 55, &bad), s;
    EM_FAILS(ember_scatter(cpu(), x, index, 1, 37, EMBER_SCATTER_ADD, s.out()), EMBER_ERR_INDEX, "scatter");

    auto sd = randf(1000, -3, 3, 56);
    std::sort(sd.begin(), sd.end());
    sd.back() = std::numeric_limits<float>::quiet_NaN();  // NaN sorts last
    // float16/bfloat16 searched as float32 (their many equal values tell left from right)
    for (ember_dtype_t dt : {EMBER_FLOAT32, EMBER_FLOAT16, EMBER_BFLOAT16}) {
        T seq = tensor(cpu(), sd, {1000}, dt), xd, xtd;
        EM_OK(ember_astype(cpu(), x, dt, xd.out()));
        EM_OK(ember_matrix_transpose(cpu(), xd, xtd.out()));
        for (int right : {0, 1})
            for (const ember_tensor_t* v : {(const ember_tensor_t*)xd, (const ember_tensor_t*)xtd}) {
                T got, want;
                EM_OK(ember_searchsorted(cpu(), seq, v, right, got.out()));
                EM_OK(ember_searchsorted(ref(), as_ref(seq), as_ref(v), right, want.out()));
                expect_identical(got, want, std::string("searchsorted ") + (right ? "right" : "left") + (v == (const ember_tensor_t*)xd ? " " : " transposed ") + ember_dtype_name(dt));
            }
    }
}

// gather.cpp's scatter: add and replace over contiguous src and out in one pass, in the
// reference's order (sums bit for bit; the last index replaces), for float32/float64 (NaN
// included), int32 sums that wrap, int64; a 1-d src summed into 1000 bins (by indices in
// [0, 1000), then in [-1000, 1000)), rows and columns
// of a matrix with negative indices; mean (the reference on slices) and a bad index (the
// reference's status) from the same contiguous inputs.
TEST(CpuLarge, ScatterAddReplaceMatchReferenceExactly) {
    NEED_CPU();
    auto d = randf(1000000, -3, 3, 57);
    for (size_t i = 0; i < d.size(); i += 1013) d[i] = std::numeric_limits<float>::quiet_NaN();
    auto big = d;
    for (float& v : big) v = std::isnan(v) ? 1.0f : std::round(v * 7e8f);  // int32 sums wrap
    for (ember_dtype_t dt : {EMBER_FLOAT32, EMBER_FLOAT64, EMBER_INT32, EMBER_INT64}) {
        const bool integer = dt == EMBER_INT32 || dt == EMBER_INT64;
        T flat = tensor(cpu(), integer ? big : d, {1000000}, dt), m, bins = indices(cpu(), {1000000}, 0, 1000, 58);
        int64_t shape[2] = {1000, 1000};
        EM_OK(ember_reshape(cpu(), flat, shape, 2, m.out()));
        for (ember_scatter_reduce_t r : {EMBER_SCATTER_ADD, EMBER_SCATTER_REPLACE, EMBER_SCATTER_MEAN}) {
            const std::string what = std::string(" reduce ") + std::to_string((int)r) + " " + ember_dtype_name(dt);
            T got, want;
            EM_OK(ember_scatter(cpu(), flat, bins, 0, 1000, r, got.out()));
            EM_OK(ember_scatter(ref(), as_ref(flat), as_ref(bins), 0, 1000, r, want.out()));
            expect_identical(got, want, "scatter of 1e6 into 1000 bins" + what);
            // negative indices: the first pass stops at one and runs again on the wrapped ones
            T wrapping = indices(cpu(), {1000000}, -1000, 1000, 62);
            EM_OK(ember_scatter(cpu(), flat, wrapping, 0, 1000, r, got.out()));
            EM_OK(ember_scatter(ref(), as_ref(flat), as_ref(wrapping), 0, 1000, r, want.out()));
            expect_identical(got, want, "scatter of 1e6 into 1000 bins by negative indices too" + what);
            for (int64_t axis : {0, 1}) {
                T index = indices(cpu(), {1000}, -37, 37, 59 + (unsigned)axis);
                EM_OK(ember_scatter(cpu(), m, index, axis, 37, r, got.out()));
                EM_OK(ember_scatter(ref(), as_ref(m), as_ref(index), axis, 37, r, want.out()));
                expect_identical(got, want, "scatter of a matrix along axis " + std::to_string(axis) + what);
            }
        }
    }
    const int64_t bad = 1000;
    T x = tensor(cpu(), d, {1000000}, EMBER_FLOAT32), index = indices(cpu(), {1000000}, 0, 1000, 61, &bad), s;
    EM_FAILS(ember_scatter(cpu(), x, index, 0, 1000, EMBER_SCATTER_REPLACE, s.out()), EMBER_ERR_INDEX, "scatter");
}

// gather.cpp's one_hot: rows zeroed across the pool, then one element set. Indices below 0
// and at or past depth (zero rows), every element size incl. complex (the one is (1, 0))
// and bool, int32 indices (cast by the core), a transposed index view, a 3-d index.
TEST(CpuLarge, OneHotMatchesReferenceExactly) {
    NEED_CPU();
    T wide = indices(cpu(), {3000}, -3, 1003, 71), tall = indices(cpu(), {200000}, -1, 11, 72), grid = indices(cpu(), {40, 30, 20}, 0, 50, 73);
    T narrow, grid_t;
    EM_OK(ember_astype(cpu(), wide, EMBER_INT32, narrow.out()));
    EM_OK(ember_matrix_transpose(cpu(), grid, grid_t.out()));
    const struct {
        const ember_tensor_t* idx;
        int64_t depth;
        const char* what;
    } cases[] = {{wide, 1000, "3000 rows of 1000"}, {tall, 10, "200000 rows of 10"}, {narrow, 1000, "int32 indices"}, {grid_t, 50, "a transposed 3-d index"}};
    for (const auto& c : cases)
        for (ember_dtype_t dt : {EMBER_FLOAT32, EMBER_FLOAT64, EMBER_FLOAT16, EMBER_BFLOAT16, EMBER_COMPLEX64, EMBER_BOOL, EMBER_INT8, EMBER_UINT64}) {
            T got, want;
            EM_OK(ember_one_hot(cpu(), c.idx, c.depth, dt, got.out()));
            EM_OK(ember_one_hot(ref(), as_ref(c.idx), c.depth, dt, want.out()));
            expect_identical(got, want, std::string("one_hot of ") + c.what + " " + ember_dtype_name(dt));
        }
    expect_native_on_cpu("one_hot");
}

TEST(CpuLarge, NonzeroAndArangeMatchReferenceExactly) {
    NEED_CPU();
    auto d = randf(613 * 1001, -1, 1, 61);
    for (size_t i = 0; i < d.size(); ++i) {
        if (d[i] < 0.3f) d[i] = i % 2 ? 0.0f : -0.0f;  // -0.0 is zero
        if (i % 4999 == 0) d[i] = std::numeric_limits<float>::quiet_NaN();  // NaN is not
    }
    T x = tensor(cpu(), d, {613, 1001}, EMBER_FLOAT32), xt, x3;
    EM_OK(ember_matrix_transpose(cpu(), x, xt.out()));
    int64_t s3[3] = {613, 7, 143};
    EM_OK(ember_reshape(cpu(), xt, s3, 3, x3.out()));
    // 1-d (its own loop over set bits): the whole, and from element 3 on (words cut anywhere)
    T x1, x1_late;
    const int64_t flat = 613 * 1001, three = 3;
    EM_OK(ember_reshape(cpu(), x, &flat, 1, x1.out()));
    EM_OK(ember_slice(cpu(), x1, &three, &flat, nullptr, 1, x1_late.out()));
    for (ember_dtype_t dt : {EMBER_FLOAT32, EMBER_FLOAT16, EMBER_BFLOAT16, EMBER_FLOAT64, EMBER_COMPLEX64, EMBER_COMPLEX128, EMBER_BOOL, EMBER_INT8, EMBER_INT32, EMBER_UINT64}) {
        for (const ember_tensor_t* v : {(const ember_tensor_t*)x, (const ember_tensor_t*)xt, (const ember_tensor_t*)x3, (const ember_tensor_t*)x1,
                                        (const ember_tensor_t*)x1_late}) {
            T y, got, want;
            EM_OK(ember_astype(cpu(), v, dt, y.out()));
            if (v == (const ember_tensor_t*)xt) {  // a strided view, not a contiguous copy
                T yt;
                EM_OK(ember_astype(cpu(), x, dt, yt.out()));
                EM_OK(ember_matrix_transpose(cpu(), yt, y.out()));
            }
            EM_OK(ember_nonzero(cpu(), y, got.out()));
            EM_OK(ember_nonzero(ref(), as_ref(y), want.out()));
            expect_identical(got, want, std::string("nonzero ") + ember_dtype_name(dt) + " " + std::to_string(shape_of(y).size()) + "-d");
        }
    }
    // Small inputs take the same kernel (one chunk, on the calling thread) down to one
    // element: 1-d and 2-d, either side of a 64-element word and of one chunk.
    for (int64_t len : {1, 5, 63, 64, 65, 100, 1023, 1024, 1087, 5000, 65536, 70001}) {
        T part, got, want;
        const int64_t zero = 0;
        EM_OK(ember_slice(cpu(), x1, &zero, &len, nullptr, 1, part.out()));
        for (auto [what, shape] : {std::pair<const char*, std::vector<int64_t>>{"1-d", {len}}, {"2-d", {1, len}}}) {
            T y;
            EM_OK(ember_reshape(cpu(), part, shape.data(), (int)shape.size(), y.out()));
            EM_OK(ember_nonzero(cpu(), y, got.out()));
            EM_OK(ember_nonzero(ref(), as_ref(y), want.out()));
            expect_identical(got, want, "nonzero of " + std::to_string(len) + " " + what);
        }
    }
    {  // small views: a 6 x 7 block of x transposed (strided runs), 42 elements as 2 x 3 x 7
        const int64_t start[2] = {0, 0}, stop[2] = {6, 7}, first = 0, count = 42, s237[3] = {2, 3, 7};
        T block, small[2], part;
        EM_OK(ember_slice(cpu(), x, start, stop, nullptr, 2, block.out()));
        EM_OK(ember_matrix_transpose(cpu(), block, small[0].out()));
        EM_OK(ember_slice(cpu(), x1, &first, &count, nullptr, 1, part.out()));
        EM_OK(ember_reshape(cpu(), part, s237, 3, small[1].out()));
        for (const T& y : small) {
            T got, want;
            EM_OK(ember_nonzero(cpu(), y, got.out()));
            EM_OK(ember_nonzero(ref(), as_ref(y), want.out()));
            expect_identical(got, want, "nonzero of a small " + std::to_string(shape_of(y).size()) + "-d view");
        }
    }
    // all/any over every axis: counted in chunks; the answer hangs on one element each time.
    const int64_t n = 300001;
    for (int variant = 0; variant < 4; ++variant) {
        std::vector<float> v((size_t)n, variant < 2 ? 1.5f : -0.0f);  // all true / all zero (-0.0)
        if (variant == 1) v[(size_t)n - 3] = 0.0f;                        // one zero at the end
        if (variant == 3) v[(size_t)n / 2] = std::numeric_limits<float>::quiet_NaN();  // one NaN: non-zero
        T f = tensor(cpu(), v, {n}, EMBER_FLOAT32);
        for (ember_dtype_t dt : {EMBER_FLOAT32, EMBER_FLOAT16, EMBER_FLOAT64, EMBER_COMPLEX64, EMBER_BOOL, EMBER_INT8, EMBER_INT64}) {
            T y;
            EM_OK(ember_astype(cpu(), f, dt, y.out()));
            for (int all : {0, 1}) {
                T got, want;
                EM_OK((all ? ember_all : ember_any)(cpu(), y, nullptr, 0, 0, got.out()));
                EM_OK((all ? ember_all : ember_any)(ref(), as_ref(y), nullptr, 0, 0, want.out()));
                expect_identical(got, want, std::string(all ? "all" : "any") + " case " + std::to_string(variant) + " " + ember_dtype_name(dt));
            }
        }
    }
    // Every dtype with an own path, over a range that most narrow types clamp (saturating
    // like astype) and float16 rounds once from double.
    for (ember_dtype_t dt : {EMBER_FLOAT32, EMBER_FLOAT64, EMBER_INT8, EMBER_INT16, EMBER_INT32, EMBER_INT64, EMBER_UINT8, EMBER_UINT16, EMBER_UINT32,
                             EMBER_UINT64, EMBER_FLOAT16, EMBER_BFLOAT16, EMBER_COMPLEX64, EMBER_COMPLEX128}) {
        T got, want;
        EM_OK(ember_arange(cpu(), -1e5, 3.3e5, 0.37, dt, got.out()));
        EM_OK(ember_arange(ref(), -1e5, 3.3e5, 0.37, dt, want.out()));
        expect_identical(got, want, std::string("arange ") + ember_dtype_name(dt));
    }
    // Integral start and step take integer lanes where every value is exact and within the
    // dtype: both ends near the type's limits, descending, odd lengths, threaded lengths, and
    // ranges past 2^52 or past the type (the clamped double path).
    struct A {
        double start, stop, step;
    };
    const A integral[] = {{0, 300007, 1},           {5, -400003, -3},        {2147483647.0 - 99999, 2147483647.0, 1}, {-2147483648.0, -2147483648.0 + 1003, 7},
                          {0x1p52 - 50, 0x1p52 + 50, 1}, {-0x1p53, -0x1p53 + 40, 1}, {2147483600.0, 2147483800.0, 3},   {0, 5, 1},
                          {1e12, 1e12 + 333333, 1}, {0x1p54, 0x1p54 + 1000, 3},
                          {1, 0x1p53 + 10, 0x1p52 + 1},  // the last value, 2^53 + 3, is not a double
                          {-0x1p52, 0x1p52 + 2, 3002399751580331.0},  // 3 * step = 2^53 + 1 rounds in double
                          {0, 1, 1e300}};                             // one value, a step beyond int64
    for (const A& a : integral)
        for (ember_dtype_t dt : {EMBER_INT8, EMBER_UINT16, EMBER_INT32, EMBER_UINT32, EMBER_INT64, EMBER_UINT64, EMBER_FLOAT32, EMBER_FLOAT64, EMBER_FLOAT16}) {
            T got, want;
            EM_OK(ember_arange(cpu(), a.start, a.stop, a.step, dt, got.out()));
            EM_OK(ember_arange(ref(), a.start, a.stop, a.step, dt, want.out()));
            expect_identical(got, want, std::string("arange from ") + std::to_string(a.start) + " by " + std::to_string(a.step) + " " + ember_dtype_name(dt));
        }
}

// random_ops.cpp: runs of elements with their own block numbers. The same seed must give
// the reference's values bit for bit, for shapes whose rows are not whole Philox blocks,
// for broadcast parameter tensors, and leave the state where the reference leaves it.
TEST(CpuLarge, RandomMatchesReferenceExactly) {
    NEED_CPU();
    for (const char* op : {"random_uniform", "random_randint", "random_bernoulli", "random_permutation"}) expect_native_on_cpu(op);
    using Draw = std::function<ember_status_t(ember_ctx_t*, ember_tensor_t**)>;
    const int64_t odd[2] = {1001, 333}, flat[1] = {300003}, three[1] = {3};
    T alpha = tensor(cpu(), randf(1001, 0.2f, 30, 71), {1001, 1}, EMBER_FLOAT32);
    T scale = tensor(cpu(), randf(333, 0.5f, 2, 72), {333}, EMBER_FLOAT64);
    T lam = tensor(cpu(), randf(333, 0, 40, 73), {1, 333}, EMBER_FLOAT32);
    T p64 = tensor(cpu(), std::vector<double>{0.3}, {}, EMBER_FLOAT64), p32 = tensor(cpu(), std::vector<float>{0.7f}, {}, EMBER_FLOAT32);
    T p11 = tensor(cpu(), std::vector<float>{0.5f}, {1, 1}, EMBER_FLOAT16), pnan = tensor(cpu(), std::vector<double>{NAN}, {}, EMBER_FLOAT64);
    T scale_ref = as_ref(scale);
    T p64_ref = as_ref(p64), p32_ref = as_ref(p32), p11_ref = as_ref(p11), pnan_ref = as_ref(pnan);
    std::vector<std::pair<std::string, Draw>> draws = {
        {"bits 2-d", [&](auto c, auto o) { return ember_random_bits(c, odd, 2, o); }},
        {"bits 1-d", [&](auto c, auto o) { return ember_random_bits(c, flat, 1, o); }},
        // random_uniform: the cpu kernel that replaces the composite. The narrow ranges round
        // about one value in 16 up to `high`, which must move just below it.
        {"uniform float32", [&](auto c, auto o) { return ember_random_uniform(c, odd, 2, -3, 5, EMBER_FLOAT32, o); }},
        {"uniform float64", [&](auto c, auto o) { return ember_random_uniform(c, flat, 1, -1e-3, 7.5, EMBER_FLOAT64, o); }},
        {"uniform float32 rounding up to high", [&](auto c, auto o) { return ember_random_uniform(c, flat, 1, 1, 1 + std::ldexp(1.0, -20), EMBER_FLOAT32, o); }},
        {"uniform float64 rounding up to high", [&](auto c, auto o) { return ember_random_uniform(c, odd, 2, 1, 1 + std::ldexp(1.0, -49), EMBER_FLOAT64, o); }},
        {"uniform 0-d", [&](auto c, auto o) { return ember_random_uniform(c, nullptr, 0, 0, 1, EMBER_FLOAT64, o); }},
        {"uniform 3 elements", [&](auto c, auto o) { return ember_random_uniform(c, three, 1, 0, 1, EMBER_FLOAT32, o); }},
        // random_randint: the cpu kernel that replaces the composite (two elements a block:
        // 300003 ends in half a block); ranges of a power of two, of one, and above 2^63.
        {"randint int64", [&](auto c, auto o) { return ember_random_randint(c, 0, 100, flat, 1, EMBER_INT64, o); }},
        {"randint int8 full range", [&](auto c, auto o) { return ember_random_randint(c, -128, 128, odd, 2, EMBER_INT8, o); }},
        {"randint uint16 one value", [&](auto c, auto o) { return ember_random_randint(c, 3, 4, three, 1, EMBER_UINT16, o); }},
        {"randint int64 above 2^63", [&](auto c, auto o) { return ember_random_randint(c, -(int64_t(1) << 62), (int64_t(1) << 62) + 12345, odd, 2, EMBER_INT64, o); }},
        {"randint uint32 0-d", [&](auto c, auto o) { return ember_random_randint(c, 7, 1000000007, nullptr, 0, EMBER_UINT32, o); }},
        // random_bernoulli of one probability: the cpu kernel that replaces the composite
        // (u < p, u of p's precision; exact arithmetic, so equal to the reference's).
        {"bernoulli float64 p", [&](auto c, auto o) { return ember_random_bernoulli(c, c == cpu() ? p64 : p64_ref, odd, 2, o); }},
        {"bernoulli float32 p", [&](auto c, auto o) { return ember_random_bernoulli(c, c == cpu() ? p32 : p32_ref, flat, 1, o); }},
        {"bernoulli p of shape (1, 1), no shape", [&](auto c, auto o) { return ember_random_bernoulli(c, c == cpu() ? p11 : p11_ref, nullptr, -1, o); }},
        {"bernoulli p NaN", [&](auto c, auto o) { return ember_random_bernoulli(c, c == cpu() ? pnan : pnan_ref, three, 1, o); }},
        // random_permutation: the cpu kernel that replaces the composite's stable argsort of
        // 64-bit words (a sort by high word and index, then runs of tied high words by low
        // word: 300003 elements hold about ten such pairs); up to 2^17 elements a counting
        // sort by top bits and an insertion pass (2^16, and 1001: a batch of words
        // and a part); shuffle goes through it.
        {"permutation", [&](auto c, auto o) { return ember_random_permutation(c, 300003, o); }},
        {"permutation by buckets", [&](auto c, auto o) { return ember_random_permutation(c, 65536, o); }},
        {"permutation by buckets, odd", [&](auto c, auto o) { return ember_random_permutation(c, 1001, o); }},
        {"permutation of one", [&](auto c, auto o) { return ember_random_permutation(c, 1, o); }},
        {"permutation of none", [&](auto c, auto o) { return ember_random_permutation(c, 0, o); }},
        {"shuffle", [&](auto c, auto o) { return ember_random_shuffle(c, c == cpu() ? scale : scale_ref, 0, o); }},
        {"truncated_normal", [&](auto c, auto o) { return ember_random_truncated_normal(c, odd, 2, 0, 1, -0.5, 2, EMBER_FLOAT64, o); }},
        {"gamma", [&](auto c, auto o) { return ember_random_gamma(c, flat, 1, 0.7, 2, EMBER_FLOAT32, o); }},
        {"beta", [&](auto c, auto o) { return ember_random_beta(c, odd, 2, 2, 5, EMBER_FLOAT64, o); }},
        {"binomial", [&](auto c, auto o) { return ember_random_binomial(c, odd, 2, 40, 0.3, EMBER_INT64, o); }},
        {"poisson", [&](auto c, auto o) { return ember_random_poisson(c, flat, 1, 25, EMBER_INT32, o); }},
        // The samplers' native path: each method branch, the blocks computed ahead (1-4) and
        // the trials past them, every output dtype it writes, and one it leaves to the reference.
        {"truncated_normal upper tail", [&](auto c, auto o) { return ember_random_truncated_normal(c, flat, 1, 1, 2, 4, 9, EMBER_FLOAT32, o); }},
        {"gamma 3 float64", [&](auto c, auto o) { return ember_random_gamma(c, odd, 2, 3, 0.5, EMBER_FLOAT64, o); }},
        {"gamma 0.3", [&](auto c, auto o) { return ember_random_gamma(c, flat, 1, 0.3, 1e12, EMBER_FLOAT64, o); }},
        {"binomial int32", [&](auto c, auto o) { return ember_random_binomial(c, three, 1, 3, 0.5, EMBER_INT32, o); }},
        {"gamma float16", [&](auto c, auto o) { return ember_random_gamma(c, odd, 2, 2, 1, EMBER_FLOAT16, o); }},
        {"beta below 1", [&](auto c, auto o) { return ember_random_beta(c, flat, 1, 0.2, 0.6, EMBER_FLOAT32, o); }},
        {"binomial inversion", [&](auto c, auto o) { return ember_random_binomial(c, flat, 1, 12, 0.2, EMBER_INT64, o); }},
        {"binomial mirrored float64", [&](auto c, auto o) { return ember_random_binomial(c, odd, 2, 1000, 0.9, EMBER_FLOAT64, o); }},
        {"poisson 7.5", [&](auto c, auto o) { return ember_random_poisson(c, odd, 2, 7.5, EMBER_INT64, o); }},
        {"poisson 0.5 float32", [&](auto c, auto o) { return ember_random_poisson(c, flat, 1, 0.5, EMBER_FLOAT32, o); }},
        {"gamma_t broadcast", [&](auto c, auto o) {
             if (c == cpu()) return ember_random_gamma_t(c, alpha, scale, nullptr, -1, EMBER_FLOAT32, o);
             T a = as_ref(alpha), s = as_ref(scale);
             return ember_random_gamma_t(c, a, s, nullptr, -1, EMBER_FLOAT32, o);
         }},
        {"poisson_t broadcast", [&](auto c, auto o) {
             if (c == cpu()) return ember_random_poisson_t(c, lam, odd, 2, EMBER_INT64, o);
             T l = as_ref(lam);
             return ember_random_poisson_t(c, l, odd, 2, EMBER_INT64, o);
         }},
    };
    // The vector Philox of a contiguous random_bits: blocks whose counter crosses 2^32 in
    // the middle of a vector, and a last partial block.
    const ember_random_state_t near_wrap{0x0123456789abcdefull, (1ull << 32) - 5};
    const int64_t words[1] = {1001};
    EM_OK(ember_random_set_state(cpu(), &near_wrap));
    EM_OK(ember_random_set_state(ref(), &near_wrap));
    T got, want;
    EM_OK(ember_random_bits(cpu(), words, 1, got.out()));
    EM_OK(ember_random_bits(ref(), words, 1, want.out()));
    expect_identical(got, want, "bits across the 2^32 block boundary");
    for (auto& [name, draw] : draws) {
        EM_OK(ember_random_seed(cpu(), 1234));
        EM_OK(ember_random_seed(ref(), 1234));
        for (int round = 0; round < 2; ++round) {  // the second draw checks where the state was left
            T got, want;
            EM_OK(draw(cpu(), got.out()));
            EM_OK(draw(ref(), want.out()));
            expect_identical(got, want, name + " draw " + std::to_string(round));
        }
    }
}

// random_ops.cpp's randint takes w mod range by a multiply-high instead of a division: the
// reference's values for ranges of every kind (1, powers of two and their neighbours,
// primes, just below and above 2^32, 2^53, 2^63, up to 2^64 - 1, and random 64-bit ones),
// each over 1001 elements, with low as far down as the range allows.
TEST(CpuLarge, RandintMatchesReferenceForManyRanges) {
    NEED_CPU();
    std::vector<uint64_t> ranges = {1, 2, 3, 5, 7, 10, 100, 255, 256, 257, 1000000007, (1ull << 31) - 1, 1ull << 32, (1ull << 32) + 1,
                                    (1ull << 53) + 1, 1ull << 62, (1ull << 63) - 1, 1ull << 63, (1ull << 63) + 1, ~0ull - 1, ~0ull};
    std::mt19937_64 rng(2026);
    for (int i = 0; i < 24; ++i) ranges.push_back(rng() >> (i % 8) * 8 | 1);
    const int64_t shape[1] = {1001};
    for (uint64_t range : ranges) {
        const int64_t low = range <= (1ull << 63) ? -(int64_t)(range / 2) : std::numeric_limits<int64_t>::min();
        const int64_t high = (int64_t)((uint64_t)low + range);
        EM_OK(ember_random_seed(cpu(), range));
        EM_OK(ember_random_seed(ref(), range));
        T got, want;
        EM_OK(ember_random_randint(cpu(), low, high, shape, 1, EMBER_INT64, got.out()));
        EM_OK(ember_random_randint(ref(), low, high, shape, 1, EMBER_INT64, want.out()));
        expect_identical(got, want, "randint range " + std::to_string(range));
    }
    const char* binding = nullptr;
    EM_OK(ember_op_binding("cpu", "random_randint", &binding));
    EXPECT_STREQ(binding, "native");
}

// sort.cpp: a stable radix sort per line must give the reference's stable comparison sort
// exactly: -0.0 and +0.0 keep their input order (they compare equal), NaNs (with different
// payloads) go last ascending and first descending, in input order among themselves.
TEST(CpuLarge, SortsMatchReferenceExactly) {
    NEED_CPU();
    const int64_t n = 49 * 1400;
    auto d = randf((size_t)n, -1000, 1000, 111);
    const float nan1 = std::numeric_limits<float>::quiet_NaN(), nan2 = -std::numeric_limits<float>::quiet_NaN();
    for (size_t i = 0; i < d.size(); i += 101) d[i] = i % 2 ? 0.0f : -0.0f;
    for (size_t i = 7; i < d.size(); i += 997) d[i] = i % 2 ? nan1 : nan2;
    for (size_t i = 11; i < d.size(); i += 4999) d[i] = i % 2 ? std::numeric_limits<float>::infinity() : -std::numeric_limits<float>::infinity();
    for (size_t i = 13; i < d.size(); i += 7) d[i] = std::round(d[i]);  // many ties
    T x32 = tensor(cpu(), d, {n}, EMBER_FLOAT32);
    for (ember_dtype_t dt : {EMBER_FLOAT32, EMBER_FLOAT64, EMBER_FLOAT16, EMBER_BFLOAT16, EMBER_INT8, EMBER_INT16, EMBER_INT32, EMBER_INT64,
                             EMBER_UINT8, EMBER_UINT16, EMBER_UINT32, EMBER_UINT64, EMBER_BOOL}) {
        T x;
        EM_OK(ember_astype(cpu(), x32, dt, x.out()));
        int64_t shape2[2] = {n / 7, 7}, shape3[3] = {7, n / 49, 7}, shape200[2] = {n / 200, 200};
        T m, m3, m200;
        EM_OK(ember_reshape(cpu(), x, shape2, 2, m.out()));
        EM_OK(ember_reshape(cpu(), x, shape3, 3, m3.out()));
        EM_OK(ember_reshape(cpu(), x, shape200, 2, m200.out()));  // lines under 256: 6-bit digits
        for (auto [what, v, axis] : {std::tuple<const char*, const ember_tensor_t*, int64_t>{"1-d", x, 0}, {"columns", m, 0}, {"rows", m, 1}, {"middle", m3, 1},
                                     {"rows of 200", m200, 1}}) {
            for (int desc : {0, 1}) {
                const std::string name = std::string(ember_dtype_name(dt)) + " " + what + (desc ? " descending" : "");
                T got, want, igot, iwant;
                EM_OK(ember_sort(cpu(), v, axis, desc, got.out()));
                EM_OK(ember_sort(ref(), as_ref(v), axis, desc, want.out()));
                EM_OK(ember_argsort(cpu(), v, axis, desc, igot.out()));
                EM_OK(ember_argsort(ref(), as_ref(v), axis, desc, iwant.out()));
                expect_identical(igot, iwant, "argsort " + name);
                EXPECT_EQ(raw_bytes(got), raw_bytes(want)) << "sort " << name;  // NaN payloads and signs of zero included
            }
        }
    }
}

// sort bit for bit (signs of zero, NaN payloads) and argsort exactly, against the reference.
static void expect_sorts_match_reference(const ember_tensor_t* v, int64_t axis, int desc, const std::string& what) {
    const std::string label = what + (desc ? ", descending" : "");
    T got, want, igot, iwant;
    EM_OK(ember_sort(cpu(), v, axis, desc, got.out()));
    EM_OK(ember_sort(ref(), as_ref(v), axis, desc, want.out()));
    EXPECT_TRUE(raw_bytes(got) == raw_bytes(want)) << "sort " << label;
    EM_OK(ember_argsort(cpu(), v, axis, desc, igot.out()));
    EM_OK(ember_argsort(ref(), as_ref(v), axis, desc, iwant.out()));
    expect_identical(igot, iwant, "argsort " + label);
}

// sort.cpp's short lines go through the ISA's sorting network (simd_sortnet.hpp), which
// pads each line to a power-of-two number of vectors, in pieces that are then merged:
// lengths on both sides of every padding step, of every piece count (pieces of 128 to 1024
// keys, by ISA and key size), of the quicksort that takes the lines between a quarter of a
// network and the short lines' limit on AVX2 and AVX-512 (powers of two up to one network
// excepted), and of the longer lines' sorts (the quicksort of each line where the ISA has
// one, one thread or across the pool; the radix sort), rows and strided columns, every
// real dtype. Neither networks, merges nor the quicksort is stable: argsort must still
// give the stable order, and sort the signs of zero and NaN payloads in input order. Run
// on every ISA variant by CpuMath.Avx2VariantWithin4Ulp and CpuMath.GenericVariantWithin4Ulp.
TEST(CpuLarge, ShortLineSortsMatchReference) {
    NEED_CPU();
    const float nan1 = std::numeric_limits<float>::quiet_NaN(), nan2 = -std::numeric_limits<float>::quiet_NaN();
    const float inf = std::numeric_limits<float>::infinity();
    for (int64_t len : {1, 2, 3, 4, 5, 7, 8, 9, 11, 12, 13, 15, 16, 17, 31, 32, 33, 63, 64, 65, 100, 127, 128, 129, 200, 255, 256, 257, 511, 512, 513,
                        700, 1023, 1024, 1025, 1500, 2047, 2048, 2049, 5000, 12000}) {
        const int lines = len <= 16 ? 37 : 6;  // packed rows of 5-16 sort a vector of rows at a time: whole vectors and a rest
        const int64_t n = lines * len;
        auto d = randf((size_t)n, -300, 300, 500 + (unsigned)len);
        for (size_t i = 0; i < d.size(); i += 3) d[i] = std::round(d[i] / 50);  // many ties
        auto with_specials = d;
        for (size_t i = 1; i < d.size(); i += 5) with_specials[i] = i % 2 ? 0.0f : -0.0f;
        for (size_t i = 2; i < d.size(); i += 11) with_specials[i] = i % 3 == 0 ? nan1 : i % 3 == 1 ? nan2 : (i % 2 ? inf : -inf);
        T plain = tensor(cpu(), d, {n}, EMBER_FLOAT32), special = tensor(cpu(), with_specials, {n}, EMBER_FLOAT32);
        for (ember_dtype_t dt : {EMBER_FLOAT32, EMBER_FLOAT64, EMBER_FLOAT16, EMBER_BFLOAT16, EMBER_INT8, EMBER_INT16, EMBER_INT32, EMBER_INT64,
                                 EMBER_UINT8, EMBER_UINT16, EMBER_UINT32, EMBER_UINT64, EMBER_BOOL}) {
            const bool is_float = dt == EMBER_FLOAT32 || dt == EMBER_FLOAT64 || dt == EMBER_FLOAT16 || dt == EMBER_BFLOAT16;
            T x, rows, cols;
            EM_OK(ember_astype(cpu(), is_float ? special : plain, dt, x.out()));
            const int64_t shape[2] = {lines, len};
            EM_OK(ember_reshape(cpu(), x, shape, 2, rows.out()));
            EM_OK(ember_transpose(cpu(), rows, cols.out()));  // (len, lines): lines along axis 0, stride `lines`
            for (auto [what, v, axis] : {std::tuple<const char*, const ember_tensor_t*, int64_t>{"rows", rows, 1}, {"columns", cols, 0}})
                for (int desc : {0, 1})
                    expect_sorts_match_reference(v, axis, desc, std::string(ember_dtype_name(dt)) + ", " + what + " of " + std::to_string(len));
            if (len > 17) continue;
            T reversed;  // short rows of a view: sorted from a C-order copy
            const int64_t last = 1;
            EM_OK(ember_flip(cpu(), rows, &last, 1, reversed.out()));
            for (int desc : {0, 1})
                expect_sorts_match_reference(reversed, 1, desc, std::string(ember_dtype_name(dt)) + ", reversed rows of " + std::to_string(len));
        }
    }
}

// 64-bit argsort of short lines sorts by a 32-bit window of each key (its distance from
// the line's smallest key, shifted until the largest distance fits) and then orders equal
// windows by whole keys. Lines whose keys span under 2^32 (exact windows), just over it
// (neighbouring keys share a window), and a full range with clusters of keys that differ
// only in their low bits (long runs of equal windows, with duplicates), as int64, uint64
// and float64 bits (NaNs with payloads among them), rows and columns, both directions.
TEST(CpuLarge, ShortLine64BitArgsortWindows) {
    NEED_CPU();
    std::mt19937_64 rng(77);
    const int lines = 4;
    for (int64_t len : {2, 17, 100, 513, 1024, 1025}) {
        const int64_t n = lines * len;
        std::vector<std::pair<std::string, std::vector<uint64_t>>> cases(3);
        cases[0].first = "span under 2^32";
        cases[1].first = "span just over 2^32";
        cases[2].first = "clusters over the full range";
        const uint64_t bases[3] = {rng(), rng(), rng()};
        for (int64_t i = 0; i < n; ++i) {
            cases[0].second.push_back((uint64_t)(int64_t)(rng() % 2001) - 1000);
            cases[1].second.push_back(i % 7 == 0 ? (uint64_t(1) << 32) + 1 - (i % 2) : rng() % 8);
            cases[2].second.push_back(i % 5 == 0 ? rng() : bases[i % 3] + rng() % 64);
        }
        for (const auto& [name, bits] : cases) {
            const int64_t shape[2] = {lines, len};
            for (ember_dtype_t dt : {EMBER_INT64, EMBER_UINT64, EMBER_FLOAT64}) {
                T rows, cols;
                EM_OK(ember_tensor_from_data(cpu(), bits.data(), dt, shape, 2, rows.out()));
                EM_OK(ember_transpose(cpu(), rows, cols.out()));
                for (auto [what, v, axis] : {std::tuple<const char*, const ember_tensor_t*, int64_t>{"rows", rows, 1}, {"columns", cols, 0}})
                    for (int desc : {0, 1})
                        expect_sorts_match_reference(v, axis, desc, std::string(ember_dtype_name(dt)) + ", " + name + ", " + what + " of " + std::to_string(len));
            }
        }
    }
}

// sort.cpp's long lines: a pass by the top 8 bits in which the keys differ, then an LSD
// sort per bucket (8- or 11-bit digits, insertion sort below 49 elements), a bucket with
// more than its share split again. Each distribution steers it down another path:
// exponents of one sign (uniform [0, 1)), one bucket holding 70% of the line (split
// again), keys differing in fewer than 8 bits (the first pass is the whole sort), a line
// of equal keys (no pass at all; signed zeros restored), few distinct values with NaNs,
// and a wide range over all signs. Ascending and descending, on one long line, on two
// rows, on a line of odd length and a reversed one (8- and 16-bit integers: the counting
// sort, split across the pool and not); sort bit for bit (signs of zero, NaN payloads) and
// argsort exactly.
TEST(CpuLarge, SortDistributionsMatchReference) {
    NEED_CPU();
    const int64_t n = 140000;  // over 2^16 per line: the threaded passes
    std::mt19937 rng(2024);
    std::uniform_real_distribution<double> unit(0, 1);
    std::vector<std::pair<std::string, std::vector<double>>> cases;
    auto add = [&](const std::string& name, auto gen) {
        std::vector<double> v((size_t)n);
        for (int64_t i = 0; i < n; ++i) v[(size_t)i] = gen(i);
        cases.emplace_back(name, std::move(v));
    };
    add("uniform [0, 1)", [&](int64_t) { return unit(rng); });
    add("70% in one bucket", [&](int64_t i) { return i % 10 < 7 ? 1.0 + unit(rng) * 1e-3 : (unit(rng) - 0.5) * 1e6; });
    add("values 0..199", [&](int64_t) { return std::floor(unit(rng) * 200); });
    add("signed zeros only", [&](int64_t i) { return i % 3 ? 0.0 : -0.0; });
    add("five values and NaN", [&](int64_t i) {
        const double v[6] = {-2.5, 0.0, -0.0, 7.0, 1e30, std::numeric_limits<double>::quiet_NaN()};
        return v[(i * 7 + i / 13) % 6];
    });
    add("all signs and magnitudes", [&](int64_t) { return (unit(rng) - 0.5) * std::pow(10.0, unit(rng) * 40 - 20); });
    for (auto& [name, values] : cases) {
        T x64 = tensor(cpu(), values, {n}, EMBER_FLOAT64);
        for (ember_dtype_t dt : {EMBER_FLOAT32, EMBER_FLOAT64, EMBER_FLOAT16, EMBER_INT64, EMBER_UINT8, EMBER_INT16, EMBER_INT8}) {
            if (dt != EMBER_FLOAT32 && dt != EMBER_FLOAT64 && name.find("NaN") != std::string::npos) continue;  // NaN -> integer
            T x, rows, odd_length, reversed;
            EM_OK(ember_astype(cpu(), x64, dt, x.out()));
            const int64_t shape2[2] = {2, n / 2}, from = 3, end = EMBER_SLICE_END, one = 1, axis0 = 0;
            EM_OK(ember_reshape(cpu(), x, shape2, 2, rows.out()));
            EM_OK(ember_slice(cpu(), x, &from, &end, &one, 1, odd_length.out()));  // 139997: counting's parts of odd lengths
            EM_OK(ember_flip(cpu(), x, &axis0, 1, reversed.out()));
            for (auto [what, v, axis] : {std::tuple<const char*, const ember_tensor_t*, int64_t>{"1-d", x, 0}, {"two rows", rows, 1},
                                         {"odd length", odd_length, 0}, {"reversed", reversed, 0}})
                for (int desc : {0, 1}) expect_sorts_match_reference(v, axis, desc, name + ", " + ember_dtype_name(dt) + ", " + what);
        }
    }
}

// sort.cpp's complex lines: a stable radix sort by the real part, then each run of equal real
// parts by the imaginary part (an insertion sort for short runs, a radix sort for long ones).
// Real parts with many ties, signed zeros and infinities in either part, NaN in either part
// with either sign (every NaN element is equal: last ascending, first descending, in input
// order), a line whose real parts all compare equal (one run of the whole line); one long
// line (threaded passes), two rows, strided columns and short rows; both directions,
// complex64 and complex128; sort bit for bit, argsort exactly.
TEST(CpuLarge, ComplexSortsMatchReference) {
    NEED_CPU();
    const int64_t n = 140000;
    std::mt19937 rng(77);
    std::uniform_real_distribution<double> unit(0, 1);
    const double nan = std::numeric_limits<double>::quiet_NaN(), inf = std::numeric_limits<double>::infinity();
    std::vector<std::pair<std::string, std::vector<std::complex<double>>>> cases;
    auto add = [&](const std::string& name, auto gen) {
        std::vector<std::complex<double>> v((size_t)n);
        for (int64_t i = 0; i < n; ++i) v[(size_t)i] = gen(i);
        cases.emplace_back(name, std::move(v));
    };
    add("random", [&](int64_t) { return std::complex<double>(unit(rng) - 0.5, unit(rng) - 0.5); });
    add("real parts 0..99 and specials", [&](int64_t i) {
        double re = std::floor(unit(rng) * 100), im = std::floor(unit(rng) * 5);
        switch (i % 17) {
            case 0: re = -0.0; break;
            case 1: im = -0.0; break;
            case 2: re = 0.0; break;
            case 3: re = nan; break;
            case 4: im = -nan; break;
            case 5: im = inf; break;
            case 6: re = -inf; break;
            default: break;
        }
        return std::complex<double>(re, im);
    });
    add("imaginary only", [&](int64_t i) { return std::complex<double>(i % 2 ? 0.0 : -0.0, std::floor(unit(rng) * 1000) - 500); });
    for (auto& [name, values] : cases) {
        const int64_t shape1[1] = {n};
        T x128;
        EM_OK(ember_tensor_from_data(cpu(), values.data(), EMBER_COMPLEX128, shape1, 1, x128.out()));
        for (ember_dtype_t dt : {EMBER_COMPLEX64, EMBER_COMPLEX128}) {
            T x, rows, cols, short_rows;
            EM_OK(ember_astype(cpu(), x128, dt, x.out()));
            const int64_t two[2] = {2, n / 2}, narrow[2] = {n / 20, 20}, seven[2] = {n / 7, 7};
            EM_OK(ember_reshape(cpu(), x, two, 2, rows.out()));
            EM_OK(ember_reshape(cpu(), x, narrow, 2, cols.out()));
            EM_OK(ember_reshape(cpu(), x, seven, 2, short_rows.out()));
            for (auto [what, v, axis] : {std::tuple<const char*, const ember_tensor_t*, int64_t>{"1-d", x, 0}, {"two rows", rows, 1},
                                         {"columns", cols, 0}, {"rows of 7", short_rows, 1}})
                for (int desc : {0, 1}) expect_sorts_match_reference(v, axis, desc, name + ", " + ember_dtype_name(dt) + ", " + what);
        }
    }
}

// sort.cpp's lines of 32- and 64-bit keys past the short ones (one thread) and long ones
// (every thread), on an ISA with a vectorised quicksort (simd_quicksort.hpp; AVX2 and
// AVX-512): partitions that leave a remainder of under one step,
// pivots that are the smallest key (runs of equal keys) or the largest possible key, inputs
// already in order or reversed, and the cut into pieces for the pool; every 32- and 64-bit
// dtype (floats sort -0.0/+0.0 and NaNs in input order), both directions, bit for bit
// against the reference; argsort of 32-bit lines through the quicksort up to 65536 keys
// (one line on every thread at 10007, also strided), the radix sort above. Elsewhere the
// radix sort runs the same cases.
TEST(CpuLarge, LongLineQuicksortPatterns) {
    NEED_CPU();
    std::mt19937_64 rng(4242);
    for (int64_t n : {3001, 10007, 65537, 100003}) {
        struct Case {
            std::string name;
            std::vector<uint32_t> bits32;
            std::vector<uint64_t> bits64;
        };
        std::vector<Case> cases;
        // gen(i) gives the 64-bit keys; the 32-bit ones are their low halves.
        auto add = [&](const std::string& name, auto gen) {
            Case c{name + " of " + std::to_string(n), std::vector<uint32_t>((size_t)n), std::vector<uint64_t>((size_t)n)};
            for (int64_t i = 0; i < n; ++i) {
                c.bits64[(size_t)i] = gen(i);
                c.bits32[(size_t)i] = (uint32_t)c.bits64[(size_t)i];
            }
            cases.push_back(std::move(c));
        };
        add("full range", [&](int64_t) { return (uint64_t)rng(); });
        add("ascending", [&](int64_t i) { return (uint64_t)i * 7u; });
        add("descending", [&](int64_t i) { return (uint64_t)(n - i) * 3u; });
        add("organ pipe", [&](int64_t i) { return (uint64_t)std::min(i, n - i); });
        add("all equal", [&](int64_t) { return (uint64_t)12345; });
        add("all the largest key", [&](int64_t) { return ~(uint64_t)0; });
        add("two values", [&](int64_t i) { return i % 3 ? (uint64_t)0 : ~(uint64_t)0; });
        add("few values, one common", [&](int64_t) { return rng() % 10 < 8 ? (uint64_t)5 : (uint64_t)(rng() % 16); });
        Case floats{"small floats and NaNs of " + std::to_string(n), std::vector<uint32_t>((size_t)n), std::vector<uint64_t>((size_t)n)};
        for (int64_t i = 0; i < n; ++i) {
            const float v[5] = {0.0f, -0.0f, 1.5f, -2.0f, std::numeric_limits<float>::quiet_NaN()};
            const float f = i % 7 == 0 ? v[rng() % 5] : (float)(rng() % 1000) / 8.0f - 60.0f;
            const double d = (i % 11 == 0 && f != f) ? -std::numeric_limits<double>::quiet_NaN() : (double)f;
            std::memcpy(&floats.bits32[(size_t)i], &f, 4);
            std::memcpy(&floats.bits64[(size_t)i], &d, 8);
        }
        cases.push_back(std::move(floats));
        for (const Case& c : cases)
            for (ember_dtype_t dt : {EMBER_INT32, EMBER_UINT32, EMBER_FLOAT32, EMBER_INT64, EMBER_UINT64, EMBER_FLOAT64}) {
                const bool wide = dt == EMBER_INT64 || dt == EMBER_UINT64 || dt == EMBER_FLOAT64;
                T x;
                EM_OK(ember_tensor_from_data(cpu(), wide ? (const void*)c.bits64.data() : (const void*)c.bits32.data(), dt, &n, 1, x.out()));
                for (int desc : {0, 1}) expect_sorts_match_reference(x, 0, desc, c.name + ", " + ember_dtype_name(dt));
                if (n != 10007) continue;
                // A strided line (every other element of one twice as long, the others zero).
                const size_t width = wide ? 8 : 4;
                std::vector<unsigned char> doubled((size_t)(2 * n) * width, 0);
                for (int64_t i = 0; i < n; ++i)
                    std::memcpy(&doubled[(size_t)(2 * i) * width], wide ? (const void*)&c.bits64[(size_t)i] : (const void*)&c.bits32[(size_t)i], width);
                T x2, every_other;
                const int64_t n2 = 2 * n, from = 0, by = 2;
                EM_OK(ember_tensor_from_data(cpu(), doubled.data(), dt, &n2, 1, x2.out()));
                EM_OK(ember_slice(cpu(), x2, &from, &n2, &by, 1, every_other.out()));
                for (int desc : {0, 1}) expect_sorts_match_reference(every_other, 0, desc, c.name + ", " + ember_dtype_name(dt) + ", strided");
            }
    }
}

// argreduce.cpp: the first extreme value, or the first NaN, of long lines split into
// stretches across the pool (ties across stretches keep the earlier one) and of many lines.
TEST(CpuLarge, ArgExtremesMatchReference) {
    NEED_CPU();
    const int64_t n = 1000003;
    auto d = randf((size_t)n, -100, 100, 121);
    d[700001] = 500;
    d[900001] = 500;  // a tie in a later stretch
    d[3] = -500;
    d[600007] = -500;
    d[12] = -0.0f;
    d[900002] = 500;  // the same ties for x[2::3]
    d[5] = -500;
    d[600008] = -500;
    d[715001] = 500;  // ties in one stretch, pieces apart, for the reversed and the stepped vector
    d[615008] = -500;
    using Arg = ember_status_t (*)(ember_ctx_t*, const ember_tensor_t*, int64_t, int, ember_tensor_t**);
    for (int with_nan : {0, 1}) {
        if (with_nan) {
            d[800003] = std::numeric_limits<float>::quiet_NaN();
            d[950000] = std::numeric_limits<float>::quiet_NaN();
        }
        T x32 = tensor(cpu(), d, {n}, EMBER_FLOAT32);
        for (ember_dtype_t dt : {EMBER_FLOAT32, EMBER_FLOAT64, EMBER_INT32, EMBER_INT8, EMBER_UINT16, EMBER_INT64, EMBER_FLOAT16, EMBER_BOOL}) {
            if (with_nan && dt != EMBER_FLOAT32 && dt != EMBER_FLOAT64) continue;
            T x;
            EM_OK(ember_astype(cpu(), x32, dt, x.out()));
            int64_t rows_shape[2] = {1000003 / 7, 7}, wide_shape[2] = {7, 1000003 / 7};
            T rows, wide, x1, reversed, stepped;
            const int64_t start = 0, stop = 1000003 / 7 * 7, step = 1, axis0 = 0, from = 2, every = 3;
            EM_OK(ember_slice(cpu(), x, &start, &stop, &step, 1, x1.out()));
            EM_OK(ember_reshape(cpu(), x1, rows_shape, 2, rows.out()));
            EM_OK(ember_reshape(cpu(), x1, wide_shape, 2, wide.out()));
            // a reversed and a stepped vector: gathered in pieces of 4096 (ties across pieces)
            EM_OK(ember_flip(cpu(), x, &axis0, 1, reversed.out()));
            const int64_t end = EMBER_SLICE_END;
            EM_OK(ember_slice(cpu(), x, &from, &end, &every, 1, stepped.out()));
            for (auto [name, fn] : {std::pair<const char*, Arg>{"argmax", ember_argmax}, {"argmin", ember_argmin}})
                for (auto [what, v, axis] : {std::tuple<const char*, const ember_tensor_t*, int64_t>{"1-d", x, 0}, {"rows", rows, 1}, {"wide rows", wide, 1},
                                             {"reversed", reversed, 0}, {"stepped", stepped, 0}}) {
                    T got, want;
                    EM_OK(fn(cpu(), v, axis, 0, got.out()));
                    EM_OK(fn(ref(), as_ref(v), axis, 0, want.out()));
                    expect_identical(got, want, std::string(name) + " " + what + " " + ember_dtype_name(dt) + (with_nan ? " with NaN" : ""));
                }
        }
    }
}

// argreduce.cpp's column layout (the axis is not the innermost; x in C order after it):
// pieces of 256 columns fold their rows in order, and few long columns split their rows into
// parts across the pool, combined in order; few short columns of consecutive rows (7 here)
// fold 36 rows side by side and combine those candidates by value and row, then the last 9
// rows. Ties, -0/+0 and NaNs of one column sit in different parts and lanes, an extreme in
// the last rows; many short columns, an outer dim, a stepped axis (every other row), bools;
// the last axis of transposed views (the dims before it moved behind it: the columns kernel's
// columns), and of a stepped one (lines of one column, batched into tasks); down stepped and
// reversed columns (a C-order copy for the columns kernel).
TEST(CpuLarge, ArgExtremesAlongOuterAxesMatchReference) {
    NEED_CPU();
    const int64_t rows = 142857, cols = 7, n = rows * cols;
    auto d = randf((size_t)n, -100, 100, 122);
    d[10 * cols + 2] = d[140000 * cols + 2] = 1000;  // the first of a tie in parts far apart
    d[20 * cols + 3] = d[120000 * cols + 3] = -1000;
    d[5 * cols + 6] = -0.0f;
    d[9 * cols + 6] = 0.0f;
    d[(rows - 1) * cols + 4] = 1000;  // in the last rows, after the last group of rows folded side by side
    d[(rows - 2) * cols + 0] = -1000;
    using Arg = ember_status_t (*)(ember_ctx_t*, const ember_tensor_t*, int64_t, int, ember_tensor_t**);
    for (int with_nan : {0, 1}) {
        if (with_nan) {
            d[130000 * cols + 5] = std::numeric_limits<float>::quiet_NaN();
            d[50000 * cols + 5] = std::numeric_limits<float>::quiet_NaN();
            d[3 * cols + 1] = std::numeric_limits<float>::quiet_NaN();  // two NaNs of one part: the first wins
            d[7 * cols + 1] = std::numeric_limits<float>::quiet_NaN();
        }
        std::vector<float> flags(d.size());
        for (size_t i = 0; i < d.size(); ++i) flags[i] = d[i] > 99.9f;
        for (ember_dtype_t dt : {EMBER_FLOAT32, EMBER_FLOAT64, EMBER_INT16, EMBER_UINT8, EMBER_INT64, EMBER_BOOL}) {
            if (with_nan && dt != EMBER_FLOAT32 && dt != EMBER_FLOAT64) continue;
            T tall = tensor(cpu(), dt == EMBER_BOOL ? flags : d, {rows, cols}, dt), wide, cube, every_other, across, cube_last, every_other_column;
            const int64_t wide_shape[2] = {cols, rows}, cube_shape[3] = {cols, 3, rows / 3};
            EM_OK(ember_reshape(cpu(), tall, wide_shape, 2, wide.out()));
            EM_OK(ember_reshape(cpu(), tall, cube_shape, 3, cube.out()));
            const int64_t from[2] = {0, 0}, to[2] = {rows, cols}, steps[2] = {2, 1}, column_steps[2] = {1, 2};
            EM_OK(ember_slice(cpu(), tall, from, to, steps, 2, every_other.out()));
            EM_OK(ember_slice(cpu(), tall, from, to, column_steps, 2, every_other_column.out()));
            const int64_t swap[2] = {1, 0}, rotate[3] = {1, 2, 0};
            EM_OK(ember_permute_dims(cpu(), wide, swap, 2, across.out()));  // rows of 7 read across memory
            EM_OK(ember_permute_dims(cpu(), cube, rotate, 3, cube_last.out()));
            T reversed_columns;
            const int64_t axis1 = 1;
            EM_OK(ember_flip(cpu(), tall, &axis1, 1, reversed_columns.out()));
            for (auto [name, fn] : {std::pair<const char*, Arg>{"argmax", ember_argmax}, {"argmin", ember_argmin}})
                for (auto [what, v, axis] :
                     {std::tuple<const char*, const ember_tensor_t*, int64_t>{"few long columns", tall, 0}, {"many short columns", wide, 0},
                      {"middle axis", cube, 1}, {"first of three", cube, 0}, {"every other row", every_other, 0},
                      {"last axis of a transpose", across, 1}, {"last axis of a rotated cube", cube_last, 2}, {"every other column", every_other_column, 1},
                      {"down every other column (a copy)", every_other_column, 0}, {"down reversed columns (a copy)", reversed_columns, 0}}) {
                    T got, want;
                    EM_OK(fn(cpu(), v, axis, 0, got.out()));
                    EM_OK(fn(ref(), as_ref(v), axis, 0, want.out()));
                    expect_identical(got, want, std::string(name) + " " + what + " " + ember_dtype_name(dt) + (with_nan ? " with NaN" : ""));
                }
        }
    }
}

// argreduce.cpp's bool lines: the first 1 (argmax) or 0 (argmin) byte, found by two words of
// 8 bytes and then memchr. Rows of n: one of zeros, one of ones, then n rows with a single 1,
// at every position in turn (both words, their boundary, the memchr part; the last row's
// at the end of the buffer, where a word would read past it); their complements (logical_not)
// for argmin's 0; every other row (an outer step). Lines of 1e6 take the pool.
TEST(CpuLarge, ArgExtremesOfBoolRows) {
    NEED_CPU();
    using Arg = ember_status_t (*)(ember_ctx_t*, const ember_tensor_t*, int64_t, int, ember_tensor_t**);
    for (int64_t n : {1, 2, 7, 8, 9, 15, 16, 17, 24, 31, 33, 100, 1000}) {
        const int64_t rows = n + 2;
        std::vector<float> d((size_t)(rows * n), 0.0f);
        std::fill(d.begin() + n, d.begin() + 2 * n, 1.0f);
        for (int64_t r = 0; r < n; ++r) d[(size_t)((r + 2) * n + r)] = 1.0f;
        T x = tensor(cpu(), d, {rows, n}, EMBER_BOOL), flipped, every_other, flipped_every_other;
        EM_OK(ember_logical_not(cpu(), x, flipped.out()));
        const int64_t from[2] = {0, 0}, to[2] = {rows, n}, steps[2] = {2, 1};
        EM_OK(ember_slice(cpu(), x, from, to, steps, 2, every_other.out()));
        EM_OK(ember_slice(cpu(), flipped, from, to, steps, 2, flipped_every_other.out()));
        for (auto [name, fn] : {std::pair<const char*, Arg>{"argmax", ember_argmax}, {"argmin", ember_argmin}})
            for (auto [what, v] : {std::pair<const char*, const ember_tensor_t*>{"rows", x}, {"complemented rows", flipped}, {"every other row", every_other},
                                   {"every other complemented row", flipped_every_other}}) {
                T got, want;
                EM_OK(fn(cpu(), v, 1, 0, got.out()));
                EM_OK(fn(ref(), as_ref(v), 1, 0, want.out()));
                expect_identical(got, want, std::string(name) + " bool " + what + " of " + std::to_string(n));
            }
    }
}

// argreduce.cpp along rows: float32/float64 rows go through the ISA's one-pass arg_row (each
// lane's extreme and its first index in four sets of lanes, the tail as an overlapping last
// vector, a running sum to notice NaNs), integer rows through max/min and the ISA's
// first_position. Rows of lengths around the vector widths, each with one planted feature:
// a tie of the extreme (the first wins wherever the two sit), the extreme last (in the
// overlapping tail) or first and last, -0.0 before +0.0 (equal: the first), two NaNs (the
// first), +inf and -inf (no NaN, but a NaN sum), every value equal. CpuBackend.ArgExtremesOnEveryIsa
// runs these with the AVX2 and SSE2 kernels.
TEST(CpuLarge, ArgExtremesOfRowsMatchReference) {
    NEED_CPU();
    const float inf = std::numeric_limits<float>::infinity(), nan = std::numeric_limits<float>::quiet_NaN();
    using Arg = ember_status_t (*)(ember_ctx_t*, const ember_tensor_t*, int64_t, int, ember_tensor_t**);
    std::mt19937 gen(123);
    for (int64_t len : {17, 31, 33, 63, 64, 65, 100, 127, 129, 255, 257, 1000, 4099, 5000}) {
        const int64_t rows = 72;
        auto d = randf((size_t)(rows * len), -100, 100, (unsigned)(130 + len));
        for (int64_t r = 0; r < rows; ++r) {
            float* row = &d[(size_t)(r * len)];
            const int64_t p = (int64_t)(gen() % (uint32_t)len), q = (int64_t)(gen() % (uint32_t)len);
            const int64_t first = std::min(p, q), second = std::max(p, q) == first ? std::min(first + 1, len - 1) : std::max(p, q);
            switch (r % 9) {
                case 0: break;
                case 1: row[first] = row[second] = 500, row[(first + second) / 3] = row[len - 1 - first] = -500; break;
                case 2: row[len - 1] = 500, row[len - 2] = -500; break;
                case 3: row[0] = row[len - 1] = 500, row[1] = row[len - 2] = -500; break;
                case 4:
                    for (int64_t k = 0; k < len; ++k) row[k] = r % 2 ? -std::fabs(row[k]) - 1 : std::fabs(row[k]) + 1;
                    row[first] = r % 2 ? -0.0f : 0.0f;  // the extreme: zeros of both signs, the first wins
                    row[second] = r % 2 ? 0.0f : -0.0f;
                    break;
                case 5: row[second] = row[first] = nan; break;
                case 6: row[first] = inf, row[second] = -inf; break;
                case 7: std::fill(row, row + len, 3.0f); break;
                case 8: row[first] = nan, row[len - 1] = 500, row[0] = -500; break;
            }
        }
        for (ember_dtype_t dt : {EMBER_FLOAT32, EMBER_FLOAT64, EMBER_INT32, EMBER_INT64, EMBER_INT16, EMBER_UINT8}) {
            T x = tensor(cpu(), d, {rows, len}, dt);
            for (auto [name, fn] : {std::pair<const char*, Arg>{"argmax", ember_argmax}, {"argmin", ember_argmin}}) {
                T got, want;
                EM_OK(fn(cpu(), x, 1, 0, got.out()));
                EM_OK(fn(ref(), as_ref(x), 1, 0, want.out()));
                expect_identical(got, want, std::string(name) + " rows of " + std::to_string(len) + " " + ember_dtype_name(dt));
            }
        }
    }
}

}  // namespace
