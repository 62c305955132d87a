// matmul: CLBlast's GEMM (single, batched by offsets, strided-batched) for float32,
// float64, complex64, complex128 and float16 where the device has cl_khr_fp16; the
// backend's own kernel for every other dtype and for products too small to pay for a
// CLBlast launch (EMBER_OPENCL_GEMM=clblast|own|auto, EMBER_OPENCL_GEMM_MIN_FLOPS).
#include <clblast.h>
#include <clblast_half.h>

#include <complex>
#include <cstring>
#include <string>
#include <vector>

#include "ocl_backend.hpp"

namespace ember_ocl {

void clblast_clear() { clblast::ClearCache(); }

namespace {

size_t isz(int dt) {
    static const size_t s[EMBER_DTYPE_COUNT] = {1, 1, 2, 4, 8, 1, 2, 4, 8, 2, 2, 4, 8, 8, 16};
    return s[dt];
}

ember_status_t own_matmul(State& s, Device& d, const ember_kernel_call_t* c) {
    const ember_view_t &a = c->in[0], &b = c->in[1], &o = c->out[0];
    int nd = o.ndim, dt = a.dtype;
    if (dt == EMBER_BOOL) return fail(EMBER_ERR_UNSUPPORTED_DTYPE, "the OpenCL kernel of matmul has no bool variant");
    int64_t as[EMBER_MAX_DIMS], bs[EMBER_MAX_DIMS];
    for (int i = 0; i < nd - 2; ++i) {
        as[i] = a.strides[i];
        bs[i] = b.strides[i];
    }
    as[nd - 2] = a.strides[nd - 2];
    as[nd - 1] = 0;
    bs[nd - 2] = 0;
    bs[nd - 1] = b.strides[nd - 1];
    ember_view_t va = a, vb = b;
    va.strides = as;
    vb.strides = bs;
    const ember_view_t* v[3] = {&o, &va, &vb};
    Geo g = make_geo(3, v, o.shape, o.ndim);
    if (g.n == 0) return EMBER_OK;
    cl_kernel k;
    if (ember_status_t st = get_kernel(s, d, dtype_prog(dt, G_OTHER), "matmul", &k)) return st;
    int64_t K = a.shape[nd - 1];
    size_t global;
    launch_shape(d, g.n, K, &g.ch, &global);
    ArgSetter arg(k);
    arg.mem(o.data).mem(a.data).mem(b.data).v(g).v((cl_long)K).v((cl_long)a.strides[nd - 1]).v((cl_long)b.strides[nd - 2]);
    if (arg.err != CL_SUCCESS) return fail(EMBER_ERR_DEVICE, "setting the arguments of matmul failed: %s", cl_error_name(arg.err));
    return enqueue(d, k, global, "matmul");
}

// How one operand (rows x cols, strides sr, sc) maps onto a row-major BLAS matrix.
struct Mat {
    bool ok = false, trans = false;
    size_t ld = 0;
};
Mat as_blas(int64_t rows, int64_t cols, int64_t sr, int64_t sc) {
    Mat m;
    if ((cols == 1 || sc == 1) && (rows == 1 || sr >= cols)) {
        m.ok = true;
        m.ld = (size_t)(rows == 1 ? cols : sr);
    } else if ((rows == 1 || sr == 1) && (cols == 1 || sc >= rows)) {
        m.ok = true;
        m.trans = true;
        m.ld = (size_t)(cols == 1 ? rows : sc);
    }
    if (m.ld == 0) m.ld = 1;
    return m;
}

template <class T>
clblast::StatusCode call_gemm(bool ta, bool tb, size_t m, size_t n, size_t k, T one, T zero, cl_mem A, const std::vector<size_t>& ao,
                              size_t lda, cl_mem B, const std::vector<size_t>& bo, size_t ldb, cl_mem C, const std::vector<size_t>& co,
                              size_t ldc, cl_command_queue* q) {
    using namespace clblast;
    Transpose TA = ta ? Transpose::kYes : Transpose::kNo, TB = tb ? Transpose::kYes : Transpose::kNo;
    size_t batch = co.size();
    if (batch == 1) return Gemm<T>(Layout::kRowMajor, TA, TB, m, n, k, one, A, ao[0], lda, B, bo[0], ldb, zero, C, co[0], ldc, q, nullptr);
    // Evenly spaced batches (the common case, broadcast operands included) use the
    // strided-batched routine; anything else passes every offset.
    auto even = [&](const std::vector<size_t>& v, int64_t& step) {
        step = (int64_t)v[1] - (int64_t)v[0];
        if (step < 0) return false;
        for (size_t i = 2; i < v.size(); ++i)
            if ((int64_t)v[i] - (int64_t)v[i - 1] != step) return false;
        return true;
    };
    int64_t sa, sb, sc;
    if (even(ao, sa) && even(bo, sb) && even(co, sc))
        return GemmStridedBatched<T>(Layout::kRowMajor, TA, TB, m, n, k, one, A, ao[0], lda, (size_t)sa, B, bo[0], ldb, (size_t)sb, zero, C,
                                     co[0], ldc, (size_t)sc, batch, q, nullptr);
    std::vector<T> alphas(batch, one), betas(batch, zero);
    return GemmBatched<T>(Layout::kRowMajor, TA, TB, m, n, k, alphas.data(), A, ao.data(), lda, B, bo.data(), ldb, betas.data(), C,
                          co.data(), ldc, batch, q, nullptr);
}

}  // namespace

ember_status_t matmul(State& s, Device& d, const ember_kernel_call_t* c) {
    const ember_view_t &a = c->in[0], &b = c->in[1], &o = c->out[0];
    int nd = o.ndim, dt = a.dtype;
    int64_t m = o.shape[nd - 2], n = o.shape[nd - 1], k = a.shape[nd - 1];
    bool blas_type = dt == EMBER_FLOAT32 || dt == EMBER_COMPLEX64 || ((dt == EMBER_FLOAT64 || dt == EMBER_COMPLEX128) && d.fp64) ||
                     (dt == EMBER_FLOAT16 && d.fp16);
    bool use = blas_type && s.gemm_mode != 2 && (s.gemm_mode == 1 || (double)m * (double)n * (double)k >= s.gemm_min_flops);
    if (!use || m == 0 || n == 0) return own_matmul(s, d, c);

    // Offsets of every batch (batch dims are already broadcast: stride 0 repeats a matrix).
    int64_t batch = 1;
    for (int i = 0; i < nd - 2; ++i) batch *= o.shape[i];
    if (batch == 0) return EMBER_OK;
    Mat ma = as_blas(m, k, a.strides[nd - 2], a.strides[nd - 1]), mb = as_blas(k, n, b.strides[nd - 2], b.strides[nd - 1]);
    // Operands CLBlast cannot address (negative or broadcast strides inside a matrix) are
    // first copied to a contiguous temporary.
    cl_mem tmp[2] = {nullptr, nullptr};
    ember_view_t src[2] = {a, b};
    std::vector<int64_t> cstr[2];
    ember_status_t st = EMBER_OK;
    for (int w = 0; w < 2 && st == EMBER_OK; ++w) {
        Mat& mm = w == 0 ? ma : mb;
        bool neg = false;
        for (int i = 0; i < nd; ++i) neg = neg || src[w].strides[i] < 0;
        if (mm.ok && !neg) continue;
        const ember_view_t& x = w == 0 ? a : b;
        // contiguous copy of the broadcast view (batch dims included)
        int64_t total = 1;
        for (int i = 0; i < nd; ++i) total *= x.shape[i];
        cstr[w].assign(nd, 0);
        int64_t acc = 1;
        for (int i = nd - 1; i >= 0; --i) {
            cstr[w][i] = acc;
            acc *= x.shape[i];
        }
        if ((st = pool_alloc(d, (size_t)total * isz(dt), &tmp[w])) != EMBER_OK) break;
        ember_view_t dst{tmp[w], 0, dt, nd, x.shape, cstr[w].data()};
        cl_kernel kc;
        std::string name = "copy_" + std::to_string(isz(dt));
        if ((st = get_kernel(s, d, PROG_MISC, name.c_str(), &kc)) != EMBER_OK) break;
        const ember_view_t* v[2] = {&dst, &x};
        Geo g = make_geo(2, v, x.shape, nd);
        size_t global;
        launch_shape(d, g.n, 1, &g.ch, &global);
        ArgSetter arg(kc);
        arg.mem(tmp[w]).mem(x.data).v(g);
        if ((st = enqueue(d, kc, global, "matmul")) != EMBER_OK) break;
        src[w] = dst;
        mm = w == 0 ? as_blas(m, k, cstr[w][nd - 2], cstr[w][nd - 1]) : as_blas(k, n, cstr[w][nd - 2], cstr[w][nd - 1]);
    }
    if (st != EMBER_OK) {
        for (cl_mem t : tmp) pool_free(d, t);
        return st;
    }
    std::vector<size_t> ao((size_t)batch), bo((size_t)batch), co((size_t)batch);
    {
        int64_t idx[EMBER_MAX_DIMS] = {0};
        for (int64_t t = 0; t < batch; ++t) {
            int64_t pa = src[0].offset, pb = src[1].offset, pc = o.offset;
            for (int i = 0; i < nd - 2; ++i) {
                pa += idx[i] * src[0].strides[i];
                pb += idx[i] * src[1].strides[i];
                pc += idx[i] * o.strides[i];
            }
            ao[(size_t)t] = (size_t)pa;
            bo[(size_t)t] = (size_t)pb;
            co[(size_t)t] = (size_t)pc;
            for (int i = nd - 3; i >= 0; --i) {
                if (++idx[i] < o.shape[i]) break;
                idx[i] = 0;
            }
        }
    }
    // beta = 0: CLBlast's kernels then never read C, so the uninitialised output is fine.
    clblast::StatusCode r = clblast::StatusCode::kSuccess;
    if (st == EMBER_OK) {
        cl_mem A = (cl_mem)src[0].data, B = (cl_mem)src[1].data, C = (cl_mem)o.data;
        size_t ldc = (size_t)n;
        switch (dt) {
            case EMBER_FLOAT32: r = call_gemm<float>(ma.trans, mb.trans, m, n, k, 1.0f, 0.0f, A, ao, ma.ld, B, bo, mb.ld, C, co, ldc, &d.queue); break;
            case EMBER_FLOAT64: r = call_gemm<double>(ma.trans, mb.trans, m, n, k, 1.0, 0.0, A, ao, ma.ld, B, bo, mb.ld, C, co, ldc, &d.queue); break;
            case EMBER_COMPLEX64:
                r = call_gemm<std::complex<float>>(ma.trans, mb.trans, m, n, k, {1, 0}, {0, 0}, A, ao, ma.ld, B, bo, mb.ld, C, co, ldc, &d.queue);
                break;
            case EMBER_COMPLEX128:
                r = call_gemm<std::complex<double>>(ma.trans, mb.trans, m, n, k, {1, 0}, {0, 0}, A, ao, ma.ld, B, bo, mb.ld, C, co, ldc, &d.queue);
                break;
            default:
                r = call_gemm<half>(ma.trans, mb.trans, m, n, k, FloatToHalf(1.0f), FloatToHalf(0.0f), A, ao, ma.ld, B, bo, mb.ld, C, co, ldc,
                                    &d.queue);
        }
    }
    for (cl_mem t : tmp) pool_free(d, t);
    if (st != EMBER_OK) return st;
    d.last_op = "matmul";
    if (r != clblast::StatusCode::kSuccess) {
        static std::atomic<bool> warned{false};
        if (!warned.exchange(true))
            log_msg(EMBER_LOG_WARN, "opencl: CLBlast GEMM failed with status %d on '%s'; using Ember's own matmul kernel instead", (int)r,
                    d.name.c_str());
        return own_matmul(s, d, c);
    }
    return EMBER_OK;
}

}  // namespace ember_ocl
