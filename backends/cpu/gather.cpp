// Index-shaped ops on the thread pool:
//   take     whole slices gathered by index: one memcpy per (outer position, index), the
//            case of an embedding lookup; indices are wrapped and checked as the gather
//            reads them, and on a bad one the reference runs again and reports it (the core
//            discards the fresh output of a failed call).
//   nonzero  two passes over runs of the C order: count per chunk, then each chunk writes
//            its coordinates from its prefix of the counts (contiguous runs 64 elements at
//            a time through a bit mask); all/any over every axis count the same way.
//   arange   start + i*step per element, computed as the reference computes it.
//   searchsorted  branch-free binary searches, 16 in lockstep (integers, float32, float64).
//   one_hot  rows zeroed, then one element set in each.
//   scatter  add and replace in one pass over src (other reductions: line_ops.cpp).
// Layouts and dtypes outside these paths (a non-contiguous take output, a take slice that is
// not one block, a 0-d nonzero) run the reference kernel.
#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstring>
#include <limits>
#include <memory>
#include <type_traits>
#include <vector>

#include <emmintrin.h>

#include "../common/saturating_cast.hpp"
#include "cpu_common.hpp"

namespace ember_cpu {
namespace {

constexpr int64_t kParallelBytes = int64_t(1) << 20;
constexpr int64_t kParallelGatherRows = int64_t(1) << 15;

// ---------------------------------------------------------------- take
// An index wrapped into [0, n) if negative; `outside` collects whether it is still outside,
// and then 0 stands in for it (the call fails later, but the read must stay in bounds).
inline int64_t wrapped_index(int64_t v, int64_t n, uint64_t& outside) {
    const int64_t i = v < 0 ? v + n : v;
    const bool bad = (uint64_t)i >= (uint64_t)n;
    outside |= bad;
    return bad ? 0 : i;
}
// o[k * so] = x[k * sx + (ix[k * si], wrapped) * axis_stride] for k < len; returns whether
// an index was outside [0, n). Each block of indices is first checked with one AND the
// compiler vectorises (v is in [0, n) exactly when ~v & (v - n) has its top bit set, in
// uint64_t), and a block that passes is gathered by bare indexed loads. Wrapping and
// checking inside the gather loop kept fewer of its random reads in flight: 1e5 float32
// from a 4 MB table took 250-280 us on one thread against 185-195 for the bare loop
// (Emerald Rapids); checked blocks take 195-205.
template <class T>
uint64_t gather_run(T* o, int64_t so, const T* x, int64_t sx, const int64_t* ix, int64_t si, int64_t len, int64_t n, int64_t axis_stride) {
    constexpr int64_t kCheckedBlock = 256;
    const bool unit = so == 1 && sx == 0 && si == 1 && axis_stride == 1;
    uint64_t outside = 0;
    for (int64_t b = 0; b < len; b += kCheckedBlock) {
        const int64_t e = std::min(len, b + kCheckedBlock);
        uint64_t in_range = ~uint64_t(0);
        if (si == 1) {
            for (int64_t k = b; k < e; ++k) in_range &= ~(uint64_t)ix[k] & ((uint64_t)ix[k] - (uint64_t)n);
        } else {
            for (int64_t k = b; k < e; ++k) in_range &= ~(uint64_t)ix[k * si] & ((uint64_t)ix[k * si] - (uint64_t)n);
        }
        if (!(in_range >> 63)) {
            for (int64_t k = b; k < e; ++k) o[k * so] = x[k * sx + wrapped_index(ix[k * si], n, outside) * axis_stride];
        } else if (unit) {
            for (int64_t k = b; k < e; ++k) o[k] = x[ix[k]];
        } else {
            for (int64_t k = b; k < e; ++k) o[k * so] = x[k * sx + ix[k * si] * axis_stride];
        }
    }
    return outside;
}
template <class T>
uint64_t gather_elements(char* dst, const char* src, const int64_t* index, int64_t count, int64_t stride, int64_t n) {
    return gather_run<T>(reinterpret_cast<T*>(dst), 1, reinterpret_cast<const T*>(src), 0, index, 1, count, n, stride);
}

// A few indices along an axis whose outer dims merge into one stride (channels of pixels:
// x[..., [2, 1, 0]]): the offsets wrapped and checked once, then one typed loop over the outer
// positions. A gather call per outer position took 3 ns an element. False (nothing
// written) for other layouts or a bad index (the caller's path reports it).
constexpr int64_t kShortIndexList = 64;
bool short_index_list(const ember_view_t& x, int axis, int64_t outer, const int64_t* index, int64_t count, size_t sz, char* obase) {
    for (int d = axis - 1; d > 0; --d)
        if (x.strides[d - 1] != x.strides[d] * x.shape[d]) return false;
    const int64_t outer_stride = axis > 0 ? x.strides[axis - 1] : 0, n = x.shape[axis];
    int64_t offsets[kShortIndexList];
    uint64_t outside = 0;
    for (int64_t j = 0; j < count; ++j) offsets[j] = wrapped_index(index[j], n, outside) * x.strides[axis];
    if (outside) return false;
    auto run = [&](auto element) {
        using E = decltype(element);
        const E* src = (const E*)base_ptr(x);
        E* dst = (E*)obase;
        // fixed: count as a constant, or 0. Locals, so that byte stores (which may alias
        // anything) do not reload the pointers and offsets for every element.
        auto rows = [src, dst, outer_stride, count, &offsets](auto fixed, int64_t begin, int64_t end) {
            constexpr int64_t k = decltype(fixed)::value;
            const int64_t m = k ? k : count;
            int64_t off[kShortIndexList];
            std::copy(offsets, offsets + m, off);
            const E* __restrict s = src + begin * outer_stride;
            E* __restrict d = dst + begin * m;
            for (int64_t o = begin; o < end; ++o, s += outer_stride, d += m)
                for (int64_t j = 0; j < m; ++j) d[j] = s[off[j]];
        };
        parallel_range(outer, outer * count >= kParallelCheap ? 0 : INT64_MAX, std::max<int64_t>(1, 4096 / count), [&](int64_t begin, int64_t end) {
            switch (count) {
                case 3: return rows(std::integral_constant<int64_t, 3>(), begin, end);
                case 4: return rows(std::integral_constant<int64_t, 4>(), begin, end);
                default: return rows(std::integral_constant<int64_t, 0>(), begin, end);
            }
        });
    };
    visit_bits(sz, run);
    return true;
}

ember_status_t take_kernel(const ember_kernel_call_t* c) {
    const ember_view_t& x = c->in[0];
    const ember_view_t& idx = c->in[1];
    const ember_view_t& out = c->out[0];
    const int axis = (int)c->attrs->i[0];
    if (c->n_in != 2 || idx.dtype != EMBER_INT64 || axis < 0 || axis >= x.ndim || out.ndim != x.ndim - 1 + idx.ndim || !is_contiguous(out))
        return delegate(c);
    int64_t outer = 1, inner = 1;
    for (int d = 0; d < axis; ++d) outer *= x.shape[d];
    for (int d = x.ndim - 1; d > axis; --d) {
        if (x.shape[d] != 1 && x.strides[d] != inner) return delegate(c);  // the slice is not one block
        inner *= x.shape[d];
    }
    const int64_t n = x.shape[axis], count = numel(idx);
    const size_t sz = itemsize_of(x.dtype);
    if (outer * count * inner == 0) return delegate(c);

    // Indices in C order: a contiguous index tensor (the common case) is read as it is, the
    // gather wrapping and checking each index (a separate checking pass cost a quarter of a
    // 1e6-element gather); other index layouts are first copied in C order.
    Geometry gi;
    const ember_view_t* iv[1] = {&idx};
    make_geometry(iv, 1, gi);
    const int64_t* ip = (const int64_t*)idx.data + idx.offset;
    const int64_t step = gi.nd > 0 ? gi.st[0][gi.nd - 1] : 1;
    const bool as_is = gi.nd <= 1 && step == 1;
    Scratch<int64_t> ordered(as_is ? 0 : count);  // the caching allocator: no fresh pages per call
    if (!as_is) {
        parallel_range(count, kParallelCheap, 4096, [&](int64_t begin, int64_t end) {
            int64_t* dst = ordered.data + begin;
            walk_runs<1>(gi, begin, end, [&](const int64_t* off, int64_t len) {
                const int64_t* src = ip + off[0];
                for (int64_t r = 0; r < len; ++r) dst[r] = src[r * step];
                dst += len;
            });
        });
    }
    const int64_t* index = as_is ? ip : ordered.data;
    std::atomic<int> bad{0};

    // Row r = (outer position o, index j) is out's r-th block of `inner` elements.
    const int64_t rows = outer * count, row_bytes = inner * (int64_t)sz, axis_stride = x.strides[axis];
    const char* xbase = base_ptr(x);
    char* obase = base_ptr(out);
    auto outer_offset = [&](int64_t o) {
        int64_t off = 0;
        for (int d = axis - 1; d >= 0; --d) {
            off += (o % x.shape[d]) * x.strides[d];
            o /= x.shape[d];
        }
        return off;
    };
    if (inner == 1 && count <= kShortIndexList && sz <= 8 && short_index_list(x, axis, outer, index, count, sz, obase)) return EMBER_OK;
    // Reads at random from a table larger than the L2 caches wait on memory (1-1.4 ns each on
    // a Zen 4 core), and even from a table in L1 a row costs 0.3-0.6 ns (the Intel host of
    // series 40-45; 131072 float32s from a 4 KB table: 80 us on one thread, 40 on two): a few
    // ten thousand small rows are worth a second thread, wherever the table lies.
    const bool parallel = rows * row_bytes >= kParallelBytes || rows >= kParallelGatherRows;
    parallel_range(rows, parallel ? 2 : rows + 1, std::max<int64_t>(1, 4096 / std::max<int64_t>(row_bytes, 1)), [&](int64_t begin, int64_t end) {
        uint64_t outside = 0;
        for (int64_t r = begin; r < end;) {
            const int64_t o = r / count, j0 = r % count, j1 = std::min(count, j0 + (end - r));
            const char* src = xbase + outer_offset(o) * (int64_t)sz;
            char* dst = obase + r * row_bytes;
            if (inner == 1) {
                const int64_t* ix = index + j0;
                switch (sz) {
                    case 1: outside |= gather_elements<uint8_t>(dst, src, ix, j1 - j0, axis_stride, n); break;
                    case 2: outside |= gather_elements<uint16_t>(dst, src, ix, j1 - j0, axis_stride, n); break;
                    case 4: outside |= gather_elements<uint32_t>(dst, src, ix, j1 - j0, axis_stride, n); break;
                    case 8: outside |= gather_elements<uint64_t>(dst, src, ix, j1 - j0, axis_stride, n); break;
                    default:
                        for (int64_t j = j0; j < j1; ++j)
                            std::memcpy(dst + (j - j0) * sz, src + wrapped_index(index[j], n, outside) * axis_stride * (int64_t)sz, sz);
                }
            } else {
                for (int64_t j = j0; j < j1; ++j, dst += row_bytes)  // g_isa->copy: memcpy's slow distances
                    g_isa->copy(src + wrapped_index(index[j], n, outside) * axis_stride * (int64_t)sz, dst, row_bytes, 0);
            }
            r += j1 - j0;
        }
        if (outside) bad.store(1, std::memory_order_relaxed);
    });
    return bad.load() ? delegate(c) : EMBER_OK;
}

// ---------------------------------------------------------------- take_along_axis
struct Element16 {  // complex128, moved whole
    uint64_t lo, hi;
};
// out[p] = x[p with its axis coordinate replaced by index[p]]: x is walked with a zero
// stride along the axis (so each position gives the start of its line) beside out and the
// index, and each index, wrapped and checked, steps along the line. It ran the reference on
// slices: 0.91x NumPy for a (1024, 1024) float32 gathered along its rows.
template <class T>
uint64_t gather_along(const Geometry& g, char* po, const int64_t* pi, const char* px, int64_t axis_stride, int64_t n, int64_t begin, int64_t end) {
    uint64_t outside = 0;
    const int last = g.nd - 1;
    const int64_t so = g.st[0][last], si = g.st[1][last], sx = g.st[2][last];
    walk_runs<3>(g, begin, end, [&](const int64_t* off, int64_t len) {
        T* o = (T*)po + off[0];
        const int64_t* ix = pi + off[1];
        const T* x = (const T*)px + off[2];
        outside |= gather_run<T>(o, so, x, sx, ix, si, len, n, axis_stride);
    });
    return outside;
}

ember_status_t take_along_axis_kernel(const ember_kernel_call_t* c) {
    const ember_view_t& x = c->in[0];
    const ember_view_t& idx = c->in[1];
    const ember_view_t& out = c->out[0];
    const int axis = (int)c->attrs->i[0];
    const size_t sz = itemsize_of(x.dtype);
    if (c->n_in != 2 || idx.dtype != EMBER_INT64 || axis < 0 || axis >= x.ndim || x.ndim != out.ndim || idx.ndim != out.ndim ||
        (sz != 1 && sz != 2 && sz != 4 && sz != 8 && sz != 16))
        return reference_on_slices(c, kAxisAttr);
    const int64_t n = x.shape[axis], axis_stride = x.strides[axis];
    ember_view_t lines = x;  // x's line starts, in out's shape
    int64_t line_strides[EMBER_MAX_DIMS];
    for (int d = 0; d < x.ndim; ++d) line_strides[d] = d == axis ? 0 : x.strides[d];
    lines.strides = line_strides;
    lines.shape = out.shape;
    const ember_view_t* views[3] = {&out, &idx, &lines};
    Geometry g;
    if (!make_geometry(views, 3, g)) return EMBER_OK;
    char* po = base_ptr(out);
    const int64_t* pi = (const int64_t*)idx.data + idx.offset;
    const char* px = base_ptr(x);
    std::atomic<int> bad{0};
    parallel_range(g.size, kParallelCheap / 4, 4096, [&](int64_t begin, int64_t end) {
        uint64_t outside;
        switch (sz) {
            case 1: outside = gather_along<uint8_t>(g, po, pi, px, axis_stride, n, begin, end); break;
            case 2: outside = gather_along<uint16_t>(g, po, pi, px, axis_stride, n, begin, end); break;
            case 4: outside = gather_along<uint32_t>(g, po, pi, px, axis_stride, n, begin, end); break;
            case 8: outside = gather_along<uint64_t>(g, po, pi, px, axis_stride, n, begin, end); break;
            default: outside = gather_along<Element16>(g, po, pi, px, axis_stride, n, begin, end); break;
        }
        if (outside) bad.store(1, std::memory_order_relaxed);
    });
    return bad.load() ? delegate(c) : EMBER_OK;  // the reference reports the index
}

// ---------------------------------------------------------------- nonzero
// An element is zero when its bits are, ignoring the sign bit of each float part (so -0.0
// is zero and NaN is not): `lanes` lanes of type U, each tested under `mask`.
template <class U>
struct ZeroTest {
    int lanes;
    U mask;
    bool nonzero(const char* p) const {
        U v = *(const U*)p;
        if (lanes == 2) v |= *(const U*)(p + sizeof(U));
        return (v & mask) != 0;
    }
};

// Bit k set when v[k] & mask is not zero, for k < 64: byte flags from a loop the compiler
// vectorises, gathered into the mask 16 at a time (SSE2's pmovmskb).
template <class U>
uint64_t nonzero_bits(const U* v, U mask) {
    alignas(16) uint8_t flag[64];
    for (int k = 0; k < 64; ++k) flag[k] = (v[k] & mask) != 0 ? 0xff : 0;
    uint64_t bits = 0;
    for (int q = 0; q < 4; ++q)
        bits |= (uint64_t)(uint32_t)_mm_movemask_epi8(_mm_load_si128((const __m128i*)(flag + 16 * q))) << (16 * q);
    return bits;
}

// Runs of the last dim covering the C-order elements [begin, end) of x: f(multi-index of
// the run's first element, its address, its length).
template <class F>
void for_each_run(const ember_view_t& x, int64_t begin, int64_t end, F&& f) {
    const int nd = x.ndim;
    const int64_t sz = (int64_t)itemsize_of(x.dtype), last = x.shape[nd - 1];
    const char* base = base_ptr(x);
    int64_t i[EMBER_MAX_DIMS];
    for (int64_t pos = begin; pos < end;) {
        int64_t rest = pos, off = 0;
        for (int d = nd - 1; d >= 0; --d) {
            i[d] = rest % x.shape[d];
            rest /= x.shape[d];
            off += i[d] * x.strides[d];
        }
        const int64_t len = std::min(last - i[nd - 1], end - pos);
        f(i, base + off * sz, len);
        pos += len;
    }
}

// Calls f(zero test) for the dtype's element bits.
template <class F>
void visit_zero_test(int32_t dtype, F&& f) {
    switch (dtype) {
        case EMBER_FLOAT16:
        case EMBER_BFLOAT16: f(ZeroTest<uint16_t>{1, 0x7fff}); return;
        case EMBER_FLOAT32: f(ZeroTest<uint32_t>{1, 0x7fffffffu}); return;
        case EMBER_FLOAT64: f(ZeroTest<uint64_t>{1, 0x7fffffffffffffffull}); return;
        case EMBER_COMPLEX64: f(ZeroTest<uint32_t>{2, 0x7fffffffu}); return;
        case EMBER_COMPLEX128: f(ZeroTest<uint64_t>{2, 0x7fffffffffffffffull}); return;
        default:
            switch (itemsize_of(dtype)) {
                case 1: f(ZeroTest<uint8_t>{1, 0xff}); return;
                case 2: f(ZeroTest<uint16_t>{1, 0xffff}); return;
                case 4: f(ZeroTest<uint32_t>{1, ~0u}); return;
                default: f(ZeroTest<uint64_t>{1, ~0ull}); return;
            }
    }
}

// The non-zero elements among [begin, end) of x's C order.
template <class U>
int64_t count_nonzero_range(const ember_view_t& x, const ZeroTest<U>& z, int64_t begin, int64_t end) {
    const int64_t step_bytes = x.strides[x.ndim - 1] * (int64_t)itemsize_of(x.dtype);
    int64_t found = 0;
    const bool packed = z.lanes == 1 && step_bytes == (int64_t)sizeof(U);
    for_each_run(x, begin, end, [&](const int64_t*, const char* p, int64_t len) {
        if (packed) {
            // count_nonzero's kernel for the ISA (float32 `all` of 1e7 ones: 0.90 -> 0.77 ms
            // against this file's baseline-ISA loop below, kept for a table without one).
            if (const RowFn count = g_isa->row[R_NONZERO][x.dtype]) {
                uint64_t counted = 0;
                count(p, len, &counted);
                found += (int64_t)counted;
                return;
            }
            // Typed, unit-stride blocks with a 32-bit count: a loop the compiler vectorises.
            const U* v = (const U*)p;
            // Counts of U's width (at most 255 per lane for bytes) keep the vector lanes narrow.
            constexpr int64_t kBlock = sizeof(U) == 1 ? 255 * 32 : 65536;
            using Count = std::conditional_t<sizeof(U) == 1, uint8_t, uint32_t>;
            for (int64_t k0 = 0; k0 < len; k0 += kBlock) {
                const int64_t m = std::min<int64_t>(kBlock, len - k0);
                Count lane[32] = {};
                int64_t k = 0;
                for (; k + 32 <= m; k += 32)
                    for (int l = 0; l < 32; ++l) lane[l] += (v[k0 + k + l] & z.mask) != 0;
                for (; k < m; ++k) found += (v[k0 + k] & z.mask) != 0;
                for (int l = 0; l < 32; ++l) found += lane[l];
            }
            return;
        }
        if (z.lanes == 2 && step_bytes == 2 * (int64_t)sizeof(U)) {  // complex: either part
            const U* v = (const U*)p;
            int64_t part = 0;
            for (int64_t k = 0; k < len; ++k) part += ((v[2 * k] | v[2 * k + 1]) & z.mask) != 0;
            found += part;
            return;
        }
        for (int64_t k = 0; k < len; ++k, p += step_bytes) found += z.nonzero(p);
    });
    return found;
}

// Chunks of x's C order for the pool: count and size.
void chunking(int64_t total, int64_t& chunks, int64_t& per_chunk) {
    chunks = std::min<int64_t>((total + 65535) / 65536, 16 * num_threads());
    per_chunk = (total + chunks - 1) / chunks;
}

template <class U>
void nonzero_t(const ember_view_t& x, const ember_view_t& out, ZeroTest<U> z) {
    const int nd = x.ndim;
    const int64_t total = numel(x), step_bytes = x.strides[nd - 1] * (int64_t)itemsize_of(x.dtype);
    int64_t chunks, per_chunk;
    chunking(total, chunks, per_chunk);
    std::unique_ptr<int64_t[]> first_row(new int64_t[(size_t)chunks + 1]);
    parallel_tasks(chunks, [&](int64_t t) { first_row[(size_t)t + 1] = count_nonzero_range(x, z, t * per_chunk, std::min(total, (t + 1) * per_chunk)); });
    first_row[0] = 0;
    for (int64_t t = 0; t < chunks; ++t) first_row[(size_t)t + 1] += first_row[(size_t)t];
    int64_t* dst = (int64_t*)out.data + out.offset;
    const int64_t cap = out.shape[0], rs = out.strides[0], cs = out.strides[1];
    const bool packed = z.lanes == 1 && step_bytes == (int64_t)sizeof(U);
    parallel_tasks(chunks, [&](int64_t t) {
        // A chunk's rows end where the next chunk's begin: it stops there, so its scratch
        // writes never land on another chunk's rows.
        int64_t row = first_row[(size_t)t];
        const int64_t end_row = std::min(cap, first_row[(size_t)t + 1]);
        for_each_run(x, t * per_chunk, std::min(total, (t + 1) * per_chunk), [&](const int64_t* i, const char* p, int64_t len) {
            auto emit = [&](int64_t k) {
                int64_t* r = dst + row * rs;
                for (int d = 0; d < nd - 1; ++d) r[d * cs] = i[d];
                r[(nd - 1) * cs] = i[nd - 1] + k;
            };
            int64_t k = 0;
            if (packed && nd <= 2 && cs == 1 && rs == nd) {
                // 1-d and 2-d, the common cases: the loop over set bits holds nothing but the
                // stores (1e6 bools, half true: 0.84-0.91 -> 0.37-0.45 ms on two threads)
                const int64_t first = i[nd - 1], outer = i[0];
                for (; k + 64 <= len; k += 64) {
                    uint64_t bits = nonzero_bits((const U*)p + k, z.mask);
                    const int found = __builtin_popcountll(bits);
                    if (row + found > end_row) break;
                    int64_t* r = dst + row * rs;
                    row += found;
                    if (nd == 1)
                        for (; bits; bits &= bits - 1) *r++ = first + k + __builtin_ctzll(bits);
                    else
                        for (; bits; bits &= bits - 1, r += 2) {
                            r[0] = outer;
                            r[1] = first + k + __builtin_ctzll(bits);
                        }
                }
            }
            if (packed)  // 64 elements at a time: a bit mask, then one write per set bit
                for (; k + 64 <= len && row < end_row; k += 64)
                    for (uint64_t bits = nonzero_bits((const U*)p + k, z.mask); bits && row < end_row; bits &= bits - 1, ++row)
                        emit(k + __builtin_ctzll(bits));
            // Every element writes its coordinates at `row`, which only a non-zero one keeps
            // by moving on: no branch on the data (half-zero data mispredicts every other one).
            for (p += k * step_bytes; k < len && row < end_row; ++k, p += step_bytes) {
                emit(k);
                row += z.nonzero(p);
            }
        });
    });
}

ember_status_t nonzero_kernel(const ember_kernel_call_t* c) {
    const ember_view_t& x = c->in[0];
    const ember_view_t& out = c->out[0];
    // At every size (one chunk, on the calling thread, below 65536 elements): the
    // reference's loop took 2-5.5 ns an element (unique_values of 1e5 float32 spent 205 of
    // its 466 us in nonzero of its mask; x[x > 50] of a (10, 10) array 550 ns of its 8 us).
    if (x.ndim == 0 || out.ndim != 2 || out.dtype != EMBER_INT64) return delegate(c);
    visit_zero_test(x.dtype, [&](auto z) { nonzero_t(x, out, z); });
    return EMBER_OK;
}

// all/any over every axis: the first zero (all) or non-zero (any) element decides, so the
// elements are counted in blocks that stop there: the first block alone (random data decides
// in it), then the rest across the pool, each task checking whether another has decided.
// The max and min of bools over every axis are any and all, and come here too.
// Reductions that keep a dim take the byte min/max of bools, or count_nonzero's layouts (all_any_native).
ember_status_t all_any_kernel(const ember_kernel_call_t* c) {
    const bool all = kdata(c)->code != 0;
    const ember_view_t& x = c->in[0];
    const ember_view_t& out = c->out[0];
    if (numel(out) != 1 || x.ndim == 0 || out.dtype != EMBER_BOOL)
        return all_any_native(c, all) ? EMBER_OK : reference_on_slices(c, kAxesMask);
    all_any_of_every_element(x, out, all);
    return EMBER_OK;
}

}  // namespace

void all_any_of_every_element(const ember_view_t& x, const ember_view_t& out, bool all) {
    const int64_t total = numel(x);
    constexpr int64_t kBlock = 1 << 14;
    std::atomic<bool> decided{false};
    visit_zero_test(x.dtype, [&](auto z) {
        auto scan = [&](int64_t begin, int64_t end) {
            for (int64_t b = begin; b < end && !decided.load(std::memory_order_relaxed); b += kBlock) {
                const int64_t e = std::min(end, b + kBlock), nonzero = count_nonzero_range(x, z, b, e);
                if (all ? nonzero != e - b : nonzero != 0) decided.store(true, std::memory_order_relaxed);
            }
        };
        const int64_t head = std::min(total, kBlock);
        scan(0, head);
        if (decided.load() || head == total) return;
        if (total < kParallelCheap || num_threads() <= 1) return scan(head, total);
        int64_t chunks, per_chunk;
        chunking(total - head, chunks, per_chunk);
        parallel_tasks(chunks, [&](int64_t t) { scan(head + t * per_chunk, std::min(total, head + (t + 1) * per_chunk)); });
    });
    *((uint8_t*)out.data + out.offset) = all != decided.load();
}

namespace {

// ---------------------------------------------------------------- searchsorted
// The reference's order puts NaN after every number; in a sorted sequence the NaNs are the
// tail, so a number is searched for among the `finite` entries before it with plain
// compares, and a NaN value lands at `finite` (left) or n (right).
// For each value, the count of entries that go before it: a binary search whose halving
// step is arithmetic (no branch on the data), kBatch searches in lockstep so that their
// independent loads overlap.
template <class S, bool Right>
void searchsorted_t(const ember_kernel_call_t* c) {
    const ember_view_t& seq = c->in[0];
    const ember_view_t& val = c->in[1];
    const ember_view_t& out = c->out[0];
    const int64_t n = seq.shape[0];
    // The sequence contiguous (it is read by every value; a copy costs one pass).
    std::unique_ptr<S[]> copy;
    const S* sp = (const S*)seq.data + seq.offset;
    if (seq.strides[0] != 1) {
        copy.reset(new S[(size_t)n]);
        for (int64_t i = 0; i < n; ++i) copy[(size_t)i] = sp[i * seq.strides[0]];
        sp = copy.get();
    }
    int64_t finite = n;
    while (finite > 0 && is_nan(sp[finite - 1])) --finite;
    auto before = [](S s, S v) { return Right ? s <= v : s < v; };
    const ember_view_t* views[2] = {&out, &val};
    Geometry g;
    if (!make_geometry(views, 2, g)) return;
    const S* vp = (const S*)val.data + val.offset;
    int64_t* op = (int64_t*)out.data + out.offset;
    parallel_range(g.size, 1 << 14, 1024, [&](int64_t begin, int64_t end) {
        walk_runs<2>(g, begin, end, [&](const int64_t* off, int64_t len) {
            const int64_t so = g.st[0][g.nd - 1], sv = g.st[1][g.nd - 1];
            constexpr int kBatch = 16;
            for (int64_t k0 = 0; k0 < len; k0 += kBatch) {
                const int m = (int)std::min<int64_t>(kBatch, len - k0);
                S v[kBatch];
                int64_t pos[kBatch];
                for (int j = 0; j < kBatch; ++j) {
                    v[j] = vp[off[1] + (k0 + (j < m ? j : 0)) * sv];
                    pos[j] = 0;
                }
                // invariant: each answer is in [pos, pos + size]
                for (int64_t size = finite; size > 1;) {
                    const int64_t half = size / 2;
                    for (int j = 0; j < kBatch; ++j) pos[j] += half * (int64_t)before(sp[pos[j] + half - 1], v[j]);
                    size -= half;
                }
                for (int j = 0; j < m; ++j) {
                    int64_t r = finite ? pos[j] + (int64_t)before(sp[pos[j]], v[j]) : 0;
                    if (is_nan(v[j])) r = Right ? n : finite;
                    op[off[0] + (k0 + j) * so] = r;
                }
            }
        });
    });
}

ember_status_t searchsorted_kernel(const ember_kernel_call_t* c) {
    const ember_view_t& seq = c->in[0];
    if (c->n_in != 2 || seq.ndim != 1 || seq.shape[0] < 1 || c->in[1].dtype != seq.dtype || c->out[0].dtype != EMBER_INT64) return delegate(c);
    const bool right = c->attrs->i[0] != 0;
    if (seq.dtype == EMBER_FLOAT16 || seq.dtype == EMBER_BFLOAT16) {
        // Searched as float32 (widening is exact and keeps the order, NaN last): the
        // reference widened at every compare (1e6 float16 values into 1000: 67 ms, NumPy 50).
        const ember_view_t& val = c->in[1];
        try {
            Scratch<char> seq32(numel(seq) * 4), val32(numel(val) * 4);
            int64_t seq_step[1] = {1}, val_steps[EMBER_MAX_DIMS];
            for (int64_t d = val.ndim - 1, step = 1; d >= 0; step *= val.shape[d], --d) val_steps[d] = step;
            const ember_view_t wide[2] = {{seq32.data, 0, EMBER_FLOAT32, 1, seq.shape, seq_step},
                                          {val32.data, 0, EMBER_FLOAT32, val.ndim, val.shape, val_steps}};
            ember_status_t st = copy_in_c_order(c, seq, wide[0]);
            if (st == EMBER_OK) st = copy_in_c_order(c, val, wide[1]);
            if (st != EMBER_OK) return st;
            ember_kernel_call_t call = *c;
            call.in = wide;
            right ? searchsorted_t<float, true>(&call) : searchsorted_t<float, false>(&call);
            return EMBER_OK;
        } catch (const std::bad_alloc&) {
            return delegate(c);
        }
    }
    const bool done = visit_real(seq.dtype, [&](auto z) {
        using S = decltype(z);
        right ? searchsorted_t<S, true>(c) : searchsorted_t<S, false>(c);
    });
    return done ? EMBER_OK : delegate(c);
}

// ---------------------------------------------------------------- arange
template <class T>
void fill_arange(const ember_view_t& out, double start, double step) {
    T* dst = (T*)out.data + out.offset;
    const int64_t st = out.strides[0], n = out.shape[0];
    if constexpr (std::is_integral_v<T>) {
        // Integral start and step, both ends within T and +-2^52 and (n - 1) * step within
        // +-2^52 (so the step fits in int64 too): every k * step and start + k * step the
        // reference computes in double is exact, so integer arithmetic gives its values, in a
        // loop the compiler vectorises (the clamped conversion took 0.55 ns per int64).
        const double last = start + (double)(n - 1) * step, lo = std::min(start, last), hi = std::max(start, last);
        if (st == 1 && start == std::floor(start) && step == std::floor(step) && std::fabs(lo) <= 0x1p52 && std::fabs(hi) <= 0x1p52 &&
            std::fabs(step) * (double)std::max<int64_t>(n - 1, 1) <= 0x1p52 && lo >= (double)std::numeric_limits<T>::lowest() &&
            hi <= (double)std::numeric_limits<T>::max()) {
            const int64_t first = (int64_t)start, delta = (int64_t)step;
            parallel_range(n, kParallelCheap, 4096, [&](int64_t begin, int64_t end) {
                // 16-byte vectors of T's own width, unsigned (the step past the last value
                // may wrap, harmlessly); GCC left the plain loop scalar.
                using U = std::make_unsigned_t<T>;
                constexpr int L = 16 / sizeof(T);
                typedef U Lanes __attribute__((vector_size(16)));
                const U d = (U)delta, v0 = (U)(first + begin * delta);
                Lanes v, advance;  // (not `step`: that is arange's own step, captured)
                for (int i = 0; i < L; ++i) v[i] = v0 + (U)i * d, advance[i] = (U)L * d;
                char* out_run = (char*)(dst + begin);
                int64_t k = 0;
                for (; k + L <= end - begin; k += L, v += advance) _mm_storeu_si128((__m128i*)(out_run + k * (int64_t)sizeof(T)), (__m128i)v);
                for (; k < end - begin; ++k) ((T*)out_run)[k] = (T)(v0 + (U)k * d);
            });
            return;
        }
    }
    parallel_range(n, kParallelCheap, 4096, [&](int64_t begin, int64_t end) {
        int64_t k = begin;
        if constexpr (std::is_floating_point_v<T>) {
            // Two lanes of the same double arithmetic (k is exact in double; no FMA in this
            // file), rounded to float by the same conversion: the scalar loop's values.
            if (st == 1) {
                __m128d kv = _mm_set_pd((double)(k + 1), (double)k);
                const __m128d two = _mm_set1_pd(2.0), first = _mm_set1_pd(start), delta = _mm_set1_pd(step);
                for (; k + 2 <= end; k += 2, kv = _mm_add_pd(kv, two)) {
                    const __m128d v = _mm_add_pd(first, _mm_mul_pd(kv, delta));
                    if constexpr (std::is_same_v<T, double>) _mm_storeu_pd(dst + k, v);
                    else _mm_storel_pi((__m64*)(dst + k), _mm_cvtpd_ps(v));
                }
            }
        }
        if constexpr (std::is_integral_v<T> && sizeof(T) <= 4) {
            // saturating_cast without its NaN test (start and step are finite): a clamp and a
            // truncation to int32 (uint8 arange(1e6), mostly clamped to 255: 477 -> 370 us)
            using Wide = std::conditional_t<std::is_same_v<T, uint32_t>, int64_t, int32_t>;  // SSE2 converts to int32
            const double lo = (double)std::numeric_limits<T>::lowest(), hi = (double)std::numeric_limits<T>::max();
            if (st == 1)
                for (; k < end; ++k) dst[k] = (T)(Wide)std::min(std::max(start + (double)k * step, lo), hi);
        }
        for (; k < end; ++k) dst[k * st] = ember_convert::saturating_cast<T>(start + (double)k * step);
    });
}
// float16/bfloat16: the float64 values in L1 pieces, then the ISA's conversion from float64
// (astype's, the reference's single rounding). Through the reference, arange of 1e6 float16
// took 2.1 ms (NumPy 54), linspace 3.8 (NumPy 2.0).
void fill_arange_half(const ember_view_t& out, double start, double step, CvtFn from_f64) {
    char* dst = (char*)out.data + out.offset * 2;
    parallel_range(out.shape[0], kParallelCheap, 4096, [&](int64_t begin, int64_t end) {
        constexpr int64_t kPiece = 512;
        double values[kPiece];
        for (int64_t k = begin; k < end; k += kPiece) {
            const int64_t len = std::min(kPiece, end - k);
            for (int64_t i = 0; i < len; ++i) values[i] = start + (double)(k + i) * step;
            from_f64(values, dst + k * 2, len);
        }
    });
}

// complex: (start + k * step, 0), the real part rounded to P as the reference converts.
template <class P>
void fill_arange_complex(const ember_view_t& out, double start, double step) {
    P* dst = (P*)out.data + 2 * out.offset;
    const int64_t st = 2 * out.strides[0];
    parallel_range(out.shape[0], kParallelCheap, 4096, [&](int64_t begin, int64_t end) {
        for (int64_t k = begin; k < end; ++k) {
            dst[k * st] = (P)(start + (double)k * step);
            dst[k * st + 1] = P(0);
        }
    });
}

ember_status_t arange_kernel(const ember_kernel_call_t* c) {
    const ember_view_t& out = c->out[0];
    const double start = c->attrs->f[0], step = c->attrs->f[1];
    if (out.ndim != 1) return delegate(c);
    switch (out.dtype) {
        case EMBER_FLOAT32: fill_arange<float>(out, start, step); return EMBER_OK;
        case EMBER_FLOAT64: fill_arange<double>(out, start, step); return EMBER_OK;
        case EMBER_INT8: fill_arange<int8_t>(out, start, step); return EMBER_OK;
        case EMBER_INT16: fill_arange<int16_t>(out, start, step); return EMBER_OK;
        case EMBER_INT32: fill_arange<int32_t>(out, start, step); return EMBER_OK;
        case EMBER_INT64: fill_arange<int64_t>(out, start, step); return EMBER_OK;
        case EMBER_UINT8: fill_arange<uint8_t>(out, start, step); return EMBER_OK;
        case EMBER_UINT16: fill_arange<uint16_t>(out, start, step); return EMBER_OK;
        case EMBER_UINT32: fill_arange<uint32_t>(out, start, step); return EMBER_OK;
        case EMBER_UINT64: fill_arange<uint64_t>(out, start, step); return EMBER_OK;
        case EMBER_FLOAT16:
        case EMBER_BFLOAT16:
            if (CvtFn from_f64 = g_isa->cvt[C_F64][out.dtype == EMBER_FLOAT16 ? C_F16 : C_BF16]; from_f64 && out.strides[0] == 1) {
                fill_arange_half(out, start, step, from_f64);
                return EMBER_OK;
            }
            return delegate(c);
        case EMBER_COMPLEX64: fill_arange_complex<float>(out, start, step); return EMBER_OK;
        case EMBER_COMPLEX128: fill_arange_complex<double>(out, start, step); return EMBER_OK;
        default: return delegate(c);
    }
}

// ---------------------------------------------------------------- one_hot
// Rows zeroed a stretch at a time, then the one copied in where the index lies in [0,
// depth): every dtype's zero is all zero bits, and the core passes the one in the result's
// dtype. The composite compared every element with every class and cast the result (0.65x
// NumPy's rows of an identity, (1000, 1000) float32).
ember_status_t one_hot_kernel(const ember_kernel_call_t* c) {
    if (c->n_in != 2 || c->n_out != 1)
        return g_host->fail(EMBER_ERR_INVALID_ARGUMENT, "cpu one_hot: needs indices and the one, and one output");
    const ember_view_t &idx = c->in[0], &one = c->in[1], &out = c->out[0];
    if (idx.dtype != EMBER_INT64 || !is_contiguous(idx) || numel(one) != 1 || one.dtype != out.dtype || out.ndim < 1 || !is_contiguous(out) ||
        numel(out) != numel(idx) * out.shape[out.ndim - 1])
        return g_host->fail(EMBER_ERR_INVALID_ARGUMENT, "cpu one_hot: needs contiguous int64 indices and a contiguous output of (indices..., depth)");
    const int64_t n = numel(idx), depth = out.shape[out.ndim - 1];
    const size_t sz = itemsize_of(out.dtype);
    const int64_t* index = (const int64_t*)base_ptr(idx);
    const char* value = base_ptr(one);
    char* o = base_ptr(out);
    const int64_t row_bytes = depth * (int64_t)sz;
    parallel_range(n, std::max<int64_t>(1, kParallelBytes / std::max<int64_t>(1, row_bytes)), 1, [&](int64_t begin, int64_t end) {
        std::memset(o + begin * row_bytes, 0, (size_t)((end - begin) * row_bytes));
        for (int64_t i = begin; i < end; ++i)
            if ((uint64_t)index[i] < (uint64_t)depth) std::memcpy(o + i * row_bytes + index[i] * (int64_t)sz, value, sz);
    });
    return EMBER_OK;
}

// ---------------------------------------------------------------- scatter
// out[..., index[i], ...] (op)= src[..., i, ...], positions no index names 0. Contiguous src
// and out of float32, float64, int32 or int64 with ADD or REPLACE run here: the output
// zeroed, then one pass in the reference's order (i ascending for each output position:
// the same sums bit for bit, integers wrapping; the last i replaces). The reference keeps
// a count and an accumulator per output element and walks multi-indices: 1e6 float32
// replacing into 1e7 took 208 ms (here 10), added into 1000 bins 5.7 ms (here 1.7, NumPy's
// add.at 1.7). Other reductions (mean, max, min), dtypes and layouts, and a bad index
// (which the reference reports) go to the reference on slices (line_ops.cpp).
constexpr int kScatterCode = kAxisAttr | whole(1);

// False, with out partly written, at the first index outside [0, dim) (the caller wraps the
// indices and runs the pass again): a separate pass checking them all first read the
// indices twice (1e6 float32 added into 1000 bins: 1.4 ms, NumPy's add.at 1.25).
template <class T>
bool scatter_pass(const T* src, const int64_t* at, T* out, int64_t outer, int64_t len, int64_t dim, int64_t inner, bool add) {
    std::memset(out, 0, (size_t)(outer * dim * inner) * sizeof(T));
    if (outer == 1 && inner == 1) {  // a 1-d scatter: one element per index
        for (int64_t i = 0; i < len; ++i) {
            const uint64_t j = (uint64_t)at[i];
            if (j >= (uint64_t)dim) return false;
            out[j] = add ? T(out[j] + src[i]) : src[i];
        }
        return true;
    }
    for (int64_t i = 0; i < len; ++i)
        if ((uint64_t)at[i] >= (uint64_t)dim) return false;
    for (int64_t p = 0; p < outer; ++p)
        for (int64_t i = 0; i < len; ++i) {
            const T* s = src + (p * len + i) * inner;
            T* o = out + (p * dim + at[i]) * inner;
            if (add)
                for (int64_t q = 0; q < inner; ++q) o[q] += s[q];
            else
                std::memcpy(o, s, (size_t)inner * sizeof(T));
        }
    return true;
}

ember_status_t scatter_kernel(const ember_kernel_call_t* c) {
    const ember_view_t &src = c->in[0], &idx = c->in[1], &out = c->out[0];
    const int axis = (int)c->attrs->i[0], reduce = (int)c->attrs->i[1];
    const int32_t dt = src.dtype;
    if (c->n_in != 2 || c->n_out != 1 || (reduce != EMBER_SCATTER_ADD && reduce != EMBER_SCATTER_REPLACE) || idx.dtype != EMBER_INT64 || idx.ndim != 1 ||
        axis < 0 || axis >= src.ndim || out.ndim != src.ndim || out.dtype != dt || !is_contiguous(src) || !is_contiguous(out) || !is_contiguous(idx) ||
        (dt != EMBER_FLOAT32 && dt != EMBER_FLOAT64 && dt != EMBER_INT32 && dt != EMBER_INT64))
        return reference_on_slices(c, kScatterCode);
    int64_t outer = 1, inner = 1;
    for (int d = 0; d < src.ndim; ++d) {
        if (d != axis && src.shape[d] != out.shape[d]) return reference_on_slices(c, kScatterCode);
        if (d < axis) outer *= src.shape[d];
        if (d > axis) inner *= src.shape[d];
    }
    const int64_t len = src.shape[axis], dim = out.shape[axis];
    if (idx.shape[0] != len) return reference_on_slices(c, kScatterCode);
    const int64_t* index = (const int64_t*)base_ptr(idx);
    const bool add = reduce == EMBER_SCATTER_ADD;
    const char* s = base_ptr(src);
    char* o = base_ptr(out);
    auto pass = [&](const int64_t* at) {
        switch (dt) {  // integers as unsigned: the sums wrap as the reference's do
            case EMBER_FLOAT32: return scatter_pass((const float*)s, at, (float*)o, outer, len, dim, inner, add);
            case EMBER_FLOAT64: return scatter_pass((const double*)s, at, (double*)o, outer, len, dim, inner, add);
            case EMBER_INT32: return scatter_pass((const uint32_t*)s, at, (uint32_t*)o, outer, len, dim, inner, add);
            default: return scatter_pass((const uint64_t*)s, at, (uint64_t*)o, outer, len, dim, inner, add);
        }
    };
    if (pass(index)) return EMBER_OK;  // the common case: no index to wrap, none to copy
    std::vector<int64_t> wrapped((size_t)len);
    uint64_t outside = 0;
    for (int64_t i = 0; i < len; ++i) wrapped[(size_t)i] = wrapped_index(index[i], dim, outside);
    if (outside) return reference_on_slices(c, kScatterCode);
    pass(wrapped.data());
    return EMBER_OK;
}

}  // namespace

void add_gather_kernels(std::vector<NativeKernel>& k) {
    k.push_back({"take", take_kernel, 0, false});
    k.push_back({"take_along_axis", take_along_axis_kernel, 0, false});
    k.push_back({"nonzero", nonzero_kernel, 0, false});
    // Any dtype as it is (EMBER_KERNEL_TESTS_INPUT): the core's bool copy of a float32 x was
    // a third of a float32 `all` of 1e7 elements (1.2 against 0.8 ms without it).
    k.push_back({"all", all_any_kernel, 1, false, EMBER_KERNEL_TESTS_INPUT});
    k.push_back({"any", all_any_kernel, 0, false, EMBER_KERNEL_TESTS_INPUT});
    k.push_back({"arange", arange_kernel, 0, false});
    k.push_back({"searchsorted", searchsorted_kernel, 0, false});
    k.push_back({"one_hot", one_hot_kernel, 0, true});
    k.push_back({"scatter", scatter_kernel, kScatterCode, false});
}

}  // namespace ember_cpu
