// leaky_relu under the COMPOSITE_KERNEL convention of docs/backend-guide.md: x in its float
// dtype (the core casts integers), f[0] the slope, a fresh output of x's dtype and shape.
// The composite makes four passes over memory (a comparison, a product, a cast, a where);
// here the ISA's B_LEAKY_RELU kernel (x > 0 ? x : x * slope) makes one, and gives the
// composite's result bit for bit: the slope rounded to x's dtype first (the composite's weak
// scalar), float16/bfloat16 staged through float32 a chunk at a time (their products are
// exact there, so rounding once matches the composite's float16 multiply), NaN as x * slope.
#include <algorithm>

#include "cpu_common.hpp"

namespace ember_cpu {
namespace {

constexpr int64_t kChunk = 2048;  // elements per step (16 KiB of float64)

struct Leaky {
    BinFn fn;
    int slot;    // float16/bfloat16: through float32, else -1
    int stream;  // kStream | kCallerFences for an output of at least g_stream_bytes, else 0
    size_t sz;
    const void* slope;
};

// out[0..n) = leaky_relu(x[k * sx]).
void leaky_run(const Leaky& l, const char* x, int64_t sx, char* out, int64_t n) {
    if (sx == 1 && l.slot < 0) {
        l.fn(x, l.slope, out, n, 2 | (n >= kChunk ? l.stream : 0));
        return;
    }
    alignas(64) char gathered[kChunk * 8];
    alignas(64) float wide[kChunk];
    for (int64_t i = 0; i < n; i += kChunk) {
        const int64_t m = std::min(kChunk, n - i);
        const char* src = x + i * sx * (int64_t)l.sz;
        if (sx != 1) {
            gather_strided(src, 0, sx, 1, m, l.sz, kChunk, gathered);
            src = gathered;
        }
        char* dst = out + i * (int64_t)l.sz;
        if (l.slot < 0) {
            l.fn(src, l.slope, dst, m, 2);
        } else {
            g_isa->cvt[l.slot][C_F32](src, wide, m);
            l.fn(wide, l.slope, wide, m, 2);
            g_isa->cvt[C_F32][l.slot](wide, dst, m);
        }
    }
}

ember_status_t leaky_relu_kernel(const ember_kernel_call_t* call) {
    const ember_view_t& x = call->in[0];
    const ember_view_t& o = call->out[0];
    Leaky l;
    l.slot = half_slot(x.dtype);
    l.fn = g_isa->bin[B_LEAKY_RELU][l.slot >= 0 ? EMBER_FLOAT32 : x.dtype];
    if (!l.fn || o.dtype != x.dtype)
        return g_host->fail(EMBER_ERR_UNSUPPORTED_DTYPE, "cpu leaky_relu: dtype %d is not a real float", (int)x.dtype);
    l.sz = itemsize_of(x.dtype);
    const double slope = call->attrs->f[0];
    float slope_f32 = (float)slope;
    if (l.slot >= 0) {  // the slope as the type holds it, then widened exactly
        uint16_t narrow;
        g_isa->cvt[C_F64][l.slot](&slope, &narrow, 1);
        g_isa->cvt[l.slot][C_F32](&narrow, &slope_f32, 1);
    }
    l.slope = x.dtype == EMBER_FLOAT64 ? (const void*)&slope : (const void*)&slope_f32;
    const ember_view_t* views[2] = {&o, &x};
    Geometry g;
    if (!make_geometry(views, 2, g)) return EMBER_OK;
    const char* px = base_ptr(x);
    char* po = base_ptr(o);
    const int64_t sx = g.st[1][g.nd - 1];
    l.stream = l.slot < 0 && stream_flag(g.size * (int64_t)l.sz, o, {&x}) ? kStream | kCallerFences : 0;
    // Blocks of short rows and tiles of a transposed x are written through the cache: their
    // calls are not followed by a fence.
    Leaky cached = l;
    cached.stream = 0;
    auto contiguous_run = [&](const char* in, char* out, int64_t n) { leaky_run(cached, in, 1, out, n); };
    if (staged_short_rows(g, px, l.sz, po, l.sz, kParallelCheap, contiguous_run)) return EMBER_OK;  // x[:, :3] too
    if (sx != 1 && g.nd > 1 && tiled_unary_runs(g, px, l.sz, po, l.sz, kParallelCheap, contiguous_run)) return EMBER_OK;
    parallel_range(g.size, kParallelCheap, 1 << 14, [&](int64_t begin, int64_t end) {
        walk_runs<2>(g, begin, end, [&](const int64_t* off, int64_t len) {
            leaky_run(l, px + off[1] * (int64_t)l.sz, sx, po + off[0] * (int64_t)l.sz, len);
        });
        if (l.stream) store_fence();
    });
    return EMBER_OK;
}

}  // namespace

void add_leaky_relu_kernel(std::vector<NativeKernel>& k) { k.push_back({"leaky_relu", leaky_relu_kernel, 0, true}); }

}  // namespace ember_cpu
