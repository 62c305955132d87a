// FFT family: every transform is a composite over the one primitive "fft_c2c" (an
// unnormalised complex DFT along one axis), slicing, padding, conj and a scale multiply,
// so a device backend that implements fft_c2c gets all of them. rfft and irfft also take a
// backend's kernel where it has one (a real transform of n values costs a complex one of
// n / 2); rfftn, irfftn, hfft and ihfft go through them.
#include <cmath>

#include "composites.hpp"

namespace ember {
namespace {

enum Norm { BACKWARD = 0, ORTHO = 1, FORWARD = 2 };

Norm check_norm(int norm) {
    if (norm < 0 || norm > 2) raise(EMBER_ERR_INVALID_ARGUMENT, "invalid norm %d (use EMBER_FFT_BACKWARD, _ORTHO or _FORWARD)", norm);
    return (Norm)norm;
}
Norm swap_norm(Norm n) { return n == BACKWARD ? FORWARD : n == FORWARD ? BACKWARD : ORTHO; }

ember_dtype_t complex_for(ember_ctx* ctx, ember_dtype_t d) {
    if (is_complex(d)) return d;
    if (d == EMBER_FLOAT64) return EMBER_COMPLEX128;
    if (is_float(d)) return EMBER_COMPLEX64;
    return complex_dtype_of(ctx->default_float);
}

TRef as_complex(ember_ctx* ctx, const ember_tensor* x) { return cast_if(ctx, x, complex_for(ctx, x->dtype)); }

// Truncates or zero-pads x along axis to n.
TRef resize_axis(ember_ctx* ctx, const TRef& x, int64_t axis, int64_t n) {
    int64_t have = x->shape[axis];
    if (have == n) return x;
    if (have > n) return op_slice_axis(x.get(), axis, 0, n, 1);
    Shape zs = shape_of(x.get());
    zs[axis] = n - have;
    TRef z = op_full(ctx, zs, 0.0, x->dtype);
    return op_concat(ctx, {x.get(), z.get()}, axis);
}

// Unnormalised complex transform along one axis (the primitive).
TRef c2c(ember_ctx* ctx, const TRef& x, int64_t axis, bool inverse) {
    TRef out = alloc_tensor(ctx, x->dtype, shape_of(x.get()));
    if (out->size) {
        ember_attrs_t at{};
        at.i[0] = axis;
        at.i[1] = inverse ? 1 : 0;
        run_kernel(ctx, OP_fft_c2c, {view_of(x.get())}, {view_of(out.get())}, at);
    }
    return out;
}

TRef scale(ember_ctx* ctx, const TRef& x, double factor) {
    if (factor == 1.0) return x;
    TRef f = weak_f64(ctx, factor);
    return bin(ctx, OP_multiply, x, f);
}
// Scale of a transform of total length n in the given direction.
double norm_factor(Norm norm, double n, bool inverse) {
    if (norm == ORTHO) return 1.0 / std::sqrt(n);
    if ((norm == BACKWARD) == inverse) return 1.0 / n;
    return 1.0;
}

void check_len(int64_t n, const char* what) {
    if (n < 1) raise(EMBER_ERR_INVALID_ARGUMENT, "invalid %s %lld: a transform needs at least one point", what, (long long)n);
}

TRef conj_of(ember_ctx* ctx, const TRef& x) { return un(ctx, OP_conj, x); }

// Hermitian extension of the first n//2+1 terms to n terms along axis.
TRef hermitian_full(ember_ctx* ctx, const TRef& y, int64_t axis, int64_t n) {
    TRef half = resize_axis(ctx, y, axis, n / 2 + 1);
    int64_t tail = (n + 1) / 2 - 1;  // terms n-1 .. n//2+1 mirror 1 .. (n-1)//2
    if (tail <= 0) return half;
    TRef mid = op_slice_axis(half.get(), axis, tail, 0, -1);  // y[tail], ..., y[1]
    TRef c = conj_of(ctx, mid);
    return op_concat(ctx, {half.get(), c.get()}, axis);
}

TRef fft1(ember_ctx* ctx, const ember_tensor* x, int64_t n, int64_t axis, Norm norm, bool inverse) {
    if (x->ndim == 0) raise(EMBER_ERR_SHAPE, "the input must have at least one dimension");
    int64_t a = normalize_axis(axis, x->ndim);
    if (n == -1) n = x->shape[a];
    check_len(n, "n");
    TRef xc = resize_axis(ctx, as_complex(ctx, x), a, n);
    return scale(ctx, c2c(ctx, xc, a, inverse), norm_factor(norm, (double)n, inverse));
}

TRef rfft1(ember_ctx* ctx, const ember_tensor* x, int64_t n, int64_t axis, Norm norm) {
    if (x->ndim == 0) raise(EMBER_ERR_SHAPE, "the input must have at least one dimension");
    int64_t a = normalize_axis(axis, x->ndim);
    if (n == -1) n = x->shape[a];
    check_len(n, "n");
    TRef re = real_or_imag(ctx, x, false);
    if (has_backend_kernel(ctx, OP_rfft)) {  // lines of n real values in, n / 2 + 1 terms out
        const ember_dtype_t cd = complex_for(ctx, re->dtype);
        TRef xr = resize_axis(ctx, cast_if(ctx, re.get(), real_dtype_of(cd)), a, n);
        Shape shape = shape_of(xr.get());
        shape[a] = n / 2 + 1;
        return scale(ctx, custom_kernel(ctx, OP_rfft, xr.get(), cd, shape, attrs_i(a)), norm_factor(norm, (double)n, false));
    }
    TRef xc = resize_axis(ctx, as_complex(ctx, re.get()), a, n);
    TRef full = c2c(ctx, xc, a, false);
    TRef half = op_slice_axis(full.get(), a, 0, n / 2 + 1, 1);
    return scale(ctx, half, norm_factor(norm, (double)n, false));
}

TRef irfft1(ember_ctx* ctx, const ember_tensor* x, int64_t n, int64_t axis, Norm norm) {
    if (x->ndim == 0) raise(EMBER_ERR_SHAPE, "the input must have at least one dimension");
    int64_t a = normalize_axis(axis, x->ndim);
    if (n == -1) n = 2 * (x->shape[a] - 1);
    check_len(n, "n (default 2*(m-1) needs m >= 2)");
    if (has_backend_kernel(ctx, OP_irfft)) {  // n / 2 + 1 terms in, lines of n real values out
        TRef half = resize_axis(ctx, as_complex(ctx, x), a, n / 2 + 1);
        Shape shape = shape_of(half.get());
        shape[a] = n;
        TRef r = custom_kernel(ctx, OP_irfft, half.get(), real_dtype_of(half->dtype), shape, attrs_i(a));
        return scale(ctx, r, norm_factor(norm, (double)n, true));
    }
    TRef full = hermitian_full(ctx, as_complex(ctx, x), a, n);
    TRef y = c2c(ctx, full, a, true);
    TRef re = op_copy(ctx, real_or_imag(ctx, y.get(), false).get());
    return scale(ctx, re, norm_factor(norm, (double)n, true));
}

// Resolves (s, axes, naxes) to explicit axes and lengths (-1: keep).
void nd_args(const ember_tensor* x, const int64_t* s, const int64_t* axes, int naxes, std::vector<int64_t>& ax, std::vector<int64_t>& len) {
    if ((s || axes) && (naxes < 0 || naxes > x->ndim))
        raise(EMBER_ERR_INVALID_ARGUMENT, "naxes %d out of range for a %d-d input", naxes, x->ndim);
    int k = axes ? naxes : s ? naxes : x->ndim;
    uint64_t seen = 0;
    for (int i = 0; i < k; ++i) {
        int64_t a = axes ? normalize_axis(axes[i], x->ndim) : x->ndim - k + i;
        if (seen & (1ull << a)) raise(EMBER_ERR_INVALID_ARGUMENT, "axis %lld repeated", (long long)a);
        seen |= 1ull << a;
        ax.push_back(a);
        len.push_back(s ? s[i] : -1);
        if (s) check_len(s[i], "s entry");
    }
}

TRef fftn_impl(ember_ctx* ctx, const ember_tensor* x, const int64_t* s, const int64_t* axes, int naxes, Norm norm, bool inverse) {
    std::vector<int64_t> ax, len;
    nd_args(x, s, axes, naxes, ax, len);
    TRef y = as_complex(ctx, x);
    double total = 1;
    for (size_t i = 0; i < ax.size(); ++i) {
        int64_t n = len[i] == -1 ? y->shape[ax[i]] : len[i];
        check_len(n, "transform length");
        y = c2c(ctx, resize_axis(ctx, y, ax[i], n), ax[i], inverse);
        total *= (double)n;
    }
    if (ax.empty()) return op_copy(ctx, y.get());
    return scale(ctx, y, norm_factor(norm, total, inverse));
}

TRef rfftn_impl(ember_ctx* ctx, const ember_tensor* x, const int64_t* s, const int64_t* axes, int naxes, Norm norm) {
    std::vector<int64_t> ax, len;
    nd_args(x, s, axes, naxes, ax, len);
    if (ax.empty()) raise(EMBER_ERR_INVALID_ARGUMENT, "rfftn needs at least one axis");
    int64_t last = ax.back();
    int64_t nlast = len.back() == -1 ? x->shape[last] : len.back();
    TRef y = rfft1(ctx, x, nlast, last, BACKWARD);
    double total = (double)nlast;
    for (size_t i = 0; i + 1 < ax.size(); ++i) {
        int64_t n = len[i] == -1 ? y->shape[ax[i]] : len[i];
        check_len(n, "transform length");
        y = c2c(ctx, resize_axis(ctx, y, ax[i], n), ax[i], false);
        total *= (double)n;
    }
    return scale(ctx, y, norm_factor(norm, total, false));
}

TRef irfftn_impl(ember_ctx* ctx, const ember_tensor* x, const int64_t* s, const int64_t* axes, int naxes, Norm norm) {
    std::vector<int64_t> ax, len;
    nd_args(x, s, axes, naxes, ax, len);
    if (ax.empty()) raise(EMBER_ERR_INVALID_ARGUMENT, "irfftn needs at least one axis");
    TRef y = as_complex(ctx, x);
    double total = 1;
    for (size_t i = 0; i + 1 < ax.size(); ++i) {
        int64_t n = len[i] == -1 ? y->shape[ax[i]] : len[i];
        check_len(n, "transform length");
        y = c2c(ctx, resize_axis(ctx, y, ax[i], n), ax[i], true);
        total *= (double)n;
    }
    int64_t last = ax.back();
    int64_t nlast = len.back() == -1 ? 2 * (x->shape[last] - 1) : len.back();
    TRef r = irfft1(ctx, y.get(), nlast, last, FORWARD);  // unscaled
    total *= (double)nlast;
    return scale(ctx, r, norm_factor(norm, total, true));
}

TRef shift(ember_ctx* ctx, const ember_tensor* x, const int64_t* axes, int naxes, bool inverse) {
    std::vector<int64_t> ax;
    if (axes) {
        if (naxes < 0 || naxes > EMBER_MAX_DIMS) raise(EMBER_ERR_INVALID_ARGUMENT, "invalid naxes %d", naxes);
        for (int i = 0; i < naxes; ++i) ax.push_back(normalize_axis(axes[i], x->ndim));
    } else {
        for (int i = 0; i < x->ndim; ++i) ax.push_back(i);
    }
    std::vector<int64_t> right((size_t)x->ndim, 0);  // a repeated axis shifts again, as in NumPy
    for (int64_t a : ax) right[(size_t)a] += inverse ? x->shape[a] - x->shape[a] / 2 : x->shape[a] / 2;
    return op_roll(ctx, x, right);
}

TRef freq(ember_ctx* ctx, int64_t n, double d, int dtype, bool real) {
    if (n < 1) raise(EMBER_ERR_INVALID_ARGUMENT, "n must be at least 1, got %lld", (long long)n);
    if (!(d != 0) || !std::isfinite(d)) raise(EMBER_ERR_INVALID_ARGUMENT, "sample spacing d must be finite and non-zero, got %g", d);
    ember_dtype_t dt = resolve_dtype_arg(ctx, dtype, ctx->default_float);
    if (!is_float(dt)) raise(EMBER_ERR_UNSUPPORTED_DTYPE, "frequencies need a real floating dtype, got %s", dtype_name(dt));
    int64_t m = real ? n / 2 + 1 : n;
    std::vector<double> v((size_t)m);
    for (int64_t k = 0; k < m; ++k) {
        int64_t j = (real || k <= (n - 1) / 2) ? k : k - n;
        v[(size_t)k] = (double)j / ((double)n * d);
    }
    ember_tensor_t* t = nullptr;
    int64_t shape[1] = {m};
    ember_status_t st = ember_tensor_from_data(ctx, v.data(), EMBER_FLOAT64, shape, 1, &t);
    if (st != EMBER_OK) raise(st, "%s", ember_last_error());
    TRef r(t);
    return cast_if(ctx, r.get(), dt);
}

}  // namespace
}  // namespace ember

using namespace ember;

extern "C" {

ENTRY(ember_fft, (ember_ctx_t * ctx, const ember_tensor_t* x, int64_t n, int64_t axis, ember_fft_norm_t norm, ember_tensor_t** out), {
    check_x_entry(ctx, x, out);
    *out = fft1(ctx, x, n, axis, check_norm(norm), false).release();
})
ENTRY(ember_ifft, (ember_ctx_t * ctx, const ember_tensor_t* x, int64_t n, int64_t axis, ember_fft_norm_t norm, ember_tensor_t** out), {
    check_x_entry(ctx, x, out);
    *out = fft1(ctx, x, n, axis, check_norm(norm), true).release();
})
ENTRY(ember_rfft, (ember_ctx_t * ctx, const ember_tensor_t* x, int64_t n, int64_t axis, ember_fft_norm_t norm, ember_tensor_t** out), {
    check_x_entry(ctx, x, out);
    *out = rfft1(ctx, x, n, axis, check_norm(norm)).release();
})
ENTRY(ember_irfft, (ember_ctx_t * ctx, const ember_tensor_t* x, int64_t n, int64_t axis, ember_fft_norm_t norm, ember_tensor_t** out), {
    check_x_entry(ctx, x, out);
    *out = irfft1(ctx, x, n, axis, check_norm(norm)).release();
})
ENTRY(ember_hfft, (ember_ctx_t * ctx, const ember_tensor_t* x, int64_t n, int64_t axis, ember_fft_norm_t norm, ember_tensor_t** out), {
    check_x_entry(ctx, x, out);
    Norm nm = check_norm(norm);
    TRef c = conj_of(ctx, as_complex(ctx, x));
    *out = irfft1(ctx, c.get(), n, axis, swap_norm(nm)).release();
})
ENTRY(ember_ihfft, (ember_ctx_t * ctx, const ember_tensor_t* x, int64_t n, int64_t axis, ember_fft_norm_t norm, ember_tensor_t** out), {
    check_x_entry(ctx, x, out);
    Norm nm = check_norm(norm);
    if (is_complex(x->dtype)) raise(EMBER_ERR_UNSUPPORTED_DTYPE, "ihfft needs a real input, got %s", dtype_name(x->dtype));
    TRef r = rfft1(ctx, x, n, axis, swap_norm(nm));
    *out = conj_of(ctx, r).release();
})
ENTRY(ember_fftn, (ember_ctx_t * ctx, const ember_tensor_t* x, const int64_t* s, const int64_t* axes, int naxes, ember_fft_norm_t norm,
                   ember_tensor_t** out), {
    check_x_entry(ctx, x, out);
    *out = fftn_impl(ctx, x, s, axes, naxes, check_norm(norm), false).release();
})
ENTRY(ember_ifftn, (ember_ctx_t * ctx, const ember_tensor_t* x, const int64_t* s, const int64_t* axes, int naxes, ember_fft_norm_t norm,
                    ember_tensor_t** out), {
    check_x_entry(ctx, x, out);
    *out = fftn_impl(ctx, x, s, axes, naxes, check_norm(norm), true).release();
})
ENTRY(ember_rfftn, (ember_ctx_t * ctx, const ember_tensor_t* x, const int64_t* s, const int64_t* axes, int naxes, ember_fft_norm_t norm,
                    ember_tensor_t** out), {
    check_x_entry(ctx, x, out);
    *out = rfftn_impl(ctx, x, s, axes, naxes, check_norm(norm)).release();
})
ENTRY(ember_irfftn, (ember_ctx_t * ctx, const ember_tensor_t* x, const int64_t* s, const int64_t* axes, int naxes, ember_fft_norm_t norm,
                     ember_tensor_t** out), {
    check_x_entry(ctx, x, out);
    *out = irfftn_impl(ctx, x, s, axes, naxes, check_norm(norm)).release();
})

static const int64_t last_two[2] = {-2, -1};
static void check_2d(const ember_tensor* x) {
    if (x->ndim < 2) raise(EMBER_ERR_SHAPE, "a 2-d transform needs at least 2 dimensions, got shape %s", shape_str(x).c_str());
}
ENTRY(ember_fft2, (ember_ctx_t * ctx, const ember_tensor_t* x, const int64_t* s, const int64_t* axes, ember_fft_norm_t norm, ember_tensor_t** out), {
    check_x_entry(ctx, x, out);
    check_2d(x);
    *out = fftn_impl(ctx, x, s, axes ? axes : last_two, 2, check_norm(norm), false).release();
})
ENTRY(ember_ifft2, (ember_ctx_t * ctx, const ember_tensor_t* x, const int64_t* s, const int64_t* axes, ember_fft_norm_t norm, ember_tensor_t** out), {
    check_x_entry(ctx, x, out);
    check_2d(x);
    *out = fftn_impl(ctx, x, s, axes ? axes : last_two, 2, check_norm(norm), true).release();
})
ENTRY(ember_rfft2, (ember_ctx_t * ctx, const ember_tensor_t* x, const int64_t* s, const int64_t* axes, ember_fft_norm_t norm, ember_tensor_t** out), {
    check_x_entry(ctx, x, out);
    check_2d(x);
    *out = rfftn_impl(ctx, x, s, axes ? axes : last_two, 2, check_norm(norm)).release();
})
ENTRY(ember_irfft2, (ember_ctx_t * ctx, const ember_tensor_t* x, const int64_t* s, const int64_t* axes, ember_fft_norm_t norm, ember_tensor_t** out), {
    check_x_entry(ctx, x, out);
    check_2d(x);
    *out = irfftn_impl(ctx, x, s, axes ? axes : last_two, 2, check_norm(norm)).release();
})

ENTRY(ember_fftfreq, (ember_ctx_t * ctx, int64_t n, double d, int dtype, ember_tensor_t** out), {
    check_ctx(ctx);
    require_arg(out, "out");
    *out = freq(ctx, n, d, dtype, false).release();
})
ENTRY(ember_rfftfreq, (ember_ctx_t * ctx, int64_t n, double d, int dtype, ember_tensor_t** out), {
    check_ctx(ctx);
    require_arg(out, "out");
    *out = freq(ctx, n, d, dtype, true).release();
})
ENTRY(ember_fftshift, (ember_ctx_t * ctx, const ember_tensor_t* x, const int64_t* axes, int naxes, ember_tensor_t** out), {
    check_x_entry(ctx, x, out);
    *out = shift(ctx, x, axes, naxes, false).release();
})
ENTRY(ember_ifftshift, (ember_ctx_t * ctx, const ember_tensor_t* x, const int64_t* axes, int naxes, ember_tensor_t** out), {
    check_x_entry(ctx, x, out);
    *out = shift(ctx, x, axes, naxes, true).release();
})

}  // extern "C"
