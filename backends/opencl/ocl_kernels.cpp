// Host side of the kernels: one handler per op-table row, bound once by find_kernel.
// Each handler turns the core's views into a geometry struct, picks the kernel of the
// input dtype's program and enqueues it (asynchronously unless EMBER_OPENCL_SYNC=1).
#include <algorithm>
#include <cstring>
#include <deque>
#include <mutex>
#include <vector>
#include <new>
#include <string>

#include "ocl_backend.hpp"

namespace ember_ocl {

Geo make_geo(int n_ops, const ember_view_t* const* views, const int64_t* shape, int ndim, bool collapse) {
    Geo g;
    std::memset(&g, 0, sizeof g);
    int64_t n = 1;
    for (int d = 0; d < ndim; ++d) n *= shape[d];
    g.n = n;
    for (int k = 0; k < n_ops; ++k) g.off[k] = views[k]->offset;
    if (n == 0) return g;
    int nd = 0;
    for (int d = 0; d < ndim; ++d) {
        if (collapse && shape[d] == 1) continue;
        bool merge = collapse && nd > 0;
        for (int k = 0; k < n_ops && merge; ++k) merge = g.st[k][nd - 1] == views[k]->strides[d] * shape[d];
        if (merge) {
            g.shape[nd - 1] *= shape[d];
            for (int k = 0; k < n_ops; ++k) g.st[k][nd - 1] = views[k]->strides[d];
        } else {
            g.shape[nd] = shape[d];
            for (int k = 0; k < n_ops; ++k) g.st[k][nd] = views[k]->strides[d];
            ++nd;
        }
    }
    g.nd = nd;
    g.unit = nd == 1;
    for (int k = 0; k < n_ops; ++k) g.unit = g.unit && g.st[k][0] == 1;
    return g;
}

namespace {

constexpr unsigned ALLOW64 = 1;  // data movement: works on float64 without cl_khr_fp64

struct Handler;
using HandlerFn = ember_status_t (*)(State&, Device&, const Handler&, const ember_kernel_call_t*);
struct Handler {
    const char* name;
    HandlerFn fn;
    unsigned flags;
};

bool is64(int dt) { return dt == EMBER_FLOAT64 || dt == EMBER_COMPLEX128; }

size_t itemsize(int dt) {
    static const size_t s[EMBER_DTYPE_COUNT] = {1, 1, 2, 4, 8, 1, 2, 4, 8, 2, 2, 4, 8, 8, 16};
    return s[dt];
}

ember_status_t no_variant(const char* op, int dt) {
    return fail(EMBER_ERR_UNSUPPORTED_DTYPE, "the OpenCL kernel of %s has no %s variant", op, dtype_name(dt));
}

// Sets the geometry's chunk and launches kernel k over g.n elements.
ember_status_t run_ew(Device& d, cl_kernel k, ArgSetter& a, Geo& g, const char* op, int64_t cost = 1) {
    size_t global;
    launch_shape(d, g.n, cost, &g.ch, &global);
    a.v(g);
    if (a.err != CL_SUCCESS) return fail(EMBER_ERR_DEVICE, "setting the arguments of %s failed: %s", op, cl_error_name(a.err));
    return enqueue(d, k, global, op);
}

// ------------------------------------------------------------------ elementwise
int handler_index(const Handler& h);

// The elementwise kernel of handler h for dtype dt, looked up once per device.
ember_status_t ew_kernel(State& s, Device& d, const Handler& h, int dt, bool unary_op, FastKernel** out) {
    std::unique_ptr<FastKernel>& slot = d.fast[(size_t)handler_index(h) * EMBER_DTYPE_COUNT + (size_t)dt];
    if (slot) {
        *out = slot.get();
        return EMBER_OK;
    }
    if (!(unary_op ? unary_supported(h.name, dt) : binary_supported(h.name, dt))) return no_variant(h.name, dt);
    std::string kname = !unary_op ? std::string("b_") + h.name
                        : (std::strcmp(h.name, "abs") == 0 && (dt == EMBER_COMPLEX64 || dt == EMBER_COMPLEX128)) ? std::string("u_cabs")
                                                                                                               : std::string("u_") + h.name;
    int group = unary_op ? unary_group(h.name) : binary_group(h.name);
    cl_kernel k;
    if (ember_status_t st = get_kernel(s, d, dtype_prog(dt, group), kname.c_str(), &k)) return st;
    slot.reset(new FastKernel());
    slot->k = k;
    *out = slot.get();
    return EMBER_OK;
}

// Launches a hot elementwise kernel over g, setting only the arguments that differ from
// the ones the kernel already holds.
ember_status_t run_fast(Device& d, FastKernel& f, int n_mem, const ember_view_t* const* v, Geo& g, const char* op) {
    size_t global;
    launch_shape(d, g.n, 1, &g.ch, &global);
    cl_int err = CL_SUCCESS;
    for (int i = 0; i < n_mem && err == CL_SUCCESS; ++i) {
        cl_mem m = static_cast<cl_mem>(v[i]->data);
        if (f.valid && f.mem[i] == m) continue;
        err = clSetKernelArg(f.k, (cl_uint)i, sizeof m, &m);
        f.mem[i] = m;
    }
    if (err == CL_SUCCESS && (!f.valid || std::memcmp(&f.geo, &g, sizeof g) != 0)) {
        err = clSetKernelArg(f.k, (cl_uint)n_mem, sizeof g, &g);
        f.geo = g;
    }
    f.valid = err == CL_SUCCESS;
    if (err != CL_SUCCESS) return fail(EMBER_ERR_DEVICE, "setting the arguments of %s failed: %s", op, cl_error_name(err));
    return enqueue(d, f.k, global, op);
}

ember_status_t unary(State& s, Device& d, const Handler& h, const ember_kernel_call_t* c) {
    const ember_view_t &x = c->in[0], &o = c->out[0];
    FastKernel* f;
    if (ember_status_t st = ew_kernel(s, d, h, x.dtype, true, &f)) return st;
    const ember_view_t* v[2] = {&o, &x};
    Geo g = make_geo(2, v, o.shape, o.ndim);
    if (g.n == 0) return EMBER_OK;
    return run_fast(d, *f, 2, v, g, h.name);
}

ember_status_t binary(State& s, Device& d, const Handler& h, const ember_kernel_call_t* c) {
    const ember_view_t &x = c->in[0], &y = c->in[1], &o = c->out[0];
    FastKernel* f;
    if (ember_status_t st = ew_kernel(s, d, h, x.dtype, false, &f)) return st;
    const ember_view_t* v[3] = {&o, &x, &y};
    Geo g = make_geo(3, v, o.shape, o.ndim);
    if (g.n == 0) return EMBER_OK;
    return run_fast(d, *f, 3, v, g, h.name);
}

// Copies view x into view o (same dtype) with the byte-moving kernel.
ember_status_t copy_view(State& s, Device& d, const ember_view_t& x, const ember_view_t& o, const char* op) {
    cl_kernel k;
    std::string name = "copy_" + std::to_string(itemsize(x.dtype));
    if (ember_status_t st = get_kernel(s, d, PROG_MISC, name.c_str(), &k)) return st;
    const ember_view_t* v[2] = {&o, &x};
    Geo g = make_geo(2, v, o.shape, o.ndim);
    if (g.n == 0) return EMBER_OK;
    ArgSetter a(k);
    a.mem(o.data).mem(x.data);
    return run_ew(d, k, a, g, op);
}

ember_status_t astype(State& s, Device& d, const Handler& h, const ember_kernel_call_t* c) {
    const ember_view_t &x = c->in[0], &o = c->out[0];
    int from = x.dtype, to = o.dtype;
    if (from == to) return copy_view(s, d, x, o, "astype");
    int prog;
    std::string name;
    if (!d.fp64 && (is64(from) || is64(to))) {
        // float64 / complex128 as bit patterns, converted through float32 in software
        prog = PROG_SOFT64;
        if (from == EMBER_FLOAT64) name = std::string("from64_") + dtype_tag(to);
        else if (from == EMBER_COMPLEX128) name = std::string("fromc128_") + dtype_tag(to);
        else if (to == EMBER_FLOAT64) name = std::string("to64_") + dtype_tag(from);
        else name = std::string("toc128_") + dtype_tag(from);
    } else {
        prog = dtype_prog(from, G_CAST);
        name = std::string("cast_") + dtype_tag(to);
    }
    cl_kernel k;
    if (ember_status_t st = get_kernel(s, d, prog, name.c_str(), &k)) return st;
    const ember_view_t* v[2] = {&o, &x};
    Geo g = make_geo(2, v, o.shape, o.ndim);
    if (g.n == 0) return EMBER_OK;
    ArgSetter a(k);
    a.mem(o.data).mem(x.data);
    return run_ew(d, k, a, g, "astype");
}

ember_status_t where(State& s, Device& d, const Handler&, const ember_kernel_call_t* c) {
    const ember_view_t &cond = c->in[0], &x = c->in[1], &y = c->in[2], &o = c->out[0];
    cl_kernel k;
    std::string name = "where_" + std::to_string(itemsize(o.dtype));
    if (ember_status_t st = get_kernel(s, d, PROG_MISC, name.c_str(), &k)) return st;
    const ember_view_t* v[4] = {&o, &cond, &x, &y};
    Geo g = make_geo(4, v, o.shape, o.ndim);
    if (g.n == 0) return EMBER_OK;
    ArgSetter a(k);
    a.mem(o.data).mem(cond.data).mem(x.data).mem(y.data);
    return run_ew(d, k, a, g, "where");
}

ember_status_t arange(State& s, Device& d, const Handler&, const ember_kernel_call_t* c) {
    const ember_view_t& o = c->out[0];
    cl_kernel k;
    if (ember_status_t st = get_kernel(s, d, dtype_prog(o.dtype, G_CAST), "arange", &k)) return st;
    int64_t n = o.ndim ? o.shape[0] : 1;
    cl_long ch;
    size_t global;
    launch_shape(d, n, 1, &ch, &global);
    ArgSetter a(k);
    a.mem(o.data).v((cl_long)o.offset).v((cl_long)(o.ndim ? o.strides[0] : 1)).v((cl_long)n).v(ch);
    if (d.fp64_hw) a.v((cl_double)c->attrs->f[0]).v((cl_double)c->attrs->f[1]);
    else a.v((cl_float)c->attrs->f[0]).v((cl_float)c->attrs->f[1]);
    if (a.err != CL_SUCCESS) return fail(EMBER_ERR_DEVICE, "setting the arguments of arange failed: %s", cl_error_name(a.err));
    return enqueue(d, k, global, "arange");
}

// ------------------------------------------------------------------ reductions and scans
// Splits x's dims into kept (outer, with x and out strides) and masked (inner) groups,
// merging neighbours that stay contiguous relative to each other (C order is preserved).
RGeo make_rgeo(const ember_view_t& x, const ember_view_t& o, uint64_t mask, bool collapse = true) {
    RGeo g;
    std::memset(&g, 0, sizeof g);
    g.off_in = x.offset;
    g.off_out = o.offset;
    int64_t n_out = 1, n_in = 1;
    for (int d = 0; d < x.ndim; ++d) {
        int64_t len = x.shape[d];
        if (mask & (1ull << d)) {
            n_in *= len;
            if (collapse && len == 1) continue;
            if (collapse && g.nd_in > 0 && g.ist[g.nd_in - 1] == x.strides[d] * len) {
                g.ishape[g.nd_in - 1] *= len;
                g.ist[g.nd_in - 1] = x.strides[d];
            } else {
                g.ishape[g.nd_in] = len;
                g.ist[g.nd_in++] = x.strides[d];
            }
        } else {
            n_out *= len;
            if (collapse && len == 1) continue;
            int64_t os = o.strides[d];
            if (collapse && g.nd_out > 0 && g.ost_in[g.nd_out - 1] == x.strides[d] * len && g.ost_out[g.nd_out - 1] == os * len) {
                g.oshape[g.nd_out - 1] *= len;
                g.ost_in[g.nd_out - 1] = x.strides[d];
                g.ost_out[g.nd_out - 1] = os;
            } else {
                g.oshape[g.nd_out] = len;
                g.ost_in[g.nd_out] = x.strides[d];
                g.ost_out[g.nd_out++] = os;
            }
        }
    }
    g.n_out = n_out;
    g.n_in = n_in;
    return g;
}

size_t acc_size(const Device& d, int dt) {
    if (dt == EMBER_FLOAT16 || dt == EMBER_BFLOAT16 || dt == EMBER_FLOAT32 || dt == EMBER_FLOAT64) return d.fp64_hw ? 8 : 4;
    if (dt == EMBER_COMPLEX64 || dt == EMBER_COMPLEX128) return d.fp64_hw ? 16 : 8;
    return itemsize(dt);
}

ember_status_t reduce(State& s, Device& d, const Handler& h, const ember_kernel_call_t* c) {
    const ember_view_t &x = c->in[0], &o = c->out[0];
    int dt = x.dtype;
    bool cplx = dt == EMBER_COMPLEX64 || dt == EMBER_COMPLEX128;
    bool logical = !std::strcmp(h.name, "all") || !std::strcmp(h.name, "any");
    bool ordered = !std::strcmp(h.name, "max") || !std::strcmp(h.name, "min");
    if ((logical && dt != EMBER_BOOL) || (ordered && cplx) || (!logical && !ordered && dt == EMBER_BOOL)) return no_variant(h.name, dt);
    RGeo g = make_rgeo(x, o, c->attrs->axes_mask);
    if (g.n_out == 0) return EMBER_OK;
    int prog = dtype_prog(dt, G_REDUCE);
    // Few outputs over long reductions: split each output's range into parts (stage 1),
    // then combine the parts in order (stage 2).
    // capacity: work items that keep every compute unit busy (a CPU device runs a work
    // group per thread, so it needs several groups of d.local items)
    int64_t capacity = (int64_t)d.compute_units * (int64_t)d.local * (d.chunked ? 2 : 4);
    if (g.n_out < capacity && g.n_in >= 8192) {
        int64_t parts = std::min<int64_t>((capacity + g.n_out - 1) / g.n_out, g.n_in / 2048);
        if (parts >= 2) {
            int64_t len = (g.n_in + parts - 1) / parts;
            parts = (g.n_in + len - 1) / len;
            cl_kernel kp, kf;
            if (ember_status_t st = get_kernel(s, d, prog, (std::string("r_") + h.name + "_p").c_str(), &kp)) return st;
            if (ember_status_t st = get_kernel(s, d, prog, (std::string("r_") + h.name + "_f").c_str(), &kf)) return st;
            cl_mem tmp;
            if (ember_status_t st = pool_alloc(d, (size_t)(g.n_out * parts) * acc_size(d, dt), &tmp)) return st;
            size_t global;
            launch_shape(d, g.n_out * parts, len, &g.ch, &global);
            ArgSetter a(kp);
            a.mem(tmp).mem(x.data).v(g).v((cl_long)parts).v((cl_long)len);
            ember_status_t st = a.err ? fail(EMBER_ERR_DEVICE, "setting arguments of %s failed", h.name) : enqueue(d, kp, global, h.name);
            if (st == EMBER_OK) {
                launch_shape(d, g.n_out, parts, &g.ch, &global);
                ArgSetter b(kf);
                b.mem(o.data).mem(tmp).v(g).v((cl_long)parts);
                st = b.err ? fail(EMBER_ERR_DEVICE, "setting arguments of %s failed", h.name) : enqueue(d, kf, global, h.name);
            }
            pool_free(d, tmp);
            return st;
        }
    }
    cl_kernel k;
    if (ember_status_t st = get_kernel(s, d, prog, (std::string("r_") + h.name).c_str(), &k)) return st;
    size_t global;
    launch_shape(d, g.n_out, std::max<int64_t>(g.n_in, 1), &g.ch, &global);
    ArgSetter a(k);
    a.mem(o.data).mem(x.data).v(g);
    if (a.err != CL_SUCCESS) return fail(EMBER_ERR_DEVICE, "setting the arguments of %s failed: %s", h.name, cl_error_name(a.err));
    return enqueue(d, k, global, h.name);
}

// argmax/argmin, cumsum/cumprod, softmax/log_softmax, sort/argsort: one work item per line
// along attrs.i[0].
ember_status_t per_line(State& s, Device& d, const Handler& h, const ember_kernel_call_t* c) {
    const ember_view_t &x = c->in[0], &o = c->out[0];
    int dt = x.dtype, axis = (int)c->attrs->i[0];
    bool cplx = dt == EMBER_COMPLEX64 || dt == EMBER_COMPLEX128;
    bool arg = !std::strncmp(h.name, "arg", 3) && std::strcmp(h.name, "argsort") != 0;
    bool scan = !std::strncmp(h.name, "cum", 3);
    bool softmax = std::strstr(h.name, "softmax") != nullptr;
    bool sorting = !arg && !scan && !softmax;
    bool real_float = dt == EMBER_FLOAT16 || dt == EMBER_BFLOAT16 || dt == EMBER_FLOAT32 || dt == EMBER_FLOAT64;
    if ((arg && cplx) || (scan && dt == EMBER_BOOL) || (softmax && !real_float)) return no_variant(h.name, dt);
    RGeo g = make_rgeo(x, o, 1ull << axis, true);
    if (g.n_in == 0 || g.n_out == 0) return EMBER_OK;
    g.nd_in = 1;
    g.ishape[0] = x.shape[axis];
    g.ist[0] = x.strides[axis];
    g.os_axis = o.strides[axis];
    cl_kernel k;
    if (ember_status_t st = get_kernel(s, d, dtype_prog(dt, sorting ? G_OTHER : G_REDUCE), h.name, &k)) return st;
    size_t global;
    launch_shape(d, g.n_out, g.n_in * (sorting ? 8 : 1), &g.ch, &global);
    ArgSetter a(k);
    a.mem(o.data).mem(x.data);
    cl_mem scratch = nullptr;
    if (sorting) {
        if (ember_status_t st = pool_alloc(d, (size_t)(g.n_out * 2 * g.n_in) * sizeof(cl_long), &scratch)) return st;
        a.mem(scratch).v(g).v((cl_int)(c->attrs->i[1] != 0));
    } else {
        a.v(g);
    }
    ember_status_t st = a.err != CL_SUCCESS ? fail(EMBER_ERR_DEVICE, "setting the arguments of %s failed: %s", h.name, cl_error_name(a.err))
                                            : enqueue(d, k, global, h.name);
    if (scratch) pool_free(d, scratch);
    return st;
}

// ------------------------------------------------------------------ indexing
// Gather for take (x.shape[:axis] + idx.shape + x.shape[axis+1:]) and take_along_axis
// (out has idx's shape); both become out[p0] = x[p1 + fix(idx[p2]) * s_axis].
ember_status_t gather(State& s, Device& d, const Handler& h, const ember_kernel_call_t* c) {
    const ember_view_t &x = c->in[0], &idx = c->in[1], &o = c->out[0];
    int axis = (int)c->attrs->i[0];
    bool take = !std::strcmp(h.name, "take");
    int64_t xs[EMBER_MAX_DIMS] = {0}, is[EMBER_MAX_DIMS] = {0};
    for (int dd = 0; dd < o.ndim; ++dd) {
        if (take) {
            if (dd < axis) xs[dd] = x.strides[dd];
            else if (dd < axis + idx.ndim) is[dd] = idx.strides[dd - axis];
            else xs[dd] = x.strides[dd - idx.ndim + 1];
        } else {
            xs[dd] = dd == axis ? 0 : x.strides[dd];
            is[dd] = idx.strides[dd];
        }
    }
    ember_view_t vx = x, vi = idx;
    vx.strides = xs;
    vi.strides = is;
    const ember_view_t* v[3] = {&o, &vx, &vi};
    Geo g = make_geo(3, v, o.shape, o.ndim);
    if (g.n == 0) return EMBER_OK;
    cl_kernel k;
    std::string name = "gather_" + std::to_string(itemsize(x.dtype));
    if (ember_status_t st = get_kernel(s, d, PROG_MISC, name.c_str(), &k)) return st;
    int seq = begin_checked(d, std::string(h.name) + " (axis " + std::to_string(axis) + " of length " + std::to_string(x.shape[axis]) + ")");
    ArgSetter a(k);
    a.mem(o.data).mem(x.data).mem(idx.data);
    size_t global;
    launch_shape(d, g.n, 1, &g.ch, &global);
    a.v(g).v((cl_long)x.shape[axis]).v((cl_long)x.strides[axis]).mem(d.err_buf).v((cl_int)seq);
    if (a.err != CL_SUCCESS) return fail(EMBER_ERR_DEVICE, "setting the arguments of %s failed: %s", h.name, cl_error_name(a.err));
    return enqueue(d, k, global, h.name);
}

ember_status_t scatter(State& s, Device& d, const Handler& h, const ember_kernel_call_t* c) {
    const ember_view_t &src = c->in[0], &index = c->in[1], &o = c->out[0];
    int axis = (int)c->attrs->i[0], reduce = (int)c->attrs->i[1], dt = src.dtype;
    bool cplx = dt == EMBER_COMPLEX64 || dt == EMBER_COMPLEX128;
    if ((cplx && (reduce == EMBER_SCATTER_MAX || reduce == EMBER_SCATTER_MIN)) || (dt == EMBER_BOOL && reduce != EMBER_SCATTER_REPLACE))
        return no_variant("scatter", dt);
    int64_t ss[EMBER_MAX_DIMS] = {0}, js[EMBER_MAX_DIMS] = {0};
    for (int dd = 0; dd < o.ndim; ++dd) {
        ss[dd] = dd == axis ? 0 : src.strides[dd];
        js[dd] = dd == axis ? 1 : 0;
    }
    ember_view_t vs = src, vj = o;
    vs.strides = ss;
    vj.strides = js;
    vj.offset = 0;
    const ember_view_t* v[3] = {&o, &vs, &vj};
    Geo g = make_geo(3, v, o.shape, o.ndim);
    if (g.n == 0) return EMBER_OK;
    cl_kernel k;
    if (ember_status_t st = get_kernel(s, d, dtype_prog(dt, G_OTHER), "scatter", &k)) return st;
    int seq = begin_checked(d, "scatter (dim_size " + std::to_string(o.shape[axis]) + ")");
    size_t global;
    int64_t len = src.shape[axis];
    launch_shape(d, g.n, std::max<int64_t>(len, 1), &g.ch, &global);
    ArgSetter a(k);
    a.mem(o.data).mem(src.data).mem(index.data).v(g).v((cl_long)len).v((cl_long)src.strides[axis]).v((cl_long)index.offset);
    a.v((cl_long)(index.ndim ? index.strides[0] : 0)).v((cl_long)o.shape[axis]).v((cl_int)reduce).mem(d.err_buf).v((cl_int)seq);
    if (a.err != CL_SUCCESS) return fail(EMBER_ERR_DEVICE, "setting the arguments of scatter failed: %s", cl_error_name(a.err));
    return enqueue(d, k, global, "scatter");
}

ember_status_t nonzero(State& s, Device& d, const Handler&, const ember_kernel_call_t* c) {
    const ember_view_t &x = c->in[0], &o = c->out[0];
    cl_kernel k;
    if (ember_status_t st = get_kernel(s, d, dtype_prog(x.dtype, G_OTHER), "nonzero", &k)) return st;
    const ember_view_t* v[2] = {&o, &x};
    Geo g = make_geo(2, v, x.shape, x.ndim, false);
    if (g.n == 0 || o.ndim < 1 || o.shape[0] == 0) return EMBER_OK;
    g.ch = 1;
    ArgSetter a(k);
    a.mem(o.data).mem(x.data).v(g).v((cl_long)o.shape[0]).v((cl_long)o.strides[0]).v((cl_long)(o.ndim > 1 ? o.strides[1] : 0)).v((cl_long)o.offset);
    if (a.err != CL_SUCCESS) return fail(EMBER_ERR_DEVICE, "setting the arguments of nonzero failed: %s", cl_error_name(a.err));
    return enqueue(d, k, d.local, "nonzero");
}

ember_status_t matmul_h(State& s, Device& d, const Handler&, const ember_kernel_call_t* c) { return matmul(s, d, c); }

ember_status_t searchsorted(State& s, Device& d, const Handler&, const ember_kernel_call_t* c) {
    const ember_view_t &seq = c->in[0], &val = c->in[1], &o = c->out[0];
    if (seq.dtype == EMBER_COMPLEX64 || seq.dtype == EMBER_COMPLEX128) return no_variant("searchsorted", seq.dtype);
    cl_kernel k;
    if (ember_status_t st = get_kernel(s, d, dtype_prog(seq.dtype, G_OTHER), "searchsorted", &k)) return st;
    const ember_view_t* v[2] = {&o, &val};
    Geo g = make_geo(2, v, o.shape, o.ndim);
    if (g.n == 0) return EMBER_OK;
    int64_t n = seq.shape[0];
    ArgSetter a(k);
    a.mem(o.data).mem(seq.data).mem(val.data);
    size_t global;
    int64_t cost = 1;
    while ((int64_t(1) << cost) < n) ++cost;
    launch_shape(d, g.n, cost, &g.ch, &global);
    a.v(g).v((cl_long)n).v((cl_long)seq.strides[0]).v((cl_long)seq.offset).v((cl_int)(c->attrs->i[0] != 0));
    if (a.err != CL_SUCCESS) return fail(EMBER_ERR_DEVICE, "setting the arguments of searchsorted failed: %s", cl_error_name(a.err));
    return enqueue(d, k, global, "searchsorted");
}

// random_bits: attrs.i[0] key, i[1] first Philox block (src/ops/random.cpp).
ember_status_t random_bits(State& s, Device& d, const Handler&, const ember_kernel_call_t* c) {
    const ember_view_t& o = c->out[0];
    cl_kernel k;
    if (ember_status_t st = get_kernel(s, d, PROG_MISC, "random_bits", &k)) return st;
    const ember_view_t* v[1] = {&o};
    Geo g = make_geo(1, v, o.shape, o.ndim);
    if (g.n == 0) return EMBER_OK;
    size_t global;
    launch_shape(d, g.n, 10, &g.ch, &global);
    ArgSetter a(k);
    a.mem(o.data).v(g).v((cl_ulong)c->attrs->i[0]).v((cl_ulong)c->attrs->i[1]);
    if (a.err != CL_SUCCESS) return fail(EMBER_ERR_DEVICE, "setting the arguments of random_bits failed: %s", cl_error_name(a.err));
    return enqueue(d, k, global, "random_bits");
}

const Handler kHandlers[] = {
    // unary (the composites relu, softplus and silu run as single kernels too)
    {"negative", unary, 0}, {"abs", unary, 0}, {"sign", unary, 0}, {"sqrt", unary, 0}, {"square", unary, 0},
    {"exp", unary, 0}, {"expm1", unary, 0}, {"log", unary, 0}, {"log1p", unary, 0}, {"log2", unary, 0},
    {"log10", unary, 0}, {"sin", unary, 0}, {"cos", unary, 0}, {"tan", unary, 0}, {"asin", unary, 0},
    {"acos", unary, 0}, {"atan", unary, 0}, {"sinh", unary, 0}, {"cosh", unary, 0}, {"tanh", unary, 0},
    {"asinh", unary, 0}, {"acosh", unary, 0}, {"atanh", unary, 0}, {"erf", unary, 0}, {"erfc", unary, 0}, {"cbrt", unary, 0}, {"floor", unary, 0},
    {"ceil", unary, 0}, {"round", unary, 0}, {"trunc", unary, 0}, {"reciprocal", unary, 0}, {"isnan", unary, 0},
    {"isinf", unary, 0}, {"isfinite", unary, 0}, {"signbit", unary, 0}, {"conj", unary, 0},
    {"logical_not", unary, 0}, {"bitwise_invert", unary, 0}, {"sigmoid", unary, 0},
    {"relu", unary, 0}, {"softplus", unary, 0}, {"silu", unary, 0},
    // binary
    {"add", binary, 0}, {"subtract", binary, 0}, {"multiply", binary, 0}, {"divide", binary, 0},
    {"floor_divide", binary, 0}, {"remainder", binary, 0}, {"fmod", binary, 0}, {"pow", binary, 0}, {"maximum", binary, 0},
    {"minimum", binary, 0}, {"atan2", binary, 0}, {"hypot", binary, 0}, {"copysign", binary, 0},
    {"nextafter", binary, 0}, {"logaddexp", binary, 0}, {"equal", binary, 0}, {"not_equal", binary, 0},
    {"less", binary, 0}, {"less_equal", binary, 0}, {"greater", binary, 0}, {"greater_equal", binary, 0},
    {"logical_and", binary, 0}, {"logical_or", binary, 0}, {"logical_xor", binary, 0}, {"bitwise_and", binary, 0},
    {"bitwise_or", binary, 0}, {"bitwise_xor", binary, 0}, {"bitwise_left_shift", binary, 0},
    {"bitwise_right_shift", binary, 0},
    // reductions
    {"sum", reduce, 0}, {"prod", reduce, 0}, {"max", reduce, 0}, {"min", reduce, 0}, {"all", reduce, 0}, {"any", reduce, 0},
    // custom signatures
    {"astype", astype, ALLOW64}, {"arange", arange, 0}, {"where", where, ALLOW64},
    {"argmax", per_line, 0}, {"argmin", per_line, 0}, {"cumsum", per_line, 0}, {"cumprod", per_line, 0},
    {"softmax", per_line, 0}, {"log_softmax", per_line, 0},
    {"take", gather, ALLOW64}, {"take_along_axis", gather, ALLOW64}, {"scatter", scatter, 0},
    {"nonzero", nonzero, 0}, {"sort", per_line, 0}, {"argsort", per_line, 0}, {"matmul", matmul_h, 0},
    // other families: the Philox stream (the random composites build on it), searchsorted
    {"random_bits", random_bits, 0}, {"searchsorted", searchsorted, 0},
};

static_assert(sizeof(kHandlers) / sizeof(kHandlers[0]) <= (size_t)kMaxHandlers, "raise kMaxHandlers");
int handler_index(const Handler& h) { return (int)(&h - kHandlers); }  // only for kHandlers entries

// ------------------------------------------------------------------ explicit host fallback
// Primitives without a device kernel (linear algebra factorizations, the rejection
// samplers of the random family, the FFT) run the reference kernel on host copies:
// wait for the queue, copy every operand's extent to host memory, run, copy the
// outputs back. Correct and complete, not fast; docs/opencl.md lists them.
struct HostCopy {
    std::vector<unsigned char> bytes;
    ember_view_t view;
    int64_t lo = 0;  // first element of the extent in the device buffer
};

void extent(const ember_view_t& v, int64_t* lo, int64_t* hi, bool* empty) {
    *lo = *hi = v.offset;
    *empty = false;
    for (int d = 0; d < v.ndim; ++d) {
        if (v.shape[d] == 0) *empty = true;
        int64_t span = (v.shape[d] - 1) * v.strides[d];
        if (span > 0) *hi += span;
        else *lo += span;
    }
}

ember_status_t to_host(Device& d, const ember_view_t& v, HostCopy& h) {
    h.view = v;
    int64_t lo, hi;
    bool empty;
    extent(v, &lo, &hi, &empty);
    size_t isz = itemsize(v.dtype);
    if (empty || !v.data) {
        h.bytes.assign(isz, 0);
        h.view.data = h.bytes.data();
        h.view.offset = 0;
        return EMBER_OK;
    }
    h.lo = lo;
    h.bytes.resize((size_t)(hi - lo + 1) * isz);
    cl_int err = clEnqueueReadBuffer(d.queue, (cl_mem)v.data, CL_TRUE, (size_t)lo * isz, h.bytes.size(), h.bytes.data(), 0, nullptr, nullptr);
    if (err != CL_SUCCESS) return fail(EMBER_ERR_DEVICE, "copying an operand to the host failed: %s", cl_error_name(err));
    h.view.data = h.bytes.data();
    h.view.offset = v.offset - lo;
    return EMBER_OK;
}

ember_status_t host_fallback(State& s, Device& d, const Handler& h, const ember_kernel_call_t* c) {
    ember_kernel_t ref{nullptr, nullptr};
    if (!s.host->reference_kernel(h.name, &ref) || !ref.fn) return fail(EMBER_ERR_UNSUPPORTED, "op '%s' has no kernel on backend 'opencl'", h.name);
    if (ember_status_t st = finish_and_check(d)) return st;
    std::vector<HostCopy> ins((size_t)c->n_in), outs((size_t)c->n_out);
    std::vector<ember_view_t> vin((size_t)c->n_in), vout((size_t)c->n_out);
    for (int i = 0; i < c->n_in; ++i) {
        if (ember_status_t st = to_host(d, c->in[i], ins[(size_t)i])) return st;
        vin[(size_t)i] = ins[(size_t)i].view;
    }
    for (int i = 0; i < c->n_out; ++i) {  // read too: a strided output keeps its other elements
        if (ember_status_t st = to_host(d, c->out[i], outs[(size_t)i])) return st;
        vout[(size_t)i] = outs[(size_t)i].view;
    }
    ember_kernel_call_t hc = *c;
    hc.kernel_data = ref.data;
    hc.in = vin.data();
    hc.out = vout.data();
    if (ember_status_t st = ref.fn(&hc)) return st;
    for (int i = 0; i < c->n_out; ++i) {
        const ember_view_t& o = c->out[i];
        const HostCopy& hcpy = outs[(size_t)i];
        if (!o.data || hcpy.bytes.empty()) continue;
        int64_t lo, hi;
        bool empty;
        extent(o, &lo, &hi, &empty);
        if (empty) continue;
        cl_int err = clEnqueueWriteBuffer(d.queue, (cl_mem)o.data, CL_TRUE, (size_t)lo * itemsize(o.dtype), hcpy.bytes.size(), hcpy.bytes.data(), 0,
                                          nullptr, nullptr);
        if (err != CL_SUCCESS) return fail(EMBER_ERR_DEVICE, "copying a result back to the device failed: %s", cl_error_name(err));
    }
    d.last_op = h.name;
    return EMBER_OK;
}

std::mutex g_fallback_mu;
std::deque<Handler> g_fallbacks;  // stable addresses; one per op, made at bind time
std::deque<std::string> g_fallback_names;

ember_status_t trampoline(const ember_kernel_call_t* call) {
    const Handler& h = *static_cast<const Handler*>(call->kernel_data);
    State& s = *static_cast<State*>(call->backend);
    if (Capture* cap = capture_slot()) {  // ember_opencl_tensor_mem: record the destination only
        if (call->n_out > 0) {
            const ember_view_t& o = call->out[0];
            cap->mem = static_cast<cl_mem>(o.data);
            cap->byte_offset = o.offset * (int64_t)itemsize(o.dtype);
            cap->device = call->device;
            cap->seen = true;
        }
        return EMBER_OK;
    }
    Device* d = s.device(call->device);
    if (!d || s.torn_down) return fail(EMBER_ERR_DEVICE, "opencl device %d is not available", call->device);
    if (!d->fp64 && !(h.flags & ALLOW64)) {
        for (int i = 0; i < call->n_in + call->n_out; ++i) {
            int dt = i < call->n_in ? call->in[i].dtype : call->out[i - call->n_in].dtype;
            if (is64(dt))
                return fail(EMBER_ERR_UNSUPPORTED_DTYPE,
                            "%s: OpenCL device '%s' has no double precision (cl_khr_fp64), so %s is not supported there; "
                            "use float32/complex64 or another backend",
                            h.name, d->name.c_str(), dtype_name(dt));
        }
    }
    std::lock_guard<std::mutex> lk(d->mu);
    ember_status_t st;
    try {
        st = h.fn(s, *d, h, call);
    } catch (const std::bad_alloc&) {
        st = fail(EMBER_ERR_OUT_OF_MEMORY, "out of host memory");
    } catch (const std::exception& e) {
        st = fail(EMBER_ERR_INTERNAL, "internal error in the OpenCL kernel of %s: %s", h.name, e.what());
    }
    if (st == EMBER_OK && s.sync_mode) st = finish_and_check(*d, true);  // names the op, not a sync
    return st;
}

}  // namespace

int find_kernel(void* state, const char* op, ember_kernel_t* out) {
    for (const Handler& h : kHandlers)
        if (std::strcmp(h.name, op) == 0) {
            *out = ember_kernel_t{trampoline, &h};
            return 1;
        }
    // Every other op with a reference kernel (a primitive: composites have none) runs
    // through the explicit host fallback.
    State& s = *static_cast<State*>(state);
    ember_kernel_t ref{nullptr, nullptr};
    if (!s.host || !s.host->reference_kernel(op, &ref) || !ref.fn) return 0;
    std::lock_guard<std::mutex> lk(g_fallback_mu);
    g_fallback_names.emplace_back(op);
    g_fallbacks.push_back(Handler{g_fallback_names.back().c_str(), host_fallback, ALLOW64});
    *out = ember_kernel_t{trampoline, &g_fallbacks.back()};
    return EMBER_KERNEL_HOST_COPY;
}


ember_status_t warmup(State& s, Device& d, int level) {
    {
        std::lock_guard<std::mutex> lk(d.mu);
        for (int p = 0; p < PROG_COUNT; ++p) {
            int dt = p / G_COUNT;
            if (p < PROG_MISC && !d.fp64_hw && (dt == EMBER_FLOAT64 || dt == EMBER_COMPLEX128)) continue;
            if (p == PROG_SOFT64 && d.fp64_hw) continue;
            if (!program_has_kernels(p, d.fp64_hw)) continue;
            if (ember_status_t st = ensure_program(s, d, p)) return st;
        }
    }
    if (level >= 2) {
        // Run CLBlast's GEMM once per precision and size class so its kernels are compiled.
        for (int dt : {EMBER_FLOAT32, EMBER_FLOAT64}) {
            if (dt == EMBER_FLOAT64 && !d.fp64_hw) continue;
            for (int64_t n : {int64_t(16), int64_t(128)}) {
                cl_mem a, b, o;
                size_t bytes = (size_t)(n * n) * itemsize(dt);
                if (pool_alloc(d, bytes, &a) || pool_alloc(d, bytes, &b) || pool_alloc(d, bytes, &o)) return EMBER_ERR_OUT_OF_MEMORY;
                int64_t shape[2] = {n, n}, st[2] = {n, 1};
                ember_view_t va{a, 0, dt, 2, shape, st}, vb{b, 0, dt, 2, shape, st}, vo{o, 0, dt, 2, shape, st};
                ember_view_t ins[2] = {va, vb};
                ember_attrs_t attrs{};
                ember_kernel_call_t call{&s, nullptr, 0, 2, 1, ins, &vo, &attrs};
                int saved = s.gemm_mode;
                s.gemm_mode = 1;
                ember_status_t st2;
                {
                    std::lock_guard<std::mutex> lk(d.mu);
                    st2 = matmul(s, d, &call);
                    if (st2 == EMBER_OK) st2 = finish_and_check(d);
                }
                s.gemm_mode = saved;
                pool_free(d, a);
                pool_free(d, b);
                pool_free(d, o);
                if (st2 != EMBER_OK) return st2;
            }
        }
    }
    return EMBER_OK;
}

}  // namespace ember_ocl
