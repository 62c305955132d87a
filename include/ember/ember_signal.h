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

#endif
