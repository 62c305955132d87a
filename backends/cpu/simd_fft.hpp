// Complex FFTs of a vector's width of lines at once (included by simd_impl.cpp inside its
// anonymous namespace, once per ISA). Lane l of every vector belongs to line l, so the
// scalar algorithm, run on vectors, transforms W<double> lines per pass: no shuffles, and
// every line the same code. The algorithm is the reference's (ref_fft.cpp): mixed-radix
// decimation in time, in float64, with the plan's twiddles, radix 4 first (and 8 last
// where the reference ends in 4 and 2: fft.cpp's fft_factors; two radix-4 butterflies and a
// turn). Radix 3 and 5 pair their terms (t1 + t4, t1 - t4, ...) where the reference sums p products per
// output: a third of the multiplications (one line of 500000 = 2^5 5^6: 9-16 -> 5.1-6.6 ms
// on Zen 3). Results differ from the reference in rounding only: the sums' order, and FMA
// fusing a product into its sum (last bits of float64).
//
// Data: element k of the block is the vector of real parts, then the vector of imaginary
// parts, of the lines' k-th values (FftLinesFn in isa.hpp).
struct CVec {
    V<double> re, im;
};

inline __attribute__((always_inline)) CVec fft_twiddled(const CVec& a, const double* w) {
    return {a.re * w[0] - a.im * w[1], a.re * w[1] + a.im * w[0]};
}

// The radix-4 butterfly on twiddled terms, into o[0], o[m], o[2m], o[3m].
inline __attribute__((always_inline)) void butterfly4(const CVec a0, const CVec a1, const CVec a2, const CVec a3, CVec* o, int64_t m) {
    const CVec s02{a0.re + a2.re, a0.im + a2.im}, d02{a0.re - a2.re, a0.im - a2.im};
    const CVec s13{a1.re + a3.re, a1.im + a3.im}, d13{a1.re - a3.re, a1.im - a3.im};
    // -i * d13 = (d13.im, -d13.re)
    o[0] = {s02.re + s13.re, s02.im + s13.im};
    o[m] = {d02.re + d13.im, d02.im - d13.re};
    o[2 * m] = {s02.re - s13.re, s02.im - s13.im};
    o[3 * m] = {d02.re - d13.im, d02.im + d13.re};
}

// The radix-8 butterfly on twiddled terms t[0..8), into o[0], o[m], ..., o[7m]: the DFTs of
// the even and of the odd terms (butterfly4), the odd ones' turned by exp(-2 pi i q / 8),
// then sums and differences.
inline __attribute__((always_inline)) void butterfly8(const CVec* t, CVec* o, int64_t m) {
    CVec e[4], d[4];
    butterfly4(t[0], t[2], t[4], t[6], e, 1);
    butterfly4(t[1], t[3], t[5], t[7], d, 1);
    const double h = 0.70710678118654752440;  // 1 / sqrt(2)
    const CVec d1{(d[1].re + d[1].im) * h, (d[1].im - d[1].re) * h};   // (1 - i) / sqrt(2)
    const CVec d2{d[2].im, -d[2].re};                                  // -i
    const CVec d3{(d[3].im - d[3].re) * h, -(d[3].re + d[3].im) * h};  // -(1 + i) / sqrt(2)
    o[0] = {e[0].re + d[0].re, e[0].im + d[0].im};
    o[4 * m] = {e[0].re - d[0].re, e[0].im - d[0].im};
    o[m] = {e[1].re + d1.re, e[1].im + d1.im};
    o[5 * m] = {e[1].re - d1.re, e[1].im - d1.im};
    o[2 * m] = {e[2].re + d2.re, e[2].im + d2.im};
    o[6 * m] = {e[2].re - d2.re, e[2].im - d2.im};
    o[3 * m] = {e[3].re + d3.re, e[3].im + d3.im};
    o[7 * m] = {e[3].re - d3.re, e[3].im - d3.im};
}

// out[0..n) = DFT of in[0], in[stride], ... (n terms), the plan's factors from fi on.
void fft_pass(const FftPlan& plan, const CVec* in, int64_t stride, CVec* out, int64_t n, int fi) {
    if (n == 1) {
        out[0] = in[0];
        return;
    }
    const int64_t p = plan.factors[fi], m = n / p;
    // The last stage's radix 8, 4 and 2 read their single elements in place: their twiddles
    // are all 1 (which the multiplication would turn into NaN beside an infinity).
    if (m == 1 && p == 4) {
        butterfly4(in[0], in[stride], in[2 * stride], in[3 * stride], out, 1);
        return;
    }
    if (m == 1 && p == 8) {
        CVec t[8];
        for (int r = 0; r < 8; ++r) t[r] = in[r * stride];
        butterfly8(t, out, 1);
        return;
    }
    if (m == 1 && p == 2) {
        const CVec a = in[0], b = in[stride];
        out[0] = {a.re + b.re, a.im + b.im};
        out[1] = {a.re - b.re, a.im - b.im};
        return;
    }
    if (m == 1)
        for (int64_t r = 0; r < p; ++r) out[r] = in[r * stride];
    else
        for (int64_t r = 0; r < p; ++r) fft_pass(plan, in + r * stride, stride * p, out + r * m, m, fi + 1);
    const int64_t step = plan.n / n, pstep = plan.n / p;
    const double* w = plan.twiddles;  // (re, im) of exp(-2 pi i j / plan.n) at w + 2 j
    if (p == 4) {
        for (int64_t k = 0; k < m; ++k)
            butterfly4(out[k], fft_twiddled(out[m + k], w + 2 * k * step), fft_twiddled(out[2 * m + k], w + 4 * k * step),
                       fft_twiddled(out[3 * m + k], w + 6 * k * step), out + k, m);
        return;
    }
    if (p == 8) {
        for (int64_t k = 0; k < m; ++k) {
            CVec t[8];
            t[0] = out[k];
            for (int r = 1; r < 8; ++r) t[r] = fft_twiddled(out[r * m + k], w + 2 * r * k * step);
            butterfly8(t, out + k, m);
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
    if (p == 3) {
        // X1, X2 = t0 + c (t1 + t2) -/+ i s (t1 - t2), c = cos(2 pi / 3), s = sin(2 pi / 3)
        const double c = -0.5, s = 0.86602540378443864676;
        for (int64_t k = 0; k < m; ++k) {
            const CVec t0 = out[k], t1 = fft_twiddled(out[m + k], w + 2 * k * step), t2 = fft_twiddled(out[2 * m + k], w + 4 * k * step);
            const CVec sum{t1.re + t2.re, t1.im + t2.im}, diff{(t1.re - t2.re) * s, (t1.im - t2.im) * s};
            const CVec mid{t0.re + c * sum.re, t0.im + c * sum.im};
            out[k] = {t0.re + sum.re, t0.im + sum.im};
            out[k + m] = {mid.re + diff.im, mid.im - diff.re};
            out[k + 2 * m] = {mid.re - diff.im, mid.im + diff.re};
        }
        return;
    }
    if (p == 5) {
        // With A = t1 + t4, B = t1 - t4, C = t2 + t3, D = t2 - t3 and c1, s1, c2, s2 the cosines
        // and sines of 2 pi / 5 and 4 pi / 5: X1, X4 = t0 + c1 A + c2 C -/+ i (s1 B + s2 D),
        // X2, X3 = t0 + c2 A + c1 C -/+ i (s2 B - s1 D).
        const double c1 = 0.30901699437494742410, c2 = -0.80901699437494742410;
        const double s1 = 0.95105651629515357212, s2 = 0.58778525229247312917;
        for (int64_t k = 0; k < m; ++k) {
            const CVec t0 = out[k], t1 = fft_twiddled(out[m + k], w + 2 * k * step), t2 = fft_twiddled(out[2 * m + k], w + 4 * k * step);
            const CVec t3 = fft_twiddled(out[3 * m + k], w + 6 * k * step), t4 = fft_twiddled(out[4 * m + k], w + 8 * k * step);
            const CVec a{t1.re + t4.re, t1.im + t4.im}, b{t1.re - t4.re, t1.im - t4.im};
            const CVec cc{t2.re + t3.re, t2.im + t3.im}, d{t2.re - t3.re, t2.im - t3.im};
            const CVec m1{t0.re + c1 * a.re + c2 * cc.re, t0.im + c1 * a.im + c2 * cc.im};
            const CVec m2{t0.re + c2 * a.re + c1 * cc.re, t0.im + c2 * a.im + c1 * cc.im};
            const CVec r1{s1 * b.re + s2 * d.re, s1 * b.im + s2 * d.im}, r2{s2 * b.re - s1 * d.re, s2 * b.im - s1 * d.im};
            out[k] = {t0.re + a.re + cc.re, t0.im + a.im + cc.im};
            out[k + m] = {m1.re + r1.im, m1.im - r1.re};
            out[k + 4 * m] = {m1.re - r1.im, m1.im + r1.re};
            out[k + 2 * m] = {m2.re + r2.im, m2.im - r2.re};
            out[k + 3 * m] = {m2.re - r2.im, m2.im + r2.re};
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

// W<double> values of S (float or double) at p, as doubles; and back.
template <class S>
inline __attribute__((always_inline)) V<double> load_doubles(const S* p) {
    if constexpr (std::is_same_v<S, float>) {
        typename VT<float, VB / 2>::type h;
        memcpy(&h, p, sizeof h);
        return __builtin_convertvector(h, V<double>);
    } else {
        return load(p);
    }
}

template <class D>
inline __attribute__((always_inline)) void store_doubles(D* p, const V<double>& v) {
    if constexpr (std::is_same_v<D, float>) store_vec(p, __builtin_convertvector(v, typename VT<float, VB / 2>::type));
    else store_vec(p, v);
}

// Two vectors' worth: W<double> pairs.
template <class S>
inline __attribute__((always_inline)) void load_pairs(const S* p, V<double>& lo, V<double>& hi) {
    lo = load_doubles(p);
    hi = load_doubles(p + W<double>);
}

template <class D>
inline __attribute__((always_inline)) void store_pairs(D* p, const V<double>& lo, const V<double>& hi) {
    store_doubles(p, lo);
    store_doubles(p + W<double>, hi);
}

// Lines of interleaved pairs (re, im: float or double, each line contiguous) to and from
// fft_lines's block layout, for the lines' first `pairs` pairs: a tile of W<double> lines by
// W<double> / 2 pairs at a time through the register transpose of simd_transpose.hpp, where
// the loop it replaces moved one value at a time (a quarter of an irfft of 1024 lines of
// 1024 float32). `sign` multiplies the imaginary parts (the inverse's conjugates). Into the
// block: every lane's line is read; out of it: the first `count` lines are written.
template <class S>
void pairs_to_block(const void* const* lines, int64_t pairs, double sign, double* block) {
    constexpr int lanes = W<double>, per_tile = lanes / 2;
    const S* const* src = (const S* const*)lines;
    int64_t k = 0;
    for (; k + per_tile <= pairs; k += per_tile) {
        V<uint64_t> r[lanes];
        for (int l = 0; l < lanes; ++l) r[l] = (V<uint64_t>)load_doubles(src[l] + 2 * k);
        transpose_stage<uint64_t, 1, 1>(r);  // r[j]: the j-th double of every line
        for (int j = 0; j < lanes; ++j) store_vec(block + (2 * k + j) * lanes, (j & 1) ? (V<double>)r[j] * sign : (V<double>)r[j]);
    }
    for (; k < pairs; ++k)
        for (int l = 0; l < lanes; ++l) {
            block[2 * k * lanes + l] = (double)src[l][2 * k];
            block[(2 * k + 1) * lanes + l] = sign * (double)src[l][2 * k + 1];
        }
}

template <class D>
void block_to_pairs(const double* block, int64_t pairs, double sign, void* const* lines, int64_t count) {
    constexpr int lanes = W<double>, per_tile = lanes / 2;
    D* const* dst = (D* const*)lines;
    int64_t k = 0;
    for (; k + per_tile <= pairs; k += per_tile) {
        V<uint64_t> r[lanes];
        for (int j = 0; j < lanes; ++j) {
            const V<double> v = load(block + (2 * k + j) * lanes);
            r[j] = (V<uint64_t>)((j & 1) ? v * sign : v);
        }
        transpose_stage<uint64_t, 1, 1>(r);  // r[l]: line l's pairs k .. k + per_tile - 1
        for (int64_t l = 0; l < count; ++l) store_doubles(dst[l] + 2 * k, (V<double>)r[l]);
    }
    for (; k < pairs; ++k)
        for (int64_t l = 0; l < count; ++l) {
            dst[l][2 * k] = (D)block[2 * k * lanes + l];
            dst[l][2 * k + 1] = (D)(sign * block[(2 * k + 1) * lanes + l]);
        }
}

// Lane masks: the even and odd doubles of two vectors (also in reverse order), and back.
struct PairMasks {
    V<int64_t> even, odd, even_reversed, odd_reversed, first, second;
    PairMasks() {
        constexpr int w = W<double>;
        for (int l = 0; l < w; ++l) {
            even[l] = 2 * l;
            odd[l] = 2 * l + 1;
            even_reversed[l] = 2 * (w - 1 - l);
            odd_reversed[l] = 2 * (w - 1 - l) + 1;
            first[l] = l % 2 ? w + l / 2 : l / 2;
            second[l] = l % 2 ? w + (w + l) / 2 : (w + l) / 2;
        }
    }
};

// Lines that are adjacent columns of a matrix: row j holds the lanes' j-th pairs side by
// side, rows `stride` pairs apart (the four-step transform's columns, or lines down the
// first axis). Each row is deinterleaved into (or interleaved from) the block's j-th element;
// every lane is read and written. The rows are a page or more apart and rarely in the L2,
// so the walk prefetches kRowsAhead rows ahead.
constexpr int64_t kRowsAhead = 16;

template <class S>
void columns_to_block(const void* first, int64_t stride, int64_t rows, double sign, double* block, int64_t blocks, int64_t step) {
    constexpr int lanes = W<double>;
    const PairMasks mask;
    const S* s = (const S*)first;
    for (int64_t j = 0; j < rows; ++j) {
        if (j + kRowsAhead < rows) __builtin_prefetch(s + 2 * (j + kRowsAhead) * stride);
        for (int64_t p = 0; p < blocks; ++p) {
            V<double> lo, hi;
            load_pairs(s + 2 * (j * stride + p * lanes), lo, hi);
            store_vec(block + p * step + 2 * j * lanes, __builtin_shuffle(lo, hi, mask.even));
            store_vec(block + p * step + (2 * j + 1) * lanes, __builtin_shuffle(lo, hi, mask.odd) * sign);
        }
    }
}

template <class D>
void block_to_columns(const double* block, int64_t rows, double sign, void* first, int64_t stride, int64_t blocks, int64_t step) {
    constexpr int lanes = W<double>;
    const PairMasks mask;
    D* d = (D*)first;
    for (int64_t j = 0; j < rows; ++j) {
        if (j + kRowsAhead < rows) __builtin_prefetch(d + 2 * (j + kRowsAhead) * stride, 1);
        for (int64_t p = 0; p < blocks; ++p) {
            const V<double> re = load(block + p * step + 2 * j * lanes), im = load(block + p * step + (2 * j + 1) * lanes) * sign;
            store_pairs(d + 2 * (j * stride + p * lanes), __builtin_shuffle(re, im, mask.first), __builtin_shuffle(re, im, mask.second));
        }
    }
}

// The four-step transform's middle step on a block of the lanes' columns j2 + l: element k1
// times exp(-2 pi i (j2 + l) k1 / n) = w1[hi] w2[lo] with (j2 + l) k1 = hi n2 + lo (the
// scalar loop's factors, per lane), into row k1 of `mid` (float64 pairs, rows n2 pairs
// apart, `mid` at column j2).
void twiddle_to_columns(const double* block, int64_t rows, int64_t j2, int64_t n2, const double* w1, const double* w2, double* mid) {
    constexpr int lanes = W<double>;
    const PairMasks mask;
    V<int64_t> step, lo = {}, hi = {};
    for (int l = 0; l < lanes; ++l) step[l] = j2 + l;
    for (int64_t k1 = 0; k1 < rows; ++k1) {
        if (k1 + kRowsAhead < rows) __builtin_prefetch(mid + 2 * (k1 + kRowsAhead) * n2, 1);
        V<double> ar, ai, br, bi;
        for (int l = 0; l < lanes; ++l) {
            ar[l] = w1[2 * hi[l]];
            ai[l] = w1[2 * hi[l] + 1];
            br[l] = w2[2 * lo[l]];
            bi[l] = w2[2 * lo[l] + 1];
        }
        const V<double> wr = ar * br - ai * bi, wi = ar * bi + ai * br;
        const V<double> re = load(block + 2 * k1 * lanes), im = load(block + (2 * k1 + 1) * lanes);
        const V<double> xr = re * wr - im * wi, xi = re * wi + im * wr;
        store_vec(mid + 2 * k1 * n2, __builtin_shuffle(xr, xi, mask.first));
        store_vec(mid + 2 * k1 * n2 + lanes, __builtin_shuffle(xr, xi, mask.second));
        lo += step;
        const V<int64_t> wrap = lo >= n2;  // lanes of -1 where lo passed n2
        lo -= wrap & n2;
        hi -= wrap;
    }
}

// rfft_split and irfft_merge on one line of interleaved pairs (the scratch path's lines):
// a vector's width of k at a time, lane l holding k + l, with z[m - k - l] (x[m - k - l])
// read as one run of pairs, lanes reversed. The ends (k = 0, k near m) and the rest of a
// range that is no whole vector go through the scalar steps.
struct LinePair {
    double re, im;
};

// Lanes k + l of a line's terms a (pairs at k), b (at m - k - l) and the twiddles w (at k).
struct MirroredTerms {
    V<double> ar, ai, br, bi, wr, wi;
    MirroredTerms(const PairMasks& s, const double* in, const double* w, int64_t m, int64_t k) {
        constexpr int lanes = W<double>;
        V<double> lo, hi;
        load_pairs(in + 2 * k, lo, hi);
        ar = __builtin_shuffle(lo, hi, s.even), ai = __builtin_shuffle(lo, hi, s.odd);
        load_pairs(in + 2 * (m - k - lanes + 1), lo, hi);
        br = __builtin_shuffle(lo, hi, s.even_reversed), bi = __builtin_shuffle(lo, hi, s.odd_reversed);
        load_pairs(w + 2 * k, lo, hi);
        wr = __builtin_shuffle(lo, hi, s.even), wi = __builtin_shuffle(lo, hi, s.odd);
    }
};

// The vector range of k in [k0, k1): k >= 1 and k + lanes <= m, so that m - k - l >= 1.
inline void vector_span(int64_t m, int64_t k0, int64_t k1, int64_t& v0, int64_t& v1) {
    constexpr int lanes = W<double>;
    v0 = std::min(k1, std::max<int64_t>(k0, 1));
    const int64_t end = std::min<int64_t>(k1, m - lanes + 1);
    v1 = end > v0 ? v0 + (end - v0) / lanes * lanes : v0;
}

// Split: rfft_split (X from Z); otherwise irfft_merge (conj Z from X).
template <bool Split>
void real_step_line(int64_t m, const double* w, const double* in, double* out, int64_t k0, int64_t k1) {
    constexpr int lanes = W<double>;
    const PairMasks p;
    auto scalar = [&](int64_t from, int64_t to) {
        LinePair* o = (LinePair*)out + (from - k0);
        if constexpr (Split) rfft_split(m, w, (const LinePair*)in, o, from, to);
        else irfft_merge(m, w, (const LinePair*)in, o, from, to);
    };
    int64_t v0, v1;
    vector_span(m, k0, k1, v0, v1);
    scalar(k0, v0);
    for (int64_t k = v0; k < v1; k += lanes) {
        const MirroredTerms t(p, in, w, m, k);
        V<double> re, im;
        if constexpr (Split) {
            const V<double> er = 0.5 * (t.ar + t.br), ei = 0.5 * (t.ai - t.bi), orr = 0.5 * (t.ai + t.bi), oi = 0.5 * (t.br - t.ar);
            re = er + (orr * t.wr - oi * t.wi);
            im = ei + (oi * t.wr + orr * t.wi);
        } else {
            const V<double> sr = t.ar + t.br, si = t.ai - t.bi, dr = t.ar - t.br, di = t.ai + t.bi;
            const V<double> tr = dr * t.wr + di * t.wi, ti = di * t.wr - dr * t.wi;
            re = sr - ti;
            im = -(si + tr);
        }
        store_pairs(out + 2 * (k - k0), __builtin_shuffle(re, im, p.first), __builtin_shuffle(re, im, p.second));
    }
    scalar(v1, k1);
}
