// Reference kernels of the random family: Philox 4x32-10 words and the per-element samplers
// (their code is backends/common/random_samplers.hpp, shared with the cpu backend). Stream
// layout (docs/numerics-random.md): block b of a call is Philox(key, {lo32(b), hi32(b), j,
// 0}); random_bits takes j = 0 and 4 words per block;
// the per-element samplers give element i (C order) the block base + i and draw trial
// after trial from j = 0, 1, 2, ... so any backend can reproduce each element alone.
// gamma, beta, binomial and poisson take their parameters either from attrs (n_in == 0) or
// per element from float64 input views of out's shape (n_in == 1 or 2, stride 0 where
// broadcast; the core has validated them). Element i uses block base + i either way, so a
// parameter tensor full of one value gives exactly the attrs result.
#include "../common/random_samplers.hpp"
#include "ref_common.hpp"

namespace ember_ref {
namespace {

using namespace ember_samplers;

// in: none; out: uint32. attrs.i[0] key, i[1] first block.
ember_status_t bits_kernel(const ember_kernel_call_t* call) {
    const ember_view_t& out = call->out[0];
    uint64_t key = (uint64_t)call->attrs->i[0], base = (uint64_t)call->attrs->i[1];
    int64_t i = 0;
    PhiloxBlock b{};
    for_each_index(out.ndim, out.shape, [&](const int64_t* idx) {
        if ((i & 3) == 0) {
            uint64_t blk = base + (uint64_t)(i >> 2);
            b = philox(key, (uint32_t)blk, (uint32_t)(blk >> 32), 0, 0);
        }
        *elem<uint32_t>(out, idx) = b.w[i & 3];
        ++i;
    });
    return EMBER_OK;
}

// Runs sample(stream, idx) -> double for every element of out (any real dtype); idx is the
// element's multi-index (for reading per-element parameters).
template <class F>
ember_status_t per_element(const ember_kernel_call_t* call, const char* name, F&& sample) {
    const ember_view_t& out = call->out[0];
    uint64_t key = (uint64_t)call->attrs->i[0], base = (uint64_t)call->attrs->i[1];
    return visit(out.dtype, [&](auto t) -> ember_status_t {
        using O = typename decltype(t)::type;
        if constexpr (is_cplx_v<O> || is_bool_v<O>) {
            return fail_dtype(name, out.dtype);
        } else {
            int64_t i = 0;
            for_each_index(out.ndim, out.shape, [&](const int64_t* idx) {
                Stream s{key, base + (uint64_t)i};
                *elem<O>(out, idx) = convert<O>(sample(s, idx));
                ++i;
            });
            return EMBER_OK;
        }
    });
}

// Parameter k of the element at idx: attrs value `scalar` when the call has no inputs,
// else the float64 input view k (already broadcast to out's shape).
struct Params {
    const ember_kernel_call_t* call;
    ember_status_t check(const char* name, int want) const {
        if (call->n_in == 0) return EMBER_OK;
        if (call->n_in != want) return g_host->fail(EMBER_ERR_INVALID_ARGUMENT, "%s takes 0 or %d parameter inputs, got %d", name, want, call->n_in);
        for (int k = 0; k < want; ++k) {
            const ember_view_t& v = call->in[k];
            if (v.dtype != EMBER_FLOAT64 || v.ndim != call->out[0].ndim) return g_host->fail(EMBER_ERR_INVALID_ARGUMENT, "%s: parameter %d must be a float64 view of the output's shape", name, k);
            for (int d = 0; d < v.ndim; ++d)
                if (v.shape[d] != call->out[0].shape[d]) return g_host->fail(EMBER_ERR_INVALID_ARGUMENT, "%s: parameter %d must be a float64 view of the output's shape", name, k);
        }
        return EMBER_OK;
    }
    double get(int k, const int64_t* idx, double scalar) const { return call->n_in ? *elem<double>(call->in[k], idx) : scalar; }
};

// attrs.f: mean, std, lo, hi (absolute). The host checked the interval has mass.
ember_status_t truncated_normal_kernel(const ember_kernel_call_t* call) {
    const TruncatedNormal tn(call->attrs->f[0], call->attrs->f[1], call->attrs->f[2], call->attrs->f[3]);
    return per_element(call, "random_truncated_normal", [&](Stream& s, const int64_t*) { return tn.sample(s); });
}

// attrs.f[0] alpha, f[1] scale; or in[0] alpha, in[1] scale.
ember_status_t gamma_kernel(const ember_kernel_call_t* call) {
    Params P{call};
    if (ember_status_t st = P.check("random_gamma", 2)) return st;
    double alpha = call->attrs->f[0], scale = call->attrs->f[1];
    Cached<Gamma, 1> g;
    return per_element(call, "random_gamma", [&](Stream& s, const int64_t* idx) {
        return g.get({P.get(0, idx, alpha)}).sample(s) * P.get(1, idx, scale);
    });
}

// attrs.f[0] a, f[1] b; or in[0] a, in[1] b.
ember_status_t beta_kernel(const ember_kernel_call_t* call) {
    Params P{call};
    if (ember_status_t st = P.check("random_beta", 2)) return st;
    double a = call->attrs->f[0], b = call->attrs->f[1];
    Cached<Beta, 2> beta;
    return per_element(call, "random_beta", [&](Stream& s, const int64_t* idx) { return beta.get({P.get(0, idx, a), P.get(1, idx, b)}).sample(s); });
}

// attrs.i[2] n, f[0] p; or in[0] n (integral float64), in[1] p.
ember_status_t binomial_kernel(const ember_kernel_call_t* call) {
    Params P{call};
    if (ember_status_t st = P.check("random_binomial", 2)) return st;
    double n = (double)call->attrs->i[2], p = call->attrs->f[0];
    Cached<Binomial, 2> bin;
    return per_element(call, "random_binomial", [&](Stream& s, const int64_t* idx) { return bin.get({P.get(0, idx, n), P.get(1, idx, p)}).sample(s); });
}

// attrs.f[0] lam; or in[0] lam.
ember_status_t poisson_kernel(const ember_kernel_call_t* call) {
    Params P{call};
    if (ember_status_t st = P.check("random_poisson", 1)) return st;
    double lam = call->attrs->f[0];
    Cached<Poisson, 1> poisson;
    return per_element(call, "random_poisson", [&](Stream& s, const int64_t* idx) { return poisson.get({P.get(0, idx, lam)}).sample(s); });
}

void add_random_kernels(KernelList& k) {
    k.emplace_back("random_bits", bits_kernel);
    k.emplace_back("random_truncated_normal", truncated_normal_kernel);
    k.emplace_back("random_gamma", gamma_kernel);
    k.emplace_back("random_beta", beta_kernel);
    k.emplace_back("random_binomial", binomial_kernel);
    k.emplace_back("random_poisson", poisson_kernel);
}

static RegisterKernels reg(add_random_kernels);

}  // namespace
}  // namespace ember_ref
