// Losses (issue 3): hand-derived values in float64, reductions, from_logits stability,
// dtypes, broadcasting, empty inputs, NaN and the error paths.
#include <limits>

#include "test_util.hpp"

namespace {

ember_ctx_t* C() { return test_ctx(); }
const double kNaN = std::numeric_limits<double>::quiet_NaN();
const double kInf = std::numeric_limits<double>::infinity();

double sum(const std::vector<double>& v) {
    double s = 0;
    for (double x : v) s += x;
    return s;
}

TEST(Losses, MseMaeReductions) {
    T t = make<double>({1, 2, 3, 4}, {2, 2}, EMBER_FLOAT64);
    T p = make<double>({1.5, 0, 3, 7}, {2, 2}, EMBER_FLOAT64);
    T r;
    EM_OK(ember_mse(C(), t, p, EMBER_REDUCTION_NONE, r.out()));
    EXPECT_EQ(shape_of(r), (std::vector<int64_t>{2, 2}));
    EXPECT_TRUE(all_close(values(r), {0.25, 4, 0, 9}, 0));
    EM_OK(ember_mse(C(), t, p, EMBER_REDUCTION_MEAN, r.out()));
    EXPECT_TRUE(shape_of(r).empty());
    EXPECT_TRUE(all_close(values(r), {13.25 / 4}, 1e-15));
    EM_OK(ember_mse(C(), t, p, EMBER_REDUCTION_SUM, r.out()));
    EXPECT_TRUE(all_close(values(r), {13.25}, 1e-15));
    EM_OK(ember_mean_absolute_error(C(), t, p, EMBER_REDUCTION_NONE, r.out()));
    EXPECT_TRUE(all_close(values(r), {0.5, 2, 0, 3}, 0));
    EM_OK(ember_mean_absolute_error(C(), t, p, EMBER_REDUCTION_MEAN, r.out()));
    EXPECT_TRUE(all_close(values(r), {1.375}, 1e-15));
}

TEST(Losses, DtypesAndBroadcasting) {
    // int inputs compute in the default float; float32 stays float32; (3,) broadcasts against (2,3).
    T ti = make<double>({1, 2, 3}, {3}, EMBER_INT32);
    T pf = make<double>({0, 0, 0, 1, 2, 3}, {2, 3}, EMBER_FLOAT32);
    T r;
    EM_OK(ember_mse(C(), ti, pf, EMBER_REDUCTION_NONE, r.out()));
    EXPECT_EQ(dtype_of(r), EMBER_FLOAT32);
    EXPECT_EQ(shape_of(r), (std::vector<int64_t>{2, 3}));
    EXPECT_TRUE(all_close(values(r), {1, 4, 9, 0, 0, 0}, 0));
    T pi = make<double>({3, 2, 1}, {3}, EMBER_INT64);
    EM_OK(ember_mean_absolute_error(C(), ti, pi, EMBER_REDUCTION_SUM, r.out()));
    EXPECT_EQ(dtype_of(r), EMBER_FLOAT32);
    EXPECT_TRUE(all_close(values(r), {4}, 0));
    T h = make<double>({0.5, 1}, {2}, EMBER_FLOAT16);
    T hz = make<double>({0, 0}, {2}, EMBER_FLOAT16);
    EM_OK(ember_mse(C(), hz, h, EMBER_REDUCTION_NONE, r.out()));
    EXPECT_EQ(dtype_of(r), EMBER_FLOAT16);
    EXPECT_TRUE(all_close(values(r), {0.25, 1}, 0));
    T c = make<double>({1, 2}, {2}, EMBER_COMPLEX64);
    EM_FAILS(ember_mse(C(), c, c, EMBER_REDUCTION_NONE, r.out()), EMBER_ERR_UNSUPPORTED_DTYPE, "ember_mse");
}

TEST(Losses, EmptyAndNaN) {
    T e = make<double>({}, {0, 3}, EMBER_FLOAT64);
    T r;
    EM_OK(ember_mse(C(), e, e, EMBER_REDUCTION_NONE, r.out()));
    EXPECT_EQ(shape_of(r), (std::vector<int64_t>{0, 3}));
    EM_OK(ember_mse(C(), e, e, EMBER_REDUCTION_SUM, r.out()));
    EXPECT_TRUE(all_close(values(r), {0}, 0));
    EM_OK(ember_mse(C(), e, e, EMBER_REDUCTION_MEAN, r.out()));
    EXPECT_TRUE(std::isnan(values(r)[0]));
    T a = make<double>({kNaN, 1}, {2}, EMBER_FLOAT64);
    T b = make<double>({0, 1}, {2}, EMBER_FLOAT64);
    EM_OK(ember_huber_loss(C(), a, b, 1.0, EMBER_REDUCTION_NONE, r.out()));
    EXPECT_TRUE(std::isnan(values(r)[0]));
    EXPECT_EQ(values(r)[1], 0);
}

TEST(Losses, HuberPiecewise) {
    T t = make<double>({0, 0, 0, 0, 0}, {5}, EMBER_FLOAT64);
    T p = make<double>({0.5, -1, 1.5, -3, 2}, {5}, EMBER_FLOAT64);
    T r;
    // delta 1: 0.5 d^2 for |d| <= 1, else |d| - 0.5.
    EM_OK(ember_huber_loss(C(), t, p, 1.0, EMBER_REDUCTION_NONE, r.out()));
    EXPECT_TRUE(all_close(values(r), {0.125, 0.5, 1.0, 2.5, 1.5}, 1e-15));
    // delta 2: 0.5 d^2 for |d| <= 2, else 2 (|d| - 1).
    EM_OK(ember_huber_loss(C(), t, p, 2.0, EMBER_REDUCTION_NONE, r.out()));
    EXPECT_TRUE(all_close(values(r), {0.125, 0.5, 1.125, 4.0, 2.0}, 1e-15));
    EM_FAILS(ember_huber_loss(C(), t, p, 0.0, EMBER_REDUCTION_NONE, r.out()), EMBER_ERR_INVALID_ARGUMENT, "ember_huber_loss");
    EM_FAILS(ember_huber_loss(C(), t, p, kNaN, EMBER_REDUCTION_NONE, r.out()), EMBER_ERR_INVALID_ARGUMENT, "ember_huber_loss");
}

TEST(Losses, LogCoshStableForLargeDifferences) {
    std::vector<double> d = {0, 0.5, -2, 30, -800, 1e6};
    T t = make<double>({0, 0, 0, 0, 0, 0}, {6}, EMBER_FLOAT64);
    T p = make<double>(d, {6}, EMBER_FLOAT64);
    T r;
    EM_OK(ember_log_cosh(C(), t, p, EMBER_REDUCTION_NONE, r.out()));
    std::vector<double> want;
    for (double x : d) want.push_back(std::fabs(x) < 20 ? std::log(std::cosh(x)) : std::fabs(x) - std::log(2.0));
    EXPECT_TRUE(all_close(values(r), want, 1e-14, 1e-300));
    T p32 = make<double>(d, {6}, EMBER_FLOAT32);
    EM_OK(ember_log_cosh(C(), t, p32, EMBER_REDUCTION_NONE, r.out()));
    EXPECT_TRUE(all_close(values(r), want, 1e-6, 1e-7));  // finite even where cosh overflows float32
}

TEST(Losses, BinaryCrossentropyProbabilitiesAndLogits) {
    std::vector<double> y = {1, 0, 1, 0, 0.25};
    std::vector<double> pr = {0.9, 0.2, 0.5, 0.999, 0.6};
    T t = make<double>(y, {5}, EMBER_FLOAT64);
    T p = make<double>(pr, {5}, EMBER_FLOAT64);
    T r;
    EM_OK(ember_binary_crossentropy(C(), t, p, 0, EMBER_REDUCTION_NONE, r.out()));
    std::vector<double> want;
    for (size_t i = 0; i < y.size(); ++i) want.push_back(-(y[i] * std::log(pr[i]) + (1 - y[i]) * std::log(1 - pr[i])));
    EXPECT_TRUE(all_close(values(r), want, 1e-14));
    // Logits: same losses for z = logit(p), and no overflow for |z| = 1000.
    std::vector<double> z;
    for (double q : pr) z.push_back(std::log(q / (1 - q)));
    z.push_back(1000);
    z.push_back(-1000);
    std::vector<double> y2 = y;
    y2.push_back(0);  // loss 1000
    y2.push_back(0);  // loss ~ e^-1000 = 0
    want.push_back(1000);
    want.push_back(0);
    T t2 = make<double>(y2, {7}, EMBER_FLOAT64);
    T zl = make<double>(z, {7}, EMBER_FLOAT64);
    EM_OK(ember_binary_crossentropy(C(), t2, zl, 1, EMBER_REDUCTION_NONE, r.out()));
    EXPECT_TRUE(all_close(values(r), want, 1e-12, 1e-300));
    // Probabilities of exactly 0 and 1: logs clamp at -100.
    T t3 = make<double>({1, 0, 1}, {3}, EMBER_FLOAT32);
    T p3 = make<double>({0, 1, 1}, {3}, EMBER_FLOAT32);
    EM_OK(ember_binary_crossentropy(C(), t3, p3, 0, EMBER_REDUCTION_NONE, r.out()));
    EXPECT_TRUE(all_close(values(r), {100, 100, 0}, 1e-6));
    EM_OK(ember_binary_crossentropy(C(), t3, p3, 0, EMBER_REDUCTION_MEAN, r.out()));
    EXPECT_TRUE(all_close(values(r), {200.0 / 3}, 1e-6));
}

TEST(Losses, CategoricalCrossentropy) {
    // Two samples, three classes (axis -1), one-hot and soft targets.
    std::vector<double> y = {0, 1, 0, 0.2, 0.3, 0.5};
    std::vector<double> pr = {0.1, 0.7, 0.2, 0.25, 0.25, 0.5};
    T t = make<double>(y, {2, 3}, EMBER_FLOAT64);
    T p = make<double>(pr, {2, 3}, EMBER_FLOAT64);
    T r;
    EM_OK(ember_categorical_crossentropy(C(), t, p, 0, -1, EMBER_REDUCTION_NONE, r.out()));
    double l0 = -std::log(0.7), l1 = -(0.2 * std::log(0.25) + 0.3 * std::log(0.25) + 0.5 * std::log(0.5));
    EXPECT_EQ(shape_of(r), (std::vector<int64_t>{2}));
    EXPECT_TRUE(all_close(values(r), {l0, l1}, 1e-14));
    EM_OK(ember_categorical_crossentropy(C(), t, p, 0, -1, EMBER_REDUCTION_MEAN, r.out()));
    EXPECT_TRUE(all_close(values(r), {(l0 + l1) / 2}, 1e-14));
    // Class axis 0 on the transpose gives the same per-sample losses.
    T tt, pt;
    EM_OK(ember_matrix_transpose(C(), t, tt.out()));
    EM_OK(ember_matrix_transpose(C(), p, pt.out()));
    EM_OK(ember_categorical_crossentropy(C(), tt, pt, 0, 0, EMBER_REDUCTION_NONE, r.out()));
    EXPECT_TRUE(all_close(values(r), {l0, l1}, 1e-14));
    // Logits: huge values stay finite; loss = logsumexp(z) - z_true computed by hand.
    std::vector<double> z = {1000, 1001, 999, -5, 0, 5};
    T zl = make<double>(z, {2, 3}, EMBER_FLOAT64);
    EM_OK(ember_categorical_crossentropy(C(), t, zl, 1, -1, EMBER_REDUCTION_NONE, r.out()));
    double lse0 = 1001 + std::log(std::exp(-1.0) + 1 + std::exp(-2.0));
    double lse1 = 5 + std::log(std::exp(-10.0) + std::exp(-5.0) + 1);
    double w0 = lse0 - 1001, w1 = 0.2 * (lse1 + 5) + 0.3 * (lse1 - 0) + 0.5 * (lse1 - 5);
    EXPECT_TRUE(all_close(values(r), {w0, w1}, 1e-12));
    // A zero target times a -inf log-probability contributes 0, not NaN.
    T t1 = make<double>({1, 0}, {1, 2}, EMBER_FLOAT64);
    T zi = make<double>({0, -kInf}, {1, 2}, EMBER_FLOAT64);
    EM_OK(ember_categorical_crossentropy(C(), t1, zi, 1, -1, EMBER_REDUCTION_NONE, r.out()));
    EXPECT_TRUE(all_close(values(r), {0}, 0, 1e-300));
    T s = make<double>({1}, {}, EMBER_FLOAT64);
    EM_FAILS(ember_categorical_crossentropy(C(), s, s, 0, -1, EMBER_REDUCTION_NONE, r.out()), EMBER_ERR_SHAPE, "ember_categorical_crossentropy");
    EM_FAILS(ember_categorical_crossentropy(C(), t, p, 0, 2, EMBER_REDUCTION_NONE, r.out()), EMBER_ERR_INDEX, "ember_categorical_crossentropy");
}

TEST(Losses, SparseCategoricalMatchesOneHot) {
    std::vector<double> z = {2, 1, 0.1, -1, 3, 0.5, 0, 0, 0};
    T zl = make<double>(z, {3, 3}, EMBER_FLOAT32);
    T lab = make<double>({0, 1, 2}, {3}, EMBER_INT32);
    T r;
    EM_OK(ember_sparse_categorical_crossentropy(C(), lab, zl, 1, -1, EMBER_REDUCTION_NONE, r.out()));
    EXPECT_EQ(dtype_of(r), EMBER_FLOAT32);
    std::vector<double> want;
    for (int i = 0; i < 3; ++i) {
        double m = std::max({z[3 * i], z[3 * i + 1], z[3 * i + 2]});
        double lse = m + std::log(std::exp(z[3 * i] - m) + std::exp(z[3 * i + 1] - m) + std::exp(z[3 * i + 2] - m));
        want.push_back(lse - z[3 * i + i]);
    }
    EXPECT_TRUE(all_close(values(r), want, 1e-6));
    EXPECT_NEAR(want[2], std::log(3.0), 1e-15);
    // Probabilities: -log p[label].
    T p = make<double>({0.5, 0.25, 0.25, 0.1, 0.8, 0.1}, {2, 3}, EMBER_FLOAT64);
    T l2 = make<double>({2, 1}, {2}, EMBER_INT64);
    EM_OK(ember_sparse_categorical_crossentropy(C(), l2, p, 0, 1, EMBER_REDUCTION_SUM, r.out()));
    EXPECT_TRUE(all_close(values(r), {-std::log(0.25) - std::log(0.8)}, 1e-14));
    // Errors: label out of range (both ends), float labels, wrong shape.
    T bad = make<double>({0, 3, 1}, {3}, EMBER_INT32);
    EM_FAILS(ember_sparse_categorical_crossentropy(C(), bad, zl, 1, -1, EMBER_REDUCTION_NONE, r.out()), EMBER_ERR_INDEX, "ember_sparse_categorical_crossentropy");
    T neg = make<double>({0, -1, 1}, {3}, EMBER_INT32);
    EM_FAILS(ember_sparse_categorical_crossentropy(C(), neg, zl, 1, -1, EMBER_REDUCTION_NONE, r.out()), EMBER_ERR_INDEX, "ember_sparse_categorical_crossentropy");
    T fl = make<double>({0, 1, 2}, {3}, EMBER_FLOAT32);
    EM_FAILS(ember_sparse_categorical_crossentropy(C(), fl, zl, 1, -1, EMBER_REDUCTION_NONE, r.out()), EMBER_ERR_UNSUPPORTED_DTYPE, "ember_sparse_categorical_crossentropy");
    T wrong = make<double>({0, 1}, {2}, EMBER_INT32);
    EM_FAILS(ember_sparse_categorical_crossentropy(C(), wrong, zl, 1, -1, EMBER_REDUCTION_NONE, r.out()), EMBER_ERR_SHAPE, "ember_sparse_categorical_crossentropy");
}

// Along each axis of a 3-d input, logits and probabilities (one of them 0: log clamps at
// -100), against -log_softmax / -log of the labelled entry computed here in long double.
TEST(Losses, SparseCategoricalAlongEveryAxis) {
    const int64_t n[3] = {3, 4, 5};
    std::vector<double> z(60);
    for (size_t i = 0; i < z.size(); ++i) z[i] = 0.05 + 0.9 * (double)((i * 37) % 61) / 61.0;
    z[7] = 0;
    T zt = make<double>(z, {3, 4, 5}, EMBER_FLOAT64);
    for (int64_t axis : {0, 1, 2, -2})
        for (int logits : {0, 1}) {
            const int a = (int)((axis + 3) % 3), b = a == 0 ? 1 : 0, c = a == 2 ? 1 : 2;  // b, c: the other axes
            std::vector<double> labels, want;
            for (int64_t i = 0; i < n[b]; ++i)
                for (int64_t j = 0; j < n[c]; ++j) {
                    const int64_t label = (i * 3 + j * 2 + a) % n[a];
                    labels.push_back((double)label);
                    long double lse = 0, picked = 0;
                    for (int64_t k = 0; k < n[a]; ++k) {
                        int64_t idx[3];
                        idx[a] = k, idx[b] = i, idx[c] = j;
                        const long double v = z[(size_t)(idx[0] * 20 + idx[1] * 5 + idx[2])];
                        lse += expl(v);
                        if (k == label) picked = v;
                    }
                    want.push_back(logits ? (double)(logl(lse) - picked) : picked == 0 ? 100.0 : (double)-logl(picked));
                }
            T lab = make<double>(labels, {n[b], n[c]}, EMBER_INT16), r;
            EM_OK(ember_sparse_categorical_crossentropy(C(), lab, zt, logits, axis, EMBER_REDUCTION_NONE, r.out()));
            EXPECT_EQ(shape_of(r), (std::vector<int64_t>{n[b], n[c]}));
            EXPECT_TRUE(all_close(values(r), want, 1e-14)) << "axis " << axis << (logits ? " logits" : " probabilities");
        }
}

TEST(Losses, KlDivergence) {
    std::vector<double> tv = {0.5, 0.5, 0, 0.1, 0.2, 0.7};
    std::vector<double> pv = {0.25, 0.25, 0.5, 0.3, 0.3, 0.4};
    T t = make<double>(tv, {2, 3}, EMBER_FLOAT64);
    T p = make<double>(pv, {2, 3}, EMBER_FLOAT64);
    T r;
    EM_OK(ember_kl_divergence(C(), t, p, -1, EMBER_REDUCTION_NONE, r.out()));
    double k0 = std::log(2.0);  // 0.5 log 2 + 0.5 log 2 + 0
    double k1 = 0.1 * std::log(0.1 / 0.3) + 0.2 * std::log(0.2 / 0.3) + 0.7 * std::log(0.7 / 0.4);
    EXPECT_TRUE(all_close(values(r), {k0, k1}, 1e-14));
    EM_OK(ember_kl_divergence(C(), t, t, -1, EMBER_REDUCTION_SUM, r.out()));
    EXPECT_TRUE(all_close(values(r), {0}, 0, 1e-15));  // KL(p || p) = 0
    T q0 = make<double>({1, 0, 0, 0.1, 0.2, 0.7}, {2, 3}, EMBER_FLOAT64);
    EM_OK(ember_kl_divergence(C(), t, q0, -1, EMBER_REDUCTION_NONE, r.out()));
    EXPECT_EQ(values(r)[0], kInf);  // t > 0 where p == 0
}

TEST(Losses, CosineAndEuclidean) {
    T a = make<double>({1, 0, 0, 3, 4, 0, 0, 0, 0}, {3, 3}, EMBER_FLOAT64);
    T b = make<double>({0, 2, 0, 6, 8, 0, 1, 1, 1}, {3, 3}, EMBER_FLOAT64);
    T r;
    EM_OK(ember_cosine_similarity(C(), a, b, -1, EMBER_REDUCTION_NONE, r.out()));
    EXPECT_TRUE(all_close(values(r), {0, 1, 0}, 1e-15));  // orthogonal, parallel, zero vector (eps)
    T bneg = make<double>({-1, 0, 0}, {3}, EMBER_FLOAT64);
    EM_OK(ember_cosine_similarity(C(), a, bneg, 1, EMBER_REDUCTION_NONE, r.out()));  // broadcast (3,) over rows
    EXPECT_TRUE(all_close(values(r), {-1, -3.0 / 5, 0}, 1e-15));
    EM_OK(ember_euclidean_distance(C(), a, b, -1, EMBER_REDUCTION_NONE, r.out()));
    EXPECT_TRUE(all_close(values(r), {std::sqrt(5.0), 5, std::sqrt(3.0)}, 1e-15));
    EM_OK(ember_euclidean_distance(C(), a, b, 0, EMBER_REDUCTION_MEAN, r.out()));
    double c0 = std::sqrt(1 + 9 + 1), c1 = std::sqrt(4 + 16 + 1), c2 = 1;
    EXPECT_TRUE(all_close(values(r), {(c0 + c1 + c2) / 3}, 1e-15));
}

TEST(Losses, ErrorPaths) {
    T a = make<double>({1, 2, 3}, {3}, EMBER_FLOAT64);
    T b = make<double>({1, 2}, {2}, EMBER_FLOAT64);
    T r;
    EM_FAILS(ember_mse(C(), a, b, EMBER_REDUCTION_NONE, r.out()), EMBER_ERR_SHAPE, "ember_mse");
    EM_FAILS(ember_mse(C(), a, a, (ember_reduction_t)7, r.out()), EMBER_ERR_INVALID_ARGUMENT, "ember_mse");
    EM_FAILS(ember_mse(C(), nullptr, a, EMBER_REDUCTION_NONE, r.out()), EMBER_ERR_INVALID_ARGUMENT, "ember_mse");
    EM_FAILS(ember_log_cosh(C(), a, a, EMBER_REDUCTION_NONE, nullptr), EMBER_ERR_INVALID_ARGUMENT, "ember_log_cosh");
    EM_FAILS(ember_binary_crossentropy(nullptr, a, a, 0, EMBER_REDUCTION_NONE, r.out()), EMBER_ERR_INVALID_ARGUMENT, "ember_binary_crossentropy");
    EM_FAILS(ember_euclidean_distance(C(), a, b, -1, EMBER_REDUCTION_NONE, r.out()), EMBER_ERR_SHAPE, "ember_euclidean_distance");
    EM_FAILS(ember_cosine_similarity(C(), a, a, 1, EMBER_REDUCTION_NONE, r.out()), EMBER_ERR_INDEX, "ember_cosine_similarity");
    EM_FAILS(ember_kl_divergence(C(), a, a, 0, (ember_reduction_t)-1, r.out()), EMBER_ERR_INVALID_ARGUMENT, "ember_kl_divergence");
    EXPECT_EQ(r.t, nullptr);
    (void)sum;
}

}  // namespace
