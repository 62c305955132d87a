// softmax and log_softmax along one axis (the COMPOSITE_KERNEL convention of
// docs/backend-guide.md): a row's maximum, then exp(x - max) and its sum a piece at a time
// in L1, then one scaling pass, instead of the composite's six passes over the tensor.
// Rows are spread over the pool, and the parts of one long row too when there are fewer
// rows than threads. float16/bfloat16 rows are computed in float32 and rounded once.
#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "cpu_common.hpp"

namespace ember_cpu {

namespace {

enum { kSoftmax = 0, kLogSoftmax = 1 };

// The element type a row is computed in, and the conversion slot of the stored dtype.
bool compute_type(int32_t dtype, int32_t* work, int* cvt) {
    switch (dtype) {
        case EMBER_FLOAT32: *work = EMBER_FLOAT32; *cvt = C_F32; return true;
        case EMBER_FLOAT64: *work = EMBER_FLOAT64; *cvt = C_F64; return true;
        case EMBER_FLOAT16: *work = EMBER_FLOAT32; *cvt = C_F16; return true;
        case EMBER_BFLOAT16: *work = EMBER_FLOAT32; *cvt = C_BF16; return true;
        default: return false;
    }
}

// A row is worked in parts of kPart elements: each part's exponentials are summed on their
// own and the part sums added in order, so a row comes out the same bits whether its parts
// ran on one thread or across the pool (one long row: a vocabulary's logits). Inside a part,
// pieces of kPiece elements stay in L1 from the subtraction through the exponential to the
// sum: five passes over the row, each from L2 or L3, took 0.93 ns an element at 1e6 and
// 1.31 at 1e7 on one thread.
constexpr int64_t kPart = 1 << 16;
constexpr int64_t kPiece = 2048;

// out = exp(x - shift), and its sum in double. log_softmax needs only the sum, but writing
// its exponentials to out rather than to an L1 buffer measured faster (an L1 buffer cost
// rows of 100 to 4096 6-24%): out's lines are then in cache for the last step.
template <class T>
double part_exp_sum(const T* x, T* out, int64_t n, T shift, int32_t dt) {
    const UnFn vexp = g_isa->un[U_EXP][dt];  // float32 has a vector exp
    double acc = 0;
    for (int64_t k = 0; k < n; k += kPiece) {
        const int64_t m = std::min(kPiece, n - k);
        T* e = out + k;
        g_isa->bin[B_SUB][dt](x + k, &shift, e, m, 2);
        if (vexp) vexp(e, e, m, 0);
        else for (int64_t i = 0; i < m; ++i) e[i] = std::exp(e[i]);
        g_isa->row[R_SUM][dt](e, m, &acc);
    }
    return acc;
}

// out = exp(x - shift) / sum (softmax, out holds the exponentials), or x - (shift + log sum).
template <class T>
void part_finish(const T* x, T* out, int64_t n, T scale, int32_t dt, int op) {
    if (op == kSoftmax) g_isa->bin[B_DIV][dt](out, &scale, out, n, 2);
    else g_isa->bin[B_SUB][dt](x, &scale, out, n, 2);
}

// As the composite: a row whose maximum is not finite is not shifted.
template <class T>
T shift_of(T m) {
    return std::isfinite(m) ? m : T(0);
}
template <class T>
T scale_of(double sum, T shift, int op) {
    const T s = (T)sum;
    return op == kSoftmax ? s : shift + std::log(s);
}

template <class T>
void row_kernel(const T* x, T* out, int64_t n, int32_t dt, int op) {
    T m = -std::numeric_limits<T>::infinity();
    g_isa->row[R_MAX][dt](x, n, &m);
    const T shift = shift_of(m);
    double sum = 0;
    for (int64_t k = 0; k < n; k += kPart) sum += part_exp_sum(x + k, out + k, std::min(kPart, n - k), shift, dt);
    part_finish(x, out, n, scale_of(sum, shift, op), dt, op);
}

// row_kernel with each step's parts spread over the pool: for fewer long rows than threads.
// load(k, m) runs before a part's first step reads x[k, k + m), store(k, m) after its last
// step wrote out[k, k + m): the half types' conversions, each while its part is in cache.
struct NoStep {
    void operator()(int64_t, int64_t) const {}
};
template <class T, class Load = NoStep, class Store = NoStep>
void split_row_kernel(const T* x, T* out, int64_t n, int32_t dt, int op, Load load = {}, Store store = {}) {
    const int64_t parts = (n + kPart - 1) / kPart;
    auto part_size = [&](int64_t p) { return std::min(kPart, n - p * kPart); };
    std::vector<T> maxima((size_t)parts, -std::numeric_limits<T>::infinity());
    std::vector<double> sums((size_t)parts);
    parallel_tasks(parts, [&](int64_t p) {
        load(p * kPart, part_size(p));
        g_isa->row[R_MAX][dt](x + p * kPart, part_size(p), &maxima[p]);
    });
    T m = -std::numeric_limits<T>::infinity();
    g_isa->row[R_MAX][dt](maxima.data(), parts, &m);  // NaN wins here as within a part
    const T shift = shift_of(m);
    parallel_tasks(parts, [&](int64_t p) { sums[p] = part_exp_sum(x + p * kPart, out + p * kPart, part_size(p), shift, dt); });
    double sum = 0;
    for (double s : sums) sum += s;
    const T scale = scale_of(sum, shift, op);
    parallel_tasks(parts, [&](int64_t p) {
        part_finish(x + p * kPart, out + p * kPart, part_size(p), scale, dt, op);
        store(p * kPart, part_size(p));
    });
}

// One long float16/bfloat16 row across the pool: split_row_kernel on a float32 copy, each
// part widened before its maximum and rounded back after its last step (cvt: the stored
// type's conversion slot).
void split_half_row(const char* src, char* dst, int64_t n, int cvt, int op) {
    Scratch<float> wide(n), result(n);
    split_row_kernel(
        wide.data, result.data, n, EMBER_FLOAT32, op, [&](int64_t k, int64_t m) { g_isa->cvt[cvt][C_F32](src + k * 2, wide.data + k, m); },
        [&](int64_t k, int64_t m) { g_isa->cvt[C_F32][cvt](result.data + k, dst + k * 2, m); });
}

// Rows of at most kShortRow elements, back to back in x and out: blocks of rows at a time,
// the exponentials of a whole block in one vector call. Five vector calls per row cost 40 ns
// for a row of 3 floats ((1e6, 3): 41 ms, NumPy's expression 60). The same steps as
// row_kernel (the row's maximum, NaN winning; x - shift; exp; the sum in double; one
// division or x - (shift + log sum)); the sum runs in order here, not pairwise.
constexpr int64_t kShortRow = 16;
template <class T>
void short_rows(const T* x, T* out, int64_t rows, int64_t n, int32_t dt, int op) {
    constexpr int64_t kBlock = 4096;
    T shift[kBlock];
    const UnFn vexp = g_isa->un[U_EXP][dt];
    for (int64_t r0 = 0; r0 < rows; r0 += kBlock / n) {
        const int64_t nr = std::min(kBlock / n, rows - r0);
        const T* xb = x + r0 * n;
        T* ob = out + r0 * n;
        for (int64_t r = 0; r < nr; ++r) {
            // By selects (maxss): a branch per element mispredicted half the time on random
            // data. A NaN anywhere leaves the row unshifted, as a NaN maximum does.
            T m = -std::numeric_limits<T>::infinity();
            bool nan = false;
            for (int64_t k = 0; k < n; ++k) {
                const T v = xb[r * n + k];
                m = v > m ? v : m;
                nan |= v != v;
            }
            shift[r] = !nan && std::isfinite(m) ? m : T(0);
            for (int64_t k = 0; k < n; ++k) ob[r * n + k] = xb[r * n + k] - shift[r];
        }
        if (vexp) vexp(ob, ob, nr * n, 0);
        else
            for (int64_t k = 0; k < nr * n; ++k) ob[k] = std::exp(ob[k]);
        for (int64_t r = 0; r < nr; ++r) {
            double acc = 0;
            for (int64_t k = 0; k < n; ++k) acc += ob[r * n + k];
            const T sum = (T)acc;
            if (op == kSoftmax) {
                for (int64_t k = 0; k < n; ++k) ob[r * n + k] = ob[r * n + k] / sum;
            } else {
                const T c = shift[r] + std::log(sum);
                for (int64_t k = 0; k < n; ++k) ob[r * n + k] = xb[r * n + k] - c;
            }
        }
    }
}

// Lines along a strided axis whose neighbours sit side by side (softmax over the channels
// of NCHW, over axis 0, or along the last axis of a transpose): a block of w lines at a
// time, each step a pass over n rows of w elements that the compiler vectorises, in a
// scratch block of n x w that stays in cache. Line by line, gathering each, the channel
// softmax of (8, 21, 256, 256) took 138 ms and NumPy's expression 48. The same steps as
// row_kernel: shift by the maximum (NaN wins, not finite: no shift), exp, the sum in
// double, one division or x - (shift + log sum). x's element (k, c) is x[k * xs + c];
// out's is out[k * ok + c * oc].
template <class T>
void column_block(const T* x, int64_t xs, int64_t n, int64_t w, T* out, int64_t ok, int64_t oc, int32_t dt, int op, T* buf) {
    constexpr int64_t kMaxWidth = 1024;
    T shift[kMaxWidth];
    double sum[kMaxWidth];
    for (int64_t c = 0; c < w; ++c) shift[c] = -std::numeric_limits<T>::infinity();
    // x copied into buf on the first pass: a power-of-two row stride maps the block's rows
    // to a few cache sets, and reading x a second time went to memory ((4096, 4096) over
    // axis 0: 60 ms).
    for (int64_t k = 0; k < n; ++k) {
        const T* row = x + k * xs;
        T* b = buf + k * w;
        for (int64_t c = 0; c < w; ++c) {
            b[c] = row[c];
            shift[c] = row[c] > shift[c] || row[c] != row[c] ? row[c] : shift[c];
        }
    }
    for (int64_t c = 0; c < w; ++c) shift[c] = std::isfinite(shift[c]) ? shift[c] : T(0);
    for (int64_t k = 0; k < n; ++k) {
        T* b = buf + k * w;
        for (int64_t c = 0; c < w; ++c) b[c] -= shift[c];
    }
    if (UnFn vexp = g_isa->un[U_EXP][dt]) vexp(buf, buf, n * w, 0);
    else for (int64_t i = 0; i < n * w; ++i) buf[i] = std::exp(buf[i]);
    for (int64_t c = 0; c < w; ++c) sum[c] = 0;
    for (int64_t k = 0; k < n; ++k)
        for (int64_t c = 0; c < w; ++c) sum[c] += buf[k * w + c];
    T scale[kMaxWidth];  // the divisor, or what log_softmax subtracts
    for (int64_t c = 0; c < w; ++c) scale[c] = op == kSoftmax ? (T)sum[c] : shift[c] + std::log((T)sum[c]);
    auto result = [&](int64_t k, int64_t c) { return op == kSoftmax ? buf[k * w + c] / scale[c] : x[k * xs + c] - scale[c]; };
    if (oc == 1) {
        for (int64_t k = 0; k < n; ++k) {
            T* o = out + k * ok;
            if (op == kSoftmax)
                for (int64_t c = 0; c < w; ++c) o[c] = buf[k * w + c] / scale[c];
            else
                for (int64_t c = 0; c < w; ++c) o[c] = x[k * xs + c] - scale[c];
        }
    } else {
        for (int64_t c = 0; c < w; ++c)
            for (int64_t k = 0; k < n; ++k) out[k * ok + c * oc] = result(k, c);
    }
}

// float32 rows of kShortRow + 1 to kMediumRow elements, back to back in x and out: blocks of
// kRowBlock rows turned into the columns of an L1 scratch, then column_block, whose steps
// (the maximum, the shift, the sum) are passes across the rows that the compiler
// vectorises, with the exponentials of a block in one call. Row by row, five vector calls
// with a partial vector each: rows of 17 to 31 float32 took 1.28-1.71 ns an element,
// 0.65-0.81 so. Rows of 32 took 0.86 row by row; where the scratch stops paying (its moves
// in and out are scalar) was measured only for a first version that repeated
// column_block's steps (0.85-0.90 at 48, against the row calls' 0.61-0.64).
constexpr int64_t kMediumRow = 31, kRowBlock = 64;
template <class T>
void transposed_rows(const T* x, T* out, int64_t rows, int64_t n, int32_t dt, int op) {
    alignas(64) T cols[kMediumRow * kRowBlock], buf[kMediumRow * kRowBlock];
    for (int64_t r0 = 0; r0 < rows; r0 += kRowBlock) {
        const int64_t w = std::min(kRowBlock, rows - r0);
        const T* xb = x + r0 * n;
        for (int64_t c = 0; c < w; ++c)
            for (int64_t k = 0; k < n; ++k) cols[k * w + c] = xb[c * n + k];
        column_block<T>(cols, w, n, w, out + r0 * n, 1, n, dt, op, buf);
    }
}

// Contiguous float32 rows of kMediumRow + 1 to kFusedRow elements, and float64 ones of
// kShortRowF64 + 1 to kFusedRow, go to the ISA's softmax_rows (simd_softmax.hpp): the
// three passes of two rows at a time, inline. ns an element, (2^22 / n, n) on two threads,
// against the paths they replaced: float64 8 1.25-1.28 (short_rows 1.41-1.54), 16 0.84
// (1.16-1.21), 17-31 0.67-1.13 (as columns 1.83-2.23), 32-63 0.60-0.81 (row by row
// 0.82-1.01), 64-112 0.58-0.62 (0.66-0.80), 128 0.62-0.66 (0.64-0.68), 192 0.65-0.71
// (0.62-0.64: the rows take over); float32 32-40 0.72-0.82 (0.80-0.91), 48-63 0.51-0.58
// (0.61-0.72), 64-128 0.34-0.49 (0.32-0.50), 192 0.32 (0.28). float32 rows of 8 to 31
// stay with short_rows and the columns (0.57-0.85 there, the fused passes 0.85-3.1): a
// row's steps form one chain of dependent latencies (the maximum's fold across the lanes,
// exp, the sum's fold, the division), and a row of one or two vectors is mostly chain.
// These figures and bounds are of the first version, whose folds across the lanes built
// their shuffle patterns at run time. With simd_reduce.hpp's folds (08d4c47), float32 rows
// of 32-128 take 0.23-0.34 ns an element and float64 rows of 8-128 0.54-0.85: the bounds
// were not measured again, and rows of 8-31 and above 128 may now be faster here too.
constexpr int64_t kShortRowF64 = 7, kFusedRow = 128;

// Rows of at most kFusedRow elements back to back in x and out, by the path for their
// length and type.
template <class T>
void packed_rows(const T* x, T* out, int64_t rows, int64_t n, int32_t dt, int op) {
    const bool f32 = sizeof(T) == 4;
    if (n <= (f32 ? kShortRow : kShortRowF64)) short_rows<T>(x, out, rows, n, dt, op);
    else if (f32 && n <= kMediumRow) transposed_rows<T>(x, out, rows, n, dt, op);
    else g_isa->softmax_rows[f32 ? 0 : 1](x, out, rows, n, op == kLogSoftmax);
}

struct Job {
    const ember_view_t* in;
    const ember_view_t* out;
    int axis, op;
    int32_t work;
    int cvt;
    int64_t rows, len;
};

// Element offsets of row r's first element in the input and the (contiguous) output.
void row_offsets(const Job& j, int64_t r, int64_t* in_off, int64_t* out_off) {
    const ember_view_t& x = *j.in;
    int64_t io = 0, oo = 0, out_stride = 1;
    for (int d = x.ndim - 1; d >= 0; --d) {
        if (d != j.axis) {
            int64_t i = r % x.shape[d];
            r /= x.shape[d];
            io += i * x.strides[d];
            oo += i * out_stride;
        }
        out_stride *= x.shape[d];
    }
    *in_off = io;
    *out_off = oo;
}

template <class T>
void run_rows(const Job& j, int64_t begin, int64_t end) {
    const ember_view_t& x = *j.in;
    const size_t isz = itemsize_of(x.dtype);
    const int64_t n = j.len, xs = x.strides[j.axis];
    int64_t os = 1;
    for (int d = j.axis + 1; d < x.ndim; ++d) os *= x.shape[d];
    const bool native = x.dtype == j.work;
    constexpr int64_t kHalfBlock = 4096;
    if (j.axis == x.ndim - 1 && is_contiguous(x) && n <= (native ? kFusedRow : kHalfBlock)) {
        if (native) return packed_rows<T>((const T*)base_ptr(x) + begin * n, (T*)base_ptr(*j.out) + begin * n, end - begin, n, j.work, j.op);
        // float16/bfloat16: blocks of rows widened into float32 in one call, and rounded
        // back in one, rather than two calls a row around row_kernel's five (rows of 129
        // 0.56-0.64 -> 0.44-0.46 ns an element, 200 0.48-0.57 -> 0.39-0.41; from 512 on
        // the same within the noise).
        alignas(64) float wide[kHalfBlock], result[kHalfBlock];
        const char* src = base_ptr(x) + begin * n * 2;
        char* dst = base_ptr(*j.out) + begin * n * 2;
        for (int64_t r0 = 0; r0 < end - begin; r0 += kHalfBlock / n) {
            const int64_t m = std::min(kHalfBlock / n, end - begin - r0) * n;
            g_isa->cvt[j.cvt][C_F32](src + r0 * n * 2, wide, m);
            if (n <= kFusedRow) packed_rows<float>(wide, result, m / n, n, EMBER_FLOAT32, j.op);
            else for (int64_t k = 0; k < m; k += n) row_kernel<float>(wide + k, result + k, n, EMBER_FLOAT32, j.op);
            g_isa->cvt[C_F32][j.cvt](result, dst + r0 * n * 2, m);
        }
        return;
    }
    if (native && j.axis == 1 && x.ndim == 2 && n <= kShortRow) {
        // Short rows of a view (a transpose, x[:, :3]): gathered a block at a time for the
        // same kernel. Row by row the strided way cost ~200 ns per row of 3.
        constexpr int64_t kGather = 2048;
        T packed[kGather];
        T* out = (T*)base_ptr(*j.out);
        for (int64_t r0 = begin; r0 < end; r0 += kGather / n) {
            const int64_t nr = std::min(kGather / n, end - r0);
            gather_strided(base_ptr(x) + r0 * x.strides[0] * (int64_t)isz, x.strides[0], xs, nr, n, isz, n, (char*)packed);
            short_rows<T>(packed, out + r0 * n, nr, n, j.work, j.op);
        }
        return;
    }
    std::vector<T> xin, xout;
    std::vector<uint16_t> half;
    for (int64_t r = begin; r < end; ++r) {
        int64_t io, oo;
        row_offsets(j, r, &io, &oo);
        const char* src = base_ptr(x) + io * (int64_t)isz;
        char* dst = base_ptr(*j.out) + oo * (int64_t)isz;
        const T* in_row;
        T* out_row;
        if (native && xs == 1) {
            in_row = reinterpret_cast<const T*>(src);
        } else {
            xin.resize((size_t)n);
            if (native) {
                for (int64_t k = 0; k < n; ++k) xin[k] = reinterpret_cast<const T*>(src)[k * xs];
            } else if (xs == 1) {
                g_isa->cvt[j.cvt][C_F32](src, xin.data(), n);
            } else {
                half.resize((size_t)n);
                for (int64_t k = 0; k < n; ++k) half[k] = reinterpret_cast<const uint16_t*>(src)[k * xs];
                g_isa->cvt[j.cvt][C_F32](half.data(), xin.data(), n);
            }
            in_row = xin.data();
        }
        if (native && os == 1) {
            out_row = reinterpret_cast<T*>(dst);
        } else {
            xout.resize((size_t)n);
            out_row = xout.data();
        }
        row_kernel<T>(in_row, out_row, n, j.work, j.op);
        if (native && os == 1) continue;
        if (native) {
            for (int64_t k = 0; k < n; ++k) reinterpret_cast<T*>(dst)[k * os] = xout[k];
        } else if (os == 1) {
            g_isa->cvt[C_F32][j.cvt](xout.data(), dst, n);
        } else {
            half.resize((size_t)n);
            g_isa->cvt[C_F32][j.cvt](xout.data(), half.data(), n);
            for (int64_t k = 0; k < n; ++k) reinterpret_cast<uint16_t*>(dst)[k * os] = half[k];
        }
    }
}

// column_block over every block of lines, when the dim beside the axis (the last, or the
// one before a last axis) has unit stride and at least 16 lines; false otherwise.
template <class T>
bool run_columns(const Job& j) {
    const ember_view_t& x = *j.in;
    const int axis = j.axis, side = axis == x.ndim - 1 ? x.ndim - 2 : x.ndim - 1;
    if (side < 0 || x.strides[side] != 1 || x.shape[side] < 16 || x.strides[axis] == 1) return false;
    int64_t out_stride[EMBER_MAX_DIMS];
    for (int64_t d = x.ndim - 1, s = 1; d >= 0; --d) out_stride[d] = s, s *= x.shape[d];
    const int64_t n = j.len, lines = x.shape[side], xs = x.strides[axis], ok = out_stride[axis], oc = out_stride[side];
    // Blocks as wide as a scratch of 2^20 elements allows: each block walks all n rows of x
    // with a large stride, and narrow ones paid that walk often ((4096, 4096) over axis 0:
    // 16 lines per block (2^16 elements) 36 ms, 256 lines 15-19, though 4 MB of float32
    // outgrows a 2 MB L2).
    constexpr int64_t kBlockElements = 1 << 20;
    int64_t width = std::min<int64_t>(1024, std::max<int64_t>(16, kBlockElements / n));
    if (width < lines) width -= width % 16;
    else width = lines;
    const int64_t blocks = (lines + width - 1) / width, planes = j.rows / lines;
    const T* xbase = (const T*)base_ptr(x);
    T* obase = (T*)base_ptr(*j.out);
    auto task = [&](int64_t t) {
        int64_t plane = t / blocks, xo = 0, oo = 0;
        for (int d = x.ndim - 1; d >= 0; --d) {  // the plane's offsets over the other dims
            if (d == axis || d == side) continue;
            xo += plane % x.shape[d] * x.strides[d];
            oo += plane % x.shape[d] * out_stride[d];
            plane /= x.shape[d];
        }
        const int64_t c0 = t % blocks * width, w = std::min(width, lines - c0);
        Scratch<T> buf(n * w);
        column_block<T>(xbase + xo + c0, xs, n, w, obase + oo + c0 * oc, ok, oc, j.work, j.op, buf.data);
    };
    const int64_t tasks = planes * blocks;
    if (tasks > 1 && j.rows * n >= kParallelCostly) parallel_tasks(tasks, task);
    else
        for (int64_t t = 0; t < tasks; ++t) task(t);
    return true;
}

ember_status_t softmax_kernel(const ember_kernel_call_t* c) {
    const ember_view_t& x = c->in[0];
    Job j{&c->in[0], &c->out[0], (int)c->attrs->i[0], kdata(c)->code, 0, 0, 0, 0};
    if (!compute_type(x.dtype, &j.work, &j.cvt))
        return g_host->fail(EMBER_ERR_UNSUPPORTED_DTYPE, "cpu %s: dtype %d is not a real float", kdata(c)->name, (int)x.dtype);
    if (j.axis < 0 || j.axis >= x.ndim) return g_host->fail(EMBER_ERR_INVALID_ARGUMENT, "cpu %s: axis %d out of range", kdata(c)->name, j.axis);
    j.len = x.shape[j.axis];
    j.rows = j.len ? numel(x) / j.len : 0;
    if (j.rows == 0) return EMBER_OK;
    if (x.dtype == j.work && (j.work == EMBER_FLOAT64 ? run_columns<double>(j) : run_columns<float>(j))) return EMBER_OK;
    if (j.axis == x.ndim - 1 && is_contiguous(x) && j.rows < num_threads() && j.len >= 2 * kPart) {
        const int64_t row_bytes = j.len * (int64_t)itemsize_of(x.dtype);
        for (int64_t r = 0; r < j.rows; ++r) {
            const char* src = base_ptr(x) + r * row_bytes;
            char* dst = base_ptr(*j.out) + r * row_bytes;
            if (x.dtype == EMBER_FLOAT64) split_row_kernel((const double*)src, (double*)dst, j.len, j.work, j.op);
            else if (x.dtype == EMBER_FLOAT32) split_row_kernel((const float*)src, (float*)dst, j.len, j.work, j.op);
            else split_half_row(src, dst, j.len, j.cvt, j.op);
        }
        return EMBER_OK;
    }
    int64_t grain = (kParallelCostly + j.len - 1) / j.len;
    parallel_range(j.rows, j.rows * j.len >= kParallelCostly ? 2 : j.rows + 1, grain < 1 ? 1 : grain, [&](int64_t b, int64_t e) {
        if (j.work == EMBER_FLOAT64) run_rows<double>(j, b, e);
        else run_rows<float>(j, b, e);
    });
    return EMBER_OK;
}

}  // namespace

void add_softmax_kernels(std::vector<NativeKernel>& k) {
    k.push_back({"softmax", softmax_kernel, kSoftmax, true});
    k.push_back({"log_softmax", softmax_kernel, kLogSoftmax, true});
}

}  // namespace ember_cpu
