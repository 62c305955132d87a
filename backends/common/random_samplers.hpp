// The per-element samplers of the random family (truncated normal, gamma, beta, binomial,
// poisson), shared by the reference backend, whose code is their specification
// (docs/numerics-random.md), and the cpu backend, which runs the same code on words its vector
// Philox computed ahead: the same arithmetic and libm calls in the same order, so both give
// the same values bit for bit. Compile without floating-point contraction.
//
// Element i of a call draws from its own stream, block base + i, trials j = 0, 1, ...: block
// Philox(key, {lo32(block), hi32(block), j, 0}). Each sampler is a struct built from its
// parameters (the method's constants, once per parameter set: recomputing them for every
// element, an exp, a log1p and a sqrt for a small binomial, lgamma twice for a large one, took
// a third to half of each draw) with a sample(stream) method.
// The anonymous namespace keeps a private copy in each module.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <utility>

namespace ember_samplers {
namespace {

struct PhiloxBlock {
    uint32_t w[4];
};

inline PhiloxBlock philox(uint64_t key, uint32_t c0, uint32_t c1, uint32_t c2, uint32_t c3) {
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
    return PhiloxBlock{{c0, c1, c2, c3}};
}

// The word stream of one element. Blocks j < ready_count come from ready + j * ready_step
// (computed ahead), the rest from philox here.
struct Stream {
    uint64_t key, block;
    const uint32_t* ready = nullptr;
    int64_t ready_step = 0;
    uint32_t ready_count = 0;
    uint32_t j = 0;
    int pos = 4;
    PhiloxBlock cur{};
    uint32_t next() {
        if (pos == 4) {
            if (j < ready_count) std::memcpy(cur.w, ready + j * ready_step, sizeof cur.w);
            else cur = philox(key, (uint32_t)block, (uint32_t)(block >> 32), j, 0);
            ++j;
            pos = 0;
        }
        return cur.w[pos++];
    }
    // Uniform on [0, 1) with 53 bits, from two words.
    static double uniform_of(uint32_t w0, uint32_t w1) {
        uint32_t a = w0 >> 5, b = w1 >> 6;
        return ((double)a * 67108864.0 + (double)b) * (1.0 / 9007199254740992.0);
    }
    double uniform() {
        uint32_t w0 = next();
        return uniform_of(w0, next());
    }
    // Uniform on (0, 1).
    double open_uniform() { return uniform() + 0.5 / 9007199254740992.0; }
    // A standard normal deviate (Box-Muller) from one block's four words.
    static double normal_of(const uint32_t* w) {
        double u1 = 1.0 - uniform_of(w[0], w[1]), u2 = uniform_of(w[2], w[3]);
        return std::sqrt(-2.0 * std::log(u1)) * std::cos(6.283185307179586 * u2);
    }
    double normal() {
        uint32_t w[4];
        for (uint32_t& x : w) x = next();
        return normal_of(w);
    }
};

// A sampler for the parameters of the element at hand, rebuilt only when they differ from
// the last element's.
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
inline double log_gamma(double x) {
#if defined(__GLIBC__) || defined(__APPLE__)
    int sign;
    return lgamma_r(x, &sign);
#else
    return std::lgamma(x);
#endif
}

// The normal CDF and its inverse (Acklam's approximation and one Halley step).
inline double phi(double x) { return 0.5 * std::erfc(-x * M_SQRT1_2); }
inline double ndtri(double p) {
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

// Normal(mean, sd) truncated to [lo, hi] by inversion, sampled in the lower tail, where the
// CDF is accurate, and mirrored when the interval lies above the mean.
struct TruncatedNormal {
    double mean = 0, sd = 1, lo = 0, hi = 0, pa = 0, pb = 0;
    bool flip = false;
    TruncatedNormal(double mean_, double sd_, double lo_abs, double hi_abs) : mean(mean_), sd(sd_) {
        const double a = (lo_abs - mean) / sd, b = (hi_abs - mean) / sd;
        flip = a > 0;
        lo = flip ? -b : a;
        hi = flip ? -a : b;
        pa = phi(lo);
        pb = phi(hi);
    }
    double sample(Stream& s) const {
        double z = ndtri(pa + s.uniform() * (pb - pa));
        z = std::min(std::max(z, lo), hi);
        if (flip) z = -z;
        return mean + sd * z;
    }
};

// Marsaglia-Tsang; alpha < 1 as Gamma(alpha + 1) u^(1/alpha). The squeeze u < 1 - 0.0331 x^4
// accepts about 97% of the trials of alpha = 2 without the two logarithms of the exact test
// (it lies below the test's bound, Marsaglia and Tsang 2000).
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
    // The rest of a trial whose normal deviate x the stream gave: d v if accepted, else -1
    // (then the next trial draws the next normal deviate). The cpu backend draws the first
    // trial's deviates of a run of elements before finishing any (random_ops.cpp).
    double trial(Stream& s, double x) const {
        double v = 1.0 + c * x;
        if (v <= 0) return -1;
        v = v * v * v;
        double u = s.open_uniform(), x2 = x * x;
        if (u < 1.0 - 0.0331 * x2 * x2) return d * v;
        if (std::log(u) < 0.5 * x * x + d - d * v + d * std::log(v)) return d * v;
        return -1;
    }
    double sample(Stream& s) const {
        const double boost = boost_power ? std::pow(s.open_uniform(), boost_power) : 1.0;
        for (;;) {
            const double r = trial(s, s.normal());
            if (r >= 0) return r * boost;
        }
    }
};

// X / (X + Y), X ~ Gamma(a), Y ~ Gamma(b) from the one stream.
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

// p > 1/2 mirrored; n p < 10: inversion (numpy's binomial_inversion with its restart bound);
// else Hormann's BTRS.
struct Binomial {
    double n = 0, p = 0, q = 0;
    bool flip = false, trivial = true, inversion = false;
    double qn = 0, bound = 0;                                              // inversion
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

// lam < 10: multiplication (Knuth); else PTRS (Hormann 1993), as numpy.
struct Poisson {
    double lam = 0, limit = 0;                                                // multiplication
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

}  // namespace
}  // namespace ember_samplers
