// Shared helpers of the linear-algebra family (src/ops/linalg*.cpp). Internal.
#pragma once

#include <string>

#include "composites.hpp"

namespace ember {
namespace la {

// The family's dtype rule: float32/64 and complex64/128 compute as they are, integers and
// bool in the context's default float, float16/bfloat16 in float32.
ember_dtype_t compute_dtype(const ember_ctx* ctx, ember_dtype_t d);
TRef to_compute(ember_ctx* ctx, const ember_tensor* x);
double eps_of(ember_dtype_t d);  // machine epsilon of a float or complex dtype
bool read_bool(const ember_tensor* t);  // a 0-d bool's value, read back from the backend

void need_matrix(const ember_tensor* x, const char* name);  // ndim >= 2
void need_square(const ember_tensor* x, const char* name);  // ndim >= 2, last two equal
Shape batch_of(const ember_tensor* x);                      // all but the last two axes
Shape with(Shape s, std::initializer_list<int64_t> tail);

// "the matrix", "matrix 3 of the batch", "matrix (1, 0) of the batch".
std::string where_in_batch(const Shape& batch, int64_t flat);
// Reads a (batch-shaped, int64) info tensor; raises EMBER_ERR_LINALG with what(where, code)
// for the first non-zero entry.
template <class F>
void check_info(const ember_tensor* info, const Shape& batch, F&& what);
// Raises EMBER_ERR_LINALG naming the first matrix with a NaN or infinity (only the lower
// (tri = -1) or upper (tri = 1) triangle when tri != 0).
void check_finite(ember_ctx* ctx, const ember_tensor* x, int tri = 0);

TRef mh(ember_ctx* ctx, const ember_tensor* x);  // conjugate transpose of the last two axes
TRef eye_batch(ember_ctx* ctx, const Shape& batch, int64_t m, int64_t n, ember_dtype_t dtype);
TRef max_last(ember_ctx* ctx, const ember_tensor* x, bool keepdims);  // max over axis -1
TRef sum_axes(ember_ctx* ctx, const ember_tensor* x, std::initializer_list<int64_t> axes, bool keepdims);

// Factorizations on tensors already in a compute dtype (they run the primitive slots).
struct LU {
    TRef lu, pivots, info;
};
LU lu_factor(ember_ctx* ctx, const ember_tensor* a);
// a (..., n, n); b (..., n, k) in the same dtype; batch axes broadcast. No singularity check.
TRef lu_solve(ember_ctx* ctx, const ember_tensor* lu, const ember_tensor* pivots, const ember_tensor* b);
// Solve with a singularity check (A in a compute dtype, B a matrix of the same dtype).
// try_kernel false skips the backend's solve kernel (the caller's own kernel just failed).
TRef solve_matrix(ember_ctx* ctx, const ember_tensor* a, const ember_tensor* b, bool try_kernel = true);
struct SVD {
    TRef u, s, vh;
};
SVD svd(ember_ctx* ctx, const ember_tensor* a, bool full_matrices, bool compute_uv);

// Tolerance rule of pinv / matrix_rank: max(atol, rtol * smax), rtol < 0 meaning the default.
TRef sv_cutoff(ember_ctx* ctx, const ember_tensor* s, double atol, double rtol, int64_t m, int64_t n);

TRef vector_norm(ember_ctx* ctx, const ember_tensor* x, double ord, const int64_t* axes, int naxes, bool keepdims);

// ---- template definitions
std::string info_where(const Shape& batch, const std::vector<int64_t>& info, int64_t* code);
template <class F>
void check_info(const ember_tensor* info, const Shape& batch, F&& what) {
    if (info->size == 0) return;
    std::vector<int64_t> v((size_t)info->size);
    read_contiguous(info, v.data(), v.size() * sizeof(int64_t));
    int64_t code = 0;
    std::string where = info_where(batch, v, &code);
    if (code) raise(EMBER_ERR_LINALG, "%s", what(where, code).c_str());
}

}  // namespace la
}  // namespace ember
