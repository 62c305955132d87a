// vecdot of complex lines (COMPOSITE_KERNEL row, docs/backend-guide.md): sum(conj(a) * b)
// in one pass; the composite's conj, product and sum took three passes and two
// temporaries: 0.3-0.4x NumPy's np.vecdot, which calls the conjugating BLAS dot per line.
// Real rows, contiguous and up to kPairedLine long, in the ISA's kernel; columns (lines
// whose neighbours are next in memory) of every float dtype a row of each at a time.
// in: a, b (one dtype, one shape, any strides, the line along the last axis: the core
// casts, broadcasts and moves the axis); out[0]: the shape without the last axis,
// contiguous; out[1]: info int64 (0-d), nonzero declines (other dtypes, real lines that
// are long or not contiguous and not columns).
#include <cblas.h>

#include <algorithm>
#include <climits>
#include <complex>
#include <cstdint>
#include <type_traits>
#include <vector>

#include "cpu_common.hpp"

namespace ember_cpu {
namespace {

// Lines up to this long are summed here: the BLAS call's own cost (~20 ns) was most of a
// line of 16. Longer ones take CBLAS's conjugating dot (SIMD, several accumulators) on
// pieces of at most kDotPiece elements: OpenBLAS 0.3.21 threads a complex dot of more than
// 10000 elements itself, and waking its threads (or nesting them in the pool's) made a dot
// of 1e5 complex128 values take 90-110 us, NumPy 19; of 1e6 0.6-2.8 ms by chance.
constexpr int64_t kShortLine = 32;
constexpr int64_t kDotPiece = 8192;
// A line this long is summed in kLineParts parts, the pool's tasks where the lines are too
// few to share it out; the parts are fixed by the length alone, so that the sum does not
// depend on the thread count.
constexpr int64_t kLongLine = 1 << 16;
constexpr int64_t kLineParts = 8;

// complex64 lines sum in double: as exact as the pairwise sum of the composite for these
// lengths, at no cost that shows beside the loads. Four partial sums of each part: with one,
// every element waited for the previous add: (100000, 16) complex64 took 1.22-1.28 ms on
// the Zen 5 host of series 47, now 0.96-1.13 ms (bench/run_numpy.sh vecdot, same hour).
template <class T>
T short_dotc(const T* x, int64_t sx, const T* y, int64_t sy, int64_t k) {
    using Acc = std::conditional_t<std::is_same_v<T, std::complex<float>>, double, typename T::value_type>;
    constexpr int kChains = 4;
    Acc re[kChains] = {}, im[kChains] = {};
    auto add = [&](int chain, int64_t j) {
        const Acc xr = x[j * sx].real(), xi = x[j * sx].imag(), yr = y[j * sy].real(), yi = y[j * sy].imag();
        re[chain] += xr * yr + xi * yi;
        im[chain] += xr * yi - xi * yr;
    };
    int64_t j = 0;
    for (; j + kChains <= k; j += kChains)
        for (int c = 0; c < kChains; ++c) add(c, j + c);
    for (; j < k; ++j) add(0, j);
    return T((typename T::value_type)((re[0] + re[1]) + (re[2] + re[3])), (typename T::value_type)((im[0] + im[1]) + (im[2] + im[3])));
}

template <class T>
T blas_dotc(const T* x, int64_t sx, const T* y, int64_t sy, int64_t k) {
    // BLAS reads a vector with a negative step from its lowest address (its last element).
    if (sx < 0) x += (k - 1) * sx;
    if (sy < 0) y += (k - 1) * sy;
    T r;
    if constexpr (std::is_same_v<T, std::complex<float>>) cblas_cdotc_sub((int)k, x, (int)sx, y, (int)sy, &r);
    else cblas_zdotc_sub((int)k, x, (int)sx, y, (int)sy, &r);
    return r;
}

// Part `part` of a line (of `parts`), its pieces' dots added in order.
template <class T>
std::complex<double> part_dotc(const T* x, int64_t sx, const T* y, int64_t sy, int64_t k, int64_t part, int64_t parts) {
    const int64_t begin = part * k / parts, end = (part + 1) * k / parts;
    std::complex<double> s = 0;
    for (int64_t i = begin; i < end; i += kDotPiece) s += std::complex<double>(blas_dotc(x + i * sx, sx, y + i * sy, sy, std::min(kDotPiece, end - i)));
    return s;
}

template <class T>
void vecdot_lines(const ember_view_t& a, const ember_view_t& b, T* out) {
    const int nd = a.ndim;
    const int64_t k = a.shape[nd - 1], sa = a.strides[nd - 1], sb = b.strides[nd - 1];
    // BLAS takes int steps, and OpenBLAS's kernels are not promised a step of 0 (a line
    // broadcast along the axis): those lines sum here, as short ones.
    const bool blas = k > kShortLine && sa != 0 && sb != 0 && sa > INT_MIN && sa < INT_MAX && sb > INT_MIN && sb < INT_MAX;
    const int64_t parts = blas && k >= kLongLine ? kLineParts : 1;
    StridedWalk<2> walk;
    for (int d = 0; d < nd - 1; ++d) walk.add_dim(a.shape[d], {a.strides[d], b.strides[d]});
    const T* pa = (const T*)base_ptr(a);
    const T* pb = (const T*)base_ptr(b);
    if (parts > 1 && walk.count < 2 * num_threads()) {
        auto at = walk.cursor();
        for (int64_t i = 0; i < walk.count; ++i) {
            const int64_t* off = at.to(i);
            std::complex<double> sums[kLineParts];
            parallel_tasks(parts, [&](int64_t p) { sums[p] = part_dotc(pa + off[0], sa, pb + off[1], sb, k, p, parts); });
            std::complex<double> s = 0;
            for (int64_t p = 0; p < parts; ++p) s += sums[p];
            out[i] = T(s);
        }
        return;
    }
    parallel_range(walk.count, std::max<int64_t>(2, kParallelCheap / std::max<int64_t>(k, 1)), std::max<int64_t>(1, 4096 / k), [&](int64_t begin, int64_t end) {
        auto at = walk.cursor();
        for (int64_t i = begin; i < end; ++i) {
            const int64_t* off = at.to(i);
            if (!blas) {
                out[i] = short_dotc(pa + off[0], sa, pb + off[1], sb, k);
                continue;
            }
            std::complex<double> s = 0;
            for (int64_t p = 0; p < parts; ++p) s += part_dotc(pa + off[0], sa, pb + off[1], sb, k, p, parts);
            out[i] = T(s);
        }
    });
}

// Real rows up to this long are the ISA's paired_row_dots (simd_gemv.hpp): a row of a and
// of b read once, side by side, several rows' sums at a time. Longer ones decline to the
// composite's batch of BLAS DOT calls, which the pool (and OpenBLAS, for a single long
// line) shares out; a fixed bound, so that which sums a line takes does not depend on the
// thread count. The composite ran a (100000, 8) float32 vecdot as 100000 DOT calls in 0.81-
// 0.87 ms, now 0.12 (NumPy's np.vecdot 1.0-1.7, einsum 0.65); rows under 8 as a product and
// a sum, (1e6, 3) 1.9-2.4 ms, now 0.72-0.86 (np.vecdot 8.4, einsum 6.4).
constexpr int64_t kPairedLine = 4096;

// Columns of a and b: the lines step across rows, and neighbouring lines are neighbours in
// memory (np.vecdot(a, b, axis=0) of row-major matrices; the core moved the axis last):
// `dots` (y[j] = the line dot of column j, for j < columns) reads each row's stretch of
// columns once, in order. The composite's product and sum along the axis wrote and read a
// temporary as large as a; complex lines went to strided BLAS dots, a column each, which
// fetched a cache line per element ((100000, 16) complex64 along axis 0: 12.7 ms, NumPy's
// np.vecdot 22, einsum with conj 7.4, the same data along axis -1 2.1).
// A few columns and many rows sum in kLineParts parts of the rows (fixed by the shape, so
// the sums do not depend on the thread count); otherwise the columns are shared out.
constexpr int64_t kFewColumns = 64;
bool is_column_layout(const ember_view_t& a, const ember_view_t& b) {
    const int nd = a.ndim;
    return nd >= 2 && a.strides[nd - 2] == 1 && b.strides[nd - 2] == 1 && (a.strides[nd - 1] != 1 || b.strides[nd - 1] != 1);
}
template <class T, class Dots>
void column_vecdot(const ember_view_t& a, const ember_view_t& b, T* out, Dots dots) {
    const int nd = a.ndim;
    const int64_t k = a.shape[nd - 1], columns = a.shape[nd - 2], lda = a.strides[nd - 1], ldb = b.strides[nd - 1];
    StridedWalk<2> walk;
    for (int d = 0; d + 2 < nd; ++d) walk.add_dim(a.shape[d], {a.strides[d], b.strides[d]});
    const T* pa = (const T*)base_ptr(a);
    const T* pb = (const T*)base_ptr(b);
    const int64_t total = walk.count * columns;
    if (total <= kFewColumns && k >= kLongLine) {
        std::vector<T> partial(kLineParts * total);
        parallel_tasks(kLineParts, [&](int64_t part) {
            const int64_t p0 = part * k / kLineParts, p1 = (part + 1) * k / kLineParts;
            auto at = walk.cursor();
            for (int64_t o = 0; o < walk.count; ++o) {
                const int64_t* off = at.to(o);
                dots(pa + off[0] + p0 * lda, lda, pb + off[1] + p0 * ldb, ldb, partial.data() + part * total + o * columns, columns, p1 - p0);
            }
        });
        for (int64_t i = 0; i < total; ++i) {
            T s = partial[i];
            for (int64_t part = 1; part < kLineParts; ++part) s += partial[part * total + i];
            out[i] = s;
        }
        return;
    }
    parallel_range(total, std::max<int64_t>(2, kParallelCheap / std::max<int64_t>(k, 1)), std::max<int64_t>(16, 4096 / std::max<int64_t>(k, 1)), [&](int64_t begin, int64_t end) {
        auto at = walk.cursor();
        for (int64_t i = begin; i < end;) {
            const int64_t first = i % columns, count = std::min(end - i, columns - first);
            const int64_t* off = at.to(i / columns);
            dots(pa + off[0] + first, lda, pb + off[1] + first, ldb, out + i, count, k);
            i += count;
        }
    });
}

template <class T>
void real_column_vecdot(const ember_view_t& a, const ember_view_t& b, T* out) {
    const PairedColumnDotsFn dots = g_isa->paired_column_dots[std::is_same_v<T, float> ? 0 : 1];
    column_vecdot(a, b, out, [dots](const T* x, int64_t ldx, const T* y, int64_t ldy, T* r, int64_t columns, int64_t k) { dots(x, ldx, y, ldy, r, columns, k); });
}

// Complex columns: y[j] = sum_p conj(a[p * lda + j]) b[p * ldb + j] for j < columns, in
// stretches of kComplexStretch columns, the rows read in order; complex64 in double, as
// short_dotc. Sums in blocks of kComplexBlockRows rows, each block's then added to the
// column's total, as the real columns' kernel does. Every column takes the same operations
// in the same order, wherever it lies.
constexpr int64_t kComplexStretch = 256;
constexpr int64_t kComplexBlockRows = 256;
template <class T>
void complex_column_dots(const T* a, int64_t lda, const T* b, int64_t ldb, T* y, int64_t columns, int64_t k) {
    using R = typename T::value_type;
    using Acc = std::conditional_t<std::is_same_v<T, std::complex<float>>, double, R>;
    Acc total_re[kComplexStretch], total_im[kComplexStretch], block_re[kComplexStretch], block_im[kComplexStretch];
    for (int64_t j0 = 0; j0 < columns; j0 += kComplexStretch) {
        const int64_t n = std::min(kComplexStretch, columns - j0);
        for (int64_t j = 0; j < n; ++j) total_re[j] = total_im[j] = 0;
        for (int64_t p0 = 0; p0 < k; p0 += kComplexBlockRows) {
            const int64_t p1 = std::min(k, p0 + kComplexBlockRows);
            for (int64_t j = 0; j < n; ++j) block_re[j] = block_im[j] = 0;
            for (int64_t p = p0; p < p1; ++p) {
                const R* x = reinterpret_cast<const R*>(a + p * lda + j0);
                const R* z = reinterpret_cast<const R*>(b + p * ldb + j0);
                for (int64_t j = 0; j < n; ++j) {
                    const Acc xr = x[2 * j], xi = x[2 * j + 1], zr = z[2 * j], zi = z[2 * j + 1];
                    block_re[j] += xr * zr + xi * zi;
                    block_im[j] += xr * zi - xi * zr;
                }
            }
            for (int64_t j = 0; j < n; ++j) total_re[j] += block_re[j], total_im[j] += block_im[j];
        }
        for (int64_t j = 0; j < n; ++j) y[j0 + j] = T((R)total_re[j], (R)total_im[j]);
    }
}

// Rows of a and b (the last axis contiguous in both): the rows along axis nd - 2 a call of
// paired_row_dots each, the axes before it walked.
template <class T>
bool real_vecdot(const ember_view_t& a, const ember_view_t& b, T* out) {
    const int nd = a.ndim;
    const int64_t k = a.shape[nd - 1];
    if (is_column_layout(a, b)) {
        real_column_vecdot(a, b, out);
        return true;
    }
    if (k > kPairedLine || a.strides[nd - 1] != 1 || b.strides[nd - 1] != 1) return false;
    const int64_t rows = nd >= 2 ? a.shape[nd - 2] : 1, lda = nd >= 2 ? a.strides[nd - 2] : 0, ldb = nd >= 2 ? b.strides[nd - 2] : 0;
    StridedWalk<2> walk;
    for (int d = 0; d + 2 < nd; ++d) walk.add_dim(a.shape[d], {a.strides[d], b.strides[d]});
    const T* pa = (const T*)base_ptr(a);
    const T* pb = (const T*)base_ptr(b);
    const PairedRowDotsFn dots = g_isa->paired_row_dots[std::is_same_v<T, float> ? 0 : 1];
    const int64_t total = walk.count * rows;
    parallel_range(total, std::max<int64_t>(2, kParallelCheap / k), std::max<int64_t>(16, 4096 / k), [&](int64_t begin, int64_t end) {
        auto at = walk.cursor();
        for (int64_t i = begin; i < end;) {
            const int64_t first = i % rows, count = std::min(end - i, rows - first);
            const int64_t* off = at.to(i / rows);
            dots(pa + off[0] + first * lda, lda, pb + off[1] + first * ldb, ldb, out + i, count, k);
            i += count;
        }
    });
    return true;
}

ember_status_t vecdot_kernel(const ember_kernel_call_t* c) {
    if (c->n_in != 2 || c->n_out != 2 || c->out[1].dtype != EMBER_INT64 || numel(c->out[1]) != 1)
        return g_host->fail(EMBER_ERR_INVALID_ARGUMENT, "cpu vecdot: needs a and b, and outputs the result and info (one int64)");
    const ember_view_t &a = c->in[0], &b = c->in[1], &out = c->out[0];
    int64_t* info = (int64_t*)base_ptr(c->out[1]);
    *info = 1;
    bool same_shape = a.ndim == b.ndim && a.ndim >= 1 && out.ndim == a.ndim - 1;
    for (int d = 0; same_shape && d < a.ndim; ++d) same_shape = a.shape[d] == b.shape[d] && (d == a.ndim - 1 || out.shape[d] == a.shape[d]);
    if (!same_shape || a.dtype != b.dtype || out.dtype != a.dtype || !is_contiguous(out))
        return g_host->fail(EMBER_ERR_INVALID_ARGUMENT, "cpu vecdot: needs a and b of one dtype and shape and a contiguous output of that shape without its last axis");
    if (numel(out) == 0 || a.shape[a.ndim - 1] == 0) return EMBER_OK;  // declined: the composite gives the zeros
    if (a.dtype == EMBER_COMPLEX64 && is_column_layout(a, b)) column_vecdot(a, b, (std::complex<float>*)base_ptr(out), complex_column_dots<std::complex<float>>);
    else if (a.dtype == EMBER_COMPLEX128 && is_column_layout(a, b)) column_vecdot(a, b, (std::complex<double>*)base_ptr(out), complex_column_dots<std::complex<double>>);
    else if (a.dtype == EMBER_COMPLEX64) vecdot_lines(a, b, (std::complex<float>*)base_ptr(out));
    else if (a.dtype == EMBER_COMPLEX128) vecdot_lines(a, b, (std::complex<double>*)base_ptr(out));
    else if (a.dtype == EMBER_FLOAT32) {
        if (!real_vecdot(a, b, (float*)base_ptr(out))) return EMBER_OK;
    } else if (a.dtype == EMBER_FLOAT64) {
        if (!real_vecdot(a, b, (double*)base_ptr(out))) return EMBER_OK;
    } else {
        return EMBER_OK;
    }
    *info = 0;
    return EMBER_OK;
}

}  // namespace

void add_vecdot_kernel(std::vector<NativeKernel>& k) { k.push_back({"vecdot", vecdot_kernel, 0, true}); }

}  // namespace ember_cpu
