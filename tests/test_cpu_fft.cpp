// The cpu backend's FFT (fft.cpp: lines a vector's width at a time, float64 inside) against
// the reference backend on random complex data. Both run the same mixed-radix sums; they
// differ in rounding only (FMA, and the order of the sums where a line is split in two), so
// the tolerances are a few float64 rounding errors of the largest term (complex128), and one
// float32 ulp of the result plus that (complex64, rounded once from float64: two float64
// values either side of a rounding boundary round one ulp apart).
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

}  // namespace
