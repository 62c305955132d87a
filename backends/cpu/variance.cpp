// var and std (COMPOSITE_KERNEL rows, docs/backend-guide.md): each group of reduced elements
// in two passes over memory it has just read, in double: the pairwise sum for the mean,
// then the pairwise sum of squared deviations from it. The composite makes four passes and
// two temporaries (mean, x - mean, its square, their sum) and rounds each to x's dtype.
// Taken: float32/float64 x, contiguous, reducing its trailing axes (all of them, or the
// last ones: rows); other layouts and complex x are declined through the info output, and
// the core runs the composite. Working in double, float32 results stay finite where the
// composite's float32 squares overflow (|x - mean| above ~1.8e19) or lose subnormal ones.
#include <cmath>

#include "cpu_common.hpp"

namespace ember_cpu {
namespace {

template <class T>
T variance_of(double squares, int64_t len, double ddof, bool root) {
    const double v = squares / std::max((double)len - ddof, 0.0);  // ddof >= len: inf, or nan for 0/0 (NumPy)
    return (T)(root ? std::sqrt(v) : v);
}

// One long group: pieces of it across the pool, for the sum and then for the squares.
template <class T>
T one_group(const T* x, int64_t len, double ddof, bool root, int dt) {
    const int64_t pieces = len < kParallelCheap ? 1 : std::min<int64_t>(num_threads(), 16);
    double part[16] = {};
    auto bounds = [&](int64_t t, int64_t& b, int64_t& e) {
        b = len * t / pieces;
        e = len * (t + 1) / pieces;
    };
    parallel_tasks(pieces, [&](int64_t t) {
        int64_t b, e;
        bounds(t, b, e);
        g_isa->row[R_SUM][dt](x + b, e - b, &part[t]);
    });
    double sum = 0;
    for (int64_t t = 0; t < pieces; ++t) sum += part[t];
    const double mean = sum / (double)len;
    parallel_tasks(pieces, [&](int64_t t) {
        int64_t b, e;
        bounds(t, b, e);
        part[t] = g_isa->squared_deviations[sizeof(T) == 8](x + b, e - b, mean);
    });
    double squares = 0;
    for (int64_t t = 0; t < pieces; ++t) squares += part[t];
    return variance_of<T>(squares, len, ddof, root);
}

template <class T>
void rows_of(const T* x, int64_t rows, int64_t len, double ddof, bool root, int dt, T* out) {
    if (rows == 1) {
        out[0] = one_group(x, len, ddof, root, dt);
        return;
    }
    parallel_range(rows, std::max<int64_t>(1, kParallelCheap / len), 1, [&](int64_t begin, int64_t end) {
        for (int64_t r = begin; r < end; ++r) {
            const T* row = x + r * len;
            double sum = 0;
            g_isa->row[R_SUM][dt](row, len, &sum);
            const double squares = g_isa->squared_deviations[sizeof(T) == 8](row, len, sum / (double)len);
            out[r] = variance_of<T>(squares, len, ddof, root);
        }
    });
}

template <bool Root>
ember_status_t variance_kernel(const ember_kernel_call_t* c) {
    TrailingRows r;
    if (ember_status_t st = trailing_rows(c, Root ? "std" : "var", r)) return st;
    if (!r.taken) return EMBER_OK;
    const ember_view_t &x = c->in[0], &out = c->out[0];
    const double ddof = c->attrs->f[0];
    if (!r.twice) rows_of((const float*)base_ptr(x), r.rows, r.len, ddof, Root, EMBER_FLOAT32, (float*)base_ptr(out));
    else rows_of((const double*)base_ptr(x), r.rows, r.len, ddof, Root, EMBER_FLOAT64, (double*)base_ptr(out));
    *r.info = 0;
    return EMBER_OK;
}

}  // namespace

ember_status_t trailing_rows(const ember_kernel_call_t* c, const char* name, TrailingRows& r) {
    r = TrailingRows{};
    if (c->n_in != 1 || c->n_out != 2 || c->out[1].dtype != EMBER_INT64 || numel(c->out[1]) != 1)
        return g_host->fail(EMBER_ERR_INVALID_ARGUMENT, "cpu %s: needs x, and outputs result and info (one int64)", name);
    const ember_view_t &x = c->in[0], &out = c->out[0];
    r.info = (int64_t*)base_ptr(c->out[1]);
    *r.info = 1;
    const int k = trailing_axes(c->attrs->axes_mask, x.ndim);
    const bool single = x.dtype == EMBER_FLOAT32 && out.dtype == EMBER_FLOAT32;
    r.twice = x.dtype == EMBER_FLOAT64 && out.dtype == EMBER_FLOAT64;
    r.len = 1;
    for (int d = x.ndim - k; d < x.ndim && k > 0; ++d) r.len *= x.shape[d];
    if (k <= 0 || !(single || r.twice) || !is_contiguous(x) || !is_contiguous(out) || r.len == 0) return EMBER_OK;  // declined
    r.rows = numel(x) / r.len;
    if (r.rows != numel(out)) return g_host->fail(EMBER_ERR_INVALID_ARGUMENT, "cpu %s: the output does not have the kept shape", name);
    r.taken = true;
    return EMBER_OK;
}

void add_variance_kernels(std::vector<NativeKernel>& k) {
    k.push_back({"var", variance_kernel<false>, 0, true});
    k.push_back({"std", variance_kernel<true>, 0, true});
}

}  // namespace ember_cpu
