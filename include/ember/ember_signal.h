/* Ember FFT and signal processing. Included by ember.h; conventions as in ember.h.
 *
 * The transforms follow the array API standard's fft extension (numpy.fft semantics):
 *  - Inputs of any numeric dtype; float32/float16/bfloat16 (and complex64) compute in
 *    complex64, float64/complex128 in complex128, integers and bool in the complex dtype of
 *    the context's default float. Complex results are complex64/complex128, real results
 *    (irfft, hfft) float32/float64.
 *  - n (1-d) / s (n-d): the transform length per axis; the input is truncated or zero-padded
 *    to it. n = -1 (or s == NULL) keeps the input length (irfft/hfft: 2*(m-1)). A length
 *    below 1 gives EMBER_ERR_INVALID_ARGUMENT.
 *  - axis: negative counts from the end. n-d: axes == NULL means the last len(s) axes when s
 *    is given, else every axis; naxes is the length of s and/or axes (when both are given).
 *  - norm: BACKWARD scales the inverse by 1/n, ORTHO both directions by 1/sqrt(n), FORWARD
 *    the forward transform by 1/n.
 * Every transform is O(n log n) for every n (mixed radix 2/3/5/7/11/13, Bluestein for larger
 * prime factors); docs/numerics-signal.md gives the accuracy. The only kernel a backend needs
 * is the unnormalised complex transform along one axis, "fft_c2c".
 */
#ifndef EMBER_EMBER_SIGNAL_H
#define EMBER_EMBER_SIGNAL_H

typedef enum ember_fft_norm { EMBER_FFT_BACKWARD = 0, EMBER_FFT_ORTHO = 1, EMBER_FFT_FORWARD = 2 } ember_fft_norm_t;

/* One-dimensional transforms along axis. */
EMBER_API ember_status_t ember_fft(ember_ctx_t* ctx, const ember_tensor_t* x, int64_t n, int64_t axis, ember_fft_norm_t norm, ember_tensor_t** out);
EMBER_API ember_status_t ember_ifft(ember_ctx_t* ctx, const ember_tensor_t* x, int64_t n, int64_t axis, ember_fft_norm_t norm, ember_tensor_t** out);
/* Real input (complex input: its real part is used); n//2 + 1 complex outputs. */
EMBER_API ember_status_t ember_rfft(ember_ctx_t* ctx, const ember_tensor_t* x, int64_t n, int64_t axis, ember_fft_norm_t norm, ember_tensor_t** out);
/* Inverse of rfft: n real outputs (default 2*(m-1)); imaginary parts of the DC and Nyquist terms are ignored. */
EMBER_API ember_status_t ember_irfft(ember_ctx_t* ctx, const ember_tensor_t* x, int64_t n, int64_t axis, ember_fft_norm_t norm, ember_tensor_t** out);
/* FFT of a Hermitian-symmetric signal given by its first half: n real outputs (default 2*(m-1)). */
EMBER_API ember_status_t ember_hfft(ember_ctx_t* ctx, const ember_tensor_t* x, int64_t n, int64_t axis, ember_fft_norm_t norm, ember_tensor_t** out);
/* Inverse of hfft: real input, n//2 + 1 complex outputs. */
EMBER_API ember_status_t ember_ihfft(ember_ctx_t* ctx, const ember_tensor_t* x, int64_t n, int64_t axis, ember_fft_norm_t norm, ember_tensor_t** out);

/* n-dimensional transforms (see the header comment for s / axes / naxes). */
EMBER_API ember_status_t ember_fftn(ember_ctx_t* ctx, const ember_tensor_t* x, const int64_t* s, const int64_t* axes, int naxes,
                                    ember_fft_norm_t norm, ember_tensor_t** out);
EMBER_API ember_status_t ember_ifftn(ember_ctx_t* ctx, const ember_tensor_t* x, const int64_t* s, const int64_t* axes, int naxes,
                                     ember_fft_norm_t norm, ember_tensor_t** out);
/* rfft along the last of the axes, then fft along the others. */
EMBER_API ember_status_t ember_rfftn(ember_ctx_t* ctx, const ember_tensor_t* x, const int64_t* s, const int64_t* axes, int naxes,
                                     ember_fft_norm_t norm, ember_tensor_t** out);
/* ifft along all but the last of the axes, then irfft along it (s[-1] default 2*(m-1)). */
EMBER_API ember_status_t ember_irfftn(ember_ctx_t* ctx, const ember_tensor_t* x, const int64_t* s, const int64_t* axes, int naxes,
                                      ember_fft_norm_t norm, ember_tensor_t** out);
/* Two-dimensional forms: s and axes hold 2 entries each or are NULL (axes default (-2, -1)). */
EMBER_API ember_status_t ember_fft2(ember_ctx_t* ctx, const ember_tensor_t* x, const int64_t* s, const int64_t* axes, ember_fft_norm_t norm, ember_tensor_t** out);
EMBER_API ember_status_t ember_ifft2(ember_ctx_t* ctx, const ember_tensor_t* x, const int64_t* s, const int64_t* axes, ember_fft_norm_t norm, ember_tensor_t** out);
EMBER_API ember_status_t ember_rfft2(ember_ctx_t* ctx, const ember_tensor_t* x, const int64_t* s, const int64_t* axes, ember_fft_norm_t norm, ember_tensor_t** out);
EMBER_API ember_status_t ember_irfft2(ember_ctx_t* ctx, const ember_tensor_t* x, const int64_t* s, const int64_t* axes, ember_fft_norm_t norm, ember_tensor_t** out);

/* Sample frequencies: fftfreq gives [0, 1, ..., (n-1)//2, -(n//2), ..., -1] / (d*n); rfftfreq
   [0, 1, ..., n//2] / (d*n). dtype: a real float dtype or EMBER_DTYPE_DEFAULT. n >= 1, d != 0. */
EMBER_API ember_status_t ember_fftfreq(ember_ctx_t* ctx, int64_t n, double d, int dtype, ember_tensor_t** out);
EMBER_API ember_status_t ember_rfftfreq(ember_ctx_t* ctx, int64_t n, double d, int dtype, ember_tensor_t** out);
/* Moves the zero-frequency term to the centre (roll by n//2) along axes (NULL: every axis);
   ifftshift undoes it (roll by -(n//2)). Any dtype. */
EMBER_API ember_status_t ember_fftshift(ember_ctx_t* ctx, const ember_tensor_t* x, const int64_t* axes, int naxes, ember_tensor_t** out);
EMBER_API ember_status_t ember_ifftshift(ember_ctx_t* ctx, const ember_tensor_t* x, const int64_t* axes, int naxes, ember_tensor_t** out);

/* ---------------------------------------------------------------- windows, framing, STFT
   Numerical behaviour and the exact formulas: docs/numerics-signal.md. */

/* Window functions of n points (torch.*_window / scipy.signal.get_window):
     hann      0.5 - 0.5 cos(2 pi k / N)
     hamming   0.54 - 0.46 cos(2 pi k / N)
     blackman  0.42 - 0.5 cos(2 pi k / N) + 0.08 cos(4 pi k / N)
   with N = n when periodic != 0 (the default of torch and of scipy's get_window: one
   period of an n-point DFT, for spectral analysis) and N = n - 1 when periodic == 0 (the
   symmetric window of numpy.hanning / hamming / blackman and scipy's sym=True, for filter
   design). n == 0 gives an empty tensor, n == 1 gives [1]. Values are computed in float64
   and rounded once to dtype: a real floating dtype or EMBER_DTYPE_DEFAULT (the context's
   default float). n < 0 is EMBER_ERR_INVALID_ARGUMENT, another dtype
   EMBER_ERR_UNSUPPORTED_DTYPE. */
EMBER_API ember_status_t ember_hann_window(ember_ctx_t* ctx, int64_t n, int periodic, int dtype, ember_tensor_t** out);
EMBER_API ember_status_t ember_hamming_window(ember_ctx_t* ctx, int64_t n, int periodic, int dtype, ember_tensor_t** out);
EMBER_API ember_status_t ember_blackman_window(ember_ctx_t* ctx, int64_t n, int periodic, int dtype, ember_tensor_t** out);

/* Slides a window of frame_length samples in steps of hop_length along axis
   (tf.signal.frame): out has x's shape with that axis replaced by the two axes
   (n_frames, frame_length); frame i holds x[i*hop_length : i*hop_length + frame_length].
   pad_end == 0: n_frames = 1 + (L - frame_length) / hop_length (0 when L < frame_length),
   trailing samples that do not fill a frame are dropped. pad_end != 0: n_frames =
   ceil(L / hop_length) and the end is padded with pad_value so the last frame is full.
   Any dtype (pad_value is converted to it); the result is a new contiguous tensor.
   frame_length < 1 or hop_length < 1 is EMBER_ERR_INVALID_ARGUMENT; 0-d x EMBER_ERR_SHAPE. */
EMBER_API ember_status_t ember_frame(ember_ctx_t* ctx, const ember_tensor_t* x, int64_t frame_length, int64_t hop_length, int64_t axis,
                                     int pad_end, double pad_value, ember_tensor_t** out);

/* Short-time Fourier transform, torch.stft(..., return_complex=True) semantics, along the
   last axis of x (..., L) (any number of leading batch axes):
     X[..., f, t] = sum_k w[k] x_p[..., t*hop_length + k] e^{-2 pi i f k / n_fft}
   - hop_length: -1 means n_fft / 4 (floor); win_length: -1 means n_fft.
   - window: 1-d of win_length samples, or NULL for a rectangular window (ones); a window
     shorter than n_fft is zero-padded on both sides to n_fft (left (n_fft - win_length)/2).
   - center != 0: x is padded by n_fft/2 on both sides with pad_mode (EMBER_PAD_REFLECT as
     torch's default "reflect", EMBER_PAD_CONSTANT zeros, EMBER_PAD_EDGE "replicate",
     EMBER_PAD_WRAP "circular"); reflect needs n_fft/2 < L. x_p is the padded signal.
   - normalized != 0: the result is multiplied by 1/sqrt(n_fft).
   - onesided: 1 keeps the n_fft/2 + 1 non-negative frequencies (needs real x and window),
     0 all n_fft, -1 the default (onesided for real x and window).
   Result: complex (..., n_freq, n_frames), n_frames = 1 + (L_p - n_fft) / hop_length;
   complex64 for float32/16 inputs, complex128 for float64, the default float's complex
   type for integers. Errors (EMBER_ERR_INVALID_ARGUMENT): n_fft < 1 or larger than L_p,
   hop_length < 1, win_length outside [1, n_fft], an unknown pad mode; EMBER_ERR_SHAPE: a
   window that is not 1-d of win_length, 0-d x. */
EMBER_API ember_status_t ember_stft(ember_ctx_t* ctx, const ember_tensor_t* x, int64_t n_fft, int64_t hop_length, int64_t win_length,
                                    const ember_tensor_t* window, int center, ember_pad_mode_t pad_mode, int normalized, int onesided,
                                    ember_tensor_t** out);
/* Inverse of ember_stft by windowed overlap-add (torch.istft): each frame is inverse
   transformed (irfft of n_fft points when onesided, else ifft), multiplied by the window,
   overlap-added at multiples of hop_length, and divided by the overlap-added squared
   window sum(w^2) (the least-squares inverse of Griffin and Lim). x: complex
   (..., n_freq, n_frames) with n_freq = n_fft/2 + 1 (onesided) or n_fft; onesided -1
   infers it from n_freq != n_fft. center != 0 removes n_fft/2 samples at the start (and,
   without length, at the end). length: -1 for the natural length (n_fft + hop_length *
   (n_frames - 1), minus n_fft/2 at each end when centred), else the output has length
   samples: cut, or extended with what the frames hold past the natural end (the centring
   pad, as torch) and then zeros. return_complex != 0 (needs onesided == 0)
   gives the complex inverse, else the result is real (float32 for complex64, float64 for
   complex128): (..., length). The same n_fft, hop_length, win_length, window, center and
   normalized as the forward call restore the signal when the squared window overlap-adds to
   a non-zero envelope over the kept range (any COLA window with center != 0); an envelope
   below 1e-11 anywhere in that range is EMBER_ERR_INVALID_ARGUMENT ("window overlap-add
   envelope vanishes", as torch). Real x is EMBER_ERR_UNSUPPORTED_DTYPE; argument errors as
   ember_stft, plus n_freq not matching n_fft (EMBER_ERR_SHAPE). */
EMBER_API ember_status_t ember_istft(ember_ctx_t* ctx, const ember_tensor_t* x, int64_t n_fft, int64_t hop_length, int64_t win_length,
                                     const ember_tensor_t* window, int center, int normalized, int onesided, int64_t length,
                                     int return_complex, ember_tensor_t** out);

#endif
