// Random numbers (issue 3): the per-context Philox state, the random_bits primitive and
// distributions written over it (composites), plus entry points of the rejection samplers
// (reference kernels in backends/reference/ref_random.cpp). docs/numerics-random.md.
// The generator state ({key, counter}) lives in the context.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <string>
#include <vector>

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

// Unit uniforms on the open interval (0, 1) of shape in the work dtype of dt: (2m + 1) 2^-24
// with m 23 bits of one word for float32, (2m + 1) 2^-53 with m 52 bits of two words for
// float64; every value exact, the largest 1 - 2^-24 (1 - 2^-53), so log u < 0 and
// log(-log u) is finite. (U + 2^-25, the earlier form, rounded up to 1 for the largest U.)
TRef open_unit_uniform(ember_ctx* ctx, const Shape& shape, ember_dtype_t dt) {
    ember_dtype_t w = work_dtype(dt);
    TRef m;
    if (w == EMBER_FLOAT64) {
        Shape s2 = shape;
        s2.push_back(2);
        TRef b = bits(ctx, s2);
        TRef hi = op_astype(ctx, bin(ctx, OP_bitwise_right_shift, op_select(b.get(), -1, 0), weak_i64(ctx, 5)).get(), EMBER_FLOAT64);
        TRef lo = op_astype(ctx, bin(ctx, OP_bitwise_right_shift, op_select(b.get(), -1, 1), weak_i64(ctx, 7)).get(), EMBER_FLOAT64);
        m = add(ctx, mul(ctx, hi, f(ctx, 33554432.0)), lo);
    } else {
        m = op_astype(ctx, bin(ctx, OP_bitwise_right_shift, bits(ctx, shape), weak_i64(ctx, 9)).get(), EMBER_FLOAT32);
    }
    return mul(ctx, add(ctx, mul(ctx, m, f(ctx, 2.0)), f(ctx, 1.0)), f(ctx, w == EMBER_FLOAT64 ? 1.0 / 9007199254740992.0 : 1.0 / 16777216.0));
}

// Casts r to dt and moves values that rounded up to `high` to the largest value below it.
// H: high in dtype dt (a 0-d tensor, or a tensor that broadcasts to r's shape).
TRef finish_half_open(ember_ctx* ctx, TRef r, ember_dtype_t dt, const TRef& H) {
    TRef out = cast_if(ctx, r.get(), dt);
    TRef below = run_binary(ctx, OP_nextafter, H.get(), scalar_like(ctx, -INFINITY, dt).get());
    return where(ctx, bin(ctx, OP_greater_equal, out, H), below, out);
}

// mean and sd: weak scalars (the scalar entry) or tensors of the work dtype that broadcast
// to shape (the tensor entry); the same op sequence either way.
TRef normal_of(ember_ctx* ctx, const Shape& shape, ember_dtype_t dt, const TRef& mean, const TRef& sd) {
    TRef u1 = sub(ctx, f(ctx, 1.0), unit_uniform(ctx, shape, dt));  // (0, 1]
    TRef u2 = unit_uniform(ctx, shape, dt);
    TRef rad = un(ctx, OP_sqrt, mul(ctx, f(ctx, -2.0), un(ctx, OP_log, u1)));
    TRef z = mul(ctx, rad, un(ctx, OP_cos, mul(ctx, f(ctx, 2 * M_PI), u2)));
    return cast_if(ctx, add(ctx, mul(ctx, z, sd), mean).get(), dt);
}

// random_normal and random_exponential through the backend's kernel (COMPOSITE_KERNEL,
// docs/backend-guide.md): the composite's values in one call. The kernel fills the work
// dtype from `streams` unit-uniform streams, reserved one after the other as the composite
// draws them, and the result is cast as the composite casts it.
TRef distribution_kernel(ember_ctx* ctx, OpId op, const Shape& shape, ember_dtype_t dt, uint64_t streams, ember_attrs_t at) {
    const ember_dtype_t w = work_dtype(dt);
    TRef r = alloc_tensor(ctx, w, shape);
    if (r->size) {
        const uint64_t words = (uint64_t)r->size * (w == EMBER_FLOAT64 ? 2 : 1);
        const ember_random_state_t s = reserve(ctx, streams * ((words + 3) / 4));
        at.i[0] = (int64_t)s.key;
        at.i[1] = (int64_t)s.counter;
        run_kernel(ctx, op, {}, {view_of(r.get())}, at);
    }
    return cast_if(ctx, r.get(), dt);
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
    if (n <= (int64_t(1) << 32) && has_backend_kernel(ctx, OP_random_permutation)) {
        // The composite below in one kernel call: the same words, the same order.
        TRef r = alloc_tensor(ctx, EMBER_INT64, {n});
        run_kernel(ctx, OP_random_permutation, {}, {view_of(r.get())}, stream_attrs(reserve(ctx, ((uint64_t)n * 2 + 3) / 4)));
        return r;
    }
    TRef w = words64(ctx, {n});
    return FAM_API(ember_argsort, ctx, w.get(), 0, 0);
}

// Runs a per-element sampler kernel: one block per element. params: none (values in attrs)
// or float64 tensors already broadcast to shape.
TRef sample_kernel(ember_ctx* ctx, OpId op, const Shape& shape, ember_dtype_t dt, ember_attrs_t at, const std::vector<TRef>& params = {}) {
    TRef out = alloc_tensor(ctx, dt, shape);
    if (out->size) {
        ember_random_state_t s = reserve(ctx, (uint64_t)out->size);
        at.i[0] = (int64_t)s.key;
        at.i[1] = (int64_t)s.counter;
        if (params.empty()) run_kernel(ctx, op, {}, {view_of(out.get())}, at);
        else if (params.size() == 1) run_kernel(ctx, op, {view_of(params[0].get())}, {view_of(out.get())}, at);
        else run_kernel(ctx, op, {view_of(params[0].get()), view_of(params[1].get())}, {view_of(out.get())}, at);
    }
    return out;
}

ember_dtype_t count_dtype(ember_ctx* ctx, int dtype, const char* op) {
    ember_dtype_t dt = resolve_dtype_arg(ctx, dtype, EMBER_INT64);
    if (dtype == EMBER_DTYPE_DEFAULT) dt = EMBER_INT64;
    if (!is_integer(dt) && !is_float(dt)) raise(EMBER_ERR_UNSUPPORTED_DTYPE, "%s needs an integer or float dtype, got %s", op, dtype_name(dt));
    return dt;
}


// ---- tensor-valued parameters (the *_t entry points)

// A parameter tensor as float64 (any real dtype; complex is rejected).
TRef param64(ember_ctx* ctx, const ember_tensor* p, const char* name) {
    check_same_backend(ctx, p, name);
    if (is_complex(p->dtype)) raise(EMBER_ERR_UNSUPPORTED_DTYPE, "%s must be real, got %s", name, dtype_name(p->dtype));
    return cast_if(ctx, p, EMBER_FLOAT64);
}

// The broadcast shape of the parameters.
Shape params_shape(std::initializer_list<const ember_tensor*> ps) {
    Shape s;
    for (const ember_tensor* p : ps) s = broadcast_shapes(s, shape_of(p));
    return s;
}

// The result's shape: shape[0..ndim) when shape is given (every parameter must broadcast to
// it), else (shape NULL or ndim < 0) the broadcast shape of the parameters.
Shape result_shape(const int64_t* shape, int ndim, std::initializer_list<const ember_tensor*> ps) {
    Shape b = params_shape(ps);
    if (!shape || ndim < 0) return b;
    Shape s = shape_arg(shape, ndim);
    if (broadcast_shapes(b, s) != s)
        raise(EMBER_ERR_SHAPE, "parameters of broadcast shape %s cannot be broadcast to the requested shape %s", shape_str(b).c_str(), shape_str(s).c_str());
    return s;
}

// dtype of a float sampler: dtype when given, else the parameters' promoted dtype when it is
// a float, else the context's default float.
ember_dtype_t float_result(ember_ctx* ctx, int dtype, std::initializer_list<const ember_tensor*> ps, const char* op) {
    if (dtype != EMBER_DTYPE_DEFAULT) return float_arg(ctx, dtype, op);
    ember_dtype_t d = (*ps.begin())->dtype;
    for (const ember_tensor* p : ps) d = promote(d, false, p->dtype, false, ctx->default_float);
    return is_float(d) ? d : ctx->default_float;
}

std::string index_str(const Shape& s, int64_t flat_index) {
    if (s.empty()) return "";
    std::vector<int64_t> idx(s.size());
    for (size_t k = s.size(); k-- > 0;) {
        idx[k] = flat_index % s[k];
        flat_index /= s[k];
    }
    std::string r = "[";
    for (size_t k = 0; k < idx.size(); ++k) r += (k ? ", " : "") + std::to_string(idx[k]);
    return r + "]";
}

// Shortest decimal that reads back as v.
std::string num_str(double v) {
    char buf[40];
    for (int prec = 1; prec <= 17; ++prec) {
        std::snprintf(buf, sizeof buf, "%.*g", prec, v);
        if (std::isnan(v) || std::strtod(buf, nullptr) == v) break;
    }
    return buf;
}

// Flat (C order) index of the first false element of the bool tensor ok, or -1. Reads back
// one reduced flag when all hold.
int64_t first_false(ember_ctx* ctx, const TRef& ok) {
    if (ok->size == 0) return -1;
    TRef all = reduce(ctx, OP_all, ok.get(), nullptr, 0, false);
    uint8_t v = 0;
    read_contiguous(all.get(), &v, 1);
    if (v) return -1;
    TRef bad = op_astype(ctx, un(ctx, OP_logical_not, ok).get(), EMBER_INT32);
    return read_i64(ctx, op_argreduce(ctx, OP_argmax, flat(ctx, bad.get()).get(), 0, false));
}

double value_at(ember_ctx* ctx, const TRef& x, int64_t i) { return read_f64(ctx, op_select(flat(ctx, x.get()).get(), 0, i)); }

// EMBER_ERR_INVALID_ARGUMENT naming the first element of x (float64) where ok is false.
void require(ember_ctx* ctx, const TRef& x, const TRef& ok, const char* name, const char* what) {
    int64_t i = first_false(ctx, ok);
    if (i < 0) return;
    raise(EMBER_ERR_INVALID_ARGUMENT, "%s must be %s, but %s%s is %s", name, what, name, index_str(shape_of(x.get()), i).c_str(),
          num_str(value_at(ctx, x, i)).c_str());
}

TRef all_of(ember_ctx* ctx, std::initializer_list<TRef> conds) {
    TRef r;
    for (const TRef& c : conds) r = r ? bin(ctx, OP_logical_and, r, c) : c;
    return r;
}
TRef finite(ember_ctx* ctx, const TRef& x) { return un(ctx, OP_isfinite, x); }
TRef cmp(ember_ctx* ctx, OpId op, const TRef& x, double v) { return bin(ctx, op, x, f(ctx, v)); }

// finite and > 0
void require_positive(ember_ctx* ctx, const TRef& x, const char* name) {
    require(ctx, x, all_of(ctx, {finite(ctx, x), cmp(ctx, OP_greater, x, 0)}), name, "finite and > 0");
}

// The samplers with two tensor parameters that must both be finite and > 0 (gamma: alpha,
// scale; beta: a, b), broadcast to the result shape for the kernel.
TRef sample_two_positive(ember_ctx* ctx, OpId op, const char* fn, const ember_tensor_t* p, const char* p_name, const ember_tensor_t* q,
                         const char* q_name, const int64_t* shape, int ndim, int dtype) {
    TRef P = param64(ctx, p, p_name), Q = param64(ctx, q, q_name);
    Shape s = result_shape(shape, ndim, {p, q});
    ember_dtype_t dt = float_result(ctx, dtype, {p, q}, fn);
    require_positive(ctx, P, p_name);
    require_positive(ctx, Q, q_name);
    return sample_kernel(ctx, op, s, dt, ember_attrs_t{}, {op_broadcast_to(P.get(), s), op_broadcast_to(Q.get(), s)});
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
    if ((dt == EMBER_FLOAT32 || dt == EMBER_FLOAT64) && has_backend_kernel(ctx, OP_random_uniform)) {
        // The composite below in one kernel call (docs/backend-guide.md): same words, same
        // arithmetic, same state afterwards.
        TRef r = alloc_tensor(ctx, dt, s);
        if (r->size) {
            const uint64_t words = (uint64_t)r->size * (dt == EMBER_FLOAT64 ? 2 : 1);
            ember_attrs_t at = stream_attrs(reserve(ctx, (words + 3) / 4));
            at.f[0] = low;
            at.f[1] = high;
            run_kernel(ctx, OP_random_uniform, {}, {view_of(r.get())}, at);
        }
        *out = r.release();
        return;
    }
    TRef u = unit_uniform(ctx, s, dt);
    TRef r = add(ctx, mul(ctx, u, f(ctx, high - low)), f(ctx, low));
    *out = finish_half_open(ctx, r, dt, scalar_like(ctx, high, dt)).release();
})

ENTRY(ember_random_normal, (ember_ctx_t * ctx, const int64_t* shape, int ndim, double mean, double std, int dtype, ember_tensor_t** out), {
    PRELUDE
    Shape s = shape_arg(shape, ndim);
    ember_dtype_t dt = float_arg(ctx, dtype, "random_normal");
    if (!std::isfinite(mean) || !std::isfinite(std) || std < 0) raise(EMBER_ERR_INVALID_ARGUMENT, "need finite mean and std >= 0, got %g, %g", mean, std);
    if (has_backend_kernel(ctx, OP_random_normal)) {
        ember_attrs_t at{};
        at.f[0] = mean;
        at.f[1] = std;
        *out = distribution_kernel(ctx, OP_random_normal, s, dt, 2, at).release();
        return;
    }
    *out = normal_of(ctx, s, dt, f(ctx, mean), f(ctx, std)).release();
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
    if (p->size == 1 && has_backend_kernel(ctx, OP_random_bernoulli)) {
        // One probability (the common call): the composite below in one kernel call.
        TRef r = alloc_tensor(ctx, EMBER_BOOL, s);
        if (r->size) {
            TRef p0 = cast_if(ctx, p, dt);
            const uint64_t words = (uint64_t)r->size * (dt == EMBER_FLOAT64 ? 2 : 1);
            run_kernel(ctx, OP_random_bernoulli, {view_of(p0.get())}, {view_of(r.get())}, stream_attrs(reserve(ctx, (words + 3) / 4)));
        }
        *out = r.release();
        return;
    }
    TRef u = unit_uniform(ctx, s, dt);
    *out = bin(ctx, OP_less, u, cast_if(ctx, P.get(), dt)).release();
})

ENTRY(ember_random_exponential, (ember_ctx_t * ctx, const int64_t* shape, int ndim, double rate, int dtype, ember_tensor_t** out), {
    PRELUDE
    Shape s = shape_arg(shape, ndim);
    ember_dtype_t dt = float_arg(ctx, dtype, "random_exponential");
    if (!(rate > 0) || !std::isfinite(rate)) raise(EMBER_ERR_INVALID_ARGUMENT, "rate must be positive and finite, got %g", rate);
    if (has_backend_kernel(ctx, OP_random_exponential)) {
        ember_attrs_t at{};
        at.f[0] = rate;
        *out = distribution_kernel(ctx, OP_random_exponential, s, dt, 1, at).release();
        return;
    }
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
    if (has_backend_kernel(ctx, OP_random_randint)) {
        // The composite below in one kernel call (docs/backend-guide.md): same words, same
        // arithmetic, same state afterwards.
        TRef r = alloc_tensor(ctx, dt, s);
        if (r->size) {
            ember_attrs_t at = stream_attrs(reserve(ctx, ((uint64_t)r->size * 2 + 3) / 4));
            at.i[2] = low;
            at.i[3] = (int64_t)range;
            run_kernel(ctx, OP_random_randint, {}, {view_of(r.get())}, at);
        }
        *out = r.release();
        return;
    }
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
    if (has_backend_kernel(ctx, OP_random_categorical)) {
        // The composite below in one kernel call: the same words for the same scores.
        Shape rs = s;
        rs.pop_back();
        TRef r = alloc_tensor(ctx, EMBER_INT64, rs);
        if (r->size) {
            const int64_t classes = x->shape[x->ndim - 1];
            if (r->size > INT64_MAX / 2 / classes) raise(EMBER_ERR_INVALID_ARGUMENT, "%lld samples of %lld classes are too many", (long long)r->size, (long long)classes);
            TRef L = contiguous(ctx, logits.get());
            const uint64_t words = (uint64_t)r->size * (uint64_t)x->shape[x->ndim - 1] * (dt == EMBER_FLOAT64 ? 2 : 1);
            ember_attrs_t at = stream_attrs(reserve(ctx, (words + 3) / 4));
            at.i[2] = num_samples;
            run_kernel(ctx, OP_random_categorical, {view_of(L.get())}, {view_of(r.get())}, at);
        }
        *out = r.release();
        return;
    }
    TRef u = open_unit_uniform(ctx, s, dt);
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

// ---- tensor-valued parameters: same streams as the scalar entries above, parameters per
// element (docs/numerics-random.md, "Tensor parameters").

ENTRY(ember_random_uniform_t, (ember_ctx_t * ctx, const ember_tensor_t* low, const ember_tensor_t* high, const int64_t* shape, int ndim, int dtype, ember_tensor_t** out), {
    PRELUDE
    TRef L = param64(ctx, low, "low"), H = param64(ctx, high, "high");
    Shape s = result_shape(shape, ndim, {low, high});
    ember_dtype_t dt = float_result(ctx, dtype, {low, high}, "random_uniform_t");
    require(ctx, L, finite(ctx, L), "low", "finite");
    require(ctx, H, finite(ctx, H), "high", "finite");
    Shape b = params_shape({low, high});
    TRef Lb = op_broadcast_to(L.get(), b), Hb = op_broadcast_to(H.get(), b);
    int64_t i = first_false(ctx, bin(ctx, OP_less, Lb, Hb));
    if (i >= 0)
        raise(EMBER_ERR_INVALID_ARGUMENT, "need low < high, but at %s of the broadcast parameters low = %s, high = %s", index_str(b, i).c_str(),
              num_str(value_at(ctx, Lb, i)).c_str(), num_str(value_at(ctx, Hb, i)).c_str());
    ember_dtype_t w = work_dtype(dt);
    TRef u = unit_uniform(ctx, s, dt);
    TRef r = add(ctx, mul(ctx, u, cast_if(ctx, sub(ctx, H, L).get(), w)), cast_if(ctx, L.get(), w));
    *out = finish_half_open(ctx, r, dt, cast_if(ctx, H.get(), dt)).release();
})

ENTRY(ember_random_normal_t, (ember_ctx_t * ctx, const ember_tensor_t* mean, const ember_tensor_t* std, const int64_t* shape, int ndim, int dtype, ember_tensor_t** out), {
    PRELUDE
    TRef M = param64(ctx, mean, "mean"), SD = param64(ctx, std, "std");
    Shape s = result_shape(shape, ndim, {mean, std});
    ember_dtype_t dt = float_result(ctx, dtype, {mean, std}, "random_normal_t");
    require(ctx, M, finite(ctx, M), "mean", "finite");
    require(ctx, SD, all_of(ctx, {finite(ctx, SD), cmp(ctx, OP_greater_equal, SD, 0)}), "std", "finite and >= 0");
    ember_dtype_t w = work_dtype(dt);
    *out = normal_of(ctx, s, dt, cast_if(ctx, M.get(), w), cast_if(ctx, SD.get(), w)).release();
})

ENTRY(ember_random_exponential_t, (ember_ctx_t * ctx, const ember_tensor_t* rate, const int64_t* shape, int ndim, int dtype, ember_tensor_t** out), {
    PRELUDE
    TRef R = param64(ctx, rate, "rate");
    Shape s = result_shape(shape, ndim, {rate});
    ember_dtype_t dt = float_result(ctx, dtype, {rate}, "random_exponential_t");
    require_positive(ctx, R, "rate");
    TRef u = unit_uniform(ctx, s, dt);
    TRef e = div(ctx, un(ctx, OP_negative, un(ctx, OP_log1p, un(ctx, OP_negative, u))), cast_if(ctx, R.get(), work_dtype(dt)));
    *out = cast_if(ctx, e.get(), dt).release();
})

ENTRY(ember_random_gamma_t, (ember_ctx_t * ctx, const ember_tensor_t* alpha, const ember_tensor_t* scale, const int64_t* shape, int ndim, int dtype, ember_tensor_t** out), {
    PRELUDE
    *out = sample_two_positive(ctx, OP_random_gamma, "random_gamma_t", alpha, "alpha", scale, "scale", shape, ndim, dtype).release();
})

ENTRY(ember_random_beta_t, (ember_ctx_t * ctx, const ember_tensor_t* a, const ember_tensor_t* b, const int64_t* shape, int ndim, int dtype, ember_tensor_t** out), {
    PRELUDE
    *out = sample_two_positive(ctx, OP_random_beta, "random_beta_t", a, "a", b, "b", shape, ndim, dtype).release();
})

ENTRY(ember_random_binomial_t, (ember_ctx_t * ctx, const ember_tensor_t* n, const ember_tensor_t* p, const int64_t* shape, int ndim, int dtype, ember_tensor_t** out), {
    PRELUDE
    TRef N = param64(ctx, n, "n"), P = param64(ctx, p, "p");
    Shape s = result_shape(shape, ndim, {n, p});
    ember_dtype_t dt = count_dtype(ctx, dtype, "random_binomial_t");
    require(ctx, N,
            all_of(ctx, {finite(ctx, N), cmp(ctx, OP_greater_equal, N, 0), cmp(ctx, OP_less_equal, N, 9007199254740992.0), bin(ctx, OP_equal, un(ctx, OP_floor, N), N)}),
            "n", "an integer in [0, 2^53]");
    require(ctx, P, all_of(ctx, {cmp(ctx, OP_greater_equal, P, 0), cmp(ctx, OP_less_equal, P, 1)}), "p", "in [0, 1]");
    *out = sample_kernel(ctx, OP_random_binomial, s, dt, ember_attrs_t{}, {op_broadcast_to(N.get(), s), op_broadcast_to(P.get(), s)}).release();
})

ENTRY(ember_random_poisson_t, (ember_ctx_t * ctx, const ember_tensor_t* lam, const int64_t* shape, int ndim, int dtype, ember_tensor_t** out), {
    PRELUDE
    TRef L = param64(ctx, lam, "lam");
    Shape s = result_shape(shape, ndim, {lam});
    ember_dtype_t dt = count_dtype(ctx, dtype, "random_poisson_t");
    require(ctx, L, all_of(ctx, {cmp(ctx, OP_greater_equal, L, 0), cmp(ctx, OP_less, L, 1e12)}), "lam", "in [0, 1e12)");
    *out = sample_kernel(ctx, OP_random_poisson, s, dt, ember_attrs_t{}, {op_broadcast_to(L.get(), s)}).release();
})

}  // extern "C"
