// PCA (ember_pca_fit / _transform / _inverse_transform): checked by identities computed
// independently on the host in double — orthonormal components, exact reconstruction with
// every component, explained variance equal to the variance of the projected data,
// Eckart–Young residual with fewer components, the sign convention, whitening — plus
// dtypes, error paths and agreement of the other backends with the reference.
#include <algorithm>

#include "test_util.hpp"

namespace {

ember_ctx_t* C() { return test_ctx(); }

// Correlated pseudo-random data (n, f): a random mixing of decaying latent factors plus an offset.
std::vector<double> data(int64_t n, int64_t f, uint64_t seed) {
    uint64_t s = seed * 0x9E3779B97F4A7C15ull + 1;
    auto next = [&] {
        s = s * 6364136223846793005ull + 1442695040888963407ull;
        return (double)(s >> 11) / 9007199254740992.0 * 2 - 1;
    };
    std::vector<double> mix((size_t)(f * f));
    for (auto& m : mix) m = next();
    std::vector<double> x((size_t)(n * f));
    for (int64_t i = 0; i < n; ++i) {
        std::vector<double> z((size_t)f);
        for (int64_t j = 0; j < f; ++j) z[(size_t)j] = next() * std::pow(0.5, (double)j);
        for (int64_t j = 0; j < f; ++j) {
            double v = 3.0 + (double)j;
            for (int64_t l = 0; l < f; ++l) v += mix[(size_t)(j * f + l)] * z[(size_t)l];
            x[(size_t)(i * f + j)] = v;
        }
    }
    return x;
}

struct Fit {
    T comp, ev, ratio, mean, sv;
};
Fit fit(ember_ctx_t* ctx, const ember_tensor_t* x, int64_t k) {
    Fit r;
    EXPECT_EQ(ember_pca_fit(ctx, x, k, 1, r.comp.out(), r.ev.out(), r.ratio.out(), r.mean.out(), r.sv.out()), EMBER_OK) << ember_last_error();
    return r;
}

double at(const std::vector<double>& m, int64_t cols, int64_t i, int64_t j) { return m[(size_t)(i * cols + j)]; }

TEST(Pca, IdentitiesWithEveryComponent) {
    const int64_t n = 30, f = 6;
    std::vector<double> xd = data(n, f, 1);
    T x = make<double>(xd, {n, f}, EMBER_FLOAT64);
    Fit r = fit(C(), x, -1);
    ASSERT_EQ(shape_of(r.comp), (std::vector<int64_t>{f, f}));
    EXPECT_EQ(dtype_of(r.comp), EMBER_FLOAT64);
    std::vector<double> c = values(r.comp), ev = values(r.ev), ratio = values(r.ratio), mean = values(r.mean), sv = values(r.sv);
    ASSERT_EQ(ev.size(), (size_t)f);
    // mean: column means.
    for (int64_t j = 0; j < f; ++j) {
        double m = 0;
        for (int64_t i = 0; i < n; ++i) m += at(xd, f, i, j);
        EXPECT_NEAR(mean[(size_t)j], m / n, 1e-14);
    }
    // Orthonormal rows; sign convention: the largest-|.| entry of each row is positive.
    for (int64_t a = 0; a < f; ++a) {
        for (int64_t b = 0; b < f; ++b) {
            double d = 0;
            for (int64_t j = 0; j < f; ++j) d += at(c, f, a, j) * at(c, f, b, j);
            EXPECT_NEAR(d, a == b ? 1.0 : 0.0, 1e-13) << a << "," << b;
        }
        int64_t best = 0;
        for (int64_t j = 1; j < f; ++j)
            if (std::fabs(at(c, f, a, j)) > std::fabs(at(c, f, a, best))) best = j;
        EXPECT_GT(at(c, f, a, best), 0) << "component " << a;
    }
    // Explained variance: descending, S^2/(n-1), and the variance (ddof 1) of the projected
    // data; the ratios sum to 1 with every component.
    T y;
    EM_OK(ember_pca_transform(C(), x, r.comp, r.mean, nullptr, 0, y.out()));
    ASSERT_EQ(shape_of(y), (std::vector<int64_t>{n, f}));
    std::vector<double> yv = values(y);
    double total = 0, rsum = 0;
    for (int64_t j = 0; j < f; ++j) {
        double m = 0, v = 0;
        for (int64_t i = 0; i < n; ++i) m += at(yv, f, i, j) / n;
        for (int64_t i = 0; i < n; ++i) v += (at(yv, f, i, j) - m) * (at(yv, f, i, j) - m) / (n - 1);
        EXPECT_NEAR(m, 0.0, 1e-13);
        EXPECT_NEAR(ev[(size_t)j], v, 1e-12 * v) << j;
        EXPECT_NEAR(ev[(size_t)j], sv[(size_t)j] * sv[(size_t)j] / (n - 1), 1e-13 * ev[0]);
        if (j) {
            EXPECT_GE(ev[(size_t)j - 1], ev[(size_t)j]);
        }
        total += ev[(size_t)j];
        rsum += ratio[(size_t)j];
    }
    EXPECT_NEAR(rsum, 1.0, 1e-13);
    for (int64_t j = 0; j < f; ++j) EXPECT_NEAR(ratio[(size_t)j], ev[(size_t)j] / total, 1e-13);
    // Reconstruction with every component is the input.
    T back;
    EM_OK(ember_pca_inverse_transform(C(), y, r.comp, r.mean, nullptr, 0, back.out()));
    EXPECT_TRUE(all_close(values(back), xd, 0, 1e-12));
    // Whitening: unit variance on the training data, and its inverse.
    T yw, bw;
    EM_OK(ember_pca_transform(C(), x, r.comp, r.mean, r.ev, 1, yw.out()));
    std::vector<double> wv = values(yw);
    for (int64_t j = 0; j < f; ++j) {
        double v = 0;
        for (int64_t i = 0; i < n; ++i) v += at(wv, f, i, j) * at(wv, f, i, j) / (n - 1);
        EXPECT_NEAR(v, 1.0, 1e-11) << j;
    }
    EM_OK(ember_pca_inverse_transform(C(), yw, r.comp, r.mean, r.ev, 1, bw.out()));
    EXPECT_TRUE(all_close(values(bw), xd, 0, 1e-11));
}

TEST(Pca, FewerComponentsAndOneSample) {
    const int64_t n = 25, f = 5, k = 2;
    std::vector<double> xd = data(n, f, 2);
    T x = make<double>(xd, {n, f}, EMBER_FLOAT64);
    Fit all = fit(C(), x, -1), two = fit(C(), x, k);
    ASSERT_EQ(shape_of(two.comp), (std::vector<int64_t>{k, f}));
    ASSERT_EQ(shape_of(two.ev), (std::vector<int64_t>{k}));
    std::vector<double> ca = values(all.comp), c2 = values(two.comp), eva = values(all.ev), ev2 = values(two.ev);
    for (int64_t i = 0; i < k * f; ++i) EXPECT_NEAR(c2[(size_t)i], ca[(size_t)i], 1e-13);
    for (int64_t i = 0; i < k; ++i) EXPECT_NEAR(ev2[(size_t)i], eva[(size_t)i], 1e-13 * eva[0]);
    // The ratio keeps the full total: it sums to less than 1.
    std::vector<double> r2 = values(two.ratio), ra = values(all.ratio);
    for (int64_t i = 0; i < k; ++i) EXPECT_NEAR(r2[(size_t)i], ra[(size_t)i], 1e-13);
    // Eckart–Young: the squared residual of the rank-k reconstruction is the sum of the
    // discarded S^2, i.e. (n - 1) * sum of the discarded explained variances.
    T y, back;
    EM_OK(ember_pca_transform(C(), x, two.comp, two.mean, nullptr, 0, y.out()));
    EM_OK(ember_pca_inverse_transform(C(), y, two.comp, two.mean, nullptr, 0, back.out()));
    std::vector<double> b = values(back);
    double resid = 0, discarded = 0;
    for (size_t i = 0; i < xd.size(); ++i) resid += (xd[i] - b[i]) * (xd[i] - b[i]);
    for (int64_t i = k; i < f; ++i) discarded += eva[(size_t)i] * (n - 1);
    EXPECT_NEAR(resid, discarded, 1e-10 * discarded);
    // One sample as a 1-d vector: the same as its row of the batch.
    std::vector<double> row(xd.begin() + 3 * f, xd.begin() + 4 * f);
    T x1 = make<double>(row, {f}, EMBER_FLOAT64), y1, b1;
    EM_OK(ember_pca_transform(C(), x1, two.comp, two.mean, nullptr, 0, y1.out()));
    EXPECT_EQ(shape_of(y1), (std::vector<int64_t>{k}));
    std::vector<double> yv = values(y), y1v = values(y1);
    for (int64_t j = 0; j < k; ++j) EXPECT_NEAR(y1v[(size_t)j], yv[(size_t)(3 * k + j)], 1e-13);
    EM_OK(ember_pca_inverse_transform(C(), y1, two.comp, two.mean, nullptr, 0, b1.out()));
    EXPECT_EQ(shape_of(b1), (std::vector<int64_t>{f}));
    // No mean: no centring.
    T yn;
    EM_OK(ember_pca_transform(C(), x, two.comp, nullptr, nullptr, 0, yn.out()));
    std::vector<double> ynv = values(yn), m = values(two.mean);
    for (int64_t j = 0; j < k; ++j) {
        double shift = 0;
        for (int64_t l = 0; l < f; ++l) shift += m[(size_t)l] * c2[(size_t)(j * f + l)];
        EXPECT_NEAR(ynv[(size_t)j], yv[(size_t)j] + shift, 1e-12);
    }
    // Optional outputs may be NULL.
    T comp_only;
    EM_OK(ember_pca_fit(C(), x, 1, 1, comp_only.out(), nullptr, nullptr, nullptr, nullptr));
    EXPECT_EQ(shape_of(comp_only), (std::vector<int64_t>{1, f}));
}

TEST(Pca, WideDataAndDtypes) {
    // More features than samples: k = n components, all orthonormal, reconstruction exact.
    const int64_t n = 5, f = 8;
    std::vector<double> xd = data(n, f, 3);
    T x = make<double>(xd, {n, f}, EMBER_FLOAT64);
    Fit r = fit(C(), x, -1);
    ASSERT_EQ(shape_of(r.comp), (std::vector<int64_t>{n, f}));
    std::vector<double> ev = values(r.ev);
    EXPECT_NEAR(ev[(size_t)n - 1], 0.0, 1e-12 * ev[0]);  // centring removes one dimension
    T y, back;
    EM_OK(ember_pca_transform(C(), x, r.comp, r.mean, nullptr, 0, y.out()));
    EM_OK(ember_pca_inverse_transform(C(), y, r.comp, r.mean, nullptr, 0, back.out()));
    EXPECT_TRUE(all_close(values(back), xd, 0, 1e-12));
    // Whitening a zero-variance direction divides by eps instead of 0 (finite output).
    T yw;
    EM_OK(ember_pca_transform(C(), x, r.comp, r.mean, r.ev, 1, yw.out()));
    for (double v : values(yw)) EXPECT_TRUE(std::isfinite(v));
    // float32 in, float32 out, close to the float64 fit.
    const int64_t n2 = 40, f2 = 4;
    std::vector<double> xd2 = data(n2, f2, 4);
    T x64 = make<double>(xd2, {n2, f2}, EMBER_FLOAT64), x32 = make<double>(xd2, {n2, f2}, EMBER_FLOAT32);
    Fit r64 = fit(C(), x64, 2), r32 = fit(C(), x32, 2);
    EXPECT_EQ(dtype_of(r32.comp), EMBER_FLOAT32);
    EXPECT_EQ(dtype_of(r32.ev), EMBER_FLOAT32);
    EXPECT_TRUE(all_close(values(r32.comp), values(r64.comp), 0, 2e-4));
    EXPECT_TRUE(all_close(values(r32.ev), values(r64.ev), 1e-4));
    // Integers compute in the default float.
    std::vector<double> ints(n2 * f2);
    for (size_t i = 0; i < ints.size(); ++i) ints[i] = (double)((i * 37) % 17);
    T xi = make<double>(ints, {n2, f2}, EMBER_INT32);
    Fit ri = fit(C(), xi, -1);
    EXPECT_EQ(dtype_of(ri.comp), EMBER_FLOAT32);
    // Constant data: zero variance, NaN ratios (0/0, as sklearn).
    T cst = make<double>(std::vector<double>(12, 2.5), {4, 3}, EMBER_FLOAT64);
    Fit rc = fit(C(), cst, 1);
    EXPECT_EQ(values(rc.ev)[0], 0.0);
    EXPECT_TRUE(std::isnan(values(rc.ratio)[0]));
}

TEST(Pca, Uncentred) {
    // center == 0: the SVD of the raw data; mean is zeros, the ratio uses sum(x^2)/(n-1).
    const int64_t n = 12, f = 3;
    std::vector<double> xd = data(n, f, 7);
    T x = make<double>(xd, {n, f}, EMBER_FLOAT64);
    Fit r;
    EM_OK(ember_pca_fit(C(), x, -1, 0, r.comp.out(), r.ev.out(), r.ratio.out(), r.mean.out(), r.sv.out()));
    EXPECT_TRUE(all_close(values(r.mean), {0, 0, 0}, 0));
    double total = 0;
    for (double v : xd) total += v * v / (n - 1);
    std::vector<double> ev = values(r.ev), ratio = values(r.ratio);
    double sum = 0;
    for (int64_t j = 0; j < f; ++j) {
        sum += ev[(size_t)j];
        EXPECT_NEAR(ratio[(size_t)j], ev[(size_t)j] / total, 1e-13);
    }
    EXPECT_NEAR(sum, total, 1e-12 * total);
    T y, back;
    EM_OK(ember_pca_transform(C(), x, r.comp, nullptr, nullptr, 0, y.out()));
    EM_OK(ember_pca_inverse_transform(C(), y, r.comp, nullptr, nullptr, 0, back.out()));
    EXPECT_TRUE(all_close(values(back), xd, 0, 1e-12));
}

TEST(Pca, Errors) {
    T x = make<double>(data(6, 3, 5), {6, 3}, EMBER_FLOAT64), comp, ev, mean, o1;
    ember_tensor_t* o = nullptr;
    EM_FAILS(ember_pca_fit(C(), x, 0, 1, &o, nullptr, nullptr, nullptr, nullptr), EMBER_ERR_INVALID_ARGUMENT, "ember_pca_fit");
    EM_FAILS(ember_pca_fit(C(), x, 4, 1, &o, nullptr, nullptr, nullptr, nullptr), EMBER_ERR_INVALID_ARGUMENT, "n_components");
    EM_FAILS(ember_pca_fit(C(), x, -1, 1, nullptr, nullptr, nullptr, nullptr, nullptr), EMBER_ERR_INVALID_ARGUMENT, "ember_pca_fit");
    T v = make<double>({1, 2, 3}, {3}, EMBER_FLOAT64), one = make<double>({1, 2, 3}, {1, 3}, EMBER_FLOAT64);
    EM_FAILS(ember_pca_fit(C(), v, -1, 1, &o, nullptr, nullptr, nullptr, nullptr), EMBER_ERR_SHAPE, "ember_pca_fit");
    EM_FAILS(ember_pca_fit(C(), one, -1, 1, &o, nullptr, nullptr, nullptr, nullptr), EMBER_ERR_SHAPE, "2 samples");
    T cx = make<double>(data(6, 3, 5), {6, 3}, EMBER_COMPLEX128);
    EM_FAILS(ember_pca_fit(C(), cx, -1, 1, &o, nullptr, nullptr, nullptr, nullptr), EMBER_ERR_UNSUPPORTED_DTYPE, "ember_pca_fit");
    EM_FAILS(ember_pca_fit(C(), nullptr, -1, 1, &o, nullptr, nullptr, nullptr, nullptr), EMBER_ERR_INVALID_ARGUMENT, "ember_pca_fit");
    EM_OK(ember_pca_fit(C(), x, 2, 1, comp.out(), ev.out(), nullptr, mean.out(), nullptr));
    T wrong = make<double>(data(6, 4, 5), {6, 4}, EMBER_FLOAT64);
    EM_FAILS(ember_pca_transform(C(), wrong, comp, mean, nullptr, 0, &o), EMBER_ERR_SHAPE, "ember_pca_transform");
    EM_FAILS(ember_pca_transform(C(), x, comp, mean, nullptr, 1, &o), EMBER_ERR_INVALID_ARGUMENT, "explained_variance");
    EM_FAILS(ember_pca_transform(C(), x, comp, comp, nullptr, 0, &o), EMBER_ERR_SHAPE, "mean");
    EM_FAILS(ember_pca_transform(C(), x, mean, mean, nullptr, 0, &o), EMBER_ERR_SHAPE, "components");
    EM_FAILS(ember_pca_transform(C(), cx, comp, mean, nullptr, 0, &o), EMBER_ERR_UNSUPPORTED_DTYPE, "ember_pca_transform");
    EM_FAILS(ember_pca_inverse_transform(C(), x, comp, mean, nullptr, 0, &o), EMBER_ERR_SHAPE, "ember_pca_inverse_transform");
    EM_FAILS(ember_pca_inverse_transform(C(), x, comp, mean, mean, 1, &o), EMBER_ERR_SHAPE, "explained_variance");
    EM_FAILS(ember_pca_inverse_transform(C(), x, comp, mean, nullptr, 0, nullptr), EMBER_ERR_INVALID_ARGUMENT, "out");
    EXPECT_EQ(o, nullptr);
}

// Every other backend gives the reference's result (rounding aside) or, without an SVD
// kernel, fails cleanly with EMBER_ERR_UNSUPPORTED.
TEST(Pca, EveryBackendAgreesWithReference) {
    const int64_t n = 20, f = 4;
    std::vector<double> xd = data(n, f, 6);
    T x = make<double>(xd, {n, f}, EMBER_FLOAT32);
    Fit ref = fit(C(), x, 3);
    T yref;
    EM_OK(ember_pca_transform(C(), x, ref.comp, ref.mean, ref.ev, 1, yref.out()));
    int tested = 0;
    for (const std::string& nm : other_backends()) {
        const char* name = nm.c_str();
        ember_ctx_t* c = nullptr;
        if (ember_ctx_create_on(name, 0, &c) != EMBER_OK) continue;
        T xb;
        EM_OK(ember_tensor_to(c, x, xb.out()));
        Fit r;
        ember_status_t st = ember_pca_fit(c, xb, 3, 1, r.comp.out(), r.ev.out(), r.ratio.out(), r.mean.out(), r.sv.out());
        const char* binding = "";
        ember_op_binding(name, "svd", &binding);
        if (std::string(binding) == "unsupported") {
            EXPECT_EQ(st, EMBER_ERR_UNSUPPORTED) << nm << ": " << ember_last_error();
            std::printf("  [gap] %s has no svd kernel: PCA unsupported there\n", name);
        } else {
            ASSERT_EQ(st, EMBER_OK) << nm << ": " << ember_last_error();
            auto host = [&](const ember_tensor_t* t) {
                T h;
                EXPECT_EQ(ember_tensor_to(C(), t, h.out()), EMBER_OK);
                return values(h);
            };
            EXPECT_TRUE(all_close(host(r.comp), values(ref.comp), 0, 1e-4)) << nm;
            EXPECT_TRUE(all_close(host(r.ev), values(ref.ev), 1e-4)) << nm;
            EXPECT_TRUE(all_close(host(r.ratio), values(ref.ratio), 1e-4)) << nm;
            EXPECT_TRUE(all_close(host(r.mean), values(ref.mean), 1e-6)) << nm;
            T y;
            EM_OK(ember_pca_transform(c, xb, r.comp, r.mean, r.ev, 1, y.out()));
            EXPECT_TRUE(all_close(host(y), values(yref), 0, 1e-3)) << nm;
        }
        std::printf("  [checked] %s\n", name);
        ember_ctx_release(c);
        ++tested;
    }
    if (!tested) GTEST_SKIP() << "only the reference backend is available";
}

TEST(Pca, ListedAsComposites) {
    for (const char* op : {"pca_fit", "pca_transform", "pca_inverse_transform"}) {
        const char* binding = nullptr;
        EM_OK(ember_op_binding("reference", op, &binding));
        EXPECT_STREQ(binding, "composite") << op;
    }
}

}  // namespace
