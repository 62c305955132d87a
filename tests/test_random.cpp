// Random numbers (issue 3). The generator is checked against the Philox 4x32-10 known-answer
// vector and an independent implementation written here from the paper; distributions by
// moments (z-scores of the sample mean/variance at |z| < 5) and by Kolmogorov-Smirnov
// (continuous) or chi-square (discrete) goodness of fit at significance 1e-3. Every seed
// is fixed, so the outcome is deterministic; the quoted levels are the probability that a
// correct generator fails for a randomly chosen seed (docs/numerics-random.md).
#include <algorithm>
#include <cstdint>
#include <functional>
#include <limits>
#include <numeric>

#include "test_util.hpp"

namespace {

ember_ctx_t* C() { return test_ctx(); }

// Independent Philox 4x32-10 (Salmon et al. 2011).
void philox_ref(uint32_t ctr[4], uint32_t k0, uint32_t k1) {
    for (int r = 0; r < 10; ++r) {
        uint64_t a = 0xD2511F53ull * ctr[0], b = 0xCD9E8D57ull * ctr[2];
        uint32_t n[4] = {(uint32_t)(b >> 32) ^ ctr[1] ^ k0, (uint32_t)b, (uint32_t)(a >> 32) ^ ctr[3] ^ k1, (uint32_t)a};
        std::copy(n, n + 4, ctr);
        k0 += 0x9E3779B9u;
        k1 += 0xBB67AE85u;
    }
}

std::vector<uint32_t> words(const ember_tensor_t* t) {
    int64_t n = 0;
    ember_tensor_size(t, &n);
    std::vector<uint32_t> v((size_t)n);
    ember_tensor_read(t, v.data(), v.size() * 4);
    return v;
}

// KS statistic sqrt(n) * D against cdf; the 1e-3 critical value of the limit law is 1.949.
template <class F>
double ks(std::vector<double> v, F cdf) {
    std::sort(v.begin(), v.end());
    double n = (double)v.size(), d = 0;
    for (size_t i = 0; i < v.size(); ++i) {
        double c = cdf(v[i]);
        d = std::max({d, (i + 1) / n - c, c - i / n});
    }
    return d * std::sqrt(n);
}
const double kKs = 1.949;

// Chi-square statistic of counts against expected probabilities (cells with small expectation
// pooled into the last); returns {statistic, 1e-3 critical value (Wilson-Hilferty)}.
std::pair<double, double> chi2(const std::vector<double>& counts, const std::vector<double>& prob, double n) {
    double stat = 0, pool_c = 0, pool_e = 0;
    int cells = 0;
    for (size_t i = 0; i < counts.size(); ++i) {
        double e = prob[i] * n;
        if (e < 5) {
            pool_c += counts[i];
            pool_e += e;
            continue;
        }
        stat += (counts[i] - e) * (counts[i] - e) / e;
        ++cells;
    }
    if (pool_e > 0) {
        stat += (pool_c - pool_e) * (pool_c - pool_e) / std::max(pool_e, 1e-300);
        ++cells;
    }
    double k = cells - 1, z = 3.090;
    double crit = k * std::pow(1 - 2 / (9 * k) + z * std::sqrt(2 / (9 * k)), 3);
    return {stat, crit};
}

// z-scores of the sample mean and variance; Var(s^2) ~ var^2 (excess_kurtosis + 2) / n.
void moments(const std::vector<double>& v, double mean, double var, const char* what, double excess_kurtosis) {
    double n = (double)v.size(), m = 0, s = 0;
    for (double x : v) m += x / n;
    for (double x : v) s += (x - m) * (x - m) / (n - 1);
    EXPECT_LT(std::fabs(m - mean) / std::sqrt(var / n), 5.0) << what << ": mean " << m << " vs " << mean;
    EXPECT_LT(std::fabs(s - var) / (var * std::sqrt((excess_kurtosis + 2) / n)), 5.0) << what << ": var " << s << " vs " << var;
}

double norm_cdf(double x) { return 0.5 * std::erfc(-x / std::sqrt(2.0)); }

// Regularised lower incomplete gamma P(a, x) (series / continued fraction).
double gamma_p(double a, double x) {
    if (x <= 0) return 0;
    double lg = std::lgamma(a);
    if (x < a + 1) {
        double sum = 1 / a, term = sum;
        for (int n = 1; n < 1000; ++n) {
            term *= x / (a + n);
            sum += term;
            if (term < sum * 1e-16) break;
        }
        return sum * std::exp(-x + a * std::log(x) - lg);
    }
    double b = x + 1 - a, c = 1e300, d = 1 / b, h = d;
    for (int i = 1; i < 1000; ++i) {
        double an = -i * (i - a);
        b += 2;
        d = an * d + b;
        if (std::fabs(d) < 1e-300) d = 1e-300;
        c = b + an / c;
        if (std::fabs(c) < 1e-300) c = 1e-300;
        d = 1 / d;
        double del = d * c;
        h *= del;
        if (std::fabs(del - 1) < 1e-16) break;
    }
    return 1 - std::exp(-x + a * std::log(x) - lg) * h;
}

std::vector<int64_t> S(std::initializer_list<int64_t> s) { return s; }

TEST(RandomState, PhiloxKnownAnswerAndLayout) {
    EM_OK(ember_random_seed(C(), 0));
    T b;
    auto sh = S({6});
    EM_OK(ember_random_bits(C(), sh.data(), 1, b.out()));
    EXPECT_EQ(dtype_of(b), EMBER_UINT32);
    auto w = words(b);
    // Random123 kat_vectors: philox4x32_10, counter 0, key 0.
    EXPECT_EQ(w[0], 0x6627e8d5u);
    EXPECT_EQ(w[1], 0xe169c58du);
    EXPECT_EQ(w[2], 0xbc57ac4cu);
    EXPECT_EQ(w[3], 0x9b00dbd8u);
    // Words 4, 5 come from block 1; the call consumed 2 blocks.
    uint32_t c1[4] = {1, 0, 0, 0};
    philox_ref(c1, 0, 0);
    EXPECT_EQ(w[4], c1[0]);
    EXPECT_EQ(w[5], c1[1]);
    ember_random_state_t st;
    EM_OK(ember_random_get_state(C(), &st));
    EXPECT_EQ(st.key, 0u);
    EXPECT_EQ(st.counter, 2u);
    // An arbitrary key and a counter whose high word is set, in a 2-d shape.
    ember_random_state_t s2{0x0123456789abcdefull, 0x00000001fffffffeull};
    EM_OK(ember_random_set_state(C(), &s2));
    auto sh2 = S({2, 5});
    EM_OK(ember_random_bits(C(), sh2.data(), 2, b.out()));
    w = words(b);
    for (uint64_t blk = 0; blk < 3; ++blk) {
        uint64_t ctr = s2.counter + blk;
        uint32_t c[4] = {(uint32_t)ctr, (uint32_t)(ctr >> 32), 0, 0};
        philox_ref(c, 0x89abcdefu, 0x01234567u);
        for (int k = 0; k < 4 && blk * 4 + k < 10; ++k) EXPECT_EQ(w[blk * 4 + k], c[k]) << "word " << blk * 4 + k;
    }
    EM_OK(ember_random_get_state(C(), &st));
    EXPECT_EQ(st.counter, s2.counter + 3);
}

TEST(RandomState, SameSeedSameTensorsAndStreamsAdvance) {
    auto sh = S({3, 4});
    std::vector<double> a1, a2, b1, b2;
    for (int rep = 0; rep < 2; ++rep) {
        EM_OK(ember_random_seed(C(), 1234));
        T x, y;
        EM_OK(ember_random_normal(C(), sh.data(), 2, 0, 1, EMBER_FLOAT64, x.out()));
        EM_OK(ember_random_uniform(C(), sh.data(), 2, 0, 1, EMBER_FLOAT32, y.out()));
        (rep ? a2 : a1) = values(x);
        (rep ? b2 : b1) = values(y);
    }
    EXPECT_EQ(a1, a2);
    EXPECT_EQ(b1, b2);
    EXPECT_NE(a1, std::vector<double>(a1.size(), a1[0]));
    // Saving and restoring the state replays a call; a new call differs.
    ember_random_state_t st;
    EM_OK(ember_random_get_state(C(), &st));
    T p, q, r;
    EM_OK(ember_random_uniform(C(), sh.data(), 2, 0, 1, EMBER_FLOAT64, p.out()));
    EM_OK(ember_random_uniform(C(), sh.data(), 2, 0, 1, EMBER_FLOAT64, r.out()));
    EM_OK(ember_random_set_state(C(), &st));
    EM_OK(ember_random_uniform(C(), sh.data(), 2, 0, 1, EMBER_FLOAT64, q.out()));
    EXPECT_EQ(values(p), values(q));
    EXPECT_NE(values(p), values(r));
    // Different seeds differ; contexts keep separate states.
    ember_ctx_t* other = nullptr;
    EM_OK(ember_ctx_create_on("reference", 0, &other));
    EM_OK(ember_random_seed(C(), 5));
    EM_OK(ember_random_seed(other, 5));
    T u1, u2, u3;
    EM_OK(ember_random_bits(C(), sh.data(), 2, u1.out()));
    EM_OK(ember_random_bits(other, sh.data(), 2, u2.out()));
    EXPECT_EQ(words(u1), words(u2));
    EM_OK(ember_random_seed(other, 6));
    EM_OK(ember_random_bits(other, sh.data(), 2, u3.out()));
    EXPECT_NE(words(u1), words(u3));
    ember_ctx_release(other);
}

TEST(RandomUniform, RangeDtypesAndKs) {
    EM_OK(ember_random_seed(C(), 42));
    auto sh = S({20000});
    T u;
    EM_OK(ember_random_uniform(C(), sh.data(), 1, -2, 3, EMBER_FLOAT64, u.out()));
    auto v = values(u);
    for (double x : v) ASSERT_TRUE(x >= -2 && x < 3) << x;
    EXPECT_LT(ks(v, [](double x) { return (x + 2) / 5; }), kKs);
    moments(v, 0.5, 25.0 / 12, "uniform", -1.2);
    for (ember_dtype_t dt : {EMBER_FLOAT32, EMBER_FLOAT16, EMBER_BFLOAT16}) {
        EM_OK(ember_random_uniform(C(), sh.data(), 1, 0, 1, dt, u.out()));
        EXPECT_EQ(dtype_of(u), dt);
        v = values(u);
        for (double x : v) ASSERT_TRUE(x >= 0 && x < 1) << x << " dtype " << dt;  // never rounds up to high
        EXPECT_LT(std::fabs(std::accumulate(v.begin(), v.end(), 0.0) / v.size() - 0.5), 0.01);
    }
    // Default dtype, 0-d and empty shapes.
    EM_OK(ember_random_uniform(C(), nullptr, 0, 0, 1, EMBER_DTYPE_DEFAULT, u.out()));
    EXPECT_EQ(dtype_of(u), EMBER_FLOAT32);
    EXPECT_TRUE(shape_of(u).empty());
    auto e = S({0, 3});
    EM_OK(ember_random_uniform(C(), e.data(), 2, 0, 1, EMBER_FLOAT64, u.out()));
    EXPECT_EQ(shape_of(u), e);
    EM_FAILS(ember_random_uniform(C(), sh.data(), 1, 1, 1, EMBER_FLOAT64, u.out()), EMBER_ERR_INVALID_ARGUMENT, "ember_random_uniform");
    EM_FAILS(ember_random_uniform(C(), sh.data(), 1, 0, INFINITY, EMBER_FLOAT64, u.out()), EMBER_ERR_INVALID_ARGUMENT, "ember_random_uniform");
    EM_FAILS(ember_random_uniform(C(), sh.data(), 1, 0, 1, EMBER_INT32, u.out()), EMBER_ERR_UNSUPPORTED_DTYPE, "ember_random_uniform");
    auto neg = S({-1});
    EM_FAILS(ember_random_uniform(C(), neg.data(), 1, 0, 1, EMBER_FLOAT64, u.out()), EMBER_ERR_SHAPE, "ember_random_uniform");
}

TEST(RandomNormal, MomentsAndKs) {
    EM_OK(ember_random_seed(C(), 7));
    auto sh = S({100, 200});
    T x;
    EM_OK(ember_random_normal(C(), sh.data(), 2, 1.5, 2.0, EMBER_FLOAT64, x.out()));
    auto v = values(x);
    moments(v, 1.5, 4.0, "normal f64", 0);
    EXPECT_LT(ks(v, [](double t) { return norm_cdf((t - 1.5) / 2); }), kKs);
    EM_OK(ember_random_normal(C(), sh.data(), 2, 0, 1, EMBER_FLOAT32, x.out()));
    EXPECT_EQ(dtype_of(x), EMBER_FLOAT32);
    v = values(x);
    for (double t : v) ASSERT_TRUE(std::isfinite(t));
    EXPECT_LT(ks(v, norm_cdf), kKs);
    EM_FAILS(ember_random_normal(C(), sh.data(), 2, 0, -1, EMBER_FLOAT32, x.out()), EMBER_ERR_INVALID_ARGUMENT, "ember_random_normal");
}

TEST(RandomNormal, TruncatedKsIncludingFarTail) {
    EM_OK(ember_random_seed(C(), 8));
    auto sh = S({20000});
    T x;
    EM_OK(ember_random_truncated_normal(C(), sh.data(), 1, 0, 1, -1, 2, EMBER_FLOAT64, x.out()));
    auto v = values(x);
    double za = norm_cdf(-1), zb = norm_cdf(2);
    for (double t : v) ASSERT_TRUE(t >= -1 && t <= 2) << t;
    EXPECT_LT(ks(v, [&](double t) { return (norm_cdf(t) - za) / (zb - za); }), kKs);
    // Far right tail [10, 11]: the sampler mirrors into the lower tail where the CDF is accurate.
    EM_OK(ember_random_truncated_normal(C(), sh.data(), 1, 0, 1, 10, 11, EMBER_FLOAT32, x.out()));
    v = values(x);
    for (double t : v) ASSERT_TRUE(t >= 10 && t <= 11) << t;
    double ta = 0.5 * std::erfc(10 / std::sqrt(2.0)), tb = 0.5 * std::erfc(11 / std::sqrt(2.0));
    EXPECT_LT(ks(v, [&](double t) { return (ta - 0.5 * std::erfc(t / std::sqrt(2.0))) / (ta - tb); }), kKs * 1.05);  // float32 rounding
    EM_FAILS(ember_random_truncated_normal(C(), sh.data(), 1, 0, 1, 2, 1, EMBER_FLOAT64, x.out()), EMBER_ERR_INVALID_ARGUMENT, "ember_random_truncated_normal");
    EM_FAILS(ember_random_truncated_normal(C(), sh.data(), 1, 0, 1, 50, 51, EMBER_FLOAT64, x.out()), EMBER_ERR_INVALID_ARGUMENT, "ember_random_truncated_normal");
}

TEST(RandomOther, ExponentialAndBernoulli) {
    EM_OK(ember_random_seed(C(), 9));
    auto sh = S({20000});
    T x;
    EM_OK(ember_random_exponential(C(), sh.data(), 1, 2.5, EMBER_FLOAT64, x.out()));
    auto v = values(x);
    for (double t : v) ASSERT_TRUE(t >= 0 && std::isfinite(t));
    EXPECT_LT(ks(v, [](double t) { return 1 - std::exp(-2.5 * t); }), kKs);
    moments(v, 0.4, 0.16, "exponential", 6);
    EM_FAILS(ember_random_exponential(C(), sh.data(), 1, 0, EMBER_FLOAT64, x.out()), EMBER_ERR_INVALID_ARGUMENT, "ember_random_exponential");
    // Bernoulli: p of shape (3,) broadcast to (10000, 3); exact 0 and 1.
    T p = make<double>({0, 0.3, 1}, {3}, EMBER_FLOAT64);
    auto sb = S({10000, 3});
    EM_OK(ember_random_bernoulli(C(), p, sb.data(), 2, x.out()));
    EXPECT_EQ(dtype_of(x), EMBER_BOOL);
    EXPECT_EQ(shape_of(x), sb);
    v = values(x);
    double cnt[3] = {0, 0, 0};
    for (size_t i = 0; i < v.size(); ++i) cnt[i % 3] += v[i];
    EXPECT_EQ(cnt[0], 0);
    EXPECT_EQ(cnt[2], 10000);
    EXPECT_LT(std::fabs(cnt[1] - 3000) / std::sqrt(10000 * 0.21), 5.0);
    T pf = make<double>({0.5, 0.5}, {2}, EMBER_FLOAT32);
    EM_OK(ember_random_bernoulli(C(), pf, nullptr, 0, x.out()));
    EXPECT_EQ(shape_of(x), S({2}));
    auto bad = S({4});
    EM_FAILS(ember_random_bernoulli(C(), p, bad.data(), 1, x.out()), EMBER_ERR_SHAPE, "ember_random_bernoulli");
}

TEST(RandomInt, RandintUniformAndRanges) {
    EM_OK(ember_random_seed(C(), 10));
    auto sh = S({50000});
    T x;
    EM_OK(ember_random_randint(C(), -3, 7, sh.data(), 1, EMBER_DTYPE_DEFAULT, x.out()));
    EXPECT_EQ(dtype_of(x), EMBER_INT64);
    auto v = values(x);
    std::vector<double> counts(10, 0);
    for (double t : v) {
        ASSERT_TRUE(t >= -3 && t < 7) << t;
        counts[(size_t)(t + 3)] += 1;
    }
    auto c = chi2(counts, std::vector<double>(10, 0.1), 50000);
    EXPECT_LT(c.first, c.second);
    EM_OK(ember_random_randint(C(), -128, 128, sh.data(), 1, EMBER_INT8, x.out()));
    EXPECT_EQ(dtype_of(x), EMBER_INT8);
    v = values(x);
    EXPECT_EQ(*std::min_element(v.begin(), v.end()), -128);
    EXPECT_EQ(*std::max_element(v.begin(), v.end()), 127);
    // The full int64 range works (the range does not fit a double exactly).
    EM_OK(ember_random_randint(C(), INT64_MIN, INT64_MAX, sh.data(), 1, EMBER_INT64, x.out()));
    std::vector<int64_t> big(50000);
    EM_OK(ember_tensor_read(x, big.data(), big.size() * 8));
    int neg = 0;
    for (int64_t t : big) neg += t < 0;
    EXPECT_LT(std::fabs(neg - 25000) / std::sqrt(12500.0), 5.0);
    EM_FAILS(ember_random_randint(C(), 0, 300, sh.data(), 1, EMBER_UINT8, x.out()), EMBER_ERR_INVALID_ARGUMENT, "ember_random_randint");
    EM_FAILS(ember_random_randint(C(), 5, 5, sh.data(), 1, EMBER_INT64, x.out()), EMBER_ERR_INVALID_ARGUMENT, "ember_random_randint");
    EM_FAILS(ember_random_randint(C(), 0, 5, sh.data(), 1, EMBER_FLOAT32, x.out()), EMBER_ERR_UNSUPPORTED_DTYPE, "ember_random_randint");
}

TEST(RandomInt, PermutationAndShuffle) {
    EM_OK(ember_random_seed(C(), 11));
    T p;
    EM_OK(ember_random_permutation(C(), 100, p.out()));
    EXPECT_EQ(dtype_of(p), EMBER_INT64);
    auto v = values(p);
    auto s = v;
    std::sort(s.begin(), s.end());
    for (int i = 0; i < 100; ++i) EXPECT_EQ(s[i], i);
    int fixed = 0;
    for (int i = 0; i < 100; ++i) fixed += v[i] == i;
    EXPECT_LT(fixed, 10);  // expected 1 fixed point (Poisson(1)); P(>= 10) ~ 1e-7
    // Uniformity over the 6 permutations of 3 elements: chi-square over 6000 draws.
    std::vector<double> counts(6, 0);
    for (int r = 0; r < 6000; ++r) {
        EM_OK(ember_random_permutation(C(), 3, p.out()));
        auto q = values(p);
        counts[(size_t)(q[0] * 2 + (q[1] > q[2]))] += 1;
    }
    auto c = chi2(counts, std::vector<double>(6, 1.0 / 6), 6000);
    EXPECT_LT(c.first, c.second);
    EM_OK(ember_random_permutation(C(), 0, p.out()));
    EXPECT_EQ(shape_of(p), S({0}));
    EM_FAILS(ember_random_permutation(C(), -1, p.out()), EMBER_ERR_INVALID_ARGUMENT, "ember_random_permutation");
    // Shuffle rows of a (4, 2) tensor: rows stay intact.
    T x = make<double>({0, 1, 10, 11, 20, 21, 30, 31}, {4, 2}, EMBER_INT32);
    T y;
    EM_OK(ember_random_shuffle(C(), x, 0, y.out()));
    EXPECT_EQ(dtype_of(y), EMBER_INT32);
    auto yv = values(y);
    std::vector<double> firsts;
    for (int r = 0; r < 4; ++r) {
        EXPECT_EQ(yv[2 * r + 1], yv[2 * r] + 1);
        firsts.push_back(yv[2 * r]);
    }
    std::sort(firsts.begin(), firsts.end());
    EXPECT_EQ(firsts, (std::vector<double>{0, 10, 20, 30}));
    EM_OK(ember_random_shuffle(C(), x, -1, y.out()));
    yv = values(y);
    for (int r = 0; r < 4; ++r) EXPECT_EQ(yv[2 * r] + yv[2 * r + 1], 20 * r + 1);
    T s0 = make<double>({1}, {}, EMBER_INT32);
    EM_FAILS(ember_random_shuffle(C(), s0, 0, y.out()), EMBER_ERR_SHAPE, "ember_random_shuffle");
}

TEST(RandomInt, CategoricalLogitsAndProbabilities) {
    EM_OK(ember_random_seed(C(), 12));
    std::vector<double> pr = {0.1, 0.2, 0.3, 0.4};
    std::vector<double> lg;
    for (double q : pr) lg.push_back(std::log(q) + 3.0);  // shifted logits, same softmax
    T logits = make<double>(lg, {1, 4}, EMBER_FLOAT64);
    T x;
    EM_OK(ember_random_categorical(C(), logits, 20000, 1, x.out()));
    EXPECT_EQ(dtype_of(x), EMBER_INT64);
    EXPECT_EQ(shape_of(x), S({1, 20000}));
    auto v = values(x);
    std::vector<double> counts(4, 0);
    for (double t : v) counts[(size_t)t] += 1;
    auto c = chi2(counts, pr, 20000);
    EXPECT_LT(c.first, c.second);
    // Probabilities (unnormalised) in a batch of 2 rows; a zero probability is never drawn.
    T probs = make<double>({0, 1, 1, 5, 0, 0}, {2, 3}, EMBER_FLOAT32);
    EM_OK(ember_random_categorical(C(), probs, 3000, 0, x.out()));
    EXPECT_EQ(shape_of(x), S({2, 3000}));
    v = values(x);
    double ones = 0;
    for (int i = 0; i < 3000; ++i) {
        ASSERT_NE(v[i], 0);
        ones += v[i] == 1;
        ASSERT_EQ(v[3000 + i], 0);
    }
    EXPECT_LT(std::fabs(ones - 1500) / std::sqrt(750.0), 5.0);
    T empty = make<double>({}, {2, 0}, EMBER_FLOAT32);
    EM_FAILS(ember_random_categorical(C(), empty, 3, 1, x.out()), EMBER_ERR_SHAPE, "ember_random_categorical");
    EM_FAILS(ember_random_categorical(C(), probs, -1, 1, x.out()), EMBER_ERR_INVALID_ARGUMENT, "ember_random_categorical");
}

TEST(RandomRejection, GammaKsAndBetaMoments) {
    EM_OK(ember_random_seed(C(), 13));
    auto sh = S({20000});
    T x;
    for (double alpha : {0.3, 1.0, 4.5}) {
        EM_OK(ember_random_gamma(C(), sh.data(), 1, alpha, 2.0, EMBER_FLOAT64, x.out()));
        auto v = values(x);
        for (double t : v) ASSERT_TRUE(t >= 0 && std::isfinite(t));
        EXPECT_LT(ks(v, [&](double t) { return gamma_p(alpha, t / 2.0); }), kKs) << "alpha " << alpha;
        moments(v, 2 * alpha, 4 * alpha, "gamma", 6 / alpha);
    }
    EM_OK(ember_random_gamma(C(), sh.data(), 1, 2, 1, EMBER_FLOAT32, x.out()));
    EXPECT_EQ(dtype_of(x), EMBER_FLOAT32);
    for (auto ab : {std::pair<double, double>{2, 5}, {0.5, 0.5}}) {
        double a = ab.first, b = ab.second;
        EM_OK(ember_random_beta(C(), sh.data(), 1, a, b, EMBER_FLOAT64, x.out()));
        auto v = values(x);
        for (double t : v) ASSERT_TRUE(t >= 0 && t <= 1);
        double kurt = 6 * ((a - b) * (a - b) * (a + b + 1) - a * b * (a + b + 2)) / (a * b * (a + b + 2) * (a + b + 3));
        moments(v, a / (a + b), a * b / ((a + b) * (a + b) * (a + b + 1)), "beta", kurt);
    }
    // Beta(0.5, 0.5) is the arcsine law: CDF (2/pi) asin(sqrt(x)).
    auto v = values(x);
    EXPECT_LT(ks(v, [](double t) { return 2 / M_PI * std::asin(std::sqrt(t)); }), kKs);
    EM_FAILS(ember_random_gamma(C(), sh.data(), 1, 0, 1, EMBER_FLOAT64, x.out()), EMBER_ERR_INVALID_ARGUMENT, "ember_random_gamma");
    EM_FAILS(ember_random_beta(C(), sh.data(), 1, 1, -1, EMBER_FLOAT64, x.out()), EMBER_ERR_INVALID_ARGUMENT, "ember_random_beta");
    EM_FAILS(ember_random_beta(C(), sh.data(), 1, 1, 1, EMBER_INT32, x.out()), EMBER_ERR_UNSUPPORTED_DTYPE, "ember_random_beta");
}

std::vector<double> binom_pmf(int n, double p) {
    std::vector<double> r(n + 1);
    for (int k = 0; k <= n; ++k) r[k] = std::exp(std::lgamma(n + 1.0) - std::lgamma(k + 1.0) - std::lgamma(n - k + 1.0) + k * std::log(p) + (n - k) * std::log1p(-p));
    return r;
}

TEST(RandomRejection, BinomialAndPoissonChiSquare) {
    EM_OK(ember_random_seed(C(), 14));
    auto sh = S({20000});
    T x;
    // (n, p) covering inversion (n p < 10), BTRS (n p >= 10) and the p > 0.5 mirror.
    for (auto np : {std::pair<int, double>{20, 0.3}, {200, 0.25}, {60, 0.85}}) {
        EM_OK(ember_random_binomial(C(), sh.data(), 1, np.first, np.second, EMBER_DTYPE_DEFAULT, x.out()));
        EXPECT_EQ(dtype_of(x), EMBER_INT64);
        auto v = values(x);
        std::vector<double> counts(np.first + 1, 0);
        for (double t : v) {
            ASSERT_TRUE(t >= 0 && t <= np.first) << t;
            counts[(size_t)t] += 1;
        }
        auto c = chi2(counts, binom_pmf(np.first, np.second), 20000);
        EXPECT_LT(c.first, c.second) << "n " << np.first << " p " << np.second;
    }
    EM_OK(ember_random_binomial(C(), sh.data(), 1, 7, 1.0, EMBER_INT32, x.out()));
    auto v = values(x);
    EXPECT_TRUE(std::all_of(v.begin(), v.end(), [](double t) { return t == 7; }));
    for (double lam : {3.0, 45.0}) {
        EM_OK(ember_random_poisson(C(), sh.data(), 1, lam, EMBER_DTYPE_DEFAULT, x.out()));
        v = values(x);
        int top = (int)(lam * 3 + 30);
        std::vector<double> counts(top + 1, 0), pmf(top + 1);
        for (double t : v) {
            ASSERT_TRUE(t >= 0);
            counts[(size_t)std::min<double>(t, top)] += 1;
        }
        for (int k = 0; k <= top; ++k) pmf[k] = std::exp(-lam + k * std::log(lam) - std::lgamma(k + 1.0));
        auto c = chi2(counts, pmf, 20000);
        EXPECT_LT(c.first, c.second) << "lam " << lam;
        moments(v, lam, lam, "poisson", 1 / lam);
    }
    EM_OK(ember_random_poisson(C(), sh.data(), 1, 0, EMBER_FLOAT32, x.out()));
    v = values(x);
    EXPECT_TRUE(std::all_of(v.begin(), v.end(), [](double t) { return t == 0; }));
    EM_FAILS(ember_random_poisson(C(), sh.data(), 1, -1, EMBER_DTYPE_DEFAULT, x.out()), EMBER_ERR_INVALID_ARGUMENT, "ember_random_poisson");
    EM_FAILS(ember_random_binomial(C(), sh.data(), 1, 5, 1.5, EMBER_DTYPE_DEFAULT, x.out()), EMBER_ERR_INVALID_ARGUMENT, "ember_random_binomial");
    EM_FAILS(ember_random_binomial(C(), sh.data(), 1, -5, 0.5, EMBER_DTYPE_DEFAULT, x.out()), EMBER_ERR_INVALID_ARGUMENT, "ember_random_binomial");
    EM_FAILS(ember_random_poisson(C(), sh.data(), 1, 1, EMBER_BOOL, x.out()), EMBER_ERR_UNSUPPORTED_DTYPE, "ember_random_poisson");
}

TEST(RandomRejection, ElementsAreIndependentOfShape) {
    // The per-element samplers give element i the block counter + i: the same state yields
    // the same leading values whatever the total size.
    ember_random_state_t st{99, 1000};
    EM_OK(ember_random_set_state(C(), &st));
    auto a = S({5}), b = S({2, 50});
    T x, y;
    EM_OK(ember_random_gamma(C(), a.data(), 1, 0.7, 1, EMBER_FLOAT64, x.out()));
    ember_random_state_t after;
    EM_OK(ember_random_get_state(C(), &after));
    EXPECT_EQ(after.counter, 1005u);
    EM_OK(ember_random_set_state(C(), &st));
    EM_OK(ember_random_gamma(C(), b.data(), 2, 0.7, 1, EMBER_FLOAT64, y.out()));
    auto vx = values(x), vy = values(y);
    for (int i = 0; i < 5; ++i) EXPECT_EQ(vx[i], vy[i]);
    EM_FAILS(ember_random_seed(nullptr, 1), EMBER_ERR_INVALID_ARGUMENT, "ember_random_seed");
    EM_FAILS(ember_random_get_state(C(), nullptr), EMBER_ERR_INVALID_ARGUMENT, "ember_random_get_state");
}

}  // namespace

// ---------------------------------------------------------------- tensor-valued parameters
namespace {

using Fn = std::function<ember_status_t(ember_ctx_t*, const std::vector<const ember_tensor_t*>&, const int64_t*, int, int, ember_tensor_t**)>;

// The seven *_t entry points behind one signature (params in the C order of the arguments).
struct Sampler {
    const char* name;
    int nparams;
    Fn fn;
};
std::vector<Sampler> samplers() {
    return {
        {"ember_random_uniform_t", 2, [](ember_ctx_t* c, auto& p, const int64_t* s, int nd, int dt, ember_tensor_t** o) { return ember_random_uniform_t(c, p[0], p[1], s, nd, dt, o); }},
        {"ember_random_normal_t", 2, [](ember_ctx_t* c, auto& p, const int64_t* s, int nd, int dt, ember_tensor_t** o) { return ember_random_normal_t(c, p[0], p[1], s, nd, dt, o); }},
        {"ember_random_exponential_t", 1, [](ember_ctx_t* c, auto& p, const int64_t* s, int nd, int dt, ember_tensor_t** o) { return ember_random_exponential_t(c, p[0], s, nd, dt, o); }},
        {"ember_random_gamma_t", 2, [](ember_ctx_t* c, auto& p, const int64_t* s, int nd, int dt, ember_tensor_t** o) { return ember_random_gamma_t(c, p[0], p[1], s, nd, dt, o); }},
        {"ember_random_beta_t", 2, [](ember_ctx_t* c, auto& p, const int64_t* s, int nd, int dt, ember_tensor_t** o) { return ember_random_beta_t(c, p[0], p[1], s, nd, dt, o); }},
        {"ember_random_binomial_t", 2, [](ember_ctx_t* c, auto& p, const int64_t* s, int nd, int dt, ember_tensor_t** o) { return ember_random_binomial_t(c, p[0], p[1], s, nd, dt, o); }},
        {"ember_random_poisson_t", 1, [](ember_ctx_t* c, auto& p, const int64_t* s, int nd, int dt, ember_tensor_t** o) { return ember_random_poisson_t(c, p[0], s, nd, dt, o); }},
    };
}

// Valid parameter values for each sampler: first parameter of shape (3, 1), second (4,).
std::pair<std::vector<double>, std::vector<double>> valid_params(const std::string& name) {
    if (name == "ember_random_uniform_t") return {{-3, -2, -1}, {0, 0.5, 1, 2}};
    if (name == "ember_random_binomial_t") return {{0, 7, 300}, {0, 0.2, 0.7, 1}};
    if (name == "ember_random_poisson_t") return {{0, 2.5, 60}, {}};
    if (name == "ember_random_exponential_t") return {{0.5, 1, 4}, {}};
    return {{0.3, 1, 6}, {0.5, 1, 2, 3}};
}

uint64_t counter() {
    ember_random_state_t st;
    ember_random_get_state(C(), &st);
    return st.counter;
}

TEST(RandomParams, BroadcastShapesAndDtypes) {
    for (const Sampler& sm : samplers()) {
        SCOPED_TRACE(sm.name);
        bool count = std::string(sm.name).find("binomial") != std::string::npos || std::string(sm.name).find("poisson") != std::string::npos;
        auto pv = valid_params(sm.name);
        T a = make<double>(pv.first, {3, 1}, EMBER_FLOAT64);
        T b = make<double>(pv.second.empty() ? std::vector<double>{1, 1, 1, 1} : pv.second, {4}, EMBER_FLOAT64);
        // Two-parameter samplers: (3, 1) x (4,) -> (3, 4); one-parameter: a (3, 1) tensor
        // broadcast to (3, 4) by an explicit shape.
        std::vector<const ember_tensor_t*> ps = {a};
        if (sm.nparams == 2) ps.push_back(b);
        T x;
        EM_OK(ember_random_seed(C(), 21));
        if (sm.nparams == 2) {
            EM_OK(sm.fn(C(), ps, nullptr, -1, EMBER_DTYPE_DEFAULT, x.out()));
            EXPECT_EQ(shape_of(x), S({3, 4}));
            EXPECT_EQ(counter() > 0, true);
            EM_OK(sm.fn(C(), ps, nullptr, 0, EMBER_DTYPE_DEFAULT, x.out()));  // NULL with ndim 0: also the broadcast shape
            EXPECT_EQ(shape_of(x), S({3, 4}));
        } else {
            EM_OK(sm.fn(C(), ps, nullptr, -1, EMBER_DTYPE_DEFAULT, x.out()));
            EXPECT_EQ(shape_of(x), S({3, 1}));
        }
        EXPECT_EQ(dtype_of(x), count ? EMBER_INT64 : EMBER_FLOAT64);  // float64 parameters keep float64
        auto sh = S({2, 3, 4});
        EM_OK(sm.fn(C(), ps, sh.data(), 3, EMBER_DTYPE_DEFAULT, x.out()));
        EXPECT_EQ(shape_of(x), sh);
        // Values respect each element's parameters (support checks).
        auto v = values(x);
        for (size_t i = 0; i < v.size(); ++i) {
            double p0 = pv.first[(i / 4) % 3], p1 = pv.second.empty() ? 0 : pv.second[i % 4];
            std::string n = sm.name;
            if (n == "ember_random_uniform_t") {
                ASSERT_TRUE(v[i] >= p0 && v[i] < p1) << i;
            }
            if (n == "ember_random_binomial_t") {
                ASSERT_TRUE(v[i] >= 0 && v[i] <= p0 && (p1 != 0 || v[i] == 0) && (p1 != 1 || v[i] == p0)) << i;
            }
            if (n == "ember_random_poisson_t") {
                ASSERT_TRUE(v[i] >= 0 && (p0 != 0 || v[i] == 0)) << i;
            }
            if (n == "ember_random_beta_t") {
                ASSERT_TRUE(v[i] >= 0 && v[i] <= 1) << i;
            }
            if (n == "ember_random_gamma_t" || n == "ember_random_exponential_t") {
                ASSERT_TRUE(v[i] >= 0 && std::isfinite(v[i])) << i;
            }
        }
        // A shape the parameters cannot broadcast to; the state does not move.
        uint64_t before = counter();
        auto bad = S({2, 5});
        EM_FAILS(sm.fn(C(), ps, bad.data(), 2, EMBER_DTYPE_DEFAULT, x.out()), EMBER_ERR_SHAPE, sm.name);
        auto lower = S({4});
        EM_FAILS(sm.fn(C(), ps, lower.data(), 1, EMBER_DTYPE_DEFAULT, x.out()), EMBER_ERR_SHAPE, sm.name);
        EXPECT_EQ(counter(), before);
        // dtypes: explicit; float32 parameters; integer parameters -> the context's default float.
        ember_dtype_t want = count ? EMBER_INT32 : EMBER_FLOAT16;
        EM_OK(sm.fn(C(), ps, sh.data(), 3, want, x.out()));
        EXPECT_EQ(dtype_of(x), want);
        T a32 = make<double>(pv.first, {3, 1}, EMBER_FLOAT32);
        std::vector<const ember_tensor_t*> ps32 = {a32};
        if (sm.nparams == 2) ps32.push_back(b);
        T one = make<double>({1}, {}, EMBER_INT64);
        std::vector<const ember_tensor_t*> ps_int = {one};
        if (sm.nparams == 2) ps_int.push_back(one);
        if (!count) {
            T b32 = make<double>(pv.second.empty() ? std::vector<double>{1, 1, 1, 1} : pv.second, {4}, EMBER_FLOAT32);
            if (sm.nparams == 2) ps32[1] = b32;
            EM_OK(sm.fn(C(), ps32, sh.data(), 3, EMBER_DTYPE_DEFAULT, x.out()));
            EXPECT_EQ(dtype_of(x), EMBER_FLOAT32);
            if (std::string(sm.name) != "ember_random_uniform_t") {  // uniform(1, 1) is invalid
                EM_OK(sm.fn(C(), ps_int, sh.data(), 3, EMBER_DTYPE_DEFAULT, x.out()));
                EXPECT_EQ(dtype_of(x), EMBER_FLOAT32);  // the test context's default float
            }
            EM_FAILS(sm.fn(C(), ps, sh.data(), 3, EMBER_INT32, x.out()), EMBER_ERR_UNSUPPORTED_DTYPE, sm.name);
        } else {
            EM_OK(sm.fn(C(), ps32, sh.data(), 3, EMBER_DTYPE_DEFAULT, x.out()));
            EXPECT_EQ(dtype_of(x), EMBER_INT64);
            EM_OK(sm.fn(C(), ps, sh.data(), 3, EMBER_FLOAT64, x.out()));
            EXPECT_EQ(dtype_of(x), EMBER_FLOAT64);
        }
    }
}

TEST(RandomParams, ZeroDimAndEmptyParameters) {
    for (const Sampler& sm : samplers()) {
        SCOPED_TRACE(sm.name);
        std::string n = sm.name;
        double v0 = n == "ember_random_uniform_t" ? -1 : n == "ember_random_binomial_t" ? 10 : 0.5;
        double v1 = n == "ember_random_uniform_t" ? 1 : 0.5;
        T a = make<double>({v0}, {}, EMBER_FLOAT64), b = make<double>({v1}, {}, EMBER_FLOAT64);
        std::vector<const ember_tensor_t*> ps = {a};
        if (sm.nparams == 2) ps.push_back(b);
        T x;
        EM_OK(ember_random_seed(C(), 3));
        EM_OK(sm.fn(C(), ps, nullptr, -1, EMBER_DTYPE_DEFAULT, x.out()));
        EXPECT_TRUE(shape_of(x).empty());
        EXPECT_EQ(counter(), n == "ember_random_uniform_t" || n == "ember_random_exponential_t" ? 1u : n == "ember_random_normal_t" ? 2u : 1u);
        int64_t dummy = 0;
        EM_OK(sm.fn(C(), ps, &dummy, 0, EMBER_DTYPE_DEFAULT, x.out()));  // explicit 0-d
        EXPECT_TRUE(shape_of(x).empty());
        auto sh = S({5});
        EM_OK(sm.fn(C(), ps, sh.data(), 1, EMBER_DTYPE_DEFAULT, x.out()));
        EXPECT_EQ(shape_of(x), sh);
        // Empty parameters: an empty result, no stream consumed; (0,) broadcasts to (2, 0).
        T e = make<double>({}, {0}, EMBER_FLOAT64);
        std::vector<const ember_tensor_t*> pe = {e};
        if (sm.nparams == 2) pe.push_back(b);
        uint64_t before = counter();
        EM_OK(sm.fn(C(), pe, nullptr, -1, EMBER_DTYPE_DEFAULT, x.out()));
        EXPECT_EQ(shape_of(x), S({0}));
        auto se = S({2, 0});
        EM_OK(sm.fn(C(), pe, se.data(), 2, EMBER_DTYPE_DEFAULT, x.out()));
        EXPECT_EQ(shape_of(x), se);
        EXPECT_EQ(counter(), before);
    }
}

// A parameter tensor full of one value gives the scalar entry's result bit for bit, for every
// dtype, and leaves the state where the scalar entry does.
TEST(RandomParams, ConstantTensorsEqualTheScalarPath) {
    auto sh = S({3, 4});
    ember_random_state_t st{0xfeedbeefcafeull, 77};
    auto same = [&](const char* what, auto scalar, auto tensor) {
        T x, y;
        EM_OK(ember_random_set_state(C(), &st));
        EM_OK(scalar(x.out()));
        uint64_t c1 = counter();
        EM_OK(ember_random_set_state(C(), &st));
        EM_OK(tensor(y.out()));
        EXPECT_EQ(counter(), c1) << what;
        EXPECT_EQ(dtype_of(x), dtype_of(y)) << what;
        EXPECT_EQ(shape_of(x), shape_of(y)) << what;
        EXPECT_EQ(values(x), values(y)) << what;
    };
    for (ember_dtype_t dt : {EMBER_FLOAT64, EMBER_FLOAT32, EMBER_FLOAT16, EMBER_BFLOAT16}) {
        SCOPED_TRACE(dt);
        // Parameters stored as float64 (3, 1) / (4,) tensors, or as 0-d tensors of another dtype.
        T lo = make<double>({-1.3, -1.3, -1.3}, {3, 1}, EMBER_FLOAT64), hi = make<double>({2.7, 2.7, 2.7, 2.7}, {4}, EMBER_FLOAT64);
        same("uniform", [&](ember_tensor_t** o) { return ember_random_uniform(C(), sh.data(), 2, -1.3, 2.7, dt, o); },
             [&](ember_tensor_t** o) { return ember_random_uniform_t(C(), lo, hi, nullptr, -1, dt, o); });
        T m = make<double>({0.25}, {}, EMBER_FLOAT64), sd = make<double>({1.7, 1.7, 1.7}, {3, 1}, EMBER_FLOAT64);
        same("normal", [&](ember_tensor_t** o) { return ember_random_normal(C(), sh.data(), 2, 0.25, 1.7, dt, o); },
             [&](ember_tensor_t** o) { return ember_random_normal_t(C(), m, sd, sh.data(), 2, dt, o); });
        T r = make<double>({2.5}, {}, EMBER_FLOAT32);
        same("exponential", [&](ember_tensor_t** o) { return ember_random_exponential(C(), sh.data(), 2, 2.5, dt, o); },
             [&](ember_tensor_t** o) { return ember_random_exponential_t(C(), r, sh.data(), 2, dt, o); });
        for (double alpha : {0.4, 3.0}) {
            T al = make<double>({alpha, alpha, alpha}, {3, 1}, EMBER_FLOAT64), sc = make<double>({2, 2, 2, 2}, {4}, EMBER_INT32);
            same("gamma", [&](ember_tensor_t** o) { return ember_random_gamma(C(), sh.data(), 2, alpha, 2.0, dt, o); },
                 [&](ember_tensor_t** o) { return ember_random_gamma_t(C(), al, sc, nullptr, -1, dt, o); });
        }
        T a = make<double>({0.5}, {}, EMBER_FLOAT64), b = make<double>({3.5}, {}, EMBER_FLOAT64);
        same("beta", [&](ember_tensor_t** o) { return ember_random_beta(C(), sh.data(), 2, 0.5, 3.5, dt, o); },
             [&](ember_tensor_t** o) { return ember_random_beta_t(C(), a, b, sh.data(), 2, dt, o); });
    }
    for (ember_dtype_t dt : {EMBER_INT64, EMBER_INT32, EMBER_FLOAT64}) {
        SCOPED_TRACE(dt);
        for (auto np : {std::pair<int64_t, double>{20, 0.3}, {200, 0.25}, {60, 0.85}, {0, 0.5}, {9, 1.0}}) {
            T n = make<double>({(double)np.first}, {}, EMBER_INT64), p = make<double>({np.second, np.second, np.second}, {3, 1}, EMBER_FLOAT64);
            same("binomial", [&](ember_tensor_t** o) { return ember_random_binomial(C(), sh.data(), 2, np.first, np.second, dt, o); },
                 [&](ember_tensor_t** o) { return ember_random_binomial_t(C(), n, p, sh.data(), 2, dt, o); });
        }
        for (double lam : {0.0, 3.0, 45.0}) {
            T l = make<double>({lam, lam, lam, lam}, {4}, EMBER_FLOAT64);
            same("poisson", [&](ember_tensor_t** o) { return ember_random_poisson(C(), sh.data(), 2, lam, dt, o); },
                 [&](ember_tensor_t** o) { return ember_random_poisson_t(C(), l, sh.data(), 2, dt, o); });
        }
    }
}

// Element i uses the stream position it would have with scalar parameters equal to its own:
// column j of a call with per-column parameters equals column j of the scalar call.
TEST(RandomParams, EachElementMatchesTheScalarCallWithItsParameters) {
    auto sh = S({6, 3});
    ember_random_state_t st{555, 1u << 20};
    auto column = [](const std::vector<double>& v, int j) {
        std::vector<double> c;
        for (size_t i = j; i < v.size(); i += 3) c.push_back(v[i]);
        return c;
    };
    auto check = [&](const char* what, auto scalar_j, auto tensor) {
        T y;
        EM_OK(ember_random_set_state(C(), &st));
        EM_OK(tensor(y.out()));
        auto vy = values(y);
        for (int j = 0; j < 3; ++j) {
            T x;
            EM_OK(ember_random_set_state(C(), &st));
            EM_OK(scalar_j(j, x.out()));
            EXPECT_EQ(column(values(x), j), column(vy, j)) << what << " column " << j;
        }
    };
    const double al[3] = {0.3, 1.0, 8.0}, nn[3] = {5, 40, 1000}, pp[3] = {0.1, 0.6, 0.97}, lm[3] = {0.7, 9.9, 250}, mu[3] = {-5, 0, 5};
    T A = make<double>({al[0], al[1], al[2]}, {3}, EMBER_FLOAT64), one = make<double>({1}, {}, EMBER_FLOAT64);
    check("gamma", [&](int j, ember_tensor_t** o) { return ember_random_gamma(C(), sh.data(), 2, al[j], 1, EMBER_FLOAT64, o); },
          [&](ember_tensor_t** o) { return ember_random_gamma_t(C(), A, one, sh.data(), 2, EMBER_FLOAT64, o); });
    check("beta", [&](int j, ember_tensor_t** o) { return ember_random_beta(C(), sh.data(), 2, al[j], 1, EMBER_FLOAT32, o); },
          [&](ember_tensor_t** o) { return ember_random_beta_t(C(), A, one, sh.data(), 2, EMBER_FLOAT32, o); });
    T N = make<double>({nn[0], nn[1], nn[2]}, {3}, EMBER_FLOAT32), P = make<double>({pp[0], pp[1], pp[2]}, {3}, EMBER_FLOAT64);
    check("binomial", [&](int j, ember_tensor_t** o) { return ember_random_binomial(C(), sh.data(), 2, (int64_t)nn[j], pp[j], EMBER_INT64, o); },
          [&](ember_tensor_t** o) { return ember_random_binomial_t(C(), N, P, sh.data(), 2, EMBER_INT64, o); });
    T L = make<double>({lm[0], lm[1], lm[2]}, {3}, EMBER_FLOAT64);
    check("poisson", [&](int j, ember_tensor_t** o) { return ember_random_poisson(C(), sh.data(), 2, lm[j], EMBER_INT64, o); },
          [&](ember_tensor_t** o) { return ember_random_poisson_t(C(), L, sh.data(), 2, EMBER_INT64, o); });
    T M = make<double>({mu[0], mu[1], mu[2]}, {3}, EMBER_FLOAT64), SD = make<double>({2}, {}, EMBER_FLOAT64);
    check("normal", [&](int j, ember_tensor_t** o) { return ember_random_normal(C(), sh.data(), 2, mu[j], 2, EMBER_FLOAT64, o); },
          [&](ember_tensor_t** o) { return ember_random_normal_t(C(), M, SD, sh.data(), 2, EMBER_FLOAT64, o); });
}

// Per-parameter moments (|z| < 5, ≈6e-7 per check) and, for gamma, KS per shape parameter
// (1e-3 per check): 20000 draws per parameter value, fixed seeds.
TEST(RandomParams, PerParameterStatistics) {
    EM_OK(ember_random_seed(C(), 31));
    const int n = 20000;
    auto col = [&](const std::vector<double>& v, int j, int k) {
        std::vector<double> c;
        for (size_t i = j; i < v.size(); i += k) c.push_back(v[i]);
        return c;
    };
    auto sh = S({n, 3});
    T x;
    // gamma(alpha_j, scale_j)
    const double al[3] = {0.3, 2.0, 9.0}, sc[3] = {3.0, 0.5, 1.0};
    T A = make<double>({al[0], al[1], al[2]}, {3}, EMBER_FLOAT64), SC = make<double>({sc[0], sc[1], sc[2]}, {1, 3}, EMBER_FLOAT64);
    EM_OK(ember_random_gamma_t(C(), A, SC, sh.data(), 2, EMBER_DTYPE_DEFAULT, x.out()));
    EXPECT_EQ(shape_of(x), sh);
    auto v = values(x);
    for (int j = 0; j < 3; ++j) {
        auto c = col(v, j, 3);
        moments(c, al[j] * sc[j], al[j] * sc[j] * sc[j], "gamma_t", 6 / al[j]);
        EXPECT_LT(ks(c, [&](double t) { return gamma_p(al[j], t / sc[j]); }), kKs) << "alpha " << al[j];
    }
    // normal(mean_j, std_j) from a (3, 1) mean and a (1,) std... per row of a (3, n) result.
    auto shT = S({3, n});
    T M = make<double>({-4, 0, 10}, {3, 1}, EMBER_FLOAT64), SD = make<double>({0.5, 1, 3}, {3, 1}, EMBER_FLOAT64);
    EM_OK(ember_random_normal_t(C(), M, SD, shT.data(), 2, EMBER_DTYPE_DEFAULT, x.out()));
    v = values(x);
    const double mu[3] = {-4, 0, 10}, sd[3] = {0.5, 1, 3};
    for (int j = 0; j < 3; ++j) moments(std::vector<double>(v.begin() + j * n, v.begin() + (j + 1) * n), mu[j], sd[j] * sd[j], "normal_t", 0);
    // uniform(low_j, high_j), exponential(rate_j)
    T LO = make<double>({-1, 0, 100}, {3}, EMBER_FLOAT64), HI = make<double>({1, 1e-3, 300}, {3}, EMBER_FLOAT64);
    EM_OK(ember_random_uniform_t(C(), LO, HI, sh.data(), 2, EMBER_DTYPE_DEFAULT, x.out()));
    v = values(x);
    const double lo[3] = {-1, 0, 100}, hi[3] = {1, 1e-3, 300};
    for (int j = 0; j < 3; ++j) moments(col(v, j, 3), (lo[j] + hi[j]) / 2, (hi[j] - lo[j]) * (hi[j] - lo[j]) / 12, "uniform_t", -1.2);
    const double rt[3] = {0.1, 1, 50};
    T R = make<double>({rt[0], rt[1], rt[2]}, {3}, EMBER_FLOAT32);
    EM_OK(ember_random_exponential_t(C(), R, sh.data(), 2, EMBER_FLOAT64, x.out()));
    v = values(x);
    for (int j = 0; j < 3; ++j) moments(col(v, j, 3), 1 / rt[j], 1 / (rt[j] * rt[j]), "exponential_t", 6);
    // beta(a_j, b_j)
    const double ba[3] = {0.5, 2, 30}, bb[3] = {0.5, 5, 3};
    T BA = make<double>({ba[0], ba[1], ba[2]}, {3}, EMBER_FLOAT64), BB = make<double>({bb[0], bb[1], bb[2]}, {3}, EMBER_FLOAT64);
    EM_OK(ember_random_beta_t(C(), BA, BB, sh.data(), 2, EMBER_DTYPE_DEFAULT, x.out()));
    v = values(x);
    for (int j = 0; j < 3; ++j) {
        double a = ba[j], b = bb[j];
        double kurt = 6 * ((a - b) * (a - b) * (a + b + 1) - a * b * (a + b + 2)) / (a * b * (a + b + 2) * (a + b + 3));
        moments(col(v, j, 3), a / (a + b), a * b / ((a + b) * (a + b) * (a + b + 1)), "beta_t", kurt);
    }
    // binomial(n_j, p_j) across the three regimes; poisson(lam_j) across both
    const double bn[3] = {12, 500, 80}, bp[3] = {0.3, 0.4, 0.9};
    T BN = make<double>({bn[0], bn[1], bn[2]}, {3}, EMBER_INT64), BP = make<double>({bp[0], bp[1], bp[2]}, {3}, EMBER_FLOAT64);
    EM_OK(ember_random_binomial_t(C(), BN, BP, sh.data(), 2, EMBER_DTYPE_DEFAULT, x.out()));
    EXPECT_EQ(dtype_of(x), EMBER_INT64);
    v = values(x);
    for (int j = 0; j < 3; ++j) {
        double q = 1 - bp[j], var = bn[j] * bp[j] * q;
        moments(col(v, j, 3), bn[j] * bp[j], var, "binomial_t", (1 - 6 * bp[j] * q) / var);
    }
    const double lm[4] = {0.5, 4, 30, 2000};
    auto sh4 = S({n, 4});
    T LM = make<double>({lm[0], lm[1], lm[2], lm[3]}, {4}, EMBER_FLOAT64);
    EM_OK(ember_random_poisson_t(C(), LM, sh4.data(), 2, EMBER_DTYPE_DEFAULT, x.out()));
    v = values(x);
    for (int j = 0; j < 4; ++j) moments(col(v, j, 4), lm[j], lm[j], "poisson_t", 1 / lm[j]);
}

TEST(RandomParams, InvalidParametersNameTheFirstOffendingElement) {
    EM_OK(ember_random_seed(C(), 1));
    T x;
    auto fails = [&](ember_status_t st, ember_status_t want, const char* fn, std::initializer_list<const char*> parts) {
        EXPECT_EQ(st, want) << ember_last_error();
        std::string msg = ember_last_error();
        EXPECT_NE(msg.find(fn), std::string::npos) << msg;
        for (const char* p : parts) EXPECT_NE(msg.find(p), std::string::npos) << "'" << msg << "' lacks '" << p << "'";
        EXPECT_EQ(counter(), 0u) << "the state moved on an error: " << msg;
    };
    T g = make<double>({1, 2, -1.5, 0, 3, 4}, {3, 2}, EMBER_FLOAT64), ok = make<double>({1}, {}, EMBER_FLOAT64);
    fails(ember_random_gamma_t(C(), g, ok, nullptr, -1, EMBER_DTYPE_DEFAULT, x.out()), EMBER_ERR_INVALID_ARGUMENT, "ember_random_gamma_t", {"alpha[1, 0]", "-1.5"});
    T nanv = make<double>({1, NAN}, {2}, EMBER_FLOAT32);
    fails(ember_random_gamma_t(C(), ok, nanv, nullptr, -1, EMBER_DTYPE_DEFAULT, x.out()), EMBER_ERR_INVALID_ARGUMENT, "ember_random_gamma_t", {"scale[1]", "nan"});
    fails(ember_random_beta_t(C(), ok, g, nullptr, -1, EMBER_DTYPE_DEFAULT, x.out()), EMBER_ERR_INVALID_ARGUMENT, "ember_random_beta_t", {"b[1, 0]", "-1.5"});
    T p = make<double>({0.5, 1.25}, {2}, EMBER_FLOAT64), n = make<double>({3, 2.5}, {2}, EMBER_FLOAT64), nneg = make<double>({-2}, {}, EMBER_INT32);
    T n_ok = make<double>({4}, {}, EMBER_INT64);
    fails(ember_random_binomial_t(C(), n_ok, p, nullptr, -1, EMBER_DTYPE_DEFAULT, x.out()), EMBER_ERR_INVALID_ARGUMENT, "ember_random_binomial_t", {"p[1]", "1.25"});
    fails(ember_random_binomial_t(C(), n, ok, nullptr, -1, EMBER_DTYPE_DEFAULT, x.out()), EMBER_ERR_INVALID_ARGUMENT, "ember_random_binomial_t", {"n[1]", "2.5", "integer"});
    fails(ember_random_binomial_t(C(), nneg, ok, nullptr, -1, EMBER_DTYPE_DEFAULT, x.out()), EMBER_ERR_INVALID_ARGUMENT, "ember_random_binomial_t", {"n is -2"});
    T lam = make<double>({1, 2, 3, -0.5, -1}, {5}, EMBER_FLOAT64), inf = make<double>({INFINITY}, {}, EMBER_FLOAT64);
    fails(ember_random_poisson_t(C(), lam, nullptr, -1, EMBER_DTYPE_DEFAULT, x.out()), EMBER_ERR_INVALID_ARGUMENT, "ember_random_poisson_t", {"lam[3]", "-0.5"});
    fails(ember_random_poisson_t(C(), inf, nullptr, -1, EMBER_DTYPE_DEFAULT, x.out()), EMBER_ERR_INVALID_ARGUMENT, "ember_random_poisson_t", {"lam", "inf"});
    fails(ember_random_normal_t(C(), inf, ok, nullptr, -1, EMBER_DTYPE_DEFAULT, x.out()), EMBER_ERR_INVALID_ARGUMENT, "ember_random_normal_t", {"mean", "inf"});
    fails(ember_random_normal_t(C(), ok, g, nullptr, -1, EMBER_DTYPE_DEFAULT, x.out()), EMBER_ERR_INVALID_ARGUMENT, "ember_random_normal_t", {"std[1, 0]", "-1.5"});
    T zero = make<double>({0}, {}, EMBER_FLOAT64);
    fails(ember_random_exponential_t(C(), zero, nullptr, -1, EMBER_DTYPE_DEFAULT, x.out()), EMBER_ERR_INVALID_ARGUMENT, "ember_random_exponential_t", {"rate is 0"});
    T lo = make<double>({0, 1, 2}, {3, 1}, EMBER_FLOAT64), hi = make<double>({1.5, 3}, {2}, EMBER_FLOAT64);
    fails(ember_random_uniform_t(C(), lo, hi, nullptr, -1, EMBER_DTYPE_DEFAULT, x.out()), EMBER_ERR_INVALID_ARGUMENT, "ember_random_uniform_t",
          {"low < high", "[2, 0]", "low = 2", "high = 1.5"});
    fails(ember_random_uniform_t(C(), inf, hi, nullptr, -1, EMBER_DTYPE_DEFAULT, x.out()), EMBER_ERR_INVALID_ARGUMENT, "ember_random_uniform_t", {"low", "inf"});
    T cpx;
    EM_OK(ember_astype(C(), ok, EMBER_COMPLEX64, cpx.out()));
    fails(ember_random_poisson_t(C(), cpx, nullptr, -1, EMBER_DTYPE_DEFAULT, x.out()), EMBER_ERR_UNSUPPORTED_DTYPE, "ember_random_poisson_t", {"lam"});
    fails(ember_random_gamma_t(C(), nullptr, ok, nullptr, -1, EMBER_DTYPE_DEFAULT, x.out()), EMBER_ERR_INVALID_ARGUMENT, "ember_random_gamma_t", {"alpha"});
    fails(ember_random_gamma_t(C(), ok, ok, nullptr, -1, EMBER_DTYPE_DEFAULT, nullptr), EMBER_ERR_INVALID_ARGUMENT, "ember_random_gamma_t", {"out"});
    fails(ember_random_gamma_t(C(), g, lam, nullptr, -1, EMBER_DTYPE_DEFAULT, x.out()), EMBER_ERR_SHAPE, "ember_random_gamma_t", {});
}

// cpu (reference kernels on host memory) and opencl (the generic host-copy fallback for the
// sampler rows) give the reference's tensors bit for bit for the same seed: uniform (exact
// arithmetic) and the kernel samplers; normal and exponential up to the rounding of the
// backend's log/cos/sqrt/log1p.
TEST(RandomParams, EveryBackendMatchesTheReference) {
    int tested = 0;
    for (const std::string& nm : other_backends()) {
        ember_ctx_t* c = nullptr;
        if (ember_ctx_create_on(nm.c_str(), 0, &c) != EMBER_OK) continue;
        ++tested;
        for (const Sampler& sm : samplers()) {
            SCOPED_TRACE(nm + " " + sm.name);
            auto pv = valid_params(sm.name);
            T a = make<double>(pv.first, {3, 1}, EMBER_FLOAT64);
            T b = make<double>(pv.second.empty() ? std::vector<double>{1, 1, 1, 1} : pv.second, {4}, EMBER_FLOAT64);
            T ab, bb;
            EM_OK(ember_tensor_to(c, a, ab.out()));
            EM_OK(ember_tensor_to(c, b, bb.out()));
            std::vector<const ember_tensor_t*> pr = {a}, pb = {ab};
            if (sm.nparams == 2) {
                pr.push_back(b);
                pb.push_back(bb);
            }
            auto sh = S({50, 3, 4});
            for (int dt : {(int)EMBER_DTYPE_DEFAULT, (int)EMBER_FLOAT32}) {
                T xr, xb, back;
                EM_OK(ember_random_seed(C(), 2024));
                EM_OK(ember_random_seed(c, 2024));
                EM_OK(sm.fn(C(), pr, sh.data(), 3, dt, xr.out()));
                EM_OK(sm.fn(c, pb, sh.data(), 3, dt, xb.out()));
                EM_OK(ember_tensor_to(C(), xb, back.out()));
                EXPECT_EQ(dtype_of(back), dtype_of(xr));
                std::string n = sm.name;
                if (n == "ember_random_normal_t" || n == "ember_random_exponential_t") {
                    // Composites over log/cos/sqrt/log1p: equal up to the backend's rounding of
                    // those functions (docs/numerics-random.md), a few ulp of the result.
                    double eps = dtype_of(xr) == EMBER_FLOAT64 ? 2.2e-16 : 1.2e-7;
                    EXPECT_TRUE(all_close(values(back), values(xr), 64 * eps, 64 * eps));
                } else {
                    EXPECT_EQ(values(back), values(xr));
                }
            }
            // Errors are the same there.
            T badp = make<double>({NAN}, {}, EMBER_FLOAT64), badb;
            EM_OK(ember_tensor_to(c, badp, badb.out()));
            std::vector<const ember_tensor_t*> pbad = {badb};
            if (sm.nparams == 2) pbad.push_back(bb);
            T x;
            EM_FAILS(sm.fn(c, pbad, nullptr, -1, EMBER_DTYPE_DEFAULT, x.out()), EMBER_ERR_INVALID_ARGUMENT, sm.name);
        }
        ember_ctx_release(c);
    }
    std::printf("  compared %d other backend(s) with the reference\n", tested);
}

}  // namespace
