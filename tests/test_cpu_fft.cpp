// The cpu backend's FFT (fft.cpp: lines a vector's width at a time, float64 inside) against
// the reference backend on random complex data. Both run the same mixed-radix steps; they
// differ in rounding only (FMA, radix 3 and 5 pairing their terms, and the order of the sums
// where a line is split in two), so the tolerances are a few float64 rounding errors of the
// largest term (complex128), and one float32 ulp of the result plus that (complex64, rounded
// once from float64: two float64 values either side of a rounding boundary round one ulp
// apart).
#include <string>
#include <vector>

#include "cpu_contexts.hpp"
#include "ember/ember_signal.h"

namespace {

// Random complex values of dtype dt (real and imaginary parts uniform in [-1, 1]).
T complex_tensor(ember_dtype_t dt, std::vector<int64_t> shape, unsigned seed) {
    size_t count = 1;
    for (int64_t s : shape) count *= (size_t)s;
    const auto parts = randf(2 * count, -1, 1, seed);
    const std::vector<double> wide(parts.begin(), parts.end());
    T t;
    EXPECT_EQ(ember_tensor_from_data(cpu(), dt == EMBER_COMPLEX64 ? (const void*)parts.data() : (const void*)wide.data(), dt, shape.data(),
                                     (int)shape.size(), t.out()),
              EMBER_OK)
        << ember_last_error();
    return t;
}

// The transform along `axis` (forward, or the unscaled inverse) on cpu and on the reference,
// real and imaginary parts compared.
void expect_fft_matches(const ember_tensor_t* x, int64_t axis, bool inverse, int64_t n, const std::string& what) {
    T got, want, got_im, want_im;
    if (inverse) {
        EM_OK(ember_ifft(cpu(), x, -1, axis, EMBER_FFT_FORWARD, got.out()));
        EM_OK(ember_ifft(ref(), as_ref(x), -1, axis, EMBER_FFT_FORWARD, want.out()));
    } else {
        EM_OK(ember_fft(cpu(), x, -1, axis, EMBER_FFT_BACKWARD, got.out()));
        EM_OK(ember_fft(ref(), as_ref(x), -1, axis, EMBER_FFT_BACKWARD, want.out()));
    }
    EXPECT_EQ(backend_of(got), "cpu") << what;
    const bool single = dtype_of(x) == EMBER_COMPLEX64;
    const double rtol = single ? 1.2e-7 : 1e-14, atol = (single ? 1e-12 : 1e-14) * (double)n;
    expect_close(got, want, rtol, atol, what);
    EM_OK(ember_imag(ref(), as_ref(got), got_im.out()));
    EM_OK(ember_imag(ref(), as_ref(want), want_im.out()));
    expect_close(got_im, want_im, rtol, atol, what + " (imaginary parts)");
}

TEST(CpuLarge, FftMatchesReference) {
    NEED_CPU();
    unsigned seed = 300;
    for (ember_dtype_t dt : {EMBER_COMPLEX64, EMBER_COMPLEX128}) {
        const std::string d = ember_dtype_name(dt);
        // Every radix (4, 2, 3, 5, 7, 11, 13 and their mixes), lengths left to Bluestein (17,
        // 701 prime, 1026 = 2 * 27 * 19), and 11 lines: a last block part empty on every
        // vector width. 78 and 143 split into n x 1 as one line.
        for (int64_t n : {1, 2, 3, 4, 5, 6, 7, 8, 9, 11, 12, 13, 16, 17, 24, 60, 64, 78, 100, 128, 143, 243, 701, 1000, 1024, 1026, 4096})
            for (bool inverse : {false, true}) {
                const std::string what = d + " n=" + std::to_string(n) + (inverse ? " inverse" : " forward");
                T rows = complex_tensor(dt, {11, n}, seed++), cols = complex_tensor(dt, {n, 11}, seed++);
                expect_fft_matches(rows, -1, inverse, n, what + " along rows");
                expect_fft_matches(cols, 0, inverse, n, what + " down columns (strided lines)");
                // One line: split in two from n = 64 where the vectors have 4 lanes or more.
                T one = complex_tensor(dt, {n}, seed++);
                expect_fft_matches(one, 0, inverse, n, what + " one line");
            }
        // Views: a transposed operand and one with every other column, three dims.
        T x = complex_tensor(dt, {3, 40, 64}, seed++), xt, stepped;
        int64_t perm[3] = {0, 2, 1}, st[3] = {0, 0, 0}, sp[3] = {EMBER_SLICE_END, EMBER_SLICE_END, EMBER_SLICE_END}, step[3] = {1, 1, 2};
        EM_OK(ember_permute_dims(cpu(), x, perm, 3, xt.out()));
        EM_OK(ember_slice(cpu(), x, st, sp, step, 3, stepped.out()));
        expect_fft_matches(xt, -1, false, 40, d + " transposed view");
        expect_fft_matches(xt, 1, true, 64, d + " transposed view, middle axis");
        expect_fft_matches(stepped, -1, false, 32, d + " every other column");
        expect_fft_matches(stepped, 0, false, 3, d + " every other column, first axis");
        // Lines longer than 65536, split in two (n1 x n2: 1024 x 128, 729 x 243) whatever the
        // lanes; two lines, the second at an offset.
        for (int64_t n : {131072, 177147}) {
            T two = complex_tensor(dt, {2, n}, seed++);
            for (bool inverse : {false, true})
                expect_fft_matches(two, -1, inverse, n, d + " n=" + std::to_string(n) + (inverse ? " inverse" : " forward") + ", split");
        }
        T long_cols = complex_tensor(dt, {131072, 3}, seed++);
        expect_fft_matches(long_cols, 0, false, 131072, d + " n=131072 down columns, split");
        // Enough lines for the pool (and an odd count of vector blocks).
        T big = complex_tensor(dt, {333, 1024}, seed++);
        expect_fft_matches(big, -1, false, 1024, d + " 333 lines across the pool");
        expect_fft_matches(big, 0, true, 333, d + " 1024 lines of 333 (Bluestein) across the pool");
        // Bluestein in rounds of lines (64 lines of 4099 per round: three rounds, the last
        // of two), along rows and down columns.
        T rounds = complex_tensor(dt, {130, 4099}, seed++), rounds_t = complex_tensor(dt, {4099, 130}, seed++);
        expect_fft_matches(rounds, -1, false, 4099, d + " 130 lines of 4099 (Bluestein, in rounds)");
        expect_fft_matches(rounds_t, 0, true, 4099, d + " 130 lines of 4099 down columns (Bluestein, in rounds)");
    }
}


// Random real values in [-1, 1] of dtype dt.
T real_tensor(ember_dtype_t dt, std::vector<int64_t> shape, unsigned seed) {
    size_t count = 1;
    for (int64_t s : shape) count *= (size_t)s;
    return tensor(cpu(), randf(count, -1, 1, seed), shape, dt);
}

// rfft of x (n: -1 or a length to cut or pad to) and irfft of a spectrum y to n points,
// along `axis`, on cpu and on the reference (the composites over complex transforms);
// tolerances as expect_fft_matches's, by the precision of the complex side, with twice the
// relative one where the norm scales the result (a second rounding on both sides).
void expect_rfft_matches(const ember_tensor_t* x, int64_t n, int64_t axis, ember_fft_norm_t norm, const std::string& what) {
    T got, want, got_im, want_im;
    EM_OK(ember_rfft(cpu(), x, n, axis, norm, got.out()));
    EM_OK(ember_rfft(ref(), as_ref(x), n, axis, norm, want.out()));
    EXPECT_EQ(backend_of(got), "cpu") << what;
    const int64_t len = n > 0 ? n : shape_of(x)[(size_t)(axis < 0 ? axis + (int64_t)shape_of(x).size() : axis)];
    const bool single = dtype_of(got) == EMBER_COMPLEX64;
    const double rtol = (single ? 1.2e-7 : 1e-14) * (norm == EMBER_FFT_BACKWARD ? 1 : 2), atol = (single ? 1e-12 : 1e-14) * (double)len;
    expect_close(got, want, rtol, atol, "rfft " + what);
    EM_OK(ember_imag(ref(), as_ref(got), got_im.out()));
    EM_OK(ember_imag(ref(), as_ref(want), want_im.out()));
    expect_close(got_im, want_im, rtol, atol, "rfft " + what + " (imaginary parts)");
}
void expect_irfft_matches(const ember_tensor_t* y, int64_t n, int64_t axis, ember_fft_norm_t norm, const std::string& what) {
    T got, want;
    EM_OK(ember_irfft(cpu(), y, n, axis, norm, got.out()));
    EM_OK(ember_irfft(ref(), as_ref(y), n, axis, norm, want.out()));
    EXPECT_EQ(backend_of(got), "cpu") << what;
    const std::vector<int64_t> shape = shape_of(got);
    const int64_t len = shape[(size_t)(axis < 0 ? axis + (int64_t)shape.size() : axis)];
    const bool single = dtype_of(got) == EMBER_FLOAT32;
    const double rtol = (single ? 1.2e-7 : 1e-14) * (norm == EMBER_FFT_FORWARD ? 1 : 2), atol = (single ? 1e-12 : 1e-14) * (double)len;
    expect_close(got, want, rtol, atol, "irfft " + what);
}

// rfft and irfft have kernels of their own on cpu (fft.cpp): an even length n = 2m through
// a complex transform of length m and the split (or merge) of fft_real.hpp, a block of lines
// at a time, or through scratch lines where m is long, Bluestein's, or the lines are too few
// for a block; an odd length through the complex transform of length n. The spectra are
// random in both parts, so the imaginary parts of X[0] and X[m] that irfft ignores are
// there too.
TEST(CpuLarge, RealFftMatchesReference) {
    NEED_CPU();
    unsigned seed = 500;
    for (ember_dtype_t dt : {EMBER_FLOAT32, EMBER_FLOAT64}) {
        const ember_dtype_t ct = dt == EMBER_FLOAT32 ? EMBER_COMPLEX64 : EMBER_COMPLEX128;
        const std::string d = ember_dtype_name(dt);
        // Odd lengths (17 through Bluestein's, 1001 = 7 * 11 * 13 through radices); even ones
        // whose m is 1, of every radix, or left to Bluestein (17 in 34, 701 in 1402, 2049 =
        // 3 * 683 in 4098); 11 lines: a last block part empty on every vector width.
        for (int64_t n : {1, 2, 3, 4, 5, 6, 7, 8, 10, 12, 16, 17, 26, 34, 64, 78, 100, 128, 130, 1000, 1001, 1024, 1402, 4098}) {
            const std::string what = d + " n=" + std::to_string(n);
            T rows = real_tensor(dt, {11, n}, seed++), cols = real_tensor(dt, {n, 11}, seed++), one = real_tensor(dt, {n}, seed++);
            expect_rfft_matches(rows, -1, -1, EMBER_FFT_BACKWARD, what + " along rows");
            expect_rfft_matches(cols, -1, 0, EMBER_FFT_BACKWARD, what + " down columns");
            expect_rfft_matches(one, -1, 0, EMBER_FFT_BACKWARD, what + " one line");
            T yrows = complex_tensor(ct, {11, n / 2 + 1}, seed++), ycols = complex_tensor(ct, {n / 2 + 1, 11}, seed++);
            T yone = complex_tensor(ct, {n / 2 + 1}, seed++);
            expect_irfft_matches(yrows, n, -1, EMBER_FFT_FORWARD, what + " along rows");
            expect_irfft_matches(ycols, n, 0, EMBER_FFT_FORWARD, what + " down columns");
            expect_irfft_matches(yone, n, 0, EMBER_FFT_FORWARD, what + " one line");
        }
        // Views: a transposed operand and one with every other column, three dims.
        T x = real_tensor(dt, {3, 40, 64}, seed++), xt, stepped;
        int64_t perm[3] = {0, 2, 1}, st[3] = {0, 0, 0}, sp[3] = {EMBER_SLICE_END, EMBER_SLICE_END, EMBER_SLICE_END}, step[3] = {1, 1, 2};
        EM_OK(ember_permute_dims(cpu(), x, perm, 3, xt.out()));
        EM_OK(ember_slice(cpu(), x, st, sp, step, 3, stepped.out()));
        expect_rfft_matches(xt, -1, -1, EMBER_FFT_BACKWARD, d + " transposed view");
        expect_rfft_matches(xt, -1, 1, EMBER_FFT_BACKWARD, d + " transposed view, middle axis");
        expect_rfft_matches(stepped, -1, -1, EMBER_FFT_BACKWARD, d + " every other column");
        T y = complex_tensor(ct, {3, 40, 64}, seed++), yt, ystepped;
        EM_OK(ember_permute_dims(cpu(), y, perm, 3, yt.out()));
        EM_OK(ember_slice(cpu(), y, st, sp, step, 3, ystepped.out()));
        expect_irfft_matches(yt, 78, -1, EMBER_FFT_FORWARD, d + " transposed view");
        expect_irfft_matches(yt, 64, 1, EMBER_FFT_FORWARD, d + " transposed view, middle axis");
        expect_irfft_matches(ystepped, 62, -1, EMBER_FFT_FORWARD, d + " every other column");
        T xr, yr;  // negative strides along the axis
        const int64_t last = 2;
        EM_OK(ember_flip(cpu(), x, &last, 1, xr.out()));
        EM_OK(ember_flip(cpu(), y, &last, 1, yr.out()));
        expect_rfft_matches(xr, -1, -1, EMBER_FFT_BACKWARD, d + " reversed lines");
        expect_irfft_matches(yr, 126, -1, EMBER_FFT_FORWARD, d + " reversed lines");
        // Long lines (m = 131072 split in two, m = 177147 = 3^11), two lines and down columns;
        // enough lines for the pool.
        for (int64_t n : {262144, 354294}) {
            T two = real_tensor(dt, {2, n}, seed++);
            expect_rfft_matches(two, -1, -1, EMBER_FFT_BACKWARD, d + " n=" + std::to_string(n) + ", split");
            T spec = complex_tensor(ct, {2, n / 2 + 1}, seed++);
            expect_irfft_matches(spec, n, -1, EMBER_FFT_FORWARD, d + " n=" + std::to_string(n) + ", split");
        }
        T long_cols = real_tensor(dt, {262144, 3}, seed++);
        expect_rfft_matches(long_cols, -1, 0, EMBER_FFT_BACKWARD, d + " n=262144 down columns");
        T big = real_tensor(dt, {333, 1024}, seed++), big_spec = complex_tensor(ct, {333, 513}, seed++);
        expect_rfft_matches(big, -1, -1, EMBER_FFT_BACKWARD, d + " 333 lines across the pool");
        expect_rfft_matches(big, -1, 0, EMBER_FFT_BACKWARD, d + " 1024 lines of 333 across the pool");
        expect_irfft_matches(big_spec, 1024, -1, EMBER_FFT_FORWARD, d + " 333 lines across the pool");
        expect_irfft_matches(big_spec, 665, 0, EMBER_FFT_FORWARD, d + " 513 lines of 665 across the pool");
        // Even lines through scratch in rounds (61680 lines of m = 17 per round, two rounds).
        T many = real_tensor(dt, {61681, 34}, seed++), many_spec = complex_tensor(ct, {61681, 18}, seed++);
        expect_rfft_matches(many, -1, -1, EMBER_FFT_BACKWARD, d + " 61681 lines of 34 (rounds)");
        expect_irfft_matches(many_spec, 34, -1, EMBER_FFT_FORWARD, d + " 61681 lines of 34 (rounds)");
        // Odd lines through scratch in rounds (53 lines of 19683 = 3^9 per round: two rounds).
        T rounds = real_tensor(dt, {60, 19683}, seed++), rounds_spec = complex_tensor(ct, {60, 9842}, seed++);
        expect_rfft_matches(rounds, -1, -1, EMBER_FFT_BACKWARD, d + " 60 lines of 19683 (rounds)");
        expect_irfft_matches(rounds_spec, 19683, -1, EMBER_FFT_FORWARD, d + " 60 lines of 19683 (rounds)");
    }
}

// What the core does around the kernels: inputs of other dtypes (cast to float32/float64,
// complex input: its real part), n cutting or zero-padding the lines, the norms' scales, and the
// transforms written over rfft and irfft (hfft, ihfft, rfftn, irfftn).
TEST(CpuBackend, RealFftThroughTheCore) {
    NEED_CPU();
    T x = real_tensor(EMBER_FLOAT64, {6, 20}, 900), xi, xh, x100, hundred;
    EM_OK(ember_scalar_f64(cpu(), 100.0, hundred.out()));
    EM_OK(ember_multiply(cpu(), x, hundred, x100.out()));
    EM_OK(ember_astype(cpu(), x100, EMBER_INT32, xi.out()));  // integers in (-100, 100)
    EM_OK(ember_astype(cpu(), x, EMBER_FLOAT16, xh.out()));
    T spec = complex_tensor(EMBER_COMPLEX128, {6, 20}, 901);
    for (auto [name, t] : {std::pair<const char*, const ember_tensor_t*>{"float64", x}, {"int32", xi}, {"float16", xh}, {"complex128", spec}})
        for (int64_t n : {int64_t(-1), int64_t(7), int64_t(32), int64_t(64)})  // 64: zero-padded (irfft: 20 terms to 33)
            for (ember_fft_norm_t norm : {EMBER_FFT_BACKWARD, EMBER_FFT_ORTHO, EMBER_FFT_FORWARD}) {
                const std::string what = std::string(name) + " n=" + std::to_string(n) + " norm=" + std::to_string((int)norm);
                expect_rfft_matches(t, n, -1, norm, what);
                if (n > 0) expect_irfft_matches(t, n, -1, norm, what);
            }
    expect_irfft_matches(spec, -1, 0, EMBER_FFT_ORTHO, "default n");
    T got, want;
    EM_OK(ember_hfft(cpu(), spec, 30, -1, EMBER_FFT_BACKWARD, got.out()));
    EM_OK(ember_hfft(ref(), as_ref(spec), 30, -1, EMBER_FFT_BACKWARD, want.out()));
    expect_close(got, want, 1e-14, 1e-13, "hfft");
    EM_OK(ember_ihfft(cpu(), x, -1, 0, EMBER_FFT_ORTHO, got.out()));
    EM_OK(ember_ihfft(ref(), as_ref(x), -1, 0, EMBER_FFT_ORTHO, want.out()));
    expect_close(got, want, 1e-14, 1e-13, "ihfft");
    EM_OK(ember_rfftn(cpu(), x, nullptr, nullptr, 0, EMBER_FFT_BACKWARD, got.out()));
    EM_OK(ember_rfftn(ref(), as_ref(x), nullptr, nullptr, 0, EMBER_FFT_BACKWARD, want.out()));
    expect_close(got, want, 1e-14, 1e-12, "rfftn");
    const int64_t s[2] = {6, 21};
    EM_OK(ember_irfftn(cpu(), spec, s, nullptr, 2, EMBER_FFT_FORWARD, got.out()));
    EM_OK(ember_irfftn(ref(), as_ref(spec), s, nullptr, 2, EMBER_FFT_FORWARD, want.out()));
    expect_close(got, want, 1e-14, 1e-12, "irfftn");
    for (const char* op : {"rfft", "irfft"}) {
        const char* binding = nullptr;
        EM_OK(ember_op_binding("cpu", op, &binding));
        EXPECT_STREQ(binding, "native") << op;
    }
}

}  // namespace
