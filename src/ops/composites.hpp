// Composite ops: written once over other ops (src/ops/composites*.cpp).
#pragma once

#include "dispatch.hpp"

namespace ember {

TRef composite_unary(ember_ctx* ctx, OpId op, const ember_tensor* x);
TRef composite_reduce(ember_ctx* ctx, OpId op, const ember_tensor* x, const int64_t* axes, int naxes, bool keepdims);
// The dtype means, variances and covariances are computed in for an input of dtype input
// and a float compute dtype: float32 for the half types, float64 for 32- and 64-bit
// integers (the result is rounded to compute once), else compute.
ember_dtype_t stats_work_dtype(ember_dtype_t input, ember_dtype_t compute);
// The mean on every backend: its override where it binds one, else sum / count. 32- and
// 64-bit integers in float64 either way, rounded once to the result dtype.
TRef mean_of(ember_ctx* ctx, const ember_tensor* x, const int64_t* axes, int naxes, bool keepdims);
TRef real_or_imag(ember_ctx* ctx, const ember_tensor* x, bool imag);
// A COMPOSITE_KERNEL row whose backend binds a kernel: x in, a fresh contiguous output of
// dtype and shape out (not run when it is empty).
TRef custom_kernel(ember_ctx* ctx, OpId op, const ember_tensor* x, ember_dtype_t dtype, const Shape& shape, const ember_attrs_t& attrs);
// The same for an elementwise row (gelu, leaky_relu): the result keeps x's dense layout.
TRef elementwise_custom_kernel(ember_ctx* ctx, OpId op, const ember_tensor* x, ember_dtype_t dtype, const ember_attrs_t& attrs);
// A reduction's COMPOSITE_KERNEL (var, std, nansum, ...): x in; out, a fresh contiguous
// tensor of dtype and x's kept shape, and info, an int64 scalar the kernel sets nonzero to
// decline the call. The result, or an empty TRef where the backend binds no kernel or it
// declined (the caller then runs the composite). attrs.axes_mask is set here.
TRef reduction_kernel(ember_ctx* ctx, OpId op, const ember_tensor* x, const int64_t* axes, int naxes, bool keepdims, ember_attrs_t attrs, ember_dtype_t dtype);
// A COMPOSITE_KERNEL that may decline its call: runs it with outputs out and info (an int64
// scalar set to 0 first); true where it computed out, false where it set info nonzero.
bool declinable_kernel(ember_ctx* ctx, OpId op, std::initializer_list<ember_view_t> in, ember_tensor* out, const ember_attrs_t& attrs);
TRef weak_i64(ember_ctx* ctx, int64_t v);
// x != 0 as a bool tensor. A bool x is its own mask: comparing it with the integer 0 would
// first widen it to int64 (bool and a weak integer promote to int64).
TRef nonzero_mask(ember_ctx* ctx, const ember_tensor* x);
TRef run_unary(ember_ctx* ctx, OpId op, const ember_tensor* x);
TRef run_binary(ember_ctx* ctx, OpId op, const ember_tensor* a, const ember_tensor* b);
TRef run_reduce(ember_ctx* ctx, OpId op, const ember_tensor* x, const int64_t* axes, int naxes, bool keepdims);

// sum(conj(a) * b) along axis, a and b broadcast (ember_vecdot without its argument checks).
TRef vecdot_of(ember_ctx* ctx, const ember_tensor* a, const ember_tensor* b, int64_t axis);

// Dots along a last axis shorter than these are a product (a square) and a sum over short
// rows, not a batch of (1, K) @ (K, 1) matmuls, whose per-product cost dominates them: on
// the cpu backend a million vecdots of 3 float32s 6.6 -> 3.3-4.0 ms, 2-norms 15 -> 2.8 ms,
// but vecdots of 8 2.9 -> 4.0-4.6 ms where norms of 8 and 15 still gained 2-3x.
constexpr int64_t kShortDot = 8, kShortNorm = 16;

// Short spellings used inside composites.
inline TRef un(ember_ctx* c, OpId op, const TRef& x) { return run_unary(c, op, x.get()); }
inline TRef bin(ember_ctx* c, OpId op, const TRef& a, const TRef& b) { return run_binary(c, op, a.get(), b.get()); }

}  // namespace ember
