// cumsum/cumprod along an axis that is not the innermost one. The lines along the axis are
// then independent and lie side by side in memory, so each step of the scan updates a
// block of accumulators with vector operations across the inner dims. The accumulators
// are the reference's (float32 in double, float64 in double, integers wrapping in their
// own width) and each line is still summed in order, so the results are the reference's
// bit for bit. A NaN total stays the first NaN met, in both backends: which of two NaN
// operands an add returns is the compiler's choice.
// Scans along the innermost dim are sequential within a line: float32/float64 ones run
// here, threaded across lines, as do float16/bfloat16 ones, widened and narrowed by the
// vector conversions. A long line of integers is shared by the threads instead:
// wrapping addition and multiplication are associative, so each part of the line scanned
// from the total of the parts before it gives the sequential results exactly. (One thread's
// sequential scan already runs at about one element per cycle, near what the cache
// delivers; interleaving several chains on one thread measured no faster.)
// Complex scans go to complex_sequence.cpp: the reference's complex<double> sequence in
// vector lanes (products with C99 Annex G's recovery of infinities).
#include <algorithm>
#include <type_traits>

#include "cpu_common.hpp"

namespace ember_cpu {
namespace {

constexpr int64_t kBlock = 512;  // accumulators per task (4 KiB of doubles: stays in L1)

// The accumulator: double for floats, for integers an unsigned type of at least 32 bits and
// of the same width for wider ones: wrap-around without undefined behaviour (a product of
// two uint16_t promotes to int and can overflow it), and the low bits stored back are the
// reference's narrow wrapped results.
template <class T, bool = std::is_floating_point_v<T>> struct acc_type { using type = double; };
template <class T> struct acc_type<T, false> { using type = std::conditional_t<(sizeof(T) < 4), uint32_t, std::make_unsigned_t<T>>; };
template <class T> using acc_of = typename acc_type<T>::type;

// The offsets of position o of the dims before `axis` (in C order) in `in` and `out`.
void outer_offsets(const ember_view_t& in, const ember_view_t& out, int axis, int64_t o, int64_t& io, int64_t& oo) {
    io = oo = 0;
    for (int d = axis - 1; d >= 0; --d) {
        const int64_t i = o % in.shape[d];
        o /= in.shape[d];
        io += i * in.strides[d];
        oo += i * out.strides[d];
    }
}

// Runs block(o, j0, len, careful) over every block of kBlock columns [j0, j0 + len) of
// every position o of the dims before `axis`, across the pool where the work is large: first
// without the NaN-keeping select (careful: std::false_type), which costs a third of a scan's
// time, and again with it (std::true_type) only where block returned that a total came out
// NaN (a NaN total stays NaN to the end, so the last row shows every one). The output is
// never the input (scans have no in-place form), so a rerun reads x intact.
template <class Block>
void for_column_blocks(const ember_view_t& in, int axis, int64_t inner, Block&& block) {
    int64_t outer = 1;
    for (int d = 0; d < axis; ++d) outer *= in.shape[d];
    const int64_t blocks = (inner + kBlock - 1) / kBlock, tasks = outer * blocks;
    auto task = [&](int64_t t) {
        const int64_t o = t / blocks, j0 = (t % blocks) * kBlock, len = std::min(kBlock, inner - j0);
        if (block(o, j0, len, std::false_type{})) block(o, j0, len, std::true_type{});
    };
    if (outer * in.shape[axis] * inner >= kParallelCheap && tasks > 1) parallel_tasks(tasks, task);
    else
        for (int64_t t = 0; t < tasks; ++t) task(t);
}

template <class T, bool IsSum>
void scan_columns(const ember_view_t& in, const ember_view_t& out, int axis, int64_t inner) {
    using A = acc_of<T>;
    const T* src = (const T*)in.data + in.offset;
    T* dst = (T*)out.data + out.offset;
    const int64_t n = in.shape[axis], si = in.strides[axis], so = out.strides[axis];
    // careful: a NaN total stays the first NaN met (for_column_blocks).
    for_column_blocks(in, axis, inner, [&](int64_t o, int64_t j0, int64_t len, auto careful) {
        int64_t io, oo;
        outer_offsets(in, out, axis, o, io, oo);
        const T* x = src + io + j0;
        T* y = dst + oo + j0;
        A acc[kBlock];
        for (int64_t j = 0; j < len; ++j) acc[j] = IsSum ? A(0) : A(1);
        for (int64_t k = 0; k < n; ++k, x += si, y += so)
            for (int64_t j = 0; j < len; ++j) {
                const A next = IsSum ? A(acc[j] + (A)x[j]) : A(acc[j] * (A)x[j]);
                if constexpr (decltype(careful)::value) acc[j] = acc[j] != acc[j] ? acc[j] : next;
                else acc[j] = next;
                y[j] = (T)acc[j];
            }
        bool nan = false;
        if constexpr (std::is_floating_point_v<A>)
            for (int64_t j = 0; j < len; ++j) nan |= acc[j] != acc[j];
        return nan;
    });
}

template <class T, bool IsSum>
void scan_line_threaded(const T* x, T* y, int64_t n) {
    using A = acc_of<T>;
    constexpr int kMaxParts = 64;
    const int parts = std::min(num_threads(), kMaxParts);
    const int64_t step = ((n + parts - 1) / parts + 15) & ~int64_t(15);
    auto bounds = [&](int64_t t, int64_t& begin, int64_t& end) {
        begin = std::min(n, t * step);
        end = std::min(n, begin + step);
    };
    A start[kMaxParts];
    parallel_tasks(parts, [&](int64_t t) {
        int64_t b, e;
        bounds(t, b, e);
        A total = IsSum ? A(0) : A(1);
        for (int64_t i = b; i < e; ++i) total = IsSum ? A(total + (A)x[i]) : A(total * (A)x[i]);
        start[t] = total;
    });
    A run = IsSum ? A(0) : A(1);
    for (int t = 0; t < parts; ++t) {
        const A total = start[t];
        start[t] = run;
        run = IsSum ? A(run + total) : A(run * total);
    }
    parallel_tasks(parts, [&](int64_t t) {
        int64_t b, e;
        bounds(t, b, e);
        A acc = start[t];
        for (int64_t i = b; i < e; ++i) {
            acc = IsSum ? A(acc + (A)x[i]) : A(acc * (A)x[i]);
            y[i] = (T)acc;
        }
    });
}

// The running double accumulator of a half-type scan over m widened elements x into y;
// as in scan_columns, the NaN-keeping select only for a piece that ends NaN. Returns the
// new accumulator.
inline double scan_piece(double acc, const float* x, double* y, int64_t m, bool sum) {
    const double start = acc;
    for (int64_t i = 0; i < m; ++i) y[i] = acc = sum ? acc + (double)x[i] : acc * (double)x[i];
    if (acc == acc) return acc;
    acc = start;
    for (int64_t i = 0; i < m; ++i) {
        const double next = sum ? acc + (double)x[i] : acc * (double)x[i];
        y[i] = acc = acc != acc ? acc : next;
    }
    return acc;
}

// float16/bfloat16 lines along the innermost dim (contiguous): the reference's double
// accumulator over the widened elements, each sum rounded once back to the half type, a piece
// at a time through the ISA's conversions; threaded across lines. Short lines packed one
// after another (cumsum of an (n, 10) matrix along axis 1) convert many lines per call: a
// conversion per line of 10 took 4.3 ms for 1e6 float16, against 0.28 for float32.
void scan_half_rows(const ember_view_t& in, const ember_view_t& out, int axis, bool sum, int slot) {
    const uint16_t* src = (const uint16_t*)in.data + in.offset;
    uint16_t* dst = (uint16_t*)out.data + out.offset;
    const int64_t n = in.shape[axis], lines = numel(in) / n;
    const CvtFn widen = g_isa->cvt[slot][C_F32], narrow = g_isa->cvt[C_F64][slot];
    constexpr int64_t kPiece = 1024;
    const int64_t per_group = is_contiguous(in) && is_contiguous(out) ? std::max<int64_t>(1, kPiece / n) : 1;
    auto scan = [&](int64_t group) {
        alignas(64) float x[kPiece];
        alignas(64) double y[kPiece];
        if (per_group > 1) {  // lines l0.. of the packed views, whole
            const int64_t l0 = group * per_group, m = std::min(per_group, lines - l0) * n;
            widen(src + l0 * n, x, m);
            for (int64_t k = 0; k < m; k += n) scan_piece(sum ? 0.0 : 1.0, x + k, y + k, n, sum);
            narrow(y, dst + l0 * n, m);
            return;
        }
        int64_t io, oo;
        line_offsets(in, out, axis, group, io, oo);
        double acc = sum ? 0.0 : 1.0;
        for (int64_t k = 0; k < n; k += kPiece) {
            const int64_t m = std::min(kPiece, n - k);
            widen(src + io + k, x, m);
            acc = scan_piece(acc, x, y, m, sum);
            narrow(y, dst + oo + k, m);
        }
    };
    const int64_t groups = (lines + per_group - 1) / per_group;
    if (n * lines >= kParallelCostly) parallel_tasks(groups, scan);  // a task per line: few long lines spread too
    else
        for (int64_t g = 0; g < groups; ++g) scan(g);
}

// float16/bfloat16 columns (an axis that is not the innermost): scan_columns' blocks of
// double accumulators, each step's elements widened and its sums narrowed by the ISA's
// conversions, several steps per call where the rows are packed (an (n, 10) matrix along
// axis 0). Through the reference's lines, 1e6 float16 took 6-8 ms.
void scan_half_columns(const ember_view_t& in, const ember_view_t& out, int axis, int64_t inner, bool sum, int slot) {
    const uint16_t* src = (const uint16_t*)in.data + in.offset;
    uint16_t* dst = (uint16_t*)out.data + out.offset;
    const int64_t n = in.shape[axis], si = in.strides[axis], so = out.strides[axis];
    const CvtFn widen = g_isa->cvt[slot][C_F32], narrow = g_isa->cvt[C_F64][slot];
    constexpr int64_t kPiece = 2 * kBlock;
    for_column_blocks(in, axis, inner, [&](int64_t o, int64_t j0, int64_t len, auto careful) {
        int64_t io, oo;
        outer_offsets(in, out, axis, o, io, oo);
        const uint16_t* x = src + io + j0;
        uint16_t* y = dst + oo + j0;
        const int64_t steps = si == len && so == len ? std::max<int64_t>(1, kPiece / len) : 1;  // packed: steps per call
        alignas(64) double acc[kBlock];
        alignas(64) float wide[kPiece];
        alignas(64) double sums[kPiece];
        for (int64_t j = 0; j < len; ++j) acc[j] = sum ? 0.0 : 1.0;
        for (int64_t k = 0; k < n; k += steps, x += steps * si, y += steps * so) {
            const int64_t m = std::min(steps, n - k);
            widen(x, wide, m * len);
            for (int64_t r = 0; r < m; ++r)
                for (int64_t j = 0; j < len; ++j) {
                    const double next = sum ? acc[j] + (double)wide[r * len + j] : acc[j] * (double)wide[r * len + j];
                    if constexpr (decltype(careful)::value) sums[r * len + j] = acc[j] = acc[j] != acc[j] ? acc[j] : next;
                    else sums[r * len + j] = acc[j] = next;
                }
            narrow(sums, y, m * len);
        }
        bool nan = false;
        for (int64_t j = 0; j < len; ++j) nan |= acc[j] != acc[j];
        return nan;
    });
}

// float32/float64 lines along the innermost dim, contiguous in both views: the reference's
// sequence (a double accumulator, each running total rounded back to T) a piece at a time,
// first without the NaN-keeping select and again with it where a piece ended NaN (as
// for_column_blocks does), the input's and the output's lines asked for kAheadBytes ahead
// (the output's for writing): the reference's loop waited on its loads and stores once a
// line left the L2. One thread, 1e7 float32 1.51 -> 0.59-0.62 ns an element (1e6: 0.60 ->
// 0.53), float64 1.16 -> 0.74-0.95 (0.54 both); without the output's, 0.68 and 1.06-1.08.
// Lines are independent: several go to the pool, one runs alone.
constexpr int64_t kScanPiece = 4096, kAheadBytes = 2048;
template <class T, bool IsSum, bool Careful>
double scan_float_run(double acc, const T* x, T* y, int64_t m) {
    constexpr int64_t kPerLine = 64 / sizeof(T);
    for (int64_t i = 0; i < m; i += kPerLine) {
        __builtin_prefetch((const char*)(x + i) + kAheadBytes);
        __builtin_prefetch((const char*)(y + i) + kAheadBytes, 1);
        for (int64_t k = i, e = std::min(m, i + kPerLine); k < e; ++k) {
            double v = (double)x[k];
            if constexpr (Careful) v = acc != acc ? acc : v;
            acc = IsSum ? acc + v : acc * v;
            y[k] = (T)acc;
        }
    }
    return acc;
}
template <class T, bool IsSum>
void scan_float_line(const T* x, T* y, int64_t n) {
    double acc = IsSum ? 0.0 : 1.0;
    for (int64_t k = 0; k < n; k += kScanPiece) {
        const int64_t m = std::min(kScanPiece, n - k);
        const double end = scan_float_run<T, IsSum, false>(acc, x + k, y + k, m);
        acc = end == end ? end : scan_float_run<T, IsSum, true>(acc, x + k, y + k, m);
    }
}
template <class T, bool IsSum>
void scan_float_rows(const ember_view_t& in, const ember_view_t& out, int axis) {
    const T* src = (const T*)in.data + in.offset;
    T* dst = (T*)out.data + out.offset;
    const int64_t n = in.shape[axis], lines = numel(in) / n;
    auto run = [&](int64_t begin, int64_t end) {
        for (int64_t line = begin; line < end; ++line) {
            int64_t io, oo;
            line_offsets(in, out, axis, line, io, oo);
            scan_float_line<T, IsSum>(src + io, dst + oo, n);
        }
    };
    if (lines > 1 && n * lines >= kParallelCostly) parallel_range(lines, 2, 1, run);
    else run(0, lines);
}

// Integer lines along the innermost dim, long enough for the threads; false if not such.
bool scan_long_lines(const ember_kernel_call_t* c, int axis, bool sum) {
    const ember_view_t& in = c->in[0];
    const ember_view_t& out = c->out[0];
    const int64_t n = in.shape[axis];
    if (axis != in.ndim - 1 || in.strides[axis] != 1 || out.strides[axis] != 1 || n < kParallelCheap || num_threads() <= 1) return false;
    bool scanned = false;
    visit_real(in.dtype, [&](auto z) {
        using T = decltype(z);
        if constexpr (std::is_integral_v<T>) {
            const T* src = (const T*)in.data + in.offset;
            T* dst = (T*)out.data + out.offset;
            for (int64_t line = 0, lines = numel(in) / n; line < lines; ++line) {
                int64_t io, oo;
                line_offsets(in, out, axis, line, io, oo);
                sum ? scan_line_threaded<T, true>(src + io, dst + oo, n) : scan_line_threaded<T, false>(src + io, dst + oo, n);
            }
            scanned = true;
        }
    });
    return scanned;
}

ember_status_t scan_kernel(const ember_kernel_call_t* c) {
    const ember_view_t& in = c->in[0];
    const ember_view_t& out = c->out[0];
    const int axis = (int)c->attrs->i[0];
    const bool sum = kdata(c)->code != 0;
    if (c->n_in != 1 || axis < 0 || axis >= in.ndim || in.dtype != out.dtype || numel(in) == 0) return reference_on_slices(c, kAxisAttr);
    if (in.dtype == EMBER_COMPLEX64 || in.dtype == EMBER_COMPLEX128) return complex_scan_in_sequence(c, sum);
    // The dims after the axis must form one contiguous block in both views.
    int64_t inner = 1;
    for (int d = in.ndim - 1; d > axis; --d) {
        if (in.shape[d] != 1 && (in.strides[d] != inner || out.strides[d] != inner)) return reference_on_slices(c, kAxisAttr);
        inner *= in.shape[d];
    }
    if (inner == 1 && scan_long_lines(c, axis, sum)) return EMBER_OK;
    if (inner == 1 && in.strides[axis] == 1 && out.strides[axis] == 1 && (in.dtype == EMBER_FLOAT32 || in.dtype == EMBER_FLOAT64)) {
        if (in.dtype == EMBER_FLOAT32) sum ? scan_float_rows<float, true>(in, out, axis) : scan_float_rows<float, false>(in, out, axis);
        else sum ? scan_float_rows<double, true>(in, out, axis) : scan_float_rows<double, false>(in, out, axis);
        return EMBER_OK;
    }
    if (inner == 1 && half_slot(in.dtype) >= 0 && in.strides[axis] == 1 && out.strides[axis] == 1) {
        scan_half_rows(in, out, axis, sum, half_slot(in.dtype));
        return EMBER_OK;
    }
    // A scan along the innermost dim, or a short axis over a few columns, runs on the
    // reference's lines. Columns of 2-15 along a long axis (cumsum of an (n, 10) matrix
    // along axis 0) ran there at 4-7 ms for 1e6 int32/int64/float64 on the Zen 3 host of
    // series 33 (NumPy 4-14).
    if (inner == 1 || (inner < 16 && in.shape[axis] < 16)) return reference_on_slices(c, kAxisAttr);
    if (half_slot(in.dtype) >= 0) {
        scan_half_columns(in, out, axis, inner, sum, half_slot(in.dtype));
        return EMBER_OK;
    }
    const bool done = visit_real(in.dtype, [&](auto z) {
        using T = decltype(z);
        sum ? scan_columns<T, true>(in, out, axis, inner) : scan_columns<T, false>(in, out, axis, inner);
    });
    if (!done) return reference_on_slices(c, kAxisAttr);
    return EMBER_OK;
}

}  // namespace

void add_scan_kernels(std::vector<NativeKernel>& k) {
    k.push_back({"cumsum", scan_kernel, 1, false});
    k.push_back({"cumprod", scan_kernel, 0, false});
}

}  // namespace ember_cpu
