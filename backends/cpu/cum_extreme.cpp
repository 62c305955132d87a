// cummax, cummin (COMPOSITE_KERNEL rows, docs/backend-guide.md): one pass along the axis,
// where the composite makes log2(n) passes of maximum over shifted halves joined by concat.
// A NaN propagates from where it appears, as the composite's maximum/minimum propagate it.
// in: x, contiguous, any integer, bool, float32 or float64 dtype; out: same shape and dtype;
// attrs i[0]: the axis (0..ndim-1).
#include <algorithm>

#include "cpu_common.hpp"

namespace ember_cpu {
namespace {

template <class T, bool Max>
inline T running(T acc, T v) {
    const bool take = Max ? v > acc : v < acc;
    return (take || is_nan(v)) ? v : acc;  // a NaN acc fails every comparison and stays
}

// Lines [begin, end) of a (outer, n, inner) block: row i of each line from row i - 1 and x.
template <class T, bool Max>
void scan_lines(const T* x, T* out, int64_t n, int64_t inner, int64_t begin, int64_t end) {
    for (int64_t o = begin; o < end; ++o) {
        const T* xs = x + o * n * inner;
        T* os = out + o * n * inner;
        if (inner == 1) {  // one dependent chain: plain max/min until the first NaN, then NaN
            T acc = xs[0];
            os[0] = acc;
            int64_t i = 1;
            for (; i < n && !is_nan(acc); ++i) {
                const T v = xs[i];
                if (is_nan(v)) {  // this row and the rest: the loop below
                    acc = v;
                    break;
                }
                acc = Max ? (acc > v ? acc : v) : (acc < v ? acc : v);
                os[i] = acc;
            }
            for (; i < n; ++i) os[i] = acc;
            continue;
        }
        std::copy(xs, xs + inner, os);
        for (int64_t i = 1; i < n; ++i) {
            const T* prev = os + (i - 1) * inner;
            const T* row = xs + i * inner;
            T* dst = os + i * inner;
            for (int64_t j = 0; j < inner; ++j) dst[j] = running<T, Max>(prev[j], row[j]);
        }
    }
}

template <bool Max>
ember_status_t cum_extreme_kernel(const ember_kernel_call_t* c) {
    const char* name = Max ? "cummax" : "cummin";
    if (c->n_in != 1 || c->n_out != 1) return g_host->fail(EMBER_ERR_INVALID_ARGUMENT, "cpu %s: needs one input and one output", name);
    const ember_view_t &x = c->in[0], &out = c->out[0];
    const int axis = (int)c->attrs->i[0];
    if (x.ndim < 1 || axis < 0 || axis >= x.ndim || !is_contiguous(x) || !is_contiguous(out) || x.dtype != out.dtype || numel(x) != numel(out))
        return g_host->fail(EMBER_ERR_INVALID_ARGUMENT, "cpu %s: needs contiguous x and out of one dtype and an axis in range", name);
    int64_t outer = 1, inner = 1;
    for (int d = 0; d < axis; ++d) outer *= x.shape[d];
    for (int d = axis + 1; d < x.ndim; ++d) inner *= x.shape[d];
    const int64_t n = x.shape[axis];
    if (numel(x) == 0) return EMBER_OK;
    const int32_t dt = x.dtype == EMBER_BOOL ? EMBER_UINT8 : x.dtype;  // bools as 0/1 bytes: max is or
    const bool known = visit_real(dt, [&](auto t) {
        using T = decltype(t);
        const T* xs = (const T*)base_ptr(x);
        T* os = (T*)base_ptr(out);
        parallel_range(outer, std::max<int64_t>(1, kParallelCheap / std::max<int64_t>(1, n * inner)), 1,
                       [&](int64_t begin, int64_t end) { scan_lines<T, Max>(xs, os, n, inner, begin, end); });
    });
    if (!known) return g_host->fail(EMBER_ERR_UNSUPPORTED_DTYPE, "cpu %s: dtype %d is not supported", name, (int)x.dtype);
    return EMBER_OK;
}

}  // namespace

void add_cum_extreme_kernels(std::vector<NativeKernel>& k) {
    k.push_back({"cummax", cum_extreme_kernel<true>, 0, true});
    k.push_back({"cummin", cum_extreme_kernel<false>, 0, true});
}

}  // namespace ember_cpu
