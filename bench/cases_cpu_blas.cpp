// cpu backend: matmul through Ember against raw cblas_?gemm on the same operands, in the
// same process. (Added to ember-bench by backends/cpu/CMakeLists.txt when OpenBLAS is found.)
#include <cblas.h>

#include <chrono>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "bench.hpp"
#include "ember/ember.h"

namespace {

template <class T>
void one_size(ember_ctx_t* ctx, int n, int reps, const char* name, ember_dtype_t dt, std::vector<bench::Result>& out) {
    std::vector<T> a((size_t)n * n), b((size_t)n * n), c((size_t)n * n);
    std::mt19937 rng(7);
    std::uniform_real_distribution<double> u(-1, 1);
    for (auto& x : a) x = (T)u(rng);
    for (auto& x : b) x = (T)u(rng);
    int64_t shape[2] = {n, n};
    ember_tensor_t *ta, *tb, *tc;
    ember_tensor_from_data(ctx, a.data(), dt, shape, 2, &ta);
    ember_tensor_from_data(ctx, b.data(), dt, shape, 2, &tb);
    auto [te, tb_] = bench::best_of_pair(reps, [&] {
        ember_matmul(ctx, ta, tb, &tc);
        ember_tensor_release(tc);
    }, [&] {
        if constexpr (sizeof(T) == 4)
            cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, n, n, n, 1.0f, (const float*)a.data(), n, (const float*)b.data(), n, 0.0f,
                        (float*)c.data(), n);
        else
            cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, n, n, n, 1.0, (const double*)a.data(), n, (const double*)b.data(), n, 0.0,
                        (double*)c.data(), n);
    });
    out.push_back({name, std::to_string(n), "cpu", sizeof(T) == 4 ? "cblas_sgemm" : "cblas_dgemm", te, tb_});
    ember_tensor_release(ta);
    ember_tensor_release(tb);
}

// float16/bfloat16 operands (the same values as float32) against raw SGEMM on the float32
// values: what the conversions around Ember's SGEMM cost (OpenBLAS in Debian has no
// half-precision GEMM).
void one_size_half(ember_ctx_t* ctx, int n, int reps, const char* name, ember_dtype_t dt, std::vector<bench::Result>& out) {
    std::vector<float> a((size_t)n * n), b((size_t)n * n), c((size_t)n * n);
    std::mt19937 rng(7);
    std::uniform_real_distribution<float> u(-1, 1);
    for (auto& x : a) x = u(rng);
    for (auto& x : b) x = u(rng);
    int64_t shape[2] = {n, n};
    ember_tensor_t *fa, *fb, *ta, *tb, *tc;
    ember_tensor_from_data(ctx, a.data(), EMBER_FLOAT32, shape, 2, &fa);
    ember_tensor_from_data(ctx, b.data(), EMBER_FLOAT32, shape, 2, &fb);
    ember_astype(ctx, fa, dt, &ta);
    ember_astype(ctx, fb, dt, &tb);
    auto [te, tb_] = bench::best_of_pair(reps, [&] {
        ember_matmul(ctx, ta, tb, &tc);
        ember_tensor_release(tc);
    }, [&] {
        cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, n, n, n, 1.0f, a.data(), n, b.data(), n, 0.0f, c.data(), n);
    });
    out.push_back({name, std::to_string(n), "cpu", "cblas_sgemm_f32", te, tb_});
    for (ember_tensor_t* t : {fa, fb, ta, tb}) ember_tensor_release(t);
}

// An (n, n) matrix times an n-vector through Ember (our matrix-vector kernels) against raw
// cblas_?gemv on the same values in the same process; float16/bfloat16 against SGEMV on
// the float32 values (OpenBLAS in Debian has no half-precision GEMV).
void one_matvec(ember_ctx_t* ctx, int n, int reps, const char* name, ember_dtype_t dt, std::vector<bench::Result>& out) {
    std::vector<double> m((size_t)n * n), x(n), y(n);
    std::mt19937 rng(9);
    std::uniform_real_distribution<double> u(-1, 1);
    for (auto& e : m) e = u(rng);
    for (auto& e : x) e = u(rng);
    const std::vector<float> m32(m.begin(), m.end()), x32(x.begin(), x.end());
    std::vector<float> y32(n);
    int64_t mshape[2] = {n, n}, xshape[1] = {n};
    ember_tensor_t *tm64, *tx64, *tm, *tx, *ty;
    ember_tensor_from_data(ctx, m.data(), EMBER_FLOAT64, mshape, 2, &tm64);
    ember_tensor_from_data(ctx, x.data(), EMBER_FLOAT64, xshape, 1, &tx64);
    ember_astype(ctx, tm64, dt, &tm);
    ember_astype(ctx, tx64, dt, &tx);
    const bool f64 = dt == EMBER_FLOAT64;
    // Each side alone, not alternating: OpenBLAS's threads spin (yielding) for a while after
    // a call, and our pool's threads then share the two cores with them (a (1000, 1000)
    // float32 product took 140 us right after SGEMV, 32-38 alone). Ember's calls come
    // first, after OpenBLAS's threads have gone to sleep.
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    const double te = bench::best_of(reps, [&] {
        ember_matmul(ctx, tm, tx, &ty);
        ember_tensor_release(ty);
    });
    const double tb = bench::best_of(reps, [&] {
        if (f64) cblas_dgemv(CblasRowMajor, CblasNoTrans, n, n, 1.0, m.data(), n, x.data(), 1, 0.0, y.data(), 1);
        else cblas_sgemv(CblasRowMajor, CblasNoTrans, n, n, 1.0f, m32.data(), n, x32.data(), 1, 0.0f, y32.data(), 1);
    });
    const bool half = dt == EMBER_FLOAT16 || dt == EMBER_BFLOAT16;
    out.push_back({name, std::to_string(n) + "x" + std::to_string(n), "cpu", f64 ? "cblas_dgemv" : half ? "cblas_sgemv_f32" : "cblas_sgemv", te, tb});
    for (ember_tensor_t* t : {tm64, tx64, tm, tx}) ember_tensor_release(t);
}

void matmul(const bench::Options& opt, std::vector<bench::Result>& out) {
    ember_ctx_t* ctx;
    if (ember_ctx_create_on("cpu", 0, &ctx) != EMBER_OK) return;  // backend not available
    // 128: a product OpenBLAS threads whole, which the inner-dimension split once took at 3-4x its time
    std::vector<int> sizes = opt.quick ? std::vector<int>{128, 256, 512, 1024} : std::vector<int>{128, 256, 512, 1024, 2048};
    for (int n : sizes) {
        int reps = n <= 128 ? (opt.quick ? 20 : 100) : n <= 512 ? (opt.quick ? 5 : 20) : (opt.quick ? 3 : 9);
        one_size<float>(ctx, n, reps, "matmul_f32", EMBER_FLOAT32, out);
        one_size<double>(ctx, n, reps, "matmul_f64", EMBER_FLOAT64, out);
        if (n == 256 || n == 1024) {
            one_size_half(ctx, n, reps, "matmul_bf16", EMBER_BFLOAT16, out);
            one_size_half(ctx, n, reps, "matmul_f16", EMBER_FLOAT16, out);
        }
    }
    for (int n : opt.quick ? std::vector<int>{1000} : std::vector<int>{1000, 4096}) {
        const int reps = n <= 1000 ? (opt.quick ? 50 : 300) : (opt.quick ? 5 : 30);
        one_matvec(ctx, n, reps, "matvec_f32", EMBER_FLOAT32, out);
        one_matvec(ctx, n, reps, "matvec_f64", EMBER_FLOAT64, out);
        one_matvec(ctx, n, reps, "matvec_bf16", EMBER_BFLOAT16, out);
        one_matvec(ctx, n, reps, "matvec_f16", EMBER_FLOAT16, out);
    }
    ember_ctx_release(ctx);
}
bench::Register reg("matmul", matmul);

}  // namespace
