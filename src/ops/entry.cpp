// C entry points derived from the op table (UNARY / BINARY / REDUCE rows) and the public
// view functions. Composite rows run their definition unless the backend overrides them.
#include <cstring>

#include "composites.hpp"
#include "dispatch.hpp"

namespace ember {

TRef run_unary(ember_ctx* ctx, OpId op, const ember_tensor* x) {
    if (op_info(op).composite && !has_backend_kernel(ctx, op)) return composite_unary(ctx, op, x);
    return elementwise(ctx, op, {x});
}

TRef run_binary(ember_ctx* ctx, OpId op, const ember_tensor* a, const ember_tensor* b) {
    return elementwise(ctx, op, {a, b});
}

TRef run_reduce(ember_ctx* ctx, OpId op, const ember_tensor* x, const int64_t* axes, int naxes, bool keepdims) {
    if (op == OP_mean) return mean_of(ctx, x, axes, naxes, keepdims);
    if (op_info(op).composite && !has_backend_kernel(ctx, op)) return composite_reduce(ctx, op, x, axes, naxes, keepdims);
    return reduce(ctx, op, x, axes, naxes, keepdims);
}

}  // namespace ember

using namespace ember;

extern "C" {

#define ENTRY_UNARY(name)                                                                        \
    EMBER_API ember_status_t ember_##name(ember_ctx_t* ctx, const ember_tensor_t* x, ember_tensor_t** out) { \
        return guard("ember_" #name, [&] {                                                       \
            check_ctx(ctx);                                                                      \
            require_arg(out, "out");                                                             \
            check_same_backend(ctx, x, "x");                                                     \
            *out = run_unary(ctx, OP_##name, x).release();                                       \
        });                                                                                      \
    }
#define ENTRY_BINARY(name)                                                                       \
    EMBER_API ember_status_t ember_##name(ember_ctx_t* ctx, const ember_tensor_t* a, const ember_tensor_t* b, \
                                          ember_tensor_t** out) {                                \
        return guard("ember_" #name, [&] {                                                       \
            check_ctx(ctx);                                                                      \
            require_arg(out, "out");                                                             \
            check_same_backend(ctx, a, "a");                                                     \
            check_same_backend(ctx, b, "b");                                                     \
            *out = run_binary(ctx, OP_##name, a, b).release();                                   \
        });                                                                                      \
    }
#define ENTRY_REDUCE(name)                                                                       \
    EMBER_API ember_status_t ember_##name(ember_ctx_t* ctx, const ember_tensor_t* x, const int64_t* axes, int naxes, \
                                          int keepdims, ember_tensor_t** out) {                  \
        return guard("ember_" #name, [&] {                                                       \
            check_ctx(ctx);                                                                      \
            require_arg(out, "out");                                                             \
            check_same_backend(ctx, x, "x");                                                     \
            *out = run_reduce(ctx, OP_##name, x, axes, naxes, keepdims != 0).release();          \
        });                                                                                      \
    }
#define ENTRY_CUSTOM(name)
#define EMBER_OP(name, sig, dtypes, kind, doc) ENTRY_##sig(name)
#include "optable.def"
#undef EMBER_OP

// ---- views
#define VIEW_ENTRY(fn, params, ...)                        \
    EMBER_API ember_status_t fn params {                   \
        return guard(#fn, [&] {                            \
            check_ctx(ctx);                                \
            require_arg(out, "out");                       \
            check_same_backend(ctx, x, "x");               \
            *out = (__VA_ARGS__).release();                \
        });                                                \
    }

VIEW_ENTRY(ember_reshape, (ember_ctx_t * ctx, const ember_tensor_t* x, const int64_t* shape, int ndim, ember_tensor_t** out),
           (check_ndim(ndim), ndim && !shape ? (raise(EMBER_ERR_INVALID_ARGUMENT, "argument 'shape' is NULL"), TRef()) : op_reshape(ctx, x, shape, ndim, true)))
VIEW_ENTRY(ember_view, (ember_ctx_t * ctx, const ember_tensor_t* x, const int64_t* shape, int ndim, ember_tensor_t** out),
           (check_ndim(ndim), ndim && !shape ? (raise(EMBER_ERR_INVALID_ARGUMENT, "argument 'shape' is NULL"), TRef()) : op_reshape(ctx, x, shape, ndim, false)))
VIEW_ENTRY(ember_permute_dims, (ember_ctx_t * ctx, const ember_tensor_t* x, const int64_t* axes, int naxes, ember_tensor_t** out),
           op_permute(x, axes, naxes))
VIEW_ENTRY(ember_transpose, (ember_ctx_t * ctx, const ember_tensor_t* x, ember_tensor_t** out), [&] {
    int64_t perm[EMBER_MAX_DIMS];
    for (int i = 0; i < x->ndim; ++i) perm[i] = x->ndim - 1 - i;
    return op_permute(x, perm, x->ndim);
}())
VIEW_ENTRY(ember_matrix_transpose, (ember_ctx_t * ctx, const ember_tensor_t* x, ember_tensor_t** out), [&] {
    if (x->ndim < 2) raise(EMBER_ERR_SHAPE, "matrix_transpose needs at least 2 dimensions, got shape %s", shape_str(x).c_str());
    return op_swapaxes(x, -1, -2);
}())
VIEW_ENTRY(ember_swapaxes, (ember_ctx_t * ctx, const ember_tensor_t* x, int64_t axis1, int64_t axis2, ember_tensor_t** out),
           op_swapaxes(x, axis1, axis2))
VIEW_ENTRY(ember_moveaxis, (ember_ctx_t * ctx, const ember_tensor_t* x, int64_t source, int64_t destination, ember_tensor_t** out), [&] {
    int64_t s = normalize_axis(source, x->ndim, "source"), d = normalize_axis(destination, x->ndim, "destination");
    Shape perm;
    for (int i = 0; i < x->ndim; ++i)
        if (i != s) perm.push_back(i);
    perm.insert(perm.begin() + d, s);
    return op_permute(x, perm.data(), x->ndim);
}())
VIEW_ENTRY(ember_expand_dims, (ember_ctx_t * ctx, const ember_tensor_t* x, int64_t axis, ember_tensor_t** out), op_expand_dims(x, axis))
VIEW_ENTRY(ember_squeeze, (ember_ctx_t * ctx, const ember_tensor_t* x, const int64_t* axes, int naxes, ember_tensor_t** out), [&] {
    uint64_t mask = 0;
    if (axes) {
        mask = axes_mask(axes, naxes, x->ndim);
    } else {
        for (int i = 0; i < x->ndim; ++i)
            if (x->shape[i] == 1) mask |= 1ull << i;
    }
    return op_squeeze_axes(x, mask);
}())
VIEW_ENTRY(ember_flatten, (ember_ctx_t * ctx, const ember_tensor_t* x, ember_tensor_t** out), op_reshape(ctx, x, {x->size}, true))
VIEW_ENTRY(ember_broadcast_to, (ember_ctx_t * ctx, const ember_tensor_t* x, const int64_t* shape, int ndim, ember_tensor_t** out),
           (check_shape(shape, ndim), op_broadcast_to(x, Shape(shape, shape + ndim))))
VIEW_ENTRY(ember_slice, (ember_ctx_t * ctx, const ember_tensor_t* x, const int64_t* start, const int64_t* stop, const int64_t* step, int n, ember_tensor_t** out),
           op_slice(x, start, stop, step, n))
VIEW_ENTRY(ember_as_strided, (ember_ctx_t * ctx, const ember_tensor_t* x, const int64_t* shape, const int64_t* strides, int ndim, int64_t offset, ember_tensor_t** out),
           op_as_strided(x, shape, strides, ndim, offset))
VIEW_ENTRY(ember_select, (ember_ctx_t * ctx, const ember_tensor_t* x, int64_t axis, int64_t index, ember_tensor_t** out), op_select(x, axis, index))
VIEW_ENTRY(ember_diagonal, (ember_ctx_t * ctx, const ember_tensor_t* x, int64_t offset, ember_tensor_t** out), op_diagonal(x, offset))
VIEW_ENTRY(ember_flip, (ember_ctx_t * ctx, const ember_tensor_t* x, const int64_t* axes, int naxes, ember_tensor_t** out), [&] {
    uint64_t mask = axes_mask(axes, naxes, x->ndim);
    TRef r = TRef::borrow(x);
    for (int i = 0; i < x->ndim; ++i)
        if (mask & (1ull << i)) r = op_slice_axis(r.get(), i, EMBER_SLICE_END, EMBER_SLICE_END, -1);
    return r;
}())
VIEW_ENTRY(ember_real, (ember_ctx_t * ctx, const ember_tensor_t* x, ember_tensor_t** out), real_or_imag(ctx, x, false))
VIEW_ENTRY(ember_imag, (ember_ctx_t * ctx, const ember_tensor_t* x, ember_tensor_t** out), real_or_imag(ctx, x, true))

}  // extern "C"

extern "C" EMBER_API ember_status_t ember_elementwise_into(ember_ctx_t* ctx, const char* op, const ember_tensor_t* const* xs, int n,
                                                      ember_tensor_t* out) {
    return guard("ember_elementwise_into", [&] {
        check_ctx(ctx);
        require_arg(op, "op");
        require_arg(xs, "xs");
        const OpId id = find_op(op);
        if (id == OP_COUNT) raise(EMBER_ERR_INVALID_ARGUMENT, "no op named '%s'", op);
        const char* sig = op_info(id).signature;
        const int arity = std::strcmp(sig, "unary") == 0 ? 1 : std::strcmp(sig, "binary") == 0 ? 2 : 0;
        if (!arity) raise(EMBER_ERR_INVALID_ARGUMENT, "'%s' is not an elementwise op (its signature is %s)", op, sig);
        if (n != arity) raise(EMBER_ERR_INVALID_ARGUMENT, "'%s' takes %d input(s), got %d", op, arity, n);
        for (int i = 0; i < n; ++i) check_same_backend(ctx, xs[i], i ? "xs[1]" : "xs[0]");
        check_same_backend(ctx, out, "out");
        check_writable(out, "out");
        if (arity == 1 && op_info(id).composite && !has_backend_kernel(ctx, id)) {
            TRef r = composite_unary(ctx, id, xs[0]);
            op_assign(ctx, out, r.get());
        } else if (arity == 1) {
            elementwise_into(ctx, id, {xs[0]}, out);
        } else {
            elementwise_into(ctx, id, {xs[0], xs[1]}, out);
        }
    });
}
