/* Ember linear algebra. Included by ember.h; conventions as in ember.h.
 *
 * Every function works on a batch: the last two axes are the matrix (M rows, N columns)
 * and any leading axes are batch axes; where two operands are taken their batch axes
 * broadcast. dtypes: float32, float64, complex64 and complex128 compute as they are;
 * integers and bool compute in the context's default float; float16 and bfloat16 compute
 * (and return) float32. Real-valued results of complex inputs (singular values, norms,
 * Hermitian eigenvalues, log|det|) have the matching real dtype.
 *
 * A singular matrix (where a solution needs an inverse), a matrix that is not positive
 * definite (cholesky), an iteration that does not converge, or non-finite input to an
 * iterative factorization returns EMBER_ERR_LINALG, and the message says which matrix of
 * the batch and why: "ember_cholesky: matrix 3 of the batch is not positive definite
 * (pivot 2)". Results are never silently NaN for these cases.
 *
 * Functions with several results fill several out-params; on failure none is touched.
 * docs/numerics-linalg.md gives the algorithms, accuracy and the kernel convention a
 * backend follows to supply the factorizations natively.
 */
#ifndef EMBER_EMBER_LINALG_H
#define EMBER_EMBER_LINALG_H

/* ---- factorizations (primitive: a backend may supply them) ---- */

/* P*A = L*U with partial pivoting. lu: (..., M, N), L strictly below the diagonal (unit
   diagonal implied) and U on and above it. pivots: int64 (..., min(M, N)), LAPACK's ipiv
   made 0-based: row i was swapped with row pivots[i], in order i = 0, 1, ...
   A singular matrix is not an error here (U has a zero on its diagonal). */
EMBER_API ember_status_t ember_lu_factor(ember_ctx_t* ctx, const ember_tensor_t* a, ember_tensor_t** lu, ember_tensor_t** pivots);
/* Solves A*X = B given lu_factor(A) (square). b: (..., N, K), or (N,) for one vector
   (then x is (..., N)). A zero on U's diagonal is EMBER_ERR_LINALG. */
EMBER_API ember_status_t ember_lu_solve(ember_ctx_t* ctx, const ember_tensor_t* lu, const ember_tensor_t* pivots,
                                        const ember_tensor_t* b, ember_tensor_t** x);
/* Cholesky factor of a Hermitian positive-definite matrix: lower L with A = L*L^H
   (upper == 0; only the lower triangle of x is read) or upper U with A = U^H*U
   (upper != 0; only the upper triangle is read). */
EMBER_API ember_status_t ember_cholesky(ember_ctx_t* ctx, const ember_tensor_t* x, int upper, ember_tensor_t** out);

typedef enum ember_qr_mode {
    EMBER_QR_REDUCED = 0,   /* Q (..., M, K), R (..., K, N), K = min(M, N) */
    EMBER_QR_COMPLETE = 1,  /* Q (..., M, M), R (..., M, N) */
    EMBER_QR_R = 2          /* R (..., K, N) only; q may be NULL and is left untouched */
} ember_qr_mode_t;
/* A = Q*R, Q with orthonormal columns, R upper triangular with a real diagonal. */
EMBER_API ember_status_t ember_qr(ember_ctx_t* ctx, const ember_tensor_t* x, ember_qr_mode_t mode, ember_tensor_t** q,
                                  ember_tensor_t** r);
/* A = U*diag(S)*Vh. full_matrices != 0: U (..., M, M), Vh (..., N, N); else U (..., M, K),
   Vh (..., K, N), K = min(M, N). S: real (..., K), descending. */
EMBER_API ember_status_t ember_svd(ember_ctx_t* ctx, const ember_tensor_t* x, int full_matrices, ember_tensor_t** u,
                                   ember_tensor_t** s, ember_tensor_t** vh);
/* Hermitian eigendecomposition A = V*diag(W)*V^H: W real (..., N) ascending, V (..., N, N)
   with orthonormal eigenvectors in its columns. upper == 0 reads only the lower triangle
   (NumPy's UPLO='L'), upper != 0 only the upper. v may be NULL (eigenvalues only). */
EMBER_API ember_status_t ember_eigh(ember_ctx_t* ctx, const ember_tensor_t* x, int upper, ember_tensor_t** w, ember_tensor_t** v);
/* General eigendecomposition A*V = V*diag(W): W and V are complex (complex64 for float32
   input), each column of V has unit 2-norm with its largest component real. Eigenvalues
   come in no particular order. v may be NULL. */
EMBER_API ember_status_t ember_eig(ember_ctx_t* ctx, const ember_tensor_t* x, ember_tensor_t** w, ember_tensor_t** v);

/* ---- written over the factorizations ---- */

/* X with A*X = B. a: (..., N, N); b: (..., N, K), or (N,) for one right-hand side (then
   x is (..., N)); batch axes broadcast. Singular A is EMBER_ERR_LINALG. */
EMBER_API ember_status_t ember_solve(ember_ctx_t* ctx, const ember_tensor_t* a, const ember_tensor_t* b, ember_tensor_t** x);
EMBER_API ember_status_t ember_inv(ember_ctx_t* ctx, const ember_tensor_t* x, ember_tensor_t** out);
/* det: (...,). A singular matrix gives 0, not an error. */
EMBER_API ember_status_t ember_det(ember_ctx_t* ctx, const ember_tensor_t* x, ember_tensor_t** out);
/* det = sign * exp(logabsdet), without overflow. sign: (...,) in the compute dtype (-1, 0
   or 1; for complex a unit phase or 0); logabsdet: real (...,), -inf for a singular matrix. */
EMBER_API ember_status_t ember_slogdet(ember_ctx_t* ctx, const ember_tensor_t* x, ember_tensor_t** sign, ember_tensor_t** logabsdet);
EMBER_API ember_status_t ember_svdvals(ember_ctx_t* ctx, const ember_tensor_t* x, ember_tensor_t** out);
EMBER_API ember_status_t ember_eigvalsh(ember_ctx_t* ctx, const ember_tensor_t* x, int upper, ember_tensor_t** out);
EMBER_API ember_status_t ember_eigvals(ember_ctx_t* ctx, const ember_tensor_t* x, ember_tensor_t** out);

/* Least squares: x minimising ||A*x - B||_2 (the minimum-norm one when A is rank
   deficient), by SVD. a: (..., M, N); b: (..., M, K), or (M,) (then x is (..., N)).
   Singular values at or below rcond * largest are treated as zero; rcond < 0 means
   eps(dtype) * max(M, N). Optional results (pass NULL to skip):
     residuals  real (..., K) (K = 1 for a vector b): squared 2-norms of the columns of
                A*x - B, when M > N and every matrix has rank N; otherwise shape (0,)
     rank       int64 (...,)
     sv         real (..., min(M, N)), descending */
EMBER_API ember_status_t ember_lstsq(ember_ctx_t* ctx, const ember_tensor_t* a, const ember_tensor_t* b, double rcond,
                                     ember_tensor_t** x, ember_tensor_t** residuals, ember_tensor_t** rank,
                                     ember_tensor_t** sv);
/* Pseudo-inverse (..., N, M) by SVD; singular values at or below max(atol, rtol * largest)
   are dropped. rtol < 0 means eps(dtype) * max(M, N) when atol is 0, else 0. */
EMBER_API ember_status_t ember_pinv(ember_ctx_t* ctx, const ember_tensor_t* x, double atol, double rtol, ember_tensor_t** out);
/* int64 (...,): singular values above max(atol, rtol * largest); rtol < 0 as for pinv. */
EMBER_API ember_status_t ember_matrix_rank(ember_ctx_t* ctx, const ember_tensor_t* x, double atol, double rtol, ember_tensor_t** out);
/* x^n for a square matrix: n = 0 gives the identity, n < 0 the inverse's power (float).
   n >= 0 keeps x's dtype (integers included). */
EMBER_API ember_status_t ember_matrix_power(ember_ctx_t* ctx, const ember_tensor_t* x, int64_t n, ember_tensor_t** out);

typedef enum ember_matrix_norm_ord {
    EMBER_NORM_FRO = 0,      /* sqrt(sum |a_ij|^2), overflow-safe */
    EMBER_NORM_NUC = 1,      /* sum of singular values */
    EMBER_NORM_1 = 2,        /* max column sum of |a_ij| */
    EMBER_NORM_NEG_1 = 3,    /* min column sum */
    EMBER_NORM_2 = 4,        /* largest singular value */
    EMBER_NORM_NEG_2 = 5,    /* smallest singular value */
    EMBER_NORM_INF = 6,      /* max row sum */
    EMBER_NORM_NEG_INF = 7   /* min row sum */
} ember_matrix_norm_ord_t;
/* Norm over the last two axes; real result (...,), or (..., 1, 1) with keepdims. */
EMBER_API ember_status_t ember_matrix_norm(ember_ctx_t* ctx, const ember_tensor_t* x, ember_matrix_norm_ord_t ord, int keepdims,
                                           ember_tensor_t** out);
/* (sum |x|^ord)^(1/ord) over axes (NULL: all). ord = INFINITY: max |x|; -INFINITY: min |x|;
   0: number of non-zero elements (as a float). Real result. */
EMBER_API ember_status_t ember_vector_norm(ember_ctx_t* ctx, const ember_tensor_t* x, double ord, const int64_t* axes, int naxes,
                                           int keepdims, ember_tensor_t** out);
/* numpy.linalg.norm. ord: NULL (default), "fro", "nuc", or a number as text ("2", "-1",
   "inf", "-inf", "0.5"). axes NULL: ord NULL gives the 2-norm of the flattened x, else x
   must be 1-d (vector norm) or 2-d (matrix norm). One axis: vector norm (default 2);
   two axes: matrix norm over them (default "fro"; numbers 1, -1, 2, -2, inf, -inf). */
EMBER_API ember_status_t ember_norm(ember_ctx_t* ctx, const ember_tensor_t* x, const char* ord, const int64_t* axes, int naxes,
                                    int keepdims, ember_tensor_t** out);

/* Cross product of 3-vectors along axis (of the broadcast shape); both inputs must have
   length 3 there. Keeps the promoted dtype (integers stay integers). */
EMBER_API ember_status_t ember_cross(ember_ctx_t* ctx, const ember_tensor_t* a, const ember_tensor_t* b, int64_t axis, ember_tensor_t** out);
/* Kronecker product (numpy.kron): the operand with fewer axes gets leading length-1 axes. */
EMBER_API ember_status_t ember_kron(ember_ctx_t* ctx, const ember_tensor_t* a, const ember_tensor_t* b, ember_tensor_t** out);
/* xs[0] @ xs[1] @ ... in the cheapest association order. n >= 2; the first may be 1-d (a
   row vector) and the last 1-d (a column vector); the others are 2-d. */
EMBER_API ember_status_t ember_multi_dot(ember_ctx_t* ctx, const ember_tensor_t* const* xs, int n, ember_tensor_t** out);
/* Matrix exponential of a square matrix. */
EMBER_API ember_status_t ember_expm(ember_ctx_t* ctx, const ember_tensor_t* x, ember_tensor_t** out);
/* numpy.diag: a 1-d x gives a square matrix with x on diagonal k; a 2-d x gives a copy of
   its diagonal k (1-d). Any dtype. */
EMBER_API ember_status_t ember_diag(ember_ctx_t* ctx, const ember_tensor_t* x, int64_t k, ember_tensor_t** out);
/* Batched build: x (..., n) gives (..., n + |k|, n + |k|) with x on diagonal k, zeros
   elsewhere (the inverse of ember_diagonal). */
EMBER_API ember_status_t ember_diag_embed(ember_ctx_t* ctx, const ember_tensor_t* x, int64_t k, ember_tensor_t** out);

#endif
