// Reduction drivers: sum, prod, max, min, count_nonzero, and mean (overriding the composite).
//
// The input's dims are sorted by stride (largest first), unit dims dropped and neighbours
// merged, so transposed inputs become contiguous ones. Two layouts have vector kernels:
//  - ROW: the innermost dim is reduced and contiguous. Each output element folds its rows
//    with the ISA's row kernel (pairwise, float32 accumulating in float64). Many outputs
//    are split across threads; a single output (a full reduction) is split into fixed
//    chunks whose partial sums are combined pairwise in a fixed order, so the result does
//    not depend on the thread count. A matrix's rows of at most 64 elements run in typed
//    loops with a local accumulator, the shortest folded inline (reduce_short_rows).
//  - COLUMN: the innermost dim is kept and contiguous (e.g. sum over axis 0 of a matrix).
//    Accumulators run along it (float32 sums in float64, float64 sums blocked). Up to 16
//    narrow columns over packed rows fold with rows side by side (an image's channels).
// Complex sums in the ROW layout keep two double accumulators; in the COLUMN layout they
// are the real column sums of their (re, im) pairs. A complex mean is the native sum, then
// the composite's complex division by the count. Float products (the half types' through
// float32's kernels) accumulate in double in both layouts (the partial products combine
// like the partial sums: in a fixed order, which is not the reference's sequence, so
// results differ from it in rounding);
// complex products in complex<double>, the textbook product; a result that is not finite
// is recomputed in the reference's sequence of products (C99's recovery of infinities, and
// where an overflow meets a zero part, depend on that order; complex_sequence.cpp).
// Integer products (the core's (u)int64) wrap as the reference's do: any grouping gives
// its bits. Reversed dims are walked forwards. Other layouts reduce a copy in C order;
// broadcast inputs and other dtypes go to the reference (prod: on slices across the pool;
// complex prod: complex_sequence.cpp, which keeps the reference's sequence).
#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <new>
#include <type_traits>
#include <vector>

#include "../common/float16.hpp"
#include "cpu_common.hpp"

namespace ember_cpu {
namespace {

constexpr int kMean = R_COUNT;  // code of the mean override

struct Dim {
    int64_t n, si, so;
    bool red;
};

// The kept or the reduced dims of a reduction: input and output offsets of position i.
struct Index : StridedWalk<2> {
    void add(const Dim& d) { add_dim(d.n, {d.si, d.so}); }
    void offsets(int64_t i, int64_t& in, int64_t& out) const {
        int64_t off[2];
        offsets_at(i, off);
        in = off[0];
        out = off[1];
    }
};

// Accumulators: double (float sums), uint64 (integer sums), the element (max/min), or two
// doubles (complex sums: real, imaginary).
union Acc {
    double d;
    uint64_t u;
    double pair[2];
    unsigned char raw[16];
};
// The strides of a contiguous (C-order) tensor of v's shape: for scratch views beside v.
void c_order_strides(const ember_view_t& v, int64_t* strides) {
    for (int64_t d = v.ndim - 1, step = 1; d >= 0; step *= v.shape[d], --d) strides[d] = step;
}
bool complex_dtype(int32_t dt) { return dt == EMBER_COMPLEX64 || dt == EMBER_COMPLEX128; }
// Integer products reach the kernel as (u)int64 (the core widens narrower types); sums of
// bools and narrower integers come as they are (EMBER_KERNEL_WIDENS_INPUT) with a (u)int64 out.
bool int64_dtype(int32_t dt) { return dt == EMBER_INT64 || dt == EMBER_UINT64; }
bool narrow_integer(int32_t dt) { return dt == EMBER_BOOL || (dt >= EMBER_INT8 && dt <= EMBER_UINT32 && !int64_dtype(dt)); }
int32_t result_dtype(int op, int32_t dt) {
    if (op == R_NONZERO) return EMBER_INT64;
    if (op == R_SUM && narrow_integer(dt)) return dt >= EMBER_UINT8 ? EMBER_UINT64 : EMBER_INT64;
    return dt;
}

// A mean of (u)int64 into float64 (the kernel claims EMBER_KERNEL_WIDENS_INPUT): the float64
// mean of the elements converted, as the composite's cast and sum, with no float64 copy.
bool integer_mean(const ember_kernel_call_t* c, int code) {
    return code == kMean && int64_dtype(c->in[0].dtype) && c->out[0].dtype == EMBER_FLOAT64;
}

// Whether a complex tensor holds a value with a part that is not finite.
bool any_complex_nonfinite(const ember_view_t& v) {
    const ember_view_t* views[1] = {&v};
    Geometry g;
    if (!make_geometry(views, 1, g)) return false;
    const char* base = base_ptr(v);
    const int64_t step = g.st[0][g.nd - 1];
    bool found = false;
    walk_runs<1>(g, 0, g.size, [&](const int64_t* off, int64_t len) {
        for (int64_t k = 0; k < len && !found; ++k) {
            const int64_t at = off[0] + k * step;
            if (v.dtype == EMBER_COMPLEX64) {
                const float* z = (const float*)base + 2 * at;
                found = !std::isfinite(z[0]) || !std::isfinite(z[1]);
            } else {
                const double* z = (const double*)base + 2 * at;
                found = !std::isfinite(z[0]) || !std::isfinite(z[1]);
            }
        }
    });
    return found;
}

// Element i of a float array of dtype dt (float32, float64 or a half type) as a double.
double float_at(int32_t dt, const char* base, int64_t i) {
    switch (dt) {
        case EMBER_FLOAT32: return ((const float*)base)[i];
        case EMBER_FLOAT64: return ((const double*)base)[i];
        case EMBER_FLOAT16: return ember_float16::to_float(((const uint16_t*)base)[i]);
        default: return ember_float16::bf16_to_float(((const uint16_t*)base)[i]);
    }
}

// Sums accumulated in double: float32, float64 and the half types (converted chunk-wise).
bool float_sum(int32_t dt) { return dt == EMBER_FLOAT32 || dt == EMBER_FLOAT64 || dt == EMBER_FLOAT16 || dt == EMBER_BFLOAT16; }

// Sums and counts start at 0 and add partial results; products start at 1 and multiply
// them (in double); max/min start at an element.
bool adds(int op) { return op == R_SUM || op == R_NONZERO; }
// Narrow columns side by side (COLUMN layout): up to kNarrowColumns columns, as rows of
// kSideBySide / J * J elements.
constexpr int64_t kNarrowColumns = 16, kSideBySide = 512;

void combine(int op, int32_t dt, Acc& a, const Acc& b, RowFn row) {
    if (op == R_NONZERO) {
        a.u += b.u;
    } else if (op == R_PROD) {
        if (complex_dtype(dt)) multiply_pair(a.pair[0], a.pair[1], b.pair[0], b.pair[1]);
        else if (int64_dtype(dt)) a.u *= b.u;
        else a.d *= b.d;
    } else if (op == R_SUM) {
        if (complex_dtype(dt)) {
            a.pair[0] += b.pair[0];
            a.pair[1] += b.pair[1];
        } else if (float_sum(dt)) {
            a.d += b.d;
        } else {
            a.u += b.u;
        }
    } else {
        row(b.raw, 1, a.raw);  // max/min: fold b's value (an element) into a
    }
}

// An element of sz bytes with a fixed-size copy each (a memcpy of a run-time size was a
// libc call per output row).
inline void copy_element(void* dst, const void* src, size_t sz) {
    switch (sz) {
        case 1: std::memcpy(dst, src, 1); break;
        case 2: std::memcpy(dst, src, 2); break;
        case 4: std::memcpy(dst, src, 4); break;
        case 8: std::memcpy(dst, src, 8); break;
        default: std::memcpy(dst, src, 16); break;
    }
}

void write_result(int code, int32_t dt, const Acc& a, int64_t count, char* dst) {
    size_t sz = itemsize_of(dt);
    if (code == R_NONZERO) {
        std::memcpy(dst, &a.u, 8);  // int64
    } else if (code == R_PROD) {
        if (dt == EMBER_FLOAT32) {
            const float p = (float)a.d;
            std::memcpy(dst, &p, 4);
        } else if (dt == EMBER_COMPLEX64) {
            const float parts[2] = {(float)a.pair[0], (float)a.pair[1]};
            std::memcpy(dst, parts, 8);
        } else if (dt == EMBER_COMPLEX128) {
            std::memcpy(dst, a.pair, 16);
        } else if (half_slot(dt) >= 0) {  // the double product rounded once, as the reference's
            g_isa->cvt[C_F64][half_slot(dt)](&a.d, dst, 1);
        } else {
            std::memcpy(dst, a.raw, 8);  // float64, or a (u)int64 product
        }
    } else if (code == R_SUM || code == kMean) {
        if (dt == EMBER_FLOAT32) {
            float s = (float)a.d;
            if (code == kMean) s = s / (float)count;  // as the composite: sum, then divide
            std::memcpy(dst, &s, 4);
        } else if (dt == EMBER_FLOAT64) {
            double s = a.d;
            if (code == kMean) s = s / (double)count;
            std::memcpy(dst, &s, 8);
        } else if (dt == EMBER_COMPLEX64) {  // sums only (complex means take the composite)
            const float parts[2] = {(float)a.pair[0], (float)a.pair[1]};
            std::memcpy(dst, parts, 8);
        } else if (dt == EMBER_COMPLEX128) {
            std::memcpy(dst, a.pair, 16);
        } else if (half_slot(dt) >= 0) {  // a mean as the composite's: in float32, rounded once
            float s = (float)a.d;
            if (code == kMean) s = s / (float)count;
            g_isa->cvt[C_F32][half_slot(dt)](&s, dst, 1);
        } else {
            std::memcpy(dst, &a.u, 8);
        }
    } else {
        copy_element(dst, a.raw, sz);
    }
}

// Pairwise combination of partial results, in index order.
Acc combine_range(int op, int32_t dt, const Acc* p, int64_t n, RowFn row) {
    if (n == 1) return p[0];
    int64_t h = n / 2;
    Acc a = combine_range(op, dt, p, h, row), b = combine_range(op, dt, p + h, n - h, row);
    combine(op, dt, a, b, row);
    return a;
}

// The composite mean's second step on the sums in out: divide by the count converted to
// the result dtype, with the reference's division.
ember_status_t divide_by_count(const ember_kernel_call_t* c) {
    static const ember_kernel_t ref_div = ref_kernel("divide"), ref_cast = ref_kernel("astype");
    const ember_view_t& in = c->in[0];
    const ember_view_t& out = c->out[0];
    ember_status_t st = EMBER_OK;
    double count = 1;
    for (int d = 0; d < in.ndim; ++d)
        if (c->attrs->axes_mask & (1ull << d)) count *= (double)in.shape[d];
    alignas(16) unsigned char scalar[16] = {0};
    ember_view_t src{&count, 0, EMBER_FLOAT64, 0, nullptr, nullptr};
    ember_view_t dst{scalar, 0, out.dtype, 0, nullptr, nullptr};
    ember_kernel_call_t cast = *c;
    cast.n_in = cast.n_out = 1;
    cast.in = &src;
    cast.out = &dst;
    if ((st = ref_cast.fn(&cast)) != EMBER_OK) return st;
    int64_t zeros[EMBER_MAX_DIMS] = {0};
    ember_view_t ins[2] = {out, ember_view_t{scalar, 0, out.dtype, out.ndim, out.shape, zeros}};
    ember_kernel_call_t div = *c;
    div.n_in = 2;
    div.in = ins;
    return ref_div.fn(&div);
}

// mean for dtypes without a native path: the composite's steps with reference kernels.
ember_status_t mean_fallback(const ember_kernel_call_t* c) {
    static const ember_kernel_t ref_sum = ref_kernel("sum");
    ember_kernel_call_t call = *c;
    ember_status_t st = ref_sum.fn(&call);
    return st != EMBER_OK ? st : divide_by_count(c);
}

bool reduce_native(const ember_kernel_call_t* c, int code);

// A sum of narrow integers in a layout without a native path: widened into a contiguous
// (u)int64 copy first, as the core does for backends without EMBER_KERNEL_WIDENS_INPUT.
ember_status_t sum_widened(const ember_kernel_call_t* c) {
    static const ember_kernel_t ref_cast = ref_kernel("astype");
    const ember_view_t& in = c->in[0];
    Scratch<uint64_t> wide(std::max<int64_t>(numel(in), 1));
    int64_t strides[EMBER_MAX_DIMS];
    c_order_strides(in, strides);
    const ember_view_t wide_view{wide.data, 0, c->out[0].dtype, in.ndim, in.shape, strides};
    ember_kernel_call_t call = *c;
    call.n_out = 1;
    call.out = &wide_view;
    ember_status_t st = ref_cast.fn(&call);
    if (st != EMBER_OK) return st;
    call.in = &wide_view;
    call.out = c->out;
    return reduce_native(&call, R_SUM) ? EMBER_OK : delegate(&call);
}

// Rows of a matrix, L <= kShortRow elements each (contiguous, si apart; results so apart),
// the accumulator a local and the result written in a typed loop; rows of a few elements
// fold inline. Through reduce_one, Acc and write_result every row paid a chain of calls and
// dispatches: a sum over rows of 2 float32s took 11 ns a row on two threads.
// The inline folds give the row kernels' bits: max and min by the reference's rule (the
// last NaN, the first of equal values), integer sums wrap in any order, and a float sum of
// up to 3 elements is ((0 + x0) + x1) + x2 in double in every ISA's sum_block.
constexpr int64_t kShortRow = 64;

template <class T, bool IsMax>
T extreme_exact(const T* p, int64_t L) {  // the reference's rule: the last NaN, the first of equals
    T a = p[0];
    for (int64_t k = 1; k < L; ++k) {
        const T v = p[k];
        if (IsMax ? v > a : v < a) a = v;
        if constexpr (std::is_floating_point_v<T>)
            if (v != v) a = v;
    }
    return a;
}

template <class T, bool IsMax>
void short_rows_extreme(RowFn row, const char* px, int64_t L, int64_t si, char* po, int64_t so, int64_t b, int64_t e) {
    const T* x = (const T*)px;
    T* o = (T*)po;
    if (L > 8) {
        for (int64_t r = b; r < e; ++r) {
            T a = x[r * si];
            row(x + r * si, L, &a);
            o[r * so] = a;
        }
        return;
    }
    for (int64_t r = b; r < e; ++r) {
        const T* p = x + r * si;
        if constexpr (std::is_floating_point_v<T>) {
            // A select GCC makes a maxss/minss (a branch per element mispredicted half the
            // time on random data); a row holding a NaN or ending at a zero (which NaN, which
            // signed zero) is folded again by the rule.
            T a = p[0];
            bool nan = p[0] != p[0];
            for (int64_t k = 1; k < L; ++k) {
                const T v = p[k];
                a = (IsMax ? v > a : v < a) ? v : a;
                nan |= v != v;
            }
            o[r * so] = nan || a == 0 ? extreme_exact<T, IsMax>(p, L) : a;
        } else {
            T a = p[0];
            for (int64_t k = 1; k < L; ++k) a = (IsMax ? p[k] > a : p[k] < a) ? p[k] : a;
            o[r * so] = a;
        }
    }
}

// Float sums and means: a double accumulator from 0, rounded as write_result does. In: the
// elements' type, T's or (u)int64 (a mean into float64).
template <class T, class In = T>
void short_rows_sum(RowFn row, bool mean, int64_t count, const char* px, int64_t L, int64_t si, char* po, int64_t so, int64_t b,
                    int64_t e) {
    const In* x = (const In*)px;
    T* o = (T*)po;
    const T divisor = (T)count;
    auto put = [&](int64_t r, double a) {
        T s = (T)a;
        if (mean) s = s / divisor;
        o[r * so] = s;
    };
    if (L > 3) {
        for (int64_t r = b; r < e; ++r) {
            double a = 0;
            row(x + r * si, L, &a);
            put(r, a);
        }
        return;
    }
    for (int64_t r = b; r < e; ++r) {
        const In* p = x + r * si;
        double a = 0;
        for (int64_t k = 0; k < L; ++k) a += (double)p[k];
        put(r, a);
    }
}

template <class T>  // integer sums: (u)int64, wrapping (T's values sign- or zero-extended)
void short_rows_int_sum(const char* px, int64_t L, int64_t si, char* po, int64_t so, int64_t b, int64_t e) {
    const T* x = (const T*)px;
    uint64_t* o = (uint64_t*)po;
    for (int64_t r = b; r < e; ++r) {
        const T* p = x + r * si;
        uint64_t a = 0;
        for (int64_t k = 0; k < L; ++k) a += (uint64_t)(std::conditional_t<std::is_signed_v<T>, int64_t, uint64_t>)p[k];
        o[r * so] = a;
    }
}

// Others through the row kernel with a local accumulator of type A from `init`, stored as
// type O (count_nonzero: uint64 counts; products: double for floats, (u)int64 wrapping).
template <class A, class O>
void short_rows_by_kernel(RowFn row, A init, const char* px, size_t sz, int64_t L, int64_t si, char* po, int64_t so, int64_t b,
                          int64_t e) {
    O* o = (O*)po;
    for (int64_t r = b; r < e; ++r) {
        A a = init;
        row(px + r * si * (int64_t)sz, L, &a);
        o[r * so] = (O)a;
    }
}

bool reduce_short_rows(int code, int32_t dt, RowFn row, const char* px, int64_t L, int64_t nout, int64_t si, char* po, int64_t so);

// float16/bfloat16 rows [b, e): blocks of rows widened to float32 (packed rows in one
// conversion), reduced by float32's short-row loops, narrowed back: sums and means to
// float32 results as write_result's (the double sum rounded to float32, a mean divided
// there), max and min to the elements themselves, products to double ones (rounded once,
// as the reference's). Row by row through the half types' row kernels, (100000, 10)
// float16 took 1.4 ms.
void short_rows_half(int code, int slot, const char* px, int64_t L, int64_t si, char* po, int64_t so, int64_t b, int64_t e) {
    constexpr int64_t kBlock = 2048;
    const int64_t per_block = kBlock / L;
    const bool prod = code == R_PROD;
    const CvtFn widen = g_isa->cvt[slot][C_F32], narrow = g_isa->cvt[prod ? C_F64 : C_F32][slot];
    const RowFn row32 = g_isa->row[code == kMean ? R_SUM : code][EMBER_FLOAT32];
    const size_t result_size = prod ? 8 : 4;
    const uint16_t* x = (const uint16_t*)px;
    uint16_t* o = (uint16_t*)po;
    alignas(64) float wide[kBlock];
    alignas(64) double results[kBlock];
    for (int64_t r0 = b; r0 < e; r0 += per_block) {
        const int64_t rows = std::min(per_block, e - r0);
        if (si == L) widen(x + r0 * si, wide, rows * L);
        else
            for (int64_t r = 0; r < rows; ++r) widen(x + (r0 + r) * si, wide + r * L, L);
        if (prod) short_rows_by_kernel<double, double>(row32, 1.0, (const char*)wide, 4, L, L, (char*)results, 1, 0, rows);
        else reduce_short_rows(code, EMBER_FLOAT32, row32, (const char*)wide, L, rows, L, (char*)results, 1);
        if (so == 1) narrow(results, o + r0, rows);
        else
            for (int64_t r = 0; r < rows; ++r) narrow((const char*)results + r * result_size, o + (r0 + r) * so, 1);
    }
}

// False where the op or dtype has no short-row loop here.
bool reduce_short_rows(int code, int32_t dt, RowFn row, const char* px, int64_t L, int64_t nout, int64_t si, char* po, int64_t so) {
    auto run = [&](auto body) {
        parallel_range(nout, nout * L >= kParallelCheap ? 0 : INT64_MAX, 1024, body);
        return true;
    };
    if (half_slot(dt) >= 0 && (code == R_SUM || code == kMean || code == R_MAX || code == R_MIN || code == R_PROD))
        return run([&](int64_t b, int64_t e) { short_rows_half(code, half_slot(dt), px, L, si, po, so, b, e); });
    auto typed = [&](auto zero) {  // the dtype's C type as zero's
        using T = decltype(zero);
        if (code == R_SUM) return run([&](int64_t b, int64_t e) { short_rows_int_sum<T>(px, L, si, po, so, b, e); });
        if (code == R_MAX) return run([&](int64_t b, int64_t e) { short_rows_extreme<T, true>(row, px, L, si, po, so, b, e); });
        return run([&](int64_t b, int64_t e) { short_rows_extreme<T, false>(row, px, L, si, po, so, b, e); });
    };
    if (code == kMean || (code == R_SUM && (dt == EMBER_FLOAT32 || dt == EMBER_FLOAT64))) {
        if (dt == EMBER_FLOAT32)
            return run([&](int64_t b, int64_t e) { short_rows_sum<float>(row, code == kMean, L, px, L, si, po, so, b, e); });
        if (dt == EMBER_FLOAT64)
            return run([&](int64_t b, int64_t e) { short_rows_sum<double>(row, code == kMean, L, px, L, si, po, so, b, e); });
        if (code == kMean && dt == EMBER_INT64)
            return run([&](int64_t b, int64_t e) { short_rows_sum<double, int64_t>(row, true, L, px, L, si, po, so, b, e); });
        if (code == kMean && dt == EMBER_UINT64)
            return run([&](int64_t b, int64_t e) { short_rows_sum<double, uint64_t>(row, true, L, px, L, si, po, so, b, e); });
        return false;
    }
    const size_t sz = itemsize_of(dt);
    if (code == R_NONZERO)
        return run([&](int64_t b, int64_t e) { short_rows_by_kernel<uint64_t, uint64_t>(row, 0, px, sz, L, si, po, so, b, e); });
    if (code == R_PROD && dt == EMBER_FLOAT32)
        return run([&](int64_t b, int64_t e) { short_rows_by_kernel<double, float>(row, 1.0, px, sz, L, si, po, so, b, e); });
    if (code == R_PROD && dt == EMBER_FLOAT64)
        return run([&](int64_t b, int64_t e) { short_rows_by_kernel<double, double>(row, 1.0, px, sz, L, si, po, so, b, e); });
    if (code == R_PROD && int64_dtype(dt))
        return run([&](int64_t b, int64_t e) { short_rows_by_kernel<uint64_t, uint64_t>(row, 1, px, sz, L, si, po, so, b, e); });
    if (code != R_SUM && code != R_MAX && code != R_MIN) return false;
    switch (dt) {  // bools are bytes 0 and 1: max is any, min all (their sums come as counts)
        case EMBER_BOOL: return code != R_SUM && typed(uint8_t{});
        case EMBER_INT8: return typed(int8_t{});
        case EMBER_INT16: return typed(int16_t{});
        case EMBER_INT32: return typed(int32_t{});
        case EMBER_INT64: return typed(int64_t{});
        case EMBER_UINT8: return typed(uint8_t{});
        case EMBER_UINT16: return typed(uint16_t{});
        case EMBER_UINT32: return typed(uint32_t{});
        case EMBER_UINT64: return typed(uint64_t{});
        case EMBER_FLOAT32: return code != R_SUM && typed(float{});
        case EMBER_FLOAT64: return code != R_SUM && typed(double{});
        default: return false;
    }
}

// Runs reduction `code` (an R_* op or kMean) natively; false where the dtype or layout has
// no native path (nothing is written then).
bool reduce_native(const ember_kernel_call_t* c, int code) {
    const ember_view_t& in = c->in[0];
    const ember_view_t& out = c->out[0];
    const uint64_t mask = c->attrs->axes_mask;
    const int op = code == kMean ? R_SUM : code;
    int32_t dt = in.dtype;
    const bool int_mean = integer_mean(c, code);
    if (out.dtype != result_dtype(op, dt) && !int_mean) return false;
    if (code == kMean && !float_sum(dt) && !int_mean) return false;
    const bool complex_prod = op == R_PROD && complex_dtype(dt);
    RowFn row = int_mean ? g_isa->row_sum_as_f64[dt == EMBER_UINT64] : g_isa->row[op][dt];
    ColFn col = int_mean                            ? g_isa->col_sum_as_f64[dt == EMBER_UINT64]
                : complex_dtype(dt) && op == R_SUM ? g_isa->col[op][dt == EMBER_COMPLEX64 ? EMBER_FLOAT32 : EMBER_FLOAT64]
                                                    : g_isa->col[op][dt];
    if (!row || !col) return false;
    // The row and column kernels convert an integer mean's elements; its accumulators and
    // results are float64's from here on (the short-row loops still read the elements).
    const int32_t element_dt = dt;
    if (int_mean) dt = EMBER_FLOAT64;

    size_t sz = itemsize_of(dt), osz = itemsize_of(out.dtype);
    const char* px = base_ptr(in);
    char* po = base_ptr(out);
    // Dims: drop unit ones, walk reversed ones forwards (x[::-1] went to the reference's loop:
    // a sum of 2e6 float32 took 10 ms, NumPy 1.3), sort by input stride (stable), merge
    // neighbours. A kept dim walked forwards writes its results backwards. Float max/min
    // then see their elements in another order than the reference: order_may_matter.
    Dim dims[EMBER_MAX_DIMS];
    int nd = 0;
    int64_t count = 1;  // reduced elements per output
    for (int d = 0; d < in.ndim; ++d) {
        bool red = (mask >> d) & 1;
        if (in.shape[d] == 0) return false;
        if (red) count *= in.shape[d];
        if (in.shape[d] == 1) continue;
        if (in.strides[d] == 0) return false;  // broadcast
        Dim dim{in.shape[d], in.strides[d], red ? 0 : out.strides[d], red};
        if (dim.si < 0) {
            px += (dim.n - 1) * dim.si * (int64_t)sz;
            po += (dim.n - 1) * dim.so * (int64_t)osz;
            dim.si = -dim.si;
            dim.so = -dim.so;
        }
        dims[nd++] = dim;
    }
    // Insertion sort (stable): std::stable_sort took a heap buffer, a third of a small sum.
    for (int d = 1; d < nd; ++d)
        for (int e = d; e > 0 && dims[e - 1].si < dims[e].si; --e) std::swap(dims[e - 1], dims[e]);
    int m = 0;
    for (int d = 0; d < nd; ++d) {
        if (m > 0 && dims[m - 1].red == dims[d].red && dims[m - 1].si == dims[d].si * dims[d].n &&
            (dims[d].red || dims[m - 1].so == dims[d].so * dims[d].n)) {
            dims[m - 1].n *= dims[d].n;
            dims[m - 1].si = dims[d].si;
            dims[m - 1].so = dims[d].so;
        } else {
            dims[m++] = dims[d];
        }
    }
    nd = m;

    if (nd == 0 || dims[nd - 1].red) {
        // ---- ROW (a strided innermost dim, e.g. x[::2, ::3], is gathered in L1 pieces)
        const int64_t L = nd ? dims[nd - 1].n : 1;
        Index kept, rows;
        for (int d = 0; d < nd - 1; ++d) (dims[d].red ? rows : kept).add(dims[d]);
        const int64_t nout = kept.count, nrows = rows.count, total = nout * nrows * L;
        const int64_t step = nd ? dims[nd - 1].si : 1;
        auto init_acc = [&](Acc& a, const char* first) {
            a.pair[0] = a.pair[1] = 0;
            if (op == R_PROD && int64_dtype(dt)) a.u = 1;
            else if (op == R_PROD) a.d = 1;
            else if (!adds(op)) copy_element(a.raw, first, sz);
        };
        // row() over `len` elements `step` apart from p.
        auto fold = [&](const char* p, int64_t len, void* acc) {
            if (step == 1) return row(p, len, acc);
            constexpr int64_t kPiece = 1024;
            alignas(64) char buf[kPiece * 16];
            for (int64_t j = 0; j < len; j += kPiece) {
                const int64_t m = std::min(kPiece, len - j);
                gather_strided(p + j * step * (int64_t)sz, 0, step, 1, m, sz, kPiece, buf);
                row(buf, m, acc);
            }
        };
        // One kept dim and one reduced run (rows of a matrix): offsets without the divisions
        // of Index::offsets, a third of a row of 2 or 3 elements; short rows have loops of
        // their own.
        const bool plain_rows = kept.nd == 1 && rows.nd == 0;
        if (plain_rows && step == 1 && L <= kShortRow && nout > 1 &&
            reduce_short_rows(code, element_dt, row, px, L, nout, kept.stride[0][0], po, kept.stride[1][0]))
            return true;
        // Short stepped rows (x[:, ::2]), nearer within than to each other: blocks of rows
        // gathered into L1, then the short-row loops on the block (a call over no rows says
        // whether the op and dtype have them). A row each through `fold` took 7 ms for
        // 300000 rows of 4 float32s (NumPy 7), 12 ms for a max of uint8s (NumPy 8).
        const int64_t si = plain_rows ? kept.stride[0][0] : 0, so = plain_rows ? kept.stride[1][0] : 0;
        const size_t esz = itemsize_of(element_dt);
        if (plain_rows && step > 1 && step < si && L <= kShortRow && nout > 1 && esz <= 8 &&
            reduce_short_rows(code, element_dt, row, px, L, 0, L, po, so)) {
            constexpr int64_t kBlock = 2048;
            const int64_t per_block = kBlock / L;
            parallel_range(nout, nout * L >= kParallelCheap ? 0 : INT64_MAX, per_block, [&](int64_t b, int64_t e) {
                alignas(64) char block[kBlock * 8];
                for (int64_t r0 = b; r0 < e; r0 += per_block) {
                    const int64_t n = std::min(per_block, e - r0);
                    gather_strided(px + r0 * si * (int64_t)esz, si, step, n, L, esz, L, block);
                    reduce_short_rows(code, element_dt, row, block, L, n, L, po + r0 * so * (int64_t)osz, so);
                }
            });
            return true;
        }
        auto reduce_one = [&](int64_t o) {
            int64_t ib, ob;
            if (plain_rows) {
                ib = o * kept.stride[0][0];
                ob = o * kept.stride[1][0];
            } else {
                kept.offsets(o, ib, ob);
            }
            Acc a;
            init_acc(a, px + ib * (int64_t)sz);
            for (int64_t r = 0; r < nrows; ++r) {
                int64_t ri, unused;
                rows.offsets(r, ri, unused);
                fold(px + (ib + ri) * (int64_t)sz, L, a.raw);
            }
            write_result(code, dt, a, count, po + ob * (int64_t)osz);
        };
        const int nt = num_threads();
        if (total < kParallelCheap || nt <= 1 || nout >= 2 * (int64_t)nt) {
            // Serial, or one output per task.
            if (total < kParallelCheap || nt <= 1) {
                for (int64_t o = 0; o < nout; ++o) reduce_one(o);
            } else {
                parallel_range(nout, 0, 1, [&](int64_t b, int64_t e) {
                    for (int64_t o = b; o < e; ++o) reduce_one(o);
                });
            }
            return true;
        }
        // Few outputs, much work: split each output's elements into fixed chunks.
        const int64_t chunk = 1 << 16;
        for (int64_t o = 0; o < nout; ++o) {
            int64_t ib, ob;
            kept.offsets(o, ib, ob);
            const int64_t per_row = (L + chunk - 1) / chunk;  // chunks per row
            const int64_t nchunks = per_row * nrows;
            std::vector<Acc> part((size_t)nchunks);
            // Each task folds a run of consecutive chunks, so every thread streams through
            // long stretches of memory (the hardware prefetchers lose ~30% of the DRAM
            // bandwidth when threads alternate 256 KiB chunks); the partials, and so the
            // result, are the same whatever the grouping.
            const int64_t per_task = (nchunks + 2 * nt - 1) / (2 * nt);
            parallel_tasks((nchunks + per_task - 1) / per_task, [&](int64_t g) {
                for (int64_t t = g * per_task; t < std::min(nchunks, (g + 1) * per_task); ++t) {
                    int64_t r = t / per_row, j0 = (t % per_row) * chunk;
                    int64_t len = std::min(chunk, L - j0);
                    int64_t ri, unused;
                    rows.offsets(r, ri, unused);
                    Acc a;  // max/min: from the chunk's own first element (x[0] would win ties and NaNs for it)
                    init_acc(a, px + (ib + ri + j0 * step) * (int64_t)sz);
                    fold(px + (ib + ri + j0 * step) * (int64_t)sz, len, a.raw);
                    part[(size_t)t] = a;
                }
            });
            Acc a = combine_range(op, dt, part.data(), nchunks, row);
            write_result(code, dt, a, count, po + ob * (int64_t)osz);
        }
        return true;
    }

    if (!dims[nd - 1].red && dims[nd - 1].si == 1 && dims[nd - 1].so == 1) {
        if (complex_dtype(dt) && op == R_SUM) {  // the real column sums of the (re, im) pairs
            for (int d = 0; d < nd; ++d) {
                dims[d].si *= 2;
                dims[d].so *= 2;
            }
            dims[nd - 1].n *= 2;
            dt = dt == EMBER_COMPLEX64 ? EMBER_FLOAT32 : EMBER_FLOAT64;
            sz = osz = itemsize_of(dt);
        }
        // ---- COLUMN: out[k, j] = op over rows r of in[k, r, j]. Each block of kRowBlock
        // rows reduces into a partial row of its own (a task streams whole rows, which the
        // prefetcher follows; a task per column stripe read short strided pieces), then the
        // partials combine in block order: the grouping depends on the shape, never on the
        // thread count. Sums accumulate in double (floats) or (u)int64; the column kernel
        // folds up to kColRows rows per call.
        const int64_t J = dims[nd - 1].n;
        Index kept, rows;
        for (int d = 0; d < nd - 1; ++d) (dims[d].red ? rows : kept).add(dims[d]);
        const int64_t nk = kept.count, nrows = rows.count, total = nk * nrows * J;
        // Threads from kParallelCheap float32s read (1 MiB) on, for bytes and halves too: the
        // pool and the partial rows made a 1000 x 1000 bool `all` over axis 0 slower on two
        // threads than on one (54 against 44 us; NumPy's 46-53).
        const bool threaded = total * (int64_t)std::min<size_t>(sz, 4) >= kParallelCheap * 4 && num_threads() > 1;
        const int nt = num_threads();
        constexpr int64_t kRowBlock = 256;
        const int64_t nrb = (nrows + kRowBlock - 1) / kRowBlock;
        int64_t cj = J;
        if (threaded && nk * nrb < 2 * (int64_t)nt) {
            cj = (J + 2 * nt - 1) / (2 * nt);
            cj = std::max<int64_t>(1024, (cj + 15) & ~(int64_t)15);
            // Fewer tasks than threads left a thread idle: narrower stripes, down to 256
            // columns (1 KiB of float32 a row), share the work ((256, 1024) float32: 24.6 us
            // on one thread, 17 on two). Below that, or with more stripes than threads, the
            // short strided pieces cost more than they share.
            const int64_t blocks = nk * nrb;
            if (blocks * ((J + cj - 1) / cj) < nt) {
                const int64_t stripes = (nt + blocks - 1) / blocks;
                cj = std::max<int64_t>(256, ((J + stripes - 1) / stripes + 15) & ~(int64_t)15);
            }
        }
        const int64_t nj = (J + cj - 1) / cj;
        const bool fsum = op == R_SUM && float_sum(dt);
        // double / (u)int64 for sums, counts, products; two doubles for complex products
        const size_t abytes = complex_prod ? 16 : adds(op) || op == R_PROD ? 8 : sz;
        // The caching allocator's memory: a fresh vector paid page faults and zeroing for
        // every call (each task sets its own part first).
        Scratch<uint64_t> partials(nrows <= kColRows ? 0 : (nk * nrb * J * (int64_t)abytes + 7) / 8);
        auto partial = [&](int64_t k, int64_t b, int64_t j) { return (char*)partials.data + ((k * nrb + b) * J + j) * (int64_t)abytes; };
        // Results from accumulators acc of columns [j0, j1) of kept position k.
        auto emit = [&](const char* acc, int64_t k, int64_t j0, int64_t j1) {
            int64_t ib, ob;
            kept.offsets(k, ib, ob);
            char* dst = po + (ob + j0) * (int64_t)osz;
            const double* sums = (const double*)acc;
            const int64_t n = j1 - j0;
            if (fsum && dt == EMBER_FLOAT32) {  // write_result's arithmetic, in loops the compiler vectorises
                float* out32 = (float*)dst;
                const float divisor = (float)count;
                if (code == kMean)
                    for (int64_t j = 0; j < n; ++j) out32[j] = (float)sums[j] / divisor;
                else
                    for (int64_t j = 0; j < n; ++j) out32[j] = (float)sums[j];
            } else if (fsum && dt == EMBER_FLOAT64) {
                double* out64 = (double*)dst;
                const double divisor = (double)count;
                if (code == kMean)
                    for (int64_t j = 0; j < n; ++j) out64[j] = sums[j] / divisor;
                else
                    for (int64_t j = 0; j < n; ++j) out64[j] = sums[j];
            } else if (!adds(op) && op != R_PROD) {  // max/min: the accumulators are the elements
                std::memcpy(dst, acc, (size_t)(j1 - j0) * sz);
            } else if (op == R_PROD && dt == EMBER_FLOAT32) {  // the double product rounded, as write_result
                for (int64_t j = 0; j < n; ++j) ((float*)dst)[j] = (float)sums[j];
            } else if (((adds(op) && !fsum) || (op == R_PROD && !complex_prod)) && abytes == 8 && osz == 8) {
                std::memcpy(dst, acc, (size_t)n * 8);  // integer sums, counts, float64 and (u)int64 products as they are
            } else {
                for (int64_t j = 0; j < j1 - j0; ++j) {
                    Acc v;
                    v.u = 0;
                    std::memcpy(v.raw, acc + j * (int64_t)abytes, abytes);
                    write_result(code, dt, v, count, dst + j * (int64_t)osz);
                }
            }
        };
        // A few narrow columns over many consecutive rows (the channels of an image, the
        // coordinates of points: (n, 3) over axis 0): k rows side by side are one row of
        // W = k * J columns, the column kernel folds those (a call per 8 rows of 3 columns
        // took 2-3 ns an element), then the k groups and the last nrows % k rows fold into J.
        // Sums and products into double or (u)int64 accumulators; extremes of integers, and of floats
        // unless one is a NaN (which of two NaNs the reference keeps depends on the order:
        // those go the general way); a zero result is the column's first zero, as the
        // reference's scan keeps (min of ReLU outputs).
        const bool rows_packed = rows.nd == 1 && rows.stride[0][0] == J;
        const bool float_extreme = (op == R_MAX || op == R_MIN) && (dt == EMBER_FLOAT32 || dt == EMBER_FLOAT64 || half_slot(dt) >= 0);
        const bool regroupable = adds(op) || float_extreme || (op == R_PROD && !complex_prod) ||
                                 ((op == R_MAX || op == R_MIN) && !float_sum(dt) && !complex_dtype(in.dtype));
        if (nk == 1 && J <= kNarrowColumns && rows_packed && regroupable && nrows >= 64 * (kSideBySide / J)) {
            const int64_t k = kSideBySide / J, W = k * J, wide_rows = nrows / k;
            const int64_t per_task = 256, tasks = (wide_rows + per_task - 1) / per_task;
            int64_t ib0, ob0;
            kept.offsets(0, ib0, ob0);
            const char* first = px + ib0 * (int64_t)sz;
            Scratch<uint64_t> sums((tasks * W * (int64_t)abytes + 7) / 8);
            auto combine = [&](char* acc, const char* p, int64_t n) {  // acc op= p, n accumulators
                if (fsum) {
                    for (int64_t j = 0; j < n; ++j) ((double*)acc)[j] += ((const double*)p)[j];
                } else if (adds(op)) {
                    for (int64_t j = 0; j < n; ++j) ((uint64_t*)acc)[j] += ((const uint64_t*)p)[j];
                } else if (op == R_PROD && int64_dtype(dt)) {
                    for (int64_t j = 0; j < n; ++j) ((uint64_t*)acc)[j] *= ((const uint64_t*)p)[j];
                } else if (op == R_PROD) {
                    for (int64_t j = 0; j < n; ++j) ((double*)acc)[j] *= ((const double*)p)[j];
                } else {
                    const void* partial_row[1] = {p};
                    col(partial_row, 1, n, acc);  // extremes: the accumulators are elements
                }
            };
            // rows [r0, r1) of the (nrows, J) block folded into acc (n = J) or of the wide view
            auto fold_rows = [&](const char* base, int64_t width, int64_t r0, int64_t r1, char* acc) {
                if (adds(op)) std::memset(acc, 0, (size_t)(width * (int64_t)abytes));
                else if (op == R_PROD && int64_dtype(dt)) std::fill((uint64_t*)acc, (uint64_t*)acc + width, uint64_t(1));
                else if (op == R_PROD) std::fill((double*)acc, (double*)acc + width, 1.0);
                else std::memcpy(acc, base + r0++ * width * (int64_t)sz, (size_t)(width * (int64_t)sz));
                while (r0 < r1) {
                    const void* group[kColRows];
                    int g = 0;
                    for (; g < kColRows && r0 < r1; ++g, ++r0) group[g] = base + r0 * width * (int64_t)sz;
                    col(group, g, width, acc);
                }
            };
            auto task = [&](int64_t t) {
                fold_rows(first, W, t * per_task, std::min(wide_rows, (t + 1) * per_task), (char*)sums.data + t * W * (int64_t)abytes);
            };
            if (threaded) parallel_tasks(tasks, task);
            else
                for (int64_t t = 0; t < tasks; ++t) task(t);
            char* acc = (char*)sums.data;
            for (int64_t t = 1; t < tasks; ++t) combine(acc, acc + t * W * (int64_t)abytes, W);
            for (int64_t g = 1; g < k; ++g) combine(acc, acc + g * J * (int64_t)abytes, J);
            if (wide_rows * k < nrows) {
                alignas(64) char rest[kNarrowColumns * 16];
                fold_rows(first, J, wide_rows * k, nrows, rest);
                combine(acc, rest, J);
            }
            bool settled = true;
            // The zero the reference's scan keeps (E: the element type, its bits for the half
            // types, whose zeros are the bits 0 and 0x8000).
            auto first_zero = [&](auto element, int64_t j) {
                using E = decltype(element);
                const E* column = (const E*)first + j;
                for (int64_t r = 0; r < nrows; ++r) {
                    const E v = column[r * J];
                    bool zero;
                    if constexpr (std::is_same_v<E, uint16_t>) zero = (v & 0x7fff) == 0;
                    else zero = v == 0;
                    if (zero) return ((E*)acc)[j] = v, void();
                }
            };
            const bool half = half_slot(dt) >= 0;
            for (int64_t j = 0; j < J && float_extreme; ++j) {
                const double v = float_at(dt, acc, j);
                settled = settled && v == v;
                if (v == 0 && dt == EMBER_FLOAT32) first_zero(float(), j);
                else if (v == 0 && half) first_zero(uint16_t(), j);
                else if (v == 0) first_zero(double(), j);
            }
            if (settled) {
                emit(acc, 0, 0, J);
                return true;
            }
        }
        // At most kColRows rows (one fold per column): pieces of kPiece columns reduce into
        // a buffer on the stack and become results at once, no partial rows in memory (those
        // cost three passes over the columns: a (2, 1e6) sum took 0.86 ms, NumPy 0.25).
        const bool direct = nrows <= kColRows;
        constexpr int64_t kPiece = 2048;
        auto reduce_columns = [&](int64_t k, int64_t b, int64_t j0, int64_t len, char* acc) {
            int64_t ib, ob, ri, unused;
            kept.offsets(k, ib, ob);
            int64_t r = b * kRowBlock;
            const int64_t r_end = std::min(nrows, r + kRowBlock);
            if (adds(op)) {
                std::memset(acc, 0, (size_t)len * abytes);
            } else if (complex_prod) {
                for (int64_t j = 0; j < len; ++j) ((double*)acc)[2 * j] = 1, ((double*)acc)[2 * j + 1] = 0;
            } else if (op == R_PROD && int64_dtype(dt)) {
                std::fill((uint64_t*)acc, (uint64_t*)acc + len, uint64_t(1));
            } else if (op == R_PROD) {
                std::fill((double*)acc, (double*)acc + len, 1.0);
            } else {
                rows.offsets(r++, ri, unused);
                std::memcpy(acc, px + (ib + ri + j0) * (int64_t)sz, (size_t)len * sz);
            }
            while (r < r_end) {
                const void* group[kColRows];
                int g = 0;
                for (; g < kColRows && r < r_end; ++g, ++r) {
                    rows.offsets(r, ri, unused);
                    group[g] = px + (ib + ri + j0) * (int64_t)sz;
                }
                col(group, g, len, acc);
            }
        };
        auto task = [&](int64_t t) {
            const int64_t k = t / (nrb * nj), b = t / nj % nrb, j0 = t % nj * cj, len = std::min(cj, J - j0);
            if (!direct) return reduce_columns(k, b, j0, len, partial(k, b, j0));
            alignas(64) uint64_t buffer[kPiece * 2];  // 16-byte accumulators at most
            for (int64_t p = j0; p < j0 + len; p += kPiece) {
                const int64_t n = std::min(kPiece, j0 + len - p);
                reduce_columns(k, b, p, n, (char*)buffer);
                emit((const char*)buffer, k, p, p + n);
            }
        };
        if (threaded) parallel_tasks(nk * nrb * nj, task);
        else
            for (int64_t t = 0; t < nk * nrb * nj; ++t) task(t);
        if (direct) return true;
        // The partial rows combine in block order and become results, in column pieces across
        // the pool: one serial pass over the kept columns took 1 ms for a (4, 262144) sum.
        auto finish = [&](int64_t k, int64_t j0, int64_t j1) {
            char* acc = partial(k, 0, 0);
            for (int64_t b = 1; b < nrb; ++b) {
                const char* p = partial(k, b, 0);
                if (fsum) {
                    for (int64_t j = j0; j < j1; ++j) ((double*)acc)[j] += ((const double*)p)[j];
                } else if (complex_prod) {
                    for (int64_t j = j0; j < j1; ++j)
                        multiply_pair(((double*)acc)[2 * j], ((double*)acc)[2 * j + 1], ((const double*)p)[2 * j], ((const double*)p)[2 * j + 1]);
                } else if (op == R_PROD && int64_dtype(dt)) {
                    for (int64_t j = j0; j < j1; ++j) ((uint64_t*)acc)[j] *= ((const uint64_t*)p)[j];
                } else if (op == R_PROD) {
                    for (int64_t j = j0; j < j1; ++j) ((double*)acc)[j] *= ((const double*)p)[j];
                } else if (adds(op)) {
                    for (int64_t j = j0; j < j1; ++j) ((uint64_t*)acc)[j] += ((const uint64_t*)p)[j];
                } else {
                    const void* partial_row[1] = {p + j0 * (int64_t)abytes};
                    col(partial_row, 1, j1 - j0, acc + j0 * (int64_t)abytes);  // max/min partials are elements
                }
            }
            emit(acc + j0 * (int64_t)abytes, k, j0, j1);
        };
        constexpr int64_t kFinishPiece = 4096;
        const int64_t pieces = (J + kFinishPiece - 1) / kFinishPiece;
        auto finish_task = [&](int64_t t) { finish(t / pieces, t % pieces * kFinishPiece, std::min(J, (t % pieces + 1) * kFinishPiece)); };
        if (nk * J * nrb >= kParallelCheap && nt > 1 && nk * pieces > 1) parallel_tasks(nk * pieces, finish_task);
        else
            for (int64_t t = 0; t < nk * pieces; ++t) finish_task(t);
        return true;
    }
    return false;
}

}  // namespace

// all/any (c's output bool) natively: of bools as their min/max, since bools are bytes 0 and
// 1; of other dtypes (handed over as they are: EMBER_KERNEL_TESTS_INPUT) as counts of the
// non-zero elements over the same axes, which count_nonzero's native layouts give: all where
// the count is the number reduced, any where it is not 0. False (nothing written) where no
// native layout applies.
bool all_any_native(const ember_kernel_call_t* c, bool all) {
    const ember_view_t& out = c->out[0];
    if (out.dtype != EMBER_BOOL) return false;
    if (c->in[0].dtype == EMBER_BOOL && reduce_native(c, all ? R_MIN : R_MAX)) return true;
    const int64_t n = numel(out);
    Scratch<int64_t> counts(std::max<int64_t>(n, 1));
    int64_t strides[EMBER_MAX_DIMS];
    c_order_strides(out, strides);
    const ember_view_t count_view{counts.data, 0, EMBER_INT64, out.ndim, out.shape, strides};
    ember_kernel_call_t call = *c;
    call.out = &count_view;
    if (n == 0 || !reduce_native(&call, R_NONZERO)) return false;
    int64_t reduced = 1;
    for (int d = 0; d < c->in[0].ndim; ++d)
        if (c->attrs->axes_mask & (1ull << d)) reduced *= c->in[0].shape[d];
    const ember_view_t* views[2] = {&out, &count_view};
    Geometry g;
    make_geometry(views, 2, g);
    uint8_t* dst = (uint8_t*)out.data + out.offset;
    const int64_t so = g.st[0][g.nd - 1], sc = g.st[1][g.nd - 1];
    walk_runs<2>(g, 0, g.size, [&](const int64_t* off, int64_t len) {
        for (int64_t k = 0; k < len; ++k) {
            const int64_t count = counts.data[off[1] + k * sc];
            dst[off[0] + k * so] = all ? count == reduced : count != 0;
        }
    });
    return true;
}

namespace {

// f(base, element index) for every element of a view.
template <class F>
void for_each_element(const ember_view_t& v, F&& f) {
    const ember_view_t* views[1] = {&v};
    Geometry g;
    if (!make_geometry(views, 1, g)) return;
    char* base = base_ptr(v);
    const int64_t step = g.st[0][g.nd - 1];
    walk_runs<1>(g, 0, g.size, [&](const int64_t* off, int64_t len) {
        if (step == 1)  // a loop the compiler can vectorise
            for (int64_t k = 0; k < len; ++k) f(base, off[0] + k);
        else
            for (int64_t k = 0; k < len; ++k) f(base, off[0] + k * step);
    });
}

// Float max/min visit the reduced elements in memory order; where the reduced dims' logical
// order is another (dims out of stride order, or reversed), which NaN or which of -0.0 and
// +0.0 comes out need not be the reference's: true when such a result is there.
bool order_may_matter(const ember_kernel_call_t* c) {
    const ember_view_t& in = c->in[0];
    int64_t previous = INT64_MAX;
    bool reordered = false;
    for (int d = 0; d < in.ndim; ++d) {
        if (!(c->attrs->axes_mask >> d & 1) || in.shape[d] == 1) continue;
        reordered |= in.strides[d] < 0 || in.strides[d] > previous;
        previous = in.strides[d];
    }
    if (!reordered) return false;
    bool found = false;
    for_each_element(c->out[0], [&](const char* base, int64_t i) {
        const double v = float_at(c->out[0].dtype, base, i);
        found |= v != v || v == 0;
    });
    return found;
}

// The reference's max/min of float32 and the half types convert their result (from double or
// float32): a NaN comes out quiet, a float16 one as sign | 0x7e00.
// (One loop per dtype, branch-free: a serial per-element pass took 40% of a (4, 262144) max.)
void quiet_nans(const ember_view_t& out) {
    if (out.dtype == EMBER_FLOAT32) {
        for_each_element(out, [](char* base, int64_t i) {
            uint32_t& u = ((uint32_t*)base)[i];
            u |= (u & 0x7fffffffu) > 0x7f800000u ? 0x400000u : 0u;
        });
    } else if (out.dtype == EMBER_FLOAT16) {
        for_each_element(out, [](char* base, int64_t i) {
            uint16_t& h = ((uint16_t*)base)[i];
            h = (h & 0x7fff) > 0x7c00 ? (uint16_t)((h & 0x8000) | 0x7e00) : h;
        });
    } else {
        for_each_element(out, [](char* base, int64_t i) {
            uint16_t& h = ((uint16_t*)base)[i];
            h |= (h & 0x7fff) > 0x7f80 ? 0x40 : 0;
        });
    }
}

// The native reduction of c where a native layout takes it (st its status), else false.
bool reduced_natively(const ember_kernel_call_t* c, int code, ember_status_t& st) {
    if (code == kMean && complex_dtype(c->in[0].dtype)) {
        if (!reduce_native(c, R_SUM)) return false;
        st = divide_by_count(c);
        return true;
    }
    if (!reduce_native(c, code)) return false;
    st = EMBER_OK;
    if (code == R_PROD && complex_dtype(c->in[0].dtype) && any_complex_nonfinite(c->out[0])) {
        st = complex_prod_in_sequence(c, true);  // infinities and NaNs where the reference's sequence puts them
    } else if ((code == R_MAX || code == R_MIN) && float_sum(c->in[0].dtype)) {
        if (order_may_matter(c)) st = reference_on_slices(c, kAxesMask);
        else if (c->in[0].dtype != EMBER_FLOAT64) quiet_nans(c->out[0]);
    }
    return true;
}

// Whether a copy of c's input in C order would reach a native layout: not where it is one
// already, nor for a broadcast input (its copy could be far larger), a dtype without kernels
// or the mean of integers (the composite's).
bool copy_helps(const ember_kernel_call_t* c, int code) {
    const ember_view_t& in = c->in[0];
    if (numel(in) == 0 || is_contiguous(in) || !g_isa->row[code == kMean ? R_SUM : code][in.dtype]) return false;
    if (code == kMean && !float_sum(in.dtype) && !complex_dtype(in.dtype) && !integer_mean(c, code)) return false;
    return !broadcast_input(in);
}

ember_status_t reduce_kernel(const ember_kernel_call_t* c) {
    const int code = kdata(c)->code;
    // The max (min) of bools over every axis is any (all), which stops at the first true
    // (false): the byte max of 1e6 random bools took 4.3-4.5 us, now 0.5 (NumPy's 1.5;
    // Intel host of series 40).
    if ((code == R_MAX || code == R_MIN) && c->in[0].dtype == EMBER_BOOL && c->in[0].ndim > 0 && numel(c->out[0]) == 1 &&
        c->out[0].dtype == EMBER_BOOL) {
        all_any_of_every_element(c->in[0], c->out[0], code == R_MIN);
        return EMBER_OK;
    }
    ember_status_t st;
    if (reduced_natively(c, code, st)) return st;
    // Other layouts (a stepped innermost kept dim: the sum over axis 0 of x[:, ::2]) reduce a
    // copy in C order: through the reference's loop that sum of a (1000, 2000) float32 took
    // 3.3 ms, NumPy 0.77. Where the allocator cannot lend the copy, the reference as before.
    if (copy_helps(c, code) &&
        run_on_c_order_copy(c, st, [code](const ember_kernel_call_t* call, ember_status_t& s) { return reduced_natively(call, code, s); }))
        return st;
    if (code == R_PROD && complex_dtype(c->in[0].dtype)) return complex_prod_in_sequence(c, false);  // other layouts
    if (code == R_PROD) return reference_on_slices(c, kAxesMask);  // other dtypes and layouts
    if (code == R_SUM && narrow_integer(c->in[0].dtype)) return sum_widened(c);
    // An integer mean no native layout takes (a broadcast input): on a float64 copy.
    if (integer_mean(c, code) &&
        run_on_c_order_copy(c, st, [](const ember_kernel_call_t* call, ember_status_t& s) {
            if (!reduced_natively(call, kMean, s)) s = mean_fallback(call);  // an empty axis: NaN
            return true;
        }, EMBER_FLOAT64))
        return st;
    return code == kMean ? mean_fallback(c) : delegate(c);
}

}  // namespace

void add_reduce_kernels(std::vector<NativeKernel>& k) {
    k.push_back({"sum", reduce_kernel, R_SUM, false, EMBER_KERNEL_WIDENS_INPUT});
    k.push_back({"max", reduce_kernel, R_MAX, false});
    k.push_back({"min", reduce_kernel, R_MIN, false});
    k.push_back({"count_nonzero", reduce_kernel, R_NONZERO, false});
    k.push_back({"prod", reduce_kernel, R_PROD, false});
    k.push_back({"mean", reduce_kernel, kMean, true, EMBER_KERNEL_WIDENS_INPUT});
}

}  // namespace ember_cpu
