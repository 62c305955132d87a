// Windows, framing and the short-time Fourier transform (issue 3). Every op is a composite:
// windows are evaluated in float64 on the host and uploaded; frame is a strided view of the
// signal (frame i starts hop_length elements after frame i-1) copied out; stft multiplies
// that view by the window and calls rfft/fft along the last axis; istft inverts each
// frame, overlap-adds the frames with ceil(n_fft / hop) shifted in-place adds, and divides
// by the overlap-added squared window. So they run on every backend that has the FFT
// kernel (fft_c2c) and the elementwise/copy kernels. docs/numerics-signal.md has the maths.
#include <algorithm>
#include <cmath>

#include "stats_common.hpp"

namespace ember {
namespace {

using namespace fam;

enum WindowKind { HANN, HAMMING, BLACKMAN };

// Host values of an n-point window; N = n (periodic) or n - 1 (symmetric).
std::vector<double> window_values(WindowKind kind, int64_t n, bool periodic) {
    std::vector<double> w((size_t)n);
    if (n == 1) {
        w[0] = 1.0;
        return w;
    }
    const double two_pi = 6.283185307179586476925286766559;
    double N = (double)(periodic ? n : n - 1);
    for (int64_t k = 0; k < n; ++k) {
        // Symmetric windows are evaluated on the first half and mirrored, so w[k] == w[n-1-k] exactly.
        int64_t j = (!periodic && k > (n - 1) / 2) ? n - 1 - k : k;
        double c = std::cos(two_pi * (double)j / N);
        switch (kind) {
            case HANN: w[(size_t)k] = 0.5 - 0.5 * c; break;
            case HAMMING: w[(size_t)k] = 0.54 - 0.46 * c; break;
            case BLACKMAN: w[(size_t)k] = 0.42 - 0.5 * c + 0.08 * std::cos(2.0 * two_pi * (double)j / N); break;
        }
    }
    return w;
}

TRef make_window(ember_ctx* ctx, WindowKind kind, int64_t n, bool periodic, int dtype) {
    if (n < 0) raise(EMBER_ERR_INVALID_ARGUMENT, "window length must be non-negative, got %lld", (long long)n);
    ember_dtype_t dt = resolve_dtype_arg(ctx, dtype, ctx->default_float);
    if (!is_float(dt)) raise(EMBER_ERR_UNSUPPORTED_DTYPE, "a window needs a real floating dtype, got %s", dtype_name(dt));
    std::vector<double> w = window_values(kind, n, periodic);
    if (dt == EMBER_FLOAT64) return from_host(ctx, w.data(), EMBER_FLOAT64, {n});
    // Upload float32 (one rounding on the host); float16/bfloat16 are then rounded from it.
    std::vector<float> f(w.begin(), w.end());
    TRef t = from_host(ctx, f.data(), EMBER_FLOAT32, {n});
    return cast_if(ctx, t.get(), dt);
}

// ---------------------------------------------------------------- frame
// The frames of src along axis a as a strided view: shape[:a] + (nf, fl) + shape[a+1:].
TRef frames_view(ember_ctx* ctx, const ember_tensor* src, int64_t a, int64_t nf, int64_t fl, int64_t hop) {
    Shape shape, strides;
    for (int d = 0; d < src->ndim; ++d) {
        if (d == a) {
            shape.push_back(nf);
            strides.push_back(hop * src->strides[d]);
            shape.push_back(fl);
            strides.push_back(src->strides[d]);
        } else {
            shape.push_back(src->shape[d]);
            strides.push_back(src->strides[d]);
        }
    }
    if (numel(shape) == 0) return alloc_tensor(ctx, src->dtype, shape);
    return make_view(src, shape, strides, src->offset);
}

TRef frame_of(ember_ctx* ctx, const ember_tensor* x, int64_t fl, int64_t hop, int64_t axis, bool pad_end, double pad_value) {
    if (x->ndim == 0) raise(EMBER_ERR_SHAPE, "frame needs at least one dimension");
    if (x->ndim >= EMBER_MAX_DIMS) raise(EMBER_ERR_SHAPE, "framing a %d-d tensor would exceed %d dimensions", x->ndim, EMBER_MAX_DIMS);
    if (fl < 1) raise(EMBER_ERR_INVALID_ARGUMENT, "frame_length must be at least 1, got %lld", (long long)fl);
    if (hop < 1) raise(EMBER_ERR_INVALID_ARGUMENT, "hop_length must be at least 1, got %lld", (long long)hop);
    int64_t a = normalize_axis(axis, x->ndim);
    int64_t L = x->shape[a];
    TRef src = TRef::borrow(x);
    int64_t nf;
    if (pad_end) {
        nf = L / hop + (L % hop != 0);
        int64_t need = nf ? (nf - 1) * hop + fl : 0;
        if (need > L) {
            Shape zs = shape_of(x);
            zs[a] = need - L;
            TRef z = op_full(ctx, zs, pad_value, x->dtype);
            src = op_concat(ctx, {x, z.get()}, a);
        }
    } else {
        nf = L >= fl ? 1 + (L - fl) / hop : 0;
    }
    TRef v = frames_view(ctx, src.get(), a, nf, fl, hop);
    return v->size && v->storage == src->storage ? op_copy(ctx, v.get()) : v;
}

// ---------------------------------------------------------------- STFT
void resolve_lengths(int64_t n_fft, int64_t& hop, int64_t& win) {
    if (n_fft < 1) raise(EMBER_ERR_INVALID_ARGUMENT, "n_fft must be at least 1, got %lld", (long long)n_fft);
    if (hop == -1) {
        hop = n_fft / 4;
        if (hop < 1) raise(EMBER_ERR_INVALID_ARGUMENT, "the default hop_length n_fft/4 is 0 for n_fft = %lld; pass hop_length", (long long)n_fft);
    }
    if (hop < 1) raise(EMBER_ERR_INVALID_ARGUMENT, "hop_length must be at least 1 (or -1 for n_fft/4), got %lld", (long long)hop);
    if (win == -1) win = n_fft;
    if (win < 1 || win > n_fft)
        raise(EMBER_ERR_INVALID_ARGUMENT, "win_length must be in [1, n_fft = %lld] (or -1 for n_fft), got %lld", (long long)n_fft, (long long)win);
}

// Real compute dtype: float64 stays, other floats (and halves) become float32, integers
// and bool the default float.
ember_dtype_t real_compute(ember_ctx* ctx, ember_dtype_t d) {
    if (is_complex(d)) d = real_dtype_of(d);
    if (!is_float(d)) d = ctx->default_float;
    return d == EMBER_FLOAT64 ? EMBER_FLOAT64 : EMBER_FLOAT32;
}

// The window zero-padded on both sides to n_fft in dtype dt; an empty TRef for the
// rectangular window of full length (nothing to multiply by).
TRef padded_window(ember_ctx* ctx, const ember_tensor* window, int64_t n_fft, int64_t win, ember_dtype_t dt) {
    TRef w;
    if (window) {
        if (window->ndim != 1 || window->shape[0] != win)
            raise(EMBER_ERR_SHAPE, "window must be 1-d with win_length = %lld samples, got shape %s", (long long)win, shape_str(window).c_str());
        w = cast_if(ctx, window, dt);
    } else {
        if (win == n_fft) return TRef();
        w = op_full(ctx, {win}, 1.0, dt);
    }
    if (win < n_fft) {
        int64_t left = (n_fft - win) / 2, right = n_fft - win - left;
        TRef zl = op_full(ctx, {left}, 0.0, dt), zr = op_full(ctx, {right}, 0.0, dt);
        w = op_concat(ctx, {zl.get(), w.get(), zr.get()}, 0);
    }
    return w;
}

// Moves the last two axes' order: (..., a, b) -> (..., b, a), contiguous.
TRef swap_last(ember_ctx* ctx, const TRef& t) {
    TRef s = op_swapaxes(t.get(), t->ndim - 2, t->ndim - 1);
    return op_copy(ctx, s.get());
}

TRef stft_of(ember_ctx* ctx, const ember_tensor* x, int64_t n_fft, int64_t hop, int64_t win, const ember_tensor* window, bool center,
             int pad_mode, bool normalized, int onesided) {
    if (x->ndim == 0) raise(EMBER_ERR_SHAPE, "the signal must have at least one dimension (time is the last)");
    if (x->ndim >= EMBER_MAX_DIMS) raise(EMBER_ERR_SHAPE, "a %d-d signal would give more than %d dimensions", x->ndim, EMBER_MAX_DIMS);
    resolve_lengths(n_fft, hop, win);
    if (pad_mode < EMBER_PAD_CONSTANT || pad_mode > EMBER_PAD_WRAP) raise(EMBER_ERR_INVALID_ARGUMENT, "unknown pad mode %d", pad_mode);
    bool complex_in = is_complex(x->dtype) || (window && is_complex(window->dtype));
    bool one = onesided < 0 ? !complex_in : onesided != 0;
    if (one && complex_in) raise(EMBER_ERR_INVALID_ARGUMENT, "a onesided STFT needs a real signal and a real window (pass onesided = 0)");
    // The signal's precision decides (float64/complex128: double, other floats: single);
    // for an integer signal a float64 window makes it double.
    ember_dtype_t rd = real_compute(ctx, x->dtype);
    if (window && !is_float(x->dtype) && !is_complex(x->dtype) && (is_float(window->dtype) || is_complex(window->dtype)) &&
        real_compute(ctx, window->dtype) == EMBER_FLOAT64)
        rd = EMBER_FLOAT64;
    ember_dtype_t cd = complex_dtype_of(rd);
    TRef xs = cast_if(ctx, x, is_complex(x->dtype) ? cd : rd);
    TRef w = padded_window(ctx, window, n_fft, win, window && is_complex(window->dtype) ? cd : rd);
    int64_t last = x->ndim - 1;
    if (center) {
        int64_t p = n_fft / 2, L = x->shape[last];
        if (p > 0) {
            if (pad_mode == EMBER_PAD_REFLECT && p >= L)
                raise(EMBER_ERR_INVALID_ARGUMENT, "reflect padding by n_fft/2 = %lld needs a signal longer than that, got %lld samples", (long long)p,
                      (long long)L);
            if (pad_mode != EMBER_PAD_CONSTANT && L == 0) raise(EMBER_ERR_INVALID_ARGUMENT, "cannot pad an empty signal in this mode");
            std::vector<int64_t> pw((size_t)(2 * x->ndim), 0);
            pw[(size_t)(2 * last)] = p;
            pw[(size_t)(2 * last + 1)] = p;
            xs = FAM_API(ember_pad, ctx, xs.get(), pw.data(), (ember_pad_mode_t)pad_mode, 0.0);
        }
    }
    int64_t Lp = xs->shape[last];
    if (n_fft > Lp)
        raise(EMBER_ERR_INVALID_ARGUMENT, "n_fft = %lld is larger than the %ssignal length %lld", (long long)n_fft, center ? "padded " : "", (long long)Lp);
    int64_t nf = 1 + (Lp - n_fft) / hop;
    TRef fr = frames_view(ctx, xs.get(), last, nf, n_fft, hop);  // (..., nf, n_fft)
    if (w) fr = mul(ctx, fr, w);
    ember_fft_norm_t norm = normalized ? EMBER_FFT_ORTHO : EMBER_FFT_BACKWARD;
    TRef spec = one ? FAM_API(ember_rfft, ctx, fr.get(), n_fft, -1, norm) : FAM_API(ember_fft, ctx, fr.get(), n_fft, -1, norm);
    return swap_last(ctx, spec);  // (..., n_freq, nf)
}

// Overlap-add of frames (..., F, n) placed every hop samples: (..., n + hop (F - 1)).
// ceil(n / hop) in-place adds of (..., F, hop) blocks into a (..., F + m - 1, hop) buffer.
TRef overlap_add(ember_ctx* ctx, const TRef& frames, int64_t hop) {
    int nd = frames->ndim;
    int64_t F = frames->shape[nd - 2], n = frames->shape[nd - 1];
    int64_t m = n / hop + (n % hop != 0);
    TRef p = frames;
    if (m * hop > n) {
        Shape zs = shape_of(frames.get());
        zs[(size_t)nd - 1] = m * hop - n;
        TRef z = op_full(ctx, zs, 0.0, frames->dtype);
        p = op_concat(ctx, {frames.get(), z.get()}, nd - 1);
    }
    Shape s4 = shape_of(frames.get());
    s4[(size_t)nd - 1] = m;
    s4.push_back(hop);
    p = op_reshape(ctx, p.get(), s4, true);  // (..., F, m, hop)
    Shape as = shape_of(frames.get());
    as[(size_t)nd - 2] = F + m - 1;
    as[(size_t)nd - 1] = hop;
    TRef acc = op_full(ctx, as, 0.0, frames->dtype);  // (..., F + m - 1, hop)
    for (int64_t j = 0; j < m; ++j) {
        TRef blk = op_select(p.get(), nd - 1, j);  // (..., F, hop)
        TRef dst = op_slice_axis(acc.get(), nd - 2, j, j + F, 1);
        TRef s = add(ctx, dst, blk);
        op_assign(ctx, dst.get(), s.get());
    }
    Shape fs(as.begin(), as.end() - 2);
    fs.push_back((F + m - 1) * hop);
    TRef flat_acc = op_reshape(ctx, acc.get(), fs, true);
    return op_slice_axis(flat_acc.get(), nd - 2, 0, n + hop * (F - 1), 1);
}

TRef istft_of(ember_ctx* ctx, const ember_tensor* x, int64_t n_fft, int64_t hop, int64_t win, const ember_tensor* window, bool center,
              bool normalized, int onesided, int64_t length, bool return_complex) {
    if (!is_complex(x->dtype)) raise(EMBER_ERR_UNSUPPORTED_DTYPE, "istft needs a complex spectrum, got %s", dtype_name(x->dtype));
    if (x->ndim < 2) raise(EMBER_ERR_SHAPE, "istft needs a (..., n_freq, n_frames) input, got shape %s", shape_str(x).c_str());
    resolve_lengths(n_fft, hop, win);
    if (length < -1) raise(EMBER_ERR_INVALID_ARGUMENT, "length must be non-negative (or -1), got %lld", (long long)length);
    int nd = x->ndim;
    int64_t n_freq = x->shape[nd - 2], F = x->shape[nd - 1];
    bool one = onesided < 0 ? n_freq != n_fft : onesided != 0;
    int64_t want = one ? n_fft / 2 + 1 : n_fft;
    if (n_freq != want)
        raise(EMBER_ERR_SHAPE, "a %s spectrum of n_fft = %lld has %lld frequencies, got shape %s", one ? "onesided" : "two-sided", (long long)n_fft,
              (long long)want, shape_str(x).c_str());
    if (F < 1) raise(EMBER_ERR_SHAPE, "istft needs at least one frame, got shape %s", shape_str(x).c_str());
    if (return_complex && one) raise(EMBER_ERR_INVALID_ARGUMENT, "return_complex needs a two-sided spectrum (onesided = 0)");
    if (!return_complex && window && is_complex(window->dtype))
        raise(EMBER_ERR_INVALID_ARGUMENT, "a complex window needs return_complex (the inverse of a real signal uses a real window)");
    ember_dtype_t cd = x->dtype, rd = real_dtype_of(cd);
    TRef w = padded_window(ctx, window, n_fft, win, window && is_complex(window->dtype) ? cd : rd);
    ember_fft_norm_t norm = normalized ? EMBER_FFT_ORTHO : EMBER_FFT_BACKWARD;
    TRef S = op_swapaxes(x, nd - 2, nd - 1);  // (..., F, n_freq)
    TRef fr;
    if (return_complex) {
        fr = FAM_API(ember_ifft, ctx, S.get(), n_fft, -1, norm);
    } else {
        if (!one) S = op_slice_axis(S.get(), nd - 1, 0, n_fft / 2 + 1, 1);
        fr = FAM_API(ember_irfft, ctx, S.get(), n_fft, -1, norm);
    }
    if (w) fr = mul(ctx, fr, w);
    TRef y = overlap_add(ctx, fr, hop);
    TRef w2 = w ? un(ctx, OP_square, w) : op_full(ctx, {n_fft}, 1.0, rd);
    TRef env = overlap_add(ctx, op_broadcast_to(w2.get(), {F, n_fft}), hop);
    int64_t expected = n_fft + hop * (F - 1);
    int64_t start = center ? n_fft / 2 : 0;
    int64_t end = length >= 0 ? start + length : (center ? expected - n_fft / 2 : expected);
    int64_t stop = std::min(end, expected);
    if (stop < start) stop = start;
    y = op_slice_axis(y.get(), nd - 2, start, stop, 1);
    env = op_slice_axis(env.get(), 0, start, stop, 1);
    if (stop > start) {
        TRef lo = reduce(ctx, OP_min, un(ctx, OP_abs, env).get(), nullptr, 0, false);
        double m = read_f64(ctx, lo);
        if (!(m >= 1e-11))
            raise(EMBER_ERR_INVALID_ARGUMENT,
                  "window overlap-add envelope vanishes (min %g < 1e-11) in the kept range: use center, a hop_length that overlaps the window, or a "
                  "window without zeros there",
                  m);
    }
    y = div(ctx, y, env);
    if (end > stop) {
        Shape zs = shape_of(y.get());
        zs[(size_t)nd - 2] = end - stop;
        TRef z = op_full(ctx, zs, 0.0, y->dtype);
        y = op_concat(ctx, {y.get(), z.get()}, nd - 2);
    }
    return y;
}

}  // namespace
}  // namespace ember

using namespace ember;

extern "C" {

ENTRY(ember_hann_window, (ember_ctx_t * ctx, int64_t n, int periodic, int dtype, ember_tensor_t** out), {
    check_ctx(ctx);
    require_arg(out, "out");
    *out = make_window(ctx, HANN, n, periodic != 0, dtype).release();
})
ENTRY(ember_hamming_window, (ember_ctx_t * ctx, int64_t n, int periodic, int dtype, ember_tensor_t** out), {
    check_ctx(ctx);
    require_arg(out, "out");
    *out = make_window(ctx, HAMMING, n, periodic != 0, dtype).release();
})
ENTRY(ember_blackman_window, (ember_ctx_t * ctx, int64_t n, int periodic, int dtype, ember_tensor_t** out), {
    check_ctx(ctx);
    require_arg(out, "out");
    *out = make_window(ctx, BLACKMAN, n, periodic != 0, dtype).release();
})

ENTRY(ember_frame, (ember_ctx_t * ctx, const ember_tensor_t* x, int64_t frame_length, int64_t hop_length, int64_t axis, int pad_end,
                    double pad_value, ember_tensor_t** out), {
    check_x_entry(ctx, x, out);
    *out = frame_of(ctx, x, frame_length, hop_length, axis, pad_end != 0, pad_value).release();
})

ENTRY(ember_stft, (ember_ctx_t * ctx, const ember_tensor_t* x, int64_t n_fft, int64_t hop_length, int64_t win_length, const ember_tensor_t* window,
                   int center, ember_pad_mode_t pad_mode, int normalized, int onesided, ember_tensor_t** out), {
    check_x_entry(ctx, x, out);
    if (window) check_same_backend(ctx, window, "window");
    *out = stft_of(ctx, x, n_fft, hop_length, win_length, window, center != 0, (int)pad_mode, normalized != 0, onesided).release();
})

ENTRY(ember_istft, (ember_ctx_t * ctx, const ember_tensor_t* x, int64_t n_fft, int64_t hop_length, int64_t win_length, const ember_tensor_t* window,
                    int center, int normalized, int onesided, int64_t length, int return_complex, ember_tensor_t** out), {
    check_x_entry(ctx, x, out);
    if (window) check_same_backend(ctx, window, "window");
    *out = istft_of(ctx, x, n_fft, hop_length, win_length, window, center != 0, normalized != 0, onesided, length, return_complex != 0).release();
})

}  // extern "C"
