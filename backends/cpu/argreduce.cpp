// argmax/argmin along a contiguous axis. The reference's answer is the position of the first
// extreme value, or of the first NaN if there is one (extreme_of says how). Long lines are
// split into stretches across the pool and combined in order (ties keep the earlier
// stretch); many lines run in parallel. Other layouts and dtypes run the reference's code
// on slices (line_ops.cpp).
#include <algorithm>
#include <limits>
#include <type_traits>
#include <vector>

#include "../common/float16.hpp"
#include "cpu_common.hpp"
#include "first_position.hpp"

namespace ember_cpu {
namespace {

template <class T>
struct Extreme {
    T value;
    int64_t index;
};

// float16/bfloat16 elements as their bits, ordered through float32. The row kernel returns
// the first of equal values, and no earlier element has its bits (equal values differ in
// bits only as -0 and +0): its bits find its position.
template <bool IsF16>
struct HalfBits {
    uint16_t bits;
    float value() const { return IsF16 ? ember_float16::to_float(bits) : ember_float16::bf16_to_float(bits); }
    bool operator==(HalfBits o) const { return bits == o.bits; }
    bool operator<(HalfBits o) const { return value() < o.value(); }
};
using ember_cpu::is_nan;
template <bool IsF16>
bool is_nan(HalfBits<IsF16> h) {
    return (h.bits & 0x7fff) > (IsF16 ? 0x7c00 : 0x7f80);
}

// b follows a in the line: does it replace a?
template <class T, bool IsMax>
bool replaces(const Extreme<T>& a, const Extreme<T>& b) {
    if (is_nan(a.value)) return false;
    if (is_nan(b.value)) return true;
    return IsMax ? a.value < b.value : b.value < a.value;
}

// The extreme of x[0..n) and its first position, in one pass over memory: the ISA's
// NaN-propagating max/min of each L1-sized chunk, and a scan of that chunk only when it
// beats the extreme so far (rarely, on most data: the chunk is still in L1 then). The scan
// stops at a NaN or at `stop`, a value nothing can replace (the type's largest for max, its
// smallest for min; 1 and 0 for bools; NaN, which equals nothing, for floats).
template <class T, bool IsMax>
Extreme<T> extreme_of(const T* x, int64_t n, RowFn row, T stop) {
    constexpr int64_t kChunk = 4096;
    Extreme<T> best{x[0], 0};
    if (n <= 16) {  // a short line in one scalar pass: the row kernel and the search for its
                    // result's position took 44 ns for a line of 3 floats
        for (int64_t k = 1; k < n && !is_nan(best.value); ++k)
            if (replaces<T, IsMax>(best, Extreme<T>{x[k], k})) best = Extreme<T>{x[k], k};
        return best;
    }
    for (int64_t j = 0; j < n; j += kChunk) {
        const int64_t m = std::min(kChunk, n - j);
        Extreme<T> chunk{x[j], j};
        row(x + j, m, &chunk.value);
        if (j > 0 && !replaces<T, IsMax>(best, chunk)) continue;
        chunk.index = j + first_position(x + j, m, chunk.value);
        best = chunk;
        if (is_nan(best.value) || best.value == stop) break;
    }
    return best;
}

template <class T, bool IsMax>
void arg_lines(const ember_view_t& in, const ember_view_t& out, int axis, RowFn row, T stop) {
    const int64_t n = in.shape[axis], lines = numel(in) / n;
    const T* base = (const T*)in.data + in.offset;
    int64_t* dst = (int64_t*)out.data + out.offset;
    const int nt = num_threads();
    if (lines >= 2 * (int64_t)nt || numel(in) < kParallelCheap || nt <= 1) {
        parallel_range(lines, numel(in) < kParallelCheap ? lines + 1 : 2, 1, [&](int64_t b, int64_t e) {
            for (int64_t line = b; line < e; ++line) {
                int64_t io, oo;
                line_offsets(in, out, axis, line, io, oo);
                dst[oo] = extreme_of<T, IsMax>(base + io, n, row, stop).index;
            }
        });
        return;
    }
    // One long line whose first chunk holds a value nothing replaces (the first True of a
    // bool argmax, typically) is answered here: waking the pool cost more than the scan.
    if (lines == 1) {
        int64_t io, oo;
        line_offsets(in, out, axis, 0, io, oo);
        const Extreme<T> head = extreme_of<T, IsMax>(base + io, std::min<int64_t>(n, 4096), row, stop);
        if (is_nan(head.value) || head.value == stop) {
            dst[oo] = head.index;
            return;
        }
    }
    // Few long lines: stretches of each line across the pool, combined in order.
    const int64_t stretch = std::max<int64_t>(1 << 16, (n + 4 * nt - 1) / (4 * nt));
    const int64_t per_line = (n + stretch - 1) / stretch;
    std::vector<Extreme<T>> parts((size_t)(lines * per_line));
    parallel_tasks(lines * per_line, [&](int64_t t) {
        const int64_t line = t / per_line, j0 = (t % per_line) * stretch;
        int64_t io, oo;
        line_offsets(in, out, axis, line, io, oo);
        Extreme<T> e = extreme_of<T, IsMax>(base + io + j0, std::min(stretch, n - j0), row, stop);
        e.index += j0;
        parts[(size_t)t] = e;
    });
    for (int64_t line = 0; line < lines; ++line) {
        Extreme<T> best = parts[(size_t)(line * per_line)];
        for (int64_t k = 1; k < per_line; ++k)
            if (replaces<T, IsMax>(best, parts[(size_t)(line * per_line + k)])) best = parts[(size_t)(line * per_line + k)];
        int64_t io, oo;
        line_offsets(in, out, axis, line, io, oo);
        dst[oo] = best.index;
    }
}

template <bool IsMax>
ember_status_t arg_kernel(const ember_kernel_call_t* c) {
    const ember_view_t& in = c->in[0];
    const ember_view_t& out = c->out[0];
    const int axis = (int)c->attrs->i[0];
    if (axis < 0 || axis >= in.ndim || out.ndim != in.ndim || in.shape[axis] < 1 || numel(in) == 0 || out.dtype != EMBER_INT64 || (in.strides[axis] != 1 && in.shape[axis] > 1))
        return reference_on_slices(c, kAxisAttr);
    RowFn row = g_isa->row[IsMax ? R_MAX : R_MIN][in.dtype];
    if (!row) return reference_on_slices(c, kAxisAttr);
    if (in.dtype == EMBER_BOOL) {  // bools are bytes 0 and 1
        arg_lines<uint8_t, IsMax>(in, out, axis, row, IsMax ? 1 : 0);
        return EMBER_OK;
    }
    if (in.dtype == EMBER_FLOAT16) {  // a NaN stops the scan: nothing replaces it
        arg_lines<HalfBits<true>, IsMax>(in, out, axis, row, HalfBits<true>{0x7e00});
        return EMBER_OK;
    }
    if (in.dtype == EMBER_BFLOAT16) {
        arg_lines<HalfBits<false>, IsMax>(in, out, axis, row, HalfBits<false>{0x7fc0});
        return EMBER_OK;
    }
    const bool done = visit_real(in.dtype, [&](auto z) {
        using T = decltype(z);
        using Limits = std::numeric_limits<T>;
        arg_lines<T, IsMax>(in, out, axis, row, std::is_floating_point_v<T> ? Limits::quiet_NaN() : IsMax ? Limits::max() : Limits::lowest());
    });
    if (!done) return reference_on_slices(c, kAxisAttr);
    return EMBER_OK;
}

}  // namespace

void add_arg_kernels(std::vector<NativeKernel>& k) {
    k.push_back({"argmax", arg_kernel<true>, 0, false});
    k.push_back({"argmin", arg_kernel<false>, 0, false});
}

}  // namespace ember_cpu
