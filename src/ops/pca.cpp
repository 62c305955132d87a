// Principal component analysis (issue 3, Ember ML's features.pca): a composite over the
// reduced SVD of the centred data (ember_svd), argmax/take_along_axis/sign for the
// deterministic sign convention, and matmul for the projections. No kernel of its own.
// docs/numerics-stats.md ("PCA") describes the numerics.
#include <algorithm>
#include <cmath>

#include "stats_common.hpp"

namespace ember {
namespace {

using namespace fam;

// Compute dtype: float32/float64 keep theirs, half types use float32, integers and bool
// the default float; complex is rejected.
ember_dtype_t pca_dtype(ember_ctx* ctx, ember_dtype_t d, const char* what) {
    return float_dtype(ctx, d, what) == EMBER_FLOAT64 ? EMBER_FLOAT64 : EMBER_FLOAT32;
}

double eps_of(ember_dtype_t d) {
    switch (d) {
        case EMBER_FLOAT64: return 2.220446049250313e-16;
        case EMBER_FLOAT16: return 9.765625e-4;
        case EMBER_BFLOAT16: return 7.8125e-3;
        default: return 1.1920928955078125e-7;
    }
}

struct Fit {
    TRef components, ev, ratio, mean, sv;
};

Fit pca_fit_impl(ember_ctx* ctx, const ember_tensor* x, int64_t n_components, bool center) {
    if (x->ndim != 2) raise(EMBER_ERR_SHAPE, "x must be 2-d (n_samples, n_features), got shape %s", shape_str(x).c_str());
    ember_dtype_t dt = pca_dtype(ctx, x->dtype, "pca_fit");
    int64_t n = x->shape[0], nfeat = x->shape[1];
    if (n < 2) raise(EMBER_ERR_SHAPE, "PCA needs at least 2 samples, got shape %s", shape_str(x).c_str());
    if (nfeat < 1) raise(EMBER_ERR_SHAPE, "PCA needs at least 1 feature, got shape %s", shape_str(x).c_str());
    int64_t kmax = std::min(n, nfeat);
    int64_t k = n_components == -1 ? kmax : n_components;
    if (k < 1 || k > kmax)
        raise(EMBER_ERR_INVALID_ARGUMENT, "n_components must be in [1, min(n_samples, n_features) = %lld] (or -1 for all), got %lld",
              (long long)kmax, (long long)n_components);
    TRef X = cast_if(ctx, x, dt);
    TRef mu = center ? div(ctx, sum_axis(ctx, X, 0, true), f(ctx, (double)n)) : op_full(ctx, {1, nfeat}, 0.0, dt);  // (1, f)
    TRef Xc = center ? sub(ctx, X, mu) : X;
    ember_tensor_t *u = nullptr, *s = nullptr, *vh = nullptr;
    ember_status_t st = ember_svd(ctx, Xc.get(), 0, &u, &s, &vh);
    if (st != EMBER_OK) raise(st, "%s", ember_last_error());
    TRef U(u), S(s), Vh(vh);  // Vh: (kmax, f), S descending
    U = TRef();
    // svd_flip (sklearn, u_based_decision=False): the entry of largest |.| in each row of Vh
    // (the first on ties) becomes positive.
    TRef idx = op_argreduce(ctx, OP_argmax, un(ctx, OP_abs, Vh).get(), 1, true);  // (kmax, 1)
    TRef piv = FAM_API(ember_take_along_axis, ctx, Vh.get(), idx.get(), 1);
    TRef sg = un(ctx, OP_sign, piv);
    sg = where(ctx, bin(ctx, OP_equal, sg, f(ctx, 0)), f(ctx, 1), sg);
    Vh = mul(ctx, Vh, sg);
    Fit r;
    r.components = op_copy(ctx, op_slice_axis(Vh.get(), 0, 0, k, 1).get());
    r.sv = op_copy(ctx, op_slice_axis(S.get(), 0, 0, k, 1).get());
    r.ev = div(ctx, un(ctx, OP_square, r.sv), f(ctx, (double)(n - 1)));
    TRef total = div(ctx, run_reduce(ctx, OP_sum, un(ctx, OP_square, Xc).get(), nullptr, 0, false), f(ctx, (double)(n - 1)));
    r.ratio = div(ctx, r.ev, total);
    r.mean = op_reshape(ctx, mu.get(), {nfeat}, true);
    return r;
}

// Checks the fitted parameters against the data's feature count; returns k.
int64_t check_params(const ember_tensor* components, const ember_tensor* mean, const ember_tensor* ev, bool whiten) {
    if (components->ndim != 2) raise(EMBER_ERR_SHAPE, "components must be 2-d (k, n_features), got shape %s", shape_str(components).c_str());
    int64_t k = components->shape[0], nfeat = components->shape[1];
    if (mean && !(mean->ndim == 1 && mean->shape[0] == nfeat))
        raise(EMBER_ERR_SHAPE, "mean must have shape (%lld,) to match components %s, got %s", (long long)nfeat, shape_str(components).c_str(),
              shape_str(mean).c_str());
    if (whiten) {
        if (!ev) raise(EMBER_ERR_INVALID_ARGUMENT, "whiten needs explained_variance (argument 'explained_variance' is NULL)");
        if (!(ev->ndim == 1 && ev->shape[0] == k))
            raise(EMBER_ERR_SHAPE, "explained_variance must have shape (%lld,) to match components %s, got %s", (long long)k,
                  shape_str(components).c_str(), shape_str(ev).c_str());
    }
    return k;
}

ember_dtype_t common_dtype(ember_ctx* ctx, std::initializer_list<const ember_tensor*> ts, const char* what) {
    ember_dtype_t d = EMBER_BOOL;
    bool first = true;
    for (const ember_tensor* t : ts) {
        if (!t) continue;
        if (is_complex(t->dtype)) raise(EMBER_ERR_UNSUPPORTED_DTYPE, "%s is not defined for dtype %s", what, dtype_name(t->dtype));
        d = first ? t->dtype : promote(d, false, t->dtype, false, ctx->default_float);
        first = false;
    }
    return pca_dtype(ctx, d, what);
}

// (n, a) @ (a, b) for 2-d x, or (a,) @ (a, b) for 1-d x.
TRef matmul_rows(ember_ctx* ctx, const TRef& x, const TRef& m) {
    if (x->ndim == 2) return op_matmul(ctx, x.get(), m.get());
    TRef r = op_matmul(ctx, op_expand_dims(x.get(), 0).get(), m.get());
    return op_reshape(ctx, r.get(), {m->shape[1]}, true);
}

TRef transform_impl(ember_ctx* ctx, const ember_tensor* x, const ember_tensor* components, const ember_tensor* mean, const ember_tensor* ev,
                    bool whiten) {
    check_params(components, mean, ev, whiten);
    int64_t nfeat = components->shape[1];
    if (!((x->ndim == 1 || x->ndim == 2) && x->shape[x->ndim - 1] == nfeat))
        raise(EMBER_ERR_SHAPE, "x must be (n_samples, %lld) or (%lld,) to match components %s, got %s", (long long)nfeat, (long long)nfeat,
              shape_str(components).c_str(), shape_str(x).c_str());
    ember_dtype_t dt = common_dtype(ctx, {x, components, mean, whiten ? ev : nullptr}, "pca_transform");
    TRef X = cast_if(ctx, x, dt);
    if (mean) X = sub(ctx, X, cast_if(ctx, mean, dt));
    TRef Ct = op_swapaxes(cast_if(ctx, components, dt).get(), 0, 1);  // (f, k)
    TRef Y = matmul_rows(ctx, X, Ct);
    if (whiten) {
        TRef scale = bin(ctx, OP_maximum, un(ctx, OP_sqrt, cast_if(ctx, ev, dt)), f(ctx, eps_of(dt)));
        Y = div(ctx, Y, scale);
    }
    return Y;
}

TRef inverse_impl(ember_ctx* ctx, const ember_tensor* y, const ember_tensor* components, const ember_tensor* mean, const ember_tensor* ev,
                  bool whiten) {
    int64_t k = check_params(components, mean, ev, whiten);
    if (!((y->ndim == 1 || y->ndim == 2) && y->shape[y->ndim - 1] == k))
        raise(EMBER_ERR_SHAPE, "y must be (n_samples, %lld) or (%lld,) to match components %s, got %s", (long long)k, (long long)k,
              shape_str(components).c_str(), shape_str(y).c_str());
    ember_dtype_t dt = common_dtype(ctx, {y, components, mean, whiten ? ev : nullptr}, "pca_inverse_transform");
    TRef C = cast_if(ctx, components, dt);
    if (whiten) C = mul(ctx, C, op_expand_dims(un(ctx, OP_sqrt, cast_if(ctx, ev, dt)).get(), 1));
    TRef X = matmul_rows(ctx, cast_if(ctx, y, dt), C);
    if (mean) X = add(ctx, X, cast_if(ctx, mean, dt));
    return X;
}

}  // namespace
}  // namespace ember

using namespace ember;

extern "C" {

ENTRY(ember_pca_fit, (ember_ctx_t * ctx, const ember_tensor_t* x, int64_t n_components, int center, ember_tensor_t** components,
                      ember_tensor_t** explained_variance, ember_tensor_t** explained_variance_ratio, ember_tensor_t** mean,
                      ember_tensor_t** singular_values), {
    check_ctx(ctx);
    check_same_backend(ctx, x, "x");
    if (!components && !explained_variance && !explained_variance_ratio && !mean && !singular_values)
        raise(EMBER_ERR_INVALID_ARGUMENT, "every output is NULL");
    Fit r = pca_fit_impl(ctx, x, n_components, center != 0);
    if (components) *components = r.components.release();
    if (explained_variance) *explained_variance = r.ev.release();
    if (explained_variance_ratio) *explained_variance_ratio = r.ratio.release();
    if (mean) *mean = r.mean.release();
    if (singular_values) *singular_values = r.sv.release();
})

ENTRY(ember_pca_transform, (ember_ctx_t * ctx, const ember_tensor_t* x, const ember_tensor_t* components, const ember_tensor_t* mean,
                            const ember_tensor_t* explained_variance, int whiten, ember_tensor_t** out), {
    check_x_entry(ctx, x, out);
    check_same_backend(ctx, components, "components");
    if (mean) check_same_backend(ctx, mean, "mean");
    if (explained_variance) check_same_backend(ctx, explained_variance, "explained_variance");
    *out = transform_impl(ctx, x, components, mean, explained_variance, whiten != 0).release();
})

ENTRY(ember_pca_inverse_transform, (ember_ctx_t * ctx, const ember_tensor_t* y, const ember_tensor_t* components, const ember_tensor_t* mean,
                                    const ember_tensor_t* explained_variance, int whiten, ember_tensor_t** out), {
    check_ctx(ctx);
    require_arg(out, "out");
    check_same_backend(ctx, y, "y");
    check_same_backend(ctx, components, "components");
    if (mean) check_same_backend(ctx, mean, "mean");
    if (explained_variance) check_same_backend(ctx, explained_variance, "explained_variance");
    *out = inverse_impl(ctx, y, components, mean, explained_variance, whiten != 0).release();
})

}  // extern "C"
