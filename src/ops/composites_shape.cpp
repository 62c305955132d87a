// Composite creation, manipulation and linear-algebra ops, written over views, astype
// (assign), take and matmul.
#include <algorithm>
#include <cmath>

#include "composites.hpp"

namespace ember {

namespace {
// Fills a fresh tensor, which owns its whole storage, with value: zeros of up to
// kSmallZeroBytes as one write of zero bytes over the storage (every dtype's zero is all
// zero bits; -0.0 is not), else assign from a weak scalar. The weak scalar (an allocation
// and a write) and the assign's dispatch took ember_zeros of 10 float32 to 227 ns, against
// ember_empty's 85.
constexpr size_t kSmallZeroBytes = 256;
void fill_fresh(ember_ctx* ctx, const TRef& out, double value) {
    if (!out->size) return;
    const size_t nbytes = out->storage->nbytes;
    if (value == 0 && !std::signbit(value) && nbytes <= kSmallZeroBytes) {
        static const unsigned char zero_bytes[kSmallZeroBytes] = {};
        Backend* b = out->storage->backend;
        ember_status_t st = b->iface->write(b->state, out->storage->device, out->storage->buffer, 0, zero_bytes, nbytes);
        if (st != EMBER_OK) raise(st, "writing zeros to backend '%s' failed", b->name.c_str());
        return;
    }
    op_assign(ctx, out.get(), weak_f64(ctx, value).get());
}
}  // namespace

TRef op_full(ember_ctx* ctx, const Shape& shape, double value, ember_dtype_t dtype) {
    TRef out = alloc_tensor(ctx, dtype, shape);
    fill_fresh(ctx, out, value);
    return out;
}

namespace {
// The *_like creators keep x's dense layout, as NumPy's (order='K') do and as elementwise
// results do: zeros_like(a.T) is a transpose, ready for a.T's elementwise partners.
TRef full_like(ember_ctx* ctx, const ember_tensor* x, double value, ember_dtype_t dtype) {
    TRef out = alloc_elementwise_result(ctx, dtype, x->shape, x->ndim, {x});
    fill_fresh(ctx, out, value);
    return out;
}
}  // namespace

TRef op_concat(ember_ctx* ctx, const std::vector<const ember_tensor*>& xs, int64_t axis) {
    if (xs.empty()) raise(EMBER_ERR_INVALID_ARGUMENT, "needs at least one tensor");
    const ember_tensor* first = xs[0];
    if (first->ndim == 0) raise(EMBER_ERR_SHAPE, "cannot concatenate 0-d tensors");
    int64_t a = normalize_axis(axis, first->ndim);
    ember_dtype_t dt = first->dtype;
    bool weak = first->weak;
    Shape shape = shape_of(first);
    shape[a] = 0;
    for (size_t i = 0; i < xs.size(); ++i) {
        const ember_tensor* x = xs[i];
        if (x->ndim != first->ndim) raise(EMBER_ERR_SHAPE, "tensor %zu has %d dimensions, tensor 0 has %d", i, x->ndim, first->ndim);
        for (int d = 0; d < x->ndim; ++d)
            if (d != a && x->shape[d] != first->shape[d])
                raise(EMBER_ERR_SHAPE, "tensor %zu has shape %s, incompatible with %s outside axis %lld", i, shape_str(x).c_str(), shape_str(first).c_str(), (long long)a);
        if (i) dt = promote(dt, weak, x->dtype, x->weak, ctx->default_float);
        weak = weak && x->weak;
        shape[a] += x->shape[a];
    }
    TRef out = alloc_tensor(ctx, dt, shape);
    int64_t pos = 0;
    for (const ember_tensor* x : xs) {
        if (x->shape[a]) {
            TRef dst = op_slice_axis(out.get(), a, pos, pos + x->shape[a], 1);
            op_assign(ctx, dst.get(), x);
        }
        pos += x->shape[a];
    }
    return out;
}

namespace {

// x shifted cyclically by shift[d] along each axis d, as at most two block copies per
// shifted axis: building an index tensor and gathering took 41 ms for 4M float32 elements,
// these copies 0.5 ms.
void copy_rolled(ember_ctx* ctx, ember_tensor* dst, const ember_tensor* src, const std::vector<int64_t>& shift, int axis) {
    while (axis < src->ndim && shift[(size_t)axis] % src->shape[axis] == 0) ++axis;
    if (axis == src->ndim) {
        op_assign(ctx, dst, src);
        return;
    }
    const int64_t len = src->shape[axis], s = ((shift[(size_t)axis] % len) + len) % len;
    copy_rolled(ctx, op_slice_axis(dst, axis, s, len, 1).get(), op_slice_axis(src, axis, 0, len - s, 1).get(), shift, axis + 1);
    copy_rolled(ctx, op_slice_axis(dst, axis, 0, s, 1).get(), op_slice_axis(src, axis, len - s, len, 1).get(), shift, axis + 1);
}

}  // namespace

// At most kRollAxes shifted axes per pass (2^kRollAxes blocks), the rest in further passes:
// 16 shifted axes of length 2 would be 65536 one-element copies at once.
constexpr int kRollAxes = 4;
TRef op_roll(ember_ctx* ctx, const ember_tensor* x, const std::vector<int64_t>& shift) {
    std::vector<int64_t> now(shift.size(), 0), later(shift.size(), 0);
    int taken = 0;
    bool more = false;
    for (size_t d = 0; d < shift.size(); ++d) {
        const int64_t s = x->shape[d] ? shift[d] % x->shape[d] : 0;
        if (s && taken < kRollAxes) now[d] = s, ++taken;
        else if (s) later[d] = s, more = true;
    }
    TRef out = alloc_tensor(ctx, x->dtype, shape_of(x));
    if (x->size) copy_rolled(ctx, out.get(), x, now, 0);
    return more ? op_roll(ctx, out.get(), later) : out;
}

namespace {

TRef triangle(ember_ctx* ctx, const ember_tensor* x, int64_t k, bool lower) {
    if (x->ndim < 2) raise(EMBER_ERR_SHAPE, "needs at least 2 dimensions, got shape %s", shape_str(x).c_str());
    const int64_t n = x->shape[x->ndim - 2], m = x->shape[x->ndim - 1];
    // k beyond [-n, m] keeps the same elements; -k of INT64_MIN would overflow (it kept
    // every element where tril must keep none).
    k = std::max(std::min(k, m), -n);
    if (has_backend_kernel(ctx, lower ? OP_tril : OP_triu)) {  // the same bytes in one pass
        ember_attrs_t at{};
        at.i[0] = k;
        return custom_kernel(ctx, lower ? OP_tril : OP_triu, x, x->dtype, shape_of(x), at);
    }
    TRef rows = op_reshape(ctx, op_arange(ctx, 0, 1, n, EMBER_INT64).get(), {n, 1}, false);
    TRef cols = op_arange(ctx, (double)-k, 1, m, EMBER_INT64);  // j - k
    TRef keep = bin(ctx, lower ? OP_greater_equal : OP_less_equal, rows, cols);
    return op_where(ctx, keep.get(), x, scalar_like(ctx, 0, x->dtype).get());
}

// Fills the pads along axis d of t, whose positions [before, before + n) hold the data, from
// those positions. Wrap and reflect go in chunks that each copy what is written already.
void pad_from_middle(ember_ctx* ctx, ember_tensor* t, int d, int64_t before, int64_t n, ember_pad_mode_t mode) {
    const int64_t total = t->shape[d];
    auto part = [&](int64_t lo, int64_t hi) { return op_slice_axis(t, d, lo, hi, 1); };
    auto reversed = [&](int64_t lo, int64_t hi) { return op_slice_axis(part(lo, hi).get(), d, EMBER_SLICE_END, EMBER_SLICE_END, -1); };
    // [lo, hi) never meets src's positions along d: no defensive copy of src (their byte
    // ranges interleave along the other axes, which op_assign's overlap test cannot tell
    // apart from a real overlap).
    auto copy = [&](int64_t lo, int64_t hi, const TRef& src) { op_assign_disjoint(ctx, part(lo, hi).get(), src.get()); };
    if (mode == EMBER_PAD_EDGE || n == 1) {  // reflecting one element repeats it too
        copy(0, before, part(before, before + 1));
        copy(before + n, total, part(before + n - 1, before + n));
    } else if (mode == EMBER_PAD_WRAP) {
        for (int64_t p = before, c; p > 0; p -= c) {
            c = std::min(n, p);
            copy(p - c, p, part(p - c + n, p + n));
        }
        for (int64_t q = before + n, c; q < total; q += c) {
            c = std::min(n, total - q);
            copy(q, q + c, part(q - n, q - n + c));
        }
    } else {  // reflect about the edge elements without repeating them; chunks of n - 1 keep
              // each chunk's mirror point on one of the pattern's mirror points
        for (int64_t p = before, c; p > 0; p -= c) {
            c = std::min(n - 1, p);
            copy(p - c, p, reversed(p + 1, p + 1 + c));
        }
        for (int64_t q = before + n, c; q < total; q += c) {
            c = std::min(n - 1, total - q);
            copy(q, q + c, reversed(q - 1 - c, q - 1));
        }
    }
}

void check_list(const ember_tensor* const* xs, int n, ember_ctx* ctx) {
    if (n <= 0) raise(EMBER_ERR_INVALID_ARGUMENT, "needs at least one tensor (n = %d)", n);
    require_arg(xs, "xs");
    for (int i = 0; i < n; ++i) check_same_backend(ctx, xs[i], "xs[i]");
}

TRef tensordot_of(ember_ctx* ctx, const ember_tensor* a, const ember_tensor* b, const Shape& aa, const Shape& ba) {
    if (aa.size() != ba.size()) raise(EMBER_ERR_INVALID_ARGUMENT, "axes lists differ in length");
    uint64_t ma = 0, mb = 0;
    Shape ax(aa.size()), bx(ba.size());
    int64_t k = 1;
    for (size_t i = 0; i < aa.size(); ++i) {
        ax[i] = normalize_axis(aa[i], a->ndim);
        bx[i] = normalize_axis(ba[i], b->ndim);
        if ((ma >> ax[i]) & 1 || (mb >> bx[i]) & 1) raise(EMBER_ERR_INVALID_ARGUMENT, "an axis repeats");
        ma |= 1ull << ax[i];
        mb |= 1ull << bx[i];
        if (a->shape[ax[i]] != b->shape[bx[i]])
            raise(EMBER_ERR_SHAPE, "contracted axes differ in length: %lld vs %lld", (long long)a->shape[ax[i]], (long long)b->shape[bx[i]]);
        k *= a->shape[ax[i]];
    }
    Shape pa, pb, free_shape;
    int64_t m = 1, n = 1;
    for (int d = 0; d < a->ndim; ++d)
        if (!((ma >> d) & 1)) {
            pa.push_back(d);
            free_shape.push_back(a->shape[d]);
            m *= a->shape[d];
        }
    pa.insert(pa.end(), ax.begin(), ax.end());
    pb.assign(bx.begin(), bx.end());
    for (int d = 0; d < b->ndim; ++d)
        if (!((mb >> d) & 1)) {
            pb.push_back(d);
            free_shape.push_back(b->shape[d]);
            n *= b->shape[d];
        }
    TRef A = op_reshape(ctx, op_permute(a, pa.data(), a->ndim).get(), {m, k}, true);
    // x with itself over the same axes: B is A's transpose, a view of A's elements (not a
    // second copy), which a backend may take as a Gram product (the cpu backend's SYRK).
    TRef B = a == b && ax == bx ? op_swapaxes(A.get(), 0, 1) : op_reshape(ctx, op_permute(b, pb.data(), b->ndim).get(), {k, n}, true);
    return op_reshape(ctx, op_matmul(ctx, A.get(), B.get()).get(), free_shape, true);
}

}  // namespace

TRef vecdot_of(ember_ctx* ctx, const ember_tensor* a, const ember_tensor* b, int64_t axis) {
    Shape shape = broadcast_shapes(shape_of(a), shape_of(b));
    int64_t ax = normalize_axis(axis, (int)shape.size());
    int64_t la = a->ndim - (int64_t)shape.size() + ax, lb = b->ndim - (int64_t)shape.size() + ax;
    if (la < 0 || lb < 0 || a->shape[la] != b->shape[lb]) raise(EMBER_ERR_SHAPE, "vecdot axis lengths differ for shapes %s and %s", shape_str(a).c_str(), shape_str(b).c_str());
    const ember_dtype_t dt = promote(a->dtype, a->weak, b->dtype, b->weak, ctx->default_float);
    const bool real_float = dt == EMBER_FLOAT32 || dt == EMBER_FLOAT64;
    if ((is_complex(dt) || real_float) && shape[ax] > 0 && has_backend_kernel(ctx, OP_vecdot)) {
        // One pass: complex conj, product and sum were three passes and two temporaries
        // (0.3-0.4x NumPy's one-pass conjugating dot); real rows as DOT calls read short
        // rows one call each. The kernel may decline (the cpu one: long or strided real lines).
        std::vector<int64_t> order;
        for (int64_t d = 0; d < (int64_t)shape.size(); ++d)
            if (d != ax) order.push_back(d);
        order.push_back(ax);
        auto lined = [&](const ember_tensor* t) {
            TRef v = op_broadcast_to(cast_if(ctx, t, dt).get(), shape);
            return op_permute(v.get(), order.data(), (int)order.size());
        };
        TRef pa = lined(a), pb = lined(b);
        Shape kept = shape;
        kept.erase(kept.begin() + ax);
        TRef r = alloc_tensor(ctx, dt, kept);
        if (r->size == 0 || declinable_kernel(ctx, OP_vecdot, {view_of(pa.get()), view_of(pb.get())}, r.get(), {})) return r;
    }
    if (real_float && ax == (int64_t)shape.size() - 1 && shape[ax] >= kShortDot) {
        // Real floats along the last axis: a batch of (1, K) @ (K, 1) products, which a
        // backend runs as BLAS DOT/GEMV in one pass (no product temporary), as NumPy's `a @ b`.
        // Short ones are a product and a sum over short rows: a million dots of 3 took 7.9 ms
        // as products, about as long as NumPy's einsum.
        TRef r = op_matmul(ctx, op_expand_dims(a, a->ndim - 1).get(), op_expand_dims(b, b->ndim).get());
        shape.erase(shape.begin() + ax);
        return op_reshape(ctx, r.get(), shape, false);
    }
    TRef conj_a = is_complex(a->dtype) ? un(ctx, OP_conj, TRef::borrow(a)) : TRef::borrow(a);
    TRef prod = bin(ctx, OP_multiply, conj_a, TRef::borrow(b));
    return ember::reduce(ctx, OP_sum, prod.get(), &ax, 1, false);
}

}  // namespace ember

using namespace ember;

#define PRELUDE         \
    check_ctx(ctx);     \
    require_arg(out, "out");

extern "C" {

ENTRY(ember_empty, (ember_ctx_t * ctx, const int64_t* shape, int ndim, int dtype, ember_tensor_t** out), {
    PRELUDE
    check_shape(shape, ndim);
    *out = alloc_tensor(ctx, resolve_dtype_arg(ctx, dtype, (ember_dtype_t)EMBER_DTYPE_DEFAULT), Shape(shape, shape + ndim)).release();
})
ENTRY(ember_zeros, (ember_ctx_t * ctx, const int64_t* shape, int ndim, int dtype, ember_tensor_t** out), {
    PRELUDE
    check_shape(shape, ndim);
    *out = op_full(ctx, Shape(shape, shape + ndim), 0, resolve_dtype_arg(ctx, dtype, (ember_dtype_t)EMBER_DTYPE_DEFAULT)).release();
})
ENTRY(ember_ones, (ember_ctx_t * ctx, const int64_t* shape, int ndim, int dtype, ember_tensor_t** out), {
    PRELUDE
    check_shape(shape, ndim);
    *out = op_full(ctx, Shape(shape, shape + ndim), 1, resolve_dtype_arg(ctx, dtype, (ember_dtype_t)EMBER_DTYPE_DEFAULT)).release();
})
ENTRY(ember_full, (ember_ctx_t * ctx, const int64_t* shape, int ndim, double value, int dtype, ember_tensor_t** out), {
    PRELUDE
    check_shape(shape, ndim);
    *out = op_full(ctx, Shape(shape, shape + ndim), value, resolve_dtype_arg(ctx, dtype, (ember_dtype_t)EMBER_DTYPE_DEFAULT)).release();
})
ENTRY(ember_empty_like, (ember_ctx_t * ctx, const ember_tensor_t* x, int dtype, ember_tensor_t** out), {
    PRELUDE
    check_same_backend(ctx, x, "x");
    *out = alloc_elementwise_result(ctx, resolve_dtype_arg(ctx, dtype, x->dtype), x->shape, x->ndim, {x}).release();
})
ENTRY(ember_zeros_like, (ember_ctx_t * ctx, const ember_tensor_t* x, int dtype, ember_tensor_t** out), {
    PRELUDE
    check_same_backend(ctx, x, "x");
    *out = full_like(ctx, x, 0, resolve_dtype_arg(ctx, dtype, x->dtype)).release();
})
ENTRY(ember_ones_like, (ember_ctx_t * ctx, const ember_tensor_t* x, int dtype, ember_tensor_t** out), {
    PRELUDE
    check_same_backend(ctx, x, "x");
    *out = full_like(ctx, x, 1, resolve_dtype_arg(ctx, dtype, x->dtype)).release();
})
ENTRY(ember_full_like, (ember_ctx_t * ctx, const ember_tensor_t* x, double value, int dtype, ember_tensor_t** out), {
    PRELUDE
    check_same_backend(ctx, x, "x");
    *out = full_like(ctx, x, value, resolve_dtype_arg(ctx, dtype, x->dtype)).release();
})
ENTRY(ember_linspace, (ember_ctx_t * ctx, double start, double stop, int64_t num, int endpoint, int dtype, ember_tensor_t** out), {
    PRELUDE
    if (num < 0) raise(EMBER_ERR_INVALID_ARGUMENT, "num must be non-negative, got %lld", (long long)num);
    ember_dtype_t dt = resolve_dtype_arg(ctx, dtype, (ember_dtype_t)EMBER_DTYPE_DEFAULT);
    int64_t div = endpoint ? num - 1 : num;
    double step = div > 0 ? (stop - start) / (double)div : 0;
    TRef r = op_arange(ctx, start, step, num, dt);
    if (endpoint && num > 1) op_assign(ctx, op_slice_axis(r.get(), 0, num - 1, num, 1).get(), weak_f64(ctx, stop).get());
    *out = r.release();
})
ENTRY(ember_eye, (ember_ctx_t * ctx, int64_t n_rows, int64_t n_cols, int64_t k, int dtype, ember_tensor_t** out), {
    PRELUDE
    if (n_cols < 0) n_cols = n_rows;
    int64_t shape[2] = {n_rows, n_cols};
    check_shape(shape, 2);
    TRef r = op_full(ctx, {n_rows, n_cols}, 0, resolve_dtype_arg(ctx, dtype, (ember_dtype_t)EMBER_DTYPE_DEFAULT));
    TRef d = op_diagonal(r.get(), k);
    if (d->size) op_assign(ctx, d.get(), weak_f64(ctx, 1).get());
    *out = r.release();
})
ENTRY(ember_tril, (ember_ctx_t * ctx, const ember_tensor_t* x, int64_t k, ember_tensor_t** out), {
    PRELUDE
    check_same_backend(ctx, x, "x");
    *out = triangle(ctx, x, k, true).release();
})
ENTRY(ember_triu, (ember_ctx_t * ctx, const ember_tensor_t* x, int64_t k, ember_tensor_t** out), {
    PRELUDE
    check_same_backend(ctx, x, "x");
    *out = triangle(ctx, x, k, false).release();
})
EMBER_API ember_status_t ember_meshgrid(ember_ctx_t* ctx, const ember_tensor_t* const* xs, int n, int indexing, ember_tensor_t** outs) {
    return guard("ember_meshgrid", [&] {
        check_ctx(ctx);
        require_arg(outs, "outs");
        check_list(xs, n, ctx);
        if (n > EMBER_MAX_DIMS) raise(EMBER_ERR_INVALID_ARGUMENT, "at most %d inputs", EMBER_MAX_DIMS);
        Shape shape(n);
        for (int i = 0; i < n; ++i) {
            if (xs[i]->ndim != 1) raise(EMBER_ERR_SHAPE, "input %d must be 1-d, got shape %s", i, shape_str(xs[i]).c_str());
            shape[i] = xs[i]->shape[0];
        }
        bool xy = indexing == 0 && n >= 2;
        if (xy) std::swap(shape[0], shape[1]);
        std::vector<TRef> results;
        for (int i = 0; i < n; ++i) {
            int pos = xy && i < 2 ? 1 - i : i;
            Shape vs(n, 1);
            vs[pos] = shape[pos];
            TRef v = op_reshape(ctx, xs[i], vs, true);
            results.push_back(op_copy(ctx, op_broadcast_to(v.get(), shape).get()));
        }
        for (int i = 0; i < n; ++i) outs[i] = results[i].release();
    });
}
ENTRY(ember_copy, (ember_ctx_t * ctx, const ember_tensor_t* x, ember_tensor_t** out), {
    PRELUDE
    check_same_backend(ctx, x, "x");
    *out = op_copy(ctx, x).release();
})
EMBER_API ember_status_t ember_assign(ember_ctx_t* ctx, ember_tensor_t* dst, const ember_tensor_t* src) {
    return guard("ember_assign", [&] {
        check_ctx(ctx);
        check_same_backend(ctx, dst, "dst");
        check_same_backend(ctx, src, "src");
        check_writable(dst, "dst");
        if (src->int_value_known && !int_fits(src->int_value, dst->dtype))  // x[0] = 300 for uint8: NumPy's OverflowError
            raise(EMBER_ERR_OVERFLOW, "the integer %lld is out of range for dst's dtype %s", (long long)src->int_value, dtype_name(dst->dtype));
        if (src->weak && is_complex(src->dtype) && !is_complex(dst->dtype))  // x[0] = 1j: NumPy's TypeError, not a dropped imaginary part
            raise(EMBER_ERR_UNSUPPORTED_DTYPE, "a complex scalar cannot be assigned to a %s tensor (assign its real part)", dtype_name(dst->dtype));
        op_assign(ctx, dst, src);
    });
}
EMBER_API ember_status_t ember_tensor_shares_memory(const ember_tensor_t* a, const ember_tensor_t* b, int exact, int* result) {
    return guard("ember_tensor_shares_memory", [&] {
        if (!a || !b) raise(EMBER_ERR_INVALID_ARGUMENT, "%s is NULL", a ? "b" : "a");
        if (!result) raise(EMBER_ERR_INVALID_ARGUMENT, "result is NULL");
        *result = (exact ? shares_elements(a, b) : may_overlap(a, b)) ? 1 : 0;
    });
}
ENTRY(ember_concat, (ember_ctx_t * ctx, const ember_tensor_t* const* xs, int n, int64_t axis, ember_tensor_t** out), {
    PRELUDE
    check_list(xs, n, ctx);
    std::vector<TRef> keep;
    std::vector<const ember_tensor*> list;
    for (int i = 0; i < n; ++i) {
        if (axis == EMBER_AXIS_NONE) {
            keep.push_back(op_reshape(ctx, xs[i], {xs[i]->size}, true));
            list.push_back(keep.back().get());
        } else {
            list.push_back(xs[i]);
        }
    }
    *out = op_concat(ctx, list, axis == EMBER_AXIS_NONE ? 0 : axis).release();
})
ENTRY(ember_stack, (ember_ctx_t * ctx, const ember_tensor_t* const* xs, int n, int64_t axis, ember_tensor_t** out), {
    PRELUDE
    check_list(xs, n, ctx);
    int64_t a = normalize_axis(axis, xs[0]->ndim + 1);
    std::vector<TRef> keep;
    std::vector<const ember_tensor*> list;
    for (int i = 0; i < n; ++i) {
        if (xs[i]->ndim != xs[0]->ndim || !std::equal(xs[i]->shape, xs[i]->shape + xs[i]->ndim, xs[0]->shape))
            raise(EMBER_ERR_SHAPE, "all tensors must have the same shape; tensor %d has %s, tensor 0 has %s", i, shape_str(xs[i]).c_str(), shape_str(xs[0]).c_str());
        keep.push_back(op_expand_dims(xs[i], a));
        list.push_back(keep.back().get());
    }
    *out = op_concat(ctx, list, a).release();
})
EMBER_API ember_status_t ember_split(ember_ctx_t* ctx, const ember_tensor_t* x, int64_t sections, const int64_t* indices, int n_indices, int64_t axis, ember_tensor_t** outs) {
    return guard("ember_split", [&] {
        check_ctx(ctx);
        require_arg(outs, "outs");
        check_same_backend(ctx, x, "x");
        int64_t a = normalize_axis(axis, x->ndim);
        int64_t len = x->shape[a];
        std::vector<int64_t> cuts;
        if (indices) {
            if (n_indices < 0) raise(EMBER_ERR_INVALID_ARGUMENT, "n_indices is negative");
            cuts.assign(indices, indices + n_indices);
        } else {
            if (sections <= 0) raise(EMBER_ERR_INVALID_ARGUMENT, "sections must be positive, got %lld", (long long)sections);
            if (len % sections) raise(EMBER_ERR_SHAPE, "axis of length %lld does not split into %lld equal sections", (long long)len, (long long)sections);
            for (int64_t i = 1; i < sections; ++i) cuts.push_back(i * (len / sections));
        }
        std::vector<TRef> parts;
        int64_t prev = 0;
        cuts.push_back(len);
        for (int64_t c : cuts) {
            int64_t stop = std::min(std::max<int64_t>(c, prev), len);
            parts.push_back(op_slice_axis(x, a, prev, stop, 1));
            prev = stop;
        }
        for (size_t i = 0; i < parts.size(); ++i) outs[i] = parts[i].release();
    });
}
ENTRY(ember_tile, (ember_ctx_t * ctx, const ember_tensor_t* x, const int64_t* reps, int nreps, ember_tensor_t** out), {
    PRELUDE
    check_same_backend(ctx, x, "x");
    if (nreps < 0 || (nreps && !reps)) raise(EMBER_ERR_INVALID_ARGUMENT, "bad reps");
    int nd = std::max(nreps, x->ndim);
    if (2 * nd > EMBER_MAX_DIMS) raise(EMBER_ERR_INVALID_ARGUMENT, "tile supports at most %d dimensions", EMBER_MAX_DIMS / 2);
    Shape xs(nd, 1), r(nd, 1);
    std::copy(x->shape, x->shape + x->ndim, xs.begin() + (nd - x->ndim));
    std::copy(reps, reps + nreps, r.begin() + (nd - nreps));
    TRef xv = op_reshape(ctx, x, xs, true);
    Shape vshape, vstrides, final_shape;
    for (int d = 0; d < nd; ++d) {
        if (r[d] < 0) raise(EMBER_ERR_INVALID_ARGUMENT, "negative repetition %lld", (long long)r[d]);
        vshape.insert(vshape.end(), {r[d], xs[d]});
        vstrides.insert(vstrides.end(), {0, xv->strides[d]});
        final_shape.push_back(r[d] * xs[d]);
    }
    TRef v = make_view(xv.get(), vshape, vstrides, xv->offset);
    *out = op_reshape(ctx, v.get(), final_shape, true).release();
})
ENTRY(ember_repeat, (ember_ctx_t * ctx, const ember_tensor_t* x, int64_t repeats, int64_t axis, ember_tensor_t** out), {
    PRELUDE
    check_same_backend(ctx, x, "x");
    if (repeats < 0) raise(EMBER_ERR_INVALID_ARGUMENT, "repeats must be non-negative, got %lld", (long long)repeats);
    TRef src = axis == EMBER_AXIS_NONE ? op_reshape(ctx, x, {x->size}, true) : TRef::borrow(x);
    int64_t a = axis == EMBER_AXIS_NONE ? 0 : normalize_axis(axis, x->ndim);
    if (src->ndim >= EMBER_MAX_DIMS) raise(EMBER_ERR_INVALID_ARGUMENT, "too many dimensions");
    Shape vshape = shape_of(src.get()), vstrides(src->strides, src->strides + src->ndim), final_shape = shape_of(src.get());
    vshape.insert(vshape.begin() + a + 1, repeats);
    vstrides.insert(vstrides.begin() + a + 1, 0);
    final_shape[a] *= repeats;
    TRef v = make_view(src.get(), vshape, vstrides, src->offset);
    *out = op_reshape(ctx, v.get(), final_shape, true).release();
})
ENTRY(ember_pad, (ember_ctx_t * ctx, const ember_tensor_t* x, const int64_t* pad_width, ember_pad_mode_t mode, double value, ember_tensor_t** out), {
    PRELUDE
    check_same_backend(ctx, x, "x");
    if (x->ndim && !pad_width) raise(EMBER_ERR_INVALID_ARGUMENT, "argument 'pad_width' is NULL");
    if (mode != EMBER_PAD_CONSTANT && mode != EMBER_PAD_EDGE && mode != EMBER_PAD_REFLECT && mode != EMBER_PAD_WRAP) raise(EMBER_ERR_INVALID_ARGUMENT, "unknown pad mode %d", (int)mode);
    Shape shape = shape_of(x);
    for (int d = 0; d < x->ndim; ++d) {
        const int64_t before = pad_width[2 * d], after = pad_width[2 * d + 1];
        if (before < 0 || after < 0) raise(EMBER_ERR_INVALID_ARGUMENT, "negative pad width %lld", (long long)std::min(before, after));
        if (before > INT64_MAX - x->shape[d] - after) raise(EMBER_ERR_INVALID_ARGUMENT, "pad widths %lld and %lld overflow axis %d", (long long)before, (long long)after, d);
        if (mode != EMBER_PAD_CONSTANT && x->shape[d] == 0 && (before || after)) raise(EMBER_ERR_SHAPE, "cannot pad an empty axis in this mode");
        shape[d] += before + after;
    }
    // Block copies: the middle of each axis holds x; the pads are the value, or copies of what
    // is already written along that axis (op_assign copies a source first where it shares
    // bytes with its destination, as the pads of an inner axis do).
    TRef r = alloc_tensor(ctx, x->dtype, shape);
    TRef fill = mode == EMBER_PAD_CONSTANT ? weak_f64(ctx, value) : TRef();
    TRef middle = TRef::borrow(r.get());
    for (int d = 0; d < x->ndim; ++d) {
        const int64_t begin = pad_width[2 * d], end = begin + x->shape[d];
        if (fill) {
            op_assign(ctx, op_slice_axis(middle.get(), d, 0, begin, 1).get(), fill.get());
            op_assign(ctx, op_slice_axis(middle.get(), d, end, shape[d], 1).get(), fill.get());
        }
        middle = op_slice_axis(middle.get(), d, begin, end, 1);
    }
    op_assign(ctx, middle.get(), x);
    if (!fill && r->size) {
        for (int d = 0; d < x->ndim; ++d) {
            // Axes before d are padded already, axes after d not yet.
            TRef part = TRef::borrow(r.get());
            for (int e = d + 1; e < x->ndim; ++e) part = op_slice_axis(part.get(), e, pad_width[2 * e], pad_width[2 * e] + x->shape[e], 1);
            pad_from_middle(ctx, part.get(), d, pad_width[2 * d], x->shape[d], mode);
        }
    }
    *out = r.release();
})
ENTRY(ember_roll, (ember_ctx_t * ctx, const ember_tensor_t* x, const int64_t* shifts, const int64_t* axes, int n, ember_tensor_t** out), {
    PRELUDE
    check_same_backend(ctx, x, "x");
    require_arg(shifts, "shifts");
    if (!axes) {
        TRef flat = op_reshape(ctx, x, {x->size}, true);
        *out = op_reshape(ctx, op_roll(ctx, flat.get(), {shifts[0]}).get(), shape_of(x), true).release();
        return;
    }
    if (n < 0) raise(EMBER_ERR_INVALID_ARGUMENT, "n = %d is negative", n);
    std::vector<int64_t> shift((size_t)x->ndim, 0);  // shifts along a repeated axis add up, as in NumPy
    for (int k = 0; k < n; ++k) {
        int64_t a = normalize_axis(axes[k], x->ndim), len = x->shape[a];
        if (len) shift[(size_t)a] = ((shift[(size_t)a] + shifts[k] % len) % len + len) % len;
    }
    *out = op_roll(ctx, x, shift).release();
})
ENTRY(ember_one_hot, (ember_ctx_t * ctx, const ember_tensor_t* indices, int64_t depth, int dtype, ember_tensor_t** out), {
    PRELUDE
    check_same_backend(ctx, indices, "indices");
    if (!is_integer(indices->dtype)) raise(EMBER_ERR_UNSUPPORTED_DTYPE, "indices must be integers, got %s", dtype_name(indices->dtype));
    if (depth < 0) raise(EMBER_ERR_INVALID_ARGUMENT, "depth must be non-negative");
    const ember_dtype_t dt = resolve_dtype_arg(ctx, dtype, (ember_dtype_t)EMBER_DTYPE_DEFAULT);
    // int64 positions for every integer dtype (uint64 has no common dtype with int64);
    // uint64 indices from 2^63 wrap to negative ones and give zero rows, as too-large ones do
    TRef idx = indices->dtype == EMBER_INT64 ? contiguous(ctx, indices) : op_astype(ctx, indices, EMBER_INT64);
    if (indices->size > 0 && depth > 0 && has_backend_kernel(ctx, OP_one_hot)) {
        Shape shape = shape_of(indices);
        shape.push_back(depth);
        TRef one = op_full(ctx, {}, 1, dt), r = alloc_tensor(ctx, dt, shape);
        run_kernel(ctx, OP_one_hot, {view_of(idx.get()), view_of(one.get())}, {view_of(r.get())});
        *out = r.release();
        return;
    }
    TRef e = op_expand_dims(idx.get(), indices->ndim);
    TRef hot = bin(ctx, OP_equal, e, op_arange(ctx, 0, 1, depth, EMBER_INT64));
    *out = op_astype(ctx, hot.get(), dt).release();
})
ENTRY(ember_dot, (ember_ctx_t * ctx, const ember_tensor_t* a, const ember_tensor_t* b, ember_tensor_t** out), {
    PRELUDE
    check_same_backend(ctx, a, "a");
    check_same_backend(ctx, b, "b");
    if (a->ndim == 0 || b->ndim == 0) *out = run_binary(ctx, OP_multiply, a, b).release();
    else if (b->ndim == 1 || a->ndim == 1) *out = op_matmul(ctx, a, b).release();
    else *out = tensordot_of(ctx, a, b, {-1}, {-2}).release();
})
ENTRY(ember_tensordot, (ember_ctx_t * ctx, const ember_tensor_t* a, const ember_tensor_t* b, int64_t axes, const int64_t* axes_a, const int64_t* axes_b, int n_pairs, ember_tensor_t** out), {
    PRELUDE
    check_same_backend(ctx, a, "a");
    check_same_backend(ctx, b, "b");
    Shape aa, ba;
    if (n_pairs >= 0) {
        if (n_pairs && (!axes_a || !axes_b)) raise(EMBER_ERR_INVALID_ARGUMENT, "axes_a and axes_b are required with n_pairs");
        aa.assign(axes_a, axes_a + n_pairs);
        ba.assign(axes_b, axes_b + n_pairs);
    } else {
        if (axes < 0 || axes > a->ndim || axes > b->ndim) raise(EMBER_ERR_INVALID_ARGUMENT, "axes %lld is out of range", (long long)axes);
        for (int64_t i = 0; i < axes; ++i) {
            aa.push_back(a->ndim - axes + i);
            ba.push_back(i);
        }
    }
    *out = tensordot_of(ctx, a, b, aa, ba).release();
})
ENTRY(ember_outer, (ember_ctx_t * ctx, const ember_tensor_t* a, const ember_tensor_t* b, ember_tensor_t** out), {
    PRELUDE
    check_same_backend(ctx, a, "a");
    check_same_backend(ctx, b, "b");
    if (a->ndim != 1 || b->ndim != 1) raise(EMBER_ERR_SHAPE, "outer needs 1-d tensors, got shapes %s and %s", shape_str(a).c_str(), shape_str(b).c_str());
    *out = bin(ctx, OP_multiply, op_expand_dims(a, 1), TRef::borrow(b)).release();
})
ENTRY(ember_vecdot, (ember_ctx_t * ctx, const ember_tensor_t* a, const ember_tensor_t* b, int64_t axis, ember_tensor_t** out), {
    PRELUDE
    check_same_backend(ctx, a, "a");
    check_same_backend(ctx, b, "b");
    *out = vecdot_of(ctx, a, b, axis).release();
})
ENTRY(ember_trace, (ember_ctx_t * ctx, const ember_tensor_t* x, int64_t offset, ember_tensor_t** out), {
    PRELUDE
    check_same_backend(ctx, x, "x");
    TRef d = op_diagonal(x, offset);
    int64_t last = -1;
    *out = ember::reduce(ctx, OP_sum, d.get(), &last, 1, false).release();
})

}  // extern "C"
