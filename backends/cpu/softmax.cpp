// softmax and log_softmax along one axis (the COMPOSITE_KERNEL convention of
// docs/backend-guide.md). Each row is handled while it sits in L1/L2: max, exp(x - max),
// sum, scale, so the tensor crosses memory once each way instead of the composite's six
// passes. float16/bfloat16 rows are computed in float32 and rounded once.
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

template <class T>
void row_kernel(const T* x, T* out, int64_t n, int32_t dt, int op) {
    T m = -std::numeric_limits<T>::infinity();
    g_isa->row[R_MAX][dt](x, n, &m);
    // As the composite: a row whose maximum is not finite is not shifted.
    T shift = std::isfinite(m) ? m : T(0);
    g_isa->bin[B_SUB][dt](x, &shift, out, n, 2);
    if (UnFn vexp = g_isa->un[U_EXP][dt]) vexp(out, out, n, 0);  // float32 has a vector exp
    else for (int64_t k = 0; k < n; ++k) out[k] = std::exp(out[k]);
    double acc = 0;
    g_isa->row[R_SUM][dt](out, n, &acc);
    T s = (T)acc;
    if (op == kSoftmax) {
        g_isa->bin[B_DIV][dt](out, &s, out, n, 2);
    } else {
        T c = shift + std::log(s);
        g_isa->bin[B_SUB][dt](x, &c, out, n, 2);
    }
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
    if (native && j.axis == x.ndim - 1 && n <= kShortRow && is_contiguous(x)) {
        const T* first = (const T*)base_ptr(x) + begin * n;
        return short_rows<T>(first, (T*)base_ptr(*j.out) + begin * n, end - begin, n, j.work, j.op);
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
        } else {
            half.resize((size_t)n);
            g_isa->cvt[C_F32][j.cvt](xout.data(), half.data(), n);
            for (int64_t k = 0; k < n; ++k) reinterpret_cast<uint16_t*>(dst)[k * os] = half[k];
        }
    }
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
