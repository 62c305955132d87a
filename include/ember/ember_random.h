/* Ember random numbers. Included by ember.h; conventions as in ember.h.
 * Algorithms, stream layout and guarantees: docs/numerics-random.md.
 *
 * Generator: Philox 4x32-10 (Salmon et al., SC'11; the Random123 definition), counter based.
 * Each context has a state {key, counter}: key is the 64-bit seed, counter the next unused
 * 128-bit block index (64 bits). Every call reserves a contiguous range of blocks and
 * advances counter past it, so the same seed and the same sequence of calls give the same
 * words on every backend: block b gives Philox(key, {lo32(b), hi32(b), j, 0}) where j is 0
 * for raw words and the trial number for the rejection samplers (gamma, beta, binomial,
 * poisson, truncated normal), which own one block index per element.
 * A context that was never seeded starts at {key 0, counter 0}. Results of
 * ember_random_bits, randint, permutation and shuffle are bit-identical on every backend;
 * float distributions are identical up to the backend's rounding of log/cos/sqrt.
 *
 * shape/ndim: the result's shape (ndim 0: a 0-d tensor). dtype: EMBER_DTYPE_DEFAULT means
 * the context's default float (int64 for randint and binomial/poisson).
 */
#ifndef EMBER_EMBER_RANDOM_H
#define EMBER_EMBER_RANDOM_H

typedef struct ember_random_state {
    uint64_t key;     /* the seed */
    uint64_t counter; /* next unused Philox block */
} ember_random_state_t;

/* Sets the context's state to {seed, 0}. */
EMBER_API ember_status_t ember_random_seed(ember_ctx_t* ctx, uint64_t seed);
EMBER_API ember_status_t ember_random_get_state(ember_ctx_t* ctx, ember_random_state_t* state);
EMBER_API ember_status_t ember_random_set_state(ember_ctx_t* ctx, const ember_random_state_t* state);

/* Raw uint32 words: element i (C order) is word i % 4 of block counter + i / 4.
   Consumes ceil(n / 4) blocks. */
EMBER_API ember_status_t ember_random_bits(ember_ctx_t* ctx, const int64_t* shape, int ndim, ember_tensor_t** out);

/* Uniform on [low, high) (low < high, both finite), float dtype. The unit variate has the
   dtype's mantissa width (53 bits float64, 24 float32 and the half types), one word per
   element (two for float64); a result that rounds up to high is moved to the value below. */
EMBER_API ember_status_t ember_random_uniform(ember_ctx_t* ctx, const int64_t* shape, int ndim, double low, double high, int dtype,
                                              ember_tensor_t** out);
/* Normal(mean, std) by Box-Muller (std >= 0), float dtype. */
EMBER_API ember_status_t ember_random_normal(ember_ctx_t* ctx, const int64_t* shape, int ndim, double mean, double std, int dtype,
                                             ember_tensor_t** out);
/* Normal(mean, std) truncated to [lo, hi] (absolute bounds, lo < hi, std > 0) by inversion of
   the normal CDF; an interval whose probability underflows double is
   EMBER_ERR_INVALID_ARGUMENT. Float dtype. */
EMBER_API ember_status_t ember_random_truncated_normal(ember_ctx_t* ctx, const int64_t* shape, int ndim, double mean, double std,
                                                       double lo, double hi, int dtype, ember_tensor_t** out);
/* bool tensor, true with probability p (p: any real tensor, values clamped to [0, 1]; NaN
   gives false). shape NULL: p's shape; else p broadcasts to shape. */
EMBER_API ember_status_t ember_random_bernoulli(ember_ctx_t* ctx, const ember_tensor_t* p, const int64_t* shape, int ndim,
                                                ember_tensor_t** out);
/* Exponential with rate lambda > 0 (mean 1/lambda): -log1p(-u) / lambda. */
EMBER_API ember_status_t ember_random_exponential(ember_ctx_t* ctx, const int64_t* shape, int ndim, double rate, int dtype,
                                                  ember_tensor_t** out);
/* Integers uniform on [low, high) (low < high), integer dtype (default int64; the range must
   fit it): low + (w mod (high - low)) with a 64-bit word w (bias below (high-low)/2^64). */
EMBER_API ember_status_t ember_random_randint(ember_ctx_t* ctx, int64_t low, int64_t high, const int64_t* shape, int ndim, int dtype,
                                              ember_tensor_t** out);
/* A random permutation of 0..n-1 (int64): the stable argsort of n 64-bit words. */
EMBER_API ember_status_t ember_random_permutation(ember_ctx_t* ctx, int64_t n, ember_tensor_t** out);
/* x with its slices along axis in random order (a copy). */
EMBER_API ember_status_t ember_random_shuffle(ember_ctx_t* ctx, const ember_tensor_t* x, int64_t axis, ember_tensor_t** out);
/* num_samples class indices (int64) per row of x (..., K) along its last axis, drawn with
   probabilities softmax(x) (from_logits != 0) or x / sum(x) (x >= 0, from_logits == 0), by
   the Gumbel-max trick. Result shape (..., num_samples). K == 0 is EMBER_ERR_SHAPE. */
EMBER_API ember_status_t ember_random_categorical(ember_ctx_t* ctx, const ember_tensor_t* x, int64_t num_samples, int from_logits,
                                                  ember_tensor_t** out);
/* Gamma(alpha > 0, scale > 0) (Marsaglia-Tsang; alpha < 1 boosted), float dtype. */
EMBER_API ember_status_t ember_random_gamma(ember_ctx_t* ctx, const int64_t* shape, int ndim, double alpha, double scale, int dtype,
                                            ember_tensor_t** out);
/* Beta(a > 0, b > 0) as X / (X + Y) of two gamma variates, float dtype. */
EMBER_API ember_status_t ember_random_beta(ember_ctx_t* ctx, const int64_t* shape, int ndim, double a, double b, int dtype,
                                           ember_tensor_t** out);
/* Binomial(n >= 0, 0 <= p <= 1): inversion for n*min(p,1-p) < 10, else BTRS (Hormann).
   Integer or float dtype (default int64). */
EMBER_API ember_status_t ember_random_binomial(ember_ctx_t* ctx, const int64_t* shape, int ndim, int64_t n, double p, int dtype,
                                               ember_tensor_t** out);
/* Poisson(lam >= 0, lam < 1e12): multiplication method for lam < 10, else PTRS (Hormann).
   Integer or float dtype (default int64). */
EMBER_API ember_status_t ember_random_poisson(ember_ctx_t* ctx, const int64_t* shape, int ndim, double lam, int dtype,
                                              ember_tensor_t** out);


/* Tensor-valued parameters (NumPy's rng.normal(loc=array, scale=array), rng.gamma(shape=array),
   rng.binomial(n=array, p=array), ...): one entry point per sampler above, with a `_t` suffix.
   Parameters: real tensors of any dtype on the context's backend (read as float64; complex is
   EMBER_ERR_UNSUPPORTED_DTYPE); they broadcast against each other.
   shape: NULL (or ndim < 0): the result has the parameters' broadcast shape (NumPy's
   size=None); otherwise it has shape[0..ndim) (non-NULL with ndim 0: 0-d) and the parameters
   must broadcast to it (EMBER_ERR_SHAPE otherwise).
   dtype: as the scalar entry; EMBER_DTYPE_DEFAULT means, for the float samplers, the
   parameters' promoted dtype if it is a float, else the context's default float (binomial,
   poisson: int64).
   Stream: element i of the result (C order) is drawn exactly as the scalar entry draws its
   element i from the same state, with that element's parameters, so a parameter tensor full of
   one value gives the scalar entry's result bit for bit; the state advances as it would there.
   Validation, before anything is drawn (the state is then unchanged): the scalar entry's
   conditions per element; a violation is EMBER_ERR_INVALID_ARGUMENT naming the parameter, the
   first offending element's index (C order) and its value. Empty results still validate. */
EMBER_API ember_status_t ember_random_uniform_t(ember_ctx_t* ctx, const ember_tensor_t* low, const ember_tensor_t* high, const int64_t* shape,
                                                int ndim, int dtype, ember_tensor_t** out);
EMBER_API ember_status_t ember_random_normal_t(ember_ctx_t* ctx, const ember_tensor_t* mean, const ember_tensor_t* std, const int64_t* shape,
                                               int ndim, int dtype, ember_tensor_t** out);
EMBER_API ember_status_t ember_random_exponential_t(ember_ctx_t* ctx, const ember_tensor_t* rate, const int64_t* shape, int ndim, int dtype,
                                                    ember_tensor_t** out);
EMBER_API ember_status_t ember_random_gamma_t(ember_ctx_t* ctx, const ember_tensor_t* alpha, const ember_tensor_t* scale, const int64_t* shape,
                                              int ndim, int dtype, ember_tensor_t** out);
EMBER_API ember_status_t ember_random_beta_t(ember_ctx_t* ctx, const ember_tensor_t* a, const ember_tensor_t* b, const int64_t* shape, int ndim,
                                             int dtype, ember_tensor_t** out);
/* n: non-negative integral values up to 2^53 (any real dtype). */
EMBER_API ember_status_t ember_random_binomial_t(ember_ctx_t* ctx, const ember_tensor_t* n, const ember_tensor_t* p, const int64_t* shape,
                                                 int ndim, int dtype, ember_tensor_t** out);
EMBER_API ember_status_t ember_random_poisson_t(ember_ctx_t* ctx, const ember_tensor_t* lam, const int64_t* shape, int ndim, int dtype,
                                                ember_tensor_t** out);

#endif
