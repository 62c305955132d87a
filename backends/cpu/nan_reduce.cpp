// nansum, nanmean, nanmax, nanmin (COMPOSITE_KERNEL rows, docs/backend-guide.md): one pass per
// group of reduced elements that skips NaNs as it reads them. The composites make three to
// five passes and as many temporaries (isnan, where, the reduction, a count or all-NaN test).
// Taken: contiguous float32/float64 x reduced over its trailing axes (all of them, or the
// last ones: rows), and for nanmax/nanmin also over its leading ones (columns), the result in
// x's dtype; other layouts and dtypes are declined through
// the info output, and the core runs the composite. Sums are pairwise in double with sum's
// blocks and accumulators: a row without NaN sums bit for bit as sum's row kernel (a single
// group split across the pool is split in its own places). nanmean divides in double and
// rounds once; the composite divides in x's dtype (float32 counts above 2^24 round).
#include <algorithm>
#include <cmath>

#include "cpu_common.hpp"

namespace ember_cpu {
namespace {

enum NanOp { kNanSum, kNanMean, kNanMax, kNanMin };
constexpr const char* kNames[] = {"nansum", "nanmean", "nanmax", "nanmin"};

// What a stretch of a group leaves: the sum and count of its non-NaN values (sum, mean), or
// its extreme and whether it had a non-NaN value (max, min).
struct Partial {
    double value = 0;
    int64_t valid = 0;
};

Partial reduce_stretch(const void* x, int64_t n, NanOp op, bool twice) {
    Partial p;
    if (op == kNanSum || op == kNanMean) {
        p.value = g_isa->nan_sum[twice](x, n, &p.valid);
    } else {
        p.valid = g_isa->nan_extreme[twice][op == kNanMax](x, n, &p.value) ? 1 : 0;
    }
    return p;
}

Partial combine(Partial a, const Partial& b, NanOp op) {
    if (op == kNanSum || op == kNanMean) return {a.value + b.value, a.valid + b.valid};
    if (!b.valid) return a;
    if (!a.valid) return b;
    return {op == kNanMax ? std::max(a.value, b.value) : std::min(a.value, b.value), 1};
}

template <class T>
T result_of(const Partial& p, NanOp op) {
    switch (op) {
        case kNanSum: return (T)p.value;
        case kNanMean: return (T)(p.value / (double)p.valid);  // no valid value: 0 / 0, NaN
        default: return p.valid ? (T)p.value : (T)NAN;
    }
}

template <class T>
void rows_of(const T* x, int64_t rows, int64_t len, NanOp op, T* out) {
    constexpr bool twice = sizeof(T) == 8;
    if (rows == 1) {  // one long group: stretches of it across the pool
        const int64_t pieces = len < kParallelCheap ? 1 : std::min<int64_t>(num_threads(), 16);
        Partial part[16];
        parallel_tasks(pieces, [&](int64_t t) {
            const int64_t b = len * t / pieces, e = len * (t + 1) / pieces;
            part[t] = reduce_stretch(x + b, e - b, op, twice);
        });
        Partial all = part[0];
        for (int64_t t = 1; t < pieces; ++t) all = combine(all, part[t], op);
        out[0] = result_of<T>(all, op);
        return;
    }
    parallel_range(rows, std::max<int64_t>(1, kParallelCheap / len), 1, [&](int64_t begin, int64_t end) {
        for (int64_t r = begin; r < end; ++r) out[r] = result_of<T>(reduce_stretch(x + r * len, len, op, twice), op);
    });
}

// nanmax/nanmin over the leading axes (columns of a matrix): rows folded one after another into
// a row of running extremes (the ISA table's nan_fold). The pool's tasks take stretches of
// rows (each reads contiguous memory: blocks of columns read a piece of every row, a 4 KiB
// page apart, at twice the time), and their rows of extremes are folded in row order, which
// gives the sequential result (the fold keeps the first of equal values). Through the composite (isnan, where, max and an
// all-NaN test) nanmax(axis=0) of a (1000, 1000) float32 ran at 0.2x NumPy.
template <class T, bool Max>
void columns_of(const T* x, int64_t rows, int64_t cols, T* out) {
    const NanFoldFn fold_row = g_isa->nan_fold[sizeof(T) == 8][Max];
    const int64_t pieces = rows * cols < kParallelCheap ? 1 : std::min<int64_t>({num_threads(), rows, 16});
    Scratch<T> partial((pieces - 1) * cols);  // piece 0 folds into out itself
    parallel_tasks(pieces, [&](int64_t p) {
        const int64_t r0 = rows * p / pieces, r1 = rows * (p + 1) / pieces;
        T* acc = p == 0 ? out : partial.data + (p - 1) * cols;
        std::copy(x + r0 * cols, x + (r0 + 1) * cols, acc);
        for (int64_t r = r0 + 1; r < r1; ++r) fold_row(x + r * cols, acc, cols);
    });
    for (int64_t p = 1; p < pieces; ++p) fold_row(partial.data + (p - 1) * cols, out, cols);
}

// The leading-axes layout: contiguous float32/float64 x reduced over its first axes, not all.
template <NanOp Op>
bool leading_columns(const ember_kernel_call_t* c) {
    const ember_view_t &x = c->in[0], &out = c->out[0];
    int lead = 0;
    while (lead < x.ndim && (c->attrs->axes_mask >> lead & 1)) ++lead;
    if ((Op != kNanMax && Op != kNanMin) || lead == 0 || lead == x.ndim || c->attrs->axes_mask >> lead != 0) return false;
    if (x.dtype != out.dtype || (x.dtype != EMBER_FLOAT32 && x.dtype != EMBER_FLOAT64) || !is_contiguous(x) || !is_contiguous(out)) return false;
    int64_t rows = 1;
    for (int d = 0; d < lead; ++d) rows *= x.shape[d];
    const int64_t cols = numel(out);
    if (rows == 0 || cols == 0 || rows * cols != numel(x)) return false;
    if (x.dtype == EMBER_FLOAT32) columns_of<float, Op == kNanMax>((const float*)base_ptr(x), rows, cols, (float*)base_ptr(out));
    else columns_of<double, Op == kNanMax>((const double*)base_ptr(x), rows, cols, (double*)base_ptr(out));
    return true;
}

template <NanOp Op>
ember_status_t nan_reduce_kernel(const ember_kernel_call_t* c) {
    TrailingRows r;
    if (ember_status_t st = trailing_rows(c, kNames[Op], r)) return st;
    if (!r.taken) {
        if (leading_columns<Op>(c)) *r.info = 0;
        return EMBER_OK;
    }
    const ember_view_t &x = c->in[0], &out = c->out[0];
    if (!r.twice) rows_of((const float*)base_ptr(x), r.rows, r.len, Op, (float*)base_ptr(out));
    else rows_of((const double*)base_ptr(x), r.rows, r.len, Op, (double*)base_ptr(out));
    *r.info = 0;
    return EMBER_OK;
}

}  // namespace

void add_nan_reduce_kernels(std::vector<NativeKernel>& k) {
    k.push_back({"nansum", nan_reduce_kernel<kNanSum>, 0, true});
    k.push_back({"nanmean", nan_reduce_kernel<kNanMean>, 0, true});
    k.push_back({"nanmax", nan_reduce_kernel<kNanMax>, 0, true});
    k.push_back({"nanmin", nan_reduce_kernel<kNanMin>, 0, true});
}

}  // namespace ember_cpu
