// Reference kernels of the random family: Philox 4x32-10 words and the samplers that
// need rejection loops. Stream layout (docs/numerics-random.md): block b of a call is
// Philox(key, {lo32(b), hi32(b), j, 0}); random_bits takes j = 0 and 4 words per block;
// the per-element samplers give element i (C order) the block base + i and draw trial
// after trial from j = 0, 1, 2, ... so any backend can reproduce each element alone.
// gamma, beta, binomial and poisson take their parameters either from attrs (n_in == 0) or
// per element from float64 input views of out's shape (n_in == 1 or 2, stride 0 where
// broadcast; the core has validated them). Element i uses block base + i either way, so a
// parameter tensor full of one value gives exactly the attrs result.
#include "ref_common.hpp"

namespace ember_ref {
namespace {

struct Block {
    uint32_t w[4];
};

Block philox(uint64_t key, uint32_t c0, uint32_t c1, uint32_t c2, uint32_t c3) {
    uint32_t k0 = (uint32_t)key, k1 = (uint32_t)(key >> 32);
    for (int r = 0; r < 10; ++r) {
        if (r) {
            k0 += 0x9E3779B9u;
            k1 += 0xBB67AE85u;
        }
        uint64_t p0 = (uint64_t)0xD2511F53u * c0, p1 = (uint64_t)0xCD9E8D57u * c2;
        uint32_t hi0 = (uint32_t)(p0 >> 32), lo0 = (uint32_t)p0, hi1 = (uint32_t)(p1 >> 32), lo1 = (uint32_t)p1;
        uint32_t n0 = hi1 ^ c1 ^ k0, n2 = hi0 ^ c3 ^ k1;
        c0 = n0;
        c1 = lo1;
        c2 = n2;
        c3 = lo0;
    }
    return Block{{c0, c1, c2, c3}};
}

// The word stream of one element.
struct Stream {
    uint64_t key, block;
    uint32_t j = 0;
    int pos = 4;
    Block cur{};
    uint32_t next() {
        if (pos == 4) {
            cur = philox(key, (uint32_t)block, (uint32_t)(block >> 32), j++, 0);
            pos = 0;
        }
        return cur.w[pos++];
    }
    // Uniform on [0, 1) with 53 bits.
    double uniform() {
        uint32_t a = next() >> 5, b = next() >> 6;
        return ((double)a * 67108864.0 + (double)b) * (1.0 / 9007199254740992.0);
    }
    // Uniform on (0, 1).
    double open_uniform() { return uniform() + 0.5 / 9007199254740992.0; }
    double normal() {
        double u1 = 1.0 - uniform(), u2 = uniform();
        return std::sqrt(-2.0 * std::log(u1)) * std::cos(6.283185307179586 * u2);
    }
};

// in: none; out: uint32. attrs.i[0] key, i[1] first block.
ember_status_t bits_kernel(const ember_kernel_call_t* call) {
    const ember_view_t& out = call->out[0];
    uint64_t key = (uint64_t)call->attrs->i[0], base = (uint64_t)call->attrs->i[1];
    int64_t i = 0;
    Block b{};
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

// ---- normal CDF and its inverse (Acklam's approximation + one Halley step)
double phi(double x) { return 0.5 * std::erfc(-x * M_SQRT1_2); }
double ndtri(double p) {
    static const double a[] = {-3.969683028665376e+01, 2.209460984245205e+02, -2.759285104469687e+02, 1.383577518672690e+02, -3.066479806614716e+01, 2.506628277459239e+00};
    static const double b[] = {-5.447609879822406e+01, 1.615858368580409e+02, -1.556989798598866e+02, 6.680131188771972e+01, -1.328068155288572e+01};
    static const double c[] = {-7.784894002430293e-03, -3.223964580411365e-01, -2.400758277161838e+00, -2.549732539343734e+00, 4.374664141464968e+00, 2.938163982698783e+00};
    static const double d[] = {7.784695709041462e-03, 3.224671290700398e-01, 2.445134137142996e+00, 3.754408661907416e+00};
    if (p <= 0) return -INFINITY;
    if (p >= 1) return INFINITY;
    double x;
    if (p < 0.02425) {
        double q = std::sqrt(-2 * std::log(p));
        x = (((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5]) / ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1);
    } else if (p <= 1 - 0.02425) {
        double q = p - 0.5, r = q * q;
        x = (((((a[0] * r + a[1]) * r + a[2]) * r + a[3]) * r + a[4]) * r + a[5]) * q / (((((b[0] * r + b[1]) * r + b[2]) * r + b[3]) * r + b[4]) * r + 1);
    } else {
        double q = std::sqrt(-2 * std::log1p(-p));
        x = -(((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5]) / ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1);
    }
    double e = phi(x) - p;
    double u = e * std::sqrt(2 * M_PI) * std::exp(x * x / 2);
    return x - u / (1 + x * u / 2);
}

// attrs.f: mean, std, lo, hi (absolute). The host checked the interval has mass.
ember_status_t truncated_normal_kernel(const ember_kernel_call_t* call) {
    double mean = call->attrs->f[0], sd = call->attrs->f[1];
    double a = (call->attrs->f[2] - mean) / sd, b = (call->attrs->f[3] - mean) / sd;
    // Sample in the lower tail, where the CDF is accurate, and mirror when needed.
    bool flip = a > 0;
    double lo = flip ? -b : a, hi = flip ? -a : b;
    double pa = phi(lo), pb = phi(hi);
    return per_element(call, "random_truncated_normal", [&](Stream& s, const int64_t*) {
        double z = ndtri(pa + s.uniform() * (pb - pa));
        z = std::min(std::max(z, lo), hi);
        if (flip) z = -z;
        return mean + sd * z;
    });
}

// The samplers below are structs built from their parameters (the constants of the method,
// computed once per call, or per element only where a parameter tensor changes value) with a
// sample(stream) method. Recomputing them for every element (an exp, a log1p and a sqrt for a
// small binomial, lgamma twice for a large one) took a third to half of each draw.

// A parameter set: the sampler is rebuilt only when the values change from the last element.
template <class Sampler, int N>
struct Cached {
    double key[N];
    bool built = false;
    Sampler sampler;
    const Sampler& get(const double (&values)[N]) {
        bool same = built;
        for (int k = 0; k < N && same; ++k) same = std::memcmp(&key[k], &values[k], sizeof(double)) == 0;
        if (!same) {
            std::memcpy(key, values, sizeof key);
            sampler = make(values, std::make_index_sequence<N>());
            built = true;
        }
        return sampler;
    }
    template <size_t... I>
    static Sampler make(const double (&v)[N], std::index_sequence<I...>) {
        return Sampler(v[I]...);
    }
};

// lgamma without the global signgam glibc's lgamma writes (a data race between threads).
double log_gamma(double x) {
#if defined(__GLIBC__) || defined(__APPLE__)
    int sign;
    return lgamma_r(x, &sign);
#else
    return std::lgamma(x);
#endif
}

// Marsaglia-Tsang. The squeeze u < 1 - 0.0331 x^4 accepts about 97% of the trials of alpha = 2
// without the two logarithms of the exact test (it lies below the test's bound, Marsaglia and
// Tsang 2000): a draw took 88 ns on one Zen 3 thread before.
struct Gamma {
    double boost_power = 0, d = 0, c = 0;  // boost_power: 1 / alpha for alpha < 1, else 0
    Gamma() = default;
    explicit Gamma(double alpha) {
        if (alpha < 1.0) {
            boost_power = 1.0 / alpha;
            alpha += 1.0;
        }
        d = alpha - 1.0 / 3.0;
        c = 1.0 / std::sqrt(9.0 * d);
    }
    double sample(Stream& s) const {
        const double boost = boost_power ? std::pow(s.open_uniform(), boost_power) : 1.0;
        for (;;) {
            double x = s.normal(), v = 1.0 + c * x;
            if (v <= 0) continue;
            v = v * v * v;
            double u = s.open_uniform(), x2 = x * x;
            if (u < 1.0 - 0.0331 * x2 * x2) return d * v * boost;
            if (std::log(u) < 0.5 * x * x + d - d * v + d * std::log(v)) return d * v * boost;
        }
    }
};

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

struct Beta {
    Gamma x, y;
    bool a_wins = false;
    Beta() = default;
    Beta(double a, double b) : x(a), y(b), a_wins(a >= b) {}
    double sample(Stream& s) const {
        double gx = x.sample(s), gy = y.sample(s);
        if (gx + gy == 0) return a_wins ? 1.0 : 0.0;  // both underflowed (tiny a, b)
        return gx / (gx + gy);
    }
};

// attrs.f[0] a, f[1] b; or in[0] a, in[1] b.
ember_status_t beta_kernel(const ember_kernel_call_t* call) {
    Params P{call};
    if (ember_status_t st = P.check("random_beta", 2)) return st;
    double a = call->attrs->f[0], b = call->attrs->f[1];
    Cached<Beta, 2> beta;
    return per_element(call, "random_beta", [&](Stream& s, const int64_t* idx) { return beta.get({P.get(0, idx, a), P.get(1, idx, b)}).sample(s); });
}

// p > 1/2 mirrored; n p < 10: inversion (numpy's binomial_inversion with its restart bound);
// else Hormann's BTRS.
struct Binomial {
    double n = 0, p = 0, q = 0;
    bool flip = false, trivial = true, inversion = false;
    double qn = 0, bound = 0;                                        // inversion
    double b = 0, a = 0, c = 0, vr = 0, alpha = 0, lpq = 0, m = 0, h = 0;  // BTRS
    Binomial() = default;
    Binomial(double n_, double p_) : n(n_) {
        flip = p_ > 0.5;
        p = flip ? 1 - p_ : p_;
        q = 1 - p;
        trivial = n == 0 || p == 0;
        inversion = n * p < 10;
        if (trivial) return;
        if (inversion) {
            const double np = n * p;
            qn = std::exp(n * std::log1p(-p));
            bound = std::min(n, np + 10.0 * std::sqrt(np * q + 1));
            return;
        }
        const double spq = std::sqrt(n * p * q);
        b = 1.15 + 2.53 * spq, a = -0.0873 + 0.0248 * b + 0.01 * p, c = n * p + 0.5, vr = 0.92 - 4.2 / b;
        alpha = (2.83 + 5.1 / b) * spq, lpq = std::log(p / q), m = std::floor((n + 1) * p);
        h = log_gamma(m + 1) + log_gamma(n - m + 1);
    }
    double sample(Stream& s) const {
        const double k = trivial ? 0 : inversion ? by_inversion(s) : by_btrs(s);
        return flip ? n - k : k;
    }
    double by_inversion(Stream& s) const {
        double x = 0, px = qn, u = s.uniform();
        while (u > px) {
            x += 1;
            if (x > bound) {
                x = 0;
                px = qn;
                u = s.uniform();
            } else {
                u -= px;
                px = ((n - x + 1) * p * px) / (x * q);
            }
        }
        return x;
    }
    double by_btrs(Stream& s) const {
        for (;;) {
            double u = s.uniform() - 0.5, v = s.uniform(), us = 0.5 - std::fabs(u);
            double k = std::floor((2 * a / us + b) * u + c);
            if (k < 0 || k > n) continue;
            if (us >= 0.07 && v <= vr) return k;
            v = std::log(v * alpha / (a / (us * us) + b));
            if (v <= h - log_gamma(k + 1) - log_gamma(n - k + 1) + (k - m) * lpq) return k;
        }
    }
};

// attrs.i[2] n, f[0] p; or in[0] n (integral float64), in[1] p.
ember_status_t binomial_kernel(const ember_kernel_call_t* call) {
    Params P{call};
    if (ember_status_t st = P.check("random_binomial", 2)) return st;
    double n = (double)call->attrs->i[2], p = call->attrs->f[0];
    Cached<Binomial, 2> bin;
    return per_element(call, "random_binomial", [&](Stream& s, const int64_t* idx) { return bin.get({P.get(0, idx, n), P.get(1, idx, p)}).sample(s); });
}

// lam < 10: multiplication (Knuth); else PTRS (Hormann 1993), as numpy.
struct Poisson {
    double lam = 0, limit = 0;                                                   // multiplication
    double loglam = 0, b = 0, a = 0, invalpha = 0, log_invalpha = 0, vr = 0;  // PTRS
    Poisson() = default;
    explicit Poisson(double lam_) : lam(lam_) {
        if (lam < 10) {
            limit = std::exp(-lam);
            return;
        }
        const double slam = std::sqrt(lam);
        loglam = std::log(lam), b = 0.931 + 2.53 * slam, a = -0.059 + 0.02483 * b;
        invalpha = 1.1239 + 1.1328 / (b - 3.4), log_invalpha = std::log(invalpha), vr = 0.9277 - 3.6224 / (b - 2);
    }
    double sample(Stream& s) const {
        if (lam == 0) return 0;
        if (lam < 10) {
            double prod = 1;
            int64_t k = -1;
            do {
                ++k;
                prod *= s.uniform();
            } while (prod > limit);
            return (double)k;
        }
        for (;;) {
            double u = s.uniform() - 0.5, v = s.uniform(), us = 0.5 - std::fabs(u);
            double k = std::floor((2 * a / us + b) * u + lam + 0.43);
            if (us >= 0.07 && v <= vr) return k;
            if (k < 0 || (us < 0.013 && v > us)) continue;
            if (std::log(v) + log_invalpha - std::log(a / (us * us) + b) <= -lam + k * loglam - log_gamma(k + 1)) return k;
        }
    }
};

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
