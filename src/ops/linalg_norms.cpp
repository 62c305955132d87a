// Linear algebra composites that need no factorization (except the 2 / nuclear norms):
// vector_norm, matrix_norm, norm, cross, kron, multi_dot, diag, diag_embed.
#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <functional>

#include "linalg.hpp"

namespace ember {
namespace la {

namespace {
// The 2-norm as the square root of an unscaled sum of squares. Over all axes of a
// contiguous x or over the last axis that sum is vecdot(x, x), which a backend runs in one
// pass (the cpu kernel for rows up to 4096 long, else BLAS DOT: NumPy computes its norm the
// same way); over other axes it is sum(square(x)), two passes instead of the scaled path's
// eight, and so for last axes shorter than kShortNorm where the backend has no vecdot
// kernel. Valid when every sum of squares is finite and large enough that squares lost to
// underflow cannot matter; otherwise (huge or tiny values, zero rows, inf, NaN) an empty
// TRef sends the caller to the scaled computation. Reads one flag back from the backend,
// from the sums' min and max (NaN propagates through max): isfinite, >=, and and all over
// every sum took 4 passes, as long as the dots themselves for a million rows of 3.
// A complex x counts as the real pairs (re, im) it holds: |z|^2 = re^2 + im^2, so its
// 2-norm is the real dot of that view with itself, without computing any |z|.
TRef two_norm_unscaled(ember_ctx* ctx, const ember_tensor* X, uint64_t mask, bool keepdims) {
    const int nd = X->ndim;
    const uint64_t all = nd >= 64 ? ~0ull : (1ull << nd) - 1;
    const bool cplx = is_complex(X->dtype);
    const int64_t w = cplx ? 2 : 1;  // reals per element
    TRef rows;  // X with the reduced elements along its last axis
    if ((mask & all) == all && is_contiguous(X)) rows = make_view(X, {X->size * w}, {1}, X->offset * w);
    else if (nd > 0 && (mask & all) == (1ull << (nd - 1)) && (!cplx || X->strides[nd - 1] == 1) &&
             (X->shape[nd - 1] * w >= kShortNorm || has_backend_kernel(ctx, OP_vecdot))) {
        Shape shape = shape_of(X), strides(X->strides, X->strides + nd);
        shape[nd - 1] *= w;
        for (int d = 0; d < nd - 1; ++d) strides[d] *= w;
        rows = cplx ? make_view(X, shape, strides, X->offset * 2) : TRef::borrow(X);
    }
    TRef s;
    if (rows) {
        if (cplx) rows->dtype = real_dtype_of(X->dtype);
        s = vecdot_of(ctx, rows.get(), rows.get(), -1);
    } else {
        Shape axes;
        for (int d = 0; d < nd; ++d)
            if (mask & (1ull << d)) axes.push_back(d);
        if (axes.empty()) return TRef();  // no axis: reduce() would read a null list as all axes
        TRef sq = un(ctx, OP_square, cplx ? un(ctx, OP_abs, TRef::borrow(X)) : TRef::borrow(X));
        s = reduce(ctx, OP_sum, sq.get(), axes.data(), (int)axes.size(), false);
    }
    const double tiny = s->dtype == EMBER_FLOAT32 ? 0x1p-60 : 0x1p-900;  // >> (count x smallest normal)
    if (s->size > 0) {
        TRef lo = s, hi = s;  // one sum (a vector's norm): itself
        if (s->size > 1) lo = reduce(ctx, OP_min, s.get(), nullptr, 0, false), hi = reduce(ctx, OP_max, s.get(), nullptr, 0, false);
        if (!read_bool(bin(ctx, OP_logical_and, un(ctx, OP_isfinite, hi), bin(ctx, OP_greater_equal, lo, weak_f64(ctx, tiny))).get())) return TRef();
    }
    Shape shape;
    for (int d = 0; d < nd; ++d)
        if (!(mask & (1ull << d))) shape.push_back(X->shape[d]);
        else if (keepdims) shape.push_back(1);
    return op_reshape(ctx, un(ctx, OP_sqrt, s).get(), shape, false);
}
}  // namespace

TRef vector_norm(ember_ctx* ctx, const ember_tensor* x, double ord, const int64_t* axes, int naxes, bool keepdims) {
    if (std::isnan(ord)) raise(EMBER_ERR_INVALID_ARGUMENT, "ord must not be NaN");
    TRef X = to_compute(ctx, x);
    ember_dtype_t rt = real_dtype_of(X->dtype);
    uint64_t mask = axes_mask(axes, naxes, x->ndim);
    int64_t count = 1;
    for (int d = 0; d < x->ndim; ++d)
        if (mask & (1ull << d)) count *= x->shape[d];
    if (ord == 2 && count > 0 && (rt == EMBER_FLOAT32 || rt == EMBER_FLOAT64))
        if (TRef r = two_norm_unscaled(ctx, X.get(), mask, keepdims)) return r;
    TRef A = un(ctx, OP_abs, X);  // real
    if (ord == INFINITY) return reduce(ctx, OP_max, A.get(), axes, naxes, keepdims);
    if (ord == -INFINITY) return reduce(ctx, OP_min, A.get(), axes, naxes, keepdims);
    if (ord == 0) {
        TRef nz = bin(ctx, OP_not_equal, A, weak_i64(ctx, 0));
        return op_astype(ctx, reduce(ctx, OP_sum, nz.get(), axes, naxes, keepdims).get(), rt);
    }
    if (ord == 1) return reduce(ctx, OP_sum, A.get(), axes, naxes, keepdims);
    if (ord < 0 || count == 0) {  // (sum |x|^p)^(1/p); |x| = 0 gives inf^(1/p) = 0 for p < 0
        TRef s = reduce(ctx, OP_sum, bin(ctx, OP_pow, A, weak_f64(ctx, ord)).get(), axes, naxes, keepdims);
        return bin(ctx, OP_pow, s, weak_f64(ctx, 1.0 / ord));
    }
    // p > 1: scale by the largest |x| so that |x|^p neither overflows nor underflows.
    TRef m = reduce(ctx, OP_max, A.get(), axes, naxes, true);
    TRef bad = bin(ctx, OP_logical_or, bin(ctx, OP_equal, m, weak_i64(ctx, 0)), un(ctx, OP_isinf, m));
    TRef scale = op_where(ctx, bad.get(), scalar_like(ctx, 1, rt).get(), m.get());
    TRef q = bin(ctx, OP_divide, A, scale);
    TRef s = ord == 2 ? reduce(ctx, OP_sum, un(ctx, OP_square, q).get(), axes, naxes, keepdims)
                      : reduce(ctx, OP_sum, bin(ctx, OP_pow, q, weak_f64(ctx, ord)).get(), axes, naxes, keepdims);
    TRef root = ord == 2 ? un(ctx, OP_sqrt, s) : bin(ctx, OP_pow, s, weak_f64(ctx, 1.0 / ord));
    TRef mk = keepdims ? m : op_squeeze_axes(m.get(), mask);
    TRef r = bin(ctx, OP_multiply, root, keepdims ? scale : op_squeeze_axes(scale.get(), mask));
    // An infinite element makes the norm infinite (inf / inf above would be NaN).
    return op_where(ctx, un(ctx, OP_isinf, mk).get(), mk.get(), r.get());
}

namespace {

// Matrix norm over (row_axis, col_axis) of x.
TRef matrix_norm_axes(ember_ctx* ctx, const ember_tensor* x, ember_matrix_norm_ord_t ord, int64_t ra, int64_t ca, bool keepdims) {
    if (x->ndim < 2) raise(EMBER_ERR_SHAPE, "a matrix norm needs at least 2 dimensions, got shape %s", shape_str(x).c_str());
    ra = normalize_axis(ra, x->ndim, "row axis");
    ca = normalize_axis(ca, x->ndim, "column axis");
    if (ra == ca) raise(EMBER_ERR_INVALID_ARGUMENT, "the two axes of a matrix norm must differ");
    if ((int)ord < 0 || (int)ord > EMBER_NORM_NEG_INF) raise(EMBER_ERR_INVALID_ARGUMENT, "unknown matrix norm order %d", (int)ord);
    Shape perm;
    for (int d = 0; d < x->ndim; ++d)
        if (d != ra && d != ca) perm.push_back(d);
    perm.push_back(ra);
    perm.push_back(ca);
    TRef X = op_permute(x, perm.data(), x->ndim);  // (..., rows, cols)
    TRef r;
    const int64_t rows = -2, cols = -1, last = -1;
    switch (ord) {
        case EMBER_NORM_FRO: {
            const int64_t both[2] = {-2, -1};
            r = vector_norm(ctx, X.get(), 2, both, 2, false);
            break;
        }
        case EMBER_NORM_NUC:
        case EMBER_NORM_2:
        case EMBER_NORM_NEG_2: {
            TRef a = to_compute(ctx, X.get());
            TRef s = svd(ctx, a.get(), false, false).s;
            OpId op = ord == EMBER_NORM_NUC ? OP_sum : ord == EMBER_NORM_2 ? OP_max : OP_min;
            r = reduce(ctx, op, s.get(), &last, 1, false);
            break;
        }
        default: {
            bool col = ord == EMBER_NORM_1 || ord == EMBER_NORM_NEG_1;
            bool mx = ord == EMBER_NORM_1 || ord == EMBER_NORM_INF;
            TRef a = un(ctx, OP_abs, to_compute(ctx, X.get()));
            TRef sums = reduce(ctx, OP_sum, a.get(), col ? &rows : &cols, 1, false);
            r = reduce(ctx, mx ? OP_max : OP_min, sums.get(), &last, 1, false);
        }
    }
    if (!keepdims) return r;
    Shape ks = shape_of(x);
    ks[ra] = ks[ca] = 1;
    return op_reshape(ctx, r.get(), ks, true);
}

// Parses norm's ord text. kind: 0 default, 1 "fro", 2 "nuc", 3 a number in *p.
int parse_ord(const char* ord, double* p) {
    if (!ord) return 0;
    if (std::strcmp(ord, "fro") == 0) return 1;
    if (std::strcmp(ord, "nuc") == 0) return 2;
    char* end = nullptr;
    errno = 0;
    *p = std::strtod(ord, &end);
    while (end && *end == ' ') ++end;
    if (end == ord || !end || *end || std::isnan(*p)) raise(EMBER_ERR_INVALID_ARGUMENT, "invalid norm order '%s'", ord);
    return 3;
}

ember_matrix_norm_ord_t matrix_ord(int kind, double p) {
    if (kind == 0 || kind == 1) return EMBER_NORM_FRO;
    if (kind == 2) return EMBER_NORM_NUC;
    if (p == 1) return EMBER_NORM_1;
    if (p == -1) return EMBER_NORM_NEG_1;
    if (p == 2) return EMBER_NORM_2;
    if (p == -2) return EMBER_NORM_NEG_2;
    if (p == INFINITY) return EMBER_NORM_INF;
    if (p == -INFINITY) return EMBER_NORM_NEG_INF;
    raise(EMBER_ERR_INVALID_ARGUMENT, "invalid norm order %g for matrices (use fro, nuc, 1, -1, 2, -2, inf or -inf)", p);
}

TRef norm_impl(ember_ctx* ctx, const ember_tensor* x, const char* ord, const int64_t* axes, int naxes, bool keepdims) {
    double p = 2;
    int kind = parse_ord(ord, &p);
    auto vector_p = [&]() {
        if (kind == 1 || kind == 2) raise(EMBER_ERR_INVALID_ARGUMENT, "norm order '%s' is only defined for matrices", ord);
        return kind == 0 ? 2.0 : p;
    };
    if (!axes) {
        if (kind == 0) return vector_norm(ctx, x, 2, nullptr, 0, keepdims);
        if (x->ndim == 1) return vector_norm(ctx, x, vector_p(), nullptr, 0, keepdims);
        if (x->ndim == 2) return matrix_norm_axes(ctx, x, matrix_ord(kind, p), 0, 1, keepdims);
        raise(EMBER_ERR_SHAPE, "norm with an order and no axes needs a 1-d or 2-d input, got shape %s", shape_str(x).c_str());
    }
    if (naxes == 1) return vector_norm(ctx, x, vector_p(), axes, 1, keepdims);
    if (naxes == 2) return matrix_norm_axes(ctx, x, matrix_ord(kind, p), axes[0], axes[1], keepdims);
    raise(EMBER_ERR_INVALID_ARGUMENT, "norm takes 1 or 2 axes, got %d", naxes);
}

TRef cross_impl(ember_ctx* ctx, const ember_tensor* a, const ember_tensor* b, int64_t axis) {
    if (a->dtype == EMBER_BOOL || b->dtype == EMBER_BOOL) raise(EMBER_ERR_UNSUPPORTED_DTYPE, "cross is not defined for dtype bool");
    Shape shape = broadcast_shapes(shape_of(a), shape_of(b));
    int nd = (int)shape.size();
    if (nd == 0) raise(EMBER_ERR_SHAPE, "cross needs vectors, got 0-d inputs");
    int64_t ax = normalize_axis(axis, nd);
    for (const ember_tensor* t : {a, b}) {
        int64_t d = ax - (nd - t->ndim);
        if (d < 0 || t->shape[d] != 3)
            raise(EMBER_ERR_SHAPE, "cross needs length 3 along axis %lld, got shapes %s and %s", (long long)axis, shape_str(a).c_str(), shape_str(b).c_str());
    }
    TRef A = op_broadcast_to(a, shape), B = op_broadcast_to(b, shape);
    const ember_dtype_t dt = promote(a->dtype, false, b->dtype, false, ctx->default_float);
    // Vectors along the last axis go to a backend kernel; along another axis the composite's
    // component views are contiguous already (moving that axis last costs a transposing copy
    // of each operand, as much as the composite's whole work).
    if (ax == nd - 1 && (dt == EMBER_FLOAT32 || dt == EMBER_FLOAT64) && numel(shape) > 0 && has_backend_kernel(ctx, OP_cross)) {
        auto packed = [&](const TRef& t) { return t->dtype == dt ? contiguous(ctx, t.get()) : op_astype(ctx, t.get(), dt); };
        TRef pa = packed(A), pb = packed(B);
        TRef r = alloc_tensor(ctx, dt, shape);
        if (declinable_kernel(ctx, OP_cross, {view_of(pa.get()), view_of(pb.get())}, r.get(), {})) return r;
    }
    TRef ai[3], bi[3];
    for (int i = 0; i < 3; ++i) {
        ai[i] = op_select(A.get(), ax, i);
        bi[i] = op_select(B.get(), ax, i);
    }
    auto comp = [&](int i, int j) {  // a_i b_j - a_j b_i
        return bin(ctx, OP_subtract, bin(ctx, OP_multiply, ai[i], bi[j]), bin(ctx, OP_multiply, ai[j], bi[i]));
    };
    TRef c[3] = {comp(1, 2), comp(2, 0), comp(0, 1)};
    TRef e[3];
    std::vector<const ember_tensor*> parts;
    for (int i = 0; i < 3; ++i) {
        e[i] = op_expand_dims(c[i].get(), ax);
        parts.push_back(e[i].get());
    }
    return op_concat(ctx, parts, ax);
}

TRef kron_impl(ember_ctx* ctx, const ember_tensor* a, const ember_tensor* b) {
    int nd = std::max(a->ndim, b->ndim);
    if (2 * nd > EMBER_MAX_DIMS) raise(EMBER_ERR_SHAPE, "kron supports at most %d dimensions", EMBER_MAX_DIMS / 2);
    Shape as(2 * nd, 1), bs(2 * nd, 1), out(nd);
    for (int d = 0; d < nd; ++d) {
        int64_t da = d < nd - a->ndim ? 1 : a->shape[d - (nd - a->ndim)];
        int64_t db = d < nd - b->ndim ? 1 : b->shape[d - (nd - b->ndim)];
        as[2 * d] = da;
        bs[2 * d + 1] = db;
        out[d] = da * db;
    }
    TRef A = op_reshape(ctx, a, as, true), B = op_reshape(ctx, b, bs, true);
    return op_reshape(ctx, bin(ctx, OP_multiply, A, B).get(), out, true);
}

TRef multi_dot_impl(ember_ctx* ctx, const ember_tensor* const* xs, int n) {
    if (n < 2) raise(EMBER_ERR_INVALID_ARGUMENT, "multi_dot needs at least 2 tensors, got %d", n);
    std::vector<TRef> m(n);
    for (int i = 0; i < n; ++i) {
        const ember_tensor* x = xs[i];
        bool end = i == 0 || i == n - 1;
        if (x->ndim != 2 && !(end && x->ndim == 1))
            raise(EMBER_ERR_SHAPE, "tensor %d of multi_dot must be 2-d%s, got shape %s", i, end ? " or 1-d" : "", shape_str(x).c_str());
        if (x->ndim == 1) m[i] = i == 0 ? op_expand_dims(x, 0) : op_expand_dims(x, 1);
        else m[i] = TRef::borrow(x);
    }
    std::vector<int64_t> p(n + 1);
    p[0] = m[0]->shape[0];
    for (int i = 0; i < n; ++i) {
        if (m[i]->shape[0] != p[i])
            raise(EMBER_ERR_SHAPE, "tensors %d and %d of multi_dot are not aligned: %lld != %lld", i - 1, i, (long long)p[i], (long long)m[i]->shape[0]);
        p[i + 1] = m[i]->shape[1];
    }
    // Matrix-chain order: cost[i][j] = cheapest flop count for m[i..j], split[i][j] its split.
    std::vector<std::vector<double>> cost(n, std::vector<double>(n, 0));
    std::vector<std::vector<int>> split(n, std::vector<int>(n, 0));
    for (int len = 1; len < n; ++len)
        for (int i = 0; i + len < n; ++i) {
            int j = i + len;
            cost[i][j] = INFINITY;
            for (int k = i; k < j; ++k) {
                double c = cost[i][k] + cost[k + 1][j] + (double)p[i] * (double)p[k + 1] * (double)p[j + 1];
                if (c < cost[i][j]) {
                    cost[i][j] = c;
                    split[i][j] = k;
                }
            }
        }
    std::function<TRef(int, int)> chain = [&](int i, int j) -> TRef {
        if (i == j) return m[i];
        int k = split[i][j];
        return op_matmul(ctx, chain(i, k).get(), chain(k + 1, j).get());
    };
    TRef r = chain(0, n - 1);
    uint64_t drop = 0;
    if (xs[0]->ndim == 1) drop |= 1;
    if (xs[n - 1]->ndim == 1) drop |= 2;
    return drop ? op_squeeze_axes(r.get(), drop) : r;
}

TRef diag_embed_impl(ember_ctx* ctx, const ember_tensor* x, int64_t k) {
    if (x->ndim < 1) raise(EMBER_ERR_SHAPE, "needs at least 1 dimension, got a 0-d tensor");
    if (x->ndim >= EMBER_MAX_DIMS) raise(EMBER_ERR_SHAPE, "the result would have more than %d dimensions", EMBER_MAX_DIMS);
    int64_t n = x->shape[x->ndim - 1];
    if (k > INT64_MAX / 4 || k < -(INT64_MAX / 4)) raise(EMBER_ERR_INVALID_ARGUMENT, "diagonal offset %lld is out of range", (long long)k);
    int64_t N = n + (k < 0 ? -k : k);
    Shape shape(x->shape, x->shape + x->ndim - 1);
    shape.push_back(N);
    shape.push_back(N);
    TRef out = op_full(ctx, shape, 0, x->dtype);
    TRef d = op_diagonal(out.get(), k);
    if (d->size) op_assign(ctx, d.get(), x);
    return out;
}

}  // namespace
}  // namespace la
}  // namespace ember

using namespace ember;
using namespace ember::la;

#define PRELUDE_X            \
    check_ctx(ctx);          \
    require_arg(out, "out"); \
    check_same_backend(ctx, x, "x");

extern "C" {

ENTRY(ember_vector_norm, (ember_ctx_t * ctx, const ember_tensor_t* x, double ord, const int64_t* axes, int naxes, int keepdims, ember_tensor_t** out), {
    PRELUDE_X
    *out = la::vector_norm(ctx, x, ord, axes, naxes, keepdims != 0).release();
})

ENTRY(ember_matrix_norm, (ember_ctx_t * ctx, const ember_tensor_t* x, ember_matrix_norm_ord_t ord, int keepdims, ember_tensor_t** out), {
    PRELUDE_X
    *out = matrix_norm_axes(ctx, x, ord, -2, -1, keepdims != 0).release();
})

ENTRY(ember_norm, (ember_ctx_t * ctx, const ember_tensor_t* x, const char* ord, const int64_t* axes, int naxes, int keepdims, ember_tensor_t** out), {
    PRELUDE_X
    *out = norm_impl(ctx, x, ord, axes, naxes, keepdims != 0).release();
})

ENTRY(ember_cross, (ember_ctx_t * ctx, const ember_tensor_t* a, const ember_tensor_t* b, int64_t axis, ember_tensor_t** out), {
    check_ctx(ctx);
    require_arg(out, "out");
    check_same_backend(ctx, a, "a");
    check_same_backend(ctx, b, "b");
    *out = cross_impl(ctx, a, b, axis).release();
})

ENTRY(ember_kron, (ember_ctx_t * ctx, const ember_tensor_t* a, const ember_tensor_t* b, ember_tensor_t** out), {
    check_ctx(ctx);
    require_arg(out, "out");
    check_same_backend(ctx, a, "a");
    check_same_backend(ctx, b, "b");
    *out = kron_impl(ctx, a, b).release();
})

ENTRY(ember_multi_dot, (ember_ctx_t * ctx, const ember_tensor_t* const* xs, int n, ember_tensor_t** out), {
    check_ctx(ctx);
    require_arg(out, "out");
    if (n > 0) require_arg(xs, "xs");
    for (int i = 0; i < n; ++i) check_same_backend(ctx, xs[i], "xs[i]");
    *out = multi_dot_impl(ctx, xs, n).release();
})

ENTRY(ember_diag, (ember_ctx_t * ctx, const ember_tensor_t* x, int64_t k, ember_tensor_t** out), {
    PRELUDE_X
    if (x->ndim == 1) *out = diag_embed_impl(ctx, x, k).release();
    else if (x->ndim == 2) *out = op_copy(ctx, op_diagonal(x, k).get()).release();
    else raise(EMBER_ERR_SHAPE, "diag needs a 1-d or 2-d input, got shape %s (see ember_diag_embed and ember_diagonal)", shape_str(x).c_str());
})

ENTRY(ember_diag_embed, (ember_ctx_t * ctx, const ember_tensor_t* x, int64_t k, ember_tensor_t** out), {
    PRELUDE_X
    *out = diag_embed_impl(ctx, x, k).release();
})

}  // extern "C"
