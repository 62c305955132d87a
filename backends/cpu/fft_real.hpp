// The two steps that turn a complex FFT of half the length into a real one (n = 2m):
//   forward: z[j] = x[2j] + i x[2j+1], Z = DFT_m(z); with E = DFT(evens), O = DFT(odds),
//            E[k] = (Z[k] + conj Z[m-k]) / 2, O[k] = (Z[k] - conj Z[m-k]) / 2i, and
//            X[k] = E[k] + w^k O[k] for k = 0..m (w = e^{-2 pi i / n}, Z periodic in m).
//   inverse: from X[0..m], Z[k] = (X[k] + conj X[m-k]) + i w^{-k} (X[k] - conj X[m-k]) for
//            k < m; the unnormalised inverse DFT_m of Z holds x[2j] + i x[2j+1]. The
//            imaginary parts of X[0] and X[m] are taken as 0 (the composite ignores them).
// P is a pair {re, im} of doubles (one line, interleaved: the ends of real_step_line's
// ranges, simd_fft.hpp) or of vectors (a vector's width of lines, one per lane).
// Included inside an anonymous namespace, once per ISA, by simd_fft.hpp. w[2k], w[2k+1] =
// cos, sin of -2 pi k / n for k <= m.

// X[k] for k in [k0, k1) (k1 <= m + 1) into x[k - k0], from z[0..m); x and z must not overlap.
template <class P>
void rfft_split(int64_t m, const double* w, const P* z, P* x, int64_t k0, int64_t k1) {
    for (int64_t k = k0; k < k1; ++k) {
        const P a = z[k == m ? 0 : k], b = z[k == 0 ? 0 : m - k];
        const auto er = 0.5 * (a.re + b.re), ei = 0.5 * (a.im - b.im);
        const auto orr = 0.5 * (a.im + b.im), oi = 0.5 * (b.re - a.re);
        x[k - k0].re = er + (orr * w[2 * k] - oi * w[2 * k + 1]);
        x[k - k0].im = ei + (oi * w[2 * k] + orr * w[2 * k + 1]);
    }
}

// conj(Z[k]) for k in [k0, k1) (k1 <= m) into zc[k - k0], from x[0..m]: conjugated, so that
// a forward DFT of zc gives the conjugate of the inverse one. x and zc must not overlap.
template <class P>
void irfft_merge(int64_t m, const double* w, const P* x, P* zc, int64_t k0, int64_t k1) {
    for (int64_t k = k0; k < k1; ++k) {
        if (k == 0) {
            const auto a = x[0].re, b = x[m].re;
            zc[0].re = a + b;
            zc[0].im = b - a;
            continue;
        }
        const P a = x[k], b = x[m - k];
        const auto sr = a.re + b.re, si = a.im - b.im, dr = a.re - b.re, di = a.im + b.im;
        const auto tr = dr * w[2 * k] + di * w[2 * k + 1], ti = di * w[2 * k] - dr * w[2 * k + 1];
        zc[k - k0].re = sr - ti;
        zc[k - k0].im = -(si + tr);
    }
}
