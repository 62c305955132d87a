// bincount and histogram (COMPOSITE_KERNEL rows, docs/backend-guide.md). bincount counts in one
// pass over x, where
// the composite makes a column of ones and scatter-adds it through the reference's general
// scatter. Unweighted counts are split across the pool, each thread with tables of its own
// (integer sums: any order gives the same counts); weighted sums run in x's order on one
// thread, so they round as the composite's scatter does. The core has checked that every
// value lies in [0, n); a value outside (a broken caller) or an unhandled weights dtype is
// declined through info, and the core runs the composite.
#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstring>
#include <vector>

#include "cpu_common.hpp"

namespace ember_cpu {
namespace {

// Counts of x[i * step], i in [begin, end), into `lanes` interleaved tables of `bins` each
// (consecutive equal values then update different tables instead of waiting on each
// other's stores); false where a value is outside [0, bins).
template <class I>
bool count_stretch(const I* x, int64_t step, int64_t begin, int64_t end, int64_t bins, int lanes, int64_t* tables) {
    bool inside = true;
    int64_t i = begin;
    if (lanes == 4)
        for (; i + 4 <= end; i += 4) {
            const uint64_t v0 = (uint64_t)x[i * step], v1 = (uint64_t)x[(i + 1) * step], v2 = (uint64_t)x[(i + 2) * step], v3 = (uint64_t)x[(i + 3) * step];
            inside &= (v0 < (uint64_t)bins) & (v1 < (uint64_t)bins) & (v2 < (uint64_t)bins) & (v3 < (uint64_t)bins);
            if (!inside) return false;
            ++tables[v0];
            ++tables[bins + v1];
            ++tables[2 * bins + v2];
            ++tables[3 * bins + v3];
        }
    for (; i < end; ++i) {
        const uint64_t v = (uint64_t)x[i * step];
        if (v >= (uint64_t)bins) return false;
        ++tables[v];
    }
    return true;
}

template <class I>
bool count_all(const I* x, int64_t step, int64_t n, int64_t bins, int64_t* out) {
    const int lanes = bins <= (1 << 14) ? 4 : 1;
    int64_t parts = n >= kParallelCheap ? num_threads() : 1;
    if ((double)parts * lanes * bins > (double)(n + (1 << 16))) parts = 1;  // tables larger than the data: one
    if (parts * lanes == 1) {  // one table: out itself (a wide range needs no second copy of it)
        std::fill(out, out + bins, int64_t(0));
        return count_stretch(x, step, 0, n, bins, 1, out);
    }
    std::vector<int64_t> tables((size_t)(parts * lanes * bins), 0);
    std::atomic<bool> inside{true};
    parallel_tasks(parts, [&](int64_t t) {
        if (!count_stretch(x, step, n * t / parts, n * (t + 1) / parts, bins, lanes, tables.data() + t * lanes * bins)) inside.store(false);
    });
    if (!inside.load()) return false;
    const int64_t tables_n = parts * lanes;
    for (int64_t b = 0; b < bins; ++b) {
        int64_t s = 0;
        for (int64_t k = 0; k < tables_n; ++k) s += tables[(size_t)(k * bins + b)];
        out[b] = s;
    }
    return true;
}

template <class I, class W>
bool sum_weights(const I* x, int64_t xstep, const W* w, int64_t wstep, int64_t n, int64_t bins, W* out) {
    std::fill(out, out + bins, W(0));
    for (int64_t i = 0; i < n; ++i) {
        const uint64_t v = (uint64_t)x[i * xstep];
        if (v >= (uint64_t)bins) return false;
        out[v] += w[i * wstep];
    }
    return true;
}

ember_status_t bincount_kernel(const ember_kernel_call_t* c) {
    if (c->n_in < 1 || c->n_in > 2 || c->n_out != 2 || c->out[1].dtype != EMBER_INT64 || numel(c->out[1]) != 1)
        return g_host->fail(EMBER_ERR_INVALID_ARGUMENT, "cpu bincount: needs x (and weights), and outputs counts and info (one int64)");
    const ember_view_t &x = c->in[0], &out = c->out[0];
    int64_t* info = (int64_t*)base_ptr(c->out[1]);
    *info = 1;
    const bool weighted = c->n_in == 2;
    if (x.ndim != 1 || out.ndim != 1 || !is_contiguous(out) || (weighted && (c->in[1].ndim != 1 || c->in[1].shape[0] != x.shape[0])))
        return EMBER_OK;  // declined
    const int64_t n = x.shape[0], bins = out.shape[0];
    bool done = false;
    visit_real(x.dtype, [&](auto xt) {
        using I = decltype(xt);
        if constexpr (std::is_integral_v<I>) {
            const I* xs = (const I*)base_ptr(x);
            if (!weighted) {
                if (out.dtype == EMBER_INT64) done = count_all(xs, x.strides[0], n, bins, (int64_t*)base_ptr(out));
            } else if (out.dtype == c->in[1].dtype && (out.dtype == EMBER_FLOAT32 || out.dtype == EMBER_FLOAT64)) {
                const ember_view_t& w = c->in[1];
                if (out.dtype == EMBER_FLOAT32) done = sum_weights(xs, x.strides[0], (const float*)base_ptr(w), w.strides[0], n, bins, (float*)base_ptr(out));
                else done = sum_weights(xs, x.strides[0], (const double*)base_ptr(w), w.strides[0], n, bins, (double*)base_ptr(out));
            }
        }
    });
    if (done) *info = 0;
    return EMBER_OK;
}

// histogram: the bin of each x in [lo, hi] as the composite finds it (numpy's uniform-bin
// path), step for step: the first guess ((x - lo) / (hi - lo)) * bins converted as the
// reference's astype does (NaN to 0, saturating) and capped at the last bin, then moved down
// where x < edges[b] and up where x >= edges[b + 1]. Where hi - lo overflows or the edges
// repeat, the bins are the composite's too. Values outside [lo, hi] and NaN are skipped.
struct Binning {
    const double* edges;
    double lo, hi, span;
    int64_t bins;
    // The bin of v, or -1 where v is outside [lo, hi].
    int64_t operator()(double v) const {
        if (!(v >= lo && v <= hi)) return -1;
        const double guess = (v - lo) / span * (double)bins;  // >= 0, or NaN (inf / inf)
        int64_t b = guess != guess ? 0 : guess >= (double)(bins - 1) ? bins - 1 : (int64_t)guess;
        if (v < edges[b]) b = std::max<int64_t>(b - 1, 0);
        if (b != bins - 1 && v >= edges[b + 1]) ++b;
        return b;
    }
};

template <class X>
void histogram_counts(const X* x, int64_t step, int64_t n, const Binning& bin, int64_t* out) {
    const int64_t bins = bin.bins;
    int64_t parts = n >= kParallelCheap / 4 ? num_threads() : 1;
    if ((double)parts * bins > (double)(n + (1 << 16))) parts = 1;
    if (parts == 1) {  // out itself
        std::fill(out, out + bins, int64_t(0));
        for (int64_t i = 0; i < n; ++i) {
            const int64_t b = bin((double)x[i * step]);
            if (b >= 0) ++out[b];
        }
        return;
    }
    std::vector<int64_t> tables((size_t)(parts * bins), 0);
    parallel_tasks(parts, [&](int64_t t) {
        int64_t* table = tables.data() + t * bins;
        for (int64_t i = n * t / parts, end = n * (t + 1) / parts; i < end; ++i) {
            const int64_t b = bin((double)x[i * step]);
            if (b >= 0) ++table[b];
        }
    });
    for (int64_t b = 0; b < bins; ++b) {
        int64_t s = 0;
        for (int64_t t = 0; t < parts; ++t) s += tables[(size_t)(t * bins + b)];
        out[b] = s;
    }
}

template <class X, class W>
void histogram_weights(const X* x, int64_t step, const W* w, int64_t wstep, int64_t n, const Binning& bin, W* out) {
    std::fill(out, out + bin.bins, W(0));
    for (int64_t i = 0; i < n; ++i) {
        const int64_t b = bin((double)x[i * step]);
        if (b >= 0) out[b] += w[i * wstep];
    }
}

// in: x (1-d, real), edges (float64, bins + 1, contiguous), weights (optional, 1-d, the
// result's dtype); attrs f[0] lo, f[1] hi; out: counts (int64, or the weights' dtype), info.
// Taken: any real x; float32 and float64 weights (others declined).
ember_status_t histogram_kernel(const ember_kernel_call_t* c) {
    if (c->n_in < 2 || c->n_in > 3 || c->n_out != 2 || c->out[1].dtype != EMBER_INT64 || numel(c->out[1]) != 1)
        return g_host->fail(EMBER_ERR_INVALID_ARGUMENT, "cpu histogram: needs x, edges (and weights), and outputs counts and info (one int64)");
    const ember_view_t &x = c->in[0], &edges = c->in[1], &out = c->out[0];
    int64_t* info = (int64_t*)base_ptr(c->out[1]);
    *info = 1;
    const bool weighted = c->n_in == 3;
    const int64_t bins = out.ndim == 1 ? out.shape[0] : 0;
    const Binning bin{(const double*)base_ptr(edges), c->attrs->f[0], c->attrs->f[1], c->attrs->f[1] - c->attrs->f[0], bins};
    if (x.ndim != 1 || bins < 1 || !is_contiguous(out) || edges.dtype != EMBER_FLOAT64 || edges.ndim != 1 || edges.shape[0] != bins + 1 ||
        !is_contiguous(edges) || (weighted && (c->in[2].ndim != 1 || c->in[2].shape[0] != x.shape[0])))
        return EMBER_OK;  // declined
    const int64_t n = x.shape[0];
    bool done = false;
    visit_real(x.dtype, [&](auto xt) {
        using X = decltype(xt);
        const X* xs = (const X*)base_ptr(x);
        if (!weighted) {
            if (out.dtype == EMBER_INT64) histogram_counts(xs, x.strides[0], n, bin, (int64_t*)base_ptr(out)), done = true;
            return;
        }
        const ember_view_t& w = c->in[2];
        if (w.dtype != out.dtype) return;
        if (out.dtype == EMBER_FLOAT32) histogram_weights(xs, x.strides[0], (const float*)base_ptr(w), w.strides[0], n, bin, (float*)base_ptr(out)), done = true;
        if (out.dtype == EMBER_FLOAT64) histogram_weights(xs, x.strides[0], (const double*)base_ptr(w), w.strides[0], n, bin, (double*)base_ptr(out)), done = true;
    });
    if (done) *info = 0;
    return EMBER_OK;
}

}  // namespace

void add_counting_kernels(std::vector<NativeKernel>& k) {
    k.push_back({"bincount", bincount_kernel, 0, true});
    k.push_back({"histogram", histogram_kernel, 0, true});
}

}  // namespace ember_cpu
