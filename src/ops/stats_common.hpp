// Helpers shared by the stats, losses and random families (src/ops/stats*.cpp,
// losses.cpp, random*.cpp). Internal; everything here is inline.
#pragma once

#include <cmath>

#include "composites.hpp"

namespace ember {
namespace fam {

// The float dtype an op computes in: float inputs keep theirs, integer/bool inputs use the
// context's default float, complex is rejected (unless allow_complex).
inline ember_dtype_t float_dtype(const ember_ctx* ctx, ember_dtype_t d, const char* op, bool allow_complex = false) {
    if (is_complex(d)) {
        if (allow_complex) return d;
        raise(EMBER_ERR_UNSUPPORTED_DTYPE, "%s is not defined for dtype %s", op, dtype_name(d));
    }
    if (is_float(d)) return d;
    return ctx->default_float;
}

inline TRef f(ember_ctx* ctx, double v) { return weak_f64(ctx, v); }
inline TRef sub(ember_ctx* c, const TRef& a, const TRef& b) { return bin(c, OP_subtract, a, b); }
inline TRef add(ember_ctx* c, const TRef& a, const TRef& b) { return bin(c, OP_add, a, b); }
inline TRef mul(ember_ctx* c, const TRef& a, const TRef& b) { return bin(c, OP_multiply, a, b); }
inline TRef div(ember_ctx* c, const TRef& a, const TRef& b) { return bin(c, OP_divide, a, b); }
inline TRef where(ember_ctx* c, const TRef& cond, const TRef& a, const TRef& b) { return op_where(c, cond.get(), a.get(), b.get()); }

inline TRef sum_axes(ember_ctx* c, const TRef& x, const int64_t* axes, int naxes, bool keep) {
    return run_reduce(c, OP_sum, x.get(), axes, naxes, keep);
}
inline TRef sum_axis(ember_ctx* c, const TRef& x, int64_t axis, bool keep) { return run_reduce(c, OP_sum, x.get(), &axis, 1, keep); }

// Turns the status of a public entry point called from inside Ember back into an Error.
inline TRef check_api(ember_status_t st, ember_tensor_t* out) {
    if (st != EMBER_OK) raise(st, "%s", ember_last_error());
    return TRef(out);
}
#define FAM_API(fn, ...)                                 \
    ([&] {                                               \
        ember_tensor_t* r_ = nullptr;                    \
        ember_status_t st_ = fn(__VA_ARGS__, &r_);       \
        return ::ember::fam::check_api(st_, r_);         \
    }())

inline double read_f64(ember_ctx* ctx, const TRef& t) {
    TRef d = cast_if(ctx, t.get(), EMBER_FLOAT64);
    double v = 0;
    read_contiguous(d.get(), &v, sizeof v);
    return v;
}
inline int64_t read_i64(ember_ctx* ctx, const TRef& t) {
    TRef d = cast_if(ctx, t.get(), EMBER_INT64);
    int64_t v = 0;
    read_contiguous(d.get(), &v, sizeof v);
    return v;
}

// A new contiguous tensor on the context's backend holding n host values of dtype.
inline TRef from_host(ember_ctx* ctx, const void* data, ember_dtype_t dtype, const Shape& shape) {
    TRef t = alloc_tensor(ctx, dtype, shape);
    size_t nbytes = (size_t)t->size * dtype_size(dtype);
    if (nbytes) {
        Backend* b = t->storage->backend;
        ember_status_t st = b->iface->write(b->state, t->storage->device, t->storage->buffer, 0, data, nbytes);
        if (st != EMBER_OK) raise(st, "writing to backend '%s' failed", b->name.c_str());
    }
    return t;
}

inline TRef flat(ember_ctx* ctx, const ember_tensor* x) { return op_reshape(ctx, x, {x->size}, true); }

}  // namespace fam
}  // namespace ember
