// logsumexp, overriding the composite under the REDUCE convention (axes in attrs->axes_mask,
// the output in the kept shape). The composite makes five passes over memory and three
// temporaries of x's size (x - max, its exp, ...); here x is read from memory once:
//   rows (the reduced axes trailing, x contiguous): each row's maximum, then exp(x - max)
//     summed while the row sits in L1; one long row in pieces across the pool, each
//     piece's sum rescaled to the largest maximum;
//   columns (the reduced axes leading, x contiguous): blocks of columns, their running
//     maxima and sums carried down chunks of rows (a sum rescaled where a chunk raises its
//     maximum), through the ISA's column kernels;
//   any other layout, and float16/bfloat16: copied with the reduced axes last into a
//     float32/float64 scratch (the native astype), then as rows.
// As the composite: a group whose maximum is not finite is not shifted (+inf gives +inf,
// all -inf gives -inf, a NaN gives NaN), an empty group gives -inf. Sums run in double and
// the result is rounded once (the composite rounds every step to x's dtype).
#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "cpu_common.hpp"

namespace ember_cpu {
namespace {

constexpr int64_t kChunk = 1024;     // elements exponentiated per vector call (in L1)
constexpr int64_t kMaxPieces = 16;   // pieces of one long row

template <class T>
T shift_of(T m) {
    return std::isfinite(m) ? m : T(0);
}

template <class T>
T max_of(const T* x, int64_t n, int dt) {
    T m = -std::numeric_limits<T>::infinity();
    g_isa->row[R_MAX][dt](x, n, &m);
    return m;
}

// The sum of exp(x[k] - shift) over k < n, in double.
template <class T>
double exp_sum(const T* x, int64_t n, T shift, int dt) {
    alignas(64) T tmp[kChunk];
    const UnFn vexp = g_isa->un[U_EXP][dt];
    double total = 0;
    for (int64_t i = 0; i < n; i += kChunk) {
        const int64_t m = std::min(kChunk, n - i);
        g_isa->bin[B_SUB][dt](x + i, &shift, tmp, m, 2);
        if (vexp) vexp(tmp, tmp, m, 0);
        else
            for (int64_t k = 0; k < m; ++k) tmp[k] = std::exp(tmp[k]);
        double acc = 0;
        g_isa->row[R_SUM][dt](tmp, m, &acc);
        total += acc;
    }
    return total;
}

template <class T>
double one_row(const T* x, int64_t n, int dt) {
    const T shift = shift_of(max_of(x, n, dt));
    return (double)shift + std::log(exp_sum(x, n, shift, dt));
}

// One long row in pieces across the pool, combined as sum_p s_p * exp(shift_p - shift).
template <class T>
double one_long_row(const T* x, int64_t n, int dt) {
    const int64_t pieces = std::min<int64_t>(num_threads(), kMaxPieces);
    T maxima[kMaxPieces];
    double sums[kMaxPieces];
    parallel_tasks(pieces, [&](int64_t p) {
        const int64_t b = n * p / pieces, e = n * (p + 1) / pieces;
        maxima[p] = max_of(x + b, e - b, dt);
        sums[p] = exp_sum(x + b, e - b, shift_of(maxima[p]), dt);
    });
    T m = -std::numeric_limits<T>::infinity();
    for (int64_t p = 0; p < pieces; ++p) {
        if (std::isnan(maxima[p])) return std::numeric_limits<double>::quiet_NaN();
        m = std::max(m, maxima[p]);
    }
    const double shift = shift_of(m);
    double sum = 0;
    for (int64_t p = 0; p < pieces; ++p)
        if (sums[p] != 0) sum += sums[p] * std::exp((double)shift_of(maxima[p]) - shift);  // 0 * inf would be NaN
    return shift + std::log(sum);
}

template <class T>
void rows_of(const T* x, int64_t rows, int64_t len, int dt, double* res) {
    if (rows == 1 && len >= kParallelCostly) {
        res[0] = one_long_row(x, len, dt);
        return;
    }
    parallel_range(rows, std::max<int64_t>(1, kParallelCostly / std::max<int64_t>(1, len)), 1, [&](int64_t begin, int64_t end) {
        for (int64_t r = begin; r < end; ++r) res[r] = one_row(x + r * len, len, dt);
    });
}

// x as (len, width), reduced along its rows: blocks of kWidth columns, kRows rows at a time
// through the ISA's column kernels (read twice while in L1: for their maxima, then for the
// sums of exp(x - shift)).
template <class T>
void columns_of(const T* x, int64_t len, int64_t width, int dt, double* res) {
    constexpr int64_t kWidth = 256, kRows = 2 * kColRows;
    const UnFn vexp = g_isa->un[U_EXP][dt];
    const int64_t blocks = (width + kWidth - 1) / kWidth;
    parallel_range(blocks, std::max<int64_t>(1, kParallelCostly / std::max<int64_t>(1, len * kWidth)), 1, [&](int64_t begin, int64_t end) {
        alignas(64) T maxima[kWidth], shift[kWidth], tmp[kRows * kWidth];
        alignas(64) double sum[kWidth];
        const void* rows[kRows];
        for (int64_t blk = begin; blk < end; ++blk) {
            const int64_t c0 = blk * kWidth, w = std::min(kWidth, width - c0);
            for (int64_t c = 0; c < w; ++c) {
                maxima[c] = -std::numeric_limits<T>::infinity();
                shift[c] = 0;
                sum[c] = 0;
            }
            for (int64_t k0 = 0; k0 < len; k0 += kRows) {
                const int nk = (int)std::min(kRows, len - k0);
                for (int k = 0; k < nk; ++k) rows[k] = x + (k0 + k) * width + c0;
                for (int k = 0; k < nk; k += kColRows) g_isa->col[R_MAX][dt](rows + k, std::min(nk - k, kColRows), w, maxima);
                for (int64_t c = 0; c < w; ++c) {
                    const T s = shift_of(maxima[c]);
                    if (s != shift[c]) {
                        if (sum[c] != 0) sum[c] *= std::exp((double)shift[c] - (double)s);
                        shift[c] = s;
                    }
                }
                for (int k = 0; k < nk; ++k) {
                    g_isa->bin[B_SUB][dt](rows[k], shift, tmp + k * w, w, 0);
                    rows[k] = tmp + k * w;
                }
                if (vexp) vexp(tmp, tmp, nk * w, 0);
                else
                    for (int64_t k = 0; k < nk * w; ++k) tmp[k] = std::exp(tmp[k]);
                for (int k = 0; k < nk; k += kColRows) g_isa->col[R_SUM][dt](rows + k, std::min(nk - k, kColRows), w, sum);
            }
            for (int64_t c = 0; c < w; ++c) res[c0 + c] = (double)shift[c] + std::log(sum[c]);
        }
    });
}

// The number of leading axes mask reduces, or -1 where it is not a leading block.
int leading_axes(uint64_t mask, int ndim) {
    int k = 0;
    while (k < ndim && (mask >> k & 1)) ++k;
    for (int d = k; d < ndim; ++d)
        if (mask >> d & 1) return -1;
    return k;
}

template <class T>
ember_status_t run(const ember_kernel_call_t* c, const ember_view_t& x, uint64_t mask, int64_t len, double* res) {
    const int dt = sizeof(T) == 8 ? EMBER_FLOAT64 : EMBER_FLOAT32;
    const int64_t groups = numel(x) / len;
    if (x.dtype == dt && is_contiguous(x)) {
        if (trailing_axes(mask, x.ndim) > 0) {
            rows_of((const T*)base_ptr(x), groups, len, dt, res);
            return EMBER_OK;
        }
        const int lead = leading_axes(mask, x.ndim);
        if (lead > 0 && lead < x.ndim) {
            columns_of((const T*)base_ptr(x), len, groups, dt, res);
            return EMBER_OK;
        }
    }
    // The kept axes first, then the reduced ones, copied in that order as T.
    int64_t shape[EMBER_MAX_DIMS], strides[EMBER_MAX_DIMS], packed[EMBER_MAX_DIMS];
    int nd = 0;
    for (int pass = 0; pass < 2; ++pass)
        for (int d = 0; d < x.ndim; ++d)
            if ((mask >> d & 1) == (uint64_t)pass) {
                shape[nd] = x.shape[d];
                strides[nd++] = x.strides[d];
            }
    int64_t step = 1;
    for (int d = x.ndim - 1; d >= 0; --d) {
        packed[d] = step;
        step *= shape[d];
    }
    std::vector<T> scratch((size_t)numel(x));
    const ember_view_t permuted{x.data, x.offset, x.dtype, x.ndim, shape, strides};
    const ember_view_t dst{scratch.data(), 0, dt, x.ndim, shape, packed};
    if (ember_status_t st = copy_in_c_order(c, permuted, dst)) return st;
    rows_of(scratch.data(), groups, len, dt, res);
    return EMBER_OK;
}

ember_status_t logsumexp_kernel(const ember_kernel_call_t* c) {
    const ember_view_t &x = c->in[0], &o = c->out[0];
    const int slot = half_slot(x.dtype);
    if ((x.dtype != EMBER_FLOAT32 && x.dtype != EMBER_FLOAT64 && slot < 0) || o.dtype != x.dtype)
        return g_host->fail(EMBER_ERR_UNSUPPORTED_DTYPE, "cpu logsumexp: dtype %d is not a real float", (int)x.dtype);
    const uint64_t mask = c->attrs->axes_mask;
    int64_t len = 1;
    for (int d = 0; d < x.ndim; ++d)
        if (mask >> d & 1) len *= x.shape[d];
    const int64_t groups = numel(o);
    if (groups == 0) return EMBER_OK;
    std::vector<double> res((size_t)groups, -std::numeric_limits<double>::infinity());  // empty groups: log(0)
    if (len > 0) {
        const ember_status_t st = x.dtype == EMBER_FLOAT64 ? run<double>(c, x, mask, len, res.data()) : run<float>(c, x, mask, len, res.data());
        if (st != EMBER_OK) return st;
    }
    // Into the output in C order of the kept axes, rounded once.
    std::vector<char> packed;
    const bool direct = is_contiguous(o);
    if (!direct) packed.resize((size_t)groups * itemsize_of(o.dtype));
    char* dst = direct ? base_ptr(o) : packed.data();
    if (x.dtype == EMBER_FLOAT64) std::copy(res.begin(), res.end(), (double*)dst);
    else g_isa->cvt[C_F64][slot >= 0 ? slot : C_F32](res.data(), dst, groups);
    if (direct) return EMBER_OK;
    int64_t strides[EMBER_MAX_DIMS], step = 1;
    for (int d = o.ndim - 1; d >= 0; --d) {
        strides[d] = step;
        step *= o.shape[d];
    }
    const ember_view_t src{packed.data(), 0, o.dtype, o.ndim, o.shape, strides};
    return copy_in_c_order(c, src, o);
}

}  // namespace

void add_logsumexp_kernel(std::vector<NativeKernel>& k) { k.push_back({"logsumexp", logsumexp_kernel, 0, true}); }

}  // namespace ember_cpu
