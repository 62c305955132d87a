// Composite ops written once over primitives: activations, statistics, comparisons.
#include <cmath>

#include "composites.hpp"

namespace ember {

TRef weak_i64(ember_ctx* ctx, int64_t v) {
    TRef t = alloc_tensor(ctx, EMBER_INT64, {});
    Backend* b = t->storage->backend;
    ember_status_t st = b->iface->write(b->state, t->storage->device, t->storage->buffer, 0, &v, sizeof v);
    if (st != EMBER_OK) raise(st, "writing a scalar to backend '%s' failed", b->name.c_str());
    t->weak = true;
    return t;
}

TRef nonzero_mask(ember_ctx* ctx, const ember_tensor* x) {
    if (x->dtype == EMBER_BOOL) return TRef::borrow(x);
    return run_binary(ctx, OP_not_equal, x, weak_i64(ctx, 0).get());
}

TRef real_or_imag(ember_ctx* ctx, const ember_tensor* x, bool imag) {
    if (!is_complex(x->dtype)) {
        if (!imag) return TRef::borrow(x);
        TRef z = scalar_like(ctx, 0, x->dtype);
        return op_copy(ctx, op_broadcast_to(z.get(), shape_of(x)).get());
    }
    Shape strides(x->strides, x->strides + x->ndim);
    for (auto& s : strides) s *= 2;
    TRef v = make_view(x, shape_of(x), strides, x->offset * 2 + (imag ? 1 : 0));
    v->dtype = real_dtype_of(x->dtype);
    return v;
}

namespace {

int64_t reduced_count(const ember_tensor* x, const int64_t* axes, int naxes) {
    uint64_t mask = axes_mask(axes, naxes, x->ndim);
    int64_t n = 1;
    for (int i = 0; i < x->ndim; ++i)
        if (mask & (1ull << i)) n *= x->shape[i];
    return n;
}

}  // namespace

// float16/bfloat16 means and variances are computed in float32 and rounded once (as NumPy
// and PyTorch do): in the type itself the sum overflows at 65504 (float16) and the count
// of a large reduction is not even representable. The variances, covariances and
// standardized values of 32- and 64-bit integers and the means of 64-bit ones are computed
// in float64 whatever the result type (as NumPy computes integers): cast to a float32
// result type first, they lost their low bits (the mean of 2^50 + 12345 and -2^50 + 7 was
// 0, not 6176; int64 timestamps near 1.7e9 were centred on a grid of 128), and a uint64's
// squared deviations overflowed float32 where the variance itself fits. Narrower integers
// are exact in float32.
ember_dtype_t stats_work_dtype(ember_dtype_t input, ember_dtype_t compute) {
    if (compute == EMBER_FLOAT16 || compute == EMBER_BFLOAT16) return EMBER_FLOAT32;
    if (compute == EMBER_FLOAT32 && is_integer(input) && dtype_size(input) > 2) return EMBER_FLOAT64;
    return compute;
}

TRef mean_of(ember_ctx* ctx, const ember_tensor* x, const int64_t* axes, int naxes, bool keepdims) {
    DtypePlan plan = plan_dtypes(OP_mean, x->dtype, ctx->default_float);
    const int64_t count = reduced_count(x, axes, naxes);
    // Booleans and integers of up to 32 bits: their (u)int64 sum, exact below 2^32 terms,
    // divided in float64 and rounded once, with no float copy of x (the int32 mean of 1e7
    // elements on the cpu backend: 3.5 ms through a float32 copy, 9.4 through a float64
    // one, 1.6 this way; NumPy 7.0).
    if ((x->dtype == EMBER_BOOL || (is_integer(x->dtype) && dtype_size(x->dtype) <= 4)) && count < (int64_t(1) << 32)) {
        TRef s = reduce(ctx, OP_sum, x, axes, naxes, keepdims);
        TRef m = bin(ctx, OP_divide, cast_if(ctx, s.get(), EMBER_FLOAT64), weak_f64(ctx, (double)count));
        return cast_if(ctx, m.get(), plan.result);
    }
    const ember_dtype_t work = stats_work_dtype(x->dtype, plan.compute);
    // 64-bit integers: their float64 sum, cast a slice at a time (no 80 MB float64 copy of
    // 1e7 int64, which made the cpu backend's mean no faster than NumPy's), rounded once.
    // A kernel that claims EMBER_KERNEL_WIDENS_INPUT converts them itself as it sums: one
    // read of x (the cpu backend's mean of 1e6 int64 took 420 us through the cast slices,
    // twice its sum).
    if (is_integer(x->dtype) && dtype_size(x->dtype) == 8 && work == EMBER_FLOAT64 && ctx->slots[OP_mean].widens_input) {
        TRef m = reduce_into_new(ctx, OP_mean, x, axes_mask(axes, naxes, x->ndim), keepdims, EMBER_FLOAT64);
        return cast_if(ctx, m.get(), plan.result);
    }
    if (is_integer(x->dtype) && work == EMBER_FLOAT64) {
        TRef s = sum_in_slices(ctx, x, axes, naxes, keepdims, EMBER_FLOAT64);
        TRef m = bin(ctx, OP_divide, s, weak_f64(ctx, (double)count));
        return cast_if(ctx, m.get(), plan.result);
    }
    if (has_backend_kernel(ctx, OP_mean)) {  // an override reads float16 and bfloat16 itself
        if (work != EMBER_FLOAT64 || plan.compute == EMBER_FLOAT64) return reduce(ctx, OP_mean, x, axes, naxes, keepdims);
        TRef xw = cast_if(ctx, x, work);
        TRef m = reduce(ctx, OP_mean, xw.get(), axes, naxes, keepdims);
        return cast_if(ctx, m.get(), plan.result);
    }
    TRef xc = cast_if(ctx, x, work);
    TRef s = reduce(ctx, OP_sum, xc.get(), axes, naxes, keepdims);
    TRef m = bin(ctx, OP_divide, s, weak_f64(ctx, (double)count));
    return cast_if(ctx, m.get(), plan.result);
}

namespace {

// float16/bfloat16 activations (gelu, silu), softmaxes and logsumexps are computed in float32 and rounded
// once, as the cpu backend's kernels for them do: step by step in the type
// itself, every intermediate rounded to 11 (8) bits, on the reference backend softmax over
// 1000 values was up to 4.3 ulp off in float16 (8.7 in bfloat16) and gelu 13-15 (19-32)
// (tests/test_reduce.cpp, Activations.HalfPrecisionCompositesRoundOnce).
ember_dtype_t float32_for_halves(ember_dtype_t compute) {
    return compute == EMBER_FLOAT16 || compute == EMBER_BFLOAT16 ? EMBER_FLOAT32 : compute;
}

TRef logsumexp_of(ember_ctx* ctx, const ember_tensor* x, const int64_t* axes, int naxes, bool keepdims) {
    DtypePlan plan = plan_dtypes(OP_logsumexp, x->dtype, ctx->default_float);
    if (float32_for_halves(plan.compute) != plan.compute) {
        TRef r = logsumexp_of(ctx, cast_if(ctx, x, EMBER_FLOAT32).get(), axes, naxes, keepdims);
        return cast_if(ctx, r.get(), plan.compute);
    }
    TRef xc = cast_if(ctx, x, plan.compute);
    if (reduced_count(x, axes, naxes) == 0) {
        TRef s = reduce(ctx, OP_sum, xc.get(), axes, naxes, keepdims);
        return un(ctx, OP_log, s);  // log(0) = -inf, the empty sum's logsumexp
    }
    TRef m = reduce(ctx, OP_max, xc.get(), axes, naxes, true);
    // A max of +-inf would turn x - m into NaN; shift by 0 there instead.
    TRef shift = op_where(ctx, un(ctx, OP_isfinite, m).get(), m.get(), weak_f64(ctx, 0).get());
    TRef e = un(ctx, OP_exp, bin(ctx, OP_subtract, xc, shift));
    TRef s = reduce(ctx, OP_sum, e.get(), axes, naxes, true);
    TRef r = bin(ctx, OP_add, un(ctx, OP_log, s), shift);
    if (keepdims) return r;
    return op_squeeze_axes(r.get(), axes_mask(axes, naxes, x->ndim));
}

}  // namespace

TRef composite_unary(ember_ctx* ctx, OpId op, const ember_tensor* x) {
    TRef X = TRef::borrow(x);
    switch (op) {
        case OP_positive:
            plan_dtypes(op, x->dtype, ctx->default_float);
            return op_copy(ctx, x);
        case OP_relu:
            plan_dtypes(op, x->dtype, ctx->default_float);
            return bin(ctx, OP_maximum, X, weak_i64(ctx, 0));
        case OP_softplus: return bin(ctx, OP_logaddexp, X, weak_f64(ctx, 0));
        case OP_silu: {
            const DtypePlan plan = plan_dtypes(op, x->dtype, ctx->default_float);
            if (float32_for_halves(plan.compute) != plan.compute) {
                TRef r = composite_unary(ctx, op, cast_if(ctx, x, EMBER_FLOAT32).get());
                return cast_if(ctx, r.get(), plan.compute);
            }
            TRef s = un(ctx, OP_sigmoid, X);
            return bin(ctx, OP_multiply, cast_if(ctx, x, s->dtype), s);
        }
        default: raise(EMBER_ERR_INTERNAL, "no composite definition for unary op %s", op_info(op).name);
    }
}

TRef composite_reduce(ember_ctx* ctx, OpId op, const ember_tensor* x, const int64_t* axes, int naxes, bool keepdims) {
    switch (op) {
        case OP_mean: return mean_of(ctx, x, axes, naxes, keepdims);
        case OP_logsumexp: return logsumexp_of(ctx, x, axes, naxes, keepdims);
        case OP_count_nonzero: return reduce(ctx, OP_sum, nonzero_mask(ctx, x).get(), axes, naxes, keepdims);
        default: raise(EMBER_ERR_INTERNAL, "no composite definition for reduction %s", op_info(op).name);
    }
}

// A COMPOSITE_KERNEL row whose backend binds a kernel: the core prepares the input and a
// fresh contiguous output of the composite's dtype and shape; the kernel fills it.
TRef custom_kernel(ember_ctx* ctx, OpId op, const ember_tensor* x, ember_dtype_t dtype, const Shape& shape, const ember_attrs_t& attrs) {
    TRef out = alloc_tensor(ctx, dtype, shape);
    if (out->size) run_kernel(ctx, op, {view_of(x)}, {view_of(out.get())}, attrs);
    return out;
}

TRef elementwise_custom_kernel(ember_ctx* ctx, OpId op, const ember_tensor* x, ember_dtype_t dtype, const ember_attrs_t& attrs) {
    TRef out = alloc_elementwise_result(ctx, dtype, x->shape, x->ndim, {x});
    OutputOrder order(out.get());
    if (out->size) run_kernel(ctx, op, {order(view_of(x))}, {order(view_of(out.get()))}, attrs);
    return out;
}

TRef reduction_kernel(ember_ctx* ctx, OpId op, const ember_tensor* x, const int64_t* axes, int naxes, bool keepdims, ember_attrs_t at, ember_dtype_t dtype) {
    if (!has_backend_kernel(ctx, op)) return TRef();
    at.axes_mask = axes_mask(axes, naxes, x->ndim);
    Shape keep = shape_of(x), dropped;
    for (int i = 0; i < x->ndim; ++i) {
        if (at.axes_mask & (1ull << i)) keep[i] = 1;
        else dropped.push_back(x->shape[i]);
    }
    TRef out = alloc_tensor(ctx, dtype, keep);
    if (out->size && !declinable_kernel(ctx, op, {view_of(x)}, out.get(), at)) return TRef();
    return keepdims ? out : op_reshape(ctx, out.get(), dropped, false);
}

bool declinable_kernel(ember_ctx* ctx, OpId op, std::initializer_list<ember_view_t> in, ember_tensor* out, const ember_attrs_t& at) {
    // Set to 0 first: a kernel that never writes it (the var/std convention had no info
    // output before 2026-11-28) still counts as having computed the result.
    TRef info = op_full(ctx, {}, 0.0, EMBER_INT64);
    run_kernel(ctx, op, in, {view_of(out), view_of(info.get())}, at);
    int64_t declined = 1;
    read_contiguous(info.get(), &declined, sizeof declined);
    return declined == 0;
}

TRef var_of(ember_ctx* ctx, const ember_tensor* x, const int64_t* axes, int naxes, bool keepdims, double ddof, bool sqrt_of_var) {
    DtypePlan plan = plan_dtypes(OP_mean, x->dtype, ctx->default_float);
    const ember_dtype_t work = stats_work_dtype(x->dtype, plan.compute);
    if (work != plan.compute) {
        TRef xw = cast_if(ctx, x, work);
        TRef r = var_of(ctx, xw.get(), axes, naxes, keepdims, ddof, sqrt_of_var);
        return cast_if(ctx, r.get(), plan.compute);
    }
    TRef xc = cast_if(ctx, x, plan.compute);
    ember_attrs_t at{};
    at.f[0] = ddof;
    if (TRef r = reduction_kernel(ctx, sqrt_of_var ? OP_std : OP_var, xc.get(), axes, naxes, keepdims, at, real_dtype_of(plan.compute))) return r;
    TRef mu = mean_of(ctx, xc.get(), axes, naxes, true);
    TRef d = bin(ctx, OP_subtract, xc, mu);
    TRef sq = is_complex(d->dtype) ? un(ctx, OP_square, un(ctx, OP_abs, d)) : un(ctx, OP_square, d);
    TRef s = reduce(ctx, OP_sum, sq.get(), axes, naxes, keepdims);
    TRef v = bin(ctx, OP_divide, s, weak_f64(ctx, std::max((double)reduced_count(x, axes, naxes) - ddof, 0.0)));  // NumPy: inf (nan for 0/0) from ddof >= n
    return sqrt_of_var ? un(ctx, OP_sqrt, v) : v;
}

TRef softmax_of(ember_ctx* ctx, const ember_tensor* x, int64_t axis, bool log) {
    DtypePlan plan = plan_dtypes(OP_logsumexp, x->dtype, ctx->default_float);
    TRef xc = cast_if(ctx, x, plan.compute);
    int64_t a = x->ndim == 0 ? 0 : normalize_axis(axis, x->ndim);
    if (x->size == 0) return op_copy(ctx, xc.get());
    OpId op = log ? OP_log_softmax : OP_softmax;
    if (x->ndim && has_backend_kernel(ctx, op)) return custom_kernel(ctx, op, xc.get(), xc->dtype, shape_of(xc.get()), attrs_i(a));
    if (float32_for_halves(xc->dtype) != xc->dtype) {
        TRef r = softmax_of(ctx, cast_if(ctx, xc.get(), EMBER_FLOAT32).get(), axis, log);
        return cast_if(ctx, r.get(), xc->dtype);
    }
    const int64_t* axes = x->ndim ? &a : nullptr;
    if (log) return bin(ctx, OP_subtract, xc, logsumexp_of(ctx, xc.get(), axes, x->ndim ? 1 : 0, true));
    TRef m = reduce(ctx, OP_max, xc.get(), axes, x->ndim ? 1 : 0, true);
    TRef shift = op_where(ctx, un(ctx, OP_isfinite, m).get(), m.get(), weak_f64(ctx, 0).get());
    TRef e = un(ctx, OP_exp, bin(ctx, OP_subtract, xc, shift));
    TRef s = reduce(ctx, OP_sum, e.get(), axes, x->ndim ? 1 : 0, true);
    return bin(ctx, OP_divide, e, s);
}

namespace {

TRef gelu_of(ember_ctx* ctx, const ember_tensor* x, bool approximate) {
    DtypePlan plan = plan_dtypes(OP_erf, x->dtype, ctx->default_float);
    TRef X = cast_if(ctx, x, plan.compute);
    if (has_backend_kernel(ctx, OP_gelu)) return elementwise_custom_kernel(ctx, OP_gelu, X.get(), X->dtype, attrs_i(approximate));
    if (float32_for_halves(X->dtype) != X->dtype) {
        TRef r = gelu_of(ctx, cast_if(ctx, X.get(), EMBER_FLOAT32).get(), approximate);
        return cast_if(ctx, r.get(), X->dtype);
    }
    // Written so that nothing cancels for negative x (1 + erf(z) and 1 + tanh(u) lose every
    // digit there): x * Phi(x) = x * erfc(-x / sqrt 2) / 2, and the tanh approximation
    // x * (1 + tanh(u)) / 2 = x * sigmoid(2u), u = sqrt(2/pi) (x + 0.044715 x^3).
    TRef cdf;
    if (approximate) {
        TRef cube = bin(ctx, OP_multiply, un(ctx, OP_square, X), X);
        TRef two_u = bin(ctx, OP_multiply, weak_f64(ctx, 2 * std::sqrt(2.0 / M_PI)), bin(ctx, OP_add, X, bin(ctx, OP_multiply, weak_f64(ctx, 0.044715), cube)));
        cdf = un(ctx, OP_sigmoid, two_u);
    } else {
        cdf = bin(ctx, OP_multiply, un(ctx, OP_erfc, bin(ctx, OP_multiply, X, weak_f64(ctx, -M_SQRT1_2))), weak_f64(ctx, 0.5));
    }
    return bin(ctx, OP_multiply, X, cdf);
}

}  // namespace

TRef isclose_of(ember_ctx* ctx, const ember_tensor* a, const ember_tensor* b, double rtol, double atol, bool equal_nan) {
    ember_dtype_t dt = promote(a->dtype, a->weak, b->dtype, b->weak, ctx->default_float);
    if (!is_float(dt) && !is_complex(dt)) dt = EMBER_FLOAT64;
    if ((dt == EMBER_FLOAT32 || dt == EMBER_FLOAT64) && has_backend_kernel(ctx, OP_isclose)) {  // the same booleans in one pass
        const Shape shape = broadcast_shapes(shape_of(a), shape_of(b));
        auto packed = [&](const ember_tensor* t) {
            TRef v = op_broadcast_to(t, shape);
            return v->dtype == dt ? contiguous(ctx, v.get()) : op_astype(ctx, v.get(), dt);
        };
        TRef pa = packed(a), pb = packed(b), r = alloc_tensor(ctx, EMBER_BOOL, shape);
        ember_attrs_t at{};
        at.f[0] = rtol;
        at.f[1] = atol;
        at.i[0] = equal_nan;
        if (r->size == 0 || declinable_kernel(ctx, OP_isclose, {view_of(pa.get()), view_of(pb.get())}, r.get(), at)) return r;
    }
    TRef A = cast_if(ctx, a, dt), B = cast_if(ctx, b, dt);
    TRef diff = un(ctx, OP_abs, bin(ctx, OP_subtract, A, B));
    TRef tol = bin(ctx, OP_add, weak_f64(ctx, atol), bin(ctx, OP_multiply, weak_f64(ctx, rtol), un(ctx, OP_abs, B)));
    // As NumPy: the tolerance test applies where both are finite; infinities must be equal.
    TRef finite = bin(ctx, OP_logical_and, un(ctx, OP_isfinite, A), un(ctx, OP_isfinite, B));
    TRef close = bin(ctx, OP_logical_or, bin(ctx, OP_logical_and, finite, bin(ctx, OP_less_equal, diff, tol)), bin(ctx, OP_equal, A, B));
    if (equal_nan) close = bin(ctx, OP_logical_or, close, bin(ctx, OP_logical_and, un(ctx, OP_isnan, A), un(ctx, OP_isnan, B)));
    return close;
}

}  // namespace ember

using namespace ember;

extern "C" {

ENTRY(ember_var, (ember_ctx_t * ctx, const ember_tensor_t* x, const int64_t* axes, int naxes, int keepdims, double ddof, ember_tensor_t** out), {
    check_x_entry(ctx, x, out);
    *out = var_of(ctx, x, axes, naxes, keepdims != 0, ddof, false).release();
})
ENTRY(ember_std, (ember_ctx_t * ctx, const ember_tensor_t* x, const int64_t* axes, int naxes, int keepdims, double ddof, ember_tensor_t** out), {
    check_x_entry(ctx, x, out);
    *out = var_of(ctx, x, axes, naxes, keepdims != 0, ddof, true).release();
})
ENTRY(ember_softmax, (ember_ctx_t * ctx, const ember_tensor_t* x, int64_t axis, ember_tensor_t** out), {
    check_x_entry(ctx, x, out);
    *out = softmax_of(ctx, x, axis, false).release();
})
ENTRY(ember_log_softmax, (ember_ctx_t * ctx, const ember_tensor_t* x, int64_t axis, ember_tensor_t** out), {
    check_x_entry(ctx, x, out);
    *out = softmax_of(ctx, x, axis, true).release();
})
ENTRY(ember_leaky_relu, (ember_ctx_t * ctx, const ember_tensor_t* x, double negative_slope, ember_tensor_t** out), {
    check_x_entry(ctx, x, out);
    if (is_complex(x->dtype) || x->dtype == EMBER_BOOL) raise(EMBER_ERR_UNSUPPORTED_DTYPE, "leaky_relu is not defined for dtype %s", dtype_name(x->dtype));
    if (has_backend_kernel(ctx, OP_leaky_relu)) {
        ember_dtype_t dt = promote(x->dtype, false, EMBER_FLOAT64, true, ctx->default_float);
        ember_attrs_t at{};
        at.f[0] = negative_slope;
        *out = elementwise_custom_kernel(ctx, OP_leaky_relu, cast_if(ctx, x, dt).get(), dt, at).release();
        return;
    }
    TRef X = TRef::borrow(x);
    TRef pos = bin(ctx, OP_greater, X, weak_i64(ctx, 0));
    TRef scaled = bin(ctx, OP_multiply, X, weak_f64(ctx, negative_slope));
    *out = op_where(ctx, pos.get(), cast_if(ctx, x, scaled->dtype).get(), scaled.get()).release();
})
ENTRY(ember_gelu, (ember_ctx_t * ctx, const ember_tensor_t* x, int approximate, ember_tensor_t** out), {
    check_x_entry(ctx, x, out);
    *out = gelu_of(ctx, x, approximate != 0).release();
})
ENTRY(ember_clip, (ember_ctx_t * ctx, const ember_tensor_t* x, const ember_tensor_t* lo, const ember_tensor_t* hi, ember_tensor_t** out), {
    check_x_entry(ctx, x, out);
    if (lo) check_same_backend(ctx, lo, "lo");
    if (hi) check_same_backend(ctx, hi, "hi");
    plan_dtypes(OP_maximum, x->dtype, ctx->default_float);
    // An integer bound beyond x's dtype on the side no element reaches is no bound (NumPy:
    // clip(uint8, -1, 10)); on the other side every element would become a number the
    // dtype cannot hold.
    auto in_range_bound = [&](const ember_tensor* b, bool upper) -> const ember_tensor* {
        if (!b || !b->int_value_known || !is_integer(x->dtype) || int_fits(b->int_value, x->dtype)) return b;
        if ((b->int_value > 0) == upper) return nullptr;
        raise(EMBER_ERR_OVERFLOW, "the %s bound %lld is out of range for %s", upper ? "upper" : "lower", (long long)b->int_value,
              dtype_name(x->dtype));
    };
    lo = in_range_bound(lo, false);
    hi = in_range_bound(hi, true);
    // A kernel takes 0-d bounds that promote with x to x's own dtype (then casting them
    // first is what the composite's maximum and minimum do too).
    auto kernel_bound = [&](const ember_tensor* b) {
        return !b || (b->ndim == 0 && promote(x->dtype, false, b->dtype, b->weak, ctx->default_float) == x->dtype);
    };
    if ((lo || hi) && has_backend_kernel(ctx, OP_clip) && kernel_bound(lo) && kernel_bound(hi)) {
        auto bound = [&](const ember_tensor* b, bool upper) {  // a missing one: the dtype's extreme (inf saturates)
            return b ? cast_if(ctx, b, x->dtype) : scalar_like(ctx, upper ? INFINITY : -INFINITY, x->dtype);
        };
        TRef l = bound(lo, false), h = bound(hi, true);
        TRef r = alloc_elementwise_result(ctx, x->dtype, x->shape, x->ndim, {x});
        OutputOrder order(r.get());
        if (r->size) run_kernel(ctx, OP_clip, {order(view_of(x)), view_of(l.get()), view_of(h.get())}, {order(view_of(r.get()))}, ember_attrs_t{});
        *out = r.release();
        return;
    }
    TRef r = TRef::borrow(x);
    if (lo) r = cast_if(ctx, run_binary(ctx, OP_maximum, r.get(), lo).get(), x->dtype);
    if (hi) r = cast_if(ctx, run_binary(ctx, OP_minimum, r.get(), hi).get(), x->dtype);
    if (!lo && !hi) r = op_copy(ctx, x);
    *out = r.release();
})
ENTRY(ember_isclose, (ember_ctx_t * ctx, const ember_tensor_t* a, const ember_tensor_t* b, double rtol, double atol, int equal_nan, ember_tensor_t** out), {
    check_ctx(ctx);
    require_arg(out, "out");
    check_same_backend(ctx, a, "a");
    check_same_backend(ctx, b, "b");
    *out = isclose_of(ctx, a, b, rtol, atol, equal_nan != 0).release();
})
EMBER_API ember_status_t ember_allclose(ember_ctx_t* ctx, const ember_tensor_t* a, const ember_tensor_t* b, double rtol, double atol, int equal_nan, int* result) {
    return guard("ember_allclose", [&] {
        check_ctx(ctx);
        require_arg(result, "result");
        check_same_backend(ctx, a, "a");
        check_same_backend(ctx, b, "b");
        TRef all = reduce(ctx, OP_all, isclose_of(ctx, a, b, rtol, atol, equal_nan != 0).get(), nullptr, 0, false);
        uint8_t v;
        read_contiguous(all.get(), &v, 1);
        *result = v != 0;
    });
}
ENTRY(ember_round_decimals, (ember_ctx_t * ctx, const ember_tensor_t* x, int decimals, ember_tensor_t** out), {
    check_x_entry(ctx, x, out);
    TRef X = TRef::borrow(x);
    if (decimals == 0) {
        *out = un(ctx, OP_round, X).release();
        return;
    }
    if (x->dtype == EMBER_BOOL) raise(EMBER_ERR_UNSUPPORTED_DTYPE, "round is not defined for dtype bool");
    if (is_integer(x->dtype) && decimals > 0) {
        *out = op_copy(ctx, x).release();
        return;
    }
    TRef work = is_integer(x->dtype) ? op_astype(ctx, x, EMBER_FLOAT64) : X;
    TRef scale = weak_f64(ctx, std::pow(10.0, decimals));
    TRef r = bin(ctx, OP_divide, un(ctx, OP_round, bin(ctx, OP_multiply, work, scale)), scale);
    *out = cast_if(ctx, r.get(), x->dtype).release();
})

}  // extern "C"
