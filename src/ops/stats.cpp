// Statistics and features (issue 3): order statistics, NaN-ignoring reductions, counting,
// scans, differences, covariance and normalisation. All composites over existing ops except
// searchsorted (a primitive with a reference kernel, backends/reference/ref_stats.cpp).
// docs/numerics-stats.md describes algorithms and guarantees.
#include <algorithm>
#include <cmath>

#include "stats_common.hpp"

namespace ember {
namespace {

using namespace fam;

void reject_complex(const ember_tensor* x, const char* op) {
    if (is_complex(x->dtype)) raise(EMBER_ERR_UNSUPPORTED_DTYPE, "%s is not defined for dtype %s", op, dtype_name(x->dtype));
}

// x itself, or its flattening when axis is EMBER_AXIS_NONE; a receives the axis to use.
TRef axis_source(ember_ctx* ctx, const ember_tensor* x, int64_t axis, int64_t& a) {
    if (axis == EMBER_AXIS_NONE) {
        a = 0;
        return flat(ctx, x);
    }
    a = normalize_axis(axis, x->ndim);
    return TRef::borrow(x);
}

// Restores keepdims for a result reduced over axis a of src (x: the caller's input).
TRef keep_axis(ember_ctx* ctx, TRef r, const ember_tensor* x, int64_t axis, int64_t a, bool keepdims) {
    if (!keepdims) return r;
    if (axis == EMBER_AXIS_NONE) return op_reshape(ctx, r.get(), Shape(x->ndim, 1), true);
    return op_expand_dims(r.get(), a);
}

// ---------------------------------------------------------------- quantiles
TRef quantile_of(ember_ctx* ctx, const ember_tensor* x, double q, int64_t axis, ember_quantile_method_t method, bool keepdims) {
    if (!(q >= 0.0 && q <= 1.0)) raise(EMBER_ERR_INVALID_ARGUMENT, "q must be in [0, 1], got %g", q);
    if ((int)method < EMBER_QUANTILE_LINEAR || (int)method > EMBER_QUANTILE_MIDPOINT) raise(EMBER_ERR_INVALID_ARGUMENT, "unknown quantile method %d", (int)method);
    reject_complex(x, "quantile");
    ember_dtype_t dt = float_dtype(ctx, x->dtype, "quantile");
    int64_t a;
    TRef src = axis_source(ctx, x, axis, a);
    int64_t n = src->shape[a];
    if (n == 0) raise(EMBER_ERR_SHAPE, "quantile of an empty axis (shape %s)", shape_str(x).c_str());
    double pos = q * (double)(n - 1);
    int64_t lo = (int64_t)std::floor(pos), hi = std::min<int64_t>((int64_t)std::ceil(pos), n - 1);
    const int64_t nearest = (int64_t)std::nearbyint(pos);
    double frac = pos - (double)lo;
    // ranked: order statistics along axis a, at positions at_lo, at_hi, at_nearest. A backend
    // kernel selects the two needed (both NaN in a line holding a NaN); else a sort of whole
    // lines, whose last element is NaN in such a line.
    TRef ranked;
    int64_t at_lo = lo, at_hi = hi, at_nearest = nearest;
    bool nan_last = is_float(dt);
    if (x->size > 0 && has_backend_kernel(ctx, OP_quantile)) {
        const int last = src->ndim - 1;
        TRef lines = contiguous(ctx, op_swapaxes(src.get(), (int)a, last).get());
        Shape pair = shape_of(lines.get());
        pair[(size_t)last] = 2;
        TRef found = alloc_tensor(ctx, lines->dtype, pair);
        if (declinable_kernel(ctx, OP_quantile, {view_of(lines.get())}, found.get(), attrs_i(lo, hi))) {
            ranked = a == last ? found : op_swapaxes(found.get(), (int)a, last);
            at_lo = 0, at_hi = hi - lo, at_nearest = nearest - lo;
            nan_last = false;
        }
    }
    if (!ranked) ranked = FAM_API(ember_sort, ctx, src.get(), a, 0);
    ranked = cast_if(ctx, ranked.get(), dt);
    TRef vlo = op_select(ranked.get(), a, at_lo), vhi = op_select(ranked.get(), a, at_hi);
    TRef r;
    switch (method) {
        case EMBER_QUANTILE_LOWER: r = op_copy(ctx, vlo.get()); break;
        case EMBER_QUANTILE_HIGHER: r = op_copy(ctx, vhi.get()); break;
        case EMBER_QUANTILE_NEAREST: r = op_copy(ctx, op_select(ranked.get(), a, at_nearest).get()); break;
        case EMBER_QUANTILE_MIDPOINT:
            r = lo == hi ? op_copy(ctx, vlo.get()) : mul(ctx, add(ctx, vlo, vhi), f(ctx, 0.5));
            break;
        default: {
            if (frac == 0.0) {
                r = op_copy(ctx, vlo.get());
                break;
            }
            // numpy's lerp: from the nearer end, so q = 1 - eps stays monotone; equal ends exact.
            TRef d = sub(ctx, vhi, vlo);
            TRef l = frac < 0.5 ? add(ctx, vlo, mul(ctx, d, f(ctx, frac))) : sub(ctx, vhi, mul(ctx, d, f(ctx, 1.0 - frac)));
            r = where(ctx, bin(ctx, OP_equal, vlo, vhi), vlo, l);
        }
    }
    if (nan_last) {
        TRef last = op_select(ranked.get(), a, n - 1);
        r = where(ctx, un(ctx, OP_isnan, last), f(ctx, NAN), r);
    }
    return keep_axis(ctx, r, x, axis, a, keepdims);
}

// ---------------------------------------------------------------- NaN reductions
bool has_nan_kind(const ember_tensor* x) { return is_float(x->dtype) || is_complex(x->dtype); }

TRef zero_nans(ember_ctx* ctx, const ember_tensor* x) {
    TRef X = TRef::borrow(x);
    if (!has_nan_kind(x)) return X;
    return where(ctx, un(ctx, OP_isnan, X), f(ctx, 0), X);
}

TRef nan_minmax(ember_ctx* ctx, const ember_tensor* x, const int64_t* axes, int naxes, bool keepdims, bool is_max) {
    reject_complex(x, is_max ? "nanmax" : "nanmin");
    OpId op = is_max ? OP_max : OP_min;
    if (!is_float(x->dtype)) return reduce(ctx, op, x, axes, naxes, keepdims);
    // (Empty x: the composite, whose max raises for an empty axis.)
    if (x->size)
        if (TRef r = reduction_kernel(ctx, is_max ? OP_nanmax : OP_nanmin, x, axes, naxes, keepdims, {}, x->dtype)) return r;
    TRef X = TRef::borrow(x);
    TRef nan = un(ctx, OP_isnan, X);
    TRef filled = where(ctx, nan, f(ctx, is_max ? -INFINITY : INFINITY), X);
    TRef m = reduce(ctx, op, filled.get(), axes, naxes, keepdims);
    TRef all_nan = reduce(ctx, OP_all, nan.get(), axes, naxes, keepdims);
    return where(ctx, all_nan, f(ctx, NAN), m);
}

// ---------------------------------------------------------------- scans
TRef cum_extreme(ember_ctx* ctx, const ember_tensor* x, int64_t axis, bool is_max, const char* name) {
    reject_complex(x, name);
    int64_t a;
    TRef src = (axis == EMBER_AXIS_NONE || x->ndim == 0) ? (a = 0, flat(ctx, x)) : axis_source(ctx, x, axis, a);
    const OpId kernel_op = is_max ? OP_cummax : OP_cummin;
    if (has_backend_kernel(ctx, kernel_op) && !is_complex(x->dtype) && x->dtype != EMBER_FLOAT16 && x->dtype != EMBER_BFLOAT16) {
        TRef c = contiguous(ctx, src.get());
        return custom_kernel(ctx, kernel_op, c.get(), c->dtype, shape_of(c.get()), attrs_i(a));
    }
    bool boolean = x->dtype == EMBER_BOOL;
    TRef r = boolean ? op_astype(ctx, src.get(), EMBER_UINT8) : op_copy(ctx, src.get());
    int64_t n = r->shape[a];
    OpId op = is_max ? OP_maximum : OP_minimum;
    // Hillis-Steele scan: log2(n) passes of maximum(r[s:], r[:-s]).
    for (int64_t s = 1; s < n; s *= 2) {
        TRef head = op_slice_axis(r.get(), a, 0, s, 1);
        TRef tail = run_binary(ctx, op, op_slice_axis(r.get(), a, s, n, 1).get(), op_slice_axis(r.get(), a, 0, n - s, 1).get());
        r = op_concat(ctx, {head.get(), tail.get()}, a);
    }
    if (boolean) r = op_astype(ctx, r.get(), EMBER_BOOL);
    return r;
}

// ---------------------------------------------------------------- covariance
TRef cov_of(ember_ctx* ctx, const ember_tensor* x, bool rowvar, double ddof) {
    if (x->ndim < 1 || x->ndim > 2) raise(EMBER_ERR_SHAPE, "x must be 1-d or 2-d, got shape %s", shape_str(x).c_str());
    ember_dtype_t dt = float_dtype(ctx, x->dtype, "cov", true);
    TRef X = cast_if(ctx, x, stats_work_dtype(x->dtype, dt));  // int64 timestamps: centred in float64
    if (x->ndim == 1) X = op_expand_dims(X.get(), 0);
    else if (!rowvar) X = op_swapaxes(X.get(), 0, 1);
    int64_t n_obs = X->shape[1];
    int64_t ax = 1;
    TRef mu = div(ctx, sum_axis(ctx, X, ax, true), f(ctx, (double)n_obs));
    TRef Xc = sub(ctx, X, mu);
    // Real Xc against its own transpose view: a backend may take that as a Gram product (the
    // cpu backend's SYRK, half the work); the conjugate of a real Xc would be a copy.
    TRef XcH = is_complex(Xc->dtype) ? op_swapaxes(un(ctx, OP_conj, Xc).get(), 0, 1) : op_swapaxes(Xc.get(), 0, 1);
    TRef c = op_matmul(ctx, Xc.get(), XcH.get());
    double fact = std::max((double)n_obs - ddof, 0.0);
    c = div(ctx, c, f(ctx, fact));
    if (x->ndim == 1) c = op_reshape(ctx, c.get(), {}, true);
    return cast_if(ctx, c.get(), dt);
}

}  // namespace
}  // namespace ember

using namespace ember;
using namespace ember::fam;

#define PRELUDE_X            \
    check_ctx(ctx);          \
    require_arg(out, "out"); \
    check_same_backend(ctx, x, "x");

extern "C" {

ENTRY(ember_quantile, (ember_ctx_t * ctx, const ember_tensor_t* x, double q, int64_t axis, ember_quantile_method_t method, int keepdims, ember_tensor_t** out), {
    PRELUDE_X
    *out = quantile_of(ctx, x, q, axis, method, keepdims != 0).release();
})
ENTRY(ember_percentile, (ember_ctx_t * ctx, const ember_tensor_t* x, double p, int64_t axis, ember_quantile_method_t method, int keepdims, ember_tensor_t** out), {
    PRELUDE_X
    if (!(p >= 0.0 && p <= 100.0)) raise(EMBER_ERR_INVALID_ARGUMENT, "p must be in [0, 100], got %g", p);
    *out = quantile_of(ctx, x, p / 100.0, axis, method, keepdims != 0).release();
})
ENTRY(ember_median, (ember_ctx_t * ctx, const ember_tensor_t* x, int64_t axis, int keepdims, ember_tensor_t** out), {
    PRELUDE_X
    *out = quantile_of(ctx, x, 0.5, axis, EMBER_QUANTILE_LINEAR, keepdims != 0).release();
})

ENTRY(ember_nansum, (ember_ctx_t * ctx, const ember_tensor_t* x, const int64_t* axes, int naxes, int keepdims, ember_tensor_t** out), {
    PRELUDE_X
    TRef r = is_float(x->dtype) ? reduction_kernel(ctx, OP_nansum, x, axes, naxes, keepdims != 0, {}, x->dtype) : TRef();
    if (r) {
        *out = r.release();
        return;
    }
    *out = reduce(ctx, OP_sum, zero_nans(ctx, x).get(), axes, naxes, keepdims != 0).release();
})
ENTRY(ember_nanmean, (ember_ctx_t * ctx, const ember_tensor_t* x, const int64_t* axes, int naxes, int keepdims, ember_tensor_t** out), {
    PRELUDE_X
    ember_dtype_t dt = float_dtype(ctx, x->dtype, "nanmean", true);
    if (!is_float(x->dtype) && !is_complex(x->dtype)) {  // no NaN to skip: the mean (wide integers in float64)
        *out = cast_if(ctx, mean_of(ctx, x, axes, naxes, keepdims != 0).get(), dt).release();
        return;
    }
    TRef X = cast_if(ctx, x, dt);
    TRef r = is_float(dt) ? reduction_kernel(ctx, OP_nanmean, X.get(), axes, naxes, keepdims != 0, {}, dt) : TRef();
    if (r) {
        *out = r.release();
        return;
    }
    TRef s = reduce(ctx, OP_sum, zero_nans(ctx, X.get()).get(), axes, naxes, keepdims != 0);
    TRef valid = un(ctx, OP_logical_not, un(ctx, OP_isnan, X));
    TRef cnt = cast_if(ctx, reduce(ctx, OP_sum, valid.get(), axes, naxes, keepdims != 0).get(), real_dtype_of(dt));
    *out = div(ctx, s, cnt).release();
})
ENTRY(ember_nanmax, (ember_ctx_t * ctx, const ember_tensor_t* x, const int64_t* axes, int naxes, int keepdims, ember_tensor_t** out), {
    PRELUDE_X
    *out = nan_minmax(ctx, x, axes, naxes, keepdims != 0, true).release();
})
ENTRY(ember_nanmin, (ember_ctx_t * ctx, const ember_tensor_t* x, const int64_t* axes, int naxes, int keepdims, ember_tensor_t** out), {
    PRELUDE_X
    *out = nan_minmax(ctx, x, axes, naxes, keepdims != 0, false).release();
})

ENTRY(ember_average, (ember_ctx_t * ctx, const ember_tensor_t* x, const ember_tensor_t* weights, int64_t axis, int keepdims, ember_tensor_t** out, ember_tensor_t** sum_of_weights), {
    PRELUDE_X
    if (weights) check_same_backend(ctx, weights, "weights");
    int64_t a = axis == EMBER_AXIS_NONE ? 0 : normalize_axis(axis, x->ndim);
    const int64_t* axes = axis == EMBER_AXIS_NONE ? nullptr : &a;
    int naxes = axis == EMBER_AXIS_NONE ? 0 : 1;
    TRef w;
    ember_dtype_t common = x->dtype;
    if (weights) {
        if (shape_of(weights) == shape_of(x)) {
            w = TRef::borrow(weights);
        } else if (axis != EMBER_AXIS_NONE && weights->ndim == 1 && weights->shape[0] == x->shape[a]) {
            Shape ws(x->ndim, 1);
            ws[a] = x->shape[a];
            w = op_reshape(ctx, weights, ws, true);
        } else {
            raise(EMBER_ERR_SHAPE, "weights of shape %s do not match x of shape %s (same shape, or 1-d along axis)", shape_str(weights).c_str(), shape_str(x).c_str());
        }
        common = promote(x->dtype, false, weights->dtype, false, ctx->default_float);
    }
    reject_complex(x, "average");
    ember_dtype_t dt = float_dtype(ctx, common, "average");
    TRef num, den;
    if (w) {
        TRef X = cast_if(ctx, x, dt);
        TRef Wc = cast_if(ctx, w.get(), dt), W = op_broadcast_to(Wc.get(), shape_of(x));
        num = reduce(ctx, OP_sum, mul(ctx, X, W).get(), axes, naxes, keepdims != 0);
        // Weights along the axis: their sum, spread over the result (summing them broadcast
        // over x's shape read x's size of elements for n weights).
        den = shape_of(w.get()) == shape_of(x) ? reduce(ctx, OP_sum, W.get(), axes, naxes, keepdims != 0)
                                              : op_broadcast_to(reduce(ctx, OP_sum, Wc.get(), axes, naxes, keepdims != 0).get(), shape_of(num.get()));
        TRef zero = reduce(ctx, OP_any, bin(ctx, OP_equal, den, f(ctx, 0)).get(), nullptr, 0, false);
        if (read_i64(ctx, zero)) raise(EMBER_ERR_INVALID_ARGUMENT, "weights sum to zero");
    } else {  // the mean: wide integers in float64 (mean_of)
        TRef r = cast_if(ctx, mean_of(ctx, x, axes, naxes, keepdims != 0).get(), dt);
        const int64_t cnt = axis == EMBER_AXIS_NONE ? x->size : x->shape[a];
        if (sum_of_weights) *sum_of_weights = op_full(ctx, shape_of(r.get()), (double)cnt, dt).release();
        *out = r.release();
        return;
    }
    TRef r = div(ctx, num, den);
    if (sum_of_weights) *sum_of_weights = op_copy(ctx, den.get()).release();
    *out = r.release();
})

ENTRY(ember_histogram, (ember_ctx_t * ctx, const ember_tensor_t* x, int64_t bins, double lo, double hi, const ember_tensor_t* weights, ember_tensor_t** counts, ember_tensor_t** edges), {
    check_ctx(ctx);
    require_arg(counts, "counts");
    check_same_backend(ctx, x, "x");
    if (weights) {
        check_same_backend(ctx, weights, "weights");
        if (shape_of(weights) != shape_of(x)) raise(EMBER_ERR_SHAPE, "weights have shape %s but x has %s", shape_str(weights).c_str(), shape_str(x).c_str());
    }
    reject_complex(x, "histogram");
    if (bins < 1) raise(EMBER_ERR_INVALID_ARGUMENT, "bins must be at least 1, got %lld", (long long)bins);
    if (bins > (int64_t)1 << 40) raise(EMBER_ERR_INVALID_ARGUMENT, "bins %lld is too large", (long long)bins);
    if (!std::isfinite(lo) || !std::isfinite(hi) || lo > hi) raise(EMBER_ERR_INVALID_ARGUMENT, "range [%g, %g] must be finite with lo <= hi", lo, hi);
    // The range from x in its own dtype (bool as int64): min and max commute with the
    // (monotonic) conversion to float64, which only the composite path below needs.
    TRef xflat = flat(ctx, x);
    if (lo == 0 && hi == 0) {
        if (xflat->size == 0) {
            hi = 1;
        } else {
            TRef xr = cast_if(ctx, xflat.get(), x->dtype == EMBER_BOOL ? EMBER_INT64 : x->dtype);
            lo = read_f64(ctx, reduce(ctx, OP_min, xr.get(), nullptr, 0, false));
            hi = read_f64(ctx, reduce(ctx, OP_max, xr.get(), nullptr, 0, false));
            if (!std::isfinite(lo) || !std::isfinite(hi)) raise(EMBER_ERR_INVALID_ARGUMENT, "autodetected range [%g, %g] is not finite", lo, hi);
        }
    }
    if (lo == hi) {
        lo -= 0.5;
        hi += 0.5;
    }
    std::vector<double> e((size_t)bins + 1);
    double step = (hi - lo) / (double)bins;
    for (int64_t i = 0; i <= bins; ++i) e[(size_t)i] = (double)i * step + lo;
    e[(size_t)bins] = hi;
    TRef E = from_host(ctx, e.data(), EMBER_FLOAT64, {bins + 1});
    if (has_backend_kernel(ctx, OP_histogram) && xflat->size) {
        TRef w = weights ? cast_if(ctx, flat(ctx, weights).get(), weights->dtype == EMBER_BOOL ? EMBER_INT64 : weights->dtype) : TRef();
        TRef c = alloc_tensor(ctx, w ? w->dtype : EMBER_INT64, {bins});
        ember_attrs_t at{};
        at.f[0] = lo;
        at.f[1] = hi;
        const bool done = w ? declinable_kernel(ctx, OP_histogram, {view_of(xflat.get()), view_of(E.get()), view_of(w.get())}, c.get(), at)
                            : declinable_kernel(ctx, OP_histogram, {view_of(xflat.get()), view_of(E.get())}, c.get(), at);
        if (done) {
            if (edges) *edges = E.release();
            *counts = c.release();
            return;
        }
    }
    TRef xf = cast_if(ctx, xflat.get(), EMBER_FLOAT64);
    TRef keep = bin(ctx, OP_logical_and, bin(ctx, OP_greater_equal, xf, f(ctx, lo)), bin(ctx, OP_less_equal, xf, f(ctx, hi)));
    TRef xs = where(ctx, keep, xf, f(ctx, lo));
    // numpy's uniform-bin path: a first guess from the scaled value, then fixed up by the exact edges.
    TRef fi = mul(ctx, div(ctx, sub(ctx, xs, f(ctx, lo)), f(ctx, hi - lo)), f(ctx, (double)bins));
    TRef idx = op_astype(ctx, fi.get(), EMBER_INT64);
    idx = bin(ctx, OP_minimum, idx, weak_i64(ctx, bins - 1));
    if (xf->size) {
        TRef below = bin(ctx, OP_less, xs, FAM_API(ember_take, ctx, E.get(), idx.get(), 0));
        idx = sub(ctx, idx, cast_if(ctx, below.get(), EMBER_INT64));
        idx = bin(ctx, OP_maximum, idx, weak_i64(ctx, 0));
        TRef next = add(ctx, idx, weak_i64(ctx, 1));
        TRef above = bin(ctx, OP_logical_and, bin(ctx, OP_greater_equal, xs, FAM_API(ember_take, ctx, E.get(), next.get(), 0)),
                         bin(ctx, OP_not_equal, idx, weak_i64(ctx, bins - 1)));
        idx = add(ctx, idx, cast_if(ctx, above.get(), EMBER_INT64));
    }
    TRef src;
    if (weights) {
        TRef wf = flat(ctx, weights);
        src = where(ctx, keep, wf, f(ctx, 0));
        src = cast_if(ctx, src.get(), weights->dtype == EMBER_BOOL ? EMBER_INT64 : weights->dtype);
    } else {
        src = op_astype(ctx, keep.get(), EMBER_INT64);
    }
    TRef c;
    if (xf->size == 0) c = op_full(ctx, {bins}, 0, src->dtype);
    else c = FAM_API(ember_scatter, ctx, src.get(), idx.get(), 0, bins, EMBER_SCATTER_ADD);
    if (edges) *edges = E.release();
    *counts = c.release();
})

ENTRY(ember_bincount, (ember_ctx_t * ctx, const ember_tensor_t* x, const ember_tensor_t* weights, int64_t minlength, ember_tensor_t** out), {
    PRELUDE_X
    if (!is_integer(x->dtype)) raise(EMBER_ERR_UNSUPPORTED_DTYPE, "x must have an integer dtype, got %s", dtype_name(x->dtype));
    if (x->ndim != 1) raise(EMBER_ERR_SHAPE, "x must be 1-d, got shape %s", shape_str(x).c_str());
    if (minlength < 0) raise(EMBER_ERR_INVALID_ARGUMENT, "minlength must be non-negative, got %lld", (long long)minlength);
    if (weights) {
        check_same_backend(ctx, weights, "weights");
        if (shape_of(weights) != shape_of(x)) raise(EMBER_ERR_SHAPE, "weights have shape %s but x has %s", shape_str(weights).c_str(), shape_str(x).c_str());
    }
    ember_dtype_t wdt = EMBER_INT64;
    if (weights) wdt = (is_integer(weights->dtype) || weights->dtype == EMBER_BOOL) ? EMBER_FLOAT64 : weights->dtype;
    TRef xi = cast_if(ctx, x, EMBER_INT64);
    int64_t n = minlength;
    if (x->size) {
        int64_t mn = read_i64(ctx, reduce(ctx, OP_min, xi.get(), nullptr, 0, false));
        if (mn < 0) raise(EMBER_ERR_INVALID_ARGUMENT, "x holds the negative value %lld", (long long)mn);
        int64_t mx = read_i64(ctx, reduce(ctx, OP_max, xi.get(), nullptr, 0, false));
        n = std::max(n, mx + 1);
    }
    if (x->size == 0) {
        *out = op_full(ctx, {n}, 0, wdt).release();
        return;
    }
    TRef w = weights ? cast_if(ctx, weights, wdt) : TRef();
    if (has_backend_kernel(ctx, OP_bincount)) {
        TRef r = alloc_tensor(ctx, wdt, {n});
        const bool done = w ? declinable_kernel(ctx, OP_bincount, {view_of(x), view_of(w.get())}, r.get(), {})
                            : declinable_kernel(ctx, OP_bincount, {view_of(x)}, r.get(), {});
        if (done) {
            *out = r.release();
            return;
        }
    }
    TRef src = w ? w : op_full(ctx, {x->size}, 1, EMBER_INT64);
    *out = FAM_API(ember_scatter, ctx, src.get(), xi.get(), 0, n, EMBER_SCATTER_ADD).release();
})

namespace {
// Sorted values and counts of a 1-d integer xf from a table of counts over [min, max], where
// that range is no longer than xf (one counting pass instead of a sort: np.unique of 1e6
// int16 values of 100 kinds). False where the range is wider, or the backend has no
// bincount kernel or declines it: the caller sorts.
bool unique_by_counting(ember_ctx* ctx, const TRef& xf, TRef& vals, TRef& cnt) {
    const ember_dtype_t dt = xf->dtype;
    if (!is_integer(dt) || dt == EMBER_UINT64 || xf->size < 4096 || !has_backend_kernel(ctx, OP_bincount)) return false;
    const int64_t lo = read_i64(ctx, reduce(ctx, OP_min, xf.get(), nullptr, 0, false));
    const int64_t hi = read_i64(ctx, reduce(ctx, OP_max, xf.get(), nullptr, 0, false));
    const uint64_t span = (uint64_t)hi - (uint64_t)lo;  // hi - lo without overflow
    if (span >= (uint64_t)xf->size) return false;
    // x - lo in x's own dtype where it cannot wrap (always for unsigned), else in int64
    const uint64_t largest = is_unsigned_int(dt) ? UINT64_MAX : (uint64_t(1) << (8 * dtype_size(dt) - 1)) - 1;
    TRef base = span <= largest ? xf : cast_if(ctx, xf.get(), EMBER_INT64);
    TRef shifted = lo == 0 ? base : sub(ctx, base, weak_i64(ctx, lo));
    TRef table = alloc_tensor(ctx, EMBER_INT64, {(int64_t)span + 1});
    if (!declinable_kernel(ctx, OP_bincount, {view_of(shifted.get())}, table.get(), {})) return false;
    TRef present = FAM_API(ember_nonzero, ctx, table.get());
    present = op_reshape(ctx, present.get(), {present->shape[0]}, true);
    cnt = FAM_API(ember_take, ctx, table.get(), present.get(), 0);
    vals = op_astype(ctx, add(ctx, present, weak_i64(ctx, lo)).get(), dt);
    return true;
}
}  // namespace

ENTRY(ember_unique, (ember_ctx_t * ctx, const ember_tensor_t* x, ember_tensor_t** values, ember_tensor_t** indices, ember_tensor_t** inverse, ember_tensor_t** counts), {
    check_ctx(ctx);
    require_arg(values, "values");
    check_same_backend(ctx, x, "x");
    TRef xf = flat(ctx, x);
    int64_t n = xf->size;
    TRef vals, first, inv, cnt;
    if (n == 0) {
        vals = alloc_tensor(ctx, x->dtype, {0});
        first = alloc_tensor(ctx, EMBER_INT64, {0});
        inv = alloc_tensor(ctx, EMBER_INT64, shape_of(x));
        cnt = alloc_tensor(ctx, EMBER_INT64, {0});
    } else if (!indices && !inverse && unique_by_counting(ctx, xf, vals, cnt)) {
        // values and counts without a sort
    } else {
        // Values and counts need no permutation: the stable sort puts the same element first
        // in each group as taking x in stable-argsort order does (which zero of -0, +0).
        TRef perm = indices || inverse ? FAM_API(ember_argsort, ctx, xf.get(), 0, 0) : TRef();
        TRef sorted = perm ? FAM_API(ember_take, ctx, xf.get(), perm.get(), 0) : FAM_API(ember_sort, ctx, xf.get(), 0, 0);
        TRef mask = op_full(ctx, {n}, 1, EMBER_BOOL);
        if (n > 1) {
            TRef nxt = op_slice_axis(sorted.get(), 0, 1, n, 1), prv = op_slice_axis(sorted.get(), 0, 0, n - 1, 1);
            TRef neq = bin(ctx, OP_not_equal, nxt, prv);
            if (is_complex(x->dtype)) {
                TRef both_nan = bin(ctx, OP_logical_and, un(ctx, OP_isnan, nxt), un(ctx, OP_isnan, prv));
                neq = bin(ctx, OP_logical_and, neq, un(ctx, OP_logical_not, both_nan));
            } else if (has_nan_kind(x)) {  // NaNs sort last: where prv is NaN, so is nxt
                neq = bin(ctx, OP_logical_and, neq, bin(ctx, OP_equal, prv, prv));
            }
            op_assign(ctx, op_slice_axis(mask.get(), 0, 1, n, 1).get(), neq.get());
        }
        TRef starts = FAM_API(ember_nonzero, ctx, mask.get());
        int64_t k = starts->shape[0];
        starts = op_reshape(ctx, starts.get(), {k}, true);
        vals = FAM_API(ember_take, ctx, sorted.get(), starts.get(), 0);
        if (indices) first = FAM_API(ember_take, ctx, perm.get(), starts.get(), 0);
        if (inverse) {
            TRef gid = sub(ctx, op_scan(ctx, OP_cumsum, op_astype(ctx, mask.get(), EMBER_INT64).get(), 0), weak_i64(ctx, 1));
            TRef r = FAM_API(ember_scatter, ctx, gid.get(), perm.get(), 0, n, EMBER_SCATTER_REPLACE);
            inv = op_reshape(ctx, r.get(), shape_of(x), true);
        }
        if (counts) {
            TRef nn = op_full(ctx, {1}, (double)n, EMBER_INT64);
            TRef ends = op_concat(ctx, {op_slice_axis(starts.get(), 0, 1, k, 1).get(), nn.get()}, 0);
            cnt = sub(ctx, ends, starts);
        }
    }
    if (indices) *indices = first.release();
    if (inverse) *inverse = inv.release();
    if (counts) *counts = cnt.release();
    *values = vals.release();
})

ENTRY(ember_searchsorted, (ember_ctx_t * ctx, const ember_tensor_t* sorted_seq, const ember_tensor_t* values, int right, ember_tensor_t** out), {
    check_ctx(ctx);
    require_arg(out, "out");
    check_same_backend(ctx, sorted_seq, "sorted_seq");
    check_same_backend(ctx, values, "values");
    if (sorted_seq->ndim != 1) raise(EMBER_ERR_SHAPE, "sorted_seq must be 1-d, got shape %s", shape_str(sorted_seq).c_str());
    reject_complex(sorted_seq, "searchsorted");
    reject_complex(values, "searchsorted");
    ember_dtype_t dt = promote(sorted_seq->dtype, sorted_seq->weak, values->dtype, values->weak, ctx->default_float);
    TRef s = cast_if(ctx, sorted_seq, dt), v = cast_if(ctx, values, dt);
    TRef r = alloc_tensor(ctx, EMBER_INT64, shape_of(values));
    if (r->size) {
        if (s->size == 0) op_assign(ctx, r.get(), weak_i64(ctx, 0).get());
        else run_kernel(ctx, OP_searchsorted, {view_of(s.get()), view_of(v.get())}, {view_of(r.get())}, attrs_i(right != 0));
    }
    *out = r.release();
})

ENTRY(ember_topk, (ember_ctx_t * ctx, const ember_tensor_t* x, int64_t k, int64_t axis, int largest, ember_tensor_t** values, ember_tensor_t** indices), {
    check_ctx(ctx);
    require_arg(values, "values");
    check_same_backend(ctx, x, "x");
    reject_complex(x, "topk");
    if (x->ndim == 0) raise(EMBER_ERR_SHAPE, "topk needs at least one dimension");
    int64_t a = normalize_axis(axis, x->ndim);
    if (k < 0 || k > x->shape[a]) raise(EMBER_ERR_INVALID_ARGUMENT, "k = %lld is outside [0, %lld]", (long long)k, (long long)x->shape[a]);
    TRef idx;
    if (k > 0 && x->size > 0 && has_backend_kernel(ctx, OP_topk)) {  // lines along the last axis, contiguous
        const int last = x->ndim - 1;
        TRef lines = contiguous(ctx, op_swapaxes(x, (int)a, last).get());
        Shape ishape = shape_of(lines.get());
        ishape[(size_t)last] = k;
        TRef found = alloc_tensor(ctx, EMBER_INT64, ishape);
        if (declinable_kernel(ctx, OP_topk, {view_of(lines.get())}, found.get(), attrs_i(largest != 0)))
            idx = a == last ? found : op_copy(ctx, op_swapaxes(found.get(), (int)a, last).get());
    }
    if (!idx) {
        TRef order = FAM_API(ember_argsort, ctx, x, a, largest != 0);
        idx = op_copy(ctx, op_slice_axis(order.get(), a, 0, k, 1).get());
    }
    TRef v = FAM_API(ember_take_along_axis, ctx, x, idx.get(), a);
    if (indices) *indices = idx.release();
    *values = v.release();
})

ENTRY(ember_cummax, (ember_ctx_t * ctx, const ember_tensor_t* x, int64_t axis, ember_tensor_t** out), {
    PRELUDE_X
    *out = cum_extreme(ctx, x, axis, true, "cummax").release();
})
ENTRY(ember_cummin, (ember_ctx_t * ctx, const ember_tensor_t* x, int64_t axis, ember_tensor_t** out), {
    PRELUDE_X
    *out = cum_extreme(ctx, x, axis, false, "cummin").release();
})

ENTRY(ember_diff, (ember_ctx_t * ctx, const ember_tensor_t* x, int64_t n, int64_t axis, ember_tensor_t** out), {
    PRELUDE_X
    if (x->ndim == 0) raise(EMBER_ERR_SHAPE, "diff needs at least one dimension");
    if (n < 0) raise(EMBER_ERR_INVALID_ARGUMENT, "order n must be non-negative, got %lld", (long long)n);
    int64_t a = normalize_axis(axis, x->ndim);
    TRef r = op_copy(ctx, x);
    for (int64_t i = 0; i < n && r->shape[a] > 0; ++i) {
        int64_t len = r->shape[a];
        TRef hi = op_slice_axis(r.get(), a, 1, len, 1), lo = op_slice_axis(r.get(), a, 0, len - 1, 1);
        r = bin(ctx, x->dtype == EMBER_BOOL ? OP_not_equal : OP_subtract, hi, lo);
    }
    *out = r.release();
})

ENTRY(ember_gradient, (ember_ctx_t * ctx, const ember_tensor_t* x, double spacing, int64_t axis, int edge_order, ember_tensor_t** out), {
    PRELUDE_X
    if (!std::isfinite(spacing) || spacing == 0) raise(EMBER_ERR_INVALID_ARGUMENT, "spacing must be finite and non-zero, got %g", spacing);
    if (edge_order != 1 && edge_order != 2) raise(EMBER_ERR_INVALID_ARGUMENT, "edge_order must be 1 or 2, got %d", edge_order);
    if (x->ndim == 0) raise(EMBER_ERR_SHAPE, "gradient needs at least one dimension");
    int64_t a = normalize_axis(axis, x->ndim);
    int64_t n = x->shape[a];
    if (n < edge_order + 1) raise(EMBER_ERR_SHAPE, "axis %lld has %lld points; edge_order %d needs at least %d", (long long)a, (long long)n, edge_order, edge_order + 1);
    TRef X = cast_if(ctx, x, float_dtype(ctx, x->dtype, "gradient", true));
    auto at = [&](int64_t i) { return op_slice_axis(X.get(), a, i, i + 1, 1); };
    TRef h = f(ctx, spacing), h2 = f(ctx, 2.0 * spacing);
    TRef first, last;
    if (edge_order == 1) {
        first = div(ctx, sub(ctx, at(1), at(0)), h);
        last = div(ctx, sub(ctx, at(n - 1), at(n - 2)), h);
    } else {
        first = div(ctx, sub(ctx, add(ctx, mul(ctx, f(ctx, -3.0), at(0)), mul(ctx, f(ctx, 4.0), at(1))), at(2)), h2);
        last = div(ctx, add(ctx, sub(ctx, mul(ctx, f(ctx, 3.0), at(n - 1)), mul(ctx, f(ctx, 4.0), at(n - 2))), at(n - 3)), h2);
    }
    // The interior is computed in place in the result (one temporary and a concat cost 4x).
    TRef r = alloc_tensor(ctx, first->dtype, shape_of(X.get()));
    TRef mid = op_slice_axis(r.get(), a, 1, n - 1, 1), head = op_slice_axis(r.get(), a, 0, 1, 1), tail = op_slice_axis(r.get(), a, n - 1, n, 1);
    TRef hi = op_slice_axis(X.get(), a, 2, n, 1), lo = op_slice_axis(X.get(), a, 0, n - 2, 1);
    elementwise_into(ctx, OP_subtract, {hi.get(), lo.get()}, mid.get());
    elementwise_into(ctx, OP_divide, {mid.get(), h2.get()}, mid.get());
    op_assign(ctx, head.get(), first.get());
    op_assign(ctx, tail.get(), last.get());
    *out = r.release();
})

ENTRY(ember_cov, (ember_ctx_t * ctx, const ember_tensor_t* x, int rowvar, double ddof, ember_tensor_t** out), {
    PRELUDE_X
    *out = cov_of(ctx, x, rowvar != 0, ddof).release();
})
ENTRY(ember_corrcoef, (ember_ctx_t * ctx, const ember_tensor_t* x, int rowvar, ember_tensor_t** out), {
    PRELUDE_X
    TRef c = cov_of(ctx, x, rowvar != 0, 1.0);
    TRef r;
    if (c->ndim == 0) {
        r = div(ctx, c, c);
    } else {
        TRef d = op_diagonal(c.get(), 0);
        TRef sd = un(ctx, OP_sqrt, is_complex(d->dtype) ? real_or_imag(ctx, d.get(), false) : d);
        r = div(ctx, div(ctx, c, op_expand_dims(sd.get(), 1)), op_expand_dims(sd.get(), 0));
    }
    if (!is_complex(r->dtype)) r = bin(ctx, OP_minimum, bin(ctx, OP_maximum, r, f(ctx, -1.0)), f(ctx, 1.0));
    *out = r.release();
})

ENTRY(ember_standardize, (ember_ctx_t * ctx, const ember_tensor_t* x, const int64_t* axes, int naxes, ember_tensor_t** out), {
    PRELUDE_X
    reject_complex(x, "standardize");
    const ember_dtype_t dt = float_dtype(ctx, x->dtype, "standardize");
    TRef X = cast_if(ctx, x, stats_work_dtype(x->dtype, dt));
    TRef mu = run_reduce(ctx, OP_mean, X.get(), axes, naxes, true);
    TRef d = sub(ctx, X, mu);
    TRef sd = un(ctx, OP_sqrt, run_reduce(ctx, OP_mean, un(ctx, OP_square, d).get(), axes, naxes, true));
    *out = cast_if(ctx, where(ctx, bin(ctx, OP_equal, sd, f(ctx, 0)), f(ctx, 0), div(ctx, d, sd)).get(), dt).release();
})

ENTRY(ember_normalize, (ember_ctx_t * ctx, const ember_tensor_t* x, double p, int64_t axis, double eps, ember_tensor_t** out), {
    PRELUDE_X
    if (!(p > 0)) raise(EMBER_ERR_INVALID_ARGUMENT, "p must be positive, got %g", p);
    if (!(eps >= 0) || !std::isfinite(eps)) raise(EMBER_ERR_INVALID_ARGUMENT, "eps must be finite and non-negative, got %g", eps);
    reject_complex(x, "normalize");
    if (x->ndim == 0) raise(EMBER_ERR_SHAPE, "normalize needs at least one dimension");
    int64_t a = normalize_axis(axis, x->ndim);
    TRef X = cast_if(ctx, x, float_dtype(ctx, x->dtype, "normalize"));
    TRef ab = un(ctx, OP_abs, X);
    TRef norm;
    if (std::isinf(p)) {
        norm = X->shape[a] ? reduce(ctx, OP_max, ab.get(), &a, 1, true) : run_reduce(ctx, OP_sum, ab.get(), &a, 1, true);
    } else if (p == 1) {
        norm = sum_axis(ctx, ab, a, true);
    } else if (p == 2) {
        norm = un(ctx, OP_sqrt, sum_axis(ctx, un(ctx, OP_square, X), a, true));
    } else {
        norm = bin(ctx, OP_pow, sum_axis(ctx, bin(ctx, OP_pow, ab, f(ctx, p)), a, true), f(ctx, 1.0 / p));
    }
    *out = div(ctx, X, bin(ctx, OP_maximum, norm, f(ctx, eps))).release();
})

}  // extern "C"
