// Linear algebra: the factorization entry points (primitive slots: lu_factor, lu_solve,
// cholesky, qr, svd, eigh, eig) and the composites written over them (solve, inv, det,
// slogdet, svdvals, eigvalsh, eigvals, lstsq, pinv, matrix_rank, matrix_power, expm).
// Kernel conventions: docs/numerics-linalg.md.
#include "linalg.hpp"

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstring>

namespace ember {
namespace la {

ember_dtype_t compute_dtype(const ember_ctx* ctx, ember_dtype_t d) {
    if (d == EMBER_BOOL || is_integer(d)) d = ctx->default_float;
    if (d == EMBER_FLOAT16 || d == EMBER_BFLOAT16) d = EMBER_FLOAT32;
    return d;
}

TRef to_compute(ember_ctx* ctx, const ember_tensor* x) { return cast_if(ctx, x, compute_dtype(ctx, x->dtype)); }

double eps_of(ember_dtype_t d) {
    return (d == EMBER_FLOAT32 || d == EMBER_COMPLEX64) ? (double)FLT_EPSILON : DBL_EPSILON;
}

void need_matrix(const ember_tensor* x, const char* name) {
    if (x->ndim < 2) raise(EMBER_ERR_SHAPE, "%s must have at least 2 dimensions (..., M, N), got shape %s", name, shape_str(x).c_str());
}

void need_square(const ember_tensor* x, const char* name) {
    need_matrix(x, name);
    if (x->shape[x->ndim - 1] != x->shape[x->ndim - 2])
        raise(EMBER_ERR_SHAPE, "%s must be square in its last two dimensions, got shape %s", name, shape_str(x).c_str());
}

Shape batch_of(const ember_tensor* x) { return Shape(x->shape, x->shape + std::max(0, x->ndim - 2)); }

Shape with(Shape s, std::initializer_list<int64_t> tail) {
    s.insert(s.end(), tail);
    return s;
}

std::string where_in_batch(const Shape& batch, int64_t flat) {
    if (batch.empty()) return "the matrix";
    if (batch.size() == 1) return format("matrix %lld of the batch", (long long)flat);
    Shape idx(batch.size());
    for (size_t d = batch.size(); d-- > 0;) {
        idx[d] = batch[d] ? flat % batch[d] : 0;
        flat = batch[d] ? flat / batch[d] : 0;
    }
    std::string s = "matrix (";
    for (size_t d = 0; d < idx.size(); ++d) s += format(d ? ", %lld" : "%lld", (long long)idx[d]);
    return s + ") of the batch";
}

std::string info_where(const Shape& batch, const std::vector<int64_t>& info, int64_t* code) {
    for (size_t i = 0; i < info.size(); ++i)
        if (info[i]) {
            *code = info[i];
            return where_in_batch(batch, (int64_t)i);
        }
    *code = 0;
    return "";
}

namespace {
// Bool mask (n, n) of the lower (tri < 0) or upper (tri > 0) triangle, diagonal included.
TRef triangle_mask(ember_ctx* ctx, int64_t n, int tri) {
    TRef rows = op_reshape(ctx, op_arange(ctx, 0, 1, n, EMBER_INT64).get(), {n, 1}, false);
    TRef cols = op_arange(ctx, 0, 1, n, EMBER_INT64);
    return bin(ctx, tri < 0 ? OP_greater_equal : OP_less_equal, rows, cols);
}
}  // namespace

bool read_bool(const ember_tensor* t) {
    uint8_t v = 0;
    read_contiguous(t, &v, 1);
    return v != 0;
}

void check_finite(ember_ctx* ctx, const ember_tensor* x, int tri) {
    if (x->size == 0) return;
    TRef fin = run_unary(ctx, OP_isfinite, x);
    if (tri) {
        TRef mask = triangle_mask(ctx, x->shape[x->ndim - 1], tri);
        fin = bin(ctx, OP_logical_or, fin, un(ctx, OP_logical_not, mask));
    }
    if (read_bool(reduce(ctx, OP_all, fin.get(), nullptr, 0, false).get())) return;
    Shape batch = batch_of(x);
    TRef per = sum_axes(ctx, un(ctx, OP_logical_not, fin).get(), {-2, -1}, false);  // int64 count per matrix
    check_info(per.get(), batch, [](const std::string& where, int64_t) { return where + " contains NaN or infinity"; });
}

TRef mh(ember_ctx* ctx, const ember_tensor* x) {
    TRef t = op_swapaxes(x, -1, -2);
    if (is_complex(x->dtype)) return un(ctx, OP_conj, t);
    return t;
}

TRef eye_batch(ember_ctx* ctx, const Shape& batch, int64_t m, int64_t n, ember_dtype_t dtype) {
    TRef out = op_full(ctx, with(batch, {m, n}), 0, dtype);
    TRef d = op_diagonal(out.get(), 0);
    if (d->size) op_assign(ctx, d.get(), weak_f64(ctx, 1).get());
    return out;
}

TRef max_last(ember_ctx* ctx, const ember_tensor* x, bool keepdims) {
    int64_t ax = -1;
    return reduce(ctx, OP_max, x, &ax, 1, keepdims);
}

TRef sum_axes(ember_ctx* ctx, const ember_tensor* x, std::initializer_list<int64_t> axes, bool keepdims) {
    return reduce(ctx, OP_sum, x, axes.begin(), (int)axes.size(), keepdims);
}

// ---------------------------------------------------------------- factorizations

LU lu_factor(ember_ctx* ctx, const ember_tensor* a) {
    Shape batch = batch_of(a);
    int64_t m = a->shape[a->ndim - 2], n = a->shape[a->ndim - 1];
    LU r;
    r.lu = alloc_tensor(ctx, a->dtype, shape_of(a));
    r.pivots = alloc_tensor(ctx, EMBER_INT64, with(batch, {std::min(m, n)}));
    r.info = op_full(ctx, batch, 0, EMBER_INT64);
    if (r.lu->size) run_kernel(ctx, OP_lu_factor, {view_of(a)}, {view_of(r.lu.get()), view_of(r.pivots.get()), view_of(r.info.get())});
    return r;
}

TRef lu_solve(ember_ctx* ctx, const ember_tensor* lu, const ember_tensor* pivots, const ember_tensor* b) {
    int64_t n = lu->shape[lu->ndim - 1], k = b->shape[b->ndim - 1];
    Shape batch = broadcast_shapes(broadcast_shapes(batch_of(lu), Shape(pivots->shape, pivots->shape + pivots->ndim - 1)), batch_of(b));
    TRef x = alloc_tensor(ctx, lu->dtype, with(batch, {n, k}));
    if (x->size) {
        int64_t s0[EMBER_MAX_DIMS], s1[EMBER_MAX_DIMS], s2[EMBER_MAX_DIMS];
        Shape ls = with(batch, {n, n}), ps = with(batch, {n});
        run_kernel(ctx, OP_lu_solve, {broadcast_view(lu, ls, s0), broadcast_view(pivots, ps, s1), broadcast_view(b, shape_of(x.get()), s2)},
                   {view_of(x.get())});
    }
    return x;
}

namespace {
// Whether a backend's solve or inv kernel (COMPOSITE_KERNEL) solved every matrix: it sets
// info nonzero for each one it did not (an exact zero pivot of its own factorization, or a
// size it cannot take). Then the composite runs for the whole call, and an input singular
// for the composite gets its error and message; a debug log line says so.
bool kernel_solved_all(const char* op, const ember_tensor* info) {
    std::vector<int64_t> v((size_t)info->size);
    read_contiguous(info, v.data(), v.size() * sizeof(int64_t));
    for (size_t i = 0; i < v.size(); ++i)
        if (v[i]) {
            log_message(EMBER_LOG_DEBUG, format("ember_%s: the backend's kernel left matrix %lld of the batch unsolved; running the composite", op,
                                                (long long)i));
            return false;
        }
    return true;
}
}  // namespace

TRef solve_matrix(ember_ctx* ctx, const ember_tensor* a, const ember_tensor* b, bool try_kernel) {
    // The kernel factors each matrix of A once per run of batch elements that share it, so
    // it takes A as one matrix or as A's own batch; other broadcasts (and shapes that do not
    // broadcast, whose error comes after the composite's singularity check) stay composite.
    if (try_kernel && a->size && b->size && has_backend_kernel(ctx, OP_solve) && shapes_broadcast(batch_of(a), batch_of(b))) {
        Shape batch = broadcast_shapes(batch_of(a), batch_of(b));
        if (numel(batch_of(a)) == 1 || batch_of(a) == batch) {
            int64_t n = a->shape[a->ndim - 1], k = b->shape[b->ndim - 1];
            TRef x = alloc_tensor(ctx, a->dtype, with(batch, {n, k}));
            TRef info = alloc_tensor(ctx, EMBER_INT64, batch);
            int64_t s0[EMBER_MAX_DIMS], s1[EMBER_MAX_DIMS];
            run_kernel(ctx, OP_solve, {broadcast_view(a, with(batch, {n, n}), s0), broadcast_view(b, shape_of(x.get()), s1)},
                       {view_of(x.get()), view_of(info.get())});
            if (kernel_solved_all("solve", info.get())) return x;
        }
    }
    LU f = lu_factor(ctx, a);
    check_info(f.info.get(), batch_of(a), [](const std::string& where, int64_t code) {
        return format("%s is singular (pivot %lld is zero)", where.c_str(), (long long)(code - 1));
    });
    return lu_solve(ctx, f.lu.get(), f.pivots.get(), b);
}

SVD svd(ember_ctx* ctx, const ember_tensor* a, bool full, bool uv) {
    Shape batch = batch_of(a);
    int64_t m = a->shape[a->ndim - 2], n = a->shape[a->ndim - 1], k = std::min(m, n);
    ember_dtype_t rt = real_dtype_of(a->dtype);
    SVD r;
    r.s = alloc_tensor(ctx, rt, with(batch, {k}));
    if (uv) {
        r.u = alloc_tensor(ctx, a->dtype, with(batch, {m, full ? m : k}));
        r.vh = alloc_tensor(ctx, a->dtype, with(batch, {full ? n : k, n}));
    }
    if (k == 0 || numel(batch) == 0) {
        if (uv && full) {  // the factors of an empty matrix are identities
            r.u = eye_batch(ctx, batch, m, m, a->dtype);
            r.vh = eye_batch(ctx, batch, n, n, a->dtype);
        }
        return r;
    }
    check_finite(ctx, a);
    TRef info = alloc_tensor(ctx, EMBER_INT64, batch);
    ember_attrs_t at{};
    at.i[0] = full;
    at.i[1] = uv;
    if (uv)
        run_kernel(ctx, OP_svd, {view_of(a)}, {view_of(r.u.get()), view_of(r.s.get()), view_of(r.vh.get()), view_of(info.get())}, at);
    else
        run_kernel(ctx, OP_svd, {view_of(a)}, {view_of(r.s.get()), view_of(info.get())}, at);
    check_info(info.get(), batch, [](const std::string& where, int64_t) { return "the SVD of " + where + " did not converge"; });
    return r;
}

TRef sv_cutoff(ember_ctx* ctx, const ember_tensor* s, double atol, double rtol, int64_t m, int64_t n) {
    if (rtol < 0) rtol = atol > 0 ? 0 : eps_of(s->dtype) * (double)std::max(m, n);
    TRef smax = max_last(ctx, s, true);
    TRef rel = bin(ctx, OP_multiply, smax, weak_f64(ctx, rtol));
    return bin(ctx, OP_maximum, rel, weak_f64(ctx, atol));
}

namespace {

struct Eigh {
    TRef w, v;
};
Eigh eigh_impl(ember_ctx* ctx, const ember_tensor* a, bool upper, bool vectors) {
    Shape batch = batch_of(a);
    int64_t n = a->shape[a->ndim - 1];
    Eigh r;
    r.w = alloc_tensor(ctx, real_dtype_of(a->dtype), with(batch, {n}));
    if (vectors) r.v = alloc_tensor(ctx, a->dtype, shape_of(a));
    if (a->size == 0) return r;
    check_finite(ctx, a, upper ? 1 : -1);
    TRef info = alloc_tensor(ctx, EMBER_INT64, batch);
    ember_attrs_t at{};
    at.i[0] = upper;
    at.i[1] = vectors;
    if (vectors)
        run_kernel(ctx, OP_eigh, {view_of(a)}, {view_of(r.w.get()), view_of(r.v.get()), view_of(info.get())}, at);
    else
        run_kernel(ctx, OP_eigh, {view_of(a)}, {view_of(r.w.get()), view_of(info.get())}, at);
    check_info(info.get(), batch, [](const std::string& where, int64_t) { return "the eigenvalue iteration for " + where + " did not converge"; });
    return r;
}

Eigh eig_impl(ember_ctx* ctx, const ember_tensor* a, bool vectors) {
    Shape batch = batch_of(a);
    int64_t n = a->shape[a->ndim - 1];
    ember_dtype_t ct = is_complex(a->dtype) ? a->dtype : complex_dtype_of(a->dtype);
    Eigh r;
    r.w = alloc_tensor(ctx, ct, with(batch, {n}));
    if (vectors) r.v = alloc_tensor(ctx, ct, shape_of(a));
    if (a->size == 0) return r;
    check_finite(ctx, a);
    TRef info = alloc_tensor(ctx, EMBER_INT64, batch);
    ember_attrs_t at{};
    at.i[0] = vectors;
    if (vectors)
        run_kernel(ctx, OP_eig, {view_of(a)}, {view_of(r.w.get()), view_of(r.v.get()), view_of(info.get())}, at);
    else
        run_kernel(ctx, OP_eig, {view_of(a)}, {view_of(r.w.get()), view_of(info.get())}, at);
    check_info(info.get(), batch, [](const std::string& where, int64_t) { return "the QR iteration for the eigenvalues of " + where + " did not converge"; });
    return r;
}

// Right-hand side: a vector b (1-d) becomes a one-column matrix.
TRef rhs_matrix(ember_ctx* ctx, const ember_tensor* b, int64_t rows, const char* what) {
    if (b->ndim == 0) raise(EMBER_ERR_SHAPE, "b must have at least 1 dimension");
    if (b->ndim == 1) {
        if (b->shape[0] != rows) raise(EMBER_ERR_SHAPE, "%s has %lld rows but b has shape %s", what, (long long)rows, shape_str(b).c_str());
        return op_expand_dims(b, 1);
    }
    if (b->shape[b->ndim - 2] != rows)
        raise(EMBER_ERR_SHAPE, "%s has %lld rows but b has shape %s (rows in its second-to-last dimension)", what, (long long)rows, shape_str(b).c_str());
    return TRef::borrow(b);
}

TRef drop_last(ember_ctx* ctx, const ember_tensor* x) { return op_squeeze_axes(x, 1ull << (x->ndim - 1)); }

// (-1)^(number of actual row swaps) from 0-based LAPACK pivots (..., k).
TRef pivot_sign(ember_ctx* ctx, const ember_tensor* pivots, ember_dtype_t dtype) {
    int64_t k = pivots->shape[pivots->ndim - 1];
    TRef swapped = run_binary(ctx, OP_not_equal, pivots, op_arange(ctx, 0, 1, k, EMBER_INT64).get());
    int64_t last = -1;
    TRef count = reduce(ctx, OP_sum, swapped.get(), &last, 1, false);
    TRef odd = bin(ctx, OP_equal, bin(ctx, OP_remainder, count, weak_i64(ctx, 2)), weak_i64(ctx, 1));
    return op_where(ctx, odd.get(), scalar_like(ctx, -1, dtype).get(), scalar_like(ctx, 1, dtype).get());
}

struct Slogdet {
    TRef sign, logabs;
};
Slogdet slogdet_impl(ember_ctx* ctx, const ember_tensor* x) {
    need_square(x, "x");
    TRef a = to_compute(ctx, x);
    ember_dtype_t dt = a->dtype, rt = real_dtype_of(dt);
    Shape batch = batch_of(a.get());
    if (a->shape[a->ndim - 1] == 0) return {op_full(ctx, batch, 1, dt), op_full(ctx, batch, 0, rt)};
    if (a->size && has_backend_kernel(ctx, OP_slogdet)) {
        Slogdet r{alloc_tensor(ctx, dt, batch), alloc_tensor(ctx, rt, batch)};
        TRef info = alloc_tensor(ctx, EMBER_INT64, batch);
        run_kernel(ctx, OP_slogdet, {view_of(a.get())}, {view_of(r.sign.get()), view_of(r.logabs.get()), view_of(info.get())});
        if (kernel_solved_all("slogdet", info.get())) return r;
    }
    LU f = lu_factor(ctx, a.get());
    TRef d = op_diagonal(f.lu.get(), 0);
    TRef ad = un(ctx, OP_abs, d);
    TRef zero = bin(ctx, OP_equal, ad, weak_i64(ctx, 0));
    TRef unit = op_where(ctx, zero.get(), scalar_like(ctx, 0, dt).get(), bin(ctx, OP_divide, d, cast_if(ctx, ad.get(), dt)).get());
    int64_t last = -1;
    TRef phase = reduce(ctx, OP_prod, unit.get(), &last, 1, false);
    TRef sign = bin(ctx, OP_multiply, phase, pivot_sign(ctx, f.pivots.get(), dt));
    TRef logabs = reduce(ctx, OP_sum, un(ctx, OP_log, ad).get(), &last, 1, false);
    return {sign, logabs};
}

TRef matmul_t(ember_ctx* ctx, const TRef& a, const TRef& b) { return op_matmul(ctx, a.get(), b.get()); }

// The matrix exponential by scaling and squaring with the [13/13] Pade approximant
// (Higham 2005); one scaling for the whole batch (that of the largest 1-norm).
TRef expm_impl(ember_ctx* ctx, const ember_tensor* x) {
    need_square(x, "x");
    TRef a = to_compute(ctx, x);
    int64_t n = a->shape[a->ndim - 1];
    if (a->size == 0) return op_copy(ctx, a.get());
    const int64_t rows_axis = -2;
    TRef colsum = reduce(ctx, OP_sum, un(ctx, OP_abs, a).get(), &rows_axis, 1, false);
    TRef norms = reduce(ctx, OP_max, colsum.get(), nullptr, 0, false);
    double nrm = 0;
    TRef nrm64 = op_astype(ctx, norms.get(), EMBER_FLOAT64);
    read_contiguous(nrm64.get(), &nrm, sizeof nrm);
    const double theta13 = 5.371920351148152;
    int s = 0;
    if (std::isfinite(nrm) && nrm > theta13) s = std::max(0, (int)std::ceil(std::log2(nrm / theta13)));
    if (s) a = bin(ctx, OP_multiply, a, weak_f64(ctx, std::ldexp(1.0, -s)));
    static const double b[14] = {64764752532480000.0, 32382376266240000.0, 7771770303897600.0, 1187353796428800.0, 129060195264000.0,
                                 10559470521600.0,    670442572800.0,      33522128640.0,      1323241920.0,       40840800.0,
                                 960960.0,            16380.0,             182.0,              1.0};
    TRef I = eye_batch(ctx, {}, n, n, a->dtype);
    TRef A2 = matmul_t(ctx, a, a), A4 = matmul_t(ctx, A2, A2), A6 = matmul_t(ctx, A4, A2);
    auto lin = [&](double c6, double c4, double c2, double c0) {  // c6*A6 + c4*A4 + c2*A2 (+ c0*I)
        TRef r = bin(ctx, OP_add, bin(ctx, OP_multiply, A6, weak_f64(ctx, c6)), bin(ctx, OP_multiply, A4, weak_f64(ctx, c4)));
        r = bin(ctx, OP_add, r, bin(ctx, OP_multiply, A2, weak_f64(ctx, c2)));
        if (c0 != 0) r = bin(ctx, OP_add, r, bin(ctx, OP_multiply, I, weak_f64(ctx, c0)));
        return r;
    };
    TRef U = matmul_t(ctx, a, bin(ctx, OP_add, matmul_t(ctx, A6, lin(b[13], b[11], b[9], 0)), lin(b[7], b[5], b[3], b[1])));
    TRef V = bin(ctx, OP_add, matmul_t(ctx, A6, lin(b[12], b[10], b[8], 0)), lin(b[6], b[4], b[2], b[0]));
    TRef R = solve_matrix(ctx, bin(ctx, OP_subtract, V, U).get(), bin(ctx, OP_add, V, U).get());
    for (int i = 0; i < s; ++i) R = matmul_t(ctx, R, R);
    return R;
}

TRef matrix_power_impl(ember_ctx* ctx, const ember_tensor* x, int64_t n) {
    need_square(x, "x");
    int64_t m = x->shape[x->ndim - 1];
    if (n == 0) return eye_batch(ctx, batch_of(x), m, m, x->dtype);
    TRef base;
    if (n < 0) {
        if (n == INT64_MIN) raise(EMBER_ERR_INVALID_ARGUMENT, "n is out of range");
        TRef a = to_compute(ctx, x);
        base = solve_matrix(ctx, a.get(), eye_batch(ctx, {}, m, m, a->dtype).get());
        n = -n;
    } else {
        if (x->dtype == EMBER_BOOL) raise(EMBER_ERR_UNSUPPORTED_DTYPE, "matrix_power is not defined for dtype bool");
        base = TRef::borrow(x);
    }
    TRef result;
    for (;;) {
        if (n & 1) result = result ? matmul_t(ctx, result, base) : op_copy(ctx, base.get());
        n >>= 1;
        if (!n) break;
        base = matmul_t(ctx, base, base);
    }
    return result;
}

}  // namespace
}  // namespace la
}  // namespace ember

using namespace ember;
using namespace ember::la;

extern "C" {

ENTRY(ember_lu_factor, (ember_ctx_t * ctx, const ember_tensor_t* a, ember_tensor_t** lu, ember_tensor_t** pivots), {
    check_ctx(ctx);
    require_arg(lu, "lu");
    require_arg(pivots, "pivots");
    check_same_backend(ctx, a, "a");
    need_matrix(a, "a");
    TRef ac = to_compute(ctx, a);
    LU f = la::lu_factor(ctx, ac.get());
    *lu = f.lu.release();
    *pivots = f.pivots.release();
})

ENTRY(ember_lu_solve, (ember_ctx_t * ctx, const ember_tensor_t* lu, const ember_tensor_t* pivots, const ember_tensor_t* b, ember_tensor_t** x), {
    check_ctx(ctx);
    require_arg(x, "x");
    check_same_backend(ctx, lu, "lu");
    check_same_backend(ctx, pivots, "pivots");
    check_same_backend(ctx, b, "b");
    need_square(lu, "lu");
    int64_t n = lu->shape[lu->ndim - 1];
    if (!is_integer(pivots->dtype)) raise(EMBER_ERR_UNSUPPORTED_DTYPE, "pivots must have an integer dtype, got %s", dtype_name(pivots->dtype));
    if (pivots->ndim < 1 || pivots->shape[pivots->ndim - 1] != n)
        raise(EMBER_ERR_SHAPE, "pivots must have shape (..., %lld) for lu of shape %s, got %s", (long long)n, shape_str(lu).c_str(), shape_str(pivots).c_str());
    ember_dtype_t dt = compute_dtype(ctx, promote(lu->dtype, lu->weak, b->dtype, b->weak, ctx->default_float));
    TRef L = cast_if(ctx, lu, dt), P = cast_if(ctx, pivots, EMBER_INT64);
    TRef B = rhs_matrix(ctx, b, n, "lu");
    B = cast_if(ctx, B.get(), dt);
    if (n) {  // a zero on U's diagonal would divide by zero
        TRef d = op_diagonal(L.get(), 0);
        TRef z = bin(ctx, OP_equal, d, weak_i64(ctx, 0));
        if (read_bool(reduce(ctx, OP_any, z.get(), nullptr, 0, false).get())) {
            TRef first = op_argreduce(ctx, OP_argmax, z.get(), -1, false);
            const int64_t last = -1;
            TRef any = reduce(ctx, OP_any, z.get(), &last, 1, false);
            TRef code = op_where(ctx, any.get(), bin(ctx, OP_add, first, weak_i64(ctx, 1)).get(), weak_i64(ctx, 0).get());
            check_info(cast_if(ctx, code.get(), EMBER_INT64).get(), batch_of(L.get()), [](const std::string& where, int64_t c) {
                return format("%s is singular (pivot %lld is zero)", where.c_str(), (long long)(c - 1));
            });
        }
    }
    TRef r = la::lu_solve(ctx, L.get(), P.get(), B.get());
    *x = (b->ndim == 1 ? drop_last(ctx, r.get()) : r).release();
})

ENTRY(ember_cholesky, (ember_ctx_t * ctx, const ember_tensor_t* x, int upper, ember_tensor_t** out), {
    check_x_entry(ctx, x, out);
    need_square(x, "x");
    TRef a = to_compute(ctx, x);
    Shape batch = batch_of(a.get());
    TRef l = alloc_tensor(ctx, a->dtype, shape_of(a.get()));
    if (a->size) {
        TRef info = alloc_tensor(ctx, EMBER_INT64, batch);
        ember_attrs_t at{};
        at.i[0] = upper != 0;
        run_kernel(ctx, OP_cholesky, {view_of(a.get())}, {view_of(l.get()), view_of(info.get())}, at);
        check_info(info.get(), batch, [](const std::string& where, int64_t code) {
            return format("%s is not positive definite (pivot %lld)", where.c_str(), (long long)(code - 1));
        });
    }
    *out = l.release();
})

ENTRY(ember_qr, (ember_ctx_t * ctx, const ember_tensor_t* x, ember_qr_mode_t mode, ember_tensor_t** q, ember_tensor_t** r), {
    check_ctx(ctx);
    require_arg(r, "r");
    if (mode != EMBER_QR_R) require_arg(q, "q");
    if ((int)mode < 0 || (int)mode > EMBER_QR_R) raise(EMBER_ERR_INVALID_ARGUMENT, "unknown QR mode %d", (int)mode);
    check_same_backend(ctx, x, "x");
    need_matrix(x, "x");
    TRef a = to_compute(ctx, x);
    Shape batch = batch_of(a.get());
    int64_t m = a->shape[a->ndim - 2], n = a->shape[a->ndim - 1], k = std::min(m, n);
    int64_t kq = mode == EMBER_QR_COMPLETE ? m : k;
    TRef R = op_full(ctx, with(batch, {kq, n}), 0, a->dtype);
    TRef Q;
    if (mode != EMBER_QR_R) Q = alloc_tensor(ctx, a->dtype, with(batch, {m, kq}));
    ember_attrs_t at{};
    at.i[0] = mode;
    if (k == 0 || numel(batch) == 0) {
        if (Q) Q = eye_batch(ctx, batch, m, kq, a->dtype);
    } else if (Q) {
        run_kernel(ctx, OP_qr, {view_of(a.get())}, {view_of(Q.get()), view_of(R.get())}, at);
    } else {
        run_kernel(ctx, OP_qr, {view_of(a.get())}, {view_of(R.get())}, at);
    }
    if (Q) *q = Q.release();
    *r = R.release();
})

ENTRY(ember_svd, (ember_ctx_t * ctx, const ember_tensor_t* x, int full_matrices, ember_tensor_t** u, ember_tensor_t** s, ember_tensor_t** vh), {
    check_ctx(ctx);
    require_arg(u, "u");
    require_arg(s, "s");
    require_arg(vh, "vh");
    check_same_backend(ctx, x, "x");
    need_matrix(x, "x");
    TRef a = to_compute(ctx, x);
    SVD f = la::svd(ctx, a.get(), full_matrices != 0, true);
    *u = f.u.release();
    *s = f.s.release();
    *vh = f.vh.release();
})

ENTRY(ember_svdvals, (ember_ctx_t * ctx, const ember_tensor_t* x, ember_tensor_t** out), {
    check_x_entry(ctx, x, out);
    need_matrix(x, "x");
    TRef a = to_compute(ctx, x);
    *out = la::svd(ctx, a.get(), false, false).s.release();
})

ENTRY(ember_eigh, (ember_ctx_t * ctx, const ember_tensor_t* x, int upper, ember_tensor_t** w, ember_tensor_t** v), {
    check_ctx(ctx);
    require_arg(w, "w");
    check_same_backend(ctx, x, "x");
    need_square(x, "x");
    TRef a = to_compute(ctx, x);
    Eigh e = eigh_impl(ctx, a.get(), upper != 0, v != nullptr);
    *w = e.w.release();
    if (v) *v = e.v.release();
})

ENTRY(ember_eigvalsh, (ember_ctx_t * ctx, const ember_tensor_t* x, int upper, ember_tensor_t** out), {
    check_x_entry(ctx, x, out);
    need_square(x, "x");
    TRef a = to_compute(ctx, x);
    *out = eigh_impl(ctx, a.get(), upper != 0, false).w.release();
})

ENTRY(ember_eig, (ember_ctx_t * ctx, const ember_tensor_t* x, ember_tensor_t** w, ember_tensor_t** v), {
    check_ctx(ctx);
    require_arg(w, "w");
    check_same_backend(ctx, x, "x");
    need_square(x, "x");
    TRef a = to_compute(ctx, x);
    Eigh e = eig_impl(ctx, a.get(), v != nullptr);
    *w = e.w.release();
    if (v) *v = e.v.release();
})

ENTRY(ember_eigvals, (ember_ctx_t * ctx, const ember_tensor_t* x, ember_tensor_t** out), {
    check_x_entry(ctx, x, out);
    need_square(x, "x");
    TRef a = to_compute(ctx, x);
    *out = eig_impl(ctx, a.get(), false).w.release();
})

ENTRY(ember_solve, (ember_ctx_t * ctx, const ember_tensor_t* a, const ember_tensor_t* b, ember_tensor_t** x), {
    check_ctx(ctx);
    require_arg(x, "x");
    check_same_backend(ctx, a, "a");
    check_same_backend(ctx, b, "b");
    need_square(a, "a");
    ember_dtype_t dt = compute_dtype(ctx, promote(a->dtype, a->weak, b->dtype, b->weak, ctx->default_float));
    TRef A = cast_if(ctx, a, dt);
    TRef B = rhs_matrix(ctx, b, a->shape[a->ndim - 1], "a");
    B = cast_if(ctx, B.get(), dt);
    TRef r = solve_matrix(ctx, A.get(), B.get());
    *x = (b->ndim == 1 ? drop_last(ctx, r.get()) : r).release();
})

ENTRY(ember_inv, (ember_ctx_t * ctx, const ember_tensor_t* x, ember_tensor_t** out), {
    check_x_entry(ctx, x, out);
    need_square(x, "x");
    TRef a = to_compute(ctx, x);
    int64_t n = a->shape[a->ndim - 1];
    const bool use_kernel = a->size && has_backend_kernel(ctx, OP_inv);
    if (use_kernel) {
        TRef r = alloc_tensor(ctx, a->dtype, shape_of(a.get()));
        TRef info = alloc_tensor(ctx, EMBER_INT64, batch_of(a.get()));
        run_kernel(ctx, OP_inv, {view_of(a.get())}, {view_of(r.get()), view_of(info.get())});
        if (kernel_solved_all("inv", info.get())) {
            *out = r.release();
            return;
        }
    }
    // After the inv kernel, the solve kernel would factor the same matrices the same way.
    *out = solve_matrix(ctx, a.get(), eye_batch(ctx, {}, n, n, a->dtype).get(), !use_kernel).release();
})

ENTRY(ember_det, (ember_ctx_t * ctx, const ember_tensor_t* x, ember_tensor_t** out), {
    check_x_entry(ctx, x, out);
    need_square(x, "x");
    TRef a = to_compute(ctx, x);
    if (a->shape[a->ndim - 1] == 0) {
        *out = op_full(ctx, batch_of(a.get()), 1, a->dtype).release();
        return;
    }
    if (a->size && has_backend_kernel(ctx, OP_det)) {
        TRef d = alloc_tensor(ctx, a->dtype, batch_of(a.get()));
        TRef info = alloc_tensor(ctx, EMBER_INT64, batch_of(a.get()));
        run_kernel(ctx, OP_det, {view_of(a.get())}, {view_of(d.get()), view_of(info.get())});
        if (kernel_solved_all("det", info.get())) {
            *out = d.release();
            return;
        }
    }
    LU f = la::lu_factor(ctx, a.get());
    int64_t last = -1;
    TRef p = reduce(ctx, OP_prod, op_diagonal(f.lu.get(), 0).get(), &last, 1, false);
    *out = bin(ctx, OP_multiply, p, pivot_sign(ctx, f.pivots.get(), a->dtype)).release();
})

ENTRY(ember_slogdet, (ember_ctx_t * ctx, const ember_tensor_t* x, ember_tensor_t** sign, ember_tensor_t** logabsdet), {
    check_ctx(ctx);
    require_arg(sign, "sign");
    require_arg(logabsdet, "logabsdet");
    check_same_backend(ctx, x, "x");
    Slogdet r = slogdet_impl(ctx, x);
    *sign = r.sign.release();
    *logabsdet = r.logabs.release();
})

namespace {
struct LstsqParts {
    TRef x, s, rank;
};

// X = V diag(1/s_i where s_i > rcond * s_max, else 0) U^H B.
LstsqParts lstsq_by_svd(ember_ctx* ctx, const ember_tensor* a, const ember_tensor* b, double rcond) {
    SVD f = la::svd(ctx, a, false, true);
    TRef keep;  // bool (..., k): singular values above the cutoff
    if (f.s->shape[f.s->ndim - 1] > 0) {
        TRef cutoff = bin(ctx, OP_multiply, max_last(ctx, f.s.get(), true), weak_f64(ctx, rcond));
        keep = bin(ctx, OP_greater, f.s, cutoff);
    } else {
        keep = op_full(ctx, shape_of(f.s.get()), 0, EMBER_BOOL);
    }
    TRef sinv = op_where(ctx, keep.get(), un(ctx, OP_reciprocal, f.s).get(), weak_f64(ctx, 0).get());
    TRef UhB = op_matmul(ctx, mh(ctx, f.u.get()).get(), b);
    TRef scaled = bin(ctx, OP_multiply, op_expand_dims(sinv.get(), -1), UhB);
    LstsqParts r;
    r.x = op_matmul(ctx, mh(ctx, f.vh.get()).get(), scaled.get());
    r.rank = sum_axes(ctx, keep.get(), {-1}, false);
    r.s = std::move(f.s);
    return r;
}

// One call of the backend's lstsq kernel (COMPOSITE_KERNEL) on A (..., m, n) and B
// (..., m, k) whose batch axes broadcast to A's; empty parts where it left a matrix unsolved.
LstsqParts lstsq_kernel_call(ember_ctx* ctx, const ember_tensor* a, const ember_tensor* b, double rcond) {
    const Shape batch = batch_of(a);
    const int64_t m = a->shape[a->ndim - 2], n = a->shape[a->ndim - 1], k = b->shape[b->ndim - 1];
    LstsqParts r;
    r.x = alloc_tensor(ctx, a->dtype, with(batch, {n, k}));
    r.s = alloc_tensor(ctx, real_dtype_of(a->dtype), with(batch, {std::min(m, n)}));
    r.rank = alloc_tensor(ctx, EMBER_INT64, batch);
    TRef info = alloc_tensor(ctx, EMBER_INT64, batch);
    int64_t sb[EMBER_MAX_DIMS];
    ember_attrs_t at{};
    at.f[0] = rcond;
    run_kernel(ctx, OP_lstsq, {view_of(a), broadcast_view(b, with(batch, {m, k}), sb)},
               {view_of(r.x.get()), view_of(r.s.get()), view_of(r.rank.get()), view_of(info.get())}, at);
    if (!kernel_solved_all("lstsq", info.get())) return {};
    return r;
}

// gelsd applies its transformations to B's columns one level at a time, where the
// composite's SVD leaves B to two BLAS-3 matmuls: with many right-hand sides the composite
// is faster. Float64 on the cpu backend (Intel host, 2026-11-25): even at k = n/4 for
// square A (256: 11.1 against 10.7 ms; 512 at k = 128: 52 against 53), at k = 100 for a
// 1000 x 100 A; 0.56x the composite at k = n.
bool few_right_hand_sides(int64_t m, int64_t n, int64_t k) {
    return 2 * k <= std::min(m, n) && 4 * k <= std::max(m, n);
}

// The backend's lstsq kernel where 0 < rcond < 1 (LAPACK's gelsd reads any other cutoff
// as eps), B has few right-hand sides, and A holds the whole batch or is one matrix: then
// B's batch moves into its columns, B (m, batch * k), and A is factored once. A broadcast
// over part of the batch runs the composite. Empty parts where there is no kernel or it
// left a matrix unsolved.
LstsqParts lstsq_by_kernel(ember_ctx* ctx, const ember_tensor* a, const ember_tensor* b, double rcond) {
    if (!(rcond > 0 && rcond < 1)) return {};
    if (!a->size || !b->size || !has_backend_kernel(ctx, OP_lstsq) || !shapes_broadcast(batch_of(a), batch_of(b))) return {};
    const Shape batch = broadcast_shapes(batch_of(a), batch_of(b));
    const int64_t m = a->shape[a->ndim - 2], n = a->shape[a->ndim - 1], k = b->shape[b->ndim - 1];
    if (batch_of(a) == batch) return few_right_hand_sides(m, n, k) ? lstsq_kernel_call(ctx, a, b, rcond) : LstsqParts{};
    int64_t count = 1;
    for (int64_t d : batch_of(a)) count *= d;
    if (count != 1) return {};
    const int nb = (int)batch.size();
    for (int64_t d : batch) count *= d;
    if (!few_right_hand_sides(m, n, count * k)) return {};
    int64_t to_front[EMBER_MAX_DIMS], to_back[EMBER_MAX_DIMS];  // (batch, m, k) <-> (m, batch, k)
    to_front[0] = nb;
    to_back[nb] = 0;
    for (int i = 0; i < nb; ++i) to_front[i + 1] = i, to_back[i] = i + 1;
    to_front[nb + 1] = to_back[nb + 1] = nb + 1;
    TRef bb = op_broadcast_to(b, with(batch, {m, k}));
    TRef cols = op_reshape(ctx, op_permute(bb.get(), to_front, nb + 2).get(), {m, count * k}, true);
    LstsqParts one = lstsq_kernel_call(ctx, op_reshape(ctx, a, {m, n}, true).get(), cols.get(), rcond);
    if (!one.x) return {};
    Shape nbk{n};
    nbk.insert(nbk.end(), batch.begin(), batch.end());
    nbk.push_back(k);
    LstsqParts r;
    r.x = contiguous(ctx, op_permute(op_reshape(ctx, one.x.get(), nbk, true).get(), to_back, nb + 2).get());
    r.s = op_reshape(ctx, one.s.get(), with(batch_of(a), {std::min(m, n)}), true);  // A's, as the composite's
    r.rank = op_reshape(ctx, one.rank.get(), batch_of(a), true);
    return r;
}
}  // namespace

ENTRY(ember_lstsq, (ember_ctx_t * ctx, const ember_tensor_t* a, const ember_tensor_t* b, double rcond, ember_tensor_t** x,
                    ember_tensor_t** residuals, ember_tensor_t** rank, ember_tensor_t** sv), {
    check_ctx(ctx);
    require_arg(x, "x");
    check_same_backend(ctx, a, "a");
    check_same_backend(ctx, b, "b");
    need_matrix(a, "a");
    ember_dtype_t dt = compute_dtype(ctx, promote(a->dtype, a->weak, b->dtype, b->weak, ctx->default_float));
    TRef A = cast_if(ctx, a, dt);
    int64_t m = a->shape[a->ndim - 2], n = a->shape[a->ndim - 1];
    TRef B = rhs_matrix(ctx, b, m, "a");
    B = cast_if(ctx, B.get(), dt);
    if (!(rcond >= 0)) rcond = eps_of(dt) * (double)std::max(m, n);
    LstsqParts p = lstsq_by_kernel(ctx, A.get(), B.get(), rcond);
    if (!p.x) p = lstsq_by_svd(ctx, A.get(), B.get(), rcond);
    TRef X = std::move(p.x), rk = std::move(p.rank);
    TRef res;
    if (residuals) {
        bool full_rank = m > n;
        if (full_rank && rk->size) {
            TRef all = reduce(ctx, OP_all, bin(ctx, OP_equal, rk, weak_i64(ctx, n)).get(), nullptr, 0, false);
            full_rank = read_bool(all.get());
        }
        if (full_rank) {
            TRef diff = bin(ctx, OP_subtract, op_matmul(ctx, A.get(), X.get()), B);
            TRef ad = un(ctx, OP_abs, diff);
            res = sum_axes(ctx, un(ctx, OP_square, ad).get(), {-2}, false);
        } else {
            res = alloc_tensor(ctx, real_dtype_of(dt), {0});
        }
    }
    *x = (b->ndim == 1 ? drop_last(ctx, X.get()) : X).release();
    if (residuals) *residuals = res.release();
    if (rank) *rank = rk.release();
    if (sv) *sv = p.s.release();
})

ENTRY(ember_pinv, (ember_ctx_t * ctx, const ember_tensor_t* x, double atol, double rtol, ember_tensor_t** out), {
    check_x_entry(ctx, x, out);
    need_matrix(x, "x");
    if (!(atol >= 0)) raise(EMBER_ERR_INVALID_ARGUMENT, "atol must be non-negative, got %g", atol);
    TRef a = to_compute(ctx, x);
    int64_t m = a->shape[a->ndim - 2], n = a->shape[a->ndim - 1];
    SVD f = la::svd(ctx, a.get(), false, true);
    if (std::min(m, n) == 0) {
        *out = op_full(ctx, with(batch_of(a.get()), {n, m}), 0, a->dtype).release();
        return;
    }
    TRef keep = bin(ctx, OP_greater, f.s, sv_cutoff(ctx, f.s.get(), atol, rtol, m, n));
    TRef sinv = op_where(ctx, keep.get(), un(ctx, OP_reciprocal, f.s).get(), weak_f64(ctx, 0).get());
    TRef scaled = bin(ctx, OP_multiply, op_expand_dims(sinv.get(), -1), mh(ctx, f.u.get()));
    *out = op_matmul(ctx, mh(ctx, f.vh.get()).get(), scaled.get()).release();
})

ENTRY(ember_matrix_rank, (ember_ctx_t * ctx, const ember_tensor_t* x, double atol, double rtol, ember_tensor_t** out), {
    check_x_entry(ctx, x, out);
    need_matrix(x, "x");
    if (!(atol >= 0)) raise(EMBER_ERR_INVALID_ARGUMENT, "atol must be non-negative, got %g", atol);
    TRef a = to_compute(ctx, x);
    int64_t m = a->shape[a->ndim - 2], n = a->shape[a->ndim - 1];
    TRef s = la::svd(ctx, a.get(), false, false).s;
    if (std::min(m, n) == 0) {
        *out = op_full(ctx, batch_of(a.get()), 0, EMBER_INT64).release();
        return;
    }
    TRef keep = bin(ctx, OP_greater, s, sv_cutoff(ctx, s.get(), atol, rtol, m, n));
    *out = sum_axes(ctx, keep.get(), {-1}, false).release();
})

ENTRY(ember_matrix_power, (ember_ctx_t * ctx, const ember_tensor_t* x, int64_t n, ember_tensor_t** out), {
    check_x_entry(ctx, x, out);
    *out = matrix_power_impl(ctx, x, n).release();
})

ENTRY(ember_expm, (ember_ctx_t * ctx, const ember_tensor_t* x, ember_tensor_t** out), {
    check_x_entry(ctx, x, out);
    *out = expm_impl(ctx, x).release();
})

}  // extern "C"
