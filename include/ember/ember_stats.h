/* Ember statistics, features and losses. Included by ember.h; conventions as in ember.h.
 * Numerical behaviour, algorithms and tolerances: docs/numerics-stats.md.
 *
 * Dtypes: unless a function says otherwise, real inputs are accepted; integer and bool
 * inputs compute in the context's default float (ember_ctx_set_default_float) and float
 * inputs keep their dtype. Complex inputs give EMBER_ERR_UNSUPPORTED_DTYPE except where
 * stated. axis EMBER_AXIS_NONE means "the flattened tensor" where a function takes one axis.
 */
#ifndef EMBER_EMBER_STATS_H
#define EMBER_EMBER_STATS_H

/* ---------------------------------------------------------------- order statistics */
typedef enum ember_quantile_method {
    EMBER_QUANTILE_LINEAR = 0,   /* x[i] + (x[i+1] - x[i]) * frac, i = floor(q*(n-1)) (numpy default) */
    EMBER_QUANTILE_LOWER = 1,    /* x[floor(q*(n-1))] */
    EMBER_QUANTILE_HIGHER = 2,   /* x[ceil(q*(n-1))] */
    EMBER_QUANTILE_NEAREST = 3,  /* x[round_half_even(q*(n-1))] (numpy 'nearest') */
    EMBER_QUANTILE_MIDPOINT = 4  /* (x[floor] + x[ceil]) / 2 */
} ember_quantile_method_t;

/* The q-th quantile (0 <= q <= 1) along axis (EMBER_AXIS_NONE: of the flattened tensor).
   A slice holding a NaN gives NaN. The result is float (integer/bool inputs: the default
   float). An empty slice is EMBER_ERR_SHAPE; q outside [0, 1] or NaN, or an unknown method,
   is EMBER_ERR_INVALID_ARGUMENT. */
EMBER_API ember_status_t ember_quantile(ember_ctx_t* ctx, const ember_tensor_t* x, double q, int64_t axis,
                                        ember_quantile_method_t method, int keepdims, ember_tensor_t** out);
/* ember_quantile with q given in percent (0 <= p <= 100). */
EMBER_API ember_status_t ember_percentile(ember_ctx_t* ctx, const ember_tensor_t* x, double p, int64_t axis,
                                          ember_quantile_method_t method, int keepdims, ember_tensor_t** out);
/* ember_quantile(x, 0.5, axis, LINEAR): the mean of the two middle values for even n. */
EMBER_API ember_status_t ember_median(ember_ctx_t* ctx, const ember_tensor_t* x, int64_t axis, int keepdims, ember_tensor_t** out);

/* ---------------------------------------------------------------- NaN-ignoring reductions */
/* Like ember_sum / ember_mean / ember_max / ember_min (axes NULL: all axes) with NaN treated
   as missing. nansum of an all-NaN slice is 0; nanmean, nanmax and nanmin of an all-NaN
   slice are NaN (NumPy returns NaN with a warning). Integer and bool inputs have no NaN and
   behave as the plain reduction (nanmean: default float). nanmax/nanmin of an empty axis is
   EMBER_ERR_SHAPE. Complex: nansum and nanmean only (NaN in either part counts as missing). */
EMBER_API ember_status_t ember_nansum(ember_ctx_t* ctx, const ember_tensor_t* x, const int64_t* axes, int naxes, int keepdims, ember_tensor_t** out);
EMBER_API ember_status_t ember_nanmean(ember_ctx_t* ctx, const ember_tensor_t* x, const int64_t* axes, int naxes, int keepdims, ember_tensor_t** out);
EMBER_API ember_status_t ember_nanmax(ember_ctx_t* ctx, const ember_tensor_t* x, const int64_t* axes, int naxes, int keepdims, ember_tensor_t** out);
EMBER_API ember_status_t ember_nanmin(ember_ctx_t* ctx, const ember_tensor_t* x, const int64_t* axes, int naxes, int keepdims, ember_tensor_t** out);

/* Weighted mean sum(x*w)/sum(w) along axis (EMBER_AXIS_NONE: all elements). weights NULL:
   the plain mean. weights has the shape of x, or (with a real axis) is 1-d of length
   x.shape[axis]. sum_of_weights (optional, may be NULL) receives sum(w) broadcast to the
   result's shape. A zero sum of weights in any slice is EMBER_ERR_INVALID_ARGUMENT (as
   numpy's ZeroDivisionError). */
EMBER_API ember_status_t ember_average(ember_ctx_t* ctx, const ember_tensor_t* x, const ember_tensor_t* weights, int64_t axis,
                                       int keepdims, ember_tensor_t** out, ember_tensor_t** sum_of_weights);

/* ---------------------------------------------------------------- counting */
/* Histogram of the flattened x with `bins` equal-width bins over [lo, hi] (the last bin
   includes hi; values outside, and NaN, are not counted). lo == hi == 0: the range is
   [min(x), max(x)] (widened by 0.5 on both sides when min == max, as numpy; a NaN or inf
   in x is then EMBER_ERR_INVALID_ARGUMENT). weights (optional, shape of x): counts become
   sums of weights in the weights' dtype; otherwise counts are int64. edges (optional, may
   be NULL) receives bins+1 float64 edges. bins < 1, lo > hi, or non-finite lo/hi is
   EMBER_ERR_INVALID_ARGUMENT. Bin assignment follows numpy (edges are exact). */
EMBER_API ember_status_t ember_histogram(ember_ctx_t* ctx, const ember_tensor_t* x, int64_t bins, double lo, double hi,
                                         const ember_tensor_t* weights, ember_tensor_t** counts, ember_tensor_t** edges);
/* Counts of each value 0..max(x) in a 1-d non-negative integer tensor, at least minlength
   long. weights (optional, shape of x): sums of weights (float64 for integer weights, else
   the weights' dtype). Negative values are EMBER_ERR_INVALID_ARGUMENT; a non-integer x is
   EMBER_ERR_UNSUPPORTED_DTYPE. Counts are int64. */
EMBER_API ember_status_t ember_bincount(ember_ctx_t* ctx, const ember_tensor_t* x, const ember_tensor_t* weights, int64_t minlength,
                                        ember_tensor_t** out);
/* Sorted unique values of the flattened x (all NaNs collapse into one, last; -0.0 == 0.0).
   Every out-parameter but values may be NULL: indices (int64) the first occurrence of
   each unique value in x, inverse (int64, shape of x) the position of each element in
   values, counts (int64) the occurrences of each value. */
EMBER_API ember_status_t ember_unique(ember_ctx_t* ctx, const ember_tensor_t* x, ember_tensor_t** values, ember_tensor_t** indices,
                                      ember_tensor_t** inverse, ember_tensor_t** counts);
/* For each element of values, the insertion index into the ascending 1-d sorted_seq that
   keeps it sorted: right == 0 ("left") the first such index, right != 0 the last. NaN
   counts as larger than every number (numpy). Result: int64 with the shape of values.
   sorted_seq must be real and 1-d; it is not checked for being sorted. */
EMBER_API ember_status_t ember_searchsorted(ember_ctx_t* ctx, const ember_tensor_t* sorted_seq, const ember_tensor_t* values,
                                            int right, ember_tensor_t** out);
/* The k largest (largest != 0) or smallest elements along axis, in order (ties: lower
   index first; NaN counts as larger than every number). values has x's dtype, indices
   (may be NULL) int64; both have x's shape with axis of length k. k < 0 or k > the axis
   length is EMBER_ERR_INVALID_ARGUMENT; complex is EMBER_ERR_UNSUPPORTED_DTYPE. */
EMBER_API ember_status_t ember_topk(ember_ctx_t* ctx, const ember_tensor_t* x, int64_t k, int64_t axis, int largest,
                                    ember_tensor_t** values, ember_tensor_t** indices);

/* ---------------------------------------------------------------- scans and differences */
/* Running maximum / minimum along axis (EMBER_AXIS_NONE: the flattened tensor). NaN
   propagates forward (numpy.maximum.accumulate). Real and bool dtypes; result dtype = x. */
EMBER_API ember_status_t ember_cummax(ember_ctx_t* ctx, const ember_tensor_t* x, int64_t axis, ember_tensor_t** out);
EMBER_API ember_status_t ember_cummin(ember_ctx_t* ctx, const ember_tensor_t* x, int64_t axis, ember_tensor_t** out);
/* n-th discrete difference along axis (numpy.diff): out[i] = x[i+1] - x[i], n times.
   bool gives x[i+1] != x[i]. n == 0 returns a copy; n < 0 is EMBER_ERR_INVALID_ARGUMENT;
   the axis shrinks by n (to 0 at least). 0-d x is EMBER_ERR_SHAPE. */
EMBER_API ember_status_t ember_diff(ember_ctx_t* ctx, const ember_tensor_t* x, int64_t n, int64_t axis, ember_tensor_t** out);
/* Finite-difference derivative along axis with uniform spacing (numpy.gradient): central
   differences inside, one-sided differences of order edge_order (1 or 2) at the ends.
   The axis needs at least edge_order + 1 points (EMBER_ERR_SHAPE otherwise); spacing must
   be finite and non-zero. Result: float. */
EMBER_API ember_status_t ember_gradient(ember_ctx_t* ctx, const ember_tensor_t* x, double spacing, int64_t axis, int edge_order,
                                        ember_tensor_t** out);

/* ---------------------------------------------------------------- covariance */
/* Covariance matrix (numpy.cov). x 1-d (one variable) or 2-d: rows are variables when
   rowvar != 0, else columns. Normalised by N - ddof (N observations); N - ddof <= 0 gives
   inf/NaN as numpy. 1-d x gives a 0-d result. Complex: uses conj (Hermitian result). */
EMBER_API ember_status_t ember_cov(ember_ctx_t* ctx, const ember_tensor_t* x, int rowvar, double ddof, ember_tensor_t** out);
/* Pearson correlation matrix: cov / sqrt(diag ⊗ diag), clipped to [-1, 1] (real inputs).
   A constant variable gives NaN in its row and column. */
EMBER_API ember_status_t ember_corrcoef(ember_ctx_t* ctx, const ember_tensor_t* x, int rowvar, ember_tensor_t** out);

/* ---------------------------------------------------------------- features */
/* (x - mean) / std over axes (NULL: all axes), std with ddof 0. Slices with std == 0
   become 0 instead of NaN. Result: float. */
EMBER_API ember_status_t ember_standardize(ember_ctx_t* ctx, const ember_tensor_t* x, const int64_t* axes, int naxes,
                                           ember_tensor_t** out);
/* x / max(||x||_p, eps) along axis (torch.nn.functional.normalize): p > 0, finite or
   INFINITY (max |x|). p <= 0 or NaN, or eps < 0, is EMBER_ERR_INVALID_ARGUMENT. */
EMBER_API ember_status_t ember_normalize(ember_ctx_t* ctx, const ember_tensor_t* x, double p, int64_t axis, double eps,
                                         ember_tensor_t** out);

/* Principal component analysis (sklearn.decomposition.PCA, full SVD solver), written over
   ember_svd; docs/numerics-stats.md describes it. x: (n_samples, n_features), real,
   n_samples >= 2; integer/bool inputs compute in the default float, float16/bfloat16 in
   float32. The data are centred by their column mean (center != 0, the PCA of sklearn;
   center == 0 analyses the raw data, as TruncatedSVD, and mean is zeros), Xc = U S Vh
   (reduced SVD), and the first n_components rows of Vh are the components
   (n_components == -1: all min(n_samples, n_features)). Sign convention (sklearn's svd_flip on Vh): each component
   is negated if needed so that its entry of largest absolute value is positive (the first
   such entry on ties), which makes the result deterministic across backends and runs.
   Outputs (each may be NULL if not wanted, but not all):
     components               (k, n_features), orthonormal rows, by decreasing variance
     explained_variance       (k,)  S^2 / (n_samples - 1)
     explained_variance_ratio (k,)  explained_variance / total variance (sum of the
                                    per-feature variances with ddof 1, i.e. ||Xc||_F^2/(n-1));
                                    NaN for constant data (0/0, as sklearn)
     mean                     (n_features,)
     singular_values          (k,)  S
   Errors: x not 2-d or n_samples < 2 is EMBER_ERR_SHAPE; n_components outside
   [1, min(n_samples, n_features)] (other than -1) is EMBER_ERR_INVALID_ARGUMENT; complex
   is EMBER_ERR_UNSUPPORTED_DTYPE; a backend without an svd kernel EMBER_ERR_UNSUPPORTED. */
EMBER_API ember_status_t ember_pca_fit(ember_ctx_t* ctx, const ember_tensor_t* x, int64_t n_components, int center, ember_tensor_t** components,
                                       ember_tensor_t** explained_variance, ember_tensor_t** explained_variance_ratio,
                                       ember_tensor_t** mean, ember_tensor_t** singular_values);
/* Projection onto fitted components: (x - mean) @ components^T, shape (n_samples, k). x
   may also be 1-d (one sample: result (k,)). whiten != 0 divides each column by
   sqrt(explained_variance) (clamped below at the dtype's epsilon, as sklearn), giving unit
   variance on the training data; explained_variance is required then and ignored (may be
   NULL) otherwise. mean may be NULL (no centring). Shapes that do not fit are
   EMBER_ERR_SHAPE. */
EMBER_API ember_status_t ember_pca_transform(ember_ctx_t* ctx, const ember_tensor_t* x, const ember_tensor_t* components,
                                             const ember_tensor_t* mean, const ember_tensor_t* explained_variance, int whiten,
                                             ember_tensor_t** out);
/* Back to feature space: y @ components + mean (whiten != 0: y @ (sqrt(explained_variance)
   * components) + mean). y: (n_samples, k) or (k,). With all components it inverts
   ember_pca_transform exactly (up to rounding); with fewer it gives the least-squares
   reconstruction from the retained subspace. */
EMBER_API ember_status_t ember_pca_inverse_transform(ember_ctx_t* ctx, const ember_tensor_t* y, const ember_tensor_t* components,
                                                     const ember_tensor_t* mean, const ember_tensor_t* explained_variance, int whiten,
                                                     ember_tensor_t** out);

/* ---------------------------------------------------------------- losses */
/* How a loss combines its per-element (or per-sample) values. */
typedef enum ember_reduction {
    EMBER_REDUCTION_NONE = 0, /* the unreduced loss tensor */
    EMBER_REDUCTION_MEAN = 1, /* mean over every element of it (empty: NaN) */
    EMBER_REDUCTION_SUM = 2   /* sum over every element of it (empty: 0) */
} ember_reduction_t;

/* Elementwise losses of y_true and y_pred (broadcast together); NONE gives the broadcast
   shape. Result dtype: promotion of both, float (integer/bool: the default float).
   mse: (p - t)^2.  mean_absolute_error: |p - t|.
   huber_loss: 0.5 d^2 if |d| <= delta else delta (|d| - delta/2), d = p - t; delta > 0.
   log_cosh: log(cosh(d)), computed as |d| + log1p(exp(-2|d|)) - log 2 (no overflow). */
EMBER_API ember_status_t ember_mse(ember_ctx_t* ctx, const ember_tensor_t* y_true, const ember_tensor_t* y_pred,
                                   ember_reduction_t reduction, ember_tensor_t** out);
EMBER_API ember_status_t ember_mean_absolute_error(ember_ctx_t* ctx, const ember_tensor_t* y_true, const ember_tensor_t* y_pred,
                                                   ember_reduction_t reduction, ember_tensor_t** out);
EMBER_API ember_status_t ember_huber_loss(ember_ctx_t* ctx, const ember_tensor_t* y_true, const ember_tensor_t* y_pred, double delta,
                                          ember_reduction_t reduction, ember_tensor_t** out);
EMBER_API ember_status_t ember_log_cosh(ember_ctx_t* ctx, const ember_tensor_t* y_true, const ember_tensor_t* y_pred,
                                        ember_reduction_t reduction, ember_tensor_t** out);
/* Elementwise binary cross-entropy -(t log p + (1 - t) log(1 - p)).
   from_logits != 0: y_pred are logits z and the loss is max(z, 0) - z t + log1p(exp(-|z|)),
   exact for any finite z. Otherwise y_pred are probabilities and each log is clamped
   below at -100 (as PyTorch), so p = 0 or 1 gives a finite loss. */
EMBER_API ember_status_t ember_binary_crossentropy(ember_ctx_t* ctx, const ember_tensor_t* y_true, const ember_tensor_t* y_pred,
                                                   int from_logits, ember_reduction_t reduction, ember_tensor_t** out);
/* Per-sample losses reduced over the class axis `axis` (NONE: the broadcast shape without it).
   categorical_crossentropy: -sum(t * log p); from_logits: log p = log_softmax(y_pred)
   (stable); else log p is clamped below at -100.
   kl_divergence: sum(t * (log t - log p)), terms with t == 0 count 0; p == 0 under t > 0
   gives inf.  cosine_similarity: sum(a b) / max(|a| |b|, eps) with eps = 1e-8 (a = y_true).
   euclidean_distance: sqrt(sum((a - b)^2)). */
EMBER_API ember_status_t ember_categorical_crossentropy(ember_ctx_t* ctx, const ember_tensor_t* y_true, const ember_tensor_t* y_pred,
                                                        int from_logits, int64_t axis, ember_reduction_t reduction,
                                                        ember_tensor_t** out);
/* Cross-entropy with integer class labels: labels has y_pred's shape without `axis`
   (y_pred: (..., C, ...)); loss = -log p[label]. A label outside [0, C) is EMBER_ERR_INDEX;
   non-integer labels are EMBER_ERR_UNSUPPORTED_DTYPE. from_logits as above. */
EMBER_API ember_status_t ember_sparse_categorical_crossentropy(ember_ctx_t* ctx, const ember_tensor_t* labels,
                                                               const ember_tensor_t* y_pred, int from_logits, int64_t axis,
                                                               ember_reduction_t reduction, ember_tensor_t** out);
EMBER_API ember_status_t ember_kl_divergence(ember_ctx_t* ctx, const ember_tensor_t* y_true, const ember_tensor_t* y_pred,
                                             int64_t axis, ember_reduction_t reduction, ember_tensor_t** out);
EMBER_API ember_status_t ember_cosine_similarity(ember_ctx_t* ctx, const ember_tensor_t* a, const ember_tensor_t* b, int64_t axis,
                                                 ember_reduction_t reduction, ember_tensor_t** out);
EMBER_API ember_status_t ember_euclidean_distance(ember_ctx_t* ctx, const ember_tensor_t* a, const ember_tensor_t* b, int64_t axis,
                                                  ember_reduction_t reduction, ember_tensor_t** out);

#endif
