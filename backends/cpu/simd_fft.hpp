// Complex FFTs of a vector's width of lines at once (included by simd_impl.cpp inside its
// anonymous namespace, once per ISA). Lane l of every vector belongs to line l, so the
// scalar algorithm, run on vectors, transforms W<double> lines per pass: no shuffles, and
// every radix the same code. The algorithm is the reference's (ref_fft.cpp): mixed-radix
// decimation in time, radix 4 first, in float64, with the plan's twiddles. Results differ
// from the reference only where FMA fuses a product into its sum (last bits of float64).
//
// Data: element k of the block is the vector of real parts, then the vector of imaginary
// parts, of the lines' k-th values (FftLinesFn in isa.hpp).
struct CVec {
    V<double> re, im;
};

inline __attribute__((always_inline)) CVec fft_twiddled(const CVec& a, const double* w) {
    return {a.re * w[0] - a.im * w[1], a.re * w[1] + a.im * w[0]};
}

// out[0..n) = DFT of in[0], in[stride], ... (n terms), the plan's factors from fi on.
void fft_pass(const FftPlan& plan, const CVec* in, int64_t stride, CVec* out, int64_t n, int fi) {
    if (n == 1) {
        out[0] = in[0];
        return;
    }
    const int64_t p = plan.factors[fi], m = n / p;
    if (m == 1)
        for (int64_t r = 0; r < p; ++r) out[r] = in[r * stride];
    else
        for (int64_t r = 0; r < p; ++r) fft_pass(plan, in + r * stride, stride * p, out + r * m, m, fi + 1);
    const int64_t step = plan.n / n, pstep = plan.n / p;
    const double* w = plan.twiddles;  // (re, im) of exp(-2 pi i j / plan.n) at w + 2 j
    if (p == 4) {
        for (int64_t k = 0; k < m; ++k) {
            const CVec a0 = out[k], a1 = fft_twiddled(out[m + k], w + 2 * k * step);
            const CVec a2 = fft_twiddled(out[2 * m + k], w + 4 * k * step), a3 = fft_twiddled(out[3 * m + k], w + 6 * k * step);
            const CVec s02{a0.re + a2.re, a0.im + a2.im}, d02{a0.re - a2.re, a0.im - a2.im};
            const CVec s13{a1.re + a3.re, a1.im + a3.im}, d13{a1.re - a3.re, a1.im - a3.im};
            // -i * d13 = (d13.im, -d13.re)
            out[k] = {s02.re + s13.re, s02.im + s13.im};
            out[k + m] = {d02.re + d13.im, d02.im - d13.re};
            out[k + 2 * m] = {s02.re - s13.re, s02.im - s13.im};
            out[k + 3 * m] = {d02.re - d13.im, d02.im + d13.re};
        }
        return;
    }
    if (p == 2) {
        for (int64_t k = 0; k < m; ++k) {
            const CVec a = out[k], b = fft_twiddled(out[m + k], w + 2 * k * step);
            out[k] = {a.re + b.re, a.im + b.im};
            out[k + m] = {a.re - b.re, a.im - b.im};
        }
        return;
    }
    CVec t[kFftMaxRadix];
    for (int64_t k = 0; k < m; ++k) {
        for (int64_t r = 0; r < p; ++r) t[r] = fft_twiddled(out[r * m + k], w + 2 * r * k * step);
        for (int64_t q = 0; q < p; ++q) {
            CVec s = t[0];
            for (int64_t r = 1; r < p; ++r) {
                const CVec x = fft_twiddled(t[r], w + 2 * ((r * q % p) * pstep));
                s.re += x.re;
                s.im += x.im;
            }
            out[k + q * m] = s;
        }
    }
}

void fft_lines(const FftPlan& plan, const double* in, double* out) {
    fft_pass(plan, (const CVec*)in, 1, (CVec*)out, plan.n, 0);
}

#include "fft_real.hpp"

void rfft_split_lines(int64_t m, const double* w, const double* in, double* out, int64_t k0, int64_t k1) {
    rfft_split(m, w, (const CVec*)in, (CVec*)out, k0, k1);
}
void irfft_merge_lines(int64_t m, const double* w, const double* in, double* out, int64_t k0, int64_t k1) {
    irfft_merge(m, w, (const CVec*)in, (CVec*)out, k0, k1);
}
