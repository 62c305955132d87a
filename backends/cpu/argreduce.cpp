// argmax/argmin along a contiguous axis. The reference's answer is the position of the first
// extreme value, or of the first NaN if there is one (extreme_of says how). Long lines are
// split into stretches across the pool and combined in order (ties keep the earlier
// stretch); many lines run in parallel. An axis that is not the innermost, with x in C order
// after it, is folded a row at a time over pieces of columns (arg_columns), a few columns
// several rows side by side (arg_grouped_rows). A stepped or reversed vector is gathered
// into L1 pieces for the row kernels (strided_extreme_of). float16/bfloat16 inputs are
// widened to float32 first. Other layouts and dtypes run the reference's code on slices
// (line_ops.cpp).
#include <algorithm>
#include <cstring>
#include <limits>
#include <type_traits>
#include <vector>

#include "cpu_common.hpp"
#include "first_position.hpp"

namespace ember_cpu {
namespace {

// The ISA's kernels for one dtype: arg_row is null for all but float32 and float64.
struct RowKernels {
    RowFn row;
    FirstPositionFn find;
    ArgRowFn arg_row;
};

template <class T>
struct Extreme {
    T value;
    int64_t index;
};

// b follows a in the line: does it replace a?
template <class T, bool IsMax>
bool replaces(const Extreme<T>& a, const Extreme<T>& b) {
    if (is_nan(a.value)) return false;
    if (is_nan(b.value)) return true;
    return IsMax ? a.value < b.value : b.value < a.value;
}

// The extreme of x[0..n) and its first position, in one pass over memory: the ISA's arg_row
// where it has one (float32 and float64, no NaN), else its NaN-propagating max/min of
// each L1-sized chunk, and a scan of that chunk (first_position) only when it beats the
// extreme so far (rarely, on most data: the chunk is still in L1 then). The scan
// stops at a NaN or at `stop`, a value nothing can replace (the type's largest for max, its
// smallest for min; 1 and 0 for bools; NaN, which equals nothing, for floats).
template <class T, bool IsMax>
Extreme<T> extreme_of(const T* x, int64_t n, const RowKernels& kernels, T stop) {
    constexpr int64_t kChunk = 4096;
    Extreme<T> best{x[0], 0};
    if (kernels.arg_row && n > 16 && n <= INT32_MAX / 2) {
        const int64_t at = kernels.arg_row(x, n);
        if (at >= 0) return Extreme<T>{x[at], at};
    }
    if (n <= 16) {  // a short line in one scalar pass: the row kernel and the search for its
                    // result's position took 44 ns for a line of 3 floats
        for (int64_t k = 1; k < n && !is_nan(best.value); ++k)
            if (replaces<T, IsMax>(best, Extreme<T>{x[k], k})) best = Extreme<T>{x[k], k};
        return best;
    }
    for (int64_t j = 0; j < n; j += kChunk) {
        const int64_t m = std::min(kChunk, n - j);
        Extreme<T> chunk{x[j], j};
        kernels.row(x + j, m, &chunk.value);
        if (j > 0 && !replaces<T, IsMax>(best, chunk)) continue;
        chunk.index = j + (kernels.find ? kernels.find(x + j, m, &chunk.value) : first_position(x + j, m, chunk.value));
        best = chunk;
        if (is_nan(best.value) || best.value == stop) break;
    }
    return best;
}

// extreme_of of a line whose elements lie `step` apart, gathered into L1 pieces first: a
// stepped or reversed line went to the columns kernel as a column of one element
// (argmax of x[::2] of 2e6 float32 took 1.6 ms, NumPy 1.1; of x[::-1] 3-6 ms, NumPy 2).
template <class T, bool IsMax>
Extreme<T> strided_extreme_of(const T* x, int64_t step, int64_t n, const RowKernels& k, T stop) {
    if (step == 1) return extreme_of<T, IsMax>(x, n, k, stop);
    constexpr int64_t kPiece = 4096;
    alignas(64) T piece[kPiece];
    Extreme<T> best{x[0], 0};
    for (int64_t j = 0; j < n; j += kPiece) {
        const int64_t m = std::min(kPiece, n - j);
        gather_strided((const char*)(x + j * step), 0, step, 1, m, sizeof(T), m, (char*)piece);
        Extreme<T> e = extreme_of<T, IsMax>(piece, m, k, stop);
        e.index += j;
        if (j == 0 || replaces<T, IsMax>(best, e)) best = e;
        if (is_nan(best.value) || best.value == stop) break;
    }
    return best;
}

// The first extreme of a short line by selects: the branches of `replaces` mispredicted
// on random data (a contiguous matrix's rows of 2 float32s took 6 ns each on two threads,
// with line_offsets' divisions). A line holding a NaN is scanned again by extreme_of.
template <class T, bool IsMax>
int64_t short_line_arg(const T* x, int64_t step, int64_t n, const RowKernels& k, T stop) {
    T v = x[0];
    int64_t at = 0;
    bool nan = is_nan(v);
    for (int64_t j = 1; j < n; ++j) {
        const T e = x[j * step];
        const bool take = IsMax ? e > v : e < v;
        v = take ? e : v;
        at = take ? j : at;
        if constexpr (std::is_floating_point_v<T>) nan |= e != e;
    }
    return nan ? strided_extreme_of<T, IsMax>(x, step, n, k, stop).index : at;
}

template <class T, bool IsMax>
void arg_lines(const ember_view_t& in, const ember_view_t& out, int axis, const RowKernels& k, T stop) {
    const int64_t n = in.shape[axis], lines = numel(in) / n, step = in.strides[axis];
    const T* base = (const T*)in.data + in.offset;
    int64_t* dst = (int64_t*)out.data + out.offset;
    const int nt = num_threads();
    if (n <= 16 && lines > 1 && axis == in.ndim - 1) {
        if (is_contiguous(in) && is_contiguous(out)) {  // line i at i n, out i
            parallel_range(lines, numel(in) < kParallelCheap ? lines + 1 : 2, 1024, [&](int64_t b, int64_t e) {
                for (int64_t line = b; line < e; ++line) dst[line] = short_line_arg<T, IsMax>(base + line * n, 1, n, k, stop);
            });
            return;
        }
        // Short lines of a view (x[:, ::-1], x[:, :3]), stepped from one to the next: a line
        // each through strided_extreme_of and line_offsets' divisions, or the columns kernel
        // over the moved axis, took 4-17 ms for 300000 lines of 3-7 float32s (NumPy 10-11).
        StridedWalk<2> walk;
        for (int d = 0; d < axis; ++d) walk.add_dim(in.shape[d], {in.strides[d], out.strides[d]});
        parallel_range(lines, numel(in) < kParallelCheap ? lines + 1 : 2, 1024, [&](int64_t b, int64_t e) {
            auto at = walk.cursor();
            for (int64_t line = b; line < e; ++line) {
                const int64_t* off = at.to(line);
                dst[off[1]] = short_line_arg<T, IsMax>(base + off[0], step, n, k, stop);
            }
        });
        return;
    }
    if (lines >= 2 * (int64_t)nt || numel(in) < kParallelCheap || nt <= 1) {
        parallel_range(lines, numel(in) < kParallelCheap ? lines + 1 : 2, 1, [&](int64_t b, int64_t e) {
            for (int64_t line = b; line < e; ++line) {
                int64_t io, oo;
                line_offsets(in, out, axis, line, io, oo);
                dst[oo] = strided_extreme_of<T, IsMax>(base + io, step, n, k, stop).index;
            }
        });
        return;
    }
    // One long line whose first chunk holds a value nothing replaces (the first True of a
    // bool argmax, typically) is answered here: waking the pool cost more than the scan.
    if (lines == 1) {
        int64_t io, oo;
        line_offsets(in, out, axis, 0, io, oo);
        const Extreme<T> head = strided_extreme_of<T, IsMax>(base + io, step, std::min<int64_t>(n, 4096), k, stop);
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
        Extreme<T> e = strided_extreme_of<T, IsMax>(base + io + j0 * step, step, std::min(stretch, n - j0), k, stop);
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

// Lines along an axis that is not the innermost, in x of C order from the axis on (the
// elements after it a contiguous block of `inner` columns, the axis any step): pieces of
// kArgColumns columns are folded a row at a time by the ISA's arg_columns (simd_argreduce.hpp).
// The reference walked each column as a strided line: argmax over axis 0 of a (1000, 1000)
// float32 took 0.48 ms, int16 0.8 ms.
constexpr int64_t kColumns = kArgColumns;

// Whether candidate (v, r) beats (bv, br) for the first extreme, wherever their rows lie:
// a NaN beats any number and an earlier NaN; else the larger (smaller) value, or the earlier
// row of equal ones.
template <class T, bool IsMax>
bool beats(T v, int64_t r, T bv, int64_t br) {
    const bool v_nan = is_nan(v), b_nan = is_nan(bv);
    if (v_nan || b_nan) return v_nan && (!b_nan || r < br);
    if (v == bv) return r < br;
    return IsMax ? bv < v : v < bv;
}

// Few columns of rows that follow each other in memory (a (100000, 10) array over axis 0):
// `group` rows side by side are one row of group * inner lanes, folded by arg_columns with
// vectors of useful width (a row of 10 int8 left them mostly idle: 0.72x NumPy), and lane k
// of column j holds the first extreme of rows k, k + group, ...; the candidates then combine
// by value and row (beats), and the rows after the last whole group fold on their own.
// Rows are split into parts for the pool where the outer positions are too few.
template <class T, bool IsMax>
void arg_grouped_rows(ArgColumnsFn arg_columns, const T* base, const ember_view_t& in, const ember_view_t& out, int axis, int64_t inner,
                      int64_t group, int64_t outer, bool pooled) {
    const int64_t n = in.shape[axis], wide = group * inner, groups = n / group, nt = num_threads();
    const int64_t parts = pooled && outer < 2 * nt ? std::min<int64_t>(2 * nt, std::max<int64_t>(1, groups / 64)) : 1;
    std::vector<T> cand_best((size_t)(outer * parts * inner));
    std::vector<int64_t> cand_row(cand_best.size());
    auto task = [&](int64_t t) {
        const int64_t part = t % parts, o = t / parts, g0 = groups * part / parts, g1 = groups * (part + 1) / parts;
        int64_t io, oo;
        line_offsets(in, out, axis, o * inner, io, oo);
        T* cb = &cand_best[(size_t)(t * inner)];
        int64_t* cr = &cand_row[(size_t)(t * inner)];
        alignas(64) T best[kColumns];
        alignas(64) int64_t row[kColumns];
        arg_columns(base + io, g0, g1, wide, wide, best, row);
        for (int64_t j = 0; j < inner; ++j) {
            cb[j] = best[j];
            cr[j] = row[j] * group;
            for (int64_t k = 1; k < group; ++k)
                if (beats<T, IsMax>(best[k * inner + j], row[k * inner + j] * group + k, cb[j], cr[j])) cb[j] = best[k * inner + j], cr[j] = row[k * inner + j] * group + k;
        }
        if (part == parts - 1 && groups * group < n) {
            arg_columns(base + io, groups * group, n, inner, inner, best, row);
            for (int64_t j = 0; j < inner; ++j)
                if (beats<T, IsMax>(best[j], row[j], cb[j], cr[j])) cb[j] = best[j], cr[j] = row[j];
        }
    };
    if (pooled) parallel_tasks(outer * parts, task);
    else
        for (int64_t t = 0; t < outer * parts; ++t) task(t);
    int64_t* dst = (int64_t*)out.data + out.offset;
    for (int64_t o = 0; o < outer; ++o) {
        int64_t io, oo;
        line_offsets(in, out, axis, o * inner, io, oo);
        const T* cb = &cand_best[(size_t)(o * parts * inner)];
        const int64_t* cr = &cand_row[(size_t)(o * parts * inner)];
        for (int64_t j = 0; j < inner; ++j) {
            T v = cb[j];
            int64_t r = cr[j];
            for (int64_t p = 1; p < parts; ++p)
                if (beats<T, IsMax>(cb[p * inner + j], cr[p * inner + j], v, r)) v = cb[p * inner + j], r = cr[p * inner + j];
            dst[oo + j] = r;
        }
    }
}

// The column layout's checks: x (and out, with the axis of length 1) in C order after the
// axis, fewer than 2^31 rows. False where they fail (nothing written). Tasks are pieces of
// columns of each outer position; where those are too few for the pool (a few long
// columns), each piece's rows are also split into parts, combined in order.
template <bool IsMax>
bool arg_columns_kernel(const ember_view_t& in, const ember_view_t& out, int axis) {
    const ArgColumnsFn arg_columns = g_isa->arg_columns[IsMax][in.dtype];
    if (!arg_columns || in.shape[axis] > INT32_MAX || out.shape[axis] != 1) return false;
    int64_t inner = 1;
    for (int d = in.ndim - 1; d > axis; --d) {
        if (in.shape[d] != 1 && (in.strides[d] != inner || out.strides[d] != inner)) return false;
        inner *= in.shape[d];
    }
    const int64_t n = in.shape[axis], step = in.strides[axis], outer = numel(in) / n / inner;
    const int64_t pieces = (inner + kColumns - 1) / kColumns, nt = num_threads();
    const bool pooled = numel(in) >= kParallelCheap && nt > 1;
    const int64_t parts = pooled && outer * pieces < 2 * nt ? std::min<int64_t>(2 * nt, std::max<int64_t>(1, n / 256)) : 1;
    const int64_t group = step == inner && 2 * inner <= kColumns ? kColumns / inner : 1;
    auto run = [&](auto z) {
        using T = decltype(z);
        const T* base = (const T*)in.data + in.offset;
        if (group > 1 && n >= 2 * group) return arg_grouped_rows<T, IsMax>(arg_columns, base, in, out, axis, inner, group, outer, pooled);
        int64_t* dst = (int64_t*)out.data + out.offset;
        std::vector<T> part_best(parts > 1 ? (size_t)(outer * pieces * parts * kColumns) : 0);
        std::vector<int64_t> part_row(part_best.size());
        auto task = [&](int64_t t) {
            const int64_t k = t % parts, piece = t / parts % pieces, o = t / parts / pieces, j0 = piece * kColumns;
            int64_t io, oo;
            line_offsets(in, out, axis, o * inner + j0, io, oo);  // the line of column j0 at outer position o
            const int64_t m = std::min(kColumns, inner - j0), r0 = n * k / parts, r1 = n * (k + 1) / parts;
            alignas(64) T best[kColumns];
            if (parts == 1) return arg_columns(base + io, r0, r1, step, m, best, dst + oo);
            arg_columns(base + io, r0, r1, step, m, &part_best[(size_t)(t * kColumns)], &part_row[(size_t)(t * kColumns)]);
        };
        if (parts == 1) {  // pieces of short narrow columns batched: one each was too little for a task
            const int64_t count = outer * pieces, per = std::max<int64_t>(1, (1 << 14) / (n * std::min(inner, kColumns)));
            auto batch = [&](int64_t b) {
                for (int64_t t = b * per; t < std::min(count, (b + 1) * per); ++t) task(t);
            };
            const int64_t batches = (count + per - 1) / per;
            if (pooled) parallel_tasks(batches, batch);
            else
                for (int64_t b = 0; b < batches; ++b) batch(b);
            return;
        }
        parallel_tasks(outer * pieces * parts, task);
        for (int64_t g = 0; g < outer * pieces; ++g) {  // combine each piece's parts in row order
            const int64_t piece = g % pieces, o = g / pieces, j0 = piece * kColumns, m = std::min(kColumns, inner - j0);
            int64_t io, oo;
            line_offsets(in, out, axis, o * inner + j0, io, oo);
            const T* b0 = &part_best[(size_t)(g * parts * kColumns)];
            const int64_t* i0 = &part_row[(size_t)(g * parts * kColumns)];
            for (int64_t j = 0; j < m; ++j) {
                Extreme<T> e{b0[j], i0[j]};
                for (int64_t k = 1; k < parts; ++k) {
                    const Extreme<T> next{b0[k * kColumns + j], i0[k * kColumns + j]};
                    if (replaces<T, IsMax>(e, next)) e = next;
                }
                dst[oo + j] = e.index;
            }
        }
    };
    if (in.dtype == EMBER_BOOL) {  // bytes 0 and 1
        run(uint8_t{});
        return true;
    }
    return visit_real(in.dtype, run);
}

// Bools are bytes 0 and 1, so a line's first extreme is its first `stop` byte (1 for
// argmax, 0 for argmin), or position 0 where it has none. The first 16 bytes are tested as two
// words, the rest by memchr (glibc's is vectorised): random data decides in the first word.
// The max of each line and a search for it took 13 us for the rows of a (1000, 1000) bool
// array, 114-123 for (10000, 100); now 2.5 and 13 (NumPy 3-7 and 22-117). `end` bounds the
// bytes a word may read.
int64_t first_stop_byte(const uint8_t* x, int64_t n, uint8_t stop, const uint8_t* end) {
    const uint64_t flip = stop ? 0 : 0x0101010101010101ull;
    for (int64_t j = 0; j < n && j < 16; j += 8) {
        const int64_t m = std::min<int64_t>(8, n - j);
        uint64_t w = 0;
        if (x + j + 8 <= end) std::memcpy(&w, x + j, 8);
        else std::memcpy(&w, x + j, (size_t)m);
        w ^= flip;
        if (m < 8) w &= (uint64_t(1) << (8 * m)) - 1;
        if (w) return j + (__builtin_ctzll(w) >> 3);  // little-endian: byte k is bits 8k..8k+7
    }
    if (n <= 16) return 0;
    const void* p = std::memchr(x + 16, stop, (size_t)(n - 16));
    return p ? (const uint8_t*)p - x : 0;
}

// Lines of bools along an axis of step 1, the other steps positive.
template <bool IsMax>
void bool_arg_lines(const ember_view_t& in, const ember_view_t& out, int axis) {
    const int64_t n = in.shape[axis], lines = numel(in) / n;
    const uint8_t* base = (const uint8_t*)in.data + in.offset;
    int64_t last = 0;
    for (int d = 0; d < in.ndim; ++d) last += (in.shape[d] - 1) * in.strides[d];
    const uint8_t* end = base + last + 1;
    int64_t* dst = (int64_t*)out.data + out.offset;
    const bool rows = axis == in.ndim - 1 && is_contiguous(in) && is_contiguous(out);  // line i at i n, out i
    parallel_range(lines, numel(in) < kParallelCheap ? lines + 1 : 2, 256, [&](int64_t b, int64_t e) {
        for (int64_t line = b; line < e; ++line) {
            int64_t io = line * n, oo = line;
            if (!rows) line_offsets(in, out, axis, line, io, oo);
            dst[oo] = first_stop_byte(base + io, n, IsMax ? 1 : 0, end);
        }
    });
}

template <bool IsMax>
ember_status_t lines_kernel(const ember_kernel_call_t* c);
template <bool IsMax>
ember_status_t arg_kernel(const ember_kernel_call_t* c);

// Layouts the columns kernel does not take (stepped or reversed columns: argmin over axis 0
// of x[:, ::-1]) are read from a C-order copy, which it takes: on slices through the
// reference, a (1000, 1000) float32 took 1.45 ms, NumPy 1.5. Broadcast inputs, and copies
// the allocator cannot lend, stay with the reference.
template <bool IsMax>
ember_status_t copy_or_reference(const ember_kernel_call_t* c) {
    const ember_view_t& in = c->in[0];
    const bool copy_helps = !is_contiguous(in) && is_contiguous(c->out[0]) && g_isa->arg_columns[IsMax][in.dtype] && !broadcast_input(in);
    ember_status_t st;
    if (copy_helps && run_on_c_order_copy(c, st, [](const ember_kernel_call_t* call, ember_status_t& s) { return (s = arg_kernel<IsMax>(call)), true; }))
        return st;
    return reference_on_slices(c, kAxisAttr);
}

template <bool IsMax>
ember_status_t arg_kernel(const ember_kernel_call_t* c) {
    const ember_view_t& in = c->in[0];
    const ember_view_t& out = c->out[0];
    const int axis = (int)c->attrs->i[0];
    if (axis < 0 || axis >= in.ndim || out.ndim != in.ndim || in.shape[axis] < 1 || numel(in) == 0 || out.dtype != EMBER_INT64)
        return reference_on_slices(c, kAxisAttr);
    // float16/bfloat16 widened to float32 (exact, order and NaNs kept: the same positions) for
    // float32's kernels. Their own went through the row kernel per line and the reference's
    // columns: 1e6 float16 took 1.4-2.3 ms over axis 0 of (1000, 1000) and either axis of
    // (100000, 10), float32 0.05-0.28.
    ember_status_t st;
    if (half_slot(in.dtype) >= 0 && !broadcast_input(in) &&
        run_on_c_order_copy(c, st, [](const ember_kernel_call_t* call, ember_status_t& s) { return (s = arg_kernel<IsMax>(call)), true; }, EMBER_FLOAT32))
        return st;
    if (in.strides[axis] != 1 && in.shape[axis] > 1) {
        // Where the dims after the axis hold one element, the dims before it may be the
        // contiguous ones (the last axis of a transposed matrix: a (3, n) matrix's columns as
        // rows of 3): moved behind the axis, they are the columns kernel's columns. As they
        // were, each line was a column of one element and a task of its own: (n, 3) took 44 ms.
        bool one_column = true, one_line = true;
        for (int d = axis + 1; d < in.ndim; ++d) one_column = one_column && in.shape[d] == 1;
        for (int d = 0; d < axis; ++d) one_line = one_line && in.shape[d] == 1;
        if (one_column && one_line) return lines_kernel<IsMax>(c);  // a stepped or reversed vector
        // Short stepped or reversed rows, nearer within than to each other (x[:, ::-1]):
        // arg_lines' short lines. (Rows of a transposed matrix go to the columns kernel.)
        if (axis == in.ndim - 1 && axis > 0 && in.shape[axis] <= 16 && std::abs(in.strides[axis]) < std::abs(in.strides[axis - 1]))
            return lines_kernel<IsMax>(c);
        if (!one_column || axis == 0) return arg_columns_kernel<IsMax>(in, out, axis) ? EMBER_OK : copy_or_reference<IsMax>(c);
        int64_t shape[2][EMBER_MAX_DIMS], strides[2][EMBER_MAX_DIMS];
        ember_view_t moved[2] = {in, out};
        for (int k = 0; k < 2; ++k) {
            const ember_view_t& v = k == 0 ? in : out;
            for (int d = 0; d < v.ndim; ++d) {  // the axis first, then the others in order
                const int src = d == 0 ? axis : (d - 1 < axis ? d - 1 : d);
                shape[k][d] = v.shape[src];
                strides[k][d] = v.strides[src];
            }
            moved[k].shape = shape[k];
            moved[k].strides = strides[k];
        }
        return arg_columns_kernel<IsMax>(moved[0], moved[1], 0) || arg_columns_kernel<IsMax>(in, out, axis) ? EMBER_OK : copy_or_reference<IsMax>(c);
    }
    return lines_kernel<IsMax>(c);
}

// Lines along the axis through the row kernels, each line's elements any step apart.
template <bool IsMax>
ember_status_t lines_kernel(const ember_kernel_call_t* c) {
    const ember_view_t& in = c->in[0];
    const ember_view_t& out = c->out[0];
    const int axis = (int)c->attrs->i[0];
    const RowKernels k{g_isa->row[IsMax ? R_MAX : R_MIN][in.dtype], g_isa->first_position[in.dtype], g_isa->arg_row[IsMax][in.dtype]};
    if (!k.row) return reference_on_slices(c, kAxisAttr);
    if (in.dtype == EMBER_BOOL) {  // bools are bytes 0 and 1
        bool positive_steps = in.strides[axis] == 1;
        for (int d = 0; d < in.ndim; ++d) positive_steps = positive_steps && in.strides[d] >= 0;
        if (positive_steps) bool_arg_lines<IsMax>(in, out, axis);
        else arg_lines<uint8_t, IsMax>(in, out, axis, k, IsMax ? 1 : 0);
        return EMBER_OK;
    }
    const bool done = visit_real(in.dtype, [&](auto z) {
        using T = decltype(z);
        using Limits = std::numeric_limits<T>;
        arg_lines<T, IsMax>(in, out, axis, k, std::is_floating_point_v<T> ? Limits::quiet_NaN() : IsMax ? Limits::max() : Limits::lowest());
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
