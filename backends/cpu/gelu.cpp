// gelu under the COMPOSITE_KERNEL convention of docs/backend-guide.md: x in its float compute
// dtype, a fresh output of the same dtype and shape, i[0] = 1 for the tanh approximation.
// One pass instead of the composite's eight, and written so that nothing cancels for
// negative x (the composite's 1 + tanh(u) loses all digits there):
//   erf form:  x * Phi(x) = x * erfc(-x / sqrt 2) / 2     (float32: the ISA's float-lane kernel,
//              simd_gelu_erf.hpp, with AVX2 and AVX-512; else in double: libmvec, or libm)
//   tanh form: x * (1 + tanh(u)) / 2 = x * sigmoid(2u),  u = sqrt(2/pi) (x + 0.044715 x^3)
// float32 runs of the tanh form use the ISA's vector kernel; float16/bfloat16 are computed in
// float32 and rounded once.
#include <algorithm>
#include <cmath>

#include "cpu_common.hpp"

namespace ember_cpu {
namespace {

constexpr int64_t kChunk = 1024;  // elements gathered per step (stays in L1)

double gelu_erf(double x) { return 0.5 * x * std::erfc(-x * 0.70710678118654752440); }
double gelu_tanh(double x) {
    double u2 = x * (1.5957691216057308 + 0.07135481627260025 * x * x);  // 2u
    return u2 >= 0 ? x / (1 + std::exp(-u2)) : x * std::exp(u2) / (1 + std::exp(u2));
}

// out[0..n) = gelu(in[0..n)), contiguous: the ISA's vector kernels where it has them.
void gelu_f64(const double* in, double* out, int64_t n, bool tanh_form) {
    if (!tanh_form && g_isa->un[U_GELU_ERF][EMBER_FLOAT64]) return g_isa->un[U_GELU_ERF][EMBER_FLOAT64](in, out, n, 0);
    for (int64_t i = 0; i < n; ++i) out[i] = tanh_form ? gelu_tanh(in[i]) : gelu_erf(in[i]);
}
void gelu_f32(const float* in, float* out, int64_t n, bool tanh_form) {
    if (UnFn vec = g_isa->un[tanh_form ? U_GELU_TANH : U_GELU_ERF][EMBER_FLOAT32]) return vec(in, out, n, 0);
    for (int64_t i = 0; i < n; ++i) out[i] = (float)(tanh_form ? gelu_tanh(in[i]) : gelu_erf(in[i]));
}

// One strided run of len elements: gather into float/double chunks, compute, scatter.
template <class T>
void run(const char* px, int64_t sx, char* po, int64_t so, int64_t len, int32_t dtype, bool tanh_form) {
    T xin[kChunk], xout[kChunk];
    uint16_t half[kChunk];
    const int slot = half_slot(dtype);
    for (int64_t s = 0; s < len; s += kChunk) {
        const int64_t n = std::min(kChunk, len - s);
        if (slot < 0) {
            const T* x = (const T*)px + s * sx;
            for (int64_t k = 0; k < n; ++k) xin[k] = x[k * sx];
        } else {
            const uint16_t* x = (const uint16_t*)px + s * sx;
            for (int64_t k = 0; k < n; ++k) half[k] = x[k * sx];
            g_isa->cvt[slot][C_F32](half, xin, n);
        }
        if constexpr (sizeof(T) == 8) gelu_f64(xin, xout, n, tanh_form);
        else gelu_f32(xin, xout, n, tanh_form);
        if (slot < 0) {
            T* o = (T*)po + s * so;
            for (int64_t k = 0; k < n; ++k) o[k * so] = xout[k];
        } else {
            g_isa->cvt[C_F32][slot](xout, half, n);
            uint16_t* o = (uint16_t*)po + s * so;
            for (int64_t k = 0; k < n; ++k) o[k * so] = half[k];
        }
    }
}

ember_status_t gelu_kernel(const ember_kernel_call_t* c) {
    const ember_view_t& x = c->in[0];
    const ember_view_t& o = c->out[0];
    const bool tanh_form = c->attrs->i[0] != 0;
    const bool f32 = x.dtype == EMBER_FLOAT32, f64 = x.dtype == EMBER_FLOAT64;
    if ((!f32 && !f64 && half_slot(x.dtype) < 0) || o.dtype != x.dtype)
        return g_host->fail(EMBER_ERR_UNSUPPORTED_DTYPE, "cpu gelu: dtype %d is not a real float", (int)x.dtype);
    const ember_view_t* views[2] = {&o, &x};
    Geometry g;
    if (!make_geometry(views, 2, g)) return EMBER_OK;
    const size_t sz = itemsize_of(x.dtype);
    char *px = base_ptr(x), *po = base_ptr(o);
    // Short rows of a stepped or transposed x, or of rows apart (x[:, :3]), in blocks: a run
    // each cost 28 ns
    if (staged_short_rows(g, px, sz, po, sz, kParallelCostly, [&](const char* in, char* out, int64_t n) {
            if (f32) gelu_f32((const float*)in, (float*)out, n, tanh_form);
            else if (f64) gelu_f64((const double*)in, (double*)out, n, tanh_form);
            else run<float>(in, 1, out, 1, n, x.dtype, tanh_form);
        }))
        return EMBER_OK;
    parallel_range(g.size, kParallelCostly, 1 << 12, [&](int64_t begin, int64_t end) {
        walk_runs<2>(g, begin, end, [&](const int64_t* off, int64_t len) {
            const char* in = px + off[1] * (int64_t)sz;
            char* out = po + off[0] * (int64_t)sz;
            const int64_t so = g.st[0][g.nd - 1], sx = g.st[1][g.nd - 1];
            if (f32 && so == 1 && sx == 1) gelu_f32((const float*)in, (float*)out, len, tanh_form);
            else if (f64 && so == 1 && sx == 1) gelu_f64((const double*)in, (double*)out, len, tanh_form);
            else if (f64) run<double>(in, sx, out, so, len, x.dtype, tanh_form);
            else run<float>(in, sx, out, so, len, x.dtype, tanh_form);
        });
    });
    return EMBER_OK;
}

}  // namespace

void add_gelu_kernel(std::vector<NativeKernel>& k) { k.push_back({"gelu", gelu_kernel, 0, true}); }

}  // namespace ember_cpu
