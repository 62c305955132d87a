// Random numbers (issue 3): the per-context Philox state, the random_bits primitive and
// distributions written over it (composites), plus entry points of the rejection samplers
// (reference kernels in backends/reference/ref_random.cpp). docs/numerics-random.md.
// The generator state ({key, counter}) lives in the context.
#include <cmath>
#include <limits>

#include "stats_common.hpp"

namespace ember {
namespace {

using namespace fam;

// A context is used by one thread at a time, so its state needs no lock.
ember_random_state_t get_state(const ember_ctx* ctx) { return ctx->random_state; }
void put_state(ember_ctx* ctx, ember_random_state_t s) { ctx->random_state = s; }
// Reserves `blocks` Philox blocks and returns {key, first block}.
ember_random_state_t reserve(ember_ctx* ctx, uint64_t blocks) {
    ember_random_state_t& s = ctx->random_state;
    if (blocks > UINT64_MAX - s.counter) raise(EMBER_ERR_INVALID_ARGUMENT, "the random counter would wrap around 2^64; reseed");
    ember_random_state_t r = s;
    s.counter += blocks;
    return r;
}

Shape shape_arg(const int64_t* shape, int ndim) {
    check_shape(shape, ndim);
    return ndim ? Shape(shape, shape + ndim) : Shape();
}

ember_attrs_t stream_attrs(ember_random_state_t s) {
    ember_attrs_t at{};
    at.i[0] = (int64_t)s.key;
    at.i[1] = (int64_t)s.counter;
    return at;
}

// n uint32 words (1-d) from the context's stream.
TRef bits(ember_ctx* ctx, const Shape& shape) {
    TRef out = alloc_tensor(ctx, EMBER_UINT32, shape);
    if (out->size) {
        ember_random_state_t s = reserve(ctx, ((uint64_t)out->size + 3) / 4);
        run_kernel(ctx, OP_random_bits, {}, {view_of(out.get())}, stream_attrs(s));
    }
    return out;
}

ember_dtype_t float_arg(ember_ctx* ctx, int dtype, const char* op) {
    ember_dtype_t dt = resolve_dtype_arg(ctx, dtype, ctx->default_float);
    if (!is_float(dt)) raise(EMBER_ERR_UNSUPPORTED_DTYPE, "%s needs a float dtype, got %s", op, dtype_name(dt));
    return dt;
}

// Dtype the arithmetic runs in: float64 for float64, else float32 (half types round at the end).
ember_dtype_t work_dtype(ember_dtype_t dt) { return dt == EMBER_FLOAT64 ? EMBER_FLOAT64 : EMBER_FLOAT32; }

// Unit uniforms on [0, 1) of shape in the work dtype of dt: 53 bits (two words) for
// float64, 24 bits (one word) otherwise. Every value is exact in the work dtype.
TRef unit_uniform(ember_ctx* ctx, const Shape& shape, ember_dtype_t dt) {
    ember_dtype_t w = work_dtype(dt);
    if (w == EMBER_FLOAT64) {
        Shape s2 = shape;
        s2.push_back(2);
        TRef b = bits(ctx, s2);
        TRef hi = op_astype(ctx, bin(ctx, OP_bitwise_right_shift, op_select(b.get(), -1, 0), weak_i64(ctx, 5)).get(), EMBER_FLOAT64);
        TRef lo = op_astype(ctx, bin(ctx, OP_bitwise_right_shift, op_select(b.get(), -1, 1), weak_i64(ctx, 6)).get(), EMBER_FLOAT64);
        return mul(ctx, add(ctx, mul(ctx, hi, f(ctx, 67108864.0)), lo), f(ctx, 1.0 / 9007199254740992.0));
    }
    TRef b = bits(ctx, shape);
    TRef m = op_astype(ctx, bin(ctx, OP_bitwise_right_shift, b, weak_i64(ctx, 8)).get(), EMBER_FLOAT32);
    return mul(ctx, m, f(ctx, 1.0 / 16777216.0));
}

// Casts r to dt and moves values that rounded up to `high` to the largest value below it.
TRef finish_half_open(ember_ctx* ctx, TRef r, ember_dtype_t dt, double high) {
    TRef out = cast_if(ctx, r.get(), dt);
    TRef H = scalar_like(ctx, high, dt);
    TRef below = run_binary(ctx, OP_nextafter, H.get(), scalar_like(ctx, -INFINITY, dt).get());
    return where(ctx, bin(ctx, OP_greater_equal, out, H), below, out);
}

TRef normal_of(ember_ctx* ctx, const Shape& shape, ember_dtype_t dt, double mean, double sd) {
    TRef u1 = sub(ctx, f(ctx, 1.0), unit_uniform(ctx, shape, dt));  // (0, 1]
    TRef u2 = unit_uniform(ctx, shape, dt);
    TRef rad = un(ctx, OP_sqrt, mul(ctx, f(ctx, -2.0), un(ctx, OP_log, u1)));
    TRef z = mul(ctx, rad, un(ctx, OP_cos, mul(ctx, f(ctx, 2 * M_PI), u2)));
    return cast_if(ctx, add(ctx, mul(ctx, z, f(ctx, sd)), f(ctx, mean)).get(), dt);
}

// 64-bit words of shape (high word first).
TRef words64(ember_ctx* ctx, const Shape& shape) {
    Shape s2 = shape;
    s2.push_back(2);
    TRef b = bits(ctx, s2);
    TRef hi = op_astype(ctx, op_select(b.get(), -1, 0).get(), EMBER_UINT64);
    TRef lo = op_astype(ctx, op_select(b.get(), -1, 1).get(), EMBER_UINT64);
    return bin(ctx, OP_bitwise_or, bin(ctx, OP_bitwise_left_shift, hi, scalar_like(ctx, 32, EMBER_UINT64)), lo);
}

TRef permutation_of(ember_ctx* ctx, int64_t n) {
    if (n < 0) raise(EMBER_ERR_INVALID_ARGUMENT, "n must be non-negative, got %lld", (long long)n);
    if (n == 0) return alloc_tensor(ctx, EMBER_INT64, {0});
    TRef w = words64(ctx, {n});
    return FAM_API(ember_argsort, ctx, w.get(), 0, 0);
}

// Runs a per-element sampler kernel: one block per element.
TRef sample_kernel(ember_ctx* ctx, OpId op, const Shape& shape, ember_dtype_t dt, ember_attrs_t at) {
    TRef out = alloc_tensor(ctx, dt, shape);
    if (out->size) {
        ember_random_state_t s = reserve(ctx, (uint64_t)out->size);
        at.i[0] = (int64_t)s.key;
        at.i[1] = (int64_t)s.counter;
        run_kernel(ctx, op, {}, {view_of(out.get())}, at);
    }
    return out;
}

ember_dtype_t count_dtype(ember_ctx* ctx, int dtype, const char* op) {
    ember_dtype_t dt = resolve_dtype_arg(ctx, dtype, EMBER_INT64);
    if (dtype == EMBER_DTYPE_DEFAULT) dt = EMBER_INT64;
    if (!is_integer(dt) && !is_float(dt)) raise(EMBER_ERR_UNSUPPORTED_DTYPE, "%s needs an integer or float dtype, got %s", op, dtype_name(dt));
    return dt;
}

}  // namespace
}  // namespace ember

using namespace ember;
using namespace ember::fam;

#define PRELUDE              \
    check_ctx(ctx);          \
    require_arg(out, "out");

extern "C" {

EMBER_API ember_status_t ember_random_seed(ember_ctx_t* ctx, uint64_t seed) {
    return guard("ember_random_seed", [&] {
        check_ctx(ctx);
        put_state(ctx, {seed, 0});
    });
}
EMBER_API ember_status_t ember_random_get_state(ember_ctx_t* ctx, ember_random_state_t* state) {
    return guard("ember_random_get_state", [&] {
        check_ctx(ctx);
        require_arg(state, "state");
        *state = get_state(ctx);
    });
}
EMBER_API ember_status_t ember_random_set_state(ember_ctx_t* ctx, const ember_random_state_t* state) {
    return guard("ember_random_set_state", [&] {
        check_ctx(ctx);
        require_arg(state, "state");
        put_state(ctx, *state);
    });
}

ENTRY(ember_random_bits, (ember_ctx_t * ctx, const int64_t* shape, int ndim, ember_tensor_t** out), {
    PRELUDE
    *out = bits(ctx, shape_arg(shape, ndim)).release();
})

ENTRY(ember_random_uniform, (ember_ctx_t * ctx, const int64_t* shape, int ndim, double low, double high, int dtype, ember_tensor_t** out), {
    PRELUDE
    Shape s = shape_arg(shape, ndim);
    ember_dtype_t dt = float_arg(ctx, dtype, "random_uniform");
    if (!std::isfinite(low) || !std::isfinite(high) || !(low < high)) raise(EMBER_ERR_INVALID_ARGUMENT, "need finite low < high, got [%g, %g)", low, high);
    TRef u = unit_uniform(ctx, s, dt);
    TRef r = add(ctx, mul(ctx, u, f(ctx, high - low)), f(ctx, low));
    *out = finish_half_open(ctx, r, dt, high).release();
})

ENTRY(ember_random_normal, (ember_ctx_t * ctx, const int64_t* shape, int ndim, double mean, double std, int dtype, ember_tensor_t** out), {
    PRELUDE
    Shape s = shape_arg(shape, ndim);
    ember_dtype_t dt = float_arg(ctx, dtype, "random_normal");
    if (!std::isfinite(mean) || !std::isfinite(std) || std < 0) raise(EMBER_ERR_INVALID_ARGUMENT, "need finite mean and std >= 0, got %g, %g", mean, std);
    *out = normal_of(ctx, s, dt, mean, std).release();
})

ENTRY(ember_random_truncated_normal, (ember_ctx_t * ctx, const int64_t* shape, int ndim, double mean, double std, double lo, double hi, int dtype, ember_tensor_t** out), {
    PRELUDE
    Shape s = shape_arg(shape, ndim);
    ember_dtype_t dt = float_arg(ctx, dtype, "random_truncated_normal");
    if (!std::isfinite(mean) || !std::isfinite(std) || !(std > 0)) raise(EMBER_ERR_INVALID_ARGUMENT, "need finite mean and std > 0, got %g, %g", mean, std);
    if (std::isnan(lo) || std::isnan(hi) || !(lo < hi)) raise(EMBER_ERR_INVALID_ARGUMENT, "need lo < hi, got [%g, %g]", lo, hi);
    double a = (lo - mean) / std, b = (hi - mean) / std;
    if (a > 0) {
        double t = -a;
        a = -b;
        b = t;
    }
    double mass = 0.5 * std::erfc(-b * M_SQRT1_2) - 0.5 * std::erfc(-a * M_SQRT1_2);
    if (!(mass > 0)) raise(EMBER_ERR_INVALID_ARGUMENT, "the interval [%g, %g] has no probability mass in double precision", lo, hi);
    ember_attrs_t at{};
    at.f[0] = mean;
    at.f[1] = std;
    at.f[2] = lo;
    at.f[3] = hi;
    *out = sample_kernel(ctx, OP_random_truncated_normal, s, dt, at).release();
})

ENTRY(ember_random_bernoulli, (ember_ctx_t * ctx, const ember_tensor_t* p, const int64_t* shape, int ndim, ember_tensor_t** out), {
    PRELUDE
    check_same_backend(ctx, p, "p");
    if (is_complex(p->dtype)) raise(EMBER_ERR_UNSUPPORTED_DTYPE, "p must be real, got %s", dtype_name(p->dtype));
    Shape s = shape ? shape_arg(shape, ndim) : shape_of(p);
    TRef P = op_broadcast_to(p, s);
    ember_dtype_t dt = p->dtype == EMBER_FLOAT64 ? EMBER_FLOAT64 : EMBER_FLOAT32;
    TRef u = unit_uniform(ctx, s, dt);
    *out = bin(ctx, OP_less, u, cast_if(ctx, P.get(), dt)).release();
})

ENTRY(ember_random_exponential, (ember_ctx_t * ctx, const int64_t* shape, int ndim, double rate, int dtype, ember_tensor_t** out), {
    PRELUDE
    Shape s = shape_arg(shape, ndim);
    ember_dtype_t dt = float_arg(ctx, dtype, "random_exponential");
    if (!(rate > 0) || !std::isfinite(rate)) raise(EMBER_ERR_INVALID_ARGUMENT, "rate must be positive and finite, got %g", rate);
    TRef u = unit_uniform(ctx, s, dt);
    TRef e = div(ctx, un(ctx, OP_negative, un(ctx, OP_log1p, un(ctx, OP_negative, u))), f(ctx, rate));
    *out = cast_if(ctx, e.get(), dt).release();
})

ENTRY(ember_random_randint, (ember_ctx_t * ctx, int64_t low, int64_t high, const int64_t* shape, int ndim, int dtype, ember_tensor_t** out), {
    PRELUDE
    Shape s = shape_arg(shape, ndim);
    ember_dtype_t dt = resolve_dtype_arg(ctx, dtype, EMBER_INT64);
    if (dtype == EMBER_DTYPE_DEFAULT) dt = EMBER_INT64;
    if (!is_integer(dt)) raise(EMBER_ERR_UNSUPPORTED_DTYPE, "random_randint needs an integer dtype, got %s", dtype_name(dt));
    if (!(low < high)) raise(EMBER_ERR_INVALID_ARGUMENT, "need low < high, got [%lld, %lld)", (long long)low, (long long)high);
    int bits_ = (int)dtype_size(dt) * 8;
    bool sgn = is_signed_int(dt);
    if (bits_ < 64) {
        int64_t mn = sgn ? -((int64_t)1 << (bits_ - 1)) : 0, mx = sgn ? ((int64_t)1 << (bits_ - 1)) - 1 : ((int64_t)1 << bits_) - 1;
        if (low < mn || high - 1 > mx) raise(EMBER_ERR_INVALID_ARGUMENT, "[%lld, %lld) does not fit %s", (long long)low, (long long)high, dtype_name(dt));
    } else if (!sgn && low < 0) {
        raise(EMBER_ERR_INVALID_ARGUMENT, "[%lld, %lld) does not fit %s", (long long)low, (long long)high, dtype_name(dt));
    }
    uint64_t range = (uint64_t)high - (uint64_t)low;
    TRef w = words64(ctx, s);
    TRef k = bin(ctx, OP_remainder, w, from_host(ctx, &range, EMBER_UINT64, {}));
    uint64_t lowbits = (uint64_t)low;
    TRef L = from_host(ctx, &lowbits, EMBER_UINT64, {});
    TRef r = bin(ctx, OP_add, k, L);  // wraps modulo 2^64, like two's complement
    *out = op_astype(ctx, r.get(), dt).release();
})

ENTRY(ember_random_permutation, (ember_ctx_t * ctx, int64_t n, ember_tensor_t** out), {
    PRELUDE
    *out = permutation_of(ctx, n).release();
})

ENTRY(ember_random_shuffle, (ember_ctx_t * ctx, const ember_tensor_t* x, int64_t axis, ember_tensor_t** out), {
    PRELUDE
    check_same_backend(ctx, x, "x");
    if (x->ndim == 0) raise(EMBER_ERR_SHAPE, "cannot shuffle a 0-d tensor");
    int64_t a = normalize_axis(axis, x->ndim);
    TRef perm = permutation_of(ctx, x->shape[a]);
    if (x->shape[a] == 0) {
        *out = op_copy(ctx, x).release();
        return;
    }
    *out = FAM_API(ember_take, ctx, x, perm.get(), a).release();
})

ENTRY(ember_random_categorical, (ember_ctx_t * ctx, const ember_tensor_t* x, int64_t num_samples, int from_logits, ember_tensor_t** out), {
    PRELUDE
    check_same_backend(ctx, x, "x");
    if (x->ndim == 0) raise(EMBER_ERR_SHAPE, "x must have a class axis");
    if (x->shape[x->ndim - 1] == 0) raise(EMBER_ERR_SHAPE, "x has no classes (shape %s)", shape_str(x).c_str());
    if (num_samples < 0) raise(EMBER_ERR_INVALID_ARGUMENT, "num_samples must be non-negative, got %lld", (long long)num_samples);
    ember_dtype_t dt = work_dtype(float_dtype(ctx, x->dtype, "random_categorical"));
    TRef X = cast_if(ctx, x, dt);
    TRef logits = from_logits ? X : un(ctx, OP_log, X);
    Shape s = shape_of(x);
    s.insert(s.end() - 1, num_samples);
    TRef u = add(ctx, unit_uniform(ctx, s, dt), f(ctx, dt == EMBER_FLOAT64 ? 0.5 / 9007199254740992.0 : 0.5 / 16777216.0));  // (0, 1)
    TRef g = un(ctx, OP_negative, un(ctx, OP_log, un(ctx, OP_negative, un(ctx, OP_log, u))));
    TRef score = add(ctx, op_expand_dims(logits.get(), -2), g);
    if (score->size == 0) {
        s.pop_back();
        *out = alloc_tensor(ctx, EMBER_INT64, s).release();
        return;
    }
    *out = op_argreduce(ctx, OP_argmax, score.get(), -1, false).release();
})

ENTRY(ember_random_gamma, (ember_ctx_t * ctx, const int64_t* shape, int ndim, double alpha, double scale, int dtype, ember_tensor_t** out), {
    PRELUDE
    Shape s = shape_arg(shape, ndim);
    ember_dtype_t dt = float_arg(ctx, dtype, "random_gamma");
    if (!(alpha > 0) || !(scale > 0) || !std::isfinite(alpha) || !std::isfinite(scale))
        raise(EMBER_ERR_INVALID_ARGUMENT, "need finite alpha > 0 and scale > 0, got %g, %g", alpha, scale);
    ember_attrs_t at{};
    at.f[0] = alpha;
    at.f[1] = scale;
    *out = sample_kernel(ctx, OP_random_gamma, s, dt, at).release();
})

ENTRY(ember_random_beta, (ember_ctx_t * ctx, const int64_t* shape, int ndim, double a, double b, int dtype, ember_tensor_t** out), {
    PRELUDE
    Shape s = shape_arg(shape, ndim);
    ember_dtype_t dt = float_arg(ctx, dtype, "random_beta");
    if (!(a > 0) || !(b > 0) || !std::isfinite(a) || !std::isfinite(b)) raise(EMBER_ERR_INVALID_ARGUMENT, "need finite a > 0 and b > 0, got %g, %g", a, b);
    ember_attrs_t at{};
    at.f[0] = a;
    at.f[1] = b;
    *out = sample_kernel(ctx, OP_random_beta, s, dt, at).release();
})

ENTRY(ember_random_binomial, (ember_ctx_t * ctx, const int64_t* shape, int ndim, int64_t n, double p, int dtype, ember_tensor_t** out), {
    PRELUDE
    Shape s = shape_arg(shape, ndim);
    ember_dtype_t dt = count_dtype(ctx, dtype, "random_binomial");
    if (n < 0 || n > ((int64_t)1 << 53)) raise(EMBER_ERR_INVALID_ARGUMENT, "n must be in [0, 2^53], got %lld", (long long)n);
    if (!(p >= 0 && p <= 1)) raise(EMBER_ERR_INVALID_ARGUMENT, "p must be in [0, 1], got %g", p);
    ember_attrs_t at{};
    at.i[2] = n;
    at.f[0] = p;
    *out = sample_kernel(ctx, OP_random_binomial, s, dt, at).release();
})

ENTRY(ember_random_poisson, (ember_ctx_t * ctx, const int64_t* shape, int ndim, double lam, int dtype, ember_tensor_t** out), {
    PRELUDE
    Shape s = shape_arg(shape, ndim);
    ember_dtype_t dt = count_dtype(ctx, dtype, "random_poisson");
    if (!(lam >= 0 && lam < 1e12)) raise(EMBER_ERR_INVALID_ARGUMENT, "lam must be in [0, 1e12), got %g", lam);
    ember_attrs_t at{};
    at.f[0] = lam;
    *out = sample_kernel(ctx, OP_random_poisson, s, dt, at).release();
})

}  // extern "C"
