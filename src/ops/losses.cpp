// Loss functions (issue 3): composites over elementwise ops and reductions, so every
// backend that has those primitives runs them. docs/numerics-stats.md has the formulas.
#include <cmath>

#include "stats_common.hpp"

namespace ember {
namespace {

using namespace fam;

void check_reduction(ember_reduction_t r) {
    if ((int)r < EMBER_REDUCTION_NONE || (int)r > EMBER_REDUCTION_SUM) raise(EMBER_ERR_INVALID_ARGUMENT, "unknown reduction %d", (int)r);
}

TRef reduce_loss(ember_ctx* ctx, TRef loss, ember_reduction_t r) {
    switch (r) {
        case EMBER_REDUCTION_MEAN: return run_reduce(ctx, OP_mean, loss.get(), nullptr, 0, false);
        case EMBER_REDUCTION_SUM: return run_reduce(ctx, OP_sum, loss.get(), nullptr, 0, false);
        default: return loss;
    }
}

// Casts both operands to their common float dtype.
struct Pair {
    TRef a, b;
    ember_dtype_t dt;
};
Pair float_pair(ember_ctx* ctx, const ember_tensor* a, const ember_tensor* b, const char* op) {
    ember_dtype_t common = promote(a->dtype, a->weak, b->dtype, b->weak, ctx->default_float);
    ember_dtype_t dt = float_dtype(ctx, common, op);
    return {cast_if(ctx, a, dt), cast_if(ctx, b, dt), dt};
}

// The class axis of the broadcast shape of a and b.
int64_t class_axis(const ember_tensor* a, const ember_tensor* b, int64_t axis) {
    Shape s = broadcast_shapes(shape_of(a), shape_of(b));
    if (s.empty()) raise(EMBER_ERR_SHAPE, "inputs are 0-d; a class axis is needed");
    return normalize_axis(axis, (int)s.size());
}

// log p at the entries `at` of p along axis (p itself, or entries picked from p): for logits
// at - logsumexp(p), for probabilities log(at) clamped at -100.
TRef log_prob(ember_ctx* ctx, const TRef& p, const TRef& at, bool from_logits, int64_t axis) {
    if (from_logits) return sub(ctx, at, run_reduce(ctx, OP_logsumexp, p.get(), &axis, 1, true));
    return bin(ctx, OP_maximum, un(ctx, OP_log, at), f(ctx, -100.0));
}

// t * v with 0 wherever t == 0 (so 0 * -inf is 0, not NaN).
TRef weighted(ember_ctx* ctx, const TRef& t, const TRef& v) {
    return where(ctx, bin(ctx, OP_equal, t, f(ctx, 0)), f(ctx, 0), mul(ctx, t, v));
}

}  // namespace
}  // namespace ember

using namespace ember;
using namespace ember::fam;

#define PRELUDE2(A, B)               \
    check_ctx(ctx);                  \
    require_arg(out, "out");         \
    check_same_backend(ctx, A, #A);  \
    check_same_backend(ctx, B, #B);  \
    check_reduction(reduction);

extern "C" {

ENTRY(ember_mse, (ember_ctx_t * ctx, const ember_tensor_t* y_true, const ember_tensor_t* y_pred, ember_reduction_t reduction, ember_tensor_t** out), {
    PRELUDE2(y_true, y_pred)
    Pair p = float_pair(ctx, y_true, y_pred, "mse");
    *out = reduce_loss(ctx, un(ctx, OP_square, sub(ctx, p.b, p.a)), reduction).release();
})

ENTRY(ember_mean_absolute_error, (ember_ctx_t * ctx, const ember_tensor_t* y_true, const ember_tensor_t* y_pred, ember_reduction_t reduction, ember_tensor_t** out), {
    PRELUDE2(y_true, y_pred)
    Pair p = float_pair(ctx, y_true, y_pred, "mean_absolute_error");
    *out = reduce_loss(ctx, un(ctx, OP_abs, sub(ctx, p.b, p.a)), reduction).release();
})

ENTRY(ember_huber_loss, (ember_ctx_t * ctx, const ember_tensor_t* y_true, const ember_tensor_t* y_pred, double delta, ember_reduction_t reduction, ember_tensor_t** out), {
    PRELUDE2(y_true, y_pred)
    if (!(delta > 0) || !std::isfinite(delta)) raise(EMBER_ERR_INVALID_ARGUMENT, "delta must be positive and finite, got %g", delta);
    Pair p = float_pair(ctx, y_true, y_pred, "huber_loss");
    TRef d = sub(ctx, p.b, p.a);
    TRef ad = un(ctx, OP_abs, d);
    TRef quad = mul(ctx, f(ctx, 0.5), un(ctx, OP_square, d));
    TRef lin = mul(ctx, f(ctx, delta), sub(ctx, ad, f(ctx, 0.5 * delta)));
    // NaN fails the comparison and takes lin, which is NaN too.
    *out = reduce_loss(ctx, where(ctx, bin(ctx, OP_less_equal, ad, f(ctx, delta)), quad, lin), reduction).release();
})

ENTRY(ember_log_cosh, (ember_ctx_t * ctx, const ember_tensor_t* y_true, const ember_tensor_t* y_pred, ember_reduction_t reduction, ember_tensor_t** out), {
    PRELUDE2(y_true, y_pred)
    Pair p = float_pair(ctx, y_true, y_pred, "log_cosh");
    TRef ad = un(ctx, OP_abs, sub(ctx, p.b, p.a));
    TRef tail = un(ctx, OP_log1p, un(ctx, OP_exp, mul(ctx, f(ctx, -2.0), ad)));
    *out = reduce_loss(ctx, sub(ctx, add(ctx, ad, tail), f(ctx, M_LN2)), reduction).release();
})

ENTRY(ember_binary_crossentropy, (ember_ctx_t * ctx, const ember_tensor_t* y_true, const ember_tensor_t* y_pred, int from_logits, ember_reduction_t reduction, ember_tensor_t** out), {
    PRELUDE2(y_true, y_pred)
    Pair p = float_pair(ctx, y_true, y_pred, "binary_crossentropy");
    const TRef& t = p.a;
    const TRef& z = p.b;
    TRef loss;
    if (from_logits) {
        TRef pos = bin(ctx, OP_maximum, z, f(ctx, 0));
        TRef soft = un(ctx, OP_log1p, un(ctx, OP_exp, un(ctx, OP_negative, un(ctx, OP_abs, z))));
        loss = add(ctx, sub(ctx, pos, mul(ctx, z, t)), soft);
    } else {
        TRef lp = bin(ctx, OP_maximum, un(ctx, OP_log, z), f(ctx, -100.0));
        TRef lq = bin(ctx, OP_maximum, un(ctx, OP_log1p, un(ctx, OP_negative, z)), f(ctx, -100.0));
        loss = un(ctx, OP_negative, add(ctx, mul(ctx, t, lp), mul(ctx, sub(ctx, f(ctx, 1.0), t), lq)));
    }
    *out = reduce_loss(ctx, loss, reduction).release();
})

ENTRY(ember_categorical_crossentropy, (ember_ctx_t * ctx, const ember_tensor_t* y_true, const ember_tensor_t* y_pred, int from_logits, int64_t axis, ember_reduction_t reduction, ember_tensor_t** out), {
    PRELUDE2(y_true, y_pred)
    int64_t a = class_axis(y_true, y_pred, axis);
    Pair p = float_pair(ctx, y_true, y_pred, "categorical_crossentropy");
    Shape s = broadcast_shapes(shape_of(p.a.get()), shape_of(p.b.get()));
    TRef t = op_broadcast_to(p.a.get(), s), z = op_broadcast_to(p.b.get(), s);
    TRef lp = log_prob(ctx, z, z, from_logits != 0, a);
    TRef loss = un(ctx, OP_negative, sum_axis(ctx, weighted(ctx, t, lp), a, false));
    *out = reduce_loss(ctx, loss, reduction).release();
})

ENTRY(ember_sparse_categorical_crossentropy, (ember_ctx_t * ctx, const ember_tensor_t* labels, const ember_tensor_t* y_pred, int from_logits, int64_t axis, ember_reduction_t reduction, ember_tensor_t** out), {
    PRELUDE2(labels, y_pred)
    if (!is_integer(labels->dtype)) raise(EMBER_ERR_UNSUPPORTED_DTYPE, "labels must have an integer dtype, got %s", dtype_name(labels->dtype));
    if (y_pred->ndim == 0) raise(EMBER_ERR_SHAPE, "y_pred is 0-d; a class axis is needed");
    int64_t a = normalize_axis(axis, y_pred->ndim);
    Shape want = shape_of(y_pred);
    int64_t n_classes = want[a];
    want.erase(want.begin() + a);
    if (shape_of(labels) != want)
        raise(EMBER_ERR_SHAPE, "labels have shape %s but y_pred %s needs %s (its shape without axis %lld)", shape_str(labels).c_str(),
              shape_str(y_pred).c_str(), shape_str(want).c_str(), (long long)a);
    TRef lab = cast_if(ctx, labels, EMBER_INT64);
    if (lab->size) {
        int64_t lo = read_i64(ctx, reduce(ctx, OP_min, lab.get(), nullptr, 0, false));
        int64_t hi = read_i64(ctx, reduce(ctx, OP_max, lab.get(), nullptr, 0, false));
        if (lo < 0 || hi >= n_classes)
            raise(EMBER_ERR_INDEX, "label %lld is outside [0, %lld)", (long long)(lo < 0 ? lo : hi), (long long)n_classes);
    }
    ember_dtype_t dt = float_dtype(ctx, y_pred->dtype, "sparse_categorical_crossentropy");
    TRef z = cast_if(ctx, y_pred, dt);
    // The labelled entries are picked first, so the logarithms run on one entry per row, not
    // on every class.
    TRef idx = op_expand_dims(lab.get(), a);
    TRef picked = FAM_API(ember_take_along_axis, ctx, z.get(), idx.get(), a);
    TRef lp = log_prob(ctx, z, picked, from_logits != 0, a);
    TRef loss = un(ctx, OP_negative, op_squeeze_axes(lp.get(), 1ull << a));
    *out = reduce_loss(ctx, loss, reduction).release();
})

ENTRY(ember_kl_divergence, (ember_ctx_t * ctx, const ember_tensor_t* y_true, const ember_tensor_t* y_pred, int64_t axis, ember_reduction_t reduction, ember_tensor_t** out), {
    PRELUDE2(y_true, y_pred)
    int64_t a = class_axis(y_true, y_pred, axis);
    Pair p = float_pair(ctx, y_true, y_pred, "kl_divergence");
    Shape s = broadcast_shapes(shape_of(p.a.get()), shape_of(p.b.get()));
    TRef t = op_broadcast_to(p.a.get(), s), q = op_broadcast_to(p.b.get(), s);
    TRef term = weighted(ctx, t, sub(ctx, un(ctx, OP_log, t), un(ctx, OP_log, q)));
    *out = reduce_loss(ctx, sum_axis(ctx, term, a, false), reduction).release();
})

ENTRY(ember_cosine_similarity, (ember_ctx_t * ctx, const ember_tensor_t* a, const ember_tensor_t* b, int64_t axis, ember_reduction_t reduction, ember_tensor_t** out), {
    PRELUDE2(a, b)
    int64_t ax = class_axis(a, b, axis);
    Pair p = float_pair(ctx, a, b, "cosine_similarity");
    Shape s = broadcast_shapes(shape_of(p.a.get()), shape_of(p.b.get()));
    TRef x = op_broadcast_to(p.a.get(), s), y = op_broadcast_to(p.b.get(), s);
    TRef dot = sum_axis(ctx, mul(ctx, x, y), ax, false);
    TRef nx = un(ctx, OP_sqrt, sum_axis(ctx, un(ctx, OP_square, x), ax, false));
    TRef ny = un(ctx, OP_sqrt, sum_axis(ctx, un(ctx, OP_square, y), ax, false));
    TRef den = bin(ctx, OP_maximum, mul(ctx, nx, ny), f(ctx, 1e-8));
    *out = reduce_loss(ctx, div(ctx, dot, den), reduction).release();
})

ENTRY(ember_euclidean_distance, (ember_ctx_t * ctx, const ember_tensor_t* a, const ember_tensor_t* b, int64_t axis, ember_reduction_t reduction, ember_tensor_t** out), {
    PRELUDE2(a, b)
    int64_t ax = class_axis(a, b, axis);
    Pair p = float_pair(ctx, a, b, "euclidean_distance");
    TRef d2 = un(ctx, OP_square, sub(ctx, p.a, p.b));
    *out = reduce_loss(ctx, un(ctx, OP_sqrt, sum_axis(ctx, d2, ax, false)), reduction).release();
})

}  // extern "C"
