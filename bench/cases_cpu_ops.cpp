// cpu backend: elementwise, transcendental, reduction, softmax, index and random cases.
//
// Baselines:
//  - NumPy: bench/run_numpy.sh first runs bench/numpy_baseline.py, which times the same
//    operations in NumPy and writes {"<case>/<size>": seconds} to a JSON file, then runs
//    `ember-bench numpy` with EMBER_NUMPY_BASELINE pointing at it. Without that variable the
//    numpy_* cases print nothing (plain `ember-bench` has no NumPy to compare with).
//  - copy_bandwidth_2t: this file's own two-thread copy of a 1e7-float32 array (the better
//    of memcpy and a streaming-store loop); Ember's `c = a + b` (output recycled by the
//    caching allocator: the ABI has no out= variant) and `assign` (copy into an existing
//    tensor) are compared on bytes moved per second (reads + writes).
//  - scaling: ns per element at 1e7 against 1e6 (ratio = 10 * t(1e6) / t(1e7); 1 is
//    perfectly linear, the target is >= 1/1.3). copy_scaling_2t is the same ratio for the
//    two-thread copy above: what a memory-bound op can reach at best.
//  - read_2t / read_1t: this file's own read of every element of a 1e7-float32 array on two
//    threads and on one; sum_f32_read_bandwidth is Ember's sum against read_2t. Together
//    with NumPy's sum they bound the ratio a sum can reach against NumPy on this machine.
#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <cmath>
#include <complex>
#include <cstdio>
#include <cstring>
#include <map>
#include <random>
#include <string>
#include <thread>
#include <tuple>
#include <vector>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "bench.hpp"
#include "ember/ember.h"
#include "ember/ember_linalg.h"

namespace {

// OpenBLAS's idle threads spin (sched_yield) for a while after library start-up and after
// every GEMM (~60 ms of CPU here). On two cores that halves the threaded kernels timed in
// that window, so each case lets them go to sleep first.
void settle() { std::this_thread::sleep_for(std::chrono::milliseconds(300)); }

struct Ctx {
    ember_ctx_t* c = nullptr;
    Ctx() {
        if (ember_ctx_create_on("cpu", 0, &c) != EMBER_OK) c = nullptr;
    }
    ~Ctx() { ember_ctx_release(c); }
};

ember_tensor_t* random_tensor(ember_ctx_t* ctx, std::vector<int64_t> shape, double lo, double hi, unsigned seed) {
    size_t n = 1;
    for (auto s : shape) n *= (size_t)s;
    std::vector<float> v(n);
    std::mt19937 rng(seed);
    std::uniform_real_distribution<float> u((float)lo, (float)hi);
    for (auto& x : v) x = u(rng);
    ember_tensor_t* t = nullptr;
    ember_tensor_from_data(ctx, v.data(), EMBER_FLOAT32, shape.data(), (int)shape.size(), &t);
    return t;
}

std::string size_name(int64_t n) {
    if (n == 10000) return "1e4";
    if (n == 1000000) return "1e6";
    if (n == 10000000) return "1e7";
    return std::to_string(n);
}

using Unary = ember_status_t (*)(ember_ctx_t*, const ember_tensor_t*, ember_tensor_t**);

double time_unary(ember_ctx_t* ctx, Unary fn, ember_tensor_t* x, int reps) {
    return bench::best_of(reps, [&] {
        ember_tensor_t* r;
        fn(ctx, x, &r);
        ember_tensor_release(r);
    });
}
double time_add(ember_ctx_t* ctx, ember_tensor_t* a, ember_tensor_t* b, int reps) {
    return bench::best_of(reps, [&] {
        ember_tensor_t* r;
        ember_add(ctx, a, b, &r);
        ember_tensor_release(r);
    });
}
double time_reduce(ember_ctx_t* ctx, bool mean, ember_tensor_t* x, int reps) {
    return bench::best_of(reps, [&] {
        ember_tensor_t* r;
        if (mean) ember_mean(ctx, x, nullptr, 0, 0, &r);
        else ember_sum(ctx, x, nullptr, 0, 0, &r);
        ember_tensor_release(r);
    });
}

ember_status_t gelu_tanh(ember_ctx_t* ctx, const ember_tensor_t* x, ember_tensor_t** out) { return ember_gelu(ctx, x, 1, out); }
struct Op {
    const char* name;
    Unary fn;       // unary ops
    int kind;       // 0 unary, 1 add, 2 sum, 3 mean
    double lo, hi;  // input range
};
const Op kOps[] = {
    {"add_f32", nullptr, 1, -1, 1},       {"exp_f32", ember_exp, 0, -10, 10},  {"log_f32", ember_log, 0, 1e-3, 1e3},
    {"tanh_f32", ember_tanh, 0, -5, 5},   {"sigmoid_f32", ember_sigmoid, 0, -10, 10}, {"gelu_tanh_f32", gelu_tanh, 0, -5, 5},
    {"sin_f32", ember_sin, 0, -10, 10},   {"softplus_f32", ember_softplus, 0, -10, 10}, {"cbrt_f32", ember_cbrt, 0, -1e3, 1e3},
    {"sum_f32", nullptr, 2, -1, 1},       {"mean_f32", nullptr, 3, -1, 1},
};

double time_op(ember_ctx_t* ctx, const Op& op, int64_t n, int reps) {
    ember_tensor_t* x = random_tensor(ctx, {n}, op.lo, op.hi, 1);
    double t = 0;
    if (op.kind == 0) {
        t = time_unary(ctx, op.fn, x, reps);
    } else if (op.kind == 1) {
        ember_tensor_t* y = random_tensor(ctx, {n}, op.lo, op.hi, 2);
        t = time_add(ctx, x, y, reps);
        ember_tensor_release(y);
    } else {
        t = time_reduce(ctx, op.kind == 3, x, reps);
    }
    ember_tensor_release(x);
    return t;
}

double time_softmax(ember_ctx_t* ctx, int64_t rows, int64_t cols, int reps) {
    ember_tensor_t* x = random_tensor(ctx, {rows, cols}, -5, 5, 3);
    double t = bench::best_of(reps, [&] {
        ember_tensor_t* r;
        ember_softmax(ctx, x, -1, &r);
        ember_tensor_release(r);
    });
    ember_tensor_release(x);
    return t;
}

// ---- Ember against NumPy (only under bench/run_numpy.sh)
void vs_numpy(const bench::Options& opt, std::vector<bench::Result>& out) {
    auto np = bench::numpy_times();
    if (np.empty()) return;
    Ctx ctx;
    if (!ctx.c) return;
    settle();
    int reps = opt.quick ? 5 : 15;
    for (const Op& op : kOps)
        for (int64_t n : {(int64_t)1000000, (int64_t)10000000}) {
            std::string key = std::string(op.name) + "/" + size_name(n);
            if (!np.count(key)) continue;
            out.push_back({op.name, size_name(n), "cpu", "numpy", time_op(ctx.c, op, n, reps), np[key]});
        }
    const int64_t rows = opt.quick ? 1024 : 4096, cols = 4096;
    std::string skey = "softmax_f32/" + std::to_string(rows) + "x" + std::to_string(cols);
    if (np.count(skey))
        out.push_back({"softmax_f32", std::to_string(rows) + "x" + std::to_string(cols), "cpu", "numpy",
                       time_softmax(ctx.c, rows, cols, opt.quick ? 3 : 7), np[skey]});
}
bench::Register reg_np("numpy", vs_numpy);

// ---- index and random ops against NumPy (numpy_baseline.py's INDEX_CASES, same shapes)
ember_tensor_t* from_host(ember_ctx_t* ctx, const void* data, ember_dtype_t dtype, std::vector<int64_t> shape) {
    ember_tensor_t* t = nullptr;
    ember_tensor_from_data(ctx, data, dtype, shape.data(), (int)shape.size(), &t);
    return t;
}
template <class F>
double time_result(int reps, F&& op) {
    return bench::best_of(reps, [&] {
        ember_tensor_t* r = nullptr;
        op(&r);
        ember_tensor_release(r);
    });
}

void vs_numpy_index(const bench::Options& opt, std::vector<bench::Result>& out) {
    auto np = bench::numpy_times();
    if (np.empty()) return;
    Ctx ctx;
    if (!ctx.c) return;
    settle();
    const int reps = opt.quick ? 5 : 15;
    ember_ctx_t* c = ctx.c;
    std::mt19937 rng(2);
    auto add = [&](const char* name, const char* size, double ember_s) {
        std::string key = std::string(name) + "/" + size;
        if (np.count(key)) out.push_back({name, size, "cpu", "numpy", ember_s, np[key]});
    };
    if (np.count("take_rows_f32/1e6x16")) {
        ember_tensor_t* table = random_tensor(c, {65536, 16}, -1, 1, 4);
        std::vector<int64_t> idx(1000000);
        for (auto& i : idx) i = (int64_t)(rng() % 65536);
        ember_tensor_t* ix = from_host(c, idx.data(), EMBER_INT64, {(int64_t)idx.size()});
        add("take_rows_f32", "1e6x16", time_result(reps, [&](ember_tensor_t** r) { ember_take(c, table, ix, 0, r); }));
        ember_tensor_release(ix);
        ember_tensor_release(table);
    }
    if (np.count("take_f32/1e5")) {
        ember_tensor_t* x = random_tensor(c, {1000000}, -1, 1, 6);
        std::vector<int64_t> idx(100000);
        for (auto& i : idx) i = (int64_t)(rng() % 1000000);
        ember_tensor_t* ix = from_host(c, idx.data(), EMBER_INT64, {(int64_t)idx.size()});
        add("take_f32", "1e5", time_result(reps, [&](ember_tensor_t** r) { ember_take(c, x, ix, 0, r); }));
        ember_tensor_release(ix);
        ember_tensor_release(x);
    }
    if (np.count("nonzero_f32/1000x10000")) {
        ember_tensor_t* x = random_tensor(c, {1000, 10000}, -1, 1, 5), *half = nullptr, *zero = nullptr;
        ember_full(c, nullptr, 0, 0.0, EMBER_FLOAT32, &zero);
        ember_maximum(c, x, zero, &half);
        add("nonzero_f32", "1000x10000", time_result(reps, [&](ember_tensor_t** r) { ember_nonzero(c, half, r); }));
        for (ember_tensor_t* t : {x, half, zero}) ember_tensor_release(t);
    }
    if (np.count("searchsorted_f32/1e7")) {
        std::vector<float> seq(10000);
        std::uniform_real_distribution<float> u(-1, 1);
        for (auto& v : seq) v = u(rng);
        std::sort(seq.begin(), seq.end());
        ember_tensor_t* s = from_host(c, seq.data(), EMBER_FLOAT32, {(int64_t)seq.size()});
        ember_tensor_t* v = random_tensor(c, {10000000}, -1, 1, 6);
        add("searchsorted_f32", "1e7", time_result(reps, [&](ember_tensor_t** r) { ember_searchsorted(c, s, v, 0, r); }));
        ember_tensor_release(s);
        ember_tensor_release(v);
    }
    const int64_t n7[1] = {10000000};
    add("random_uniform_f32", "1e7", time_result(reps, [&](ember_tensor_t** r) { ember_random_uniform(c, n7, 1, 0, 1, EMBER_FLOAT32, r); }));
    add("random_normal_f32", "1e7", time_result(reps, [&](ember_tensor_t** r) { ember_random_normal(c, n7, 1, 0, 1, EMBER_FLOAT32, r); }));
    const int64_t n6[1] = {1000000};
    if (np.count("random_normal_f64/1e6"))
        add("random_normal_f64", "1e6", time_result(reps, [&](ember_tensor_t** r) { ember_random_normal(c, n6, 1, 0, 1, EMBER_FLOAT64, r); }));
    if (np.count("random_exponential_f64/1e6"))
        add("random_exponential_f64", "1e6", time_result(reps, [&](ember_tensor_t** r) { ember_random_exponential(c, n6, 1, 1, EMBER_FLOAT64, r); }));
    if (np.count("random_gamma_f64/1e6"))
        add("random_gamma_f64", "1e6", time_result(reps, [&](ember_tensor_t** r) { ember_random_gamma(c, n6, 1, 2.0, 1.0, EMBER_FLOAT64, r); }));
    if (np.count("random_poisson_i64/1e6"))
        add("random_poisson_i64", "1e6", time_result(reps, [&](ember_tensor_t** r) { ember_random_poisson(c, n6, 1, 3.0, EMBER_INT64, r); }));
    if (np.count("random_bernoulli_f64/1e6")) {
        ember_tensor_t* p = nullptr;
        ember_full(c, nullptr, 0, 0.3, EMBER_FLOAT64, &p);
        add("random_bernoulli_f64", "1e6", time_result(reps, [&](ember_tensor_t** r) { ember_random_bernoulli(c, p, n6, 1, r); }));
        ember_tensor_release(p);
    }
    for (int64_t n : {10000, 1000000}) {
        const char* size = n == 10000 ? "1e4" : "1e6";
        if (np.count(std::string("random_permutation/") + size))
            add("random_permutation", size, time_result(reps, [&](ember_tensor_t** r) { ember_random_permutation(c, n, r); }));
    }
    if (np.count("random_categorical_f32/64x32000")) {
        ember_tensor_t* logits = random_tensor(c, {64, 32000}, -3, 3, 14);
        add("random_categorical_f32", "64x32000", time_result(reps, [&](ember_tensor_t** r) { ember_random_categorical(c, logits, 1, 1, r); }));
        ember_tensor_release(logits);
    }
    if (np.count("random_choice_10/1e6")) {
        ember_tensor_t* p = nullptr;
        const int64_t ten[1] = {10};
        ember_full(c, ten, 1, 0.1, EMBER_FLOAT64, &p);
        add("random_choice_10", "1e6", time_result(reps, [&](ember_tensor_t** r) { ember_random_categorical(c, p, 1000000, 0, r); }));
        ember_tensor_release(p);
    }
    if (np.count("randint_i64/1e6")) {
        add("randint_i64", "1e6", time_result(reps, [&](ember_tensor_t** r) { ember_random_randint(c, 0, 100, n6, 1, EMBER_INT64, r); }));
    }
    if (np.count("var_rows_f32/100000x100") || np.count("std_f32/1e7")) {
        ember_tensor_t *x = random_tensor(c, {100000, 100}, -1, 1, 12), *flat = random_tensor(c, {10000000}, -1, 1, 13);
        const int64_t last = -1;
        add("var_rows_f32", "100000x100", time_result(reps, [&](ember_tensor_t** r) { ember_var(c, x, &last, 1, 0, 0.0, r); }));
        add("std_f32", "1e7", time_result(reps, [&](ember_tensor_t** r) { ember_std(c, flat, nullptr, 0, 0, 0.0, r); }));
        for (ember_tensor_t* t : {x, flat}) ember_tensor_release(t);
    }
    if (np.count("nansum_f32/1e7") || np.count("nanmax_f32/1e7") || np.count("nanmean_rows_f32/100000x100")) {
        ember_tensor_t *x = random_tensor(c, {100000, 100}, -1, 1, 14), *flat = random_tensor(c, {10000000}, -1, 1, 15);
        const int64_t last = -1;
        add("nansum_f32", "1e7", time_result(reps, [&](ember_tensor_t** r) { ember_nansum(c, flat, nullptr, 0, 0, r); }));
        add("nanmax_f32", "1e7", time_result(reps, [&](ember_tensor_t** r) { ember_nanmax(c, flat, nullptr, 0, 0, r); }));
        add("nanmean_rows_f32", "100000x100", time_result(reps, [&](ember_tensor_t** r) { ember_nanmean(c, x, &last, 1, 0, r); }));
        for (ember_tensor_t* t : {x, flat}) ember_tensor_release(t);
    }
    if (np.count("histogram_f32/1e6") || np.count("bincount_i64/1e6") || np.count("cummax_f32/1e6")) {
        ember_tensor_t* x = random_tensor(c, {1000000}, -4, 4, 16);
        std::vector<int64_t> values(1000000);
        std::uniform_int_distribution<int64_t> u(0, 999);
        for (auto& v : values) v = u(rng);
        ember_tensor_t* ints = from_host(c, values.data(), EMBER_INT64, {(int64_t)values.size()});
        add("histogram_f32", "1e6", time_result(reps, [&](ember_tensor_t** r) { ember_histogram(c, x, 100, -4.0, 4.0, nullptr, r, nullptr); }));
        add("bincount_i64", "1e6", time_result(reps, [&](ember_tensor_t** r) { ember_bincount(c, ints, nullptr, 0, r); }));
        add("cummax_f32", "1e6", time_result(reps, [&](ember_tensor_t** r) { ember_cummax(c, x, 0, r); }));
        for (ember_tensor_t* t : {x, ints}) ember_tensor_release(t);
    }
    if (np.count("sort_f32_default/1e4") || np.count("argsort_f32/1e4")) {
        ember_tensor_t* x = random_tensor(c, {10000}, -1, 1, 16);
        add("sort_f32_default", "1e4", time_result(10 * reps, [&](ember_tensor_t** r) { ember_sort(c, x, 0, 0, r); }));
        add("argsort_f32", "1e4", time_result(10 * reps, [&](ember_tensor_t** r) { ember_argsort(c, x, 0, 0, r); }));
        ember_tensor_release(x);
    }
    if (np.count("sort_f32_default/1e6") || np.count("argsort_f32/1e6")) {
        ember_tensor_t* x = random_tensor(c, {1000000}, -1, 1, 10);
        add("sort_f32_default", "1e6", time_result(reps, [&](ember_tensor_t** r) { ember_sort(c, x, 0, 0, r); }));
        add("argsort_f32", "1e6", time_result(reps, [&](ember_tensor_t** r) { ember_argsort(c, x, 0, 0, r); }));
        ember_tensor_release(x);
    }
    if (np.count("sort_rows_bool/100000x10")) {
        ember_tensor_t *u = random_tensor(c, {100000, 10}, 0, 1, 59), *half = nullptr, *flags = nullptr;
        ember_scalar_f64(c, 0.5, &half);
        ember_less(c, u, half, &flags);
        add("sort_rows_bool", "100000x10", time_result(reps, [&](ember_tensor_t** r) { ember_sort(c, flags, 1, 0, r); }));
        for (ember_tensor_t* t : {u, half, flags}) ember_tensor_release(t);
    }
    if (np.count("sort_rows_f32/20000x100") || np.count("argsort_rows_f32/20000x100")) {
        ember_tensor_t* x = random_tensor(c, {20000, 100}, -1, 1, 12);
        add("sort_rows_f32", "20000x100", time_result(reps, [&](ember_tensor_t** r) { ember_sort(c, x, 1, 0, r); }));
        add("argsort_rows_f32", "20000x100", time_result(reps, [&](ember_tensor_t** r) { ember_argsort(c, x, 1, 0, r); }));
        ember_tensor_release(x);
    }
    if (np.count("argsort_rows_f64/20000x100")) {
        ember_tensor_t* x32 = random_tensor(c, {20000, 100}, -1, 1, 14), *x = nullptr;
        ember_astype(c, x32, EMBER_FLOAT64, &x);
        add("argsort_rows_f64", "20000x100", time_result(reps, [&](ember_tensor_t** r) { ember_argsort(c, x, 1, 0, r); }));
        ember_tensor_release(x);
        ember_tensor_release(x32);
    }
    if (np.count("sort_rows_f32/2000x1000")) {
        ember_tensor_t* x = random_tensor(c, {2000, 1000}, -1, 1, 13);
        add("sort_rows_f32", "2000x1000", time_result(reps, [&](ember_tensor_t** r) { ember_sort(c, x, 1, 0, r); }));
        ember_tensor_release(x);
    }
    if (np.count("argsort_rows_f32/200x10000")) {
        ember_tensor_t* x = random_tensor(c, {200, 10000}, -1, 1, 15);
        add("argsort_rows_f32", "200x10000", time_result(reps, [&](ember_tensor_t** r) { ember_argsort(c, x, 1, 0, r); }));
        ember_tensor_release(x);
    }
    if (np.count("sort_i32_default/1e6")) {
        std::vector<int32_t> v(1000000);
        std::mt19937 rng(11);
        for (auto& e : v) e = (int32_t)rng();
        const int64_t shape[1] = {1000000};
        ember_tensor_t* x = nullptr;
        ember_tensor_from_data(c, v.data(), EMBER_INT32, shape, 1, &x);
        add("sort_i32_default", "1e6", time_result(reps, [&](ember_tensor_t** r) { ember_sort(c, x, 0, 0, r); }));
        ember_tensor_release(x);
    }
    if (np.count("sort_i16_default/1e6") || np.count("sort_u8_default/1e6")) {
        std::vector<int16_t> v16(1000000);
        std::vector<uint8_t> v8(1000000);
        std::mt19937 rng(12);
        for (auto& e : v16) e = (int16_t)(rng() % 60000 - 30000);
        for (auto& e : v8) e = (uint8_t)rng();
        const int64_t shape[1] = {1000000};
        ember_tensor_t *x16 = nullptr, *x8 = nullptr;
        ember_tensor_from_data(c, v16.data(), EMBER_INT16, shape, 1, &x16);
        ember_tensor_from_data(c, v8.data(), EMBER_UINT8, shape, 1, &x8);
        add("sort_i16_default", "1e6", time_result(reps, [&](ember_tensor_t** r) { ember_sort(c, x16, 0, 0, r); }));
        add("sort_u8_default", "1e6", time_result(reps, [&](ember_tensor_t** r) { ember_sort(c, x8, 0, 0, r); }));
        for (ember_tensor_t* t : {x16, x8}) ember_tensor_release(t);
    }
    for (int64_t n : {10000, 1000000, 10000000}) {
        if (!np.count("sort_f64_default/" + size_name(n))) continue;
        ember_tensor_t *x32 = random_tensor(c, {n}, -1, 1, 15), *x = nullptr;
        ember_astype(c, x32, EMBER_FLOAT64, &x);
        add("sort_f64_default", size_name(n).c_str(), time_result(n > 1000000 ? std::min(reps, 5) : n < 1000000 ? 10 * reps : reps, [&](ember_tensor_t** r) { ember_sort(c, x, 0, 0, r); }));
        ember_tensor_release(x);
        ember_tensor_release(x32);
    }
    if (np.count("sort_f32/1e7") || np.count("sort_f32_default/1e7")) {
        ember_tensor_t* x = random_tensor(c, {10000000}, -1, 1, 10);
        const double t = time_result(std::min(reps, 5), [&](ember_tensor_t** r) { ember_sort(c, x, 0, 0, r); });
        add("sort_f32", "1e7", t);
        add("sort_f32_default", "1e7", t);  // the same stable sort, against NumPy's unstable default
        ember_tensor_release(x);
    }
    if (np.count("cumsum_axis0_f32/1000x10000")) {
        ember_tensor_t* x = random_tensor(c, {1000, 10000}, -1, 1, 9);
        add("cumsum_axis0_f32", "1000x10000", time_result(reps, [&](ember_tensor_t** r) { ember_cumsum(c, x, 0, r); }));
        ember_tensor_release(x);
    }
    if (np.count("argmax_rows_f32/1000x1000")) {
        ember_tensor_t* x = random_tensor(c, {1000, 1000}, -1, 1, 36);
        add("argmax_rows_f32", "1000x1000", time_result(reps, [&](ember_tensor_t** r) { ember_argmax(c, x, 1, 0, r); }));
        ember_tensor_release(x);
    }
    if (np.count("argmax_f32/1e7") || np.count("all_f32/1e7")) {
        ember_tensor_t* x = random_tensor(c, {10000000}, -1, 1, 11), *y = random_tensor(c, {10000000}, 0.5, 1, 12);
        add("argmax_f32", "1e7", time_result(reps, [&](ember_tensor_t** r) { ember_argmax(c, x, 0, 0, r); }));
        add("all_f32", "1e7", time_result(reps, [&](ember_tensor_t** r) { ember_all(c, y, nullptr, 0, 0, r); }));
        for (ember_tensor_t* t : {x, y}) ember_tensor_release(t);
    }
    if (np.count("exp_f16/1e6") || np.count("sin_f16/1e6") || np.count("abs_f16/1e6") || np.count("isnan_f16/1e6")) {
        ember_tensor_t* x32 = random_tensor(c, {1000000}, -3, 3, 13), *x = nullptr;
        ember_astype(c, x32, EMBER_FLOAT16, &x);
        add("exp_f16", "1e6", time_result(reps, [&](ember_tensor_t** r) { ember_exp(c, x, r); }));
        add("sin_f16", "1e6", time_result(reps, [&](ember_tensor_t** r) { ember_sin(c, x, r); }));
        add("abs_f16", "1e6", time_result(reps, [&](ember_tensor_t** r) { ember_abs(c, x, r); }));
        add("isnan_f16", "1e6", time_result(reps, [&](ember_tensor_t** r) { ember_isnan(c, x, r); }));
        for (ember_tensor_t* t : {x32, x}) ember_tensor_release(t);
    }
    if (np.count("dot_f32/1e6")) {
        ember_tensor_t* x = random_tensor(c, {1000000}, -1, 1, 14);
        add("dot_f32", "1e6", time_result(reps, [&](ember_tensor_t** r) { ember_matmul(c, x, x, r); }));
        ember_tensor_release(x);
    }
    if (np.count("add_transposed_f32/1000x1000") || np.count("add_transposed_f16/1000x1000")) {
        ember_tensor_t* x = random_tensor(c, {1000, 1000}, -1, 1, 15), *y = random_tensor(c, {1000, 1000}, -1, 1, 16), *xt = nullptr;
        ember_tensor_t *x16 = nullptr, *y16 = nullptr, *xt16 = nullptr;
        ember_matrix_transpose(c, x, &xt);
        ember_astype(c, x, EMBER_FLOAT16, &x16);
        ember_astype(c, y, EMBER_FLOAT16, &y16);
        ember_matrix_transpose(c, x16, &xt16);
        add("add_transposed_f32", "1000x1000", time_result(reps, [&](ember_tensor_t** r) { ember_add(c, xt, y, r); }));
        add("add_transposed_f16", "1000x1000", time_result(reps, [&](ember_tensor_t** r) { ember_add(c, xt16, y16, r); }));
        for (ember_tensor_t* t : {x, y, xt, x16, y16, xt16}) ember_tensor_release(t);
    }
    if (np.count("copy_transposed_f32/2048x2048") || np.count("astype_transposed_f32_f64/2048x2048") || np.count("roll_2d_f32/2048x2048") ||
        np.count("pad_reflect_f32/2048x2048") || np.count("tril_f32/2048x2048")) {
        ember_tensor_t *x = random_tensor(c, {2048, 2048}, -1, 1, 17), *xt = nullptr;
        ember_matrix_transpose(c, x, &xt);
        const int64_t shifts[2] = {5, -7}, axes[2] = {0, 1}, widths[4] = {64, 64, 64, 64};
        add("copy_transposed_f32", "2048x2048", time_result(reps, [&](ember_tensor_t** r) { ember_copy(c, xt, r); }));
        add("astype_transposed_f32_f64", "2048x2048", time_result(reps, [&](ember_tensor_t** r) { ember_astype(c, xt, EMBER_FLOAT64, r); }));
        add("roll_2d_f32", "2048x2048", time_result(reps, [&](ember_tensor_t** r) { ember_roll(c, x, shifts, axes, 2, r); }));
        add("pad_reflect_f32", "2048x2048", time_result(reps, [&](ember_tensor_t** r) { ember_pad(c, x, widths, EMBER_PAD_REFLECT, 0, r); }));
        add("tril_f32", "2048x2048", time_result(reps, [&](ember_tensor_t** r) { ember_tril(c, x, 0, r); }));
        for (ember_tensor_t* t : {x, xt}) ember_tensor_release(t);
    }
    if (np.count("roll_f32/1e7")) {
        ember_tensor_t* x = random_tensor(c, {10000000}, -1, 1, 18);
        const int64_t shift = 1000;
        add("roll_f32", "1e7", time_result(reps, [&](ember_tensor_t** r) { ember_roll(c, x, &shift, nullptr, 1, r); }));
        ember_tensor_release(x);
    }
    // Tall operands: x @ w (row blocks), x.T @ y and x.T @ x (the inner dimension split; NumPy
    // gives x.T @ x to SYRK, which computes one triangle).
    if (np.count("matmul_tall_f32/100000x64") || np.count("matmul_tn_f32/100000x64") || np.count("gram_f32/100000x64")) {
        ember_tensor_t *x = random_tensor(c, {100000, 64}, -1, 1, 26), *y = random_tensor(c, {100000, 64}, -1, 1, 27),
                       *w = random_tensor(c, {64, 64}, -1, 1, 28), *xt = nullptr;
        ember_matrix_transpose(c, x, &xt);
        if (np.count("matmul_tall_f32/100000x64"))
            add("matmul_tall_f32", "100000x64", time_result(reps, [&](ember_tensor_t** r) { ember_matmul(c, x, w, r); }));
        if (np.count("matmul_tn_f32/100000x64"))
            add("matmul_tn_f32", "100000x64", time_result(reps, [&](ember_tensor_t** r) { ember_matmul(c, xt, y, r); }));
        if (np.count("gram_f32/100000x64"))
            add("gram_f32", "100000x64", time_result(reps, [&](ember_tensor_t** r) { ember_matmul(c, xt, x, r); }));
        for (ember_tensor_t* t : {x, y, w, xt}) ember_tensor_release(t);
    }
    if (np.count("matvec_f32/1000x1000")) {
        ember_tensor_t *a = random_tensor(c, {1000000}, -1, 1, 61), *m = random_tensor(c, {1000, 1000}, -1, 1, 62), *x = random_tensor(c, {1000}, -1, 1, 63);
        add("matvec_f32", "1000x1000", time_result(reps, [&](ember_tensor_t** r) { ember_matmul(c, m, x, r); }));
        add("add_matvec_f32", "20x1e6", time_result(reps, [&](ember_tensor_t** r) {
                for (int i = 0; i < 20; ++i) {
                    ember_tensor_t *sum = nullptr, *y = nullptr;
                    ember_add(c, a, a, &sum);
                    ember_matmul(c, m, x, &y);
                    ember_tensor_release(sum);
                    ember_tensor_release(y);
                }
                *r = nullptr;
            }));
        for (ember_tensor_t* t : {a, m, x}) ember_tensor_release(t);
    }
    // Both forms of the matrix-vector product (the vector on the right and on the left), as
    // numpy_baseline.py lists them.
    for (auto [name, n, dt] : {std::tuple<const char*, int64_t, ember_dtype_t>{"matvec_f64", 1000, EMBER_FLOAT64}, {"matvec_f32", 4096, EMBER_FLOAT32},
                               {"vecmat_f32", 1000, EMBER_FLOAT32}, {"vecmat_f64", 1000, EMBER_FLOAT64}, {"vecmat_f32", 4096, EMBER_FLOAT32},
                               {"matvec_i32", 1000, EMBER_INT32}, {"vecmat_i8", 1000, EMBER_INT8}}) {
        const std::string size = std::to_string(n) + "x" + std::to_string(n);
        if (!np.count(std::string(name) + "/" + size)) continue;
        const double range = dt == EMBER_FLOAT32 || dt == EMBER_FLOAT64 ? 1 : 100;  // integers in [-100, 100)
        ember_tensor_t *m32 = random_tensor(c, {n, n}, -range, range, 64), *x32 = random_tensor(c, {n}, -range, range, 65), *m = nullptr, *x = nullptr;
        ember_astype(c, m32, dt, &m);
        ember_astype(c, x32, dt, &x);
        const bool left = name[0] == 'v';
        add(name, size.c_str(), time_result(reps, [&](ember_tensor_t** r) {
                if (left) ember_matmul(c, x, m, r);
                else ember_matmul(c, m, x, r);
            }));
        for (ember_tensor_t* t : {m32, x32, m, x}) ember_tensor_release(t);
    }
    for (int64_t k : {3, 8, 12}) {  // matvec_tall_f32: rows shorter than, as long as, longer than a vector
        const std::string size = "300000x" + std::to_string(k);
        if (!np.count("matvec_tall_f32/" + size)) continue;
        ember_tensor_t *m = random_tensor(c, {300000, k}, -1, 1, 66), *x = random_tensor(c, {k}, -1, 1, 67);
        add("matvec_tall_f32", size.c_str(), time_result(reps, [&](ember_tensor_t** r) { ember_matmul(c, m, x, r); }));
        for (ember_tensor_t* t : {m, x}) ember_tensor_release(t);
    }
    if (np.count("matmul_i32/512x512")) {
        ember_tensor_t* a32 = random_tensor(c, {512, 512}, -100, 100, 17), *a = nullptr;
        ember_astype(c, a32, EMBER_INT32, &a);
        add("matmul_i32", "512x512", time_result(std::min(reps, 5), [&](ember_tensor_t** r) { ember_matmul(c, a, a, r); }));
        for (ember_tensor_t* t : {a32, a}) ember_tensor_release(t);
    }
    if (np.count("matmul_i8/512x512")) {
        ember_tensor_t* a32 = random_tensor(c, {512, 512}, -100, 100, 18), *a = nullptr;
        ember_astype(c, a32, EMBER_INT8, &a);
        add("matmul_i8", "512x512", time_result(std::min(reps, 5), [&](ember_tensor_t** r) { ember_matmul(c, a, a, r); }));
        for (ember_tensor_t* t : {a32, a}) ember_tensor_release(t);
    }
    for (auto [bt, m, k] : std::vector<std::array<int64_t, 3>>{{1024, 16, 16}, {256, 16, 128}, {64, 256, 64}}) {
        const std::string size = std::to_string(bt) + "x" + std::to_string(m) + "x" + std::to_string(k);
        if (!np.count("matmul_batched_f32/" + size)) continue;
        ember_tensor_t *a = random_tensor(c, {bt, m, k}, -1, 1, 22), *b = random_tensor(c, {k, k}, -1, 1, 23);
        add("matmul_batched_f32", size.c_str(), time_result(reps, [&](ember_tensor_t** r) { ember_matmul(c, a, b, r); }));
        for (ember_tensor_t* t : {a, b}) ember_tensor_release(t);
    }
    for (auto [bt, n] : std::vector<std::array<int64_t, 2>>{{1, 1024}, {64, 32}, {1000, 8}}) {
        const std::string size = std::to_string(bt) + "x" + std::to_string(n);
        if (!np.count("matmul_stepped_f32/" + size)) continue;
        ember_tensor_t *a = random_tensor(c, {bt, 2 * n, 2 * n}, -1, 1, 31), *b = random_tensor(c, {bt, 2 * n, 2 * n}, -1, 1, 32), *as = nullptr, *bs = nullptr;
        const int64_t start[3] = {0, 0, 0}, stop[3] = {EMBER_SLICE_END, EMBER_SLICE_END, EMBER_SLICE_END}, step[3] = {1, 2, 2};
        ember_slice(c, a, start, stop, step, 3, &as);
        ember_slice(c, b, start, stop, step, 3, &bs);
        add("matmul_stepped_f32", size.c_str(), time_result(reps, [&](ember_tensor_t** r) { ember_matmul(c, as, bs, r); }));
        for (ember_tensor_t* t : {a, b, as, bs}) ember_tensor_release(t);
    }
    for (auto [bt, n] : std::vector<std::array<int64_t, 2>>{{1024, 16}, {100000, 3}}) {
        const std::string size = std::to_string(bt) + "x" + std::to_string(n);
        if (!np.count("matmul_stacked_f32/" + size)) continue;
        ember_tensor_t *a = random_tensor(c, {bt, n, n}, -1, 1, 29), *b = random_tensor(c, {bt, n, n}, -1, 1, 30);
        add("matmul_stacked_f32", size.c_str(), time_result(reps, [&](ember_tensor_t** r) { ember_matmul(c, a, b, r); }));
        for (ember_tensor_t* t : {a, b}) ember_tensor_release(t);
    }
    // complex64 with real and imaginary parts uniform(-1, 1)
    auto complex_tensor = [&](std::vector<int64_t> shape, unsigned seed) {
        ember_tensor_t *re = random_tensor(c, shape, -1, 1, seed), *im = random_tensor(c, shape, -1, 1, seed + 1), *i = nullptr, *z = nullptr,
                       *zre = nullptr, *zim = nullptr;
        ember_scalar_c128(c, 0, 1, &i);
        ember_astype(c, re, EMBER_COMPLEX64, &zre);
        ember_multiply(c, im, i, &zim);
        ember_add(c, zre, zim, &z);
        for (ember_tensor_t* t : {re, im, i, zre, zim}) ember_tensor_release(t);
        return z;
    };
    for (auto [bt, n] : std::vector<std::array<int64_t, 2>>{{1024, 16}, {100000, 3}}) {
        const std::string size = std::to_string(bt) + "x" + std::to_string(n);
        if (!np.count("matmul_stacked_c64/" + size)) continue;
        ember_tensor_t *a = complex_tensor({bt, n, n}, 31), *b = complex_tensor({bt, n, n}, 33);
        add("matmul_stacked_c64", size.c_str(), time_result(reps, [&](ember_tensor_t** r) { ember_matmul(c, a, b, r); }));
        for (ember_tensor_t* t : {a, b}) ember_tensor_release(t);
    }
    if (np.count("gram_c64/2000x300")) {  // complex SYRK, not conjugated (NumPy calls CSYRK)
        ember_tensor_t *x = complex_tensor({2000, 300}, 35), *xt = nullptr;
        ember_matrix_transpose(c, x, &xt);
        add("gram_c64", "2000x300", time_result(reps, [&](ember_tensor_t** r) { ember_matmul(c, xt, x, r); }));
        for (ember_tensor_t* t : {x, xt}) ember_tensor_release(t);
    }
    // bt float64 n x n matrices of uniform(-1, 1) values plus n I (diagonally dominant: well
    // conditioned, and positive definite as the lower triangle of a symmetric matrix).
    auto dominant_matrices = [&](int64_t bt, int64_t n) {
        std::mt19937 rng(24);
        std::uniform_real_distribution<double> u(-1, 1);
        std::vector<double> av((size_t)(bt * n * n));
        for (int64_t i = 0; i < bt * n * n; ++i) av[(size_t)i] = u(rng) + ((i % (n * n)) % (n + 1) == 0 ? (double)n : 0.0);
        const int64_t sa[3] = {bt, n, n};
        ember_tensor_t* a = nullptr;
        ember_tensor_from_data(c, av.data(), EMBER_FLOAT64, sa, 3, &a);
        return a;
    };
    for (auto [bt, n, k] : std::vector<std::array<int64_t, 3>>{{100000, 3, 1}, {4096, 8, 1}, {4096, 8, 8}, {512, 32, 32}}) {
        const std::string size = std::to_string(bt) + "x" + std::to_string(n) + "x" + std::to_string(k);
        if (!np.count("solve_batched_f64/" + size)) continue;
        ember_tensor_t *a = dominant_matrices(bt, n), *b32 = random_tensor(c, {bt, n, k}, -1, 1, 24), *b = nullptr;
        ember_astype(c, b32, EMBER_FLOAT64, &b);
        add("solve_batched_f64", size.c_str(), time_result(reps, [&](ember_tensor_t** r) { ember_solve(c, a, b, r); }));
        for (ember_tensor_t* t : {a, b32, b}) ember_tensor_release(t);
    }
    for (auto [name, bt, n] : std::vector<std::tuple<const char*, int64_t, int64_t>>{
             {"inv_batched_f64", 100000, 3}, {"det_batched_f64", 100000, 3}, {"slogdet_batched_f64", 100000, 3},
             {"cholesky_batched_f64", 100000, 3}, {"inv_batched_f64", 512, 32}, {"det_batched_f64", 512, 32}, {"cholesky_batched_f64", 512, 32}}) {
        const std::string op = name, size = std::to_string(bt) + "x" + std::to_string(n);
        if (!np.count(op + "/" + size)) continue;
        ember_tensor_t* a = dominant_matrices(bt, n);
        add(name, size.c_str(), time_result(reps, [&](ember_tensor_t** r) {
            if (op == "inv_batched_f64") ember_inv(c, a, r);
            else if (op == "det_batched_f64") ember_det(c, a, r);
            else if (op == "slogdet_batched_f64") {
                ember_tensor_t* logabsdet = nullptr;  // both outputs, as NumPy returns them
                ember_slogdet(c, a, r, &logabsdet);
                ember_tensor_release(logabsdet);
            }
            else ember_cholesky(c, a, 0, r);
        }));
        ember_tensor_release(a);
    }
    for (auto [name, bt, n] : std::vector<std::tuple<const char*, int64_t, int64_t>>{
             {"svd_batched_f64", 1024, 16}, {"qr_batched_f64", 1024, 16}, {"eig_batched_f64", 256, 32},
             {"svd_batched_f64", 100000, 3}, {"eigh_batched_f64", 100000, 3}, {"qr_batched_f64", 100000, 3}}) {
        const std::string op = name, size = std::to_string(bt) + "x" + std::to_string(n);
        if (!np.count(op + "/" + size)) continue;
        ember_tensor_t *a32 = random_tensor(c, {bt, n, n}, -1, 1, 25), *a = nullptr;
        ember_astype(c, a32, EMBER_FLOAT64, &a);
        add(name, size.c_str(), time_result(reps, [&](ember_tensor_t** r) {
            ember_tensor_t *x = nullptr, *y = nullptr;  // every output, as NumPy returns them
            if (op == "svd_batched_f64") ember_svd(c, a, 0, r, &x, &y);
            else if (op == "qr_batched_f64") ember_qr(c, a, EMBER_QR_REDUCED, r, &x);
            else if (op == "eigh_batched_f64") ember_eigh(c, a, 0, r, &x);  // the lower triangle, as NumPy
            else ember_eig(c, a, r, &x);
            ember_tensor_release(x);
            ember_tensor_release(y);
        }));
        for (ember_tensor_t* t : {a32, a}) ember_tensor_release(t);
    }
    if (np.count("sum_bool/1e7")) {
        ember_tensor_t* x = random_tensor(c, {10000000}, -1, 1, 18), *zero = nullptr, *b = nullptr;
        ember_full(c, nullptr, 0, 0, EMBER_FLOAT32, &zero);
        ember_greater(c, x, zero, &b);
        add("sum_bool", "1e7", time_result(reps, [&](ember_tensor_t** r) { ember_sum(c, b, nullptr, 0, 0, r); }));
        for (ember_tensor_t* t : {x, zero, b}) ember_tensor_release(t);
    }
    if (np.count("all_axis0_f32/1000x1000") || np.count("any_axis1_bool/1000x1000") || np.count("all_axis0_bool/1000x1000") || np.count("equal_bool/1e6") ||
        np.count("argmax_bool/1e6")) {  // values uniform(0, 1); bools: value > 0.5
        ember_tensor_t *x = random_tensor(c, {1000, 1000}, 0, 1, 23), *half = nullptr, *b = nullptr, *flat = nullptr, *y = nullptr, *yb = nullptr;
        const int64_t axis0 = 0, axis1 = 1, n6[1] = {1000000};
        ember_full(c, nullptr, 0, 0.5, EMBER_FLOAT32, &half);
        ember_greater(c, x, half, &b);
        ember_reshape(c, b, n6, 1, &flat);
        y = random_tensor(c, {1000000}, 0, 1, 24);
        ember_greater(c, y, half, &yb);
        add("all_axis0_f32", "1000x1000", time_result(reps, [&](ember_tensor_t** r) { ember_all(c, x, &axis0, 1, 0, r); }));
        add("any_axis1_bool", "1000x1000", time_result(reps, [&](ember_tensor_t** r) { ember_any(c, b, &axis1, 1, 0, r); }));
        add("all_axis0_bool", "1000x1000", time_result(reps, [&](ember_tensor_t** r) { ember_all(c, b, &axis0, 1, 0, r); }));
        add("equal_bool", "1e6", time_result(reps, [&](ember_tensor_t** r) { ember_equal(c, flat, yb, r); }));
        add("argmax_bool", "1e6", time_result(reps, [&](ember_tensor_t** r) { ember_argmax(c, flat, 0, 0, r); }));
        for (ember_tensor_t* t : {x, half, b, flat, y, yb}) ember_tensor_release(t);
    }
    if (np.count("less_f32/1e6") || np.count("where_f32/1e6")) {  // a, b uniform(-1, 1); condition a < b
        ember_tensor_t *a = random_tensor(c, {1000000}, -1, 1, 40), *b = random_tensor(c, {1000000}, -1, 1, 41), *cond = nullptr;
        ember_less(c, a, b, &cond);
        add("less_f32", "1e6", time_result(reps, [&](ember_tensor_t** r) { ember_less(c, a, b, r); }));
        add("where_f32", "1e6", time_result(reps, [&](ember_tensor_t** r) { ember_where(c, cond, a, b, r); }));
        for (ember_tensor_t* t : {a, b, cond}) ember_tensor_release(t);
    }
    if (np.count("max_f16/1000x1000") || np.count("argmax_axis1_f16/1000x1000")) {  // uniform(-1, 1) as float16
        ember_tensor_t *x = random_tensor(c, {1000, 1000}, -1, 1, 27), *h = nullptr;
        ember_astype(c, x, EMBER_FLOAT16, &h);
        add("max_f16", "1000x1000", time_result(reps, [&](ember_tensor_t** r) { ember_max(c, h, nullptr, 0, 0, r); }));
        add("argmax_axis1_f16", "1000x1000", time_result(reps, [&](ember_tensor_t** r) { ember_argmax(c, h, 1, 0, r); }));
        for (ember_tensor_t* t : {x, h}) ember_tensor_release(t);
    }
    if (np.count("remainder_f32/1e6") || np.count("floor_divide_f16/1e6") || np.count("remainder_f64/1e6")) {  // a, b uniform(0.5, 2)
        ember_tensor_t *a = random_tensor(c, {1000000}, 0.5, 2, 28), *b = random_tensor(c, {1000000}, 0.5, 2, 29), *a16 = nullptr, *b16 = nullptr;
        ember_tensor_t *a64 = nullptr, *b64 = nullptr;
        ember_astype(c, a, EMBER_FLOAT16, &a16);
        ember_astype(c, b, EMBER_FLOAT16, &b16);
        ember_astype(c, a, EMBER_FLOAT64, &a64);
        ember_astype(c, b, EMBER_FLOAT64, &b64);
        add("remainder_f32", "1e6", time_result(reps, [&](ember_tensor_t** r) { ember_remainder(c, a, b, r); }));
        add("floor_divide_f16", "1e6", time_result(reps, [&](ember_tensor_t** r) { ember_floor_divide(c, a16, b16, r); }));
        add("remainder_f64", "1e6", time_result(reps, [&](ember_tensor_t** r) { ember_remainder(c, a64, b64, r); }));
        for (ember_tensor_t* t : {a, b, a16, b16, a64, b64}) ember_tensor_release(t);
    }
    if (np.count("floor_divide_i32/1e6") || np.count("remainder_i64/1e6") || np.count("floor_divide_scalar_i32/1e6") || np.count("pow_i32/1e6") ||
        np.count("cumsum_i64/1e6") || np.count("floor_divide_i8/1e6") || np.count("floor_divide_scalar_i64/1e6") ||
        np.count("floor_divide_scalar_i8/1e6") || np.count("remainder_scalar_u16/1e6") || np.count("left_shift_i8/1e6") ||
        np.count("right_shift_u16/1e6") || np.count("floor_divide_scalar_i16/1e6")) {
        // dividends integers in [-100, 100), divisors in [1, 7)
        auto integers = [&](double lo, double hi, ember_dtype_t dt, unsigned seed) {
            ember_tensor_t *u = random_tensor(c, {1000000}, lo, hi, seed), *f = nullptr, *i = nullptr;
            ember_floor(c, u, &f);
            ember_astype(c, f, dt, &i);
            for (ember_tensor_t* t : {u, f}) ember_tensor_release(t);
            return i;
        };
        ember_tensor_t *a = integers(-100, 100, EMBER_INT32, 25), *b = integers(1, 7, EMBER_INT32, 26), *a64 = nullptr, *b64 = nullptr, *seven = nullptr;
        ember_tensor_t *a8 = nullptr, *b8 = nullptr, *seven64 = nullptr, *seven8 = nullptr, *u16 = nullptr, *seven16 = nullptr, *a_plus = nullptr;
        ember_tensor_t *hundred = nullptr, *b16 = nullptr;
        ember_full(c, nullptr, 0, 100, EMBER_INT32, &hundred);
        ember_astype(c, b, EMBER_UINT16, &b16);
        ember_add(c, a, hundred, &a_plus);
        ember_astype(c, a_plus, EMBER_UINT16, &u16);
        ember_full(c, nullptr, 0, 7, EMBER_INT8, &seven8);
        ember_full(c, nullptr, 0, 7, EMBER_UINT16, &seven16);
        ember_astype(c, a, EMBER_INT64, &a64);
        ember_astype(c, b, EMBER_INT64, &b64);
        ember_astype(c, a, EMBER_INT8, &a8);
        ember_astype(c, b, EMBER_INT8, &b8);
        ember_full(c, nullptr, 0, 7, EMBER_INT32, &seven);
        ember_full(c, nullptr, 0, 7, EMBER_INT64, &seven64);
        add("floor_divide_i32", "1e6", time_result(reps, [&](ember_tensor_t** r) { ember_floor_divide(c, a, b, r); }));
        add("remainder_i64", "1e6", time_result(reps, [&](ember_tensor_t** r) { ember_remainder(c, a64, b64, r); }));
        add("floor_divide_scalar_i32", "1e6", time_result(reps, [&](ember_tensor_t** r) { ember_floor_divide(c, a, seven, r); }));
        add("pow_i32", "1e6", time_result(reps, [&](ember_tensor_t** r) { ember_pow(c, a, b, r); }));
        add("cumsum_i64", "1e6", time_result(reps, [&](ember_tensor_t** r) { ember_cumsum(c, a64, 0, r); }));
        add("floor_divide_i8", "1e6", time_result(reps, [&](ember_tensor_t** r) { ember_floor_divide(c, a8, b8, r); }));
        add("floor_divide_scalar_i64", "1e6", time_result(reps, [&](ember_tensor_t** r) { ember_floor_divide(c, a64, seven64, r); }));
        add("floor_divide_scalar_i8", "1e6", time_result(reps, [&](ember_tensor_t** r) { ember_floor_divide(c, a8, seven8, r); }));
        add("remainder_scalar_u16", "1e6", time_result(reps, [&](ember_tensor_t** r) { ember_remainder(c, u16, seven16, r); }));
        ember_tensor_t *a16 = nullptr, *seven_i16 = nullptr;
        ember_astype(c, a, EMBER_INT16, &a16);
        ember_full(c, nullptr, 0, 7, EMBER_INT16, &seven_i16);
        add("floor_divide_scalar_i16", "1e6", time_result(reps, [&](ember_tensor_t** r) { ember_floor_divide(c, a16, seven_i16, r); }));
        for (ember_tensor_t* t : {a16, seven_i16}) ember_tensor_release(t);
        add("left_shift_i8", "1e6", time_result(reps, [&](ember_tensor_t** r) { ember_bitwise_left_shift(c, a8, b8, r); }));
        add("right_shift_u16", "1e6", time_result(reps, [&](ember_tensor_t** r) { ember_bitwise_right_shift(c, u16, b16, r); }));
        for (ember_tensor_t* t : {a, b, a64, b64, seven, a8, b8, seven64, seven8, u16, seven16, a_plus, hundred, b16}) ember_tensor_release(t);
    }
    if (np.count("cumsum_axis0_narrow_f16/100000x10") || np.count("max_rows_narrow_f16/100000x10") ||
        np.count("argmax_axis0_narrow_f16/100000x10")) {  // uniform(-1, 1) as float16
        ember_tensor_t *x32 = random_tensor(c, {100000, 10}, -1, 1, 39), *h = nullptr;
        ember_astype(c, x32, EMBER_FLOAT16, &h);
        const int64_t axis1 = 1;
        add("cumsum_axis0_narrow_f16", "100000x10", time_result(reps, [&](ember_tensor_t** r) { ember_cumsum(c, h, 0, r); }));
        add("max_rows_narrow_f16", "100000x10", time_result(reps, [&](ember_tensor_t** r) { ember_max(c, h, &axis1, 1, 0, r); }));
        add("argmax_axis0_narrow_f16", "100000x10", time_result(reps, [&](ember_tensor_t** r) { ember_argmax(c, h, 0, 0, r); }));
        for (ember_tensor_t* t : {x32, h}) ember_tensor_release(t);
    }
    if (np.count("cumsum_axis0_narrow_f64/100000x10")) {  // uniform(-1, 1) as float64
        ember_tensor_t *x32 = random_tensor(c, {100000, 10}, -1, 1, 38), *x = nullptr;
        ember_astype(c, x32, EMBER_FLOAT64, &x);
        add("cumsum_axis0_narrow_f64", "100000x10", time_result(reps, [&](ember_tensor_t** r) { ember_cumsum(c, x, 0, r); }));
        for (ember_tensor_t* t : {x32, x}) ember_tensor_release(t);
    }
    if (np.count("cumsum_f32/1e7")) {  // one long line: sequential, asked for ahead (scan.cpp)
        ember_tensor_t* x = random_tensor(c, {10000000}, -1, 1, 39);
        add("cumsum_f32", "1e7", time_result(reps, [&](ember_tensor_t** r) { ember_cumsum(c, x, 0, r); }));
        ember_tensor_release(x);
    }
    if (np.count("count_nonzero_f32/1e7")) {
        ember_tensor_t* x = random_tensor(c, {10000000}, -1, 1, 19), *zero = nullptr, *y = nullptr;
        ember_full(c, nullptr, 0, 0, EMBER_FLOAT32, &zero);
        ember_maximum(c, x, zero, &y);
        add("count_nonzero_f32", "1e7", time_result(reps, [&](ember_tensor_t** r) { ember_count_nonzero(c, y, nullptr, 0, 0, r); }));
        for (ember_tensor_t* t : {x, zero, y}) ember_tensor_release(t);
    }
    if (np.count("astype_f64_f16/1e6") || np.count("astype_f16_f64/1e6")) {
        ember_tensor_t *x32 = random_tensor(c, {1000000}, -1000, 1000, 19), *x = nullptr, *h = nullptr;
        ember_astype(c, x32, EMBER_FLOAT64, &x);
        ember_astype(c, x32, EMBER_FLOAT16, &h);
        add("astype_f64_f16", "1e6", time_result(reps, [&](ember_tensor_t** r) { ember_astype(c, x, EMBER_FLOAT16, r); }));
        add("astype_f16_f64", "1e6", time_result(reps, [&](ember_tensor_t** r) { ember_astype(c, h, EMBER_FLOAT64, r); }));
        for (ember_tensor_t* t : {x32, x, h}) ember_tensor_release(t);
    }
    if (np.count("astype_f32_f16/1e6") || np.count("astype_f16_f32/1e6")) {
        ember_tensor_t *x = random_tensor(c, {1000000}, -1000, 1000, 19), *h = nullptr;
        ember_astype(c, x, EMBER_FLOAT16, &h);
        add("astype_f32_f16", "1e6", time_result(reps, [&](ember_tensor_t** r) { ember_astype(c, x, EMBER_FLOAT16, r); }));
        add("astype_f16_f32", "1e6", time_result(reps, [&](ember_tensor_t** r) { ember_astype(c, h, EMBER_FLOAT32, r); }));
        for (ember_tensor_t* t : {x, h}) ember_tensor_release(t);
    }
    if (np.count("astype_stepped_f32_f16/1e6")) {  // x[::2] of 2e6 values
        ember_tensor_t *x = random_tensor(c, {2000000}, -1000, 1000, 37), *xs = nullptr;
        const int64_t from[1] = {0}, to[1] = {2000000}, step[1] = {2};
        ember_slice(c, x, from, to, step, 1, &xs);
        add("astype_stepped_f32_f16", "1e6", time_result(reps, [&](ember_tensor_t** r) { ember_astype(c, xs, EMBER_FLOAT16, r); }));
        for (ember_tensor_t* t : {x, xs}) ember_tensor_release(t);
    }
    if (np.count("astype_f32_u8/1e7")) {
        ember_tensor_t* x = random_tensor(c, {10000000}, 0, 255, 20);
        add("astype_f32_u8", "1e7", time_result(reps, [&](ember_tensor_t** r) { ember_astype(c, x, EMBER_UINT8, r); }));
        ember_tensor_release(x);
    }
    if (np.count("pow2_f32/1e7") || np.count("norm_f32/1e7")) {
        ember_tensor_t* x = random_tensor(c, {10000000}, -1, 1, 21), *two = nullptr;
        ember_tensor_from_f64(c, 2.0, EMBER_FLOAT32, &two);
        add("pow2_f32", "1e7", time_result(reps, [&](ember_tensor_t** r) { ember_pow(c, x, two, r); }));
        add("norm_f32", "1e7", time_result(reps, [&](ember_tensor_t** r) { ember_vector_norm(c, x, 2, nullptr, 0, 0, r); }));
        for (ember_tensor_t* t : {x, two}) ember_tensor_release(t);
    }
    if (np.count("iadd_f32/1e7")) {
        ember_tensor_t* x = random_tensor(c, {10000000}, -1, 1, 23), *y = random_tensor(c, {10000000}, -1, 1, 24);
        const ember_tensor_t* xy[2] = {x, y};
        add("iadd_f32", "1e7", bench::best_of(reps, [&] { ember_elementwise_into(c, "add", xy, 2, x); }));
        for (ember_tensor_t* t : {x, y}) ember_tensor_release(t);
    }
    if (np.count("floor_f32/1e7") || np.count("isnan_f32/1e7")) {
        ember_tensor_t* x = random_tensor(c, {10000000}, -100, 100, 25);
        add("floor_f32", "1e7", time_result(reps, [&](ember_tensor_t** r) { ember_floor(c, x, r); }));
        add("isnan_f32", "1e7", time_result(reps, [&](ember_tensor_t** r) { ember_isnan(c, x, r); }));
        ember_tensor_release(x);
    }
    if (np.count("round_i32/1e7") || np.count("isnan_i32/1e7")) {
        ember_tensor_t *x = random_tensor(c, {10000000}, -100, 100, 25), *xi = nullptr;
        ember_astype(c, x, EMBER_INT32, &xi);
        add("round_i32", "1e7", time_result(reps, [&](ember_tensor_t** r) { ember_round(c, xi, r); }));
        add("isnan_i32", "1e7", time_result(reps, [&](ember_tensor_t** r) { ember_isnan(c, xi, r); }));
        for (ember_tensor_t* t : {x, xi}) ember_tensor_release(t);
    }
    if (np.count("mean_i32/1e7") || np.count("var_i32/1e7") || np.count("mean_i64/1e7") || np.count("var_i64/1e7") ||
        np.count("mean_u8/1e7")) {  // integer means exact in int64, variances in float64 (numerics-stats.md)
        ember_tensor_t *x = random_tensor(c, {10000000}, -1e6, 1e6, 27), *bytes = random_tensor(c, {10000000}, 0, 255.99, 28);
        ember_tensor_t *i32 = nullptr, *i64 = nullptr, *u8 = nullptr;
        ember_astype(c, x, EMBER_INT32, &i32);
        ember_astype(c, x, EMBER_INT64, &i64);
        ember_astype(c, bytes, EMBER_UINT8, &u8);
        add("mean_i32", "1e7", time_result(reps, [&](ember_tensor_t** r) { ember_mean(c, i32, nullptr, 0, 0, r); }));
        add("var_i32", "1e7", time_result(reps, [&](ember_tensor_t** r) { ember_var(c, i32, nullptr, 0, 0, 0, r); }));
        add("mean_i64", "1e7", time_result(reps, [&](ember_tensor_t** r) { ember_mean(c, i64, nullptr, 0, 0, r); }));
        add("var_i64", "1e7", time_result(reps, [&](ember_tensor_t** r) { ember_var(c, i64, nullptr, 0, 0, 0, r); }));
        add("mean_u8", "1e7", time_result(reps, [&](ember_tensor_t** r) { ember_mean(c, u8, nullptr, 0, 0, r); }));
        for (ember_tensor_t* t : {x, bytes, i32, i64, u8}) ember_tensor_release(t);
    }
    if (np.count("add_stepped_f32/1e7")) {
        ember_tensor_t *x = random_tensor(c, {20000000}, -1, 1, 26), *even = nullptr, *odd = nullptr;
        const int64_t zero = 0, one = 1, end = 20000000, two = 2;
        ember_slice(c, x, &zero, &end, &two, 1, &even);
        ember_slice(c, x, &one, &end, &two, 1, &odd);
        add("add_stepped_f32", "1e7", time_result(reps, [&](ember_tensor_t** r) { ember_add(c, even, odd, r); }));
        for (ember_tensor_t* t : {x, even, odd}) ember_tensor_release(t);
    }
    if (np.count("add_reversed_f32/1e7")) {
        ember_tensor_t *x = random_tensor(c, {10000000}, -1, 1, 27), *y = random_tensor(c, {10000000}, -1, 1, 28), *xr = nullptr;
        const int64_t axis = 0;
        ember_flip(c, x, &axis, 1, &xr);
        add("add_reversed_f32", "1e7", time_result(reps, [&](ember_tensor_t** r) { ember_add(c, xr, y, r); }));
        for (ember_tensor_t* t : {x, y, xr}) ember_tensor_release(t);
    }
    if (np.count("nonzero_1d_bool/1e7") || np.count("count_nonzero_bool/1e7")) {
        ember_tensor_t *x = random_tensor(c, {10000000}, -1, 1, 29), *zero = nullptr, *b = nullptr;
        ember_full(c, nullptr, 0, 0, EMBER_FLOAT32, &zero);
        ember_greater(c, x, zero, &b);
        add("nonzero_1d_bool", "1e7", time_result(reps, [&](ember_tensor_t** r) { ember_nonzero(c, b, r); }));
        add("count_nonzero_bool", "1e7", time_result(reps, [&](ember_tensor_t** r) { ember_count_nonzero(c, b, nullptr, 0, 0, r); }));
        for (ember_tensor_t* t : {x, zero, b}) ember_tensor_release(t);
    }
    if (np.count("clip_f32/1e7")) {
        ember_tensor_t *x = random_tensor(c, {10000000}, -1, 1, 30), *lo = nullptr, *hi = nullptr;
        ember_scalar_f64(c, -0.5, &lo);  // Python floats, as np.clip(x, -0.5, 0.5) gets them
        ember_scalar_f64(c, 0.5, &hi);
        add("clip_f32", "1e7", time_result(reps, [&](ember_tensor_t** r) { ember_clip(c, x, lo, hi, r); }));
        for (ember_tensor_t* t : {x, lo, hi}) ember_tensor_release(t);
    }
    if (np.count("leaky_relu_f32/1e7")) {
        ember_tensor_t* x = random_tensor(c, {10000000}, -1, 1, 32);
        add("leaky_relu_f32", "1e7", time_result(reps, [&](ember_tensor_t** r) { ember_leaky_relu(c, x, 0.01, r); }));
        ember_tensor_release(x);
    }
    if (np.count("logsumexp_rows_f32/4096x4096") || np.count("logsumexp_cols_f32/4096x4096")) {
        ember_tensor_t* x = random_tensor(c, {4096, 4096}, -5, 5, 33);
        const int64_t axis0 = 0, axis1 = 1;
        add("logsumexp_rows_f32", "4096x4096", time_result(opt.quick ? 3 : 7, [&](ember_tensor_t** r) { ember_logsumexp(c, x, &axis1, 1, 0, r); }));
        add("logsumexp_cols_f32", "4096x4096", time_result(opt.quick ? 3 : 7, [&](ember_tensor_t** r) { ember_logsumexp(c, x, &axis0, 1, 0, r); }));
        ember_tensor_release(x);
    }
    if (np.count("logsumexp_f32/1e7")) {
        ember_tensor_t* x = random_tensor(c, {10000000}, -5, 5, 34);
        add("logsumexp_f32", "1e7", time_result(reps, [&](ember_tensor_t** r) { ember_logsumexp(c, x, nullptr, 0, 0, r); }));
        ember_tensor_release(x);
    }
    if (np.count("pow_half_f32/1e6")) {  // x ** 0.5 of values in [-1, 1): half of them NaN
        ember_tensor_t *x = random_tensor(c, {1000000}, -1, 1, 32), *e = nullptr;
        ember_scalar_f64(c, 0.5, &e);
        add("pow_half_f32", "1e6", time_result(reps, [&](ember_tensor_t** r) { ember_pow(c, x, e, r); }));
        for (ember_tensor_t* t : {x, e}) ember_tensor_release(t);
    }
    if (np.count("pow_f32/1e7")) {
        ember_tensor_t *x = random_tensor(c, {10000000}, 0.1, 2, 31), *e = nullptr;
        ember_scalar_f64(c, 1.5, &e);
        add("pow_f32", "1e7", time_result(reps, [&](ember_tensor_t** r) { ember_pow(c, x, e, r); }));
        for (ember_tensor_t* t : {x, e}) ember_tensor_release(t);
    }
    if (np.count("pow_f32/32768")) {
        ember_tensor_t *x = random_tensor(c, {32768}, 0.1, 2, 33), *e = nullptr;
        ember_scalar_f64(c, 1.5, &e);
        add("pow_f32", "32768", time_result(reps, [&](ember_tensor_t** r) { ember_pow(c, x, e, r); }));
        for (ember_tensor_t* t : {x, e}) ember_tensor_release(t);
    }
    if (np.count("logaddexp_logspace_f64/1e6")) {
        ember_tensor_t *a32 = random_tensor(c, {1000000}, -800, 0, 34), *b32 = random_tensor(c, {1000000}, -800, 0, 35), *a = nullptr, *b = nullptr;
        ember_astype(c, a32, EMBER_FLOAT64, &a);
        ember_astype(c, b32, EMBER_FLOAT64, &b);
        add("logaddexp_logspace_f64", "1e6", time_result(reps, [&](ember_tensor_t** r) { ember_logaddexp(c, a, b, r); }));
        for (ember_tensor_t* t : {a32, b32, a, b}) ember_tensor_release(t);
    }
    if (np.count("softplus_wide_f32/1e6")) {
        ember_tensor_t* x = random_tensor(c, {1000000}, -100, 100, 36);
        add("softplus_wide_f32", "1e6", time_result(reps, [&](ember_tensor_t** r) { ember_softplus(c, x, r); }));
        ember_tensor_release(x);
    }
    if (np.count("take_small_table_f32/131072")) {
        ember_tensor_t* x = random_tensor(c, {1000}, -1, 1, 37);
        std::vector<int64_t> idx(131072);
        for (auto& i : idx) i = (int64_t)(rng() % 1000);
        ember_tensor_t* ix = from_host(c, idx.data(), EMBER_INT64, {(int64_t)idx.size()});
        add("take_small_table_f32", "131072", time_result(reps, [&](ember_tensor_t** r) { ember_take(c, x, ix, 0, r); }));
        ember_tensor_release(ix);
        ember_tensor_release(x);
    }
    if (np.count("sort_rows10_f32/1e5x10") || np.count("argsort_rows10_f32/1e5x10")) {
        ember_tensor_t* x = random_tensor(c, {100000, 10}, -1, 1, 39);
        add("sort_rows10_f32", "1e5x10", time_result(reps, [&](ember_tensor_t** r) { ember_sort(c, x, 1, 0, r); }));
        add("argsort_rows10_f32", "1e5x10", time_result(reps, [&](ember_tensor_t** r) { ember_argsort(c, x, 1, 0, r); }));
        ember_tensor_release(x);
    }
    if (np.count("sort_rows12_f64/1e5x12") || np.count("argsort_rows12_f64/1e5x12")) {
        ember_tensor_t *x32 = random_tensor(c, {100000, 12}, -1, 1, 40), *x = nullptr;
        ember_astype(c, x32, EMBER_FLOAT64, &x);
        add("sort_rows12_f64", "1e5x12", time_result(reps, [&](ember_tensor_t** r) { ember_sort(c, x, 1, 0, r); }));
        add("argsort_rows12_f64", "1e5x12", time_result(reps, [&](ember_tensor_t** r) { ember_argsort(c, x, 1, 0, r); }));
        ember_tensor_release(x);
        ember_tensor_release(x32);
    }
    if (np.count("sum_axis0_mid_f32/256x1024")) {
        ember_tensor_t* x = random_tensor(c, {256, 1024}, -1, 1, 38);
        const int64_t axis0 = 0;
        add("sum_axis0_mid_f32", "256x1024", time_result(reps, [&](ember_tensor_t** r) { ember_sum(c, x, &axis0, 1, 0, r); }));
        ember_tensor_release(x);
    }
    if (np.count("argmax_rows_f32/2000x5000") || np.count("sum_axis0_f32/2000x5000")) {
        ember_tensor_t* x = random_tensor(c, {2000, 5000}, -1, 1, 22);
        const int64_t axis0 = 0;
        add("argmax_rows_f32", "2000x5000", time_result(reps, [&](ember_tensor_t** r) { ember_argmax(c, x, 1, 0, r); }));
        add("sum_axis0_f32", "2000x5000", time_result(reps, [&](ember_tensor_t** r) { ember_sum(c, x, &axis0, 1, 0, r); }));
        ember_tensor_release(x);
    }
    if (np.count("sum_axis0_stepped_f32/2000x5000") || np.count("argmin_axis0_stepped_f32/2000x5000")) {
        ember_tensor_t *x = random_tensor(c, {2000, 10000}, -1, 1, 24), *stepped = nullptr;
        const int64_t axis0 = 0, start[2] = {0, 0}, stop[2] = {EMBER_SLICE_END, EMBER_SLICE_END}, step[2] = {1, 2};
        ember_slice(c, x, start, stop, step, 2, &stepped);
        add("sum_axis0_stepped_f32", "2000x5000", time_result(reps, [&](ember_tensor_t** r) { ember_sum(c, stepped, &axis0, 1, 0, r); }));
        add("argmin_axis0_stepped_f32", "2000x5000", time_result(reps, [&](ember_tensor_t** r) { ember_argmin(c, stepped, 0, 0, r); }));
        for (ember_tensor_t* t : {x, stepped}) ember_tensor_release(t);
    }
    if (np.count("sum_reversed_f32/1e7") || np.count("max_reversed_f32/1e7") || np.count("argmax_stepped_f32/1e7")) {
        ember_tensor_t *x = random_tensor(c, {20000000}, -1, 1, 25), *half = nullptr, *reversed = nullptr, *stepped = nullptr;
        const int64_t axis0 = 0, start = 0, stop = 10000000, one = 1, end = EMBER_SLICE_END, two = 2;
        ember_slice(c, x, &start, &stop, &one, 1, &half);
        ember_flip(c, half, &axis0, 1, &reversed);
        ember_slice(c, x, &start, &end, &two, 1, &stepped);
        add("sum_reversed_f32", "1e7", time_result(reps, [&](ember_tensor_t** r) { ember_sum(c, reversed, nullptr, 0, 0, r); }));
        add("max_reversed_f32", "1e7", time_result(reps, [&](ember_tensor_t** r) { ember_max(c, reversed, nullptr, 0, 0, r); }));
        add("argmax_stepped_f32", "1e7", time_result(reps, [&](ember_tensor_t** r) { ember_argmax(c, stepped, 0, 0, r); }));
        for (ember_tensor_t* t : {x, half, reversed, stepped}) ember_tensor_release(t);
    }
    if (np.count("sum_axis0_short_f32/4x262144") || np.count("sum_axis0_short_i32/4x262144")) {
        ember_tensor_t *x = random_tensor(c, {4, 262144}, -1, 1, 23), *xi = nullptr, *scaled = nullptr, *k = nullptr;
        ember_scalar_f64(c, 100, &k);
        ember_multiply(c, x, k, &scaled);
        ember_astype(c, scaled, EMBER_INT32, &xi);
        const int64_t axis0 = 0;
        add("sum_axis0_short_f32", "4x262144", time_result(reps, [&](ember_tensor_t** r) { ember_sum(c, x, &axis0, 1, 0, r); }));
        add("sum_axis0_short_i32", "4x262144", time_result(reps, [&](ember_tensor_t** r) { ember_sum(c, xi, &axis0, 1, 0, r); }));
        for (ember_tensor_t* t : {x, xi, scaled, k}) ember_tensor_release(t);
    }
    if (np.count("sum_u8/1e6")) {  // the sum of an image's bytes
        ember_tensor_t *x = random_tensor(c, {1000000}, 0, 255.99, 52), *x8 = nullptr;
        ember_astype(c, x, EMBER_UINT8, &x8);
        add("sum_u8", "1e6", time_result(reps, [&](ember_tensor_t** r) { ember_sum(c, x8, nullptr, 0, 0, r); }));
        for (ember_tensor_t* t : {x, x8}) ember_tensor_release(t);
    }
    if (np.count("max_rows_f32/10000x100")) {
        ember_tensor_t* x = random_tensor(c, {10000, 100}, -1, 1, 49);
        const int64_t last = -1;
        add("max_rows_f32", "10000x100", time_result(reps, [&](ember_tensor_t** r) { ember_max(c, x, &last, 1, 0, r); }));
        ember_tensor_release(x);
    }
    if (np.count("argmax_axis0_f32/1000x1000") || np.count("argmax_axis0_i16/1000x1000") || np.count("prod_axis0_i64/1000x1000") ||
        np.count("flip_copy_i64/1000x1000") || np.count("sum_axis0_i16/1000x1000")) {
        ember_tensor_t *x = random_tensor(c, {1000, 1000}, -100, 100, 50), *x16 = nullptr, *x64 = nullptr, *small = random_tensor(c, {1000, 1000}, -3.99, 3.99, 51), *small64 = nullptr;
        ember_astype(c, x, EMBER_INT16, &x16);
        ember_astype(c, x, EMBER_INT64, &x64);
        ember_astype(c, small, EMBER_INT64, &small64);  // -3..3, truncated
        const int64_t axis0 = 0, axis1 = 1;
        add("argmax_axis0_f32", "1000x1000", time_result(reps, [&](ember_tensor_t** r) { ember_argmax(c, x, 0, 0, r); }));
        add("argmax_axis0_i16", "1000x1000", time_result(reps, [&](ember_tensor_t** r) { ember_argmax(c, x16, 0, 0, r); }));
        add("prod_axis0_i64", "1000x1000", time_result(reps, [&](ember_tensor_t** r) { ember_prod(c, small64, &axis0, 1, 0, r); }));
        add("sum_axis0_i16", "1000x1000", time_result(reps, [&](ember_tensor_t** r) { ember_sum(c, x16, &axis0, 1, 0, r); }));
        add("flip_copy_i64", "1000x1000", time_result(reps, [&](ember_tensor_t** r) {
                ember_tensor_t* flipped = nullptr;
                ember_flip(c, x64, &axis1, 1, &flipped);
                ember_copy(c, flipped, r);
                ember_tensor_release(flipped);
            }));
        for (ember_tensor_t* t : {x, x16, x64, small, small64}) ember_tensor_release(t);
    }
    if (np.count("argmax_axis0_tall_f32/100000x3") || np.count("argmax_axis0_tall_i64/100000x3")) {  // which sample has the largest of each of three features
        ember_tensor_t *x = random_tensor(c, {100000, 3}, -1, 1, 53), *wide = random_tensor(c, {100000, 3}, -1e6, 1e6, 54), *x64 = nullptr;
        ember_astype(c, wide, EMBER_INT64, &x64);
        add("argmax_axis0_tall_f32", "100000x3", time_result(reps, [&](ember_tensor_t** r) { ember_argmax(c, x, 0, 0, r); }));
        add("argmax_axis0_tall_i64", "100000x3", time_result(reps, [&](ember_tensor_t** r) { ember_argmax(c, x64, 0, 0, r); }));
        for (ember_tensor_t* t : {x, wide, x64}) ember_tensor_release(t);
    }
    if (np.count("argmax_rows_f64/10000x100") || np.count("argmax_rows_i32/10000x100")) {  // the class of each sample in a batch
        ember_tensor_t *x = random_tensor(c, {10000, 100}, -1, 1, 55), *x64 = nullptr, *wide = random_tensor(c, {10000, 100}, -1e6, 1e6, 56), *x32 = nullptr;
        ember_astype(c, x, EMBER_FLOAT64, &x64);
        ember_astype(c, wide, EMBER_INT32, &x32);
        add("argmax_rows_f64", "10000x100", time_result(reps, [&](ember_tensor_t** r) { ember_argmax(c, x64, 1, 0, r); }));
        add("argmax_rows_i32", "10000x100", time_result(reps, [&](ember_tensor_t** r) { ember_argmax(c, x32, 1, 0, r); }));
        for (ember_tensor_t* t : {x, x64, wide, x32}) ember_tensor_release(t);
    }
    if (np.count("argmax_rows_bool/10000x100") || np.count("max_bool/1e6")) {
        ember_tensor_t *u = random_tensor(c, {10000, 100}, 0, 1, 57), *v = random_tensor(c, {1000000}, 0, 1, 58), *rare = nullptr, *half = nullptr, *flags = nullptr,
                       *coin = nullptr;
        ember_scalar_f64(c, 0.02, &rare);
        ember_scalar_f64(c, 0.5, &half);
        ember_less(c, u, rare, &flags);
        ember_less(c, v, half, &coin);
        add("argmax_rows_bool", "10000x100", time_result(reps, [&](ember_tensor_t** r) { ember_argmax(c, flags, 1, 0, r); }));
        add("max_bool", "1e6", time_result(reps, [&](ember_tensor_t** r) { ember_max(c, coin, nullptr, 0, 0, r); }));
        for (ember_tensor_t* t : {u, v, rare, half, flags, coin}) ember_tensor_release(t);
    }
    if (np.count("max_rows_short_f32/1e6x3") || np.count("argmax_rows_short_f32/1e6x3") || np.count("vecdot_short_f32/100000x16") ||
        np.count("vecdot_points_f32/1e6x3") || np.count("norm_rows16_f32/100000x16") || np.count("vecdot_columns_f32/2000x2000") ||
        np.count("vecdot_columns_few_f32/100000x16")) {
        ember_tensor_t *x = random_tensor(c, {1000000, 3}, -1, 1, 24), *v = random_tensor(c, {100000, 16}, -1, 1, 25);
        ember_tensor_t* y = random_tensor(c, {1000000, 3}, -1, 1, 124);
        const int64_t last = -1;
        add("max_rows_short_f32", "1e6x3", time_result(reps, [&](ember_tensor_t** r) { ember_max(c, x, &last, 1, 0, r); }));
        add("argmax_rows_short_f32", "1e6x3", time_result(reps, [&](ember_tensor_t** r) { ember_argmax(c, x, -1, 0, r); }));
        add("vecdot_short_f32", "100000x16", time_result(reps, [&](ember_tensor_t** r) { ember_vecdot(c, v, v, -1, r); }));
        add("vecdot_points_f32", "1e6x3", time_result(reps, [&](ember_tensor_t** r) { ember_vecdot(c, x, y, -1, r); }));
        add("norm_rows16_f32", "100000x16", time_result(reps, [&](ember_tensor_t** r) { ember_vector_norm(c, v, 2, &last, 1, 0, r); }));
        ember_tensor_t *w = random_tensor(c, {100000, 16}, -1, 1, 125), *m = random_tensor(c, {2000, 2000}, -1, 1, 27), *n = random_tensor(c, {2000, 2000}, -1, 1, 127);
        add("vecdot_columns_f32", "2000x2000", time_result(reps, [&](ember_tensor_t** r) { ember_vecdot(c, m, n, 0, r); }));
        add("vecdot_columns_few_f32", "100000x16", time_result(reps, [&](ember_tensor_t** r) { ember_vecdot(c, v, w, 0, r); }));
        for (ember_tensor_t* t : {x, y, v, w, m, n}) ember_tensor_release(t);
    }
    if (np.count("take_along_axis_f32/1024x1024") || np.count("repeat_last_f32/1024x1024")) {
        ember_tensor_t* x = random_tensor(c, {1024, 1024}, -1, 1, 26);
        std::vector<int64_t> idx(1024 * 1024);
        for (auto& i : idx) i = (int64_t)(rng() % 1024);
        ember_tensor_t* ix = from_host(c, idx.data(), EMBER_INT64, {1024, 1024});
        add("take_along_axis_f32", "1024x1024", time_result(reps, [&](ember_tensor_t** r) { ember_take_along_axis(c, x, ix, 1, r); }));
        add("repeat_last_f32", "1024x1024", time_result(reps, [&](ember_tensor_t** r) { ember_repeat(c, x, 2, -1, r); }));
        for (ember_tensor_t* t : {x, ix}) ember_tensor_release(t);
    }
    if (np.count("full_f32/1e6") || np.count("arange_i64/1e6")) {
        const int64_t n[1] = {1000000};
        add("full_f32", "1e6", time_result(reps, [&](ember_tensor_t** r) { ember_full(c, n, 1, 0.5, EMBER_FLOAT32, r); }));
        add("arange_i64", "1e6", time_result(reps, [&](ember_tensor_t** r) { ember_arange(c, 0, 1000000, 1, EMBER_INT64, r); }));
    }
    if (np.count("astype_f32_c64/1e6")) {  // uniform(-1, 1)
        ember_tensor_t* x = random_tensor(c, {1000000}, -1, 1, 42);
        add("astype_f32_c64", "1e6", time_result(reps, [&](ember_tensor_t** r) { ember_astype(c, x, EMBER_COMPLEX64, r); }));
        ember_tensor_release(x);
    }
    if (np.count("sum_rows3_f32/1e6x3") || np.count("center_rows3_f32/1e6x3") || np.count("argmax_rows3_f32/1e6x3") ||
        np.count("norm_rows3_f32/1e6x3")) {  // uniform(-1, 1): rows of 3
        ember_tensor_t* x = random_tensor(c, {1000000, 3}, -1, 1, 44);
        const int64_t last[1] = {1};
        add("sum_rows3_f32", "1e6x3", time_result(reps, [&](ember_tensor_t** r) { ember_sum(c, x, last, 1, 0, r); }));
        add("center_rows3_f32", "1e6x3", time_result(reps, [&](ember_tensor_t** r) {
                ember_tensor_t* m = nullptr;
                ember_max(c, x, last, 1, 1, &m);
                ember_subtract(c, x, m, r);
                ember_tensor_release(m);
            }));
        add("argmax_rows3_f32", "1e6x3", time_result(reps, [&](ember_tensor_t** r) { ember_argmax(c, x, 1, 0, r); }));
        add("norm_rows3_f32", "1e6x3", time_result(reps, [&](ember_tensor_t** r) { ember_vector_norm(c, x, 2, last, 1, 0, r); }));
        ember_tensor_release(x);
    }
    if (np.count("exp_cols3_f32/1e6x3") || np.count("argmax_cols3_f32/1e6x3")) {  // x.T of a (3, 1e6) x: rows of 3 read across
        ember_tensor_t *x = random_tensor(c, {3, 1000000}, -1, 1, 46), *t = nullptr;
        const int64_t swap[2] = {1, 0};
        ember_permute_dims(c, x, swap, 2, &t);
        add("exp_cols3_f32", "1e6x3", time_result(reps, [&](ember_tensor_t** r) { ember_exp(c, t, r); }));
        add("argmax_cols3_f32", "1e6x3", time_result(reps, [&](ember_tensor_t** r) { ember_argmax(c, t, 1, 0, r); }));
        for (ember_tensor_t* v : {x, t}) ember_tensor_release(v);
    }
    if (np.count("mean_axis0_rows3_f32/1e6x3")) {  // the centroid of a million points
        ember_tensor_t* x = random_tensor(c, {1000000, 3}, -1, 1, 47);
        const int64_t first[1] = {0};
        add("mean_axis0_rows3_f32", "1e6x3", time_result(reps, [&](ember_tensor_t** r) { ember_mean(c, x, first, 1, 0, r); }));
        ember_tensor_release(x);
    }
    if (np.count("channel_max_u8/1000x1000x3") || np.count("bgr_take_u8/1000x1000x3") || np.count("bgr_flip_u8/1000x1000x3")) {  // an RGB image
        ember_tensor_t *x = random_tensor(c, {1000, 1000, 3}, 0, 255.99, 48), *x8 = nullptr, *order = nullptr, *flipped = nullptr;
        ember_astype(c, x, EMBER_UINT8, &x8);
        const int64_t outer[2] = {0, 1}, reversed[3] = {2, 1, 0}, three = 3, channels = 2;
        ember_tensor_from_data(c, reversed, EMBER_INT64, &three, 1, &order);
        ember_flip(c, x8, &channels, 1, &flipped);
        add("channel_max_u8", "1000x1000x3", time_result(reps, [&](ember_tensor_t** r) { ember_max(c, x8, outer, 2, 0, r); }));
        add("bgr_take_u8", "1000x1000x3", time_result(reps, [&](ember_tensor_t** r) { ember_take(c, x8, order, 2, r); }));
        add("bgr_flip_u8", "1000x1000x3", time_result(reps, [&](ember_tensor_t** r) { ember_copy(c, flipped, r); }));
        for (ember_tensor_t* v : {x, x8, order, flipped}) ember_tensor_release(v);
    }
    if (np.count("negative_flip3_f32/1e6x3")) {  // rows of three read backwards
        ember_tensor_t *x = random_tensor(c, {1000000, 3}, -1, 1, 147), *flipped = nullptr;
        const int64_t columns = 1;
        ember_flip(c, x, &columns, 1, &flipped);
        add("negative_flip3_f32", "1e6x3", time_result(reps, [&](ember_tensor_t** r) { ember_negative(c, flipped, r); }));
        for (ember_tensor_t* v : {x, flipped}) ember_tensor_release(v);
    }
    if (np.count("softmax_channels_f32/8x21x256x256")) {  // the classes of a segmentation map, NCHW
        ember_tensor_t* x = random_tensor(c, {8, 21, 256, 256}, -10, 10, 49);
        add("softmax_channels_f32", "8x21x256x256", time_result(reps, [&](ember_tensor_t** r) { ember_softmax(c, x, 1, r); }));
        ember_tensor_release(x);
    }
    if (np.count("softmax_axis0_f32/3x1e6")) {
        ember_tensor_t* x = random_tensor(c, {3, 1000000}, -10, 10, 50);
        add("softmax_axis0_f32", "3x1e6", time_result(reps, [&](ember_tensor_t** r) { ember_softmax(c, x, 0, r); }));
        ember_tensor_release(x);
    }
    if (np.count("softmax_logits_f32/1x262144")) {  // one token's logits over a 256k vocabulary
        ember_tensor_t* x = random_tensor(c, {1, 262144}, -10, 10, 54);
        add("softmax_logits_f32", "1x262144", time_result(reps, [&](ember_tensor_t** r) { ember_softmax(c, x, -1, r); }));
        ember_tensor_release(x);
    }
    if (np.count("softmax_keys64_f32/65536x64")) {  // attention weights over 64 keys
        ember_tensor_t* x = random_tensor(c, {65536, 64}, -10, 10, 57);
        add("softmax_keys64_f32", "65536x64", time_result(reps, [&](ember_tensor_t** r) { ember_softmax(c, x, -1, r); }));
        ember_tensor_release(x);
    }
    if (np.count("softmax_classes24_f64/131072x24")) {  // a mixture's responsibilities over 24 components
        ember_tensor_t *x32 = random_tensor(c, {131072, 24}, -10, 10, 58), *x = nullptr;
        ember_astype(c, x32, EMBER_FLOAT64, &x);
        add("softmax_classes24_f64", "131072x24", time_result(reps, [&](ember_tensor_t** r) { ember_softmax(c, x, -1, r); }));
        for (ember_tensor_t* t : {x32, x}) ember_tensor_release(t);
    }
    if (np.count("add_bcast_rows_f32/65536x128")) {  // a bias added to every row of a batch
        ember_tensor_t *x = random_tensor(c, {65536, 128}, -1, 1, 51), *bias = random_tensor(c, {128}, -1, 1, 52);
        add("add_bcast_rows_f32", "65536x128", time_result(reps, [&](ember_tensor_t** r) { ember_add(c, x, bias, r); }));
        for (ember_tensor_t* t : {x, bias}) ember_tensor_release(t);
    }
    if (np.count("pad_nchw_f32/8x64x128x128")) {  // a zero border of one pixel around each feature map
        ember_tensor_t* x = random_tensor(c, {8, 64, 128, 128}, -1, 1, 53);
        const int64_t border[8] = {0, 0, 0, 0, 1, 1, 1, 1};
        add("pad_nchw_f32", "8x64x128x128", time_result(reps, [&](ember_tensor_t** r) { ember_pad(c, x, border, EMBER_PAD_CONSTANT, 0.0, r); }));
        ember_tensor_release(x);
    }
    if (np.count("sort_axis0_f32/20000x64")) {
        ember_tensor_t* x = random_tensor(c, {20000, 64}, -1, 1, 54);
        add("sort_axis0_f32", "20000x64", time_result(reps, [&](ember_tensor_t** r) { ember_sort(c, x, 0, 0, r); }));
        ember_tensor_release(x);
    }
    if (np.count("argsort_rows3_f32/1e6x3")) {  // the order of each point's coordinates
        ember_tensor_t* x = random_tensor(c, {1000000, 3}, -1, 1, 57);
        add("argsort_rows3_f32", "1e6x3", time_result(reps, [&](ember_tensor_t** r) { ember_argsort(c, x, 1, 0, r); }));
        ember_tensor_release(x);
    }
    // Unary ops of a transposed (n, n) view: NumPy keeps x.T's layout for its result, Ember
    // writes C order (a transpose). The same values as the cases had one block each before.
    struct TransposedCase {
        const char* name;
        int64_t n;
        ember_dtype_t dtype;
        double lo, hi;
        unsigned seed;
        ember_status_t (*op)(ember_ctx_t*, const ember_tensor_t*, ember_tensor_t**);
    };
    const TransposedCase transposed_cases[] = {
        {"negative_transposed_u8", 1000, EMBER_UINT8, 0, 255.99, 58, ember_negative},  // wrapping uint8
        {"negative_transposed_i16", 1000, EMBER_INT16, -1000, 1000, 60, ember_negative},
        {"square_transposed_u8", 1000, EMBER_UINT8, 0, 255.99, 61, ember_square},
        {"negative_transposed_u8", 1024, EMBER_UINT8, 0, 255.99, 63, ember_negative},  // output rows 1 KiB apart
        {"negative_transposed_f32", 1024, EMBER_FLOAT32, 0, 255.99, 63, ember_negative},  // 4 KiB apart
    };
    for (const TransposedCase& tc : transposed_cases) {
        const std::string size = std::to_string(tc.n) + "x" + std::to_string(tc.n);
        if (!np.count(std::string(tc.name) + "/" + size)) continue;
        ember_tensor_t *x = random_tensor(c, {tc.n, tc.n}, tc.lo, tc.hi, tc.seed), *typed = nullptr, *t = nullptr;
        ember_astype(c, x, tc.dtype, &typed);
        const int64_t swap[2] = {1, 0};
        ember_permute_dims(c, typed, swap, 2, &t);
        add(tc.name, size.c_str(), time_result(reps, [&](ember_tensor_t** r) { tc.op(c, t, r); }));
        for (ember_tensor_t* v : {x, typed, t}) ember_tensor_release(v);
    }
    if (np.count("add_stepped_i16/1e6") || np.count("add_stepped_u8/1e6")) {  // x[::2] + x[1::2] of 2e6 values
        ember_tensor_t *x = random_tensor(c, {2000000}, 0, 100, 62), *even[2] = {}, *odd[2] = {}, *narrow[2] = {};
        const int64_t from_even[1] = {0}, from_odd[1] = {1}, to[1] = {2000000}, step[1] = {2};
        const ember_dtype_t dtypes[2] = {EMBER_INT16, EMBER_UINT8};
        const char* names[2] = {"add_stepped_i16", "add_stepped_u8"};
        for (int k = 0; k < 2; ++k) {
            ember_astype(c, x, dtypes[k], &narrow[k]);
            ember_slice(c, narrow[k], from_even, to, step, 1, &even[k]);
            ember_slice(c, narrow[k], from_odd, to, step, 1, &odd[k]);
            add(names[k], "1e6", time_result(reps, [&](ember_tensor_t** r) { ember_add(c, even[k], odd[k], r); }));
        }
        for (ember_tensor_t* v : {x, even[0], odd[0], narrow[0], even[1], odd[1], narrow[1]}) ember_tensor_release(v);
    }
    if (np.count("softmax_cols_f32/4096x4096")) {  // softmax down the columns: a strided axis
        ember_tensor_t* x = random_tensor(c, {4096, 4096}, -5, 5, 63);
        add("softmax_cols_f32", "4096x4096", time_result(opt.quick ? 3 : 7, [&](ember_tensor_t** r) { ember_softmax(c, x, 0, r); }));
        ember_tensor_release(x);
    }
    if (np.count("scatter_add_f32/1e6")) {  // a million values summed into 1000 bins
        ember_tensor_t *x = random_tensor(c, {1000000}, -1, 1, 64), *bins = random_tensor(c, {1000000}, 0, 999.99, 65), *index = nullptr;
        ember_astype(c, bins, EMBER_INT64, &index);
        add("scatter_add_f32", "1e6", time_result(reps, [&](ember_tensor_t** r) { ember_scatter(c, x, index, 0, 1000, EMBER_SCATTER_ADD, r); }));
        for (ember_tensor_t* v : {x, bins, index}) ember_tensor_release(v);
    }
    if (np.count("unique_counts_i16/1e6")) {  // labels of 100 kinds: counted, not sorted
        ember_tensor_t *x = random_tensor(c, {1000000}, -50, 50, 59), *x16 = nullptr;
        ember_astype(c, x, EMBER_INT16, &x16);
        add("unique_counts_i16", "1e6", time_result(reps, [&](ember_tensor_t** r) {
                ember_tensor_t* counts = nullptr;
                ember_unique(c, x16, r, nullptr, nullptr, &counts);
                ember_tensor_release(counts);
            }));
        for (ember_tensor_t* t : {x, x16}) ember_tensor_release(t);
    }
    if (np.count("norm_axis0_f32/1000x1000")) {  // uniform(-1, 1)
        ember_tensor_t* x = random_tensor(c, {1000, 1000}, -1, 1, 45);
        const int64_t first[1] = {0};
        add("norm_axis0_f32", "1000x1000", time_result(reps, [&](ember_tensor_t** r) { ember_vector_norm(c, x, 2, first, 1, 0, r); }));
        ember_tensor_release(x);
    }
    if (np.count("fftshift_f32/1000x1000") || np.count("topk_rows_f32/1000x1000")) {  // uniform(-1, 1)
        ember_tensor_t* x = random_tensor(c, {1000, 1000}, -1, 1, 43);
        add("fftshift_f32", "1000x1000", time_result(reps, [&](ember_tensor_t** r) { ember_fftshift(c, x, nullptr, 0, r); }));
        add("topk_rows_f32", "1000x1000", time_result(reps, [&](ember_tensor_t** r) {
                ember_tensor_t* indices = nullptr;
                ember_topk(c, x, 10, 1, 1, r, &indices);
                ember_tensor_release(indices);
            }));
        ember_tensor_release(x);
    }
    if (np.count("fft_c64/1024x1024")) {
        ember_tensor_t* re = random_tensor(c, {1024, 1024}, -1, 1, 7), *z = nullptr;
        ember_astype(c, re, EMBER_COMPLEX64, &z);
        add("fft_c64", "1024x1024", time_result(opt.quick ? 3 : 7, [&](ember_tensor_t** r) { ember_fft(c, z, -1, -1, EMBER_FFT_BACKWARD, r); }));
        for (ember_tensor_t* t : {re, z}) ember_tensor_release(t);
    }
    if (np.count("abs_c64/1e6") || np.count("multiply_c64/1e6") || np.count("sum_c64/1e6")) {
        ember_tensor_t *z = complex_tensor({1000000}, 41), *w = complex_tensor({1000000}, 43);
        add("abs_c64", "1e6", time_result(reps, [&](ember_tensor_t** r) { ember_abs(c, z, r); }));
        add("multiply_c64", "1e6", time_result(reps, [&](ember_tensor_t** r) { ember_multiply(c, z, w, r); }));
        add("sum_c64", "1e6", time_result(reps, [&](ember_tensor_t** r) { ember_sum(c, z, nullptr, 0, 0, r); }));
        for (ember_tensor_t* t : {z, w}) ember_tensor_release(t);
    }
    if (np.count("vecdot_c64/100000x16") || np.count("vecdot_c128/1e6") || np.count("vecdot_columns_c64/100000x16")) {  // sum(conj(a) * b)
        ember_tensor_t *a = complex_tensor({100000, 16}, 60), *b = complex_tensor({100000, 16}, 61), *z = complex_tensor({1000000}, 62),
                       *w = complex_tensor({1000000}, 63), *z128 = nullptr, *w128 = nullptr;
        ember_astype(c, z, EMBER_COMPLEX128, &z128);
        ember_astype(c, w, EMBER_COMPLEX128, &w128);
        add("vecdot_c64", "100000x16", time_result(reps, [&](ember_tensor_t** r) { ember_vecdot(c, a, b, -1, r); }));
        add("vecdot_c128", "1e6", time_result(reps, [&](ember_tensor_t** r) { ember_vecdot(c, z128, w128, -1, r); }));
        add("vecdot_columns_c64", "100000x16", time_result(reps, [&](ember_tensor_t** r) { ember_vecdot(c, a, b, 0, r); }));
        for (ember_tensor_t* t : {a, b, z, w, z128, w128}) ember_tensor_release(t);
    }
    if (np.count("divide_c64/1e6") || np.count("divide_c128/1e6") || np.count("reciprocal_c64/1e6") || np.count("reciprocal_c128/1e6")) {
        ember_tensor_t *z = complex_tensor({1000000}, 44), *w = complex_tensor({1000000}, 46), *z128 = nullptr, *w128 = nullptr;
        ember_astype(c, z, EMBER_COMPLEX128, &z128);
        ember_astype(c, w, EMBER_COMPLEX128, &w128);
        add("divide_c64", "1e6", time_result(reps, [&](ember_tensor_t** r) { ember_divide(c, z, w, r); }));
        add("divide_c128", "1e6", time_result(reps, [&](ember_tensor_t** r) { ember_divide(c, z128, w128, r); }));
        add("reciprocal_c64", "1e6", time_result(reps, [&](ember_tensor_t** r) { ember_reciprocal(c, w, r); }));
        add("reciprocal_c128", "1e6", time_result(reps, [&](ember_tensor_t** r) { ember_reciprocal(c, w128, r); }));
        for (ember_tensor_t* t : {z, w, z128, w128}) ember_tensor_release(t);
    }
    if (np.count("divide_transposed_c64/1000x1000")) {
        ember_tensor_t *z = complex_tensor({1000, 1000}, 47), *w = complex_tensor({1000, 1000}, 49), *wt = nullptr;
        ember_matrix_transpose(c, w, &wt);
        add("divide_transposed_c64", "1000x1000", time_result(reps, [&](ember_tensor_t** r) { ember_divide(c, z, wt, r); }));
        for (ember_tensor_t* t : {z, w, wt}) ember_tensor_release(t);
    }
    if (np.count("prod_axis0_f32/1000x1000") || np.count("prod_f64/1e6")) {  // factors 2^u, u uniform(-1, 1) or (-1/16, 1/16)
        auto factors = [&](std::vector<int64_t> shape, ember_dtype_t dt, double scale, unsigned seed) {
            ember_tensor_t *u = random_tensor(c, shape, -1, 1, seed), *u_dt = nullptr, *k = nullptr, *e = nullptr, *x = nullptr;
            ember_astype(c, u, dt, &u_dt);
            ember_full(c, nullptr, 0, 0.69314718055994531 * scale, dt, &k);
            ember_multiply(c, u_dt, k, &e);
            ember_exp(c, e, &x);
            for (ember_tensor_t* t : {u, u_dt, k, e}) ember_tensor_release(t);
            return x;
        };
        ember_tensor_t *x = factors({1000, 1000}, EMBER_FLOAT32, 1, 45), *y = factors({1000000}, EMBER_FLOAT64, 1.0 / 16, 47);
        const int64_t axis0 = 0;
        add("prod_axis0_f32", "1000x1000", time_result(reps, [&](ember_tensor_t** r) { ember_prod(c, x, &axis0, 1, 0, r); }));
        add("prod_f64", "1e6", time_result(reps, [&](ember_tensor_t** r) { ember_prod(c, y, nullptr, 0, 0, r); }));
        for (ember_tensor_t* t : {x, y}) ember_tensor_release(t);
    }
    if (np.count("sum_axis0_c64/1000x1000") || np.count("square_transposed_c64/1000x1000")) {
        ember_tensor_t *z = complex_tensor({1000, 1000}, 48), *zt = nullptr;
        ember_matrix_transpose(c, z, &zt);
        const int64_t axis0 = 0;
        add("sum_axis0_c64", "1000x1000", time_result(reps, [&](ember_tensor_t** r) { ember_sum(c, z, &axis0, 1, 0, r); }));
        add("square_transposed_c64", "1000x1000", time_result(reps, [&](ember_tensor_t** r) { ember_square(c, zt, r); }));
        for (ember_tensor_t* t : {z, zt}) ember_tensor_release(t);
    }
    if (np.count("any_c64/1e6") || np.count("count_nonzero_axis0_c64/1000x1000") || np.count("astype_c64_i64/1e6")) {
        ember_tensor_t *z = complex_tensor({1000000}, 53), *m = complex_tensor({1000, 1000}, 54);
        const int64_t axis0 = 0;
        add("any_c64", "1e6", time_result(reps, [&](ember_tensor_t** r) { ember_any(c, z, nullptr, 0, 0, r); }));
        add("count_nonzero_axis0_c64", "1000x1000", time_result(reps, [&](ember_tensor_t** r) { ember_count_nonzero(c, m, &axis0, 1, 0, r); }));
        add("astype_c64_i64", "1e6", time_result(reps, [&](ember_tensor_t** r) { ember_astype(c, z, EMBER_INT64, r); }));
        for (ember_tensor_t* t : {z, m}) ember_tensor_release(t);
    }
    if (np.count("sort_c64/1e6") || np.count("sort_c128/1e6") || np.count("argsort_c128/1e6")) {
        ember_tensor_t *z = complex_tensor({1000000}, 52), *z128 = nullptr;
        ember_astype(c, z, EMBER_COMPLEX128, &z128);
        add("sort_c64", "1e6", time_result(reps, [&](ember_tensor_t** r) { ember_sort(c, z, 0, 0, r); }));
        add("sort_c128", "1e6", time_result(reps, [&](ember_tensor_t** r) { ember_sort(c, z128, 0, 0, r); }));
        add("argsort_c128", "1e6", time_result(reps, [&](ember_tensor_t** r) { ember_argsort(c, z128, 0, 0, r); }));
        for (ember_tensor_t* t : {z, z128}) ember_tensor_release(t);
    }
    if (np.count("prod_c64/1e6") || np.count("prod_axis0_c128/1000x1000")) {  // factors 2^(u/16) e^(i pi v), u, v uniform(-1, 1)
        std::mt19937 rng(53);
        std::uniform_real_distribution<double> u(-1, 1);
        std::vector<std::complex<double>> v(1000000);
        for (auto& e : v) e = std::polar(std::exp2(u(rng) / 16), 3.141592653589793 * u(rng));
        const int64_t flat[1] = {1000000}, square[2] = {1000, 1000}, axis0 = 0;
        ember_tensor_t *z128 = nullptr, *z = nullptr, *m = nullptr;
        ember_tensor_from_data(c, v.data(), EMBER_COMPLEX128, flat, 1, &z128);
        ember_astype(c, z128, EMBER_COMPLEX64, &z);
        ember_tensor_from_data(c, v.data(), EMBER_COMPLEX128, square, 2, &m);
        add("prod_c64", "1e6", time_result(reps, [&](ember_tensor_t** r) { ember_prod(c, z, nullptr, 0, 0, r); }));
        add("prod_axis0_c128", "1000x1000", time_result(reps, [&](ember_tensor_t** r) { ember_prod(c, m, &axis0, 1, 0, r); }));
        for (ember_tensor_t* t : {z128, z, m}) ember_tensor_release(t);
    }
    if (np.count("prod_axis0_overflow_c128/1000x1000") || np.count("cumprod_axis0_c128/1000x1000")) {
        // Real factors uniform(1, 101): every column's product overflows, and each later step
        // needs C99 Annex G's recovery (complex_sequence.cpp). The cumulative product of
        // factors near the unit circle, 2^(u/16) e^(i pi v), stays finite.
        std::mt19937 rng(54);
        std::uniform_real_distribution<double> u(-1, 1), big(1, 101);
        std::vector<std::complex<double>> growing(1000000), unit(1000000);
        for (auto& e : growing) e = big(rng);
        for (auto& e : unit) e = std::polar(std::exp2(u(rng) / 16), 3.141592653589793 * u(rng));
        const int64_t square[2] = {1000, 1000}, axis0 = 0;
        ember_tensor_t *g = nullptr, *z = nullptr;
        ember_tensor_from_data(c, growing.data(), EMBER_COMPLEX128, square, 2, &g);
        ember_tensor_from_data(c, unit.data(), EMBER_COMPLEX128, square, 2, &z);
        add("prod_axis0_overflow_c128", "1000x1000", time_result(reps, [&](ember_tensor_t** r) { ember_prod(c, g, &axis0, 1, 0, r); }));
        add("cumprod_axis0_c128", "1000x1000", time_result(reps, [&](ember_tensor_t** r) { ember_cumprod(c, z, 0, r); }));
        for (ember_tensor_t* t : {g, z}) ember_tensor_release(t);
    }
    if (np.count("abs_c128/1e6") || np.count("norm_c128/1e6") || np.count("mean_c128/1e6")) {
        ember_tensor_t *z64 = complex_tensor({1000000}, 50), *z = nullptr;
        ember_astype(c, z64, EMBER_COMPLEX128, &z);
        add("abs_c128", "1e6", time_result(reps, [&](ember_tensor_t** r) { ember_abs(c, z, r); }));
        add("norm_c128", "1e6", time_result(reps, [&](ember_tensor_t** r) { ember_vector_norm(c, z, 2, nullptr, 0, 0, r); }));
        add("mean_c128", "1e6", time_result(reps, [&](ember_tensor_t** r) { ember_mean(c, z, nullptr, 0, 0, r); }));
        for (ember_tensor_t* t : {z64, z}) ember_tensor_release(t);
    }
    if (np.count("norm_f64/1e6")) {
        ember_tensor_t *x32 = random_tensor(c, {1000000}, -1, 1, 52), *x = nullptr;
        ember_astype(c, x32, EMBER_FLOAT64, &x);
        add("norm_f64", "1e6", time_result(reps, [&](ember_tensor_t** r) { ember_vector_norm(c, x, 2, nullptr, 0, 0, r); }));
        for (ember_tensor_t* t : {x32, x}) ember_tensor_release(t);
    }
    if (np.count("fft_long_c64/1048576")) {
        ember_tensor_t* z = complex_tensor({int64_t(1) << 20}, 8);
        add("fft_long_c64", "1048576", time_result(opt.quick ? 3 : 7, [&](ember_tensor_t** r) { ember_fft(c, z, -1, -1, EMBER_FFT_BACKWARD, r); }));
        ember_tensor_release(z);
    }
    if (np.count("rfft_f32/1024x1024") || np.count("irfft_f32/1024x1024")) {  // the real transforms' own kernels
        ember_tensor_t *x = random_tensor(c, {1024, 1024}, -1, 1, 10), *spec = nullptr;
        ember_rfft(c, x, -1, -1, EMBER_FFT_BACKWARD, &spec);
        add("rfft_f32", "1024x1024", time_result(opt.quick ? 3 : 7, [&](ember_tensor_t** r) { ember_rfft(c, x, -1, -1, EMBER_FFT_BACKWARD, r); }));
        add("irfft_f32", "1024x1024", time_result(opt.quick ? 3 : 7, [&](ember_tensor_t** r) { ember_irfft(c, spec, 1024, -1, EMBER_FFT_BACKWARD, r); }));
        for (ember_tensor_t* t : {x, spec}) ember_tensor_release(t);
    }
    if (np.count("rfft_long_f64/1e6")) {  // one long line: a complex transform of 500000 split in two
        ember_tensor_t *x32 = random_tensor(c, {1000000}, -1, 1, 11), *x = nullptr;
        ember_astype(c, x32, EMBER_FLOAT64, &x);
        add("rfft_long_f64", "1e6", time_result(opt.quick ? 3 : 7, [&](ember_tensor_t** r) { ember_rfft(c, x, -1, -1, EMBER_FFT_BACKWARD, r); }));
        for (ember_tensor_t* t : {x32, x}) ember_tensor_release(t);
    }
    if (np.count("fft_prime_c64/100003")) {  // a prime length: Bluestein through power-of-two transforms
        ember_tensor_t* z = complex_tensor({100003}, 9);
        add("fft_prime_c64", "100003", time_result(opt.quick ? 3 : 7, [&](ember_tensor_t** r) { ember_fft(c, z, -1, -1, EMBER_FFT_BACKWARD, r); }));
        ember_tensor_release(z);
    }
}
bench::Register reg_np_index("numpy_index", vs_numpy_index);

// ---- linear scaling: ns/element at 1e7 against 1e6
void scaling(const bench::Options& opt, std::vector<bench::Result>& out) {
    Ctx ctx;
    if (!ctx.c) return;
    settle();
    int reps = opt.quick ? 5 : 15;
    for (const Op& op : kOps) {
        double t6 = time_op(ctx.c, op, 1000000, reps * 3);
        double t7 = time_op(ctx.c, op, 10000000, reps);
        out.push_back({std::string("scaling_") + op.name, "1e7", "cpu", "10x_time_at_1e6", t7, 10 * t6});
    }
}
bench::Register reg_scaling("scaling", scaling);

// ---- bandwidth: c = a + b (new result; the cached allocator recycles the output buffer)
// and assign (copy into an existing tensor) against a two-thread memcpy.
// Two threads copy one half each; the better of memcpy and an SSE2 streaming-store loop
// (non-temporal stores skip the read-for-ownership of the destination, as Ember's large
// outputs do), so the baseline is the best copy rate this bench can reach.
void stream_copy(const float* src, float* dst, int64_t n) {
#if defined(__SSE2__)
    int64_t i = 0;
    for (; i < n && ((uintptr_t)(dst + i) & 15); ++i) dst[i] = src[i];
    for (; i + 16 <= n; i += 16) {
        __m128i a = _mm_loadu_si128((const __m128i*)(src + i)), b = _mm_loadu_si128((const __m128i*)(src + i + 4));
        __m128i c = _mm_loadu_si128((const __m128i*)(src + i + 8)), d = _mm_loadu_si128((const __m128i*)(src + i + 12));
        _mm_stream_si128((__m128i*)(dst + i), a);
        _mm_stream_si128((__m128i*)(dst + i + 4), b);
        _mm_stream_si128((__m128i*)(dst + i + 8), c);
        _mm_stream_si128((__m128i*)(dst + i + 12), d);
    }
    _mm_sfence();
    for (; i < n; ++i) dst[i] = src[i];
#else
    std::memcpy(dst, src, (size_t)n * 4);
#endif
}
// Best time of `work` over [0, n) split in two halves, one per thread: the second half
// on a persistent helper thread (no thread start-up inside the timed region).
template <class Work>
double two_thread_time(int64_t n, int reps, const Work& work) {
    std::atomic<int> go{0}, done{0};
    std::atomic<bool> quit{false};
    const int64_t h = (n / 2) & ~(int64_t)15;
    std::thread helper([&] {
        int seen = 0;
        while (!quit.load()) {
            int g = go.load(std::memory_order_acquire);
            if (g == seen) continue;
            seen = g;
            work(h, n);
            done.store(g, std::memory_order_release);
        }
    });
    int gen = 0;
    double t = bench::best_of(reps, [&] {
        ++gen;
        go.store(gen, std::memory_order_release);
        work(0, h);
        while (done.load(std::memory_order_acquire) != gen) {
        }
    });
    quit.store(true);
    helper.join();
    return t;
}
double copy_bandwidth_2t(const float* src, float* dst, int64_t n, int reps) {
    double by_memcpy = two_thread_time(n, reps, [&](int64_t b, int64_t e) { std::memcpy(dst + b, src + b, (size_t)(e - b) * 4); });
    double by_streaming = two_thread_time(n, reps, [&](int64_t b, int64_t e) { stream_copy(src + b, dst + b, e - b); });
    return std::min(by_memcpy, by_streaming);
}

// A plain read of every element: the float sum in 8 independent vector accumulators
// (SSE2; wide enough to be limited by the memory, not the adds, here). The sink keeps the
// compiler from dropping it.
std::atomic<float> g_read_sink{0};
void read_all(const float* x, int64_t n) {
#if defined(__SSE2__)
    __m128 acc[8];
    for (auto& a : acc) a = _mm_setzero_ps();
    int64_t i = 0;
    for (; i + 32 <= n; i += 32)
        for (int k = 0; k < 8; ++k) acc[k] = _mm_add_ps(acc[k], _mm_loadu_ps(x + i + 4 * k));
    for (int k = 1; k < 8; ++k) acc[0] = _mm_add_ps(acc[0], acc[k]);
    float lanes[4];
    _mm_storeu_ps(lanes, acc[0]);
    float s = lanes[0] + lanes[1] + lanes[2] + lanes[3];
#else
    float s = 0;
    int64_t i = 0;
#endif
    for (; i < n; ++i) s += x[i];
    g_read_sink.store(s, std::memory_order_relaxed);
}

void bandwidth(const bench::Options& opt, std::vector<bench::Result>& out) {
    Ctx ctx;
    if (!ctx.c) return;
    settle();
    const int64_t n = 10000000;
    int reps = opt.quick ? 5 : 20;
    std::vector<float> src((size_t)n, 1.0f), dst((size_t)n, 0.0f);
    double tcopy = copy_bandwidth_2t(src.data(), dst.data(), n, reps);
    double copy_bw = 2.0 * 4 * (double)n / tcopy;  // bytes read + written per second
    ember_tensor_t* a = random_tensor(ctx.c, {n}, -1, 1, 1);
    ember_tensor_t* b = random_tensor(ctx.c, {n}, -1, 1, 2);
    double tadd = time_add(ctx.c, a, b, reps);
    // Same bytes at the copy loop's rate: ratio = Ember's bandwidth / copy bandwidth.
    out.push_back({"add_f32_bandwidth", "1e7", "cpu", "copy_bandwidth_2t", tadd, 3.0 * 4 * (double)n / copy_bw});
    ember_tensor_t* d = random_tensor(ctx.c, {n}, 0, 1, 3);
    const ember_tensor_t* ab[2] = {a, b};
    double tinto = bench::best_of(reps, [&] { ember_elementwise_into(ctx.c, "add", ab, 2, d); });
    out.push_back({"add_into_f32_bandwidth", "1e7", "cpu", "copy_bandwidth_2t", tinto, 3.0 * 4 * (double)n / copy_bw});
    double tassign = bench::best_of(reps, [&] { ember_assign(ctx.c, d, a); });
    out.push_back({"assign_f32_bandwidth", "1e7", "cpu", "copy_bandwidth_2t", tassign, 2.0 * 4 * (double)n / copy_bw});
    ember_tensor_release(a);
    ember_tensor_release(b);
    ember_tensor_release(d);
    // The same copy's own scaling, 10 * t(1e6) / t(1e7): no Ember call in it. It bounds
    // what the scaling_* cases of memory-bound ops (add, sum) can reach on this machine,
    // since 1e6 float32 operands stay in the last-level cache and 1e7 do not.
    double tcopy6 = copy_bandwidth_2t(src.data(), dst.data(), n / 10, reps * 3);
    out.push_back({"copy_scaling_2t", "1e7", "cpu", "10x_time_at_1e6", tcopy, 10 * tcopy6});
    // What bounds sum and mean: this bench's own read of every element, on two threads and on
    // one. NumPy's sum runs on one thread, so sum's ratio against NumPy can exceed the
    // second thread's gain (read_2t against read_1t) only as far as NumPy's one thread
    // falls short of read_1t (numpy_baseline.py's sum_f32 against read_1t).
    double tread2 = two_thread_time(n, reps, [&](int64_t b, int64_t e) { read_all(src.data() + b, e - b); });
    double tread1 = bench::best_of(reps, [&] { read_all(src.data(), n); });
    ember_tensor_t* x = random_tensor(ctx.c, {n}, -1, 1, 4);
    out.push_back({"sum_f32_read_bandwidth", "1e7", "cpu", "read_2t", time_reduce(ctx.c, false, x, reps), tread2});
    out.push_back({"read_2t", "1e7", "cpu", "read_1t", tread2, tread1});
    ember_tensor_release(x);
}
bench::Register reg_bw("bandwidth", bandwidth);

}  // namespace
