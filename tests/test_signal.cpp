// FFT family: transforms against a direct O(n^2) DFT in long double, round trips, norm
// modes, n-d transforms, frequencies and shifts, edge cases and error paths.
#include <chrono>

#include "test_util.hpp"

namespace {

using cld = std::complex<long double>;
using cd = std::complex<double>;
const long double PI_L = 3.141592653589793238462643383279502884L;

// Direct DFT: sign -1 forward, +1 inverse (unnormalised).
std::vector<cd> dft(const std::vector<cd>& x, int sign) {
    size_t n = x.size();
    std::vector<cd> y(n);
    for (size_t k = 0; k < n; ++k) {
        cld s = 0;
        for (size_t j = 0; j < n; ++j) {
            long double a = sign * 2 * PI_L * (long double)((j * k) % n) / (long double)n;
            s += cld(x[j].real(), x[j].imag()) * cld(cosl(a), sinl(a));
        }
        y[k] = cd((double)s.real(), (double)s.imag());
    }
    return y;
}

// Deterministic pseudo-random values in [-1, 1).
std::vector<cd> signal(size_t n, uint64_t seed) {
    std::vector<cd> v(n);
    uint64_t s = seed * 6364136223846793005ull + 1442695040888963407ull;
    auto next = [&] {
        s = s * 6364136223846793005ull + 1442695040888963407ull;
        return (double)(s >> 11) / 9007199254740992.0 * 2 - 1;
    };
    for (auto& c : v) {
        double re = next();
        c = cd(re, next());
    }
    return v;
}

T ctensor(const std::vector<cd>& v, std::vector<int64_t> shape, ember_dtype_t dt = EMBER_COMPLEX128) {
    T t, c;
    if (ember_tensor_from_data(test_ctx(), v.data(), EMBER_COMPLEX128, shape.data(), (int)shape.size(), t.out()) != EMBER_OK) return T();
    if (ember_astype(test_ctx(), t, dt, c.out()) != EMBER_OK) return T();
    return c;
}
T rtensor(const std::vector<double>& v, std::vector<int64_t> shape, ember_dtype_t dt = EMBER_FLOAT64) { return make<double>(v, shape, dt); }

::testing::AssertionResult cclose(const std::vector<cd>& got, const std::vector<cd>& want, double tol) {
    if (got.size() != want.size()) return ::testing::AssertionFailure() << "size " << got.size() << " != " << want.size();
    double scale = 1;
    for (auto& w : want) scale = std::max(scale, std::abs(w));
    for (size_t i = 0; i < got.size(); ++i)
        if (!(std::abs(got[i] - want[i]) <= tol * scale))
            return ::testing::AssertionFailure() << "element " << i << ": got " << got[i] << ", want " << want[i] << " (tol " << tol * scale << ")";
    return ::testing::AssertionSuccess();
}

const int64_t sizes[] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 11, 12, 13, 16, 17, 25, 30, 31, 49, 64, 97, 100, 121, 128, 143, 210, 211, 256, 289, 1000, 1024, 1031};

TEST(SignalFft, MatchesDirectDftEveryLength) {
    for (int64_t n : sizes) {
        auto x = signal((size_t)n, (uint64_t)n);
        T t = ctensor(x, {n});
        T f, i;
        EM_OK(ember_fft(test_ctx(), t, -1, -1, EMBER_FFT_BACKWARD, f.out()));
        EXPECT_EQ(dtype_of(f), EMBER_COMPLEX128);
        double tol = 4e-15 * std::log2((double)n + 1) * std::sqrt((double)n);
        EXPECT_TRUE(cclose(values_c(f), dft(x, -1), tol)) << "n = " << n;
        EM_OK(ember_ifft(test_ctx(), t, -1, 0, EMBER_FFT_FORWARD, i.out()));  // unscaled inverse
        EXPECT_TRUE(cclose(values_c(i), dft(x, +1), tol)) << "n = " << n;
        // Round trip with the default (backward) norm.
        T back;
        EM_OK(ember_ifft(test_ctx(), f, -1, -1, EMBER_FFT_BACKWARD, back.out()));
        EXPECT_TRUE(cclose(values_c(back), x, tol)) << "n = " << n;
    }
}

TEST(SignalFft, Complex64AndRealInputsAndIntegers) {
    for (int64_t n : {5, 16, 37, 60}) {
        auto x = signal((size_t)n, 7);
        T t = ctensor(x, {n}, EMBER_COMPLEX64);
        T f;
        EM_OK(ember_fft(test_ctx(), t, -1, -1, EMBER_FFT_BACKWARD, f.out()));
        EXPECT_EQ(dtype_of(f), EMBER_COMPLEX64);
        std::vector<cd> x32;
        for (auto& c : x) x32.push_back(cd((float)c.real(), (float)c.imag()));
        EXPECT_TRUE(cclose(values_c(f), dft(x32, -1), 2e-6 * std::log2((double)n + 1))) << n;
    }
    T r = rtensor({1, 2, 3, 4}, {4}, EMBER_FLOAT32), i = rtensor({1, 2, 3, 4}, {4}, EMBER_INT32), f;
    EM_OK(ember_fft(test_ctx(), r, -1, -1, EMBER_FFT_BACKWARD, f.out()));
    EXPECT_EQ(dtype_of(f), EMBER_COMPLEX64);
    // Hand values: fft([1,2,3,4]) = [10, -2+2j, -2, -2-2j].
    EXPECT_TRUE(cclose(values_c(f), {{10, 0}, {-2, 2}, {-2, 0}, {-2, -2}}, 1e-7));
    EM_OK(ember_fft(test_ctx(), i, -1, -1, EMBER_FFT_BACKWARD, f.out()));
    EXPECT_EQ(dtype_of(f), EMBER_COMPLEX64);  // the default float is float32
    T h = rtensor({1, 2, 3, 4}, {4}, EMBER_FLOAT16);
    EM_OK(ember_fft(test_ctx(), h, -1, -1, EMBER_FFT_BACKWARD, f.out()));
    EXPECT_EQ(dtype_of(f), EMBER_COMPLEX64);
}

TEST(SignalFft, NormModes) {
    auto x = signal(12, 3);
    T t = ctensor(x, {12});
    auto want = dft(x, -1);
    T f;
    EM_OK(ember_fft(test_ctx(), t, -1, -1, EMBER_FFT_ORTHO, f.out()));
    std::vector<cd> w2;
    for (auto& w : want) w2.push_back(w / std::sqrt(12.0));
    EXPECT_TRUE(cclose(values_c(f), w2, 1e-14));
    double ex = 0, ey = 0;  // Parseval with the unitary transform
    for (auto& c : x) ex += std::norm(c);
    for (auto& c : values_c(f)) ey += std::norm(c);
    EXPECT_NEAR(ex, ey, 1e-12 * ex);
    EM_OK(ember_fft(test_ctx(), t, -1, -1, EMBER_FFT_FORWARD, f.out()));
    for (auto& w : w2) w /= std::sqrt(12.0);
    EXPECT_TRUE(cclose(values_c(f), w2, 1e-14));
    T back;
    EM_OK(ember_ifft(test_ctx(), f, -1, -1, EMBER_FFT_FORWARD, back.out()));
    EXPECT_TRUE(cclose(values_c(back), x, 1e-14));
    EM_OK(ember_fft(test_ctx(), t, -1, -1, EMBER_FFT_ORTHO, f.out()));
    EM_OK(ember_ifft(test_ctx(), f, -1, -1, EMBER_FFT_ORTHO, back.out()));
    EXPECT_TRUE(cclose(values_c(back), x, 1e-14));
}

TEST(SignalFft, LengthArgumentAndBatchedAxis) {
    auto x = signal(6, 11);
    T t = ctensor(x, {6});
    T f;
    EM_OK(ember_fft(test_ctx(), t, 4, -1, EMBER_FFT_BACKWARD, f.out()));  // truncate
    EXPECT_TRUE(cclose(values_c(f), dft({x.begin(), x.begin() + 4}, -1), 1e-14));
    EM_OK(ember_fft(test_ctx(), t, 9, -1, EMBER_FFT_BACKWARD, f.out()));  // zero-pad
    auto xp = x;
    xp.resize(9, cd(0, 0));
    EXPECT_TRUE(cclose(values_c(f), dft(xp, -1), 1e-14));
    // (5, 3) batch: transform along axis 0 is per column.
    auto m = signal(15, 5);
    T mt = ctensor(m, {5, 3});
    EM_OK(ember_fft(test_ctx(), mt, -1, 0, EMBER_FFT_BACKWARD, f.out()));
    EXPECT_EQ(shape_of(f), (std::vector<int64_t>{5, 3}));
    auto got = values_c(f);
    for (int c = 0; c < 3; ++c) {
        std::vector<cd> col, gcol;
        for (int r = 0; r < 5; ++r) {
            col.push_back(m[(size_t)(r * 3 + c)]);
            gcol.push_back(got[(size_t)(r * 3 + c)]);
        }
        EXPECT_TRUE(cclose(gcol, dft(col, -1), 1e-14)) << "column " << c;
    }
    // Strided (transposed) input gives the same as its contiguous copy.
    T tr, f2, f3, cp;
    EM_OK(ember_matrix_transpose(test_ctx(), mt, tr.out()));
    EM_OK(ember_fft(test_ctx(), tr, -1, -1, EMBER_FFT_BACKWARD, f2.out()));
    EM_OK(ember_copy(test_ctx(), tr, cp.out()));
    EM_OK(ember_fft(test_ctx(), cp, -1, -1, EMBER_FFT_BACKWARD, f3.out()));
    EXPECT_TRUE(cclose(values_c(f2), values_c(f3), 0));
}

TEST(SignalFft, RealTransforms) {
    for (int64_t n : {1, 2, 7, 8, 31, 64}) {
        auto xc = signal((size_t)n, 99);
        std::vector<double> x;
        std::vector<cd> xr;
        for (auto& c : xc) {
            x.push_back(c.real());
            xr.push_back(cd(c.real(), 0));
        }
        T t = rtensor(x, {n});
        T f;
        EM_OK(ember_rfft(test_ctx(), t, -1, -1, EMBER_FFT_BACKWARD, f.out()));
        EXPECT_EQ(shape_of(f), std::vector<int64_t>{n / 2 + 1});
        auto full = dft(xr, -1);
        EXPECT_TRUE(cclose(values_c(f), {full.begin(), full.begin() + n / 2 + 1}, 1e-13)) << n;
        T back;
        EM_OK(ember_irfft(test_ctx(), f, n, -1, EMBER_FFT_BACKWARD, back.out()));
        EXPECT_EQ(dtype_of(back), EMBER_FLOAT64);
        EXPECT_TRUE(all_close(values(back), x, 0, 1e-14)) << n;
        // ihfft(x) = conj(rfft(x)) / n; hfft inverts it.
        T ih, hb;
        EM_OK(ember_ihfft(test_ctx(), t, -1, -1, EMBER_FFT_BACKWARD, ih.out()));
        std::vector<cd> want;
        for (int64_t k = 0; k <= n / 2; ++k) want.push_back(std::conj(full[(size_t)k]) / (double)n);
        EXPECT_TRUE(cclose(values_c(ih), want, 1e-13)) << n;
        EM_OK(ember_hfft(test_ctx(), ih, n, -1, EMBER_FFT_BACKWARD, hb.out()));
        EXPECT_TRUE(all_close(values(hb), x, 0, 1e-14)) << n;
    }
    // irfft ignores the imaginary parts of the DC and Nyquist terms; hand case n = 4:
    // irfft([4, 0, 0]) = [1, 1, 1, 1]; with 1j added to X0 and X2 the result is unchanged.
    T y = ctensor({{4, 1}, {0, 0}, {0, 1}}, {3});
    T r;
    EM_OK(ember_irfft(test_ctx(), y, -1, -1, EMBER_FFT_BACKWARD, r.out()));
    EXPECT_TRUE(all_close(values(r), {1, 1, 1, 1}, 0, 1e-15));
    // float32 input gives complex64 / float32.
    T x32 = rtensor({1, 0, -1, 0}, {4}, EMBER_FLOAT32), f32, b32;
    EM_OK(ember_rfft(test_ctx(), x32, -1, -1, EMBER_FFT_BACKWARD, f32.out()));
    EXPECT_EQ(dtype_of(f32), EMBER_COMPLEX64);
    EXPECT_TRUE(cclose(values_c(f32), {{0, 0}, {2, 0}, {0, 0}}, 1e-7));
    EM_OK(ember_irfft(test_ctx(), f32, -1, -1, EMBER_FFT_BACKWARD, b32.out()));
    EXPECT_EQ(dtype_of(b32), EMBER_FLOAT32);
    EXPECT_TRUE(all_close(values(b32), {1, 0, -1, 0}, 0, 1e-7));
}

// Separable direct DFT over the given axes of a C-ordered 3-d array.
std::vector<cd> dft3(std::vector<cd> x, const int64_t (&shape)[3], std::vector<int> axes, int sign) {
    for (int ax : axes) {
        int64_t st[3] = {shape[1] * shape[2], shape[2], 1};
        int64_t n = shape[ax];
        std::vector<cd> y = x;
        for (int64_t i = 0; i < shape[0]; ++i)
            for (int64_t j = 0; j < shape[1]; ++j)
                for (int64_t k = 0; k < shape[2]; ++k) {
                    int64_t idx[3] = {i, j, k};
                    if (idx[ax] != 0) continue;
                    std::vector<cd> line;
                    for (int64_t m = 0; m < n; ++m) line.push_back(x[(size_t)(i * st[0] + j * st[1] + k * st[2] + m * st[ax])]);
                    auto f = dft(line, sign);
                    for (int64_t m = 0; m < n; ++m) y[(size_t)(i * st[0] + j * st[1] + k * st[2] + m * st[ax])] = f[(size_t)m];
                }
        x = y;
    }
    return x;
}

TEST(SignalFft, MultiDimensional) {
    const int64_t shape[3] = {3, 4, 5};
    auto x = signal(60, 21);
    T t = ctensor(x, {3, 4, 5});
    T f, b;
    EM_OK(ember_fftn(test_ctx(), t, nullptr, nullptr, 0, EMBER_FFT_BACKWARD, f.out()));
    EXPECT_TRUE(cclose(values_c(f), dft3(x, shape, {0, 1, 2}, -1), 1e-13));
    EM_OK(ember_ifftn(test_ctx(), f, nullptr, nullptr, 0, EMBER_FFT_BACKWARD, b.out()));
    EXPECT_TRUE(cclose(values_c(b), x, 1e-14));
    EM_OK(ember_fft2(test_ctx(), t, nullptr, nullptr, EMBER_FFT_BACKWARD, f.out()));
    EXPECT_TRUE(cclose(values_c(f), dft3(x, shape, {1, 2}, -1), 1e-13));
    int64_t axes[2] = {0, 2};
    EM_OK(ember_fft2(test_ctx(), t, nullptr, axes, EMBER_FFT_BACKWARD, f.out()));
    EXPECT_TRUE(cclose(values_c(f), dft3(x, shape, {0, 2}, -1), 1e-13));
    EM_OK(ember_ifft2(test_ctx(), f, nullptr, axes, EMBER_FFT_BACKWARD, b.out()));
    EXPECT_TRUE(cclose(values_c(b), x, 1e-14));
    // Real n-d: rfftn keeps n//2+1 along the last axis; irfftn with s restores the input.
    std::vector<double> xr;
    std::vector<cd> xrc;
    for (auto& c : x) {
        xr.push_back(c.real());
        xrc.push_back(cd(c.real(), 0));
    }
    T r = rtensor(xr, {3, 4, 5});
    EM_OK(ember_rfftn(test_ctx(), r, nullptr, nullptr, 0, EMBER_FFT_BACKWARD, f.out()));
    EXPECT_EQ(shape_of(f), (std::vector<int64_t>{3, 4, 3}));
    auto full = dft3(xrc, shape, {0, 1, 2}, -1);
    std::vector<cd> half;
    for (size_t i = 0; i < full.size(); ++i)
        if (i % 5 < 3) half.push_back(full[i]);
    EXPECT_TRUE(cclose(values_c(f), half, 1e-13));
    int64_t s[3] = {3, 4, 5};
    EM_OK(ember_irfftn(test_ctx(), f, s, nullptr, 3, EMBER_FFT_BACKWARD, b.out()));
    EXPECT_EQ(shape_of(b), (std::vector<int64_t>{3, 4, 5}));
    EXPECT_TRUE(all_close(values(b), xr, 0, 1e-14));
    EM_OK(ember_rfft2(test_ctx(), r, nullptr, nullptr, EMBER_FFT_ORTHO, f.out()));
    EXPECT_EQ(shape_of(f), (std::vector<int64_t>{3, 4, 3}));
    int64_t s2[2] = {4, 5};
    EM_OK(ember_irfft2(test_ctx(), f, s2, nullptr, EMBER_FFT_ORTHO, b.out()));
    EXPECT_TRUE(all_close(values(b), xr, 0, 1e-14));
    // s pads: fftn with s = (4, 6) on the last two axes of a (3, 4, 5) array.
    int64_t sp[2] = {4, 6};
    EM_OK(ember_fftn(test_ctx(), t, sp, nullptr, 2, EMBER_FFT_BACKWARD, f.out()));
    EXPECT_EQ(shape_of(f), (std::vector<int64_t>{3, 4, 6}));
}

TEST(SignalFft, LargePrimeIsFastAndAccurate) {
    const int64_t n = 100003;  // prime: Bluestein
    auto x = signal((size_t)n, 1);
    T t = ctensor(x, {n});
    T f;
    auto t0 = std::chrono::steady_clock::now();
    EM_OK(ember_fft(test_ctx(), t, -1, -1, EMBER_FFT_BACKWARD, f.out()));
    double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    EXPECT_LT(secs, 5.0) << "an O(n^2) transform would take minutes";
    auto got = values_c(f);
    for (int64_t k : {(int64_t)0, (int64_t)1, (int64_t)777, (int64_t)50001, n - 1}) {  // a few bins by direct summation
        cld s = 0;
        for (int64_t j = 0; j < n; ++j) {
            long double a = -2 * PI_L * (long double)((j * k) % n) / (long double)n;
            s += cld(x[(size_t)j].real(), x[(size_t)j].imag()) * cld(cosl(a), sinl(a));
        }
        EXPECT_LT(std::abs(got[(size_t)k] - cd((double)s.real(), (double)s.imag())), 1e-9) << "bin " << k;
    }
}

TEST(SignalFft, EdgeCases) {
    T one = ctensor({{2, -3}}, {1}), f;
    EM_OK(ember_fft(test_ctx(), one, -1, -1, EMBER_FFT_BACKWARD, f.out()));
    EXPECT_TRUE(cclose(values_c(f), {{2, -3}}, 0));
    T empty = ctensor({}, {0, 8});
    EM_OK(ember_fft(test_ctx(), empty, -1, -1, EMBER_FFT_BACKWARD, f.out()));
    EXPECT_EQ(shape_of(f), (std::vector<int64_t>{0, 8}));
    // A NaN poisons every bin; an inf makes every bin non-finite.
    T nan = rtensor({1, NAN, 0, 0}, {4}), inf = rtensor({INFINITY, 0, 0}, {3});
    EM_OK(ember_fft(test_ctx(), nan, -1, -1, EMBER_FFT_BACKWARD, f.out()));
    for (auto& c : values_c(f)) EXPECT_TRUE(std::isnan(c.real()) || std::isnan(c.imag())) << c;
    EM_OK(ember_fft(test_ctx(), inf, -1, -1, EMBER_FFT_BACKWARD, f.out()));
    for (auto& c : values_c(f)) EXPECT_FALSE(std::isfinite(c.real()) && std::isfinite(c.imag())) << c;
}

TEST(SignalFft, Errors) {
    T t = ctensor(signal(4, 1), {4}), s0, out;
    ember_tensor_t* o = nullptr;
    EM_FAILS(ember_fft(test_ctx(), t, 0, -1, EMBER_FFT_BACKWARD, &o), EMBER_ERR_INVALID_ARGUMENT, "ember_fft");
    EM_FAILS(ember_ifft(test_ctx(), t, -1, 1, EMBER_FFT_BACKWARD, &o), EMBER_ERR_INDEX, "ember_ifft");
    EM_FAILS(ember_rfft(test_ctx(), t, -1, -1, (ember_fft_norm_t)7, &o), EMBER_ERR_INVALID_ARGUMENT, "ember_rfft");
    EM_OK(ember_scalar_c128(test_ctx(), 1, 1, s0.out()));
    EM_FAILS(ember_fft(test_ctx(), s0, -1, -1, EMBER_FFT_BACKWARD, &o), EMBER_ERR_SHAPE, "ember_fft");
    EM_FAILS(ember_ihfft(test_ctx(), t, -1, -1, EMBER_FFT_BACKWARD, &o), EMBER_ERR_UNSUPPORTED_DTYPE, "ember_ihfft");
    EM_FAILS(ember_fft2(test_ctx(), t, nullptr, nullptr, EMBER_FFT_BACKWARD, &o), EMBER_ERR_SHAPE, "ember_fft2");
    T m1 = ctensor({{1, 0}}, {1});
    EM_FAILS(ember_irfft(test_ctx(), m1, -1, -1, EMBER_FFT_BACKWARD, &o), EMBER_ERR_INVALID_ARGUMENT, "ember_irfft");
    int64_t rep[2] = {0, 0};
    T m = ctensor(signal(4, 1), {2, 2});
    EM_FAILS(ember_fftn(test_ctx(), m, nullptr, rep, 2, EMBER_FFT_BACKWARD, &o), EMBER_ERR_INVALID_ARGUMENT, "ember_fftn");
    EM_FAILS(ember_fftn(test_ctx(), m, nullptr, rep, 3, EMBER_FFT_BACKWARD, &o), EMBER_ERR_INVALID_ARGUMENT, "ember_fftn");
    EM_FAILS(ember_fftfreq(test_ctx(), 4, 0.0, EMBER_DTYPE_DEFAULT, &o), EMBER_ERR_INVALID_ARGUMENT, "ember_fftfreq");
    EM_FAILS(ember_rfftfreq(test_ctx(), 0, 1.0, EMBER_DTYPE_DEFAULT, &o), EMBER_ERR_INVALID_ARGUMENT, "ember_rfftfreq");
    EM_FAILS(ember_fftfreq(test_ctx(), 4, 1.0, EMBER_INT32, &o), EMBER_ERR_UNSUPPORTED_DTYPE, "ember_fftfreq");
    EM_FAILS(ember_fft(test_ctx(), nullptr, -1, -1, EMBER_FFT_BACKWARD, &o), EMBER_ERR_INVALID_ARGUMENT, "ember_fft");
    EXPECT_EQ(o, nullptr);
}

TEST(SignalFreq, HandValues) {
    T f;
    EM_OK(ember_fftfreq(test_ctx(), 5, 0.5, EMBER_FLOAT64, f.out()));
    EXPECT_TRUE(all_close(values(f), {0, 0.4, 0.8, -0.8, -0.4}, 1e-15));
    EM_OK(ember_fftfreq(test_ctx(), 4, 1.0, EMBER_DTYPE_DEFAULT, f.out()));
    EXPECT_EQ(dtype_of(f), EMBER_FLOAT32);
    EXPECT_TRUE(all_close(values(f), {0, 0.25, -0.5, -0.25}, 0));
    EM_OK(ember_rfftfreq(test_ctx(), 4, 1.0, EMBER_FLOAT64, f.out()));
    EXPECT_TRUE(all_close(values(f), {0, 0.25, 0.5}, 0));
    EM_OK(ember_rfftfreq(test_ctx(), 5, 0.1, EMBER_FLOAT64, f.out()));
    EXPECT_TRUE(all_close(values(f), {0, 2, 4}, 1e-15));
    EM_OK(ember_fftfreq(test_ctx(), 1, 1.0, EMBER_FLOAT64, f.out()));
    EXPECT_TRUE(all_close(values(f), {0}, 0));
}

TEST(SignalShift, HandValues) {
    T x = rtensor({0, 1, 2, 3, 4}, {5}, EMBER_INT64), y, z;
    EM_OK(ember_fftshift(test_ctx(), x, nullptr, 0, y.out()));
    EXPECT_TRUE(all_close(values(y), {3, 4, 0, 1, 2}, 0));
    EXPECT_EQ(dtype_of(y), EMBER_INT64);
    EM_OK(ember_ifftshift(test_ctx(), x, nullptr, 0, z.out()));
    EXPECT_TRUE(all_close(values(z), {2, 3, 4, 0, 1}, 0));
    EM_OK(ember_ifftshift(test_ctx(), y, nullptr, 0, z.out()));
    EXPECT_TRUE(all_close(values(z), {0, 1, 2, 3, 4}, 0));
    T m = rtensor({0, 1, 2, 3, 4, 5}, {2, 3}), s;
    EM_OK(ember_fftshift(test_ctx(), m, nullptr, 0, s.out()));
    EXPECT_TRUE(all_close(values(s), {5, 3, 4, 2, 0, 1}, 0));
    int64_t ax = 1;
    EM_OK(ember_fftshift(test_ctx(), m, &ax, 1, s.out()));
    EXPECT_TRUE(all_close(values(s), {2, 0, 1, 5, 3, 4}, 0));
    ax = 5;
    ember_tensor_t* o = nullptr;
    EM_FAILS(ember_fftshift(test_ctx(), m, &ax, 1, &o), EMBER_ERR_INDEX, "ember_fftshift");
}

TEST(SignalOps, ListedAsAvailableOnReference) {
    for (const char* op : {"fft_c2c", "fft", "ifft", "rfft", "irfft", "hfft", "ihfft", "fft2", "ifft2", "rfft2", "irfft2", "fftn", "ifftn",
                           "rfftn", "irfftn", "fftfreq", "rfftfreq", "fftshift", "ifftshift"}) {
        const char* binding = nullptr;
        EM_OK(ember_op_binding("reference", op, &binding));
        EXPECT_STRNE(binding, "unsupported") << op;
    }
}

}  // namespace
