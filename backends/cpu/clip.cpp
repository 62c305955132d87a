// clip under the COMPOSITE_KERNEL convention of docs/backend-guide.md: x in its own real
// dtype, lo and hi as 0-d tensors of x's dtype (the core fills a missing bound with the
// dtype's extreme), a fresh output of x's dtype and shape.
// The composite makes two passes over memory (maximum into a temporary, then minimum into
// the result). Here each stretch of x goes through the ISA's maximum and minimum kernels
// while it sits in L1: one pass, and the composite's result bit for bit, NaN included.
// Stepped x is gathered a chunk at a time; transposed x in tiles (tiled_unary_runs).
#include <algorithm>

#include "cpu_common.hpp"

namespace ember_cpu {
namespace {

constexpr int64_t kChunk = 2048;  // elements per step (16 KiB of float64)

struct Clip {
    BinFn max, min;
    int slot;  // float16/bfloat16: through float32, else -1
    int stream;  // kStream | kCallerFences for an output of at least g_stream_bytes, else 0
    size_t sz;
    const void *lo, *hi;
};

// out[0..n) = min(max(x[k * sx], lo), hi).
void clip_run(const Clip& c, const char* x, int64_t sx, char* out, int64_t n) {
    const int stream = n >= kChunk ? c.stream : 0;  // short runs (of a strided x) never stream
    alignas(64) char gathered[kChunk * 8], staged[kChunk * 8];
    alignas(64) float wide[kChunk];
    for (int64_t i = 0; i < n; i += kChunk) {
        const int64_t m = std::min(kChunk, n - i);
        const char* src = x + i * sx * (int64_t)c.sz;
        if (sx != 1) {
            gather_strided(src, 0, sx, 1, m, c.sz, kChunk, gathered);
            src = gathered;
        }
        char* dst = out + i * (int64_t)c.sz;
        if (c.slot < 0) {
            c.max(src, c.lo, staged, m, 2);
            // One store fence per run, not per chunk: a fence after every 2048 elements took
            // a 1e7 float32 clip from 1.43 ms through the cache to 1.88 ms streamed.
            c.min(staged, c.hi, dst, m, 2 | stream);
        } else {
            g_isa->cvt[c.slot][C_F32](src, wide, m);
            c.max(wide, c.lo, wide, m, 2);
            c.min(wide, c.hi, wide, m, 2);
            g_isa->cvt[C_F32][c.slot](wide, dst, m);
        }
    }
    if (stream) store_fence();
}

ember_status_t clip_kernel(const ember_kernel_call_t* call) {
    const ember_view_t &x = call->in[0], &lo = call->in[1], &hi = call->in[2];
    const ember_view_t& o = call->out[0];
    Clip c;
    c.slot = half_slot(x.dtype);
    const int32_t kernel_dtype = c.slot >= 0 ? EMBER_FLOAT32 : x.dtype;
    c.max = g_isa->bin[B_MAX][kernel_dtype];
    c.min = g_isa->bin[B_MIN][kernel_dtype];
    if (!c.max || !c.min || o.dtype != x.dtype || lo.dtype != x.dtype || hi.dtype != x.dtype || lo.ndim || hi.ndim)
        return g_host->fail(EMBER_ERR_UNSUPPORTED_DTYPE, "cpu clip: dtype %d with bounds of dtype %d and %d", (int)x.dtype, (int)lo.dtype,
                            (int)hi.dtype);
    c.sz = itemsize_of(x.dtype);
    float bounds[2];
    c.lo = base_ptr(lo);
    c.hi = base_ptr(hi);
    if (c.slot >= 0) {
        g_isa->cvt[c.slot][C_F32](c.lo, &bounds[0], 1);
        g_isa->cvt[c.slot][C_F32](c.hi, &bounds[1], 1);
        c.lo = &bounds[0];
        c.hi = &bounds[1];
    }
    const ember_view_t* views[2] = {&o, &x};
    Geometry g;
    if (!make_geometry(views, 2, g)) return EMBER_OK;
    const char* px = base_ptr(x);
    char* po = base_ptr(o);
    const int64_t sx = g.st[1][g.nd - 1];
    c.stream = c.slot < 0 && stream_flag(g.size * (int64_t)c.sz, o, {&x}) ? kStream | kCallerFences : 0;
    // Short rows, read across a transposed x or apart (x[::-1, :3]), in blocks: a run each
    // cost two kernel calls (a (300000, 7) float32's x[::-1, :3]: 8 ms, NumPy 2.4).
    if (staged_short_rows(g, px, c.sz, po, c.sz, kParallelCheap, [&](const char* in, char* out, int64_t n) { clip_run(c, in, 1, out, n); }))
        return EMBER_OK;
    // Longer rows of a transposed x through L1 tiles: gathered a run at a time, each element
    // on a line of its own, a (1000, 1000) float32 took 0.64 ms (NumPy 0.39), int8 0.43 (0.08).
    if (sx != 1 && g.nd > 1 && tiled_unary_runs(g, px, c.sz, po, c.sz, kParallelCheap, [&](const char* in, char* out, int64_t n) { clip_run(c, in, 1, out, n); }))
        return EMBER_OK;
    parallel_range(g.size, kParallelCheap, 1 << 14, [&](int64_t begin, int64_t end) {
        walk_runs<2>(g, begin, end, [&](const int64_t* off, int64_t len) {
            clip_run(c, px + off[1] * (int64_t)c.sz, sx, po + off[0] * (int64_t)c.sz, len);
        });
    });
    return EMBER_OK;
}

}  // namespace

void add_clip_kernel(std::vector<NativeKernel>& k) { k.push_back({"clip", clip_kernel, 0, true}); }

}  // namespace ember_cpu
