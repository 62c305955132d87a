// Views: new geometry over the same storage, never a copy (reshape copies only when it must).
#include <algorithm>

#include "dispatch.hpp"

namespace ember {

namespace {
// Strides for viewing x with a new shape (nn axes) without copying, if the layout allows it.
bool reshape_strides(const ember_tensor* x, const int64_t* shape, int nn, int64_t* out) {
    if (x->size == 0 || x->size == 1) {
        contiguous_strides(shape, nn, out);
        return true;
    }
    // Walk groups of old dims that map onto groups of new dims (NumPy's attempt_nocopy idea).
    int64_t od[EMBER_MAX_DIMS], os[EMBER_MAX_DIMS];
    int on = 0;
    for (int i = 0; i < x->ndim; ++i)
        if (x->shape[i] != 1) {
            od[on] = x->shape[i];
            os[on++] = x->strides[i];
        }
    int oi = 0, ni = 0;
    while (ni < nn) {
        if (shape[ni] == 1) {
            out[ni++] = 1;
            continue;
        }
        if (oi >= on) return false;
        int oj = oi + 1, nj = ni + 1;
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
        for (int k = oi; k + 1 < oj; ++k)
            if (os[k] != os[k + 1] * od[k + 1]) return false;
        int64_t stride = os[oj - 1];
        for (int k = nj; k-- > ni;) {
            out[k] = stride;
            stride *= shape[k];
        }
        oi = oj;
        ni = nj;
    }
    return oi == on;
}
}  // namespace

TRef op_reshape(ember_ctx* ctx, const ember_tensor* x, const int64_t* dims, int ndim, bool allow_copy) {
    check_ndim(ndim);
    int64_t shape[EMBER_MAX_DIMS];
    std::copy(dims, dims + ndim, shape);
    int infer = -1;
    int64_t known = 1;
    for (int i = 0; i < ndim; ++i) {
        if (shape[i] == -1) {
            if (infer >= 0) raise(EMBER_ERR_SHAPE, "only one dimension may be -1 in %s", shape_str(shape, ndim).c_str());
            infer = i;
        } else if (shape[i] < 0) {
            raise(EMBER_ERR_SHAPE, "invalid dimension %lld in %s", (long long)shape[i], shape_str(shape, ndim).c_str());
        } else {
            known *= shape[i];
        }
    }
    if (infer >= 0) {
        if (known == 0 || x->size % known)
            raise(EMBER_ERR_SHAPE, "cannot reshape %s into %s", shape_str(x).c_str(), shape_str(shape, ndim).c_str());
        shape[infer] = x->size / known;
        known *= shape[infer];
    }
    if (known != x->size)
        raise(EMBER_ERR_SHAPE, "cannot reshape %s (%lld elements) into %s", shape_str(x).c_str(), (long long)x->size, shape_str(shape, ndim).c_str());
    int64_t strides[EMBER_MAX_DIMS];
    if (reshape_strides(x, shape, ndim, strides)) return make_view(x, shape, strides, ndim, x->offset);
    if (!allow_copy)
        raise(EMBER_ERR_SHAPE, "a tensor of shape %s with these strides cannot be viewed as %s without a copy", shape_str(x).c_str(),
              shape_str(shape, ndim).c_str());
    TRef c = op_copy(ctx, x);
    return op_reshape(ctx, c.get(), shape, ndim, false);
}

// The view ops build their geometry in arrays of EMBER_MAX_DIMS on the stack: a view is
// what x[i, j] and x.T make, and heap vectors were half of its cost.
TRef op_permute(const ember_tensor* x, const int64_t* axes, int naxes) {
    if (naxes != x->ndim) raise(EMBER_ERR_INVALID_ARGUMENT, "permutation has %d axes but the tensor has %d dimensions", naxes, x->ndim);
    if (naxes && !axes) raise(EMBER_ERR_INVALID_ARGUMENT, "argument 'axes' is NULL");
    int64_t shape[EMBER_MAX_DIMS], strides[EMBER_MAX_DIMS];
    uint64_t seen = 0;
    for (int i = 0; i < naxes; ++i) {
        int64_t a = normalize_axis(axes[i], x->ndim);
        if (seen & (1ull << a)) raise(EMBER_ERR_INVALID_ARGUMENT, "axis %lld repeats in the permutation", (long long)axes[i]);
        seen |= 1ull << a;
        shape[i] = x->shape[a];
        strides[i] = x->strides[a];
    }
    return make_view(x, shape, strides, naxes, x->offset);
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
    const int a = (int)normalize_axis(axis, x->ndim + 1);
    int64_t shape[EMBER_MAX_DIMS], strides[EMBER_MAX_DIMS];
    for (int i = 0, j = 0; i <= x->ndim; ++i) {
        if (i == a) {
            shape[i] = 1;
            strides[i] = a < x->ndim ? x->strides[a] * x->shape[a] : 1;
        } else {
            shape[i] = x->shape[j];
            strides[i] = x->strides[j++];
        }
    }
    return make_view(x, shape, strides, x->ndim + 1, x->offset);
}

TRef op_squeeze_axes(const ember_tensor* x, uint64_t mask) {
    int64_t shape[EMBER_MAX_DIMS], strides[EMBER_MAX_DIMS];
    int n = 0;
    for (int i = 0; i < x->ndim; ++i) {
        if (mask & (1ull << i)) {
            if (x->shape[i] != 1) raise(EMBER_ERR_SHAPE, "cannot squeeze axis %d of length %lld", i, (long long)x->shape[i]);
            continue;
        }
        shape[n] = x->shape[i];
        strides[n++] = x->strides[i];
    }
    return make_view(x, shape, strides, n, x->offset);
}

TRef op_broadcast_to(const ember_tensor* x, const Shape& shape) {
    check_shape(shape.data(), (int)shape.size());
    int64_t strides[EMBER_MAX_DIMS];
    broadcast_view(x, shape, strides);
    return make_view(x, shape, Shape(strides, strides + shape.size()), x->offset);
}

namespace {
// Python's slice.indices for an axis of length n: the first index taken and the count
// (EMBER_SLICE_END: to the end, or with a negative step, past the beginning).
struct AxisSlice {
    int64_t first, len;
};
AxisSlice slice_indices(int64_t n, int64_t start, int64_t stop, int64_t step) {
    if (step == 0) raise(EMBER_ERR_INVALID_ARGUMENT, "slice step cannot be 0");
    auto clampi = [](int64_t v, int64_t lo, int64_t hi) { return std::min(std::max(v, lo), hi); };
    if (step > 0) {
        start = start < 0 ? clampi(start + n, 0, n) : clampi(start, 0, n);
        stop = stop == EMBER_SLICE_END ? n : (stop < 0 ? clampi(stop + n, 0, n) : clampi(stop, 0, n));
        return {start, stop > start ? (stop - start + step - 1) / step : 0};
    }
    start = start == EMBER_SLICE_END ? n - 1 : (start < 0 ? clampi(start + n, -1, n - 1) : clampi(start, -1, n - 1));
    stop = stop == EMBER_SLICE_END ? -1 : (stop < 0 ? clampi(stop + n, -1, n - 1) : clampi(stop, -1, n - 1));
    return {start, start > stop ? (start - stop + (-step) - 1) / (-step) : 0};
}
}  // namespace

TRef op_slice(const ember_tensor* x, const int64_t* start, const int64_t* stop, const int64_t* step, int n) {
    if (n < 0 || n > x->ndim) raise(EMBER_ERR_INDEX, "%d slices given for a tensor with %d dimensions", n, x->ndim);
    int64_t shape[EMBER_MAX_DIMS], strides[EMBER_MAX_DIMS];
    int64_t offset = x->offset;
    for (int i = 0; i < x->ndim; ++i) {
        shape[i] = x->shape[i];
        strides[i] = x->strides[i];
        if (i >= n) continue;
        const int64_t st = step ? step[i] : 1;
        const AxisSlice s = slice_indices(x->shape[i], start ? start[i] : (st > 0 ? 0 : EMBER_SLICE_END), stop ? stop[i] : EMBER_SLICE_END, st);
        shape[i] = s.len;
        strides[i] = x->strides[i] * st;
        if (s.len) offset += s.first * x->strides[i];
    }
    return make_view(x, shape, strides, x->ndim, offset);
}

// The first and last element (from the storage's start, in elements of t's dtype) that a
// geometry reaches; false for an empty one. Past int64: EMBER_ERR_INDEX.
bool element_reach(int64_t first, const int64_t* shape, const int64_t* strides, int ndim, int64_t& lo, int64_t& hi) {
    lo = hi = first;
    for (int i = 0; i < ndim; ++i) {
        if (shape[i] == 0) return false;
        int64_t span;
        if (__builtin_mul_overflow(shape[i] - 1, strides[i], &span) || __builtin_add_overflow(span < 0 ? lo : hi, span, span < 0 ? &lo : &hi))
            raise(EMBER_ERR_INDEX, "the view's elements lie past the range of int64 offsets");
    }
    return true;
}

namespace {
int64_t floor_div(int64_t a, int64_t b) {  // b > 0
    return a / b - (a % b < 0 ? 1 : 0);
}
}  // namespace

TRef op_as_strided(const ember_tensor* x, const int64_t* shape, const int64_t* strides, int ndim, int64_t offset) {
    check_shape(shape, ndim);
    if (ndim > 0 && !strides) raise(EMBER_ERR_INVALID_ARGUMENT, "argument 'strides' is NULL");
    int64_t first, lo, hi;
    if (__builtin_add_overflow(x->offset, offset, &first)) raise(EMBER_ERR_INDEX, "offset %lld is out of range", (long long)offset);
    if (element_reach(first, shape, strides, ndim, lo, hi)) {
        // What the view may reach: the storage's elements; for caller memory, the elements
        // inside the bytes the wrapping tensor reached (else those x reaches).
        const Storage* s = x->storage;
        const int64_t es = (int64_t)dtype_size(x->dtype);
        int64_t may_lo = 0, may_hi = (int64_t)(s->nbytes / es) - 1;
        if (s->external && s->external_extent_known) {
            may_lo = floor_div(s->external_first_byte + es - 1, es);
            may_hi = floor_div(s->external_end_byte, es) - 1;
        } else if (s->external && !element_reach(x->offset, x->shape, x->strides, x->ndim, may_lo, may_hi)) {
            may_hi = may_lo - 1;
        }
        if (lo < may_lo || hi > may_hi)
            raise(EMBER_ERR_INDEX, "the view reaches elements %lld to %lld of memory that holds elements %lld to %lld", (long long)(lo - x->offset),
                  (long long)(hi - x->offset), (long long)(may_lo - x->offset), (long long)(may_hi - x->offset));
    }
    return make_view(x, shape, strides, ndim, first);
}

TRef op_slice_axis(const ember_tensor* x, int64_t axis, int64_t start, int64_t stop, int64_t step) {
    const int a = (int)normalize_axis(axis, x->ndim);
    const AxisSlice s = slice_indices(x->shape[a], start, stop, step);
    int64_t shape[EMBER_MAX_DIMS], strides[EMBER_MAX_DIMS];
    std::copy(x->shape, x->shape + x->ndim, shape);
    std::copy(x->strides, x->strides + x->ndim, strides);
    shape[a] = s.len;
    strides[a] = x->strides[a] * step;
    return make_view(x, shape, strides, x->ndim, x->offset + (s.len ? s.first * x->strides[a] : 0));
}

TRef op_select(const ember_tensor* x, int64_t axis, int64_t index) {
    const int a = (int)normalize_axis(axis, x->ndim);
    const int64_t n = x->shape[a];
    const int64_t i = index < 0 ? index + n : index;
    if (i < 0 || i >= n) raise(EMBER_ERR_INDEX, "index %lld is out of range for axis %d of length %lld", (long long)index, a, (long long)n);
    int64_t shape[EMBER_MAX_DIMS], strides[EMBER_MAX_DIMS];
    for (int k = 0, j = 0; k < x->ndim; ++k) {
        if (k == a) continue;
        shape[j] = x->shape[k];
        strides[j++] = x->strides[k];
    }
    return make_view(x, shape, strides, x->ndim - 1, x->offset + i * x->strides[a]);
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
