// Views: new geometry over the same storage, never a copy (reshape copies only when it must).
#include <algorithm>

#include "dispatch.hpp"

namespace ember {

namespace {
Shape strides_of(const ember_tensor* t) { return Shape(t->strides, t->strides + t->ndim); }

// Strides for viewing x with a new shape without copying, if the layout allows it.
bool reshape_strides(const ember_tensor* x, const Shape& shape, Shape& out) {
    out.assign(shape.size(), 0);
    if (x->size == 0 || x->size == 1) {
        int64_t st[EMBER_MAX_DIMS];
        contiguous_strides(shape.data(), (int)shape.size(), st);
        out.assign(st, st + shape.size());
        return true;
    }
    // Walk groups of old dims that map onto groups of new dims (NumPy's attempt_nocopy idea).
    Shape od, os;
    for (int i = 0; i < x->ndim; ++i)
        if (x->shape[i] != 1) {
            od.push_back(x->shape[i]);
            os.push_back(x->strides[i]);
        }
    size_t oi = 0, ni = 0;
    const size_t on = od.size(), nn = shape.size();
    while (ni < nn) {
        if (shape[ni] == 1) {
            out[ni++] = 1;
            continue;
        }
        if (oi >= on) return false;
        size_t oj = oi + 1, nj = ni + 1;
        int64_t op = od[oi], np = shape[ni];
        while (op != np) {
            if (op < np) {
                if (oj >= on) return false;
                op *= od[oj++];
            } else {
                if (nj >= nn) return false;
                np *= shape[nj++];
            }
        }
        for (size_t k = oi; k + 1 < oj; ++k)
            if (os[k] != os[k + 1] * od[k + 1]) return false;
        int64_t stride = os[oj - 1];
        for (size_t k = nj; k-- > ni;) {
            out[k] = stride;
            stride *= shape[k];
        }
        oi = oj;
        ni = nj;
    }
    return oi == on;
}
}  // namespace

TRef op_reshape(ember_ctx* ctx, const ember_tensor* x, Shape shape, bool allow_copy) {
    check_ndim((int)shape.size());
    int infer = -1;
    int64_t known = 1;
    for (size_t i = 0; i < shape.size(); ++i) {
        if (shape[i] == -1) {
            if (infer >= 0) raise(EMBER_ERR_SHAPE, "only one dimension may be -1 in %s", shape_str(shape).c_str());
            infer = (int)i;
        } else if (shape[i] < 0) {
            raise(EMBER_ERR_SHAPE, "invalid dimension %lld in %s", (long long)shape[i], shape_str(shape).c_str());
        } else {
            known *= shape[i];
        }
    }
    if (infer >= 0) {
        if (known == 0 || x->size % known) raise(EMBER_ERR_SHAPE, "cannot reshape %s into %s", shape_str(x).c_str(), shape_str(shape).c_str());
        shape[infer] = x->size / known;
        known *= shape[infer];
    }
    if (known != x->size) raise(EMBER_ERR_SHAPE, "cannot reshape %s (%lld elements) into %s", shape_str(x).c_str(), (long long)x->size, shape_str(shape).c_str());
    Shape strides;
    if (reshape_strides(x, shape, strides)) return make_view(x, shape, strides, x->offset);
    if (!allow_copy) raise(EMBER_ERR_SHAPE, "a tensor of shape %s with these strides cannot be viewed as %s without a copy", shape_str(x).c_str(), shape_str(shape).c_str());
    TRef c = op_copy(ctx, x);
    return op_reshape(ctx, c.get(), shape, false);
}

TRef op_permute(const ember_tensor* x, const int64_t* axes, int naxes) {
    if (naxes != x->ndim) raise(EMBER_ERR_INVALID_ARGUMENT, "permutation has %d axes but the tensor has %d dimensions", naxes, x->ndim);
    if (naxes && !axes) raise(EMBER_ERR_INVALID_ARGUMENT, "argument 'axes' is NULL");
    Shape shape(naxes), strides(naxes);
    uint64_t seen = 0;
    for (int i = 0; i < naxes; ++i) {
        int64_t a = normalize_axis(axes[i], x->ndim);
        if (seen & (1ull << a)) raise(EMBER_ERR_INVALID_ARGUMENT, "axis %lld repeats in the permutation", (long long)axes[i]);
        seen |= 1ull << a;
        shape[i] = x->shape[a];
        strides[i] = x->strides[a];
    }
    return make_view(x, shape, strides, x->offset);
}

TRef op_swapaxes(const ember_tensor* x, int64_t a, int64_t b) {
    a = normalize_axis(a, x->ndim);
    b = normalize_axis(b, x->ndim);
    Shape perm(x->ndim);
    for (int i = 0; i < x->ndim; ++i) perm[i] = i;
    std::swap(perm[a], perm[b]);
    return op_permute(x, perm.data(), x->ndim);
}

TRef op_expand_dims(const ember_tensor* x, int64_t axis) {
    if (x->ndim >= EMBER_MAX_DIMS) raise(EMBER_ERR_INVALID_ARGUMENT, "tensor already has %d dimensions", EMBER_MAX_DIMS);
    int64_t a = normalize_axis(axis, x->ndim + 1);
    Shape shape = shape_of(x), strides = strides_of(x);
    int64_t st = a < x->ndim ? x->strides[a] * x->shape[a] : 1;
    shape.insert(shape.begin() + a, 1);
    strides.insert(strides.begin() + a, st);
    return make_view(x, shape, strides, x->offset);
}

TRef op_squeeze_axes(const ember_tensor* x, uint64_t mask) {
    Shape shape, strides;
    for (int i = 0; i < x->ndim; ++i) {
        if (mask & (1ull << i)) {
            if (x->shape[i] != 1) raise(EMBER_ERR_SHAPE, "cannot squeeze axis %d of length %lld", i, (long long)x->shape[i]);
            continue;
        }
        shape.push_back(x->shape[i]);
        strides.push_back(x->strides[i]);
    }
    return make_view(x, shape, strides, x->offset);
}

TRef op_broadcast_to(const ember_tensor* x, const Shape& shape) {
    check_shape(shape.data(), (int)shape.size());
    int64_t strides[EMBER_MAX_DIMS];
    broadcast_view(x, shape, strides);
    return make_view(x, shape, Shape(strides, strides + shape.size()), x->offset);
}

TRef op_slice_axis(const ember_tensor* x, int64_t axis, int64_t start, int64_t stop, int64_t step) {
    int64_t a = normalize_axis(axis, x->ndim);
    if (step == 0) raise(EMBER_ERR_INVALID_ARGUMENT, "slice step cannot be 0");
    int64_t n = x->shape[a];
    auto clampi = [&](int64_t v, int64_t lo, int64_t hi) { return std::min(std::max(v, lo), hi); };
    // Python's slice.indices semantics.
    if (step > 0) {
        start = start < 0 ? clampi(start + n, 0, n) : clampi(start, 0, n);
        stop = stop == EMBER_SLICE_END ? n : (stop < 0 ? clampi(stop + n, 0, n) : clampi(stop, 0, n));
    } else {
        start = start == EMBER_SLICE_END ? n - 1 : (start < 0 ? clampi(start + n, -1, n - 1) : clampi(start, -1, n - 1));
        stop = stop == EMBER_SLICE_END ? -1 : (stop < 0 ? clampi(stop + n, -1, n - 1) : clampi(stop, -1, n - 1));
    }
    int64_t len = step > 0 ? (stop > start ? (stop - start + step - 1) / step : 0)
                           : (start > stop ? (start - stop + (-step) - 1) / (-step) : 0);
    Shape shape = shape_of(x), strides = strides_of(x);
    shape[a] = len;
    strides[a] = x->strides[a] * step;
    int64_t offset = x->offset + (len ? start * x->strides[a] : 0);
    return make_view(x, shape, strides, offset);
}

TRef op_select(const ember_tensor* x, int64_t axis, int64_t index) {
    int64_t a = normalize_axis(axis, x->ndim);
    int64_t n = x->shape[a];
    int64_t i = index < 0 ? index + n : index;
    if (i < 0 || i >= n) raise(EMBER_ERR_INDEX, "index %lld is out of range for axis %lld of length %lld", (long long)index, (long long)a, (long long)n);
    Shape shape = shape_of(x), strides = strides_of(x);
    shape.erase(shape.begin() + a);
    strides.erase(strides.begin() + a);
    return make_view(x, shape, strides, x->offset + i * x->strides[a]);
}

TRef op_diagonal(const ember_tensor* x, int64_t offset) {
    if (x->ndim < 2) raise(EMBER_ERR_SHAPE, "diagonal needs at least 2 dimensions, got shape %s", shape_str(x).c_str());
    int r = x->ndim - 2, c = x->ndim - 1;
    int64_t rows = x->shape[r], cols = x->shape[c];
    int64_t start_off = 0, len;
    if (offset >= 0) {
        len = std::max<int64_t>(0, std::min(rows, cols - offset));
        start_off = offset * x->strides[c];
    } else {
        len = std::max<int64_t>(0, std::min(rows + offset, cols));
        start_off = -offset * x->strides[r];
    }
    Shape shape(x->shape, x->shape + r), strides(x->strides, x->strides + r);
    shape.push_back(len);
    strides.push_back(x->strides[r] + x->strides[c]);
    return make_view(x, shape, strides, x->offset + (len ? start_off : 0));
}

}  // namespace ember
