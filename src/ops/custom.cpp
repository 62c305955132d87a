// Primitive ops with their own signatures: shape logic here, the work in a kernel.
#include <algorithm>
#include <cmath>

#include "composites.hpp"

namespace ember {

namespace {

TRef as_index(ember_ctx* ctx, const ember_tensor* idx, const char* what) {
    if (!is_integer(idx->dtype)) raise(EMBER_ERR_UNSUPPORTED_DTYPE, "%s must have an integer dtype, got %s", what, dtype_name(idx->dtype));
    return cast_if(ctx, idx, EMBER_INT64);
}

TRef flat(ember_ctx* ctx, const ember_tensor* x) { return op_reshape(ctx, x, {x->size}, true); }
}  // namespace

TRef op_where(ember_ctx* ctx, const ember_tensor* c, const ember_tensor* a, const ember_tensor* b) {
    ember_dtype_t dt = promote(a->dtype, a->weak, b->dtype, b->weak, ctx->default_float);
    Shape shape = broadcast_shapes(broadcast_shapes(shape_of(c), shape_of(a)), shape_of(b));
    TRef out = alloc_elementwise_result(ctx, dt, shape.data(), (int)shape.size(), {c, a, b});
    out->weak = a->weak && b->weak;
    if (!out->size) return out;
    TRef cc = cast_if(ctx, c, EMBER_BOOL), ac = cast_if(ctx, a, dt), bc = cast_if(ctx, b, dt);
    int64_t s0[EMBER_MAX_DIMS], s1[EMBER_MAX_DIMS], s2[EMBER_MAX_DIMS];
    OutputOrder order(out.get());
    run_kernel(ctx, OP_where,
               {order(broadcast_view(cc.get(), shape, s0)), order(broadcast_view(ac.get(), shape, s1)), order(broadcast_view(bc.get(), shape, s2))},
               {order(view_of(out.get()))});
    return out;
}

TRef op_matmul(ember_ctx* ctx, const ember_tensor* a, const ember_tensor* b) {
    if (a->ndim == 0 || b->ndim == 0) raise(EMBER_ERR_SHAPE, "matmul needs at least 1-d operands, got shapes %s and %s", shape_str(a).c_str(), shape_str(b).c_str());
    ember_dtype_t dt = promote(a->dtype, a->weak, b->dtype, b->weak, ctx->default_float);
    if (dt == EMBER_BOOL) raise(EMBER_ERR_UNSUPPORTED_DTYPE, "matmul is not defined for dtype bool");
    TRef A = a->ndim == 1 ? op_expand_dims(a, 0) : TRef::borrow(a);
    TRef B = b->ndim == 1 ? op_expand_dims(b, 1) : TRef::borrow(b);
    int64_t m = A->shape[A->ndim - 2], k = A->shape[A->ndim - 1], k2 = B->shape[B->ndim - 2], n = B->shape[B->ndim - 1];
    if (k != k2) raise(EMBER_ERR_SHAPE, "shapes %s and %s are not aligned: %lld (dim %d) != %lld (dim %d)", shape_str(a).c_str(), shape_str(b).c_str(),
                       (long long)k, a->ndim - 1, (long long)k2, std::max(b->ndim - 2, 0));
    // Shapes in arrays, not vectors: for small operands the heap traffic of six shape
    // vectors and a final reshape cost half the call (4 x 4 float32: 5060 instructions).
    int nb = A->ndim - 2;
    int64_t oshape[EMBER_MAX_DIMS], ashape[EMBER_MAX_DIMS], bshape[EMBER_MAX_DIMS];
    std::copy(A->shape, A->shape + nb, oshape);
    broadcast_into(oshape, nb, B->shape, B->ndim - 2);  // the batch dims (at most 14 each)
    std::copy(oshape, oshape + nb, ashape);
    std::copy(oshape, oshape + nb, bshape);
    oshape[nb] = m, oshape[nb + 1] = n;
    ashape[nb] = m, ashape[nb + 1] = k;
    bshape[nb] = k, bshape[nb + 1] = n;
    TRef out = alloc_tensor(ctx, dt, oshape, nb + 2);
    if (out->size) {
        if (k == 0) {
            TRef z = scalar_like(ctx, 0, dt);
            op_assign(ctx, out.get(), z.get());
        } else {
            TRef Ac = cast_if(ctx, A.get(), dt), Bc = cast_if(ctx, B.get(), dt);
            int64_t sa[EMBER_MAX_DIMS], sb[EMBER_MAX_DIMS];
            run_kernel(ctx, OP_matmul, {broadcast_view(Ac.get(), ashape, nb + 2, sa), broadcast_view(Bc.get(), bshape, nb + 2, sb)},
                       {view_of(out.get())});
        }
    }
    if (a->ndim > 1 && b->ndim > 1) return out;
    Shape final_shape(oshape, oshape + nb);  // a vector operand's dim leaves the result
    if (a->ndim > 1) final_shape.push_back(m);
    if (b->ndim > 1) final_shape.push_back(n);
    return op_reshape(ctx, out.get(), final_shape, false);
}

TRef op_arange(ember_ctx* ctx, double start, double step, int64_t n, ember_dtype_t dtype) {
    TRef out = alloc_tensor(ctx, dtype, {n});
    if (n) {
        ember_attrs_t at{};
        at.f[0] = start;
        at.f[1] = step;
        run_kernel(ctx, OP_arange, {}, {view_of(out.get())}, at);
    }
    return out;
}

TRef op_argreduce(ember_ctx* ctx, OpId op, const ember_tensor* x, int64_t axis, bool keepdims) {
    if (is_complex(x->dtype)) raise(EMBER_ERR_UNSUPPORTED_DTYPE, "%s is not defined for dtype %s", op_info(op).name, dtype_name(x->dtype));
    TRef src = TRef::borrow(x);
    int64_t a;
    if (axis == EMBER_AXIS_NONE) {
        src = flat(ctx, x);
        a = 0;
    } else {
        a = normalize_axis(axis, x->ndim);
    }
    if (src->shape[a] == 0) raise(EMBER_ERR_SHAPE, "%s of an empty axis (shape %s)", op_info(op).name, shape_str(x).c_str());
    Shape keep = shape_of(src.get());
    keep[a] = 1;
    TRef out = alloc_tensor(ctx, EMBER_INT64, keep);
    if (out->size) run_kernel(ctx, op, {view_of(src.get())}, {view_of(out.get())}, attrs_i(a));
    if (keepdims) {
        if (axis == EMBER_AXIS_NONE) return op_reshape(ctx, out.get(), Shape(x->ndim, 1), false);
        return out;
    }
    return op_squeeze_axes(out.get(), 1ull << a);
}

TRef op_scan(ember_ctx* ctx, OpId op, const ember_tensor* x, int64_t axis) {
    TRef src = TRef::borrow(x);
    int64_t a;
    if (axis == EMBER_AXIS_NONE || x->ndim == 0) {
        src = flat(ctx, x);
        a = 0;
    } else {
        a = normalize_axis(axis, x->ndim);
    }
    DtypePlan plan = plan_dtypes(OP_sum, x->dtype, ctx->default_float);
    TRef xc = cast_if(ctx, src.get(), plan.compute);
    TRef out = alloc_tensor(ctx, plan.result, shape_of(xc.get()));
    if (out->size) run_kernel(ctx, op, {view_of(xc.get())}, {view_of(out.get())}, attrs_i(a));
    return out;
}

}  // namespace ember

using namespace ember;

extern "C" {

ENTRY(ember_astype, (ember_ctx_t * ctx, const ember_tensor_t* x, ember_dtype_t dtype, ember_tensor_t** out), {
    check_x_entry(ctx, x, out);
    if (!is_valid_dtype(dtype)) raise(EMBER_ERR_INVALID_ARGUMENT, "invalid dtype %d", (int)dtype);
    *out = op_astype(ctx, x, dtype, true).release();
})

ENTRY(ember_where, (ember_ctx_t * ctx, const ember_tensor_t* cond, const ember_tensor_t* a, const ember_tensor_t* b, ember_tensor_t** out), {
    check_ctx(ctx);
    require_arg(out, "out");
    check_same_backend(ctx, cond, "cond");
    check_same_backend(ctx, a, "a");
    check_same_backend(ctx, b, "b");
    *out = op_where(ctx, cond, a, b).release();
})

ENTRY(ember_argmax, (ember_ctx_t * ctx, const ember_tensor_t* x, int64_t axis, int keepdims, ember_tensor_t** out), {
    check_x_entry(ctx, x, out);
    *out = op_argreduce(ctx, OP_argmax, x, axis, keepdims != 0).release();
})
ENTRY(ember_argmin, (ember_ctx_t * ctx, const ember_tensor_t* x, int64_t axis, int keepdims, ember_tensor_t** out), {
    check_x_entry(ctx, x, out);
    *out = op_argreduce(ctx, OP_argmin, x, axis, keepdims != 0).release();
})
ENTRY(ember_cumsum, (ember_ctx_t * ctx, const ember_tensor_t* x, int64_t axis, ember_tensor_t** out), {
    check_x_entry(ctx, x, out);
    *out = op_scan(ctx, OP_cumsum, x, axis).release();
})
ENTRY(ember_cumprod, (ember_ctx_t * ctx, const ember_tensor_t* x, int64_t axis, ember_tensor_t** out), {
    check_x_entry(ctx, x, out);
    *out = op_scan(ctx, OP_cumprod, x, axis).release();
})

ENTRY(ember_take, (ember_ctx_t * ctx, const ember_tensor_t* x, const ember_tensor_t* indices, int64_t axis, ember_tensor_t** out), {
    check_x_entry(ctx, x, out);
    check_same_backend(ctx, indices, "indices");
    TRef src = axis == EMBER_AXIS_NONE ? flat(ctx, x) : TRef::borrow(x);
    int64_t a = axis == EMBER_AXIS_NONE ? 0 : normalize_axis(axis, x->ndim);
    TRef idx = as_index(ctx, indices, "indices");
    if (src->ndim + idx->ndim - 1 > EMBER_MAX_DIMS) raise(EMBER_ERR_SHAPE, "result would have more than %d dimensions", EMBER_MAX_DIMS);
    Shape shape(src->shape, src->shape + a);
    shape.insert(shape.end(), idx->shape, idx->shape + idx->ndim);
    shape.insert(shape.end(), src->shape + a + 1, src->shape + src->ndim);
    if (src->shape[a] == 0 && idx->size) raise(EMBER_ERR_INDEX, "cannot take from an empty axis");
    TRef r = alloc_tensor(ctx, x->dtype, shape);
    if (r->size) run_kernel(ctx, OP_take, {view_of(src.get()), view_of(idx.get())}, {view_of(r.get())}, attrs_i(a));
    *out = r.release();
})

ENTRY(ember_take_along_axis, (ember_ctx_t * ctx, const ember_tensor_t* x, const ember_tensor_t* indices, int64_t axis, ember_tensor_t** out), {
    check_x_entry(ctx, x, out);
    check_same_backend(ctx, indices, "indices");
    if (indices->ndim != x->ndim) raise(EMBER_ERR_SHAPE, "indices have %d dimensions but x has %d", indices->ndim, x->ndim);
    int64_t a = normalize_axis(axis, x->ndim);
    TRef idx = as_index(ctx, indices, "indices");
    Shape shape(x->ndim), xshape(x->ndim);
    for (int d = 0; d < x->ndim; ++d) {
        if (d == a) {
            shape[d] = idx->shape[d];
            xshape[d] = x->shape[d];
            continue;
        }
        int64_t p = x->shape[d], q = idx->shape[d];
        if (p != q && p != 1 && q != 1) raise(EMBER_ERR_SHAPE, "shapes %s and %s do not broadcast outside axis %lld", shape_str(x).c_str(), shape_str(indices).c_str(), (long long)a);
        shape[d] = xshape[d] = p == 1 ? q : p;
    }
    if (x->shape[a] == 0 && idx->size) raise(EMBER_ERR_INDEX, "cannot take from an empty axis");
    TRef r = alloc_tensor(ctx, x->dtype, shape);
    if (r->size) {
        int64_t sx[EMBER_MAX_DIMS], si[EMBER_MAX_DIMS];
        run_kernel(ctx, OP_take_along_axis, {broadcast_view(x, xshape, sx), broadcast_view(idx.get(), shape, si)}, {view_of(r.get())}, attrs_i(a));
    }
    *out = r.release();
})

ENTRY(ember_scatter, (ember_ctx_t * ctx, const ember_tensor_t* src, const ember_tensor_t* index, int64_t axis, int64_t dim_size, ember_scatter_reduce_t reduce, ember_tensor_t** out), {
    check_ctx(ctx);
    require_arg(out, "out");
    check_same_backend(ctx, src, "src");
    check_same_backend(ctx, index, "index");
    if ((int)reduce < 0 || (int)reduce > EMBER_SCATTER_REPLACE) raise(EMBER_ERR_INVALID_ARGUMENT, "unknown scatter reduction %d", (int)reduce);
    int64_t a = normalize_axis(axis, src->ndim);
    if (index->ndim != 1 || index->shape[0] != src->shape[a])
        raise(EMBER_ERR_SHAPE, "index must be 1-d with length %lld (src.shape[%lld]), got shape %s", (long long)src->shape[a], (long long)a, shape_str(index).c_str());
    TRef idx = as_index(ctx, index, "index");
    if (dim_size < 0) {
        dim_size = 0;
        if (idx->size) {
            TRef m = ember::reduce(ctx, OP_max, idx.get(), nullptr, 0, false);
            int64_t v;
            read_contiguous(m.get(), &v, sizeof v);
            dim_size = std::max<int64_t>(0, v + 1);
        }
    }
    Shape shape = shape_of(src);
    shape[a] = dim_size;
    TRef r = alloc_tensor(ctx, src->dtype, shape);
    if (r->size || src->size) {
        if (!r->size && src->size) raise(EMBER_ERR_INDEX, "dim_size 0 cannot receive %lld slices", (long long)src->shape[a]);
        run_kernel(ctx, OP_scatter, {view_of(src), view_of(idx.get())}, {view_of(r.get())}, attrs_i(a, reduce));
    }
    *out = r.release();
})

ENTRY(ember_nonzero, (ember_ctx_t * ctx, const ember_tensor_t* x, ember_tensor_t** out), {
    check_x_entry(ctx, x, out);
    TRef cnt = run_reduce(ctx, OP_count_nonzero, x, nullptr, 0, false);
    int64_t count;
    read_contiguous(cnt.get(), &count, sizeof count);
    TRef r = alloc_tensor(ctx, EMBER_INT64, {count, (int64_t)x->ndim});
    if (r->size) run_kernel(ctx, OP_nonzero, {view_of(x)}, {view_of(r.get())});
    *out = r.release();
})

static TRef sort_impl(ember_ctx* ctx, OpId op, const ember_tensor* x, int64_t axis, int descending) {
    if (x->ndim == 0) raise(EMBER_ERR_SHAPE, "%s needs at least one dimension", op_info(op).name);
    int64_t a = normalize_axis(axis, x->ndim);
    TRef r = alloc_tensor(ctx, op == OP_sort ? x->dtype : EMBER_INT64, shape_of(x));
    if (r->size) run_kernel(ctx, op, {view_of(x)}, {view_of(r.get())}, attrs_i(a, descending != 0));
    return r;
}

ENTRY(ember_sort, (ember_ctx_t * ctx, const ember_tensor_t* x, int64_t axis, int descending, ember_tensor_t** out), {
    check_x_entry(ctx, x, out);
    *out = sort_impl(ctx, OP_sort, x, axis, descending).release();
})
ENTRY(ember_argsort, (ember_ctx_t * ctx, const ember_tensor_t* x, int64_t axis, int descending, ember_tensor_t** out), {
    check_x_entry(ctx, x, out);
    *out = sort_impl(ctx, OP_argsort, x, axis, descending).release();
})

ENTRY(ember_matmul, (ember_ctx_t * ctx, const ember_tensor_t* a, const ember_tensor_t* b, ember_tensor_t** out), {
    check_ctx(ctx);
    require_arg(out, "out");
    check_same_backend(ctx, a, "a");
    check_same_backend(ctx, b, "b");
    *out = op_matmul(ctx, a, b).release();
})

ENTRY(ember_arange, (ember_ctx_t * ctx, double start, double stop, double step, int dtype, ember_tensor_t** out), {
    check_ctx(ctx);
    require_arg(out, "out");
    if (step == 0 || !std::isfinite(step) || !std::isfinite(start) || !std::isfinite(stop))
        raise(EMBER_ERR_INVALID_ARGUMENT, "start, stop and step must be finite and step non-zero (got %g, %g, %g)", start, stop, step);
    bool integral = start == std::floor(start) && stop == std::floor(stop) && step == std::floor(step);
    ember_dtype_t dt = resolve_dtype_arg(ctx, dtype, integral ? EMBER_INT64 : ctx->default_float);
    double n = std::ceil((stop - start) / step);
    if (n > 1e15) raise(EMBER_ERR_OUT_OF_MEMORY, "arange would have %g elements", n);
    *out = op_arange(ctx, start, step, n > 0 ? (int64_t)n : 0, dt).release();
})

}  // extern "C"
